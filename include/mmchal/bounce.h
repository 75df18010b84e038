/**
 * @file
 * @brief Bounce pool: caller-provided DMA-able memory split into fixed-size
 *        slots; one mapping takes up to N contiguous slots (swiotlb-style).
 *
 * Allocation searches at most every slot once (bounded time) and never waits:
 * an exhausted pool is ::MMCHAL_ENOMEM. For a device-to-memory transfer the
 * slots are first filled from the caller's buffers, so a short transfer can
 * never hand another mapping's stale data back to the caller (REFERENCE.md,
 * "Bounce (swiotlb) defaults").
 *
 * Cache maintenance of the pool memory is the caller's (the core's) job.
 *
 * @note No function takes a lock; the caller serialises calls on one pool.
 *       Any context; copies are proportional to the mapping size.
 *
 * Build option: in a library built without MMCHAL_WITH_BOUNCE (config.h)
 * the pool functions refuse with ::MMCHAL_ENOTSUP.
 */
#ifndef MMCHAL_BOUNCE_H
#define MMCHAL_BOUNCE_H

#include <mmchal/caps.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Bytes of slot bookkeeping the caller provides for @p nslots slots. */
#define MMCHAL_BOUNCE_META_BYTES(nslots) ((((size_t)(nslots) + 31u) / 32u) * sizeof(uint32_t))

/** @brief Configuration of a bounce pool. Zero fields take the stated defaults. */
struct mmchal_bounce_cfg {
	void *mem;              /**< pool memory (CPU address); required */
	mmchal_dma_addr_t dma;  /**< the address the DMA master uses for @c mem */
	size_t size;            /**< bytes of @c mem; at least one mapping's worth of slots */
	uint32_t slot_size;     /**< bytes per slot, power of two;
				      0 = ::MMCHAL_BOUNCE_SLOT_SIZE_DEFAULT */
	uint32_t slots_per_map; /**< most contiguous slots per mapping;
				      0 = ::MMCHAL_BOUNCE_SLOTS_PER_MAP_DEFAULT */
	uint32_t *meta;         /**< slot bookkeeping, MMCHAL_BOUNCE_META_BYTES(slots); required */
	size_t meta_size;       /**< bytes of @c meta */
};

/** @brief A pool. Caller-owned; all fields private, set by mmchal_bounce_init(). */
struct mmchal_bounce {
	unsigned char *mem;     /**< private: pool memory */
	mmchal_dma_addr_t dma;  /**< private: device address of @c mem */
	uint32_t *used;         /**< private: one bit per slot, set = in use */
	uint32_t slot_size;     /**< private */
	uint32_t slot_shift;    /**< private */
	uint32_t slots_per_map; /**< private */
	uint32_t nslots;        /**< private */
	uint32_t cursor;        /**< private: where the next search starts */
	uint32_t in_use;        /**< private: slots in use */
	uint32_t peak;          /**< private: most slots in use at once */
	uint64_t failures;      /**< private: allocations refused (pool exhausted) */
};

/** @brief One bounce mapping. Zero-initialise before the first use. */
struct mmchal_bounce_map {
	uint32_t state;             /**< private: mapped / unmapped marker */
	uint32_t first;             /**< private: first slot */
	uint32_t nslots;            /**< private: slots taken */
	uint32_t len;               /**< bytes mapped */
	enum mmchal_dir dir;        /**< direction it was mapped for */
	const struct mmchal_sg *sg; /**< private: the caller's list */
	uint32_t nsg;               /**< private: entries in @c sg */
};

/**
 * @brief Set up a pool.
 * @param[out] b    pool
 * @param[in]  cfg  configuration (memory it names must outlive @p b)
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument or memory, slot size not a power of two, fewer
 *                        slots than @c slots_per_map, or @c meta too small; @p b is
 *                        then left as it was
 */
int mmchal_bounce_init(struct mmchal_bounce *b, const struct mmchal_bounce_cfg *cfg);

/**
 * @brief Fill ::mmchal_bounce_caps for the limits derivation.
 * @param[in]  b     pool, or NULL for "no pool" (present = false)
 * @param[out] caps  capabilities
 * @retval 0              success
 * @retval MMCHAL_EINVAL  @p caps NULL, or @p b never initialised (zeroed)
 */
int mmchal_bounce_get_caps(const struct mmchal_bounce *b, struct mmchal_bounce_caps *caps);

/**
 * @brief Take contiguous slots for a list and fill them from it.
 *
 * The data is copied into the slots for both directions: for
 * ::MMCHAL_DIR_TO_CARD the device reads it, for ::MMCHAL_DIR_FROM_CARD it
 * makes sure a short transfer copies back the caller's own bytes.
 *
 * @param[in,out] b    pool
 * @param[in]     sg   the list; every entry needs a CPU address
 * @param[in]     nsg  entries, >= 1
 * @param[in]     dir  transfer direction
 * @param[out]    map  mapping record (must not be mapped)
 * @param[out]    out  the one device segment
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument, @p b never initialised (zeroed), @p nsg 0, an
 *                        entry without CPU address or of length 0, or a bad direction
 * @retval MMCHAL_EBUSY   @p map is still mapped
 * @retval MMCHAL_ERANGE  the list is larger than slot size * slots per mapping
 * @retval MMCHAL_ENOMEM  no run of free slots is long enough (never waits)
 * @note O(slots) worst case plus the copy.
 */
int mmchal_bounce_map(struct mmchal_bounce *b, const struct mmchal_sg *sg, uint32_t nsg,
		      enum mmchal_dir dir, struct mmchal_bounce_map *map,
		      struct mmchal_dma_seg *out);

/**
 * @brief mmchal_bounce_map() for a device that needs a coarser start alignment
 *        than one slot: the region's device address is a multiple of @p align.
 *
 * @param[in,out] b      pool
 * @param[in]     sg     the list; every entry needs a CPU address
 * @param[in]     nsg    entries, >= 1
 * @param[in]     dir    transfer direction
 * @param[in]     align  required start alignment of the device address, bytes, a power
 *                       of two; 0 or 1 = none
 * @param[out]    map    mapping record (must not be mapped)
 * @param[out]    out    the one device segment
 * @return as mmchal_bounce_map()
 * @retval MMCHAL_EINVAL  also: @p align not a power of two
 * @retval MMCHAL_ENOMEM  also: no free run starts at an aligned slot
 * @note O(slots) worst case plus the copy.
 */
int mmchal_bounce_map_aligned(struct mmchal_bounce *b, const struct mmchal_sg *sg, uint32_t nsg,
			      enum mmchal_dir dir, uint32_t align, struct mmchal_bounce_map *map,
			      struct mmchal_dma_seg *out);

/**
 * @brief Release a mapping; for ::MMCHAL_DIR_FROM_CARD and @p copy_back,
 *        first copy the slots back to the caller's list (exactly @c len bytes).
 *
 * @param[in,out] b          pool
 * @param[in,out] map        the mapping
 * @param[in]     copy_back  copy the data back (ignored for ::MMCHAL_DIR_TO_CARD); false
 *                           for a failed transfer whose data must be dropped
 * @retval 0                success
 * @retval MMCHAL_EINVAL    NULL argument, @p b never initialised, @p map never mapped,
 *                          or @p map names slots outside the pool
 * @retval MMCHAL_EALREADY  @p map already released
 */
int mmchal_bounce_unmap(struct mmchal_bounce *b, struct mmchal_bounce_map *map, bool copy_back);

/**
 * @brief Slots currently in use.
 * @param[in] b  pool
 * @return slots in use; 0 for NULL
 */
uint32_t mmchal_bounce_in_use(const struct mmchal_bounce *b);

/**
 * @brief Most slots in use at once since the pool was initialised.
 * @param[in] b  pool
 * @return the peak; 0 for NULL
 */
uint32_t mmchal_bounce_peak(const struct mmchal_bounce *b);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_BOUNCE_H */
