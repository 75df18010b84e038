/* A simulated board: simulator, SDHI backend, host core, card layer (board.h). */
#include "board.h"

#include <stdlib.h>
#include <string.h>

#include <mmchal_sim/card.h>
#include <mmchal_sim/iommu.h>
#include <mmchal_sim/mem.h>

/* Controller input clock of the Gen3 SDHI (SDnH 800 MHz / 4, as the R-Car
   H3 runs it for HS400). */
#define BOARD_CLK_HZ 200000000u
#define IOVA_NODES   1024u

void board_defaults(struct board_opts *o, enum mmchal_sim_card_kind card, uint64_t capacity)
{
	memset(o, 0, sizeof(*o));
	o->soc = MMCHAL_SIM_SOC_GEN3;
	o->kind = MMCHAL_SDHI_IDMAC;
	(void)mmchal_sim_card_defaults(card, &o->card);
	if (card != MMCHAL_SIM_CARD_NONE && card != MMCHAL_SIM_CARD_SDIO)
		o->card.capacity = capacity;
	o->bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_SD_HS | MMCHAL_BUS_MMC_HS | MMCHAL_BUS_CMD23;
	if (card == MMCHAL_SIM_CARD_MMC)
		o->bus |= MMCHAL_BUS_8_BIT | MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400 |
			  MMCHAL_BUS_NONREMOVABLE;
}

int board_pages(struct board *b, uint32_t n, uint64_t seed, struct mmchal_sg *sg)
{
	return mmchal_sim_mem_scatter(b->sim, b->ram, n, seed, sg);
}

void board_close(struct board *b)
{
	if (b->host.magic)
		mmchal_host_deinit(&b->host);
	if (b->sim)
		mmchal_sim_destroy(b->sim);
	free(b->nodes);
	memset(b, 0, sizeof(*b));
}

/*
 * The domain maps through these ops; they count the pages the simulator's
 * IOMMU holds, so the tool can report the peak of one run (the host core's
 * own peak runs from host init).
 */
static int board_iommu_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	struct board *b = ctx;

	return b->iommu_hw.ops->get_caps(b->iommu_hw.ctx, caps);
}

static int board_iommu_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys,
			   uint64_t size, uint32_t prot)
{
	struct board *b = ctx;
	int err = b->iommu_hw.ops->map(b->iommu_hw.ctx, iova, phys, size, prot);

	if (!err) {
		b->iova_pages += size / MMCHAL_SIM_IOMMU_PAGE;
		if (b->iova_pages > b->iova_peak)
			b->iova_peak = b->iova_pages;
	}
	return err;
}

static int board_iommu_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct board *b = ctx;
	int err = b->iommu_hw.ops->unmap(b->iommu_hw.ctx, iova, size);

	if (!err)
		b->iova_pages -= size / MMCHAL_SIM_IOMMU_PAGE;
	return err;
}

static int board_iommu_flush(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct board *b = ctx;

	return b->iommu_hw.ops->flush ? b->iommu_hw.ops->flush(b->iommu_hw.ctx, iova, size) : 0;
}

static const struct mmchal_iommu_ops board_iommu_ops = {
	.get_caps = board_iommu_caps,
	.map = board_iommu_map,
	.unmap = board_iommu_unmap,
	.flush = board_iommu_flush,
};

void board_iova_reset(struct board *b)
{
	b->iova_peak = b->iova_pages;
}

uint64_t board_iova_peak(const struct board *b)
{
	return b->iova_peak;
}

/* The board's interrupt handler: the SDHI line, and a SYS-DMAC channel's end. */
static void board_irq(void *arg)
{
	struct board *b = arg;

	(void)mmchal_host_irq(&b->host);
}

static int board_backend(struct board *b, const struct board_opts *o)
{
	const char *compat = o->compatible;
	const struct mmchal_sdhi_soc *soc;
	int err;

	err = mmchal_sim_bus(b->sim, &b->scfg.bus);
	if (err)
		return err;
	if (!compat)
		compat = o->soc == MMCHAL_SIM_SOC_GEN3 ? "renesas,rcar-gen3-sdhi"
						       : "renesas,rcar-gen2-sdhi";
	soc = mmchal_sdhi_soc_lookup(compat);
	if (!soc)
		return MMCHAL_ENOENT;
	/* A host that does not opt in to merging takes merged lists nowhere: the
	   entry without its merge flag, like the SDHI driver before it declared
	   merge support (the seed's "max_segs 1 on the IOMMU"). */
	b->soc = *soc;
	if (!o->merge_capable)
		b->soc.flags &= ~MMCHAL_SDHI_F_MERGE;
	b->scfg.soc = &b->soc;
	b->scfg.port = &b->port;
	b->scfg.clk_hz = BOARD_CLK_HZ;
	b->scfg.reg_dma = b->sc.reg_phys;
	b->scfg.caps.bus = o->bus;
	b->scfg.caps.merge_capable = o->merge_capable;
	b->scfg.caps.f_max_hz = o->f_max_hz;
	b->scfg.caps.completion = o->irq ? MMCHAL_COMPLETES_IN_IRQ : MMCHAL_COMPLETES_POLLED;
	if (MMCHAL_WITH_IRQ && o->irq) {
		/* a read's channel may end after the controller's access end */
		b->scfg.dma_notify = board_irq;
		b->scfg.dma_notify_arg = b;
	}
	switch (o->kind) {
	case MMCHAL_SDHI_IDMAC:
		return mmchal_sdhi_idmac_init(&b->sdhi, &b->scfg, &b->be);
	case MMCHAL_SDHI_SYSDMAC:
		err = mmchal_sim_sysdmac(b->sim, MMCHAL_DIR_TO_CARD, &b->scfg.chan[0]);
		if (!err)
			err = mmchal_sim_sysdmac(b->sim, MMCHAL_DIR_FROM_CARD, &b->scfg.chan[1]);
		if (err)
			return err;
		return mmchal_sdhi_sysdmac_init(&b->sdhi, &b->scfg, &b->be);
	default:
		return mmchal_sdhi_pio_init(&b->sdhi, &b->scfg, &b->be);
	}
}

int board_open(struct board *b, const struct board_opts *o)
{
	struct mmchal_card_cfg cc;
	int err;

	memset(b, 0, sizeof(*b));
	b->card_cfg = o->card;
	err = mmchal_sim_config_defaults(&b->sc, o->soc);
	if (!err)
		err = mmchal_sim_create(&b->sc, &b->sim);
	if (err)
		goto fail;
	b->ram = mmchal_sim_mem_add(b->sim, BOARD_RAM_BASE, BOARD_RAM_SIZE, NULL);
	if (b->ram < 0) {
		err = b->ram;
		goto fail;
	}
	err = mmchal_sim_port(b->sim, &b->port);
	if (err)
		goto fail;
	if (o->card.kind != MMCHAL_SIM_CARD_NONE) {
		err = mmchal_sim_card_insert(b->sim, &o->card);
		if (err)
			goto fail;
	}
	err = board_backend(b, o);
	if (err)
		goto fail;
	b->hc.backend = &b->be;
	b->hc.port = &b->port;
	b->hc.seg_table = b->table;
	b->hc.seg_table_len = BOARD_MAX_SEGS;
	if (o->iommu) {
		struct mmchal_iommu_domain_cfg dc;

		err = mmchal_sim_iommu_attach(b->sim, NULL);
		if (!err)
			err = mmchal_sim_iommu(b->sim, &b->iommu_hw);
		if (err)
			goto fail;
		b->iommu.ops = &board_iommu_ops;
		b->iommu.ctx = b;
		b->nodes = calloc(1, MMCHAL_IOVA_POOL_BYTES(IOVA_NODES));
		if (!b->nodes) {
			err = MMCHAL_ENOMEM;
			goto fail;
		}
		memset(&dc, 0, sizeof(dc));
		dc.iommu = &b->iommu;
		dc.node_mem = b->nodes;
		dc.node_mem_size = MMCHAL_IOVA_POOL_BYTES(IOVA_NODES);
		dc.addr_bits = 32;
		err = mmchal_iommu_domain_init(&b->dom, &dc);
		if (err)
			goto fail;
		b->hc.iommu = &b->dom;
	}
	err = mmchal_host_init(&b->host, &b->hc);
	if (err)
		goto fail;
	if (MMCHAL_WITH_IRQ && o->irq)
		mmchal_sim_set_irq_handler(b->sim, board_irq, b);
	b->regbuf = mmchal_sim_mem_alloc(b->sim, b->ram, MMCHAL_CARD_BUF_SIZE, 4096,
					 &b->regbuf_phys);
	if (!b->regbuf) {
		err = MMCHAL_ENOMEM;
		goto fail;
	}
	memset(&cc, 0, sizeof(cc));
	cc.ops = &mmchal_host_core_ops;
	cc.ctx = &b->host;
	cc.buf = b->regbuf;
	cc.buf_phys = b->regbuf_phys;
	cc.sg_scratch = b->scratch;
	cc.sg_scratch_len = BOARD_MAX_SEGS;
	cc.delay_us = b->port.ops->delay_us;
	cc.delay_arg = b->port.ctx;
	err = mmchal_card_setup(&b->card, &cc);
	if (err)
		goto fail;
	return 0;
fail:
	board_close(b);
	return err;
}
