/*
 * Scripted backend and recording port (see host_fixture.h).
 */
#include <string.h>

#include "core/host_fixture.h"

static void rec(struct rec_port *rp, enum rec_op op, uintptr_t addr, size_t len)
{
	if (rp->n < REC_LOG_MAX) {
		rp->log[rp->n].op = op;
		rp->log[rp->n].addr = addr;
		rp->log[rp->n].len = len;
		rp->n++;
	}
}

/* ------------------------------------------------------------------ backend */

static void check_locked(struct tb *tb)
{
	if (tb->port && tb->port->depth != 1)
		tb->locked_seen_unlocked = true;
}

static int tb_probe(void *ctx)
{
	struct tb *tb = ctx;

	return tb->probe_err;
}

static int tb_get_caps(void *ctx, struct mmchal_host_caps *host, struct mmchal_dma_caps *dma)
{
	struct tb *tb = ctx;

	if (tb->caps_err)
		return tb->caps_err;
	*host = tb->host;
	*dma = tb->dma;
	return 0;
}

static int tb_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	struct tb *tb = ctx;

	(void)ios;
	check_locked(tb);
	tb->nset_ios++;
	return 0;
}

/* Move the data of a completed data phase the way the plan says. */
static void move_data(struct tb *tb, const struct mmchal_xfer *x)
{
	const struct mmchal_data *d = x->data;
	uint32_t total = d->blksz * d->blocks;

	if (x->plan == MMCHAL_PLAN_PIO) {
		uint32_t off = 0;

		for (uint32_t i = 0; i < d->sg_len; i++) {
			unsigned char *p = d->sg[i].cpu;

			for (uint32_t j = 0; j < d->sg[i].len; j++, off++) {
				if (d->dir == MMCHAL_DIR_FROM_CARD)
					p[j] = (unsigned char)(tb->fill + off);
				else if (off < sizeof(tb->written))
					tb->written[off] = p[j];
			}
		}
		tb->nwritten = d->dir == MMCHAL_DIR_TO_CARD ? total : 0;
		return;
	}
	if (!tb->identity)
		return;
	{
		uint32_t off = 0;

		for (uint32_t i = 0; i < x->nsegs; i++) {
			unsigned char *p = (unsigned char *)(uintptr_t)x->segs[i].addr;

			for (uint32_t j = 0; j < x->segs[i].len; j++, off++) {
				if (d->dir == MMCHAL_DIR_FROM_CARD)
					p[j] = (unsigned char)(tb->fill + off);
				else if (off < sizeof(tb->written))
					tb->written[off] = p[j];
			}
		}
		tb->nwritten = d->dir == MMCHAL_DIR_TO_CARD ? total : 0;
	}
}

static int tb_start(void *ctx, const struct mmchal_xfer *x)
{
	struct tb *tb = ctx;
	struct tb_start *l = &tb->log[tb->nstart % TB_LOG_MAX];

	check_locked(tb);
	l->opcode = x->cmd->opcode;
	l->data = x->data != NULL;
	l->plan = x->plan;
	l->nsegs = x->nsegs;
	if (x->segs && x->nsegs)
		l->seg0 = x->segs[0];
	else
		memset(&l->seg0, 0, sizeof(l->seg0));
	tb->nstart++;
	tb->cur = *x;
	if (tb->start_err && x->cmd->opcode == tb->start_err_op) {
		if (tb->start_err_after == 0)
			return tb->start_err;
		tb->start_err_after--;
	}
	if (!tb->auto_complete)
		return 0;
	if (x->cmd->opcode == tb->fail_op) {
		if (tb->fail_ev == MMCHAL_EV_CMD_ERROR) {
			x->cmd->error = tb->fail_err;
			tb->pending |= MMCHAL_EV_CMD_ERROR;
		} else {
			x->data->error = tb->fail_err;
			tb->pending |= MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR;
		}
		if (tb->fail_once)
			tb->fail_op = 64;
		return 0;
	}
	tb->pending |= MMCHAL_EV_CMD_DONE;
	if (x->data && tb->auto_data) {
		move_data(tb, x);
		if (x->auto_stop && x->stop)
			x->stop->error = tb->auto_stop_err;
		tb->pending |= MMCHAL_EV_DATA_DONE;
	}
	if (!x->data && (x->cmd->flags & MMCHAL_RSP_BUSY) && (tb->host.bus & MMCHAL_BUS_HW_BUSY))
		tb->pending |= MMCHAL_EV_BUSY_DONE;
	return 0;
}

static int tb_handle_irq(void *ctx, uint32_t *events)
{
	struct tb *tb = ctx;

	check_locked(tb);
	tb->nirq++;
	*events = tb->pending;
	tb->pending = 0;
	return tb->irq_err;
}

static int tb_abort(void *ctx)
{
	struct tb *tb = ctx;

	check_locked(tb);
	tb->nabort++;
	tb->pending = 0;
	return 0;
}

static int tb_card_busy(void *ctx)
{
	struct tb *tb = ctx;

	check_locked(tb);
	if (!tb->has_card_busy)
		return MMCHAL_ENOTSUP;
	if (tb->busy_left > 0) {
		tb->busy_left--;
		return 1;
	}
	return 0;
}

static int tb_get_cd(void *ctx)
{
	(void)ctx;
	return 1;
}

static int tb_blocks_done(void *ctx, uint32_t *blocks)
{
	struct tb *tb = ctx;

	if (!tb->has_blocks_done)
		return MMCHAL_ENOTSUP;
	/* UINT32_MAX: every block of the transfer */
	*blocks = tb->blocks_done != UINT32_MAX ? tb->blocks_done
		  : tb->cur.data                ? tb->cur.data->blocks
						: 0;
	return tb->blocks_done_err;
}

const struct mmchal_backend_ops tb_ops = {
	.name = "scripted",
	.probe = tb_probe,
	.get_caps = tb_get_caps,
	.set_ios = tb_set_ios,
	.start = tb_start,
	.handle_irq = tb_handle_irq,
	.abort = tb_abort,
	.card_busy = tb_card_busy,
	.get_cd = tb_get_cd,
	.blocks_done = tb_blocks_done,
};

void tb_init(struct tb *tb)
{
	memset(tb, 0, sizeof(*tb));
	tb->host.completion = MMCHAL_COMPLETES_IN_IRQ;
	tb->host.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_CMD23;
	tb->dma.kind = MMCHAL_DMA_NONE;
	tb->auto_complete = true;
	tb->auto_data = true;
	tb->fail_op = 64;
	tb->has_card_busy = true;
	tb->has_blocks_done = true;
	tb->blocks_done = UINT32_MAX;
	tb->fill = 0x40;
}

void tb_set_dma(struct tb *tb, enum mmchal_dma_kind kind, uint32_t max_segs, bool coherent)
{
	tb->dma.kind = kind;
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		memset(&tb->dma.dir[d], 0, sizeof(tb->dma.dir[d]));
		tb->dma.dir[d].max_segs = max_segs;
		tb->dma.dir[d].max_seg_size = 1u << 20;
		tb->dma.dir[d].coherent = coherent;
	}
}

/* ------------------------------------------------------------------ port */

static mmchal_irqflags_t rp_lock(void *ctx)
{
	struct rec_port *rp = ctx;

	if (rp->depth != 0)
		rp->bad_nesting = true;
	rp->depth++;
	rp->nlock++;
	if (rp->record_locks)
		rec(rp, REC_LOCK, 0, 0);
	return 0x5a;
}

static void rp_unlock(void *ctx, mmchal_irqflags_t f)
{
	struct rec_port *rp = ctx;

	if (rp->depth != 1 || f != 0x5a)
		rp->bad_nesting = true;
	rp->depth--;
	if (rp->record_locks)
		rec(rp, REC_UNLOCK, 0, 0);
	if (rp->on_unlock)
		rp->on_unlock(rp);
}

static uint64_t rp_now(void *ctx)
{
	struct rec_port *rp = ctx;

	rp->now += rp->step_ns;
	return rp->now;
}

static void rp_delay(void *ctx, uint32_t us)
{
	struct rec_port *rp = ctx;

	rp->now += (uint64_t)us * 1000u;
}

static void rp_clean(void *ctx, const void *a, size_t n)
{
	rec(ctx, REC_CLEAN, (uintptr_t)a, n);
}

static void rp_inval(void *ctx, void *a, size_t n)
{
	rec(ctx, REC_INVAL, (uintptr_t)a, n);
}

static int rp_work(void *ctx, mmchal_work_fn fn, void *arg)
{
	struct rec_port *rp = ctx;

	if (rp->work_err)
		return rp->work_err;
	rec(rp, REC_WORK, 0, 0);
	if (rp->work_now) {
		fn(arg);
		return 0;
	}
	rp->work_fn = fn;
	rp->work_arg = arg;
	return 0;
}

const struct mmchal_port_ops rec_ops_full = {
	.lock_irqsave = rp_lock,
	.unlock_irqrestore = rp_unlock,
	.now_ns = rp_now,
	.delay_us = rp_delay,
	.cache_clean = rp_clean,
	.cache_invalidate = rp_inval,
	.schedule_work = rp_work,
};

const struct mmchal_port_ops rec_ops_coherent = {
	.lock_irqsave = rp_lock,
	.unlock_irqrestore = rp_unlock,
	.now_ns = rp_now,
	.delay_us = rp_delay,
	.schedule_work = rp_work,
};

const struct mmchal_port_ops rec_ops_nolock = {
	.now_ns = rp_now,
	.delay_us = rp_delay,
};

void rec_init(struct rec_port *rp)
{
	memset(rp, 0, sizeof(*rp));
}

void rec_run_work(struct rec_port *rp)
{
	mmchal_work_fn fn = rp->work_fn;

	rp->work_fn = NULL;
	if (fn)
		fn(rp->work_arg);
}

uint32_t rec_count(const struct rec_port *rp, enum rec_op op)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < rp->n; i++)
		n += rp->log[i].op == op;
	return n;
}

bool fx_contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++) {
		if (strncmp(hay, needle, n) == 0)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------ IOMMU */

static int fi_caps(void *ctx, struct mmchal_iommu_caps *c)
{
	const struct fiommu *fi = ctx;

	memset(c, 0, sizeof(*c));
	c->present = true;
	c->page_size = 4096;
	c->merge_boundary = 0xfff;
	c->aperture_start = 0x1000;
	c->aperture_end = 0xffffffffu;
	if (fi && fi->top) {
		c->aperture_start = fi->top;
		c->aperture_end = UINT64_MAX - 4096u;
	}
	return 0;
}

static int fi_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
		  uint32_t prot)
{
	struct fiommu *fi = ctx;

	(void)prot;
	fi->maps++;
	for (int i = 0; i < FI_MAPS; i++) {
		if (fi->map[i].size == 0) {
			fi->map[i].iova = iova;
			fi->map[i].phys = phys;
			fi->map[i].size = size;
			break;
		}
	}
	/* a failing map may leave part of the range mapped: the caller unmaps it all */
	fi->pages += (int64_t)(size / 4096u);
	if (fi->fail_map_at != 0 && fi->maps == fi->fail_map_at)
		return MMCHAL_EFAULT;
	return 0;
}

static int fi_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct fiommu *fi = ctx;

	fi->unmaps++;
	for (int i = 0; i < FI_MAPS; i++) {
		if (fi->map[i].size != 0 && fi->map[i].iova >= iova &&
		    fi->map[i].iova + fi->map[i].size <= iova + size)
			fi->map[i].size = 0;
	}
	fi->pages -= (int64_t)(size / 4096u);
	return fi->unmap_err;
}

static int fi_flush(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct fiommu *fi = ctx;

	(void)iova;
	(void)size;
	fi->flushes++;
	return 0;
}

const struct mmchal_iommu_ops fiommu_ops = {
	.get_caps = fi_caps,
	.map = fi_map,
	.unmap = fi_unmap,
	.flush = fi_flush,
};

void *fx_dma_to_cpu(void *ctx, mmchal_dma_addr_t addr, uint32_t len, enum mmchal_dir dir)
{
	struct fiommu *fi = ctx;

	(void)dir;
	if (fi) {
		for (int i = 0; i < FI_MAPS; i++) {
			uint64_t b = fi->map[i].iova, n = fi->map[i].size;

			if (n != 0 && addr >= b && addr < b + n)
				return addr + len <= b + n
					       ? (void *)(uintptr_t)(fi->map[i].phys + (addr - b))
					       : NULL;
		}
	}
	return (void *)(uintptr_t)addr;
}
