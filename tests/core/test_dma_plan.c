/*
 * Request validation and the DMA planner (src/core/dma_plan.c): one table
 * row per validation error, one per plan and reason (including the
 * shared-cache-line rule and the IOMMU cases), the fallback and the
 * post-mapping check.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/dma_plan.h>

static _Alignas(4096) unsigned char mem[32768];

/* ------------------------------------------------------------ validation */

static struct mmchal_limits lim;
static struct mmchal_cmd sbc, cmd, stop;
static struct mmchal_data data;
static struct mmchal_sg sg[4];
static struct mmchal_request req;

/* A valid CMD18 of 8 x 512 bytes in two 2 KiB pieces, with CMD12. */
static void base_request(void)
{
	memset(&lim, 0, sizeof(lim));
	lim.max_segs = 4;
	lim.max_seg_size = 65536;
	lim.max_blk_size = 512;
	lim.max_blk_count = 16;
	lim.max_req_size = 8192;
	lim.seg_boundary = 0xffffffffu;
	sbc = (struct mmchal_cmd){.opcode = 23, .arg = 8, .flags = MMCHAL_RSP_R1};
	cmd = (struct mmchal_cmd){.opcode = 18, .arg = 0, .flags = MMCHAL_RSP_R1};
	stop = (struct mmchal_cmd){.opcode = 12, .flags = MMCHAL_RSP_R1B};
	sg[0] = (struct mmchal_sg){.cpu = mem, .phys = 0x80000000u, .len = 2048};
	sg[1] = (struct mmchal_sg){.cpu = mem + 4096, .phys = 0x80001000u, .len = 2048};
	data = (struct mmchal_data){
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 8, .sg = sg, .sg_len = 2};
	req = (struct mmchal_request){.cmd = &cmd, .data = &data, .stop = &stop};
}

enum mut {
	M_NONE,
	M_NULL_CMD,
	M_OPCODE,
	M_FLAGS_UNKNOWN,
	M_FLAGS_NO_PRESENT,
	M_STOP_OPCODE,
	M_DATA_NO_RSP,
	M_DATA_R2,
	M_DATA_R1B,
	M_DIR,
	M_BLKSZ0,
	M_BLKSZ_BIG,
	M_BLOCKS0,
	M_BLOCKS_BIG,
	M_REQ_SIZE,
	M_NO_SG,
	M_SG_LEN0,
	M_SEGS,
	M_SEG_ZERO,
	M_SEG_SIZE,
	M_SEG_WRAP,
	M_SEG_BOUNDARY,
	M_VIRT_START,
	M_VIRT_END,
	M_SUM,
	M_SBC_NO_DATA,
	M_SBC_OPEN,
	M_SBC_COUNT,
	M_STOP_NO_DATA,
	M_SBC_OK,
	M_SBC_SD_OK,
	M_SBC_SD_COUNT,
	M_SBC_MMC_LOW_OK,
	M_VIRT_OK,
	M_NO_DATA_OK,
};

static const struct {
	enum mut m;
	enum mmchal_req_check why;
	uint32_t index;
} vrows[] = {
	{M_NONE, MMCHAL_REQ_OK, 0},
	{M_NULL_CMD, MMCHAL_REQ_NULL, 0},
	{M_OPCODE, MMCHAL_REQ_OPCODE, 0},
	{M_FLAGS_UNKNOWN, MMCHAL_REQ_RSP_FLAGS, 0},
	{M_FLAGS_NO_PRESENT, MMCHAL_REQ_RSP_FLAGS, 0},
	{M_STOP_OPCODE, MMCHAL_REQ_OPCODE, 0},
	{M_DATA_NO_RSP, MMCHAL_REQ_DATA_CMD, 0},
	{M_DATA_R2, MMCHAL_REQ_DATA_CMD, 0},
	{M_DATA_R1B, MMCHAL_REQ_DATA_CMD, 0},
	{M_DIR, MMCHAL_REQ_DIR, 0},
	{M_BLKSZ0, MMCHAL_REQ_BLKSZ, 0},
	{M_BLKSZ_BIG, MMCHAL_REQ_BLKSZ, 0},
	{M_BLOCKS0, MMCHAL_REQ_BLOCKS, 0},
	{M_BLOCKS_BIG, MMCHAL_REQ_BLOCKS, 0},
	{M_REQ_SIZE, MMCHAL_REQ_REQ_SIZE, 0},
	{M_NO_SG, MMCHAL_REQ_NO_SG, 0},
	{M_SG_LEN0, MMCHAL_REQ_NO_SG, 0},
	{M_SEGS, MMCHAL_REQ_SEGS, 0},
	{M_SEG_ZERO, MMCHAL_REQ_SEG_ZERO, 1},
	{M_SEG_SIZE, MMCHAL_REQ_SEG_SIZE, 1},
	{M_SEG_WRAP, MMCHAL_REQ_SEG_WRAP, 1},
	{M_SEG_BOUNDARY, MMCHAL_REQ_SEG_BOUNDARY, 1},
	{M_VIRT_START, MMCHAL_REQ_VIRT_BOUNDARY, 1},
	{M_VIRT_END, MMCHAL_REQ_VIRT_BOUNDARY, 0},
	{M_SUM, MMCHAL_REQ_SUM, 0},
	{M_SBC_NO_DATA, MMCHAL_REQ_SBC_NO_DATA, 0},
	{M_SBC_OPEN, MMCHAL_REQ_SBC_COUNT, 0},
	{M_SBC_COUNT, MMCHAL_REQ_SBC_COUNT, 0},
	{M_STOP_NO_DATA, MMCHAL_REQ_STOP_NO_DATA, 0},
	{M_SBC_OK, MMCHAL_REQ_OK, 0},
	{M_SBC_SD_OK, MMCHAL_REQ_OK, 0},
	{M_SBC_SD_COUNT, MMCHAL_REQ_SBC_COUNT, 0},
	{M_SBC_MMC_LOW_OK, MMCHAL_REQ_OK, 0},
	{M_VIRT_OK, MMCHAL_REQ_OK, 0},
	{M_NO_DATA_OK, MMCHAL_REQ_OK, 0},
};

/* The base request as @p blocks blocks of 4 bytes in two pieces, with CMD23, on
   limits that allow it. */
static void big_blocks(uint32_t blocks)
{
	lim.max_blk_count = UINT32_MAX;
	lim.max_req_size = UINT64_MAX;
	lim.max_seg_size = 1u << 20;
	data.blksz = 4;
	data.blocks = blocks;
	sg[0].len = blocks * 2u;
	sg[1].len = blocks * 2u;
	req.sbc = &sbc;
}

static void mutate(enum mut m)
{
	switch (m) {
	case M_NONE:
		break;
	case M_NULL_CMD:
		req.cmd = NULL;
		break;
	case M_OPCODE:
		cmd.opcode = 64;
		break;
	case M_FLAGS_UNKNOWN:
		cmd.flags |= 1u << 7;
		break;
	case M_FLAGS_NO_PRESENT:
		cmd.flags = MMCHAL_RSP_CRC;
		break;
	case M_STOP_OPCODE:
		stop.opcode = 99;
		break;
	case M_DATA_NO_RSP:
		cmd.flags = MMCHAL_RSP_NONE;
		break;
	case M_DATA_R2:
		cmd.flags = MMCHAL_RSP_R2;
		break;
	case M_DATA_R1B:
		cmd.flags = MMCHAL_RSP_R1B;
		break;
	case M_DIR:
		data.dir = (enum mmchal_dir)2;
		break;
	case M_BLKSZ0:
		data.blksz = 0;
		break;
	case M_BLKSZ_BIG:
		data.blksz = 1024;
		data.blocks = 4;
		break;
	case M_BLOCKS0:
		data.blocks = 0;
		break;
	case M_BLOCKS_BIG:
		data.blocks = 17;
		break;
	case M_REQ_SIZE:
		lim.max_req_size = 4095;
		break;
	case M_NO_SG:
		data.sg = NULL;
		break;
	case M_SG_LEN0:
		data.sg_len = 0;
		break;
	case M_SEGS:
		lim.max_segs = 1;
		break;
	case M_SEG_ZERO:
		sg[1].len = 0;
		break;
	case M_SEG_SIZE:
		lim.max_seg_size = 2047;
		sg[0].len = 2047;
		sg[1].len = 2049;
		break;
	case M_SEG_WRAP:
		sg[1].phys = UINT64_MAX - 100;
		break;
	case M_SEG_BOUNDARY:
		sg[1].phys = 0xfffffc00u;
		break;
	case M_VIRT_START: /* sg[0] ends on the page, sg[1] starts 8 bytes in */
		lim.virt_boundary = 0xfff;
		sg[0].phys = 0x80000800u;
		sg[1].phys = 0x80001008u;
		break;
	case M_VIRT_END:
		lim.virt_boundary = 0xfff;
		break; /* sg[0] ends mid-page */
	case M_SUM:
		sg[1].len = 1024;
		break;
	case M_SBC_NO_DATA:
		req.sbc = &sbc;
		req.data = NULL;
		req.stop = NULL;
		break;
	case M_SBC_OPEN:
		req.sbc = &sbc;
		sbc.arg = 0;
		break;
	case M_SBC_COUNT:
		req.sbc = &sbc;
		sbc.arg = 7;
		break;
	case M_STOP_NO_DATA:
		req.data = NULL;
		break;
	case M_SBC_OK:
		req.sbc = &sbc;
		sbc.arg = (1u << 31) | 8u;
		break;
	case M_SBC_SD_OK: /* SD: the whole argument is the count */
		big_blocks(70000);
		sbc.arg = 70000;
		break;
	case M_SBC_SD_COUNT: /* neither its bits 15:0 nor the whole are 70000 */
		big_blocks(70000);
		sbc.arg = 70001;
		break;
	case M_SBC_MMC_LOW_OK: /* eMMC: bits 15:0 are the count, bit 16 is none */
		big_blocks(70000 - 65536);
		sbc.arg = 70000;
		break;
	case M_VIRT_OK:
		lim.virt_boundary = 0xfff;
		sg[0].phys = 0x80000800u;
		break;
	case M_NO_DATA_OK:
		req.data = NULL;
		req.stop = NULL;
		cmd.flags = MMCHAL_RSP_R1B;
		break;
	}
}

static void test_validation_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(vrows) / sizeof(vrows[0]); i++) {
		struct mmchal_req_check_info info = {.why = MMCHAL_REQ_CHECK_COUNT, .index = 99};
		int want = vrows[i].why == MMCHAL_REQ_OK ? 0 : MMCHAL_EINVAL;

		base_request();
		mutate(vrows[i].m);
		info.sum.valid = req.data == NULL; /* the opposite of the answer below */
		assert_int_equal(mmchal_request_check(&req, &lim, &info), want);
		assert_int_equal(info.why, vrows[i].why);
		assert_int_equal(info.index, vrows[i].index);
		/* a summary only of a list that passed */
		assert_int_equal(info.sum.valid, want == 0 && req.data != NULL);
		assert_int_equal(mmchal_request_check(&req, &lim, NULL), want);
	}
	base_request();
	assert_int_equal(mmchal_request_check(NULL, &lim, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_request_check(&req, NULL, NULL), MMCHAL_EINVAL);
	/* bytes_xfered is 32 bits: a request of 4 GiB is refused */
	lim.max_req_size = UINT64_MAX;
	lim.max_blk_count = UINT32_MAX;
	data.blocks = 1u << 23;
	assert_int_equal(mmchal_request_check(&req, &lim, NULL), MMCHAL_EINVAL);
}

/* ------------------------------------------------------------ planner */

struct prow {
	const char *name;
	enum mmchal_dma_kind kind;
	uint32_t max_segs, align, granule, seg_size, min_len;
	uint8_t addr_bits;
	uint64_t boundary, max_xfer;
	bool coherent;
	int iommu; /* 0 none, 1 present, can merge */
	bool merge;
	enum mmchal_card_type card;
	uint32_t cache_line;
	uint64_t bounce;
	uint32_t seg_table;
	enum mmchal_dir dir;
	uint64_t phys; /* physical base of mem */
	uint32_t n;
	uint32_t off[3], len[3]; /* offsets into mem, lengths */
	enum mmchal_plan plan;
	enum mmchal_plan_reason reason;
	enum mmchal_plan_nobounce nb;
	uint32_t index;
	enum mmchal_merge_reason merge_why;
};

#define RD  MMCHAL_DIR_FROM_CARD
#define WR  MMCHAL_DIR_TO_CARD
#define INT MMCHAL_DMA_INTERNAL
#define P0  0x80000000u

static const struct prow prows[] = {
	/* name, kind, segs, align, gran, segsz, minlen, bits, bound, xfer, coh, iommu, merge, card,
	   line, bounce, table, dir, phys, n, off, len -> plan, reason, nb, index, merge */
	{"pio only",
	 MMCHAL_DMA_NONE,
	 1,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 0,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_PIO,
	 MMCHAL_PR_NO_ENGINE,
	 MMCHAL_NB_NONE,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"direct",
	 INT,
	 4,
	 4,
	 0,
	 65536,
	 0,
	 32,
	 0xffffffffu,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 0,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_DIRECT,
	 MMCHAL_PR_DIRECT,
	 MMCHAL_NB_NONE,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"min len",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 8192,
	 0,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 1 << 20,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_PIO,
	 MMCHAL_PR_MIN_LEN,
	 MMCHAL_NB_ENGINE,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"max xfer",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 2048,
	 true,
	 0,
	 false,
	 0,
	 0,
	 1 << 20,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_PIO,
	 MMCHAL_PR_XFER,
	 MMCHAL_NB_ENGINE,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"shared line, bounced",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 false,
	 0,
	 false,
	 0,
	 64,
	 1 << 20,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4104},
	 {2048, 2048},
	 MMCHAL_PLAN_BOUNCED,
	 MMCHAL_PR_SHARED_LINE,
	 MMCHAL_NB_NONE,
	 1,
	 MMCHAL_MERGE_NO_IOMMU},
	{"shared line end, pio",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 false,
	 0,
	 false,
	 0,
	 64,
	 0,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2040, 2056},
	 MMCHAL_PLAN_PIO,
	 MMCHAL_PR_SHARED_LINE,
	 MMCHAL_NB_NO_POOL,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"shared line behind iommu",
	 INT,
	 512,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 false,
	 1,
	 true,
	 MMCHAL_CARD_MMC,
	 64,
	 0,
	 8,
	 RD,
	 P0,
	 2,
	 {8, 4096},
	 {4088, 8},
	 MMCHAL_PLAN_PIO,
	 MMCHAL_PR_SHARED_LINE,
	 MMCHAL_NB_NO_POOL,
	 0,
	 MMCHAL_MERGE_OK},
	{"unaligned write is fine",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 false,
	 0,
	 false,
	 0,
	 64,
	 0,
	 8,
	 WR,
	 P0,
	 2,
	 {8, 4104},
	 {2048, 2048},
	 MMCHAL_PLAN_DIRECT,
	 MMCHAL_PR_DIRECT,
	 MMCHAL_NB_NONE,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"coherent engine",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 64,
	 0,
	 8,
	 RD,
	 P0,
	 2,
	 {8, 4104},
	 {2048, 2048},
	 MMCHAL_PLAN_DIRECT,
	 MMCHAL_PR_DIRECT,
	 MMCHAL_NB_NONE,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"segs, bounced",
	 INT,
	 1,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 1 << 20,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_BOUNCED,
	 MMCHAL_PR_SEGS,
	 MMCHAL_NB_NONE,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"segs of the table",
	 INT,
	 8,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 0,
	 1,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_PIO,
	 MMCHAL_PR_SEGS,
	 MMCHAL_NB_NO_POOL,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"segs, too large",
	 INT,
	 1,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 2048,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_PIO,
	 MMCHAL_PR_SEGS,
	 MMCHAL_NB_TOO_LARGE,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"segs, engine",
	 INT,
	 1,
	 0,
	 0,
	 2048,
	 0,
	 0,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 1 << 20,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_PIO,
	 MMCHAL_PR_SEGS,
	 MMCHAL_NB_ENGINE,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"align",
	 INT,
	 4,
	 8,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 1 << 20,
	 8,
	 WR,
	 P0,
	 2,
	 {0, 4100},
	 {2048, 2048},
	 MMCHAL_PLAN_BOUNCED,
	 MMCHAL_PR_ALIGN,
	 MMCHAL_NB_NONE,
	 1,
	 MMCHAL_MERGE_NO_IOMMU},
	{"granule",
	 INT,
	 4,
	 0,
	 4096,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 1 << 20,
	 8,
	 WR,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_BOUNCED,
	 MMCHAL_PR_GRANULE,
	 MMCHAL_NB_NONE,
	 0,
	 MMCHAL_MERGE_NO_IOMMU},
	{"seg size",
	 INT,
	 4,
	 0,
	 0,
	 2000,
	 0,
	 0,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 1 << 20,
	 8,
	 WR,
	 P0,
	 3,
	 {0, 4096, 8192},
	 {1024, 1024, 2048},
	 MMCHAL_PLAN_PIO,
	 MMCHAL_PR_SEG_SIZE,
	 MMCHAL_NB_ENGINE,
	 2,
	 MMCHAL_MERGE_NO_IOMMU},
	{"addr bits",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 0,
	 32,
	 0,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 1 << 20,
	 8,
	 WR,
	 0xfffff000u,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_BOUNCED,
	 MMCHAL_PR_ADDR_BITS,
	 MMCHAL_NB_NONE,
	 1,
	 MMCHAL_MERGE_NO_IOMMU},
	{"boundary",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0xfff,
	 0,
	 true,
	 0,
	 false,
	 0,
	 0,
	 1 << 20,
	 8,
	 WR,
	 P0,
	 2,
	 {0, 7168},
	 {2048, 2048},
	 MMCHAL_PLAN_BOUNCED,
	 MMCHAL_PR_BOUNDARY,
	 MMCHAL_NB_NONE,
	 1,
	 MMCHAL_MERGE_NO_IOMMU},
	{"merged",
	 INT,
	 1,
	 0,
	 0,
	 1 << 20,
	 0,
	 32,
	 0,
	 0,
	 true,
	 1,
	 true,
	 MMCHAL_CARD_MMC,
	 0,
	 0,
	 1,
	 RD,
	 P0,
	 2,
	 {2048, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_IOMMU_MERGED,
	 MMCHAL_PR_MERGED,
	 MMCHAL_NB_NONE,
	 0,
	 MMCHAL_MERGE_OK},
	{"unmergeable",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 0,
	 32,
	 0,
	 0,
	 true,
	 1,
	 true,
	 MMCHAL_CARD_MMC,
	 0,
	 0,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_DIRECT,
	 MMCHAL_PR_DIRECT_UNMERGEABLE,
	 MMCHAL_NB_NONE,
	 0,
	 MMCHAL_MERGE_UNALIGNED},
	{"iommu, merging off",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 true,
	 1,
	 false,
	 MMCHAL_CARD_SDIO,
	 0,
	 0,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_DIRECT,
	 MMCHAL_PR_DIRECT_IOMMU,
	 MMCHAL_NB_NONE,
	 0,
	 MMCHAL_MERGE_OK},
	{"iommu: device addresses are IOVAs",
	 INT,
	 4,
	 0,
	 0,
	 65536,
	 0,
	 32,
	 0xfff,
	 0,
	 true,
	 1,
	 false,
	 MMCHAL_CARD_SD,
	 0,
	 0,
	 8,
	 WR,
	 0xfffff000u,
	 2,
	 {0, 6144},
	 {2048, 2048},
	 MMCHAL_PLAN_DIRECT,
	 MMCHAL_PR_DIRECT_IOMMU,
	 MMCHAL_NB_NONE,
	 0,
	 MMCHAL_MERGE_OK},
	{"iommu, engine segs",
	 INT,
	 1,
	 0,
	 0,
	 65536,
	 0,
	 0,
	 0,
	 0,
	 true,
	 1,
	 true,
	 MMCHAL_CARD_SDIO,
	 0,
	 0,
	 8,
	 RD,
	 P0,
	 2,
	 {0, 4096},
	 {2048, 2048},
	 MMCHAL_PLAN_PIO,
	 MMCHAL_PR_SEGS,
	 MMCHAL_NB_NO_POOL,
	 0,
	 MMCHAL_MERGE_CARD_TYPE},
};

static struct mmchal_dma_caps dcaps;
static struct mmchal_iommu_caps icaps;
static struct mmchal_plan_env env;

static void build(const struct prow *r)
{
	memset(&dcaps, 0, sizeof(dcaps));
	dcaps.kind = r->kind;
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		struct mmchal_dma_dir_caps *c = &dcaps.dir[d];

		c->max_segs = r->max_segs;
		c->addr_align = r->align;
		c->len_granule = r->granule;
		c->max_seg_size = r->seg_size;
		c->min_len = r->min_len;
		c->addr_bits = r->addr_bits;
		c->seg_boundary = r->boundary;
		c->max_xfer = r->max_xfer;
		c->coherent = r->coherent;
	}
	memset(&icaps, 0, sizeof(icaps));
	if (r->iommu) {
		icaps.present = true;
		icaps.page_size = 4096;
		icaps.merge_boundary = 0xfff;
	}
	env = (struct mmchal_plan_env){.dma = &dcaps,
				       .iommu = r->iommu ? &icaps : NULL,
				       .merge = r->merge,
				       .card = r->card,
				       .bounce_limit = r->bounce,
				       .cache_line = r->cache_line,
				       .seg_table = r->seg_table};
	memset(sg, 0, sizeof(sg));
	for (uint32_t i = 0; i < r->n; i++) {
		sg[i].cpu = mem + r->off[i];
		sg[i].phys = r->phys + r->off[i];
		sg[i].len = r->len[i];
	}
	data = (struct mmchal_data){.dir = r->dir, .blksz = 512, .sg = sg, .sg_len = r->n};
	data.blocks = 0;
	for (uint32_t i = 0; i < r->n; i++)
		data.blocks += r->len[i];
	data.blksz = 8;
	data.blocks /= 8;
}

static void test_plan_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(prows) / sizeof(prows[0]); i++) {
		const struct prow *r = &prows[i];
		struct mmchal_plan_result res;

		build(r);
		memset(&res, 0xa5, sizeof(res));
		assert_int_equal(mmchal_dma_plan(&env, &data, &res), 0);
		if (res.plan != r->plan || res.reason != r->reason || res.nobounce != r->nb ||
		    res.index != r->index || res.merge != r->merge_why)
			fail_msg("row '%s': plan %d reason %d nobounce %d index %u merge %d",
				 r->name, (int)res.plan, (int)res.reason, (int)res.nobounce,
				 (unsigned)res.index, (int)res.merge);
		assert_int_equal(res.iommu, r->iommu && (r->plan == MMCHAL_PLAN_DIRECT ||
							 r->plan == MMCHAL_PLAN_IOMMU_MERGED));
	}
}

static void test_plan_every_reason_covered(void **state)
{
	bool seen[MMCHAL_PR_COUNT] = {false};

	(void)state;
	for (size_t i = 0; i < sizeof(prows) / sizeof(prows[0]); i++)
		seen[prows[i].reason] = true;
	/* the two reasons only the fallback gives */
	seen[MMCHAL_PR_RETRY] = true;
	seen[MMCHAL_PR_MAPPED_BAD] = true;
	for (int r = 0; r < MMCHAL_PR_COUNT; r++)
		assert_true(seen[r]);
}

static void test_plan_needs_cpu_address(void **state)
{
	struct mmchal_plan_result res;

	(void)state;
	/* PIO needs it */
	build(&prows[0]);
	sg[1].cpu = NULL;
	assert_int_equal(mmchal_dma_plan(&env, &data, &res), MMCHAL_EINVAL);
	/* DMA on a coherent system does not */
	build(&prows[1]);
	sg[1].cpu = NULL;
	assert_int_equal(mmchal_dma_plan(&env, &data, &res), 0);
	assert_int_equal(res.plan, MMCHAL_PLAN_DIRECT);
	/* bouncing needs it */
	build(&prows[9]);
	sg[0].cpu = NULL;
	assert_int_equal(mmchal_dma_plan(&env, &data, &res), MMCHAL_EINVAL);
	/* cache maintenance needs it */
	build(&prows[7]);
	sg[0].cpu = NULL;
	assert_int_equal(mmchal_dma_plan(&env, &data, &res), MMCHAL_EINVAL);
	/* bad arguments */
	build(&prows[1]);
	assert_int_equal(mmchal_dma_plan(NULL, &data, &res), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dma_plan(&env, NULL, &res), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dma_plan(&env, &data, NULL), MMCHAL_EINVAL);
	env.seg_table = 0;
	assert_int_equal(mmchal_dma_plan(&env, &data, &res), MMCHAL_EINVAL);
	env.seg_table = 8;
	data.dir = (enum mmchal_dir)7;
	assert_int_equal(mmchal_dma_plan(&env, &data, &res), MMCHAL_EINVAL);
}

static void test_fallback(void **state)
{
	struct mmchal_plan_result res;

	(void)state;
	build(&prows[9]); /* bounce pool of 1 MiB */
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_MAPPED_BAD, &res), 0);
	assert_int_equal(res.plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(res.reason, MMCHAL_PR_MAPPED_BAD);
	assert_false(res.iommu);
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_RETRY, &res), 0);
	assert_int_equal(res.plan, MMCHAL_PLAN_PIO);
	assert_int_equal(res.reason, MMCHAL_PR_RETRY);
	assert_int_equal(res.nobounce, MMCHAL_NB_NONE);
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_COUNT, &res),
			 MMCHAL_EINVAL);
	sg[0].cpu = NULL;
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_RETRY, &res),
			 MMCHAL_EINVAL);
}

static void test_check_mapped(void **state)
{
	struct mmchal_dma_dir_caps c = {.max_segs = 2,
					.max_seg_size = 8192,
					.addr_align = 8,
					.len_granule = 4,
					.addr_bits = 32,
					.seg_boundary = 0xffffffffu};
	struct mmchal_dma_seg s[3] = {{0x10000, 4096}, {0x20000, 4096}, {0x30000, 4096}};
	uint32_t idx = 9;

	(void)state;
	assert_true(mmchal_dma_check_mapped(&c, s, 2, false, &idx));
	assert_int_equal(idx, 0);
	assert_true(mmchal_dma_check_mapped(&c, s, 1, true, NULL));
	/* a merged mapping is one segment */
	assert_false(mmchal_dma_check_mapped(&c, s, 2, true, &idx));
	/* more than the engine chains */
	assert_false(mmchal_dma_check_mapped(&c, s, 3, false, &idx));
	s[1].addr = 0x20004;
	assert_false(mmchal_dma_check_mapped(&c, s, 2, false, &idx));
	assert_int_equal(idx, 1);
	s[1].addr = 0x20000;
	s[1].len = 4094;
	assert_false(mmchal_dma_check_mapped(&c, s, 2, false, &idx));
	s[1].len = 8196;
	assert_false(mmchal_dma_check_mapped(&c, s, 2, false, &idx));
	s[1].len = 4096;
	s[1].addr = 0xfffff800u;
	assert_false(mmchal_dma_check_mapped(&c, s, 2, false, &idx)); /* beyond 32 bits */
	c.addr_bits = 0;
	assert_false(mmchal_dma_check_mapped(&c, s, 2, false, &idx)); /* crosses 4 GiB */
	c.seg_boundary = 0;
	assert_true(mmchal_dma_check_mapped(&c, s, 2, false, &idx));
	s[1].len = 0;
	assert_false(mmchal_dma_check_mapped(&c, s, 2, false, &idx));
	assert_false(mmchal_dma_check_mapped(NULL, s, 1, false, &idx));
	assert_false(mmchal_dma_check_mapped(&c, NULL, 1, false, &idx));
	assert_false(mmchal_dma_check_mapped(&c, s, 0, false, &idx));
}

static void test_texts(void **state)
{
	(void)state;
	for (int i = 0; i < MMCHAL_REQ_CHECK_COUNT; i++)
		assert_true(strcmp(mmchal_req_check_text((enum mmchal_req_check)i), "?") != 0);
	assert_string_equal(mmchal_req_check_text(MMCHAL_REQ_CHECK_COUNT), "?");
	for (int i = 0; i < MMCHAL_PR_COUNT; i++)
		assert_true(strcmp(mmchal_plan_reason_text((enum mmchal_plan_reason)i), "?") != 0);
	assert_string_equal(mmchal_plan_reason_text(MMCHAL_PR_COUNT), "?");
	for (int i = 0; i < MMCHAL_NB_COUNT; i++)
		assert_true(strcmp(mmchal_plan_nobounce_text((enum mmchal_plan_nobounce)i), "?") !=
			    0);
	assert_string_equal(mmchal_plan_nobounce_text(MMCHAL_NB_COUNT), "?");
	assert_string_equal(mmchal_plan_name(MMCHAL_PLAN_IOMMU_MERGED), "IOMMU_MERGED");
	assert_string_equal(mmchal_plan_name(MMCHAL_PLAN_BOUNCED), "BOUNCED");
	assert_string_equal(mmchal_plan_name((enum mmchal_plan)MMCHAL_PLAN_COUNT), "?");
}

static const char *const want_check[MMCHAL_REQ_CHECK_COUNT] = {
	[MMCHAL_REQ_OK] = "valid",
	[MMCHAL_REQ_NULL] = "request, command or limits missing",
	[MMCHAL_REQ_OPCODE] = "command index above 63",
	[MMCHAL_REQ_RSP_FLAGS] = "unknown or inconsistent response flags",
	[MMCHAL_REQ_DATA_CMD] = "data on a command that takes none",
	[MMCHAL_REQ_DIR] = "unknown transfer direction",
	[MMCHAL_REQ_BLKSZ] = "block size 0 or above max_blk_size",
	[MMCHAL_REQ_BLOCKS] = "block count 0 or above max_blk_count",
	[MMCHAL_REQ_REQ_SIZE] = "request larger than max_req_size",
	[MMCHAL_REQ_NO_SG] = "no scatter-gather list",
	[MMCHAL_REQ_SEGS] = "more entries than max_segs",
	[MMCHAL_REQ_SEG_ZERO] = "an entry of length 0",
	[MMCHAL_REQ_SEG_SIZE] = "an entry longer than max_seg_size",
	[MMCHAL_REQ_SEG_WRAP] = "an entry wraps the address space",
	[MMCHAL_REQ_SEG_BOUNDARY] = "an entry crosses seg_boundary",
	[MMCHAL_REQ_VIRT_BOUNDARY] = "an interior boundary not aligned to virt_boundary",
	[MMCHAL_REQ_SUM] = "entry lengths do not add up to blksz x blocks",
	[MMCHAL_REQ_SBC_NO_DATA] = "CMD23 without a data phase",
	[MMCHAL_REQ_SBC_COUNT] = "CMD23 block count open-ended or not the data's",
	[MMCHAL_REQ_STOP_NO_DATA] = "STOP without a data phase",
};

static const char *const want_plan[MMCHAL_PLAN_COUNT] = {
	[MMCHAL_PLAN_PIO] = "PIO",
	[MMCHAL_PLAN_DIRECT] = "DIRECT",
	[MMCHAL_PLAN_IOMMU_MERGED] = "IOMMU_MERGED",
	[MMCHAL_PLAN_BOUNCED] = "BOUNCED",
};

static const char *const want_reason[MMCHAL_PR_COUNT] = {
	[MMCHAL_PR_NO_ENGINE] = "the host has no DMA engine",
	[MMCHAL_PR_RETRY] = "retry by PIO after a DMA fault",
	[MMCHAL_PR_MERGED] = "the IOMMU maps the list to one device address",
	[MMCHAL_PR_DIRECT] = "the engine takes every segment as it is",
	[MMCHAL_PR_DIRECT_IOMMU] = "merging is off: each segment mapped on its own",
	[MMCHAL_PR_DIRECT_UNMERGEABLE] =
		"the list cannot be merged: each segment mapped on its own",
	[MMCHAL_PR_MIN_LEN] = "shorter than the engine's minimum DMA length",
	[MMCHAL_PR_XFER] = "longer than the engine's largest transfer",
	[MMCHAL_PR_SHARED_LINE] = "a device-to-memory buffer shares a cache line with other data",
	[MMCHAL_PR_SEGS] = "more segments than the engine chains",
	[MMCHAL_PR_ALIGN] = "a segment start is not aligned as the engine needs",
	[MMCHAL_PR_GRANULE] = "a segment length is not a multiple of the engine's granule",
	[MMCHAL_PR_SEG_SIZE] = "a segment is longer than the engine's largest segment",
	[MMCHAL_PR_ADDR_BITS] = "a segment lies beyond the engine's address bits",
	[MMCHAL_PR_BOUNDARY] = "a segment crosses the engine's segment boundary",
	[MMCHAL_PR_MAPPED_BAD] = "the IOMMU mapping is not what the engine can take",
};

static const char *const want_nobounce[MMCHAL_NB_COUNT] = {
	[MMCHAL_NB_NONE] = "-",
	[MMCHAL_NB_NO_POOL] = "no bounce pool",
	[MMCHAL_NB_TOO_LARGE] = "larger than the bounce limit",
	[MMCHAL_NB_ENGINE] = "the engine cannot take it bounced either",
};

/* Every text exactly, each against its enum value (the texts are kept in pools
 * in enum order: a text out of place shows here). */
static void test_texts_exact(void **state)
{
	(void)state;
	for (int i = 0; i < MMCHAL_REQ_CHECK_COUNT; i++)
		assert_string_equal(mmchal_req_check_text((enum mmchal_req_check)i), want_check[i]);
	for (int i = 0; i < MMCHAL_PLAN_COUNT; i++)
		assert_string_equal(mmchal_plan_name((enum mmchal_plan)i), want_plan[i]);
	for (int i = 0; i < MMCHAL_PR_COUNT; i++)
		assert_string_equal(mmchal_plan_reason_text((enum mmchal_plan_reason)i),
				    want_reason[i]);
	for (int i = 0; i < MMCHAL_NB_COUNT; i++)
		assert_string_equal(mmchal_plan_nobounce_text((enum mmchal_plan_nobounce)i),
				    want_nobounce[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validation_table),
		cmocka_unit_test(test_plan_table),
		cmocka_unit_test(test_plan_every_reason_covered),
		cmocka_unit_test(test_plan_needs_cpu_address),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_check_mapped),
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_texts_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
