/*
 * Bad-input rows: the merge policy and the IOMMU domain (iommu.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

/* ------------------------------------------------------------------ iommu.h */

/* IOVA nodes of a domain's allocator (as in bad_input_iova.c). */
#define NODES 8u

static struct mmchal_iommu_caps *merge_caps(void)
{
	struct mmchal_iommu_caps *c = BI_NEW(struct mmchal_iommu_caps);

	c->present = true;
	c->page_size = 4096;
	c->merge_boundary = 4095;
	c->aperture_start = 0x100000;
	c->aperture_end = 0x3fffffff;
	return c;
}

static struct mmchal_sg *one_sg(void)
{
	struct mmchal_sg *sg = BI_NEW(struct mmchal_sg);

	sg->cpu = bi_obj(4096);
	sg->phys = 0x80000000u;
	sg->len = 4096;
	return sg;
}

static int merge_with(const struct mmchal_sg *sg, uint32_t nsg, const struct mmchal_iommu_caps *c,
		      enum mmchal_card_type card)
{
	struct mmchal_merge_info *info = BI_NEW(struct mmchal_merge_info);

	bi_writable(info, sizeof(*info));
	bi_arm();
	return (int)mmchal_merge_check(sg, nsg, c, card, info);
}

static int merge_null_caps(void)
{
	return merge_with(one_sg(), 1, NULL, MMCHAL_CARD_SD);
}

static int merge_null_sg(void)
{
	return merge_with(NULL, 1, merge_caps(), MMCHAL_CARD_SD);
}

static int merge_bad_caps(void)
{
	struct mmchal_iommu_caps *c = merge_caps();

	c->page_size = 3000;
	return merge_with(one_sg(), 1, c, MMCHAL_CARD_SD);
}

static int merge_card_enum(void)
{
	return merge_with(one_sg(), 1, merge_caps(), (enum mmchal_card_type)77);
}

static int merge_empty(void)
{
	return merge_with(NULL, 0, merge_caps(), MMCHAL_CARD_MMC);
}

static int merge_zero_len(void)
{
	struct mmchal_sg *sg = one_sg();

	sg->len = 0;
	return merge_with(sg, 1, merge_caps(), MMCHAL_CARD_MMC);
}

static int merge_wrap(void)
{
	struct mmchal_sg *sg = one_sg();

	sg->phys = UINT64_MAX - 100u;
	return merge_with(sg, 1, merge_caps(), MMCHAL_CARD_MMC);
}

static int merge_null_info(void)
{
	struct mmchal_sg *sg = one_sg();
	struct mmchal_iommu_caps *c = merge_caps();

	c->page_size = 0;
	bi_arm();
	return (int)mmchal_merge_check(sg, 1, c, MMCHAL_CARD_SD, NULL);
}

static int merge_str_range(void)
{
	bi_arm();
	return bi_str(mmchal_merge_reason_str((enum mmchal_merge_reason)99),
		      "unknown merge reason") |
	       bi_str(mmchal_merge_reason_str((enum mmchal_merge_reason) - 1),
		      "unknown merge reason");
}

static struct mmchal_iommu_domain_cfg *dom_cfg(void)
{
	struct mmchal_iommu_domain_cfg *c = BI_NEW(struct mmchal_iommu_domain_cfg);
	struct mmchal_iommu *i = BI_NEW(struct mmchal_iommu);

	i->ops = &bi_iommu_ops;
	i->ctx = BI_NEW(struct bi_spy);
	c->iommu = i;
	c->node_mem_size = NODES * MMCHAL_IOVA_NODE_SIZE;
	c->node_mem = bi_obj(c->node_mem_size);
	return c;
}

static struct mmchal_iommu_domain *dom_live(void)
{
	struct mmchal_iommu_domain *d = BI_NEW(struct mmchal_iommu_domain);

	if (mmchal_iommu_domain_init(d, dom_cfg()) != 0)
		fail_msg("bad_input: domain fixture");
	return d;
}

static int dom_init_with(struct mmchal_iommu_domain_cfg *c)
{
	struct mmchal_iommu_domain *d = BI_NEW(struct mmchal_iommu_domain);

	memset(d, 0x3c, sizeof(*d));
	bi_arm();
	return mmchal_iommu_domain_init(d, c);
}

static int dom_init_null(void)
{
	struct mmchal_iommu_domain_cfg *c = dom_cfg();

	bi_arm();
	return mmchal_iommu_domain_init(NULL, c);
}

static int dom_init_null_cfg(void)
{
	return dom_init_with(NULL);
}

static int dom_init_no_iommu(void)
{
	struct mmchal_iommu_domain_cfg *c = dom_cfg();

	c->iommu = NULL;
	return dom_init_with(c);
}

static int dom_init_addr_bits(void)
{
	struct mmchal_iommu_domain_cfg *c = dom_cfg();

	c->addr_bits = 65;
	return dom_init_with(c);
}

static int dom_init_no_nodes(void)
{
	struct mmchal_iommu_domain_cfg *c = dom_cfg();

	c->node_mem = NULL;
	return dom_init_with(c);
}

static int dom_init_nodes_small(void)
{
	struct mmchal_iommu_domain_cfg *c = dom_cfg();

	c->node_mem_size = 8;
	return dom_init_with(c);
}

static int dom_init_nodes_unaligned(void)
{
	struct mmchal_iommu_domain_cfg *c = dom_cfg();

	c->node_mem = bi_obj_at(c->node_mem_size, 2);
	return dom_init_with(c);
}

static int dom_init_cache_unaligned(void)
{
	struct mmchal_iommu_domain_cfg *c = dom_cfg();

	c->cache_mem_size = MMCHAL_IOVA_CACHE_BYTES(MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT, 1);
	c->cache_mem = bi_obj_at(c->cache_mem_size, 4);
	return dom_init_with(c);
}

static int dom_init_addr_bits_small(void)
{
	struct mmchal_iommu_domain_cfg *c = dom_cfg();

	/* a 20-bit master cannot reach the aperture at 1 MiB */
	c->addr_bits = 20;
	return dom_init_with(c);
}

static int dom_caps_null(void)
{
	struct mmchal_iommu_caps *c = BI_NEW(struct mmchal_iommu_caps);

	bi_arm();
	return mmchal_iommu_domain_get_caps(NULL, c);
}

static int dom_caps_null_out(void)
{
	struct mmchal_iommu_domain *d = dom_live();

	bi_arm();
	return mmchal_iommu_domain_get_caps(d, NULL);
}

static int dom_stats_null(void)
{
	struct mmchal_iommu_domain_stats *st = BI_NEW(struct mmchal_iommu_domain_stats);

	bi_arm();
	return mmchal_iommu_domain_get_stats(NULL, st);
}

static int dom_stats_null_out(void)
{
	struct mmchal_iommu_domain *d = dom_live();

	bi_arm();
	return mmchal_iommu_domain_get_stats(d, NULL);
}

struct map_objs {
	struct mmchal_iommu_domain *dom;
	struct mmchal_sg *sg;
	struct mmchal_iommu_mapping *map;
	struct mmchal_dma_seg *out;
	struct mmchal_merge_info *info;
};

static struct map_objs mo(bool live)
{
	struct map_objs o;

	o.dom = live ? dom_live() : BI_NEW(struct mmchal_iommu_domain);
	o.sg = one_sg();
	o.map = BI_NEW(struct mmchal_iommu_mapping);
	o.out = BI_NEW(struct mmchal_dma_seg);
	o.info = BI_NEW(struct mmchal_merge_info);
	return o;
}

static int mm_null_dom(void)
{
	struct map_objs o = mo(true);

	bi_arm();
	return mmchal_iommu_map_merged(NULL, o.sg, 1, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD, o.map,
				       o.out, o.info);
}

static int mm_null_map(void)
{
	struct map_objs o = mo(true);

	bi_arm();
	return mmchal_iommu_map_merged(o.dom, o.sg, 1, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD, NULL,
				       o.out, o.info);
}

static int mm_null_out(void)
{
	struct map_objs o = mo(true);

	bi_arm();
	return mmchal_iommu_map_merged(o.dom, o.sg, 1, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD, o.map,
				       NULL, o.info);
}

static int mm_null_sg(void)
{
	struct map_objs o = mo(true);

	bi_writable(o.info, sizeof(*o.info));
	bi_arm();
	return mmchal_iommu_map_merged(o.dom, NULL, 1, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD, o.map,
				       o.out, o.info);
}

static int mm_dir(void)
{
	struct map_objs o = mo(true);

	bi_arm();
	return mmchal_iommu_map_merged(o.dom, o.sg, 1, (enum mmchal_dir)2, MMCHAL_CARD_SD, o.map,
				       o.out, o.info);
}

static int mm_card(void)
{
	struct map_objs o = mo(true);

	bi_writable(o.info, sizeof(*o.info));
	bi_arm();
	return mmchal_iommu_map_merged(o.dom, o.sg, 1, MMCHAL_DIR_TO_CARD, (enum mmchal_card_type)9,
				       o.map, o.out, o.info);
}

static int mm_nsg_max(void)
{
	struct map_objs o = mo(true);

	/* only the first entry exists: the walk must stop at the first bad one */
	o.sg->len = 0;
	bi_writable(o.info, sizeof(*o.info));
	bi_arm();
	return mmchal_iommu_map_merged(o.dom, o.sg, UINT32_MAX, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
				       o.map, o.out, o.info);
}

static int mm_uninit(void)
{
	struct map_objs o = mo(false);

	bi_writable(o.info, sizeof(*o.info));
	bi_arm();
	return mmchal_iommu_map_merged(o.dom, o.sg, 1, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD, o.map,
				       o.out, o.info);
}

static int mm_mapped(void)
{
	struct map_objs o = mo(true);

	if (mmchal_iommu_map_merged(o.dom, o.sg, 1, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD, o.map,
				    o.out, NULL) != 0)
		fail_msg("bad_input: merged mapping fixture");
	bi_arm();
	return mmchal_iommu_map_merged(o.dom, o.sg, 1, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD, o.map,
				       o.out, o.info);
}

static int ms_null_dom(void)
{
	struct map_objs o = mo(true);

	bi_arm();
	return mmchal_iommu_map_segs(NULL, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

static int ms_null_sg(void)
{
	struct map_objs o = mo(true);

	bi_arm();
	return mmchal_iommu_map_segs(o.dom, NULL, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

static int ms_nsg0(void)
{
	struct map_objs o = mo(true);

	bi_arm();
	return mmchal_iommu_map_segs(o.dom, o.sg, 0, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

static int ms_null_map(void)
{
	struct map_objs o = mo(true);

	bi_arm();
	return mmchal_iommu_map_segs(o.dom, o.sg, 1, MMCHAL_DIR_FROM_CARD, NULL, o.out);
}

static int ms_null_out(void)
{
	struct map_objs o = mo(true);

	bi_arm();
	return mmchal_iommu_map_segs(o.dom, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, NULL);
}

static int ms_dir(void)
{
	struct map_objs o = mo(true);

	bi_arm();
	return mmchal_iommu_map_segs(o.dom, o.sg, 1, (enum mmchal_dir) - 1, o.map, o.out);
}

static int ms_len0(void)
{
	struct map_objs o = mo(true);

	o.sg->len = 0;
	bi_arm();
	return mmchal_iommu_map_segs(o.dom, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

static int ms_wrap(void)
{
	struct map_objs o = mo(true);

	o.sg->phys = UINT64_MAX;
	o.sg->len = 2;
	bi_arm();
	return mmchal_iommu_map_segs(o.dom, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

static int ms_uninit(void)
{
	struct map_objs o = mo(false);

	bi_arm();
	return mmchal_iommu_map_segs(o.dom, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

static int ms_mapped(void)
{
	struct map_objs o = mo(true);

	if (mmchal_iommu_map_segs(o.dom, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out) != 0)
		fail_msg("bad_input: per-segment mapping fixture");
	bi_arm();
	return mmchal_iommu_map_segs(o.dom, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

/* More segments than the IOVA node pool holds ranges: the mapping fails in
 * the middle and is unwound, every page mapped so far unmapped again. */
static int ms_pool_exhausted(void)
{
	struct mmchal_iommu_domain *d = BI_NEW(struct mmchal_iommu_domain);
	struct mmchal_iommu_domain_cfg *c = dom_cfg();
	struct bi_spy *spy = c->iommu->ctx;
	enum { N = 64 };
	struct mmchal_sg *sg = bi_obj(N * sizeof(*sg));
	struct mmchal_dma_seg *out = bi_obj(N * sizeof(*out));
	struct mmchal_iommu_mapping *map = BI_NEW(struct mmchal_iommu_mapping);
	struct mmchal_iommu_domain_stats st;
	int ret;

	c->node_mem_size = MMCHAL_IOVA_NODE_SIZE;
	if (mmchal_iommu_domain_init(d, c) != 0)
		fail_msg("bad_input: domain fixture");
	for (unsigned int i = 0; i < N; i++) {
		/* every other page: no two entries share one */
		sg[i].phys = 0x80000000u + 0x2000u * i;
		sg[i].len = 4096;
	}
	bi_writable(d, sizeof(*d));
	bi_writable(out, N * sizeof(*out));
	bi_writable(spy, sizeof(*spy));
	bi_writable(c->node_mem, c->node_mem_size);
	bi_arm();
	ret = mmchal_iommu_map_segs(d, sg, N, MMCHAL_DIR_TO_CARD, map, out);
	if (mmchal_iommu_domain_get_stats(d, &st) != 0 || st.pages_mapped != 0 ||
	    st.map_failures != 1 || st.maps != 0 || mmchal_iova_check(&d->iova) != 0 ||
	    spy->calls[BI_SPY_IOMMU_MAP] != spy->calls[BI_SPY_IOMMU_UNMAP] ||
	    spy->calls[BI_SPY_IOMMU_MAP] == 0)
		return 1000;
	return ret;
}

static int un_null_dom(void)
{
	struct mmchal_iommu_mapping *m = BI_NEW(struct mmchal_iommu_mapping);

	bi_arm();
	return mmchal_iommu_unmap(NULL, m);
}

static int un_null_map(void)
{
	struct mmchal_iommu_domain *d = dom_live();

	bi_arm();
	return mmchal_iommu_unmap(d, NULL);
}

static int un_never(void)
{
	struct mmchal_iommu_domain *d = dom_live();
	struct mmchal_iommu_mapping *m = BI_NEW(struct mmchal_iommu_mapping);

	bi_arm();
	return mmchal_iommu_unmap(d, m);
}

static int un_twice(void)
{
	struct map_objs o = mo(true);

	if (mmchal_iommu_map_segs(o.dom, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out) != 0 ||
	    mmchal_iommu_unmap(o.dom, o.map) != 0)
		fail_msg("bad_input: unmap fixture");
	bi_arm();
	return mmchal_iommu_unmap(o.dom, o.map);
}

static int un_segs_corrupt(void)
{
	struct map_objs o = mo(true);

	if (mmchal_iommu_map_segs(o.dom, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out) != 0)
		fail_msg("bad_input: unmap fixture");
	o.out->addr = 0x1000; /* page 1: never handed out here */
	bi_arm();
	return mmchal_iommu_unmap(o.dom, o.map);
}

static int un_uninit_dom(void)
{
	struct map_objs o = mo(true);
	struct mmchal_iommu_domain *d = BI_NEW(struct mmchal_iommu_domain);

	if (mmchal_iommu_map_segs(o.dom, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out) != 0)
		fail_msg("bad_input: unmap fixture");
	bi_arm();
	return mmchal_iommu_unmap(d, o.map);
}

const struct bi_row bi_rows_iommu[] = {
	BI_ROW(mmchal_merge_check, "NULL caps", merge_null_caps, MMCHAL_MERGE_BAD_ARGS),
	BI_ROW(mmchal_merge_check, "NULL sg with 1 entry", merge_null_sg, MMCHAL_MERGE_BAD_ARGS),
	BI_ROW(mmchal_merge_check, "page size 3000", merge_bad_caps, MMCHAL_MERGE_BAD_ARGS),
	BI_ROW(mmchal_merge_check, "card type 77", merge_card_enum, MMCHAL_MERGE_CARD_TYPE),
	BI_ROW(mmchal_merge_check, "0 entries", merge_empty, MMCHAL_MERGE_EMPTY),
	BI_ROW(mmchal_merge_check, "entry length 0", merge_zero_len, MMCHAL_MERGE_ZERO_LENGTH),
	BI_ROW(mmchal_merge_check, "entry wraps", merge_wrap, MMCHAL_MERGE_OVERFLOW),
	BI_ROW(mmchal_merge_check, "NULL info, page size 0", merge_null_info,
	       MMCHAL_MERGE_BAD_ARGS),
	BI_ROW(mmchal_merge_reason_str, "99 and -1", merge_str_range, 0),
	BI_ROW(mmchal_iommu_domain_init, "NULL domain", dom_init_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_init, "NULL cfg", dom_init_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_init, "no IOMMU", dom_init_no_iommu, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_init, "addr_bits 65", dom_init_addr_bits, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_init, "addr_bits 20 below the aperture",
	       dom_init_addr_bits_small, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_init, "no node memory", dom_init_no_nodes, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_init, "node memory 8 bytes", dom_init_nodes_small,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_init, "node memory at +2", dom_init_nodes_unaligned,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_init, "cache memory at +4", dom_init_cache_unaligned,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_get_caps, "NULL domain", dom_caps_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_get_caps, "NULL out", dom_caps_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_get_stats, "NULL domain", dom_stats_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_domain_get_stats, "NULL out", dom_stats_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_merged, "NULL domain", mm_null_dom, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_merged, "NULL map", mm_null_map, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_merged, "NULL out", mm_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_merged, "NULL sg", mm_null_sg, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_merged, "direction 2", mm_dir, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_merged, "card type 9", mm_card, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_merged, "nsg UINT32_MAX, first entry bad", mm_nsg_max,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_merged, "domain never initialised", mm_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_merged, "mapping still mapped", mm_mapped, MMCHAL_EBUSY),
	BI_ROW(mmchal_iommu_map_segs, "NULL domain", ms_null_dom, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_segs, "NULL sg", ms_null_sg, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_segs, "0 entries", ms_nsg0, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_segs, "NULL map", ms_null_map, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_segs, "NULL out", ms_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_segs, "direction -1", ms_dir, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_segs, "entry length 0", ms_len0, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_segs, "entry wraps", ms_wrap, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_segs, "domain never initialised", ms_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_map_segs, "mapping still mapped", ms_mapped, MMCHAL_EBUSY),
	BI_ROW(mmchal_iommu_map_segs, "64 entries, IOVA nodes for 16", ms_pool_exhausted,
	       MMCHAL_ENOMEM),
	BI_ROW(mmchal_iommu_unmap, "NULL domain", un_null_dom, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_unmap, "NULL map", un_null_map, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_unmap, "never mapped", un_never, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_unmap, "unmapped twice", un_twice, MMCHAL_EALREADY),
	BI_ROW(mmchal_iommu_unmap, "segment address changed", un_segs_corrupt, MMCHAL_ENOENT),
	BI_ROW(mmchal_iommu_unmap, "domain never initialised", un_uninit_dom, MMCHAL_EINVAL),
};

const size_t bi_nrows_iommu = sizeof(bi_rows_iommu) / sizeof(bi_rows_iommu[0]);
