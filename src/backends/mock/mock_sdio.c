/**
 * @file
 * @brief Mock card: SDIO card without memory (1 to 7 I/O functions).
 *
 * CMD5 (R4), CMD3 (R6), CMD7, CMD52 IO_RW_DIRECT and CMD53 IO_RW_EXTENDED
 * (R5). Function 0 holds the CCCR (0x00-0xff), the FBRs (n * 0x100) and the
 * CIS (0x1000: common CIS with CISTPL_MANFID, CISTPL_FUNCID and the function
 * 0 CISTPL_FUNCE; 0x1020: the functions' CIS with the 42-byte function
 * CISTPL_FUNCE). Function 1's 17-bit address space is the image; functions
 * 2-7 read as zero. Layouts: PROTOCOL.md sections 1 and 3, SDIO Simplified
 * Specification 3.00 sections 6.9-6.10 and 16.5-16.7, and the byte offsets
 * Linux reads in drivers/mmc/core/sdio_cis.c (block size at FUNCE body
 * offset 12, enable timeout at 28).
 *
 * Memory commands (CMD8, CMD55, ACMD41, CMD1, block commands) are illegal,
 * so memory probing gets silence.
 *
 * Locking: none; called from the backend ops, which the caller serialises.
 */
#include "mock_priv.h"

#define ST(s) MMCHAL_MOCK_ST_##s

#define SDIO_OCR     0x00ff8000u /* 2.7-3.6 V */
#define R4_READY     (1u << 31)
#define CIS_COMMON   0x1000u
#define CIS_FUNCTION 0x1020u
#define FN_SPACE     0x20000u /* 17-bit register addresses */

/* CCCR registers. */
#define CCCR_REV    0x00
#define CCCR_SD     0x01
#define CCCR_IOE    0x02
#define CCCR_IOR    0x03
#define CCCR_IEN    0x04
#define CCCR_INT    0x05
#define CCCR_ABORT  0x06
#define CCCR_BUS_IF 0x07
#define CCCR_CAPS   0x08
#define CCCR_CIS    0x09
#define CCCR_BLKSZ  0x10
#define CCCR_SPEED  0x13
#define ABORT_RES   0x08u
#define CAPS_SMB    0x02u /* multi-block CMD53 */
#define CAPS_S4MI   0x10u /* interrupt between blocks in 4-bit mode */
#define SPEED_SHS   0x01u

static uint32_t nfn(const struct mmchal_mock *m)
{
	return m->cfg.sdio_functions;
}

static uint8_t fn_mask(const struct mmchal_mock *m)
{
	return (uint8_t)(((1u << nfn(m)) - 1u) << 1);
}

void mock_sdio_regs_(struct mmchal_mock *m)
{
	uint8_t *c = m->cis;
	uint8_t *f = m->cis + (CIS_FUNCTION - CIS_COMMON);
	uint16_t blk = m->cfg.sdio_max_blksz;
	unsigned i = 0;

	memset(m->cis, 0, sizeof(m->cis));
	/* Common CIS. */
	c[i++] = 0x20; /* CISTPL_MANFID */
	c[i++] = 4;
	c[i++] = (uint8_t)m->cfg.sdio_manf;
	c[i++] = (uint8_t)(m->cfg.sdio_manf >> 8);
	c[i++] = (uint8_t)m->cfg.sdio_card_id;
	c[i++] = (uint8_t)(m->cfg.sdio_card_id >> 8);
	c[i++] = 0x21; /* CISTPL_FUNCID: SDIO */
	c[i++] = 2;
	c[i++] = 0x0c;
	c[i++] = 0;
	c[i++] = 0x22; /* CISTPL_FUNCE, function 0 */
	c[i++] = 4;
	c[i++] = 0x00;         /* TPLFE_TYPE */
	c[i++] = (uint8_t)blk; /* TPLFE_FN0_BLK_SIZE */
	c[i++] = (uint8_t)(blk >> 8);
	c[i++] = 0x32; /* TPLFE_MAX_TRAN_SPEED 25 Mbit/s per line */
	c[i++] = 0xff; /* CISTPL_END */

	/* Function CIS (shared by every function). */
	i = 0;
	f[i++] = 0x21;
	f[i++] = 2;
	f[i++] = 0x0c;
	f[i++] = 0;
	f[i++] = 0x22; /* CISTPL_FUNCE, function 1-7: 42-byte body (SDIO 1.1 and later) */
	f[i++] = 42;
	f[i + 0] = 0x01;          /* TPLFE_TYPE */
	f[i + 12] = (uint8_t)blk; /* TPLFE_MAX_BLK_SIZE */
	f[i + 13] = (uint8_t)(blk >> 8);
	f[i + 14] = (uint8_t)SDIO_OCR; /* TPLFE_OCR */
	f[i + 15] = (uint8_t)(SDIO_OCR >> 8);
	f[i + 16] = (uint8_t)(SDIO_OCR >> 16);
	f[i + 28] = 10; /* TPLFE_ENABLE_TIMEOUT_VAL: 100 ms in 10 ms units */
	f[i + 42] = 0xff;
}

void mock_sdio_reset_(struct mmchal_mock *m)
{
	memset(m->cccr, 0, sizeof(m->cccr));
	m->cccr[CCCR_REV] = 0x43; /* CCCR 3.00, SDIO 3.00 */
	m->cccr[CCCR_SD] = 0x03;  /* SD Physical 3.01 */
	m->cccr[CCCR_CAPS] = CAPS_SMB | CAPS_S4MI;
	m->cccr[CCCR_CIS + 0] = (uint8_t)CIS_COMMON;
	m->cccr[CCCR_CIS + 1] = (uint8_t)(CIS_COMMON >> 8);
	m->cccr[CCCR_SPEED] = SPEED_SHS;
	for (unsigned n = 0; n < 8u; n++)
		m->fn[n].blksz = 0;
	m->hs = 0;
}

static uint8_t fbr_read(const struct mmchal_mock *m, uint32_t n, uint32_t reg)
{
	if (n > nfn(m))
		return 0;
	switch (reg) {
	case 0x09:
		return (uint8_t)CIS_FUNCTION;
	case 0x0a:
		return (uint8_t)(CIS_FUNCTION >> 8);
	case 0x10:
		return (uint8_t)m->fn[n].blksz;
	case 0x11:
		return (uint8_t)(m->fn[n].blksz >> 8);
	default:
		return 0;
	}
}

static void set_blksz(struct mmchal_mock *m, uint32_t n, uint32_t reg, uint8_t v)
{
	uint32_t b = m->fn[n].blksz;

	b = reg == 0u ? ((b & 0xff00u) | v) : ((b & 0x00ffu) | (uint32_t)v << 8);
	if (b <= m->cfg.sdio_max_blksz)
		m->fn[n].blksz = (uint16_t)b;
}

static void cccr_write(struct mmchal_mock *m, uint32_t addr, uint8_t v)
{
	switch (addr) {
	case CCCR_IOE:
		m->cccr[CCCR_IOE] = v & fn_mask(m);
		m->cccr[CCCR_IOR] = m->cccr[CCCR_IOE]; /* functions ready at once */
		break;
	case CCCR_IEN:
		m->cccr[CCCR_IEN] = v & (uint8_t)(fn_mask(m) | 1u);
		break;
	case CCCR_BUS_IF:
		/* [1:0] 00 = 1 bit, 10 = 4 bit; other widths are not offered. */
		if ((v & 3u) == 0u || (v & 3u) == 2u) {
			m->cccr[CCCR_BUS_IF] = v & 0xa3u;
			m->width = (v & 3u) ? 4u : 1u;
		}
		break;
	case CCCR_BLKSZ:
	case CCCR_BLKSZ + 1:
		set_blksz(m, 0, addr - CCCR_BLKSZ, v);
		break;
	case CCCR_SPEED:
		m->hs = (v >> 1) & 7u;
		if (m->hs > 1u)
			m->hs = 0; /* UHS-I not offered */
		m->cccr[CCCR_SPEED] = (uint8_t)(SPEED_SHS | m->hs << 1);
		break;
	default:
		break; /* read-only or ABORT (handled by the caller) */
	}
}

/* One byte of function @p fn at @p addr; writes to read-only places are dropped. */
void mock_sdio_byte_(struct mmchal_mock *m, uint32_t fn, uint32_t addr, uint8_t *byte, bool write)
{
	if (fn == 1u) {
		if (addr < m->cfg.image_size) {
			if (write)
				m->cfg.image[addr] = *byte;
			else
				*byte = m->cfg.image[addr];
		} else if (!write) {
			*byte = 0;
		}
		return;
	}
	if (fn != 0u) {
		if (!write)
			*byte = 0;
		return;
	}
	if (write) {
		if (addr < 0x100u)
			cccr_write(m, addr, *byte);
		else if (addr < 0x800u && (addr >> 8) <= nfn(m) && (addr & 0xfeu) == 0x10u)
			set_blksz(m, addr >> 8, addr & 1u, *byte);
		return;
	}
	if (addr < sizeof(m->cccr)) {
		if (addr == CCCR_INT)
			*byte = m->sdio_int;
		else if (addr == CCCR_BLKSZ || addr == CCCR_BLKSZ + 1u)
			*byte = (uint8_t)(m->fn[0].blksz >> (8u * (addr - CCCR_BLKSZ)));
		else
			*byte = m->cccr[addr];
	} else if (addr >= 0x100u && addr < 0x800u) {
		*byte = fbr_read(m, addr >> 8, addr & 0xffu);
	} else if (addr >= CIS_COMMON && addr < CIS_COMMON + sizeof(m->cis)) {
		*byte = m->cis[addr - CIS_COMMON];
	} else {
		*byte = 0;
	}
}

/* R5 flags [15:8] for a command received in @p st; reporting clears them. */
static uint32_t r5(struct mmchal_mock *m, uint32_t st, uint32_t extra)
{
	uint32_t s = st == ST(TRAN) ? 1u : (st == ST(DATA) || st == ST(RCV)) ? 2u : 0u;
	uint32_t r = ((m->pending >> 8) & 0xc000u) | MMCHAL_MOCK_R5_STATE(s) | extra;

	m->pending = 0;
	return r;
}

/* CMD52 IO_RW_DIRECT: [31] write, [30:28] function, [27] read after write,
   [25:9] address, [7:0] data. */
static int rw_direct(struct mmchal_mock *m, uint32_t arg, uint32_t st)
{
	bool write = arg >> 31;
	uint32_t fn = (arg >> 28) & 7u, addr = (arg >> 9) & 0x1ffffu;
	uint8_t v = (uint8_t)arg;

	if (st != ST(TRAN))
		return MOCK_ILLEGAL;
	if (fn > nfn(m)) {
		m->resp_pending[0] = r5(m, st, MMCHAL_MOCK_R5_FUNCTION);
		return MOCK_RESP;
	}
	if (fn == 1u && addr >= m->cfg.image_size) {
		m->resp_pending[0] = r5(m, st, MMCHAL_MOCK_R5_OUT_OF_RANGE);
		return MOCK_RESP;
	}
	if (write) {
		mock_sdio_byte_(m, fn, addr, &v, true);
		if (!((arg >> 27) & 1u))
			v = 0;
	}
	if (!write || ((arg >> 27) & 1u))
		mock_sdio_byte_(m, fn, addr, &v, false);
	m->resp_pending[0] = r5(m, st, 0) | v;
	/* CCCR ABORT RES: reset the I/O part after the response. */
	if (write && fn == 0u && addr == CCCR_ABORT && (arg & ABORT_RES))
		mock_card_power_on_(m);
	return MOCK_RESP;
}

/* CMD53 IO_RW_EXTENDED: [31] write, [30:28] function, [27] block mode, [26]
   incrementing address, [25:9] address, [8:0] count (0 = 512 bytes; in block
   mode 0 = until aborted). */
static int rw_extended(struct mmchal_mock *m, uint32_t arg, uint32_t st)
{
	bool write = arg >> 31, block = (arg >> 27) & 1u, inc = (arg >> 26) & 1u;
	uint32_t fn = (arg >> 28) & 7u, addr = (arg >> 9) & 0x1ffffu, count = arg & 0x1ffu;
	uint64_t len;

	if (st != ST(TRAN))
		return MOCK_ILLEGAL;
	if (fn > nfn(m)) {
		m->resp_pending[0] = r5(m, st, MMCHAL_MOCK_R5_FUNCTION);
		return MOCK_RESP;
	}
	if (block) {
		if (m->fn[fn].blksz == 0u) {
			m->resp_pending[0] = r5(m, st, MMCHAL_MOCK_R5_ERROR);
			return MOCK_RESP;
		}
		len = count ? (uint64_t)count * m->fn[fn].blksz : MOCK_LEN_OPEN;
	} else {
		len = count ? count : 512u;
	}
	if (fn == 1u && len != MOCK_LEN_OPEN &&
	    (inc ? addr + len > m->cfg.image_size : addr >= m->cfg.image_size)) {
		m->resp_pending[0] = r5(m, st, MMCHAL_MOCK_R5_OUT_OF_RANGE);
		return MOCK_RESP;
	}
	m->src_kind = MOCK_SRC_SDIO;
	m->src_fn = fn;
	m->src_off = addr;
	m->src_inc = inc;
	m->src_len = len;
	m->state = write ? ST(RCV) : ST(DATA);
	m->resp_pending[0] = r5(m, st, 0);
	return MOCK_RESP;
}

int mock_sdio_cmd_(struct mmchal_mock *m, uint32_t op, uint32_t arg)
{
	uint32_t st = m->state;

	switch (op) {
	case 5: { /* IO_SEND_OP_COND, R4: [31] ready, [30:28] functions, [27] memory */
		uint32_t r4 = nfn(m) << 28 | SDIO_OCR;

		if (st != ST(IDLE) && st != ST(READY))
			return MOCK_ILLEGAL;
		if ((arg & SDIO_OCR) == 0u) {
			if ((arg & 0x00ffffffu) != 0u) {
				m->state = ST(INA);
				return MOCK_SILENT;
			}
			m->resp_pending[0] = r4 | (st == ST(READY) ? R4_READY : 0u);
			return MOCK_RESP;
		}
		if (m->op_polls > 0u) {
			m->op_polls--;
			m->resp_pending[0] = r4;
			return MOCK_RESP;
		}
		m->state = ST(READY);
		m->resp_pending[0] = r4 | R4_READY;
		return MOCK_RESP;
	}
	case 3: { /* SEND_RELATIVE_ADDR, R6 */
		uint32_t s;

		if (st != ST(READY) && st != ST(STBY))
			return MOCK_ILLEGAL;
		m->rca = m->cfg.rca;
		m->state = ST(STBY);
		s = mock_r1_(m, st);
		m->resp_pending[0] = m->rca << 16 | ((s >> 8) & 0xc000u) | ((s >> 6) & 0x2000u) |
				     (s & 0x1fffu);
		return MOCK_RESP;
	}
	case 7:
	case 15:
		return mock_mem_cmd_(m, op, arg, st);
	case 52:
		return rw_direct(m, arg, st);
	case 53:
		return rw_extended(m, arg, st);
	default:
		return MOCK_ILLEGAL;
	}
}
