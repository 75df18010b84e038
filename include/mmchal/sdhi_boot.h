/**
 * @file
 * @brief The eMMC boot reader: a compact, polled, read-only eMMC driver on an
 *        SDHI controller with its internal DMAC, for a boot loader's first
 *        stage.
 *
 * Where a boot loader only has to read the next stage from the eMMC of an
 * R-Car Gen3/Gen4 or RZ board, the full stack (host core, planner, card layer
 * and backend) is more than its first stage can hold. The boot reader does
 * that one job in a single object: it resets the controller, identifies the
 * eMMC (CMD0, CMD1, CMD2, CMD3, CMD9, CMD7, EXT_CSD), switches to the widest
 * bus the board and the card both take (8, 4 or 1 bit, each width checked
 * with SWITCH_ERROR and the EXT_CSD read back) and to high-speed timing at
 * 52 MHz where the card has it, and then reads 512-byte blocks from the user
 * area by the internal DMAC, with the automatic CMD12 after a multi-block
 * read. Every wait is polled and bounded; nothing waits for an interrupt.
 *
 * It uses the same ::mmchal_sdhi_cfg as the SDHI backends (the register
 * window, the SoC entry, the revision, the controller clock, the board's bus
 * capabilities and a port with @c delay_us) and shares their register facts
 * (REFERENCE.md), but none of their state: use either the boot reader or a
 * backend on one controller at a time. Built with the internal-DMAC backend
 * (@c MMCHAL_BACKENDS containing @c sdhi_idmac); a boot loader that calls
 * only these two functions links nothing else of the library but the port
 * check.
 *
 * Not covered: SD and SDIO cards, writes, HS200/HS400 (no tuning), the boot
 * and RPMB partitions (the user area only), and IOMMU translation (the
 * addresses given are the ones the DMAC drives).
 *
 * @note Not thread-safe: one caller per ::mmchal_emmc_boot. Every call may
 *       take as long as the card does (bounded), so call from thread context
 *       or a boot loader's main flow.
 */
#ifndef MMCHAL_SDHI_BOOT_H
#define MMCHAL_SDHI_BOOT_H

#include <stdbool.h>
#include <stdint.h>

#include <mmchal/error.h>
#include <mmchal/port.h>
#include <mmchal/sdhi.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Bytes of the scratch buffer mmchal_emmc_boot_init() reads the EXT_CSD into. */
#define MMCHAL_EMMC_BOOT_SCRATCH 512u

/** @brief Alignment of every DMA address the boot reader takes (internal DMAC). */
#define MMCHAL_EMMC_BOOT_ALIGN 128u

/**
 * @brief State of one boot reader (caller storage).
 *
 * Every field is private: filled by mmchal_emmc_boot_init(), read through
 * mmchal_emmc_boot_sectors() and mmchal_emmc_boot_bus_width().
 */
struct mmchal_emmc_boot {
	struct mmchal_bus bus;          /**< private: register window accessor */
	const struct mmchal_port *port; /**< private: the platform's facilities */
	uint64_t sectors;               /**< private: user-area capacity, 512-byte sectors */
	uint32_t clk_hz;                /**< private: controller input clock, Hz */
	uint32_t f_max_hz;              /**< private: the board's card clock limit, Hz */
	uint32_t flags;                 /**< private: SoC flags with revision quirks */
	uint32_t bus_caps;              /**< private: the board's MMCHAL_BUS_* */
	uint32_t busy_us;               /**< private: CMD6 busy bound, us */
	uint16_t clk_ctrl;              /**< private: SD_CLK_CTRL as written */
	uint16_t option;                /**< private: SD_OPTION as written */
	uint16_t host_mode;             /**< private: HOST_MODE to write (Gen3 layout) */
	bool gen3;                      /**< private: HOST_MODE exists (VERSION >= 0xcc10) */
	bool sector_mode;               /**< private: the card is addressed in sectors */
	bool ready;                     /**< private: identified; reads may go */
	uint8_t width;                  /**< private: data bus width in use, bits */
};

/**
 * @brief Bring up the controller and identify the eMMC.
 *
 * Resets the controller, checks that it has an internal DMAC (VERSION IP
 * version 0x10 or later), identifies the eMMC at about 400 kHz, reads its CSD
 * and EXT_CSD, selects it and sets the widest bus and the fastest timing that
 * the board (@c cfg->caps.bus, @c cfg->caps.f_max_hz) and the card allow. On
 * success the card is in the transfer state at block length 512 and
 * mmchal_emmc_boot_read() may be called. On a failure of the bring-up @p eb is
 * left unusable (reads return ::MMCHAL_EINVAL) and the controller reset
 * (untouched when it has no internal DMAC). Refused arguments touch nothing:
 * neither @p eb nor the controller, so that an earlier bring-up in @p eb stays
 * usable.
 *
 * @param[out] eb            state to fill
 * @param[in]  cfg           controller description: @c bus (mmchal_bus_check(), with
 *                           @c bus_shift 2 as on every internal-DMAC SoC), @c soc (an
 *                           internal-DMAC entry), @c rev, @c extra_flags, @c clk_hz
 *                           (non-zero), @c caps.bus (MMCHAL_BUS_4_BIT, _8_BIT, _MMC_HS)
 *                           and @c caps.f_max_hz (0 = @c clk_hz), and @c port (required,
 *                           mmchal_port_check(); only @c delay_us is called, and
 *                           @c cache_invalidate around each DMA when present); the rest
 *                           is unused
 * @param[in]  scratch       ::MMCHAL_EMMC_BOOT_SCRATCH bytes for the EXT_CSD
 * @param[in]  scratch_dma   the address the DMAC reaches @p scratch at:
 *                           ::MMCHAL_EMMC_BOOT_ALIGN aligned, below 4 GiB
 * @retval 0                 the card is ready
 * @retval MMCHAL_EINVAL     a NULL pointer, a bus or port that does not check, a
 *                           @c bus_shift other than 2, a SoC entry that is not the
 *                           internal DMAC's, @c clk_hz 0, or
 *                           @p scratch_dma unaligned or above 4 GiB
 * @retval MMCHAL_ENOTSUP    the controller has no internal DMAC, or the card did not
 *                           take even the 1-bit bus
 * @retval MMCHAL_ERANGE     the controller clock cannot be divided down to 400 kHz
 * @retval MMCHAL_ETIMEDOUT  no eMMC answered, it stayed busy, or a data phase did not end
 * @retval MMCHAL_EIO        a CRC, end-bit or index error, or a card status error
 * @retval MMCHAL_EFAULT     the internal DMAC reported an error
 * @note Thread context; takes up to a few seconds with a card that does not answer.
 */
int mmchal_emmc_boot_init(struct mmchal_emmc_boot *eb, const struct mmchal_sdhi_cfg *cfg,
			  void *scratch, mmchal_dma_addr_t scratch_dma);

/**
 * @brief Read @p blocks 512-byte blocks from the user area, starting at
 *        sector @p lba, into @p dst by the internal DMAC.
 *
 * One block is read with CMD17, more with CMD18 and the controller's
 * automatic CMD12. After an error the controller and the DMAC channel are
 * reset and a CMD12 is sent, so that the next read finds the card in the
 * transfer state; what @p dst holds is then undefined.
 *
 * @param[in,out] eb       state from a successful mmchal_emmc_boot_init()
 * @param[in]     lba      first sector
 * @param[in]     blocks   number of sectors, >= 1
 * @param[out]    dst      CPU address of the buffer, @p blocks * 512 bytes
 * @param[in]     dst_dma  the address the DMAC reaches @p dst at:
 *                         ::MMCHAL_EMMC_BOOT_ALIGN aligned, the whole buffer below 4 GiB
 * @retval 0                 the blocks are in @p dst
 * @retval MMCHAL_EINVAL     a NULL pointer, @p eb not initialised, @p blocks 0, or
 *                           @p dst_dma unaligned or the buffer crossing 4 GiB
 * @retval MMCHAL_ERANGE     the range reaches past the end of the user area
 * @retval MMCHAL_ETIMEDOUT  no response, or the data did not arrive in time
 * @retval MMCHAL_EIO        a CRC or end-bit error, or a card status error
 * @retval MMCHAL_EFAULT     the internal DMAC reported an error
 * @note Thread context.
 */
int mmchal_emmc_boot_read(struct mmchal_emmc_boot *eb, uint64_t lba, uint32_t blocks, void *dst,
			  mmchal_dma_addr_t dst_dma);

/**
 * @brief User-area capacity found by mmchal_emmc_boot_init().
 * @param[in] eb  state
 * @return 512-byte sectors; 0 for NULL or an @p eb that is not initialised
 * @note Any context.
 */
uint64_t mmchal_emmc_boot_sectors(const struct mmchal_emmc_boot *eb);

/**
 * @brief Data bus width mmchal_emmc_boot_init() set up.
 * @param[in] eb  state
 * @return 1, 4 or 8; 0 for NULL or an @p eb that is not initialised
 * @note Any context.
 */
uint32_t mmchal_emmc_boot_bus_width(const struct mmchal_emmc_boot *eb);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_SDHI_BOOT_H */
