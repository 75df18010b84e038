/*
 * boot-emmc-ro: an eMMC-only, read-only boot loader (internal DMAC, polled):
 * the eMMC boot reader (sdhi_boot.h) identifies the eMMC and reads the next
 * stage. Built with MMCHAL_EMMC_RO; nothing but the boot reader, the bus
 * accessor and the port check is linked.
 */
#include "fp.h"

static uint8_t fp_scratch[MMCHAL_EMMC_BOOT_SCRATCH] __attribute__((aligned(128)));
static uint8_t fp_stage[4 * MMCHAL_CARD_BLKSZ] __attribute__((aligned(128)));

int fp_main(void)
{
	/* Built for one SoC: the board keeps its entry (no table, no lookup). */
	static const struct mmchal_sdhi_soc soc = MMCHAL_SDHI_SOC_RCAR_GEN3;
	static struct mmchal_emmc_boot eb;
	struct mmchal_sdhi_cfg cfg;
	int err;

	err = fp_sdhi_cfg(&cfg, &soc);
	if (!err)
		err = mmchal_emmc_boot_init(&eb, &cfg, fp_scratch,
					    (mmchal_dma_addr_t)(uintptr_t)fp_scratch);
	if (!err)
		err = mmchal_emmc_boot_read(&eb, fp_in, sizeof(fp_stage) / MMCHAL_CARD_BLKSZ,
					    fp_stage, (mmchal_dma_addr_t)(uintptr_t)fp_stage);
	return err;
}
