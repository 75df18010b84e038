/**
 * @file
 * @brief The SDHI PIO backend: every data phase through the data port.
 *
 * @note See sdhi_common.c for the calling contexts of the ops.
 */
#include "sdhi_priv.h"

static const struct mmchal_backend_ops sdhi_pio_ops = {
	.name = "sdhi-pio",
	.probe = mmchal_sdhi_probe_,
	.get_caps = mmchal_sdhi_get_caps_,
	.set_ios = mmchal_sdhi_set_ios_,
	.start = mmchal_sdhi_start_,
	.handle_irq = mmchal_sdhi_handle_irq_,
	.abort = mmchal_sdhi_abort_,
	.card_busy = mmchal_sdhi_card_busy_,
	.get_cd = mmchal_sdhi_get_cd_,
	.get_ro = mmchal_sdhi_get_ro_,
	.blocks_done = mmchal_sdhi_blocks_done_,
	.enable_sdio_irq = mmchal_sdhi_enable_sdio_irq_,
};

int mmchal_sdhi_pio_init(struct mmchal_sdhi *sdhi, const struct mmchal_sdhi_cfg *cfg,
			 struct mmchal_backend *out)
{
	return mmchal_sdhi_setup_(sdhi, cfg, MMCHAL_SDHI_PIO, NULL, &sdhi_pio_ops, out);
}
