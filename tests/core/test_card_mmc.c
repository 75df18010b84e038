/*
 * eMMC identification in detail (src/core/card_mmc.c) over the fake card:
 * the CMD1 loop, each step stopping the sequence, the bus-width trial with
 * one EXT_CSD field read wrong at a time, the widths the card refuses, the
 * clock and timing choice by card type and host capability, the fallbacks
 * never driving a timing at the wrong clock, and an MMC 3.x card without
 * EXT_CSD.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "card_fake.h"
#include "core/card_priv.h"
#include "reg128.h"

#define SECTORS 2048u

static uint8_t image[SECTORS * 512u];
static uint8_t regbuf[MMCHAL_CARD_BUF_SIZE];
static struct fake fk;
static struct mmchal_card card;
static uint32_t ndelay_poll;

static void count_delay(void *arg, uint32_t us)
{
	(void)arg;
	if (us == 1000u && fk.nlog > 0u)
		ndelay_poll++;
}

static void start(void)
{
	struct mmchal_card_cfg cfg;

	fake_init(&fk, FAKE_MMC, image, SECTORS);
	fake_card_cfg(&fk, &cfg, regbuf);
	cfg.delay_us = count_delay;
	ndelay_poll = 0;
	assert_int_equal(mmchal_card_setup(&card, &cfg), 0);
}

static uint32_t last_op(void)
{
	return fk.log[fk.nlog - 1u];
}

/* Log index of the @n-th (from 0) command @op, or FAKE_LOG_LEN. */
static uint32_t nth(uint32_t op, uint32_t n)
{
	for (uint32_t i = 0; i < fk.nlog && i < FAKE_LOG_LEN; i++)
		if (fk.log[i] == op && n-- == 0u)
			return i;
	return FAKE_LOG_LEN;
}

/* No set_ios ever drove a timing faster than it allows. */
static void clocks_sane(void)
{
	for (uint32_t i = 0; i < fk.set_ios_calls && i < 32u; i++) {
		const struct mmchal_ios *io = &fk.ios_hist[i];

		if (io->timing == MMCHAL_TIMING_LEGACY)
			assert_true(io->clock_hz <= 26000000u);
		if (io->timing == MMCHAL_TIMING_MMC_HS || io->timing == MMCHAL_TIMING_MMC_DDR52)
			assert_true(io->clock_hz <= 52000000u);
		if (io->timing == MMCHAL_TIMING_MMC_HS400 || io->timing == MMCHAL_TIMING_MMC_HS200)
			assert_true(io->bus_width != MMCHAL_BUS_WIDTH_1);
	}
}

static void test_cmd1_tries_exact(void **state)
{
	(void)state;
	start();
	card.cfg.op_cond_tries = 3;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 1), 3);
	assert_int_equal(ndelay_poll, 2);
	assert_int_equal(card.info.ocr, 0x00ff8080u | OCR_BUSY | (2u << 29));
	start();
	card.cfg.op_cond_tries = 2;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(fake_count(&fk, 1), 2);
	assert_int_equal(card.err.opcode, 1);
	assert_int_equal(card.err.arg, 0x40ff8080u);
	assert_int_equal(last_op(), 1);
}

/* @op fails with EIO after @skip successes: init stops right there. */
static void stops_at(uint32_t op, uint32_t skip)
{
	start();
	fk.fail_op = op;
	fk.fail_skip = skip;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(last_op(), op);
	assert_false(card.ready);
}

static void test_each_step_stops(void **state)
{
	(void)state;
	stops_at(1, 0);
	stops_at(2, 0);
	stops_at(3, 0);
	stops_at(9, 0);
	stops_at(7, 0);
	stops_at(8, 1);
	/* a width trial that loses the card */
	start();
	fk.fail_op = 6;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(last_op(), 6);
	/* the set_ios after CMD7 (legacy clock) */
	start();
	fk.set_ios_fail_at = 4;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(last_op(), 7);
	/* the host refuses the type */
	start();
	fk.init_card_err = MMCHAL_EBUSY;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EBUSY);
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(last_op(), 1);
}

static void test_select_and_ext_csd_args(void **state)
{
	(void)state;
	start();
	card.cfg.mmc_rca = 7;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fk.log_arg[nth(2, 0)], 0);
	assert_int_equal(fk.log_arg[nth(3, 0)], 0x00070000u);
	assert_int_equal(fk.log_arg[nth(9, 0)], 0x00070000u);
	assert_int_equal(fk.log_arg[nth(7, 0)], 0x00070000u);
	assert_int_equal(fk.log_busy_ms[nth(7, 0)], 0);
	assert_int_equal(fk.log_arg[nth(8, 1)], 0);
	/* CMD6 busy time from GENERIC_CMD6_TIME (10 x 10 ms) */
	assert_int_equal(fk.log_busy_ms[nth(6, 0)], 100);
	assert_int_equal(card.err.err, 0);
}

static void test_csd_and_ext_csd_errors(void **state)
{
	(void)state;
	/* EXT_CSD claiming SEC_COUNT 0 */
	start();
	memset(&fk.ext_csd[EXT_CSD_SEC_COUNT], 0, 4);
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.opcode, 8);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(last_op(), 8);
}

static void test_width_trial_fields(void **state)
{
	static const uint32_t idx[] = {EXT_CSD_SEC_COUNT, EXT_CSD_SEC_COUNT + 3, EXT_CSD_CARD_TYPE,
				       EXT_CSD_REV, EXT_CSD_BUS_WIDTH};

	(void)state;
	for (uint32_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++) {
		start();
		fk.garble_idx = idx[i] + 1u;
		assert_int_equal(mmchal_card_init(&card), 0);
		assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
		assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_4);
		assert_int_equal(card.err.err, 0);
		/* 8 bits, back to 1 after the bad read, then 4 */
		assert_int_equal(fk.ios_hist[4].bus_width, MMCHAL_BUS_WIDTH_8);
		assert_int_equal(fk.ios_hist[5].bus_width, MMCHAL_BUS_WIDTH_1);
		assert_int_equal(fk.ios_hist[6].bus_width, MMCHAL_BUS_WIDTH_4);
		clocks_sane();
	}
	/* a byte that is not compared does not matter */
	start();
	fk.garble_idx = EXT_CSD_SEC_FEATURE + 1u;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_8);
}

static void test_refused_widths(void **state)
{
	(void)state;
	/* 8 refused: back to 1 bit on the host, then 4 */
	start();
	fk.refuse_widths = 1u << EXT_CSD_WIDTH_8;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(card.err.err, 0);
	/* power 3, legacy clock, then 4 bits: the refusal came before any set_ios */
	assert_int_equal(fk.ios_hist[4].bus_width, MMCHAL_BUS_WIDTH_4);
	/* 8 and 4 refused: the card is put back on one bit explicitly */
	start();
	fk.refuse_widths = (1u << EXT_CSD_WIDTH_8) | (1u << EXT_CSD_WIDTH_4);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(fk.ios.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(fk.log_arg[nth(6, 2)], (3u << 24) | (EXT_CSD_BUS_WIDTH << 16));
	assert_int_equal(fk.log[nth(6, 2) + 1u], 13);
	assert_int_equal(card.err.err, 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	/* a 4-bit host tries 4 only */
	start();
	fk.caps.bus &= ~MMCHAL_BUS_8_BIT;
	fk.refuse_widths = 1u << EXT_CSD_WIDTH_4;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 6), 3);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	/* a 1-bit host without HS: no CMD6 at all */
	start();
	fk.caps.bus = MMCHAL_BUS_CMD23;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 6), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 26000000u);
}

static void test_timing_choice(void **state)
{
	(void)state;
	/* an HS26-only card */
	start();
	fk.ext_csd[EXT_CSD_CARD_TYPE] = EXT_CSD_TYPE_HS26;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(card.info.clock_hz, 26000000u);
	/* a card without HS, a host without HS */
	start();
	fk.ext_csd[EXT_CSD_CARD_TYPE] = 0;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(fake_count(&fk, 6), 1);
	start();
	fk.caps.bus &= ~MMCHAL_BUS_MMC_HS;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 26000000u);
	/* an HS200 host, a card without HS200 */
	start();
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	fk.ext_csd[EXT_CSD_CARD_TYPE] = EXT_CSD_TYPE_HS26 | EXT_CSD_TYPE_HS52;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(fk.tuning_calls, 0);
	/* HS200 without HS400 on the card */
	start();
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	fk.ext_csd[EXT_CSD_CARD_TYPE] = EXT_CSD_TYPE_HS52 | EXT_CSD_TYPE_HS200_18;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS200);
	assert_true(card.info.tuned);
	/* DDR52 host, card without DDR */
	start();
	fk.caps.bus |= MMCHAL_BUS_MMC_DDR52;
	fk.ext_csd[EXT_CSD_CARD_TYPE] = EXT_CSD_TYPE_HS52;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_8);
}

static void test_ddr52_refused(void **state)
{
	(void)state;
	/* 4-bit DDR refused: back to 4-bit SDR */
	start();
	fk.caps.bus |= MMCHAL_BUS_MMC_DDR52;
	fk.caps.bus &= ~MMCHAL_BUS_8_BIT;
	fk.refuse_widths = 1u << EXT_CSD_WIDTH_4_DDR;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_4);
	assert_int_equal(last_op(), 13);
	assert_int_equal(card.err.err, 0);
	/* 8-bit DDR refused: back to 8-bit SDR */
	start();
	fk.caps.bus |= MMCHAL_BUS_MMC_DDR52;
	fk.refuse_widths = 1u << EXT_CSD_WIDTH_8_DDR;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_8);
	/* DDR52 on the card and host: 8-bit DDR */
	start();
	fk.caps.bus |= MMCHAL_BUS_MMC_DDR52;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_DDR52);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_8_DDR);
	assert_int_equal(fk.ios.timing, MMCHAL_TIMING_MMC_DDR52);
	/* the card goes away during the DDR switch */
	start();
	fk.caps.bus |= MMCHAL_BUS_MMC_DDR52;
	fk.fail_op = 6;
	fk.fail_skip = 2;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(last_op(), 6);
}

static void test_hs_fallbacks_keep_clocks_sane(void **state)
{
	(void)state;
	/* HS400 refused at the last step */
	start();
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	fk.refuse_timing = EXT_CSD_TIMING_HS400;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_false(card.info.tuned);
	clocks_sane();
	/* HS200 tuning fails */
	start();
	fk.caps.bus |= MMCHAL_BUS_HS200;
	fk.tuning_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(card.info.clock_hz, 52000000u);
	assert_false(card.info.tuned);
	assert_int_equal(card.err.err, 0);
	clocks_sane();
	/* a host without tuning: HS200 untuned */
	start();
	fk.caps.bus |= MMCHAL_BUS_HS200;
	fk.tuning_err = MMCHAL_ENOTSUP;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS200);
	assert_false(card.info.tuned);
	/* tuning finds the card gone */
	start();
	fk.caps.bus |= MMCHAL_BUS_HS200;
	fk.tuning_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.opcode, 21);
	/* HS refused on a plain HS card: legacy timing at the legacy clock */
	start();
	fk.refuse_timing = EXT_CSD_TIMING_HS;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 26000000u);
	assert_int_equal(card.err.err, 0);
	clocks_sane();
	/* ... and the set_ios of that fallback fails */
	start();
	fk.refuse_timing = EXT_CSD_TIMING_HS;
	fk.set_ios_fail_at = 7;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	/* the set_ios of HS fails */
	start();
	fk.set_ios_fail_at = 6;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(last_op(), 6);
}

static void test_mmc3_card(void **state)
{
	(void)state;
	start();
	reg128_put(fk.csd, 122, 4, 3); /* SPEC_VERS 3: no EXT_CSD */
	reg128_put(fk.csd, 12, 1, 1);  /* TMP_WRITE_PROTECT */
	reg128_put(fk.csd, 96, 8, 0x2a);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 8), 1);
	assert_int_equal(card.info.cid.year, 2006);
	assert_string_equal(card.info.cid.pnm, "FEMMC1");
	assert_int_equal(card.info.sectors, 4096u * 512u);
	assert_int_equal(card.info.erase_unit, 16);
	assert_int_equal(card.info.erased_byte, 0);
	assert_true(card.info.read_only);
	assert_true(card.info.cmd23);
	assert_int_equal(card.info.clock_hz, 20000000u);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	/* the write-protect switch */
	start();
	fk.ro_switch = true;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_true(card.info.read_only);
	start();
	reg128_put(fk.csd, 13, 1, 1);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_true(card.info.read_only);
	start();
	reg128_put(fk.csd, 122, 4, 2);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_false(card.info.cmd23);
	assert_false(card.info.read_only);
	/* TRAN_SPEED above 26 MHz is capped */
	start();
	reg128_put(fk.csd, 96, 8, 0x5a);
	fk.caps.bus = 0;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.clock_hz, 26000000u);
	start();
	reg128_put(fk.csd, 96, 8, 0x00);
	fk.caps.bus = 0;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.clock_hz, 26000000u);
}

/* After init the card's EXT_CSD, the host's bus and the card object agree. */
static void agree(void)
{
	static const uint8_t timing_val[] = {
		[MMCHAL_TIMING_LEGACY] = 0,    [MMCHAL_TIMING_MMC_HS] = 1,
		[MMCHAL_TIMING_MMC_DDR52] = 1, [MMCHAL_TIMING_MMC_HS200] = 2,
		[MMCHAL_TIMING_MMC_HS400] = 3,
	};
	bool ddr = card.info.timing == MMCHAL_TIMING_MMC_DDR52 ||
		   card.info.timing == MMCHAL_TIMING_MMC_HS400;
	uint8_t w = card.info.bus_width == MMCHAL_BUS_WIDTH_8   ? (ddr ? 6 : 2)
		    : card.info.bus_width == MMCHAL_BUS_WIDTH_4 ? (ddr ? 5 : 1)
								: 0;
	struct mmchal_sg sg = {.cpu = regbuf, .phys = 0, .len = 512};

	assert_int_equal(fk.ios.timing, card.info.timing);
	assert_int_equal(fk.ios.bus_width, card.info.bus_width);
	assert_int_equal(fk.ios.clock_hz, card.info.clock_hz);
	assert_true(card.info.timing < sizeof(timing_val));
	assert_int_equal(fk.ext_csd[EXT_CSD_HS_TIMING], timing_val[card.info.timing]);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], w);
	assert_int_equal(card.err.err, 0);
	clocks_sane();
	assert_int_equal(mmchal_card_read(&card, 5, 1, &sg, 1), 0);
	assert_memory_equal(regbuf, &image[5 * 512], 512);
}

static const uint32_t sweep_bus[] = {
	MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS | MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400,
	MMCHAL_BUS_4_BIT | MMCHAL_BUS_MMC_HS | MMCHAL_BUS_MMC_DDR52,
	MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS | MMCHAL_BUS_MMC_DDR52,
	MMCHAL_BUS_4_BIT | MMCHAL_BUS_MMC_HS | MMCHAL_BUS_HS200,
};

/* One fault anywhere in the bus set-up: init fails with it, or the bus it
   falls back to works and every party agrees on it. */
static void sweep(uint32_t op, int err)
{
	for (uint32_t b = 0; b < sizeof(sweep_bus) / sizeof(sweep_bus[0]); b++) {
		for (uint32_t skip = 0; skip < 24u; skip++) {
			int rc;

			start();
			fk.caps.bus = sweep_bus[b];
			if (op == 0u) {
				fk.set_ios_fail_at = 5u + skip;
				fk.set_ios_fail_err = err;
			} else {
				fk.fail_op = op;
				fk.fail_skip = skip;
				fk.fail_times = 1;
				fk.fail_err = err;
			}
			rc = mmchal_card_init(&card);
			if (op != 0u && fk.fail_times) {
				/* past the last such command: no fault happened */
				assert_int_equal(rc, 0);
				agree();
				continue;
			}
			if (op == 0u && fk.set_ios_calls < fk.set_ios_fail_at) {
				assert_int_equal(rc, 0);
				agree();
				continue;
			}
			if (err == MMCHAL_ENOMEDIUM) {
				assert_int_equal(rc, MMCHAL_ENOMEDIUM);
				assert_false(card.ready);
				/* nothing is sent once the removal is known */
				if (op != 0u)
					assert_int_equal(last_op(), op);
				continue;
			}
			if (rc == 0)
				agree();
			else
				assert_int_equal(rc, err);
		}
	}
}

static void test_fault_sweep(void **state)
{
	(void)state;
	/* a host whose failing set_ios still changed the bus */
	for (uint32_t at = 5; at < 20u; at++) {
		for (uint32_t b = 0; b < sizeof(sweep_bus) / sizeof(sweep_bus[0]); b++) {
			start();
			fk.caps.bus = sweep_bus[b];
			fk.set_ios_fail_at = at;
			fk.set_ios_fail_applies = true;
			if (mmchal_card_init(&card) == 0)
				agree();
		}
	}
	sweep(6, MMCHAL_EIO);
	sweep(13, MMCHAL_EIO);
	sweep(0, MMCHAL_EIO);
	sweep(6, MMCHAL_ENOMEDIUM);
	sweep(13, MMCHAL_ENOMEDIUM);
	sweep(0, MMCHAL_ENOMEDIUM);
}

static void test_byte_addressed(void **state)
{
	struct mmchal_sg sg = {.cpu = regbuf, .phys = 0, .len = 512};

	(void)state;
	start();
	fk.mmc_byte_mode = true;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_false(card.info.block_addr);
	/* the CSD size, not SEC_COUNT, below 2 GB */
	assert_int_equal(card.info.sectors, 4096u * 512u);
	assert_int_equal(fk.log_arg[nth(16, 0)], 512);
	fk.nlog = 0;
	assert_int_equal(mmchal_card_read(&card, 3, 1, &sg, 1), 0);
	assert_int_equal(fk.log_arg[0], 3 * 512);
	assert_memory_equal(regbuf, &image[3 * 512], 512);
	/* the card goes away during HS200: identification stops there, no
	   CMD16 follows */
	start();
	fk.mmc_byte_mode = true;
	fk.caps.bus |= MMCHAL_BUS_HS200;
	fk.tuning_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.opcode, 21);
	assert_int_equal(nth(16, 0), FAKE_LOG_LEN);
	/* CMD16 refused */
	start();
	fk.mmc_byte_mode = true;
	fk.pend_op = 16;
	fk.pend_bits = R1_BLOCK_LEN_ERROR;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EILSEQ);
	assert_int_equal(card.err.opcode, 16);
	assert_int_equal(card.err.arg, 512);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status,
			 (CARD_STATE_TRAN << 9) | R1_READY_FOR_DATA | R1_BLOCK_LEN_ERROR);
	start();
	fk.mmc_byte_mode = true;
	fk.fail_op = 16;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, 16);
	/* sector mode with EXT_CSD_REV 1: SEC_COUNT is not used */
	start();
	fk.ext_csd[EXT_CSD_REV] = 1;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.sectors, 4096u * 512u);
	/* ... with REV 2 it is */
	start();
	fk.ext_csd[EXT_CSD_REV] = 2;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.sectors, SECTORS);
	/* erased blocks read 0xff when ERASED_MEM_CONT says so */
	start();
	fk.ext_csd[EXT_CSD_ERASED_MEM_CONT] = 1;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.erased_byte, 0xff);
	/* CMD16 failed by the host with damaged status bits: the host's error */
	start();
	fk.mmc_byte_mode = true;
	fk.fail_op = 16;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	fk.pend_op = 16;
	fk.pend_bits = R1_OUT_OF_RANGE;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(card.err.err, MMCHAL_EIO);
}

/* The exact selection sequences: commands from the first CMD6 on, and
   each set_ios from the first after CMD7. */
struct step {
	uint32_t op;
	uint32_t arg;
};

static void ops_from_first_cmd6(const struct step *want, uint32_t n)
{
	uint32_t i0 = nth(6, 0);

	assert_true(i0 + n <= fk.nlog);
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(fk.log[i0 + i], want[i].op);
		if (want[i].op == 6u)
			assert_int_equal(fk.log_arg[i0 + i], want[i].arg);
	}
	assert_int_equal(fk.nlog, i0 + n);
}

static void ios_from(uint32_t from, const enum mmchal_timing *t, const uint32_t *hz,
		     const enum mmchal_bus_width *w, uint32_t n)
{
	assert_int_equal(fk.set_ios_calls, from + n);
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(fk.ios_hist[from + i].timing, t[i]);
		assert_int_equal(fk.ios_hist[from + i].clock_hz, hz[i]);
		assert_int_equal(fk.ios_hist[from + i].bus_width, w[i]);
	}
}

#define SW(i, v)                                                             \
	{                                                                    \
		6, (3u << 24) | ((uint32_t)(i) << 16) | ((uint32_t)(v) << 8) \
	}

static void test_hs400_sequence(void **state)
{
	static const struct step ok[] = {
		SW(183, 2), {13, 0},    {8, 0},  SW(185, 2), {13, 0}, SW(185, 1),
		{13, 0},    SW(183, 6), {13, 0}, SW(185, 3), {13, 0},
	};
	static const enum mmchal_timing t[] = {
		MMCHAL_TIMING_LEGACY, MMCHAL_TIMING_MMC_HS200, MMCHAL_TIMING_MMC_HS,
		MMCHAL_TIMING_MMC_HS, MMCHAL_TIMING_MMC_HS400,
	};
	static const uint32_t hz[] = {26000000u, 200000000u, 52000000u, 52000000u, 200000000u};
	static const enum mmchal_bus_width w[] = {MMCHAL_BUS_WIDTH_8, MMCHAL_BUS_WIDTH_8,
						  MMCHAL_BUS_WIDTH_8, MMCHAL_BUS_WIDTH_8,
						  MMCHAL_BUS_WIDTH_8};
	/* HS400 refused at the end: HS at 52 MHz, HS again, 8-bit SDR */
	static const struct step refused[] = {
		SW(183, 2), {13, 0},    {8, 0},     SW(185, 2), {13, 0},
		SW(185, 1), {13, 0},    SW(183, 6), {13, 0},    SW(185, 3),
		{13, 0},    SW(185, 1), {13, 0},    SW(183, 2), {13, 0},
	};
	static const enum mmchal_timing rt[] = {
		MMCHAL_TIMING_LEGACY, MMCHAL_TIMING_MMC_HS200, MMCHAL_TIMING_MMC_HS,
		MMCHAL_TIMING_MMC_HS, MMCHAL_TIMING_MMC_HS400, MMCHAL_TIMING_MMC_HS,
		MMCHAL_TIMING_MMC_HS,
	};
	static const uint32_t rhz[] = {26000000u,  200000000u, 52000000u, 52000000u,
				       200000000u, 52000000u,  52000000u};
	static const enum mmchal_bus_width rw[] = {
		MMCHAL_BUS_WIDTH_8, MMCHAL_BUS_WIDTH_8, MMCHAL_BUS_WIDTH_8, MMCHAL_BUS_WIDTH_8,
		MMCHAL_BUS_WIDTH_8, MMCHAL_BUS_WIDTH_8, MMCHAL_BUS_WIDTH_8,
	};

	(void)state;
	start();
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS400);
	ops_from_first_cmd6(ok, sizeof(ok) / sizeof(ok[0]));
	ios_from(4, t, hz, w, sizeof(t) / sizeof(t[0]));

	start();
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	fk.refuse_timing = EXT_CSD_TIMING_HS400;
	assert_int_equal(mmchal_card_init(&card), 0);
	ops_from_first_cmd6(refused, sizeof(refused) / sizeof(refused[0]));
	ios_from(4, rt, rhz, rw, sizeof(rt) / sizeof(rt[0]));
}

static void test_double_faults(void **state)
{
	(void)state;
	/* tuning fails, then the set_ios of the way back to HS */
	start();
	fk.caps.bus |= MMCHAL_BUS_HS200;
	fk.tuning_err = MMCHAL_EIO;
	fk.set_ios_fail_at = 7;
	fk.set_ios_fail_err = MMCHAL_EBUSY;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EBUSY);
	assert_int_equal(fk.set_ios_calls, 7);
	/* 8-bit DDR refused, then the switch back to 8-bit SDR times out */
	start();
	fk.caps.bus |= MMCHAL_BUS_MMC_DDR52;
	fk.refuse_widths = 1u << EXT_CSD_WIDTH_8_DDR;
	fk.fail_op = 6;
	fk.fail_skip = 3;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(last_op(), 6);
	/* both widths refused, then the switch back to 1 bit fails */
	start();
	fk.refuse_widths = (1u << EXT_CSD_WIDTH_8) | (1u << EXT_CSD_WIDTH_4);
	fk.fail_op = 6;
	fk.fail_skip = 2;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(last_op(), 6);
	assert_int_equal(fake_count(&fk, 6), 3);
	/* HS400 refused, then the set_ios of the way back to HS fails */
	start();
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	fk.refuse_timing = EXT_CSD_TIMING_HS400;
	fk.set_ios_fail_at = 10;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(fk.set_ios_calls, 10);
	/* tuning reports the card gone: no argument */
	start();
	fk.caps.bus |= MMCHAL_BUS_HS200;
	fk.tuning_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.opcode, 21);
	assert_int_equal(card.err.arg, 0);
	/* a host without CMD23 */
	start();
	fk.caps.bus &= ~MMCHAL_BUS_CMD23;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_false(card.info.cmd23);
	/* READ_BL_LEN 8 in the CSD */
	start();
	reg128_put(fk.csd, 80, 4, 8);
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.opcode, 9);
	assert_int_equal(card.err.arg, 0x00010000u);
	assert_int_equal(last_op(), 9);
}

/* Both wide buses refused on a host without HS: the card is put back on one
   bit with CMD6 and CMD13, and that is the last step. The bus stays at
   legacy timing, the set_ios calls are those of the power-up, the legacy
   clock and the two width trials (8 bits and back, 4 bits and back). */
static void test_width_1_fallback_is_last_step(void **state)
{
	(void)state;
	start();
	fk.caps.bus &= ~MMCHAL_BUS_MMC_HS;
	fk.refuse_widths = (1u << EXT_CSD_WIDTH_8) | (1u << EXT_CSD_WIDTH_4);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 26000000u);
	assert_int_equal(fk.ios.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(fk.ios.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(fake_count(&fk, 6), 3);
	assert_int_equal(fk.log_arg[nth(6, 2)], (3u << 24) | (EXT_CSD_BUS_WIDTH << 16));
	assert_int_equal(nth(6, 2) + 2u, fk.nlog);
	assert_int_equal(last_op(), 13);
	/* power off, power up, identification clock, legacy clock: the widths
	   were refused before any set_ios of theirs */
	assert_int_equal(fk.set_ios_calls, 4);
	assert_int_equal(card.err.err, 0);
}

/* Only HS200 moves the signalling to 1.8 V: on a 1.8 V capable host an HS
   card (no HS200 in CARD_TYPE) stays at 3.3 V in every set_ios, and so
   does a DDR52 card. */
static void test_hs_keeps_3v3_on_1v8_host(void **state)
{
	(void)state;
	start();
	fk.caps.bus |= MMCHAL_BUS_1_8V;
	fk.ext_csd[EXT_CSD_CARD_TYPE] = EXT_CSD_TYPE_HS26 | EXT_CSD_TYPE_HS52;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_true(fk.set_ios_calls <= 32u);
	for (uint32_t i = 0; i < fk.set_ios_calls; i++)
		assert_int_equal(fk.ios_hist[i].signal_voltage, MMCHAL_SIGNAL_330);
	assert_int_equal(fk.ios.signal_voltage, MMCHAL_SIGNAL_330);

	start();
	fk.caps.bus |= MMCHAL_BUS_1_8V | MMCHAL_BUS_MMC_DDR52;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_DDR52);
	assert_int_equal(fk.ios.signal_voltage, MMCHAL_SIGNAL_330);

	/* HS200 on the same host: 1.8 V */
	start();
	fk.caps.bus |= MMCHAL_BUS_1_8V | MMCHAL_BUS_HS200;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS200);
	assert_int_equal(fk.ios.signal_voltage, MMCHAL_SIGNAL_180);
}

/* The card goes away at the last CMD6 of the HS400 switch (HS_TIMING = 3) on
   a byte-addressed eMMC: init fails with MMCHAL_ENOMEDIUM, names that CMD6,
   and sends nothing after it (no CMD16). */
static void test_removed_during_hs400_switch(void **state)
{
	(void)state;
	start();
	fk.mmc_byte_mode = true;
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	fk.fail_op = 6;
	fk.fail_skip = 4;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.err, MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.opcode, 6);
	assert_int_equal(card.err.arg,
			 (3u << 24) | (EXT_CSD_HS_TIMING << 16) | (EXT_CSD_TIMING_HS400 << 8));
	assert_int_equal(fake_count(&fk, 6), 5);
	assert_int_equal(last_op(), 6);
	assert_int_equal(nth(16, 0), FAKE_LOG_LEN);
	assert_true(card.removed);
	assert_false(card.ready);
	assert_int_equal(card.info.type, MMCHAL_CARD_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmd1_tries_exact),
		cmocka_unit_test(test_each_step_stops),
		cmocka_unit_test(test_select_and_ext_csd_args),
		cmocka_unit_test(test_csd_and_ext_csd_errors),
		cmocka_unit_test(test_width_trial_fields),
		cmocka_unit_test(test_refused_widths),
		cmocka_unit_test(test_timing_choice),
		cmocka_unit_test(test_ddr52_refused),
		cmocka_unit_test(test_hs_fallbacks_keep_clocks_sane),
		cmocka_unit_test(test_mmc3_card),
		cmocka_unit_test(test_fault_sweep),
		cmocka_unit_test(test_byte_addressed),
		cmocka_unit_test(test_hs400_sequence),
		cmocka_unit_test(test_double_faults),
		cmocka_unit_test(test_width_1_fallback_is_last_step),
		cmocka_unit_test(test_hs_keeps_3v3_on_1v8_host),
		cmocka_unit_test(test_removed_during_hs400_switch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
