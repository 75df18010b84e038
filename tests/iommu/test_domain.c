/*
 * Tests of the IOMMU domain (src/iommu/domain.c) against a fake IOMMU that
 * keeps a page table, checks every call, and can fail on its k-th mapped
 * page or on a flush: every failure must leave no page mapped and no IOVA
 * reserved.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/error.h>
#include <mmchal/iommu.h>

#define P        4096u
#define AP_FIRST 16u /* first aperture page */
#define AP_PAGES 64u

struct op {
	char kind; /* 'M'ap, 'U'nmap, 'F'lush */
	uint64_t iova;
	uint64_t size;
	bool live; /* the IOVA was still reserved when the op ran */
};

struct fake {
	struct mmchal_iommu_caps caps;
	uint32_t page;           /* IOMMU page size of this run */
	uint64_t phys[AP_PAGES]; /* 0 = unmapped */
	uint32_t prot[AP_PAGES];
	uint32_t mapped;
	uint32_t pages_seen;    /* pages handed to map so far */
	uint32_t fail_at;       /* fail on this page number (1-based); 0 = never */
	int fail_flush;         /* every flush fails */
	uint32_t flush_fail_at; /* only this flush (1-based) fails */
	int fail_unmap;         /* every unmap fails (nothing is unmapped) */
	uint32_t unmap_failed;  /* unmaps failed so far */
	int partial_caps;       /* get_caps fills only what it knows */
	int caps_ret;           /* get_caps result */
	int err;                /* what a failing op returns */
	uint32_t flushes;
	uint32_t bad_calls; /* calls outside the aperture or misaligned */
	struct op log[64];
	uint32_t nlog;
};

static struct fake fk;
static struct mmchal_iommu_domain dom;

static void log_op(struct fake *f, char kind, uint64_t iova, uint64_t size)
{
	uint64_t s, n;

	if (f->nlog < sizeof(f->log) / sizeof(f->log[0])) {
		f->log[f->nlog].kind = kind;
		f->log[f->nlog].iova = iova;
		f->log[f->nlog].size = size;
		f->log[f->nlog].live = mmchal_iova_find(&dom.iova, iova / f->page, &s, &n) == 0;
	}
	f->nlog++;
}

static bool out_of_aperture(const struct fake *f, uint64_t iova, uint64_t size)
{
	uint64_t m = f->page - 1u;

	return ((iova | size) & m) != 0 || iova / f->page < AP_FIRST ||
	       iova / f->page + size / f->page > AP_FIRST + AP_PAGES;
}

static int f_get_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	const struct fake *f = ctx;

	if (f->partial_caps) {
		/* A driver that sets only the fields it has: the rest must read 0. */
		caps->present = f->caps.present;
		caps->page_size = f->caps.page_size;
		caps->merge_boundary = f->caps.merge_boundary;
	} else {
		*caps = f->caps;
	}
	return f->caps_ret;
}

static int f_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
		 uint32_t prot)
{
	struct fake *f = ctx;

	log_op(f, 'M', iova, size);
	if ((phys & (f->page - 1u)) != 0 || out_of_aperture(f, iova, size)) {
		f->bad_calls++;
		return MMCHAL_EINVAL;
	}
	for (uint64_t i = 0; i < size / f->page; i++) {
		uint64_t idx = iova / f->page - AP_FIRST + i;

		if (++f->pages_seen == f->fail_at)
			return f->err; /* pages before this one stay mapped */
		if (f->phys[idx])
			f->bad_calls++; /* double map */
		f->phys[idx] = phys + i * f->page;
		f->prot[idx] = prot;
		f->mapped++;
	}
	return 0;
}

static int f_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct fake *f = ctx;

	log_op(f, 'U', iova, size);
	if (out_of_aperture(f, iova, size)) {
		f->bad_calls++;
		return MMCHAL_EINVAL;
	}
	if (f->fail_unmap)
		return f->err - (int)f->unmap_failed++; /* a different error per call */
	for (uint64_t i = 0; i < size / f->page; i++) {
		uint64_t idx = iova / f->page - AP_FIRST + i;

		if (f->phys[idx]) {
			f->phys[idx] = 0;
			f->mapped--;
		}
	}
	return 0;
}

static int f_flush(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct fake *f = ctx;

	log_op(f, 'F', iova, size);
	if (out_of_aperture(f, iova, size))
		f->bad_calls++;
	f->flushes++;
	if (f->fail_flush || f->flushes == f->flush_fail_at)
		return f->err;
	return 0;
}

/* The next logged op is exactly this one. */
static void expect_op(uint32_t *k, char kind, uint64_t iova, uint64_t size, bool live)
{
	assert_true(*k < fk.nlog);
	assert_int_equal(fk.log[*k].kind, kind);
	assert_int_equal(fk.log[*k].iova, iova);
	assert_int_equal(fk.log[*k].size, size);
	assert_int_equal(fk.log[*k].live, live);
	(*k)++;
}

static const struct mmchal_iommu_ops fops = {f_get_caps, f_map, f_unmap, f_flush};
static const struct mmchal_iommu_ops fops_noflush = {f_get_caps, f_map, f_unmap, NULL};
static const struct mmchal_iommu_ops fops_nomap = {f_get_caps, NULL, f_unmap, f_flush};
static struct mmchal_iommu fiommu = {&fops, &fk};
static uint64_t pool[MMCHAL_IOVA_POOL_BYTES(64) / 8u];

/* Memory-to-card list: 0x800 bytes at the end of a page, 2 whole pages, 100 bytes. */
static const struct mmchal_sg list3[] = {
	{NULL, 0x10000800, P - 0x800}, {NULL, 0x20000000, 2u * P}, {NULL, 0x30000000, 100}};
/* SDIO-like buffers: not page aligned, cannot merge. */
static const struct mmchal_sg sdio[] = {
	{NULL, 0x40000010, 1500}, {NULL, 0x40000ff0, 1500}, {NULL, 0x50000000, 3u * P}};

static void setup_domain(const struct mmchal_iommu_ops *ops)
{
	struct mmchal_iommu_domain_cfg cfg;

	memset(&fk, 0, sizeof(fk));
	fk.page = P;
	fk.err = MMCHAL_EFAULT;
	fk.caps.present = true;
	fk.caps.page_size = P;
	fk.caps.merge_boundary = P - 1u;
	fk.caps.aperture_start = AP_FIRST * P;
	fk.caps.aperture_end = (AP_FIRST + AP_PAGES) * P - 1u;
	fiommu.ops = ops;
	memset(&cfg, 0, sizeof(cfg));
	cfg.iommu = &fiommu;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), 0);
}

/* A fresh domain over fops with the sdio buffers mapped one by one, to the card. */
static void map_sdio(struct mmchal_iommu_mapping *map, struct mmchal_dma_seg out[3])
{
	setup_domain(&fops);
	memset(map, 0, sizeof(*map));
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, map, out), 0);
}

static void init_with(uint8_t addr_bits, void *cache, size_t cache_size, int want)
{
	struct mmchal_iommu_domain_cfg cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.iommu = &fiommu;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	cfg.addr_bits = addr_bits;
	cfg.cache_mem = cache;
	cfg.cache_mem_size = cache_size;
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), want);
}

static void assert_clean(void)
{
	struct mmchal_iova_stats st;
	struct mmchal_iommu_domain_stats ds;

	assert_int_equal(fk.mapped, 0);
	assert_int_equal(fk.bad_calls, 0);
	assert_int_equal(mmchal_iova_get_stats(&dom.iova, &st), 0);
	assert_int_equal(st.live_ranges, 0);
	assert_int_equal(mmchal_iommu_domain_get_stats(&dom, &ds), 0);
	assert_int_equal(ds.pages_mapped, 0);
	assert_int_equal(mmchal_iova_check(&dom.iova), 0);
}

static void test_init_errors(void **state)
{
	struct mmchal_iommu_domain_cfg cfg;

	(void)state;
	setup_domain(&fops);
	memset(&cfg, 0, sizeof(cfg));
	cfg.iommu = &fiommu;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	assert_int_equal(mmchal_iommu_domain_init(NULL, &cfg), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_domain_init(&dom, NULL), MMCHAL_EINVAL);
	fiommu.ops = &fops_nomap;
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), MMCHAL_EINVAL);
	fiommu.ops = &fops;
	fk.caps.page_size = 3000;
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), MMCHAL_EINVAL);
	fk.caps.page_size = P;
	fk.caps.merge_boundary = 100;
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), MMCHAL_EINVAL);
	fk.caps.merge_boundary = P - 1u;
	fk.caps.present = false;
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), MMCHAL_EINVAL);
	fk.caps.present = true;
	fk.caps.aperture_end = fk.caps.aperture_start + 100u; /* less than one page */
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), MMCHAL_EINVAL);
	fk.caps.aperture_end = (AP_FIRST + AP_PAGES) * P - 1u;
	cfg.node_mem_size = 8;
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), MMCHAL_EINVAL);
	cfg.node_mem_size = sizeof(pool);
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), 0);
}

static void test_merged_to_card(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_iommu_caps caps;
	struct mmchal_dma_seg out;
	struct mmchal_merge_info info;
	uint64_t base;

	(void)state;
	setup_domain(&fops);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, &out, &info),
			 0);
	assert_int_equal(info.reason, MMCHAL_MERGE_OK);
	assert_int_equal(out.len, (P - 0x800) + 2u * P + 100u);
	assert_int_equal(out.addr & (P - 1u), 0x800);
	/* Top-down: the 4 pages end at the top of the aperture. */
	base = out.addr / P;
	assert_int_equal(base, AP_FIRST + AP_PAGES - 4u);
	assert_int_equal(fk.mapped, 4);
	assert_int_equal(fk.phys[base - AP_FIRST], 0x10000000);
	assert_int_equal(fk.phys[base - AP_FIRST + 1u], 0x20000000);
	assert_int_equal(fk.phys[base - AP_FIRST + 2u], 0x20001000);
	assert_int_equal(fk.phys[base - AP_FIRST + 3u], 0x30000000);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(fk.prot[base - AP_FIRST + i], MMCHAL_IOMMU_READ);
	/* Map every entry, then one flush of the whole range before the
	 * address is handed out. */
	{
		uint32_t k = 0;

		expect_op(&k, 'M', base * P, P, true);
		expect_op(&k, 'M', (base + 1u) * P, 2u * P, true);
		expect_op(&k, 'M', (base + 3u) * P, P, true);
		expect_op(&k, 'F', base * P, 4u * P, true);
		assert_int_equal(fk.nlog, k);
	}
	assert_int_equal(map.nsegs, 1);
	assert_true(map.merged);
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, &out, NULL),
			 MMCHAL_EBUSY);
	fk.nlog = 0;
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	/* Unmap, then flush, both while the IOVA is still reserved; only then
	 * is it freed. */
	{
		uint32_t k = 0;
		uint64_t s0, n0;

		expect_op(&k, 'U', base * P, 4u * P, true);
		expect_op(&k, 'F', base * P, 4u * P, true);
		assert_int_equal(fk.nlog, k);
		assert_int_equal(mmchal_iova_find(&dom.iova, base, &s0, &n0), MMCHAL_ENOENT);
	}
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EALREADY);
	assert_clean();
	assert_int_equal(mmchal_iommu_domain_get_caps(&dom, &caps), 0);
	assert_int_equal(caps.page_size, P);
}

static void test_merged_from_card_write_only(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out;

	(void)state;
	setup_domain(&fops_noflush);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_FROM_CARD,
						 MMCHAL_CARD_MMC, &map, &out, NULL),
			 0);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(fk.prot[out.addr / P - AP_FIRST + i], MMCHAL_IOMMU_WRITE);
	assert_int_equal(fk.flushes, 0);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_clean();
}

static void test_merged_fails_on_every_page(void **state)
{
	(void)state;
	for (uint32_t k = 1; k <= 4; k++) {
		struct mmchal_iommu_mapping map;
		struct mmchal_dma_seg out;
		struct mmchal_iommu_domain_stats ds;

		setup_domain(&fops);
		fk.fail_at = k;
		memset(&map, 0, sizeof(map));
		assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD,
							 MMCHAL_CARD_SD, &map, &out, NULL),
				 MMCHAL_EFAULT);
		assert_clean();
		assert_int_equal(mmchal_iommu_domain_get_stats(&dom, &ds), 0);
		assert_int_equal(ds.map_failures, 1);
		assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EINVAL);
	}
}

static void assert_stats(uint64_t maps, uint64_t unmaps, uint64_t failures, uint64_t pages)
{
	struct mmchal_iommu_domain_stats ds;

	assert_int_equal(mmchal_iommu_domain_get_stats(&dom, &ds), 0);
	assert_int_equal(ds.maps, maps);
	assert_int_equal(ds.unmaps, unmaps);
	assert_int_equal(ds.map_failures, failures);
	assert_int_equal(ds.pages_mapped, pages);
}

/* The most pages mapped at once: raised by a successful map of either kind,
 * kept by an unmap, untouched by a map that failed and was unwound. */
static void test_pages_peak(void **state)
{
	struct mmchal_iommu_mapping m1, m2, m3, m4;
	struct mmchal_dma_seg o1, o2[3], o3, o4[3];
	struct mmchal_iommu_domain_stats ds;

	(void)state;
	setup_domain(&fops);
	memset(&m1, 0, sizeof(m1));
	memset(&m2, 0, sizeof(m2));
	memset(&m3, 0, sizeof(m3));
	memset(&m4, 0, sizeof(m4));
	assert_int_equal(mmchal_iommu_domain_get_stats(&dom, &ds), 0);
	assert_int_equal(ds.pages_peak, 0);
	/* list3 merged: 1 + 2 + 1 pages */
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &m1, &o1, NULL),
			 0);
	assert_int_equal(mmchal_iommu_domain_get_stats(&dom, &ds), 0);
	assert_int_equal(ds.pages_mapped, 4);
	assert_int_equal(ds.pages_peak, 4);
	/* sdio per segment: 1 + 2 (across a page end) + 3 pages, on top */
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_FROM_CARD, &m2, o2), 0);
	assert_int_equal(mmchal_iommu_domain_get_stats(&dom, &ds), 0);
	assert_int_equal(ds.pages_mapped, 10);
	assert_int_equal(ds.pages_peak, 10);
	assert_int_equal(mmchal_iommu_unmap(&dom, &m1), 0);
	assert_int_equal(mmchal_iommu_unmap(&dom, &m2), 0);
	assert_int_equal(mmchal_iommu_domain_get_stats(&dom, &ds), 0);
	assert_int_equal(ds.pages_mapped, 0);
	assert_int_equal(ds.pages_peak, 10);
	/* a smaller map keeps the peak; a failed one (its second page refused)
	 * neither raises it nor leaves pages behind */
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &m3, &o3, NULL),
			 0);
	fk.fail_at = fk.pages_seen + 2u;
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_FROM_CARD, &m4, o4),
			 MMCHAL_EFAULT);
	assert_int_equal(mmchal_iommu_domain_get_stats(&dom, &ds), 0);
	assert_int_equal(ds.pages_mapped, 4);
	assert_int_equal(ds.pages_peak, 10);
	assert_int_equal(ds.map_failures, 1);
	assert_int_equal(mmchal_iommu_unmap(&dom, &m3), 0);
	assert_clean();
}

/* Number of IOVA ranges reserved in the domain. */
static uint64_t live_ranges(void)
{
	struct mmchal_iova_stats st;

	assert_int_equal(mmchal_iova_get_stats(&dom.iova, &st), 0);
	return st.live_ranges;
}

static void test_flush_failure_unwinds(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[3];
	uint64_t s0, n0;
	uint32_t k = 0;

	(void)state;
	/* Only the flush after mapping fails: the unwinding's own flush works,
	 * so everything is released. */
	setup_domain(&fops);
	fk.flush_fail_at = 1;
	fk.err = MMCHAL_EIO;
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, out, NULL),
			 MMCHAL_EIO);
	assert_clean();
	assert_stats(0, 0, 1, 0);

	/* Every flush fails: the pages are unmapped, but the TLB may still
	 * translate them, so the IOVA must stay reserved. */
	setup_domain(&fops);
	fk.fail_flush = 1;
	fk.err = MMCHAL_EIO;
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, out, NULL),
			 MMCHAL_EIO);
	assert_int_equal(fk.mapped, 0);
	assert_int_equal(live_ranges(), 1);
	assert_int_equal(mmchal_iova_find(&dom.iova, AP_FIRST + AP_PAGES - 4u, &s0, &n0), 0);
	assert_int_equal(s0, AP_FIRST + AP_PAGES - 4u);
	assert_int_equal(n0, 4);
	assert_stats(0, 0, 1, 4);
	/* And no later mapping is placed on it. */
	fk.fail_flush = 0;
	for (uint32_t i = 0; i < 15; i++) {
		struct mmchal_iommu_mapping m2;

		memset(&m2, 0, sizeof(m2));
		assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD,
							 MMCHAL_CARD_SD, &m2, &out[1], NULL),
				 0);
		assert_true(out[1].addr / P < AP_FIRST + AP_PAGES - 4u);
	}
	assert_int_equal(fk.bad_calls, 0);

	/* Per segment: the same for the first segment's flush. */
	setup_domain(&fops);
	fk.fail_flush = 1;
	fk.err = MMCHAL_EIO;
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EIO);
	assert_int_equal(fk.mapped, 0);
	assert_int_equal(live_ranges(), 1);
	expect_op(&k, 'M', (AP_FIRST + AP_PAGES - 1u) * P, P, true);
	expect_op(&k, 'F', (AP_FIRST + AP_PAGES - 1u) * P, P, true);
	expect_op(&k, 'U', (AP_FIRST + AP_PAGES - 1u) * P, P, true);
	expect_op(&k, 'F', (AP_FIRST + AP_PAGES - 1u) * P, P, true);
	assert_int_equal(fk.nlog, k);

	/* The second segment's flush fails once: both segments are released. */
	setup_domain(&fops);
	fk.flush_fail_at = 2;
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EFAULT);
	assert_clean();
	assert_stats(0, 0, 1, 0);
}

static void test_per_segment_op_order(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[3];
	uint32_t k = 0;
	uint64_t top = AP_FIRST + AP_PAGES;

	(void)state;
	map_sdio(&map, out);
	/* Each segment is mapped and flushed before the next one. */
	expect_op(&k, 'M', (top - 1u) * P, P, true);
	expect_op(&k, 'F', (top - 1u) * P, P, true);
	expect_op(&k, 'M', (top - 3u) * P, 2u * P, true);
	expect_op(&k, 'F', (top - 3u) * P, 2u * P, true);
	expect_op(&k, 'M', (top - 6u) * P, 3u * P, true);
	expect_op(&k, 'F', (top - 6u) * P, 3u * P, true);
	assert_int_equal(fk.nlog, k);
	assert_int_equal(out[0].addr, (top - 1u) * P + 0x010u);
	assert_int_equal(out[1].addr, (top - 3u) * P + 0xff0u);
	assert_int_equal(out[2].addr, (top - 6u) * P);
	assert_stats(1, 0, 0, 6);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	expect_op(&k, 'U', (top - 1u) * P, P, true);
	expect_op(&k, 'F', (top - 1u) * P, P, true);
	expect_op(&k, 'U', (top - 3u) * P, 2u * P, true);
	expect_op(&k, 'F', (top - 3u) * P, 2u * P, true);
	expect_op(&k, 'U', (top - 6u) * P, 3u * P, true);
	expect_op(&k, 'F', (top - 6u) * P, 3u * P, true);
	assert_int_equal(fk.nlog, k);
	assert_stats(1, 1, 0, 0);
	assert_clean();
}

static void test_unmap_op_failure(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[3];

	(void)state;
	/* The platform cannot unmap: the error reaches the caller, and the
	 * range stays reserved because the device may still reach it. */
	map_sdio(&map, out);
	fk.fail_unmap = 1;
	fk.err = MMCHAL_EIO;
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EIO);
	assert_int_equal(live_ranges(), 3);
	assert_int_equal(fk.mapped, 6);
	assert_stats(1, 0, 0, 6);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EALREADY);

	/* A failing flush on release does the same. */
	setup_domain(&fops);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, out, NULL),
			 0);
	fk.fail_flush = 1;
	fk.err = MMCHAL_ETIMEDOUT;
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_ETIMEDOUT);
	assert_int_equal(fk.mapped, 0);
	assert_int_equal(live_ranges(), 1);
	assert_stats(1, 0, 0, 4);

	/* A map that fails and whose unwinding cannot unmap either: the map
	 * error is returned, the IOVA stays reserved. */
	setup_domain(&fops);
	memset(&map, 0, sizeof(map));
	fk.fail_at = 2;
	fk.fail_unmap = 1;
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, out, NULL),
			 MMCHAL_EFAULT);
	assert_int_equal(live_ranges(), 1);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EINVAL);
}

static void test_positive_platform_returns(void **state)
{
	struct mmchal_iommu_domain_cfg cfg;
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[3];

	(void)state;
	/* A positive return is no mmchal error: it must never look like
	 * success, nor reach the caller as a positive value. */
	setup_domain(&fops);
	memset(&cfg, 0, sizeof(cfg));
	cfg.iommu = &fiommu;
	cfg.node_mem = pool;
	cfg.node_mem_size = sizeof(pool);
	fk.caps_ret = 1;
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), MMCHAL_EINVAL);
	fk.caps_ret = MMCHAL_EIO;
	assert_int_equal(mmchal_iommu_domain_init(&dom, &cfg), MMCHAL_EIO);

	setup_domain(&fops);
	memset(&map, 0, sizeof(map));
	fk.err = 1;
	fk.fail_at = 1;
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, out, NULL),
			 MMCHAL_EFAULT);
	assert_clean();
	fk.pages_seen = 0;
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EFAULT);
	assert_clean();

	setup_domain(&fops);
	fk.err = 7;
	fk.flush_fail_at = 1;
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, out, NULL),
			 MMCHAL_EFAULT);
	assert_clean();
	fk.flush_fail_at = fk.flushes + 1u;
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EFAULT);
	assert_clean();

	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out), 0);
	fk.fail_unmap = 1;
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EFAULT);
	assert_int_equal(live_ranges(), 3);
	fk.fail_unmap = 0;
	map_sdio(&map, out);
	fk.err = 3;
	fk.fail_flush = 1;
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EFAULT);
	assert_int_equal(live_ranges(), 3);
}

static void test_not_mergeable(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out;
	struct mmchal_merge_info info;

	(void)state;
	setup_domain(&fops);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_merged(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, &out, &info),
			 MMCHAL_EINVAL);
	assert_int_equal(info.reason, MMCHAL_MERGE_UNALIGNED);
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD,
						 MMCHAL_CARD_SDIO, &map, &out, &info),
			 MMCHAL_EINVAL);
	assert_int_equal(info.reason, MMCHAL_MERGE_CARD_TYPE);
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, (enum mmchal_dir)2, MMCHAL_CARD_SD,
						 &map, &out, &info),
			 MMCHAL_EINVAL);
	assert_clean();
}

static void test_per_segment(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[3];

	(void)state;
	setup_domain(&fops);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_FROM_CARD, &map, out), 0);
	assert_int_equal(map.nsegs, 3);
	assert_false(map.merged);
	assert_int_equal(out[0].addr & (P - 1u), 0x010);
	assert_int_equal(out[0].len, 1500);
	assert_int_equal(out[1].addr & (P - 1u), 0xff0);
	assert_int_equal(out[2].len, 3u * P);
	/* 1 + 2 + 3 pages. */
	assert_int_equal(fk.mapped, 6);
	assert_int_equal(fk.phys[out[1].addr / P - AP_FIRST], 0x40000000);
	assert_int_equal(fk.phys[out[1].addr / P - AP_FIRST + 1u], 0x40001000);
	assert_int_equal(fk.prot[out[2].addr / P - AP_FIRST + 2u], MMCHAL_IOMMU_WRITE);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EALREADY);
	assert_clean();
}

static void test_per_segment_fails_on_every_page(void **state)
{
	(void)state;
	for (uint32_t k = 1; k <= 6; k++) {
		struct mmchal_iommu_mapping map;
		struct mmchal_dma_seg out[3];

		setup_domain(&fops);
		fk.fail_at = k;
		memset(&map, 0, sizeof(map));
		assert_int_equal(
			mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out),
			MMCHAL_EFAULT);
		assert_clean();
	}
}

static void test_unknown_and_bad_args(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[3];
	static const struct mmchal_sg zero[] = {{NULL, 0x1000, 0}};

	(void)state;
	setup_domain(&fops);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_unmap(NULL, &map), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_segs(&dom, zero, 1, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 0, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out), 0);
	out[1].addr -= 10u * P; /* the caller corrupted a segment */
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_ENOENT);
	assert_int_equal(fk.mapped, 6); /* nothing was released */
	out[1].addr += 10u * P;
	/* an address inside a mapped range, one page past its start */
	out[2].addr += P;
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_ENOENT);
	assert_int_equal(fk.mapped, 6);
	out[2].addr -= P;
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_clean();

	/* A domain that was never set up, though its IOMMU ops are filled in:
	   refused by every entry, with no op called. */
	{
		struct mmchal_iommu_domain raw;
		struct mmchal_iommu_domain_stats st;

		memset(&raw, 0, sizeof(raw));
		raw.iommu = fiommu;
		assert_int_equal(
			mmchal_iommu_map_segs(&raw, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out),
			MMCHAL_EINVAL);
		assert_int_equal(mmchal_iommu_unmap(&raw, &map), MMCHAL_EINVAL);
		assert_int_equal(mmchal_iommu_domain_get_stats(&raw, &st), MMCHAL_EINVAL);
		assert_int_equal(fk.mapped, 0);
	}
}

static void test_iova_exhausted(void **state)
{
	struct mmchal_iommu_mapping map[20];
	struct mmchal_dma_seg out[20];
	uint32_t i;

	(void)state;
	setup_domain(&fops);
	/* An aperture starting mid-page: that page is not used. */
	fk.caps.aperture_start = AP_FIRST * P - 100u;
	init_with(0, NULL, 0, 0);
	memset(map, 0, sizeof(map));
	/* 4 pages each: 16 mappings fill the 64-page aperture. */
	for (i = 0; i < 16; i++)
		assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD,
							 MMCHAL_CARD_SD, &map[i], &out[i], NULL),
				 0);
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map[16], &out[16], NULL),
			 MMCHAL_ENOMEM);
	assert_int_equal(fk.mapped, 64);
	assert_int_equal(out[15].addr, AP_FIRST * P + 0x800u);
	/* Not even one page is left: the partly covered page below is not used. */
	assert_int_equal(
		mmchal_iommu_map_segs(&dom, &list3[2], 1, MMCHAL_DIR_TO_CARD, &map[16], &out[16]),
		MMCHAL_ENOMEM);
	assert_int_equal(fk.bad_calls, 0);
	assert_stats(16, 0, 2, 64);
	for (i = 0; i < 16; i++)
		assert_int_equal(mmchal_iommu_unmap(&dom, &map[i]), 0);
	assert_clean();
}

static void test_segment_zero_corrupted(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[3];

	(void)state;
	map_sdio(&map, out);
	fk.nlog = 0;
	out[0].addr += P; /* points into the middle of nothing */
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_ENOENT);
	assert_int_equal(fk.nlog, 0);
	assert_int_equal(fk.mapped, 6);
	assert_int_equal(live_ranges(), 3);
	out[0].addr -= P;
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_clean();
}

static void test_per_segment_iova_runs_out_midway(void **state)
{
	struct mmchal_iommu_mapping fill[15], map;
	struct mmchal_dma_seg fo[15], out[3];

	(void)state;
	setup_domain(&fops);
	memset(fill, 0, sizeof(fill));
	memset(&map, 0, sizeof(map));
	/* 60 of the 64 pages taken: segments 0 (1 page) and 1 (2 pages) fit,
	 * segment 2 (3 pages) does not. */
	for (uint32_t i = 0; i < 15; i++)
		assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD,
							 MMCHAL_CARD_SD, &fill[i], &fo[i], NULL),
				 0);
	fk.nlog = 0;
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_ENOMEM);
	assert_int_equal(fk.mapped, 60);
	assert_int_equal(live_ranges(), 15);
	assert_stats(15, 0, 1, 60);
	/* Two segments mapped and flushed, then both undone. */
	assert_int_equal(fk.nlog, 8);
	assert_int_equal(fk.log[4].kind, 'U');
	assert_int_equal(fk.log[6].kind, 'U');
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EINVAL);
	for (uint32_t i = 0; i < 15; i++)
		assert_int_equal(mmchal_iommu_unmap(&dom, &fill[i]), 0);
	assert_clean();
	assert_stats(15, 15, 1, 0);
}

static void test_addr_bits_and_partial_pages(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out;

	(void)state;
	/* 18-bit master: pages up to 63 only, although the aperture goes to 79. */
	setup_domain(&fops);
	init_with(18, NULL, 0, 0);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, &out, NULL),
			 0);
	assert_int_equal(out.addr, 60u * P + 0x800u);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	/* 64 and 0 both mean the whole aperture; 65 bits is nonsense. */
	init_with(64, NULL, 0, 0);
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, &out, NULL),
			 0);
	assert_int_equal(out.addr, (AP_FIRST + AP_PAGES - 4u) * P + 0x800u);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	init_with(65, NULL, 0, MMCHAL_EINVAL);
	/* A master that reaches none of the aperture. */
	init_with(15, NULL, 0, MMCHAL_EINVAL);
	/* An aperture whose last page is only partly inside leaves that page out. */
	fk.caps.aperture_end = (AP_FIRST + AP_PAGES) * P - 2u;
	init_with(0, NULL, 0, 0);
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, &out, NULL),
			 0);
	assert_int_equal(out.addr, (AP_FIRST + AP_PAGES - 5u) * P + 0x800u);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_clean();
}

/* The domain caches up to the default size, one range per size. */
static uint64_t cache_mem[MMCHAL_IOVA_CACHE_BYTES(MMCHAL_IOVA_CACHE_MAX_PAGES_DEFAULT, 1) / 8u];

static void test_iova_cache(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out, again;
	struct mmchal_iova_stats st;

	(void)state;
	setup_domain(&fops);
	init_with(0, cache_mem, sizeof(cache_mem), 0);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, &out, NULL),
			 0);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	/* Unmapped and flushed, the range is kept by the cache... */
	assert_int_equal(fk.mapped, 0);
	assert_int_equal(mmchal_iova_get_stats(&dom.iova, &st), 0);
	assert_int_equal(st.cached_ranges, 1);
	assert_int_equal(st.live_ranges, 1);
	/* ...and handed out again for the next mapping of that size. */
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_FROM_CARD,
						 MMCHAL_CARD_SD, &map, &again, NULL),
			 0);
	assert_int_equal(again.addr, out.addr);
	assert_int_equal(mmchal_iova_get_stats(&dom.iova, &st), 0);
	assert_int_equal(st.cache_hits, 1);
	assert_int_equal(fk.prot[again.addr / P - AP_FIRST], MMCHAL_IOMMU_WRITE);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_stats(2, 2, 0, 0);
	assert_int_equal(mmchal_iova_check(&dom.iova), 0);
}

/* 512-byte IOMMU pages, the smallest the domain accepts. */
#define SP 512u

static void test_small_pages_odd_addresses(void **state)
{
	static const struct mmchal_sg small[] = {{NULL, 0x10000100, SP - 0x100u},
						 {NULL, 0x20000000, 2u * SP},
						 {NULL, 0x30000000, 1}};
	static const struct mmchal_sg odd[] = {
		{NULL, 0x40000001, 1}, {NULL, 0x400001ff, 1}, {NULL, 0x400003ff, 2}};
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[3];
	uint64_t top = AP_FIRST + AP_PAGES;

	(void)state;
	setup_domain(&fops);
	fk.page = SP;
	fk.caps.page_size = SP;
	fk.caps.merge_boundary = SP - 1u;
	fk.caps.aperture_start = AP_FIRST * SP;
	fk.caps.aperture_end = (AP_FIRST + AP_PAGES) * SP - 1u;
	init_with(0, NULL, 0, 0);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_merged(&dom, small, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, out, NULL),
			 0);
	assert_int_equal(out[0].addr, (top - 4u) * SP + 0x100u);
	assert_int_equal(out[0].len, SP - 0x100u + 2u * SP + 1u);
	assert_int_equal(fk.phys[top - 4u - AP_FIRST], 0x10000000);
	assert_int_equal(fk.phys[top - 2u - AP_FIRST], 0x20000200);
	assert_int_equal(fk.phys[top - 1u - AP_FIRST], 0x30000000);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_clean();
	/* One-byte segments at odd addresses; the last one straddles a page. */
	assert_int_equal(mmchal_iommu_map_segs(&dom, odd, 3, MMCHAL_DIR_FROM_CARD, &map, out), 0);
	assert_int_equal(out[0].addr, (top - 1u) * SP + 1u);
	assert_int_equal(out[0].len, 1);
	assert_int_equal(out[1].addr, (top - 2u) * SP + 0x1ffu);
	assert_int_equal(out[2].addr, (top - 4u) * SP + 0x1ffu);
	assert_int_equal(out[2].len, 2);
	assert_int_equal(fk.mapped, 4);
	assert_int_equal(fk.phys[top - 1u - AP_FIRST], 0x40000000);
	assert_int_equal(fk.phys[top - 2u - AP_FIRST], 0x40000000);
	assert_int_equal(fk.phys[top - 4u - AP_FIRST], 0x40000200);
	assert_int_equal(fk.phys[top - 3u - AP_FIRST], 0x40000400);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_clean();
	/* Below 512 bytes the domain refuses the IOMMU. */
	fk.caps.page_size = 256;
	fk.caps.merge_boundary = 255;
	init_with(0, NULL, 0, MMCHAL_EINVAL);
}

static void test_init_edges(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[4];
	struct mmchal_iommu_caps caps;
	struct mmchal_iommu_domain_stats ds;

	(void)state;
	/* A driver that leaves fields alone gets zeros for them: no aperture
	 * bound, so the allocator covers the whole 64-bit space. */
	setup_domain(&fops);
	fk.partial_caps = 1;
	init_with(0, NULL, 0, 0);
	assert_int_equal(mmchal_iommu_domain_get_caps(&dom, &caps), 0);
	assert_int_equal(caps.aperture_start, 0);
	assert_int_equal(caps.aperture_end, 0);
	assert_int_equal(caps.max_map_size, 0);
	assert_int_equal(dom.limit_pfn, MMCHAL_IOVA_PFN_MAX > (UINT64_MAX >> 12)
						? UINT64_MAX >> 12
						: MMCHAL_IOVA_PFN_MAX);
	fk.partial_caps = 0;
	/* An IOMMU that cannot merge is still a usable domain. */
	fk.caps.merge_boundary = 0;
	init_with(0, NULL, 0, 0);
	fk.caps.merge_boundary = P - 1u;
	/* An aperture from address 0: page 0 is never handed out. */
	fk.caps.aperture_start = 0;
	fk.caps.aperture_end = 4u * P - 1u;
	init_with(0, NULL, 0, 0);
	assert_int_equal(dom.iova.ap_start, 1);
	assert_int_equal(dom.iova.ap_end, 3);
	/* One page exactly. */
	fk.caps.aperture_start = AP_FIRST * P;
	fk.caps.aperture_end = AP_FIRST * P + P - 1u;
	init_with(0, NULL, 0, 0);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_segs(&dom, &list3[2], 1, MMCHAL_DIR_TO_CARD, &map, out),
			 0);
	assert_int_equal(out[0].addr, AP_FIRST * P);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	/* The last page ends 0x800 bytes early: it is left out. */
	fk.caps.aperture_start = AP_FIRST * P;
	fk.caps.aperture_end = 0x4e7ffu;
	init_with(0, NULL, 0, 0);
	assert_int_equal(dom.limit_pfn, 0x4du);
	/* NULL arguments of the queries. */
	assert_int_equal(mmchal_iommu_domain_get_caps(NULL, &caps), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_domain_get_caps(&dom, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_domain_get_stats(NULL, &ds), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_domain_get_stats(&dom, NULL), MMCHAL_EINVAL);
}

static void test_map_argument_checks(void **state)
{
	/* The fourth entry is valid: a map of the first three must not touch it. */
	static const struct mmchal_sg four[] = {{NULL, 0x40000010, 1500},
						{NULL, 0x40000ff0, 1500},
						{NULL, 0x50000000, 3u * P},
						{NULL, 0x60000000, P}};
	static const struct mmchal_sg wraps[] = {{NULL, UINT64_MAX - 10u, 100}};
	static const struct mmchal_sg top[] = {{NULL, UINT64_MAX - 99u, 100}};
	static const struct mmchal_sg zero_second[] = {{NULL, 0x1000, 100}, {NULL, 0x2000, 0}};
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[4];

	(void)state;
	setup_domain(&fops);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_segs(NULL, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_segs(&dom, NULL, 3, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, NULL, out),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, NULL),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, (enum mmchal_dir)7, &map, out),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_merged(NULL, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, out, NULL),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 NULL, out, NULL),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, NULL, NULL),
			 MMCHAL_EINVAL);
	/* An entry that wraps, first in the list; a zero-length one after a
	 * valid one: refused before any IOMMU op. */
	assert_int_equal(mmchal_iommu_map_segs(&dom, wraps, 1, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_map_segs(&dom, zero_second, 2, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EINVAL);
	assert_int_equal(fk.nlog, 0);
	/* An entry whose last byte is the last address is fine. */
	assert_int_equal(mmchal_iommu_map_segs(&dom, top, 1, MMCHAL_DIR_FROM_CARD, &map, out), 0);
	assert_int_equal(map.dir, MMCHAL_DIR_FROM_CARD);
	assert_int_equal(mmchal_iommu_map_segs(&dom, top, 1, MMCHAL_DIR_FROM_CARD, &map, out),
			 MMCHAL_EBUSY);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	/* Exactly nsg entries are mapped. */
	assert_int_equal(mmchal_iommu_map_segs(&dom, four, 3, MMCHAL_DIR_TO_CARD, &map, out), 0);
	assert_int_equal(fk.mapped, 6);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	/* A record reused after a merged mapping says what it is now. */
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_FROM_CARD,
						 MMCHAL_CARD_SD, &map, out, NULL),
			 0);
	assert_true(map.merged);
	assert_int_equal(map.dir, MMCHAL_DIR_FROM_CARD);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out), 0);
	assert_false(map.merged);
	assert_int_equal(map.nsegs, 3);
	assert_int_equal(map.dir, MMCHAL_DIR_TO_CARD);
	/* Bad records on unmap. */
	assert_int_equal(mmchal_iommu_unmap(&dom, NULL), MMCHAL_EINVAL);
	{
		struct mmchal_iommu_mapping bad = map;

		bad.segs = NULL;
		assert_int_equal(mmchal_iommu_unmap(&dom, &bad), MMCHAL_EINVAL);
		bad = map;
		bad.state = 0x1234u;
		assert_int_equal(mmchal_iommu_unmap(&dom, &bad), MMCHAL_EINVAL);
	}
	assert_int_equal(fk.mapped, 6);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_clean();
}

static void test_first_unmap_error_wins(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[3];

	(void)state;
	map_sdio(&map, out);
	/* Segment 0 fails with EIO, the next ones with other errors. */
	fk.fail_unmap = 1;
	fk.err = MMCHAL_EIO;
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EIO);
	assert_int_equal(fk.unmap_failed, 3);
	/* A flush returning exactly 1 is no success either. */
	map_sdio(&map, out);
	fk.err = 1;
	fk.fail_flush = 1;
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_EFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_pages_peak),
		cmocka_unit_test(test_merged_to_card),
		cmocka_unit_test(test_merged_from_card_write_only),
		cmocka_unit_test(test_merged_fails_on_every_page),
		cmocka_unit_test(test_flush_failure_unwinds),
		cmocka_unit_test(test_not_mergeable),
		cmocka_unit_test(test_per_segment),
		cmocka_unit_test(test_per_segment_fails_on_every_page),
		cmocka_unit_test(test_unknown_and_bad_args),
		cmocka_unit_test(test_iova_exhausted),
		cmocka_unit_test(test_per_segment_op_order),
		cmocka_unit_test(test_unmap_op_failure),
		cmocka_unit_test(test_positive_platform_returns),
		cmocka_unit_test(test_segment_zero_corrupted),
		cmocka_unit_test(test_per_segment_iova_runs_out_midway),
		cmocka_unit_test(test_addr_bits_and_partial_pages),
		cmocka_unit_test(test_iova_cache),
		cmocka_unit_test(test_small_pages_odd_addresses),
		cmocka_unit_test(test_init_edges),
		cmocka_unit_test(test_map_argument_checks),
		cmocka_unit_test(test_first_unmap_error_wins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
