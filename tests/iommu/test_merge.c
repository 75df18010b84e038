/*
 * Table tests of the merge policy (src/iommu/merge.c): one row per reason,
 * plus the boundary cases of the alignment rule.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/iommu.h>

#define P 4096u

static const struct mmchal_iommu_caps io = {.present = true,
					    .page_size = P,
					    .merge_boundary = P - 1u,
					    .max_map_size = 1u << 20,
					    .aperture_start = 0,
					    .aperture_end = 0};
static const struct mmchal_iommu_caps io_nomerge = {.present = true, .page_size = P};
static const struct mmchal_iommu_caps io_absent = {.present = false};
static const struct mmchal_iommu_caps io_bad = {
	.present = true, .page_size = 3000, .merge_boundary = 2999};
static const struct mmchal_iommu_caps io_small_ap = {.present = true,
						     .page_size = P,
						     .merge_boundary = P - 1u,
						     .aperture_start = 0x10000,
						     .aperture_end = 0x10000 + 2u * P - 1u};

static const struct mmchal_sg ok3[] = {
	{NULL, 0x10000800, P - 0x800}, {NULL, 0x20000000, 2u * P}, {NULL, 0x30000000, 100}};
static const struct mmchal_sg one[] = {{NULL, 0x10000123, 10}};
static const struct mmchal_sg zero[] = {{NULL, 0x10000000, P}, {NULL, 0x20000000, 0}};
static const struct mmchal_sg wrap[] = {{NULL, UINT64_MAX - 10u, 100}};
static const struct mmchal_sg bad_end[] = {{NULL, 0x10000000, P - 512}, {NULL, 0x20000000, P}};
static const struct mmchal_sg bad_start[] = {{NULL, 0x10000000, P}, {NULL, 0x20000200, P}};
static const struct mmchal_sg big[] = {{NULL, 0x10000000, 1u << 20}, {NULL, 0x20000000, 1}};
static const struct mmchal_sg huge[] = {{NULL, 0x100000000, 0xfffff000u},
					{NULL, 0x300000000, 0x2000u}};
static const struct mmchal_sg two_pages_off[] = {{NULL, 0x10000800, P}};
/* Ends on the last byte of the 64-bit space: no overflow. */
static const struct mmchal_sg top[] = {{NULL, UINT64_MAX - P + 1u, P}};
/* The first entry starts mid-page and ends on a page boundary: its end, not
   its start minus its length, decides. */
static const struct mmchal_sg mid_to_end[] = {{NULL, 0x10000400, P - 0x400}, {NULL, 0x20000000, P}};
/* A total of exactly 2^32 - 1 bytes still fits 32 bits. */
static const struct mmchal_sg max32[] = {{NULL, 0x100000000, 0xffffffffu}};
/* A mapping of exactly max_map_size. */
static const struct mmchal_sg at_max[] = {{NULL, 0x10000000, 1u << 20}};

static const struct mmchal_iommu_caps io_nolimit = {
	.present = true, .page_size = P, .merge_boundary = P - 1u};
/* Page size 0 is not a power of two, whatever its boundary says. */
static const struct mmchal_iommu_caps io_page0 = {.present = true, .page_size = 0};
/* An aperture end of 0 means no aperture limit, whatever its start. */
static const struct mmchal_iommu_caps io_open_ap = {.present = true,
						    .page_size = P,
						    .merge_boundary = P - 1u,
						    .aperture_start = 0x10000,
						    .aperture_end = 0};

struct row {
	const char *name;
	const struct mmchal_sg *sg;
	uint32_t nsg;
	const struct mmchal_iommu_caps *caps;
	enum mmchal_card_type card;
	enum mmchal_merge_reason want;
	uint32_t index;
	uint64_t total;
	uint64_t map_size;
};

#define N(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static const struct row rows[] = {
	{"ok sd", ok3, N(ok3), &io, MMCHAL_CARD_SD, MMCHAL_MERGE_OK, 0, 10340, 4u * P},
	{"ok mmc single mid-page", one, 1, &io, MMCHAL_CARD_MMC, MMCHAL_MERGE_OK, 0, 10, P},
	{"null caps", ok3, N(ok3), NULL, MMCHAL_CARD_SD, MMCHAL_MERGE_BAD_ARGS, 0, 0, 0},
	{"null list", NULL, 2, &io, MMCHAL_CARD_SD, MMCHAL_MERGE_BAD_ARGS, 0, 0, 0},
	{"bad caps", ok3, N(ok3), &io_bad, MMCHAL_CARD_SD, MMCHAL_MERGE_BAD_ARGS, 0, 0, 0},
	{"page size 0", one, 1, &io_page0, MMCHAL_CARD_SD, MMCHAL_MERGE_BAD_ARGS, 0, 0, 0},
	{"no iommu", ok3, N(ok3), &io_absent, MMCHAL_CARD_SD, MMCHAL_MERGE_NO_IOMMU, 0, 0, 0},
	{"cannot merge", ok3, N(ok3), &io_nomerge, MMCHAL_CARD_SD, MMCHAL_MERGE_CANNOT_MERGE, 0, 0,
	 0},
	{"sdio", ok3, N(ok3), &io, MMCHAL_CARD_SDIO, MMCHAL_MERGE_CARD_TYPE, 0, 0, 0},
	{"combo", ok3, N(ok3), &io, MMCHAL_CARD_SD_COMBO, MMCHAL_MERGE_CARD_TYPE, 0, 0, 0},
	{"unknown card", ok3, N(ok3), &io, MMCHAL_CARD_UNKNOWN, MMCHAL_MERGE_CARD_TYPE, 0, 0, 0},
	{"bogus card", ok3, N(ok3), &io, (enum mmchal_card_type)9, MMCHAL_MERGE_CARD_TYPE, 0, 0, 0},
	{"empty", ok3, 0, &io, MMCHAL_CARD_SD, MMCHAL_MERGE_EMPTY, 0, 0, 0},
	{"zero length", zero, N(zero), &io, MMCHAL_CARD_SD, MMCHAL_MERGE_ZERO_LENGTH, 1, 0, 0},
	{"wraps", wrap, N(wrap), &io, MMCHAL_CARD_SD, MMCHAL_MERGE_OVERFLOW, 0, 0, 0},
	{"ends at the top", top, 1, &io, MMCHAL_CARD_SD, MMCHAL_MERGE_OK, 0, P, P},
	{"end unaligned", bad_end, N(bad_end), &io, MMCHAL_CARD_SD, MMCHAL_MERGE_UNALIGNED, 0,
	 2u * P - 512u, 0},
	{"start unaligned", bad_start, N(bad_start), &io, MMCHAL_CARD_MMC, MMCHAL_MERGE_UNALIGNED,
	 1, 2u * P, 0},
	{"mid-page start, page end", mid_to_end, N(mid_to_end), &io, MMCHAL_CARD_SD,
	 MMCHAL_MERGE_OK, 0, 2u * P - 0x400u, 2u * P},
	{"above max mapping", big, N(big), &io, MMCHAL_CARD_SD, MMCHAL_MERGE_TOO_LARGE, 0,
	 (1u << 20) + 1u, (1u << 20) + P},
	{"exactly the max mapping", at_max, 1, &io, MMCHAL_CARD_SD, MMCHAL_MERGE_OK, 0, 1u << 20,
	 1u << 20},
	{"total above 32 bits", huge, N(huge), &io, MMCHAL_CARD_SD, MMCHAL_MERGE_OVERFLOW, 1,
	 0x100001000u, 0},
	{"total of 2^32 - 1", max32, 1, &io_nolimit, MMCHAL_CARD_SD, MMCHAL_MERGE_OK, 0,
	 0xffffffffu, 0x100000000u},
	{"two pages fill the aperture", two_pages_off, 1, &io_small_ap, MMCHAL_CARD_SD,
	 MMCHAL_MERGE_OK, 0, P, 2u * P},
	{"fits aperture exactly", ok3, 1, &io_small_ap, MMCHAL_CARD_SD, MMCHAL_MERGE_OK, 0,
	 P - 0x800u, P},
	{"exceeds aperture", ok3, N(ok3), &io_small_ap, MMCHAL_CARD_SD, MMCHAL_MERGE_TOO_LARGE, 0,
	 10340, 4u * P},
	{"aperture end 0 with a start", one, 1, &io_open_ap, MMCHAL_CARD_SD, MMCHAL_MERGE_OK, 0, 10,
	 P},
};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct mmchal_merge_info info;

		memset(&info, 0xa5, sizeof(info));
		assert_int_equal(mmchal_merge_check(r->sg, r->nsg, r->caps, r->card, &info),
				 r->want);
		assert_int_equal(info.reason, r->want);
		assert_int_equal(info.index, r->index);
		assert_int_equal(info.total, r->total);
		assert_int_equal(info.map_size, r->map_size);
		/* The info pointer is optional. */
		assert_int_equal(mmchal_merge_check(r->sg, r->nsg, r->caps, r->card, NULL),
				 r->want);
	}
}

static void test_total_reported(void **state)
{
	struct mmchal_merge_info info;

	(void)state;
	assert_int_equal(mmchal_merge_check(ok3, 3, &io, MMCHAL_CARD_SD, &info), MMCHAL_MERGE_OK);
	assert_int_equal(info.total, (P - 0x800) + 2u * P + 100u);
}

static void test_texts(void **state)
{
	(void)state;
	assert_string_equal(mmchal_merge_reason_str(MMCHAL_MERGE_OK),
			    "mergeable into one device address");
	assert_string_equal(mmchal_merge_reason_str(MMCHAL_MERGE_UNALIGNED),
			    "interior segment boundary not aligned to the IOMMU page");
	assert_string_equal(mmchal_merge_reason_str((enum mmchal_merge_reason)99),
			    "unknown merge reason");
	for (int r = MMCHAL_MERGE_OK; r <= MMCHAL_MERGE_TOO_LARGE; r++)
		assert_true(strcmp(mmchal_merge_reason_str((enum mmchal_merge_reason)r),
				   "unknown merge reason") != 0);
}

static void test_caps_edges(void **state)
{
	struct mmchal_iommu_caps c = io;
	struct mmchal_merge_info info;

	(void)state;
	/* A merge boundary other than page_size - 1 is inconsistent. */
	c.merge_boundary = P;
	assert_int_equal(mmchal_merge_check(one, 1, &c, MMCHAL_CARD_SD, &info),
			 MMCHAL_MERGE_BAD_ARGS);
	/* An aperture of one byte (end equal to start) is consistent. */
	c = io;
	c.aperture_start = 0x10000000;
	c.aperture_end = 0x10000000;
	assert_int_not_equal(mmchal_merge_check(one, 1, &c, MMCHAL_CARD_SD, &info),
			     MMCHAL_MERGE_BAD_ARGS);
	/* The end below the start is not, and neither is a page size of 1
	 * (its boundary, 0, says the IOMMU cannot merge). */
	c.aperture_end = 0x0fffffff;
	assert_int_equal(mmchal_merge_check(one, 1, &c, MMCHAL_CARD_SD, &info),
			 MMCHAL_MERGE_BAD_ARGS);
	assert_int_equal(info.reason, MMCHAL_MERGE_BAD_ARGS);
	assert_int_equal(info.index, 0);
	assert_int_equal(info.total, 0);
	assert_int_equal(info.map_size, 0);
	/* A NULL list with no entries is only empty. */
	assert_int_equal(mmchal_merge_check(NULL, 0, &io, MMCHAL_CARD_SD, &info),
			 MMCHAL_MERGE_EMPTY);
	assert_int_equal(info.index, 0);
	assert_int_equal(info.total, 0);
	assert_int_equal(info.map_size, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_total_reported),
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_caps_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
