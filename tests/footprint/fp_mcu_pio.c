/*
 * mcu-pio: an MCU with PIO only: card layer + host core + SDHI common + the
 * SDHI PIO backend, no IOMMU, no bounce pool, no explanation text, polled.
 * The firmware identifies the card, reads and writes blocks.
 */
#include "fp.h"

int fp_main(void)
{
	/* Built for one SoC: the board keeps its entry (no table, no lookup). */
	static const struct mmchal_sdhi_soc soc = MMCHAL_SDHI_SOC_SHMOBILE;
	static struct mmchal_sdhi sdhi;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_backend be;
	struct mmchal_host_cfg hc = {0};
	int err;

	err = fp_sdhi_cfg(&cfg, &soc);
	if (!err)
		err = mmchal_sdhi_pio_init(&sdhi, &cfg, &be);
	if (err)
		return err;
	hc.backend = &be;
	return fp_card_io(&hc, true);
}
