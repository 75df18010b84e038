/*
 * Simulated physical memory: RAM regions backed by host memory, a bump
 * allocator for tests and demos, and the device-side access path (through the
 * IOMMU when one is attached).
 */
#include "sim_priv.h"

#define PAGE 4096u

int mmchal_sim_mem_add(struct mmchal_sim *sim, mmchal_phys_addr_t base, uint64_t size, void *host)
{
	struct sim_region *r;

	if (!sim || !size || (base % PAGE) || (size % PAGE) || base + size < base ||
	    size > SIZE_MAX)
		return MMCHAL_EINVAL;
	for (uint32_t i = 0; i < sim->nmem; i++) {
		const struct sim_region *o = &sim->mem[i];

		if (base < o->base + o->size && o->base < base + size)
			return MMCHAL_EBUSY;
	}
	if (sim->nmem >= MMCHAL_SIM_MEM_REGIONS)
		return MMCHAL_ENOSPC;
	r = &sim->mem[sim->nmem];
	memset(r, 0, sizeof(*r));
	if (!host) {
		host = calloc(1, (size_t)size);
		if (!host)
			return MMCHAL_ENOMEM;
		r->own = true;
	}
	r->base = base;
	r->size = size;
	r->host = host;
	return (int)sim->nmem++;
}

void mem_free_(struct mmchal_sim *sim)
{
	for (uint32_t i = 0; i < sim->nmem; i++)
		if (sim->mem[i].own)
			free(sim->mem[i].host);
	sim->nmem = 0;
}

void *mmchal_sim_phys_to_host(struct mmchal_sim *sim, mmchal_phys_addr_t phys, uint64_t len)
{
	if (!sim || !len)
		return NULL;
	for (uint32_t i = 0; i < sim->nmem; i++) {
		const struct sim_region *r = &sim->mem[i];

		if (phys >= r->base && phys - r->base < r->size &&
		    len <= r->size - (phys - r->base))
			return r->host + (phys - r->base);
	}
	return NULL;
}

int mmchal_sim_host_to_phys(struct mmchal_sim *sim, const void *ptr, uint64_t len,
			    mmchal_phys_addr_t *phys)
{
	uintptr_t p = (uintptr_t)ptr;

	if (!sim || !ptr || !len || !phys)
		return MMCHAL_EINVAL;
	for (uint32_t i = 0; i < sim->nmem; i++) {
		const struct sim_region *r = &sim->mem[i];
		uintptr_t h = (uintptr_t)r->host;

		if (p >= h && p - h < r->size && len <= r->size - (p - h)) {
			*phys = r->base + (p - h);
			return 0;
		}
	}
	return MMCHAL_ENOENT;
}

void *mmchal_sim_mem_alloc(struct mmchal_sim *sim, int region, uint64_t size, uint64_t align,
			   mmchal_phys_addr_t *phys)
{
	struct sim_region *r;
	uint64_t start;

	if (!sim || region < 0 || (uint32_t)region >= sim->nmem || !size)
		return NULL;
	if (!align)
		align = 1;
	if (align & (align - 1u))
		return NULL;
	r = &sim->mem[region];
	start = (r->base + r->used + align - 1u) & ~(align - 1u);
	if (start < r->base || start - r->base > r->size || size > r->size - (start - r->base))
		return NULL;
	r->used = start - r->base + size;
	if (phys)
		*phys = start;
	return r->host + (start - r->base);
}

int mmchal_sim_mem_scatter(struct mmchal_sim *sim, int region, uint32_t npages, uint64_t seed,
			   struct mmchal_sg *sg)
{
	uint32_t *order;
	mmchal_phys_addr_t base;
	uint8_t *host;

	if (!sim || !sg || !npages || region < 0 || (uint32_t)region >= sim->nmem)
		return MMCHAL_EINVAL;
	/* Twice the pages, every other one used: no two entries are ever adjacent. */
	host = mmchal_sim_mem_alloc(sim, region, 2ull * npages * PAGE, PAGE, &base);
	if (!host)
		return MMCHAL_ENOMEM;
	order = malloc(npages * sizeof(*order));
	if (!order)
		return MMCHAL_ENOMEM;
	for (uint32_t i = 0; i < npages; i++)
		order[i] = i;
	for (uint32_t i = npages - 1u; i > 0; i--) {
		uint32_t j = (uint32_t)(sim_splitmix_(&seed) % (i + 1u));
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (uint32_t i = 0; i < npages; i++) {
		uint64_t off = 2ull * order[i] * PAGE;

		sg[i].cpu = host + off;
		sg[i].phys = base + off;
		sg[i].len = PAGE;
	}
	free(order);
	return 0;
}

/* Device access of @len bytes at bus address @addr; @dev_write: the device writes memory. */
int dma_access_(struct mmchal_sim *sim, uint64_t addr, uint8_t *buf, uint32_t len, bool dev_write)
{
	while (len) {
		uint32_t n = PAGE - (uint32_t)(addr % PAGE);
		uint64_t phys = addr;
		uint8_t *h;

		if (n > len)
			n = len;
		if (sim->iommu && iommu_translate_(sim, addr, dev_write, &phys) < 0)
			return MMCHAL_EFAULT;
		h = mmchal_sim_phys_to_host(sim, phys, n);
		if (!h)
			return MMCHAL_EFAULT; /* no RAM there: a bus error */
		if (dev_write)
			memcpy(h, buf, n);
		else
			memcpy(buf, h, n);
		addr += n;
		buf += n;
		len -= n;
	}
	return 0;
}
