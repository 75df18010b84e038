/*
 * SDHCI backend edges over the register model of sdhci_model.c: the ADMA2
 * table check per DMA mode, a configuration changed behind the backend's
 * back, what a second probe and an abort leave behind, the capability
 * structure filled whole, the last divider of the 10-bit clock, the poll
 * step of the bounded waits, the 4 GiB limit of 32-bit DMA, the bits of a
 * command without response, one ADMA2 segment too many, the state start()
 * leaves in the data structure; the waits at exactly their limits, the status
 * and handle state a probe leaves, the 8-bit and UHS-I capabilities, the order
 * of the bus power writes, start() at its limits, blocks that are no multiple
 * of 4 bytes, the registers an R2 and a stray buffer ready touch, the status
 * reads of one handle_irq call, the card interrupt across an abort.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "sdhci_model.h"

/* A table too small for one descriptor is refused only where ADMA2 is asked for. */
static void test_init_table_per_mode(void **state)
{
	struct mmchal_sdhci_cfg c;

	(void)state;
	model_reset(0x0002, CAPS_QEMU_V3);
	c = base_cfg();
	c.adma_table_size = 4;
	c.dma = MMCHAL_SDHCI_DMA_ADMA2_32;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), MMCHAL_EINVAL);
	c.dma = MMCHAL_SDHCI_DMA_ADMA2_64;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), MMCHAL_EINVAL);
	c.adma_table_size = 8;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), MMCHAL_EINVAL);
	c.dma = MMCHAL_SDHCI_DMA_ADMA2_32;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), 0);
	c.adma_table_size = 4;
	c.dma = MMCHAL_SDHCI_DMA_SDMA;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), 0);
	c.dma = MMCHAL_SDHCI_DMA_NONE;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), 0);
	c.dma = MMCHAL_SDHCI_DMA_AUTO;
	assert_int_equal(mmchal_sdhci_init(&h, &c, &be), 0);
	/* AUTO with a 4-byte table: no ADMA2, SDMA */
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_SDMA);
	assert_int_equal(m.nresets, 1);
}

/* A 1-bit slot: accepted, no 4-bit bus offered, a 4-bit set_ios refused. */
static void test_one_bit_slot(void **state)
{
	struct mmchal_sdhci_cfg c;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;

	(void)state;
	model_reset(0x0002, CAPS_QEMU_V3);
	c = base_cfg();
	c.bus_width = 1;
	assert_int_equal(up(&c), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.bus & (MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT), 0);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), MMCHAL_EINVAL);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	assert_int_equal(h.clock_hz, 400000u);
}

/* A configuration init would have refused, written into the handle after
   init: an unknown DMA mode, an ADMA2 table too small. */
static void test_probe_bad_mode(void **state)
{
	struct mmchal_sdhci_cfg c;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;

	(void)state;
	model_reset(0x0002, CAPS_QEMU_V3);
	c = base_cfg();
	assert_int_equal(mmchal_sdhci_init(&h, &c, &be), 0);
	h.cfg.dma = (enum mmchal_sdhci_dma)(MMCHAL_SDHCI_DMA_ADMA2_64 + 1);
	assert_int_equal(be.ops->probe(be.ctx), MMCHAL_EINVAL);
	assert_false(h.probed);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), MMCHAL_EINVAL);
	/* an ADMA2 table shrunk below one descriptor */
	c.dma = MMCHAL_SDHCI_DMA_ADMA2_32;
	assert_int_equal(mmchal_sdhci_init(&h, &c, &be), 0);
	h.cfg.adma_table_size = 4;
	assert_int_equal(be.ops->probe(be.ctx), MMCHAL_EINVAL);
	assert_false(h.probed);
	h.cfg.adma_table_size = 8;
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_int_equal(h.max_segs, 1);
}

/* A second probe forgets the command, data phase and busy wait in flight and
   the card interrupt enable. */
static void test_reprobe_forgets(void **state)
{
	uint8_t buf[512];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd rd = {.opcode = 17, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd b = {.opcode = 7, .arg = 1u << 16, .flags = MMCHAL_RSP_R1B};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c};
	struct mmchal_xfer dx = {.cmd = &rd, .data = &d};
	struct mmchal_xfer bx = {.cmd = &b};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), 0);

	/* a command started, its completion never collected */
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EBUSY);
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);

	/* a PIO read whose data never comes */
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &dx), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EBUSY);
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);

	/* a busy wait that never ends */
	assert_int_equal(be.ops->start(be.ctx, &bx), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EBUSY);
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	m.hold_xfer = false;

	/* the card interrupt, enabled before, is off after the probe */
	assert_int_equal(be.ops->enable_sdio_irq(be.ctx, true), 0);
	assert_int_equal(get32(0x34) & (1u << 8), 1u << 8);
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_int_equal(get32(0x34) & (1u << 8), 0);
}

/* An abort during a busy wait ends it, and so does its timeout: the next
   command may start. */
static void test_abort_ends_busy(void **state)
{
	struct mmchal_cmd b = {.opcode = 7, .arg = 1u << 16, .flags = MMCHAL_RSP_R1B};
	struct mmchal_cmd c = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
	struct mmchal_xfer bx = {.cmd = &b};
	struct mmchal_xfer x = {.cmd = &c};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &bx), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EBUSY);
	assert_int_equal(be.ops->abort(be.ctx), 0);
	m.hold_xfer = false;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	/* the late end of the aborted busy wait is no event */
	m.norm |= 1u << 1;
	assert_int_equal(model_poll(), 0);

	/* a busy wait that ran into the data timeout is over too */
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &bx), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	m.err |= 1u << 4;
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(b.error, MMCHAL_ETIMEDOUT);
	m.hold_xfer = false;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
}

static void fill_caps(struct mmchal_dma_caps *dc)
{
	memset(dc, 0xa5, sizeof(*dc));
}

/* get_caps writes every field, also those it has no value for. */
static void test_caps_whole(void **state)
{
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_ADMA2_64);
	fill_caps(&dc);
	memset(&hc, 0xa5, sizeof(hc));
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(dc.kind, MMCHAL_DMA_INTERNAL);
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		const struct mmchal_dma_dir_caps *c = &dc.dir[d];

		assert_int_equal(c->addr_bits, 64);
		assert_int_equal(c->addr_align, 4);
		assert_int_equal(c->len_granule, 0);
		assert_int_equal(c->max_segs, 8);
		assert_int_equal(c->max_seg_size, MMCHAL_SDHCI_ADMA2_MAX_LEN);
		assert_int_equal(c->seg_boundary, 0);
		assert_int_equal(c->min_len, 0);
		assert_int_equal(c->max_xfer, 0);
		assert_false(c->coherent);
	}

	/* PIO only: every per-direction field zero */
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_NONE);
	fill_caps(&dc);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(dc.kind, MMCHAL_DMA_NONE);
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		const struct mmchal_dma_dir_caps *c = &dc.dir[d];

		assert_int_equal(c->addr_bits, 0);
		assert_int_equal(c->addr_align, 0);
		assert_int_equal(c->max_segs, 0);
		assert_int_equal(c->max_seg_size, 0);
		assert_int_equal(c->max_xfer, 0);
		assert_false(c->coherent);
	}
}

/* v3.00: N = 1023 is the last divider; a clock that needs 1024 is out of range. */
static void test_clock_last_divider(void **state)
{
	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	/* ceil(52 MHz / (2 x 25416 Hz)) = 1023: 52 MHz / 2046 = 25415 Hz */
	assert_int_equal(power_on(25416, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(h.clock_hz, 25415u);
	assert_int_equal(get16(0x2c), (0xffu << 8) | (3u << 6) | 0x5u);
	/* ceil(52 MHz / (2 x 25400 Hz)) = 1024 */
	assert_int_equal(power_on(25400, MMCHAL_BUS_WIDTH_4), MMCHAL_ERANGE);
	assert_int_equal(h.clock_hz, 0);
	assert_int_equal(get16(0x2c) & 0x4u, 0);
}

/* The bounded waits poll in 10 us steps and give up after their timeout. */
static void test_wait_steps(void **state)
{
	uint64_t t0;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	m.clock_stuck = true;
	last_delay_us = 0;
	t0 = clock_ns;
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), MMCHAL_ETIMEDOUT);
	assert_int_equal(last_delay_us, 10);
	/* 150 ms, passed by less than one step and the reading after it */
	assert_true(clock_ns - t0 > 150000000ull);
	assert_true(clock_ns - t0 < 150000000ull + 20000ull);
	m.clock_stuck = false;

	m.reset_stuck = true;
	last_delay_us = 0;
	t0 = clock_ns;
	assert_int_equal(be.ops->probe(be.ctx), MMCHAL_ETIMEDOUT);
	assert_int_equal(last_delay_us, 10);
	assert_true(clock_ns - t0 > 100000000ull);
	assert_true(clock_ns - t0 < 100000000ull + 20000ull);
}

/* 32-bit DMA reaches the last byte below 4 GiB, not one byte further. */
static void test_dma32_top(void **state)
{
	uint8_t buf[1];
	struct mmchal_sg sg = {.cpu = buf, .len = 1};
	struct mmchal_cmd c = {.opcode = 17, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_dma_seg seg = {0xfffffe00u, 512};
	struct mmchal_xfer x = {
		.cmd = &c, .data = &d, .plan = MMCHAL_PLAN_DIRECT, .segs = &seg, .nsegs = 1};
	static const uint8_t want[8] = {0x23, 0, 0x00, 0x02, 0x00, 0xfe, 0xff, 0xff};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_ADMA2_32);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_memory_equal(m.mem + TABLE_DMA, want, sizeof(want));
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.bytes_xfered, 512);
	seg.addr = 0xfffffe04u;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_ERANGE);

	/* SDMA: the same */
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_SDMA);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	seg.addr = 0xfffffe00u;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(get32(0x00), 0xfffffe00u);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	seg.addr = 0xfffffe04u;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_ERANGE);
}

/* A command without response has response type 00 and no check bits, and
   its completion reads no response register. */
static void test_no_response_bits(void **state)
{
	struct mmchal_cmd c = {.opcode = 0, .flags = MMCHAL_RSP_NONE};
	struct mmchal_xfer x = {.cmd = &c};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	c.opcode = 0;
	m.resp[0] = 0x12345678u; /* stale response register: not read */
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(m.last_cmd, 0x0000);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], 0);
	c.opcode = 4;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(m.last_cmd, 0x0400);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
}

/* ADMA2: one segment more than the table holds is refused before a
   descriptor is written. */
static void test_adma_too_many_segments(void **state)
{
	struct mmchal_dma_seg segs[9];
	uint8_t buf[4];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 9, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {
		.cmd = &c, .data = &d, .plan = MMCHAL_PLAN_DIRECT, .segs = segs, .nsegs = 9};
	uint8_t after[12];

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_ADMA2_64);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(h.max_segs, 8);
	for (unsigned int i = 0; i < 9; i++) {
		segs[i].addr = 0x4000u + 512u * i;
		segs[i].len = 512;
	}
	memset(m.mem + TABLE_DMA, 0x5a, 9 * 12);
	memcpy(after, m.mem + TABLE_DMA + 8 * 12, sizeof(after));
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	assert_int_equal(m.ncmds, 0);
	for (unsigned int i = 0; i < 9 * 12; i++)
		assert_int_equal(m.mem[TABLE_DMA + i], 0x5a);
	assert_memory_equal(m.mem + TABLE_DMA + 8 * 12, after, sizeof(after));
	/* eight are fine */
	x.nsegs = 8;
	d.blocks = 8;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
}

/* start() clears the data phase's result of a previous use; a DMA transfer
   leaves the data port alone even when the buffer-ready bits are up. */
static void test_dma_start_state(void **state)
{
	uint8_t buf[512];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 17, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {.dir = MMCHAL_DIR_FROM_CARD,
				.blksz = 512,
				.blocks = 1,
				.sg = &sg,
				.sg_len = 1,
				.error = MMCHAL_EIO,
				.bytes_xfered = 77};
	struct mmchal_dma_seg seg = {0x4000, 512};
	struct mmchal_xfer x = {
		.cmd = &c, .data = &d, .plan = MMCHAL_PLAN_DIRECT, .segs = &seg, .nsegs = 1};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_ADMA2_32);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	memset(buf, 0xaa, sizeof(buf));
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(d.error, 0);
	assert_int_equal(d.bytes_xfered, 0);
	m.present |= 1u << 11; /* buffer read enable */
	m.norm |= 1u << 5;     /* buffer read ready */
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	for (unsigned int i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0xaa);
	m.present &= ~(1u << 11);
	m.hold_xfer = false;
	assert_int_equal(be.ops->abort(be.ctx), 0);
}

/* Transfer Complete before every block went through the data port: the blocks the
   CPU never moved are lost, so the data phase fails with EIO and counts only the
   blocks that moved, whatever the controller's block counter says. */
static void test_pio_short_transfer(void **state)
{
	uint8_t buf[1536];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 3, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d, .auto_stop = true};
	uint32_t done = 99;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_NONE);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	for (unsigned int i = 0; i < sizeof(m.card); i++)
		m.card[i] = (uint8_t)(i * 5u + 1u);

	/* nothing moved: the counter claims all three blocks done */
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	m.reading = false;
	m.present &= ~(1u << 11);
	m.blkcnt = 0;
	m.norm = (1u << 0) | (1u << 1);
	m.nresets = 0;
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(d.bytes_xfered, 0);
	/* the CMD and DAT lines are reset after the failed data phase */
	assert_int_equal(m.nresets, 2);
	assert_int_equal(m.resets[0], 2);
	assert_int_equal(m.resets[1], 4);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 0);
	for (unsigned int i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0xee);

	/* one block through the port, then Transfer Complete */
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	m.limit = 512;
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(d.bytes_xfered, 512);
	assert_memory_equal(buf, m.card, 512);
	assert_int_equal(buf[512], 0xee);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 1);

	/* a write ended after one block: not even that one is known to be written */
	c.opcode = 25;
	d.dir = MMCHAL_DIR_TO_CARD;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	m.limit = 512;
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(d.bytes_xfered, 0);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 0);

	/* a write that moved nothing, the counter claiming all three blocks done */
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	m.writing = false;
	m.present &= ~(1u << 10);
	m.blkcnt = 0;
	m.norm = (1u << 0) | (1u << 1);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(d.bytes_xfered, 0);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 0);
}

/* Transfer Complete read together with the buffer still holding data, without
   its Buffer Read Ready bit: the backend drains the port first, and succeeds. */
static void test_pio_drain_at_transfer_complete(void **state)
{
	uint8_t buf[1024];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 2, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d, .auto_stop = true};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_NONE);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	for (unsigned int i = 0; i < sizeof(m.card); i++)
		m.card[i] = (uint8_t)(i * 3u + 2u);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	m.norm = (1u << 0) | (1u << 1); /* no Buffer Read Ready; the data is there */
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.error, 0);
	assert_int_equal(d.bytes_xfered, 1024);
	assert_memory_equal(buf, m.card, sizeof(buf));

	/* A write is not continued after Transfer Complete: nothing more goes to the
	   port, although the buffer reads as writable. */
	c.opcode = 25;
	d.dir = MMCHAL_DIR_TO_CARD;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	m.norm = (1u << 0) | (1u << 1); /* no Buffer Write Ready */
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(d.bytes_xfered, 0);
	assert_int_equal(m.pos, 0);
}

/* A buffer of one block, as real controllers have: each Buffer Read Ready moves
   one block, and the data phase goes on until Transfer Complete. */
static void test_pio_block_by_block(void **state)
{
	uint8_t buf[1024];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 2, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d, .auto_stop = true};
	uint32_t done = 99;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_NONE);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	for (unsigned int i = 0; i < sizeof(m.card); i++)
		m.card[i] = (uint8_t)(i * 11u + 5u);
	m.one_block = true;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(m.pos, 512);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 1);
	m.present |= 1u << 11;
	m.norm |= 1u << 5;
	assert_int_equal(model_poll(), MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.error, 0);
	assert_int_equal(d.bytes_xfered, 1024);
	assert_memory_equal(buf, m.card, sizeof(buf));
	m.one_block = false;
}

/* A wait gives up only once its limit is passed, not when it is reached. With a
   clock that moves only in the 10 us polls, the reset gives up after 10001 polls
   (100.01 ms) and the internal clock after 15001 (150.01 ms). The command inhibit
   wait polls without a delay, on the 1 us reading clock: inhibit bits that read
   set 1000 times (1 ms) are waited for, 1001 times are not. */
static void test_wait_limits_exact(void **state)
{
	struct mmchal_cmd c = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
	struct mmchal_xfer x = {.cmd = &c};
	uint64_t t0;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	clock_step_ns = 0;
	m.reset_stuck = true;
	t0 = clock_ns;
	assert_int_equal(be.ops->probe(be.ctx), MMCHAL_ETIMEDOUT);
	assert_int_equal(clock_ns - t0, 100010000ull);
	m.reset_stuck = false;
	assert_int_equal(be.ops->probe(be.ctx), 0);

	m.clock_stuck = true;
	t0 = clock_ns;
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), MMCHAL_ETIMEDOUT);
	assert_int_equal(clock_ns - t0, 150010000ull);
	m.clock_stuck = false;
	clock_step_ns = 1000;
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), 0);

	m.inhibit_reads = 1000;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(m.inhibit_reads, 0);
	assert_int_equal(m.ncmds, 1);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	m.inhibit_reads = 1001;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EBUSY);
	assert_int_equal(m.inhibit_reads, 0);
	assert_int_equal(m.ncmds, 1);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
}

/* The status a reset of all leaves pending (a removable slot reports its card
   as inserted again) is cleared by the probe: no event afterwards. */
static void test_probe_clears_status(void **state)
{
	struct mmchal_sdhci_cfg c;

	(void)state;
	model_reset(0x0002, CAPS_QEMU_V3);
	m.norm_after_reset = 1u << 6; /* Card Insertion */
	c = base_cfg();
	assert_int_equal(up(&c), 0);
	assert_int_equal(m.norm, 0);
	assert_int_equal(m.acked, 0xffffffffu);
	assert_int_equal(model_poll(), 0);
	/* the same status raised after the probe is an event */
	m.norm |= 1u << 6;
	assert_int_equal(model_poll(), MMCHAL_EV_CARD_CHANGE);
}

/* A second probe resets the state the handle shows: the blocks done of the last
   data phase, the STOP in flight, the DMA segments of a controller that lost
   its DMA engines, the card interrupt enable. */
static void test_reprobe_state(void **state)
{
	uint8_t buf[1024];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd stop = {.opcode = 12, .flags = MMCHAL_RSP_R1B};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 2, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d, .stop = &stop, .auto_stop = true};
	uint32_t done = 99;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_ADMA2_64);
	assert_int_equal(h.max_segs, 8);
	assert_int_equal(h.irq_enable, 0);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_null(h.stop);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 2);
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 0);

	/* a transfer with Auto CMD12 in flight */
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_ptr_equal(h.stop, &stop);
	assert_int_equal(be.ops->abort(be.ctx), 0);
	assert_null(h.stop);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_ptr_equal(h.stop, &stop);
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_null(h.cmd);
	assert_null(h.data);
	assert_null(h.stop);
	m.hold_xfer = false;

	/* the card interrupt enabled, then a probe of a controller without DMA */
	assert_int_equal(be.ops->enable_sdio_irq(be.ctx, true), 0);
	assert_int_equal(h.irq_enable, 1u << 8);
	m.caps0 &= ~((1u << 19) | (1u << 22));
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_NONE);
	assert_int_equal(h.max_segs, 0);
	assert_int_equal(h.irq_enable, 0);
}

/* The 8-bit bus needs both the eight lines wired and the controller's 8-bit
   capability. */
static void test_caps_8bit_needs_both(void **state)
{
	struct mmchal_sdhci_cfg c;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;

	(void)state;
	/* the capability, four lines wired (the default, then said) */
	model_reset(0x0002, CAPS_QEMU_V3 | (1u << 18));
	c = base_cfg();
	assert_int_equal(up(&c), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.bus & (MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT), MMCHAL_BUS_4_BIT);
	c.bus_width = 4;
	assert_int_equal(up(&c), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.bus & (MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT), MMCHAL_BUS_4_BIT);
	/* eight lines wired, no capability */
	model_reset(0x0002, CAPS_QEMU_V3);
	c.bus_width = 8;
	assert_int_equal(up(&c), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.bus & (MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT), MMCHAL_BUS_4_BIT);
	c.bus_width = 5;
	assert_int_equal(up(&c), MMCHAL_EINVAL);
	c.bus_width = 8;
	/* both */
	model_reset(0x0002, CAPS_QEMU_V3 | (1u << 18));
	assert_int_equal(up(&c), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.bus & (MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT),
			 MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT);
}

/* Bus power: the voltage is written first, then power on (3.3); a set_ios at
   the voltage already on writes neither, so bus power never drops. */
static void test_power_write_sequence(void **state)
{
	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	m.nhc = 0;
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(m.nhc, 3);
	assert_int_equal(m.hc_log[0], 0x0e00);
	assert_int_equal(m.hc_log[1], 0x0f00);
	assert_int_equal(m.hc_log[2], 0x0f02);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_1), 0);
	assert_int_equal(m.nhc, 4);
	assert_int_equal(m.hc_log[3], 0x0f00);
	assert_int_equal(h.clock_hz, 13000000);
}

/* UHS-I timing select: SDR12 and SDR25 take any UHS-I capability, also DDR50
   or SDR104 alone; going back to a timing without UHS mode selects SDR12 (0)
   again. */
static void test_uhs_modes(void **state)
{
	static const uint32_t caps1[] = {1u << 2, 1u << 1};
	struct mmchal_ios ios = {.clock_hz = 25000000,
				 .bus_width = MMCHAL_BUS_WIDTH_4,
				 .timing = MMCHAL_TIMING_UHS_SDR25,
				 .power_mode = MMCHAL_POWER_ON,
				 .signal_voltage = MMCHAL_SIGNAL_180};
	struct mmchal_sdhci_cfg c;

	(void)state;
	for (unsigned int i = 0; i < sizeof(caps1) / sizeof(caps1[0]); i++) {
		model_reset(0x0002, CAPS_QEMU_V3);
		m.caps1 = caps1[i];
		c = base_cfg();
		assert_int_equal(up(&c), 0);
		ios.timing = MMCHAL_TIMING_UHS_SDR25;
		assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
		assert_int_equal(get16(0x3e), 0x0009);
		ios.timing = MMCHAL_TIMING_UHS_SDR12;
		assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
		assert_int_equal(get16(0x3e), 0x0008);
		ios.timing = MMCHAL_TIMING_UHS_SDR25;
		assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
		assert_int_equal(get16(0x3e), 0x0009);
		ios.timing = MMCHAL_TIMING_LEGACY;
		assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
		assert_int_equal(get16(0x3e), 0x0008);
		assert_int_equal(get16(0x28) & 0x00ffu, 0x02);
		ios.timing = MMCHAL_TIMING_UHS_SDR25;
		assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
		ios.timing = MMCHAL_TIMING_SD_HS;
		assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
		assert_int_equal(get16(0x3e), 0x0008);
		assert_int_equal(get16(0x28) & 0x00ffu, 0x06);
	}
}

/* start() checks at their edges: CMD63 is the last command index, a plan past
   the last is refused, DMA needs its segment list, a stale command error is
   cleared, 32-bit DMA stops below the byte at 4 GiB. */
static void test_start_edges(void **state)
{
	uint8_t buf[8];
	struct mmchal_sg sg = {.cpu = buf, .len = 5};
	struct mmchal_cmd c = {.opcode = 63, .flags = MMCHAL_RSP_R1, .error = MMCHAL_EIO};
	struct mmchal_cmd rd = {.opcode = 53, .flags = MMCHAL_RSP_R5};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 4, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_dma_seg seg = {0x4000, 4};
	struct mmchal_xfer x = {.cmd = &c};
	struct mmchal_xfer dx = {
		.cmd = &rd, .data = &d, .plan = MMCHAL_PLAN_DIRECT, .segs = &seg, .nsegs = 1};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_ADMA2_32);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	sg.len = 4;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(m.last_cmd, 0x3f1a);
	assert_int_equal(c.error, 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.error, 0);
	c.opcode = 64;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	assert_int_equal(m.ncmds, 1);

	dx.plan = (enum mmchal_plan)MMCHAL_PLAN_COUNT;
	assert_int_equal(be.ops->start(be.ctx, &dx), MMCHAL_EINVAL);
	dx.plan = MMCHAL_PLAN_DIRECT;
	dx.segs = NULL;
	assert_int_equal(be.ops->start(be.ctx, &dx), MMCHAL_EINVAL);
	dx.segs = &seg;
	assert_int_equal(m.ncmds, 1);
	assert_int_equal(be.ops->start(be.ctx, &dx), 0);
	/* ADMA2 32-bit selected, bus power and width kept */
	assert_int_equal(get16(0x28), 0x0f12);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.bytes_xfered, 4);

	/* the last four bytes below 4 GiB; one more reaches it */
	seg.addr = 0xfffffffcu;
	assert_int_equal(be.ops->start(be.ctx, &dx), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	d.blksz = 5;
	seg.len = 5;
	sg.len = 5;
	assert_int_equal(be.ops->start(be.ctx, &dx), MMCHAL_ERANGE);
	assert_int_equal(m.ncmds, 3);
}

/* A block that is no multiple of 4 bytes: its last data port access carries the
   rest, a write pads it with zeros, a read takes only the rest. */
static void test_pio_partial_word(void **state)
{
	uint8_t buf[8];
	struct mmchal_sg sg = {.cpu = buf, .len = 5};
	struct mmchal_cmd c = {.opcode = 53, .arg = 0x94000005u, .flags = MMCHAL_RSP_R5};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_TO_CARD, .blksz = 5, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d};
	static const uint8_t out[5] = {0x11, 0x22, 0x33, 0x44, 0x55};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_NONE);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	memcpy(buf, out, sizeof(out));
	memset(m.card, 0xcc, 8);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.error, 0);
	assert_int_equal(d.bytes_xfered, 5);
	assert_int_equal(m.pos, 5);
	assert_int_equal(m.port_word, 0x00000055u);
	assert_memory_equal(m.card, out, sizeof(out));
	assert_int_equal(m.card[5], 0xcc);

	/* a read of the same */
	for (unsigned int i = 0; i < 8; i++)
		m.card[i] = (uint8_t)(0xa0u + i);
	memset(buf, 0xee, sizeof(buf));
	c.arg = 0x14000005u;
	d.dir = MMCHAL_DIR_FROM_CARD;
	m.port_reads = 0;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.bytes_xfered, 5);
	assert_int_equal(m.port_reads, 2);
	assert_memory_equal(buf, m.card, 5);
	assert_int_equal(buf[5], 0xee);
}

/* A 136-bit response is read from the four response registers only: the data
   port after them is not touched. */
static void test_r2_reads_four_registers(void **state)
{
	struct mmchal_cmd c = {.opcode = 2, .flags = MMCHAL_RSP_R2};
	struct mmchal_xfer x = {.cmd = &c};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	m.resp[0] = 0x04030201u;
	m.resp[3] = 0x00100f0eu;
	m.port_reads = 0;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(m.port_reads, 0);
	assert_int_equal(c.resp[0], 0x100f0e00u);
	assert_int_equal(c.resp[3], 0x03020100u);
}

/* A block counter above the request (a controller that reloads it late) counts
   no block done. */
static void test_counter_above_request(void **state)
{
	uint8_t buf[1024];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 2, .sg = &sg, .sg_len = 1};
	struct mmchal_dma_seg seg = {0x4000, 1024};
	struct mmchal_xfer x = {
		.cmd = &c, .data = &d, .plan = MMCHAL_PLAN_DIRECT, .segs = &seg, .nsegs = 1};
	uint32_t done = 99;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_ADMA2_32);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	m.blkcnt = 3;
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 0);
	m.blkcnt = 1;
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 1);
	m.blkcnt = 3;
	assert_int_equal(be.ops->abort(be.ctx), 0);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 0);
	m.hold_xfer = false;
}

/* A status without Command Complete while a command is in flight (a card
   change) neither completes it nor reads its response. */
static void test_cmd_waits_for_complete(void **state)
{
	struct mmchal_cmd c = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
	struct mmchal_xfer x = {.cmd = &c};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	c.resp[0] = 0x5a5a5a5au;
	m.resp[0] = 0x00000900u;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	m.norm = 1u << 6; /* Card Insertion; Command Complete not yet */
	assert_int_equal(model_poll(), MMCHAL_EV_CARD_CHANGE);
	assert_ptr_equal(h.cmd, &c);
	assert_int_equal(c.resp[0], 0x5a5a5a5au);
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EBUSY);
	m.norm = 1u << 0;
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], 0x00000900u);
	assert_int_equal(c.error, 0);
}

/* A Buffer Read Ready seen again after the last block moved reads nothing more
   from the data port; a Buffer Write Ready after the last block writes nothing. */
static void test_pio_ready_after_last_block(void **state)
{
	uint8_t buf[512];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 17, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_NONE);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	for (unsigned int i = 0; i < sizeof(m.card); i++)
		m.card[i] = (uint8_t)(i * 7u + 3u);
	m.hold_xfer = true;
	m.port_reads = 0;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(m.port_reads, 128);
	assert_memory_equal(buf, m.card, sizeof(buf));
	m.present |= 1u << 11;
	m.norm |= 1u << 5;
	assert_int_equal(model_poll(), 0);
	assert_int_equal(m.port_reads, 128);
	m.present &= ~(1u << 11);
	m.norm |= 1u << 1;
	assert_int_equal(model_poll(), MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.error, 0);

	c.opcode = 24;
	d.dir = MMCHAL_DIR_TO_CARD;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(m.pos, 512);
	m.port_word = 0x12345678u;
	m.present |= 1u << 10;
	m.norm |= 1u << 4;
	assert_int_equal(model_poll(), 0);
	assert_int_equal(m.port_word, 0x12345678u);
	m.present &= ~(1u << 10);
	m.norm |= 1u << 1;
	assert_int_equal(model_poll(), MMCHAL_EV_DATA_DONE);
	m.hold_xfer = false;
}

/* One handle_irq call reads the status once when nothing is pending, and at
   most 16 times when a status will not clear. */
static void test_irq_loop_bound(void **state)
{
	uint32_t ev = 99;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	m.status_reads = 0;
	assert_int_equal(be.ops->handle_irq(be.ctx, &ev), 0);
	assert_int_equal(ev, 0);
	assert_int_equal(m.status_reads, 1);
	/* the error summary alone is nothing to serve */
	m.norm = 1u << 15;
	m.status_reads = 0;
	assert_int_equal(be.ops->handle_irq(be.ctx, &ev), 0);
	assert_int_equal(ev, 0);
	assert_int_equal(m.status_reads, 1);
	m.norm = 0;
	/* a card change that keeps coming */
	m.norm_stuck = 1u << 6;
	m.status_reads = 0;
	assert_int_equal(be.ops->handle_irq(be.ctx, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CARD_CHANGE);
	assert_int_equal(m.status_reads, 16);
	m.norm_stuck = 0;
}

/* An abort acknowledges every status but the card interrupt, which only the card
   clears: a pending one is still served after the abort. */
static void test_abort_keeps_card_irq(void **state)
{
	struct mmchal_cmd c = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
	struct mmchal_xfer x = {.cmd = &c};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(be.ops->enable_sdio_irq(be.ctx, true), 0);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	m.norm |= 1u << 8;
	m.acked = 0;
	assert_int_equal(be.ops->abort(be.ctx), 0);
	assert_int_equal(m.acked, 0xffff7effu);
	assert_int_equal(m.norm, 1u << 8);
	assert_int_equal(model_poll(), MMCHAL_EV_SDIO_IRQ);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_table_per_mode),
		cmocka_unit_test(test_one_bit_slot),
		cmocka_unit_test(test_probe_bad_mode),
		cmocka_unit_test(test_reprobe_forgets),
		cmocka_unit_test(test_abort_ends_busy),
		cmocka_unit_test(test_caps_whole),
		cmocka_unit_test(test_clock_last_divider),
		cmocka_unit_test(test_wait_steps),
		cmocka_unit_test(test_dma32_top),
		cmocka_unit_test(test_no_response_bits),
		cmocka_unit_test(test_adma_too_many_segments),
		cmocka_unit_test(test_dma_start_state),
		cmocka_unit_test(test_pio_short_transfer),
		cmocka_unit_test(test_pio_drain_at_transfer_complete),
		cmocka_unit_test(test_pio_block_by_block),
		cmocka_unit_test(test_wait_limits_exact),
		cmocka_unit_test(test_probe_clears_status),
		cmocka_unit_test(test_reprobe_state),
		cmocka_unit_test(test_caps_8bit_needs_both),
		cmocka_unit_test(test_power_write_sequence),
		cmocka_unit_test(test_uhs_modes),
		cmocka_unit_test(test_start_edges),
		cmocka_unit_test(test_pio_partial_word),
		cmocka_unit_test(test_r2_reads_four_registers),
		cmocka_unit_test(test_counter_above_request),
		cmocka_unit_test(test_cmd_waits_for_complete),
		cmocka_unit_test(test_pio_ready_after_last_block),
		cmocka_unit_test(test_irq_loop_bound),
		cmocka_unit_test(test_abort_keeps_card_irq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
