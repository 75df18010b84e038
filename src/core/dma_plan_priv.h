/**
 * @file
 * @brief Internal: the planner without its argument checks, for the host
 *        core, whose planner input is complete by construction and whose
 *        requests passed mmchal_request_check().
 */
#ifndef MMCHAL_CORE_DMA_PLAN_PRIV_H
#define MMCHAL_CORE_DMA_PLAN_PRIV_H

#include <mmchal/dma_plan.h>

/*
 * mmchal_dma_plan_sum() for a complete @p env (dma set, seg_table >= 1), a
 * data phase that passed mmchal_request_check() and its valid summary @p sum.
 */
int mmchal_dma_plan_checked_(const struct mmchal_plan_env *env, const struct mmchal_data *data,
			     const struct mmchal_sg_summary *sum, struct mmchal_plan_result *out);

/*
 * The planner's engine test (dma_plan.h step 5): the first reason the engine
 * cannot take the caller's segments as they are, and its entry in @p index;
 * MMCHAL_PR_COUNT when it can.
 */
enum mmchal_plan_reason mmchal_dma_obstacle_(const struct mmchal_plan_env *env,
					     const struct mmchal_dma_dir_caps *c,
					     const struct mmchal_data *d, bool iommu,
					     uint32_t *index);

/*
 * mmchal_dma_plan_fallback() without its argument checks, for the host core:
 * @p env is the host's own (dma set, cache_line 0 or the port's power of two)
 * and @p data passed mmchal_request_check() (direction known, a list of at
 * least one entry), so every check of the public function passes.
 */
int mmchal_dma_fallback_(const struct mmchal_plan_env *env, const struct mmchal_data *data,
			 enum mmchal_plan_reason why, struct mmchal_plan_result *out);

#endif /* MMCHAL_CORE_DMA_PLAN_PRIV_H */
