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

#include "iommu/iova_node.h"

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

/*
 * The tests below reach the private node layout (iommu/iova_node.h) to
 * make one defect at a time while everything else stays consistent, so
 * that exactly one test of the checker can notice it.
 */
/* The cache memory follows five words that read as an over-full bin: a
 * walk of the bins that starts one bin early finds them. */
static uint64_t cache_area[5u + MMCHAL_IOVA_CACHE_BYTES(4, 4) / 8u];
#define CACHE_MEM (cache_area + 5)

static void init_ap(uint64_t a, uint64_t b, size_t pool_bytes, bool with_cache)
{
	struct mmchal_iova_cfg cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = a;
	cfg.aperture_end = b;
	cfg.node_mem = pool;
	cfg.node_mem_size = pool_bytes;
	if (with_cache) {
		cfg.cache_mem = CACHE_MEM;
		cfg.cache_mem_size = MMCHAL_IOVA_CACHE_BYTES(4, 4);
		for (unsigned int i = 0; i < 5u; i++)
			cache_area[i] = 0xffff;
		cfg.cache_max_pages = 4;
		cfg.cache_depth = 4;
	}
	assert_int_equal(mmchal_iova_init(&v, &cfg), 0);
}

static void alloc_at(uint64_t npages, uint64_t limit, uint64_t expect)
{
	uint64_t s = 0;

	assert_int_equal(mmchal_iova_alloc(&v, npages, limit, false, &s), 0);
	assert_int_equal(s, expect);
}

/* 300 single pages packed from the top of [1, 100000]: three levels, no gap
 * inside the tree, the top gap [1, 99700] below every range. */
static void build_packed(void)
{
	init_ap(1, 100000, sizeof(pool), false);
	for (uint64_t i = 0; i < 300u; i++)
		alloc_at(1, 100000, 100000u - i);
	assert_int_equal(v.height, 3);
	assert_true(v.top_valid);
	assert_int_equal(v.top_a, 1);
	assert_int_equal(v.top_b, 99700);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/* One leaf: [980], [989, 990], [993, 995], [1000] in [1, 1000]. */
static void build_leaf(void)
{
	init_ap(1, 1000, sizeof(pool), false);
	alloc_at(1, 1000, 1000);
	alloc_at(3, 995, 993);
	alloc_at(2, 990, 989);
	alloc_at(1, 980, 980);
	assert_int_equal(v.height, 1);
	assert_int_equal(v.root->n, 4);
	assert_int_equal(v.root->key[0], 980);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/* The leftmost leaf of the tree. */
static iova_node_ *first_leaf(void)
{
	iova_node_ *nd = v.root;

	while (!nd->leaf)
		nd = nd->child[0];
	return nd;
}

/* Nodes, ranges and pages of a subtree; depth of its leaves below it. */
static void subtree(const iova_node_ *nd, uint32_t *nodes, uint64_t *ranges, uint64_t *pages,
		    uint32_t *depth)
{
	uint32_t d = 0;

	(*nodes)++;
	if (nd->leaf) {
		for (unsigned int i = 0; i < nd->n; i++) {
			(*ranges)++;
			*pages += nd->end[i] - nd->key[i] + 1u;
		}
		*depth = 1;
		return;
	}
	for (unsigned int i = 0; i < nd->n; i++)
		subtree(nd->child[i], nodes, ranges, pages, &d);
	*depth = d + 1u;
}

/*
 * Make the allocator's own fields agree with a walk that stopped early and
 * returned success with an unwritten (zero) root summary: whatever the
 * checker then still reports comes only from the defect the walk stopped
 * at. A checker that stops without reporting it passes this state.
 */
static void as_if_stopped(uint32_t nodes, uint64_t ranges, uint64_t pages, uint32_t height)
{
	v.height = height;
	v.root_gap = 0;
	v.root_ord = 0;
	v.st.live_ranges = ranges;
	v.st.live_pages = pages;
	v.st.nodes_used = nodes;
	v.st.nodes_total = nodes + v.free_count;
	v.top_valid = true;
	v.top_a = 1;
	v.top_b = v.ap_end;
	v.pend = NULL;
}

static void test_root_links(void **state)
{
	iova_node_ *r;

	(void)state;
	build_packed();
	r = v.root;
	r->parent = r->child[0];
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	as_if_stopped(1, 0, 0, 0);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);

	/* A child that does not name its index. */
	build_packed();
	v.root->child[0]->pidx = 3;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	as_if_stopped(2, 0, 0, 0);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);

	/* A missing child. */
	build_packed();
	v.root->child[0] = NULL;
	as_if_stopped(1, 0, 0, 0);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
}

static void test_node_counts(void **state)
{
	(void)state;
	/* An empty root leaf. */
	build_leaf();
	v.root->n = 0;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	as_if_stopped(1, 0, 0, 0);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* An inner root with one child. */
	build_packed();
	v.root->n = 1;
	as_if_stopped(1, 0, 0, 0);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* An inner node below the root with fewer than half its entries. */
	build_packed();
	v.root->child[0]->n = IOVA_MIN - 1u;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* Counted nodes: the tree's, and the tree's with the free ones. */
	build_leaf();
	v.st.nodes_used++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	build_leaf();
	v.st.nodes_total++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* Height of an empty allocator. */
	init_ap(1, 1000, sizeof(pool), false);
	assert_int_equal(mmchal_iova_check(&v), 0);
	v.height = 1;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
}

static void test_range_bounds(void **state)
{
	(void)state;
	/* Start above the end (the lowest range is one page). */
	build_leaf();
	v.root->key[0] = 981;
	v.st.live_pages--;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	as_if_stopped(1, 0, 0, 1);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* Below the aperture start, nothing else wrong. */
	build_leaf();
	v.ap_start = 981;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* Above the aperture end. */
	build_leaf();
	v.ap_end = 999;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* Overlapping the previous range by exactly one page. */
	build_leaf();
	v.root->key[1] = 980;
	v.st.live_pages += 9u;
	v.root_gap = UINT64_MAX;
	v.root_ord = iova_gap_ord_(980, 980);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	as_if_stopped(1, 1, 1, 1);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
}

static void test_inner_entries(void **state)
{
	iova_node_ *r;
	uint32_t nodes = 0, depth = 0;
	uint64_t ranges = 0, pages = 0;

	(void)state;
	/* Two entries of the root that overlap. */
	build_packed();
	r = v.root;
	r->key[1] = r->end[0];
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	as_if_stopped(1, 0, 0, 0);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* The root's own largest gap, and its order, each alone. */
	build_packed();
	v.root->own_gap++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	as_if_stopped(1, 0, 0, 0);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	build_packed();
	v.root->own_ord++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* An entry whose first page is not its child's: the one-page gap it
	 * opens is accounted everywhere else. */
	build_packed();
	r = v.root;
	r->key[1]++;
	r->own_gap = 1;
	r->own_ord = iova_gap_ord_(r->end[0], r->key[1]);
	v.root_gap = 1;
	v.root_ord = r->own_ord;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* The same with its last page. */
	build_packed();
	r = v.root;
	r->end[0]--;
	r->own_gap = 1;
	r->own_ord = iova_gap_ord_(r->end[0], r->key[1]);
	v.root_gap = 1;
	v.root_ord = r->own_ord;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* A child's gap annotation, after the whole child was walked. */
	build_packed();
	r = v.root;
	r->gap[0]++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	subtree(r->child[0], &nodes, &ranges, &pages, &depth);
	as_if_stopped(1u + nodes, ranges, pages, 1u + depth);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	build_packed();
	v.root->ord[0]++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
}

/* A freed range whose removal is pending in a leaf that stays consistent
 * around it: the allocator's own state after freeing the second of four
 * packed pages. */
static void build_pending(void)
{
	init_ap(1, 1000, sizeof(pool), false);
	for (uint64_t i = 0; i < 4u; i++)
		alloc_at(1, 1000, 1000u - i);
	assert_int_equal(mmchal_iova_free(&v, 998), 0);
	assert_ptr_equal(v.pend, v.root);
	assert_int_equal(v.pend_idx, 1);
	assert_true(v.top_valid);
	assert_int_equal(v.top_a, 998);
	assert_int_equal(v.top_b, 998);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

/* Mark entry idx of leaf nd (a single page with both neighbours touching)
 * as the pending, freed top gap. */
static void make_pending(iova_node_ *nd, unsigned int idx)
{
	uint64_t p = nd->key[idx];

	assert_int_equal(nd->end[idx], p);
	v.pend = nd;
	v.pend_idx = idx;
	v.top_valid = true;
	v.top_a = p;
	v.top_b = p;
	v.st.live_ranges--;
	v.st.live_pages--;
}

static void test_pending(void **state)
{
	iova_node_ *l, *l2;

	(void)state;
	build_pending();
	/* Not the exact top gap. */
	v.top_b = 999;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	build_pending();
	v.top_a = 997;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* The hint no longer exact: the gap is then an ordinary one. */
	build_pending();
	v.top_valid = false;
	v.root_gap = 1;
	v.root_ord = iova_gap_ord_(997, 999);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* Pending but never met in the walk. */
	build_pending();
	v.pend_idx = 9;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);

	/* First and last entries of a leaf may not be pending, however
	 * consistent the rest is. */
	build_packed();
	l = first_leaf();
	make_pending(l, l->n - 1u);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	build_packed();
	l = first_leaf();
	l2 = l->parent->child[1];
	assert_int_equal(l2->key[0], l->end[l->n - 1u] + 1u);
	make_pending(l2, 0);
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* The same state one entry further in is a valid one. */
	build_packed();
	l = first_leaf();
	l2 = l->parent->child[1];
	make_pending(l2, 1);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_free_list(void **state)
{
	(void)state;
	/* A one-node pool, used and given back: every node is on the free
	 * list. */
	init_ap(1, 1000, MMCHAL_IOVA_NODE_SIZE, false);
	alloc_at(1, 1000, 1000);
	alloc_at(1, 1000, 999);
	assert_int_equal(mmchal_iova_free(&v, 1000), 0);
	assert_int_equal(mmchal_iova_free(&v, 999), 0);
	assert_null(v.root);
	assert_int_equal(v.pool_left, 0);
	assert_non_null(v.free);
	assert_int_equal(v.st.nodes_total, 1);
	assert_int_equal(mmchal_iova_check(&v), 0);
	/* A cycle in the free list ends the walk. */
	v.free->child[0] = v.free;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
}

static void test_top_bound(void **state)
{
	(void)state;
	/* An inexact hint may bound the top gap from above, not below. */
	build_packed();
	v.top_valid = false;
	assert_int_equal(mmchal_iova_check(&v), 0);
	v.top_b = 99699;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	v.top_b = 100000;
	assert_int_equal(mmchal_iova_check(&v), 0);
	/* Without a tree the whole aperture is the top gap. */
	init_ap(5, 1000, sizeof(pool), false);
	v.top_valid = false;
	v.top_b = 999;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
}

/* Cache bins: [count, start...] for sizes 1..4, depth 4. */
static uint64_t *bin(uint64_t size)
{
	return v.cache + (size - 1u) * 5u;
}

static void build_cached(void)
{
	init_ap(1, 1000, sizeof(pool), true);
	/* Page 2 holds a one-page range: bin 1 then holds 2 entries and one
	 * of them is 2, the same value as the count. */
	alloc_at(1, 2, 2);
	alloc_at(1, 1000, 1000);
	alloc_at(2, 1000, 998);
	alloc_at(2, 1000, 996);
	alloc_at(1, 1000, 995);
	assert_int_equal(mmchal_iova_free_cached(&v, 2, 1), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, 1000, 1), 0);
	assert_int_equal(mmchal_iova_free_cached(&v, 998, 2), 0);
	assert_int_equal(bin(1)[0], 2);
	assert_int_equal(bin(1)[1], 2);
	assert_int_equal(bin(1)[2], 1000);
	assert_int_equal(bin(2)[0], 1);
	assert_int_equal(bin(2)[1], 998);
	assert_int_equal(v.cached, 3);
	assert_int_equal(mmchal_iova_check(&v), 0);
}

static void test_cache(void **state)
{
	/* One word of a bin changed: word 0 is its count, then its entries. */
	static const struct {
		uint64_t size, word, value;
	} bad[] = {
		{3, 0, 5},   /* count above the depth */
		{1, 2, 500}, /* the last entry of a bin is checked too */
		{2, 1, 997}, /* not the start of its range (a live range of the bin's size) */
		{2, 1, 995}, /* the start of a live range of another size */
		{1, 2, 2},   /* the same range twice */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		build_cached();
		bin(bad[i].size)[bad[i].word] = bad[i].value;
		assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	}
	/* The count of cached ranges. */
	build_cached();
	v.cached++;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	/* No cache, nothing may be cached. */
	build_leaf();
	v.cached = 1;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
	assert_int_equal(mmchal_iova_check(NULL), MMCHAL_EINVAL);
}

/* A count above the depth is refused by that test alone: bin 1 full (depth 4)
 * and bin 2's count word, which a fifth entry of bin 1 would read, equal to
 * page 1, itself a live one-page range; with the total raised to match,
 * every other test of the cache passes. */
static void test_cache_count_above_depth(void **state)
{
	(void)state;
	init_ap(1, 1000, sizeof(pool), true);
	alloc_at(1, 1, 1);
	for (uint64_t p = 3; p <= 9u; p += 2u) {
		alloc_at(1, p, p);
		assert_int_equal(mmchal_iova_free_cached(&v, p, 1), 0);
	}
	alloc_at(2, 21, 20);
	assert_int_equal(mmchal_iova_free_cached(&v, 20, 2), 0);
	assert_int_equal(bin(1)[0], 4);
	assert_int_equal(bin(2)[0], 1);
	assert_int_equal(bin(2)[1], 20);
	assert_int_equal(v.cached, 5);
	assert_int_equal(mmchal_iova_check(&v), 0);
	bin(1)[0] = 5;
	v.cached = 6;
	assert_int_equal(mmchal_iova_check(&v), MMCHAL_EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_annotation),
		cmocka_unit_test(test_order_and_aperture),
		cmocka_unit_test(test_hint),
		cmocka_unit_test(test_root_links),
		cmocka_unit_test(test_node_counts),
		cmocka_unit_test(test_range_bounds),
		cmocka_unit_test(test_inner_entries),
		cmocka_unit_test(test_pending),
		cmocka_unit_test(test_free_list),
		cmocka_unit_test(test_top_bound),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_count_above_depth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
