/**
 * @file
 * @brief IOVA allocator: initialisation, top-down search, allocation, free
 *        and lookup (the tree maintenance is in iova_tree.c).
 *
 * The search visits the gaps in descending address order and prunes every
 * subtree whose annotation says no gap fits; a subtree entirely below the
 * limit whose annotation says one fits is entered only to take it. Only the
 * subtrees straddling the limit (one per level) can be entered in vain, so
 * an allocation visits O(log n) nodes.
 *
 * The search hint is the exact topmost free gap (or, when that is unknown,
 * a bound on the highest free page). Every alloc and free keeps it exact in
 * O(1), so an allocation whose limit is above it and that fits in it needs
 * no search; this is the "allocate just below the previous one" pattern that
 * cost the 2017 allocator >10 000 node visits per call (seed 001).
 *
 * Locking: none; the caller serialises. Any context.
 */
#include "iommu/iova_tree.h"
#include <mmchal/error.h>

#include "core/mem.h"
#include "iommu/hints.h"

_Static_assert(sizeof(struct mmchal_iova_node) <= MMCHAL_IOVA_NODE_SIZE,
	       "MMCHAL_IOVA_NODE_SIZE too small");
_Static_assert(MMCHAL_IOVA_NODE_SIZE % 8u == 0, "node size must keep 8-byte alignment");
_Static_assert(_Alignof(struct mmchal_iova_node) <= 8, "node alignment above 8");

/* What an allocation looks for. */
struct req {
	uint64_t size;  /* pages reserved */
	uint64_t blk;   /* pages that must be free: size, or its power-of-two round-up */
	uint64_t limit; /* highest usable page */
	uint8_t need;   /* aligned: log2(blk) + 1 */
	bool aligned;
};

size_t mmchal_iova_node_size(void)
{
	return MMCHAL_IOVA_NODE_SIZE;
}

static uint64_t round_pow2(uint64_t v)
{
	return v <= 1u ? 1u : (uint64_t)1 << (iova_log2_(v - 1u) + 1u);
}

int mmchal_iova_init(struct mmchal_iova *v, const struct mmchal_iova_cfg *cfg)
{
	size_t nodes, depth = 0;
	uint32_t max = 0;

	if (!v || !cfg || !cfg->node_mem)
		return MMCHAL_EINVAL;
	if (cfg->aperture_start == 0 || cfg->aperture_start > cfg->aperture_end ||
	    cfg->aperture_end > MMCHAL_IOVA_PFN_MAX)
		return MMCHAL_EINVAL;
	if (((uintptr_t)cfg->node_mem & 7u) != 0)
		return MMCHAL_EINVAL;
	nodes = cfg->node_mem_size / MMCHAL_IOVA_NODE_SIZE;
	if (nodes == 0)
		return MMCHAL_EINVAL;
	if (nodes > UINT32_MAX)
		nodes = UINT32_MAX;
	/* Every check before the first store: a refused configuration leaves
	 * the caller's object as it was. */
	if (cfg->cache_mem) {
		size_t per_size;

		max = cfg->cache_max_pages ? cfg->cache_max_pages
					   : MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT;
		if (((uintptr_t)cfg->cache_mem & 7u) != 0 || max > 65535u)
			return MMCHAL_EINVAL;
		per_size = cfg->cache_mem_size / max / sizeof(uint64_t);
		if (per_size < 2u)
			return MMCHAL_EINVAL;
		depth = cfg->cache_depth ? cfg->cache_depth : per_size - 1u;
		if (depth > 65535u)
			depth = 65535u;
		if (depth + 1u > per_size)
			return MMCHAL_EINVAL;
	}
	memset(v, 0, sizeof(*v));
	if (cfg->cache_mem) {
		v->cache = cfg->cache_mem;
		v->cache_max = max;
		v->cache_fast_max = (cfg->flags & MMCHAL_IOVA_F_CHECK_CACHED) ? 0 : max;
		v->cache_depth = (uint32_t)depth;
		for (size_t s = 0; s < max; s++)
			v->cache[s * (depth + 1u)] = 0;
	}
	v->pool_next = cfg->node_mem;
	v->pool_left = (uint32_t)nodes;
	v->free_count = (uint32_t)nodes;
	v->ap_start = cfg->aperture_start;
	v->ap_end = cfg->aperture_end;
	v->flags = cfg->flags;
	v->top_a = v->ap_start;
	v->top_b = v->ap_end;
	v->top_valid = true;
	v->st.nodes_total = nodes;
	return 0;
}

/* Fit the request into the free pages [a, b]; the highest start wins. */
static bool gap_fit(const struct req *r, uint64_t a, uint64_t b, uint64_t *x)
{
	uint64_t s;

	if (a > r->limit)
		return false;
	if (b > r->limit)
		b = r->limit;
	if (b - a + 1u < r->blk)
		return false;
	s = b - r->blk + 1u;
	if (r->aligned) {
		s &= ~(r->blk - 1u);
		if (s < a)
			return false;
	}
	*x = s;
	return true;
}

/* Fit the request into the free pages between entries i - 1 and i of nd. */
static IOMMU_SHARED_ bool between_fit(const struct req *r, const iova_node_ *nd, unsigned int i,
				      uint64_t *x)
{
	uint64_t pe = nd->end[i - 1u], ns = nd->key[i];

	return ns - pe > 1u && gap_fit(r, pe + 1u, ns - 1u, x);
}

static bool sub_fits(const struct req *r, uint64_t gap, uint8_t ord)
{
	return r->aligned ? ord >= r->need : gap >= r->size;
}

/* Ask for the lines a leaf scan reads (header, keys, ends) at once. */
static inline void prefetch_leaf(const iova_node_ *l)
{
	const char *k = (const char *)l->key;

	IOVA_PREFETCH_(&l->n);
	for (unsigned int off = 0; off < 2u * sizeof(l->key); off += 64u)
		IOVA_PREFETCH_(k + off);
	IOVA_PREFETCH_(k + 2u * sizeof(l->key) - 1u);
}

static bool search(struct mmchal_iova *v, const struct req *r, const iova_node_ *nd, uint32_t level,
		   uint64_t *x, iova_node_ **leaf)
{
	unsigned int i;

	v->st.last_visits++;
	if (nd->leaf) {
		for (i = nd->n - 1u; i > 0; i--) {
			if (between_fit(r, nd, i, x)) {
				*leaf = (iova_node_ *)(uintptr_t)nd;
				return true;
			}
		}
		return false;
	}
	for (i = nd->n; i-- > 0;) {
		if (nd->key[i] <= r->limit && sub_fits(r, nd->gap[i], nd->ord[i])) {
			if (level + 1u == v->height)
				prefetch_leaf(nd->child[i]);
			if (search(v, r, nd->child[i], level + 1u, x, leaf))
				return true;
		}
		if (i > 0 && between_fit(r, nd, i, x)) {
			/* The new range goes last into the rightmost leaf
			 * below the gap: reach it along the last child
			 * pointers instead of a second descent. */
			const iova_node_ *l = nd->child[i - 1u];

			while (!l->leaf) {
				l = l->child[l->n - 1u];
				v->st.last_visits++;
			}
			*leaf = (iova_node_ *)(uintptr_t)l;
			return true;
		}
	}
	return false;
}

/* Index of the child whose subtree holds (or would hold) page pfn. */
static IOMMU_OUTLINE_ unsigned int child_index(const iova_node_ *nd, uint64_t pfn)
{
	unsigned int i, c = 0;

	for (i = 1; i < nd->n; i++)
		c += nd->key[i] <= pfn;
	return c;
}

static iova_node_ *descend(struct mmchal_iova *v, uint64_t pfn)
{
	iova_node_ *nd = v->root;
	uint32_t level = 1;

	v->st.last_visits++;
	while (!nd->leaf) {
		unsigned int c = child_index(nd, pfn);

		if (++level == v->height) {
			/* The leaf's ends are read after its keys (the
			 * range's end, then the shift of a removal): ask for
			 * them with the keys rather than after. */
			const char *e = (const char *)nd->child[c]->end;

			IOVA_PREFETCH_(e);
			IOVA_PREFETCH_(e + 64);
			IOVA_PREFETCH_(e + 127);
		} else {
			/* Likewise the child pointers of an inner node,
			 * read once its keys have chosen one. */
			const char *cp = (const char *)nd->child[c]->child;

			IOVA_PREFETCH_(cp);
			IOVA_PREFETCH_(cp + 64);
			IOVA_PREFETCH_(cp + 127);
		}

		/* The update that follows a descent reads these entries of
		 * the path (iova_climb_); they are in other lines than the
		 * keys and child pointers the descent reads, so request
		 * them now, off the critical path. */
		IOVA_PREFETCH_(&nd->gap[c]);
		IOVA_PREFETCH_(&nd->ord[c]);
		IOVA_PREFETCH_(&nd->end[c]);
		nd = nd->child[c];
		v->st.last_visits++;
	}
	return nd;
}

/* End of the range before entry idx of a leaf; false when there is none. */
static IOMMU_OUTLINE_ bool prev_end(const iova_node_ *nd, unsigned int idx, uint64_t *pe)
{
	if (idx > 0) {
		*pe = nd->end[idx - 1u];
		return true;
	}
	for (; nd->parent; nd = nd->parent) {
		if (nd->pidx > 0) {
			*pe = nd->parent->end[nd->pidx - 1u];
			return true;
		}
	}
	return false;
}

/* Start of the range after entry idx of a leaf; false when there is none. */
static bool next_start(const iova_node_ *nd, unsigned int idx, uint64_t *ns)
{
	if (idx + 1u < nd->n) {
		*ns = nd->key[idx + 1u];
		return true;
	}
	for (; nd->parent; nd = nd->parent) {
		if (nd->pidx + 1u < nd->parent->n) {
			*ns = nd->parent->key[nd->pidx + 1u];
			return true;
		}
	}
	return false;
}

/* The leaf a new range starting at x goes into: the hint when x lies between
 * the hint's neighbours, else found by descent. */
static iova_node_ *insert_leaf(struct mmchal_iova *v, uint64_t x)
{
	iova_node_ *h = v->hint;
	uint64_t b;

	if (!v->root)
		return 0;
	if (h && (!prev_end(h, 0, &b) || b < x) && (!next_start(h, h->n - 1u, &b) || x < b)) {
		v->st.last_visits++;
		return h;
	}
	return descend(v, x);
}

void iova_pend_flush_(struct mmchal_iova *v)
{
	iova_node_ *leaf = v->pend;

	if (!leaf)
		return;
	v->pend = 0;
	/* The top gap is unchanged: it is the range being removed. */
	iova_leaf_remove_(v, leaf, v->pend_idx, iova_excl_(v));
}

static IOMMU_OUTLINE_ void note_visits(struct mmchal_iova *v)
{
	if (v->st.last_visits > v->st.max_visits)
		v->st.max_visits = v->st.last_visits;
}

int iova_tree_alloc_(struct mmchal_iova *v, uint64_t npages, uint64_t limit, bool size_aligned,
		     uint64_t *start)
{
	struct req r;
	iova_node_ *leaf = 0;
	uint64_t x = 0, e, old_excl;
	bool found = false;

	if (limit < v->ap_start)
		return MMCHAL_ERANGE;
	if (limit > v->ap_end)
		limit = v->ap_end;
	/* before the round-up, which would overflow above 2^63 pages */
	if (npages > v->ap_end - v->ap_start + 1u)
		return MMCHAL_ERANGE;
	r.size = npages;
	r.aligned = size_aligned && npages > 1u;
	r.blk = r.aligned ? round_pow2(npages) : npages;
	r.need = (uint8_t)(iova_log2_(r.blk) + 1u);
	r.limit = limit;
	if (r.blk > v->ap_end - v->ap_start + 1u)
		return MMCHAL_ERANGE;
	v->st.last_visits = 0;
	if (v->pend) {
		/* The pending range is the top gap: taking all of it again
		 * just cancels its removal. */
		if (gap_fit(&r, v->top_a, v->top_b, &x) && x == v->top_a &&
		    npages == v->top_b - v->top_a + 1u) {
			v->pend = 0;
			v->top_valid = false;
			v->top_b = v->top_a - 1u;
			v->st.last_visits = 1;
			goto done;
		}
		iova_pend_flush_(v);
	}
	/* The top gap first: it is above every other free page, and the
	 * annotations leave it out (iova_excl_). gap_fit clamps it to the
	 * limit. */
	if (v->top_valid && gap_fit(&r, v->top_a, v->top_b, &x)) {
		found = true;
	} else if (!v->root) {
		found = gap_fit(&r, v->ap_start, v->ap_end, &x);
	} else {
		const iova_node_ *rt = v->root;
		uint64_t first = rt->key[0], last = rt->end[rt->n - 1u];

		if (last < v->ap_end)
			found = gap_fit(&r, last + 1u, v->ap_end, &x);
		if (!found && sub_fits(&r, v->root_gap, v->root_ord))
			found = search(v, &r, rt, 1, &x, &leaf);
		if (!found && first > v->ap_start)
			found = gap_fit(&r, v->ap_start, first - 1u, &x);
	}
	if (!found)
		goto fail;
	e = x + npages - 1u;
	if (!leaf)
		leaf = insert_leaf(v, x);
	if (iova_nodes_needed_(v, leaf) > v->free_count)
		goto fail;
	/* The new top gap is set before the insertion so that the tree
	 * values the gaps around the new range with it. */
	old_excl = iova_excl_(v);
	if (v->top_valid && x >= v->top_a) {
		if (e < v->top_b) {
			v->top_a = e + 1u;
		} else if (x > v->top_a) {
			v->top_b = x - 1u;
		} else {
			v->top_valid = false;
			v->top_b = v->top_a - 1u;
		}
	}
	iova_leaf_insert_(v, leaf, x, e, old_excl);
done:
	v->st.live_ranges++;
	v->st.live_pages += npages;
	note_visits(v);
	*start = x;
	return 0;
fail:
	v->st.failures++;
	note_visits(v);
	return MMCHAL_ENOMEM;
}

int mmchal_iova_alloc(struct mmchal_iova *v, uint64_t npages, uint64_t limit, bool size_aligned,
		      uint64_t *start)
{
	if (!iova_ready_(v) || !start || npages == 0)
		return MMCHAL_EINVAL;
	return iova_tree_alloc_(v, npages, limit, size_aligned, start);
}

/* Leaf and index of the range starting at start, if any. */
static iova_node_ *locate(struct mmchal_iova *v, uint64_t start, unsigned int *idx)
{
	iova_node_ *leaf = v->hint;
	unsigned int i, c = 0;

	if (!v->root)
		return 0;
	if (leaf && leaf->key[0] <= start && start <= leaf->key[leaf->n - 1u])
		v->st.last_visits++;
	else
		leaf = descend(v, start);
	for (i = 0; i < leaf->n; i++)
		c += leaf->key[i] < start;
	if (c >= leaf->n || leaf->key[c] != start)
		return 0;
	*idx = c;
	return leaf;
}

int iova_tree_free_(struct mmchal_iova *v, uint64_t start, uint64_t *npages)
{
	iova_node_ *leaf;
	unsigned int idx = 0;
	uint64_t e, ga, gb, size, old_excl, old_a, old_b;

	v->st.last_visits = 0;
	iova_pend_flush_(v);
	leaf = locate(v, start, &idx);
	if (!leaf) {
		note_visits(v);
		return MMCHAL_ENOENT;
	}
	e = leaf->end[idx];
	size = e - start + 1u;
	if (*npages != 0 && *npages != size)
		return MMCHAL_EINVAL;
	if (v->cache && size <= v->cache_max && iova_cache_holds_(v, start, size))
		return MMCHAL_EALREADY;
	if (prev_end(leaf, idx, &ga))
		ga++;
	else
		ga = v->ap_start;
	if (next_start(leaf, idx, &gb))
		gb--;
	else
		gb = v->ap_end;
	/* The merged gap is the topmost one when it reaches the old top (or
	 * the bound on free pages when the top gap was unknown). It is set
	 * before the removal so that the tree leaves it out of the
	 * annotations; an old top gap that it does not absorb becomes an
	 * ordinary gap and is added to them afterwards. */
	old_excl = iova_excl_(v);
	old_a = v->top_a;
	old_b = v->top_b;
	if (gb >= v->top_b) {
		v->top_a = ga;
		v->top_b = gb;
		v->top_valid = true;
	}
	/* A range inside its leaf whose neighbours touch it becomes, freed,
	 * exactly the top gap: its removal would leave every annotation and
	 * every parent key as they are, so it is deferred. The next
	 * allocation that takes exactly that gap cancels it in O(1); any
	 * other tree operation completes it first (iova_pend_flush_). */
	if (ga == start && gb == e && gb >= old_b && idx > 0 && idx + 1u < leaf->n) {
		v->pend = leaf;
		v->pend_idx = idx;
	} else {
		iova_leaf_remove_(v, leaf, idx, old_excl);
	}
	if (old_excl != 0 && ga > old_a && old_a > v->ap_start && old_b < v->ap_end) {
		iova_node_ *pl = descend(v, old_a - 1u);
		unsigned int pi = 0;

		while (pi + 1u < pl->n && pl->key[pi + 1u] < old_a)
			pi++;
		iova_gap_counted_(v, pl, pi);
	}
	v->st.live_ranges--;
	v->st.live_pages -= size;
	note_visits(v);
	*npages = size;
	return 0;
}

int mmchal_iova_free(struct mmchal_iova *v, uint64_t start)
{
	uint64_t npages = 0;

	if (!iova_ready_(v))
		return MMCHAL_EINVAL;
	return iova_tree_free_(v, start, &npages);
}

int mmchal_iova_find(const struct mmchal_iova *v, uint64_t pfn, uint64_t *start, uint64_t *npages)
{
	const iova_node_ *nd;
	unsigned int i, c = 0;

	if (!iova_ready_(v))
		return MMCHAL_EINVAL;
	if (!v->root)
		return MMCHAL_ENOENT;
	if (v->pend && pfn >= v->top_a && pfn <= v->top_b)
		return MMCHAL_ENOENT; /* freed; its removal is pending */
	for (nd = v->root; !nd->leaf;)
		nd = nd->child[child_index(nd, pfn)];
	for (i = 0; i < nd->n; i++)
		c += nd->key[i] <= pfn;
	if (c == 0 || nd->end[c - 1u] < pfn)
		return MMCHAL_ENOENT;
	if (start)
		*start = nd->key[c - 1u];
	if (npages)
		*npages = nd->end[c - 1u] - nd->key[c - 1u] + 1u;
	return 0;
}

int mmchal_iova_get_stats(const struct mmchal_iova *v, struct mmchal_iova_stats *st)
{
	if (!iova_ready_(v) || !st)
		return MMCHAL_EINVAL;
	*st = v->st;
	st->height = v->height;
	st->cached_ranges = v->cached;
	return 0;
}

int mmchal_iova_reset_stats(struct mmchal_iova *v)
{
	if (!iova_ready_(v))
		return MMCHAL_EINVAL;
	v->st.max_visits = 0;
	v->st.cache_hits = 0;
	v->st.cache_misses = 0;
	v->st.failures = 0;
	return 0;
}
