/**
 * @file
 * @brief Request validation and the DMA planner (DESIGN.md section 5).
 *
 * Pure: no hardware, no port calls, no allocation. Locking: none; any
 * context. The order of the planner's steps is documented in
 * include/mmchal/dma_plan.h.
 */
#include <mmchal/config.h>
#include <mmchal/dma_plan.h>
#include <mmchal/error.h>

#include "core/dma_plan_priv.h"
#include "core/hints.h"
#include "core/req_quick.h"
#include "core/strbuf.h"
#include "core/mem.h"

static CORE_NOINLINE_ int reject(struct mmchal_req_check_info *info, enum mmchal_req_check why,
				 uint32_t index)
{
	if (info) {
		info->why = why;
		info->index = index;
		info->sum.valid = false;
	}
	return MMCHAL_EINVAL;
}

static enum mmchal_req_check check_cmd(const struct mmchal_cmd *cmd)
{
	if (cmd->opcode > 63u)
		return MMCHAL_REQ_OPCODE;
	if ((cmd->flags & ~RSP_ALL) != 0 ||
	    ((cmd->flags & ~MMCHAL_RSP_PRESENT) != 0 && !(cmd->flags & MMCHAL_RSP_PRESENT)))
		return MMCHAL_REQ_RSP_FLAGS;
	return MMCHAL_REQ_OK;
}

/* A cache line size the planner can align to: 0 (coherent) or a power of two. */
static bool line_ok(uint32_t line)
{
	return (line & (line - 1u)) == 0;
}

/* Does [first, last] cross a boundary mask (2^k - 1)? */
static bool crosses(uint64_t first, uint64_t last, uint64_t mask)
{
	return mask != 0 && ((first ^ last) & ~mask) != 0;
}

/* The summary of a list that passed the request checks (no early exit). */
static void summary_of(const struct mmchal_data *d, struct mmchal_sg_summary *sum)
{
	struct mmchal_limits open = {.max_seg_size = UINT32_MAX};

	if (!summarize(d, &open, sum)) {
		/* a start in the top 4 GiB, the sum, or a zero or wrapping entry
		 * (which the request checks refused) stopped it: make the summary
		 * say "maybe" everywhere */
		sum->phys_or = UINT64_MAX;
		sum->last_and = 0;
		sum->cross_or = UINT64_MAX;
		sum->len1_or = UINT32_MAX;
	}
	sum->valid = true;
}

/* The exact checks, entry by entry, to name the first failure. */
static int check_sg(const struct mmchal_data *d, const struct mmchal_limits *lim,
		    struct mmchal_req_check_info *info)
{
	uint64_t total = (uint64_t)d->blksz * d->blocks;
	uint64_t sum = 0;
	uint64_t vb = virt_boundary_of(lim);

	/* check_exact() has checked the list's presence and count */
	for (uint32_t i = 0; i < d->sg_len; i++) {
		const struct mmchal_sg *s = &d->sg[i];
		uint64_t last = s->phys + (s->len - 1u);

		if (s->len == 0)
			return reject(info, MMCHAL_REQ_SEG_ZERO, i);
		if (s->len > lim->max_seg_size)
			return reject(info, MMCHAL_REQ_SEG_SIZE, i);
		if (last < s->phys)
			return reject(info, MMCHAL_REQ_SEG_WRAP, i);
		if (crosses(s->phys, last, lim->seg_boundary))
			return reject(info, MMCHAL_REQ_SEG_BOUNDARY, i);
		/* Interior boundaries: every entry but the first starts on the
		 * boundary, every entry but the last ends on it (the block layer's
		 * virt_boundary rule, which the merge raise relies on); a zero
		 * mask passes every test. */
		if ((i > 0 && (s->phys & vb) != 0) ||
		    (i + 1u < d->sg_len && ((last + 1u) & vb) != 0))
			return reject(info, MMCHAL_REQ_VIRT_BOUNDARY, i);
		sum += s->len;
	}
	if (sum != total)
		return reject(info, MMCHAL_REQ_SUM, 0);
	return 0;
}

static int check_exact(const struct mmchal_request *req, const struct mmchal_limits *lim,
		       struct mmchal_req_check_info *info);

int mmchal_request_check(const struct mmchal_request *req, const struct mmchal_limits *lim,
			 struct mmchal_req_check_info *info)
{
	struct mmchal_sg_summary tmp;

	/* without the fast path (config.h) the exact checks alone, same answers;
	   a request without data has no list to summarise and takes them too */
	if (MMCHAL_FAST_PATH && req && req->cmd && req->data && lim &&
	    quick_ok(req, lim, info ? &info->sum : &tmp)) {
		if (info) {
			info->why = MMCHAL_REQ_OK;
			info->index = 0;
		}
		return 0;
	}
	return check_exact(req, lim, info);
}

/* The checks one by one, in the documented order: the first failure is named. */
static int check_exact(const struct mmchal_request *req, const struct mmchal_limits *lim,
		       struct mmchal_req_check_info *info)
{
	const struct mmchal_cmd *cmds[3];
	const struct mmchal_data *d;
	enum mmchal_req_check why;

	if (!req || !req->cmd || !lim)
		return reject(info, MMCHAL_REQ_NULL, 0);
	cmds[0] = req->sbc;
	cmds[1] = req->cmd;
	cmds[2] = req->stop;
	for (int i = 0; i < 3; i++) {
		if (cmds[i] && (why = check_cmd(cmds[i])) != MMCHAL_REQ_OK)
			return reject(info, why, 0);
	}
	d = req->data;
	if (!d) {
		if (req->sbc)
			return reject(info, MMCHAL_REQ_SBC_NO_DATA, 0);
		if (req->stop)
			return reject(info, MMCHAL_REQ_STOP_NO_DATA, 0);
		if (info) {
			info->why = MMCHAL_REQ_OK;
			info->index = 0;
			info->sum.valid = false;
		}
		return 0;
	}
	/* A data command answers R1 (R5 for SDIO CMD53): never no response, R2 or R1b. */
	if (!(req->cmd->flags & MMCHAL_RSP_PRESENT) ||
	    (req->cmd->flags & (MMCHAL_RSP_136 | MMCHAL_RSP_BUSY)) != 0)
		return reject(info, MMCHAL_REQ_DATA_CMD, 0);
	if (d->dir != MMCHAL_DIR_TO_CARD && d->dir != MMCHAL_DIR_FROM_CARD)
		return reject(info, MMCHAL_REQ_DIR, 0);
	if (d->blksz == 0 || d->blksz > lim->max_blk_size)
		return reject(info, MMCHAL_REQ_BLKSZ, 0);
	if (d->blocks == 0 || d->blocks > lim->max_blk_count)
		return reject(info, MMCHAL_REQ_BLOCKS, 0);
	/* bytes_xfered is 32 bits wide */
	if ((uint64_t)d->blksz * d->blocks > lim->max_req_size ||
	    (uint64_t)d->blksz * d->blocks > UINT32_MAX)
		return reject(info, MMCHAL_REQ_REQ_SIZE, 0);
	if (!d->sg || d->sg_len == 0)
		return reject(info, MMCHAL_REQ_NO_SG, 0);
	if (d->sg_len > lim->max_segs)
		return reject(info, MMCHAL_REQ_SEGS, 0);
	{
		struct mmchal_sg_summary tmp;
		/* summarize() writes *sum before anything reads it */
		/* cppcheck-suppress uninitvar */
		struct mmchal_sg_summary *sum = info ? &info->sum : &tmp;

		if (!summarize(d, lim, sum)) {
			/* the exact checks name the first failure, or find none */
			if (check_sg(d, lim, info) != 0)
				return MMCHAL_EINVAL;
			summary_of(d, sum);
		}
	}
	/* CMD23's block count: argument bits 15:0 on eMMC, whose upper bits are flags
	 * (JEDEC 84-B51 6.10.4), the whole argument on SD (PROTOCOL.md, SD commands):
	 * either reading must give the data's count, so that an SD request of more than
	 * 65535 blocks passes; 0 would leave the transfer open-ended. */
	if (req->sbc && (req->sbc->arg & 0xffffu) != d->blocks && req->sbc->arg != d->blocks)
		return reject(info, MMCHAL_REQ_SBC_COUNT, 0);
	if (info) {
		info->why = MMCHAL_REQ_OK;
		info->index = 0;
	}
	return 0;
}

/* ------------------------------------------------------------------ planner */

static CORE_NOINLINE_ bool all_cpu(const struct mmchal_data *d)
{
	for (uint32_t i = 0; i < d->sg_len; i++) {
		if (!d->sg[i].cpu)
			return false;
	}
	return true;
}

static uint64_t total_of(const struct mmchal_data *d)
{
	return (uint64_t)d->blksz * d->blocks;
}

static bool granule_ok(uint64_t len, uint32_t granule)
{
	return granule <= 1u || (len & (granule - 1u)) == 0;
}

/* The highest address an engine with @p bits address bits reaches (0 = 64). */
static CORE_NOINLINE_ uint64_t addr_max(uint8_t bits)
{
	return bits == 0 || bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1u;
}

/* Does any buffer start or end inside a cache line? Its neighbour owns the rest
 * of that line, and an invalidate would throw the neighbour's bytes away. */
static bool shares_line(const struct mmchal_data *d, uint32_t line, uint32_t *index)
{
	uintptr_t m = (uintptr_t)line - 1u;

	for (uint32_t i = 0; i < d->sg_len; i++) {
		uintptr_t a = (uintptr_t)d->sg[i].cpu;

		if ((a & m) != 0 || ((a + d->sg[i].len) & m) != 0) {
			*index = i;
			return true;
		}
	}
	return false;
}

/* What stops the engine from taking the caller's segments as they are. */
enum mmchal_plan_reason mmchal_dma_obstacle_(const struct mmchal_plan_env *env,
					     const struct mmchal_dma_dir_caps *c,
					     const struct mmchal_data *d, bool iommu,
					     uint32_t *index)
{
	uint32_t segs = c->max_segs < env->seg_table ? c->max_segs : env->seg_table;
	uint32_t align = c->addr_align > 1u ? c->addr_align : 1u;
	uint64_t top = addr_max(c->addr_bits);
	/* a library without the IOMMU layer maps nothing through one (config.h) */
	bool behind = MMCHAL_WITH_IOMMU && iommu;

	*index = 0;
	if (d->sg_len > segs)
		return MMCHAL_PR_SEGS;
	for (uint32_t i = 0; i < d->sg_len; i++) {
		const struct mmchal_sg *s = &d->sg[i];
		uint64_t last = s->phys + (s->len - 1u);

		*index = i;
		/* Behind the IOMMU the device address keeps the offset in the page;
		 * alignments above the page are checked after mapping. */
		if ((s->phys & (align - 1u)) != 0)
			return MMCHAL_PR_ALIGN;
		if (!granule_ok(s->len, c->len_granule))
			return MMCHAL_PR_GRANULE;
		if (s->len > c->max_seg_size)
			return MMCHAL_PR_SEG_SIZE;
		if (!behind && last > top)
			return MMCHAL_PR_ADDR_BITS;
		if (!behind && crosses(s->phys, last, c->seg_boundary))
			return MMCHAL_PR_BOUNDARY;
	}
	*index = 0;
	return MMCHAL_PR_COUNT;
}

static bool dir_ok(enum mmchal_dir dir)
{
	return dir == MMCHAL_DIR_TO_CARD || dir == MMCHAL_DIR_FROM_CARD;
}

#if MMCHAL_WITH_BOUNCE
/* Steps 6-7 for segments the engine refused: bounced when the pool and the
 * engine take the whole transfer as one segment, else (PIO) why not. */
static void bounce_or_pio(const struct mmchal_plan_env *env, const struct mmchal_data *data,
			  struct mmchal_plan_result *out)
{
	const struct mmchal_dma_dir_caps *c = &env->dma->dir[data->dir];
	uint64_t total = total_of(data);

	/* NOLINTBEGIN(bugprone-branch-clone): the pool and the engine refuse for
	   different reasons, checked in the order the reasons are reported */
	if (env->bounce_limit == 0)
		out->nobounce = MMCHAL_NB_NO_POOL;
	else if (total > env->bounce_limit)
		out->nobounce = MMCHAL_NB_TOO_LARGE;
	else if (total > c->max_seg_size || !granule_ok(total, c->len_granule) ||
		 (c->seg_boundary != 0 && total - 1u > c->seg_boundary))
		out->nobounce = MMCHAL_NB_ENGINE; /* the one bounce segment could not fit */
	else {
		out->plan = MMCHAL_PLAN_BOUNCED;
		out->nobounce = MMCHAL_NB_NONE;
	}
	/* NOLINTEND(bugprone-branch-clone) */
}
#else
/* Without the bounce pool (config.h) nothing bounces, whatever the
 * environment's bounce limit says. */
static void bounce_or_pio(const struct mmchal_plan_env *env, const struct mmchal_data *data,
			  struct mmchal_plan_result *out)
{
	(void)env;
	(void)data;
	out->nobounce = MMCHAL_NB_NO_POOL;
}
#endif

/* Bounce or PIO, both of which copy by CPU address; @c out->index and
 * @c out->merge are the caller's. */
static CORE_NOINLINE_ int fallback(const struct mmchal_plan_env *env,
				   const struct mmchal_data *data, enum mmchal_plan_reason why,
				   struct mmchal_plan_result *out)
{
	if (!all_cpu(data))
		return MMCHAL_EINVAL;
	out->reason = why;
	out->iommu = false;
	out->plan = MMCHAL_PLAN_PIO;
	if (why == MMCHAL_PR_RETRY || why == MMCHAL_PR_NO_ENGINE)
		out->nobounce = MMCHAL_NB_NONE;
	else if (why == MMCHAL_PR_MIN_LEN || why == MMCHAL_PR_XFER)
		/* the obstacle is the length, which a bounce region has too */
		out->nobounce = MMCHAL_NB_ENGINE;
	else
		bounce_or_pio(env, data, out);
	return 0;
}

int mmchal_dma_fallback_(const struct mmchal_plan_env *env, const struct mmchal_data *data,
			 enum mmchal_plan_reason why, struct mmchal_plan_result *out)
{
	out->index = 0;
	out->merge = MMCHAL_MERGE_NO_IOMMU;
	return fallback(env, data, why, out);
}

int mmchal_dma_plan_fallback(const struct mmchal_plan_env *env, const struct mmchal_data *data,
			     enum mmchal_plan_reason why, struct mmchal_plan_result *out)
{
	if (!env || !env->dma || !data || !out || (unsigned)why >= MMCHAL_PR_COUNT ||
	    !dir_ok(data->dir) || !data->sg || data->sg_len == 0 || !line_ok(env->cache_line))
		return MMCHAL_EINVAL;
	return mmchal_dma_fallback_(env, data, why, out);
}

/* Could the engine refuse some segment? (Exact answer from the summary.) */
static bool maybe_obstacle(const struct mmchal_plan_env *env, const struct mmchal_dma_dir_caps *c,
			   const struct mmchal_data *d, const struct mmchal_sg_summary *sum,
			   bool iommu)
{
	uint32_t segs = c->max_segs < env->seg_table ? c->max_segs : env->seg_table;
	uint64_t align1 = c->addr_align > 1u ? c->addr_align - 1u : 0;
	uint64_t gran1 = c->len_granule > 1u ? c->len_granule - 1u : 0;

	/* lengths are multiples of the granule when every start and end is aligned
	 * to it; otherwise mmchal_dma_obstacle_() looks at the lengths */
	if (d->sg_len > segs || (sum->phys_or & align1) != 0 ||
	    ((sum->phys_or & gran1) != 0 || (sum->last_and & gran1) != gran1) ||
	    sum->len1_or >= c->max_seg_size)
		return true;
	if (iommu)
		return false;
	/* every last byte <= phys_or + len1_or, which cannot overflow: the
	 * summary of a valid list has no start in the top 4 GiB, and a "maybe"
	 * summary stopped at len1_or above */
	return sum->phys_or + sum->len1_or > addr_max(c->addr_bits) ||
	       (c->seg_boundary != 0 && (sum->cross_or & ~c->seg_boundary) != 0);
}

int mmchal_dma_plan(const struct mmchal_plan_env *env, const struct mmchal_data *data,
		    struct mmchal_plan_result *out)
{
	return mmchal_dma_plan_sum(env, data, NULL, out);
}

int mmchal_dma_plan_sum(const struct mmchal_plan_env *env, const struct mmchal_data *data,
			const struct mmchal_sg_summary *sum, struct mmchal_plan_result *out)
{
	struct mmchal_sg_summary tmp;

	if (!env || !env->dma || !data || !out || !dir_ok(data->dir) || !data->sg ||
	    data->sg_len == 0 || env->seg_table == 0 || !line_ok(env->cache_line))
		return MMCHAL_EINVAL;
	if (!sum || !sum->valid) {
		/* No summary from mmchal_request_check(): the entries the planner
		 * relies on (non-empty, not wrapping) are checked here, or a
		 * wrapping entry would be planned as a DMA segment. */
		for (uint32_t i = 0; i < data->sg_len; i++) {
			const struct mmchal_sg *e = &data->sg[i];

			if (e->len == 0 || e->phys > UINT64_MAX - (e->len - 1u))
				return MMCHAL_EINVAL;
		}
		summary_of(data, &tmp);
		sum = &tmp;
	}
	return mmchal_dma_plan_checked_(env, data, sum, out);
}

static int plan_into(const struct mmchal_plan_env *env, const struct mmchal_data *data,
		     const struct mmchal_sg_summary *sum, struct mmchal_plan_result *out)
{
	const struct mmchal_dma_dir_caps *c;
	bool iommu, noncoherent;
	enum mmchal_plan_reason why;
	uint64_t total;
	uint32_t index = 0;

	/* a library without the IOMMU layer maps nothing through one (config.h) */
	iommu = MMCHAL_WITH_IOMMU && env->iommu && env->iommu->present;
	out->merge = iommu ? MMCHAL_MERGE_OK : MMCHAL_MERGE_NO_IOMMU;
	out->index = 0;
	if (env->dma->kind == MMCHAL_DMA_NONE)
		return fallback(env, data, MMCHAL_PR_NO_ENGINE, out);
	c = &env->dma->dir[data->dir];
	noncoherent = env->cache_line != 0 && !c->coherent;
	/* Cache maintenance goes by CPU address. */
	if (noncoherent && !all_cpu(data))
		return MMCHAL_EINVAL;
	total = total_of(data);
	if (total < c->min_len) /* 0: no minimum */
		return fallback(env, data, MMCHAL_PR_MIN_LEN, out);
	if (c->max_xfer != 0 && total > c->max_xfer)
		return fallback(env, data, MMCHAL_PR_XFER, out);
	if (noncoherent && data->dir == MMCHAL_DIR_FROM_CARD &&
	    shares_line(data, env->cache_line, &index)) {
		out->index = index;
		return fallback(env, data, MMCHAL_PR_SHARED_LINE, out);
	}
	if (iommu && env->merge) {
		struct mmchal_merge_info mi = {.reason = MMCHAL_MERGE_OK};

		out->merge = mmchal_merge_check(data->sg, data->sg_len, env->iommu, env->card, &mi);
		if (out->merge == MMCHAL_MERGE_OK) {
			out->plan = MMCHAL_PLAN_IOMMU_MERGED;
			out->reason = MMCHAL_PR_MERGED;
			out->nobounce = MMCHAL_NB_NONE;
			out->iommu = true;
			return 0;
		}
		out->index = mi.index;
	}
	why = maybe_obstacle(env, c, data, sum, iommu)
		      ? mmchal_dma_obstacle_(env, c, data, iommu, &index)
		      : MMCHAL_PR_COUNT;
	if (why != MMCHAL_PR_COUNT) {
		out->index = index;
		return fallback(env, data, why, out);
	}
	out->plan = MMCHAL_PLAN_DIRECT;
	out->nobounce = MMCHAL_NB_NONE;
	out->iommu = iommu;
	if (!iommu)
		out->reason = MMCHAL_PR_DIRECT;
	else if (env->merge)
		out->reason = MMCHAL_PR_DIRECT_UNMERGEABLE;
	else
		out->reason = MMCHAL_PR_DIRECT_IOMMU;
	return 0;
}

/* The plan, written to @p out only when there is one: a refused list
 * (EINVAL) leaves the caller's result as it was. */
int mmchal_dma_plan_checked_(const struct mmchal_plan_env *env, const struct mmchal_data *data,
			     const struct mmchal_sg_summary *sum, struct mmchal_plan_result *out)
{
	/* every successful plan sets every field of r */
	struct mmchal_plan_result r;
	int err = plan_into(env, data, sum, &r);

	if (err == 0)
		*out = r;
	return err;
}

/* The exact per-segment test of mmchal_dma_check_mapped(): the first bad one. */
static bool mapped_exact(const struct mmchal_dma_dir_caps *caps, const struct mmchal_dma_seg *segs,
			 uint32_t nsegs, uint32_t *index)
{
	uint32_t align = caps->addr_align > 1u ? caps->addr_align : 1u;
	uint64_t top = addr_max(caps->addr_bits);

	for (uint32_t i = 0; i < nsegs; i++) {
		const struct mmchal_dma_seg *s = &segs[i];
		uint64_t last = s->addr + (s->len - 1u);

		if (index)
			*index = i;
		if (s->len == 0 || (s->addr & (align - 1u)) != 0 ||
		    !granule_ok(s->len, caps->len_granule) || s->len > caps->max_seg_size ||
		    last < s->addr || last > top || crosses(s->addr, last, caps->seg_boundary))
			return false;
	}
	if (index)
		*index = 0;
	return true;
}

bool mmchal_dma_check_mapped(const struct mmchal_dma_dir_caps *caps,
			     const struct mmchal_dma_seg *segs, uint32_t nsegs, bool merged,
			     uint32_t *index)
{
	const struct mmchal_dma_seg *s = segs, *end;
	uint64_t addr_or = 0, last_and = UINT64_MAX, cross_or = 0;
	uint64_t align1, gran1;
	uint32_t len1_or = 0;

	if (index)
		*index = 0;
	if (!caps || !segs || nsegs == 0 || (merged && nsegs != 1u) || nsegs > caps->max_segs)
		return false;
	/* One branch-free pass, as summarize() does for the caller's list; any
	 * doubt goes to the exact test, which also names the segment. */
	for (end = segs + nsegs; s != end; s++) {
		uint32_t len1 = s->len - 1u;
		uint64_t last = s->addr + len1;

		addr_or |= s->addr;
		last_and &= last;
		cross_or |= s->addr ^ last;
		len1_or |= len1;
	}
	align1 = caps->addr_align > 1u ? caps->addr_align - 1u : 0;
	gran1 = caps->len_granule > 1u ? caps->len_granule - 1u : 0;
	/* a length is a multiple of the granule when its start and end are
	 * aligned to it; every last byte is at most addr_or + len1_or */
	if (len1_or >= caps->max_seg_size || (addr_or >> 32) == 0xffffffffu ||
	    (addr_or & (align1 | gran1)) != 0 || (last_and & gran1) != gran1 ||
	    addr_or + len1_or > addr_max(caps->addr_bits) ||
	    (caps->seg_boundary != 0 && (cross_or & ~caps->seg_boundary) != 0))
		return mapped_exact(caps, segs, nsegs, index);
	return true;
}

/* ------------------------------------------------------------------ texts */

/*
 * Each set of texts is a pool of NUL-ended strings in enum order rather than
 * a table of pointers: no pointer per text, and a pool that nothing names is
 * dropped whole by the linker (string literals would share one section).
 */
static const char check_texts[] =
	"valid\0"                                             /* MMCHAL_REQ_OK */
	"request, command or limits missing\0"                /* MMCHAL_REQ_NULL */
	"command index above 63\0"                            /* MMCHAL_REQ_OPCODE */
	"unknown or inconsistent response flags\0"            /* MMCHAL_REQ_RSP_FLAGS */
	"data on a command that takes none\0"                 /* MMCHAL_REQ_DATA_CMD */
	"unknown transfer direction\0"                        /* MMCHAL_REQ_DIR */
	"block size 0 or above max_blk_size\0"                /* MMCHAL_REQ_BLKSZ */
	"block count 0 or above max_blk_count\0"              /* MMCHAL_REQ_BLOCKS */
	"request larger than max_req_size\0"                  /* MMCHAL_REQ_REQ_SIZE */
	"no scatter-gather list\0"                            /* MMCHAL_REQ_NO_SG */
	"more entries than max_segs\0"                        /* MMCHAL_REQ_SEGS */
	"an entry of length 0\0"                              /* MMCHAL_REQ_SEG_ZERO */
	"an entry longer than max_seg_size\0"                 /* MMCHAL_REQ_SEG_SIZE */
	"an entry wraps the address space\0"                  /* MMCHAL_REQ_SEG_WRAP */
	"an entry crosses seg_boundary\0"                     /* MMCHAL_REQ_SEG_BOUNDARY */
	"an interior boundary not aligned to virt_boundary\0" /* MMCHAL_REQ_VIRT_BOUNDARY */
	"entry lengths do not add up to blksz x blocks\0"     /* MMCHAL_REQ_SUM */
	"CMD23 without a data phase\0"                        /* MMCHAL_REQ_SBC_NO_DATA */
	"CMD23 block count open-ended or not the data's\0"    /* MMCHAL_REQ_SBC_COUNT */
	"STOP without a data phase";                          /* MMCHAL_REQ_STOP_NO_DATA */

const char *mmchal_req_check_text(enum mmchal_req_check why)
{
	return (unsigned)why < MMCHAL_REQ_CHECK_COUNT ? mmchal_text_nth_(check_texts, why) : "?";
}

static const char plan_names[] = "PIO\0"          /* MMCHAL_PLAN_PIO */
				 "DIRECT\0"       /* MMCHAL_PLAN_DIRECT */
				 "IOMMU_MERGED\0" /* MMCHAL_PLAN_IOMMU_MERGED */
				 "BOUNCED";       /* MMCHAL_PLAN_BOUNCED */

const char *mmchal_plan_name(enum mmchal_plan plan)
{
	return (unsigned)plan < MMCHAL_PLAN_COUNT ? mmchal_text_nth_(plan_names, plan) : "?";
}

static const char reason_texts[] =
	/* MMCHAL_PR_NO_ENGINE */
	"the host has no DMA engine\0"
	/* MMCHAL_PR_RETRY */
	"retry by PIO after a DMA fault\0"
	/* MMCHAL_PR_MERGED */
	"the IOMMU maps the list to one device address\0"
	/* MMCHAL_PR_DIRECT */
	"the engine takes every segment as it is\0"
	/* MMCHAL_PR_DIRECT_IOMMU */
	"merging is off: each segment mapped on its own\0"
	/* MMCHAL_PR_DIRECT_UNMERGEABLE */
	"the list cannot be merged: each segment mapped on its own\0"
	/* MMCHAL_PR_MIN_LEN */
	"shorter than the engine's minimum DMA length\0"
	/* MMCHAL_PR_XFER */
	"longer than the engine's largest transfer\0"
	/* MMCHAL_PR_SHARED_LINE */
	"a device-to-memory buffer shares a cache line with other data\0"
	/* MMCHAL_PR_SEGS */
	"more segments than the engine chains\0"
	/* MMCHAL_PR_ALIGN */
	"a segment start is not aligned as the engine needs\0"
	/* MMCHAL_PR_GRANULE */
	"a segment length is not a multiple of the engine's granule\0"
	/* MMCHAL_PR_SEG_SIZE */
	"a segment is longer than the engine's largest segment\0"
	/* MMCHAL_PR_ADDR_BITS */
	"a segment lies beyond the engine's address bits\0"
	/* MMCHAL_PR_BOUNDARY */
	"a segment crosses the engine's segment boundary\0"
	/* MMCHAL_PR_MAPPED_BAD */
	"the IOMMU mapping is not what the engine can take";

const char *mmchal_plan_reason_text(enum mmchal_plan_reason reason)
{
	return (unsigned)reason < MMCHAL_PR_COUNT ? mmchal_text_nth_(reason_texts, reason) : "?";
}

static const char nobounce_texts[] =
	"-\0"                                       /* MMCHAL_NB_NONE */
	"no bounce pool\0"                          /* MMCHAL_NB_NO_POOL */
	"larger than the bounce limit\0"            /* MMCHAL_NB_TOO_LARGE */
	"the engine cannot take it bounced either"; /* MMCHAL_NB_ENGINE */

const char *mmchal_plan_nobounce_text(enum mmchal_plan_nobounce nb)
{
	return (unsigned)nb < MMCHAL_NB_COUNT ? mmchal_text_nth_(nobounce_texts, nb) : "?";
}
