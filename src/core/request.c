/**
 * @file
 * @brief The request path and its completion (DESIGN.md sections 5 and 7):
 *        validate -> plan -> map or bounce -> cache maintenance -> backend
 *        start -> events -> completion under the host's policy -> done once.
 *
 * Completion state machine (host->state, always changed under the host lock):
 *
 * | state | event                          | action                                   | next |
 * |-------|--------------------------------|------------------------------------------|------|
 * | IDLE  | request()                      | claim the host                           | PREP |
 * | PREP  | valid, mapped, sbc set         | start CMD23                              | SBC  |
 * | PREP  | valid, mapped, no sbc          | start the command (+ data)               | CMD  |
 * | PREP  | backend start failed           | unwind the mapping, return the error     | IDLE |
 * | SBC   | CMD_DONE                       | start the command (+ data)               | CMD  |
 * | SBC   | CMD_ERROR                      | sbc->error                               | DONE |
 * | CMD   | CMD_DONE, data                 | arm the data timeout                     | DATA |
 * | CMD   | CMD_DONE, R1b, no data         | arm the busy timeout                     | BUSY |
 * | CMD   | CMD_DONE, otherwise            |                                          | DONE |
 * | CMD   | CMD_ERROR                      | cmd->error; abort the armed data phase;  | STOP / DONE |
 * |       |                                | stop set: CMD12                          |      |
 * | DATA  | DATA_DONE, fewer blocks_done   | short transfer: as DATA_ERROR with EIO   | STOP / DONE |
 * | DATA  | DATA_DONE, stop and no sbc     | start CMD12                              | STOP |
 * | DATA  | DATA_DONE, otherwise           | bytes_xfered = all                       | DONE |
 * | DATA  | DATA_ERROR                     | blocks_done, abort; stop set: CMD12      | STOP / DONE |
 * | STOP  | CMD_DONE, R1b                  | arm the busy timeout                     | BUSY |
 * | STOP  | CMD_DONE / CMD_ERROR           | stop->error on error                     | DONE |
 * | BUSY  | BUSY_DONE, or card_busy() == 0 |                                          | DONE |
 * | SBC..BUSY | timeout (poll, sync wait)  | blocks_done, abort, ETIMEDOUT; in CMD or DATA with stop: CMD12 | DONE / STOP |
 * | SBC..BUSY | mmchal_host_abort()        | blocks_done, abort, ECANCELED            | DONE |
 * | DONE  | any event                      | acknowledged, ignored (counted spurious) | DONE |
 * | DONE  | owner: DMA fault, PIO retry on | unmap, restart the request by PIO        | SBC / CMD |
 * | DONE  | owner: completion work         | unmap, copy back, invalidate; commit     | IDLE, then done() |
 *
 * Exactly once: only the context that moves the state into DONE owns the
 * completion; every other context (a late interrupt, a timeout, an abort)
 * finds DONE under the lock and backs off.
 *
 * Locking per policy: IRQ_LOCKED keeps the lock through unmap and copy-back;
 * IRQ_SPLIT, DEFERRED and POLLED hold it only for transitions and the final
 * commit (constant work, independent of the segment count). DEFERRED hands
 * the completion work from the interrupt to the port's deferred work. The
 * @c done callback always runs after the lock is dropped and after the host
 * is IDLE again, so it may start the next request.
 *
 * A library built without the interrupt path (MMCHAL_WITH_IRQ 0, config.h)
 * keeps only the POLLED way, whatever policy the limits name: the events
 * come from mmchal_host_poll() and mmchal_host_request_sync() alone, and
 * mmchal_host_irq() only checks its argument. The lock stays: it still
 * serialises the threads that call the host.
 */
#include <mmchal/config.h>
#include <mmchal/host_core.h>
#include <mmchal/error.h>

#include "core/dma_plan_priv.h"
#include "core/host_priv.h"
#include "core/req_quick.h"
#include "core/mem.h"

/* host->flags */
#define HF_RETRY        (1u << 0)  /* a PIO retry is due when the completion runs */
#define HF_RETRIED      (1u << 1)  /* this request was retried already */
#define HF_DEFER_INLINE (1u << 3)  /* schedule_work failed: completed inline */
#define HF_UNMAP_ERR    (1u << 4)  /* an IOMMU unmap failed */
#define HF_FALLBACK     (1u << 5)  /* the IOMMU mapping was refused by the check */
#define HF_AUTO_STOP    (1u << 6)  /* the controller sends CMD12 after the data */
#define HF_NO_RELEASE   (1u << 7)  /* the plan leaves nothing to unmap, copy or invalidate */
#define HF_ERR          (1u << 8)  /* an error was recorded in the request */
#define HF_FULL_CHECK   (1u << 9)  /* the quick checks could not prove the request valid */
#define HF_FULL_PLAN    (1u << 10) /* the host's constants could not decide the plan */
#define HF_FULL_MAP     (1u << 11) /* they could not prove the IOMMU mapping fits the engine */

/* Flags the start section counts; none is set on a request of the fast path. */
#define HF_START_COUNTED (HF_FALLBACK | HF_FULL_CHECK | HF_FULL_PLAN | HF_FULL_MAP)

/* Flags commit() counts; none is set on a request that went well. */
#define HF_COUNTED (HF_ERR | HF_UNMAP_ERR | HF_DEFER_INLINE)

/* Events that belong to a request (card change and SDIO interrupts do not). */
#define EV_REQUEST                                                                               \
	(MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE | MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR | \
	 MMCHAL_EV_BUSY_DONE)

static CORE_INLINE_ uint64_t now_ns(struct mmchal_host *h)
{
	return h->now(h->port.ctx);
}

static CORE_INLINE_ void arm(struct mmchal_host *h, uint64_t ns)
{
	uint64_t t = now_ns(h) + ns;

	h->deadline_ns = t < ns ? UINT64_MAX : t; /* saturating */
}

static uint64_t ms_to_ns(uint32_t ms)
{
	return (uint64_t)ms * 1000000u;
}

static int or_eio(int err)
{
	return err < 0 ? err : MMCHAL_EIO;
}

static bool is_busy_cmd(const struct mmchal_cmd *c)
{
	return (c->flags & MMCHAL_RSP_BUSY) != 0;
}

static bool running(uint32_t s)
{
	return s >= HS_SBC && s <= HS_BUSY;
}

#if defined(__OPTIMIZE_SIZE__)
bool mmchal_host_live_(const struct mmchal_host *h)
{
	return h && h->magic == HOST_MAGIC;
}
#endif

/* ------------------------------------------------------------ transitions */

static CORE_INLINE_ bool to_done(struct mmchal_host *h)
{
	h->state = HS_DONE;
	return true;
}

/* Put @p cmd on the line (with @p data armed). */
static CORE_INLINE_ int issue(struct mmchal_host *h, struct mmchal_cmd *cmd,
			      struct mmchal_data *data)
{
	/* every command's error was cleared when the request was (re)started */
	h->cur = cmd;
	if (!data) {
		/* the rest of xcmd stays as mmchal_host_init() zeroed it */
		h->xcmd.cmd = cmd;
		return h->be_start(h->be.ctx, &h->xcmd);
	}
	h->xfer.cmd = cmd;
	h->xfer.data = data;
	h->xfer.auto_stop = (h->flags & HF_AUTO_STOP) != 0;
	h->xfer.stop = h->xfer.auto_stop ? h->req->stop : NULL;
	h->xfer.plan = h->plan.plan;
	h->xfer.segs = h->plan.plan != MMCHAL_PLAN_PIO ? h->segs : NULL;
	h->xfer.nsegs = h->plan.plan != MMCHAL_PLAN_PIO ? h->nsegs : 0;
	return h->be_start(h->be.ctx, &h->xfer);
}

static CORE_INLINE_ bool go_cmd(struct mmchal_host *h)
{
	struct mmchal_request *r = h->req;
	int err;

	h->state = HS_CMD;
	arm(h, h->cmd_timeout_ns);
	err = issue(h, r->cmd, r->data);
	if (err != 0) {
		r->cmd->error = err;
		h->flags |= HF_ERR;
		return to_done(h);
	}
	return false;
}

static CORE_INLINE_ bool go_stop(struct mmchal_host *h)
{
	struct mmchal_request *r = h->req;
	int err;

	h->state = HS_STOP;
	arm(h, h->cmd_timeout_ns);
	err = issue(h, r->stop, NULL);
	if (err != 0) {
		r->stop->error = err;
		h->flags |= HF_ERR;
		return to_done(h);
	}
	return false;
}

/* R1b: wait for DAT0, unless the end of busy came with these events @p ev. */
static CORE_INLINE_ bool go_busy(struct mmchal_host *h, const struct mmchal_cmd *c, uint32_t ev)
{
	/* Without a way to see DAT0 the caller's stack polls CMD13 itself. */
	if ((ev & MMCHAL_EV_BUSY_DONE) ||
	    (!(h->caps.host.bus & MMCHAL_BUS_HW_BUSY) && !h->be.ops->card_busy))
		return to_done(h);
	h->state = HS_BUSY;
	h->busy_polls = 0;
	arm(h, ms_to_ns(c->busy_timeout_ms ? c->busy_timeout_ms : h->busy_timeout_ms));
	return false;
}

static CORE_INLINE_ bool begin(struct mmchal_host *h)
{
	struct mmchal_request *r = h->req;
	int err;

	if (!r->sbc)
		return go_cmd(h);
	h->state = HS_SBC;
	arm(h, h->cmd_timeout_ns);
	err = issue(h, r->sbc, NULL);
	if (err != 0) {
		r->sbc->error = err;
		h->flags |= HF_ERR;
		return to_done(h);
	}
	return false;
}

/* Bytes of the blocks the backend knows completed; 0 when it cannot say. */
static void count_blocks(struct mmchal_host *h)
{
	struct mmchal_data *d = h->req->data;
	uint32_t blocks = 0;

	if (!d)
		return;
	if (!h->be.ops->blocks_done || h->be.ops->blocks_done(h->be.ctx, &blocks) != 0)
		blocks = 0;
	if (blocks > d->blocks)
		blocks = d->blocks;
	d->bytes_xfered = blocks * d->blksz;
}

static bool data_failed(struct mmchal_host *h, int err)
{
	struct mmchal_request *r = h->req;

	r->data->error = err;
	h->flags |= HF_ERR;
	count_blocks(h);
	(void)h->be.ops->abort(h->be.ctx);
	/* complete() checks that every entry has the CPU address PIO needs */
	if (err == MMCHAL_EFAULT && h->pio_retry && h->plan.plan != MMCHAL_PLAN_PIO &&
	    !(h->flags & HF_RETRIED))
		h->flags |= HF_RETRY;
	/* An open-ended or failed transfer leaves the card sending or receiving. */
	if (r->stop)
		return go_stop(h);
	return to_done(h);
}

static CORE_INLINE_ bool data_events(struct mmchal_host *h, uint32_t ev)
{
	struct mmchal_request *r = h->req;

	if (ev & MMCHAL_EV_DATA_ERROR)
		return data_failed(h, or_eio(r->data->error));
	if (!(ev & MMCHAL_EV_DATA_DONE))
		return false;
	/* A controller may end the data phase early without an error (a short
	 * transfer): never report blocks that did not move. */
	if (h->be_blocks) {
		uint32_t blocks;

		if (h->be_blocks(h->be.ctx, &blocks) == 0 && blocks < r->data->blocks)
			return data_failed(h, MMCHAL_EIO);
	}
	r->data->bytes_xfered = r->data->blksz * r->data->blocks;
	if (h->flags & HF_AUTO_STOP) {
		/* the controller sent CMD12; the backend filled in its answer */
		if (r->stop->error) {
			h->flags |= HF_ERR;
			return to_done(h);
		}
		/* with HW_BUSY the data phase ends after CMD12's busy (backend.h) */
		if (is_busy_cmd(r->stop) && !(h->caps.host.bus & MMCHAL_BUS_HW_BUSY))
			return go_busy(h, r->stop, ev);
		return to_done(h);
	}
	if (r->stop && !r->sbc)
		return go_stop(h);
	return to_done(h);
}

static CORE_INLINE_ bool on_sbc(struct mmchal_host *h, uint32_t ev)
{
	struct mmchal_request *r = h->req;

	if (ev & MMCHAL_EV_CMD_ERROR) {
		r->sbc->error = or_eio(r->sbc->error);
		h->flags |= HF_ERR;
		return to_done(h);
	}
	return (ev & MMCHAL_EV_CMD_DONE) ? go_cmd(h) : false;
}

static CORE_INLINE_ bool on_cmd(struct mmchal_host *h, uint32_t ev)
{
	struct mmchal_request *r = h->req;

	if (ev & MMCHAL_EV_CMD_ERROR) {
		r->cmd->error = or_eio(r->cmd->error);
		h->flags |= HF_ERR;
		if (!r->data)
			return to_done(h);
		(void)h->be.ops->abort(h->be.ctx);
		/* the card may have taken the command and be sending or
		 * receiving: end an open-ended transfer */
		return r->stop ? go_stop(h) : to_done(h);
	}
	if (!(ev & MMCHAL_EV_CMD_DONE))
		return false;
	if (r->data) {
		h->state = HS_DATA;
		/* no deadline for a data phase that ended in the same events */
		if (!(ev & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR)))
			arm(h, r->data->timeout_ns ? (uint64_t)r->data->timeout_ns * r->data->blocks
						   : h->data_timeout_ns);
		return data_events(h, ev);
	}
	return is_busy_cmd(r->cmd) ? go_busy(h, r->cmd, ev) : to_done(h);
}

static CORE_NOINLINE_ bool on_stop(struct mmchal_host *h, uint32_t ev)
{
	struct mmchal_request *r = h->req;

	if (ev & MMCHAL_EV_CMD_ERROR) {
		r->stop->error = or_eio(r->stop->error);
		h->flags |= HF_ERR;
		return to_done(h);
	}
	if (!(ev & MMCHAL_EV_CMD_DONE))
		return false;
	return is_busy_cmd(r->stop) ? go_busy(h, r->stop, ev) : to_done(h);
}

/*
 * One step of the state machine in a running state; true once DONE. The
 * states a request's interrupts find most (the command, then CMD23) are
 * tested first.
 */
static CORE_INLINE_ bool step(struct mmchal_host *h, uint32_t s, uint32_t ev)
{
	if (s == HS_CMD)
		return on_cmd(h, ev);
	if (s == HS_SBC)
		return on_sbc(h, ev);
	if (s == HS_DATA)
		return data_events(h, ev);
	if (s == HS_STOP)
		return on_stop(h, ev);
	/* HS_BUSY */
	return (ev & MMCHAL_EV_BUSY_DONE) ? to_done(h) : false;
}

/* A timeout fired (@p err ETIMEDOUT) or the caller aborted (ECANCELED). */
static bool expire(struct mmchal_host *h, int err)
{
	struct mmchal_request *r = h->req;
	bool in_data = h->state == HS_DATA && r->data;
	bool open_ended = r->stop && r->data && (in_data || h->state == HS_CMD);

	if (in_data)
		count_blocks(h);
	(void)h->be.ops->abort(h->be.ctx);
	if (in_data)
		r->data->error = err;
	else
		h->cur->error = err;
	h->flags |= HF_ERR;
	if (err == MMCHAL_ETIMEDOUT) {
		HSTAT_ADD_(h, timeouts, 1);
		if (open_ended)
			return go_stop(h);
	} else {
		HSTAT_ADD_(h, aborts, 1);
	}
	return to_done(h);
}

/* ------------------------------------------------------------ mapping */

static const struct mmchal_dma_dir_caps *dir_caps(const struct mmchal_host *h,
						  const struct mmchal_data *d)
{
	return &h->caps.dma.dir[d->dir];
}

static bool needs_cache_ops(const struct mmchal_host *h, const struct mmchal_data *d)
{
	return h->noncoherent && h->plan.plan != MMCHAL_PLAN_PIO && !dir_caps(h, d)->coherent;
}

static void *bounce_cpu(const struct mmchal_host *h)
{
	return h->bounce->mem + (h->segs[0].addr - h->bounce->dma);
}

static void plan_fast_of(const struct mmchal_host *h, struct mmchal_host_plan_fast *f,
			 const struct mmchal_dma_dir_caps *c);
static bool all_cpu(const struct mmchal_data *d);

/* The planner's view of the host; again at every card change (host.c). */
void mmchal_host_plan_env_(struct mmchal_host *h)
{
	struct mmchal_plan_env *env = &h->penv;

	env->dma = &h->caps.dma;
	/* a library without the IOMMU layer refuses a host with a domain; the
	 * constant test lets the compiler drop the mapping paths (config.h) */
	env->iommu = MMCHAL_WITH_IOMMU && h->dom ? &h->caps.iommu : NULL;
	env->merge = h->limits.merge;
	env->card = h->limits.card;
	/* behind an IOMMU the limits do not clamp to the pool, but it may still
	 * take what the engine refuses */
	env->bounce_limit = h->limits.bounce_limit != 0       ? h->limits.bounce_limit
			    : MMCHAL_WITH_BOUNCE && h->bounce ? (uint64_t)h->caps.bounce.slot_size *
									h->caps.bounce.slots_per_map
							      : 0;
	env->cache_line = h->noncoherent ? h->port.cache_line : 0;
	env->seg_table = h->segs_len;
	if (!MMCHAL_FAST_PATH) {
		/* no constants: pfast stays zero from init (mode 0), which sends
		 * every request to the exact code */
		h->lean_sum = false;
		return;
	}
	h->lean_sum = h->limits.seg_boundary == 0 && h->limits.virt_boundary == 0 &&
		      env->cache_line == 0;
	for (int dir = 0; dir < MMCHAL_DIR_COUNT; dir++) {
		const struct mmchal_dma_dir_caps *c = &h->caps.dma.dir[dir];

		plan_fast_of(h, &h->pfast[dir], c);
		/* the planner looks at the ends for a granule or a boundary */
		if (env->dma->kind != MMCHAL_DMA_NONE &&
		    (c->len_granule > 1u || c->seg_boundary != 0))
			h->lean_sum = false;
	}
}

/*
 * The planner's answer when it depends on the host alone (DESIGN.md section
 * 5, dma_plan.h steps 1-5): no engine -> PIO; a coherent engine and no
 * merging -> DIRECT exactly when the list passes the engine's tests, which
 * mmchal_dma_plan() makes from the summary the same way (maybe_obstacle()).
 * Everything else (cache maintenance, merging) runs the planner.
 */
/*
 * mmchal_merge_check() on a list that passed the request checks, when those
 * checks already enforce its alignment rule: every entry has a length and no
 * overflow, the total fits 32 bits, and with virt_boundary equal to the merge
 * boundary no interior start or end is unaligned (merge.c). What is left
 * depends on the first entry's offset and the total: the size of the mapping.
 */
static void merge_fast_of(const struct mmchal_host *h, struct mmchal_host_plan_fast *f)
{
	const struct mmchal_iommu_caps *io = h->penv.iommu;
	enum mmchal_card_type card = h->penv.card;
	uint64_t span_max = io->max_map_size != 0 ? io->max_map_size : UINT64_MAX;

	if (io->merge_boundary == 0 || io->page_size == 0 ||
	    io->merge_boundary != (uint64_t)io->page_size - 1u ||
	    (io->page_size & (io->page_size - 1u)) != 0 ||
	    (card != MMCHAL_CARD_SD && card != MMCHAL_CARD_MMC) ||
	    h->limits.virt_boundary != io->merge_boundary)
		return;
	if (io->aperture_end != 0) {
		uint64_t room;

		if (io->aperture_end < io->aperture_start)
			return;
		room = io->aperture_end - io->aperture_start;
		if (room != UINT64_MAX && room + 1u < span_max)
			span_max = room + 1u;
	}
	f->merge_fast = true;
	f->merge_mask = io->merge_boundary;
	/* whole pages: a span fits exactly when it fits the pages below the limit */
	f->span_max = span_max & ~f->merge_mask;
}

static void plan_fast_of(const struct mmchal_host *h, struct mmchal_host_plan_fast *f,
			 const struct mmchal_dma_dir_caps *c)
{
	const struct mmchal_plan_env *env = &h->penv;
	bool iommu = MMCHAL_WITH_IOMMU && env->iommu && env->iommu->present;
	uint64_t max_xfer = c->max_xfer != 0 ? c->max_xfer : UINT64_MAX;

	*f = (struct mmchal_host_plan_fast){0};
	if (env->dma->kind == MMCHAL_DMA_NONE) {
		f->mode = 1;
		return;
	}
	f->dev_segs = c->max_segs;
	f->dev_last_max = c->addr_bits == 0 || c->addr_bits >= 64
				  ? UINT64_MAX
				  : (UINT64_C(1) << c->addr_bits) - 1u;
	f->dev_bnd_not = c->seg_boundary == 0 ? 0 : ~c->seg_boundary;
	f->gran1 = c->len_granule > 1u ? c->len_granule - 1u : 0;
	f->align1 = c->addr_align > 1u ? c->addr_align - 1u : 0;
	f->start_mask = f->align1 | f->gran1;
	f->seg_max = c->max_seg_size;
	f->min_len = c->min_len;
	f->xfer_span = max_xfer - f->min_len;
	if (iommu) {
		/* the domain's highest device address (domain.c: IOVAs come from
		 * pages up to limit_pfn, below 2^62) */
		const struct mmchal_iommu_domain *dom = h->dom;
		uint64_t top = (dom->limit_pfn >> (64u - dom->page_shift)) == 0
				       ? ((dom->limit_pfn + 1u) << dom->page_shift) - 1u
				       : UINT64_MAX;

		f->dev_any = f->start_mask == 0 && f->gran1 == 0 && f->dev_bnd_not == 0 &&
			     top <= f->dev_last_max;
	}
	/* no DMA transfer length at all: every request asks the planner */
	if ((env->cache_line != 0 && !c->coherent) || max_xfer < f->min_len)
		return;
	if (iommu && env->merge) {
		f->mode = 3;
		merge_fast_of(h, f);
		return;
	}
	f->mode = 2;
	f->iommu = iommu;
	f->segs = c->max_segs < env->seg_table ? c->max_segs : env->seg_table;
	/* behind the IOMMU, address bits and boundary are checked after mapping */
	f->last_max = iommu || c->addr_bits == 0 || c->addr_bits >= 64
			      ? UINT64_MAX
			      : (UINT64_C(1) << c->addr_bits) - 1u;
	f->bnd_not = iommu || c->seg_boundary == 0 ? 0 : ~c->seg_boundary;
	/* fallback() in dma_plan.c: a pool, and one segment the engine takes,
	 * which must fit between two of its boundaries */
	if (!iommu && env->bounce_limit != 0) {
		f->bounce_max = env->bounce_limit < c->max_seg_size ? env->bounce_limit
								    : c->max_seg_size;
		if (c->seg_boundary != 0 && c->seg_boundary < f->bounce_max - 1u)
			f->bounce_max = c->seg_boundary + 1u;
	}
}

/*
 * mmchal_dma_obstacle_() for a list of one entry without IOMMU, from the
 * host's constants and in the same order. The caller proved the entry's
 * count, length granule and segment size (its length is the transfer's, at
 * most bounce_max); a valid list has no start in the top 4 GiB, so the last
 * byte cannot wrap. A "none" here sends the list to the planner, which
 * gives the same answer.
 */
static CORE_INLINE_ enum mmchal_plan_reason obstacle_of_one(const struct mmchal_host_plan_fast *f,
							    const struct mmchal_sg *s)
{
	uint64_t last = s->phys + s->len - 1u;

	if (s->phys & f->align1)
		return MMCHAL_PR_ALIGN;
	if (last > f->last_max)
		return MMCHAL_PR_ADDR_BITS;
	if ((s->phys ^ last) & f->bnd_not)
		return MMCHAL_PR_BOUNDARY;
	return MMCHAL_PR_COUNT;
}

/* The merged mapping's whole pages fit the IOMMU (merge_fast_of()): the
 * pages spanned, rounded up to whole pages, are at most span_max, a whole
 * number of pages; so is exactly the span itself. The offset is below 2^32
 * (a 32-bit page size), the total too: no overflow. */
static CORE_INLINE_ bool merged_fits(const struct mmchal_host_plan_fast *f,
				     const struct mmchal_sg *first, uint64_t total)
{
	return (first->phys & f->merge_mask) + total <= f->span_max;
}

/* Plan a validated data phase: the host's precomputed answer, else the planner. */
static CORE_INLINE_ int plan_data(struct mmchal_host *h, const struct mmchal_data *d,
				  const struct mmchal_sg_summary *sum)
{
	const struct mmchal_host_plan_fast *f;
	struct mmchal_plan_result *out = &h->plan;
	uint64_t total;

	if (!MMCHAL_FAST_PATH) {
		if (MMCHAL_WITH_STATS) /* only count_slow_start() reads the mark */
			h->flags |= HF_FULL_PLAN;
		return mmchal_dma_plan_checked_(&h->penv, d, sum, out);
	}
	f = &h->pfast[d->dir];
	total = (uint64_t)d->blksz * d->blocks;
	/* a valid summary has no start in the top 4 GiB: the sum cannot wrap */
	if (f->mode == 2 && d->sg_len <= f->segs && (sum->phys_or & f->start_mask) == 0 &&
	    (sum->last_and & f->gran1) == f->gran1 && sum->len1_or < f->seg_max &&
	    sum->phys_or + sum->len1_or <= f->last_max && (sum->cross_or & f->bnd_not) == 0 &&
	    total - f->min_len <= f->xfer_span) {
		/* mode 2 is coherent: nothing to invalidate; unmapping only via the IOMMU */
		if (!f->iommu)
			h->flags |= HF_NO_RELEASE;
		*out = (struct mmchal_plan_result){
			.plan = MMCHAL_PLAN_DIRECT,
			.reason = f->iommu ? MMCHAL_PR_DIRECT_IOMMU : MMCHAL_PR_DIRECT,
			.nobounce = MMCHAL_NB_NONE,
			.merge = f->iommu ? MMCHAL_MERGE_OK : MMCHAL_MERGE_NO_IOMMU,
			.iommu = f->iommu};
		return 0;
	}
	/* The planner's answer for such a list without IOMMU, when the engine
	 * refuses a segment: bounced if the pool and the engine take the whole
	 * transfer as one segment (mmchal_dma_plan_checked_(), fallback()). */
	if (MMCHAL_WITH_BOUNCE && f->mode == 2 && total <= f->bounce_max &&
	    (total & f->gran1) == 0 && d->sg_len <= f->segs && total - f->min_len <= f->xfer_span) {
		uint32_t index = 0;
		enum mmchal_plan_reason why = d->sg_len == 1u
						      ? obstacle_of_one(f, d->sg)
						      : mmchal_dma_obstacle_(&h->penv,
									     dir_caps(h, d), d,
									     false, &index);

		if (why != MMCHAL_PR_COUNT && all_cpu(d)) {
			out->plan = MMCHAL_PLAN_BOUNCED;
			out->reason = why;
			out->nobounce = MMCHAL_NB_NONE;
			out->merge = MMCHAL_MERGE_NO_IOMMU;
			out->index = index;
			out->iommu = false;
			return 0;
		}
	}
	if (f->mode == 1 && all_cpu(d)) {
		h->flags |= HF_NO_RELEASE;
		*out = (struct mmchal_plan_result){.plan = MMCHAL_PLAN_PIO,
						   .reason = MMCHAL_PR_NO_ENGINE,
						   .nobounce = MMCHAL_NB_NONE,
						   .merge = MMCHAL_MERGE_NO_IOMMU};
		return 0;
	}
	/* merging on and the policy agrees: dma_plan.h step 4 */
	if (MMCHAL_WITH_IOMMU && f->mode == 3 && total - f->min_len <= f->xfer_span &&
	    (f->merge_fast ? merged_fits(f, d->sg, total)
			   : mmchal_merge_check(d->sg, d->sg_len, h->penv.iommu, h->penv.card,
						NULL) == MMCHAL_MERGE_OK)) {
		*out = (struct mmchal_plan_result){.plan = MMCHAL_PLAN_IOMMU_MERGED,
						   .reason = MMCHAL_PR_MERGED,
						   .nobounce = MMCHAL_NB_NONE,
						   .merge = MMCHAL_MERGE_OK,
						   .iommu = true};
		return 0;
	}
	if (MMCHAL_WITH_STATS)
		h->flags |= HF_FULL_PLAN;
	return mmchal_dma_plan_checked_(&h->penv, d, sum, out);
}

/* Map through the IOMMU and check the result; false: the engine cannot take it. */
/* The folding pass of mapped_ok(); @p lean: no granule and no boundary to test. */
static CORE_INLINE_ bool mapped_fold(const struct mmchal_host_plan_fast *f,
				     const struct mmchal_dma_seg *s, uint32_t n, bool lean)
{
	const struct mmchal_dma_seg *end = s + n;
	uint64_t addr_or = 0, last_or = 0, last_and = UINT64_MAX, cross_or = 0;
	uint32_t len1_or = 0;

	for (; s != end; s++) {
		uint32_t len1 = s->len - 1u;
		uint64_t last = s->addr + len1;

		addr_or |= s->addr;
		last_or |= last;
		len1_or |= len1;
		if (!lean) {
			last_and &= last;
			cross_or |= s->addr ^ last;
		}
	}
	/* last_or bounds every last byte; no start in the top 4 GiB: none wraps */
	return len1_or < f->seg_max && (addr_or & f->start_mask) == 0 &&
	       (lean || ((last_and & f->gran1) == f->gran1 && (cross_or & f->dev_bnd_not) == 0)) &&
	       last_or <= f->dev_last_max && (addr_or >> 32) != 0xffffffffu;
}

/*
 * mmchal_dma_check_mapped() from the host's constants, one pass without a
 * branch per segment: true proves every segment fits the engine; false means
 * maybe not (the exact check decides).
 */
static CORE_INLINE_ bool mapped_ok(const struct mmchal_host_plan_fast *f,
				   const struct mmchal_dma_seg *s, uint32_t n)
{
	if (n > f->dev_segs)
		return false;
	if (n == 1) { /* merged: the same tests on one segment */
		uint32_t len1 = s->len - 1u;
		uint64_t last = s->addr + len1;

		return len1 < f->seg_max && (s->addr & f->start_mask) == 0 &&
		       (last & f->gran1) == f->gran1 && last <= f->dev_last_max &&
		       ((s->addr ^ last) & f->dev_bnd_not) == 0 && last >= s->addr;
	}
	if ((f->gran1 | f->dev_bnd_not) == 0)
		return mapped_fold(f, s, n, true);
	return mapped_fold(f, s, n, false);
}

/* The exact check of the mapped segments, for what mapped_ok() could not prove. */
static CORE_NOINLINE_ bool full_map_check(struct mmchal_host *h, const struct mmchal_data *d,
					  bool merged)
{
	h->flags |= HF_FULL_MAP;
	return mmchal_dma_check_mapped(dir_caps(h, d), h->segs, h->nsegs, merged, NULL);
}

/* The fast path's proof that the mapped list suits the engine (false: not
 * proved here, the full check decides). */
static CORE_INLINE_ bool fast_mapped(const struct mmchal_host *h, const struct mmchal_data *d,
				     bool merged)
{
	const struct mmchal_host_plan_fast *f = &h->pfast[d->dir];

	return (f->dev_any && (merged ? f->dev_segs != 0 && h->segs[0].len - 1u < f->seg_max
				      : h->nsegs <= f->dev_segs)) ||
	       mapped_ok(f, h->segs, h->nsegs);
}

static int map_iommu(struct mmchal_host *h, const struct mmchal_data *d, bool *ok)
{
	bool merged = h->plan.plan == MMCHAL_PLAN_IOMMU_MERGED;
	int err;

	if (merged)
		err = mmchal_iommu_map_merged(h->dom, d->sg, d->sg_len, d->dir, h->limits.card,
					      &h->map, h->segs, NULL);
	else
		err = mmchal_iommu_map_segs(h->dom, d->sg, d->sg_len, d->dir, &h->map, h->segs);
	if (err != 0)
		return err;
	h->nsegs = merged ? 1u : d->sg_len;
	/* With no alignment, granule or boundary and every device address in
	 * reach, what is left to test is count and lengths: the planner proved
	 * them for unmerged segments (one per entry, as long as the entry); a
	 * merged one is as long as the transfer. */
	*ok = (MMCHAL_FAST_PATH && fast_mapped(h, d, merged)) || full_map_check(h, d, merged);
	if (!*ok)
		(void)mmchal_iommu_unmap(h->dom, &h->map);
	return 0;
}

/*
 * The start alignment of a bounce region: the engine's, and with a segment
 * boundary the region's size rounded up to a power of two, so that it never
 * straddles one (the planner bounces only what fits between two of them).
 */
static CORE_NOINLINE_ uint32_t bounce_align_bnd(const struct mmchal_dma_dir_caps *c,
						const struct mmchal_data *d)
{
	uint32_t align = c->addr_align > 1u ? c->addr_align : 1u;
	uint32_t total = d->blksz * d->blocks, span = 1u;

	while (span < total && span < (UINT32_C(1) << 31))
		span <<= 1;
	return span > align ? span : align;
}

static CORE_INLINE_ uint32_t bounce_align(const struct mmchal_dma_dir_caps *c,
					  const struct mmchal_data *d)
{
	return c->seg_boundary == 0 ? c->addr_align : bounce_align_bnd(c, d);
}

static CORE_INLINE_ int map_data(struct mmchal_host *h, const struct mmchal_data *d)
{
	int err;

	h->nsegs = 0;
	if (MMCHAL_WITH_IOMMU && h->plan.iommu) {
		bool ok = true;

		err = map_iommu(h, d, &ok);
		if (err != 0)
			return err;
		if (!ok) {
			h->flags |= HF_FALLBACK;
			err = mmchal_dma_fallback_(&h->penv, d, MMCHAL_PR_MAPPED_BAD, &h->plan);
			if (err != 0)
				return err;
		}
	} else if (h->plan.plan == MMCHAL_PLAN_DIRECT) {
		const struct mmchal_sg *s = d->sg, *end = d->sg + d->sg_len;
		struct mmchal_dma_seg *o = h->segs;

#if defined(__OPTIMIZE_SIZE__)
		for (; s != end; s++, o++) {
			o->addr = s->phys;
			o->len = s->len;
		}
#else
		/* two entries a round: half the loop overhead per segment */
		if (d->sg_len & 1u) {
			o->addr = s->phys;
			o->len = s->len;
			s++;
			o++;
		}
		for (; s != end; s += 2, o += 2) {
			o[0].addr = s[0].phys;
			o[0].len = s[0].len;
			o[1].addr = s[1].phys;
			o[1].len = s[1].len;
		}
#endif
		h->nsegs = d->sg_len;
	}
	if (MMCHAL_WITH_BOUNCE && h->plan.plan == MMCHAL_PLAN_BOUNCED) {
		err = mmchal_bounce_map_aligned(h->bounce, d->sg, d->sg_len, d->dir,
						bounce_align(dir_caps(h, d), d), &h->bmap, h->segs);
		if (err != 0)
			return err;
		h->nsegs = 1;
	}
	if (!needs_cache_ops(h, d))
		return 0;
	/* Before the device reads memory, write dirty lines back; before it writes
	 * memory, drop lines a later eviction would write over its data (the
	 * planner made sure no line is shared with a neighbour). */
	if (MMCHAL_WITH_BOUNCE && h->plan.plan == MMCHAL_PLAN_BOUNCED) {
		/* the CPU just filled the slots, in both directions */
		h->port.ops->cache_clean(h->port.ctx, bounce_cpu(h), h->bmap.len);
	} else {
		for (uint32_t i = 0; i < d->sg_len; i++) {
			if (d->dir == MMCHAL_DIR_TO_CARD)
				h->port.ops->cache_clean(h->port.ctx, d->sg[i].cpu, d->sg[i].len);
			else
				h->port.ops->cache_invalidate(h->port.ctx, d->sg[i].cpu,
							      d->sg[i].len);
		}
	}
	return 0;
}

/* Undo map_data(): unmap, invalidate what the device wrote, copy bounced data back. */
static CORE_INLINE_ void release_data(struct mmchal_host *h)
{
	const struct mmchal_data *d = h->req->data;
	bool cache = d && needs_cache_ops(h, d) && d->dir == MMCHAL_DIR_FROM_CARD;

	if (!d || h->plan.plan == MMCHAL_PLAN_PIO)
		return;
	if (MMCHAL_WITH_BOUNCE && h->plan.plan == MMCHAL_PLAN_BOUNCED) {
		if (cache)
			h->port.ops->cache_invalidate(h->port.ctx, bounce_cpu(h), h->bmap.len);
		/* The slots were filled from the caller's buffer first, so copying
		 * all back after a short transfer returns only the caller's own bytes
		 * beyond bytes_xfered. */
		(void)mmchal_bounce_unmap(h->bounce, &h->bmap, true);
		return;
	}
	if (MMCHAL_WITH_IOMMU && h->plan.iommu && mmchal_iommu_unmap(h->dom, &h->map) != 0)
		h->flags |= HF_UNMAP_ERR;
	if (cache) {
		for (uint32_t i = 0; i < d->sg_len; i++)
			h->port.ops->cache_invalidate(h->port.ctx, d->sg[i].cpu, d->sg[i].len);
	}
}

static CORE_INLINE_ void count_plan(struct mmchal_host *h)
{
	HSTAT_ADD_(h, plan[h->plan.plan], 1);
	HSTAT_ADD_(h, reason[h->plan.plan][h->plan.reason], 1);
	HSTAT_ADD_(h, nobounce[h->plan.nobounce], 1);
}

/* ------------------------------------------------------------ completion */

static CORE_INLINE_ int first_error(const struct mmchal_request *r)
{
	if (r->sbc && r->sbc->error)
		return r->sbc->error;
	if (r->cmd->error)
		return r->cmd->error;
	if (r->data && r->data->error)
		return r->data->error;
	if (r->stop && r->stop->error)
		return r->stop->error;
	return 0;
}

/* The counters of a request that did not go smoothly. */
static CORE_NOINLINE_ void count_trouble(struct mmchal_host *h, const struct mmchal_request *r)
{
	int err = first_error(r);

	if (err < 0 && -err < MMCHAL_HOST_ERR_SLOTS)
		HSTAT_ADD_(h, errors[-err], 1);
	if (h->flags & HF_UNMAP_ERR)
		HSTAT_ADD_(h, unmap_errors, 1);
	if (h->flags & HF_DEFER_INLINE)
		HSTAT_ADD_(h, defer_inline, 1);
}

/* Under the lock: counters, IDLE. Constant work. */
static CORE_INLINE_ struct mmchal_request *commit(struct mmchal_host *h)
{
	struct mmchal_request *r = h->req;

	HSTAT_ADD_(h, completed, 1);
	if (r->data)
		HSTAT_ADD_(h, bytes, r->data->bytes_xfered);
	if (MMCHAL_WITH_STATS && (h->flags & HF_COUNTED))
		count_trouble(h, r);
	h->flags = 0;
	h->req = NULL;
	h->cur = NULL;
	h->state = HS_IDLE;
	h->done_seq++;
	return r;
}

/* Under the lock, state DONE with HF_RETRY: restart the request by PIO. */
static bool restart_pio(struct mmchal_host *h)
{
	struct mmchal_request *r = h->req;

	h->flags = (h->flags & ~(HF_RETRY | HF_ERR)) | HF_RETRIED;
	HSTAT_ADD_(h, pio_retries, 1);
	(void)mmchal_dma_fallback_(&h->penv, r->data, MMCHAL_PR_RETRY, &h->plan);
	count_plan(h);
	h->nsegs = 0;
	if (r->sbc)
		r->sbc->error = 0;
	if (r->stop)
		r->stop->error = 0;
	r->cmd->error = 0;
	r->data->error = 0;
	r->data->bytes_xfered = 0;
	return begin(h);
}

static bool all_cpu(const struct mmchal_data *d)
{
	for (uint32_t i = 0; i < d->sg_len; i++) {
		if (!d->sg[i].cpu)
			return false;
	}
	return true;
}

/*
 * The completion work of a request in DONE, owned by the caller. With
 * @p locked the lock is held (IRQ_LOCKED) and stays held until the commit;
 * otherwise it is taken only for the retry restart and the commit. Returns
 * false when the request was restarted by PIO instead (it is running again
 * and its done comes later), true when it completed.
 */
static CORE_INLINE_ bool complete(struct mmchal_host *h, mmchal_irqflags_t f, bool locked)
{
	struct mmchal_request *r;

	for (;;) {
		release_data(h);
		if ((h->flags & HF_RETRY) && !all_cpu(h->req->data))
			h->flags &= ~HF_RETRY; /* the state is DONE: flags are ours */
		if (!(h->flags & HF_RETRY))
			break;
		if (!locked)
			f = host_lock_(h);
		if (!restart_pio(h)) {
			host_unlock_(h, f);
			return false;
		}
		if (!locked)
			host_unlock_(h, f);
	}
	if (!locked)
		f = host_lock_(h);
	r = commit(h);
	host_unlock_(h, f);
	if (r->done)
		r->done(r);
	return true;
}

#if MMCHAL_WITH_IRQ
static void deferred_complete(void *arg)
{
	(void)complete(arg, 0, false);
}

/* Called with the lock held; drops it. @p in_irq: interrupt context. */
static CORE_INLINE_ int finish(struct mmchal_host *h, mmchal_irqflags_t f, bool fin, bool in_irq)
{
	enum mmchal_completion_policy pol = h->limits.policy;

	if (!fin) {
		host_unlock_(h, f);
		return 0;
	}
	/* Nothing to unmap, copy or invalidate and no retry: the commit is the
	 * whole completion, in this lock section, under every policy
	 * (IRQ_LOCKED's own way; DEFERRED still defers the callback out of the
	 * interrupt). */
	if ((h->flags & (HF_RETRY | HF_NO_RELEASE)) == HF_NO_RELEASE &&
	    (pol != MMCHAL_POLICY_DEFERRED || !in_irq)) {
		struct mmchal_request *r = commit(h);

		host_unlock_(h, f);
		if (r->done)
			r->done(r);
		return 1;
	}
	/* A PIO retry is no completion: the caller keeps waiting for this request. */
	if (pol == MMCHAL_POLICY_IRQ_LOCKED)
		return complete(h, f, true) ? 1 : 0;
	host_unlock_(h, f);
	if (pol == MMCHAL_POLICY_DEFERRED && in_irq) {
		if (h->port.ops->schedule_work(h->port.ctx, deferred_complete, h) == 0)
			return 1;
		/* The state is DONE and owned here: no other context writes flags. */
		h->flags |= HF_DEFER_INLINE;
	}
	return complete(h, 0, false) ? 1 : 0;
}
#else
/*
 * Called with the lock held; drops it. A library without the interrupt path
 * (MMCHAL_WITH_IRQ 0, config.h) completes every request as the POLLED policy
 * does, in the caller's context, whatever policy the limits name: it never
 * holds the lock through the completion work and never defers it. @p in_irq
 * is false on every path that is built.
 */
static CORE_INLINE_ int finish(struct mmchal_host *h, mmchal_irqflags_t f, bool fin, bool in_irq)
{
	(void)in_irq;
	host_unlock_(h, f);
	if (!fin)
		return 0;
	/* A PIO retry is no completion: the caller keeps waiting for this request. */
	return complete(h, 0, false) ? 1 : 0;
}
#endif

/* ------------------------------------------------------------ entries */

/*
 * The backend saw a card inserted or removed, or the SDIO card signalled (the
 * backend disabled its interrupt with the report): count each, then tell the
 * owner with no lock held, card change first. A build without SDIO functions
 * (config.h) never turns the SDIO interrupt on, and has no such owner.
 */
static CORE_NOINLINE_ void tell_owner(struct mmchal_host *h, uint32_t ev)
{
	mmchal_irqflags_t f = host_lock_(h);

	if (ev & MMCHAL_EV_CARD_CHANGE)
		HSTAT_ADD_(h, card_changes, 1);
#if MMCHAL_WITH_SDIO
	if (ev & MMCHAL_EV_SDIO_IRQ)
		HSTAT_ADD_(h, sdio_irqs, 1);
#endif
	host_unlock_(h, f);
	if ((ev & MMCHAL_EV_CARD_CHANGE) && h->card_change)
		h->card_change(h->card_change_arg);
#if MMCHAL_WITH_SDIO
	if ((ev & MMCHAL_EV_SDIO_IRQ) && h->sdio_irq)
		h->sdio_irq(h->sdio_irq_arg);
#endif
}

/* Under the lock: the backend's pending events; with a request running, its
 * step on them (true: the request is DONE and the caller owns it; a step
 * that returns false leaves it running), else a request event is counted as
 * spurious. */
static CORE_INLINE_ bool take_events(struct mmchal_host *h, uint32_t *ev)
{
	if (h->be_irq(h->be.ctx, ev) != 0)
		*ev = 0;
	if (running(h->state))
		return step(h, h->state, *ev);
	if (*ev & EV_REQUEST)
		HSTAT_ADD_(h, spurious, 1);
	return false;
}

/* After the lock is dropped: tell the owner of a card change and of an SDIO
 * interrupt among @p ev. */
static CORE_INLINE_ int after_events(struct mmchal_host *h, uint32_t ev, int ret)
{
	if (ev & (MMCHAL_EV_CARD_CHANGE | MMCHAL_EV_SDIO_IRQ))
		tell_owner(h, ev);
	return ret;
}

#if MMCHAL_WITH_IRQ
int mmchal_host_irq(struct mmchal_host *h)
{
	mmchal_irqflags_t f;
	uint32_t ev = 0;
	bool fin;

	if (!host_live_(h))
		return MMCHAL_EINVAL;
	f = host_lock_(h);
	fin = take_events(h, &ev);
	return after_events(h, ev, finish(h, f, fin, true));
}
#else
/* No interrupt path: the backend is not asked for its status, nothing moves
 * (host_core.h); mmchal_host_poll() does what this entry would. */
int mmchal_host_irq(struct mmchal_host *h)
{
	return host_live_(h) ? MMCHAL_ENOTSUP : MMCHAL_EINVAL;
}
#endif

int mmchal_host_poll(struct mmchal_host *h)
{
	mmchal_irqflags_t f;
	uint32_t ev = 0;
	bool fin;

	if (!host_live_(h))
		return MMCHAL_EINVAL;
	f = host_lock_(h);
	fin = take_events(h, &ev);
	if (!fin && !running(h->state)) {
		host_unlock_(h, f);
		return after_events(h, ev, 0);
	}
	if (!fin && h->state == HS_BUSY && !(h->caps.host.bus & MMCHAL_BUS_HW_BUSY)) {
		int busy = h->be.ops->card_busy(h->be.ctx);

		h->busy_polls++;
		if (busy <= 0) {
			if (busy < 0) {
				h->cur->error = busy;
				h->flags |= HF_ERR;
			}
			fin = to_done(h);
		}
	}
	if (!fin && now_ns(h) >= h->deadline_ns)
		fin = expire(h, MMCHAL_ETIMEDOUT);
	return after_events(h, ev, finish(h, f, fin, false));
}

int mmchal_host_abort(struct mmchal_host *h)
{
	mmchal_irqflags_t f;
	uint32_t s;

	if (!host_live_(h))
		return MMCHAL_EINVAL;
	f = host_lock_(h);
	s = h->state;
	if (!running(s)) {
		host_unlock_(h, f);
		return s == HS_IDLE ? MMCHAL_ENOENT : s == HS_PREP ? MMCHAL_EBUSY : MMCHAL_EALREADY;
	}
	h->flags &= ~HF_RETRY;
	(void)expire(h, MMCHAL_ECANCELED);
	(void)finish(h, f, true, false);
	return 0;
}

static void count_invalid(struct mmchal_host *h)
{
	mmchal_irqflags_t f;

	if (!MMCHAL_WITH_STATS)
		return;
	f = host_lock_(h);
	HSTAT_ADD_(h, rejected_invalid, 1);
	host_unlock_(h, f);
}

/* Give the host back after a request that never started. */
static void unclaim(struct mmchal_host *h)
{
	mmchal_irqflags_t f = host_lock_(h);

	h->flags = 0;
	h->req = NULL;
	h->state = HS_IDLE;
	host_unlock_(h, f);
}

/* The full checks, for what the fast path could not prove (kept out of line). */
static CORE_NOINLINE_ bool exact_ok(struct mmchal_host *h, const struct mmchal_request *req,
				    struct mmchal_sg_summary *sum)
{
	struct mmchal_req_check_info why;

	if (MMCHAL_WITH_STATS) /* only count_slow_start() reads the mark */
		h->flags |= HF_FULL_CHECK;
	if (mmchal_request_check(req, &h->limits, &why) != 0)
		return false;
	*sum = why.sum;
	return true;
}

/* Under the lock: the counters of a request that left the fast path. */
static CORE_NOINLINE_ void count_slow_start(struct mmchal_host *h)
{
	if (h->flags & HF_FALLBACK)
		HSTAT_ADD_(h, map_fallbacks, 1);
	if (h->flags & HF_FULL_CHECK)
		HSTAT_ADD_(h, full_checks, 1);
	if (h->flags & HF_FULL_PLAN)
		HSTAT_ADD_(h, full_plans, 1);
	if (h->flags & HF_FULL_MAP)
		HSTAT_ADD_(h, full_map_checks, 1);
}

int mmchal_host_request(struct mmchal_host *h, struct mmchal_request *req)
{
	struct mmchal_sg_summary sum;
	mmchal_irqflags_t f;
	int err;

	if (!host_live_(h) || !req || !req->cmd)
		return MMCHAL_EINVAL;
	/* 1. Claim the host: one request in flight, a second changes nothing. */
	f = host_lock_(h);
	if (h->state != HS_IDLE) {
		HSTAT_ADD_(h, rejected_busy, 1);
		host_unlock_(h, f);
		return MMCHAL_EBUSY;
	}
	h->state = HS_PREP;
	h->req = req;
	h->flags = 0;
	host_unlock_(h, f);

	/* 2. Validate everything before any mapping or register access. */
	if (!(MMCHAL_FAST_PATH && (h->lean_sum ? quick_ok_as(req, &h->limits, &sum, true)
					       : quick_ok_as(req, &h->limits, &sum, false))) &&
	    !exact_ok(h, req, &sum))
		goto invalid;
	if (req->sbc)
		req->sbc->error = 0;
	if (req->stop)
		req->stop->error = 0;
	req->cmd->error = 0;
	/* An open-ended transfer on a controller that ends it by itself (Linux
	 * tmio_mmc_start_command: auto CMD12 only for a plain CMD12 without an
	 * argument). */
	if (req->stop && !req->sbc && req->data && req->data->blocks > 1u &&
	    (h->caps.host.bus & MMCHAL_BUS_AUTO_CMD12) && req->stop->opcode == 12u &&
	    req->stop->arg == 0)
		h->flags |= HF_AUTO_STOP;
	/* 3. Plan, 4. map or bounce, with cache maintenance. */
	if (req->data) {
		/* the check made the summary; the environment is the host's own */
		if (plan_data(h, req->data, &sum) != 0)
			goto invalid;
		req->data->error = 0;
		req->data->bytes_xfered = 0;
		err = map_data(h, req->data);
		if (err != 0) {
			unclaim(h);
			return err;
		}
	} else {
		h->plan.plan = MMCHAL_PLAN_PIO;
		h->plan.iommu = false;
		h->nsegs = 0;
		h->flags |= HF_NO_RELEASE;
	}
	/* 5. Start: the backend sees the request only now. */
	f = host_lock_(h);
	if (req->data)
		count_plan(h);
	if (MMCHAL_WITH_STATS && (h->flags & HF_START_COUNTED))
		count_slow_start(h);
	HSTAT_ADD_(h, requests, 1);
	if (begin(h)) {
		/* the backend refused the first command: unwind, no completion */
		err = first_error(req);
		HSTAT_SUB_(h, requests, 1);
		host_unlock_(h, f);
		release_data(h);
		unclaim(h);
		return err;
	}
	host_unlock_(h, f);
	return 0;
invalid:
	unclaim(h);
	count_invalid(h);
	return MMCHAL_EINVAL;
}

int mmchal_host_request_sync(struct mmchal_host *h, struct mmchal_request *req, uint32_t timeout_ms)
{
	mmchal_irqflags_t f;
	uint64_t seq, deadline = 0;
	bool done;
	int err;

	if (!host_live_(h) || !req || !req->cmd)
		return MMCHAL_EINVAL;
	f = host_lock_(h);
	seq = h->done_seq;
	host_unlock_(h, f);
	err = mmchal_host_request(h, req);
	if (err != 0)
		return err;
	if (timeout_ms != 0) {
		uint64_t t = now_ns(h);

		deadline = t + ms_to_ns(timeout_ms);
	}
	for (;;) {
		(void)mmchal_host_poll(h);
		f = host_lock_(h);
		done = h->done_seq != seq;
		if (!done && deadline != 0 && running(h->state) && now_ns(h) >= deadline) {
			/* from here on the host's own timeouts bound a STOP */
			deadline = 0;
			h->flags &= ~HF_RETRY;
			(void)finish(h, f, expire(h, MMCHAL_ETIMEDOUT), false);
			continue;
		}
		host_unlock_(h, f);
		if (done)
			break;
		h->port.ops->delay_us(h->port.ctx, 1);
	}
	return first_error(req);
}
