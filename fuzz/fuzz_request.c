/*
 * libFuzzer target: request validation, the DMA planner and the merge policy
 * over arbitrary capability sets and scatter-gather lists.
 *
 * The input is read one choice at a time (bytes past its end read as 0):
 * first a capability set (tests/core/limits_props.c), which
 * mmchal_limits_derive() turns into limits as the host core does, then the
 * planner's view of the host, then a request (commands, data phase and an sg
 * list of 1..64 entries built from page-aligned, odd, contiguous, boundary and
 * arbitrary addresses and lengths).
 *
 * Checked, each against a reference written here from the headers' contract:
 *  - mmchal_request_check() gives the documented first failure (reason and
 *    entry), and a request it accepts fits every limit; the summary of an
 *    accepted list is sound (never claims more than the list holds);
 *  - mmchal_dma_plan() and mmchal_dma_plan_sum() agree; a plan needs CPU
 *    addresses only where documented; DIRECT without an IOMMU hands the engine
 *    segments it takes (count, alignment, granule, size, address bits,
 *    boundary); BOUNCED fits the bounce limit and the engine; IOMMU_MERGED is
 *    what the merge policy allows, and mapping it through a domain gives one
 *    segment that translates back to every entry;
 *  - mmchal_merge_check() and mmchal_dma_check_mapped() match the reference;
 *  - no function writes to its inputs (exact copies compared); the inputs
 *    are allocated to their exact size, so ASan reports any access outside.
 *
 * fuzz_request_run() returns 0 or the number of the first broken property;
 * the libFuzzer entry aborts on a non-zero value, and
 * tests/fuzz/test_fuzz_request.c replays every file of tests/fuzz/request/
 * through the same function.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/dma_plan.h>
#include <mmchal/error.h>
#include <mmchal/iommu.h>
#include <mmchal/limits.h>

#include "fuzz_request.h"
#include "limits_props.h"

#define MAX_SG   64u
#define MAX_MAPS (2u * MAX_SG)

struct bytes {
	const uint8_t *p;
	size_t n;
};

static uint64_t next_byte(void *ctx)
{
	struct bytes *b = ctx;

	if (b->n == 0)
		return 0;
	b->n--;
	return *b->p++;
}

static uint64_t rd(struct bytes *b, unsigned nbytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < nbytes; i++)
		v |= next_byte(b) << (8u * i);
	return v;
}

/* ------------------------------------------------------------ fake IOMMU */

struct fake_map {
	uint64_t iova, phys, size;
	uint32_t prot;
};

struct fake_iommu {
	struct mmchal_iommu_caps caps;
	struct fake_map m[MAX_MAPS];
	uint32_t n;
	bool bad; /* an op got an address or size that is not whole pages */
};

static bool page_ok(const struct fake_iommu *f, uint64_t v)
{
	return (v & ((uint64_t)f->caps.page_size - 1u)) == 0;
}

static int f_get_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	*caps = ((struct fake_iommu *)ctx)->caps;
	return 0;
}

static int f_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
		 uint32_t prot)
{
	struct fake_iommu *f = ctx;

	if (!page_ok(f, iova) || !page_ok(f, phys) || !page_ok(f, size) || size == 0)
		f->bad = true;
	if (f->n == MAX_MAPS)
		return MMCHAL_ENOMEM;
	f->m[f->n++] = (struct fake_map){iova, phys, size, prot};
	return 0;
}

static int f_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct fake_iommu *f = ctx;

	if (!page_ok(f, iova) || !page_ok(f, size))
		f->bad = true;
	/* drop every recorded range inside [iova, iova + size) */
	for (uint32_t i = 0; i < f->n;) {
		if (f->m[i].iova >= iova && f->m[i].iova - iova < size) {
			f->m[i] = f->m[--f->n];
			continue;
		}
		i++;
	}
	return 0;
}

static int f_flush(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	(void)ctx;
	(void)iova;
	(void)size;
	return 0;
}

static const struct mmchal_iommu_ops fake_ops = {f_get_caps, f_map, f_unmap, f_flush};

/* The physical address device address @p a reaches, or false when unmapped. */
static bool translate(const struct fake_iommu *f, uint64_t a, uint32_t prot, uint64_t *phys)
{
	for (uint32_t i = 0; i < f->n; i++) {
		if (a >= f->m[i].iova && a - f->m[i].iova < f->m[i].size) {
			*phys = f->m[i].phys + (a - f->m[i].iova);
			return (f->m[i].prot & prot) != 0;
		}
	}
	return false;
}

/* Every entry's first and last byte reach its own memory through @p seg. */
static bool translates(const struct fake_iommu *f, const struct mmchal_sg *sg, uint32_t n,
		       const struct mmchal_dma_seg *seg, bool merged, uint32_t prot)
{
	uint64_t off = 0, p;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = merged ? seg[0].addr + off : seg[i].addr;

		if (!translate(f, a, prot, &p) || p != sg[i].phys)
			return false;
		if (!translate(f, a + sg[i].len - 1u, prot, &p) || p != sg[i].phys + sg[i].len - 1u)
			return false;
		off += sg[i].len;
	}
	return true;
}

/* ------------------------------------------------------------ references */

static bool crosses(uint64_t phys, uint64_t len, uint64_t mask)
{
	return mask != 0 && ((phys ^ (phys + len - 1u)) & ~mask) != 0;
}

static bool cmd_ok(const struct mmchal_cmd *c, enum mmchal_req_check *why)
{
	const uint32_t all = MMCHAL_RSP_PRESENT | MMCHAL_RSP_136 | MMCHAL_RSP_CRC |
			     MMCHAL_RSP_BUSY | MMCHAL_RSP_OPCODE;

	if (c->opcode > 63u) {
		*why = MMCHAL_REQ_OPCODE;
		return false;
	}
	if ((c->flags & ~all) != 0 || (c->flags != 0 && !(c->flags & MMCHAL_RSP_PRESENT))) {
		*why = MMCHAL_REQ_RSP_FLAGS;
		return false;
	}
	return true;
}

/* mmchal_request_check() as dma_plan.h documents it, entry by entry. */
static enum mmchal_req_check ref_check(const struct mmchal_request *r,
				       const struct mmchal_limits *l, uint32_t *index)
{
	const struct mmchal_cmd *cmds[3] = {r->sbc, r->cmd, r->stop};
	const struct mmchal_data *d = r->data;
	enum mmchal_req_check why = MMCHAL_REQ_OK;
	uint64_t total, sum = 0;

	*index = 0;
	for (int i = 0; i < 3; i++) {
		if (cmds[i] && !cmd_ok(cmds[i], &why))
			return why;
	}
	if (!d)
		return r->sbc    ? MMCHAL_REQ_SBC_NO_DATA
		       : r->stop ? MMCHAL_REQ_STOP_NO_DATA
				 : MMCHAL_REQ_OK;
	if (!(r->cmd->flags & MMCHAL_RSP_PRESENT) ||
	    (r->cmd->flags & (MMCHAL_RSP_136 | MMCHAL_RSP_BUSY)))
		return MMCHAL_REQ_DATA_CMD;
	if (d->dir != MMCHAL_DIR_TO_CARD && d->dir != MMCHAL_DIR_FROM_CARD)
		return MMCHAL_REQ_DIR;
	if (d->blksz == 0 || d->blksz > l->max_blk_size)
		return MMCHAL_REQ_BLKSZ;
	if (d->blocks == 0 || d->blocks > l->max_blk_count)
		return MMCHAL_REQ_BLOCKS;
	total = (uint64_t)d->blksz * d->blocks;
	if (total > l->max_req_size || total > UINT32_MAX)
		return MMCHAL_REQ_REQ_SIZE;
	if (!d->sg || d->sg_len == 0)
		return MMCHAL_REQ_NO_SG;
	if (d->sg_len > l->max_segs)
		return MMCHAL_REQ_SEGS;
	for (uint32_t i = 0; i < d->sg_len; i++) {
		const struct mmchal_sg *s = &d->sg[i];
		uint64_t vb = l->virt_boundary;

		*index = i;
		if (s->len == 0)
			return MMCHAL_REQ_SEG_ZERO;
		if (s->len > l->max_seg_size)
			return MMCHAL_REQ_SEG_SIZE;
		if (s->phys + (s->len - 1u) < s->phys)
			return MMCHAL_REQ_SEG_WRAP;
		if (crosses(s->phys, s->len, l->seg_boundary))
			return MMCHAL_REQ_SEG_BOUNDARY;
		if (vb != 0 && ((i > 0 && (s->phys & vb) != 0) ||
				(i + 1u < d->sg_len && ((s->phys + s->len) & vb) != 0)))
			return MMCHAL_REQ_VIRT_BOUNDARY;
		sum += s->len;
	}
	*index = 0;
	if (sum != total)
		return MMCHAL_REQ_SUM;
	if (r->sbc && (r->sbc->arg & 0xffffu) != d->blocks)
		return MMCHAL_REQ_SBC_COUNT;
	return MMCHAL_REQ_OK;
}

/* mmchal_merge_check() as iommu.h documents it. */
static enum mmchal_merge_reason ref_merge(const struct mmchal_sg *sg, uint32_t n,
					  const struct mmchal_iommu_caps *c,
					  enum mmchal_card_type card, uint64_t *total_out,
					  uint64_t *span_out)
{
	uint64_t mask, total = 0, span;

	*total_out = 0;
	*span_out = 0;
	if (c->present && (c->page_size == 0 || (c->page_size & (c->page_size - 1u)) != 0 ||
			   (c->merge_boundary != 0 && c->merge_boundary != c->page_size - 1ull) ||
			   (c->aperture_end != 0 && c->aperture_end < c->aperture_start)))
		return MMCHAL_MERGE_BAD_ARGS;
	if (!c->present)
		return MMCHAL_MERGE_NO_IOMMU;
	if (c->merge_boundary == 0)
		return MMCHAL_MERGE_CANNOT_MERGE;
	if (card != MMCHAL_CARD_SD && card != MMCHAL_CARD_MMC)
		return MMCHAL_MERGE_CARD_TYPE;
	if (n == 0)
		return MMCHAL_MERGE_EMPTY;
	mask = c->page_size - 1ull;
	for (uint32_t i = 0; i < n; i++) {
		if (sg[i].len == 0)
			return MMCHAL_MERGE_ZERO_LENGTH;
		if (sg[i].phys + (sg[i].len - 1u) < sg[i].phys)
			return MMCHAL_MERGE_OVERFLOW;
		total += sg[i].len;
	}
	*total_out = total;
	for (uint32_t i = 0; i < n; i++) {
		if ((i > 0 && (sg[i].phys & mask)) ||
		    (i + 1u < n && ((sg[i].phys + sg[i].len) & mask)))
			return MMCHAL_MERGE_UNALIGNED;
	}
	if (total > UINT32_MAX)
		return MMCHAL_MERGE_OVERFLOW;
	/* whole pages from the first entry's page to the last byte */
	span = ((sg[0].phys & mask) + total + mask) / c->page_size * c->page_size;
	*span_out = span;
	if ((c->max_map_size != 0 && span > c->max_map_size) ||
	    (c->aperture_end != 0 && span - 1u > c->aperture_end - c->aperture_start))
		return MMCHAL_MERGE_TOO_LARGE;
	return MMCHAL_MERGE_OK;
}

/* Can the engine take @p segs as they are? (mmchal_dma_check_mapped() contract) */
static bool ref_engine_takes(const struct mmchal_dma_dir_caps *c, const struct mmchal_dma_seg *s,
			     uint32_t n, bool merged)
{
	if (n == 0 || (merged && n != 1u) || n > c->max_segs)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t last = s[i].addr + s[i].len - 1u;

		if (s[i].len == 0 || last < s[i].addr)
			return false;
		if (c->addr_align > 1u && s[i].addr % c->addr_align != 0)
			return false;
		if (c->len_granule > 1u && s[i].len % c->len_granule != 0)
			return false;
		if (s[i].len > c->max_seg_size)
			return false;
		if (c->addr_bits != 0 && c->addr_bits < 64 && (last >> c->addr_bits) != 0)
			return false;
		if (crosses(s[i].addr, s[i].len, c->seg_boundary))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------ generation */

static uint64_t gen_phys(struct bytes *b, const struct mmchal_sg *prev)
{
	uint64_t prev_end = prev ? prev->phys + prev->len : 0x1000;

	switch (rd(b, 1) % 8u) {
	case 0:
		return (rd(b, 2) + 1u) << 12;
	case 1:
		return ((rd(b, 2) + 1u) << 12) | (rd(b, 2) & 0xfffu);
	case 2:
		return prev_end;
	case 3:
		return (prev_end + 0xfffu) & ~0xfffull;
	case 4:
		return 0x100000000ull - rd(b, 2);
	case 5:
		return UINT64_MAX - rd(b, 4);
	case 6:
		return rd(b, 8);
	default:
		return rd(b, 4) << 9;
	}
}

static uint32_t gen_len(struct bytes *b, uint64_t phys)
{
	switch (rd(b, 1) % 8u) {
	case 0:
		return 4096;
	case 1:
		return 512u * (uint32_t)(1u + rd(b, 1) % 16u);
	case 2:
		return (uint32_t)(1u + rd(b, 2) % 4096u);
	case 3:
		return (uint32_t)rd(b, 4);
	case 4:
		return 4096u - (uint32_t)(phys & 0xfffu);
	case 5:
		return 1;
	case 6:
		return 65536u * (uint32_t)(1u + rd(b, 1) % 16u);
	default:
		return 0x10000u + (uint32_t)rd(b, 2);
	}
}

/* A CPU address the planner may look at (cache-line checks) but never dereference. */
static void *gen_cpu(struct bytes *b, uint64_t phys)
{
	uint64_t v;

	switch (rd(b, 1) % 8u) {
	case 0:
		return NULL;
	case 1:
		v = 0x10000000u + (rd(b, 2) << 12) + rd(b, 2) % 4096u;
		break;
	default:
		v = 0x10000000u + ((rd(b, 2) << 12) | (phys & 0xfffu));
		break;
	}
	return (void *)(uintptr_t)v;
}

/* Fields of derived limits the input may override (keeping each in its documented range). */
static void perturb_limits(struct bytes *b, struct mmchal_limits *l)
{
	uint32_t which = (uint32_t)rd(b, 1);

	if (which & 1u)
		l->max_segs = (uint32_t)(1u + rd(b, 1) % MAX_SG);
	if (which & 2u)
		l->max_seg_size = (uint32_t)(1u + rd(b, 4) % UINT32_MAX);
	if (which & 4u)
		l->seg_boundary = rd(b, 1) % 2u ? 0 : (1ull << (rd(b, 1) % 64u)) - 1u;
	if (which & 8u)
		l->virt_boundary = rd(b, 1) % 2u ? 0 : (1ull << (rd(b, 1) % 17u)) - 1u;
	if (which & 16u)
		l->max_blk_size = (uint32_t)(1u + rd(b, 2));
	if (which & 32u)
		l->max_blk_count = (uint32_t)(1u + rd(b, 4) % UINT32_MAX);
	if (which & 64u)
		l->max_req_size = 1u + rd(b, 5);
}

/* ------------------------------------------------------------ the run */

struct run {
	struct limits_case lc;
	struct mmchal_limits lim;
	struct mmchal_plan_env env;
	struct mmchal_request *req;
	struct mmchal_cmd *sbc, *cmd, *stop;
	struct mmchal_data *data;
	struct mmchal_sg *sg;
	uint32_t nsg;
	/* exact copies: nothing may write to the inputs */
	struct mmchal_request req0;
	struct mmchal_cmd sbc0, cmd0, stop0;
	struct mmchal_data data0;
	struct mmchal_sg sg0[MAX_SG];
	struct mmchal_limits lim0;
};

/* Field by field: the derivation may leave the padding of its copy undefined. */
static bool lim_equal(const struct mmchal_limits *a, const struct mmchal_limits *b)
{
	return a->max_segs == b->max_segs && a->merge == b->merge &&
	       a->virt_boundary == b->virt_boundary && a->max_blk_size == b->max_blk_size &&
	       a->max_req_size == b->max_req_size && a->max_blk_count == b->max_blk_count &&
	       a->max_seg_size == b->max_seg_size && a->seg_boundary == b->seg_boundary &&
	       a->dma_align == b->dma_align && a->bounce_limit == b->bounce_limit &&
	       a->policy == b->policy && a->completion_work_ns == b->completion_work_ns &&
	       a->card == b->card && memcmp(a->reason, b->reason, sizeof(a->reason)) == 0 &&
	       memcmp(a->cause, b->cause, sizeof(a->cause)) == 0;
}

static bool inputs_intact(const struct run *r)
{
	return memcmp(r->req, &r->req0, sizeof(r->req0)) == 0 &&
	       memcmp(r->cmd, &r->cmd0, sizeof(r->cmd0)) == 0 &&
	       (!r->sbc || memcmp(r->sbc, &r->sbc0, sizeof(r->sbc0)) == 0) &&
	       (!r->stop || memcmp(r->stop, &r->stop0, sizeof(r->stop0)) == 0) &&
	       memcmp(r->data, &r->data0, sizeof(r->data0)) == 0 &&
	       memcmp(r->sg, r->sg0, r->nsg * sizeof(r->sg[0])) == 0 &&
	       lim_equal(&r->lim, &r->lim0);
}

static bool all_cpu(const struct run *r)
{
	for (uint32_t i = 0; i < r->nsg; i++) {
		if (!r->sg[i].cpu)
			return false;
	}
	return true;
}

static bool shares_line(const struct run *r, uint32_t line)
{
	for (uint32_t i = 0; i < r->nsg; i++) {
		uintptr_t a = (uintptr_t)r->sg[i].cpu;

		if (a % line != 0 || (a + r->sg[i].len) % line != 0)
			return true;
	}
	return false;
}

/* Map through a domain over a fake IOMMU and check the device view. */
static int check_mapping(struct run *r, bool merged)
{
	const struct mmchal_dma_dir_caps *c = &r->env.dma->dir[r->data->dir];
	uint32_t prot = r->data->dir == MMCHAL_DIR_TO_CARD ? MMCHAL_IOMMU_READ : MMCHAL_IOMMU_WRITE;
	struct fake_iommu *f = calloc(1, sizeof(*f));
	size_t nodes = MMCHAL_IOVA_POOL_BYTES(MAX_SG);
	void *node_mem = malloc(nodes);
	struct mmchal_iommu iommu = {&fake_ops, f};
	struct mmchal_iommu_domain dom;
	struct mmchal_iommu_domain_cfg dc = {.iommu = &iommu,
					     .node_mem = node_mem,
					     .node_mem_size = nodes,
					     .addr_bits = c->addr_bits};
	struct mmchal_iommu_mapping map = {0};
	struct mmchal_iommu_domain_stats st;
	struct mmchal_dma_seg *segs = malloc(r->nsg * sizeof(*segs));
	int err, bad = 0;

	if (!f || !node_mem || !segs)
		abort();
	f->caps = *r->env.iommu;
	if (mmchal_iommu_domain_init(&dom, &dc) != 0)
		goto out;
	if (merged)
		err = mmchal_iommu_map_merged(&dom, r->sg, r->nsg, r->data->dir, r->env.card, &map,
					      segs, NULL);
	else
		err = mmchal_iommu_map_segs(&dom, r->sg, r->nsg, r->data->dir, &map, segs);
	if (!inputs_intact(r)) {
		bad = 40;
		goto out;
	}
	if (err == MMCHAL_ENOMEM || err == MMCHAL_ERANGE) {
		/* no IOVA space for it below the engine's address bits (ERANGE: a
		   segment needs more pages than the aperture holds, passed up from
		   mmchal_iova_alloc()): nothing may stay mapped */
		if (f->n != 0)
			bad = 41;
		goto out;
	}
	if (err != 0) {
		bad = 42;
		goto out;
	}
	if (f->bad) {
		bad = 43;
		goto out;
	}
	if (merged && (segs[0].len != r->data->blksz * r->data->blocks ||
		       (segs[0].addr & (f->caps.page_size - 1u)) !=
			       (r->sg[0].phys & (f->caps.page_size - 1u)))) {
		bad = 44;
		goto out;
	}
	for (uint32_t i = 0; !merged && i < r->nsg; i++) {
		if (segs[i].len != r->sg[i].len) {
			bad = 45;
			goto out;
		}
	}
	if (!translates(f, r->sg, r->nsg, segs, merged, prot)) {
		bad = 46;
		goto out;
	}
	if (mmchal_dma_check_mapped(c, segs, merged ? 1u : r->nsg, merged, NULL) !=
	    ref_engine_takes(c, segs, merged ? 1u : r->nsg, merged)) {
		bad = 47;
		goto out;
	}
	if (mmchal_iommu_unmap(&dom, &map) != 0 || f->n != 0 || f->bad) {
		bad = 48;
		goto out;
	}
	if (mmchal_iommu_domain_get_stats(&dom, &st) != 0 || st.pages_mapped != 0)
		bad = 49;
out:
	free(segs);
	free(node_mem);
	free(f);
	return bad;
}

static int check_plan(struct run *r, const struct mmchal_req_check_info *info)
{
	const struct mmchal_dma_dir_caps *c = &r->env.dma->dir[r->data->dir];
	struct mmchal_plan_result p1, p2;
	uint64_t total = (uint64_t)r->data->blksz * r->data->blocks, mt, ms;
	bool noncoherent = r->env.cache_line != 0 && !c->coherent;
	bool iommu = r->env.iommu && r->env.iommu->present;
	int e1, e2;

	memset(&p1, 0xa5, sizeof(p1));
	memset(&p2, 0xa5, sizeof(p2));
	e1 = mmchal_dma_plan_sum(&r->env, r->data, &info->sum, &p1);
	e2 = mmchal_dma_plan(&r->env, r->data, &p2);
	if (!inputs_intact(r))
		return 20;
	if (e1 != e2 || (e1 == 0 && (p1.plan != p2.plan || p1.reason != p2.reason ||
				     p1.nobounce != p2.nobounce || p1.merge != p2.merge ||
				     p1.index != p2.index || p1.iommu != p2.iommu)))
		return 21;
	if (e1 != 0)
		return e1 == MMCHAL_EINVAL && !all_cpu(r) ? 0 : 22;
	if ((p1.plan == MMCHAL_PLAN_PIO || p1.plan == MMCHAL_PLAN_BOUNCED) && !all_cpu(r))
		return 23;
	if (r->env.dma->kind == MMCHAL_DMA_NONE && p1.plan != MMCHAL_PLAN_PIO)
		return 24;
	if (p1.iommu !=
	    (iommu && (p1.plan == MMCHAL_PLAN_DIRECT || p1.plan == MMCHAL_PLAN_IOMMU_MERGED)))
		return 25;
	if (p1.plan == MMCHAL_PLAN_DIRECT || p1.plan == MMCHAL_PLAN_IOMMU_MERGED) {
		if ((c->min_len != 0 && total < c->min_len) ||
		    (c->max_xfer != 0 && total > c->max_xfer))
			return 26;
		if (noncoherent && !all_cpu(r))
			return 27;
		if (noncoherent && r->data->dir == MMCHAL_DIR_FROM_CARD &&
		    shares_line(r, r->env.cache_line))
			return 28;
	}
	if (p1.plan == MMCHAL_PLAN_DIRECT) {
		uint32_t segs = c->max_segs < r->env.seg_table ? c->max_segs : r->env.seg_table;

		if (r->nsg > segs)
			return 29;
		for (uint32_t i = 0; i < r->nsg; i++) {
			const struct mmchal_sg *s = &r->sg[i];
			struct mmchal_dma_seg one = {s->phys, s->len};

			if (iommu) {
				/* the page offset survives the mapping: alignment, granule
				   and size are known now, the rest after mapping */
				if ((c->addr_align > 1u && s->phys % c->addr_align) ||
				    (c->len_granule > 1u && s->len % c->len_granule) ||
				    s->len > c->max_seg_size)
					return 30;
			} else if (!ref_engine_takes(c, &one, 1, false)) {
				return 31;
			}
		}
		if (iommu)
			return check_mapping(r, false);
	}
	if (p1.plan == MMCHAL_PLAN_IOMMU_MERGED) {
		if (!iommu || !r->env.merge ||
		    ref_merge(r->sg, r->nsg, r->env.iommu, r->env.card, &mt, &ms) !=
			    MMCHAL_MERGE_OK)
			return 32;
		return check_mapping(r, true);
	}
	if (p1.plan == MMCHAL_PLAN_BOUNCED) {
		if (r->env.bounce_limit == 0 || total > r->env.bounce_limit ||
		    total > c->max_seg_size || (c->len_granule > 1u && total % c->len_granule))
			return 33;
	}
	if (p1.plan >= MMCHAL_PLAN_COUNT || p1.reason >= MMCHAL_PR_COUNT ||
	    p1.nobounce >= MMCHAL_NB_COUNT)
		return 34;
	return 0;
}

static int check_merge_policy(struct run *r)
{
	struct mmchal_iommu_caps caps = {0};
	struct mmchal_merge_info mi;
	enum mmchal_merge_reason got, want;
	uint64_t total, span;

	if (r->env.iommu)
		caps = *r->env.iommu;
	memset(&mi, 0xa5, sizeof(mi));
	got = mmchal_merge_check(r->sg, r->nsg, &caps, r->env.card, &mi);
	want = ref_merge(r->sg, r->nsg, &caps, r->env.card, &total, &span);
	if (!inputs_intact(r))
		return 50;
	if (got != want || mi.reason != got)
		return 51;
	if (got == MMCHAL_MERGE_OK && (mi.total != total || mi.map_size != span))
		return 52;
	return 0;
}

static int check_mapped_ref(struct run *r, struct bytes *b)
{
	struct mmchal_dma_seg *s = malloc(r->nsg * sizeof(*s));
	const struct mmchal_dma_dir_caps *c = &r->lc.caps.dma.dir[rd(b, 1) & 1u];
	bool merged = rd(b, 1) % 4u == 0;
	uint32_t n = merged ? 1u : r->nsg;
	int bad = 0;

	if (!s)
		abort();
	for (uint32_t i = 0; i < r->nsg; i++)
		s[i] = (struct mmchal_dma_seg){r->sg[i].phys, r->sg[i].len};
	if (mmchal_dma_check_mapped(c, s, n, merged, NULL) != ref_engine_takes(c, s, n, merged))
		bad = 60;
	free(s);
	return bad;
}

static int run_one(struct run *r, struct bytes *b)
{
	static const uint32_t lines[] = {0, 0, 32, 64, 128};
	struct mmchal_req_check_info info;
	enum mmchal_req_check want;
	uint32_t want_index, opcode;
	uint64_t total = 0;
	int err;

	/* 1. capabilities and limits, as mmchal_host_init() derives them */
	limits_gen(next_byte, b, &r->lc);
	if (mmchal_limits_derive(&r->lc.caps, &r->lc.port, &r->lc.cfg, r->lc.card, &r->lim) != 0)
		return 0;
	if (rd(b, 1) % 4u == 0)
		perturb_limits(b, &r->lim);
	r->lim0 = r->lim;

	/* 2. the planner's view of the host (mmchal_host_plan_env_()) */
	r->env.dma = &r->lc.caps.dma;
	r->env.iommu = r->lc.caps.iommu.present ? &r->lc.caps.iommu : NULL;
	r->env.merge = r->lim.merge;
	r->env.card = r->lim.card;
	r->env.bounce_limit = r->lim.bounce_limit;
	if (r->env.bounce_limit == 0 && r->lc.caps.bounce.present)
		r->env.bounce_limit =
			(uint64_t)(r->lc.caps.bounce.slot_size ? r->lc.caps.bounce.slot_size
							       : 2048u) *
			(r->lc.caps.bounce.slots_per_map ? r->lc.caps.bounce.slots_per_map : 128u);
	r->env.cache_line = lines[rd(b, 1) % 5u];
	r->env.seg_table = rd(b, 1) % 2u ? MAX_SG : (uint32_t)(1u + rd(b, 1) % MAX_SG);

	/* 3. the list */
	r->nsg = (uint32_t)(1u + rd(b, 1) % MAX_SG);
	r->sg = calloc(r->nsg, sizeof(*r->sg)); /* padding zeroed: compared with memcmp */
	if (!r->sg)
		abort();
	for (uint32_t i = 0; i < r->nsg; i++) {
		struct mmchal_sg *s = &r->sg[i];

		s->phys = gen_phys(b, i ? &r->sg[i - 1u] : NULL);
		s->len = gen_len(b, s->phys);
		s->cpu = gen_cpu(b, s->phys);
		total += s->len;
	}

	/* 4. the data phase and the commands */
	r->data = calloc(1, sizeof(*r->data));
	r->cmd = calloc(1, sizeof(*r->cmd));
	r->req = calloc(1, sizeof(*r->req));
	if (!r->data || !r->cmd || !r->req)
		abort();
	r->data->dir = (enum mmchal_dir)(rd(b, 1) % 17u == 0 ? 2u : rd(b, 1) & 1u);
	switch (rd(b, 1) % 4u) {
	case 0:
		r->data->blksz = 512;
		break;
	case 1:
		r->data->blksz = 1;
		break;
	case 2:
		r->data->blksz = (uint32_t)rd(b, 2);
		break;
	default:
		r->data->blksz = total <= UINT32_MAX ? (uint32_t)total : 512u;
		break;
	}
	r->data->blocks = r->data->blksz ? (uint32_t)(total / r->data->blksz) : 0;
	if (rd(b, 1) % 8u == 0)
		r->data->blocks = (uint32_t)rd(b, 4);
	r->data->sg = rd(b, 1) % 32u == 0 ? NULL : r->sg;
	r->data->sg_len = r->nsg;
	opcode = r->data->dir == MMCHAL_DIR_TO_CARD ? 25u : 18u;
	*r->cmd = (struct mmchal_cmd){
		.opcode = opcode, .arg = (uint32_t)rd(b, 4), .flags = MMCHAL_RSP_R1};
	if (rd(b, 1) % 16u == 0) {
		r->cmd->opcode = (uint32_t)rd(b, 1);
		r->cmd->flags = (uint32_t)rd(b, 1) & 0x3fu;
	}
	if (rd(b, 1) & 1u) {
		r->sbc = calloc(1, sizeof(*r->sbc));
		if (!r->sbc)
			abort();
		*r->sbc = (struct mmchal_cmd){
			.opcode = 23, .arg = r->data->blocks & 0xffffu, .flags = MMCHAL_RSP_R1};
		if (rd(b, 1) % 8u == 0)
			r->sbc->arg = (uint32_t)rd(b, 4);
	}
	if (rd(b, 1) % 4u == 0) {
		r->stop = calloc(1, sizeof(*r->stop));
		if (!r->stop)
			abort();
		*r->stop = (struct mmchal_cmd){.opcode = 12, .flags = MMCHAL_RSP_R1B};
	}
	r->req->sbc = r->sbc;
	r->req->cmd = r->cmd;
	r->req->data = rd(b, 1) % 32u == 0 ? NULL : r->data;
	r->req->stop = r->stop;
	r->req0 = *r->req;
	r->cmd0 = *r->cmd;
	if (r->sbc)
		r->sbc0 = *r->sbc;
	if (r->stop)
		r->stop0 = *r->stop;
	r->data0 = *r->data;
	memcpy(r->sg0, r->sg, r->nsg * sizeof(r->sg[0]));

	/* 5. validation against the reference */
	memset(&info, 0xa5, sizeof(info));
	err = mmchal_request_check(r->req, &r->lim, &info);
	want = ref_check(r->req, &r->lim, &want_index);
	if (!inputs_intact(r))
		return 1;
	if ((err == 0) != (want == MMCHAL_REQ_OK) || (err != 0 && err != MMCHAL_EINVAL))
		return 2;
	if (info.why != want || info.index != want_index)
		return 3;
	if (err == 0 && r->req->data) {
		const struct mmchal_data *d = r->req->data;
		uint64_t por = 0, land = UINT64_MAX, cor = 0;
		uint32_t l1or = 0;

		/* the accepted request fits the limits */
		if (d->blksz > r->lim.max_blk_size || d->blocks > r->lim.max_blk_count ||
		    (uint64_t)d->blksz * d->blocks > r->lim.max_req_size ||
		    d->sg_len > r->lim.max_segs)
			return 4;
		for (uint32_t i = 0; i < d->sg_len; i++) {
			const struct mmchal_sg *s = &d->sg[i];
			uint64_t last = s->phys + s->len - 1u;

			if (s->len == 0 || s->len > r->lim.max_seg_size ||
			    crosses(s->phys, s->len, r->lim.seg_boundary))
				return 5;
			por |= s->phys;
			land &= last;
			cor |= s->phys ^ last;
			l1or |= s->len - 1u;
		}
		/* the summary the planner relies on is sound: it may say "maybe" (a
		   bit set in an OR, clear in the AND) where the list is fine, never
		   the reverse, so that the planner looks at the entries whenever one
		   could stand in the way */
		if (!info.sum.valid || (info.sum.phys_or & por) != por ||
		    (info.sum.last_and & ~land) != 0 || (info.sum.cross_or & cor) != cor ||
		    (info.sum.len1_or & l1or) != l1or)
			return 6;
	}

	/* 6. the merge policy and the post-mapping check, on any list */
	if ((err = check_merge_policy(r)) != 0)
		return err;
	if ((err = check_mapped_ref(r, b)) != 0)
		return err;

	/* 7. the planner, on what validation accepted */
	if (mmchal_request_check(r->req, &r->lim, &info) == 0 && r->req->data)
		return check_plan(r, &info);
	return 0;
}

int fuzz_request_run(const uint8_t *data, size_t size)
{
	struct bytes b = {data, size};
	struct run *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		abort();
	rc = run_one(r, &b);
	free(r->sg);
	free(r->data);
	free(r->cmd);
	free(r->sbc);
	free(r->stop);
	free(r->req);
	free(r);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_request_run(data, size) != 0)
		abort();
	return 0;
}
