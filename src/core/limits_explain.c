/**
 * @file
 * @brief Text rendering of derived limits: names, reasons, one line per field.
 *
 * Locking: none; any context. No printf: text is built with the internal
 * bounded string builder.
 */
#include <mmchal/limits.h>
#include <mmchal/error.h>

#include "core/strbuf.h"

/*
 * The names and texts are pools of NUL-ended strings in enum order rather
 * than tables of pointers: no pointer per string, and a pool that nothing
 * names is dropped whole by the linker (mmchal_text_nth_()).
 */
static const char field_names[] = "max_segs\0"      /* MMCHAL_LIM_MAX_SEGS */
				  "merge\0"         /* MMCHAL_LIM_MERGE */
				  "virt_boundary\0" /* MMCHAL_LIM_VIRT_BOUNDARY */
				  "max_blk_size\0"  /* MMCHAL_LIM_MAX_BLK_SIZE */
				  "max_req_size\0"  /* MMCHAL_LIM_MAX_REQ_SIZE */
				  "max_blk_count\0" /* MMCHAL_LIM_MAX_BLK_COUNT */
				  "max_seg_size\0"  /* MMCHAL_LIM_MAX_SEG_SIZE */
				  "seg_boundary\0"  /* MMCHAL_LIM_SEG_BOUNDARY */
				  "dma_align\0"     /* MMCHAL_LIM_DMA_ALIGN */
				  "bounce_limit\0"  /* MMCHAL_LIM_BOUNCE_LIMIT */
				  "completion";     /* MMCHAL_LIM_POLICY */

/* "{}" stands for the cause value, rendered by the field's unit. */
static const char reason_texts[] =
	/* MMCHAL_WHY_DEFAULT */
	"library default\0"
	/* MMCHAL_WHY_HOST_DECLARED */
	"declared by the host\0"
	/* MMCHAL_WHY_ENGINE_SEGS */
	"the DMA engine chains at most {} segment(s) per transfer\0"
	/* MMCHAL_WHY_PIO_NO_ENGINE */
	"PIO: no DMA engine limit, the TMIO default {} is kept\0"
	/* MMCHAL_WHY_MERGE_RAISED */
	"raised for merging: the host is merge-capable, the IOMMU merges {}-byte pages and the "
	"card is SD memory or eMMC\0"
	/* MMCHAL_WHY_MERGE_NOT_CAPABLE */
	"no merging: the host does not declare merge capability\0"
	/* MMCHAL_WHY_MERGE_NO_IOMMU */
	"no merging: no IOMMU in front of the DMA engine\0"
	/* MMCHAL_WHY_MERGE_IOMMU_CANNOT */
	"no merging: the IOMMU reports merge boundary 0\0"
	/* MMCHAL_WHY_MERGE_CARD_SDIO */
	"no merging: SDIO buffers are small and not page aligned\0"
	/* MMCHAL_WHY_MERGE_CARD_UNKNOWN */
	"no merging yet: the card is not identified (decided again at init_card)\0"
	/* MMCHAL_WHY_MERGE_NO_DMA */
	"no merging: PIO moves the data\0"
	/* MMCHAL_WHY_NONE */
	"no constraint\0"
	/* MMCHAL_WHY_BLK_PRODUCT */
	"max_blk_size x block-count limit = {}\0"
	/* MMCHAL_WHY_BOUNCE_CLAMP */
	"clamped to the bounce limit {} (slot size x slots per mapping)\0"
	/* MMCHAL_WHY_IOMMU_MAP_LIMIT */
	"clamped to the IOMMU's largest mapping, {}\0"
	/* MMCHAL_WHY_ENGINE_XFER */
	"clamped to the DMA engine's largest transfer, {}\0"
	/* MMCHAL_WHY_BLK_COUNTER */
	"the block counter register is {} bits wide\0"
	/* MMCHAL_WHY_SOC_BLK_COUNT */
	"capped by the SoC data at {} blocks\0"
	/* MMCHAL_WHY_FIT_REQ_SIZE */
	"bounded by max_req_size {}\0"
	/* MMCHAL_WHY_ENGINE_SEG_SIZE */
	"the DMA engine's largest segment, {}\0"
	/* MMCHAL_WHY_ENGINE_BOUNDARY */
	"a segment may not cross the engine's {}-byte boundary\0"
	/* MMCHAL_WHY_ENGINE_ALIGN */
	"the DMA engine needs segment starts aligned to {} bytes; others are bounced or go PIO\0"
	/* MMCHAL_WHY_BOUNCE_NO_POOL */
	"no bounce pool\0"
	/* MMCHAL_WHY_BOUNCE_IOMMU */
	"no bouncing: behind the IOMMU any buffer is reachable\0"
	/* MMCHAL_WHY_BOUNCE_PIO */
	"no bouncing: PIO moves the data\0"
	/* MMCHAL_WHY_BOUNCE_POOL */
	"slot size x slots per mapping\0"
	/* MMCHAL_WHY_POLICY_OVERRIDE */
	"forced by the configuration (worst-case completion work {} ns)\0"
	/* MMCHAL_WHY_POLICY_NO_IRQ */
	"the backend completes by polling\0"
	/* MMCHAL_WHY_POLICY_NO_LOCK */
	"the port has no interrupt-safe lock\0"
	/* MMCHAL_WHY_POLICY_NO_WORK */
	"no unmap or copy-back work ({} ns): completing under the lock is cheapest\0"
	/* MMCHAL_WHY_POLICY_IRQ_OFF_OK */
	"worst-case completion work {} ns fits the interrupt-off budget\0"
	/* MMCHAL_WHY_POLICY_IRQ_OK */
	"worst-case completion work {} ns exceeds the interrupt-off budget; unmap and copy-back "
	"run after the lock is dropped\0"
	/* MMCHAL_WHY_POLICY_TOO_MUCH */
	"worst-case completion work {} ns exceeds the interrupt budget; completion runs as "
	"deferred work\0"
	/* MMCHAL_WHY_POLICY_NO_DEFER */
	"worst-case completion work {} ns exceeds the interrupt budget, but the port cannot "
	"defer work\0"
	/* MMCHAL_WHY_POLICY_NO_IRQ_PATH */
	"the library is built without the interrupt path (MMCHAL_WITH_IRQ is 0): the caller "
	"polls";

static const char policy_names[] = "AUTO\0"       /* MMCHAL_POLICY_AUTO */
				   "IRQ_LOCKED\0" /* MMCHAL_POLICY_IRQ_LOCKED */
				   "IRQ_SPLIT\0"  /* MMCHAL_POLICY_IRQ_SPLIT */
				   "DEFERRED\0"   /* MMCHAL_POLICY_DEFERRED */
				   "POLLED";      /* MMCHAL_POLICY_POLLED */

static const char card_names[] = "unknown\0" /* MMCHAL_CARD_UNKNOWN */
				 "SD\0"      /* MMCHAL_CARD_SD */
				 "eMMC\0"    /* MMCHAL_CARD_MMC */
				 "SDIO\0"    /* MMCHAL_CARD_SDIO */
				 "SD combo"; /* MMCHAL_CARD_SD_COMBO */

const char *mmchal_limit_field_name(enum mmchal_limit_field field)
{
	if ((unsigned int)field >= MMCHAL_LIM_COUNT)
		return "?";
	return mmchal_text_nth_(field_names, field);
}

const char *mmchal_limit_reason_text(enum mmchal_limit_reason reason)
{
	if ((unsigned int)reason >= MMCHAL_WHY_COUNT)
		return "?";
	return mmchal_text_nth_(reason_texts, reason);
}

const char *mmchal_completion_policy_name(enum mmchal_completion_policy policy)
{
	if ((unsigned int)policy > MMCHAL_POLICY_POLLED)
		return "?";
	return mmchal_text_nth_(policy_names, policy);
}

const char *mmchal_card_type_name(enum mmchal_card_type card)
{
	if ((unsigned int)card > MMCHAL_CARD_SD_COMBO)
		return "?";
	return mmchal_text_nth_(card_names, card);
}

/* Fields whose values and causes are byte counts. */
static bool field_is_size(enum mmchal_limit_field f)
{
	return f == MMCHAL_LIM_MAX_REQ_SIZE || f == MMCHAL_LIM_MAX_SEG_SIZE ||
	       f == MMCHAL_LIM_BOUNCE_LIMIT || f == MMCHAL_LIM_MAX_BLK_SIZE;
}

static void put_value(struct mmchal_strbuf_ *sb, const struct mmchal_limits *l,
		      enum mmchal_limit_field f)
{
	switch (f) {
	case MMCHAL_LIM_MAX_SEGS:
		mmchal_sb_putu_(sb, l->max_segs);
		break;
	case MMCHAL_LIM_MERGE:
		mmchal_sb_puts_(sb, l->merge ? "yes" : "no");
		break;
	case MMCHAL_LIM_VIRT_BOUNDARY:
		if (l->virt_boundary)
			mmchal_sb_puthex_(sb, l->virt_boundary);
		else
			mmchal_sb_puts_(sb, "none");
		break;
	case MMCHAL_LIM_MAX_BLK_SIZE:
		mmchal_sb_putsize_(sb, l->max_blk_size);
		break;
	case MMCHAL_LIM_MAX_REQ_SIZE:
		mmchal_sb_putsize_(sb, l->max_req_size);
		break;
	case MMCHAL_LIM_MAX_BLK_COUNT:
		mmchal_sb_putu_(sb, l->max_blk_count);
		break;
	case MMCHAL_LIM_MAX_SEG_SIZE:
		mmchal_sb_putsize_(sb, l->max_seg_size);
		break;
	case MMCHAL_LIM_SEG_BOUNDARY:
		if (l->seg_boundary)
			mmchal_sb_puthex_(sb, l->seg_boundary);
		else
			mmchal_sb_puts_(sb, "none");
		break;
	case MMCHAL_LIM_DMA_ALIGN:
		mmchal_sb_putu_(sb, l->dma_align);
		break;
	case MMCHAL_LIM_BOUNCE_LIMIT:
		if (l->bounce_limit)
			mmchal_sb_putsize_(sb, l->bounce_limit);
		else
			mmchal_sb_puts_(sb, "none");
		break;
	case MMCHAL_LIM_POLICY:
	default:
		mmchal_sb_puts_(sb, mmchal_completion_policy_name(l->policy));
		break;
	}
}

static void put_reason(struct mmchal_strbuf_ *sb, const struct mmchal_limits *l,
		       enum mmchal_limit_field f)
{
	enum mmchal_limit_reason r = l->reason[f];
	const char *t = mmchal_limit_reason_text(r);
	uint64_t cause = l->cause[f];
	/* Sizes print with units; the bounce clamp and IOMMU/engine caps are
	 * sizes whichever field they explain. */
	bool size = field_is_size(f) || r == MMCHAL_WHY_BOUNCE_CLAMP ||
		    r == MMCHAL_WHY_IOMMU_MAP_LIMIT || r == MMCHAL_WHY_ENGINE_XFER ||
		    r == MMCHAL_WHY_BLK_PRODUCT || r == MMCHAL_WHY_FIT_REQ_SIZE;

	for (; *t; t++) {
		if (t[0] == '{' && t[1] == '}') {
			if (size)
				mmchal_sb_putsize_(sb, cause);
			else
				mmchal_sb_putu_(sb, cause);
			t++;
		} else {
			mmchal_sb_putc_(sb, *t);
		}
	}
}

static void put_line(struct mmchal_strbuf_ *sb, const struct mmchal_limits *l,
		     enum mmchal_limit_field f)
{
	mmchal_sb_puts_(sb, mmchal_limit_field_name(f));
	mmchal_sb_puts_(sb, " = ");
	put_value(sb, l, f);
	mmchal_sb_puts_(sb, ": ");
	put_reason(sb, l, f);
}

int mmchal_limits_explain_field(const struct mmchal_limits *lim, enum mmchal_limit_field field,
				char *buf, size_t size)
{
	struct mmchal_strbuf_ sb;

	if (!lim || !buf || size == 0 || (unsigned int)field >= MMCHAL_LIM_COUNT)
		return MMCHAL_EINVAL;
	mmchal_sb_init_(&sb, buf, size);
	put_line(&sb, lim, field);
	if (sb.overflow)
		return MMCHAL_ENOSPC;
	return (int)sb.len;
}

int mmchal_limits_explain(const struct mmchal_limits *lim, char *buf, size_t size)
{
	struct mmchal_strbuf_ sb;

	if (!lim || !buf || size == 0)
		return MMCHAL_EINVAL;
	mmchal_sb_init_(&sb, buf, size);
	for (unsigned int f = 0; f < MMCHAL_LIM_COUNT; f++) {
		size_t keep = sb.len;

		put_line(&sb, lim, (enum mmchal_limit_field)f);
		mmchal_sb_putc_(&sb, '\n');
		if (sb.overflow) {
			/* Keep only whole lines. */
			buf[keep] = '\0';
			return MMCHAL_ENOSPC;
		}
	}
	return (int)sb.len;
}
