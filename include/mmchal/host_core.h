/**
 * @file
 * @brief The host object: one controller with its backend, port, optional
 *        IOMMU domain and bounce pool, driven through ::mmchal_host_ops.
 *
 * A host is caller storage (::mmchal_host) set up from a const
 * configuration (::mmchal_host_cfg). mmchal_host_init() checks every table,
 * probes the backend, queries the capabilities and derives the limits for an
 * unknown card; ::mmchal_host_core_ops is the ops table an MMC stack drives,
 * with @c ctx = the host.
 *
 * A request goes: validation (mmchal_request_check(), nothing sent on
 * failure) -> plan (mmchal_dma_plan()) -> IOMMU mapping or bounce ->
 * cache maintenance -> backend @c start -> events from mmchal_host_irq() or
 * mmchal_host_poll() -> completion under the host's locking policy (unmap,
 * copy back, invalidate) -> @c done exactly once. One request is in flight
 * per host.
 *
 * Sequencing: SET_BLOCK_COUNT (CMD23) when @c sbc is set, then the command
 * with its data, then STOP when @c stop is set and there was no CMD23, or the
 * command or its data phase failed or timed out (the card may be left sending
 * or receiving), then the end of R1b busy (::MMCHAL_EV_BUSY_DONE on a host
 * with ::MMCHAL_BUS_HW_BUSY, else polling the backend's @c card_busy). A data
 * phase that ends with fewer blocks than asked (the backend's @c blocks_done)
 * fails with ::MMCHAL_EIO; @c bytes_xfered counts only the blocks known to
 * have moved. On a host with ::MMCHAL_BUS_AUTO_CMD12 an open-ended
 * multiple-block transfer whose STOP is a plain CMD12 (argument 0) is ended
 * by the controller (::mmchal_xfer::auto_stop): no CMD12 is sent, the
 * backend fills in the STOP's response or error; after a failed data phase
 * the core still sends STOP itself. A data phase's timeout is @c timeout_ns per block, or the
 * host's data timeout for the whole phase when it is 0.
 *
 * PIO retry (::mmchal_host_cfg::pio_retry): a DMA plan whose data phase
 * fails with ::MMCHAL_EFAULT is unmapped and run again by PIO, once, when
 * every buffer has a CPU address; @c done is called once, for the retry.
 *
 * Timeouts are software timeouts from the port's @c now_ns, checked in
 * mmchal_host_poll() and in the wait loop of mmchal_host_request_sync(): on
 * expiry the backend is aborted and the request completes once with
 * ::MMCHAL_ETIMEDOUT.
 *
 * A library built without the interrupt path (::MMCHAL_WITH_IRQ 0) keeps
 * only polled completion: mmchal_host_poll() and mmchal_host_request_sync()
 * complete every request, whatever policy the limits name, and
 * mmchal_host_irq() refuses with ::MMCHAL_ENOTSUP.
 *
 * @note Locking: every function takes the host lock (the port's lock pair)
 *       itself; backend ops are called with it held. Under IRQ_SPLIT and
 *       DEFERRED the lock is held only for state transitions. No function
 *       may be called from the request's own @c done callback except
 *       mmchal_host_request() and the queries.
 */
#ifndef MMCHAL_HOST_CORE_H
#define MMCHAL_HOST_CORE_H

#include <mmchal/backend.h>
#include <mmchal/bounce.h>
#include <mmchal/caps.h>
#include <mmchal/config.h>
#include <mmchal/dma_plan.h>
#include <mmchal/host.h>
#include <mmchal/iommu.h>
#include <mmchal/limits.h>
#include <mmchal/port.h>
#include <mmchal/request.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Default command timeout, ms (::mmchal_host_cfg::cmd_timeout_ms = 0). */
#define MMCHAL_HOST_CMD_TIMEOUT_MS_DEFAULT  1000u
/** @brief Default data timeout, ms, when a data phase has no @c timeout_ns. */
#define MMCHAL_HOST_DATA_TIMEOUT_MS_DEFAULT 10000u
/** @brief Default R1b busy timeout, ms, when a command has no @c busy_timeout_ms. */
#define MMCHAL_HOST_BUSY_TIMEOUT_MS_DEFAULT 10000u

/** @brief Slots of ::mmchal_host_stats::errors, indexed by -error: one per
 *         ::mmchal_err code, ::MMCHAL_EROFS the last (slot 0 stays 0). */
#define MMCHAL_HOST_ERR_SLOTS 17

/** @brief Configuration of a host. Zero fields take the stated defaults. */
struct mmchal_host_cfg {
	const struct mmchal_backend *backend; /**< the controller driver; required (copied) */
	const struct mmchal_port *port;       /**< OS facilities; required (copied) */
	/** IOMMU domain in front of the DMA master; NULL = none. The host's own
	    while it is live: it maps and unmaps without the host lock (one request
	    at a time), so no other host or code may use the domain meanwhile. */
	struct mmchal_iommu_domain *iommu;
	/** bounce pool; NULL = none. The host's own while it is live, as @c iommu */
	struct mmchal_bounce *bounce;
	struct mmchal_policy_cfg policy; /**< completion policy tuning and override */
	uint32_t cmd_timeout_ms;         /**< command timeout, ms; 0 = 1000 */
	uint32_t data_timeout_ms; /**< data phase timeout when the data has no timeout_ns, ms;
				       0 = 10 000 */
	uint32_t busy_timeout_ms; /**< R1b busy timeout when the command has none, ms;
				       0 = 10 000 */
	bool pio_retry;           /**< retry a request by PIO after an ::MMCHAL_EFAULT DMA error */
	struct mmchal_dma_seg *seg_table; /**< device segment table for DIRECT transfers of
					       more than one segment; NULL = one segment */
	uint32_t seg_table_len;           /**< entries in @c seg_table */
	/** called when the backend reports ::MMCHAL_EV_CARD_CHANGE (card inserted or
	    removed), from mmchal_host_irq() or mmchal_host_poll() after the host lock
	    is dropped, in that caller's context; NULL = not told (still counted) */
	void (*card_change)(void *arg);
	void *card_change_arg; /**< argument of @c card_change */
	/** called when the backend reports ::MMCHAL_EV_SDIO_IRQ (the SDIO card
	    signalled its interrupt), from mmchal_host_irq() or mmchal_host_poll()
	    after the host lock is dropped, in that caller's context. The backend
	    has disabled the card interrupt with the report: the owner finds and
	    clears its cause (CMD52 reads of CCCR INTx and the function's own
	    registers, from a context that may issue requests), then enables it
	    again with the host op @c enable_sdio_irq. NULL = not told (still
	    counted). A library built without ::MMCHAL_WITH_SDIO (config.h) has
	    no SDIO interrupt path: mmchal_host_init() refuses a non-NULL callback */
	void (*sdio_irq)(void *arg);
	void *sdio_irq_arg; /**< argument of @c sdio_irq */
};

/** @brief Counters of a host. */
struct mmchal_host_stats {
	uint64_t requests;                /**< requests accepted and started */
	uint64_t completed;               /**< completions (done calls) */
	uint64_t rejected_invalid;        /**< requests refused with ::MMCHAL_EINVAL */
	uint64_t rejected_busy;           /**< requests refused with ::MMCHAL_EBUSY */
	uint64_t bytes;                   /**< bytes transferred (sum of bytes_xfered) */
	uint64_t plan[MMCHAL_PLAN_COUNT]; /**< requests per plan */
	uint64_t reason[MMCHAL_PLAN_COUNT][MMCHAL_PR_COUNT]; /**< requests per plan and reason */
	uint64_t nobounce[MMCHAL_NB_COUNT]; /**< PIO fallbacks per reason bouncing was not used */
	uint64_t errors[MMCHAL_HOST_ERR_SLOTS]; /**< failed requests by first error (index -err) */
	uint64_t timeouts;                      /**< software timeouts that fired */
	uint64_t aborts;                        /**< requests aborted by mmchal_host_abort() */
	uint64_t pio_retries;                   /**< PIO retries after a DMA fault */
	uint64_t map_fallbacks; /**< IOMMU mappings the engine could not take (fallback) */
	/** accepted requests the quick checks could not prove valid (the full
	 *  checks ran: a list with an unaligned first entry, a wrapping address) */
	uint64_t full_checks;
	/** data phases the host's precomputed answer could not plan (the full
	 *  planner ran: cache maintenance, an entry the engine refuses, a
	 *  length outside the DMA window) */
	uint64_t full_plans;
	/** IOMMU mappings the host's precomputed answer could not prove the
	 *  engine takes (the exact check of the mapped segments ran) */
	uint64_t full_map_checks;
	uint64_t unmap_errors; /**< IOMMU unmaps that failed */
	uint64_t spurious;     /**< events with no request in flight */
	uint64_t defer_inline; /**< DEFERRED completions run inline (schedule_work failed);
				    always 0 without the interrupt path (::MMCHAL_WITH_IRQ 0) */
	uint64_t card_changes; /**< ::MMCHAL_EV_CARD_CHANGE events from the backend */
	/** ::MMCHAL_EV_SDIO_IRQ events from the backend; always 0 in a library
	    built without ::MMCHAL_WITH_SDIO */
	uint64_t sdio_irqs;
	/** IOMMU pages mapped now in the host's domain, as the domain counts them.
	 *  Read by mmchal_host_stats() when no request is being mapped or released;
	 *  a call that finds one (the owner works on the domain without the lock)
	 *  returns the four usage figures of the last call that could read them. */
	uint32_t iova_pages;
	uint32_t iova_pages_peak;   /**< most IOMMU pages the domain had mapped at once */
	uint32_t bounce_slots;      /**< slots in use now in the host's bounce pool */
	uint32_t bounce_slots_peak; /**< most slots the pool had in use at once */
};

/**
 * @brief Private: what the planner would decide for one direction from the
 *        host alone, derived at every card change, so that the common
 *        request needs a few mask tests instead of a planner run. Kept at
 *        128 bytes on 64-bit hosts: the request path finds a direction's
 *        entry with one shift.
 */
struct mmchal_host_plan_fast {
	uint8_t mode;        /**< private: 0 = run the planner, 1 = PIO (no engine),
				  2 = DIRECT when the list passes the masks, 3 = IOMMU_MERGED
				  when the merge policy agrees */
	bool iommu;          /**< private: DIRECT through the IOMMU, merging off */
	uint32_t segs;       /**< private: most segments the engine takes */
	uint32_t seg_max;    /**< private: the engine's largest segment */
	uint64_t start_mask; /**< private: bits no start may have (alignment, granule) */
	uint64_t align1;     /**< private: addr_align - 1: bits no start may have */
	uint64_t gran1;      /**< private: granule - 1: bits every last byte has */
	uint64_t last_max;   /**< private: highest last byte the engine reaches */
	uint64_t bnd_not;    /**< private: ~seg_boundary, or 0 */
	uint64_t min_len;    /**< private: shortest DMA transfer */
	uint64_t xfer_span;  /**< private: the longest DMA transfer - min_len (a DMA
				  length is at most this above min_len; modes 2 and 3 need
				  the longest >= min_len) */
	uint64_t bounce_max; /**< private: mode 2 without IOMMU: largest total a
				  bounce takes (pool and engine), 0 = none */
	/* the engine's tests of a mapped segment (device addresses) */
	uint32_t dev_segs;     /**< private: the engine's max_segs */
	uint64_t dev_last_max; /**< private: highest last byte of a device address */
	uint64_t dev_bnd_not;  /**< private: ~seg_boundary, or 0 */
	bool dev_any;          /**< private: every device address of the IOMMU domain
				    passes the engine's address tests */
	/* mode 3: the merge policy's verdict on a validated list */
	bool merge_fast;     /**< private: the request checks prove the interior
				alignment merging needs (virt_boundary is the merge boundary) */
	uint64_t merge_mask; /**< private: the IOMMU's merge boundary */
	uint64_t span_max;   /**< private: largest merged mapping, in whole pages' bytes */
};

/**
 * @brief A host. Caller storage; every field is private, set by
 *        mmchal_host_init(). Any number of hosts may exist in one image.
 */
struct mmchal_host {
	uint32_t magic;                       /**< private: live marker */
	struct mmchal_backend be;             /**< private: backend */
	struct mmchal_port port;              /**< private: port */
	struct mmchal_iommu_domain *dom;      /**< private: IOMMU domain or NULL */
	struct mmchal_bounce *bounce;         /**< private: bounce pool or NULL */
	struct mmchal_policy_cfg policy;      /**< private: policy tuning */
	uint32_t cmd_timeout_ms;              /**< private */
	uint32_t data_timeout_ms;             /**< private */
	uint32_t busy_timeout_ms;             /**< private */
	uint64_t cmd_timeout_ns;              /**< private: @c cmd_timeout_ms in ns */
	uint64_t data_timeout_ns;             /**< private: @c data_timeout_ms in ns */
	mmchal_irqflags_t (*lock)(void *ctx); /**< private: the port's lock or a no-op */
	void (*unlock)(void *ctx, mmchal_irqflags_t flags); /**< private: its unlock */
	uint64_t (*now)(void *ctx);                         /**< private: the port's now_ns */
	int (*be_start)(void *ctx, const struct mmchal_xfer *xfer); /**< private: backend start */
	int (*be_irq)(void *ctx, uint32_t *events);    /**< private: backend handle_irq */
	int (*be_blocks)(void *ctx, uint32_t *blocks); /**< private: backend blocks_done or NULL */
	bool pio_retry;                                /**< private */
	bool noncoherent; /**< private: the port does cache maintenance */
	bool lean_sum;    /**< private: requests need no list-end summary (no boundary, granule) */
	void (*card_change)(void *arg); /**< private: card change callback */
	void *card_change_arg;          /**< private */
	void (*sdio_irq)(void *arg);    /**< private: SDIO interrupt callback */
	void *sdio_irq_arg;             /**< private */
	struct mmchal_caps caps;        /**< private: queried capabilities */
	struct mmchal_limits limits;    /**< private: limits for the current card */
	struct mmchal_plan_env penv;    /**< private: planner input for the current card */
	struct mmchal_host_plan_fast pfast[MMCHAL_DIR_COUNT]; /**< private: per direction */
	uint32_t state;                  /**< private: completion state (request.c) */
	uint32_t flags;                  /**< private: per-request flags */
	struct mmchal_request *req;      /**< private: request in flight */
	struct mmchal_cmd *cur;          /**< private: command on the line */
	uint64_t deadline_ns;            /**< private: timeout of the current phase */
	struct mmchal_plan_result plan;  /**< private: plan of the request in flight */
	struct mmchal_iommu_mapping map; /**< private: IOMMU mapping */
	struct mmchal_bounce_map bmap;   /**< private: bounce mapping */
	struct mmchal_dma_seg seg1;      /**< private: one-entry segment table */
	struct mmchal_dma_seg *segs;     /**< private: segment table */
	uint32_t segs_len;               /**< private: entries in @c segs */
	uint32_t nsegs;                  /**< private: segments handed to the backend */
	uint32_t busy_polls;             /**< private: card_busy polls of this phase */
	struct mmchal_xfer xfer; /**< private: what the backend was given for a data command */
	struct mmchal_xfer xcmd; /**< private: the same for a command without data (only
					      @c cmd is ever set) */
	uint64_t done_seq;       /**< private: completions so far */
#if MMCHAL_WITH_STATS
	struct mmchal_host_stats st; /**< private: counters (not in a build without statistics) */
#endif
};

/**
 * @brief Set up a host: check every table, probe the backend, query the
 *        capabilities of the backend, the IOMMU domain and the bounce pool, and
 *        derive the limits for an unknown card.
 *
 * @param[out] host  host storage; on failure it is left not live
 * @param[in]  cfg   configuration; the domain, pool and segment table it names
 *                   must outlive the host
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument, a table incomplete (backend, port), a
 *                        segment table pointer without length or the reverse,
 *                        inconsistent capabilities, or a forced policy the host
 *                        cannot run; in a library built without a layer (config.h):
 *                        an IOMMU domain (::MMCHAL_WITH_IOMMU), a bounce pool
 *                        (::MMCHAL_WITH_BOUNCE) or an @c sdio_irq callback
 *                        (::MMCHAL_WITH_SDIO)
 * @retval other          the error of the backend's @c probe or @c get_caps
 * @note Thread context; calls the backend's @c probe without the lock.
 * @note Without the interrupt path (::MMCHAL_WITH_IRQ 0) a backend that
 *       declares ::MMCHAL_COMPLETES_IN_IRQ is accepted like any other and
 *       polled: mmchal_host_poll() calls its @c handle_irq op.
 */
int mmchal_host_init(struct mmchal_host *host, const struct mmchal_host_cfg *cfg);

/**
 * @brief Take a host down. A request still in flight is aborted first (it
 *        completes with ::MMCHAL_ECANCELED). Safe on a host that is not live.
 * @param[in,out] host  host; NULL is ignored
 * @note Thread context.
 */
void mmchal_host_deinit(struct mmchal_host *host);

/**
 * @brief The host ops an MMC stack drives; @c ctx is a live ::mmchal_host.
 *
 * @c init_card, @c set_ios, @c hw_reset and @c execute_tuning are refused
 * with ::MMCHAL_EBUSY while a request is in flight; optional backend ops
 * that are missing give ::MMCHAL_ENOTSUP. In a library built without
 * ::MMCHAL_WITH_SDIO (config.h) @c enable_sdio_irq returns ::MMCHAL_ENOTSUP
 * (::MMCHAL_EINVAL when @c ctx is not a live host) and @c get_caps never
 * reports ::MMCHAL_BUS_SDIO_IRQ.
 */
extern const struct mmchal_host_ops mmchal_host_core_ops;

/**
 * @brief Start a request; its @c done callback runs exactly once later.
 *
 * @param[in,out] host  live host
 * @param[in,out] req   request; caller-owned until @c done is called
 * @retval 0              started; completion is reported through @c done
 * @retval MMCHAL_EINVAL  NULL argument, host not live, or the request is invalid
 *                        (mmchal_request_check(), a CPU address missing where
 *                        the plan needs one); nothing was sent or mapped
 * @retval MMCHAL_EBUSY   another request is in flight; nothing changed
 * @retval other          mapping or bounce failure (::MMCHAL_ENOMEM, ...) or the
 *                        backend's @c start error; everything is unwound
 * @note On a negative return @c done is never called. Any context that may
 *       take the host lock; maps memory (IOMMU ops) without the lock.
 */
int mmchal_host_request(struct mmchal_host *host, struct mmchal_request *req);

/**
 * @brief Run a request to completion, polling the host (boot loaders).
 *
 * The request's @c done, if any, is still called exactly once. When
 * @p timeout_ms passes first, the request is aborted and completes with
 * ::MMCHAL_ETIMEDOUT.
 *
 * @param[in,out] host        live host
 * @param[in,out] req         request
 * @param[in]     timeout_ms  longest wait, ms; 0 = the host's timeouts only
 * @return 0, or the request's first error (SET_BLOCK_COUNT, command, data, STOP)
 * @retval MMCHAL_EINVAL  as for mmchal_host_request()
 * @retval MMCHAL_EBUSY   another request is in flight
 * @note Thread context; calls the port's @c delay_us between polls. Under
 *       the DEFERRED policy the port's deferred work must be able to run
 *       while the caller waits (a completion handed to it is never taken
 *       back, so the wait ends only when that work has run). A library
 *       without the interrupt path (::MMCHAL_WITH_IRQ 0) defers nothing: the
 *       request completes in this call.
 */
int mmchal_host_request_sync(struct mmchal_host *host, struct mmchal_request *req,
			     uint32_t timeout_ms);

/**
 * @brief Interrupt entry: let the backend read its status and advance the
 *        request. Call it from the platform's interrupt handler.
 * @param[in,out] host  live host
 * @return 1 when a request completed in this call (or was handed to deferred
 *         work), 0 otherwise, also when a failed DMA data phase was restarted by
 *         PIO (::mmchal_host_cfg::pio_retry): the request is running again
 * @retval MMCHAL_EINVAL  @p host NULL or not live
 * @retval MMCHAL_ENOTSUP the library has no interrupt path (::MMCHAL_WITH_IRQ
 *                        is 0): the backend is not asked for its status and
 *                        nothing changes; mmchal_host_poll() advances the request
 * @note Interrupt context (or any context for a polled host).
 */
int mmchal_host_irq(struct mmchal_host *host);

/**
 * @brief Poll: handle events as mmchal_host_irq() does, poll R1b busy when the
 *        controller cannot detect its end, and fire expired timeouts.
 * @param[in,out] host  live host
 * @return 1 when a request completed in this call, 0 otherwise (as for
 *         mmchal_host_irq(), a PIO retry is no completion)
 * @retval MMCHAL_EINVAL  @p host NULL or not live
 * @note Thread context; completion runs inline. Without the interrupt path
 *       (::MMCHAL_WITH_IRQ 0) this and mmchal_host_request_sync() are the
 *       only ways a request advances.
 */
int mmchal_host_poll(struct mmchal_host *host);

/**
 * @brief Abort the request in flight; it completes with ::MMCHAL_ECANCELED.
 * @param[in,out] host  live host
 * @retval 0               aborted (its completion ran in this call)
 * @retval MMCHAL_EINVAL   @p host NULL or not live
 * @retval MMCHAL_ENOENT   no request in flight
 * @retval MMCHAL_EBUSY    a request is being submitted (not started yet)
 * @retval MMCHAL_EALREADY the request is already completing
 * @note Thread context.
 */
int mmchal_host_abort(struct mmchal_host *host);

/**
 * @brief Limits for the current card type.
 * @param[in] host  live host
 * @return the limits, or NULL when @p host is NULL or not live
 * @note Any context; the limits change only in @c init_card.
 */
const struct mmchal_limits *mmchal_host_limits(const struct mmchal_host *host);

/**
 * @brief Copy the counters.
 * @param[in]  host  live host
 * @param[out] st    counters
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument or host not live
 * @retval MMCHAL_ENOTSUP the library keeps no counters (::MMCHAL_WITH_STATS is 0);
 *                        @p st is zeroed
 * @note Any context; takes the host lock. The IOVA and bounce usage figures
 *       are read from the domain and the pool only when no other context is
 *       mapping or releasing a request (see ::mmchal_host_stats::iova_pages).
 */
int mmchal_host_stats(struct mmchal_host *host, struct mmchal_host_stats *st);

/**
 * @brief Write the limits, with reasons, and the plan statistics, with the
 *        reasons of every plan taken, as text.
 *
 * @param[in]  host  live host
 * @param[out] buf   destination; always NUL-terminated when @p size > 0
 * @param[in]  size  bytes in @p buf (4 KiB is enough)
 * @return the length of the text (without NUL)
 * @retval MMCHAL_EINVAL  NULL argument, @p size 0, or host not live
 * @retval MMCHAL_ENOSPC  the text did not fit; @p buf holds the whole lines that fitted
 * @note Takes the host lock to copy the counters. A library without counters
 *       (::MMCHAL_WITH_STATS is 0) writes the limits and one line saying so.
 */
int mmchal_host_explain(struct mmchal_host *host, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_HOST_CORE_H */
