/**
 * @file
 * @brief SDIO card identification: CMD5, RCA, CCCR, CIS, bus width and
 *        high speed. The card is reported; it gets no block access.
 *
 * Sequence (SDIO Simplified Specification 3.1 and 6-6.9, Linux sdio.c,
 * PROTOCOL.md 4): CMD5 with the card's voltage window until ready, CMD3
 * (R6), CMD7, then CMD52 reads of the CCCR, the common CIS and each
 * function's CIS.
 *
 * Locking: none; one caller per card object, thread context.
 */
#include "core/card_priv.h"

#include "core/mem.h"

#define SDIO_CLOCK_LOW 400000u
#define SDIO_CLOCK_DS  25000000u

/* CMD52: IO_RW_DIRECT, one byte (R5: flags [15:8], data [7:0]). */
static int sdio_rw(struct mmchal_card *card, bool write, uint32_t fn, uint32_t addr, uint8_t in,
		   uint8_t *out)
{
	uint32_t arg = ((uint32_t)write << 31) | (fn << 28) | ((addr & 0x1ffffu) << 9) | in;
	struct mmchal_cmd cmd;
	int err;

	err = mmchal_card_cmd_(card, &cmd, CARD_CMD_IO_RW_DIRECT, arg, MMCHAL_RSP_R5);
	if (err)
		return err;
	if (cmd.resp[0] & R5_ERRORS) {
		err = (cmd.resp[0] & R5_COM_CRC_ERROR)     ? MMCHAL_EIO
		      : (cmd.resp[0] & R5_OUT_OF_RANGE)    ? MMCHAL_ERANGE
		      : (cmd.resp[0] & R5_ILLEGAL_COMMAND) ? MMCHAL_EILSEQ
							   : MMCHAL_EIO;
		mmchal_card_fail_op_(card, err, CARD_CMD_IO_RW_DIRECT, arg);
		mmchal_card_fail_status_(card, cmd.resp[0]);
		return err;
	}
	if (out)
		*out = (uint8_t)cmd.resp[0];
	return 0;
}

static int sdio_read(struct mmchal_card *card, uint32_t fn, uint32_t addr, uint8_t *out)
{
	return sdio_rw(card, false, fn, addr, 0, out);
}

static int cis_read(void *ctx, uint32_t addr, uint8_t *val)
{
	return sdio_read(ctx, 0, addr, val);
}

/* A 24-bit little-endian CIS pointer at @addr of function 0. */
static int sdio_cis_ptr(struct mmchal_card *card, uint32_t addr, uint32_t *ptr)
{
	uint8_t b[3];
	int err;

	for (unsigned i = 0; i < 3u; i++) {
		err = sdio_read(card, 0, addr + i, &b[i]);
		if (err)
			return err;
	}
	*ptr = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16);
	return 0;
}

/* The common CIS (function 0, pointer in the CCCR at 0x09, which is FBR 0's
   place) and each function's (FBR n 0x09). */
_Static_assert(FBR_BASE(0) + FBR_CIS_PTR == CCCR_CIS_PTR, "CCCR CIS pointer is FBR 0's");

static int sdio_read_cis(struct mmchal_card *card)
{
	struct mmchal_sdio_info *s = &card->info.sdio;
	struct mmchal_card_cis_ cis;
	uint32_t ptr = 0;
	int err;

	for (uint32_t fn = 0; fn <= s->nfuncs; fn++) {
		err = sdio_cis_ptr(card, FBR_BASE(fn) + FBR_CIS_PTR, &ptr);
		if (!err)
			err = mmchal_card_cis_parse_(cis_read, card, ptr, fn == 0u, &cis);
		/* CISTPL_MANFID is mandatory in the common CIS (SDIO spec 16.7.3) */
		if (!err && fn == 0u && !cis.manfid)
			err = MMCHAL_EPROTO;
		if (err)
			return mmchal_card_fail_op_(card, err, CARD_CMD_IO_RW_DIRECT, ptr << 9);
		if (fn == 0u) {
			s->vendor = cis.vendor;
			s->device = cis.device;
			s->fn0_blk_size = cis.max_blk;
		} else {
			s->fn_blk_size[fn - 1u] = cis.max_blk;
		}
		if (cis.max_blk > s->max_blk_size)
			s->max_blk_size = cis.max_blk;
	}
	return 0;
}

static int sdio_bus(struct mmchal_card *card)
{
	struct mmchal_sdio_info *s = &card->info.sdio;
	bool low_speed = (s->caps & CCCR_CAP_LSC) != 0;
	uint8_t v;
	int err;

	card->ios.clock_hz = low_speed ? SDIO_CLOCK_LOW : SDIO_CLOCK_DS;
	err = mmchal_card_set_ios_(card);
	if (err)
		return err;
	/* a low-speed card has 4 bits only when it says so (4BLS) */
	if ((card->caps.bus & MMCHAL_BUS_4_BIT) && (!low_speed || (s->caps & CCCR_CAP_4BLS))) {
		err = sdio_read(card, 0, CCCR_BUS_IF, &v);
		if (!err)
			err = sdio_rw(card, true, 0, CCCR_BUS_IF, (uint8_t)((v & ~3u) | 2u), NULL);
		if (err)
			return err;
		card->ios.bus_width = MMCHAL_BUS_WIDTH_4;
		err = mmchal_card_set_ios_(card);
		if (err)
			return err;
	}
	if (!(card->caps.bus & MMCHAL_BUS_SD_HS) || low_speed || s->cccr_rev < 2u)
		return 0;
	/* CCCR 0x13: SHS says the card can, EHS switches (SDIO 1.20, CCCR rev 2+) */
	err = sdio_read(card, 0, CCCR_SPEED, &v);
	if (err || !(v & CCCR_SPEED_SHS))
		return err;
	err = sdio_rw(card, true, 0, CCCR_SPEED, (uint8_t)(v | CCCR_SPEED_EHS), NULL);
	if (err)
		return err;
	return mmchal_card_sd_hs_(card);
}

int mmchal_card_sdio_init_(struct mmchal_card *card, uint32_t r4)
{
	struct mmchal_sdio_info *s = &card->info.sdio;
	uint32_t arg = r4 & OCR_VDD_27_36;
	struct mmchal_cmd cmd;
	bool answered;
	uint8_t rev;
	int err;

	s->nfuncs = (uint8_t)((r4 >> 28) & 7u);
	s->mem_present = (r4 & (1u << 27)) != 0;
	err = mmchal_card_type_known_(card,
				      s->mem_present ? MMCHAL_CARD_SD_COMBO : MMCHAL_CARD_SDIO);
	if (err)
		return err;
	/* nothing in the card's window that a 3.3 V slot can give */
	if (arg == 0u)
		return mmchal_card_fail_op_(card, MMCHAL_ENOTSUP, CARD_CMD_IO_SEND_OP_COND, 0);

	/* CMD5 with the voltage window until the card is ready (C, bit 31) */
	err = mmchal_card_op_cond_(card, CARD_CMD_IO_SEND_OP_COND, arg, false, &answered);
	if (err)
		return err;

	/* CMD3: SEND_RELATIVE_ADDR, once */
	err = mmchal_card_get_rca_(card, 1);
	if (err)
		return err;
	/* CMD7: SELECT_CARD */
	err = mmchal_card_cmd_(card, &cmd, CARD_CMD_SELECT, (uint32_t)card->info.rca << 16,
			       MMCHAL_RSP_R1B);
	if (err)
		return err;

	err = sdio_read(card, 0, CCCR_SDIO_REV, &rev);
	if (!err)
		err = sdio_read(card, 0, CCCR_CAPS, &s->caps);
	if (err)
		return err;
	s->cccr_rev = rev & 0xfu;
	s->sdio_rev = (uint8_t)(rev >> 4);
	err = sdio_read_cis(card);
	if (err)
		return err;
	return sdio_bus(card);
}
