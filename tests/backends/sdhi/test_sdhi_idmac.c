/*
 * SDHI internal DMAC, register by register: what probe and the channel reset
 * write to the DMAC (reset sequence, status clear, interrupt masks, the old
 * read-end bit), the transfer mode of each direction with and without fixed
 * address mode, the address written with one 64-bit access or, without 64-bit
 * bus accesses, as the low half only, and the one-read-channel parts that
 * refuse a DMA read.
 */
#include "sdhi_fx.h"

#define DM_FIRST 0x800u /* the DMAC registers: byte offsets from here */
#define DM_MODE  0x820u
#define DM_RST   0x830u
#define DM_INFO1 0x840u
#define DM_I1MSK 0x848u
#define DM_INFO2 0x850u
#define DM_I2MSK 0x858u
#define DM_ADDR  0x880u

struct dm_log {
	uint32_t n;
	struct mmchal_sim_access a[64];
};

static void dm_trace(void *arg, const struct mmchal_sim_access *a)
{
	struct dm_log *l = arg;

	if (!a->write || a->off < DM_FIRST || l->n >= 64u)
		return;
	l->a[l->n++] = *a;
}

static void dm_expect(const struct dm_log *l, uint32_t i, uint32_t off, uint64_t val, uint8_t width)
{
	assert_true(i < l->n);
	assert_int_equal(l->a[i].off, off);
	assert_int_equal(l->a[i].val, val);
	assert_int_equal(l->a[i].width, width);
}

/* The write of @p off in the log; exactly one. */
static const struct mmchal_sim_access *dm_only(const struct dm_log *l, uint32_t off)
{
	static const struct mmchal_sim_access none;
	const struct mmchal_sim_access *hit = NULL;

	for (uint32_t i = 0; i < l->n; i++) {
		if (l->a[i].off == off) {
			assert_null(hit);
			hit = &l->a[i];
		}
	}
	assert_non_null(hit);
	return hit ? hit : &none; /* never &none: the assert ends the test */
}

static const struct fx_opts gen3_mmc = {
	MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, -1, 0, 0, MMCHAL_SIM_CARD_MMC, false, false, 0};

/* Probe: channel reset (active low: clear both, then set all), status cleared,
   the two end bits and the two error bits unmasked. */
static void probe_log(bool old_info1, uint32_t info1_mask)
{
	struct fx_opts o = gen3_mmc;
	struct dm_log l = {0};
	struct fx f;

	o.old_info1 = old_info1;
	assert_int_equal(fx_open(&f, &o), 0);
	mmchal_sim_set_trace(f.sim, dm_trace, &l);
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	mmchal_sim_set_trace(f.sim, NULL, NULL);
	assert_int_equal(l.n, 6);
	dm_expect(&l, 0, DM_RST, 0xfffffcffu, 4);
	dm_expect(&l, 1, DM_RST, 0xffffffffu, 4);
	dm_expect(&l, 2, DM_INFO1, 0, 4);
	dm_expect(&l, 3, DM_INFO2, 0, 4);
	dm_expect(&l, 4, DM_I1MSK, info1_mask, 4);
	dm_expect(&l, 5, DM_I2MSK, 0xfffcffffu, 4);
	/* the model holds what was written */
	assert_int_equal(mmchal_bus_raw_rd32(&f.cfg.bus, DM_I1MSK), info1_mask);
	assert_int_equal(mmchal_bus_raw_rd32(&f.cfg.bus, DM_I2MSK), 0xfffcffffu);
	assert_int_equal(mmchal_bus_raw_rd32(&f.cfg.bus, DM_RST), 0xffffffffu);
	fx_close(&f);
}

static void test_probe_writes(void **state)
{
	(void)state;
	probe_log(false, ~((1u << 16) | (1u << 20)));
	probe_log(true, ~((1u << 16) | (1u << 17)));
}

/* One block through the DMAC at @p phys (below 4 GiB), read or write; @p log
   collects the DMAC writes of start(). The data is checked byte for byte. */
static void one_block(struct fx *f, bool write, struct dm_log *log)
{
	const uint32_t lba = 100;
	struct mmchal_dma_seg seg[2];
	struct mmchal_sg sg;
	struct mmchal_data d = {0};
	struct mmchal_cmd c = {0};
	struct mmchal_xfer x = {0};
	struct fx_buf b;
	uint64_t size;
	uint8_t *store = mmchal_sim_card_store(f->sim, &size);
	uint32_t ev;

	assert_non_null(store);
	fx_buf_get(f, f->lo, 512, 0, &b);
	for (uint32_t i = 0; i < 512u; i++) {
		if (write)
			b.p[i] = fx_pat(i, 7);
		else
			store[lba * 512u + i] = fx_pat(i, 9);
	}
	sg.cpu = b.p;
	sg.phys = b.phys;
	sg.len = 512;
	d.dir = write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
	d.blksz = 512;
	d.blocks = 1;
	d.sg = &sg;
	d.sg_len = 1;
	seg[0].addr = b.phys;
	seg[0].len = 512;
	/* never to be looked at: only one segment is handed over */
	seg[1].addr = b.phys + 4096u;
	seg[1].len = 512;
	c.opcode = write ? 24 : 17;
	c.arg = lba;
	c.flags = MMCHAL_RSP_R1;
	x.cmd = &c;
	x.data = &d;
	x.plan = MMCHAL_PLAN_DIRECT;
	x.segs = seg;
	x.nsegs = 1;
	log->n = 0;
	mmchal_sim_set_trace(f->sim, dm_trace, log);
	assert_int_equal(f->be.ops->start(f->be.ctx, &x), 0);
	mmchal_sim_set_trace(f->sim, NULL, NULL);
	ev = fx_wait(f, &x);
	assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_true(ev & MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.error, 0);
	assert_int_equal(d.bytes_xfered, 512);
	for (uint32_t i = 0; i < 512u; i++) {
		if (write)
			assert_int_equal(store[lba * 512u + i], fx_pat(i, 7));
		else
			assert_int_equal(b.p[i], fx_pat(i, 9));
	}
	fx_buf_guards(&b);
	/* the address: one write of the whole segment address */
	{
		const struct mmchal_sim_access *a = dm_only(log, DM_ADDR);

		assert_int_equal(a->val, b.phys);
	}
	for (int i = 0; f->be.ops->card_busy(f->be.ctx) == 1; i++) {
		assert_true(i < 100000);
		fx_delay(f, 10000);
	}
}

/* Transfer mode: read channel bit 16 for reads only, 64-bit bus (bits 5:4), address
   increment (bit 0) except on fixed-address-mode parts. */
static void test_transfer_mode(void **state)
{
	static const struct {
		bool fixed, write;
		uint32_t mode;
	} rows[] = {
		{false, false, 0x10031u},
		{false, true, 0x00031u},
		{true, false, 0x10030u},
		{true, true, 0x00030u},
	};
	struct dm_log l;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fx f;

		if (rows[i].fixed) {
			fx_more.sim_fixed_addr_only = true;
			fx_more.extra_flags = MMCHAL_SDHI_F_FIXED_ADDR;
		}
		assert_int_equal(fx_open(&f, &gen3_mmc), 0);
		fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
		one_block(&f, rows[i].write, &l);
		assert_int_equal(dm_only(&l, DM_MODE)->val, rows[i].mode);
		/* with 64-bit accesses the address is one 8-byte write */
		assert_int_equal(dm_only(&l, DM_ADDR)->width, 8);
		fx_close(&f);
	}
}

/* A bus without 64-bit accesses: a 32-bit port, and the address as the low half
   in one 32-bit write (the upper half stays as the reset left it). */
static void test_no_write64(void **state)
{
	struct mmchal_bus_ops ops;
	struct dm_log l;
	struct fx f;

	(void)state;
	for (int dir = 0; dir < 2; dir++) {
		assert_int_equal(fx_open(&f, &gen3_mmc), 0);
		ops = *f.cfg.bus.ops;
		ops.read64 = NULL;
		ops.write64 = NULL;
		f.cfg.bus.ops = &ops;
		assert_int_equal(mmchal_sdhi_idmac_init(&f.sdhi, &f.cfg, &f.be), 0);
		assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
		assert_int_equal(f.sdhi.port_width, 4);
		fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
		one_block(&f, dir == 1, &l);
		assert_int_equal(dm_only(&l, DM_ADDR)->width, 4);
		fx_close(&f);
	}
}

/* One read channel in the SoC: reads are refused by the DMAC (the caps send them
   PIO), writes still go through it. */
static void test_one_rx_only(void **state)
{
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	struct mmchal_dma_seg seg;
	struct mmchal_sg sg;
	struct mmchal_data d = {0};
	struct mmchal_cmd c = {0};
	struct mmchal_xfer x = {0};
	struct fx_buf b;
	struct dm_log l;
	struct fx f;

	(void)state;
	fx_more.extra_flags = MMCHAL_SDHI_F_ONE_RX_ONLY;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
	assert_int_equal(dc.dir[MMCHAL_DIR_FROM_CARD].min_len, UINT32_MAX);
	assert_int_equal(dc.dir[MMCHAL_DIR_TO_CARD].min_len, 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	fx_buf_get(&f, f.lo, 512, 0, &b);
	sg.cpu = b.p;
	sg.phys = b.phys;
	sg.len = 512;
	d.dir = MMCHAL_DIR_FROM_CARD;
	d.blksz = 512;
	d.blocks = 1;
	d.sg = &sg;
	d.sg_len = 1;
	seg.addr = b.phys;
	seg.len = 512;
	c.opcode = 17;
	c.flags = MMCHAL_RSP_R1;
	x.cmd = &c;
	x.data = &d;
	x.plan = MMCHAL_PLAN_DIRECT;
	x.segs = &seg;
	x.nsegs = 1;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	/* nothing started: the backend takes the next request */
	x.plan = MMCHAL_PLAN_PIO;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	assert_int_equal(fx_wait(&f, &x) & (MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_int_equal(d.bytes_xfered, 512);
	one_block(&f, true, &l);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_writes),
		cmocka_unit_test(test_transfer_mode),
		cmocka_unit_test(test_no_write64),
		cmocka_unit_test(test_one_rx_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
