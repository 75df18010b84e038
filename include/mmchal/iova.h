/**
 * @file
 * @brief IOVA allocator: page-granular ranges of device address space inside
 *        an aperture, with O(log n) worst-case allocation and free.
 *
 * All addresses and sizes here are in **pages** (IOMMU page frame numbers),
 * never bytes; the IOMMU domain (mmchal/iommu.h) converts.
 *
 * Live ranges are kept in a B+-tree keyed by start page whose inner entries
 * record, for each child subtree, its first start, its last end, the largest
 * free gap inside it and the largest naturally aligned power-of-two block
 * that fits in one of its gaps. An allocation therefore descends straight to
 * the highest fitting gap, and a free updates one leaf-to-root path: both are
 * O(log n) in the worst case whatever the fragmentation. Two O(1) shortcuts
 * sit on top without weakening that bound:
 *  - a search hint: the exact topmost free gap, kept up to date by every
 *    operation, serves the common "allocate just below the last one" case;
 *  - an optional per-size cache of recently freed ranges (the
 *    mmchal_iova_alloc_cached() / mmchal_iova_free_cached() pair), which keeps
 *    cached ranges reserved in the tree so that they can be handed out again
 *    without touching it.
 *
 * Placement rule: an allocation takes the **highest** fitting start whose
 * last page is at or below the caller's limit. With @c size_aligned the start
 * is aligned to the size rounded up to a power of two, A, and the whole
 * naturally aligned block [start, start + A - 1] must be free and at or below
 * the limit (only the requested pages are reserved). For power-of-two sizes
 * that is exactly "the highest aligned fit"; for other sizes it keeps the
 * search O(log n) and leaves the block's tail free for smaller requests.
 *
 * Memory: the caller provides the node pool (see ::MMCHAL_IOVA_NODE_SIZE and
 * MMCHAL_IOVA_POOL_NODES()) and, optionally, the cache storage
 * (MMCHAL_IOVA_CACHE_BYTES()). Nothing is allocated.
 *
 * @note No function takes a lock: the caller serialises all calls on one
 *       allocator (the IOMMU domain does so under the host lock). Any
 *       context, including interrupt handlers; no function blocks.
 */
#ifndef MMCHAL_IOVA_H
#define MMCHAL_IOVA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Entries per tree node (fan-out). */
#define MMCHAL_IOVA_FANOUT 16u

/**
 * @brief Bytes of one tree node, a multiple of 8. The pool is an array of
 *        these; its start must be aligned to 8 bytes.
 */
#define MMCHAL_IOVA_NODE_SIZE                                                          \
	(((size_t)(3u * MMCHAL_IOVA_FANOUT + 1u) * 8u +                                \
	  (MMCHAL_IOVA_FANOUT + 1u) * sizeof(void *) + MMCHAL_IOVA_FANOUT + 8u + 7u) & \
	 ~(size_t)7u)

/**
 * @brief Nodes that always suffice for @p n live ranges (each node but the
 *        root at least half full, plus one spare per level for a split).
 * @param n  most live ranges at any time
 */
#define MMCHAL_IOVA_POOL_NODES(n) ((size_t)(n) / 7u + 24u)

/** @brief Pool bytes that always suffice for @p n live ranges. */
#define MMCHAL_IOVA_POOL_BYTES(n) (MMCHAL_IOVA_POOL_NODES(n) * MMCHAL_IOVA_NODE_SIZE)

/** @brief Default largest size, in pages, served by the per-size cache (a 2 MiB request). */
#define MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT 512u

/**
 * @brief Bytes of cache storage for sizes 1..@p max_pages with @p depth
 *        ranges kept per size.
 * @param max_pages  largest cached size, pages
 * @param depth      ranges kept per size
 */
#define MMCHAL_IOVA_CACHE_BYTES(max_pages, depth) \
	((size_t)(max_pages) * ((size_t)(depth) + 1u) * sizeof(uint64_t))

/** @brief Largest page frame number the allocator accepts (2^62 - 1). */
#define MMCHAL_IOVA_PFN_MAX ((UINT64_C(1) << 62) - 1u)

/** @brief Flag of ::mmchal_iova_cfg: mmchal_iova_free_cached() checks the range in the tree. */
#define MMCHAL_IOVA_F_CHECK_CACHED (1u << 0)

/** @brief Configuration of an allocator. Zero fields take the stated defaults. */
struct mmchal_iova_cfg {
	uint64_t aperture_start;  /**< first usable page (inclusive); must be >= 1 */
	uint64_t aperture_end;    /**< last usable page (inclusive), <= ::MMCHAL_IOVA_PFN_MAX */
	void *node_mem;           /**< node pool, 8-byte aligned; required */
	size_t node_mem_size;     /**< bytes of @c node_mem; at least one node */
	void *cache_mem;          /**< per-size cache storage, 8-byte aligned; NULL = no cache */
	size_t cache_mem_size;    /**< bytes of @c cache_mem */
	uint32_t cache_max_pages; /**< largest cached size, pages;
				       0 = ::MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT */
	uint32_t cache_depth;     /**< ranges kept per size; 0 = as many as @c cache_mem holds
				      (at most 65 535) */
	uint32_t flags;           /**< MMCHAL_IOVA_F_* */
};

/** @brief Counters of an allocator. */
struct mmchal_iova_stats {
	uint64_t live_ranges;   /**< ranges reserved in the tree (cached ones included) */
	uint64_t live_pages;    /**< pages reserved in the tree (cached ones included) */
	uint64_t cached_ranges; /**< ranges held by the per-size cache */
	uint64_t cache_hits;    /**< cached allocations served from the cache */
	uint64_t cache_misses;  /**< cached allocations that went to the tree */
	uint64_t failures;      /**< allocations that failed (space or node pool exhausted) */
	uint64_t nodes_total;   /**< nodes in the pool */
	uint64_t nodes_used;    /**< nodes in the tree */
	uint32_t last_visits;   /**< tree nodes visited by the last tree operation */
	uint32_t max_visits;    /**< most tree nodes visited by one operation since reset */
	uint32_t height;        /**< tree levels (0 = empty) */
};

/** @brief Internal tree node; only its size (::MMCHAL_IOVA_NODE_SIZE) is public. */
struct mmchal_iova_node;

/**
 * @brief An allocator. The caller owns it; every field is private and is
 *        set up by mmchal_iova_init(). A zeroed allocator is "never
 *        initialised": every function refuses it with ::MMCHAL_EINVAL.
 */
struct mmchal_iova {
	struct mmchal_iova_node *root; /**< private: tree root, NULL when empty */
	struct mmchal_iova_node *free; /**< private: free-node list */
	struct mmchal_iova_node *hint; /**< private: leaf of the last operation */
	unsigned char *pool_next;      /**< private: first never-used node of the pool */
	uint32_t pool_left;            /**< private: never-used nodes left */
	uint64_t ap_start;             /**< private: aperture start */
	uint64_t ap_end;               /**< private: aperture end */
	uint64_t root_gap;             /**< private: largest gap inside the root */
	uint64_t top_a;                /**< private: topmost free gap, first page */
	uint64_t top_b;                /**< private: topmost free gap, last page; or the bound */
	uint64_t *cache;               /**< private: per-size cache bins */
	struct mmchal_iova_node *pend; /**< private: leaf still holding a freed range that is
					    exactly the top gap, or NULL */
	uint32_t pend_idx;             /**< private: its index in @c pend */
	uint64_t cached;               /**< private: ranges held by the cache (kept apart from
					    the counters so that the hit path updates them
					    with scalar stores) */
	uint32_t cache_max;            /**< private: largest cached size */
	uint32_t cache_fast_max;       /**< private: largest size freed on the O(1) path
					    (0 with ::MMCHAL_IOVA_F_CHECK_CACHED) */
	uint32_t cache_depth;          /**< private: ranges per bin */
	uint32_t flags;                /**< private: MMCHAL_IOVA_F_* */
	uint32_t height;               /**< private: tree levels */
	uint32_t free_count;           /**< private: nodes on the free list */
	uint8_t root_ord;              /**< private: largest aligned order + 1 inside the root */
	bool top_valid;                /**< private: top_a..top_b is exact */
	struct mmchal_iova_stats st;   /**< private: counters */
};

/**
 * @brief Set up an allocator over an aperture with a caller-provided pool.
 *
 * @param[out] iova  allocator to initialise
 * @param[in]  cfg   configuration (copied; the memory it names must outlive @p iova)
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument, aperture start 0 or above its end or end above
 *                        ::MMCHAL_IOVA_PFN_MAX, node memory missing, misaligned or smaller
 *                        than one node, cache memory misaligned or too small for one range
 *                        per size, or @c cache_max_pages above 65 535; @p iova is
 *                        then left as it was
 * @note Any context; no lock.
 */
int mmchal_iova_init(struct mmchal_iova *iova, const struct mmchal_iova_cfg *cfg);

/**
 * @brief Allocate @p npages pages at the highest fitting start whose last
 *        page is at or below @p limit.
 *
 * @param[in,out] iova          allocator
 * @param[in]     npages        pages to reserve, >= 1
 * @param[in]     limit         highest page the range may use (inclusive)
 * @param[in]     size_aligned  align the start to @p npages rounded up to a power of two
 * @param[out]    start         first page of the range
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument, @p iova never initialised (zeroed), or @p npages 0
 * @retval MMCHAL_ERANGE  @p limit below the aperture start, or @p npages larger than the
 *                        aperture (also with @p size_aligned, whatever @p npages)
 * @retval MMCHAL_ENOMEM  no free space fits, or the node pool is exhausted (nothing changed)
 * @note O(log n) worst case; takes no lock.
 */
int mmchal_iova_alloc(struct mmchal_iova *iova, uint64_t npages, uint64_t limit, bool size_aligned,
		      uint64_t *start);

/**
 * @brief Free the range that starts at @p start.
 *
 * @param[in,out] iova   allocator
 * @param[in]     start  first page of a range returned by mmchal_iova_alloc()
 * @retval 0                success
 * @retval MMCHAL_EINVAL    @p iova NULL or never initialised
 * @retval MMCHAL_ENOENT    no live range starts at @p start (only the visit counters
 *                          of ::mmchal_iova_stats change)
 * @retval MMCHAL_EALREADY  the range was already given back through mmchal_iova_free_cached()
 * @note O(log n) worst case (plus a scan of one cache bin); never allocates a node.
 */
int mmchal_iova_free(struct mmchal_iova *iova, uint64_t start);

/**
 * @brief Find the live range that contains page @p pfn.
 *
 * @param[in]  iova    allocator
 * @param[in]  pfn     page to look up
 * @param[out] start   first page of the range; may be NULL
 * @param[out] npages  pages of the range; may be NULL
 * @retval 0              found
 * @retval MMCHAL_EINVAL  @p iova NULL or never initialised
 * @retval MMCHAL_ENOENT  @p pfn is in no live range
 * @note O(log n); takes no lock.
 */
int mmchal_iova_find(const struct mmchal_iova *iova, uint64_t pfn, uint64_t *start,
		     uint64_t *npages);

/**
 * @brief Allocate through the per-size cache: a recently freed range of the
 *        same size that satisfies @p limit and the alignment is reused in
 *        O(1); otherwise this is mmchal_iova_alloc().
 *
 * @param[in,out] iova          allocator
 * @param[in]     npages        pages, >= 1
 * @param[in]     limit         highest page the range may use (inclusive)
 * @param[in]     size_aligned  as for mmchal_iova_alloc()
 * @param[out]    start         first page of the range
 * @retval 0              success
 * @retval MMCHAL_EINVAL  as for mmchal_iova_alloc()
 * @retval MMCHAL_ERANGE  as for mmchal_iova_alloc()
 * @retval MMCHAL_ENOMEM  as for mmchal_iova_alloc()
 * @note O(1) on a cache hit; takes no lock.
 */
int mmchal_iova_alloc_cached(struct mmchal_iova *iova, uint64_t npages, uint64_t limit,
			     bool size_aligned, uint64_t *start);

/**
 * @brief Give a range back through the per-size cache: it stays reserved in
 *        the tree and is kept for reuse by mmchal_iova_alloc_cached(); a full
 *        bin (or a size above the cached maximum) frees it in the tree.
 *
 * Only O(1) checks are made on the cache path (aperture bounds, and the two
 * most recently cached ranges of that size for a double free) unless the
 * allocator was configured with ::MMCHAL_IOVA_F_CHECK_CACHED, which looks the
 * range up and checks the whole bin.
 *
 * @param[in,out] iova    allocator
 * @param[in]     start   first page, as returned by an allocation
 * @param[in]     npages  the size that was allocated
 * @retval 0                success
 * @retval MMCHAL_EINVAL    @p iova NULL or never initialised, @p npages 0, the range
 *                          outside the aperture, or
 *                          (when checked) a live range of another size at @p start
 * @retval MMCHAL_ENOENT    (when checked or freed in the tree) no live range at @p start
 * @retval MMCHAL_EALREADY  the range is already in the cache (detected among the two most
 *                          recent entries of its size, or anywhere when checked)
 * @note O(1) when cached; takes no lock.
 */
int mmchal_iova_free_cached(struct mmchal_iova *iova, uint64_t start, uint64_t npages);

/**
 * @brief Free every cached range in the tree and empty the cache.
 * @param[in,out] iova  allocator
 * @retval 0              success
 * @retval MMCHAL_EINVAL  @p iova NULL or never initialised
 * @note O(c log n) for c cached ranges; takes no lock.
 */
int mmchal_iova_cache_flush(struct mmchal_iova *iova);

/**
 * @brief Read the counters.
 * @param[in]  iova  allocator
 * @param[out] st    counters
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument, or @p iova never initialised
 */
int mmchal_iova_get_stats(const struct mmchal_iova *iova, struct mmchal_iova_stats *st);

/**
 * @brief Reset the visit maximum and the cache hit/miss and failure counters.
 * @param[in,out] iova  allocator
 * @retval 0              success
 * @retval MMCHAL_EINVAL  @p iova NULL or never initialised
 */
int mmchal_iova_reset_stats(struct mmchal_iova *iova);

/**
 * @brief Check every invariant: ranges sorted, disjoint, non-empty and inside
 *        the aperture; every node's first start, last end, largest gap and
 *        largest aligned block exact; node fill, parent links, counters and
 *        the search hint consistent; cache entries live and of their size.
 *
 * @param[in] iova  allocator
 * @retval 0              all invariants hold
 * @retval MMCHAL_EINVAL  @p iova NULL or never initialised
 * @retval MMCHAL_EPROTO  an invariant is broken (a bug, or memory corruption)
 * @note O(n); for tests, benchmarks and debugging. Takes no lock.
 */
int mmchal_iova_check(const struct mmchal_iova *iova);

/**
 * @brief Bytes of one tree node (the value of ::MMCHAL_IOVA_NODE_SIZE).
 * @return the node size
 * @note Takes no input; cannot fail.
 */
size_t mmchal_iova_node_size(void);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_IOVA_H */
