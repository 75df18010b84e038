/**
 * @file
 * @brief The bounce pool when the library is built without it
 *        (MMCHAL_WITH_BOUNCE = 0): every function refuses with
 *        ::MMCHAL_ENOTSUP and no pool is ever in use (docs/footprint.md).
 *
 * mmchal_bounce_get_caps() still answers "no pool" for NULL, as the host
 * core asks it at every mmchal_host_init(); a host configured with a pool is
 * refused there.
 *
 * Locking: none; any context.
 */
#include <mmchal/bounce.h>
#include <mmchal/error.h>

#include "core/mem.h"

int mmchal_bounce_init(struct mmchal_bounce *b, const struct mmchal_bounce_cfg *cfg)
{
	(void)b;
	(void)cfg;
	return MMCHAL_ENOTSUP;
}

/* No pool is "no bounce", as in the full build; a pool cannot exist. */
int mmchal_bounce_get_caps(const struct mmchal_bounce *b, struct mmchal_bounce_caps *caps)
{
	if (!caps)
		return MMCHAL_EINVAL;
	memset(caps, 0, sizeof(*caps));
	return b ? MMCHAL_ENOTSUP : 0;
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
	(void)b;
	(void)sg;
	(void)nsg;
	(void)dir;
	(void)align;
	(void)map;
	(void)out;
	return MMCHAL_ENOTSUP;
}

int mmchal_bounce_unmap(struct mmchal_bounce *b, struct mmchal_bounce_map *map, bool copy_back)
{
	(void)b;
	(void)map;
	(void)copy_back;
	return MMCHAL_ENOTSUP;
}

uint32_t mmchal_bounce_in_use(const struct mmchal_bounce *b)
{
	(void)b;
	return 0;
}

uint32_t mmchal_bounce_peak(const struct mmchal_bounce *b)
{
	(void)b;
	return 0;
}
