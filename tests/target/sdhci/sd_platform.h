/*
 * What a QEMU board gives the SD test: where its SDHCI registers are, the
 * base clock when the capabilities register leaves it out, a clock, and
 * whether RAM above 4 GiB exists. DMA addresses are CPU addresses on both
 * boards (no IOMMU; QEMU models no caches).
 */
#ifndef SD_PLATFORM_H
#define SD_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

struct sd_platform {
	const char *name;        /* "rv64-virt-pci", "zynq-a9" */
	volatile void *regs;     /* SDHCI register window */
	uint32_t base_clock_hz;  /* for a capabilities register without one; 0 = none */
	uintptr_t high_mem;      /* a free RAM window above 4 GiB, or 0 */
	uintptr_t below_4g_edge; /* free RAM just below 4 GiB (for a segment across it), or 0 */
	bool has_irq;            /* sd_platform_irq_start() works */
};

/* Find and enable the controller; 0 or -1 (printed why). */
int sd_platform_init(struct sd_platform *p);

/* Monotonic time, ns. */
uint64_t sd_platform_now_ns(void);

/*
 * The controller's interrupt line: sd_platform_irq_start() routes it to @fn
 * (called in interrupt context) and enables interrupts; 0, or -1 when the
 * board glue has no interrupt support. sd_platform_irq_stop() undoes it.
 * The lock pair masks and restores the CPU's interrupts (a host lock on one CPU).
 */
int sd_platform_irq_start(void (*fn)(void));
void sd_platform_irq_stop(void);
uintptr_t sd_platform_irq_save(void);
void sd_platform_irq_restore(uintptr_t flags);

#endif /* SD_PLATFORM_H */
