/*
 * A simulated board for mmchal-sim and the card layer's simulator tests: the
 * register-level simulator (sim/) with one card, an SDHI backend, the host
 * core (optionally behind the simulated IOMMU) and the card layer on top.
 * Host only; everything is allocated with the board and freed with it.
 */
#ifndef MMCHAL_TOOLS_SIM_BOARD_H
#define MMCHAL_TOOLS_SIM_BOARD_H

#include <mmchal/card.h>
#include <mmchal/host_core.h>
#include <mmchal/iommu.h>
#include <mmchal/sdhi.h>
#include <mmchal_sim/sim.h>

/* Guest RAM of the board: one region below 4 GiB. */
#define BOARD_RAM_BASE 0x40000000ull
#define BOARD_RAM_SIZE (64ull << 20)
#define BOARD_MAX_SEGS 512u

struct board_opts {
	enum mmchal_sim_soc soc;            /* MMCHAL_SIM_SOC_GEN3: R-Car H3-like */
	const char *compatible;             /* SoC table entry; NULL = by @c soc */
	enum mmchal_sdhi_kind kind;         /* backend */
	struct mmchal_sim_card_config card; /* the card (kind NONE = empty slot) */
	bool iommu;                         /* the SDHI master behind the IOMMU */
	uint32_t bus;                       /* MMCHAL_BUS_* of the board wiring */
	/* the host opts in to segment merging (the SoC entry's MMCHAL_SDHI_F_MERGE
	   is dropped when false, as for an SDHI driver without merge support) */
	bool merge_capable;
	uint32_t f_max_hz; /* max-frequency; 0 = the controller clock */
	/* the SDHI declares completion in its interrupt (MMCHAL_COMPLETES_IN_IRQ):
	   the simulator's interrupt line and the SYS-DMAC's completions run
	   mmchal_host_irq(); a library without the interrupt path (MMCHAL_WITH_IRQ
	   0) has none, and its host polls that backend as it does every other */
	bool irq;
};

struct board {
	struct mmchal_sim *sim;
	int ram;
	struct mmchal_sim_config sc;
	struct mmchal_sdhi_cfg scfg;
	struct mmchal_sdhi_soc soc; /* the SoC table entry, merge flag as the board says */
	struct mmchal_sdhi sdhi;
	struct mmchal_backend be;
	struct mmchal_iommu iommu;    /* what the domain uses: counts, then calls iommu_hw */
	struct mmchal_iommu iommu_hw; /* the simulator's IOMMU ops */
	uint64_t iova_pages;          /* IOMMU pages mapped now (seen through iommu) */
	uint64_t iova_peak;           /* most mapped at once since board_iova_reset() */
	struct mmchal_sim_card_config card_cfg; /* the card as inserted (media rates, ...) */
	struct mmchal_iommu_domain dom;
	uint64_t *nodes;
	struct mmchal_port port;
	struct mmchal_host_cfg hc;
	struct mmchal_host host;
	struct mmchal_dma_seg table[BOARD_MAX_SEGS];
	struct mmchal_sg scratch[BOARD_MAX_SEGS];
	void *regbuf;
	mmchal_phys_addr_t regbuf_phys;
	struct mmchal_card card;
};

/* Defaults: Gen3 SoC, internal DMAC, an HS400 eMMC of @capacity bytes. */
void board_defaults(struct board_opts *o, enum mmchal_sim_card_kind card, uint64_t capacity);
/* Build the board; 0 or a negative mmchal_err (the board is then closed). */
int board_open(struct board *b, const struct board_opts *o);
void board_close(struct board *b);
/* Start a new IOVA peak: from now on board_iova_peak() is the most IOMMU
   pages mapped at once since this call (0 on a board without the IOMMU). */
void board_iova_reset(struct board *b);
uint64_t board_iova_peak(const struct board *b);
/* Pages of guest RAM: @n 4 KiB pages, shuffled (seeded). */
int board_pages(struct board *b, uint32_t n, uint64_t seed, struct mmchal_sg *sg);

#endif /* MMCHAL_TOOLS_SIM_BOARD_H */
