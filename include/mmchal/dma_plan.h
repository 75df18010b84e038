/**
 * @file
 * @brief Request validation and the DMA planner: how the data of one request
 *        travels (::mmchal_plan) and why (::mmchal_plan_reason).
 *
 * Both are pure functions (DESIGN.md section 5): no hardware, no port calls,
 * no allocation. The host core runs mmchal_request_check() before it maps
 * anything or touches a register, then mmchal_dma_plan(); after an IOMMU
 * mapping it runs mmchal_dma_check_mapped() on the result and, when the
 * engine cannot take it, mmchal_dma_plan_fallback().
 *
 * The planner, in order:
 *  1. no DMA engine -> PIO;
 *  2. shorter than the engine's minimum DMA length, or longer than its
 *     largest transfer -> PIO (bouncing would hand the engine the same length);
 *  3. a device-to-memory transfer on a non-coherent system whose buffer
 *     starts or ends inside a cache line: invalidating that line would destroy
 *     the neighbour's bytes, so the buffer is bounced or goes PIO;
 *  4. behind an IOMMU with merging on and a mergeable list -> IOMMU_MERGED;
 *  5. the engine takes every segment as it is (count, alignment, length
 *     granule, size, address bits, boundary) -> DIRECT (behind an IOMMU each
 *     segment is mapped on its own: there is no untranslated path);
 *  6. a bounce pool whose mapping holds the request -> BOUNCED;
 *  7. otherwise PIO. Steps 6 and 7 keep the obstacle of step 5 as the reason.
 *
 * A library built without the IOMMU layer (config.h: MMCHAL_WITH_IOMMU 0)
 * plans as if the environment named no IOMMU: step 4 never applies and the
 * engine test of step 5 always checks the physical addresses. One built
 * without the bounce pool (MMCHAL_WITH_BOUNCE 0) plans as if there were no
 * pool: step 6 never applies.
 *
 * @note Pure functions: any context, no lock.
 */
#ifndef MMCHAL_DMA_PLAN_H
#define MMCHAL_DMA_PLAN_H

#include <mmchal/backend.h>
#include <mmchal/caps.h>
#include <mmchal/iommu.h>
#include <mmchal/limits.h>
#include <mmchal/request.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Why mmchal_request_check() rejected a request. */
enum mmchal_req_check {
	MMCHAL_REQ_OK = 0,        /**< valid */
	MMCHAL_REQ_NULL,          /**< request, its command or the limits are NULL */
	MMCHAL_REQ_OPCODE,        /**< a command index above 63 */
	MMCHAL_REQ_RSP_FLAGS,     /**< unknown response flag bits, or 136/CRC/busy/opcode
				       flags without ::MMCHAL_RSP_PRESENT */
	MMCHAL_REQ_DATA_CMD,      /**< data on a command that takes none (no response, R2
				       or R1b) */
	MMCHAL_REQ_DIR,           /**< unknown transfer direction */
	MMCHAL_REQ_BLKSZ,         /**< block size 0 or above max_blk_size */
	MMCHAL_REQ_BLOCKS,        /**< block count 0 or above max_blk_count */
	MMCHAL_REQ_REQ_SIZE,      /**< blksz x blocks above max_req_size */
	MMCHAL_REQ_NO_SG,         /**< no scatter-gather list (NULL or 0 entries) */
	MMCHAL_REQ_SEGS,          /**< more entries than max_segs */
	MMCHAL_REQ_SEG_ZERO,      /**< an entry of length 0 */
	MMCHAL_REQ_SEG_SIZE,      /**< an entry longer than max_seg_size */
	MMCHAL_REQ_SEG_WRAP,      /**< an entry wraps the physical address space */
	MMCHAL_REQ_SEG_BOUNDARY,  /**< an entry crosses seg_boundary */
	MMCHAL_REQ_VIRT_BOUNDARY, /**< an interior boundary not aligned to virt_boundary + 1 */
	MMCHAL_REQ_SUM,           /**< entry lengths do not add up to blksz x blocks */
	MMCHAL_REQ_SBC_NO_DATA,   /**< SET_BLOCK_COUNT (CMD23) without a data phase */
	MMCHAL_REQ_SBC_COUNT,     /**< CMD23 block count 0, i.e. open-ended, or not
				       the data's block count, read as argument bits
				       15:0 (eMMC) and as the whole argument (SD) */
	MMCHAL_REQ_STOP_NO_DATA,  /**< a STOP command without a data phase */
	MMCHAL_REQ_CHECK_COUNT,   /**< number of values */
};

/**
 * @brief What one pass over a valid list found, so that the planner decides
 *        in constant time (it scans the list again only to name an offending
 *        entry).
 */
struct mmchal_sg_summary {
	uint64_t phys_or;  /**< OR of every entry's physical start */
	uint64_t last_and; /**< AND of every entry's last byte: every end (last + 1) is
				aligned to a power of two a exactly when (last_and & (a - 1))
				== a - 1 */
	uint64_t cross_or; /**< OR of start XOR last byte: a boundary mask m is crossed by
				some entry exactly when (cross_or & ~m) != 0 */
	uint32_t len1_or;  /**< OR of every entry's length - 1: every length is at most
				len1_or + 1, and every last byte at most phys_or + len1_or */
	bool valid;        /**< filled in (by mmchal_request_check() of a request with data) */
};

/** @brief Details of a rejection, and the list summary of a valid request. */
struct mmchal_req_check_info {
	enum mmchal_req_check why;    /**< the first failed check */
	uint32_t index;               /**< offending sg entry, for the per-entry checks */
	struct mmchal_sg_summary sum; /**< for a valid request with data: its list */
};

/**
 * @brief Validate a request against the limits, before anything is mapped.
 *
 * Checks every command (SET_BLOCK_COUNT, command, STOP), then the data phase:
 * direction, block size and count, request size, the list (present, count,
 * each entry: zero length, size, wrap-around, boundary, interior alignment to
 * @c virt_boundary), the sum of lengths, and the CMD23 / STOP combinations.
 * The first failed check is reported.
 *
 * @param[in]  req   request
 * @param[in]  lim   limits of the host with its current card
 * @param[out] info  the first failed check; may be NULL
 * @retval 0              valid
 * @retval MMCHAL_EINVAL  invalid; the reason is in @p info
 * @note Without the IOMMU layer (MMCHAL_WITH_IOMMU 0) @c virt_boundary is not
 *       checked (::MMCHAL_REQ_VIRT_BOUNDARY never comes): it is the merge
 *       raise's rule, and mmchal_limits_derive() then never sets one.
 * @note Pure: any context, no lock.
 */
int mmchal_request_check(const struct mmchal_request *req, const struct mmchal_limits *lim,
			 struct mmchal_req_check_info *info);

/**
 * @brief Text of a request check, e.g. "block size 0 or above max_blk_size".
 * @param[in] why  check
 * @return a static string; "?" for an out-of-range value
 */
const char *mmchal_req_check_text(enum mmchal_req_check why);

/** @brief Why a request got its plan. */
enum mmchal_plan_reason {
	MMCHAL_PR_NO_ENGINE = 0,      /**< PIO: the host has no DMA engine */
	MMCHAL_PR_RETRY,              /**< PIO: retry after a DMA fault */
	MMCHAL_PR_MERGED,             /**< IOMMU_MERGED: the list maps to one device address */
	MMCHAL_PR_DIRECT,             /**< DIRECT: the engine takes every segment as it is */
	MMCHAL_PR_DIRECT_IOMMU,       /**< DIRECT: behind the IOMMU, merging off, each
					   segment mapped on its own */
	MMCHAL_PR_DIRECT_UNMERGEABLE, /**< DIRECT: merging on but the list cannot be merged
					   (see ::mmchal_plan_result::merge), each segment mapped
					   on its own */
	MMCHAL_PR_MIN_LEN,            /**< shorter than the engine's minimum DMA length */
	MMCHAL_PR_XFER,               /**< longer than the engine's largest transfer */
	MMCHAL_PR_SHARED_LINE, /**< device-to-memory on a non-coherent system: a buffer's first
				    or last cache line is shared with other data, and
				    invalidating it would destroy the neighbour's bytes */
	MMCHAL_PR_SEGS,        /**< more segments than the engine chains (or the host's
				    segment table holds) */
	MMCHAL_PR_ALIGN,       /**< a segment start is not aligned as the engine needs */
	MMCHAL_PR_GRANULE,     /**< a segment length is not a multiple of the engine's granule */
	MMCHAL_PR_SEG_SIZE,    /**< a segment is longer than the engine's largest segment */
	MMCHAL_PR_ADDR_BITS,   /**< a segment lies beyond the engine's address bits */
	MMCHAL_PR_BOUNDARY,    /**< a segment crosses the engine's segment boundary */
	MMCHAL_PR_MAPPED_BAD,  /**< the IOMMU mapping is not what the engine can take (not one
				    segment, or its alignment, size, boundary or address bits) */
	MMCHAL_PR_COUNT,       /**< number of reasons */
};

/** @brief Why a request that could not use DMA was not bounced either. */
enum mmchal_plan_nobounce {
	MMCHAL_NB_NONE = 0,  /**< bounced, or bouncing was not considered */
	MMCHAL_NB_NO_POOL,   /**< no bounce pool */
	MMCHAL_NB_TOO_LARGE, /**< the request exceeds the bounce limit */
	MMCHAL_NB_ENGINE,    /**< the engine cannot take the bounce region as one segment
				    (largest segment, granule) or the obstacle is the
				    length itself (minimum length, largest transfer) */
	MMCHAL_NB_COUNT,     /**< number of values */
};

/** @brief What the planner needs to know about the host. */
struct mmchal_plan_env {
	const struct mmchal_dma_caps *dma;     /**< the engine; required */
	const struct mmchal_iommu_caps *iommu; /**< the IOMMU, or NULL for none */
	bool merge;                            /**< merging is on (::mmchal_limits::merge) */
	enum mmchal_card_type card;            /**< card type (merge policy input) */
	uint64_t bounce_limit;                 /**< largest bounce mapping, bytes; 0 = no pool */
	uint32_t cache_line; /**< CPU cache line, bytes, power of two; 0 = the port does
				         no cache maintenance (coherent system) */
	uint32_t seg_table;  /**< device segments the host can hand the engine; >= 1 */
};

/** @brief A plan and its reason. */
struct mmchal_plan_result {
	enum mmchal_plan plan;              /**< the data path */
	enum mmchal_plan_reason reason;     /**< why */
	enum mmchal_plan_nobounce nobounce; /**< for a PIO fallback: why not bounced */
	enum mmchal_merge_reason merge;     /**< merge policy answer behind the IOMMU, else
					        ::MMCHAL_MERGE_NO_IOMMU */
	uint32_t index;                     /**< offending sg entry for per-segment reasons */
	bool iommu;                         /**< DMA addresses come from the IOMMU */
};

/**
 * @brief Plan the data path of a validated data phase.
 *
 * @param[in]  env   the host
 * @param[in]  data  a data phase that passed mmchal_request_check()
 * @param[out] out   the plan
 * @retval 0              planned
 * @retval MMCHAL_EINVAL  NULL argument (also @p env->dma), unknown direction, no list
 *                        (@c sg NULL or @c sg_len 0), an entry of length 0 or wrapping
 *                        the address space, @p env->seg_table 0, a @p env->cache_line
 *                        that is not 0 or a power of two, or the plan needs a CPU
 *                        address (PIO, bouncing, or cache maintenance on a
 *                        non-coherent system) that an entry does not have
 * @note Without the IOMMU layer (MMCHAL_WITH_IOMMU 0) @p env->iommu is ignored:
 *       never ::MMCHAL_PLAN_IOMMU_MERGED, @c merge always
 *       ::MMCHAL_MERGE_NO_IOMMU, @c iommu false. Without the bounce pool
 *       (MMCHAL_WITH_BOUNCE 0) @p env->bounce_limit is taken as 0: never
 *       ::MMCHAL_PLAN_BOUNCED, and a PIO fallback says ::MMCHAL_NB_NO_POOL
 *       (::MMCHAL_NB_ENGINE for a length the engine refuses).
 * @note Pure: any context, no lock.
 */
int mmchal_dma_plan(const struct mmchal_plan_env *env, const struct mmchal_data *data,
		    struct mmchal_plan_result *out);

/**
 * @brief mmchal_dma_plan() with the summary mmchal_request_check() made of
 *        the same list, which saves the planner its own pass over it.
 *
 * @param[in]  env   the host
 * @param[in]  data  validated data phase
 * @param[in]  sum   its summary (::mmchal_req_check_info::sum); NULL or not
 *                   @c valid = computed here (and the entries checked, as
 *                   mmchal_dma_plan() does); a valid summary vouches for the list
 * @param[out] out   the plan
 * @return as mmchal_dma_plan()
 * @note As mmchal_dma_plan() in a library without the IOMMU layer or the
 *       bounce pool.
 * @note Pure: any context, no lock.
 */
int mmchal_dma_plan_sum(const struct mmchal_plan_env *env, const struct mmchal_data *data,
			const struct mmchal_sg_summary *sum, struct mmchal_plan_result *out);

/**
 * @brief Plan without the engine: bounce if possible, else PIO, keeping
 *        @p why as the reason (after a failed post-mapping check, or
 *        ::MMCHAL_PR_RETRY for a PIO retry, which never bounces).
 *
 * @param[in]  env   the host
 * @param[in]  data  validated data phase
 * @param[in]  why   the obstacle
 * @param[out] out   the plan
 * @retval 0              planned
 * @retval MMCHAL_EINVAL  NULL argument (also @p env->dma), unknown direction, no list,
 *                        @p why out of range, a @p env->cache_line that is not 0 or a
 *                        power of two, or an entry without a CPU address
 * @note Without the bounce pool (MMCHAL_WITH_BOUNCE 0) nothing is bounced:
 *       always ::MMCHAL_PLAN_PIO, and @c nobounce as mmchal_dma_plan() says.
 * @note Pure: any context, no lock.
 */
int mmchal_dma_plan_fallback(const struct mmchal_plan_env *env, const struct mmchal_data *data,
			     enum mmchal_plan_reason why, struct mmchal_plan_result *out);

/**
 * @brief Check IOMMU-mapped segments against the engine (Linux does not):
 *        a merged mapping must be exactly one segment, and every segment must
 *        meet the engine's alignment, granule, size, boundary and address bits.
 *
 * @param[in] caps    the engine's constraints for the transfer's direction
 * @param[in] segs    mapped segments
 * @param[in] nsegs   entries in @p segs
 * @param[in] merged  the mapping was meant to be one segment
 * @param[out] index  first offending segment; may be NULL (0 for the argument checks)
 * @return true when the engine can take the segments; false for NULL @p caps or
 *         @p segs, 0 or more than @c max_segs segments, or @p merged with more than one
 * @note Pure: any context, no lock.
 */
bool mmchal_dma_check_mapped(const struct mmchal_dma_dir_caps *caps,
			     const struct mmchal_dma_seg *segs, uint32_t nsegs, bool merged,
			     uint32_t *index);

/**
 * @brief Name of a plan, e.g. "IOMMU_MERGED".
 * @param[in] plan  plan
 * @return a static string; "?" for an out-of-range value
 */
const char *mmchal_plan_name(enum mmchal_plan plan);

/**
 * @brief Text of a plan reason.
 * @param[in] reason  reason
 * @return a static string; "?" for an out-of-range value
 */
const char *mmchal_plan_reason_text(enum mmchal_plan_reason reason);

/**
 * @brief Text of a no-bounce reason.
 * @param[in] nb  value
 * @return a static string; "?" for an out-of-range value
 */
const char *mmchal_plan_nobounce_text(enum mmchal_plan_nobounce nb);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_DMA_PLAN_H */
