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
#if MMCHAL_HAVE_LIBFDT && (MMCHAL_WITH_BACKEND_SDHI_IDMAC || MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || \
			   MMCHAL_WITH_BACKEND_PIO)
#include <mmchal/dt.h>
#endif
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
#if MMCHAL_WITH_BACKEND_SDHCI
#include <mmchal/sdhci.h>
#endif
#if MMCHAL_WITH_BACKEND_SDHI_IDMAC || MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || MMCHAL_WITH_BACKEND_PIO
#include <mmchal/sdhi.h>
#include <mmchal/sdhi_boot.h>
#include <mmchal/sdhi_socs.h>
#endif
#include <mmchal/types.h>

#endif /* MMCHAL_MMCHAL_H */
