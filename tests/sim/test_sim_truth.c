/*
 * Simulator tests for the corrections that make the model behave like the
 * hardware the drivers that work on R-Car boards rely on (docs/sim.md,
 * "Corrections"). Each test names the correction it proves.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

#define RAM_BASE 0x40000000ull

static void fast(struct mmchal_sim_card_config *c)
{
	c->read_latency_ns = 0;
	c->read_rate = 0;
	c->write_rate = 0;
}

/* Open a simulator of @soc with a fast card of @kind in the slot. */
static void open_soc(struct drv *d, enum mmchal_sim_soc soc, uint16_t version,
		     enum mmchal_sim_card_kind kind)
{
	struct mmchal_sim_config cfg;
	struct mmchal_sim_card_config cc;

	mmchal_sim_config_defaults(&cfg, soc);
	if (version)
		cfg.version = version;
	assert_int_equal(drv_open(d, &cfg), 0);
	assert_int_equal(mmchal_sim_mem_add(d->sim, RAM_BASE, 4u << 20, NULL), 0);
	mmchal_sim_card_defaults(kind, &cc);
	fast(&cc);
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	drv_ack(d, 0xffffffffu);
}

static uint64_t bad_accesses(struct drv *d)
{
	struct mmchal_sim_counters c;

	mmchal_sim_get_counters(d->sim, &c);
	return c.bad_accesses;
}

/* Read one block by CMD17 through a data port of exactly @width bytes. */
static void read_block_width(struct drv *d, uint32_t width, uint8_t *out)
{
	uint32_t off = R_BUF << d->bus.bus_shift;

	drv_setup_data(d, 512, 1, false);
	assert_int_equal(drv_cmd(d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	assert_true(drv_wait(d, S_BRE, 100000000u) & S_BRE);
	drv_ack(d, S_BRE);
	for (uint32_t i = 0; i < 512; i += width) {
		uint64_t v = width == 4 ? d->bus.ops->read32(d->bus.ctx, off)
					: d->bus.ops->read16(d->bus.ctx, off);

		for (uint32_t k = 0; k < width; k++)
			out[i + k] = (uint8_t)(v >> (8u * k));
	}
	assert_true(drv_wait(d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	drv_ack(d, S_ACCESS_END);
}

/*
 * Correction 1: HOST_MODE on VERSION 0xcb0d selects the 32-bit port with 0 and
 * the 16-bit port with bit 0; only 0x490c uses bit 0 for 32-bit.
 */
static void test_host_mode_polarity_per_version(void **state)
{
	static const struct {
		uint16_t version, host_mode;
		uint32_t width;
	} cases[] = {
		{0xcb0du, 0x0000u, 4}, {0xcb0du, 0x0001u, 2}, {0x490cu, 0x0001u, 4},
		{0x490cu, 0x0000u, 2}, {0x820bu, 0x0000u, 2}, {0x820bu, 0x0001u, 2},
	};
	uint8_t blk[512];

	(void)state;
	for (unsigned n = 0; n < sizeof(cases) / sizeof(cases[0]); n++) {
		struct drv d;
		uint8_t *store;

		open_soc(&d, MMCHAL_SIM_SOC_GEN2, cases[n].version, MMCHAL_SIM_CARD_SD);
		store = mmchal_sim_card_store(d.sim, NULL);
		for (unsigned i = 0; i < 512; i++)
			store[i] = (uint8_t)(i * 7u + 3u);
		drv_sd_init(&d);
		mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u);
		mmchal_bus_wr16(&d.bus, R_HOSTMODE, cases[n].host_mode);
		assert_int_equal(drv_port_width(&d), cases[n].width);
		memset(blk, 0, sizeof(blk));
		read_block_width(&d, cases[n].width, blk);
		assert_int_equal(bad_accesses(&d), 0);
		assert_memory_equal(blk, store, 512);
		drv_close(&d);
	}
}

/*
 * Correction 2: a 32-bit access to SD_ARG or SD_RSP10 (and RSP32/54/76) at its
 * logical offset reaches the whole register, on every bus_shift.
 */
static void test_wide_arg_and_response_access(void **state)
{
	static const enum mmchal_sim_soc socs[] = {MMCHAL_SIM_SOC_GEN3, MMCHAL_SIM_SOC_GEN2};

	(void)state;
	for (unsigned n = 0; n < 2; n++) {
		struct drv d;
		uint32_t sh;

		open_soc(&d, socs[n], 0, MMCHAL_SIM_CARD_SD);
		sh = d.bus.bus_shift;
		d.bus.ops->write32(d.bus.ctx, R_ARG << sh, 0x12345678u);
		assert_int_equal(mmchal_bus_rd16(&d.bus, R_ARG), 0x5678u);
		assert_int_equal(mmchal_bus_rd16(&d.bus, R_ARG + 2u), 0x1234u);
		assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_ARG << sh), 0x12345678u);
		/* ACMD41 until ready: R3 0xc0ff8000 read with one 32-bit access. */
		drv_cmd(&d, C_NONE | 0, 0);
		drv_cmd(&d, C_R1 | 8, 0x1aa);
		for (int i = 0; i < 100; i++) {
			drv_cmd(&d, C_R1 | 55, 0);
			d.bus.ops->write32(d.bus.ctx, R_ARG << sh, 0x40ff8000u);
			drv_ack(&d, 0xffffffffu);
			mmchal_bus_wr16(&d.bus, R_CMD, C_R3 | C_ACMD | 41);
			assert_true(drv_wait(&d, S_RSP_END, 1000000u) & S_RSP_END);
			if (d.bus.ops->read32(d.bus.ctx, R_RSP << sh) & 0x80000000u)
				break;
			d.port.ops->delay_us(d.port.ctx, 100);
		}
		assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_RSP << sh), 0xc0ff8000u);
		/* R2: CID bits 127:8 in RSP76..RSP10, each readable in one access. */
		drv_cmd(&d, C_R2 | 2, 0);
		for (unsigned i = 0; i < 4; i++)
			assert_int_equal(d.bus.ops->read32(d.bus.ctx, (R_RSP + 4u * i) << sh),
					 d.rsp[i]);
		assert_int_equal(d.rsp[3] >> 16, 0x00aau); /* MID in bits 127:120 -> 119:112 */
		assert_int_equal(bad_accesses(&d), 0);
		drv_close(&d);
	}
}

/* Issue @cmd (with data setup done by the caller) and return the status at its end. */
static uint32_t cmd_status(struct drv *d, uint16_t cmd, uint32_t arg)
{
	drv_ack(d, 0xffffffffu);
	mmchal_bus_wr32(&d->bus, R_ARG, arg);
	mmchal_bus_wr16(&d->bus, R_CMD, cmd);
	mmchal_sim_run(d->sim, mmchal_sim_now(d->sim) + 1000000u);
	return drv_status(d);
}

/*
 * Correction 3: an error comes with its completion event. A response CRC,
 * end-bit or index error sets response end too; a data CRC, end-bit or
 * timeout error sets access end too. A response timeout has no response end.
 */
static void test_errors_come_with_completion(void **state)
{
	static const struct {
		enum mmchal_sim_fault_kind kind;
		uint32_t bit;
	} data_cases[] = {
		{MMCHAL_SIM_FAULT_DATA_CRC, S_CRC},
		{MMCHAL_SIM_FAULT_END_BIT, S_END},
		{MMCHAL_SIM_FAULT_DATA_TIMEOUT, S_DATA_TO},
	};
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 13, 0, 0};
	struct drv d;
	uint32_t st;

	(void)state;
	open_soc(&d, MMCHAL_SIM_SOC_GEN3, 0, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(drv_mmc_init(&d), 0);
	/* Response CRC error: CRC and response end together. */
	mmchal_sim_fault_add(d.sim, &f);
	st = cmd_status(&d, C_R1 | 13, 1u << 16);
	assert_int_equal(st & (S_CRC | S_RSP_END | S_CMD_TO), S_CRC | S_RSP_END);
	/* End-bit error (R2 frame where R1 was expected): end bit and response end. */
	st = cmd_status(&d, C_R2 | 13, 1u << 16);
	assert_int_equal(st & (S_END | S_RSP_END | S_CMD_TO), S_END | S_RSP_END);
	/* Index error (an R3 frame checked as R1): index error and response end. */
	drv_cmd(&d, C_NONE | 0, 0);
	st = cmd_status(&d, C_R1 | 1, 0x40ff8080u);
	assert_int_equal(st & ((1u << 16) | S_RSP_END), (1u << 16) | S_RSP_END);
	/* Response timeout: no response end. */
	st = cmd_status(&d, C_R1 | 13, 1u << 16);
	assert_int_equal(st & (S_CMD_TO | S_RSP_END), S_CMD_TO);
	drv_close(&d);

	for (unsigned n = 0; n < 3; n++) {
		struct mmchal_sim_fault df = {data_cases[n].kind, MMCHAL_SIM_AT_BLOCK, 17, 0, 0};
		open_soc(&d, MMCHAL_SIM_SOC_GEN3, 0, MMCHAL_SIM_CARD_MMC);
		assert_int_equal(drv_mmc_init(&d), 0);
		mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
		mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u);    /* 25 MHz */
		mmchal_bus_wr16(&d.bus, R_OPTION, 0x800eu); /* 1-bit, timeout 2^13 clocks */
		mmchal_sim_fault_add(d.sim, &df);
		drv_setup_data(&d, 512, 1, false);
		assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
		st = drv_wait(&d, S_ACCESS_END | S_BRE, 2000000000ull);
		assert_int_equal(st & (data_cases[n].bit | S_ACCESS_END | S_BRE),
				 data_cases[n].bit | S_ACCESS_END);
		drv_close(&d);
	}
}

/*
 * Correction 4: a data phase after a failed response is flagged as the
 * hardware flags it. After a response CRC error the card (which executed the
 * command) sends its data and the controller receives it, with the CRC bit set
 * beside response end; after a response timeout no data phase starts and the
 * data port refuses access.
 */
static void test_data_after_failed_response(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 17, 0, 0};
	struct drv d;
	uint8_t blk[512], *store;
	uint32_t st;

	(void)state;
	open_soc(&d, MMCHAL_SIM_SOC_GEN3, 0, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(drv_mmc_init(&d), 0);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[512 + i] = (uint8_t)(i ^ 0x5au);
	mmchal_sim_fault_add(d.sim, &f);
	drv_setup_data(&d, 512, 1, false);
	st = cmd_status(&d, C_R1 | C_DATA | C_READ | 17, 1);
	assert_int_equal(st & (S_CRC | S_RSP_END | S_CMD_TO), S_CRC | S_RSP_END);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_DATA);
	drv_ack(&d, S_CRC | S_RSP_END);
	st = drv_wait(&d, S_BRE, 100000000u);
	assert_int_equal(st & (S_BRE | S_ERRORS), S_BRE);
	drv_ack(&d, S_BRE);
	for (unsigned i = 0; i < 512; i += 4) {
		uint32_t v = d.bus.ops->read32(d.bus.ctx, R_BUF << 2);

		memcpy(&blk[i], &v, 4);
	}
	assert_memory_equal(blk, store + 512, 512);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(bad_accesses(&d), 0);

	/* Response timeout on a data command: no data phase at all. */
	f.kind = MMCHAL_SIM_FAULT_CMD_TIMEOUT;
	mmchal_sim_fault_add(d.sim, &f);
	drv_setup_data(&d, 512, 1, false);
	st = cmd_status(&d, C_R1 | C_DATA | C_READ | 17, 1);
	assert_int_equal(st & (S_CMD_TO | S_RSP_END), S_CMD_TO);
	mmchal_sim_run(d.sim, mmchal_sim_now(d.sim) + 100000000u);
	assert_int_equal(drv_status(&d) & (S_BRE | S_ACCESS_END | S_DATA_TO), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	(void)d.bus.ops->read32(d.bus.ctx, R_BUF << 2);
	assert_int_equal(bad_accesses(&d), 1);
	assert_true(drv_status(&d) & S_ILL);
	drv_close(&d);
}

#define S_SCLKDIVEN (1u << 29)
#define S_CBSY      (1u << 30)

/* Write @blocks blocks by PIO (32-bit port) without waiting for access end. */
static void pio_write_blocks(struct drv *d, uint16_t cmd, uint32_t blocks)
{
	drv_setup_data(d, 512, blocks, true);
	assert_int_equal(drv_cmd(d, (uint16_t)(cmd | C_DATA), 0), 0);
	for (uint32_t b = 0; b < blocks; b++) {
		assert_true(drv_wait(d, S_BWE, 100000000u) & S_BWE);
		drv_ack(d, S_BWE);
		for (unsigned i = 0; i < 512; i += 4)
			d->bus.ops->write32(d->bus.ctx, R_BUF << 2, 0xa5a5a5a5u);
	}
}

/*
 * Correction 5: hardware busy detection. After an R1b command response end
 * (and command busy clearing) comes only when the card releases DAT0; after a
 * write whose access end came while DAT0 was busy, access end is raised again
 * at busy end, with INFO2 bit 29 set.
 */
static void test_hw_busy_detection(void **state)
{
	struct drv d;
	uint64_t t0;
	uint32_t st;

	(void)state;
	open_soc(&d, MMCHAL_SIM_SOC_GEN3, 0, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(drv_mmc_init(&d), 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u); /* 25 MHz */
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	/* CMD6 (R1b), busy 100 us: response end only at busy end. */
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_ARG, 0x03b70000u); /* BUS_WIDTH = 1 bit, unchanged */
	t0 = mmchal_sim_now(d.sim);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1B | 6);
	mmchal_sim_advance(d.sim, 20000u); /* the response is long in */
	st = drv_status(&d);
	assert_int_equal(st & (S_RSP_END | S_CBSY | S_DAT0 | S_SCLKDIVEN), S_CBSY);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_PRG);
	/* A command while the R1b one waits is an illegal access. */
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | 13);
	assert_int_equal(bad_accesses(&d), 1);
	drv_ack(&d, S_ILL);
	st = drv_wait(&d, S_RSP_END, 1000000u);
	assert_int_equal(st & (S_RSP_END | S_CBSY | S_DAT0 | S_SCLKDIVEN),
			 S_RSP_END | S_DAT0 | S_SCLKDIVEN);
	assert_true(mmchal_sim_now(d.sim) >= t0 + 100000u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);

	/* CMD24: access end while programming (no bit 29), then again at busy end. */
	pio_write_blocks(&d, C_R1 | 24, 1);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_ACCESS_END | S_DAT0 | S_SCLKDIVEN), S_ACCESS_END);
	drv_ack(&d, S_ACCESS_END);
	t0 = mmchal_sim_now(d.sim);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_ACCESS_END | S_DAT0 | S_SCLKDIVEN),
			 S_ACCESS_END | S_DAT0 | S_SCLKDIVEN);
	assert_true(mmchal_sim_now(d.sim) > t0);
	drv_ack(&d, S_ACCESS_END);
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(drv_status(&d) & S_ACCESS_END, 0); /* only twice */

	/* CMD25 with auto CMD12: the same after the CMD12 busy. */
	pio_write_blocks(&d, C_R1 | C_MULTI | 25, 2);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_ACCESS_END | S_DAT0 | S_SCLKDIVEN), S_ACCESS_END);
	drv_ack(&d, S_ACCESS_END);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_ACCESS_END | S_DAT0 | S_SCLKDIVEN),
			 S_ACCESS_END | S_DAT0 | S_SCLKDIVEN);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);

	/* A read has no busy: one access end, with bit 29 already set. */
	{
		uint8_t blk[512];

		drv_ack(&d, 0xffffffffu);
		assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), 0);
		assert_int_equal(blk[0], 0xa5);
		assert_true(drv_status(&d) & S_SCLKDIVEN);
		mmchal_sim_advance(d.sim, 1000000u);
		assert_int_equal(drv_status(&d) & S_ACCESS_END, 0);
	}
	drv_close(&d);
}

/* Start the internal DMAC with DM_CM_DTRAN_MODE = @mode at @addr (64-bit write). */
static void dm_start(struct drv *d, uint32_t mode, uint64_t addr)
{
	mmchal_bus_wr16(&d->bus, R_EXTMODE, 0x1012u);
	mmchal_bus_raw_wr32(&d->bus, DM_MASK1, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_MASK2, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_INFO1, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_INFO2, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_MODE, mode);
	d->bus.ops->write64(d->bus.ctx, DM_ADDR, addr);
	mmchal_bus_raw_wr32(&d->bus, DM_CTRL, 1);
}

/* One-block DMA transfer by CMD17/CMD24; returns the SD status at the end. */
static uint32_t dm_block(struct drv *d, bool read, uint32_t mode, uint64_t addr, uint32_t lba)
{
	uint32_t st;

	drv_setup_data(d, 512, 1, false);
	dm_start(d, mode | (read ? 1u << 16 : 0), addr);
	assert_int_equal(drv_cmd(d, (uint16_t)(C_R1 | C_DATA | (read ? C_READ | 17 : 24)), lba), 0);
	st = drv_wait(d, S_ACCESS_END, 100000000u);
	drv_ack(d, S_ACCESS_END);
	mmchal_sim_run(d->sim, mmchal_sim_now(d->sim) + 1000000u); /* busy end */
	drv_ack(d, S_ACCESS_END);
	return st;
}

static void emmc_fast(struct drv *d, const struct mmchal_sim_config *cfg)
{
	struct mmchal_sim_card_config cc;

	assert_int_equal(drv_open(d, cfg), 0);
	assert_int_equal(mmchal_sim_mem_add(d->sim, RAM_BASE, 4u << 20, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	fast(&cc);
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	assert_int_equal(drv_mmc_init(d), 0);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u); /* 25 MHz */
}

/*
 * Correction 6: DM_CM_DTRAN_MODE bit 0 (address increment) and bits 5:4 (bus
 * width) take effect. Without bit 0 every 8-byte beat goes to one address,
 * except on parts with fixed address mode only; a width other than 64-bit is
 * a DMA error (assumption).
 */
static void test_idmac_mode_bits(void **state)
{
	struct mmchal_sim_config cfg;
	struct drv d;
	uint8_t *store, *mem, want[8];
	mmchal_phys_addr_t p;
	uint32_t st;

	(void)state;
	emmc_fast(&d, NULL);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 1024; i++)
		store[i] = (uint8_t)(i * 13u + 1u);
	mem = mmchal_sim_mem_alloc(d.sim, 0, 4096, 128, &p);
	assert_non_null(mem);
	/* Read with increment: the block lands in order. */
	memset(mem, 0xee, 4096);
	st = dm_block(&d, true, 0x31u, p, 0);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	assert_memory_equal(mem, store, 512);
	/* Read without increment: only the last beat stays, nothing past 8 bytes is written. */
	memset(mem, 0xee, 4096);
	st = dm_block(&d, true, 0x30u, p, 0);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	assert_memory_equal(mem, store + 504, 8);
	for (unsigned i = 8; i < 4096; i++)
		assert_int_equal(mem[i], 0xee);
	/* Write without increment: the card gets the first 8 bytes 64 times. */
	for (unsigned i = 0; i < 512; i++)
		mem[i] = (uint8_t)(i + 1u);
	memcpy(want, mem, 8);
	st = dm_block(&d, false, 0x30u, p, 1);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	for (unsigned i = 0; i < 512; i += 8)
		assert_memory_equal(store + 512 + i, want, 8);
	/* Bus width bits not both set: a DMA error at the start. */
	for (uint32_t w = 0; w < 3; w++) {
		dm_start(&d, (1u << 16) | (w << 4) | 1u, p);
		assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 17);
	}
	drv_close(&d);

	/* A part with fixed address mode only: bit 0 clear still increments. */
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
	cfg.idmac_fixed_addr_only = true;
	emmc_fast(&d, &cfg);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[i] = (uint8_t)(i * 5u + 2u);
	mem = mmchal_sim_mem_alloc(d.sim, 0, 512, 128, &p);
	assert_non_null(mem);
	st = dm_block(&d, true, 0x30u, p, 0);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	assert_memory_equal(mem, store, 512);
	drv_close(&d);
}

/*
 * Correction 7: DM_DTRAN_ADDR's upper half is at 0x888 (U-Boot ADDR_H, Zephyr),
 * not at 0x884; a 64-bit write at 0x880 still sets the whole address.
 */
static void test_idmac_addr_upper_half(void **state)
{
	struct drv d;
	mmchal_phys_addr_t p;
	uint8_t *mem;

	(void)state;
	emmc_fast(&d, NULL);
	mem = mmchal_sim_mem_alloc(d.sim, 0, 512, 128, &p);
	assert_non_null(mem);
	mmchal_bus_raw_wr32(&d.bus, DM_ADDR, (uint32_t)p);
	mmchal_bus_raw_wr32(&d.bus, DM_ADDR + 8u, 1);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_ADDR + 8u), 1);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_ADDR + 4u), 0);
	assert_true(d.bus.ops->read64(d.bus.ctx, DM_ADDR) == p + (1ull << 32));
	/* Above the 32-bit limit: a DMA error at the start. */
	mmchal_bus_raw_wr32(&d.bus, DM_MODE, (1u << 16) | 0x31u);
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 1);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 17);
	mmchal_bus_raw_wr32(&d.bus, DM_INFO2, 0);
	/* 0x884 is not the upper half: writing it leaves the address alone. */
	mmchal_bus_raw_wr32(&d.bus, DM_ADDR + 8u, 0);
	mmchal_bus_raw_wr32(&d.bus, DM_ADDR + 4u, 1);
	assert_true(d.bus.ops->read64(d.bus.ctx, DM_ADDR) == p);
	drv_setup_data(&d, 512, 1, false);
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 0x1012u);
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 1);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 0);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 1u << 20);
	drv_close(&d);
}

/*
 * Correction 8: the old DM_CM_INFO1 layout (read end at bit 17) applies to
 * R-Car H3 ES1.x as well as M3-W ES1.0; other Gen3 parts use bit 20. Write end
 * is bit 16 on both layouts.
 */
static void test_idmac_old_info1_parts(void **state)
{
	static const struct {
		enum mmchal_sim_soc soc;
		uint32_t read_end;
	} cases[] = {
		{MMCHAL_SIM_SOC_H3_ES1, 1u << 17},
		{MMCHAL_SIM_SOC_M3W_ES10, 1u << 17},
		{MMCHAL_SIM_SOC_GEN3, 1u << 20},
	};

	(void)state;
	for (unsigned n = 0; n < 3; n++) {
		struct mmchal_sim_config cfg;
		struct drv d;
		mmchal_phys_addr_t p;

		assert_int_equal(mmchal_sim_config_defaults(&cfg, cases[n].soc), 0);
		assert_int_equal(cfg.version, 0xcd10u);
		assert_int_equal(cfg.bus_shift, 2);
		assert_int_equal(cfg.dmac_old_info1, cases[n].read_end == 1u << 17);
		emmc_fast(&d, &cfg);
		assert_non_null(mmchal_sim_mem_alloc(d.sim, 0, 512, 128, &p));
		dm_block(&d, true, 0x31u, p, 0);
		assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), cases[n].read_end);
		dm_block(&d, false, 0x31u, p, 0);
		assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 1u << 16);
		drv_close(&d);
	}
	assert_int_equal(mmchal_sim_config_defaults(NULL, MMCHAL_SIM_SOC_GEN3), MMCHAL_EINVAL);
	{
		struct mmchal_sim_config cfg;

		assert_int_equal(mmchal_sim_config_defaults(&cfg, (enum mmchal_sim_soc)99),
				 MMCHAL_EINVAL);
	}
}

/*
 * Correction 9: SD_ERR_STS1 resets with bit 13 set (CRC status "010" in bits
 * 14:12); a command clears the error bits but not that field.
 */
static void test_err_sts1_reset_value(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 13, 0, 0};
	struct mmchal_sim_fault w = {MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 24, 0, 0};
	struct mmchal_sim *sim;
	struct mmchal_bus bus;
	struct drv d;

	(void)state;
	assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
	mmchal_sim_bus(sim, &bus);
	assert_int_equal(mmchal_bus_rd16(&bus, R_ERR1), 0x2000u);
	assert_int_equal(mmchal_bus_rd16(&bus, R_ERR2), 0);
	mmchal_sim_destroy(sim);

	emmc_fast(&d, NULL);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x2000u);
	mmchal_sim_fault_add(d.sim, &f);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 1u << 16), MMCHAL_EIO);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x2000u | (1u << 8));
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 1u << 16), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x2000u);
	/* A negative CRC status on a write: bit 11 and token "101" (inferred). */
	mmchal_sim_fault_add(d.sim, &w);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	pio_write_blocks(&d, C_R1 | 24, 1);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_CRC);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), (1u << 11) | 0x5000u);
	/* Soft reset: back to 0x2000. */
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x2000u);
	drv_close(&d);
}

/* SD identification up to the transfer state, with S18R in ACMD41 when @s18r. */
static uint32_t sd_ident(struct drv *d, bool s18r, bool do_cmd11)
{
	uint32_t rca;

	drv_cmd(d, C_NONE | 0, 0);
	assert_int_equal(drv_cmd(d, C_R1 | 8, 0x1aa), 0);
	for (int i = 0; i < 100; i++) {
		drv_cmd(d, C_R1 | 55, 0);
		drv_cmd(d, C_R3 | C_ACMD | 41, 0x40ff8000u | (s18r ? 1u << 24 : 0));
		if (d->rsp[0] & 0x80000000u)
			break;
		d->port.ops->delay_us(d->port.ctx, 100);
	}
	assert_int_equal(d->rsp[0] & 0x81000000u, s18r ? 0x81000000u : 0x80000000u);
	if (do_cmd11) {
		assert_int_equal(drv_cmd(d, C_R1 | 11, 0), 0);
		/* DAT0 low until the clock is stopped and restarted. */
		assert_false(drv_status(d) & S_DAT0);
		d->port.ops->delay_us(d->port.ctx, 1000);
		assert_false(drv_status(d) & S_DAT0);
		mmchal_bus_wr16(&d->bus, R_CLK, 0x0080u); /* clock off */
		d->port.ops->delay_us(d->port.ctx, 5000);
		assert_false(drv_status(d) & S_DAT0);
		mmchal_bus_wr16(&d->bus, R_CLK, 0x0180u); /* clock on again */
		d->port.ops->delay_us(d->port.ctx, 1000);
		assert_true(drv_status(d) & S_DAT0);
	}
	assert_int_equal(drv_cmd(d, C_R2 | 2, 0), 0);
	assert_int_equal(drv_cmd(d, C_R1 | 3, 0), 0);
	rca = d->rsp[0] >> 16;
	assert_int_equal(drv_cmd(d, C_R1B | 7, rca << 16), 0);
	drv_cmd(d, C_R1 | 55, rca << 16);
	assert_int_equal(drv_cmd(d, C_R1 | C_ACMD | 6, 2), 0);
	mmchal_bus_wr16(&d->bus, R_OPTION, 0x40eeu); /* 4-bit */
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u);    /* 25 MHz */
	return rca;
}

/* CMD6 mode 1 for group 1 function @fn; returns the result nibble of group 1. */
static unsigned sd_switch(struct drv *d, unsigned fn, enum mmchal_timing *t)
{
	uint8_t sw[64];

	assert_int_equal(drv_pio_read(d, C_R1 | 6, 0x80fffff0u | fn, 64, 1, sw), 0);
	assert_int_equal(mmchal_sim_card_bus(d->sim, NULL, t), 0);
	return sw[16] & 0x0fu;
}

/*
 * Correction 10: CMD6 refuses SDR50, SDR104 and DDR50 unless the card switched
 * to 1.8 V first, which takes ACMD41 with S18R granted S18A and then CMD11
 * (DAT0 low until the clock stopped and restarted). CMD11 without S18A is
 * illegal.
 */
static void test_sd_uhs_needs_voltage_switch(void **state)
{
	struct drv d;
	enum mmchal_timing t;

	(void)state;
	open_soc(&d, MMCHAL_SIM_SOC_GEN3, 0, MMCHAL_SIM_CARD_SD);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	sd_ident(&d, false, false);
	for (unsigned fn = 2; fn <= 4; fn++) {
		assert_int_equal(sd_switch(&d, fn, &t), 0xfu);
		assert_int_equal(t, MMCHAL_TIMING_LEGACY);
	}
	assert_int_equal(sd_switch(&d, 1, &t), 1u);
	assert_int_equal(t, MMCHAL_TIMING_SD_HS);
	/* CMD11 after an ACMD41 without S18R: illegal, no response. */
	drv_cmd(&d, C_NONE | 0, 0);
	drv_cmd(&d, C_R1 | 8, 0x1aa);
	for (int i = 0; i < 100 && mmchal_sim_card_state(d.sim) != MMCHAL_SIM_ST_READY; i++) {
		drv_cmd(&d, C_R1 | 55, 0);
		drv_cmd(&d, C_R3 | C_ACMD | 41, 0x40ff8000u);
		d.port.ops->delay_us(d.port.ctx, 100);
	}
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_READY);
	assert_int_equal(drv_cmd(&d, C_R1 | 11, 0), MMCHAL_ETIMEDOUT);
	drv_close(&d);

	/* With the switch: every UHS-I mode is granted. */
	open_soc(&d, MMCHAL_SIM_SOC_GEN3, 0, MMCHAL_SIM_CARD_SD);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	sd_ident(&d, true, true);
	assert_int_equal(sd_switch(&d, 2, &t), 2u);
	assert_int_equal(t, MMCHAL_TIMING_UHS_SDR50);
	assert_int_equal(sd_switch(&d, 3, &t), 3u);
	assert_int_equal(t, MMCHAL_TIMING_UHS_SDR104);
	/* A check with every group "no change" reports the current function, 3. */
	{
		uint8_t sw[64];

		assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x00ffffffu, 64, 1, sw), 0);
		assert_int_equal(sw[16], 0x03);
	}
	assert_int_equal(sd_switch(&d, 4, &t), 4u); /* last: DDR data needs IF_MODE */
	assert_int_equal(t, MMCHAL_TIMING_UHS_DDR50);
	/* In DDR now (IF_MODE bit 0): the current function reads 4. */
	{
		uint8_t sw[64];

		mmchal_bus_wr16(&d.bus, R_IFMODE, 1);
		assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x00ffffffu, 64, 1, sw), 0);
		assert_int_equal(sw[16], 0x04);
	}
	drv_close(&d);

	/* A card without UHS never grants S18A. */
	{
		struct mmchal_sim_config cfg;
		struct mmchal_sim_card_config cc;

		mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
		assert_int_equal(drv_open(&d, &cfg), 0);
		mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
		fast(&cc);
		cc.uhs = false;
		assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
		drv_cmd(&d, C_NONE | 0, 0);
		drv_cmd(&d, C_R1 | 8, 0x1aa);
		for (int i = 0; i < 100; i++) {
			drv_cmd(&d, C_R1 | 55, 0);
			drv_cmd(&d, C_R3 | C_ACMD | 41, 0x41ff8000u);
			if (d.rsp[0] & 0x80000000u)
				break;
			d.port.ops->delay_us(d.port.ctx, 100);
		}
		assert_int_equal(d.rsp[0], 0xc0ff8000u);
		assert_int_equal(drv_cmd(&d, C_R1 | 11, 0), MMCHAL_ETIMEDOUT);
		drv_close(&d);
	}
}

/* Correction 11: CMD3 in stand-by publishes a new RCA; the old one no longer selects. */
static void test_sd_cmd3_new_rca(void **state)
{
	struct drv d;
	uint32_t rca1, rca2;

	(void)state;
	open_soc(&d, MMCHAL_SIM_SOC_GEN3, 0, MMCHAL_SIM_CARD_SD);
	drv_cmd(&d, C_NONE | 0, 0);
	drv_cmd(&d, C_R1 | 8, 0x1aa);
	for (int i = 0; i < 100 && mmchal_sim_card_state(d.sim) != MMCHAL_SIM_ST_READY; i++) {
		drv_cmd(&d, C_R1 | 55, 0);
		drv_cmd(&d, C_R3 | C_ACMD | 41, 0x40ff8000u);
		d.port.ops->delay_us(d.port.ctx, 100);
	}
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	rca1 = d.rsp[0] >> 16;
	assert_int_equal(rca1, 0xb368u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	rca2 = d.rsp[0] >> 16;
	assert_int_equal(rca2, 0xb369u);
	assert_int_equal(d.rsp[0] & 0x1e00u, MMCHAL_SIM_ST_STBY << 9);
	assert_int_equal(drv_cmd(&d, C_R2 | 9, rca1 << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, rca1 << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, rca2 << 16), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	drv_close(&d);
}

/* CMD52 read of one byte of function @fn at @addr. */
static uint8_t cmd52_rd(struct drv *d, uint32_t fn, uint32_t addr)
{
	assert_int_equal(drv_cmd(d, C_R1 | 52, (fn << 28) | (addr << 9)), 0);
	return (uint8_t)d->rsp[0];
}

/* Find tuple @code in the CIS at @ptr; copies its body to @body, returns its length or -1. */
static int cis_find(struct drv *d, uint32_t ptr, uint8_t code, uint8_t *body)
{
	for (unsigned n = 0; n < 32; n++) {
		uint8_t c = cmd52_rd(d, 0, ptr), len;

		if (c == 0xff)
			return -1;
		len = cmd52_rd(d, 0, ptr + 1u);
		if (c == code) {
			for (unsigned i = 0; i < len; i++)
				body[i] = cmd52_rd(d, 0, ptr + 2u + i);
			return len;
		}
		ptr += 2u + len;
	}
	return -1;
}

/*
 * Correction 12: the SDIO CIS carries a CISTPL_FUNCE (0x22) tuple, in the common
 * CIS (type 0: block size, max clock) and in function 1's (type 1, 42 bytes for
 * SDIO 3.0: largest block size at 12-13, enable timeout at 28-29), as Linux
 * sdio_cis.c reads them.
 */
static void test_sdio_cis_funce(void **state)
{
	struct drv d;
	uint8_t body[256];
	uint32_t cis0, cis1;

	(void)state;
	open_soc(&d, MMCHAL_SIM_SOC_GEN3, 0, MMCHAL_SIM_CARD_SDIO);
	assert_int_equal(drv_cmd(&d, C_R3 | 5, 0), 0);
	for (int i = 0; i < 100; i++) {
		drv_cmd(&d, C_R3 | 5, 0x00ff8000u);
		if (d.rsp[0] >> 31)
			break;
		d.port.ops->delay_us(d.port.ctx, 100);
	}
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, d.rsp[0] & 0xffff0000u), 0);
	cis0 = cmd52_rd(&d, 0, 0x09) | (uint32_t)cmd52_rd(&d, 0, 0x0a) << 8 |
	       (uint32_t)cmd52_rd(&d, 0, 0x0b) << 16;
	cis1 = cmd52_rd(&d, 0, 0x109) | (uint32_t)cmd52_rd(&d, 0, 0x10a) << 8 |
	       (uint32_t)cmd52_rd(&d, 0, 0x10b) << 16;
	assert_int_equal(cis0, 0x1000u);
	assert_int_equal(cis1, 0x1100u);
	/* Common CIS: MANFID 0x0296 / 0x4701 and FUNCE type 0. */
	assert_int_equal(cis_find(&d, cis0, 0x20, body), 4);
	assert_int_equal(body[0] | body[1] << 8, 0x0296);
	assert_int_equal(body[2] | body[3] << 8, 0x4701);
	assert_int_equal(cis_find(&d, cis0, 0x22, body), 4);
	assert_int_equal(body[0], 0x00);
	assert_int_equal(body[1] | body[2] << 8, 512);
	assert_int_equal(body[3], 0x32); /* 2.5 x 10 Mbit/s = 25 MHz */
	/* Function 1 CIS: FUNCID SDIO and FUNCE type 1 of 42 bytes. */
	assert_int_equal(cis_find(&d, cis1, 0x21, body), 2);
	assert_int_equal(body[0], 0x0c);
	assert_int_equal(cis_find(&d, cis1, 0x22, body), 42);
	assert_int_equal(body[0], 0x01);
	assert_int_equal(body[12] | body[13] << 8, 512);
	assert_int_equal(body[28] | body[29] << 8, 10);
	drv_close(&d);
}

/*
 * Correction 13: the auto CMD12 response is in SD_RSP10 after the data end, where
 * Linux reads it (it replaces the CMD18 response there); SD_RSP54 holds it too.
 */
static void test_auto12_response_in_rsp10(void **state)
{
	struct drv d;
	uint8_t buf[2 * 512];

	(void)state;
	emmc_fast(&d, NULL);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	drv_setup_data(&d, 512, 2, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	/* The CMD18 response: state tran (4). */
	assert_int_equal(d.rsp[0], (4u << 9) | (1u << 8));
	for (unsigned b = 0; b < 2; b++) {
		assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
		drv_ack(&d, S_BRE);
		for (unsigned i = 0; i < 512; i += 4) {
			uint32_t v = d.bus.ops->read32(d.bus.ctx, R_BUF << 2);

			memcpy(&buf[b * 512u + i], &v, 4);
		}
	}
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	/* The CMD12 response: state data (5). */
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_RSP), (5u << 9) | (1u << 8));
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_RSP + 8u), (5u << 9) | (1u << 8));
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_mode_polarity_per_version),
		cmocka_unit_test(test_wide_arg_and_response_access),
		cmocka_unit_test(test_errors_come_with_completion),
		cmocka_unit_test(test_data_after_failed_response),
		cmocka_unit_test(test_hw_busy_detection),
		cmocka_unit_test(test_idmac_mode_bits),
		cmocka_unit_test(test_idmac_addr_upper_half),
		cmocka_unit_test(test_idmac_old_info1_parts),
		cmocka_unit_test(test_err_sts1_reset_value),
		cmocka_unit_test(test_sd_uhs_needs_voltage_switch),
		cmocka_unit_test(test_sd_cmd3_new_rca),
		cmocka_unit_test(test_sdio_cis_funce),
		cmocka_unit_test(test_auto12_response_in_rsp10),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
