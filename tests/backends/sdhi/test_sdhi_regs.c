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
#define R_OPTION   0x28u
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

static void rtrace(void *arg, const struct mmchal_sim_access *a)
{
	struct wlog *l = arg;

	if (!a->write && l->n < 256u)
		l->a[l->n++] = *a;
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
	assert_int_equal(reg16(&f, R_SDIOMODE + 4u), 0xfffe); /* SDIO_MASK: IOIRQ open */
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

/* The CMD register value and the block-count access of each kind of request. */
static void test_cmd_encoding(void **state)
{
	struct wlog l = {0};
	uint64_t v[8];
	struct fx f;
	struct blk t;
	struct mmchal_sim_access a;
	bool found;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	/* no response: 0x0300; the caller's resp and error are not left as they were */
	{
		struct mmchal_cmd c = {.opcode = 0, .flags = MMCHAL_RSP_NONE, .error = 99};
		struct mmchal_xfer x = {.cmd = &c};

		c.resp[0] = 0x5a5a5a5au;
		mmchal_sim_set_trace(f.sim, wtrace, &l);
		assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
		mmchal_sim_set_trace(f.sim, NULL, NULL);
		assert_false(fx_wait(&f, &x) & (MMCHAL_EV_CMD_ERROR | FX_TIMEOUT));
		assert_int_equal(c.error, 0);
		/* no response: nothing read into resp */
		assert_int_equal(c.resp[0], 0x5a5a5a5au);
		assert_int_equal(writes_of(&f, &l, 0x00, v, 8), 1);
		assert_int_equal(v[0], 0x0300u);
	}
	fx_close(&f);
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	/* CMD18 and CMD25 of one block are multi-block commands: 0x2000, auto CMD12 */
	for (int w = 0; w < 2; w++) {
		blk_prep(&f, &t, w == 1, 1, false);
		t.c.opcode = w ? 25 : 18;
		t.x.auto_stop = true;
		t.x.stop = &t.stop;
		l.n = 0;
		mmchal_sim_set_trace(f.sim, wtrace, &l);
		blk_run(&f, &t);
		mmchal_sim_set_trace(f.sim, NULL, NULL);
		assert_int_equal(writes_of(&f, &l, 0x00, v, 8), 1);
		assert_int_equal(v[0], w ? 0x2c19u : 0x3c12u);
		/* SD_STOP.SEC, and the 32-bit block counter in one 32-bit access */
		found = false;
		for (uint32_t i = 0; i < l.n; i++) {
			a = l.a[i];
			if (a.off == (0x0au << f.sc.bus_shift)) {
				assert_int_equal(a.width, 4);
				assert_int_equal(a.val, 1);
				found = true;
			}
		}
		assert_true(found);
		/* the second one with the same settings writes neither SIZE nor STOP */
		assert_int_equal(writes_of(&f, &l, R_STOP, v, 8), w == 0 ? 1u : 0u);
		assert_int_equal(writes_of(&f, &l, R_SIZE, v, 8), w == 0 ? 1u : 0u);
	}
	fx_close(&f);

	/* a 16-bit block counter (0x490c): a 16-bit access */
	{
		struct fx_opts o = {MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_PIO, -1,    0x490c, 0,
				    MMCHAL_SIM_CARD_MMC, false,           false, 0};

		assert_int_equal(fx_open(&f, &o), 0);
		fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
		blk_prep(&f, &t, false, 3, false);
		l.n = 0;
		mmchal_sim_set_trace(f.sim, wtrace, &l);
		blk_run(&f, &t);
		mmchal_sim_set_trace(f.sim, NULL, NULL);
		found = false;
		for (uint32_t i = 0; i < l.n; i++) {
			if (l.a[i].off == (0x0au << f.sc.bus_shift)) {
				assert_int_equal(l.a[i].width, 2);
				assert_int_equal(l.a[i].val, 3);
				found = true;
			}
		}
		assert_true(found);
		fx_close(&f);
	}
}

/*
 * SD_CMD bits 10:8 for every combination of the response flags, also those no
 * response type of request.h uses: none without PRESENT, else R2 (6) with 136, else
 * R1b (5) with BUSY, else R1 (4) with CRC, else R3 (7); OPCODE changes nothing.
 */
static void test_cmd_rsp_bits_every_flag_set(void **state)
{
	struct wlog l = {0};
	uint64_t v[4];
	struct fx f;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	for (uint32_t flags = 0; flags < 32u; flags++) {
		struct mmchal_cmd c = {.opcode = 13, .arg = (uint32_t)f.rca << 16, .flags = flags};
		struct mmchal_xfer x = {.cmd = &c};
		uint32_t want = 7;

		if (!(flags & MMCHAL_RSP_PRESENT))
			want = 3;
		else if (flags & MMCHAL_RSP_136)
			want = 6;
		else if (flags & MMCHAL_RSP_BUSY)
			want = 5;
		else if (flags & MMCHAL_RSP_CRC)
			want = 4;
		l.n = 0;
		mmchal_sim_set_trace(f.sim, wtrace, &l);
		assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
		mmchal_sim_set_trace(f.sim, NULL, NULL);
		assert_int_equal(writes_of(&f, &l, 0x00, v, 4), 1);
		assert_int_equal(v[0], 13u | (want << 8));
		assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	}
	fx_close(&f);
}

/* The DMA error counter counts engine faults only: a command that times out on a
   controller with an engine resets the controller and leaves the counter alone. */
static void test_dma_errors_not_counted_for_cmd_timeout(void **state)
{
	struct fx f;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	assert_int_equal(f.sdhi.stats.dma_errors, 0);
	timeout_cmd(&f);
	assert_int_equal(f.sdhi.stats.dma_errors, 0);
	fx_close(&f);
}

/* The first request after probe writes SD_STOP, whatever its value. */
static void test_probe_forgets_stop(void **state)
{
	struct wlog l = {0};
	uint64_t v[8];
	struct fx f;
	struct blk t;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	blk_prep(&f, &t, false, 1, false);
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	blk_run(&f, &t);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, R_STOP, v, 8), 1);
	assert_int_equal(v[0], 0);
	fx_close(&f);

	/* an IP version without HOST_MODE: a reset does not write one either */
	{
		struct fx_opts o = {MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_PIO, -1,    0x820b, 0,
				    MMCHAL_SIM_CARD_MMC, false,           false, 0};

		assert_int_equal(fx_open(&f, &o), 0);
		fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
		l.n = 0;
		mmchal_sim_set_trace(f.sim, wtrace, &l);
		timeout_cmd(&f);
		mmchal_sim_set_trace(f.sim, NULL, NULL);
		assert_int_equal(writes_of(&f, &l, R_HOSTMODE, v, 8), 0);
		assert_int_equal(reg16(&f, R_HOSTMODE), 0);
		fx_close(&f);
	}
}

/* Clock changes: card clock stopped, divider changed, clock started again. */
static void test_clock_sequence(void **state)
{
	struct wlog l = {0};
	uint64_t v[8];
	struct fx f;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	/* probe leaves 0x0080 (1/512, stopped): start at 25 MHz (1/8) */
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	fx_ios(&f, 25000000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, 0x24, v, 8), 2);
	assert_int_equal(v[0], 0x0002);
	assert_int_equal(v[1], 0x0102);
	/* 50 MHz (1/4) while running */
	l.n = 0;
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	fx_ios(&f, 50000000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, 0x24, v, 8), 3);
	assert_int_equal(v[0], 0x0002);
	assert_int_equal(v[1], 0x0001);
	assert_int_equal(v[2], 0x0101);
	/* off */
	l.n = 0;
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	fx_ios(&f, 0, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, 0x24, v, 8), 2);
	assert_int_equal(v[0], 0x0001);
	assert_int_equal(v[1], 0x0001);
	fx_close(&f);
}

/* The data timeout in SD_OPTION bits 7:4 counts card clocks of each divider. */
static void test_timeout_clocks(void **state)
{
	static const struct {
		uint32_t hz, ns;
		uint16_t top;
	} rows[] = {
		/* 1/2: 100 MHz, 81920 ns are 8192 clocks (+1): 2^14 */
		{100000000, 81920, 1},
		{100000000, 81910, 0},
		/* 1/4: 50 MHz */
		{50000000, 163840, 1},
		{50000000, 163820, 0},
		/* 1/1: 200 MHz */
		{200000000, 40960, 1},
		{200000000, 40955, 0},
		/* 1/8: 25 MHz */
		{25000000, 327680, 1},
		{25000000, 327640, 0},
	};
	struct fx f;
	struct blk t;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(fx_open(&f, &gen3_mmc), 0);
		fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
		fx_ios(&f, rows[i].hz, MMCHAL_BUS_WIDTH_8, MMCHAL_TIMING_MMC_HS);
		blk_prep(&f, &t, false, 1, false);
		t.d.timeout_ns = rows[i].ns;
		/* written before the command goes out */
		assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
		assert_int_equal((reg16(&f, 0x28) >> 4) & 0xfu, rows[i].top);
		assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
		fx_close(&f);
	}
	/* No timeout of its own: the configuration's; none at all, the clock off, or
	   a timeout longer than 2^27 clocks: the largest window (0xe). */
	static const struct {
		uint32_t hz, ns, cfg_ns;
		uint16_t top;
	} more[] = {
		{100000000, 0, 81920, 1},
		{100000000, 0, 0, 0xe},
		{0, 81920, 0, 0xe},
		{200000000, 0xffffffffu, 0, 0xe},
	};
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
		assert_int_equal(fx_open(&f, &gen3_mmc), 0);
		fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
		f.sdhi.cfg.data_timeout_ns = more[i].cfg_ns;
		fx_ios(&f, more[i].hz, MMCHAL_BUS_WIDTH_8, MMCHAL_TIMING_MMC_HS);
		blk_prep(&f, &t, false, 1, false);
		t.d.timeout_ns = more[i].ns;
		assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
		assert_int_equal((reg16(&f, 0x28) >> 4) & 0xfu, more[i].top);
		assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
		fx_close(&f);
	}
}

/* The largest valid values are taken: signal voltage 1.2 V, command 63, 65535
   blocks on a 16-bit block counter; and a data phase starts with no error and
   nothing moved, whatever its fields held. */
static void test_edge_values_taken(void **state)
{
	struct mmchal_ios ios = {25000000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY,
				 MMCHAL_POWER_ON, MMCHAL_SIGNAL_120};
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_PIO, -1,    0x490c, 0,
			    MMCHAL_SIM_CARD_MMC, false,           false, 0};
	struct mmchal_cmd c = {.opcode = 63, .flags = MMCHAL_RSP_R1};
	struct mmchal_xfer x = {.cmd = &c};
	struct fx f;
	struct blk t;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), 0);
	ios.signal_voltage = (enum mmchal_signal_voltage)(MMCHAL_SIGNAL_120 + 1);
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), MMCHAL_EINVAL);
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	c.opcode = 64;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	blk_prep(&f, &t, false, 1, false);
	t.d.error = MMCHAL_EIO;
	t.d.bytes_xfered = 512;
	assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
	assert_int_equal(t.d.error, 0);
	assert_int_equal(t.d.bytes_xfered, 0);
	assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	fx_close(&f);

	assert_int_equal(fx_open(&f, &o), 0);
	assert_int_equal(f.sdhi.cnt_bits, 16);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
	blk_prep(&f, &t, false, 128, false);
	t.d.blksz = 1;
	t.d.blocks = 65535;
	t.sg.len = 65535;
	assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
	assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	t.d.blocks = 65536;
	t.sg.len = 65536;
	assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), MMCHAL_EINVAL);
	fx_close(&f);
}

/* Entries refused before probe or with bad arguments; the host busy for set_ios. */
static void test_entry_checks(void **state)
{
	struct mmchal_sdhi_stats st;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	struct mmchal_port port;
	struct mmchal_port_ops bad_ops = {0};
	struct mmchal_port bad = {.ops = &bad_ops};
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_sdhi s;
	struct mmchal_backend be;
	struct mmchal_ios ios = {25000000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY,
				 MMCHAL_POWER_ON, MMCHAL_SIGNAL_330};
	uint32_t blocks;
	struct fx f;
	struct blk t;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	cfg = f.cfg;
	assert_int_equal(mmchal_sim_port(f.sim, &port), 0);
	cfg.port = &port;
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &cfg, &be), 0);
	cfg.port = &bad;
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg.port = NULL;
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &cfg, &be), 0);
	/* the last known SoC revision is taken, the one after it is not */
	cfg.rev = MMCHAL_SDHI_REV_M3W_LATER;
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &cfg, &be), 0);
	cfg.rev = (enum mmchal_sdhi_rev)(MMCHAL_SDHI_REV_M3W_LATER + 1);
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg.rev = f.cfg.rev;
	/* a SYS-DMAC SoC with only one of its two channels: PIO */
	cfg = f.cfg;
	cfg.soc = mmchal_sdhi_soc_lookup("renesas,rcar-gen2-sdhi");
	cfg.chan[0].ops = NULL;
	assert_int_equal(mmchal_sdhi_init(&s, &cfg, &be), 0);
	assert_string_equal(be.ops->name, "sdhi-pio");
	cfg.chan[0] = f.cfg.chan[0];
	cfg.chan[1].ops = NULL;
	assert_int_equal(mmchal_sdhi_init(&s, &cfg, &be), 0);
	assert_string_equal(be.ops->name, "sdhi-pio");
	cfg.port = NULL;
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &f.cfg, &be), 0);
	/* not probed */
	assert_int_equal(be.ops->abort(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->enable_sdio_irq(be.ctx, true), MMCHAL_EINVAL);
	assert_int_equal(be.ops->abort(NULL), MMCHAL_EINVAL);
	assert_int_equal(be.ops->enable_sdio_irq(NULL, true), MMCHAL_EINVAL);
	assert_int_equal(be.ops->blocks_done(NULL, &blocks), MMCHAL_EINVAL);
	assert_int_equal(be.ops->blocks_done(be.ctx, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sdhi_get_stats(&s, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sdhi_get_stats(NULL, &st), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sdhi_get_stats(&s, &st), 0);
	fx_close(&f);
	/* an entry without the 1/1 clock (the generic SH-Mobile one): the fastest is
	   half the input */
	{
		struct fx_opts o = {MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_PIO, -1,    0, 0,
				    MMCHAL_SIM_CARD_MMC, false,           false, 0};

		fx_more.compat = "renesas,sdhi-shmobile";
		assert_int_equal(fx_open(&f, &o), 0);
	}
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.f_max_hz, FX_CLK / 2u);
	/* set_ios while a request runs */
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	blk_prep(&f, &t, false, 1, false);
	assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), MMCHAL_EBUSY);
	assert_false(fx_wait(&f, &t.x) & (MMCHAL_EV_DATA_ERROR | FX_TIMEOUT));
	assert_int_equal(t.d.bytes_xfered, 512);
	fx_close(&f);
}

/* A card that is never busy after a write: the one access end comes with the bus
   idle (INFO2 bit 29), and the DMA write ends on it. */
static void test_write_never_busy(void **state)
{
	struct fx_opts o = gen3_mmc;
	struct mmchal_sim_card_config cc;
	struct fx f;
	struct blk t;

	(void)state;
	o.card = MMCHAL_SIM_CARD_NONE;
	assert_int_equal(fx_open(&f, &o), 0);
	assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc), 0);
	cc.write_busy_ns = 0;
	cc.switch_busy_ns = 0;
	assert_int_equal(mmchal_sim_card_insert(f.sim, &cc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	blk_prep(&f, &t, true, 1, true);
	blk_run(&f, &t);
	blk_prep(&f, &t, true, 1, false);
	blk_run(&f, &t);
	blk_prep(&f, &t, true, 3, true);
	blk_run(&f, &t);
	fx_close(&f);
}

/* Every start() argument refusal, and the ops on NULL or unprobed instances: each
   refused with EINVAL, nothing started (the next valid request runs). */
static void test_start_refusals(void **state)
{
	struct mmchal_ios ios = {25000000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY,
				 MMCHAL_POWER_ON, MMCHAL_SIGNAL_330};
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	struct mmchal_sdhi s;
	struct mmchal_backend be;
	struct mmchal_sg sg2[2];
	struct mmchal_dma_seg seg2[2];
	uint32_t ev;
	struct fx f;
	struct blk t;
	const struct mmchal_backend_ops *ops;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	ops = f.be.ops;
	assert_int_equal(ops->start(NULL, &t.x), MMCHAL_EINVAL);
	assert_int_equal(ops->start(f.be.ctx, NULL), MMCHAL_EINVAL);
	assert_int_equal(ops->set_ios(NULL, &ios), MMCHAL_EINVAL);
	ios.timing = (enum mmchal_timing)(MMCHAL_TIMING_MMC_HS400 + 1);
	assert_int_equal(ops->set_ios(f.be.ctx, &ios), MMCHAL_EINVAL);
	assert_int_equal(ops->get_caps(NULL, &hc, &dc), MMCHAL_EINVAL);
	assert_int_equal(ops->get_caps(f.be.ctx, &hc, NULL), MMCHAL_EINVAL);
	assert_int_equal(ops->handle_irq(NULL, &ev), MMCHAL_EINVAL);
	assert_int_equal(ops->handle_irq(f.be.ctx, NULL), MMCHAL_EINVAL);
	assert_int_equal(ops->card_busy(NULL), MMCHAL_EINVAL);
	assert_int_equal(ops->get_cd(NULL), MMCHAL_EINVAL);
	assert_int_equal(ops->get_ro(NULL), MMCHAL_EINVAL);
	assert_int_equal(ops->probe(NULL), MMCHAL_EINVAL);
	/* an instance set up but not probed */
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &f.cfg, &be), 0);
	assert_int_equal(be.ops->get_cd(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->get_ro(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sdhi_init(&s, &f.cfg, NULL), MMCHAL_EINVAL);
	{
		struct mmchal_sdhi_cfg cfg = f.cfg;
		struct mmchal_sdhi_soc bad = *f.cfg.soc;

		cfg.soc = NULL;
		assert_int_equal(mmchal_sdhi_init(&s, &cfg, &be), MMCHAL_EINVAL);
		bad.kind = (enum mmchal_sdhi_kind)99;
		cfg.soc = &bad;
		assert_int_equal(mmchal_sdhi_init(&s, &cfg, &be), MMCHAL_EINVAL);
	}
	/* probe while a command runs: the command is forgotten, the next one runs */
	{
		struct mmchal_cmd c13 = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
		struct mmchal_xfer x13 = {.cmd = &c13};

		assert_int_equal(f.be.ops->start(f.be.ctx, &x13), 0);
		assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
		assert_int_equal(f.sdhi.state, 0);
		assert_int_equal(f.be.ops->start(f.be.ctx, &x13), 0);
		assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	}
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	for (int k = 0; k < 19; k++) {
		blk_prep(&f, &t, false, 2, k >= 11);
		switch (k) {
		case 0:
			t.x.cmd = NULL;
			break;
		case 1:
			t.c.opcode = 64;
			break;
		case 2:
			t.d.blksz = 0;
			break;
		case 3:
			t.d.blksz = 513; /* the sg list covers it: refused for the size alone */
			t.sg.len = 1026;
			break;
		case 4:
			t.d.blocks = 0;
			break;
		case 5:
			t.d.dir = (enum mmchal_dir)2;
			break;
		case 6:
			t.d.sg = NULL;
			break;
		case 7:
			t.d.sg_len = 0;
			break;
		case 8:
			t.sg.cpu = NULL;
			break;
		case 9:
			sg2[0] = t.sg;
			sg2[0].len = 1024;
			sg2[1] = t.sg;
			sg2[1].len = 0;
			t.d.sg = sg2;
			t.d.sg_len = 2;
			break;
		case 10:
			t.sg.len = 1023;
			break;
		case 11:
			t.x.plan = (enum mmchal_plan)MMCHAL_PLAN_COUNT;
			break;
		case 12:
			t.x.segs = NULL;
			break;
		case 13:
			t.x.nsegs = 0;
			break;
		case 14:
			t.seg.len = 0;
			break;
		case 15:
			t.seg.len = 1024 + 128;
			break;
		case 16:
			t.seg.addr += 64; /* the DMAC's 128-byte alignment */
			break;
		case 17:
			t.seg.addr = 0x100000000ull; /* 32-bit DMAC */
			break;
		default:
			/* two segments: the DMAC takes one */
			seg2[0].addr = t.seg.addr;
			seg2[0].len = 512;
			seg2[1].addr = t.seg.addr + 512u;
			seg2[1].len = 512;
			t.x.segs = seg2;
			t.x.nsegs = 2;
			break;
		}
		assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), MMCHAL_EINVAL);
		assert_int_equal(f.sdhi.state, 0);
	}
	blk_prep(&f, &t, false, 2, true);
	blk_run(&f, &t);
	fx_close(&f);

	/* the PIO backend has no engine: a DMA plan is refused */
	{
		struct fx_opts o = gen3_mmc;

		o.kind = MMCHAL_SDHI_PIO;
		assert_int_equal(fx_open(&f, &o), 0);
		fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
		blk_prep(&f, &t, false, 2, true);
		assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), MMCHAL_EINVAL);
		blk_prep(&f, &t, false, 2, false);
		blk_run(&f, &t);
		fx_close(&f);
	}
}

/* Probe: a soft reset (0 then 1), then the clock stopped at 1/512, 1-bit with the
   longest timeout, DMA off; a second probe resets the DDR mode too. The argument
   is one 32-bit access with registers 4 bytes apart, two 16-bit ones otherwise. */
static void test_probe_writes(void **state)
{
	struct mmchal_ios ios = {50000000, MMCHAL_BUS_WIDTH_8, MMCHAL_TIMING_MMC_DDR52,
				 MMCHAL_POWER_ON, MMCHAL_SIGNAL_180};
	struct wlog l = {0};
	uint64_t v[8];
	struct fx f;
	struct blk t;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	blk_prep(&f, &t, false, 1, true);
	blk_run(&f, &t);
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), 0);
	assert_int_equal(reg16(&f, 0xe6), 1);
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, R_SOFTRST, v, 8), 2);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 1);
	assert_int_equal(writes_of(&f, &l, 0x24, v, 8), 1);
	assert_int_equal(v[0], 0x0080);
	assert_int_equal(writes_of(&f, &l, 0x28, v, 8), 1);
	assert_int_equal(v[0], 0xc0e0);
	assert_int_equal(writes_of(&f, &l, R_EXTMODE, v, 8), 1);
	assert_int_equal(v[0], 0);
	/* every latched status bit acknowledged once, INFO2 bit 11 written 1 */
	assert_int_equal(writes_of(&f, &l, R_INFO1, v, 8), 1);
	assert_int_equal(v[0], 0xffe2);
	assert_int_equal(writes_of(&f, &l, R_INFO2, v, 8), 1);
	assert_int_equal(v[0], 0x7c80);
	assert_int_equal(reg16(&f, 0xe6), 0);
	assert_int_equal(reg16(&f, 0x28), 0xc0e0);
	/* the argument of a command: bus_shift 2, one 32-bit write */
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	l.n = 0;
	mmchal_sim_set_trace(f.sim, wtrace, &l);
	assert_int_equal(fx_cmd(&f, 13, 0x00010000u, MMCHAL_RSP_R1), 0);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, 0x04, v, 8), 1);
	assert_int_equal(v[0], 0x00010000u);
	assert_int_equal(writes_of(&f, &l, 0x06, v, 8), 0);
	/* and its R1 response: one 32-bit read of RSP10 */
	l.n = 0;
	mmchal_sim_set_trace(f.sim, rtrace, &l);
	assert_int_equal(fx_cmd(&f, 13, 0x00010000u, MMCHAL_RSP_R1), 0);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(writes_of(&f, &l, 0x0c, v, 8), 1);
	assert_int_equal(writes_of(&f, &l, 0x0e, v, 8), 0);
	/* a one-byte DMA segment is a valid request */
	blk_prep(&f, &t, false, 1, true);
	t.d.blksz = 1;
	t.seg.len = 1;
	t.sg.len = 1;
	assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
	assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	fx_close(&f);

	/* bus_shift 1 (Gen2): the two 16-bit halves */
	{
		struct fx_opts o = {MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_PIO, -1,    0, 0,
				    MMCHAL_SIM_CARD_MMC, false,           false, 0};

		assert_int_equal(fx_open(&f, &o), 0);
		assert_int_equal(f.sc.bus_shift, 1);
		fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
		l.n = 0;
		mmchal_sim_set_trace(f.sim, wtrace, &l);
		assert_int_equal(fx_cmd(&f, 13, 0x00010000u, MMCHAL_RSP_R1), 0);
		mmchal_sim_set_trace(f.sim, NULL, NULL);
		assert_int_equal(writes_of(&f, &l, 0x04, v, 8), 1);
		assert_int_equal(v[0], 0x0000);
		assert_int_equal(writes_of(&f, &l, 0x06, v, 8), 1);
		assert_int_equal(v[0], 0x0001);
		l.n = 0;
		mmchal_sim_set_trace(f.sim, rtrace, &l);
		assert_int_equal(fx_cmd(&f, 13, 0x00010000u, MMCHAL_RSP_R1), 0);
		mmchal_sim_set_trace(f.sim, NULL, NULL);
		assert_int_equal(writes_of(&f, &l, 0x0c, v, 8), 1);
		assert_int_equal(writes_of(&f, &l, 0x0e, v, 8), 1);
		fx_close(&f);
	}
}

/* Status bits the simulator never raises on these paths (illegal access alone,
   buffer overflow, underrun): a bus wrapper adds them to INFO2 as the controller
   would, until the backend acknowledges them. */
static const struct mmchal_bus_ops *inj_inner;
static uint16_t inj_bits;
static uint32_t inj_shift;

static uint16_t inj_low; /* INFO2 level bits shown low (DAT0: 0x0080) */

static uint16_t inj_rd16(void *ctx, uint32_t off)
{
	uint16_t v = inj_inner->read16(ctx, off);

	if (off == R_INFO2 << inj_shift)
		v = (uint16_t)((v | inj_bits) & ~inj_low);
	return v;
}

static void inj_wr16(void *ctx, uint32_t off, uint16_t val)
{
	if (off == R_INFO2 << inj_shift)
		inj_bits &= val;
	inj_inner->write16(ctx, off, val);
}

/* Put the injecting bus under an opened backend (any kind) and probe again. */
static void inj_attach(struct fx *f, struct mmchal_bus_ops *ops)
{
	inj_inner = f->cfg.bus.ops;
	inj_shift = f->sc.bus_shift;
	*ops = *f->cfg.bus.ops;
	ops->read16 = inj_rd16;
	ops->write16 = inj_wr16;
	f->cfg.bus.ops = ops;
	switch (f->sdhi.kind) {
	case MMCHAL_SDHI_PIO:
		assert_int_equal(mmchal_sdhi_pio_init(&f->sdhi, &f->cfg, &f->be), 0);
		break;
	case MMCHAL_SDHI_SYSDMAC:
		assert_int_equal(mmchal_sdhi_sysdmac_init(&f->sdhi, &f->cfg, &f->be), 0);
		break;
	default:
		assert_int_equal(mmchal_sdhi_idmac_init(&f->sdhi, &f->cfg, &f->be), 0);
		break;
	}
	assert_int_equal(f->be.ops->probe(f->be.ctx), 0);
	inj_bits = 0;
	inj_low = 0;
}

static void inj_open(struct fx *f, struct mmchal_bus_ops *ops, enum mmchal_sdhi_kind kind)
{
	struct fx_opts o = gen3_mmc;

	o.kind = kind;
	assert_int_equal(fx_open(f, &o), 0);
	inj_attach(f, ops);
	fx_mmc_init(f, MMCHAL_BUS_WIDTH_8);
}

static void test_injected_errors(void **state)
{
	static const uint16_t data_bits[3] = {0x8000u, 0x0010u, 0x0020u};
	struct mmchal_bus_ops ops;
	struct fx f;
	struct blk t;
	uint32_t ev;

	(void)state;
	/* an illegal access during a command: the command fails with EIO */
	inj_open(&f, &ops, MMCHAL_SDHI_PIO);
	{
		struct mmchal_cmd c = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
		struct mmchal_xfer x = {.cmd = &c};

		assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
		inj_bits = 0x8000u;
		ev = fx_wait(&f, &x);
		assert_true(ev & MMCHAL_EV_CMD_ERROR);
		assert_int_equal(c.error, MMCHAL_EIO);
		assert_int_equal(f.sdhi.state, 0);
	}
	fx_close(&f);
	/* illegal access, overflow, underrun in a PIO read's data phase: EIO */
	for (int i = 0; i < 3; i++) {
		inj_open(&f, &ops, MMCHAL_SDHI_PIO);
		blk_prep(&f, &t, false, 4, false);
		assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
		for (int k = 0; k < 100000 && (f.sdhi.state & 0x1u /* command phase */); k++) {
			assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
			fx_delay(&f, 1000);
		}
		inj_bits = data_bits[i];
		ev = fx_wait(&f, &t.x);
		assert_true(ev & MMCHAL_EV_DATA_ERROR);
		assert_int_equal(t.d.error, MMCHAL_EIO);
		assert_int_equal(f.sdhi.state, 0);
		fx_close(&f);
	}
}

/* set_ios changes only SD_OPTION's bus width bits (15: 1 bit, 13: 8 bits, neither: 4
   bits), and every xfer started counts in the statistics, a refused one not. */
static void test_width_bits_and_requests(void **state)
{
	static const struct {
		enum mmchal_bus_width w;
		uint16_t bits;
	} rows[] = {
		{MMCHAL_BUS_WIDTH_4, 0},        {MMCHAL_BUS_WIDTH_8, 1u << 13},
		{MMCHAL_BUS_WIDTH_1, 1u << 15}, {MMCHAL_BUS_WIDTH_8, 1u << 13},
		{MMCHAL_BUS_WIDTH_4, 0},
	};
	struct mmchal_sdhi_stats st;
	struct mmchal_cmd c13 = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
	struct mmchal_xfer x13 = {.cmd = &c13};
	struct mmchal_cmd bad = {.opcode = 64, .flags = MMCHAL_RSP_R1};
	struct mmchal_xfer xbad = {.cmd = &bad};
	uint16_t rest;
	struct fx f;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	/* after probe: 1 bit, timeout field 0xe, bit 14 always 1 */
	assert_int_equal(reg16(&f, R_OPTION), 0xc0e0);
	rest = (uint16_t)(reg16(&f, R_OPTION) & ~0xa000u);
	for (unsigned int i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		fx_ios(&f, 400000, rows[i].w, MMCHAL_TIMING_LEGACY);
		assert_int_equal(reg16(&f, R_OPTION), rest | rows[i].bits);
	}
	assert_int_equal(mmchal_sdhi_get_stats(&f.sdhi, &st), 0);
	assert_int_equal(st.requests, 0);
	for (uint32_t n = 1; n <= 3; n++) {
		assert_int_equal(f.be.ops->start(f.be.ctx, &xbad), MMCHAL_EINVAL);
		assert_int_equal(f.be.ops->start(f.be.ctx, &x13), 0);
		(void)fx_wait(&f, &x13);
		assert_int_equal(mmchal_sdhi_get_stats(&f.sdhi, &st), 0);
		assert_int_equal(st.requests, n);
	}
	fx_close(&f);
}

/* A Gen2 SoC with the SYS-DMAC backend and an eMMC, every other option at its default. */
#define GEN2_SYSDMAC_MMC                                                                  \
	{                                                                                 \
		.soc = MMCHAL_SIM_SOC_GEN2, .kind = MMCHAL_SDHI_SYSDMAC, .bus_shift = -1, \
		.card = MMCHAL_SIM_CARD_MMC                                               \
	}

/* A part without the idle wait ("renesas,sdhi-shmobile", no Linux of_data: no
   MMCHAL_SDHI_F_IDLE_WAIT) ends a DMA write on the access end once command busy is
   clear, with the card still busy programming; it does not wait for the bus-idle
   bit (INFO2 bit 29). */
static void test_write_end_without_idle_wait(void **state)
{
	struct fx_opts o = GEN2_SYSDMAC_MMC;
	struct fx f;
	struct blk t;
	uint32_t ev;

	(void)state;
	fx_more.compat = "renesas,sdhi-shmobile";
	assert_int_equal(fx_open(&f, &o), 0);
	assert_int_equal(f.sdhi.flags & MMCHAL_SDHI_F_IDLE_WAIT, 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
	blk_prep(&f, &t, true, 1, true);
	assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
	ev = fx_wait(&f, &t.x);
	assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_true(ev & MMCHAL_EV_DATA_DONE);
	assert_int_equal(t.d.bytes_xfered, 512);
	assert_int_equal(f.be.ops->card_busy(f.be.ctx), 1);
	fx_close(&f);
}

/* A probe starts afresh: the card-detect level read again (present: no card
   change reported; absent: a command refused without touching the bus), SDIO
   interrupts off, and a probe that fails leaves the backend unprobed. */
static void test_probe_starts_afresh(void **state)
{
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	uint64_t cmd_writes;
	uint32_t ev;
	struct fx f;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
	assert_int_equal(ev & MMCHAL_EV_CARD_CHANGE, 0);
	assert_int_equal(f.be.ops->enable_sdio_irq(f.be.ctx, true), 0);
	assert_int_equal(reg16(&f, R_SDIOMODE), 1);
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	assert_int_equal(reg16(&f, R_SDIOMODE), 0);
	/* a data port wider than the SoC's */
	f.sdhi.cfg.port_width = 16;
	assert_int_equal(f.be.ops->probe(f.be.ctx), MMCHAL_ENOTSUP);
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), MMCHAL_EINVAL);
	f.sdhi.cfg.port_width = 0;
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
	assert_int_equal(mmchal_sim_card_remove(f.sim), 0);
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	cmd_writes = mmchal_sim_reg_writes(f.sim, 0);
	assert_int_equal(fx_cmd(&f, 0, 0, MMCHAL_RSP_NONE), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_reg_writes(f.sim, 0), cmd_writes);
	fx_close(&f);
}

/* Events of one handle_irq() call after @p ns of virtual time. */
static uint32_t irq_after(struct fx *f, uint64_t ns)
{
	uint32_t ev;

	fx_delay(f, ns);
	assert_int_equal(f->be.ops->handle_irq(f->be.ctx, &ev), 0);
	return ev;
}

/*
 * The busy end of a command: an R1 command has none, whatever DAT0 shows; an R1b
 * response that comes while DAT0 is still low (a controller that did not wait for
 * it) is done without its busy end, which is reported once DAT0 goes high.
 */
static void test_busy_seen_after_response(void **state)
{
	struct mmchal_cmd c = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
	struct mmchal_xfer x = {.cmd = &c};
	struct mmchal_bus_ops ops;
	uint32_t ev = 0;
	struct fx f;

	(void)state;
	inj_open(&f, &ops, MMCHAL_SDHI_PIO);
	for (int low = 0; low <= 1; low++) {
		inj_low = low ? 0x0080u : 0;
		assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
		ev = fx_wait(&f, &x);
		assert_int_equal(
			ev & (MMCHAL_EV_CMD_DONE | MMCHAL_EV_CMD_ERROR | MMCHAL_EV_BUSY_DONE),
			MMCHAL_EV_CMD_DONE);
		assert_int_equal(f.sdhi.state, 0);
	}
	/* CMD6 (R1b) setting HS_TIMING to 1, with DAT0 shown low */
	c = (struct mmchal_cmd){
		.opcode = 6, .arg = (3u << 24) | (185u << 16) | (1u << 8), .flags = MMCHAL_RSP_R1B};
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	ev = 0;
	for (int i = 0; i < 1000 && !(ev & MMCHAL_EV_CMD_DONE); i++)
		ev |= irq_after(&f, 1000);
	assert_int_equal(ev & (MMCHAL_EV_CMD_DONE | MMCHAL_EV_CMD_ERROR | MMCHAL_EV_BUSY_DONE),
			 MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.error, 0);
	assert_int_not_equal(f.sdhi.state, 0);
	assert_int_equal(irq_after(&f, 1000000) & MMCHAL_EV_BUSY_DONE, 0);
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EBUSY);
	inj_low = 0;
	assert_int_equal(irq_after(&f, 1000) & MMCHAL_EV_BUSY_DONE, MMCHAL_EV_BUSY_DONE);
	assert_int_equal(f.sdhi.state, 0);
	fx_close(&f);
}

/*
 * A card removed while an R1b command waits for its busy end: the removal is
 * reported alone (no command or busy event; the command was already done) and the
 * xfer is forgotten.
 */
static void test_removal_during_busy_wait(void **state)
{
	struct mmchal_cmd c = {
		.opcode = 6, .arg = (3u << 24) | (185u << 16) | (1u << 8), .flags = MMCHAL_RSP_R1B};
	struct mmchal_xfer x = {.cmd = &c};
	struct mmchal_bus_ops ops;
	uint32_t ev = 0;
	struct fx f;

	(void)state;
	inj_open(&f, &ops, MMCHAL_SDHI_PIO);
	inj_low = 0x0080u; /* DAT0 shown low */
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	for (int i = 0; i < 1000 && !(ev & MMCHAL_EV_CMD_DONE); i++)
		ev |= irq_after(&f, 1000);
	assert_int_equal(ev & (MMCHAL_EV_CMD_DONE | MMCHAL_EV_BUSY_DONE), MMCHAL_EV_CMD_DONE);
	assert_int_not_equal(f.sdhi.state, 0);
	assert_int_equal(mmchal_sim_card_remove(f.sim), 0);
	assert_int_equal(irq_after(&f, 1000), MMCHAL_EV_CARD_CHANGE);
	assert_int_equal(f.sdhi.state, 0);
	assert_int_equal(c.error, 0);
	inj_low = 0;
	fx_close(&f);
}

/* A card inserted while none was seen, with no interrupt call in between: the
   command that finds it takes the card as present. */
static void test_start_sees_new_card(void **state)
{
	struct mmchal_cmd c = {.opcode = 0, .flags = MMCHAL_RSP_NONE};
	struct mmchal_xfer x = {.cmd = &c};
	struct mmchal_sim_card_config cc;
	struct fx_opts o = gen3_mmc;
	struct fx f;

	(void)state;
	o.card = MMCHAL_SIM_CARD_NONE;
	assert_int_equal(fx_open(&f, &o), 0);
	assert_false(f.sdhi.present);
	assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc), 0);
	assert_int_equal(mmchal_sim_card_insert(f.sim, &cc), 0);
	assert_false(f.sdhi.present);
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	assert_true(f.sdhi.present);
	assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	assert_int_equal(f.sdhi.state, 0);
	fx_close(&f);
}

/* Each event of a PIO read is reported by one call only: the response once, the
   data end once, and the calls that only move a block report nothing. */
static void test_events_once(void **state)
{
	uint32_t ev, all = 0, cmd_done = 0, data_done = 0, quiet = 0;
	struct fx f;
	struct blk t;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	blk_prep(&f, &t, false, 4, false);
	assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
	for (int i = 0; i < 100000 && !(all & MMCHAL_EV_DATA_DONE); i++) {
		ev = irq_after(&f, 1000);
		all |= ev;
		cmd_done += (ev & MMCHAL_EV_CMD_DONE) != 0;
		data_done += (ev & MMCHAL_EV_DATA_DONE) != 0;
		quiet += ev == 0;
	}
	assert_int_equal(all, MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(cmd_done, 1);
	assert_int_equal(data_done, 1);
	assert_true(quiet >= 3); /* at least the calls of blocks 1..3 */
	assert_int_equal(t.d.bytes_xfered, 4 * 512);
	fx_close(&f);
}

/* A 136-bit response: the four registers hold bits 127:8, and resp[0..3] are
   those bits shifted up by 8 (no CRC byte), every bit in its place. */
static const struct mmchal_bus_ops *r2_inner;

static uint32_t r2_rd32(void *ctx, uint32_t off)
{
	static const uint32_t val[4] = {0x11223344u, 0x55667788u, 0x99aabbccu, 0x00ddeeffu};

	if (off >= (0x0cu << 2) && off < (0x1cu << 2) && (off & 0xfu) == 0)
		return val[(off - (0x0cu << 2)) >> 4];
	return r2_inner->read32(ctx, off);
}

static void test_r2_response_bits(void **state)
{
	struct mmchal_cmd c = {.opcode = 9, .arg = 1u << 16, .flags = MMCHAL_RSP_R2};
	struct mmchal_xfer x = {.cmd = &c};
	struct mmchal_bus_ops ops;
	struct fx f;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	assert_int_equal(f.sc.bus_shift, 2);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	/* CMD9 needs stand-by: deselect first */
	assert_int_equal(fx_cmd(&f, 7, 0, MMCHAL_RSP_NONE), 0);
	r2_inner = f.cfg.bus.ops;
	ops = *f.cfg.bus.ops;
	ops.read32 = r2_rd32;
	f.sdhi.cfg.bus.ops = &ops;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	assert_int_equal(fx_wait(&f, &x) & (MMCHAL_EV_CMD_DONE | MMCHAL_EV_CMD_ERROR),
			 MMCHAL_EV_CMD_DONE);
	f.sdhi.cfg.bus.ops = r2_inner;
	assert_int_equal(c.resp[0], 0xddeeff99u);
	assert_int_equal(c.resp[1], 0xaabbcc55u);
	assert_int_equal(c.resp[2], 0x66778811u);
	assert_int_equal(c.resp[3], 0x22334400u);
	fx_close(&f);
}

/*
 * The end of a DMA write waits for the bus to go idle: on a controller with a
 * command-busy bit (INFO2 bit 14) until it clears. A controller with neither that
 * bit (0x490c) nor the idle-wait bit is idle at the access end: a PIO write with
 * the automatic CMD12 ends there, while the card still programs.
 */
static void test_write_end_waits_for_idle(void **state)
{
	struct fx_opts nowait = GEN2_SYSDMAC_MMC;
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_PIO, -1,    0x490c, 0,
			    MMCHAL_SIM_CARD_MMC, false,           false, 0};
	struct mmchal_bus_ops ops;
	uint32_t ev = 0;
	struct fx f;
	struct blk t;

	(void)state;
	/* the generic SH-Mobile entry: no idle-wait bit; command busy from 0xcb0d on */
	fx_more.compat = "renesas,sdhi-shmobile";
	assert_int_equal(fx_open(&f, &nowait), 0);
	inj_attach(&f, &ops);
	assert_true(f.sdhi.have_cbsy);
	assert_int_equal(f.sdhi.flags & MMCHAL_SDHI_F_IDLE_WAIT, 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
	blk_prep(&f, &t, true, 1, true);
	assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
	inj_bits = 0x4000u;
	/* the access end with command busy set: no end yet, the idle wait (state
	   bit 6) instead; the controller's next access end or an idle bus ends it */
	for (int i = 0; i < 100000 && !(f.sdhi.state & 0x40u) && !(ev & MMCHAL_EV_DATA_DONE); i++)
		ev |= irq_after(&f, 1000);
	assert_true(ev & MMCHAL_EV_CMD_DONE);
	assert_int_equal(ev & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR), 0);
	assert_int_equal(f.sdhi.state & 0x40u, 0x40u);
	/* idle: the next look ends it, before the card has finished programming */
	inj_bits = 0;
	ev = irq_after(&f, 1000);
	assert_int_equal(ev & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR), MMCHAL_EV_DATA_DONE);
	assert_int_equal(t.d.bytes_xfered, 512);
	assert_int_equal(f.be.ops->card_busy(f.be.ctx), 1);
	for (int i = 0; i < 100000 && f.be.ops->card_busy(f.be.ctx) == 1; i++)
		fx_delay(&f, 10000);
	/* a PIO write without the automatic CMD12 does not wait for the bus */
	blk_prep(&f, &t, true, 1, false);
	assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
	inj_bits = 0x4000u;
	ev = fx_wait(&f, &t.x);
	inj_bits = 0;
	assert_int_equal(ev & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR | FX_TIMEOUT),
			 MMCHAL_EV_DATA_DONE);
	assert_int_equal(f.be.ops->card_busy(f.be.ctx), 1);
	fx_close(&f);

	fx_more.compat = "renesas,sdhi-shmobile";
	assert_int_equal(fx_open(&f, &o), 0);
	assert_false(f.sdhi.have_cbsy);
	assert_int_equal(f.sdhi.flags & MMCHAL_SDHI_F_IDLE_WAIT, 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
	blk_prep(&f, &t, true, 4, false);
	assert_true(t.x.auto_stop);
	assert_int_equal(f.be.ops->start(f.be.ctx, &t.x), 0);
	ev = fx_wait(&f, &t.x);
	assert_int_equal(ev & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR | FX_TIMEOUT),
			 MMCHAL_EV_DATA_DONE);
	assert_int_equal(t.d.bytes_xfered, 4 * 512);
	assert_int_equal(t.stop.error, 0);
	/* ended at the first access end: the card still programs after CMD12 */
	assert_int_equal(f.be.ops->card_busy(f.be.ctx), 1);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ack_values),
		cmocka_unit_test(test_reset_restores),
		cmocka_unit_test(test_dma_pio_switch),
		cmocka_unit_test(test_finished_untouched),
		cmocka_unit_test(test_cmd_encoding),
		cmocka_unit_test(test_probe_forgets_stop),
		cmocka_unit_test(test_clock_sequence),
		cmocka_unit_test(test_timeout_clocks),
		cmocka_unit_test(test_edge_values_taken),
		cmocka_unit_test(test_entry_checks),
		cmocka_unit_test(test_write_never_busy),
		cmocka_unit_test(test_start_refusals),
		cmocka_unit_test(test_probe_writes),
		cmocka_unit_test(test_probe_starts_afresh),
		cmocka_unit_test(test_injected_errors),
		cmocka_unit_test(test_busy_seen_after_response),
		cmocka_unit_test(test_removal_during_busy_wait),
		cmocka_unit_test(test_start_sees_new_card),
		cmocka_unit_test(test_events_once),
		cmocka_unit_test(test_r2_response_bits),
		cmocka_unit_test(test_write_end_waits_for_idle),
		cmocka_unit_test(test_width_bits_and_requests),
		cmocka_unit_test(test_write_end_without_idle_wait),
		cmocka_unit_test(test_cmd_rsp_bits_every_flag_set),
		cmocka_unit_test(test_dma_errors_not_counted_for_cmd_timeout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
