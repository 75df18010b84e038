/*
 * Limits of the IOVA cache configuration (src/iommu/iova.c) that need
 * about 1 MiB of cache memory: the largest number of cached sizes (65 535)
 * and the clamp of the automatic depth to 65 535 ranges per size. Host
 * only: the memory is more than the small targets have.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/error.h>
#include <mmchal/iova.h>

#include "iommu/iova_node.h"

#define WORDS (65535u * 2u + 2u)

static uint64_t pool[MMCHAL_IOVA_POOL_BYTES(100) / 8u];
static uint64_t cache[WORDS];
static struct mmchal_iova v;

static void cfg_init(struct mmchal_iova_cfg *cfg, uint32_t max, size_t bytes)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->aperture_start = 1;
	cfg->aperture_end = 1u << 20;
	cfg->node_mem = pool;
	cfg->node_mem_size = sizeof(pool);
	cfg->cache_mem = cache;
	cfg->cache_mem_size = bytes;
	cfg->cache_max_pages = max;
}

static void test_most_sizes(void **state)
{
	struct mmchal_iova_cfg cfg;
	uint64_t s;

	(void)state;
	memset(cache, 0xa5, sizeof(cache));
	cfg_init(&cfg, 65535, (size_t)65535u * 2u * 8u);
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
	assert_int_equal(v.cache_max, 65535);
	assert_int_equal(v.cache_depth, 1);
	for (size_t i = 0; i < 65535u; i++)
		assert_int_equal(cache[2u * i], 0);
	assert_int_equal(cache[WORDS - 2u], 0xa5a5a5a5a5a5a5a5ull);
	/* The largest size is cached like any other. */
	assert_int_equal(mmchal_iova_alloc(&v, 65535, 1u << 20, false, &s), 0);
	assert_int_equal(s, (1u << 20) - 65534u);
	assert_int_equal(mmchal_iova_free_cached(&v, s, 65535), 0);
	assert_int_equal(cache[2u * 65534u], 1);
	assert_int_equal(cache[2u * 65534u + 1u], s);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_depth_clamped(void **state)
{
	struct mmchal_iova_cfg cfg;

	(void)state;
	/* One size, room for 131 071 entries: the depth stops at 65 535. */
	cfg_init(&cfg, 1, sizeof(cache));
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
	assert_int_equal(v.cache_depth, 65535);
	/* Asked for explicitly, more than 65 535 is clamped the same way. */
	cfg.cache_depth = 70000;
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
	assert_int_equal(v.cache_depth, 65535);
	cfg.cache_depth = 65536;
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
	assert_int_equal(v.cache_depth, 65535);
	/* Exactly 65 535 per size needs 65 536 words. */
	cfg.cache_depth = 0;
	cfg.cache_mem_size = 65536u * 8u;
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
	assert_int_equal(v.cache_depth, 65535);
	cfg.cache_depth = 65535;
	cfg.cache_mem_size = 65535u * 8u;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_most_sizes),
		cmocka_unit_test(test_depth_clamped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
