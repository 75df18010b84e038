/**
 * @file
 * @brief Device-tree front end: from a flattened device tree (DTB) to SDHI
 *        host configurations, capabilities and limits, each with its reason.
 *
 * mmchal_dt_probe() checks the whole blob (the caller's size is a hard bound:
 * nothing past it is read), finds every SDHI controller node by compatible
 * (MMCIF and other MMC controllers are not SDHI), and for each one reads
 * @c status, @c reg (with the parent's @c \#address-cells / @c \#size-cells),
 * @c interrupts, @c iommus, @c dmas / @c dma-names, @c bus-width (binding
 * default 1), @c max-frequency and the boolean @c cap-*, @c mmc-*,
 * @c sd-uhs-*, @c non-removable, @c broken-cd and @c no-1-8-v properties.
 * Backend and SoC data come from the SoC table (mmchal/sdhi.h) entry of the
 * @b earliest compatible string of the node that the table knows; a node
 * matching none is reported as unsupported, never guessed. The platform
 * facts that a tree does not carry (the bus_shift rule by register window,
 * SoCs whose IOMMU cannot be used for SDHI, revision quirks) are applied
 * from the root compatible and the optional SoC revision input.
 *
 * The result per node is a backend configuration (::mmchal_sdhi_cfg), a
 * ::mmchal_caps the host core accepts as it is, the limits an SD, an eMMC and
 * an SDIO card would get (mmchal_limits_derive()), and one line of text for
 * every fact that was derived rather than read.
 *
 * A node with @c status other than "okay" is reported (and its configuration
 * derived from the tree) but marked not enabled: it must not be probed.
 *
 * Strings in the results (compatibles, model) point into the blob: keep the
 * blob while the results are used.
 *
 * Built only when the library is configured with libfdt (MMCHAL_HAVE_LIBFDT
 * in mmchal/config.h). The blob is read by a bounded reader of the library's
 * own, which never trusts the blob and needs no C library.
 *
 * @note Any context; no locks, no allocation, no recursion. The caller owns
 *       every buffer. Time is bounded by a few passes over the blob: the
 *       check, the walk, and at most 64 phandle look-ups (interrupt parents;
 *       a parent shared by consecutive nodes is looked up once). Beyond that
 *       budget an interrupt's cells are reported as listed, and the reason
 *       says so.
 */
#ifndef MMCHAL_DT_H
#define MMCHAL_DT_H

#include <mmchal/caps.h>
#include <mmchal/limits.h>
#include <mmchal/sdhi.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Deepest node nesting accepted (root = 1); deeper trees give ::MMCHAL_ERANGE. */
#define MMCHAL_DT_MAX_DEPTH 64u
/** @brief Most nodes accepted in one tree; more give ::MMCHAL_ERANGE. */
#define MMCHAL_DT_MAX_NODES 65536u
/** @brief Size of ::mmchal_dt_node::path, bytes with the NUL. */
#define MMCHAL_DT_PATH_MAX  128u
/** @brief Most root compatibles kept in ::mmchal_dt_board::compat. */
#define MMCHAL_DT_BOARD_MAX 4u
/** @brief Most reasons kept per node in ::mmchal_dt_node::why. */
#define MMCHAL_DT_WHY_MAX   24u
/** @brief Size of one reason text, bytes with the NUL. */
#define MMCHAL_DT_WHY_LEN   160u
/** @brief Most interrupt cells kept in ::mmchal_dt_node::irq. */
#define MMCHAL_DT_IRQ_CELLS 4u

/** @brief The facts a reason explains (::mmchal_dt_why::fact). */
enum mmchal_dt_fact {
	MMCHAL_DT_FACT_STATUS = 0, /**< enabled or not */
	MMCHAL_DT_FACT_COMPATIBLE, /**< which compatible string matched, or none */
	MMCHAL_DT_FACT_BACKEND,    /**< internal DMAC, SYS-DMAC or PIO */
	MMCHAL_DT_FACT_BUS_SHIFT,  /**< register spacing */
	MMCHAL_DT_FACT_REG,        /**< register window */
	MMCHAL_DT_FACT_INTERRUPT,  /**< interrupt line and completion context */
	MMCHAL_DT_FACT_IOMMU,      /**< IOMMU present and usable */
	MMCHAL_DT_FACT_DMA,        /**< DMA channels and engine constraints */
	MMCHAL_DT_FACT_BUS_WIDTH,  /**< data bus width */
	MMCHAL_DT_FACT_BUS_CAPS,   /**< timing modes and slot properties */
	MMCHAL_DT_FACT_FREQUENCY,  /**< highest card clock */
	MMCHAL_DT_FACT_MERGE,      /**< merge capability */
	MMCHAL_DT_FACT_BLK_COUNT,  /**< block counter and per-SoC block limit */
	MMCHAL_DT_FACT_QUIRK,      /**< a SoC or revision quirk */
	MMCHAL_DT_FACT_COUNT,      /**< number of facts */
};

/** @brief One derived fact and why it has its value. */
struct mmchal_dt_why {
	enum mmchal_dt_fact fact;     /**< which fact */
	char text[MMCHAL_DT_WHY_LEN]; /**< the reason, NUL-terminated English text */
};

/** @brief Index of the per-card limits in ::mmchal_dt_node::limits. */
enum mmchal_dt_card {
	MMCHAL_DT_CARD_SD = 0, /**< an SD memory card */
	MMCHAL_DT_CARD_MMC,    /**< an eMMC */
	MMCHAL_DT_CARD_SDIO,   /**< an SDIO card */
	MMCHAL_DT_CARD_COUNT,  /**< number of card kinds */
};

/** @brief Optional inputs of the probe. A zeroed struct (or NULL) means defaults. */
struct mmchal_dt_opts {
	/**
	 * SoC revision as text: "ES", major, ".", minor (e.g. "ES2.0", "ES3.0"; the "ES" is
	 * optional, any case). A device tree does not carry it; on R-Car H3 it
	 * decides whether the IOMMU can be used for SDHI (ES3.x) or not
	 * (ES1.x, ES2.x), and ES1.x parts have the old DMAC status layout.
	 * NULL = unknown: the probe assumes the latest revision and says so.
	 */
	const char *soc_revision;
	/** port facilities for the completion policy; NULL = a lock and deferred work */
	const struct mmchal_port_caps *port;
	/** completion policy tuning; NULL = defaults */
	const struct mmchal_policy_cfg *policy;
};

/** @brief The board: the root node's compatibles and model. */
struct mmchal_dt_board {
	uint32_t ncompat; /**< root compatibles found (only the first ::MMCHAL_DT_BOARD_MAX kept) */
	const char *compat[MMCHAL_DT_BOARD_MAX]; /**< root compatibles, in tree order */
	const char *model; /**< root @c model, or NULL when the tree has none */
	/** the root compatible that names the SoC (e.g. "renesas,r8a7795"), or NULL */
	const char *soc;
	uint8_t rev_major;        /**< SoC revision input, major; 0 = not given */
	uint8_t rev_minor;        /**< SoC revision input, minor */
	enum mmchal_sdhi_rev rev; /**< the revision as the SDHI quirks know it */
};

/** @brief Backend a node gets. */
enum mmchal_dt_backend {
	MMCHAL_DT_BACKEND_NONE = 0, /**< unsupported node: no backend */
	MMCHAL_DT_BACKEND_IDMAC,    /**< SDHI with its internal DMAC */
	MMCHAL_DT_BACKEND_SYSDMAC,  /**< SDHI fed by an external SYS-DMAC */
	MMCHAL_DT_BACKEND_PIO,      /**< SDHI, the CPU moves the data */
};

/** @brief Everything the probe found and derived for one SDHI node. */
struct mmchal_dt_node {
	char path[MMCHAL_DT_PATH_MAX]; /**< full node path, e.g. "/soc/mmc@ee100000" */
	uint32_t offset;               /**< node offset in the structure block */
	bool enabled;   /**< @c status is "okay" (or absent): the node may be probed */
	bool supported; /**< a compatible string is in the SoC table */
	/**
	 * 0 when the node was read completely; otherwise why not
	 * (::MMCHAL_EPROTO: a property of the wrong length or form, e.g. @c reg;
	 * ::MMCHAL_ERANGE: a value the hardware cannot have, e.g. a 96-bit
	 * address, or a path longer than ::MMCHAL_DT_PATH_MAX; limits derivation
	 * errors as mmchal_limits_derive() returns them). The reason is in @c why.
	 */
	int error;
	/** the compatible that matched; for an unsupported node its first compatible */
	const char *compatible;
	const struct mmchal_sdhi_soc *soc; /**< SoC table entry; NULL when unsupported */
	enum mmchal_dt_backend backend;    /**< backend the node gets */
	/**
	 * backend configuration from the tree: @c soc, @c rev, @c bus.bus_shift,
	 * @c reg_dma (the register window's bus address), @c caps.bus (the
	 * board's bits: the tree's, after no-1-8-v, with 1.8 V signalling and SD
	 * high speed where the listed modes imply them) and @c caps.f_max_hz. The
	 * port fills in what a tree does not say: the bus accessor's ops and ctx,
	 * @c clk_hz, @c port and the SYS-DMAC channels. The probed backend then
	 * declares the capabilities in @c caps.
	 */
	struct mmchal_sdhi_cfg cfg;
	uint8_t bus_shift;  /**< register spacing: byte offset = logical offset << bus_shift */
	uint64_t reg_addr;  /**< register window address in the parent bus's address space */
	uint64_t reg_size;  /**< register window size, bytes */
	uint32_t nreg;      /**< entries in @c reg (only the first is the register window) */
	uint8_t irq_ncells; /**< cells of the first interrupt specifier; 0 = no @c interrupts */
	uint32_t irq[MMCHAL_DT_IRQ_CELLS]; /**< the first interrupt specifier's cells */
	bool iommu_listed;                 /**< the node has an @c iommus property */
	bool iommu_usable;                 /**< ... and the platform can use it for SDHI */
	uint32_t iommu_phandle;            /**< first @c iommus phandle; 0 = none */
	uint32_t iommu_id;       /**< its first specifier cell (the master ID); 0 = none */
	uint8_t dma_tx;          /**< @c dma-names entries "tx" */
	uint8_t dma_rx;          /**< @c dma-names entries "rx" */
	uint8_t bus_width;       /**< 1, 4 or 8 (@c bus-width; the binding default is 1) */
	struct mmchal_caps caps; /**< capabilities for the host core, as it accepts them */
	/** limits for an SD, an eMMC and an SDIO card, indexed by ::mmchal_dt_card */
	struct mmchal_limits limits[MMCHAL_DT_CARD_COUNT];
	uint32_t nwhy;                               /**< entries used in @c why */
	bool why_lost;                               /**< some reasons did not fit in @c why */
	struct mmchal_dt_why why[MMCHAL_DT_WHY_MAX]; /**< the derived facts and their reasons */
};

/**
 * @brief Check a device-tree blob completely.
 *
 * Header (magic, totalsize within @p size, version 16 or 17-compatible,
 * block offsets and sizes inside the blob), memory reservation map, and every
 * token of the structure block (tag, node names, property lengths inside the
 * structure block, property name offsets inside the strings block, nesting,
 * properties before child nodes, one root, an END token).
 *
 * @param[in] blob  the blob
 * @param[in] size  bytes readable at @p blob: nothing past it is read
 * @retval 0              the blob is well-formed
 * @retval MMCHAL_EINVAL  @p blob is NULL
 * @retval MMCHAL_EPROTO  the blob is malformed (shorter than the header,
 *                        bad magic, totalsize beyond @p size, unsupported
 *                        version, a block or token outside the blob)
 * @retval MMCHAL_ERANGE  nesting deeper than ::MMCHAL_DT_MAX_DEPTH or more
 *                        than ::MMCHAL_DT_MAX_NODES nodes
 * @note Any context.
 */
int mmchal_dt_check(const void *blob, size_t size);

/**
 * @brief Parse a SoC revision text ("ES2.0", "es3.1", "2.0").
 *
 * @param[in]  text   the revision
 * @param[out] major  major number (1..255)
 * @param[out] minor  minor number (0..255)
 * @retval 0              parsed
 * @retval MMCHAL_EINVAL  a NULL pointer, or text that is not [ES]MAJOR.MINOR
 * @note Any context.
 */
int mmchal_dt_parse_revision(const char *text, uint8_t *major, uint8_t *minor);

/**
 * @brief Find and derive every SDHI node of a device tree.
 *
 * @param[in]  blob    the blob
 * @param[in]  size    bytes readable at @p blob: nothing past it is read
 * @param[in]  opts    optional inputs; NULL = defaults
 * @param[out] board   the root's compatibles and model; may be NULL
 * @param[out] nodes   results, in tree order; may be NULL when @p max is 0
 * @param[in]  max     entries available at @p nodes
 * @param[out] nfound  SDHI nodes in the tree (also those that did not fit)
 * @retval 0              success; @p nodes[0 .. *nfound - 1] are filled (*nfound is
 *                        untouched when a NULL argument is refused, and 0 after any
 *                        other error but ::MMCHAL_ENOSPC)
 * @retval MMCHAL_EINVAL  @p blob or @p nfound NULL, @p nodes NULL with
 *                        @p max > 0, or a malformed @c opts->soc_revision
 * @retval MMCHAL_EPROTO  the blob is malformed (see mmchal_dt_check())
 * @retval MMCHAL_ERANGE  the tree is too deep or has too many nodes
 * @retval MMCHAL_ENOSPC  more SDHI nodes than @p max: the first @p max are
 *                        filled, *nfound says how many there are
 * @note A problem inside one node (e.g. a @c reg of the wrong length) is not
 *       an error of the call: it is ::mmchal_dt_node::error of that node.
 *       Any context; no allocation.
 */
int mmchal_dt_probe(const void *blob, size_t size, const struct mmchal_dt_opts *opts,
		    struct mmchal_dt_board *board, struct mmchal_dt_node *nodes, size_t max,
		    size_t *nfound);

/**
 * @brief Name of a backend ("idmac", "sysdmac", "pio", "none").
 * @param[in] backend  the backend
 * @return a static string; "?" for an out-of-range value
 */
const char *mmchal_dt_backend_name(enum mmchal_dt_backend backend);

/**
 * @brief Name of a fact ("status", "bus_shift", ...).
 * @param[in] fact  the fact
 * @return a static string; "?" for an out-of-range value
 */
const char *mmchal_dt_fact_name(enum mmchal_dt_fact fact);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_DT_H */
