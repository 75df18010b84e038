/*
 * SDHI SYS-DMAC backend, the edges of its channel use: channels that cannot
 * describe themselves (no DMA at all), a channel offering more segments than
 * the SoC takes, the transfers the engine refuses (too many segments, under 8
 * bytes, odd address or length), a submit failing on a write (PIO for that
 * request) and on a bounced read (an error: PIO cannot fill the caller's
 * buffers there), and the channel checks at init; the 8-byte floor itself
 * (an SCR read goes by DMA), the completion hook, a read that ends only when
 * its channel has (also after an earlier DMA), and an abort stopping the
 * channel of the data's direction. The channels wrap the simulator's own.
 */
#include "sdhi_fx.h"

struct wrap {
	struct mmchal_dma_chan inner;
	int caps_ret;
	uint32_t caps_segs, caps_seg_size; /* 0 = the inner channel's */
	int submit_ret;
	unsigned int prepares, terminates;
	bool hold;                  /* keep the channel's completion back */
	bool held;                  /* a completion is being kept back */
	int held_status;            /* its status */
	struct mmchal_dma_xfer fwd; /* the xfer handed on, with w_done as callback */
	const struct mmchal_dma_xfer *orig;
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

static void w_done(void *arg, int status)
{
	struct wrap *w = arg;

	if (w->hold) {
		w->held = true;
		w->held_status = status;
		return;
	}
	w->orig->done(w->orig->done_arg, status);
}

/* Hand a kept-back completion to the backend. */
static void w_release(struct wrap *w)
{
	assert_true(w->held);
	w->held = false;
	w->hold = false;
	w->orig->done(w->orig->done_arg, w->held_status);
}

static int w_prepare(void *ctx, const struct mmchal_dma_xfer *x)
{
	struct wrap *w = ctx;

	w->prepares++;
	w->orig = x;
	w->fwd = *x;
	w->fwd.done = w_done;
	w->fwd.done_arg = w;
	return w->inner.ops->prepare(w->inner.ctx, &w->fwd);
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

static const struct fx_opts gen2_sd = {
	MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC, -1, 0, 0, MMCHAL_SIM_CARD_SD, false, false, 0};

static unsigned int notified;

static void count_notify(void *arg)
{
	assert_ptr_equal(arg, &notified);
	notified++;
}

/* Open with @p o, then put the wrapped channels (and, with @p notify, the
   completion hook) in and init + probe again. */
static void open_wrapped_as(struct fx *f, const struct fx_opts *o, bool notify)
{
	assert_int_equal(fx_open(f, o), 0);
	for (int d = 0; d < 2; d++) {
		memset(&wraps[d], 0, sizeof(wraps[d]));
		wraps[d].inner = f->cfg.chan[d];
		f->cfg.chan[d].ops = &w_ops;
		f->cfg.chan[d].ctx = &wraps[d];
	}
	notified = 0;
	if (notify) {
		f->cfg.dma_notify = count_notify;
		f->cfg.dma_notify_arg = &notified;
	}
	assert_int_equal(mmchal_sdhi_sysdmac_init(&f->sdhi, &f->cfg, &f->be), 0);
	assert_int_equal(f->be.ops->probe(f->be.ctx), 0);
}

static void open_wrapped(struct fx *f)
{
	open_wrapped_as(f, &gen2_mmc, false);
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
	/* the refused request is the caller's again: an abort now finds no
	   transfer and writes nothing into it */
	r.d.bytes_xfered = 77;
	assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	assert_int_equal(r.d.bytes_xfered, 77);
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

/* SD identification up to the transfer state: CMD0, CMD8, ACMD41, CMD2, CMD3, CMD7. */
static void sd_init(struct fx *f)
{
	uint32_t r[4];

	fx_ios(f, 400000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY);
	assert_int_equal(fx_cmd(f, 0, 0, MMCHAL_RSP_NONE), 0);
	assert_int_equal(fx_cmd_resp(f, 8, 0x1aa, MMCHAL_RSP_R7, r), 0);
	for (int i = 0;; i++) {
		assert_true(i < 100);
		assert_int_equal(fx_cmd(f, 55, 0, MMCHAL_RSP_R1), 0);
		assert_int_equal(fx_cmd_resp(f, 41, 0x40ff8000u, MMCHAL_RSP_R3, r), 0);
		if (r[0] & 0x80000000u)
			break;
		fx_delay(f, 100000);
	}
	assert_int_equal(fx_cmd(f, 2, 0, MMCHAL_RSP_R2), 0);
	assert_int_equal(fx_cmd_resp(f, 3, 0, MMCHAL_RSP_R6, r), 0);
	f->rca = (uint16_t)(r[0] >> 16);
	assert_int_equal(fx_cmd(f, 7, (uint32_t)f->rca << 16, MMCHAL_RSP_R1B), 0);
	fx_ios(f, 25000000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY);
}

/* Exactly 8 bytes is long enough for the channel: ACMD51's SCR arrives by DMA. */
static void test_eight_bytes_by_dma(void **state)
{
	/* the simulated card's SCR: SD_SPEC 2, SD_BUS_WIDTHS 1 and 4 bits, SD_SPEC3, CMD23 */
	static const uint8_t scr[8] = {0x02, 0x05, 0x80, 0x02, 0, 0, 0, 0};
	struct mmchal_sdhi_stats st;
	struct fx f;
	struct req r;

	(void)state;
	open_wrapped_as(&f, &gen2_sd, false);
	sd_init(&f);
	assert_int_equal(fx_cmd(&f, 55, (uint32_t)f.rca << 16, MMCHAL_RSP_R1), 0);
	req_prep(&f, &r, false, 8, 1);
	r.c.opcode = 51;
	r.c.arg = 0;
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), 0);
	assert_int_equal(wraps[1].prepares, 1);
	assert_int_equal(fx_wait(&f, &r.x) & (MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_int_equal(r.d.bytes_xfered, 8);
	assert_memory_equal(r.b.p, scr, 8);
	fx_buf_guards(&r.b);
	assert_int_equal(mmchal_sdhi_get_stats(&f.sdhi, &st), 0);
	assert_int_equal(st.pio_fallbacks, 0);
	fx_close(&f);
}

/*
 * The completion hook runs once per channel completion, and a read ends only
 * when its channel has, after the controller's access end too: also for a
 * read that follows a finished DMA, whose completion must not count again.
 */
static void test_read_waits_for_channel(void **state)
{
	uint64_t size, until;
	uint8_t *store;
	uint32_t ev;
	struct fx f;
	struct req r;

	(void)state;
	open_wrapped_as(&f, &gen2_mmc, true);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
	store = mmchal_sim_card_store(f.sim, &size);
	assert_non_null(store);
	req_prep(&f, &r, false, 512, 1);
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), 0);
	assert_int_equal(fx_wait(&f, &r.x) & (MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_int_equal(notified, 1);

	/* the next read: the channel's completion is kept back */
	req_prep(&f, &r, false, 512, 1);
	r.c.arg = 301;
	wraps[1].hold = true;
	assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), 0);
	assert_int_equal(wraps[1].prepares, 2);
	/* 1 ms: many times the 512 bytes on a 4-bit bus at 26 MHz */
	until = mmchal_sim_now(f.sim) + 1000000u;
	while (mmchal_sim_now(f.sim) < until) {
		assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
		assert_int_equal(ev & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR), 0);
		mmchal_sim_run(f.sim, mmchal_sim_now(f.sim) + 20000u);
	}
	assert_true(wraps[1].held);
	assert_int_equal(notified, 1);
	/* the completion arrives: the read ends at once, without more bus time */
	w_release(&wraps[1]);
	assert_int_equal(notified, 2);
	assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
	assert_int_equal(ev & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR), MMCHAL_EV_DATA_DONE);
	assert_int_equal(r.d.bytes_xfered, 512);
	assert_memory_equal(r.b.p, store + 301u * 512u, 512);
	fx_close(&f);
}

/* An abort stops the channel of the transfer's direction, and only that one. */
static void test_abort_stops_its_channel(void **state)
{
	struct fx f;
	struct req r;

	(void)state;
	for (int write = 0; write < 2; write++) {
		open_wrapped(&f);
		fx_mmc_init(&f, MMCHAL_BUS_WIDTH_4);
		req_prep(&f, &r, write, 512, 1);
		assert_int_equal(f.be.ops->start(f.be.ctx, &r.x), 0);
		assert_int_equal(wraps[write ? 0 : 1].prepares, 1);
		assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
		assert_int_equal(wraps[0].terminates, write ? 1 : 0);
		assert_int_equal(wraps[1].terminates, write ? 0 : 1);
		assert_int_equal(f.sdhi.state, 0);
		fx_close(&f);
	}
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
		cmocka_unit_test(test_eight_bytes_by_dma),
		cmocka_unit_test(test_read_waits_for_channel),
		cmocka_unit_test(test_abort_stops_its_channel),
		cmocka_unit_test(test_init_channels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
