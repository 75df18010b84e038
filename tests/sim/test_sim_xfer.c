/*
 * Simulator tests of the data phase on the write side and at SD_STOP: faults
 * hitting a write block (removal, data timeout, stuck busy), STP while a
 * block is awaited or the buffer is empty, and the exact SD_ERR_STS1/2 after a
 * good and a failed transfer (docs/sim.md sections 3, 4 and 9).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

static void open_mmc(struct drv *d, uint64_t capacity)
{
	struct mmchal_sim_card_config cc;

	assert_int_equal(drv_open(d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	cc.write_rate = 1000000u;
	if (capacity)
		cc.capacity = capacity;
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	mmchal_bus_wr16(&d->bus, R_HOSTMODE, 0x0101u); /* 32-bit port */
	assert_int_equal(drv_mmc_init(d), 0);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u);    /* 25 MHz */
	mmchal_bus_wr16(&d->bus, R_OPTION, 0x80aeu); /* 1-bit, timeout 2^23 clocks */
}

static void fill_block(struct drv *d, uint32_t word)
{
	for (unsigned i = 0; i < 512; i += 4)
		d->bus.ops->write32(d->bus.ctx, R_BUF << 2, word);
}

static void drain_block(struct drv *d)
{
	for (unsigned i = 0; i < 512; i += 4)
		(void)d->bus.ops->read32(d->bus.ctx, R_BUF << 2);
}

/*
 * SD_ERR_STS1 after a good write holds CRC status "010" (bits 14:12) and
 * nothing else; SD_ERR_STS2 is 0. After a negative CRC status: bit 11 and
 * "101". After a data timeout of a write (no CRC status): ERR_STS2 bit 5.
 */
static void test_error_registers_exact(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 24, 0, 0};
	uint8_t blk[512];
	struct drv d;

	(void)state;
	open_mmc(&d, 0);
	memset(blk, 0x5a, sizeof(blk));
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 1, 512, 1, blk), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x2000u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 0);
	drv_wait_not_busy(&d, 100000000u);

	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 2, 512, 1, blk), S_CRC);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x5800u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_RCV);
	assert_int_equal(drv_cmd(&d, C_R1B | 12, 0), 0);
	drv_wait_not_busy(&d, 100000000u);
	/* A good write again: "010", the error bit gone. */
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 2, 512, 1, blk), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x2000u);
	drv_wait_not_busy(&d, 100000000u);

	f.kind = MMCHAL_SIM_FAULT_DATA_TIMEOUT;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 3, 512, 1, blk), S_DATA_TO);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 1u << 5);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DATA_TIMEOUT), 1);
	/* Only blocks 1 and 2 were written. */
	for (unsigned i = 512; i < 4 * 512; i++)
		assert_int_equal(mmchal_sim_card_store(d.sim, NULL)[i], i < 3 * 512 ? 0x5a : 0);
	drv_close(&d);
}

/*
 * A removal fault at write block 1 of 3: the card is gone (INFO1 removed,
 * no card-detect), block 0 is on the card, block 1 never gets a CRC status
 * (data timeout, ERR_STS2 bit 5).
 */
static void test_removal_at_write_block(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_CARD_REMOVE, MMCHAL_SIM_AT_BLOCK, 25, 1, 0};
	struct drv d;
	uint8_t *store;
	uint32_t st;

	(void)state;
	open_mmc(&d, 0);
	store = mmchal_sim_card_store(d.sim, NULL);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	drv_setup_data(&d, 512, 3, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_MULTI | 25, 0), 0);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
	drv_ack(&d, S_BWE);
	fill_block(&d, 0x11111111u);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
	drv_ack(&d, S_BWE);
	fill_block(&d, 0x22222222u);
	st = drv_wait(&d, S_ACCESS_END, 1000000000u);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS | S_REMOVED | S_CD),
			 S_ACCESS_END | S_DATA_TO | S_REMOVED);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 1u << 5);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_CARD_REMOVE), 1);
	for (unsigned i = 0; i < 3 * 512; i++)
		assert_int_equal(store[i], i < 512 ? 0x11 : 0);
	drv_close(&d);
}

/*
 * The card pulled out while a write block is on the bus (a removal at a
 * time): no CRC status comes from an absent card, so the write ends in a
 * data timeout (ERR_STS2 bit 5), not in a CRC error (docs/sim.md correction
 * 15), and nothing is written.
 */
static void test_removal_during_write_block(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_CARD_REMOVE, MMCHAL_SIM_AT_TIME, 0, 0, 0};
	struct drv d;
	uint8_t *store;
	uint32_t st;

	(void)state;
	open_mmc(&d, 0);
	store = mmchal_sim_card_store(d.sim, NULL); /* kept until the next insert */
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | 24, 6), 0);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
	drv_ack(&d, S_BWE);
	fill_block(&d, 0x44444444u);
	/* At 25 MHz on one line the block takes 164 us: pull the card 50 us in. */
	f.t_ns = mmchal_sim_now(d.sim) + 50000u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	st = drv_wait(&d, S_ACCESS_END, 1000000000u);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS | S_REMOVED),
			 S_ACCESS_END | S_DATA_TO | S_REMOVED);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 1u << 5);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1) & 0x0800u, 0);
	for (unsigned i = 0; i < 512; i++)
		assert_int_equal(store[6 * 512 + i], 0);
	drv_close(&d);
}

/*
 * A stuck-busy fault at block 0 of a CMD24: after the block the card holds
 * DAT0 low far beyond write_busy_ns (44 us) and stays in programming; CMD0
 * releases it (docs/sim.md section 9).
 */
static void test_stuck_busy_at_write_block(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_STUCK_BUSY, MMCHAL_SIM_AT_BLOCK, 24, 0, 0};
	uint8_t blk[512];
	struct drv d;

	(void)state;
	open_mmc(&d, 0);
	memset(blk, 0x77, sizeof(blk));
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 5, 512, 1, blk), 0);
	assert_memory_equal(mmchal_sim_card_store(d.sim, NULL) + 5 * 512, blk, 512);
	mmchal_sim_advance(d.sim, 100000000u);
	assert_false(drv_status(&d) & S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_PRG);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_STUCK_BUSY), 1);
	drv_cmd(&d, C_NONE | 0, 0);
	mmchal_sim_advance(d.sim, 1000u);
	assert_true(drv_status(&d) & S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	drv_close(&d);
}

/*
 * SD_STOP.STP (docs/sim.md section 3) ends an open-ended transfer after the
 * current block. On a write whose buffer is empty (the host has not started
 * the next block) nothing is current: the controller ends at once with the
 * automatic CMD12, one block written. On a read whose next block never comes
 * (the card stopped at its end) the controller still waits for it: a data
 * timeout, not an access end without error.
 */
static void test_stop_edges(void **state)
{
	static const uint32_t sectors = 2048; /* 1 MiB */
	struct mmchal_sim_counters c;
	uint8_t *store;
	struct drv d;
	uint32_t st;

	(void)state;
	open_mmc(&d, (uint64_t)sectors * 512u);
	store = mmchal_sim_card_store(d.sim, NULL);
	mmchal_bus_wr16(&d.bus, R_SIZE, 512);
	mmchal_bus_wr16(&d.bus, R_STOP, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_MULTI | 25, 8), 0);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
	drv_ack(&d, S_BWE);
	fill_block(&d, 0x33333333u);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
	mmchal_sim_reset_counters(d.sim);
	mmchal_bus_wr16(&d.bus, R_STOP, 1);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.commands == 1); /* the automatic CMD12 */
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_RSP), (6u << 9) | (1u << 8)); /* in rcv */
	for (unsigned i = 8 * 512; i < 10 * 512; i++)
		assert_int_equal(store[i], i < 9 * 512 ? 0x33 : 0);
	drv_wait_not_busy(&d, 100000000u);
	/* The transfer is over: STP again sends no second CMD12. */
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr16(&d.bus, R_STOP, 1);
	mmchal_sim_advance(d.sim, 1000000u);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.commands == 1);
	assert_int_equal(drv_status(&d) & (S_ERRORS | S_ACCESS_END | S_RSP_END), 0);

	/* Open-ended read from the last sector: block 0 comes, block 1 never does. */
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr16(&d.bus, R_STOP, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, sectors - 1u), 0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	drv_ack(&d, S_BRE);
	drain_block(&d);
	mmchal_sim_advance(d.sim, 1000000u); /* block 1 is due by now: the card stopped */
	assert_int_equal(drv_status(&d) & (S_BRE | S_ACCESS_END | S_ERRORS), 0);
	mmchal_bus_wr16(&d.bus, R_STOP, 1);
	st = drv_wait(&d, S_ACCESS_END, 1000000000u);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END | S_DATA_TO);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 1u << 4);
	drv_close(&d);
}

/* A card stuck busy before a write takes no block: data timeout (docs/sim.md section 9). */
static void test_stuck_card_stalls_write(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_STUCK_BUSY, MMCHAL_SIM_AT_TIME, 0, 0, 0};
	uint8_t blk[512], *store;
	struct drv d;

	(void)state;
	open_mmc(&d, 0);
	store = mmchal_sim_card_store(d.sim, NULL);
	f.t_ns = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_sim_advance(d.sim, 1000u);
	assert_false(drv_status(&d) & S_DAT0);
	memset(blk, 0x66, sizeof(blk));
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 9, 512, 1, blk), S_DATA_TO);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 1u << 5);
	assert_int_equal(store[9 * 512], 0);
	drv_close(&d);
}

/*
 * Timing (docs/sim.md section 4): a PIO read's next block starts only when
 * the CPU has drained the buffer (the controller stops the clock while it is
 * full), and a write block i starts no earlier than t0 + i * M, M the media
 * time of a block at write_rate.
 */
static void test_bus_stops_and_media_rate(void **state)
{
	static const uint64_t blk_rd = 4114u * 40u; /* 4096 + 16 + 2 clocks at 25 MHz */
	static const uint64_t blk_wr = 4123u * 40u; /* + 2 N_WR + 2 + 5 CRC status */
	struct mmchal_sim_card_config cc;
	uint64_t t_drained, t_cmd, t_end, phys;
	struct drv d;
	uint32_t st;

	(void)state;
	open_mmc(&d, 0);
	drv_setup_data(&d, 512, 2, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	drv_ack(&d, S_BRE);
	mmchal_sim_advance(d.sim, 1000000u); /* a slow CPU */
	drain_block(&d);
	t_drained = mmchal_sim_now(d.sim);
	mmchal_bus_wr32(&d.bus, R_MASK1, ~S_BRE); /* only buffer-ready interrupts */
	assert_int_equal(mmchal_sim_run(d.sim, t_drained + 100000000u), MMCHAL_SIM_RUN_IRQ);
	/* The mask write (100 ns) came after the drain; the interrupt 2 us after the block. */
	assert_true(mmchal_sim_now(d.sim) == t_drained + blk_rd + 2000u);
	drv_close(&d);

	/* Write at 1 MB/s (M = 512 us) by the DMAC, 3 blocks: the media paces them. */
	assert_int_equal(drv_open(&d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	cc.write_rate = 1000000u;
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	assert_int_equal(drv_mmc_init(&d), 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x80aeu);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 1u << 20, NULL), 0);
	(void)mmchal_sim_mem_alloc(d.sim, 0, 3 * 512, 128, &phys);
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 0x1012u);
	mmchal_bus_raw_wr32(&d.bus, DM_MASK1, 0xffffffffu);
	mmchal_bus_raw_wr32(&d.bus, DM_MASK2, 0xffffffffu);
	mmchal_bus_raw_wr32(&d.bus, DM_MODE, 0x31u);
	d.bus.ops->write64(d.bus.ctx, DM_ADDR, phys);
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 1);
	drv_setup_data(&d, 512, 3, true);
	mmchal_bus_wr32(&d.bus, R_MASK1, ~S_ACCESS_END);
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_ARG, 0);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | C_DATA | C_MULTI | 25);
	t_cmd = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_run(d.sim, t_cmd + 100000000u), MMCHAL_SIM_RUN_IRQ);
	t_end = mmchal_sim_now(d.sim);
	st = drv_status(&d);
	assert_true(st & S_ACCESS_END);
	/*
	 * t0 = 1920 + 2000 (command, response); block 2 starts at t0 + 2 M and
	 * ends W later; the automatic CMD12 takes 98 clocks; then the interrupt.
	 */
	assert_true(t_end - t_cmd == 1920u + 2000u + 2u * 512000u + blk_wr + 98u * 40u + 2000u);
	drv_close(&d);
}

/*
 * Hardware busy detection raises response end once per R1b command: after a
 * SWITCH (R1b, 100 us busy) and then a write with its own busy, the end of
 * that busy raises access end again (INFO2 bit 29), not response end.
 */
static void test_r1b_response_end_once(void **state)
{
	uint8_t blk[512];
	struct drv d;
	uint32_t st;

	(void)state;
	open_mmc(&d, 0);
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b70000u), 0);
	assert_true(drv_status(&d) & S_DAT0);
	memset(blk, 0x21, sizeof(blk));
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 4, 512, 1, blk), 0);
	drv_ack(&d, 0xffffffffu);
	st = drv_wait_not_busy(&d, 100000000u);
	assert_true(st & S_DAT0);
	mmchal_sim_advance(d.sim, 1000u);
	assert_int_equal(drv_status(&d) & (S_RSP_END | S_ERRORS), 0);
	drv_close(&d);
}

/*
 * After a failed block the data phase is over: an open-ended read whose
 * block 0 fails its CRC takes no STP afterwards (no automatic CMD12 goes
 * out, nothing new is raised). A 3-block write counts its 3 blocks.
 */
static void test_nothing_after_a_failure(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 18, 0, 0};
	struct mmchal_sim_counters c;
	uint8_t blk[3 * 512];
	struct drv d;
	uint32_t st;

	(void)state;
	open_mmc(&d, 0);
	memset(blk, 0x48, sizeof(blk));
	mmchal_sim_reset_counters(d.sim);
	assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | 25, 0, 512, 3, blk), 0);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.blocks == 3);
	drv_wait_not_busy(&d, 100000000u);

	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	mmchal_bus_wr16(&d.bus, R_SIZE, 512);
	mmchal_bus_wr16(&d.bus, R_STOP, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END | S_CRC);
	drv_ack(&d, 0xffffffffu);
	mmchal_sim_reset_counters(d.sim);
	mmchal_bus_wr16(&d.bus, R_STOP, 1);
	mmchal_sim_advance(d.sim, 10000000u);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.commands == 0);
	assert_int_equal(drv_status(&d) & (S_ERRORS | S_ACCESS_END | S_RSP_END | S_BRE), 0);
	drv_close(&d);
}

/*
 * The read side's error registers, exactly, each from a clean state: a read
 * CRC error is SD_ERR_STS1 bit 10, an end-bit error bit 4, a read data timeout
 * SD_ERR_STS2 bit 4, each alone beside the CRC status field, which keeps its
 * reset "010" (a read has no CRC status token). The blocks counter counts
 * read blocks.
 */
static void test_read_errors_exact(void **state)
{
	static const struct {
		enum mmchal_sim_fault_kind kind;
		uint32_t st;
		uint16_t err1, err2;
	} rows[] = {
		{MMCHAL_SIM_FAULT_DATA_CRC, S_CRC, 0x2000u | 1u << 10, 0},
		{MMCHAL_SIM_FAULT_END_BIT, S_END, 0x2000u | 1u << 4, 0},
		{MMCHAL_SIM_FAULT_DATA_TIMEOUT, S_DATA_TO, 0x2000u, 1u << 4},
	};
	struct mmchal_sim_counters c;
	uint8_t blk[2 * 512];
	struct drv d;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct mmchal_sim_fault f = {rows[i].kind, MMCHAL_SIM_AT_BLOCK, 17, 0, 0};

		open_mmc(&d, 0);
		assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
		assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), rows[i].st);
		assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), rows[i].err1);
		assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), rows[i].err2);
		drv_close(&d);
	}
	open_mmc(&d, 0);
	mmchal_sim_reset_counters(d.sim);
	assert_int_equal(drv_pio_read(&d, C_R1 | C_MULTI | 18, 0, 512, 2, blk), 0);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.blocks == 2);
	drv_close(&d);
}

/*
 * Host and card must agree (docs/sim.md section 4): a card at 4 bits read by a
 * host at 1 bit, and a card in DDR52 read by a host in SDR, fail the block's
 * CRC; agreeing again, the same read works.
 */
static void test_bus_mismatch(void **state)
{
	uint8_t blk[512];
	struct drv d;

	(void)state;
	open_mmc(&d, 0);
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b70100u), 0); /* BUS_WIDTH 4 bits */
	drv_wait_not_busy(&d, 100000000u);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), S_CRC);
	assert_int_equal(drv_cmd(&d, C_R1B | 12, 0), 0);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x00aeu); /* host at 4 bits */
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), 0);
	/* HS_TIMING 1, then BUS_WIDTH 5 (4-bit DDR): the host still in SDR */
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b90100u), 0);
	drv_wait_not_busy(&d, 100000000u);
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b70500u), 0);
	drv_wait_not_busy(&d, 100000000u);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), S_CRC);
	assert_int_equal(drv_cmd(&d, C_R1B | 12, 0), 0);
	mmchal_bus_wr16(&d.bus, R_IFMODE, 1); /* DDR */
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), 0);
	drv_close(&d);
}

/*
 * Read pacing by the card (docs/sim.md section 5): block i is ready at t0 +
 * read latency + (i + 1) media times, then takes its bus time. 100 us latency
 * and 1 MB/s (M = 512 us): block 0's buffer-ready interrupt comes that long
 * after the response, plus the 2 us interrupt latency.
 */
static void test_read_latency_and_rate(void **state)
{
	static const uint64_t blk_rd = 4114u * 40u; /* 4096 + 16 + 2 clocks at 25 MHz */
	struct mmchal_sim_card_config cc;
	uint64_t t_cmd;
	struct drv d;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.read_latency_ns = 100000u;
	cc.read_rate = 1000000u;
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	assert_int_equal(drv_mmc_init(&d), 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x80aeu);
	drv_setup_data(&d, 512, 1, false);
	mmchal_bus_wr32(&d.bus, R_MASK1, ~S_BRE);
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_ARG, 0);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | C_DATA | C_READ | 17);
	t_cmd = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_run(d.sim, t_cmd + 100000000u), MMCHAL_SIM_RUN_IRQ);
	/* command and response 1920 + 2000 ns, as in test_bus_stops_and_media_rate */
	assert_true(mmchal_sim_now(d.sim) - t_cmd ==
		    1920u + 2000u + 100000u + 512000u + blk_rd + 2000u);
	drv_close(&d);

	/* A block that never comes: the data timeout (2^23 clocks of 40 ns with
	   OPTION 0x80ae) counts from the response end. */
	open_mmc(&d, 0);
	{
		struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DATA_TIMEOUT, MMCHAL_SIM_AT_BLOCK, 17,
					     0, 0};

		assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	}
	drv_setup_data(&d, 512, 1, false);
	mmchal_bus_wr32(&d.bus, R_MASK1, ~S_ACCESS_END);
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_ARG, 0);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | C_DATA | C_READ | 17);
	t_cmd = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_run(d.sim, t_cmd + 1000000000u), MMCHAL_SIM_RUN_IRQ);
	assert_true(mmchal_sim_now(d.sim) - t_cmd == 1920u + 2000u + (40ull << 23) + 2000u);
	assert_true(drv_status(&d) & S_DATA_TO);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_registers_exact),
		cmocka_unit_test(test_read_errors_exact),
		cmocka_unit_test(test_bus_mismatch),
		cmocka_unit_test(test_read_latency_and_rate),
		cmocka_unit_test(test_removal_at_write_block),
		cmocka_unit_test(test_removal_during_write_block),
		cmocka_unit_test(test_stuck_busy_at_write_block),
		cmocka_unit_test(test_stop_edges),
		cmocka_unit_test(test_stuck_card_stalls_write),
		cmocka_unit_test(test_bus_stops_and_media_rate),
		cmocka_unit_test(test_r1b_response_end_once),
		cmocka_unit_test(test_nothing_after_a_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
