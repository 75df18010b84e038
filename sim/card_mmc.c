/*
 * eMMC: CMD1 with sector mode, host-assigned RCA, EXT_CSD through CMD8,
 * CMD6 SWITCH of bus width and HS timing (HS, DDR52, HS200, HS400), CMD23,
 * CMD12. Boot and RPMB partitions are not modelled (PARTITION_CONFIG access
 * other than the user area is a SWITCH_ERROR). Layout: PROTOCOL.md section 3.
 */
#include "sim_priv.h"

#define R1_OUT_OF_RANGE (1u << 31)
#define R1_ADDRESS      (1u << 30)
#define R1_BLOCK_LEN    (1u << 29)
#define R1_WP_VIOLATION (1u << 26)
#define R1_SWITCH_ERROR (1u << 7)

#define ST(s) MMCHAL_SIM_ST_##s

enum {
	EXT_ERASE_GROUP_DEF = 175,
	EXT_ERASED_MEM_CONT = 181,
	EXT_PARTITION_CONFIG = 179,
	EXT_BUS_WIDTH = 183,
	EXT_HS_TIMING = 185,
	EXT_REV = 192,
	EXT_CSD_STRUCTURE = 194,
	EXT_CARD_TYPE = 196,
	EXT_DRIVER_STRENGTH = 197,
	EXT_PART_SWITCH_TIME = 199,
	EXT_SEC_COUNT = 212,
	EXT_HC_WP_GRP_SIZE = 221,
	EXT_ERASE_TIMEOUT_MULT = 223,
	EXT_HC_ERASE_GRP_SIZE = 224,
	EXT_SEC_FEATURE_SUPPORT = 231,
	EXT_TRIM_MULT = 232,
	EXT_GENERIC_CMD6_TIME = 248,
	EXT_S_CMD_SET = 504,
};

void mmc_init_regs_(struct sim_card *c)
{
	uint64_t sectors = c->cfg.capacity / 512u;
	uint8_t *e = c->ext_csd;

	memset(c->cid, 0, 16);
	card_set_bits_(c->cid, 16, 127, 120, 0xaa);             /* MID */
	card_set_bits_(c->cid, 16, 113, 112, 1);                /* CBX: BGA */
	card_set_bits_(c->cid, 16, 111, 104, 0x53);             /* OID */
	card_set_bits_(c->cid, 16, 103, 56, 0x4d4d4353494dull); /* PNM "MMCSIM" */
	card_set_bits_(c->cid, 16, 55, 48, 0x10);               /* PRV */
	card_set_bits_(c->cid, 16, 47, 16, c->cfg.serial);      /* PSN */
	card_set_bits_(c->cid, 16, 15, 12, 11);                 /* MDT month */
	card_set_bits_(c->cid, 16, 11, 8, 13);                  /* 1997 + 16 + 13 = 2026 */
	card_crc7_fill_(c->cid);

	memset(c->csd, 0, 16);
	card_set_bits_(c->csd, 16, 127, 126, 3);    /* version in EXT_CSD[194] */
	card_set_bits_(c->csd, 16, 125, 122, 4);    /* SPEC_VERS 4.x */
	card_set_bits_(c->csd, 16, 119, 112, 0x0e); /* TAAC */
	card_set_bits_(c->csd, 16, 103, 96, 0x32);  /* TRAN_SPEED */
	card_set_bits_(c->csd, 16, 95, 84, 0x8f5);  /* CCC */
	/*
	 * Size (C_SIZE + 1) x 2^(C_SIZE_MULT + 2) x 2^READ_BL_LEN bytes. A sector-mode
	 * device (above 2 GB) saturates it and holds its size in SEC_COUNT; a byte-mode
	 * one (up to 2 GB) is described by its CSD, as JESD84-B51 7.3.12 and Linux
	 * mmc_decode_csd() expect: READ_BL_LEN grows (512, 1024, 2048 bytes) until
	 * C_SIZE fits its 12 bits.
	 */
	if (c->cfg.byte_mode) {
		/* 512-byte blocks up to 1 GiB, 1024-byte ones up to 2 GiB (insert checks) */
		unsigned bl = c->cfg.capacity > (1ull << 30) ? 10u : 9u;

		card_set_bits_(c->csd, 16, 83, 80, bl); /* READ_BL_LEN */
		card_set_bits_(c->csd, 16, 73, 62,
			       (c->cfg.capacity >> (9u + bl)) - 1u); /* C_SIZE */
	} else {
		card_set_bits_(c->csd, 16, 83, 80, 9);     /* READ_BL_LEN */
		card_set_bits_(c->csd, 16, 73, 62, 0xfff); /* C_SIZE saturated */
	}
	/* Supply-current fields (CSD 61:50), non-zero as a real device reports them:
	   a driver decoding C_SIZE_MULT and C_SIZE meets set bits on both sides. */
	card_set_bits_(c->csd, 16, 61, 59, 5);  /* VDD_R_CURR_MIN */
	card_set_bits_(c->csd, 16, 58, 56, 7);  /* VDD_R_CURR_MAX */
	card_set_bits_(c->csd, 16, 55, 53, 5);  /* VDD_W_CURR_MIN */
	card_set_bits_(c->csd, 16, 52, 50, 7);  /* VDD_W_CURR_MAX */
	card_set_bits_(c->csd, 16, 49, 47, 7);  /* C_SIZE_MULT */
	card_set_bits_(c->csd, 16, 46, 42, 31); /* ERASE_GRP_SIZE: (31 + 1) x */
	card_set_bits_(c->csd, 16, 41, 37, 31); /* ERASE_GRP_MULT (31 + 1) blocks = 512 KiB */
	card_set_bits_(c->csd, 16, 28, 26, 2);  /* R2W_FACTOR */
	card_set_bits_(c->csd, 16, 25, 22, 9);  /* WRITE_BL_LEN */
	card_set_bits_(c->csd, 16, 12, 12,
		       c->cfg.tmp_write_protect ? 1 : 0); /* TMP_WRITE_PROTECT */
	card_crc7_fill_(c->csd);

	memset(e, 0, 512);
	e[EXT_REV] = 8; /* eMMC 5.1 */
	e[EXT_CSD_STRUCTURE] = 2;
	e[EXT_CARD_TYPE] = c->cfg.mmc_card_type;
	e[EXT_DRIVER_STRENGTH] = 0x1f;
	e[EXT_PART_SWITCH_TIME] = 3;
	e[EXT_SEC_COUNT + 0] = (uint8_t)sectors;
	e[EXT_SEC_COUNT + 1] = (uint8_t)(sectors >> 8);
	e[EXT_SEC_COUNT + 2] = (uint8_t)(sectors >> 16);
	e[EXT_SEC_COUNT + 3] = (uint8_t)(sectors >> 24);
	e[EXT_HC_WP_GRP_SIZE] = 1;
	e[EXT_HC_ERASE_GRP_SIZE] = 1;      /* 512 KiB erase groups */
	e[EXT_ERASE_TIMEOUT_MULT] = 1;     /* 300 ms per group, well above erase_busy_ns */
	e[EXT_TRIM_MULT] = 1;              /* 300 ms per trimmed group */
	e[EXT_SEC_FEATURE_SUPPORT] = 0x10; /* SEC_GB_CL_EN: TRIM; no secure erase */
	e[EXT_ERASED_MEM_CONT] = c->cfg.erased_ones ? 1 : 0;
	e[EXT_GENERIC_CMD6_TIME] = 10; /* 100 ms upper bound; the model is faster */
	e[EXT_S_CMD_SET] = 1;
	c->rca = 0;
}

/* Bus mode from BUS_WIDTH and HS_TIMING (JEDEC 5.1, 7.4.65 / 7.4.67). */
static void apply_mode(struct sim_card *c)
{
	static const uint8_t widths[7] = {1, 4, 8, 0, 0, 4, 8};
	uint8_t bw = c->ext_csd[EXT_BUS_WIDTH] & 0x0fu;
	bool ddr = bw == 5 || bw == 6;

	c->width = bw < 7 && widths[bw] ? widths[bw] : 1;
	switch (c->ext_csd[EXT_HS_TIMING] & 0x0fu) {
	case 1:
		c->timing = ddr ? MMCHAL_TIMING_MMC_DDR52 : MMCHAL_TIMING_MMC_HS;
		break;
	case 2:
		c->timing = MMCHAL_TIMING_MMC_HS200;
		break;
	case 3:
		c->timing = MMCHAL_TIMING_MMC_HS400;
		break;
	default:
		c->timing = MMCHAL_TIMING_LEGACY;
		break;
	}
}

/* Is @val acceptable for the writable byte @idx? */
static bool switch_ok(const struct sim_card *c, uint32_t idx, uint8_t val)
{
	uint8_t type = c->cfg.mmc_card_type;

	switch (idx) {
	case EXT_BUS_WIDTH:
		if (c->cfg.mmc_no_8bit && ((val & 0x0fu) == 2 || (val & 0x0fu) == 6))
			return false;
		if ((val & 0x0fu) == 5 || (val & 0x0fu) == 6)
			return (type & 0x0cu) && !(val & 0x70u);
		return (val & 0x0fu) <= 2 && !(val & 0xf0u);
	case EXT_HS_TIMING:
		switch (val & 0x0fu) {
		case 0:
			return true;
		case 1:
			return type & 0x03u;
		case 2:
			return type & 0x30u;
		case 3:
			/* HS400 needs the 8-bit DDR width first (JEDEC 5.1 6.6.2.3). */
			return (type & 0xc0u) && c->ext_csd[EXT_BUS_WIDTH] == 6;
		default:
			return false;
		}
	case EXT_PARTITION_CONFIG:
		return (val & 7u) == 0; /* boot/RPMB/GP partitions are not modelled */
	case EXT_ERASE_GROUP_DEF:
		return val <= 1;
	default:
		/* The modes segment below byte 192 is writable; properties are not. */
		return idx < 192u;
	}
}

static void do_switch(struct mmchal_sim *sim, uint32_t arg)
{
	struct sim_card *c = &sim->card;
	uint32_t access = (arg >> 24) & 3u;
	uint32_t idx = (arg >> 16) & 0xffu;
	uint8_t val = (uint8_t)(arg >> 8);
	uint8_t cur = c->ext_csd[idx];
	uint8_t next;

	if (access == 0)
		return; /* command set change: nothing to model */
	next = access == 3 ? val : access == 1 ? (uint8_t)(cur | val) : (uint8_t)(cur & ~val);
	if (!switch_ok(c, idx, next)) {
		c->pending |= R1_SWITCH_ERROR;
		return;
	}
	c->ext_csd[idx] = next;
	apply_mode(c);
}

static void data_cmd(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, int st0,
		     struct card_resp *r)
{
	struct sim_card *c = &sim->card;
	bool wr = idx == 24 || idx == 25;
	uint64_t addr = c->cfg.byte_mode ? arg : (uint64_t)arg * 512u;

	if (c->cfg.byte_mode && (arg & 511u))
		c->pending |= R1_ADDRESS;
	else if (addr >= c->cfg.capacity)
		c->pending |= R1_OUT_OF_RANGE;
	else if (wr && c->cfg.tmp_write_protect)
		c->pending |= R1_WP_VIOLATION;
	if (c->pending & (R1_ADDRESS | R1_OUT_OF_RANGE | R1_WP_VIOLATION)) {
		card_r1_resp_(sim, st0, r);
		return;
	}
	card_start_rw_(sim, c, idx, addr, wr, st0, r);
}

void mmc_cmd_(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, struct card_resp *r)
{
	struct sim_card *c = &sim->card;
	int st0 = c->state;
	bool tran = st0 == ST(TRAN);

	switch (idx) {
	case 0: /* GO_IDLE_STATE */
		mmc_init_regs_(c);
		card_go_idle_(sim, c);
		return;
	case 1: /* SEND_OP_COND */
		if (st0 != ST(IDLE))
			break;
		r->kind = RESP_48_NOCRC;
		{
			uint32_t ocr = c->cfg.byte_mode ? 0x00ff8080u : 0x40ff8080u;

			if (arg && !(arg & 0x00ff8080u)) {
				c->state = ST(INA);
				r->kind = RESP_NONE;
				return;
			}
			if (arg && c->powerup_start == T_NEVER)
				c->powerup_start = sim->now;
			if (arg && sim->now >= c->powerup_start + c->cfg.powerup_ns) {
				ocr |= 0x80000000u;
				c->state = ST(READY);
			}
			r->val = ocr;
		}
		return;
	case 2: /* ALL_SEND_CID */
		if (st0 != ST(READY))
			break;
		r->kind = RESP_136;
		memcpy(r->r2, c->cid, 16);
		c->state = ST(IDENT);
		return;
	case 3: /* SET_RELATIVE_ADDR: the host picks the RCA; 0 is not allowed */
		if (st0 != ST(IDENT) || !(arg >> 16))
			break;
		card_r1_resp_(sim, st0, r);
		c->rca = (uint16_t)(arg >> 16);
		c->state = ST(STBY);
		return;
	case 6: /* SWITCH: R1b, tran -> prg -> tran */
		if (!tran)
			break;
		card_r1_resp_(sim, st0, r);
		do_switch(sim, arg);
		r->busy_ns = c->cfg.switch_busy_ns;
		if (r->busy_ns)
			c->state = ST(PRG);
		return;
	case 7: /* SELECT/DESELECT_CARD */
		if (card_select_programming_(sim, c, arg, st0, r))
			return;
		if (st0 == ST(STBY) && card_addressed_(c, arg)) {
			card_r1_resp_(sim, st0, r);
			c->state = ST(TRAN);
			return;
		}
		if ((st0 == ST(TRAN) || st0 == ST(DATA)) && !card_addressed_(c, arg)) {
			c->state = ST(STBY);
			return;
		}
		if (st0 == ST(STBY) || st0 == ST(TRAN))
			return;
		break;
	case 8: /* SEND_EXT_CSD */
		if (!tran)
			break;
		memcpy(c->payload, c->ext_csd, 512);
		c->payload_len = 512;
		c->payload_mode = true;
		card_r1_resp_(sim, st0, r);
		c->state = ST(DATA);
		r->data = CDATA_READ;
		return;
	case 9:
	case 10:
		if (st0 != ST(STBY))
			break;
		if (!card_addressed_(c, arg))
			return;
		r->kind = RESP_136;
		memcpy(r->r2, idx == 9 ? c->csd : c->cid, 16);
		return;
	case 12: /* STOP_TRANSMISSION */
	case 13: /* SEND_STATUS */
		if (card_stop_or_status_(sim, c, idx, arg, st0, r))
			return;
		break;
	case 16:
		if (!tran)
			break;
		if (arg > 512u)
			c->pending |= R1_BLOCK_LEN;
		card_r1_resp_(sim, st0, r);
		return;
	case 17:
	case 18:
	case 24:
	case 25:
		if (!tran)
			break;
		data_cmd(sim, idx, arg, st0, r);
		return;
	case 23: /* SET_BLOCK_COUNT: [15:0] count */
		if (!tran)
			break;
		c->sbc = arg & 0xffffu;
		c->sbc_armed = c->sbc != 0;
		card_r1_resp_(sim, st0, r);
		return;
	case 35: /* ERASE_GROUP_START */
	case 36: /* ERASE_GROUP_END */
	case 38: /* ERASE */
		if (card_erase_cmd_(sim, c, idx, arg, st0, r))
			return;
		break;
	default:
		/* CMD5, CMD55 and ACMDs, CMD52/53, tuning: not answered by this eMMC. */
		break;
	}
	card_illegal_(c, r);
}
