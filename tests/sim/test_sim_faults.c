/*
 * The simulator's fault schedule (sim/fault.c): argument checks of every
 * entry, the slot limit, the per-kind and total counters, and time-triggered
 * faults that are handed on to the next command (command kinds) or the next
 * data transfer (data kinds) when nothing is running at their instant.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

static void fast(struct mmchal_sim_card_config *c)
{
	c->read_latency_ns = 0;
	c->read_rate = 0;
	c->write_rate = 0;
}

static void open_sd(struct drv *d)
{
	struct mmchal_sim_card_config cc;

	assert_int_equal(drv_open(d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
	fast(&cc);
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	mmchal_bus_wr16(&d->bus, R_HOSTMODE, 0x0101u); /* 32-bit port */
	assert_true(drv_sd_init(d) != 0);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u);
	drv_ack(d, 0xffffffffu);
}

static void test_arguments(void **state)
{
	struct drv d;
	struct mmchal_sim_fault f = {
		.kind = MMCHAL_SIM_FAULT_CMD_CRC, .trigger = MMCHAL_SIM_AT_CMD, .opcode = 63};
	unsigned i;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	assert_int_equal(mmchal_sim_fault_add(NULL, &f), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_fault_add(d.sim, NULL), MMCHAL_EINVAL);
	f.trigger = (enum mmchal_sim_fault_trigger)(MMCHAL_SIM_AT_TIME + 1);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), MMCHAL_EINVAL);
	f.trigger = MMCHAL_SIM_AT_TIME;
	f.opcode = 64;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), MMCHAL_EINVAL);
	f.opcode = 0xfe;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), MMCHAL_EINVAL);
	/* Opcodes 0..63 and "any"; the 17th pending fault has no slot. */
	f.trigger = MMCHAL_SIM_AT_CMD;
	f.count = 1000;
	for (i = 0; i < MMCHAL_SIM_MAX_FAULTS; i++) {
		f.opcode = i == 0 ? MMCHAL_SIM_ANY_OPCODE : (uint8_t)(i + 47u);
		assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	}
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), MMCHAL_ENOSPC);
	mmchal_sim_fault_clear(d.sim);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_fault_clear(NULL);

	/* Random faults: a rate up to 10^6 per million and a non-empty set of kinds. */
	assert_int_equal(mmchal_sim_fault_random(NULL, 1, 0, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_fault_random(d.sim, 1, 1000001u, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_fault_random(d.sim, 1, 1000000u, 1), 0);
	assert_int_equal(mmchal_sim_fault_random(d.sim, 1, 10, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_fault_random(d.sim, 1, 10, 1u << MMCHAL_SIM_FAULT_KIND_COUNT),
			 MMCHAL_EINVAL);
	assert_int_equal(
		mmchal_sim_fault_random(d.sim, 1, 10, (1u << MMCHAL_SIM_FAULT_KIND_COUNT) - 1u), 0);
	assert_int_equal(mmchal_sim_fault_random(d.sim, 1, 0, 0), 0); /* off */
	assert_int_equal(mmchal_sim_faults_fired(NULL, MMCHAL_SIM_FAULT_CMD_CRC), 0);
	drv_close(&d);
}

static void test_counters_and_any_opcode(void **state)
{
	struct drv d;
	struct mmchal_sim_fault f = {.kind = MMCHAL_SIM_FAULT_CMD_TIMEOUT,
				     .trigger = MMCHAL_SIM_AT_CMD,
				     .opcode = MMCHAL_SIM_ANY_OPCODE,
				     .count = 1};

	(void)state;
	open_sd(&d);
	/* The second command of any opcode gets no response; then CMD13 with a CRC error. */
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	f.kind = MMCHAL_SIM_FAULT_CMD_CRC;
	f.opcode = 13;
	f.count = 0;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), MMCHAL_EIO);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), 0);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CMD_TIMEOUT), 1);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CMD_CRC), 1);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DATA_CRC), 0);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_KIND_COUNT), 2);
	drv_close(&d);
}

static void test_time_faults_handed_on(void **state)
{
	struct drv d;
	struct mmchal_sim_fault f = {.trigger = MMCHAL_SIM_AT_TIME};
	uint8_t buf[512];
	uint32_t st;
	uint16_t option;

	(void)state;
	open_sd(&d);
	/* A command fault due while the bus is idle hits the next command. */
	f.kind = MMCHAL_SIM_FAULT_CMD_TIMEOUT;
	f.t_ns = mmchal_sim_now(d.sim) + 1000u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_advance(d.sim, 5000u);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_KIND_COUNT), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), 0);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CMD_TIMEOUT), 1);

	/* A data fault due with no transfer running hits block 0 of the next one. */
	f.kind = MMCHAL_SIM_FAULT_DATA_CRC;
	f.t_ns = mmchal_sim_now(d.sim) + 1000u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_advance(d.sim, 5000u);
	st = drv_pio_read(&d, C_R1 | 17, 0, 512, 1, buf);
	assert_int_equal(st & S_CRC, S_CRC);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DATA_CRC), 1);
	/* Recovery as a driver does it: CMD12, a controller reset; then it reads. */
	drv_cmd(&d, C_R1B | 12, 0);
	option = mmchal_bus_rd16(&d.bus, R_OPTION); /* the bus width the card has */
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	mmchal_bus_wr32(&d.bus, R_MASK1, 0);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u);
	mmchal_bus_wr16(&d.bus, R_OPTION, option);
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, buf), 0);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DATA_CRC), 1);

	/* A fault time already past when it is added is due at once. */
	f.kind = MMCHAL_SIM_FAULT_CARD_REMOVE;
	f.t_ns = 0;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_advance(d.sim, 1u);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CARD_REMOVE), 1);
	assert_true(drv_status(&d) & S_REMOVED);
	/* Removing an absent card again is not counted. */
	f.t_ns = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_advance(d.sim, 1u);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CARD_REMOVE), 1);
	/* Nor is a stuck DAT0 without a card. */
	f.kind = MMCHAL_SIM_FAULT_STUCK_BUSY;
	f.t_ns = mmchal_sim_now(d.sim) + 10u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_advance(d.sim, 100u);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_STUCK_BUSY), 0);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_KIND_COUNT), 3);
	drv_close(&d);
}

/* splitmix64 as published (Vigna's splitmix64.c), written here afresh. */
static uint64_t ref_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * The random schedule draw by draw (docs/sim.md section 9): one splitmix64
 * number r per host command; a fault when r % 10^6 < per_million; its kind is
 * entry (r >> 32) % n of the n enabled kinds in kind order. A stream that
 * differs in any draw, threshold or pick is seen: 200 CMD13s, half of them
 * hit, with response timeouts and response CRC errors mixed.
 */
static void test_random_schedule_draw_by_draw(void **state)
{
	static const uint64_t seed = 0x5eed0123456789abull;
	uint32_t ppm = 400000u,
		 kinds = (1u << MMCHAL_SIM_FAULT_CMD_TIMEOUT) | (1u << MMCHAL_SIM_FAULT_CMD_CRC);
	unsigned want_to = 0, want_crc = 0;
	uint64_t x = seed;
	struct drv d;

	(void)state;
	open_sd(&d);
	assert_int_equal(mmchal_sim_fault_random(d.sim, seed, ppm, kinds), 0);
	for (unsigned i = 0; i < 200; i++) {
		uint64_t r = ref_splitmix(&x);
		int rc = drv_cmd(&d, C_R1 | 13, 0xb368u << 16), want = 0;

		if (r % 1000000u < ppm) {
			/* Kind order: CMD_TIMEOUT (0) before CMD_CRC (1). */
			if ((r >> 32) % 2u == 0) {
				want = MMCHAL_ETIMEDOUT;
				want_to++;
			} else {
				want = MMCHAL_EIO;
				want_crc++;
			}
		}
		assert_int_equal(rc, want);
	}
	assert_true(want_to > 20 && want_crc > 20);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CMD_TIMEOUT), want_to);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CMD_CRC), want_crc);
	drv_close(&d);
}

/*
 * Random data faults, draw by draw: a single-block read draws once at its
 * command (a hit arms block 0) and once when block 0 is about to come; either
 * hit gives the block a CRC error (only data CRC enabled). The CMD12 that
 * then stops the read draws too, without effect (no data phase).
 */
static void test_random_block_faults_draw_by_draw(void **state)
{
	static const uint64_t seed = 77;
	static const uint32_t ppm = 300000u;
	unsigned fails = 0;
	uint8_t blk[512];
	uint64_t x = seed;
	struct drv d;

	(void)state;
	open_sd(&d);
	assert_int_equal(mmchal_sim_fault_random(d.sim, seed, ppm, 1u << MMCHAL_SIM_FAULT_DATA_CRC),
			 0);
	for (unsigned i = 0; i < 100; i++) {
		bool hit = ref_splitmix(&x) % 1000000u < ppm; /* CMD17 */

		hit |= ref_splitmix(&x) % 1000000u < ppm; /* block 0 */
		assert_int_equal(drv_pio_read(&d, C_R1 | 17, i, 512, 1, blk), hit ? S_CRC : 0);
		if (hit) {
			fails++;
			assert_int_equal(drv_cmd(&d, C_R1B | 12, 0xb368u << 16), 0);
			(void)ref_splitmix(&x); /* CMD12 */
		}
	}
	assert_true(fails > 30 && fails < 70);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DATA_CRC), fails);
	drv_close(&d);
}

/*
 * Two data kinds: a hit picks entry (r >> 32) % 2 of {data CRC, end bit} (kind
 * order), at the command as at the block. At the block a CRC fault is checked
 * before an end-bit fault, so a block with both armed fails its CRC.
 */
static void test_random_block_kinds_draw_by_draw(void **state)
{
	static const uint64_t seed = 0xfeedull;
	static const uint32_t ppm = 350000u;
	unsigned crc = 0, end = 0;
	uint8_t blk[512];
	uint64_t x = seed;
	struct drv d;

	(void)state;
	open_sd(&d);
	assert_int_equal(mmchal_sim_fault_random(d.sim, seed, ppm,
						 (1u << MMCHAL_SIM_FAULT_DATA_CRC) |
							 (1u << MMCHAL_SIM_FAULT_END_BIT)),
			 0);
	for (unsigned i = 0; i < 120; i++) {
		bool want_crc = false, want_end = false;

		for (int draw = 0; draw < 2; draw++) { /* CMD17, then block 0 */
			uint64_t r = ref_splitmix(&x);

			if (r % 1000000u < ppm) {
				if ((r >> 32) % 2u == 0)
					want_crc = true;
				else
					want_end = true;
			}
		}
		assert_int_equal(drv_pio_read(&d, C_R1 | 17, i, 512, 1, blk), want_crc   ? S_CRC
									      : want_end ? S_END
											 : 0);
		if (want_crc || want_end) {
			crc += want_crc;
			end += !want_crc;
			assert_int_equal(drv_cmd(&d, C_R1B | 12, 0xb368u << 16), 0);
			(void)ref_splitmix(&x); /* CMD12 */
		}
	}
	assert_true(crc > 10 && end > 10);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DATA_CRC), crc);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_END_BIT), end);
	drv_close(&d);
}

static void read_words(struct drv *d)
{
	for (unsigned i = 0; i < 512; i += 4)
		(void)d->bus.ops->read32(d->bus.ctx, R_BUF << 2);
}

/*
 * mmchal_sim_fault_clear() also drops the faults already armed for the data
 * phase in progress: block 1 of this read was to fail its CRC, and arrives.
 */
static void test_clear_drops_armed_faults(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 18, 1, 0};
	struct drv d;
	uint32_t st;

	(void)state;
	open_sd(&d);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	drv_setup_data(&d, 512, 2, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	mmchal_sim_fault_clear(d.sim);
	drv_ack(&d, S_BRE);
	read_words(&d);
	st = drv_wait(&d, S_BRE, 100000000u);
	assert_int_equal(st & (S_BRE | S_ERRORS), S_BRE);
	drv_ack(&d, S_BRE);
	read_words(&d);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_KIND_COUNT), 0);
	drv_close(&d);
}

/*
 * A data fault at a time, during a transfer (docs/sim.md section 9: "other
 * kinds hit the next ... block"): while block 0 of a read is on the bus the
 * next block is 1, so block 0 arrives and block 1 fails; while a write waits
 * for the CPU to fill block 1, block 1 is the next and fails.
 */
static void test_time_fault_hits_next_block(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_TIME, 0, 0, 0};
	struct drv d;
	uint32_t st;

	(void)state;
	open_sd(&d);
	drv_setup_data(&d, 512, 3, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	/* 25 MHz, 4 bits: block 0 takes 41.7 us; the fault comes 10 us into it. */
	f.t_ns = mmchal_sim_now(d.sim) + 10000u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	st = drv_wait(&d, S_BRE, 100000000u);
	assert_int_equal(st & (S_BRE | S_ERRORS), S_BRE);
	drv_ack(&d, S_BRE);
	read_words(&d);
	st = drv_wait(&d, S_BRE, 100000000u);
	assert_int_equal(st & (S_BRE | S_ERRORS), S_CRC);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1) & 0x0400u, 0x0400u);
	assert_int_equal(drv_cmd(&d, C_R1B | 12, 0xb368u << 16), 0);

	/* Write: block 0 sent, the controller waits for block 1 (buffer empty). */
	drv_setup_data(&d, 512, 3, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_MULTI | 25, 0), 0);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
	drv_ack(&d, S_BWE);
	for (unsigned i = 0; i < 512; i += 4)
		d.bus.ops->write32(d.bus.ctx, R_BUF << 2, 0x01010101u);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
	drv_ack(&d, S_BWE);
	f.t_ns = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_advance(d.sim, 1000u);
	for (unsigned i = 0; i < 512; i += 4)
		d.bus.ops->write32(d.bus.ctx, R_BUF << 2, 0x02020202u);
	st = drv_wait(&d, S_BWE, 100000000u);
	assert_int_equal(st & (S_BWE | S_ERRORS), S_CRC);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1) & 0x0800u, 0x0800u);
	assert_int_equal(mmchal_sim_card_store(d.sim, NULL)[0], 0x01);
	assert_int_equal(mmchal_sim_card_store(d.sim, NULL)[512], 0x00);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DATA_CRC), 2);
	drv_close(&d);
}

/* A seed whose first splitmix64 draw r has r % 10^6 != 0; its threshold. */
static uint64_t edge_seed(uint32_t *ppm)
{
	for (uint64_t seed = 1;; seed++) {
		uint64_t x = seed;
		uint32_t r = (uint32_t)(ref_splitmix(&x) % 1000000u);

		if (r != 0) {
			*ppm = r;
			return seed;
		}
	}
}

/*
 * The schedule's edges: opcode 63 is the last accepted; a slot freed by a
 * fault that fired starts its new fault's count afresh; AT_CMD faults of a
 * data kind arm block 0 of that command's data, and a card removal at a
 * command is applied and counted; a cleared schedule draws no random fault.
 * A random draw exactly at the threshold (r % 10^6 == per_million) is no hit,
 * at a command and at a block.
 */
static void test_schedule_edges(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 63, 0, 0};
	uint8_t blk[512];
	uint32_t ppm;
	uint64_t seed;
	struct drv d;

	(void)state;
	open_sd(&d);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_fault_clear(d.sim);
	/* slot 0: a timeout on the next CMD13, then a CRC error on the second after it */
	f.kind = MMCHAL_SIM_FAULT_CMD_TIMEOUT;
	f.opcode = 13;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), MMCHAL_ETIMEDOUT);
	f.kind = MMCHAL_SIM_FAULT_CMD_CRC;
	f.count = 1;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), MMCHAL_EIO);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), 0);
	/* a data CRC armed at CMD17: block 0 of its data fails */
	f.kind = MMCHAL_SIM_FAULT_DATA_CRC;
	f.opcode = 17;
	f.count = 0;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), S_CRC);
	assert_int_equal(drv_cmd(&d, C_R1B | 12, 0xb368u << 16), 0);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), 0);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DATA_CRC), 1);
	/* random command timeouts, then a clear: no draw is a hit any more, not even
	   one with r % 10^6 == 0 (a seed whose second draw is one) */
	seed = 1;
	for (;; seed++) {
		uint64_t x = seed;

		(void)ref_splitmix(&x);
		if (ref_splitmix(&x) % 1000000u == 0)
			break;
	}
	assert_int_equal(
		mmchal_sim_fault_random(d.sim, seed, 1000000u, 1u << MMCHAL_SIM_FAULT_CMD_TIMEOUT),
		0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), MMCHAL_ETIMEDOUT);
	mmchal_sim_fault_clear(d.sim);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), 0);
	/* at the threshold: no hit at the command */
	seed = edge_seed(&ppm);
	assert_int_equal(
		mmchal_sim_fault_random(d.sim, seed, ppm, 1u << MMCHAL_SIM_FAULT_CMD_TIMEOUT), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), 0);
	/* nor at a block: the random schedule set while block 0 waits draws at block 1 */
	mmchal_sim_fault_clear(d.sim);
	drv_setup_data(&d, 512, 2, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	assert_int_equal(mmchal_sim_fault_random(d.sim, seed, ppm, 1u << MMCHAL_SIM_FAULT_DATA_CRC),
			 0);
	drv_ack(&d, S_BRE);
	read_words(&d);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	assert_int_equal(drv_status(&d) & S_ERRORS, 0);
	drv_ack(&d, S_BRE);
	read_words(&d);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	drv_ack(&d, S_ACCESS_END);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DATA_CRC), 1);
	/* a random card removal drawn at block 1 the same way */
	mmchal_sim_fault_clear(d.sim);
	drv_setup_data(&d, 512, 2, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	assert_int_equal(
		mmchal_sim_fault_random(d.sim, 9, 1000000u, 1u << MMCHAL_SIM_FAULT_CARD_REMOVE), 0);
	drv_ack(&d, S_BRE);
	read_words(&d);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CARD_REMOVE), 1);
	assert_true(drv_status(&d) & S_REMOVED);
	drv_close(&d);

	/* a write block draws too, when the CPU has filled it */
	open_sd(&d);
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | 24, 0), 0);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
	drv_ack(&d, S_BWE);
	assert_int_equal(
		mmchal_sim_fault_random(d.sim, 3, 1000000u, 1u << MMCHAL_SIM_FAULT_DATA_CRC), 0);
	for (unsigned i = 0; i < 512; i += 4)
		d.bus.ops->write32(d.bus.ctx, R_BUF << 2, 0x5a5a5a5au);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_CRC);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DATA_CRC), 1);
	assert_int_equal(mmchal_sim_card_store(d.sim, NULL)[0], 0);
	drv_close(&d);

	/* a card removal at CMD13 */
	open_sd(&d);
	f.kind = MMCHAL_SIM_FAULT_CARD_REMOVE;
	f.opcode = 13;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), 0);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CARD_REMOVE), 0);
	(void)drv_cmd(&d, C_R1 | 13, 0xb368u << 16);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CARD_REMOVE), 1);
	assert_true(drv_status(&d) & S_REMOVED);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), MMCHAL_ETIMEDOUT);
	drv_close(&d);
}

/*
 * Time faults, further edges: a stuck DAT0 with the card present is applied
 * and counted at its instant; faults at two instants both fire, each at its
 * own; a count given with a time fault does not delay it once handed on (a
 * data kind hits block 0 of the next transfer, a command kind the next
 * command); the time event leaves AT_CMD faults alone.
 */
static void test_time_fault_edges(void **state)
{
	struct mmchal_sim_fault f = {.trigger = MMCHAL_SIM_AT_TIME};
	struct mmchal_sim_fault c13 = {MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 13, 0, 0};
	uint8_t blk[512];
	uint64_t t0;
	struct drv d;

	(void)state;
	open_sd(&d);
	assert_true(drv_status(&d) & S_DAT0);
	t0 = mmchal_sim_now(d.sim);
	f.kind = MMCHAL_SIM_FAULT_STUCK_BUSY;
	f.t_ns = t0 + 1000u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	f.kind = MMCHAL_SIM_FAULT_CARD_REMOVE;
	f.t_ns = t0 + 100000u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_advance(d.sim, 2000u);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_STUCK_BUSY), 1);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CARD_REMOVE), 0);
	assert_false(drv_status(&d) & S_DAT0); /* the card holds DAT0 low */
	mmchal_sim_advance(d.sim, 200000u);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CARD_REMOVE), 1);
	assert_true(drv_status(&d) & S_REMOVED);
	drv_close(&d);

	open_sd(&d);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &c13), 0);
	f.kind = MMCHAL_SIM_FAULT_CMD_TIMEOUT;
	f.count = 3; /* not a command count once handed on */
	f.t_ns = mmchal_sim_now(d.sim) + 1000u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_advance(d.sim, 5000u);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), 0); /* the CMD13 fault waits for CMD13 */
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), MMCHAL_EIO);
	f.kind = MMCHAL_SIM_FAULT_DATA_CRC;
	f.count = 5; /* not a block number once handed on */
	f.t_ns = mmchal_sim_now(d.sim) + 1000u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_advance(d.sim, 5000u);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), S_CRC);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_schedule_draw_by_draw),
		cmocka_unit_test(test_random_block_faults_draw_by_draw),
		cmocka_unit_test(test_random_block_kinds_draw_by_draw),
		cmocka_unit_test(test_clear_drops_armed_faults),
		cmocka_unit_test(test_time_fault_hits_next_block),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_counters_and_any_opcode),
		cmocka_unit_test(test_time_faults_handed_on),
		cmocka_unit_test(test_schedule_edges),
		cmocka_unit_test(test_time_fault_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
