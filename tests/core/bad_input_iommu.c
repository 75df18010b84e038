/*
 * Bad-input rows: the IOVA allocator, the merge policy, the IOMMU domain and
 * the bounce pool.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

/* ------------------------------------------------------------------ iova.h */

#define NODES 8u

static struct mmchal_iova_cfg *iova_cfg(void)
{
	struct mmchal_iova_cfg *c = BI_NEW(struct mmchal_iova_cfg);

	c->aperture_start = 1;
	c->aperture_end = 0xfffff;
	c->node_mem_size = NODES * MMCHAL_IOVA_NODE_SIZE;
	c->node_mem = bi_obj(c->node_mem_size);
	return c;
}

/* An allocator with one live range of 4 pages at its top (0xffffc). */
static struct mmchal_iova *iova_live(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);
	uint64_t start;

	if (mmchal_iova_init(v, iova_cfg()) != 0 ||
	    mmchal_iova_alloc(v, 4, UINT64_MAX, false, &start) != 0 || start != 0xffffc)
		fail_msg("bad_input: IOVA fixture");
	return v;
}

/* An allocator with a checked per-size cache (sizes 1..4, 2 per size) and one
 * live range of 2 pages at 0xffffe. */
static struct mmchal_iova *iova_cached(uint32_t flags)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);
	struct mmchal_iova_cfg *c = iova_cfg();
	uint64_t start;

	c->cache_max_pages = 4;
	c->cache_depth = 2;
	c->cache_mem_size = MMCHAL_IOVA_CACHE_BYTES(4, 2);
	c->cache_mem = bi_obj(c->cache_mem_size);
	c->flags = flags;
	if (mmchal_iova_init(v, c) != 0 ||
	    mmchal_iova_alloc_cached(v, 2, UINT64_MAX, false, &start) != 0 || start != 0xffffe)
		fail_msg("bad_input: cached IOVA fixture");
	return v;
}

static int iova_init_with(struct mmchal_iova_cfg *c)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);

	memset(v, 0x3c, sizeof(*v)); /* the caller's bytes must survive a refusal */
	bi_arm();
	return mmchal_iova_init(v, c);
}

static int iova_init_null(void)
{
	struct mmchal_iova_cfg *c = iova_cfg();

	bi_arm();
	return mmchal_iova_init(NULL, c);
}

static int iova_init_null_cfg(void)
{
	return iova_init_with(NULL);
}

static int iova_init_no_nodes(void)
{
	struct mmchal_iova_cfg *c = iova_cfg();

	c->node_mem = NULL;
	return iova_init_with(c);
}

static int iova_init_start0(void)
{
	struct mmchal_iova_cfg *c = iova_cfg();

	c->aperture_start = 0;
	return iova_init_with(c);
}

static int iova_init_end_max(void)
{
	struct mmchal_iova_cfg *c = iova_cfg();

	c->aperture_end = UINT64_MAX;
	return iova_init_with(c);
}

static int iova_init_reversed(void)
{
	struct mmchal_iova_cfg *c = iova_cfg();

	c->aperture_start = 100;
	c->aperture_end = 99;
	return iova_init_with(c);
}

static int iova_init_nodes_unaligned(void)
{
	struct mmchal_iova_cfg *c = iova_cfg();

	c->node_mem = bi_obj_at(NODES * MMCHAL_IOVA_NODE_SIZE + 4u, 4);
	return iova_init_with(c);
}

static int iova_init_nodes_small(void)
{
	struct mmchal_iova_cfg *c = iova_cfg();

	c->node_mem_size = MMCHAL_IOVA_NODE_SIZE - 1u;
	return iova_init_with(c);
}

static int iova_init_cache_unaligned(void)
{
	struct mmchal_iova_cfg *c = iova_cfg();

	c->cache_max_pages = 4;
	c->cache_mem_size = MMCHAL_IOVA_CACHE_BYTES(4, 2);
	c->cache_mem = bi_obj_at(c->cache_mem_size, 1);
	return iova_init_with(c);
}

static int iova_init_cache_small(void)
{
	struct mmchal_iova_cfg *c = iova_cfg();

	c->cache_max_pages = 4;
	c->cache_mem_size = MMCHAL_IOVA_CACHE_BYTES(4, 1) - 1u;
	c->cache_mem = bi_obj(c->cache_mem_size);
	return iova_init_with(c);
}

static int iova_init_cache_pages_max(void)
{
	struct mmchal_iova_cfg *c = iova_cfg();

	c->cache_max_pages = 65536;
	c->cache_mem_size = 64;
	c->cache_mem = bi_obj(c->cache_mem_size);
	return iova_init_with(c);
}

static int iova_alloc_null(void)
{
	uint64_t *s = BI_NEW(uint64_t);

	bi_arm();
	return mmchal_iova_alloc(NULL, 1, UINT64_MAX, false, s);
}

static int iova_alloc_null_start(void)
{
	struct mmchal_iova *v = iova_live();

	bi_arm();
	return mmchal_iova_alloc(v, 1, UINT64_MAX, false, NULL);
}

static int iova_alloc_zero(void)
{
	struct mmchal_iova *v = iova_live();
	uint64_t *s = BI_NEW(uint64_t);

	bi_arm();
	return mmchal_iova_alloc(v, 0, UINT64_MAX, false, s);
}

static int iova_alloc_huge(void)
{
	struct mmchal_iova *v = iova_live();
	uint64_t *s = BI_NEW(uint64_t);

	bi_arm();
	return mmchal_iova_alloc(v, UINT64_MAX, UINT64_MAX, true, s);
}

static int iova_alloc_limit_low(void)
{
	struct mmchal_iova *v = iova_live();
	uint64_t *s = BI_NEW(uint64_t);

	bi_arm();
	return mmchal_iova_alloc(v, 1, 0, false, s);
}

static int iova_alloc_uninit(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);
	uint64_t *s = BI_NEW(uint64_t);

	bi_arm();
	return mmchal_iova_alloc(v, 1, UINT64_MAX, false, s);
}

static int iova_free_null(void)
{
	bi_arm();
	return mmchal_iova_free(NULL, 1);
}

static int iova_free_unknown(void)
{
	struct mmchal_iova *v = iova_live();

	/* a failed lookup is a tree operation: its visit counters change */
	bi_writable(&v->st, sizeof(v->st));
	bi_arm();
	return mmchal_iova_free(v, 0xffffd);
}

static int iova_free_max(void)
{
	struct mmchal_iova *v = iova_live();

	/* a failed lookup is a tree operation: its visit counters change */
	bi_writable(&v->st, sizeof(v->st));
	bi_arm();
	return mmchal_iova_free(v, UINT64_MAX);
}

static int iova_free_uninit(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);

	bi_arm();
	return mmchal_iova_free(v, 1);
}

static int iova_find_null(void)
{
	bi_arm();
	return mmchal_iova_find(NULL, 1, NULL, NULL);
}

static int iova_find_none(void)
{
	struct mmchal_iova *v = iova_live();
	uint64_t *s = BI_NEW(uint64_t), *n = BI_NEW(uint64_t);

	bi_arm();
	return mmchal_iova_find(v, 0xffffb, s, n);
}

static int iova_find_max(void)
{
	struct mmchal_iova *v = iova_live();

	bi_arm();
	return mmchal_iova_find(v, UINT64_MAX, NULL, NULL);
}

static int iova_find_uninit(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);

	bi_arm();
	return mmchal_iova_find(v, 1, NULL, NULL);
}

static int iova_allocc_null(void)
{
	uint64_t *s = BI_NEW(uint64_t);

	bi_arm();
	return mmchal_iova_alloc_cached(NULL, 1, UINT64_MAX, false, s);
}

static int iova_allocc_zero(void)
{
	struct mmchal_iova *v = iova_live();
	uint64_t *s = BI_NEW(uint64_t);

	bi_arm();
	return mmchal_iova_alloc_cached(v, 0, UINT64_MAX, false, s);
}

static int iova_allocc_null_start(void)
{
	struct mmchal_iova *v = iova_live();

	bi_arm();
	return mmchal_iova_alloc_cached(v, 1, UINT64_MAX, false, NULL);
}

static int iova_allocc_uninit(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);
	uint64_t *s = BI_NEW(uint64_t);

	bi_arm();
	return mmchal_iova_alloc_cached(v, 1, UINT64_MAX, false, s);
}

static int iova_freec_null(void)
{
	bi_arm();
	return mmchal_iova_free_cached(NULL, 1, 1);
}

static int iova_freec_zero(void)
{
	struct mmchal_iova *v = iova_live();

	bi_arm();
	return mmchal_iova_free_cached(v, 0xffffc, 0);
}

static int iova_freec_outside(void)
{
	struct mmchal_iova *v = iova_live();

	bi_arm();
	return mmchal_iova_free_cached(v, 0xffffc, UINT64_MAX);
}

static int iova_freec_unknown(void)
{
	struct mmchal_iova *v = iova_live();

	/* a failed lookup is a tree operation: its visit counters change */
	bi_writable(&v->st, sizeof(v->st));
	bi_arm();
	return mmchal_iova_free_cached(v, 0x10, 4);
}

static int iova_freec_uninit(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);

	bi_arm();
	return mmchal_iova_free_cached(v, 1, 1);
}

static int iova_allocc_zero_cached(void)
{
	struct mmchal_iova *v = iova_cached(0);
	uint64_t *s = BI_NEW(uint64_t);

	bi_arm();
	return mmchal_iova_alloc_cached(v, 0, UINT64_MAX, false, s);
}

static int iova_freec_wrong_size(void)
{
	struct mmchal_iova *v = iova_cached(MMCHAL_IOVA_F_CHECK_CACHED);

	bi_writable(&v->st, sizeof(v->st));
	bi_arm();
	return mmchal_iova_free_cached(v, 0xffffe, 1);
}

static int iova_freec_twice(void)
{
	struct mmchal_iova *v = iova_cached(0);

	if (mmchal_iova_free_cached(v, 0xffffe, 2) != 0)
		fail_msg("bad_input: first cached free");
	bi_arm();
	return mmchal_iova_free_cached(v, 0xffffe, 2);
}

static int iova_free_cached_range(void)
{
	struct mmchal_iova *v = iova_cached(0);

	if (mmchal_iova_free_cached(v, 0xffffe, 2) != 0)
		fail_msg("bad_input: first cached free");
	bi_writable(&v->st, sizeof(v->st));
	bi_arm();
	return mmchal_iova_free(v, 0xffffe);
}

/* The node pool runs out in the middle of a split: "nothing changed". */
static int iova_nodes_exhausted(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);
	struct mmchal_iova_cfg *c = iova_cfg();
	uint64_t *s = BI_NEW(uint64_t);
	uint64_t start;
	int ret = 0;
	unsigned int n;

	c->node_mem_size = MMCHAL_IOVA_NODE_SIZE; /* one leaf: no room to split */
	if (mmchal_iova_init(v, c) != 0)
		fail_msg("bad_input: IOVA fixture");
	/* one-page ranges with a free page between them: every range is a leaf entry */
	for (n = 0; n < 64 && ret == 0; n++)
		ret = mmchal_iova_alloc(v, 1, 0xfffff - 2u * n, false, &start);
	if (ret != MMCHAL_ENOMEM || mmchal_iova_check(v) != 0)
		fail_msg("bad_input: the pool never ran out (%d after %u)", ret, n);
	bi_writable(&v->st, sizeof(v->st)); /* the documented failure counter */
	bi_arm();
	ret = mmchal_iova_alloc(v, 1, 0xfffff - 2u * n, false, s);
	return ret | (mmchal_iova_check(v) == 0 ? 0 : 0x100);
}

static int iova_flush_null(void)
{
	bi_arm();
	return mmchal_iova_cache_flush(NULL);
}

static int iova_flush_uninit(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);

	bi_arm();
	return mmchal_iova_cache_flush(v);
}

static int iova_stats_null(void)
{
	struct mmchal_iova_stats *st = BI_NEW(struct mmchal_iova_stats);

	bi_arm();
	return mmchal_iova_get_stats(NULL, st);
}

static int iova_stats_null_out(void)
{
	struct mmchal_iova *v = iova_live();

	bi_arm();
	return mmchal_iova_get_stats(v, NULL);
}

static int iova_stats_uninit(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);
	struct mmchal_iova_stats *st = BI_NEW(struct mmchal_iova_stats);

	bi_arm();
	return mmchal_iova_get_stats(v, st);
}

static int iova_reset_null(void)
{
	bi_arm();
	return mmchal_iova_reset_stats(NULL);
}

static int iova_reset_uninit(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);

	bi_arm();
	return mmchal_iova_reset_stats(v);
}

static int iova_check_null(void)
{
	bi_arm();
	return mmchal_iova_check(NULL);
}

static int iova_check_uninit(void)
{
	struct mmchal_iova *v = BI_NEW(struct mmchal_iova);

	bi_arm();
	return mmchal_iova_check(v);
}

static int iova_check_corrupt(void)
{
	struct mmchal_iova *v = iova_live();

	v->st.live_ranges = 7;
	bi_arm();
	return mmchal_iova_check(v);
}

static int iova_node_size_value(void)
{
	bi_arm();
	return mmchal_iova_node_size() == MMCHAL_IOVA_NODE_SIZE ? 0 : 1;
}

/* ------------------------------------------------------------------ iommu.h */

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

/* ------------------------------------------------------------------ bounce.h */

#define SLOT   512u
#define NSLOTS 8u

static struct mmchal_bounce_cfg *bounce_cfg(void)
{
	struct mmchal_bounce_cfg *c = BI_NEW(struct mmchal_bounce_cfg);

	c->size = SLOT * NSLOTS;
	c->mem = bi_obj(c->size);
	c->dma = 0x60000000u;
	c->slot_size = SLOT;
	c->slots_per_map = 4;
	c->meta_size = MMCHAL_BOUNCE_META_BYTES(NSLOTS);
	c->meta = bi_obj(c->meta_size);
	return c;
}

static struct mmchal_bounce *bounce_live(void)
{
	struct mmchal_bounce *b = BI_NEW(struct mmchal_bounce);

	if (mmchal_bounce_init(b, bounce_cfg()) != 0)
		fail_msg("bad_input: bounce fixture");
	return b;
}

static int binit_with(struct mmchal_bounce_cfg *c)
{
	struct mmchal_bounce *b = BI_NEW(struct mmchal_bounce);

	memset(b, 0x3c, sizeof(*b));
	bi_arm();
	return mmchal_bounce_init(b, c);
}

static int binit_null(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	bi_arm();
	return mmchal_bounce_init(NULL, c);
}

static int binit_null_cfg(void)
{
	return binit_with(NULL);
}

static int binit_no_mem(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->mem = NULL;
	return binit_with(c);
}

static int binit_no_meta(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->meta = NULL;
	return binit_with(c);
}

static int binit_slot_npot(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->slot_size = 600;
	return binit_with(c);
}

static int binit_slot_max(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->slot_size = UINT32_MAX;
	return binit_with(c);
}

static int binit_size0(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->size = 0;
	return binit_with(c);
}

static int binit_few_slots(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->slots_per_map = NSLOTS + 1u;
	return binit_with(c);
}

static int binit_meta_small(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->size = SIZE_MAX;
	return binit_with(c);
}

static int bcaps_null(void)
{
	struct mmchal_bounce *b = bounce_live();

	bi_arm();
	return mmchal_bounce_get_caps(b, NULL);
}

static int bcaps_uninit(void)
{
	struct mmchal_bounce *b = BI_NEW(struct mmchal_bounce);
	struct mmchal_bounce_caps *c = BI_NEW(struct mmchal_bounce_caps);

	bi_arm();
	return mmchal_bounce_get_caps(b, c);
}

static int bcaps_no_pool(void)
{
	struct mmchal_bounce_caps *c = BI_NEW(struct mmchal_bounce_caps);

	memset(c, 0xff, sizeof(*c));
	bi_writable(c, sizeof(*c));
	bi_arm();
	return mmchal_bounce_get_caps(NULL, c) | (c->present ? 1 : 0) | (c->nslots ? 2 : 0);
}

struct bmap_objs {
	struct mmchal_bounce *b;
	struct mmchal_sg *sg;
	struct mmchal_bounce_map *map;
	struct mmchal_dma_seg *out;
};

static struct bmap_objs bo(bool live)
{
	struct bmap_objs o;

	o.b = live ? bounce_live() : BI_NEW(struct mmchal_bounce);
	o.sg = BI_NEW(struct mmchal_sg);
	o.sg->len = 1000;
	o.sg->cpu = bi_obj(o.sg->len);
	o.sg->phys = 0x1234;
	o.map = BI_NEW(struct mmchal_bounce_map);
	o.out = BI_NEW(struct mmchal_dma_seg);
	return o;
}

static int bmap_null(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(NULL, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

static int bmap_null_sg(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(o.b, NULL, 1, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

static int bmap_nsg0(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 0, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

static int bmap_null_map(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, NULL, o.out);
}

static int bmap_null_out(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, NULL);
}

static int bmap_dir(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, (enum mmchal_dir)2, o.map, o.out);
}

static int bmap_no_cpu(void)
{
	struct bmap_objs o = bo(true);

	o.sg->cpu = NULL;
	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

static int bmap_len0(void)
{
	struct bmap_objs o = bo(true);

	o.sg->len = 0;
	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

static int bmap_too_large(void)
{
	struct bmap_objs o = bo(true);

	o.sg->len = UINT32_MAX;
	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

static int bmap_mapped(void)
{
	struct bmap_objs o = bo(true);

	if (mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out) != 0)
		fail_msg("bad_input: bounce map fixture");
	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

static int bmap_uninit(void)
{
	struct bmap_objs o = bo(false);

	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

/* An odd CPU address is fine: the data is copied byte for byte. */
static int bmap_unaligned_cpu(void)
{
	struct bmap_objs o = bo(true);

	o.sg->cpu = bi_obj_at(o.sg->len, 1);
	memset(o.sg->cpu, 0x77, o.sg->len);
	bi_writable(o.b, sizeof(*o.b));
	bi_writable(o.b->mem, SLOT * NSLOTS);
	bi_writable(o.b->used, MMCHAL_BOUNCE_META_BYTES(NSLOTS));
	bi_writable(o.map, sizeof(*o.map));
	bi_writable(o.out, sizeof(*o.out));
	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out) |
	       (o.out->len == 1000u && o.b->mem[999] == 0x77 ? 0 : 1);
}

static int bmapa_align(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map_aligned(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, 3, o.map, o.out);
}

static int bmapa_align_max(void)
{
	struct bmap_objs o = bo(true);

	bi_writable(o.b, sizeof(*o.b));
	bi_arm();
	return mmchal_bounce_map_aligned(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, 0x80000000u, o.map,
					 o.out);
}

static int bmapa_null(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map_aligned(NULL, o.sg, 1, MMCHAL_DIR_TO_CARD, 8, o.map, o.out);
}

static int bunmap_null(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_unmap(NULL, o.map, true);
}

static int bunmap_null_map(void)
{
	struct mmchal_bounce *b = bounce_live();

	bi_arm();
	return mmchal_bounce_unmap(b, NULL, true);
}

static int bunmap_never(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_unmap(o.b, o.map, true);
}

static int bunmap_twice(void)
{
	struct bmap_objs o = bo(true);

	if (mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out) != 0 ||
	    mmchal_bounce_unmap(o.b, o.map, true) != 0)
		fail_msg("bad_input: bounce unmap fixture");
	bi_arm();
	return mmchal_bounce_unmap(o.b, o.map, true);
}

static int bunmap_uninit_pool(void)
{
	struct bmap_objs o = bo(true);
	struct mmchal_bounce *b = BI_NEW(struct mmchal_bounce);

	if (mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out) != 0)
		fail_msg("bad_input: bounce unmap fixture");
	bi_arm();
	return mmchal_bounce_unmap(b, o.map, true);
}

static int bunmap_corrupt(void)
{
	struct bmap_objs o = bo(true);

	if (mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out) != 0)
		fail_msg("bad_input: bounce unmap fixture");
	o.map->first = NSLOTS - 1u;
	bi_arm();
	return mmchal_bounce_unmap(o.b, o.map, true);
}

static int bin_use_null(void)
{
	bi_arm();
	return (int)mmchal_bounce_in_use(NULL);
}

static int bpeak_null(void)
{
	bi_arm();
	return (int)mmchal_bounce_peak(NULL);
}

const struct bi_row bi_rows_iommu[] = {
	BI_ROW(mmchal_iova_init, "NULL iova", iova_init_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_init, "NULL cfg", iova_init_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_init, "no node memory", iova_init_no_nodes, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_init, "aperture start 0", iova_init_start0, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_init, "aperture end UINT64_MAX", iova_init_end_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_init, "aperture end < start", iova_init_reversed, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_init, "node memory at +4", iova_init_nodes_unaligned, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_init, "node memory below one node", iova_init_nodes_small,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_init, "cache memory at +1", iova_init_cache_unaligned, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_init, "cache memory too small", iova_init_cache_small, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_init, "cache_max_pages 65536", iova_init_cache_pages_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_alloc, "NULL iova", iova_alloc_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_alloc, "NULL start", iova_alloc_null_start, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_alloc, "0 pages", iova_alloc_zero, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_alloc, "UINT64_MAX pages", iova_alloc_huge, MMCHAL_ERANGE),
	BI_ROW(mmchal_iova_alloc, "limit below the aperture", iova_alloc_limit_low, MMCHAL_ERANGE),
	BI_ROW(mmchal_iova_alloc, "never initialised", iova_alloc_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_free, "NULL iova", iova_free_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_free, "not a range start", iova_free_unknown, MMCHAL_ENOENT),
	BI_ROW(mmchal_iova_free, "start UINT64_MAX", iova_free_max, MMCHAL_ENOENT),
	BI_ROW(mmchal_iova_free, "never initialised", iova_free_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_find, "NULL iova", iova_find_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_find, "page in no range", iova_find_none, MMCHAL_ENOENT),
	BI_ROW(mmchal_iova_find, "page UINT64_MAX", iova_find_max, MMCHAL_ENOENT),
	BI_ROW(mmchal_iova_find, "never initialised", iova_find_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_alloc_cached, "NULL iova", iova_allocc_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_alloc_cached, "0 pages", iova_allocc_zero, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_alloc_cached, "NULL start", iova_allocc_null_start, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_alloc_cached, "never initialised", iova_allocc_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_alloc_cached, "0 pages with a cache", iova_allocc_zero_cached,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_alloc, "node pool exhausted in a split", iova_nodes_exhausted,
	       MMCHAL_ENOMEM),
	BI_ROW(mmchal_iova_free_cached, "NULL iova", iova_freec_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_free_cached, "checked: another size", iova_freec_wrong_size,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_free_cached, "freed twice", iova_freec_twice, MMCHAL_EALREADY),
	BI_ROW(mmchal_iova_free, "range held by the cache", iova_free_cached_range,
	       MMCHAL_EALREADY),
	BI_ROW(mmchal_iova_free_cached, "0 pages", iova_freec_zero, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_free_cached, "UINT64_MAX pages", iova_freec_outside, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_free_cached, "no range there", iova_freec_unknown, MMCHAL_ENOENT),
	BI_ROW(mmchal_iova_free_cached, "never initialised", iova_freec_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_cache_flush, "NULL iova", iova_flush_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_cache_flush, "never initialised", iova_flush_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_get_stats, "NULL iova", iova_stats_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_get_stats, "NULL out", iova_stats_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_get_stats, "never initialised", iova_stats_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_reset_stats, "NULL iova", iova_reset_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_reset_stats, "never initialised", iova_reset_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_check, "NULL iova", iova_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_check, "never initialised", iova_check_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_iova_check, "corrupted counter", iova_check_corrupt, MMCHAL_EPROTO),
	BI_ROW(mmchal_iova_node_size, "no input: the constant", iova_node_size_value, 0),

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

	BI_ROW(mmchal_bounce_init, "NULL pool", binit_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "NULL cfg", binit_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "no memory", binit_no_mem, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "no meta", binit_no_meta, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "slot size 600", binit_slot_npot, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "slot size UINT32_MAX", binit_slot_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "size 0", binit_size0, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "fewer slots than one mapping", binit_few_slots, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "size SIZE_MAX, meta for 8 slots", binit_meta_small,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_get_caps, "NULL caps", bcaps_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_get_caps, "NULL pool: no pool", bcaps_no_pool, 0),
	BI_ROW(mmchal_bounce_get_caps, "pool never initialised", bcaps_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "NULL pool", bmap_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "NULL sg", bmap_null_sg, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "0 entries", bmap_nsg0, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "NULL map", bmap_null_map, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "NULL out", bmap_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "direction 2", bmap_dir, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "entry without CPU address", bmap_no_cpu, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "entry length 0", bmap_len0, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "entry of UINT32_MAX bytes", bmap_too_large, MMCHAL_ERANGE),
	BI_ROW(mmchal_bounce_map, "mapping still mapped", bmap_mapped, MMCHAL_EBUSY),
	BI_ROW(mmchal_bounce_map, "pool never initialised", bmap_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "CPU address at +1 (accepted)", bmap_unaligned_cpu, 0),
	BI_ROW(mmchal_bounce_map_aligned, "align 3", bmapa_align, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map_aligned, "align 2^31: no aligned slot", bmapa_align_max,
	       MMCHAL_ENOMEM),
	BI_ROW(mmchal_bounce_map_aligned, "NULL pool", bmapa_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_unmap, "NULL pool", bunmap_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_unmap, "NULL map", bunmap_null_map, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_unmap, "never mapped", bunmap_never, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_unmap, "released twice", bunmap_twice, MMCHAL_EALREADY),
	BI_ROW(mmchal_bounce_unmap, "pool never initialised", bunmap_uninit_pool, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_unmap, "slots beyond the pool", bunmap_corrupt, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_in_use, "NULL pool", bin_use_null, 0),
	BI_ROW(mmchal_bounce_peak, "NULL pool", bpeak_null, 0),
};

const size_t bi_nrows_iommu = sizeof(bi_rows_iommu) / sizeof(bi_rows_iommu[0]);
