/*
 * IOVA allocator benchmark: the workloads of BENCH.md ("IOVA allocator
 * workloads"), exactly: splitmix64, the seeds, sizes, limits and structure
 * of the table there.
 *
 * Per workload and size it prints one line:
 *   iova W1 n=1000000 median_ns=812.4 p999_ns=5400 max_visits=61 populate_s=0.31
 * median_ns: median over 5 runs of (run time / ops); p999_ns: 99.9th
 * percentile of the per-op time over all runs, measured per batch of ops
 * (1 op per sample would mostly measure the clock; the batch is printed);
 * max_visits: most tree nodes one operation visited; populate_s: median
 * populate time. --verify checks every invariant after each phase.
 *
 * usage: bench_iova [--verify] [--small-pages] [--runs R] [--workload W1|W1S|W2|W3|W4a|W4b]
 *                   [--n N]
 * --small-pages: node pool in ordinary 4 KiB pages (see pool_alloc).
 */
#include <mmchal/error.h>
#include <mmchal/iova.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/mman.h>

#define LIM32     ((UINT64_C(1) << 20) - 1u)
#define LIM48     ((UINT64_C(1) << 36) - 1u)
#define LIM64     ((UINT64_C(1) << 52) - 1u)
#define FIRST_PFN 1u
#define M_OPS     1000000u

enum kind { K_W1, K_W2, K_W4 };

struct workload {
	const char *name;
	enum kind kind;
	uint64_t seed;
	uint64_t limit;
	int size_k;         /* size_logu(k) or size_pow2(k) parameter */
	int pow2;           /* sizes from size_pow2 */
	int aligned;        /* size_aligned */
	uint64_t ns[4];     /* N or K values; 0 terminates */
	uint64_t ops;       /* M */
	unsigned int batch; /* ops per timing sample */
};

static const struct workload workloads[] = {
	{"W1", K_W1, 0x5EED0001u, LIM48, 9, 0, 0, {1000, 10000, 100000, 1000000}, M_OPS, 16},
	{"W1S", K_W1, 0x5EED0011u, LIM32, 9, 0, 0, {1000, 5000, 0, 0}, M_OPS, 16},
	{"W2", K_W2, 0x5EED0002u, LIM64, 0, 0, 1, {1000, 10000, 100000, 0}, M_OPS, 64},
	{"W3", K_W1, 0x5EED0003u, LIM48, 10, 1, 1, {1000, 10000, 100000, 1000000}, M_OPS, 16},
	{"W4a", K_W4, 0x5EED0004u, LIM32, 6, 1, 1, {0, 0, 0, 0}, 20000000u, 1024},
	{"W4b", K_W4, 0x5EED0005u, LIM32, 8, 1, 1, {0, 0, 0, 0}, 5000000u, 1024},
};

static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/*
 * The size and index draws are inlined into loops specialised per workload
 * (see run_ops) so that "% k" and "% n" are divisions by constants, which the
 * compiler turns into multiplications; the numbers drawn are the same as
 * BENCH.md's definitions, only computed faster, so that the figures measure
 * the allocator rather than a 64-bit divide per draw.
 */
static inline uint64_t size_logu(uint64_t k)
{
	uint64_t e = rng() % k;
	uint64_t p = UINT64_C(1) << e;

	return p + rng() % p;
}

static inline uint64_t size_pow2(uint64_t k)
{
	return UINT64_C(1) << (rng() % k);
}

static inline uint64_t next_size(const struct workload *w)
{
	if (w->kind == K_W2)
		return 1;
	return w->pow2 ? size_pow2((uint64_t)w->size_k) : size_logu((uint64_t)w->size_k);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int verify;

static void die(const char *what, int err)
{
	fprintf(stderr, "bench_iova: %s: %s\n", what, mmchal_strerror(err));
	exit(1);
}

static void check_phase(const struct mmchal_iova *v, const char *phase)
{
	int ret;

	if (!verify)
		return;
	ret = mmchal_iova_check(v);
	if (ret)
		die(phase, ret);
}

struct run_result {
	double ns_per_op;
	double populate_s;
	uint32_t max_visits;
	uint64_t hits;
	uint64_t misses;
	uint64_t digest;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The timed ops of one run. Always inlined into run_ops with the workload's
 * size parameter and live count as constants, so that every "%" below is by
 * a constant (a multiplication, not a 64-bit divide).
 */
static inline __attribute__((always_inline)) void ops_loop(const struct workload *w,
							   struct mmchal_iova *v, enum kind kind,
							   int pow2, uint64_t k, uint64_t n,
							   uint64_t *live, uint64_t *sizes,
							   double *samples, size_t *nsamples)
{
	double tb = now_s();
	unsigned int b = 0;
	uint64_t j, next = kind == K_W1 ? rng() % n : 0;
	int ret;

	for (j = 0; j < w->ops; j++) {
		uint64_t idx, s;

		switch (kind) {
		case K_W1:
			/* The draws in BENCH.md's order (index, size, next
			 * index, ...), one index ahead so that the random read
			 * of live[] (8 MB at N = 10^6) for the next op is
			 * requested now; the harness' own cache miss is not the
			 * allocator's cost. */
			idx = next;
			s = pow2 ? size_pow2(k) : size_logu(k);
			next = rng() % n;
			__builtin_prefetch(&live[next]);
			ret = mmchal_iova_free(v, live[idx]);
			if (ret)
				die("free", ret);
			ret = mmchal_iova_alloc(v, s, w->limit, w->aligned, &live[idx]);
			if (ret)
				die("alloc", ret);
			break;
		case K_W2:
			idx = n + (j % 32u);
			if (sizes[idx]) {
				ret = mmchal_iova_free(v, live[idx]);
				if (ret)
					die("free", ret);
			}
			ret = mmchal_iova_alloc(v, 1, w->limit, true, &live[idx]);
			if (ret)
				die("alloc", ret);
			sizes[idx] = 1;
			break;
		case K_W4:
			idx = j % 256u;
			if (sizes[idx]) {
				ret = mmchal_iova_free_cached(v, live[idx], sizes[idx]);
				if (ret)
					die("free_cached", ret);
			}
			s = size_pow2(k);
			ret = mmchal_iova_alloc_cached(v, s, w->limit, true, &live[idx]);
			if (ret)
				die("alloc_cached", ret);
			sizes[idx] = s;
			break;
		}
		if (++b == w->batch) {
			double t = now_s();

			samples[(*nsamples)++] = (t - tb) * 1e9 / (double)b;
			tb = t;
			b = 0;
		}
	}
}

#define W1_N(N)                                                                         \
	case N:                                                                         \
		if (w->pow2)                                                            \
			ops_loop(w, v, K_W1, 1, 10, N, live, sizes, samples, nsamples); \
		else                                                                    \
			ops_loop(w, v, K_W1, 0, 9, N, live, sizes, samples, nsamples);  \
		return

/* Dispatch to a copy of ops_loop specialised for the workload. */
static void run_ops(const struct workload *w, struct mmchal_iova *v, uint64_t n, uint64_t *live,
		    uint64_t *sizes, double *samples, size_t *nsamples)
{
	switch (w->kind) {
	case K_W2:
		ops_loop(w, v, K_W2, 0, 1, n, live, sizes, samples, nsamples);
		return;
	case K_W4:
		if (w->size_k == 6)
			ops_loop(w, v, K_W4, 1, 6, n, live, sizes, samples, nsamples);
		else if (w->size_k == 8)
			ops_loop(w, v, K_W4, 1, 8, n, live, sizes, samples, nsamples);
		else
			ops_loop(w, v, K_W4, 1, (uint64_t)w->size_k, n, live, sizes, samples,
				 nsamples);
		return;
	case K_W1:
		if ((w->pow2 && w->size_k != 10) || (!w->pow2 && w->size_k != 9))
			break;
		switch (n) {
			W1_N(1000);
			W1_N(5000);
			W1_N(10000);
			W1_N(100000);
			W1_N(1000000);
		default:
			break;
		}
		break;
	}
	/* Any other parameters: the generic (runtime-divisor) loop. */
	ops_loop(w, v, w->kind, w->pow2, (uint64_t)w->size_k, n, live, sizes, samples, nsamples);
}

static int small_pages;

/*
 * The node pool. Unless --small-pages, it is backed by 2 MiB pages where the
 * kernel offers them (transparent huge pages on madvise): a kernel allocator
 * works in the kernel's linear map, which uses large pages, and a firmware
 * or RTOS pool has no translation at all; with 4 KiB pages a pool of tens
 * of MiB adds a TLB miss and page walk to every node visited, which measures
 * the host's paging rather than the allocator.
 */
static void *pool_alloc(size_t bytes)
{
	const size_t huge = (size_t)2 << 20;
	void *p;

	if (small_pages)
		return aligned_alloc(64, (bytes + 63u) & ~(size_t)63u);
	bytes = (bytes + huge - 1u) & ~(huge - 1u);
	p = aligned_alloc(huge, bytes);
#ifdef MADV_HUGEPAGE
	if (p)
		(void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

/* One run: fresh allocator, populate, then the timed ops. */
static void run_once(const struct workload *w, uint64_t n, double *samples, size_t *nsamples,
		     struct run_result *res)
{
	static struct mmchal_iova v;
	struct mmchal_iova_cfg cfg;
	struct mmchal_iova_stats st;
	uint64_t live_max = (w->kind == K_W1 ? n : w->kind == K_W2 ? n + 32u : 256u) + 64u;
	size_t pool_bytes = MMCHAL_IOVA_POOL_BYTES(live_max);
	uint64_t *live, *sizes;
	size_t cache_bytes = 0;
	void *pool, *cache = NULL;
	double t0, t1;
	uint64_t j;
	int ret;

	memset(&cfg, 0, sizeof(cfg));
	pool = pool_alloc(pool_bytes);
	if (w->kind == K_W4) {
		cache_bytes = MMCHAL_IOVA_CACHE_BYTES(MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT, 128u);
		cache = aligned_alloc(64, cache_bytes);
	}
	live = calloc(live_max, sizeof(*live));
	sizes = calloc(live_max, sizeof(*sizes));
	if (!pool || !live || !sizes || (w->kind == K_W4 && !cache)) {
		fprintf(stderr, "bench_iova: out of memory\n");
		exit(1);
	}
	cfg.aperture_start = FIRST_PFN;
	cfg.aperture_end = LIM64;
	cfg.node_mem = pool;
	cfg.node_mem_size = pool_bytes;
	cfg.cache_mem = cache;
	cfg.cache_mem_size = cache_bytes;
	cfg.cache_depth = cache ? 128u : 0u;
	ret = mmchal_iova_init(&v, &cfg);
	if (ret)
		die("init", ret);
	rng_state = w->seed;

	/* Populate. */
	t0 = now_s();
	for (j = 0; j < (w->kind == K_W4 ? 0 : n); j++) {
		uint64_t s = next_size(w);

		ret = mmchal_iova_alloc(&v, s, w->limit, w->aligned, &live[j]);
		if (ret)
			die("populate", ret);
		sizes[j] = s;
	}
	res->populate_s = now_s() - t0;
	check_phase(&v, "after populate");
	mmchal_iova_reset_stats(&v);

	/* Timed ops. */
	t0 = now_s();
	run_ops(w, &v, n, live, sizes, samples, nsamples);
	t1 = now_s();
	res->ns_per_op = (t1 - t0) * 1e9 / (double)w->ops;
	mmchal_iova_get_stats(&v, &st);
	res->max_visits = st.max_visits;
	res->hits = st.cache_hits;
	res->misses = st.cache_misses;
	/* Where every live range ended up: the placement policy (highest fit
	 * below the limit) is exact, so any correct allocator gives the same
	 * digest for the same workload. */
	res->digest = UINT64_C(0xCBF29CE484222325);
	for (j = 0; j < live_max; j++)
		res->digest = (res->digest ^ live[j]) * UINT64_C(0x100000001B3);
	check_phase(&v, "after ops");
	if (w->kind == K_W4) {
		mmchal_iova_cache_flush(&v);
		check_phase(&v, "after cache flush");
	}
	free(pool);
	free(cache);
	free(live);
	free(sizes);
}

static void run_case(const struct workload *w, uint64_t n, int runs)
{
	size_t cap = (size_t)runs * (w->ops / w->batch + 1u), ns = 0;
	double *samples = malloc(cap * sizeof(double));
	double med[16], pop[16];
	uint32_t maxv = 0;
	uint64_t hits = 0, misses = 0, digest = 0;

	if (!samples) {
		fprintf(stderr, "bench_iova: out of memory\n");
		exit(1);
	}
	for (int r = 0; r < runs; r++) {
		struct run_result res;

		run_once(w, n, samples, &ns, &res);
		med[r] = res.ns_per_op;
		pop[r] = res.populate_s;
		if (res.max_visits > maxv)
			maxv = res.max_visits;
		hits += res.hits;
		misses += res.misses;
		digest = res.digest;
	}
	qsort(med, (size_t)runs, sizeof(double), cmp_double);
	qsort(pop, (size_t)runs, sizeof(double), cmp_double);
	qsort(samples, ns, sizeof(double), cmp_double);
	printf("iova %s n=%" PRIu64 " median_ns=%.1f p999_ns=%.0f max_visits=%" PRIu32
	       " populate_s=%.2f ops_per_s=%.0f batch=%u",
	       w->name, n, med[runs / 2], samples[(size_t)((double)(ns - 1u) * 0.999)], maxv,
	       pop[runs / 2], 1e9 / med[runs / 2], w->batch);
	if (w->kind == K_W4)
		printf(" cache_hit_pct=%.3f", 100.0 * (double)hits / (double)(hits + misses));
	printf(" digest=%016" PRIx64, digest);
	printf("%s\n", verify ? " verified" : "");
	fflush(stdout);
	free(samples);
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	uint64_t only_n = 0;
	int runs = 5, found = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--verify")) {
			verify = 1;
		} else if (!strcmp(argv[i], "--small-pages")) {
			small_pages = 1;
		} else if (!strcmp(argv[i], "--workload") && i + 1 < argc) {
			only = argv[++i];
		} else if (!strcmp(argv[i], "--n") && i + 1 < argc) {
			only_n = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			runs = atoi(argv[++i]);
			if (runs < 1 || runs > 16)
				runs = 5;
		} else {
			fprintf(stderr,
				"usage: %s [--verify] [--small-pages] [--runs R] [--workload W] "
				"[--n N]\n",
				argv[0]);
			return 2;
		}
	}
	for (size_t w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++) {
		const struct workload *wl = &workloads[w];

		if (only && strcmp(only, wl->name) != 0)
			continue;
		if (wl->kind == K_W4) {
			found = 1;
			run_case(wl, 0, runs);
			continue;
		}
		for (int i = 0; i < 4 && wl->ns[i]; i++) {
			if (only_n && only_n != wl->ns[i])
				continue;
			found = 1;
			run_case(wl, wl->ns[i], runs);
		}
	}
	if (!found) {
		fprintf(stderr, "bench_iova: no such workload/size\n");
		return 2;
	}
	return 0;
}
