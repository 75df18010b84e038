/**
 * @file
 * @brief The mock backend: a controller with no registers and a card of a
 *        chosen type (SD, eMMC, SDIO) over a caller-supplied RAM image.
 *
 * The mock implements every op of ::mmchal_backend_ops. It answers enough of
 * the SD, eMMC and SDIO protocols (PROTOCOL.md) for a card layer to identify
 * and use the card: identification, CID/CSD/SCR/EXT_CSD/CCCR/CIS, the card
 * state machine with the R1 status bits, block read and write (single,
 * multiple, CMD23 or CMD12 terminated), erase, bus width and timing switches.
 * A host core drives it exactly like a hardware backend; a test drives its
 * ops directly or through the host core, and asserts on the request log.
 *
 * What a test controls:
 * - capabilities: the host and DMA capabilities the mock declares
 *   (::mmchal_mock_cfg::host, ::mmchal_mock_cfg::dma). The mock also enforces the
 *   DMA constraints it declares: a segment list that breaks one is refused by
 *   @c start with ::MMCHAL_EINVAL and counted in ::mmchal_mock_stats::rejected.
 * - latency: each phase (command, data, hardware busy) completes after a set
 *   number of @c handle_irq calls, or only after mmchal_mock_trigger().
 * - faults: mmchal_mock_fail_cmd(), mmchal_mock_fail_data(), mmchal_mock_fail_op(),
 *   mmchal_mock_set_present(), mmchal_mock_set_busy_stuck(),
 *   mmchal_mock_set_write_protect().
 * - the log: one ::mmchal_mock_log_entry per command the card saw, in a
 *   caller-provided ring.
 *
 * Data movement: the PIO plan uses the CPU addresses of @c data->sg; the DMA
 * plans use the device addresses of ::mmchal_xfer::segs, turned into CPU
 * pointers by ::mmchal_mock_cfg::dma_to_cpu. The mock never touches memory
 * outside those buffers and the image.
 *
 * Completion: the events of a phase come from the @c handle_irq call that
 * completes it. The data of a transfer moves in that call, block by block, so
 * a fault at block K leaves exactly K blocks moved (reported by @c blocks_done).
 *
 * @note The backend ops run under the caller's (the host core's) lock, like
 *       those of any backend. The test-side functions of this header must not
 *       run concurrently with a backend op, except mmchal_mock_trigger() and
 *       mmchal_mock_set_present(), which only set atomic flags and may be called
 *       from any thread or interrupt context.
 */
#ifndef MMCHAL_MOCK_H
#define MMCHAL_MOCK_H

#include <mmchal/backend.h>
#include <mmchal/caps.h>
#include <mmchal/error.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The card the mock plays. */
enum mmchal_mock_card {
	MMCHAL_MOCK_SDHC = 0, /**< SD v2 high capacity: CSD v2, CCS = 1, block addresses */
	MMCHAL_MOCK_SDSC = 1, /**< SD v2 standard capacity: CSD v1, CCS = 0, byte addresses */
	MMCHAL_MOCK_EMMC = 2, /**< eMMC 5.1: CMD1, EXT_CSD, CMD6 SWITCH; sector mode by default */
	MMCHAL_MOCK_SDIO = 3, /**< SDIO card without memory: CMD5, CMD52, CMD53, CCCR, CIS */
};

/** @brief Card states (CURRENT_STATE codes of the R1 status, PROTOCOL.md section 2). */
enum mmchal_mock_state {
	MMCHAL_MOCK_ST_IDLE = 0,  /**< idle */
	MMCHAL_MOCK_ST_READY = 1, /**< ready */
	MMCHAL_MOCK_ST_IDENT = 2, /**< identification */
	MMCHAL_MOCK_ST_STBY = 3,  /**< stand-by */
	MMCHAL_MOCK_ST_TRAN = 4,  /**< transfer */
	MMCHAL_MOCK_ST_DATA = 5,  /**< sending data */
	MMCHAL_MOCK_ST_RCV = 6,   /**< receiving data */
	MMCHAL_MOCK_ST_PRG = 7,   /**< programming (busy) */
	MMCHAL_MOCK_ST_DIS = 8,   /**< disconnect */
	MMCHAL_MOCK_ST_INA = 16,  /**< inactive (no code on the bus) */
	MMCHAL_MOCK_ST_OFF = 17,  /**< no card, or the slot is powered off */
};

/** @name R1 card status bits (SD spec 4.10 section 4.10.1, JEDEC eMMC 6.13)
 *  @{
 */
#define MMCHAL_MOCK_R1_OUT_OF_RANGE    (1u << 31) /**< argument beyond the card */
#define MMCHAL_MOCK_R1_ADDRESS_ERROR   (1u << 30) /**< misaligned address */
#define MMCHAL_MOCK_R1_BLOCK_LEN_ERROR (1u << 29) /**< block length not allowed */
#define MMCHAL_MOCK_R1_ERASE_SEQ_ERROR (1u << 28) /**< erase commands out of order */
#define MMCHAL_MOCK_R1_ERASE_PARAM     (1u << 27) /**< invalid erase range */
#define MMCHAL_MOCK_R1_WP_VIOLATION    (1u << 26) /**< write to a protected card */
#define MMCHAL_MOCK_R1_COM_CRC_ERROR   (1u << 23) /**< the previous command had a CRC error */
#define MMCHAL_MOCK_R1_ILLEGAL_COMMAND (1u << 22) /**< the previous command was illegal */
#define MMCHAL_MOCK_R1_ERROR           (1u << 19) /**< general error */
#define MMCHAL_MOCK_R1_WP_ERASE_SKIP   (1u << 15) /**< protected blocks were not erased */
#define MMCHAL_MOCK_R1_STATE(s)        (((uint32_t)(s)&0xfu) << 9) /**< CURRENT_STATE field */
#define MMCHAL_MOCK_R1_STATE_OF(r1)    (((r1) >> 9) & 0xfu)        /**< CURRENT_STATE of a status */
#define MMCHAL_MOCK_R1_READY_FOR_DATA  (1u << 8)                   /**< buffer empty, not busy */
#define MMCHAL_MOCK_R1_SWITCH_ERROR    (1u << 7) /**< eMMC: the last CMD6 was refused */
#define MMCHAL_MOCK_R1_APP_CMD         (1u << 5) /**< the card takes the next command as ACMD */
/** @} */

/** @name R5 (SDIO CMD52/CMD53) response flags, bits 15:8 (PROTOCOL.md section 1)
 *  @{
 */
#define MMCHAL_MOCK_R5_COM_CRC_ERROR (1u << 15) /**< the previous command had a CRC error */
#define MMCHAL_MOCK_R5_ILLEGAL       (1u << 14) /**< the previous command was illegal */
#define MMCHAL_MOCK_R5_STATE(s)      (((uint32_t)(s)&3u) << 12) /**< 0 DIS, 1 CMD, 2 TRN */
#define MMCHAL_MOCK_R5_ERROR         (1u << 11)                 /**< general error */
#define MMCHAL_MOCK_R5_FUNCTION      (1u << 9)                  /**< invalid function number */
#define MMCHAL_MOCK_R5_OUT_OF_RANGE  (1u << 8)                  /**< address beyond the function */
/** @} */

/** @brief Opcode flag for mmchal_mock_fail_cmd() and the log: an application command. */
#define MMCHAL_MOCK_ACMD    0x100u
/** @brief Opcode for mmchal_mock_fail_cmd(): any command. */
#define MMCHAL_MOCK_ANY_CMD 0xffffffffu

/**
 * @brief Resolve a device address of a DMA plan to a CPU pointer.
 * @param[in] ctx   ::mmchal_mock_cfg::dma_ctx
 * @param[in] addr  device address of the first byte
 * @param[in] len   bytes the mock will access from @p addr
 * @param[in] dir   direction of the transfer (::MMCHAL_DIR_FROM_CARD: the mock writes)
 * @return a CPU pointer to @p len bytes, or NULL for a bus fault (the data
 *         phase then ends with ::MMCHAL_EFAULT)
 */
typedef void *(*mmchal_mock_dma_to_cpu_fn)(void *ctx, mmchal_dma_addr_t addr, uint32_t len,
					   enum mmchal_dir dir);

/** @brief One command the card saw (or the slot, when no card is present). */
struct mmchal_mock_log_entry {
	uint32_t seq;        /**< number of the command since mmchal_mock_init(), from 0 */
	uint32_t opcode;     /**< command index, | ::MMCHAL_MOCK_ACMD for an application command */
	uint32_t arg;        /**< argument */
	uint32_t flags;      /**< MMCHAL_RSP_* flags as the host sent them */
	uint32_t state;      /**< card state when the command arrived (::mmchal_mock_state) */
	uint32_t resp[4];    /**< the response as delivered (zero when none) */
	bool has_data;       /**< the transfer had a data phase */
	enum mmchal_dir dir; /**< data direction (when @c has_data) */
	uint32_t blksz;      /**< block size (when @c has_data) */
	uint32_t blocks;     /**< block count (when @c has_data) */
	enum mmchal_plan plan; /**< data path (when @c has_data) */
	uint32_t nsegs;        /**< DMA segments (DMA plans) */
	uint32_t sg_len;       /**< entries of @c data->sg */
	bool auto_stop;        /**< the controller was to send CMD12 itself */
	int cmd_error;         /**< error reported for the command, 0 when none */
	int data_error;        /**< error reported for the data phase, 0 when none */
	uint32_t blocks_done;  /**< blocks moved by the data phase */
	uint32_t events;       /**< MMCHAL_EV_* bits reported for this transfer */
};

/** @brief Counters. */
struct mmchal_mock_stats {
	uint64_t commands;       /**< commands started (logged) */
	uint64_t rejected;       /**< @c start calls refused (bad transfer, broken DMA rule) */
	uint64_t blocks_read;    /**< blocks moved from the card to memory */
	uint64_t blocks_written; /**< blocks moved from memory to the card */
	uint64_t irq_calls;      /**< @c handle_irq calls */
	uint64_t aborts;         /**< @c abort calls */
	uint64_t busy_polls;     /**< @c card_busy calls */
	uint64_t set_ios;        /**< successful @c set_ios calls */
	uint64_t tunings;        /**< successful @c execute_tuning calls */
	uint64_t hw_resets;      /**< successful @c hw_reset calls */
};

/** @brief Backend ops that mmchal_mock_fail_op() can make fail. */
enum mmchal_mock_op {
	MMCHAL_MOCK_OP_PROBE = 0,  /**< @c probe */
	MMCHAL_MOCK_OP_GET_CAPS,   /**< @c get_caps */
	MMCHAL_MOCK_OP_SET_IOS,    /**< @c set_ios */
	MMCHAL_MOCK_OP_START,      /**< @c start (refused, nothing sent) */
	MMCHAL_MOCK_OP_HANDLE_IRQ, /**< @c handle_irq (returns the error, reports nothing) */
	MMCHAL_MOCK_OP_ABORT,      /**< @c abort (returns the error after aborting) */
	MMCHAL_MOCK_OP_TUNING,     /**< @c execute_tuning */
	MMCHAL_MOCK_OP_HW_RESET,   /**< @c hw_reset */
};

/** @brief Number of ::mmchal_mock_op values. */
#define MMCHAL_MOCK_OP_COUNT 8

/** @brief Data-phase faults for mmchal_mock_fail_data(). */
enum mmchal_mock_data_fault {
	MMCHAL_MOCK_DATA_NONE = 0, /**< no fault (clears the switch) */
	MMCHAL_MOCK_DATA_CRC,      /**< CRC error on block K: ::MMCHAL_EIO, K blocks moved */
	MMCHAL_MOCK_DATA_TIMEOUT,  /**< the card stops before block K: ::MMCHAL_ETIMEDOUT */
	/** the data phase ends without an error after K blocks: the controller
	    reports MMCHAL_EV_DATA_DONE, @c blocks_done tells the truth */
	MMCHAL_MOCK_DATA_SHORT,
	MMCHAL_MOCK_DATA_DMA, /**< the engine faults on block K: ::MMCHAL_EFAULT */
};

/**
 * @brief Configuration. Zero fields take the stated defaults; a zero
 *        configuration with an image is a PIO-only SDHC slot answering at once.
 */
struct mmchal_mock_cfg {
	enum mmchal_mock_card card; /**< card type; default ::MMCHAL_MOCK_SDHC */
	/** card contents (SD/eMMC: the blocks; SDIO: function 1's address space);
	    owned by the caller, must outlive the mock; NULL only for SDIO */
	uint8_t *image;
	/** bytes of @c image. SDHC: a multiple of 512 KiB (CSD v2 C_SIZE unit), at
	    least 512 KiB. eMMC: a multiple of 512, at most 2^32 - 1 blocks. SDSC
	    and byte-addressed eMMC: a size the CSD v1 states exactly, at most
	    1 GiB: a multiple of 2 KiB up to 8 MiB, of 4 KiB up to 16 MiB, and so
	    on (the unit doubles with each C_SIZE_MULT) up to 256 KiB above
	    512 MiB. SDIO: up to 128 KiB are addressable (17-bit addresses).
	    Anything else: mmchal_mock_init() returns ::MMCHAL_EINVAL */
	uint64_t image_size;
	struct mmchal_host_caps host; /**< declared host capabilities (@c bus: MMCHAL_BUS_*) */
	/** declared DMA capabilities, also enforced on every DMA plan; kind
	    ::MMCHAL_DMA_NONE (the default) accepts the PIO plan only */
	struct mmchal_dma_caps dma;
	/** resolves DMA device addresses; NULL = the device address is the CPU
	    pointer's value (NULL pointer and values beyond uintptr_t fault) */
	mmchal_mock_dma_to_cpu_fn dma_to_cpu;
	void *dma_ctx; /**< first argument of @c dma_to_cpu */
	/** ring for the request log; NULL = no log (counters only) */
	struct mmchal_mock_log_entry *log;
	uint32_t log_len; /**< entries in @c log */
	/** @c handle_irq calls that report nothing before the command completes;
	    0 = the first call completes it */
	uint32_t cmd_latency;
	/** further @c handle_irq calls before the data phase completes; 0 = with the command */
	uint32_t data_latency;
	/** calls of @c card_busy (or @c handle_irq with MMCHAL_BUS_HW_BUSY) that see the card
	    busy after an R1b command that programs, a write or an erase; 0 = never busy */
	uint32_t busy_latency;
	/** true: nothing completes until mmchal_mock_trigger() (then the latencies are skipped) */
	bool manual;
	/** busy answers to ACMD41 / CMD1 / CMD5 with a voltage window before the card
	    reports power-up done; 0 = ready at the first */
	uint32_t op_cond_polls;
	/** error reported for a command that is illegal in the card's state (the card sends
	    no response and sets ILLEGAL_COMMAND in the next R1); 0 = ::MMCHAL_EILSEQ. A real
	    controller sees a timeout: set ::MMCHAL_ETIMEDOUT to get exactly that */
	int illegal_error;
	uint16_t rca;        /**< RCA an SD or SDIO card publishes with CMD3; 0 = 0x1234 */
	uint32_t serial;     /**< product serial number in the CID; 0 = 0x01234567 */
	bool no_cmd23;       /**< SD: SCR without CMD23 support (CMD23 is then illegal) */
	bool emmc_byte_mode; /**< eMMC: byte addressing (OCR access mode 00) instead of sectors */
	/** eMMC EXT_CSD CARD_TYPE (byte 196); 0 = 0x57 (HS26, HS52, DDR52, HS200, HS400) */
	uint8_t emmc_card_type;
	uint8_t sdio_functions;  /**< SDIO I/O functions, 1..7; 0 = 1 */
	uint16_t sdio_manf;      /**< SDIO CISTPL_MANFID manufacturer; 0 = 0x02d0 */
	uint16_t sdio_card_id;   /**< SDIO CISTPL_MANFID card id; 0 = 0x4d4b */
	uint16_t sdio_max_blksz; /**< SDIO largest function block size (CISTPL_FUNCE); 0 = 512 */
};

/** @brief Size of the SD/eMMC register images kept by the mock. */
#define MMCHAL_MOCK_EXT_CSD_SIZE 512u

/** @brief One SDIO function's register state (private). */
struct mmchal_mock_sdio_fn {
	uint16_t blksz; /**< private: block size set through the FBR (function 0: CCCR) */
};

/**
 * @brief The mock: caller storage, set up by mmchal_mock_init().
 *
 * Every field is private: read and change it only through the functions of
 * this header.
 */
struct mmchal_mock {
	struct mmchal_mock_cfg cfg; /**< private: configuration with defaults applied */
	uint64_t nblocks;           /**< private: 512-byte blocks of the image */

	/* The card. */
	uint32_t state;        /**< private: ::mmchal_mock_state */
	uint32_t rca;          /**< private: current RCA (0 = none) */
	uint32_t pending;      /**< private: R1 error bits waiting to be reported */
	uint32_t op_polls;     /**< private: busy ACMD41/CMD1/CMD5 answers left */
	uint32_t sbc;          /**< private: block count of a pending CMD23, 0 = none */
	uint32_t width;        /**< private: card bus width in bits */
	uint32_t hs;           /**< private: SD CMD6 group 1 / eMMC HS_TIMING / SDIO BSS */
	uint32_t last_written; /**< private: blocks written well by the last write (ACMD22) */
	uint64_t erase_start;  /**< private: first erase block (CMD32/CMD35) */
	uint64_t erase_end;    /**< private: last erase block (CMD33/CMD36) */
	uint32_t erase_seq;    /**< private: erase sequence progress bits */
	bool app;              /**< private: the next command is an application command */
	bool ccs;              /**< private: SD: block addressing accepted (HCS and CCS) */
	bool ro;               /**< private: write protected */
	bool powered;          /**< private: slot power on */
	bool busy;             /**< private: the card holds DAT0 low */
	bool busy_stuck;       /**< private: busy never ends */
	uint32_t busy_left;    /**< private: busy polls left */
	uint32_t busy_state;   /**< private: state to enter when busy ends */
	uint8_t cid[16];       /**< private: CID, bit 127 first */
	uint8_t csd[16];       /**< private: CSD, bit 127 first */
	uint8_t scr[8];        /**< private: SD SCR, bit 63 first */
	uint8_t payload[64];   /**< private: SD CMD6 / ACMD13 / ACMD22 / ACMD51 data */
	uint8_t ext_csd[MMCHAL_MOCK_EXT_CSD_SIZE]; /**< private: eMMC EXT_CSD */
	uint8_t cccr[0x20];                        /**< private: SDIO CCCR */
	uint8_t cis[0x80];                         /**< private: SDIO CIS area */
	struct mmchal_mock_sdio_fn fn[8];          /**< private: SDIO functions */
	uint8_t sdio_int;                          /**< private: SDIO interrupt pending bits */
	bool sdio_irq_on;                          /**< private: host SDIO interrupt enabled */
	bool sdio_irq_sent;                        /**< private: current interrupt reported */

	/* The slot and the controller. */
	struct mmchal_ios ios;    /**< private: last accepted bus settings */
	int present_flag;         /**< private: atomic: 1 card present */
	int present_seen;         /**< private: presence the mock last acted on */
	bool change_pending;      /**< private: MMCHAL_EV_CARD_CHANGE to report */
	int trigger_flag;         /**< private: atomic: mmchal_mock_trigger() called */
	bool active;              /**< private: a transfer is in flight */
	uint32_t phase;           /**< private: what the transfer waits for */
	uint32_t wait;            /**< private: handle_irq calls left in this phase */
	struct mmchal_xfer xfer;  /**< private: the transfer in flight */
	uint32_t log_idx;         /**< private: its log slot, or UINT32_MAX */
	uint32_t resp_pending[4]; /**< private: response to deliver */
	int cmd_err;              /**< private: command error to deliver */
	uint32_t src_kind;        /**< private: where the data phase goes */
	uint64_t src_off;         /**< private: byte offset in that place */
	uint64_t src_len;         /**< private: bytes the card sends or takes */
	uint32_t src_fn;          /**< private: SDIO function of a CMD53 */
	bool src_inc;             /**< private: SDIO CMD53 incrementing address */
	uint32_t blocks_done;     /**< private: blocks the last data phase moved */
	bool r1b;                 /**< private: the command waits for busy */
	uint32_t xfer_events;     /**< private: events reported for the transfer */

	/* Faults. */
	uint32_t fail_opcode;                    /**< private */
	int fail_error;                          /**< private */
	uint32_t fail_count;                     /**< private: 0 = every match */
	bool fail_on;                            /**< private */
	uint32_t dfault;                         /**< private: ::mmchal_mock_data_fault */
	uint32_t dfault_block;                   /**< private */
	uint32_t dfault_count;                   /**< private: 0 = every match */
	int op_error[MMCHAL_MOCK_OP_COUNT];      /**< private */
	uint32_t op_count[MMCHAL_MOCK_OP_COUNT]; /**< private */

	/* Log and counters. */
	uint32_t log_head;              /**< private: next slot to write */
	uint32_t log_used;              /**< private: valid entries */
	uint32_t seq;                   /**< private: commands logged so far */
	struct mmchal_mock_stats stats; /**< private */
};

/** @brief The mock's backend ops; pass the ::mmchal_mock as @c ctx. */
extern const struct mmchal_backend_ops mmchal_mock_ops;

/**
 * @brief Set up a mock: card powered and in idle state, no fault, empty log.
 * @param[out] m    mock
 * @param[in]  cfg  configuration, copied; the image and the log it names must outlive @p m
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument, unknown card type, image missing or of a size
 *                        the card type cannot describe, a log ring of length 0, an unknown
 *                        DMA kind or a DMA engine declared with 0 segments, a 0 segment
 *                        size or a non-power-of-two alignment or granule, an SDIO
 *                        function count above 7, a positive @c illegal_error or an SDIO
 *                        block size above 2048; @p m is then left as it was
 * @note Any context; no lock.
 */
int mmchal_mock_init(struct mmchal_mock *m, const struct mmchal_mock_cfg *cfg);

/**
 * @brief A backend handle for this mock (ops ::mmchal_mock_ops, ctx @p m).
 * @param[in]  m   initialised mock
 * @param[out] be  backend to fill
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument
 */
int mmchal_mock_backend(struct mmchal_mock *m, struct mmchal_backend *be);

/**
 * @brief Complete the phase in flight at the next @c handle_irq call, whatever the latency.
 *
 * In manual mode this is the only way a phase completes; one trigger completes
 * one phase (command, data, busy) or, when no transfer is in flight, the next
 * transfer's first phase.
 * @param[in,out] m  mock; NULL is ignored
 * @note Any context, any thread (an atomic store).
 */
void mmchal_mock_trigger(struct mmchal_mock *m);

/**
 * @brief Whether the next @c handle_irq call would report an event.
 * @param[in] m  mock
 * @return true when a phase completes, the card changed or an SDIO interrupt waits;
 *         false for NULL
 */
bool mmchal_mock_irq_pending(const struct mmchal_mock *m);

/**
 * @brief Whether a transfer is in flight (started, not completed, not aborted).
 * @param[in] m  mock
 * @return true while a transfer is in flight; false for NULL
 */
bool mmchal_mock_busy(const struct mmchal_mock *m);

/**
 * @brief Change the latencies (see ::mmchal_mock_cfg); applies from the next phase.
 * @param[in,out] m       mock; NULL is ignored
 * @param[in]     cmd     ::mmchal_mock_cfg::cmd_latency
 * @param[in]     data    ::mmchal_mock_cfg::data_latency
 * @param[in]     busy    ::mmchal_mock_cfg::busy_latency
 * @param[in]     manual  ::mmchal_mock_cfg::manual
 */
void mmchal_mock_set_latency(struct mmchal_mock *m, uint32_t cmd, uint32_t data, uint32_t busy,
			     bool manual);

/**
 * @brief Make commands fail.
 *
 * The next @p count commands with index @p opcode (| ::MMCHAL_MOCK_ACMD for an
 * application command, ::MMCHAL_MOCK_ANY_CMD for every command) complete with
 * MMCHAL_EV_CMD_ERROR and @p error. With ::MMCHAL_ETIMEDOUT the card never saw
 * the command (no response, no state change); with ::MMCHAL_EIO the card executed
 * it and the response was corrupted on the way (the state changes, the host
 * cannot know); with any other error the card did not execute it.
 * @param[in,out] m       mock
 * @param[in]     opcode  command to fail
 * @param[in]     error   negative ::mmchal_err to report; 0 clears the switch
 * @param[in]     count   commands to fail; 0 = every one until cleared
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL mock, @p error positive, or an opcode above 63 (flags aside)
 */
int mmchal_mock_fail_cmd(struct mmchal_mock *m, uint32_t opcode, int error, uint32_t count);

/**
 * @brief Make data phases fail (see ::mmchal_mock_data_fault).
 *
 * The fault hits the next @p count data phases that reach block @p block;
 * shorter ones are not affected and do not count.
 * @param[in,out] m      mock
 * @param[in]     fault  what happens; ::MMCHAL_MOCK_DATA_NONE clears the switch
 * @param[in]     block  index K of the block that fails (blocks 0..K-1 move)
 * @param[in]     count  data phases to hit; 0 = every one until cleared
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL mock or an unknown fault
 */
int mmchal_mock_fail_data(struct mmchal_mock *m, enum mmchal_mock_data_fault fault, uint32_t block,
			  uint32_t count);

/**
 * @brief Make a backend op fail with @p error.
 * @param[in,out] m      mock
 * @param[in]     op     op to fail
 * @param[in]     error  negative ::mmchal_err; 0 clears the switch
 * @param[in]     count  calls to fail; 0 = every one until cleared
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL mock, unknown op or @p error positive
 */
int mmchal_mock_fail_op(struct mmchal_mock *m, enum mmchal_mock_op op, int error, uint32_t count);

/**
 * @brief Insert or remove the card.
 *
 * Removal: @c get_cd returns 0, the phase in flight completes with
 * ::MMCHAL_ENOMEDIUM at the next @c handle_irq, which also reports
 * MMCHAL_EV_CARD_CHANGE, and so do every later command. Insertion: a fresh
 * card in idle state (the image is kept), MMCHAL_EV_CARD_CHANGE.
 * @param[in,out] m        mock; NULL is ignored
 * @param[in]     present  true to insert, false to remove
 * @note Any context, any thread (an atomic store).
 */
void mmchal_mock_set_present(struct mmchal_mock *m, bool present);

/**
 * @brief Make busy periods never end (stuck DAT0) while @p stuck is true.
 *
 * The card stays in prg state; @c card_busy returns 1 and no
 * MMCHAL_EV_BUSY_DONE comes. Clearing lets the busy period end normally.
 * @param[in,out] m      mock; NULL is ignored
 * @param[in]     stuck  true: busy never ends
 */
void mmchal_mock_set_busy_stuck(struct mmchal_mock *m, bool stuck);

/**
 * @brief Write-protect the card: @c get_ro returns 1, the CSD has TMP_WRITE_PROTECT,
 *        writes are refused with WP_VIOLATION and erases with WP_ERASE_SKIP.
 * @param[in,out] m   mock; NULL is ignored
 * @param[in]     ro  true to protect
 */
void mmchal_mock_set_write_protect(struct mmchal_mock *m, bool ro);

/**
 * @brief Clear every fault switch (commands, data, ops, stuck busy; not presence or WP).
 * @param[in,out] m  mock; NULL is ignored
 */
void mmchal_mock_clear_faults(struct mmchal_mock *m);

/**
 * @brief Raise SDIO card interrupts (CCCR INTx bits of functions 1..7).
 *
 * While the host has enabled the SDIO interrupt (@c enable_sdio_irq) and a
 * function's bit is pending, the next @c handle_irq reports MMCHAL_EV_SDIO_IRQ
 * once; @p mask 0 clears the pending bits.
 * @param[in,out] m     mock
 * @param[in]     mask  bit n = function n
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL mock, not an SDIO card, or a bit beyond the functions
 */
int mmchal_mock_sdio_irq(struct mmchal_mock *m, uint8_t mask);

/** @brief A snapshot of the card and slot, for assertions. */
struct mmchal_mock_status {
	enum mmchal_mock_state state; /**< current card state */
	uint32_t rca;                 /**< current RCA */
	uint32_t width;        /**< card bus width in bits (ACMD6, EXT_CSD[183], CCCR 0x07) */
	uint32_t hs_timing;    /**< SD: CMD6 group 1 function; eMMC: HS_TIMING; SDIO: BSS */
	bool busy;             /**< the card holds DAT0 low */
	bool ccs;              /**< SD: block addressing in effect */
	bool present;          /**< card present */
	struct mmchal_ios ios; /**< bus settings of the last successful @c set_ios */
	uint32_t blocks_done;  /**< blocks moved by the last data phase */
};

/**
 * @brief Snapshot of the card and slot.
 * @param[in]  m   mock
 * @param[out] st  snapshot
 * @retval 0              success
 * @retval MMCHAL_EINVAL  NULL argument
 */
int mmchal_mock_status(const struct mmchal_mock *m, struct mmchal_mock_status *st);

/**
 * @brief Counters since mmchal_mock_init().
 * @param[in] m  mock
 * @return the counters (never NULL for a non-NULL @p m); NULL for NULL
 */
const struct mmchal_mock_stats *mmchal_mock_stats(const struct mmchal_mock *m);

/**
 * @brief Entries in the log (at most ::mmchal_mock_cfg::log_len).
 * @param[in] m  mock
 * @return entries kept; the oldest are overwritten once the ring is full; 0 for NULL
 */
uint32_t mmchal_mock_log_count(const struct mmchal_mock *m);

/**
 * @brief One log entry.
 * @param[in] m  mock
 * @param[in] i  0 = the oldest kept entry ... count - 1 = the newest
 * @return the entry, or NULL when @p m is NULL or @p i is beyond the count
 */
const struct mmchal_mock_log_entry *mmchal_mock_log_get(const struct mmchal_mock *m, uint32_t i);

/**
 * @brief The newest log entry.
 * @param[in] m  mock
 * @return the entry, or NULL when @p m is NULL or the log is empty
 */
const struct mmchal_mock_log_entry *mmchal_mock_log_last(const struct mmchal_mock *m);

/**
 * @brief Empty the log (the sequence numbers go on); the next command is
 *        logged in the first entry of the caller's ring.
 * @param[in,out] m  mock; NULL is ignored
 */
void mmchal_mock_log_clear(struct mmchal_mock *m);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_MOCK_H */
