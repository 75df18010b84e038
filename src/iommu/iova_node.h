/**
 * @file
 * @brief Internal: the IOVA tree node and the helpers shared by the files of
 *        the allocator (tree maintenance, search, cache, checker).
 *
 * Locking: none; the caller of the public API serialises.
 */
#ifndef MMCHAL_IOMMU_IOVA_NODE_H
#define MMCHAL_IOMMU_IOVA_NODE_H

#include <mmchal/iova.h>

/* Compiler hints. GCC and clang get them; any other C11 compiler gets
 * correct code without them. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE_SIZE__)
/* A build optimised for size (-Os, -Oz) spends no flash on prefetches: they
 * only hide memory latency, which a small firmware's SRAM does not have. */
#define IOVA_NOINLINE_
#define IOVA_PREFETCH_(p) ((void)(p))
#define IOVA_HAVE_CLZLL_  1
#elif defined(__GNUC__) || defined(__clang__)
#define IOVA_NOINLINE_    __attribute__((noinline))
#define IOVA_PREFETCH_(p) __builtin_prefetch(p)
#define IOVA_HAVE_CLZLL_  1
#else
#define IOVA_NOINLINE_
#define IOVA_PREFETCH_(p) ((void)(p))
#define IOVA_HAVE_CLZLL_  0
#endif

#define IOVA_B   MMCHAL_IOVA_FANOUT
#define IOVA_MIN (IOVA_B / 2u)

/*
 * Leaf entry i: a live range [key[i], end[i]].
 * Inner entry i: child[i]'s first start (key), last end (end), largest gap
 * strictly inside it (gap, pages) and largest naturally aligned block that
 * fits in one of those gaps (ord = log2(block) + 1, 0 = no gap).
 * Gaps between two entries of one node are not stored: they follow from
 * end[i - 1] and key[i]. Gaps before the first and after the last range
 * are bounded by the aperture and handled at the top.
 */
struct mmchal_iova_node {
	uint64_t key[IOVA_B];
	uint64_t end[IOVA_B];
	uint64_t gap[IOVA_B];
	struct mmchal_iova_node *child[IOVA_B];
	struct mmchal_iova_node *parent;
	/* Inner nodes: largest of the gaps between their own entries (and its
	 * order), so that a changed child summary is folded in without
	 * recomputing those gaps. Unused in leaves. */
	uint64_t own_gap;
	uint8_t ord[IOVA_B];
	uint8_t n;
	uint8_t leaf;
	uint8_t pidx;
	uint8_t own_ord;
	uint8_t pad[4];
};

typedef struct mmchal_iova_node iova_node_;

/* Free pages strictly between a range ending at pe and one starting at ns. */
static inline uint64_t iova_gap_len_(uint64_t pe, uint64_t ns)
{
	return ns - pe - 1u;
}

static inline unsigned int iova_log2_(uint64_t v)
{
#if IOVA_HAVE_CLZLL_
	return 63u - (unsigned int)__builtin_clzll(v);
#else
	unsigned int r = 0;

	for (unsigned int sh = 32; sh; sh >>= 1) {
		if (v >> sh) {
			v >>= sh;
			r += sh;
		}
	}
	return r;
#endif
}

/* Largest naturally aligned block in the free pages between pe and ns, as
 * log2 + 1; 0 when there are none. A gap of length L >= 2^k always holds an
 * aligned 2^(k-1) block, so only k and k-1 need testing. */
static inline uint8_t iova_gap_ord_(uint64_t pe, uint64_t ns)
{
	uint64_t len = ns - pe - 1u;
	unsigned int k;
	uint64_t blk, x;

	if (len == 0)
		return 0;
	k = iova_log2_(len);
	blk = (uint64_t)1 << k;
	x = (pe + blk) & ~(blk - 1u);
	if (x + blk - 1u > ns - 1u)
		return (uint8_t)k;
	return (uint8_t)(k + 1u);
}

/*
 * The exact topmost free gap (top_a..top_b while top_valid) is kept out of
 * the subtree annotations: the allocator tests it first in O(1), so the
 * annotations only need to describe the gaps below it. This is what makes
 * the free/alloc ring at the top O(1) in annotation updates: the gap that
 * opens and closes there never changes a subtree maximum.
 * Returns the first page of that gap, or 0 when there is none (an in-tree
 * gap starts after a range, so never at page 0).
 */
static inline uint64_t iova_excl_(const struct mmchal_iova *v)
{
	return v->top_valid ? v->top_a : 0u;
}

/* The annotation value of the gap between a range ending at pe and one
 * starting at ns: its length, or 0 when it is the excluded top gap. */
static inline uint64_t iova_gap_val_(uint64_t pe, uint64_t ns, uint64_t excl)
{
	return pe + 1u == excl ? 0u : iova_gap_len_(pe, ns);
}

static inline uint8_t iova_gap_ordx_(uint64_t pe, uint64_t ns, uint64_t excl)
{
	return pe + 1u == excl ? 0u : iova_gap_ord_(pe, ns);
}

void iova_summary_(iova_node_ *nd, uint64_t excl, uint64_t *gap, uint8_t *ord);
int iova_tree_free_(struct mmchal_iova *v, uint64_t start, uint64_t *npages);
int iova_tree_alloc_(struct mmchal_iova *v, uint64_t npages, uint64_t limit, bool size_aligned,
		     uint64_t *start);
void iova_pend_flush_(struct mmchal_iova *v);
bool iova_cache_holds_(const struct mmchal_iova *v, uint64_t start, uint64_t npages);

/* An allocator that mmchal_iova_init() set up: its aperture never starts at
 * page 0, so a zeroed (never initialised) object is told apart. */
static inline bool iova_ready_(const struct mmchal_iova *v)
{
	return v && v->ap_start != 0;
}

#endif /* MMCHAL_IOMMU_IOVA_NODE_H */
