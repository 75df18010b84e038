/**
 * @file
 * @brief The backend interface: what a controller driver (SDHI with internal
 *        DMAC, SDHI with SYS-DMAC, PIO, mock) offers the core.
 *
 * A backend programs registers and reports events; it never decides a limit,
 * never maps memory and never takes the host lock. The core validates a
 * request, plans its data path (::mmchal_plan), maps or bounces the buffers,
 * and hands the backend a ::mmchal_xfer with device addresses ready to use.
 *
 * Required ops: @c probe, @c get_caps, @c set_ios, @c start, @c handle_irq,
 * @c abort. The others may be NULL; their wrappers then return
 * ::MMCHAL_ENOTSUP.
 *
 * @note Backend ops run with the host lock held by the caller (the core),
 *       except @c probe, which runs before the host is live.
 */
#ifndef MMCHAL_BACKEND_H
#define MMCHAL_BACKEND_H

#include <mmchal/caps.h>
#include <mmchal/error.h>
#include <mmchal/request.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief How the data of one request travels. */
enum mmchal_plan {
	MMCHAL_PLAN_PIO = 0,      /**< the CPU moves the data through the data port */
	MMCHAL_PLAN_DIRECT,       /**< the engine takes the caller's segments as they are */
	MMCHAL_PLAN_IOMMU_MERGED, /**< the IOMMU maps the list to one device address */
	MMCHAL_PLAN_BOUNCED,      /**< the data goes through one contiguous bounce region */
};

/** @brief Number of ::mmchal_plan values. */
#define MMCHAL_PLAN_COUNT 4

/** @brief What the core hands a backend to start. */
struct mmchal_xfer {
	struct mmchal_cmd *cmd;   /**< command to issue */
	struct mmchal_data *data; /**< data phase, or NULL */
	/** let the controller send CMD12 after the data (set only on a host with
	    ::MMCHAL_BUS_AUTO_CMD12, for an open-ended multiple-block transfer with a STOP
	    and no SET_BLOCK_COUNT); when the data phase ends without an error the
	    backend stores the automatic CMD12's response in @c stop->resp, or its
	    failure in @c stop->error, before it reports ::MMCHAL_EV_DATA_DONE (on a
	    host with ::MMCHAL_BUS_HW_BUSY only after the end of CMD12's busy); after a
	    data error the core sends STOP itself */
	bool auto_stop;
	enum mmchal_plan plan;             /**< data path; PIO uses @c data->sg's CPU addresses */
	const struct mmchal_dma_seg *segs; /**< mapped segments for DMA plans, else NULL */
	uint32_t nsegs;                    /**< entries in @c segs */
	struct mmchal_cmd *stop;           /**< with @c auto_stop: the STOP the controller
						sends, for its response; else NULL */
};

/** @name Events reported by ::mmchal_backend_ops::handle_irq
 *  @{
 */
#define MMCHAL_EV_CMD_DONE (1u << 0) /**< the response of the current command arrived */
#define MMCHAL_EV_DATA_DONE \
	(1u << 1)                       /**< the data phase finished (all completion
					      conditions seen, e.g. both DMA end and access end) */
#define MMCHAL_EV_CMD_ERROR   (1u << 2) /**< the command failed; see cmd->error */
#define MMCHAL_EV_DATA_ERROR  (1u << 3) /**< the data phase failed; see data->error */
#define MMCHAL_EV_CARD_CHANGE (1u << 4) /**< card inserted or removed */
/** the SDIO card signalled its interrupt; reported once, after which the backend
    keeps the card interrupt disabled until @c enable_sdio_irq(true) (the card holds
    its interrupt until the cause is cleared, which takes bus commands) */
#define MMCHAL_EV_SDIO_IRQ    (1u << 5)
#define MMCHAL_EV_BUSY_DONE   (1u << 6) /**< DAT0 busy after an R1b command ended */
/** @} */

/** @brief Backend operations; @c ctx is the backend's own state. */
struct mmchal_backend_ops {
	const char *name; /**< short name, e.g. "sdhi-idmac" */
	/** reset the controller, read its version, mask and clear interrupts */
	int (*probe)(void *ctx);
	/** report host and DMA capabilities */
	int (*get_caps)(void *ctx, struct mmchal_host_caps *host, struct mmchal_dma_caps *dma);
	/** apply clock, bus width, timing, power and voltage; a value outside its enum
	    (or a bus width other than 1, 4 or 8) is refused with ::MMCHAL_EINVAL before
	    any register is written */
	int (*set_ios)(void *ctx, const struct mmchal_ios *ios);
	/** issue @p xfer's command and arm its data phase */
	int (*start)(void *ctx, const struct mmchal_xfer *xfer);
	/** read and acknowledge status, advance PIO, report MMCHAL_EV_* bits in @p events;
	    called from the interrupt handler or the poll loop */
	int (*handle_irq)(void *ctx, uint32_t *events);
	/** stop the data phase and the engine; leave the controller ready for a command */
	int (*abort)(void *ctx);
	/** 1 while the card holds DAT0 low, 0 when idle; optional */
	int (*card_busy)(void *ctx);
	/** 1 card present, 0 absent; optional */
	int (*get_cd)(void *ctx);
	/** 1 write-protected, 0 writable; optional */
	int (*get_ro)(void *ctx);
	/** pulse the card's hardware reset line; optional */
	int (*hw_reset)(void *ctx);
	/** run the sampling-point tuning procedure with @p opcode (CMD19/CMD21); optional */
	int (*execute_tuning)(void *ctx, uint32_t opcode);
	/** blocks of the current data phase known to have completed on the bus (after an
	    error or abort, for an honest bytes_xfered): sets @p *blocks and returns 0, or
	    returns a negative error and the core counts 0 whatever @p *blocks holds;
	    optional, absent means 0 */
	int (*blocks_done)(void *ctx, uint32_t *blocks);
	/** enable or disable the SDIO card interrupt; optional */
	int (*enable_sdio_irq)(void *ctx, bool enable);
};

/** @brief A backend instance. */
struct mmchal_backend {
	const struct mmchal_backend_ops *ops; /**< operations */
	void *ctx; /**< the backend's state, first argument of every op */
};

/**
 * @brief Check a backend: required ops present.
 * @param[in] be  backend to check
 * @retval 0              usable
 * @retval MMCHAL_EINVAL  NULL, no name, or a required op missing
 * @note Any context.
 */
int mmchal_backend_check(const struct mmchal_backend *be);

/**
 * @brief DAT0 busy state through an optional op.
 * @param[in] be  checked backend
 * @return 1 busy, 0 idle, or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  the backend has no @c card_busy
 */
static inline int mmchal_backend_card_busy(const struct mmchal_backend *be)
{
	return be->ops->card_busy ? be->ops->card_busy(be->ctx) : MMCHAL_ENOTSUP;
}

/**
 * @brief Card-detect state through an optional op.
 * @param[in] be  checked backend
 * @return 1 present, 0 absent, or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  the backend has no @c get_cd
 */
static inline int mmchal_backend_get_cd(const struct mmchal_backend *be)
{
	return be->ops->get_cd ? be->ops->get_cd(be->ctx) : MMCHAL_ENOTSUP;
}

/**
 * @brief Write-protect state through an optional op.
 * @param[in] be  checked backend
 * @return 1 read-only, 0 writable, or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  the backend has no @c get_ro
 */
static inline int mmchal_backend_get_ro(const struct mmchal_backend *be)
{
	return be->ops->get_ro ? be->ops->get_ro(be->ctx) : MMCHAL_ENOTSUP;
}

/**
 * @brief Hardware reset of the card through an optional op.
 * @param[in] be  checked backend
 * @return 0 or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  the backend has no @c hw_reset
 */
static inline int mmchal_backend_hw_reset(const struct mmchal_backend *be)
{
	return be->ops->hw_reset ? be->ops->hw_reset(be->ctx) : MMCHAL_ENOTSUP;
}

/**
 * @brief Tuning through an optional op.
 * @param[in] be      checked backend
 * @param[in] opcode  tuning command: 19 (SD) or 21 (eMMC)
 * @return 0 or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  the backend has no @c execute_tuning
 */
static inline int mmchal_backend_execute_tuning(const struct mmchal_backend *be, uint32_t opcode)
{
	return be->ops->execute_tuning ? be->ops->execute_tuning(be->ctx, opcode) : MMCHAL_ENOTSUP;
}

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_BACKEND_H */
