/*
 * boot-emmc-ro: an eMMC-only, read-only boot loader (internal DMAC, polled),
 * built with MMCHAL_EMMC_RO: it identifies the eMMC and reads the next
 * stage; SD, SDIO, writes and erase are compiled out of the library.
 */
#include "fp.h"

int fp_main(void)
{
	/* Built for one SoC: the board keeps its entry (no table, no lookup). */
	static const struct mmchal_sdhi_soc soc = MMCHAL_SDHI_SOC_RCAR_GEN3;
	static struct mmchal_sdhi sdhi;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_backend be;
	struct mmchal_host_cfg hc = {0};
	int err;

	err = fp_sdhi_cfg(&cfg, &soc);
	if (!err)
		err = mmchal_sdhi_idmac_init(&sdhi, &cfg, &be);
	if (err)
		return err;
	hc.backend = &be;
	return fp_card_io(&hc, false);
}
