/* Error texts (src/core/error.c): every code has its own text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/error.h>

static void test_known_codes(void **state)
{
	(void)state;
	assert_string_equal(mmchal_strerror(MMCHAL_OK), "success");
	assert_string_equal(mmchal_strerror(MMCHAL_EINVAL), "invalid argument");
	assert_string_equal(mmchal_strerror(MMCHAL_ENOTSUP), "operation not supported");
	assert_string_equal(mmchal_strerror(MMCHAL_ENOMEM), "pool exhausted");
	assert_string_equal(mmchal_strerror(MMCHAL_ETIMEDOUT), "timed out");
	assert_string_equal(mmchal_strerror(MMCHAL_EIO), "I/O error (CRC or end bit)");
	assert_string_equal(mmchal_strerror(MMCHAL_EBUSY), "busy");
	assert_string_equal(mmchal_strerror(MMCHAL_ENOMEDIUM), "no card");
	assert_string_equal(mmchal_strerror(MMCHAL_EFAULT), "DMA or IOMMU fault");
	assert_string_equal(mmchal_strerror(MMCHAL_ERANGE), "value out of range");
	assert_string_equal(mmchal_strerror(MMCHAL_ENOENT), "not found");
	assert_string_equal(mmchal_strerror(MMCHAL_EALREADY), "already done");
	assert_string_equal(mmchal_strerror(MMCHAL_EILSEQ), "illegal command or protocol sequence");
	assert_string_equal(mmchal_strerror(MMCHAL_ECANCELED), "aborted");
	assert_string_equal(mmchal_strerror(MMCHAL_EPROTO), "malformed data");
	assert_string_equal(mmchal_strerror(MMCHAL_ENOSPC), "buffer too small");
	assert_string_equal(mmchal_strerror(MMCHAL_EROFS), "card is write-protected");
}

static void test_texts_are_distinct(void **state)
{
	(void)state;
	for (int a = MMCHAL_EROFS; a <= 0; a++)
		for (int b = a + 1; b <= 0; b++)
			assert_true(strcmp(mmchal_strerror(a), mmchal_strerror(b)) != 0);
}

static void test_unknown_codes(void **state)
{
	(void)state;
	assert_string_equal(mmchal_strerror(1), "unknown error");
	assert_string_equal(mmchal_strerror(MMCHAL_EROFS - 1), "unknown error");
	assert_string_equal(mmchal_strerror(-2147483647 - 1), "unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_codes),
		cmocka_unit_test(test_texts_are_distinct),
		cmocka_unit_test(test_unknown_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
