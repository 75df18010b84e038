/**
 * @file
 * @brief Generic SD Host Controller (SDHCI) backend: configuration, state and
 *        init function.
 *
 * The SD Host Controller Standard (SD Association, Host Controller Simplified
 * Specification v3.00) is the register interface of most SD hosts: i.MX
 * uSDHC, Zynq, Rockchip, Raspberry Pi, PCI SD readers. This backend reads
 * the version and capabilities registers and declares what they say as host
 * and DMA capabilities (the core derives the limits), and moves data by PIO
 * through the buffer data port, by SDMA (one segment that never crosses the
 * SDMA buffer boundary, declared as the segment boundary) or by ADMA2 with
 * 32-bit or 64-bit descriptors in a caller-provided descriptor table whose
 * size sets the engine's segment count.
 *
 * By PIO, a data phase the controller ends (Transfer Complete) before every
 * block went through the data port fails with ::MMCHAL_EIO, and only the
 * blocks that went through count as done, whatever the block counter says.
 *
 * SDHCI registers are 8, 16 and 32 bits wide at byte offsets; the backend uses
 * the bus accessor's 16-bit ops and raw 32-bit ops, so the bus must have
 * @c bus_shift 0. 8-bit registers are reached through their 16-bit pair.
 *
 * Usage: fill a ::mmchal_sdhci_cfg, call mmchal_sdhci_init() on caller-owned
 * ::mmchal_sdhci storage, and hand the resulting ::mmchal_backend to the host
 * core, which calls @c probe first.
 *
 * @note The backend ops follow backend.h: called by the core with the host
 *       lock held, never concurrently. mmchal_sdhci_init() runs before the
 *       host is live.
 */
#ifndef MMCHAL_SDHCI_H
#define MMCHAL_SDHCI_H

#include <mmchal/backend.h>
#include <mmchal/caps.h>
#include <mmchal/error.h>
#include <mmchal/port.h>
#include <mmchal/request.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief How the backend moves data for DMA plans. */
enum mmchal_sdhci_dma {
	/** the best the capabilities offer: ADMA2-64 (with a table and a 64-bit bus),
	    ADMA2-32 (with a table), SDMA, else none */
	MMCHAL_SDHCI_DMA_AUTO = 0,
	MMCHAL_SDHCI_DMA_NONE,     /**< PIO only */
	MMCHAL_SDHCI_DMA_SDMA,     /**< single-operation DMA, one segment, 32-bit addresses */
	MMCHAL_SDHCI_DMA_ADMA2_32, /**< ADMA2, 32-bit descriptors (8 bytes each) */
	MMCHAL_SDHCI_DMA_ADMA2_64, /**< ADMA2, 64-bit descriptors (12 bytes each, spec v3.00) */
};

/** @brief Bytes of one ADMA2 descriptor with 32-bit addresses. */
#define MMCHAL_SDHCI_ADMA2_32_DESC_SIZE     8u
/** @brief Bytes of one ADMA2 descriptor with 64-bit addresses (v3.00 96-bit layout). */
#define MMCHAL_SDHCI_ADMA2_64_DESC_SIZE     12u
/** @brief Descriptor table size for @p nsegs segments in either ADMA2 mode, bytes. */
#define MMCHAL_SDHCI_ADMA_TABLE_SIZE(nsegs) ((nsegs)*MMCHAL_SDHCI_ADMA2_64_DESC_SIZE)
/** @brief Largest ADMA2 descriptor length, bytes (length field 0 means 65536). */
#define MMCHAL_SDHCI_ADMA2_MAX_LEN          65536u
/** @brief SDMA buffer boundary the backend programs, bytes (block size bits 14:12 = 7). */
#define MMCHAL_SDHCI_SDMA_BOUNDARY          0x80000u

/** @name Configuration flags (::mmchal_sdhci_cfg::flags)
 *  @{
 */
#define MMCHAL_SDHCI_F_NONREMOVABLE (1u << 0) /**< the card is soldered (eMMC) */
#define MMCHAL_SDHCI_F_BROKEN_CD    (1u << 1) /**< card detect is unusable: poll */
#define MMCHAL_SDHCI_F_NO_HS        (1u << 2) /**< high speed unusable on this board */
#define MMCHAL_SDHCI_F_NO_1_8V      (1u << 3) /**< no 1.8 V signalling switch wired */
#define MMCHAL_SDHCI_F_IRQ          (1u << 4) /**< an interrupt line is wired: completion in IRQ */
#define MMCHAL_SDHCI_F_COHERENT     (1u << 5) /**< DMA snoops the caches: no table maintenance */
/** @} */

/** @brief Configuration of one SDHCI controller. Zero means default where stated. */
struct mmchal_sdhci_cfg {
	struct mmchal_bus bus;          /**< register window; @c bus_shift must be 0 */
	const struct mmchal_port *port; /**< clock and delay for timeouts, cache ops for the
					     descriptor table; required */
	/** base clock of the SD clock divider, Hz; used only when the capabilities field is
	    0 (Zynq-7000 reports 0); 0 = the capabilities field must be set */
	uint32_t base_clock_hz;
	/** data timeout clock, Hz; used only when the capabilities field is 0; 0 = the SD
	    clock (the fallback Linux uses) */
	uint32_t timeout_clock_hz;
	uint32_t f_max_hz;         /**< board limit of the card clock, Hz; 0 = the base clock */
	uint8_t bus_width;         /**< data lines wired: 1, 4 or 8; 0 = 4 */
	enum mmchal_sdhci_dma dma; /**< data path of DMA plans; 0 = ::MMCHAL_SDHCI_DMA_AUTO */
	void *adma_table;          /**< CPU address of the ADMA2 descriptor table, or NULL */
	mmchal_dma_addr_t adma_table_dma; /**< the table's device address; 8-byte aligned */
	uint32_t adma_table_size;         /**< bytes; sets max_segs (one descriptor per segment) */
	uint32_t flags;                   /**< MMCHAL_SDHCI_F_* */
};

/** @brief Where the current data phase stands (internal). */
struct mmchal_sdhci_pio {
	uint32_t sg_idx; /**< current entry of data->sg */
	uint32_t sg_off; /**< bytes done in that entry */
	uint32_t blocks; /**< blocks moved by the CPU so far */
};

/**
 * @brief One SDHCI controller: configuration and state. Caller storage,
 *        initialised by mmchal_sdhci_init(); fields are read-only to the caller.
 */
struct mmchal_sdhci {
	struct mmchal_sdhci_cfg cfg; /**< copy of the configuration */
	bool probed;                 /**< @c probe succeeded */
	uint8_t spec;                /**< spec version field: 0 = 1.00, 1 = 2.00, 2 = 3.00 */
	uint8_t vendor;              /**< vendor version field */
	uint32_t caps0;              /**< capabilities register, bits 31:0 */
	uint32_t caps1;              /**< capabilities register, bits 63:32 (v3.00), else 0 */
	enum mmchal_sdhci_dma mode;  /**< resolved DMA mode (never AUTO after probe) */
	uint32_t base_hz;            /**< base clock in use, Hz */
	uint32_t tmclk_hz;           /**< data timeout clock in use, Hz; 0 = none known */
	uint32_t clock_hz;           /**< card clock programmed by set_ios, Hz; 0 = stopped */
	uint32_t max_segs;           /**< segments one DMA transfer takes */
	uint16_t irq_enable;         /**< normal interrupt status enables in use */
	/* the request in flight */
	struct mmchal_cmd *cmd;      /**< command awaiting its response, or NULL */
	struct mmchal_data *data;    /**< data phase in flight, or NULL */
	bool pio;                    /**< the CPU moves the data */
	struct mmchal_cmd *busy_cmd; /**< R1b command whose busy end is awaited */
	struct mmchal_cmd *stop;     /**< STOP the controller sends (Auto CMD12), or NULL */
	struct mmchal_sdhci_pio pos; /**< PIO position */
	uint32_t done_blocks;        /**< blocks known done when the last data phase ended */
};

/** @brief The SDHCI backend operations; @c ctx is a ::mmchal_sdhci. */
extern const struct mmchal_backend_ops mmchal_sdhci_ops;

/**
 * @brief Check @p cfg and prepare @p sdhci; touches no register.
 *
 * @param[out] sdhci  caller storage for the controller
 * @param[in]  cfg    configuration; copied
 * @param[out] be     backend to hand to the host core; may be NULL
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL @p sdhci or @p cfg, an unusable bus or port, a bus
 *                        shift other than 0, a bus width other than 0/1/4/8, an
 *                        unknown DMA mode, an ADMA table without its size (or the
 *                        reverse) or not 8-byte aligned, or an ADMA2 mode asked for
 *                        with a table too small for one descriptor
 * @note Before the host is live; no locking.
 */
int mmchal_sdhci_init(struct mmchal_sdhci *sdhci, const struct mmchal_sdhci_cfg *cfg,
		      struct mmchal_backend *be);

/**
 * @brief Name of a DMA mode, for logs and tests.
 * @param[in] mode  a ::mmchal_sdhci_dma value
 * @return a constant string; "unknown" for a value out of range
 * @note Any context.
 */
const char *mmchal_sdhci_dma_name(enum mmchal_sdhci_dma mode);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_SDHCI_H */
