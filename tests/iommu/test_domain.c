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

struct fake {
	struct mmchal_iommu_caps caps;
	uint64_t phys[AP_PAGES]; /* 0 = unmapped */
	uint32_t prot[AP_PAGES];
	uint32_t mapped;
	uint32_t pages_seen; /* pages handed to map so far */
	uint32_t fail_at;    /* fail on this page number (1-based); 0 = never */
	int fail_flush;
	uint32_t flushes;
	uint32_t bad_calls; /* calls outside the aperture or misaligned */
};

static struct fake fk;

static int f_get_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	*caps = ((struct fake *)ctx)->caps;
	return 0;
}

static int f_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
		 uint32_t prot)
{
	struct fake *f = ctx;

	if ((iova | phys | size) & (P - 1u) || iova / P < AP_FIRST ||
	    iova / P + size / P > AP_FIRST + AP_PAGES) {
		f->bad_calls++;
		return MMCHAL_EINVAL;
	}
	for (uint64_t i = 0; i < size / P; i++) {
		uint64_t idx = iova / P - AP_FIRST + i;

		if (++f->pages_seen == f->fail_at)
			return MMCHAL_EFAULT; /* pages before this one stay mapped */
		if (f->phys[idx])
			f->bad_calls++; /* double map */
		f->phys[idx] = phys + i * P;
		f->prot[idx] = prot;
		f->mapped++;
	}
	return 0;
}

static int f_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct fake *f = ctx;

	if ((iova | size) & (P - 1u) || iova / P < AP_FIRST ||
	    iova / P + size / P > AP_FIRST + AP_PAGES) {
		f->bad_calls++;
		return MMCHAL_EINVAL;
	}
	for (uint64_t i = 0; i < size / P; i++) {
		uint64_t idx = iova / P - AP_FIRST + i;

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

	(void)iova;
	(void)size;
	f->flushes++;
	return f->fail_flush ? MMCHAL_EIO : 0;
}

static const struct mmchal_iommu_ops fops = {f_get_caps, f_map, f_unmap, f_flush};
static const struct mmchal_iommu_ops fops_noflush = {f_get_caps, f_map, f_unmap, NULL};
static const struct mmchal_iommu_ops fops_nomap = {f_get_caps, NULL, f_unmap, f_flush};
static struct mmchal_iommu fiommu = {&fops, &fk};
static uint64_t pool[MMCHAL_IOVA_POOL_BYTES(64) / 8u];
static struct mmchal_iommu_domain dom;

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
	assert_true(fk.flushes >= 1u);
	assert_int_equal(map.nsegs, 1);
	assert_true(map.merged);
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, &out, NULL),
			 MMCHAL_EBUSY);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
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

static void test_flush_failure_unwinds(void **state)
{
	struct mmchal_iommu_mapping map;
	struct mmchal_dma_seg out[3];

	(void)state;
	setup_domain(&fops);
	fk.fail_flush = 1;
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_iommu_map_merged(&dom, list3, 3, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_SD,
						 &map, out, NULL),
			 MMCHAL_EIO);
	assert_int_equal(fk.mapped, 0);
	/* The release flush failed too, so the IOVA stays reserved (safe). */
	fk.fail_flush = 0;
	setup_domain(&fops);
	fk.fail_flush = 1;
	assert_int_equal(mmchal_iommu_map_segs(&dom, sdio, 3, MMCHAL_DIR_TO_CARD, &map, out),
			 MMCHAL_EIO);
	assert_int_equal(fk.mapped, 0);
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
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
	assert_clean();
}

static void test_iova_exhausted(void **state)
{
	struct mmchal_iommu_mapping map[20];
	struct mmchal_dma_seg out[20];
	uint32_t i;

	(void)state;
	setup_domain(&fops);
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
	for (i = 0; i < 16; i++)
		assert_int_equal(mmchal_iommu_unmap(&dom, &map[i]), 0);
	assert_clean();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_merged_to_card),
		cmocka_unit_test(test_merged_from_card_write_only),
		cmocka_unit_test(test_merged_fails_on_every_page),
		cmocka_unit_test(test_flush_failure_unwinds),
		cmocka_unit_test(test_not_mergeable),
		cmocka_unit_test(test_per_segment),
		cmocka_unit_test(test_per_segment_fails_on_every_page),
		cmocka_unit_test(test_unknown_and_bad_args),
		cmocka_unit_test(test_iova_exhausted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
