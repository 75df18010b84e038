/*
 * Text rendering of limits (src/core/limits_explain.c): exact lines for the
 * Gen3 eMMC-behind-IOMMU case, truncation and argument errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/limits.h>
#include <mmchal/error.h>

static const struct mmchal_dma_dir_caps idmac_dir = {
	.addr_bits = 32, .addr_align = 128, .max_segs = 1, .max_seg_size = 0xffffffffu};

/* True when @p needle occurs in @p hay (strstr is not in every target libc). */
static int contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return 1;
	return 0;
}

static void derive_gen3(enum mmchal_card_type card, struct mmchal_limits *l)
{
	const struct mmchal_caps caps = {
		.host = {.merge_capable = true, .blk_count_bits = 32, .max_blk_count = 8388607},
		.dma = {.kind = MMCHAL_DMA_INTERNAL, .dir = {idmac_dir, idmac_dir}},
		.iommu = {.present = true,
			  .page_size = 4096,
			  .merge_boundary = 0xfff,
			  .max_map_size = 1u << 20},
	};
	const struct mmchal_port_caps port = {.lock = true, .deferred_work = true};

	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, card, l), 0);
}

static void test_field_lines(void **state)
{
	struct mmchal_limits l;
	char buf[256];
	int n;

	(void)state;
	derive_gen3(MMCHAL_CARD_MMC, &l);

	n = mmchal_limits_explain_field(&l, MMCHAL_LIM_MAX_SEGS, buf, sizeof(buf));
	assert_int_equal(n, (int)strlen(buf));
	assert_string_equal(buf, "max_segs = 512: raised for merging: the host is merge-capable, "
				 "the IOMMU merges 4096-byte pages and the card is SD memory or "
				 "eMMC");

	mmchal_limits_explain_field(&l, MMCHAL_LIM_VIRT_BOUNDARY, buf, sizeof(buf));
	assert_string_equal(buf, "virt_boundary = 0xfff: raised for merging: the host is "
				 "merge-capable, the IOMMU merges 4096-byte pages and the card is "
				 "SD memory or eMMC");

	mmchal_limits_explain_field(&l, MMCHAL_LIM_MAX_REQ_SIZE, buf, sizeof(buf));
	assert_string_equal(buf, "max_req_size = 1048576 (1 MiB): clamped to the IOMMU's largest "
				 "mapping, 1048576 (1 MiB)");

	mmchal_limits_explain_field(&l, MMCHAL_LIM_MAX_BLK_COUNT, buf, sizeof(buf));
	assert_string_equal(buf, "max_blk_count = 2048: bounded by max_req_size 1048576 (1 MiB)");

	mmchal_limits_explain_field(&l, MMCHAL_LIM_BOUNCE_LIMIT, buf, sizeof(buf));
	assert_string_equal(buf, "bounce_limit = none: no bounce pool");

	mmchal_limits_explain_field(&l, MMCHAL_LIM_DMA_ALIGN, buf, sizeof(buf));
	assert_string_equal(buf, "dma_align = 128: the DMA engine needs segment starts aligned to "
				 "128 bytes; others are bounced or go PIO");

	mmchal_limits_explain_field(&l, MMCHAL_LIM_POLICY, buf, sizeof(buf));
	assert_string_equal(buf, "completion = IRQ_SPLIT: worst-case completion work 29700 ns "
				 "exceeds the interrupt-off budget; unmap and copy-back run after "
				 "the lock is dropped");

	derive_gen3(MMCHAL_CARD_SDIO, &l);
	mmchal_limits_explain_field(&l, MMCHAL_LIM_MAX_SEGS, buf, sizeof(buf));
	assert_string_equal(buf, "max_segs = 1: the DMA engine chains at most 1 segment(s) per "
				 "transfer");
	mmchal_limits_explain_field(&l, MMCHAL_LIM_MERGE, buf, sizeof(buf));
	assert_string_equal(buf, "merge = no: no merging: SDIO buffers are small and not page "
				 "aligned");
}

static void test_whole_text(void **state)
{
	struct mmchal_limits l;
	char buf[2048];
	int n, lines = 0;

	(void)state;
	derive_gen3(MMCHAL_CARD_SD, &l);
	n = mmchal_limits_explain(&l, buf, sizeof(buf));
	assert_int_equal(n, (int)strlen(buf));
	for (int i = 0; i < n; i++)
		lines += buf[i] == '\n';
	assert_int_equal(lines, MMCHAL_LIM_COUNT);
	assert_true(contains(buf, "max_segs = 512: "));
	assert_true(contains(buf, "\nmerge = yes: "));
	assert_true(contains(buf, "\nmax_seg_size = 1048576 (1 MiB): "));
	assert_true(contains(buf, "\ncompletion = IRQ_SPLIT: "));
}

static void test_truncation_keeps_whole_lines(void **state)
{
	struct mmchal_limits l;
	char full[2048], small[200];
	int n, m;

	(void)state;
	derive_gen3(MMCHAL_CARD_MMC, &l);
	n = mmchal_limits_explain(&l, full, sizeof(full));
	assert_true(n > 200);
	memset(small, 'x', sizeof(small));
	m = mmchal_limits_explain(&l, small, sizeof(small));
	assert_int_equal(m, MMCHAL_ENOSPC);
	/* What is kept is a prefix of the full text ending with a newline. */
	assert_true(strlen(small) < sizeof(small));
	assert_true(strlen(small) > 0);
	assert_int_equal(small[strlen(small) - 1], '\n');
	assert_memory_equal(small, full, strlen(small));

	memset(small, 'x', sizeof(small));
	m = mmchal_limits_explain_field(&l, MMCHAL_LIM_MAX_SEGS, small, 10);
	assert_int_equal(m, MMCHAL_ENOSPC);
	assert_string_equal(small, "max_segs ");
	/* Nothing beyond the given size was touched. */
	assert_int_equal(small[10], 'x');
}

static void test_invalid_arguments(void **state)
{
	struct mmchal_limits l;
	char buf[64];

	(void)state;
	derive_gen3(MMCHAL_CARD_MMC, &l);
	assert_int_equal(mmchal_limits_explain(NULL, buf, sizeof(buf)), MMCHAL_EINVAL);
	assert_int_equal(mmchal_limits_explain(&l, NULL, sizeof(buf)), MMCHAL_EINVAL);
	assert_int_equal(mmchal_limits_explain(&l, buf, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_limits_explain_field(&l, MMCHAL_LIM_COUNT, buf, sizeof(buf)),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_limits_explain_field(NULL, MMCHAL_LIM_MAX_SEGS, buf, sizeof(buf)),
			 MMCHAL_EINVAL);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(mmchal_limit_field_name(MMCHAL_LIM_MAX_SEGS), "max_segs");
	assert_string_equal(mmchal_limit_field_name(MMCHAL_LIM_POLICY), "completion");
	assert_string_equal(mmchal_limit_field_name(MMCHAL_LIM_COUNT), "?");
	assert_string_equal(mmchal_completion_policy_name(MMCHAL_POLICY_DEFERRED), "DEFERRED");
	assert_string_equal(mmchal_completion_policy_name((enum mmchal_completion_policy)42), "?");
	assert_string_equal(mmchal_card_type_name(MMCHAL_CARD_MMC), "eMMC");
	assert_string_equal(mmchal_card_type_name(MMCHAL_CARD_SDIO), "SDIO");
	assert_string_equal(mmchal_card_type_name((enum mmchal_card_type)42), "?");
	assert_string_equal(mmchal_limit_reason_text(MMCHAL_WHY_COUNT), "?");
	/* Every reason has a text. */
	for (int r = 0; r < MMCHAL_WHY_COUNT; r++)
		assert_true(strcmp(mmchal_limit_reason_text((enum mmchal_limit_reason)r), "?") !=
			    0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_lines),
		cmocka_unit_test(test_whole_text),
		cmocka_unit_test(test_truncation_keeps_whole_lines),
		cmocka_unit_test(test_invalid_arguments),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
