/*
 * The hand-built trees of the golden-text tests (dt_golden_edge.c,
 * dt_golden_edge2.c): shapes no shared board has, every derived field and
 * every reason of every node compared with the exact text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

#include "dt/dt_golden.h"

static void test_edge_tree_exactly(void **state)
{
	static struct out o;
	size_t size;
	unsigned char *blob = edge_tree(&size);

	(void)state;
	describe_blob(&o, "edge", blob, size, "ES1.1");
	assert_text(o.buf, edge_golden);
	free(blob);
	blob = edge2_tree(&size);
	describe_blob(&o, "edge2", blob, size, "ES1.0");
	assert_text(o.buf, edge2_golden);
	free(blob);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edge_tree_exactly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
