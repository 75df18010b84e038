/**
 * @file
 * @brief The per-compatible SoC table of the SDHI backends and its lookups.
 *
 * Values come from Linux's match tables (renesas_sdhi_internal_dmac.c and
 * renesas_sdhi_sys_dmac.c of_data) as summarised in REFERENCE.md; the
 * entries are the initialisers of <mmchal/sdhi_socs.h>.
 *
 * @note Const data and pure functions: any context, no locks.
 */
#include <mmchal/config.h>
#include <mmchal/sdhi.h>
#include <mmchal/sdhi_socs.h>

/* The entries are the initialisers of <mmchal/sdhi_socs.h>, where each one
   says where its values come from; a board built for one SoC can use its
   initialiser directly and link neither this table nor the lookup. */
static const struct mmchal_sdhi_soc sdhi_socs[] = {
	/* R-Car Gen3 with their own entries (of_rcar_r8a7795_compatible and friends). */
	MMCHAL_SDHI_SOC_R8A7795,
	MMCHAL_SDHI_SOC_R8A77961,
	MMCHAL_SDHI_SOC_R8A77965,
	MMCHAL_SDHI_SOC_R8A77990,
	MMCHAL_SDHI_SOC_R8A77995,
	/* Family fallbacks: M3-W, RZ/G2M (Gen3) and S4 (Gen4) match here. */
	MMCHAL_SDHI_SOC_RCAR_GEN3,
	MMCHAL_SDHI_SOC_RCAR_GEN4,
	MMCHAL_SDHI_SOC_RZG2L,
	MMCHAL_SDHI_SOC_R7S9210,
#if MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || MMCHAL_WITH_BACKEND_PIO
	/* The SYS-DMAC SoCs, served by the SYS-DMAC or the PIO backend: a library
	   with only the internal-DMAC backend could not drive them and leaves
	   their entries out. */
	MMCHAL_SDHI_SOC_R8A7743,
	MMCHAL_SDHI_SOC_R8A7745,
	MMCHAL_SDHI_SOC_R8A7790,
	MMCHAL_SDHI_SOC_R8A7791,
	MMCHAL_SDHI_SOC_R8A7792,
	MMCHAL_SDHI_SOC_R8A7793,
	MMCHAL_SDHI_SOC_R8A7794,
	MMCHAL_SDHI_SOC_RCAR_GEN2,
	MMCHAL_SDHI_SOC_R8A7778,
	MMCHAL_SDHI_SOC_R8A7779,
	MMCHAL_SDHI_SOC_RCAR_GEN1,
	MMCHAL_SDHI_SOC_SH73A0,
	MMCHAL_SDHI_SOC_R8A73A4,
	MMCHAL_SDHI_SOC_R8A7740,
	MMCHAL_SDHI_SOC_SHMOBILE,
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
