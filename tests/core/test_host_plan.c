/*
 * The host's DMA plans over the scripted backend (src/core/request.c with
 * the planner of src/core/dma_plan.c): the host's own answer held to the
 * planner's on every edge (length window, address bits, boundaries,
 * granules, merged mappings), the post-mapping checks, the bounce region's
 * placement, the exact cache operations per plan and direction, and IOMMU
 * and bounce resources back to zero.
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

static void test_cache_ops_direct(void **state)
{
	(void)state;
	setup_port(&rec_ops_full, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, false);
	g.tb.identity = true;
	host_up();
	/* write: clean before the device reads, nothing after */
	make_rw(MMCHAL_DIR_TO_CARD, 8, 2);
	memset(buf, 0x31, sizeof(buf));
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.rp.n, 2);
	expect_rec(0, REC_CLEAN, buf, 2048);
	expect_rec(1, REC_CLEAN, buf + 4096, 2048);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_DIRECT);
	assert_int_equal(g.tb.log[0].nsegs, 2);
	assert_int_equal(g.tb.log[0].seg0.addr, (uintptr_t)buf);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(g.rp.n, 2);
	/* read: invalidate before (no dirty line may land on the data) and after */
	g.rp.n = 0;
	g.tb.auto_complete = true;
	make_read(8, 2);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.rp.n, 4);
	expect_rec(0, REC_INVAL, buf, 2048);
	expect_rec(1, REC_INVAL, buf + 4096, 2048);
	expect_rec(2, REC_INVAL, buf, 2048);
	expect_rec(3, REC_INVAL, buf + 4096, 2048);
	check_read_bytes(4096);
	/* a read into a buffer sharing its last line goes PIO: no cache op at all */
	g.rp.n = 0;
	make_rw(MMCHAL_DIR_FROM_CARD, 1, 1);
	sg[0].cpu = buf + 8;
	sg[0].phys += 8;
	req.stop = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.rp.n, 0);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].plan, MMCHAL_PLAN_PIO);
	assert_false(g.rp.bad_nesting);
}

/* A coherent engine the list does not fit, no IOMMU: the host's bounce
 * answer is the planner's (reason, entry), and where the planner would not
 * bounce, neither does the host. */
static void test_bounce_plan_is_the_planners(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	g.tb.identity = true;
	host_up();
	set_both_dirs(addr_align, 4096);
	/* the second entry starts half-way into a page */
	make_read(16, 2);
	unalign_second();
	expect_fast_plan(MMCHAL_PLAN_BOUNCED, MMCHAL_PR_ALIGN, 1);
	/* aligned: DIRECT, in both directions */
	make_read(16, 1);
	expect_fast_plan(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0);
	make_rw(MMCHAL_DIR_TO_CARD, 16, 1);
	req.stop = NULL;
	expect_fast_plan(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0);
	/* at the top of a DMA length window that starts above 0 */
	for (int d = 0; d < 2; d++) {
		g.host.caps.dma.dir[d].min_len = 1024;
		g.host.caps.dma.dir[d].max_xfer = 8192;
	}
	mmchal_host_plan_env_(&g.host);
	make_read(16, 2);
	unalign_second();
	expect_fast_plan(MMCHAL_PLAN_BOUNCED, MMCHAL_PR_ALIGN, 1);
	for (int d = 0; d < 2; d++) {
		g.host.caps.dma.dir[d].min_len = 0;
		g.host.caps.dma.dir[d].max_xfer = 0;
	}
	mmchal_host_plan_env_(&g.host);
	/* a bounce needs every CPU address */
	make_read(16, 2);
	unalign_second();
	sg[0].cpu = NULL;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EINVAL);
	/* the bounce is one segment the engine must take: too long, PIO */
	set_both_dirs(max_seg_size, 4096);
	make_read(16, 2);
	unalign_second();
	expect_plan(MMCHAL_PLAN_PIO, MMCHAL_PR_ALIGN, 1);
	assert_int_equal(g.host.plan.nobounce, MMCHAL_NB_ENGINE);
	/* a length granule the whole transfer does not meet: PIO */
	for (int d = 0; d < 2; d++) {
		g.host.caps.dma.dir[d].max_seg_size = 65536;
		g.host.caps.dma.dir[d].len_granule = 2048;
	}
	mmchal_host_plan_env_(&g.host);
	make_read(3, 1);
	expect_plan(MMCHAL_PLAN_PIO, MMCHAL_PR_GRANULE, 0);
	assert_int_equal(g.host.plan.nobounce, MMCHAL_NB_ENGINE);
}

/* One entry the engine refuses, no IOMMU: the host names the planner's
 * reason for each rule (the one-entry shortcut of the obstacle search), and
 * an entry the engine takes goes DIRECT. */
static void test_one_entry_bounce_reasons(void **state)
{
	static const struct {
		uint32_t align, seg_max, boundary;
		uint8_t bits;
		uint32_t offset;
		enum mmchal_plan plan;
		enum mmchal_plan_reason why;
		uint32_t granule;
		uint64_t phys; /* a device address of its own (the CPU's stays in buf); 0 = buf */
		bool fast;     /* the host's constants decide without the planner */
	} rows[] = {
		{4096, 65536, 0, 0, 512, MMCHAL_PLAN_BOUNCED, MMCHAL_PR_ALIGN, 0, 0, true},
		{1, 2048, 0, 0, 0, MMCHAL_PLAN_PIO, MMCHAL_PR_SEG_SIZE, 0, 0, false},
		{1, 65536, 0, 12, 0, MMCHAL_PLAN_BOUNCED, MMCHAL_PR_ADDR_BITS, 0, 0, true},
		{1, 65536, 4095, 0, 512, MMCHAL_PLAN_BOUNCED, MMCHAL_PR_BOUNDARY, 0, 0, true},
		{4096, 65536, 4095, 0, 0, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0, 0, true},
		/* a start off the length granule: the host's one-pass proof needs
		 * aligned starts and finds no obstacle of its own; the planner
		 * takes the entry as it is (only lengths have a granule) */
		{1, 65536, 0, 0, 256, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 512, 0, false},
		/* aligned to a length granule: the host's own answer */
		{1, 65536, 0, 0, 0, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 512, 0, true},
		/* the same start off the granule with a 64 KiB boundary it does not
		 * cross, far above the first 64 KiB: still no obstacle of the host's */
		{1, 65536, 0xffff, 0, 256, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 512, 0x10000100u,
		 false},
		/* the last byte beyond 32 address bits */
		{1, 65536, 0, 32, 0, MMCHAL_PLAN_BOUNCED, MMCHAL_PR_ADDR_BITS, 0, 0xfffff200u,
		 true},
		/* the last byte exactly at the top of 32 address bits */
		{1, 65536, 0, 32, 0, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0, 0xfffff000u, true},
		/* across a 4 KiB boundary, the last byte one below the top of 32 bits */
		{1, 65536, 4095, 32, 0, MMCHAL_PLAN_BOUNCED, MMCHAL_PR_BOUNDARY, 0, 0xffffefffu,
		 true},
	};

	(void)state;
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	g.tb.identity = true;
	host_up();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		for (int d = 0; d < 2; d++) {
			g.host.caps.dma.dir[d].addr_align = rows[i].align;
			g.host.caps.dma.dir[d].max_seg_size = rows[i].seg_max;
			g.host.caps.dma.dir[d].seg_boundary = rows[i].boundary;
			g.host.caps.dma.dir[d].addr_bits = rows[i].bits;
			g.host.caps.dma.dir[d].len_granule = rows[i].granule;
		}
		mmchal_host_plan_env_(&g.host);
		make_read(8, 1);
		sg[0].cpu = buf + rows[i].offset;
		sg[0].phys = rows[i].phys ? rows[i].phys : sg[0].phys + rows[i].offset;
		if (rows[i].fast)
			expect_fast_plan(rows[i].plan, rows[i].why, 0);
		else
			expect_plan(rows[i].plan, rows[i].why, 0);
		if (rows[i].plan == MMCHAL_PLAN_BOUNCED && rows[i].boundary) {
			/* the bounce region itself stays between two boundaries */
			mmchal_dma_addr_t a = g.tb.log[g.tb.nstart - 1].seg0.addr;

			assert_int_equal(a & ~(uint64_t)rows[i].boundary,
					 (a + 4095u) & ~(uint64_t)rows[i].boundary);
		}
	}
	/* 8 KiB cannot be one segment between two 4 KiB boundaries: PIO */
	for (int d = 0; d < 2; d++) {
		g.host.caps.dma.dir[d].addr_align = 1;
		g.host.caps.dma.dir[d].addr_bits = 0;
	}
	mmchal_host_plan_env_(&g.host);
	make_read(16, 1);
	sg[0].cpu = buf + 512;
	sg[0].phys += 512;
	expect_plan(MMCHAL_PLAN_PIO, MMCHAL_PR_BOUNDARY, 0);
	assert_int_equal(g.host.plan.nobounce, MMCHAL_NB_ENGINE);
}

/* Merging, with the mapping size as the only open question once the
 * request checks passed: the host's verdict is the merge policy's, on both
 * sides of the IOMMU's largest mapping and of its aperture. */
static void test_merge_verdict_is_the_policys(void **state)
{
	static const struct {
		uint64_t max_map, ap_start, ap_end;
		uint32_t offset;
		enum mmchal_plan plan;
	} rows[] = {
		{0, 0x1000, 0xffffffffu, 0, MMCHAL_PLAN_IOMMU_MERGED},
		{8192, 0x1000, 0xffffffffu, 0, MMCHAL_PLAN_IOMMU_MERGED},
		{8191, 0x1000, 0xffffffffu, 0, MMCHAL_PLAN_DIRECT},
		/* 2 KiB into the first page: three pages */
		{12288, 0x1000, 0xffffffffu, 2048, MMCHAL_PLAN_IOMMU_MERGED},
		{8192, 0x1000, 0xffffffffu, 2048, MMCHAL_PLAN_DIRECT},
		/* 8 KiB from 2 KiB into a page: three whole pages, one byte too many */
		{12287, 0x1000, 0xffffffffu, 2048, MMCHAL_PLAN_DIRECT},
		{0, 0x1000, 0x2fff, 0, MMCHAL_PLAN_IOMMU_MERGED},
		{0, 0x1000, 0x2ffe, 0, MMCHAL_PLAN_DIRECT},
		{0, 0, UINT64_MAX, 0, MMCHAL_PLAN_IOMMU_MERGED},
	};

	(void)state;
	merging_host(USE_IOMMU, 4);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct mmchal_plan_result p;

		g.host.caps.iommu.max_map_size = rows[i].max_map;
		g.host.caps.iommu.aperture_start = rows[i].ap_start;
		g.host.caps.iommu.aperture_end = rows[i].ap_end;
		mmchal_host_plan_env_(&g.host);
		assert_true(g.host.pfast[MMCHAL_DIR_FROM_CARD].merge_fast);
		make_read(16, 2);
		if (rows[i].offset) {
			/* 2 KiB + 4 KiB + 2 KiB: interior boundaries on pages */
			make_read(16, 3);
			sg[0].cpu = buf + 2048;
			sg[0].phys += 2048;
			sg[0].len = 2048;
			sg[1].len = 4096;
			sg[2].len = 2048;
		}
		assert_int_equal(mmchal_dma_plan(&g.host.penv, &data, &p), 0);
		assert_int_equal(p.plan, rows[i].plan);
		/* the verdict is the host's own when merging; a refusal asks the
		 * planner; an unaligned first entry needs the full checks */
		expect_plan_path(rows[i].plan, rows[i].plan == MMCHAL_PLAN_IOMMU_MERGED,
				 rows[i].offset != 0);
	}
	/* a virt_boundary other than the merge boundary: the policy itself decides */
	g.host.limits.virt_boundary = 0;
	mmchal_host_plan_env_(&g.host);
	assert_false(g.host.pfast[MMCHAL_DIR_FROM_CARD].merge_fast);
}

/*
 * The edges of the DMA length window are the host's to decide, on both
 * sides; outside it, and on a host where no length fits, the planner runs
 * and gives the same answer. Behind a merging IOMMU a list that ends inside
 * a page takes the full request checks (the quick ones look at every end).
 */
static void test_length_window_edges(void **state)
{
	(void)state;
	for (int merged = 0; merged < 2; merged++) {
		enum mmchal_plan dma = merged ? MMCHAL_PLAN_IOMMU_MERGED : MMCHAL_PLAN_DIRECT;

		setup_port(&rec_ops_coherent, merged ? USE_IOMMU : 0);
		tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
		g.tb.host.merge_capable = merged != 0;
		host_up();
		assert_int_equal(mmchal_host_core_ops.init_card(&g.host, MMCHAL_CARD_MMC), 0);
		for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
			g.host.caps.dma.dir[d].min_len = 4096;
			g.host.caps.dma.dir[d].max_xfer = 8192;
		}
		mmchal_host_plan_env_(&g.host);
		make_pages(8, 1, 4096);
		expect_plan_path(dma, true, false);
		make_pages(16, 2, 4096);
		expect_plan_path(dma, true, false);
		make_pages(7, 1, 3584);
		expect_plan_path(MMCHAL_PLAN_PIO, false, merged != 0);
		make_pages(17, 3, 512);
		expect_plan_path(MMCHAL_PLAN_PIO, false, merged != 0);
		/* no length is both long and short enough */
		for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
			g.host.caps.dma.dir[d].min_len = 8192;
			g.host.caps.dma.dir[d].max_xfer = 4096;
		}
		mmchal_host_plan_env_(&g.host);
		make_pages(8, 1, 4096);
		expect_plan_path(MMCHAL_PLAN_PIO, false, false);
		make_pages(16, 2, 4096);
		expect_plan_path(MMCHAL_PLAN_PIO, false, false);
	}
}

/* A merged segment longer than the engine takes (by one byte: 8 KiB against
 * 8191) is refused after mapping and the request goes the planner's
 * fallback way; one that fits is taken. */
static void test_merged_segment_length_checked(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	merging_host(USE_IOMMU, 4);
	set_both_dirs(max_seg_size, 8191);
	make_pages(15, 2, 3584);
	req.stop = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_IOMMU_MERGED);
	assert_int_equal(g.tb.log[0].seg0.len, 7680);
	stats(&st);
	assert_int_equal(st.map_fallbacks, 0);
	make_pages(16, 2, 4096);
	req.stop = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	/* behind the IOMMU there is no untranslated path, and no pool: PIO */
	assert_int_equal(g.tb.log[1].plan, MMCHAL_PLAN_PIO);
	assert_int_equal(g.tb.log[1].nsegs, 0);
	stats(&st);
	assert_int_equal(st.map_fallbacks, 1);
	assert_int_equal(st.reason[MMCHAL_PLAN_PIO][MMCHAL_PR_MAPPED_BAD], 1);
	assert_int_equal(g.fi.pages, 0);
}

/*
 * With an engine segment boundary the bounce region starts on a multiple of
 * its size rounded up to a power of two, so that it never straddles one:
 * after a one-slot bounce the pool's next free slot (2 KiB in) would put
 * a 4 KiB region across the 4 KiB boundary; the region goes to 4 KiB.
 */
static void test_bounce_region_inside_a_boundary(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	g.tb.identity = true;
	host_up();
	set_both_dirs(seg_boundary, 0xfff);
	/* 512 bytes across a 4 KiB boundary: bounced into slot 0 */
	make_read(1, 1);
	sg[0].cpu = buf + 4096 - 256;
	sg[0].phys += 4096 - 256;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(g.tb.log[0].seg0.addr, (uintptr_t)pool);
	/* 4 KiB across one: the region skips slot 1 */
	make_read(8, 1);
	sg[0].cpu = buf + 2048;
	sg[0].phys += 2048;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[1].plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(g.tb.log[1].seg0.addr, (uintptr_t)pool + 4096u);
	assert_int_equal(g.tb.log[1].seg0.len, 4096);
	assert_int_equal(mmchal_bounce_in_use(&g.bounce), 0);
}

/* An engine segment boundary: the host's checks cover the ends of every
 * entry, so a valid request still needs no full check; and an error code
 * beyond the table of errors by kind is reported but not counted there. */
static void test_boundary_host_and_unknown_error(void **state)
{
	struct mmchal_host_stats st, before;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	for (int d = 0; d < 2; d++)
		g.tb.dma.dir[d].seg_boundary = 0xffff;
	host_up();
	assert_int_equal(mmchal_host_limits(&g.host)->seg_boundary, 0xffff);
	make_rw(MMCHAL_DIR_TO_CARD, 16, 2);
	req.stop = NULL;
	expect_fast_plan(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0);
	/* the last error code has its slot */
	make_rw(MMCHAL_DIR_TO_CARD, 8, 1);
	req.stop = NULL;
	g.tb.auto_complete = true;
	g.tb.fail_op = 25;
	g.tb.fail_ev = MMCHAL_EV_DATA_ERROR;
	g.tb.fail_err = MMCHAL_EROFS;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EROFS);
	stats(&st);
	assert_int_equal(st.errors[-MMCHAL_EROFS], 1);
	/* one beyond it is reported, not counted (nor anywhere else) */
	make_read(8, 1);
	g.tb.fail_op = 18;
	g.tb.fail_err = -MMCHAL_HOST_ERR_SLOTS;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), -MMCHAL_HOST_ERR_SLOTS);
	before = st;
	stats(&st);
	before.requests++;
	before.completed++;
	before.plan[MMCHAL_PLAN_DIRECT]++;
	before.reason[MMCHAL_PLAN_DIRECT][MMCHAL_PR_DIRECT]++;
	before.nobounce[MMCHAL_NB_NONE]++;
	before.bytes = st.bytes; /* the blocks the backend says moved */
	assert_memory_equal(&st, &before, sizeof(st));
}

static void test_cache_ops_bounced(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_full, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 1, false);
	g.tb.identity = true;
	host_up();
	/* a read into a buffer that shares its first cache line */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	sg[0].cpu = buf + 8;
	sg[0].phys += 8;
	req.stop = NULL;
	memset(buf, 0, sizeof(buf));
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(g.tb.log[0].nsegs, 1);
	assert_int_equal(g.tb.log[0].seg0.len, 4096);
	stats(&st);
	assert_int_equal(st.bounce_slots, 2);
	assert_int_equal(st.reason[MMCHAL_PLAN_BOUNCED][MMCHAL_PR_SHARED_LINE], 1);
	/* the slots were filled by the CPU: cleaned before the device writes them */
	assert_int_equal(g.rp.n, 1);
	expect_rec(0, REC_CLEAN, (void *)(uintptr_t)g.tb.log[0].seg0.addr, 4096);
	for (uint32_t i = 0; i < 4096; i++)
		((unsigned char *)(uintptr_t)g.tb.log[0].seg0.addr)[i] = (unsigned char)(0x40 + i);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	/* invalidated before the copy back */
	assert_int_equal(g.rp.n, 2);
	expect_rec(1, REC_INVAL, (void *)(uintptr_t)g.tb.log[0].seg0.addr, 4096);
	check_read_bytes(4096);
	stats(&st);
	assert_int_equal(st.bounce_slots, 0);
	assert_int_equal(st.bounce_slots_peak, 2);
	assert_int_equal(mmchal_bounce_in_use(&g.bounce), 0);
	/* the next read takes the pool's next two slots: the cache operations
	 * cover those, 4 KiB into the pool */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	sg[0].cpu = buf + 8;
	sg[0].phys += 8;
	req.stop = NULL;
	g.rp.n = 0;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.tb.log[1].plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(g.tb.log[1].seg0.addr, (uintptr_t)pool + 4096u);
	assert_int_equal(g.rp.n, 1);
	expect_rec(0, REC_CLEAN, pool + 4096, 4096);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(g.rp.n, 2);
	expect_rec(1, REC_INVAL, pool + 4096, 4096);
	assert_int_equal(mmchal_bounce_in_use(&g.bounce), 0);
}

/* Behind the IOMMU the mapped segments still meet the engine's reach and
 * segment size: a domain wider than the engine, a merged segment longer than
 * the engine takes. */
static void test_iommu_mapping_within_engine(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	merging_host(USE_IOMMU | USE_BOUNCE, 2);
	/* in reach: merged */
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED, false);
	/* 32 address bits, as many as the domain's: every device address is in
	 * reach, the host knows it without looking at the segment */
	set_both_dirs(addr_bits, 32);
	assert_true(g.host.pfast[MMCHAL_DIR_FROM_CARD].dev_any);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED, false);
	/* the engine reaches only page 0 (which the domain never hands out) */
	set_both_dirs(addr_bits, 12);
	make_read(16, 2);
	expect_mapped(MMCHAL_PLAN_BOUNCED, MMCHAL_PR_MAPPED_BAD);
	stats(&st);
	assert_int_equal(st.map_fallbacks, 1);
	/* in reach again, but the merged 8 KiB is longer than the engine's 4 KiB */
	for (int d = 0; d < 2; d++) {
		g.host.caps.dma.dir[d].addr_bits = 0;
		g.host.caps.dma.dir[d].max_seg_size = 4096;
	}
	mmchal_host_plan_env_(&g.host);
	make_read(16, 2);
	expect_mapped(MMCHAL_PLAN_PIO, MMCHAL_PR_MAPPED_BAD);
	stats(&st);
	assert_int_equal(st.map_fallbacks, 2);
}

static void test_iommu_plans_release_everything(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	merging_host(USE_IOMMU | USE_BOUNCE, 1);
	assert_true(mmchal_host_limits(&g.host)->merge);
	/* merged: one segment, pages mapped while in flight */
	make_read(16, 2);
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_IOMMU_MERGED);
	assert_int_equal(g.tb.log[0].nsegs, 1);
	assert_int_equal(g.tb.log[0].seg0.len, 8192);
	assert_int_equal(g.fi.pages, 2);
	stats(&st);
	assert_int_equal(st.iova_pages, 2);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(g.fi.pages, 0);
	stats(&st);
	assert_int_equal(st.iova_pages, 0);
	assert_int_equal(st.iova_pages_peak, 2);
	/* the figures are the domain's own: another user of it shows */
	{
		static const struct mmchal_sg other[] = {{NULL, 0x100000, 3u * 4096u}};
		struct mmchal_iommu_mapping om;
		struct mmchal_dma_seg oseg;

		memset(&om, 0, sizeof(om));
		assert_int_equal(mmchal_iommu_map_merged(&g.dom, other, 1, MMCHAL_DIR_TO_CARD,
							 MMCHAL_CARD_MMC, &om, &oseg, NULL),
				 0);
		stats(&st);
		assert_int_equal(st.iova_pages, 3);
		assert_int_equal(st.iova_pages_peak, 3);
		assert_int_equal(mmchal_iommu_unmap(&g.dom, &om), 0);
		stats(&st);
		assert_int_equal(st.iova_pages, 0);
		assert_int_equal(st.iova_pages_peak, 3);
	}
	/* the engine needs 8 KiB alignment: the merged IOVA starts 2 KiB into a
	 * page, the post-mapping check refuses it and the request is bounced */
	set_both_dirs(addr_align, 8192); /* the host's planner constants follow */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	sg[0].cpu = buf + 2048;
	sg[0].phys += 2048;
	sg[0].len = 2048;
	sg[1].len = 2048;
	req.stop = NULL;
	g.tb.auto_complete = true;
	g.tb.identity = true; /* device addresses of the pool are CPU addresses */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[1].plan, MMCHAL_PLAN_BOUNCED);
	/* the engine got the bounce region, and the bytes came back */
	assert_int_equal(g.tb.log[1].nsegs, 1);
	assert_true(g.tb.log[1].seg0.addr >= (uintptr_t)pool &&
		    g.tb.log[1].seg0.addr + 4096u <= (uintptr_t)pool + sizeof(pool));
	check_read_bytes(4096);
	g.tb.identity = false;
	stats(&st);
	assert_int_equal(st.map_fallbacks, 1);
	assert_int_equal(st.reason[MMCHAL_PLAN_BOUNCED][MMCHAL_PR_MAPPED_BAD], 1);
	assert_int_equal(g.fi.pages, 0);
	assert_int_equal(st.iova_pages, 0);
	assert_int_equal(st.bounce_slots, 0);
	/* an invalid request maps nothing and sends nothing */
	{
		uint32_t maps = g.fi.maps, starts = g.tb.nstart;

		make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
		sg[1].len = 4095;
		assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EINVAL);
		assert_int_equal(g.fi.maps, maps);
		assert_int_equal(g.tb.nstart, starts);
	}
	/* the explanation names the plans taken and why */
	{
		static char text[4096];

		assert_true(mmchal_host_explain(&g.host, text, sizeof(text)) > 0);
		assert_true(fx_contains(text, "\nplan IOMMU_MERGED: 1\n  the IOMMU maps the list "
					      "to one device address: 1\n"));
		assert_true(fx_contains(text, "\nplan BOUNCED: 1\n  the IOMMU mapping is not what "
					      "the engine can take: 1\n"));
		assert_true(fx_contains(text, "IOMMU mappings the engine could not take: 1\n"));
	}
	/* a failing IOMMU map: the error comes back, nothing stays mapped */
	set_both_dirs(addr_align, 0);
	g.fi.fail_map_at = g.fi.maps + 2;
	make_read(16, 2);
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EFAULT);
	assert_int_equal(g.fi.pages, 0);
	g.fi.fail_map_at = 0;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.fi.pages, 0);
	assert_int_equal(mmchal_bounce_in_use(&g.bounce), 0);
}

/* make_read() of @p blocks in two entries of @p len0 and @p len1 bytes, the
 * second 8 KiB into buf. */
static void two_entries(uint32_t blocks, uint32_t len0, uint32_t len1)
{
	make_read(blocks, 2);
	sg[0].len = len0;
	sg[1].cpu = buf + 8192;
	sg[1].phys = (uintptr_t)(buf + 8192);
	sg[1].len = len1;
}

/* Behind an IOMMU without merging, an engine with an alignment (and then a
 * boundary) takes the mapped segments only after their check: both folds of
 * the check, and a mapping that fails it. */
static void test_mapped_segments_checked(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU | USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	set_both_dirs(addr_align, 512);
	assert_false(g.host.pfast[MMCHAL_DIR_FROM_CARD].dev_any);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, false);
	/* a 64 KiB boundary: every segment of the mapping stays inside one */
	set_both_dirs(seg_boundary, 0xffff);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, false);
	/* a 4 KiB boundary: the first segment (one page) keeps it, the second
	 * (two pages) cannot: refused after mapping */
	set_both_dirs(seg_boundary, 0xfff);
	make_read(24, 2);
	sg[0].len = 4096;
	sg[1].len = 8192;
	expect_mapped_by(MMCHAL_PLAN_PIO, MMCHAL_PR_MAPPED_BAD, true);
	/* a 2 KiB boundary no 4 KiB segment can keep: refused after mapping */
	set_both_dirs(seg_boundary, 0x7ff);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_PIO, MMCHAL_PR_MAPPED_BAD, true);
	/* a segment size that is no power of two: the lengths' OR (0x1fff) is past
	 * it (7 KiB), so one pass cannot tell; the exact check takes 6 and 7 KiB */
	set_both_dirs(seg_boundary, 0);
	set_both_dirs(max_seg_size, 7168);
	two_entries(26, 6144, 7168);
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, true);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].nsegs, 2);
	/* 7 KiB and 1.5 KiB: their OR (0x1fff) is past it too; 7 KiB and 1 KiB
	 * (OR 0x1bff) one pass proves */
	two_entries(17, 7168, 1536);
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, true);
	two_entries(16, 7168, 1024);
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, false);
}

/* Device addresses in the top 4 GiB, where an entry could wrap: the host's
 * one pass cannot prove the mapped segments fit, and the exact check takes
 * them (counted in full_map_checks). */
static void test_mapped_segments_top_checked(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU | USE_IOMMU_TOP);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	set_both_dirs(addr_align, 512);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, true);
	assert_true(g.tb.log[g.tb.nstart - 1].seg0.addr >= 0xffffffff00000000u);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].nsegs, 2);
}

/* A merged mapping on an engine with an alignment: the host proves the one
 * segment fits without the exact check. */
static void test_merged_mapping_proved(void **state)
{
	(void)state;
	merging_host(USE_IOMMU, 4);
	set_both_dirs(addr_align, 512);
	assert_false(g.host.pfast[MMCHAL_DIR_FROM_CARD].dev_any);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED, false);
	assert_int_equal(g.tb.log[0].nsegs, 1);
	assert_int_equal(g.tb.log[0].seg0.len, 8192);
	/* with a length granule the transfer meets */
	set_both_dirs(len_granule, 512);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED, false);
	/* and a 64 KiB boundary the mapping keeps */
	set_both_dirs(seg_boundary, 0xffff);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED, false);
	/* the engine's 32 address bits end where the domain's do: the first
	 * mapping takes the top pages, its last byte is the last reachable */
	merging_host(USE_IOMMU, 4);
	set_both_dirs(addr_bits, 32);
	set_both_dirs(addr_align, 512);
	make_read(16, 2);
	expect_mapped_by(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED, false);
	assert_int_equal(g.tb.log[0].seg0.addr + g.tb.log[0].seg0.len - 1u, 0xffffffffu);
	/* one byte (no alignment to meet): a segment whose last byte is its first */
	set_both_dirs(addr_align, 1);
	set_both_dirs(len_granule, 1);
	set_both_dirs(seg_boundary, 0xfff);
	make_read(1, 1);
	data.blksz = 1;
	sg[0].len = 1;
	expect_mapped_by(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED, false);
	assert_int_equal(g.tb.log[1].seg0.len, 1);
}

/*
 * The host's own answers where its constants depend on the port and the
 * list: a port without cache maintenance in front of an engine that does
 * not snoop (nothing to do for the port's caches), a port with it in front
 * of one that snoops, an entry count equal to the engine's, and a PIO host
 * whose list is followed by an unused entry without a CPU address.
 */
static void test_fast_plans_of_ports_and_lists(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, false);
	host_up();
	make_read(16, 4);
	expect_fast_plan(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0);
	setup_port(&rec_ops_full, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	make_read(16, 4);
	expect_fast_plan(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0);
	setup_port(&rec_ops_coherent, 0);
	host_up();
	make_read(8, 2);
	sg[2].cpu = NULL;
	expect_fast_plan(MMCHAL_PLAN_PIO, MMCHAL_PR_NO_ENGINE, 0);
	/* no pool: the obstacle is named, and why there was no bounce */
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	set_both_dirs(addr_align, 4096);
	make_read(16, 2);
	unalign_second();
	expect_plan(MMCHAL_PLAN_PIO, MMCHAL_PR_ALIGN, 1);
	assert_int_equal(g.host.plan.nobounce, MMCHAL_NB_NO_POOL);
}

/*
 * The host's precomputed engine constants at the edge of each capability: the
 * reach of 0 (none given), 32, 63 and 64 address bits, the granule mask, and
 * whether every device address of the domain is in the engine's reach (a
 * domain one page past 4 GiB is not, for 32 bits).
 */
static void test_fast_constants_at_edges(void **state)
{
	static const struct {
		uint8_t bits;
		uint64_t last_max;
	} reach[] = {{0, UINT64_MAX}, {32, 0xffffffffu}, {63, INT64_MAX}, {64, UINT64_MAX}};
	static const uint32_t gran[][2] = {{0, 0}, {1, 0}, {4, 3}, {512, 511}};
	const struct mmchal_host_plan_fast *f = &g.host.pfast[MMCHAL_DIR_FROM_CARD];
	uint64_t limit;

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	for (size_t i = 0; i < sizeof(reach) / sizeof(reach[0]); i++) {
		set_both_dirs(addr_bits, reach[i].bits);
		assert_int_equal(f->dev_last_max, reach[i].last_max);
	}
	for (size_t i = 0; i < sizeof(gran) / sizeof(gran[0]); i++) {
		set_both_dirs(len_granule, gran[i][0]);
		assert_int_equal(f->gran1, gran[i][1]);
	}
	set_both_dirs(len_granule, 0);
	set_both_dirs(addr_bits, 32);
	assert_int_equal(g.dom.page_shift, 12);
	assert_int_equal(g.dom.limit_pfn, 0xfffff);
	assert_true(f->dev_any);
	limit = g.dom.limit_pfn;
	g.dom.limit_pfn = 0x100000;
	mmchal_host_plan_env_(&g.host);
	assert_false(f->dev_any);
	g.dom.limit_pfn = limit;
	mmchal_host_plan_env_(&g.host);
	assert_true(f->dev_any);
	/* behind the IOMMU the planner's reach is all of it; without, the engine's */
	assert_int_equal(f->last_max, UINT64_MAX);
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	for (size_t i = 0; i < sizeof(reach) / sizeof(reach[0]); i++) {
		set_both_dirs(addr_bits, reach[i].bits);
		assert_int_equal(f->last_max, reach[i].last_max);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_ops_direct),
		cmocka_unit_test(test_cache_ops_bounced),
		cmocka_unit_test(test_bounce_plan_is_the_planners),
		cmocka_unit_test(test_one_entry_bounce_reasons),
		cmocka_unit_test(test_merge_verdict_is_the_policys),
		cmocka_unit_test(test_merged_mapping_proved),
		cmocka_unit_test(test_fast_plans_of_ports_and_lists),
		cmocka_unit_test(test_bounce_region_inside_a_boundary),
		cmocka_unit_test(test_boundary_host_and_unknown_error),
		cmocka_unit_test(test_length_window_edges),
		cmocka_unit_test(test_merged_segment_length_checked),
		cmocka_unit_test(test_iommu_plans_release_everything),
		cmocka_unit_test(test_iommu_mapping_within_engine),
		cmocka_unit_test(test_mapped_segments_checked),
		cmocka_unit_test(test_mapped_segments_top_checked),
		cmocka_unit_test(test_fast_constants_at_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
