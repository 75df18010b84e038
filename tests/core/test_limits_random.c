/*
 * Randomised property test of the limits derivation: generated capability
 * sets (real host values mixed with broken ones) either get MMCHAL_EINVAL
 * with nothing written, or limits that keep every rule of DESIGN.md
 * section 4 (tests/core/limits_props.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "limits_props.h"

#if defined(MMCHAL_ON_TARGET) && MMCHAL_ON_TARGET
#define CASES 20000u
#else
#define CASES 300000u
#endif

static uint64_t splitmix64(void *ctx)
{
	uint64_t *s = ctx;
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void test_properties_hold(void **state)
{
	uint64_t seed = 0x11317500ull;
	unsigned int ok = 0, rejected = 0;

	(void)state;
	for (unsigned int i = 0; i < CASES; i++) {
		struct limits_case c;
		struct mmchal_limits l;
		int prop;

		limits_gen(splitmix64, &seed, &c);
		prop = limits_check(&c);
		if (prop != 0)
			fail_msg("case %u broke property %d", i, prop);
		if (mmchal_limits_derive(&c.caps, &c.port, &c.cfg, c.card, &l) == 0)
			ok++;
		else
			rejected++;
	}
	/* The generator exercises both outcomes in earnest. */
	assert_true(ok > CASES / 10u);
	assert_true(rejected > CASES / 10u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_properties_hold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
