/**
 * @file
 * @brief The simulated physical memory: DMA addresses are physical addresses
 *        inside RAM regions, each backed by host memory.
 *
 * A region is caller-provided or allocated by the simulator, at a chosen
 * physical base (e.g. one below 4 GiB and one above it, to exercise a 32-bit
 * DMA limit). Engines reach memory only through these regions, behind the
 * IOMMU when one is attached; an access outside every region is a bus error
 * (a DMA error at the engine).
 *
 * @note Host only. Not thread-safe.
 */
#ifndef MMCHAL_SIM_MEM_H
#define MMCHAL_SIM_MEM_H

#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mmchal_sim;

/** @brief Most RAM regions one simulator holds. */
#define MMCHAL_SIM_MEM_REGIONS 8u

/**
 * @brief Add a RAM region [@p base, @p base + @p size).
 *
 * @param[in] sim   simulator
 * @param[in] base  physical base address, 4 KiB aligned
 * @param[in] size  size in bytes, a non-zero multiple of 4 KiB
 * @param[in] host  caller memory of @p size bytes backing the region; NULL:
 *                  the simulator allocates it zeroed and frees it on destroy
 * @return the region index (>= 0), or a negative ::mmchal_err
 * @retval MMCHAL_EINVAL  NULL @p sim, misaligned or zero size, or address overflow
 * @retval MMCHAL_EBUSY   overlaps an existing region
 * @retval MMCHAL_ENOSPC  ::MMCHAL_SIM_MEM_REGIONS regions already exist
 * @retval MMCHAL_ENOMEM  allocation failed
 */
int mmchal_sim_mem_add(struct mmchal_sim *sim, mmchal_phys_addr_t base, uint64_t size, void *host);

/**
 * @brief Host pointer of [@p phys, @p phys + @p len), which must lie in one region.
 * @param[in] sim   simulator
 * @param[in] phys  physical address
 * @param[in] len   length in bytes (>= 1)
 * @return the host pointer, or NULL when the range is not inside one region
 */
void *mmchal_sim_phys_to_host(struct mmchal_sim *sim, mmchal_phys_addr_t phys, uint64_t len);

/**
 * @brief Physical address of the host range [@p ptr, @p ptr + @p len).
 * @param[in]  sim   simulator
 * @param[in]  ptr   host pointer into a region
 * @param[in]  len   length in bytes (>= 1)
 * @param[out] phys  the physical address
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument or zero length
 * @retval MMCHAL_ENOENT   the range is not inside one region
 */
int mmchal_sim_host_to_phys(struct mmchal_sim *sim, const void *ptr, uint64_t len,
			    mmchal_phys_addr_t *phys);

/**
 * @brief Take @p size bytes from region @p region (a bump allocator; memory is
 *        returned only when the simulator is destroyed).
 * @param[in]  sim     simulator
 * @param[in]  region  region index from mmchal_sim_mem_add()
 * @param[in]  size    bytes (>= 1)
 * @param[in]  align   alignment, a power of two (0 = 1)
 * @param[out] phys    physical address of the block; may be NULL
 * @return host pointer of the block, or NULL (bad argument or region full)
 */
void *mmchal_sim_mem_alloc(struct mmchal_sim *sim, int region, uint64_t size, uint64_t align,
			   mmchal_phys_addr_t *phys);

/**
 * @brief Build a scatter-gather list of @p npages 4 KiB pages taken from
 *        region @p region and shuffled (seeded splitmix64), so that no two
 *        neighbouring entries are physically contiguous when npages > 1.
 * @param[in]  sim     simulator
 * @param[in]  region  region index
 * @param[in]  npages  number of pages (>= 1)
 * @param[in]  seed    shuffle seed; the same seed gives the same list
 * @param[out] sg      @p npages entries, each {cpu, phys, 4096}
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument, zero pages, or bad region
 * @retval MMCHAL_ENOMEM   the region has too little free space (2 * npages pages are taken)
 */
int mmchal_sim_mem_scatter(struct mmchal_sim *sim, int region, uint32_t npages, uint64_t seed,
			   struct mmchal_sg *sg);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_SIM_MEM_H */
