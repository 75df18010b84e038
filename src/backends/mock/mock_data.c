/**
 * @file
 * @brief Mock controller: checking a transfer against the declared DMA
 *        capabilities, and moving the data of a completed phase block by block
 *        between the caller's buffers and the card.
 *
 * The PIO plan reads and writes @c data->sg through its CPU addresses; the
 * DMA plans resolve each device address range with the configured
 * @c dma_to_cpu hook. Every access stays inside one buffer or segment, and
 * inside the image.
 *
 * Locking: none; called from the backend ops, which the caller serialises.
 */
#include "mock_priv.h"

static uint64_t seg_end(mmchal_dma_addr_t addr, uint32_t len)
{
	return addr + len - 1u;
}

/* One DMA segment list against the engine's rules for its direction. */
static int check_segs(const struct mmchal_mock *m, const struct mmchal_xfer *x, uint64_t total)
{
	const struct mmchal_dma_dir_caps *c = &m->cfg.dma.dir[x->data->dir];
	uint64_t sum = 0, max_xfer;

	if (m->cfg.dma.kind == MMCHAL_DMA_NONE || !x->segs || x->nsegs == 0u)
		return MMCHAL_EINVAL;
	if (x->nsegs > c->max_segs)
		return MMCHAL_EINVAL;
	/* A merged or bounced transfer is one contiguous device range. */
	if ((x->plan == MMCHAL_PLAN_IOMMU_MERGED || x->plan == MMCHAL_PLAN_BOUNCED) &&
	    x->nsegs != 1u)
		return MMCHAL_EINVAL;
	for (uint32_t i = 0; i < x->nsegs; i++) {
		const struct mmchal_dma_seg *s = &x->segs[i];

		if (s->len == 0u || s->len > c->max_seg_size)
			return MMCHAL_EINVAL;
		if (s->addr > UINT64_MAX - (s->len - 1u))
			return MMCHAL_EINVAL;
		if (c->addr_align > 1u && (s->addr & (c->addr_align - 1u)))
			return MMCHAL_EINVAL;
		if (c->len_granule > 1u && (s->len & (c->len_granule - 1u)))
			return MMCHAL_EINVAL;
		if (c->addr_bits != 0u && c->addr_bits < 64u &&
		    (seg_end(s->addr, s->len) >> c->addr_bits))
			return MMCHAL_EINVAL;
		if (c->seg_boundary != 0u &&
		    (s->addr & ~c->seg_boundary) != (seg_end(s->addr, s->len) & ~c->seg_boundary))
			return MMCHAL_EINVAL;
		sum += s->len;
	}
	if (sum != total)
		return MMCHAL_EINVAL;
	if (c->min_len != 0u && total < c->min_len)
		return MMCHAL_EINVAL;
	max_xfer = c->max_xfer ? c->max_xfer : (uint64_t)c->max_segs * c->max_seg_size;
	if (total > max_xfer)
		return MMCHAL_EINVAL;
	return 0;
}

/*
 * A transfer as the core hands it over: a command 0..63; with data, a known
 * direction, a block size and count, and either a PIO list whose CPU buffers
 * add up to the data length or a DMA list the declared engine can take.
 */
int mock_check_xfer_(const struct mmchal_mock *m, const struct mmchal_xfer *x)
{
	const struct mmchal_data *d;
	uint64_t total, sum = 0;

	if (!x || !x->cmd || x->cmd->opcode > 63u)
		return MMCHAL_EINVAL;
	d = x->data;
	if (!d)
		return 0;
	if ((unsigned)d->dir >= MMCHAL_DIR_COUNT || d->blksz == 0u || d->blocks == 0u ||
	    (unsigned)x->plan >= MMCHAL_PLAN_COUNT)
		return MMCHAL_EINVAL;
	total = (uint64_t)d->blksz * d->blocks;
	if (total > UINT32_MAX)
		return MMCHAL_EINVAL;
	if (x->plan != MMCHAL_PLAN_PIO)
		return check_segs(m, x, total);
	if (!d->sg || d->sg_len == 0u)
		return MMCHAL_EINVAL;
	for (uint32_t i = 0; i < d->sg_len; i++) {
		if (!d->sg[i].cpu || d->sg[i].len == 0u)
			return MMCHAL_EINVAL;
		sum += d->sg[i].len;
	}
	return sum == total ? 0 : MMCHAL_EINVAL;
}

/* The device address as a CPU pointer value (the default dma_to_cpu). The
   range is part of a segment, which check_segs() has kept from wrapping 64
   bits; with pointers narrower than that, the range must also fit them. */
static void *addr_as_ptr(mmchal_dma_addr_t addr, uint32_t len)
{
	if (addr == 0u)
		return NULL;
#if UINTPTR_MAX < UINT64_MAX
	if (addr + (len - 1u) > UINTPTR_MAX)
		return NULL;
#else
	(void)len;
#endif
	return (void *)(uintptr_t)addr;
}

/* Walks the host side of the transfer: buffer or segment @c i, offset @c off. */
struct cursor {
	uint32_t i;
	uint32_t off;
};

static uint32_t host_len(const struct mmchal_xfer *x, uint32_t i)
{
	return x->plan == MMCHAL_PLAN_PIO ? x->data->sg[i].len : x->segs[i].len;
}

static uint8_t *host_ptr(struct mmchal_mock *m, const struct cursor *c, uint32_t n)
{
	const struct mmchal_xfer *x = &m->xfer;
	mmchal_dma_addr_t a;

	if (x->plan == MMCHAL_PLAN_PIO)
		return (uint8_t *)x->data->sg[c->i].cpu + c->off;
	a = x->segs[c->i].addr + c->off;
	if (m->cfg.dma_to_cpu)
		return m->cfg.dma_to_cpu(m->cfg.dma_ctx, a, n, x->data->dir);
	return addr_as_ptr(a, n);
}

/* @p n bytes at data-phase position @p pos between the card and @p p. */
static void card_access(struct mmchal_mock *m, uint64_t pos, uint8_t *p, uint32_t n, bool write)
{
	switch (m->src_kind) {
	case MOCK_SRC_IMAGE:
		if (write)
			memcpy(m->cfg.image + m->src_off + pos, p, n);
		else
			memcpy(p, m->cfg.image + m->src_off + pos, n);
		break;
	case MOCK_SRC_PAYLOAD:
		memcpy(p, m->payload + pos, n);
		break;
	case MOCK_SRC_EXT_CSD:
		memcpy(p, m->ext_csd + pos, n);
		break;
	default: /* MOCK_SRC_SDIO */
		for (uint32_t i = 0; i < n; i++) {
			uint32_t a = (uint32_t)(m->src_inc ? m->src_off + pos + i : m->src_off);

			mock_sdio_byte_(m, m->src_fn, a & 0x1ffffu, p + i, write);
		}
		break;
	}
}

/* One block: returns 0 or MMCHAL_EFAULT (nothing beyond the fault is touched). */
static int move_block(struct mmchal_mock *m, struct cursor *c, uint64_t pos, bool write)
{
	uint32_t need = m->xfer.data->blksz;

	while (need > 0u) {
		uint32_t avail = host_len(&m->xfer, c->i) - c->off;
		uint32_t n = avail < need ? avail : need;
		uint8_t *p = host_ptr(m, c, n);

		if (!p)
			return MMCHAL_EFAULT;
		card_access(m, pos, p, n, write);
		pos += n;
		need -= n;
		c->off += n;
		if (c->off == host_len(&m->xfer, c->i)) {
			c->i++;
			c->off = 0;
		}
	}
	return 0;
}

static bool fault_hits(struct mmchal_mock *m, uint32_t blk)
{
	if (m->dfault == MMCHAL_MOCK_DATA_NONE || blk != m->dfault_block)
		return false;
	if (m->dfault_count != 0u && --m->dfault_count == 0u)
		m->dfault = MMCHAL_MOCK_DATA_NONE;
	return true;
}

/*
 * The data phase of the transfer in flight: blocks in order until the host's
 * count, the card's part, a fault or a bus error ends it. Returns 0 or the
 * error for data->error; @p blocks gets the blocks moved.
 */
int mock_move_data_(struct mmchal_mock *m, uint32_t *blocks)
{
	const struct mmchal_data *d = m->xfer.data;
	bool write = d->dir == MMCHAL_DIR_TO_CARD;
	bool card_writes = m->state == MMCHAL_MOCK_ST_RCV;
	uint64_t total = (uint64_t)d->blksz * d->blocks, card_len = m->src_len;
	struct cursor c = {0, 0};
	uint32_t fault = m->dfault;

	*blocks = 0;
	/* The card sends nothing (refused command, wrong state): the host waits in vain. */
	if (m->src_kind == MOCK_SRC_NONE ||
	    (m->state != MMCHAL_MOCK_ST_DATA && m->state != MMCHAL_MOCK_ST_RCV))
		return MMCHAL_ETIMEDOUT;
	/* Direction or bus width disagree, or the host frames a fixed-size reply
	   differently: the CRCs do not match. */
	if (write != card_writes || m->ios.bus_width != m->width)
		return MMCHAL_EIO;
	if (m->src_kind == MOCK_SRC_IMAGE && d->blksz != MOCK_BLK)
		return MMCHAL_EIO;
	if (m->src_kind != MOCK_SRC_IMAGE && card_len != MOCK_LEN_OPEN && total != card_len)
		return MMCHAL_EIO;
	/* The card stops at its end. */
	if (m->src_kind == MOCK_SRC_IMAGE &&
	    (card_len == MOCK_LEN_OPEN || card_len > m->cfg.image_size - m->src_off))
		card_len = m->cfg.image_size - m->src_off;

	for (uint32_t b = 0; b < d->blocks; b++) {
		uint64_t pos = (uint64_t)b * d->blksz;
		int err;

		if (fault_hits(m, b)) {
			switch (fault) {
			case MMCHAL_MOCK_DATA_CRC:
				return MMCHAL_EIO;
			case MMCHAL_MOCK_DATA_TIMEOUT:
				return MMCHAL_ETIMEDOUT;
			case MMCHAL_MOCK_DATA_DMA:
				return MMCHAL_EFAULT;
			default: /* MMCHAL_MOCK_DATA_SHORT */
				return 0;
			}
		}
		if (card_len != MOCK_LEN_OPEN && pos + d->blksz > card_len) {
			if (m->src_kind == MOCK_SRC_IMAGE && m->src_off + pos >= m->cfg.image_size)
				m->pending |= MMCHAL_MOCK_R1_OUT_OF_RANGE;
			return MMCHAL_ETIMEDOUT;
		}
		err = move_block(m, &c, pos, write);
		if (err)
			return err;
		*blocks = b + 1u;
		if (m->src_kind == MOCK_SRC_IMAGE) {
			if (write)
				m->stats.blocks_written++;
			else
				m->stats.blocks_read++;
		}
	}
	return 0;
}
