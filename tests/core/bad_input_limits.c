/*
 * Bad-input rows: the limits derivation, its names and its explanation text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

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

/* Limits derived for a PIO host and an SD card, in the arena (also the
 * request and planner rows' limits, bad_input_dma_plan.c). */
struct mmchal_limits *bi_good_limits(void)
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
	struct mmchal_limits *l = bi_good_limits();

	bi_arm();
	return mmchal_limits_explain_field(l, MMCHAL_LIM_MAX_SEGS, NULL, 256);
}

static int explain_field_size0(void)
{
	struct mmchal_limits *l = bi_good_limits();
	char *buf = bi_obj(256);

	bi_arm();
	return mmchal_limits_explain_field(l, MMCHAL_LIM_MAX_SEGS, buf, 0);
}

static int explain_field_range(void)
{
	struct mmchal_limits *l = bi_good_limits();
	char *buf = bi_obj(256);

	bi_arm();
	return mmchal_limits_explain_field(l, MMCHAL_LIM_COUNT, buf, 256);
}

static int explain_field_size1(void)
{
	struct mmchal_limits *l = bi_good_limits();
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
	struct mmchal_limits *l = bi_good_limits();
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
	struct mmchal_limits *l = bi_good_limits();

	bi_arm();
	return mmchal_limits_explain(l, NULL, 4096);
}

static int explain_size0(void)
{
	struct mmchal_limits *l = bi_good_limits();
	char *buf = bi_obj(64);

	bi_arm();
	return mmchal_limits_explain(l, buf, 0);
}

static int explain_small(void)
{
	struct mmchal_limits *l = bi_good_limits();
	char *buf = bi_obj(8);

	bi_writable(buf, 8);
	bi_arm();
	return mmchal_limits_explain(l, buf, 8) | (buf[0] == '\0' ? 0 : 1);
}

/* size SIZE_MAX over a buffer the text fits in: only the text and its NUL are written */
static int explain_size_max(void)
{
	struct mmchal_limits *l = bi_good_limits();
	char *buf = bi_obj(2048);
	int len = mmchal_limits_explain(l, buf, 2048);

	memset(buf, 0, 2048);
	bi_writable(buf, (size_t)len + 1u);
	bi_arm();
	return mmchal_limits_explain(l, buf, SIZE_MAX) == len ? 0 : 1;
}

static int explain_garbage(void)
{
	struct mmchal_limits *l = bi_good_limits();
	char *buf = bi_obj(4096);

	scramble(l);
	bi_writable(buf, 4096);
	bi_arm();
	return mmchal_limits_explain(l, buf, 4096) > 0 ? 0 : 1;
}

const struct bi_row bi_rows_limits[] = {
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
};

const size_t bi_nrows_limits = sizeof(bi_rows_limits) / sizeof(bi_rows_limits[0]);
