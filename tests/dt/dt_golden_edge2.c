/*
 * The second hand-built tree of the golden-text tests and its exact
 * description (probed as ES1.0 by test_dt_golden_edge.c).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dt/dt_golden.h"

/* An SDHI node @p name of @p compat: reg <0 addr 0 0x2000> (2+2 cells). */
static void sdhi(struct fdtb *b, const char *name, const char *compat, uint32_t addr)
{
	fdtb_begin(b, name);
	fdtb_prop_str(b, "compatible", compat);
	cells(b, "reg", 4, (const uint32_t[]){0, addr, 0, 0x2000});
}

static void intc(struct fdtb *b, const char *name, const char *compat, uint32_t ncells,
		 uint32_t phandle)
{
	fdtb_begin(b, name);
	fdtb_prop_str(b, "compatible", compat);
	fdtb_prop_u32(b, "#interrupt-cells", ncells);
	fdtb_prop_u32(b, "phandle", phandle);
	fdtb_end(b);
}

/*
 * A board whose IOMMU does not serve SDHI (M3-W, its only compatible), with
 * interrupt controllers of 0 to 5 cells, a root that has #interrupt-cells
 * itself, a 64-bit register address, and a node for each error of a node's
 * properties.
 */
unsigned char *edge2_tree(size_t *size)
{
	static const char gen3[] = "renesas,sdhi-r8a77965";
	static const char gen2[] = "renesas,sdhi-r8a7790";
	static char many[256 * 3 + 256 * 3];
	struct fdtb b = {0};
	size_t i;

	for (i = 0; i < 256; i++) {
		memcpy(many + 3 * i, "tx", 3);
		memcpy(many + 768 + 3 * i, "rx", 3);
	}
	fdtb_begin(&b, "");
	fdtb_prop_str(&b, "compatible", "renesas,r8a7796");
	fdtb_prop_u32(&b, "#address-cells", 2);
	fdtb_prop_u32(&b, "#size-cells", 2);
	fdtb_prop_u32(&b, "#interrupt-cells", 1);
	intc(&b, "gic", "arm,gic-400", 3, 1);
	intc(&b, "intc2", "acme,intc", 2, 2);
	intc(&b, "intc3", "acme,intc", 3, 3);
	intc(&b, "intc0", "acme,intc", 0, 4);
	intc(&b, "intc5", "acme,intc", 5, 5);
	intc(&b, "intc4", "acme,intc", 4, 6);

	/* No interrupt-parent anywhere above; a 64-bit address; a denied IOMMU. */
	fdtb_begin(&b, "mmc@100000000");
	fdtb_prop_str(&b, "compatible", gen3);
	cells(&b, "reg", 4, (const uint32_t[]){1, 0x10, 0, 0x2000});
	cells(&b, "interrupts", 1, (const uint32_t[]){7});
	cells(&b, "iommus", 2, (const uint32_t[]){0x10, 0x20});
	fdtb_end(&b);
	sdhi(&b, "mmc@1", gen3, 1); /* interrupt-parent of two cells */
	cells(&b, "interrupt-parent", 2, (const uint32_t[]){1, 2});
	cells(&b, "interrupts", 2, (const uint32_t[]){1, 2});
	fdtb_end(&b);
	sdhi(&b, "mmc@2", gen3, 2); /* a phandle no node has */
	fdtb_prop_u32(&b, "interrupt-parent", 99);
	cells(&b, "interrupts", 2, (const uint32_t[]){1, 2});
	fdtb_end(&b);
	sdhi(&b, "mmc@3", gen3, 3); /* #interrupt-cells 0 */
	fdtb_prop_u32(&b, "interrupt-parent", 4);
	cells(&b, "interrupts", 1, (const uint32_t[]){1});
	fdtb_end(&b);
	sdhi(&b, "mmc@4", gen3, 4); /* 5 cells: more than a node keeps */
	fdtb_prop_u32(&b, "interrupt-parent", 5);
	cells(&b, "interrupts", 5, (const uint32_t[]){1, 2, 3, 4, 5});
	fdtb_end(&b);
	sdhi(&b, "mmc@5", gen3, 5); /* 4 cells: the most a node keeps */
	fdtb_prop_u32(&b, "interrupt-parent", 6);
	cells(&b, "interrupts", 4, (const uint32_t[]){1, 2, 3, 4});
	fdtb_end(&b);
	sdhi(&b, "mmc@6", gen3, 6); /* three cells, not a GIC */
	fdtb_prop_u32(&b, "interrupt-parent", 3);
	cells(&b, "interrupts", 3, (const uint32_t[]){0, 10, 4});
	fdtb_end(&b);
	sdhi(&b, "mmc@7", gen3, 7); /* two cells, not a GIC */
	fdtb_prop_u32(&b, "interrupt-parent", 2);
	cells(&b, "interrupts", 2, (const uint32_t[]){0, 7});
	fdtb_end(&b);
	sdhi(&b, "mmc@8", gen3, 8); /* empty interrupts */
	fdtb_prop_u32(&b, "interrupt-parent", 2);
	fdtb_prop(&b, "interrupts", NULL, 0);
	fdtb_end(&b);
	sdhi(&b, "mmc@9", gen3, 9); /* empty iommus */
	fdtb_prop(&b, "iommus", NULL, 0);
	fdtb_end(&b);
	sdhi(&b, "mmc@a", gen3, 10); /* GIC flags 9: no trigger name */
	fdtb_prop_u32(&b, "interrupt-parent", 1);
	cells(&b, "interrupts", 3, (const uint32_t[]){0, 5, 9});
	fdtb_end(&b);
	fdtb_begin(&b, "mmc@b"); /* no reg */
	fdtb_prop_str(&b, "compatible", gen3);
	fdtb_end(&b);
	fdtb_begin(&b, "mmc@c"); /* reg of 12 bytes */
	fdtb_prop_str(&b, "compatible", gen3);
	cells(&b, "reg", 3, (const uint32_t[]){0, 0xc, 0x100});
	fdtb_end(&b);
	sdhi(&b, "mmc@d", gen3, 13); /* bus-width 3 */
	fdtb_prop_u32(&b, "bus-width", 3);
	fdtb_end(&b);
	sdhi(&b, "mmc@e", gen3, 14); /* max-frequency of two cells */
	cells(&b, "max-frequency", 2, (const uint32_t[]){0, 1});
	fdtb_end(&b);
	sdhi(&b, "mmc@f", gen2, 15); /* 256 tx and 256 rx names: counts saturate */
	cells(&b, "dmas", 1, (const uint32_t[]){1});
	fdtb_prop(&b, "dma-names", many, sizeof(many));
	fdtb_end(&b);
	sdhi(&b, "mmc@10", gen2, 16); /* one channel each way */
	cells(&b, "dmas", 1, (const uint32_t[]){1});
	fdtb_prop(&b, "dma-names", "tx\0rx", 6);
	fdtb_end(&b);
	sdhi(&b, "mmc@11", "renesas,sdhi-r7s9210", 17); /* internal DMAC, no merging */
	fdtb_end(&b);
	/* Not an SDHI: the prefix is "renesas,sdhi-" from its first letter. */
	sdhi(&b, "mmc@12", "xenesas,sdhi-r8a7795", 18);
	fdtb_end(&b);

	/* Parents whose cells no 64-bit window can have. */
	fdtb_begin(&b, "bus-bad");
	fdtb_prop_u32(&b, "#address-cells", 1);
	fdtb_prop(&b, "#size-cells", "\0\1", 2);
	sdhi(&b, "mmc@20", gen3, 0x20);
	fdtb_end(&b);
	fdtb_end(&b);
	fdtb_begin(&b, "bus-s3");
	fdtb_prop_u32(&b, "#address-cells", 1);
	fdtb_prop_u32(&b, "#size-cells", 3);
	sdhi(&b, "mmc@30", gen3, 0x30);
	fdtb_end(&b);
	fdtb_end(&b);
	fdtb_begin(&b, "bus-s0");
	fdtb_prop_u32(&b, "#address-cells", 1);
	fdtb_prop_u32(&b, "#size-cells", 0);
	sdhi(&b, "mmc@40", gen3, 0x40);
	fdtb_end(&b);
	fdtb_end(&b);
	fdtb_end(&b); /* root */
	return fdtb_finish(&b, size);
}

/* clang-format off */
const char *const edge2_golden[] = {
	"board edge2 model - soc renesas,r8a7796 ncompat 1 rev 4",
	"/mmc@100000000 off 512 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x100000010+0x2000 nreg 1 shift 2 irq 1 <7 0 0 0>",
	"iommu listed 1 usable 0 phandle 0x10 id 0x20 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x100000010 bus 0x0 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x100000010 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x7>: completion by interrupt",
	"iommu: IOMMU listed in the tree but not usable for SDHI on renesas,r8a7796 ES1.0 (the IPMMU driver does not attach SDHI there)",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@1 off 636 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x1+0x2000 nreg 1 shift 2 irq 2 <1 2 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x1 bus 0x0 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x1 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x1 0x2>: completion by interrupt (interrupt parent's #interrupt-cells not found: cells shown as listed)",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@2 off 756 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x2+0x2000 nreg 1 shift 2 irq 2 <1 2 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x2 bus 0x0 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x2 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x1 0x2>: completion by interrupt (interrupt parent's #interrupt-cells not found: cells shown as listed)",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@3 off 872 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x3+0x2000 nreg 1 shift 2 irq 1 <1 0 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x3 bus 0x0 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x3 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x1>: completion by interrupt (interrupt parent's #interrupt-cells not found: cells shown as listed)",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@4 off 984 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x4+0x2000 nreg 1 shift 2 irq 4 <1 2 3 4>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x4 bus 0x0 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x4 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x1 0x2 0x3 0x4>: completion by interrupt (interrupt parent's #interrupt-cells not found: cells shown as listed)",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@5 off 1112 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x5+0x2000 nreg 1 shift 2 irq 4 <1 2 3 4>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x5 bus 0x0 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x5 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x1 0x2 0x3 0x4>: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@6 off 1236 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x6+0x2000 nreg 1 shift 2 irq 3 <0 a 4 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x6 bus 0x0 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x6 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa 0x4>: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@7 off 1356 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x7+0x2000 nreg 1 shift 2 irq 2 <0 7 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x7 bus 0x0 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x7 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0x7>: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@8 off 1472 enabled 1 supported 1 error -14 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x8+0x2000 nreg 1 shift 2 irq 0 <0 0 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 1",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x8 bus 0x0 fmax 0",
	"limits 0: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 1: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 2: segs 0 merge 0 blks 0 seg 0 policy 0",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x8 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: error: interrupts is not a whole number of interrupt specifiers",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@9 off 1580 enabled 1 supported 1 error -14 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0x9+0x2000 nreg 1 shift 2 irq 0 <0 0 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 1",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x9 bus 0x0 fmax 0",
	"limits 0: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 1: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 2: segs 0 merge 0 blks 0 seg 0 policy 0",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x9 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: no interrupts property: completion by polling",
	"iommu: error: iommus is not a list of cells",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@a off 1672 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0xa+0x2000 nreg 1 shift 2 irq 3 <0 5 9 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0xa bus 0x0 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xa (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0x5 0x9> = GIC SPI 5 (interrupt ID 37): completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/mmc@b off 1792 enabled 1 supported 1 error -14 compatible renesas,sdhi-r8a77965 backend none",
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
	"why 3 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: error: reg is missing",
	"/mmc@c off 1844 enabled 1 supported 1 error -14 compatible renesas,sdhi-r8a77965 backend none",
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
	"why 3 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: error: reg is 12 bytes, not a multiple of 16 (parent #address-cells 2, #size-cells 2)",
	"/mmc@d off 1920 enabled 1 supported 1 error -14 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0xd+0x2000 nreg 1 shift 2 irq 0 <0 0 0 0>",
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
	"why 8 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xd (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: no interrupts property: completion by polling",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: error: bus-width is not one cell of 1, 4 or 8",
	"/mmc@e off 2016 enabled 1 supported 1 error -14 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0xe+0x2000 nreg 1 shift 2 irq 0 <0 0 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x0 fmax 0 merge 0 cnt 0/0 blk 0 completion 0",
	"dma kind 0",
	"to: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"from: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 0 reg_dma 0x0 bus 0x0 fmax 0",
	"limits 0: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 1: segs 0 merge 0 blks 0 seg 0 policy 0",
	"limits 2: segs 0 merge 0 blks 0 seg 0 policy 0",
	"why 9 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xe (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: no interrupts property: completion by polling",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: error: max-frequency is not one cell",
	"/mmc@f off 2116 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7790 backend sysdmac",
	"reg 0xf+0x2000 nreg 1 shift 1 irq 0 <0 0 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 255 rx 255 width 1",
	"host bus 0x7000 fmax 0 merge 0 cnt 16/65535 blk 512 completion 1",
	"dma kind 2",
	"to: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"from: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 1 reg_dma 0xf bus 0x0 fmax 0",
	"limits 0: segs 32 merge 0 blks 65535 seg 33553920 policy 4",
	"limits 1: segs 32 merge 0 blks 65535 seg 33553920 policy 4",
	"limits 2: segs 32 merge 0 blks 65535 seg 33553920 policy 4",
	"why 14 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a7790\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xf (parent's cells 2+2)",
	"bus_shift: 1: register window 0x2000 is larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: no interrupts property: completion by polling",
	"iommu: no iommus property: no IOMMU",
	"backend: sysdmac: SYS-DMAC family, dma-names lists 255 tx and 255 rx channel(s)",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 8388607 blocks",
	"dma: SYS-DMAC: 32 segments (TMIO default; the platform's channel caps decide at run time), even lengths and starts, 8 bytes minimum",
	"/mmc@10 off 3760 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7790 backend sysdmac",
	"reg 0x10+0x2000 nreg 1 shift 1 irq 0 <0 0 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 1 rx 1 width 1",
	"host bus 0x7000 fmax 0 merge 0 cnt 16/65535 blk 512 completion 1",
	"dma kind 2",
	"to: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"from: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 1 reg_dma 0x10 bus 0x0 fmax 0",
	"limits 0: segs 32 merge 0 blks 65535 seg 33553920 policy 4",
	"limits 1: segs 32 merge 0 blks 65535 seg 33553920 policy 4",
	"limits 2: segs 32 merge 0 blks 65535 seg 33553920 policy 4",
	"why 14 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a7790\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x10 (parent's cells 2+2)",
	"bus_shift: 1: register window 0x2000 is larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: no interrupts property: completion by polling",
	"iommu: no iommus property: no IOMMU",
	"backend: sysdmac: SYS-DMAC family, dma-names lists 1 tx and 1 rx channel(s)",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 8388607 blocks",
	"dma: SYS-DMAC: 32 segments (TMIO default; the platform's channel caps decide at run time), even lengths and starts, 8 bytes minimum",
	"/mmc@11 off 3876 enabled 1 supported 1 error 0 compatible renesas,sdhi-r7s9210 backend idmac",
	"reg 0x11+0x2000 nreg 1 shift 2 irq 0 <0 0 0 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 0 merge 0 cnt 32/8388607 blk 512 completion 1",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 4 shift 2 reg_dma 0x11 bus 0x0 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 4",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 4",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 4",
	"why 17 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r7s9210\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0x11 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: no interrupts property: completion by polling",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"quirk: fixed address mode: the internal DMAC does not increment the address (DM_CM_DTRAN_MODE bit 0 clear)",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/bus-bad/mmc@20 off 4080 enabled 1 supported 1 error -14 compatible renesas,sdhi-r8a77965 backend none",
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
	"why 3 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: error: the parent's #address-cells or #size-cells is not one cell",
	"/bus-s3/mmc@30 off 4208 enabled 1 supported 1 error -9 compatible renesas,sdhi-r8a77965 backend none",
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
	"why 3 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: error: the parent's #address-cells or #size-cells is outside 1..2: no 64-bit register window",
	"/bus-s0/mmc@40 off 4336 enabled 1 supported 1 error -9 compatible renesas,sdhi-r8a77965 backend none",
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
	"why 3 lost 0",
	"status: no status property: okay (DT spec 2.3.4)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: error: the parent's #address-cells or #size-cells is outside 1..2: no 64-bit register window",
	NULL,
};
/* clang-format on */
