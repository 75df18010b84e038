/*
 * What a QEMU board gives the SD test: where its SDHCI registers are, the
 * base clock when the capabilities register leaves it out, a clock, and
 * whether RAM above 4 GiB exists. DMA addresses are CPU addresses on both
 * boards (no IOMMU; QEMU models no caches).
 */
#ifndef SD_PLATFORM_H
#define SD_PLATFORM_H

#include <stdint.h>

struct sd_platform {
	const char *name;        /* "rv64-virt-pci", "zynq-a9" */
	volatile void *regs;     /* SDHCI register window */
	uint32_t base_clock_hz;  /* for a capabilities register without one; 0 = none */
	uintptr_t high_mem;      /* a free RAM window above 4 GiB, or 0 */
	uintptr_t below_4g_edge; /* free RAM just below 4 GiB (for a segment across it), or 0 */
};

/* Find and enable the controller; 0 or -1 (printed why). */
int sd_platform_init(struct sd_platform *p);

/* Monotonic time, ns. */
uint64_t sd_platform_now_ns(void);

#endif /* SD_PLATFORM_H */
