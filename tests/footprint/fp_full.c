/*
 * full: the whole SDHI stack: card layer + host core with the IOMMU layer
 * and the bounce pool, the SDHI backends (internal DMAC, SYS-DMAC, PIO,
 * chosen from the SoC entry), PIO retry, statistics, the explanation text of
 * the limits and of the host, error strings. (The SDHCI backend serves
 * another controller family and is in no configuration.)
 */
#include "fp.h"

static int fp_iommu_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	(void)ctx;
	caps->present = true;
	caps->page_size = 4096;
	caps->aperture_start = 0x100000;
	caps->aperture_end = 0xffffffffu;
	caps->merge_boundary = 4095;
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

/* The SYS-DMAC channels of a Gen2 SoC, as a DMA-engine driver provides them. */
static int fp_chan_prepare(void *ctx, const struct mmchal_dma_xfer *x)
{
	(void)ctx;
	fp_out = (intptr_t)x->nsegs;
	return 0;
}

static int fp_chan_caps(void *ctx, struct mmchal_dma_dir_caps *caps)
{
	(void)ctx;
	caps->max_segs = 32;
	caps->max_seg_size = 0x10000;
	caps->addr_align = 4;
	return 0;
}

static int fp_chan_op(void *ctx)
{
	(void)ctx;
	return (int)fp_in;
}

#define FP_NODES 64u

static const struct mmchal_iommu fp_iommu = {.ops = &fp_iommu_ops, .ctx = NULL};
static uint64_t fp_nodes[MMCHAL_IOVA_POOL_BYTES(FP_NODES) / sizeof(uint64_t)];
static struct mmchal_iommu_domain fp_dom;
static uint8_t fp_pool[64u << 10] __attribute__((aligned(4096)));
static uint32_t fp_meta[MMCHAL_BOUNCE_META_BYTES(32) / sizeof(uint32_t)];
static struct mmchal_bounce fp_bounce;
static struct mmchal_dma_seg fp_segs[32];
static struct mmchal_sdhi fp_sdhi;
static char fp_text[4096];

int fp_main(void)
{
	struct mmchal_iommu_domain_cfg dc = {0};
	struct mmchal_bounce_cfg bc = {0};
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_backend be;
	struct mmchal_host_cfg hc = {0};
	static const struct mmchal_dma_chan_ops chan_ops = {
		.get_caps = fp_chan_caps,
		.prepare = fp_chan_prepare,
		.submit = fp_chan_op,
		.terminate = fp_chan_op,
	};
	int err;

	dc.iommu = &fp_iommu;
	dc.node_mem = fp_nodes;
	dc.node_mem_size = sizeof(fp_nodes);
	dc.addr_bits = 32;
	err = mmchal_iommu_domain_init(&fp_dom, &dc);
	if (err)
		return err;
	bc.mem = fp_pool;
	bc.dma = (mmchal_dma_addr_t)(uintptr_t)fp_pool;
	bc.size = sizeof(fp_pool);
	bc.meta = fp_meta;
	bc.meta_size = sizeof(fp_meta);
	err = mmchal_bounce_init(&fp_bounce, &bc);
	if (err)
		return err;

	/* The SDHI controller: its kind comes from the SoC entry. */
	err = fp_sdhi_cfg(&cfg, mmchal_sdhi_soc_lookup(FP_PTR(const char *)));
	if (err)
		return err;
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		cfg.chan[d].ops = &chan_ops;
		cfg.chan[d].ctx = NULL;
	}
	err = mmchal_sdhi_init(&fp_sdhi, &cfg, &be);
	if (err)
		return err;
	hc.backend = &be;
	hc.iommu = &fp_dom;
	hc.bounce = &fp_bounce;
	hc.seg_table = fp_segs;
	hc.seg_table_len = 32;
	hc.pio_retry = true;
	err = fp_card_io(&hc, true);
	fp_out = (intptr_t)mmchal_strerror(err);
	fp_out = mmchal_host_explain(&fp_host, fp_text, sizeof(fp_text));
	fp_out = mmchal_host_stats(&fp_host, FP_PTR(struct mmchal_host_stats *));
	fp_out = fp_text[fp_in & 4095u];
	return err;
}
