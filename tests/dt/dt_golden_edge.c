/*
 * The first hand-built tree of the golden-text tests and its exact
 * description (probed as ES1.1 by test_dt_golden_edge.c).
 */
#include <stddef.h>
#include <stdint.h>

#include "dt/dt_golden.h"

/*
 * Shapes no shared board has: interrupt parents found by inheritance, cached
 * and missing, a non-GIC controller, PPIs and out-of-range GIC cells, two reg
 * entries of 1+1 cells, a zero-sized window, no-1-8-v without a 1.8 V mode,
 * dma-names with an odd count, a one-cell iommus, names like an SDHI that the
 * table does not know.
 */
unsigned char *edge_tree(size_t *size)
{
	static const char root_compat[] = "acme,board\0renesas,r8a77965";
	static const char gic[] = "arm,gic-400";
	static const char gen3[] = "renesas,sdhi-r8a77965";
	static const char gen2[] = "renesas,sdhi-r8a7790";
	static const char like[] = "renesas,foo-sdhi\0acme,mmc";
	static const char like2[] = "acme,mmc\0renesas,sdhi-zz";
	static const char names[] = "tx\0rx\0rx\0xx";
	struct fdtb b = {0};

	fdtb_begin(&b, "");
	strlist(&b, "compatible", root_compat, sizeof(root_compat));
	fdtb_prop_str(&b, "model", "Edge");
	fdtb_prop_u32(&b, "#address-cells", 1);
	fdtb_prop_u32(&b, "#size-cells", 1);

	fdtb_begin(&b, "gic");
	strlist(&b, "compatible", gic, sizeof(gic));
	fdtb_prop_u32(&b, "#interrupt-cells", 3);
	fdtb_prop_u32(&b, "phandle", 1);
	fdtb_end(&b);
	fdtb_begin(&b, "intc");
	fdtb_prop_str(&b, "compatible", "acme,intc");
	fdtb_prop_u32(&b, "#interrupt-cells", 2);
	fdtb_prop_u32(&b, "phandle", 2);
	fdtb_end(&b);

	fdtb_begin(&b, "bus");
	fdtb_prop_u32(&b, "#address-cells", 1);
	fdtb_prop_u32(&b, "#size-cells", 1);
	fdtb_prop_u32(&b, "interrupt-parent", 1);

	/* Gen3, two reg entries, a PPI at the top of the range, level low. */
	fdtb_begin(&b, "mmc@1000");
	strlist(&b, "compatible", gen3, sizeof(gen3));
	cells(&b, "reg", 4, (const uint32_t[]){0x1000, 0x2000, 0x9000, 0x100});
	cells(&b, "interrupts", 3, (const uint32_t[]){1, 1020, 8});
	cells(&b, "iommus", 1, (const uint32_t[]){0x77});
	fdtb_prop_u32(&b, "bus-width", 8);
	fdtb_prop(&b, "cap-mmc-highspeed", NULL, 0);
	fdtb_prop(&b, "no-1-8-v", NULL, 0);
	fdtb_prop_u32(&b, "max-frequency", 52000000);
	fdtb_end(&b);

	/* The same parent again (looked up once), cells the GIC reading rejects. */
	fdtb_begin(&b, "mmc@2000");
	strlist(&b, "compatible", gen3, sizeof(gen3));
	cells(&b, "reg", 2, (const uint32_t[]){0x2000, 0x2000});
	cells(&b, "interrupts", 6, (const uint32_t[]){0, 1021, 3, 2, 0, 0xf});
	cells(&b, "iommus", 3, (const uint32_t[]){0x77, 5, 6});
	fdtb_prop_u32(&b, "bus-width", 1);
	fdtb_prop(&b, "sd-uhs-ddr50", NULL, 0);
	fdtb_prop(&b, "cap-sd-highspeed", NULL, 0);
	fdtb_end(&b);

	/* Gen2 behind the non-GIC controller: two cells, tx + 2 rx. */
	fdtb_begin(&b, "mmc@3000");
	strlist(&b, "compatible", gen2, sizeof(gen2));
	cells(&b, "reg", 2, (const uint32_t[]){0x3000, 0x101});
	fdtb_prop_u32(&b, "interrupt-parent", 2);
	cells(&b, "interrupts", 4, (const uint32_t[]){5, 6, 7, 8});
	cells(&b, "dmas", 2, (const uint32_t[]){9, 9});
	strlist(&b, "dma-names", names, sizeof(names));
	fdtb_prop(&b, "mmc-hs400-1_8v", NULL, 0);
	fdtb_end(&b);

	/* An interrupt parent no node has; five cells listed. */
	fdtb_begin(&b, "mmc@4000");
	strlist(&b, "compatible", gen2, sizeof(gen2));
	cells(&b, "reg", 2, (const uint32_t[]){0x4000, 0x100});
	fdtb_prop_u32(&b, "interrupt-parent", 99);
	cells(&b, "interrupts", 5, (const uint32_t[]){1, 2, 3, 4, 5});
	fdtb_prop_str(&b, "dma-names", "rx");
	cells(&b, "dmas", 1, (const uint32_t[]){9});
	fdtb_end(&b);

	/* A zero-sized window. */
	fdtb_begin(&b, "mmc@5000");
	strlist(&b, "compatible", gen3, sizeof(gen3));
	cells(&b, "reg", 2, (const uint32_t[]){0x5000, 0});
	fdtb_end(&b);

	/* Names like an SDHI, not in the table: found, unsupported. */
	fdtb_begin(&b, "mmc@6000");
	strlist(&b, "compatible", like, sizeof(like));
	fdtb_end(&b);
	fdtb_begin(&b, "mmc@7000");
	strlist(&b, "compatible", like2, sizeof(like2));
	fdtb_prop_str(&b, "status", "ok");
	fdtb_end(&b);
	fdtb_end(&b); /* bus */
	fdtb_end(&b); /* root */
	return fdtb_finish(&b, size);
}

/* clang-format off */
const char *const edge_golden[] = {
	"board edge model Edge soc renesas,r8a77965 ncompat 2 rev 0",
	"/bus/mmc@1000 off 296 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x1000+0x2000 nreg 2 shift 2 irq 3 <1 3fc 8 0>",
	"iommu listed 1 usable 1 phandle 0x77 id 0x0 dma tx 0 rx 0 width 8",
	"host bus 0x700b fmax 52000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0x1000 bus 0xb fmax 52000000",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x1000 (parent's cells 1+1; further entries not used)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x1 0x3fc 0x8> = GIC PPI 1020 (interrupt ID 1036) level low: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x77 with master ID 0x0; usable for SDHI on this SoC",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 8 bits (bus-width 8; 4-bit also usable)",
	"f_max: 52000000 Hz from max-frequency",
	"bus_caps: tree: cap-mmc-highspeed",
	"bus_caps: no-1-8-v: the slot stays at 3.3 V",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: SoC revision ES1.1: no revision quirk is known for this SoC",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/bus/mmc@2000 off 476 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x2000+0x2000 nreg 1 shift 2 irq 3 <0 3fd 3 0>",
	"iommu listed 1 usable 1 phandle 0x77 id 0x5 dma tx 0 rx 0 width 1",
	"host bus 0x27104 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0x2000 bus 0x20104 fmax 0",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x2000 (parent's cells 1+1)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0x3fd 0x3>: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x77 with master ID 0x5; usable for SDHI on this SoC",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit (bus-width 1)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: cap-sd-highspeed, sd-uhs-ddr50",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: SoC revision ES1.1: no revision quirk is known for this SoC",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/bus/mmc@3000 off 652 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7790 backend sysdmac",
	"reg 0x3000+0x101 nreg 1 shift 1 irq 2 <5 6 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 1 rx 2 width 1",
	"host bus 0x27000 fmax 0 merge 0 cnt 16/65535 blk 512 completion 0",
	"dma kind 2",
	"to: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"from: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 1 reg_dma 0x3000 bus 0x20800 fmax 0",
	"limits 0: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 1: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 2: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"why 17 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a7790\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x101 bytes at 0x3000 (parent's cells 1+1)",
	"bus_shift: 1: register window 0x101 is larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: interrupts <0x5 0x6>: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: sysdmac: SYS-DMAC family, dma-names lists 1 tx and 2 rx channel(s)",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: mmc-hs400-1_8v",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: mmc-hs400-1_8v dropped: the SoC table entry has no HS400",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: SoC revision ES1.1: no revision quirk is known for this SoC",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 8388607 blocks",
	"dma: SYS-DMAC: 32 segments (TMIO default; the platform's channel caps decide at run time), even lengths and starts, 8 bytes minimum",
	"/bus/mmc@4000 off 828 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7790 backend pio",
	"reg 0x4000+0x100 nreg 1 shift 0 irq 4 <1 2 3 4>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 1 width 1",
	"host bus 0x7000 fmax 0 merge 0 cnt 16/65535 blk 512 completion 0",
	"dma kind 0",
	"to: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"from: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 0 reg_dma 0x4000 bus 0x0 fmax 0",
	"limits 0: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 1: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 2: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"why 15 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a7790\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x100 bytes at 0x4000 (parent's cells 1+1)",
	"bus_shift: 0: register window 0x100 is not larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: interrupts <0x1 0x2 0x3 0x4>: completion by interrupt (interrupt parent's #interrupt-cells not found: cells shown as listed)",
	"iommu: no iommus property: no IOMMU",
	"backend: pio: SYS-DMAC family but dmas lacks a tx or an rx channel",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: SoC revision ES1.1: no revision quirk is known for this SoC",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 8388607 blocks",
	"dma: no DMA engine: the CPU moves the data",
	"/bus/mmc@5000 off 984 enabled 1 supported 1 error -14 compatible renesas,sdhi-r8a77965 backend none",
	"reg 0x5000+0x0 nreg 1 shift 0 irq 0 <0 0 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 0",
	"host bus 0x0 fmax 0 merge 0 cnt 0/0 blk 0 completion 0",
	"dma kind 0",
	"to: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"from: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 0 reg_dma 0x0 bus 0x0 fmax 0",
	"limits 0: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 1: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 2: segs 0 merge 0 blks 0 seg 0 policy 0",
	"why 3 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: error: reg has a zero-sized window",
	"/bus/mmc@6000 off 1060 enabled 1 supported 0 error 0 compatible renesas,foo-sdhi backend none",
	"reg 0x0+0x0 nreg 0 shift 0 irq 0 <0 0 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 0",
	"host bus 0x0 fmax 0 merge 0 cnt 0/0 blk 0 completion 0",
	"dma kind 0",
	"to: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"from: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 0 reg_dma 0x0 bus 0x0 fmax 0",
	"limits 0: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 1: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 2: segs 0 merge 0 blks 0 seg 0 policy 0",
	"why 2 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: unsupported: no compatible string of this node is in the SoC table (not guessed from a similar one)",
	"/bus/mmc@7000 off 1120 enabled 1 supported 0 error 0 compatible acme,mmc backend none",
	"reg 0x0+0x0 nreg 0 shift 0 irq 0 <0 0 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 0",
	"host bus 0x0 fmax 0 merge 0 cnt 0/0 blk 0 completion 0",
	"dma kind 0",
	"to: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"from: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 0 reg_dma 0x0 bus 0x0 fmax 0",
	"limits 0: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 1: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 2: segs 0 merge 0 blks 0 seg 0 policy 0",
	"why 2 lost 0",
	"status: status \"ok\": enabled",
	"compatible: unsupported: no compatible string of this node is in the SoC table (not guessed from a similar one)",
	NULL,
};
/* clang-format on */
