/*
 * The request-path tests' shared fixture (request_fixture.h).
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

_Alignas(4096) unsigned char buf[RQ_BUF_SIZE];
_Alignas(4096) unsigned char pool[RQ_POOL_SIZE];
static uint32_t pool_meta[MMCHAL_BOUNCE_META_BYTES(64) / sizeof(uint32_t)];
static _Alignas(16) unsigned char nodes[MMCHAL_IOVA_POOL_BYTES(64)];

struct rq_fixture g;
struct mmchal_cmd sbc, cmd, stop;
struct mmchal_data data;
struct mmchal_sg sg[4];
struct mmchal_request req;
unsigned ndone;

void on_done(struct mmchal_request *r)
{
	(void)r;
	ndone++;
}

void setup_port(const struct mmchal_port_ops *ops, unsigned flags)
{
	memset(&g, 0, sizeof(g));
	tb_init(&g.tb);
	rec_init(&g.rp);
	g.tb.port = &g.rp;
	g.be.ops = &tb_ops;
	g.be.ctx = &g.tb;
	g.port.ops = ops;
	g.port.ctx = &g.rp;
	g.port.cache_line = 64;
	g.cfg.backend = &g.be;
	g.cfg.port = &g.port;
	g.cfg.seg_table = g.table;
	g.cfg.seg_table_len = 8;
	if (flags & USE_BOUNCE) {
		struct mmchal_bounce_cfg bc = {.mem = pool,
					       .dma = (uintptr_t)pool,
					       .size = sizeof(pool),
					       .slots_per_map = 16,
					       .meta = pool_meta,
					       .meta_size = sizeof(pool_meta)};

		assert_int_equal(mmchal_bounce_init(&g.bounce, &bc), 0);
		g.cfg.bounce = &g.bounce;
	}
	if (flags & USE_IOMMU) {
		struct mmchal_iommu_domain_cfg dc = {.iommu = &g.iommu,
						     .node_mem = nodes,
						     .node_mem_size = sizeof(nodes),
						     .addr_bits = 32};

		if (flags & USE_IOMMU_TOP) {
			g.fi.top = 0xffffffff00000000u;
			dc.addr_bits = 64;
		}
		g.iommu.ops = &fiommu_ops;
		g.iommu.ctx = &g.fi;
		assert_int_equal(mmchal_iommu_domain_init(&g.dom, &dc), 0);
		g.cfg.iommu = &g.dom;
	}
	ndone = 0;
}

void host_up(void)
{
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), 0);
}

/* A coherent internal DMAC of @p max_segs segments behind a merging IOMMU
 * (setup_port() @p flags, USE_IOMMU among them), an eMMC card. */
void merging_host(unsigned flags, uint32_t max_segs)
{
	setup_port(&rec_ops_coherent, flags);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, max_segs, true);
	g.tb.host.merge_capable = true;
	host_up();
	assert_int_equal(mmchal_host_core_ops.init_card(&g.host, MMCHAL_CARD_MMC), 0);
}

/* CMD18/25 of @p blocks x 512 bytes over 4 KiB pieces of buf, with CMD12. */
void make_rw(enum mmchal_dir dir, uint32_t blocks, uint32_t nsg)
{
	uint32_t left = blocks * 512;

	sbc = (struct mmchal_cmd){.opcode = 23, .arg = blocks, .flags = MMCHAL_RSP_R1};
	cmd = (struct mmchal_cmd){.opcode = dir == MMCHAL_DIR_FROM_CARD ? 18 : 25,
				  .flags = MMCHAL_RSP_R1};
	stop = (struct mmchal_cmd){.opcode = 12, .flags = MMCHAL_RSP_R1B};
	for (uint32_t i = 0; i < nsg; i++) {
		uint32_t len = left / (nsg - i);

		sg[i].cpu = buf + 4096 * i;
		sg[i].phys = (uintptr_t)(buf + 4096 * i);
		sg[i].len = len;
		left -= len;
	}
	data = (struct mmchal_data){
		.dir = dir, .blksz = 512, .blocks = blocks, .sg = sg, .sg_len = nsg};
	req = (struct mmchal_request){.cmd = &cmd, .data = &data, .stop = &stop, .done = on_done};
}

/* make_rw() of a read, without CMD12 (the plan tests look at the data only). */
void make_read(uint32_t blocks, uint32_t nsg)
{
	make_rw(MMCHAL_DIR_FROM_CARD, blocks, nsg);
	req.stop = NULL;
}

void check_read_bytes(uint32_t n)
{
	uint32_t off = 0;

	for (uint32_t i = 0; i < data.sg_len; i++) {
		for (uint32_t j = 0; j < sg[i].len && off < n; j++, off++) {
			if (((unsigned char *)sg[i].cpu)[j] != (unsigned char)(0x40 + off))
				fail_msg("byte %u: %u", (unsigned)off,
					 (unsigned)((unsigned char *)sg[i].cpu)[j]);
		}
	}
}

void stats(struct mmchal_host_stats *st)
{
	assert_int_equal(mmchal_host_stats(&g.host, st), 0);
}

void expect_rec(uint32_t i, enum rec_op op, const void *addr, size_t len)
{
	assert_true(i < g.rp.n);
	assert_int_equal(g.rp.log[i].op, op);
	assert_ptr_equal((const void *)g.rp.log[i].addr, addr);
	assert_int_equal(g.rp.log[i].len, len);
}

/* Submit without completing, check the host's plan is the planner's, abort. */
void expect_plan(enum mmchal_plan plan, enum mmchal_plan_reason why, uint32_t index)
{
	struct mmchal_plan_result p;

	assert_int_equal(mmchal_dma_plan(&g.host.penv, &data, &p), 0);
	assert_int_equal(p.plan, plan);
	assert_int_equal(p.reason, why);
	assert_int_equal(p.index, index);
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.host.plan.plan, p.plan);
	assert_int_equal(g.host.plan.reason, p.reason);
	assert_int_equal(g.host.plan.nobounce, p.nobounce);
	assert_int_equal(g.host.plan.merge, p.merge);
	assert_int_equal(g.host.plan.index, p.index);
	assert_int_equal(g.host.plan.iommu, p.iommu);
	assert_int_equal(mmchal_host_abort(&g.host), 0);
}

/*
 * The host plans the request as the planner does (expect_plan()); @p fast:
 * from its own constants, without running the planner; @p full_check: the
 * quick request checks could not prove it valid.
 */
void expect_plan_path(enum mmchal_plan plan, bool fast, bool full_check)
{
	struct mmchal_plan_result p;
	struct mmchal_host_stats before, after;

	assert_int_equal(mmchal_dma_plan(&g.host.penv, &data, &p), 0);
	assert_int_equal(p.plan, plan);
	stats(&before);
	expect_plan(p.plan, p.reason, p.index);
	stats(&after);
	assert_int_equal(after.full_plans - before.full_plans, fast ? 0 : 1);
	assert_int_equal(after.full_checks - before.full_checks, full_check ? 1 : 0);
}

/* expect_plan(), decided by the host's own constants and quick checks. */
void expect_fast_plan(enum mmchal_plan plan, enum mmchal_plan_reason why, uint32_t index)
{
	struct mmchal_host_stats before, after;

	stats(&before);
	expect_plan(plan, why, index);
	stats(&after);
	assert_int_equal(after.full_plans, before.full_plans);
	assert_int_equal(after.full_checks, before.full_checks);
}

/* 2 KiB at buf, then 6 KiB from buf + 2 KiB */
void unalign_second(void)
{
	sg[0].len = 2048;
	sg[1].cpu = buf + 2048;
	sg[1].phys = (uintptr_t)(buf + 2048);
	sg[1].len = 6144;
}

/* @p n entries of 4 KiB (the last @p last bytes) for a read of @p blocks. */
void make_pages(uint32_t blocks, uint32_t n, uint32_t last)
{
	make_rw(MMCHAL_DIR_FROM_CARD, blocks, n);
	for (uint32_t i = 0; i + 1u < n; i++)
		sg[i].len = 4096;
	sg[n - 1u].len = last;
}

/* A DMA host with PIO retry on, a two-entry read prepared, the DMA faulting
 * once on CMD18. */
void retry_host_policy(enum mmchal_completion_policy policy)
{
	setup_port(&rec_ops_coherent, 0);
	g.cfg.policy.override = policy;
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, true);
	g.tb.identity = true;
	g.cfg.pio_retry = true;
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	g.tb.fail_op = 18;
	g.tb.fail_ev = MMCHAL_EV_DATA_ERROR;
	g.tb.fail_err = MMCHAL_EFAULT;
	g.tb.fail_once = true;
}

void retry_host(void)
{
	retry_host_policy(MMCHAL_POLICY_AUTO);
}

/* Submit, expect @p plan and reason, complete by the test backend. */
void expect_mapped(enum mmchal_plan plan, enum mmchal_plan_reason why)
{
	g.tb.auto_complete = true;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].plan, plan);
	assert_int_equal(g.host.plan.reason, why);
	assert_int_equal(g.fi.pages, 0);
}

/* expect_mapped(); @p full: the exact check of the mapped segments ran
 * (the host's one-pass proof could not decide). */
void expect_mapped_by(enum mmchal_plan plan, enum mmchal_plan_reason why, bool full)
{
	struct mmchal_host_stats before, after;

	stats(&before);
	expect_mapped(plan, why);
	stats(&after);
	assert_int_equal(after.full_map_checks - before.full_map_checks, full ? 1 : 0);
}
