/**
 * @file
 * @brief Internal: SDHCI register map, byte offsets and bits (SD Host
 *        Controller Simplified Specification v3.00, chapter 2).
 */
#ifndef MMCHAL_SDHCI_REGS_H
#define MMCHAL_SDHCI_REGS_H

/* 2.2.1 SDMA System Address (32) */
#define SDHCI_SDMA_ADDR 0x00u

/* 2.2.2 Block Size (16): bits 11:0 size, bits 14:12 SDMA buffer boundary (4 KiB << n) */
#define SDHCI_BLOCK_SIZE          0x04u
#define SDHCI_BLKSZ_BOUNDARY(n)   ((uint16_t)((n) << 12))
#define SDHCI_BLKSZ_BOUNDARY_512K SDHCI_BLKSZ_BOUNDARY(7u)

/* 2.2.3 Block Count (16) */
#define SDHCI_BLOCK_COUNT 0x06u

/* 2.2.4 Argument 1 (32) */
#define SDHCI_ARGUMENT 0x08u

/* 2.2.5 Transfer Mode (16) */
#define SDHCI_TRANSFER_MODE   0x0cu
#define SDHCI_TRNS_DMA        (1u << 0)
#define SDHCI_TRNS_BLK_CNT_EN (1u << 1)
#define SDHCI_TRNS_AUTO_CMD12 (1u << 2)
#define SDHCI_TRNS_READ       (1u << 4)
#define SDHCI_TRNS_MULTI      (1u << 5)

/* 2.2.6 Command (16): writing its upper byte issues the command */
#define SDHCI_COMMAND        0x0eu
#define SDHCI_CMD_RESP_NONE  0x00u
#define SDHCI_CMD_RESP_136   0x01u
#define SDHCI_CMD_RESP_48    0x02u
#define SDHCI_CMD_RESP_48B   0x03u
#define SDHCI_CMD_CRC        (1u << 3)
#define SDHCI_CMD_INDEX      (1u << 4)
#define SDHCI_CMD_DATA       (1u << 5)
#define SDHCI_CMD_TYPE_ABORT (3u << 6)
#define SDHCI_CMD_OPCODE(op) ((uint16_t)((op) << 8))

/* 2.2.7 Response (4 x 32): R2 bits 127:8 appear as bits 119:0 */
#define SDHCI_RESPONSE(i) (0x10u + 4u * (i))

/* 2.2.8 Buffer Data Port (32) */
#define SDHCI_BUFFER 0x20u

/* 2.2.9 Present State (32) */
#define SDHCI_PRESENT_STATE  0x24u
#define SDHCI_PS_CMD_INHIBIT (1u << 0)
#define SDHCI_PS_DAT_INHIBIT (1u << 1)
#define SDHCI_PS_BUF_WR_EN   (1u << 10)
#define SDHCI_PS_BUF_RD_EN   (1u << 11)
#define SDHCI_PS_CARD_IN     (1u << 16)
#define SDHCI_PS_CD_STABLE   (1u << 17)
#define SDHCI_PS_WP_LEVEL    (1u << 19) /* 1: write enabled */
#define SDHCI_PS_DAT0_LEVEL  (1u << 20) /* 0: the card holds DAT0 low (busy) */

/* 2.2.10 Host Control 1 (8) and 2.2.11 Power Control (8), one 16-bit pair */
#define SDHCI_HOST_CONTROL  0x28u
#define SDHCI_CTRL_4BIT     (1u << 1)
#define SDHCI_CTRL_HISPD    (1u << 2)
#define SDHCI_CTRL_DMA_MASK (3u << 3)
#define SDHCI_CTRL_SDMA     (0u << 3)
#define SDHCI_CTRL_ADMA32   (2u << 3)
#define SDHCI_CTRL_ADMA64   (3u << 3)
#define SDHCI_CTRL_8BIT     (1u << 5)
#define SDHCI_POWER_SHIFT   8u
#define SDHCI_POWER_ON      (1u << 8)
#define SDHCI_POWER_180     (5u << 9)
#define SDHCI_POWER_300     (6u << 9)
#define SDHCI_POWER_330     (7u << 9)
#define SDHCI_POWER_MASK    (0xffu << 8)

/* 2.2.14 Clock Control (16) */
#define SDHCI_CLOCK_CONTROL    0x2cu
#define SDHCI_CLOCK_INT_EN     (1u << 0)
#define SDHCI_CLOCK_INT_STABLE (1u << 1)
#define SDHCI_CLOCK_CARD_EN    (1u << 2)
#define SDHCI_DIV_LO_SHIFT     8u
#define SDHCI_DIV_HI_SHIFT     6u /* v3.00: divider bits 9:8 in bits 7:6 */
#define SDHCI_DIV_HI_MASK      0x300u

/* 2.2.15 Timeout Control (8) and 2.2.16 Software Reset (8), one 16-bit pair */
#define SDHCI_TIMEOUT_CONTROL 0x2eu
#define SDHCI_TIMEOUT_MAX     0x0eu /* TMCLK x 2^27 */
#define SDHCI_RESET_SHIFT     8u
#define SDHCI_RESET_ALL       0x01u
#define SDHCI_RESET_CMD       0x02u
#define SDHCI_RESET_DATA      0x04u

/* 2.2.17/18 Normal and Error Interrupt Status (16 + 16); write 1 to clear */
#define SDHCI_INT_STATUS        0x30u
#define SDHCI_INT_CMD_DONE      (1u << 0)
#define SDHCI_INT_XFER_DONE     (1u << 1)
#define SDHCI_INT_DMA           (1u << 3)
#define SDHCI_INT_BUF_WR        (1u << 4)
#define SDHCI_INT_BUF_RD        (1u << 5)
#define SDHCI_INT_CARD_INSERT   (1u << 6)
#define SDHCI_INT_CARD_REMOVE   (1u << 7)
#define SDHCI_INT_CARD_INT      (1u << 8)
#define SDHCI_INT_ERROR         (1u << 15)
/* error bits, as bits 31:16 of a 32-bit access at SDHCI_INT_STATUS */
#define SDHCI_INT_CMD_TIMEOUT   (1u << 16)
#define SDHCI_INT_CMD_CRC       (1u << 17)
#define SDHCI_INT_CMD_END_BIT   (1u << 18)
#define SDHCI_INT_CMD_INDEX     (1u << 19)
#define SDHCI_INT_DATA_TIMEOUT  (1u << 20)
#define SDHCI_INT_DATA_CRC      (1u << 21)
#define SDHCI_INT_DATA_END_BIT  (1u << 22)
#define SDHCI_INT_CURRENT_LIMIT (1u << 23)
#define SDHCI_INT_AUTO_CMD_ERR  (1u << 24)
#define SDHCI_INT_ADMA_ERR      (1u << 25)
#define SDHCI_INT_CMD_ERR_MASK  (0xfu << 16)
#define SDHCI_INT_DATA_ERR_MASK                                                 \
	(SDHCI_INT_DATA_TIMEOUT | SDHCI_INT_DATA_CRC | SDHCI_INT_DATA_END_BIT | \
	 SDHCI_INT_CURRENT_LIMIT | SDHCI_INT_AUTO_CMD_ERR | SDHCI_INT_ADMA_ERR)
#define SDHCI_INT_ERR_ENABLE 0x03ffu /* error status enables: bits 9:0 */

/* 2.2.19-22 status enables (16 + 16) and signal enables (16 + 16) */
#define SDHCI_INT_ENABLE    0x34u
#define SDHCI_SIGNAL_ENABLE 0x38u

/* 2.2.23 Auto CMD Error Status (16) */
#define SDHCI_AUTO_CMD_STATUS     0x3cu
#define SDHCI_AUTO_CMD12_NOT_EXEC (1u << 0)
#define SDHCI_AUTO_CMD_TIMEOUT    (1u << 1)
#define SDHCI_AUTO_CMD_CRC        (1u << 2)
#define SDHCI_AUTO_CMD_END_BIT    (1u << 3)
#define SDHCI_AUTO_CMD_INDEX      (1u << 4)
#define SDHCI_AUTO_CMD_NOT_ISSUED (1u << 7) /* a command not issued: an Auto CMD12 error */

/* 2.2.24 Host Control 2 (16, v3.00) */
#define SDHCI_HOST_CONTROL2  0x3eu
#define SDHCI_CTRL2_UHS_MASK 0x7u
#define SDHCI_CTRL2_SDR12    0x0u
#define SDHCI_CTRL2_SDR25    0x1u
#define SDHCI_CTRL2_SDR50    0x2u
#define SDHCI_CTRL2_SDR104   0x3u
#define SDHCI_CTRL2_DDR50    0x4u
#define SDHCI_CTRL2_1_8V     (1u << 3)

/* 2.2.25 Capabilities (64) */
#define SDHCI_CAPS0             0x40u
#define SDHCI_CAPS1             0x44u
#define SDHCI_CAP_TMCLK_MASK    0x3fu
#define SDHCI_CAP_TMCLK_MHZ     (1u << 7)
#define SDHCI_CAP_BASE_SHIFT    8u
#define SDHCI_CAP_BASE_MASK_V2  0x3fu /* bits 13:8 in v1.00/v2.00 */
#define SDHCI_CAP_BASE_MASK_V3  0xffu /* bits 15:8 in v3.00 */
#define SDHCI_CAP_MAX_BLK_SHIFT 16u
#define SDHCI_CAP_MAX_BLK_MASK  0x3u
#define SDHCI_CAP_8BIT          (1u << 18)
#define SDHCI_CAP_ADMA2         (1u << 19)
#define SDHCI_CAP_HS            (1u << 21)
#define SDHCI_CAP_SDMA          (1u << 22)
#define SDHCI_CAP_330           (1u << 24)
#define SDHCI_CAP_300           (1u << 25)
#define SDHCI_CAP_180           (1u << 26)
#define SDHCI_CAP_64BIT         (1u << 28)
#define SDHCI_CAP1_SDR50        (1u << 0)
#define SDHCI_CAP1_SDR104       (1u << 1)
#define SDHCI_CAP1_DDR50        (1u << 2)
#define SDHCI_CAP1_SDR50_TUNING (1u << 13)

/* 2.2.29 ADMA Error Status (8) and 2.2.30 ADMA System Address (64) */
#define SDHCI_ADMA_ERROR   0x54u
#define SDHCI_ADMA_ADDR_LO 0x58u
#define SDHCI_ADMA_ADDR_HI 0x5cu

/* 2.2.32 Host Controller Version (16): bits 7:0 spec, 15:8 vendor */
#define SDHCI_HOST_VERSION 0xfeu
#define SDHCI_SPEC_100     0u
#define SDHCI_SPEC_200     1u
#define SDHCI_SPEC_300     2u

/* 1.13.4 ADMA2 descriptor attributes */
#define SDHCI_ADMA2_VALID (1u << 0)
#define SDHCI_ADMA2_END   (1u << 1)
#define SDHCI_ADMA2_TRAN  (2u << 4)

#endif /* MMCHAL_SDHCI_REGS_H */
