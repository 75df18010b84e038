/* Command-level fake host and card for the card layer tests (see card_fake.h). */
#include <string.h>

#include "card_fake.h"
#include "reg128.h"
#include "core/card_priv.h"

#define SD_RCA 0x1234u

static bool is_sd(const struct fake *f)
{
	return f->kind == FAKE_SDHC || f->kind == FAKE_SDSC || f->kind == FAKE_SD_V1;
}

static bool block_addr(const struct fake *f)
{
	return f->kind == FAKE_SDHC || (f->kind == FAKE_MMC && !f->mmc_byte_mode);
}

static uint8_t erased_byte(const struct fake *f)
{
	if (f->kind == FAKE_MMC)
		return (f->ext_csd[EXT_CSD_ERASED_MEM_CONT] & 1u) ? 0xffu : 0x00u;
	return (f->scr[1] & 0x80u) ? 0xffu : 0x00u;
}

static void build_sd(struct fake *f)
{
	static const char pnm[5] = {'F', 'S', 'D', '0', '1'};

	reg128_put(f->cid, 120, 8, 0x03);
	reg128_put(f->cid, 104, 16, 0x5344);
	for (unsigned i = 0; i < 5; i++)
		reg128_put(f->cid, 96 - 8 * i, 8, (uint8_t)pnm[i]);
	reg128_put(f->cid, 56, 8, 0x10);
	reg128_put(f->cid, 24, 32, 0x00c0ffeeu);
	reg128_put(f->cid, 12, 8, 25);
	reg128_put(f->cid, 8, 4, 3);
	reg128_put(f->csd, 96, 8, 0x32);
	reg128_put(f->csd, 84, 12, 0x5b5); /* classes 0, 2, 4, 5, 7, 8, 10 */
	reg128_put(f->csd, 80, 4, 9);
	if (f->kind == FAKE_SDHC) {
		reg128_put(f->csd, 126, 2, 1);
		reg128_put(f->csd, 48, 22, f->sectors / 1024u - 1u);
	} else {
		/* v1: (C_SIZE + 1) x 2^(C_SIZE_MULT + 2) blocks of 512 */
		reg128_put(f->csd, 62, 12, f->sectors / 4u - 1u);
		reg128_put(f->csd, 47, 3, 0);
	}
	f->scr[0] = f->kind == FAKE_SD_V1 ? 0x01 : 0x02;
	f->scr[1] = 0x35;
	f->scr[2] = 0x80;
	f->scr[3] = 0x02; /* CMD23 */
	if (f->kind == FAKE_SDSC)
		f->scr[1] |= 0x80; /* erased blocks read 0xff */
}

static void build_mmc(struct fake *f)
{
	static const char pnm[6] = {'F', 'E', 'M', 'M', 'C', '1'};
	uint8_t *e = f->ext_csd;

	reg128_put(f->cid, 120, 8, 0x15);
	reg128_put(f->cid, 104, 16, 0x0100);
	for (unsigned i = 0; i < 6; i++)
		reg128_put(f->cid, 96 - 8 * i, 8, (uint8_t)pnm[i]);
	reg128_put(f->cid, 48, 8, 0x07);
	reg128_put(f->cid, 16, 32, 0x12345678u);
	reg128_put(f->cid, 12, 4, 6);
	reg128_put(f->cid, 8, 4, 9); /* 2006, +16 with EXT_CSD_REV >= 5: 2022 */
	reg128_put(f->csd, 126, 2, 3);
	reg128_put(f->csd, 122, 4, 4);
	reg128_put(f->csd, 96, 8, 0x32);
	reg128_put(f->csd, 84, 12, 0x8f5);
	reg128_put(f->csd, 80, 4, 9);
	reg128_put(f->csd, 62, 12, 0xfff); /* saturated: SEC_COUNT holds the size */
	reg128_put(f->csd, 47, 3, 7);
	reg128_put(f->csd, 42, 5, 15); /* erase group 16 sectors */
	reg128_put(f->csd, 37, 5, 0);
	reg128_put(f->csd, 22, 4, 9);
	e[EXT_CSD_REV] = 8;
	e[EXT_CSD_CARD_TYPE] = 0x57;
	e[EXT_CSD_SEC_COUNT] = (uint8_t)f->sectors;
	e[EXT_CSD_SEC_COUNT + 1] = (uint8_t)(f->sectors >> 8);
	e[EXT_CSD_SEC_COUNT + 2] = (uint8_t)(f->sectors >> 16);
	e[EXT_CSD_SEC_COUNT + 3] = (uint8_t)(f->sectors >> 24);
	e[EXT_CSD_GENERIC_CMD6_TIME] = 10;
	e[EXT_CSD_HC_ERASE_GRP] = 1;
	e[EXT_CSD_SEC_FEATURE] = 0x15;
}

static void cis_put(struct fake *f, uint32_t at, const uint8_t *t, uint32_t n)
{
	memcpy(&f->f0[at], t, n);
}

static void build_sdio(struct fake *f)
{
	static const uint8_t fn0[] = {0x20, 0x04, 0xd0, 0x02, 0x29, 0x43, /* MANFID */
				      0x22, 0x04, 0x00, 0x40, 0x00, 0x32, /* FUNCE: 64 */
				      0xff};
	uint8_t fn[4 + 0x2a + 1];

	f->f0[CCCR_SDIO_REV] = 0x43; /* SDIO 3.00 (4), CCCR 3 */
	f->f0[CCCR_CAPS] = 0x13;
	f->f0[CCCR_CIS_PTR] = 0x00;
	f->f0[CCCR_CIS_PTR + 1] = 0x10;
	f->f0[CCCR_SPEED] = CCCR_SPEED_SHS;
	f->f0[0x100 + FBR_CIS_PTR] = 0x40;
	f->f0[0x100 + FBR_CIS_PTR + 1] = 0x10;
	f->f0[0x200 + FBR_CIS_PTR] = 0x80;
	f->f0[0x200 + FBR_CIS_PTR + 1] = 0x10;
	cis_put(f, 0x1000, fn0, sizeof(fn0));
	memset(fn, 0, sizeof(fn));
	fn[0] = 0x22;
	fn[1] = 0x2a;
	fn[2] = 0x01;
	fn[2 + 12] = 0x00;
	fn[2 + 13] = 0x02; /* 512 */
	fn[sizeof(fn) - 1] = 0xff;
	cis_put(f, 0x1040, fn, sizeof(fn));
	fn[2 + 13] = 0x08; /* 2048 */
	cis_put(f, 0x1080, fn, sizeof(fn));
}

void fake_init(struct fake *f, enum fake_kind kind, uint8_t *image, uint32_t sectors)
{
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->image = image;
	f->sectors = sectors;
	f->present = true;
	f->ocr_polls = 2;
	f->sd_width = 1;
	f->caps.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_SD_HS | MMCHAL_BUS_MMC_HS |
		      MMCHAL_BUS_CMD23;
	f->caps.f_max_hz = 200000000u;
	f->limits.max_segs = 16;
	f->limits.max_blk_size = 512;
	f->limits.max_blk_count = 65535;
	f->limits.max_req_size = 65535u * 512u;
	f->limits.max_seg_size = 65536;
	if (is_sd(f))
		build_sd(f);
	else if (kind == FAKE_MMC)
		build_mmc(f);
	else
		build_sdio(f);
}

uint32_t fake_count(const struct fake *f, uint32_t op)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < f->nlog && i < FAKE_LOG_LEN; i++)
		n += f->log[i] == op;
	return n;
}

static uint32_t r1(struct fake *f, uint32_t state_at_receipt)
{
	uint32_t st = f->pending | (state_at_receipt << 9) | R1_READY_FOR_DATA;

	if (f->app)
		st |= R1_APP_CMD;
	f->pending = 0;
	return st;
}

/* Copy between the request's buffers and the image. */
static void sg_copy(const struct mmchal_data *d, uint8_t *img, uint32_t bytes, bool to_card)
{
	uint32_t done = 0;

	for (uint32_t i = 0; i < d->sg_len && done < bytes; i++) {
		uint32_t n = d->sg[i].len;

		if (n > bytes - done)
			n = bytes - done;
		if (to_card)
			memcpy(img + done, d->sg[i].cpu, n);
		else
			memcpy(d->sg[i].cpu, img + done, n);
		done += n;
	}
}

static uint32_t card_width(const struct fake *f)
{
	static const uint8_t w[8] = {1, 4, 8, 1, 1, 4, 8, 1};

	if (f->kind == FAKE_MMC)
		return w[f->ext_csd[EXT_CSD_BUS_WIDTH] & 7u];
	return f->sd_width;
}

/* Register reads: the card sends @n bytes of @src. */
static int reg_read(struct fake *f, struct mmchal_data *d, const void *src, uint32_t n)
{
	if (!d || d->dir != MMCHAL_DIR_FROM_CARD || d->blksz != n || d->blocks != 1u)
		return MMCHAL_EINVAL;
	if (card_width(f) != (uint32_t)f->ios.bus_width) {
		d->error = MMCHAL_EIO;
		return MMCHAL_EIO;
	}
	sg_copy(d, (uint8_t *)(uintptr_t)src, n, false);
	d->bytes_xfered = n;
	if (f->garble_idx && n == 512u && f->ios.bus_width == MMCHAL_BUS_WIDTH_8 &&
	    f->garble_idx - 1u < d->sg[0].len)
		((uint8_t *)d->sg[0].cpu)[f->garble_idx - 1u] ^= 0x01u;
	if (f->bad_8bit_bus && f->ios.bus_width == MMCHAL_BUS_WIDTH_8) {
		/* DAT4-7 stuck high on a host that does not check their CRC */
		for (uint32_t i = 0; i < d->sg_len; i++)
			for (uint32_t j = 0; j < d->sg[i].len; j++)
				((uint8_t *)d->sg[i].cpu)[j] |= 0xf0u;
	}
	return 0;
}

static int block_io(struct fake *f, struct mmchal_cmd *c, struct mmchal_data *d, bool write)
{
	uint32_t lba = block_addr(f) ? c->arg : c->arg / 512u;
	uint32_t n, prog;

	if (!d || d->blksz != 512u)
		return MMCHAL_EINVAL;
	n = d->blocks;
	if (!block_addr(f) && c->arg % 512u) {
		c->resp[0] |= R1_ADDRESS_ERROR;
		return d->error = MMCHAL_ETIMEDOUT;
	}
	if (lba >= f->sectors || n > f->sectors - lba) {
		c->resp[0] |= R1_OUT_OF_RANGE;
		return d->error = MMCHAL_ETIMEDOUT;
	}
	if (card_width(f) != (uint32_t)f->ios.bus_width)
		return d->error = MMCHAL_EIO;
	if (!write && f->rd_fail && f->rd_fail_after < n) {
		sg_copy(d, f->image + (size_t)lba * 512u, f->rd_fail_after * 512u, false);
		d->bytes_xfered = (f->rd_over_report ? n + 1u : f->rd_fail_after) * 512u;
		return d->error = MMCHAL_EIO;
	}
	if (!write) {
		sg_copy(d, f->image + (size_t)lba * 512u, n * 512u, false);
		d->bytes_xfered = n * 512u;
		return 0;
	}
	prog = n;
	if (f->wr_fail && f->wr_fail_after < n)
		prog = f->wr_fail_after;
	if (f->card_wp) {
		/* a locked card answers with WP_VIOLATION and programs nothing */
		prog = 0;
		f->pending |= R1_WP_VIOLATION;
	}
	if (prog) {
		struct mmchal_data part = *d;
		sg_copy(&part, f->image + (size_t)lba * 512u, prog * 512u, true);
	}
	f->written = prog;
	f->prg_left = 2;
	d->bytes_xfered = n * 512u;
	if (prog < n && !f->card_wp)
		return d->error = MMCHAL_EIO;
	return 0;
}

static int fault(struct fake *f, struct mmchal_cmd *c, uint32_t key)
{
	if (f->remove_at_op && key == f->remove_at_op)
		f->present = false;
	if (!f->present)
		return c->error = MMCHAL_ENOMEDIUM;
	if (key != f->fail_op || f->fail_times == 0u)
		return 0;
	if (f->fail_skip) {
		f->fail_skip--;
		return 0;
	}
	f->fail_times--;
	/* a write the card never saw programmed nothing */
	if (c->opcode == CARD_CMD_WRITE_SINGLE || c->opcode == CARD_CMD_WRITE_MULTIPLE)
		f->written = 0;
	return c->error = f->fail_err ? f->fail_err : MMCHAL_ETIMEDOUT;
}

static int sdio_cmd(struct fake *f, struct mmchal_cmd *c)
{
	uint32_t addr = (c->arg >> 9) & 0x1ffffu;
	uint32_t fn = (c->arg >> 28) & 7u;

	switch (c->opcode) {
	case CARD_CMD_GO_IDLE:
		return 0; /* SDIO ignores CMD0 for its I/O part */
	case CARD_CMD_IO_SEND_OP_COND:
		c->resp[0] = f->sdio_ocr ? f->sdio_ocr : (2u << 28) | OCR_VDD_27_36;
		if ((c->arg & OCR_VDD_27_36) && ++f->polls > f->ocr_polls)
			c->resp[0] |= OCR_BUSY;
		return 0;
	case CARD_CMD_SET_REL_ADDR:
		f->rca = f->sdio_rca_zero ? 0u : SD_RCA;
		c->resp[0] = (uint32_t)f->rca << 16;
		return 0;
	case CARD_CMD_SELECT:
		if ((c->arg >> 16) != f->rca)
			return MMCHAL_ETIMEDOUT;
		f->state = CARD_STATE_TRAN;
		c->resp[0] = r1(f, CARD_STATE_STBY);
		return 0;
	case CARD_CMD_IO_RW_DIRECT:
		if (f->state != CARD_STATE_TRAN)
			return MMCHAL_ETIMEDOUT;
		if (++f->cmd52_count == f->r5_at) {
			c->resp[0] = f->r5_flags | (2u << 12);
			return 0;
		}
		if (fn != 0u || addr >= FAKE_F0_SIZE) {
			c->resp[0] = R5_OUT_OF_RANGE | (2u << 12);
			return 0;
		}
		if (c->arg & (1u << 31)) {
			f->f0[addr] = (uint8_t)c->arg;
			if (addr == CCCR_BUS_IF)
				f->sd_width = (c->arg & 3u) == 2u ? 4u : 1u;
		}
		c->resp[0] = (2u << 12) | f->f0[addr];
		return 0;
	default:
		return MMCHAL_ETIMEDOUT;
	}
}

static int sd_switch(struct fake *f, struct mmchal_cmd *c, struct mmchal_data *d)
{
	uint8_t st[64];

	memset(st, 0, sizeof(st));
	st[13] = f->sd_no_hs ? 0x01 : 0x03; /* group 1: default and high speed */
	st[16] = (uint8_t)(c->arg & 0xfu);
	if ((c->arg & 0xfu) > 1u)
		st[16] = 0xf;
	if ((c->arg >> 31) && f->sd_hs_refuse)
		st[16] = 0;
	if ((c->arg >> 31) && st[16] == 1u)
		f->sd_hs = true;
	c->resp[0] = r1(f, f->state);
	return reg_read(f, d, st, 64);
}

static int mem_cmd(struct fake *f, struct mmchal_cmd *c, struct mmchal_data *d, bool app)
{
	bool mmc = f->kind == FAKE_MMC;
	uint32_t st = f->state;

	if (app) {
		switch (c->opcode) {
		case CARD_ACMD_SD_SEND_OP_COND:
			if (mmc || (f->state != CARD_STATE_IDLE && f->state != CARD_STATE_READY))
				return MMCHAL_ETIMEDOUT;
			c->resp[0] = OCR_VDD_27_36;
			/* an SDHC card without HCS stays busy for ever (SD spec 4.2.3.1) */
			if (f->kind == FAKE_SDHC && !(c->arg & OCR_CCS))
				return 0;
			if (++f->polls > f->ocr_polls) {
				c->resp[0] |= OCR_BUSY | (f->kind == FAKE_SDHC ? OCR_CCS : 0u);
				f->state = CARD_STATE_READY;
			}
			return 0;
		case CARD_ACMD_SET_BUS_WIDTH:
			if (f->state != CARD_STATE_TRAN)
				return MMCHAL_ETIMEDOUT;
			c->resp[0] = r1(f, st);
			f->sd_width = (c->arg & 3u) == 2u ? 4u : 1u;
			return 0;
		case CARD_ACMD_SEND_SCR:
			c->resp[0] = r1(f, st);
			return reg_read(f, d, f->scr, 8);
		case CARD_ACMD_NUM_WR_BLOCKS: {
			uint32_t w = f->acmd22_fixed ? f->acmd22_value : f->written;
			uint8_t b[4] = {(uint8_t)(w >> 24), (uint8_t)(w >> 16), (uint8_t)(w >> 8),
					(uint8_t)w};

			c->resp[0] = r1(f, st);
			return reg_read(f, d, b, 4);
		}
		default:
			return MMCHAL_ETIMEDOUT;
		}
	}
	switch (c->opcode) {
	case CARD_CMD_IO_SEND_OP_COND:
		if (!f->mem_r4)
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = f->mem_r4;
		return 0;
	case CARD_CMD_GO_IDLE:
		f->state = CARD_STATE_IDLE;
		f->rca = 0;
		f->polls = 0;
		f->sd_width = 1;
		f->sd_hs = false;
		/* CMD0 puts an eMMC back on one bit at legacy timing (JEDEC 6.6.4) */
		f->ext_csd[EXT_CSD_BUS_WIDTH] = 0;
		f->ext_csd[EXT_CSD_HS_TIMING] = 0;
		return 0;
	case CARD_CMD_SEND_OP_COND:
		if (!mmc || f->state != CARD_STATE_IDLE)
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = 0x00ff8080u;
		if (++f->polls > f->ocr_polls) {
			c->resp[0] |= OCR_BUSY | (f->mmc_byte_mode ? 0u : 2u << 29);
			f->state = CARD_STATE_READY;
		}
		return 0;
	case CARD_CMD_ALL_SEND_CID:
		if (f->state != CARD_STATE_READY)
			return MMCHAL_ETIMEDOUT;
		memcpy(c->resp, f->cid, sizeof(f->cid));
		f->state = CARD_STATE_IDENT;
		return 0;
	case CARD_CMD_SET_REL_ADDR:
		if (f->state != CARD_STATE_IDENT)
			return MMCHAL_ETIMEDOUT;
		f->rca = mmc ? (uint16_t)(c->arg >> 16) : (uint16_t)SD_RCA;
		if (!mmc && f->sd_rca_zero) {
			f->sd_rca_zero--;
			c->resp[0] = st << 9;
			return 0;
		}
		c->resp[0] = mmc ? r1(f, st) : ((uint32_t)f->rca << 16) | (st << 9);
		f->state = CARD_STATE_STBY;
		return 0;
	case CARD_CMD_SEND_IF_COND:
		if (mmc) {
			if (f->state != CARD_STATE_TRAN)
				return MMCHAL_ETIMEDOUT;
			c->resp[0] = r1(f, st);
			return reg_read(f, d, f->ext_csd, 512);
		}
		if (f->kind == FAKE_SD_V1 || f->state != CARD_STATE_IDLE)
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = (c->arg & 0xfffu) ^ f->if_cond_xor;
		return 0;
	case CARD_CMD_SEND_CSD:
		if (f->state != CARD_STATE_STBY || (c->arg >> 16) != f->rca)
			return MMCHAL_ETIMEDOUT;
		memcpy(c->resp, f->csd, sizeof(f->csd));
		return 0;
	case CARD_CMD_SELECT:
		if ((c->arg >> 16) != f->rca || f->rca == 0u)
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = r1(f, st);
		f->state = CARD_STATE_TRAN;
		return 0;
	case CARD_CMD_SWITCH:
		if (f->state != CARD_STATE_TRAN)
			return MMCHAL_ETIMEDOUT;
		if (!mmc)
			return sd_switch(f, c, d);
		c->resp[0] = r1(f, st);
		if (((c->arg >> 24) & 3u) != 3u) {
			f->pending |= R1_SWITCH_ERROR;
			return 0;
		}
		{
			uint32_t idx = (c->arg >> 16) & 0xffu, val = (c->arg >> 8) & 0xffu;

			if (f->refuse_8bit && idx == EXT_CSD_BUS_WIDTH &&
			    (val == EXT_CSD_WIDTH_8 || val == EXT_CSD_WIDTH_8_DDR)) {
				f->pending |= R1_SWITCH_ERROR;
				return 0;
			}
			if (idx == EXT_CSD_BUS_WIDTH && val < 32u &&
			    (f->refuse_widths & (1u << val))) {
				f->pending |= R1_SWITCH_ERROR;
				return 0;
			}
			if (f->refuse_timing && idx == EXT_CSD_HS_TIMING &&
			    val == f->refuse_timing) {
				f->pending |= R1_SWITCH_ERROR;
				return 0;
			}
			f->ext_csd[idx] = (uint8_t)val;
		}
		return 0;
	case CARD_CMD_SEND_STATUS:
		if ((c->arg >> 16) != f->rca)
			return MMCHAL_ETIMEDOUT;
		if (f->st13_left) {
			f->st13_left--;
			c->resp[0] = f->st13_word | f->pending;
			f->pending = 0;
			return 0;
		}
		if (f->prg_left) {
			f->prg_left--;
			c->resp[0] = r1(f, CARD_STATE_PRG) & ~R1_READY_FOR_DATA;
			return 0;
		}
		c->resp[0] = r1(f, st);
		return 0;
	case CARD_CMD_SET_BLOCKLEN:
		c->resp[0] = r1(f, st);
		if (c->arg != 512u)
			c->resp[0] |= R1_BLOCK_LEN_ERROR;
		return 0;
	case CARD_CMD_SET_BLOCK_COUNT:
		c->resp[0] = r1(f, st);
		f->blk_count = c->arg & 0xffffu;
		return 0;
	case CARD_CMD_READ_SINGLE:
	case CARD_CMD_READ_MULTIPLE:
	case CARD_CMD_WRITE_SINGLE:
	case CARD_CMD_WRITE_MULTIPLE: {
		bool write = c->opcode >= CARD_CMD_WRITE_SINGLE;
		bool multi = c->opcode == CARD_CMD_READ_MULTIPLE ||
			     c->opcode == CARD_CMD_WRITE_MULTIPLE;

		if (f->state != CARD_STATE_TRAN)
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = r1(f, st);
		if (d && !multi && d->blocks != 1u)
			return MMCHAL_EINVAL;
		if (d && f->blk_count && f->blk_count != d->blocks)
			return MMCHAL_EINVAL;
		f->blk_count = 0;
		return block_io(f, c, d, write);
	}
	case CARD_CMD_STOP:
		c->resp[0] = r1(f, st);
		return 0;
	case CARD_CMD_SD_ERASE_START:
	case CARD_CMD_SD_ERASE_END:
	case CARD_CMD_MMC_ERASE_START:
	case CARD_CMD_MMC_ERASE_END: {
		bool start = c->opcode == CARD_CMD_SD_ERASE_START ||
			     c->opcode == CARD_CMD_MMC_ERASE_START;
		bool ok = mmc ? c->opcode >= CARD_CMD_MMC_ERASE_START
			      : c->opcode <= CARD_CMD_SD_ERASE_END;
		uint32_t lba = block_addr(f) ? c->arg : c->arg / 512u;

		if (!ok || f->state != CARD_STATE_TRAN)
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = r1(f, st);
		if (lba >= f->sectors)
			c->resp[0] |= R1_OUT_OF_RANGE;
		if (start) {
			f->erase_start = lba;
			f->erase_start_set = true;
			f->erase_end_set = false;
		} else {
			f->erase_end = lba;
			f->erase_end_set = f->erase_start_set;
		}
		return 0;
	}
	case CARD_CMD_ERASE:
		if (f->state != CARD_STATE_TRAN)
			return MMCHAL_ETIMEDOUT;
		c->resp[0] = r1(f, st);
		if (!f->erase_start_set || !f->erase_end_set || f->erase_end < f->erase_start) {
			c->resp[0] |= R1_ERASE_SEQ_ERROR;
			return 0;
		}
		if (f->card_wp) {
			c->resp[0] |= R1_WP_ERASE_SKIP;
			return 0;
		}
		/* erase (0) fills with the erased byte; discard and trim leave it too */
		memset(f->image + (size_t)f->erase_start * 512u, erased_byte(f),
		       (size_t)(f->erase_end - f->erase_start + 1u) * 512u);
		f->erase_start_set = f->erase_end_set = false;
		return 0;
	case CARD_CMD_APP:
		if (f->state == CARD_STATE_READY || f->state == CARD_STATE_IDENT ||
		    (c->arg >> 16) != f->rca)
			return MMCHAL_ETIMEDOUT;
		f->app = true;
		c->resp[0] = r1(f, st);
		if (f->no_app_bit)
			c->resp[0] &= ~R1_APP_CMD;
		return 0;
	default:
		return MMCHAL_ETIMEDOUT;
	}
}

static int run_cmd(struct fake *f, struct mmchal_cmd *c, struct mmchal_data *d)
{
	bool app = f->app && c->opcode != CARD_CMD_APP;
	uint32_t key = c->opcode | (app ? FAKE_APP : 0u);
	int err;

	if (f->nlog < FAKE_LOG_LEN) {
		f->log[f->nlog] = key;
		f->log_arg[f->nlog] = c->arg;
		f->log_timeout[f->nlog] = f->cur_timeout;
		f->log_busy_ms[f->nlog] = c->busy_timeout_ms;
		f->log_resp1[f->nlog] = c->resp[1];
		f->log_flags[f->nlog] = c->flags;
	}
	f->nlog++;
	err = fault(f, c, key);
	if (err) {
		f->app = false;
		/* a response that arrived damaged still carries its bits */
		if (f->pend_bits && key == f->pend_op) {
			c->resp[0] |= f->pend_bits;
			f->pend_bits = 0;
		}
		return err;
	}
	if (app && c->opcode != CARD_CMD_APP)
		f->app = false;
	if (f->kind == FAKE_SDIO)
		err = sdio_cmd(f, c);
	else
		err = mem_cmd(f, c, d, app);
	if (app)
		f->app = false;
	if (f->pend_bits && key == f->pend_op) {
		c->resp[0] |= f->pend_bits;
		f->pend_bits = 0;
	}
	if (err && !c->error && (!d || !d->error))
		c->error = err;
	return err;
}

static bool within_limits(struct fake *f, const struct mmchal_data *d)
{
	const struct mmchal_limits *l = &f->limits;
	uint64_t bytes = (uint64_t)d->blksz * d->blocks;

	if (d->blocks > f->max_blocks_seen)
		f->max_blocks_seen = d->blocks;
	if (d->sg_len > f->max_nsg_seen)
		f->max_nsg_seen = d->sg_len;
	if (d->sg_len > l->max_segs || d->blocks > l->max_blk_count || bytes > l->max_req_size)
		return false;
	for (uint32_t i = 0; i < d->sg_len; i++) {
		uint64_t a = d->sg[i].phys, e = a + d->sg[i].len - 1u;

		if (d->sg[i].len > l->max_seg_size)
			return false;
		if (l->seg_boundary && (a & ~l->seg_boundary) != (e & ~l->seg_boundary))
			return false;
		if (l->virt_boundary && i > 0 && (a & l->virt_boundary))
			return false;
		if (l->virt_boundary && i + 1 < d->sg_len && ((e + 1u) & l->virt_boundary))
			return false;
	}
	return true;
}

static int fake_request_sync(void *ctx, struct mmchal_request *req, uint32_t timeout_ms)
{
	struct fake *f = ctx;
	int err = 0, e;

	f->cur_timeout = timeout_ms;
	f->requests++;
	if (req->data) {
		f->data_timeout_ns = req->data->timeout_ns;
		f->data_phys = req->data->sg_len ? req->data->sg[0].phys : 0u;
	}
	if (req->data && !within_limits(f, req->data)) {
		f->limit_violations++;
		return MMCHAL_EINVAL;
	}
	if (req->sbc) {
		f->sbc_seen++;
		err = run_cmd(f, req->sbc, NULL);
		if (err)
			return err;
	}
	err = run_cmd(f, req->cmd, req->data);
	if (req->stop && !req->cmd->error) {
		f->stop_seen++;
		e = run_cmd(f, req->stop, NULL);
		if (!err)
			err = e;
	}
	return err;
}

static int fake_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	struct fake *f = ctx;

	if (f->set_ios_err)
		return f->set_ios_err;
	if (f->set_ios_calls < 32u)
		f->ios_hist[f->set_ios_calls] = *ios;
	if (++f->set_ios_calls == f->set_ios_fail_at) {
		if (f->set_ios_fail_applies)
			f->ios = *ios;
		return f->set_ios_fail_err ? f->set_ios_fail_err : MMCHAL_EIO;
	}
	f->ios = *ios;
	return 0;
}

static int fake_init_card(void *ctx, enum mmchal_card_type type)
{
	struct fake *f = ctx;

	f->init_card_calls++;
	f->init_card_at = f->nlog;
	f->init_type = type;
	f->limits.card = type;
	return f->init_card_err;
}

static int fake_get_cd(void *ctx)
{
	struct fake *f = ctx;

	if (f->cd_err)
		return f->cd_err;
	return f->present ? 1 : 0;
}

static int fake_get_ro(void *ctx)
{
	return ((struct fake *)ctx)->ro_switch ? 1 : 0;
}

static int fake_card_busy(void *ctx)
{
	struct fake *f = ctx;

	f->busy_calls++;
	if (f->busy_left) {
		f->busy_left--;
		return 1;
	}
	return f->busy_err;
}

static int fake_tuning(void *ctx, uint32_t opcode)
{
	struct fake *f = ctx;

	f->tuning_calls++;
	f->tuning_opcode = opcode;
	return f->tuning_err;
}

static int fake_get_caps(void *ctx, struct mmchal_host_caps *caps)
{
	struct fake *f = ctx;

	if (f->caps_err)
		return f->caps_err;
	*caps = f->caps;
	return 0;
}

static int fake_get_limits(void *ctx, struct mmchal_limits *limits)
{
	struct fake *f = ctx;

	if (f->no_limits_op)
		return MMCHAL_ENOTSUP;
	if (f->limits_err)
		return f->limits_err;
	*limits = f->limits;
	return 0;
}

static int fake_request(void *ctx, struct mmchal_request *req)
{
	(void)ctx;
	(void)req;
	return MMCHAL_ENOTSUP;
}

const struct mmchal_host_ops fake_ops = {
	.init_card = fake_init_card,
	.request = fake_request,
	.card_busy = fake_card_busy,
	.set_ios = fake_set_ios,
	.get_cd = fake_get_cd,
	.get_ro = fake_get_ro,
	.execute_tuning = fake_tuning,
	.request_sync = fake_request_sync,
	.get_caps = fake_get_caps,
	.get_limits = fake_get_limits,
};

void fake_card_cfg(struct fake *f, struct mmchal_card_cfg *cfg, void *buf)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->ops = &fake_ops;
	cfg->ctx = f;
	cfg->buf = buf;
	cfg->buf_phys = 0x50000000u;
	cfg->op_cond_tries = 10;
	cfg->busy_poll_tries = 10;
}
