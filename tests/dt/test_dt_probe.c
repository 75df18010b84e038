/*
 * Device-tree probe (src/dt/): every row of the shared expected.csv, the facts
 * each board's SDHI nodes carry, the SoC revision input, and trees edited with
 * libfdt (on known-good blobs, where libfdt is safe) to reach every rule:
 * earliest compatible, unsupported node, IOMMU deny list, reg of the wrong
 * length, bad bus-width, missing dmas, no-1-8-v, HS400 on a SoC without it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include <mmchal/dt.h>
#include <mmchal/error.h>

#include "dt/dt_shared.h"

#define MAXN 16

struct probe {
	unsigned char *blob;
	size_t size;
	struct mmchal_dt_board board;
	struct mmchal_dt_node nodes[MAXN];
	size_t n;
};

static void run(struct probe *p, const char *rev)
{
	struct mmchal_dt_opts opts = {.soc_revision = rev};

	memset(&p->board, 0, sizeof(p->board));
	assert_int_equal(mmchal_dt_probe(p->blob, p->size, &opts, &p->board, p->nodes, MAXN, &p->n),
			 0);
}

static void load(struct probe *p, const char *board, const char *rev)
{
	p->blob = dt_load(board, &p->size);
	run(p, rev);
}

/* A writable copy with room for edits (libfdt on a known-good blob). */
static void load_rw(struct probe *p, const char *board)
{
	size_t size;
	unsigned char *ro = dt_load(board, &size);

	p->size = size + 4096;
	p->blob = malloc(p->size);
	assert_non_null(p->blob);
	assert_int_equal(fdt_open_into(ro, p->blob, (int)p->size), 0);
	free(ro);
}

static int node_off(struct probe *p, const char *path)
{
	int off = fdt_path_offset(p->blob, path);

	assert_true(off >= 0);
	return off;
}

static void setprop(struct probe *p, const char *path, const char *name, const void *v, int len)
{
	assert_int_equal(fdt_setprop(p->blob, node_off(p, path), name, v, len), 0);
}

static void setprop_u32(struct probe *p, const char *path, const char *name, uint32_t v)
{
	assert_int_equal(fdt_setprop_u32(p->blob, node_off(p, path), name, v), 0);
}

static void delprop(struct probe *p, const char *path, const char *name)
{
	assert_int_equal(fdt_delprop(p->blob, node_off(p, path), name), 0);
}

static const struct mmchal_dt_node *find(const struct probe *p, const char *path)
{
	static const struct mmchal_dt_node none;
	size_t i;

	for (i = 0; i < p->n; i++)
		if (strcmp(p->nodes[i].path, path) == 0)
			return &p->nodes[i];
	fail_msg("no SDHI node %s", path);
	return &none; /* not reached: fail_msg() leaves the test */
}

/* The node has a reason for @p fact containing @p text. */
static bool has_why(const struct mmchal_dt_node *n, enum mmchal_dt_fact fact, const char *text)
{
	uint32_t i;

	for (i = 0; i < n->nwhy; i++)
		if (n->why[i].fact == fact && strstr(n->why[i].text, text) != NULL)
			return true;
	return false;
}

static void assert_why(const struct mmchal_dt_node *n, enum mmchal_dt_fact fact, const char *text)
{
	uint32_t i;

	if (has_why(n, fact, text))
		return;
	for (i = 0; i < n->nwhy; i++)
		print_message("  %s: %s\n", mmchal_dt_fact_name(n->why[i].fact), n->why[i].text);
	fail_msg("%s: no %s reason with \"%s\"", n->path, mmchal_dt_fact_name(fact), text);
}

static void done(struct probe *p)
{
	free(p->blob);
	p->blob = NULL;
}

/* ---------------------------------------------------------------- expected.csv */

static void test_every_expected_row(void **state)
{
	static struct dt_row rows[DT_MAX_ROWS];
	size_t nrows = dt_expected(rows, DT_MAX_ROWS), b, r, seen;
	struct probe p;

	(void)state;
	assert_int_equal(nrows, 18);
	for (b = 0; b < dt_nboards; b++) {
		load(&p, dt_boards[b], NULL);
		seen = 0;
		for (r = 0; r < nrows; r++) {
			const struct mmchal_dt_node *n;

			if (strcmp(rows[r].board, dt_boards[b]) != 0)
				continue;
			seen++;
			n = find(&p, rows[r].node);
			print_message("%s %s\n", rows[r].board, rows[r].node);
			assert_int_equal(n->error, 0);
			assert_true(n->supported);
			assert_int_equal(n->enabled, strcmp(rows[r].status, "okay") == 0);
			assert_string_equal(mmchal_dt_backend_name(n->backend), rows[r].backend);
			assert_int_equal(n->bus_shift, rows[r].bus_shift);
			assert_int_equal(n->cfg.bus.bus_shift, rows[r].bus_shift);
			assert_int_equal(n->caps.iommu.present, rows[r].iommu);
			assert_int_equal(n->limits[MMCHAL_DT_CARD_SD].max_segs,
					 rows[r].max_segs_sd_mmc);
			assert_int_equal(n->limits[MMCHAL_DT_CARD_MMC].max_segs,
					 rows[r].max_segs_sd_mmc);
			assert_int_equal(n->limits[MMCHAL_DT_CARD_SDIO].max_segs,
					 rows[r].max_segs_sdio);
		}
		/* Every SDHI node of the board is a row, and only those. */
		assert_int_equal(p.n, seen);
		done(&p);
	}
}

/* ---------------------------------------------------------------- board facts */

static void test_board_and_h3_emmc(void **state)
{
	struct probe p;
	const struct mmchal_dt_node *n;

	(void)state;
	load(&p, "r8a77951-salvator-xs", NULL);
	assert_int_equal(p.board.ncompat, 2);
	assert_string_equal(p.board.compat[0], "renesas,salvator-xs");
	assert_string_equal(p.board.compat[1], "renesas,r8a7795");
	assert_string_equal(p.board.soc, "renesas,r8a7795");
	assert_string_equal(p.board.model,
			    "Renesas Salvator-X 2nd version board based on r8a77951");
	assert_int_equal(p.board.rev, MMCHAL_SDHI_REV_UNKNOWN);

	n = find(&p, "/soc/mmc@ee140000");
	assert_string_equal(n->compatible, "renesas,sdhi-r8a7795");
	assert_ptr_equal(n->soc, mmchal_sdhi_soc_lookup("renesas,sdhi-r8a7795"));
	assert_ptr_equal(n->cfg.soc, n->soc);
	assert_int_equal(n->reg_addr, 0xee140000u);
	assert_int_equal(n->reg_size, 0x2000u);
	assert_int_equal(n->nreg, 1);
	assert_int_equal(n->cfg.reg_dma, 0xee140000u);
	assert_int_equal(n->irq_ncells, 3);
	assert_int_equal(n->irq[0], 0);
	assert_int_equal(n->irq[1], 0xa7);
	assert_int_equal(n->irq[2], 4);
	assert_int_equal(n->caps.host.completion, MMCHAL_COMPLETES_IN_IRQ);
	assert_why(n, MMCHAL_DT_FACT_INTERRUPT,
		   "interrupts <0x0 0xa7 0x4> = GIC SPI 167 (interrupt ID 199) level high: "
		   "completion by interrupt");
	assert_true(n->iommu_listed);
	assert_true(n->iommu_usable);
	assert_int_equal(n->iommu_phandle, 0x34);
	assert_int_equal(n->iommu_id, 0x22);
	assert_int_equal(n->caps.iommu.page_size, 4096);
	assert_int_equal(n->caps.iommu.merge_boundary, 4095);
	assert_int_equal(n->bus_width, 8);
	assert_int_equal(n->caps.host.bus, MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_HS200 |
						   MMCHAL_BUS_HS400 | MMCHAL_BUS_NONREMOVABLE |
						   MMCHAL_BUS_1_8V | MMCHAL_BUS_HW_BUSY |
						   MMCHAL_BUS_AUTO_CMD12 | MMCHAL_BUS_CMD23);
	/* The backend configuration carries only what the board can do. */
	assert_int_equal(n->cfg.caps.bus, MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_HS200 |
						  MMCHAL_BUS_HS400 | MMCHAL_BUS_NONREMOVABLE |
						  MMCHAL_BUS_1_8V);
	assert_int_equal(n->caps.host.f_max_hz, 200000000u);
	assert_int_equal(n->cfg.caps.f_max_hz, 200000000u);
	assert_true(n->caps.host.merge_capable);
	assert_int_equal(n->caps.host.blk_count_bits, 32);
	assert_int_equal(n->caps.host.max_blk_count, 8388607u);
	assert_int_equal(n->caps.dma.kind, MMCHAL_DMA_INTERNAL);
	assert_int_equal(n->caps.dma.dir[MMCHAL_DIR_FROM_CARD].max_segs, 1);
	assert_int_equal(n->caps.dma.dir[MMCHAL_DIR_TO_CARD].addr_align, 128);
	assert_true(n->limits[MMCHAL_DT_CARD_MMC].merge);
	assert_int_equal(n->limits[MMCHAL_DT_CARD_MMC].virt_boundary, 0xfff);
	assert_false(n->limits[MMCHAL_DT_CARD_SDIO].merge);
	assert_int_equal(n->limits[MMCHAL_DT_CARD_MMC].max_blk_count, 8388607u);
	assert_why(n, MMCHAL_DT_FACT_IOMMU, "H3 revision not given: assumed ES3.x");
	assert_why(n, MMCHAL_DT_FACT_BUS_SHIFT, "4 bytes apart");
	assert_false(n->why_lost);
	done(&p);
}

static void test_gen2_lager(void **state)
{
	struct probe p;
	const struct mmchal_dt_node *n;
	size_t i;

	(void)state;
	load(&p, "r8a7790-lager", NULL);
	/* Two MMCIF nodes sit beside the four SDHI nodes: not SDHI. */
	assert_int_equal(p.n, 4);
	for (i = 0; i < p.n; i++)
		assert_null(strstr(p.nodes[i].path, "ee200000"));
	n = find(&p, "/soc/mmc@ee100000");
	assert_int_equal(n->bus_width, 1);
	assert_why(n, MMCHAL_DT_FACT_BUS_WIDTH, "no bus-width property, the binding default");
	assert_int_equal(n->caps.host.bus, MMCHAL_BUS_UHS_SDR50 | MMCHAL_BUS_UHS_SDR104 |
						   MMCHAL_BUS_SD_HS | MMCHAL_BUS_1_8V |
						   MMCHAL_BUS_HW_BUSY | MMCHAL_BUS_AUTO_CMD12 |
						   MMCHAL_BUS_CMD23);
	assert_int_equal(n->dma_tx, 2);
	assert_int_equal(n->dma_rx, 2);
	assert_int_equal(n->reg_size, 0x328);
	assert_why(n, MMCHAL_DT_FACT_BUS_SHIFT, "0x328 is larger than 0x100 bytes");
	assert_int_equal(n->caps.dma.kind, MMCHAL_DMA_EXTERNAL);
	assert_int_equal(n->caps.host.blk_count_bits, 16);
	assert_false(n->caps.host.merge_capable);
	assert_int_equal(n->limits[MMCHAL_DT_CARD_SD].max_blk_count, 65535u);
	assert_int_equal(n->caps.host.f_max_hz, 195000000u);
	n = find(&p, "/soc/mmc@ee140000");
	assert_why(n, MMCHAL_DT_FACT_BUS_SHIFT, "0x100 is not larger than 0x100 bytes");
	n = find(&p, "/soc/mmc@ee120000");
	assert_false(n->enabled);
	assert_why(n, MMCHAL_DT_FACT_STATUS, "not to be probed");
	done(&p);
}

static void test_other_boards(void **state)
{
	struct probe p;
	const struct mmchal_dt_node *n;

	(void)state;
	load(&p, "r8a73a4-ape6evm", NULL);
	n = find(&p, "/mmc@ee120000");
	assert_int_equal(n->caps.host.bus & (MMCHAL_BUS_BROKEN_CD | MMCHAL_BUS_4_BIT |
					     MMCHAL_BUS_SD_HS | MMCHAL_BUS_1_8V),
			 MMCHAL_BUS_BROKEN_CD | MMCHAL_BUS_4_BIT | MMCHAL_BUS_SD_HS);
	assert_int_equal(n->caps.dma.kind, MMCHAL_DMA_NONE);
	assert_int_equal(n->caps.host.max_blk_count, 256);
	assert_why(n, MMCHAL_DT_FACT_BACKEND, "pio: SYS-DMAC family but no dmas");
	done(&p);

	load(&p, "r8a779f0-spider", NULL);
	n = find(&p, "/soc/mmc@ee140000");
	assert_string_equal(n->compatible, "renesas,rcar-gen4-sdhi");
	assert_why(n, MMCHAL_DT_FACT_COMPATIBLE, "is compatible string 2 of 2; the earlier ones");
	done(&p);

	load(&p, "r9a07g044l2-smarc", NULL);
	n = find(&p, "/soc/mmc@11c00000");
	assert_int_equal(n->soc->flags & MMCHAL_SDHI_F_FIXED_ADDR, MMCHAL_SDHI_F_FIXED_ADDR);
	assert_why(n, MMCHAL_DT_FACT_QUIRK, "fixed address mode");
	assert_why(n, MMCHAL_DT_FACT_IOMMU, "no iommus property");
	/* RZ/G2L has two interrupts of three cells each: the first is kept. */
	assert_int_equal(n->irq_ncells, 3);
	assert_int_equal(n->irq[1], 0x68);
	assert_int_equal(p.board.ncompat, 3);
	assert_string_equal(p.board.soc, "renesas,r9a07g044");
	done(&p);
}

/* ---------------------------------------------------------------- SoC revision */

static void test_h3_revisions(void **state)
{
	struct probe p;
	const struct mmchal_dt_node *n;
	size_t i;

	(void)state;
	load(&p, "r8a77951-salvator-xs", "ES2.0");
	assert_int_equal(p.board.rev, MMCHAL_SDHI_REV_H3_ES2);
	for (i = 0; i < p.n; i++) {
		n = &p.nodes[i];
		assert_true(n->iommu_listed);
		assert_false(n->iommu_usable);
		assert_false(n->caps.iommu.present);
		assert_int_equal(n->cfg.rev, MMCHAL_SDHI_REV_H3_ES2);
		assert_int_equal(n->limits[MMCHAL_DT_CARD_SD].max_segs, 1);
		assert_int_equal(n->limits[MMCHAL_DT_CARD_MMC].max_segs, 1);
		assert_why(n, MMCHAL_DT_FACT_IOMMU,
			   "IOMMU listed in the tree but not usable for SDHI on renesas,r8a7795 "
			   "ES2.0");
		assert_false(has_why(n, MMCHAL_DT_FACT_QUIRK, "old DMAC status layout"));
	}

	run(&p, "es3.0");
	assert_int_equal(p.board.rev, MMCHAL_SDHI_REV_H3_ES3);
	n = find(&p, "/soc/mmc@ee100000");
	assert_int_equal(n->limits[MMCHAL_DT_CARD_SD].max_segs, 512);
	assert_why(n, MMCHAL_DT_FACT_IOMMU, "usable for SDHI on this SoC");

	run(&p, "1.1");
	assert_int_equal(p.board.rev, MMCHAL_SDHI_REV_H3_ES1);
	n = find(&p, "/soc/mmc@ee100000");
	assert_int_equal(n->limits[MMCHAL_DT_CARD_SD].max_segs, 1);
	assert_why(n, MMCHAL_DT_FACT_QUIRK, "old DMAC status layout");
	assert_why(n, MMCHAL_DT_FACT_QUIRK, "reads go PIO");
	done(&p);

	/* A revision on a SoC without revision quirks changes nothing, and says so. */
	load(&p, "r8a7790-lager", "ES2.0");
	assert_int_equal(p.board.rev, MMCHAL_SDHI_REV_UNKNOWN);
	assert_int_equal(p.board.rev_major, 2);
	assert_why(find(&p, "/soc/mmc@ee100000"), MMCHAL_DT_FACT_QUIRK,
		   "no revision quirk is known for this SoC");
	done(&p);
}

static void test_parse_revision(void **state)
{
	static const char *const bad[] = {"",     "ES",     "ES3",      "3",       "ES3.",
					  "ES.1", "ES0.1",  "ES3.0x",   "ES256.0", "ES3.256",
					  "E3.0", "ES-1.0", "ES1234.0", " ES3.0"};
	uint8_t ma = 9, mi = 9;
	size_t i;
	struct probe p;
	struct mmchal_dt_opts opts = {.soc_revision = "ES9"};

	(void)state;
	assert_int_equal(mmchal_dt_parse_revision("ES2.1", &ma, &mi), 0);
	assert_int_equal(ma, 2);
	assert_int_equal(mi, 1);
	assert_int_equal(mmchal_dt_parse_revision("es3.0", &ma, &mi), 0);
	assert_int_equal(ma, 3);
	assert_int_equal(mi, 0);
	assert_int_equal(mmchal_dt_parse_revision("255.255", &ma, &mi), 0);
	assert_int_equal(ma, 255);
	assert_int_equal(mi, 255);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ma = 7;
		assert_int_equal(mmchal_dt_parse_revision(bad[i], &ma, &mi), MMCHAL_EINVAL);
		assert_int_equal(ma, 7);
	}
	assert_int_equal(mmchal_dt_parse_revision(NULL, &ma, &mi), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dt_parse_revision("ES1.0", NULL, &mi), MMCHAL_EINVAL);

	p.blob = dt_load("r8a77951-salvator-xs", &p.size);
	assert_int_equal(mmchal_dt_probe(p.blob, p.size, &opts, NULL, p.nodes, MAXN, &p.n),
			 MMCHAL_EINVAL);
	done(&p);
}

/* ---------------------------------------------------------------- edited trees */

static void test_unsupported_and_earliest(void **state)
{
	static const char unknown[] = "renesas,sdhi-r9a09g057";
	static const char reversed[] = "renesas,rcar-gen3-sdhi\0renesas,sdhi-r8a7795";
	static const char m3w[] = "renesas,sdhi-r8a7796\0renesas,rcar-gen3-sdhi";
	struct probe p;
	const struct mmchal_dt_node *n;

	(void)state;
	load_rw(&p, "r8a77951-salvator-xs");
	setprop(&p, "/soc/mmc@ee100000", "compatible", unknown, sizeof(unknown));
	setprop(&p, "/soc/mmc@ee120000", "compatible", reversed, sizeof(reversed));
	setprop(&p, "/soc/mmc@ee140000", "compatible", m3w, sizeof(m3w));
	run(&p, NULL);
	assert_int_equal(p.n, 4);

	n = find(&p, "/soc/mmc@ee100000");
	assert_false(n->supported);
	assert_int_equal(n->error, 0);
	assert_int_equal(n->backend, MMCHAL_DT_BACKEND_NONE);
	assert_null(n->soc);
	assert_string_equal(n->compatible, unknown);
	assert_why(n, MMCHAL_DT_FACT_COMPATIBLE, "unsupported: no compatible string");

	/* The earliest string the table knows wins, even a family fallback. */
	n = find(&p, "/soc/mmc@ee120000");
	assert_string_equal(n->compatible, "renesas,rcar-gen3-sdhi");
	assert_ptr_equal(n->soc, mmchal_sdhi_soc_lookup("renesas,rcar-gen3-sdhi"));

	n = find(&p, "/soc/mmc@ee140000");
	assert_string_equal(n->compatible, "renesas,rcar-gen3-sdhi");
	assert_why(n, MMCHAL_DT_FACT_COMPATIBLE, "string 2 of 2");
	done(&p);
}

static void test_iommu_deny_list(void **state)
{
	static const char root[] = "renesas,salvator-x\0renesas,r8a7796";
	struct probe p;
	const struct mmchal_dt_node *n;

	(void)state;
	load_rw(&p, "r8a77951-salvator-xs");
	setprop(&p, "/", "compatible", root, sizeof(root));
	run(&p, NULL);
	n = find(&p, "/soc/mmc@ee100000");
	assert_true(n->iommu_listed);
	assert_false(n->iommu_usable);
	assert_int_equal(n->limits[MMCHAL_DT_CARD_SD].max_segs, 1);
	assert_why(n, MMCHAL_DT_FACT_IOMMU,
		   "IOMMU listed in the tree but not usable for SDHI on renesas,r8a7796 (");
	/* M3-W ES1.0: the old DMAC status layout. */
	run(&p, "ES1.0");
	assert_int_equal(p.board.rev, MMCHAL_SDHI_REV_M3W_ES10);
	assert_why(find(&p, "/soc/mmc@ee100000"), MMCHAL_DT_FACT_QUIRK, "old DMAC status layout");
	run(&p, "ES3.0");
	assert_int_equal(p.board.rev, MMCHAL_SDHI_REV_M3W_LATER);
	done(&p);
}

static void test_reg_wrong_length(void **state)
{
	static const unsigned char reg12[12] = {0, 0, 0, 0, 0xee, 0x10, 0, 0, 0, 0, 0x20, 0};
	struct probe p;
	const struct mmchal_dt_node *n;
	size_t i;

	(void)state;
	load_rw(&p, "r8a77951-salvator-xs");
	setprop(&p, "/soc/mmc@ee100000", "reg", reg12, sizeof(reg12));
	run(&p, NULL);
	assert_int_equal(p.n, 4);
	n = find(&p, "/soc/mmc@ee100000");
	assert_int_equal(n->error, MMCHAL_EPROTO);
	assert_why(n, MMCHAL_DT_FACT_REG,
		   "error: reg is 12 bytes, not a multiple of 16 (parent #address-cells 2, "
		   "#size-cells 2)");
	for (i = 0; i < p.n; i++)
		if (&p.nodes[i] != n)
			assert_int_equal(p.nodes[i].error, 0);

	setprop(&p, "/soc/mmc@ee100000", "reg", reg12, 0);
	run(&p, NULL);
	assert_int_equal(find(&p, "/soc/mmc@ee100000")->error, MMCHAL_EPROTO);

	delprop(&p, "/soc/mmc@ee100000", "reg");
	run(&p, NULL);
	assert_why(find(&p, "/soc/mmc@ee100000"), MMCHAL_DT_FACT_REG, "error: reg is missing");

	/* Cells a 64-bit window cannot have: an error of every node under /soc. */
	setprop_u32(&p, "/soc", "#address-cells", 3);
	run(&p, NULL);
	for (i = 0; i < p.n; i++)
		assert_int_equal(p.nodes[i].error, MMCHAL_ERANGE);
	/* #size-cells of the wrong length. */
	setprop_u32(&p, "/soc", "#address-cells", 2);
	setprop(&p, "/soc", "#size-cells", reg12, 2);
	run(&p, NULL);
	assert_int_equal(find(&p, "/soc/mmc@ee140000")->error, MMCHAL_EPROTO);
	/* 1+1 cells: a 32-bit parent bus. */
	setprop_u32(&p, "/soc", "#size-cells", 1);
	setprop_u32(&p, "/soc", "#address-cells", 1);
	run(&p, NULL);
	n = find(&p, "/soc/mmc@ee140000");
	assert_int_equal(n->error, 0);
	assert_int_equal(n->nreg, 2);
	assert_int_equal(n->reg_addr, 0);
	assert_int_equal(n->reg_size, 0xee140000u);
	done(&p);
}

static void test_bad_properties(void **state)
{
	static const char okay_no_nul[4] = {'o', 'k', 'a', 'y'};
	static const unsigned char two[8] = {0, 0, 0, 1, 0, 0, 0, 2};
	struct probe p;
	const struct mmchal_dt_node *n;

	(void)state;
	load_rw(&p, "r8a7790-lager");
	setprop_u32(&p, "/soc/mmc@ee100000", "bus-width", 3);
	setprop(&p, "/soc/mmc@ee120000", "status", okay_no_nul, sizeof(okay_no_nul));
	setprop(&p, "/soc/mmc@ee140000", "max-frequency", two, sizeof(two));
	setprop(&p, "/soc/mmc@ee160000", "interrupts", two, sizeof(two));
	run(&p, NULL);
	n = find(&p, "/soc/mmc@ee100000");
	assert_int_equal(n->error, MMCHAL_EPROTO);
	assert_why(n, MMCHAL_DT_FACT_BUS_WIDTH, "error: bus-width is not one cell of 1, 4 or 8");
	n = find(&p, "/soc/mmc@ee120000");
	assert_int_equal(n->error, MMCHAL_EPROTO);
	assert_false(n->enabled);
	n = find(&p, "/soc/mmc@ee140000");
	assert_int_equal(n->error, MMCHAL_EPROTO);
	assert_why(n, MMCHAL_DT_FACT_FREQUENCY, "error: max-frequency is not one cell");
	n = find(&p, "/soc/mmc@ee160000");
	assert_int_equal(n->error, MMCHAL_EPROTO);
	assert_why(n, MMCHAL_DT_FACT_INTERRUPT, "not a whole number of interrupt specifiers");

	setprop(&p, "/soc/mmc@ee100000", "bus-width", two, 2);
	setprop(&p, "/soc/mmc@ee160000", "iommus", two, 3);
	run(&p, NULL);
	assert_int_equal(find(&p, "/soc/mmc@ee100000")->error, MMCHAL_EPROTO);
	assert_int_equal(find(&p, "/soc/mmc@ee160000")->error, MMCHAL_EPROTO);
	done(&p);
}

static void test_edited_caps(void **state)
{
	static const char fail[] = "fail";
	static const char only_tx[] = "tx";
	struct probe p;
	const struct mmchal_dt_node *n;

	(void)state;
	load_rw(&p, "r8a7790-lager");
	assert_int_equal(fdt_setprop_empty(p.blob, node_off(&p, "/soc/mmc@ee100000"), "no-1-8-v"),
			 0);
	delprop(&p, "/soc/mmc@ee140000", "dmas");
	setprop(&p, "/soc/mmc@ee160000", "status", fail, sizeof(fail));
	setprop(&p, "/soc/mmc@ee120000", "dma-names", only_tx, sizeof(only_tx));
	delprop(&p, "/soc/mmc@ee120000", "interrupts");
	run(&p, NULL);
	n = find(&p, "/soc/mmc@ee100000");
	assert_int_equal(n->caps.host.bus,
			 MMCHAL_BUS_HW_BUSY | MMCHAL_BUS_AUTO_CMD12 | MMCHAL_BUS_CMD23);
	assert_why(n, MMCHAL_DT_FACT_BUS_CAPS, "no-1-8-v: UHS-I, DDR52, HS200 and HS400 dropped");
	n = find(&p, "/soc/mmc@ee140000");
	assert_int_equal(n->backend, MMCHAL_DT_BACKEND_PIO);
	assert_int_equal(n->caps.dma.kind, MMCHAL_DMA_NONE);
	assert_int_equal(n->limits[MMCHAL_DT_CARD_SD].max_segs, 32);
	n = find(&p, "/soc/mmc@ee120000");
	assert_int_equal(n->backend, MMCHAL_DT_BACKEND_PIO);
	assert_why(n, MMCHAL_DT_FACT_BACKEND, "lacks a tx or an rx");
	assert_int_equal(n->caps.host.completion, MMCHAL_COMPLETES_POLLED);
	assert_int_equal(n->limits[MMCHAL_DT_CARD_SD].policy, MMCHAL_POLICY_POLLED);
	n = find(&p, "/soc/mmc@ee160000");
	assert_false(n->enabled);
	assert_why(n, MMCHAL_DT_FACT_STATUS, "status \"fail\"");
	done(&p);

	/* HS400 on a SoC whose table entry has none is dropped, with the reason. */
	load_rw(&p, "r9a07g044l2-smarc");
	assert_int_equal(
		fdt_setprop_empty(p.blob, node_off(&p, "/soc/mmc@11c00000"), "mmc-hs400-1_8v"), 0);
	run(&p, NULL);
	n = find(&p, "/soc/mmc@11c00000");
	assert_int_equal(n->caps.host.bus & MMCHAL_BUS_HS400, 0);
	assert_int_equal(n->cfg.caps.bus & MMCHAL_BUS_HS400, MMCHAL_BUS_HS400);
	assert_why(n, MMCHAL_DT_FACT_BUS_CAPS, "mmc-hs400-1_8v dropped");
	done(&p);
}

static void test_arguments_and_space(void **state)
{
	struct probe p;
	struct mmchal_dt_node two[2];
	size_t n = 99;

	(void)state;
	p.blob = dt_load("r8a77951-salvator-xs", &p.size);
	assert_int_equal(mmchal_dt_probe(p.blob, p.size, NULL, NULL, two, 2, &n), MMCHAL_ENOSPC);
	assert_int_equal(n, 4);
	assert_string_equal(two[1].path, "/soc/mmc@ee120000");
	assert_int_equal(mmchal_dt_probe(p.blob, p.size, NULL, NULL, NULL, 0, &n), MMCHAL_ENOSPC);
	assert_int_equal(n, 4);
	assert_int_equal(mmchal_dt_probe(NULL, p.size, NULL, NULL, two, 2, &n), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dt_probe(p.blob, p.size, NULL, NULL, two, 2, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dt_probe(p.blob, p.size, NULL, NULL, NULL, 2, &n), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dt_check(p.blob, p.size), 0);
	assert_int_equal(mmchal_dt_check(NULL, p.size), MMCHAL_EINVAL);
	assert_string_equal(mmchal_dt_backend_name((enum mmchal_dt_backend)99), "?");
	assert_string_equal(mmchal_dt_fact_name(MMCHAL_DT_FACT_COUNT), "?");
	assert_string_equal(mmchal_dt_fact_name(MMCHAL_DT_FACT_BUS_SHIFT), "bus_shift");
	done(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_expected_row),
		cmocka_unit_test(test_board_and_h3_emmc),
		cmocka_unit_test(test_gen2_lager),
		cmocka_unit_test(test_other_boards),
		cmocka_unit_test(test_h3_revisions),
		cmocka_unit_test(test_parse_revision),
		cmocka_unit_test(test_unsupported_and_earliest),
		cmocka_unit_test(test_iommu_deny_list),
		cmocka_unit_test(test_reg_wrong_length),
		cmocka_unit_test(test_bad_properties),
		cmocka_unit_test(test_edited_caps),
		cmocka_unit_test(test_arguments_and_space),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
