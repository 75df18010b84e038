/**
 * @file
 * @brief Limits derivation (DESIGN.md section 4): capabilities + card type ->
 *        transfer limits and completion policy, each with its reason.
 *
 * Pure: no hardware, no port calls, no allocation. Locking: none; any context.
 *
 * A library built without the IOMMU layer, the bounce pool or the interrupt
 * path (config.h) refuses capabilities that name the unit it lacks and
 * leaves out the rules that only such a unit triggers; every value it does
 * derive is the one the full build derives from the same capabilities.
 *
 * Sources of the rules: Linux tmio_mmc_core.c (default 32 segments, 512-byte
 * blocks, the swiotlb clamp of max_req_size and its removal behind an IOMMU),
 * renesas_sdhi_core.c (the merge raise in init_card for SD and MMC cards
 * only), drivers/mmc/core/queue.c (MMC_CAP2_MERGE_CAPABLE, a non-zero DMA
 * merge boundary, virt_boundary = boundary, 512 segments).
 */
#include <mmchal/config.h>
#include <mmchal/limits.h>
#include <mmchal/error.h>

#include <limits.h>

#include "core/hints.h"
#include "core/mem.h"

/* Defaults of struct mmchal_policy_cfg (estimates; documented there). */
#define IRQ_OFF_BUDGET_NS_DEFAULT 20000u
#define IRQ_BUDGET_NS_DEFAULT     100000u
#define BASE_NS_DEFAULT           2000u
#define UNMAP_NS_PER_PAGE_DEFAULT 100u
#define FLUSH_NS_DEFAULT          2000u
#define COPY_NS_PER_KIB_DEFAULT   500u

/* SD_SIZE is a 16-bit register; no larger block can be described. */
#define MAX_BLK_SIZE_LIMIT 65535u

struct engine_summary {
	uint32_t segs;     /* segments chained, strictest direction */
	uint32_t seg_size; /* largest segment */
	uint32_t align;    /* start alignment, 1 = none */
	uint64_t boundary; /* boundary mask, 0 = none */
	uint64_t xfer;     /* largest transfer without merging */
};

/* Alignments, granules, page and slot sizes are 32 bits wide. */
static bool is_pow2_or_zero(uint32_t v)
{
	return (v & (v - 1u)) == 0;
}

/* A boundary mask is 2^k - 1 (or 0 for none). */
static bool is_mask(uint64_t m)
{
	return (m & (m + 1u)) == 0;
}

/* Out of line: each is called several times with 64-bit operands. */
static CORE_NOINLINE_ uint64_t sat_add(uint64_t a, uint64_t b)
{
	return (a > UINT64_MAX - b) ? UINT64_MAX : a + b;
}

/* Only the unmap and copy-back costs of completion multiply and divide. */
#if MMCHAL_WITH_IOMMU || MMCHAL_WITH_BOUNCE
static CORE_NOINLINE_ uint64_t sat_mul(uint64_t a, uint64_t b)
{
	if (a != 0 && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

static CORE_NOINLINE_ uint64_t div_round_up(uint64_t a, uint64_t b)
{
	return a / b + ((a % b) != 0);
}
#endif

static int check_dir_caps(const struct mmchal_dma_dir_caps *d)
{
	if (d->max_segs == 0 || d->max_seg_size == 0 || d->addr_bits > 64)
		return MMCHAL_EINVAL;
	if (!is_pow2_or_zero(d->addr_align) || !is_pow2_or_zero(d->len_granule))
		return MMCHAL_EINVAL;
	if (!is_mask(d->seg_boundary))
		return MMCHAL_EINVAL;
	return 0;
}

static int check_caps(const struct mmchal_caps *caps, enum mmchal_card_type card)
{
	const struct mmchal_host_caps *h = &caps->host;
	const struct mmchal_iommu_caps *io = &caps->iommu;
	const struct mmchal_bounce_caps *b = &caps->bounce;
	int ret;

	if ((unsigned int)card > (unsigned int)MMCHAL_CARD_SD_COMBO)
		return MMCHAL_EINVAL;
	if (h->blk_count_bits != 0 && h->blk_count_bits != 16 && h->blk_count_bits != 32)
		return MMCHAL_EINVAL;
	if (h->max_blk_size > MAX_BLK_SIZE_LIMIT)
		return MMCHAL_EINVAL;
	if ((unsigned int)h->completion > (unsigned int)MMCHAL_COMPLETES_POLLED)
		return MMCHAL_EINVAL;

	switch (caps->dma.kind) {
	case MMCHAL_DMA_NONE:
		break;
	case MMCHAL_DMA_INTERNAL:
	case MMCHAL_DMA_EXTERNAL:
		for (unsigned int i = 0; i < MMCHAL_DIR_COUNT; i++) {
			ret = check_dir_caps(&caps->dma.dir[i]);
			if (ret)
				return ret;
		}
		break;
	default:
		return MMCHAL_EINVAL;
	}

	if (io->present) {
#if MMCHAL_WITH_IOMMU
		if (io->page_size == 0 || !is_pow2_or_zero(io->page_size))
			return MMCHAL_EINVAL;
		if (io->merge_boundary != 0 && io->merge_boundary != (uint64_t)io->page_size - 1u)
			return MMCHAL_EINVAL;
		if (io->aperture_end != 0 && io->aperture_end < io->aperture_start)
			return MMCHAL_EINVAL;
#else
		/* no IOMMU layer to map through one (config.h) */
		return MMCHAL_ENOTSUP;
#endif
	} else if ((io->page_size | io->merge_boundary | io->max_map_size | io->aperture_start |
		    io->aperture_end) != 0) {
		/* Fields of an absent unit: a caller mixed up two configurations. */
		return MMCHAL_EINVAL;
	}

	if (b->present) {
#if MMCHAL_WITH_BOUNCE
		if (!is_pow2_or_zero(b->slot_size))
			return MMCHAL_EINVAL;
#else
		/* no bounce pool to copy through (config.h) */
		return MMCHAL_ENOTSUP;
#endif
	} else if ((b->slot_size | b->slots_per_map | b->nslots) != 0) {
		return MMCHAL_EINVAL;
	}
	return 0;
}

/* Out of line: the derivation that inlines the rest keeps its registers. */
static CORE_NOINLINE_ void summarise_engine(const struct mmchal_dma_caps *dma,
					    struct engine_summary *e)
{
	e->segs = UINT32_MAX;
	e->seg_size = UINT32_MAX;
	e->align = 1;
	e->boundary = 0;
	e->xfer = UINT64_MAX;
	for (unsigned int i = 0; i < MMCHAL_DIR_COUNT; i++) {
		const struct mmchal_dma_dir_caps *d = &dma->dir[i];
		/* two 32-bit factors: the product cannot overflow */
		uint64_t xfer = d->max_xfer ? d->max_xfer : (uint64_t)d->max_segs * d->max_seg_size;

		if (d->max_segs < e->segs)
			e->segs = d->max_segs;
		if (d->max_seg_size < e->seg_size)
			e->seg_size = d->max_seg_size;
		if (d->addr_align > e->align)
			e->align = d->addr_align;
		/* The smaller mask is the stricter boundary. */
		if (d->seg_boundary != 0 && (e->boundary == 0 || d->seg_boundary < e->boundary))
			e->boundary = d->seg_boundary;
		if (xfer < e->xfer)
			e->xfer = xfer;
	}
}

static void set(struct mmchal_limits *l, enum mmchal_limit_field f, enum mmchal_limit_reason r,
		uint64_t cause)
{
	l->reason[f] = r;
	l->cause[f] = cause;
}

#if MMCHAL_WITH_IOMMU
/* Rule 3 for a merge-capable host with a DMA engine: what the IOMMU and the
 * card allow, in the order the reasons are reported. */
static enum mmchal_limit_reason merge_reason(const struct mmchal_iommu_caps *io,
					     enum mmchal_card_type card)
{
	if (!io->present)
		return MMCHAL_WHY_MERGE_NO_IOMMU;
	if (io->merge_boundary == 0)
		return MMCHAL_WHY_MERGE_IOMMU_CANNOT;
	/* SDIO buffers (~1500-byte network frames) are neither page sized nor
	 * page aligned, so they could never be merged (seed thread 004). */
	if (card == MMCHAL_CARD_SDIO || card == MMCHAL_CARD_SD_COMBO)
		return MMCHAL_WHY_MERGE_CARD_SDIO;
	if (card == MMCHAL_CARD_UNKNOWN)
		return MMCHAL_WHY_MERGE_CARD_UNKNOWN;
	return MMCHAL_WHY_MERGE_RAISED;
}
#else
/* Without the IOMMU layer check_caps() refused an IOMMU: there is none. */
static enum mmchal_limit_reason merge_reason(const struct mmchal_iommu_caps *io,
					     enum mmchal_card_type card)
{
	(void)io;
	(void)card;
	return MMCHAL_WHY_MERGE_NO_IOMMU;
}
#endif

/* Rules 1-3: segment count and the merge raise. */
static void derive_segments(const struct mmchal_caps *caps, enum mmchal_card_type card,
			    const struct engine_summary *eng, struct mmchal_limits *l)
{
	bool dma = caps->dma.kind != MMCHAL_DMA_NONE;
	enum mmchal_limit_reason why;
	uint32_t cause;

	l->max_segs = MMCHAL_DEFAULT_MAX_SEGS;
	if (!dma) {
		why = MMCHAL_WHY_PIO_NO_ENGINE;
	} else if (eng->segs < l->max_segs) {
		l->max_segs = eng->segs;
		why = MMCHAL_WHY_ENGINE_SEGS;
	} else {
		why = MMCHAL_WHY_DEFAULT;
	}
	set(l, MMCHAL_LIM_MAX_SEGS, why, l->max_segs);

	if (!dma)
		why = MMCHAL_WHY_MERGE_NO_DMA;
	else if (!caps->host.merge_capable)
		why = MMCHAL_WHY_MERGE_NOT_CAPABLE;
	else
		why = merge_reason(&caps->iommu, card);

	/* the raise names the IOMMU page, a refusal the segment count it keeps */
	cause = l->max_segs;
#if MMCHAL_WITH_IOMMU
	if (why == MMCHAL_WHY_MERGE_RAISED) {
		l->merge = true;
		l->max_segs = MMCHAL_MERGE_MAX_SEGS;
		l->virt_boundary = caps->iommu.merge_boundary;
		cause = caps->iommu.page_size;
		set(l, MMCHAL_LIM_MAX_SEGS, why, cause);
	}
#endif
	set(l, MMCHAL_LIM_MERGE, why, cause);
	set(l, MMCHAL_LIM_VIRT_BOUNDARY, why, cause);
}

#if MMCHAL_WITH_BOUNCE
/* Rule 4's bounce limit, which clamps the request size: only where bouncing
 * can happen, i.e. a DMA engine, a pool and no IOMMU (behind one, any buffer
 * can be made reachable). */
static void derive_bounce(const struct mmchal_caps *caps, uint64_t *req,
			  enum mmchal_limit_reason *req_why, struct mmchal_limits *l)
{
	const struct mmchal_bounce_caps *b = &caps->bounce;
	enum mmchal_limit_reason why;

	if (!b->present) {
		why = MMCHAL_WHY_BOUNCE_NO_POOL;
	} else if (caps->dma.kind == MMCHAL_DMA_NONE) {
		why = MMCHAL_WHY_BOUNCE_PIO;
	} else if (MMCHAL_WITH_IOMMU && caps->iommu.present) {
		why = MMCHAL_WHY_BOUNCE_IOMMU;
	} else {
		uint32_t slot = b->slot_size ? b->slot_size : MMCHAL_BOUNCE_SLOT_SIZE_DEFAULT;
		uint32_t per = b->slots_per_map ? b->slots_per_map
						: MMCHAL_BOUNCE_SLOTS_PER_MAP_DEFAULT;

		if (b->nslots != 0 && b->nslots < per)
			per = b->nslots;
		l->bounce_limit = (uint64_t)slot * per;
		why = MMCHAL_WHY_BOUNCE_POOL;
		if (l->bounce_limit < *req) {
			*req = l->bounce_limit;
			*req_why = MMCHAL_WHY_BOUNCE_CLAMP;
		}
	}
	set(l, MMCHAL_LIM_BOUNCE_LIMIT, why, l->bounce_limit);
}
#endif

#if MMCHAL_WITH_IOMMU
/* Rule 4's IOMMU clamp: a request is mapped whole behind the IOMMU. */
static void clamp_to_iommu(const struct mmchal_iommu_caps *io, uint64_t *req,
			   enum mmchal_limit_reason *req_why)
{
	uint64_t map = io->max_map_size;

	if (map == 0 && io->aperture_end != 0)
		map = sat_add(io->aperture_end - io->aperture_start, 1);
	if (map != 0 && map < *req) {
		*req = map;
		*req_why = MMCHAL_WHY_IOMMU_MAP_LIMIT;
	}
}
#endif

/* Rules 4-6: request size, block count, segment size, boundaries. The limits
 * start zeroed (mmchal_limits_derive()). */
static int derive_sizes(const struct mmchal_caps *caps, const struct engine_summary *eng,
			struct mmchal_limits *l)
{
	const struct mmchal_host_caps *h = &caps->host;
	bool dma = caps->dma.kind != MMCHAL_DMA_NONE;
	enum mmchal_limit_reason why, req_why, blk_why;
	uint32_t hw_blk, blk_size;
	uint64_t req, blk_cause;

	if (h->max_blk_size) {
		blk_size = h->max_blk_size;
		why = MMCHAL_WHY_HOST_DECLARED;
	} else {
		blk_size = MMCHAL_MAX_BLK_SIZE_DEFAULT;
		why = MMCHAL_WHY_DEFAULT;
	}
	l->max_blk_size = blk_size;
	set(l, MMCHAL_LIM_MAX_BLK_SIZE, why, blk_size);

	/* Block counter: 16 bits unless the controller has the 32-bit one
	 * (SDHI VERSION >= 0xcb0d, REFERENCE.md). */
	blk_why = MMCHAL_WHY_BLK_COUNTER;
	if (h->blk_count_bits == 32) {
		hw_blk = UINT32_MAX;
		blk_cause = 32;
	} else {
		hw_blk = UINT16_MAX;
		blk_cause = 16;
	}
	if (h->max_blk_count != 0 && h->max_blk_count < hw_blk) {
		hw_blk = h->max_blk_count;
		blk_why = MMCHAL_WHY_SOC_BLK_COUNT;
		blk_cause = hw_blk;
	}

	req = (uint64_t)blk_size * hw_blk;
	req_why = MMCHAL_WHY_BLK_PRODUCT;

#if MMCHAL_WITH_BOUNCE
	derive_bounce(caps, &req, &req_why, l);
#else
	/* check_caps() refused a pool (config.h): there is none */
	set(l, MMCHAL_LIM_BOUNCE_LIMIT, MMCHAL_WHY_BOUNCE_NO_POOL, 0);
#endif
#if MMCHAL_WITH_IOMMU
	if (dma && caps->iommu.present)
		clamp_to_iommu(&caps->iommu, &req, &req_why);
#endif

	if (dma) {
		/* A merged request reaches the engine as one segment (only the
		 * merge raise sets merge, config.h). */
		uint64_t xfer = MMCHAL_WITH_IOMMU && l->merge
					? (eng->seg_size < eng->xfer ? eng->seg_size : eng->xfer)
					: eng->xfer;

		if (xfer < req) {
			req = xfer;
			req_why = MMCHAL_WHY_ENGINE_XFER;
		}
	}

	if (req < blk_size)
		return MMCHAL_EINVAL;
	l->max_req_size = req;
	set(l, MMCHAL_LIM_MAX_REQ_SIZE, req_why, req);

	l->max_blk_count = hw_blk;
	if ((uint64_t)hw_blk * blk_size > req) {
		l->max_blk_count = (uint32_t)(req / blk_size);
		blk_why = MMCHAL_WHY_FIT_REQ_SIZE;
		blk_cause = req;
	}
	set(l, MMCHAL_LIM_MAX_BLK_COUNT, blk_why, blk_cause);

	if (dma && eng->seg_size <= req) {
		l->max_seg_size = eng->seg_size;
		set(l, MMCHAL_LIM_MAX_SEG_SIZE, MMCHAL_WHY_ENGINE_SEG_SIZE, eng->seg_size);
	} else {
		l->max_seg_size = req > UINT32_MAX ? UINT32_MAX : (uint32_t)req;
		set(l, MMCHAL_LIM_MAX_SEG_SIZE, MMCHAL_WHY_FIT_REQ_SIZE, req);
	}

	/* the limits start zeroed: no boundary, cause 0, unless the engine has one */
	l->reason[MMCHAL_LIM_SEG_BOUNDARY] = MMCHAL_WHY_NONE;
	if (dma && eng->boundary != 0) {
		l->seg_boundary = eng->boundary;
		set(l, MMCHAL_LIM_SEG_BOUNDARY, MMCHAL_WHY_ENGINE_BOUNDARY,
		    sat_add(eng->boundary, 1));
	}

	if (dma && eng->align > 1) {
		l->dma_align = eng->align;
		why = MMCHAL_WHY_ENGINE_ALIGN;
	} else {
		l->dma_align = 1;
		why = MMCHAL_WHY_NONE;
	}
	set(l, MMCHAL_LIM_DMA_ALIGN, why, l->dma_align);
	return 0;
}

#if MMCHAL_WITH_IRQ
static bool policy_runnable(enum mmchal_completion_policy p, const struct mmchal_caps *caps,
			    const struct mmchal_port_caps *port)
{
	bool irq = caps->host.completion == MMCHAL_COMPLETES_IN_IRQ && port->lock;

	switch (p) {
	case MMCHAL_POLICY_POLLED:
		return true;
	case MMCHAL_POLICY_IRQ_LOCKED:
	case MMCHAL_POLICY_IRQ_SPLIT:
		return irq;
	case MMCHAL_POLICY_DEFERRED:
		return irq && port->deferred_work;
	default:
		return false;
	}
}

/* Rule 7 for a host that completes in its interrupt handler: the policy
 * whose worst-case hold fits the budgets. */
static enum mmchal_limit_reason irq_policy(const struct mmchal_port_caps *port,
					   const struct mmchal_policy_cfg *cfg, uint64_t work,
					   uint64_t extra, enum mmchal_completion_policy *policy)
{
	uint32_t off_budget = cfg->irq_off_budget_ns ? cfg->irq_off_budget_ns
						     : IRQ_OFF_BUDGET_NS_DEFAULT;
	uint32_t irq_budget = cfg->irq_budget_ns ? cfg->irq_budget_ns : IRQ_BUDGET_NS_DEFAULT;

	if (!port->lock) {
		*policy = MMCHAL_POLICY_POLLED;
		return MMCHAL_WHY_POLICY_NO_LOCK;
	}
	if (work <= off_budget) {
		/* Completing under the lock is the fastest path (seed 002: 18.86
		 * vs 16.70 MB/s) and is fair as long as the hold stays short. */
		*policy = MMCHAL_POLICY_IRQ_LOCKED;
		return extra == 0 ? MMCHAL_WHY_POLICY_NO_WORK : MMCHAL_WHY_POLICY_IRQ_OFF_OK;
	}
	if (work <= irq_budget) {
		*policy = MMCHAL_POLICY_IRQ_SPLIT;
		return MMCHAL_WHY_POLICY_IRQ_OK;
	}
	if (port->deferred_work) {
		*policy = MMCHAL_POLICY_DEFERRED;
		return MMCHAL_WHY_POLICY_TOO_MUCH;
	}
	*policy = MMCHAL_POLICY_IRQ_SPLIT;
	return MMCHAL_WHY_POLICY_NO_DEFER;
}
#else
/* Without the interrupt path (config.h) only a polled completion runs. */
static bool policy_runnable(enum mmchal_completion_policy p, const struct mmchal_caps *caps,
			    const struct mmchal_port_caps *port)
{
	(void)caps;
	(void)port;
	return p == MMCHAL_POLICY_POLLED;
}

/* An interrupt-driven host in a library without the interrupt path: polled. */
static enum mmchal_limit_reason irq_policy(const struct mmchal_port_caps *port,
					   const struct mmchal_policy_cfg *cfg, uint64_t work,
					   uint64_t extra, enum mmchal_completion_policy *policy)
{
	(void)port;
	(void)cfg;
	(void)work;
	(void)extra;
	*policy = MMCHAL_POLICY_POLLED;
	return MMCHAL_WHY_POLICY_NO_IRQ_PATH;
}
#endif

/* Rule 7: the completion locking policy, from the worst-case work. The
 * estimate is made in every build: without the IOMMU layer and the bounce
 * pool it is the fixed cost alone. */
static int derive_policy(const struct mmchal_caps *caps, const struct mmchal_port_caps *port,
			 const struct mmchal_policy_cfg *cfg, struct mmchal_limits *l)
{
	const struct mmchal_policy_cfg defaults = {0};
	uint64_t work, extra = 0;
	enum mmchal_completion_policy policy;
	enum mmchal_limit_reason why;

	if (!cfg)
		cfg = &defaults;
#if MMCHAL_WITH_IOMMU
	if (caps->dma.kind != MMCHAL_DMA_NONE && caps->iommu.present) {
		/* Every page of the largest request, plus a partial page at each
		 * end of every separately mapped segment. max_req_size is below
		 * 2^48 (at most max_blk_size x a 32-bit block count): the sum
		 * cannot overflow. */
		uint32_t unmap_ns = cfg->unmap_ns_per_page ? cfg->unmap_ns_per_page
							   : UNMAP_NS_PER_PAGE_DEFAULT;
		uint32_t flush_ns = cfg->flush_ns ? cfg->flush_ns : FLUSH_NS_DEFAULT;
		uint64_t pages = div_round_up(l->max_req_size, caps->iommu.page_size);

		pages += l->merge ? 1u : l->max_segs;
		extra = sat_add(sat_mul(pages, unmap_ns), flush_ns);
	}
#endif
#if MMCHAL_WITH_BOUNCE
	if (l->bounce_limit != 0) {
		/* max_req_size was clamped to the bounce limit (derive_bounce()) */
		uint32_t copy_ns = cfg->copy_ns_per_kib ? cfg->copy_ns_per_kib
							: COPY_NS_PER_KIB_DEFAULT;
		uint64_t kib = div_round_up(l->max_req_size, 1024u);

		extra = sat_add(extra, sat_mul(kib, copy_ns));
	}
#endif
	work = sat_add(cfg->base_ns ? cfg->base_ns : BASE_NS_DEFAULT, extra);
	l->completion_work_ns = work;

	if ((unsigned int)cfg->override > (unsigned int)MMCHAL_POLICY_POLLED)
		return MMCHAL_EINVAL;
	if (cfg->override != MMCHAL_POLICY_AUTO) {
		if (!policy_runnable(cfg->override, caps, port))
			return MMCHAL_EINVAL;
		policy = cfg->override;
		why = MMCHAL_WHY_POLICY_OVERRIDE;
	} else if (caps->host.completion == MMCHAL_COMPLETES_POLLED) {
		policy = MMCHAL_POLICY_POLLED;
		why = MMCHAL_WHY_POLICY_NO_IRQ;
	} else {
		why = irq_policy(port, cfg, work, extra, &policy);
	}
	l->policy = policy;
	set(l, MMCHAL_LIM_POLICY, why, work);
	return 0;
}

int mmchal_limits_derive(const struct mmchal_caps *caps, const struct mmchal_port_caps *port,
			 const struct mmchal_policy_cfg *policy, enum mmchal_card_type card,
			 struct mmchal_limits *out)
{
	struct engine_summary eng; /* read only for a DMA host, which fills it */
	struct mmchal_limits l;
	int ret;

	if (!caps || !port || !out)
		return MMCHAL_EINVAL;
	ret = check_caps(caps, card);
	if (ret)
		return ret;

	memset(&l, 0, sizeof(l));
	l.card = card;
	if (caps->dma.kind != MMCHAL_DMA_NONE)
		summarise_engine(&caps->dma, &eng);

	derive_segments(caps, card, &eng, &l);
	ret = derive_sizes(caps, &eng, &l);
	if (ret)
		return ret;
	ret = derive_policy(caps, port, policy, &l);
	if (ret)
		return ret;

	*out = l;
	return 0;
}
