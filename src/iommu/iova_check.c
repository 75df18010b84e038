/**
 * @file
 * @brief IOVA allocator, invariant checker (tests, benchmark --verify, debug).
 *
 * Recomputes every annotation from the ranges themselves rather than from
 * the stored children's values, so a stale value anywhere is found. The
 * exact top gap is left out of them, as the allocator does (iova_excl_).
 *
 * Locking: none; the caller serialises. O(n) time, recursion depth = height.
 */
#include "iommu/iova_node.h"
#include <mmchal/error.h>

struct walk {
	const struct mmchal_iova *v;
	uint64_t ranges;
	uint64_t pages;
	uint64_t nodes;
	uint64_t prev_end; /* end of the previous range in address order */
	bool have_prev;
	uint64_t top_a; /* topmost gap seen so far (the last gap in order) */
	uint64_t top_b;
	bool have_top;
	uint32_t leaf_depth;
	uint64_t excl; /* the gap left out of the annotations (iova_excl_) */
	bool pend_seen;
};

/* Exact summary of a subtree from its ranges: first start, last end,
 * largest inner gap and order. */
struct sum {
	uint64_t first;
	uint64_t last;
	uint64_t gap;
	uint8_t ord;
};

static void note_gap(struct walk *w, uint64_t pe, uint64_t ns)
{
	if (ns - pe > 1u) {
		w->top_a = pe + 1u;
		w->top_b = ns - 1u;
		w->have_top = true;
	}
}

static int check_node(struct walk *w, const iova_node_ *nd, const iova_node_ *parent,
		      unsigned int pidx, uint32_t depth, struct sum *out)
{
	const struct mmchal_iova *v = w->v;
	uint64_t g = 0;
	uint8_t o = 0;
	unsigned int i;

	w->nodes++;
	if (nd->parent != parent || (parent && nd->pidx != pidx))
		return MMCHAL_EPROTO;
	if (nd->n == 0 || nd->n > IOVA_B)
		return MMCHAL_EPROTO;
	if (parent && nd->n < IOVA_MIN)
		return MMCHAL_EPROTO;
	if (!parent && !nd->leaf && nd->n < 2u)
		return MMCHAL_EPROTO;
	if (depth > 64u)
		return MMCHAL_EPROTO;
	if (nd->leaf) {
		if (w->leaf_depth == 0)
			w->leaf_depth = depth;
		else if (w->leaf_depth != depth)
			return MMCHAL_EPROTO;
		for (i = 0; i < nd->n; i++) {
			uint64_t s = nd->key[i], e = nd->end[i];

			if (s > e || s < v->ap_start || e > v->ap_end)
				return MMCHAL_EPROTO;
			if (nd == v->pend && i == v->pend_idx) {
				/* Freed, removal pending: it must be exactly
				 * the top gap, inside its leaf. */
				if (i == 0 || i + 1u >= nd->n || !v->top_valid || v->top_a != s ||
				    v->top_b != e)
					return MMCHAL_EPROTO;
				w->pend_seen = true;
				continue;
			}
			if (w->have_prev) {
				if (s <= w->prev_end)
					return MMCHAL_EPROTO;
				note_gap(w, w->prev_end, s);
				if (i > 0) {
					uint64_t len = iova_gap_val_(w->prev_end, s, w->excl);
					uint8_t go = iova_gap_ordx_(w->prev_end, s, w->excl);

					g = len > g ? len : g;
					o = go > o ? go : o;
				}
			}
			w->prev_end = e;
			w->have_prev = true;
			w->ranges++;
			w->pages += e - s + 1u;
		}
		out->first = nd->key[0];
		out->last = nd->end[nd->n - 1u];
		out->gap = g;
		out->ord = o;
		return 0;
	}
	for (i = 1; i < nd->n; i++) {
		uint64_t pe = nd->end[i - 1u], ns = nd->key[i];

		if (ns <= pe)
			return MMCHAL_EPROTO;
		g = iova_gap_val_(pe, ns, w->excl) > g ? iova_gap_val_(pe, ns, w->excl) : g;
		o = iova_gap_ordx_(pe, ns, w->excl) > o ? iova_gap_ordx_(pe, ns, w->excl) : o;
	}
	/* The cached largest gap between the node's own entries. */
	if (nd->own_gap != g || nd->own_ord != o)
		return MMCHAL_EPROTO;
	for (i = 0; i < nd->n; i++) {
		struct sum cs;
		int ret;

		if (!nd->child[i])
			return MMCHAL_EPROTO;
		ret = check_node(w, nd->child[i], nd, i, depth + 1u, &cs);
		if (ret)
			return ret;
		if (cs.first != nd->key[i] || cs.last != nd->end[i] || cs.gap != nd->gap[i] ||
		    cs.ord != nd->ord[i])
			return MMCHAL_EPROTO;
		g = cs.gap > g ? cs.gap : g;
		o = cs.ord > o ? cs.ord : o;
	}
	out->first = nd->key[0];
	out->last = nd->end[nd->n - 1u];
	out->gap = g;
	out->ord = o;
	return 0;
}

static int check_cache(const struct mmchal_iova *v)
{
	uint64_t total = 0;

	if (!v->cache)
		return v->cached == 0 ? 0 : MMCHAL_EPROTO;
	for (uint64_t s = 1; s <= v->cache_max; s++) {
		const uint64_t *bin = v->cache + (size_t)(s - 1u) * ((size_t)v->cache_depth + 1u);

		if (bin[0] > v->cache_depth)
			return MMCHAL_EPROTO;
		for (uint64_t j = 1; j <= bin[0]; j++) {
			uint64_t st, n;

			if (mmchal_iova_find(v, bin[j], &st, &n) || st != bin[j] || n != s)
				return MMCHAL_EPROTO;
			for (uint64_t k = 1; k < j; k++) {
				if (bin[k] == bin[j])
					return MMCHAL_EPROTO;
			}
		}
		total += bin[0];
	}
	return total == v->cached ? 0 : MMCHAL_EPROTO;
}

int mmchal_iova_check(const struct mmchal_iova *v)
{
	struct walk w = {.v = v};
	struct sum s = {0, 0, 0, 0};
	uint64_t free_nodes = 0;
	const iova_node_ *nd;
	int ret;

	if (!iova_ready_(v))
		return MMCHAL_EINVAL;
	for (nd = v->free; nd; nd = nd->child[0]) {
		if (++free_nodes > v->st.nodes_total)
			return MMCHAL_EPROTO;
	}
	if (free_nodes + v->pool_left != v->free_count)
		return MMCHAL_EPROTO;
	w.excl = iova_excl_(v);
	if (v->root) {
		ret = check_node(&w, v->root, 0, 0, 1, &s);
		if (ret)
			return ret;
		if (s.gap != v->root_gap || s.ord != v->root_ord || w.leaf_depth != v->height)
			return MMCHAL_EPROTO;
		if (s.first > v->ap_start && !w.have_top)
			note_gap(&w, v->ap_start - 1u, s.first);
		if (s.last < v->ap_end)
			note_gap(&w, s.last, v->ap_end + 1u);
	} else {
		if (v->height != 0)
			return MMCHAL_EPROTO;
		note_gap(&w, v->ap_start - 1u, v->ap_end + 1u);
	}
	if (v->pend && !w.pend_seen)
		return MMCHAL_EPROTO;
	if (w.ranges != v->st.live_ranges || w.pages != v->st.live_pages)
		return MMCHAL_EPROTO;
	if (w.nodes != v->st.nodes_used || w.nodes + v->free_count != v->st.nodes_total)
		return MMCHAL_EPROTO;
	/* The hint is the exact topmost gap, or a bound at or above it. */
	if (v->top_valid) {
		if (!w.have_top || w.top_a != v->top_a || w.top_b != v->top_b)
			return MMCHAL_EPROTO;
	} else if (w.have_top && w.top_b > v->top_b) {
		return MMCHAL_EPROTO;
	}
	return check_cache(v);
}
