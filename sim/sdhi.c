/*
 * SDHI/TMIO register file and command engine.
 *
 * Register semantics follow REFERENCE.md (Linux tmio_mmc, U-Boot
 * tmio-common, TF-A rcar emmc). Status bits are latched events (cleared by
 * writing 0) or live levels (DAT0, clock-divider-change allowed, command
 * busy, card detect, write protect), which a write cannot clear.
 */
#include "sim_priv.h"

#define CMD_ACMD      0x0040u
#define CMD_RSP_MASK  0x0700u
#define CMD_DATA      0x0800u
#define CMD_READ      0x1000u
#define CMD_MULTI     0x2000u
#define CMD_NO_AUTO12 0x4000u
#define STOP_STP      0x0001u
#define STOP_SEC      0x0100u
#define CLK_ENABLE    0x0100u
#define OPT_WIDTH8    (1u << 13)
#define OPT_WIDTH1    (1u << 15)
#define OPT_TOP_EXT   (1u << 9)
#define EXT_MODE_DMA  (1u << 1)

/* SD_ERR_STS1/2 detail bits (names from the RZ/A1H hardware manual; inferred). */
#define ERR1_CMD_IDX       (1u << 0)
#define ERR1_END           (1u << 4)
#define ERR1_RSP_CRC       (1u << 8)
#define ERR1_RD_CRC        (1u << 10)
#define ERR1_WR_CRC        (1u << 11)
#define ERR2_RSP_TO        (1u << 0)
/*
 * SD_ERR_STS1 bits 14:12: the CRC status token of the last written block;
 * "010" (bit 13, positive) after reset (Zephyr rcar_mmc notes; REF).
 */
#define ERR1_CRC_STAT_MASK (7u << 12)
#define ERR1_CRC_STAT_OK   (2u << 12)

static bool has_cbsy(const struct mmchal_sim *sim)
{
	/* Gen2 SDR50 (0x490c) has no command-busy bit (REFERENCE.md, versions). */
	return sim->cfg.version != 0x490cu;
}

void sdhi_reset_(struct mmchal_sim *sim)
{
	sim->cmd = 0;
	sim->arg = 0;
	sim->stop = 0;
	sim->seccnt = 0;
	sim->size = 0x200u;
	/* Clock off, slowest divider: nothing is driven until software sets it. */
	sim->clk_ctrl = 0x0080u;
	/* 0x40ee: bit 14 reads 1, data timeout 2^27 clocks (U-Boot tmio-common default). */
	sim->option = 0x40eeu;
	sim->host_mode = 0;
	sim->if_mode = 0;
	sim->ext_mode = 0;
	sim->soft_rst = 1;
	sim->sdio_mode = 0;
	sim->sdio_info1 = 0;
	sim->sdio_info1_mask = 0xc007u;
	sim->info &= ST_CD | ST_WP;
	sim->mask = MASK_RESET;
	sim->err1 = ERR1_CRC_STAT_OK;
	sim->err2 = 0;
	memset(sim->rsp, 0, sizeof(sim->rsp));
	sim->cmd_busy = false;
	sim->cmd_pending = false;
	sim->rsp_wait = false;
	sim->idle_wait = false;
	sim->ev[EV_CMD] = T_NEVER;
	sim->ev[EV_AUTO12] = T_NEVER;
	data_abort_(sim);
}

/*
 * The block counter is one 32-bit access at its own offset from VERSION 0xcb0d
 * on (Linux sd_ctrl_write32 on CTL_XFER_BLK_COUNT); the next logical offset is
 * SD_RSP10, so it cannot be two 16-bit halves.
 */
uint32_t sdhi_seccnt_read_(const struct mmchal_sim *sim, uint32_t width)
{
	if (width >= 4 && sim->cfg.version >= 0xcb0du)
		return sim->seccnt;
	return sim->seccnt & 0xffffu;
}

void sdhi_seccnt_write_(struct mmchal_sim *sim, uint32_t width, uint32_t val)
{
	if (width >= 4 && sim->cfg.version >= 0xcb0du)
		sim->seccnt = val;
	else
		sim->seccnt = val & 0xffffu;
}

uint32_t sdhi_port_width_(const struct mmchal_sim *sim)
{
	if (sim->cfg.version >= 0xcc10u) {
		/* Gen3 HOST_MODE: 0 = 64-bit, 0x0101 = 32-bit, 0x0001 = 16-bit. */
		if (!(sim->host_mode & 1u))
			return 8;
		return (sim->host_mode & 0x0100u) ? 4 : 2;
	}
	/*
	 * Gen2 SDR104 (0xcb0d): 0 = 32-bit, bit 0 = 16-bit; only Gen2 SDR50 (0x490c)
	 * uses bit 0 for 32-bit (Linux renesas_sdhi_sdbuf_width(); U-Boot writes 0 on
	 * Gen2 and reads the port 32 bits wide). Other versions have no HOST_MODE
	 * width selection; Linux leaves it alone and uses a 16-bit port (assumption).
	 */
	if (sim->cfg.version == 0xcb0du)
		return (sim->host_mode & 1u) ? 2 : 4;
	if (sim->cfg.version == 0x490cu)
		return (sim->host_mode & 1u) ? 4 : 2;
	return 2;
}

uint64_t sdhi_clk_ns_(const struct mmchal_sim *sim, uint64_t clocks)
{
	uint32_t div = sim->clk_ctrl & 0xffu;
	uint64_t f = sim->cfg.base_clock_hz;

	if (div == 0xffu) {
		/* 1/1 */
	} else if (div == 0) {
		f /= 2u;
	} else {
		unsigned n = 0;

		while (div >> (n + 1u))
			n++;
		f /= 4ull << n;
	}
	if (!f)
		f = 1;
	return (clocks * 1000000000ull + f - 1u) / f;
}

uint32_t sdhi_status_(const struct mmchal_sim *sim)
{
	uint32_t st = sim->info | ST_ALWAYS1;

	if (sim->card.present) {
		st |= ST_CD;
		if (!sim->card.cfg.write_protect)
			st |= ST_WP; /* 1 = writable (Linux tmio get_ro inverts it) */
	}
	if (!card_dat0_busy_(sim))
		st |= ST_DAT0;
	if (sim->cmd_busy && has_cbsy(sim))
		st |= ST_CBSY;
	if (!sim->cmd_busy && !sim->x.active && !card_dat0_busy_(sim))
		st |= ST_SCLKDIVEN;
	return st;
}

void sdhi_set_status_(struct mmchal_sim *sim, uint32_t bits)
{
	sim->info |= bits & ST_LATCHED;
	sim_update_line_(sim);
}

/*
 * SDIO_INFO1 bit 0 (IOIRQ) follows the card's interrupt as a level: while
 * SDIO_MODE bit 0 is set and the card holds DAT1 low it is set, and set again
 * at once after the host clears it; once the card has stopped, a clear holds
 * (SDIO interrupts are level sensitive: SDIO Simplified Specification section
 * 8; bits from Linux tmio_mmc.h, REF). With SDIO_MODE bit 0 clear nothing is
 * latched, and a bit already set stays until it is cleared (assumption). No
 * other SDIO_INFO1 bit is ever set. sim_update_line_() calls this.
 */
void sdhi_sdio_update_(struct mmchal_sim *sim)
{
	if ((sim->sdio_mode & SDIO_MODE_IOIRQ) && sdio_irq_signalled_(sim))
		sim->sdio_info1 |= SDIO_ST_IOIRQ;
}

void sdhi_card_changed_(struct mmchal_sim *sim, bool inserted)
{
	sdhi_set_status_(sim, inserted ? ST_INSERTED : ST_REMOVED);
}

static void flag_bad_access(struct mmchal_sim *sim)
{
	sim->cnt.bad_accesses++;
	sdhi_set_status_(sim, ST_ILL_ACCESS);
}

/* Response type the controller infers when SD_CMD bits 10:8 are 0. */
static uint32_t auto_rsp(uint16_t cmd)
{
	uint32_t idx = cmd & 0x3fu;

	if (idx == 0)
		return 3;
	if (idx == 2 || idx == 9 || idx == 10)
		return 6;
	if (idx == 1 || idx == 5 || ((cmd & CMD_ACMD) && idx == 41))
		return 7;
	if (idx == 7 || idx == 12 || idx == 28 || idx == 29 || idx == 38)
		return 5;
	return 4;
}

static void store_resp(uint16_t rsp[8], const struct card_resp *r)
{
	memset(rsp, 0, 8 * sizeof(uint16_t));
	if (r->kind == RESP_136) {
		/* TMIO drops the CRC byte: RSP holds bits 127:8 right-aligned. */
		for (unsigned i = 0; i < 15; i++) {
			unsigned bit = 8u * i; /* bit position of r2[14 - i] after the shift */
			rsp[bit / 16u] |= (uint16_t)(r->r2[14 - i] << (bit % 16u));
		}
	} else {
		rsp[0] = (uint16_t)(r->val & 0xffffu);
		rsp[1] = (uint16_t)(r->val >> 16);
	}
}

static void start_cmd(struct mmchal_sim *sim)
{
	uint16_t c = sim->cmd;
	uint8_t idx = c & 0x3fu;
	uint32_t rtype = (c & CMD_RSP_MASK) >> 8;
	bool data = c & CMD_DATA;
	struct cmd_faults cf = {0};
	struct card_resp r = {0};
	uint64_t t_end;

	if (!rtype)
		rtype = auto_rsp(c);
	sim->cnt.commands++;
	sim->err1 &= ERR1_CRC_STAT_MASK; /* a new command clears the error bits */
	sim->err2 = 0;
	memset(&sim->res, 0, sizeof(sim->res));
	fault_on_cmd_(sim, idx, data, &cf);
	if (cf.remove && sim->card.present)
		mmchal_sim_card_remove(sim);
	if (sim->card.present && !cf.timeout)
		card_cmd_(sim, idx, sim->arg, &r);
	if (cf.stuck && sim->card.present) {
		sim->card.stuck = true;
		fault_fired_(sim, MMCHAL_SIM_FAULT_STUCK_BUSY);
	}
	sim->cmd_busy = true;
	t_end = sim->now + sdhi_clk_ns_(sim, 48);
	sim->res.kind = r.kind;
	sim->res.card_data = r.data;
	sim->res.r1b = rtype == 5;
	if (rtype == 3) {
		/* No response expected: done once the command is out. */
		sim_schedule_(sim, EV_CMD, t_end);
	} else if (r.kind == RESP_NONE) {
		sim->res.timeout = true;
		sim_schedule_(sim, EV_CMD, t_end + sdhi_clk_ns_(sim, sim->cfg.ncr_max_clocks));
	} else {
		uint32_t bits = r.kind == RESP_136 ? 136u : 48u;

		if ((rtype == 6) != (r.kind == RESP_136))
			sim->res.end_bit = true; /* frame length differs from the expected */
		else if ((rtype == 4 || rtype == 5 || rtype == 6) && r.kind == RESP_48_NOCRC) {
			/* R3/R4 carry all-ones index and CRC fields (SD spec 4.9.3). */
			sim->res.crc = true;
			sim->res.index = true;
		}
		if (cf.crc)
			sim->res.crc = true;
		store_resp(sim->res.rsp, &r);
		sim_schedule_(sim, EV_CMD, t_end + sdhi_clk_ns_(sim, sim->cfg.ncr_clocks + bits));
	}
	if (r.busy_ns && sim->card.present) {
		sim->card.busy = true;
		sim_schedule_(sim, EV_BUSY, sim->ev[EV_CMD] + r.busy_ns);
	} else if (sim->card.stuck) {
		sim->card.busy = true;
	}
	/* Arm the data phase; it starts when the response has arrived. */
	data_abort_(sim);
	if (data) {
		bool multi = c & CMD_MULTI;

		sim->x.opcode = idx;
		sim->x.read = c & CMD_READ;
		sim->x.multi = multi;
		sim->x.blksz = sim->size & 0x3ffu;
		if (!sim->x.blksz || sim->x.blksz > 512u)
			sim->x.blksz = 512u;
		if (multi) {
			sim->x.open = !(sim->stop & STOP_SEC);
			sim->x.nblocks = sim->x.open ? 0 : sim->seccnt;
			sim->x.auto12 = !(c & CMD_NO_AUTO12) && (sim->stop & STOP_SEC);
		} else {
			sim->x.nblocks = 1;
		}
		sim->res.has_data = !sim->x.open && sim->x.nblocks == 0 ? false : true;
		sim->x.bstate = BUF_EMPTY;
		fault_on_block_(sim, UINT32_MAX); /* attach AT_BLOCK faults to this phase */
	}
}

void sdhi_event_(struct mmchal_sim *sim, enum sim_ev ev)
{
	switch (ev) {
	case EV_CMD: {
		sim->cmd_busy = false;
		if (sim->res.timeout) {
			sim->err2 |= ERR2_RSP_TO;
			sdhi_set_status_(sim, ST_CMD_TO);
		} else {
			if (sim->res.crc) {
				sim->err1 |= ERR1_RSP_CRC;
				sim->info |= ST_CRC;
			}
			if (sim->res.index) {
				sim->err1 |= ERR1_CMD_IDX;
				sim->info |= ST_CMD_IDX;
			}
			if (sim->res.end_bit) {
				sim->err1 |= ERR1_END;
				sim->info |= ST_END_BIT;
			}
			memcpy(sim->rsp, sim->res.rsp, sizeof(sim->rsp));
			/*
			 * A response came: response end is set, with any CRC, end-bit or
			 * index error beside it (Linux reads those bits in the response-end
			 * handler, tmio_mmc_cmd_irq; REF).
			 */
			if (sim->res.r1b && card_dat0_busy_(sim)) {
				/*
				 * Hardware busy detection: after an R1b command the
				 * controller reports the command done (response end, command
				 * busy clear) only once the card releases DAT0 (Linux
				 * MMC_CAP_WAIT_WHILE_BUSY for every SDHI; REF).
				 */
				sim->cmd_busy = true;
				sim->rsp_wait = true;
			} else {
				sim->info |= ST_RSP_END;
			}
		}
		/*
		 * A response with a CRC, end-bit or index error still came from a card
		 * that executed the command, so its data phase runs, flagged by the
		 * error bit beside response end: Linux keeps waiting for the data after
		 * -EILSEQ (tmio_mmc_cmd_irq). After a response timeout no data comes.
		 */
		if (!sim->res.timeout && sim->res.has_data)
			data_start_(sim);
		else
			sim->x.active = false;
		break;
	}
	case EV_AUTO12:
		sim->cmd_busy = false;
		sim->x.active = false;
		idmac_data_end_(sim);
		sdhi_access_end_(sim);
		break;
	case EV_BLOCK:
		data_block_event_(sim);
		break;
	case EV_DATA_TO:
		data_timeout_event_(sim);
		break;
	case EV_BUSY:
		card_busy_end_(sim);
		if (!card_dat0_busy_(sim)) {
			if (sim->rsp_wait) {
				sim->rsp_wait = false;
				sim->cmd_busy = false;
				sim->info |= ST_RSP_END;
			}
			if (sim->idle_wait) {
				/* Access end again, now with INFO2 bit 29 (SCLKDIVEN) set. */
				sim->idle_wait = false;
				sim->info |= ST_ACCESS_END;
			}
		}
		data_pump_(sim);
		break;
	default:
		break;
	}
	sim_update_line_(sim);
}

uint16_t sdhi_read_(struct mmchal_sim *sim, uint32_t reg)
{
	switch (reg) {
	case SD_CMD:
		return sim->cmd;
	case SD_ARG:
		return (uint16_t)sim->arg;
	case SD_ARG + 2:
		return (uint16_t)(sim->arg >> 16);
	case SD_STOP:
		return sim->stop;
	case SD_SECCNT:
		return (uint16_t)sim->seccnt;
	case SD_INFO1:
		return (uint16_t)sdhi_status_(sim);
	case SD_INFO2:
		return (uint16_t)(sdhi_status_(sim) >> 16);
	case SD_INFO1_MASK:
		return (uint16_t)sim->mask;
	case SD_INFO2_MASK:
		return (uint16_t)(sim->mask >> 16);
	case SD_CLK_CTRL:
		return sim->clk_ctrl;
	case SD_SIZE:
		return sim->size;
	case SD_OPTION:
		return sim->option;
	case SD_ERR_STS1:
		return sim->err1;
	case SD_ERR_STS2:
		return sim->err2;
	case SDIO_MODE:
		return sim->sdio_mode;
	case SDIO_INFO1:
		return sim->sdio_info1;
	case SDIO_INFO1_MSK:
		return sim->sdio_info1_mask;
	case CC_EXT_MODE:
		return sim->ext_mode;
	case SOFT_RST:
		return sim->soft_rst;
	case SD_VERSION:
		return sim->cfg.version;
	case HOST_MODE:
		return sim->host_mode;
	case IF_MODE:
		return sim->if_mode;
	default:
		if (reg >= SD_RSP0 && reg < SD_RSP0 + 16u && !(reg & 1u))
			return sim->rsp[(reg - SD_RSP0) / 2u];
		return 0;
	}
}

void sdhi_write_(struct mmchal_sim *sim, uint32_t reg, uint16_t val)
{
	switch (reg) {
	case SD_CMD:
		if (sim->cmd_busy || sim->cmd_pending) {
			/* A command while one is in flight is an illegal access. */
			flag_bad_access(sim);
			return;
		}
		sim->cmd = val;
		if (!(sim->clk_ctrl & CLK_ENABLE)) {
			sim->cmd_pending = true; /* goes out once the clock runs */
			return;
		}
		start_cmd(sim);
		break;
	case SD_ARG:
		sim->arg = (sim->arg & 0xffff0000u) | val;
		break;
	case SD_ARG + 2:
		sim->arg = (sim->arg & 0xffffu) | ((uint32_t)val << 16);
		break;
	case SD_STOP:
		sim->stop = val & (STOP_STP | STOP_SEC);
		if (val & STOP_STP)
			data_stop_req_(sim);
		break;
	case SD_SECCNT:
		sim->seccnt = val;
		break;
	case SD_INFO1:
		sim->info &= ((uint32_t)val | 0xffff0000u);
		break;
	case SD_INFO2:
		/* Bit 11 (27) must be written 1 and is ignored here. */
		sim->info &= (((uint32_t)val << 16) | 0xffffu);
		break;
	case SD_INFO1_MASK:
		sim->mask = (sim->mask & 0xffff0000u) | val;
		break;
	case SD_INFO2_MASK:
		sim->mask = (sim->mask & 0xffffu) | ((uint32_t)val << 16);
		break;
	case SD_CLK_CTRL:
		if ((sim->clk_ctrl ^ val) & CLK_ENABLE)
			sd_clock_changed_(sim, val & CLK_ENABLE);
		sim->clk_ctrl = val & 0x03ffu;
		if ((val & CLK_ENABLE) && sim->cmd_pending) {
			sim->cmd_pending = false;
			start_cmd(sim);
		}
		break;
	case SD_SIZE:
		sim->size = val & 0x3ffu;
		break;
	case SD_OPTION:
		sim->option = val | 0x4000u;
		break;
	case SDIO_MODE:
		sim->sdio_mode = val;
		break;
	case SDIO_INFO1:
		/* 0 clears a bit, 1 keeps it; sim_update_line_() below latches IOIRQ again */
		sim->sdio_info1 &= val;
		break;
	case SDIO_INFO1_MSK:
		sim->sdio_info1_mask = val;
		break;
	case CC_EXT_MODE:
		sim->ext_mode = val;
		data_pump_(sim);
		break;
	case SOFT_RST:
		if ((sim->soft_rst & 1u) && !(val & 1u))
			sdhi_reset_(sim);
		sim->soft_rst = val & 1u;
		break;
	case HOST_MODE:
		sim->host_mode = val;
		break;
	case IF_MODE:
		sim->if_mode = val & 1u;
		break;
	default:
		break;
	}
	sim_update_line_(sim);
}

bool sdhi_dma_enabled_(const struct mmchal_sim *sim)
{
	return sim->ext_mode & EXT_MODE_DMA;
}

uint64_t sdhi_port_read_(struct mmchal_sim *sim, uint32_t width)
{
	struct sim_xfer *x = &sim->x;
	uint64_t v = 0;

	if (width != sdhi_port_width_(sim) || !x->active || !x->read || x->bstate != BUF_FULL) {
		flag_bad_access(sim);
		return 0;
	}
	for (uint32_t i = 0; i < width; i++)
		if (x->buf_pos + i < x->blksz)
			v |= (uint64_t)x->buf[x->buf_pos + i] << (8u * i);
	x->buf_pos += width;
	if (x->buf_pos >= x->blksz)
		data_buffer_drained_(sim);
	return v;
}

void sdhi_port_write_(struct mmchal_sim *sim, uint32_t width, uint64_t val)
{
	struct sim_xfer *x = &sim->x;

	/*
	 * An open-ended write (SD_STOP without SEC) takes blocks until STP (REF
	 * SD_STOP); a counted one takes SD_SECCNT blocks.
	 */
	if (width != sdhi_port_width_(sim) || !x->active || x->read || x->bstate != BUF_EMPTY ||
	    (x->open ? x->stop_req : x->next >= x->nblocks)) {
		flag_bad_access(sim);
		return;
	}
	for (uint32_t i = 0; i < width; i++)
		if (x->buf_pos + i < x->blksz)
			x->buf[x->buf_pos + i] = (uint8_t)(val >> (8u * i));
	x->buf_pos += width;
	if (x->buf_pos >= x->blksz)
		data_buffer_filled_(sim);
}

/* Host side of the data bus: width from SD_OPTION, DDR from IF_MODE. */
uint32_t sdhi_bus_width_(const struct mmchal_sim *sim)
{
	if (sim->option & OPT_WIDTH1)
		return 1;
	return (sim->option & OPT_WIDTH8) ? 8 : 4;
}

uint64_t sdhi_data_timeout_ns_(const struct mmchal_sim *sim)
{
	unsigned n = (sim->option >> 4) & 0xfu;
	unsigned shift = 13u + n + ((sim->option & OPT_TOP_EXT) ? 1u : 0u);

	return sdhi_clk_ns_(sim, 1ull << shift);
}

uint64_t sdhi_clock_hz_(const struct mmchal_sim *sim)
{
	uint32_t div = sim->clk_ctrl & 0xffu;
	uint64_t f = sim->cfg.base_clock_hz;

	if (div == 0xffu)
		return f;
	if (div == 0)
		return f / 2u;
	for (unsigned n = 7; n < 8; n--)
		if (div & (1u << n))
			return f / (4ull << n);
	return f;
}

/*
 * Access end. When it comes while DAT0 is still busy (a write the card is
 * programming), the controller raises it again when busy ends, with INFO2
 * bit 29 set: Linux completes a DMA write only on that one
 * (TMIO_MMC_HAS_IDLE_WAIT; REF).
 */
void sdhi_access_end_(struct mmchal_sim *sim)
{
	if (card_dat0_busy_(sim))
		sim->idle_wait = true;
	sdhi_set_status_(sim, ST_ACCESS_END);
}

/* Issue the automatic CMD12 after the last block (SD_STOP.SEC, no 0x4000). */
void sdhi_auto12_(struct mmchal_sim *sim)
{
	struct card_resp r = {0};
	uint64_t t;

	sim->cnt.commands++;
	sim->cmd_busy = true;
	if (sim->card.present)
		card_cmd_(sim, 12, 0, &r);
	t = sim->now + sdhi_clk_ns_(sim, 48u + sim->cfg.ncr_clocks + 48u);
	if (r.kind == RESP_NONE) {
		/* No response to the automatic CMD12: a response timeout. */
		sim->cmd_busy = false;
		sim->x.active = false;
		sim->err2 |= 1u << 1;
		sdhi_set_status_(sim, ST_CMD_TO);
		return;
	}
	/*
	 * The auto CMD12 response: Linux reads it from SD_RSP10 after the data end
	 * (tmio "fill in response from auto cmd12"; REF), so it lands there,
	 * replacing the data command's response; it is also kept in SD_RSP54
	 * (RZ/A1H manual; inferred).
	 */
	sim->rsp[0] = (uint16_t)r.val;
	sim->rsp[1] = (uint16_t)(r.val >> 16);
	sim->rsp[4] = (uint16_t)r.val;
	sim->rsp[5] = (uint16_t)(r.val >> 16);
	if (r.busy_ns) {
		sim->card.busy = true;
		sim_schedule_(sim, EV_BUSY, t + r.busy_ns);
	}
	sim_schedule_(sim, EV_AUTO12, t);
}
