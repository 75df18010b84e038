/*
 * IOMMU domain set-up with an aperture that ends inside IOVA page 0: it holds
 * no whole page (page 0 is never handed out anyway), so the domain must be
 * refused. The page count of such an aperture once wrapped below zero and
 * gave a domain over the whole 64-bit space, which mapped far outside the
 * aperture (found by fuzz/fuzz_request.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/error.h>
#include <mmchal/iommu.h>

struct fake {
	struct mmchal_iommu_caps caps;
	uint32_t maps;
};

static int f_get_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	*caps = ((struct fake *)ctx)->caps;
	return 0;
}

static int f_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
		 uint32_t prot)
{
	(void)iova;
	(void)phys;
	(void)size;
	(void)prot;
	((struct fake *)ctx)->maps++;
	return 0;
}

static int f_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	(void)ctx;
	(void)iova;
	(void)size;
	return 0;
}

static const struct mmchal_iommu_ops ops = {f_get_caps, f_map, f_unmap, NULL};

static uint64_t nodes[MMCHAL_IOVA_POOL_BYTES(8) / 8u + 1u];

static int init_with(struct fake *f, uint32_t page, uint64_t start, uint64_t end)
{
	struct mmchal_iommu iommu = {&ops, f};
	struct mmchal_iommu_domain_cfg dc = {
		.iommu = &iommu, .node_mem = nodes, .node_mem_size = sizeof(nodes)};
	struct mmchal_iommu_domain dom;

	memset(f, 0, sizeof(*f));
	f->caps.present = true;
	f->caps.page_size = page;
	f->caps.merge_boundary = page - 1u;
	f->caps.aperture_start = start;
	f->caps.aperture_end = end;
	return mmchal_iommu_domain_init(&dom, &dc);
}

static void test_aperture_inside_page0(void **state)
{
	struct fake f;

	(void)state;
	/* 16 KiB pages, aperture [0, 8191]: half of page 0 */
	assert_int_equal(init_with(&f, 16384, 0, 8191), MMCHAL_EINVAL);
	/* 4 KiB pages, aperture [0, 0x17ff]: page 0 and half of page 1 */
	assert_int_equal(init_with(&f, 4096, 0, 0x17ff), MMCHAL_EINVAL);
	/* [0, 1]: two bytes */
	assert_int_equal(init_with(&f, 4096, 0, 1), MMCHAL_EINVAL);
	assert_int_equal(f.maps, 0);
}

static void test_aperture_one_page_maps_inside(void **state)
{
	struct mmchal_iommu_domain dom;
	struct fake f;
	struct mmchal_iommu iommu = {&ops, &f};
	struct mmchal_iommu_domain_cfg dc = {
		.iommu = &iommu, .node_mem = nodes, .node_mem_size = sizeof(nodes)};
	struct mmchal_sg sg = {.phys = 0x40001000u, .len = 4096};
	struct mmchal_iommu_mapping map = {0};
	struct mmchal_dma_seg seg;

	(void)state;
	/* [0, 0x27ff] with 4 KiB pages: page 1 is the only whole usable page
	   (page 2 is only partly inside), so a one-page mapping lands on it */
	assert_int_equal(init_with(&f, 4096, 0, 0x27ff), 0);
	assert_int_equal(mmchal_iommu_domain_init(&dom, &dc), 0);
	assert_int_equal(mmchal_iommu_map_segs(&dom, &sg, 1, MMCHAL_DIR_TO_CARD, &map, &seg), 0);
	assert_int_equal(seg.addr, 0x1000u);
	assert_int_equal(seg.len, 4096u);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aperture_inside_page0),
		cmocka_unit_test(test_aperture_one_page_maps_inside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
