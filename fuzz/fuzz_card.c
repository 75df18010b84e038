/*
 * libFuzzer target: a hostile or broken card (and a host that reports what
 * it does) against the card layer, mmchal_card_* of include/mmchal/card.h.
 *
 * The input is a fixed header followed by an answer stream.
 *
 *  - The header (HDR_SIZE bytes; bytes past the input's end read as 0) gives
 *    the host: its caps (bus widths, timings, voltages, f_max), which optional
 *    ops it lacks, its limits (sane ones that every request is checked
 *    against, a get_limits error, or raw insane ones), the card
 *    configuration (poll counts, scratch entries, RCA, bus_disable, delay),
 *    a "persona" (SDHC, SDSC, eMMC, SDIO, SD 1.x, byte-mode eMMC, no card)
 *    and a script of NOPS block operations (read, write, erase, discard,
 *    read past the end, bad arguments, check_present, init again).
 *  - Every host op call then takes its outcome from the answer stream. A
 *    request takes a control byte: 0 is the answer a well-behaved card of
 *    the persona gives (so a seed is a header and zeros); the other values
 *    fail a command (ETIMEDOUT, EIO, EILSEQ, ENOMEDIUM, ...), give raw or
 *    corrupted response words, fail the data phase after some bytes with a
 *    host-reported bytes_xfered, patch or replace the data a read delivers,
 *    flip a status bit, or refuse the request outright. card_busy, get_cd,
 *    get_ro, set_ios, execute_tuning, hw_reset and init_card take one byte
 *    each (0 = the good answer). When the stream runs out, every op answers
 *    with a timeout.
 *
 * Checked (the first broken property's source line is returned):
 *  - every call returns 0 or an error its Doxygen in card.h allows (plus the
 *    errors the host itself returned during the call where the
 *    documentation passes those through), and a failure is recorded in
 *    mmchal_card_last_error() with the same value;
 *  - at most MAX_CALLS host op calls per input (virtual time advances on
 *    every call and in delay_us, so a loop that never ends is caught);
 *  - guard bytes around the register buffer and every caller buffer stay
 *    intact, write buffers are never written, a successful read filled every
 *    byte of the caller's buffers;
 *  - every request the card layer sends is valid (mmchal_request_check()
 *    against the limits the host gave, when they are sane), its data stays
 *    inside the register buffer or the caller's buffers, and a block request
 *    addresses the next blocks of the call with exactly the caller's bytes
 *    (byte or block addressing as the card needs); only transfer, status
 *    and erase commands are sent by block calls, and erase arguments are the
 *    call's range;
 *  - set_ios never asks for a width, timing, voltage or clock the host (less
 *    bus_disable) does not have;
 *  - after a successful init, mmchal_card_info() is consistent: a known type,
 *    the type given to init_card, memory cards with sectors > 0 whose
 *    addresses fit their addressing mode, an erase unit, an RCA, CMD16(512)
 *    sent to a byte-addressed card, the bus state the host was last set to,
 *    cmd23 and tuned only when the host has them; a read past the capacity
 *    is refused with MMCHAL_ERANGE and sends nothing; an SDIO card refuses
 *    block calls with MMCHAL_ENOTSUP;
 *  - once the host reported removal, block calls return MMCHAL_ENOMEDIUM and
 *    send nothing; an init during which the card went away fails with it;
 *  - the done callback of a request, if set, runs exactly once (the host
 *    here calls it; request_sync's contract in host.h).
 * ASan and UBSan catch the rest (the caller's lists are allocated to their
 * exact size).
 *
 * fuzz_card_run() returns 0 or the line of the first broken property; the
 * libFuzzer entry aborts on a non-zero value, and tests/fuzz/test_fuzz_card.c
 * replays every file of tests/fuzz/card/ through the same function.
 *
 * This file holds the host ops, the checks and the driver; the answer stream
 * and the good card of each persona (fc_answer_()) are in fuzz_card_model.c,
 * and the state both share in fuzz_card_priv.h.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/card.h>
#include <mmchal/dma_plan.h>
#include <mmchal/error.h>
#include <mmchal/host.h>

#include "fuzz_card.h"
#include "fuzz_harness.h"
#include "fuzz_card_priv.h"

#define MAX_CALLS 200000u
#define NOPS      5u
#define OP_SIZE   6u

/* header layout */
enum {
	H_PERSONA = 0,
	H_BUS = 1, /* 3 bytes */
	H_FMAX = 4,
	H_NOOPS = 5,
	H_LIMMODE = 6,
	H_SEGS = 7,
	H_SEGSZ = 8,
	H_BLKCNT = 9,
	H_REQSZ = 10,
	H_SEGB = 11,
	H_VIRTB = 12,
	H_BLKSZ = 13,
	H_CFG = 14,
	H_BUSYTRIES = 15,
	H_CMDTO = 16,
	H_RCA = 17,    /* 2 bytes */
	H_BUSDIS = 19, /* 2 bytes */
	H_FINIT = 21,
	H_SCRATCH = 22,
	H_SPARE = 23,
	H_OPS = 24,
	HDR_SIZE = H_OPS + NOPS * OP_SIZE,
};

/* optional ops the host may lack (H_NOOPS bits) */
#define NO_INIT_CARD (1u << 0)
#define NO_BUSY      (1u << 1)
#define NO_CD        (1u << 2)
#define NO_RO        (1u << 3)
#define NO_RESET     (1u << 4)
#define NO_TUNING    (1u << 5)
#define NO_CAPS      (1u << 6)
#define NO_LIMITS    (1u << 7)

/* block-call kinds of the script */
enum { OP_READ, OP_WRITE, OP_ERASE, OP_DISCARD, OP_PAST_END, OP_BAD_ARGS, OP_PRESENT, OP_REINIT };

#define GUARD      32u
#define GUARD_BYTE 0xa5u
#define POISON     0x5au

/* -DFUZZ_CARD_TRACE: print every request and call result (debugging a finding) */
#ifdef FUZZ_CARD_TRACE
#include <stdio.h>
#define TRACE(...) fprintf(stderr, __VA_ARGS__)
#else
#define TRACE(...) ((void)0)
#endif

#define FAIL(f)                               \
	do {                                  \
		if (!(f)->fail)               \
			(f)->fail = __LINE__; \
	} while (0)
#define CHECK(f, cond)           \
	do {                     \
		if (!(cond))     \
			FAIL(f); \
	} while (0)

/* ------------------------------------------------------------ input */

static uint8_t hb(const struct fc *f, unsigned i)
{
	return f->hdr[i];
}

static uint32_t err_bit(int e)
{
	return (e < 0 && e > -32) ? 1u << (unsigned)-e : 0u;
}

/* ------------------------------------------------------------ host ops */

static void op_enter(struct fc *f)
{
	f->calls++;
	f->now_us += 10;
	if (f->calls > MAX_CALLS) {
		FAIL(f);
		longjmp(f->out, 1);
	}
}

/* The host returns @e from an op other than get_cd and request_sync. */
static int note(struct fc *f, int e)
{
	f->host_errs |= err_bit(e);
	if (e == MMCHAL_ENOMEDIUM)
		f->removal_unsure = true;
	return e;
}

/* 0 = success; odd bytes fail with an error picked by the rest. */
static int simple_answer(struct fc *f)
{
	uint8_t b;

	if (!fc_ans_(f, &b))
		return note(f, MMCHAL_ETIMEDOUT);
	if (b & 1u)
		return note(f, fc_pick_err_((uint8_t)(b >> 1)));
	return 0;
}

static int h_init_card(void *ctx, enum mmchal_card_type type)
{
	struct fc *f = ctx;

	op_enter(f);
	CHECK(f, type == MMCHAL_CARD_SD || type == MMCHAL_CARD_MMC || type == MMCHAL_CARD_SDIO ||
			 type == MMCHAL_CARD_SD_COMBO);
	f->init_card_called = true;
	f->init_type = type;
	return simple_answer(f);
}

static int h_card_busy(void *ctx)
{
	struct fc *f = ctx;
	uint8_t b;

	op_enter(f);
	if (!fc_ans_(f, &b))
		return note(f, MMCHAL_ETIMEDOUT);
	switch (b & 3u) {
	case 1:
		return 1;
	case 2:
		return note(f, fc_pick_err_((uint8_t)(b >> 2)));
	default:
		return 0;
	}
}

static int h_get_cd(void *ctx)
{
	struct fc *f = ctx;
	uint8_t b;

	op_enter(f);
	CHECK(f, !(f->eff_bus & MMCHAL_BUS_NONREMOVABLE));
	if (!fc_ans_(f, &b)) {
		f->host_errs |= err_bit(MMCHAL_ETIMEDOUT);
		return MMCHAL_ETIMEDOUT;
	}
	switch (b & 7u) {
	case 1:
		f->cd_absent = f->removed_seen = true;
		return 0;
	case 2:
		f->cd_absent = f->removed_seen = true;
		f->host_errs |= err_bit(MMCHAL_ENOMEDIUM);
		return MMCHAL_ENOMEDIUM;
	case 3:
		f->host_errs |= err_bit(MMCHAL_EIO);
		return MMCHAL_EIO;
	case 4:
		f->host_errs |= err_bit(MMCHAL_ENOTSUP);
		return MMCHAL_ENOTSUP;
	default:
		return 1;
	}
}

static int h_get_ro(void *ctx)
{
	struct fc *f = ctx;
	uint8_t b;

	op_enter(f);
	if (!fc_ans_(f, &b))
		return note(f, MMCHAL_ETIMEDOUT);
	switch (b & 3u) {
	case 1:
		f->ro_seen = true;
		return 1;
	case 2:
		return note(f, fc_pick_err_((uint8_t)(b >> 2)));
	default:
		return 0;
	}
}

static int h_hw_reset(void *ctx)
{
	struct fc *f = ctx;

	op_enter(f);
	return simple_answer(f);
}

static int h_execute_tuning(void *ctx, uint32_t opcode)
{
	struct fc *f = ctx;
	int e;

	op_enter(f);
	CHECK(f, opcode == 19u || opcode == 21u);
	CHECK(f, (f->eff_bus & (MMCHAL_BUS_HS200 | MMCHAL_BUS_UHS_SDR50 | MMCHAL_BUS_UHS_SDR104)) !=
			 0);
	e = simple_answer(f);
	f->tuned = e == 0;
	return e;
}

static int h_enable_sdio_irq(void *ctx, bool enable)
{
	struct fc *f = ctx;

	(void)enable;
	op_enter(f);
	return simple_answer(f);
}

/* The width, timing, voltage and clock of @ios are the host's (less bus_disable). */
static void check_ios(struct fc *f, const struct mmchal_ios *ios)
{
	uint32_t bus = f->eff_bus;
	bool ok;

	switch (ios->bus_width) {
	case MMCHAL_BUS_WIDTH_1:
		ok = true;
		break;
	case MMCHAL_BUS_WIDTH_4:
		ok = (bus & (MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT)) != 0;
		break;
	case MMCHAL_BUS_WIDTH_8:
		ok = (bus & MMCHAL_BUS_8_BIT) != 0 && f->card.info.type == MMCHAL_CARD_MMC;
		break;
	default:
		ok = false;
	}
	CHECK(f, ok);
	switch (ios->timing) {
	case MMCHAL_TIMING_LEGACY:
		ok = true;
		break;
	case MMCHAL_TIMING_SD_HS:
		ok = (bus & MMCHAL_BUS_SD_HS) != 0;
		break;
	case MMCHAL_TIMING_MMC_HS:
		/* also the step between HS200 and HS400 (JEDEC 6.6.2.3) */
		ok = (bus & (MMCHAL_BUS_MMC_HS | MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400)) != 0;
		break;
	case MMCHAL_TIMING_MMC_DDR52:
		ok = (bus & MMCHAL_BUS_MMC_DDR52) != 0;
		break;
	case MMCHAL_TIMING_MMC_HS200:
		ok = (bus & MMCHAL_BUS_HS200) != 0;
		break;
	case MMCHAL_TIMING_MMC_HS400:
		ok = (bus & MMCHAL_BUS_HS400) != 0 && ios->bus_width == MMCHAL_BUS_WIDTH_8;
		break;
	default:
		ok = false; /* the card layer has no UHS-I path */
	}
	CHECK(f, ok);
	CHECK(f, ios->signal_voltage == MMCHAL_SIGNAL_330 ||
			 (ios->signal_voltage == MMCHAL_SIGNAL_180 && (bus & MMCHAL_BUS_1_8V)));
	CHECK(f, f->caps.f_max_hz == 0 || ios->clock_hz <= f->caps.f_max_hz);
	CHECK(f, ios->power_mode == MMCHAL_POWER_OFF || ios->power_mode == MMCHAL_POWER_UP ||
			 ios->power_mode == MMCHAL_POWER_ON);
}

static int h_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	struct fc *f = ctx;
	uint8_t b;

	op_enter(f);
	check_ios(f, ios);
	f->ios_ok = false;
	if (!fc_ans_(f, &b))
		return note(f, MMCHAL_ETIMEDOUT);
	if ((b & 3u) == 1u)
		return note(f, fc_pick_err_((uint8_t)(b >> 2)));
	f->ios = *ios;
	f->ios_ok = true;
	return 0;
}

static int h_get_caps(void *ctx, struct mmchal_host_caps *caps)
{
	struct fc *f = ctx;

	op_enter(f);
	if (f->caps_err)
		return note(f, f->caps_err);
	*caps = f->caps;
	return 0;
}

static int h_get_limits(void *ctx, struct mmchal_limits *limits)
{
	struct fc *f = ctx;

	op_enter(f);
	if (f->limits_err)
		return note(f, f->limits_err);
	*limits = f->lim;
	return 0;
}

/* ------------------------------------------------------------ requests */

int64_t fc_caller_pos_(const struct callbuf *cb, const struct mmchal_sg *s)
{
	uint64_t base = 0;

	for (uint32_t i = 0; i < cb->nsg; i++) {
		const uint8_t *e = cb->sg[i].cpu;
		const uint8_t *p = s->cpu;

		if (p >= e && p < e + cb->sg[i].len) {
			uint64_t off = (uint64_t)(p - e);

			if (off + s->len > cb->sg[i].len || s->phys != cb->sg[i].phys + off)
				return -1;
			return (int64_t)(base + off);
		}
		base += cb->sg[i].len;
	}
	return -1;
}

static uint64_t addr_to_lba(const struct fc *f, uint32_t arg, bool *ok)
{
	if (f->card.info.block_addr)
		return arg;
	*ok = *ok && (arg % MMCHAL_CARD_BLKSZ) == 0u;
	return arg / MMCHAL_CARD_BLKSZ;
}

/* What the card layer sends is what it may send. */
static void check_request(struct fc *f, const struct mmchal_request *req)
{
	static const struct mmchal_limits open_lim = {
		.max_segs = UINT32_MAX,
		.max_blk_size = UINT32_MAX,
		.max_req_size = UINT64_MAX,
		.max_blk_count = UINT32_MAX,
		.max_seg_size = UINT32_MAX,
	};
	const struct mmchal_cmd *c = req->cmd;
	const struct mmchal_data *d = req->data;
	struct io *io = f->io;
	uint32_t op = c->opcode;
	bool app = f->app;

	CHECK(f, mmchal_request_check(req, f->lim_sane ? &f->lim : &open_lim, NULL) == 0);
	if (is_block_op(op) && !app) {
		bool write = op == 24u || op == 25u, ok = true;
		uint64_t lba, pos;

		CHECK(f, io && io->cb && !io->erase && io->write == write);
		if (!io || !io->cb || !d) {
			FAIL(f);
			return;
		}
		CHECK(f, d->blksz == MMCHAL_CARD_BLKSZ && d->blocks >= 1u);
		CHECK(f, (d->blocks == 1u) == (op == 17u || op == 24u));
		CHECK(f, d->dir == (write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD));
		lba = addr_to_lba(f, c->arg, &ok);
		CHECK(f, ok && lba == io->next_lba);
		CHECK(f, lba + d->blocks <= io->lba + io->blocks);
		CHECK(f,
		      req->sbc == NULL || (req->sbc->opcode == 23u && req->sbc->arg == d->blocks &&
					   f->card.info.cmd23 && d->blocks > 1u));
		CHECK(f, req->stop == NULL || (req->stop->opcode == 12u && d->blocks > 1u));
		pos = (lba - io->lba) * MMCHAL_CARD_BLKSZ;
		for (uint32_t i = 0; i < d->sg_len; i++) {
			int64_t at = fc_caller_pos_(io->cb, &d->sg[i]);

			CHECK(f, at >= 0 && (uint64_t)at == pos);
			pos += d->sg[i].len;
		}
		return;
	}
	CHECK(f, req->sbc == NULL && req->stop == NULL);
	if (d) {
		/* a register read: one block into the register buffer */
		const uint8_t *buf = f->cfg.buf;

		CHECK(f, d->dir == MMCHAL_DIR_FROM_CARD && d->blocks == 1u && d->blksz <= 512u &&
				 d->sg_len == 1u);
		CHECK(f, d->sg[0].cpu == buf && d->sg[0].phys == f->cfg.buf_phys &&
				 d->sg[0].len == d->blksz);
	}
	if (io) {
		/* a block call sends transfers, status, ACMD22, erase and nothing else */
		bool ok = op == 12u || op == 13u || op == 55u || (app && op == 22u);

		if (io->erase) {
			bool sd = f->card.info.type == MMCHAL_CARD_SD, aok = true;
			uint32_t s = sd ? 32u : 35u;

			if (op == s) {
				CHECK(f, addr_to_lba(f, c->arg, &aok) == io->lba && aok);
				ok = true;
			} else if (op == s + 1u) {
				CHECK(f,
				      addr_to_lba(f, c->arg, &aok) == io->lba + io->blocks - 1u &&
					      aok);
				ok = true;
			} else if (op == 38u) {
				CHECK(f, c->arg == 0u || (!sd && (c->arg == 1u || c->arg == 3u)));
				ok = true;
			}
		}
		CHECK(f, ok);
	}
}

static int run_request(struct fc *f, struct mmchal_request *req)
{
	struct mmchal_cmd *cmds[3];
	uint8_t c, *buf = NULL;
	bool refused = false;
	int rc;

	f->requests++;
	f->now_us += 100;
	if (!req || !req->cmd) {
		FAIL(f);
		return MMCHAL_EINVAL;
	}
	check_request(f, req);
	cmds[0] = req->sbc;
	cmds[1] = req->cmd;
	cmds[2] = req->stop;
	for (unsigned i = 0; i < 3u; i++) {
		if (cmds[i]) {
			memset(cmds[i]->resp, 0, sizeof(cmds[i]->resp));
			cmds[i]->error = 0;
		}
	}
	if (req->data) {
		req->data->bytes_xfered = 0;
		req->data->error = 0;
		buf = malloc((size_t)req->data->blksz * req->data->blocks + 1u);
		if (!buf)
			abort();
	}
	if (!fc_ans_(f, &c)) {
		(req->sbc ? req->sbc : req->cmd)->error = MMCHAL_ETIMEDOUT;
	} else if (c % 10u == 8u) {
		refused = true; /* refused before anything was sent, as a host core does */
	} else {
		fc_answer_(f, req, c, buf);
	}
	free(buf);
	rc = refused ? MMCHAL_EINVAL : fh_first_error(req);
	TRACE("  %sCMD%u arg %08x%s%s -> %d resp %08x\n", f->app ? "A" : "", req->cmd->opcode,
	      req->cmd->arg, req->sbc ? " +sbc" : "", req->stop ? " +stop" : "", rc,
	      req->cmd->resp[0]);
	f->host_errs |= err_bit(rc);
	if (rc == MMCHAL_ENOMEDIUM)
		f->removed_seen = true;
	if (rc == 0 && f->io && f->io->cb && is_block_op(req->cmd->opcode) && !f->app)
		f->io->next_lba += req->data->blocks;
	if (rc == 0 && req->cmd->opcode == 16u && req->cmd->arg == MMCHAL_CARD_BLKSZ && !f->app)
		f->cmd16_ok = true;
	f->app = req->cmd->opcode == 55u && rc == 0;
	return rc;
}

static int h_request_sync(void *ctx, struct mmchal_request *req, uint32_t timeout_ms)
{
	struct fc *f = ctx;
	int rc;

	op_enter(f);
	f->now_us += timeout_ms < 10u ? timeout_ms : 10u;
	rc = run_request(f, req);
	/* host.h: the done callback, if any, still runs exactly once */
	if (req && !(rc == MMCHAL_EINVAL && fh_first_error(req) == 0) && req->done)
		req->done(req);
	return rc;
}

static int h_request(void *ctx, struct mmchal_request *req)
{
	struct fc *f = ctx;
	int rc;

	op_enter(f);
	CHECK(f, req && req->done);
	rc = run_request(f, req);
	if (rc == MMCHAL_EINVAL && fh_first_error(req) == 0)
		return rc; /* refused: done never runs */
	if (req->done)
		req->done(req);
	return 0;
}

static void delay_us(void *arg, uint32_t us)
{
	struct fc *f = arg;

	f->now_us += us;
}

/* ------------------------------------------------------------ setup */

static void make_limits(struct fc *f)
{
	static const uint32_t seg_sz[8] = {512, 1024, 4096, 65536, 600, 1536, 8192, 512 + 4};
	static const uint32_t blk_sz[4] = {512, 1024, 2048, 4096};
	uint8_t mode = hb(f, H_LIMMODE);
	struct mmchal_limits *l = &f->lim;

	memset(l, 0, sizeof(*l));
	switch (mode & 3u) {
	case 1:
		f->limits_err = fc_pick_err_((uint8_t)(mode >> 2));
		return;
	case 2:
		/* anything, also what no host derives: the card layer must cope */
		l->max_segs = hb(f, H_SEGS) % 4u;
		l->max_seg_size = (uint32_t)hb(f, H_SEGSZ) * 7u;
		l->max_blk_count = hb(f, H_BLKCNT) % 8u;
		l->max_req_size = (uint64_t)hb(f, H_REQSZ) * 100u;
		l->seg_boundary = hb(f, H_SEGB);
		l->virt_boundary = hb(f, H_VIRTB);
		l->max_blk_size = (uint32_t)hb(f, H_BLKSZ) * 4u;
		return;
	default:
		break;
	}
	f->lim_sane = true;
	l->max_segs = hb(f, H_SEGS) >= 0xf0u ? 128u : 1u + hb(f, H_SEGS) % 32u;
	l->max_seg_size = seg_sz[hb(f, H_SEGSZ) % 8u];
	l->max_blk_count = hb(f, H_BLKCNT) >= 0xc0u ? 65535u : 1u + hb(f, H_BLKCNT) % 64u;
	l->max_req_size = hb(f, H_REQSZ) >= 0xc0u ? (uint64_t)UINT32_MAX
						  : (1u + hb(f, H_REQSZ) % 64u) * 512ull;
	l->seg_boundary = hb(f, H_SEGB) & 0x80u ? (1ull << (12u + hb(f, H_SEGB) % 8u)) - 1u : 0;
	l->virt_boundary = hb(f, H_VIRTB) & 0x80u ? (1ull << (9u + hb(f, H_VIRTB) % 4u)) - 1u : 0;
	l->max_blk_size = blk_sz[hb(f, H_BLKSZ) % 4u];
	l->dma_align = 1;
}

static void make_host(struct fc *f)
{
	static const uint32_t fmax[8] = {0,         400000u,    25000000u,  50000000u,
					 52000000u, 100000000u, 200000000u, 208000000u};
	static const uint32_t finit[4] = {0, 400000u, 100000u, 50000000u};
	static const uint32_t scratch_len[8] = {0, 1, 2, 3, 4, 8, 16, 64};
	uint8_t no = hb(f, H_NOOPS);
	uint8_t cfgb = hb(f, H_CFG);
	uint32_t nscratch;

	f->persona = (enum persona)(hb(f, H_PERSONA) % P_COUNT);
	f->noops = no;
	memset(&f->caps, 0, sizeof(f->caps));
	f->caps.bus = (uint32_t)hb(f, H_BUS) | (uint32_t)hb(f, H_BUS + 1) << 8 |
		      (uint32_t)hb(f, H_BUS + 2) << 16;
	f->caps.f_max_hz = fmax[hb(f, H_FMAX) % 8u];
	if ((hb(f, H_LIMMODE) & 0x0cu) == 0x0cu)
		f->caps_err = fc_pick_err_((uint8_t)(hb(f, H_LIMMODE) >> 4));
	make_limits(f);
	if (no & NO_LIMITS)
		f->lim_sane = false; /* the card layer's own defaults apply */

	f->ops.request = h_request;
	f->ops.request_sync = h_request_sync;
	f->ops.set_ios = h_set_ios;
	f->ops.enable_sdio_irq = h_enable_sdio_irq;
	f->ops.init_card = (no & NO_INIT_CARD) ? NULL : h_init_card;
	f->ops.card_busy = (no & NO_BUSY) ? NULL : h_card_busy;
	f->ops.get_cd = (no & NO_CD) ? NULL : h_get_cd;
	f->ops.get_ro = (no & NO_RO) ? NULL : h_get_ro;
	f->ops.hw_reset = (no & NO_RESET) ? NULL : h_hw_reset;
	f->ops.execute_tuning = (no & NO_TUNING) ? NULL : h_execute_tuning;
	f->ops.get_caps = (no & NO_CAPS) ? NULL : h_get_caps;
	f->ops.get_limits = (no & NO_LIMITS) ? NULL : h_get_limits;

	f->regarena = malloc(MMCHAL_CARD_BUF_SIZE + 2u * GUARD);
	if (!f->regarena)
		abort();
	memset(f->regarena, GUARD_BYTE, MMCHAL_CARD_BUF_SIZE + 2u * GUARD);
	memset(&f->cfg, 0, sizeof(f->cfg));
	f->cfg.ops = &f->ops;
	f->cfg.ctx = f;
	f->cfg.buf = f->regarena + GUARD;
	f->cfg.buf_phys = 0x40000000u;
	nscratch = scratch_len[hb(f, H_SCRATCH) % 8u];
	if (nscratch) {
		f->scratch = calloc(nscratch, sizeof(*f->scratch));
		if (!f->scratch)
			abort();
		f->cfg.sg_scratch = f->scratch;
		f->cfg.sg_scratch_len = nscratch;
	}
	f->cfg.f_init_hz = finit[hb(f, H_FINIT) % 4u];
	f->cfg.cmd_timeout_ms = (uint32_t)hb(f, H_CMDTO) * 10u;
	f->cfg.op_cond_tries = (uint32_t)(cfgb >> 4) * 3u;
	f->cfg.busy_poll_tries = hb(f, H_BUSYTRIES);
	f->cfg.mmc_rca = (uint16_t)(hb(f, H_RCA) | hb(f, H_RCA + 1) << 8);
	f->cfg.bus_disable = (uint32_t)hb(f, H_BUSDIS) | (uint32_t)hb(f, H_BUSDIS + 1) << 8;
	if (cfgb & 1u) {
		f->cfg.delay_us = delay_us;
		f->cfg.delay_arg = f;
	}
	f->eff_bus = f->caps_err || (no & NO_CAPS) ? 0u : f->caps.bus & ~f->cfg.bus_disable;
	if (f->caps_err || (no & NO_CAPS))
		f->caps.f_max_hz = 0;
	fc_nice_init_regs_(f);
}

/* ------------------------------------------------------------ caller buffers */

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void cb_free(struct callbuf *cb)
{
	free(cb->arena);
	free(cb->sg);
	free(cb->snap);
	free(cb->written);
	memset(cb, 0, sizeof(*cb));
}

/* @blocks blocks in up to 8 entries cut as @seed says, each between guards. */
static void cb_make(struct callbuf *cb, uint32_t blocks, uint32_t seed, bool write)
{
	uint32_t s = seed * 2654435761u + 1u, lens[8], nsg = 1u + seed % 8u, n = 0;
	uint64_t left = (uint64_t)blocks * MMCHAL_CARD_BLKSZ, phys = 0x100000, off = 0;
	uint8_t *p;

	memset(cb, 0, sizeof(*cb));
	cb->total = left;
	while (n + 1u < nsg && left > 1u) {
		uint64_t max = left - 1u, len;

		if (rnd(&s) & 1u)
			len = MMCHAL_CARD_BLKSZ * (1u + rnd(&s) % 4u);
		else
			len = 1u + rnd(&s) % 1024u;
		if (len > max)
			len = max;
		lens[n++] = (uint32_t)len;
		left -= len;
	}
	lens[n++] = (uint32_t)left;
	cb->nsg = n;
	cb->arena_len = (size_t)cb->total + (n + 1u) * GUARD;
	cb->arena = malloc(cb->arena_len);
	cb->sg = malloc(n * sizeof(*cb->sg));
	cb->snap = malloc((size_t)cb->total);
	cb->written = calloc(1, (size_t)cb->total);
	if (!cb->arena || !cb->sg || !cb->snap || !cb->written)
		abort();
	memset(cb->arena, GUARD_BYTE, cb->arena_len);
	p = cb->arena + GUARD;
	for (uint32_t i = 0; i < n; i++) {
		switch (rnd(&s) % 4u) {
		case 0: /* right after the previous entry */
			break;
		case 1:
			phys = (uint64_t)(1u + rnd(&s) % 256u) << 12;
			break;
		case 2:
			phys = ((uint64_t)(1u + rnd(&s) % 256u) << 12) + rnd(&s) % 4096u;
			break;
		default: /* just below a 64 KiB boundary */
			phys = ((uint64_t)(1u + rnd(&s) % 16u) << 16) - rnd(&s) % 1024u;
			break;
		}
		cb->sg[i].cpu = p;
		cb->sg[i].phys = phys;
		cb->sg[i].len = lens[i];
		for (uint32_t k = 0; k < lens[i]; k++)
			p[k] = write ? (uint8_t)(rnd(&s)) : POISON;
		memcpy(cb->snap + off, p, lens[i]);
		off += lens[i];
		phys += lens[i];
		p += lens[i] + GUARD;
	}
}

/* Guards intact; a write's data untouched; a good read's data all delivered. */
static void cb_check(struct fc *f, const struct callbuf *cb, bool write, bool read_ok)
{
	const uint8_t *p = cb->arena;
	uint64_t off = 0;

	for (uint32_t i = 0; i <= cb->nsg; i++) {
		for (uint32_t k = 0; k < GUARD; k++)
			CHECK(f, p[k] == GUARD_BYTE);
		p += GUARD;
		if (i == cb->nsg)
			break;
		if (write)
			CHECK(f, memcmp(p, cb->snap + off, cb->sg[i].len) == 0);
		p += cb->sg[i].len;
		off += cb->sg[i].len;
	}
	if (read_ok) {
		for (uint64_t k = 0; k < cb->total; k++)
			CHECK(f, cb->written[k]);
	}
}

static void reg_guard_check(struct fc *f)
{
	for (uint32_t k = 0; k < GUARD; k++) {
		CHECK(f, f->regarena[k] == GUARD_BYTE);
		CHECK(f, f->regarena[GUARD + MMCHAL_CARD_BUF_SIZE + k] == GUARD_BYTE);
	}
}

/* ------------------------------------------------------------ calls */

static void call_begin(struct fc *f, struct io *io)
{
	f->host_errs = 0;
	f->requests = 0;
	f->cd_absent = false;
	f->io = io;
}

static bool in_set(int rc, uint32_t allowed)
{
	return rc == 0 || (err_bit(rc) & allowed) != 0;
}

#define B(e) err_bit(MMCHAL_##e)

/* The failure record matches what a call returned. */
static void check_err_record(struct fc *f, int rc)
{
	const struct mmchal_card_err *e = mmchal_card_last_error(&f->card);

	TRACE("call -> %d (err %d op %u)\n", rc, e->err, e->opcode);
	if (rc != 0)
		CHECK(f, e->err == rc);
	CHECK(f, e->opcode <= 63u || e->opcode == MMCHAL_CARD_NO_CMD);
}

static bool memory_card(const struct fc *f)
{
	return f->card.info.type == MMCHAL_CARD_SD || f->card.info.type == MMCHAL_CARD_MMC;
}

static void check_info(struct fc *f)
{
	const struct mmchal_card_info *i = mmchal_card_info(&f->card);
	enum mmchal_card_type t = i->type;

	CHECK(f, t == MMCHAL_CARD_SD || t == MMCHAL_CARD_MMC || t == MMCHAL_CARD_SDIO ||
			 t == MMCHAL_CARD_SD_COMBO);
	CHECK(f, f->card.ready);
	if (f->ops.init_card)
		CHECK(f, f->init_card_called && f->init_type == t);
	if (memory_card(f)) {
		CHECK(f, i->sectors > 0u);
		/* every block has an address the card's addressing mode can carry */
		CHECK(f, i->block_addr ? i->sectors <= (1ull << 32)
				       : i->sectors <= (1ull << 32) / MMCHAL_CARD_BLKSZ);
		CHECK(f, i->erase_unit >= 1u);
		CHECK(f, i->erased_byte == 0x00u || i->erased_byte == 0xffu);
		CHECK(f, i->rca != 0u);
		/* byte-addressed cards get CMD16(512) so that blocks are 512 bytes */
		CHECK(f, i->block_addr || f->cmd16_ok);
		if (f->ro_seen)
			CHECK(f, i->read_only);
	} else {
		CHECK(f, i->sectors == 0u);
		CHECK(f, i->rca != 0u);
	}
	CHECK(f, !i->cmd23 || (f->eff_bus & MMCHAL_BUS_CMD23));
	CHECK(f, !i->tuned || f->tuned);
	if (f->ios_ok) {
		CHECK(f, i->bus_width == f->ios.bus_width);
		CHECK(f, i->timing == f->ios.timing);
		CHECK(f, i->clock_hz == f->ios.clock_hz);
	}
}

static int do_init(struct fc *f)
{
	int rc;

	call_begin(f, NULL);
	f->removed_seen = f->removal_unsure = false;
	f->init_card_called = false;
	f->tuned = f->ro_seen = f->cmd16_ok = f->ios_ok = false;
	f->app = false;
	fc_nice_init_regs_(f);
	rc = mmchal_card_init(&f->card);
	CHECK(f, in_set(rc, B(EINVAL) | B(ENOMEDIUM) | B(ETIMEDOUT) | B(EIO) | B(EPROTO) |
				    B(ENOTSUP) | B(EILSEQ) | B(ERANGE) | B(EROFS) | f->host_errs));
	CHECK(f, rc != MMCHAL_EINVAL || (f->host_errs & B(EINVAL)));
	/* the card went away during init: init says so */
	if (f->removed_seen && !f->removal_unsure)
		CHECK(f, rc == MMCHAL_ENOMEDIUM);
	check_err_record(f, rc);
	reg_guard_check(f);
	if (rc == 0) {
		check_info(f);
		f->removed_seen = f->removal_unsure = false;
	} else {
		CHECK(f, !f->card.ready);
	}
	return rc;
}

/* A read past the capacity is refused and sends nothing. */
static void past_end(struct fc *f, uint64_t lba, uint32_t blocks)
{
	struct callbuf cb;
	struct io io = {.lba = lba, .blocks = blocks};
	bool ready;
	int rc;

	cb_make(&cb, blocks, (uint32_t)lba, false);
	io.cb = &cb;
	io.next_lba = lba;
	call_begin(f, &io);
	ready = f->card.ready;
	rc = mmchal_card_read(&f->card, lba, blocks, cb.sg, cb.nsg);
	CHECK(f, f->requests == 0u);
	/* no identified card (a failed init again) is as good as none */
	if (f->cd_absent || !ready || (f->removed_seen && !f->removal_unsure))
		CHECK(f, rc == MMCHAL_ENOMEDIUM);
	else if (!memory_card(f))
		CHECK(f, rc == MMCHAL_ENOTSUP || (rc == MMCHAL_ENOMEDIUM && f->removal_unsure));
	else if (!f->removal_unsure)
		CHECK(f, rc == MMCHAL_ERANGE);
	check_err_record(f, rc);
	cb_check(f, &cb, false, false);
	cb_free(&cb);
	f->io = NULL;
}

static void block_call(struct fc *f, const uint8_t *op)
{
	const struct mmchal_card_info *info = mmchal_card_info(&f->card);
	uint32_t kind = op[0] % 8u, blocks = 1u + op[4] % 24u;
	uint64_t sectors = info->sectors, lba;
	uint32_t seed = op[5] | (uint32_t)op[0] << 8;
	bool was_removed = f->removed_seen && !f->removal_unsure;
	struct callbuf cb;
	struct io io;
	int rc;

	if (kind == OP_PRESENT) {
		call_begin(f, NULL);
		rc = mmchal_card_check_present(&f->card);
		CHECK(f, rc == 0 || rc == MMCHAL_ENOMEDIUM);
		CHECK(f, rc == MMCHAL_ENOMEDIUM || !f->cd_absent);
		if (was_removed)
			CHECK(f, rc == MMCHAL_ENOMEDIUM);
		CHECK(f, f->requests == 0u);
		return;
	}
	if (kind == OP_REINIT) {
		(void)do_init(f);
		return;
	}
	if (kind == OP_ERASE || kind == OP_DISCARD)
		blocks = 1u + (uint32_t)op[4] * 3u;
	switch (op[1] % 4u) {
	case 0:
		lba = sectors ? (op[2] | (uint32_t)op[3] << 8) % sectors : 0;
		break;
	case 1:
		lba = sectors > blocks ? sectors - blocks : 0;
		break;
	case 2:
		lba = 0;
		break;
	default:
		lba = op[2] | (uint32_t)op[3] << 8;
		break;
	}
	if ((kind == OP_ERASE) && (op[1] & 4u) && info->erase_unit > 1u) {
		uint32_t u = info->erase_unit;

		lba -= lba % u;
		blocks = (blocks + u - 1u) / u * u;
	}
	if (kind == OP_PAST_END) {
		if (sectors)
			past_end(f, sectors - (op[2] & 1u), 1u + (op[2] & 1u) + op[4] % 4u);
		return;
	}

	memset(&io, 0, sizeof(io));
	io.write = kind == OP_WRITE;
	io.erase = kind == OP_ERASE || kind == OP_DISCARD;
	io.lba = lba;
	io.blocks = blocks;
	io.next_lba = lba;
	memset(&cb, 0, sizeof(cb));
	if (!io.erase) {
		cb_make(&cb, blocks, seed, io.write);
		io.cb = &cb;
	}
	call_begin(f, &io);
	if (kind == OP_BAD_ARGS) {
		switch (op[5] % 4u) {
		case 0:
			rc = mmchal_card_read(&f->card, lba, 0, cb.sg, cb.nsg);
			break;
		case 1: /* the lengths do not add up */
			rc = mmchal_card_write(&f->card, lba, blocks + 1u, cb.sg, cb.nsg);
			break;
		case 2:
			rc = mmchal_card_read(&f->card, lba, blocks, cb.sg, 0);
			break;
		default:
			rc = mmchal_card_erase(&f->card, lba, blocks,
					       (enum mmchal_erase_kind)(2 + op[2] % 8u));
			break;
		}
		CHECK(f, f->requests == 0u);
		CHECK(f, in_set(rc, B(EINVAL) | B(ERANGE) | B(ENOMEDIUM) | B(ENOTSUP) | B(EROFS)));
	} else if (io.erase) {
		rc = mmchal_card_erase(&f->card, lba, blocks,
				       kind == OP_ERASE ? MMCHAL_CARD_ERASE : MMCHAL_CARD_DISCARD);
		CHECK(f, in_set(rc, B(EROFS) | B(EINVAL) | B(ERANGE) | B(ENOTSUP) | B(ENOMEDIUM) |
					    B(EIO) | B(EILSEQ) | B(ETIMEDOUT) | f->host_errs));
	} else if (io.write) {
		rc = mmchal_card_write(&f->card, lba, blocks, cb.sg, cb.nsg);
		CHECK(f, in_set(rc, B(EROFS) | B(EINVAL) | B(ERANGE) | B(ENOTSUP) | B(ENOMEDIUM) |
					    B(EIO) | B(EILSEQ) | B(ETIMEDOUT) | f->host_errs));
	} else {
		rc = mmchal_card_read(&f->card, lba, blocks, cb.sg, cb.nsg);
		CHECK(f, in_set(rc, B(EINVAL) | B(ERANGE) | B(ENOTSUP) | B(ENOMEDIUM) | B(EIO) |
					    B(EILSEQ) | B(EROFS) | B(ETIMEDOUT) | f->host_errs));
	}
	check_err_record(f, rc);
	if (rc == 0 && kind != OP_BAD_ARGS)
		f->res.io_ok++;
	/* what the call could not have done */
	if (was_removed || f->cd_absent)
		CHECK(f, rc == MMCHAL_ENOMEDIUM && f->requests == 0u);
	if (!memory_card(f) && !f->removal_unsure)
		CHECK(f, f->requests == 0u && (rc == MMCHAL_ENOTSUP || rc == MMCHAL_ENOMEDIUM ||
					       rc == MMCHAL_EINVAL));
	if ((io.write || io.erase) && info->read_only && kind != OP_BAD_ARGS)
		CHECK(f, f->requests == 0u);
	if (rc == 0 && kind != OP_BAD_ARGS) {
		CHECK(f, io.erase || mmchal_card_last_error(&f->card)->bytes_done ==
					     (uint64_t)blocks * MMCHAL_CARD_BLKSZ);
		CHECK(f, io.erase || io.next_lba == lba + blocks);
	} else if (!io.erase) {
		CHECK(f, mmchal_card_last_error(&f->card)->bytes_done <=
				 (uint64_t)blocks * MMCHAL_CARD_BLKSZ);
	}
	reg_guard_check(f);
	if (io.cb)
		cb_check(f, &cb, io.write || kind == OP_BAD_ARGS, rc == 0 && kind == OP_READ);
	cb_free(&cb);
	f->io = NULL;
}

static void run_all(struct fc *f)
{
	struct mmchal_card_cfg bad;
	int rc;

	make_host(f);
	/* set-up: the documented refusals, then the real one */
	bad = f->cfg;
	bad.buf = NULL;
	CHECK(f, mmchal_card_setup(&f->card, &bad) == MMCHAL_EINVAL);
	rc = mmchal_card_setup(&f->card, &f->cfg);
	CHECK(f, rc == 0);
	if (rc)
		return;
	rc = do_init(f);
	f->res.init_rc = rc;
	f->res.type = mmchal_card_info(&f->card)->type;
	f->res.block_addr = mmchal_card_info(&f->card)->block_addr;
	if (rc != 0)
		return;
	if (memory_card(f)) {
		uint64_t sec = f->card.info.sectors;

		past_end(f, sec, 1);
		past_end(f, sec - 1u, 2);
		past_end(f, UINT64_MAX, 1);
	} else {
		past_end(f, 0, 1);
	}
	for (unsigned i = 0; i < NOPS; i++)
		block_call(f, f->hdr + H_OPS + i * OP_SIZE);
}

int fuzz_card_run(const uint8_t *data, size_t size, struct fuzz_card_result *res)
{
	static uint8_t hdr[HDR_SIZE];
	struct fc *f = calloc(1, sizeof(*f));
	int rc;

	if (!f)
		abort();
	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, data, size < HDR_SIZE ? size : HDR_SIZE);
	f->hdr = hdr;
	f->in = size > HDR_SIZE ? data + HDR_SIZE : NULL;
	f->in_n = size > HDR_SIZE ? size - HDR_SIZE : 0;
	f->res.init_rc = 1;
	if (setjmp(f->out) == 0)
		run_all(f);
	f->res.host_calls = f->calls;
	if (res)
		*res = f->res;
	rc = f->fail;
	free(f->regarena);
	free(f->scratch);
	free(f);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_card_run(data, size, NULL) != 0)
		abort();
	return 0;
}
