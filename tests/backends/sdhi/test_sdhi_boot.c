/*
 * The eMMC boot reader (sdhi_boot.h) over the register-level simulator:
 * bring-up. The bus it sets up as the card sees it (width, timing, clock),
 * the exact command sequence, cards of every size and addressing mode, and
 * every identification step failing.
 */
#define _DEFAULT_SOURCE /* mmap MAP_ANONYMOUS, MAP_NORESERVE: large cards, sparse */
#include "boot_fx.h"

static void test_init_8bit_high_speed(void **state)
{
	struct bx b;
	enum mmchal_timing t;

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), SECTORS);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 8);
	assert_int_equal(card_width(&b, &t), 8);
	assert_int_equal(t, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(mmchal_sim_card_ext_csd(b.sim, 183), 2);
	assert_int_equal(mmchal_sim_card_ext_csd(b.sim, 185), 1);
	assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
	/* 52 MHz at most from 200 MHz: 1/4, code 1, clock on; 8-bit bus; 64-bit port;
	   DMA mode; 512-byte blocks */
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x01u);
	assert_int_equal(reg16(&b, R_OPTION), 0x4000u | 0x00b0u | OPT_W8);
	assert_int_equal(reg16(&b, R_HOST_MODE), HM_64);
	assert_int_equal(reg16(&b, R_CC_EXT_MODE) & EXT_DMA, EXT_DMA);
	assert_int_equal(reg16(&b, R_SIZE), 512);
	/* The EXT_CSD went through the scratch buffer, with the cache invalidated. */
	assert_int_equal(b.scratch[212] | (b.scratch[213] << 8) | (b.scratch[214] << 16) |
				 ((uint32_t)b.scratch[215] << 24),
			 SECTORS);
	assert_int_equal(b.scratch[183], 2);
	assert_ptr_equal(inval_addr, b.scratch);
	assert_int_equal(inval_len, 512);
	bx_close(&b);
}

static void test_init_widths_by_board(void **state)
{
	static const struct {
		uint32_t bus;
		uint32_t width;
		uint16_t opt;
	} cases[] = {
		{MMCHAL_BUS_4_BIT, 4, 0},
		{0, 1, OPT_W1},
		{MMCHAL_BUS_8_BIT, 8, OPT_W8},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bx b;

		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		b.cfg.caps.bus = cases[i].bus | MMCHAL_BUS_MMC_HS;
		bx_start(&b);
		assert_int_equal(bx_init(&b), 0);
		assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), cases[i].width);
		assert_int_equal(card_width(&b, NULL), cases[i].width);
		/* the whole register: bit 14, data timeout 2^24 clocks (bits 7:4 = 11), width */
		assert_int_equal(reg16(&b, R_OPTION), 0x4000u | 0x00b0u | cases[i].opt);
		assert_int_equal(bx_read(&b, 100, 3), 0);
		bx_expect(&b, 100, 3);
		bx_close(&b);
	}
}

static void test_init_card_refuses_8bit(void **state)
{
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.mmc_no_8bit = true;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 4);
	assert_int_equal(card_width(&b, NULL), 4);
	assert_int_equal(bx_read(&b, 7, 2), 0);
	bx_expect(&b, 7, 2);
	bx_close(&b);
}

static void test_init_width_check_fails_falls_back(void **state)
{
	struct bx b;

	(void)state;
	/* The EXT_CSD read at 8 bits (the 2nd CMD8) fails: back to 1 bit (3rd), then 4
	   bits (4th) works. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_CMD, 8, 1);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 4);
	assert_int_equal(card_width(&b, NULL), 4);
	assert_int_equal(mmchal_sim_card_ext_csd(b.sim, 183), 1);
	assert_int_equal(bx_read(&b, 1000, 5), 0);
	bx_expect(&b, 1000, 5);
	bx_close(&b);

	/* Every width check fails on a 4-bit board: 1 bit, proved. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.caps.bus = MMCHAL_BUS_4_BIT;
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_CMD, 8, 1);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 1);
	assert_int_equal(card_width(&b, NULL), 1);
	assert_int_equal(bx_read(&b, 3, 1), 0);
	bx_expect(&b, 3, 1);
	bx_close(&b);

	/* Not even the 1-bit check works again: not supported. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.caps.bus = MMCHAL_BUS_4_BIT;
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_CMD, 8, 1);
	add_fault(&b, MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_CMD, 8, 2);
	assert_int_equal(bx_init(&b), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 0);
	assert_int_equal(bx_read(&b, 3, 1), MMCHAL_EINVAL);
	bx_close(&b);
}

static void test_init_timing_and_clock(void **state)
{
	static const struct {
		uint32_t bus;   /* added to 8-bit */
		uint8_t type;   /* CARD_TYPE */
		uint32_t f_max; /* board limit */
		uint16_t clk;   /* SD_CLK_CTRL */
		enum mmchal_timing timing;
	} cases[] = {
		/* no high speed on the board: 25 MHz (1/8) */
		{0, 0x57, 0, CLK_EN | 0x02u, MMCHAL_TIMING_LEGACY},
		/* a card without high speed */
		{MMCHAL_BUS_MMC_HS, 0x00, 0, CLK_EN | 0x02u, MMCHAL_TIMING_LEGACY},
		/* HS26 only: high speed at 26 MHz */
		{MMCHAL_BUS_MMC_HS, 0x01, 0, CLK_EN | 0x02u, MMCHAL_TIMING_MMC_HS},
		/* the board's limit: 20 MHz -> 12.5 MHz (1/16) */
		{MMCHAL_BUS_MMC_HS, 0x57, 20000000u, CLK_EN | 0x04u, MMCHAL_TIMING_MMC_HS},
		/* 50 MHz is the limit itself: 1/4 */
		{MMCHAL_BUS_MMC_HS, 0x57, 50000000u, CLK_EN | 0x01u, MMCHAL_TIMING_MMC_HS},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bx b;
		enum mmchal_timing t;

		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		b.cfg.caps.bus = MMCHAL_BUS_8_BIT | cases[i].bus;
		b.cfg.caps.f_max_hz = cases[i].f_max;
		b.card.mmc_card_type = cases[i].type;
		bx_start(&b);
		spy_on(&b);
		assert_int_equal(bx_init(&b), 0);
		assert_int_equal(reg16(&b, R_CLK_CTRL), cases[i].clk);
		assert_int_equal(card_width(&b, &t), 8);
		/* HS_TIMING is asked for only where board and card both have it */
		{
			uint32_t cmds[64][2];
			unsigned int n = spy_cmds(0, cmds, 64), hs = 0;

			for (unsigned int k = 0; k < n; k++)
				hs += cmds[k][0] == (0x0500u | 6) && cmds[k][1] == 0x03b90100u;
			assert_int_equal(hs, (cases[i].bus && cases[i].type) ? 1 : 0);
		}
		assert_int_equal(t, cases[i].timing);
		assert_int_equal(bx_read(&b, 9, 4), 0);
		bx_expect(&b, 9, 4);
		bx_close(&b);
	}
}

static void test_init_clock_1_1(void **state)
{
	struct bx b;

	(void)state;
	/* A 50 MHz controller clock with the 1/1 divider: the card clock is 50 MHz. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.clk_hz = 50000000u;
	b.sc.base_clock_hz = 50000000u;
	b.cfg.extra_flags = MMCHAL_SDHI_F_CLK_DIV1;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | CLK_DIV1);
	assert_int_equal(bx_read(&b, 0, 2), 0);
	bx_expect(&b, 0, 2);
	bx_close(&b);

	/* Without it, 1/2 at most: 25 MHz, code 0 */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.clk_hz = 50000000u;
	b.sc.base_clock_hz = 50000000u;
	b.soc.flags &= ~MMCHAL_SDHI_F_CLK_DIV1;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x00u);
	bx_close(&b);

	/* A divider whose clock is above the limit by a fraction of a hertz is not taken:
	   200 000 001 Hz / 4 > 50 MHz, so 1/8 */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.clk_hz = 200000001u;
	b.sc.base_clock_hz = 200000001u;
	b.cfg.caps.f_max_hz = 50000000u;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x02u);
	bx_close(&b);

	/* 400 kHz out of reach of 1/512: 250 MHz / 512 > 400 kHz */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.clk_hz = 250000000u;
	b.sc.base_clock_hz = 250000000u;
	bx_start(&b);
	assert_int_equal(bx_init(&b), MMCHAL_ERANGE);
	bx_close(&b);
}

static void test_init_byte_mode_card(void **state)
{
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.byte_mode = true;
	b.card.capacity = 32ull << 20;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	/* from the CSD */
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), (32u << 20) / 512u);
	/* byte addresses on the bus: the right sectors arrive */
	assert_int_equal(bx_read(&b, 12345, 3), 0);
	bx_expect(&b, 12345, 3);
	memset(b.buf, 0xa5, BUF_MAX + 2u * GUARD);
	assert_int_equal(bx_read(&b, (32u << 20) / 512u - 1u, 1), 0);
	bx_expect(&b, (32u << 20) / 512u - 1u, 1);
	bx_close(&b);
}

static void test_init_slow_power_up(void **state)
{
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.powerup_ns = 600000000u; /* 0.6 s: within the 1 s of CMD1 */
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_true(mmchal_sim_now(b.sim) >= 600000000u);
	bx_close(&b);

	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.powerup_ns = 3000000000u; /* 3 s: the card never got ready */
	bx_start(&b);
	assert_int_equal(bx_init(&b), MMCHAL_ETIMEDOUT);
	assert_true(mmchal_sim_now(b.sim) >= 1000000000u);
	assert_true(mmchal_sim_now(b.sim) < 3000000000u);
	bx_close(&b);
}

static void test_init_no_card_and_wrong_card(void **state)
{
	static const enum mmchal_sim_card_kind kinds[] = {MMCHAL_SIM_CARD_NONE, MMCHAL_SIM_CARD_SD};

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct bx b;

		bx_sim(&b, kinds[i]);
		bx_start(&b);
		/* CMD1 has no answer: no eMMC */
		assert_int_equal(bx_init(&b), MMCHAL_ETIMEDOUT);
		assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 0);
		bx_close(&b);
	}
}

static void test_init_controller_without_idmac(void **state)
{
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.sc.version = VER_0CB0D; /* IP version 0x0d */
	bx_start(&b);
	assert_int_equal(bx_init(&b), MMCHAL_ENOTSUP);
	/* nothing sent to the card */
	assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_IDLE);
	assert_int_equal(mmchal_sim_reg_writes(b.sim, R_CMD << 2), 0);
	bx_close(&b);
}

static void test_init_32bit_port_without_64bit_access(void **state)
{
	struct bx b;
	struct mmchal_bus_ops ops;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	ops = *b.cfg.bus.ops;
	ops.read64 = NULL;
	ops.write64 = NULL;
	b.cfg.bus.ops = &ops;
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(reg16(&b, R_HOST_MODE), HM_32);
	/* the DMA address then in the low half */
	assert_int_equal(bx_read(&b, 77, 8), 0);
	bx_expect(&b, 77, 8);
	bx_close(&b);
}

static void test_init_faults_during_bring_up(void **state)
{
	struct bx b;
	enum mmchal_timing t;

	(void)state;
	/* HS_TIMING never seen by the card (the first CMD6 lost): legacy timing, 8 bits */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_CMD_TIMEOUT, MMCHAL_SIM_AT_CMD, 6, 0);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(card_width(&b, &t), 8);
	assert_int_equal(t, MMCHAL_TIMING_LEGACY);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x02u);
	assert_int_equal(bx_read(&b, 50, 2), 0);
	bx_expect(&b, 50, 2);
	bx_close(&b);

	/* Its response lost (a CRC error): the card did switch and is busy for a while;
	   the host waits for DAT0, keeps the legacy clock (safe at either timing) and
	   goes on to 8 bits. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 6, 0);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(card_width(&b, &t), 8);
	assert_int_equal(t, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x02u);
	assert_int_equal(bx_read(&b, 50, 2), 0);
	bx_expect(&b, 50, 2);
	bx_close(&b);

	/* Each command of the identification failing fails the bring-up with its error. */
	static const struct {
		enum mmchal_sim_fault_kind kind;
		uint8_t op;
		int err;
	} cases[] = {
		{MMCHAL_SIM_FAULT_CMD_TIMEOUT, 2, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_CMD_CRC, 3, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_CMD_CRC, 9, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_CMD_TIMEOUT, 7, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_CMD_CRC, 16, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_CRC, 8, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_TIMEOUT, 8, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_DMA_ERROR, 8, MMCHAL_EFAULT},
		{MMCHAL_SIM_FAULT_STUCK_BUSY, 7, MMCHAL_ETIMEDOUT},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		bx_start(&b);
		add_fault(&b, cases[i].kind, MMCHAL_SIM_AT_CMD, cases[i].op, 0);
		assert_int_equal(bx_init(&b), cases[i].err);
		assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 0);
		assert_int_equal(bx_read(&b, 0, 1), MMCHAL_EINVAL);
		/* the controller is left reset: clock at its bring-up value, no error bits */
		assert_int_equal(mmchal_bus_rd32(&b.cfg.bus, R_INFO1) & ST_ERRORS, 0);
		bx_close(&b);
	}
}

static void test_init_cmd6_busy_bound(void **state)
{
	struct bx b;

	(void)state;
	/* A card that holds DAT0 after the HS_TIMING switch: the wait ends after the
	   card's GENERIC_CMD6_TIME (the simulated card: 10 ms units) and the card is left
	   at legacy timing, where the next switch fails too. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_STUCK_BUSY, MMCHAL_SIM_AT_CMD, 6, 0);
	assert_int_equal(bx_init(&b), MMCHAL_ENOTSUP);
	/* each busy wait is GENERIC_CMD6_TIME (10 x 10 ms), not the 1 s default: the
	   switch, its recovery and the failed width trials take well under 2 s */
	assert_true(mmchal_sim_now(b.sim) >= 200000000u);
	assert_true(mmchal_sim_now(b.sim) < 2000000000u);
	bx_close(&b);
}

/* A card backed by an mmap'd store: only the pages read are ever touched. */
static uint8_t *big_store(uint64_t size)
{
	void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	assert_true(p != MAP_FAILED);
	return p;
}

static void fill(struct bx *b, uint64_t lba, uint32_t n)
{
	for (uint64_t i = lba * 512u; i < (lba + n) * 512u; i++)
		b->store[i] = (uint8_t)((i * 13u) ^ (i >> 9) ^ (i >> 24));
}

static void test_init_large_cards(void **state)
{
	/* Sector mode, 0x01020400 sectors (8.06 GiB): every byte of SEC_COUNT but the
	   lowest set, sector addresses above 2^24. */
	uint64_t sectors = 0x01020400u, size = sectors * 512u;
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.capacity = size;
	b.card.store = big_store(size);
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), sectors);
	fill(&b, sectors - 16u, 16);
	assert_int_equal(bx_read(&b, sectors - 16u, 16), 0);
	bx_expect(&b, sectors - 16u, 16);
	fill(&b, 0x01000001u, 3);
	assert_int_equal(bx_read(&b, 0x01000001u, 3), 0);
	bx_expect(&b, 0x01000001u, 3);
	assert_int_equal(bx_read(&b, sectors, 1), MMCHAL_ERANGE);
	bx_close(&b);
	munmap(b.card.store, (size_t)size);

	/* Byte mode, 768 MiB: C_SIZE 3071 (bits 11:10 set, across two response
	   registers), the last sector at byte address 768 MiB - 512. */
	size = 768ull << 20;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.byte_mode = true;
	b.card.capacity = size;
	b.card.store = big_store(size);
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), size / 512u);
	fill(&b, size / 512u - 2u, 2);
	assert_int_equal(bx_read(&b, size / 512u - 2u, 2), 0);
	bx_expect(&b, size / 512u - 2u, 2);
	assert_int_equal(bx_read(&b, size / 512u - 1u, 2), MMCHAL_ERANGE);
	bx_close(&b);
	munmap(b.card.store, (size_t)size);
}

static void test_init_again_and_state(void **state)
{
	struct bx b;
	unsigned int en = 0, c0 = 0;
	uint64_t waited = 0;

	(void)state;
	/* The card clock runs 74 clocks (185 us at 400 kHz) before the first command:
	   the delays between the clock enable and CMD0. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	spy_on(&b);
	assert_int_equal(bx_init(&b), 0);
	for (unsigned int i = 0; i < spy.n; i++) {
		if (!en && spy.off[i] == (R_CLK_CTRL << 2) && spy.val[i] == 0x0180u)
			en = i;
		if (en && !c0 && spy.off[i] == (R_CMD << 2))
			c0 = i;
	}
	assert_true(en > 0 && c0 > en);
	for (unsigned int i = en; i < c0; i++)
		if (spy.off[i] == SPY_DELAY)
			waited += spy.val[i];
	assert_true(waited >= 185u);

	/* A second bring-up of a card a first one left in tran (a boot loader's second
	   stage): CMD0 sends it back to idle and all goes again. */
	assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 8);
	assert_int_equal(bx_read(&b, 33, 3), 0);
	bx_expect(&b, 33, 3);
	/* A third one with arguments it refuses touches nothing: the second stays
	   usable. */
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &b.cfg, b.scratch, b.scratch_phys + 1u),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), SECTORS);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 8);
	assert_int_equal(bx_read(&b, 40, 2), 0);
	bx_expect(&b, 40, 2);
	bx_close(&b);

	/* State storage full of old bytes: a failed bring-up leaves it not ready, a
	   good one works from it. */
	bx_sim(&b, MMCHAL_SIM_CARD_NONE);
	bx_start(&b);
	memset(&b.eb, 0xff, sizeof(b.eb));
	assert_int_equal(bx_init(&b), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 0);
	assert_int_equal(bx_read(&b, 0, 1), MMCHAL_EINVAL);
	bx_close(&b);
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	memset(&b.eb, 0xff, sizeof(b.eb));
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), SECTORS);
	assert_int_equal(bx_read(&b, 1, 1), 0);
	bx_expect(&b, 1, 1);
	bx_close(&b);
}

static void test_init_host_mode_by_version_and_ops(void **state)
{
	static const struct {
		uint16_t version;
		bool rd64, wr64;
		uint16_t host_mode;
	} cases[] = {
		{0xcc10u, true, true, HM_64},   /* the first Gen3 VERSION */
		{0xcc10u, false, false, HM_32}, /* no 64-bit access: 32-bit port */
		{0xcd10u, true, false, HM_32},  /* 64-bit reads alone are not enough */
		{0xcd10u, false, true, HM_32},  /* nor 64-bit writes alone */
		{0xcb10u, false, false, 0},     /* before 0xcc10: HOST_MODE left as it is */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bx b;
		struct mmchal_bus_ops ops;

		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		b.sc.version = cases[i].version;
		bx_start(&b);
		ops = *b.cfg.bus.ops;
		if (!cases[i].rd64)
			ops.read64 = NULL;
		if (!cases[i].wr64)
			ops.write64 = NULL;
		b.cfg.bus.ops = &ops;
		assert_int_equal(bx_init(&b), 0);
		assert_int_equal(mmchal_sim_reg_writes(b.sim, R_HOST_MODE << 2) > 0,
				 cases[i].version >= 0xcc10u);
		assert_int_equal(b.cfg.bus.ops->read16(b.cfg.bus.ctx, R_HOST_MODE << 2),
				 cases[i].host_mode);
		assert_int_equal(bx_read(&b, 70, 2), 0);
		bx_expect(&b, 70, 2);
		bx_close(&b);
	}
}

static void test_init_clock_sequence(void **state)
{
	/* Every divider change: clock off (old divider), new divider, clock on (Linux
	   renesas_sdhi_set_clock: no glitch while it changes). After the soft reset the
	   cached value (0) goes back first. */
	static const uint64_t want[] = {
		0x0000, 0x0000, 0x0080, 0x0180, /* reset; 400 kHz (1/512) */
		0x0080, 0x0002, 0x0102,         /* 25 MHz (1/8) */
		0x0002, 0x0001, 0x0101,         /* 50 MHz (1/4) after HS_TIMING */
	};
	uint64_t got[16];
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	spy_on(&b);
	memset(&b.eb, 0xff, sizeof(b.eb)); /* nothing is taken from old state */
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(spy_writes(R_CLK_CTRL << 2, 0, got, 16), sizeof(want) / sizeof(want[0]));
	assert_memory_equal(got, want, sizeof(want));
	bx_close(&b);
}

static void test_init_command_sequence(void **state)
{
	/* JESD84-B51 identification and set-up, as SD_CMD (index | response type | data
	   bits) and SD_ARG; CMD1 repeats while the card is busy. */
	static const uint32_t want[][2] = {
		{0x0300u | 0, 0},            /* GO_IDLE, no response */
		{0x0700u | 1, 0x40ff8080u},  /* SEND_OP_COND, R3: sector mode */
		{0x0600u | 2, 0},            /* ALL_SEND_CID, R2 */
		{0x0400u | 3, 0x00010000u},  /* SET_RELATIVE_ADDR 1, R1 */
		{0x0600u | 9, 0x00010000u},  /* SEND_CSD, R2 */
		{0x0500u | 7, 0x00010000u},  /* SELECT, R1b */
		{0x0400u | 16, 512},         /* SET_BLOCKLEN 512 */
		{0x1c00u | 8, 0},            /* SEND_EXT_CSD, R1 + read data */
		{0x0500u | 6, 0x03b90100u},  /* SWITCH HS_TIMING = 1 */
		{0x0400u | 13, 0x00010000u}, /* SEND_STATUS */
		{0x0500u | 6, 0x03b70200u},  /* SWITCH BUS_WIDTH = 8 bit */
		{0x0400u | 13, 0x00010000u}, /* SEND_STATUS */
		{0x1c00u | 8, 0},            /* SEND_EXT_CSD at 8 bits */
	};
	uint32_t got[64][2];
	unsigned int n, k = 0;
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.powerup_ns = 5000000u; /* CMD1 a few times */
	bx_start(&b);
	spy_on(&b);
	assert_int_equal(bx_init(&b), 0);
	n = spy_cmds(0, got, 64);
	for (unsigned int i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_true(k < n);
		assert_int_equal(got[k][0], want[i][0]);
		assert_int_equal(got[k][1], want[i][1]);
		k++;
		if (i == 1) {
			/* the repeats, 1 ms apart, then the ready one */
			unsigned int rep = 0;

			while (k < n && got[k][0] == want[1][0] && got[k][1] == want[1][1]) {
				k++;
				rep++;
			}
			assert_true(rep >= 3u && rep <= 6u);
		}
	}
	assert_int_equal(k, n);

	/* A multi-block read, and after a failed one the CMD12 (argument 0: no HPI) that
	   follows the controller's reset. */
	spy.n = 0;
	assert_int_equal(bx_read(&b, 0x123, 4), 0);
	n = spy_cmds(0, got, 64);
	assert_int_equal(n, 1);
	assert_int_equal(got[0][0], 0x3c00u | 18);
	assert_int_equal(got[0][1], 0x123);
	spy.n = 0;
	add_fault(&b, MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 18, 1);
	assert_int_equal(bx_read(&b, 0x456, 4), MMCHAL_EIO);
	n = spy_cmds(0, got, 64);
	assert_int_equal(n, 2);
	assert_int_equal(got[0][0], 0x3c00u | 18);
	assert_int_equal(got[0][1], 0x456);
	assert_int_equal(got[1][0], 0x0500u | 12);
	assert_int_equal(got[1][1], 0);
	/* the soft reset (0 then 1) comes between the two */
	{
		unsigned int c12 = 0, rst = 0;

		for (unsigned int i = 0; i < spy.n; i++) {
			if (spy.off[i] == (R_CMD << 2))
				c12 = i;
			if (spy.off[i] == (R_SOFT_RST << 2) && spy.val[i] == 0 && rst == 0)
				rst = i;
		}
		assert_true(rst > 0 && rst < c12);
		assert_int_equal(spy.val[rst + 1], 1);
		assert_int_equal(spy.off[rst + 1], R_SOFT_RST << 2);
	}
	assert_int_equal(bx_read(&b, 0x456, 4), 0);
	bx_expect(&b, 0x456, 4);
	bx_close(&b);
}

static void test_switch_error_keeps_legacy_timing(void **state)
{
	struct bx b;

	(void)state;
	/* SWITCH_ERROR in the CMD13 after the HS_TIMING CMD6 (the card kept its timing):
	   the host stays at the legacy clock and still goes to 8 bits. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	spy_on(&b);
	spy.r1_op = 13;
	spy.r1_bits = 1u << 7;
	spy.r1_times = 1;
	/* the first CMD13 is the HS_TIMING check: high speed is refused, legacy stays */
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x02u);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 8);
	bx_close(&b);
}

static void test_byte_mode_csd_limits(void **state)
{
	struct bx b;

	(void)state;
	/* A byte-mode CSD that claims more than 4 GiB (C_SIZE 2999, C_SIZE_MULT 7,
	   READ_BL_LEN 12: 12 288 000 sectors): byte addresses end at 4 GiB, so the
	   capacity is taken as 2^23 sectors. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.byte_mode = true;
	bx_start(&b);
	spy_on(&b);
	spy.csd_patch = true;
	spy.csd_size = 2999;
	spy.csd_mult = 7;
	spy.csd_bl = 12;
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 1u << 23);
	bx_close(&b);

	/* One the fields say exactly: C_SIZE 1000, C_SIZE_MULT 3, READ_BL_LEN 10:
	   1001 x 32 x 1024 bytes = 64 064 sectors. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.byte_mode = true;
	bx_start(&b);
	spy_on(&b);
	spy.csd_patch = true;
	spy.csd_size = 1000;
	spy.csd_mult = 3;
	spy.csd_bl = 10;
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 64064u);
	bx_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_8bit_high_speed),
		cmocka_unit_test(test_init_widths_by_board),
		cmocka_unit_test(test_init_card_refuses_8bit),
		cmocka_unit_test(test_init_width_check_fails_falls_back),
		cmocka_unit_test(test_init_timing_and_clock),
		cmocka_unit_test(test_init_clock_1_1),
		cmocka_unit_test(test_init_byte_mode_card),
		cmocka_unit_test(test_init_slow_power_up),
		cmocka_unit_test(test_init_no_card_and_wrong_card),
		cmocka_unit_test(test_init_controller_without_idmac),
		cmocka_unit_test(test_init_32bit_port_without_64bit_access),
		cmocka_unit_test(test_init_faults_during_bring_up),
		cmocka_unit_test(test_init_cmd6_busy_bound),
		cmocka_unit_test(test_init_large_cards),
		cmocka_unit_test(test_init_again_and_state),
		cmocka_unit_test(test_init_host_mode_by_version_and_ops),
		cmocka_unit_test(test_init_clock_sequence),
		cmocka_unit_test(test_init_command_sequence),
		cmocka_unit_test(test_switch_error_keeps_legacy_timing),
		cmocka_unit_test(test_byte_mode_csd_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
