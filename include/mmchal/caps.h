/**
 * @file
 * @brief Capability structures: what the DMA engine, the IOMMU, the bounce
 *        pool and the host controller can do.
 *
 * Capabilities are *queried* (from a backend, the platform's IOMMU ops, the
 * bounce pool) and *declared*, never derived: the core turns them into
 * ::mmchal_limits with mmchal_limits_derive(). All sizes are in bytes.
 *
 * @note Plain data; no locking.
 */
#ifndef MMCHAL_CAPS_H
#define MMCHAL_CAPS_H

#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief What moves the data of a request. */
enum mmchal_dma_kind {
	MMCHAL_DMA_NONE = 0,     /**< no DMA engine: the CPU moves every byte (PIO) */
	MMCHAL_DMA_INTERNAL = 1, /**< a DMA master inside the controller (SDHI internal DMAC) */
	MMCHAL_DMA_EXTERNAL = 2, /**< a system DMA engine feeding the data port (SYS-DMAC) */
};

/**
 * @brief DMA engine constraints for one direction.
 *
 * Zero in a field means "no constraint" unless the field says otherwise.
 */
struct mmchal_dma_dir_caps {
	uint8_t addr_bits; /**< bus address width the engine can drive; 0 = 64 */
	/** required start alignment of every segment, power of two; 0/1 = none */
	uint32_t addr_align;
	/** every segment length must be a multiple of this, power of two; 0/1 = any */
	uint32_t len_granule;
	uint32_t max_segs;     /**< segments the engine chains in one transfer; must be >= 1 */
	uint32_t max_seg_size; /**< largest segment; must be >= 1 */
	/** boundary mask a segment may not cross (e.g. 0xffffffff); 0 = none */
	uint64_t seg_boundary;
	uint32_t min_len;  /**< shorter transfers must go PIO; 0 = no minimum */
	uint64_t max_xfer; /**< most bytes in one transfer; 0 = max_segs * max_seg_size */
	bool coherent;     /**< the engine snoops CPU caches; no cache maintenance needed */
};

/** @brief DMA capabilities of a host, per direction. */
struct mmchal_dma_caps {
	enum mmchal_dma_kind kind; /**< engine type; ::MMCHAL_DMA_NONE means PIO only */
	/** constraints indexed by ::mmchal_dir; ignored when @c kind is ::MMCHAL_DMA_NONE */
	struct mmchal_dma_dir_caps dir[MMCHAL_DIR_COUNT];
};

/**
 * @brief What the IOMMU in front of the DMA master can do.
 *
 * The DMA-layer capability query that the merge rule depends on: merging a
 * scatter-gather list into one device address needs an IOMMU that can merge
 * (non-zero @c merge_boundary) and interior segment boundaries aligned to its
 * page.
 */
struct mmchal_iommu_caps {
	bool present;            /**< an IOMMU translates this master's accesses */
	uint32_t page_size;      /**< IOMMU page (granule) size, power of two; e.g. 4096 */
	uint64_t merge_boundary; /**< page_size - 1 when the IOMMU can merge a list into one
					  IOVA range, 0 when it cannot */
	uint64_t max_map_size;   /**< largest single mapping; 0 = the whole aperture */
	mmchal_dma_addr_t aperture_start; /**< first usable IOVA (inclusive) */
	/** last usable IOVA (inclusive); 0 = no upper bound of its own (the engine's address bits) */
	mmchal_dma_addr_t aperture_end;
};

/** @brief Default bounce slot size, bytes (swiotlb IO_TLB_SHIFT = 11). */
#define MMCHAL_BOUNCE_SLOT_SIZE_DEFAULT     2048u
/** @brief Default most slots one bounce mapping may take (swiotlb IO_TLB_SEGSIZE). */
#define MMCHAL_BOUNCE_SLOTS_PER_MAP_DEFAULT 128u

/** @brief What the bounce (swiotlb-style) pool offers. */
struct mmchal_bounce_caps {
	bool present;       /**< a bounce pool is available to this host */
	uint32_t slot_size; /**< slot size, power of two; 0 = ::MMCHAL_BOUNCE_SLOT_SIZE_DEFAULT */
	uint32_t slots_per_map; /**< most contiguous slots per mapping;
				     0 = ::MMCHAL_BOUNCE_SLOTS_PER_MAP_DEFAULT */
	uint32_t nslots;        /**< slots in the pool; 0 = slots_per_map */
};

/** @brief Where a backend's completion events arrive. */
enum mmchal_completion_ctx {
	MMCHAL_COMPLETES_IN_IRQ = 0, /**< an interrupt handler reports completion */
	MMCHAL_COMPLETES_POLLED = 1, /**< no interrupt line: completion is found by polling */
};

/** @brief Default largest block size, bytes (TMIO_MAX_BLK_SIZE). */
#define MMCHAL_MAX_BLK_SIZE_DEFAULT 512u

/** @brief What the host controller itself declares. */
struct mmchal_host_caps {
	bool merge_capable;     /**< the host opts in to segment merging behind an IOMMU
				       (MMC_CAP2_MERGE_CAPABLE); off by default because some
				       IOMMUs cannot merge */
	uint8_t blk_count_bits; /**< width of the block counter register: 16 or 32; 0 = 16 */
	uint32_t max_blk_count; /**< per-SoC cap on blocks per request; 0 = counter maximum */
	uint32_t max_blk_size;  /**< largest block, bytes; 0 = ::MMCHAL_MAX_BLK_SIZE_DEFAULT */
	enum mmchal_completion_ctx completion; /**< where completion events arrive */
};

/** @brief Everything the limits derivation needs to know. */
struct mmchal_caps {
	struct mmchal_host_caps host;     /**< declared by the backend / SoC data */
	struct mmchal_dma_caps dma;       /**< queried from the backend / DMA channel */
	struct mmchal_iommu_caps iommu;   /**< queried from the platform IOMMU ops */
	struct mmchal_bounce_caps bounce; /**< queried from the bounce pool */
};

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_CAPS_H */
