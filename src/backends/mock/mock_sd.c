/**
 * @file
 * @brief Mock card: SD memory card v2, high capacity (CSD v2, block
 *        addresses) or standard capacity (CSD v1, byte addresses).
 *
 * Identification CMD0, CMD8, CMD55 + ACMD41, CMD2, CMD3, CMD9, CMD7; then
 * ACMD6, ACMD13, ACMD22, ACMD51, CMD6 (high speed) and the memory commands
 * of mock_card.c. Register contents follow PROTOCOL.md section 3 ("Simulator
 * defaults (SDHC)"); the SCR claims CMD23 unless ::mmchal_mock_cfg::no_cmd23.
 *
 * Locking: none; called from the backend ops, which the caller serialises.
 */
#include "mock_priv.h"

#define ST(s) MMCHAL_MOCK_ST_##s

/* OCR: 2.7-3.6 V window (bits 23:15), bit 30 CCS, bit 31 power-up done. */
#define SD_OCR_VDD  0x00ff8000u
#define SD_OCR_HCS  (1u << 30)
#define SD_OCR_BUSY (1u << 31)

/* TRAN_SPEED: 25 MHz default speed, 50 MHz high speed (SD spec 5.3.2). */
#define SD_TRAN_DS 0x32u
#define SD_TRAN_HS 0x5au

static void put(uint8_t *reg, unsigned n, unsigned hi, unsigned lo, uint64_t v)
{
	mock_put_bits_(reg, n, hi, lo, v);
}

/* Called once, by mmchal_mock_init() on a zeroed mock: only the fields that
   are not 0 are written. TMP_WRITE_PROTECT (CSD bit 12) is 0 until
   mmchal_mock_set_write_protect(); TRAN_SPEED is written by the power-on
   reset that follows, mock_sd_reset_(). */
void mock_sd_regs_(struct mmchal_mock *m)
{
	bool hc = m->cfg.card == MMCHAL_MOCK_SDHC;

	put(m->cid, 16, 127, 120, 0x4d);                                  /* MID */
	put(m->cid, 16, 119, 104, 0x4d4b);                                /* OID "MK" */
	put(m->cid, 16, 103, 64, hc ? 0x4d53444843ull : 0x4d53445343ull); /* "MSDHC"/"MSDSC" */
	put(m->cid, 16, 63, 56, 0x10);                                    /* PRV 1.0 */
	put(m->cid, 16, 55, 24, m->cfg.serial);                           /* PSN */
	put(m->cid, 16, 19, 12, 26);                                      /* MDT year 2026 */
	put(m->cid, 16, 11, 8, 12);                                       /* MDT month 12 */
	put(m->cid, 16, 0, 0, 1);                                         /* end bit */

	put(m->csd, 16, 127, 126, hc ? 1 : 0); /* CSD_STRUCTURE: v2.0 / v1.0 */
	put(m->csd, 16, 119, 112, 0x0e);       /* TAAC 1 ms */
	put(m->csd, 16, 95, 84, 0x5b5);        /* CCC: classes 0 2 4 5 7 8 10 (QEMU sd.c) */
	put(m->csd, 16, 83, 80, 9);            /* READ_BL_LEN 512 */
	if (hc) {
		put(m->csd, 16, 69, 48, m->cfg.image_size / (512ull * 1024u) - 1u); /* C_SIZE */
	} else {
		put(m->csd, 16, 61, 50, 0xfff); /* VDD_R/W_CURR_MIN/MAX: 100/200 mA */
		mock_csd_v1_size_(m);
	}
	put(m->csd, 16, 46, 46, 1);    /* ERASE_BLK_EN: erase in 512-byte units */
	put(m->csd, 16, 45, 39, 0x7f); /* SECTOR_SIZE: 128 blocks */
	put(m->csd, 16, 28, 26, 2);    /* R2W_FACTOR x4 */
	put(m->csd, 16, 25, 22, 9);    /* WRITE_BL_LEN 512 */
	put(m->csd, 16, 0, 0, 1);      /* end bit */

	put(m->scr, 8, 59, 56, 2);                       /* SD_SPEC 2.00 / 3.0x */
	put(m->scr, 8, 51, 48, 0x5);                     /* SD_BUS_WIDTHS 1 and 4 bit */
	put(m->scr, 8, 47, 47, 1);                       /* SD_SPEC3 */
	put(m->scr, 8, 33, 33, m->cfg.no_cmd23 ? 0 : 1); /* CMD_SUPPORT: CMD23 */
}

void mock_sd_reset_(struct mmchal_mock *m)
{
	/* High speed ends with the power cycle; TRAN_SPEED back to 25 MHz. */
	put(m->csd, 16, 103, 96, SD_TRAN_DS);
	m->hs = 0;
}

/* CMD6 SWITCH_FUNC: the 64-byte status (byte layout PROTOCOL.md section 3).
   Group 1 offers default speed and high speed; groups 2-6 their default only. */
static void switch_func(struct mmchal_mock *m, uint32_t arg)
{
	uint8_t *p = m->payload;
	unsigned sel[6];
	bool ok = true;

	memset(p, 0, 64);
	p[1] = 100; /* maximum current, mA */
	for (unsigned g = 0; g < 6u; g++) {
		unsigned off = 12u - 2u * g; /* G1 in bytes 12-13 ... G6 in 2-3 */
		unsigned sup = g == 0 ? 0x8003u : 0x8001u;
		unsigned req = (arg >> (4u * g)) & 0xfu;

		p[off] = (uint8_t)(sup >> 8);
		p[off + 1u] = (uint8_t)sup;
		if (req == 0xfu) {
			sel[g] = g == 0 ? m->hs : 0;
		} else if (sup & (1u << req)) {
			sel[g] = req;
		} else {
			sel[g] = 0xfu;
			ok = false;
		}
	}
	p[14] = (uint8_t)(sel[5] << 4 | sel[4]);
	p[15] = (uint8_t)(sel[3] << 4 | sel[2]);
	p[16] = (uint8_t)(sel[1] << 4 | sel[0]);
	if ((arg >> 31) && ok) {
		m->hs = sel[0];
		/* TRAN_SPEED follows the bus speed mode (SD spec 5.3.3). */
		put(m->csd, 16, 103, 96, m->hs ? SD_TRAN_HS : SD_TRAN_DS);
	}
	m->src_kind = MOCK_SRC_PAYLOAD;
	m->src_len = 64;
}

/* ACMD13 SD_STATUS, 64 bytes. */
static void sd_status(struct mmchal_mock *m)
{
	uint8_t *p = m->payload;

	memset(p, 0, 64);
	put(p, 64, 511, 510, m->width == 4u ? 2 : 0); /* DAT_BUS_WIDTH */
	put(p, 64, 447, 440, 4);                      /* SPEED_CLASS: class 10 */
	put(p, 64, 431, 428, 9);                      /* AU_SIZE 4 MiB */
	put(p, 64, 423, 408, 1);                      /* ERASE_SIZE: 1 AU */
	put(p, 64, 407, 402, 1);                      /* ERASE_TIMEOUT 1 s */
	put(p, 64, 401, 400, 1);                      /* ERASE_OFFSET 1 s */
	m->src_kind = MOCK_SRC_PAYLOAD;
	m->src_len = 64;
}

/* Application commands (after CMD55). Returns -1 for "not an ACMD". */
static int sd_acmd(struct mmchal_mock *m, uint32_t op, uint32_t arg, uint32_t st)
{
	switch (op) {
	case 6: /* SET_BUS_WIDTH: [1:0] 00 = 1 bit, 10 = 4 bit */
		if (st != ST(TRAN))
			return MOCK_ILLEGAL;
		if ((arg & 3u) == 0u || (arg & 3u) == 2u)
			m->width = (arg & 3u) ? 4u : 1u;
		else
			m->pending |= MMCHAL_MOCK_R1_ERROR;
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	case 13: /* SD_STATUS */
	case 22: /* SEND_NUM_WR_BLOCKS */
	case 51: /* SEND_SCR */
		if (st != ST(TRAN))
			return MOCK_ILLEGAL;
		if (op == 13u) {
			sd_status(m);
		} else if (op == 22u) {
			m->payload[0] = (uint8_t)(m->last_written >> 24);
			m->payload[1] = (uint8_t)(m->last_written >> 16);
			m->payload[2] = (uint8_t)(m->last_written >> 8);
			m->payload[3] = (uint8_t)m->last_written;
			m->src_kind = MOCK_SRC_PAYLOAD;
			m->src_len = 4;
		} else {
			memcpy(m->payload, m->scr, 8);
			m->src_kind = MOCK_SRC_PAYLOAD;
			m->src_len = 8;
		}
		m->state = ST(DATA);
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	case 23: /* SET_WR_BLK_ERASE_COUNT: a hint, accepted */
	case 42: /* SET_CLR_CARD_DETECT: pull-up, accepted */
		if (st != ST(TRAN))
			return MOCK_ILLEGAL;
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	case 41: /* SD_SEND_OP_COND, R3 */
		if (st != ST(IDLE))
			return MOCK_ILLEGAL;
		if ((arg & SD_OCR_VDD) == 0u) {
			if ((arg & 0x00ffffffu) != 0u) {
				m->state = ST(INA); /* voltage mismatch */
				return MOCK_SILENT;
			}
			/* Inquiry: the OCR, still busy, the card stays idle. */
			m->resp_pending[0] = SD_OCR_VDD;
			return MOCK_RESP;
		}
		/* An SDHC card stays busy for a host that does not set HCS (SD spec 4.2.3). */
		if (m->op_polls > 0u || (m->cfg.card == MMCHAL_MOCK_SDHC && !(arg & SD_OCR_HCS))) {
			if (m->op_polls > 0u)
				m->op_polls--;
			m->resp_pending[0] = SD_OCR_VDD;
			return MOCK_RESP;
		}
		m->ccs = m->cfg.card == MMCHAL_MOCK_SDHC;
		m->state = ST(READY);
		m->resp_pending[0] = SD_OCR_BUSY | SD_OCR_VDD | (m->ccs ? SD_OCR_HCS : 0u);
		return MOCK_RESP;
	default:
		return -1;
	}
}

int mock_sd_cmd_(struct mmchal_mock *m, uint32_t op, uint32_t arg, bool app)
{
	uint32_t st = m->state;

	if (app) {
		int res = sd_acmd(m, op, arg, st);

		if (res >= 0)
			return res;
		/* Not an application command: taken as the standard one (SD spec 4.3.9). */
		m->app = false;
	}
	switch (op) {
	case 2: /* ALL_SEND_CID: ready -> ident */
		if (st != ST(READY))
			return MOCK_ILLEGAL;
		m->state = ST(IDENT);
		mock_resp_r2_(m, m->cid);
		return MOCK_RESP;
	case 3: { /* SEND_RELATIVE_ADDR, R6: the card publishes its RCA */
		uint32_t s;

		if (st != ST(IDENT) && st != ST(STBY))
			return MOCK_ILLEGAL;
		m->rca = m->cfg.rca;
		m->state = ST(STBY);
		s = mock_r1_(m, st);
		/* R6 [15] <- status 23, [14] <- 22, [13] <- 19, [12:0] <- 12:0. */
		m->resp_pending[0] = m->rca << 16 | ((s >> 8) & 0xc000u) | ((s >> 6) & 0x2000u) |
				     (s & 0x1fffu);
		return MOCK_RESP;
	}
	case 6: /* SWITCH_FUNC: tran -> data, 64 bytes */
		if (st != ST(TRAN))
			return MOCK_ILLEGAL;
		switch_func(m, arg);
		m->state = ST(DATA);
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	case 8: /* SEND_IF_COND, R7: idle only; silent on a voltage mismatch */
		if (st != ST(IDLE))
			return MOCK_ILLEGAL;
		if (((arg >> 8) & 0xfu) != 1u)
			return MOCK_SILENT;
		m->resp_pending[0] = arg & 0xfffu;
		return MOCK_RESP;
	case 55: /* APP_CMD: not in ready or ident */
		if (st == ST(READY) || st == ST(IDENT))
			return MOCK_ILLEGAL;
		if ((arg >> 16) != m->rca)
			return MOCK_SILENT;
		m->app = true;
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	default:
		return mock_mem_cmd_(m, op, arg, st);
	}
}
