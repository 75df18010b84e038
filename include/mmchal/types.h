/**
 * @file
 * @brief Basic types shared by every layer: addresses, scatter-gather
 *        entries, transfer direction, card type and bus settings.
 *
 * @note Plain data; no functions, no locking.
 */
#ifndef MMCHAL_TYPES_H
#define MMCHAL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief A physical address as the memory system (and an IOMMU's page
 *        tables) see it. Always 64 bits wide, also on 32-bit CPUs.
 */
typedef uint64_t mmchal_phys_addr_t;

/**
 * @brief An address as a DMA master sees it: a physical address when there is
 *        no IOMMU, an IOVA behind one.
 */
typedef uint64_t mmchal_dma_addr_t;

/** @brief Direction of a data transfer, seen from the card. */
enum mmchal_dir {
	MMCHAL_DIR_TO_CARD = 0,   /**< write: the device reads memory */
	MMCHAL_DIR_FROM_CARD = 1, /**< read: the device writes memory */
};

/** @brief Number of ::mmchal_dir values; size of per-direction arrays. */
#define MMCHAL_DIR_COUNT 2

/**
 * @brief One caller buffer of a scatter-gather list.
 *
 * A request's data is a list of these. @c cpu is needed for PIO and bounce
 * copies; @c phys is what the DMA engine or the IOMMU maps.
 */
struct mmchal_sg {
	void *cpu; /**< CPU (virtual) address of the buffer; may be NULL for DMA-only memory */
	mmchal_phys_addr_t phys; /**< physical address of the buffer */
	uint32_t len;            /**< length in bytes; never 0 in a valid list */
};

/**
 * @brief One segment handed to a DMA engine: a device address and a length.
 *
 * Backends receive lists of these, already mapped (IOVA or physical); they
 * never map anything themselves.
 */
struct mmchal_dma_seg {
	mmchal_dma_addr_t addr; /**< device-visible address */
	uint32_t len;           /**< length in bytes */
};

/** @brief Card type, as identified by the card layer. */
enum mmchal_card_type {
	MMCHAL_CARD_UNKNOWN = 0,  /**< not identified yet (or identification failed) */
	MMCHAL_CARD_SD = 1,       /**< SD memory card (SDSC, SDHC, SDXC) */
	MMCHAL_CARD_MMC = 2,      /**< MMC / eMMC */
	MMCHAL_CARD_SDIO = 3,     /**< SDIO card without memory */
	MMCHAL_CARD_SD_COMBO = 4, /**< SDIO card with an SD memory part */
};

/** @brief Data bus width in bits. */
enum mmchal_bus_width {
	MMCHAL_BUS_WIDTH_1 = 1, /**< 1-bit (identification, and the binding default) */
	MMCHAL_BUS_WIDTH_4 = 4, /**< 4-bit */
	MMCHAL_BUS_WIDTH_8 = 8, /**< 8-bit (eMMC only) */
};

/** @brief Bus timing mode. */
enum mmchal_timing {
	MMCHAL_TIMING_LEGACY = 0, /**< default speed: SD 25 MHz, MMC 26 MHz */
	MMCHAL_TIMING_SD_HS,      /**< SD high speed, 50 MHz */
	MMCHAL_TIMING_MMC_HS,     /**< MMC high speed, 52 MHz */
	MMCHAL_TIMING_UHS_SDR12,  /**< UHS-I SDR12, 25 MHz, 1.8 V */
	MMCHAL_TIMING_UHS_SDR25,  /**< UHS-I SDR25, 50 MHz, 1.8 V */
	MMCHAL_TIMING_UHS_SDR50,  /**< UHS-I SDR50, 100 MHz, 1.8 V */
	MMCHAL_TIMING_UHS_SDR104, /**< UHS-I SDR104, 208 MHz, 1.8 V, tuned */
	MMCHAL_TIMING_UHS_DDR50,  /**< UHS-I DDR50, 50 MHz both edges */
	MMCHAL_TIMING_MMC_DDR52,  /**< eMMC high-speed DDR, 52 MHz both edges */
	MMCHAL_TIMING_MMC_HS200,  /**< eMMC HS200, 200 MHz, tuned */
	MMCHAL_TIMING_MMC_HS400,  /**< eMMC HS400, 200 MHz both edges, 8-bit */
};

/** @brief Power state of the card slot. */
enum mmchal_power_mode {
	MMCHAL_POWER_OFF = 0, /**< slot powered off */
	MMCHAL_POWER_UP,      /**< power ramping; clock may not run yet */
	MMCHAL_POWER_ON,      /**< powered and clocked */
};

/** @brief Signalling voltage of the I/O lines. */
enum mmchal_signal_voltage {
	MMCHAL_SIGNAL_330 = 0, /**< 3.3 V signalling */
	MMCHAL_SIGNAL_180,     /**< 1.8 V signalling (UHS-I, HS200, HS400) */
	MMCHAL_SIGNAL_120,     /**< 1.2 V signalling */
};

/** @brief Bus settings requested by the card layer (the MMC stack's "ios"). */
struct mmchal_ios {
	uint32_t clock_hz;                         /**< card clock, Hz; 0 = clock stopped */
	enum mmchal_bus_width bus_width;           /**< data bus width */
	enum mmchal_timing timing;                 /**< timing mode */
	enum mmchal_power_mode power_mode;         /**< slot power */
	enum mmchal_signal_voltage signal_voltage; /**< I/O signalling voltage */
};

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_TYPES_H */
