/**
 * @file
 * @brief The SDHI PIO backend: every data phase through the data port.
 *
 * @note See sdhi_common.c for the calling contexts of the ops.
 */
#include "sdhi_priv.h"

static const struct mmchal_backend_ops sdhi_pio_ops = SDHI_BACKEND_OPS_("sdhi-pio");

int mmchal_sdhi_pio_init(struct mmchal_sdhi *sdhi, const struct mmchal_sdhi_cfg *cfg,
			 struct mmchal_backend *out)
{
	return mmchal_sdhi_setup_(sdhi, cfg, MMCHAL_SDHI_PIO, NULL, &sdhi_pio_ops, out);
}
