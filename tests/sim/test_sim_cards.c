/*
 * Simulator tests for what the card layer needs from the card models: the
 * write-protect switch and a write-protected card, ACMD22 after a failed
 * write, erase on SD and eMMC, an SDSC card, and an eMMC that refuses the
 * 8-bit bus.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

#define S_WP_OFF (1u << 7) /* SD_INFO1 bit 7: 1 = writable */

#define R1_OUT_OF_RANGE (1u << 31)
#define R1_ADDRESS      (1u << 30)
#define R1_ERASE_SEQ    (1u << 28)
#define R1_ERASE_PARAM  (1u << 27)
#define R1_WP_VIOLATION (1u << 26)
#define R1_SWITCH_ERROR (1u << 7)

static void fast(struct mmchal_sim_card_config *c)
{
	c->read_latency_ns = 0;
	c->read_rate = 0;
	c->write_rate = 0;
}

/* Open a Gen3 simulator with a card of @kind, tweaked by @tweak, identified. */
static uint32_t open_card(struct drv *d, enum mmchal_sim_card_kind kind,
			  void (*tweak)(struct mmchal_sim_card_config *))
{
	struct mmchal_sim_card_config cc;
	uint32_t rca = 1;

	assert_int_equal(drv_open(d, NULL), 0);
	mmchal_sim_card_defaults(kind, &cc);
	fast(&cc);
	if (tweak)
		tweak(&cc);
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	mmchal_bus_wr16(&d->bus, R_HOSTMODE, 0x0101u); /* 32-bit port */
	if (kind == MMCHAL_SIM_CARD_SD) {
		rca = drv_sd_init(d);
		assert_true(rca != 0);
	} else {
		assert_int_equal(drv_mmc_init(d), 0);
	}
	assert_int_equal(mmchal_sim_card_state(d->sim), MMCHAL_SIM_ST_TRAN);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u); /* 25 MHz */
	drv_ack(d, 0xffffffffu);
	return rca;
}

/* R1 of CMD13 for @rca. */
static uint32_t status(struct drv *d, uint32_t rca)
{
	assert_int_equal(drv_cmd(d, C_R1 | 13, rca << 16), 0);
	return d->rsp[0];
}

static void wp_switch(struct mmchal_sim_card_config *c)
{
	c->write_protect = true;
}

static void tmp_wp(struct mmchal_sim_card_config *c)
{
	c->tmp_write_protect = true;
}

/*
 * The write-protect switch is the slot's: SD_INFO1 bit 7 follows it (also when
 * moved with a card inserted), and the card still accepts a write, as an SD
 * card does with its tab set. A card that is itself write-protected (CSD
 * TMP_WRITE_PROTECT) refuses writes with WP_VIOLATION and no data phase.
 */
static void test_write_protect_switch_and_card(void **state)
{
	static const enum mmchal_sim_card_kind kinds[] = {MMCHAL_SIM_CARD_SD, MMCHAL_SIM_CARD_MMC};
	struct drv d;
	uint8_t blk[512];
	uint32_t rca;

	(void)state;
	rca = open_card(&d, MMCHAL_SIM_CARD_SD, wp_switch);
	assert_int_equal(drv_status(&d) & S_WP_OFF, 0);
	memset(blk, 0x42, sizeof(blk));
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 3, 512, 1, blk), 0);
	drv_wait_not_busy(&d, 100000000u);
	assert_int_equal(mmchal_sim_card_store(d.sim, NULL)[3 * 512], 0x42);
	assert_int_equal(mmchal_sim_card_set_wp(d.sim, false), 0);
	assert_int_equal(drv_status(&d) & S_WP_OFF, S_WP_OFF);
	assert_int_equal(mmchal_sim_card_set_wp(d.sim, true), 0);
	assert_int_equal(drv_status(&d) & S_WP_OFF, 0);
	assert_int_equal(mmchal_sim_card_set_wp(NULL, true), MMCHAL_EINVAL);
	mmchal_sim_card_remove(d.sim);
	assert_int_equal(mmchal_sim_card_set_wp(d.sim, true), MMCHAL_ENOMEDIUM);
	drv_close(&d);

	for (unsigned k = 0; k < 2; k++) {
		rca = open_card(&d, kinds[k], tmp_wp);
		assert_int_equal(drv_status(&d) & S_WP_OFF, S_WP_OFF); /* the switch is off */
		/* CSD bit 12 (TMP_WRITE_PROTECT): read in stand-by. */
		assert_int_equal(drv_cmd(&d, C_R1B | 7, 0), MMCHAL_ETIMEDOUT);
		assert_int_equal(drv_cmd(&d, C_R2 | 9, rca << 16), 0);
		/* RSP holds bits 127:8: CSD bit 12 is bit 4 of RSP10. */
		assert_int_equal(d.rsp[0] & (1u << 4), 1u << 4);
		assert_int_equal(drv_cmd(&d, C_R1B | 7, rca << 16), 0);
		/* Data timeout 2^23 clocks (0.34 s), width as set up. */
		mmchal_bus_wr16(&d.bus, R_OPTION, k == 0 ? 0x40aeu : 0x80aeu);
		memset(blk, 0x42, sizeof(blk));
		/* The controller takes the block, the card sends no CRC status: data timeout. */
		assert_int_equal(drv_pio_write(&d, C_R1 | 24, 0, 512, 1, blk), S_DATA_TO);
		assert_int_equal(d.rsp[0] & R1_WP_VIOLATION, R1_WP_VIOLATION);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
		assert_int_equal(mmchal_sim_card_store(d.sim, NULL)[0], 0);
		drv_ack(&d, 0xffffffffu);
		assert_int_equal(status(&d, rca) & R1_WP_VIOLATION, 0); /* reported once */
		drv_close(&d);
	}
}

/* ACMD22 SEND_NUM_WR_BLOCKS: the 4-byte big-endian count of well-written blocks. */
static uint32_t num_wr_blocks(struct drv *d, uint32_t rca)
{
	uint8_t b[4];

	assert_int_equal(drv_cmd(d, C_R1 | 55, rca << 16), 0);
	assert_int_equal(drv_pio_read(d, C_R1 | C_ACMD | 22, 0, 4, 1, b), 0);
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/*
 * ACMD22 after a failed write: a CMD25 of 4 blocks whose block 2 gets a
 * negative CRC status stops there; after CMD12 and the busy, ACMD22 reports the
 * 2 blocks the card wrote, and the store holds exactly those.
 */
static void test_acmd22_after_failed_write(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 25, 2, 0};
	struct drv d;
	uint8_t buf[4 * 512], *store;
	uint32_t rca;

	(void)state;
	rca = open_card(&d, MMCHAL_SIM_CARD_SD, NULL);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i / 512u + 1u);
	/* A good 3-block write first: 3. */
	assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | 25, 8, 512, 3, buf), 0);
	drv_wait_not_busy(&d, 100000000u);
	assert_int_equal(num_wr_blocks(&d, rca), 3);
	/* The failing one. */
	mmchal_sim_fault_add(d.sim, &f);
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | 25, 0, 512, 4, buf), S_CRC);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_RCV);
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(drv_cmd(&d, C_R1B | 12, 0), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(num_wr_blocks(&d, rca), 2);
	for (unsigned i = 0; i < 4 * 512; i++)
		assert_int_equal(store[i], i < 2 * 512 ? buf[i] : 0);
	/* ACMD22 outside tran is illegal: not answered. */
	drv_cmd(&d, C_R1B | 7, 0); /* deselect: stand-by */
	assert_int_equal(drv_cmd(&d, C_R1 | 55, rca << 16), 0);
	drv_setup_data(&d, 4, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_ACMD | C_DATA | C_READ | 22, 0), MMCHAL_ETIMEDOUT);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_protect_switch_and_card),
		cmocka_unit_test(test_acmd22_after_failed_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
