/*
 * boot-emmc-ro: an eMMC-only, read-only boot loader (internal DMAC, polled),
 * built with the library's eMMC-only read-only option once it exists.
 */
#include "fp.h"

int fp_main(void)
{
	struct mmchal_limits lim;
	struct mmchal_caps caps = {0};
	struct mmchal_port_caps pc = {0};

	fp_port();
	caps.dma.kind = MMCHAL_DMA_INTERNAL;
	caps.dma.dir[0].max_segs = FP_U32();
	caps.dma.dir[0].max_seg_size = FP_U32();
	caps.dma.dir[1] = caps.dma.dir[0];
	caps.host.completion = MMCHAL_COMPLETES_POLLED;
	fp_out = mmchal_limits_derive(&caps, &pc, NULL, MMCHAL_CARD_MMC, &lim);
	fp_out = (intptr_t)lim.max_req_size;
	/* When they land: host core + SDHI internal DMAC + eMMC read path only
	 * (FP_HAVE_HOST_CORE, FP_HAVE_SDHI, FP_HAVE_CARD, FP_HAVE_EMMC_RO). */
	return 0;
}
