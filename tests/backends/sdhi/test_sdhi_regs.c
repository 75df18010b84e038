/*
 * SDHI common code, register by register: the values written to acknowledge
 * status bits, the soft reset after an error (controller released from reset,
 * every setting put back, including a 16-bit data port, SDIO mode and the DMA
 * enable), the interrupt masks and DMA enable switched between DMA and PIO
 * requests, and nothing of a finished request touched by later calls.
 */
#include "sdhi_fx.h"

#define R_INFO1    0x1cu
#define R_INFO2    0x1eu
#define R_I1MASK   0x20u
#define R_I2MASK   0x22u
#define R_SIZE     0x26u
#define R_STOP     0x08u
#define R_SDIOMODE 0x34u
#define R_EXTMODE  0xd8u
#define R_SOFTRST  0xe0u
#define R_HOSTMODE 0xe4u
#define DM_FIRST   0x800u

struct wlog {
	uint32_t n;
	struct mmchal_sim_access a[256];
};

static void wtrace(void *arg, const struct mmchal_sim_access *a)
{
	struct wlog *l = arg;

	if (a->write && l->n < 256u)
		l->a[l->n++] = *a;
}

/* Writes of the logical register @p reg (bus_shift of @p f). */
static uint32_t writes_of(const struct fx *f, const struct wlog *l, uint32_t reg, uint64_t *vals,
			  uint32_t max)
{
	uint32_t k = 0, off = reg << f->sc.bus_shift;

	for (uint32_t i = 0; i < l->n; i++) {
		if (l->a[i].off != off)
			continue;
		if (k < max)
			vals[k] = l->a[i].val;
		k++;
	}
	return k;
}

static uint32_t dm_writes(const struct wlog *l)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < l->n; i++)
		k += l->a[i].off >= DM_FIRST;
	return k;
}

static uint16_t reg16(struct fx *f, uint32_t reg)
{
	return mmchal_bus_rd16(&f->cfg.bus, reg);
}

static const struct fx_opts gen3_mmc = {
	MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, -1, 0, 0, MMCHAL_SIM_CARD_MMC, false, false, 0};

struct blk {
	struct fx_buf b;
	struct mmchal_sg sg;
	struct mmchal_dma_seg seg;
	struct mmchal_data d;
	struct mmchal_cmd c, stop;
	struct mmchal_xfer x;
};

/* @p blocks blocks at LBA 200, PIO or straight through the DMAC. */
static void blk_prep(struct fx *f, struct blk *t, bool write, uint32_t blocks, bool dma)
{
	memset(t, 0, sizeof(*t));
	fx_buf_get(f, f->lo, blocks * 512u, 0, &t->b);
	t->sg.cpu = t->b.p;
	t->sg.phys = t->b.phys;
	t->sg.len = blocks * 512u;
	t->d.dir = write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
	t->d.blksz = 512;
	t->d.blocks = blocks;
	t->d.sg = &t->sg;
	t->d.sg_len = 1;
	t->seg.addr = t->b.phys;
	t->seg.len = blocks * 512u;
	t->c.opcode = write ? (blocks > 1 ? 25u : 24u) : (blocks > 1 ? 18u : 17u);
	t->c.arg = 200;
	t->c.flags = MMCHAL_RSP_R1;
	t->stop.opcode = 12;
	t->stop.flags = MMCHAL_RSP_R1B;
	t->x.cmd = &t->c;
	t->x.data = &t->d;
	t->x.auto_stop = blocks > 1;
	t->x.stop = blocks > 1 ? &t->stop : NULL;
	t->x.plan = dma ? MMCHAL_PLAN_DIRECT : MMCHAL_PLAN_PIO;
	if (dma) {
		t->x.segs = &t->seg;
		t->x.nsegs = 1;
	}
}

static void blk_run(struct fx *f, struct blk *t)
{
	uint32_t ev;

	assert_int_equal(f->be.ops->start(f->be.ctx, &t->x), 0);
	ev = fx_wait(f, &t->x);
	assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_int_equal(t->d.error, 0);
	assert_int_equal(t->d.bytes_xfered, t->d.blocks * 512u);
	for (int i = 0; f->be.ops->card_busy(f->be.ctx) == 1; i++) {
		assert_true(i < 100000);
		fx_delay(f, 10000);
	}
}

/* A command the eMMC does not answer (CMD5): response timeout, soft reset. */
static void timeout_cmd(struct fx *f)
{
	uint64_t resets = f->sdhi.stats.soft_resets;

	assert_int_equal(fx_cmd(f, 5, 0, MMCHAL_RSP_R4), MMCHAL_ETIMEDOUT);
	assert_int_equal(f->sdhi.stats.soft_resets, resets + 1u);
}

/* Acknowledge: 0 at the latched bits seen, 1 elsewhere; INFO2 bit 11 always 1; a
   register with no latched bit seen is not written. */
static void test_ack_values(void **state)
{
	struct wlog l = {0};
	uint64_t v[8];
	struct fx f;
	struct blk t;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	/* a command: response end (INFO1 bit 0) alone */
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	assert_int_equal(fx_cmd(&f, 13, 1u << 16, MMCHAL_RSP_R1), 0);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, R_INFO1, v, 8), 1);
	assert_int_equal(v[0], 0xfffeu);
	assert_int_equal(writes_of(&f, &l, R_INFO2, v, 8), 0);
	/* a PIO read of one block: buffer read enable (INFO2 bit 8) alone, then the
	   access end (INFO1 bit 2) */
	blk_prep(&f, &t, false, 1, false);
	l.n = 0;
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	blk_run(&f, &t);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, R_INFO2, v, 8), 1);
	assert_int_equal(v[0], 0xfeffu);
	assert_int_equal(writes_of(&f, &l, R_INFO1, v, 8), 2);
	assert_int_equal(v[0], 0xfffeu);
	assert_int_equal(v[1], 0xfffbu);
	/* a response timeout (INFO2 bit 6) with the response end: both acknowledged */
	l.n = 0;
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	timeout_cmd(&f);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_true(writes_of(&f, &l, R_INFO2, v, 8) >= 1);
	assert_int_equal(v[0] & 0xffffu, 0xffbfu);
	fx_close(&f);
}

/* After an error: released from reset, settings back, the next request rewrites
   the block size and SD_STOP. */
static void test_reset_restores(void **state)
{
	struct fx_opts o = gen3_mmc;
	struct wlog l = {0};
	uint64_t v[8];
	uint16_t m1, m2;
	struct fx f;
	struct blk t;

	(void)state;
	/* a 16-bit data port: HOST_MODE 0x0001 */
	o.port_width = 2;
	o.kind = MMCHAL_SDHI_PIO;
	assert_int_equal(fx_open(&f, &o), 0);
	assert_int_equal(reg16(&f, R_HOSTMODE), 0x0001);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	m1 = reg16(&f, R_I1MASK);
	m2 = reg16(&f, R_I2MASK);
	assert_int_equal(f.be.ops->enable_sdio_irq(f.be.ctx, true), 0);
	assert_int_equal(reg16(&f, R_SDIOMODE), 1);
	blk_prep(&f, &t, false, 1, false);
	blk_run(&f, &t);
	timeout_cmd(&f);
	assert_int_equal(reg16(&f, R_SOFTRST), 1);
	assert_int_equal(reg16(&f, R_HOSTMODE), 0x0001);
	assert_int_equal(reg16(&f, R_SDIOMODE), 1);
	assert_int_equal(reg16(&f, R_EXTMODE), 0);
	assert_int_equal(reg16(&f, R_I1MASK), m1);
	assert_int_equal(reg16(&f, R_I2MASK), m2);
	/* the same request again: SIZE and STOP written again (the reset lost them) */
	blk_prep(&f, &t, false, 1, false);
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	blk_run(&f, &t);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, R_SIZE, v, 8), 1);
	assert_int_equal(v[0], 512);
	assert_int_equal(writes_of(&f, &l, R_STOP, v, 8), 1);
	assert_int_equal(v[0], 0);
	assert_int_equal(f.be.ops->enable_sdio_irq(f.be.ctx, false), 0);
	assert_int_equal(reg16(&f, R_SDIOMODE), 0);
	/* and without SDIO mode, a reset leaves SDIO_MODE alone */
	l.n = 0;
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	timeout_cmd(&f);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, R_SDIOMODE, v, 8), 0);
	assert_int_equal(writes_of(&f, &l, R_EXTMODE, v, 8), 1);
	assert_int_equal(v[0], 0);
	fx_close(&f);

	/* after a DMA request, the reset disables DMA again */
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	blk_prep(&f, &t, false, 1, true);
	blk_run(&f, &t);
	assert_int_equal(reg16(&f, R_EXTMODE), 0x0002);
	timeout_cmd(&f);
	assert_int_equal(reg16(&f, R_EXTMODE), 0);
	assert_int_equal(reg16(&f, R_I2MASK), (uint16_t)~0x837fu);
	/* the next DMA request masks the buffer events again */
	blk_prep(&f, &t, false, 1, true);
	blk_run(&f, &t);
	assert_int_equal(reg16(&f, R_EXTMODE), 0x0002);
	assert_int_equal(reg16(&f, R_I2MASK), (uint16_t)~0x807fu);
	fx_close(&f);
}

/* DMA and PIO requests in turn: DMA enable and buffer-event masks follow. */
static void test_dma_pio_switch(void **state)
{
	struct wlog l = {0};
	uint64_t v[8];
	struct fx f;
	struct blk t;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	assert_int_equal(reg16(&f, R_I1MASK), (uint16_t)~0x001du);
	assert_int_equal(reg16(&f, R_I2MASK), (uint16_t)~0x837fu);
	for (int i = 0; i < 2; i++) {
		blk_prep(&f, &t, i == 1, 1, true);
		l.n = 0;
		mmchal_sim_set_trace(f.sim, wtrace, &l);
		blk_run(&f, &t);
		mmchal_sim_set_trace(f.sim, NULL, NULL);
		assert_int_equal(reg16(&f, R_EXTMODE), 0x0002);
		assert_int_equal(reg16(&f, R_I1MASK), (uint16_t)~0x001du);
		assert_int_equal(reg16(&f, R_I2MASK), (uint16_t)~0x807fu);
		/* switched once, then left as it is */
		assert_int_equal(writes_of(&f, &l, R_EXTMODE, v, 8), i == 0 ? 1u : 0u);
		assert_int_equal(writes_of(&f, &l, R_I2MASK, v, 8), i == 0 ? 1u : 0u);
		assert_int_equal(writes_of(&f, &l, R_I1MASK, v, 8), i == 0 ? 1u : 0u);
	}
	for (int i = 0; i < 2; i++) {
		blk_prep(&f, &t, i == 1, 1, false);
		l.n = 0;
		mmchal_sim_set_trace(f.sim, wtrace, &l);
		blk_run(&f, &t);
		mmchal_sim_set_trace(f.sim, NULL, NULL);
		assert_int_equal(reg16(&f, R_EXTMODE), 0);
		assert_int_equal(reg16(&f, R_I2MASK), (uint16_t)~0x837fu);
		assert_int_equal(writes_of(&f, &l, R_EXTMODE, v, 8), i == 0 ? 1u : 0u);
		if (i == 0)
			assert_int_equal(v[0], 0);
		/* a PIO request on the DMAC backend leaves the DMAC alone */
		assert_int_equal(dm_writes(&l), 0);
	}
	/* a failing PIO request on the DMAC backend: the DMAC is not reset */
	l.n = 0;
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	timeout_cmd(&f);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(dm_writes(&l), 0);
	fx_close(&f);
}

/* A finished request is the caller's again: abort and later requests do not write
   into it. */
static void test_finished_untouched(void **state)
{
	struct fx f;
	struct blk t, u;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	/* multi-block read with automatic CMD12, then the caller reuses the memory */
	blk_prep(&f, &t, false, 4, false);
	blk_run(&f, &t);
	t.d.bytes_xfered = 0x1234;
	t.d.error = 77;
	t.stop.resp[0] = 0xdeadbeefu;
	t.stop.error = 55;
	t.c.error = 66;
	assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	/* a single-block read with no STOP after it */
	blk_prep(&f, &u, false, 1, false);
	blk_run(&f, &u);
	assert_int_equal(t.d.bytes_xfered, 0x1234);
	assert_int_equal(t.d.error, 77);
	assert_int_equal(t.stop.resp[0], 0xdeadbeefu);
	assert_int_equal(t.stop.error, 55);
	assert_int_equal(t.c.error, 66);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ack_values),
		cmocka_unit_test(test_reset_restores),
		cmocka_unit_test(test_dma_pio_switch),
		cmocka_unit_test(test_finished_untouched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
