/*
 * Cortex-A9 startup for QEMU's xilinx-zynq-a9 board: entry in ARM state
 * (SVC mode, MMU and caches off, as QEMU starts a bare ELF), exception vectors
 * through VBAR, console and exit through Arm semihosting.
 *
 * Sources: ARMv7-A/R Architecture Reference Manual (VBAR B4.1.156, MPIDR
 * B4.1.106, DFSR/DFAR/IFSR/IFAR B4.1.52-B4.1.96, exception vector offsets
 * B1.8.1); Arm "Semihosting for AArch32 and AArch64" (SVC 0x123456 in ARM
 * state, SYS_WRITE0 0x04, SYS_EXIT_EXTENDED 0x20, ADP_Stopped_ApplicationExit
 * 0x20026).
 */
#include <stddef.h>
#include <stdint.h>

#include "../platform.h"

#define SYS_WRITE0                  0x04u
#define SYS_EXIT_EXTENDED           0x20u
#define ADP_STOPPED_APPLICATIONEXIT 0x20026u

/*
 * Only CPU 0 runs; any other parks. Each vector loads the trap stack (the
 * banked stack pointers of the exception modes are never set up), passes its
 * number and the return address to mmt_a9_trap, which reports and exits.
 */
__asm__(".syntax unified\n"
	".arm\n"
	".section .mmt_entry,\"ax\",%progbits\n"
	".globl mmt_a9_entry\n"
	"mmt_a9_entry:\n"
	"	mrc p15, 0, r0, c0, c0, 5\n"
	"	ands r0, r0, #0xff\n"
	"	bne mmt_a9_park\n"
	"	ldr sp, =__stack_top\n"
	"	ldr r0, =mmt_a9_vectors\n"
	"	mcr p15, 0, r0, c12, c0, 0\n"
	"	isb\n"
	"	ldr r0, =__bss_start\n"
	"	ldr r1, =__bss_end\n"
	"	mov r2, #0\n"
	"1:	cmp r0, r1\n"
	"	strlo r2, [r0], #4\n"
	"	blo 1b\n"
	"	bl mmt_a9_start\n"
	"mmt_a9_park:\n"
	"	wfi\n"
	"	b mmt_a9_park\n"
	"	.ltorg\n"
	"\n"
	".section .text.mmt_a9_vectors,\"ax\",%progbits\n"
	".balign 32\n"
	"mmt_a9_vectors:\n"
	"	b mmt_a9_park\n"
	"	b 11f\n"
	"	b 12f\n"
	"	b 13f\n"
	"	b 14f\n"
	"	b mmt_a9_park\n"
	"	b 16f\n"
	"	b 17f\n"
	"11:	mov r0, #1\n"
	"	b 20f\n"
	"12:	mov r0, #2\n"
	"	b 20f\n"
	"13:	mov r0, #3\n"
	"	b 20f\n"
	"14:	mov r0, #4\n"
	"	b 20f\n"
	"16:	mov r0, #6\n"
	"	b 20f\n"
	"17:	mov r0, #7\n"
	"20:	ldr sp, =__trap_stack_top\n"
	"	mov r1, lr\n"
	"	b mmt_a9_trap\n"
	"	.ltorg\n");

static uintptr_t semihost(uintptr_t op, uintptr_t arg)
{
	register uintptr_t r0 __asm__("r0") = op;
	register uintptr_t r1 __asm__("r1") = arg;

	__asm__ volatile("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

/* One trap per line instead of per character keeps a long test log fast. */
static char line[160];
static size_t line_len;

void mmt_flush(void)
{
	if (line_len == 0)
		return;
	line[line_len] = '\0';
	semihost(SYS_WRITE0, (uintptr_t)line);
	line_len = 0;
}

void mmt_putc(char c)
{
	line[line_len++] = c;
	if (c == '\n' || line_len == sizeof(line) - 1)
		mmt_flush();
}

_Noreturn void mmt_exit(int code)
{
	static uint32_t block[2];

	mmt_flush();
	block[0] = ADP_STOPPED_APPLICATIONEXIT;
	block[1] = (uint32_t)code & 0xffu;
	semihost(SYS_EXIT_EXTENDED, (uintptr_t)block);
	for (;;)
		;
}

void __attribute__((used)) mmt_a9_start(void);
void __attribute__((used)) mmt_a9_start(void)
{
	mmt_exit(mmt_clamp_exit_(main()));
}

void __attribute__((used)) mmt_a9_trap(uint32_t vector, uint32_t lr);
void __attribute__((used)) mmt_a9_trap(uint32_t vector, uint32_t lr)
{
	static const char *const names[8] = {"reset",      "undefined instruction",
					     "svc",        "prefetch abort",
					     "data abort", "reserved",
					     "irq",        "fiq"};
	uint32_t dfsr, dfar, ifsr, ifar;

	__asm__ volatile("mrc p15, 0, %0, c5, c0, 0" : "=r"(dfsr));
	__asm__ volatile("mrc p15, 0, %0, c6, c0, 0" : "=r"(dfar));
	__asm__ volatile("mrc p15, 0, %0, c5, c0, 1" : "=r"(ifsr));
	__asm__ volatile("mrc p15, 0, %0, c6, c0, 2" : "=r"(ifar));
	mmt_putc('\n');
	mmt_printf("[  CRASH   ] exception %u (%s): lr=0x%08x dfsr=0x%08x dfar=0x%08x "
		   "ifsr=0x%08x ifar=0x%08x\n",
		   (unsigned int)vector, names[vector & 7u], (unsigned int)lr, (unsigned int)dfsr,
		   (unsigned int)dfar, (unsigned int)ifsr, (unsigned int)ifar);
	mmt_exit(MMT_EXIT_CRASH);
}
