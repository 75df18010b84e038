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

static const char *const want_field[MMCHAL_LIM_COUNT] = {
	[MMCHAL_LIM_MAX_SEGS] = "max_segs",           [MMCHAL_LIM_MERGE] = "merge",
	[MMCHAL_LIM_VIRT_BOUNDARY] = "virt_boundary", [MMCHAL_LIM_MAX_BLK_SIZE] = "max_blk_size",
	[MMCHAL_LIM_MAX_REQ_SIZE] = "max_req_size",   [MMCHAL_LIM_MAX_BLK_COUNT] = "max_blk_count",
	[MMCHAL_LIM_MAX_SEG_SIZE] = "max_seg_size",   [MMCHAL_LIM_SEG_BOUNDARY] = "seg_boundary",
	[MMCHAL_LIM_DMA_ALIGN] = "dma_align",         [MMCHAL_LIM_BOUNCE_LIMIT] = "bounce_limit",
	[MMCHAL_LIM_POLICY] = "completion",
};

static const char *const want_reason[MMCHAL_WHY_COUNT] = {
	[MMCHAL_WHY_DEFAULT] = "library default",
	[MMCHAL_WHY_HOST_DECLARED] = "declared by the host",
	[MMCHAL_WHY_ENGINE_SEGS] = "the DMA engine chains at most {} segment(s) per transfer",
	[MMCHAL_WHY_PIO_NO_ENGINE] = "PIO: no DMA engine limit, the TMIO default {} is kept",
	[MMCHAL_WHY_MERGE_RAISED] = "raised for merging: the host is merge-capable, the IOMMU "
				    "merges {}-byte pages and the card is SD memory or eMMC",
	[MMCHAL_WHY_MERGE_NOT_CAPABLE] = "no merging: the host does not declare merge capability",
	[MMCHAL_WHY_MERGE_NO_IOMMU] = "no merging: no IOMMU in front of the DMA engine",
	[MMCHAL_WHY_MERGE_IOMMU_CANNOT] = "no merging: the IOMMU reports merge boundary 0",
	[MMCHAL_WHY_MERGE_CARD_SDIO] = "no merging: SDIO buffers are small and not page aligned",
	[MMCHAL_WHY_MERGE_CARD_UNKNOWN] = "no merging yet: the card is not identified "
					  "(decided again at init_card)",
	[MMCHAL_WHY_MERGE_NO_DMA] = "no merging: PIO moves the data",
	[MMCHAL_WHY_NONE] = "no constraint",
	[MMCHAL_WHY_BLK_PRODUCT] = "max_blk_size x block-count limit = {}",
	[MMCHAL_WHY_BOUNCE_CLAMP] =
		"clamped to the bounce limit {} (slot size x slots per mapping)",
	[MMCHAL_WHY_IOMMU_MAP_LIMIT] = "clamped to the IOMMU's largest mapping, {}",
	[MMCHAL_WHY_ENGINE_XFER] = "clamped to the DMA engine's largest transfer, {}",
	[MMCHAL_WHY_BLK_COUNTER] = "the block counter register is {} bits wide",
	[MMCHAL_WHY_SOC_BLK_COUNT] = "capped by the SoC data at {} blocks",
	[MMCHAL_WHY_FIT_REQ_SIZE] = "bounded by max_req_size {}",
	[MMCHAL_WHY_ENGINE_SEG_SIZE] = "the DMA engine's largest segment, {}",
	[MMCHAL_WHY_ENGINE_BOUNDARY] = "a segment may not cross the engine's {}-byte boundary",
	[MMCHAL_WHY_ENGINE_ALIGN] = "the DMA engine needs segment starts aligned to {} bytes; "
				    "others are bounced or go PIO",
	[MMCHAL_WHY_BOUNCE_NO_POOL] = "no bounce pool",
	[MMCHAL_WHY_BOUNCE_IOMMU] = "no bouncing: behind the IOMMU any buffer is reachable",
	[MMCHAL_WHY_BOUNCE_PIO] = "no bouncing: PIO moves the data",
	[MMCHAL_WHY_BOUNCE_POOL] = "slot size x slots per mapping",
	[MMCHAL_WHY_POLICY_OVERRIDE] =
		"forced by the configuration (worst-case completion work {} ns)",
	[MMCHAL_WHY_POLICY_NO_IRQ] = "the backend completes by polling",
	[MMCHAL_WHY_POLICY_NO_LOCK] = "the port has no interrupt-safe lock",
	[MMCHAL_WHY_POLICY_NO_WORK] = "no unmap or copy-back work ({} ns): completing under the "
				      "lock is cheapest",
	[MMCHAL_WHY_POLICY_IRQ_OFF_OK] = "worst-case completion work {} ns fits the interrupt-off "
					 "budget",
	[MMCHAL_WHY_POLICY_IRQ_OK] = "worst-case completion work {} ns exceeds the interrupt-off "
				     "budget; unmap and copy-back run after the lock is dropped",
	[MMCHAL_WHY_POLICY_TOO_MUCH] = "worst-case completion work {} ns exceeds the interrupt "
				       "budget; completion runs as deferred work",
	[MMCHAL_WHY_POLICY_NO_DEFER] = "worst-case completion work {} ns exceeds the interrupt "
				       "budget, but the port cannot defer work",
	[MMCHAL_WHY_POLICY_NO_IRQ_PATH] = "the library is built without the interrupt path "
					  "(MMCHAL_WITH_IRQ is 0): the caller polls",
};

static const char *const want_policy[MMCHAL_POLICY_POLLED + 1] = {
	[MMCHAL_POLICY_AUTO] = "AUTO",           [MMCHAL_POLICY_IRQ_LOCKED] = "IRQ_LOCKED",
	[MMCHAL_POLICY_IRQ_SPLIT] = "IRQ_SPLIT", [MMCHAL_POLICY_DEFERRED] = "DEFERRED",
	[MMCHAL_POLICY_POLLED] = "POLLED",
};

static const char *const want_card[MMCHAL_CARD_SD_COMBO + 1] = {
	[MMCHAL_CARD_UNKNOWN] = "unknown",   [MMCHAL_CARD_SD] = "SD",
	[MMCHAL_CARD_MMC] = "eMMC",          [MMCHAL_CARD_SDIO] = "SDIO",
	[MMCHAL_CARD_SD_COMBO] = "SD combo",
};

/* Every name and text exactly, each against its enum value (they are kept in
 * pools in enum order: one out of place shows here). */
static void test_texts_exact(void **state)
{
	(void)state;
	for (int i = 0; i < MMCHAL_LIM_COUNT; i++)
		assert_string_equal(mmchal_limit_field_name((enum mmchal_limit_field)i),
				    want_field[i]);
	for (int i = 0; i < MMCHAL_WHY_COUNT; i++)
		assert_string_equal(mmchal_limit_reason_text((enum mmchal_limit_reason)i),
				    want_reason[i]);
	for (int i = 0; i <= MMCHAL_POLICY_POLLED; i++)
		assert_string_equal(mmchal_completion_policy_name((enum mmchal_completion_policy)i),
				    want_policy[i]);
	for (int i = 0; i <= MMCHAL_CARD_SD_COMBO; i++)
		assert_string_equal(mmchal_card_type_name((enum mmchal_card_type)i), want_card[i]);
}

/* The reason a library without the interrupt path gives an interrupt-driven
 * host (MMCHAL_WITH_IRQ 0), rendered as a line: the last reason, no cause
 * printed; a line that does not fit keeps what fitted. */
static void test_no_irq_path_line(void **state)
{
	static const char want[] = "completion = POLLED: the library is built without the "
				   "interrupt path (MMCHAL_WITH_IRQ is 0): the caller polls";
	struct mmchal_limits l;
	char buf[160];

	(void)state;
	assert_int_equal(MMCHAL_WHY_POLICY_NO_IRQ_PATH, MMCHAL_WHY_POLICY_NO_DEFER + 1);
	assert_int_equal(MMCHAL_WHY_COUNT, MMCHAL_WHY_POLICY_NO_IRQ_PATH + 1);
	memset(&l, 0, sizeof(l));
	l.policy = MMCHAL_POLICY_POLLED;
	l.completion_work_ns = 2000;
	l.reason[MMCHAL_LIM_POLICY] = MMCHAL_WHY_POLICY_NO_IRQ_PATH;
	l.cause[MMCHAL_LIM_POLICY] = 2000;
	assert_int_equal(mmchal_limits_explain_field(&l, MMCHAL_LIM_POLICY, buf, sizeof(buf)),
			 (int)strlen(want));
	assert_string_equal(buf, want);
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(mmchal_limits_explain_field(&l, MMCHAL_LIM_POLICY, buf, 40),
			 MMCHAL_ENOSPC);
	assert_string_equal(buf, "completion = POLLED: the library is bui");
	assert_int_equal(buf[40], 'x');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_lines),
		cmocka_unit_test(test_whole_text),
		cmocka_unit_test(test_truncation_keeps_whole_lines),
		cmocka_unit_test(test_invalid_arguments),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_texts_exact),
		cmocka_unit_test(test_no_irq_path_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
