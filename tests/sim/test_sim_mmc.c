/*
 * The eMMC model's CMD6 (SWITCH) against JEDEC JESD84-B51 as PROTOCOL.md
 * sums it up: the three access modes (set bits, clear bits, write byte; command
 * set 0 changes nothing), which BUS_WIDTH / HS_TIMING values CARD_TYPE allows
 * (HS400 only after the 8-bit DDR width), PARTITION_CONFIG and
 * ERASE_GROUP_DEF, the read-only properties segment, the bus mode each value
 * selects, and the states in which each command is illegal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

#define R1_OUT_OF_RANGE (1u << 31)
#define R1_ADDRESS      (1u << 30)
#define R1_BLOCK_LEN    (1u << 29)
#define R1_ILLEGAL      (1u << 22)
#define R1_SWITCH_ERROR (1u << 7)
#define R1_STATE(r)     (((r) >> 9) & 0xfu)

/* EXT_CSD bytes (JESD84-B51 7.4). */
#define EXT_ERASE_GROUP_DEF  175u
#define EXT_PARTITION_CONFIG 179u
#define EXT_BUS_WIDTH        183u
#define EXT_HS_TIMING        185u
#define EXT_CARD_TYPE        196u

/* CMD6 argument: [25:24] access, [23:16] index, [15:8] value. */
#define SWITCH(access, idx, val) \
	(((uint32_t)(access) << 24) | ((uint32_t)(idx) << 16) | ((uint32_t)(val) << 8))
#define ACC_CMDSET 0u
#define ACC_SET    1u
#define ACC_CLEAR  2u
#define ACC_WRITE  3u

static uint8_t card_type;
static bool no_8bit, byte_mode;

static void tweak(struct mmchal_sim_card_config *c)
{
	c->read_latency_ns = 0;
	c->read_rate = 0;
	c->write_rate = 0;
	c->switch_busy_ns = 0;
	if (card_type)
		c->mmc_card_type = card_type;
	c->mmc_no_8bit = no_8bit;
	if (byte_mode) {
		c->byte_mode = true;
		c->capacity = 1u << 30;
	}
}

static void open_mmc(struct drv *d)
{
	struct mmchal_sim_card_config cc;

	assert_int_equal(drv_open(d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	tweak(&cc);
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	assert_int_equal(drv_mmc_init(d), 0);
	assert_int_equal(mmchal_sim_card_state(d->sim), MMCHAL_SIM_ST_TRAN);
	drv_ack(d, 0xffffffffu);
}

static uint32_t status(struct drv *d)
{
	assert_int_equal(drv_cmd(d, C_R1 | 13, 1u << 16), 0);
	return d->rsp[0];
}

/* CMD6, then whether CMD13 reports SWITCH_ERROR. */
static bool sw_fails(struct drv *d, uint32_t access, uint32_t idx, uint32_t val)
{
	assert_int_equal(drv_cmd(d, C_R1B | 6, SWITCH(access, idx, val)), 0);
	return (status(d) & R1_SWITCH_ERROR) != 0;
}

static void assert_mode(struct drv *d, uint32_t width, enum mmchal_timing timing)
{
	uint32_t w;
	enum mmchal_timing t;

	assert_int_equal(mmchal_sim_card_bus(d->sim, &w, &t), 0);
	assert_int_equal(w, width);
	assert_int_equal(t, timing);
}

static void test_switch_access_modes(void **state)
{
	struct drv d;

	(void)state;
	open_mmc(&d);
	/* Write byte, set bits, clear bits, on ERASE_GROUP_DEF (0 or 1). */
	assert_false(sw_fails(&d, ACC_WRITE, EXT_ERASE_GROUP_DEF, 1));
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, EXT_ERASE_GROUP_DEF), 1);
	assert_false(sw_fails(&d, ACC_CLEAR, EXT_ERASE_GROUP_DEF, 1));
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, EXT_ERASE_GROUP_DEF), 0);
	assert_false(sw_fails(&d, ACC_SET, EXT_ERASE_GROUP_DEF, 1));
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, EXT_ERASE_GROUP_DEF), 1);
	assert_true(sw_fails(&d, ACC_SET, EXT_ERASE_GROUP_DEF, 2)); /* 3 is not allowed */
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, EXT_ERASE_GROUP_DEF), 1);
	assert_true(sw_fails(&d, ACC_WRITE, EXT_ERASE_GROUP_DEF, 2));
	/* Command set (access 0): nothing changes, no error. */
	assert_false(sw_fails(&d, ACC_CMDSET, EXT_ERASE_GROUP_DEF, 0));
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, EXT_ERASE_GROUP_DEF), 1);
	/* Bit 0 of CMD13 after the error: SWITCH_ERROR is cleared on read. */
	assert_int_equal(status(&d) & R1_SWITCH_ERROR, 0);

	/* PARTITION_CONFIG: only the user area (access bits 0). */
	assert_false(sw_fails(&d, ACC_WRITE, EXT_PARTITION_CONFIG, 0x48));
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, EXT_PARTITION_CONFIG), 0x48);
	assert_true(sw_fails(&d, ACC_SET, EXT_PARTITION_CONFIG, 0x01));
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, EXT_PARTITION_CONFIG), 0x48);

	/* The modes segment (< 192) is writable, the properties segment is not. */
	assert_false(sw_fails(&d, ACC_WRITE, 191, 0x5a));
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 191), 0x5a);
	assert_true(sw_fails(&d, ACC_WRITE, 192, 0x5a));
	assert_true(sw_fails(&d, ACC_WRITE, EXT_CARD_TYPE, 0xff));
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, EXT_CARD_TYPE), 0x57);
	drv_close(&d);
}

static void test_bus_width_and_timing(void **state)
{
	struct drv d;

	(void)state;
	card_type = 0;
	open_mmc(&d);
	assert_mode(&d, 1, MMCHAL_TIMING_LEGACY);
	/* BUS_WIDTH 0/1/2 = 1/4/8 bits SDR, 5/6 = 4/8 bits DDR; 3, 4, 7 reserved. */
	assert_false(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 1));
	assert_mode(&d, 4, MMCHAL_TIMING_LEGACY);
	assert_true(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 3));
	assert_true(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 4));
	assert_true(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 7));
	/* Bits 7:4 only with a DDR width: ENHANCED_STROBE (bit 7) for 8-bit DDR. */
	assert_true(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 0x12));
	assert_true(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 0x16));
	assert_mode(&d, 4, MMCHAL_TIMING_LEGACY);
	assert_false(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 2));
	assert_mode(&d, 8, MMCHAL_TIMING_LEGACY);
	/* HS_TIMING 1: high speed; with a DDR width: DDR52. */
	assert_false(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 1));
	assert_mode(&d, 8, MMCHAL_TIMING_MMC_HS);
	assert_false(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 5));
	assert_mode(&d, 4, MMCHAL_TIMING_MMC_DDR52);
	/* HS400 only from the 8-bit DDR width. */
	assert_true(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 3));
	assert_mode(&d, 4, MMCHAL_TIMING_MMC_DDR52);
	assert_false(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 6));
	assert_mode(&d, 8, MMCHAL_TIMING_MMC_DDR52);
	assert_false(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 3));
	assert_mode(&d, 8, MMCHAL_TIMING_MMC_HS400);
	assert_false(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 2));
	assert_mode(&d, 8, MMCHAL_TIMING_MMC_HS200);
	/* Timing values 4..15 are reserved; 0 is backwards compatible. */
	assert_true(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 4));
	assert_mode(&d, 8, MMCHAL_TIMING_MMC_HS200);
	assert_false(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 0));
	assert_mode(&d, 8, MMCHAL_TIMING_LEGACY);
	assert_false(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 0));
	assert_mode(&d, 1, MMCHAL_TIMING_LEGACY);
	drv_close(&d);
}

static void test_card_type_limits(void **state)
{
	struct drv d;

	(void)state;
	/* CARD_TYPE 0x01: HS26 only (no HS52, DDR, HS200, HS400). */
	card_type = 0x01;
	open_mmc(&d);
	assert_false(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 1));
	assert_true(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 2));
	assert_true(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 5));
	assert_true(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 6));
	assert_false(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 2));
	assert_true(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 3));
	drv_close(&d);
	/* CARD_TYPE 0x30 (HS200 only): no high speed, HS200 allowed. */
	card_type = 0x30;
	open_mmc(&d);
	assert_true(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 1));
	assert_false(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 2));
	assert_mode(&d, 1, MMCHAL_TIMING_MMC_HS200);
	drv_close(&d);
	/* CARD_TYPE 0x08 (DDR 1.2 V) with 0xc0 (HS400): DDR widths and HS400. */
	card_type = 0xc8;
	open_mmc(&d);
	assert_false(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 6));
	assert_false(sw_fails(&d, ACC_WRITE, EXT_HS_TIMING, 3));
	assert_mode(&d, 8, MMCHAL_TIMING_MMC_HS400);
	drv_close(&d);
	/* A card wired for 4 bits refuses 8-bit SDR and DDR. */
	card_type = 0;
	no_8bit = true;
	open_mmc(&d);
	assert_true(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 2));
	assert_true(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 6));
	assert_false(sw_fails(&d, ACC_WRITE, EXT_BUS_WIDTH, 5));
	assert_mode(&d, 4, MMCHAL_TIMING_LEGACY);
	drv_close(&d);
	no_8bit = false;
}

static void test_states_and_arguments(void **state)
{
	struct drv d;
	struct mmchal_sim_card_config cc;
	uint32_t r;

	(void)state;
	card_type = 0;
	assert_int_equal(drv_open(&d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	tweak(&cc);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	/* Idle: CMD2, CMD3, CMD6, CMD9 are not answered. */
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 1u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1B | 6, SWITCH(3, EXT_HS_TIMING, 1)), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R2 | 9, 1u << 16), MMCHAL_ETIMEDOUT);
	/* CMD1 without a voltage window the card supports: inactive for good. */
	assert_int_equal(drv_cmd(&d, C_R3 | 1, 0x00000001u), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_INA);
	assert_int_equal(drv_cmd(&d, C_R3 | 1, 0x40ff8080u), MMCHAL_ETIMEDOUT);
	/* Not even CMD0 brings it back (JESD84 inactive state): only a new power-up. */
	drv_cmd(&d, C_NONE | 0, 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_INA);
	assert_int_equal(mmchal_sim_card_remove(d.sim), 0);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	/* CMD1 with OCR 0 (inquiry) does not start the power-up. */
	assert_int_equal(drv_cmd(&d, C_R3 | 1, 0), 0);
	assert_int_equal(d.rsp[0], 0x40ff8080u);
	mmchal_sim_advance(d.sim, 2000000u);
	assert_int_equal(drv_cmd(&d, C_R3 | 1, 0x40ff8080u), 0);
	assert_int_equal(d.rsp[0], 0x40ff8080u); /* power-up starts now */
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(drv_cmd(&d, C_R3 | 1, 0x40ff8080u), 0);
	assert_int_equal(d.rsp[0], 0xc0ff8080u);
	/* Ready: CMD2; then CMD3 with RCA 0 is refused, another is taken. */
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDENT);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 7u << 16), 0);
	assert_int_equal(R1_STATE(d.rsp[0]), MMCHAL_SIM_ST_IDENT);
	/* Stand-by: CMD9 / CMD10 of another RCA are not answered, of its own are. */
	assert_int_equal(drv_cmd(&d, C_R2 | 9, 1u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R2 | 10, 7u << 16), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0), MMCHAL_ETIMEDOUT); /* EXT_CSD: tran only */
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 17, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 23, 1), MMCHAL_ETIMEDOUT);
	/* The illegal commands are reported by the next response. */
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 7u << 16), 0);
	assert_int_equal(d.rsp[0] & R1_ILLEGAL, R1_ILLEGAL);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 7u << 16), 0);
	assert_int_equal(R1_STATE(d.rsp[0]), MMCHAL_SIM_ST_STBY);
	/* Transfer: CMD9 is a stand-by command (ILLEGAL in the next response);
	   CMD16 above 512 is BLOCK_LEN_ERROR in its own. */
	assert_int_equal(drv_cmd(&d, C_R2 | 9, 7u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 513), 0);
	r = d.rsp[0];
	assert_int_equal(r & (R1_BLOCK_LEN | R1_ILLEGAL), R1_BLOCK_LEN | R1_ILLEGAL);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 7u << 16), 0);
	assert_int_equal(d.rsp[0] & (R1_BLOCK_LEN | R1_ILLEGAL), 0);
	/* SDIO and SD application commands: not for an eMMC. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 7u << 16), MMCHAL_ETIMEDOUT);
	/* Deselect (no response), then select again. */
	assert_int_equal(drv_cmd(&d, C_R1 | 7, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 7, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	drv_close(&d);
}

static void test_byte_mode_addresses(void **state)
{
	struct drv d;
	uint8_t buf[512];

	(void)state;
	card_type = 0;
	byte_mode = true;
	open_mmc(&d);
	/* A byte-addressed card (<= 2 GiB): OCR without sector mode. */
	/* Address errors come in the command's own response, and no data. */
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 100), 0);
	assert_int_equal(d.rsp[0] & (R1_ADDRESS | R1_OUT_OF_RANGE), R1_ADDRESS);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 1u << 30), 0);
	assert_int_equal(d.rsp[0] & (R1_ADDRESS | R1_OUT_OF_RANGE), R1_OUT_OF_RANGE);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, (1u << 30) - 512u, 512, 1, buf), 0);
	drv_close(&d);
	byte_mode = false;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch_access_modes),
		cmocka_unit_test(test_bus_width_and_timing),
		cmocka_unit_test(test_card_type_limits),
		cmocka_unit_test(test_states_and_arguments),
		cmocka_unit_test(test_byte_mode_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
