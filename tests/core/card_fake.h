/*
 * A command-level fake host with one SD, eMMC or SDIO card behind it, for the
 * card layer's unit tests. It implements struct mmchal_host_ops directly (no
 * host core, no backend) and answers each command as the SD Physical Layer,
 * JEDEC eMMC and SDIO specifications describe, over a RAM image, with fault
 * switches. Portable: no allocation, no stdio.
 */
#ifndef TESTS_CORE_CARD_FAKE_H
#define TESTS_CORE_CARD_FAKE_H

#include <mmchal/card.h>

enum fake_kind {
	FAKE_SDHC = 0, /* SD 3.0, CSD v2, block addressed */
	FAKE_SDSC,     /* SD 2.0 card, CSD v1, byte addressed */
	FAKE_SD_V1,    /* SD 1.x card: silent on CMD8 */
	FAKE_MMC,      /* eMMC 5.1, sector mode */
	FAKE_SDIO,     /* SDIO card, two functions */
};

#define FAKE_APP     0x100u /* with an opcode: the ACMD */
#define FAKE_LOG_LEN 512u
#define FAKE_F0_SIZE 0x1200u

struct fake {
	enum fake_kind kind;
	uint8_t *image;   /* card contents */
	uint32_t sectors; /* image size, 512-byte sectors */

	/* card state */
	uint32_t state;
	uint16_t rca;
	bool app;
	uint32_t pending;   /* status bits reported in the next response */
	uint32_t ocr_polls; /* busy answers to ACMD41/CMD1/CMD5 before ready */
	uint32_t polls;
	uint32_t csd[4], cid[4];
	uint8_t ext_csd[512];
	uint8_t scr[8];
	uint8_t f0[FAKE_F0_SIZE]; /* SDIO function 0 space: CCCR, FBRs, CIS */
	uint32_t sd_width;        /* width set by ACMD6 */
	bool sd_hs;
	uint32_t blk_count; /* CMD23 value, 0 = none */
	uint32_t written;   /* well-written blocks of the last write (ACMD22) */
	uint32_t erase_start, erase_end;
	bool erase_start_set, erase_end_set;
	uint32_t prg_left; /* CMD13s still answered in prg after a write */

	/* host side */
	struct mmchal_host_caps caps;
	struct mmchal_limits limits;
	struct mmchal_ios ios;
	bool present;
	bool ro_switch; /* the slot's write-protect switch (get_ro) */
	bool card_wp;   /* the card itself refuses writes (WP_VIOLATION) */
	bool no_limits_op;

	/* faults */
	uint32_t fail_op;         /* opcode (| FAKE_APP) that fails ... */
	uint32_t fail_skip;       /* ... after this many successes ... */
	uint32_t fail_times;      /* ... this many times */
	int fail_err;             /* with this error; 0 = MMCHAL_ETIMEDOUT */
	bool refuse_8bit;         /* eMMC: SWITCH_ERROR for an 8-bit BUS_WIDTH */
	uint32_t refuse_timing;   /* eMMC: SWITCH_ERROR for this HS_TIMING value; 0 = none */
	bool no_app_bit;          /* CMD55 answers without APP_CMD */
	bool bad_8bit_bus;        /* eMMC: accepts 8 bits, but data over them is garbled */
	int tuning_err;           /* execute_tuning result */
	int set_ios_err;          /* set_ios result */
	int init_card_err;        /* init_card result */
	uint32_t wr_fail_after;   /* a write fails after this many blocks programmed ... */
	bool wr_fail;             /* ... when set */
	uint32_t remove_at_op;    /* the card goes away at this opcode (| FAKE_APP); 0 = never */
	uint32_t set_ios_fail_at; /* the set_ios call of this number (from 1) fails ... */
	int set_ios_fail_err;     /* ... with this error; 0 = MMCHAL_EIO */
	uint32_t sdio_ocr;  /* SDIO: CMD5 answer without C (bit 31); 0 = two functions, 2.7-3.6 V */
	bool sdio_rca_zero; /* SDIO: CMD3 publishes RCA 0 */
	uint32_t r5_at;     /* SDIO: the CMD52 of this number (from 1) answers ... */
	uint32_t r5_flags;  /* ... with these R5 flags and does nothing */
	uint32_t busy_left; /* card_busy answers busy this many times ... */
	int busy_err;       /* ... then this (0 = not busy) */
	uint32_t st13_left; /* the next CMD13s answer exactly st13_word */
	uint32_t if_cond_xor;   /* SD: bits flipped in the CMD8 echo */
	uint32_t mem_r4;        /* memory card: answers CMD5 with this; 0 = silent */
	int limits_err;         /* get_limits result when not 0 */
	int caps_err;           /* get_caps result when not 0 */
	int cd_err;             /* get_cd result when not 0 */
	uint32_t sd_rca_zero;   /* SD: CMD3 publishes RCA 0 this many times */
	uint32_t pend_op;       /* command (| FAKE_APP) whose response gets ... */
	uint32_t pend_bits;     /* ... these status bits, once; 0 = none */
	bool sd_no_hs;          /* SD: CMD6 mode 0 reports no high speed */
	bool sd_hs_refuse;      /* SD: CMD6 mode 1 leaves function 0 selected */
	uint32_t refuse_widths; /* eMMC: SWITCH_ERROR for BUS_WIDTH value v when bit v is set */
	uint32_t garble_idx;    /* eMMC: EXT_CSD byte garble_idx - 1 reads wrong over 8 bits */
	bool acmd22_fixed;      /* SD: ACMD22 reports acmd22_value ... */
	uint32_t acmd22_value;  /* ... instead of the blocks really written */
	bool rd_fail;           /* a read fails after rd_fail_after blocks were moved */
	uint32_t rd_fail_after;
	bool rd_over_report;       /* ... and the host reports one block more than asked */
	bool mmc_byte_mode;        /* eMMC: byte addressed (OCR access mode 00) */
	bool set_ios_fail_applies; /* the failing set_ios still changed the bus */
	uint32_t st13_word;

	/* records */
	uint32_t log[FAKE_LOG_LEN];
	uint32_t log_arg[FAKE_LOG_LEN];
	uint32_t nlog;
	uint32_t init_card_calls;
	uint32_t init_card_at; /* log length when init_card was called */
	enum mmchal_card_type init_type;
	uint32_t tuning_calls;
	uint32_t tuning_opcode;
	uint32_t requests;
	uint32_t limit_violations; /* requests that broke the declared limits */
	uint32_t max_blocks_seen;
	uint32_t max_nsg_seen;
	uint32_t sbc_seen, stop_seen;
	uint32_t set_ios_calls;
	uint32_t busy_calls;
	struct mmchal_ios ios_hist[32];     /* the first set_ios calls */
	uint32_t log_timeout[FAKE_LOG_LEN]; /* request_sync timeout of each command */
	uint32_t log_busy_ms[FAKE_LOG_LEN]; /* its busy_timeout_ms */
	uint32_t log_resp1[FAKE_LOG_LEN];
	uint32_t log_flags[FAKE_LOG_LEN]; /* its resp[1] as the host got it */
	uint32_t cur_timeout;
	uint32_t data_timeout_ns; /* of the last request with data */
	uint64_t data_phys;       /* its first entry's address */
	uint32_t cmd52_count;
};

extern const struct mmchal_host_ops fake_ops;

/* A card of @kind over @image (@sectors sectors) with a host that has 4/8-bit,
   HS, CMD23 and generous limits. */
void fake_init(struct fake *f, enum fake_kind kind, uint8_t *image, uint32_t sectors);
/* How many times the log holds @op (| FAKE_APP). */
uint32_t fake_count(const struct fake *f, uint32_t op);
/* Fill a card configuration for @f. */
void fake_card_cfg(struct fake *f, struct mmchal_card_cfg *cfg, void *buf);

#endif /* TESTS_CORE_CARD_FAKE_H */
