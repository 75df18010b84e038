/* Internal bounded string builder (src/core/strbuf.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core/strbuf.h"

static void test_numbers(void **state)
{
	struct mmchal_strbuf_ sb;
	char buf[128];

	(void)state;
	mmchal_sb_init_(&sb, buf, sizeof(buf));
	mmchal_sb_putu_(&sb, 0);
	mmchal_sb_putc_(&sb, ' ');
	mmchal_sb_putu_(&sb, 18446744073709551615ull);
	mmchal_sb_putc_(&sb, ' ');
	mmchal_sb_puthex_(&sb, 0);
	mmchal_sb_putc_(&sb, ' ');
	mmchal_sb_puthex_(&sb, 0xfff);
	mmchal_sb_putc_(&sb, ' ');
	mmchal_sb_puthex_(&sb, 0xf000000000000000ull);
	assert_string_equal(buf, "0 18446744073709551615 0x0 0xfff 0xf000000000000000");
	assert_int_equal(sb.len, strlen(buf));
	assert_false(sb.overflow);
}

static void test_sizes(void **state)
{
	struct mmchal_strbuf_ sb;
	char buf[128];

	(void)state;
	mmchal_sb_init_(&sb, buf, sizeof(buf));
	mmchal_sb_putsize_(&sb, 512);
	mmchal_sb_putc_(&sb, '|');
	mmchal_sb_putsize_(&sb, 262144);
	mmchal_sb_putc_(&sb, '|');
	mmchal_sb_putsize_(&sb, 1536);
	mmchal_sb_putc_(&sb, '|');
	mmchal_sb_putsize_(&sb, 4294967296ull);
	mmchal_sb_putc_(&sb, '|');
	mmchal_sb_putsize_(&sb, 3ull << 40);
	mmchal_sb_putc_(&sb, '|');
	mmchal_sb_putsize_(&sb, 4294966784ull);
	assert_string_equal(buf, "512|262144 (256 KiB)|1536|4294967296 (4 GiB)|"
				 "3298534883328 (3 TiB)|4294966784");
}

static void test_overflow_is_bounded(void **state)
{
	struct mmchal_strbuf_ sb;
	char buf[8];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	mmchal_sb_init_(&sb, buf, 6);
	mmchal_sb_puts_(&sb, "abcdefgh");
	assert_true(sb.overflow);
	assert_string_equal(buf, "abcde");
	assert_int_equal(sb.len, 5);
	assert_int_equal(buf[6], 'x');
	/* Once overflowed, later short text is not appended either. */
	mmchal_sb_putc_(&sb, 'z');
	assert_string_equal(buf, "abcde");

	mmchal_sb_init_(&sb, buf, 1);
	mmchal_sb_putc_(&sb, 'a');
	assert_true(sb.overflow);
	assert_string_equal(buf, "");
}

/* The unit edges: exactly 1 KiB, a count of KiB that is not a whole MiB
   though above 1024, and more than 1023 TiB (no unit above TiB). */
static void test_size_edges(void **state)
{
	struct mmchal_strbuf_ sb;
	char buf[128];

	(void)state;
	mmchal_sb_init_(&sb, buf, sizeof(buf));
	mmchal_sb_putsize_(&sb, 1024);
	mmchal_sb_putc_(&sb, '|');
	mmchal_sb_putsize_(&sb, 1023);
	mmchal_sb_putc_(&sb, '|');
	mmchal_sb_putsize_(&sb, 1025u * 1024u);
	mmchal_sb_putc_(&sb, '|');
	mmchal_sb_putsize_(&sb, 1ull << 50);
	assert_string_equal(buf,
			    "1024 (1 KiB)|1023|1049600 (1025 KiB)|1125899906842624 (1024 TiB)");
	/* hex: leading zeros dropped, a zero value keeps one digit */
	mmchal_sb_init_(&sb, buf, sizeof(buf));
	mmchal_sb_puthex_(&sb, 0);
	mmchal_sb_putc_(&sb, '|');
	mmchal_sb_puthex_(&sb, 0x10);
	mmchal_sb_putc_(&sb, '|');
	mmchal_sb_puthex_(&sb, 0xf000000000000000ull);
	assert_string_equal(buf, "0x0|0x10|0xf000000000000000");
}

/* A buffer of no bytes is never written, not even the terminator. */
static void test_zero_size(void **state)
{
	char c[2] = {'x', 'y'};
	struct mmchal_strbuf_ sb;

	(void)state;
	mmchal_sb_init_(&sb, c, 0);
	assert_int_equal(c[0], 'x');
	mmchal_sb_putc_(&sb, 'a');
	mmchal_sb_putu_(&sb, 42);
	assert_true(sb.overflow);
	assert_int_equal(sb.len, 0);
	assert_int_equal(c[0], 'x');
	assert_int_equal(c[1], 'y');
	/* one byte holds the terminator only */
	mmchal_sb_init_(&sb, c, 1);
	assert_int_equal(c[0], '\0');
	mmchal_sb_putc_(&sb, 'a');
	assert_true(sb.overflow);
	assert_int_equal(c[0], '\0');
	assert_int_equal(c[1], 'y');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_overflow_is_bounded),
		cmocka_unit_test(test_zero_size),
		cmocka_unit_test(test_size_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
