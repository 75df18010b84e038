/*
 * QEMU riscv64 virt with -device sdhci-pci: the controller is PCI device
 * 1b36:0007 on bus 0. The guest finds it through ECAM at 0x30000000, puts BAR0
 * (256 bytes, 32-bit memory) at the start of the 32-bit PCI memory window
 * 0x40000000, and enables memory decoding and bus mastering (its DMA).
 * Time comes from the CLINT's mtime (10 MHz on virt). The interrupt (INTx)
 * reaches hart 0's M-mode context of the PLIC as one of the PCI sources 32-35
 * (QEMU swizzles by slot); the test takes machine external interrupts through
 * its own trap vector.
 *
 * Sources: QEMU hw/riscv/virt.c memory map; hw/sd/sdhci-pci.c (IDs, BAR0);
 * PCI Local Bus Specification 3.0, 6.1 (configuration header), PCI Express
 * Base Specification 7.2.2 (ECAM: bus << 20 | device << 15 | function << 12);
 * RISC-V PLIC Specification 1.0 (priority 4 * n, enables 0x2000, threshold
 * 0x200000, claim/complete 0x200004 for context 0); RISC-V privileged spec
 * (mstatus.MIE bit 3, mie.MEIE bit 11, mcause 0x8000000000000000 | 11).
 */
#include <stddef.h>
#include <stdint.h>

#include "target/platform.h"
#include "sd_platform.h"

#define ECAM_BASE      0x30000000ul
#define PCI_MMIO_BASE  0x40000000ul
#define CLINT_MTIME    0x0200bff8ul
#define SDHCI_PCI_ID   0x00071b36u /* device 0x0007, vendor 0x1b36 (Red Hat, QEMU) */
#define PCI_COMMAND    0x04u
#define PCI_BAR0       0x10u
#define PCI_CMD_MEM    (1u << 1)
#define PCI_CMD_MASTER (1u << 2)
#define PLIC_BASE      0x0c000000ul
#define PLIC_PCI_FIRST 32u
#define PLIC_PCI_COUNT 4u
#define PLIC_ENABLE1   (PLIC_BASE + 0x2000u + 4u) /* context 0, sources 32-63 */
#define PLIC_THRESHOLD (PLIC_BASE + 0x200000u)
#define PLIC_CLAIM     (PLIC_BASE + 0x200004u)
#define MCAUSE_MEXT    ((1ull << 63) | 11u)

static void (*irq_fn)(void);

/* Machine external interrupts only; anything else is reported as a crash. */
__asm__(".option push\n"
	".option arch, +zicsr\n"
	".section .text.sd_trap_entry,\"ax\",@progbits\n"
	".balign 4\n"
	"sd_trap_entry:\n"
	"	addi sp, sp, -128\n"
	"	sd ra, 0(sp)\n"
	"	sd t0, 8(sp)\n"
	"	sd t1, 16(sp)\n"
	"	sd t2, 24(sp)\n"
	"	sd a0, 32(sp)\n"
	"	sd a1, 40(sp)\n"
	"	sd a2, 48(sp)\n"
	"	sd a3, 56(sp)\n"
	"	sd a4, 64(sp)\n"
	"	sd a5, 72(sp)\n"
	"	sd a6, 80(sp)\n"
	"	sd a7, 88(sp)\n"
	"	sd t3, 96(sp)\n"
	"	sd t4, 104(sp)\n"
	"	sd t5, 112(sp)\n"
	"	sd t6, 120(sp)\n"
	"	csrr a0, mcause\n"
	"	csrr a1, mepc\n"
	"	call sd_trap\n"
	"	ld ra, 0(sp)\n"
	"	ld t0, 8(sp)\n"
	"	ld t1, 16(sp)\n"
	"	ld t2, 24(sp)\n"
	"	ld a0, 32(sp)\n"
	"	ld a1, 40(sp)\n"
	"	ld a2, 48(sp)\n"
	"	ld a3, 56(sp)\n"
	"	ld a4, 64(sp)\n"
	"	ld a5, 72(sp)\n"
	"	ld a6, 80(sp)\n"
	"	ld a7, 88(sp)\n"
	"	ld t3, 96(sp)\n"
	"	ld t4, 104(sp)\n"
	"	ld t5, 112(sp)\n"
	"	ld t6, 120(sp)\n"
	"	addi sp, sp, 128\n"
	"	mret\n"
	".option pop\n");

void sd_trap_entry(void);
void __attribute__((used)) sd_trap(uint64_t mcause, uint64_t mepc);
void __attribute__((used)) sd_trap(uint64_t mcause, uint64_t mepc)
{
	uint32_t src;

	if (mcause != MCAUSE_MEXT) {
		mmt_printf("\n[  CRASH   ] trap: mcause=0x%llx mepc=0x%llx\n",
			   (unsigned long long)mcause, (unsigned long long)mepc);
		mmt_exit(MMT_EXIT_CRASH);
	}
	while ((src = *(volatile uint32_t *)PLIC_CLAIM) != 0) {
		if (irq_fn && src >= PLIC_PCI_FIRST && src < PLIC_PCI_FIRST + PLIC_PCI_COUNT)
			irq_fn();
		*(volatile uint32_t *)PLIC_CLAIM = src;
	}
}

uintptr_t sd_platform_irq_save(void)
{
	uintptr_t old;

	__asm__ volatile(".option push\n.option arch, +zicsr\n"
			 "csrrci %0, mstatus, 8\n.option pop"
			 : "=r"(old)::"memory");
	return old & 8u;
}

void sd_platform_irq_restore(uintptr_t flags)
{
	if (flags & 8u)
		__asm__ volatile(".option push\n.option arch, +zicsr\n"
				 "csrsi mstatus, 8\n.option pop" ::
					 : "memory");
}

int sd_platform_irq_start(void (*fn)(void))
{
	uintptr_t vec = (uintptr_t)sd_trap_entry;
	uintptr_t meie = 1u << 11;

	irq_fn = fn;
	for (uint32_t i = 0; i < PLIC_PCI_COUNT; i++)
		*(volatile uint32_t *)(PLIC_BASE + 4u * (PLIC_PCI_FIRST + i)) = 1;
	*(volatile uint32_t *)PLIC_ENABLE1 = (1u << PLIC_PCI_COUNT) - 1u;
	*(volatile uint32_t *)PLIC_THRESHOLD = 0;
	__asm__ volatile(".option push\n.option arch, +zicsr\n"
			 "csrw mtvec, %0\ncsrs mie, %1\ncsrsi mstatus, 8\n.option pop" ::"r"(vec),
			 "r"(meie)
			 : "memory");
	return 0;
}

void sd_platform_irq_stop(void)
{
	uintptr_t meie = 1u << 11;

	__asm__ volatile(".option push\n.option arch, +zicsr\n"
			 "csrci mstatus, 8\ncsrc mie, %0\n.option pop" ::"r"(meie)
			 : "memory");
	*(volatile uint32_t *)PLIC_ENABLE1 = 0;
	irq_fn = NULL;
}

static volatile uint32_t *cfg32(uint32_t dev, uint32_t off)
{
	return (volatile uint32_t *)(ECAM_BASE + (dev << 15) + off);
}

uint64_t sd_platform_now_ns(void)
{
	return *(volatile uint64_t *)CLINT_MTIME * 100u;
}

int sd_platform_init(struct sd_platform *p)
{
	for (uint32_t dev = 0; dev < 32; dev++) {
		if (*cfg32(dev, 0) != SDHCI_PCI_ID)
			continue;
		*cfg32(dev, PCI_BAR0) = PCI_MMIO_BASE;
		if ((*cfg32(dev, PCI_BAR0) & ~0xfu) != PCI_MMIO_BASE) {
			mmt_printf("sdhci-pci: BAR0 did not take 0x%lx\n", PCI_MMIO_BASE);
			return -1;
		}
		*cfg32(dev, PCI_COMMAND) |= PCI_CMD_MEM | PCI_CMD_MASTER;
		p->name = "rv64-virt-pci";
		p->regs = (volatile void *)PCI_MMIO_BASE;
		p->base_clock_hz = 0;
		/* With -m 3G RAM spans 0x80000000..0x140000000; the test image uses
		   the first 128 MiB. */
		p->high_mem = 0x100100000ul;
		p->below_4g_edge = 0xfffff000ul;
		p->has_irq = true;
		mmt_printf("sdhci-pci: PCI 00:%02x.0, BAR0 at 0x%lx\n", (unsigned int)dev,
			   PCI_MMIO_BASE);
		return 0;
	}
	mmt_printf("sdhci-pci: no device 1b36:0007 on PCI bus 0\n");
	return -1;
}
