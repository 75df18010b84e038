/*
 * Tests of the invariant checker (src/iommu/iova_check.c): a healthy tree
 * passes; each kind of corruption (order, aperture, annotation, counters,
 * hint) is reported as MMCHAL_EPROTO.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/error.h>
#include <mmchal/iova.h>

static uint64_t pool[MMCHAL_IOVA_POOL_BYTES(400) / 8u];
static struct mmchal_iova v;

/* The node layout is private; the test reaches a leaf's first key and end
 * through the documented order of the fields (key[], end[], gap[]). */
static uint64_t *leaf_keys(void)
{
	return (uint64_t *)(void *)pool;
}

static void build(void)
{
	struct mmchal_iova_cfg cfg;
	uint64_t s;

	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = 1;
	cfg.aperture_end = 100000;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
	for (uint32_t i = 0; i < 300; i++)
		assert_int_equal(mmchal_iova_alloc(&v, 1u + i % 5u, 100000u - 7u * i, false, &s),
				 0);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_healthy(void **state)
{
	(void)state;
	build();
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_counters(void **state)
{
	(void)state;
	build();
	v.st.live_ranges++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	build();
	v.st.live_pages--;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	build();
	v.free_count++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
}

static void test_annotation(void **state)
{
	(void)state;
	build();
	v.root_gap++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	build();
	v.root_ord++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
}

static void test_order_and_aperture(void **state)
{
	uint64_t *key = leaf_keys(), save;

	(void)state;
	/* The first node handed out is the first leaf, so pool[0..] is its key[]. */
	build();
	save = key[1];
	key[1] = key[0];
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	key[1] = save;
	assert_int_equal(mmchal_iova_check(&v), 0);
	save = key[0];
	key[0] = 0;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	key[0] = save;
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_hint(void **state)
{
	(void)state;
	build();
	v.top_a++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy),    cmocka_unit_test(test_counters),
		cmocka_unit_test(test_annotation), cmocka_unit_test(test_order_and_aperture),
		cmocka_unit_test(test_hint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
