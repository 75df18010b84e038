/*
 * libFuzzer target: the input drives alloc / free / find / cached calls on a
 * small IOVA allocator and the merge policy; every allocator result is
 * compared with the reference model and the invariants are checked.
 * Any difference aborts (a finding).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/error.h>
#include <mmchal/iommu.h>
#include <mmchal/iova.h>

#include "iova_ref.h"

#define LIVE_MAX 300u

static uint64_t pool[MMCHAL_IOVA_POOL_BYTES(LIVE_MAX) / 8u];
static uint64_t cache[MMCHAL_IOVA_CACHE_BYTES(64, 4) / 8u];
static struct iova_ref ref;
static struct mmchal_iova v;

struct in {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct in *in, unsigned int bytes)
{
	uint64_t x = 0;

	for (unsigned int i = 0; i < bytes && in->n; i++, in->p++, in->n--)
		x = x << 8 | *in->p;
	return x;
}

static void must(int cond)
{
	if (!cond)
		abort();
}

static void fuzz_merge(struct in *in)
{
	struct mmchal_sg sg[4];
	struct mmchal_iommu_caps caps;
	struct mmchal_merge_info info;
	uint32_t nsg = (uint32_t)(take(in, 1) % 5u);
	enum mmchal_merge_reason r;

	memset(&caps, 0, sizeof(caps));
	caps.present = take(in, 1) & 1u;
	if (caps.present) {
		caps.page_size = 1u << (take(in, 1) % 20u);
		caps.merge_boundary = take(in, 1) & 1u ? caps.page_size - 1u : 0u;
		caps.max_map_size = take(in, 4);
	}
	for (uint32_t i = 0; i < nsg; i++) {
		sg[i].cpu = NULL;
		sg[i].phys = take(in, 8);
		sg[i].len = (uint32_t)take(in, 4);
	}
	r = mmchal_merge_check(sg, nsg, &caps, (enum mmchal_card_type)(take(in, 1) % 6u), &info);
	must(r == info.reason);
	if (r == MMCHAL_MERGE_OK) {
		uint64_t total = 0, mask = caps.merge_boundary;

		for (uint32_t i = 0; i < nsg; i++) {
			must(sg[i].len != 0);
			must(i == 0 || (sg[i].phys & mask) == 0);
			must(i + 1u == nsg || ((sg[i].phys + sg[i].len) & mask) == 0);
			total += sg[i].len;
		}
		must(total == info.total && total <= UINT32_MAX);
		must(caps.max_map_size == 0 || info.map_size <= caps.max_map_size);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mmchal_iova_cfg cfg;
	struct in in = {data, size};
	uint64_t ap_end = 64u + take(&in, 2);

	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = 1;
	cfg.aperture_end = ap_end;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	must(mmchal_iova_init(&v, &cfg) == 0);
	iova_ref_init(&ref, 1, ap_end);
	while (in.n) {
		uint64_t op = take(&in, 1), a = 0, b = 0, na = 0, nb = 0;

		switch (op % 5u) {
		case 0:
		case 1: {
			uint64_t np = 1u + take(&in, 1) % 70u, lim = take(&in, 2);
			bool al = op & 0x80u;
			int ra, rb;

			if (ref.n >= LIVE_MAX)
				break;
			ra = mmchal_iova_alloc(&v, np, lim, al, &a);
			rb = iova_ref_alloc(&ref, np, lim, al, &b);
			must(ra == rb && (ra != 0 || a == b));
			break;
		}
		case 2: {
			uint64_t s = ref.n ? ref.s[take(&in, 2) % ref.n] : take(&in, 2);

			if (op & 0x80u)
				s = take(&in, 2);
			must(mmchal_iova_free(&v, s) == iova_ref_free(&ref, s, &nb));
			break;
		}
		case 3: {
			uint64_t p = take(&in, 2);
			int ra = mmchal_iova_find(&v, p, &a, &na);

			must(ra == iova_ref_find(&ref, p, &b, &nb));
			must(ra != 0 || (a == b && na == nb));
			break;
		}
		default:
			fuzz_merge(&in);
			break;
		}
		must(iova_ref_compare(&ref, &v) == 0);
	}
	/* The cache on top of the same tree: flush gives everything back. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.aperture_start = 1;
	cfg.aperture_end = ap_end;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	cfg.cache_mem = cache;
	cfg.cache_mem_size = sizeof(cache);
	cfg.cache_max_pages = 64;
	cfg.cache_depth = 4;
	must(mmchal_iova_init(&v, &cfg) == 0);
	for (size_t i = 0; i + 1u < size && i < 512u; i += 2u) {
		uint64_t np = 1u + data[i] % 70u, s;

		if (mmchal_iova_alloc_cached(&v, np, ap_end, data[i + 1] & 1u, &s) == 0 &&
		    (data[i + 1] & 2u))
			must(mmchal_iova_free_cached(&v, s, np) == 0);
	}
	must(mmchal_iova_check(&v) == 0);
	must(mmchal_iova_cache_flush(&v) == 0);
	must(mmchal_iova_check(&v) == 0);
	return 0;
}
