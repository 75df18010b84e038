/**
 * @file
 * @brief IOVA allocator, per-size cache of recently freed ranges.
 *
 * One bin per size (1 .. cache_max pages), each a stack of starts, laid out
 * as [count, start_1 .. start_depth] so that a hit touches one cache line.
 * Cached ranges stay reserved in the tree: handing one out again is a pop,
 * giving one back is a push, both O(1). The footprint is fixed by the
 * caller's storage; a full bin frees the range in the tree instead.
 *
 * Why every size up to 512 pages: a merged request of 512 segments of
 * 4 KiB is 2 MiB (seed 004); a cache that stops at 32 pages sends those
 * requests to the slow path on every I/O.
 *
 * Locking: none; the caller serialises. Any context.
 */
#include "iommu/iova_node.h"
#include <mmchal/error.h>

/* Entries of a bin checked for a double free on the O(1) path. */
#define RECENT_CHECK 4u

static inline uint64_t *bin_of(const struct mmchal_iova *v, uint64_t npages)
{
	return v->cache + (size_t)(npages - 1u) * ((size_t)v->cache_depth + 1u);
}

static inline uint64_t align_of(uint64_t npages)
{
	return npages <= 1u ? 1u : (uint64_t)1 << (iova_log2_(npages - 1u) + 1u);
}

bool iova_cache_holds_(const struct mmchal_iova *v, uint64_t start, uint64_t npages)
{
	const uint64_t *bin = bin_of(v, npages);

	for (uint64_t j = 1; j <= bin[0]; j++) {
		if (bin[j] == start)
			return true;
	}
	return false;
}

int mmchal_iova_alloc_cached(struct mmchal_iova *v, uint64_t npages, uint64_t limit,
			     bool size_aligned, uint64_t *start)
{
	if (!v || !start || npages == 0)
		return MMCHAL_EINVAL;
	if (v->cache && npages <= v->cache_max) {
		uint64_t *bin = bin_of(v, npages);
		uint64_t cnt = bin[0];

		if (cnt != 0) {
			uint64_t x = bin[cnt];

			if (x + npages - 1u <= limit &&
			    (!size_aligned || (x & (align_of(npages) - 1u)) == 0)) {
				bin[0] = cnt - 1u;
				v->st.cache_hits++;
				v->st.cached_ranges--;
				*start = x;
				return 0;
			}
		}
		v->st.cache_misses++;
	}
	return iova_tree_alloc_(v, npages, limit, size_aligned, start);
}

int mmchal_iova_free_cached(struct mmchal_iova *v, uint64_t start, uint64_t npages)
{
	uint64_t *bin, cnt, size = npages;

	if (!v || npages == 0)
		return MMCHAL_EINVAL;
	if (start < v->ap_start || start > v->ap_end || npages - 1u > v->ap_end - start)
		return MMCHAL_EINVAL;
	if (!v->cache || npages > v->cache_max)
		return iova_tree_free_(v, start, &size);
	bin = bin_of(v, npages);
	cnt = bin[0];
	if (v->flags & MMCHAL_IOVA_F_CHECK_CACHED) {
		uint64_t s, n;
		int ret = mmchal_iova_find(v, start, &s, &n);

		if (ret)
			return ret;
		if (s != start)
			return MMCHAL_ENOENT;
		if (n != npages)
			return MMCHAL_EINVAL;
		if (iova_cache_holds_(v, start, npages))
			return MMCHAL_EALREADY;
	} else {
		for (uint64_t j = cnt; j > 0 && j + RECENT_CHECK > cnt; j--) {
			if (bin[j] == start)
				return MMCHAL_EALREADY;
		}
	}
	if (cnt == v->cache_depth)
		return iova_tree_free_(v, start, &size);
	bin[cnt + 1u] = start;
	bin[0] = cnt + 1u;
	v->st.cached_ranges++;
	return 0;
}

int mmchal_iova_cache_flush(struct mmchal_iova *v)
{
	if (!v)
		return MMCHAL_EINVAL;
	if (!v->cache)
		return 0;
	for (uint64_t s = 1; s <= v->cache_max; s++) {
		uint64_t *bin = bin_of(v, s);

		while (bin[0] != 0) {
			uint64_t start = bin[bin[0]], size = s;

			bin[0]--;
			v->st.cached_ranges--;
			/* Cannot fail: cached ranges are live in the tree
			 * (mmchal_iova_check() verifies it). */
			(void)iova_tree_free_(v, start, &size);
		}
	}
	return 0;
}
