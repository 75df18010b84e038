/*
 * The card side of the card-layer fuzz target (fuzz/fuzz_card.c): the
 * answer stream of the input, a good card of each persona (SDHC, SDSC,
 * eMMC, SDIO, SD 1.x, byte-mode eMMC, an empty slot) and fc_answer_(), which
 * answers one request as its control byte says, as that card would or
 * failed, corrupted or cut short. The input format is described in
 * fuzz_card.c. Nothing here checks a property; the checks, and so the line
 * numbers fuzz_card_run() reports, are all in fuzz_card.c.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mmchal/card.h>
#include <mmchal/error.h>
#include <mmchal/host.h>

#include "fuzz_card_priv.h"
#include "reg128.h"

/* R1 bits the nice card uses (SD Physical Layer 4.10.1) */
#define R1_READY (1u << 8)
#define R1_APP   (1u << 5)
#define R1_TRAN  (4u << 9)

/* ------------------------------------------------------------ input */

bool fc_ans_(struct fc *f, uint8_t *v)
{
	if (f->in_n == 0) {
		*v = 0;
		return false;
	}
	f->in_n--;
	*v = *f->in++;
	return true;
}

uint32_t fc_ans_u_(struct fc *f, unsigned n)
{
	uint32_t v = 0;
	uint8_t b;

	for (unsigned i = 0; i < n; i++) {
		(void)fc_ans_(f, &b);
		v |= (uint32_t)b << (8u * i);
	}
	return v;
}

int fc_pick_err_(uint8_t b)
{
	static const int tab[8] = {MMCHAL_ETIMEDOUT, MMCHAL_EIO,       MMCHAL_EILSEQ,
				   MMCHAL_ETIMEDOUT, MMCHAL_ENOMEDIUM, MMCHAL_EBUSY,
				   MMCHAL_ECANCELED, MMCHAL_EFAULT};

	return tab[b & 7u];
}

/* ------------------------------------------------------------ the nice card */

static bool p_sd(const struct fc *f)
{
	return f->persona == P_SDHC || f->persona == P_SDSC || f->persona == P_SDV1;
}

static bool p_mmc(const struct fc *f)
{
	return f->persona == P_MMC || f->persona == P_MMC_BYTE;
}

static void nice_cid(uint32_t r[4])
{
	r[0] = 0x03534453u; /* MID 3, OID "SD", "S" */
	r[1] = 0x44303130u;
	r[2] = 0x10c0ffeeu;
	r[3] = 0x00019300u;
}

static void nice_csd(const struct fc *f, uint32_t r[4])
{
	memset(r, 0, 4 * sizeof(r[0]));
	reg128_put(r, 96, 8, 0x32); /* TRAN_SPEED 25 MHz */
	reg128_put(r, 80, 4, 9);    /* READ_BL_LEN 512 */
	reg128_put(r, 22, 4, 9);    /* WRITE_BL_LEN 512 */
	switch (f->persona) {
	case P_SDHC:
		reg128_put(r, 126, 2, 1);
		reg128_put(r, 84, 12, 0x5b5);
		reg128_put(r, 48, 22, 7); /* 8 x 512 KiB: 8192 sectors */
		break;
	case P_SDSC:
	case P_SDV1:
		reg128_put(r, 84, 12, 0x5b5);
		reg128_put(r, 62, 12, 1023); /* 1024 x 2^3 x 512: 8192 sectors */
		reg128_put(r, 47, 3, 1);
		break;
	case P_MMC:
		reg128_put(r, 126, 2, 3);
		reg128_put(r, 122, 4, 4);
		reg128_put(r, 84, 12, 0x8f5);
		reg128_put(r, 62, 12, 0xfff); /* saturated: SEC_COUNT holds the size */
		reg128_put(r, 47, 3, 7);
		reg128_put(r, 42, 5, 15); /* erase group 16 sectors */
		break;
	default: /* byte-mode eMMC */
		reg128_put(r, 126, 2, 3);
		reg128_put(r, 122, 4, 4);
		reg128_put(r, 84, 12, 0x8f5);
		reg128_put(r, 62, 12, 1023);
		reg128_put(r, 47, 3, 1);
		reg128_put(r, 42, 5, 15);
		break;
	}
}

void fc_nice_init_regs_(struct fc *f)
{
	static const uint8_t fn0_cis[] = {0x20, 0x04, 0xd0, 0x02, 0x29, 0x43, /* MANFID */
					  0x22, 0x04, 0x00, 0x00, 0x02, 0x32, /* FUNCE: 512 */
					  0xff};
	uint8_t *e = f->ext_csd;
	uint32_t sec = 16384;

	memset(e, 0, sizeof(f->ext_csd));
	e[192] = 8;    /* EXT_CSD_REV 5.1 */
	e[196] = 0x57; /* HS26, HS52, DDR52, HS200, HS400 */
	e[212] = (uint8_t)sec;
	e[213] = (uint8_t)(sec >> 8);
	e[248] = 10; /* GENERIC_CMD6_TIME 100 ms */
	e[224] = 1;
	e[231] = 0x15;
	memset(f->f0, 0, sizeof(f->f0));
	f->f0[0x00] = 0x43; /* SDIO 3.00, CCCR 3 */
	f->f0[0x08] = 0x13;
	f->f0[0x09] = 0x00; /* CIS at 0x1000 */
	f->f0[0x0a] = 0x10;
	f->f0[0x13] = 0x01;  /* SHS */
	f->f0[0x109] = 0x40; /* function 1 CIS at 0x1040 */
	f->f0[0x10a] = 0x10;
	memcpy(&f->f0[0x1000], fn0_cis, sizeof(fn0_cis));
	f->f0[0x1040] = 0x22; /* FUNCE of function 1: 42 bytes, max block 512 */
	f->f0[0x1041] = 0x2a;
	f->f0[0x1042] = 0x01;
	f->f0[0x1042 + 13] = 0x02;
	f->f0[0x1040 + 2 + 0x2a] = 0xff;
}

/* What a good card sends in a read data phase (register or blocks). */
static void nice_data(struct fc *f, const struct mmchal_cmd *c, uint8_t *d, uint32_t n)
{
	memset(d, 0, n);
	if (f->app && p_sd(f) && c->opcode == 51u) {
		static const uint8_t scr[8] = {0x02, 0x35, 0x80, 0x02};

		memcpy(d, scr, n < 8u ? n : 8u);
		if (f->persona == P_SDV1 && n)
			d[0] = 0x01;
	} else if (f->app && p_sd(f) && c->opcode == 22u) {
		if (n >= 4u) {
			d[0] = (uint8_t)(f->last_written >> 24);
			d[1] = (uint8_t)(f->last_written >> 16);
			d[2] = (uint8_t)(f->last_written >> 8);
			d[3] = (uint8_t)f->last_written;
		}
	} else if (!f->app && c->opcode == 6u && n >= 17u) {
		d[13] = 0x03; /* functions 0 and 1 of group 1 */
		d[16] = 0x01; /* function 1 selected */
	} else if (!f->app && c->opcode == 8u) {
		memcpy(d, f->ext_csd, n < 512u ? n : 512u);
	} else if (c->opcode == 17u || c->opcode == 18u) {
		for (uint32_t i = 0; i < n; i++)
			d[i] = (uint8_t)((c->arg + i) * 31u >> 3);
	}
}

/* A good card's answer to one command; 0 or MMCHAL_ETIMEDOUT (no answer). */
static int nice_cmd(struct fc *f, struct mmchal_cmd *c, bool has_data)
{
	uint32_t r1 = R1_TRAN | R1_READY;
	uint32_t op = c->opcode;

	/* an empty slot: CMD0 has no response to miss, every other command times out */
	if (f->persona == P_NONE)
		return op == 0u ? 0 : MMCHAL_ETIMEDOUT;
	if (f->app && p_sd(f)) {
		r1 |= R1_APP;
		if (op == 41u) {
			c->resp[0] = 0x80ff8000u | (f->persona == P_SDHC ? 1u << 30 : 0u);
			return 0;
		}
		c->resp[0] = r1;
		return 0;
	}
	switch (op) {
	case 0:
		return 0;
	case 1:
		if (!p_mmc(f))
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = f->persona == P_MMC ? 0xc0ff8080u : 0x80ff8080u;
		return 0;
	case 2:
		nice_cid(c->resp);
		return 0;
	case 3:
		c->resp[0] = p_mmc(f) ? r1 : (SD_RCA << 16) | 0x0500u;
		return 0;
	case 5:
		if (f->persona != P_SDIO)
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = 0x80000000u | (1u << 28) | 0x00ff8000u;
		return 0;
	case 6:
		if (p_mmc(f) && !has_data && ((c->arg >> 24) & 3u) == 3u)
			f->ext_csd[(c->arg >> 16) & 0xffu] = (uint8_t)(c->arg >> 8);
		c->resp[0] = r1;
		return 0;
	case 8:
		if (has_data) {
			/* eMMC SEND_EXT_CSD; an SD card has no data for CMD8 */
			if (!p_mmc(f))
				return MMCHAL_ETIMEDOUT;
			c->resp[0] = r1;
			return 0;
		}
		if (f->persona != P_SDHC && f->persona != P_SDSC)
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = c->arg & 0xfffu;
		return 0;
	case 9:
		nice_csd(f, c->resp);
		return 0;
	case 52:
		if (f->persona != P_SDIO)
			return MMCHAL_ETIMEDOUT;
		{
			uint32_t fn = (c->arg >> 28) & 7u, addr = (c->arg >> 9) & 0x1ffffu;
			uint8_t v = 0;

			if (fn == 0u && addr < F0_SIZE) {
				if (c->arg >> 31)
					f->f0[addr] = (uint8_t)c->arg;
				v = f->f0[addr];
			}
			c->resp[0] = 0x1000u | v;
		}
		return 0;
	case 55:
		if (!p_sd(f))
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = r1 | R1_APP;
		return 0;
	default:
		c->resp[0] = r1;
		return 0;
	}
}

/* ------------------------------------------------------------ answers */

/* The data of a read: @n bytes of @src into the request's list, each entry to its length. */
static void put_data(struct fc *f, const struct mmchal_data *d, const uint8_t *src, uint32_t n)
{
	uint32_t done = 0;

	for (uint32_t i = 0; i < d->sg_len && done < n; i++) {
		uint32_t k = d->sg[i].len;

		if (k > n - done)
			k = n - done;
		memcpy(d->sg[i].cpu, src + done, k);
		if (f->io && f->io->cb) {
			int64_t at = fc_caller_pos_(f->io->cb, &d->sg[i]);

			if (at >= 0)
				memset(f->io->cb->written + at, 1, k);
		}
		done += k;
	}
}

/* The host reads what a write sends, every byte of every entry. */
static uint32_t take_data(const struct mmchal_data *d)
{
	uint32_t sum = 0;

	for (uint32_t i = 0; i < d->sg_len; i++) {
		const uint8_t *p = d->sg[i].cpu;

		for (uint32_t k = 0; k < d->sg[i].len; k++)
			sum += p[k];
	}
	return sum;
}

static struct mmchal_cmd *pick_cmd(struct mmchal_request *req, uint8_t which)
{
	if ((which & 3u) == 0u && req->sbc)
		return req->sbc;
	if ((which & 3u) == 2u && req->stop)
		return req->stop;
	return req->cmd;
}

/* Answer @req as control byte @c says; 0 = as a good card of the persona. */
void fc_answer_(struct fc *f, struct mmchal_request *req, uint8_t c, uint8_t *buf)
{
	struct mmchal_data *d = req->data;
	unsigned mode = c % 10u;
	uint32_t total = d ? d->blksz * d->blocks : 0;
	uint32_t n = total;
	struct mmchal_cmd *fail_cmd = NULL;
	int fail_err = 0, data_err = 0;
	uint32_t xfered = total;
	bool own_xfered = false;
	int e;

	if (c == 0u)
		mode = 0;
	if (mode == 1u) {
		uint8_t b = (uint8_t)fc_ans_u_(f, 1);

		fail_cmd = pick_cmd(req, b);
		fail_err = fc_pick_err_((uint8_t)(b >> 2));
	}
	if (d && d->dir == MMCHAL_DIR_FROM_CARD)
		nice_data(f, req->cmd, buf, total);
	if (mode == 4u && d) {
		uint8_t b = (uint8_t)fc_ans_u_(f, 1);

		n = fc_ans_u_(f, 2) % (total + 1u);
		data_err = fc_pick_err_(b);
		xfered = (b & 0x80u) ? fc_ans_u_(f, 4) : n;
		own_xfered = true;
	}
	if (mode == 5u && d && total) {
		uint32_t k = fc_ans_u_(f, 1) % 16u;

		for (uint32_t i = 0; i < k; i++) {
			uint32_t off = fc_ans_u_(f, 2) % total;

			buf[off] = (uint8_t)fc_ans_u_(f, 1);
		}
	}
	if (mode == 6u && d) {
		for (uint32_t i = 0; i < total; i++)
			buf[i] = (uint8_t)fc_ans_u_(f, 1);
	}

	/* SET_BLOCK_COUNT, the command, the data phase, STOP: the first failure ends it */
	if (req->sbc) {
		e = fail_cmd == req->sbc ? fail_err : nice_cmd(f, req->sbc, false);
		if (e) {
			req->sbc->error = e;
			return;
		}
	}
	e = fail_cmd == req->cmd ? fail_err : nice_cmd(f, req->cmd, d != NULL);
	if (e) {
		req->cmd->error = e;
		return;
	}
	if (d) {
		if (d->dir == MMCHAL_DIR_FROM_CARD)
			put_data(f, d, buf, n);
		else
			(void)take_data(d);
		d->bytes_xfered = own_xfered ? xfered : n;
		d->error = data_err;
		if (!data_err && d->dir == MMCHAL_DIR_TO_CARD && is_block_op(req->cmd->opcode))
			f->last_written = d->blocks;
		else if (d->dir == MMCHAL_DIR_TO_CARD)
			f->last_written = n / MMCHAL_CARD_BLKSZ;
	}
	if (req->stop) {
		e = fail_cmd == req->stop ? fail_err : nice_cmd(f, req->stop, false);
		if (e)
			req->stop->error = e;
	}
	/* corrupt what the card said */
	if (mode == 2u) {
		struct mmchal_cmd *t = pick_cmd(req, (uint8_t)fc_ans_u_(f, 1));

		for (unsigned i = 0; i < ((t->flags & MMCHAL_RSP_136) ? 4u : 1u); i++)
			t->resp[i] = fc_ans_u_(f, 4);
	} else if (mode == 3u) {
		uint8_t b = (uint8_t)fc_ans_u_(f, 1);

		pick_cmd(req, b)->resp[(b >> 2) & 3u] ^= fc_ans_u_(f, 4);
	} else if (mode == 7u) {
		/* two statements: the order of the two reads must not be the compiler's */
		struct mmchal_cmd *t = pick_cmd(req, (uint8_t)fc_ans_u_(f, 1));

		t->resp[0] = fc_ans_u_(f, 4);
	} else if (mode == 9u) {
		uint8_t b = (uint8_t)fc_ans_u_(f, 1);

		pick_cmd(req, b)->resp[0] ^= 1u << (b >> 3);
	}
}
