/**
 * @file
 * @brief Internal: the request checks' fast path, inlined where a request
 *        is validated (mmchal_request_check() and the host's request path).
 *
 * quick_ok() proves a request valid with one pass over its list and a few
 * combined range tests, or says "maybe not"; the exact checks in dma_plan.c
 * then name the first failure. Pure: any context, no lock.
 */
#ifndef MMCHAL_CORE_REQ_QUICK_H
#define MMCHAL_CORE_REQ_QUICK_H

#include <mmchal/config.h>
#include <mmchal/dma_plan.h>

#include "core/hints.h"

/* Every response flag the library knows. */
#define RSP_ALL \
	(MMCHAL_RSP_PRESENT | MMCHAL_RSP_136 | MMCHAL_RSP_CRC | MMCHAL_RSP_BUSY | MMCHAL_RSP_OPCODE)

/*
 * The mask interior list boundaries are held to: the merge raise's
 * virt_boundary (limits.h rule 3). A library without the IOMMU layer merges
 * nothing and leaves the rule out (config.h), as its limits never set one.
 */
static CORE_INLINE_ uint64_t virt_boundary_of(const struct mmchal_limits *lim)
{
#if MMCHAL_WITH_IOMMU
	return lim->virt_boundary;
#else
	(void)lim;
	return 0;
#endif
}

/*
 * One pass: the summary, and whether every per-entry check passes (false:
 * maybe not, check_sg() decides). No branch per entry: the rules are folded
 * into ORs and ANDs that the checks test once afterwards (a zero length
 * wraps to the largest len - 1 and fails the length test).
 *
 * @p lean leaves out the ends (last_and, cross_or) for a host whose limits
 * and engine have no boundary and no length granule, where nothing looks at
 * them; they then say "maybe" (last_and 0, cross_or all ones).
 */
static CORE_INLINE_ bool summarize_as(const struct mmchal_data *d, const struct mmchal_limits *lim,
				      struct mmchal_sg_summary *sum, bool lean)
{
	const struct mmchal_sg *s = d->sg, *end = d->sg + d->sg_len;
	uint64_t phys_or = 0, last_and = UINT64_MAX, cross_or = 0, total = d->sg_len;
	uint32_t len1_or = 0;
	uint64_t vb = virt_boundary_of(lim);

	for (; s != end; s++) {
		uint64_t p = s->phys;
		uint32_t len1 = s->len - 1u;

		phys_or |= p;
		len1_or |= len1;
		total += len1;
		if (!lean) {
			uint64_t last = p + len1;

			last_and &= last;
			cross_or |= p ^ last;
		}
	}
	if (lean) { /* not looked at: say "maybe" */
		last_and = 0;
		cross_or = UINT64_MAX;
	}
	sum->phys_or = phys_or;
	sum->last_and = last_and;
	sum->cross_or = cross_or;
	sum->len1_or = len1_or;
	sum->valid = false;
	/* every len - 1 below max_seg_size when their OR is (none is 0 then);
	 * an entry can wrap only from the top 4 GiB (lengths are 32 bits): if no
	 * start may lie there, none wraps; else let check_sg() look */
	if (len1_or >= lim->max_seg_size || (phys_or >> 32) == 0xffffffffu)
		return false;
	if (total != (uint64_t)d->blksz * d->blocks ||
	    (lim->seg_boundary != 0 && (cross_or & ~lim->seg_boundary) != 0))
		return false;
	/* Interior boundaries: every start and every end aligned proves it; the
	 * first start and the last end may be unaligned, check_sg() tells. */
	if (vb != 0 && ((phys_or & vb) != 0 || (last_and & vb) != vb))
		return false;
	sum->valid = true;
	return true;
}

/* The full summary (every field exact). */
static CORE_INLINE_ bool summarize(const struct mmchal_data *d, const struct mmchal_limits *lim,
				   struct mmchal_sg_summary *sum)
{
	return summarize_as(d, lim, sum, false);
}

/* Nonzero when a command's index or response flags are out of range. */
static CORE_INLINE_ uint32_t cmd_bad(const struct mmchal_cmd *c)
{
	uint32_t f = c->flags;

	/* flags beyond MMCHAL_RSP_PRESENT count only when it is set (bit 0) */
	return (c->opcode & ~63u) | (f & ~RSP_ALL) |
	       ((f & ~MMCHAL_RSP_PRESENT) & ((f & MMCHAL_RSP_PRESENT) - 1u));
}

/*
 * Every check at once, without naming a failure: true proves the request
 * valid (and fills @p sum); false means maybe not, and check_exact() names the
 * first failed check or finds none.
 */
static CORE_INLINE_ bool quick_ok_as(const struct mmchal_request *req,
				     const struct mmchal_limits *lim, struct mmchal_sg_summary *sum,
				     bool lean)
{
	const struct mmchal_data *d = req->data;
	const struct mmchal_cmd *sbc = req->sbc, *stop = req->stop;
	uint32_t bad = cmd_bad(req->cmd);
	uint64_t total;

	if (sbc)
		bad |= cmd_bad(sbc);
	if (stop)
		bad |= cmd_bad(stop);
	if (!d) {
		sum->valid = false;
		return !bad && !sbc && !stop;
	}
	total = (uint64_t)d->blksz * d->blocks;
	bad |= ((req->cmd->flags & (MMCHAL_RSP_PRESENT | MMCHAL_RSP_136 | MMCHAL_RSP_BUSY)) ^
		MMCHAL_RSP_PRESENT) |
	       ((uint32_t)d->dir & ~1u);
	/* the count in CMD23's bits 15:0 (eMMC) or in all 32 (SD), as the full check */
	if (sbc)
		bad |= ((sbc->arg & 0xffffu) ^ d->blocks) && (sbc->arg ^ d->blocks);
	/* 0 wraps to the largest value in the "- 1u" tests */
	if (bad || d->blksz - 1u >= lim->max_blk_size || d->blocks - 1u >= lim->max_blk_count ||
	    total > lim->max_req_size || total > UINT32_MAX || !d->sg ||
	    d->sg_len - 1u >= lim->max_segs)
		return false;
	return summarize_as(d, lim, sum, lean);
}

static CORE_INLINE_ bool quick_ok(const struct mmchal_request *req, const struct mmchal_limits *lim,
				  struct mmchal_sg_summary *sum)
{
	return quick_ok_as(req, lim, sum, false);
}

#endif /* MMCHAL_CORE_REQ_QUICK_H */
