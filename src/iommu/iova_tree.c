/**
 * @file
 * @brief IOVA allocator, B+-tree maintenance: node pool, insertion with
 *        splits, removal with borrow/merge, and the gap annotations.
 *
 * Every modification updates exactly one leaf-to-root path (two after a
 * split or a merge), so insert and remove are O(B log_B n). Annotations are
 * updated incrementally on the common path: a node's largest gap is only
 * recomputed when the value that was its maximum went away.
 *
 * Locking: none; the caller of the public API serialises.
 */
#include "iommu/iova_tree.h"
#include "iommu/hints.h"

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static inline uint8_t max8(uint8_t a, uint8_t b)
{
	return a > b ? a : b;
}

/* Fold the gap between a range ending at pe and one starting at ns, valued
 * with the excluded top gap excl (iova_gap_val_, iova_gap_ordx_), into the
 * largest gap *g and order *o seen so far. */
static IOMMU_SHARED_ void gap_fold(uint64_t pe, uint64_t ns, uint64_t excl, uint64_t *g, uint8_t *o)
{
	*g = max64(*g, iova_gap_val_(pe, ns, excl));
	*o = max8(*o, iova_gap_ordx_(pe, ns, excl));
}

iova_node_ *iova_node_get_(struct mmchal_iova *v)
{
	iova_node_ *nd = v->free;

	if (nd) {
		v->free = nd->child[0];
	} else {
		/* Nodes are handed out from the pool lazily so that init stays O(1). */
		nd = (iova_node_ *)(void *)v->pool_next;
		v->pool_next += MMCHAL_IOVA_NODE_SIZE;
		v->pool_left--;
	}
	v->free_count--;
	v->st.nodes_used++;
	nd->n = 0;
	nd->leaf = 1;
	nd->parent = 0;
	nd->pidx = 0;
	nd->own_gap = 0;
	nd->own_ord = 0;
	return nd;
}

static void node_put(struct mmchal_iova *v, iova_node_ *nd)
{
	if (v->hint == nd)
		v->hint = 0;
	/* On the free list only child[0] is read; node_get() sets the rest. */
	nd->child[0] = v->free;
	v->free = nd;
	v->free_count++;
	v->st.nodes_used--;
}

/* Largest gap (and order) between consecutive entries of nd. */
static void own_gaps(const iova_node_ *nd, uint64_t excl, uint64_t *gap, uint8_t *ord)
{
	uint64_t g = 0;
	uint8_t o = 0;
	unsigned int i;

	for (i = 1; i < nd->n; i++) {
		uint64_t pe = nd->end[i - 1u], len;

		if (pe + 1u == excl)
			continue;
		len = iova_gap_len_(pe, nd->key[i]);
		g = max64(g, len);
		/* The order is at most log2(len) + 1: skip the exact test when
		 * that cannot beat the current maximum. */
		if (len != 0 && iova_log2_(len) + 1u > o)
			o = max8(o, iova_gap_ord_(pe, nd->key[i]));
	}
	*gap = g;
	*ord = o;
}

/* Summary of nd from its own gaps (as cached in an inner node) and its
 * children's summaries. */
static void summary_fast(const iova_node_ *nd, uint64_t excl, uint64_t *gap, uint8_t *ord)
{
	uint64_t g;
	uint8_t o;
	unsigned int i;

	if (nd->leaf) {
		own_gaps(nd, excl, gap, ord);
		return;
	}
	g = nd->own_gap;
	o = nd->own_ord;
	for (i = 0; i < nd->n; i++) {
		g = max64(g, nd->gap[i]);
		o = max8(o, nd->ord[i]);
	}
	*gap = g;
	*ord = o;
}

/* Full summary, refreshing an inner node's cached own gaps (after a
 * structural change). */
void iova_summary_(iova_node_ *nd, uint64_t excl, uint64_t *gap, uint8_t *ord)
{
	if (!nd->leaf)
		own_gaps(nd, excl, &nd->own_gap, &nd->own_ord);
	summary_fast(nd, excl, gap, ord);
}

/* One own gap of inner node p went from (rg, ro) to (ag, ao). */
static void own_update(iova_node_ *p, uint64_t excl, uint64_t rg, uint8_t ro, uint64_t ag,
		       uint8_t ao)
{
	bool redo = false;

	if (ag >= p->own_gap)
		p->own_gap = ag;
	else if (rg >= p->own_gap)
		redo = true;
	if (ao >= p->own_ord)
		p->own_ord = ao;
	else if (ro >= p->own_ord)
		redo = true;
	if (redo)
		own_gaps(p, excl, &p->own_gap, &p->own_ord);
}

static void item_of(const struct mmchal_iova *v, iova_node_ *nd, struct iova_item_ *it)
{
	iova_summary_(nd, iova_excl_(v), &it->gap, &it->ord);
	it->key = nd->key[0];
	it->end = nd->end[nd->n - 1u];
}

/* Write the summary of child nd into entry i of its parent p. */
static IOMMU_SHARED_ void set_entry(const struct mmchal_iova *v, iova_node_ *p, unsigned int i,
				    iova_node_ *nd)
{
	struct iova_item_ it;

	item_of(v, nd, &it);
	p->key[i] = it.key;
	p->end[i] = it.end;
	p->gap[i] = it.gap;
	p->ord[i] = it.ord;
}

/* Write nd's summary into its parent entry (or the root summary) and do the
 * same for every ancestor. Used after structural changes. */
void iova_refresh_up_(struct mmchal_iova *v, iova_node_ *nd)
{
	for (;;) {
		iova_node_ *p = nd->parent;

		v->st.last_visits++;
		if (!p) {
			iova_summary_(nd, iova_excl_(v), &v->root_gap, &v->root_ord);
			return;
		}
		set_entry(v, p, nd->pidx, nd);
		nd = p;
	}
}

void iova_climb_(struct mmchal_iova *v, iova_node_ *nd, const struct iova_delta_ *d)
{
	uint64_t rg = d->rm_gap, ag = d->add_gap, ox = d->old_excl, nx = iova_excl_(v);
	uint8_t ro = d->rm_ord, ao = d->add_ord;

	for (;;) {
		iova_node_ *p = nd->parent;
		uint64_t og = p ? p->gap[nd->pidx] : v->root_gap;
		uint8_t oo = p ? p->ord[nd->pidx] : v->root_ord;
		uint64_t ng = og, nk, ne, ok, oe;
		uint8_t no = oo;
		unsigned int i;

		v->st.last_visits++;
		if (ag >= og)
			ng = ag;
		if (ao >= oo)
			no = ao;
		if ((ag < og && rg >= og) || (ao < oo && ro >= oo)) {
			uint64_t g;
			uint8_t o;

			summary_fast(nd, nx, &g, &o);
			ng = g;
			no = o;
		}
		if (!p) {
			v->root_gap = ng;
			v->root_ord = no;
			return;
		}
		i = nd->pidx;
		nk = nd->key[0];
		ne = nd->end[nd->n - 1u];
		ok = p->key[i];
		oe = p->end[i];
		if (ng == og && no == oo && nk == ok && ne == oe)
			return;
		rg = og;
		ro = oo;
		ag = ng;
		ao = no;
		p->key[i] = nk;
		p->end[i] = ne;
		p->gap[i] = ng;
		p->ord[i] = no;
		if ((nk != ok && i > 0) || (ne != oe && i + 1u < p->n)) {
			/* p's own gaps next to entry i moved. */
			uint64_t org = 0, oag = 0;
			uint8_t oro = 0, oao = 0;

			if (nk != ok && i > 0) {
				uint64_t pe = p->end[i - 1u];

				gap_fold(pe, ok, ox, &org, &oro);
				gap_fold(pe, nk, nx, &oag, &oao);
			}
			if (ne != oe && i + 1u < p->n) {
				uint64_t ns = p->key[i + 1u];

				gap_fold(oe, ns, ox, &org, &oro);
				gap_fold(ne, ns, nx, &oag, &oao);
			}
			own_update(p, nx, org, oro, oag, oao);
			rg = max64(rg, org);
			ro = max8(ro, oro);
			ag = max64(ag, oag);
			ao = max8(ao, oao);
		}
		nd = p;
	}
}

/* Insert an item at pos into a node with room. */
static void node_place(iova_node_ *nd, unsigned int pos, const struct iova_item_ *it)
{
	uint64_t ck = it->key, ce = it->end;
	unsigned int j;

	/* Shift by carrying the displaced entry rather than as a copy loop,
	 * which compilers turn into two memmove calls, each costing more than
	 * moving a few entries inline. */
	for (j = pos; j <= nd->n; j++) {
		uint64_t tk = nd->key[j], te = nd->end[j];

		nd->key[j] = ck;
		nd->end[j] = ce;
		ck = tk;
		ce = te;
	}
	/* Test the item, not nd->leaf: an inner item always has a child, and
	 * the compiler can then see that a leaf item's NULL child is never
	 * dereferenced (-Wnull-dereference in cross -O3 builds). */
	if (it->child) {
		for (j = nd->n; j > pos; j--) {
			nd->gap[j] = nd->gap[j - 1u];
			nd->ord[j] = nd->ord[j - 1u];
			nd->child[j] = nd->child[j - 1u];
			nd->child[j]->pidx = (uint8_t)j;
		}
		nd->gap[pos] = it->gap;
		nd->ord[pos] = it->ord;
		nd->child[pos] = it->child;
		it->child->parent = nd;
		it->child->pidx = (uint8_t)pos;
	}
	nd->n++;
}

/* Copy entries [from, from + cnt) of src to dst starting at at. */
static void node_move(iova_node_ *dst, unsigned int at, iova_node_ *src, unsigned int from,
		      unsigned int cnt)
{
	unsigned int j;

	for (j = 0; j < cnt; j++) {
		dst->key[at + j] = src->key[from + j];
		dst->end[at + j] = src->end[from + j];
		if (!src->leaf) {
			dst->gap[at + j] = src->gap[from + j];
			dst->ord[at + j] = src->ord[from + j];
			dst->child[at + j] = src->child[from + j];
			dst->child[at + j]->parent = dst;
			dst->child[at + j]->pidx = (uint8_t)(at + j);
		}
	}
}

/* Remove entry pos of a node (no rebalancing, no annotation update). */
static void node_cut(iova_node_ *nd, unsigned int pos)
{
	uint64_t ck = nd->key[nd->n - 1u], ce = nd->end[nd->n - 1u];
	unsigned int j;

	/* Carried shift, as in node_place. */
	for (j = nd->n - 1u; j-- > pos;) {
		uint64_t tk = nd->key[j], te = nd->end[j];

		nd->key[j] = ck;
		nd->end[j] = ce;
		ck = tk;
		ce = te;
	}
	for (j = pos; j + 1u < nd->n; j++) {
		if (!nd->leaf) {
			nd->gap[j] = nd->gap[j + 1u];
			nd->ord[j] = nd->ord[j + 1u];
			nd->child[j] = nd->child[j + 1u];
			nd->child[j]->pidx = (uint8_t)j;
		}
	}
	nd->n--;
}

/* Insert an item into a full or non-full node, splitting upwards. */
static void node_insert(struct mmchal_iova *v, iova_node_ *nd, unsigned int pos,
			const struct iova_item_ *it, uint64_t target)
{
	iova_node_ *r, *p;
	struct iova_item_ up, left;

	if (nd->n < IOVA_B) {
		node_place(nd, pos, it);
		iova_refresh_up_(v, nd);
		return;
	}
	r = iova_node_get_(v);
	r->leaf = nd->leaf;
	node_move(r, 0, nd, IOVA_MIN, IOVA_B - IOVA_MIN);
	r->n = (uint8_t)(IOVA_B - IOVA_MIN);
	nd->n = (uint8_t)IOVA_MIN;
	if (pos <= IOVA_MIN)
		node_place(nd, pos, it);
	else
		node_place(r, pos - IOVA_MIN, it);
	if (nd->leaf)
		v->hint = target >= r->key[0] ? r : nd;
	item_of(v, r, &up);
	up.child = r;
	p = nd->parent;
	if (!p) {
		iova_node_ *root = iova_node_get_(v);

		root->leaf = 0;
		item_of(v, nd, &left);
		left.child = nd;
		node_place(root, 0, &left);
		node_place(root, 1, &up);
		v->root = root;
		v->height++;
		iova_refresh_up_(v, root);
		return;
	}
	set_entry(v, p, nd->pidx, nd);
	node_insert(v, p, nd->pidx + 1u, &up, target);
}

unsigned int iova_nodes_needed_(const struct mmchal_iova *v, const iova_node_ *leaf)
{
	unsigned int k = 1;
	const iova_node_ *nd;

	if (!leaf)
		return 1;
	if (leaf->n < IOVA_B)
		return 0;
	for (nd = leaf->parent; nd && nd->n == IOVA_B; nd = nd->parent)
		k++;
	if (!nd)
		k++;
	(void)v;
	return k;
}

void iova_leaf_insert_(struct mmchal_iova *v, iova_node_ *leaf, uint64_t s, uint64_t e,
		       uint64_t old_excl)
{
	struct iova_item_ it = {.key = s, .end = e};
	struct iova_delta_ d = {0, 0, old_excl, 0, 0};
	uint64_t nx = iova_excl_(v);
	unsigned int pos, n;

	if (!leaf) {
		leaf = iova_node_get_(v);
		v->root = leaf;
		v->height = 1;
		node_place(leaf, 0, &it);
		v->root_gap = 0;
		v->root_ord = 0;
		v->hint = leaf;
		return;
	}
	n = leaf->n;
	for (pos = 0; pos < n && leaf->key[pos] < s; pos++)
		;
	if (n == IOVA_B) {
		node_insert(v, leaf, pos, &it, s);
		return;
	}
	if (pos > 0 && pos < n)
		gap_fold(leaf->end[pos - 1u], leaf->key[pos], old_excl, &d.rm_gap, &d.rm_ord);
	if (pos > 0)
		gap_fold(leaf->end[pos - 1u], s, nx, &d.add_gap, &d.add_ord);
	if (pos < n)
		gap_fold(e, leaf->key[pos], nx, &d.add_gap, &d.add_ord);
	node_place(leaf, pos, &it);
	v->hint = leaf;
	iova_climb_(v, leaf, &d);
}

/* Fix an underfull non-root node by borrowing from or merging with a sibling. */
static void rebalance(struct mmchal_iova *v, iova_node_ *nd)
{
	iova_node_ *p = nd->parent, *l, *r;
	unsigned int li;

	if (nd->pidx > 0) {
		li = nd->pidx - 1u;
		l = p->child[li];
		r = nd;
	} else {
		li = 0;
		l = nd;
		r = p->child[1];
	}
	if (l->n + r->n <= IOVA_B) {
		node_move(l, l->n, r, 0, r->n);
		l->n = (uint8_t)(l->n + r->n);
		node_cut(p, li + 1u);
		node_put(v, r);
		set_entry(v, p, li, l);
		if (l->leaf)
			v->hint = l;
		if (!p->parent) {
			if (p->n == 1) {
				v->root = l;
				l->parent = 0;
				l->pidx = 0;
				node_put(v, p);
				v->height--;
				iova_refresh_up_(v, l);
				return;
			}
		} else if (p->n < IOVA_MIN) {
			rebalance(v, p);
			return;
		}
		iova_refresh_up_(v, p);
		return;
	}
	if (nd == r) {
		/* Take the last entry of the left sibling. */
		unsigned int last = l->n - 1u;
		struct iova_item_ mv = {.key = l->key[last], .end = l->end[last]};

		if (!l->leaf) {
			mv.gap = l->gap[last];
			mv.ord = l->ord[last];
			mv.child = l->child[last];
		}
		l->n--;
		node_place(r, 0, &mv);
	} else {
		/* Take the first entry of the right sibling. */
		node_move(l, l->n, r, 0, 1);
		l->n++;
		node_cut(r, 0);
	}
	set_entry(v, p, li, l);
	set_entry(v, p, li + 1u, r);
	iova_refresh_up_(v, p);
}

void iova_leaf_remove_(struct mmchal_iova *v, iova_node_ *leaf, unsigned int idx, uint64_t old_excl)
{
	struct iova_delta_ d = {0, 0, old_excl, 0, 0};
	uint64_t nx = iova_excl_(v);
	unsigned int n = leaf->n;

	if (idx > 0)
		gap_fold(leaf->end[idx - 1u], leaf->key[idx], old_excl, &d.rm_gap, &d.rm_ord);
	if (idx + 1u < n)
		gap_fold(leaf->end[idx], leaf->key[idx + 1u], old_excl, &d.rm_gap, &d.rm_ord);
	if (idx > 0 && idx + 1u < n)
		gap_fold(leaf->end[idx - 1u], leaf->key[idx + 1u], nx, &d.add_gap, &d.add_ord);
	node_cut(leaf, idx);
	if (leaf->n == 0) {
		/* Only the root leaf can empty: others keep IOVA_MIN - 1 >= 1. */
		node_put(v, leaf);
		v->root = 0;
		v->height = 0;
		v->root_gap = 0;
		v->root_ord = 0;
		return;
	}
	v->hint = leaf;
	if (!leaf->parent || leaf->n >= IOVA_MIN) {
		iova_climb_(v, leaf, &d);
		return;
	}
	rebalance(v, leaf);
}

/*
 * The gap after entry idx of a leaf stopped being the excluded top gap:
 * add its value to the node that holds it (the leaf, or the lowest ancestor
 * in which the leaf's subtree is not the last child) and upwards.
 */
void iova_gap_counted_(struct mmchal_iova *v, iova_node_ *leaf, unsigned int idx)
{
	struct iova_delta_ d = {0, 0, 0, 0, 0};
	iova_node_ *nd = leaf;
	uint64_t pe = leaf->end[idx], ns;

	if (idx + 1u < leaf->n) {
		ns = leaf->key[idx + 1u];
	} else {
		while (nd->parent && nd->pidx + 1u == nd->parent->n) {
			nd = nd->parent;
			v->st.last_visits++;
		}
		if (!nd->parent)
			return; /* no range after it: not an in-tree gap */
		ns = nd->parent->key[nd->pidx + 1u];
		nd = nd->parent;
	}
	gap_fold(pe, ns, iova_excl_(v), &d.add_gap, &d.add_ord);
	if (!nd->leaf)
		own_update(nd, iova_excl_(v), 0, 0, d.add_gap, d.add_ord);
	iova_climb_(v, nd, &d);
}
