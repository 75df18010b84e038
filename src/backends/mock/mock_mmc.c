/**
 * @file
 * @brief Mock card: eMMC 5.1 (EXT_CSD_REV 8), sector addressed unless
 *        ::mmchal_mock_cfg::emmc_byte_mode.
 *
 * Identification CMD0, CMD1, CMD2, CMD3 (host-assigned RCA), CMD9, CMD7;
 * then CMD8 SEND_EXT_CSD, CMD6 SWITCH (bus width, HS_TIMING, a few other
 * writable bytes), CMD35/36/38 erase and the memory commands of mock_card.c.
 * CMD55 and the SD-only commands are illegal, so SD probing gets silence
 * (PROTOCOL.md section 4, "SDIO and card-type detection").
 *
 * Locking: none; called from the backend ops, which the caller serialises.
 */
#include "mock_priv.h"

#define ST(s) MMCHAL_MOCK_ST_##s

/* OCR: 2.7-3.6 V (23:15), 1.70-1.95 V (bit 7), access mode 30:29, done 31. */
#define MMC_OCR_VDD    0x00ff8080u
#define MMC_OCR_SECTOR (2u << 29)
#define MMC_OCR_BUSY   (1u << 31)

/* EXT_CSD byte indices (JEDEC eMMC 5.1 section 7.4, PROTOCOL.md section 3). */
#define EXT_CACHE_CTRL       33
#define EXT_POWER_OFF_NOTIF  34
#define EXT_HPI_MGMT         161
#define EXT_RST_N_FUNCTION   162
#define EXT_ERASE_GROUP_DEF  175
#define EXT_PARTITION_CONFIG 179
#define EXT_BUS_WIDTH        183
#define EXT_HS_TIMING        185
#define EXT_POWER_CLASS      187
#define EXT_REV              192
#define EXT_CSD_STRUCTURE    194
#define EXT_CARD_TYPE        196
#define EXT_PART_SWITCH_TIME 199
#define EXT_SEC_COUNT        212
#define EXT_HC_WP_GRP_SIZE   221
#define EXT_ERASE_TIMEOUT    223
#define EXT_HC_ERASE_GRP     224
#define EXT_SEC_FEATURE      231
#define EXT_TRIM_MULT        232
#define EXT_GENERIC_CMD6     248
#define EXT_S_CMD_SET        504

/* CARD_TYPE bits. */
#define CT_HS    0x03u /* HS26 | HS52 */
#define CT_DDR   0x0cu /* DDR52 1.8/3.3 V | 1.2 V */
#define CT_HS200 0x30u
#define CT_HS400 0xc0u

static void put(uint8_t *reg, unsigned n, unsigned hi, unsigned lo, uint64_t v)
{
	mock_put_bits_(reg, n, hi, lo, v);
}

static bool sector_mode(const struct mmchal_mock *m)
{
	return !m->cfg.emmc_byte_mode;
}

/* Called once, by mmchal_mock_init() on a zeroed mock: only the fields that
   are not 0 are written. TMP_WRITE_PROTECT (CSD bit 12) is 0 until
   mmchal_mock_set_write_protect(); EXT_CSD ERASED_MEM_CONT is 0 (erased
   memory reads as zeros, as mock_card.c's erase leaves it). */
void mock_mmc_regs_(struct mmchal_mock *m)
{
	uint8_t *e = m->ext_csd;
	uint64_t sectors = m->cfg.image_size / MOCK_BLK;

	put(m->cid, 16, 127, 120, 0x4d);             /* MID */
	put(m->cid, 16, 113, 112, 1);                /* CBX: BGA (eMMC) */
	put(m->cid, 16, 111, 104, 0x4b);             /* OID */
	put(m->cid, 16, 103, 56, 0x4d454d4d4331ull); /* PNM "MEMMC1" */
	put(m->cid, 16, 55, 48, 0x10);               /* PRV 1.0 */
	put(m->cid, 16, 47, 16, m->cfg.serial);      /* PSN */
	put(m->cid, 16, 15, 12, 12);                 /* MDT month 12 */
	/* MDT year code 12: 1997 + 12 + 16 = 2025 for EXT_CSD_REV >= 5 (codes 13-15 are
	   2010-2012 there; JESD84-B451, Linux mmc.c) */
	put(m->cid, 16, 11, 8, 12);
	put(m->cid, 16, 0, 0, 1);

	put(m->csd, 16, 127, 126, 3);    /* CSD_STRUCTURE: version in EXT_CSD[194] */
	put(m->csd, 16, 125, 122, 4);    /* SPEC_VERS 4.x and later */
	put(m->csd, 16, 119, 112, 0x0e); /* TAAC 1 ms */
	put(m->csd, 16, 111, 104, 1);    /* NSAC */
	put(m->csd, 16, 103, 96, 0x32);  /* TRAN_SPEED 26 MHz */
	put(m->csd, 16, 95, 84, 0x0f5);  /* CCC: classes 0 2 4 5 6 7 */
	put(m->csd, 16, 83, 80, 9);      /* READ_BL_LEN 512 */
	if (sector_mode(m)) {
		/* Saturated: the size is SEC_COUNT (PROTOCOL.md section 3). */
		put(m->csd, 16, 73, 62, 0xfff);
		put(m->csd, 16, 49, 47, 7);
	} else {
		mock_csd_v1_size_(m);
	}
	put(m->csd, 16, 46, 42, 31); /* ERASE_GRP_SIZE */
	put(m->csd, 16, 41, 37, 31); /* ERASE_GRP_MULT */
	put(m->csd, 16, 28, 26, 2);  /* R2W_FACTOR */
	put(m->csd, 16, 25, 22, 9);  /* WRITE_BL_LEN 512 */
	put(m->csd, 16, 0, 0, 1);

	e[EXT_REV] = 8; /* eMMC 5.1 */
	e[EXT_CSD_STRUCTURE] = 2;
	e[EXT_CARD_TYPE] = m->cfg.emmc_card_type;
	e[EXT_PART_SWITCH_TIME] = 10; /* 100 ms */
	e[EXT_SEC_COUNT + 0] = (uint8_t)sectors;
	e[EXT_SEC_COUNT + 1] = (uint8_t)(sectors >> 8);
	e[EXT_SEC_COUNT + 2] = (uint8_t)(sectors >> 16);
	e[EXT_SEC_COUNT + 3] = (uint8_t)(sectors >> 24);
	e[EXT_HC_WP_GRP_SIZE] = 1;
	e[EXT_ERASE_TIMEOUT] = 1;
	e[EXT_HC_ERASE_GRP] = 1;   /* 512 KiB */
	e[EXT_SEC_FEATURE] = 0x10; /* trim supported */
	e[EXT_TRIM_MULT] = 1;
	e[EXT_GENERIC_CMD6] = 10; /* 100 ms */
	e[EXT_S_CMD_SET] = 1;
}

void mock_mmc_reset_(struct mmchal_mock *m)
{
	m->ext_csd[EXT_BUS_WIDTH] = 0;
	m->ext_csd[EXT_HS_TIMING] = 0;
	/* PARTITION_ACCESS (bits 2:0) would return to the user area here; it
	   never leaves it (switch_ok()), and the boot bits survive a reset. */
	m->ext_csd[EXT_ERASE_GROUP_DEF] = 0;
	m->hs = 0;
}

static uint32_t width_of(uint8_t bus_width)
{
	switch (bus_width & 0x0fu) {
	case 1:
	case 5:
		return 4;
	case 2:
	case 6:
		return 8;
	default:
		return 1;
	}
}

/* Whether writing @p v to EXT_CSD byte @p idx is allowed now (JEDEC 5.1
   section 6.6: DDR widths after HS_TIMING = 1; HS400 after BUS_WIDTH = 6). */
static bool switch_ok(const struct mmchal_mock *m, uint32_t idx, uint32_t v)
{
	uint8_t ct = m->ext_csd[EXT_CARD_TYPE];
	uint8_t bw = m->ext_csd[EXT_BUS_WIDTH];

	switch (idx) {
	case EXT_CACHE_CTRL:
	case EXT_ERASE_GROUP_DEF:
		return v <= 1u;
	case EXT_POWER_OFF_NOTIF:
		return v <= 4u;
	case EXT_HPI_MGMT:
		return v <= 1u;
	case EXT_RST_N_FUNCTION:
		return v <= 2u;
	case EXT_PARTITION_CONFIG:
		/* No boot, RPMB or general-purpose partitions: user area only. */
		return (v & 7u) == 0u;
	case EXT_POWER_CLASS:
		return true;
	case EXT_BUS_WIDTH:
		if (v == 0u || v == 1u || v == 2u)
			return true;
		if (v == 5u || v == 6u)
			return (ct & CT_DDR) && m->ext_csd[EXT_HS_TIMING] == 1u;
		return false;
	case EXT_HS_TIMING:
		switch (v & 0x0fu) {
		case 0:
			return true;
		case 1:
			return (ct & CT_HS) != 0u;
		case 2:
			return (ct & CT_HS200) && (bw == 1u || bw == 2u);
		case 3:
			return (ct & CT_HS400) && bw == 6u;
		default:
			return false;
		}
	default:
		return false;
	}
}

/* CMD6 SWITCH, R1b: [25:24] access, [23:16] index, [15:8] value. A refused
   switch sets SWITCH_ERROR, seen in the next status (CMD13). */
static int mmc_switch(struct mmchal_mock *m, uint32_t arg, uint32_t st)
{
	uint32_t access = (arg >> 24) & 3u, idx = (arg >> 16) & 0xffu, val = (arg >> 8) & 0xffu;
	uint32_t cur, v;

	if (st != ST(TRAN))
		return MOCK_ILLEGAL;
	mock_resp_r1_(m, st);
	if (access != 0u) {
		cur = m->ext_csd[idx];
		v = access == 3u ? val : access == 1u ? (cur | val) : (cur & ~val);
		if (switch_ok(m, idx, v)) {
			m->ext_csd[idx] = (uint8_t)v;
			if (idx == EXT_BUS_WIDTH)
				m->width = width_of((uint8_t)v);
			if (idx == EXT_HS_TIMING)
				m->hs = v & 0x0fu;
		} else {
			m->pending |= MMCHAL_MOCK_R1_SWITCH_ERROR;
		}
	}
	mock_busy_enter_(m, ST(TRAN));
	return MOCK_RESP;
}

int mock_mmc_cmd_(struct mmchal_mock *m, uint32_t op, uint32_t arg)
{
	uint32_t st = m->state;
	uint32_t ocr;

	switch (op) {
	case 1: /* SEND_OP_COND, R3 */
		if (st != ST(IDLE) && st != ST(READY))
			return MOCK_ILLEGAL;
		ocr = MMC_OCR_VDD | (sector_mode(m) ? MMC_OCR_SECTOR : 0u);
		if ((arg & MMC_OCR_VDD) == 0u) {
			if ((arg & 0x00ffffffu) != 0u) {
				m->state = ST(INA);
				return MOCK_SILENT;
			}
			m->resp_pending[0] = ocr; /* inquiry */
			return MOCK_RESP;
		}
		if (m->op_polls > 0u) {
			m->op_polls--;
			m->resp_pending[0] = ocr;
			return MOCK_RESP;
		}
		m->state = ST(READY);
		m->resp_pending[0] = ocr | MMC_OCR_BUSY;
		return MOCK_RESP;
	case 2: /* ALL_SEND_CID */
		if (st != ST(READY))
			return MOCK_ILLEGAL;
		m->state = ST(IDENT);
		mock_resp_r2_(m, m->cid);
		return MOCK_RESP;
	case 3: /* SET_RELATIVE_ADDR, R1: the host assigns; 0 would be "deselect all" */
		if (st != ST(IDENT) || (arg >> 16) == 0u)
			return MOCK_ILLEGAL;
		m->rca = arg >> 16;
		m->state = ST(STBY);
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	case 6:
		return mmc_switch(m, arg, st);
	case 8: /* SEND_EXT_CSD: tran -> data, 512 bytes */
		if (st != ST(TRAN))
			return MOCK_ILLEGAL;
		m->src_kind = MOCK_SRC_EXT_CSD;
		m->src_len = MMCHAL_MOCK_EXT_CSD_SIZE;
		m->state = ST(DATA);
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	default:
		return mock_mem_cmd_(m, op, arg, st);
	}
}
