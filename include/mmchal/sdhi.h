/**
 * @file
 * @brief Renesas SDHI (TMIO) backends: the per-compatible SoC table, the
 *        backend configuration and the init functions of the internal-DMAC,
 *        SYS-DMAC and PIO backends.
 *
 * A device-tree probe (or a boot loader by hand) fills a ::mmchal_sdhi_cfg:
 * the register window's bus accessor, the controller's input clock, the SoC
 * entry found with mmchal_sdhi_soc_lookup() (or, built for one SoC, its
 * initialiser from <mmchal/sdhi_socs.h>), optional revision quirks, and the
 * SYS-DMAC channels where there are some. One of the init functions then turns
 * caller-owned ::mmchal_sdhi storage into a ::mmchal_backend for the host core.
 *
 * The table follows Linux's match tables (renesas_sdhi_internal_dmac.c,
 * renesas_sdhi_sys_dmac.c) as summarised in REFERENCE.md: a node is matched by
 * the *earliest* string of its compatible list that has an entry. Some SoCs
 * have no entry of their own and match only through a family fallback:
 * M3-W (`renesas,sdhi-r8a7796`) and RZ/G2M through `renesas,rcar-gen3-sdhi`,
 * S4 (`renesas,sdhi-r8a779f0`) through `renesas,rcar-gen4-sdhi`, RZ/G2L
 * (`renesas,sdhi-r9a07g044`) through `renesas,rzg2l-sdhi`.
 *
 * In a library built without ::MMCHAL_WITH_SDIO (config.h) the backends have
 * no @c enable_sdio_irq op and report no SDIO card interrupt: the controller's
 * SDIO interrupt stays off and masked, as its reset leaves it.
 *
 * @note The table and the lookup functions are const data and pure functions:
 *       any context. The backend ops follow backend.h (called by the core with
 *       the host lock held); the init functions run before the host is live.
 */
#ifndef MMCHAL_SDHI_H
#define MMCHAL_SDHI_H

#include <mmchal/backend.h>
#include <mmchal/caps.h>
#include <mmchal/error.h>
#include <mmchal/port.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** @name Per-compatible SoC data
 *  @{
 */

/** @brief Which backend serves a controller. */
enum mmchal_sdhi_kind {
	MMCHAL_SDHI_IDMAC = 0, /**< internal DMAC (R-Car Gen3/Gen4, RZ/G2, RZ/A2) */
	/** external SYS-DMAC through the data port (Gen2, Gen1, SH-Mobile); a node of such
	    a SoC without a `dmas` property is served by PIO */
	MMCHAL_SDHI_SYSDMAC,
	MMCHAL_SDHI_PIO, /**< the CPU moves every byte through the data port */
};

/** @brief How the register offset shift is found. */
enum mmchal_sdhi_shift_rule {
	MMCHAL_SDHI_SHIFT_FIXED_2 = 0, /**< always 2 (Gen3/Gen4/RZ: of_data bus_shift = 2) */
	/** 1 when the register window is larger than 0x100 bytes, else 0
	    (Linux renesas_sdhi_probe(): resource_size(res) > 0x100) */
	MMCHAL_SDHI_SHIFT_BY_SIZE,
};

/** @name SoC flags (::mmchal_sdhi_soc::flags)
 *  @{
 */
/** the host opts in to segment merging behind an IOMMU (MMC_CAP2_MERGE_CAPABLE) */
#define MMCHAL_SDHI_F_MERGE       (1u << 0)
/** eMMC HS400 may be used (absent on r8a77995 and RZ/G2L: Linux of_data) */
#define MMCHAL_SDHI_F_HS400       (1u << 1)
/** internal DMAC has no address increment: DM_CM_DTRAN_MODE bit0 stays clear
    (SDHI_INTERNAL_DMAC_ADDR_MODE_FIXED_ONLY: RZ/G2L, RZ/A2) */
#define MMCHAL_SDHI_F_FIXED_ADDR  (1u << 2)
/** the clock divider has a 1/1 setting (SD_CLK_CTRL 0xff; Linux TMIO_MMC_CLK_ACTUAL
    on R-Car Gen1, Gen2, Gen3 and later; not on SH-Mobile) */
#define MMCHAL_SDHI_F_CLK_DIV1    (1u << 5)
/** a DMA write without CMD12 after it ends only on an access end with the bus idle,
    INFO2 bit 29 (Linux TMIO_MMC_HAS_IDLE_WAIT: R-Car Gen1 and later, and SH-Mobile
    sh73a0, r8a73a4 and r8a7740; not the generic "renesas,sdhi-shmobile"); without it
    the command-busy bit clearing ends it */
#define MMCHAL_SDHI_F_IDLE_WAIT   (1u << 6)
/** internal DMAC read-channel end is DM_CM_INFO1 bit17, not bit20
    (R-Car H3 ES1.x and M3-W ES1.0: U-Boot, TF-A); normally a revision quirk */
#define MMCHAL_SDHI_F_OLD_INFO1   (1u << 3)
/** only one internal-DMAC read channel in the whole SoC
    (SDHI_INTERNAL_DMAC_ONE_RX_ONLY, H3 ES1.x and M3-W ES1.0); since the library
    keeps no state shared between controllers, reads then go PIO */
#define MMCHAL_SDHI_F_ONE_RX_ONLY (1u << 4)
/** @} */

/** @brief Per-compatible data of one SDHI flavour. Const; never written. */
struct mmchal_sdhi_soc {
	const char *compatible;            /**< e.g. "renesas,rcar-gen3-sdhi" */
	enum mmchal_sdhi_kind kind;        /**< backend when the node is fully described */
	enum mmchal_sdhi_shift_rule shift; /**< bus_shift rule */
	/** most blocks per request: Linux of_data max_blk_count (Gen3 0xffffffff, which the
	    MMC core turns into UINT_MAX / 512 = 8388607 with 512-byte blocks; Gen1 and SH-Mobile
	    256); the block counter width from VERSION caps it further */
	uint32_t max_blk_count;
	uint32_t max_segs;      /**< engine segments per transfer (internal DMAC 1; else 32) */
	uint32_t dma_rx_offset; /**< byte offset of the read port alias for SYS-DMAC, or 0 */
	uint32_t flags;         /**< MMCHAL_SDHI_F_* */
};

/**
 * @brief Find the SoC entry of one compatible string.
 *
 * @param[in] compatible  one string of a node's compatible list
 * @return the entry, or NULL when @p compatible is NULL or has no entry
 * @note Any context. A probe walks the node's list in order and takes the
 *       first string that has an entry (Linux's of_match rule).
 */
const struct mmchal_sdhi_soc *mmchal_sdhi_soc_lookup(const char *compatible);

/**
 * @brief The SoC table, for tools that list what is supported.
 *
 * A library built with the internal-DMAC backend alone (neither
 * `sdhi_sysdmac` nor `pio` in MMCHAL_BACKENDS) holds only the internal-DMAC
 * entries: the SYS-DMAC SoCs (R-Car Gen2, Gen1, SH-Mobile) are then not found
 * by mmchal_sdhi_soc_lookup() either.
 *
 * @param[out] count  number of entries; may be NULL
 * @return the first entry of a const array of @p count entries
 * @note Any context.
 */
const struct mmchal_sdhi_soc *mmchal_sdhi_soc_table(size_t *count);

/**
 * @brief The register offset shift of a controller.
 *
 * @param[in] soc       SoC entry
 * @param[in] reg_size  size of the register window (the node's `reg` size), bytes
 * @return 0, 1 or 2, or ::MMCHAL_EINVAL for a NULL @p soc or a zero @p reg_size
 * @note Any context.
 */
int mmchal_sdhi_bus_shift(const struct mmchal_sdhi_soc *soc, uint64_t reg_size);

/** @brief SoC revision, when the platform knows it (a device tree does not carry it). */
enum mmchal_sdhi_rev {
	MMCHAL_SDHI_REV_UNKNOWN = 0, /**< not known: no revision quirk applies */
	MMCHAL_SDHI_REV_H3_ES1,      /**< R-Car H3 (r8a7795) ES1.x */
	MMCHAL_SDHI_REV_H3_ES2,      /**< R-Car H3 (r8a7795) ES2.x */
	MMCHAL_SDHI_REV_H3_ES3,      /**< R-Car H3 (r8a7795) ES3.x */
	MMCHAL_SDHI_REV_M3W_ES10,    /**< R-Car M3-W (r8a7796) ES1.0 */
	MMCHAL_SDHI_REV_M3W_LATER,   /**< R-Car M3-W (r8a7796) ES1.1 and later */
};

/**
 * @brief Flags a SoC revision adds to its table entry.
 *
 * H3 ES1.x and M3-W ES1.0: ::MMCHAL_SDHI_F_OLD_INFO1 (U-Boot, TF-A) and
 * ::MMCHAL_SDHI_F_ONE_RX_ONLY (Linux gen3_soc_whitelist). Others: none.
 *
 * @param[in] rev  revision
 * @return MMCHAL_SDHI_F_* bits to OR into the entry's flags; 0 for an unknown value
 * @note Any context.
 */
uint32_t mmchal_sdhi_rev_flags(enum mmchal_sdhi_rev rev);

/**
 * @brief Whether an IOMMU in front of SDHI may be used on a SoC.
 *
 * Linux's IPMMU driver does not attach SDHI on RZ/G2M (`renesas,r8a774a1`, all
 * revisions), R-Car H3 ES2.x (`renesas,r8a7795`) and R-Car M3-W
 * (`renesas,r8a7796`, all revisions), although their trees carry `iommus`
 * (ipmmu-vmsa.c soc_denylist). H3 ES1.x is treated like ES2.x (*inferred*:
 * it was never on the older allowlist). An unknown H3 revision is taken as
 * usable, as the shared expected probe results do.
 *
 * @param[in] soc_compatible  a compatible string of the root node
 *                            (e.g. "renesas,r8a7795"); NULL = unknown SoC
 * @param[in] rev             revision, or ::MMCHAL_SDHI_REV_UNKNOWN
 * @return true when an IOMMU described for the node may be used
 * @note Any context.
 */
bool mmchal_sdhi_iommu_usable(const char *soc_compatible, enum mmchal_sdhi_rev rev);

/** @} */

/* ------------------------------------------------------------------------ */
/** @name Backend configuration and state
 *  @{
 */

/** @brief Backend configuration: filled by a probe or by hand; copied at init. */
struct mmchal_sdhi_cfg {
	struct mmchal_bus bus; /**< register window accessor with its bus_shift */
	/** the platform's facilities, checked when given; the SDHI backends never wait,
	    so none of its ops is called today; may be NULL */
	const struct mmchal_port *port;
	const struct mmchal_sdhi_soc *soc; /**< SoC entry; required */
	enum mmchal_sdhi_rev rev;          /**< revision; 0 = unknown (no quirks) */
	uint32_t extra_flags;              /**< MMCHAL_SDHI_F_* to add by hand; 0 = none */
	uint32_t clk_hz;                   /**< controller input clock (SDnH / SD clock), Hz */
	/** data port width, bytes: 2, 4 or 8; 0 = the widest the VERSION allows
	    (Gen3 and later 8, 0xcb0d 4, older 2) */
	uint8_t port_width;
	/** bus address of the register window as a DMA master sees it (SYS-DMAC port address) */
	mmchal_dma_addr_t reg_dma;
	/** SYS-DMAC channels per ::mmchal_dir; ops NULL = none (SYS-DMAC backend only) */
	struct mmchal_dma_chan chan[MMCHAL_DIR_COUNT];
	/** board capabilities: @c bus (MMCHAL_BUS_* from bus-width, cap-*, mmc-*),
	    @c f_max_hz (max-frequency; 0 = clk_hz); the backend adds what the controller
	    and SoC entry allow and removes what they do not */
	struct mmchal_host_caps caps;
	/** data timeout when a request gives none, ns; 0 = the longest the controller counts */
	uint32_t data_timeout_ns;
	/** SYS-DMAC only: called from a channel's completion callback (the DMA engine's
	    interrupt context) so that the platform runs the host's interrupt path, e.g.
	    mmchal_host_irq(); NULL = the platform polls. A library without the interrupt
	    path (::MMCHAL_WITH_IRQ 0) is polled: the hook may wake the polling thread,
	    and the next mmchal_host_poll() sees the channel's end */
	void (*dma_notify)(void *arg);
	void *dma_notify_arg; /**< argument of @c dma_notify */
};

/** @brief Statistics of one SDHI backend instance; all zero in a library built
 *         without counters (::MMCHAL_WITH_STATS 0, config.h). */
struct mmchal_sdhi_stats {
	uint32_t pio_fallbacks; /**< SYS-DMAC prepare/submit failures served by PIO */
	uint32_t dma_errors;    /**< DMA engine errors reported */
	uint32_t soft_resets;   /**< controller soft resets (probe and error recovery) */
	uint32_t requests;      /**< xfers started */
};

struct mmchal_sdhi_engine;

/**
 * @brief Runtime state of one SDHI backend instance (caller storage).
 *
 * Every field is private to the backend: pass the storage to an init
 * function, then read it only through the functions below.
 */
struct mmchal_sdhi {
	/* The fields the ops touch most come first, bytes and halfwords at the lowest
	   offsets: short load and store encodings on Thumb-2 and similar ISAs. */
	bool probed;                 /**< private: probe succeeded */
	bool present;                /**< private: card present as last seen */
	bool dma_on;                 /**< private: CC_EXT_MODE DMA bit as written */
	bool wide;                   /**< private: SD_ARG / SD_RSP in one 32-bit access */
	bool have_cbsy;              /**< private: INFO2 bit 30 (command busy) is valid */
	uint8_t port_width;          /**< private: data port width in use, bytes */
	uint8_t cnt_bits;            /**< private: block counter width, 16 or 32 */
	uint16_t version;            /**< private: VERSION register */
	uint16_t clk_ctrl;           /**< private: SD_CLK_CTRL to restore after a reset */
	uint16_t option;             /**< private: SD_OPTION to restore after a reset */
	uint16_t host_mode;          /**< private: HOST_MODE to restore after a reset */
	uint16_t if_mode;            /**< private: IF_MODE to restore after a reset */
	uint16_t size;               /**< private: SD_SIZE as written */
	uint16_t stop;               /**< private: SD_STOP as written */
	uint16_t sdio_mode;          /**< private: SDIO_MODE to restore after a reset */
	uint32_t state;              /**< private: phase bits of the current xfer */
	uint32_t flags;              /**< private: SoC flags with quirks applied */
	uint32_t irq_on;             /**< private: INFO1/2 interrupts enabled (1 = enabled) */
	uint32_t blocks_done;        /**< private: blocks moved (PIO) or known complete */
	uint32_t sg_idx;             /**< private: PIO position: sg entry */
	uint32_t sg_off;             /**< private: PIO position: offset in the entry */
	struct mmchal_cmd *cmd;      /**< private: command in flight */
	struct mmchal_data *data;    /**< private: data phase in flight */
	struct mmchal_cmd *stop_cmd; /**< private: STOP the controller sends, or NULL */
	/** private: DMA engine hooks; NULL for PIO, and in a library whose only SDHI backend is
	    the internal-DMAC one, which calls its hooks directly */
	const struct mmchal_sdhi_engine *eng;
	enum mmchal_sdhi_kind kind;     /**< private: backend in use */
	struct mmchal_sdhi_stats stats; /**< private: counters */
	volatile int dma_status;        /**< private: SYS-DMAC completion status */
	volatile bool dma_done;         /**< private: SYS-DMAC completion arrived */
	struct mmchal_sdhi_cfg cfg;     /**< private: copy of the configuration */
	struct mmchal_dma_xfer dxfer;   /**< private: SYS-DMAC transfer of the data phase */
};

/** @} */

/* ------------------------------------------------------------------------ */
/** @name Init functions
 *  @{
 */

/**
 * @brief Set up an internal-DMAC backend (R-Car Gen3/Gen4, RZ/G2L).
 *
 * Checks the configuration only; the controller is touched first by the
 * backend's @c probe op.
 *
 * @param[out] sdhi  caller storage for the instance
 * @param[in]  cfg   configuration (copied)
 * @param[out] out   the backend: ops and @c ctx = @p sdhi
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument, a bus accessor that fails mmchal_bus_check(),
 *                         no SoC entry, zero @c clk_hz, a @c port_width not 0/2/4/8,
 *                         a @c port that fails mmchal_port_check(), an unknown @c rev,
 *                         or the SoC entry is not an internal-DMAC one; @p sdhi and
 *                         @p out are then left as they were
 * @note Before the host is live; takes no lock.
 */
int mmchal_sdhi_idmac_init(struct mmchal_sdhi *sdhi, const struct mmchal_sdhi_cfg *cfg,
			   struct mmchal_backend *out);

/**
 * @brief Set up a SYS-DMAC backend (R-Car Gen2, Gen1, SH-Mobile with `dmas`).
 *
 * @param[out] sdhi  caller storage for the instance
 * @param[in]  cfg   configuration (copied); both @c chan entries required
 * @param[out] out   the backend
 * @retval 0               success
 * @retval MMCHAL_EINVAL   as mmchal_sdhi_idmac_init(), or a channel missing or failing
 *                         mmchal_dma_chan_check()
 * @note Before the host is live; takes no lock.
 */
int mmchal_sdhi_sysdmac_init(struct mmchal_sdhi *sdhi, const struct mmchal_sdhi_cfg *cfg,
			     struct mmchal_backend *out);

/**
 * @brief Set up a PIO backend (any SDHI; the CPU moves the data).
 *
 * @param[out] sdhi  caller storage for the instance
 * @param[in]  cfg   configuration (copied); channels are ignored
 * @param[out] out   the backend
 * @retval 0               success
 * @retval MMCHAL_EINVAL   as mmchal_sdhi_idmac_init(), except that every SoC kind is accepted
 * @note Before the host is live; takes no lock.
 */
int mmchal_sdhi_pio_init(struct mmchal_sdhi *sdhi, const struct mmchal_sdhi_cfg *cfg,
			 struct mmchal_backend *out);

/**
 * @brief Set up the backend the configuration calls for: the SoC entry's kind,
 *        except that a SYS-DMAC entry without both channels becomes PIO.
 *
 * @param[out] sdhi  caller storage for the instance
 * @param[in]  cfg   configuration (copied)
 * @param[out] out   the backend
 * @return as the init function it chose
 * @retval MMCHAL_EINVAL   also: a NULL argument, no SoC entry, or an unknown SoC kind (checked
 *                         before the backend is chosen, in every library)
 * @retval MMCHAL_ENOTSUP  the chosen backend is not built into this library
 * @note Before the host is live; takes no lock.
 */
int mmchal_sdhi_init(struct mmchal_sdhi *sdhi, const struct mmchal_sdhi_cfg *cfg,
		     struct mmchal_backend *out);

/**
 * @brief Read the statistics of an instance.
 * @param[in]  sdhi  instance
 * @param[out] out   statistics
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument
 * @retval MMCHAL_ENOTSUP  a library without counters (::MMCHAL_WITH_STATS 0, config.h):
 *                         nothing is counted, @p out is all zero
 * @note Under the host lock (the counters change in backend ops).
 */
int mmchal_sdhi_get_stats(const struct mmchal_sdhi *sdhi, struct mmchal_sdhi_stats *out);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_SDHI_H */
