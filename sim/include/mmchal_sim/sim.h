/**
 * @file
 * @brief Register-level model of a Renesas SDHI (TMIO) controller with its
 *        internal DMAC, a SYS-DMAC channel pair, an IPMMU-like IOMMU, simulated
 *        RAM and a card, all in deterministic virtual time.
 *
 * The model is reached only through the library's port seam:
 *  - mmchal_sim_bus() gives a ::mmchal_bus whose ops decode the register
 *    window (SDHI registers at @c offset << bus_shift, the DM_* registers of
 *    the internal DMAC unshifted, the data port also at +0x2000 for reads);
 *  - mmchal_sim_port() gives a ::mmchal_port whose @c now_ns and @c delay_us
 *    are virtual time, whose lock masks the simulated interrupt, and whose
 *    deferred work runs when the caller waits;
 *  - mmchal_sim_iommu() (iommu.h) and mmchal_sim_sysdmac() give the platform
 *    IOMMU ops and DMA-channel ops.
 *
 * Virtual time advances by a fixed cost on every register access, on the
 * port's @c delay_us, and in mmchal_sim_run(). Events (response end, buffer
 * ready, access end, DMA end, busy end) are scheduled and become visible as
 * status bits when time reaches them. Nothing depends on the wall clock.
 *
 * Callbacks (the interrupt handler, SYS-DMAC completions, deferred work) run
 * only between accesses, never inside one, and never while the port lock is
 * held: like an interrupt taken between two instructions.
 *
 * @note Host only (uses malloc and stdio). Not thread-safe: one thread
 *       drives one simulator; several simulators are independent.
 */
#ifndef MMCHAL_SIM_SIM_H
#define MMCHAL_SIM_SIM_H

#include <mmchal/port.h>
#include <mmchal_sim/card.h>
#include <mmchal_sim/fault.h>
#include <mmchal_sim/iommu.h>
#include <mmchal_sim/mem.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief An opaque simulator: one controller slot, its engines and its card. */
struct mmchal_sim;

/** @brief Starting points for mmchal_sim_config_defaults(). */
enum mmchal_sim_soc {
	MMCHAL_SIM_SOC_GEN3 = 0, /**< R-Car Gen3 SDHI, VERSION 0xcd10, bus_shift 2, internal DMAC */
	MMCHAL_SIM_SOC_GEN2,     /**< R-Car Gen2 SDHI, VERSION 0xcb0d, bus_shift 1, SYS-DMAC only */
	/** R-Car H3 ES1.x: Gen3 with the old DM_CM_INFO1 layout (read end at bit 17) */
	MMCHAL_SIM_SOC_H3_ES1,
	/** R-Car M3-W ES1.0: Gen3 with the old DM_CM_INFO1 layout (read end at bit 17) */
	MMCHAL_SIM_SOC_M3W_ES10,
};

/**
 * @brief Simulator configuration. Fill it with mmchal_sim_config_defaults();
 *        every field is then used literally.
 */
struct mmchal_sim_config {
	uint8_t bus_shift;   /**< register offset shift, 0..2 */
	uint16_t version;    /**< VERSION register; IP version (low byte) >= 0x10 has the
				       internal DMAC; >= 0xcb0d has a 32-bit block counter */
	bool dmac_old_info1; /**< internal DMAC read-end bit is 17 (H3 ES1.x, M3-W ES1.0), not 20 */
	uint32_t base_clock_hz; /**< SDHI clock before the SD_CLK_CTRL divider */
	/** physical base of the register window (DMA port addresses) */
	mmchal_phys_addr_t reg_phys;
	uint32_t rx_port_offset; /**< read alias of the data port for SYS-DMAC, bytes */
	uint32_t reg_access_ns;  /**< virtual time one register access costs */
	uint32_t irq_latency_ns; /**< from the interrupt line rising to the handler running */
	uint32_t ncr_clocks;     /**< clocks from a command's end bit to its response (N_CR) */
	uint32_t ncr_max_clocks; /**< clocks the controller waits for a response (N_CR max) */
	uint32_t idmac_align;    /**< internal DMAC start-address alignment, bytes */
	uint8_t idmac_addr_bits; /**< internal DMAC address width */
	/** internal DMAC of a part with "fixed address mode" (RZ/G2L, RZ/A2): the
	    drivers leave DM_CM_DTRAN_MODE bit 0 clear there and the address still
	    increments; elsewhere bit 0 clear sends every beat to one address */
	bool idmac_fixed_addr_only;
	uint32_t sysdmac_max_segs; /**< SYS-DMAC descriptors per transfer */
	uint8_t sysdmac_addr_bits; /**< SYS-DMAC address width */
	uint32_t sysdmac_max_seg;  /**< SYS-DMAC largest segment, bytes */
	uint32_t trace_depth;      /**< register-access ring entries; 0 = no ring */
};

/**
 * @brief Fill @p cfg with the documented defaults of @p soc (docs/sim.md).
 * @param[out] cfg  configuration
 * @param[in]  soc  starting point
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL @p cfg or unknown @p soc
 */
int mmchal_sim_config_defaults(struct mmchal_sim_config *cfg, enum mmchal_sim_soc soc);

/**
 * @brief Create a simulator (empty slot, no RAM regions, no IOMMU, time 0).
 * @param[in]  cfg  configuration; NULL = Gen3 defaults
 * @param[out] out  the new simulator
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL @p out, or an invalid configuration (bus_shift > 2,
 *                         zero clock, zero ncr_max_clocks, alignment not a power of two,
 *                         address bits not in 1..64, zero SYS-DMAC segments or segment size)
 * @retval MMCHAL_ENOMEM   allocation failed
 */
int mmchal_sim_create(const struct mmchal_sim_config *cfg, struct mmchal_sim **out);

/**
 * @brief Destroy a simulator and everything it allocated. NULL is ignored.
 * @param[in] sim  simulator
 */
void mmchal_sim_destroy(struct mmchal_sim *sim);

/**
 * @brief The bus accessor of the register window.
 * @param[in]  sim  simulator
 * @param[out] out  accessor (ops with read64/write64, ctx = @p sim, bus_shift from the config)
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument
 */
int mmchal_sim_bus(struct mmchal_sim *sim, struct mmchal_bus *out);

/**
 * @brief The OS facilities tied to virtual time: @c now_ns, @c delay_us
 *        (advances time and runs due callbacks), the lock pair (masks the
 *        simulated interrupt, nests), @c schedule_work (runs when the caller
 *        next waits) and @c log (counted; printed to stderr when verbose).
 *        No cache ops: the simulated engines are coherent.
 * @param[in]  sim  simulator
 * @param[out] out  port
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument
 */
int mmchal_sim_port(struct mmchal_sim *sim, struct mmchal_port *out);

/**
 * @brief Print port log messages to stderr (default off).
 * @param[in] sim  simulator
 * @param[in] on   verbose or not
 */
void mmchal_sim_set_verbose(struct mmchal_sim *sim, bool on);

/** @name Time and interrupts
 *  @{
 */

/**
 * @brief Current virtual time.
 * @param[in] sim  simulator
 * @return nanoseconds since creation
 */
uint64_t mmchal_sim_now(const struct mmchal_sim *sim);

/** @brief mmchal_sim_run() result bit: the interrupt line is asserted (handler run if set). */
#define MMCHAL_SIM_RUN_IRQ (1u << 0)
/** @brief mmchal_sim_run() result bit: a SYS-DMAC completion callback ran. */
#define MMCHAL_SIM_RUN_DMA (1u << 1)

/**
 * @brief Advance virtual time until the interrupt is taken (line asserted for
 *        the interrupt latency) or a SYS-DMAC completion ran, or until
 *        @p until_ns, whichever comes first. Runs due callbacks.
 * @param[in] sim       simulator
 * @param[in] until_ns  absolute virtual time limit
 * @return ::MMCHAL_SIM_RUN_IRQ / ::MMCHAL_SIM_RUN_DMA bits, 0 when @p until_ns was reached
 */
unsigned mmchal_sim_run(struct mmchal_sim *sim, uint64_t until_ns);

/**
 * @brief Advance virtual time by @p ns (the port's delay_us in nanoseconds).
 * @param[in] sim  simulator
 * @param[in] ns   nanoseconds
 */
void mmchal_sim_advance(struct mmchal_sim *sim, uint64_t ns);

/**
 * @brief Level of the controller's interrupt line: any unmasked status bit of
 *        SD_INFO1/2 or DM_CM_INFO1/2 set, or SDIO_INFO1 bit 0 (the SDIO card
 *        interrupt) set and unmasked in SDIO_INFO1_MASK.
 * @param[in] sim  simulator
 * @return whether the line is asserted
 */
bool mmchal_sim_irq_line(const struct mmchal_sim *sim);

/** @brief Interrupt handler the simulator calls when the line is asserted. */
typedef void (*mmchal_sim_irq_fn)(void *arg);

/**
 * @brief Install (or with NULL remove) the interrupt handler. It runs
 *        between accesses once the line has been high for the interrupt
 *        latency, outside the port lock, not nested, once per opportunity.
 * @param[in] sim  simulator
 * @param[in] fn   handler or NULL
 * @param[in] arg  its argument
 */
void mmchal_sim_set_irq_handler(struct mmchal_sim *sim, mmchal_sim_irq_fn fn, void *arg);

/** @} */

/** @name Register access counting and tracing
 *  @{
 */

/** @brief One register access as the bus saw it. */
struct mmchal_sim_access {
	uint64_t t_ns; /**< virtual time of the access */
	uint32_t off;  /**< byte offset in the window */
	uint64_t val;  /**< value read or written */
	uint8_t width; /**< access size, bytes: 2, 4 or 8 */
	bool write;    /**< write (true) or read */
};

/** @brief Trace callback, called after every access. */
typedef void (*mmchal_sim_trace_fn)(void *arg, const struct mmchal_sim_access *a);

/**
 * @brief Install (or with NULL remove) a trace callback.
 * @param[in] sim  simulator
 * @param[in] fn   callback or NULL
 * @param[in] arg  its argument
 */
void mmchal_sim_set_trace(struct mmchal_sim *sim, mmchal_sim_trace_fn fn, void *arg);

/**
 * @brief Entries held in the trace ring (at most @c trace_depth).
 * @param[in] sim  simulator
 * @return the count
 */
uint32_t mmchal_sim_trace_count(const struct mmchal_sim *sim);

/**
 * @brief Read one ring entry.
 * @param[in]  sim  simulator
 * @param[in]  idx  0 = oldest held entry
 * @param[out] out  the entry
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument
 * @retval MMCHAL_ERANGE   @p idx >= mmchal_sim_trace_count()
 */
int mmchal_sim_trace_get(const struct mmchal_sim *sim, uint32_t idx, struct mmchal_sim_access *out);

/** @brief Window size covered by the per-offset counters, bytes. */
#define MMCHAL_SIM_WINDOW 0x4000u

/**
 * @brief Reads of byte offset @p off since creation or the last reset.
 * @param[in] sim  simulator
 * @param[in] off  byte offset (< ::MMCHAL_SIM_WINDOW; others count as 0)
 * @return the count
 */
uint64_t mmchal_sim_reg_reads(const struct mmchal_sim *sim, uint32_t off);

/**
 * @brief Writes of byte offset @p off since creation or the last reset.
 * @param[in] sim  simulator
 * @param[in] off  byte offset
 * @return the count
 */
uint64_t mmchal_sim_reg_writes(const struct mmchal_sim *sim, uint32_t off);

/** @brief Totals since creation or the last mmchal_sim_reset_counters(). */
struct mmchal_sim_counters {
	uint64_t reads;         /**< register reads (data port included) */
	uint64_t writes;        /**< register writes (data port included) */
	uint64_t port_reads;    /**< data port reads */
	uint64_t port_writes;   /**< data port writes */
	uint64_t bad_accesses;  /**< accesses flagged as illegal (INFO2 bit 15) */
	uint64_t commands;      /**< commands put on the CMD line (auto CMD12 included) */
	uint64_t blocks;        /**< data blocks moved on the bus */
	uint64_t idmac_bytes;   /**< bytes the internal DMAC moved */
	uint64_t sysdmac_bytes; /**< bytes the SYS-DMAC channels moved */
	uint64_t irqs;          /**< interrupt handler invocations */
	uint64_t logs;          /**< port log calls */
};

/**
 * @brief Read the totals.
 * @param[in]  sim  simulator
 * @param[out] out  totals
 */
void mmchal_sim_get_counters(const struct mmchal_sim *sim, struct mmchal_sim_counters *out);

/**
 * @brief Zero every counter (per offset and totals) and empty the trace ring.
 * @param[in] sim  simulator
 */
void mmchal_sim_reset_counters(struct mmchal_sim *sim);

/** @} */

/** @name SYS-DMAC
 *  @{
 */

/**
 * @brief The SYS-DMAC channel for direction @p dir, as platform DMA-channel ops.
 *
 * The channel moves data between memory (behind the IOMMU when attached) and
 * the SDHI data port while CC_EXT_MODE enables DMA: @c dev_addr must be the
 * port's bus address (reg_phys + (0x30 << bus_shift), plus rx_port_offset
 * for @ref MMCHAL_DIR_FROM_CARD) and @c dev_width the data port width set by
 * HOST_MODE. The completion callback runs between accesses, with status 0,
 * ::MMCHAL_EFAULT (memory or IOMMU fault, injected DMA error).
 *
 * @param[in]  sim  simulator
 * @param[in]  dir  direction the channel serves
 * @param[out] out  channel
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument or bad @p dir
 */
int mmchal_sim_sysdmac(struct mmchal_sim *sim, enum mmchal_dir dir, struct mmchal_dma_chan *out);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_SIM_SIM_H */
