/*
 * On-target test runner behind tests/target/include/cmocka.h. Runs one group
 * the way CMocka 1.1 does (group setup, per test setup/test/teardown, group
 * teardown) and reports on the target's console.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "platform.h"

enum outcome { MMT_PASSED, MMT_FAILED, MMT_SKIPPED };

/* Where a failed or skipped assertion resumes; NULL outside a test or fixture. */
static jmp_buf *resume;
static enum outcome jumped_with;

static _Noreturn void leave(enum outcome why)
{
	if (resume == NULL) {
		/* An assertion outside any test (e.g. from main): nothing to resume. */
		mmt_printf("[  ERROR   ] assertion outside a test\n");
		mmt_flush();
		mmt_exit(1);
	}
	jumped_with = why;
	longjmp(*resume, 1);
}

static _Noreturn void failed(const char *file, int line)
{
	(void)file;
	(void)line;
	leave(MMT_FAILED);
}

void mmt_assert_true_(int ok, int want, const char *expr, const char *file, int line)
{
	if (ok)
		return;
	mmt_printf("%s:%d: error: %s is %s\n", file, line, expr, want ? "false" : "true");
	failed(file, line);
}

void mmt_assert_int_(int want_equal, uintmax_t a, uintmax_t b, const char *ea, const char *eb,
		     const char *file, int line)
{
	if ((a == b) == !!want_equal)
		return;
	/* Signed decimal and hex: -22 and 0xffffffffffffffea both read at a glance. */
	mmt_printf("%s:%d: error: %s %s %s: %jd (0x%jx) %s %jd (0x%jx)\n", file, line, ea,
		   want_equal ? "==" : "!=", eb, (intmax_t)a, a,
		   want_equal ? "!=" : "==", (intmax_t)b, b);
	failed(file, line);
}

/*
 * Pointers arrive as integers, as in CMocka: a pointer-to-const parameter would
 * make GCC warn about passing the address of a not yet initialised object.
 */
void mmt_assert_ptr_(int want_equal, uintptr_t a, uintptr_t b, const char *ea, const char *eb,
		     const char *file, int line)
{
	if ((a == b) == !!want_equal)
		return;
	mmt_printf("%s:%d: error: %s %s %s: 0x%jx %s 0x%jx\n", file, line, ea,
		   want_equal ? "==" : "!=", eb, (uintmax_t)a,
		   want_equal ? "!=" : "==", (uintmax_t)b);
	failed(file, line);
}

void mmt_assert_mem_(int want_equal, const void *a, const void *b, size_t size, const char *ea,
		     const char *eb, const char *file, int line)
{
	const unsigned char *pa = a;
	const unsigned char *pb = b;
	size_t diffs = 0;
	size_t first = 0;

	if (pa == NULL || pb == NULL) {
		mmt_printf("%s:%d: error: memory compare of %s and %s with a NULL pointer\n", file,
			   line, ea, eb);
		failed(file, line);
	}
	for (size_t i = 0; i < size; i++) {
		if (pa[i] != pb[i] && diffs++ == 0)
			first = i;
	}
	if ((diffs == 0) == !!want_equal)
		return;
	if (want_equal)
		mmt_printf("%s:%d: error: %s and %s differ in %zu of %zu bytes, first at offset "
			   "%zu: 0x%02x != 0x%02x\n",
			   file, line, ea, eb, diffs, size, first, pa[first], pb[first]);
	else
		mmt_printf("%s:%d: error: %s and %s are equal over %zu bytes\n", file, line, ea, eb,
			   size);
	failed(file, line);
}

void mmt_assert_str_(const char *a, const char *b, const char *ea, const char *eb, const char *file,
		     int line)
{
	if (a != NULL && b != NULL && strcmp(a, b) == 0)
		return;
	mmt_printf("%s:%d: error: %s == %s: \"%s\" != \"%s\"\n", file, line, ea, eb, a, b);
	failed(file, line);
}

void mmt_assert_range_(uintmax_t v, uintmax_t lo, uintmax_t hi, const char *ev, const char *file,
		       int line)
{
	if (v >= lo && v <= hi)
		return;
	mmt_printf("%s:%d: error: %s = %ju (0x%jx) is not within %ju..%ju\n", file, line, ev, v, v,
		   lo, hi);
	failed(file, line);
}

_Noreturn void mmt_fail_(const char *file, int line, const char *why)
{
	mmt_printf("%s:%d: error: %s\n", file, line, why != NULL ? why : "fail()");
	failed(file, line);
}

_Noreturn void mmt_fail_msg_(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	mmt_printf("%s:%d: error: ", file, line);
	va_start(ap, fmt);
	mmt_vprintf(fmt, ap);
	va_end(ap);
	mmt_putc('\n');
	failed(file, line);
}

_Noreturn void mmt_skip_(const char *file, int line)
{
	mmt_printf("%s:%d: skipped\n", file, line);
	leave(MMT_SKIPPED);
}

/* Runs a test body or fixture; a fixture's non-zero return is a failure. */
static enum outcome run_guarded(CMUnitTestFunction test, CMFixtureFunction fixture, void **state,
				const char *what)
{
	jmp_buf here;

	resume = &here;
	if (setjmp(here) != 0) {
		resume = NULL;
		return jumped_with;
	}
	if (test != NULL) {
		test(state);
	} else if (fixture(state) != 0) {
		resume = NULL;
		mmt_printf("[  ERROR   ] %s failed\n", what);
		return MMT_FAILED;
	}
	resume = NULL;
	return MMT_PASSED;
}

static enum outcome run_one(const struct CMUnitTest *t, void *group_state)
{
	void *state = group_state != NULL ? group_state : t->initial_state;
	enum outcome r = MMT_PASSED;
	enum outcome down;

	if (t->setup_func != NULL)
		r = run_guarded(NULL, t->setup_func, &state, "setup");
	if (r != MMT_PASSED)
		return r;
	r = run_guarded(t->test_func, NULL, &state, t->name);
	/* As in CMocka, teardown runs after a failed or skipped test too. */
	if (t->teardown_func != NULL) {
		down = run_guarded(NULL, t->teardown_func, &state, "teardown");
		if (down == MMT_FAILED)
			r = MMT_FAILED;
	}
	return r;
}

int mmt_run_group_(const char *group, const struct CMUnitTest *tests, size_t count,
		   CMFixtureFunction setup, CMFixtureFunction teardown)
{
	void *group_state = NULL;
	size_t passed = 0, failed_n = 0, skipped = 0;

	mmt_printf("[==========] %s: Running %zu test(s).\n", group, count);
	if (setup != NULL && run_guarded(NULL, setup, &group_state, "group setup") != MMT_PASSED) {
		/* Like CMocka: no test runs, every one of them counts as failed. */
		failed_n = count;
		goto out;
	}
	for (size_t i = 0; i < count; i++) {
		const struct CMUnitTest *t = &tests[i];

		mmt_printf("[ RUN      ] %s\n", t->name);
		switch (run_one(t, group_state)) {
		case MMT_PASSED:
			passed++;
			mmt_printf("[       OK ] %s\n", t->name);
			break;
		case MMT_SKIPPED:
			skipped++;
			mmt_printf("[  SKIPPED ] %s\n", t->name);
			break;
		default:
			failed_n++;
			mmt_printf("[  FAILED  ] %s\n", t->name);
			break;
		}
		mmt_flush();
	}
	if (teardown != NULL &&
	    run_guarded(NULL, teardown, &group_state, "group teardown") != MMT_PASSED)
		failed_n++;
out:
	mmt_printf("[==========] %s: %zu test(s) run.\n", group, count);
	if (skipped != 0)
		mmt_printf("%zu passed, %zu failed, %zu skipped\n", passed, failed_n, skipped);
	else
		mmt_printf("%zu passed, %zu failed\n", passed, failed_n);
	mmt_flush();
	return failed_n > INT32_MAX ? INT32_MAX : (int)failed_n;
}

int mmt_clamp_exit_(int code)
{
	if (code == 0)
		return 0;
	if (code < 0 || code >= MMT_EXIT_CRASH)
		return MMT_EXIT_CRASH - 1;
	return code;
}
