/**
 * @file
 * @brief The porting seam: everything the library needs from the platform.
 *
 * An integrator provides, per host:
 *  - a **bus accessor** (::mmchal_bus): register reads and writes, with the
 *    controller's @c bus_shift. mmchal_bus_init_mmio() gives a ready-made
 *    memory-mapped one; tests and the simulator install their own ops;
 *  - **OS facilities** (::mmchal_port): lock with interrupt save/restore,
 *    time and delay, cache maintenance, deferred work, log;
 *  - optionally the **IOMMU driver ops** (::mmchal_iommu) in front of the DMA
 *    master, and **DMA-channel ops** (::mmchal_dma_chan) for an external DMA
 *    engine.
 *
 * There are no weak symbols and no globals: each table is const, takes its
 * context first, and is validated once with the matching @c *_check()
 * function (a missing required op is ::MMCHAL_EINVAL, not an assert).
 *
 * @note The inline wrappers below take no lock of their own; the calling
 *       context is that of the op they call.
 */
#ifndef MMCHAL_PORT_H
#define MMCHAL_PORT_H

#include <mmchal/caps.h>
#include <mmchal/error.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** @name Bus accessor
 *  @{
 */

/**
 * @brief Register access primitives. Offsets are **byte** offsets from the
 *        start of the controller's register window, already shifted.
 *
 * @c read16, @c write16, @c read32 and @c write32 are required; the 64-bit
 * pair is needed only for a 64-bit data port and may be NULL.
 */
struct mmchal_bus_ops {
	uint16_t (*read16)(void *ctx, uint32_t off);            /**< 16-bit read */
	void (*write16)(void *ctx, uint32_t off, uint16_t val); /**< 16-bit write */
	uint32_t (*read32)(void *ctx, uint32_t off);            /**< 32-bit read */
	void (*write32)(void *ctx, uint32_t off, uint32_t val); /**< 32-bit write */
	uint64_t (*read64)(void *ctx, uint32_t off);            /**< 64-bit read; optional */
	void (*write64)(void *ctx, uint32_t off, uint64_t val); /**< 64-bit write; optional */
};

/**
 * @brief A controller's register window as the library reaches it.
 *
 * TMIO/SDHI registers have *logical* offsets; on the bus they sit at
 * @c offset << bus_shift (R-Car Gen3/Gen4/RZ: 2; Gen2 and older: 1 when the
 * window is larger than 0x100 bytes, else 0 — Linux renesas_sdhi_core.c).
 */
struct mmchal_bus {
	const struct mmchal_bus_ops *ops; /**< access primitives */
	void *ctx;                        /**< first argument of every op */
	uint8_t bus_shift;                /**< logical-to-byte offset shift, 0..2 */
};

/** @brief Memory-mapped access through @c volatile pointers; @c ctx is the window base. */
extern const struct mmchal_bus_ops mmchal_bus_mmio_ops;

/**
 * @brief Set up @p bus for plain memory-mapped access.
 *
 * @param[out] bus        accessor to fill
 * @param[in]  base       CPU address of the register window
 * @param[in]  bus_shift  logical-to-byte offset shift, 0..2
 * @retval 0              success
 * @retval MMCHAL_EINVAL  @p bus or @p base is NULL, or @p bus_shift > 2
 * @note Any context.
 */
int mmchal_bus_init_mmio(struct mmchal_bus *bus, volatile void *base, uint8_t bus_shift);

/**
 * @brief Check that @p bus is usable: required ops present, shift in range.
 *
 * @param[in] bus  accessor to check
 * @retval 0              usable
 * @retval MMCHAL_EINVAL  NULL, a required op missing, or @c bus_shift > 2
 * @note Any context.
 */
int mmchal_bus_check(const struct mmchal_bus *bus);

/**
 * @brief Read a 16-bit logical register (offset shifted by @c bus_shift).
 * @param[in] bus  accessor
 * @param[in] reg  logical register offset
 * @return the register value
 */
static inline uint16_t mmchal_bus_rd16(const struct mmchal_bus *bus, uint32_t reg)
{
	return bus->ops->read16(bus->ctx, reg << bus->bus_shift);
}

/**
 * @brief Write a 16-bit logical register.
 * @param[in] bus  accessor
 * @param[in] reg  logical register offset
 * @param[in] val  value
 */
static inline void mmchal_bus_wr16(const struct mmchal_bus *bus, uint32_t reg, uint16_t val)
{
	bus->ops->write16(bus->ctx, reg << bus->bus_shift, val);
}

/**
 * @brief Read a 32-bit logical register made of two 16-bit halves at
 *        @p reg (low) and @p reg + 2 (high), as TMIO lays them out.
 * @param[in] bus  accessor
 * @param[in] reg  logical offset of the low half
 * @return the combined value
 */
static inline uint32_t mmchal_bus_rd32(const struct mmchal_bus *bus, uint32_t reg)
{
	uint32_t lo = mmchal_bus_rd16(bus, reg);
	uint32_t hi = mmchal_bus_rd16(bus, reg + 2u);

	return lo | (hi << 16);
}

/**
 * @brief Write a 32-bit logical register as two 16-bit halves, low first.
 * @param[in] bus  accessor
 * @param[in] reg  logical offset of the low half
 * @param[in] val  value
 */
static inline void mmchal_bus_wr32(const struct mmchal_bus *bus, uint32_t reg, uint32_t val)
{
	mmchal_bus_wr16(bus, reg, (uint16_t)(val & 0xffffu));
	mmchal_bus_wr16(bus, reg + 2u, (uint16_t)(val >> 16));
}

/**
 * @brief Read a 32-bit register at an unshifted byte offset (e.g. the
 *        internal DMAC's DM_* registers, or a 32-bit data port).
 * @param[in] bus  accessor
 * @param[in] off  byte offset in the window
 * @return the register value
 */
static inline uint32_t mmchal_bus_raw_rd32(const struct mmchal_bus *bus, uint32_t off)
{
	return bus->ops->read32(bus->ctx, off);
}

/**
 * @brief Write a 32-bit register at an unshifted byte offset.
 * @param[in] bus  accessor
 * @param[in] off  byte offset in the window
 * @param[in] val  value
 */
static inline void mmchal_bus_raw_wr32(const struct mmchal_bus *bus, uint32_t off, uint32_t val)
{
	bus->ops->write32(bus->ctx, off, val);
}

/** @} */

/* ------------------------------------------------------------------------ */
/** @name OS facilities
 *  @{
 */

/** @brief Saved interrupt state returned by a lock op and given back to its unlock. */
typedef uintptr_t mmchal_irqflags_t;

/** @brief Severity of a log message. */
enum mmchal_log_level {
	MMCHAL_LOG_ERR = 0, /**< an operation failed */
	MMCHAL_LOG_WARN,    /**< degraded but working (e.g. fell back to PIO) */
	MMCHAL_LOG_INFO,    /**< notable events (card identified, limits derived) */
	MMCHAL_LOG_DEBUG,   /**< per-request detail */
};

/** @brief A function run later in the port's deferred-work context. */
typedef void (*mmchal_work_fn)(void *arg);

/**
 * @brief Platform facilities. Every op is optional unless stated:
 *  - @c now_ns and @c delay_us are required (every timeout needs a clock);
 *  - the lock pair is both-or-neither; without it only polled completion is
 *    possible (single context, e.g. a boot loader);
 *  - no cache ops means DMA is cache-coherent;
 *  - no @c schedule_work means the deferred completion policy is unavailable;
 *  - no @c log means silence.
 */
struct mmchal_port_ops {
	/** take the host lock with local interrupts off; returns the state to restore */
	mmchal_irqflags_t (*lock_irqsave)(void *ctx);
	/** release the host lock and restore the interrupt state */
	void (*unlock_irqrestore)(void *ctx, mmchal_irqflags_t flags);
	/** monotonic time, ns (required) */
	uint64_t (*now_ns)(void *ctx);
	/** busy or sleeping wait of at least @p us microseconds (required) */
	void (*delay_us)(void *ctx, uint32_t us);
	/** write back dirty lines of [addr, addr+len) before the device reads memory */
	void (*cache_clean)(void *ctx, const void *addr, size_t len);
	/** discard lines of [addr, addr+len) around a device write to memory */
	void (*cache_invalidate)(void *ctx, void *addr, size_t len);
	/** run @p fn(@p arg) later in a thread-like context; 0 or a negative ::mmchal_err.
	    Never called by a library without the interrupt path (::MMCHAL_WITH_IRQ 0) */
	int (*schedule_work)(void *ctx, mmchal_work_fn fn, void *arg);
	/** emit a fixed message with one value (no formatting in the library) */
	void (*log)(void *ctx, enum mmchal_log_level level, const char *msg, int64_t value);
};

/** @brief Default cache line size, bytes, when ::mmchal_port::cache_line is 0. */
#define MMCHAL_CACHE_LINE_DEFAULT 64u

/** @brief The OS facilities of one host. */
struct mmchal_port {
	const struct mmchal_port_ops *ops; /**< facilities */
	void *ctx;                         /**< first argument of every op */
	uint32_t cache_line;               /**< cache line size, bytes, power of two;
						0 = ::MMCHAL_CACHE_LINE_DEFAULT */
};

/**
 * @brief Check a port: required ops present, lock ops paired, cache line sane.
 *
 * @param[in] port  port to check
 * @retval 0              usable
 * @retval MMCHAL_EINVAL  NULL, @c now_ns or @c delay_us missing, only one of
 *                        the lock pair or of the cache pair given, or
 *                        @c cache_line not a power of two
 * @note Any context.
 */
int mmchal_port_check(const struct mmchal_port *port);

/**
 * @brief True when the port can lock against an interrupt handler.
 * @param[in] port  a checked port
 * @return whether the lock pair is present
 */
static inline bool mmchal_port_has_lock(const struct mmchal_port *port)
{
	return port->ops->lock_irqsave != NULL;
}

/**
 * @brief True when the port can run deferred work.
 * @param[in] port  a checked port
 * @return whether @c schedule_work is present
 */
static inline bool mmchal_port_has_work(const struct mmchal_port *port)
{
	return port->ops->schedule_work != NULL;
}

/** @} */

/* ------------------------------------------------------------------------ */
/** @name Platform IOMMU driver ops
 *  @{
 */

/** @brief Mapping permission: the device may read the page (memory-to-card transfers). */
#define MMCHAL_IOMMU_READ  (1u << 0)
/** @brief Mapping permission: the device may write the page (card-to-memory transfers). */
#define MMCHAL_IOMMU_WRITE (1u << 1)

/**
 * @brief The platform's IOMMU driver, as the IOMMU domain layer drives it.
 *
 * All addresses and sizes are multiples of the IOMMU page size. @c get_caps,
 * @c map and @c unmap are required; @c flush may be NULL when map and unmap
 * take effect synchronously.
 */
struct mmchal_iommu_ops {
	/** report what the IOMMU can do */
	int (*get_caps)(void *ctx, struct mmchal_iommu_caps *caps);
	/** map [iova, iova+size) to [phys, phys+size) with ::MMCHAL_IOMMU_READ / _WRITE bits */
	int (*map)(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
		   uint32_t prot);
	/** remove the translation of [iova, iova+size) */
	int (*unmap)(void *ctx, mmchal_dma_addr_t iova, uint64_t size);
	/** make earlier map/unmap calls visible to the device (TLB sync) */
	int (*flush)(void *ctx, mmchal_dma_addr_t iova, uint64_t size);
};

/** @brief An IOMMU instance: its ops and their context. */
struct mmchal_iommu {
	const struct mmchal_iommu_ops *ops; /**< driver ops */
	void *ctx;                          /**< first argument of every op */
};

/**
 * @brief Check an IOMMU instance: @c get_caps, @c map and @c unmap present.
 * @param[in] iommu  instance to check
 * @retval 0              usable
 * @retval MMCHAL_EINVAL  NULL or a required op missing
 * @note Any context.
 */
int mmchal_iommu_check(const struct mmchal_iommu *iommu);

/** @} */

/* ------------------------------------------------------------------------ */
/** @name DMA-channel ops (external engine, e.g. SYS-DMAC)
 *  @{
 */

/** @brief Called by the DMA channel once a submitted transfer ended; @p status 0 or an error. */
typedef void (*mmchal_dma_done_fn)(void *arg, int status);

/** @brief One transfer between memory segments and a device port. */
struct mmchal_dma_xfer {
	enum mmchal_dir dir; /**< TO_CARD: memory -> port; FROM_CARD: port -> memory */
	const struct mmchal_dma_seg *segs; /**< memory side, already mapped */
	uint32_t nsegs;                    /**< number of entries in @c segs, >= 1 */
	mmchal_dma_addr_t dev_addr;        /**< bus address of the device port */
	uint8_t dev_width;                 /**< bytes per port access: 1, 2, 4 or 8 */
	mmchal_dma_done_fn done;           /**< completion callback; required */
	void *done_arg;                    /**< argument of @c done */
};

/**
 * @brief A platform DMA channel. One channel moves data in one direction at a
 *        time; a host normally has one per direction. All ops are required.
 */
struct mmchal_dma_chan_ops {
	/** report the channel's constraints */
	int (*get_caps)(void *ctx, struct mmchal_dma_dir_caps *caps);
	/** build descriptors for @p xfer; nothing moves yet */
	int (*prepare)(void *ctx, const struct mmchal_dma_xfer *xfer);
	/** start the prepared transfer */
	int (*submit)(void *ctx);
	/** stop the channel and drop any prepared or running transfer; never calls @c done */
	int (*terminate)(void *ctx);
};

/** @brief A DMA channel instance: its ops and their context. */
struct mmchal_dma_chan {
	const struct mmchal_dma_chan_ops *ops; /**< channel ops */
	void *ctx;                             /**< first argument of every op */
};

/**
 * @brief Check a DMA channel: all four ops present.
 * @param[in] chan  channel to check
 * @retval 0              usable
 * @retval MMCHAL_EINVAL  NULL or an op missing
 * @note Any context.
 */
int mmchal_dma_chan_check(const struct mmchal_dma_chan *chan);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_PORT_H */
