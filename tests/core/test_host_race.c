/*
 * Completion races with real threads (host only; run under ThreadSanitizer
 * by the tsan preset): per round, an interrupt, an expired timeout and an
 * abort hit one request at once; exactly one completion must come out, with
 * the error of whichever won, and the host must take the next request.
 * MMCHAL_RACE_ROUNDS overrides the 100 000 rounds. Then the counters: a
 * thread reads them while requests are mapped, completed and released
 * through an IOMMU domain or a bounce pool in another.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/bounce.h>
#include <mmchal/host_core.h>
#include <mmchal/iommu.h>

#include "core/host_fixture.h"

/* ------------------------------------------------------------ port */

struct tport {
	pthread_mutex_t mu;
	atomic_uint_fast64_t now;
	int works; /* deferred work run inline (under no lock) */
};

static mmchal_irqflags_t tp_lock(void *ctx)
{
	pthread_mutex_lock(&((struct tport *)ctx)->mu);
	return 1;
}

static void tp_unlock(void *ctx, mmchal_irqflags_t f)
{
	(void)f;
	pthread_mutex_unlock(&((struct tport *)ctx)->mu);
	/* let a waiting thread in between a transition and the work after it */
	sched_yield();
}

static uint64_t tp_now(void *ctx)
{
	return atomic_load(&((struct tport *)ctx)->now);
}

static void tp_delay(void *ctx, uint32_t us)
{
	atomic_fetch_add(&((struct tport *)ctx)->now, (uint64_t)us * 1000u);
}

static int tp_work(void *ctx, mmchal_work_fn fn, void *arg)
{
	(void)ctx;
	fn(arg);
	return 0;
}

static const struct mmchal_port_ops tport_ops = {
	.lock_irqsave = tp_lock,
	.unlock_irqrestore = tp_unlock,
	.now_ns = tp_now,
	.delay_us = tp_delay,
	.schedule_work = tp_work,
};

/* ------------------------------------------------------------ backend */

struct tbe {
	atomic_uint pending;     /* raised by the "hardware" thread */
	unsigned starts, aborts; /* under the host lock */
};

static int be_probe(void *ctx)
{
	(void)ctx;
	return 0;
}

static int be_caps(void *ctx, struct mmchal_host_caps *h, struct mmchal_dma_caps *d)
{
	(void)ctx;
	memset(h, 0, sizeof(*h));
	memset(d, 0, sizeof(*d));
	h->completion = MMCHAL_COMPLETES_IN_IRQ;
	d->kind = MMCHAL_DMA_NONE;
	return 0;
}

static int be_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	(void)ctx;
	(void)ios;
	return 0;
}

static int be_start(void *ctx, const struct mmchal_xfer *x)
{
	(void)x;
	((struct tbe *)ctx)->starts++;
	return 0;
}

static int be_irq(void *ctx, uint32_t *ev)
{
	*ev = atomic_exchange(&((struct tbe *)ctx)->pending, 0);
	return 0;
}

static int be_abort(void *ctx)
{
	((struct tbe *)ctx)->aborts++;
	return 0;
}

static const struct mmchal_backend_ops tbe_ops = {
	.name = "race",
	.probe = be_probe,
	.get_caps = be_caps,
	.set_ios = be_set_ios,
	.start = be_start,
	.handle_irq = be_irq,
	.abort = be_abort,
};

/* ------------------------------------------------------------ the race */

struct racer {
	struct tport tp;
	struct tbe be;
	struct mmchal_backend bed;
	struct mmchal_port port;
	struct mmchal_host host;
	struct mmchal_cmd cmd;
	struct mmchal_request req;
	atomic_int done;
	int err;
	pthread_barrier_t go, end;
	atomic_bool quit;
};

static struct racer R;

static void on_done(struct mmchal_request *r)
{
	R.err = r->cmd->error;
	atomic_fetch_add(&R.done, 1);
}

static void *irq_thread(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_barrier_wait(&R.go);
		if (atomic_load(&R.quit))
			return NULL;
		atomic_store(&R.be.pending, MMCHAL_EV_CMD_DONE);
		(void)mmchal_host_irq(&R.host);
		pthread_barrier_wait(&R.end);
	}
}

static void *timeout_thread(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_barrier_wait(&R.go);
		if (atomic_load(&R.quit))
			return NULL;
		atomic_fetch_add(&R.tp.now, 2000000000u); /* far past any deadline */
		(void)mmchal_host_poll(&R.host);
		pthread_barrier_wait(&R.end);
	}
}

static void *abort_thread(void *arg)
{
	int ret;

	(void)arg;
	for (;;) {
		pthread_barrier_wait(&R.go);
		if (atomic_load(&R.quit))
			return NULL;
		ret = mmchal_host_abort(&R.host);
		if (ret != 0 && ret != MMCHAL_ENOENT && ret != MMCHAL_EALREADY)
			atomic_fetch_add(&R.done, 100); /* fails the round */
		pthread_barrier_wait(&R.end);
	}
}

static void run_race(enum mmchal_completion_policy pol)
{
	struct mmchal_host_cfg cfg;
	struct mmchal_host_stats st;
	pthread_t th[3];
	unsigned long rounds = 100000;
	unsigned long won[3] = {0, 0, 0};
	const char *env = getenv("MMCHAL_RACE_ROUNDS");

	if (env)
		rounds = strtoul(env, NULL, 10);
	memset(&R, 0, sizeof(R));
	pthread_mutex_init(&R.tp.mu, NULL);
	R.bed.ops = &tbe_ops;
	R.bed.ctx = &R.be;
	R.port.ops = &tport_ops;
	R.port.ctx = &R.tp;
	memset(&cfg, 0, sizeof(cfg));
	cfg.backend = &R.bed;
	cfg.port = &R.port;
	cfg.policy.override = pol;
	assert_int_equal(mmchal_host_init(&R.host, &cfg), 0);
	assert_int_equal(mmchal_host_limits(&R.host)->policy, pol);
	pthread_barrier_init(&R.go, NULL, 4);
	pthread_barrier_init(&R.end, NULL, 4);
	assert_int_equal(pthread_create(&th[0], NULL, irq_thread, NULL), 0);
	assert_int_equal(pthread_create(&th[1], NULL, timeout_thread, NULL), 0);
	assert_int_equal(pthread_create(&th[2], NULL, abort_thread, NULL), 0);
	for (unsigned long i = 0; i < rounds; i++) {
		R.cmd = (struct mmchal_cmd){.opcode = 13, .flags = MMCHAL_RSP_R1};
		R.req = (struct mmchal_request){.cmd = &R.cmd, .done = on_done};
		atomic_store(&R.done, 0);
		R.err = 1;
		assert_int_equal(mmchal_host_request(&R.host, &R.req), 0);
		pthread_barrier_wait(&R.go);
		pthread_barrier_wait(&R.end);
		if (atomic_load(&R.done) != 1)
			fail_msg("round %lu: %d completions", i, atomic_load(&R.done));
		if (R.err == 0)
			won[0]++;
		else if (R.err == MMCHAL_ETIMEDOUT)
			won[1]++;
		else if (R.err == MMCHAL_ECANCELED)
			won[2]++;
		else
			fail_msg("round %lu: error %d", i, R.err);
	}
	atomic_store(&R.quit, true);
	pthread_barrier_wait(&R.go);
	for (int t = 0; t < 3; t++)
		pthread_join(th[t], NULL);
	assert_int_equal(mmchal_host_stats(&R.host, &st), 0);
	/* a race that one side always wins tests nothing */
	if (rounds >= 10000)
		assert_true(won[0] > 0 && won[1] > 0 && won[2] > 0);
	assert_int_equal(st.requests, rounds);
	assert_int_equal(st.completed, rounds);
	assert_int_equal(won[0] + won[1] + won[2], rounds);
	print_message("%s: %lu rounds, completed by the interrupt %lu, the timeout %lu, the "
		      "abort %lu\n",
		      mmchal_completion_policy_name(pol), rounds, won[0], won[1], won[2]);
	assert_int_equal(st.timeouts, won[1]);
	assert_int_equal(st.aborts, won[2]);
	assert_int_equal(R.be.starts, rounds);
	assert_int_equal(R.be.aborts, won[1] + won[2]);
	mmchal_host_deinit(&R.host);
	pthread_barrier_destroy(&R.go);
	pthread_barrier_destroy(&R.end);
	pthread_mutex_destroy(&R.tp.mu);
}

static void test_race_irq_split(void **state)
{
	(void)state;
	run_race(MMCHAL_POLICY_IRQ_SPLIT);
}

static void test_race_irq_locked(void **state)
{
	(void)state;
	run_race(MMCHAL_POLICY_IRQ_LOCKED);
}

static void test_race_deferred(void **state)
{
	(void)state;
	run_race(MMCHAL_POLICY_DEFERRED);
}

/* ------------------------------------------------------------ counters */

#define SR_POOL (16u * 2048u)

struct stats_racer {
	struct tport tp;
	struct tb tb;
	struct fiommu fi;
	struct mmchal_iommu iommu;
	struct mmchal_iommu_domain dom;
	struct mmchal_bounce bounce;
	struct mmchal_backend bed;
	struct mmchal_port port;
	struct mmchal_host host;
	atomic_bool quit;
	atomic_ulong reads;
	atomic_int bad; /* a read that broke a rule */
	uint32_t pages_max, slots_max;
};

static struct stats_racer S;
static _Alignas(4096) unsigned char sr_buf[2 * 4096];
static _Alignas(4096) unsigned char sr_pool[SR_POOL];
static uint32_t sr_meta[MMCHAL_BOUNCE_META_BYTES(16) / sizeof(uint32_t)];
static _Alignas(16) unsigned char sr_nodes[MMCHAL_IOVA_POOL_BYTES(16)];

static void *stats_thread(void *arg)
{
	struct mmchal_host_stats st;

	(void)arg;
	while (!atomic_load(&S.quit)) {
		if (mmchal_host_stats(&S.host, &st) != 0 || st.iova_pages > st.iova_pages_peak ||
		    st.iova_pages_peak > S.pages_max || st.bounce_slots > st.bounce_slots_peak ||
		    st.bounce_slots_peak > S.slots_max)
			atomic_fetch_add(&S.bad, 1);
		atomic_fetch_add(&S.reads, 1);
	}
	return NULL;
}

static void sr_done(struct mmchal_request *r)
{
	(void)r;
}

/*
 * One thread submits reads of 4 KiB (mapped through the domain, or bounced
 * from a buffer that is not page aligned) and completes each by calling the
 * interrupt entry; another reads the counters all the while. Under
 * ThreadSanitizer a read of the domain's or the pool's figures while the
 * submitter maps or releases is a reported race.
 */
static void run_stats_race(enum mmchal_completion_policy pol, bool bounce)
{
	struct mmchal_host_cfg cfg;
	struct mmchal_host_stats st;
	struct mmchal_cmd cmd;
	struct mmchal_data data;
	struct mmchal_sg sg[2];
	struct mmchal_request req;
	pthread_t th;
	unsigned long rounds = 20000;
	const char *env = getenv("MMCHAL_RACE_ROUNDS");

	if (env)
		rounds = strtoul(env, NULL, 10) / 5u + 1u;
	memset(&S, 0, sizeof(S));
	pthread_mutex_init(&S.tp.mu, NULL);
	tb_init(&S.tb);
	tb_set_dma(&S.tb, MMCHAL_DMA_INTERNAL, 1, true);
	S.bed.ops = &tb_ops;
	S.bed.ctx = &S.tb;
	S.port.ops = &tport_ops;
	S.port.ctx = &S.tp;
	memset(&cfg, 0, sizeof(cfg));
	cfg.backend = &S.bed;
	cfg.port = &S.port;
	cfg.policy.override = pol;
	if (bounce) {
		struct mmchal_bounce_cfg bc = {.mem = sr_pool,
					       .dma = (uintptr_t)sr_pool,
					       .size = sizeof(sr_pool),
					       .slots_per_map = 4,
					       .meta = sr_meta,
					       .meta_size = sizeof(sr_meta)};

		for (int d = 0; d < MMCHAL_DIR_COUNT; d++)
			S.tb.dma.dir[d].addr_align = 4096;
		assert_int_equal(mmchal_bounce_init(&S.bounce, &bc), 0);
		cfg.bounce = &S.bounce;
		S.slots_max = 2; /* 4 KiB in 2 KiB slots */
	} else {
		struct mmchal_iommu_domain_cfg dc = {.iommu = &S.iommu,
						     .node_mem = sr_nodes,
						     .node_mem_size = sizeof(sr_nodes),
						     .addr_bits = 32};

		S.iommu.ops = &fiommu_ops;
		S.iommu.ctx = &S.fi;
		assert_int_equal(mmchal_iommu_domain_init(&S.dom, &dc), 0);
		cfg.iommu = &S.dom;
		S.tb.host.merge_capable = true;
		S.pages_max = 2; /* the two pages the pieces lie in */
	}
	assert_int_equal(mmchal_host_init(&S.host, &cfg), 0);
	assert_int_equal(mmchal_host_core_ops.init_card(&S.host, MMCHAL_CARD_MMC), 0);
	assert_int_equal(mmchal_host_limits(&S.host)->policy, pol);
	assert_int_equal(pthread_create(&th, NULL, stats_thread, NULL), 0);
	/* the reader is running before the first request (on a loaded machine
	 * the whole loop could otherwise end before it is scheduled) */
	while (atomic_load(&S.reads) == 0)
		sched_yield();
	for (unsigned long i = 0; i < rounds; i++) {
		cmd = (struct mmchal_cmd){.opcode = 17, .flags = MMCHAL_RSP_R1};
		if (bounce) {
			sg[0] = (struct mmchal_sg){.cpu = sr_buf + 512,
						   .phys = (uintptr_t)(sr_buf + 512),
						   .len = 4096};
		} else {
			/* two pieces that meet at a page boundary: one device segment */
			sg[0] = (struct mmchal_sg){.cpu = sr_buf + 2048,
						   .phys = (uintptr_t)(sr_buf + 2048),
						   .len = 2048};
			sg[1] = (struct mmchal_sg){.cpu = sr_buf + 4096,
						   .phys = (uintptr_t)(sr_buf + 4096),
						   .len = 2048};
		}
		data = (struct mmchal_data){.dir = MMCHAL_DIR_FROM_CARD,
					    .blksz = 512,
					    .blocks = 8,
					    .sg = sg,
					    .sg_len = bounce ? 1 : 2};
		req = (struct mmchal_request){.cmd = &cmd, .data = &data, .done = sr_done};
		assert_int_equal(mmchal_host_request(&S.host, &req), 0);
		assert_int_equal(mmchal_host_irq(&S.host), 1);
		if (cmd.error != 0 || data.error != 0 || data.bytes_xfered != 4096)
			fail_msg("round %lu: %d %d %u", i, cmd.error, data.error,
				 (unsigned)data.bytes_xfered);
	}
	atomic_store(&S.quit, true);
	pthread_join(th, NULL);
	assert_int_equal(atomic_load(&S.bad), 0);
	/* quiet now: the figures are read, and nothing is left mapped */
	assert_int_equal(mmchal_host_stats(&S.host, &st), 0);
	assert_int_equal(st.completed, rounds);
	assert_int_equal(st.plan[bounce ? MMCHAL_PLAN_BOUNCED : MMCHAL_PLAN_IOMMU_MERGED], rounds);
	assert_int_equal(st.iova_pages, 0);
	assert_int_equal(st.iova_pages_peak, S.pages_max);
	assert_int_equal(st.bounce_slots, 0);
	assert_int_equal(st.bounce_slots_peak, S.slots_max);
	print_message("%s, %s: %lu requests, %lu counter reads\n",
		      mmchal_completion_policy_name(pol), bounce ? "bounce pool" : "IOMMU domain",
		      rounds, atomic_load(&S.reads));
	mmchal_host_deinit(&S.host);
	pthread_mutex_destroy(&S.tp.mu);
}

static void test_stats_race_iommu_split(void **state)
{
	(void)state;
	run_stats_race(MMCHAL_POLICY_IRQ_SPLIT, false);
}

static void test_stats_race_iommu_deferred(void **state)
{
	(void)state;
	run_stats_race(MMCHAL_POLICY_DEFERRED, false);
}

static void test_stats_race_bounce_split(void **state)
{
	(void)state;
	run_stats_race(MMCHAL_POLICY_IRQ_SPLIT, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_race_irq_split),
		cmocka_unit_test(test_race_irq_locked),
		cmocka_unit_test(test_race_deferred),
		cmocka_unit_test(test_stats_race_iommu_split),
		cmocka_unit_test(test_stats_race_iommu_deferred),
		cmocka_unit_test(test_stats_race_bounce_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
