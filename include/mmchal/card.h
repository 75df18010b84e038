/**
 * @file
 * @brief The card layer: identify an SD, eMMC or SDIO card and move blocks.
 *
 * The card layer drives a host only through ::mmchal_host_ops and its context
 * (the host core's table, or an adapter of the caller's own). It powers the
 * slot, identifies the card (SD v1/v2 with SDSC, SDHC and SDXC; eMMC with
 * EXT_CSD, bus width and high-speed modes; SDIO, reported only), tells the
 * host the card type as soon as it is known (@c init_card, so the limits
 * follow the card) and then reads, writes and erases 512-byte blocks, split
 * into requests that respect the host's limits.
 *
 * All memory is the caller's: the ::mmchal_card object, its configuration
 * and a small DMA-capable buffer for register reads (EXT_CSD, SCR, switch
 * status). Nothing is global; any number of cards may be driven at once.
 *
 * Errors: every function returns 0 or a negative ::mmchal_err. A failure also
 * fills ::mmchal_card::err with the command that failed, its argument and the
 * card status, and for a transfer the bytes that are known to be done.
 *
 * Removal: once the host reports no card (get_cd, or a request failing with
 * ::MMCHAL_ENOMEDIUM) every later call returns ::MMCHAL_ENOMEDIUM until
 * mmchal_card_init() succeeds again.
 *
 * Build options (config.h): a library built with ::MMCHAL_EMMC_RO identifies
 * only eMMC and refuses mmchal_card_write() and mmchal_card_erase() with
 * ::MMCHAL_ENOTSUP; one built without ::MMCHAL_WITH_SDIO detects an SDIO or
 * combo card and refuses it with ::MMCHAL_ENOTSUP; one built without
 * ::MMCHAL_WITH_HS200 runs an eMMC at DDR52 or high speed at most.
 *
 * @note One caller at a time per card: the card layer takes no lock. Calls
 *       wait for completion (through the host's @c request_sync), so they run
 *       in thread context, never in an interrupt handler.
 */
#ifndef MMCHAL_CARD_H
#define MMCHAL_CARD_H

#include <mmchal/caps.h>
#include <mmchal/error.h>
#include <mmchal/host.h>
#include <mmchal/limits.h>
#include <mmchal/request.h>
#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Block (sector) size of every block transfer, bytes. */
#define MMCHAL_CARD_BLKSZ 512u

/** @brief Size of the register buffer ::mmchal_card_cfg::buf must provide, bytes. */
#define MMCHAL_CARD_BUF_SIZE 512u

/** @brief Scatter-gather entries built into ::mmchal_card for split requests. */
#define MMCHAL_CARD_SG_INLINE 16u

/** @brief Most SDIO I/O functions (1..7) a card can have. */
#define MMCHAL_SDIO_MAX_FUNCS 7u

/** @brief Configuration of a card slot; zero means the default in every field. */
struct mmchal_card_cfg {
	const struct mmchal_host_ops *ops; /**< host operations (required) */
	void *ctx;                         /**< host object passed to every op */
	/** register buffer, CPU address, at least ::MMCHAL_CARD_BUF_SIZE bytes (required) */
	void *buf;
	mmchal_phys_addr_t buf_phys; /**< physical address of @c buf, for DMA hosts */
	/** scatter-gather scratch for split requests; NULL = the inline
	    ::MMCHAL_CARD_SG_INLINE entries. A request never has more entries than
	    this array, so give max_segs entries to use the host's full limit. */
	struct mmchal_sg *sg_scratch;
	uint32_t sg_scratch_len;  /**< entries in @c sg_scratch */
	uint32_t f_init_hz;       /**< identification clock, Hz; 0 = 400 000 */
	uint32_t cmd_timeout_ms;  /**< wait for a command without data, ms; 0 = 1 000 */
	uint32_t op_cond_tries;   /**< ACMD41 / CMD1 / CMD5 polls before giving up; 0 = 1 000 */
	uint32_t busy_poll_tries; /**< card_busy or CMD13 polls after a busy command; 0 = 100 000 */
	uint16_t mmc_rca;         /**< RCA given to an eMMC (CMD3); 0 = 1 */
	/** MMCHAL_BUS_* bits the card layer must not use even when the host has them
	    (e.g. ::MMCHAL_BUS_HS400 to stop at HS200) */
	uint32_t bus_disable;
	/** optional wait between polls, µs; NULL = poll back to back (count only) */
	void (*delay_us)(void *arg, uint32_t us);
	void *delay_arg; /**< first argument of @c delay_us */
};

/** @brief Card identification (CID), decoded. */
struct mmchal_cid {
	uint8_t mid;   /**< manufacturer ID */
	uint16_t oid;  /**< OEM / application ID (eMMC: CBX and OID) */
	char pnm[7];   /**< product name, NUL-terminated (SD 5, eMMC 6 characters) */
	uint8_t prv;   /**< product revision, BCD n.m */
	uint32_t psn;  /**< product serial number */
	uint16_t year; /**< manufacturing year */
	uint8_t month; /**< manufacturing month, 1..12 */
};

/** @brief Card-specific data (CSD), decoded. */
struct mmchal_csd {
	uint8_t structure;      /**< CSD_STRUCTURE [127:126] */
	uint8_t spec_vers;      /**< eMMC SPEC_VERS [125:122]; 0 on SD */
	uint32_t tran_speed_hz; /**< TRAN_SPEED [103:96] as a clock, Hz */
	uint16_t ccc;           /**< card command classes [95:84]; bit n = class n */
	uint8_t read_bl_len;    /**< READ_BL_LEN [83:80], log2 bytes */
	uint64_t capacity;      /**< capacity from C_SIZE, bytes */
	uint32_t erase_grp;     /**< eMMC erase group from [46:37], 512-byte sectors; SD 1 */
	bool perm_wp;           /**< PERM_WRITE_PROTECT [13] */
	bool tmp_wp;            /**< TMP_WRITE_PROTECT [12] */
};

/** @brief SD configuration register (SCR), decoded. */
struct mmchal_scr {
	uint8_t sd_spec;     /**< SD_SPEC [59:56]: 0 = 1.0x, 1 = 1.10, 2 = 2.00 and later */
	bool sd_spec3;       /**< SD_SPEC3 [47] */
	uint8_t bus_widths;  /**< SD_BUS_WIDTHS [51:48]: bit 0 1-bit, bit 2 4-bit */
	uint8_t erased_byte; /**< DATA_STAT_AFTER_ERASE [55]: 0x00 or 0xFF */
	bool cmd23;          /**< CMD_SUPPORT bit 33: SET_BLOCK_COUNT */
};

/** @brief Extended CSD of an eMMC, the fields the card layer uses. */
struct mmchal_ext_csd {
	uint8_t rev;               /**< EXT_CSD_REV [192] */
	uint8_t card_type;         /**< CARD_TYPE [196] */
	uint32_t sec_count;        /**< SEC_COUNT [215:212], 512-byte sectors */
	uint32_t cmd6_time_ms;     /**< GENERIC_CMD6_TIME [248] in ms; 500 when not given */
	uint8_t erased_byte;       /**< ERASED_MEM_CONT [181]: 0x00 or 0xFF */
	uint8_t bus_width;         /**< BUS_WIDTH [183] as read */
	uint8_t hs_timing;         /**< HS_TIMING [185] as read */
	uint32_t hc_erase_grp;     /**< HC_ERASE_GRP_SIZE [224] in sectors */
	uint32_t erase_timeout_ms; /**< ERASE_TIMEOUT_MULT [223] x 300 ms; 0 = not given */
	bool trim;                 /**< SEC_FEATURE_SUPPORT [231] bit 4: TRIM and DISCARD */
};

/** @brief What an SDIO card reports (CCCR and CIS). */
struct mmchal_sdio_info {
	uint8_t nfuncs;        /**< I/O functions, from the CMD5 response [30:28] */
	bool mem_present;      /**< the card also has an SD memory part (combo) */
	uint8_t cccr_rev;      /**< CCCR revision [3:0] of register 0x00 */
	uint8_t sdio_rev;      /**< SDIO revision [7:4] of register 0x00 */
	uint8_t caps;          /**< card capabilities, CCCR 0x08 */
	uint16_t vendor;       /**< CISTPL_MANFID manufacturer code */
	uint16_t device;       /**< CISTPL_MANFID manufacturer information (card ID) */
	uint16_t fn0_blk_size; /**< function 0 largest block (CISTPL_FUNCE), bytes */
	/** largest block of function 1..7 (index 0..6), bytes; 0 = not reported */
	uint16_t fn_blk_size[MMCHAL_SDIO_MAX_FUNCS];
	uint16_t max_blk_size; /**< largest block over all functions, bytes */
};

/** @brief What identification found and how the bus was set up. */
struct mmchal_card_info {
	/** identified type; UNKNOWN until init succeeds, except for an SDIO or combo
	    card refused by a library without ::MMCHAL_WITH_SDIO */
	enum mmchal_card_type type;
	uint32_t ocr;                    /**< operation conditions register, last response */
	uint16_t rca;                    /**< relative card address */
	bool block_addr;                 /**< commands address 512-byte blocks (SDHC/SDXC, sector
					 mode eMMC); false: byte addresses */
	bool sd_v2;                      /**< the card answered CMD8 (SD physical layer 2.00+) */
	bool read_only;                  /**< write-protect switch or CSD write protection */
	bool cmd23;                      /**< SET_BLOCK_COUNT used for multiple-block transfers */
	uint64_t sectors;                /**< capacity, 512-byte sectors; 0 for SDIO */
	uint32_t erase_unit;             /**< smallest erase (::MMCHAL_CARD_ERASE) unit, sectors */
	uint8_t erased_byte;             /**< what erased blocks read back as: 0x00 or 0xFF */
	uint32_t raw_cid[4];             /**< CID as received, bits 127:96 first */
	uint32_t raw_csd[4];             /**< CSD as received, bits 127:96 first */
	struct mmchal_cid cid;           /**< decoded CID (memory cards) */
	struct mmchal_csd csd;           /**< decoded CSD (memory cards) */
	struct mmchal_scr scr;           /**< decoded SCR (SD) */
	struct mmchal_ext_csd ext_csd;   /**< decoded EXT_CSD (eMMC v4+) */
	struct mmchal_sdio_info sdio;    /**< SDIO part (SDIO and combo cards) */
	enum mmchal_bus_width bus_width; /**< data bus width in use */
	enum mmchal_timing timing;       /**< timing mode in use */
	uint32_t clock_hz;               /**< card clock requested, Hz */
	/** execute_tuning ran and succeeded (never without ::MMCHAL_WITH_HS200) */
	bool tuned;
};

/** @brief ::mmchal_card_err::opcode of a failure that is not a command's (a
    refused argument, a write-protected card, a host op such as set_ios). */
#define MMCHAL_CARD_NO_CMD 0xffffffffu

/** @brief Where the last failure happened and what the card said. */
struct mmchal_card_err {
	int err; /**< 0 or the negative ::mmchal_err returned */
	/** command that failed (0..63; with @c app an ACMD), or ::MMCHAL_CARD_NO_CMD */
	uint32_t opcode;
	bool app;          /**< the command was an application command (after CMD55) */
	uint32_t arg;      /**< its argument */
	uint32_t status;   /**< card status (R1/R5) of the failed step, or from CMD13 */
	bool status_valid; /**< @c status holds a status the card sent */
	/** for a read or write: bytes from the start of the call that are known to be
	    done (an SD write failure asks the card with ACMD22) */
	uint64_t bytes_done;
	bool bytes_from_card; /**< @c bytes_done was reported by the card (ACMD22) */
};

/** @brief Card state; caller storage, initialise with mmchal_card_setup(). */
struct mmchal_card {
	struct mmchal_card_cfg cfg;   /**< copy of the configuration */
	struct mmchal_host_caps caps; /**< host capabilities, read at init */
	struct mmchal_limits limits;  /**< host limits for this card, read at init */
	struct mmchal_ios ios;        /**< bus settings last applied */
	struct mmchal_card_info info; /**< identification result */
	struct mmchal_card_err err;   /**< last failure (cleared at every call) */
	bool ready;                   /**< identified; block calls allowed */
	bool removed;                 /**< the card went away; calls fail until init */
	/** inline scratch for split requests when the configuration gives none */
	struct mmchal_sg sg_inline[MMCHAL_CARD_SG_INLINE];
};

/** @brief Erase kinds for mmchal_card_erase(). */
enum mmchal_erase_kind {
	/** erase whole erase units: the blocks then read as
	    ::mmchal_card_info::erased_byte. eMMC ranges must be erase-unit aligned. */
	MMCHAL_CARD_ERASE = 0,
	/** the data is no longer needed; any block range. Contents afterwards are the
	    erased byte or unchanged (eMMC DISCARD/TRIM, SD erase) */
	MMCHAL_CARD_DISCARD = 1,
};

/**
 * @brief Prepare a card object for a slot (no bus traffic).
 * @param[out] card  card object (caller storage)
 * @param[in]  cfg   configuration; copied
 * @retval 0              ready for mmchal_card_init()
 * @retval MMCHAL_EINVAL  NULL pointer, an ops table without @c request_sync or
 *                        @c set_ios, no buffer, or a scratch array of 0 entries; @p card
 *                        is then left as it was
 * @note Any context; no locks.
 */
int mmchal_card_setup(struct mmchal_card *card, const struct mmchal_card_cfg *cfg);

/**
 * @brief Power the slot, identify the card and set up the fastest bus both
 *        the host and the card allow.
 *
 * Calls @c init_card as soon as the card type is known. May be called again
 * after a failure or a removal: it starts from power-up every time.
 *
 * A library built without ::MMCHAL_WITH_SDIO (config.h) detects an SDIO or
 * combo card by CMD5 and refuses it: ::MMCHAL_ENOTSUP, the type
 * (::MMCHAL_CARD_SDIO or ::MMCHAL_CARD_SD_COMBO) and the CMD5 answer's
 * function count and memory flag in ::mmchal_card::info, the card not ready,
 * ::mmchal_card_err::opcode ::MMCHAL_CARD_NO_CMD; nothing is sent after CMD5
 * and @c init_card is not called. One built without ::MMCHAL_WITH_HS200
 * brings an eMMC up to DDR52 or high speed at most, with no tuning.
 *
 * @param[in,out] card  set-up card object
 * @retval 0                 identified; ::mmchal_card::info is filled
 * @retval MMCHAL_EINVAL     @p card is NULL or not set up
 * @retval MMCHAL_ENOMEDIUM  no card in the slot, or it went away during init
 * @retval MMCHAL_ETIMEDOUT  a command was not answered (no card answered any
 *                           identification command, or one step failed)
 * @retval MMCHAL_EIO        a CRC error on the bus
 * @retval MMCHAL_EPROTO     a malformed answer (CMD8 echo, EXT_CSD mismatch, a
 *                           byte-addressed card claiming more than 4 GiB)
 * @retval MMCHAL_ENOTSUP    the card needs something the host lacks, or an SDIO or
 *                           combo card in a library built without ::MMCHAL_WITH_SDIO
 * @retval MMCHAL_EILSEQ     the card's status (R1, R5) reported an illegal command or a
 *                           refused switch, or CMD55 was not taken as an APP_CMD
 * @retval MMCHAL_ERANGE     the card's status reported an argument out of range or a
 *                           misaligned address (R1 OUT_OF_RANGE / ADDRESS_ERROR, R5
 *                           OUT_OF_RANGE)
 * @retval MMCHAL_EROFS      the card's status reported a write-protection violation
 * @return or another negative ::mmchal_err from the host; ::mmchal_card::err
 *         names the command and, for the status errors, holds the status.
 */
int mmchal_card_init(struct mmchal_card *card);

/**
 * @brief Read @p blocks 512-byte blocks from @p lba into the caller's buffers.
 *
 * Split into as many requests as the host's limits need (block count, request
 * size, segments, segment size and boundaries); single-block requests use
 * CMD17, longer ones CMD18 with CMD23 when card and host support it, else
 * CMD12.
 *
 * @param[in,out] card    identified memory card
 * @param[in]     lba     first block
 * @param[in]     blocks  block count, >= 1
 * @param[in]     sg      buffers; their lengths add up to @p blocks x 512
 * @param[in]     nsg     entries in @p sg
 * @retval 0                 all blocks read
 * @retval MMCHAL_EINVAL     NULL pointer, a card object never set up, 0 blocks,
 *                           empty or zero-length entries, lengths not adding up, a
 *                           block that straddles a gap the host's virt_boundary
 *                           forbids, or a request the host refused (nothing sent)
 * @retval MMCHAL_ERANGE     @p lba + @p blocks is past the end of the card
 * @retval MMCHAL_ENOTSUP    the card has no block access (SDIO)
 * @retval MMCHAL_ENOMEDIUM  no identified card, or it was removed
 * @return or the negative ::mmchal_err of the failed request;
 *         ::mmchal_card::err has the command, status and bytes done.
 */
int mmchal_card_read(struct mmchal_card *card, uint64_t lba, uint32_t blocks,
		     const struct mmchal_sg *sg, uint32_t nsg);

/**
 * @brief Write @p blocks 512-byte blocks at @p lba from the caller's buffers.
 *
 * As mmchal_card_read() with CMD24/CMD25. Each request waits until the card
 * has programmed the data (CMD13 back in the transfer state). After a failed
 * SD write ACMD22 asks the card how many blocks it programmed;
 * ::mmchal_card_err::bytes_done says so.
 *
 * @param[in,out] card    identified memory card
 * @param[in]     lba     first block
 * @param[in]     blocks  block count, >= 1
 * @param[in]     sg      buffers; their lengths add up to @p blocks x 512
 * @param[in]     nsg     entries in @p sg
 * @retval 0                 all blocks written
 * @retval MMCHAL_EROFS      the card is write-protected; nothing was sent
 * @retval MMCHAL_EINVAL     as for mmchal_card_read()
 * @retval MMCHAL_ERANGE     past the end of the card
 * @retval MMCHAL_ENOTSUP    no block access (SDIO)
 * @retval MMCHAL_ENOMEDIUM  no identified card, or it was removed
 * @return or the negative ::mmchal_err of the failed request.
 */
int mmchal_card_write(struct mmchal_card *card, uint64_t lba, uint32_t blocks,
		      const struct mmchal_sg *sg, uint32_t nsg);

/**
 * @brief Erase or discard @p blocks blocks at @p lba.
 *
 * SD: CMD32, CMD33, CMD38. eMMC: CMD35, CMD36, CMD38 (argument 0 erase,
 * 3 discard, 1 trim). Waits for the card's busy to end.
 *
 * @param[in,out] card    identified memory card
 * @param[in]     lba     first block
 * @param[in]     blocks  block count, >= 1
 * @param[in]     kind    ::MMCHAL_CARD_ERASE or ::MMCHAL_CARD_DISCARD
 * @retval 0                 done
 * @retval MMCHAL_EROFS      write-protected card
 * @retval MMCHAL_EINVAL     NULL card or one never set up, 0 blocks, an unknown kind,
 *                           or an eMMC erase range not aligned to ::mmchal_card_info::erase_unit
 * @retval MMCHAL_ERANGE     past the end of the card
 * @retval MMCHAL_ENOTSUP    no block access, or an eMMC without discard support
 * @retval MMCHAL_ENOMEDIUM  no identified card, or it was removed
 * @return or the negative ::mmchal_err of the failed command.
 */
int mmchal_card_erase(struct mmchal_card *card, uint64_t lba, uint32_t blocks,
		      enum mmchal_erase_kind kind);

/**
 * @brief Ask the host whether the card is still there (get_cd).
 * @param[in,out] card  card object
 * @retval 0                 present (or the host cannot tell)
 * @retval MMCHAL_ENOMEDIUM  removed; later calls fail until mmchal_card_init()
 * @retval MMCHAL_EINVAL     @p card is NULL or not set up
 */
int mmchal_card_check_present(struct mmchal_card *card);

/**
 * @brief The card's identification result.
 * @param[in] card  card object
 * @return the info, or NULL when @p card is NULL
 * @note Valid after mmchal_card_init() returned 0.
 */
const struct mmchal_card_info *mmchal_card_info(const struct mmchal_card *card);

/**
 * @brief The last failure: command, argument, card status, bytes done.
 * @param[in] card  card object
 * @return the record, or NULL when @p card is NULL
 */
const struct mmchal_card_err *mmchal_card_last_error(const struct mmchal_card *card);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_CARD_H */
