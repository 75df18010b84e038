/*
 * Card model, common part: slot insertion, command dispatch by card type, R1
 * status, block data, busy, and the bus mode the card is in.
 *
 * State rules (PROTOCOL.md section 2, SD spec 4.10 section 4.6.1): an illegal
 * command gets no response, keeps the state and sets ILLEGAL_COMMAND, which
 * the next R1 reports and clears; CURRENT_STATE is the state in which the
 * command was received.
 */
#include "sim_priv.h"

#define R1_OUT_OF_RANGE  (1u << 31)
#define R1_ERASE_SEQ     (1u << 28)
#define R1_ERASE_PARAM   (1u << 27)
#define R1_ILLEGAL       (1u << 22)
#define R1_WP_ERASE_SKIP (1u << 15)
#define R1_ERASE_RESET   (1u << 13)
#define R1_READY         (1u << 8)
#define R1_APP           (1u << 5)

int mmchal_sim_card_defaults(enum mmchal_sim_card_kind kind, struct mmchal_sim_card_config *cfg)
{
	if (!cfg)
		return MMCHAL_EINVAL;
	memset(cfg, 0, sizeof(*cfg));
	cfg->kind = kind;
	cfg->serial = 0x0badcafeu;
	cfg->powerup_ns = 1000000u;
	switch (kind) {
	case MMCHAL_SIM_CARD_SD:
		cfg->capacity = 64ull << 20;
		cfg->rca = 0xb368u;
		cfg->cmd23 = true;
		cfg->uhs = true;
		cfg->read_latency_ns = 400000u;
		cfg->read_rate = 80000000u;
		cfg->write_rate = 40000000u;
		cfg->write_busy_ns = 2000000u;
		cfg->switch_busy_ns = 0;
		cfg->erase_busy_ns = 1000000u;
		return 0;
	case MMCHAL_SIM_CARD_MMC:
		cfg->capacity = 64ull << 20;
		cfg->mmc_card_type = 0x57u;
		cfg->read_latency_ns = 75000u;
		cfg->read_rate = 250000000u;
		cfg->write_rate = 125000000u;
		cfg->write_busy_ns = 44000u;
		cfg->switch_busy_ns = 100000u;
		cfg->erase_busy_ns = 1000000u;
		return 0;
	case MMCHAL_SIM_CARD_SDIO:
		cfg->capacity = 4096u;
		cfg->rca = 0x0001u;
		cfg->read_latency_ns = 10000u;
		return 0;
	default:
		memset(cfg, 0, sizeof(*cfg));
		return MMCHAL_EINVAL;
	}
}

static bool cfg_valid(const struct mmchal_sim_card_config *cfg)
{
	switch (cfg->kind) {
	case MMCHAL_SIM_CARD_SD:
		/* SDSC: CSD v1 describes at most 4096 x 512 KiB = 2 GiB. */
		return cfg->capacity && !(cfg->capacity % (512u * 1024u)) && cfg->rca &&
		       cfg->capacity / (512u * 1024u) <= (cfg->sdsc ? 4096u : (1ull << 22));
	case MMCHAL_SIM_CARD_MMC:
		/* byte mode: a device of at most 2 GB (JESD84-B51 7.4.3), sized by its CSD */
		return cfg->capacity && !(cfg->capacity % (512u * 1024u)) &&
		       cfg->capacity / 512u <= UINT32_MAX &&
		       (!cfg->byte_mode || cfg->capacity <= (2ull << 30));
	case MMCHAL_SIM_CARD_SDIO:
		return cfg->capacity && cfg->capacity <= 131072u && cfg->rca;
	default:
		return false;
	}
}

int mmchal_sim_card_insert(struct mmchal_sim *sim, const struct mmchal_sim_card_config *cfg)
{
	struct sim_card *c;

	if (!sim || !cfg || !cfg_valid(cfg))
		return MMCHAL_EINVAL;
	c = &sim->card;
	if (c->present)
		return MMCHAL_EBUSY;
	card_free_(sim);
	memset(c, 0, sizeof(*c));
	c->cfg = *cfg;
	if (cfg->store) {
		c->store = cfg->store;
	} else {
		if (cfg->capacity > SIZE_MAX)
			return MMCHAL_ENOMEM;
		c->store = calloc(1, (size_t)cfg->capacity);
		if (!c->store)
			return MMCHAL_ENOMEM;
		c->own_store = true;
	}
	c->present = true;
	c->state = MMCHAL_SIM_ST_IDLE;
	c->width = 1;
	c->timing = MMCHAL_TIMING_LEGACY;
	c->powerup_start = T_NEVER;
	if (cfg->kind == MMCHAL_SIM_CARD_SD)
		sd_init_regs_(c);
	else if (cfg->kind == MMCHAL_SIM_CARD_MMC)
		mmc_init_regs_(c);
	else
		sdio_init_regs_(c);
	sdhi_card_changed_(sim, true);
	return 0;
}

int mmchal_sim_card_remove(struct mmchal_sim *sim)
{
	if (!sim)
		return MMCHAL_EINVAL;
	if (!sim->card.present)
		return MMCHAL_ENOMEDIUM;
	/* The store stays until the next insert or destroy, for inspection. */
	sim->card.present = false;
	sim->card.busy = false;
	sim->card.stuck = false;
	/* DAT0 is pulled high without a card: the controller sees busy end now. */
	sim->ev[EV_BUSY] = sim->now;
	sdhi_card_changed_(sim, false);
	return 0;
}

void card_free_(struct mmchal_sim *sim)
{
	if (sim->card.own_store)
		free(sim->card.store);
	sim->card.store = NULL;
	sim->card.own_store = false;
}

uint8_t *mmchal_sim_card_store(struct mmchal_sim *sim, uint64_t *size)
{
	if (!sim || !sim->card.present)
		return NULL;
	if (size)
		*size = sim->card.cfg.capacity;
	return sim->card.store;
}

int mmchal_sim_card_state(const struct mmchal_sim *sim)
{
	if (!sim || !sim->card.present)
		return MMCHAL_ENOMEDIUM;
	return sim->card.state;
}

int mmchal_sim_card_ext_csd(const struct mmchal_sim *sim, uint32_t index)
{
	if (!sim || !sim->card.present)
		return MMCHAL_ENOMEDIUM;
	if (sim->card.cfg.kind != MMCHAL_SIM_CARD_MMC || index >= 512u)
		return MMCHAL_EINVAL;
	return sim->card.ext_csd[index];
}

int mmchal_sim_card_set_wp(struct mmchal_sim *sim, bool on)
{
	if (!sim)
		return MMCHAL_EINVAL;
	if (!sim->card.present)
		return MMCHAL_ENOMEDIUM;
	sim->card.cfg.write_protect = on;
	return 0;
}

int mmchal_sim_card_bus(const struct mmchal_sim *sim, uint32_t *width, enum mmchal_timing *timing)
{
	if (!sim || !sim->card.present)
		return MMCHAL_ENOMEDIUM;
	if (width)
		*width = sim->card.width;
	if (timing)
		*timing = sim->card.timing;
	return 0;
}

uint64_t card_clock_max_(const struct mmchal_sim *sim)
{
	const struct sim_card *c = &sim->card;

	if (!c->present)
		return UINT64_MAX;
	switch (c->timing) {
	case MMCHAL_TIMING_LEGACY:
		return c->cfg.kind == MMCHAL_SIM_CARD_MMC ? 26000000u : 25000000u;
	case MMCHAL_TIMING_SD_HS:
	case MMCHAL_TIMING_UHS_SDR25:
	case MMCHAL_TIMING_UHS_DDR50:
		return 50000000u;
	case MMCHAL_TIMING_MMC_HS:
	case MMCHAL_TIMING_MMC_DDR52:
		return 52000000u;
	case MMCHAL_TIMING_UHS_SDR12:
		return 25000000u;
	case MMCHAL_TIMING_UHS_SDR50:
		return 100000000u;
	case MMCHAL_TIMING_UHS_SDR104:
		return 208000000u;
	case MMCHAL_TIMING_MMC_HS200:
	case MMCHAL_TIMING_MMC_HS400:
		return 200000000u;
	default:
		return 25000000u;
	}
}

bool card_ddr_(const struct mmchal_sim *sim)
{
	enum mmchal_timing t = sim->card.timing;

	return t == MMCHAL_TIMING_UHS_DDR50 || t == MMCHAL_TIMING_MMC_DDR52 ||
	       t == MMCHAL_TIMING_MMC_HS400;
}

/*
 * A deselected card that programs on (dis) does not drive DAT0 (SD Physical
 * Layer 4.10 section 4.3): busy shows again when it is selected (back to prg).
 */
bool card_dat0_busy_(const struct mmchal_sim *sim)
{
	const struct sim_card *c = &sim->card;

	return c->present && ((c->busy && c->state != MMCHAL_SIM_ST_DIS) || c->stuck);
}

void card_busy_end_(struct mmchal_sim *sim)
{
	struct sim_card *c = &sim->card;

	if (!c->present || c->stuck)
		return;
	c->busy = false;
	if (c->state == MMCHAL_SIM_ST_PRG)
		c->state = MMCHAL_SIM_ST_TRAN;
	else if (c->state == MMCHAL_SIM_ST_DIS)
		c->state = MMCHAL_SIM_ST_STBY;
}

/* CRC7 (x^7 + x^3 + 1) over the first 15 bytes, stored as byte 15 = crc << 1 | 1. */
void card_crc7_fill_(uint8_t reg[16])
{
	uint8_t crc = 0;

	for (unsigned i = 0; i < 15; i++) {
		for (int b = 7; b >= 0; b--) {
			uint8_t in = (uint8_t)((reg[i] >> b) & 1u);
			uint8_t top = (uint8_t)((crc >> 6) & 1u);

			crc = (uint8_t)((crc << 1) & 0x7fu);
			if (in ^ top)
				crc ^= 0x09u;
		}
	}
	reg[15] = (uint8_t)((crc << 1) | 1u);
}

uint32_t card_r1_(struct mmchal_sim *sim, int state_at_cmd)
{
	struct sim_card *c = &sim->card;
	uint32_t v = c->pending | ((uint32_t)state_at_cmd << 9);

	if (!c->busy && !c->stuck && c->state != MMCHAL_SIM_ST_PRG)
		v |= R1_READY;
	if (c->cur_app)
		v |= R1_APP;
	/* Error bits are cleared once a response has carried them. */
	c->pending = 0;
	return v;
}

void card_cmd_(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, struct card_resp *r)
{
	struct sim_card *c = &sim->card;
	uint32_t sbc = c->sbc_armed ? c->sbc : 0;

	memset(r, 0, sizeof(*r));
	if (!c->present || c->state == MMCHAL_SIM_ST_INA)
		return;
	c->cur_app = c->app;
	c->app = false;
	/* CMD23 applies only to a CMD18/25 that follows it at once (QEMU sd.c). */
	c->sbc_armed = false;
	c->sbc = sbc;
	/*
	 * An erase sequence (CMD32/33/38, eMMC CMD35/36/38) is cleared by any other
	 * command but SEND_STATUS, with ERASE_RESET (SD 4.10 section 4.3.5: "neither
	 * of the erase commands, except SEND_STATUS"; table 4-42; JEDEC 5.1 6.6.9).
	 * CMD55 is no exception: an ACMD in the middle ends the sequence too.
	 */
	if (c->erase_step && idx != 32 && idx != 33 && idx != 35 && idx != 36 && idx != 38 &&
	    idx != 13 && c->cfg.kind != MMCHAL_SIM_CARD_SDIO) {
		c->erase_step = 0;
		c->pending |= R1_ERASE_RESET;
	}
	switch (c->cfg.kind) {
	case MMCHAL_SIM_CARD_SD:
		sd_cmd_(sim, idx, arg, r);
		break;
	case MMCHAL_SIM_CARD_MMC:
		mmc_cmd_(sim, idx, arg, r);
		break;
	default:
		sdio_cmd_(sim, idx, arg, r);
		break;
	}
	if (!c->sbc_armed)
		c->sbc = 0;
	c->cur_app = false;
}

int card_read_block_(struct mmchal_sim *sim, uint8_t *buf, uint32_t len)
{
	struct sim_card *c = &sim->card;

	if (!c->present || c->state != MMCHAL_SIM_ST_DATA)
		return -2;
	if (c->payload_mode) {
		if (len != c->payload_len)
			return -1;
		memcpy(buf, c->payload, len);
		c->payload_mode = false;
		c->state = MMCHAL_SIM_ST_TRAN;
		if (c->cfg.kind == MMCHAL_SIM_CARD_SD)
			sd_switch_done_(c);
		return 0;
	}
	if (c->cfg.kind == MMCHAL_SIM_CARD_SDIO)
		return sdio_read_block_(sim, buf, len);
	if (len != 512u)
		return -1;
	if (c->addr + 512u > c->cfg.capacity) {
		c->pending |= R1_OUT_OF_RANGE;
		return -2;
	}
	memcpy(buf, c->store + c->addr, 512u);
	c->addr += 512u;
	if (c->counted && --c->left == 0)
		c->state = MMCHAL_SIM_ST_TRAN;
	return 0;
}

int card_write_block_(struct mmchal_sim *sim, const uint8_t *buf, uint32_t len, uint64_t t_end,
		      bool *done)
{
	struct sim_card *c = &sim->card;

	*done = false;
	if (!c->present || c->state != MMCHAL_SIM_ST_RCV)
		return -1;
	if (c->cfg.kind == MMCHAL_SIM_CARD_SDIO)
		return sdio_write_block_(sim, buf, len);
	if (len != 512u)
		return -1;
	if (c->addr + 512u > c->cfg.capacity) {
		c->pending |= R1_OUT_OF_RANGE;
		return -1;
	}
	memcpy(c->store + c->addr, buf, 512u);
	c->addr += 512u;
	c->wr_blocks++;
	if (t_end > c->media_done)
		c->media_done = t_end;
	if (c->counted && --c->left == 0) {
		c->state = MMCHAL_SIM_ST_PRG;
		*done = true;
	}
	return 0;
}

/* Set bits [hi:lo] of a big-endian register of @bytes bytes (bit 0 = last byte's LSB). */
void card_set_bits_(uint8_t *reg, unsigned bytes, unsigned hi, unsigned lo, uint64_t val)
{
	for (unsigned b = lo; b <= hi; b++) {
		unsigned byte = bytes - 1u - b / 8u;
		uint8_t m = (uint8_t)(1u << (b % 8u));

		if ((val >> (b - lo)) & 1u)
			reg[byte] |= m;
		else
			reg[byte] &= (uint8_t)~m;
	}
}

void card_illegal_(struct sim_card *c, struct card_resp *r)
{
	c->pending |= R1_ILLEGAL;
	r->kind = RESP_NONE;
}

void card_r1_resp_(struct mmchal_sim *sim, int st0, struct card_resp *r)
{
	r->kind = RESP_48;
	r->val = card_r1_(sim, st0);
}

bool card_addressed_(const struct sim_card *c, uint32_t arg)
{
	return (arg >> 16) == c->rca;
}

/*
 * CMD7 while the card programs (PROTOCOL.md section 1; SD Physical Layer 4.10
 * section 4.3, figure 4-13): addressed to another card (or 0), a card in prg
 * goes to dis with no response and programs on without driving DAT0, then
 * to stby when done; selected again in dis, it answers and returns to prg
 * with DAT0 busy again. Returns false when @st0 is neither, or for a CMD7
 * that selects a card already in prg (illegal there).
 */
bool card_select_programming_(struct mmchal_sim *sim, struct sim_card *c, uint32_t arg, int st0,
			      struct card_resp *r)
{
	bool me = card_addressed_(c, arg);

	if (st0 == MMCHAL_SIM_ST_PRG && !me) {
		c->state = MMCHAL_SIM_ST_DIS;
		return true;
	}
	if (st0 != MMCHAL_SIM_ST_DIS)
		return false;
	if (me) {
		card_r1_resp_(sim, st0, r);
		c->state = MMCHAL_SIM_ST_PRG;
	}
	return true;
}

/*
 * CMD12 and CMD13 behave the same on SD memory and eMMC (SD Physical Layer
 * 4.10 table 4-42; PROTOCOL.md section 1): STOP ends a read in the data state
 * and sends a write in rcv to prg; SEND_STATUS answers in every addressed
 * state from stby on. Returns false when the command is illegal in the state.
 */
bool card_stop_or_status_(struct mmchal_sim *sim, struct sim_card *c, uint8_t idx, uint32_t arg,
			  int st0, struct card_resp *r)
{
	if (idx == 12 && st0 == MMCHAL_SIM_ST_DATA) {
		card_r1_resp_(sim, st0, r);
		r->busy_ns = 0;
		c->payload_mode = false;
		c->state = MMCHAL_SIM_ST_TRAN;
		return true;
	}
	if (idx == 12 && st0 == MMCHAL_SIM_ST_RCV) {
		card_r1_resp_(sim, st0, r);
		c->state = MMCHAL_SIM_ST_PRG;
		r->busy_ns = (c->media_done > sim->now ? c->media_done - sim->now : 0) +
			     c->cfg.write_busy_ns;
		return true;
	}
	if (idx == 13 && st0 >= MMCHAL_SIM_ST_STBY && st0 != MMCHAL_SIM_ST_INA) {
		/* Not addressed: the card stays silent. */
		if (card_addressed_(c, arg))
			card_r1_resp_(sim, st0, r);
		return true;
	}
	return false;
}

/*
 * Enter the data phase of CMD17/18/24/25 at @p addr once the address checks
 * passed: single-block commands count one block, multi-block ones the count
 * a preceding CMD23 set (0 = open-ended, ended by CMD12).
 */
void card_start_rw_(struct mmchal_sim *sim, struct sim_card *c, uint8_t idx, uint64_t addr, bool wr,
		    int st0, struct card_resp *r)
{
	card_r1_resp_(sim, st0, r);
	c->addr = addr;
	c->payload_mode = false;
	if (idx == 17 || idx == 24) {
		c->counted = true;
		c->left = 1;
	} else {
		c->counted = c->sbc != 0;
		c->left = c->sbc;
	}
	if (wr) {
		c->wr_blocks = 0;
		c->state = MMCHAL_SIM_ST_RCV;
		r->data = CDATA_WRITE;
	} else {
		c->state = MMCHAL_SIM_ST_DATA;
		r->data = CDATA_READ;
	}
}

/*
 * CMD0 GO_IDLE_STATE on a memory card, after the caller reset its registers:
 * idle, 1-bit bus, legacy timing, no pending status bits, not busy. A reset
 * also ends a stuck-busy fault (the card restarts).
 */
void card_go_idle_(struct mmchal_sim *sim, struct sim_card *c)
{
	c->state = MMCHAL_SIM_ST_IDLE;
	c->width = 1;
	c->timing = MMCHAL_TIMING_LEGACY;
	c->powerup_start = T_NEVER;
	c->stuck = false;
	c->busy = false;
	c->pending = 0;
	sim->ev[EV_BUSY] = sim->now; /* DAT0 released at once */
}

/* Erase unit: SD allocation unit (SD_STATUS AU_SIZE, 4 MiB), eMMC erase group (512 KiB). */
static uint64_t erase_unit(const struct sim_card *c)
{
	return c->cfg.kind == MMCHAL_SIM_CARD_SD ? 4ull << 20 : 512ull * 1024u;
}

/* CMD38 on a complete sequence; @groups: eMMC ERASE, rounded out to whole erase groups. */
static void do_erase(struct mmchal_sim *sim, struct sim_card *c, bool groups, int st0,
		     struct card_resp *r)
{
	uint64_t unit = erase_unit(c), first = c->erase_start, last = c->erase_end + 512u;
	uint64_t units;

	c->erase_step = 0;
	if (c->erase_start > c->erase_end) {
		c->pending |= R1_ERASE_PARAM;
		card_r1_resp_(sim, st0, r);
		return;
	}
	if (c->cfg.tmp_write_protect) {
		/* A write-protected card erases nothing (WP_ERASE_SKIP). */
		c->pending |= R1_WP_ERASE_SKIP;
		card_r1_resp_(sim, st0, r);
		return;
	}
	if (groups) {
		/* eMMC ERASE works on whole erase groups (JEDEC 5.1 6.6.9). */
		first -= first % unit;
		last += (unit - last % unit) % unit;
		if (last > c->cfg.capacity)
			last = c->cfg.capacity;
	}
	memset(c->store + first, c->cfg.erased_ones ? 0xff : 0x00, (size_t)(last - first));
	units = (last + unit - 1u) / unit - first / unit;
	card_r1_resp_(sim, st0, r);
	c->state = MMCHAL_SIM_ST_PRG;
	r->busy_ns = units * c->cfg.erase_busy_ns;
}

/*
 * Erase commands, in tran. SD: CMD32 ERASE_WR_BLK_START, CMD33 ..._END, CMD38
 * ERASE (any argument: erase, discard and FULE all leave the erased value
 * here). eMMC: CMD35 ERASE_GROUP_START, CMD36 ..._END, CMD38 with 0 (erase:
 * whole groups), 1 (trim) or 3 (discard: write blocks); others ERASE_PARAM.
 * Addresses as the data commands take them. Returns false when @idx is not
 * an erase command of this card or is illegal in the state.
 */
bool card_erase_cmd_(struct mmchal_sim *sim, struct sim_card *c, uint8_t idx, uint32_t arg, int st0,
		     struct card_resp *r)
{
	bool sd = c->cfg.kind == MMCHAL_SIM_CARD_SD;
	bool bytes = sd ? c->cfg.sdsc : c->cfg.byte_mode;
	uint64_t addr = bytes ? (uint64_t)(arg & ~511u) : (uint64_t)arg * 512u;
	uint8_t start = sd ? 32 : 35, end = sd ? 33 : 36;

	if (st0 != MMCHAL_SIM_ST_TRAN || (idx != start && idx != end && idx != 38))
		return false;
	if (idx == start || idx == end) {
		if (idx == end && c->erase_step != 1) {
			c->erase_step = 0;
			c->pending |= R1_ERASE_SEQ;
		} else if (addr >= c->cfg.capacity) {
			c->erase_step = 0;
			c->pending |= R1_OUT_OF_RANGE;
		} else if (idx == start) {
			c->erase_start = addr;
			c->erase_step = 1;
		} else {
			c->erase_end = addr;
			c->erase_step = 2;
		}
		card_r1_resp_(sim, st0, r);
		return true;
	}
	if (c->erase_step != 2) {
		c->erase_step = 0;
		c->pending |= R1_ERASE_SEQ;
		card_r1_resp_(sim, st0, r);
		return true;
	}
	if (!sd && arg != 0 && arg != 1u && arg != 3u) {
		c->erase_step = 0;
		c->pending |= R1_ERASE_PARAM;
		card_r1_resp_(sim, st0, r);
		return true;
	}
	do_erase(sim, c, !sd && arg == 0, st0, r);
	return true;
}
