/*
 * Every SDHI node of every shared board (read at run time from
 * $MMCHAL_SHARED_DIR/data/dt), described completely: each derived field and
 * each reason, in the order the probe writes them, compared with the exact
 * text below. A changed value, a lost or reordered reason or a changed word
 * fails here. The values were checked against the boards' .dts sources, the
 * SoC table (src/backends/sdhi) and expected.csv.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/dt.h>
#include <mmchal/error.h>

#include "dt/dt_shared.h"
#include "dt/fdt_build.h"

#define MAXN 32

struct out {
	char buf[65536];
	size_t len;
};

__attribute__((format(printf, 2, 3))) static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, sizeof(o->buf) - o->len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(o->buf) - o->len);
	o->len += (size_t)n;
}

static void put_dir(struct out *o, const char *name, const struct mmchal_dma_dir_caps *c)
{
	put(o, "%s: bits %u align %u granule %u segs %u seg %u min %u\n", name, c->addr_bits,
	    c->addr_align, c->len_granule, c->max_segs, c->max_seg_size, c->min_len);
}

/* Everything the probe derives about one node, one fact per line. */
static void describe(struct out *o, const struct mmchal_dt_node *n)
{
	const struct mmchal_caps *c = &n->caps;
	uint32_t i;

	put(o, "%s off %u enabled %d supported %d error %d compatible %s backend %s\n", n->path,
	    n->offset, n->enabled, n->supported, n->error, n->compatible ? n->compatible : "-",
	    mmchal_dt_backend_name(n->backend));
	put(o, "reg 0x%llx+0x%llx nreg %u shift %u irq %u <%x %x %x %x>\n",
	    (unsigned long long)n->reg_addr, (unsigned long long)n->reg_size, n->nreg, n->bus_shift,
	    n->irq_ncells, n->irq[0], n->irq[1], n->irq[2], n->irq[3]);
	put(o, "iommu listed %d usable %d phandle 0x%x id 0x%x dma tx %u rx %u width %u\n",
	    n->iommu_listed, n->iommu_usable, n->iommu_phandle, n->iommu_id, n->dma_tx, n->dma_rx,
	    n->bus_width);
	put(o, "host bus 0x%x fmax %u merge %d cnt %u/%u blk %u completion %d\n", c->host.bus,
	    c->host.f_max_hz, c->host.merge_capable, c->host.blk_count_bits, c->host.max_blk_count,
	    c->host.max_blk_size, (int)c->host.completion);
	put(o, "dma kind %d\n", (int)c->dma.kind);
	put_dir(o, "to", &c->dma.dir[MMCHAL_DIR_TO_CARD]);
	put_dir(o, "from", &c->dma.dir[MMCHAL_DIR_FROM_CARD]);
	put(o, "iommu present %d page %u boundary 0x%llx\n", c->iommu.present, c->iommu.page_size,
	    (unsigned long long)c->iommu.merge_boundary);
	put(o, "cfg rev %d shift %u reg_dma 0x%llx bus 0x%x fmax %u\n", (int)n->cfg.rev,
	    n->cfg.bus.bus_shift, (unsigned long long)n->cfg.reg_dma, n->cfg.caps.bus,
	    n->cfg.caps.f_max_hz);
	for (i = 0; i < MMCHAL_DT_CARD_COUNT; i++)
		put(o, "limits %u: segs %u merge %d blks %u seg %u policy %d\n", i,
		    n->limits[i].max_segs, n->limits[i].merge, n->limits[i].max_blk_count,
		    n->limits[i].max_seg_size, (int)n->limits[i].policy);
	put(o, "why %u lost %d\n", n->nwhy, n->why_lost);
	for (i = 0; i < n->nwhy; i++)
		put(o, "%s: %s\n", mmchal_dt_fact_name(n->why[i].fact), n->why[i].text);
}

/* The description of every node of @p blob, probed with @p rev. */
static void describe_blob(struct out *o, const char *board, const unsigned char *blob, size_t size,
			  const char *rev)
{
	static struct mmchal_dt_node nodes[MAXN];
	struct mmchal_dt_opts opts = {.soc_revision = rev};
	struct mmchal_dt_board b;
	size_t n, i;

	memset(nodes, 0, sizeof(nodes));
	assert_int_equal(mmchal_dt_probe(blob, size, &opts, &b, nodes, MAXN, &n), 0);
	o->len = 0;
	o->buf[0] = '\0';
	put(o, "board %s model %s soc %s ncompat %u rev %d\n", board, b.model ? b.model : "-",
	    b.soc ? b.soc : "-", b.ncompat, (int)b.rev);
	for (i = 0; i < n; i++)
		describe(o, &nodes[i]);
}

static void describe_board(struct out *o, const char *board, const char *rev)
{
	size_t size;
	unsigned char *blob = dt_load(board, &size);

	describe_blob(o, board, blob, size, rev);
	free(blob);
}

static void cells(struct fdtb *b, const char *name, uint32_t n, const uint32_t *v)
{
	unsigned char buf[64];
	uint32_t i;

	assert_true(n * 4u <= sizeof(buf));
	for (i = 0; i < n; i++)
		dt_put_be32(buf + 4u * i, v[i]);
	fdtb_prop(b, name, buf, 4u * n);
}

static void strlist(struct fdtb *b, const char *name, const char *v, uint32_t len)
{
	fdtb_prop(b, name, v, len);
}

/*
 * Shapes no shared board has: interrupt parents found by inheritance, cached
 * and missing, a non-GIC controller, PPIs and out-of-range GIC cells, two reg
 * entries of 1+1 cells, a zero-sized window, no-1-8-v without a 1.8 V mode,
 * dma-names with an odd count, a one-cell iommus, names like an SDHI that the
 * table does not know.
 */
static unsigned char *edge_tree(size_t *size)
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
static const char *const g_ape6evm[] = {
	"board r8a73a4-ape6evm model APE6EVM soc renesas,r8a73a4 ncompat 2 rev 0",
	"/mmc@ee100000 off 8016 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a73a4 backend pio",
	"reg 0xee100000+0x100 nreg 1 shift 0 irq 3 <0 a5 4 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 4",
	"host bus 0x7005 fmax 0 merge 0 cnt 16/256 blk 512 completion 0",
	"dma kind 0",
	"to: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"from: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 0 reg_dma 0xee100000 bus 0x5 fmax 0",
	"limits 0: segs 32 merge 0 blks 256 seg 131072 policy 1",
	"limits 1: segs 32 merge 0 blks 256 seg 131072 policy 1",
	"limits 2: segs 32 merge 0 blks 256 seg 131072 policy 1",
	"why 14 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a73a4\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x100 bytes at 0xee100000 (parent's cells 2+2)",
	"bus_shift: 0: register window 0x100 is not larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: interrupts <0x0 0xa5 0x4> = GIC SPI 165 (interrupt ID 197) level high: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: pio: SYS-DMAC family but no dmas with tx and rx names",
	"bus_width: 4 bits (bus-width 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: cap-sd-highspeed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 256 blocks",
	"dma: no DMA engine: the CPU moves the data",
	"/mmc@ee120000 off 8276 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a73a4 backend pio",
	"reg 0xee120000+0x100 nreg 1 shift 0 irq 3 <0 a6 4 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 4",
	"host bus 0x17005 fmax 0 merge 0 cnt 16/256 blk 512 completion 0",
	"dma kind 0",
	"to: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"from: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 0 reg_dma 0xee120000 bus 0x10005 fmax 0",
	"limits 0: segs 32 merge 0 blks 256 seg 131072 policy 1",
	"limits 1: segs 32 merge 0 blks 256 seg 131072 policy 1",
	"limits 2: segs 32 merge 0 blks 256 seg 131072 policy 1",
	"why 14 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a73a4\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x100 bytes at 0xee120000 (parent's cells 2+2)",
	"bus_shift: 0: register window 0x100 is not larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: interrupts <0x0 0xa6 0x4> = GIC SPI 166 (interrupt ID 198) level high: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: pio: SYS-DMAC family but no dmas with tx and rx names",
	"bus_width: 4 bits (bus-width 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: cap-sd-highspeed, broken-cd",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 256 blocks",
	"dma: no DMA engine: the CPU moves the data",
	"/mmc@ee140000 off 8548 enabled 0 supported 1 error 0 compatible renesas,sdhi-r8a73a4 backend pio",
	"reg 0xee140000+0x100 nreg 1 shift 0 irq 3 <0 a7 4 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 1",
	"host bus 0x7004 fmax 0 merge 0 cnt 16/256 blk 512 completion 0",
	"dma kind 0",
	"to: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"from: bits 0 align 0 granule 0 segs 0 seg 0 min 0",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 0 reg_dma 0xee140000 bus 0x4 fmax 0",
	"limits 0: segs 32 merge 0 blks 256 seg 131072 policy 1",
	"limits 1: segs 32 merge 0 blks 256 seg 131072 policy 1",
	"limits 2: segs 32 merge 0 blks 256 seg 131072 policy 1",
	"why 14 lost 0",
	"status: status \"disabled\": reported, not to be probed (configuration from the tree only)",
	"compatible: \"renesas,sdhi-r8a73a4\" is compatible string 1 of 1, the first the SoC table knows",
	"reg: reg: 0x100 bytes at 0xee140000 (parent's cells 2+2)",
	"bus_shift: 0: register window 0x100 is not larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: interrupts <0x0 0xa7 0x4> = GIC SPI 167 (interrupt ID 199) level high: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: pio: SYS-DMAC family but no dmas with tx and rx names",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: cap-sd-highspeed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 256 blocks",
	"dma: no DMA engine: the CPU moves the data",
	NULL,
};

static const char *const g_lager[] = {
	"board r8a7790-lager model Lager soc renesas,r8a7790 ncompat 2 rev 0",
	"/soc/mmc@ee100000 off 34824 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7790 backend sysdmac",
	"reg 0xee100000+0x328 nreg 1 shift 1 irq 3 <0 a5 4 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 2 rx 2 width 1",
	"host bus 0x270c4 fmax 195000000 merge 0 cnt 16/65535 blk 512 completion 0",
	"dma kind 2",
	"to: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"from: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 1 reg_dma 0xee100000 bus 0x200c4 fmax 195000000",
	"limits 0: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 1: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 2: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"why 16 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a7790\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x328 bytes at 0xee100000 (parent's cells 2+2)",
	"bus_shift: 1: register window 0x328 is larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: interrupts <0x0 0xa5 0x4> = GIC SPI 165 (interrupt ID 197) level high: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: sysdmac: SYS-DMAC family, dma-names lists 2 tx and 2 rx channel(s)",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: 195000000 Hz from max-frequency",
	"bus_caps: tree: sd-uhs-sdr50, sd-uhs-sdr104",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: SD high speed: implied by the UHS-I modes listed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 8388607 blocks",
	"dma: SYS-DMAC: 32 segments (TMIO default; the platform's channel caps decide at run time), even lengths and starts, 8 bytes minimum",
	"/soc/mmc@ee120000 off 35268 enabled 0 supported 1 error 0 compatible renesas,sdhi-r8a7790 backend sysdmac",
	"reg 0xee120000+0x328 nreg 1 shift 1 irq 3 <0 a6 4 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 2 rx 2 width 1",
	"host bus 0x7000 fmax 195000000 merge 0 cnt 16/65535 blk 512 completion 0",
	"dma kind 2",
	"to: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"from: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 1 reg_dma 0xee120000 bus 0x0 fmax 195000000",
	"limits 0: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 1: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 2: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"why 14 lost 0",
	"status: status \"disabled\": reported, not to be probed (configuration from the tree only)",
	"compatible: \"renesas,sdhi-r8a7790\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x328 bytes at 0xee120000 (parent's cells 2+2)",
	"bus_shift: 1: register window 0x328 is larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: interrupts <0x0 0xa6 0x4> = GIC SPI 166 (interrupt ID 198) level high: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: sysdmac: SYS-DMAC family, dma-names lists 2 tx and 2 rx channel(s)",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: 195000000 Hz from max-frequency",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 8388607 blocks",
	"dma: SYS-DMAC: 32 segments (TMIO default; the platform's channel caps decide at run time), even lengths and starts, 8 bytes minimum",
	"/soc/mmc@ee140000 off 35572 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7790 backend sysdmac",
	"reg 0xee140000+0x100 nreg 1 shift 0 irq 3 <0 a7 4 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 2 rx 2 width 1",
	"host bus 0x27044 fmax 97500000 merge 0 cnt 16/65535 blk 512 completion 0",
	"dma kind 2",
	"to: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"from: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 0 reg_dma 0xee140000 bus 0x20044 fmax 97500000",
	"limits 0: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 1: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 2: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"why 16 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a7790\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x100 bytes at 0xee140000 (parent's cells 2+2)",
	"bus_shift: 0: register window 0x100 is not larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: interrupts <0x0 0xa7 0x4> = GIC SPI 167 (interrupt ID 199) level high: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: sysdmac: SYS-DMAC family, dma-names lists 2 tx and 2 rx channel(s)",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: 97500000 Hz from max-frequency",
	"bus_caps: tree: sd-uhs-sdr50",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: SD high speed: implied by the UHS-I modes listed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 8388607 blocks",
	"dma: SYS-DMAC: 32 segments (TMIO default; the platform's channel caps decide at run time), even lengths and starts, 8 bytes minimum",
	"/soc/mmc@ee160000 off 36004 enabled 0 supported 1 error 0 compatible renesas,sdhi-r8a7790 backend sysdmac",
	"reg 0xee160000+0x100 nreg 1 shift 0 irq 3 <0 a8 4 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 2 rx 2 width 1",
	"host bus 0x7000 fmax 97500000 merge 0 cnt 16/65535 blk 512 completion 0",
	"dma kind 2",
	"to: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"from: bits 32 align 2 granule 2 segs 32 seg 4294967295 min 8",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 0 reg_dma 0xee160000 bus 0x0 fmax 97500000",
	"limits 0: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 1: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"limits 2: segs 32 merge 0 blks 65535 seg 33553920 policy 1",
	"why 14 lost 0",
	"status: status \"disabled\": reported, not to be probed (configuration from the tree only)",
	"compatible: \"renesas,sdhi-r8a7790\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x100 bytes at 0xee160000 (parent's cells 2+2)",
	"bus_shift: 0: register window 0x100 is not larger than 0x100 bytes (Gen2 and older rule)",
	"interrupt: interrupts <0x0 0xa8 0x4> = GIC SPI 168 (interrupt ID 200) level high: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: sysdmac: SYS-DMAC family, dma-names lists 2 tx and 2 rx channel(s)",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: 97500000 Hz from max-frequency",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: not merge-capable: the SoC table entry does not opt in",
	"blk_count: 16-bit block counter assumed until VERSION is read (32 bits from 0xcb0d); SoC limit 8388607 blocks",
	"dma: SYS-DMAC: 32 segments (TMIO default; the platform's channel caps decide at run time), even lengths and starts, 8 bytes minimum",
	NULL,
};

static const char *const g_h3[] = {
	"board r8a77951-salvator-xs model Renesas Salvator-X 2nd version board based on r8a77951 soc renesas,r8a7795 ncompat 2 rev 0",
	"/soc/mmc@ee100000 off 53644 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7795 backend idmac",
	"reg 0xee100000+0x2000 nreg 1 shift 2 irq 3 <0 a5 4 0>",
	"iommu listed 1 usable 1 phandle 0x34 id 0x20 dma tx 0 rx 0 width 4",
	"host bus 0x270c5 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0xee100000 bus 0x200c5 fmax 200000000",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 16 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a7795\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee100000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa5 0x4> = GIC SPI 165 (interrupt ID 197) level high: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x34 with master ID 0x20; H3 revision not given: assumed ES3.x, where the IPMMU serves SDHI (ES1.x/ES2.x cannot)",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 4 bits (bus-width 4)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: sd-uhs-sdr50, sd-uhs-sdr104",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: SD high speed: implied by the UHS-I modes listed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/soc/mmc@ee120000 off 54116 enabled 0 supported 1 error 0 compatible renesas,sdhi-r8a7795 backend idmac",
	"reg 0xee120000+0x2000 nreg 1 shift 2 irq 3 <0 a6 4 0>",
	"iommu listed 1 usable 1 phandle 0x34 id 0x21 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0xee120000 bus 0x0 fmax 200000000",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 14 lost 0",
	"status: status \"disabled\": reported, not to be probed (configuration from the tree only)",
	"compatible: \"renesas,sdhi-r8a7795\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee120000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa6 0x4> = GIC SPI 166 (interrupt ID 198) level high: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x34 with master ID 0x21; H3 revision not given: assumed ES3.x, where the IPMMU serves SDHI (ES1.x/ES2.x cannot)",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/soc/mmc@ee140000 off 54408 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7795 backend idmac",
	"reg 0xee140000+0x2000 nreg 1 shift 2 irq 3 <0 a7 4 0>",
	"iommu listed 1 usable 1 phandle 0x34 id 0x22 dma tx 0 rx 0 width 8",
	"host bus 0x2fc03 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0xee140000 bus 0x28c03 fmax 200000000",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 15 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a7795\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee140000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa7 0x4> = GIC SPI 167 (interrupt ID 199) level high: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x34 with master ID 0x22; H3 revision not given: assumed ES3.x, where the IPMMU serves SDHI (ES1.x/ES2.x cannot)",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 8 bits (bus-width 8; 4-bit also usable)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: mmc-hs200-1_8v, mmc-hs400-1_8v, non-removable",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/soc/mmc@ee160000 off 54896 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7795 backend idmac",
	"reg 0xee160000+0x2000 nreg 1 shift 2 irq 3 <0 a8 4 0>",
	"iommu listed 1 usable 1 phandle 0x34 id 0x23 dma tx 0 rx 0 width 4",
	"host bus 0x270c5 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0xee160000 bus 0x200c5 fmax 200000000",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 16 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a7795\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee160000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa8 0x4> = GIC SPI 168 (interrupt ID 200) level high: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x34 with master ID 0x23; H3 revision not given: assumed ES3.x, where the IPMMU serves SDHI (ES1.x/ES2.x cannot)",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 4 bits (bus-width 4)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: sd-uhs-sdr50, sd-uhs-sdr104",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: SD high speed: implied by the UHS-I modes listed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	NULL,
};

static const char *const g_m3n[] = {
	"board r8a77965-salvator-xs model Renesas Salvator-X 2nd version board based on r8a77965 soc renesas,r8a77965 ncompat 2 rev 0",
	"/soc/mmc@ee100000 off 47496 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0xee100000+0x2000 nreg 1 shift 2 irq 3 <0 a5 4 0>",
	"iommu listed 1 usable 1 phandle 0x28 id 0x20 dma tx 0 rx 0 width 4",
	"host bus 0x270c5 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0xee100000 bus 0x200c5 fmax 200000000",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 16 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee100000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa5 0x4> = GIC SPI 165 (interrupt ID 197) level high: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x28 with master ID 0x20; usable for SDHI on this SoC",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 4 bits (bus-width 4)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: sd-uhs-sdr50, sd-uhs-sdr104",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: SD high speed: implied by the UHS-I modes listed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/soc/mmc@ee120000 off 47972 enabled 0 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0xee120000+0x2000 nreg 1 shift 2 irq 3 <0 a6 4 0>",
	"iommu listed 1 usable 1 phandle 0x28 id 0x21 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0xee120000 bus 0x0 fmax 200000000",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 14 lost 0",
	"status: status \"disabled\": reported, not to be probed (configuration from the tree only)",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee120000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa6 0x4> = GIC SPI 166 (interrupt ID 198) level high: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x28 with master ID 0x21; usable for SDHI on this SoC",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/soc/mmc@ee140000 off 48268 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0xee140000+0x2000 nreg 1 shift 2 irq 3 <0 a7 4 0>",
	"iommu listed 1 usable 1 phandle 0x28 id 0x22 dma tx 0 rx 0 width 8",
	"host bus 0x2fc03 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0xee140000 bus 0x28c03 fmax 200000000",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 15 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee140000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa7 0x4> = GIC SPI 167 (interrupt ID 199) level high: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x28 with master ID 0x22; usable for SDHI on this SoC",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 8 bits (bus-width 8; 4-bit also usable)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: mmc-hs200-1_8v, mmc-hs400-1_8v, non-removable",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/soc/mmc@ee160000 off 48760 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a77965 backend idmac",
	"reg 0xee160000+0x2000 nreg 1 shift 2 irq 3 <0 a8 4 0>",
	"iommu listed 1 usable 1 phandle 0x28 id 0x23 dma tx 0 rx 0 width 4",
	"host bus 0x270c5 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0xee160000 bus 0x200c5 fmax 200000000",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 16 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a77965\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee160000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa8 0x4> = GIC SPI 168 (interrupt ID 200) level high: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x28 with master ID 0x23; usable for SDHI on this SoC",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 4 bits (bus-width 4)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: sd-uhs-sdr50, sd-uhs-sdr104",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: SD high speed: implied by the UHS-I modes listed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	NULL,
};

static const char *const g_spider[] = {
	"board r8a779f0-spider model Renesas Spider CPU and Breakout boards based on r8a779f0 soc renesas,r8a779f0 ncompat 3 rev 0",
	"/soc/mmc@ee140000 off 24844 enabled 1 supported 1 error 0 compatible renesas,rcar-gen4-sdhi backend idmac",
	"reg 0xee140000+0x2000 nreg 1 shift 2 irq 3 <0 ec 4 0>",
	"iommu listed 1 usable 1 phandle 0x2c id 0x20 dma tx 0 rx 0 width 8",
	"host bus 0x2fc03 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 1 page 4096 boundary 0xfff",
	"cfg rev 0 shift 2 reg_dma 0xee140000 bus 0x28c03 fmax 200000000",
	"limits 0: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 1: segs 512 merge 1 blks 8388607 seg 4294966784 policy 3",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 3",
	"why 15 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,rcar-gen4-sdhi\" is compatible string 2 of 2; the earlier ones have no SoC table entry",
	"reg: reg: 0x2000 bytes at 0xee140000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xec 0x4> = GIC SPI 236 (interrupt ID 268) level high: completion by interrupt",
	"iommu: iommus lists IOMMU phandle 0x2c with master ID 0x20; usable for SDHI on this SoC",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 8 bits (bus-width 8; 4-bit also usable)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: mmc-hs200-1_8v, mmc-hs400-1_8v, non-removable",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	NULL,
};

static const char *const g_smarc[] = {
	"board r9a07g044l2-smarc model Renesas SMARC EVK based on r9a07g044l2 soc renesas,r9a07g044 ncompat 3 rev 0",
	"/soc/mmc@11c00000 off 24132 enabled 1 supported 1 error 0 compatible renesas,rzg2l-sdhi backend idmac",
	"reg 0x11c00000+0x10000 nreg 1 shift 2 irq 3 <0 68 4 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 8",
	"host bus 0x2f403 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 2 reg_dma 0x11c00000 bus 0x28403 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,rzg2l-sdhi\" is compatible string 2 of 2; the earlier ones have no SoC table entry",
	"reg: reg: 0x10000 bytes at 0x11c00000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0x68 0x4> = GIC SPI 104 (interrupt ID 136) level high: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 8 bits (bus-width 8; 4-bit also usable)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: mmc-hs200-1_8v, non-removable",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: fixed address mode: the internal DMAC does not increment the address (DM_CM_DTRAN_MODE bit 0 clear)",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/soc/mmc@11c10000 off 24576 enabled 1 supported 1 error 0 compatible renesas,rzg2l-sdhi backend idmac",
	"reg 0x11c10000+0x10000 nreg 1 shift 2 irq 3 <0 6a 4 0>",
	"iommu listed 0 usable 0 phandle 0x0 id 0x0 dma tx 0 rx 0 width 4",
	"host bus 0x270c5 fmax 0 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 0 shift 2 reg_dma 0x11c10000 bus 0x200c5 fmax 0",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 17 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,rzg2l-sdhi\" is compatible string 2 of 2; the earlier ones have no SoC table entry",
	"reg: reg: 0x10000 bytes at 0x11c10000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0x6a 0x4> = GIC SPI 106 (interrupt ID 138) level high: completion by interrupt",
	"iommu: no iommus property: no IOMMU",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 4 bits (bus-width 4)",
	"f_max: no max-frequency: the controller's clock decides",
	"bus_caps: tree: sd-uhs-sdr50, sd-uhs-sdr104",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: SD high speed: implied by the UHS-I modes listed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: fixed address mode: the internal DMAC does not increment the address (DM_CM_DTRAN_MODE bit 0 clear)",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	NULL,
};

static const char *const g_h3_es11[] = {
	"board r8a77951-salvator-xs model Renesas Salvator-X 2nd version board based on r8a77951 soc renesas,r8a7795 ncompat 2 rev 1",
	"/soc/mmc@ee100000 off 53644 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7795 backend idmac",
	"reg 0xee100000+0x2000 nreg 1 shift 2 irq 3 <0 a5 4 0>",
	"iommu listed 1 usable 0 phandle 0x34 id 0x20 dma tx 0 rx 0 width 4",
	"host bus 0x270c5 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 1 shift 2 reg_dma 0xee100000 bus 0x200c5 fmax 200000000",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 18 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a7795\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee100000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa5 0x4> = GIC SPI 165 (interrupt ID 197) level high: completion by interrupt",
	"iommu: IOMMU listed in the tree but not usable for SDHI on renesas,r8a7795 ES1.1 (the IPMMU driver does not attach SDHI there)",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 4 bits (bus-width 4)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: sd-uhs-sdr50, sd-uhs-sdr104",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: SD high speed: implied by the UHS-I modes listed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/soc/mmc@ee120000 off 54116 enabled 0 supported 1 error 0 compatible renesas,sdhi-r8a7795 backend idmac",
	"reg 0xee120000+0x2000 nreg 1 shift 2 irq 3 <0 a6 4 0>",
	"iommu listed 1 usable 0 phandle 0x34 id 0x21 dma tx 0 rx 0 width 1",
	"host bus 0x7000 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 1 shift 2 reg_dma 0xee120000 bus 0x0 fmax 200000000",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 16 lost 0",
	"status: status \"disabled\": reported, not to be probed (configuration from the tree only)",
	"compatible: \"renesas,sdhi-r8a7795\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee120000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa6 0x4> = GIC SPI 166 (interrupt ID 198) level high: completion by interrupt",
	"iommu: IOMMU listed in the tree but not usable for SDHI on renesas,r8a7795 ES1.1 (the IPMMU driver does not attach SDHI there)",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 1 bit: no bus-width property, the binding default (the controller itself could drive 4)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: none",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/soc/mmc@ee140000 off 54408 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7795 backend idmac",
	"reg 0xee140000+0x2000 nreg 1 shift 2 irq 3 <0 a7 4 0>",
	"iommu listed 1 usable 0 phandle 0x34 id 0x22 dma tx 0 rx 0 width 8",
	"host bus 0x2fc03 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 1 shift 2 reg_dma 0xee140000 bus 0x28c03 fmax 200000000",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 17 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a7795\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee140000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa7 0x4> = GIC SPI 167 (interrupt ID 199) level high: completion by interrupt",
	"iommu: IOMMU listed in the tree but not usable for SDHI on renesas,r8a7795 ES1.1 (the IPMMU driver does not attach SDHI there)",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 8 bits (bus-width 8; 4-bit also usable)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: mmc-hs200-1_8v, mmc-hs400-1_8v, non-removable",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	"/soc/mmc@ee160000 off 54896 enabled 1 supported 1 error 0 compatible renesas,sdhi-r8a7795 backend idmac",
	"reg 0xee160000+0x2000 nreg 1 shift 2 irq 3 <0 a8 4 0>",
	"iommu listed 1 usable 0 phandle 0x34 id 0x23 dma tx 0 rx 0 width 4",
	"host bus 0x270c5 fmax 200000000 merge 1 cnt 32/8388607 blk 512 completion 0",
	"dma kind 1",
	"to: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 0",
	"from: bits 32 align 128 granule 0 segs 1 seg 4294967295 min 4294967295",
	"iommu present 0 page 0 boundary 0x0",
	"cfg rev 1 shift 2 reg_dma 0xee160000 bus 0x200c5 fmax 200000000",
	"limits 0: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 1: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"limits 2: segs 1 merge 0 blks 8388607 seg 4294966784 policy 1",
	"why 18 lost 0",
	"status: status \"okay\": enabled",
	"compatible: \"renesas,sdhi-r8a7795\" is compatible string 1 of 2, the first the SoC table knows",
	"reg: reg: 0x2000 bytes at 0xee160000 (parent's cells 2+2)",
	"bus_shift: 2: Gen3/Gen4/RZ controllers space their registers 4 bytes apart",
	"interrupt: interrupts <0x0 0xa8 0x4> = GIC SPI 168 (interrupt ID 200) level high: completion by interrupt",
	"iommu: IOMMU listed in the tree but not usable for SDHI on renesas,r8a7795 ES1.1 (the IPMMU driver does not attach SDHI there)",
	"backend: idmac: the table entry has the internal DMAC",
	"bus_width: 4 bits (bus-width 4)",
	"f_max: 200000000 Hz from max-frequency",
	"bus_caps: tree: sd-uhs-sdr50, sd-uhs-sdr104",
	"bus_caps: 1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v",
	"bus_caps: SD high speed: implied by the UHS-I modes listed",
	"bus_caps: every SDHI: hardware busy detection, CMD23, auto CMD12",
	"quirk: old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 (H3 ES1.x, M3-W ES1.0)",
	"quirk: one internal-DMAC read channel per SoC: reads go PIO",
	"merge: merge-capable: the SoC table entry opts in to merging behind an IOMMU",
	"blk_count: 32-bit block counter (VERSION 0xcc10 and later); SoC limit 8388607 blocks",
	"dma: internal DMAC: 1 segment(s) per transfer, 32-bit addresses, 128-byte aligned starts",
	NULL,
};

static const char *const edge_golden[] = {
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

struct golden {
	const char *board;
	const char *rev;
	const char *const *lines;
};

static const struct golden golden[] = {
	{"r8a73a4-ape6evm", NULL, g_ape6evm},         {"r8a7790-lager", NULL, g_lager},
	{"r8a77951-salvator-xs", NULL, g_h3},         {"r8a77965-salvator-xs", NULL, g_m3n},
	{"r8a779f0-spider", NULL, g_spider},          {"r9a07g044l2-smarc", NULL, g_smarc},
	{"r8a77951-salvator-xs", "ES1.1", g_h3_es11},
};

/* @p got, split at its newlines, is exactly the lines of @p want. */
static void assert_text(const char *got, const char *const *want)
{
	size_t line = 0, len;
	const char *nl;

	for (; want[line] != NULL; line++) {
		nl = strchr(got, '\n');
		if (nl == NULL)
			fail_msg("line %zu missing, want: %s", line + 1, want[line]);
		len = (size_t)(nl - got);
		if (len != strlen(want[line]) || memcmp(got, want[line], len) != 0)
			fail_msg("line %zu differs:\n got: %.*s\nwant: %s", line + 1, (int)len, got,
				 want[line]);
		got = nl + 1;
	}
	if (*got != '\0')
		fail_msg("line %zu: more than expected: %.200s", line + 1, got);
}

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
static unsigned char *edge2_tree(size_t *size)
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
static const char *const edge2_golden[] = {
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

static void test_edge_tree_exactly(void **state)
{
	static struct out o;
	size_t size;
	unsigned char *blob = edge_tree(&size);

	(void)state;
	describe_blob(&o, "edge", blob, size, "ES1.1");
	assert_text(o.buf, edge_golden);
	free(blob);
	blob = edge2_tree(&size);
	describe_blob(&o, "edge2", blob, size, "ES1.0");
	assert_text(o.buf, edge2_golden);
	free(blob);
}

static void test_every_node_exactly(void **state)
{
	static struct out o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		print_message("%s\n", golden[i].board);
		describe_board(&o, golden[i].board, golden[i].rev);
		assert_text(o.buf, golden[i].lines);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_node_exactly),
		cmocka_unit_test(test_edge_tree_exactly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
