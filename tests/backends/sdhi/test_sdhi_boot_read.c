/*
 * The eMMC boot reader (sdhi_boot.h) over the register-level simulator:
 * reads. The exact bytes it reads, the commands and DMAC set-up per read, the
 * errors it reports and recovers from, and its answer to every bad argument.
 */
#define _DEFAULT_SOURCE /* mmap MAP_ANONYMOUS, MAP_NORESERVE (boot_fx.h) */
#include "boot_fx.h"

static void test_read_exact_bytes(void **state)
{
	static const struct {
		uint64_t lba;
		uint32_t n;
	} cases[] = {{0, 1}, {1, 2}, {511, 9}, {4096, 64}, {SECTORS - 1u, 1}, {SECTORS - 64u, 64}};
	struct bx b;

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(b.buf, 0xa5, BUF_MAX + 2u * GUARD);
		inval_calls = 0;
		assert_int_equal(bx_read(&b, cases[i].lba, cases[i].n), 0);
		bx_expect(&b, cases[i].lba, cases[i].n);
		/* invalidated before and after the DMA, exactly the buffer */
		assert_int_equal(inval_calls, 2);
		assert_ptr_equal(inval_addr, b.buf + GUARD);
		assert_int_equal(inval_len, cases[i].n * 512u);
		assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
	}
	bx_close(&b);
}

static void test_read_single_and_multi_commands(void **state)
{
	struct bx b;
	uint64_t cmds;

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	/* One block: CMD17, no block counter, SD_STOP 0. */
	assert_int_equal(bx_read(&b, 5, 1), 0);
	assert_int_equal(reg16(&b, R_CMD), 17u | CMD_R1 | CMD_DATA | CMD_READ);
	assert_int_equal(reg16(&b, R_STOP), 0);
	/* Several: CMD18, the 32-bit counter, automatic CMD12 (SD_STOP.SEC). */
	cmds = mmchal_sim_reg_writes(b.sim, R_CMD << 2);
	assert_int_equal(bx_read(&b, 5, 3), 0);
	assert_int_equal(mmchal_sim_reg_writes(b.sim, R_CMD << 2), cmds + 1u);
	assert_int_equal(reg16(&b, R_CMD), 18u | CMD_R1 | CMD_DATA | CMD_READ | CMD_MULTI);
	assert_int_equal(reg16(&b, R_STOP), STOP_SEC);
	assert_int_equal(b.cfg.bus.ops->read32(b.cfg.bus.ctx, R_SECCNT << 2), 3);
	/* DMAC: read channel, 64-bit bus, address increment, the buffer's address */
	assert_int_equal(b.cfg.bus.ops->read32(b.cfg.bus.ctx, DM_MODE),
			 DM_READ | DM_BUS64 | DM_INCR);
	assert_int_equal(b.cfg.bus.ops->read64(b.cfg.bus.ctx, DM_ADDR), b.buf_phys + GUARD);
	assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
	bx_close(&b);
}

static void test_read_range(void **state)
{
	struct bx b;
	uint64_t n = SECTORS;

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(bx_read(&b, n - 1u, 1), 0);
	bx_expect(&b, n - 1u, 1);
	assert_int_equal(bx_read(&b, n - 4u, 4), 0);
	bx_expect(&b, n - 4u, 4);
	memset(b.buf, 0xa5, BUF_MAX + 2u * GUARD);
	assert_int_equal(bx_read(&b, n, 1), MMCHAL_ERANGE);
	assert_int_equal(bx_read(&b, n - 1u, 2), MMCHAL_ERANGE);
	assert_int_equal(bx_read(&b, UINT64_MAX, 1), MMCHAL_ERANGE);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 1, (uint32_t)n, b.buf, 0x80), MMCHAL_ERANGE);
	/* nothing touched */
	for (uint32_t i = 0; i < BUF_MAX + 2u * GUARD; i++)
		assert_int_equal(b.buf[i], 0xa5);
	bx_close(&b);
}

static void test_read_errors_recover(void **state)
{
	static const struct {
		enum mmchal_sim_fault_kind kind;
		enum mmchal_sim_fault_trigger trig;
		uint8_t op;
		uint32_t count;
		uint32_t blocks;
		int err;
	} cases[] = {
		{MMCHAL_SIM_FAULT_CMD_TIMEOUT, MMCHAL_SIM_AT_CMD, 18, 0, 8, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 18, 0, 8, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 18, 5, 8, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_END_BIT, MMCHAL_SIM_AT_BLOCK, 18, 2, 8, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_TIMEOUT, MMCHAL_SIM_AT_BLOCK, 18, 7, 8, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 18, 3, 8, MMCHAL_EFAULT},
		{MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 17, 0, 1, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_CMD, 17, 0, 1, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_TIMEOUT, MMCHAL_SIM_AT_CMD, 17, 0, 1, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_CMD, 17, 0, 1, MMCHAL_EFAULT},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bx b;

		bx_open(&b, MMCHAL_SIM_CARD_MMC);
		add_fault(&b, cases[i].kind, cases[i].trig, cases[i].op, cases[i].count);
		assert_int_equal(bx_read(&b, 200, cases[i].blocks), cases[i].err);
		assert_int_equal(mmchal_sim_faults_fired(b.sim, cases[i].kind), 1);
		/* never past the buffer */
		for (uint32_t g = 0; g < GUARD; g++) {
			assert_int_equal(b.buf[g], 0xa5);
			assert_int_equal(b.buf[GUARD + cases[i].blocks * 512u + g], 0xa5);
		}
		/* the card is back in tran and the next read works */
		assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
		assert_int_equal(bx_read(&b, 300, 8), 0);
		bx_expect(&b, 300, 8);
		bx_close(&b);
	}
}

static void test_read_dma_outside_ram(void **state)
{
	struct bx b;
	static uint8_t host[512];

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	/* The last buffer below 4 GiB passes the checks; nothing is there: DMAC error. */
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1, host, 0xfffffe00u), MMCHAL_EFAULT);
	assert_int_equal(bx_read(&b, 1, 2), 0);
	bx_expect(&b, 1, 2);
	bx_close(&b);
}

static void test_read_old_info1_layout(void **state)
{
	struct bx b;

	(void)state;
	/* M3-W ES1.0: the read-channel end is DM_CM_INFO1 bit 17. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.sc.dmac_old_info1 = true;
	b.cfg.rev = MMCHAL_SDHI_REV_M3W_ES10;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(bx_read(&b, 40, 6), 0);
	bx_expect(&b, 40, 6);
	bx_close(&b);

	/* The same controller described without the revision: bit 20 never comes; the
	   wait is bounded (2 blocks' worth: 2 * 250 ms) */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.sc.dmac_old_info1 = true;
	bx_start(&b);
	assert_int_equal(bx_init(&b), MMCHAL_ETIMEDOUT);
	assert_true(mmchal_sim_now(b.sim) >= 500000000u);
	bx_close(&b);
}

static void test_read_fixed_address_part(void **state)
{
	struct bx b;

	(void)state;
	/* RZ/G2L: only fixed address mode; DTRAN_MODE bit 0 stays clear. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.sc.idmac_fixed_addr_only = true;
	b.soc = (struct mmchal_sdhi_soc)MMCHAL_SDHI_SOC_RZG2L;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(bx_read(&b, 64, 16), 0);
	bx_expect(&b, 64, 16);
	assert_int_equal(b.cfg.bus.ops->read32(b.cfg.bus.ctx, DM_MODE), DM_READ | DM_BUS64);
	bx_close(&b);
}

static void test_read_random_faults(void **state)
{
	struct bx b;
	uint32_t ok = 0, failed = 0;
	uint64_t x = 20261203u;

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(mmchal_sim_fault_random(b.sim, 99, 20000,
						 (1u << MMCHAL_SIM_FAULT_CMD_TIMEOUT) |
							 (1u << MMCHAL_SIM_FAULT_CMD_CRC) |
							 (1u << MMCHAL_SIM_FAULT_DATA_CRC) |
							 (1u << MMCHAL_SIM_FAULT_DATA_TIMEOUT) |
							 (1u << MMCHAL_SIM_FAULT_END_BIT) |
							 (1u << MMCHAL_SIM_FAULT_DMA_ERROR)),
			 0);
	for (int i = 0; i < 300; i++) {
		uint32_t n, lba;
		int err;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		n = 1u + (uint32_t)(x >> 33) % 64u;
		lba = (uint32_t)(x >> 40) % (SECTORS - n);
		memset(b.buf, 0xa5, BUF_MAX + 2u * GUARD);
		err = bx_read(&b, lba, n);
		if (getenv("BX_DEBUG"))
			fprintf(stderr, "%d: lba %u n %u err %d\n", i, lba, n, err);
		if (err == 0) {
			bx_expect(&b, lba, n);
			ok++;
		} else {
			assert_true(err == MMCHAL_EIO || err == MMCHAL_ETIMEDOUT ||
				    err == MMCHAL_EFAULT);
			failed++;
		}
	}
	assert_true(ok > 100u);
	assert_true(failed > 10u);
	mmchal_sim_fault_clear(b.sim);
	assert_int_equal(bx_read(&b, 4242, 33), 0);
	bx_expect(&b, 4242, 33);
	bx_close(&b);
}

static void test_read_error_resets_dmac(void **state)
{
	struct bx b;
	uint64_t got[8];

	(void)state;
	/* After a DMAC error both channels are reset (active low: cleared, then set). */
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	spy_on(&b);
	b.eb.bus = b.cfg.bus;
	add_fault(&b, MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 18, 1);
	assert_int_equal(bx_read(&b, 10, 4), MMCHAL_EFAULT);
	assert_true(spy_writes(0x830u, 0, got, 8) >= 2u); /* DM_CM_RST */
	assert_int_equal(got[0], ~((1u << 8) | (1u << 9)));
	assert_int_equal(got[1], 0xffffffffu);
	assert_int_equal(bx_read(&b, 10, 4), 0);
	bx_expect(&b, 10, 4);
	bx_close(&b);
}

static void test_card_status_errors(void **state)
{
	static const struct {
		uint8_t op;
		uint32_t bits;
	} init_cases[] = {
		{3, 1u << 19},  /* CMD3: ERROR */
		{7, 1u << 20},  /* CMD7: CC_ERROR */
		{16, 1u << 29}, /* CMD16: BLOCK_LEN_ERROR */
		{8, 1u << 21},  /* CMD8: CARD_ECC_FAILED */
	};
	struct bx b;

	(void)state;
	for (size_t i = 0; i < sizeof(init_cases) / sizeof(init_cases[0]); i++) {
		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		bx_start(&b);
		spy_on(&b);
		spy.r1_op = init_cases[i].op;
		spy.r1_bits = init_cases[i].bits;
		spy.r1_times = 1;
		assert_int_equal(bx_init(&b), MMCHAL_EIO);
		assert_int_equal(spy.r1_times, 0);
		bx_close(&b);
	}

	/* A read whose R1 reports an ECC failure (CMD17) or an out-of-range address
	   (CMD18) fails with EIO; the next read works. */
	for (unsigned int k = 0; k < 2; k++) {
		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		bx_start(&b);
		spy_on(&b);
		assert_int_equal(bx_init(&b), 0);
		spy.r1_op = k ? 18 : 17;
		spy.r1_bits = k ? 1u << 31 : 1u << 21;
		spy.r1_times = 1;
		assert_int_equal(bx_read(&b, 20, k ? 5 : 1), MMCHAL_EIO);
		assert_int_equal(spy.r1_times, 0);
		assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
		assert_int_equal(bx_read(&b, 20, 5), 0);
		bx_expect(&b, 20, 5);
		bx_close(&b);
	}

	/* COM_CRC_ERROR and ILLEGAL_COMMAND belong to the previous command: not an error
	   of this one. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	spy_on(&b);
	assert_int_equal(bx_init(&b), 0);
	spy.r1_op = 17;
	spy.r1_bits = (1u << 23) | (1u << 22);
	spy.r1_times = 1;
	assert_int_equal(bx_read(&b, 20, 1), 0);
	bx_expect(&b, 20, 1);
	bx_close(&b);
}

static void test_long_select_busy(void **state)
{
	struct bx b;

	(void)state;
	/* A card busy for 30 ms after each CMD6 (HS_TIMING, BUS_WIDTH): the next
	   command waits for DAT0, or the EXT_CSD read in prg would fail. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.switch_busy_ns = 30000000u;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 8);
	assert_true(mmchal_sim_now(b.sim) >= 60000000u);
	assert_int_equal(bx_read(&b, 8, 8), 0);
	bx_expect(&b, 8, 8);
	bx_close(&b);
}

static void test_read_whole_small_card(void **state)
{
	struct bx b;

	(void)state;
	/* The smallest card, 512 KiB, read whole in one request. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.capacity = 512u << 10;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 1024);
	assert_int_equal(bx_read(&b, 0, 1024), 0);
	bx_expect(&b, 0, 1024);
	assert_int_equal(bx_read(&b, 1, 1024), MMCHAL_ERANGE);
	assert_int_equal(bx_read(&b, 0, 1025), MMCHAL_ERANGE);
	bx_close(&b);
}

static void test_bad_input(void **state)
{
	struct bx b;
	struct mmchal_sdhi_cfg c;
	struct mmchal_emmc_boot before;
	struct mmchal_port_ops nodelay;
	struct mmchal_port port;
	struct mmchal_sdhi_soc gen2 = MMCHAL_SDHI_SOC_RCAR_GEN2;
	uint64_t writes;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	writes = mmchal_sim_reg_writes(b.sim, R_SOFT_RST << 2);
	memset(&b.eb, 0x5a, sizeof(b.eb));
	before = b.eb;

	assert_int_equal(mmchal_emmc_boot_init(NULL, &b.cfg, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, NULL, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &b.cfg, NULL, b.scratch_phys), MMCHAL_EINVAL);
	/* unaligned, above 4 GiB, crossing 4 GiB */
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &b.cfg, b.scratch, b.scratch_phys + 64u),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &b.cfg, b.scratch, 0x100000000ull),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &b.cfg, b.scratch, 0xffffff80u),
			 MMCHAL_EINVAL);
	c = b.cfg;
	c.soc = NULL;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c.soc = &gen2; /* a SYS-DMAC SoC */
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c = b.cfg;
	c.clk_hz = 0;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c = b.cfg;
	c.bus.bus_shift = 1;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c.bus.bus_shift = 3;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c = b.cfg;
	c.bus.ops = NULL;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c = b.cfg;
	c.port = NULL;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	nodelay = b.ops;
	nodelay.delay_us = NULL;
	port = b.port;
	port.ops = &nodelay;
	c.port = &port;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	/* none of these touched the state or the controller */
	assert_memory_equal(&b.eb, &before, sizeof(before));
	assert_int_equal(mmchal_sim_reg_writes(b.sim, R_SOFT_RST << 2), writes);

	/* reads: a state that was never set up, then a good one */
	memset(&b.eb, 0, sizeof(b.eb));
	assert_int_equal(bx_read(&b, 0, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_sectors(NULL), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(NULL), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 0);
	assert_int_equal(bx_init(&b), 0);
	writes = mmchal_sim_reg_writes(b.sim, R_CMD << 2);
	assert_int_equal(mmchal_emmc_boot_read(NULL, 0, 1, b.buf, b.buf_phys), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1, NULL, b.buf_phys), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 0, b.buf, b.buf_phys), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1, b.buf, b.buf_phys + 8u), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1, b.buf, 0x100000000ull), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1, b.buf, 0xffffff80u), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 2, b.buf, 0xfffffe00u), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1u << 23, b.buf, 0x80u), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, UINT32_MAX, b.buf, 0x80u), MMCHAL_EINVAL);
	/* no command went out */
	assert_int_equal(mmchal_sim_reg_writes(b.sim, R_CMD << 2), writes);
	for (uint32_t i = 0; i < BUF_MAX + 2u * GUARD; i++)
		assert_int_equal(b.buf[i], 0xa5);
	bx_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_exact_bytes),
		cmocka_unit_test(test_read_single_and_multi_commands),
		cmocka_unit_test(test_read_range),
		cmocka_unit_test(test_read_errors_recover),
		cmocka_unit_test(test_read_dma_outside_ram),
		cmocka_unit_test(test_read_old_info1_layout),
		cmocka_unit_test(test_read_fixed_address_part),
		cmocka_unit_test(test_read_random_faults),
		cmocka_unit_test(test_read_error_resets_dmac),
		cmocka_unit_test(test_card_status_errors),
		cmocka_unit_test(test_long_select_busy),
		cmocka_unit_test(test_read_whole_small_card),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
