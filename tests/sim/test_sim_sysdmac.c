/*
 * Simulator tests of the SYS-DMAC channels (docs/sim.md section 8): the
 * capabilities, every check of prepare() with its edge, a busy channel, the
 * port width check, a memory error, and a block the descriptors cannot hold.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

#define RAM_BASE 0x40000000u
#define TX_PORT  (0xee100000u + (0x30u << 1))
#define RX_PORT  (TX_PORT + 0x2000u)

static unsigned done_calls;
static int done_status;
static void *done_arg;

static void on_done(void *arg, int status)
{
	done_arg = arg;
	done_calls++;
	done_status = status;
}

static void open_gen2(struct drv *d, struct mmchal_sim_config *cfg)
{
	struct mmchal_sim_card_config cc;
	struct mmchal_sim_config def;

	if (!cfg) {
		mmchal_sim_config_defaults(&def, MMCHAL_SIM_SOC_GEN2);
		cfg = &def;
	}
	assert_int_equal(drv_open(d, cfg), 0);
	assert_int_equal(mmchal_sim_mem_add(d->sim, RAM_BASE, 1u << 20, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	cc.write_rate = 0;
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	assert_int_equal(drv_sd_init(d), 0xb368u);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u);
	mmchal_bus_wr16(&d->bus, R_HOSTMODE, 0); /* 0xcb0d: 32-bit data port */
	mmchal_bus_wr16(&d->bus, R_EXTMODE, 2);
	done_calls = 0;
	done_status = 1;
}

static void xfer_init(struct mmchal_dma_xfer *x, struct mmchal_dma_seg *segs, uint32_t n,
		      enum mmchal_dir dir)
{
	memset(x, 0, sizeof(*x));
	x->dir = dir;
	x->segs = segs;
	x->nsegs = n;
	x->dev_addr = dir == MMCHAL_DIR_FROM_CARD ? RX_PORT : TX_PORT;
	x->dev_width = 4;
	x->done = on_done;
}

/* Prepare and submit @p x on @p rx with no completion seen yet, then send the
   read of @p blocks blocks at block @p arg that feeds it (CMD18 for more than
   one block, else CMD17); @p auto12 as drv_setup_data() takes it. */
static void sys_start_read(struct drv *d, struct mmchal_dma_chan *rx, struct mmchal_dma_xfer *x,
			   uint32_t blocks, uint32_t arg, bool auto12)
{
	done_calls = 0;
	assert_int_equal(rx->ops->prepare(rx->ctx, x), 0);
	assert_int_equal(rx->ops->submit(rx->ctx), 0);
	drv_setup_data(d, 512, blocks, auto12);
	assert_int_equal(drv_cmd(d, C_R1 | C_DATA | C_READ | (blocks > 1 ? C_MULTI | 18 : 17), arg),
			 0);
}

/* Run the simulation until a channel completes (or nothing is left to run). */
static void sys_wait_done(struct drv *d)
{
	while (!done_calls && mmchal_sim_run(d->sim, mmchal_sim_now(d->sim) + 100000000u))
		;
}

/* get_caps: every field (docs/sim.md section 8, section 2 defaults). */
static void test_caps_exact(void **state)
{
	struct mmchal_sim_config cfg;
	struct mmchal_dma_dir_caps caps;
	struct mmchal_dma_chan ch;
	struct drv d;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN2);
	cfg.sysdmac_addr_bits = 36;
	cfg.sysdmac_max_segs = 7;
	cfg.sysdmac_max_seg = 0x12345;
	assert_int_equal(drv_open(&d, &cfg), 0);
	for (int dir = 0; dir < 2; dir++) {
		assert_int_equal(mmchal_sim_sysdmac(d.sim, (enum mmchal_dir)dir, &ch), 0);
		memset(&caps, 0x5a, sizeof(caps));
		assert_int_equal(ch.ops->get_caps(ch.ctx, &caps), 0);
		assert_int_equal(caps.addr_bits, 36);
		assert_true(caps.addr_align == 1);
		assert_true(caps.len_granule == 1);
		assert_int_equal(caps.max_segs, 7);
		assert_true(caps.max_seg_size == 0x12345u);
		assert_true(caps.coherent);
		/* No boundary, minimum or transfer limit of its own (docs/sim.md section 8). */
		assert_true(caps.seg_boundary == 0);
		assert_true(caps.min_len == 0);
		assert_true(caps.max_xfer == 0);
		assert_int_equal(ch.ops->get_caps(ch.ctx, NULL), MMCHAL_EINVAL);
	}
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_COUNT, &ch), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_TO_CARD, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_sysdmac(NULL, MMCHAL_DIR_TO_CARD, &ch), MMCHAL_EINVAL);
	drv_close(&d);
}

/*
 * prepare(): each argument check alone, at its edge. Segments: length 1 ..
 * sysdmac_max_seg, inside the sysdmac_addr_bits space (the last byte may be
 * the last address); dev_width 1, 2, 4 or 8; the port address per direction.
 */
static void test_prepare_checks(void **state)
{
	struct mmchal_sim_config cfg;
	struct mmchal_dma_seg seg[2];
	struct mmchal_dma_chan rx;
	struct mmchal_dma_xfer x;
	struct drv d;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN2);
	cfg.sysdmac_max_seg = 0x1000u;
	cfg.sysdmac_max_segs = 2;
	open_gen2(&d, &cfg);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	seg[0].addr = RAM_BASE;
	seg[0].len = 0x1000u;
	seg[1].addr = RAM_BASE + 0x2000u;
	seg[1].len = 1;
	xfer_init(&x, seg, 2, MMCHAL_DIR_FROM_CARD);
	assert_int_equal(rx.ops->prepare(rx.ctx, NULL), MMCHAL_EINVAL);
	x.segs = NULL;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_EINVAL);
	x.segs = seg;
	x.nsegs = 0;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_EINVAL);
	x.nsegs = 3;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_ERANGE);
	x.nsegs = 2;
	x.dev_addr = RX_PORT + 1u;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_EINVAL);
	x.dev_addr = TX_PORT; /* the write port */
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_EINVAL);
	x.dev_addr = RX_PORT;
	for (uint32_t w = 0; w <= 9; w++) {
		x.dev_width = w;
		assert_int_equal(rx.ops->prepare(rx.ctx, &x),
				 w == 1 || w == 2 || w == 4 || w == 8 ? 0 : MMCHAL_EINVAL);
	}
	x.dev_width = 4;
	seg[1].len = 0;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_ERANGE);
	seg[1].len = 0x1001u;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_ERANGE);
	seg[1].len = 0x1000u;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	/* 40-bit space: a segment may end at 2^40 - 1, not one byte later. */
	seg[1].addr = (1ull << 40) - 0x1000u;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	seg[1].addr = (1ull << 40) - 0xfffu;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_ERANGE);
	seg[1].addr = (1ull << 40) - 1u; /* the last byte itself */
	seg[1].len = 1;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	seg[1].addr = 1ull << 40;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_ERANGE);
	/* A running channel refuses a new prepare. */
	seg[1].addr = RAM_BASE + 0x2000u;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	assert_int_equal(rx.ops->submit(rx.ctx), 0);
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_EBUSY);
	assert_int_equal(rx.ops->submit(rx.ctx), MMCHAL_EINVAL);
	assert_int_equal(rx.ops->terminate(rx.ctx), 0);
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	assert_int_equal(done_calls, 0);
	drv_close(&d);

	/* 64 address bits: every address is in reach, up to the top byte. */
	cfg.sysdmac_addr_bits = 64;
	open_gen2(&d, &cfg);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	seg[0].addr = 0xfffffffffffff000ull;
	seg[0].len = 0x1000u;
	xfer_init(&x, seg, 1, MMCHAL_DIR_FROM_CARD);
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	seg[0].addr = 0xfffffffffffff001ull;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), MMCHAL_ERANGE);
	drv_close(&d);
}

/*
 * Moving data: a block split across segments lands exactly; when the
 * descriptors hold less than a block, nothing moves and no completion comes
 * (the block stays in the controller's buffer); an
 * engine width other than the port's fails with an illegal access; a segment
 * outside RAM fails with EFAULT.
 */
static void test_moves_and_failures(void **state)
{
	struct mmchal_dma_seg seg[3];
	struct mmchal_sim_counters c;
	struct mmchal_dma_chan rx;
	struct mmchal_dma_xfer x;
	uint8_t *mem, *store;
	struct drv d;
	uint64_t p;

	(void)state;
	open_gen2(&d, NULL);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 2048; i++)
		store[i] = (uint8_t)(i * 11u + 3u);
	mem = mmchal_sim_mem_alloc(d.sim, 0, 8192, 4096, &p);
	memset(mem, 0xee, 8192);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	/* 1024 bytes as 100 + 412 + 512, in three places. */
	seg[0].addr = p + 4000u;
	seg[0].len = 100;
	seg[1].addr = p + 10u;
	seg[1].len = 412;
	seg[2].addr = p + 6000u;
	seg[2].len = 512;
	xfer_init(&x, seg, 3, MMCHAL_DIR_FROM_CARD);
	sys_start_read(&d, &rx, &x, 2, 0, true);
	sys_wait_done(&d);
	assert_int_equal(done_calls, 1);
	assert_int_equal(done_status, 0);
	assert_memory_equal(mem + 4000, store, 100);
	assert_memory_equal(mem + 10, store + 100, 412);
	assert_memory_equal(mem + 6000, store + 512, 512);
	assert_int_equal(mem[9], 0xee);
	assert_int_equal(mem[422], 0xee);
	assert_int_equal(mem[4100], 0xee);
	assert_int_equal(mem[6512], 0xee);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.sysdmac_bytes == 1024);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);

	/* Descriptors for 256 bytes only: the block waits for the CPU. */
	done_calls = 0;
	seg[0].addr = p;
	seg[0].len = 256;
	xfer_init(&x, seg, 1, MMCHAL_DIR_FROM_CARD);
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	assert_int_equal(rx.ops->submit(rx.ctx), 0);
	mmchal_sim_reset_counters(d.sim);
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_int_equal(done_calls, 0);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.sysdmac_bytes == 0);
	assert_false(drv_status(&d) & S_ACCESS_END);
	assert_int_equal(rx.ops->terminate(rx.ctx), 0);
	drv_close(&d);

	/* Engine width 2 against a 32-bit port: illegal access, EFAULT. */
	open_gen2(&d, NULL);
	(void)mmchal_sim_mem_alloc(d.sim, 0, 4096, 4096, &p);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	seg[0].addr = p;
	seg[0].len = 512;
	xfer_init(&x, seg, 1, MMCHAL_DIR_FROM_CARD);
	x.dev_width = 2;
	sys_start_read(&d, &rx, &x, 1, 0, false);
	sys_wait_done(&d);
	assert_int_equal(done_calls, 1);
	assert_int_equal(done_status, MMCHAL_EFAULT);
	assert_true(drv_status(&d) & S_ILL);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.bad_accesses == 1);
	drv_close(&d);

	/* A segment where there is no RAM: EFAULT. */
	open_gen2(&d, NULL);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	seg[0].addr = 0x80000000u;
	seg[0].len = 512;
	xfer_init(&x, seg, 1, MMCHAL_DIR_FROM_CARD);
	sys_start_read(&d, &rx, &x, 1, 0, false);
	sys_wait_done(&d);
	assert_int_equal(done_calls, 1);
	assert_int_equal(done_status, MMCHAL_EFAULT);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_false(drv_status(&d) & S_ACCESS_END); /* the block was not taken */
	drv_close(&d);
}

/* Read @blocks blocks from block 0 through @n segments; returns the done status. */
static int sys_read(struct drv *d, struct mmchal_dma_chan *rx, struct mmchal_dma_seg *seg,
		    uint32_t n, uint32_t blocks)
{
	struct mmchal_dma_xfer x;

	xfer_init(&x, seg, n, MMCHAL_DIR_FROM_CARD);
	sys_start_read(d, rx, &x, blocks, 0, true);
	sys_wait_done(d);
	assert_true(drv_wait(d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	return done_calls == 1 ? done_status : 1;
}

/*
 * The same channel again: a second transfer starts at its own first segment;
 * a segment longer than what is left of a block takes just that much; when
 * the descriptors hold 1.5 blocks the second block stays for the CPU. Through
 * an IOMMU, an injected fault (docs/sim.md section 9) fails the transfer once.
 */
static void test_reuse_long_segments_iommu(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_IOMMU, MMCHAL_SIM_AT_BLOCK, 17, 0, 0};
	struct mmchal_sim_iommu_stats ist;
	struct mmchal_sim_counters c;
	struct mmchal_dma_seg seg[2];
	struct mmchal_dma_chan rx;
	struct mmchal_dma_xfer x;
	struct mmchal_iommu io;
	uint8_t *mem, *mem2, *store;
	struct drv d;
	uint64_t p, p2;

	(void)state;
	open_gen2(&d, NULL);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 2048; i++)
		store[i] = (uint8_t)(i * 5u + 9u);
	mem = mmchal_sim_mem_alloc(d.sim, 0, 8192, 4096, &p);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	/* 100 + 924 bytes for two blocks: segment 1 spans the block boundary. */
	memset(mem, 0xee, 8192);
	seg[0].addr = p + 3000u;
	seg[0].len = 100;
	seg[1].addr = p + 4096u;
	seg[1].len = 924;
	assert_int_equal(sys_read(&d, &rx, seg, 2, 2), 0);
	assert_memory_equal(mem + 3000, store, 100);
	assert_memory_equal(mem + 4096, store + 100, 924);
	assert_int_equal(mem[4096 + 924], 0xee);
	/* Again on the same channel, one segment. */
	memset(mem, 0xee, 8192);
	seg[0].addr = p;
	seg[0].len = 512;
	assert_int_equal(sys_read(&d, &rx, seg, 1, 1), 0);
	assert_memory_equal(mem, store, 512);
	assert_int_equal(mem[3000], 0xee);
	/* 768 bytes of descriptors for two blocks: block 0 moves, block 1 waits. */
	done_calls = 0;
	seg[0].len = 768;
	xfer_init(&x, seg, 1, MMCHAL_DIR_FROM_CARD);
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	assert_int_equal(rx.ops->submit(rx.ctx), 0);
	mmchal_sim_reset_counters(d.sim);
	drv_setup_data(&d, 512, 2, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 2), 0);
	mmchal_sim_advance(d.sim, 100000000u);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.sysdmac_bytes == 512);
	assert_int_equal(done_calls, 0);
	assert_false(drv_status(&d) & S_ACCESS_END);
	assert_int_equal(rx.ops->terminate(rx.ctx), 0);
	/* Terminated 512 bytes into its segment: the next transfer starts at its own start. */
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0); /* drop the waiting block */
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	mmchal_bus_wr32(&d.bus, R_MASK1, 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x40eeu);
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 2);
	assert_int_equal(drv_cmd(&d, C_R1B | 12, 0), 0);
	memset(mem, 0xee, 8192);
	seg[0].addr = p + 2048u;
	seg[0].len = 512;
	assert_int_equal(sys_read(&d, &rx, seg, 1, 1), 0);
	assert_memory_equal(mem + 2048, store, 512);
	assert_int_equal(mem[2048 + 512], 0xee);
	assert_int_equal(mem[4096], 0xee);
	drv_close(&d);

	/* Through the IOMMU. */
	open_gen2(&d, NULL);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[i] = (uint8_t)(i ^ 0x55u);
	mem = mmchal_sim_mem_alloc(d.sim, 0, 4096, 4096, &p);
	memset(mem, 0xee, 4096);
	assert_int_equal(mmchal_sim_iommu_attach(d.sim, NULL), 0);
	assert_int_equal(mmchal_sim_iommu(d.sim, &io), 0);
	assert_int_equal(io.ops->map(io.ctx, 0x10000u, p, 4096, MMCHAL_IOMMU_WRITE), 0);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	seg[0].addr = 0x10000u;
	seg[0].len = 512;
	assert_int_equal(sys_read(&d, &rx, seg, 1, 1), 0);
	assert_memory_equal(mem, store, 512);
	/* A block across an IOVA page boundary: each part through its own page,
	   0x20000 -> p + 0x1000 and 0x21000 -> p (the other way round in memory). */

	mem2 = mmchal_sim_mem_alloc(d.sim, 0, 8192, 4096, &p2);
	memset(mem2, 0xee, 8192);
	assert_int_equal(io.ops->map(io.ctx, 0x20000u, p2 + 0x1000u, 4096, MMCHAL_IOMMU_WRITE), 0);
	assert_int_equal(io.ops->map(io.ctx, 0x21000u, p2, 4096, MMCHAL_IOMMU_WRITE), 0);
	seg[0].addr = 0x20f00u;
	seg[0].len = 512;
	assert_int_equal(sys_read(&d, &rx, seg, 1, 1), 0);
	assert_memory_equal(mem2 + 0x1f00u, store, 256);
	assert_memory_equal(mem2, store + 256, 256);
	assert_int_equal(mem2[256], 0xee);
	assert_int_equal(mem2[0x1eff], 0xee);
	/* Three pages in one map: the third IOVA page reaches the third page. */
	mem2 = mmchal_sim_mem_alloc(d.sim, 0, 3 * 4096, 4096, &p2);
	memset(mem2, 0xee, 3 * 4096);
	assert_int_equal(io.ops->map(io.ctx, 0x30000u, p2, 3 * 4096, MMCHAL_IOMMU_WRITE), 0);
	seg[0].addr = 0x32100u;
	seg[0].len = 512;
	assert_int_equal(sys_read(&d, &rx, seg, 1, 1), 0);
	assert_memory_equal(mem2 + 0x2100u, store, 512);
	assert_int_equal(mem2[0x20ff], 0xee);
	assert_int_equal(mem2[0x2300], 0xee);
	seg[0].addr = 0x10000u;
	memset(mem, 0xee, 4096);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	xfer_init(&x, seg, 1, MMCHAL_DIR_FROM_CARD);
	sys_start_read(&d, &rx, &x, 1, 0, false);
	sys_wait_done(&d);
	assert_int_equal(done_status, MMCHAL_EFAULT);
	assert_int_equal(mem[0], 0xee);
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &ist), 0);
	assert_int_equal(ist.last_fault, MMCHAL_SIM_IOMMU_FAULT_INJECTED);
	assert_true(ist.faults == 1);
	drv_close(&d);
}

/*
 * A segment that ends inside a block's second half ([768, 256] for two
 * blocks): block 1 takes only its last 256 bytes, then the next segment; the
 * completion comes with the caller's argument. A write channel submitted after
 * the command's response starts at once. A DMA error (docs/sim.md section 9)
 * and an engine width other than the port's take no block: no bytes counted,
 * no access end.
 */
static void test_segment_ends_and_late_submit(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 17, 0, 0};
	struct mmchal_sim_counters c;
	struct mmchal_dma_seg seg[2];
	struct mmchal_dma_chan rx, tx;
	struct mmchal_dma_xfer x;
	uint8_t *mem, *store;
	struct drv d;
	uint64_t p;
	int marker;

	(void)state;
	open_gen2(&d, NULL);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 2048; i++)
		store[i] = (uint8_t)(i * 13u + 7u);
	mem = mmchal_sim_mem_alloc(d.sim, 0, 8192, 4096, &p);
	memset(mem, 0xee, 8192);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	seg[0].addr = p;
	seg[0].len = 768;
	seg[1].addr = p + 4096u;
	seg[1].len = 256;
	done_arg = NULL;
	xfer_init(&x, seg, 2, MMCHAL_DIR_FROM_CARD);
	x.done_arg = &marker;
	sys_start_read(&d, &rx, &x, 2, 0, true);
	sys_wait_done(&d);
	assert_int_equal(done_calls, 1);
	assert_int_equal(done_status, 0);
	assert_ptr_equal(done_arg, &marker);
	assert_memory_equal(mem, store, 768);
	assert_int_equal(mem[768], 0xee);
	assert_memory_equal(mem + 4096, store + 768, 256);
	assert_int_equal(mem[4096 + 256], 0xee);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	/* [100, 600, 324]: block 0 takes 412 bytes of the 600, block 1 the other 188 */
	{
		struct mmchal_dma_seg three[3] = {
			{p + 6000u, 100}, {p + 2048u, 600}, {p + 5000u, 324}};

		memset(mem, 0xee, 8192);
		xfer_init(&x, three, 3, MMCHAL_DIR_FROM_CARD);
		sys_start_read(&d, &rx, &x, 2, 0, true);
		sys_wait_done(&d);
		assert_int_equal(done_status, 0);
		assert_memory_equal(mem + 6000, store, 100);
		assert_memory_equal(mem + 2048, store + 100, 600);
		assert_memory_equal(mem + 5000, store + 700, 324);
		assert_int_equal(mem[2048 + 600], 0xee);
		assert_int_equal(mem[5000 + 324], 0xee);
		assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	}
	drv_close(&d);

	/* CMD24's response first, then the write channel: the block goes at once. */
	open_gen2(&d, NULL);
	store = mmchal_sim_card_store(d.sim, NULL);
	mem = mmchal_sim_mem_alloc(d.sim, 0, 4096, 4096, &p);
	for (unsigned i = 0; i < 512; i++)
		mem[i] = (uint8_t)(i * 3u + 1u);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_TO_CARD, &tx), 0);
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | 24, 0), 0);
	mmchal_sim_advance(d.sim, 1000000u);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.sysdmac_bytes == 0);
	seg[0].addr = p;
	seg[0].len = 512;
	xfer_init(&x, seg, 1, MMCHAL_DIR_TO_CARD);
	assert_int_equal(tx.ops->prepare(tx.ctx, &x), 0);
	assert_int_equal(tx.ops->submit(tx.ctx), 0);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.sysdmac_bytes == 512); /* taken by submit, before any time passes */
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	assert_memory_equal(store, mem, 512);
	drv_close(&d);

	/* An injected DMA error, then an engine of the wrong width: no block taken. */
	for (int k = 0; k < 2; k++) {
		open_gen2(&d, NULL);
		(void)mmchal_sim_mem_alloc(d.sim, 0, 4096, 4096, &p);
		if (k == 0)
			assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
		assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
		seg[0].addr = p;
		seg[0].len = 512;
		xfer_init(&x, seg, 1, MMCHAL_DIR_FROM_CARD);
		x.dev_width = k == 0 ? 4 : 8;
		sys_start_read(&d, &rx, &x, 1, 0, false);
		sys_wait_done(&d);
		assert_int_equal(done_calls, 1);
		assert_int_equal(done_status, MMCHAL_EFAULT);
		mmchal_sim_advance(d.sim, 10000000u);
		mmchal_sim_get_counters(d.sim, &c);
		assert_true(c.sysdmac_bytes == 0);
		assert_false(drv_status(&d) & S_ACCESS_END);
		drv_close(&d);
	}
}

static void *order_log[4];
static unsigned order_len;

static void on_done_log(void *arg, int status)
{
	assert_int_equal(status, 0);
	if (order_len < 4)
		order_log[order_len] = arg;
	order_len++;
}

/*
 * Completions while the port lock is held wait (the port's lock masks the
 * interrupt and its callbacks, docs/sim.md section 10): a read's and then a
 * write's completion are both kept, and both delivered, in the order they
 * came, once the lock is dropped. No completion is delivered twice.
 */
static void test_completions_wait_for_the_lock(void **state)
{
	struct mmchal_dma_seg rseg = {0, 512}, wseg = {0, 512};
	struct mmchal_dma_chan rx, tx;
	struct mmchal_dma_xfer x;
	mmchal_irqflags_t fl;
	int rtag, wtag;
	uint8_t *mem;
	struct drv d;
	uint64_t p;

	(void)state;
	open_gen2(&d, NULL);
	mem = mmchal_sim_mem_alloc(d.sim, 0, 4096, 4096, &p);
	memset(mem + 1024, 0x6b, 512);
	rseg.addr = p;
	wseg.addr = p + 1024u;
	order_len = 0;
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_TO_CARD, &tx), 0);
	fl = d.port.ops->lock_irqsave(d.port.ctx);

	xfer_init(&x, &rseg, 1, MMCHAL_DIR_FROM_CARD);
	x.done = on_done_log;
	x.done_arg = &rtag;
	sys_start_read(&d, &rx, &x, 1, 0, false);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	drv_ack(&d, S_ACCESS_END);

	xfer_init(&x, &wseg, 1, MMCHAL_DIR_TO_CARD);
	x.done = on_done_log;
	x.done_arg = &wtag;
	assert_int_equal(tx.ops->prepare(tx.ctx, &x), 0);
	assert_int_equal(tx.ops->submit(tx.ctx), 0);
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | 24, 1), 0);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(order_len, 0);

	d.port.ops->unlock_irqrestore(d.port.ctx, fl);
	assert_int_equal(order_len, 2);
	assert_ptr_equal(order_log[0], &rtag);
	assert_ptr_equal(order_log[1], &wtag);
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(order_len, 2);
	assert_memory_equal(mmchal_sim_card_store(d.sim, NULL) + 512, mem + 1024, 512);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps_exact),
		cmocka_unit_test(test_prepare_checks),
		cmocka_unit_test(test_moves_and_failures),
		cmocka_unit_test(test_reuse_long_segments_iommu),
		cmocka_unit_test(test_segment_ends_and_late_submit),
		cmocka_unit_test(test_completions_wait_for_the_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
