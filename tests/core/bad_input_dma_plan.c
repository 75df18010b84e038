/*
 * Bad-input rows: request validation and the DMA planner (dma_plan.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

/* ------------------------------------------------------------------ dma_plan.h */

/* A one-block read of 512 bytes into one arena buffer. */
struct one_req {
	struct mmchal_request req;
	struct mmchal_cmd cmd;
	struct mmchal_data data;
	struct mmchal_sg sg;
};

static struct one_req *one_req(void)
{
	struct one_req *r = BI_NEW(struct one_req);
	void *buf = bi_obj(512);

	r->req.cmd = &r->cmd;
	r->req.data = &r->data;
	r->cmd.opcode = 17;
	r->cmd.flags = MMCHAL_RSP_R1;
	r->data.dir = MMCHAL_DIR_FROM_CARD;
	r->data.blksz = 512;
	r->data.blocks = 1;
	r->data.sg = &r->sg;
	r->data.sg_len = 1;
	r->sg.cpu = buf;
	r->sg.phys = 0x40000000u;
	r->sg.len = 512;
	return r;
}

static int check_req(struct one_req *r, const struct mmchal_limits *l, enum mmchal_req_check want)
{
	struct mmchal_req_check_info *info = BI_NEW(struct mmchal_req_check_info);
	int ret;

	bi_writable(info, sizeof(*info));
	bi_arm();
	ret = mmchal_request_check(&r->req, l, info);
	return ret != MMCHAL_EINVAL ? ret
	       : info->why == want  ? MMCHAL_EINVAL
				    : 1000 + (int)info->why;
}

static int reqchk_null_req(void)
{
	struct mmchal_limits *l = bi_good_limits();

	bi_arm();
	return mmchal_request_check(NULL, l, NULL);
}

static int reqchk_null_cmd(void)
{
	struct one_req *r = one_req();

	r->req.cmd = NULL;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_NULL);
}

static int reqchk_null_lim(void)
{
	return check_req(one_req(), NULL, MMCHAL_REQ_NULL);
}

static int reqchk_opcode(void)
{
	struct one_req *r = one_req();

	r->cmd.opcode = 64;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_OPCODE);
}

static int reqchk_opcode_max(void)
{
	struct one_req *r = one_req();

	r->cmd.opcode = UINT32_MAX;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_OPCODE);
}

static int reqchk_flags(void)
{
	struct one_req *r = one_req();

	r->cmd.flags = UINT32_MAX;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_RSP_FLAGS);
}

static int reqchk_dir(void)
{
	struct one_req *r = one_req();

	r->data.dir = (enum mmchal_dir)2;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_DIR);
}

static int reqchk_blksz0(void)
{
	struct one_req *r = one_req();

	r->data.blksz = 0;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_BLKSZ);
}

static int reqchk_blocks_max(void)
{
	struct one_req *r = one_req();

	r->data.blocks = UINT32_MAX;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_BLOCKS);
}

static int reqchk_no_sg(void)
{
	struct one_req *r = one_req();

	r->data.sg = NULL;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_NO_SG);
}

static int reqchk_sg_len0(void)
{
	struct one_req *r = one_req();

	r->data.sg_len = 0;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_NO_SG);
}

static int reqchk_sg_len_max(void)
{
	struct one_req *r = one_req();

	r->data.sg_len = UINT32_MAX;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_SEGS);
}

static int reqchk_seg_zero(void)
{
	struct one_req *r = one_req();

	r->sg.len = 0;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_SEG_ZERO);
}

static int reqchk_seg_wrap(void)
{
	struct one_req *r = one_req();

	r->sg.phys = UINT64_MAX - 10u;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_SEG_WRAP);
}

static int reqchk_sum(void)
{
	struct one_req *r = one_req();

	r->sg.len = 256;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_SUM);
}

static int reqchk_sbc_no_data(void)
{
	struct one_req *r = one_req();
	struct mmchal_cmd *sbc = BI_NEW(struct mmchal_cmd);

	sbc->opcode = 23;
	sbc->arg = 1;
	sbc->flags = MMCHAL_RSP_R1;
	r->req.sbc = sbc;
	r->req.data = NULL;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_SBC_NO_DATA);
}

static int reqchk_sbc_count(void)
{
	struct one_req *r = one_req();
	struct mmchal_cmd *sbc = BI_NEW(struct mmchal_cmd);

	sbc->opcode = 23;
	sbc->arg = 0;
	sbc->flags = MMCHAL_RSP_R1;
	r->req.sbc = sbc;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_SBC_COUNT);
}

static int reqchk_data_cmd(void)
{
	struct one_req *r = one_req();

	r->cmd.flags = MMCHAL_RSP_R1B;
	return check_req(r, bi_good_limits(), MMCHAL_REQ_DATA_CMD);
}

static int check_text_range(void)
{
	bi_arm();
	return bi_str(mmchal_req_check_text(MMCHAL_REQ_CHECK_COUNT), "?") |
	       bi_str(mmchal_req_check_text((enum mmchal_req_check) - 1), "?");
}

static const struct mmchal_dma_caps pio_dma = {.kind = MMCHAL_DMA_NONE};

static struct mmchal_plan_env *plan_env(void)
{
	struct mmchal_plan_env *e = BI_NEW(struct mmchal_plan_env);

	e->dma = &pio_dma;
	e->card = MMCHAL_CARD_SD;
	e->seg_table = 1;
	return e;
}

static int plan_null_env(void)
{
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	bi_arm();
	return mmchal_dma_plan(NULL, &r->data, out);
}

static int plan_null_dma(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	e->dma = NULL;
	bi_arm();
	return mmchal_dma_plan(e, &r->data, out);
}

static int plan_null_data(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	bi_arm();
	return mmchal_dma_plan(e, NULL, out);
}

static int plan_null_out(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();

	bi_arm();
	return mmchal_dma_plan(e, &r->data, NULL);
}

static int plan_dir(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	r->data.dir = (enum mmchal_dir)7;
	bi_arm();
	return mmchal_dma_plan(e, &r->data, out);
}

static int plan_no_cpu(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	r->sg.cpu = NULL;
	bi_writable(out, sizeof(*out));
	bi_arm();
	return mmchal_dma_plan(e, &r->data, out);
}

static int plan_seg_table0(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	e->seg_table = 0;
	bi_arm();
	return mmchal_dma_plan(e, &r->data, out);
}

static int plan_no_sg(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	r->data.sg = NULL;
	bi_arm();
	return mmchal_dma_plan(e, &r->data, out);
}

static int plan_wrap(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);
	static const struct mmchal_dma_caps engine = {
		.kind = MMCHAL_DMA_INTERNAL,
		.dir = {{.max_segs = 1, .max_seg_size = 0xffffffffu},
			{.max_segs = 1, .max_seg_size = 0xffffffffu}},
	};

	/* an engine that would take it: only the entry check stops it */
	e->dma = &engine;
	r->sg.phys = UINT64_MAX;
	r->sg.len = 2;
	r->data.dir = MMCHAL_DIR_TO_CARD;
	bi_arm();
	return mmchal_dma_plan(e, &r->data, out);
}

static int plan_len0(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	r->sg.len = 0;
	bi_arm();
	return mmchal_dma_plan(e, &r->data, out);
}

static int plan_cache_line(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	e->cache_line = 3;
	bi_arm();
	return mmchal_dma_plan(e, &r->data, out);
}

static int fallback_cache_line(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	e->cache_line = 0x80000001u;
	bi_arm();
	return mmchal_dma_plan_fallback(e, &r->data, MMCHAL_PR_RETRY, out);
}

static int plan_sum_null_env(void)
{
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	bi_arm();
	return mmchal_dma_plan_sum(NULL, &r->data, NULL, out);
}

static int plan_sum_dir(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);
	struct mmchal_sg_summary *sum = BI_NEW(struct mmchal_sg_summary);

	r->data.dir = (enum mmchal_dir) - 1;
	bi_arm();
	return mmchal_dma_plan_sum(e, &r->data, sum, out);
}

static int plan_sum_sg_len0(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	r->data.sg_len = 0;
	bi_arm();
	return mmchal_dma_plan_sum(e, &r->data, NULL, out);
}

static int fallback_null_out(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();

	bi_arm();
	return mmchal_dma_plan_fallback(e, &r->data, MMCHAL_PR_RETRY, NULL);
}

static int fallback_why(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	bi_arm();
	return mmchal_dma_plan_fallback(e, &r->data, MMCHAL_PR_COUNT, out);
}

static int fallback_dir(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	r->data.dir = (enum mmchal_dir)2;
	bi_arm();
	return mmchal_dma_plan_fallback(e, &r->data, MMCHAL_PR_RETRY, out);
}

static int fallback_no_cpu(void)
{
	struct mmchal_plan_env *e = plan_env();
	struct one_req *r = one_req();
	struct mmchal_plan_result *out = BI_NEW(struct mmchal_plan_result);

	r->sg.cpu = NULL;
	bi_writable(out, sizeof(*out));
	bi_arm();
	return mmchal_dma_plan_fallback(e, &r->data, MMCHAL_PR_RETRY, out);
}

static const struct mmchal_dma_dir_caps one_seg = {.max_segs = 1, .max_seg_size = 4096};

static int mapped_null_caps(void)
{
	struct mmchal_dma_seg *s = BI_NEW(struct mmchal_dma_seg);
	uint32_t *idx = BI_NEW(uint32_t);

	s->addr = 0x1000;
	s->len = 512;
	bi_writable(idx, sizeof(*idx));
	bi_arm();
	return (int)mmchal_dma_check_mapped(NULL, s, 1, false, idx);
}

static int mapped_null_segs(void)
{
	bi_arm();
	return (int)mmchal_dma_check_mapped(&one_seg, NULL, 1, false, NULL);
}

static int mapped_zero(void)
{
	struct mmchal_dma_seg *s = BI_NEW(struct mmchal_dma_seg);

	bi_arm();
	return (int)mmchal_dma_check_mapped(&one_seg, s, 0, false, NULL);
}

static int mapped_max(void)
{
	struct mmchal_dma_seg *s = BI_NEW(struct mmchal_dma_seg);

	s->addr = 0x1000;
	s->len = 512;
	bi_arm();
	return (int)mmchal_dma_check_mapped(&one_seg, s, UINT32_MAX, false, NULL);
}

static int mapped_merged_two(void)
{
	static const struct mmchal_dma_dir_caps two = {.max_segs = 2, .max_seg_size = 4096};
	struct mmchal_dma_seg *s = bi_obj(2 * sizeof(*s));

	s[0].addr = 0x1000;
	s[0].len = 512;
	s[1].addr = 0x2000;
	s[1].len = 512;
	bi_arm();
	return (int)mmchal_dma_check_mapped(&two, s, 2, true, NULL);
}

static int mapped_len0(void)
{
	struct mmchal_dma_seg *s = BI_NEW(struct mmchal_dma_seg);

	s->addr = 0x1000;
	bi_arm();
	return (int)mmchal_dma_check_mapped(&one_seg, s, 1, false, NULL);
}

static int plan_name_range(void)
{
	bi_arm();
	return bi_str(mmchal_plan_name((enum mmchal_plan)MMCHAL_PLAN_COUNT), "?") |
	       bi_str(mmchal_plan_name((enum mmchal_plan) - 1), "?");
}

static int plan_reason_range(void)
{
	bi_arm();
	return bi_str(mmchal_plan_reason_text(MMCHAL_PR_COUNT), "?") |
	       bi_str(mmchal_plan_reason_text((enum mmchal_plan_reason) - 1), "?");
}

static int nobounce_range(void)
{
	bi_arm();
	return bi_str(mmchal_plan_nobounce_text(MMCHAL_NB_COUNT), "?") |
	       bi_str(mmchal_plan_nobounce_text((enum mmchal_plan_nobounce) - 1), "?");
}

const struct bi_row bi_rows_dma_plan[] = {
	BI_ROW(mmchal_request_check, "NULL request", reqchk_null_req, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "NULL cmd", reqchk_null_cmd, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "NULL limits", reqchk_null_lim, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "opcode 64", reqchk_opcode, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "opcode UINT32_MAX", reqchk_opcode_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "flags UINT32_MAX", reqchk_flags, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "R1b with data", reqchk_data_cmd, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "direction 2", reqchk_dir, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "block size 0", reqchk_blksz0, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "blocks UINT32_MAX", reqchk_blocks_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "NULL sg", reqchk_no_sg, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "sg_len 0", reqchk_sg_len0, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "sg_len UINT32_MAX", reqchk_sg_len_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "entry length 0", reqchk_seg_zero, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "entry wraps", reqchk_seg_wrap, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "lengths do not add up", reqchk_sum, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "CMD23 without data", reqchk_sbc_no_data, MMCHAL_EINVAL),
	BI_ROW(mmchal_request_check, "CMD23 count 0", reqchk_sbc_count, MMCHAL_EINVAL),
	BI_ROW(mmchal_req_check_text, "COUNT and -1", check_text_range, 0),
	BI_ROW(mmchal_dma_plan, "NULL env", plan_null_env, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan, "env without engine caps", plan_null_dma, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan, "NULL data", plan_null_data, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan, "NULL out", plan_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan, "direction 7", plan_dir, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan, "PIO without CPU address", plan_no_cpu, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan, "segment table 0", plan_seg_table0, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan, "NULL sg", plan_no_sg, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan, "entry wraps (no summary)", plan_wrap, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan, "entry length 0 (no summary)", plan_len0, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan, "cache line 3", plan_cache_line, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan_sum, "NULL env", plan_sum_null_env, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan_sum, "direction -1", plan_sum_dir, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan_sum, "sg_len 0", plan_sum_sg_len0, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan_fallback, "NULL out", fallback_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan_fallback, "why COUNT", fallback_why, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan_fallback, "direction 2", fallback_dir, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan_fallback, "no CPU address", fallback_no_cpu, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_plan_fallback, "cache line 0x80000001", fallback_cache_line,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_check_mapped, "NULL caps", mapped_null_caps, 0),
	BI_ROW(mmchal_dma_check_mapped, "NULL segs", mapped_null_segs, 0),
	BI_ROW(mmchal_dma_check_mapped, "0 segments", mapped_zero, 0),
	BI_ROW(mmchal_dma_check_mapped, "UINT32_MAX segments", mapped_max, 0),
	BI_ROW(mmchal_dma_check_mapped, "merged with 2 segments", mapped_merged_two, 0),
	BI_ROW(mmchal_dma_check_mapped, "segment length 0", mapped_len0, 0),
	BI_ROW(mmchal_plan_name, "COUNT and -1", plan_name_range, 0),
	BI_ROW(mmchal_plan_reason_text, "COUNT and -1", plan_reason_range, 0),
	BI_ROW(mmchal_plan_nobounce_text, "COUNT and -1", nobounce_range, 0),
};

const size_t bi_nrows_dma_plan = sizeof(bi_rows_dma_plan) / sizeof(bi_rows_dma_plan[0]);
