/*
 * Runner self-test that must fail: each of the first 18 tests breaks one
 * assertion (or fixture) exactly once, the last two pass. The program's exit
 * status must be 18 and the summary "2 passed, 18 failed"; ctest checks both
 * (tests/target/check_run.cmake). Against real CMocka on the host it returns
 * 18 as well.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

/* volatile: the compiler must not see that the assertions are bound to fail. */
static volatile int zero;
static volatile int one = 1;
static int reached;
static int teardown_ran;

static void test_true(void **state)
{
	(void)state;
	assert_true(zero);
	reached = 1;
}

static void test_false(void **state)
{
	(void)state;
	assert_false(one);
	reached = 1;
}

static void test_int_equal(void **state)
{
	(void)state;
	assert_int_equal(3 + zero, 4);
	reached = 1;
}

static void test_int_not_equal(void **state)
{
	(void)state;
	/* Equal as uintmax_t, so "not equal" fails. */
	assert_int_not_equal(-1 + zero, UINTMAX_MAX);
	reached = 1;
}

static void test_ptr_equal(void **state)
{
	int a[2];

	(void)state;
	assert_ptr_equal(&a[0], &a[1]);
	reached = 1;
}

static void test_ptr_not_equal(void **state)
{
	int a;

	(void)state;
	assert_ptr_not_equal(&a, &a);
	reached = 1;
}

static void test_null(void **state)
{
	int a;

	(void)state;
	assert_null(&a);
	reached = 1;
}

static void test_non_null(void **state)
{
	const void *p = (const void *)(uintptr_t)zero;

	(void)state;
	assert_non_null(p);
	reached = 1;
}

static void test_memory_equal(void **state)
{
	uint8_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	uint8_t y[8] = {1, 2, 3, 4, 5, 0x66, 7, 8};

	(void)state;
	assert_memory_equal(x, y, sizeof(x));
	reached = 1;
}

static void test_memory_not_equal(void **state)
{
	uint8_t x[4] = {9, 9, 9, 9};

	(void)state;
	assert_memory_not_equal(x, "\x09\x09\x09\x09", sizeof(x));
	reached = 1;
}

static void test_string_equal(void **state)
{
	(void)state;
	assert_string_equal("abc", "abd");
	reached = 1;
}

static void test_in_range_low(void **state)
{
	(void)state;
	assert_in_range(1 + zero, 2, 5);
	reached = 1;
}

static void test_in_range_high(void **state)
{
	(void)state;
	assert_in_range(6 + zero, 2, 5);
	reached = 1;
}

static void test_fail(void **state)
{
	(void)state;
	fail();
	reached = 1;
}

static void test_fail_msg(void **state)
{
	(void)state;
	fail_msg("value %d name %s", -5 + zero, "x");
	reached = 1;
}

static int setup_fails(void **state)
{
	(void)state;
	return -1;
}

static void test_not_run(void **state)
{
	(void)state;
	reached = 1;
}

static int teardown_fails(void **state)
{
	(void)state;
	return -1;
}

static void test_passes_but_teardown_fails(void **state)
{
	(void)state;
}

static int note_teardown(void **state)
{
	(void)state;
	teardown_ran = 1;
	return 0;
}

static void test_fails_before_teardown(void **state)
{
	(void)state;
	assert_int_equal(one, 2);
	reached = 1;
}

static void test_teardown_ran_after_failure(void **state)
{
	(void)state;
	assert_int_equal(teardown_ran, 1);
}

static void test_nothing_ran_after_failures(void **state)
{
	(void)state;
	assert_int_equal(reached, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_true),
		cmocka_unit_test(test_false),
		cmocka_unit_test(test_int_equal),
		cmocka_unit_test(test_int_not_equal),
		cmocka_unit_test(test_ptr_equal),
		cmocka_unit_test(test_ptr_not_equal),
		cmocka_unit_test(test_null),
		cmocka_unit_test(test_non_null),
		cmocka_unit_test(test_memory_equal),
		cmocka_unit_test(test_memory_not_equal),
		cmocka_unit_test(test_string_equal),
		cmocka_unit_test(test_in_range_low),
		cmocka_unit_test(test_in_range_high),
		cmocka_unit_test(test_fail),
		cmocka_unit_test(test_fail_msg),
		cmocka_unit_test_setup(test_not_run, setup_fails),
		cmocka_unit_test_teardown(test_passes_but_teardown_fails, teardown_fails),
		cmocka_unit_test_teardown(test_fails_before_teardown, note_teardown),
		cmocka_unit_test(test_teardown_ran_after_failure),
		cmocka_unit_test(test_nothing_ran_after_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
