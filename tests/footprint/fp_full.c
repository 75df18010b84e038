/*
 * full: everything: card layer + host core + every backend + IOMMU layer,
 * bounce pool and the limits explanation text, with logging.
 */
#include "fp.h"

static int fp_iommu_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	(void)ctx;
	caps->present = true;
	caps->page_size = FP_U32();
	return 0;
}

static int fp_iommu_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
			uint32_t prot)
{
	(void)ctx;
	fp_out = (intptr_t)(iova ^ phys ^ size ^ prot);
	return 0;
}

static int fp_iommu_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	(void)ctx;
	fp_out = (intptr_t)(iova ^ size);
	return 0;
}

static const struct mmchal_iommu_ops fp_iommu_ops = {
	.get_caps = fp_iommu_caps,
	.map = fp_iommu_map,
	.unmap = fp_iommu_unmap,
	.flush = fp_iommu_unmap,
};

static void fp_iommu(void)
{
	struct mmchal_iommu iommu = {.ops = &fp_iommu_ops, .ctx = NULL};
	struct mmchal_iommu_domain_cfg cfg = {.iommu = &iommu};
	struct mmchal_iommu_domain dom;
	struct mmchal_iommu_mapping map = {0};
	struct mmchal_dma_seg seg[4];
	struct mmchal_merge_info info;

	fp_out = mmchal_iommu_check(&iommu);
	cfg.node_mem = FP_PTR(void *);
	cfg.node_mem_size = FP_U32();
	cfg.cache_mem = FP_PTR(void *);
	cfg.cache_mem_size = FP_U32();
	fp_out = mmchal_iommu_domain_init(&dom, &cfg);
	fp_out = mmchal_iommu_map_merged(&dom, FP_PTR(const struct mmchal_sg *), FP_U32(),
					 MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD, &map, seg, &info);
	fp_out = mmchal_iommu_map_segs(&dom, FP_PTR(const struct mmchal_sg *), FP_U32(),
				       MMCHAL_DIR_FROM_CARD, &map, seg);
	fp_out = mmchal_iommu_unmap(&dom, &map);
	fp_out = (intptr_t)mmchal_merge_reason_str(info.reason);
}

static void fp_bounce(void)
{
	struct mmchal_bounce_cfg cfg = {0};
	struct mmchal_bounce b;
	struct mmchal_bounce_map map = {0};
	struct mmchal_bounce_caps caps;
	struct mmchal_dma_seg seg;

	cfg.mem = FP_PTR(void *);
	cfg.meta = FP_PTR(uint32_t *);
	cfg.size = FP_U32();
	cfg.meta_size = FP_U32();
	fp_out = mmchal_bounce_init(&b, &cfg);
	fp_out = mmchal_bounce_get_caps(&b, &caps);
	fp_out = mmchal_bounce_map(&b, FP_PTR(const struct mmchal_sg *), FP_U32(),
				   MMCHAL_DIR_FROM_CARD, &map, &seg);
	fp_out = mmchal_bounce_unmap(&b, &map, true);
}

int fp_main(void)
{
	struct mmchal_limits lim;
	struct mmchal_caps caps = {0};
	struct mmchal_port_caps pc = {.lock = true, .deferred_work = true};
	char text[64];

	fp_port();
	fp_iommu();
	fp_bounce();
	caps.dma.kind = (enum mmchal_dma_kind)fp_in;
	fp_out = mmchal_limits_derive(&caps, &pc, NULL, (enum mmchal_card_type)fp_in, &lim);
	fp_out = mmchal_limits_explain(&lim, text, sizeof(text));
	fp_out = (intptr_t)mmchal_strerror((int)fp_in);
	fp_out = text[fp_in & 63u];
	/* When they land: host core with every backend, card layer, statistics
	 * and mmchal_host_explain() (FP_HAVE_HOST_CORE, FP_HAVE_SDHI,
	 * FP_HAVE_SDHCI, FP_HAVE_CARD). */
	return 0;
}
