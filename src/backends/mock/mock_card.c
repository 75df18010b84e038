/**
 * @file
 * @brief Mock card, common part: power-on state, the R1/R2 responses, the
 *        busy (prg) period, the memory commands SD and eMMC share (select,
 *        status, block read/write, CMD23, CMD12, erase) and the dispatch to
 *        the card models.
 *
 * State rules (PROTOCOL.md section 2, SD spec 4.10 section 4.6.1): an illegal
 * command gets no response, keeps the state and sets ILLEGAL_COMMAND, which
 * the next response reports and clears; CURRENT_STATE is the state in which
 * the command arrived.
 *
 * Locking: none; called from the backend ops, which the caller serialises.
 */
#include "mock_priv.h"

#define ST(s) MMCHAL_MOCK_ST_##s

void mock_put_bits_(uint8_t *reg, unsigned nbytes, unsigned hi, unsigned lo, uint64_t v)
{
	for (unsigned b = lo; b <= hi; b++) {
		unsigned byte = nbytes - 1u - b / 8u;
		uint8_t bit = (uint8_t)(1u << (b % 8u));

		if ((v >> (b - lo)) & 1u)
			reg[byte] |= bit;
		else
			reg[byte] &= (uint8_t)~bit;
	}
}

int mock_csd_v1_mult_(uint64_t size)
{
	for (unsigned mult = 0; mult < 8u; mult++) {
		uint64_t unit = (uint64_t)MOCK_BLK << (mult + 2u);

		if (size <= unit * 4096u)
			return (size % unit) != 0u ? -1 : (int)mult;
	}
	return -1;
}

void mock_csd_v1_size_(struct mmchal_mock *m)
{
	int mult = mock_csd_v1_mult_(m->cfg.image_size);

	/* mmchal_mock_init() refused a size without a multiplier */
	mock_put_bits_(m->csd, 16, 73, 62,
		       m->cfg.image_size / ((uint64_t)MOCK_BLK << (mult + 2)) - 1u); /* C_SIZE */
	mock_put_bits_(m->csd, 16, 49, 47, (uint64_t)mult); /* C_SIZE_MULT */
}

bool mock_is_sd_(const struct mmchal_mock *m)
{
	return m->cfg.card == MMCHAL_MOCK_SDHC || m->cfg.card == MMCHAL_MOCK_SDSC;
}

/* Power-on reset (also CMD0 and a new card): idle, 1-bit, no RCA. */
void mock_card_power_on_(struct mmchal_mock *m)
{
	m->state = ST(IDLE);
	m->rca = 0;
	m->pending = 0;
	m->op_polls = m->cfg.op_cond_polls;
	m->width = 1;
	m->erase_seq = 0;
	m->app = false;
	m->ccs = false;
	m->busy = false;
	m->busy_left = 0;
	if (mock_is_sd_(m))
		mock_sd_reset_(m);
	else if (m->cfg.card == MMCHAL_MOCK_EMMC)
		mock_mmc_reset_(m);
	else
		mock_sdio_reset_(m);
}

void mock_card_regs_(struct mmchal_mock *m)
{
	if (mock_is_sd_(m))
		mock_sd_regs_(m);
	else if (m->cfg.card == MMCHAL_MOCK_EMMC)
		mock_mmc_regs_(m);
	else
		mock_sdio_regs_(m);
}

/* R1 card status for a command received in @p state; reporting clears the
   error bits (clear conditions B and C of the SD spec). */
uint32_t mock_r1_(struct mmchal_mock *m, uint32_t state)
{
	uint32_t r = m->pending | MMCHAL_MOCK_R1_STATE(state);

	if (!m->busy)
		r |= MMCHAL_MOCK_R1_READY_FOR_DATA;
	if (m->app)
		r |= MMCHAL_MOCK_R1_APP_CMD;
	m->pending = 0;
	return r;
}

void mock_resp_r1_(struct mmchal_mock *m, uint32_t state)
{
	m->resp_pending[0] = mock_r1_(m, state);
}

/* R2: register bits 127:96 in resp[0] ... 31:0 in resp[3], the CRC byte as 0
   (request.h). */
void mock_resp_r2_(struct mmchal_mock *m, const uint8_t reg[16])
{
	for (unsigned i = 0; i < 4u; i++) {
		const uint8_t *p = reg + (size_t)4u * i;

		m->resp_pending[i] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
				     (uint32_t)p[2] << 8 | (uint32_t)p[3];
	}
	m->resp_pending[3] &= ~0xffu;
}

/* The card programs: DAT0 low, prg state (dis when deselected) until the
   busy period ends. */
void mock_busy_enter_(struct mmchal_mock *m, uint32_t next_state)
{
	if (m->cfg.busy_latency == 0 && !m->busy_stuck) {
		m->state = next_state;
		return;
	}
	m->busy = true;
	m->busy_left = m->cfg.busy_latency;
	m->busy_state = next_state;
	if (m->state != ST(DIS))
		m->state = ST(PRG);
}

void mock_busy_end_(struct mmchal_mock *m)
{
	if (!m->busy)
		return;
	m->busy = false;
	m->busy_left = 0;
	/* Deselected while programming (CMD7 in prg): dis -> stby. */
	m->state = m->state == ST(DIS) ? ST(STBY) : m->busy_state;
}

/* One look at DAT0; returns true while still busy. */
bool mock_busy_tick_(struct mmchal_mock *m)
{
	if (!m->busy)
		return false;
	if (m->busy_stuck)
		return true;
	if (m->busy_left == 0) {
		mock_busy_end_(m);
		return false;
	}
	m->busy_left--;
	return true;
}

/* End of the card's part of a transfer: read -> tran, write -> prg -> tran. */
static void end_transfer(struct mmchal_mock *m)
{
	if (m->state == ST(DATA))
		m->state = ST(TRAN);
	else if (m->state == ST(RCV))
		mock_busy_enter_(m, ST(TRAN));
}

/*
 * After the data phase, with or without an error: @p bytes moved. A
 * single-block or fixed-length transfer ends by itself; a CMD23-bounded one
 * when its count was moved; an open-ended one (or a multiple-block one that
 * failed inside its count) waits for CMD12, which @p auto_stop sends at once.
 */
void mock_card_data_end_(struct mmchal_mock *m, uint64_t bytes, bool auto_stop)
{
	bool multi = m->src_kind == MOCK_SRC_IMAGE && m->src_len != MOCK_BLK;
	bool complete;

	if (m->state != ST(DATA) && m->state != ST(RCV))
		return;
	/* A counted transfer (CMD23) ends once the card has moved its count,
	 * also when the host asked for more and then timed out waiting: the card
	 * went back to tran after its last block (CMD23: SD Physical Layer
	 * 4.3.11, JEDEC 84-B51 6.10.4). */
	if (m->src_kind != MOCK_SRC_IMAGE || !multi)
		complete = true;
	else
		complete = m->src_len != MOCK_LEN_OPEN && bytes >= m->src_len;
	if (complete || auto_stop)
		end_transfer(m);
}

/* Address of a block command: byte addressing for SDSC and byte-mode eMMC. */
bool mock_addr_(struct mmchal_mock *m, uint32_t arg, uint64_t *off)
{
	bool bytes = m->cfg.card == MMCHAL_MOCK_SDSC ||
		     (m->cfg.card == MMCHAL_MOCK_EMMC && m->cfg.emmc_byte_mode);

	if (bytes) {
		if (arg % MOCK_BLK) {
			m->pending |= MMCHAL_MOCK_R1_ADDRESS_ERROR;
			return false;
		}
		*off = arg;
	} else {
		*off = (uint64_t)arg * MOCK_BLK;
	}
	if (*off >= m->cfg.image_size) {
		m->pending |= MMCHAL_MOCK_R1_OUT_OF_RANGE;
		return false;
	}
	return true;
}

static bool addressed(const struct mmchal_mock *m, uint32_t arg)
{
	return (arg >> 16) == m->rca;
}

/* CMD17/18 READ, CMD24/25 WRITE: tran -> data / rcv. */
static int block_cmd(struct mmchal_mock *m, uint32_t op, uint32_t arg, uint32_t st)
{
	bool write = op == 24u || op == 25u;
	bool multi = op == 18u || op == 25u;
	uint64_t off;

	if (st != ST(TRAN))
		return MOCK_ILLEGAL;
	if (write && m->ro) {
		/* Refused at the command: WP_VIOLATION, the card stays in tran. */
		m->pending |= MMCHAL_MOCK_R1_WP_VIOLATION;
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	}
	if (!mock_addr_(m, arg, &off)) {
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	}
	m->src_kind = MOCK_SRC_IMAGE;
	m->src_off = off;
	if (!multi)
		m->src_len = MOCK_BLK;
	else if (m->sbc)
		m->src_len = (uint64_t)m->sbc * MOCK_BLK;
	else
		m->src_len = MOCK_LEN_OPEN;
	m->state = write ? ST(RCV) : ST(DATA);
	mock_resp_r1_(m, st);
	return MOCK_RESP;
}

/* Erase: CMD32/33 (SD) or CMD35/36 (eMMC) set the range, CMD38 erases it. */
static int erase_cmd(struct mmchal_mock *m, uint32_t op, uint32_t arg, uint32_t st)
{
	uint64_t off;

	if (st != ST(TRAN))
		return MOCK_ILLEGAL;
	if (op == 32u || op == 35u || op == 33u || op == 36u) {
		bool start = op == 32u || op == 35u;

		if (!start && !(m->erase_seq & MOCK_ERASE_START)) {
			/* erase_seq is 0 here: MOCK_ERASE_END is only set next to START */
			m->pending |= MMCHAL_MOCK_R1_ERASE_SEQ_ERROR;
		} else if (mock_addr_(m, arg, &off)) {
			if (start) {
				m->erase_start = off / MOCK_BLK;
				m->erase_seq = MOCK_ERASE_START;
			} else {
				m->erase_end = off / MOCK_BLK;
				m->erase_seq |= MOCK_ERASE_END;
			}
		} else {
			m->erase_seq = 0;
		}
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	}
	/* CMD38 ERASE (argument: erase, discard, trim; all clear the range here). */
	if (m->erase_seq != (MOCK_ERASE_START | MOCK_ERASE_END)) {
		m->pending |= MMCHAL_MOCK_R1_ERASE_SEQ_ERROR;
	} else if (m->erase_end < m->erase_start) {
		m->pending |= MMCHAL_MOCK_R1_ERASE_PARAM;
	} else if (m->ro) {
		m->pending |= MMCHAL_MOCK_R1_WP_ERASE_SKIP;
	} else {
		/* Erased memory reads as zeros: SCR DATA_STAT_AFTER_ERASE = 0, EXT_CSD
		   ERASED_MEM_CONT = 0. */
		memset(m->cfg.image + m->erase_start * MOCK_BLK, 0,
		       (size_t)((m->erase_end - m->erase_start + 1u) * MOCK_BLK));
		m->erase_seq = 0;
		mock_resp_r1_(m, st);
		mock_busy_enter_(m, ST(TRAN));
		return MOCK_RESP;
	}
	m->erase_seq = 0;
	mock_resp_r1_(m, st);
	return MOCK_RESP;
}

/* CMD12 STOP_TRANSMISSION: data -> tran, rcv -> prg -> tran. */
static int stop_cmd(struct mmchal_mock *m, uint32_t st)
{
	if (st != ST(DATA) && st != ST(RCV))
		return MOCK_ILLEGAL;
	mock_resp_r1_(m, st);
	end_transfer(m);
	return MOCK_RESP;
}

/* CMD7 SELECT/DESELECT_CARD. */
static int select_cmd(struct mmchal_mock *m, uint32_t arg, uint32_t st)
{
	bool me = addressed(m, arg) && m->rca != 0;

	switch (st) {
	case ST(STBY):
		if (!me)
			return MOCK_SILENT;
		m->state = ST(TRAN);
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	case ST(DIS):
		if (!me)
			return MOCK_SILENT;
		m->state = ST(PRG);
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	case ST(TRAN):
	case ST(DATA):
		if (me)
			return MOCK_ILLEGAL;
		m->state = ST(STBY);
		return MOCK_SILENT;
	case ST(PRG):
		if (me)
			return MOCK_ILLEGAL;
		m->state = ST(DIS);
		return MOCK_SILENT;
	default:
		return MOCK_ILLEGAL;
	}
}

/* Commands SD and eMMC memory share: 7, 9, 10, 12, 13, 15, 16, 17, 18, 23,
   24, 25 and the erase commands (with their own numbers). */
int mock_mem_cmd_(struct mmchal_mock *m, uint32_t op, uint32_t arg, uint32_t st)
{
	bool sd = mock_is_sd_(m);

	switch (op) {
	case 7:
		return select_cmd(m, arg, st);
	case 9:  /* SEND_CSD */
	case 10: /* SEND_CID */
		if (st != ST(STBY))
			return MOCK_ILLEGAL;
		if (!addressed(m, arg))
			return MOCK_SILENT;
		mock_resp_r2_(m, op == 9u ? m->csd : m->cid);
		return MOCK_RESP;
	case 12:
		return stop_cmd(m, st);
	case 13: /* SEND_STATUS */
		if (st < ST(STBY) || st > ST(DIS))
			return MOCK_ILLEGAL;
		if (!addressed(m, arg))
			return MOCK_SILENT;
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	case 15: /* GO_INACTIVE_STATE */
		if (st < ST(STBY) || st > ST(DIS))
			return MOCK_ILLEGAL;
		if (addressed(m, arg))
			m->state = ST(INA);
		return MOCK_SILENT;
	case 16: /* SET_BLOCKLEN: only 512-byte blocks are modelled */
		if (st != ST(TRAN))
			return MOCK_ILLEGAL;
		if (arg != MOCK_BLK && !(sd && m->ccs))
			m->pending |= MMCHAL_MOCK_R1_BLOCK_LEN_ERROR;
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	case 17:
	case 18:
	case 24:
	case 25:
		return block_cmd(m, op, arg, st);
	case 23: /* SET_BLOCK_COUNT, eMMC: [15:0] count, bit 31 reliable write */
		if (st != ST(TRAN) || (sd && m->cfg.no_cmd23))
			return MOCK_ILLEGAL;
		m->sbc = sd ? arg : (arg & 0xffffu);
		mock_resp_r1_(m, st);
		return MOCK_RESP;
	case 32:
	case 33:
		if (!sd)
			return MOCK_ILLEGAL;
		return erase_cmd(m, op, arg, st);
	case 35:
	case 36:
		if (sd)
			return MOCK_ILLEGAL;
		return erase_cmd(m, op, arg, st);
	case 38:
		return erase_cmd(m, op, arg, st);
	default:
		return MOCK_ILLEGAL;
	}
}

/*
 * One command at the card: the card type's model decides; afterwards a
 * pending CMD23 count survives only for the CMD18/CMD25 right after it (QEMU
 * sd.c drops it otherwise).
 */
int mock_card_cmd_(struct mmchal_mock *m, const struct mmchal_cmd *cmd)
{
	uint32_t op = cmd->opcode, arg = cmd->arg;
	bool app = m->app;
	uint32_t sbc = m->sbc;
	int res;

	if (m->state == ST(INA))
		return MOCK_SILENT;
	/* CMD0 GO_IDLE_STATE: any state but ina; eMMC 0xFFFFFFFA is boot mode (not
	   modelled: ignored). */
	if (op == 0u) {
		if (m->cfg.card == MMCHAL_MOCK_EMMC && arg == 0xfffffffau)
			return MOCK_SILENT;
		mock_card_power_on_(m);
		return MOCK_SILENT;
	}
	/* mock_start() has set m->src_kind to MOCK_SRC_NONE: the card model
	   sets a source only for a command that starts a data phase. */
	if (mock_is_sd_(m))
		res = mock_sd_cmd_(m, op, arg, app);
	else if (m->cfg.card == MMCHAL_MOCK_EMMC)
		res = mock_mmc_cmd_(m, op, arg);
	else
		res = mock_sdio_cmd_(m, op, arg);
	if (op != 55u)
		m->app = false;
	if (op != 23u && m->sbc == sbc)
		m->sbc = 0;
	if (res == MOCK_ILLEGAL)
		m->pending |= MMCHAL_MOCK_R1_ILLEGAL_COMMAND;
	return res;
}
