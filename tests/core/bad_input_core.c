/*
 * Bad-input rows: error texts, the port seam and its table checks, the
 * backend and host-ops wrappers, the limits derivation and its text, request
 * validation and the DMA planner.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

/* ------------------------------------------------------------------ error.h */

static int strerror_positive(void)
{
	bi_arm();
	return bi_str(mmchal_strerror(1), "unknown error");
}

static int strerror_int_min(void)
{
	bi_arm();
	return bi_str(mmchal_strerror(-2147483647 - 1), "unknown error");
}

/* ------------------------------------------------------------------ port.h */

static int port_check_null(void)
{
	bi_arm();
	return mmchal_port_check(NULL);
}

static int port_check_no_ops(void)
{
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	bi_arm();
	return mmchal_port_check(p);
}

static int port_check_half_lock(void)
{
	struct mmchal_port_ops *o = BI_NEW(struct mmchal_port_ops);
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	*o = bi_port_ops;
	o->unlock_irqrestore = NULL;
	p->ops = o;
	bi_arm();
	return mmchal_port_check(p);
}

static int port_check_no_clock(void)
{
	struct mmchal_port_ops *o = BI_NEW(struct mmchal_port_ops);
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	*o = bi_port_ops;
	o->now_ns = NULL;
	p->ops = o;
	bi_arm();
	return mmchal_port_check(p);
}

static int port_check_cache_line(void)
{
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	p->ops = &bi_port_ops;
	p->cache_line = 48;
	bi_arm();
	return mmchal_port_check(p);
}

static int port_check_cache_line_max(void)
{
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	p->ops = &bi_port_ops;
	p->cache_line = UINT32_MAX;
	bi_arm();
	return mmchal_port_check(p);
}

static int iommu_check_null(void)
{
	bi_arm();
	return mmchal_iommu_check(NULL);
}

static int iommu_check_no_map(void)
{
	struct mmchal_iommu_ops *o = BI_NEW(struct mmchal_iommu_ops);
	struct mmchal_iommu *i = BI_NEW(struct mmchal_iommu);

	*o = bi_iommu_ops;
	o->map = NULL;
	i->ops = o;
	bi_arm();
	return mmchal_iommu_check(i);
}

static int iommu_check_no_ops(void)
{
	struct mmchal_iommu *i = BI_NEW(struct mmchal_iommu);

	bi_arm();
	return mmchal_iommu_check(i);
}

static int chan_check_null(void)
{
	bi_arm();
	return mmchal_dma_chan_check(NULL);
}

static int chan_check_no_ops(void)
{
	struct mmchal_dma_chan *c = BI_NEW(struct mmchal_dma_chan);

	bi_arm();
	return mmchal_dma_chan_check(c);
}

static int chan_check_no_terminate(void)
{
	struct mmchal_dma_chan_ops *o = BI_NEW(struct mmchal_dma_chan_ops);
	struct mmchal_dma_chan *c = BI_NEW(struct mmchal_dma_chan);

	*o = bi_chan_ops;
	o->terminate = NULL;
	c->ops = o;
	bi_arm();
	return mmchal_dma_chan_check(c);
}

static int bus_init_null_bus(void)
{
	static uint32_t regs[4];

	bi_arm();
	return mmchal_bus_init_mmio(NULL, regs, 0);
}

static int bus_init_null_base(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);

	bi_arm();
	return mmchal_bus_init_mmio(b, NULL, 0);
}

static int bus_init_shift(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);
	uint32_t *regs = bi_obj(64);

	bi_arm();
	return mmchal_bus_init_mmio(b, regs, 3);
}

static int bus_init_shift_max(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);
	uint32_t *regs = bi_obj(64);

	bi_arm();
	return mmchal_bus_init_mmio(b, regs, UINT8_MAX);
}

static int bus_check_null(void)
{
	bi_arm();
	return mmchal_bus_check(NULL);
}

static int bus_check_no_ops(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);

	bi_arm();
	return mmchal_bus_check(b);
}

static int bus_check_shift(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);

	b->ops = &mmchal_bus_mmio_ops;
	b->ctx = b;
	b->bus_shift = 3;
	bi_arm();
	return mmchal_bus_check(b);
}

static int bus_check_no_write32(void)
{
	struct mmchal_bus_ops *o = BI_NEW(struct mmchal_bus_ops);
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);

	*o = mmchal_bus_mmio_ops;
	o->write32 = NULL;
	b->ops = o;
	bi_arm();
	return mmchal_bus_check(b);
}

/* ------------------------------------------------------------------ backend.h */

static int backend_check_null(void)
{
	bi_arm();
	return mmchal_backend_check(NULL);
}

static int backend_check_no_ops(void)
{
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	bi_arm();
	return mmchal_backend_check(be);
}

static int backend_check_no_name(void)
{
	struct mmchal_backend_ops *o = BI_NEW(struct mmchal_backend_ops);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	*o = bi_spy_backend_ops;
	o->name = NULL;
	be->ops = o;
	bi_arm();
	return mmchal_backend_check(be);
}

static int backend_check_no_abort(void)
{
	struct mmchal_backend_ops *o = BI_NEW(struct mmchal_backend_ops);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	*o = bi_spy_backend_ops;
	o->abort = NULL;
	be->ops = o;
	bi_arm();
	return mmchal_backend_check(be);
}

/* The optional-op wrappers on a backend without the op: ENOTSUP, nothing called. */
static struct mmchal_backend *min_backend(void)
{
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	be->ops = &bi_spy_backend_min_ops;
	be->ctx = BI_NEW(struct bi_spy);
	return be;
}

static int backend_busy_missing(void)
{
	struct mmchal_backend *be = min_backend();

	bi_arm();
	return mmchal_backend_card_busy(be);
}

static int backend_cd_missing(void)
{
	struct mmchal_backend *be = min_backend();

	bi_arm();
	return mmchal_backend_get_cd(be);
}

static int backend_ro_missing(void)
{
	struct mmchal_backend *be = min_backend();

	bi_arm();
	return mmchal_backend_get_ro(be);
}

static int backend_reset_missing(void)
{
	struct mmchal_backend *be = min_backend();

	bi_arm();
	return mmchal_backend_hw_reset(be);
}

static int backend_tuning_missing(void)
{
	struct mmchal_backend *be = min_backend();

	bi_arm();
	return mmchal_backend_execute_tuning(be, UINT32_MAX);
}

/* ------------------------------------------------------------------ host.h */

static int host_ops_check_null(void)
{
	bi_arm();
	return mmchal_host_ops_check(NULL);
}

static int host_ops_check_no_request(void)
{
	struct mmchal_host_ops *o = BI_NEW(struct mmchal_host_ops);

	*o = mmchal_host_core_ops;
	o->request = NULL;
	bi_arm();
	return mmchal_host_ops_check(o);
}

static int host_ops_check_no_set_ios(void)
{
	struct mmchal_host_ops *o = BI_NEW(struct mmchal_host_ops);

	*o = mmchal_host_core_ops;
	o->set_ios = NULL;
	bi_arm();
	return mmchal_host_ops_check(o);
}

/* A host-ops table with only the required ops: every wrapper says ENOTSUP. */
static int min_request(void *ctx, struct mmchal_request *req)
{
	(void)ctx;
	(void)req;
	return MMCHAL_EIO;
}

static int min_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	(void)ctx;
	(void)ios;
	return MMCHAL_EIO;
}

static const struct mmchal_host_ops min_host_ops = {
	.request = min_request,
	.set_ios = min_set_ios,
};

static int hw_init_card_missing(void)
{
	bi_arm();
	return mmchal_host_init_card(&min_host_ops, NULL, (enum mmchal_card_type)99);
}

static int hw_card_busy_missing(void)
{
	bi_arm();
	return mmchal_host_card_busy(&min_host_ops, NULL);
}

static int hw_get_cd_missing(void)
{
	bi_arm();
	return mmchal_host_get_cd(&min_host_ops, NULL);
}

static int hw_get_ro_missing(void)
{
	bi_arm();
	return mmchal_host_get_ro(&min_host_ops, NULL);
}

static int hw_hw_reset_missing(void)
{
	bi_arm();
	return mmchal_host_hw_reset(&min_host_ops, NULL);
}

static int hw_tuning_missing(void)
{
	bi_arm();
	return mmchal_host_execute_tuning(&min_host_ops, NULL, 0);
}

static int hw_sdio_irq_missing(void)
{
	bi_arm();
	return mmchal_host_enable_sdio_irq(&min_host_ops, NULL, true);
}

static int hw_request_sync_missing(void)
{
	struct mmchal_request *r = BI_NEW(struct mmchal_request);

	bi_arm();
	return mmchal_host_request_sync_op(&min_host_ops, NULL, r, UINT32_MAX);
}

static int hw_get_caps_missing(void)
{
	struct mmchal_host_caps *c = BI_NEW(struct mmchal_host_caps);

	bi_arm();
	return mmchal_host_get_caps_op(&min_host_ops, NULL, c);
}

static int hw_get_limits_missing(void)
{
	struct mmchal_limits *l = BI_NEW(struct mmchal_limits);

	bi_arm();
	return mmchal_host_get_limits_op(&min_host_ops, NULL, l);
}

/* ------------------------------------------------------------------ limits.h */

static const struct mmchal_port_caps port_caps_full = {.lock = true, .deferred_work = true};

static struct mmchal_caps *pio_caps(void)
{
	struct mmchal_caps *c = BI_NEW(struct mmchal_caps);

	c->host.completion = MMCHAL_COMPLETES_POLLED;
	return c;
}

static struct mmchal_caps *dma_caps(void)
{
	struct mmchal_caps *c = BI_NEW(struct mmchal_caps);

	c->host.completion = MMCHAL_COMPLETES_IN_IRQ;
	c->dma.kind = MMCHAL_DMA_INTERNAL;
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		c->dma.dir[d].max_segs = 1;
		c->dma.dir[d].max_seg_size = 0xffffffffu;
		c->dma.dir[d].addr_align = 8;
	}
	return c;
}

static int derive_with(const struct mmchal_caps *c, const struct mmchal_port_caps *port,
		       const struct mmchal_policy_cfg *pol, enum mmchal_card_type card)
{
	struct mmchal_limits *out = BI_NEW(struct mmchal_limits);

	bi_arm();
	return mmchal_limits_derive(c, port, pol, card, out);
}

static int derive_null_caps(void)
{
	return derive_with(NULL, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_null_port(void)
{
	return derive_with(pio_caps(), NULL, NULL, MMCHAL_CARD_SD);
}

static int derive_null_out(void)
{
	struct mmchal_caps *c = pio_caps();

	bi_arm();
	return mmchal_limits_derive(c, &port_caps_full, NULL, MMCHAL_CARD_SD, NULL);
}

static int derive_card_enum(void)
{
	return derive_with(pio_caps(), &port_caps_full, NULL, (enum mmchal_card_type)5);
}

static int derive_card_negative(void)
{
	return derive_with(pio_caps(), &port_caps_full, NULL, (enum mmchal_card_type) - 1);
}

static int derive_dma_kind(void)
{
	struct mmchal_caps *c = dma_caps();

	c->dma.kind = (enum mmchal_dma_kind)3;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_completion_enum(void)
{
	struct mmchal_caps *c = pio_caps();

	c->host.completion = (enum mmchal_completion_ctx)2;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_policy_enum(void)
{
	struct mmchal_policy_cfg *p = BI_NEW(struct mmchal_policy_cfg);

	p->override = (enum mmchal_completion_policy)5;
	return derive_with(pio_caps(), &port_caps_full, p, MMCHAL_CARD_SD);
}

static int derive_zero_segs(void)
{
	struct mmchal_caps *c = dma_caps();

	c->dma.dir[MMCHAL_DIR_FROM_CARD].max_segs = 0;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_zero_seg_size(void)
{
	struct mmchal_caps *c = dma_caps();

	c->dma.dir[MMCHAL_DIR_TO_CARD].max_seg_size = 0;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_align_npot(void)
{
	struct mmchal_caps *c = dma_caps();

	c->dma.dir[MMCHAL_DIR_TO_CARD].addr_align = 0x80000001u;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_blk_bits(void)
{
	struct mmchal_caps *c = pio_caps();

	c->host.blk_count_bits = 24;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_iommu_absent_fields(void)
{
	struct mmchal_caps *c = dma_caps();

	c->iommu.page_size = 4096;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_iommu_aperture(void)
{
	struct mmchal_caps *c = dma_caps();

	c->iommu.present = true;
	c->iommu.page_size = 4096;
	c->iommu.aperture_start = 0x2000;
	c->iommu.aperture_end = 0x1fff;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_iommu_page_max(void)
{
	struct mmchal_caps *c = dma_caps();

	c->iommu.present = true;
	c->iommu.page_size = UINT32_MAX;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_merge_boundary(void)
{
	struct mmchal_caps *c = dma_caps();

	c->iommu.present = true;
	c->iommu.page_size = 4096;
	c->iommu.merge_boundary = 4096;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_bounce_slot(void)
{
	struct mmchal_caps *c = dma_caps();

	c->bounce.present = true;
	c->bounce.slot_size = 3000;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_bounce_absent_fields(void)
{
	struct mmchal_caps *c = dma_caps();

	c->bounce.nslots = 4;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_req_below_block(void)
{
	struct mmchal_caps *c = dma_caps();

	c->dma.dir[MMCHAL_DIR_TO_CARD].max_xfer = 511;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_addr_bits(void)
{
	struct mmchal_caps *c = dma_caps();

	c->dma.dir[MMCHAL_DIR_TO_CARD].addr_bits = UINT8_MAX;
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

static int derive_blk_size_max(void)
{
	struct mmchal_caps *c = dma_caps();

	c->host.max_blk_size = UINT32_MAX; /* above the engine's largest transfer */
	return derive_with(c, &port_caps_full, NULL, MMCHAL_CARD_SD);
}

/* Every tuning figure at its maximum: no overflow, a policy is still chosen. */
static int derive_policy_max(void)
{
	struct mmchal_caps *c = dma_caps();
	struct mmchal_policy_cfg *p = BI_NEW(struct mmchal_policy_cfg);
	struct mmchal_limits *out = BI_NEW(struct mmchal_limits);

	memset(p, 0xff, sizeof(*p));
	p->override = MMCHAL_POLICY_AUTO;
	c->bounce.present = true;
	bi_writable(out, sizeof(*out));
	bi_arm();
	return mmchal_limits_derive(c, &port_caps_full, p, MMCHAL_CARD_SD, out) |
	       (out->policy == MMCHAL_POLICY_DEFERRED ? 0 : 0x100);
}

static int derive_deferred_no_work(void)
{
	static const struct mmchal_port_caps lock_only = {.lock = true};
	struct mmchal_policy_cfg *p = BI_NEW(struct mmchal_policy_cfg);

	p->override = MMCHAL_POLICY_DEFERRED;
	return derive_with(dma_caps(), &lock_only, p, MMCHAL_CARD_SD);
}

static int derive_irq_policy_polled(void)
{
	struct mmchal_policy_cfg *p = BI_NEW(struct mmchal_policy_cfg);

	p->override = MMCHAL_POLICY_IRQ_LOCKED;
	return derive_with(pio_caps(), &port_caps_full, p, MMCHAL_CARD_SD);
}

static int derive_irq_policy_no_lock(void)
{
	static const struct mmchal_port_caps none = {.lock = false};
	struct mmchal_policy_cfg *p = BI_NEW(struct mmchal_policy_cfg);

	p->override = MMCHAL_POLICY_IRQ_SPLIT;
	return derive_with(dma_caps(), &none, p, MMCHAL_CARD_SD);
}

static int field_name_range(void)
{
	bi_arm();
	return bi_str(mmchal_limit_field_name(MMCHAL_LIM_COUNT), "?") |
	       bi_str(mmchal_limit_field_name((enum mmchal_limit_field) - 1), "?");
}

static int reason_text_range(void)
{
	bi_arm();
	return bi_str(mmchal_limit_reason_text(MMCHAL_WHY_COUNT), "?") |
	       bi_str(mmchal_limit_reason_text((enum mmchal_limit_reason) - 1), "?");
}

static int policy_name_range(void)
{
	bi_arm();
	return bi_str(mmchal_completion_policy_name((enum mmchal_completion_policy)5), "?") |
	       bi_str(mmchal_completion_policy_name((enum mmchal_completion_policy) - 1), "?");
}

static int card_type_name_range(void)
{
	bi_arm();
	return bi_str(mmchal_card_type_name((enum mmchal_card_type)5), "?") |
	       bi_str(mmchal_card_type_name((enum mmchal_card_type) - 1), "?");
}

/* Limits derived for a PIO host and an SD card, in the arena. */
static struct mmchal_limits *good_limits(void)
{
	struct mmchal_limits *l = BI_NEW(struct mmchal_limits);

	if (mmchal_limits_derive(pio_caps(), &port_caps_full, NULL, MMCHAL_CARD_SD, l) != 0)
		fail_msg("bad_input: limits of a PIO host refused");
	return l;
}

static int explain_field_null_lim(void)
{
	char *buf = bi_obj(256);

	bi_arm();
	return mmchal_limits_explain_field(NULL, MMCHAL_LIM_MAX_SEGS, buf, 256);
}

static int explain_field_null_buf(void)
{
	struct mmchal_limits *l = good_limits();

	bi_arm();
	return mmchal_limits_explain_field(l, MMCHAL_LIM_MAX_SEGS, NULL, 256);
}

static int explain_field_size0(void)
{
	struct mmchal_limits *l = good_limits();
	char *buf = bi_obj(256);

	bi_arm();
	return mmchal_limits_explain_field(l, MMCHAL_LIM_MAX_SEGS, buf, 0);
}

static int explain_field_range(void)
{
	struct mmchal_limits *l = good_limits();
	char *buf = bi_obj(256);

	bi_arm();
	return mmchal_limits_explain_field(l, MMCHAL_LIM_COUNT, buf, 256);
}

static int explain_field_size1(void)
{
	struct mmchal_limits *l = good_limits();
	char *buf = bi_obj(1);

	bi_writable(buf, 1);
	bi_arm();
	return mmchal_limits_explain_field(l, MMCHAL_LIM_MAX_SEGS, buf, 1) |
	       (buf[0] == '\0' ? 0 : 1);
}

/* Every enum of the limits out of range, every number at its maximum (a
 * record that was never derived, bools kept valid): still bounded text. */
static void scramble(struct mmchal_limits *l)
{
	memset(l, 0xff, sizeof(*l));
	l->merge = true;
	for (int i = 0; i < MMCHAL_LIM_COUNT; i++)
		l->reason[i] = (enum mmchal_limit_reason)(0x5a5a5a5a + i);
	l->policy = (enum mmchal_completion_policy)0x5a5a5a5a;
	l->card = (enum mmchal_card_type) - 7;
}

static int explain_field_garbage(void)
{
	struct mmchal_limits *l = good_limits();
	char *buf = bi_obj(256);

	scramble(l);
	bi_writable(buf, 256);
	bi_arm();
	return mmchal_limits_explain_field(l, MMCHAL_LIM_POLICY, buf, 256) > 0 ? 0 : 1;
}

static int explain_null_lim(void)
{
	char *buf = bi_obj(64);

	bi_arm();
	return mmchal_limits_explain(NULL, buf, 64);
}

static int explain_null_buf(void)
{
	struct mmchal_limits *l = good_limits();

	bi_arm();
	return mmchal_limits_explain(l, NULL, 4096);
}

static int explain_size0(void)
{
	struct mmchal_limits *l = good_limits();
	char *buf = bi_obj(64);

	bi_arm();
	return mmchal_limits_explain(l, buf, 0);
}

static int explain_small(void)
{
	struct mmchal_limits *l = good_limits();
	char *buf = bi_obj(8);

	bi_writable(buf, 8);
	bi_arm();
	return mmchal_limits_explain(l, buf, 8) | (buf[0] == '\0' ? 0 : 1);
}

/* size SIZE_MAX over a buffer the text fits in: only the text and its NUL are written */
static int explain_size_max(void)
{
	struct mmchal_limits *l = good_limits();
	char *buf = bi_obj(2048);
	int len = mmchal_limits_explain(l, buf, 2048);

	memset(buf, 0, 2048);
	bi_writable(buf, (size_t)len + 1u);
	bi_arm();
	return mmchal_limits_explain(l, buf, SIZE_MAX) == len ? 0 : 1;
}

static int explain_garbage(void)
{
	struct mmchal_limits *l = good_limits();
	char *buf = bi_obj(4096);

	scramble(l);
	bi_writable(buf, 4096);
	bi_arm();
	return mmchal_limits_explain(l, buf, 4096) > 0 ? 0 : 1;
}

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
	struct mmchal_limits *l = good_limits();

	bi_arm();
	return mmchal_request_check(NULL, l, NULL);
}

static int reqchk_null_cmd(void)
{
	struct one_req *r = one_req();

	r->req.cmd = NULL;
	return check_req(r, good_limits(), MMCHAL_REQ_NULL);
}

static int reqchk_null_lim(void)
{
	return check_req(one_req(), NULL, MMCHAL_REQ_NULL);
}

static int reqchk_opcode(void)
{
	struct one_req *r = one_req();

	r->cmd.opcode = 64;
	return check_req(r, good_limits(), MMCHAL_REQ_OPCODE);
}

static int reqchk_opcode_max(void)
{
	struct one_req *r = one_req();

	r->cmd.opcode = UINT32_MAX;
	return check_req(r, good_limits(), MMCHAL_REQ_OPCODE);
}

static int reqchk_flags(void)
{
	struct one_req *r = one_req();

	r->cmd.flags = UINT32_MAX;
	return check_req(r, good_limits(), MMCHAL_REQ_RSP_FLAGS);
}

static int reqchk_dir(void)
{
	struct one_req *r = one_req();

	r->data.dir = (enum mmchal_dir)2;
	return check_req(r, good_limits(), MMCHAL_REQ_DIR);
}

static int reqchk_blksz0(void)
{
	struct one_req *r = one_req();

	r->data.blksz = 0;
	return check_req(r, good_limits(), MMCHAL_REQ_BLKSZ);
}

static int reqchk_blocks_max(void)
{
	struct one_req *r = one_req();

	r->data.blocks = UINT32_MAX;
	return check_req(r, good_limits(), MMCHAL_REQ_BLOCKS);
}

static int reqchk_no_sg(void)
{
	struct one_req *r = one_req();

	r->data.sg = NULL;
	return check_req(r, good_limits(), MMCHAL_REQ_NO_SG);
}

static int reqchk_sg_len0(void)
{
	struct one_req *r = one_req();

	r->data.sg_len = 0;
	return check_req(r, good_limits(), MMCHAL_REQ_NO_SG);
}

static int reqchk_sg_len_max(void)
{
	struct one_req *r = one_req();

	r->data.sg_len = UINT32_MAX;
	return check_req(r, good_limits(), MMCHAL_REQ_SEGS);
}

static int reqchk_seg_zero(void)
{
	struct one_req *r = one_req();

	r->sg.len = 0;
	return check_req(r, good_limits(), MMCHAL_REQ_SEG_ZERO);
}

static int reqchk_seg_wrap(void)
{
	struct one_req *r = one_req();

	r->sg.phys = UINT64_MAX - 10u;
	return check_req(r, good_limits(), MMCHAL_REQ_SEG_WRAP);
}

static int reqchk_sum(void)
{
	struct one_req *r = one_req();

	r->sg.len = 256;
	return check_req(r, good_limits(), MMCHAL_REQ_SUM);
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
	return check_req(r, good_limits(), MMCHAL_REQ_SBC_NO_DATA);
}

static int reqchk_sbc_count(void)
{
	struct one_req *r = one_req();
	struct mmchal_cmd *sbc = BI_NEW(struct mmchal_cmd);

	sbc->opcode = 23;
	sbc->arg = 0;
	sbc->flags = MMCHAL_RSP_R1;
	r->req.sbc = sbc;
	return check_req(r, good_limits(), MMCHAL_REQ_SBC_COUNT);
}

static int reqchk_data_cmd(void)
{
	struct one_req *r = one_req();

	r->cmd.flags = MMCHAL_RSP_R1B;
	return check_req(r, good_limits(), MMCHAL_REQ_DATA_CMD);
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

#define WRAPPER_PRE                                                                         \
	"the wrapper's contract is a checked table (a *_check() call at registration); it " \
	"dereferences it without a test to stay one call on the hot path"
#define BUS_PRE                                                                                    \
	"an inline register accessor on a bus that passed mmchal_bus_check(); it is the hot path " \
	"of every register access and has no error return"

const struct bi_row bi_rows_core[] = {
	BI_ROW(mmchal_strerror, "positive value", strerror_positive, 0),
	BI_ROW(mmchal_strerror, "INT_MIN", strerror_int_min, 0),

	BI_ROW(mmchal_port_check, "NULL port", port_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_port_check, "NULL ops", port_check_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_port_check, "lock without unlock", port_check_half_lock, MMCHAL_EINVAL),
	BI_ROW(mmchal_port_check, "no now_ns", port_check_no_clock, MMCHAL_EINVAL),
	BI_ROW(mmchal_port_check, "cache line 48", port_check_cache_line, MMCHAL_EINVAL),
	BI_ROW(mmchal_port_check, "cache line UINT32_MAX", port_check_cache_line_max,
	       MMCHAL_EINVAL),
	BI_PRE(mmchal_port_has_lock, WRAPPER_PRE),
	BI_PRE(mmchal_port_has_work, WRAPPER_PRE),
	BI_ROW(mmchal_iommu_check, "NULL", iommu_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_check, "NULL ops", iommu_check_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_check, "no map op", iommu_check_no_map, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_chan_check, "NULL", chan_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_chan_check, "NULL ops", chan_check_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_chan_check, "no terminate op", chan_check_no_terminate, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_init_mmio, "NULL bus", bus_init_null_bus, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_init_mmio, "NULL base", bus_init_null_base, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_init_mmio, "bus_shift 3", bus_init_shift, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_init_mmio, "bus_shift 255", bus_init_shift_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_check, "NULL", bus_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_check, "NULL ops", bus_check_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_check, "bus_shift 3", bus_check_shift, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_check, "no write32", bus_check_no_write32, MMCHAL_EINVAL),
	BI_PRE(mmchal_bus_rd16, BUS_PRE),
	BI_PRE(mmchal_bus_wr16, BUS_PRE),
	BI_PRE(mmchal_bus_rd32, BUS_PRE),
	BI_PRE(mmchal_bus_wr32, BUS_PRE),
	BI_PRE(mmchal_bus_raw_rd32, BUS_PRE),
	BI_PRE(mmchal_bus_raw_wr32, BUS_PRE),
	BI_PRE(mmchal_bus_mmio_ops,
	       "ctx is a register window the port maps (mmchal_bus_init_mmio() refuses NULL); "
	       "the ops are plain volatile accesses with no error return"),

	BI_ROW(mmchal_backend_check, "NULL", backend_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_backend_check, "NULL ops", backend_check_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_backend_check, "no name", backend_check_no_name, MMCHAL_EINVAL),
	BI_ROW(mmchal_backend_check, "no abort", backend_check_no_abort, MMCHAL_EINVAL),
	BI_ROW(mmchal_backend_card_busy, "op missing", backend_busy_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_backend_get_cd, "op missing", backend_cd_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_backend_get_ro, "op missing", backend_ro_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_backend_hw_reset, "op missing", backend_reset_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_backend_execute_tuning, "op missing, opcode UINT32_MAX",
	       backend_tuning_missing, MMCHAL_ENOTSUP),
	BI_PRE(mmchal_backend_card_busy, WRAPPER_PRE),
	BI_PRE(mmchal_backend_get_cd, WRAPPER_PRE),
	BI_PRE(mmchal_backend_get_ro, WRAPPER_PRE),
	BI_PRE(mmchal_backend_hw_reset, WRAPPER_PRE),
	BI_PRE(mmchal_backend_execute_tuning, WRAPPER_PRE),

	BI_ROW(mmchal_host_ops_check, "NULL", host_ops_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_ops_check, "no request", host_ops_check_no_request, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_ops_check, "no set_ios", host_ops_check_no_set_ios, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init_card, "op missing, card type 99", hw_init_card_missing,
	       MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_card_busy, "op missing", hw_card_busy_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_get_cd, "op missing", hw_get_cd_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_get_ro, "op missing", hw_get_ro_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_hw_reset, "op missing", hw_hw_reset_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_execute_tuning, "op missing", hw_tuning_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_enable_sdio_irq, "op missing", hw_sdio_irq_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_request_sync_op, "op missing", hw_request_sync_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_get_caps_op, "op missing", hw_get_caps_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_get_limits_op, "op missing", hw_get_limits_missing, MMCHAL_ENOTSUP),
	BI_PRE(mmchal_host_init_card, WRAPPER_PRE),
	BI_PRE(mmchal_host_card_busy, WRAPPER_PRE),
	BI_PRE(mmchal_host_get_cd, WRAPPER_PRE),
	BI_PRE(mmchal_host_get_ro, WRAPPER_PRE),
	BI_PRE(mmchal_host_hw_reset, WRAPPER_PRE),
	BI_PRE(mmchal_host_execute_tuning, WRAPPER_PRE),
	BI_PRE(mmchal_host_enable_sdio_irq, WRAPPER_PRE),
	BI_PRE(mmchal_host_request_sync_op, WRAPPER_PRE),
	BI_PRE(mmchal_host_get_caps_op, WRAPPER_PRE),
	BI_PRE(mmchal_host_get_limits_op, WRAPPER_PRE),

	BI_ROW(mmchal_limits_derive, "NULL caps", derive_null_caps, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "NULL port", derive_null_port, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "NULL out", derive_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "card type 5", derive_card_enum, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "card type -1", derive_card_negative, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "DMA kind 3", derive_dma_kind, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "completion context 2", derive_completion_enum, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "policy override 5", derive_policy_enum, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "engine with 0 segments", derive_zero_segs, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "engine with 0-byte segments", derive_zero_seg_size,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "alignment 0x80000001", derive_align_npot, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "block counter 24 bits", derive_blk_bits, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "IOMMU page size while absent", derive_iommu_absent_fields,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "IOMMU aperture end < start", derive_iommu_aperture,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "IOMMU page UINT32_MAX", derive_iommu_page_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "merge boundary = page size", derive_merge_boundary,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "bounce slot 3000", derive_bounce_slot, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "bounce slots while absent", derive_bounce_absent_fields,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "request limit 511 bytes", derive_req_below_block,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "engine addr_bits 255", derive_addr_bits, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "max_blk_size UINT32_MAX", derive_blk_size_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "every policy figure UINT32_MAX", derive_policy_max, 0),
	BI_ROW(mmchal_limits_derive, "DEFERRED without work", derive_deferred_no_work,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "IRQ policy on a polled host", derive_irq_policy_polled,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_derive, "IRQ policy without a lock", derive_irq_policy_no_lock,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_limit_field_name, "COUNT and -1", field_name_range, 0),
	BI_ROW(mmchal_limit_reason_text, "COUNT and -1", reason_text_range, 0),
	BI_ROW(mmchal_completion_policy_name, "5 and -1", policy_name_range, 0),
	BI_ROW(mmchal_card_type_name, "5 and -1", card_type_name_range, 0),
	BI_ROW(mmchal_limits_explain_field, "NULL limits", explain_field_null_lim, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_explain_field, "NULL buf", explain_field_null_buf, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_explain_field, "size 0", explain_field_size0, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_explain_field, "field COUNT", explain_field_range, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_explain_field, "size 1", explain_field_size1, MMCHAL_ENOSPC),
	BI_ROW(mmchal_limits_explain_field, "limits never derived (garbage reasons)",
	       explain_field_garbage, 0),
	BI_ROW(mmchal_limits_explain, "NULL limits", explain_null_lim, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_explain, "NULL buf", explain_null_buf, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_explain, "size 0", explain_size0, MMCHAL_EINVAL),
	BI_ROW(mmchal_limits_explain, "size 8", explain_small, MMCHAL_ENOSPC),
	BI_ROW(mmchal_limits_explain, "size SIZE_MAX", explain_size_max, 0),
	BI_ROW(mmchal_limits_explain, "limits never derived (garbage reasons)", explain_garbage, 0),

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

const size_t bi_nrows_core = sizeof(bi_rows_core) / sizeof(bi_rows_core[0]);
