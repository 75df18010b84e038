/*
 * Simulator tests, protocol edges and engines' corner cases: open-ended and
 * CMD23 transfers, port width rules, exact write timing, DMAC reset, IOMMU
 * on writes, SYS-DMAC validation and errors, eMMC byte mode, the port seam.
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

static void open_with(struct drv *d, enum mmchal_sim_card_kind kind,
		      void (*tweak)(struct mmchal_sim_card_config *))
{
	struct mmchal_sim_card_config cfg;

	assert_int_equal(drv_open(d, NULL), 0);
	assert_int_equal(mmchal_sim_mem_add(d->sim, RAM_BASE, 4u << 20, NULL), 0);
	mmchal_sim_card_defaults(kind, &cfg);
	if (tweak)
		tweak(&cfg);
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cfg), 0);
	drv_ack(d, 0xffffffffu);
}

static void fast_sd(struct mmchal_sim_card_config *c)
{
	c->read_latency_ns = 0;
	c->read_rate = 0;
	c->write_rate = 0;
}

static void read_block_words(struct drv *d, uint8_t *out, uint32_t len)
{
	uint32_t w = drv_port_width(d);

	for (uint32_t i = 0; i < len; i += w) {
		uint64_t v = drv_port_rd(d);

		for (uint32_t k = 0; k < w && i + k < len; k++)
			out[i + k] = (uint8_t)(v >> (8u * k));
	}
}

static void test_open_ended_read_with_stop(void **state)
{
	struct drv d;
	uint8_t blk[512];
	uint8_t *store;
	uint32_t rca;

	(void)state;
	open_with(&d, MMCHAL_SIM_CARD_SD, fast_sd);
	rca = drv_sd_init(&d);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 4 * 512; i++)
		store[i] = (uint8_t)(i >> 2);
	/* No SEC bit: the transfer runs until SD_STOP.STP. */
	mmchal_bus_wr16(&d.bus, R_SIZE, 512);
	mmchal_bus_wr16(&d.bus, R_STOP, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	for (unsigned b = 0; b < 3; b++) {
		assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
		drv_ack(&d, S_BRE);
		if (b == 2)
			mmchal_bus_wr16(&d.bus, R_STOP, 1); /* stop after this block */
		read_block_words(&d, blk, 512);
		assert_memory_equal(blk, store + b * 512, 512);
	}
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	/* The automatic CMD12 response is in SD_RSP54 (and RSP10): state was data (5). */
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_RSP + 8u), (5u << 9) | (1u << 8));
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	(void)rca;
	drv_close(&d);
}

/*
 * The write side of an open-ended transfer (SD_STOP without SEC, REF): the
 * data port takes block after block until STP, then the controller sends
 * CMD12 after the block in flight (docs/sim.md correction 14; the port
 * refused every word before).
 */
static void test_open_ended_write_with_stop(void **state)
{
	struct mmchal_sim_counters c;
	uint8_t *store;
	struct drv d;

	(void)state;
	open_with(&d, MMCHAL_SIM_CARD_SD, fast_sd);
	(void)drv_sd_init(&d);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(store, 0xee, 4 * 512);
	mmchal_bus_wr16(&d.bus, R_SIZE, 512);
	mmchal_bus_wr16(&d.bus, R_STOP, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_MULTI | 25, 0), 0);
	for (unsigned b = 0; b < 3; b++) {
		assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
		drv_ack(&d, S_BWE);
		for (unsigned i = 0; i < 512; i += drv_port_width(&d))
			drv_port_wr(&d, 0x0101010101010101ull * (b + 1u));
		if (b == 2)
			mmchal_bus_wr16(&d.bus, R_STOP, 1); /* stop after this block */
	}
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.bad_accesses == 0);
	for (unsigned i = 0; i < 4 * 512; i++)
		assert_int_equal(store[i], i < 3 * 512 ? i / 512 + 1u : 0xeeu);
	/* The automatic CMD12 came in rcv (6). */
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_RSP), (6u << 9) | (1u << 8));
	drv_wait_not_busy(&d, 100000000u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	drv_close(&d);
}

static void test_cmd23_counted_write(void **state)
{
	struct drv d;
	uint8_t wr[2 * 512];
	struct mmchal_sim_counters c;
	uint32_t rca;

	(void)state;
	open_with(&d, MMCHAL_SIM_CARD_SD, fast_sd);
	rca = drv_sd_init(&d);
	memset(wr, 0xc3, sizeof(wr));
	assert_int_equal(drv_cmd(&d, C_R1 | 23, 2), 0);
	mmchal_sim_reset_counters(d.sim);
	drv_setup_data(&d, 512, 2, true);
	/* 0x4000: no automatic CMD12; the card ends by itself after 2 blocks. */
	assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | C_NOA12 | 25, 50, 512, 2, wr), 0);
	mmchal_sim_get_counters(d.sim, &c);
	assert_int_equal(c.commands, 1);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_PRG);
	assert_false(drv_status(&d) & S_DAT0);
	assert_true(drv_wait_not_busy(&d, 10000000u) & S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_memory_equal(mmchal_sim_card_store(d.sim, NULL) + 50 * 512, wr, sizeof(wr));
	/* ACMD22: blocks written by the last write. */
	{
		uint8_t n[4];

		drv_cmd(&d, C_R1 | 55, rca << 16);
		assert_int_equal(drv_pio_read(&d, C_R1 | C_ACMD | 22, 0, 4, 1, n), 0);
		assert_int_equal(n[3], 2);
	}
	/* CMD23 then another command: the count is dropped. */
	assert_int_equal(drv_cmd(&d, C_R1 | 23, 1), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, rca << 16), 0);
	mmchal_bus_wr16(&d.bus, R_SIZE, 512);
	mmchal_bus_wr16(&d.bus, R_STOP, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	drv_ack(&d, S_BRE);
	{
		uint8_t blk[512];

		read_block_words(&d, blk, 512);
	}
	/* Still sending: an uncounted CMD18. */
	mmchal_sim_advance(d.sim, 100000u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_DATA);
	drv_close(&d);
}

static void test_port_widths(void **state)
{
	struct drv d;
	uint8_t blk[512];
	struct mmchal_sim_counters c;

	(void)state;
	open_with(&d, MMCHAL_SIM_CARD_SD, fast_sd);
	drv_sd_init(&d);
	memset(mmchal_sim_card_store(d.sim, NULL), 0x77, 512);
	/* 16-bit port. */
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0001u);
	assert_int_equal(drv_port_width(&d), 2);
	mmchal_sim_reset_counters(d.sim);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 0, 512, 1, blk), 0);
	mmchal_sim_get_counters(d.sim, &c);
	assert_int_equal(c.port_reads, 256);
	assert_int_equal(blk[511], 0x77);
	/* A 64-bit access to a 16-bit port is an illegal access. */
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	assert_true(d.bus.ops->read64(d.bus.ctx, R_BUF << 2) == 0);
	assert_true(drv_status(&d) & S_ILL);
	mmchal_sim_get_counters(d.sim, &c);
	assert_int_equal(c.bad_accesses, 1);
	drv_close(&d);
}

static void hs_sd(struct mmchal_sim_card_config *c)
{
	fast_sd(c);
	c->write_busy_ns = 2000000u;
}

static void test_sd_write_timing_exact(void **state)
{
	struct drv d;
	uint8_t sw[64];
	uint64_t t_fill, t_end;
	uint32_t rca;

	(void)state;
	open_with(&d, MMCHAL_SIM_CARD_SD, hs_sd);
	rca = drv_sd_init(&d);
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x80fffff1u, 64, 1, sw), 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0101u); /* 1/4: 50 MHz, 20 ns */
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | 24, 7), 0);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_MASK1, ~S_ACCESS_END);
	for (unsigned i = 0; i < 64; i++)
		drv_port_wr(&d, 0x0102030405060708ull);
	t_fill = mmchal_sim_now(d.sim);
	/* 4-bit: 1024 data + 16 CRC + 2 + 2 N_WR + 2 + 5 status = 1051 clocks = 21 020 ns. */
	assert_int_equal(mmchal_sim_run(d.sim, t_fill + 1000000u), MMCHAL_SIM_RUN_IRQ);
	t_end = mmchal_sim_now(d.sim);
	assert_true(t_end == t_fill + 21020u + 2000u);
	/*
	 * Programming busy: DAT0 low for write_busy_ns after the block. A status
	 * read is two 100 ns accesses; INFO2 (DAT0) is sampled by the second.
	 */
	mmchal_sim_advance(d.sim, (t_fill + 21020u + 2000000u - 300u) - t_end);
	assert_false(drv_status(&d) & S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_PRG);
	mmchal_sim_advance(d.sim, 100u);
	assert_true(drv_status(&d) & S_DAT0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, rca << 16), 0);
	assert_int_equal(d.rsp[0], (4u << 9) | (1u << 8));
	assert_int_equal(mmchal_sim_card_store(d.sim, NULL)[7 * 512], 0x08);
	drv_close(&d);
}

static void mmc_fast(struct mmchal_sim_card_config *c)
{
	c->read_latency_ns = 0;
	c->read_rate = 0;
	c->write_rate = 0;
}

static void mmc_8bit(struct drv *d)
{
	assert_int_equal(drv_mmc_init(d), 0);
	drv_cmd(d, C_R1B | 6, 0x03b70200u);
	drv_wait_not_busy(d, 10000000u);
	mmchal_bus_wr16(&d->bus, R_OPTION, 0x40eeu | (1u << 13));
}

static void dm_start(struct drv *d, bool read, uint64_t addr)
{
	mmchal_bus_wr16(&d->bus, R_EXTMODE, 0x1012u);
	mmchal_bus_raw_wr32(&d->bus, DM_INFO1, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_INFO2, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_MODE, (read ? 1u << 16 : 0) | 0x31u);
	d->bus.ops->write64(d->bus.ctx, DM_ADDR, addr);
	mmchal_bus_raw_wr32(&d->bus, DM_CTRL, 1);
}

static void test_idmac_reset_holds_channel(void **state)
{
	struct drv d;
	struct mmchal_sim_counters c;
	uint64_t p;
	uint8_t *buf;

	(void)state;
	open_with(&d, MMCHAL_SIM_CARD_MMC, mmc_fast);
	mmc_8bit(&d);
	buf = mmchal_sim_mem_alloc(d.sim, 0, 512, 128, &p);
	memset(mmchal_sim_card_store(d.sim, NULL), 0xe1, 512);
	/* Channel 1 held in reset (active low): the start is ignored. */
	mmchal_bus_raw_wr32(&d.bus, DM_RST, ~(3u << 8));
	mmchal_sim_reset_counters(d.sim);
	drv_setup_data(&d, 512, 1, false);
	dm_start(&d, true, p);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	/* Long enough for the block (1.4 ms at 390 kHz on 8 lines) to wait in the buffer. */
	mmchal_sim_advance(d.sim, 100000000u);
	assert_false(drv_status(&d) & S_ACCESS_END);
	mmchal_sim_get_counters(d.sim, &c);
	assert_int_equal(c.idmac_bytes, 0);
	/* Out of reset and started again: the waiting block moves. */
	mmchal_bus_raw_wr32(&d.bus, DM_RST, 0xffffffffu);
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 1);
	assert_true(drv_wait(&d, S_ACCESS_END, 1000000u) & S_ACCESS_END);
	assert_int_equal(buf[0], 0xe1);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 1u << 20);
	drv_close(&d);
}

static void test_idmac_write_through_iommu(void **state)
{
	struct drv d;
	struct mmchal_iommu io;
	struct mmchal_sim_iommu_stats st;
	struct mmchal_sg sg[2];
	uint8_t *store;

	(void)state;
	open_with(&d, MMCHAL_SIM_CARD_MMC, mmc_fast);
	mmc_8bit(&d);
	assert_int_equal(mmchal_sim_iommu_attach(d.sim, NULL), 0);
	assert_int_equal(mmchal_sim_iommu_attach(d.sim, NULL), MMCHAL_EBUSY);
	mmchal_sim_iommu(d.sim, &io);
	mmchal_sim_mem_scatter(d.sim, 0, 2, 5, sg);
	memset(sg[0].cpu, 0x11, 4096);
	memset(sg[1].cpu, 0x22, 4096);
	/* Device reads memory for a write: read permission is enough. */
	io.ops->map(io.ctx, 0x10000, sg[0].phys, 4096, MMCHAL_IOMMU_READ);
	io.ops->map(io.ctx, 0x11000, sg[1].phys, 4096, MMCHAL_IOMMU_READ);
	assert_int_equal(io.ops->map(io.ctx, 0x12001, sg[1].phys, 4096, MMCHAL_IOMMU_READ),
			 MMCHAL_EINVAL);
	assert_int_equal(io.ops->map(io.ctx, 0x0, sg[1].phys, 4096, MMCHAL_IOMMU_READ),
			 MMCHAL_EINVAL); /* below the aperture */
	assert_int_equal(io.ops->map(io.ctx, 0x13000, sg[1].phys, 4096, 0), MMCHAL_EINVAL);
	drv_setup_data(&d, 512, 16, true);
	dm_start(&d, false, 0x10000);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_MULTI | 25, 8), 0);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 1u << 16);
	store = mmchal_sim_card_store(d.sim, NULL);
	assert_memory_equal(store + 8 * 512, sg[0].cpu, 4096);
	assert_memory_equal(store + 16 * 512, sg[1].cpu, 4096);
	mmchal_sim_iommu_stats(d.sim, &st);
	assert_int_equal(st.faults, 0);
	assert_int_equal(st.maps, 2);
	assert_true(st.translations >= 16);
	drv_close(&d);
}

static int done_status;
static unsigned done_calls;
static void on_done(void *arg, int status)
{
	(void)arg;
	done_status = status;
	done_calls++;
}

static void test_sysdmac_validation_and_error(void **state)
{
	struct mmchal_sim_config cfg;
	struct drv d;
	struct mmchal_dma_chan rx;
	struct mmchal_dma_seg segs[40];
	struct mmchal_dma_xfer x;
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 18, 1, 0};
	struct mmchal_sim_card_config cc;
	uint64_t p;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN2);
	assert_int_equal(drv_open(&d, &cfg), 0);
	mmchal_sim_mem_add(d.sim, RAM_BASE, 1u << 20, NULL);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
	fast_sd(&cc);
	mmchal_sim_card_insert(d.sim, &cc);
	drv_sd_init(&d);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0); /* 0xcb0d: 32-bit data port */
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 2);
	mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx);
	mmchal_sim_mem_alloc(d.sim, 0, 4096, 4096, &p);
	for (unsigned i = 0; i < 40; i++) {
		segs[i].addr = p + 64u * i;
		segs[i].len = 64;
	}
	memset(&x, 0, sizeof(x));
	x.dir = MMCHAL_DIR_FROM_CARD;
	x.segs = segs;
	x.nsegs = 40;
	x.dev_addr = 0xee100000u + (0x30u << 1) + 0x2000u;
	x.dev_width = 4;
	x.done = on_done;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_ERANGE); /* > 32 descriptors */
	x.nsegs = 32;
	x.done = NULL;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_EINVAL);
	x.done = on_done;
	x.dir = MMCHAL_DIR_TO_CARD;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_EINVAL);
	x.dir = MMCHAL_DIR_FROM_CARD;
	x.dev_width = 3;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_EINVAL);
	x.dev_width = 4;
	assert_int_equal(rx.ops->submit(rx.ctx), MMCHAL_EINVAL); /* nothing prepared */
	/* Terminate drops a prepared transfer without a callback. */
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	assert_int_equal(rx.ops->terminate(rx.ctx), 0);
	assert_int_equal(rx.ops->submit(rx.ctx), MMCHAL_EINVAL);
	/* An injected DMA error at block 1 completes with MMCHAL_EFAULT. */
	mmchal_sim_fault_add(d.sim, &f);
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	assert_int_equal(rx.ops->submit(rx.ctx), 0);
	done_calls = 0;
	drv_setup_data(&d, 512, 4, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	while (!done_calls && mmchal_sim_run(d.sim, mmchal_sim_now(d.sim) + 10000000u))
		;
	assert_int_equal(done_calls, 1);
	assert_int_equal(done_status, MMCHAL_EFAULT);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DMA_ERROR), 1);
	drv_close(&d);
}

static void byte_mode(struct mmchal_sim_card_config *c)
{
	mmc_fast(c);
	c->byte_mode = true;
}

static void test_mmc_byte_mode_and_states(void **state)
{
	struct drv d;
	uint8_t blk[512];

	(void)state;
	open_with(&d, MMCHAL_SIM_CARD_MMC, byte_mode);
	drv_cmd(&d, C_NONE | 0, 0);
	assert_int_equal(drv_cmd(&d, C_R3 | 1, 0x40ff8080u), 0);
	assert_int_equal(d.rsp[0], 0x00ff8080u); /* busy, byte mode */
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(drv_cmd(&d, C_R3 | 1, 0x40ff8080u), 0);
	assert_int_equal(d.rsp[0], 0x80ff8080u);
	/* CMD3 with RCA 0 is illegal; the host picks a non-zero one. */
	drv_cmd(&d, C_R2 | 2, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 5u << 16), 0);
	/* The next R1 (CMD3's, received in ident) reports the illegal CMD3(0). */
	assert_int_equal(d.rsp[0], (1u << 22) | (2u << 9) | (1u << 8));
	/* CMD13 to another RCA: silent, and no error recorded for it. */
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 6u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 5u << 16), 0);
	assert_int_equal(d.rsp[0], (3u << 9) | (1u << 8));
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 5u << 16), 0);
	/* Misaligned byte address: ADDRESS_ERROR, no data. */
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 100, 512, 1, blk), S_DATA_TO);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 5u << 16), 0);
	assert_int_equal(d.rsp[0], (4u << 9) | (1u << 8));
	mmchal_sim_card_store(d.sim, NULL)[1024] = 0x99;
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 1024, 512, 1, blk), 0);
	assert_int_equal(blk[0], 0x99);
	/* R2 expected but an R1 arrives: end-bit error. */
	assert_int_equal(drv_cmd(&d, C_R2 | 13, 5u << 16), MMCHAL_EIO);
	assert_true(drv_status(&d) & S_END);
	drv_close(&d);
}

static unsigned work_runs;
static void work_fn(void *arg)
{
	(void)arg;
	work_runs++;
}

static void test_port_seam(void **state)
{
	struct drv d;
	uint64_t t;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	assert_int_equal(mmchal_port_check(&d.port), 0);
	assert_int_equal(mmchal_bus_check(&d.bus), 0);
	t = d.port.ops->now_ns(d.port.ctx);
	d.port.ops->delay_us(d.port.ctx, 7);
	assert_true(d.port.ops->now_ns(d.port.ctx) == t + 7000u);
	work_runs = 0;
	assert_int_equal(d.port.ops->schedule_work(d.port.ctx, work_fn, NULL), 0);
	assert_int_equal(work_runs, 0);
	d.port.ops->delay_us(d.port.ctx, 1);
	assert_int_equal(work_runs, 1);
	assert_int_equal(d.port.ops->schedule_work(d.port.ctx, NULL, NULL), MMCHAL_EINVAL);
	d.port.ops->log(d.port.ctx, MMCHAL_LOG_INFO, "x", 1);
	{
		struct mmchal_sim_counters c;

		mmchal_sim_get_counters(d.sim, &c);
		assert_int_equal(c.logs, 1);
	}
	drv_close(&d);
}

static void test_stuck_busy_at_time(void **state)
{
	struct drv d;
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_STUCK_BUSY, MMCHAL_SIM_AT_TIME, 0xff, 0, 0};

	(void)state;
	open_with(&d, MMCHAL_SIM_CARD_SD, fast_sd);
	f.t_ns = mmchal_sim_now(d.sim) + 1000u;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	assert_true(drv_status(&d) & S_DAT0);
	mmchal_sim_advance(d.sim, 2000u);
	assert_false(drv_status(&d) & S_DAT0);
	assert_false(drv_status(&d) & (1u << 29));
	mmchal_sim_card_remove(d.sim);
	assert_true(drv_status(&d) & S_DAT0);
	f.kind = MMCHAL_SIM_FAULT_KIND_COUNT;
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), MMCHAL_EINVAL);
	drv_close(&d);
}

static void sdio_up(struct drv *d)
{
	drv_cmd(d, C_R3 | 5, 0x00ff8000u);
	mmchal_sim_advance(d->sim, 1000000u);
	assert_int_equal(drv_cmd(d, C_R3 | 5, 0x00ff8000u), 0);
	assert_int_equal(drv_cmd(d, C_R1 | 3, 0), 0);
	assert_int_equal(drv_cmd(d, C_R1B | 7, 1u << 16), 0);
}

static void test_sdio_block_mode(void **state)
{
	struct drv d;
	uint8_t out[3 * 64], in[3 * 64];
	uint8_t *store;

	(void)state;
	open_with(&d, MMCHAL_SIM_CARD_SDIO, NULL);
	sdio_up(&d);
	/* Function 1 block size 64 through FBR1 0x110/0x111. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, (1u << 31) | (0x110u << 9) | 64u), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 52, (1u << 31) | (0x111u << 9) | 0u), 0);
	for (unsigned i = 0; i < sizeof(out); i++)
		out[i] = (uint8_t)(200u - i);
	/* CMD53 write, block mode, 3 blocks at 0x100, incrementing; no CMD12 for SDIO. */
	assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | C_NOA12 | 53,
				       (1u << 31) | (1u << 28) | (1u << 27) | (1u << 26) |
					       (0x100u << 9) | 3u,
				       64, 3, out),
			 0);
	store = mmchal_sim_card_store(d.sim, NULL);
	assert_memory_equal(store + 0x100, out, sizeof(out));
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(drv_pio_read(&d, C_R1 | C_MULTI | C_NOA12 | 53,
				      (1u << 28) | (1u << 27) | (1u << 26) | (0x100u << 9) | 3u, 64,
				      3, in),
			 0);
	assert_memory_equal(in, out, sizeof(in));
	/* Fixed address (op code 0): every byte comes from the same register. */
	assert_int_equal(drv_pio_read(&d, C_R1 | 53, (1u << 28) | (0x100u << 9) | 4u, 4, 1, in), 0);
	assert_int_equal(in[0], out[0]);
	assert_int_equal(in[3], out[0]);
	/* Past the buffer: OUT_OF_RANGE in R5 and no data. */
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 53,
				 (1u << 28) | (1u << 26) | (4095u << 9) | 8u),
			 0);
	assert_int_equal(d.rsp[0] & (1u << 8), 1u << 8);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_ended_read_with_stop),
		cmocka_unit_test(test_open_ended_write_with_stop),
		cmocka_unit_test(test_cmd23_counted_write),
		cmocka_unit_test(test_port_widths),
		cmocka_unit_test(test_sd_write_timing_exact),
		cmocka_unit_test(test_idmac_reset_holds_channel),
		cmocka_unit_test(test_idmac_write_through_iommu),
		cmocka_unit_test(test_sysdmac_validation_and_error),
		cmocka_unit_test(test_mmc_byte_mode_and_states),
		cmocka_unit_test(test_port_seam),
		cmocka_unit_test(test_stuck_busy_at_time),
		cmocka_unit_test(test_sdio_block_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
