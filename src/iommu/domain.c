/**
 * @file
 * @brief IOMMU domain: IOVA allocation plus the platform's map/unmap/flush,
 *        merged or per segment, with complete unwinding on failure.
 *
 * Order of operations follows what keeps the device safe: map, then flush
 * (TLB sync) before handing the address out; on release unmap, flush, and
 * only then free the IOVA so that it cannot be reused while a stale TLB entry
 * may still translate it.
 *
 * Locking: none; the caller serialises calls on one domain. Calls the
 * platform IOMMU ops, so the calling context is what those allow.
 */
#include <mmchal/iommu.h>
#include <mmchal/error.h>

#include "core/mem.h"
#include "iommu/hints.h"

#define MAP_MAPPED   0x4d415044u /* "MAPD" */
#define MAP_UNMAPPED 0x554e4d50u /* "UNMP" */

/* A domain mmchal_iommu_domain_init() set up (a zeroed one has no ops). */
static bool ready(const struct mmchal_iommu_domain *dom)
{
	return dom && dom->iommu.ops && dom->page_shift != 0;
}

int mmchal_iommu_domain_init(struct mmchal_iommu_domain *dom,
			     const struct mmchal_iommu_domain_cfg *cfg)
{
	struct mmchal_iova_cfg icfg;
	struct mmchal_iova iova;
	struct mmchal_iommu_caps caps;
	uint64_t ap_end, first, last, dev_max;
	uint32_t shift = 0;
	int ret;

	if (!dom || !cfg || mmchal_iommu_check(cfg->iommu) != 0 || cfg->addr_bits > 64u)
		return MMCHAL_EINVAL;
	memset(&caps, 0, sizeof(caps));
	ret = cfg->iommu->ops->get_caps(cfg->iommu->ctx, &caps);
	if (ret)
		return ret < 0 ? ret : MMCHAL_EINVAL;
	/* 512 bytes is the smallest page any IOMMU we know of uses; smaller
	 * pages would also break the byte/page arithmetic below. */
	if (!caps.present || caps.page_size < 512u || (caps.page_size & (caps.page_size - 1u)))
		return MMCHAL_EINVAL;
	if (caps.merge_boundary != 0 && caps.merge_boundary != (uint64_t)caps.page_size - 1u)
		return MMCHAL_EINVAL;
	while ((1u << shift) != caps.page_size)
		shift++;
	dev_max = (cfg->addr_bits == 0 || cfg->addr_bits == 64u)
			  ? UINT64_MAX
			  : (((uint64_t)1 << cfg->addr_bits) - 1u);
	ap_end = caps.aperture_end ? caps.aperture_end : dev_max;
	if (ap_end > dev_max)
		ap_end = dev_max;
	if (ap_end < caps.aperture_start)
		return MMCHAL_EINVAL;
	/* Page 0 is never handed out: device address 0 stays "no address". */
	first = (caps.aperture_start + caps.page_size - 1u) >> shift;
	if (first == 0)
		first = 1;
	last = ap_end >> shift;
	if (((ap_end + 1u) & (caps.page_size - 1u)) != 0 && ap_end != UINT64_MAX) {
		/* the last page is only partly inside; an aperture that ends
		 * inside page 0 holds no whole page at all */
		if (last == 0)
			return MMCHAL_EINVAL;
		last--;
	}
	if (last > MMCHAL_IOVA_PFN_MAX)
		last = MMCHAL_IOVA_PFN_MAX;
	if (last < first)
		return MMCHAL_EINVAL;
	memset(&icfg, 0, sizeof(icfg));
	icfg.aperture_start = first;
	icfg.aperture_end = last;
	icfg.node_mem = cfg->node_mem;
	icfg.node_mem_size = cfg->node_mem_size;
	icfg.cache_mem = cfg->cache_mem;
	icfg.cache_mem_size = cfg->cache_mem_size;
	/* The allocator is set up aside first: a refused node or cache memory
	 * leaves the caller's domain as it was. It holds no pointer to itself. */
	ret = mmchal_iova_init(&iova, &icfg);
	if (ret)
		return ret;
	memset(dom, 0, sizeof(*dom));
	dom->iova = iova;
	dom->iommu = *cfg->iommu;
	dom->caps = caps;
	dom->page_shift = shift;
	dom->limit_pfn = last;
	return 0;
}

int mmchal_iommu_domain_get_caps(const struct mmchal_iommu_domain *dom,
				 struct mmchal_iommu_caps *caps)
{
	if (!ready(dom) || !caps)
		return MMCHAL_EINVAL;
	*caps = dom->caps;
	return 0;
}

int mmchal_iommu_domain_get_stats(const struct mmchal_iommu_domain *dom,
				  struct mmchal_iommu_domain_stats *st)
{
	if (!ready(dom) || !st)
		return MMCHAL_EINVAL;
	*st = dom->st;
	return 0;
}

/* A map call succeeded: count it, and the pages mapped at once. */
static void note_mapped(struct mmchal_iommu_domain *dom)
{
	dom->st.maps++;
	if (dom->st.pages_mapped > dom->st.pages_peak)
		dom->st.pages_peak = dom->st.pages_mapped;
}

static uint32_t prot_of(enum mmchal_dir dir)
{
	return dir == MMCHAL_DIR_TO_CARD ? MMCHAL_IOMMU_READ : MMCHAL_IOMMU_WRITE;
}

/* A platform op returns 0 or a negative ::mmchal_err; anything positive is
 * not one of ours and must not reach the caller as "success with a value". */
static int op_err(int ret)
{
	return ret > 0 ? MMCHAL_EFAULT : ret;
}

static int flush(struct mmchal_iommu_domain *dom, uint64_t pfn, uint64_t npages)
{
	if (!dom->iommu.ops->flush)
		return 0;
	return op_err(dom->iommu.ops->flush(dom->iommu.ctx, pfn << dom->page_shift,
					    npages << dom->page_shift));
}

/* Undo a range: unmap [pfn, pfn + mapped) (the pages the caller knows may be
 * mapped), flush, free the IOVA. */
static int release_range(struct mmchal_iommu_domain *dom, uint64_t pfn, uint64_t npages,
			 uint64_t mapped)
{
	int ret = 0, r2;

	if (mapped) {
		ret = op_err(dom->iommu.ops->unmap(dom->iommu.ctx, pfn << dom->page_shift,
						   mapped << dom->page_shift));
		r2 = flush(dom, pfn, mapped);
		if (!ret)
			ret = r2;
	}
	if (ret)
		return ret; /* keep the IOVA reserved: the device may still reach it */
	dom->st.pages_mapped -= mapped;
	return mmchal_iova_free_cached(&dom->iova, pfn, npages);
}

/* Pages spanned by [phys, phys + len). */
static IOMMU_SHARED_ uint64_t span_pages(const struct mmchal_iommu_domain *dom, uint64_t phys,
					 uint32_t len)
{
	uint64_t mask = dom->caps.page_size - 1u;

	return ((phys & mask) + len + mask) >> dom->page_shift;
}

/* The checks both map calls make first, in the order their errors are
 * documented: unusable arguments, then a mapping still in use. */
static IOMMU_SHARED_ int map_check(const struct mmchal_iommu_domain *dom,
				   const struct mmchal_iommu_mapping *map,
				   const struct mmchal_dma_seg *out, enum mmchal_dir dir)
{
	if (!ready(dom) || !map || !out ||
	    (dir != MMCHAL_DIR_TO_CARD && dir != MMCHAL_DIR_FROM_CARD))
		return MMCHAL_EINVAL;
	if (map->state == MAP_MAPPED)
		return MMCHAL_EBUSY;
	return 0;
}

/* Map np pages at pfn to the pages holding phys. The pages count as mapped
 * also when the op fails: a driver may have mapped part of them first. */
static IOMMU_SHARED_ int map_pages(struct mmchal_iommu_domain *dom, uint64_t pfn, uint64_t phys,
				   uint64_t np, enum mmchal_dir dir)
{
	int ret = dom->iommu.ops->map(dom->iommu.ctx, pfn << dom->page_shift,
				      phys & ~((uint64_t)dom->caps.page_size - 1u),
				      np << dom->page_shift, prot_of(dir));

	dom->st.pages_mapped += np;
	return op_err(ret);
}

/* A map call failed after its checks: count it, return its error. */
static int map_failed(struct mmchal_iommu_domain *dom, int ret)
{
	dom->st.map_failures++;
	return ret;
}

/* A map call succeeded: hand the mapping out. */
static IOMMU_SHARED_ int map_done(struct mmchal_iommu_domain *dom, struct mmchal_iommu_mapping *map,
				  struct mmchal_dma_seg *out, uint32_t nsegs, bool merged,
				  enum mmchal_dir dir)
{
	map->state = MAP_MAPPED;
	map->nsegs = nsegs;
	map->merged = merged;
	map->dir = dir;
	map->segs = out;
	note_mapped(dom);
	return 0;
}

int mmchal_iommu_map_merged(struct mmchal_iommu_domain *dom, const struct mmchal_sg *sg,
			    uint32_t nsg, enum mmchal_dir dir, enum mmchal_card_type card,
			    struct mmchal_iommu_mapping *map, struct mmchal_dma_seg *out,
			    struct mmchal_merge_info *info)
{
	struct mmchal_merge_info mi;
	uint64_t mask, base, npages, pfn, done = 0;
	mmchal_dma_addr_t expect;
	bool split = false;
	uint32_t i;
	int ret;

	ret = map_check(dom, map, out, dir);
	if (ret)
		return ret;
	ret = mmchal_merge_check(sg, nsg, &dom->caps, card, &mi) != MMCHAL_MERGE_OK ? MMCHAL_EINVAL
										    : 0;
	if (info)
		*info = mi;
	if (ret)
		return ret;
	mask = dom->caps.page_size - 1u;
	npages = mi.map_size >> dom->page_shift;
	ret = mmchal_iova_alloc_cached(&dom->iova, npages, dom->limit_pfn, false, &base);
	if (ret)
		return map_failed(dom, ret);
	/* The merged result must be one segment: every entry's device address
	 * follows the previous one's end exactly. Checked as the entries are
	 * mapped, acted on after the flush. */
	expect = (base << dom->page_shift) + (sg[0].phys & mask);
	for (i = 0, pfn = base; i < nsg; i++) {
		uint64_t np = span_pages(dom, sg[i].phys, sg[i].len);
		mmchal_dma_addr_t dev = (pfn << dom->page_shift) + (sg[i].phys & mask);

		ret = map_pages(dom, pfn, sg[i].phys, np, dir);
		if (ret) {
			/* Include the failing call's pages (map_pages). */
			(void)release_range(dom, base, npages, done + np);
			return map_failed(dom, ret);
		}
		if (dev != expect)
			split = true;
		expect = dev + sg[i].len;
		done += np;
		pfn += np;
	}
	ret = flush(dom, base, npages);
	out->addr = (base << dom->page_shift) + (sg[0].phys & mask);
	out->len = (uint32_t)mi.total;
	if (!ret && (split || done != npages))
		ret = MMCHAL_EFAULT;
	if (ret) {
		(void)release_range(dom, base, npages, done);
		return map_failed(dom, ret);
	}
	return map_done(dom, map, out, 1, true, dir);
}

int mmchal_iommu_map_segs(struct mmchal_iommu_domain *dom, const struct mmchal_sg *sg, uint32_t nsg,
			  enum mmchal_dir dir, struct mmchal_iommu_mapping *map,
			  struct mmchal_dma_seg *out)
{
	uint32_t i;
	int ret;

	if (!sg || nsg == 0)
		return MMCHAL_EINVAL;
	ret = map_check(dom, map, out, dir);
	if (ret)
		return ret;
	for (i = 0; i < nsg; i++) {
		if (sg[i].len == 0 || sg[i].phys > UINT64_MAX - (sg[i].len - 1u))
			return MMCHAL_EINVAL;
	}
	for (i = 0; i < nsg; i++) {
		uint64_t np = span_pages(dom, sg[i].phys, sg[i].len), pfn;

		ret = mmchal_iova_alloc_cached(&dom->iova, np, dom->limit_pfn, false, &pfn);
		if (ret)
			break;
		ret = map_pages(dom, pfn, sg[i].phys, np, dir);
		if (!ret) {
			ret = flush(dom, pfn, np);
			out[i].addr = (pfn << dom->page_shift) +
				      (sg[i].phys & (dom->caps.page_size - 1u));
			out[i].len = sg[i].len;
		}
		if (ret) {
			(void)release_range(dom, pfn, np, np);
			break;
		}
	}
	if (i < nsg) {
		for (uint32_t j = 0; j < i; j++) {
			uint64_t np = span_pages(dom, sg[j].phys, sg[j].len);

			(void)release_range(dom, out[j].addr >> dom->page_shift, np, np);
		}
		return map_failed(dom, ret);
	}
	return map_done(dom, map, out, nsg, false, dir);
}
/* The IOVA range of a mapped segment: true when seg starts one. */
static IOMMU_SHARED_ bool seg_range(const struct mmchal_iommu_domain *dom,
				    const struct mmchal_dma_seg *seg, uint64_t *s, uint64_t *n)
{
	uint64_t pfn = seg->addr >> dom->page_shift;

	return mmchal_iova_find(&dom->iova, pfn, s, n) == 0 && *s == pfn;
}

int mmchal_iommu_unmap(struct mmchal_iommu_domain *dom, struct mmchal_iommu_mapping *map)
{
	int first = 0;
	uint32_t i;

	if (!ready(dom) || !map)
		return MMCHAL_EINVAL;
	if (map->state == MAP_UNMAPPED)
		return MMCHAL_EALREADY;
	if (map->state != MAP_MAPPED || !map->segs)
		return MMCHAL_EINVAL;
	/* Look every range up first: an unknown address changes nothing. */
	for (i = 0; i < map->nsegs; i++) {
		uint64_t s, n;

		if (!seg_range(dom, &map->segs[i], &s, &n))
			return MMCHAL_ENOENT;
	}
	for (i = 0; i < map->nsegs; i++) {
		uint64_t s = 0, n = 0;
		int ret;

		(void)seg_range(dom, &map->segs[i], &s, &n);
		ret = release_range(dom, s, n, n);
		if (ret && !first)
			first = ret;
	}
	map->state = MAP_UNMAPPED;
	if (first)
		return first;
	dom->st.unmaps++;
	return 0;
}
