/**
 * @file
 * @brief SD memory card identification and bus set-up.
 *
 * Sequence (SD Physical Layer Simplified Spec 4.2-4.3, PROTOCOL.md 4):
 * ACMD41 with HCS until ready, CMD2, CMD3, CMD9, CMD7, ACMD51, ACMD6 for the
 * 4-bit bus, CMD6 for high speed, CMD16 on SDSC. The bus width is set before
 * high speed as U-Boot and the Linux UHS path do (plain Linux switches high
 * speed first; the sources disagree and both orders are legal). The
 * identification steps up to CMD7 are shared with eMMC (mmchal_card_ident_(),
 * called by card_mmc.c too, and all an eMMC-only read-only build keeps of
 * this file).
 *
 * Locking: none; one caller per card object, thread context.
 */
#include "core/card_priv.h"

#include "core/mem.h"

#define SD_CLOCK_DS 25000000u
#define SD_CLOCK_HS 50000000u

/* CMD6 arguments: mode [31], group 1 (bus speed) function 1 = high speed */
#define SD_SWITCH_CHECK_HS 0x00fffff1u
#define SD_SWITCH_SET_HS   0x80fffff1u
#define CCC_SWITCH         (1u << 10)

#if !MMCHAL_EMMC_RO /* an eMMC-only build (config.h) keeps only mmchal_card_ident_() */
CARD_SDIO_SHARED_ int mmchal_card_sd_hs_(struct mmchal_card *card)
{
	card->ios.timing = MMCHAL_TIMING_SD_HS;
	card->ios.clock_hz = SD_CLOCK_HS;
	return mmchal_card_set_ios_(card);
}

CARD_SDIO_SHARED_ int mmchal_card_get_rca_(struct mmchal_card *card, unsigned tries)
{
	struct mmchal_cmd cmd;

	/* an RCA of 0 is not usable (CMD7 with 0 deselects): ask again */
	for (unsigned i = 0; i < tries; i++) {
		int err = mmchal_card_cmd_(card, &cmd, CARD_CMD_SET_REL_ADDR, 0, MMCHAL_RSP_R6);

		if (err)
			return err;
		card->info.rca = (uint16_t)(cmd.resp[0] >> 16);
		if (card->info.rca)
			return 0;
	}
	return mmchal_card_fail_op_(card, MMCHAL_EPROTO, CARD_CMD_SET_REL_ADDR, 0);
}

#endif

/*
 * ACMD41 or CMD1, then CMD2, CMD3, CMD9, CMD7: from idle to the transfer
 * state, the steps SD and eMMC share (SD Physical Layer 4.2.3, JEDEC eMMC
 * 6.4.4). They differ in the OCR's addressing bits, in CMD3 (an SD card
 * picks its RCA, an eMMC gets one from the host), in the register layouts,
 * and in CMD7: an eMMC's R1 errors fail it before the end of busy is
 * awaited, an SD card's after.
 */
int mmchal_card_ident_(struct mmchal_card *card, bool mmc, uint32_t ocr_arg, bool *answered)
{
	struct mmchal_card_info *info = &card->info;
	/* ACMD41: SD_SEND_OP_COND or CMD1: SEND_OP_COND */
	uint32_t op = mmc ? CARD_CMD_SEND_OP_COND : CARD_ACMD_SD_SEND_OP_COND;
	uint32_t select_flags;
	struct mmchal_cmd cmd;
	uint32_t rca_arg;
	int err;

	/* the op-cond command until power-up is done */
	err = mmchal_card_op_cond_(card, op, ocr_arg, !mmc, answered);
	if (err)
		return err;
	/* eMMC OCR [30:29] = 10: sector addressing (cards above 2 GB); SD CCS is
	   valid once power-up is done, and only a 2.00 card, asked with HCS in
	   @ocr_arg, is high capacity (a 1.x card is always SDSC) */
	info->block_addr = mmc ? (info->ocr & OCR_MMC_ACCESS) == (2u << 29)
			       : (info->ocr & ocr_arg & OCR_CCS) != 0u;
	err = mmchal_card_type_known_(card, mmc ? MMCHAL_CARD_MMC : MMCHAL_CARD_SD);
	if (err)
		return err;

	/* CMD2: ALL_SEND_CID */
	err = mmchal_card_cmd_r2_(card, CARD_CMD_ALL_SEND_CID, 0, info->raw_cid);
	if (err)
		return err;
	if (mmc) {
		mmchal_card_decode_mmc_cid_(info->raw_cid, 0, &info->cid);
		/* CMD3: SET_RELATIVE_ADDR, chosen by the host; 0 would deselect */
		info->rca = card->cfg.mmc_rca ? card->cfg.mmc_rca : 1u;
		rca_arg = (uint32_t)info->rca << 16;
		err = mmchal_card_cmd_(card, &cmd, CARD_CMD_SET_REL_ADDR, rca_arg, MMCHAL_RSP_R1);
	}
#if !MMCHAL_EMMC_RO
	else {
		mmchal_card_decode_sd_cid_(info->raw_cid, &info->cid);
		/* CMD3: SEND_RELATIVE_ADDR, up to three times */
		err = mmchal_card_get_rca_(card, 3);
	}
#endif
	if (err)
		return err;
	rca_arg = (uint32_t)info->rca << 16;

	/* CMD9: SEND_CSD */
	err = mmchal_card_cmd_r2_(card, CARD_CMD_SEND_CSD, rca_arg, info->raw_csd);
	if (err)
		return err;
	if (mmc)
		err = mmchal_card_decode_mmc_csd_(info->raw_csd, &info->csd);
	else
		err = mmchal_card_decode_sd_csd_(info->raw_csd, &info->csd);
	if (!err && !mmc) {
		info->sectors = info->csd.capacity / MMCHAL_CARD_BLKSZ;
		/* without CCS every command carries a 32-bit byte address, which
		   reaches 4 GiB (the most a v1 CSD describes); a v2 CSD claiming
		   more on such a card is inconsistent, and blocks past 4 GiB would
		   wrap onto the start */
		if (!info->block_addr &&
		    info->sectors > ((uint64_t)UINT32_MAX + 1u) / MMCHAL_CARD_BLKSZ)
			err = MMCHAL_EPROTO;
		else
			info->erase_unit = 1;
	}
	if (err)
		return mmchal_card_fail_op_(card, err, CARD_CMD_SEND_CSD, rca_arg);

	/* CMD7: SELECT_CARD, stand-by -> transfer */
	/* an eMMC's R1 errors fail it before the end of busy */
	select_flags = MMCHAL_RSP_R1B | (mmc ? CARD_CMD_CHECK : 0u);
	err = mmchal_card_cmd_(card, &cmd, CARD_CMD_SELECT, rca_arg, select_flags);
	if (!err)
		err = mmchal_card_wait_busy_(card, 0);
	if (!err)
		err = mmchal_card_check_(card, &cmd, R1_CMD_ERRORS, false);
	return err;
}

#if !MMCHAL_EMMC_RO
/* ACMD6: SET_BUS_WIDTH to 4 bits when card and host have it. */
static int sd_bus_width(struct mmchal_card *card)
{
	struct mmchal_cmd cmd;
	int err;

	if (!(card->caps.bus & MMCHAL_BUS_4_BIT) || !(card->info.scr.bus_widths & 4u))
		return 0;
	err = mmchal_card_acmd_(card, &cmd, CARD_ACMD_SET_BUS_WIDTH, 2,
				MMCHAL_RSP_R1 | CARD_CMD_CHECK);
	if (err)
		return err;
	card->ios.bus_width = MMCHAL_BUS_WIDTH_4;
	return mmchal_card_set_ios_(card);
}

/* CMD6: SWITCH_FUNC to high speed when card and host have it. */
static int sd_high_speed(struct mmchal_card *card)
{
	const uint8_t *st = card->cfg.buf;
	int err;

	if (!(card->caps.bus & MMCHAL_BUS_SD_HS) || !(card->info.csd.ccc & CCC_SWITCH) ||
	    card->info.scr.sd_spec < 1u)
		return 0;
	/* mode 0: is function 1 of group 1 supported? byte 13 bit 1 (PROTOCOL.md 3) */
	err = mmchal_card_read_reg_(card, CARD_CMD_SWITCH, SD_SWITCH_CHECK_HS, false, 64);
	if (err)
		return err;
	if (!(st[13] & 0x02u))
		return 0;
	/* mode 1: switch; byte 16 low nibble is the function now selected */
	err = mmchal_card_read_reg_(card, CARD_CMD_SWITCH, SD_SWITCH_SET_HS, false, 64);
	if (err)
		return err;
	if ((st[16] & 0xfu) != 1u)
		return 0;
	return mmchal_card_sd_hs_(card);
}

int mmchal_card_sd_init_(struct mmchal_card *card, bool v2, bool *answered)
{
	uint32_t legacy;
	int err;

	card->info.sd_v2 = v2;
	/* ACMD41 with HCS for a 2.00 card */
	err = mmchal_card_ident_(card, false, OCR_VDD_27_36 | (v2 ? OCR_CCS : 0u), answered);
	if (err)
		return err;
	legacy = card->info.csd.tran_speed_hz;
	if (legacy == 0u || legacy > SD_CLOCK_DS)
		legacy = SD_CLOCK_DS;
	card->ios.clock_hz = legacy;
	err = mmchal_card_set_ios_(card);
	if (err)
		return err;

	/* ACMD51: SEND_SCR, 8 bytes */
	err = mmchal_card_read_reg_(card, CARD_ACMD_SEND_SCR, 0, true, 8);
	if (err)
		return err;
	err = mmchal_card_decode_scr_(card->cfg.buf, &card->info.scr);
	if (err)
		return mmchal_card_fail_(card, err, CARD_ACMD_SEND_SCR, true, 0);
	card->info.cmd23 = card->info.scr.cmd23 && (card->caps.bus & MMCHAL_BUS_CMD23);
	card->info.erased_byte = card->info.scr.erased_byte;

	mmchal_card_read_only_(card);

	err = sd_bus_width(card);
	if (err)
		return err;
	err = sd_high_speed(card);
	if (err)
		return err;
	return mmchal_card_set_blocklen_(card);
}
#endif
