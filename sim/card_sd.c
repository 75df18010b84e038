/*
 * SD memory card, v2 high capacity (SDHC/SDXC): identification, CMD6 switch,
 * bus width, block read/write. Register contents follow PROTOCOL.md section 3
 * ("Simulator defaults (SDHC)").
 */
#include "sim_priv.h"

#define R1_OUT_OF_RANGE (1u << 31)
#define R1_ADDRESS      (1u << 30)
#define R1_BLOCK_LEN    (1u << 29)
#define R1_WP_VIOLATION (1u << 26)

#define ST(s) MMCHAL_SIM_ST_##s

static void set_csd_speed(struct sim_card *c, uint8_t tran_speed)
{
	card_set_bits_(c->csd, 16, 103, 96, tran_speed);
	card_crc7_fill_(c->csd);
}

/*
 * CSD v1.0 of an SDSC card (SD Physical Layer 5.3.2): capacity =
 * (C_SIZE + 1) << (C_SIZE_MULT + 2) << READ_BL_LEN. Up to 1 GiB with 512-byte
 * READ_BL_LEN and C_SIZE_MULT 7 (256 KiB units); above, READ_BL_LEN 10 (as 2 GB
 * cards do). Data blocks stay 512 bytes (CMD16 default).
 */
static void csd_v1(struct sim_card *c)
{
	unsigned bl_len = c->cfg.capacity > (1ull << 30) ? 10u : 9u;
	uint64_t csize = (c->cfg.capacity >> (bl_len + 9u)) - 1u;

	card_set_bits_(c->csd, 16, 127, 126, 0);    /* CSD v1.0 */
	card_set_bits_(c->csd, 16, 119, 112, 0x26); /* TAAC 1.5 ms */
	card_set_bits_(c->csd, 16, 95, 84, 0x5b5);  /* CCC */
	card_set_bits_(c->csd, 16, 83, 80, bl_len); /* READ_BL_LEN */
	card_set_bits_(c->csd, 16, 79, 79, 1);      /* READ_BL_PARTIAL */
	card_set_bits_(c->csd, 16, 73, 62, csize);  /* C_SIZE */
	card_set_bits_(c->csd, 16, 61, 50, 0xfff);  /* VDD currents: maximum */
	card_set_bits_(c->csd, 16, 49, 47, 7);      /* C_SIZE_MULT: 512 */
	card_set_bits_(c->csd, 16, 46, 46, 1);      /* ERASE_BLK_EN */
	card_set_bits_(c->csd, 16, 45, 39, 0x7f);   /* SECTOR_SIZE */
	card_set_bits_(c->csd, 16, 28, 26, 2);      /* R2W_FACTOR */
	card_set_bits_(c->csd, 16, 25, 22, bl_len); /* WRITE_BL_LEN */
	card_set_bits_(c->csd, 16, 12, 12, c->cfg.tmp_write_protect ? 1 : 0);
	set_csd_speed(c, 0x32);
}

void sd_init_regs_(struct sim_card *c)
{
	uint64_t csize = c->cfg.capacity / (512u * 1024u) - 1u;

	memset(c->cid, 0, 16);
	card_set_bits_(c->cid, 16, 127, 120, 0xaa);           /* MID */
	card_set_bits_(c->cid, 16, 119, 104, 0x534d);         /* OID "SM" */
	card_set_bits_(c->cid, 16, 103, 64, 0x4d4d53494dull); /* PNM "MMSIM" */
	card_set_bits_(c->cid, 16, 63, 56, 0x10);             /* PRV 1.0 */
	card_set_bits_(c->cid, 16, 55, 24, c->cfg.serial);    /* PSN */
	card_set_bits_(c->cid, 16, 19, 12, 26);               /* MDT year 2026 */
	card_set_bits_(c->cid, 16, 11, 8, 11);                /* MDT month */
	card_crc7_fill_(c->cid);

	memset(c->csd, 0, 16);
	if (c->cfg.sdsc) {
		csd_v1(c);
	} else {
		card_set_bits_(c->csd, 16, 127, 126, 1);    /* CSD v2.0 */
		card_set_bits_(c->csd, 16, 119, 112, 0x0e); /* TAAC 1 ms */
		card_set_bits_(c->csd, 16, 95, 84, 0x5b5);  /* CCC (QEMU sd.c) */
		card_set_bits_(c->csd, 16, 83, 80, 9);      /* READ_BL_LEN */
		card_set_bits_(c->csd, 16, 69, 48, csize);  /* C_SIZE */
		card_set_bits_(c->csd, 16, 46, 46, 1);      /* ERASE_BLK_EN */
		card_set_bits_(c->csd, 16, 45, 39, 0x7f);   /* SECTOR_SIZE */
		card_set_bits_(c->csd, 16, 28, 26, 2);      /* R2W_FACTOR */
		card_set_bits_(c->csd, 16, 25, 22, 9);      /* WRITE_BL_LEN */
		card_set_bits_(c->csd, 16, 12, 12,
			       c->cfg.tmp_write_protect ? 1 : 0); /* TMP_WRITE_PROTECT */
		set_csd_speed(c, 0x32);                           /* TRAN_SPEED 25 MHz */
	}
	memset(c->scr, 0, 8);
	card_set_bits_(c->scr, 8, 59, 56, 2);                    /* SD_SPEC 2.00/3.0x */
	card_set_bits_(c->scr, 8, 51, 48, 0x5);                  /* 1-bit and 4-bit */
	card_set_bits_(c->scr, 8, 47, 47, 1);                    /* SD_SPEC3 */
	card_set_bits_(c->scr, 8, 55, 55, c->cfg.erased_ones);   /* DATA_STAT_AFTER_ERASE */
	card_set_bits_(c->scr, 8, 33, 33, c->cfg.cmd23 ? 1 : 0); /* CMD23 */
	c->rca = 0;
}

static int g1_of(enum mmchal_timing t)
{
	switch (t) {
	case MMCHAL_TIMING_SD_HS:
		return 1;
	case MMCHAL_TIMING_UHS_SDR50:
		return 2;
	case MMCHAL_TIMING_UHS_SDR104:
		return 3;
	case MMCHAL_TIMING_UHS_DDR50:
		return 4;
	default:
		return 0;
	}
}

/*
 * CMD6 SWITCH_FUNC: 64-byte status, byte layout from PROTOCOL.md section 3.
 * SDR50, SDR104 and DDR50 need 1.8 V signalling: before CMD11 a request for
 * them is refused (result 0xF) like an unsupported function (REF; SD Physical
 * Layer 4.3.10). The support bits report the card's functions either way.
 */
static void switch_func(struct sim_card *c, uint32_t arg)
{
	static const enum mmchal_timing t_of[5] = {
		MMCHAL_TIMING_LEGACY,     MMCHAL_TIMING_SD_HS,     MMCHAL_TIMING_UHS_SDR50,
		MMCHAL_TIMING_UHS_SDR104, MMCHAL_TIMING_UHS_DDR50,
	};
	uint8_t *p = c->payload;
	uint16_t g1_support = c->cfg.uhs ? 0x801fu : 0x8003u;
	unsigned req1 = arg & 0xfu;
	unsigned res[6];
	bool ok = true;

	memset(p, 0, 64);
	p[0] = 0x00;
	p[1] = 0x64; /* 100 mA */
	for (unsigned g = 0; g < 6; g++) {
		unsigned off = 12u - 2u * g; /* G1 at 12-13 ... G6 at 2-3 */
		uint16_t sup = g == 0 ? g1_support : 0x8001u;
		unsigned req = (arg >> (4u * g)) & 0xfu;

		p[off] = (uint8_t)(sup >> 8);
		p[off + 1u] = (uint8_t)sup;
		if (req == 0xfu)
			res[g] = g == 0 ? (unsigned)g1_of(c->timing) : 0;
		else if (req < 16u && (sup & (1u << req)) && (g != 0 || req < 2u || c->v18))
			res[g] = req;
		else {
			res[g] = 0xfu;
			ok = false;
		}
	}
	p[14] = (uint8_t)(res[5] << 4 | res[4]);
	p[15] = (uint8_t)(res[3] << 4 | res[2]);
	p[16] = (uint8_t)(res[1] << 4 | res[0]);
	if ((arg >> 31) && ok && req1 != 0xfu && req1 < 5u) {
		/*
		 * The card changes its mode once the status block is out (SD Physical
		 * Layer 4.3.10.4: the switch takes effect after the status data), so the
		 * block itself still goes in the old mode.
		 */
		c->timing_next = t_of[req1];
		c->timing_next_valid = true;
		/* TRAN_SPEED follows the bus speed mode (SD spec 5.3.3). */
		c->tran_speed_next = req1 == 0 ? 0x32 : req1 == 1 ? 0x5a : req1 == 2 ? 0x0b : 0x2b;
	}
	c->payload_len = 64;
	c->payload_mode = true;
}

static void start_payload_read(struct mmchal_sim *sim, int st0, struct card_resp *r)
{
	struct sim_card *c = &sim->card;

	card_r1_resp_(sim, st0, r);
	c->state = ST(DATA);
	r->data = CDATA_READ;
}

static void data_cmd(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, int st0,
		     struct card_resp *r)
{
	struct sim_card *c = &sim->card;
	bool wr = idx == 24 || idx == 25;
	/* SDSC takes byte addresses, SDHC/SDXC block addresses (SD spec 4.3.14). */
	uint64_t addr = c->cfg.sdsc ? arg : (uint64_t)arg * 512u;

	if (c->cfg.sdsc && (arg & 511u)) {
		c->pending |= R1_ADDRESS; /* not on a 512-byte block boundary */
		card_r1_resp_(sim, st0, r);
		return;
	}
	if (addr >= c->cfg.capacity) {
		c->pending |= R1_OUT_OF_RANGE;
		card_r1_resp_(sim, st0, r);
		return;
	}
	if (wr && c->cfg.tmp_write_protect) {
		c->pending |= R1_WP_VIOLATION;
		card_r1_resp_(sim, st0, r);
		return;
	}
	card_start_rw_(sim, c, idx, addr, wr, st0, r);
}

static void acmd(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, int st0, struct card_resp *r)
{
	struct sim_card *c = &sim->card;

	switch (idx) {
	case 6: /* ACMD6 SET_BUS_WIDTH */
		if (st0 != ST(TRAN) || ((arg & 3u) != 0 && (arg & 3u) != 2u))
			break;
		c->width = (arg & 3u) == 2u ? 4u : 1u;
		card_r1_resp_(sim, st0, r);
		return;
	case 13: /* ACMD13 SD_STATUS */
		if (st0 != ST(TRAN))
			break;
		memset(c->payload, 0, 64);
		c->payload[0] = c->width == 4u ? 0x80u : 0; /* DAT_BUS_WIDTH [511:510] */
		c->payload[10] = 0x90u;                     /* AU_SIZE 4 MiB [431:428] */
		c->payload_len = 64;
		c->payload_mode = true;
		start_payload_read(sim, st0, r);
		return;
	case 22: /* ACMD22 SEND_NUM_WR_BLOCKS */
		if (st0 != ST(TRAN))
			break;
		c->payload[0] = (uint8_t)(c->wr_blocks >> 24);
		c->payload[1] = (uint8_t)(c->wr_blocks >> 16);
		c->payload[2] = (uint8_t)(c->wr_blocks >> 8);
		c->payload[3] = (uint8_t)c->wr_blocks;
		c->payload_len = 4;
		c->payload_mode = true;
		start_payload_read(sim, st0, r);
		return;
	case 41: /* ACMD41 SD_SEND_OP_COND */
		if (st0 != ST(IDLE))
			break;
		r->kind = RESP_48_NOCRC;
		if ((arg & 0x00ffffffu) == 0) {
			r->val = 0x00ff8000u; /* inquiry: OCR, still busy */
			return;
		}
		if (!(arg & 0x00ff8000u)) {
			c->state = ST(INA);
			r->kind = RESP_NONE;
			return;
		}
		if (c->powerup_start == T_NEVER)
			c->powerup_start = sim->now;
		c->hcs = arg & (1u << 30);
		/*
		 * A high-capacity card stays busy for a host without HCS (SD spec
		 * 4.2.3.1); an SDSC card gets ready either way and answers CCS = 0, and
		 * never offers 1.8 V (UHS-I needs SDHC/SDXC).
		 */
		if ((c->hcs || c->cfg.sdsc) && sim->now >= c->powerup_start + c->cfg.powerup_ns) {
			r->val = c->cfg.sdsc ? 0x80ff8000u : 0xc0ff8000u;
			c->s18a = !c->cfg.sdsc && c->cfg.uhs && (arg & (1u << 24));
			if (c->s18a)
				r->val |= 1u << 24;
			c->state = ST(READY);
		} else {
			r->val = 0x00ff8000u;
		}
		return;
	case 51: /* ACMD51 SEND_SCR */
		if (st0 != ST(TRAN))
			break;
		memcpy(c->payload, c->scr, 8);
		c->payload_len = 8;
		c->payload_mode = true;
		start_payload_read(sim, st0, r);
		return;
	default:
		break;
	}
	card_illegal_(c, r);
}

void sd_cmd_(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, struct card_resp *r)
{
	struct sim_card *c = &sim->card;
	int st0 = c->state;
	bool tran = st0 == ST(TRAN);

	if (c->cur_app && idx != 55) {
		acmd(sim, idx, arg, st0, r);
		return;
	}
	switch (idx) {
	case 0: /* GO_IDLE_STATE: no response; the signalling voltage stays */
		sd_init_regs_(c);
		card_go_idle_(sim, c);
		c->s18a = false;
		c->vswitch = 0;
		c->timing_next_valid = false;
		return;
	case 2: /* ALL_SEND_CID */
		if (st0 != ST(READY))
			break;
		r->kind = RESP_136;
		memcpy(r->r2, c->cid, 16);
		c->state = ST(IDENT);
		return;
	case 3: /* SEND_RELATIVE_ADDR: R6 */
		if (st0 != ST(IDENT) && st0 != ST(STBY))
			break;
		{
			uint32_t s = card_r1_(sim, st0);

			/*
			 * From ident the card publishes its configured RCA; asked again in
			 * stand-by it publishes a new one (REF; SD Physical Layer 4.2.2),
			 * here the next value, never 0.
			 */
			if (st0 == ST(IDENT))
				c->rca = c->cfg.rca;
			else if (++c->rca == 0)
				c->rca = 1;
			r->kind = RESP_48;
			r->val = ((uint32_t)c->rca << 16) | ((s >> 8) & 0x8000u) |
				 ((s >> 8) & 0x4000u) | ((s >> 6) & 0x2000u) | (s & 0x1fffu);
			c->state = ST(STBY);
		}
		return;
	case 6: /* SWITCH_FUNC */
		if (!tran)
			break;
		switch_func(c, arg);
		start_payload_read(sim, st0, r);
		return;
	case 7: /* SELECT/DESELECT_CARD */
		if (card_select_programming_(sim, c, arg, st0, r))
			return;
		if (st0 == ST(STBY) && card_addressed_(c, arg)) {
			card_r1_resp_(sim, st0, r);
			r->busy_ns = c->cfg.switch_busy_ns;
			c->state = ST(TRAN);
			return;
		}
		if ((st0 == ST(TRAN) || st0 == ST(DATA)) && !card_addressed_(c, arg)) {
			c->state = ST(STBY);
			return; /* not addressed: no response */
		}
		if (st0 == ST(STBY) || st0 == ST(TRAN))
			return;
		break;
	case 8: /* SEND_IF_COND */
		if (st0 != ST(IDLE))
			break;
		if (((arg >> 8) & 0xfu) != 1u)
			return; /* voltage not supported: silent */
		r->kind = RESP_48;
		r->val = arg & 0xfffu;
		return;
	case 9:  /* SEND_CSD */
	case 10: /* SEND_CID */
		if (st0 != ST(STBY))
			break;
		if (!card_addressed_(c, arg))
			return;
		r->kind = RESP_136;
		memcpy(r->r2, idx == 9 ? c->csd : c->cid, 16);
		return;
	case 11: /* VOLTAGE_SWITCH: only after ACMD41 granted S18A */
		if (st0 != ST(READY) || !c->s18a)
			break;
		card_r1_resp_(sim, st0, r);
		/*
		 * The card drives DAT[3:0] low until the host has stopped the clock and
		 * restarted it at 1.8 V, then releases them (SD Physical Layer 4.2.4.2;
		 * Linux mmc_set_uhs_voltage checks card_busy on both sides).
		 */
		c->v18 = true;
		c->vswitch = 1;
		c->busy = true;
		return;
	case 12: /* STOP_TRANSMISSION */
	case 13: /* SEND_STATUS */
		if (card_stop_or_status_(sim, c, idx, arg, st0, r))
			return;
		break;
	case 16: /* SET_BLOCKLEN: no effect on SDHC data commands */
		if (!tran)
			break;
		/* SDSC: the model keeps 512-byte blocks only (assumption: no partial blocks). */
		if (arg > 512u || (c->cfg.sdsc && arg != 512u))
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
	case 23: /* SET_BLOCK_COUNT, when the SCR says so */
		if (!tran || !c->cfg.cmd23)
			break;
		c->sbc = arg;
		c->sbc_armed = arg != 0;
		card_r1_resp_(sim, st0, r);
		return;
	case 32: /* ERASE_WR_BLK_START */
	case 33: /* ERASE_WR_BLK_END */
	case 38: /* ERASE */
		if (card_erase_cmd_(sim, c, idx, arg, st0, r))
			return;
		break;
	case 55: /* APP_CMD: not in ready or ident */
		if (st0 == ST(READY) || st0 == ST(IDENT))
			break;
		if (st0 != ST(IDLE) && !card_addressed_(c, arg))
			return;
		c->app = true;
		c->cur_app = true;
		card_r1_resp_(sim, st0, r);
		return;
	default:
		break;
	}
	card_illegal_(c, r);
}

/* Voltage switch, continued: the host stopped (@on false) or restarted the clock. */
void sd_clock_changed_(struct mmchal_sim *sim, bool on)
{
	struct sim_card *c = &sim->card;

	if (!c->present || c->cfg.kind != MMCHAL_SIM_CARD_SD)
		return;
	if (!on && c->vswitch == 1) {
		c->vswitch = 2;
	} else if (on && c->vswitch == 2) {
		/* DAT0 high again 100 us after the clock restarts (assumption; the spec allows 1 ms). */
		c->vswitch = 0;
		sim_schedule_(sim, EV_BUSY, sim->now + 100000u);
	}
}

/* The CMD6 status block has left the card (or the read was stopped): switch now. */
void sd_switch_done_(struct sim_card *c)
{
	if (!c->timing_next_valid)
		return;
	c->timing_next_valid = false;
	c->timing = c->timing_next;
	set_csd_speed(c, c->tran_speed_next);
}
