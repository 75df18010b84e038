/**
 * @file
 * @brief Internal: every SDHI/TMIO and internal-DMAC register and bit the
 *        backends use (REFERENCE.md register map, Linux tmio_mmc.h,
 *        renesas_sdhi_internal_dmac.c, U-Boot tmio-common.h).
 *
 * SDHI registers are logical offsets, shifted by the bus accessor's
 * @c bus_shift; the DM_* registers of the internal DMAC are byte offsets
 * and not shifted.
 */
#ifndef MMCHAL_SDHI_REGS_H
#define MMCHAL_SDHI_REGS_H

/* ---- SDHI (logical offsets) ---- */
#define SDHI_CMD         0x00u
#define SDHI_ARG         0x04u
#define SDHI_STOP        0x08u
#define SDHI_SECCNT      0x0au
#define SDHI_RSP10       0x0cu
#define SDHI_RSP32       0x10u
#define SDHI_RSP54       0x14u
#define SDHI_RSP76       0x18u
#define SDHI_INFO1       0x1cu
#define SDHI_INFO2       0x1eu
#define SDHI_INFO1_MASK  0x20u
#define SDHI_INFO2_MASK  0x22u
#define SDHI_CLK_CTRL    0x24u
#define SDHI_SIZE        0x26u
#define SDHI_OPTION      0x28u
#define SDHI_ERR_STS1    0x2cu
#define SDHI_ERR_STS2    0x2eu
#define SDHI_BUF0        0x30u
#define SDHI_SDIO_MODE   0x34u
#define SDHI_SDIO_INFO1  0x36u
#define SDHI_SDIO_MASK   0x38u
#define SDHI_CC_EXT_MODE 0xd8u
#define SDHI_SOFT_RST    0xe0u
#define SDHI_VERSION     0xe2u
#define SDHI_HOST_MODE   0xe4u
#define SDHI_IF_MODE     0xe6u

/* SD_CMD */
#define SDHI_CMD_RSP_NONE  0x0300u
#define SDHI_CMD_RSP_R1    0x0400u
#define SDHI_CMD_RSP_R1B   0x0500u
#define SDHI_CMD_RSP_R2    0x0600u
#define SDHI_CMD_RSP_R3    0x0700u
#define SDHI_CMD_DATA      0x0800u
#define SDHI_CMD_READ      0x1000u
#define SDHI_CMD_MULTI     0x2000u
#define SDHI_CMD_NO_AUTO12 0x4000u

/*
 * SD_ERR_STS1/2: the bits that name the automatic CMD12 (RZ/A1H User's Manual,
 * SD_ERR_STS1 CMDE1 / RSPLENE1 / RSPCRCE1, SD_ERR_STS2 RSPTO1 / BSYTO1).
 */
#define SDHI_ERR1_A12_IDX (1u << 1) /* CMD12 response index error */
#define SDHI_ERR1_A12_END (1u << 3) /* CMD12 response length (end bit) error */
#define SDHI_ERR1_A12_CRC (1u << 9) /* CMD12 response CRC error */
#define SDHI_ERR1_A12     (SDHI_ERR1_A12_IDX | SDHI_ERR1_A12_END | SDHI_ERR1_A12_CRC)
#define SDHI_ERR2_A12_TO  (1u << 1) /* CMD12 response timeout */
#define SDHI_ERR2_A12_BSY (1u << 3) /* CMD12 busy timeout */
#define SDHI_ERR2_A12     (SDHI_ERR2_A12_TO | SDHI_ERR2_A12_BSY)
#define SDHI_ERR1_ALL     0x0f3fu /* error bits; 14:12 are the last CRC status token */
#define SDHI_ERR2_ALL     0x007fu

/* SD_STOP */
#define SDHI_STOP_STP 0x0001u
#define SDHI_STOP_SEC 0x0100u /* SD_SECCNT counts the blocks (and arms auto CMD12) */

/* SD_INFO1 (bits 15:0) and SD_INFO2 (as bits 31:16) read as one 32-bit status */
#define SDHI_ST_RSP_END    (1u << 0)
#define SDHI_ST_ACCESS_END (1u << 2)
#define SDHI_ST_REMOVED    (1u << 3)
#define SDHI_ST_INSERTED   (1u << 4)
#define SDHI_ST_CD         (1u << 5)
#define SDHI_ST_WP         (1u << 7) /* 1 = writable */
#define SDHI_ST_CMD_IDX    (1u << 16)
#define SDHI_ST_CRC        (1u << 17)
#define SDHI_ST_END_BIT    (1u << 18)
#define SDHI_ST_DATA_TO    (1u << 19)
#define SDHI_ST_OVERFLOW   (1u << 20)
#define SDHI_ST_UNDERRUN   (1u << 21)
#define SDHI_ST_CMD_TO     (1u << 22)
#define SDHI_ST_DAT0       (1u << 23) /* DAT0 high: card not busy */
#define SDHI_ST_BRE        (1u << 24)
#define SDHI_ST_BWE        (1u << 25)
#define SDHI_ST_ALWAYS1    (1u << 27) /* INFO2 bit 11: always write 1 */
#define SDHI_ST_SCLKDIVEN  (1u << 29) /* bus idle: clock divider may change */
#define SDHI_ST_CBSY       (1u << 30)
#define SDHI_ST_ILL_ACCESS (1u << 31)

/* Latched (write-0-to-clear) bits; the others are live levels. */
#define SDHI_ST_LATCHED                                                                         \
	(SDHI_ST_RSP_END | SDHI_ST_ACCESS_END | SDHI_ST_REMOVED | SDHI_ST_INSERTED |            \
	 SDHI_ST_CMD_IDX | SDHI_ST_CRC | SDHI_ST_END_BIT | SDHI_ST_DATA_TO | SDHI_ST_OVERFLOW | \
	 SDHI_ST_UNDERRUN | SDHI_ST_CMD_TO | SDHI_ST_BRE | SDHI_ST_BWE | SDHI_ST_ILL_ACCESS)
#define SDHI_ST_CARD    (SDHI_ST_REMOVED | SDHI_ST_INSERTED)
#define SDHI_ST_CMD_ERR (SDHI_ST_CMD_IDX | SDHI_ST_CRC | SDHI_ST_END_BIT | SDHI_ST_CMD_TO)
#define SDHI_ST_DATA_ERR \
	(SDHI_ST_CRC | SDHI_ST_END_BIT | SDHI_ST_DATA_TO | SDHI_ST_OVERFLOW | SDHI_ST_UNDERRUN)
#define SDHI_ST_PIO (SDHI_ST_BRE | SDHI_ST_BWE)

/* SD_CLK_CTRL */
#define SDHI_CLK_DIV_MASK 0x00ffu
#define SDHI_CLK_DIV1     0x00ffu /* 1/1 where supported */
#define SDHI_CLK_DIV512   0x0080u
#define SDHI_CLK_ENABLE   0x0100u

/* SD_OPTION */
#define SDHI_OPT_TOP_SHIFT 4u
#define SDHI_OPT_TOP_MASK  0x00f0u
#define SDHI_OPT_TOP_MAX   0xeu /* 2^27 clocks: the largest documented setting */
#define SDHI_OPT_WIDTH8    (1u << 13)
#define SDHI_OPT_ALWAYS1   (1u << 14)
#define SDHI_OPT_WIDTH1    (1u << 15)

/* CC_EXT_MODE */
#define SDHI_EXT_DMA (1u << 1)

/* SOFT_RST: bit 0 is an active-low reset */
#define SDHI_SOFT_RST_RUN 0x0001u

/* VERSION */
#define SDHI_VER_GEN2_SDR50  0x490cu /* no command-busy bit; HOST_MODE bit0 = 32-bit */
#define SDHI_VER_GEN2_SDR104 0xcb0du /* 32-bit block counter from here on */
#define SDHI_VER_GEN3_SD     0xcc10u /* Gen3 HOST_MODE encoding from here on */
#define SDHI_VER_IP_DMAC     0x10u   /* IP version (low byte) with the internal DMAC */

/* HOST_MODE values (Linux renesas_sdhi_sdbuf_width) */
#define SDHI_HM_GEN3_64 0x0000u
#define SDHI_HM_GEN3_32 0x0101u
#define SDHI_HM_GEN3_16 0x0001u
#define SDHI_HM_CB0D_32 0x0000u
#define SDHI_HM_CB0D_16 0x0001u
#define SDHI_HM_490C_32 0x0001u
#define SDHI_HM_490C_16 0x0000u

/* IF_MODE */
#define SDHI_IF_DDR 0x0001u

/* ---- internal DMAC (byte offsets, unshifted) ---- */
#define DM_CM_DTRAN_MODE 0x820u
#define DM_CM_DTRAN_CTRL 0x828u
#define DM_CM_RST        0x830u
#define DM_CM_INFO1      0x840u
#define DM_CM_INFO1_MASK 0x848u
#define DM_CM_INFO2      0x850u
#define DM_CM_INFO2_MASK 0x858u
#define DM_DTRAN_ADDR    0x880u

#define DM_MODE_CH1_READ     (1u << 16)
#define DM_MODE_BUS_64       ((1u << 5) | (1u << 4))
#define DM_MODE_ADDR_INCR    (1u << 0)
#define DM_CTRL_START        (1u << 0)
#define DM_RST_CH0           (1u << 8)
#define DM_RST_CH1           (1u << 9)
#define DM_INFO1_END_CH0     (1u << 16)
#define DM_INFO1_END_CH1     (1u << 20)
#define DM_INFO1_END_CH1_OLD (1u << 17)
#define DM_INFO2_ERR_CH0     (1u << 16)
#define DM_INFO2_ERR_CH1     (1u << 17)

#endif /* MMCHAL_SDHI_REGS_H */
