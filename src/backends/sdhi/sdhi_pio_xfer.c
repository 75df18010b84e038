/**
 * @file
 * @brief SDHI PIO data mover: one block through the data port per call, for
 *        the PIO backend and for the DMA backends' PIO requests.
 *
 * The port is 16, 32 or 64 bits wide (HOST_MODE); byte k of a port word is
 * byte k of the data stream. A block whose length is not a multiple of the
 * port width (SDIO CMD53 of 1..511 bytes) ends with a partial word: only the
 * block's own bytes are stored on a read, and the unused bytes of the last
 * word are sent as 0 on a write, so no byte outside the caller's buffers is
 * ever read or written. The work per call is one block: the interrupts-off
 * time under IRQ_SPLIT or DEFERRED is bounded by the block size.
 *
 * @note Called from handle_irq with the host lock held.
 */
#include "sdhi_priv.h"

#include "core/mem.h"

static uint64_t port_rd(const struct mmchal_sdhi *s, uint32_t off)
{
	const struct mmchal_bus *b = &s->cfg.bus;

	switch (s->port_width) {
	case 8:
		return b->ops->read64(b->ctx, off);
	case 4:
		return b->ops->read32(b->ctx, off);
	default:
		return b->ops->read16(b->ctx, off);
	}
}

static void port_wr(const struct mmchal_sdhi *s, uint32_t off, uint64_t v)
{
	const struct mmchal_bus *b = &s->cfg.bus;

	switch (s->port_width) {
	case 8:
		b->ops->write64(b->ctx, off, v);
		break;
	case 4:
		b->ops->write32(b->ctx, off, (uint32_t)v);
		break;
	default:
		b->ops->write16(b->ctx, off, (uint16_t)v);
		break;
	}
}

/* Byte k of a port word is byte k of the stream: on a little-endian CPU the word is
   one fixed-size copy, elsewhere it is built by shifts. The 8 bytes of @p p hold the
   word zero-extended, so one function serves every port width. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PIO_LE 1
#else
#define PIO_LE 0
#endif

static uint64_t load_word(const uint8_t *p)
{
	uint64_t v = 0;

	if (PIO_LE) {
		memcpy(&v, p, sizeof(v));
		return v;
	}
	for (uint32_t k = 0; k < sizeof(v); k++)
		v |= (uint64_t)p[k] << (8u * k);
	return v;
}

static void store_word(uint8_t *p, uint64_t v)
{
	if (PIO_LE) {
		memcpy(p, &v, sizeof(v));
		return;
	}
	for (uint32_t k = 0; k < sizeof(v); k++)
		p[k] = (uint8_t)(v >> (8u * k));
}

/*
 * A whole block inside one sg entry, whole words, little-endian CPU: one tight loop per
 * port width. It is a speed path only: a build optimised for size (-Os, -Oz:
 * __OPTIMIZE_SIZE__) leaves it out, and such a block takes the word loop of
 * mmchal_sdhi_pio_block_(), with the same port accesses and the same bytes moved.
 */
#if PIO_LE && !defined(__OPTIMIZE_SIZE__)
#define PIO_FAST 1
#else
#define PIO_FAST 0
#endif

#if PIO_FAST
static void block_fast(const struct mmchal_sdhi *s, uint8_t *p, uint32_t len, bool read)
{
	const struct mmchal_bus_ops *ops = s->cfg.bus.ops;
	void *ctx = s->cfg.bus.ctx;
	const uint32_t off = SDHI_BUF0 << s->cfg.bus.bus_shift;
	uint32_t i;

	switch (s->port_width) {
	case 8:
		for (i = 0; i < len; i += 8) {
			uint64_t v;

			if (read) {
				v = ops->read64(ctx, off);
				memcpy(p + i, &v, sizeof(v));
			} else {
				memcpy(&v, p + i, sizeof(v));
				ops->write64(ctx, off, v);
			}
		}
		break;
	case 4:
		for (i = 0; i < len; i += 4) {
			uint32_t v;

			if (read) {
				v = ops->read32(ctx, off);
				memcpy(p + i, &v, sizeof(v));
			} else {
				memcpy(&v, p + i, sizeof(v));
				ops->write32(ctx, off, v);
			}
		}
		break;
	default:
		for (i = 0; i < len; i += 2) {
			uint16_t v;

			if (read) {
				v = ops->read16(ctx, off);
				memcpy(p + i, &v, sizeof(v));
			} else {
				memcpy(&v, p + i, sizeof(v));
				ops->write16(ctx, off, v);
			}
		}
		break;
	}
}
#endif

int mmchal_sdhi_pio_block_(struct mmchal_sdhi *s, bool read)
{
	const struct mmchal_data *d = s->data;
	const uint32_t off = SDHI_BUF0 << s->cfg.bus.bus_shift;
	const uint32_t w = s->port_width;
	uint32_t idx = s->sg_idx, pos = s->sg_off;

	if (s->blocks_done >= d->blocks)
		return MMCHAL_EIO; /* a buffer event beyond the last block */
#if PIO_FAST
	if (idx < d->sg_len && !(d->blksz & (w - 1u)) && d->sg[idx].len - pos >= d->blksz) {
		block_fast(s, (uint8_t *)d->sg[idx].cpu + pos, d->blksz, read);
		pos += d->blksz;
		if (pos == d->sg[idx].len) {
			idx++;
			pos = 0;
		}
		goto done;
	}
#endif
	for (uint32_t i = 0; i < d->blksz; i += w) {
		uint32_t n = d->blksz - i < w ? d->blksz - i : w;
		uint8_t tmp[8] = {0};

		if (idx >= d->sg_len)
			return MMCHAL_EIO; /* never past the list (checked at start) */
		/* The word goes through tmp: its n bytes (fewer than w only in the partial
		   last word of a short block) are copied in pieces that each stay inside one
		   entry, so only the block's own bytes are touched and the rest of a written
		   word is sent as 0. */
		if (read)
			store_word(tmp, port_rd(s, off));
		for (uint32_t k = 0; k < n;) {
			uint8_t *p;
			uint32_t len;

			if (idx >= d->sg_len)
				return MMCHAL_EIO;
			p = (uint8_t *)d->sg[idx].cpu + pos;
			len = d->sg[idx].len - pos;
			if (len > n - k)
				len = n - k;
			if (read)
				memcpy(p, tmp + k, len);
			else
				memcpy(tmp + k, p, len);
			k += len;
			pos += len;
			if (pos == d->sg[idx].len) {
				idx++;
				pos = 0;
			}
		}
		if (!read)
			port_wr(s, off, load_word(tmp));
	}
#if PIO_FAST
done:
#endif
	s->sg_idx = idx;
	s->sg_off = pos;
	s->blocks_done++;
	return 0;
}
