/*
 * Unit tests of the IOVA allocator API (src/iommu/iova.c): init checks,
 * top-down placement, limits, alignment, exhaustion of space and of the node
 * pool, free of unknown starts, lookup, counters.
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

static uint64_t pool[MMCHAL_IOVA_POOL_BYTES(600) / 8u];
static struct mmchal_iova v;

static void init(uint64_t a, uint64_t b, size_t pool_bytes)
{
	struct mmchal_iova_cfg cfg;

	/* The pool's old contents must not matter: every node is set up
	 * when it is handed out. */
	memset(pool, 0x5a, pool_bytes);
	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = a;
	cfg.aperture_end = b;
	cfg.node_mem = pool;
	cfg.node_mem_size = pool_bytes;
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
}

static void test_init_errors(void **state)
{
	struct mmchal_iova_cfg cfg;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = 1;
	cfg.aperture_end = 100;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	assert_int_equal(mmchal_iova_init(NULL, &cfg), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_init(&v, NULL), MMCHAL_EINVAL);
	cfg.aperture_start = 0;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
	cfg.aperture_start = 101;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
	cfg.aperture_start = 1;
	cfg.aperture_end = MMCHAL_IOVA_PFN_MAX + 1u;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
	cfg.aperture_end = 100;
	cfg.node_mem_size = MMCHAL_IOVA_NODE_SIZE - 1u;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
	cfg.node_mem_size = sizeof(pool);
	cfg.node_mem = (char *)pool + 4;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
	cfg.node_mem = NULL;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_node_size(), MMCHAL_IOVA_NODE_SIZE);
	/* Exactly one node is enough. */
	cfg.node_mem = pool;
	cfg.node_mem_size = MMCHAL_IOVA_NODE_SIZE;
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
}

static void test_top_down(void **state)
{
	uint64_t s;

	(void)state;
	init(1, 1000, sizeof(pool));
	assert_int_equal(mmchal_iova_alloc(&v, 10, 1000, false, &s), 0);
	assert_int_equal(s, 991);
	assert_int_equal(mmchal_iova_alloc(&v, 5, 1000, false, &s), 0);
	assert_int_equal(s, 986);
	/* Limit below the previous ranges. */
	assert_int_equal(mmchal_iova_alloc(&v, 1, 500, false, &s), 0);
	assert_int_equal(s, 500);
	/* Limit above the aperture is clipped to it. */
	assert_int_equal(mmchal_iova_free(&v, 991), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 3, 5000, false, &s), 0);
	assert_int_equal(s, 998);
	/* The freed hole [991, 997] is the highest fit for 7 pages. */
	assert_int_equal(mmchal_iova_alloc(&v, 7, 1000, false, &s), 0);
	assert_int_equal(s, 991);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_alignment(void **state)
{
	uint64_t s;

	(void)state;
	init(1, 1000, sizeof(pool));
	/* 8 pages aligned to 8 below 1000: 992..999. */
	assert_int_equal(mmchal_iova_alloc(&v, 8, 1000, true, &s), 0);
	assert_int_equal(s, 992);
	/* 5 pages aligned to 8: the whole block 984..991 must be free. */
	assert_int_equal(mmchal_iova_alloc(&v, 5, 1000, true, &s), 0);
	assert_int_equal(s, 984);
	/* Unaligned 3 pages: page 1000 alone is too small; 989..991 is the tail
	 * of the block the 5-page range left free. */
	assert_int_equal(mmchal_iova_alloc(&v, 3, 1000, false, &s), 0);
	assert_int_equal(s, 989);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_alignment_exact_hole(void **state)
{
	uint64_t s, a, b, c;

	(void)state;
	init(1, 64, sizeof(pool));
	assert_int_equal(mmchal_iova_alloc(&v, 4, 64, false, &a), 0); /* 61..64 */
	assert_int_equal(mmchal_iova_alloc(&v, 4, 64, false, &b), 0); /* 57..60 */
	assert_int_equal(mmchal_iova_alloc(&v, 4, 64, false, &c), 0); /* 53..56 */
	assert_int_equal(b, 57);
	assert_int_equal(mmchal_iova_free(&v, b), 0);
	/* Hole 57..60 holds no aligned block of 4; 56 and below are free from 52. */
	assert_int_equal(mmchal_iova_alloc(&v, 4, 64, true, &s), 0);
	assert_int_equal(s, 48);
	/* An aligned 2-page block fits in the hole at 58. */
	assert_int_equal(mmchal_iova_alloc(&v, 2, 64, true, &s), 0);
	assert_int_equal(s, 58);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_limits_and_errors(void **state)
{
	uint64_t s;

	(void)state;
	init(100, 199, sizeof(pool));
	assert_int_equal(mmchal_iova_alloc(&v, 1, 99, false, &s), MMCHAL_ERANGE);
	assert_int_equal(mmchal_iova_alloc(&v, 101, 199, false, &s), MMCHAL_ERANGE);
	assert_int_equal(mmchal_iova_alloc(&v, 65, 199, true, &s), MMCHAL_ERANGE);
	assert_int_equal(mmchal_iova_alloc(&v, 0, 199, false, &s), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_alloc(NULL, 1, 199, false, &s), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_alloc(&v, 1, 199, false, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_alloc(&v, 100, 199, false, &s), 0);
	assert_int_equal(s, 100);
	assert_int_equal(mmchal_iova_alloc(&v, 1, 199, false, &s), MMCHAL_ENOMEM);
	assert_int_equal(mmchal_iova_free(&v, 100), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 10, 104, false, &s), MMCHAL_ENOMEM);
	assert_int_equal(mmchal_iova_alloc(&v, 5, 104, false, &s), 0);
	assert_int_equal(s, 100);
}

static void test_free_unknown(void **state)
{
	uint64_t s, n;

	(void)state;
	init(1, 1000, sizeof(pool));
	assert_int_equal(mmchal_iova_free(&v, 5), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_alloc(&v, 10, 1000, false, &s), 0);
	assert_int_equal(mmchal_iova_free(&v, s + 1u), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_free(NULL, s), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_find(&v, s + 9u, &s, &n), 0);
	assert_int_equal(s, 991);
	assert_int_equal(n, 10);
	assert_int_equal(mmchal_iova_find(&v, 990, &s, &n), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_free(&v, 991), 0);
	assert_int_equal(mmchal_iova_free(&v, 991), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_find(&v, 991, NULL, NULL), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/* Exactly the documented pool bound holds n live ranges in every pattern
 * tried; one node fewer than needed is ENOMEM with nothing changed. */
static void test_pool_bound_and_exhaustion(void **state)
{
	struct mmchal_iova_stats st;
	uint64_t s;
	uint32_t i;

	(void)state;
	/* Every other page, so no two ranges merge and every leaf fills. */
	init(1, 4000, MMCHAL_IOVA_POOL_BYTES(600));
	for (i = 0; i < 600; i++) {
		assert_int_equal(mmchal_iova_alloc(&v, 1, 4000 - 2u * i, false, &s), 0);
		assert_int_equal(s, 4000 - 2u * i);
	}
	assert_int_equal(mmchal_iova_check(&v), 0);
	/* Free every other one, then refill: still within the bound. */
	for (i = 0; i < 600; i += 2)
		assert_int_equal(mmchal_iova_free(&v, 4000 - 2u * i), 0);
	for (i = 0; i < 600; i += 2)
		assert_int_equal(mmchal_iova_alloc(&v, 1, 4000 - 2u * i, false, &s), 0);
	assert_int_equal(mmchal_iova_check(&v), 0);

	/* A pool of one node: 16 ranges fit, the 17th needs a split. */
	init(1, 4000, MMCHAL_IOVA_NODE_SIZE);
	for (i = 0; i < MMCHAL_IOVA_FANOUT; i++)
		assert_int_equal(mmchal_iova_alloc(&v, 1, 4000 - 2u * i, false, &s), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 1, 3000, false, &s), MMCHAL_ENOMEM);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.live_ranges, MMCHAL_IOVA_FANOUT);
	assert_int_equal(st.failures, 1);
	assert_int_equal(st.nodes_used, 1);
	assert_int_equal(mmchal_iova_check(&v), 0);
	/* Freeing never needs a node. */
	assert_int_equal(mmchal_iova_free(&v, 4000), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 1, 3000, false, &s), 0);
	assert_int_equal(s, 3000);
}

/* Freeing just above the top gap and allocating it again (the deferred
 * removal), and the top gap becoming an ordinary gap that the search must
 * still find when a limit excludes the new top gap. */
static void test_top_gap_ring(void **state)
{
	struct mmchal_iova_stats st;
	uint64_t s, a, n;

	(void)state;
	init(1, 1000, sizeof(pool));
	for (uint64_t i = 0; i < 40; i++) {
		assert_int_equal(mmchal_iova_alloc(&v, 1, 1000, false, &s), 0);
		assert_int_equal(s, 1000 - i);
	}
	assert_int_equal(mmchal_iova_free(&v, 980), 0);
	assert_int_equal(mmchal_iova_find(&v, 980, &a, &n), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_find(&v, 981, &a, &n), 0);
	assert_int_equal(a, 981);
	assert_int_equal(n, 1);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.live_ranges, 39);
	assert_int_equal(st.live_pages, 39);
	assert_int_equal(mmchal_iova_check(&v), 0);
	assert_int_equal(mmchal_iova_free(&v, 980), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_check(&v), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 1, 1000, false, &s), 0);
	assert_int_equal(s, 980);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(mmchal_iova_free(&v, 990), 0);
		assert_int_equal(mmchal_iova_check(&v), 0);
		assert_int_equal(mmchal_iova_alloc(&v, 1, 1000, true, &s), 0);
		assert_int_equal(s, 990);
		assert_int_equal(mmchal_iova_check(&v), 0);
	}
	assert_int_equal(mmchal_iova_free(&v, 990), 0);
	assert_int_equal(mmchal_iova_free(&v, 970), 0);
	assert_int_equal(mmchal_iova_check(&v), 0);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.live_ranges, 38);
	/* The top gap (990) is too small; 970 is one page; below 961. */
	assert_int_equal(mmchal_iova_alloc(&v, 2, 1000, false, &s), 0);
	assert_int_equal(s, 959);
	/* The top gap is above the limit: the tree has to know 970. */
	assert_int_equal(mmchal_iova_alloc(&v, 1, 985, false, &s), 0);
	assert_int_equal(s, 970);
	assert_int_equal(mmchal_iova_check(&v), 0);
	/* 995 becomes the top gap; 990 turns into an ordinary gap. */
	assert_int_equal(mmchal_iova_free(&v, 995), 0);
	assert_int_equal(mmchal_iova_check(&v), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 1, 992, false, &s), 0);
	assert_int_equal(s, 990);
	assert_int_equal(mmchal_iova_alloc(&v, 1, 1000, false, &s), 0);
	assert_int_equal(s, 995);
	assert_int_equal(mmchal_iova_alloc(&v, 1, 1000, false, &s), 0);
	assert_int_equal(s, 958);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_stats_and_visits(void **state)
{
	struct mmchal_iova_stats st;
	uint64_t s;

	(void)state;
	init(1, 1u << 20, sizeof(pool));
	for (uint32_t i = 0; i < 500; i++)
		assert_int_equal(mmchal_iova_alloc(&v, 1u + i % 7u, 1u << 20, false, &s), 0);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.live_ranges, 500);
	assert_true(st.height >= 2u && st.height <= 4u);
	assert_true(st.max_visits >= 1u && st.max_visits <= 4u * st.height + 4u);
	assert_int_equal(mmchal_iova_reset_stats(&v), 0);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.max_visits, 0);
	assert_int_equal(mmchal_iova_get_stats(NULL, &st), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_check(NULL), MMCHAL_EINVAL);
}

/* A pool of k nodes followed by a canary: the allocator must refuse a range
 * when a split would need more nodes than are left (at any height), and never
 * touch memory past the pool. */
#define CANARY 0xa5a5a5a5a5a5a5a5ull

static void fill_until_no_node(uint32_t k, uint64_t *ranges, uint32_t *height)
{
	struct mmchal_iova_stats st;
	size_t words = (size_t)k * MMCHAL_IOVA_NODE_SIZE / 8u;
	uint64_t s;
	uint32_t i;

	assert_true(words + 16u <= sizeof(pool) / 8u);
	for (size_t w = words; w < words + 16u; w++)
		pool[w] = CANARY;
	init(1, 1000000, (size_t)k * MMCHAL_IOVA_NODE_SIZE);
	/* One-page ranges with a free page between them: every range is its
	 * own tree entry, and there is always space. */
	for (i = 0;; i++) {
		int ret = mmchal_iova_alloc(&v, 1, 1000000u - 2u * i, false, &s);

		if (ret == MMCHAL_ENOMEM)
			break;
		assert_int_equal(ret, 0);
		assert_int_equal(s, 1000000u - 2u * i);
	}
	for (size_t w = words; w < words + 16u; w++)
		assert_int_equal(pool[w], CANARY);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_true(st.nodes_used <= k);
	assert_int_equal(st.failures, 1);
	assert_int_equal(st.live_ranges, i);
	assert_int_equal(mmchal_iova_check(&v), 0);
	*ranges = i;
	*height = st.height;
}

static void test_node_pool_exhausted_at_every_height(void **state)
{
	/* Live ranges when the pool runs out, filled top-down: a full leaf
	 * splits into 8 + 9 entries, so each new leaf adds 8 ranges; a split
	 * that climbs through full inner nodes (or the root) needs one node
	 * per level, all of which must be free before anything changes. With
	 * 17 nodes the root has 16 leaves: the next split needs 3 nodes (leaf,
	 * inner node, new root), so 18 and 19 nodes hold no more; the same
	 * for a full inner node below the root at 27 nodes. */
	static const struct {
		uint32_t nodes;
		uint64_t ranges;
		uint32_t height;
	} want[] = {{1, 16, 1},   {2, 16, 1},   {3, 24, 2},   {9, 72, 2},
		    {17, 136, 2}, {18, 136, 2}, {19, 136, 2}, {20, 144, 3},
		    {27, 200, 3}, {28, 200, 3}, {29, 208, 3}, {37, 264, 3}};
	struct mmchal_iova_stats st;
	uint64_t n, s;
	uint32_t h;

	(void)state;
	for (uint32_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		fill_until_no_node(want[k].nodes, &n, &h);
		assert_int_equal(n, want[k].ranges);
		assert_int_equal(h, want[k].height);
	}
	/* Bigger pools reach height 3; the last split must still fit. */
	fill_until_no_node(40, &n, &h);
	assert_int_equal(h, 3);
	/* Freeing never needs a node, and the space freed is usable again. */
	assert_int_equal(mmchal_iova_free(&v, 1000000u - 2u * 10u), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 1, 1000000u - 2u * 10u, false, &s), 0);
	assert_int_equal(s, 1000000u - 2u * 10u);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.live_ranges, n);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/* The leaf that holds pfn. */
static const iova_node_ *leaf_of(uint64_t pfn)
{
	const iova_node_ *nd = v.root;

	while (!nd->leaf) {
		unsigned int i = 0;

		while (i + 1u < nd->n && nd->key[i + 1u] <= pfn)
			i++;
		nd = nd->child[i];
	}
	return nd;
}

#define RING_TOP  100000u
#define RING_SIZE 400u

static void build_contiguous(void)
{
	uint64_t s;

	init(1, RING_TOP, sizeof(pool));
	for (uint32_t i = 0; i < RING_SIZE; i++) {
		assert_int_equal(mmchal_iova_alloc(&v, 1, RING_TOP, false, &s), 0);
		assert_int_equal(s, RING_TOP - i);
	}
}

/*
 * An interior top gap that lies between two leaves stops being the top gap
 * (a higher range is freed): its value must then be added to the node that
 * holds it, which is an ancestor of its leaf. deep = 0: the leaf is not its
 * parent's last child, the parent holds the gap; deep = 1: the leaf is its
 * parent's last child, the gap sits one level higher.
 */
static void check_gap_between_leaves(bool deep)
{
	uint64_t r1, s, lo = RING_TOP - RING_SIZE + 1u;

	for (r1 = lo + 1u; r1 < RING_TOP - 1u; r1++) {
		const iova_node_ *l;

		build_contiguous();
		assert_int_equal(mmchal_iova_free(&v, r1), 0);
		l = leaf_of(r1 - 1u);
		if (l->end[l->n - 1u] != r1 - 1u || !l->parent)
			continue;
		if (deep != (l->pidx + 1u == l->parent->n))
			continue;
		if (deep && (!l->parent->parent || l->parent->pidx + 1u == l->parent->parent->n))
			continue;
		break;
	}
	assert_true(r1 < RING_TOP - 1u);
	assert_int_equal(mmchal_iova_check(&v), 0);
	/* The top range goes: page RING_TOP is the new top gap, r1 an ordinary
	 * gap the tree must now know about. */
	assert_int_equal(mmchal_iova_free(&v, RING_TOP), 0);
	assert_int_equal(mmchal_iova_check(&v), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 1, RING_TOP - 1u, false, &s), 0);
	assert_int_equal(s, r1);
	assert_int_equal(mmchal_iova_alloc(&v, 1, RING_TOP - 1u, false, &s), 0);
	assert_int_equal(s, lo - 1u);
	assert_int_equal(mmchal_iova_alloc(&v, 1, RING_TOP, false, &s), 0);
	assert_int_equal(s, RING_TOP);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_top_gap_between_leaves(void **state)
{
	(void)state;
	check_gap_between_leaves(false);
	check_gap_between_leaves(true);
}

/* Tree nodes visited by the last operation and the most since the last
 * reset, as the counters report them. */
static void expect_visits(uint32_t last, uint32_t max)
{
	struct mmchal_iova_stats st;

	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.last_visits, last);
	assert_int_equal(st.max_visits, max);
	assert_int_equal(mmchal_iova_reset_stats(&v), 0);
}

static void alloc_expect(uint64_t npages, uint64_t limit, uint64_t start)
{
	uint64_t s = 0;

	assert_int_equal(mmchal_iova_alloc(&v, npages, limit, false, &s), 0);
	assert_int_equal(s, start);
}

static void test_visits_exact(void **state)
{
	struct mmchal_iova_stats st;
	uint64_t s;

	(void)state;
	init(1, 100000, sizeof(pool));
	/* An empty tree: the whole aperture is the top gap, no node read. */
	alloc_expect(1, 100000, 100000);
	expect_visits(0, 0);
	/* 300 pages packed from the top: three levels. */
	for (uint64_t i = 1; i < 300u; i++)
		alloc_expect(1, 100000, 100000u - i);
	assert_int_equal(mmchal_iova_reset_stats(&v), 0);
	alloc_expect(1, 100000, 99700);
	expect_visits(4, 4);
	alloc_expect(1, 50, 50);
	expect_visits(4, 4);
	/* A page inside a leaf whose neighbours touch it: pending removal. */
	assert_int_equal(mmchal_iova_free(&v, 99850), 0);
	expect_visits(9, 9);
	assert_non_null(v.pend);
	assert_true(v.top_valid);
	assert_int_equal(v.top_a, 99850);
	assert_int_equal(v.top_b, 99850);
	/* Taking exactly that page again cancels the removal: one visit, and
	 * the top gap is then unknown, bounded just below it. */
	alloc_expect(1, 100000, 99850);
	expect_visits(1, 1);
	assert_null(v.pend);
	assert_false(v.top_valid);
	assert_int_equal(v.top_b, 99849);
	assert_int_equal(mmchal_iova_check(&v), 0);
	/* Without a top gap the tree is searched. */
	alloc_expect(1, 100000, 99699);
	expect_visits(6, 6);
	/* No room: counted as a failure, nothing visited. */
	assert_int_equal(mmchal_iova_alloc(&v, 99700, 100000, false, &s), MMCHAL_ENOMEM);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.failures, 1);
	expect_visits(0, 0);
	assert_int_equal(mmchal_iova_free(&v, 12345), MMCHAL_ENOENT);
	expect_visits(1, 1);
	assert_int_equal(mmchal_iova_free(&v, 99800), 0);
	expect_visits(5, 5);
	assert_int_equal(mmchal_iova_free(&v, 50), 0);
	expect_visits(6, 6);
	assert_int_equal(mmchal_iova_check(&v), 0);

	/* One node, full: the next range would need a split. */
	init(1, 100000, MMCHAL_IOVA_NODE_SIZE);
	for (uint64_t i = 0; i < 16u; i++)
		alloc_expect(1, 100000u - 2u * i, 100000u - 2u * i);
	expect_visits(3, 3);
	assert_int_equal(mmchal_iova_alloc(&v, 1, 100000, false, &s), MMCHAL_ENOMEM);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.failures, 1);
	expect_visits(1, 1);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.failures, 0);
	assert_int_equal(st.live_ranges, 16);
}

static _Alignas(16) uint64_t cache_buf[4u * 4u + 2u];

static void init_cache(uint32_t max, uint32_t depth, uint32_t flags)
{
	struct mmchal_iova_cfg cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = 1;
	cfg.aperture_end = 1000;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	cfg.cache_mem = cache_buf;
	cfg.cache_mem_size = MMCHAL_IOVA_CACHE_BYTES(max, depth);
	cfg.cache_max_pages = max;
	cfg.cache_depth = depth;
	cfg.flags = flags;
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
}

static void test_cache_init(void **state)
{
	struct mmchal_iova_cfg cfg;
	struct mmchal_iova_stats st;
	uint64_t s;

	(void)state;
	/* Every bin starts empty whatever the memory held, and nothing past
	 * the cache memory is written. */
	memset(cache_buf, 0xa5, sizeof(cache_buf));
	init_cache(4, 3, 0);
	for (unsigned int i = 0; i < 4u; i++)
		assert_int_equal(cache_buf[i * 4u], 0);
	assert_int_equal(cache_buf[1], 0xa5a5a5a5a5a5a5a5ull);
	assert_int_equal(cache_buf[16], 0xa5a5a5a5a5a5a5a5ull);
	assert_int_equal(mmchal_iova_check(&v), 0);

	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = 1;
	cfg.aperture_end = 1000;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	cfg.cache_mem = (char *)cache_buf + 4;
	cfg.cache_mem_size = 64;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);
	cfg.cache_mem = (char *)cache_buf + 8;
	cfg.cache_max_pages = 2;
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
	/* More sizes than 65 535 are refused before the memory is looked at. */
	cfg.cache_mem = cache_buf;
	cfg.cache_max_pages = 65536;
	cfg.cache_mem_size = (size_t)65536u * 16u;
	assert_int_equal(mmchal_iova_init(&v, &cfg), MMCHAL_EINVAL);

	/* A checked cache never takes a range on trust, even of one page. */
	init_cache(4, 3, MMCHAL_IOVA_F_CHECK_CACHED);
	assert_int_equal(mmchal_iova_free_cached(&v, 777, 1), MMCHAL_ENOENT);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.cached_ranges, 0);

	/* A cached range of the largest cached size is not freed twice; a
	 * size that does not match is refused. */
	init_cache(4, 3, 0);
	alloc_expect(4, 1000, 997);
	alloc_expect(6, 1000, 991);
	assert_int_equal(mmchal_iova_free_cached(&v, 997, 4), 0);
	assert_int_equal(mmchal_iova_free(&v, 997), MMCHAL_EALREADY);
	assert_int_equal(mmchal_iova_free_cached(&v, 991, 5), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_find(&v, 991, &s, NULL), 0);
	assert_int_equal(s, 991);
	assert_int_equal(mmchal_iova_check(&v), 0);

	/* Resetting the counters clears the hit, miss and failure counts and
	 * leaves the live ones. */
	assert_int_equal(mmchal_iova_alloc_cached(&v, 4, 1000, false, &s), 0);
	assert_int_equal(s, 997);
	assert_int_equal(mmchal_iova_alloc_cached(&v, 3, 1000, false, &s), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 2000, 1000, false, &s), MMCHAL_ERANGE);
	assert_int_equal(mmchal_iova_alloc(&v, 990, 1000, false, &s), MMCHAL_ENOMEM);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.cache_hits, 1);
	assert_int_equal(st.cache_misses, 1);
	assert_int_equal(st.failures, 1);
	assert_int_equal(mmchal_iova_reset_stats(&v), 0);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.cache_hits, 0);
	assert_int_equal(st.cache_misses, 0);
	assert_int_equal(st.failures, 0);
	assert_int_equal(st.max_visits, 0);
	assert_int_equal(st.live_ranges, 3);
	assert_int_equal(mmchal_iova_reset_stats(NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_free(NULL, 997), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iova_find(NULL, 997, &s, NULL), MMCHAL_EINVAL);
}

/* 300 single pages packed from the top of [1, 100000]. */
static void build_packed(void)
{
	init(1, 100000, sizeof(pool));
	for (uint64_t i = 0; i < 300u; i++)
		alloc_expect(1, 100000, 100000u - i);
	assert_int_equal(v.height, 3);
	assert_int_equal(mmchal_iova_reset_stats(&v), 0);
}

static void expect_top(uint64_t a, uint64_t b)
{
	assert_true(v.top_valid);
	assert_int_equal(v.top_a, a);
	assert_int_equal(v.top_b, b);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_hint_leaf_edges(void **state)
{
	iova_node_ *l, *l2;
	uint64_t p;

	(void)state;
	build_packed();
	l = v.root;
	while (!l->leaf)
		l = l->child[0];
	l2 = l->parent->child[1];
	p = l2->key[0];
	/* The first range of a leaf that has one before it: the gap it
	 * leaves is bounded by the previous leaf's last range. */
	assert_int_equal(mmchal_iova_free(&v, p), 0);
	assert_null(v.pend);
	expect_top(p, p);
	expect_visits(5, 5);
	/* Taken again, into the leaf of the last operation: it lies between
	 * that leaf's neighbours. */
	alloc_expect(1, 100000, p);
	expect_visits(2, 2);
	assert_int_equal(mmchal_iova_check(&v), 0);
	/* Freed again: found in the same leaf without a descent. */
	assert_int_equal(mmchal_iova_free(&v, p), 0);
	expect_visits(1, 1);
	expect_top(p, p);
	alloc_expect(1, 100000, p);
	/* The last range of a leaf, freed from the leaf it is in. */
	p = l2->key[l2->n - 1u];
	assert_int_equal(mmchal_iova_free(&v, p), 0);
	expect_visits(3, 3);
	assert_null(v.pend);
	expect_top(p, p);
	/* The first range of the leaf of the last operation. */
	p = l2->key[0];
	assert_int_equal(mmchal_iova_free(&v, p), 0);
	expect_visits(3, 3);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_old_top_gap(void **state)
{
	iova_node_ *l;
	uint64_t q;

	(void)state;
	build_packed();
	assert_int_equal(mmchal_iova_free(&v, 99850), 0);
	assert_non_null(v.pend);
	expect_top(99850, 99850);
	/* Below the top gap: the top gap stays, and stays out of the
	 * annotations. */
	assert_int_equal(mmchal_iova_free(&v, 99800), 0);
	expect_top(99850, 99850);
	/* Next to it from above: one top gap of two pages (nothing to count
	 * in the annotations). */
	assert_int_equal(mmchal_iova_reset_stats(&v), 0);
	assert_int_equal(mmchal_iova_free(&v, 99851), 0);
	expect_visits(4, 4);
	expect_top(99850, 99851);
	/* Above it: the new top gap, the old one an ordinary gap. */
	assert_int_equal(mmchal_iova_free(&v, 99900), 0);
	expect_top(99900, 99900);
	alloc_expect(1, 100000, 99900);
	alloc_expect(2, 100000, 99850);
	alloc_expect(1, 100000, 99800);
	assert_int_equal(mmchal_iova_check(&v), 0);

	/* A cancelled removal leaves the top gap bounded just below the
	 * page; freeing exactly that page pends it as the new top gap. */
	build_packed();
	l = v.root->child[1]->child[1];
	assert_true(l->leaf);
	q = l->key[2];
	assert_int_equal(mmchal_iova_free(&v, q), 0);
	alloc_expect(1, 100000, q);
	assert_false(v.top_valid);
	assert_int_equal(v.top_b, q - 1u);
	assert_int_equal(mmchal_iova_free(&v, q - 1u), 0);
	assert_ptr_equal(v.pend, l);
	assert_int_equal(v.pend_idx, 1);
	expect_top(q - 1u, q - 1u);

	/* An old top gap between two leaves becomes an ordinary gap of
	 * their parent. */
	build_packed();
	l = v.root;
	while (!l->leaf)
		l = l->child[0];
	q = l->key[l->n - 1u];
	assert_int_equal(mmchal_iova_free(&v, q), 0);
	expect_top(q, q);
	assert_int_equal(l->end[l->n - 1u], q - 1u);
	assert_int_equal(mmchal_iova_free(&v, 99900), 0);
	expect_top(99900, 99900);
	assert_int_equal(l->parent->own_gap, 1);
	assert_int_equal(l->parent->own_ord, 1);
	alloc_expect(1, 100000, 99900);
	alloc_expect(1, 100000, q);
	assert_int_equal(l->parent->own_gap, 0);
	assert_int_equal(mmchal_iova_check(&v), 0);

	/* Taking the whole top gap leaves it unknown, bounded below the
	 * aperture. */
	init(1, 1000, sizeof(pool));
	alloc_expect(1000, 1000, 1);
	assert_false(v.top_valid);
	assert_int_equal(v.top_b, 0);
	assert_int_equal(mmchal_iova_check(&v), 0);
	assert_int_equal(mmchal_iova_free(&v, 1), 0);
	expect_top(1, 1000);
}

/* build_packed() with one gap in the tree, at the last page of the root's
 * first subtree (returned), and the top gap unknown: a page of the last
 * subtree was freed and taken back after it. */
static uint64_t build_tree_gap(void)
{
	uint64_t q, p;

	build_packed();
	q = v.root->end[0];
	assert_int_equal(mmchal_iova_free(&v, q), 0);
	expect_top(q, q);
	p = v.root->key[v.root->n - 1u] + 5u;
	assert_int_equal(mmchal_iova_free(&v, p), 0);
	expect_top(p, p);
	alloc_expect(1, 100000, p);
	assert_false(v.top_valid);
	return q;
}

static void test_search_paths(void **state)
{
	struct mmchal_iova_stats st;
	uint64_t q, s;

	(void)state;
	/* A gap between the root's first two subtrees, found by the search
	 * once the top gap is unknown: the range goes last into the rightmost
	 * leaf below the gap. */
	q = build_tree_gap();
	assert_int_equal(mmchal_iova_reset_stats(&v), 0);
	alloc_expect(1, 100000, q);
	expect_visits(5, 5);
	assert_int_equal(v.root->end[0], q);
	assert_int_equal(mmchal_iova_check(&v), 0);

	/* An aperture filled up, then one aligned block of two pages free and
	 * the top gap unknown: an aligned request of four pages fails without
	 * reading the tree (the root's largest aligned block is too small). */
	init(1, 300, sizeof(pool));
	for (uint64_t i = 0; i < 300u; i++)
		alloc_expect(1, 300, 300u - i);
	assert_int_equal(mmchal_iova_free(&v, 102), 0);
	assert_int_equal(mmchal_iova_free(&v, 103), 0);
	assert_int_equal(mmchal_iova_free(&v, 200), 0);
	expect_top(200, 200);
	alloc_expect(1, 300, 200);
	assert_false(v.top_valid);
	assert_int_equal(v.root_ord, 2);
	assert_int_equal(mmchal_iova_reset_stats(&v), 0);
	assert_int_equal(mmchal_iova_alloc(&v, 4, 300, true, &s), MMCHAL_ENOMEM);
	assert_int_equal(mmchal_iova_alloc(&v, 3, 300, true, &s), MMCHAL_ENOMEM);
	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	assert_int_equal(st.failures, 2);
	expect_visits(0, 0);
	/* Searched, but below the limit nothing fits. */
	assert_int_equal(mmchal_iova_alloc(&v, 2, 102, false, &s), MMCHAL_ENOMEM);
	expect_visits(3, 3);
	assert_int_equal(mmchal_iova_alloc(&v, 2, 300, true, &s), 0);
	assert_int_equal(s, 102);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/* Nodes in the tree after each operation, added up: whether an underfull
 * node merged with its sibling or borrowed from it shows in the sum. */
static uint64_t nodes_sum;

static uint64_t visits_of_last(void)
{
	struct mmchal_iova_stats st;

	assert_int_equal(mmchal_iova_get_stats(&v, &st), 0);
	nodes_sum += st.nodes_used;
	return st.last_visits;
}

/* Total visits of a fixed sequence that merges and splits leaves and inner
 * nodes: whether the leaf of the last operation is reused (or dropped with
 * a merged node) shows in the sum. */
static void test_visit_totals(void **state)
{
	uint64_t sum_free = 0, sum_alloc = 0, sum_mixed = 0, s;

	(void)state;
	nodes_sum = 0;
	build_packed();
	for (uint64_t i = 0; i < 300u; i += 3u) {
		assert_int_equal(mmchal_iova_free(&v, 99701u + i), 0);
		sum_free += visits_of_last();
	}
	for (uint64_t i = 0; i < 300u; i++) {
		if (i % 3u == 0)
			continue;
		assert_int_equal(mmchal_iova_free(&v, 99701u + i), 0);
		sum_free += visits_of_last();
		if (i % 50u == 0)
			assert_int_equal(mmchal_iova_check(&v), 0);
	}
	assert_null(v.root);
	for (uint64_t i = 0; i < 300u; i++) {
		alloc_expect(1, 100000, 100000u - i);
		sum_alloc += visits_of_last();
	}
	for (uint64_t i = 0; i < 300u; i += 2u) {
		assert_int_equal(mmchal_iova_free(&v, 99701u + i), 0);
		sum_mixed += visits_of_last();
		assert_int_equal(mmchal_iova_alloc(&v, 1, 99701u + i, false, &s), 0);
		assert_int_equal(s, 99701u + i);
		sum_mixed += visits_of_last();
		assert_int_equal(mmchal_iova_free(&v, 99701u + i), 0);
		sum_mixed += visits_of_last();
	}
	assert_int_equal(mmchal_iova_check(&v), 0);
	assert_int_equal(sum_free, 1314);
	assert_int_equal(sum_alloc, 1007);
	assert_int_equal(sum_mixed, 1411);
	assert_int_equal(nodes_sum, 24475);
}

/* 16 ranges of two pages in one full leaf, [969, 1000]; then the range at
 * index hole is freed and a page taken back from the top of its gap, so
 * the leaf is full again with one free page (returned) below entry hole. */
static uint64_t build_full_leaf_with_hole(unsigned int hole)
{
	uint64_t q = 969u + 2u * hole;

	init(1, 1000, sizeof(pool));
	for (uint64_t i = 0; i < IOVA_B; i++)
		alloc_expect(2, 1000, 999u - 2u * i);
	assert_int_equal(v.height, 1);
	assert_int_equal(v.root->n, IOVA_B);
	assert_int_equal(v.root->key[hole], q);
	assert_int_equal(mmchal_iova_free(&v, q), 0);
	alloc_expect(1, 1000, q + 1u);
	assert_int_equal(v.root->n, IOVA_B);
	assert_int_equal(v.root->key[hole], q + 1u);
	expect_top(q, q);
	return q;
}

/*
 * A full leaf split by a range that goes into its middle: the first
 * IOVA_MIN entries stay, the rest move to a new right leaf, and the new range
 * joins the half it sorts into; at index IOVA_MIN exactly, that is the left
 * one. The hint names the leaf that received the range, which is then found
 * without a descent.
 */
static void test_split_in_the_middle(void **state)
{
	const iova_node_ *l, *r;
	uint64_t q;

	(void)state;
	q = build_full_leaf_with_hole(IOVA_MIN);
	alloc_expect(1, 1000, q);
	assert_int_equal(v.height, 2);
	l = v.root->child[0];
	r = v.root->child[1];
	assert_int_equal(l->n, IOVA_MIN + 1u);
	assert_int_equal(r->n, IOVA_B - IOVA_MIN);
	assert_int_equal(l->key[IOVA_MIN], q);
	assert_int_equal(r->key[0], q + 1u);
	assert_ptr_equal(v.hint, l);
	assert_int_equal(mmchal_iova_check(&v), 0);

	/* One further right: the range is the second entry of the right leaf,
	 * and the hint moves there from the leaf that was split. */
	q = build_full_leaf_with_hole(IOVA_MIN + 1u);
	assert_ptr_equal(v.hint, v.root);
	alloc_expect(1, 1000, q);
	l = v.root->child[0];
	r = v.root->child[1];
	assert_int_equal(l->n, IOVA_MIN);
	assert_int_equal(r->n, IOVA_B - IOVA_MIN + 1u);
	assert_int_equal(r->key[0], q - 2u);
	assert_int_equal(r->key[1], q);
	assert_ptr_equal(v.hint, r);
	/* Freed again (a deferred removal): found in the hinted leaf, one
	 * visit where a descent would take two. */
	assert_int_equal(mmchal_iova_reset_stats(&v), 0);
	assert_int_equal(mmchal_iova_free(&v, q), 0);
	assert_ptr_equal(v.pend, r);
	expect_visits(1, 1);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/* A range placed by the search goes into the leaf the search names, which
 * becomes the hint even when the hint named another leaf before. */
static void test_hint_follows_search(void **state)
{
	const iova_node_ *last;
	uint64_t q, p, x;

	(void)state;
	q = build_tree_gap();
	p = v.root->key[v.root->n - 1u] + 5u;
	/* The first range of the last leaf, freed and taken back: the hint
	 * names the leaf that holds it (the last leaf merged into its left
	 * neighbour), and the top gap is unknown again. */
	last = v.root;
	while (!last->leaf)
		last = last->child[last->n - 1u];
	x = last->key[0];
	assert_true(x > p);
	assert_int_equal(mmchal_iova_free(&v, x), 0);
	expect_top(x, x);
	alloc_expect(1, 100000, x);
	assert_false(v.top_valid);
	assert_ptr_equal(v.hint, leaf_of(x));
	/* Only the tree gap at q is left; the search puts the range there. */
	alloc_expect(1, 100000, q);
	assert_ptr_equal(v.hint, leaf_of(q));
	assert_true(v.hint != leaf_of(x));
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/*
 * The gap between two sibling leaves, counted in their parent's own gaps,
 * joins a freed range into the new top gap while the old top gap is
 * unknown: the parent's own gap must drop to what is left (none), not keep
 * the value of the gap that became the top gap.
 */
static void test_gap_between_leaves_joins_top(void **state)
{
	const iova_node_ *a, *b;

	(void)state;
	init(1, 1000, sizeof(pool));
	for (uint64_t i = 0; i < IOVA_B; i++)
		alloc_expect(2, 1000, 999u - 2u * i);
	/* Entry 8 ([985, 986]) freed and its upper page taken back: page 985
	 * is the top gap. */
	assert_int_equal(mmchal_iova_free(&v, 985), 0);
	alloc_expect(1, 1000, 986);
	expect_top(985, 985);
	/* Entry 9 ([987, 988]) freed: the new top gap, 985 an ordinary one.
	 * One page back, then the other: the full leaf splits after entry 8,
	 * with 985 between the two halves, and the top gap is unknown,
	 * bounded at 986. */
	assert_int_equal(mmchal_iova_free(&v, 987), 0);
	expect_top(987, 988);
	alloc_expect(1, 1000, 988);
	expect_top(987, 987);
	alloc_expect(1, 1000, 987);
	assert_false(v.top_valid);
	assert_int_equal(v.top_b, 986);
	assert_int_equal(v.height, 2);
	a = v.root->child[0];
	b = v.root->child[1];
	assert_int_equal(a->n, IOVA_MIN);
	assert_int_equal(b->n, IOVA_B - IOVA_MIN + 1u);
	assert_int_equal(a->end[a->n - 1u], 984);
	assert_int_equal(b->key[0], 986);
	assert_int_equal(v.root->own_gap, 1);
	assert_int_equal(mmchal_iova_check(&v), 0);
	/* 986 freed: 985..986 is the top gap, and the root has no gap of its
	 * own left. */
	assert_int_equal(mmchal_iova_free(&v, 986), 0);
	expect_top(985, 986);
	assert_ptr_equal(v.root->child[1], b);
	assert_int_equal(b->key[0], 987);
	assert_int_equal(v.root->own_gap, 0);
	assert_int_equal(v.root->own_ord, 0);
	alloc_expect(2, 1000, 985);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/* A tree emptied by its last free is in the state of a fresh allocator. */
static void test_emptied_tree_is_fresh(void **state)
{
	(void)state;
	init(1, 1000, sizeof(pool));
	for (uint64_t i = 0; i < 5u; i++)
		alloc_expect(1, 1000, 1000u - i);
	/* 999 is the top gap, 997 an ordinary one that the tree counts. */
	assert_int_equal(mmchal_iova_free(&v, 999), 0);
	assert_int_equal(mmchal_iova_free(&v, 997), 0);
	assert_int_equal(v.root_gap, 1);
	assert_int_equal(v.root_ord, 1);
	assert_int_equal(mmchal_iova_free(&v, 1000), 0);
	assert_int_equal(mmchal_iova_free(&v, 998), 0);
	assert_int_equal(mmchal_iova_free(&v, 996), 0);
	assert_null(v.root);
	assert_null(v.hint);
	assert_int_equal(v.height, 0);
	assert_int_equal(v.root_gap, 0);
	assert_int_equal(v.root_ord, 0);
	expect_top(1, 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_top_down),
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_alignment_exact_hole),
		cmocka_unit_test(test_limits_and_errors),
		cmocka_unit_test(test_free_unknown),
		cmocka_unit_test(test_pool_bound_and_exhaustion),
		cmocka_unit_test(test_top_gap_ring),
		cmocka_unit_test(test_stats_and_visits),
		cmocka_unit_test(test_node_pool_exhausted_at_every_height),
		cmocka_unit_test(test_top_gap_between_leaves),
		cmocka_unit_test(test_visits_exact),
		cmocka_unit_test(test_cache_init),
		cmocka_unit_test(test_hint_leaf_edges),
		cmocka_unit_test(test_old_top_gap),
		cmocka_unit_test(test_search_paths),
		cmocka_unit_test(test_visit_totals),
		cmocka_unit_test(test_split_in_the_middle),
		cmocka_unit_test(test_hint_follows_search),
		cmocka_unit_test(test_gap_between_leaves_joins_top),
		cmocka_unit_test(test_emptied_tree_is_fresh),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
