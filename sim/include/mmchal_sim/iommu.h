/**
 * @file
 * @brief An IPMMU-like IOMMU in front of the simulated DMA engines.
 *
 * A page table with 4 KiB pages and per-page read/write permission, reached
 * through the platform IOMMU ops (::mmchal_iommu_ops). Device accesses are
 * translated; an access to an unmapped page or against the permission is a
 * recorded fault and fails the DMA.
 *
 * A small TLB caches translations: an unmap or a re-map takes effect for the
 * device only after a flush covering the page (stale entries are used and
 * counted until then). A new mapping of a page without a cached entry is seen
 * at once (a TLB miss walks the table). See docs/sim.md.
 *
 * @note Host only. Not thread-safe.
 */
#ifndef MMCHAL_SIM_IOMMU_H
#define MMCHAL_SIM_IOMMU_H

#include <mmchal/port.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mmchal_sim;

/** @brief IOMMU page size, bytes. */
#define MMCHAL_SIM_IOMMU_PAGE 4096u

/** @brief IOMMU configuration; zero fields take the documented defaults. */
struct mmchal_sim_iommu_config {
	mmchal_dma_addr_t aperture_start; /**< first IOVA; 0 = 0x1000 */
	mmchal_dma_addr_t aperture_end;   /**< last IOVA (inclusive); 0 = 0xffffffff */
	uint32_t tlb_entries;             /**< TLB size; 0 = 32 */
	bool no_merge;                    /**< report merge_boundary 0 (cannot merge) */
};

/** @brief Why an IOMMU access faulted. */
enum mmchal_sim_iommu_fault_kind {
	MMCHAL_SIM_IOMMU_FAULT_NONE = 0, /**< no fault recorded */
	MMCHAL_SIM_IOMMU_FAULT_UNMAPPED, /**< no translation for the page */
	MMCHAL_SIM_IOMMU_FAULT_PERM,     /**< the page lacks the needed permission */
	MMCHAL_SIM_IOMMU_FAULT_INJECTED, /**< forced by the fault schedule */
};

/** @brief IOMMU statistics and the last fault. */
struct mmchal_sim_iommu_stats {
	uint64_t maps;         /**< successful map calls */
	uint64_t unmaps;       /**< successful unmap calls */
	uint64_t flushes;      /**< flush calls (TLB syncs) */
	uint64_t mapped_pages; /**< pages mapped now */
	uint64_t translations; /**< device page translations */
	uint64_t tlb_hits;     /**< translations served by the TLB */
	uint64_t stale_hits;   /**< TLB hits on an entry the table no longer agrees with */
	uint64_t faults;       /**< faults raised */
	enum mmchal_sim_iommu_fault_kind last_fault; /**< kind of the last fault */
	mmchal_dma_addr_t last_fault_iova;           /**< IOVA of the last fault */
	bool last_fault_write;                       /**< the last fault was a device write */
};

/**
 * @brief Put an IOMMU in front of the internal DMAC and the SYS-DMAC channels.
 * @param[in] sim  simulator
 * @param[in] cfg  configuration; NULL = defaults
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL @p sim, or an aperture that is empty or not page aligned
 * @retval MMCHAL_EBUSY    an IOMMU is already attached
 * @retval MMCHAL_ENOMEM   allocation failed
 */
int mmchal_sim_iommu_attach(struct mmchal_sim *sim, const struct mmchal_sim_iommu_config *cfg);

/**
 * @brief The platform IOMMU ops of the attached IOMMU.
 *
 * map() needs page-aligned addresses and size, a non-zero @c prot, an IOVA
 * range inside the aperture and not yet mapped (::MMCHAL_EALREADY); unmap()
 * needs every page mapped (::MMCHAL_ENOENT). Nothing changes on an error.
 *
 * @param[in]  sim  simulator
 * @param[out] out  instance to fill
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument
 * @retval MMCHAL_ENOENT   no IOMMU attached
 */
int mmchal_sim_iommu(struct mmchal_sim *sim, struct mmchal_iommu *out);

/**
 * @brief Read the IOMMU statistics.
 * @param[in]  sim  simulator
 * @param[out] out  statistics
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument
 * @retval MMCHAL_ENOENT   no IOMMU attached
 */
int mmchal_sim_iommu_stats(const struct mmchal_sim *sim, struct mmchal_sim_iommu_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_SIM_IOMMU_H */
