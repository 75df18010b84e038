/**
 * @file
 * @brief The SDHI SoC entries as initialisers, for a board that knows its SoC.
 *
 * Each `MMCHAL_SDHI_SOC_<name>` expands to the initialiser of one
 * ::mmchal_sdhi_soc: exactly the entry mmchal_sdhi_soc_lookup() returns for
 * that compatible string (the library's table is built from these macros). A
 * boot loader or MCU firmware that is built for one SoC and has no device
 * tree keeps its entry itself,
 *
 * @code
 * static const struct mmchal_sdhi_soc soc = MMCHAL_SDHI_SOC_RCAR_GEN3;
 * cfg.soc = &soc;
 * @endcode
 *
 * and then links neither the table nor the lookup (about 0.5 KiB with the
 * internal-DMAC entries, 1 KiB with all of them, on Cortex-M4). A board with a
 * controller variant the table does not have can fill in a
 * ::mmchal_sdhi_soc of its own in the same way.
 *
 * Values come from Linux's match tables (renesas_sdhi_internal_dmac.c and
 * renesas_sdhi_sys_dmac.c of_data) as summarised in REFERENCE.md.
 */
#ifndef MMCHAL_SDHI_SOCS_H
#define MMCHAL_SDHI_SOCS_H

#include <mmchal/sdhi.h>

/** @name SoC entry building blocks
 *  @{
 */
/** Most blocks per request on R-Car Gen2 and later: Linux of_data max_blk_count
    0xffffffff, which the MMC core turns into UINT_MAX / 512 with 512-byte blocks */
#define MMCHAL_SDHI_BLK_COUNT_GEN3 8388607u

/** Flags of a full R-Car Gen3/Gen4 entry: merge-capable, HS400 */
#define MMCHAL_SDHI_F_GEN3 (MMCHAL_SDHI_F_MERGE | MMCHAL_SDHI_F_HS400)

/** Flags of R-Car Gen1 and Gen2 (of_rcar_gen1_compatible, of_rcar_gen2_compatible):
    TMIO_MMC_CLK_ACTUAL and TMIO_MMC_HAS_IDLE_WAIT */
#define MMCHAL_SDHI_F_RCAR (MMCHAL_SDHI_F_CLK_DIV1 | MMCHAL_SDHI_F_IDLE_WAIT)

/** An internal-DMAC entry: one segment (of_data max_segs = 1), bus_shift 2, the
    1/1 clock (TMIO_MMC_CLK_ACTUAL) and the idle wait (TMIO_MMC_HAS_IDLE_WAIT),
    as in every Gen3 of_data, plus @p f */
#define MMCHAL_SDHI_SOC_IDMAC_(c, f)                                                              \
	{                                                                                         \
		.compatible = (c), .kind = MMCHAL_SDHI_IDMAC, .shift = MMCHAL_SDHI_SHIFT_FIXED_2, \
		.max_blk_count = MMCHAL_SDHI_BLK_COUNT_GEN3, .max_segs = 1, .dma_rx_offset = 0,   \
		.flags = (f) | MMCHAL_SDHI_F_RCAR                                                 \
	}

/** A SYS-DMAC entry: bus_shift by window size, the TMIO default of 32 segments,
    @p blk blocks per request, the read port alias at @p rx, flags @p f */
#define MMCHAL_SDHI_SOC_SYSDMAC_(c, blk, rx, f)                                             \
	{                                                                                   \
		.compatible = (c), .kind = MMCHAL_SDHI_SYSDMAC,                             \
		.shift = MMCHAL_SDHI_SHIFT_BY_SIZE, .max_blk_count = (blk), .max_segs = 32, \
		.dma_rx_offset = (rx), .flags = (f)                                         \
	}

/** An R-Car Gen2 / RZ/G1 entry: read port alias at +0x2000
    (of_rcar_gen2_compatible dma_rx_offset); the block count is cut to 65535 by the
    16-bit counter (VERSION < 0xcb0d) when the controller is probed */
#define MMCHAL_SDHI_SOC_GEN2_(c) \
	MMCHAL_SDHI_SOC_SYSDMAC_(c, MMCHAL_SDHI_BLK_COUNT_GEN3, 0x2000u, MMCHAL_SDHI_F_RCAR)

/** An R-Car Gen1 or SH-Mobile entry: no read alias, 256 blocks (the TMIO default
    PAGE_SIZE / 512 * max_segs with 4 KiB pages and 32 segments), flags @p f */
#define MMCHAL_SDHI_SOC_GEN1_(c, f) MMCHAL_SDHI_SOC_SYSDMAC_(c, 256u, 0u, f)
/** @} */

/** @name Internal-DMAC SoCs (R-Car Gen3/Gen4, RZ/G2, RZ/A2)
 *  @{
 */
/** R-Car H3 (`renesas,sdhi-r8a7795`) */
#define MMCHAL_SDHI_SOC_R8A7795  MMCHAL_SDHI_SOC_IDMAC_("renesas,sdhi-r8a7795", MMCHAL_SDHI_F_GEN3)
/** R-Car M3-W+ (`renesas,sdhi-r8a77961`) */
#define MMCHAL_SDHI_SOC_R8A77961 MMCHAL_SDHI_SOC_IDMAC_("renesas,sdhi-r8a77961", MMCHAL_SDHI_F_GEN3)
/** R-Car M3-N (`renesas,sdhi-r8a77965`) */
#define MMCHAL_SDHI_SOC_R8A77965 MMCHAL_SDHI_SOC_IDMAC_("renesas,sdhi-r8a77965", MMCHAL_SDHI_F_GEN3)
/** R-Car E3 (`renesas,sdhi-r8a77990`) */
#define MMCHAL_SDHI_SOC_R8A77990 MMCHAL_SDHI_SOC_IDMAC_("renesas,sdhi-r8a77990", MMCHAL_SDHI_F_GEN3)
/** R-Car D3 (`renesas,sdhi-r8a77995`): no HS400 (of_r8a77995_compatible) */
#define MMCHAL_SDHI_SOC_R8A77995 \
	MMCHAL_SDHI_SOC_IDMAC_("renesas,sdhi-r8a77995", MMCHAL_SDHI_F_MERGE)
/** R-Car Gen3 family fallback (`renesas,rcar-gen3-sdhi`): M3-W, RZ/G2M and others */
#define MMCHAL_SDHI_SOC_RCAR_GEN3 \
	MMCHAL_SDHI_SOC_IDMAC_("renesas,rcar-gen3-sdhi", MMCHAL_SDHI_F_GEN3)
/** R-Car Gen4 family fallback (`renesas,rcar-gen4-sdhi`): S4 and others */
#define MMCHAL_SDHI_SOC_RCAR_GEN4 \
	MMCHAL_SDHI_SOC_IDMAC_("renesas,rcar-gen4-sdhi", MMCHAL_SDHI_F_GEN3)
/** RZ/G2L (`renesas,rzg2l-sdhi`): no HS400, no address increment
    (SDHI_INTERNAL_DMAC_ADDR_MODE_FIXED_ONLY) */
#define MMCHAL_SDHI_SOC_RZG2L \
	MMCHAL_SDHI_SOC_IDMAC_("renesas,rzg2l-sdhi", MMCHAL_SDHI_F_MERGE | MMCHAL_SDHI_F_FIXED_ADDR)
/** RZ/A2 (`renesas,sdhi-r7s9210`): fixed address mode, not merge-capable
    (of_rza2_compatible) */
#define MMCHAL_SDHI_SOC_R7S9210 \
	MMCHAL_SDHI_SOC_IDMAC_("renesas,sdhi-r7s9210", MMCHAL_SDHI_F_FIXED_ADDR)
/** @} */

/** @name SYS-DMAC SoCs (R-Car Gen2, RZ/G1, R-Car Gen1, SH-Mobile)
 *
 * Served by the SYS-DMAC backend, or by PIO where a node has no `dmas`.
 *  @{
 */
/** RZ/G1M (`renesas,sdhi-r8a7743`) */
#define MMCHAL_SDHI_SOC_R8A7743   MMCHAL_SDHI_SOC_GEN2_("renesas,sdhi-r8a7743")
/** RZ/G1E (`renesas,sdhi-r8a7745`) */
#define MMCHAL_SDHI_SOC_R8A7745   MMCHAL_SDHI_SOC_GEN2_("renesas,sdhi-r8a7745")
/** R-Car H2 (`renesas,sdhi-r8a7790`) */
#define MMCHAL_SDHI_SOC_R8A7790   MMCHAL_SDHI_SOC_GEN2_("renesas,sdhi-r8a7790")
/** R-Car M2-W (`renesas,sdhi-r8a7791`) */
#define MMCHAL_SDHI_SOC_R8A7791   MMCHAL_SDHI_SOC_GEN2_("renesas,sdhi-r8a7791")
/** R-Car V2H (`renesas,sdhi-r8a7792`) */
#define MMCHAL_SDHI_SOC_R8A7792   MMCHAL_SDHI_SOC_GEN2_("renesas,sdhi-r8a7792")
/** R-Car M2-N (`renesas,sdhi-r8a7793`) */
#define MMCHAL_SDHI_SOC_R8A7793   MMCHAL_SDHI_SOC_GEN2_("renesas,sdhi-r8a7793")
/** R-Car E2 (`renesas,sdhi-r8a7794`) */
#define MMCHAL_SDHI_SOC_R8A7794   MMCHAL_SDHI_SOC_GEN2_("renesas,sdhi-r8a7794")
/** R-Car Gen2 family fallback (`renesas,rcar-gen2-sdhi`) */
#define MMCHAL_SDHI_SOC_RCAR_GEN2 MMCHAL_SDHI_SOC_GEN2_("renesas,rcar-gen2-sdhi")
/** R-Car M1A (`renesas,sdhi-r8a7778`) */
#define MMCHAL_SDHI_SOC_R8A7778   MMCHAL_SDHI_SOC_GEN1_("renesas,sdhi-r8a7778", MMCHAL_SDHI_F_RCAR)
/** R-Car H1 (`renesas,sdhi-r8a7779`) */
#define MMCHAL_SDHI_SOC_R8A7779   MMCHAL_SDHI_SOC_GEN1_("renesas,sdhi-r8a7779", MMCHAL_SDHI_F_RCAR)
/** R-Car Gen1 family fallback (`renesas,rcar-gen1-sdhi`) */
#define MMCHAL_SDHI_SOC_RCAR_GEN1 \
	MMCHAL_SDHI_SOC_GEN1_("renesas,rcar-gen1-sdhi", MMCHAL_SDHI_F_RCAR)
/** SH-Mobile AG5 (`renesas,sdhi-sh73a0`): of_default_cfg, the idle wait only */
#define MMCHAL_SDHI_SOC_SH73A0 MMCHAL_SDHI_SOC_GEN1_("renesas,sdhi-sh73a0", MMCHAL_SDHI_F_IDLE_WAIT)
/** R-Mobile APE6 (`renesas,sdhi-r8a73a4`): of_default_cfg, the idle wait only */
#define MMCHAL_SDHI_SOC_R8A73A4 \
	MMCHAL_SDHI_SOC_GEN1_("renesas,sdhi-r8a73a4", MMCHAL_SDHI_F_IDLE_WAIT)
/** R-Mobile A1 (`renesas,sdhi-r8a7740`): of_default_cfg, the idle wait only */
#define MMCHAL_SDHI_SOC_R8A7740 \
	MMCHAL_SDHI_SOC_GEN1_("renesas,sdhi-r8a7740", MMCHAL_SDHI_F_IDLE_WAIT)
/** The generic SH-Mobile string (`renesas,sdhi-shmobile`): no of_data in Linux, so
    neither the 1/1 clock nor the idle wait */
#define MMCHAL_SDHI_SOC_SHMOBILE MMCHAL_SDHI_SOC_GEN1_("renesas,sdhi-shmobile", 0)
/** @} */

#endif /* MMCHAL_SDHI_SOCS_H */
