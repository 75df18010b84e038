/*
 * Host object (src/core/host.c): init checks and their errors, deinit, the
 * host ops table, the queries (limits, counters, explanation), over the
 * scripted backend and the recording port.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/host_core.h>

#include "core/host_fixture.h"

struct fx {
	struct tb tb;
	struct rec_port rp;
	struct mmchal_backend be;
	struct mmchal_port port;
	struct mmchal_host_cfg cfg;
	struct mmchal_host host;
};

static struct fx g;

static void fx_setup(const struct mmchal_port_ops *pops)
{
	memset(&g, 0, sizeof(g));
	tb_init(&g.tb);
	rec_init(&g.rp);
	g.tb.port = &g.rp;
	g.be.ops = &tb_ops;
	g.be.ctx = &g.tb;
	g.port.ops = pops;
	g.port.ctx = &g.rp;
	g.cfg.backend = &g.be;
	g.cfg.port = &g.port;
}

static struct mmchal_cmd cmd13 = {.opcode = 13, .flags = MMCHAL_RSP_R1};
static struct mmchal_request req13 = {.cmd = &cmd13};

static void test_init_rejects_bad_args(void **state)
{
	struct mmchal_backend_ops partial = tb_ops;

	(void)state;
	fx_setup(&rec_ops_coherent);
	assert_int_equal(mmchal_host_init(NULL, &g.cfg), MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_init(&g.host, NULL), MMCHAL_EINVAL);
	g.cfg.backend = NULL;
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), MMCHAL_EINVAL);
	g.cfg.backend = &g.be;
	g.cfg.port = NULL;
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), MMCHAL_EINVAL);
	g.cfg.port = &g.port;
	partial.abort = NULL;
	g.be.ops = &partial;
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), MMCHAL_EINVAL);
	g.be.ops = &tb_ops;
	g.cfg.seg_table_len = 4;
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), MMCHAL_EINVAL);
	g.cfg.seg_table_len = 0;
	/* not live: every entry refuses it */
	assert_null(mmchal_host_limits(&g.host));
	assert_int_equal(mmchal_host_request(&g.host, &req13), MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_core_ops.set_ios(&g.host, &(struct mmchal_ios){0}),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_poll(&g.host), MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_irq(NULL), MMCHAL_EINVAL);
	assert_int_equal(g.tb.nstart, 0);
}

static void test_init_backend_errors(void **state)
{
	(void)state;
	fx_setup(&rec_ops_coherent);
	g.tb.probe_err = MMCHAL_ETIMEDOUT;
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), MMCHAL_ETIMEDOUT);
	assert_null(mmchal_host_limits(&g.host));
	g.tb.probe_err = 0;
	g.tb.caps_err = MMCHAL_EIO;
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), MMCHAL_EIO);
	assert_null(mmchal_host_limits(&g.host));
	/* inconsistent capabilities: an engine chaining 0 segments */
	g.tb.caps_err = 0;
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 0, true);
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), MMCHAL_EINVAL);
	assert_null(mmchal_host_limits(&g.host));
	/* a forced policy the port cannot run: DEFERRED without deferred work */
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 1, true);
	g.port.ops = &rec_ops_nolock;
	g.cfg.policy.override = MMCHAL_POLICY_DEFERRED;
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), MMCHAL_EINVAL);
	assert_null(mmchal_host_limits(&g.host));
}

static void test_init_derives_limits(void **state)
{
	struct mmchal_caps caps;
	struct mmchal_port_caps pc = {.lock = true, .deferred_work = true};
	struct mmchal_limits want;
	const struct mmchal_limits *lim;

	(void)state;
	fx_setup(&rec_ops_coherent);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 1, true);
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), 0);
	memset(&caps, 0, sizeof(caps));
	caps.host = g.tb.host;
	caps.dma = g.tb.dma;
	assert_int_equal(mmchal_limits_derive(&caps, &pc, NULL, MMCHAL_CARD_UNKNOWN, &want), 0);
	lim = mmchal_host_limits(&g.host);
	assert_non_null(lim);
	assert_memory_equal(lim, &want, sizeof(want));
	assert_int_equal(lim->max_segs, 1);
	assert_int_equal(lim->card, MMCHAL_CARD_UNKNOWN);
	assert_int_equal(g.rp.depth, 0);
	mmchal_host_deinit(&g.host);
	assert_null(mmchal_host_limits(&g.host));
	/* a port without a lock: polled */
	fx_setup(&rec_ops_nolock);
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), 0);
	assert_int_equal(mmchal_host_limits(&g.host)->policy, MMCHAL_POLICY_POLLED);
}

static void test_two_hosts_are_independent(void **state)
{
	static struct tb tb2;
	static struct mmchal_host h2;
	struct mmchal_backend be2 = {.ops = &tb_ops, .ctx = &tb2};
	struct mmchal_host_cfg cfg2;

	(void)state;
	fx_setup(&rec_ops_coherent);
	tb_init(&tb2);
	tb_set_dma(&tb2, MMCHAL_DMA_INTERNAL, 1, true);
	cfg2 = g.cfg;
	cfg2.backend = &be2;
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), 0);
	assert_int_equal(mmchal_host_init(&h2, &cfg2), 0);
	assert_int_equal(mmchal_host_limits(&g.host)->max_segs, 32);
	assert_int_equal(mmchal_host_limits(&h2)->max_segs, 1);
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req13), 0);
	/* host 1 busy, host 2 free */
	assert_int_equal(mmchal_host_core_ops.init_card(&h2, MMCHAL_CARD_MMC), 0);
	assert_int_equal(mmchal_host_limits(&h2)->card, MMCHAL_CARD_MMC);
	assert_int_equal(tb2.nstart, 0);
	assert_int_equal(g.tb.nstart, 1);
	mmchal_host_deinit(&h2);
	mmchal_host_deinit(&g.host);
}

static unsigned done_calls;
static int done_err;

static void on_done(struct mmchal_request *r)
{
	done_calls++;
	done_err = r->cmd->error;
}

static void test_ops_forward_and_refuse_in_flight(void **state)
{
	const struct mmchal_host_ops *ops = &mmchal_host_core_ops;
	struct mmchal_ios ios = {.clock_hz = 400000, .bus_width = MMCHAL_BUS_WIDTH_1};
	struct mmchal_host_caps hc;
	struct mmchal_limits lim;
	struct mmchal_cmd c = {.opcode = 13, .flags = MMCHAL_RSP_R1};
	struct mmchal_request r = {.cmd = &c, .done = on_done};

	(void)state;
	fx_setup(&rec_ops_coherent);
	g.tb.host.f_max_hz = 200000000;
	assert_int_equal(mmchal_host_ops_check(ops), 0);
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), 0);
	assert_int_equal(ops->set_ios(&g.host, &ios), 0);
	assert_int_equal(g.tb.nset_ios, 1);
	assert_int_equal(ops->set_ios(&g.host, NULL), MMCHAL_EINVAL);
	assert_int_equal(ops->get_cd(&g.host), 1);
	assert_int_equal(ops->get_ro(&g.host), MMCHAL_ENOTSUP);
	assert_int_equal(ops->hw_reset(&g.host), MMCHAL_ENOTSUP);
	assert_int_equal(ops->execute_tuning(&g.host, 21), MMCHAL_ENOTSUP);
	assert_int_equal(ops->enable_sdio_irq(&g.host, true), MMCHAL_ENOTSUP);
	g.tb.busy_left = 1;
	assert_int_equal(ops->card_busy(&g.host), 1);
	assert_int_equal(ops->card_busy(&g.host), 0);
	assert_int_equal(ops->get_caps(&g.host, &hc), 0);
	assert_int_equal(hc.f_max_hz, 200000000);
	assert_int_equal(ops->get_caps(&g.host, NULL), MMCHAL_EINVAL);
	assert_int_equal(ops->get_limits(&g.host, &lim), 0);
	assert_memory_equal(&lim, mmchal_host_limits(&g.host), sizeof(lim));
	assert_int_equal(ops->get_limits(NULL, &lim), MMCHAL_EINVAL);

	/* a request in flight: init_card, set_ios, hw_reset, tuning refused */
	g.tb.auto_complete = false;
	assert_int_equal(ops->request(&g.host, &r), 0);
	assert_int_equal(ops->init_card(&g.host, MMCHAL_CARD_MMC), MMCHAL_EBUSY);
	assert_int_equal(mmchal_host_limits(&g.host)->card, MMCHAL_CARD_UNKNOWN);
	assert_int_equal(ops->set_ios(&g.host, &ios), MMCHAL_EBUSY);
	assert_int_equal(g.tb.nset_ios, 1);
	assert_int_equal(ops->hw_reset(&g.host), MMCHAL_EBUSY);
	assert_int_equal(ops->execute_tuning(&g.host, 21), MMCHAL_EBUSY);
	assert_int_equal(ops->get_cd(&g.host), 1);
	/* a second request: EBUSY, nothing sent */
	assert_int_equal(ops->request(&g.host, &req13), MMCHAL_EBUSY);
	assert_int_equal(g.tb.nstart, 1);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(done_calls, 1);
	assert_int_equal(ops->init_card(&g.host, MMCHAL_CARD_MMC), 0);
	assert_int_equal(mmchal_host_limits(&g.host)->card, MMCHAL_CARD_MMC);
	assert_false(g.rp.bad_nesting);
	assert_int_equal(g.rp.depth, 0);
	assert_false(g.tb.locked_seen_unlocked);
}

static void test_deinit_aborts_in_flight(void **state)
{
	struct mmchal_cmd c = {.opcode = 6, .flags = MMCHAL_RSP_R1B};
	struct mmchal_request r = {.cmd = &c, .done = on_done};

	(void)state;
	fx_setup(&rec_ops_coherent);
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), 0);
	g.tb.auto_complete = false;
	done_calls = 0;
	assert_int_equal(mmchal_host_request(&g.host, &r), 0);
	mmchal_host_deinit(&g.host);
	assert_int_equal(done_calls, 1);
	assert_int_equal(done_err, MMCHAL_ECANCELED);
	assert_int_equal(g.tb.nabort, 1);
	assert_null(mmchal_host_limits(&g.host));
	mmchal_host_deinit(&g.host); /* harmless twice */
	mmchal_host_deinit(NULL);
	assert_int_equal(done_calls, 1);
}

static void test_stats_and_explain(void **state)
{
	struct mmchal_host_stats st;
	static char buf[4096];
	static char small[300];
	int n, m;

	(void)state;
	fx_setup(&rec_ops_coherent);
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), 0);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req13, 0), 0);
	assert_int_equal(mmchal_host_stats(&g.host, &st), 0);
	assert_int_equal(st.requests, 1);
	assert_int_equal(st.completed, 1);
	assert_int_equal(mmchal_host_stats(&g.host, NULL), MMCHAL_EINVAL);
	n = mmchal_host_explain(&g.host, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(strlen(buf), (size_t)n);
	assert_true(fx_contains(buf, "max_segs = 32"));
	assert_true(fx_contains(buf, "\nrequests: 1\ncompleted: 1\n"));
	assert_true(fx_contains(buf, "\nplan PIO: 0\n"));
	/* truncation: reported, NUL-terminated, only whole lines */
	m = mmchal_host_explain(&g.host, small, sizeof(small));
	assert_int_equal(m, MMCHAL_ENOSPC);
	assert_true(strlen(small) < sizeof(small));
	assert_int_equal(small[strlen(small) - 1], '\n');
	assert_memory_equal(small, buf, strlen(small));
	assert_int_equal(mmchal_host_explain(&g.host, buf, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_explain(&g.host, NULL, 10), MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_explain(NULL, buf, 10), MMCHAL_EINVAL);
}

/* strstr / strchr for the portable runner */
static const char *find_str(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return hay;
	return NULL;
}

static const char *find_ch(const char *s, char c)
{
	for (; *s; s++)
		if (*s == c)
			return s;
	return NULL;
}

/* The stats part of the explanation, exactly: every counter, every plan
 * with its reasons, the not-bounced causes, the errors by kind and the
 * resources, in this order. */
static void test_explain_stats_exact(void **state)
{
	static const char want[] = "requests: 2\n"
				   "completed: 2\n"
				   "bytes: 512\n"
				   "rejected (invalid): 0\n"
				   "rejected (busy): 0\n"
				   "timeouts: 0\n"
				   "aborts: 0\n"
				   "PIO retries: 0\n"
				   "IOMMU mappings the engine could not take: 0\n"
				   "requests the full checks validated: 0\n"
				   "data phases the full planner planned: 0\n"
				   "IOMMU mappings the full check examined: 0\n"
				   "IOMMU unmap errors: 0\n"
				   "plan PIO: 1\n"; /* a command without data has no plan */
	static char buf[4096];
	static struct mmchal_cmd c17 = {.opcode = 17, .flags = MMCHAL_RSP_R1};
	static unsigned char blk[512];
	struct mmchal_sg sg = {.cpu = blk, .phys = (uintptr_t)blk, .len = 512};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_request r = {.cmd = &c17, .data = &d};
	const char *p, *q;
	char line[160];
	int n;

	(void)state;
	fx_setup(&rec_ops_coherent);
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), 0);
	assert_int_equal(mmchal_host_request_sync(&g.host, &r, 0), 0);
	g.tb.fail_op = 13;
	g.tb.fail_ev = MMCHAL_EV_CMD_ERROR;
	g.tb.fail_err = MMCHAL_EILSEQ;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req13, 0), MMCHAL_EILSEQ);
	n = mmchal_host_explain(&g.host, buf, sizeof(buf));
	assert_true(n > 0);
	p = find_str(buf, "\nrequests: ");
	assert_non_null(p);
	p++;
	assert_memory_equal(p, want, sizeof(want) - 1u);
	p += sizeof(want) - 1u;
	/* the PIO reason line, then the other plans with nothing */
	q = find_ch(p, '\n');
	assert_non_null(q);
	assert_true((size_t)(q - p) < sizeof(line));
	memcpy(line, p, (size_t)(q - p));
	line[q - p] = 0;
	assert_string_equal(line + strlen(line) - 3, ": 1");
	assert_memory_equal(line, "  ", 2);
	p = q + 1;
	assert_true(strncmp(p, "plan DIRECT: 0\nplan IOMMU_MERGED: 0\nplan BOUNCED: 0\nfailed: ",
			    60) == 0);
	p += 60;
	assert_memory_equal(p, mmchal_strerror(MMCHAL_EILSEQ),
			    strlen(mmchal_strerror(MMCHAL_EILSEQ)));
	p += strlen(mmchal_strerror(MMCHAL_EILSEQ));
	assert_string_equal(p, ": 1\nIOVA pages mapped: 0\nIOVA pages mapped, peak: 0\n"
			       "bounce slots in use: 0\nbounce slots in use, peak: 0\n");
	/* truncated: the longest prefix of whole lines that fits with its NUL */
	for (size_t size = 1; size <= (size_t)n; size++) {
		static char out[4096];
		size_t len, next;

		assert_int_equal(mmchal_host_explain(&g.host, out, size), MMCHAL_ENOSPC);
		len = strlen(out);
		assert_memory_equal(out, buf, len);
		assert_true(len == 0 || out[len - 1] == '\n');
		next = (size_t)(find_ch(buf + len, '\n') - buf) + 1u; /* after the next line */
		assert_true(next + 1u > size);
	}
}

/* The configuration's values reach the host: the default cache line, the
 * data timeout, the card-change callback and the one-entry segment table;
 * a backend's positive error is EINVAL, a negative one passed through, and
 * a failed init leaves the host zeroed. */
static unsigned changes;
static void *change_arg;
static void on_change(void *arg)
{
	changes++;
	change_arg = arg;
}

static void test_init_takes_the_configuration(void **state)
{
	static struct mmchal_cmd c18 = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	static unsigned char blk[1024];
	struct mmchal_sg sg[2] = {{.cpu = blk, .phys = (uintptr_t)blk, .len = 512},
				  {.cpu = blk + 512, .phys = (uintptr_t)blk + 512, .len = 512}};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 2, .sg = sg, .sg_len = 2};
	struct mmchal_request r = {.cmd = &c18, .data = &d};
	static const unsigned char zero[sizeof(struct mmchal_host)];

	(void)state;
	fx_setup(&rec_ops_full);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, true);
	g.cfg.data_timeout_ms = 7;
	g.cfg.card_change = on_change;
	g.cfg.card_change_arg = &g;
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), 0);
	assert_int_equal(g.host.port.cache_line, MMCHAL_CACHE_LINE_DEFAULT);
	/* one table entry: one segment goes DIRECT, two cannot */
	d.blocks = 1;
	d.sg_len = 1;
	assert_int_equal(mmchal_host_request_sync(&g.host, &r, 100), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_DIRECT);
	assert_int_equal(g.tb.log[0].nsegs, 1);
	assert_int_equal(g.tb.log[0].seg0.addr, (uintptr_t)blk);
	d.blocks = 2;
	d.sg_len = 2;
	g.tb.nstart = 0;
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &r), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_PIO);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	g.rp.now += 6999999;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	g.rp.now += 1;
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(d.error, MMCHAL_ETIMEDOUT);
	g.tb.pending = MMCHAL_EV_CARD_CHANGE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(changes, 1);
	assert_ptr_equal(change_arg, &g);
	/* values at the top of each enum are accepted, tuning only for 19 and 21 */
	assert_int_equal(
		mmchal_host_core_ops.set_ios(
			&g.host, &(struct mmchal_ios){.bus_width = MMCHAL_BUS_WIDTH_8,
						      .timing = MMCHAL_TIMING_MMC_HS400,
						      .power_mode = MMCHAL_POWER_ON,
						      .signal_voltage = MMCHAL_SIGNAL_120}),
		0);
	assert_int_equal(mmchal_host_core_ops.execute_tuning(&g.host, 19), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_core_ops.execute_tuning(&g.host, 21), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_core_ops.execute_tuning(&g.host, 20), MMCHAL_EINVAL);
	mmchal_host_deinit(&g.host);
	assert_int_equal(mmchal_host_request(&g.host, &req13), MMCHAL_EINVAL);
	/* a positive error from the backend is not success; the host is zeroed */
	g.tb.probe_err = 5;
	memset(&g.host, 0xa5, sizeof(g.host));
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), MMCHAL_EINVAL);
	assert_memory_equal(&g.host, zero, sizeof(zero));
	g.tb.probe_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), MMCHAL_ENOMEDIUM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_rejects_bad_args),
		cmocka_unit_test(test_init_backend_errors),
		cmocka_unit_test(test_init_derives_limits),
		cmocka_unit_test(test_two_hosts_are_independent),
		cmocka_unit_test(test_ops_forward_and_refuse_in_flight),
		cmocka_unit_test(test_deinit_aborts_in_flight),
		cmocka_unit_test(test_stats_and_explain),
		cmocka_unit_test(test_explain_stats_exact),
		cmocka_unit_test(test_init_takes_the_configuration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
