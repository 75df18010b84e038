/*
 * SDHI SoC table (src/backends/sdhi/sdhi_soc.c): every compatible the boards
 * in shared/data/dt need gives the backend, bus_shift rule and flags of
 * REFERENCE.md; fallbacks match, unknown strings do not; revision quirks and
 * the IOMMU deny list.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/config.h>
#include <mmchal/sdhi.h>
#include <mmchal/sdhi_socs.h>

/* The SYS-DMAC SoCs are in the table only with a backend that drives them. */
#define WITH_SYS_SOCS (MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || MMCHAL_WITH_BACKEND_PIO)

struct soc_row {
	const char *compat;
	enum mmchal_sdhi_kind kind;
	uint64_t reg_size;
	int bus_shift;
	uint32_t max_blk_count;
	uint32_t max_segs;
	uint32_t rx_off;
	uint32_t flags;
};

/* The 1/1 divider and the idle wait: every R-Car generation (Linux
   TMIO_MMC_CLK_ACTUAL | TMIO_MMC_HAS_IDLE_WAIT); SH-Mobile's of_default_cfg has
   only the idle wait, the generic "renesas,sdhi-shmobile" neither. */
#define R_RCAR (MMCHAL_SDHI_F_CLK_DIV1 | MMCHAL_SDHI_F_IDLE_WAIT)
#define R_GEN3 (MMCHAL_SDHI_F_MERGE | MMCHAL_SDHI_F_HS400 | R_RCAR)

/* One row per compatible of the shared boards (expected.csv), with the reg sizes
   their trees give, plus table entries those boards do not exercise. */
static const struct soc_row rows[] = {
#if WITH_SYS_SOCS
	{"renesas,sdhi-r8a73a4", MMCHAL_SDHI_SYSDMAC, 0x100, 0, 256, 32, 0,
	 MMCHAL_SDHI_F_IDLE_WAIT},
	{"renesas,sdhi-r8a7790", MMCHAL_SDHI_SYSDMAC, 0x328, 1, 8388607, 32, 0x2000, R_RCAR},
	{"renesas,sdhi-r8a7790", MMCHAL_SDHI_SYSDMAC, 0x100, 0, 8388607, 32, 0x2000, R_RCAR},
	{"renesas,rcar-gen2-sdhi", MMCHAL_SDHI_SYSDMAC, 0x328, 1, 8388607, 32, 0x2000, R_RCAR},
#endif
	{"renesas,sdhi-r8a7795", MMCHAL_SDHI_IDMAC, 0x2000, 2, 8388607, 1, 0, R_GEN3},
	{"renesas,sdhi-r8a77965", MMCHAL_SDHI_IDMAC, 0x2000, 2, 8388607, 1, 0, R_GEN3},
	{"renesas,rcar-gen3-sdhi", MMCHAL_SDHI_IDMAC, 0x2000, 2, 8388607, 1, 0, R_GEN3},
	{"renesas,rcar-gen4-sdhi", MMCHAL_SDHI_IDMAC, 0x2000, 2, 8388607, 1, 0, R_GEN3},
	{"renesas,rzg2l-sdhi", MMCHAL_SDHI_IDMAC, 0x10000, 2, 8388607, 1, 0,
	 MMCHAL_SDHI_F_MERGE | MMCHAL_SDHI_F_FIXED_ADDR | R_RCAR},
	{"renesas,sdhi-r8a77995", MMCHAL_SDHI_IDMAC, 0x2000, 2, 8388607, 1, 0,
	 MMCHAL_SDHI_F_MERGE | R_RCAR},
	{"renesas,sdhi-r7s9210", MMCHAL_SDHI_IDMAC, 0x2000, 2, 8388607, 1, 0,
	 MMCHAL_SDHI_F_FIXED_ADDR | R_RCAR},
#if WITH_SYS_SOCS
	{"renesas,rcar-gen1-sdhi", MMCHAL_SDHI_SYSDMAC, 0x100, 0, 256, 32, 0, R_RCAR},
	{"renesas,sdhi-shmobile", MMCHAL_SDHI_SYSDMAC, 0x200, 1, 256, 32, 0, 0},
#endif
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct mmchal_sdhi_soc *s = mmchal_sdhi_soc_lookup(rows[i].compat);

		assert_non_null(s);
		assert_string_equal(s->compatible, rows[i].compat);
		assert_int_equal(s->kind, rows[i].kind);
		assert_int_equal(mmchal_sdhi_bus_shift(s, rows[i].reg_size), rows[i].bus_shift);
		assert_int_equal(s->max_blk_count, rows[i].max_blk_count);
		assert_int_equal(s->max_segs, rows[i].max_segs);
		assert_int_equal(s->dma_rx_offset, rows[i].rx_off);
		assert_int_equal(s->flags, rows[i].flags);
	}
}

/* Every entry of the table, with REFERENCE.md's per-compatible data: driver,
   bus_shift rule, max_segs, max_blk_count, read-port alias (+0x2000 on Gen2
   only) and the notes column (merge, HS400, fixed address mode). The 1/1
   divider and the idle wait are Linux's tmio_flags TMIO_MMC_CLK_ACTUAL and
   TMIO_MMC_HAS_IDLE_WAIT: both in every R-Car of_data, Gen1 included
   (of_rcar_gen1_compatible); only the idle wait in SH-Mobile's of_default_cfg;
   none for "renesas,sdhi-shmobile", which has no of_data. */
struct soc_entry {
	const char *compat;
	enum mmchal_sdhi_kind kind;
	enum mmchal_sdhi_shift_rule shift;
	uint32_t max_blk_count;
	uint32_t max_segs;
	uint32_t rx_off;
	uint32_t flags;
};

#define E_GEN2     (MMCHAL_SDHI_F_CLK_DIV1 | MMCHAL_SDHI_F_IDLE_WAIT)
#define E_GEN1     (MMCHAL_SDHI_F_CLK_DIV1 | MMCHAL_SDHI_F_IDLE_WAIT)
#define E_SHMOBILE MMCHAL_SDHI_F_IDLE_WAIT
#define E_GEN3     (MMCHAL_SDHI_F_MERGE | MMCHAL_SDHI_F_HS400 | E_GEN2)
#define E_IDMAC(c, f)                                                                 \
	{                                                                             \
		(c), MMCHAL_SDHI_IDMAC, MMCHAL_SDHI_SHIFT_FIXED_2, 8388607, 1, 0, (f) \
	}
#define E_SYS(c, blk, rx, f)                                                              \
	{                                                                                 \
		(c), MMCHAL_SDHI_SYSDMAC, MMCHAL_SDHI_SHIFT_BY_SIZE, (blk), 32, (rx), (f) \
	}

static const struct soc_entry entries[] = {
	E_IDMAC("renesas,sdhi-r8a7795", E_GEN3),
	E_IDMAC("renesas,sdhi-r8a77961", E_GEN3),
	E_IDMAC("renesas,sdhi-r8a77965", E_GEN3),
	E_IDMAC("renesas,sdhi-r8a77990", E_GEN3),
	E_IDMAC("renesas,sdhi-r8a77995", MMCHAL_SDHI_F_MERGE | E_GEN2),
	E_IDMAC("renesas,rcar-gen3-sdhi", E_GEN3),
	E_IDMAC("renesas,rcar-gen4-sdhi", E_GEN3),
	E_IDMAC("renesas,rzg2l-sdhi", MMCHAL_SDHI_F_MERGE | MMCHAL_SDHI_F_FIXED_ADDR | E_GEN2),
	E_IDMAC("renesas,sdhi-r7s9210", MMCHAL_SDHI_F_FIXED_ADDR | E_GEN2),
#if WITH_SYS_SOCS
	E_SYS("renesas,sdhi-r8a7743", 8388607, 0x2000, E_GEN2),
	E_SYS("renesas,sdhi-r8a7745", 8388607, 0x2000, E_GEN2),
	E_SYS("renesas,sdhi-r8a7790", 8388607, 0x2000, E_GEN2),
	E_SYS("renesas,sdhi-r8a7791", 8388607, 0x2000, E_GEN2),
	E_SYS("renesas,sdhi-r8a7792", 8388607, 0x2000, E_GEN2),
	E_SYS("renesas,sdhi-r8a7793", 8388607, 0x2000, E_GEN2),
	E_SYS("renesas,sdhi-r8a7794", 8388607, 0x2000, E_GEN2),
	E_SYS("renesas,rcar-gen2-sdhi", 8388607, 0x2000, E_GEN2),
	E_SYS("renesas,sdhi-r8a7778", 256, 0, E_GEN1),
	E_SYS("renesas,sdhi-r8a7779", 256, 0, E_GEN1),
	E_SYS("renesas,rcar-gen1-sdhi", 256, 0, E_GEN1),
	E_SYS("renesas,sdhi-sh73a0", 256, 0, E_SHMOBILE),
	E_SYS("renesas,sdhi-r8a73a4", 256, 0, E_SHMOBILE),
	E_SYS("renesas,sdhi-r8a7740", 256, 0, E_SHMOBILE),
	E_SYS("renesas,sdhi-shmobile", 256, 0, 0),
#endif
};

static void test_entries_match_reference(void **state)
{
	const size_t n = sizeof(entries) / sizeof(entries[0]);
	size_t count = 0;

	(void)state;
	/* the table holds these entries and no others */
	mmchal_sdhi_soc_table(&count);
	assert_int_equal(count, n);
	for (size_t i = 0; i < n; i++) {
		const struct soc_entry *e = &entries[i];
		const struct mmchal_sdhi_soc *s = mmchal_sdhi_soc_lookup(e->compat);

		assert_non_null(s);
		assert_string_equal(s->compatible, e->compat);
		assert_int_equal(s->kind, e->kind);
		assert_int_equal(s->shift, e->shift);
		assert_int_equal(s->max_blk_count, e->max_blk_count);
		assert_int_equal(s->max_segs, e->max_segs);
		assert_int_equal(s->dma_rx_offset, e->rx_off);
		assert_int_equal(s->flags, e->flags);
		/* the bus_shift rule on both sides of a 0x100-byte window */
		assert_int_equal(mmchal_sdhi_bus_shift(s, 0x100),
				 e->shift == MMCHAL_SDHI_SHIFT_FIXED_2 ? 2 : 0);
		assert_int_equal(mmchal_sdhi_bus_shift(s, 0x101),
				 e->shift == MMCHAL_SDHI_SHIFT_FIXED_2 ? 2 : 1);
	}
}

/* Linux matches these only through the family fallback listed after them. */
/* Each initialiser of <mmchal/sdhi_socs.h> names the compatible its macro
   says, and is exactly the entry the lookup returns for it: a board that keeps
   its own entry gets what a probe by compatible gets. */
struct soc_init {
	const char *compat;
	struct mmchal_sdhi_soc soc;
};

static const struct soc_init inits[] = {
	{"renesas,sdhi-r8a7795", MMCHAL_SDHI_SOC_R8A7795},
	{"renesas,sdhi-r8a77961", MMCHAL_SDHI_SOC_R8A77961},
	{"renesas,sdhi-r8a77965", MMCHAL_SDHI_SOC_R8A77965},
	{"renesas,sdhi-r8a77990", MMCHAL_SDHI_SOC_R8A77990},
	{"renesas,sdhi-r8a77995", MMCHAL_SDHI_SOC_R8A77995},
	{"renesas,rcar-gen3-sdhi", MMCHAL_SDHI_SOC_RCAR_GEN3},
	{"renesas,rcar-gen4-sdhi", MMCHAL_SDHI_SOC_RCAR_GEN4},
	{"renesas,rzg2l-sdhi", MMCHAL_SDHI_SOC_RZG2L},
	{"renesas,sdhi-r7s9210", MMCHAL_SDHI_SOC_R7S9210},
	{"renesas,sdhi-r8a7743", MMCHAL_SDHI_SOC_R8A7743},
	{"renesas,sdhi-r8a7745", MMCHAL_SDHI_SOC_R8A7745},
	{"renesas,sdhi-r8a7790", MMCHAL_SDHI_SOC_R8A7790},
	{"renesas,sdhi-r8a7791", MMCHAL_SDHI_SOC_R8A7791},
	{"renesas,sdhi-r8a7792", MMCHAL_SDHI_SOC_R8A7792},
	{"renesas,sdhi-r8a7793", MMCHAL_SDHI_SOC_R8A7793},
	{"renesas,sdhi-r8a7794", MMCHAL_SDHI_SOC_R8A7794},
	{"renesas,rcar-gen2-sdhi", MMCHAL_SDHI_SOC_RCAR_GEN2},
	{"renesas,sdhi-r8a7778", MMCHAL_SDHI_SOC_R8A7778},
	{"renesas,sdhi-r8a7779", MMCHAL_SDHI_SOC_R8A7779},
	{"renesas,rcar-gen1-sdhi", MMCHAL_SDHI_SOC_RCAR_GEN1},
	{"renesas,sdhi-sh73a0", MMCHAL_SDHI_SOC_SH73A0},
	{"renesas,sdhi-r8a73a4", MMCHAL_SDHI_SOC_R8A73A4},
	{"renesas,sdhi-r8a7740", MMCHAL_SDHI_SOC_R8A7740},
	{"renesas,sdhi-shmobile", MMCHAL_SDHI_SOC_SHMOBILE},
};

static void test_initialisers(void **state)
{
	size_t n = 0, found = 0;

	(void)state;
	(void)mmchal_sdhi_soc_table(&n);
	for (size_t i = 0; i < sizeof(inits) / sizeof(inits[0]); i++) {
		const struct mmchal_sdhi_soc *want = &inits[i].soc;
		const struct mmchal_sdhi_soc *s = mmchal_sdhi_soc_lookup(inits[i].compat);

		assert_string_equal(want->compatible, inits[i].compat);
		if (want->kind == MMCHAL_SDHI_SYSDMAC && !WITH_SYS_SOCS) {
			assert_null(s);
			continue;
		}
		assert_non_null(s);
		found++;
		assert_int_equal(s->kind, want->kind);
		assert_int_equal(s->shift, want->shift);
		assert_int_equal(s->max_blk_count, want->max_blk_count);
		assert_int_equal(s->max_segs, want->max_segs);
		assert_int_equal(s->dma_rx_offset, want->dma_rx_offset);
		assert_int_equal(s->flags, want->flags);
	}
	/* Every table entry has its initialiser. */
	assert_int_equal(found, n);
}

static void test_fallback_only(void **state)
{
	(void)state;
	assert_null(mmchal_sdhi_soc_lookup("renesas,sdhi-r8a7796"));
	assert_null(mmchal_sdhi_soc_lookup("renesas,sdhi-r8a779f0"));
	assert_null(mmchal_sdhi_soc_lookup("renesas,sdhi-r9a07g044"));
	assert_null(mmchal_sdhi_soc_lookup("renesas,sh-mmcif"));
	assert_null(mmchal_sdhi_soc_lookup("renesas,sdhi-r8a779"));
	assert_null(mmchal_sdhi_soc_lookup("renesas,sdhi-r8a77950"));
	assert_null(mmchal_sdhi_soc_lookup(""));
	assert_null(mmchal_sdhi_soc_lookup(NULL));
}

static void test_table_and_errors(void **state)
{
	size_t n = 0;
	const struct mmchal_sdhi_soc *t = mmchal_sdhi_soc_table(&n);

	(void)state;
	/* 9 internal-DMAC entries, 15 SYS-DMAC ones */
	assert_int_equal(n, WITH_SYS_SOCS ? 24 : 9);
	for (size_t i = 0; i < n; i++) {
		/* every entry is found by its own name, and names are unique */
		assert_ptr_equal(mmchal_sdhi_soc_lookup(t[i].compatible), &t[i]);
		assert_true(t[i].max_segs >= 1);
	}
	assert_ptr_equal(mmchal_sdhi_soc_table(NULL), t);
	assert_int_equal(mmchal_sdhi_bus_shift(NULL, 0x100), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sdhi_bus_shift(t, 0), MMCHAL_EINVAL);
#if WITH_SYS_SOCS
	/* the boundary of the size rule: exactly 0x100 is shift 0, 0x101 is 1 */
	const struct mmchal_sdhi_soc *g2 = mmchal_sdhi_soc_lookup("renesas,rcar-gen2-sdhi");
	assert_int_equal(mmchal_sdhi_bus_shift(g2, 0x100), 0);
	assert_int_equal(mmchal_sdhi_bus_shift(g2, 0x101), 1);
#endif
}

static void test_revisions(void **state)
{
	const uint32_t old = MMCHAL_SDHI_F_OLD_INFO1 | MMCHAL_SDHI_F_ONE_RX_ONLY;

	(void)state;
	assert_int_equal(mmchal_sdhi_rev_flags(MMCHAL_SDHI_REV_UNKNOWN), 0);
	assert_int_equal(mmchal_sdhi_rev_flags(MMCHAL_SDHI_REV_H3_ES1), old);
	assert_int_equal(mmchal_sdhi_rev_flags(MMCHAL_SDHI_REV_H3_ES2), 0);
	assert_int_equal(mmchal_sdhi_rev_flags(MMCHAL_SDHI_REV_H3_ES3), 0);
	assert_int_equal(mmchal_sdhi_rev_flags(MMCHAL_SDHI_REV_M3W_ES10), old);
	assert_int_equal(mmchal_sdhi_rev_flags(MMCHAL_SDHI_REV_M3W_LATER), 0);
}

static void test_iommu_usable(void **state)
{
	(void)state;
	assert_true(mmchal_sdhi_iommu_usable("renesas,r8a7795", MMCHAL_SDHI_REV_UNKNOWN));
	assert_true(mmchal_sdhi_iommu_usable("renesas,r8a7795", MMCHAL_SDHI_REV_H3_ES3));
	assert_false(mmchal_sdhi_iommu_usable("renesas,r8a7795", MMCHAL_SDHI_REV_H3_ES2));
	assert_false(mmchal_sdhi_iommu_usable("renesas,r8a7795", MMCHAL_SDHI_REV_H3_ES1));
	assert_false(mmchal_sdhi_iommu_usable("renesas,r8a7796", MMCHAL_SDHI_REV_UNKNOWN));
	assert_false(mmchal_sdhi_iommu_usable("renesas,r8a7796", MMCHAL_SDHI_REV_M3W_LATER));
	assert_false(mmchal_sdhi_iommu_usable("renesas,r8a774a1", MMCHAL_SDHI_REV_UNKNOWN));
	assert_true(mmchal_sdhi_iommu_usable("renesas,r8a77965", MMCHAL_SDHI_REV_UNKNOWN));
	assert_true(mmchal_sdhi_iommu_usable("renesas,r8a779f0", MMCHAL_SDHI_REV_UNKNOWN));
	assert_true(mmchal_sdhi_iommu_usable(NULL, MMCHAL_SDHI_REV_UNKNOWN));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_entries_match_reference),
		cmocka_unit_test(test_initialisers),
		cmocka_unit_test(test_fallback_only),
		cmocka_unit_test(test_table_and_errors),
		cmocka_unit_test(test_revisions),
		cmocka_unit_test(test_iommu_usable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
