/*
 * QEMU riscv64 virt with -device sdhci-pci: the controller is PCI device
 * 1b36:0007 on bus 0. The guest finds it through ECAM at 0x30000000, puts BAR0
 * (256 bytes, 32-bit memory) at the start of the 32-bit PCI memory window
 * 0x40000000, and enables memory decoding and bus mastering (its DMA).
 * Time comes from the CLINT's mtime (10 MHz on virt).
 *
 * Sources: QEMU hw/riscv/virt.c memory map; hw/sd/sdhci-pci.c (IDs, BAR0);
 * PCI Local Bus Specification 3.0, 6.1 (configuration header), PCI Express
 * Base Specification 7.2.2 (ECAM: bus << 20 | device << 15 | function << 12).
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
		mmt_printf("sdhci-pci: PCI 00:%02x.0, BAR0 at 0x%lx\n", (unsigned int)dev,
			   PCI_MMIO_BASE);
		return 0;
	}
	mmt_printf("sdhci-pci: no device 1b36:0007 on PCI bus 0\n");
	return -1;
}
