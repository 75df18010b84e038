/**
 * @file
 * @brief The host operations an MMC stack expects.
 *
 * ::mmchal_host_ops is the table an MMC stack (a kernel's, a boot loader's,
 * mmchal's own card layer) drives a host through. Its shape mirrors the
 * operations of common MMC stacks, so an adapter to one of them is a table of
 * one-line forwarding functions.
 *
 * Required ops: @c request and @c set_ios. The others may be NULL; the inline
 * wrappers then return ::MMCHAL_ENOTSUP.
 *
 * @note The calling context of each op is documented by the implementation;
 *       the wrappers add no locking.
 */
#ifndef MMCHAL_HOST_H
#define MMCHAL_HOST_H

#include <mmchal/caps.h>
#include <mmchal/error.h>
#include <mmchal/limits.h>
#include <mmchal/request.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Host operations; @c ctx is the host object. */
struct mmchal_host_ops {
	/** the card type is known: re-derive limits (e.g. the merge raise) */
	int (*init_card)(void *ctx, enum mmchal_card_type type);
	/** start @p req; completion is reported through req->done exactly once */
	int (*request)(void *ctx, struct mmchal_request *req);
	/** 1 while the card holds DAT0 low, 0 when idle */
	int (*card_busy)(void *ctx);
	/** apply bus settings */
	int (*set_ios)(void *ctx, const struct mmchal_ios *ios);
	/** 1 card present, 0 absent */
	int (*get_cd)(void *ctx);
	/** 1 write-protected, 0 writable */
	int (*get_ro)(void *ctx);
	/** pulse the card's hardware reset */
	int (*hw_reset)(void *ctx);
	/** tune the sampling point with @p opcode (CMD19 SD, CMD21 eMMC) */
	int (*execute_tuning)(void *ctx, uint32_t opcode);
	/** enable (true) or disable (false) the SDIO card interrupt */
	int (*enable_sdio_irq)(void *ctx, bool enable);
	/** start @p req and wait for its completion (polling the host as needed) for at
	    most @p timeout_ms; returns the request's first error, 0 on success. The
	    request's @c done callback, if any, is still called exactly once. */
	int (*request_sync)(void *ctx, struct mmchal_request *req, uint32_t timeout_ms);
	/** copy the host's declared capabilities (bus widths, timings, clocks) */
	int (*get_caps)(void *ctx, struct mmchal_host_caps *caps);
	/** copy the limits derived for the current card type */
	int (*get_limits)(void *ctx, struct mmchal_limits *limits);
};

/**
 * @brief Check a host ops table: @c request and @c set_ios present.
 * @param[in] ops  table to check
 * @retval 0              usable
 * @retval MMCHAL_EINVAL  NULL or a required op missing
 * @note Any context.
 */
int mmchal_host_ops_check(const struct mmchal_host_ops *ops);

/**
 * @brief Call @c init_card, or report it missing.
 * @param[in] ops   checked table
 * @param[in] ctx   host object
 * @param[in] type  identified card type
 * @return 0 or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  no @c init_card op
 */
static inline int mmchal_host_init_card(const struct mmchal_host_ops *ops, void *ctx,
					enum mmchal_card_type type)
{
	return ops->init_card ? ops->init_card(ctx, type) : MMCHAL_ENOTSUP;
}

/**
 * @brief Call @c card_busy, or report it missing.
 * @param[in] ops  checked table
 * @param[in] ctx  host object
 * @return 1 busy, 0 idle, or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  no @c card_busy op
 */
static inline int mmchal_host_card_busy(const struct mmchal_host_ops *ops, void *ctx)
{
	return ops->card_busy ? ops->card_busy(ctx) : MMCHAL_ENOTSUP;
}

/**
 * @brief Call @c get_cd, or report it missing.
 * @param[in] ops  checked table
 * @param[in] ctx  host object
 * @return 1 present, 0 absent, or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  no @c get_cd op
 */
static inline int mmchal_host_get_cd(const struct mmchal_host_ops *ops, void *ctx)
{
	return ops->get_cd ? ops->get_cd(ctx) : MMCHAL_ENOTSUP;
}

/**
 * @brief Call @c get_ro, or report it missing.
 * @param[in] ops  checked table
 * @param[in] ctx  host object
 * @return 1 read-only, 0 writable, or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  no @c get_ro op
 */
static inline int mmchal_host_get_ro(const struct mmchal_host_ops *ops, void *ctx)
{
	return ops->get_ro ? ops->get_ro(ctx) : MMCHAL_ENOTSUP;
}

/**
 * @brief Call @c hw_reset, or report it missing.
 * @param[in] ops  checked table
 * @param[in] ctx  host object
 * @return 0 or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  no @c hw_reset op
 */
static inline int mmchal_host_hw_reset(const struct mmchal_host_ops *ops, void *ctx)
{
	return ops->hw_reset ? ops->hw_reset(ctx) : MMCHAL_ENOTSUP;
}

/**
 * @brief Call @c execute_tuning, or report it missing.
 * @param[in] ops     checked table
 * @param[in] ctx     host object
 * @param[in] opcode  19 (SD) or 21 (eMMC)
 * @return 0 or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  no @c execute_tuning op
 */
static inline int mmchal_host_execute_tuning(const struct mmchal_host_ops *ops, void *ctx,
					     uint32_t opcode)
{
	return ops->execute_tuning ? ops->execute_tuning(ctx, opcode) : MMCHAL_ENOTSUP;
}

/**
 * @brief Call @c enable_sdio_irq, or report it missing.
 * @param[in] ops     checked table
 * @param[in] ctx     host object
 * @param[in] enable  true to enable, false to disable
 * @return 0 or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  no @c enable_sdio_irq op
 */
static inline int mmchal_host_enable_sdio_irq(const struct mmchal_host_ops *ops, void *ctx,
					      bool enable)
{
	return ops->enable_sdio_irq ? ops->enable_sdio_irq(ctx, enable) : MMCHAL_ENOTSUP;
}

/**
 * @brief Call @c request_sync, or report it missing.
 * @param[in]     ops         checked table
 * @param[in]     ctx         host object
 * @param[in,out] req         request to run
 * @param[in]     timeout_ms  longest wait, ms
 * @return 0 or the request's first negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  no @c request_sync op
 */
static inline int mmchal_host_request_sync_op(const struct mmchal_host_ops *ops, void *ctx,
					      struct mmchal_request *req, uint32_t timeout_ms)
{
	return ops->request_sync ? ops->request_sync(ctx, req, timeout_ms) : MMCHAL_ENOTSUP;
}

/**
 * @brief Call @c get_caps, or report it missing.
 * @param[in]  ops   checked table
 * @param[in]  ctx   host object
 * @param[out] caps  declared capabilities
 * @return 0 or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  no @c get_caps op
 */
static inline int mmchal_host_get_caps_op(const struct mmchal_host_ops *ops, void *ctx,
					  struct mmchal_host_caps *caps)
{
	return ops->get_caps ? ops->get_caps(ctx, caps) : MMCHAL_ENOTSUP;
}

/**
 * @brief Call @c get_limits, or report it missing.
 * @param[in]  ops     checked table
 * @param[in]  ctx     host object
 * @param[out] limits  limits for the current card type
 * @return 0 or a negative ::mmchal_err
 * @retval MMCHAL_ENOTSUP  no @c get_limits op
 */
static inline int mmchal_host_get_limits_op(const struct mmchal_host_ops *ops, void *ctx,
					    struct mmchal_limits *limits)
{
	return ops->get_limits ? ops->get_limits(ctx, limits) : MMCHAL_ENOTSUP;
}

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_HOST_H */
