/*
 * QEMU xilinx-zynq-a9: SD0 is an SDHCI v2.00 at 0xe0100000 with capabilities
 * 0x69ec0080, whose base clock field is 0 (Zynq-7000 TRM UG585, SD/SDIO
 * registers: the clock comes from SDIO_REF_CLK, set by the boot code). The
 * test configures the 50 MHz such boards commonly run it at.
 *
 * The clock is a call counter: every reading is 1 us later than the last.
 * QEMU completes each SD command inside the register write, so the counter
 * only bounds the polling loops.
 */
#include <stddef.h>
#include <stdint.h>

#include "target/platform.h"
#include "sd_platform.h"

#define ZYNQ_SD0 0xe0100000ul

static uint64_t ticks;

uint64_t sd_platform_now_ns(void)
{
	ticks += 1000u;
	return ticks;
}

int sd_platform_init(struct sd_platform *p)
{
	p->name = "zynq-a9";
	p->regs = (volatile void *)ZYNQ_SD0;
	p->base_clock_hz = 50000000u;
	p->high_mem = 0;
	p->below_4g_edge = 0;
	p->has_irq = false;
	return 0;
}

/* Interrupts are not wired up on this board glue: the tests poll. */
int sd_platform_irq_start(void (*fn)(void))
{
	(void)fn;
	return -1;
}

void sd_platform_irq_stop(void)
{
}

uintptr_t sd_platform_irq_save(void)
{
	return 0;
}

void sd_platform_irq_restore(uintptr_t flags)
{
	(void)flags;
}
