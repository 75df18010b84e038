/**
 * @file
 * @brief Bounce pool: fixed-size slots, contiguous runs of up to
 *        slots_per_map slots per mapping, one bit per slot.
 *
 * Like swiotlb (IO_TLB_SHIFT 11, IO_TLB_SEGSIZE 128), a mapping never crosses
 * a group of slots_per_map slots, so a search looks at one group at a time
 * and the whole search is bounded by the pool size. The search starts where
 * the previous one ended (not at the start of that group) so that slots are
 * reused round-robin.
 *
 * Locking: none; the caller serialises. Any context.
 */
#include <mmchal/bounce.h>
#include <mmchal/error.h>

#include "core/mem.h"
#include "iommu/hints.h"

#define BMAP_MAPPED   0x424d4150u /* "BMAP" */
#define BMAP_UNMAPPED 0x42554e4du /* "BUNM" */

int mmchal_bounce_init(struct mmchal_bounce *b, const struct mmchal_bounce_cfg *cfg)
{
	uint32_t slot, per, shift = 0;
	size_t nslots;

	if (!b || !cfg || !cfg->mem || !cfg->meta)
		return MMCHAL_EINVAL;
	slot = cfg->slot_size ? cfg->slot_size : MMCHAL_BOUNCE_SLOT_SIZE_DEFAULT;
	per = cfg->slots_per_map ? cfg->slots_per_map : MMCHAL_BOUNCE_SLOTS_PER_MAP_DEFAULT;
	if ((slot & (slot - 1u)) != 0)
		return MMCHAL_EINVAL;
	nslots = cfg->size / slot;
	if (nslots > UINT32_MAX)
		nslots = UINT32_MAX;
	if (nslots < per || cfg->meta_size < MMCHAL_BOUNCE_META_BYTES(nslots))
		return MMCHAL_EINVAL;
	while ((1u << shift) != slot)
		shift++;
	memset(b, 0, sizeof(*b));
	b->mem = cfg->mem;
	b->dma = cfg->dma;
	b->used = cfg->meta;
	b->slot_size = slot;
	b->slot_shift = shift;
	b->slots_per_map = per;
	b->nslots = (uint32_t)nslots;
	memset(b->used, 0, MMCHAL_BOUNCE_META_BYTES(nslots));
	return 0;
}

int mmchal_bounce_get_caps(const struct mmchal_bounce *b, struct mmchal_bounce_caps *caps)
{
	if (!caps)
		return MMCHAL_EINVAL;
	if (b && b->slot_size == 0)
		return MMCHAL_EINVAL; /* never set up */
	memset(caps, 0, sizeof(*caps));
	if (!b)
		return 0;
	caps->present = true;
	caps->slot_size = b->slot_size;
	caps->slots_per_map = b->slots_per_map;
	caps->nslots = b->nslots;
	return 0;
}

static bool slot_used(const struct mmchal_bounce *b, uint32_t i)
{
	return (b->used[i / 32u] >> (i % 32u)) & 1u;
}

static IOMMU_OUTLINE_ void mark(struct mmchal_bounce *b, uint32_t first, uint32_t n, bool used)
{
	for (uint32_t i = first; i < first + n; i++) {
		if (used)
			b->used[i / 32u] |= 1u << (i % 32u);
		else
			b->used[i / 32u] &= ~(1u << (i % 32u));
	}
}

/* Device address of slot i. */
static inline uint64_t slot_dma(const struct mmchal_bounce *b, uint32_t i)
{
	return b->dma + ((uint64_t)i << b->slot_shift);
}

/* First run of n free slots inside one group of slots_per_map slots, from
 * the cursor on: the rest of the cursor's group, the other groups in turn,
 * and finally the start of the cursor's group. So a released slot is only
 * reused after the search went round the pool (at most groups + 1 group
 * scans). */
static bool find_run(struct mmchal_bounce *b, uint32_t n, uint64_t align1, uint32_t *first)
{
	uint32_t groups = (b->nslots + b->slots_per_map - 1u) / b->slots_per_map;
	uint32_t g0 = b->cursor / b->slots_per_map;

	for (uint32_t k = 0; k <= groups; k++) {
		uint32_t g = (g0 + k) % groups;
		uint32_t lo = g * b->slots_per_map, hi = lo + b->slots_per_map, run = 0;

		if (hi > b->nslots)
			hi = b->nslots;
		for (uint32_t i = k == 0 ? b->cursor : lo; i < hi; i++) {
			run = slot_used(b, i) ? 0 : run + 1u;
			/* the run may start later than its first free slot when the
			 * device needs a coarser start alignment than one slot */
			if (run >= n && (slot_dma(b, i + 1u - n) & align1) == 0) {
				*first = i + 1u - n;
				return true;
			}
		}
	}
	return false;
}

/* Copy the caller's buffers into the slots from first on, or back. */
static IOMMU_SHARED_ void copy_sg(struct mmchal_bounce *b, const struct mmchal_sg *sg, uint32_t nsg,
				  uint32_t first, bool to_slots)
{
	unsigned char *slots = b->mem + ((size_t)first << b->slot_shift);

	for (uint32_t i = 0; i < nsg; i++) {
		if (to_slots)
			memcpy(slots, sg[i].cpu, sg[i].len);
		else
			memcpy(sg[i].cpu, slots, sg[i].len);
		slots += sg[i].len;
	}
}

int mmchal_bounce_map(struct mmchal_bounce *b, const struct mmchal_sg *sg, uint32_t nsg,
		      enum mmchal_dir dir, struct mmchal_bounce_map *map,
		      struct mmchal_dma_seg *out)
{
	return mmchal_bounce_map_aligned(b, sg, nsg, dir, 1u, map, out);
}

int mmchal_bounce_map_aligned(struct mmchal_bounce *b, const struct mmchal_sg *sg, uint32_t nsg,
			      enum mmchal_dir dir, uint32_t align, struct mmchal_bounce_map *map,
			      struct mmchal_dma_seg *out)
{
	uint64_t total = 0;
	uint32_t n, first;

	/* slot_size 0: a pool mmchal_bounce_init() never set up */
	if (!b || b->slot_size == 0 || !sg || nsg == 0 || !map || !out)
		return MMCHAL_EINVAL;
	if (align == 0)
		align = 1u;
	if (align & (align - 1u))
		return MMCHAL_EINVAL;
	if (dir != MMCHAL_DIR_TO_CARD && dir != MMCHAL_DIR_FROM_CARD)
		return MMCHAL_EINVAL;
	if (map->state == BMAP_MAPPED)
		return MMCHAL_EBUSY;
	for (uint32_t i = 0; i < nsg; i++) {
		if (!sg[i].cpu || sg[i].len == 0)
			return MMCHAL_EINVAL;
		total += sg[i].len;
	}
	if (total > (uint64_t)b->slot_size * b->slots_per_map)
		return MMCHAL_ERANGE;
	n = (uint32_t)((total + b->slot_size - 1u) >> b->slot_shift);
	if (!find_run(b, n, align - 1u, &first)) {
		b->failures++;
		return MMCHAL_ENOMEM;
	}
	mark(b, first, n, true);
	b->in_use += n;
	if (b->in_use > b->peak)
		b->peak = b->in_use;
	b->cursor = (first + n) % b->nslots;
	/* Both directions: for FROM_CARD this is what stops a short transfer
	 * from exposing the previous user's bytes. */
	copy_sg(b, sg, nsg, first, true);
	map->state = BMAP_MAPPED;
	map->first = first;
	map->nslots = n;
	map->len = (uint32_t)total;
	map->dir = dir;
	map->sg = sg;
	map->nsg = nsg;
	out->addr = slot_dma(b, first);
	out->len = (uint32_t)total;
	return 0;
}

int mmchal_bounce_unmap(struct mmchal_bounce *b, struct mmchal_bounce_map *map, bool copy_back)
{
	if (!b || !map)
		return MMCHAL_EINVAL;
	if (map->state == BMAP_UNMAPPED)
		return MMCHAL_EALREADY;
	if (map->state != BMAP_MAPPED || map->nslots == 0 || map->first >= b->nslots ||
	    map->nslots > b->nslots - map->first)
		return MMCHAL_EINVAL;
	if (copy_back && map->dir == MMCHAL_DIR_FROM_CARD)
		copy_sg(b, map->sg, map->nsg, map->first, false);
	mark(b, map->first, map->nslots, false);
	b->in_use -= map->nslots;
	map->state = BMAP_UNMAPPED;
	return 0;
}

uint32_t mmchal_bounce_in_use(const struct mmchal_bounce *b)
{
	return b ? b->in_use : 0;
}

uint32_t mmchal_bounce_peak(const struct mmchal_bounce *b)
{
	return b ? b->peak : 0;
}
