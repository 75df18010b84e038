/*
 * Request validation and the DMA planner on their boundaries
 * (src/core/dma_plan.c): every limit met exactly and missed by one, for the
 * request checks, the planner's summary shortcut and its exact scan, the
 * fallback and the post-mapping check.
 *
 * Both the request checks and the planner have a fast path that decides from
 * a one-pass summary of the list, and an exact path that looks at every entry
 * and names the first failure. The tests put inputs where the two could
 * disagree: a list in the top 4 GiB (where the fast request check cannot
 * prove anything, so the exact one runs and must accept it), entries that end
 * exactly on a boundary or on the last byte of the address space, and lists
 * whose summary sits exactly on each of the planner's combined tests.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/dma_plan.h>

#include "core/dma_plan_priv.h"

/* the top 4 GiB of the physical address space */
#define TOP   0xffffffff00000000ull
#define P0    0x80000000ull
#define WR    MMCHAL_DIR_TO_CARD
#define RD    MMCHAL_DIR_FROM_CARD
#define NOIDX 0xa5a5a5a5u

static _Alignas(4096) unsigned char buf[40960];

/* ------------------------------------------------------------ requests */

static struct mmchal_limits rl;
static struct mmchal_cmd rsbc, rcmd, rstop;
static struct mmchal_data rd;
static struct mmchal_sg rsg[4];
static struct mmchal_request rq;

/*
 * A valid CMD23 + CMD25 of 8 x 512 bytes in two 2 KiB entries in the top
 * 4 GiB, the second ending on the last byte of the address space. The fast
 * check cannot prove a list there valid (an entry there might wrap), so the
 * exact checks run; the request meets every limit exactly (2 entries of
 * max_segs 2, 8 blocks of max_blk_count 8, 4096 bytes of max_req_size 4096).
 */
static void slow_request(void)
{
	memset(&rl, 0, sizeof(rl));
	rl.max_segs = 2;
	rl.max_seg_size = 4096;
	rl.max_blk_size = 512;
	rl.max_blk_count = 8;
	rl.max_req_size = 4096;
	rl.seg_boundary = 0xffffffffu;
	rsbc = (struct mmchal_cmd){.opcode = 23, .arg = 8, .flags = MMCHAL_RSP_R1};
	rcmd = (struct mmchal_cmd){.opcode = 25, .arg = 0, .flags = MMCHAL_RSP_R1};
	rstop = (struct mmchal_cmd){.opcode = 12, .flags = MMCHAL_RSP_R1B};
	rsg[0] = (struct mmchal_sg){.cpu = buf, .phys = TOP, .len = 2048};
	rsg[1] = (struct mmchal_sg){.cpu = buf + 4096, .phys = UINT64_MAX - 2047u, .len = 2048};
	rd = (struct mmchal_data){.dir = WR, .blksz = 512, .blocks = 8, .sg = rsg, .sg_len = 2};
	rq = (struct mmchal_request){.sbc = &rsbc, .cmd = &rcmd, .data = &rd};
}

static void check_is(int line, int want_err, enum mmchal_req_check why, uint32_t index)
{
	struct mmchal_req_check_info info;
	int err;

	memset(&info, 0x5a, sizeof(info));
	err = mmchal_request_check(&rq, &rl, &info);
	if (err != want_err || info.why != why || info.index != index)
		fail_msg("line %d: err %d why %d index %u", line, err, (int)info.why,
			 (unsigned)info.index);
	assert_int_equal(mmchal_request_check(&rq, &rl, NULL), want_err);
	if (err == 0 && rq.data)
		assert_true(info.sum.valid);
	else
		assert_false(info.sum.valid);
}

#define CHECK_OK()          check_is(__LINE__, 0, MMCHAL_REQ_OK, 0)
#define CHECK_BAD(why, idx) check_is(__LINE__, MMCHAL_EINVAL, why, idx)

static void test_request_exact_limits(void **state)
{
	(void)state;
	slow_request();
	CHECK_OK();
	/* one past each limit */
	slow_request();
	rl.max_segs = 1;
	CHECK_BAD(MMCHAL_REQ_SEGS, 0);
	slow_request();
	rl.max_blk_count = 7;
	CHECK_BAD(MMCHAL_REQ_BLOCKS, 0);
	slow_request();
	rl.max_req_size = 4095;
	CHECK_BAD(MMCHAL_REQ_REQ_SIZE, 0);
	slow_request();
	rl.max_seg_size = 2047;
	CHECK_BAD(MMCHAL_REQ_SEG_SIZE, 0);
	/* the last byte of the address space is a byte like any other; one
	 * further wraps */
	slow_request();
	rsg[1].phys++;
	CHECK_BAD(MMCHAL_REQ_SEG_WRAP, 1);
	/* command index 63 is the largest */
	slow_request();
	rcmd.opcode = 63;
	CHECK_OK();
	rcmd.opcode = 64;
	CHECK_BAD(MMCHAL_REQ_OPCODE, 0);
	/* CMD23 bits 31:16 are flags (reliable write, packed, ...), not count */
	slow_request();
	rsbc.arg = 0xabcd0008u;
	CHECK_OK();
	rsbc.arg = 0x00010008u;
	CHECK_OK();
	rsbc.arg = 0x00010000u;
	CHECK_BAD(MMCHAL_REQ_SBC_COUNT, 0);
	/* every command is checked, SET_BLOCK_COUNT first */
	slow_request();
	rsbc.flags = 1u << 7;
	CHECK_BAD(MMCHAL_REQ_RSP_FLAGS, 0);
	slow_request();
	rsbc.opcode = 64;
	rcmd.flags = 1u << 7;
	CHECK_BAD(MMCHAL_REQ_OPCODE, 0);
	slow_request();
	rq.stop = &rstop;
	rstop.flags = MMCHAL_RSP_CRC;
	CHECK_BAD(MMCHAL_REQ_RSP_FLAGS, 0);
	rstop.flags = MMCHAL_RSP_R1B;
	CHECK_OK();
}

/* The summary of a list the fast check could not prove: "maybe" everywhere,
 * so that the planner scans the list itself (phys_or + len1_or would
 * overflow for a start in the top 4 GiB). */
static void test_request_summary_of_top_list(void **state)
{
	struct mmchal_req_check_info info;

	(void)state;
	slow_request();
	memset(&info, 0, sizeof(info));
	assert_int_equal(mmchal_request_check(&rq, &rl, &info), 0);
	assert_int_equal(info.why, MMCHAL_REQ_OK);
	assert_true(info.sum.valid);
	assert_true(info.sum.phys_or == UINT64_MAX);
	assert_true(info.sum.last_and == 0);
	assert_true(info.sum.cross_or == UINT64_MAX);
	assert_int_equal(info.sum.len1_or, UINT32_MAX);
	/* a rejected request leaves no valid summary behind in the same info */
	rcmd.opcode = 64;
	assert_int_equal(mmchal_request_check(&rq, &rl, &info), MMCHAL_EINVAL);
	assert_int_equal(info.why, MMCHAL_REQ_OPCODE);
	assert_false(info.sum.valid);
	/* the summary of a list the fast check proves is exact */
	slow_request();
	rsg[0].phys = 0x10000;
	rsg[1].phys = 0x20800;
	assert_int_equal(mmchal_request_check(&rq, &rl, &info), 0);
	assert_true(info.sum.valid);
	assert_true(info.sum.phys_or == 0x30800);
	assert_true(info.sum.last_and == (0x107ffull & 0x20fffull));
	assert_true(info.sum.cross_or == ((0x10000ull ^ 0x107ff) | (0x20800ull ^ 0x20fff)));
	assert_int_equal(info.sum.len1_or, 2047);
}

static void test_request_sizes(void **state)
{
	(void)state;
	/* exactly 4 GiB - 1 in one entry: bytes_xfered holds it */
	slow_request();
	rq.sbc = NULL;
	rl.max_blk_size = 65535;
	rl.max_blk_count = 65537;
	rl.max_req_size = UINT64_MAX;
	rl.max_seg_size = UINT32_MAX;
	rl.seg_boundary = 0;
	rd.blksz = 65535; /* 65535 x 65537 = 2^32 - 1 */
	rd.blocks = 65537;
	rd.sg_len = 1;
	rsg[0].len = UINT32_MAX;
	CHECK_OK();
	/* 4 GiB does not fit bytes_xfered, whatever max_req_size says */
	slow_request();
	rq.sbc = NULL;
	rl.max_blk_count = UINT32_MAX;
	rl.max_req_size = UINT64_MAX;
	rd.blocks = 1u << 23;
	CHECK_BAD(MMCHAL_REQ_REQ_SIZE, 0);
}

static void test_request_virt_boundary(void **state)
{
	(void)state;
	/* a 2-byte virt_boundary: the interior end of entry 0 is odd */
	slow_request();
	rl.virt_boundary = 1;
	CHECK_OK();
	rsg[0].len = 2047;
	CHECK_BAD(MMCHAL_REQ_VIRT_BOUNDARY, 0);
	/* the first entry may start anywhere when it ends on the boundary */
	slow_request();
	rl.virt_boundary = 0xfff;
	rl.max_blk_count = 31;
	rl.max_req_size = 8192;
	rsbc.arg = 31;
	rd.blksz = 256;
	rd.blocks = 31;
	rsg[0].phys = TOP + 0x100;
	rsg[0].len = 0xf00;
	rsg[1].phys = UINT64_MAX - 0xfffu;
	rsg[1].len = 0x1000;
	CHECK_OK();
	/* the same below 4 GiB, where the fast check sees the unaligned start */
	rsg[0].phys = P0 + 0x100;
	rsg[1].phys = P0 + 0x1000;
	CHECK_OK();
	rsg[1].phys = P0 + 0x1100;
	CHECK_BAD(MMCHAL_REQ_VIRT_BOUNDARY, 1);
}

/* ------------------------------------------------------------ planner */

static struct mmchal_dma_caps caps;
static struct mmchal_iommu_caps icaps;
static struct mmchal_plan_env env;
static struct mmchal_sg sg[8];
static struct mmchal_data data;
static struct mmchal_dma_dir_caps eng;

/* An engine that takes anything, a coherent system, no IOMMU, no pool. */
static void open_engine(void)
{
	memset(&eng, 0, sizeof(eng));
	eng.max_segs = 8;
	eng.max_seg_size = UINT32_MAX;
	eng.coherent = true;
	memset(&icaps, 0, sizeof(icaps));
	env = (struct mmchal_plan_env){.dma = &caps, .seg_table = 8};
	memset(sg, 0, sizeof(sg));
	data = (struct mmchal_data){.dir = WR, .blksz = 1, .sg = sg};
}

/* Entry i: physical address and length; its CPU address is line aligned. */
static void entry(uint32_t i, uint64_t phys, uint32_t len)
{
	sg[i] = (struct mmchal_sg){.cpu = buf + 8192u * i, .phys = phys, .len = len};
	if (i + 1u > data.sg_len)
		data.sg_len = i + 1u;
	data.blocks = 0;
	for (uint32_t k = 0; k < data.sg_len; k++)
		data.blocks += sg[k].len;
}

static void apply_caps(void)
{
	memset(&caps, 0, sizeof(caps));
	caps.kind = MMCHAL_DMA_INTERNAL;
	caps.dir[WR] = eng;
	caps.dir[RD] = eng;
}

/*
 * Plan and compare with the expectation; then the same data through
 * mmchal_request_check() and mmchal_dma_plan_sum() with its summary (the
 * host's path) must give the same plan.
 */
static void plan_is(int line, enum mmchal_plan plan, enum mmchal_plan_reason reason,
		    enum mmchal_plan_nobounce nb, uint32_t index)
{
	struct mmchal_plan_result r, r2;
	struct mmchal_req_check_info info;
	struct mmchal_limits lim = {.max_segs = 64,
				    .max_seg_size = UINT32_MAX,
				    .max_blk_size = 1,
				    .max_blk_count = UINT32_MAX,
				    .max_req_size = UINT32_MAX};
	struct mmchal_cmd cmd = {.opcode = 25, .flags = MMCHAL_RSP_R1};
	struct mmchal_request req = {.cmd = &cmd, .data = &data};
	int err;

	apply_caps();
	memset(&r, 0xa5, sizeof(r));
	err = mmchal_dma_plan(&env, &data, &r);
	if (err != 0 || r.plan != plan || r.reason != reason || r.nobounce != nb ||
	    r.index != index)
		fail_msg("line %d: err %d plan %d reason %d nobounce %d index %u", line, err,
			 (int)r.plan, (int)r.reason, (int)r.nobounce, (unsigned)r.index);
	if (mmchal_request_check(&req, &lim, &info) != 0)
		return;
	memset(&r2, 0x5a, sizeof(r2));
	assert_true(info.sum.valid);
	assert_int_equal(mmchal_dma_plan_sum(&env, &data, &info.sum, &r2), 0);
	if (r.plan != r2.plan || r.reason != r2.reason || r.nobounce != r2.nobounce ||
	    r.index != r2.index || r.merge != r2.merge || r.iommu != r2.iommu)
		fail_msg("line %d: with the request's summary: plan %d reason %d index %u", line,
			 (int)r2.plan, (int)r2.reason, (unsigned)r2.index);
}

#define DIRECT()          plan_is(__LINE__, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, MMCHAL_NB_NONE, 0)
#define PIO(why, nb, idx) plan_is(__LINE__, MMCHAL_PLAN_PIO, why, nb, idx)
#define BOUNCED(why, idx) plan_is(__LINE__, MMCHAL_PLAN_BOUNCED, why, MMCHAL_NB_NONE, idx)

/* A list in the top 4 GiB: its summary says "maybe", the planner scans the
 * entries; every engine limit met exactly must still give DIRECT. */
static void test_plan_scan_exact_limits(void **state)
{
	(void)state;
	open_engine();
	entry(0, TOP, 4096);
	entry(1, TOP + 0x1000, 4096);
	DIRECT();
	/* an entry past the end of the list is not part of it */
	eng.addr_align = 8;
	sg[2] = (struct mmchal_sg){.cpu = buf + 1, .phys = TOP + 0x2001, .len = 3};
	DIRECT();
	/* as many entries as the engine chains, and as the table holds */
	eng.max_segs = 2;
	DIRECT();
	eng.max_segs = 1;
	PIO(MMCHAL_PR_SEGS, MMCHAL_NB_NO_POOL, 0);
	eng.max_segs = 8;
	env.seg_table = 2;
	DIRECT();
	env.seg_table = 1;
	PIO(MMCHAL_PR_SEGS, MMCHAL_NB_NO_POOL, 0);
	env.seg_table = 8;
	/* segments of exactly max_seg_size */
	eng.max_seg_size = 4096;
	DIRECT();
	eng.max_seg_size = 4095;
	PIO(MMCHAL_PR_SEG_SIZE, MMCHAL_NB_NO_POOL, 0);
	eng.max_seg_size = UINT32_MAX;
	/* segments that fill a boundary window without crossing it */
	eng.seg_boundary = 0xfff;
	DIRECT();
	entry(1, TOP + 0x1001, 4096);
	PIO(MMCHAL_PR_ALIGN, MMCHAL_NB_NO_POOL, 1);
	eng.addr_align = 0;
	PIO(MMCHAL_PR_BOUNDARY, MMCHAL_NB_NO_POOL, 1);
	/* 64 address bits: anything goes */
	open_engine();
	entry(0, TOP, 4096);
	entry(1, UINT64_MAX - 4095u, 4096);
	eng.addr_bits = 64;
	DIRECT();
	eng.addr_bits = 63;
	PIO(MMCHAL_PR_ADDR_BITS, MMCHAL_NB_NO_POOL, 0);
	/* one entry ending on the last byte of the address space */
	open_engine();
	entry(0, UINT64_MAX - 4095u, 4096);
	DIRECT();
	sg[0].phys++;
	assert_int_equal(mmchal_dma_plan(&env, &data, &(struct mmchal_plan_result){0}),
			 MMCHAL_EINVAL);
}

/* A summary that says "maybe" must say it in every test the planner makes
 * from it: here only the address bits could tell (a start in the top 4 GiB
 * beside a small one; phys_or + len1_or overflows). */
static void test_plan_scan_summary_overflow(void **state)
{
	(void)state;
	open_engine();
	eng.addr_bits = 48;
	env.bounce_limit = 1u << 20;
	entry(0, 0x800, 0x800);
	entry(1, UINT64_MAX - 0xfffu, 0x1000);
	BOUNCED(MMCHAL_PR_ADDR_BITS, 1);
	eng.addr_bits = 0;
	DIRECT();
}

/* The shortcut on the boundary of each of its tests, with lists below
 * 4 GiB whose summary is exact: one step inside, DIRECT; one step out, the
 * exact reason. */
static void test_plan_summary_boundaries(void **state)
{
	(void)state;
	/* start alignment */
	open_engine();
	eng.addr_align = 4;
	entry(0, P0 + 4, 8);
	DIRECT();
	sg[0].phys = P0 + 1;
	PIO(MMCHAL_PR_ALIGN, MMCHAL_NB_NO_POOL, 0);
	sg[0].phys = P0 + 2;
	PIO(MMCHAL_PR_ALIGN, MMCHAL_NB_NO_POOL, 0);
	/* length granule: start and end aligned, or lengths that tell */
	open_engine();
	eng.len_granule = 4;
	entry(0, P0 + 4, 8);
	DIRECT();
	entry(0, P0 + 2, 6);
	PIO(MMCHAL_PR_GRANULE, MMCHAL_NB_NO_POOL, 0);
	entry(0, P0, 6);
	PIO(MMCHAL_PR_GRANULE, MMCHAL_NB_NO_POOL, 0);
	entry(0, 0, 2);
	PIO(MMCHAL_PR_GRANULE, MMCHAL_NB_NO_POOL, 0);
	entry(0, P0 + 1, 3);
	PIO(MMCHAL_PR_GRANULE, MMCHAL_NB_NO_POOL, 0);
	entry(0, P0 + 2, 4); /* unaligned start, whole granules */
	DIRECT();
	entry(0, P0 + 1, 4);
	entry(1, P0 + 0x1000, 4);
	DIRECT();
	/* the largest segment */
	open_engine();
	eng.max_seg_size = 4096;
	entry(0, P0, 4096);
	DIRECT();
	entry(0, P0, 4097);
	PIO(MMCHAL_PR_SEG_SIZE, MMCHAL_NB_NO_POOL, 0);
	/* address bits: the last byte on 2^bits - 1, and one beyond */
	open_engine();
	eng.addr_bits = 32;
	entry(0, 0xfffffff8u, 8);
	DIRECT();
	entry(0, 0xfffffffcu, 8);
	PIO(MMCHAL_PR_ADDR_BITS, MMCHAL_NB_NO_POOL, 0);
	entry(0, 0x100000000ull, 1);
	PIO(MMCHAL_PR_ADDR_BITS, MMCHAL_NB_NO_POOL, 0);
	eng.addr_bits = 1;
	entry(0, 0, 2);
	DIRECT();
	entry(0, 0, 4);
	PIO(MMCHAL_PR_ADDR_BITS, MMCHAL_NB_NO_POOL, 0);
	/* a list the summary doubts (granule) but that ends on the last byte */
	open_engine();
	eng.addr_bits = 32;
	eng.len_granule = 4;
	entry(0, 0x1002, 4);
	entry(1, 0xfffff000u, 0x1000);
	DIRECT();
	entry(1, 0xfffff004u, 0x1000);
	PIO(MMCHAL_PR_ADDR_BITS, MMCHAL_NB_NO_POOL, 1);
	/* a 2-byte boundary */
	open_engine();
	eng.seg_boundary = 1;
	entry(0, P0, 2);
	DIRECT();
	entry(0, P0 + 1, 2);
	PIO(MMCHAL_PR_BOUNDARY, MMCHAL_NB_NO_POOL, 0);
}

static void test_plan_engine_lengths(void **state)
{
	(void)state;
	/* min_len and max_xfer met exactly */
	open_engine();
	entry(0, P0, 2048);
	entry(1, P0 + 4096, 2048);
	eng.min_len = 4096;
	DIRECT();
	eng.min_len = 4097;
	PIO(MMCHAL_PR_MIN_LEN, MMCHAL_NB_ENGINE, 0);
	eng.min_len = 0;
	eng.max_xfer = 4096;
	DIRECT();
	eng.max_xfer = 4095;
	PIO(MMCHAL_PR_XFER, MMCHAL_NB_ENGINE, 0);
	/* a data phase of no bytes is below a minimum of one */
	open_engine();
	entry(0, P0, 512);
	eng.min_len = 1;
	data.blksz = 512;
	data.blocks = 0;
	PIO(MMCHAL_PR_MIN_LEN, MMCHAL_NB_ENGINE, 0);
	data.blocks = 1;
	DIRECT();
}

static void test_plan_cache_lines(void **state)
{
	(void)state;
	/* non-coherent, reading into whole lines: an entry past the end of
	 * the list with an unaligned buffer is not looked at */
	open_engine();
	eng.coherent = false;
	env.cache_line = 64;
	data.dir = RD;
	entry(0, P0, 2048);
	entry(1, P0 + 8192, 2048);
	sg[2] = (struct mmchal_sg){.cpu = buf + 8, .phys = P0 + 16384, .len = 8};
	DIRECT();
	/* the buffer's last line shared: bounced */
	env.bounce_limit = 4096;
	sg[1].len = 2040;
	sg[0].len = 2056;
	entry(1, P0 + 8192, 2040);
	BOUNCED(MMCHAL_PR_SHARED_LINE, 0);
	/* a coherent system (no cache maintenance) needs no CPU address even
	 * with a non-snooping engine */
	open_engine();
	eng.coherent = false;
	data.dir = RD;
	entry(0, P0, 2048);
	entry(1, P0 + 8192, 2040);
	sg[0].cpu = NULL;
	sg[1].cpu = NULL;
	DIRECT();
	env.cache_line = 64;
	assert_int_equal(mmchal_dma_plan(&env, &data, &(struct mmchal_plan_result){0}),
			 MMCHAL_EINVAL);
}

/* Behind the IOMMU, an unmergeable list names the entry that stopped the
 * merge even when the engine then takes the segments one by one. */
static void test_plan_unmergeable_index(void **state)
{
	struct mmchal_plan_result r;

	(void)state;
	open_engine();
	apply_caps();
	icaps.present = true;
	icaps.page_size = 4096;
	icaps.merge_boundary = 0xfff;
	env.iommu = &icaps;
	env.merge = true;
	env.card = MMCHAL_CARD_MMC;
	entry(0, P0, 4096);
	entry(1, P0 + 0x2008, 2048);
	memset(&r, 0xa5, sizeof(r));
	assert_int_equal(mmchal_dma_plan(&env, &data, &r), 0);
	assert_int_equal(r.plan, MMCHAL_PLAN_DIRECT);
	assert_int_equal(r.reason, MMCHAL_PR_DIRECT_UNMERGEABLE);
	assert_int_equal(r.merge, MMCHAL_MERGE_UNALIGNED);
	assert_int_equal(r.index, 1);
	assert_true(r.iommu);
	sg[1].phys = P0 + 0x2000;
	assert_int_equal(mmchal_dma_plan(&env, &data, &r), 0);
	assert_int_equal(r.plan, MMCHAL_PLAN_IOMMU_MERGED);
	assert_int_equal(r.index, 0);
}

/*
 * A valid summary vouches for its list (dma_plan.h): the planner decides from
 * it and scans the list only to name an offending entry. To see which way
 * it went, these summaries sit exactly on the edge of every test the planner
 * makes from them while the list itself holds an entry the scan refuses
 * (longer than max_seg_size): DIRECT means the planner trusted the summary,
 * the scan's reason means it looked. One step over each edge, it must look.
 */
static struct mmchal_sg_summary vouch;

static void vouch_plan_is(int line, enum mmchal_plan plan, enum mmchal_plan_reason reason)
{
	struct mmchal_plan_result r;
	int err;

	apply_caps();
	memset(&r, 0xa5, sizeof(r));
	err = mmchal_dma_plan_sum(&env, &data, &vouch, &r);
	if (err != 0 || r.plan != plan || r.reason != reason || r.index != 0)
		fail_msg("line %d: err %d plan %d reason %d index %u", line, err, (int)r.plan,
			 (int)r.reason, (unsigned)r.index);
}

#define TRUSTED() vouch_plan_is(__LINE__, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT)
#define SCANNED() vouch_plan_is(__LINE__, MMCHAL_PLAN_PIO, MMCHAL_PR_SEG_SIZE)

/* Four entries of max_seg_size + 4 (aligned, whole granules): the scan says
 * SEG_SIZE at entry 0. The summary claims the edge of every test. */
static void vouch_setup(void)
{
	open_engine();
	eng.max_segs = 4;
	env.seg_table = 4;
	eng.addr_align = 8;
	eng.len_granule = 4;
	eng.max_seg_size = 4096;
	eng.addr_bits = 32;
	eng.seg_boundary = 0xffff;
	for (uint32_t i = 0; i < 4; i++)
		entry(i, 0x10000u * (i + 1u), 4100);
	vouch = (struct mmchal_sg_summary){.phys_or = 0xfffff000u,
					   .last_and = 0xfff,
					   .cross_or = 0xffff,
					   .len1_or = 4095,
					   .valid = true};
}

static void test_plan_trusts_vouching_summary(void **state)
{
	(void)state;
	vouch_setup();
	TRUSTED();
	/* one over each edge */
	vouch.phys_or |= 4; /* not aligned to 8 */
	SCANNED();
	vouch_setup();
	vouch.phys_or |= 2; /* not aligned to the granule */
	SCANNED();
	vouch_setup();
	vouch.phys_or |= 1;
	SCANNED();
	vouch_setup();
	vouch.last_and = 0xffe; /* an end not on the granule */
	SCANNED();
	vouch_setup();
	vouch.last_and = 0xffd;
	SCANNED();
	vouch_setup();
	vouch.len1_or = 4096; /* a segment of max_seg_size + 1 */
	SCANNED();
	vouch_setup();
	vouch.phys_or = 0xfffff008u; /* a last byte beyond 32 bits */
	SCANNED();
	vouch_setup();
	vouch.phys_or = 0x100000000ull;
	vouch.len1_or = 0;
	SCANNED();
	vouch_setup();
	vouch.cross_or = 0x1ffff; /* a 64 KiB boundary crossed */
	SCANNED();
	vouch_setup();
	entry(4, 0x50000, 4100); /* one more segment than the engine chains */
	vouch_plan_is(__LINE__, MMCHAL_PLAN_PIO, MMCHAL_PR_SEGS);
	vouch_setup();
	eng.max_segs = 8;
	entry(4, 0x50000, 4100);
	vouch_plan_is(__LINE__, MMCHAL_PLAN_PIO, MMCHAL_PR_SEGS);

	/* no alignment, granule, address bits or boundary: nothing to test but
	 * the count and the size, whatever the starts and ends */
	vouch_setup();
	eng.addr_align = 1;
	eng.len_granule = 0;
	eng.addr_bits = 0;
	eng.seg_boundary = 0;
	vouch.phys_or = 0xffffffffffff1001ull;
	vouch.last_and = 0;
	vouch.cross_or = UINT64_MAX;
	TRUSTED();
	eng.addr_align = 0;
	eng.len_granule = 1;
	TRUSTED();
	vouch.len1_or = 4096;
	SCANNED();
	/* 64 address bits: no limit */
	vouch_setup();
	eng.addr_bits = 64;
	vouch.phys_or = 0xfffffffffffff000ull;
	TRUSTED();
	eng.addr_bits = 63;
	SCANNED();
	/* behind the IOMMU (merging off) the device addresses are IOVAs: the
	 * physical starts, ends and boundaries do not count */
	vouch_setup();
	icaps.present = true;
	icaps.page_size = 4096;
	env.iommu = &icaps;
	vouch.phys_or = 0xfffffffffffff000ull;
	vouch.cross_or = UINT64_MAX;
	vouch_plan_is(__LINE__, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU);
	vouch.len1_or = 4096;
	SCANNED();
}

/* mmchal_dma_obstacle_() (the host's one-entry path calls it directly):
 * the index is the offending entry, 0 for the list count and for none. */
static void test_obstacle_index(void **state)
{
	uint32_t index = NOIDX;

	(void)state;
	open_engine();
	entry(0, P0, 512);
	entry(1, P0 + 4096, 512);
	entry(2, P0 + 8192, 512);
	apply_caps();
	assert_int_equal(mmchal_dma_obstacle_(&env, &caps.dir[WR], &data, false, &index),
			 MMCHAL_PR_COUNT);
	assert_int_equal(index, 0);
	caps.dir[WR].max_segs = 2;
	index = NOIDX;
	assert_int_equal(mmchal_dma_obstacle_(&env, &caps.dir[WR], &data, false, &index),
			 MMCHAL_PR_SEGS);
	assert_int_equal(index, 0);
	caps.dir[WR].max_segs = 3;
	caps.dir[WR].max_seg_size = 511;
	index = NOIDX;
	assert_int_equal(mmchal_dma_obstacle_(&env, &caps.dir[WR], &data, false, &index),
			 MMCHAL_PR_SEG_SIZE);
	assert_int_equal(index, 0);
	caps.dir[WR].max_seg_size = 512;
	caps.dir[WR].addr_bits = 32;
	sg[2].phys = 0xfffffe01u;
	index = NOIDX;
	assert_int_equal(mmchal_dma_obstacle_(&env, &caps.dir[WR], &data, false, &index),
			 MMCHAL_PR_ADDR_BITS);
	assert_int_equal(index, 2);
	index = NOIDX;
	assert_int_equal(mmchal_dma_obstacle_(&env, &caps.dir[WR], &data, true, &index),
			 MMCHAL_PR_COUNT);
	assert_int_equal(index, 0);
}

/* ------------------------------------------------------------ fallback */

static void test_fallback_edges(void **state)
{
	struct mmchal_plan_result r;

	(void)state;
	open_engine();
	eng.max_seg_size = 4096;
	env.bounce_limit = 4096;
	entry(0, P0, 2048);
	entry(1, P0 + 8192, 2048);
	apply_caps();
	/* a bounce region of exactly the limit and of exactly max_seg_size */
	memset(&r, 0xa5, sizeof(r));
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_ALIGN, &r), 0);
	assert_int_equal(r.plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(r.reason, MMCHAL_PR_ALIGN);
	assert_int_equal(r.nobounce, MMCHAL_NB_NONE);
	assert_int_equal(r.index, 0);
	assert_int_equal(r.merge, MMCHAL_MERGE_NO_IOMMU);
	assert_false(r.iommu);
	env.bounce_limit = 4095;
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_ALIGN, &r), 0);
	assert_int_equal(r.plan, MMCHAL_PLAN_PIO);
	assert_int_equal(r.nobounce, MMCHAL_NB_TOO_LARGE);
	env.bounce_limit = 4096;
	caps.dir[WR].max_seg_size = 4095;
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_ALIGN, &r), 0);
	assert_int_equal(r.plan, MMCHAL_PLAN_PIO);
	assert_int_equal(r.nobounce, MMCHAL_NB_ENGINE);
	caps.dir[WR].max_seg_size = 4096;
	/* a list of one entry */
	data.sg_len = 1;
	entry(0, P0, 4096);
	memset(&r, 0xa5, sizeof(r));
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_MAPPED_BAD, &r), 0);
	assert_int_equal(r.plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(r.reason, MMCHAL_PR_MAPPED_BAD);
	/* bad arguments: refused, the result untouched */
	memset(&r, 0xa5, sizeof(r));
	assert_int_equal(mmchal_dma_plan_fallback(NULL, &data, MMCHAL_PR_ALIGN, &r), MMCHAL_EINVAL);
	env.dma = NULL;
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_ALIGN, &r), MMCHAL_EINVAL);
	env.dma = &caps;
	data.sg = NULL;
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_ALIGN, &r), MMCHAL_EINVAL);
	data.sg = sg;
	data.sg_len = 0;
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_ALIGN, &r), MMCHAL_EINVAL);
	data.sg_len = 1;
	env.cache_line = 48;
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_ALIGN, &r), MMCHAL_EINVAL);
	env.cache_line = 0;
	assert_int_equal(mmchal_dma_plan_fallback(&env, NULL, MMCHAL_PR_ALIGN, &r), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_ALIGN, NULL),
			 MMCHAL_EINVAL);
	{
		struct mmchal_plan_result untouched;

		memset(&untouched, 0xa5, sizeof(untouched));
		assert_memory_equal(&r, &untouched, sizeof(r));
	}
}

/* ------------------------------------------------------------ mapped check */

static bool mapped(const struct mmchal_dma_dir_caps *c, const struct mmchal_dma_seg *s, uint32_t n,
		   uint32_t *index)
{
	return mmchal_dma_check_mapped(c, s, n, false, index);
}

static void mapped_is(int line, const struct mmchal_dma_dir_caps *c, const struct mmchal_dma_seg *s,
		      uint32_t n, bool ok, uint32_t index)
{
	uint32_t idx = NOIDX;
	bool got = mapped(c, s, n, &idx);

	if (got != ok || idx != index)
		fail_msg("line %d: %d index %u", line, (int)got, (unsigned)idx);
	/* without an index the same answer (and no write through NULL) */
	if (mapped(c, s, n, NULL) != ok)
		fail_msg("line %d: without index", line);
}

#define MAPPED_OK(c, s, n)       mapped_is(__LINE__, c, s, n, true, 0)
#define MAPPED_BAD(c, s, n, idx) mapped_is(__LINE__, c, s, n, false, idx)

static void test_check_mapped_edges(void **state)
{
	struct mmchal_dma_dir_caps c = {.max_segs = 4, .max_seg_size = 8192};
	struct mmchal_dma_seg s[4];

	(void)state;
	/* the top 4 GiB: the exact test runs and must accept valid segments */
	s[0] = (struct mmchal_dma_seg){TOP + 0x1000, 4096};
	s[1] = (struct mmchal_dma_seg){UINT64_MAX - 8191u, 8192}; /* last byte of the space */
	s[2] = (struct mmchal_dma_seg){TOP + 1, 0};               /* not part of the list */
	MAPPED_OK(&c, s, 2);
	c.addr_align = 1;
	MAPPED_OK(&c, s, 2);
	c.addr_align = 4096;
	c.len_granule = 4096;
	MAPPED_OK(&c, s, 2);
	c.max_seg_size = 8191;
	MAPPED_BAD(&c, s, 2, 1);
	c.max_seg_size = 8192;
	c.max_segs = 2;
	MAPPED_OK(&c, s, 2);
	c.addr_bits = 64;
	MAPPED_OK(&c, s, 2);
	c.addr_bits = 0;
	c.seg_boundary = 0x1fff;
	MAPPED_OK(&c, s, 2);
	s[1].addr -= 4096; /* crosses 8 KiB, and wraps no more */
	MAPPED_BAD(&c, s, 2, 1);
	c.seg_boundary = 0;
	MAPPED_OK(&c, s, 2);
	/* wrapping: the fast test must not pass it */
	c = (struct mmchal_dma_dir_caps){.max_segs = 4, .max_seg_size = 8192};
	s[0] = (struct mmchal_dma_seg){UINT64_MAX - 10u, 100};
	MAPPED_BAD(&c, s, 1, 0);
	s[0] = (struct mmchal_dma_seg){0x1000, 4096};
	s[1] = (struct mmchal_dma_seg){UINT64_MAX - 4094u, 4096};
	MAPPED_BAD(&c, s, 2, 1);
	s[1].addr--;
	MAPPED_OK(&c, s, 2);
	/* the largest segment */
	s[0] = (struct mmchal_dma_seg){0, 8192};
	MAPPED_OK(&c, s, 1);
	s[0].len = 8193;
	MAPPED_BAD(&c, s, 1, 0);
	/* the granule: a length not a multiple though the start is aligned */
	c.len_granule = 4;
	s[0] = (struct mmchal_dma_seg){0, 2};
	MAPPED_BAD(&c, s, 1, 0);
	s[0].len = 6;
	MAPPED_BAD(&c, s, 1, 0);
	s[0] = (struct mmchal_dma_seg){0x1000, 8};
	MAPPED_OK(&c, s, 1);
	s[0].addr = 0x1002; /* the granule is one of lengths, not of starts */
	MAPPED_OK(&c, s, 1);
	s[0].len = 10;
	MAPPED_BAD(&c, s, 1, 0);
	s[0].len = 8;
	c.len_granule = 0;
	MAPPED_OK(&c, s, 1);
	/* alignment */
	c.addr_align = 4;
	s[0] = (struct mmchal_dma_seg){1, 4};
	MAPPED_BAD(&c, s, 1, 0);
	s[0].addr = 4;
	MAPPED_OK(&c, s, 1);
	c.addr_align = 0;
	/* address bits: the last byte on 2^bits - 1, and one beyond */
	c.addr_bits = 1;
	s[0] = (struct mmchal_dma_seg){0, 2};
	MAPPED_OK(&c, s, 1);
	s[0].len = 4;
	MAPPED_BAD(&c, s, 1, 0);
	c.addr_bits = 32;
	s[0] = (struct mmchal_dma_seg){0xfffffff8u, 8};
	MAPPED_OK(&c, s, 1);
	s[0].addr = 0xfffffffcu;
	MAPPED_BAD(&c, s, 1, 0);
	s[0] = (struct mmchal_dma_seg){0x100000000ull, 1};
	MAPPED_BAD(&c, s, 1, 0);
	c.addr_bits = 0;
	/* a 2-byte boundary */
	c.seg_boundary = 1;
	s[0] = (struct mmchal_dma_seg){2, 2};
	MAPPED_OK(&c, s, 1);
	s[0].addr = 1;
	MAPPED_BAD(&c, s, 1, 0);
	c.seg_boundary = 0;
	/* the index of the first bad one among several */
	s[0] = (struct mmchal_dma_seg){0x1000, 8};
	s[1] = (struct mmchal_dma_seg){0x2000, 8};
	s[2] = (struct mmchal_dma_seg){0x3000, 8};
	MAPPED_OK(&c, s, 3);
	s[2].len = 0;
	MAPPED_BAD(&c, s, 3, 2);
	s[1].len = 8193;
	MAPPED_BAD(&c, s, 3, 1);
}

/* ------------------------------------------------------------ randomised */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t pick(const uint64_t *v, size_t n)
{
	return v[next() % n];
}

/* The rules of mmchal_dma_check_mapped(), one segment at a time. */
static bool ref_mapped(const struct mmchal_dma_dir_caps *c, const struct mmchal_dma_seg *s,
		       uint32_t n, uint32_t *index)
{
	*index = 0;
	if (n == 0 || n > c->max_segs)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = s[i].addr, len = s[i].len, last = a + len - 1u;
		bool bad = len == 0 || (c->addr_align > 1 && a % c->addr_align != 0) ||
			   (c->len_granule > 1 && len % c->len_granule != 0) ||
			   len > c->max_seg_size || last < a ||
			   (c->addr_bits != 0 && c->addr_bits < 64 &&
			    (last >> c->addr_bits) != 0) ||
			   (c->seg_boundary != 0 &&
			    (a & ~c->seg_boundary) != (last & ~c->seg_boundary));

		if (bad) {
			*index = i;
			return false;
		}
	}
	return true;
}

/* Addresses and lengths on and around every boundary the checks know. */
static const uint64_t bases[] = {0,
				 0x1000,
				 0x7fff0000u,
				 0xfffff000u,
				 0x100000000ull,
				 0xfffffffffffff000ull,
				 TOP,
				 0x0000fffffffff000ull};
static const uint64_t nudges[] = {0, 0, 0, 1, 2, 4, 8, 0xffc, 0xffe, 0xfff, 0x1000, 0x800};
static const uint64_t lens[] = {1, 2, 3, 4, 6, 8, 512, 4092, 4095, 4096, 4097, 8192, 0x1000};
static const uint64_t bits[] = {0, 1, 12, 32, 33, 48, 63, 64};
static const uint64_t pow2[] = {0, 1, 2, 4, 8, 4096};
/* boundary masks, and two that are not of the form 2^k - 1: the summary's
 * (cross_or & ~m) != 0 is exact for any m, and must agree with the scan */
static const uint64_t bounds[] = {0, 1, 0xfff, 0xffff, 0xffffffffu, 2, 0xff00};
static const uint64_t sizes[] = {1, 4095, 4096, 4097, 8192, UINT32_MAX};

static void random_caps(struct mmchal_dma_dir_caps *c)
{
	memset(c, 0, sizeof(*c));
	c->addr_bits = (uint8_t)pick(bits, 8);
	c->addr_align = (uint32_t)pick(pow2, 6);
	c->len_granule = (uint32_t)pick(pow2, 6);
	c->max_segs = 1u + (uint32_t)(next() % 4);
	c->max_seg_size = (uint32_t)pick(sizes, 6);
	c->seg_boundary = pick(bounds, 7);
	c->coherent = true;
}

static void random_segment(uint64_t *addr, uint32_t *len)
{
	uint64_t l = pick(lens, 13);

	*addr = pick(bases, 8) + pick(nudges, 12);
	if (next() % 4 == 0) /* end exactly on a base */
		*addr = pick(bases, 8) - l;
	*len = (uint32_t)l;
}

static void test_check_mapped_random(void **state)
{
	struct mmchal_dma_dir_caps c;
	struct mmchal_dma_seg s[5];

	(void)state;
	for (int k = 0; k < 40000; k++) {
		uint32_t n = 1u + (uint32_t)(next() % 4), want_i, got_i = NOIDX;
		bool want, got;

		random_caps(&c);
		for (uint32_t i = 0; i < 5; i++)
			random_segment(&s[i].addr, &s[i].len);
		want = ref_mapped(&c, s, n, &want_i);
		got = mmchal_dma_check_mapped(&c, s, n, false, &got_i);
		if (got != want || got_i != want_i)
			fail_msg("case %d: got %d/%u want %d/%u", k, (int)got, (unsigned)got_i,
				 (int)want, (unsigned)want_i);
	}
}

/* The planner's engine test (dma_plan.h step 5) without IOMMU, the first
 * failing rule of the first failing entry. */
static enum mmchal_plan_reason ref_obstacle(const struct mmchal_dma_dir_caps *c, uint32_t table,
					    const struct mmchal_sg *e, uint32_t n, uint32_t *index)
{
	*index = 0;
	if (n > c->max_segs || n > table)
		return MMCHAL_PR_SEGS;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = e[i].phys, len = e[i].len, last = a + len - 1u;

		*index = i;
		if (c->addr_align > 1 && a % c->addr_align != 0)
			return MMCHAL_PR_ALIGN;
		if (c->len_granule > 1 && len % c->len_granule != 0)
			return MMCHAL_PR_GRANULE;
		if (len > c->max_seg_size)
			return MMCHAL_PR_SEG_SIZE;
		if (c->addr_bits != 0 && c->addr_bits < 64 && (last >> c->addr_bits) != 0)
			return MMCHAL_PR_ADDR_BITS;
		if (c->seg_boundary != 0 && (a & ~c->seg_boundary) != (last & ~c->seg_boundary))
			return MMCHAL_PR_BOUNDARY;
	}
	*index = 0;
	return MMCHAL_PR_COUNT;
}

static void test_plan_random(void **state)
{
	(void)state;
	for (int k = 0; k < 20000; k++) {
		struct mmchal_plan_result r, r2;
		struct mmchal_req_check_info info;
		struct mmchal_limits lim = {.max_segs = 64,
					    .max_seg_size = UINT32_MAX,
					    .max_blk_size = 1,
					    .max_blk_count = UINT32_MAX,
					    .max_req_size = UINT32_MAX};
		struct mmchal_cmd cmd = {.opcode = 25, .flags = MMCHAL_RSP_R1};
		struct mmchal_request req = {.cmd = &cmd, .data = &data};
		enum mmchal_plan_reason want;
		uint32_t n = 1u + (uint32_t)(next() % 5), want_i;

		open_engine();
		random_caps(&eng);
		env.seg_table = 1u + (uint32_t)(next() % 5);
		for (uint32_t i = 0; i < n; i++) {
			uint64_t a;
			uint32_t len;

			do
				random_segment(&a, &len);
			while (a > UINT64_MAX - (len - 1u)); /* the planner refuses those */
			entry(i, a, len);
		}
		apply_caps();
		want = ref_obstacle(&eng, env.seg_table, sg, n, &want_i);
		memset(&r, 0xa5, sizeof(r));
		assert_int_equal(mmchal_dma_plan(&env, &data, &r), 0);
		if (want == MMCHAL_PR_COUNT ? (r.plan != MMCHAL_PLAN_DIRECT || r.index != 0)
					    : (r.reason != want || r.index != want_i))
			fail_msg("case %d: plan %d reason %d index %u, want reason %d index %u", k,
				 (int)r.plan, (int)r.reason, (unsigned)r.index, (int)want,
				 (unsigned)want_i);
		/* the host's path: the request's summary gives the same plan */
		assert_int_equal(mmchal_request_check(&req, &lim, &info), 0);
		memset(&r2, 0x5a, sizeof(r2));
		assert_int_equal(mmchal_dma_plan_sum(&env, &data, &info.sum, &r2), 0);
		if (r2.plan != r.plan || r2.reason != r.reason || r2.index != r.index)
			fail_msg("case %d: with the summary: reason %d index %u", k, (int)r2.reason,
				 (unsigned)r2.index);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_exact_limits),
		cmocka_unit_test(test_request_summary_of_top_list),
		cmocka_unit_test(test_request_sizes),
		cmocka_unit_test(test_request_virt_boundary),
		cmocka_unit_test(test_plan_scan_exact_limits),
		cmocka_unit_test(test_plan_scan_summary_overflow),
		cmocka_unit_test(test_plan_summary_boundaries),
		cmocka_unit_test(test_plan_engine_lengths),
		cmocka_unit_test(test_plan_cache_lines),
		cmocka_unit_test(test_plan_unmergeable_index),
		cmocka_unit_test(test_plan_trusts_vouching_summary),
		cmocka_unit_test(test_obstacle_index),
		cmocka_unit_test(test_fallback_edges),
		cmocka_unit_test(test_check_mapped_edges),
		cmocka_unit_test(test_check_mapped_random),
		cmocka_unit_test(test_plan_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
