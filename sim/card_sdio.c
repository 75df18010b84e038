/*
 * SDIO card without memory: CMD5 (R4), CMD3 (R6), CMD7, CMD52 on the CCCR,
 * FBR1 and function 1's byte buffer, CMD53 in byte and block mode, and
 * function 1's interrupt: a source the test raises with mmchal_sim_sdio_irq(),
 * pending in CCCR 0x05, enabled by CCCR 0x04, signalled on DAT1 (see
 * sdio_irq_signalled_()). Register layout: PROTOCOL.md section 3 (SDIO CCCR).
 */
#include "sim_priv.h"

#define ST(s) MMCHAL_SIM_ST_##s

/* CCCR 0x04 Int Enable and 0x05 Int Pending (SDIO Simplified Specification 6.9). */
#define CCCR_IENM (1u << 0) /* master enable */
#define CCCR_IEN1 (1u << 1) /* function 1 */
#define CCCR_INT1 (1u << 1) /* function 1's interrupt pending */

#define R5_ILLEGAL      (1u << 14)
#define R5_ERROR        (1u << 11)
#define R5_FUNCTION     (1u << 9)
#define R5_OUT_OF_RANGE (1u << 8)

#define CIS0 0x1000u
#define CIS1 0x1100u

/*
 * CIS (SDIO spec 16.7): MANFID, FUNCID (SDIO) and CISTPL_FUNCE (0x22), which
 * Linux reads for the largest block size and clock (REF; sdio_cis.c). Common
 * CIS FUNCE (type 0): FN0 block size 512, TPLFE_MAX_TRAN_SPEED 0x32 (25 MHz).
 * Function 1 FUNCE (type 1, 42 bytes for SDIO > 1.00): TPLFE_MAX_BLK_SIZE at
 * data bytes 12-13 = 512, TPLFE_ENABLE_TIMEOUT_VAL at 28-29 = 10 (100 ms).
 */
static const uint8_t cis0[] = {0x20, 0x04, 0x96, 0x02, 0x01, 0x47, 0x21, 0x02, 0x0c,
			       0x00, 0x22, 0x04, 0x00, 0x00, 0x02, 0x32, 0xff};
static const uint8_t cis1[] = {
	0x21, 0x02, 0x0c, 0x00, 0x22, 0x2a, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x80, 0xff, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
};

void sdio_init_regs_(struct sim_card *c)
{
	uint8_t *r = c->cccr;

	memset(r, 0, sizeof(c->cccr));
	r[0x00] = 0x43; /* CCCR 3.00, SDIO 3.00 */
	r[0x01] = 0x03; /* SD physical spec 3.01 */
	r[0x08] = 0x02; /* SMB: multi-block CMD53 */
	r[0x09] = (uint8_t)CIS0;
	r[0x0a] = (uint8_t)(CIS0 >> 8);
	r[0x13] = 0x01; /* SHS: high speed supported */
	r[0x100] = 0x07;
	r[0x109] = (uint8_t)CIS1;
	r[0x10a] = (uint8_t)(CIS1 >> 8);
	c->rca = 0;
	/*
	 * A reset (CCCR RES) and a power-up (insertion) restart function 1 too:
	 * its interrupt source is withdrawn, and IENx (0x04) is 0 with the rest.
	 */
	c->sdio_irq = false;
}

static uint8_t fn0_read(const struct sim_card *c, uint32_t addr)
{
	/*
	 * CCCR 0x05 INTx, read only: INT1 is set while function 1's source is
	 * active, whatever IENx says (assumption: the pending bit reports the
	 * function's state; the enables only gate the signal on DAT1).
	 */
	if (addr == 0x05u)
		return c->sdio_irq ? (uint8_t)CCCR_INT1 : 0;
	if (addr < 0x200u)
		return c->cccr[addr];
	if (addr >= CIS0 && addr < CIS0 + sizeof(cis0))
		return cis0[addr - CIS0];
	if (addr >= CIS1 && addr < CIS1 + sizeof(cis1))
		return cis1[addr - CIS1];
	return 0;
}

static void reset_card(struct sim_card *c)
{
	sdio_init_regs_(c);
	c->state = ST(IDLE);
	c->width = 1;
	c->timing = MMCHAL_TIMING_LEGACY;
	c->powerup_start = T_NEVER;
}

/* Only the bits software may change are written (CCCR / FBR definitions). */
static void fn0_write(struct sim_card *c, uint32_t addr, uint8_t v)
{
	switch (addr) {
	case 0x02: /* IOEx: function 1 only; IORx follows at once */
		c->cccr[0x02] = v & 0x02u;
		c->cccr[0x03] = v & 0x02u;
		break;
	case 0x04:
		c->cccr[0x04] = v & (CCCR_IENM | CCCR_IEN1);
		break;
	case 0x06:
		if (v & 0x08u)
			reset_card(c);
		break;
	case 0x07:
		if ((v & 3u) == 0 || (v & 3u) == 2u) {
			c->cccr[0x07] = (uint8_t)((c->cccr[0x07] & ~3u) | (v & 3u));
			c->width = (v & 3u) == 2u ? 4u : 1u;
		}
		break;
	case 0x10:
	case 0x11:
	case 0x110:
	case 0x111:
		c->cccr[addr] = v;
		break;
	case 0x13:
		c->cccr[0x13] = (uint8_t)((c->cccr[0x13] & 1u) | (v & 0x02u));
		c->timing = (v & 0x02u) ? MMCHAL_TIMING_SD_HS : MMCHAL_TIMING_LEGACY;
		break;
	default:
		break;
	}
}

static uint32_t r5_flags(const struct sim_card *c)
{
	uint32_t st = c->state == ST(TRAN)                          ? 1u
		      : c->state == ST(DATA) || c->state == ST(RCV) ? 2u
								    : 0;

	return st << 12;
}

static uint32_t fn1_blksz(const struct sim_card *c)
{
	uint32_t b = c->cccr[0x110] | ((uint32_t)c->cccr[0x111] << 8);

	return b ? b : 512u;
}

static void cmd52(struct mmchal_sim *sim, uint32_t arg, struct card_resp *r)
{
	struct sim_card *c = &sim->card;
	bool wr = arg >> 31;
	uint32_t fn = (arg >> 28) & 7u;
	bool raw = arg & (1u << 27);
	uint32_t addr = (arg >> 9) & 0x1ffffu;
	uint8_t data = (uint8_t)arg;
	uint32_t flags = r5_flags(c);
	uint8_t out = 0;

	if (fn == 0) {
		if (wr)
			fn0_write(c, addr, data);
		if (!wr || raw)
			out = fn0_read(c, addr);
	} else if (fn == 1) {
		if (addr >= c->cfg.capacity) {
			flags |= R5_OUT_OF_RANGE;
		} else {
			if (wr)
				c->store[addr] = data;
			if (!wr || raw)
				out = c->store[addr];
		}
	} else {
		flags |= R5_FUNCTION;
	}
	r->kind = RESP_48;
	r->val = flags | out;
}

static void cmd53(struct mmchal_sim *sim, uint32_t arg, struct card_resp *r)
{
	struct sim_card *c = &sim->card;
	bool wr = arg >> 31;
	uint32_t fn = (arg >> 28) & 7u;
	bool block = arg & (1u << 27);
	uint32_t addr = (arg >> 9) & 0x1ffffu;
	uint32_t count = arg & 0x1ffu;
	uint32_t flags = r5_flags(c);
	uint64_t bytes;

	r->kind = RESP_48;
	if (fn != 1) {
		r->val = flags | R5_FUNCTION;
		return;
	}
	if (block && count == 0) {
		/* Infinite block mode is not modelled. */
		r->val = flags | R5_ERROR;
		return;
	}
	if (!block && count == 0)
		count = 512u;
	c->sdio_incr = arg & (1u << 26);
	bytes = block ? (uint64_t)count * fn1_blksz(c) : count;
	if (addr + (c->sdio_incr ? bytes : 1u) > c->cfg.capacity) {
		r->val = flags | R5_OUT_OF_RANGE;
		return;
	}
	r->val = flags;
	c->addr = addr;
	c->left = block ? count : 1u;
	c->counted = true;
	c->payload_len = block ? fn1_blksz(c) : count; /* bytes per data block */
	c->payload_mode = false;
	c->state = wr ? ST(RCV) : ST(DATA);
	r->data = wr ? CDATA_WRITE : CDATA_READ;
}

void sdio_cmd_(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, struct card_resp *r)
{
	struct sim_card *c = &sim->card;
	int st0 = c->state;

	switch (idx) {
	case 5: /* IO_SEND_OP_COND: R4 */
		if (st0 != ST(IDLE) && st0 != ST(READY))
			break;
		r->kind = RESP_48_NOCRC;
		r->val = (1u << 28) | 0x00ff8000u; /* one function, no memory */
		if (arg & 0x00ffffffu) {
			if (c->powerup_start == T_NEVER)
				c->powerup_start = sim->now;
			if (sim->now >= c->powerup_start + c->cfg.powerup_ns) {
				r->val |= 1u << 31;
				c->state = ST(READY);
			}
		}
		return;
	case 3: /* SEND_RELATIVE_ADDR: R6 */
		if (st0 != ST(READY) && st0 != ST(STBY))
			break;
		c->rca = c->cfg.rca;
		r->kind = RESP_48;
		r->val = ((uint32_t)c->rca << 16) | ((uint32_t)st0 << 9) | (1u << 8);
		c->state = ST(STBY);
		return;
	case 7:
		if (st0 == ST(STBY) && (arg >> 16) == c->rca) {
			card_r1_resp_(sim, st0, r);
			c->state = ST(TRAN);
			return;
		}
		if (st0 == ST(TRAN) && (arg >> 16) != c->rca) {
			c->state = ST(STBY);
			return;
		}
		if (st0 == ST(STBY) || st0 == ST(TRAN))
			return;
		break;
	case 52:
		if (st0 != ST(TRAN)) {
			/* A reset through CCCR ABORT works before selection; no response. */
			if ((arg >> 31) && ((arg >> 28) & 7u) == 0 &&
			    ((arg >> 9) & 0x1ffffu) == 6u && (arg & 0x08u))
				reset_card(c);
			return;
		}
		cmd52(sim, arg, r);
		return;
	case 53:
		if (st0 != ST(TRAN))
			break;
		cmd53(sim, arg, r);
		return;
	default:
		break;
	}
	/* CMD0, CMD8, ACMD41, CMD1 and memory commands: an I/O-only card stays silent. */
	card_illegal_(c, r);
}

int sdio_read_block_(struct mmchal_sim *sim, uint8_t *buf, uint32_t len)
{
	struct sim_card *c = &sim->card;

	if (len != c->payload_len)
		return -1;
	for (uint32_t i = 0; i < len; i++)
		buf[i] = c->store[c->sdio_incr ? c->addr + i : c->addr];
	if (c->sdio_incr)
		c->addr += len;
	if (--c->left == 0)
		c->state = ST(TRAN);
	return 0;
}

int sdio_write_block_(struct mmchal_sim *sim, const uint8_t *buf, uint32_t len)
{
	struct sim_card *c = &sim->card;

	if (len != c->payload_len)
		return -1;
	for (uint32_t i = 0; i < len; i++)
		c->store[c->sdio_incr ? c->addr + i : c->addr] = buf[i];
	if (c->sdio_incr)
		c->addr += len;
	if (--c->left == 0)
		c->state = ST(TRAN);
	return 0;
}

/*
 * The card holds DAT1 low for its interrupt (SDIO Simplified Specification
 * section 8) while function 1's source is active and both IENM and IEN1 are
 * set (CCCR 0x04, section 6.9). In 1-bit mode DAT1 is the interrupt pin and
 * the card signals at any time. In 4-bit mode DAT1 carries data, so the card
 * signals only in the interrupt period, outside a data transfer; the
 * interrupt between the blocks of a 4-bit multi-block transfer needs S4MI
 * (CCCR 0x08 bit 4), which this card does not offer (0x08 = SMB only). The
 * model takes "outside a data transfer" as "no data phase at the controller"
 * (sim->x.active: from the end of the data command's response until access
 * end), and does not look at the SD clock (assumption; SDIO 3.0 asynchronous
 * interrupts, CCCR 0x16, are not modelled either).
 */
bool sdio_irq_signalled_(const struct mmchal_sim *sim)
{
	const struct sim_card *c = &sim->card;
	const unsigned en = CCCR_IENM | CCCR_IEN1;

	if (!c->present || c->cfg.kind != MMCHAL_SIM_CARD_SDIO || !c->sdio_irq)
		return false;
	if ((c->cccr[0x04] & en) != en)
		return false;
	return c->width == 1u || !sim->x.active;
}

int mmchal_sim_sdio_irq(struct mmchal_sim *sim, bool active)
{
	if (!sim)
		return MMCHAL_EINVAL;
	if (!sim->card.present)
		return MMCHAL_ENOMEDIUM;
	if (sim->card.cfg.kind != MMCHAL_SIM_CARD_SDIO)
		return MMCHAL_EINVAL;
	sim->card.sdio_irq = active;
	/* The controller's latch and the interrupt line follow at once. */
	sim_update_line_(sim);
	return 0;
}
