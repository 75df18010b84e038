/**
 * @file
 * @brief Internal: shared pieces of the card layer (card_*.c).
 *
 * Register decoders and the request splitter are pure (no host access, no
 * state) so they are table-tested on their own; the command helpers drive the
 * host through ::mmchal_card::cfg.ops only.
 *
 * Locking: none; one caller per card object (see card.h).
 */
#ifndef MMCHAL_CORE_CARD_PRIV_H
#define MMCHAL_CORE_CARD_PRIV_H

#include <mmchal/card.h>
#include <mmchal/config.h>

/* Command indices (SD Physical Layer 4.7.4, JEDEC eMMC 6.10.4, SDIO 5). */
#define CARD_CMD_GO_IDLE          0u
#define CARD_CMD_SEND_OP_COND     1u
#define CARD_CMD_ALL_SEND_CID     2u
#define CARD_CMD_SET_REL_ADDR     3u
#define CARD_CMD_IO_SEND_OP_COND  5u
#define CARD_CMD_SWITCH           6u
#define CARD_CMD_SELECT           7u
#define CARD_CMD_SEND_IF_COND     8u /* SD; eMMC: SEND_EXT_CSD */
#define CARD_CMD_SEND_CSD         9u
#define CARD_CMD_STOP             12u
#define CARD_CMD_SEND_STATUS      13u
#define CARD_CMD_SET_BLOCKLEN     16u
#define CARD_CMD_READ_SINGLE      17u
#define CARD_CMD_READ_MULTIPLE    18u
#define CARD_CMD_SEND_TUNING_MMC  21u
#define CARD_CMD_SET_BLOCK_COUNT  23u
#define CARD_CMD_WRITE_SINGLE     24u
#define CARD_CMD_WRITE_MULTIPLE   25u
#define CARD_CMD_SD_ERASE_START   32u
#define CARD_CMD_SD_ERASE_END     33u
#define CARD_CMD_MMC_ERASE_START  35u
#define CARD_CMD_MMC_ERASE_END    36u
#define CARD_CMD_ERASE            38u
#define CARD_CMD_IO_RW_DIRECT     52u
#define CARD_CMD_APP              55u
#define CARD_ACMD_SET_BUS_WIDTH   6u
#define CARD_ACMD_NUM_WR_BLOCKS   22u
#define CARD_ACMD_SD_SEND_OP_COND 41u
#define CARD_ACMD_SEND_SCR        51u

/* R1 card status bits (SD Physical Layer 4.10.1, JEDEC eMMC 6.13). */
#define R1_OUT_OF_RANGE       (1u << 31)
#define R1_ADDRESS_ERROR      (1u << 30)
#define R1_BLOCK_LEN_ERROR    (1u << 29)
#define R1_ERASE_SEQ_ERROR    (1u << 28)
#define R1_ERASE_PARAM        (1u << 27)
#define R1_WP_VIOLATION       (1u << 26)
#define R1_CARD_IS_LOCKED     (1u << 25)
#define R1_LOCK_UNLOCK_FAILED (1u << 24)
#define R1_COM_CRC_ERROR      (1u << 23)
#define R1_ILLEGAL_COMMAND    (1u << 22)
#define R1_CARD_ECC_FAILED    (1u << 21)
#define R1_CC_ERROR           (1u << 20)
#define R1_ERROR              (1u << 19)
#define R1_CSD_OVERWRITE      (1u << 16)
#define R1_WP_ERASE_SKIP      (1u << 15)
#define R1_READY_FOR_DATA     (1u << 8)
#define R1_SWITCH_ERROR       (1u << 7)
#define R1_APP_CMD            (1u << 5)
#define R1_STATE(s)           (((s) >> 9) & 0xfu)

/*
 * Errors that belong to the command whose response carries them. COM_CRC_ERROR
 * and ILLEGAL_COMMAND are not here: a card reports those in the response to
 * the *next* command (SD Physical Layer 4.6.1), so they are only read from
 * CMD13 after a silent command.
 */
#define R1_CMD_ERRORS                                                                    \
	(R1_OUT_OF_RANGE | R1_ADDRESS_ERROR | R1_BLOCK_LEN_ERROR | R1_ERASE_SEQ_ERROR |  \
	 R1_ERASE_PARAM | R1_WP_VIOLATION | R1_LOCK_UNLOCK_FAILED | R1_CARD_ECC_FAILED | \
	 R1_CC_ERROR | R1_ERROR | R1_CSD_OVERWRITE | R1_WP_ERASE_SKIP)

/* Card states in R1 [12:9]. */
#define CARD_STATE_IDLE  0u
#define CARD_STATE_READY 1u
#define CARD_STATE_IDENT 2u
#define CARD_STATE_STBY  3u
#define CARD_STATE_TRAN  4u
#define CARD_STATE_DATA  5u
#define CARD_STATE_RCV   6u
#define CARD_STATE_PRG   7u
#define CARD_STATE_DIS   8u

/* OCR (SD Physical Layer 5.1, JEDEC eMMC 7.1). */
#define OCR_BUSY       (1u << 31) /* 1 = power-up done */
#define OCR_CCS        (1u << 30) /* SD: high capacity; eMMC: sector mode [30:29] = 10 */
#define OCR_VDD_27_36  0x00ff8000u
#define OCR_MMC_ACCESS (3u << 29)

/* EXT_CSD byte offsets and values (JEDEC eMMC 7.4). */
#define EXT_CSD_ERASED_MEM_CONT   181u
#define EXT_CSD_BUS_WIDTH         183u
#define EXT_CSD_HS_TIMING         185u
#define EXT_CSD_REV               192u
#define EXT_CSD_CARD_TYPE         196u
#define EXT_CSD_SEC_COUNT         212u
#define EXT_CSD_ERASE_TIMEOUT     223u
#define EXT_CSD_HC_ERASE_GRP      224u
#define EXT_CSD_SEC_FEATURE       231u
#define EXT_CSD_GENERIC_CMD6_TIME 248u

#define EXT_CSD_TYPE_HS26        (1u << 0)
#define EXT_CSD_TYPE_HS52        (1u << 1)
#define EXT_CSD_TYPE_DDR52_18_33 (1u << 2)
#define EXT_CSD_TYPE_HS200_18    (1u << 4)
#define EXT_CSD_TYPE_HS400_18    (1u << 6)

#define EXT_CSD_WIDTH_1     0u
#define EXT_CSD_WIDTH_4     1u
#define EXT_CSD_WIDTH_8     2u
#define EXT_CSD_WIDTH_4_DDR 5u
#define EXT_CSD_WIDTH_8_DDR 6u

#define EXT_CSD_TIMING_LEGACY 0u
#define EXT_CSD_TIMING_HS     1u
#define EXT_CSD_TIMING_HS200  2u
#define EXT_CSD_TIMING_HS400  3u

/* SDIO CCCR registers (SDIO Simplified Spec 6.9). */
#define CCCR_SDIO_REV  0x00u
#define CCCR_ABORT     0x06u
#define CCCR_BUS_IF    0x07u
#define CCCR_CAPS      0x08u
#define CCCR_CIS_PTR   0x09u
#define CCCR_SPEED     0x13u
#define CCCR_CAP_LSC   (1u << 6) /* low-speed card */
#define CCCR_CAP_4BLS  (1u << 7) /* low-speed card supports 4 bits */
#define CCCR_SPEED_SHS (1u << 0)
#define CCCR_SPEED_EHS (1u << 1)
#define FBR_BASE(fn)   ((uint32_t)(fn)*0x100u)
#define FBR_CIS_PTR    0x09u

/* R5 flags, response bits [15:8] (SDIO Simplified Spec 5.2). */
#define R5_COM_CRC_ERROR   (1u << 15)
#define R5_ILLEGAL_COMMAND (1u << 14)
#define R5_ERROR           (1u << 11)
#define R5_FUNCTION_NUMBER (1u << 9)
#define R5_OUT_OF_RANGE    (1u << 8)
#define R5_ERRORS \
	(R5_COM_CRC_ERROR | R5_ILLEGAL_COMMAND | R5_ERROR | R5_FUNCTION_NUMBER | R5_OUT_OF_RANGE)

/* ---- pure decoders (card_decode.c) ---- */

/* Bits [start + len - 1 : start] of a 128-bit register in response order. */
uint32_t mmchal_card_bits_(const uint32_t r[4], unsigned start, unsigned len);
uint32_t mmchal_card_tran_speed_hz_(uint8_t tran_speed, bool mmc);
void mmchal_card_decode_sd_cid_(const uint32_t r[4], struct mmchal_cid *cid);
void mmchal_card_decode_mmc_cid_(const uint32_t r[4], uint8_t ext_csd_rev, struct mmchal_cid *cid);
int mmchal_card_decode_sd_csd_(const uint32_t r[4], struct mmchal_csd *csd);
int mmchal_card_decode_mmc_csd_(const uint32_t r[4], struct mmchal_csd *csd);
int mmchal_card_decode_scr_(const uint8_t b[8], struct mmchal_scr *scr);
int mmchal_card_decode_ext_csd_(const uint8_t b[512], struct mmchal_ext_csd *ext);
/* Error of a card status word: 0 when none of @mask is set. */
int mmchal_card_status_err_(uint32_t status, uint32_t mask);

/* CIS walk: the tuples the card layer reads (SDIO Simplified Spec 16). */
struct mmchal_card_cis_ {
	bool manfid;      /* CISTPL_MANFID seen */
	uint16_t vendor;  /* TPLMID_MANF */
	uint16_t device;  /* TPLMID_CARD */
	uint16_t max_blk; /* CISTPL_FUNCE: function 0 TPLFE_FN0_BLK_SIZE or function
			       1..7 TPLFE_MAX_BLK_SIZE; 0 = none */
};

/* Reads one byte at a 17-bit function-0 address; 0 or an error. */
typedef int (*mmchal_card_cis_read_fn_)(void *ctx, uint32_t addr, uint8_t *val);

int mmchal_card_cis_parse_(mmchal_card_cis_read_fn_ rd, void *ctx, uint32_t ptr, bool fn0,
			   struct mmchal_card_cis_ *out);

/* ---- request splitter (card_split.c) ---- */

struct mmchal_card_split_lim_ {
	uint32_t max_blocks;    /* most blocks per request, >= 1 */
	uint32_t max_segs;      /* most entries per request, >= 1 */
	uint32_t max_seg_size;  /* largest entry, >= 512; 0 = none */
	uint64_t seg_boundary;  /* mask no entry may cross; 0 = none */
	uint64_t virt_boundary; /* interior boundaries aligned to mask + 1; 0 = none */
};

struct mmchal_card_split_ {
	const struct mmchal_sg *sg; /* caller list */
	uint32_t nsg;
	uint32_t idx; /* current entry */
	uint32_t off; /* bytes of it already taken */
};

/* Check a caller list: nsg >= 1, no empty entry, lengths adding up to bytes. */
int mmchal_card_sg_check_(const struct mmchal_sg *sg, uint32_t nsg, uint64_t bytes);

/*
 * Take the next request from the cursor: at most lim->max_blocks blocks, every
 * limit respected. *list points at the caller's entries when none had to be
 * cut, else at @out. Returns 0 with *blocks >= 1, or MMCHAL_EINVAL when a
 * block cannot be placed (more entries in one block than max_segs allows, or
 * a gap virt_boundary forbids inside a block).
 */
int mmchal_card_split_next_(struct mmchal_card_split_ *cur,
			    const struct mmchal_card_split_lim_ *lim, struct mmchal_sg *out,
			    uint32_t out_len, const struct mmchal_sg **list, uint32_t *nlist,
			    uint32_t *blocks);

/* ---- host access (card_cmd.c) ---- */

/* Clear ::mmchal_card::err. */
void mmchal_card_err_clear_(struct mmchal_card *card);
/* Record a failure unless one is already recorded; returns @err. */
int mmchal_card_fail_(struct mmchal_card *card, int err, uint32_t opcode, bool app, uint32_t arg);
/* The same for a command that is no application command. */
int mmchal_card_fail_op_(struct mmchal_card *card, int err, uint32_t opcode, uint32_t arg);
/* Record the card status with the current failure. */
void mmchal_card_fail_status_(struct mmchal_card *card, uint32_t status);
/* Record a failure that is no command's (MMCHAL_CARD_NO_CMD); returns @err. */
int mmchal_card_refuse_(struct mmchal_card *card, int err);
/* A host op's failure (not a command's): mmchal_card_note_err_(), then
   mmchal_card_refuse_(); returns @err. */
int mmchal_card_host_err_(struct mmchal_card *card, int err);
/* Fail @cmd (its opcode and argument, with its status) when its response has
   an error of @mask; returns 0 or the error. */
int mmchal_card_check_(struct mmchal_card *card, const struct mmchal_cmd *cmd, uint32_t mask,
		       bool app);

void mmchal_card_delay_(struct mmchal_card *card, uint32_t us);
/* The host's set_ios with ::mmchal_card::ios, its clock first capped at
   caps.f_max_hz; a failure is recorded as no command's. */
int mmchal_card_set_ios_(struct mmchal_card *card);

/* Flag of mmchal_card_cmd_() (never sent): the R1 errors of the response
   fail the command (mmchal_card_check_() with R1_CMD_ERRORS). */
#define CARD_CMD_CHECK (1u << 31)

/*
 * Run a request built by the caller through request_sync. A failure is
 * recorded against the command that failed (CMD23 or CMD12 when the host
 * says so, else the command itself, with its status when it was answered
 * and the data phase failed); with CARD_CMD_CHECK in @flags the R1 errors
 * of the command's response, then of CMD12's, fail it too, with the status.
 */
int mmchal_card_run_(struct mmchal_card *card, struct mmchal_request *req, uint32_t timeout_ms,
		     uint32_t flags);
/* One command without data. @cmd gets the response. */
int mmchal_card_cmd_(struct mmchal_card *card, struct mmchal_cmd *cmd, uint32_t opcode,
		     uint32_t arg, uint32_t flags);
/* An R2 command (CMD2, CMD9): the 128-bit register into @reg. */
int mmchal_card_cmd_r2_(struct mmchal_card *card, uint32_t opcode, uint32_t arg, uint32_t reg[4]);
/* An R1b command: checks the R1 errors and waits for the end of busy. */
int mmchal_card_cmd_r1b_(struct mmchal_card *card, struct mmchal_cmd *cmd, uint32_t opcode,
			 uint32_t arg, uint32_t busy_ms);
/* CMD55 then the application command. */
int mmchal_card_acmd_(struct mmchal_card *card, struct mmchal_cmd *cmd, uint32_t opcode,
		      uint32_t arg, uint32_t flags);
/* A one-block register read into cfg.buf (blksz bytes), optionally an ACMD. */
int mmchal_card_read_reg_(struct mmchal_card *card, uint32_t opcode, uint32_t arg, bool app,
			  uint32_t blksz);
/* CMD1, ACMD41 (@app) or CMD5 (R3/R4) until the OCR busy bit says power-up
   is done; info.ocr gets each answer, *answered is set at the first. */
int mmchal_card_op_cond_(struct mmchal_card *card, uint32_t opcode, uint32_t arg, bool app,
			 bool *answered);
/* CMD16 to 512 bytes on a byte-addressed memory card; 0 on the others. */
int mmchal_card_set_blocklen_(struct mmchal_card *card);
/* Wait for the end of busy after an R1b command. */
int mmchal_card_wait_busy_(struct mmchal_card *card, uint32_t timeout_ms);
/* CMD13 until the card is back in the transfer state; checks @mask. */
int mmchal_card_wait_tran_(struct mmchal_card *card, uint32_t mask, uint32_t *status);
/* Mark removal when the host says so; returns err unchanged. */
int mmchal_card_note_err_(struct mmchal_card *card, int err);

/* ---- identification (card_sd.c, card_mmc.c, card_sdio.c) ---- */

/* The helpers card_sd.c shares with card_sdio.c are file-local in a library
   without SDIO functions (config.h), where card_sd.c is their only user. */
#if MMCHAL_WITH_SDIO
#define CARD_SDIO_SHARED_
#else
#define CARD_SDIO_SHARED_ static
#endif

/* @answered: set when the card answered ACMD41 at least once (so it is
   SD); the caller passes it false, it is never cleared here */
int mmchal_card_sd_init_(struct mmchal_card *card, bool v2, bool *answered);
int mmchal_card_mmc_init_(struct mmchal_card *card);
#if MMCHAL_WITH_SDIO
int mmchal_card_sdio_init_(struct mmchal_card *card, uint32_t r4);
#else
_Static_assert(MMCHAL_CARD_SD_COMBO == MMCHAL_CARD_SDIO + 1, "a combo card is SDIO + memory");
/* A library without SDIO functions (config.h) has no card_sdio.c: it keeps
   what the CMD5 inquiry said, sends nothing more, tells the host nothing, and
   mmchal_card_init() refuses the card. */
static inline int mmchal_card_sdio_init_(struct mmchal_card *card, uint32_t r4)
{
	struct mmchal_sdio_info *s = &card->info.sdio;

	s->nfuncs = (uint8_t)((r4 >> 28) & 7u);
	s->mem_present = (r4 >> 27) & 1u;
	card->info.type = (enum mmchal_card_type)(MMCHAL_CARD_SDIO + s->mem_present);
	return 0;
}
#endif
/* ACMD41 (CMD1 with @mmc) with @ocr_arg until power-up is done (*answered
   set at the first answer), the type known, then CMD2, CMD3, CMD9, CMD7 of an
   SD card or an eMMC, the CID and CSD decoded into info (card_sd.c). */
int mmchal_card_ident_(struct mmchal_card *card, bool mmc, uint32_t ocr_arg, bool *answered);
/* The host at SD high speed, 50 MHz (card_sd.c; SDIO high speed is the
   same timing). */
#if MMCHAL_WITH_SDIO
int mmchal_card_sd_hs_(struct mmchal_card *card);
#endif
/* CMD3 (R6) until the card picks an RCA other than 0, at most @tries times;
   MMCHAL_EPROTO when it never does (card_sd.c). */
#if MMCHAL_WITH_SDIO
int mmchal_card_get_rca_(struct mmchal_card *card, unsigned tries);
#endif
/* init_card and the limits for the type now known; a failure is recorded
   as no command's. */
int mmchal_card_type_known_(struct mmchal_card *card, enum mmchal_card_type type);
/* info.read_only of a memory card: the slot's switch or the CSD's write
   protection flags. */
void mmchal_card_read_only_(struct mmchal_card *card);

#endif /* MMCHAL_CORE_CARD_PRIV_H */
