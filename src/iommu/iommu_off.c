/**
 * @file
 * @brief The IOMMU domain when the library is built without the IOMMU layer
 *        (MMCHAL_WITH_IOMMU = 0): every domain function refuses with
 *        ::MMCHAL_ENOTSUP, so a firmware without an IOMMU carries neither
 *        the IOVA allocator nor the domain code (docs/footprint.md).
 *
 * The host core reaches these only for a host configured with a domain,
 * which mmchal_host_init() then refuses (::MMCHAL_EINVAL).
 *
 * Locking: none; any context.
 */
#include <mmchal/error.h>
#include <mmchal/iommu.h>

int mmchal_iommu_domain_init(struct mmchal_iommu_domain *dom,
			     const struct mmchal_iommu_domain_cfg *cfg)
{
	(void)dom;
	(void)cfg;
	return MMCHAL_ENOTSUP;
}

int mmchal_iommu_domain_get_caps(const struct mmchal_iommu_domain *dom,
				 struct mmchal_iommu_caps *caps)
{
	(void)dom;
	(void)caps;
	return MMCHAL_ENOTSUP;
}

int mmchal_iommu_domain_get_stats(const struct mmchal_iommu_domain *dom,
				  struct mmchal_iommu_domain_stats *st)
{
	(void)dom;
	(void)st;
	return MMCHAL_ENOTSUP;
}

int mmchal_iommu_map_merged(struct mmchal_iommu_domain *dom, const struct mmchal_sg *sg,
			    uint32_t nsg, enum mmchal_dir dir, enum mmchal_card_type card,
			    struct mmchal_iommu_mapping *map, struct mmchal_dma_seg *out,
			    struct mmchal_merge_info *info)
{
	(void)dom;
	(void)sg;
	(void)nsg;
	(void)dir;
	(void)card;
	(void)map;
	(void)out;
	(void)info;
	return MMCHAL_ENOTSUP;
}

int mmchal_iommu_map_segs(struct mmchal_iommu_domain *dom, const struct mmchal_sg *sg, uint32_t nsg,
			  enum mmchal_dir dir, struct mmchal_iommu_mapping *map,
			  struct mmchal_dma_seg *out)
{
	(void)dom;
	(void)sg;
	(void)nsg;
	(void)dir;
	(void)map;
	(void)out;
	return MMCHAL_ENOTSUP;
}

int mmchal_iommu_unmap(struct mmchal_iommu_domain *dom, struct mmchal_iommu_mapping *map)
{
	(void)dom;
	(void)map;
	return MMCHAL_ENOTSUP;
}
