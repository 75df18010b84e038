/*
 * Runner self-test: every assertion of the PORTABLE subset passes when it
 * should, fixtures run in CMocka's order, skip() ends a test without failing
 * it, and the runner's mem and str functions behave like the C library's. The
 * same file passes against real CMocka on the host.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

static int after_skip;

static void test_true_false(void **state)
{
	int x = 7;
	const int *p = &x;

	(void)state;
	assert_true(1);
	assert_true(-1);
	assert_true(p);
	assert_true(0x100000000ull);
	assert_false(0);
	assert_false(x == 8);
}

static void test_int_compares_as_uintmax(void **state)
{
	(void)state;
	assert_int_equal(0, 0);
	assert_int_equal(-22, -22);
	assert_int_equal(UINT64_MAX, UINT64_MAX);
	/* CMocka 1.1 converts both sides to uintmax_t: -1 equals UINTMAX_MAX... */
	assert_int_equal(-1, UINTMAX_MAX);
	/* ...but a 32-bit all-ones value is zero-extended and differs from -1. */
	assert_int_not_equal(-1, 0xffffffffu);
	assert_int_not_equal(0x100000000ull, 0);
	assert_int_equal((uint8_t)200, 200);
	assert_int_not_equal(1, 2);
}

static void test_pointers(void **state)
{
	static const int a[2] = {1, 2};
	const int *p = &a[0];
	const void *nothing = NULL;

	(void)state;
	assert_ptr_equal(p, &a[0]);
	assert_ptr_not_equal(p, &a[1]);
	assert_null(nothing);
	assert_non_null(p);
}

static void test_memory(void **state)
{
	uint8_t x[16], y[16];

	(void)state;
	for (unsigned int i = 0; i < sizeof(x); i++)
		x[i] = y[i] = (uint8_t)(i * 17u);
	assert_memory_equal(x, y, sizeof(x));
	assert_memory_equal(x, y, 0);
	y[15] ^= 0x80u;
	assert_memory_not_equal(x, y, sizeof(x));
	assert_memory_equal(x, y, 15);
}

static void test_strings(void **state)
{
	char built[4];

	(void)state;
	built[0] = 'a';
	built[1] = 'b';
	built[2] = 'c';
	built[3] = '\0';
	assert_string_equal(built, "abc");
	assert_string_equal("", "");
}

static void test_in_range(void **state)
{
	(void)state;
	assert_in_range(5, 5, 5);
	assert_in_range(0, 0, 10);
	assert_in_range(10, 0, 10);
	assert_in_range(UINT64_MAX, 1, UINT64_MAX);
}

static void test_skip_ends_test(void **state)
{
	(void)state;
	skip();
	after_skip = 1;
}

static void test_nothing_ran_after_skip(void **state)
{
	(void)state;
	assert_int_equal(after_skip, 0);
}

/* On Cortex-M4 this needs the FPU enabled by the reset code before main. */
static void test_float_works(void **state)
{
	volatile float f = 1.5f;

	(void)state;
	f *= 3.0f;
	assert_int_equal((int)(f * 2.0f), 9);
}

static void test_libc_subset(void **state)
{
	char buf[12];

	(void)state;
	memcpy(buf, "0123456789", 11);
	memmove(buf + 2, buf, 5); /* forward overlap */
	assert_memory_equal(buf, "0101234789", 11);
	memmove(buf, buf + 3, 5); /* backward overlap */
	assert_memory_equal(buf, "1234734789", 11);
	memset(buf, 'z', 3);
	assert_memory_equal(buf, "zzz4734789", 11);
	assert_true(memcmp("ab\x80", "ab\x01", 3) > 0);
	assert_true(memcmp("ab\x01", "ab\x80", 3) < 0);
	assert_int_equal(memcmp("abc", "abd", 2), 0);
	assert_int_equal(strlen(""), 0);
	assert_int_equal(strlen(buf), 10);
	assert_int_equal(strcmp("abc", "abc"), 0);
	assert_true(strcmp("abc", "abd") < 0);
	assert_true(strcmp("abcd", "abc") > 0);
	assert_true(strcmp("\xff", "a") > 0);
	assert_int_equal(strncmp("abcx", "abcy", 3), 0);
	assert_true(strncmp("abcx", "abcy", 4) < 0);
	assert_int_equal(strncmp("ab", "ab", 10), 0);
}

/* Per-test fixtures without a group state: setup replaces the state. */
static int fixture_value;

static int set_state(void **state)
{
	fixture_value = 41;
	*state = &fixture_value;
	return 0;
}

static int check_state(void **state)
{
	/* The state the test saw and bumped comes back to teardown. */
	return *state == &fixture_value && fixture_value == 42 ? 0 : -1;
}

static void test_state_from_setup(void **state)
{
	assert_ptr_equal(*state, &fixture_value);
	fixture_value++;
}

static int prestate_value = 5;

static void test_prestate(void **state)
{
	assert_ptr_equal(*state, &prestate_value);
}

/* A group state reaches every test; fixtures run once per test, in order. */
struct counts {
	int setups;
	int teardowns;
	int tests;
};

static struct counts group_counts;

static int group_setup(void **state)
{
	*state = &group_counts;
	return 0;
}

static int group_teardown(void **state)
{
	const struct counts *c = *state;

	return c->setups == 2 && c->teardowns == 2 && c->tests == 2 ? 0 : -1;
}

static int count_setup(void **state)
{
	struct counts *c = *state;

	c->setups++;
	return 0;
}

static int count_teardown(void **state)
{
	struct counts *c = *state;

	c->teardowns++;
	return 0;
}

static void test_first_with_group_state(void **state)
{
	struct counts *c = *state;

	assert_ptr_equal(c, &group_counts);
	assert_int_equal(c->setups, 1);
	assert_int_equal(c->teardowns, 0);
	c->tests++;
}

static void test_second_with_group_state(void **state)
{
	struct counts *c = *state;

	assert_int_equal(c->setups, 2);
	assert_int_equal(c->teardowns, 1);
	c->tests++;
}

int main(void)
{
	const struct CMUnitTest asserts[] = {
		cmocka_unit_test(test_true_false),
		cmocka_unit_test(test_int_compares_as_uintmax),
		cmocka_unit_test(test_pointers),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_in_range),
		cmocka_unit_test(test_skip_ends_test),
		cmocka_unit_test(test_nothing_ran_after_skip),
		cmocka_unit_test(test_float_works),
		cmocka_unit_test(test_libc_subset),
		cmocka_unit_test_setup_teardown(test_state_from_setup, set_state, check_state),
		cmocka_unit_test_prestate(test_prestate, &prestate_value),
	};
	const struct CMUnitTest grouped[] = {
		cmocka_unit_test_setup_teardown(test_first_with_group_state, count_setup,
						count_teardown),
		cmocka_unit_test_setup_teardown(test_second_with_group_state, count_setup,
						count_teardown),
	};
	int failed = cmocka_run_group_tests(asserts, NULL, NULL);

	return failed + cmocka_run_group_tests(grouped, group_setup, group_teardown);
}
