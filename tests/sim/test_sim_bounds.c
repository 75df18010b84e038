/*
 * Simulator tests of bounds and state rules: the card configuration
 * defaults, the bus clock a timing mode allows (to the hertz), a block
 * length other than 512, CMD0 resetting the bus mode, the eMMC CMD7 and
 * CMD23 rules, and a card pulled out in the middle of a block.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

#define R1_ILLEGAL  (1u << 22)
#define R1_STATE(r) (((r) >> 9) & 0xfu)

/* Every field of the defaults, as docs/sim.md section 5 lists them. */
static void test_card_defaults(void **state)
{
	struct mmchal_sim_card_config c, z;

	(void)state;
	memset(&z, 0, sizeof(z));
	assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &c), 0);
	assert_int_equal(c.kind, MMCHAL_SIM_CARD_SD);
	assert_true(c.capacity == 64ull << 20);
	assert_null(c.store);
	assert_int_equal(c.serial, 0x0badcafeu);
	assert_int_equal(c.rca, 0xb368u);
	assert_true(c.cmd23);
	assert_true(c.uhs);
	assert_false(c.byte_mode);
	assert_false(c.sdsc);
	assert_int_equal(c.mmc_card_type, 0);
	assert_false(c.mmc_no_8bit);
	assert_false(c.write_protect);
	assert_false(c.tmp_write_protect);
	assert_true(c.powerup_ns == 1000000u);
	assert_true(c.read_latency_ns == 400000u);
	assert_true(c.read_rate == 80000000u);
	assert_true(c.write_rate == 40000000u);
	assert_true(c.write_busy_ns == 2000000u);
	assert_true(c.switch_busy_ns == 0);
	assert_false(c.erased_ones);
	assert_true(c.erase_busy_ns == 1000000u);

	assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &c), 0);
	assert_int_equal(c.kind, MMCHAL_SIM_CARD_MMC);
	assert_true(c.capacity == 64ull << 20);
	assert_int_equal(c.serial, 0x0badcafeu);
	assert_int_equal(c.rca, 0);
	assert_false(c.cmd23);
	assert_false(c.uhs);
	assert_false(c.byte_mode);
	assert_int_equal(c.mmc_card_type, 0x57u);
	assert_true(c.powerup_ns == 1000000u);
	assert_true(c.read_latency_ns == 75000u);
	assert_true(c.read_rate == 250000000u);
	assert_true(c.write_rate == 125000000u);
	assert_true(c.write_busy_ns == 44000u);
	assert_true(c.switch_busy_ns == 100000u);
	assert_true(c.erase_busy_ns == 1000000u);

	assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SDIO, &c), 0);
	assert_int_equal(c.kind, MMCHAL_SIM_CARD_SDIO);
	assert_true(c.capacity == 4096u);
	assert_int_equal(c.serial, 0x0badcafeu);
	assert_int_equal(c.rca, 1);
	assert_true(c.powerup_ns == 1000000u);
	assert_true(c.read_latency_ns == 10000u);
	assert_true(c.read_rate == 0);
	assert_true(c.write_rate == 0);
	assert_true(c.write_busy_ns == 0);
	assert_true(c.erase_busy_ns == 0);

	/* An unknown kind: EINVAL and a zeroed structure. */
	memset(&c, 0x5a, sizeof(c));
	assert_int_equal(mmchal_sim_card_defaults((enum mmchal_sim_card_kind)7, &c), MMCHAL_EINVAL);
	assert_memory_equal(&c, &z, sizeof(c));
	assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, NULL), MMCHAL_EINVAL);
}

static void open_card(struct drv *d, const struct mmchal_sim_config *cfg,
		      enum mmchal_sim_card_kind kind)
{
	struct mmchal_sim_card_config cc;

	assert_int_equal(drv_open(d, cfg), 0);
	mmchal_sim_card_defaults(kind, &cc);
	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	cc.write_rate = 0;
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	mmchal_bus_wr16(&d->bus, R_HOSTMODE, 0x0101u); /* 32-bit port */
}

/*
 * The card takes the clock its timing mode allows and not one hertz more
 * (SD default speed 25 MHz, high speed 50 MHz; eMMC legacy 26 MHz: PROTOCOL.md
 * section 5, REF bus rates); above it every block fails its CRC. The clock is
 * the base clock through SD_CLK_CTRL's divider (0xff = 1/1, 0 = 1/2).
 */
static void test_clock_limit_to_the_hertz(void **state)
{
	static const struct {
		enum mmchal_sim_card_kind kind;
		bool hs;
		uint64_t base;
		uint16_t div;
		bool ok;
	} cases[] = {
		{MMCHAL_SIM_CARD_SD, false, 25000000u, 0xffu, true},
		{MMCHAL_SIM_CARD_SD, false, 25000001u, 0xffu, false},
		{MMCHAL_SIM_CARD_SD, false, 50000000u, 0x00u, true},
		{MMCHAL_SIM_CARD_SD, false, 50000004u, 0x00u, false},
		{MMCHAL_SIM_CARD_SD, false, 200000000u, 0x00u, false},
		{MMCHAL_SIM_CARD_SD, true, 50000000u, 0xffu, true},
		{MMCHAL_SIM_CARD_SD, true, 50000001u, 0xffu, false},
		{MMCHAL_SIM_CARD_SD, true, 200000000u, 0x01u, true},
		/* Several divider bits: the highest one counts (0x03: 1/8, 0x21: 1/128). */
		{MMCHAL_SIM_CARD_SD, false, 200000000u, 0x03u, true},
		{MMCHAL_SIM_CARD_SD, false, 200000008u, 0x03u, false},
		{MMCHAL_SIM_CARD_SD, false, 3200000000u, 0x21u, true},
		{MMCHAL_SIM_CARD_SD, false, 3200000128u, 0x21u, false},
		{MMCHAL_SIM_CARD_MMC, false, 26000000u, 0xffu, true},
		{MMCHAL_SIM_CARD_MMC, false, 26000001u, 0xffu, false},
	};
	struct mmchal_sim_config cfg;
	uint8_t buf[512], st[64];
	struct drv d;

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
		cfg.base_clock_hz = cases[i].base;
		open_card(&d, &cfg, cases[i].kind);
		mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u); /* identification: 1/512 */
		if (cases[i].kind == MMCHAL_SIM_CARD_SD) {
			assert_int_equal(drv_sd_init(&d), 0xb368u);
			if (cases[i].hs)
				assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x80fffff1u, 64, 1, st),
						 0);
		} else {
			assert_int_equal(drv_mmc_init(&d), 0);
		}
		mmchal_bus_wr16(&d.bus, R_CLK, (uint16_t)(0x0100u | cases[i].div));
		assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, buf),
				 cases[i].ok ? 0 : S_CRC);
		drv_close(&d);
	}
}

/*
 * SD_SIZE other than 512 on a block read or write: the card sends or expects
 * 512 bytes, so a read ends in an end-bit error and a write in a negative CRC
 * status (SD_ERR_STS1 bit 11); nothing is written.
 */
static void test_block_length_other_than_512(void **state)
{
	struct drv d;
	uint8_t buf[512], *store;
	uint32_t st;

	(void)state;
	open_card(&d, NULL, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(drv_mmc_init(&d), 0);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(buf, 0x77, sizeof(buf));
	st = drv_pio_write(&d, C_R1 | 24, 3, 256, 1, buf);
	assert_int_equal(st, S_CRC);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1) & 0x0c00u, 0x0800u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 0);
	for (unsigned i = 0; i < 512; i++)
		assert_int_equal(store[3 * 512 + i], 0);
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(drv_cmd(&d, C_R1B | 12, 0), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	st = drv_pio_read(&d, C_R1 | 17, 3, 256, 1, buf);
	assert_int_equal(st, S_END);
	/* ERR_STS1: read end-bit error (bit 4) beside the CRC status "101" of the failed write. */
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x5010u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 0);
	drv_close(&d);
}

/* CMD0 puts the card back on a 1-bit bus at legacy timing (PROTOCOL.md section 4). */
static void test_cmd0_resets_bus_mode(void **state)
{
	enum mmchal_timing t;
	struct drv d;
	uint32_t w;
	uint8_t st[64];

	(void)state;
	open_card(&d, NULL, MMCHAL_SIM_CARD_SD);
	assert_int_equal(drv_sd_init(&d), 0xb368u);
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x80fffff1u, 64, 1, st), 0);
	assert_int_equal(mmchal_sim_card_bus(d.sim, &w, &t), 0);
	assert_int_equal(w, 4);
	assert_int_equal(t, MMCHAL_TIMING_SD_HS);
	drv_cmd(&d, C_NONE | 0, 0);
	assert_int_equal(mmchal_sim_card_bus(d.sim, &w, &t), 0);
	assert_int_equal(w, 1);
	assert_int_equal(t, MMCHAL_TIMING_LEGACY);
	drv_close(&d);

	open_card(&d, NULL, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(drv_mmc_init(&d), 0);
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b70100u), 0);
	assert_int_equal(mmchal_sim_card_bus(d.sim, &w, &t), 0);
	assert_int_equal(w, 4);
	drv_cmd(&d, C_NONE | 0, 0);
	assert_int_equal(mmchal_sim_card_bus(d.sim, &w, &t), 0);
	assert_int_equal(w, 1);
	assert_int_equal(t, MMCHAL_TIMING_LEGACY);
	drv_close(&d);
}

/*
 * eMMC CMD7 (PROTOCOL.md section 1): in stand-by, another card's RCA gets no
 * response and is not an illegal command; in idle it is illegal, reported by
 * the next R1. CMD23 counts blocks in [15:0] only (bit 29 is the data tag):
 * CMD25 then ends by itself after that many blocks, without CMD12.
 */
static void test_mmc_cmd7_and_cmd23_rules(void **state)
{
	struct drv d;
	uint8_t buf[1024];

	(void)state;
	open_card(&d, NULL, MMCHAL_SIM_CARD_MMC);
	/* CMD7 in idle: illegal; the card stays idle and the next R1 says so. */
	drv_cmd(&d, C_NONE | 0, 0);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 1u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	for (int i = 0; i < 100; i++) {
		drv_cmd(&d, C_R3 | 1, 0x40ff8080u);
		if (d.rsp[0] & 0x80000000u)
			break;
		d.port.ops->delay_us(d.port.ctx, 100);
	}
	drv_cmd(&d, C_R2 | 2, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 1u << 16), 0);
	assert_int_equal(d.rsp[0] & R1_ILLEGAL, R1_ILLEGAL);
	/* CMD7 to another RCA in stand-by: silent, legal. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 2u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 1u << 16), 0);
	assert_int_equal(d.rsp[0], (uint32_t)MMCHAL_SIM_ST_STBY << 9 | (1u << 8));
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 1u << 16), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);

	/* CMD23 with the data-tag bit and a count of 2, then CMD25 without CMD12. */
	memset(buf, 0x42, sizeof(buf));
	assert_int_equal(drv_cmd(&d, C_R1 | 23, (1u << 29) | 2u), 0);
	drv_setup_data(&d, 512, 2, false);
	mmchal_bus_wr16(&d.bus, R_STOP, 0x0100u);
	assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | C_NOA12 | 25, 8, 512, 2, buf), 0);
	d.port.ops->delay_us(d.port.ctx, 1000);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_memory_equal(mmchal_sim_card_store(d.sim, NULL) + 8 * 512, buf, 1024);
	drv_close(&d);
}

/*
 * The card is pulled out while a block is on its way: the block never
 * arrives, so the read ends in a data timeout (docs/sim.md section 9), not
 * in an end-bit error.
 */
static void test_removal_during_block(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_CARD_REMOVE, MMCHAL_SIM_AT_TIME, 0, 0, 0};
	struct mmchal_sim_card_config cc;
	struct drv d;
	uint32_t st;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.read_latency_ns = 0;
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	assert_int_equal(drv_mmc_init(&d), 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u);    /* 25 MHz */
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x80aeu); /* 1-bit, timeout 2^23 clocks */
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	/* At 25 MHz on one line a block takes 164 us: pull the card 50 us in. */
	f.t_ns = mmchal_sim_now(d.sim) + 50000u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	st = drv_wait(&d, S_BRE, 4000000000ull);
	assert_int_equal(st & (S_BRE | S_ERRORS), S_DATA_TO);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_ENOMEDIUM);
	drv_close(&d);
}

/* SD up to ident: CMD0, CMD8, ACMD41 until ready, CMD2. */
static void sd_to_ident(struct drv *d)
{
	assert_true(drv_sd_ready(d));
	assert_int_equal(drv_cmd(d, C_R2 | 2, 0), 0);
	assert_int_equal(mmchal_sim_card_state(d->sim), MMCHAL_SIM_ST_IDENT);
}

/*
 * SD state rules (PROTOCOL.md sections 1 and 2): R6 carries status bit 22
 * (ILLEGAL_COMMAND) in bit 14 and bits 12:0 as they are; ACMD41 with no
 * voltage bit sends the card to inactive; ACMD6 takes only 00 and 10 and only
 * in tran; CMD7 to another RCA in stand-by is silent and legal.
 */
static void test_sd_state_rules(void **state)
{
	struct drv d;

	(void)state;
	open_card(&d, NULL, MMCHAL_SIM_CARD_SD);
	sd_to_ident(&d);
	/* CMD9 is illegal in ident: no response; CMD3's R6 reports it. */
	assert_int_equal(drv_cmd(&d, C_R2 | 9, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	assert_int_equal(d.rsp[0], (0xb368u << 16) | 0x4000u | (2u << 9) | (1u << 8));
	/* CMD7 to another RCA in stand-by: silent, the next R1 has no error. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0x1234u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), 0);
	assert_int_equal(d.rsp[0], (3u << 9) | (1u << 8));
	/* ACMD6 in stand-by: illegal. */
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0xb368u << 16), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_ACMD | 6, 2), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0xb368u << 16), 0);
	assert_int_equal(d.rsp[0], R1_ILLEGAL | (3u << 9) | (1u << 8));
	/* ACMD6 with 01 or 11 in tran: illegal, the width stays 1 bit. */
	for (uint32_t arg = 1; arg <= 3; arg += 2) {
		uint32_t w;

		assert_int_equal(drv_cmd(&d, C_R1 | 55, 0xb368u << 16), 0);
		assert_int_equal(drv_cmd(&d, C_R1 | C_ACMD | 6, arg), MMCHAL_ETIMEDOUT);
		assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), 0);
		assert_int_equal(d.rsp[0], R1_ILLEGAL | (4u << 9) | (1u << 8));
		assert_int_equal(mmchal_sim_card_bus(d.sim, &w, NULL), 0);
		assert_int_equal(w, 1);
	}
	drv_close(&d);

	/* ACMD41 whose voltage window holds no supported bit: inactive, silent from then on. */
	for (uint32_t low = 0x100u; low; low >>= 8) {
		open_card(&d, NULL, MMCHAL_SIM_CARD_SD);
		drv_cmd(&d, C_NONE | 0, 0);
		assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x1aa), 0);
		assert_int_equal(drv_cmd(&d, C_R1 | 55, 0), 0);
		assert_int_equal(drv_cmd(&d, C_R3 | C_ACMD | 41, 0x40000000u | low),
				 MMCHAL_ETIMEDOUT);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_INA);
		assert_int_equal(drv_cmd(&d, C_R1 | 55, 0), MMCHAL_ETIMEDOUT);
		drv_close(&d);
	}

	/* CMD55 twice: the second is CMD55 again (APP_CMD), not an ACMD55. */
	open_card(&d, NULL, MMCHAL_SIM_CARD_SD);
	assert_int_equal(drv_sd_init(&d), 0xb368u);
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0xb368u << 16), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0xb368u << 16), 0);
	assert_int_equal(d.rsp[0], (4u << 9) | (1u << 8) | (1u << 5));
	/* ACMD6 with 00: back to one bit. */
	assert_int_equal(drv_cmd(&d, C_R1 | C_ACMD | 6, 0), 0);
	{
		uint32_t w = 0;

		assert_int_equal(mmchal_sim_card_bus(d.sim, &w, NULL), 0);
		assert_int_equal(w, 1);
	}
	/* CMD7 of its own RCA while selected: no response, still selected. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0xb368u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	drv_close(&d);

	/* CMD3 again in stand-by with RCA 0xffff: the next one is not 0 but 1. */
	{
		struct mmchal_sim_card_config cc;

		assert_int_equal(drv_open(&d, NULL), 0);
		mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
		cc.rca = 0xffffu;
		assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
		sd_to_ident(&d);
		assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
		assert_int_equal(d.rsp[0] >> 16, 0xffffu);
		assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
		assert_int_equal(d.rsp[0] >> 16, 1);
		drv_close(&d);
	}
}

/*
 * ACMD22 SEND_NUM_WR_BLOCKS: 4 bytes, big-endian (docs/sim.md section 5), here
 * 0x00000131 after a 305-block write, read after a CMD6 status block left
 * other bytes in the card's buffer.
 */
static void test_acmd22_big_endian(void **state)
{
	static uint8_t buf[305 * 512];
	uint8_t st[64], n[4];
	struct drv d;

	(void)state;
	open_card(&d, NULL, MMCHAL_SIM_CARD_SD);
	assert_int_equal(drv_sd_init(&d), 0xb368u);
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7u);
	assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | 25, 0, 512, 305, buf), 0);
	drv_wait_not_busy(&d, 100000000u);
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x00ffffffu, 64, 1, st), 0);
	assert_int_equal(st[1], 0x64);
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0xb368u << 16), 0);
	assert_int_equal(drv_pio_read(&d, C_R1 | C_ACMD | 22, 0, 4, 1, n), 0);
	assert_int_equal(n[0], 0x00);
	assert_int_equal(n[1], 0x00);
	assert_int_equal(n[2], 0x01);
	assert_int_equal(n[3], 0x31);
	assert_memory_equal(mmchal_sim_card_store(d.sim, NULL), buf, sizeof(buf));
	drv_close(&d);
}

/*
 * docs/sim.md correction 4, the end-bit case: a data command whose response
 * fails its end bit (an R2 frame expected, R1 sent) was executed by the card,
 * so its block still comes, flagged only by the end-bit error beside response
 * end; a data command the card does not answer (CMD17 in stand-by) starts no
 * data phase at all.
 */
static void test_data_after_end_bit_error(void **state)
{
	struct drv d;
	uint8_t blk[512], *store;
	uint32_t st;

	(void)state;
	open_card(&d, NULL, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(drv_mmc_init(&d), 0);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[2 * 512 + i] = (uint8_t)(i * 5u + 1u);
	drv_setup_data(&d, 512, 1, false);
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_ARG, 2);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R2 | C_DATA | C_READ | 17);
	st = drv_wait(&d, S_RSP_END, 100000000u);
	assert_int_equal(st & (S_RSP_END | S_ERRORS), S_RSP_END | S_END);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_DATA);
	drv_ack(&d, S_RSP_END | S_END);
	st = drv_wait(&d, S_BRE, 100000000u);
	assert_int_equal(st & (S_BRE | S_ERRORS), S_BRE);
	drv_ack(&d, S_BRE);
	for (unsigned i = 0; i < 512; i += 4) {
		uint32_t v = d.bus.ops->read32(d.bus.ctx, R_BUF << 2);

		memcpy(&blk[i], &v, 4);
	}
	assert_memory_equal(blk, store + 2 * 512, 512);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);

	/* Deselected: CMD17 is illegal in stand-by, no response and no data phase. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0), MMCHAL_ETIMEDOUT);
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 2), MMCHAL_ETIMEDOUT);
	mmchal_sim_run(d.sim, mmchal_sim_now(d.sim) + 1000000000u);
	assert_int_equal(drv_status(&d) & (S_BRE | S_ACCESS_END | S_DATA_TO), 0);
	drv_close(&d);
}

/* Issue @cmd, run 1 ms, return the status. */
static uint32_t cmd_status(struct drv *d, uint16_t cmd, uint32_t arg)
{
	drv_ack(d, 0xffffffffu);
	mmchal_bus_wr32(&d->bus, R_ARG, arg);
	mmchal_bus_wr16(&d->bus, R_CMD, cmd);
	mmchal_sim_run(d->sim, mmchal_sim_now(d->sim) + 1000000u);
	return drv_status(d);
}

#define S_RSP_CHECK (S_RSP_END | S_CMD_TO | S_CRC | S_END | (1u << 16))

/*
 * SD_CMD bits 10:8 = 0: the controller infers the response type from the
 * index (docs/sim.md section 3; REF SD_CMD): CMD0 none, CMD2/9/10 R2,
 * CMD1/CMD5/ACMD41 R3 (no CRC or index check), CMD7/12/38 R1b, others R1. A
 * wrong inference shows as an end-bit error (frame length), a CRC and index
 * error (R3 checked as R1), or a response end that does not wait for DAT0.
 */
static void test_inferred_response_types(void **state)
{
	struct drv d;
	uint32_t st;

	(void)state;
	open_card(&d, NULL, MMCHAL_SIM_CARD_MMC);
	/* CMD0: no response expected, so no response timeout either. */
	st = cmd_status(&d, 0, 0);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	for (int i = 0; i < 100; i++) {
		st = cmd_status(&d, 1, 0x40ff8080u);
		assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
		if (mmchal_bus_rd32(&d.bus, R_RSP) & 0x80000000u)
			break;
		d.port.ops->delay_us(d.port.ctx, 100);
	}
	st = cmd_status(&d, 2, 0);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_RSP + 12u) >> 16, 0x00aau); /* CID MID */
	st = cmd_status(&d, 3, 1u << 16);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	st = cmd_status(&d, 9, 1u << 16);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	st = cmd_status(&d, 10, 1u << 16);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	st = cmd_status(&d, 7, 1u << 16);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	/* CMD6 as R1b by hand; CMD13 inferred as R1 answers while the card is still busy. */
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u); /* 25 MHz */
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_ARG, 0x03b70000u);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | 6);
	st = drv_wait(&d, S_RSP_END, 1000000u);
	assert_int_equal(st & (S_RSP_CHECK | S_DAT0), S_RSP_END); /* 100 us busy */
	/* CMD13 (inferred R1) is answered 98 clocks later, not at the end of the 100 us busy. */
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_ARG, 1u << 16);
	mmchal_bus_wr16(&d.bus, R_CMD, 13);
	st = drv_wait(&d, S_RSP_END, 20000u);
	assert_int_equal(st & (S_RSP_CHECK | S_DAT0), S_RSP_END);
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_RSP), (7u << 9)); /* prg, not ready */
	drv_wait_not_busy(&d, 10000000u);
	/* CMD12 after an open-ended write, inferred as R1b: response end waits for DAT0. */
	{
		uint8_t blk[512];

		memset(blk, 0x3c, sizeof(blk));
		mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
		mmchal_bus_wr16(&d.bus, R_SIZE, 512);
		mmchal_bus_wr16(&d.bus, R_STOP, 0);
		assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_MULTI | 25, 4), 0);
		assert_true(drv_wait(&d, S_BWE, 10000000u) & S_BWE);
		drv_ack(&d, S_BWE);
		for (unsigned i = 0; i < 512; i += 4)
			d.bus.ops->write32(d.bus.ctx, R_BUF << 2, 0x3c3c3c3cu);
		assert_true(drv_wait(&d, S_BWE, 10000000u) & S_BWE);
		/* The first block has left: the host sends CMD12 itself. */
		drv_ack(&d, 0xffffffffu);
		mmchal_bus_wr32(&d.bus, R_ARG, 0);
		mmchal_bus_wr16(&d.bus, R_CMD, 12);
		st = drv_wait(&d, S_RSP_END, 100000000u);
		assert_int_equal(st & (S_RSP_CHECK | S_DAT0), S_RSP_END | S_DAT0);
		assert_memory_equal(mmchal_sim_card_store(d.sim, NULL) + 4 * 512, blk, 512);
	}
	drv_close(&d);

	/* SD: ACMD41 inferred as R3 only with the ACMD bit; CMD55 as R1. */
	open_card(&d, NULL, MMCHAL_SIM_CARD_SD);
	st = cmd_status(&d, 0, 0);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	st = cmd_status(&d, 8, 0x1aa);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	st = cmd_status(&d, 55, 0);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	st = cmd_status(&d, C_ACMD | 41, 0x40ff8000u);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_RSP), 0x00ff8000u);
	st = cmd_status(&d, 55, 0);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	/* The same R3 checked as R1: CRC and index errors beside response end. */
	st = cmd_status(&d, C_R1 | C_ACMD | 41, 0x40ff8000u);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END | S_CRC | (1u << 16));
	drv_close(&d);

	/* SDIO: CMD5 inferred as R4 (like R3, unchecked). */
	open_card(&d, NULL, MMCHAL_SIM_CARD_SDIO);
	st = cmd_status(&d, 5, 0);
	assert_int_equal(st & S_RSP_CHECK, S_RSP_END);
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_RSP), (1u << 28) | 0x00ff8000u);
	drv_close(&d);
}

/*
 * SD_CLK_CTRL's divider in virtual time (docs/sim.md section 4): without a
 * card a command times out clk(48) + clk(ncr_max_clocks = 64) after the SD_CMD
 * write, clk(n) = ceil(n * 1e9 / f), f = 200 MHz through 0xff = 1/1, 0 = 1/2,
 * and the highest set bit n of the others = 1 / (4 << n).
 */
static void test_divider_in_virtual_time(void **state)
{
	static const struct {
		uint16_t div;
		uint64_t by;
	} cases[] = {
		{0xffu, 1},  {0x00u, 2},   {0x01u, 4},   {0x02u, 8},   {0x04u, 16}, {0x08u, 32},
		{0x10u, 64}, {0x20u, 128}, {0x40u, 256}, {0x80u, 512}, {0x03u, 8},  {0x41u, 256},
	};
	struct drv d;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t f = 200000000u / cases[i].by, t0, want;

		want = (48u * 1000000000ull + f - 1u) / f + (64u * 1000000000ull + f - 1u) / f;
		mmchal_bus_wr16(&d.bus, R_CLK, (uint16_t)(0x0100u | cases[i].div));
		drv_ack(&d, 0xffffffffu);
		mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | 13);
		t0 = mmchal_sim_now(d.sim);
		/* The timeout raises the line; the interrupt is taken 2 us later. */
		assert_int_equal(mmchal_sim_run(d.sim, t0 + 1000000000u), MMCHAL_SIM_RUN_IRQ);
		assert_true(mmchal_sim_now(d.sim) - t0 == want + 2000u);
		assert_int_equal(drv_status(&d) & (S_CMD_TO | S_RSP_END), S_CMD_TO);
	}
	drv_close(&d);
}

/*
 * The data port: a read before the block has arrived is an illegal access
 * (INFO2 bit 31) and returns 0; the last word of a block shorter than the port
 * width carries zeros past the block's end (a 6-byte SDIO block through the
 * 32-bit port, after an 8-byte one).
 */
static void test_port_read_edges(void **state)
{
	struct mmchal_sim_card_config cc;
	struct mmchal_sim_counters c;
	uint8_t *store;
	struct drv d;
	uint32_t w;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SDIO, &cc);
	cc.read_latency_ns = 1000000u;
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	drv_cmd(&d, C_R3 | 5, 0x00ff8000u);
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(drv_cmd(&d, C_R3 | 5, 0x00ff8000u), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 1u << 16), 0);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 16; i++)
		store[i] = (uint8_t)(0xa0u + i);
	/* 8 bytes first, read as soon as the response came: too early. */
	drv_setup_data(&d, 8, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 53, (1u << 28) | (1u << 26) | 8u), 0);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_BUF << 2), 0);
	assert_true(drv_status(&d) & S_ILL);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.bad_accesses == 1);
	drv_ack(&d, S_ILL);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_BUF << 2), 0xa3a2a1a0u);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_BUF << 2), 0xa7a6a5a4u);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	/* Then 6 bytes from 8: the second word is 0xadac in its low half only. */
	drv_setup_data(&d, 6, 1, false);
	assert_int_equal(
		drv_cmd(&d, C_R1 | C_DATA | C_READ | 53, (1u << 28) | (1u << 26) | (8u << 9) | 6u),
		0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	drv_ack(&d, S_BRE);
	w = d.bus.ops->read32(d.bus.ctx, R_BUF << 2);
	assert_int_equal(w, 0xabaaa9a8u);
	w = d.bus.ops->read32(d.bus.ctx, R_BUF << 2);
	assert_int_equal(w, 0x0000adacu);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.bad_accesses == 1);
	drv_close(&d);
}

/*
 * Data timeout window (REF SD_OPTION: 1 << (13 + n) clocks, 14 + n with the
 * extended bit 9): a first block later than the window times out exactly one
 * window after the response end (docs/sim.md section 4).
 */
static void test_data_timeout_window(void **state)
{
	static const uint16_t opts[] = {0x8000u, 0x8200u, 0x8010u, 0x8210u};
	static const uint64_t clocks[] = {1u << 13, 1u << 14, 1u << 14, 1u << 15};
	struct mmchal_sim_card_config cc;
	struct drv d;

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		uint64_t t_cmd;

		assert_int_equal(drv_open(&d, NULL), 0);
		mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
		cc.read_latency_ns = 1000000000u; /* 1 s: later than every window here */
		assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
		assert_int_equal(drv_mmc_init(&d), 0);
		mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u); /* 25 MHz: 40 ns a clock */
		mmchal_bus_wr16(&d.bus, R_OPTION, opts[i]);
		drv_setup_data(&d, 512, 1, false);
		mmchal_bus_wr32(&d.bus, R_MASK1, ~(S_DATA_TO | S_ACCESS_END));
		drv_ack(&d, 0xffffffffu);
		mmchal_bus_wr32(&d.bus, R_ARG, 0);
		mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | C_DATA | C_READ | 17);
		t_cmd = mmchal_sim_now(d.sim);
		assert_int_equal(mmchal_sim_run(d.sim, t_cmd + 100000000u), MMCHAL_SIM_RUN_IRQ);
		assert_true(mmchal_sim_now(d.sim) - t_cmd ==
			    1920u + 2000u + clocks[i] * 40u + 2000u);
		assert_true(drv_status(&d) & S_DATA_TO);
		drv_close(&d);
	}
	/* A latency of exactly the window is not later than it: the block comes. */
	assert_int_equal(drv_open(&d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.read_latency_ns = (1u << 13) * 40u;
	cc.read_rate = 0;
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	assert_int_equal(drv_mmc_init(&d), 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x8000u);
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	assert_int_equal(drv_wait(&d, S_BRE, 100000000u) & (S_BRE | S_ERRORS), S_BRE);
	drv_close(&d);
}

/*
 * A port write while a read is running is an illegal access and changes
 * nothing; a soft reset clears SD_ERR_STS1/2 (to 0x2000 / 0) along with the
 * rest (docs/sim.md section 3).
 */
static void test_port_write_during_read_and_reset(void **state)
{
	struct mmchal_sim_counters c;
	uint8_t blk[512], *store;
	struct drv d;

	(void)state;
	open_card(&d, NULL, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(drv_mmc_init(&d), 0);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[i] = (uint8_t)(i + 1u);
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	d.bus.ops->write32(d.bus.ctx, R_BUF << 2, 0xffffffffu);
	assert_true(drv_status(&d) & S_ILL);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.bad_accesses == 1);
	drv_ack(&d, 0xffffffffu);
	for (unsigned i = 0; i < 512; i += 4) {
		uint32_t v = d.bus.ops->read32(d.bus.ctx, R_BUF << 2);

		memcpy(&blk[i], &v, 4);
	}
	assert_memory_equal(blk, store, 512);
	/* No card answers CMD13 to RCA 7: ERR_STS2 bit 0; a soft reset clears it. */
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 7u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 1);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x2000u);
	drv_close(&d);
}

/*
 * A payload read (ACMD51) left unread and the card reset by CMD0: after a new
 * identification a CMD17 reads the medium, not the old payload. Without a
 * card, mmchal_sim_card_bus() says ENOMEDIUM.
 */
static void test_payload_left_behind(void **state)
{
	uint8_t blk[512], *store;
	struct drv d;
	uint32_t w;

	(void)state;
	open_card(&d, NULL, MMCHAL_SIM_CARD_SD);
	assert_int_equal(drv_sd_init(&d), 0xb368u);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[i] = (uint8_t)(i * 3u + 1u);
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0xb368u << 16), 0);
	drv_setup_data(&d, 8, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_ACMD | 51, 0), 0);
	drv_cmd(&d, C_NONE | 0, 0);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x80eeu);
	assert_int_equal(drv_sd_init(&d), 0xb368u);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), 0);
	assert_memory_equal(blk, store, 512);
	drv_close(&d);

	assert_int_equal(drv_open(&d, NULL), 0);
	assert_int_equal(mmchal_sim_card_bus(d.sim, &w, NULL), MMCHAL_ENOMEDIUM);
	drv_close(&d);
}

/*
 * Erase sequence rules (SD 4.10 table 4-42; docs/sim.md section 5): the
 * sequence is gone after a CMD33 out of order, an address past the capacity
 * or (eMMC) a CMD38 argument refused with ERASE_PARAM, so a CMD38 or CMD36
 * that follows is an ERASE_SEQ_ERROR and erases nothing; erase commands
 * outside tran are illegal.
 */
static void test_erase_sequence_resets(void **state)
{
	static const uint32_t seq = 1u << 28, oor = 1u << 31, param = 1u << 27;
	uint8_t *store;
	struct drv d;

	(void)state;
	open_card(&d, NULL, MMCHAL_SIM_CARD_SD);
	assert_int_equal(drv_sd_init(&d), 0xb368u);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(store, 0x5c, 4096);
	/* CMD32, CMD33, CMD33 again (out of order), CMD38. */
	assert_int_equal(drv_cmd(&d, C_R1 | 32, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 33, 3), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 33, 3), 0);
	assert_int_equal(drv_cmd(&d, C_R1B | 38, 0), 0);
	assert_int_equal(d.rsp[0] & seq, seq);
	/* CMD32, CMD33 past the end (OUT_OF_RANGE), CMD38. */
	assert_int_equal(drv_cmd(&d, C_R1 | 32, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 33, 0x7fffffffu), 0);
	assert_int_equal(d.rsp[0] & oor, oor);
	assert_int_equal(drv_cmd(&d, C_R1B | 38, 0), 0);
	assert_int_equal(d.rsp[0] & (seq | oor), seq);
	for (unsigned i = 0; i < 4096; i++)
		assert_int_equal(store[i], 0x5c);
	/* Outside tran: illegal. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 32, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), 0);
	assert_int_equal(d.rsp[0] & R1_ILLEGAL, R1_ILLEGAL);
	drv_close(&d);

	/* eMMC: CMD35, CMD36, CMD38 with a refused argument, then CMD36: sequence error. */
	open_card(&d, NULL, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(drv_mmc_init(&d), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 35, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 36, 1), 0);
	assert_int_equal(drv_cmd(&d, C_R1B | 38, 2), 0);
	assert_int_equal(d.rsp[0] & (param | seq), param);
	assert_int_equal(drv_cmd(&d, C_R1 | 36, 1), 0);
	assert_int_equal(d.rsp[0] & (param | seq), seq);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_card_defaults),
		cmocka_unit_test(test_clock_limit_to_the_hertz),
		cmocka_unit_test(test_block_length_other_than_512),
		cmocka_unit_test(test_cmd0_resets_bus_mode),
		cmocka_unit_test(test_mmc_cmd7_and_cmd23_rules),
		cmocka_unit_test(test_removal_during_block),
		cmocka_unit_test(test_sd_state_rules),
		cmocka_unit_test(test_acmd22_big_endian),
		cmocka_unit_test(test_data_after_end_bit_error),
		cmocka_unit_test(test_inferred_response_types),
		cmocka_unit_test(test_divider_in_virtual_time),
		cmocka_unit_test(test_port_read_edges),
		cmocka_unit_test(test_data_timeout_window),
		cmocka_unit_test(test_port_write_during_read_and_reset),
		cmocka_unit_test(test_payload_left_behind),
		cmocka_unit_test(test_erase_sequence_resets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
