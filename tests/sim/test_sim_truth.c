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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_mode_polarity_per_version),
		cmocka_unit_test(test_wide_arg_and_response_access),
		cmocka_unit_test(test_errors_come_with_completion),
		cmocka_unit_test(test_data_after_failed_response),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
