/**
 * @file
 * @brief Reason texts of a probed node, and the names of backends and facts.
 *
 * Locking: none; any context.
 */
#include <mmchal/dt.h>

#include "dt/dt_why.h"

struct mmchal_strbuf_ *mmchal_dt_why_begin_(struct mmchal_dt_node *n, enum mmchal_dt_fact fact,
					    struct mmchal_strbuf_ *sb,
					    char spare[MMCHAL_DT_WHY_LEN])
{
	if (n->nwhy >= MMCHAL_DT_WHY_MAX) {
		n->why_lost = true;
		mmchal_sb_init_(sb, spare, MMCHAL_DT_WHY_LEN);
		return sb;
	}
	n->why[n->nwhy].fact = fact;
	mmchal_sb_init_(sb, n->why[n->nwhy].text, MMCHAL_DT_WHY_LEN);
	n->nwhy++;
	return sb;
}

void mmchal_dt_why_putn_(struct mmchal_strbuf_ *sb, const char *s, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		mmchal_sb_putc_(sb, s[i]);
}

void mmchal_dt_why_(struct mmchal_dt_node *n, enum mmchal_dt_fact fact, const char *text)
{
	struct mmchal_strbuf_ sb;
	char spare[MMCHAL_DT_WHY_LEN];

	mmchal_sb_puts_(mmchal_dt_why_begin_(n, fact, &sb, spare), text);
}

const char *mmchal_dt_backend_name(enum mmchal_dt_backend backend)
{
	switch (backend) {
	case MMCHAL_DT_BACKEND_NONE:
		return "none";
	case MMCHAL_DT_BACKEND_IDMAC:
		return "idmac";
	case MMCHAL_DT_BACKEND_SYSDMAC:
		return "sysdmac";
	case MMCHAL_DT_BACKEND_PIO:
		return "pio";
	default:
		return "?";
	}
}

const char *mmchal_dt_fact_name(enum mmchal_dt_fact fact)
{
	static const char *const names[MMCHAL_DT_FACT_COUNT] = {
		[MMCHAL_DT_FACT_STATUS] = "status",
		[MMCHAL_DT_FACT_COMPATIBLE] = "compatible",
		[MMCHAL_DT_FACT_BACKEND] = "backend",
		[MMCHAL_DT_FACT_BUS_SHIFT] = "bus_shift",
		[MMCHAL_DT_FACT_REG] = "reg",
		[MMCHAL_DT_FACT_INTERRUPT] = "interrupt",
		[MMCHAL_DT_FACT_IOMMU] = "iommu",
		[MMCHAL_DT_FACT_DMA] = "dma",
		[MMCHAL_DT_FACT_BUS_WIDTH] = "bus_width",
		[MMCHAL_DT_FACT_BUS_CAPS] = "bus_caps",
		[MMCHAL_DT_FACT_FREQUENCY] = "f_max",
		[MMCHAL_DT_FACT_MERGE] = "merge",
		[MMCHAL_DT_FACT_BLK_COUNT] = "blk_count",
		[MMCHAL_DT_FACT_QUIRK] = "quirk",
	};

	if ((unsigned int)fact >= (unsigned int)MMCHAL_DT_FACT_COUNT)
		return "?";
	return names[fact];
}
