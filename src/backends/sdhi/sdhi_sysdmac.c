/**
 * @file
 * @brief The SDHI SYS-DMAC backend (R-Car Gen2, Gen1, SH-Mobile with `dmas`).
 *
 * The data moves through the data port (SD_BUF0), carried by the platform's
 * DMA channels; the read channel uses the port's alias at the SoC's
 * dma_rx_offset (+0x2000 on Gen2). The Linux rules for this engine
 * (renesas_sdhi_sys_dmac.c) are declared as capabilities so that the planner
 * applies them: odd lengths and odd offsets go PIO (2-byte granule and
 * alignment), transfers under 8 bytes go PIO, and a single unaligned buffer
 * is left to the planner's bounce path. A channel that fails prepare or
 * submit makes that one request PIO, counted in the statistics; the next
 * request tries DMA again.
 *
 * @note The channel's completion callback runs in the DMA engine's context;
 *       it only records the status and calls the configured notify hook, so
 *       that the platform runs the host's interrupt path: a read's channel
 *       may finish after the controller's access end, and only both end it.
 */
#include "sdhi_priv.h"

#define SYSDMAC_GRANULE 2u /* odd lengths / offsets: PIO (Linux) */
#define SYSDMAC_MIN_LEN 8u /* shorter: PIO (Linux) */

static void sysdmac_probe(struct mmchal_sdhi *s)
{
	(void)s;
}

static uint32_t at_least(uint32_t v, uint32_t min)
{
	return v < min ? min : v;
}

static void sysdmac_caps(struct mmchal_sdhi *s, struct mmchal_dma_caps *dma)
{
	dma->kind = MMCHAL_DMA_EXTERNAL;
	for (unsigned int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		const struct mmchal_dma_chan *ch = &s->cfg.chan[d];
		struct mmchal_dma_dir_caps *c = &dma->dir[d];

		if (ch->ops->get_caps(ch->ctx, c) != 0 || c->max_segs == 0 ||
		    c->max_seg_size == 0) {
			/* A channel that cannot describe itself is not used. */
			dma->kind = MMCHAL_DMA_NONE;
			return;
		}
		c->addr_align = at_least(c->addr_align, SYSDMAC_GRANULE);
		c->len_granule = at_least(c->len_granule, SYSDMAC_GRANULE);
		c->min_len = at_least(c->min_len, SYSDMAC_MIN_LEN);
		if (c->max_segs > s->cfg.soc->max_segs)
			c->max_segs = s->cfg.soc->max_segs;
	}
}

static int sysdmac_check(struct mmchal_sdhi *s, const struct mmchal_xfer *x)
{
	uint64_t total = (uint64_t)x->data->blksz * x->data->blocks;

	if (x->nsegs > s->cfg.soc->max_segs || total < SYSDMAC_MIN_LEN)
		return MMCHAL_EINVAL;
	for (uint32_t i = 0; i < x->nsegs; i++)
		if ((x->segs[i].addr | x->segs[i].len) & (SYSDMAC_GRANULE - 1u))
			return MMCHAL_EINVAL;
	return 0;
}

static void sysdmac_done(void *arg, int status)
{
	struct mmchal_sdhi *s = arg;

	s->dma_status = status;
	s->dma_done = true;
	if (s->cfg.dma_notify != NULL)
		s->cfg.dma_notify(s->cfg.dma_notify_arg);
}

static int sysdmac_arm(struct mmchal_sdhi *s, const struct mmchal_xfer *x)
{
	enum mmchal_dir dir = x->data->dir;
	const struct mmchal_dma_chan *ch = &s->cfg.chan[dir];
	struct mmchal_dma_xfer *t = &s->dxfer;

	t->dir = dir;
	t->segs = x->segs;
	t->nsegs = x->nsegs;
	/* SD_BUF0 << bus_shift (at most 2) fits 32 bits */
	t->dev_addr = s->cfg.reg_dma + (SDHI_BUF0 << s->cfg.bus.bus_shift);
	if (dir == MMCHAL_DIR_FROM_CARD)
		t->dev_addr += s->cfg.soc->dma_rx_offset;
	t->dev_width = s->port_width;
	t->done = sysdmac_done;
	t->done_arg = s;
	s->dma_done = false;
	s->dma_status = 0;
	if (ch->ops->prepare(ch->ctx, t) == 0 && ch->ops->submit(ch->ctx) == 0)
		return 0;
	ch->ops->terminate(ch->ctx);
	/* A bounced read cannot be served by PIO into the caller's buffers: the core
	   copies the bounce region back over them afterwards. */
	if (x->plan == MMCHAL_PLAN_BOUNCED && dir == MMCHAL_DIR_FROM_CARD) {
		if (MMCHAL_WITH_STATS)
			s->stats.dma_errors++;
		return MMCHAL_EFAULT;
	}
	if (MMCHAL_WITH_STATS)
		s->stats.pio_fallbacks++;
	return 1;
}

static void sysdmac_go(struct mmchal_sdhi *s)
{
	(void)s; /* submitted before the command: moves on the port's DMA requests */
}

static int sysdmac_poll(struct mmchal_sdhi *s)
{
	if (!s->dma_done)
		return 0;
	return s->dma_status < 0 ? MMCHAL_EFAULT : 1;
}

static void sysdmac_stop(struct mmchal_sdhi *s)
{
	const struct mmchal_dma_chan *ch =
		&s->cfg.chan[(s->state & SDHI_S_READ) ? MMCHAL_DIR_FROM_CARD : MMCHAL_DIR_TO_CARD];

	ch->ops->terminate(ch->ctx);
}

const struct mmchal_sdhi_engine mmchal_sdhi_sysdmac_engine_ = {
	.name = "sysdmac",
	.probe = sysdmac_probe,
	.caps = sysdmac_caps,
	.check = sysdmac_check,
	.arm = sysdmac_arm,
	.go = sysdmac_go,
	.poll = sysdmac_poll,
	.stop = sysdmac_stop,
};

static const struct mmchal_backend_ops sdhi_sysdmac_ops = SDHI_BACKEND_OPS_("sdhi-sysdmac");

int mmchal_sdhi_sysdmac_init(struct mmchal_sdhi *sdhi, const struct mmchal_sdhi_cfg *cfg,
			     struct mmchal_backend *out)
{
	if (cfg == NULL || cfg->soc == NULL || cfg->soc->kind != MMCHAL_SDHI_SYSDMAC)
		return MMCHAL_EINVAL;
	if (mmchal_dma_chan_check(&cfg->chan[MMCHAL_DIR_TO_CARD]) != 0 ||
	    mmchal_dma_chan_check(&cfg->chan[MMCHAL_DIR_FROM_CARD]) != 0)
		return MMCHAL_EINVAL;
	return mmchal_sdhi_setup_(sdhi, cfg, MMCHAL_SDHI_SYSDMAC, &mmchal_sdhi_sysdmac_engine_,
				  &sdhi_sysdmac_ops, out);
}
