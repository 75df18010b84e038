/*
 * The request path's counters and the completion details the other request
 * tests leave open (src/core/request.c): aborts, each counted once and apart
 * from timeouts, over the scripted backend and the recording port.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/host_core.h>

#include "core/host_fixture.h"
#include "core/host_priv.h"
#include "core/request_fixture.h"

/* mmchal_host_abort() of a running request counts one abort, no timeout,
 * and the error ECANCELED by kind; an abort with nothing running counts none. */
static void test_abort_counted(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(mmchal_host_abort(&g.host), 0);
	assert_int_equal(cmd.error, MMCHAL_ECANCELED);
	assert_int_equal(ndone, 1);
	assert_int_equal(mmchal_host_abort(&g.host), MMCHAL_ENOENT);
	stats(&st);
	assert_int_equal(st.aborts, 1);
	assert_int_equal(st.timeouts, 0);
	assert_int_equal(st.errors[-MMCHAL_ECANCELED], 1);
	assert_int_equal(st.completed, 1);
	/* a second one, in the data phase */
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(mmchal_host_abort(&g.host), 0);
	assert_int_equal(data.error, MMCHAL_ECANCELED);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(ndone, 2);
	stats(&st);
	assert_int_equal(st.aborts, 2);
	assert_int_equal(st.timeouts, 0);
	assert_int_equal(st.errors[-MMCHAL_ECANCELED], 2);
}

/* ---------------------------------------------------------- fast plan edges */

/* Set one DMA capability of both directions, then the host's constants. */
static void dirs_set(uint32_t align, uint32_t seg_max, uint64_t boundary, uint32_t max_segs)
{
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		g.host.caps.dma.dir[d].addr_align = align;
		g.host.caps.dma.dir[d].max_seg_size = seg_max;
		g.host.caps.dma.dir[d].seg_boundary = boundary;
		g.host.caps.dma.dir[d].max_segs = max_segs;
	}
	mmchal_host_plan_env_(&g.host);
}

/* The host plans as the planner does, which does not plan @p not_plan. */
static void expect_planner_not(enum mmchal_plan not_plan)
{
	struct mmchal_plan_result p;

	assert_int_equal(mmchal_dma_plan(&g.host.penv, &data, &p), 0);
	assert_int_not_equal(p.plan, not_plan);
	expect_plan(p.plan, p.reason, p.index);
}

/* An engine whose only transfer length is 4 KiB (min_len == max_xfer): the
 * host's constants still plan it, DIRECT without the planner. */
static void test_fast_plan_single_transfer_length(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	set_both_dirs(min_len, 4096);
	set_both_dirs(max_xfer, 4096);
	assert_int_equal(g.host.pfast[MMCHAL_DIR_FROM_CARD].mode, 2);
	make_read(8, 2);
	expect_fast_plan(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0);
}

/* Without a pool nothing is bounced, also for an entry the engine refuses
 * that would fit between two of its boundaries: the planner's PIO. */
static void test_no_pool_no_fast_bounce(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	dirs_set(1, 1u << 20, 0xfff, 4);
	assert_int_equal(g.host.pfast[MMCHAL_DIR_FROM_CARD].bounce_max, 0);
	make_read(8, 1);
	sg[0].cpu = buf + 512;
	sg[0].phys += 512; /* 4 KiB across a 4 KiB boundary */
	expect_plan(MMCHAL_PLAN_PIO, MMCHAL_PR_BOUNDARY, 0);
	assert_int_equal(g.host.plan.nobounce, MMCHAL_NB_NO_POOL);
	/* one entry one byte longer than the engine's segments: PIO as well */
	dirs_set(1, 4095, 0, 4);
	make_read(8, 1);
	expect_plan(MMCHAL_PLAN_PIO, MMCHAL_PR_SEG_SIZE, 0);
	assert_int_equal(g.host.plan.nobounce, MMCHAL_NB_NO_POOL);
}

/* With a pool, a segment size of 4095 and a boundary at 4 KiB the bounce
 * region can hold 4095 bytes, not the 4 KiB of a read across the boundary. */
static void test_bounce_max_is_the_segment_size(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	dirs_set(1, 4095, 4095, 4);
	assert_int_equal(g.host.pfast[MMCHAL_DIR_FROM_CARD].bounce_max, 4095);
	make_read(8, 1);
	sg[0].cpu = buf + 2048;
	sg[0].phys += 2048;
	expect_planner_not(MMCHAL_PLAN_BOUNCED);
	assert_int_equal(g.host.plan.plan, MMCHAL_PLAN_PIO);
}

/* An engine of one segment: a one-entry list it refuses is bounced by the
 * host's own constants (the list has exactly as many entries as it takes). */
static void test_fast_bounce_as_many_entries_as_segments(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 1, true);
	g.tb.identity = true;
	host_up();
	dirs_set(4096, 65536, 0, 1);
	make_read(8, 1);
	sg[0].cpu = buf + 512;
	sg[0].phys += 512;
	expect_fast_plan(MMCHAL_PLAN_BOUNCED, MMCHAL_PR_ALIGN, 0);
}

/* An entry in the top 4 GiB of a 64-bit engine's reach (which does not wrap)
 * passes only the full request checks, whose summary then says "maybe":
 * the planner decides, DIRECT. */
static void test_top_entry_planned_by_the_planner(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	make_read(8, 1);
	sg[0].phys = 0xffffffff00001000u;
	expect_plan_path(MMCHAL_PLAN_DIRECT, false, true);
	assert_int_equal(g.tb.log[0].seg0.addr, 0xffffffff00001000u);
	assert_int_equal(g.tb.log[0].seg0.len, 4096);
}

/* ------------------------------------------------------ IOMMU constants */

/* The fake IOMMU with an aperture and a map size of the test's own. */
static struct {
	uint64_t start, end, max_map;
} ap;

static int ap_caps(void *ctx, struct mmchal_iommu_caps *c)
{
	int ret = fiommu_ops.get_caps(ctx, c);

	c->aperture_start = ap.start;
	c->aperture_end = ap.end;
	c->max_map_size = ap.max_map;
	return ret;
}

static struct mmchal_iommu_ops ap_ops;
static _Alignas(16) unsigned char ap_nodes[MMCHAL_IOVA_POOL_BYTES(64)];

/* setup_port() with the domain over ap_caps(), @p addr_bits wide; an engine
 * of @p max_segs segments, coherent; merging for an eMMC card when @p merge. */
static void ap_host(uint32_t addr_bits, uint32_t max_segs, bool merge)
{
	struct mmchal_iommu_domain_cfg dc = {.iommu = &g.iommu,
					     .node_mem = ap_nodes,
					     .node_mem_size = sizeof(ap_nodes),
					     .addr_bits = addr_bits};

	setup_port(&rec_ops_coherent, USE_IOMMU);
	ap_ops = fiommu_ops;
	ap_ops.get_caps = ap_caps;
	g.iommu.ops = &ap_ops;
	assert_int_equal(mmchal_iommu_domain_init(&g.dom, &dc), 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, max_segs, true);
	g.tb.host.merge_capable = merge;
	host_up();
	if (merge)
		assert_int_equal(mmchal_host_core_ops.init_card(&g.host, MMCHAL_CARD_MMC), 0);
}

/* An aperture end of 0 is the whole device range: merged mappings are
 * proved from the host's constants, without the planner. */
static void test_merge_fast_with_open_aperture(void **state)
{
	(void)state;
	ap.start = 0;
	ap.end = 0;
	ap.max_map = 0;
	ap_host(32, 1, true);
	assert_true(g.host.pfast[MMCHAL_DIR_FROM_CARD].merge_fast);
	assert_int_equal(g.host.pfast[MMCHAL_DIR_FROM_CARD].span_max, ~(uint64_t)0xfff);
	make_read(16, 2);
	expect_plan_path(MMCHAL_PLAN_IOMMU_MERGED, true, false);
}

/* A map size one byte below the aperture: whole pages below it, one page
 * less than the aperture holds. A merged read that needs all four pages is
 * the planner's, and not merged. */
static void test_merge_span_of_map_size_below_aperture(void **state)
{
	(void)state;
	ap.start = 0x1000;
	ap.end = 0x4fff;
	ap.max_map = 0x3fff;
	ap_host(32, 1, true);
	assert_int_equal(g.host.pfast[MMCHAL_DIR_FROM_CARD].span_max, 0x3000);
	make_rw(MMCHAL_DIR_FROM_CARD, 28, 4);
	req.stop = NULL;
	sg[0] = (struct mmchal_sg){
		.cpu = buf + 0x800, .phys = (uintptr_t)buf + 0x800, .len = 0x800};
	for (int i = 1; i < 4; i++)
		sg[i] = (struct mmchal_sg){.cpu = buf + 0x1000 * i,
					   .phys = (uintptr_t)buf + 0x1000u * i,
					   .len = 0x1000};
	expect_planner_not(MMCHAL_PLAN_IOMMU_MERGED);
	assert_int_equal(g.host.plan.plan, MMCHAL_PLAN_PIO);
}

/* A domain above 4 GiB and an engine of 32 address bits: the mapping is out
 * of its reach, refused after mapping by the exact check. */
static void test_mapping_above_engine_reach(void **state)
{
	(void)state;
	ap.start = 0x100000000u;
	ap.end = 0x1ffffffffu;
	ap.max_map = 0;
	ap_host(64, 4, false);
	set_both_dirs(addr_bits, 32);
	assert_false(g.host.pfast[MMCHAL_DIR_FROM_CARD].dev_any);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_PIO, MMCHAL_PR_MAPPED_BAD, true);
}

/* Unmerged segments as many as the engine takes, a length granule, 32
 * address bits, the last byte the last the engine reaches: the host's one
 * pass proves them, without the exact check. */
static void test_mapped_fold_at_the_edges(void **state)
{
	const struct tb_start *l;

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 2, true);
	host_up();
	set_both_dirs(addr_align, 512);
	set_both_dirs(len_granule, 512);
	set_both_dirs(addr_bits, 32);
	assert_false(g.host.pfast[MMCHAL_DIR_FROM_CARD].dev_any);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, false);
	l = &g.tb.log[g.tb.nstart - 1];
	assert_int_equal(l->nsegs, 2);
	assert_int_equal(g.tb.cur.segs[0].addr + 4095u, 0xffffffffu);
}

/* No alignment, granule or boundary (dev_any) and a top-4-GiB domain: as
 * many unmerged segments as the engine takes need no further check. */
static void test_dev_any_as_many_segments_as_the_engine(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU | USE_IOMMU_TOP);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 2, true);
	host_up();
	assert_true(g.host.pfast[MMCHAL_DIR_FROM_CARD].dev_any);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, false);
	assert_true(g.tb.log[g.tb.nstart - 1].seg0.addr >= 0xffffffff00000000u);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].nsegs, 2);
}

/* A merged segment in the top 4 GiB with an alignment to meet: the host's
 * one-segment proof takes it (it does not wrap), without the exact check. */
static void test_merged_segment_in_the_top_proved(void **state)
{
	(void)state;
	merging_host(USE_IOMMU | USE_IOMMU_TOP, 4);
	set_both_dirs(addr_align, 512);
	assert_false(g.host.pfast[MMCHAL_DIR_FROM_CARD].dev_any);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED, false);
	assert_true(g.tb.log[g.tb.nstart - 1].seg0.addr >= 0xffffffff00000000u);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].nsegs, 1);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].seg0.len, 8192);
}

/* Segments of 4095 and 1 bytes on an engine of 4095-byte segments with a
 * boundary (no dev_any): the lengths' OR (4094) is below the segment size,
 * which one pass proves. */
static void test_mapped_fold_odd_segment_size(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	dirs_set(1, 4095, 0xffff, 4);
	assert_false(g.host.pfast[MMCHAL_DIR_FROM_CARD].dev_any);
	make_read(8, 2);
	sg[0].len = 4095;
	sg[1].len = 1;
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, false);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].nsegs, 2);
}

/* A merged segment longer than the engine's segments is refused after
 * mapping, whatever the rest of the caller's segment table holds (here a
 * short second entry). */
static void test_merged_too_long_with_table_garbage(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	merging_host(USE_IOMMU, 4);
	g.table[1] = (struct mmchal_dma_seg){.addr = 0x2000, .len = 2048};
	set_both_dirs(max_seg_size, 4096);
	make_pages(16, 2, 4096);
	req.stop = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_PIO);
	assert_int_equal(g.tb.log[0].nsegs, 0);
	stats(&st);
	assert_int_equal(st.map_fallbacks, 1);
	assert_int_equal(st.reason[MMCHAL_PLAN_PIO][MMCHAL_PR_MAPPED_BAD], 1);
	assert_int_equal(g.fi.pages, 0);
}

/* A mapping the engine cannot take, of a list without the CPU addresses a
 * fallback needs: the request fails with EINVAL, nothing starts, nothing
 * stays mapped. */
static void test_mapped_bad_without_cpu_fails(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	set_both_dirs(addr_align, 512);
	set_both_dirs(seg_boundary, 0x7ff);
	make_read(16, 2);
	sg[1].cpu = NULL;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EINVAL);
	assert_int_equal(g.tb.nstart, 0);
	assert_int_equal(g.fi.pages, 0);
	assert_int_equal(ndone, 0);
	stats(&st);
	assert_int_equal(st.requests, 0);
	/* the host is free again */
	sg[1].cpu = buf + 4096;
	set_both_dirs(seg_boundary, 0);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(ndone, 1);
}

/* ------------------------------------------------------ bounce alignment */

/* Bounce a read of @p blocks from buf + 256 (off the engine's 512-byte
 * alignment); the DMA address of the bounce region. */
static mmchal_dma_addr_t bounce_read_at(uint32_t blocks)
{
	make_read(blocks, 1);
	sg[0].cpu = buf + 256;
	sg[0].phys += 256;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(g.host.plan.reason, MMCHAL_PR_ALIGN);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].nsegs, 1);
	return g.tb.log[g.tb.nstart - 1].seg0.addr;
}

/* The pool hands out slots from a cursor on. Without a boundary a bounce
 * region is aligned to the engine's alignment only: after one 2 KiB slot
 * the next 4 KiB start in the slot after it. With a 64 KiB boundary it is
 * aligned to its own size rounded up to a power of two, 4 KiB for 4 KiB,
 * not more: the first 4 KiB-aligned slot from the cursor on. */
static void test_bounce_region_alignment(void **state)
{
	uintptr_t p = (uintptr_t)pool;
	uint32_t skip;

	(void)state;
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	dirs_set(512, 65536, 0, 4);
	assert_int_equal(bounce_read_at(4), p);
	assert_int_equal(bounce_read_at(8), p + 2048u);
	/* the cursor is now 3 slots on; put it where the next 4 KiB-aligned
	 * slot is an odd multiple of 4 KiB (so no 8 KiB alignment holds it) */
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	dirs_set(512, 65536, 0, 4);
	skip = (p & 4096u) == 0 ? 4 : 12; /* 1 or 3 slots */
	assert_int_equal(bounce_read_at(skip), p);
	dirs_set(512, 65536, 0xffff, 4);
	assert_int_equal(bounce_read_at(8), (p & 4096u) == 0 ? p + 4096u : p + 8192u);
	assert_int_equal(bounce_read_at(8) & 4095u, 0);
}

/* ------------------------------------------------------------ PIO retry */

/* The PIO retry of an open-ended read on a controller that sends CMD12 by
 * itself keeps that: 18 (DMA, fault), 12 (after the failed data phase), 18
 * (PIO, auto CMD12), and no fourth command. */
static void test_pio_retry_keeps_auto_stop(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, true);
	g.tb.host.bus |= MMCHAL_BUS_AUTO_CMD12 | MMCHAL_BUS_HW_BUSY;
	g.tb.identity = true;
	g.cfg.pio_retry = true;
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	g.tb.fail_op = 18;
	g.tb.fail_ev = MMCHAL_EV_DATA_ERROR;
	g.tb.fail_err = MMCHAL_EFAULT;
	g.tb.fail_once = true;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(ndone, 1);
	assert_int_equal(g.tb.nstart, 3);
	assert_int_equal(g.tb.log[0].opcode, 18);
	assert_int_equal(g.tb.log[1].opcode, 12);
	assert_int_equal(g.tb.log[2].opcode, 18);
	assert_int_equal(g.tb.log[2].plan, MMCHAL_PLAN_PIO);
	assert_true(g.tb.cur.auto_stop);
	assert_ptr_equal(g.tb.cur.stop, &stop);
	assert_int_equal(data.bytes_xfered, 4096);
	check_read_bytes(4096);
}

/* Run the host until the request is done, by interrupts. */
static void irq_until_done(unsigned want)
{
	for (int i = 0; i < 16 && ndone != want; i++) {
		(void)mmchal_host_irq(&g.host);
		(void)mmchal_host_poll(&g.host);
	}
	assert_int_equal(ndone, want);
}

/* A DMA fault whose CMD12 fails as well: the PIO retry starts the request
 * afresh, and its result is the retry's, without the old CMD12 error. */
static void test_pio_retry_clears_the_stop_error(void **state)
{
	(void)state;
	retry_host();
	g.tb.fail_op = 64;
	g.tb.auto_complete = false;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	data.error = MMCHAL_EFAULT;
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR;
	assert_int_equal(mmchal_host_irq(&g.host), 0); /* CMD12 on the line */
	assert_int_equal(g.tb.log[1].opcode, 12);
	stop.error = MMCHAL_EIO;
	g.tb.pending = MMCHAL_EV_CMD_ERROR;
	g.tb.auto_complete = true;
	assert_int_equal(mmchal_host_irq(&g.host), 0); /* restarted by PIO */
	assert_int_equal(g.tb.log[2].opcode, 18);
	assert_int_equal(g.tb.log[2].plan, MMCHAL_PLAN_PIO);
	assert_int_equal(stop.error, 0);
	irq_until_done(1);
	assert_int_equal(g.tb.nstart, 4);
	assert_int_equal(g.tb.log[3].opcode, 12);
	assert_int_equal(stop.error, 0);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(data.error, 0);
	assert_int_equal(data.bytes_xfered, 4096);
	check_read_bytes(4096);
}

/* The PIO retry starts every command afresh (issue(): each command's error
 * is cleared when the request is restarted): codes a backend left in CMD23
 * and the command of the DMA attempt, which it answered with CMD_DONE, are
 * not the retry's result. */
static void test_pio_retry_starts_afresh(void **state)
{
	(void)state;
	retry_host();
	g.tb.fail_op = 64;
	g.tb.auto_complete = false;
	req.sbc = &sbc;
	req.stop = NULL;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	sbc.error = MMCHAL_EILSEQ;
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0); /* the command on the line */
	assert_int_equal(g.tb.log[1].opcode, 18);
	cmd.error = MMCHAL_EILSEQ;
	data.error = MMCHAL_EFAULT;
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR;
	g.tb.auto_complete = true;
	assert_int_equal(mmchal_host_irq(&g.host), 0); /* restarted by PIO */
	assert_int_equal(g.tb.log[2].opcode, 23);
	irq_until_done(1);
	assert_int_equal(g.tb.nstart, 4);
	assert_int_equal(g.tb.log[3].opcode, 18);
	assert_int_equal(g.tb.log[3].plan, MMCHAL_PLAN_PIO);
	assert_int_equal(sbc.error, 0);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(data.error, 0);
	assert_int_equal(data.bytes_xfered, 4096);
}

/* The backend refuses the start of the PIO retry: the request ends with
 * that error, and the lock is taken and dropped in pairs, also under
 * IRQ_LOCKED, where the completion keeps it. */
static void test_pio_retry_refused_locks_in_pairs(void **state)
{
	static const enum mmchal_completion_policy pols[] = {MMCHAL_POLICY_IRQ_SPLIT,
							     MMCHAL_POLICY_IRQ_LOCKED};
	struct mmchal_host_stats st;

	(void)state;
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		retry_host_policy(pols[i]);
		assert_int_equal(g.host.limits.policy, pols[i]);
		g.tb.start_err_op = 18;
		g.tb.start_err = MMCHAL_EIO;
		g.tb.start_err_after = 1;
		assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
		assert_int_equal(cmd.error, MMCHAL_EIO);
		assert_int_equal(ndone, 1);
		assert_int_equal(g.rp.depth, 0);
		assert_false(g.rp.bad_nesting);
		assert_false(g.tb.locked_seen_unlocked);
		stats(&st);
		assert_int_equal(st.pio_retries, 1);
		assert_int_equal(st.completed, 1);
		assert_int_equal(st.errors[-MMCHAL_EIO], 1);
	}
}

/* ---------------------------------------------------------------- abort */

static int abort_rc;

/* Another context's abort, the first time the host lock is released (the
 * request has claimed the host and is being checked: PREP). */
static void abort_while_prep(struct rec_port *rp)
{
	rp->on_unlock = NULL;
	abort_rc = mmchal_host_abort(&g.host);
}

/* Abort of no running request: ENOENT when idle, EBUSY while a request is
 * being prepared, EALREADY once it is decided (DONE, its deferred work not
 * run yet), each changing nothing and leaving the lock as it was. */
static void test_abort_of_no_running_request(void **state)
{
	(void)state;
	setup_port(&rec_ops_full, 0);
	g.cfg.policy.override = MMCHAL_POLICY_DEFERRED;
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	assert_int_equal(mmchal_host_abort(&g.host), MMCHAL_ENOENT);
	assert_int_equal(g.rp.depth, 0);
	assert_false(g.rp.bad_nesting);
	/* PREP */
	abort_rc = 1;
	g.tb.auto_complete = false;
	g.rp.on_unlock = abort_while_prep;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(abort_rc, MMCHAL_EBUSY);
	assert_int_equal(g.rp.depth, 0);
	assert_false(g.rp.bad_nesting);
	assert_int_equal(mmchal_host_abort(&g.host), 0);
	assert_int_equal(ndone, 1);
	assert_int_equal(cmd.error, MMCHAL_ECANCELED);
	/* DONE, the completion handed to the deferred work */
	g.tb.auto_complete = true;
	req.stop = NULL;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(ndone, 1);
	assert_int_equal(mmchal_host_abort(&g.host), MMCHAL_EALREADY);
	assert_int_equal(g.rp.depth, 0);
	assert_false(g.rp.bad_nesting);
	rec_run_work(&g.rp);
	assert_int_equal(ndone, 2);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(data.error, 0);
	assert_int_equal(data.bytes_xfered, 4096);
	assert_int_equal(g.rp.depth, 0);
	assert_false(g.rp.bad_nesting);
}

/* An abort after a DMA fault, while its CMD12 is on the line, ends the
 * request: no PIO retry follows. */
static void test_abort_cancels_the_pio_retry(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	retry_host();
	g.tb.fail_op = 64;
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	data.error = MMCHAL_EFAULT;
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(g.tb.nstart, 2); /* CMD12 */
	assert_int_equal(mmchal_host_abort(&g.host), 0);
	assert_int_equal(ndone, 1);
	assert_int_equal(g.tb.nstart, 2);
	assert_int_equal(stop.error, MMCHAL_ECANCELED);
	assert_int_equal(data.error, MMCHAL_EFAULT);
	stats(&st);
	assert_int_equal(st.pio_retries, 0);
	assert_int_equal(st.aborts, 1);
	assert_int_equal(g.rp.depth, 0);
	assert_false(g.rp.bad_nesting);
}

/* Once the first command has started, the backend completes nothing more. */
static void stall_after_first_start(struct rec_port *rp)
{
	if (g.tb.nstart >= 1) {
		g.tb.auto_complete = false;
		rp->on_unlock = NULL;
	}
}

/* request_sync()'s own timeout after a DMA fault, while its CMD12 is on the
 * line, ends the request as well: no PIO retry follows. */
static void test_sync_timeout_cancels_the_pio_retry(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	retry_host();
	g.rp.step_ns = 100000; /* 0.1 ms per clock read */
	g.rp.on_unlock = stall_after_first_start;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 1), MMCHAL_EFAULT);
	assert_int_equal(ndone, 1);
	assert_int_equal(g.tb.nstart, 2);
	assert_int_equal(g.tb.log[1].opcode, 12);
	assert_int_equal(stop.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(data.error, MMCHAL_EFAULT);
	stats(&st);
	assert_int_equal(st.pio_retries, 0);
	assert_int_equal(st.timeouts, 1);
	assert_int_equal(g.rp.depth, 0);
	assert_false(g.rp.bad_nesting);
}

/* request_sync()'s own timeout ends the wait at its deadline exactly (the
 * port's clock moves only by the 1 us waits), long before the host's command
 * timeout of 1 s: the command is aborted with ETIMEDOUT there. */
static void test_sync_timeout_at_its_deadline(void **state)
{
	struct mmchal_cmd c = {.opcode = 13, .flags = MMCHAL_RSP_R1};
	struct mmchal_request r = {.cmd = &c, .done = on_done};
	struct mmchal_host_stats st;
	uint64_t t0;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	g.cfg.cmd_timeout_ms = 1000;
	host_up();
	g.tb.auto_complete = false;
	g.rp.now = 5000;
	t0 = g.rp.now;
	assert_int_equal(mmchal_host_request_sync(&g.host, &r, 1), MMCHAL_ETIMEDOUT);
	assert_int_equal(g.rp.now - t0, 1000000);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(g.tb.nabort, 1);
	assert_int_equal(ndone, 1);
	stats(&st);
	assert_int_equal(st.timeouts, 1);
}

/* An invalid request is counted under the lock, taken and dropped once. */
static void test_invalid_counted_under_the_lock(void **state)
{
	struct mmchal_host_stats st;
	uint32_t before;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	data.blocks = 0;
	before = g.rp.nlock;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EINVAL);
	/* claim, give back, count */
	assert_int_equal(g.rp.nlock - before, 3);
	assert_int_equal(g.rp.depth, 0);
	assert_false(g.rp.bad_nesting);
	stats(&st);
	assert_int_equal(st.rejected_invalid, 1);
	assert_int_equal(g.tb.nstart, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abort_counted),
		cmocka_unit_test(test_fast_plan_single_transfer_length),
		cmocka_unit_test(test_no_pool_no_fast_bounce),
		cmocka_unit_test(test_bounce_max_is_the_segment_size),
		cmocka_unit_test(test_fast_bounce_as_many_entries_as_segments),
		cmocka_unit_test(test_top_entry_planned_by_the_planner),
		cmocka_unit_test(test_merge_fast_with_open_aperture),
		cmocka_unit_test(test_merge_span_of_map_size_below_aperture),
		cmocka_unit_test(test_mapping_above_engine_reach),
		cmocka_unit_test(test_mapped_fold_at_the_edges),
		cmocka_unit_test(test_dev_any_as_many_segments_as_the_engine),
		cmocka_unit_test(test_merged_segment_in_the_top_proved),
		cmocka_unit_test(test_bounce_region_alignment),
		cmocka_unit_test(test_mapped_fold_odd_segment_size),
		cmocka_unit_test(test_merged_too_long_with_table_garbage),
		cmocka_unit_test(test_mapped_bad_without_cpu_fails),
		cmocka_unit_test(test_pio_retry_keeps_auto_stop),
		cmocka_unit_test(test_pio_retry_clears_the_stop_error),
		cmocka_unit_test(test_pio_retry_refused_locks_in_pairs),
		cmocka_unit_test(test_pio_retry_starts_afresh),
		cmocka_unit_test(test_abort_of_no_running_request),
		cmocka_unit_test(test_abort_cancels_the_pio_retry),
		cmocka_unit_test(test_invalid_counted_under_the_lock),
		cmocka_unit_test(test_sync_timeout_cancels_the_pio_retry),
		cmocka_unit_test(test_sync_timeout_at_its_deadline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
