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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abort_counted),
		cmocka_unit_test(test_fast_plan_single_transfer_length),
		cmocka_unit_test(test_no_pool_no_fast_bounce),
		cmocka_unit_test(test_bounce_max_is_the_segment_size),
		cmocka_unit_test(test_fast_bounce_as_many_entries_as_segments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
