/**
 * @file
 * @brief Segment-merge policy: can a scatter-gather list become one device
 *        address behind this IOMMU, and if not, why.
 *
 * Sources: the Linux MMC core rule (MMC_CAP2_MERGE_CAPABLE, a non-zero DMA
 * merge boundary used as virt_boundary, block cards only) and the review of
 * seed 004 (not every IOMMU can merge; segments must be page aligned to
 * merge; the total mapping may be limited).
 *
 * Pure: no hardware, no port calls. Locking: none; any context.
 */
#include <mmchal/config.h>
#include <mmchal/iommu.h>

static void set_info(struct mmchal_merge_info *info, enum mmchal_merge_reason r, uint32_t idx,
		     uint64_t total, uint64_t map_size)
{
	if (info) {
		info->reason = r;
		info->index = idx;
		info->total = total;
		info->map_size = map_size;
	}
}

#if MMCHAL_WITH_IOMMU
static bool caps_sane(const struct mmchal_iommu_caps *c)
{
	if (!c->present)
		return true;
	if (c->page_size == 0 || (c->page_size & (c->page_size - 1u)) != 0)
		return false;
	if (c->merge_boundary != 0 && c->merge_boundary != (uint64_t)c->page_size - 1u)
		return false;
	return c->aperture_end == 0 || c->aperture_end >= c->aperture_start;
}

enum mmchal_merge_reason mmchal_merge_check(const struct mmchal_sg *sg, uint32_t nsg,
					    const struct mmchal_iommu_caps *caps,
					    enum mmchal_card_type card,
					    struct mmchal_merge_info *info)
{
	uint64_t mask, total = 0, span;
	enum mmchal_merge_reason r;
	uint32_t i;

	set_info(info, MMCHAL_MERGE_BAD_ARGS, 0, 0, 0);
	if (!caps || (!sg && nsg != 0) || !caps_sane(caps))
		return MMCHAL_MERGE_BAD_ARGS;
	if (!caps->present)
		r = MMCHAL_MERGE_NO_IOMMU;
	else if (caps->merge_boundary == 0)
		r = MMCHAL_MERGE_CANNOT_MERGE;
	else if (card != MMCHAL_CARD_SD && card != MMCHAL_CARD_MMC)
		r = MMCHAL_MERGE_CARD_TYPE; /* SDIO buffers (~1500 bytes) never align (seed 004) */
	else if (nsg == 0)
		r = MMCHAL_MERGE_EMPTY;
	else
		r = MMCHAL_MERGE_OK;
	if (r != MMCHAL_MERGE_OK) {
		set_info(info, r, 0, 0, 0);
		return r;
	}
	mask = caps->merge_boundary;
	for (i = 0; i < nsg; i++) {
		if (sg[i].len == 0) {
			set_info(info, MMCHAL_MERGE_ZERO_LENGTH, i, 0, 0);
			return MMCHAL_MERGE_ZERO_LENGTH;
		}
		if (sg[i].phys > UINT64_MAX - (sg[i].len - 1u)) {
			set_info(info, MMCHAL_MERGE_OVERFLOW, i, 0, 0);
			return MMCHAL_MERGE_OVERFLOW;
		}
		total += sg[i].len;
	}
	for (i = 0; i < nsg; i++) {
		bool start_bad = i > 0 && (sg[i].phys & mask) != 0;
		bool end_bad = i + 1u < nsg && ((sg[i].phys + sg[i].len) & mask) != 0;

		if (start_bad || end_bad) {
			set_info(info, MMCHAL_MERGE_UNALIGNED, i, total, 0);
			return MMCHAL_MERGE_UNALIGNED;
		}
	}
	if (total > UINT32_MAX) {
		set_info(info, MMCHAL_MERGE_OVERFLOW, nsg - 1u, total, 0);
		return MMCHAL_MERGE_OVERFLOW;
	}
	/* Whole pages: the first entry's offset in its page plus the total. */
	span = ((sg[0].phys & mask) + total + mask) & ~mask;
	if ((caps->max_map_size != 0 && span > caps->max_map_size) ||
	    (caps->aperture_end != 0 && span - 1u > caps->aperture_end - caps->aperture_start)) {
		set_info(info, MMCHAL_MERGE_TOO_LARGE, 0, total, span);
		return MMCHAL_MERGE_TOO_LARGE;
	}
	set_info(info, MMCHAL_MERGE_OK, 0, total, span);
	return MMCHAL_MERGE_OK;
}

#else
/* Built without the IOMMU layer (config.h): nothing is ever mapped through
   an IOMMU, so no list is mergeable. */
enum mmchal_merge_reason mmchal_merge_check(const struct mmchal_sg *sg, uint32_t nsg,
					    const struct mmchal_iommu_caps *caps,
					    enum mmchal_card_type card,
					    struct mmchal_merge_info *info)
{
	(void)sg;
	(void)nsg;
	(void)caps;
	(void)card;
	set_info(info, MMCHAL_MERGE_NO_IOMMU, 0, 0, 0);
	return MMCHAL_MERGE_NO_IOMMU;
}
#endif

const char *mmchal_merge_reason_str(enum mmchal_merge_reason reason)
{
	switch (reason) {
	case MMCHAL_MERGE_OK:
		return "mergeable into one device address";
	case MMCHAL_MERGE_BAD_ARGS:
		return "invalid arguments or IOMMU capabilities";
	case MMCHAL_MERGE_NO_IOMMU:
		return "no IOMMU in front of the DMA master";
	case MMCHAL_MERGE_CANNOT_MERGE:
		return "the IOMMU cannot merge segments";
	case MMCHAL_MERGE_CARD_TYPE:
		return "card type is not SD memory or eMMC";
	case MMCHAL_MERGE_EMPTY:
		return "empty list";
	case MMCHAL_MERGE_ZERO_LENGTH:
		return "zero-length segment";
	case MMCHAL_MERGE_OVERFLOW:
		return "segment address or total length overflows";
	case MMCHAL_MERGE_UNALIGNED:
		return "interior segment boundary not aligned to the IOMMU page";
	case MMCHAL_MERGE_TOO_LARGE:
		return "mapping larger than the IOMMU allows";
	}
	return "unknown merge reason";
}
