/**
 * @file
 * @brief The per-compatible SoC table of the SDHI backends and its lookups.
 *
 * Values come from Linux's match tables (renesas_sdhi_internal_dmac.c and
 * renesas_sdhi_sys_dmac.c of_data) as summarised in REFERENCE.md; each entry
 * says where its non-obvious values come from.
 *
 * @note Const data and pure functions: any context, no locks.
 */
#include <mmchal/config.h>
#include <mmchal/sdhi.h>

/* UINT_MAX / 512: Linux of_data max_blk_count 0xffffffff in 512-byte blocks. */
#define GEN3_BLK_COUNT 8388607u

/* Internal DMAC: one segment (of_data max_segs = 1); 1/1 clock (TMIO_MMC_CLK_ACTUAL)
   and idle wait (TMIO_MMC_HAS_IDLE_WAIT) in every Gen3 of_data. */
#define IDMAC(c, f)                                                                               \
	{                                                                                         \
		.compatible = (c), .kind = MMCHAL_SDHI_IDMAC, .shift = MMCHAL_SDHI_SHIFT_FIXED_2, \
		.max_blk_count = GEN3_BLK_COUNT, .max_segs = 1, .dma_rx_offset = 0,               \
		.flags = (f) | MMCHAL_SDHI_F_CLK_DIV1 | MMCHAL_SDHI_F_IDLE_WAIT                   \
	}

/* SYS-DMAC families: bus_shift by window size, TMIO default of 32 segments. Flags
   as Linux's renesas_sdhi_sys_dmac.c of_data: of_rcar_gen2_compatible and
   of_rcar_gen1_compatible have TMIO_MMC_CLK_ACTUAL (1/1 clock) and
   TMIO_MMC_HAS_IDLE_WAIT; of_default_cfg (sh73a0, r8a73a4, r8a7740) has only
   TMIO_MMC_HAS_IDLE_WAIT; "renesas,sdhi-shmobile" has no of_data, so neither. */
#define SYSDMAC(c, blk, rx, f)                                                              \
	{                                                                                   \
		.compatible = (c), .kind = MMCHAL_SDHI_SYSDMAC,                             \
		.shift = MMCHAL_SDHI_SHIFT_BY_SIZE, .max_blk_count = (blk), .max_segs = 32, \
		.dma_rx_offset = (rx), .flags = (f)                                         \
	}

#define F_GEN3 (MMCHAL_SDHI_F_MERGE | MMCHAL_SDHI_F_HS400)
#define F_GEN2 (MMCHAL_SDHI_F_CLK_DIV1 | MMCHAL_SDHI_F_IDLE_WAIT)
#define F_GEN1 (MMCHAL_SDHI_F_CLK_DIV1 | MMCHAL_SDHI_F_IDLE_WAIT)

static const struct mmchal_sdhi_soc sdhi_socs[] = {
	/* R-Car Gen3 with their own entries (of_rcar_r8a7795_compatible and friends). */
	IDMAC("renesas,sdhi-r8a7795", F_GEN3),
	IDMAC("renesas,sdhi-r8a77961", F_GEN3),
	IDMAC("renesas,sdhi-r8a77965", F_GEN3),
	IDMAC("renesas,sdhi-r8a77990", F_GEN3),
	/* D3: no HS400 (of_r8a77995_compatible has no HS400 capability). */
	IDMAC("renesas,sdhi-r8a77995", MMCHAL_SDHI_F_MERGE),
	/* Family fallbacks: M3-W, RZ/G2M (Gen3) and S4 (Gen4) match here. */
	IDMAC("renesas,rcar-gen3-sdhi", F_GEN3),
	IDMAC("renesas,rcar-gen4-sdhi", F_GEN3),
	/* RZ/G2L: no HS400, address increment not implemented (ADDR_MODE_FIXED_ONLY). */
	IDMAC("renesas,rzg2l-sdhi", MMCHAL_SDHI_F_MERGE | MMCHAL_SDHI_F_FIXED_ADDR),
	/* RZ/A2: fixed address mode and not merge-capable (of_rza2_compatible). */
	IDMAC("renesas,sdhi-r7s9210", MMCHAL_SDHI_F_FIXED_ADDR),
#if MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || MMCHAL_WITH_BACKEND_PIO
	/* The SYS-DMAC SoCs, served by the SYS-DMAC or the PIO backend: a library
	   with only the internal-DMAC backend could not drive them and leaves
	   their entries out. */
	/* R-Car Gen2 / RZ/G1: read port alias at +0x2000 (of_rcar_gen2_compatible
	   dma_rx_offset); 8388607 blocks, cut to 65535 by a 16-bit counter
	   (VERSION < 0xcb0d) when the controller is probed. */
	SYSDMAC("renesas,sdhi-r8a7743", GEN3_BLK_COUNT, 0x2000u, F_GEN2),
	SYSDMAC("renesas,sdhi-r8a7745", GEN3_BLK_COUNT, 0x2000u, F_GEN2),
	SYSDMAC("renesas,sdhi-r8a7790", GEN3_BLK_COUNT, 0x2000u, F_GEN2),
	SYSDMAC("renesas,sdhi-r8a7791", GEN3_BLK_COUNT, 0x2000u, F_GEN2),
	SYSDMAC("renesas,sdhi-r8a7792", GEN3_BLK_COUNT, 0x2000u, F_GEN2),
	SYSDMAC("renesas,sdhi-r8a7793", GEN3_BLK_COUNT, 0x2000u, F_GEN2),
	SYSDMAC("renesas,sdhi-r8a7794", GEN3_BLK_COUNT, 0x2000u, F_GEN2),
	SYSDMAC("renesas,rcar-gen2-sdhi", GEN3_BLK_COUNT, 0x2000u, F_GEN2),
	/* R-Car Gen1: of_rcar_gen1_compatible, no read alias, 256 blocks (TMIO default
	   PAGE_SIZE / 512 * max_segs with 4 KiB pages and 32 segments); 1/1 clock and
	   idle wait as on Gen2. */
	SYSDMAC("renesas,sdhi-r8a7778", 256u, 0u, F_GEN1),
	SYSDMAC("renesas,sdhi-r8a7779", 256u, 0u, F_GEN1),
	SYSDMAC("renesas,rcar-gen1-sdhi", 256u, 0u, F_GEN1),
	/* SH-Mobile: limits as Gen1; their trees usually carry no `dmas` -> PIO.
	   of_default_cfg: the idle wait, no 1/1 clock. */
	SYSDMAC("renesas,sdhi-sh73a0", 256u, 0u, MMCHAL_SDHI_F_IDLE_WAIT),
	SYSDMAC("renesas,sdhi-r8a73a4", 256u, 0u, MMCHAL_SDHI_F_IDLE_WAIT),
	SYSDMAC("renesas,sdhi-r8a7740", 256u, 0u, MMCHAL_SDHI_F_IDLE_WAIT),
	/* The generic SH-Mobile string has no of_data in Linux: no flags. */
	SYSDMAC("renesas,sdhi-shmobile", 256u, 0u, 0),
#endif
};

#define SDHI_NSOCS (sizeof(sdhi_socs) / sizeof(sdhi_socs[0]))

static bool str_eq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const struct mmchal_sdhi_soc *mmchal_sdhi_soc_lookup(const char *compatible)
{
	size_t i;

	if (compatible == NULL)
		return NULL;
	for (i = 0; i < SDHI_NSOCS; i++)
		if (str_eq(sdhi_socs[i].compatible, compatible))
			return &sdhi_socs[i];
	return NULL;
}

const struct mmchal_sdhi_soc *mmchal_sdhi_soc_table(size_t *count)
{
	if (count != NULL)
		*count = SDHI_NSOCS;
	return sdhi_socs;
}

int mmchal_sdhi_bus_shift(const struct mmchal_sdhi_soc *soc, uint64_t reg_size)
{
	if (soc == NULL || reg_size == 0)
		return MMCHAL_EINVAL;
	if (soc->shift == MMCHAL_SDHI_SHIFT_FIXED_2)
		return 2;
	/* renesas_sdhi_probe(): bus_shift 1 when the window is larger than 0x100. */
	return reg_size > 0x100u ? 1 : 0;
}

uint32_t mmchal_sdhi_rev_flags(enum mmchal_sdhi_rev rev)
{
	switch (rev) {
	case MMCHAL_SDHI_REV_H3_ES1:
	case MMCHAL_SDHI_REV_M3W_ES10:
		/* Read-end at DM_CM_INFO1 bit17 (U-Boot renesas-sdhi, TF-A emmc) and one
		   read channel per SoC (Linux gen3_soc_whitelist ONE_RX_ONLY). */
		return MMCHAL_SDHI_F_OLD_INFO1 | MMCHAL_SDHI_F_ONE_RX_ONLY;
	default:
		return 0;
	}
}

bool mmchal_sdhi_iommu_usable(const char *soc_compatible, enum mmchal_sdhi_rev rev)
{
	if (soc_compatible == NULL)
		return true;
	/* Linux ipmmu-vmsa.c soc_denylist: RZ/G2M and M3-W never, H3 only ES3.x. */
	if (str_eq(soc_compatible, "renesas,r8a774a1") || str_eq(soc_compatible, "renesas,r8a7796"))
		return false;
	if (str_eq(soc_compatible, "renesas,r8a7795"))
		return rev != MMCHAL_SDHI_REV_H3_ES2 && rev != MMCHAL_SDHI_REV_H3_ES1;
	return true;
}
