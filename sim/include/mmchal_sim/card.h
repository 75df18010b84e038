/**
 * @file
 * @brief Simulated cards: SD (v2, SDHC/SDXC), eMMC and SDIO, holding data in a
 *        caller-sized store.
 *
 * A card answers the commands the SD Physical Layer and JEDEC eMMC
 * specifications define for its state (idle, ready, ident, stby, tran, data,
 * rcv, prg); an illegal command gets no response (a command timeout at the
 * controller) and sets ILLEGAL_COMMAND in the next R1. See docs/sim.md for
 * the full command list and every default.
 *
 * @note Host only. Not thread-safe: one thread drives one simulator.
 */
#ifndef MMCHAL_SIM_CARD_H
#define MMCHAL_SIM_CARD_H

#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mmchal_sim;

/** @brief What sits in the simulated slot. */
enum mmchal_sim_card_kind {
	MMCHAL_SIM_CARD_NONE = 0, /**< empty slot */
	MMCHAL_SIM_CARD_SD,       /**< SD memory card, v2: SDHC/SDXC, or SDSC with @c sdsc */
	MMCHAL_SIM_CARD_MMC,      /**< eMMC */
	MMCHAL_SIM_CARD_SDIO,     /**< SDIO card with one function and no memory */
};

/** @brief Card states (R1 CURRENT_STATE codes; INA has no code). */
enum mmchal_sim_card_state {
	MMCHAL_SIM_ST_IDLE = 0,  /**< idle */
	MMCHAL_SIM_ST_READY = 1, /**< ready */
	MMCHAL_SIM_ST_IDENT = 2, /**< identification */
	MMCHAL_SIM_ST_STBY = 3,  /**< stand-by */
	MMCHAL_SIM_ST_TRAN = 4,  /**< transfer */
	MMCHAL_SIM_ST_DATA = 5,  /**< sending data */
	MMCHAL_SIM_ST_RCV = 6,   /**< receiving data */
	MMCHAL_SIM_ST_PRG = 7,   /**< programming */
	MMCHAL_SIM_ST_DIS = 8,   /**< disconnect */
	MMCHAL_SIM_ST_INA = 15,  /**< inactive (no code in R1; 15 here) */
};

/**
 * @brief Configuration of a card. Fill it with mmchal_sim_card_defaults()
 *        and change what the test needs: every field is used literally
 *        (0 is zero, or "unlimited" for a rate).
 */
struct mmchal_sim_card_config {
	enum mmchal_sim_card_kind kind; /**< card type */
	/** SD/eMMC: capacity in bytes, a non-zero multiple of 512 KiB (the SD
	    CSD v2 unit); SDIO: size of function 1's byte buffer, 1..131072 */
	uint64_t capacity;
	/** backing store of @c capacity bytes owned by the caller; NULL: the
	    simulator allocates a zeroed one and frees it with the card */
	void *store;
	uint32_t serial; /**< product serial number in the CID */
	uint16_t rca;    /**< SD/SDIO: RCA the card publishes in R6 (non-zero) */
	bool cmd23;      /**< SD: CMD23 supported (SCR bit 33); eMMC always has it */
	bool uhs;        /**< SD: CMD6 group 1 offers SDR50, SDR104, DDR50 */
	/** eMMC: byte addressing instead of sector mode, for a device of at most
	    2 GiB whose CSD (C_SIZE, C_SIZE_MULT, READ_BL_LEN) gives its size;
	    a sector-mode device saturates C_SIZE and gives it in SEC_COUNT */
	bool byte_mode;
	/** SD: a standard-capacity card (SDSC, up to 2 GiB): CSD v1, byte
	    addresses, CCS = 0 in ACMD41, no UHS-I; else SDHC/SDXC */
	bool sdsc;
	uint8_t mmc_card_type; /**< eMMC EXT_CSD[196] CARD_TYPE */
	/** eMMC: refuse the 8-bit bus widths (EXT_CSD BUS_WIDTH 2 and 6) with
	    SWITCH_ERROR, as a card on a 4-bit board would fail them */
	bool mmc_no_8bit;
	/** the slot's write-protect switch is on (SD_INFO1 bit 7 reads 0). Like the
	    tab of an SD card it is seen by the host only: the card still accepts
	    writes; see mmchal_sim_card_set_wp() */
	bool write_protect;
	/** the card itself is write-protected (CSD TMP_WRITE_PROTECT): it refuses
	    writes and erases with WP_VIOLATION (SD and eMMC) */
	bool tmp_write_protect;
	uint64_t powerup_ns; /**< ACMD41/CMD1/CMD5 report busy until this long after the first */
	/** from the end of a read command's response to the first block */
	uint64_t read_latency_ns;
	uint64_t read_rate;     /**< media read rate, bytes/s; 0 = unlimited */
	uint64_t write_rate;    /**< media write rate, bytes/s; 0 = unlimited */
	uint64_t write_busy_ns; /**< DAT0 busy (programming) after the last block of a write */
	/** DAT0 busy after an eMMC CMD6 SWITCH, and after an SD card's CMD7
	    select; an eMMC selected from stand-by answers without busy (its
	    CMD7 is R1b only out of the disconnect state) */
	uint64_t switch_busy_ns;
	/** erased memory reads as 0xff (SD SCR DATA_STAT_AFTER_ERASE = 1, eMMC
	    EXT_CSD ERASED_MEM_CONT = 1); false: as 0x00 */
	bool erased_ones;
	/** DAT0 busy after CMD38, per erase unit touched (SD: 4 MiB allocation
	    unit, eMMC: 512 KiB erase group) */
	uint64_t erase_busy_ns;
};

/**
 * @brief Fill @p cfg with the documented defaults for @p kind (docs/sim.md).
 *
 * @param[in]  kind  card type
 * @param[out] cfg   configuration to fill
 * @retval 0              success
 * @retval MMCHAL_EINVAL  @p cfg is NULL or @p kind is unknown
 */
int mmchal_sim_card_defaults(enum mmchal_sim_card_kind kind, struct mmchal_sim_card_config *cfg);

/**
 * @brief Put a card into the slot (sets the card-inserted status bit).
 *
 * @param[in] sim  simulator
 * @param[in] cfg  card configuration (copied)
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument or an invalid configuration
 * @retval MMCHAL_EBUSY    a card is already inserted
 * @retval MMCHAL_ENOMEM   the store could not be allocated
 */
int mmchal_sim_card_insert(struct mmchal_sim *sim, const struct mmchal_sim_card_config *cfg);

/**
 * @brief Take the card out (sets the card-removed status bit). A transfer in
 *        progress stops: the controller sees no more data or responses.
 *
 * @param[in] sim  simulator
 * @retval 0                 success
 * @retval MMCHAL_EINVAL     @p sim is NULL
 * @retval MMCHAL_ENOMEDIUM  the slot is empty
 */
int mmchal_sim_card_remove(struct mmchal_sim *sim);

/**
 * @brief The card's backing store (its user area; SDIO: function 1's buffer).
 *
 * @param[in]  sim   simulator
 * @param[out] size  store size in bytes; may be NULL
 * @return the store, or NULL when no card is inserted
 */
uint8_t *mmchal_sim_card_store(struct mmchal_sim *sim, uint64_t *size);

/**
 * @brief The card's current state.
 * @param[in] sim  simulator
 * @return a ::mmchal_sim_card_state, or a negative ::mmchal_err
 * @retval MMCHAL_ENOMEDIUM  no card
 */
int mmchal_sim_card_state(const struct mmchal_sim *sim);

/**
 * @brief One byte of the card's current EXT_CSD (eMMC only).
 * @param[in] sim    simulator
 * @param[in] index  byte index, 0..511
 * @return the byte (0..255), or a negative ::mmchal_err
 * @retval MMCHAL_ENOMEDIUM  no card
 * @retval MMCHAL_EINVAL     not an eMMC, or @p index out of range
 */
int mmchal_sim_card_ext_csd(const struct mmchal_sim *sim, uint32_t index);

/**
 * @brief The data bus width and timing the card itself is set to (after
 *        ACMD6 / CMD6 / CCCR writes); the controller must match them.
 * @param[in]  sim     simulator
 * @param[out] width   1, 4 or 8; may be NULL
 * @param[out] timing  a ::mmchal_timing; may be NULL
 * @retval 0                 success
 * @retval MMCHAL_ENOMEDIUM  no card
 */
int mmchal_sim_card_bus(const struct mmchal_sim *sim, uint32_t *width, enum mmchal_timing *timing);

/**
 * @brief Move the slot's write-protect switch (SD_INFO1 bit 7 follows at once).
 *        The card does not see it: it is the host's job to refuse writes.
 * @param[in] sim  simulator
 * @param[in] on   true: write-protected
 * @retval 0                 success
 * @retval MMCHAL_EINVAL     @p sim is NULL
 * @retval MMCHAL_ENOMEDIUM  no card
 */
int mmchal_sim_card_set_wp(struct mmchal_sim *sim, bool on);

/**
 * @brief Raise or withdraw the interrupt source of the SDIO card's function 1,
 *        as the device behind the function would (e.g. data has arrived).
 *
 * While the source is active, CCCR 0x05 (INTx) reads bit 1 set. The card
 * signals the interrupt on DAT1 only while IENM and IEN1 (CCCR 0x04 bits 0
 * and 1) are set, and on a 4-bit bus only outside a data phase. While it
 * signals and SDIO_MODE bit 0 is 1, the controller keeps SDIO_INFO1 bit 0 set
 * (level-sensitive: a clear does not hold while the card still signals), and
 * the interrupt line is high while SDIO_INFO1_MASK bit 0 is 0. A card reset
 * (CCCR 0x06 RES), a removal and an insertion withdraw the source. See
 * docs/sim.md, section 5.
 *
 * @param[in] sim     simulator
 * @param[in] active  true: raise the source; false: withdraw it
 * @retval 0                 success
 * @retval MMCHAL_EINVAL     @p sim is NULL, or the card is not an SDIO card
 * @retval MMCHAL_ENOMEDIUM  no card
 * @note May be called at any time, also from the interrupt handler. Like any
 *       other rise of the line, the interrupt handler runs @c irq_latency_ns
 *       later, from mmchal_sim_run(), mmchal_sim_advance() or the end of a
 *       register access.
 */
int mmchal_sim_sdio_irq(struct mmchal_sim *sim, bool active);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_SIM_CARD_H */
