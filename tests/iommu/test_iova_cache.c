/*
 * Tests of the per-size cache (src/iommu/iova_cache.c): hits and misses,
 * limit and alignment of cached entries, full bins, double free, flush, and
 * the interplay with the plain free.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/error.h>
#include <mmchal/iova.h>

#define DEPTH 4u

static uint64_t pool[MMCHAL_IOVA_POOL_BYTES(2000) / 8u];
static uint64_t cache[MMCHAL_IOVA_CACHE_BYTES(MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT, DEPTH) / 8u];
static struct mmchal_iova v;

static void init(uint32_t flags)
{
	struct mmchal_iova_cfg cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = 1;
	cfg.aperture_end = (1u << 20) - 1u;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	cfg.cache_mem = cache;
	cfg.cache_mem_size = sizeof(cache);
	cfg.cache_depth = DEPTH;
	cfg.flags = flags;
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
}

static void test_cfg_errors(void **state)
{
	struct mmchal_iova_cfg cfg;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = 1;
	cfg.aperture_end = 1000;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	cfg.cache_mem = cache;
	cfg.cache_mem_size = 512u * 8u; /* one word per size: no room for an entry */
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
	cfg.cache_mem_size = sizeof(cache);
	cfg.cache_depth = DEPTH + 1u;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
	cfg.cache_depth = 0;
	cfg.cache_max_pages = 70000u;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
}

static void test_hit_every_size(void **state)
{
	struct mmchal_iova_stats st;
	uint64_t s, t;

	(void)state;
	init(0);
	for (uint64_t n = 1; n <= 512u; n++) {
		assert_int_equal(mmchal_iova_alloc_cached(&v, n, (1u << 20) - 1u, true, &s), 0);
		assert_int_equal(mmchal_iova_free_cached(&v, s, n), 0);
		assert_int_equal(mmchal_iova_alloc_cached(&v, n, (1u << 20) - 1u, true, &t), 0);
		assert_int_equal(t, s);
		assert_int_equal(mmchal_iova_free_cached(&v, t, n), 0);
	}
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.cache_hits, 512);
	assert_int_equal(st.cache_misses, 512);
	assert_int_equal(st.cached_ranges, 512);
	assert_int_equal(st.live_ranges, 512);
	assert_int_equal(mmchal_iova_check(&v), 0);
	assert_int_equal(mmchal_iova_cache_flush(&v), 0);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.cached_ranges, 0);
	assert_int_equal(st.live_ranges, 0);
	assert_int_equal(st.live_pages, 0);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_limit_and_alignment_respected(void **state)
{
	uint64_t s, t;

	(void)state;
	init(0);
	/* An unaligned 3-page range at the top: 1048573..1048575. */
	assert_int_equal(mmchal_iova_alloc_cached(&v, 3, (1u << 20) - 1u, false, &s), 0);
	assert_int_equal(s, (1u << 20) - 3u);
	assert_int_equal(mmchal_iova_free_cached(&v, s, 3), 0);
	/* Cached entry too high for this limit: miss, fresh range below it. */
	assert_int_equal(mmchal_iova_alloc_cached(&v, 3, 1000, false, &t), 0);
	assert_int_equal(t, 998);
	/* Cached entry not aligned to 4: miss. */
	assert_int_equal(mmchal_iova_alloc_cached(&v, 3, (1u << 20) - 1u, true, &t), 0);
	assert_int_equal(t & 3u, 0);
	assert_int_not_equal(t, s);
	/* Sizes above the cached maximum go straight to the tree. */
	assert_int_equal(mmchal_iova_alloc_cached(&v, 513, (1u << 20) - 1u, false, &t), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, t, 513), 0);
	assert_int_equal(mmchal_iova_find(&v, t, NULL, NULL), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_full_bin_and_double_free(void **state)
{
	struct mmchal_iova_stats st;
	uint64_t s[DEPTH + 2u];

	(void)state;
	init(0);
	for (uint32_t i = 0; i < DEPTH + 2u; i++)
		assert_int_equal(mmchal_iova_alloc(&v, 2, (1u << 20) - 1u, false, &s[i]), 0);
	for (uint32_t i = 0; i < DEPTH; i++)
		assert_int_equal(mmchal_iova_free_cached(&v, s[i], 2), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, s[0], 2), MMCHAL_EALREADY);
	/* Plain free of a cached range is a double free too. */
	assert_int_equal(mmchal_iova_free(&v, s[1]), MMCHAL_EALREADY);
	/* Full bin: the next one is freed in the tree. */
	assert_int_equal(mmchal_iova_free_cached(&v, s[DEPTH], 2), 0);
	assert_int_equal(mmchal_iova_find(&v, s[DEPTH], NULL, NULL), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_free_cached(&v, s[DEPTH], 2), MMCHAL_ENOENT);
	/* Wrong size for a live range, caught when it goes to the tree. */
	assert_int_equal(mmchal_iova_free_cached(&v, s[DEPTH + 1u], 700), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_free_cached(&v, 0, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_free_cached(&v, (1u << 20) - 1u, 2), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_free_cached(&v, 5, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.cached_ranges, DEPTH);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_recent_double_free_unchecked(void **state)
{
	uint64_t a, b, c;

	(void)state;
	init(0);
	assert_int_equal(mmchal_iova_alloc(&v, 8, (1u << 20) - 1u, false, &a), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 8, (1u << 20) - 1u, false, &b), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 8, (1u << 20) - 1u, false, &c), 0);
	/* The bin is not full, so these stay on the O(1) path. */
	assert_int_equal(mmchal_iova_free_cached(&v, a, 8), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, a, 8), MMCHAL_EALREADY);
	assert_int_equal(mmchal_iova_free_cached(&v, b, 8), 0);
	/* Both of the two most recent entries are checked. */
	assert_int_equal(mmchal_iova_free_cached(&v, a, 8), MMCHAL_EALREADY);
	assert_int_equal(mmchal_iova_free_cached(&v, b, 8), MMCHAL_EALREADY);
	assert_int_equal(mmchal_iova_free_cached(&v, c, 8), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, c, 8), MMCHAL_EALREADY);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_checked_mode(void **state)
{
	uint64_t s;

	(void)state;
	init(MMCHAL_IOVA_F_CHECK_CACHED);
	assert_int_equal(mmchal_iova_alloc(&v, 4, (1u << 20) - 1u, false, &s), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, s + 1u, 3), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_free_cached(&v, s, 3), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_free_cached(&v, 1000, 3), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_free_cached(&v, s, 4), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, s, 4), MMCHAL_EALREADY);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_no_cache(void **state)
{
	struct mmchal_iova_cfg cfg;
	uint64_t s;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = 1;
	cfg.aperture_end = 1000;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
	assert_int_equal(mmchal_iova_alloc_cached(&v, 2, 1000, false, &s), 0);
	assert_int_equal(s, 999);
	assert_int_equal(mmchal_iova_free_cached(&v, s, 2), 0);
	assert_int_equal(mmchal_iova_find(&v, s, NULL, NULL), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_cache_flush(&v), 0);
	assert_int_equal(mmchal_iova_cache_flush(NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_alloc_cached(NULL, 2, 1000, false, &s), MMCHAL_EINVAL);
}

static void test_checked_full_bin_and_bad_args(void **state)
{
	struct mmchal_iova_stats st;
	uint64_t s[DEPTH + 1u], t;

	(void)state;
	init(MMCHAL_IOVA_F_CHECK_CACHED);
	for (uint32_t i = 0; i < DEPTH + 1u; i++) {
		assert_int_equal(mmchal_iova_alloc(&v, 3, (1u << 20) - 1u, false, &s[i]), 0);
		assert_int_equal(s[i], (1u << 20) - 3u * (i + 1u));
	}
	for (uint32_t i = 0; i < DEPTH; i++)
		assert_int_equal(mmchal_iova_free_cached(&v, s[i], 3), 0);
	/* Checked, and the bin is full: freed in the tree. */
	assert_int_equal(mmchal_iova_free_cached(&v, s[DEPTH], 3), 0);
	assert_int_equal(mmchal_iova_find(&v, s[DEPTH], NULL, NULL), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.cached_ranges, DEPTH);
	assert_int_equal(st.live_ranges, DEPTH);
	/* The most recently cached one comes back first. */
	assert_int_equal(mmchal_iova_alloc_cached(&v, 3, (1u << 20) - 1u, false, &t), 0);
	assert_int_equal(t, s[DEPTH - 1u]);
	assert_int_equal(mmchal_iova_check(&v), 0);
	/* Bad arguments. */
	assert_int_equal(mmchal_iova_alloc_cached(&v, 0, 1000, false, &t), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_alloc_cached(&v, 2, 1000, false, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_free_cached(NULL, 5, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.cached_ranges, DEPTH - 1u);
	assert_int_equal(st.live_ranges, DEPTH);
}

/* A cached range is reused only when all of it is at or below the limit:
   a limit inside it is a miss, answered from below it. */
static void test_limit_inside_cached_range(void **state)
{
	uint64_t s, t;

	(void)state;
	init(0);
	assert_int_equal(mmchal_iova_alloc_cached(&v, 3, (1u << 20) - 1u, false, &s), 0);
	assert_int_equal(s, (1u << 20) - 3u);
	assert_int_equal(mmchal_iova_free_cached(&v, s, 3), 0);
	assert_int_equal(mmchal_iova_alloc_cached(&v, 3, s + 1u, false, &t), 0);
	assert_int_equal(t, s - 3u);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/* A bin's first word is its count: a range that starts at the same number
   (page 1, with one entry cached) is not taken for a cached one, checked or
   not. */
static void test_start_equal_to_bin_count(void **state)
{
	static const uint32_t flags[] = {0, MMCHAL_IOVA_F_CHECK_CACHED};

	(void)state;
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		uint64_t one, top;

		init(flags[i]);
		assert_int_equal(mmchal_iova_alloc(&v, 1, 1, false, &one), 0);
		assert_int_equal(one, 1);
		assert_int_equal(mmchal_iova_alloc(&v, 1, (1u << 20) - 1u, false, &top), 0);
		assert_int_equal(mmchal_iova_free_cached(&v, top, 1), 0);
		assert_int_equal(mmchal_iova_free_cached(&v, one, 1), 0);
		assert_int_equal(mmchal_iova_free_cached(&v, one, 1), MMCHAL_EALREADY);
		assert_int_equal(mmchal_iova_check(&v), 0);
	}
}

/* Checked: the largest cached size is cached (and a second free of it is a
   double free); one page more goes to the tree. */
static void test_checked_largest_size(void **state)
{
	uint64_t s, t;

	(void)state;
	init(MMCHAL_IOVA_F_CHECK_CACHED);
	assert_int_equal(mmchal_iova_alloc(&v, MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT, (1u << 20) - 1u,
					   false, &s),
			 0);
	assert_int_equal(mmchal_iova_free_cached(&v, s, MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT), 0);
	assert_int_equal(mmchal_iova_find(&v, s, NULL, NULL), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, s, MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT),
			 MMCHAL_EALREADY);
	assert_int_equal(mmchal_iova_alloc(&v, MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT + 1u,
					   (1u << 20) - 1u, false, &t),
			 0);
	assert_int_equal(mmchal_iova_free_cached(&v, t, MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT + 1u),
			 0);
	assert_int_equal(mmchal_iova_find(&v, t, NULL, NULL), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/*
 * The cache memory the caller gave, and nothing around it: the words just
 * before and after it hold a pattern that a flush reading or writing outside
 * its bins would take for a bin count (1) and change.
 */
static void test_flush_stays_in_cache_mem(void **state)
{
	enum { GUARD = DEPTH + 2u, WORDS = sizeof(cache) / 8u };
	static uint64_t framed[GUARD + WORDS + GUARD];
	struct mmchal_iova_stats st;
	struct mmchal_iova_cfg cfg;
	uint64_t s[3];

	(void)state;
	for (size_t i = 0; i < GUARD + WORDS + GUARD; i++)
		framed[i] = 1;
	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = 1;
	cfg.aperture_end = (1u << 20) - 1u;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	cfg.cache_mem = framed + GUARD;
	cfg.cache_mem_size = sizeof(cache);
	cfg.cache_depth = DEPTH;
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
	/* the smallest, a middle and the largest cached size */
	assert_int_equal(mmchal_iova_alloc_cached(&v, 1, (1u << 20) - 1u, false, &s[0]), 0);
	assert_int_equal(mmchal_iova_alloc_cached(&v, 7, (1u << 20) - 1u, false, &s[1]), 0);
	assert_int_equal(mmchal_iova_alloc_cached(&v, MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT,
						  (1u << 20) - 1u, false, &s[2]),
			 0);
	assert_int_equal(mmchal_iova_free_cached(&v, s[0], 1), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, s[1], 7), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, s[2], MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT), 0);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.cached_ranges, 3);
	assert_int_equal(mmchal_iova_cache_flush(&v), 0);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.cached_ranges, 0);
	assert_int_equal(st.live_ranges, 0);
	assert_int_equal(mmchal_iova_check(&v), 0);
	for (size_t i = 0; i < GUARD; i++) {
		assert_int_equal(framed[i], 1);
		assert_int_equal(framed[GUARD + WORDS + i], 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cfg_errors),
		cmocka_unit_test(test_hit_every_size),
		cmocka_unit_test(test_limit_and_alignment_respected),
		cmocka_unit_test(test_full_bin_and_double_free),
		cmocka_unit_test(test_recent_double_free_unchecked),
		cmocka_unit_test(test_checked_mode),
		cmocka_unit_test(test_no_cache),
		cmocka_unit_test(test_checked_full_bin_and_bad_args),
		cmocka_unit_test(test_limit_inside_cached_range),
		cmocka_unit_test(test_start_equal_to_bin_count),
		cmocka_unit_test(test_checked_largest_size),
		cmocka_unit_test(test_flush_stays_in_cache_mem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
