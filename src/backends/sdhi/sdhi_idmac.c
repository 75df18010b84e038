/**
 * @file
 * @brief The SDHI internal-DMAC backend (R-Car Gen3/Gen4, RZ/G2L, RZ/A2).
 *
 * One contiguous segment per transfer, start address aligned to 128 bytes
 * (Linux since Dec 2020), 32-bit addresses (Gen3 drives only 32-bit: U-Boot,
 * Zephyr). These are declared as DMA capabilities so that the planner never
 * hands over another segment, and still checked here. The data phase is
 * complete only once both the DMAC transfer end and the SDHI access end were
 * seen, or at the first error; a DMAC error resets the channel and reports
 * ::MMCHAL_EFAULT.
 *
 * @note See sdhi_common.c for the calling contexts of the ops.
 */
#include "sdhi_priv.h"

#define IDMAC_ALIGN    128u
#define IDMAC_ADDR_MAX 0xffffffffull
#define IDMAC_SEG_MAX  0xffffffffu

/* 32-bit access to one DM_* register (unshifted byte offset). */
static uint32_t dm_rd(const struct mmchal_sdhi *s, uint32_t off)
{
	return mmchal_bus_raw_rd32(&s->cfg.bus, off);
}

SDHI_NOINLINE_ static void dm_wr(const struct mmchal_sdhi *s, uint32_t off, uint32_t val)
{
	mmchal_bus_raw_wr32(&s->cfg.bus, off, val);
}

static uint32_t end_bit(const struct mmchal_sdhi *s, bool read)
{
	if (!read)
		return DM_INFO1_END_CH0;
	/* H3 ES1.x, M3-W ES1.0: read-channel end at bit 17 (U-Boot, TF-A). */
	return (s->flags & MMCHAL_SDHI_F_OLD_INFO1) ? DM_INFO1_END_CH1_OLD : DM_INFO1_END_CH1;
}

static void channel_reset(const struct mmchal_sdhi *s)
{
	/* Active-low channel resets: clear, then set (Linux abort_dma). */
	dm_wr(s, DM_CM_RST, ~(DM_RST_CH0 | DM_RST_CH1));
	dm_wr(s, DM_CM_RST, 0xffffffffu);
	dm_wr(s, DM_CM_INFO1, 0);
	dm_wr(s, DM_CM_INFO2, 0);
}

void mmchal_sdhi_idmac_probe_(struct mmchal_sdhi *s)
{
	channel_reset(s);
#if MMCHAL_WITH_IRQ
	/* Without the interrupt path the end and error bits are polled (idmac_poll())
	   and the masks are left masked from reset, as U-Boot does (sdhi_common.c). */
	dm_wr(s, DM_CM_INFO1_MASK, ~(DM_INFO1_END_CH0 | end_bit(s, true)));
	dm_wr(s, DM_CM_INFO2_MASK, ~(DM_INFO2_ERR_CH0 | DM_INFO2_ERR_CH1));
#endif
}

void mmchal_sdhi_idmac_caps_(struct mmchal_sdhi *s, struct mmchal_dma_caps *dma)
{
	dma->kind = MMCHAL_DMA_INTERNAL;
	for (unsigned int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		struct mmchal_dma_dir_caps *c = &dma->dir[d];

		c->addr_bits = 32;
		c->addr_align = IDMAC_ALIGN;
		c->max_segs = 1;
		c->max_seg_size = IDMAC_SEG_MAX;
		c->coherent = false;
	}
	/* One read channel in the whole SoC (Linux ONE_RX_ONLY): the library keeps no
	   state shared between controllers, so every read goes PIO there. */
	if (s->flags & MMCHAL_SDHI_F_ONE_RX_ONLY)
		dma->dir[MMCHAL_DIR_FROM_CARD].min_len = UINT32_MAX;
}

int mmchal_sdhi_idmac_check_(struct mmchal_sdhi *s, const struct mmchal_xfer *x)
{
	const struct mmchal_dma_seg *g = &x->segs[0];

	if (x->nsegs != 1 || (g->addr & (IDMAC_ALIGN - 1u)) || g->addr > IDMAC_ADDR_MAX ||
	    g->len - 1u > IDMAC_ADDR_MAX - g->addr)
		return MMCHAL_EINVAL;
	if ((s->flags & MMCHAL_SDHI_F_ONE_RX_ONLY) && x->data->dir == MMCHAL_DIR_FROM_CARD)
		return MMCHAL_EINVAL;
	return 0;
}

int mmchal_sdhi_idmac_arm_(struct mmchal_sdhi *s, const struct mmchal_xfer *x)
{
	const struct mmchal_bus *b = &s->cfg.bus;
	bool read = x->data->dir == MMCHAL_DIR_FROM_CARD;
	uint32_t mode = (read ? DM_MODE_CH1_READ : 0) | DM_MODE_BUS_64;

	/* Address increment, except on parts that only have fixed address mode. */
	if (!(s->flags & MMCHAL_SDHI_F_FIXED_ADDR))
		mode |= DM_MODE_ADDR_INCR;
	dm_wr(s, DM_CM_DTRAN_MODE, mode);
	/* One 64-bit write sets both halves (Linux writeq); else the low half only. */
	if (b->ops->write64 != NULL)
		b->ops->write64(b->ctx, DM_DTRAN_ADDR, x->segs[0].addr);
	else
		dm_wr(s, DM_DTRAN_ADDR, (uint32_t)x->segs[0].addr);
	return 0;
}

void mmchal_sdhi_idmac_go_(struct mmchal_sdhi *s)
{
	/* Started once the response is in (Linux issue tasklet, U-Boot dma_xfer). */
	dm_wr(s, DM_CM_DTRAN_CTRL, DM_CTRL_START);
}

int mmchal_sdhi_idmac_poll_(struct mmchal_sdhi *s)
{
	bool read = s->state & SDHI_S_READ;
	uint32_t end = end_bit(s, read), i1, i2;

	i1 = dm_rd(s, DM_CM_INFO1);
	if (i1 & end) {
		dm_wr(s, DM_CM_INFO1, ~end);
		return 1;
	}
	i2 = dm_rd(s, DM_CM_INFO2);
	if (i2 & (DM_INFO2_ERR_CH0 | DM_INFO2_ERR_CH1))
		return MMCHAL_EFAULT;
	return 0;
}

void mmchal_sdhi_idmac_stop_(struct mmchal_sdhi *s)
{
	channel_reset(s);
}

#if SDHI_ENG_IDMAC_ONLY
/* The common code calls the hooks directly (sdhi_priv.h): no table. */
#define IDMAC_ENGINE NULL
#else
#define IDMAC_ENGINE (&mmchal_sdhi_idmac_engine_)

const struct mmchal_sdhi_engine mmchal_sdhi_idmac_engine_ = {
	.name = "idmac",
	.probe = mmchal_sdhi_idmac_probe_,
	.caps = mmchal_sdhi_idmac_caps_,
	.check = mmchal_sdhi_idmac_check_,
	.arm = mmchal_sdhi_idmac_arm_,
	.go = mmchal_sdhi_idmac_go_,
	.poll = mmchal_sdhi_idmac_poll_,
	.stop = mmchal_sdhi_idmac_stop_,
};
#endif

static const struct mmchal_backend_ops sdhi_idmac_ops = SDHI_BACKEND_OPS_("sdhi-idmac");

int mmchal_sdhi_idmac_init(struct mmchal_sdhi *sdhi, const struct mmchal_sdhi_cfg *cfg,
			   struct mmchal_backend *out)
{
	if (cfg == NULL || cfg->soc == NULL || cfg->soc->kind != MMCHAL_SDHI_IDMAC)
		return MMCHAL_EINVAL;
	return mmchal_sdhi_setup_(sdhi, cfg, MMCHAL_SDHI_IDMAC, IDMAC_ENGINE, &sdhi_idmac_ops, out);
}
