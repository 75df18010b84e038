/*
 * On-target stand-in for <cmocka.h>: the subset of the CMocka 1.1 API that a
 * PORTABLE test may use, so that one test source builds against real CMocka on
 * the host and against this runner on Cortex-M4 and RV64 under QEMU.
 *
 * Semantics follow CMocka 1.1: integer assertions compare as uintmax_t, a
 * failed assertion ends the current test (longjmp back to the runner), the
 * per-test teardown still runs after a failed test, a group's state is handed
 * to every test that has no initial state, and cmocka_run_group_tests()
 * returns the number of failed tests (skipped tests are not failures).
 *
 * Output: "[ RUN      ] / [       OK ] / [  FAILED  ] / [  SKIPPED ]" per test,
 * "file:line: ..." with the values for every failure, then the plain line
 * "N passed, N failed" (", N skipped" when any).
 */
#ifndef MMCHAL_TARGET_CMOCKA_H
#define MMCHAL_TARGET_CMOCKA_H

#include <stddef.h>
#include <stdint.h>

typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);

struct CMUnitTest {
	const char *name;
	CMUnitTestFunction test_func;
	CMFixtureFunction setup_func;
	CMFixtureFunction teardown_func;
	void *initial_state;
};

#define cmocka_unit_test(f)             \
	{                               \
#f, f, NULL, NULL, NULL \
	}
#define cmocka_unit_test_setup(f, setup) \
	{                                \
#f, f, setup, NULL, NULL \
	}
#define cmocka_unit_test_teardown(f, teardown) \
	{                                      \
#f, f, NULL, teardown, NULL    \
	}
#define cmocka_unit_test_setup_teardown(f, setup, teardown) \
	{                                                   \
#f, f, setup, teardown, NULL                \
	}
#define cmocka_unit_test_prestate(f, state) \
	{                                   \
#f, f, NULL, NULL, state    \
	}

#define cmocka_run_group_tests(group, setup, teardown) \
	mmt_run_group_(#group, group, sizeof(group) / sizeof((group)[0]), setup, teardown)

#define assert_true(c)  mmt_assert_true_(!!(c), 1, #c, __FILE__, __LINE__)
#define assert_false(c) mmt_assert_true_(!(c), 0, #c, __FILE__, __LINE__)

#define assert_int_equal(a, b) \
	mmt_assert_int_(1, (uintmax_t)(a), (uintmax_t)(b), #a, #b, __FILE__, __LINE__)
#define assert_int_not_equal(a, b) \
	mmt_assert_int_(0, (uintmax_t)(a), (uintmax_t)(b), #a, #b, __FILE__, __LINE__)

#define assert_ptr_equal(a, b) \
	mmt_assert_ptr_(1, (uintptr_t)(a), (uintptr_t)(b), #a, #b, __FILE__, __LINE__)
#define assert_ptr_not_equal(a, b) \
	mmt_assert_ptr_(0, (uintptr_t)(a), (uintptr_t)(b), #a, #b, __FILE__, __LINE__)
#define assert_null(c) \
	mmt_assert_ptr_(1, (uintptr_t)(c), (uintptr_t)0, #c, "NULL", __FILE__, __LINE__)
#define assert_non_null(c) \
	mmt_assert_ptr_(0, (uintptr_t)(c), (uintptr_t)0, #c, "NULL", __FILE__, __LINE__)

#define assert_memory_equal(a, b, size) \
	mmt_assert_mem_(1, (a), (b), (size_t)(size), #a, #b, __FILE__, __LINE__)
#define assert_memory_not_equal(a, b, size) \
	mmt_assert_mem_(0, (a), (b), (size_t)(size), #a, #b, __FILE__, __LINE__)

#define assert_string_equal(a, b) mmt_assert_str_((a), (b), #a, #b, __FILE__, __LINE__)

#define assert_in_range(value, minimum, maximum)                                                  \
	mmt_assert_range_((uintmax_t)(value), (uintmax_t)(minimum), (uintmax_t)(maximum), #value, \
			  __FILE__, __LINE__)

#define fail()        mmt_fail_(__FILE__, __LINE__, NULL)
#define fail_msg(...) mmt_fail_msg_(__FILE__, __LINE__, __VA_ARGS__)
#define skip()        mmt_skip_(__FILE__, __LINE__)

/* Implementation (tests/target/runner.c); not for direct use. */
int mmt_run_group_(const char *group, const struct CMUnitTest *tests, size_t count,
		   CMFixtureFunction setup, CMFixtureFunction teardown);
void mmt_assert_true_(int ok, int want, const char *expr, const char *file, int line);
void mmt_assert_int_(int want_equal, uintmax_t a, uintmax_t b, const char *ea, const char *eb,
		     const char *file, int line);
void mmt_assert_ptr_(int want_equal, uintptr_t a, uintptr_t b, const char *ea, const char *eb,
		     const char *file, int line);
void mmt_assert_mem_(int want_equal, const void *a, const void *b, size_t size, const char *ea,
		     const char *eb, const char *file, int line);
void mmt_assert_str_(const char *a, const char *b, const char *ea, const char *eb, const char *file,
		     int line);
void mmt_assert_range_(uintmax_t v, uintmax_t lo, uintmax_t hi, const char *ev, const char *file,
		       int line);
_Noreturn void mmt_fail_(const char *file, int line, const char *why);
_Noreturn void mmt_fail_msg_(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
_Noreturn void mmt_skip_(const char *file, int line);

#endif /* MMCHAL_TARGET_CMOCKA_H */
