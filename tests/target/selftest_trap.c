/*
 * Runner self-test for crashes: an undefined instruction must be reported by
 * the fault/trap handler and end the emulator with status 254 rather than
 * hang or pass. Target only (on the host CMocka would catch the signal).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static void test_trap(void **state)
{
	(void)state;
	__builtin_trap();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
