/**
 * @file
 * @brief IOMMU layer: the segment-merge policy and the IOMMU domain that maps
 *        scatter-gather lists through the platform's IOMMU ops.
 *
 * The merge policy is a pure function: it answers whether a list can be
 * mapped to one contiguous device address and, when not, why (DESIGN.md
 * section 6; the rule the Linux MMC core adopted, REFERENCE.md "The merge
 * rule"). Only SD memory and eMMC cards are merged; every interior segment
 * boundary must be aligned to the IOMMU page (the first segment may start and
 * the last may end mid-page).
 *
 * A domain couples an IOVA allocator (mmchal/iova.h) with one IOMMU instance
 * (::mmchal_iommu from mmchal/port.h). It maps a list either merged (one
 * device segment) or segment by segment, with the permission the transfer
 * direction needs, and undoes every page it mapped when anything fails.
 *
 * @note Merge policy: any context, no lock. Domain functions take no lock of
 *       their own: the caller serialises calls on one domain (the host lock);
 *       they call the platform's map/unmap/flush ops, so their calling context
 *       is whatever those ops allow.
 *
 * Build option: in a library built without MMCHAL_WITH_IOMMU (config.h)
 * the domain functions refuse with ::MMCHAL_ENOTSUP.
 */
#ifndef MMCHAL_IOMMU_H
#define MMCHAL_IOMMU_H

#include <mmchal/caps.h>
#include <mmchal/iova.h>
#include <mmchal/port.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Why a list can or cannot be merged into one device address. */
enum mmchal_merge_reason {
	MMCHAL_MERGE_OK = 0,       /**< mergeable */
	MMCHAL_MERGE_BAD_ARGS,     /**< NULL pointer, or inconsistent IOMMU caps */
	MMCHAL_MERGE_NO_IOMMU,     /**< no IOMMU translates this master */
	MMCHAL_MERGE_CANNOT_MERGE, /**< the IOMMU cannot merge (merge boundary 0) */
	MMCHAL_MERGE_CARD_TYPE,    /**< card is not SD memory or eMMC (SDIO, combo, unknown) */
	MMCHAL_MERGE_EMPTY,        /**< the list has no entry */
	MMCHAL_MERGE_ZERO_LENGTH,  /**< an entry has length 0 */
	MMCHAL_MERGE_OVERFLOW,     /**< an entry wraps the address space, or the total does not
					   fit one segment (32-bit length) */
	MMCHAL_MERGE_UNALIGNED,    /**< an interior boundary is not aligned to the IOMMU page */
	MMCHAL_MERGE_TOO_LARGE,    /**< the mapping exceeds the IOMMU's largest mapping or its
					   aperture */
};

/** @brief Details of a merge decision. */
struct mmchal_merge_info {
	enum mmchal_merge_reason reason; /**< the answer */
	uint32_t index;    /**< offending entry for ZERO_LENGTH, OVERFLOW, UNALIGNED */
	uint64_t total;    /**< bytes in the list (when computed) */
	uint64_t map_size; /**< bytes of IOVA the merged mapping needs (whole pages) */
};

/**
 * @brief Decide whether @p sg can be mapped to one device address.
 *
 * Checks, in this order: arguments and caps, IOMMU present, IOMMU can merge,
 * card type, list empty, each entry (zero length, wrap-around), interior
 * boundaries, total size (32-bit segment length, then the IOMMU's largest
 * mapping and aperture). The first failing check is the reason.
 *
 * @param[in]  sg    the list (may be NULL only when @p nsg is 0)
 * @param[in]  nsg   entries in @p sg
 * @param[in]  caps  the IOMMU's capabilities
 * @param[in]  card  the card type
 * @param[out] info  details; may be NULL
 * @return ::MMCHAL_MERGE_OK or the reason it is not mergeable
 * @note Pure: any context, no lock.
 */
enum mmchal_merge_reason mmchal_merge_check(const struct mmchal_sg *sg, uint32_t nsg,
					    const struct mmchal_iommu_caps *caps,
					    enum mmchal_card_type card,
					    struct mmchal_merge_info *info);

/**
 * @brief Render a merge reason as a short constant text.
 * @param[in] reason  a ::mmchal_merge_reason
 * @return a static string; "unknown merge reason" for other values
 */
const char *mmchal_merge_reason_str(enum mmchal_merge_reason reason);

/** @brief Configuration of a domain. */
struct mmchal_iommu_domain_cfg {
	const struct mmchal_iommu *iommu; /**< the platform IOMMU instance; required */
	void *node_mem;        /**< IOVA node pool (MMCHAL_IOVA_POOL_BYTES()); required */
	size_t node_mem_size;  /**< bytes of @c node_mem */
	void *cache_mem;       /**< IOVA per-size cache storage; NULL = no cache */
	size_t cache_mem_size; /**< bytes of @c cache_mem */
	uint8_t addr_bits;     /**< device address width of the DMA master; 0 = 64 */
};

/** @brief Counters of a domain. */
struct mmchal_iommu_domain_stats {
	uint64_t maps;         /**< successful map calls (merged or per segment) */
	uint64_t unmaps;       /**< successful unmap calls */
	uint64_t map_failures; /**< map calls that failed and were unwound */
	uint64_t pages_mapped; /**< IOMMU pages currently mapped */
	uint64_t pages_peak;   /**< most IOMMU pages mapped at once (after a successful map) */
};

/** @brief A domain. Caller-owned; all fields private, set by mmchal_iommu_domain_init(). */
struct mmchal_iommu_domain {
	struct mmchal_iommu iommu;           /**< private: platform instance */
	struct mmchal_iommu_caps caps;       /**< private: queried caps */
	struct mmchal_iova iova;             /**< private: IOVA allocator (pages) */
	uint64_t limit_pfn;                  /**< private: highest page the master can address */
	uint32_t page_shift;                 /**< private: log2(page size) */
	struct mmchal_iommu_domain_stats st; /**< private: counters */
};

/**
 * @brief One mapping made by a domain. Zero-initialise before the first use;
 *        a mapping may be reused after it was unmapped.
 */
struct mmchal_iommu_mapping {
	uint32_t state;                    /**< private: mapped / unmapped marker */
	uint32_t nsegs;                    /**< device segments (1 when merged) */
	bool merged;                       /**< mapped as one device segment */
	enum mmchal_dir dir;               /**< direction it was mapped for */
	const struct mmchal_dma_seg *segs; /**< private: the caller's output segments */
};

/**
 * @brief Set up a domain: query and check the IOMMU's caps and set up the IOVA
 *        allocator over its aperture (in IOMMU pages; page 0 is never used).
 *
 * @param[out] dom  domain
 * @param[in]  cfg  configuration (memory it names must outlive @p dom)
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument, IOMMU ops incomplete, caps not present or
 *                        inconsistent (page size not a power of two of at least 512,
 *                        merge boundary neither 0 nor page size - 1, aperture empty, or
 *                        out of reach of @c addr_bits), or node or cache memory missing,
 *                        misaligned or too small; @p dom is then left as it was
 * @retval other          the error returned by the IOMMU's @c get_caps
 * @note Calls @c get_caps; no lock.
 */
int mmchal_iommu_domain_init(struct mmchal_iommu_domain *dom,
			     const struct mmchal_iommu_domain_cfg *cfg);

/**
 * @brief The caps the domain was set up with.
 * @param[in]  dom   domain
 * @param[out] caps  caps
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument, or @p dom never initialised (zeroed)
 */
int mmchal_iommu_domain_get_caps(const struct mmchal_iommu_domain *dom,
				 struct mmchal_iommu_caps *caps);

/**
 * @brief Read the domain counters.
 * @param[in]  dom  domain
 * @param[out] st   counters
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument, or @p dom never initialised (zeroed)
 */
int mmchal_iommu_domain_get_stats(const struct mmchal_iommu_domain *dom,
				  struct mmchal_iommu_domain_stats *st);

/**
 * @brief Map a mergeable list to one contiguous device address.
 *
 * Allocates one IOVA range covering every page of the list, maps each entry
 * with ::MMCHAL_IOMMU_READ (device reads memory, ::MMCHAL_DIR_TO_CARD) or
 * ::MMCHAL_IOMMU_WRITE (device writes memory, ::MMCHAL_DIR_FROM_CARD), flushes,
 * and checks that the result is one segment. On any failure every page
 * mapped so far (including the failing call's range) is unmapped, the IOMMU
 * is flushed and the IOVA freed.
 *
 * @param[in,out] dom   domain
 * @param[in]     sg    the list
 * @param[in]     nsg   entries
 * @param[in]     dir   transfer direction
 * @param[in]     card  card type (merge policy input)
 * @param[out]    map   the mapping record (must not be mapped)
 * @param[out]    out   the one device segment
 * @param[out]    info  merge details; may be NULL
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument, @p dom never initialised, bad direction, or the
 *                         list is not mergeable (the reason is in @p info)
 * @retval MMCHAL_EBUSY    @p map is still mapped
 * @retval MMCHAL_ENOMEM   no IOVA space or no tree node
 * @retval MMCHAL_EFAULT   the mapped result is not one contiguous segment
 * @retval other           the error returned by the IOMMU's @c map or @c flush (unwound;
 *                         a positive return, which is no ::mmchal_err, becomes
 *                         ::MMCHAL_EFAULT)
 * @note Calls the IOMMU ops; no lock.
 */
int mmchal_iommu_map_merged(struct mmchal_iommu_domain *dom, const struct mmchal_sg *sg,
			    uint32_t nsg, enum mmchal_dir dir, enum mmchal_card_type card,
			    struct mmchal_iommu_mapping *map, struct mmchal_dma_seg *out,
			    struct mmchal_merge_info *info);

/**
 * @brief Map each entry of a list to its own IOVA range (no merging).
 *
 * @p out receives one device segment per entry. Same permissions and the
 * same unwinding as mmchal_iommu_map_merged().
 *
 * @param[in,out] dom  domain
 * @param[in]     sg   the list
 * @param[in]     nsg  entries, >= 1
 * @param[in]     dir  transfer direction
 * @param[out]    map  the mapping record (must not be mapped)
 * @param[out]    out  @p nsg device segments
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument, @p dom never initialised, @p nsg 0, bad
 *                         direction, a zero-length or wrapping entry
 * @retval MMCHAL_EBUSY    @p map is still mapped
 * @retval MMCHAL_ENOMEM   no IOVA space or no tree node
 * @retval other           the error returned by the IOMMU's @c map or @c flush (unwound;
 *                         a positive return, which is no ::mmchal_err, becomes
 *                         ::MMCHAL_EFAULT)
 * @note Calls the IOMMU ops; no lock.
 */
int mmchal_iommu_map_segs(struct mmchal_iommu_domain *dom, const struct mmchal_sg *sg, uint32_t nsg,
			  enum mmchal_dir dir, struct mmchal_iommu_mapping *map,
			  struct mmchal_dma_seg *out);

/**
 * @brief Unmap everything a mapping holds, flush, then free its IOVA.
 *
 * The output segments given to the map call must still be intact. A range
 * whose @c unmap or @c flush op fails keeps its IOVA reserved (never reused while the
 * device may still reach it) and the first such error is returned.
 *
 * @param[in,out] dom  domain
 * @param[in,out] map  the mapping
 * @retval 0                success
 * @retval MMCHAL_EINVAL    NULL argument, @p dom never initialised, or @p map was never
 *                          mapped
 * @retval MMCHAL_EALREADY  @p map was already unmapped
 * @retval MMCHAL_ENOENT    a segment's address is not a live IOVA range of this domain
 * @retval other            the error returned by the IOMMU's @c unmap or @c flush (a
 *                          positive return becomes ::MMCHAL_EFAULT); the range stays
 *                          reserved
 * @note Calls the IOMMU ops; no lock.
 */
int mmchal_iommu_unmap(struct mmchal_iommu_domain *dom, struct mmchal_iommu_mapping *map);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_IOMMU_H */
