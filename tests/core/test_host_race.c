/*
 * Completion races with real threads (host only; run under ThreadSanitizer
 * by the tsan preset): per round, an interrupt, an expired timeout and an
 * abort hit one request at once; exactly one completion must come out, with
 * the error of whichever won, and the host must take the next request.
 * MMCHAL_RACE_ROUNDS overrides the 100 000 rounds.
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

#include <mmchal/host_core.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_race_irq_split),
		cmocka_unit_test(test_race_irq_locked),
		cmocka_unit_test(test_race_deferred),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
