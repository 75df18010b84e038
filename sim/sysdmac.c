/*
 * SYS-DMAC channel pair reached through the platform DMA-channel ops. A
 * channel chains up to sysdmac_max_segs descriptors and moves data between
 * them and the SDHI data port while CC_EXT_MODE enables DMA requests. The
 * completion callback is queued and runs between accesses.
 */
#include "sim_priv.h"

static uint64_t port_addr(const struct mmchal_sim *sim, enum mmchal_dir dir)
{
	uint64_t a = sim->cfg.reg_phys + ((uint64_t)SD_BUF0 << sim->cfg.bus_shift);

	return dir == MMCHAL_DIR_FROM_CARD ? a + sim->cfg.rx_port_offset : a;
}

static int ch_caps(void *ctx, struct mmchal_dma_dir_caps *caps)
{
	struct sim_chan *ch = ctx;
	const struct mmchal_sim_config *cfg = &ch->sim->cfg;

	if (!caps)
		return MMCHAL_EINVAL;
	memset(caps, 0, sizeof(*caps));
	caps->addr_bits = cfg->sysdmac_addr_bits;
	caps->addr_align = 1;
	caps->len_granule = 1;
	caps->max_segs = cfg->sysdmac_max_segs;
	caps->max_seg_size = cfg->sysdmac_max_seg;
	caps->coherent = true;
	return 0;
}

static int ch_prepare(void *ctx, const struct mmchal_dma_xfer *xfer)
{
	struct sim_chan *ch = ctx;
	struct mmchal_sim *sim = ch->sim;
	uint64_t limit = sim->cfg.sysdmac_addr_bits >= 64
				 ? UINT64_MAX
				 : (1ull << sim->cfg.sysdmac_addr_bits) - 1u;
	uint64_t total = 0;

	if (!xfer || !xfer->segs || !xfer->done || xfer->dir != ch->dir || !xfer->nsegs)
		return MMCHAL_EINVAL;
	if (ch->state == CH_RUNNING)
		return MMCHAL_EBUSY;
	if (xfer->nsegs > sim->cfg.sysdmac_max_segs)
		return MMCHAL_ERANGE;
	if (xfer->dev_addr != port_addr(sim, ch->dir))
		return MMCHAL_EINVAL;
	if (xfer->dev_width != 1 && xfer->dev_width != 2 && xfer->dev_width != 4 &&
	    xfer->dev_width != 8)
		return MMCHAL_EINVAL;
	for (uint32_t i = 0; i < xfer->nsegs; i++) {
		const struct mmchal_dma_seg *s = &xfer->segs[i];

		if (!s->len || s->len > sim->cfg.sysdmac_max_seg || s->addr > limit ||
		    s->len - 1u > limit - s->addr)
			return MMCHAL_ERANGE;
		total += s->len;
	}
	memcpy(ch->segs, xfer->segs, xfer->nsegs * sizeof(*ch->segs));
	ch->seg = 0;
	ch->seg_off = 0;
	ch->total = total;
	ch->moved = 0;
	ch->done = xfer->done;
	ch->done_arg = xfer->done_arg;
	ch->state = CH_PREPARED;
	ch->width = xfer->dev_width;
	return 0;
}

static int ch_submit(void *ctx)
{
	struct sim_chan *ch = ctx;

	if (ch->state != CH_PREPARED)
		return MMCHAL_EINVAL;
	ch->state = CH_RUNNING;
	data_pump_(ch->sim);
	return 0;
}

static int ch_terminate(void *ctx)
{
	struct sim_chan *ch = ctx;

	ch->state = CH_IDLE;
	return 0;
}

static const struct mmchal_dma_chan_ops chan_ops = {
	.get_caps = ch_caps,
	.prepare = ch_prepare,
	.submit = ch_submit,
	.terminate = ch_terminate,
};

int mmchal_sim_sysdmac(struct mmchal_sim *sim, enum mmchal_dir dir, struct mmchal_dma_chan *out)
{
	if (!sim || !out || (dir != MMCHAL_DIR_TO_CARD && dir != MMCHAL_DIR_FROM_CARD))
		return MMCHAL_EINVAL;
	out->ops = &chan_ops;
	out->ctx = &sim->chan[dir];
	return 0;
}

static void finish(struct sim_chan *ch, int status)
{
	ch->state = CH_IDLE;
	sim_queue_done_(ch->sim, ch->done, ch->done_arg, status);
}

bool sysdmac_move_(struct mmchal_sim *sim, uint8_t *buf, uint32_t len, bool read, uint32_t block)
{
	struct sim_chan *ch = &sim->chan[read ? MMCHAL_DIR_FROM_CARD : MMCHAL_DIR_TO_CARD];
	uint32_t done = 0;

	if (ch->state != CH_RUNNING)
		return false;
	if (ch->width != sdhi_port_width_(sim)) {
		/* The engine's access size does not match the port: an illegal access. */
		sim->cnt.bad_accesses++;
		sdhi_set_status_(sim, ST_ILL_ACCESS);
		finish(ch, MMCHAL_EFAULT);
		return false;
	}
	if (data_take_fault_(sim, MMCHAL_SIM_FAULT_DMA_ERROR, block)) {
		finish(ch, MMCHAL_EFAULT);
		return false;
	}
	if (sim->iommu && data_take_fault_(sim, MMCHAL_SIM_FAULT_IOMMU, block))
		sim->iommu->inject = true;
	/* A block the descriptors cannot hold stays in the buffer for the CPU. */
	if (ch->total - ch->moved < len)
		return false;
	while (done < len) {
		const struct mmchal_dma_seg *s = &ch->segs[ch->seg];
		uint32_t n = s->len - ch->seg_off;

		if (n > len - done)
			n = len - done;
		if (dma_access_(sim, s->addr + ch->seg_off, buf + done, n, read) < 0) {
			finish(ch, MMCHAL_EFAULT);
			return false;
		}
		done += n;
		ch->seg_off += n;
		if (ch->seg_off == s->len) {
			ch->seg++;
			ch->seg_off = 0;
		}
	}
	ch->moved += len;
	sim->cnt.sysdmac_bytes += len;
	if (ch->moved == ch->total)
		finish(ch, 0);
	return true;
}

void sysdmac_free_(struct mmchal_sim *sim)
{
	for (unsigned i = 0; i < MMCHAL_DIR_COUNT; i++) {
		free(sim->chan[i].segs);
		sim->chan[i].segs = NULL;
	}
}
