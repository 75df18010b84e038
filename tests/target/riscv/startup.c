/*
 * RV64 startup for QEMU's virt board with -bios none: the ELF is entered in
 * M-mode at 0x80000000 on every hart. Console on the NS16550A UART at
 * 0x10000000, exit through the SiFive test device at 0x100000.
 *
 * Sources: QEMU hw/riscv/virt.c memory map; hw/misc/sifive_test.c (0x5555
 * pass, code << 16 | 0x3333 fail); NS16550A data sheet (THR offset 0, LSR
 * offset 5, THRE bit 5); RISC-V privileged spec (mtvec, mcause, mepc, mtval).
 */
#include <stddef.h>
#include <stdint.h>

#include "../platform.h"

#define UART_THR      ((volatile uint8_t *)0x10000000u)
#define UART_LSR      ((volatile uint8_t *)0x10000005u)
#define UART_LSR_THRE 0x20u
#define TEST_DEVICE   ((volatile uint32_t *)0x100000u)
#define TEST_PASS     0x5555u
#define TEST_FAIL     0x3333u

/*
 * Only hart 0 runs; others park. gp must be loaded without relaxation (the
 * linker would otherwise relax the load against gp itself). The trap handler
 * gets its own stack so a blown main stack is still reported. The CSR
 * instructions need Zicsr, which current assemblers no longer imply by "i";
 * it is enabled here only, because adding "_zicsr" to -march would select
 * another multilib.
 */
__asm__(".option push\n"
	".option arch, +zicsr\n"
	".section .mmt_entry,\"ax\",@progbits\n"
	".globl _start\n"
	"_start:\n"
	"	csrr t0, mhartid\n"
	"	bnez t0, 9f\n"
	".option push\n"
	".option norelax\n"
	"	la gp, __global_pointer$\n"
	".option pop\n"
	"	la sp, __stack_top\n"
	"	la t0, mmt_trap_entry\n"
	"	csrw mtvec, t0\n"
	"	la t0, __bss_start\n"
	"	la t1, __bss_end\n"
	"1:	bgeu t0, t1, 2f\n"
	"	sd zero, 0(t0)\n"
	"	addi t0, t0, 8\n"
	"	j 1b\n"
	"2:	call mmt_start\n"
	"9:	wfi\n"
	"	j 9b\n"
	"\n"
	".section .text.mmt_trap_entry,\"ax\",@progbits\n"
	".balign 4\n"
	"mmt_trap_entry:\n"
	"	la sp, __trap_stack_top\n"
	"	csrr a0, mcause\n"
	"	csrr a1, mepc\n"
	"	csrr a2, mtval\n"
	"	j mmt_trap\n"
	".option pop\n");

void mmt_putc(char c)
{
	while ((*UART_LSR & UART_LSR_THRE) == 0)
		;
	*UART_THR = (uint8_t)c;
}

void mmt_flush(void)
{
}

_Noreturn void mmt_exit(int code)
{
	uint32_t c = (uint32_t)code & 0xffu;

	*TEST_DEVICE = c == 0 ? TEST_PASS : (c << 16) | TEST_FAIL;
	for (;;)
		;
}

static void __attribute__((used)) mmt_start(void)
{
	mmt_exit(mmt_clamp_exit_(main()));
}

static void __attribute__((used)) mmt_trap(uint64_t mcause, uint64_t mepc, uint64_t mtval)
{
	mmt_printf("\n[  CRASH   ] trap: mcause=0x%llx mepc=0x%llx mtval=0x%llx\n",
		   (unsigned long long)mcause, (unsigned long long)mepc, (unsigned long long)mtval);
	mmt_exit(MMT_EXIT_CRASH);
}
