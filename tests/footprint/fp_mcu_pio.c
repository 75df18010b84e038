/*
 * mcu-pio: an MCU with PIO only: card layer + host core + SDHI common + PIO,
 * no IOMMU, no bounce pool, no explanation text, polled.
 */
#include "fp.h"

int fp_main(void)
{
	struct mmchal_limits lim;
	struct mmchal_caps caps = {0};
	struct mmchal_port_caps pc = {0};

	fp_port();
	/* The host core derives the limits from the backend's capabilities. */
	caps.host.blk_count_bits = (uint8_t)fp_in;
	fp_out = mmchal_limits_derive(&caps, &pc, NULL, (enum mmchal_card_type)fp_in, &lim);
	fp_out = (intptr_t)lim.max_req_size;
	/* When the host core, the SDHI PIO backend and the card layer land:
	 * mmchal_host_init() with the PIO backend, card initialisation and one
	 * block read and write here (FP_HAVE_HOST_CORE, FP_HAVE_SDHI,
	 * FP_HAVE_CARD). */
	return 0;
}
