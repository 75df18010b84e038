/*
 * SDHI backends under the simulator's fault schedule: every fault kind gives
 * the right error code on every backend, the controller recovers and the next
 * request succeeds; an IOMMU permission fault writes nothing; card removal
 * during a transfer completes it once with MMCHAL_ENOMEDIUM and later requests
 * are refused until a card is back; a SYS-DMAC channel that refuses a
 * transfer makes that one request PIO; a bad DMA segment is rejected.
 */
#include "sdhi_fx.h"

#define LBA  200u
#define NBLK 8u

struct io {
	struct fx_buf b;
	struct mmchal_sg sg;
	struct mmchal_dma_seg seg;
	struct mmchal_data d;
	struct mmchal_cmd c;
	struct mmchal_xfer x;
};

static void io_prep(struct fx *f, struct io *io, bool write, enum mmchal_plan plan)
{
	memset(io, 0, sizeof(*io));
	fx_buf_get(f, f->lo, NBLK * 512u, 0, &io->b);
	memset(io->b.p, write ? 0x77 : 0x5a, NBLK * 512u);
	io->sg.cpu = io->b.p;
	io->sg.phys = io->b.phys;
	io->sg.len = NBLK * 512u;
	io->seg.addr = io->b.phys;
	io->seg.len = NBLK * 512u;
	io->d.dir = write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
	io->d.blksz = 512;
	io->d.blocks = NBLK;
	io->d.sg = &io->sg;
	io->d.sg_len = 1;
	io->c.opcode = write ? 25 : 18;
	io->c.arg = LBA;
	io->c.flags = MMCHAL_RSP_R1;
	io->x.cmd = &io->c;
	io->x.data = &io->d;
	io->x.auto_stop = true;
	io->x.plan = plan;
	if (plan != MMCHAL_PLAN_PIO) {
		io->x.segs = &io->seg;
		io->x.nsegs = 1;
	}
}

static uint32_t io_run(struct fx *f, struct io *io)
{
	uint32_t ev;

	assert_int_equal(f->be.ops->start(f->be.ctx, &io->x), 0);
	ev = fx_wait(f, &io->x);
	assert_false(ev & FX_TIMEOUT);
	return ev;
}

/* A good 8-block read and write after the fault: the host recovered. */
static void io_check_good(struct fx *f, enum mmchal_plan plan)
{
	uint64_t size;
	uint8_t *store = mmchal_sim_card_store(f->sim, &size);
	struct io io;
	uint32_t ev;

	for (uint32_t i = 0; i < NBLK * 512u; i++)
		store[LBA * 512u + i] = fx_pat(i, 7);
	io_prep(f, &io, false, plan);
	ev = io_run(f, &io);
	assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR), 0);
	assert_true(ev & MMCHAL_EV_DATA_DONE);
	assert_memory_equal(io.b.p, store + LBA * 512u, NBLK * 512u);
	io_prep(f, &io, true, plan);
	ev = io_run(f, &io);
	assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR), 0);
	assert_memory_equal(store + LBA * 512u, io.b.p, NBLK * 512u);
	while (f->be.ops->card_busy(f->be.ctx) == 1)
		fx_delay(f, 10000);
}

/* Bring the card back to tran: CMD12 if it was left sending or receiving. */
static void card_to_tran(struct fx *f)
{
	int st = mmchal_sim_card_state(f->sim);

	if (st == MMCHAL_SIM_ST_DATA || st == MMCHAL_SIM_ST_RCV)
		assert_int_equal(fx_cmd(f, 12, 0, MMCHAL_RSP_R1B), 0);
	while (f->be.ops->card_busy(f->be.ctx) == 1)
		fx_delay(f, 10000);
	assert_int_equal(mmchal_sim_card_state(f->sim), MMCHAL_SIM_ST_TRAN);
}

struct backend_case {
	enum mmchal_sim_soc soc;
	enum mmchal_sdhi_kind kind;
	enum mmchal_plan plan;
	bool iommu;
};

static const struct backend_case cases[] = {
	{MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_DIRECT, false},
	{MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_DIRECT, true},
	{MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC, MMCHAL_PLAN_DIRECT, false},
	{MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC, MMCHAL_PLAN_DIRECT, true},
	{MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_PIO, MMCHAL_PLAN_PIO, false},
	{MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_PIO, MMCHAL_PLAN_PIO, false},
};

static void open_case(struct fx *f, const struct backend_case *bc)
{
	struct fx_opts o = {bc->soc, bc->kind, -1, 0, 0, MMCHAL_SIM_CARD_MMC, bc->iommu, false, 0};

	assert_int_equal(fx_open(f, &o), 0);
	fx_mmc_init(f, MMCHAL_BUS_WIDTH_8);
}

/* With an IOMMU the buffer is identity-mapped for the test's DMA plans. */
static void map_all(struct fx *f)
{
	if (f->has_iommu)
		assert_int_equal(f->iommu.ops->map(f->iommu.ctx, FX_LO_BASE, FX_LO_BASE, FX_RAM,
						   MMCHAL_IOMMU_READ | MMCHAL_IOMMU_WRITE),
				 0);
}

struct fault_case {
	enum mmchal_sim_fault_kind kind;
	enum mmchal_sim_fault_trigger trig;
	uint32_t count;
	bool write;
	int err;      /* expected error */
	bool cmd_err; /* reported as a command error */
};

static const struct fault_case faults[] = {
	{MMCHAL_SIM_FAULT_CMD_TIMEOUT, MMCHAL_SIM_AT_CMD, 0, false, MMCHAL_ETIMEDOUT, true},
	{MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 0, false, MMCHAL_EIO, true},
	{MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 0, true, MMCHAL_EIO, true},
	{MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 3, false, MMCHAL_EIO, false},
	{MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 3, true, MMCHAL_EIO, false},
	{MMCHAL_SIM_FAULT_DATA_TIMEOUT, MMCHAL_SIM_AT_BLOCK, 2, false, MMCHAL_ETIMEDOUT, false},
	{MMCHAL_SIM_FAULT_DATA_TIMEOUT, MMCHAL_SIM_AT_BLOCK, 2, true, MMCHAL_ETIMEDOUT, false},
	{MMCHAL_SIM_FAULT_END_BIT, MMCHAL_SIM_AT_BLOCK, 5, false, MMCHAL_EIO, false},
	{MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 1, false, MMCHAL_EFAULT, false},
	{MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 1, true, MMCHAL_EFAULT, false},
	{MMCHAL_SIM_FAULT_IOMMU, MMCHAL_SIM_AT_BLOCK, 4, false, MMCHAL_EFAULT, false},
	{MMCHAL_SIM_FAULT_IOMMU, MMCHAL_SIM_AT_BLOCK, 4, true, MMCHAL_EFAULT, false},
	{MMCHAL_SIM_FAULT_STUCK_BUSY, MMCHAL_SIM_AT_BLOCK, 2, true, MMCHAL_ETIMEDOUT, false},
};

static void test_fault_schedule(void **state)
{
	(void)state;
	for (size_t b = 0; b < sizeof(cases) / sizeof(cases[0]); b++) {
		for (size_t k = 0; k < sizeof(faults) / sizeof(faults[0]); k++) {
			const struct fault_case *fc = &faults[k];
			struct mmchal_sim_fault sf = {fc->kind, fc->trig, fc->write ? 25 : 18,
						      fc->count, 0};
			bool dma = cases[b].kind != MMCHAL_SDHI_PIO;
			bool fires = true;
			struct fx f;
			struct io io;
			uint32_t ev, resets;

			if (fc->kind == MMCHAL_SIM_FAULT_DMA_ERROR && !dma)
				fires = false;
			if (fc->kind == MMCHAL_SIM_FAULT_IOMMU && (!dma || !cases[b].iommu))
				fires = false;
			open_case(&f, &cases[b]);
			map_all(&f);
			assert_int_equal(mmchal_sim_fault_add(f.sim, &sf), 0);
			resets = f.sdhi.stats.soft_resets;
			io_prep(&f, &io, fc->write, cases[b].plan);
			ev = io_run(&f, &io);
			if (!fires) {
				assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR),
						 0);
				assert_int_equal(mmchal_sim_faults_fired(f.sim, fc->kind), 0);
				fx_close(&f);
				continue;
			}
			assert_int_equal(mmchal_sim_faults_fired(f.sim, fc->kind), 1);
			if (fc->cmd_err) {
				assert_true(ev & MMCHAL_EV_CMD_ERROR);
				assert_int_equal(io.c.error, fc->err);
			} else {
				assert_true(ev & MMCHAL_EV_CMD_DONE);
				assert_true(ev & MMCHAL_EV_DATA_ERROR);
				assert_false(ev & MMCHAL_EV_DATA_DONE);
				assert_int_equal(io.c.error, 0);
				assert_int_equal(io.d.error, fc->err);
				assert_true(io.d.bytes_xfered < NBLK * 512u);
				if (!dma)
					assert_int_equal(io.d.bytes_xfered % 512u, 0);
			}
			/* the error path reset the controller once */
			assert_int_equal(f.sdhi.stats.soft_resets, resets + 1u);
			if (fc->kind == MMCHAL_SIM_FAULT_DMA_ERROR ||
			    fc->kind == MMCHAL_SIM_FAULT_IOMMU)
				assert_int_equal(f.sdhi.stats.dma_errors, 1);
			fx_buf_guards(&io.b);
			if (fc->kind == MMCHAL_SIM_FAULT_STUCK_BUSY) {
				/* DAT0 stays low until CMD0: identify again */
				assert_int_equal(f.be.ops->card_busy(f.be.ctx), 1);
				fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
			} else {
				card_to_tran(&f);
			}
			io_check_good(&f, cases[b].plan);
			fx_close(&f);
		}
	}
}

/* A read into a page mapped read-only: the IOMMU faults, nothing is written. */
static void test_iommu_permission(void **state)
{
	(void)state;
	for (size_t b = 0; b < sizeof(cases) / sizeof(cases[0]); b++) {
		struct mmchal_sim_iommu_stats is;
		struct fx f;
		struct io io;
		uint32_t ev;

		if (!cases[b].iommu)
			continue;
		open_case(&f, &cases[b]);
		io_prep(&f, &io, false, cases[b].plan);
		assert_int_equal(f.iommu.ops->map(f.iommu.ctx, 0x20000000u, io.b.phys & ~4095ull,
						  NBLK * 512u, MMCHAL_IOMMU_READ),
				 0);
		io.seg.addr = 0x20000000u;
		ev = io_run(&f, &io);
		assert_true(ev & MMCHAL_EV_DATA_ERROR);
		assert_int_equal(io.d.error, MMCHAL_EFAULT);
		assert_int_equal(mmchal_sim_iommu_stats(f.sim, &is), 0);
		assert_int_equal(is.last_fault, MMCHAL_SIM_IOMMU_FAULT_PERM);
		assert_true(is.last_fault_write);
		for (uint32_t i = 0; i < NBLK * 512u; i++)
			assert_int_equal(io.b.p[i], 0x5a);
		fx_buf_guards(&io.b);
		card_to_tran(&f);
		assert_int_equal(f.iommu.ops->unmap(f.iommu.ctx, 0x20000000u, NBLK * 512u), 0);
		f.iommu.ops->flush(f.iommu.ctx, 0x20000000u, NBLK * 512u);
		map_all(&f);
		io_check_good(&f, cases[b].plan);
		fx_close(&f);
	}
}

/* Removal during the data phase: one completion with ENOMEDIUM, then refusals. */
static void test_card_removal(void **state)
{
	(void)state;
	for (size_t b = 0; b < sizeof(cases) / sizeof(cases[0]); b++) {
		struct mmchal_sim_fault sf = {MMCHAL_SIM_FAULT_CARD_REMOVE, MMCHAL_SIM_AT_BLOCK, 18,
					      3, 0};
		struct mmchal_sim_card_config cc;
		struct fx f;
		struct io io;
		uint32_t ev, commands;
		struct mmchal_sim_counters sc;

		open_case(&f, &cases[b]);
		map_all(&f);
		assert_int_equal(f.be.ops->get_cd(f.be.ctx), 1);
		assert_int_equal(mmchal_sim_fault_add(f.sim, &sf), 0);
		io_prep(&f, &io, false, cases[b].plan);
		ev = io_run(&f, &io);
		assert_true(ev & MMCHAL_EV_CARD_CHANGE);
		assert_true(ev & MMCHAL_EV_DATA_ERROR);
		assert_int_equal(io.d.error, MMCHAL_ENOMEDIUM);
		/* nothing more comes for that request */
		fx_delay(&f, 2000000000ull);
		assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
		assert_int_equal(ev & ~MMCHAL_EV_CARD_CHANGE, 0);
		assert_int_equal(f.be.ops->get_cd(f.be.ctx), 0);
		/* refused at once, nothing reaches the bus */
		mmchal_sim_get_counters(f.sim, &sc);
		commands = (uint32_t)sc.commands;
		assert_int_equal(f.be.ops->start(f.be.ctx, &io.x), MMCHAL_ENOMEDIUM);
		assert_int_equal(fx_cmd(&f, 13, 1u << 16, MMCHAL_RSP_R1), MMCHAL_ENOMEDIUM);
		mmchal_sim_get_counters(f.sim, &sc);
		assert_int_equal(sc.commands, commands);
		/* a card is back: inserted event, identification, data again */
		assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc), 0);
		assert_int_equal(mmchal_sim_card_insert(f.sim, &cc), 0);
		fx_delay(&f, 10000);
		assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
		assert_true(ev & MMCHAL_EV_CARD_CHANGE);
		assert_int_equal(f.be.ops->get_cd(f.be.ctx), 1);
		fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
		io_check_good(&f, cases[b].plan);
		fx_close(&f);
	}
}

/* SYS-DMAC: a segment list the channel refuses -> PIO for that request, counted. */
static void test_sysdmac_fallback(void **state)
{
	const struct backend_case bc = {MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC,
					MMCHAL_PLAN_DIRECT, false};
	struct mmchal_sim_counters sc;
	struct mmchal_sdhi_stats st;
	struct fx f;
	struct io io;
	uint32_t ev;

	(void)state;
	open_case(&f, &bc);
	io_prep(&f, &io, false, MMCHAL_PLAN_DIRECT);
	/* the simulated channel takes at most 0xffffff bytes per descriptor: a
	   segment it cannot address (outside its 40-bit range) fails prepare */
	io.seg.addr = 1ull << 41;
	mmchal_sim_reset_counters(f.sim);
	ev = io_run(&f, &io);
	assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR), 0);
	assert_int_equal(io.d.bytes_xfered, NBLK * 512u);
	assert_int_equal(mmchal_sdhi_get_stats(&f.sdhi, &st), 0);
	assert_int_equal(st.pio_fallbacks, 1);
	mmchal_sim_get_counters(f.sim, &sc);
	assert_int_equal(sc.sysdmac_bytes, 0);
	assert_int_equal(sc.port_reads, NBLK * 512u / f.sdhi.port_width);
	/* the next request uses DMA again */
	io_check_good(&f, MMCHAL_PLAN_DIRECT);
	mmchal_sim_get_counters(f.sim, &sc);
	assert_int_equal(sc.sysdmac_bytes, 2u * NBLK * 512u);
	assert_int_equal(mmchal_sdhi_get_stats(&f.sdhi, &st), 0);
	assert_int_equal(st.pio_fallbacks, 1);
	/* a bounced read cannot fall back: refused before anything is sent */
	io_prep(&f, &io, false, MMCHAL_PLAN_BOUNCED);
	io.seg.addr = 1ull << 41;
	assert_int_equal(f.be.ops->start(f.be.ctx, &io.x), MMCHAL_EFAULT);
	io_check_good(&f, MMCHAL_PLAN_DIRECT);
	fx_close(&f);
}

/* Segments the engines cannot take are rejected with EINVAL; nothing is sent. */
static void test_bad_segments(void **state)
{
	struct mmchal_sim_counters sc;
	struct fx f;
	struct io io;

	(void)state;
	for (int k = 0; k < 2; k++) {
		const struct backend_case bc = {k ? MMCHAL_SIM_SOC_GEN2 : MMCHAL_SIM_SOC_GEN3,
						k ? MMCHAL_SDHI_SYSDMAC : MMCHAL_SDHI_IDMAC,
						MMCHAL_PLAN_DIRECT, false};
		struct mmchal_dma_seg two[2];

		open_case(&f, &bc);
		mmchal_sim_reset_counters(f.sim);
		io_prep(&f, &io, false, MMCHAL_PLAN_DIRECT);
		io.seg.addr = io.b.phys + (k ? 1u : 64u); /* idmac: 128-byte rule; sysdmac: odd */
		assert_int_equal(f.be.ops->start(f.be.ctx, &io.x), MMCHAL_EINVAL);
		io.seg.addr = io.b.phys;
		io.seg.len = 512u; /* lengths do not add up */
		assert_int_equal(f.be.ops->start(f.be.ctx, &io.x), MMCHAL_EINVAL);
		io.seg.len = 0;
		assert_int_equal(f.be.ops->start(f.be.ctx, &io.x), MMCHAL_EINVAL);
		if (!k) {
			/* above the internal DMAC's 32 address bits; two segments */
			io.seg.addr = FX_HI_BASE;
			io.seg.len = NBLK * 512u;
			assert_int_equal(f.be.ops->start(f.be.ctx, &io.x), MMCHAL_EINVAL);
			io.seg.addr = 0xffffff80u;
			assert_int_equal(f.be.ops->start(f.be.ctx, &io.x), MMCHAL_EINVAL);
			two[0].addr = io.b.phys;
			two[0].len = 512;
			two[1].addr = io.b.phys + 1024;
			two[1].len = NBLK * 512u - 512u;
			io.x.segs = two;
			io.x.nsegs = 2;
			assert_int_equal(f.be.ops->start(f.be.ctx, &io.x), MMCHAL_EINVAL);
		}
		io.x.segs = NULL;
		assert_int_equal(f.be.ops->start(f.be.ctx, &io.x), MMCHAL_EINVAL);
		mmchal_sim_get_counters(f.sim, &sc);
		assert_int_equal(sc.commands, 0);
		assert_int_equal(sc.writes, 0);
		io_check_good(&f, MMCHAL_PLAN_DIRECT);
		fx_close(&f);
	}
}

/* A card pulled and put back between two looks: the card-detect level is the same,
   but the latched removed and inserted bits tell, and the change is reported. */
static void test_card_swapped_between_looks(void **state)
{
	struct mmchal_sim_card_config cc;
	struct fx f;
	uint32_t ev;

	(void)state;
	open_case(&f, &cases[0]);
	assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
	assert_int_equal(ev & MMCHAL_EV_CARD_CHANGE, 0);
	assert_int_equal(mmchal_sim_card_remove(f.sim), 0);
	fx_delay(&f, 10000);
	assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc), 0);
	assert_int_equal(mmchal_sim_card_insert(f.sim, &cc), 0);
	fx_delay(&f, 10000);
	assert_int_equal(f.be.ops->get_cd(f.be.ctx), 1);
	assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
	assert_int_equal(ev & MMCHAL_EV_CARD_CHANGE, MMCHAL_EV_CARD_CHANGE);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fault_schedule),
		cmocka_unit_test(test_iommu_permission),
		cmocka_unit_test(test_card_removal),
		cmocka_unit_test(test_sysdmac_fallback),
		cmocka_unit_test(test_bad_segments),
		cmocka_unit_test(test_card_swapped_between_looks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
