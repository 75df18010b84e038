/**
 * @file
 * @brief Derivation of one SDHI node: table entry, register window, interrupt,
 *        IOMMU, DMA, bus capabilities, host capabilities and limits.
 *
 * Property meanings: the MMC controller binding (mmc-controller.yaml:
 * bus-width default 1, max-frequency, cap-*, mmc-*, sd-uhs-*, no-1-8-v,
 * non-removable, broken-cd), the Renesas SDHI binding (renesas,sdhi.yaml) and
 * the Devicetree Specification v0.4 (2.3.5 #address-cells default 2,
 * #size-cells default 1; 2.4 interrupts).
 *
 * Locking: none; any context.
 */
#include <mmchal/dt.h>
#include <mmchal/error.h>

#include "core/mem.h"
#include "dt/dt_node.h"
#include "dt/dt_why.h"

/* IPMMU page as Linux maps SDHI buffers (4 KiB granule). */
#define IOMMU_PAGE 4096u

bool mmchal_dt_streq_(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

uint32_t mmchal_dt_board_n_(const struct mmchal_dt_board *b)
{
	return b->ncompat > MMCHAL_DT_BOARD_MAX ? MMCHAL_DT_BOARD_MAX + 1u : b->ncompat;
}

const char *mmchal_dt_board_compat_(const struct mmchal_dt_board *b, uint32_t i)
{
	return i < MMCHAL_DT_BOARD_MAX ? b->compat[i] : b->soc;
}

static bool starts_with(const char *s, uint32_t len, const char *prefix)
{
	uint32_t i;

	for (i = 0; prefix[i] != '\0'; i++) {
		if (i >= len || s[i] != prefix[i])
			return false;
	}
	return true;
}

static bool ends_with(const char *s, uint32_t len, const char *suffix)
{
	uint32_t n = 0;

	while (suffix[n] != '\0')
		n++;
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static bool named_like_sdhi(const char *s, uint32_t len)
{
	return starts_with(s, len, "renesas,sdhi-") ||
	       (starts_with(s, len, "renesas,") && ends_with(s, len, "-sdhi"));
}

bool mmchal_dt_is_sdhi_(const struct mmchal_fdt_ *f, uint32_t node)
{
	uint32_t len, i, slen, n, off = 0;
	const uint8_t *p = mmchal_fdt_getprop_(f, node, "compatible", &len);
	const char *s;

	n = mmchal_fdt_stringlist_count_(p, len);
	for (i = 0; i < n; i++) {
		s = mmchal_fdt_stringlist_next_(p, len, &off, &slen);
		if (s != NULL && (mmchal_sdhi_soc_lookup(s) != NULL || named_like_sdhi(s, slen)))
			return true;
	}
	return false;
}

/* ---------------------------------------------------------------- helpers */

struct why_ {
	struct mmchal_strbuf_ sb;
	char spare[MMCHAL_DT_WHY_LEN];
};

static struct mmchal_strbuf_ *why(struct mmchal_dt_node *n, enum mmchal_dt_fact fact,
				  struct why_ *w)
{
	return mmchal_dt_why_begin_(n, fact, &w->sb, w->spare);
}

static void node_error(struct mmchal_dt_node *n, int err, enum mmchal_dt_fact fact,
		       const char *prop, const char *what)
{
	struct why_ w;
	struct mmchal_strbuf_ *sb = why(n, fact, &w);

	if (n->error == 0)
		n->error = err;
	mmchal_sb_puts_(sb, "error: ");
	mmchal_sb_puts_(sb, prop);
	mmchal_sb_puts_(sb, " ");
	mmchal_sb_puts_(sb, what);
}

static uint64_t read_cells(const uint8_t *p, uint32_t cells)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < cells; i++)
		v = (v << 32) | mmchal_fdt_be32_(p + (size_t)4u * i);
	return v;
}

/* A cell-count property of node @p at (#address-cells and friends), or @p dflt. */
static int cells_of(const struct mmchal_fdt_ *f, uint32_t at, const char *name, uint32_t dflt,
		    uint32_t *out)
{
	int rc = mmchal_fdt_getu32_(f, at, name, out);

	if (rc == MMCHAL_ENOENT) {
		*out = dflt;
		return 0;
	}
	return rc;
}

/* ---------------------------------------------------------------- steps */

static void read_status(const struct mmchal_fdt_ *f, uint32_t node, struct mmchal_dt_node *n)
{
	uint32_t len;
	const uint8_t *p = mmchal_fdt_getprop_(f, node, "status", &len);
	struct why_ w;
	struct mmchal_strbuf_ *sb;

	if (p == NULL) {
		n->enabled = true;
		mmchal_dt_why_(n, MMCHAL_DT_FACT_STATUS,
			       "no status property: okay (DT spec 2.3.4)");
		return;
	}
	if (!mmchal_fdt_stringlist_ok_(p, len)) {
		node_error(n, MMCHAL_EPROTO, MMCHAL_DT_FACT_STATUS, "status",
			   "is not a NUL-terminated string: node not enabled");
		return;
	}
	n->enabled = mmchal_dt_streq_((const char *)p, "okay") ||
		     mmchal_dt_streq_((const char *)p, "ok");
	sb = why(n, MMCHAL_DT_FACT_STATUS, &w);
	mmchal_sb_puts_(sb, "status \"");
	mmchal_sb_puts_(sb, (const char *)p);
	mmchal_sb_puts_(sb, n->enabled ? "\": enabled"
				       : "\": reported, not to be probed (configuration from the "
					 "tree only)");
}

/* Earliest compatible with a table entry (Linux of_match rule). */
static bool match_compatible(const struct mmchal_fdt_ *f, uint32_t node, struct mmchal_dt_node *n)
{
	uint32_t len, i, cnt, off = 0;
	const uint8_t *p = mmchal_fdt_getprop_(f, node, "compatible", &len);
	struct why_ w;
	struct mmchal_strbuf_ *sb;

	cnt = mmchal_fdt_stringlist_count_(p, len);
	for (i = 0; i < cnt; i++) {
		const char *s = mmchal_fdt_stringlist_next_(p, len, &off, NULL);
		const struct mmchal_sdhi_soc *soc = mmchal_sdhi_soc_lookup(s);

		if (soc == NULL)
			continue;
		n->soc = soc;
		n->compatible = s;
		n->supported = true;
		sb = why(n, MMCHAL_DT_FACT_COMPATIBLE, &w);
		mmchal_sb_puts_(sb, "\"");
		mmchal_sb_puts_(sb, s);
		mmchal_sb_puts_(sb, "\" is compatible string ");
		mmchal_sb_putu_(sb, i + 1u);
		mmchal_sb_puts_(sb, " of ");
		mmchal_sb_putu_(sb, cnt);
		mmchal_sb_puts_(sb, i == 0 ? ", the first the SoC table knows"
					   : "; the earlier ones have no SoC table entry");
		return true;
	}
	n->compatible = mmchal_fdt_stringlist_get_(p, len, 0, NULL);
	mmchal_dt_why_(n, MMCHAL_DT_FACT_COMPATIBLE,
		       "unsupported: no compatible string of this node is in the SoC table "
		       "(not guessed from a similar one)");
	return false;
}

static bool read_reg(const struct mmchal_dt_walk_ *w, uint32_t depth, struct mmchal_dt_node *n)
{
	const struct mmchal_fdt_ *f = w->f;
	uint32_t node = w->stack[depth], parent = w->stack[depth - 1u];
	uint32_t ac, sc, len, entry;
	const uint8_t *p;
	struct why_ wh;
	struct mmchal_strbuf_ *sb;

	if (cells_of(f, parent, "#address-cells", 2u, &ac) != 0 ||
	    cells_of(f, parent, "#size-cells", 1u, &sc) != 0) {
		node_error(n, MMCHAL_EPROTO, MMCHAL_DT_FACT_REG, "the parent's #address-cells",
			   "or #size-cells is not one cell");
		return false;
	}
	if (ac == 0 || ac > 2u || sc == 0 || sc > 2u) {
		node_error(n, MMCHAL_ERANGE, MMCHAL_DT_FACT_REG, "the parent's #address-cells",
			   "or #size-cells is outside 1..2: no 64-bit register window");
		return false;
	}
	entry = 4u * (ac + sc);
	p = mmchal_fdt_getprop_(f, node, "reg", &len);
	if (p == NULL) {
		node_error(n, MMCHAL_EPROTO, MMCHAL_DT_FACT_REG, "reg", "is missing");
		return false;
	}
	if (len == 0 || len % entry != 0) {
		sb = why(n, MMCHAL_DT_FACT_REG, &wh);
		n->error = MMCHAL_EPROTO;
		mmchal_sb_puts_(sb, "error: reg is ");
		mmchal_sb_putu_(sb, len);
		mmchal_sb_puts_(sb, " bytes, not a multiple of ");
		mmchal_sb_putu_(sb, entry);
		mmchal_sb_puts_(sb, " (parent #address-cells ");
		mmchal_sb_putu_(sb, ac);
		mmchal_sb_puts_(sb, ", #size-cells ");
		mmchal_sb_putu_(sb, sc);
		mmchal_sb_puts_(sb, ")");
		return false;
	}
	n->nreg = len / entry;
	n->reg_addr = read_cells(p, ac);
	n->reg_size = read_cells(p + (size_t)4u * ac, sc);
	if (n->reg_size == 0) {
		node_error(n, MMCHAL_EPROTO, MMCHAL_DT_FACT_REG, "reg", "has a zero-sized window");
		return false;
	}
	sb = why(n, MMCHAL_DT_FACT_REG, &wh);
	mmchal_sb_puts_(sb, "reg: ");
	mmchal_sb_puthex_(sb, n->reg_size);
	mmchal_sb_puts_(sb, " bytes at ");
	mmchal_sb_puthex_(sb, n->reg_addr);
	mmchal_sb_puts_(sb, " (parent's cells ");
	mmchal_sb_putu_(sb, ac);
	mmchal_sb_puts_(sb, "+");
	mmchal_sb_putu_(sb, sc);
	mmchal_sb_puts_(sb, n->nreg > 1u ? "; further entries not used)" : ")");
	return true;
}

static void derive_bus_shift(struct mmchal_dt_node *n)
{
	struct why_ w;
	struct mmchal_strbuf_ *sb;
	int shift = mmchal_sdhi_bus_shift(n->soc, n->reg_size);

	n->bus_shift = (uint8_t)(shift < 0 ? 0 : shift);
	sb = why(n, MMCHAL_DT_FACT_BUS_SHIFT, &w);
	mmchal_sb_putu_(sb, n->bus_shift);
	if (n->soc->shift == MMCHAL_SDHI_SHIFT_FIXED_2) {
		mmchal_sb_puts_(sb, ": Gen3/Gen4/RZ controllers space their registers 4 bytes "
				    "apart");
		return;
	}
	mmchal_sb_puts_(sb, ": register window ");
	mmchal_sb_puthex_(sb, n->reg_size);
	mmchal_sb_puts_(sb, n->bus_shift ? " is larger than 0x100 bytes"
					 : " is not larger than "
					   "0x100 bytes");
	mmchal_sb_puts_(sb, " (Gen2 and older rule)");
}

/*
 * The interrupt parent (DT spec 2.4.1): the node an interrupt-parent property
 * names; without one, the devicetree parent, when it is an interrupt
 * controller (has #interrupt-cells), else the search goes on from there, as
 * Linux of_irq_find_parent() does. The usual tree has one interrupt-parent at
 * the root and no #interrupt-cells on the buses in between.
 */
static bool interrupt_parent(struct mmchal_dt_walk_ *w, uint32_t depth, uint32_t *ip)
{
	uint32_t d = depth, ph, node;

	for (;;) {
		int rc = mmchal_fdt_getu32_(w->f, w->stack[d], "interrupt-parent", &ph);

		if (rc == MMCHAL_ENOENT) {
			if (d == 0)
				return false; /* the root: no interrupt parent */
			d--;
			if (mmchal_fdt_hasprop_(w->f, w->stack[d], "#interrupt-cells")) {
				*ip = w->stack[d];
				return true;
			}
			continue;
		}
		if (rc != 0)
			return false;
		/* Nodes share their interrupt controller: one scan serves them all.
		   Scans are budgeted, so a tree of many nodes with distinct parents
		   costs at most MMCHAL_DT_PHANDLE_SCANS_ passes over the blob. */
		if (w->ph_valid && w->ph_last == ph) {
			*ip = w->ph_node;
			return true;
		}
		if (w->ph_scans >= MMCHAL_DT_PHANDLE_SCANS_)
			return false;
		w->ph_scans++;
		if (mmchal_fdt_by_phandle_(w->f, ph, &node) != 0)
			return false;
		w->ph_valid = true;
		w->ph_last = ph;
		w->ph_node = node;
		*ip = node;
		return true;
	}
}

/* An Arm GIC ("arm,gic-400", "arm,cortex-a15-gic", "arm,gic-v3", ...). */
static bool is_arm_gic(const struct mmchal_fdt_ *f, uint32_t node)
{
	uint32_t len, i, slen, cnt, off = 0;
	const uint8_t *p = mmchal_fdt_getprop_(f, node, "compatible", &len);

	cnt = mmchal_fdt_stringlist_count_(p, len);
	for (i = 0; i < cnt; i++) {
		const char *s = mmchal_fdt_stringlist_next_(p, len, &off, &slen);

		if (starts_with(s, slen, "arm,") &&
		    (ends_with(s, slen, "-gic") || starts_with(s, slen, "arm,gic-")))
			return true;
	}
	return false;
}

/*
 * The three GIC cells (arm,gic.yaml): type (0 SPI, 1 PPI), number, flags
 * (1 rising edge, 2 falling edge, 4 level high, 8 level low). SPIs start at
 * interrupt ID 32, PPIs at 16.
 */
static void put_gic(struct mmchal_strbuf_ *sb, const uint32_t *c)
{
	static const char *const trig[] = {
		"", " rising edge", " falling edge", "", " level high", "", "", "", " level low"};

	if (c[0] > 1u || c[1] > 1020u)
		return;
	mmchal_sb_puts_(sb, c[0] == 0 ? " = GIC SPI " : " = GIC PPI ");
	mmchal_sb_putu_(sb, c[1]);
	mmchal_sb_puts_(sb, " (interrupt ID ");
	mmchal_sb_putu_(sb, c[1] + (c[0] == 0 ? 32u : 16u));
	mmchal_sb_puts_(sb, ")");
	if ((c[2] & 0xfu) <= 8u)
		mmchal_sb_puts_(sb, trig[c[2] & 0xfu]);
}

static void read_interrupt(struct mmchal_dt_walk_ *w, uint32_t depth, struct mmchal_dt_node *n)
{
	const struct mmchal_fdt_ *f = w->f;
	uint32_t len, ip = 0, cells = 0, i;
	const uint8_t *p = mmchal_fdt_getprop_(f, w->stack[depth], "interrupts", &len);
	struct why_ wh;
	struct mmchal_strbuf_ *sb;
	bool known;

	if (p == NULL) {
		mmchal_dt_why_(n, MMCHAL_DT_FACT_INTERRUPT,
			       "no interrupts property: completion by polling");
		return;
	}
	known = interrupt_parent(w, depth, &ip) &&
		mmchal_fdt_getu32_(f, ip, "#interrupt-cells", &cells) == 0 && cells > 0 &&
		cells <= MMCHAL_DT_IRQ_CELLS;
	if (!known)
		cells = len / 4u < MMCHAL_DT_IRQ_CELLS ? len / 4u : MMCHAL_DT_IRQ_CELLS;
	if (len == 0 || len % 4u != 0 || (known && len % (4u * cells) != 0)) {
		node_error(n, MMCHAL_EPROTO, MMCHAL_DT_FACT_INTERRUPT, "interrupts",
			   "is not a whole number of interrupt specifiers");
		return;
	}
	n->irq_ncells = (uint8_t)cells;
	for (i = 0; i < cells; i++)
		n->irq[i] = mmchal_fdt_be32_(p + (size_t)4u * i);
	sb = why(n, MMCHAL_DT_FACT_INTERRUPT, &wh);
	mmchal_sb_puts_(sb, "interrupts <");
	for (i = 0; i < cells; i++) {
		if (i > 0)
			mmchal_sb_putc_(sb, ' ');
		mmchal_sb_puthex_(sb, n->irq[i]);
	}
	mmchal_sb_putc_(sb, '>');
	if (known && cells == 3u && is_arm_gic(f, ip))
		put_gic(sb, n->irq);
	mmchal_sb_puts_(sb, known ? ": completion by interrupt"
				  : ": completion by interrupt (interrupt parent's "
				    "#interrupt-cells not found: cells shown as listed)");
}

static void read_iommu(const struct mmchal_dt_walk_ *w, uint32_t depth, struct mmchal_dt_node *n)
{
	const struct mmchal_dt_board *b = &w->board;
	uint32_t len, i;
	const uint8_t *p = mmchal_fdt_getprop_(w->f, w->stack[depth], "iommus", &len);
	const char *denied = NULL;
	struct why_ wh;
	struct mmchal_strbuf_ *sb;

	if (p == NULL) {
		mmchal_dt_why_(n, MMCHAL_DT_FACT_IOMMU, "no iommus property: no IOMMU");
		return;
	}
	if (len == 0 || len % 4u != 0) {
		node_error(n, MMCHAL_EPROTO, MMCHAL_DT_FACT_IOMMU, "iommus",
			   "is not a list of cells");
		return;
	}
	n->iommu_listed = true;
	n->iommu_phandle = mmchal_fdt_be32_(p);
	if (len >= 8u)
		n->iommu_id = mmchal_fdt_be32_(p + 4u);
	/* Usable unless a root compatible names a SoC whose IPMMU does not serve SDHI. */
	for (i = 0; i < mmchal_dt_board_n_(b); i++) {
		if (!mmchal_sdhi_iommu_usable(mmchal_dt_board_compat_(b, i), b->rev)) {
			denied = mmchal_dt_board_compat_(b, i);
			break;
		}
	}
	n->iommu_usable = denied == NULL;
	sb = why(n, MMCHAL_DT_FACT_IOMMU, &wh);
	if (denied != NULL) {
		mmchal_sb_puts_(sb, "IOMMU listed in the tree but not usable for SDHI on ");
		mmchal_sb_puts_(sb, denied);
		if (b->rev != MMCHAL_SDHI_REV_UNKNOWN) {
			mmchal_sb_puts_(sb, " ES");
			mmchal_sb_putu_(sb, b->rev_major);
			mmchal_sb_putc_(sb, '.');
			mmchal_sb_putu_(sb, b->rev_minor);
		}
		mmchal_sb_puts_(sb, " (the IPMMU driver does not attach SDHI there)");
		return;
	}
	mmchal_sb_puts_(sb, "iommus lists IOMMU phandle ");
	mmchal_sb_puthex_(sb, n->iommu_phandle);
	mmchal_sb_puts_(sb, " with master ID ");
	mmchal_sb_puthex_(sb, n->iommu_id);
	for (i = 0; i < mmchal_dt_board_n_(b); i++) {
		if (mmchal_dt_streq_(mmchal_dt_board_compat_(b, i), "renesas,r8a7795") &&
		    b->rev == MMCHAL_SDHI_REV_UNKNOWN) {
			mmchal_sb_puts_(sb, "; H3 revision not given: assumed ES3.x, where the "
					    "IPMMU serves SDHI (ES1.x/ES2.x cannot)");
			return;
		}
	}
	mmchal_sb_puts_(sb, "; usable for SDHI on this SoC");
}

static void read_dmas(const struct mmchal_dt_walk_ *w, uint32_t depth, struct mmchal_dt_node *n)
{
	const struct mmchal_fdt_ *f = w->f;
	uint32_t len, nlen, i, cnt, off = 0;
	bool have = mmchal_fdt_getprop_(f, w->stack[depth], "dmas", &len) != NULL;
	const uint8_t *names = mmchal_fdt_getprop_(f, w->stack[depth], "dma-names", &nlen);

	if (!have)
		return;
	cnt = mmchal_fdt_stringlist_count_(names, nlen);
	for (i = 0; i < cnt; i++) {
		const char *s = mmchal_fdt_stringlist_next_(names, nlen, &off, NULL);

		if (mmchal_dt_streq_(s, "tx") && n->dma_tx < UINT8_MAX)
			n->dma_tx++;
		else if (mmchal_dt_streq_(s, "rx") && n->dma_rx < UINT8_MAX)
			n->dma_rx++;
	}
}

static void choose_backend(struct mmchal_dt_node *n)
{
	struct why_ w;
	struct mmchal_strbuf_ *sb = why(n, MMCHAL_DT_FACT_BACKEND, &w);

	switch (n->soc->kind) {
	case MMCHAL_SDHI_IDMAC:
		n->backend = MMCHAL_DT_BACKEND_IDMAC;
		mmchal_sb_puts_(sb, "idmac: the table entry has the internal DMAC");
		return;
	case MMCHAL_SDHI_SYSDMAC:
		if (n->dma_tx > 0 && n->dma_rx > 0) {
			n->backend = MMCHAL_DT_BACKEND_SYSDMAC;
			mmchal_sb_puts_(sb, "sysdmac: SYS-DMAC family, dma-names lists ");
			mmchal_sb_putu_(sb, n->dma_tx);
			mmchal_sb_puts_(sb, " tx and ");
			mmchal_sb_putu_(sb, n->dma_rx);
			mmchal_sb_puts_(sb, " rx channel(s)");
			return;
		}
		n->backend = MMCHAL_DT_BACKEND_PIO;
		mmchal_sb_puts_(sb,
				n->dma_tx == 0 && n->dma_rx == 0
					? "pio: SYS-DMAC family but no dmas with tx and rx names"
					: "pio: SYS-DMAC family but dmas lacks a tx or an rx "
					  "channel");
		return;
	case MMCHAL_SDHI_PIO:
	default:
		n->backend = MMCHAL_DT_BACKEND_PIO;
		mmchal_sb_puts_(sb, "pio: the table entry has no DMA");
		return;
	}
}

struct bool_prop {
	const char *name;
	uint32_t bit;
};

/* mmc-controller.yaml boolean properties -> MMCHAL_BUS_* bits. */
static const struct bool_prop bus_props[] = {
	{"cap-sd-highspeed", MMCHAL_BUS_SD_HS},     {"cap-mmc-highspeed", MMCHAL_BUS_MMC_HS},
	{"sd-uhs-sdr12", MMCHAL_BUS_UHS_SDR12},     {"sd-uhs-sdr25", MMCHAL_BUS_UHS_SDR25},
	{"sd-uhs-sdr50", MMCHAL_BUS_UHS_SDR50},     {"sd-uhs-sdr104", MMCHAL_BUS_UHS_SDR104},
	{"sd-uhs-ddr50", MMCHAL_BUS_UHS_DDR50},     {"mmc-ddr-1_8v", MMCHAL_BUS_MMC_DDR52},
	{"mmc-hs200-1_8v", MMCHAL_BUS_HS200},       {"mmc-hs400-1_8v", MMCHAL_BUS_HS400},
	{"non-removable", MMCHAL_BUS_NONREMOVABLE}, {"broken-cd", MMCHAL_BUS_BROKEN_CD},
	{"cap-sdio-irq", MMCHAL_BUS_SDIO_IRQ},      {"cap-mmc-hw-reset", MMCHAL_BUS_HW_RESET},
};

#define BUS_UHS                                                               \
	(MMCHAL_BUS_UHS_SDR12 | MMCHAL_BUS_UHS_SDR25 | MMCHAL_BUS_UHS_SDR50 | \
	 MMCHAL_BUS_UHS_SDR104 | MMCHAL_BUS_UHS_DDR50)
#define BUS_1V8_MODES (BUS_UHS | MMCHAL_BUS_MMC_DDR52 | MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400)

static void put_bus_bits(struct mmchal_strbuf_ *sb, uint32_t bits)
{
	size_t i;
	bool first = true;

	for (i = 0; i < sizeof(bus_props) / sizeof(bus_props[0]); i++) {
		if ((bits & bus_props[i].bit) == 0)
			continue;
		mmchal_sb_puts_(sb, first ? "" : ", ");
		mmchal_sb_puts_(sb, bus_props[i].name);
		first = false;
	}
	if (first)
		mmchal_sb_puts_(sb, "none");
}

/* bus-width, the boolean properties, max-frequency; returns the tree's bus bits. */
static bool read_bus(const struct mmchal_fdt_ *f, uint32_t node, struct mmchal_dt_node *n,
		     uint32_t *tree_bits)
{
	uint32_t bw = 1, bits = 0, fmax = 0;
	size_t i;
	int rc;
	struct why_ w;
	struct mmchal_strbuf_ *sb;

	rc = mmchal_fdt_getu32_(f, node, "bus-width", &bw);
	if (rc == MMCHAL_EPROTO || (rc == 0 && bw != 1 && bw != 4 && bw != 8)) {
		node_error(n, MMCHAL_EPROTO, MMCHAL_DT_FACT_BUS_WIDTH, "bus-width",
			   "is not one cell of 1, 4 or 8");
		return false;
	}
	n->bus_width = (uint8_t)bw;
	if (bw == 8)
		bits |= MMCHAL_BUS_8_BIT | MMCHAL_BUS_4_BIT;
	else if (bw == 4)
		bits |= MMCHAL_BUS_4_BIT;
	sb = why(n, MMCHAL_DT_FACT_BUS_WIDTH, &w);
	if (rc == MMCHAL_ENOENT) {
		mmchal_sb_puts_(sb, "1 bit: no bus-width property, the binding default "
				    "(the controller itself could drive 4)");
	} else {
		mmchal_sb_putu_(sb, bw);
		mmchal_sb_puts_(sb,
				bw == 8 ? " bits (bus-width 8; 4-bit also usable)"
					: (bw == 4 ? " bits (bus-width 4)" : " bit (bus-width 1)"));
	}

	for (i = 0; i < sizeof(bus_props) / sizeof(bus_props[0]); i++) {
		if (mmchal_fdt_hasprop_(f, node, bus_props[i].name))
			bits |= bus_props[i].bit;
	}

	rc = mmchal_fdt_getu32_(f, node, "max-frequency", &fmax);
	if (rc == MMCHAL_EPROTO) {
		node_error(n, MMCHAL_EPROTO, MMCHAL_DT_FACT_FREQUENCY, "max-frequency",
			   "is not one cell");
		return false;
	}
	n->caps.host.f_max_hz = fmax;
	sb = why(n, MMCHAL_DT_FACT_FREQUENCY, &w);
	if (rc == MMCHAL_ENOENT) {
		mmchal_sb_puts_(sb, "no max-frequency: the controller's clock decides");
	} else {
		mmchal_sb_putu_(sb, fmax);
		mmchal_sb_puts_(sb, " Hz from max-frequency");
	}
	*tree_bits = bits;
	return true;
}

/*
 * The board's bus bits (what the backend configuration carries): the tree's,
 * with no-1-8-v applied and what the listed modes imply. Then the host's: what
 * the controller adds and removes, as the SDHI backends' get_caps does.
 */
static uint32_t derive_bus(const struct mmchal_fdt_ *f, uint32_t node, struct mmchal_dt_node *n,
			   uint32_t *board_bits, uint32_t soc_flags)
{
	uint32_t bits = *board_bits;
	struct why_ w;
	struct mmchal_strbuf_ *sb;

	sb = why(n, MMCHAL_DT_FACT_BUS_CAPS, &w);
	mmchal_sb_puts_(sb, "tree: ");
	put_bus_bits(sb, bits);

	if (mmchal_fdt_hasprop_(f, node, "no-1-8-v")) {
		if (bits & BUS_1V8_MODES)
			mmchal_dt_why_(n, MMCHAL_DT_FACT_BUS_CAPS,
				       "no-1-8-v: UHS-I, DDR52, HS200 and HS400 dropped");
		else
			mmchal_dt_why_(n, MMCHAL_DT_FACT_BUS_CAPS,
				       "no-1-8-v: the slot stays at 3.3 V");
		bits &= ~BUS_1V8_MODES;
	} else if (bits & BUS_1V8_MODES) {
		bits |= MMCHAL_BUS_1_8V;
		mmchal_dt_why_(n, MMCHAL_DT_FACT_BUS_CAPS,
			       "1.8 V signalling: a 1.8 V mode is listed and no no-1-8-v");
	}
	if ((bits & BUS_UHS) && (bits & MMCHAL_BUS_SD_HS) == 0) {
		bits |= MMCHAL_BUS_SD_HS;
		mmchal_dt_why_(n, MMCHAL_DT_FACT_BUS_CAPS,
			       "SD high speed: implied by the UHS-I modes listed");
	}
	*board_bits = bits;

	if ((bits & MMCHAL_BUS_HS400) && (soc_flags & MMCHAL_SDHI_F_HS400) == 0) {
		bits &= ~MMCHAL_BUS_HS400;
		mmchal_dt_why_(n, MMCHAL_DT_FACT_BUS_CAPS,
			       "mmc-hs400-1_8v dropped: the SoC table entry has no HS400");
	}
	/*
	 * What the SDHI backends add for every controller (their get_caps):
	 * "All SDHI support HW busy detection" (Linux MMC_CAP_WAIT_WHILE_BUSY);
	 * CMD23 and automatic CMD12 are in every Linux of_data.
	 */
	bits |= MMCHAL_BUS_HW_BUSY | MMCHAL_BUS_CMD23 | MMCHAL_BUS_AUTO_CMD12;
	mmchal_dt_why_(n, MMCHAL_DT_FACT_BUS_CAPS,
		       "every SDHI: hardware busy detection, CMD23, auto CMD12");
	return bits;
}

static void apply_quirks(struct mmchal_dt_node *n, enum mmchal_sdhi_rev rev,
			 const struct mmchal_dt_board *b)
{
	uint32_t added = mmchal_sdhi_rev_flags(rev);
	struct why_ w;
	struct mmchal_strbuf_ *sb;

	if (b->rev_major != 0 && rev == MMCHAL_SDHI_REV_UNKNOWN) {
		sb = why(n, MMCHAL_DT_FACT_QUIRK, &w);
		mmchal_sb_puts_(sb, "SoC revision ES");
		mmchal_sb_putu_(sb, b->rev_major);
		mmchal_sb_putc_(sb, '.');
		mmchal_sb_putu_(sb, b->rev_minor);
		mmchal_sb_puts_(sb, ": no revision quirk is known for this SoC");
	}
	if (n->backend != MMCHAL_DT_BACKEND_IDMAC)
		return;
	if (added & MMCHAL_SDHI_F_OLD_INFO1)
		mmchal_dt_why_(n, MMCHAL_DT_FACT_QUIRK,
			       "old DMAC status layout: read-channel end at DM_CM_INFO1 bit 17 "
			       "(H3 ES1.x, M3-W ES1.0)");
	if (added & MMCHAL_SDHI_F_ONE_RX_ONLY)
		mmchal_dt_why_(n, MMCHAL_DT_FACT_QUIRK,
			       "one internal-DMAC read channel per SoC: reads go PIO");
	if (n->soc->flags & MMCHAL_SDHI_F_FIXED_ADDR)
		mmchal_dt_why_(n, MMCHAL_DT_FACT_QUIRK,
			       "fixed address mode: the internal DMAC does not increment the "
			       "address (DM_CM_DTRAN_MODE bit 0 clear)");
}

static void fill_dma_caps(struct mmchal_dt_node *n, uint32_t flags)
{
	struct mmchal_dma_caps *d = &n->caps.dma;
	struct why_ w;
	struct mmchal_strbuf_ *sb;
	unsigned int i;

	for (i = 0; i < MMCHAL_DIR_COUNT; i++) {
		struct mmchal_dma_dir_caps *c = &d->dir[i];

		c->max_segs = n->soc->max_segs;
		c->max_seg_size = UINT32_MAX;
		if (n->backend == MMCHAL_DT_BACKEND_IDMAC) {
			/* Gen3 drives 32-bit addresses (U-Boot, Zephyr); start aligned to
			   128 bytes (Linux since Dec 2020). */
			c->addr_bits = 32;
			c->addr_align = 128;
		} else if (n->backend == MMCHAL_DT_BACKEND_SYSDMAC) {
			/* Linux renesas_sdhi_sys_dmac: odd lengths and offsets and segments
			   under 8 bytes go PIO; a 32-bit engine. */
			c->addr_bits = 32;
			c->addr_align = 2;
			c->len_granule = 2;
			c->min_len = 8;
		}
	}
	sb = why(n, MMCHAL_DT_FACT_DMA, &w);
	switch (n->backend) {
	case MMCHAL_DT_BACKEND_IDMAC:
		d->kind = MMCHAL_DMA_INTERNAL;
		/* One read channel per SoC: the backend sends every read PIO. */
		if (flags & MMCHAL_SDHI_F_ONE_RX_ONLY)
			d->dir[MMCHAL_DIR_FROM_CARD].min_len = UINT32_MAX;
		mmchal_sb_puts_(sb, "internal DMAC: ");
		mmchal_sb_putu_(sb, n->soc->max_segs);
		mmchal_sb_puts_(sb, " segment(s) per transfer, 32-bit addresses, 128-byte "
				    "aligned starts");
		break;
	case MMCHAL_DT_BACKEND_SYSDMAC:
		d->kind = MMCHAL_DMA_EXTERNAL;
		mmchal_sb_puts_(sb, "SYS-DMAC: ");
		mmchal_sb_putu_(sb, n->soc->max_segs);
		mmchal_sb_puts_(sb,
				" segments (TMIO default; the platform's channel caps "
				"decide at run time), even lengths and starts, 8 bytes minimum");
		break;
	default:
		memset(d, 0, sizeof(*d));
		d->kind = MMCHAL_DMA_NONE;
		mmchal_sb_puts_(sb, "no DMA engine: the CPU moves the data");
		break;
	}
}

static void fill_host_caps(struct mmchal_dt_node *n, uint32_t flags, uint32_t bus)
{
	struct mmchal_host_caps *h = &n->caps.host;
	struct why_ w;
	struct mmchal_strbuf_ *sb;

	/* As the SDHI backends declare it: merging only with the internal DMAC. */
	h->merge_capable = (flags & MMCHAL_SDHI_F_MERGE) != 0 &&
			   n->backend == MMCHAL_DT_BACKEND_IDMAC;
	h->max_blk_size = 512;
	h->completion = n->irq_ncells > 0 ? MMCHAL_COMPLETES_IN_IRQ : MMCHAL_COMPLETES_POLLED;
	h->bus = bus;
	mmchal_dt_why_(n, MMCHAL_DT_FACT_MERGE,
		       h->merge_capable ? "merge-capable: the SoC table entry opts in to merging "
					  "behind an IOMMU"
					: "not merge-capable: the SoC table entry does not opt in");

	sb = why(n, MMCHAL_DT_FACT_BLK_COUNT, &w);
	if (n->soc->kind == MMCHAL_SDHI_IDMAC) {
		/* Gen3 and later (VERSION >= 0xcc10) count blocks in 32 bits. */
		h->blk_count_bits = 32;
		mmchal_sb_puts_(sb, "32-bit block counter (VERSION 0xcc10 and later)");
	} else {
		/* The width depends on VERSION (32 bits from 0xcb0d), read only when
		   the controller is probed: assume the narrower one. */
		h->blk_count_bits = 16;
		mmchal_sb_puts_(sb, "16-bit block counter assumed until VERSION is read "
				    "(32 bits from 0xcb0d)");
	}
	h->max_blk_count = n->soc->max_blk_count;
	if (h->blk_count_bits == 16 && h->max_blk_count > 0xffffu)
		h->max_blk_count = 0xffffu;
	mmchal_sb_puts_(sb, "; SoC limit ");
	mmchal_sb_putu_(sb, n->soc->max_blk_count);
	mmchal_sb_puts_(sb, " blocks");
}

static void fill_iommu_caps(struct mmchal_dt_node *n)
{
	struct mmchal_iommu_caps *io = &n->caps.iommu;

	memset(io, 0, sizeof(*io));
	if (!n->iommu_listed || !n->iommu_usable)
		return;
	if (n->backend == MMCHAL_DT_BACKEND_PIO) {
		mmchal_dt_why_(n, MMCHAL_DT_FACT_IOMMU,
			       "IOMMU not used: PIO has no DMA master behind it");
		return;
	}
	io->present = true;
	io->page_size = IOMMU_PAGE;
	io->merge_boundary = IOMMU_PAGE - 1u;
}

static void derive_limits(const struct mmchal_dt_walk_ *w, struct mmchal_dt_node *n)
{
	static const enum mmchal_card_type cards[MMCHAL_DT_CARD_COUNT] = {
		[MMCHAL_DT_CARD_SD] = MMCHAL_CARD_SD,
		[MMCHAL_DT_CARD_MMC] = MMCHAL_CARD_MMC,
		[MMCHAL_DT_CARD_SDIO] = MMCHAL_CARD_SDIO,
	};
	static const struct mmchal_port_caps full_port = {.lock = true, .deferred_work = true};
	const struct mmchal_port_caps *port = w->opts->port ? w->opts->port : &full_port;
	unsigned int i;

	for (i = 0; i < MMCHAL_DT_CARD_COUNT; i++) {
		int rc = mmchal_limits_derive(&n->caps, port, w->opts->policy, cards[i],
					      &n->limits[i]);

		if (rc != 0) {
			node_error(n, rc, MMCHAL_DT_FACT_DMA, "limits",
				   "cannot be derived from these capabilities");
			return;
		}
	}
}

static void fill_cfg(struct mmchal_dt_node *n, enum mmchal_sdhi_rev rev, uint32_t board_bits)
{
	struct mmchal_sdhi_cfg *c = &n->cfg;

	c->soc = n->soc;
	c->rev = rev;
	c->bus.bus_shift = n->bus_shift;
	c->reg_dma = n->reg_addr;
	c->caps.bus = board_bits;
	c->caps.f_max_hz = n->caps.host.f_max_hz;
}

void mmchal_dt_node_probe_(struct mmchal_dt_walk_ *w, uint32_t depth, struct mmchal_dt_node *n)
{
	const struct mmchal_fdt_ *f = w->f;
	uint32_t node = w->stack[depth], board_bits = 0, flags, bus;
	enum mmchal_sdhi_rev rev = w->board.rev;

	memset(n, 0, sizeof(*n));
	memcpy(n->path, w->path, w->path_len[depth] + 1u);
	n->offset = node;
	if (w->path_long[depth])
		node_error(n, MMCHAL_ERANGE, MMCHAL_DT_FACT_STATUS, "path",
			   "is longer than MMCHAL_DT_PATH_MAX: the parent's path is shown");

	read_status(f, node, n);
	if (!match_compatible(f, node, n))
		return;
	if (!read_reg(w, depth, n))
		return;
	derive_bus_shift(n);
	read_interrupt(w, depth, n);
	read_iommu(w, depth, n);
	read_dmas(w, depth, n);
	choose_backend(n);
	if (!read_bus(f, node, n, &board_bits))
		return;
	flags = n->soc->flags | mmchal_sdhi_rev_flags(rev);
	bus = derive_bus(f, node, n, &board_bits, flags);
	apply_quirks(n, rev, &w->board);
	fill_host_caps(n, flags, bus);
	fill_dma_caps(n, flags);
	fill_iommu_caps(n);
	fill_cfg(n, rev, board_bits);
	if (n->error == 0)
		derive_limits(w, n);
}
