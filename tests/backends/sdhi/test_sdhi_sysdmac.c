/*
 * SDHI SYS-DMAC backend, the edges of its channel use: channels that cannot
 * describe themselves (no DMA at all), a channel offering more segments than
 * the SoC takes, the transfers the engine refuses (too many segments, under 8
 * bytes, odd address or length), a submit failing on a write (PIO for that
 * request) and on a bounced read (an error: PIO cannot fill the caller's
 * buffers there), and the channel checks at init. The channels wrap the
 * simulator's own.
 */
#include "sdhi_fx.h"

struct wrap {
	struct mmchal_dma_chan inner;
	int caps_ret;
	uint32_t caps_segs, caps_seg_size; /* 0 = the inner channel's */
	int submit_ret;
	unsigned int terminates;
};

static struct wrap wraps[2];

static int w_get_caps(void *ctx, struct mmchal_dma_dir_caps *c)
{
	struct wrap *w = ctx;
	int ret = w->inner.ops->get_caps(w->inner.ctx, c);

	if (w->caps_ret)
		return w->caps_ret;
	if (w->caps_segs)
		c->max_segs = w->caps_segs == UINT32_MAX ? 0 : w->caps_segs;
	if (w->caps_seg_size)
		c->max_seg_size = w->caps_seg_size == UINT32_MAX ? 0 : w->caps_seg_size;
	return ret;
}

static int w_prepare(void *ctx, const struct mmchal_dma_xfer *x)
{
	struct wrap *w = ctx;

	return w->inner.ops->prepare(w->inner.ctx, x);
}

static int w_submit(void *ctx)
{
	struct wrap *w = ctx;

	if (w->submit_ret)
		return w->submit_ret;
	return w->inner.ops->submit(w->inner.ctx);
}

static int w_terminate(void *ctx)
{
	struct wrap *w = ctx;

	w->terminates++;
	return w->inner.ops->terminate(w->inner.ctx);
}

static const struct mmchal_dma_chan_ops w_ops = {
	.get_caps = w_get_caps,
	.prepare = w_prepare,
	.submit = w_submit,
	.terminate = w_terminate,
};

static const struct fx_opts gen2_mmc = {
	MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC, -1, 0, 0, MMCHAL_SIM_CARD_MMC, false, false, 0};

/* Open, then put the wrapped channels in and init + probe again. */
static void open_wrapped(struct fx *f)
{
	assert_int_equal(fx_open(f, &gen2_mmc), 0);
	for (int d = 0; d < 2; d++) {
		memset(&wraps[d], 0, sizeof(wraps[d]));
		wraps[d].inner = f->cfg.chan[d];
		f->cfg.chan[d].ops = &w_ops;
		f->cfg.chan[d].ctx = &wraps[d];
	}
	assert_int_equal(mmchal_sdhi_sysdmac_init(&f->sdhi, &f->cfg, &f->be), 0);
	assert_int_equal(f->be.ops->probe(f->be.ctx), 0);
}

static void test_caps_edges(void **state)
{
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	struct fx f;

	(void)state;
	for (int k = 0; k < 6; k++) {
		open_wrapped(&f);
		switch (k) {
		case 0:
			wraps[0].caps_ret = MMCHAL_EIO;
			break;
		case 1:
			wraps[1].caps_ret = 1; /* a positive return is a failure too */
			break;
		case 2:
			wraps[0].caps_segs = UINT32_MAX; /* no segments */
			break;
		case 3:
			wraps[1].caps_seg_size = UINT32_MAX; /* no segment size */
			break;
		case 4:
			wraps[0].caps_segs = 64; /* more than the SoC's 32 */
			wraps[1].caps_segs = 5;
			break;
		default:
			wraps[0].caps_segs = 32; /* exactly the SoC's */
			break;
		}
		assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
		if (k < 4) {
			assert_int_equal(dc.kind, MMCHAL_DMA_NONE);
		} else {
			assert_int_equal(dc.kind, MMCHAL_DMA_EXTERNAL);
			assert_int_equal(dc.dir[0].max_segs, 32);
			assert_int_equal(dc.dir[1].max_segs, k == 4 ? 5 : 32);
		}
		fx_close(&f);
	}
}

struct req {
	struct fx_buf b;
	struct mmchal_sg sg;
	struct mmchal_dma_seg segs[40];
	struct mmchal_data d;
	struct mmchal_cmd c;
	struct mmchal_xfer x;
};

/* @p len bytes of one block (CMD17/CMD24) in @p nsegs DMA segments. */
static void req_prep(struct fx *f, struct req *r, bool write, uint32_t len, uint32_t nsegs)
{
	uint32_t per = len / nsegs;

	memset(r, 0, sizeof(*r));
	fx_buf_get(f, f->lo, len, 0, &r->b);
	r->sg.cpu = r->b.p;
	r->sg.phys = r->b.phys;
	r->sg.len = len;
	for (uint32_t i = 0; i < nsegs; i++) {
		r->segs[i].addr = r->b.phys + i * per;
		r->segs[i].len = i + 1 < nsegs ? per : len - i * per;
	}
	r->d.dir = write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
	r->d.blksz = len;
	r->d.blocks = 1;
	r->d.sg = &r->sg;
	r->d.sg_len = 1;
	r->c.opcode = write ? 24 : 17;
	r->c.arg = 300;
	r->c.flags = MMCHAL_RSP_R1;
	r->x.cmd = &r->c;
	r->x.data = &r->d;
	r->x.plan = MMCHAL_PLAN_DIRECT;
	r->x.segs = r->segs;
	r->x.nsegs = nsegs;
}

static void test_check_edges(void **state)
{
	struct fx f;
	struct req r;

	(void)state;
	open_wrapped(&f);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
	/* 33 segments: more than the SoC takes; 32 are fine */
	req_prep(&f, &r, false, 512, 33);
	for (uint32_t i = 0; i < 33; i++) {
		r.segs[i].addr = r.b.phys + i * 8u;
		r.segs[i].len = i < 32 ? 8u : 512u - 32u * 8u;
	}
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), MMCHAL_EINVAL);
	r.segs[31].len = 512u - 31u * 8u;
	r.x.nsegs = 32;
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), 0);
	assert_int_equal(fx_wait(&f, &r.x) & (MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_int_equal(r.d.bytes_xfered, 512);
	/* under 8 bytes: refused */
	req_prep(&f, &r, false, 6, 1);
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), MMCHAL_EINVAL);
	/* an odd address, an odd length */
	req_prep(&f, &r, false, 512, 2);
	r.segs[1].addr |= 1u;
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), MMCHAL_EINVAL);
	req_prep(&f, &r, false, 512, 2);
	r.segs[0].len = 255;
	r.segs[1].addr = r.b.phys + 255u;
	r.segs[1].len = 257;
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), MMCHAL_EINVAL);
	assert_int_equal(f.sdhi.state, 0);
	fx_close(&f);
}

static void test_submit_fails(void **state)
{
	struct mmchal_sdhi_stats st;
	uint64_t size;
	uint8_t *store;
	struct fx f;
	struct req r;

	(void)state;
	open_wrapped(&f);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
	store = mmchal_sim_card_store(f.sim, &size);
	assert_non_null(store);
	/* a write: this one request moves by PIO, the data arrives */
	wraps[0].submit_ret = MMCHAL_EIO;
	req_prep(&f, &r, true, 512, 1);
	for (uint32_t i = 0; i < 512u; i++)
		r.b.p[i] = fx_pat(i, 3);
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), 0);
	assert_int_equal(wraps[0].terminates, 1);
	assert_int_equal(fx_wait(&f, &r.x) & (MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_memory_equal(store + 300u * 512u, r.b.p, 512);
	assert_int_equal(mmchal_sdhi_get_stats(&f.sdhi, &st), 0);
	assert_int_equal(st.pio_fallbacks, 1);
	assert_int_equal(st.dma_errors, 0);
	for (int i = 0; f.be.ops->card_busy(f.be.ctx) == 1; i++) {
		assert_true(i < 100000);
		fx_delay(&f, 10000);
	}
	/* a bounced read: refused with an error, nothing started */
	wraps[1].submit_ret = 1;
	req_prep(&f, &r, false, 512, 1);
	r.x.plan = MMCHAL_PLAN_BOUNCED;
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), MMCHAL_EFAULT);
	assert_int_equal(wraps[1].terminates, 1);
	assert_int_equal(f.sdhi.state, 0);
	assert_int_equal(mmchal_sdhi_get_stats(&f.sdhi, &st), 0);
	assert_int_equal(st.pio_fallbacks, 1);
	assert_int_equal(st.dma_errors, 1);
	/* a bounced write still falls back to PIO; a direct read too */
	wraps[0].submit_ret = MMCHAL_EIO;
	req_prep(&f, &r, true, 512, 1);
	r.x.plan = MMCHAL_PLAN_BOUNCED;
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), 0);
	assert_int_equal(fx_wait(&f, &r.x) & (MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	for (int i = 0; f.be.ops->card_busy(f.be.ctx) == 1; i++) {
		assert_true(i < 100000);
		fx_delay(&f, 10000);
	}
	req_prep(&f, &r, false, 512, 1);
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), 0);
	assert_int_equal(fx_wait(&f, &r.x) & (MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_memory_equal(r.b.p, store + 300u * 512u, 512);
	assert_int_equal(mmchal_sdhi_get_stats(&f.sdhi, &st), 0);
	assert_int_equal(st.pio_fallbacks, 3);
	assert_int_equal(st.dma_errors, 1);
	fx_close(&f);
}

static void test_init_channels(void **state)
{
	struct mmchal_sdhi s;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_backend be;
	struct mmchal_dma_chan_ops no_submit = w_ops;
	struct fx f;

	(void)state;
	no_submit.submit = NULL;
	assert_int_equal(fx_open(&f, &gen2_mmc), 0);
	cfg = f.cfg;
	cfg.chan[MMCHAL_DIR_TO_CARD].ops = NULL;
	assert_int_equal(mmchal_sdhi_sysdmac_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg = f.cfg;
	cfg.chan[MMCHAL_DIR_FROM_CARD].ops = &no_submit;
	assert_int_equal(mmchal_sdhi_sysdmac_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg = f.cfg;
	cfg.chan[MMCHAL_DIR_TO_CARD].ops = &no_submit;
	assert_int_equal(mmchal_sdhi_sysdmac_init(&s, &cfg, &be), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sdhi_sysdmac_init(&s, NULL, &be), MMCHAL_EINVAL);
	cfg = f.cfg;
	cfg.soc = NULL;
	assert_int_equal(mmchal_sdhi_sysdmac_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg = f.cfg;
	assert_int_equal(mmchal_sdhi_sysdmac_init(&s, &cfg, &be), 0);
	assert_string_equal(be.ops->name, "sdhi-sysdmac");
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps_edges),
		cmocka_unit_test(test_check_edges),
		cmocka_unit_test(test_submit_fails),
		cmocka_unit_test(test_init_channels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
