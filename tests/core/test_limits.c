/*
 * Limits derivation (src/core/limits.c): one table row per rule and per
 * interaction of DESIGN.md section 4, each with the exact values and reasons
 * it must produce, plus every inconsistent capability combination.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/limits.h>
#include <mmchal/error.h>

/* R-Car Gen3 SDHI internal DMAC (REFERENCE.md): one segment, 128-byte start
 * alignment, 32-bit addresses, 0xffffffff largest segment. */
#define IDMAC_DIR                                                                              \
	{                                                                                      \
		.addr_bits = 32, .addr_align = 128, .max_segs = 1, .max_seg_size = 0xffffffffu \
	}
#define IDMAC_DMA                                                            \
	{                                                                    \
		.kind = MMCHAL_DMA_INTERNAL, .dir = { IDMAC_DIR, IDMAC_DIR } \
	}
/* Gen3 host data: merge-capable, 32-bit block counter, 8388607 blocks. */
#define GEN3_HOST                                                                      \
	{                                                                              \
		.merge_capable = true, .blk_count_bits = 32, .max_blk_count = 8388607, \
		.completion = MMCHAL_COMPLETES_IN_IRQ                                  \
	}
/* A SYS-DMAC channel with N descriptors, 16 MiB per descriptor, 4-byte bus. */
#define SYSDMAC_DIR(n)                                                               \
	{                                                                            \
		.addr_bits = 32, .addr_align = 4, .len_granule = 2, .max_segs = (n), \
		.max_seg_size = 16u << 20, .seg_boundary = 0xffffffffu, .min_len = 8 \
	}
#define SYSDMAC_DMA(n)                                                                 \
	{                                                                              \
		.kind = MMCHAL_DMA_EXTERNAL, .dir = { SYSDMAC_DIR(n), SYSDMAC_DIR(n) } \
	}
#define GEN2_HOST                                               \
	{                                                       \
		.blk_count_bits = 32, .max_blk_count = 8388607, \
		.completion = MMCHAL_COMPLETES_IN_IRQ           \
	}
/* An IPMMU-like IOMMU with 4 KiB pages that can merge, 32-bit aperture. */
#define IOMMU_MERGING                                                                             \
	{                                                                                         \
		.present = true, .page_size = 4096, .merge_boundary = 0xfff, .aperture_start = 0, \
		.aperture_end = 0xffffffffu                                                       \
	}

#define PORT_FULL                                   \
	{                                           \
		.lock = true, .deferred_work = true \
	}
#define PORT_LOCK_ONLY       \
	{                    \
		.lock = true \
	}

struct row {
	const char *name;
	struct mmchal_caps caps;
	struct mmchal_port_caps port;
	struct mmchal_policy_cfg cfg;
	enum mmchal_card_type card;

	uint32_t max_segs;
	enum mmchal_limit_reason segs_why;
	bool merge;
	enum mmchal_limit_reason merge_why;
	uint64_t virt_boundary;
	uint64_t max_req_size;
	enum mmchal_limit_reason req_why;
	uint32_t max_blk_count;
	enum mmchal_limit_reason blk_why;
	uint32_t max_seg_size;
	enum mmchal_limit_reason seg_size_why;
	uint64_t bounce_limit;
	enum mmchal_limit_reason bounce_why;
	enum mmchal_completion_policy policy;
	enum mmchal_limit_reason policy_why;
	uint64_t work_ns;
};

/* 512 x 8388607: the Gen3 request limit from the block counter. */
#define GEN3_REQ        4294966784ull
/* Gen3 behind the IOMMU, worst case: base 2000 + (1048576 pages + 1) x 100 +
 * flush 2000 ns with the default cost figures. */
#define GEN3_IOMMU_WORK (2000ull + 1048577ull * 100ull + 2000ull)

/* Expected sizes of a Gen3 host when nothing clamps the request. */
#define GEN3_SIZES                                                                             \
	.max_req_size = GEN3_REQ, .req_why = MMCHAL_WHY_BLK_PRODUCT, .max_blk_count = 8388607, \
	.blk_why = MMCHAL_WHY_SOC_BLK_COUNT, .max_seg_size = 4294966784u,                      \
	.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE, .bounce_why = MMCHAL_WHY_BOUNCE_NO_POOL
/* Expected result of the merge raise behind a 4 KiB IOMMU. */
#define MERGED_4K                                                            \
	.max_segs = 512, .segs_why = MMCHAL_WHY_MERGE_RAISED, .merge = true, \
	.merge_why = MMCHAL_WHY_MERGE_RAISED, .virt_boundary = 0xfff
/* Expected policy of a Gen3 host behind the IOMMU with deferred work available. */
#define GEN3_IOMMU_DEFERRED                                                         \
	.policy = MMCHAL_POLICY_DEFERRED, .policy_why = MMCHAL_WHY_POLICY_TOO_MUCH, \
	.work_ns = GEN3_IOMMU_WORK

static const struct row rows[] = {
	{
		.name = "idmac + merging IOMMU + SD card -> 512 segments, page virt_boundary",
		.caps = {.host = GEN3_HOST, .dma = IDMAC_DMA, .iommu = IOMMU_MERGING},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SD,
		MERGED_4K,
		GEN3_SIZES,
		GEN3_IOMMU_DEFERRED,
	},
	{
		.name = "idmac + merging IOMMU + eMMC -> 512 segments",
		.caps = {.host = GEN3_HOST, .dma = IDMAC_DMA, .iommu = IOMMU_MERGING},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_MMC,
		MERGED_4K,
		GEN3_SIZES,
		GEN3_IOMMU_DEFERRED,
	},
	{
		.name = "idmac + merging IOMMU + SDIO -> 1 segment",
		.caps = {.host = GEN3_HOST, .dma = IDMAC_DMA, .iommu = IOMMU_MERGING},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SDIO,
		.max_segs = 1,
		.segs_why = MMCHAL_WHY_ENGINE_SEGS,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_CARD_SDIO,
		.virt_boundary = 0,
		GEN3_SIZES,
		GEN3_IOMMU_DEFERRED,
	},
	{
		.name = "idmac + merging IOMMU + SD combo -> 1 segment (SDIO part)",
		.caps = {.host = GEN3_HOST, .dma = IDMAC_DMA, .iommu = IOMMU_MERGING},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SD_COMBO,
		.max_segs = 1,
		.segs_why = MMCHAL_WHY_ENGINE_SEGS,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_CARD_SDIO,
		GEN3_SIZES,
		GEN3_IOMMU_DEFERRED,
	},
	{
		.name = "idmac + merging IOMMU + unknown card -> 1 segment",
		.caps = {.host = GEN3_HOST, .dma = IDMAC_DMA, .iommu = IOMMU_MERGING},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_UNKNOWN,
		.max_segs = 1,
		.segs_why = MMCHAL_WHY_ENGINE_SEGS,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_CARD_UNKNOWN,
		GEN3_SIZES,
		GEN3_IOMMU_DEFERRED,
	},
	{
		.name = "idmac + IOMMU with merge boundary 0 + eMMC -> 1 segment",
		.caps = {.host = GEN3_HOST,
			 .dma = IDMAC_DMA,
			 .iommu = {.present = true,
				   .page_size = 4096,
				   .merge_boundary = 0,
				   .aperture_end = 0xffffffffu}},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_MMC,
		.max_segs = 1,
		.segs_why = MMCHAL_WHY_ENGINE_SEGS,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_IOMMU_CANNOT,
		GEN3_SIZES,
		GEN3_IOMMU_DEFERRED,
	},
	{
		.name = "idmac, host not merge-capable (r7s9210) + merging IOMMU + eMMC -> 1",
		.caps = {.host = {.blk_count_bits = 32, .max_blk_count = 8388607},
			 .dma = IDMAC_DMA,
			 .iommu = IOMMU_MERGING},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_MMC,
		.max_segs = 1,
		.segs_why = MMCHAL_WHY_ENGINE_SEGS,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NOT_CAPABLE,
		GEN3_SIZES,
		GEN3_IOMMU_DEFERRED,
	},
	{
		.name = "idmac without IOMMU (RZ/G2L) + eMMC -> 1, nothing to unmap",
		.caps = {.host = GEN3_HOST, .dma = IDMAC_DMA},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_MMC,
		.max_segs = 1,
		.segs_why = MMCHAL_WHY_ENGINE_SEGS,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NO_IOMMU,
		GEN3_SIZES,
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_NO_WORK,
		.work_ns = 2000,
	},
	{
		.name = "SYS-DMAC with 32 descriptors -> 32 (default), engine caps the request",
		.caps = {.host = GEN2_HOST, .dma = SYSDMAC_DMA(32)},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SD,
		.max_segs = 32,
		.segs_why = MMCHAL_WHY_DEFAULT,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NOT_CAPABLE,
		.max_req_size = 32ull << 24,
		.req_why = MMCHAL_WHY_ENGINE_XFER,
		.max_blk_count = 1048576,
		.blk_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.max_seg_size = 16u << 20,
		.seg_size_why = MMCHAL_WHY_ENGINE_SEG_SIZE,
		.bounce_why = MMCHAL_WHY_BOUNCE_NO_POOL,
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_NO_WORK,
		.work_ns = 2000,
	},
	{
		.name = "SYS-DMAC with 16 descriptors -> its descriptor limit 16",
		.caps = {.host = GEN2_HOST, .dma = SYSDMAC_DMA(16)},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SD,
		.max_segs = 16,
		.segs_why = MMCHAL_WHY_ENGINE_SEGS,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NOT_CAPABLE,
		.max_req_size = 16ull << 24,
		.req_why = MMCHAL_WHY_ENGINE_XFER,
		.max_blk_count = 524288,
		.blk_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.max_seg_size = 16u << 20,
		.seg_size_why = MMCHAL_WHY_ENGINE_SEG_SIZE,
		.bounce_why = MMCHAL_WHY_BOUNCE_NO_POOL,
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_NO_WORK,
		.work_ns = 2000,
	},
	{
		.name = "SYS-DMAC with 256 descriptors -> still the default 32",
		.caps = {.host = GEN2_HOST, .dma = SYSDMAC_DMA(256)},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_MMC,
		.max_segs = 32,
		.segs_why = MMCHAL_WHY_DEFAULT,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NOT_CAPABLE,
		.max_req_size = GEN3_REQ,
		.req_why = MMCHAL_WHY_BLK_PRODUCT,
		.max_blk_count = 8388607,
		.blk_why = MMCHAL_WHY_SOC_BLK_COUNT,
		.max_seg_size = 16u << 20,
		.seg_size_why = MMCHAL_WHY_ENGINE_SEG_SIZE,
		.bounce_why = MMCHAL_WHY_BOUNCE_NO_POOL,
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_NO_WORK,
		.work_ns = 2000,
	},
	{
		.name = "PIO (Gen1 data: 256 blocks) -> 32, no engine limit",
		.caps = {.host = {.max_blk_count = 256}},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SD,
		.max_segs = 32,
		.segs_why = MMCHAL_WHY_PIO_NO_ENGINE,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NO_DMA,
		.max_req_size = 131072,
		.req_why = MMCHAL_WHY_BLK_PRODUCT,
		.max_blk_count = 256,
		.blk_why = MMCHAL_WHY_SOC_BLK_COUNT,
		.max_seg_size = 131072,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_why = MMCHAL_WHY_BOUNCE_NO_POOL,
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_NO_WORK,
		.work_ns = 2000,
	},
	{
		.name = "PIO with a bounce pool -> the pool is never used",
		.caps = {.host = {.max_blk_count = 256}, .bounce = {.present = true}},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SD,
		.max_segs = 32,
		.segs_why = MMCHAL_WHY_PIO_NO_ENGINE,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NO_DMA,
		.max_req_size = 131072,
		.req_why = MMCHAL_WHY_BLK_PRODUCT,
		.max_blk_count = 256,
		.blk_why = MMCHAL_WHY_SOC_BLK_COUNT,
		.max_seg_size = 131072,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_why = MMCHAL_WHY_BOUNCE_PIO,
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_NO_WORK,
		.work_ns = 2000,
	},
	{
		.name = "16-bit block counter -> 65535 blocks",
		.caps = {.host = {.blk_count_bits = 16}},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SD,
		.max_segs = 32,
		.segs_why = MMCHAL_WHY_PIO_NO_ENGINE,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NO_DMA,
		.max_req_size = 65535ull * 512,
		.req_why = MMCHAL_WHY_BLK_PRODUCT,
		.max_blk_count = 65535,
		.blk_why = MMCHAL_WHY_BLK_COUNTER,
		.max_seg_size = 65535u * 512,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_why = MMCHAL_WHY_BOUNCE_NO_POOL,
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_NO_WORK,
		.work_ns = 2000,
	},
	{
		.name = "bounce pool, no IOMMU -> max_req_size 256 KiB (swiotlb clamp)",
		.caps = {.host = GEN2_HOST, .dma = SYSDMAC_DMA(32), .bounce = {.present = true}},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SD,
		.max_segs = 32,
		.segs_why = MMCHAL_WHY_DEFAULT,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NOT_CAPABLE,
		.max_req_size = 262144,
		.req_why = MMCHAL_WHY_BOUNCE_CLAMP,
		.max_blk_count = 512,
		.blk_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.max_seg_size = 262144,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_limit = 262144,
		.bounce_why = MMCHAL_WHY_BOUNCE_POOL,
		/* 2000 + 256 KiB x 500 ns */
		.policy = MMCHAL_POLICY_DEFERRED,
		.policy_why = MMCHAL_WHY_POLICY_TOO_MUCH,
		.work_ns = 130000,
	},
	{
		.name = "bounce pool of 32 slots -> mapping limited to the pool, 64 KiB",
		.caps = {.host = GEN2_HOST,
			 .dma = SYSDMAC_DMA(32),
			 .bounce = {.present = true, .nslots = 32}},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SD,
		.max_segs = 32,
		.segs_why = MMCHAL_WHY_DEFAULT,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NOT_CAPABLE,
		.max_req_size = 65536,
		.req_why = MMCHAL_WHY_BOUNCE_CLAMP,
		.max_blk_count = 128,
		.blk_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.max_seg_size = 65536,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_limit = 65536,
		.bounce_why = MMCHAL_WHY_BOUNCE_POOL,
		/* 2000 + 64 KiB x 500 ns = 34000: over 20 us, under 100 us */
		.policy = MMCHAL_POLICY_IRQ_SPLIT,
		.policy_why = MMCHAL_WHY_POLICY_IRQ_OK,
		.work_ns = 34000,
	},
	{
		.name = "IOMMU present -> no bounce clamp, the IOMMU's max mapping instead",
		.caps = {.host = GEN3_HOST,
			 .dma = IDMAC_DMA,
			 .iommu = {.present = true,
				   .page_size = 4096,
				   .merge_boundary = 0xfff,
				   .max_map_size = 1u << 20,
				   .aperture_end = 0xffffffffu},
			 .bounce = {.present = true}},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_MMC,
		MERGED_4K,
		.max_req_size = 1u << 20,
		.req_why = MMCHAL_WHY_IOMMU_MAP_LIMIT,
		.max_blk_count = 2048,
		.blk_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.max_seg_size = 1u << 20,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_limit = 0,
		.bounce_why = MMCHAL_WHY_BOUNCE_IOMMU,
		/* 2000 + (256 + 1) x 100 + 2000 */
		.policy = MMCHAL_POLICY_IRQ_SPLIT,
		.policy_why = MMCHAL_WHY_POLICY_IRQ_OK,
		.work_ns = 29700,
	},
	{
		.name = "small IOMMU mappings -> completion fits under the lock",
		.caps = {.host = GEN3_HOST,
			 .dma = IDMAC_DMA,
			 .iommu = {.present = true,
				   .page_size = 4096,
				   .merge_boundary = 0xfff,
				   .max_map_size = 65536}},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SD,
		MERGED_4K,
		.max_req_size = 65536,
		.req_why = MMCHAL_WHY_IOMMU_MAP_LIMIT,
		.max_blk_count = 128,
		.blk_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.max_seg_size = 65536,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_why = MMCHAL_WHY_BOUNCE_NO_POOL,
		/* 2000 + 17 x 100 + 2000 */
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_IRQ_OFF_OK,
		.work_ns = 5700,
	},
	{
		.name = "16 KiB IOMMU pages -> 16 KiB virt_boundary",
		.caps = {.host = GEN3_HOST,
			 .dma = IDMAC_DMA,
			 .iommu = {.present = true,
				   .page_size = 16384,
				   .merge_boundary = 0x3fff,
				   .max_map_size = 1u << 20}},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_MMC,
		.max_segs = 512,
		.segs_why = MMCHAL_WHY_MERGE_RAISED,
		.merge = true,
		.merge_why = MMCHAL_WHY_MERGE_RAISED,
		.virt_boundary = 0x3fff,
		.max_req_size = 1u << 20,
		.req_why = MMCHAL_WHY_IOMMU_MAP_LIMIT,
		.max_blk_count = 2048,
		.blk_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.max_seg_size = 1u << 20,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_why = MMCHAL_WHY_BOUNCE_NO_POOL,
		/* 2000 + (64 + 1) x 100 + 2000 */
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_IRQ_OFF_OK,
		.work_ns = 10500,
	},
	{
		.name = "engine with a 64 KiB transfer limit and a merged request",
		.caps = {.host = GEN3_HOST,
			 .dma = {.kind = MMCHAL_DMA_INTERNAL,
				 .dir = {{.max_segs = 1,
					  .max_seg_size = 0xffffffffu,
					  .max_xfer = 65536},
					 {.max_segs = 1,
					  .max_seg_size = 0xffffffffu,
					  .max_xfer = 65536}}},
			 .iommu = IOMMU_MERGING},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_MMC,
		MERGED_4K,
		.max_req_size = 65536,
		.req_why = MMCHAL_WHY_ENGINE_XFER,
		.max_blk_count = 128,
		.blk_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.max_seg_size = 65536,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_why = MMCHAL_WHY_BOUNCE_NO_POOL,
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_IRQ_OFF_OK,
		.work_ns = 5700,
	},
	{
		.name = "polled backend (boot loader) -> POLLED",
		.caps = {.host = {.merge_capable = true,
				  .blk_count_bits = 32,
				  .max_blk_count = 8388607,
				  .completion = MMCHAL_COMPLETES_POLLED},
			 .dma = IDMAC_DMA},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_MMC,
		.max_segs = 1,
		.segs_why = MMCHAL_WHY_ENGINE_SEGS,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NO_IOMMU,
		GEN3_SIZES,
		.policy = MMCHAL_POLICY_POLLED,
		.policy_why = MMCHAL_WHY_POLICY_NO_IRQ,
		.work_ns = 2000,
	},
	{
		.name = "interrupts but no lock in the port -> POLLED",
		.caps = {.host = GEN3_HOST, .dma = IDMAC_DMA},
		.port = {.lock = false, .deferred_work = true},
		.card = MMCHAL_CARD_MMC,
		.max_segs = 1,
		.segs_why = MMCHAL_WHY_ENGINE_SEGS,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NO_IOMMU,
		GEN3_SIZES,
		.policy = MMCHAL_POLICY_POLLED,
		.policy_why = MMCHAL_WHY_POLICY_NO_LOCK,
		.work_ns = 2000,
	},
	{
		.name = "over the interrupt budget without deferred work -> IRQ_SPLIT",
		.caps = {.host = GEN3_HOST, .dma = IDMAC_DMA, .iommu = IOMMU_MERGING},
		.port = PORT_LOCK_ONLY,
		.card = MMCHAL_CARD_MMC,
		MERGED_4K,
		GEN3_SIZES,
		.policy = MMCHAL_POLICY_IRQ_SPLIT,
		.policy_why = MMCHAL_WHY_POLICY_NO_DEFER,
		.work_ns = GEN3_IOMMU_WORK,
	},
	{
		.name = "override IRQ_LOCKED is honoured and explained",
		.caps = {.host = GEN3_HOST, .dma = IDMAC_DMA, .iommu = IOMMU_MERGING},
		.port = PORT_FULL,
		.cfg = {.override = MMCHAL_POLICY_IRQ_LOCKED},
		.card = MMCHAL_CARD_MMC,
		MERGED_4K,
		GEN3_SIZES,
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_OVERRIDE,
		.work_ns = GEN3_IOMMU_WORK,
	},
	{
		.name = "custom budgets and costs move the choice",
		.caps = {.host = GEN2_HOST, .dma = SYSDMAC_DMA(32), .bounce = {.present = true}},
		.port = PORT_FULL,
		.cfg = {.irq_off_budget_ns = 200000, .base_ns = 1000, .copy_ns_per_kib = 100},
		.card = MMCHAL_CARD_SD,
		.max_segs = 32,
		.segs_why = MMCHAL_WHY_DEFAULT,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NOT_CAPABLE,
		.max_req_size = 262144,
		.req_why = MMCHAL_WHY_BOUNCE_CLAMP,
		.max_blk_count = 512,
		.blk_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.max_seg_size = 262144,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_limit = 262144,
		.bounce_why = MMCHAL_WHY_BOUNCE_POOL,
		/* 1000 + 256 x 100 */
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_IRQ_OFF_OK,
		.work_ns = 26600,
	},
	{
		.name = "declared 1024-byte blocks with a 16-bit counter",
		.caps = {.host = {.max_blk_size = 1024, .blk_count_bits = 16}},
		.port = PORT_FULL,
		.card = MMCHAL_CARD_SDIO,
		.max_segs = 32,
		.segs_why = MMCHAL_WHY_PIO_NO_ENGINE,
		.merge = false,
		.merge_why = MMCHAL_WHY_MERGE_NO_DMA,
		.max_req_size = 65535ull * 1024,
		.req_why = MMCHAL_WHY_BLK_PRODUCT,
		.max_blk_count = 65535,
		.blk_why = MMCHAL_WHY_BLK_COUNTER,
		.max_seg_size = 65535u * 1024,
		.seg_size_why = MMCHAL_WHY_FIT_REQ_SIZE,
		.bounce_why = MMCHAL_WHY_BOUNCE_NO_POOL,
		.policy = MMCHAL_POLICY_IRQ_LOCKED,
		.policy_why = MMCHAL_WHY_POLICY_NO_WORK,
		.work_ns = 2000,
	},
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* The cause each reason documents (mmchal/limits.h), from the row's
 * expected values: a derivation that picks the right reason but reports
 * another input behind it fails here. */
static void check_causes(const struct row *r, const struct mmchal_limits *l)
{
	uint64_t merge_cause = r->merge ? r->virt_boundary + 1u : r->max_segs;
	uint64_t blk_cause;

	assert_int_equal(l->cause[MMCHAL_LIM_MAX_SEGS], merge_cause);
	assert_int_equal(l->cause[MMCHAL_LIM_MERGE], merge_cause);
	assert_int_equal(l->cause[MMCHAL_LIM_VIRT_BOUNDARY], merge_cause);
	assert_int_equal(l->cause[MMCHAL_LIM_MAX_BLK_SIZE], l->max_blk_size);
	assert_int_equal(l->cause[MMCHAL_LIM_MAX_REQ_SIZE], r->max_req_size);
	switch (r->blk_why) {
	case MMCHAL_WHY_BLK_COUNTER:
		blk_cause = r->caps.host.blk_count_bits == 32 ? 32 : 16;
		break;
	case MMCHAL_WHY_SOC_BLK_COUNT:
		blk_cause = r->max_blk_count;
		break;
	default:
		blk_cause = r->max_req_size;
		break;
	}
	assert_int_equal(l->cause[MMCHAL_LIM_MAX_BLK_COUNT], blk_cause);
	assert_int_equal(l->cause[MMCHAL_LIM_MAX_SEG_SIZE],
			 r->seg_size_why == MMCHAL_WHY_FIT_REQ_SIZE ? r->max_req_size
								    : r->max_seg_size);
	assert_int_equal(l->cause[MMCHAL_LIM_BOUNCE_LIMIT], r->bounce_limit);
	assert_int_equal(l->cause[MMCHAL_LIM_POLICY], r->work_ns);
	assert_int_equal(l->cause[MMCHAL_LIM_DMA_ALIGN], l->dma_align);
	assert_int_equal(l->cause[MMCHAL_LIM_SEG_BOUNDARY],
			 l->seg_boundary ? l->seg_boundary + 1u : 0u);
}

static void check_row(const struct row *r)
{
	struct mmchal_limits l;
	int ret;

	ret = mmchal_limits_derive(&r->caps, &r->port, &r->cfg, r->card, &l);
	if (ret != 0)
		fail_msg("%s: derive returned %d", r->name, ret);
	assert_int_equal(l.card, r->card);
	assert_int_equal(l.max_segs, r->max_segs);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_SEGS], r->segs_why);
	assert_int_equal(l.merge, r->merge);
	assert_int_equal(l.reason[MMCHAL_LIM_MERGE], r->merge_why);
	assert_int_equal(l.virt_boundary, r->virt_boundary);
	assert_int_equal(l.max_req_size, r->max_req_size);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_REQ_SIZE], r->req_why);
	assert_int_equal(l.max_blk_count, r->max_blk_count);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_BLK_COUNT], r->blk_why);
	assert_int_equal(l.max_seg_size, r->max_seg_size);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_SEG_SIZE], r->seg_size_why);
	assert_int_equal(l.bounce_limit, r->bounce_limit);
	assert_int_equal(l.reason[MMCHAL_LIM_BOUNCE_LIMIT], r->bounce_why);
	assert_int_equal(l.policy, r->policy);
	assert_int_equal(l.reason[MMCHAL_LIM_POLICY], r->policy_why);
	assert_int_equal(l.completion_work_ns, r->work_ns);
	check_causes(r, &l);
	/* Invariants every derivation must keep. */
	assert_true((uint64_t)l.max_blk_count * l.max_blk_size <= l.max_req_size);
	assert_true(l.max_seg_size <= l.max_req_size);
	assert_true(l.max_segs >= 1);
}

static void test_table(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < NROWS; i++)
		check_row(&rows[i]);
}

static void test_engine_alignment_and_boundary(void **state)
{
	const struct mmchal_caps idmac = {.host = GEN3_HOST, .dma = IDMAC_DMA};
	const struct mmchal_caps sysdmac = {.host = GEN2_HOST, .dma = SYSDMAC_DMA(32)};
	const struct mmchal_caps pio = {.host = GEN2_HOST};
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_limits l;

	(void)state;
	assert_int_equal(mmchal_limits_derive(&idmac, &port, NULL, MMCHAL_CARD_MMC, &l), 0);
	assert_int_equal(l.dma_align, 128);
	assert_int_equal(l.reason[MMCHAL_LIM_DMA_ALIGN], MMCHAL_WHY_ENGINE_ALIGN);
	assert_int_equal(l.seg_boundary, 0);
	assert_int_equal(l.reason[MMCHAL_LIM_SEG_BOUNDARY], MMCHAL_WHY_NONE);
	assert_int_equal(l.max_blk_size, 512);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_BLK_SIZE], MMCHAL_WHY_DEFAULT);

	assert_int_equal(mmchal_limits_derive(&sysdmac, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.dma_align, 4);
	assert_int_equal(l.seg_boundary, 0xffffffffu);
	assert_int_equal(l.reason[MMCHAL_LIM_SEG_BOUNDARY], MMCHAL_WHY_ENGINE_BOUNDARY);
	assert_int_equal(l.cause[MMCHAL_LIM_SEG_BOUNDARY], 0x100000000ull);

	assert_int_equal(mmchal_limits_derive(&pio, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.dma_align, 1);
	assert_int_equal(l.reason[MMCHAL_LIM_DMA_ALIGN], MMCHAL_WHY_NONE);
}

static void test_directions_take_the_stricter(void **state)
{
	struct mmchal_caps caps = {.host = GEN2_HOST, .dma = SYSDMAC_DMA(32)};
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_limits l;

	(void)state;
	/* The read channel chains fewer segments and needs coarser alignment. */
	caps.dma.dir[MMCHAL_DIR_FROM_CARD].max_segs = 8;
	caps.dma.dir[MMCHAL_DIR_FROM_CARD].addr_align = 16;
	caps.dma.dir[MMCHAL_DIR_TO_CARD].max_seg_size = 4096;
	caps.dma.dir[MMCHAL_DIR_TO_CARD].seg_boundary = 0xffff;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.max_segs, 8);
	assert_int_equal(l.dma_align, 16);
	assert_int_equal(l.max_seg_size, 4096);
	assert_int_equal(l.seg_boundary, 0xffff);
	/* TO_CARD: 32 x 4 KiB; FROM_CARD: 8 x 16 MiB: the smaller wins. */
	assert_int_equal(l.max_req_size, 32u * 4096u);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_REQ_SIZE], MMCHAL_WHY_ENGINE_XFER);
	/* A direction with no boundary (0) leaves the other's; a mask of 1
	   (2-byte units) is a boundary too. */
	caps.dma.dir[MMCHAL_DIR_FROM_CARD].seg_boundary = 0;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.seg_boundary, 0xffff);
	caps.dma.dir[MMCHAL_DIR_FROM_CARD].seg_boundary = 1;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.seg_boundary, 1);
}

static void test_rederive_at_init_card(void **state)
{
	const struct mmchal_caps caps = {
		.host = GEN3_HOST, .dma = IDMAC_DMA, .iommu = IOMMU_MERGING};
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_limits l;

	(void)state;
	/* Before identification: the engine's one segment. */
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_UNKNOWN, &l), 0);
	assert_int_equal(l.max_segs, 1);
	/* eMMC found: raised. */
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_MMC, &l), 0);
	assert_int_equal(l.max_segs, 512);
	assert_int_equal(l.virt_boundary, 0xfff);
	/* Card swapped for an SDIO card: back to one, no boundary left over. */
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SDIO, &l), 0);
	assert_int_equal(l.max_segs, 1);
	assert_int_equal(l.virt_boundary, 0);
	assert_false(l.merge);
}

/* Each entry breaks exactly one thing of an otherwise valid Gen3 setup. */
enum breakage {
	B_ENGINE_SEGS_0,
	B_ENGINE_SEG_SIZE_0,
	B_ALIGN_NOT_POW2,
	B_GRANULE_NOT_POW2,
	B_BOUNDARY_NOT_MASK,
	B_ADDR_BITS_65,
	B_DMA_KIND,
	B_IOMMU_PAGE_0,
	B_IOMMU_PAGE_NOT_POW2,
	B_MERGE_BOUNDARY_NOT_PAGE,
	B_IOMMU_ABSENT_WITH_FIELDS,
	B_APERTURE_REVERSED,
	B_BOUNCE_ABSENT_WITH_FIELDS,
	B_BOUNCE_SLOT_NOT_POW2,
	B_COUNTER_24,
	B_BLK_SIZE_HUGE,
	B_COMPLETION_CTX,
	B_CARD_TYPE,
	B_OVERRIDE_RANGE,
	B_OVERRIDE_DEFERRED_NO_WORK,
	B_OVERRIDE_IRQ_ON_POLLED,
	B_OVERRIDE_IRQ_NO_LOCK,
	B_REQ_BELOW_ONE_BLOCK,
	B_COUNT,
};

static void test_invalid_combinations(void **state)
{
	(void)state;
	for (int b = 0; b < B_COUNT; b++) {
		struct mmchal_caps caps = {
			.host = GEN3_HOST, .dma = IDMAC_DMA, .iommu = IOMMU_MERGING};
		struct mmchal_port_caps port = PORT_FULL;
		struct mmchal_policy_cfg cfg = {0};
		enum mmchal_card_type card = MMCHAL_CARD_MMC;
		struct mmchal_limits l, before;

		switch ((enum breakage)b) {
		case B_ENGINE_SEGS_0:
			caps.dma.dir[1].max_segs = 0;
			break;
		case B_ENGINE_SEG_SIZE_0:
			caps.dma.dir[0].max_seg_size = 0;
			break;
		case B_ALIGN_NOT_POW2:
			caps.dma.dir[0].addr_align = 96;
			break;
		case B_GRANULE_NOT_POW2:
			caps.dma.dir[1].len_granule = 6;
			break;
		case B_BOUNDARY_NOT_MASK:
			caps.dma.dir[0].seg_boundary = 0x1000;
			break;
		case B_ADDR_BITS_65:
			caps.dma.dir[0].addr_bits = 65;
			break;
		case B_DMA_KIND:
			caps.dma.kind = (enum mmchal_dma_kind)7;
			break;
		case B_IOMMU_PAGE_0:
			caps.iommu.page_size = 0;
			break;
		case B_IOMMU_PAGE_NOT_POW2:
			caps.iommu.page_size = 3000;
			break;
		case B_MERGE_BOUNDARY_NOT_PAGE:
			caps.iommu.merge_boundary = 0x7ff;
			break;
		case B_IOMMU_ABSENT_WITH_FIELDS:
			caps.iommu.present = false;
			break;
		case B_APERTURE_REVERSED:
			caps.iommu.aperture_start = 0x2000;
			caps.iommu.aperture_end = 0x1fff;
			break;
		case B_BOUNCE_ABSENT_WITH_FIELDS:
			caps.bounce.nslots = 64;
			break;
		case B_BOUNCE_SLOT_NOT_POW2:
			caps.bounce.present = true;
			caps.bounce.slot_size = 3000;
			break;
		case B_COUNTER_24:
			caps.host.blk_count_bits = 24;
			break;
		case B_BLK_SIZE_HUGE:
			caps.host.max_blk_size = 70000;
			break;
		case B_COMPLETION_CTX:
			caps.host.completion = (enum mmchal_completion_ctx)5;
			break;
		case B_CARD_TYPE:
			card = (enum mmchal_card_type)9;
			break;
		case B_OVERRIDE_RANGE:
			cfg.override = (enum mmchal_completion_policy)9;
			break;
		case B_OVERRIDE_DEFERRED_NO_WORK:
			port.deferred_work = false;
			cfg.override = MMCHAL_POLICY_DEFERRED;
			break;
		case B_OVERRIDE_IRQ_ON_POLLED:
			caps.host.completion = MMCHAL_COMPLETES_POLLED;
			cfg.override = MMCHAL_POLICY_IRQ_SPLIT;
			break;
		case B_OVERRIDE_IRQ_NO_LOCK:
			port.lock = false;
			cfg.override = MMCHAL_POLICY_IRQ_LOCKED;
			break;
		case B_REQ_BELOW_ONE_BLOCK:
			/* A 256-byte bounce pool cannot carry one 512-byte block. */
			caps.iommu = (struct mmchal_iommu_caps){0};
			caps.bounce = (struct mmchal_bounce_caps){
				.present = true, .slot_size = 256, .nslots = 1};
			break;
		case B_COUNT:
			break;
		}
		memset(&l, 0xa5, sizeof(l));
		before = l;
		if (mmchal_limits_derive(&caps, &port, &cfg, card, &l) != MMCHAL_EINVAL)
			fail_msg("breakage %d was accepted", b);
		/* Nothing is written on error. */
		assert_memory_equal(&l, &before, sizeof(l));
	}
}

static void test_null_arguments(void **state)
{
	const struct mmchal_caps caps = {.host = GEN3_HOST, .dma = IDMAC_DMA};
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_limits l;

	(void)state;
	assert_int_equal(mmchal_limits_derive(NULL, &port, NULL, MMCHAL_CARD_SD, &l),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_limits_derive(&caps, NULL, NULL, MMCHAL_CARD_SD, &l),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, NULL),
			 MMCHAL_EINVAL);
}

static void test_zeroed_caps_are_a_valid_pio_host(void **state)
{
	const struct mmchal_caps caps = {0};
	const struct mmchal_port_caps port = {0};
	struct mmchal_limits l;

	(void)state;
	/* A zero-initialised configuration means defaults: PIO, 16-bit counter,
	 * 512-byte blocks, interrupt completion without a lock -> polled. */
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_UNKNOWN, &l), 0);
	assert_int_equal(l.max_segs, 32);
	assert_int_equal(l.max_blk_size, 512);
	assert_int_equal(l.max_blk_count, 65535);
	assert_int_equal(l.max_req_size, 65535u * 512u);
	assert_int_equal(l.policy, MMCHAL_POLICY_POLLED);
	assert_int_equal(l.reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_NO_LOCK);
}

/* The block size: the host's own, or the library default, each with its reason
 * and the value as its cause. */
static void test_block_size_reason(void **state)
{
	struct mmchal_caps caps;
	struct mmchal_port_caps port = {0};
	struct mmchal_limits l;

	(void)state;
	memset(&caps, 0, sizeof(caps));
	caps.host.max_blk_size = 1024;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.max_blk_size, 1024);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_BLK_SIZE], MMCHAL_WHY_HOST_DECLARED);
	assert_int_equal(l.cause[MMCHAL_LIM_MAX_BLK_SIZE], 1024);

	caps.host.max_blk_size = 0;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.max_blk_size, MMCHAL_MAX_BLK_SIZE_DEFAULT);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_BLK_SIZE], MMCHAL_WHY_DEFAULT);
	assert_int_equal(l.cause[MMCHAL_LIM_MAX_BLK_SIZE], MMCHAL_MAX_BLK_SIZE_DEFAULT);
}

/* A PIO host whose completion work is base_ns only, with the budgets given. */
static void derive_pio_work(uint32_t base_ns, bool deferred, struct mmchal_limits *l)
{
	const struct mmchal_caps caps = {.host = GEN2_HOST};
	const struct mmchal_port_caps port = {.lock = true, .deferred_work = deferred};
	const struct mmchal_policy_cfg cfg = {
		.irq_off_budget_ns = 5000, .irq_budget_ns = 9000, .base_ns = base_ns};

	assert_int_equal(mmchal_limits_derive(&caps, &port, &cfg, MMCHAL_CARD_SD, l), 0);
	assert_int_equal(l->completion_work_ns, base_ns);
	assert_int_equal(l->cause[MMCHAL_LIM_POLICY], base_ns);
}

static void test_policy_budget_edges(void **state)
{
	struct mmchal_limits l;

	(void)state;
	/* Exactly on the interrupt-off budget still completes under the lock. */
	derive_pio_work(5000, true, &l);
	assert_int_equal(l.policy, MMCHAL_POLICY_IRQ_LOCKED);
	assert_int_equal(l.reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_NO_WORK);
	derive_pio_work(5001, true, &l);
	assert_int_equal(l.policy, MMCHAL_POLICY_IRQ_SPLIT);
	assert_int_equal(l.reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_IRQ_OK);
	/* Exactly on the interrupt budget still completes in the handler. */
	derive_pio_work(9000, true, &l);
	assert_int_equal(l.policy, MMCHAL_POLICY_IRQ_SPLIT);
	derive_pio_work(9001, true, &l);
	assert_int_equal(l.policy, MMCHAL_POLICY_DEFERRED);
	assert_int_equal(l.reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_TOO_MUCH);
	derive_pio_work(9001, false, &l);
	assert_int_equal(l.policy, MMCHAL_POLICY_IRQ_SPLIT);
	assert_int_equal(l.reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_NO_DEFER);
}

static void test_policy_work_with_iommu_on_budget(void **state)
{
	/* One-segment engine behind a non-merging 4 KiB IOMMU, requests of
	 * 64 KiB: 16 pages + 1 partial page per segment. */
	struct mmchal_caps caps = {.host = GEN3_HOST, .dma = IDMAC_DMA};
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_policy_cfg cfg = {.base_ns = 1000, .unmap_ns_per_page = 100, .flush_ns = 300};
	struct mmchal_limits l;

	(void)state;
	caps.host.max_blk_count = 128;
	caps.iommu.present = true;
	caps.iommu.page_size = 4096;
	/* 1000 + 17 x 100 + 300 = 3000 ns. */
	cfg.irq_off_budget_ns = 3000;
	assert_int_equal(mmchal_limits_derive(&caps, &port, &cfg, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.max_req_size, 65536);
	assert_int_equal(l.completion_work_ns, 3000);
	assert_int_equal(l.policy, MMCHAL_POLICY_IRQ_LOCKED);
	assert_int_equal(l.reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_IRQ_OFF_OK);
	cfg.irq_off_budget_ns = 2999;
	assert_int_equal(mmchal_limits_derive(&caps, &port, &cfg, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.policy, MMCHAL_POLICY_IRQ_SPLIT);
	/* A cost per page that overflows 64 bits saturates instead of wrapping:
	 * 65535-byte blocks x 2^32 - 1 blocks is about 2^39 pages of 512 bytes. */
	caps.host.max_blk_count = 0;
	caps.host.max_blk_size = 65535;
	caps.iommu.page_size = 512;
	caps.dma.dir[0].max_xfer = UINT64_MAX;
	caps.dma.dir[1].max_xfer = UINT64_MAX;
	cfg.unmap_ns_per_page = 0xffffffffu;
	assert_int_equal(mmchal_limits_derive(&caps, &port, &cfg, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.max_req_size, 65535ull * 0xffffffffu);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_BLK_COUNT], MMCHAL_WHY_BLK_COUNTER);
	assert_int_equal(l.cause[MMCHAL_LIM_MAX_BLK_COUNT], 32);
	assert_int_equal(l.completion_work_ns, UINT64_MAX);
	assert_int_equal(l.policy, MMCHAL_POLICY_DEFERRED);
	/* The largest cost per page that does not overflow: 549 747 425 154
	 * pages (ceil(65535 x (2^32 - 1) / 512) + 1) x floor(2^64 - 1 / pages)
	 * ns is 8 522 890 239 below 2^64 - 1, and the sum is exact. */
	cfg.unmap_ns_per_page = 33554944u;
	assert_int_equal(mmchal_limits_derive(&caps, &port, &cfg, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.completion_work_ns, 549747425154ull * 33554944u + 300u + 1000u);
	assert_int_equal(l.completion_work_ns, UINT64_MAX - 8522890239ull + 1300u);
}

static void test_bounce_work_in_kib(void **state)
{
	/* A pool of 64 KiB slots, 32 per mapping: 2 MiB bounced at most, whose
	 * copy-back costs 2048 KiB x 100 ns on top of the 1000 ns base. */
	struct mmchal_caps caps = {.host = GEN2_HOST, .dma = SYSDMAC_DMA(32)};
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_policy_cfg cfg = {.base_ns = 1000, .copy_ns_per_kib = 100};
	struct mmchal_limits l;

	(void)state;
	caps.bounce.present = true;
	caps.bounce.slot_size = 65536;
	caps.bounce.slots_per_map = 32;
	assert_int_equal(mmchal_limits_derive(&caps, &port, &cfg, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.bounce_limit, 2u << 20);
	assert_int_equal(l.max_req_size, 2u << 20);
	assert_int_equal(l.completion_work_ns, 1000u + 2048u * 100u);
}

static void test_pio_host_behind_iommu(void **state)
{
	/* The IOMMU translates only for a DMA master: a PIO host ignores it. */
	struct mmchal_caps caps = {.host = GEN2_HOST, .iommu = IOMMU_MERGING};
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_limits l;

	(void)state;
	caps.host.merge_capable = true;
	caps.iommu.max_map_size = 4096;
	caps.bounce.present = true;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_false(l.merge);
	assert_int_equal(l.max_segs, MMCHAL_DEFAULT_MAX_SEGS);
	assert_int_equal(l.reason[MMCHAL_LIM_MERGE], MMCHAL_WHY_MERGE_NO_DMA);
	assert_int_equal(l.virt_boundary, 0);
	assert_int_equal(l.max_req_size, 512ull * 8388607u);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_REQ_SIZE], MMCHAL_WHY_BLK_PRODUCT);
	assert_int_equal(l.bounce_limit, 0);
	assert_int_equal(l.reason[MMCHAL_LIM_BOUNCE_LIMIT], MMCHAL_WHY_BOUNCE_PIO);
	/* No unmap and no copy-back work at completion. */
	assert_int_equal(l.completion_work_ns, 2000);
	assert_int_equal(l.reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_NO_WORK);
}

static void test_aperture_with_nonzero_start(void **state)
{
	/* A 1 MiB aperture at 256 MiB: the largest mapping is its size, not
	 * its end address. */
	struct mmchal_caps caps = {.host = GEN3_HOST, .dma = IDMAC_DMA, .iommu = IOMMU_MERGING};
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_limits l;

	(void)state;
	caps.iommu.aperture_start = 0x10000000u;
	caps.iommu.aperture_end = 0x100fffffu;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_MMC, &l), 0);
	assert_int_equal(l.max_req_size, 0x100000u);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_REQ_SIZE], MMCHAL_WHY_IOMMU_MAP_LIMIT);
	assert_int_equal(l.cause[MMCHAL_LIM_MAX_REQ_SIZE], 0x100000u);
	assert_int_equal(l.max_blk_count, 2048);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_BLK_COUNT], MMCHAL_WHY_FIT_REQ_SIZE);
	assert_int_equal(l.cause[MMCHAL_LIM_MAX_BLK_COUNT], 0x100000u);
	/* A declared largest mapping wins over the aperture. */
	caps.iommu.max_map_size = 0x8000u;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_MMC, &l), 0);
	assert_int_equal(l.max_req_size, 0x8000u);
	assert_int_equal(l.cause[MMCHAL_LIM_MAX_REQ_SIZE], 0x8000u);
	/* An aperture up to the top of the 64-bit space does not wrap. */
	caps.iommu.max_map_size = 0;
	caps.iommu.aperture_start = 0;
	caps.iommu.aperture_end = UINT64_MAX;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_MMC, &l), 0);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_REQ_SIZE], MMCHAL_WHY_BLK_PRODUCT);
}

static void test_equal_values_keep_the_first_reason(void **state)
{
	/* When a later limit equals the value so far, it does not take over
	 * the reason: the first rule that produced the value stays. */
	struct mmchal_caps caps = {.host = GEN3_HOST, .dma = IDMAC_DMA};
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_limits l;

	(void)state;
	/* SoC block count equal to the 16-bit counter's limit. */
	caps.host.blk_count_bits = 16;
	caps.host.max_blk_count = 65535;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_BLK_COUNT], MMCHAL_WHY_BLK_COUNTER);
	/* Engine transfer limit equal to the block product. */
	caps.dma.dir[0].max_xfer = 65535u * 512u;
	caps.dma.dir[1].max_xfer = 65535u * 512u;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.max_req_size, 65535u * 512u);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_REQ_SIZE], MMCHAL_WHY_BLK_PRODUCT);
	/* Engine segment size equal to the request size. */
	caps.dma.dir[0].max_seg_size = 65535u * 512u;
	caps.dma.dir[1].max_seg_size = 65535u * 512u;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_SEG_SIZE], MMCHAL_WHY_ENGINE_SEG_SIZE);
	/* IOMMU largest mapping equal to the request size. */
	caps.dma.dir[0].max_xfer = 0;
	caps.dma.dir[1].max_xfer = 0;
	caps.iommu.present = true;
	caps.iommu.page_size = 4096;
	caps.iommu.max_map_size = 65535u * 512u;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_REQ_SIZE], MMCHAL_WHY_BLK_PRODUCT);
	/* Bounce limit equal to the request size: 16 slots of 2 KiB, 64 blocks. */
	memset(&caps.iommu, 0, sizeof(caps.iommu));
	caps.host.max_blk_count = 64;
	caps.bounce.present = true;
	caps.bounce.slots_per_map = 16;
	caps.bounce.nslots = 16;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.bounce_limit, 32768);
	assert_int_equal(l.max_req_size, 32768);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_REQ_SIZE], MMCHAL_WHY_BLK_PRODUCT);
	/* Copy-back cost: 32 KiB at 500 ns per KiB on top of the 2000 ns base. */
	assert_int_equal(l.completion_work_ns, 2000u + 32u * 500u);
	/* A request of exactly one block is allowed. */
	caps.bounce.slot_size = 512;
	caps.bounce.slots_per_map = 1;
	caps.bounce.nslots = 1;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.max_req_size, 512);
	assert_int_equal(l.max_blk_count, 1);
}

static void test_boundary_inputs_accepted(void **state)
{
	struct mmchal_caps caps = {.host = GEN3_HOST, .dma = IDMAC_DMA};
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_policy_cfg cfg = {0};
	struct mmchal_limits l;

	(void)state;
	/* A 64-bit engine. */
	caps.dma.dir[0].addr_bits = 64;
	caps.dma.dir[1].addr_bits = 64;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	/* Alignment 1 is no constraint. */
	caps.dma.dir[0].addr_align = 1;
	caps.dma.dir[1].addr_align = 1;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.dma_align, 1);
	assert_int_equal(l.reason[MMCHAL_LIM_DMA_ALIGN], MMCHAL_WHY_NONE);
	/* An aperture without an end of its own, and one of exactly one byte
	 * (odd, but not inconsistent). */
	caps.iommu.present = true;
	caps.iommu.page_size = 4096;
	caps.iommu.aperture_start = 0x1000;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	caps.iommu.aperture_end = 0x1000;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l),
			 MMCHAL_EINVAL); /* one byte is less than one 512-byte block */
	caps.host.max_blk_size = 1;
	assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l), 0);
	assert_int_equal(l.max_req_size, 1);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_REQ_SIZE], MMCHAL_WHY_IOMMU_MAP_LIMIT);
	caps.host.max_blk_size = 0;
	/* Every policy a host and port can run may be forced. */
	memset(&caps.iommu, 0, sizeof(caps.iommu));
	for (int p = MMCHAL_POLICY_IRQ_LOCKED; p <= MMCHAL_POLICY_POLLED; p++) {
		cfg.override = (enum mmchal_completion_policy)p;
		assert_int_equal(mmchal_limits_derive(&caps, &port, &cfg, MMCHAL_CARD_SD, &l), 0);
		assert_int_equal(l.policy, p);
		assert_int_equal(l.reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_OVERRIDE);
	}
}

static void test_absent_units_with_one_field(void **state)
{
	const struct mmchal_port_caps port = PORT_FULL;
	struct mmchal_limits l;

	(void)state;
	/* Any single field of an absent IOMMU or bounce pool is a mix-up. */
	for (int f = 0; f < 8; f++) {
		struct mmchal_caps caps = {.host = GEN3_HOST, .dma = IDMAC_DMA};

		switch (f) {
		case 0:
			caps.iommu.page_size = 4096;
			break;
		case 1:
			caps.iommu.merge_boundary = 0xfff;
			break;
		case 2:
			caps.iommu.max_map_size = 4096;
			break;
		case 3:
			caps.iommu.aperture_start = 4096;
			break;
		case 4:
			caps.iommu.aperture_end = 4096;
			break;
		case 5:
			caps.bounce.slot_size = 2048;
			break;
		case 6:
			caps.bounce.slots_per_map = 8;
			break;
		default:
			caps.bounce.nslots = 8;
			break;
		}
		assert_int_equal(mmchal_limits_derive(&caps, &port, NULL, MMCHAL_CARD_SD, &l),
				 MMCHAL_EINVAL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_engine_alignment_and_boundary),
		cmocka_unit_test(test_directions_take_the_stricter),
		cmocka_unit_test(test_rederive_at_init_card),
		cmocka_unit_test(test_invalid_combinations),
		cmocka_unit_test(test_null_arguments),
		cmocka_unit_test(test_zeroed_caps_are_a_valid_pio_host),
		cmocka_unit_test(test_block_size_reason),
		cmocka_unit_test(test_policy_budget_edges),
		cmocka_unit_test(test_policy_work_with_iommu_on_budget),
		cmocka_unit_test(test_bounce_work_in_kib),
		cmocka_unit_test(test_pio_host_behind_iommu),
		cmocka_unit_test(test_aperture_with_nonzero_start),
		cmocka_unit_test(test_equal_values_keep_the_first_reason),
		cmocka_unit_test(test_boundary_inputs_accepted),
		cmocka_unit_test(test_absent_units_with_one_field),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
