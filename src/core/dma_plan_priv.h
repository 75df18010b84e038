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

#endif /* MMCHAL_CORE_DMA_PLAN_PRIV_H */
