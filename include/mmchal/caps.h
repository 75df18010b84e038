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
	/** an interrupt handler reports completion (a library without the interrupt
	    path, ::MMCHAL_WITH_IRQ 0, polls such a backend as well) */
	MMCHAL_COMPLETES_IN_IRQ = 0,
	MMCHAL_COMPLETES_POLLED = 1, /**< no interrupt line: completion is found by polling */
};

/** @brief Default largest block size, bytes (TMIO_MAX_BLK_SIZE). */
#define MMCHAL_MAX_BLK_SIZE_DEFAULT 512u

/** @name Bus capabilities of a host (::mmchal_host_caps::bus)
 *  What the controller and its board wiring support; the card layer picks
 *  bus widths and timing modes from these (DT: bus-width, cap-*, mmc-*, sd-uhs-*).
 *  @{
 */
#define MMCHAL_BUS_4_BIT        (1u << 0)  /**< 4-bit data bus wired */
#define MMCHAL_BUS_8_BIT        (1u << 1)  /**< 8-bit data bus wired (eMMC) */
#define MMCHAL_BUS_SD_HS        (1u << 2)  /**< SD high speed, 50 MHz (cap-sd-highspeed) */
#define MMCHAL_BUS_MMC_HS       (1u << 3)  /**< MMC high speed, 52 MHz (cap-mmc-highspeed) */
#define MMCHAL_BUS_UHS_SDR12    (1u << 4)  /**< UHS-I SDR12 (sd-uhs-sdr12) */
#define MMCHAL_BUS_UHS_SDR25    (1u << 5)  /**< UHS-I SDR25 (sd-uhs-sdr25) */
#define MMCHAL_BUS_UHS_SDR50    (1u << 6)  /**< UHS-I SDR50 (sd-uhs-sdr50) */
#define MMCHAL_BUS_UHS_SDR104   (1u << 7)  /**< UHS-I SDR104 (sd-uhs-sdr104) */
#define MMCHAL_BUS_UHS_DDR50    (1u << 8)  /**< UHS-I DDR50 (sd-uhs-ddr50) */
#define MMCHAL_BUS_MMC_DDR52    (1u << 9)  /**< eMMC DDR52 at 1.8 V (mmc-ddr-1_8v) */
#define MMCHAL_BUS_HS200        (1u << 10) /**< eMMC HS200 at 1.8 V (mmc-hs200-1_8v) */
#define MMCHAL_BUS_HS400        (1u << 11) /**< eMMC HS400 at 1.8 V (mmc-hs400-1_8v) */
#define MMCHAL_BUS_CMD23        (1u << 12) /**< the host can send SET_BLOCK_COUNT before data */
#define MMCHAL_BUS_AUTO_CMD12   (1u << 13) /**< the controller can send CMD12 by itself */
#define MMCHAL_BUS_HW_BUSY      (1u << 14) /**< the controller detects the end of DAT0 busy */
#define MMCHAL_BUS_NONREMOVABLE (1u << 15) /**< the card is soldered (non-removable) */
#define MMCHAL_BUS_BROKEN_CD    (1u << 16) /**< card detect is unusable: poll for the card */
#define MMCHAL_BUS_1_8V         (1u << 17) /**< the slot can switch I/O lines to 1.8 V */
#define MMCHAL_BUS_SDIO_IRQ     (1u << 18) /**< the controller forwards the SDIO card interrupt */
#define MMCHAL_BUS_HW_RESET     (1u << 19) /**< the card's hardware reset line is wired */
/** @} */

/** @brief What the host controller itself declares. */
struct mmchal_host_caps {
	bool merge_capable;     /**< the host opts in to segment merging behind an IOMMU
				       (MMC_CAP2_MERGE_CAPABLE); off by default because some
				       IOMMUs cannot merge */
	uint8_t blk_count_bits; /**< width of the block counter register: 16 or 32; 0 = 16 */
	uint32_t max_blk_count; /**< per-SoC cap on blocks per request; 0 = counter maximum */
	uint32_t max_blk_size;  /**< largest block, bytes; 0 = ::MMCHAL_MAX_BLK_SIZE_DEFAULT */
	enum mmchal_completion_ctx completion; /**< where completion events arrive */
	uint32_t bus;      /**< MMCHAL_BUS_* bits; 0 = 1-bit, default speed only */
	uint32_t f_min_hz; /**< lowest card clock the controller reaches, Hz; 0 = unknown */
	uint32_t f_max_hz; /**< highest card clock, Hz (DT max-frequency); 0 = unknown */
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
