/*
 * IPMMU-like IOMMU: a page table of 4 KiB pages (a hash map from IOVA page to
 * physical page and permission) behind a small FIFO TLB.
 *
 * The TLB caches translations; map and unmap change only the table, so until
 * a flush covering the page the device keeps using a cached entry (a stale
 * hit, counted). A miss walks the table, so a fresh mapping is seen at once.
 */
#include "sim_priv.h"

#define PAGE  MMCHAL_SIM_IOMMU_PAGE
#define PROTS (MMCHAL_IOMMU_READ | MMCHAL_IOMMU_WRITE)

static uint64_t hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static uint64_t slot_of(const struct sim_iommu *m, uint64_t vpn)
{
	uint64_t i = hash(vpn) & (m->cap - 1u);

	while (m->keys[i] && m->keys[i] != vpn + 1u)
		i = (i + 1u) & (m->cap - 1u);
	return i;
}

static bool lookup(const struct sim_iommu *m, uint64_t vpn, uint64_t *val)
{
	uint64_t i = slot_of(m, vpn);

	if (!m->keys[i])
		return false;
	*val = m->vals[i];
	return true;
}

static int grow(struct sim_iommu *m)
{
	uint64_t ncap = m->cap * 2u;
	uint64_t *ok = m->keys, *ov = m->vals, ocap = m->cap;
	uint64_t *nk = calloc(ncap, sizeof(uint64_t));
	uint64_t *nv = calloc(ncap, sizeof(uint64_t));

	if (!nk || !nv) {
		free(nk);
		free(nv);
		return MMCHAL_ENOMEM;
	}
	m->keys = nk;
	m->vals = nv;
	m->cap = ncap;
	for (uint64_t i = 0; i < ocap; i++) {
		if (ok[i]) {
			uint64_t s = slot_of(m, ok[i] - 1u);

			m->keys[s] = ok[i];
			m->vals[s] = ov[i];
		}
	}
	free(ok);
	free(ov);
	return 0;
}

/* Remove with backward shift, so probing never needs tombstones. */
static void erase(struct sim_iommu *m, uint64_t vpn)
{
	uint64_t i = slot_of(m, vpn), j = i;

	if (!m->keys[i])
		return;
	m->keys[i] = 0;
	for (;;) {
		uint64_t home;

		j = (j + 1u) & (m->cap - 1u);
		if (!m->keys[j])
			break;
		home = hash(m->keys[j] - 1u) & (m->cap - 1u);
		/* Move j back to i unless its home lies cyclically in (i, j]. */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->keys[j] = 0;
			i = j;
		}
	}
	m->count--;
}

int mmchal_sim_iommu_attach(struct mmchal_sim *sim, const struct mmchal_sim_iommu_config *cfg)
{
	struct sim_iommu *m;
	struct mmchal_sim_iommu_config c = {0};

	if (!sim)
		return MMCHAL_EINVAL;
	if (sim->iommu)
		return MMCHAL_EBUSY;
	if (cfg)
		c = *cfg;
	if (!c.aperture_start)
		c.aperture_start = 0x1000u;
	if (!c.aperture_end)
		c.aperture_end = 0xffffffffu;
	if (!c.tlb_entries)
		c.tlb_entries = 32u;
	if (c.aperture_end <= c.aperture_start || (c.aperture_start % PAGE) ||
	    ((c.aperture_end + 1u) % PAGE))
		return MMCHAL_EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return MMCHAL_ENOMEM;
	m->cfg = c;
	m->cap = 1024u;
	m->keys = calloc(m->cap, sizeof(uint64_t));
	m->vals = calloc(m->cap, sizeof(uint64_t));
	m->tlb = calloc(c.tlb_entries, sizeof(*m->tlb));
	if (!m->keys || !m->vals || !m->tlb) {
		free(m->keys);
		free(m->vals);
		free(m->tlb);
		free(m);
		return MMCHAL_ENOMEM;
	}
	sim->iommu = m;
	return 0;
}

void iommu_free_(struct mmchal_sim *sim)
{
	struct sim_iommu *m = sim->iommu;

	if (!m)
		return;
	free(m->keys);
	free(m->vals);
	free(m->tlb);
	free(m);
	sim->iommu = NULL;
}

static int op_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	struct mmchal_sim *sim = ctx;
	struct sim_iommu *m = sim->iommu;

	if (!caps)
		return MMCHAL_EINVAL;
	memset(caps, 0, sizeof(*caps));
	caps->present = true;
	caps->page_size = PAGE;
	caps->merge_boundary = m->cfg.no_merge ? 0 : PAGE - 1u;
	caps->max_map_size = 0;
	caps->aperture_start = m->cfg.aperture_start;
	caps->aperture_end = m->cfg.aperture_end;
	return 0;
}

static bool range_ok(const struct sim_iommu *m, uint64_t iova, uint64_t size)
{
	return size && !(iova % PAGE) && !(size % PAGE) && iova >= m->cfg.aperture_start &&
	       iova <= m->cfg.aperture_end && size - 1u <= m->cfg.aperture_end - iova;
}

static int op_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
		  uint32_t prot)
{
	struct mmchal_sim *sim = ctx;
	struct sim_iommu *m = sim->iommu;
	uint64_t n = size / PAGE, v;

	if (!range_ok(m, iova, size) || (phys % PAGE) || !(prot & PROTS) || (prot & ~PROTS) ||
	    phys + size < phys)
		return MMCHAL_EINVAL;
	for (uint64_t i = 0; i < n; i++)
		if (lookup(m, iova / PAGE + i, &v))
			return MMCHAL_EALREADY;
	while ((m->count + n) * 2u > m->cap)
		if (grow(m) < 0)
			return MMCHAL_ENOMEM;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t s = slot_of(m, iova / PAGE + i);

		m->keys[s] = iova / PAGE + i + 1u;
		m->vals[s] = ((phys / PAGE + i) << 2) | prot;
		m->count++;
	}
	m->st.maps++;
	m->st.mapped_pages = m->count;
	return 0;
}

static int op_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct mmchal_sim *sim = ctx;
	struct sim_iommu *m = sim->iommu;
	uint64_t n = size / PAGE, v;

	if (!range_ok(m, iova, size))
		return MMCHAL_EINVAL;
	for (uint64_t i = 0; i < n; i++)
		if (!lookup(m, iova / PAGE + i, &v))
			return MMCHAL_ENOENT;
	for (uint64_t i = 0; i < n; i++)
		erase(m, iova / PAGE + i);
	m->st.unmaps++;
	m->st.mapped_pages = m->count;
	return 0;
}

static int op_flush(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct mmchal_sim *sim = ctx;
	struct sim_iommu *m = sim->iommu;
	uint64_t first = iova / PAGE;
	uint64_t last = size ? (iova + size - 1u) / PAGE : first;

	m->st.flushes++;
	for (uint32_t i = 0; i < m->cfg.tlb_entries; i++)
		if (m->tlb[i].valid && m->tlb[i].vpn >= first && m->tlb[i].vpn <= last)
			m->tlb[i].valid = false;
	return 0;
}

static const struct mmchal_iommu_ops iommu_ops = {
	.get_caps = op_caps,
	.map = op_map,
	.unmap = op_unmap,
	.flush = op_flush,
};

int mmchal_sim_iommu(struct mmchal_sim *sim, struct mmchal_iommu *out)
{
	if (!sim || !out)
		return MMCHAL_EINVAL;
	if (!sim->iommu)
		return MMCHAL_ENOENT;
	out->ops = &iommu_ops;
	out->ctx = sim;
	return 0;
}

int mmchal_sim_iommu_stats(const struct mmchal_sim *sim, struct mmchal_sim_iommu_stats *out)
{
	if (!sim || !out)
		return MMCHAL_EINVAL;
	if (!sim->iommu)
		return MMCHAL_ENOENT;
	*out = sim->iommu->st;
	return 0;
}

static int fault(struct sim_iommu *m, uint64_t iova, bool write,
		 enum mmchal_sim_iommu_fault_kind kind)
{
	m->st.faults++;
	m->st.last_fault = kind;
	m->st.last_fault_iova = iova;
	m->st.last_fault_write = write;
	return MMCHAL_EFAULT;
}

int iommu_translate_(struct mmchal_sim *sim, uint64_t iova, bool write, uint64_t *phys)
{
	struct sim_iommu *m = sim->iommu;
	uint64_t vpn = iova / PAGE, val = 0, tval = 0;
	bool hit = false, in_table;

	m->st.translations++;
	if (m->inject) {
		m->inject = false;
		return fault(m, iova, write, MMCHAL_SIM_IOMMU_FAULT_INJECTED);
	}
	in_table = lookup(m, vpn, &tval);
	for (uint32_t i = 0; i < m->cfg.tlb_entries; i++) {
		if (m->tlb[i].valid && m->tlb[i].vpn == vpn) {
			val = m->tlb[i].val;
			hit = true;
			break;
		}
	}
	if (hit) {
		m->st.tlb_hits++;
		if (!in_table || tval != val)
			m->st.stale_hits++;
	} else {
		if (!in_table)
			return fault(m, iova, write, MMCHAL_SIM_IOMMU_FAULT_UNMAPPED);
		val = tval;
		m->tlb[m->tlb_next].valid = true;
		m->tlb[m->tlb_next].vpn = vpn;
		m->tlb[m->tlb_next].val = val;
		m->tlb_next = (m->tlb_next + 1u) % m->cfg.tlb_entries;
	}
	if (!(val & (write ? MMCHAL_IOMMU_WRITE : MMCHAL_IOMMU_READ)))
		return fault(m, iova, write, MMCHAL_SIM_IOMMU_FAULT_PERM);
	*phys = ((val >> 2) * PAGE) + (iova % PAGE);
	return 0;
}
