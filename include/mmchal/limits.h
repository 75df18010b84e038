/**
 * @file
 * @brief Transfer limits derived from capabilities, each with its reason,
 *        and the completion locking policy.
 *
 * Limits are never configured by hand: mmchal_limits_derive() computes them
 * from ::mmchal_caps and the card type, following these rules in order:
 *
 *  1. @c max_segs starts at 32 (the TMIO default), @c max_blk_size at 512.
 *  2. The DMA engine caps @c max_segs at the segments it can chain.
 *  3. **Merge raise**: host merge-capable, an IOMMU that can merge (non-zero
 *     merge boundary), an SD memory or eMMC card and @c max_segs < 512
 *     → @c max_segs = 512 and @c virt_boundary = the merge boundary.
 *  4. @c max_req_size = min(max_blk_size × block-counter limit, bounce limit
 *     (bouncing possible, no IOMMU), IOMMU max mapping, engine limit).
 *  5. @c max_blk_count = counter limit, reduced to fit @c max_req_size.
 *  6. @c max_seg_size = min(engine max segment, @c max_req_size).
 *  7. The completion locking policy, from the completion context, the port's
 *     facilities and the worst-case completion work the limits allow.
 *
 * Each field records the rule that set it (::mmchal_limit_reason) and the
 * input value behind it; mmchal_limits_explain() renders both as text.
 *
 * A library built without the IOMMU layer, the bounce pool or the interrupt
 * path (config.h: MMCHAL_WITH_IOMMU, MMCHAL_WITH_BOUNCE, MMCHAL_WITH_IRQ)
 * refuses capabilities that name the unit it lacks and leaves out the rules
 * only that unit triggers (3, the IOMMU and bounce terms of 4, the interrupt
 * policies of 7); from every capability set it accepts it derives what the
 * full build derives, except that an interrupt-driven host is polled.
 *
 * @note Pure functions: no hardware, no port calls, no allocation. Any
 *       context, no locks.
 */
#ifndef MMCHAL_LIMITS_H
#define MMCHAL_LIMITS_H

#include <mmchal/caps.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Default segment count of a TMIO host (TMIO_DEFAULT_MAX_SEGS). */
#define MMCHAL_DEFAULT_MAX_SEGS 32u
/** @brief Segment count after the merge raise (MMC_DMA_MAP_MERGE_SEGMENTS). */
#define MMCHAL_MERGE_MAX_SEGS   512u

/** @brief Completion locking policy (see docs/architecture.md, "Completion"). */
enum mmchal_completion_policy {
	MMCHAL_POLICY_AUTO = 0,   /**< only as an override: let the core choose */
	MMCHAL_POLICY_IRQ_LOCKED, /**< the interrupt handler completes everything under the lock */
	MMCHAL_POLICY_IRQ_SPLIT,  /**< state change under the lock; unmap, copy-back and
				       callback after it is dropped, still in the handler */
	MMCHAL_POLICY_DEFERRED,   /**< the handler acks and schedules; completion runs in
				       the port's deferred-work context */
	MMCHAL_POLICY_POLLED,     /**< no interrupts: the caller polls */
};

/** @brief What the port offers that the policy choice depends on. */
struct mmchal_port_caps {
	bool lock;          /**< a lock with interrupt save/restore exists */
	bool deferred_work; /**< work can be scheduled to a thread-like context */
};

/**
 * @brief Tuning of the completion policy choice. Zero fields take the
 *        defaults; a NULL pointer means all defaults.
 *
 * The cost figures are estimates used only to compare against the budgets;
 * measure your platform (bench/) and set them.
 */
struct mmchal_policy_cfg {
	enum mmchal_completion_policy override; /**< force a policy; AUTO = choose */
	uint32_t irq_off_budget_ns; /**< longest the lock may be held with interrupts off, ns;
					  0 = 20 000 */
	uint32_t irq_budget_ns;     /**< longest completion work in the interrupt handler, ns;
					  0 = 100 000 */
	uint32_t base_ns;           /**< fixed completion cost (status, state, callback), ns;
					  0 = 2 000 */
	uint32_t unmap_ns_per_page; /**< IOMMU unmap cost per page, ns; 0 = 100 */
	uint32_t flush_ns;          /**< IOMMU TLB sync per completion, ns; 0 = 2 000 */
	uint32_t copy_ns_per_kib;   /**< bounce copy-back cost per KiB, ns; 0 = 500 */
};

/** @brief Index of a derived field in ::mmchal_limits::reason and ::mmchal_limits::cause. */
enum mmchal_limit_field {
	MMCHAL_LIM_MAX_SEGS = 0,  /**< ::mmchal_limits::max_segs */
	MMCHAL_LIM_MERGE,         /**< ::mmchal_limits::merge (why merging is or is not on) */
	MMCHAL_LIM_VIRT_BOUNDARY, /**< ::mmchal_limits::virt_boundary */
	MMCHAL_LIM_MAX_BLK_SIZE,  /**< ::mmchal_limits::max_blk_size */
	MMCHAL_LIM_MAX_REQ_SIZE,  /**< ::mmchal_limits::max_req_size */
	MMCHAL_LIM_MAX_BLK_COUNT, /**< ::mmchal_limits::max_blk_count */
	MMCHAL_LIM_MAX_SEG_SIZE,  /**< ::mmchal_limits::max_seg_size */
	MMCHAL_LIM_SEG_BOUNDARY,  /**< ::mmchal_limits::seg_boundary */
	MMCHAL_LIM_DMA_ALIGN,     /**< ::mmchal_limits::dma_align */
	MMCHAL_LIM_BOUNCE_LIMIT,  /**< ::mmchal_limits::bounce_limit */
	MMCHAL_LIM_POLICY,        /**< ::mmchal_limits::policy */
	MMCHAL_LIM_COUNT,         /**< number of fields */
};

/** @brief Why a derived field has its value. */
enum mmchal_limit_reason {
	MMCHAL_WHY_DEFAULT = 0,        /**< the library default (cause: the value) */
	MMCHAL_WHY_HOST_DECLARED,      /**< declared by the host (cause: the value) */
	MMCHAL_WHY_ENGINE_SEGS,        /**< the engine chains at most cause segments */
	MMCHAL_WHY_PIO_NO_ENGINE,      /**< PIO: no engine limit, default kept */
	MMCHAL_WHY_MERGE_RAISED,       /**< merge raise applied (cause: merge boundary + 1) */
	MMCHAL_WHY_MERGE_NOT_CAPABLE,  /**< host does not declare merge capability */
	MMCHAL_WHY_MERGE_NO_IOMMU,     /**< no IOMMU in front of the engine */
	MMCHAL_WHY_MERGE_IOMMU_CANNOT, /**< the IOMMU reports merge boundary 0 */
	MMCHAL_WHY_MERGE_CARD_SDIO,    /**< SDIO buffers are small and unaligned: no merging */
	MMCHAL_WHY_MERGE_CARD_UNKNOWN, /**< card not identified yet */
	MMCHAL_WHY_MERGE_NO_DMA,       /**< PIO host: nothing to merge for */
	MMCHAL_WHY_NONE,               /**< no constraint applies */
	MMCHAL_WHY_BLK_PRODUCT,        /**< max_blk_size x block-counter limit */
	MMCHAL_WHY_BOUNCE_CLAMP,       /**< bounce limit slot size x slots per mapping */
	MMCHAL_WHY_IOMMU_MAP_LIMIT,    /**< the IOMMU's largest mapping */
	MMCHAL_WHY_ENGINE_XFER,        /**< the engine's largest transfer */
	MMCHAL_WHY_BLK_COUNTER,        /**< the block counter is cause bits wide */
	MMCHAL_WHY_SOC_BLK_COUNT,      /**< the SoC data caps the block count */
	MMCHAL_WHY_FIT_REQ_SIZE,       /**< reduced to fit max_req_size */
	MMCHAL_WHY_ENGINE_SEG_SIZE,    /**< the engine's largest segment */
	MMCHAL_WHY_ENGINE_BOUNDARY,    /**< the engine's segment boundary */
	MMCHAL_WHY_ENGINE_ALIGN,       /**< the engine's start alignment */
	MMCHAL_WHY_BOUNCE_NO_POOL,     /**< no bounce pool */
	MMCHAL_WHY_BOUNCE_IOMMU,       /**< behind an IOMMU bouncing is not needed */
	MMCHAL_WHY_BOUNCE_PIO,         /**< PIO never bounces */
	MMCHAL_WHY_BOUNCE_POOL,        /**< the bounce pool's mapping size */
	MMCHAL_WHY_POLICY_OVERRIDE,    /**< forced by the configuration */
	MMCHAL_WHY_POLICY_NO_IRQ,      /**< the backend completes by polling */
	MMCHAL_WHY_POLICY_NO_LOCK,     /**< the port has no interrupt-safe lock */
	MMCHAL_WHY_POLICY_NO_WORK,     /**< no unmap or copy-back work on completion */
	MMCHAL_WHY_POLICY_IRQ_OFF_OK,  /**< worst-case work fits the interrupt-off budget */
	MMCHAL_WHY_POLICY_IRQ_OK,      /**< worst-case work fits the interrupt budget */
	MMCHAL_WHY_POLICY_TOO_MUCH,    /**< worst-case work exceeds the interrupt budget */
	MMCHAL_WHY_POLICY_NO_DEFER,    /**< over budget, but the port cannot defer work */
	MMCHAL_WHY_POLICY_NO_IRQ_PATH, /**< the backend completes in an interrupt, but the
					    library is built without the interrupt path
					    (MMCHAL_WITH_IRQ = 0): the caller polls */
	MMCHAL_WHY_COUNT,              /**< number of reasons */
};

/** @brief Limits of one host with one card, each field with its reason. */
struct mmchal_limits {
	uint32_t max_segs;      /**< most entries in a request's scatter-gather list */
	bool merge;             /**< segments are merged into one IOVA range behind the IOMMU */
	uint64_t virt_boundary; /**< mask: interior segment boundaries must be aligned to
				       virt_boundary + 1; 0 = none */
	uint32_t max_blk_size;  /**< largest block, bytes */
	uint64_t max_req_size;  /**< most bytes in one request */
	uint32_t max_blk_count; /**< most blocks in one request */
	uint32_t max_seg_size;  /**< largest scatter-gather entry, bytes */
	uint64_t seg_boundary;  /**< mask no entry may cross; 0 = none */
	uint32_t dma_align;     /**< start alignment DMA needs without bouncing, bytes; 1 = none */
	uint64_t bounce_limit;  /**< largest bounce mapping, bytes: slot size x min(slots per
				       mapping, pool slots); 0 = no bouncing */
	enum mmchal_completion_policy policy; /**< completion locking policy */
	uint64_t completion_work_ns; /**< worst-case completion work estimate behind @c policy */
	enum mmchal_card_type card;  /**< card type the limits were derived for */
	enum mmchal_limit_reason reason[MMCHAL_LIM_COUNT]; /**< why, per field */
	uint64_t cause[MMCHAL_LIM_COUNT]; /**< the input value behind each reason */
};

/**
 * @brief Derive the transfer limits and the completion policy.
 *
 * @param[in]  caps    capabilities of the host, its DMA engine, IOMMU and bounce pool
 * @param[in]  port    facilities of the port (lock, deferred work)
 * @param[in]  policy  policy tuning; NULL = defaults
 * @param[in]  card    card type; ::MMCHAL_CARD_UNKNOWN before identification
 * @param[out] out     derived limits; untouched on error
 * @retval 0               success
 * @retval MMCHAL_ENOTSUP  @p caps names a unit the library is built without:
 *                         an IOMMU (::mmchal_iommu_caps::present) when
 *                         MMCHAL_WITH_IOMMU is 0, a bounce pool
 *                         (::mmchal_bounce_caps::present) when
 *                         MMCHAL_WITH_BOUNCE is 0 (config.h), however the
 *                         unit is described; checked after the host, the
 *                         engine and the card type
 * @retval MMCHAL_EINVAL   a NULL pointer, an unknown enum value, or inconsistent
 *                         capabilities: an engine chaining 0 segments or with a
 *                         0-byte largest segment or more than 64 address bits, a
 *                         non-power-of-two alignment, granule, page or slot
 *                         size, a merge boundary that is
 *                         not page_size - 1, IOMMU or bounce fields set while
 *                         the unit is absent, a block counter width other than
 *                         16 or 32, an IOMMU aperture with end < start, a
 *                         request limit below one block, a forced policy
 *                         the host or port cannot run (DEFERRED without deferred
 *                         work, an interrupt policy on a polled host or without
 *                         a lock, any policy but POLLED when MMCHAL_WITH_IRQ
 *                         is 0)
 * @note With MMCHAL_WITH_IRQ 0 the policy is always ::MMCHAL_POLICY_POLLED:
 *       ::MMCHAL_WHY_POLICY_NO_IRQ for a host that completes by polling,
 *       ::MMCHAL_WHY_POLICY_NO_IRQ_PATH for one that completes in an
 *       interrupt, ::MMCHAL_WHY_POLICY_OVERRIDE when forced. The completion
 *       work is estimated in every build (without the IOMMU layer and the
 *       bounce pool: the fixed cost alone).
 * @note Any context; takes no lock. Call again at every card change
 *       (init_card): the merge raise depends on the card type.
 */
int mmchal_limits_derive(const struct mmchal_caps *caps, const struct mmchal_port_caps *port,
			 const struct mmchal_policy_cfg *policy, enum mmchal_card_type card,
			 struct mmchal_limits *out);

/**
 * @brief Name of a limits field, e.g. "max_segs".
 * @param[in] field  field index
 * @return a static string; "?" for an out-of-range value
 */
const char *mmchal_limit_field_name(enum mmchal_limit_field field);

/**
 * @brief Text of a reason, with "{}" where the cause value goes.
 * @param[in] reason  reason code
 * @return a static string; "?" for an out-of-range value
 */
const char *mmchal_limit_reason_text(enum mmchal_limit_reason reason);

/**
 * @brief Name of a completion policy, e.g. "IRQ_SPLIT".
 * @param[in] policy  policy
 * @return a static string; "?" for an out-of-range value
 */
const char *mmchal_completion_policy_name(enum mmchal_completion_policy policy);

/**
 * @brief Name of a card type, e.g. "eMMC".
 * @param[in] card  card type
 * @return a static string; "?" for an out-of-range value
 */
const char *mmchal_card_type_name(enum mmchal_card_type card);

/**
 * @brief Render one field as a line: name, value and reason, e.g.
 *        "max_segs = 512: raised for merging behind an IOMMU with 4096-byte pages".
 *
 * @param[in]  lim    derived limits
 * @param[in]  field  which field
 * @param[out] buf    destination; always NUL-terminated when @p size > 0
 * @param[in]  size   size of @p buf in bytes
 * @return the length of the line (without NUL) on success
 * @retval MMCHAL_EINVAL  @p lim or @p buf NULL, @p size 0, @p field out of range
 * @retval MMCHAL_ENOSPC  the line did not fit; @p buf holds what fitted
 * @note Any context.
 */
int mmchal_limits_explain_field(const struct mmchal_limits *lim, enum mmchal_limit_field field,
				char *buf, size_t size);

/**
 * @brief Render every field, one line each ('\n'-terminated).
 *
 * @param[in]  lim   derived limits
 * @param[out] buf   destination; always NUL-terminated when @p size > 0
 * @param[in]  size  size of @p buf in bytes (1 KiB is enough)
 * @return the length of the text (without NUL) on success
 * @retval MMCHAL_EINVAL  @p lim or @p buf NULL, or @p size 0
 * @retval MMCHAL_ENOSPC  the text did not fit; @p buf holds the whole lines that fitted
 * @note Any context.
 */
int mmchal_limits_explain(const struct mmchal_limits *lim, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_LIMITS_H */
