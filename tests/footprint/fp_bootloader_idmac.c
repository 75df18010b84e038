/*
 * bootloader-idmac: a boot loader: card layer + host core + SDHI internal
 * DMAC, polled, no IOMMU, no bounce pool, no explanation text.
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
	fp_out = mmchal_limits_derive(&caps, &pc, NULL, (enum mmchal_card_type)fp_in, &lim);
	fp_out = (intptr_t)lim.max_req_size;
	/* When they land: mmchal_host_init() with the SDHI internal-DMAC
	 * backend, card initialisation and block reads (FP_HAVE_HOST_CORE,
	 * FP_HAVE_SDHI, FP_HAVE_CARD). */
	return 0;
}
