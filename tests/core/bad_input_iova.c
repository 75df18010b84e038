/*
 * Bad-input rows: the IOVA allocator (iova.h).
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

const struct bi_row bi_rows_iova[] = {
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
};

const size_t bi_nrows_iova = sizeof(bi_rows_iova) / sizeof(bi_rows_iova[0]);
