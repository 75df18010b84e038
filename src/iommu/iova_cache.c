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

/* Entries of a bin checked for a double free on the O(1) path: the two most
 * recently cached ranges of that size, which catches the common bug (the
 * same range freed twice in a row) at the cost of two compares. The full
 * check is MMCHAL_IOVA_F_CHECK_CACHED. */
#define RECENT_CHECK 2u

static inline uint64_t *bin_of(const struct mmchal_iova *v, uint64_t npages)
{
	return v->cache + (size_t)(npages - 1u) * ((size_t)v->cache_depth + 1u);
}

/* npages rounded up to a power of two, without a branch on npages (the
 * sizes of a cached workload are random: the branch would mispredict).
 * npages <= 65535 here, so 2 * npages - 1 cannot overflow. */
static inline uint64_t align_of(uint64_t npages)
{
	return (uint64_t)1 << iova_log2_(2u * npages - 1u);
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

/* Whether start is one of the last RECENT_CHECK entries of a bin of cnt. */
static inline bool recently_cached(const uint64_t *bin, uint64_t cnt, uint64_t start)
{
	if (cnt >= RECENT_CHECK) {
		/* No early exit: the compares cost less than the branches. */
		return (bin[cnt] == start) | (bin[cnt - 1u] == start);
	}
	for (uint64_t j = cnt; j > 0; j--) {
		if (bin[j] == start)
			return true;
	}
	return false;
}

/* Kept out of line so that the hit paths below need no stack frame. */
static IOVA_NOINLINE_ int alloc_miss(struct mmchal_iova *v, uint64_t npages, uint64_t limit,
				     bool size_aligned, uint64_t *start)
{
	v->st.cache_misses++;
	return iova_tree_alloc_(v, npages, limit, size_aligned, start);
}

/* MMCHAL_IOVA_F_CHECK_CACHED: the full double-free and ownership check. */
static IOVA_NOINLINE_ int alloc_uncached(struct mmchal_iova *v, uint64_t npages, uint64_t limit,
					 bool size_aligned, uint64_t *start)
{
	if (npages == 0)
		return MMCHAL_EINVAL;
	return iova_tree_alloc_(v, npages, limit, size_aligned, start);
}

static IOVA_NOINLINE_ int free_checked(struct mmchal_iova *v, uint64_t start, uint64_t npages)
{
	uint64_t s, n, size = npages, *bin;
	int ret = mmchal_iova_find(v, start, &s, &n);

	if (ret)
		return ret;
	if (s != start)
		return MMCHAL_ENOENT;
	if (n != npages)
		return MMCHAL_EINVAL;
	if (iova_cache_holds_(v, start, npages))
		return MMCHAL_EALREADY;
	bin = bin_of(v, npages);
	if (bin[0] == v->cache_depth)
		return iova_tree_free_(v, start, &size);
	bin[bin[0] + 1u] = start;
	bin[0]++;
	v->cached++;
	return 0;
}

static IOVA_NOINLINE_ int free_uncached(struct mmchal_iova *v, uint64_t start, uint64_t npages)
{
	uint64_t size = npages;

	return iova_tree_free_(v, start, &size);
}

static IOVA_NOINLINE_ int free_slow(struct mmchal_iova *v, uint64_t start, uint64_t npages)
{
	if (npages <= v->cache_max && (v->flags & MMCHAL_IOVA_F_CHECK_CACHED))
		return free_checked(v, start, npages);
	return free_uncached(v, start, npages);
}

int mmchal_iova_alloc_cached(struct mmchal_iova *v, uint64_t npages, uint64_t limit,
			     bool size_aligned, uint64_t *start)
{
	uint64_t *bin, cnt, x, mask;

	if (!iova_ready_(v) || !start)
		return MMCHAL_EINVAL;
	/* One test for npages 0 (wraps) and above the cached sizes
	 * (cache_max is 0 without a cache). */
	if (npages - 1u >= v->cache_max)
		return alloc_uncached(v, npages, limit, size_aligned, start);
	bin = bin_of(v, npages);
	cnt = bin[0];
	if (cnt == 0)
		return alloc_miss(v, npages, limit, size_aligned, start);
	x = bin[cnt];
	mask = size_aligned ? align_of(npages) - 1u : 0;
	if (x + npages - 1u > limit || (x & mask) != 0)
		return alloc_miss(v, npages, limit, size_aligned, start);
	bin[0] = cnt - 1u;
	v->st.cache_hits++;
	v->cached--;
	*start = x;
	return 0;
}

int mmchal_iova_free_cached(struct mmchal_iova *v, uint64_t start, uint64_t npages)
{
	uint64_t *bin, cnt;

	if (!iova_ready_(v))
		return MMCHAL_EINVAL;
	/* npages 0 wraps npages - 1 and fails the last test. */
	if (start < v->ap_start || start > v->ap_end || npages - 1u > v->ap_end - start)
		return MMCHAL_EINVAL;
	/* One test for a size above the cache and a checked allocator
	 * (cache_fast_max is 0 then). */
	if (npages > v->cache_fast_max)
		return free_slow(v, start, npages);
	bin = bin_of(v, npages);
	cnt = bin[0];
	if (recently_cached(bin, cnt, start))
		return MMCHAL_EALREADY;
	if (cnt == v->cache_depth)
		return free_uncached(v, start, npages);
	bin[cnt + 1u] = start;
	bin[0] = cnt + 1u;
	v->cached++;
	return 0;
}

int mmchal_iova_cache_flush(struct mmchal_iova *v)
{
	if (!iova_ready_(v))
		return MMCHAL_EINVAL;
	if (!v->cache)
		return 0;
	for (uint64_t s = 1; s <= v->cache_max; s++) {
		uint64_t *bin = bin_of(v, s);

		while (bin[0] != 0) {
			uint64_t start = bin[bin[0]], size = s;

			bin[0]--;
			v->cached--;
			/* Cannot fail: cached ranges are live in the tree
			 * (mmchal_iova_check() verifies it). */
			(void)iova_tree_free_(v, start, &size);
		}
	}
	return 0;
}
