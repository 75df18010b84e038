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
	p->has_irq = true;
	return 0;
}

/*
 * The SD0 interrupt is GIC ID 56 (Zynq-7000 TRM UG585, table 7-4), level
 * sensitive, routed to CPU 0. While the test takes interrupts, VBAR points at
 * a table of its own whose IRQ entry saves the interrupted state on the SVC
 * stack (SRS/RFE) and calls sd_a9_irq(); every other exception is reported as
 * a crash. Sources: ARM Generic Interrupt Controller Architecture v1.0
 * (ICDDCR 0x000, ICDISER 0x100, ICDIPR 0x400, ICDIPTR 0x800; ICCICR 0x00,
 * ICCPMR 0x04, ICCIAR 0x0c, ICCEOIR 0x10), Cortex-A9 MPCore TRM (GIC at
 * PERIPHBASE + 0x1000 and + 0x100; PERIPHBASE 0xf8f00000 on Zynq-7000),
 * ARMv7-A ARM (SRS, RFE, CPS; CPSR.I bit 7).
 */
#define GICD    0xf8f01000ul
#define GICC    0xf8f00100ul
#define SD0_IRQ 56u
#define CPSR_I  0x80u

static void (*irq_fn)(void);
static uint32_t old_vbar;

__asm__(".syntax unified\n"
	".arm\n"
	".section .text.sd_a9_vectors,\"ax\",%progbits\n"
	".balign 32\n"
	"sd_a9_vectors:\n"
	"	b sd_a9_bad\n"
	"	b sd_a9_bad\n"
	"	b sd_a9_bad\n"
	"	b sd_a9_bad\n"
	"	b sd_a9_bad\n"
	"	b sd_a9_bad\n"
	"	b sd_a9_irq_entry\n"
	"	b sd_a9_bad\n"
	"sd_a9_irq_entry:\n"
	"	sub lr, lr, #4\n"
	"	srsdb sp!, #0x13\n"
	"	cps #0x13\n"
	"	push {r0-r3, r12, lr}\n"
	"	and r1, sp, #4\n"
	"	sub sp, sp, r1\n"
	"	push {r1, r2}\n"
	"	bl sd_a9_irq\n"
	"	pop {r1, r2}\n"
	"	add sp, sp, r1\n"
	"	pop {r0-r3, r12, lr}\n"
	"	rfeia sp!\n"
	"sd_a9_bad:\n"
	"	ldr sp, =__trap_stack_top\n"
	"	mov r0, lr\n"
	"	b sd_a9_crash\n"
	"	.ltorg\n");

extern const uint32_t sd_a9_vectors[];

static volatile uint32_t *reg32(uintptr_t a)
{
	return (volatile uint32_t *)a;
}

static volatile uint8_t *reg8(uintptr_t a)
{
	return (volatile uint8_t *)a;
}

void __attribute__((used)) sd_a9_crash(uint32_t lr);
void __attribute__((used)) sd_a9_crash(uint32_t lr)
{
	mmt_printf("\n[  CRASH   ] exception while taking interrupts: lr=0x%08x\n",
		   (unsigned int)lr);
	mmt_exit(MMT_EXIT_CRASH);
}

void __attribute__((used)) sd_a9_irq(void);
void __attribute__((used)) sd_a9_irq(void)
{
	uint32_t iar = *reg32(GICC + 0x0cu);
	uint32_t id = iar & 0x3ffu;

	if (id == 1023u)
		return; /* spurious: no end of interrupt */
	if (id == SD0_IRQ && irq_fn)
		irq_fn();
	*reg32(GICC + 0x10u) = iar;
}

uintptr_t sd_platform_irq_save(void)
{
	uint32_t cpsr;

	__asm__ volatile("mrs %0, cpsr\n\tcpsid i" : "=r"(cpsr)::"memory");
	return cpsr & CPSR_I;
}

void sd_platform_irq_restore(uintptr_t flags)
{
	if (!(flags & CPSR_I))
		__asm__ volatile("cpsie i" ::: "memory");
}

int sd_platform_irq_start(void (*fn)(void))
{
	irq_fn = fn;
	__asm__ volatile("mrc p15, 0, %0, c12, c0, 0" : "=r"(old_vbar));
	__asm__ volatile("mcr p15, 0, %0, c12, c0, 0\n\tisb" ::"r"(sd_a9_vectors) : "memory");
	*reg8(GICD + 0x400u + SD0_IRQ) = 0xa0; /* priority */
	*reg8(GICD + 0x800u + SD0_IRQ) = 0x01; /* CPU 0 */
	*reg32(GICD + 0x100u + 4u * (SD0_IRQ / 32u)) = 1u << (SD0_IRQ % 32u);
	*reg32(GICD) = 1;            /* distributor on */
	*reg32(GICC + 0x04u) = 0xf0; /* priority mask */
	*reg32(GICC) = 1;            /* CPU interface on */
	__asm__ volatile("cpsie i" ::: "memory");
	return 0;
}

void sd_platform_irq_stop(void)
{
	__asm__ volatile("cpsid i" ::: "memory");
	*reg32(GICD + 0x180u + 4u * (SD0_IRQ / 32u)) = 1u << (SD0_IRQ % 32u); /* clear-enable */
	__asm__ volatile("mcr p15, 0, %0, c12, c0, 0\n\tisb" ::"r"(old_vbar) : "memory");
	irq_fn = NULL;
}
