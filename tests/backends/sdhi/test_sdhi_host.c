/*
 * The SDHI backends under the host core (mmchal_host_request_sync): eMMC
 * identification, reads and writes of scattered 4 KiB pages with CMD12 and
 * with CMD23, every plan the core picks (IOMMU_MERGED with 512 segments behind
 * the IOMMU, DIRECT, BOUNCED, PIO), a DMA fault retried by PIO, and IOVA pages
 * and bounce slots back to zero afterwards; the core leaves CMD12 to the
 * controller and gets its response.
 */
#include "sdhi_fx.h"

#include <mmchal/host_core.h>

#define NPAGES_MAX 512u

struct hfx {
	struct fx f;
	struct mmchal_port port;
	struct mmchal_host host;
	struct mmchal_host_cfg hc;
	struct mmchal_iommu_domain dom;
	struct mmchal_bounce bounce;
	uint64_t nodes[MMCHAL_IOVA_POOL_BYTES(64) / 8u + 1u];
	uint32_t meta[64];
	struct mmchal_sg sg[NPAGES_MAX];
	struct mmchal_dma_seg table[NPAGES_MAX];
	uint32_t lba;
	bool irq;           /* interrupt-driven: the simulator's interrupt runs mmchal_host_irq */
	volatile int ndone; /* completions seen by on_done */
};

static struct hfx H;

static void on_done(struct mmchal_request *r)
{
	((struct hfx *)r->priv)->ndone++;
}

static void on_irq(void *arg)
{
	(void)mmchal_host_irq(&((struct hfx *)arg)->host);
}

static void on_dma(void *arg)
{
	on_irq(arg);
}

/* Synchronous in polled mode; in interrupt mode: submit, run the simulator until done. */
static int hrun(struct hfx *h, struct mmchal_request *r)
{
	int before = h->ndone, rc;
	uint64_t deadline;

	if (!h->irq)
		return mmchal_host_request_sync(&h->host, r, 5000);
	r->done = on_done;
	r->priv = h;
	rc = mmchal_host_request(&h->host, r);
	if (rc)
		return rc;
	deadline = mmchal_sim_now(h->f.sim) + 5000000000ull;
	while (h->ndone == before && mmchal_sim_now(h->f.sim) < deadline)
		mmchal_sim_run(h->f.sim, deadline);
	assert_int_equal(h->ndone, before + 1);
	if (r->sbc && r->sbc->error)
		return r->sbc->error;
	if (r->cmd->error)
		return r->cmd->error;
	if (r->data && r->data->error)
		return r->data->error;
	return r->stop ? r->stop->error : 0;
}

static int hcmd(struct hfx *h, uint32_t op, uint32_t arg, uint32_t flags, uint32_t *resp)
{
	struct mmchal_cmd c = {.opcode = op, .arg = arg, .flags = flags};
	struct mmchal_request r = {.cmd = &c};
	int rc = hrun(h, &r);

	if (resp)
		*resp = c.resp[0];
	return rc;
}

static void hios(struct hfx *h, uint32_t hz, enum mmchal_bus_width w)
{
	struct mmchal_ios ios = {hz, w, MMCHAL_TIMING_LEGACY, MMCHAL_POWER_ON, MMCHAL_SIGNAL_330};

	assert_int_equal(mmchal_host_core_ops.set_ios(&h->host, &ios), 0);
}

static unsigned sdio_calls; /* calls of the host's sdio_irq callback */

static void on_sdio(void *arg)
{
	assert_ptr_equal(arg, &H.host);
	sdio_calls++;
}

/* The simulator with its card and the host over it, no command sent yet. */
static void host_setup(struct hfx *h, const struct fx_opts *o, bool bounce, bool irq)
{
	memset(h, 0, sizeof(*h));
	h->irq = irq;
	assert_int_equal(fx_open(&h->f, o), 0);
	if (irq) {
		/* re-initialise the backend for interrupt completion with a DMA notify hook */
		h->f.cfg.caps.completion = MMCHAL_COMPLETES_IN_IRQ;
		h->f.cfg.dma_notify = on_dma;
		h->f.cfg.dma_notify_arg = h;
		if (o->kind == MMCHAL_SDHI_IDMAC)
			assert_int_equal(mmchal_sdhi_idmac_init(&h->f.sdhi, &h->f.cfg, &h->f.be),
					 0);
		else if (o->kind == MMCHAL_SDHI_SYSDMAC)
			assert_int_equal(mmchal_sdhi_sysdmac_init(&h->f.sdhi, &h->f.cfg, &h->f.be),
					 0);
		else
			assert_int_equal(mmchal_sdhi_pio_init(&h->f.sdhi, &h->f.cfg, &h->f.be), 0);
		mmchal_sim_set_irq_handler(h->f.sim, on_irq, h);
	}
	assert_int_equal(mmchal_sim_port(h->f.sim, &h->port), 0);
	h->hc.backend = &h->f.be;
	h->hc.port = &h->port;
	h->hc.pio_retry = true;
	h->hc.seg_table = h->table;
	h->hc.seg_table_len = NPAGES_MAX;
	h->hc.sdio_irq = on_sdio;
	h->hc.sdio_irq_arg = &h->host;
	if (o->iommu) {
		struct mmchal_iommu_domain_cfg dc = {.iommu = &h->f.iommu,
						     .node_mem = h->nodes,
						     .node_mem_size = sizeof(h->nodes),
						     .addr_bits = 32};

		assert_int_equal(mmchal_iommu_domain_init(&h->dom, &dc), 0);
		h->hc.iommu = &h->dom;
	}
	if (bounce) {
		mmchal_phys_addr_t phys;
		void *mem = mmchal_sim_mem_alloc(h->f.sim, h->f.lo, 1u << 20, 4096, &phys);
		struct mmchal_bounce_cfg bc = {.mem = mem,
					       .dma = phys,
					       .size = 1u << 20,
					       .meta = h->meta,
					       .meta_size = sizeof(h->meta)};

		assert_non_null(mem);
		assert_int_equal(mmchal_bounce_init(&h->bounce, &bc), 0);
		h->hc.bounce = &h->bounce;
	}
	assert_int_equal(mmchal_host_init(&h->host, &h->hc), 0);
}

static void host_open_mode(struct hfx *h, const struct fx_opts *o, bool bounce, bool irq)
{
	uint32_t r;

	host_setup(h, o, bounce, irq);
	/* eMMC identification through the host */
	hios(h, 400000, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(hcmd(h, 0, 0, MMCHAL_RSP_NONE, NULL), 0);
	for (int i = 0;; i++) {
		assert_true(i < 100);
		assert_int_equal(hcmd(h, 1, 0x40ff8080u, MMCHAL_RSP_R3, &r), 0);
		if (r & 0x80000000u)
			break;
		h->port.ops->delay_us(h->port.ctx, 100);
	}
	assert_int_equal(hcmd(h, 2, 0, MMCHAL_RSP_R2, NULL), 0);
	assert_int_equal(hcmd(h, 3, 1u << 16, MMCHAL_RSP_R1, NULL), 0);
	assert_int_equal(hcmd(h, 7, 1u << 16, MMCHAL_RSP_R1B, NULL), 0);
	assert_int_equal(hcmd(h, 6, (3u << 24) | (183u << 16) | (2u << 8), MMCHAL_RSP_R1B, NULL),
			 0);
	hios(h, 26000000, MMCHAL_BUS_WIDTH_8);
	assert_int_equal(mmchal_host_core_ops.init_card(&h->host, MMCHAL_CARD_MMC), 0);
	h->lba = 1000;
}

static void host_open(struct hfx *h, const struct fx_opts *o, bool bounce)
{
	host_open_mode(h, o, bounce, false);
}

static void host_close(struct hfx *h)
{
	mmchal_host_deinit(&h->host);
	fx_close(&h->f);
}

static int f_busy(struct hfx *h)
{
	return mmchal_backend_card_busy(&h->f.be);
}

/* One read or write of @p npages scattered pages; checks the data byte for byte. */
static int host_rw(struct hfx *h, bool write, uint32_t npages, bool sbc_mode, int region)
{
	struct mmchal_cmd sbc = {.opcode = 23, .arg = npages * 8u, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd cmd = {
		.opcode = write ? 25u : 18u, .arg = h->lba, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd stop = {.opcode = 12, .flags = MMCHAL_RSP_R1B};
	struct mmchal_data d = {.dir = write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD,
				.blksz = 512,
				.blocks = npages * 8u,
				.sg = h->sg,
				.sg_len = npages};
	struct mmchal_request r = {.cmd = &cmd, .data = &d};
	uint64_t size;
	uint8_t *store = mmchal_sim_card_store(h->f.sim, &size);
	const uint64_t base = (uint64_t)h->lba * 512u;
	int rc;

	assert_int_equal(
		mmchal_sim_mem_scatter(h->f.sim, region ? h->f.hi : h->f.lo, npages, h->lba, h->sg),
		0);
	if (sbc_mode)
		r.sbc = &sbc;
	else
		r.stop = &stop;
	for (uint32_t p = 0; p < npages; p++) {
		for (uint32_t i = 0; i < 4096u; i++) {
			uint8_t v = fx_pat((uint64_t)p * 4096u + i, h->lba);

			if (write)
				((uint8_t *)h->sg[p].cpu)[i] = v;
			else
				store[base + (uint64_t)p * 4096u + i] = v;
		}
		if (!write)
			memset(h->sg[p].cpu, 0x5a, 4096u);
	}
	rc = hrun(h, &r);
	if (rc == 0) {
		assert_int_equal(d.bytes_xfered, npages * 4096u);
		for (uint32_t p = 0; p < npages; p++)
			assert_memory_equal(h->sg[p].cpu, store + base + (uint64_t)p * 4096u,
					    4096u);
	}
	h->lba += npages * 8u + 8u;
	/* after a write the card programs: its stack waits for DAT0 (or CMD13) before the
	   next command, as Linux's block layer does; a DMA write ended idle already */
	for (int i = 0; write && f_busy(h) == 1; i++) {
		assert_true(i < 100000);
		mmchal_sim_advance(h->f.sim, 10000);
	}
	return rc;
}

static void check_plan(struct hfx *h, enum mmchal_plan plan, uint64_t count)
{
	struct mmchal_host_stats st;

	assert_int_equal(mmchal_host_stats(&h->host, &st), 0);
	assert_int_equal(st.plan[plan], count);
	assert_int_equal(st.iova_pages, 0);
	assert_int_equal(st.bounce_slots, 0);
}

static void test_idmac_iommu_merged(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3,
			    MMCHAL_SDHI_IDMAC,
			    -1,
			    0,
			    0,
			    MMCHAL_SIM_CARD_MMC,
			    true,
			    false,
			    0};
	struct hfx *h = &H;

	(void)state;
	host_open(h, &o, false);
	assert_int_equal(mmchal_host_limits(&h->host)->max_segs, 512);
	for (int w = 0; w < 2; w++) {
		assert_int_equal(host_rw(h, w, 1, false, 1), 0);
		assert_int_equal(host_rw(h, w, 32, true, 1), 0);
		assert_int_equal(host_rw(h, w, 512, false, 1), 0);
		assert_int_equal(host_rw(h, w, 512, true, 0), 0);
	}
	check_plan(h, MMCHAL_PLAN_IOMMU_MERGED, 8);
	host_close(h);
}

static void test_idmac_bounce_and_retry(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3,
			    MMCHAL_SDHI_IDMAC,
			    -1,
			    0,
			    0,
			    MMCHAL_SIM_CARD_MMC,
			    false,
			    false,
			    0};
	struct mmchal_sim_fault sf = {MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 18, 3, 0};
	struct mmchal_host_stats st;
	struct hfx *h = &H;

	(void)state;
	host_open(h, &o, true);
	assert_int_equal(mmchal_host_limits(&h->host)->max_segs, 1);
	/* one page: DIRECT; above 4 GiB: BOUNCED */
	assert_int_equal(host_rw(h, false, 1, false, 0), 0);
	assert_int_equal(host_rw(h, true, 1, false, 0), 0);
	check_plan(h, MMCHAL_PLAN_DIRECT, 2);
	assert_int_equal(host_rw(h, false, 1, false, 1), 0);
	assert_int_equal(host_rw(h, true, 1, true, 1), 0);
	check_plan(h, MMCHAL_PLAN_BOUNCED, 2);
	/* a DMA error is retried by PIO and succeeds */
	assert_int_equal(mmchal_sim_fault_add(h->f.sim, &sf), 0);
	assert_int_equal(host_rw(h, false, 1, false, 0), 0);
	assert_int_equal(mmchal_sim_faults_fired(h->f.sim, MMCHAL_SIM_FAULT_DMA_ERROR), 1);
	assert_int_equal(mmchal_host_stats(&h->host, &st), 0);
	assert_int_equal(st.pio_retries, 1);
	assert_int_equal(h->f.sdhi.stats.dma_errors, 1);
	check_plan(h, MMCHAL_PLAN_DIRECT, 3);
	assert_int_equal(host_rw(h, true, 1, false, 0), 0);
	host_close(h);
}

static void test_sysdmac_and_pio(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN2,
			    MMCHAL_SDHI_SYSDMAC,
			    -1,
			    0,
			    0,
			    MMCHAL_SIM_CARD_MMC,
			    false,
			    false,
			    0};
	struct hfx *h = &H;

	(void)state;
	host_open(h, &o, false);
	assert_int_equal(mmchal_host_limits(&h->host)->max_segs, 32);
	for (int w = 0; w < 2; w++) {
		assert_int_equal(host_rw(h, w, 1, false, 0), 0);
		assert_int_equal(host_rw(h, w, 32, true, 1), 0);
	}
	check_plan(h, MMCHAL_PLAN_DIRECT, 4);
	host_close(h);

	o.soc = MMCHAL_SIM_SOC_GEN3;
	o.kind = MMCHAL_SDHI_PIO;
	host_open(h, &o, false);
	for (int w = 0; w < 2; w++) {
		assert_int_equal(host_rw(h, w, 1, false, 1), 0);
		assert_int_equal(host_rw(h, w, 32, true, 0), 0);
	}
	check_plan(h, MMCHAL_PLAN_PIO, 4);
	host_close(h);
}

/* A fault in the middle of a request through the core: error, then recovery. */
static void test_host_fault_recovery(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3,
			    MMCHAL_SDHI_IDMAC,
			    -1,
			    0,
			    0,
			    MMCHAL_SIM_CARD_MMC,
			    true,
			    false,
			    0};
	struct mmchal_sim_fault sf = {MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 18, 40, 0};
	struct hfx *h = &H;

	(void)state;
	host_open(h, &o, false);
	assert_int_equal(mmchal_sim_fault_add(h->f.sim, &sf), 0);
	assert_int_equal(host_rw(h, false, 32, false, 1), MMCHAL_EIO);
	/* CMD12 sent by the core put the card back to tran */
	assert_int_equal(mmchal_sim_card_state(h->f.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(host_rw(h, false, 32, false, 1), 0);
	assert_int_equal(host_rw(h, true, 32, true, 1), 0);
	check_plan(h, MMCHAL_PLAN_IOMMU_MERGED, 3);
	host_close(h);
}

/* Interrupt-driven completion on every backend, SYS-DMAC with its notify hook. */
static void test_irq_mode(void **state)
{
	static const struct fx_opts opts[3] = {
		{MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, -1, 0, 0, MMCHAL_SIM_CARD_MMC, true, false,
		 0},
		{MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC, -1, 0, 0, MMCHAL_SIM_CARD_MMC, false,
		 false, 0},
		{MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_PIO, -1, 0, 0, MMCHAL_SIM_CARD_MMC, false, false,
		 0},
	};
	struct hfx *h = &H;

	(void)state;
	for (int k = 0; k < 3; k++) {
		struct mmchal_host_stats st;

		host_open_mode(h, &opts[k], false, true);
		for (int w = 0; w < 2; w++) {
			assert_int_equal(host_rw(h, w, 1, false, 0), 0);
			assert_int_equal(host_rw(h, w, 32, true, 1), 0);
			assert_int_equal(host_rw(h, w, 8, false, 1), 0);
		}
		assert_int_equal(mmchal_host_stats(&h->host, &st), 0);
		assert_int_equal(st.spurious, 0);
		assert_int_equal(st.timeouts, 0);
		assert_int_equal(st.iova_pages, 0);
		host_close(h);
	}
}

/* CMD52 through the host: function @fn, @addr, a write of @v when @wr; the R5's data. */
static uint8_t hcmd52(struct hfx *h, bool wr, uint32_t fn, uint32_t addr, uint8_t v)
{
	uint32_t r = 0;

	assert_int_equal(hcmd(h, 52, (wr ? 1u << 31 | 1u << 27 : 0) | fn << 28 | addr << 9 | v,
			      MMCHAL_RSP_R5, &r),
			 0);
	return (uint8_t)r;
}

/* Run the simulator for @ns (its interrupt handler runs the host's). */
static void hwait(struct hfx *h, uint64_t ns)
{
	mmchal_sim_run(h->f.sim, mmchal_sim_now(h->f.sim) + ns);
}

/* Let an SDIO interrupt arrive: interrupt-driven by itself, else at a poll. */
static void hdeliver(struct hfx *h, int irq)
{
	hwait(h, 100000);
	if (!irq)
		assert_int_equal(mmchal_host_poll(&h->host), 0);
}

/*
 * An SDIO card's interrupt through the whole stack as an SDIO function driver
 * meets it (Gen3 PIO host, 4-bit bus): with IENM and IEN1 set and the host's
 * interrupt enabled, function 1 raising its interrupt reaches the host's
 * sdio_irq callback once, from the simulator's interrupt (interrupt-driven) or
 * mmchal_host_poll() (polled); the card still holds it, and nothing more comes
 * until the owner, having read INTx (0x02), enables it again; once the function
 * withdrew it, enabling it again brings nothing; a controller reset after a
 * command timeout keeps it enabled. No event is counted as spurious.
 */
static void test_sdio_irq_through_host(void **state)
{
	static const struct fx_opts o = {MMCHAL_SIM_SOC_GEN3,  MMCHAL_SDHI_PIO, -1,    0, 0,
					 MMCHAL_SIM_CARD_SDIO, false,           false, 0};
	const struct mmchal_host_ops *ops = &mmchal_host_core_ops;
	struct hfx *h = &H;

	(void)state;
	for (int irq = 0; irq < 2; irq++) {
		struct mmchal_host_stats st;
		uint32_t r = 0;

		host_setup(h, &o, false, irq != 0);
		hios(h, 400000, MMCHAL_BUS_WIDTH_1);
		for (int i = 0;; i++) {
			assert_true(i < 100);
			assert_int_equal(hcmd(h, 5, 0x00ff8000u, MMCHAL_RSP_R4, &r), 0);
			if (r & 0x80000000u)
				break;
			h->port.ops->delay_us(h->port.ctx, 100);
		}
		assert_int_equal(hcmd(h, 3, 0, MMCHAL_RSP_R6, &r), 0);
		assert_int_equal(hcmd(h, 7, r & 0xffff0000u, MMCHAL_RSP_R1B, NULL), 0);
		assert_int_equal(hcmd52(h, true, 0, 0x07, 0x02), 0x02); /* 4-bit bus */
		hios(h, 25000000, MMCHAL_BUS_WIDTH_4);
		assert_int_equal(hcmd52(h, true, 0, 0x04, 0x03), 0x03); /* IENM, IEN1 */
		sdio_calls = 0;
		assert_int_equal(ops->enable_sdio_irq(&h->host, true), 0);
		hwait(h, 100000);
		assert_int_equal(mmchal_host_poll(&h->host), 0);
		assert_int_equal(sdio_calls, 0);

		assert_int_equal(mmchal_sim_sdio_irq(h->f.sim, true), 0);
		hdeliver(h, irq);
		assert_int_equal(sdio_calls, 1);
		hwait(h, 100000);
		assert_int_equal(mmchal_host_poll(&h->host), 0);
		assert_int_equal(sdio_calls, 1);
		assert_int_equal(hcmd52(h, false, 0, 0x05, 0), 0x02); /* INTx: function 1 */
		assert_int_equal(sdio_calls, 1);
		assert_int_equal(ops->enable_sdio_irq(&h->host, true), 0);
		hdeliver(h, irq);
		assert_int_equal(sdio_calls, 2);

		/* withdrawn by the function: enabling again brings nothing */
		assert_int_equal(mmchal_sim_sdio_irq(h->f.sim, false), 0);
		assert_int_equal(hcmd52(h, false, 0, 0x05, 0), 0x00);
		assert_int_equal(ops->enable_sdio_irq(&h->host, true), 0);
		hdeliver(h, irq);
		assert_int_equal(sdio_calls, 2);

		/* a command timeout resets the controller: the enabled interrupt stays so */
		assert_int_equal(hcmd(h, 8, 0x1aa, MMCHAL_RSP_R7, NULL), MMCHAL_ETIMEDOUT);
		assert_int_equal(mmchal_sim_sdio_irq(h->f.sim, true), 0);
		hdeliver(h, irq);
		assert_int_equal(sdio_calls, 3);
		assert_int_equal(mmchal_host_stats(&h->host, &st), 0);
		assert_int_equal(st.sdio_irqs, 3);
		assert_int_equal(st.spurious, 0);
		host_close(h);
	}
}

/*
 * An open-ended read and write through mmchal_host_request_sync on a backend
 * with automatic CMD12: the core writes SD_CMD once (no CMD12 of its own), the
 * controller's CMD12 is the second command on the bus, and the request's STOP
 * holds that CMD12's R1 (CURRENT_STATE data / rcv, READY_FOR_DATA).
 */
static void test_core_uses_auto12(void **state)
{
	static const enum mmchal_sdhi_kind kinds[] = {MMCHAL_SDHI_IDMAC, MMCHAL_SDHI_PIO};
	struct hfx *h = &H;

	(void)state;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct fx_opts o = {MMCHAL_SIM_SOC_GEN3, kinds[k], -1,    0, 0,
				    MMCHAL_SIM_CARD_MMC, false,    false, 0};

		host_open(h, &o, false);
		for (int w = 0; w < 2; w++) {
			struct mmchal_cmd cmd = {
				.opcode = w ? 25u : 18u, .arg = h->lba, .flags = MMCHAL_RSP_R1};
			struct mmchal_cmd stop = {
				.opcode = 12, .flags = MMCHAL_RSP_R1B, .resp = {0xdeadbeefu}};
			struct mmchal_data d = {.dir = w ? MMCHAL_DIR_TO_CARD
							 : MMCHAL_DIR_FROM_CARD,
						.blksz = 512,
						.blocks = 8,
						.sg = h->sg,
						.sg_len = 1};
			struct mmchal_request r = {.cmd = &cmd, .data = &d, .stop = &stop};
			struct mmchal_sim_counters c0, c1;
			uint64_t cmd_writes;

			assert_int_equal(
				mmchal_sim_mem_scatter(h->f.sim, h->f.lo, 1, h->lba, h->sg), 0);
			mmchal_sim_get_counters(h->f.sim, &c0);
			cmd_writes = mmchal_sim_reg_writes(h->f.sim, 0);
			assert_int_equal(mmchal_host_request_sync(&h->host, &r, 5000), 0);
			mmchal_sim_get_counters(h->f.sim, &c1);
			assert_int_equal(mmchal_sim_reg_writes(h->f.sim, 0) - cmd_writes, 1);
			assert_int_equal(c1.commands - c0.commands, 2);
			assert_int_equal(cmd.error, 0);
			assert_int_equal(d.error, 0);
			assert_int_equal(d.bytes_xfered, 8u * 512u);
			assert_int_equal(stop.error, 0);
			assert_int_equal(stop.resp[0], w ? 0x00000d00u : 0x00000b00u);
			assert_int_equal(mmchal_sim_card_state(h->f.sim), MMCHAL_SIM_ST_TRAN);
			assert_int_equal(f_busy(h), 0);
			h->lba += 16;
		}
		host_close(h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idmac_iommu_merged),
		cmocka_unit_test(test_idmac_bounce_and_retry),
		cmocka_unit_test(test_sysdmac_and_pio),
		cmocka_unit_test(test_host_fault_recovery),
		cmocka_unit_test(test_irq_mode),
		cmocka_unit_test(test_core_uses_auto12),
		cmocka_unit_test(test_sdio_irq_through_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
