/**
 * @file
 * @brief Umbrella header: includes every public mmchal header that the
 *        build configuration provides.
 */
#ifndef MMCHAL_MMCHAL_H
#define MMCHAL_MMCHAL_H

#include <mmchal/config.h>

#include <mmchal/backend.h>
#include <mmchal/bounce.h>
#include <mmchal/card.h>
#include <mmchal/caps.h>
#include <mmchal/dma_plan.h>
#include <mmchal/error.h>
#include <mmchal/host.h>
#include <mmchal/host_core.h>
#include <mmchal/iommu.h>
#include <mmchal/iova.h>
#include <mmchal/limits.h>
#if MMCHAL_WITH_BACKEND_MOCK
#include <mmchal/mock.h>
#endif
#include <mmchal/port.h>
#include <mmchal/request.h>
#include <mmchal/types.h>

#endif /* MMCHAL_MMCHAL_H */
