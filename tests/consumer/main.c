/*
 * A minimal program using an installed (or embedded) mmchal: public headers,
 * the generated config.h, and two library functions. tests/consumer/run.sh
 * checks what it prints.
 */
#include <stdio.h>

#include <mmchal/mmchal.h>

int main(void)
{
	/* A PIO-only host with 16-bit block counter and a port that can lock and defer. */
	const struct mmchal_caps caps = {
		.host = {.completion = MMCHAL_COMPLETES_IN_IRQ},
		.dma = {.kind = MMCHAL_DMA_NONE},
	};
	const struct mmchal_port_caps port = {.lock = true, .deferred_work = true};
	struct mmchal_limits lim;
	int bad = mmchal_limits_derive(NULL, &port, NULL, MMCHAL_CARD_SD, &lim);
	int ok = mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &lim);

	printf("mmchal %s libfdt=%d\n", MMCHAL_VERSION_STRING, MMCHAL_HAVE_LIBFDT);
	printf("einval: %s\n", mmchal_strerror(MMCHAL_EINVAL));
	printf("derive(NULL): %s\n", mmchal_strerror(bad));
	printf("derive(pio): %d max_blk_size=%u max_blk_count=%u\n", ok,
	       (unsigned int)lim.max_blk_size, (unsigned int)lim.max_blk_count);
	return bad == MMCHAL_EINVAL && ok == 0 ? 0 : 1;
}
