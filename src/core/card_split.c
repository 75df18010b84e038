/**
 * @file
 * @brief Split a block transfer into requests that fit the host's limits.
 *
 * A caller's scatter-gather list may be longer than a request may carry, its
 * entries larger than max_seg_size or crossing seg_boundary. Each request
 * the splitter returns is a whole number of blocks, at most max_blocks, at
 * most max_segs entries, none larger than max_seg_size or crossing
 * seg_boundary, and (with a virt_boundary) every interior entry boundary
 * aligned to virt_boundary + 1, the rule the block layer keeps for a host
 * that merges segments behind an IOMMU (Linux blk_queue_virt_boundary).
 * Entries are cut where needed into the caller's scratch; when no entry is
 * cut the request points straight at the caller's list.
 *
 * Pure: no host access. Locking: none; any context.
 */
#include "core/card_priv.h"

int mmchal_card_sg_check_(const struct mmchal_sg *sg, uint32_t nsg, uint64_t bytes)
{
	uint64_t sum = 0;

	if (!sg || nsg == 0u)
		return MMCHAL_EINVAL;
	for (uint32_t i = 0; i < nsg; i++) {
		if (sg[i].len == 0u)
			return MMCHAL_EINVAL;
		sum += sg[i].len;
		if (sum > bytes)
			return MMCHAL_EINVAL;
	}
	return sum == bytes ? 0 : MMCHAL_EINVAL;
}

/* Move the cursor back by @n bytes (less than a block). */
static void rewind_cursor(struct mmchal_card_split_ *cur, uint32_t n)
{
	while (n) {
		if (cur->off >= n) {
			cur->off -= n;
			return;
		}
		n -= cur->off;
		cur->idx--;
		cur->off = cur->sg[cur->idx].len;
	}
}

static bool aligned(uint64_t addr, uint64_t mask)
{
	return (addr & mask) == 0u;
}

int mmchal_card_split_next_(struct mmchal_card_split_ *cur,
			    const struct mmchal_card_split_lim_ *lim, struct mmchal_sg *out,
			    uint32_t out_len, const struct mmchal_sg **list, uint32_t *nlist,
			    uint32_t *blocks)
{
	uint32_t max_segs = lim->max_segs < out_len ? lim->max_segs : out_len;
	uint64_t cap = (uint64_t)lim->max_blocks * MMCHAL_CARD_BLKSZ;
	uint64_t vb = lim->virt_boundary;
	uint32_t first = cur->idx;
	/* bytes still allowed; cap is a whole number of blocks, so the request
	   ends inside a block exactly when left does */
	uint64_t left = cap;
	uint64_t bytes;
	uint32_t n = 0;
	bool cut = cur->off != 0u;

	if (max_segs == 0u || lim->max_blocks == 0u || cur->idx >= cur->nsg)
		return MMCHAL_EINVAL;
	while (cur->idx < cur->nsg && left) {
		const struct mmchal_sg *e = &cur->sg[cur->idx];
		uint64_t addr = e->phys + cur->off;
		/* never more than one entry's length */
		uint32_t piece = e->len - cur->off;
		bool limited = false;

		if (n > 0u && vb) {
			const struct mmchal_sg *p = &out[n - 1u];

			/* entries that do not meet on virt_boundary can only be
			   in different requests, and a request ends on a block */
			if (!aligned(p->phys + p->len, vb) || !aligned(addr, vb)) {
				if (left % MMCHAL_CARD_BLKSZ)
					return MMCHAL_EINVAL;
				break;
			}
		}
		if (n == max_segs)
			break;
		if (piece > left)
			piece = (uint32_t)left;
		if (lim->max_seg_size && piece > lim->max_seg_size) {
			piece = lim->max_seg_size;
			limited = true;
		}
		if (lim->seg_boundary && lim->seg_boundary != UINT64_MAX) {
			uint64_t room = (lim->seg_boundary - (addr & lim->seg_boundary)) + 1u;

			if (piece > room) {
				piece = (uint32_t)room;
				limited = false;
			}
		}
		/* a cut made only for max_seg_size becomes an interior boundary:
		   keep it on virt_boundary when there is one */
		if (limited && vb) {
			uint64_t end = (addr + piece) & ~vb;

			if (end > addr)
				piece = (uint32_t)(end - addr);
		}
		if (piece != e->len)
			cut = true;
		out[n].cpu = e->cpu ? (uint8_t *)e->cpu + cur->off : NULL;
		out[n].phys = addr;
		out[n].len = piece;
		n++;
		left -= piece;
		cur->off += piece;
		if (cur->off == e->len) {
			cur->idx++;
			cur->off = 0;
		}
	}
	bytes = cap - left;
	/* stopped inside a block (segment count): give back the partial block */
	if (bytes % MMCHAL_CARD_BLKSZ) {
		uint32_t excess = (uint32_t)(bytes % MMCHAL_CARD_BLKSZ);

		if (excess == bytes) {
			rewind_cursor(cur, excess);
			return MMCHAL_EINVAL;
		}
		/* bytes keeps the excess: only bytes / 512 is used below */
		rewind_cursor(cur, excess);
		cut = true;
		while (excess) {
			if (out[n - 1u].len <= excess) {
				excess -= out[n - 1u].len;
				n--;
			} else {
				out[n - 1u].len -= excess;
				excess = 0;
			}
		}
	}
	*list = cut ? out : &cur->sg[first];
	*nlist = n;
	*blocks = (uint32_t)(bytes / MMCHAL_CARD_BLKSZ);
	return 0;
}
