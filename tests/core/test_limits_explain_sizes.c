/*
 * The limits explanation (src/core/limits_explain.c): a reason that names a
 * size prints its cause with units even on a field that is a count, one that
 * names a count prints it bare, and each argument of the field call is
 * checked on its own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/error.h>
#include <mmchal/limits.h>

static void line_is(enum mmchal_limit_reason r, const char *want)
{
	struct mmchal_limits l;
	char buf[160];

	memset(&l, 0, sizeof(l));
	l.max_blk_count = 16;
	l.reason[MMCHAL_LIM_MAX_BLK_COUNT] = r;
	l.cause[MMCHAL_LIM_MAX_BLK_COUNT] = 8192;
	assert_int_equal(
		mmchal_limits_explain_field(&l, MMCHAL_LIM_MAX_BLK_COUNT, buf, sizeof(buf)),
		(int)strlen(want));
	assert_string_equal(buf, want);
}

static void test_size_reasons_on_a_count(void **state)
{
	(void)state;
	line_is(MMCHAL_WHY_BOUNCE_CLAMP, "max_blk_count = 16: clamped to the bounce limit 8192 "
					 "(8 KiB) (slot size x slots per mapping)");
	line_is(MMCHAL_WHY_IOMMU_MAP_LIMIT,
		"max_blk_count = 16: clamped to the IOMMU's largest mapping, 8192 (8 KiB)");
	line_is(MMCHAL_WHY_ENGINE_XFER,
		"max_blk_count = 16: clamped to the DMA engine's largest transfer, 8192 (8 KiB)");
	line_is(MMCHAL_WHY_BLK_PRODUCT,
		"max_blk_count = 16: max_blk_size x block-count limit = 8192 (8 KiB)");
	line_is(MMCHAL_WHY_FIT_REQ_SIZE,
		"max_blk_count = 16: bounded by max_req_size 8192 (8 KiB)");
	/* a count reason prints the bare number */
	line_is(MMCHAL_WHY_BLK_COUNTER,
		"max_blk_count = 16: the block counter register is 8192 bits wide");
}

static void test_field_arguments(void **state)
{
	struct mmchal_limits l;
	char buf[64];

	(void)state;
	memset(&l, 0, sizeof(l));
	buf[0] = 'x';
	assert_int_equal(mmchal_limits_explain_field(NULL, MMCHAL_LIM_MAX_SEGS, buf, sizeof(buf)),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_limits_explain_field(&l, MMCHAL_LIM_MAX_SEGS, NULL, sizeof(buf)),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_limits_explain_field(&l, MMCHAL_LIM_MAX_SEGS, buf, 0),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_limits_explain_field(&l, MMCHAL_LIM_COUNT, buf, sizeof(buf)),
			 MMCHAL_EINVAL);
	assert_int_equal(buf[0], 'x');
	assert_string_equal(mmchal_limit_reason_text(MMCHAL_WHY_COUNT), "?");
}

static void field_is(const struct mmchal_limits *l, enum mmchal_limit_field f, const char *want)
{
	char buf[160];

	assert_int_equal(mmchal_limits_explain_field(l, f, buf, sizeof(buf)), (int)strlen(want));
	assert_string_equal(buf, want);
}

/* Each field's value, "none" for an absent boundary or bounce limit, and
   the cause printed as a size exactly on the size fields. */
static void test_every_field_value(void **state)
{
	struct mmchal_limits l;

	(void)state;
	memset(&l, 0, sizeof(l));
	l.max_segs = 4;
	l.virt_boundary = 0xfff;
	l.max_blk_size = 2048;
	l.max_req_size = 8192;
	l.max_blk_count = 16;
	l.max_seg_size = 4096;
	l.seg_boundary = 0xffffffffu;
	l.dma_align = 4;
	l.bounce_limit = 65536;
	for (unsigned f = 0; f < MMCHAL_LIM_COUNT; f++) {
		l.reason[f] = MMCHAL_WHY_ENGINE_SEGS;
		l.cause[f] = 8192;
	}
	field_is(&l, MMCHAL_LIM_MAX_SEGS,
		 "max_segs = 4: the DMA engine chains at most 8192 segment(s) per transfer");
	field_is(&l, MMCHAL_LIM_VIRT_BOUNDARY,
		 "virt_boundary = 0xfff: the DMA engine chains at most 8192 segment(s) per "
		 "transfer");
	field_is(&l, MMCHAL_LIM_MAX_BLK_SIZE,
		 "max_blk_size = 2048 (2 KiB): the DMA engine chains at most 8192 (8 KiB) "
		 "segment(s) per transfer");
	field_is(&l, MMCHAL_LIM_MAX_REQ_SIZE,
		 "max_req_size = 8192 (8 KiB): the DMA engine chains at most 8192 (8 KiB) "
		 "segment(s) per transfer");
	field_is(&l, MMCHAL_LIM_MAX_SEG_SIZE,
		 "max_seg_size = 4096 (4 KiB): the DMA engine chains at most 8192 (8 KiB) "
		 "segment(s) per transfer");
	field_is(&l, MMCHAL_LIM_SEG_BOUNDARY,
		 "seg_boundary = 0xffffffff: the DMA engine chains at most 8192 segment(s) per "
		 "transfer");
	field_is(&l, MMCHAL_LIM_BOUNCE_LIMIT,
		 "bounce_limit = 65536 (64 KiB): the DMA engine chains at most 8192 (8 KiB) "
		 "segment(s) per transfer");
	l.virt_boundary = 0;
	l.seg_boundary = 0;
	l.bounce_limit = 0;
	field_is(
		&l, MMCHAL_LIM_VIRT_BOUNDARY,
		"virt_boundary = none: the DMA engine chains at most 8192 segment(s) per transfer");
	field_is(&l, MMCHAL_LIM_SEG_BOUNDARY,
		 "seg_boundary = none: the DMA engine chains at most 8192 segment(s) per transfer");
	field_is(&l, MMCHAL_LIM_BOUNCE_LIMIT,
		 "bounce_limit = none: the DMA engine chains at most 8192 (8 KiB) segment(s) per "
		 "transfer");
	/* names of values out of range */
	assert_string_equal(mmchal_completion_policy_name((enum mmchal_completion_policy)200), "?");
	assert_string_equal(mmchal_card_type_name((enum mmchal_card_type)200), "?");
	assert_string_equal(mmchal_limit_reason_text((enum mmchal_limit_reason)200), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_reasons_on_a_count),
		cmocka_unit_test(test_field_arguments),
		cmocka_unit_test(test_every_field_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
