/*
 * Cortex-M4 startup for QEMU's mps2-an386 board: vector table, reset handler,
 * fault reporting, and console/exit through Arm semihosting.
 *
 * Sources: ARMv7-M Architecture Reference Manual (CPACR B3.2.20, exception
 * frame B1.5.6, CFSR/HFSR B3.2.15-16); Arm "Semihosting for AArch32 and
 * AArch64" (SYS_WRITE0 0x04, SYS_EXIT_EXTENDED 0x20, ADP_Stopped_ApplicationExit
 * 0x20026, BKPT 0xAB on M-profile).
 */
#include <stddef.h>
#include <stdint.h>

#include "../platform.h"

#define SYS_WRITE0                  0x04u
#define SYS_EXIT_EXTENDED           0x20u
#define ADP_STOPPED_APPLICATIONEXIT 0x20026u

#define SCB_CFSR  (*(volatile uint32_t *)0xe000ed28u)
#define SCB_HFSR  (*(volatile uint32_t *)0xe000ed2cu)
#define SCB_MMFAR (*(volatile uint32_t *)0xe000ed34u)
#define SCB_BFAR  (*(volatile uint32_t *)0xe000ed38u)

/*
 * Written in assembly because the FPU must be enabled (CPACR CP10/CP11 full
 * access) before any compiled code runs: with -mfloat-abi=hard the compiler may
 * use FP registers anywhere, and an FP instruction with the FPU off faults.
 * Then .data is copied from its load address and .bss is zeroed.
 */
__asm__(".syntax unified\n"
	".thumb\n"
	".section .vectors,\"a\",%progbits\n"
	".p2align 2\n"
	".globl mmt_vectors\n"
	"mmt_vectors:\n"
	"	.word __stack_top\n"
	"	.word mmt_reset\n"
	/* NMI, HardFault, MemManage, BusFault, UsageFault */
	"	.rept 5\n"
	"	.word mmt_fault_entry\n"
	"	.endr\n"
	"	.word 0, 0, 0, 0\n"
	/* SVCall, DebugMonitor, reserved, PendSV, SysTick */
	"	.word mmt_fault_entry, mmt_fault_entry, 0, mmt_fault_entry, mmt_fault_entry\n"
	/* No interrupt is enabled; any that fires anyway is reported. */
	"	.rept 32\n"
	"	.word mmt_fault_entry\n"
	"	.endr\n"
	"\n"
	".section .text.mmt_reset,\"ax\",%progbits\n"
	".globl mmt_reset\n"
	".type mmt_reset, %function\n"
	".thumb_func\n"
	"mmt_reset:\n"
	"	ldr r0, =0xe000ed88\n"
	"	ldr r1, [r0]\n"
	"	orr r1, r1, #(0xf << 20)\n"
	"	str r1, [r0]\n"
	"	dsb\n"
	"	isb\n"
	"	ldr r0, =__stack_top\n"
	"	mov sp, r0\n"
	"	ldr r0, =__data_start\n"
	"	ldr r1, =__data_end\n"
	"	ldr r2, =__data_load\n"
	"1:	cmp r0, r1\n"
	"	bhs 2f\n"
	"	ldr r3, [r2], #4\n"
	"	str r3, [r0], #4\n"
	"	b 1b\n"
	"2:	ldr r0, =__bss_start\n"
	"	ldr r1, =__bss_end\n"
	"	movs r3, #0\n"
	"3:	cmp r0, r1\n"
	"	bhs 4f\n"
	"	str r3, [r0], #4\n"
	"	b 3b\n"
	"4:	bl mmt_start\n"
	"5:	b 5b\n"
	"	.ltorg\n"
	".size mmt_reset, . - mmt_reset\n"
	"\n"
	/* Hand the stacked exception frame (MSP or PSP, per EXC_RETURN bit 2) to C. */
	".section .text.mmt_fault_entry,\"ax\",%progbits\n"
	".globl mmt_fault_entry\n"
	".type mmt_fault_entry, %function\n"
	".thumb_func\n"
	"mmt_fault_entry:\n"
	"	tst lr, #4\n"
	"	ite eq\n"
	"	mrseq r0, msp\n"
	"	mrsne r0, psp\n"
	"	b mmt_fault\n"
	".size mmt_fault_entry, . - mmt_fault_entry\n");

static uintptr_t semihost(uintptr_t op, uintptr_t arg)
{
	register uintptr_t r0 __asm__("r0") = op;
	register uintptr_t r1 __asm__("r1") = arg;

	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
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

static void __attribute__((used)) mmt_start(void)
{
	mmt_exit(mmt_clamp_exit_(main()));
}

static void __attribute__((used)) mmt_fault(const uint32_t *frame)
{
	uint32_t ipsr;

	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	mmt_putc('\n');
	mmt_printf("[  CRASH   ] exception %u: pc=0x%08x lr=0x%08x cfsr=0x%08x hfsr=0x%08x "
		   "mmfar=0x%08x bfar=0x%08x\n",
		   (unsigned int)(ipsr & 0x1ffu), (unsigned int)frame[6], (unsigned int)frame[5],
		   (unsigned int)SCB_CFSR, (unsigned int)SCB_HFSR, (unsigned int)SCB_MMFAR,
		   (unsigned int)SCB_BFAR);
	mmt_exit(MMT_EXIT_CRASH);
}
