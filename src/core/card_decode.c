/**
 * @file
 * @brief Card register decoders: CID, CSD, SCR, EXT_CSD, SDIO CIS, card status.
 *
 * Pure: no host access, no state. Field positions are from the SD Physical
 * Layer Simplified Specification (5.2 CID, 5.3 CSD, 5.6 SCR), JEDEC eMMC
 * (7.2 CID, 7.3 CSD, 7.4 EXT_CSD) and the SDIO Simplified Specification
 * (16, CIS tuples; not in a library built without SDIO functions,
 * ::MMCHAL_WITH_SDIO 0), cross-checked against the Linux, U-Boot and Zephyr
 * decoders as PROTOCOL.md lists them.
 *
 * Locking: none; any context.
 */
#include "core/card_priv.h"

#include "core/mem.h"

uint32_t mmchal_card_bits_(const uint32_t r[4], unsigned start, unsigned len)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < len; i++) {
		unsigned b = start + i;

		v |= ((r[3u - b / 32u] >> (b % 32u)) & 1u) << i;
	}
	return v;
}

uint32_t mmchal_card_tran_speed_hz_(uint8_t tran_speed, bool mmc)
{
	/* the units (100 kHz, 1, 10, 100 MHz) over the multiplier's 10 */
	static const uint32_t unit_hz[4] = {10000u, 100000u, 1000000u, 10000000u};
	/* multiplier x 10; MMC reads code 6 as 2.6 and 11 as 5.2 (JEDEC 7.3.12). */
	static const uint8_t sd_mult[16] = {0,  10, 12, 13, 15, 20, 25, 30,
					    35, 40, 45, 50, 55, 60, 70, 80};
	static const uint8_t mmc_mult[16] = {0,  10, 12, 13, 15, 20, 26, 30,
					     35, 40, 45, 52, 55, 60, 70, 80};
	unsigned unit = tran_speed & 7u;
	unsigned m = (tran_speed >> 3) & 0xfu;

	if (unit > 3u)
		return 0;
	return unit_hz[unit] * (mmc ? mmc_mult[m] : sd_mult[m]);
}

static void cid_name(const uint32_t r[4], unsigned top, unsigned n, char *out)
{
	for (unsigned i = 0; i < n; i++) {
		uint32_t c = mmchal_card_bits_(r, top - 7u - 8u * i, 8);

		/* keep the name printable: a blank or garbled PNM stays readable */
		out[i] = (char)((c >= 0x20u && c < 0x7fu) ? c : (uint32_t)'?');
	}
	/* out[n] is the terminator already: cid_common() cleared the CID */
}

/* The fields both layouts share: MID, OID, a name of @name_len characters
   from bit 103, and PRV right above the 32-bit PSN at @psn. */
static void cid_common(const uint32_t r[4], unsigned name_len, unsigned psn, struct mmchal_cid *cid)
{
	memset(cid, 0, sizeof(*cid));
	cid->mid = (uint8_t)mmchal_card_bits_(r, 120, 8);
	cid->oid = (uint16_t)mmchal_card_bits_(r, 104, 16);
	cid_name(r, 103, name_len, cid->pnm);
	cid->prv = (uint8_t)mmchal_card_bits_(r, psn + 32u, 8);
	cid->psn = mmchal_card_bits_(r, psn, 32);
}

void mmchal_card_decode_sd_cid_(const uint32_t r[4], struct mmchal_cid *cid)
{
	/* PNM [103:64], PRV [63:56], PSN [55:24] */
	cid_common(r, 5, 24, cid);
	cid->year = (uint16_t)(2000u + mmchal_card_bits_(r, 12, 8));
	cid->month = (uint8_t)mmchal_card_bits_(r, 8, 4);
}

void mmchal_card_decode_mmc_cid_(const uint32_t r[4], uint8_t ext_csd_rev, struct mmchal_cid *cid)
{
	/* PNM [103:56], PRV [55:48], PSN [47:16] */
	cid_common(r, 6, 16, cid);
	cid->month = (uint8_t)mmchal_card_bits_(r, 12, 4);
	cid->year = (uint16_t)(1997u + mmchal_card_bits_(r, 8, 4));
	/* eMMC 4.41 (EXT_CSD_REV 5) moved the year base to 2013 for codes 0..12
	   (JESD84-B451 7.2.8; Linux mmc_read_ext_csd applies the same). */
	if (ext_csd_rev >= 5u && cid->year < 2010u)
		cid->year = (uint16_t)(cid->year + 16u);
}

static void csd_common(const uint32_t r[4], bool mmc, struct mmchal_csd *csd)
{
	memset(csd, 0, sizeof(*csd));
	csd->structure = (uint8_t)mmchal_card_bits_(r, 126, 2);
	csd->tran_speed_hz = mmchal_card_tran_speed_hz_((uint8_t)mmchal_card_bits_(r, 96, 8), mmc);
	csd->ccc = (uint16_t)mmchal_card_bits_(r, 84, 12);
	csd->read_bl_len = (uint8_t)mmchal_card_bits_(r, 80, 4);
	csd->perm_wp = mmchal_card_bits_(r, 13, 1) != 0;
	csd->tmp_wp = mmchal_card_bits_(r, 12, 1) != 0;
}

/* v1 / MMC capacity: (C_SIZE + 1) x 2^(C_SIZE_MULT + 2) x 2^READ_BL_LEN bytes. */
static uint64_t csd_v1_capacity(const uint32_t r[4], uint8_t read_bl_len)
{
	uint64_t c_size = mmchal_card_bits_(r, 62, 12);
	unsigned mult = mmchal_card_bits_(r, 47, 3);

	return (c_size + 1u) << (mult + 2u + read_bl_len);
}

int mmchal_card_decode_sd_csd_(const uint32_t r[4], struct mmchal_csd *csd)
{
	csd_common(r, false, csd);
	csd->erase_grp = 1;
	switch (csd->structure) {
	case 0:
		/* READ_BL_LEN is 9, 10 or 11 on a v1 card (SD Physical Layer 5.3.2) */
		if (csd->read_bl_len < 9u || csd->read_bl_len > 11u)
			return MMCHAL_EPROTO;
		csd->capacity = csd_v1_capacity(r, csd->read_bl_len);
		return 0;
	case 1:
		/* v2: C_SIZE [69:48], capacity (C_SIZE + 1) x 512 KiB (5.3.3) */
		csd->capacity = ((uint64_t)mmchal_card_bits_(r, 48, 22) + 1u) << 19;
		return 0;
	default:
		/* CSD v3 (SDUC) and reserved structures: not handled */
		return MMCHAL_EPROTO;
	}
}

int mmchal_card_decode_mmc_csd_(const uint32_t r[4], struct mmchal_csd *csd)
{
	unsigned wbl;

	csd_common(r, true, csd);
	csd->spec_vers = (uint8_t)mmchal_card_bits_(r, 122, 4);
	if (csd->read_bl_len < 9u || csd->read_bl_len > 11u)
		return MMCHAL_EPROTO;
	csd->capacity = csd_v1_capacity(r, csd->read_bl_len);
	/* erase group: (ERASE_GRP_SIZE + 1) x (ERASE_GRP_MULT + 1) write blocks */
	wbl = mmchal_card_bits_(r, 22, 4);
	csd->erase_grp = (mmchal_card_bits_(r, 42, 5) + 1u) * (mmchal_card_bits_(r, 37, 5) + 1u);
	if (wbl > 9u && wbl <= 11u)
		csd->erase_grp <<= wbl - 9u;
	return 0;
}

int mmchal_card_decode_scr_(const uint8_t b[8], struct mmchal_scr *scr)
{
	memset(scr, 0, sizeof(*scr));
	/* SCR_STRUCTURE [63:60] is 0 in every published version */
	if ((b[0] >> 4) != 0u)
		return MMCHAL_EPROTO;
	scr->sd_spec = b[0] & 0xfu;
	scr->erased_byte = (b[1] & 0x80u) ? 0xffu : 0x00u;
	scr->bus_widths = b[1] & 0xfu;
	scr->sd_spec3 = (b[2] & 0x80u) != 0;
	scr->cmd23 = (b[3] & 0x02u) != 0; /* CMD_SUPPORT bit 33 */
	/* every SD card has the 1-bit bus (SD Physical Layer 5.6) */
	if (!(scr->bus_widths & 1u))
		return MMCHAL_EPROTO;
	return 0;
}

int mmchal_card_decode_ext_csd_(const uint8_t b[512], struct mmchal_ext_csd *ext)
{
	/* every field is assigned below, also before the one error return: no
	   clearing first */
	ext->rev = b[EXT_CSD_REV];
	ext->card_type = b[EXT_CSD_CARD_TYPE];
	ext->sec_count = (uint32_t)b[EXT_CSD_SEC_COUNT] |
			 ((uint32_t)b[EXT_CSD_SEC_COUNT + 1] << 8) |
			 ((uint32_t)b[EXT_CSD_SEC_COUNT + 2] << 16) |
			 ((uint32_t)b[EXT_CSD_SEC_COUNT + 3] << 24);
	/* GENERIC_CMD6_TIME exists from eMMC 4.5 (REV 6); before, Linux and its
	   forks use 500 ms (PROTOCOL.md: effectively a single source) */
	ext->cmd6_time_ms = 500u;
	if (ext->rev >= 6u && b[EXT_CSD_GENERIC_CMD6_TIME] != 0u)
		ext->cmd6_time_ms = 10u * b[EXT_CSD_GENERIC_CMD6_TIME];
	ext->erased_byte = (b[EXT_CSD_ERASED_MEM_CONT] & 1u) ? 0xffu : 0x00u;
	ext->bus_width = b[EXT_CSD_BUS_WIDTH];
	ext->hs_timing = b[EXT_CSD_HS_TIMING];
	ext->hc_erase_grp = (uint32_t)b[EXT_CSD_HC_ERASE_GRP] * 1024u; /* x 512 KiB */
	ext->erase_timeout_ms = (uint32_t)b[EXT_CSD_ERASE_TIMEOUT] * 300u;
	ext->trim = (b[EXT_CSD_SEC_FEATURE] & 0x10u) != 0;
	/* SEC_COUNT is valid from REV 2 (eMMC 4.2); a card claiming it with no
	   sectors is broken */
	if (ext->rev >= 2u && ext->sec_count == 0u)
		return MMCHAL_EPROTO;
	return 0;
}

int mmchal_card_status_err_(uint32_t status, uint32_t mask)
{
	uint32_t s = status & mask;

	if (s == 0u)
		return 0;
	if (s & (R1_OUT_OF_RANGE | R1_ADDRESS_ERROR))
		return MMCHAL_ERANGE;
	if (s & (R1_WP_VIOLATION | R1_WP_ERASE_SKIP))
		return MMCHAL_EROFS;
	if (s & R1_COM_CRC_ERROR)
		return MMCHAL_EIO;
	if (s & (R1_ILLEGAL_COMMAND | R1_SWITCH_ERROR | R1_ERASE_SEQ_ERROR | R1_ERASE_PARAM |
		 R1_BLOCK_LEN_ERROR | R1_CARD_IS_LOCKED | R1_LOCK_UNLOCK_FAILED))
		return MMCHAL_EILSEQ;
	return MMCHAL_EIO;
}

#if MMCHAL_WITH_SDIO /* the CIS serves SDIO functions only (config.h) */

/* Tuple codes (SDIO Simplified Spec 16.7). */
#define CISTPL_NULL   0x00u
#define CISTPL_MANFID 0x20u
#define CISTPL_FUNCE  0x22u
#define CISTPL_END    0xffu

/* A CIS lives in function 0's 17-bit space above the CCCR and FBRs. */
#define CIS_AREA_START 0x01000u
#define CIS_AREA_END   0x17fffu
/* A chain longer than this is a loop or garbage. */
#define CIS_MAX_TUPLES 64u

static int cis_get(mmchal_card_cis_read_fn_ rd, void *ctx, uint32_t addr, uint8_t *v)
{
	if (addr < CIS_AREA_START || addr > CIS_AREA_END)
		return MMCHAL_EPROTO;
	return rd(ctx, addr, v);
}

int mmchal_card_cis_parse_(mmchal_card_cis_read_fn_ rd, void *ctx, uint32_t ptr, bool fn0,
			   struct mmchal_card_cis_ *out)
{
	uint32_t addr = ptr;

	memset(out, 0, sizeof(*out));
	for (unsigned n = 0; n < CIS_MAX_TUPLES; n++) {
		uint8_t code, link, body[16];
		int err;

		err = cis_get(rd, ctx, addr, &code);
		if (err)
			return err;
		if (code == CISTPL_END)
			return 0;
		/* a null tuple has no link byte (Linux sdio_cis.c reads it so) */
		if (code == CISTPL_NULL) {
			addr++;
			continue;
		}
		err = cis_get(rd, ctx, addr + 1u, &link);
		if (err)
			return err;
		if (link == 0xffu) /* end of chain */
			return 0;
		if (code == CISTPL_MANFID || code == CISTPL_FUNCE) {
			uint32_t take = link;

			if (take > sizeof(body))
				take = sizeof(body);
			for (uint32_t i = 0; i < take; i++) {
				err = cis_get(rd, ctx, addr + 2u + i, &body[i]);
				if (err)
					return err;
			}
			if (code == CISTPL_MANFID) {
				if (link < 4u)
					return MMCHAL_EPROTO;
				out->manfid = true;
				out->vendor = (uint16_t)(body[0] | (body[1] << 8));
				out->device = (uint16_t)(body[2] | (body[3] << 8));
			} else if (fn0 && link >= 4u && body[0] == 0x00u) {
				/* TPLFE_FN0_BLK_SIZE: bytes 1..2 of the common FUNCE */
				out->max_blk = (uint16_t)(body[1] | (body[2] << 8));
			} else if (!fn0 && link >= 14u && body[0] == 0x01u) {
				/* TPLFE_MAX_BLK_SIZE: bytes 12..13 of a function FUNCE */
				out->max_blk = (uint16_t)(body[12] | (body[13] << 8));
			}
		}
		addr += 2u + link;
	}
	return MMCHAL_EPROTO;
}
#endif
