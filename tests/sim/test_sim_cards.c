/*
 * Simulator tests for what the card layer needs from the card models: the
 * write-protect switch and a write-protected card, ACMD22 after a failed
 * write, erase on SD and eMMC, an SDSC card, and an eMMC that refuses the
 * 8-bit bus.
 */
#define _DEFAULT_SOURCE /* mmap MAP_ANONYMOUS, MAP_NORESERVE: a 2 GiB store, untouched */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* Bits [hi:lo] of a CSD read as R2 (the response registers hold bits 127:8). */
static uint32_t csd_bits(const uint32_t rsp[4], unsigned hi, unsigned lo)
{
	uint32_t v = 0;

	for (unsigned b = hi + 1u; b-- > lo;) {
		unsigned r = b - 8u;

		v = v << 1 | ((rsp[r / 32u] >> (r % 32u)) & 1u);
	}
	return v;
}

static void sdsc_small(struct mmchal_sim_card_config *c)
{
	c->sdsc = true;
	c->capacity = 1536u * 1024u;
	c->cmd23 = false;
}

/* ACMD41 with @arg until ready or 100 tries; returns the last R3. */
static uint32_t acmd41_loop(struct drv *d, uint32_t arg)
{
	drv_cmd(d, C_NONE | 0, 0);
	drv_cmd(d, C_R1 | 8, 0x1aa);
	for (int i = 0; i < 100; i++) {
		drv_cmd(d, C_R1 | 55, 0);
		drv_cmd(d, C_R3 | C_ACMD | 41, arg);
		if (d->rsp[0] & 0x80000000u)
			break;
		d->port.ops->delay_us(d->port.ctx, 100);
	}
	return d->rsp[0];
}

/*
 * An SDSC card: CCS = 0 in ACMD41 (also ready for a host without HCS, and no
 * S18A), CSD v1 whose C_SIZE / C_SIZE_MULT / READ_BL_LEN give the capacity,
 * byte addresses (a misaligned one is ADDRESS_ERROR, the end OUT_OF_RANGE), and
 * 512-byte blocks only.
 */
static void test_sdsc_card(void **state)
{
	struct mmchal_sim_card_config cc;
	struct drv d;
	uint8_t blk[512], *store;
	uint32_t rca;

	(void)state;
	rca = open_card(&d, MMCHAL_SIM_CARD_SD, sdsc_small);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[5 * 512 + i] = (uint8_t)(i ^ 0x33u);
	/* Byte address 2560 is block 5. */
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 5 * 512, 512, 1, blk), 0);
	assert_memory_equal(blk, store + 5 * 512, 512);
	/* Misaligned byte address: ADDRESS_ERROR, no data phase. */
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 5 * 512 + 1), 0);
	assert_int_equal(d.rsp[0] & R1_ADDRESS, R1_ADDRESS);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	/* The last block reads, the capacity is out of range. */
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x40aeu);
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 1536u * 1024u - 512u, 512, 1, blk), 0);
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 1536u * 1024u), 0);
	assert_int_equal(d.rsp[0] & R1_OUT_OF_RANGE, R1_OUT_OF_RANGE);
	drv_ack(&d, 0xffffffffu);
	/* A byte-addressed write. */
	memset(blk, 0x5e, sizeof(blk));
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 2 * 512, 512, 1, blk), 0);
	drv_wait_not_busy(&d, 100000000u);
	assert_int_equal(store[2 * 512], 0x5e);
	assert_int_equal(store[2 * 512 - 1], 0);
	assert_int_equal(store[3 * 512], 0);
	/* CMD16: 512 accepted, anything else BLOCK_LEN_ERROR; CMD23 not supported. */
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), 0);
	assert_int_equal(d.rsp[0] & (1u << 29), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 256), 0);
	assert_int_equal(d.rsp[0] & (1u << 29), 1u << 29);
	assert_int_equal(status(&d, rca) & (1u << 29), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 23, 2), MMCHAL_ETIMEDOUT);
	/* CSD v1 in stand-by: capacity 6 << 9 << 9. */
	drv_cmd(&d, C_R1B | 7, 0);
	assert_int_equal(drv_cmd(&d, C_R2 | 9, rca << 16), 0);
	assert_int_equal(csd_bits(d.rsp, 127, 126), 0);
	assert_int_equal(csd_bits(d.rsp, 83, 80), 9);
	assert_int_equal(csd_bits(d.rsp, 49, 47), 7);
	assert_int_equal(csd_bits(d.rsp, 73, 62), 5);
	assert_int_equal(csd_bits(d.rsp, 25, 22), 9);
	/* ACMD41: CCS = 0, ready without HCS, never S18A. */
	assert_int_equal(acmd41_loop(&d, 0x00ff8000u), 0x80ff8000u);
	assert_int_equal(acmd41_loop(&d, 0x41ff8000u), 0x80ff8000u);
	drv_close(&d);

	/* A 2 GiB SDSC card: READ_BL_LEN 10, C_SIZE 4095 (only the CSD is read). */
	assert_int_equal(drv_open(&d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
	cc.sdsc = true;
	cc.capacity = 2ull << 30;
	cc.store = blk; /* never touched: no data command is sent */
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	assert_int_equal(acmd41_loop(&d, 0x40ff8000u), 0x80ff8000u);
	drv_cmd(&d, C_R2 | 2, 0);
	drv_cmd(&d, C_R1 | 3, 0);
	rca = d.rsp[0] >> 16;
	assert_int_equal(drv_cmd(&d, C_R2 | 9, rca << 16), 0);
	assert_int_equal(csd_bits(d.rsp, 83, 80), 10);
	assert_int_equal(csd_bits(d.rsp, 73, 62), 4095);
	assert_int_equal(csd_bits(d.rsp, 49, 47), 7);
	mmchal_sim_card_remove(d.sim);
	/* Larger than 2 GiB is not an SDSC card. */
	cc.capacity = (2ull << 30) + 512u * 1024u;
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), MMCHAL_EINVAL);
	drv_close(&d);

	/* An SDHC card stays busy for a host without HCS, and answers CCS = 1. */
	open_card(&d, MMCHAL_SIM_CARD_SD, NULL);
	assert_int_equal(acmd41_loop(&d, 0x00ff8000u) & 0x80000000u, 0);
	assert_int_equal(acmd41_loop(&d, 0x40ff8000u), 0xc0ff8000u);
	drv_close(&d);
}

static void no_8bit(struct mmchal_sim_card_config *c)
{
	c->mmc_no_8bit = true;
}

/* CMD6 write of EXT_CSD BUS_WIDTH = @val (R1b); returns the CMD13 R1 after it. */
static uint32_t set_bus_width(struct drv *d, uint8_t val)
{
	assert_int_equal(drv_cmd(d, C_R1B | 6, 0x03b70000u | (uint32_t)val << 8), 0);
	return status(d, 1);
}

static uint64_t emmc_capacity;

static void emmc_bytes(struct mmchal_sim_card_config *c)
{
	c->byte_mode = true;
	c->capacity = emmc_capacity;
}

/*
 * A byte-mode eMMC (at most 2 GB) is sized by its CSD: (C_SIZE + 1) x
 * 2^(C_SIZE_MULT + 2) x 2^READ_BL_LEN; a sector-mode one saturates C_SIZE.
 */
static void test_emmc_byte_mode_csd(void **state)
{
	static const struct {
		uint64_t capacity;
		uint32_t bl, c_size;
	} cases[] = {
		{32ull << 20, 9, 127},     /* 32 MiB: 128 x 256 KiB */
		{1ull << 30, 9, 4095},     /* 1 GiB: the most with 512-byte blocks */
		{1025ull << 20, 10, 2049}, /* beyond: 1024-byte blocks, 2050 x 512 KiB */
	};
	struct mmchal_sim_card_config cc;
	struct mmchal_sim *sim;
	struct mmchal_sim_config sc;
	struct drv d;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		emmc_capacity = cases[i].capacity;
		open_card(&d, MMCHAL_SIM_CARD_MMC, emmc_bytes);
		drv_cmd(&d, C_R1B | 7, 0);
		assert_int_equal(drv_cmd(&d, C_R2 | 9, 1u << 16), 0);
		assert_int_equal(csd_bits(d.rsp, 83, 80), cases[i].bl);
		assert_int_equal(csd_bits(d.rsp, 49, 47), 7);
		assert_int_equal(csd_bits(d.rsp, 73, 62), cases[i].c_size);
		/* the neighbours untouched: CCC, the supply currents */
		assert_int_equal(csd_bits(d.rsp, 95, 84), 0x8f5);
		assert_int_equal(csd_bits(d.rsp, 61, 50), (5u << 9) | (7u << 6) | (5u << 3) | 7u);
		drv_close(&d);
	}
	/* sector mode: saturated */
	open_card(&d, MMCHAL_SIM_CARD_MMC, NULL);
	drv_cmd(&d, C_R1B | 7, 0);
	assert_int_equal(drv_cmd(&d, C_R2 | 9, 1u << 16), 0);
	assert_int_equal(csd_bits(d.rsp, 73, 62), 4095);
	assert_int_equal(csd_bits(d.rsp, 83, 80), 9);
	/* the supply-current fields between C_SIZE and C_SIZE_MULT are set */
	assert_int_equal(csd_bits(d.rsp, 61, 50), (5u << 9) | (7u << 6) | (5u << 3) | 7u);
	drv_close(&d);
	/* byte mode ends at 2 GiB (the caller's store, never touched) */
	assert_int_equal(mmchal_sim_config_defaults(&sc, MMCHAL_SIM_SOC_GEN3), 0);
	assert_int_equal(mmchal_sim_create(&sc, &sim), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.byte_mode = true;
	cc.capacity = (2ull << 30) + (512u << 10);
	assert_int_equal(mmchal_sim_card_insert(sim, &cc), MMCHAL_EINVAL);
	cc.capacity = 2ull << 30;
	cc.store = mmap(NULL, (size_t)cc.capacity, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	assert_true(cc.store != MAP_FAILED);
	assert_int_equal(mmchal_sim_card_insert(sim, &cc), 0);
	assert_int_equal(mmchal_sim_card_remove(sim), 0);
	munmap(cc.store, (size_t)cc.capacity);
	mmchal_sim_destroy(sim);
}

/*
 * An eMMC that refuses the 8-bit bus: BUS_WIDTH 2 (8-bit) and 6 (8-bit DDR) get
 * SWITCH_ERROR and change nothing; 1 (4-bit) and 5 (4-bit DDR) are taken, so a
 * card layer can fall back. HS400 then stays refused too (it needs width 6).
 */
static void test_emmc_refuses_8bit(void **state)
{
	struct drv d;
	uint32_t w;

	(void)state;
	open_card(&d, MMCHAL_SIM_CARD_MMC, no_8bit);
	assert_int_equal(set_bus_width(&d, 2) & R1_SWITCH_ERROR, R1_SWITCH_ERROR);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 183), 0);
	mmchal_sim_card_bus(d.sim, &w, NULL);
	assert_int_equal(w, 1);
	assert_int_equal(set_bus_width(&d, 6) & R1_SWITCH_ERROR, R1_SWITCH_ERROR);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 183), 0);
	assert_int_equal(set_bus_width(&d, 1) & R1_SWITCH_ERROR, 0);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 183), 1);
	mmchal_sim_card_bus(d.sim, &w, NULL);
	assert_int_equal(w, 4);
	assert_int_equal(set_bus_width(&d, 5) & R1_SWITCH_ERROR, 0);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 183), 5);
	/* HS400 needs BUS_WIDTH 6 first: refused. */
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b90300u), 0);
	assert_int_equal(status(&d, 1) & R1_SWITCH_ERROR, R1_SWITCH_ERROR);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 185), 0);
	drv_close(&d);

	/* The default eMMC takes the 8-bit widths. */
	open_card(&d, MMCHAL_SIM_CARD_MMC, NULL);
	assert_int_equal(set_bus_width(&d, 2) & R1_SWITCH_ERROR, 0);
	mmchal_sim_card_bus(d.sim, &w, NULL);
	assert_int_equal(w, 8);
	drv_close(&d);
}

#define R1_WP_ERASE_SKIP (1u << 15)
#define R1_ERASE_RESET   (1u << 13)

static void ones(struct mmchal_sim_card_config *c)
{
	c->erased_ones = true;
}

/* CMD38 (R1b) with @arg; returns its R1, @busy_ns gets the time to response end. */
static uint32_t erase38(struct drv *d, uint32_t arg, uint64_t *busy_ns)
{
	uint64_t t0 = mmchal_sim_now(d->sim);

	assert_int_equal(drv_cmd(d, C_R1B | 38, arg), 0);
	if (busy_ns)
		*busy_ns = mmchal_sim_now(d->sim) - t0;
	return d->rsp[0];
}

/* Check that blocks [first, last] of the store hold @erased and their neighbours @fill. */
static void check_erased(struct drv *d, uint64_t first, uint64_t last, uint8_t erased, uint8_t fill)
{
	uint8_t *store = mmchal_sim_card_store(d->sim, NULL);

	for (uint64_t i = first * 512u; i < (last + 1u) * 512u; i++)
		assert_int_equal(store[i], erased);
	if (first)
		assert_int_equal(store[first * 512u - 1u], fill);
	assert_int_equal(store[(last + 1u) * 512u], fill);
}

/*
 * SD erase: CMD32 / CMD33 / CMD38 erase exactly the write blocks named, which
 * then read as the SCR DATA_STAT_AFTER_ERASE value; CMD38 is R1b with busy per
 * 4 MiB allocation unit touched; sequence errors, reset, range and
 * write-protect cases change nothing.
 */
static void test_sd_erase(void **state)
{
	struct drv d;
	uint8_t *store, scr[8], blk[512];
	uint64_t busy;
	uint32_t rca;

	(void)state;
	for (unsigned v = 0; v < 2; v++) {
		rca = open_card(&d, MMCHAL_SIM_CARD_SD, v ? ones : NULL);
		store = mmchal_sim_card_store(d.sim, NULL);
		memset(store, 0xaa, 64u << 20);
		drv_cmd(&d, C_R1 | 55, rca << 16);
		assert_int_equal(drv_pio_read(&d, C_R1 | C_ACMD | 51, 0, 8, 1, scr), 0);
		assert_int_equal(scr[1] >> 7, v); /* DATA_STAT_AFTER_ERASE, SCR bit 55 */
		assert_int_equal(drv_cmd(&d, C_R1 | 32, 10), 0);
		assert_int_equal(drv_cmd(&d, C_R1 | 13, rca << 16),
				 0); /* CMD13 keeps the sequence */
		assert_int_equal(drv_cmd(&d, C_R1 | 33, 19), 0);
		assert_int_equal(erase38(&d, 0, &busy) & 0xfff80000u, 0);
		assert_true(busy >= 1000000u && busy < 1100000u); /* one AU */
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
		check_erased(&d, 10, 19, v ? 0xff : 0x00, 0xaa);
		/* The erased blocks read back as the erased value. */
		assert_int_equal(drv_pio_read(&d, C_R1 | 17, 12, 512, 1, blk), 0);
		assert_int_equal(blk[0], v ? 0xff : 0x00);
		assert_int_equal(blk[511], v ? 0xff : 0x00);
		drv_close(&d);
	}

	rca = open_card(&d, MMCHAL_SIM_CARD_SD, NULL);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(store, 0xaa, 64u << 20);
	/* Across a 4 MiB boundary: two units of busy. */
	drv_cmd(&d, C_R1 | 32, 8190);
	drv_cmd(&d, C_R1 | 33, 8193);
	erase38(&d, 0, &busy);
	assert_true(busy >= 2000000u && busy < 2100000u);
	check_erased(&d, 8190, 8193, 0x00, 0xaa);
	/* CMD38 alone, CMD33 first: ERASE_SEQ_ERROR, nothing erased. */
	assert_int_equal(erase38(&d, 0, NULL) & R1_ERASE_SEQ, R1_ERASE_SEQ);
	assert_int_equal(drv_cmd(&d, C_R1 | 33, 30), 0);
	assert_int_equal(d.rsp[0] & R1_ERASE_SEQ, R1_ERASE_SEQ);
	assert_int_equal(erase38(&d, 0, NULL) & R1_ERASE_SEQ, R1_ERASE_SEQ);
	/* Another command in the middle: ERASE_RESET, then CMD38 is out of sequence. */
	drv_cmd(&d, C_R1 | 32, 20);
	drv_cmd(&d, C_R1 | 33, 30);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), 0);
	assert_int_equal(d.rsp[0] & R1_ERASE_RESET, R1_ERASE_RESET);
	assert_int_equal(erase38(&d, 0, NULL) & R1_ERASE_SEQ, R1_ERASE_SEQ);
	/* End before start: ERASE_PARAM. Past the end: OUT_OF_RANGE. */
	drv_cmd(&d, C_R1 | 32, 30);
	drv_cmd(&d, C_R1 | 33, 20);
	assert_int_equal(erase38(&d, 0, NULL) & R1_ERASE_PARAM, R1_ERASE_PARAM);
	drv_cmd(&d, C_R1 | 32, 21);
	drv_cmd(&d, C_R1 | 33, 20);
	assert_int_equal(erase38(&d, 0, NULL) & R1_ERASE_PARAM, R1_ERASE_PARAM);
	assert_int_equal(drv_cmd(&d, C_R1 | 32, (64u << 20) / 512u), 0);
	assert_int_equal(d.rsp[0] & R1_OUT_OF_RANGE, R1_OUT_OF_RANGE);
	for (unsigned i = 20; i <= 30; i++)
		assert_int_equal(store[i * 512u], 0xaa);
	/* Outside tran: illegal. */
	drv_cmd(&d, C_R1B | 7, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 32, 1), MMCHAL_ETIMEDOUT);
	drv_close(&d);

	/* A write-protected card: WP_ERASE_SKIP, nothing erased. */
	open_card(&d, MMCHAL_SIM_CARD_SD, tmp_wp);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(store, 0xaa, 1u << 20);
	drv_cmd(&d, C_R1 | 32, 1);
	drv_cmd(&d, C_R1 | 33, 2);
	assert_int_equal(erase38(&d, 0, NULL) & R1_WP_ERASE_SKIP, R1_WP_ERASE_SKIP);
	assert_int_equal(store[512], 0xaa);
	drv_close(&d);

	/* SDSC: byte addresses. */
	open_card(&d, MMCHAL_SIM_CARD_SD, sdsc_small);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(store, 0xaa, 1536u * 1024u);
	drv_cmd(&d, C_R1 | 32, 4 * 512);
	drv_cmd(&d, C_R1 | 33, 5 * 512);
	assert_int_equal(erase38(&d, 0, NULL) & 0xfff80000u, 0);
	check_erased(&d, 4, 5, 0x00, 0xaa);
	drv_close(&d);
}

/*
 * eMMC erase: CMD35 / CMD36 / CMD38. Argument 0 erases the whole 512 KiB erase
 * groups holding the range; 1 (trim) and 3 (discard) exactly the blocks; the
 * erased value follows EXT_CSD ERASED_MEM_CONT; busy per group touched; any
 * other argument is ERASE_PARAM.
 */
static void test_emmc_erase(void **state)
{
	struct drv d;
	uint8_t *store, ext[512];
	uint64_t busy;

	(void)state;
	for (unsigned v = 0; v < 2; v++) {
		open_card(&d, MMCHAL_SIM_CARD_MMC, v ? ones : NULL);
		mmchal_bus_wr16(&d.bus, R_OPTION, 0x80eeu);
		store = mmchal_sim_card_store(d.sim, NULL);
		memset(store, 0xaa, 64u << 20);
		assert_int_equal(drv_pio_read(&d, C_R1 | 8, 0, 512, 1, ext), 0);
		assert_int_equal(ext[181], v);    /* ERASED_MEM_CONT */
		assert_int_equal(ext[224], 1);    /* HC_ERASE_GRP_SIZE: 512 KiB */
		assert_int_equal(ext[223], 1);    /* ERASE_TIMEOUT_MULT: 300 ms */
		assert_int_equal(ext[231], 0x10); /* TRIM supported */
		/* Erase of one sector in group 1: the whole group 1024..2047 goes. */
		assert_int_equal(drv_cmd(&d, C_R1 | 35, 1030), 0);
		assert_int_equal(drv_cmd(&d, C_R1 | 36, 1030), 0);
		assert_int_equal(erase38(&d, 0, &busy) & 0xfff80000u, 0);
		assert_true(busy >= 1000000u && busy < 1100000u);
		check_erased(&d, 1024, 2047, v ? 0xff : 0x00, 0xaa);
		/* Trim: exactly sectors 5..6, in group 0. */
		drv_cmd(&d, C_R1 | 35, 5);
		drv_cmd(&d, C_R1 | 36, 6);
		assert_int_equal(erase38(&d, 1, NULL) & 0xfff80000u, 0);
		check_erased(&d, 5, 6, v ? 0xff : 0x00, 0xaa);
		/* Discard across groups 2 and 3: two groups of busy. */
		drv_cmd(&d, C_R1 | 35, 3070);
		drv_cmd(&d, C_R1 | 36, 3073);
		assert_int_equal(erase38(&d, 3, &busy) & 0xfff80000u, 0);
		assert_true(busy >= 2000000u && busy < 2100000u);
		check_erased(&d, 3070, 3073, v ? 0xff : 0x00, 0xaa);
		drv_close(&d);
	}
	open_card(&d, MMCHAL_SIM_CARD_MMC, NULL);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(store, 0xaa, 1u << 20);
	/* Secure erase is not supported: ERASE_PARAM, nothing erased. */
	drv_cmd(&d, C_R1 | 35, 1);
	drv_cmd(&d, C_R1 | 36, 2);
	assert_int_equal(erase38(&d, 0x80000000u, NULL) & R1_ERASE_PARAM, R1_ERASE_PARAM);
	assert_int_equal(store[512], 0xaa);
	/* SD erase commands are not eMMC ones. */
	assert_int_equal(drv_cmd(&d, C_R1 | 32, 1), MMCHAL_ETIMEDOUT);
	/* The last group ends at the capacity. */
	drv_cmd(&d, C_R1 | 35, (64u << 20) / 512u - 1u);
	drv_cmd(&d, C_R1 | 36, (64u << 20) / 512u - 1u);
	assert_int_equal(erase38(&d, 0, NULL) & 0xfff80000u, 0);
	assert_int_equal(store[(64u << 20) - 1u], 0x00);
	assert_int_equal(store[(64u << 20) - 512u * 1024u], 0x00);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_protect_switch_and_card),
		cmocka_unit_test(test_acmd22_after_failed_write),
		cmocka_unit_test(test_sdsc_card),
		cmocka_unit_test(test_emmc_byte_mode_csd),
		cmocka_unit_test(test_emmc_refuses_8bit),
		cmocka_unit_test(test_sd_erase),
		cmocka_unit_test(test_emmc_erase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
