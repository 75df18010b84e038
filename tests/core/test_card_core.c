/*
 * The card layer's entry points (src/core/card_core.c) over the fake host:
 * set-up of a dirty object, the power-up sequence, card-type detection from
 * the CMD8 and CMD5 answers, removal at each detection step, the host ops
 * that fail or are missing, and what a failed init leaves behind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "card_fake.h"
#include "core/card_priv.h"

#define SECTORS 2048u

static uint8_t image[SECTORS * 512u];
static uint8_t regbuf[MMCHAL_CARD_BUF_SIZE];
static struct fake fk;
static struct mmchal_card card;
static struct mmchal_host_ops ops_copy;
static uint32_t ndelay;
static uint32_t delay_us_at[8], delay_ios_at[8], delay_log_at[8];

static void log_delay(void *arg, uint32_t us)
{
	(void)arg;
	if (ndelay < 8u) {
		delay_us_at[ndelay] = us;
		delay_ios_at[ndelay] = fk.set_ios_calls;
		delay_log_at[ndelay] = fk.nlog;
	}
	ndelay++;
}

static void start(enum fake_kind kind)
{
	struct mmchal_card_cfg cfg;

	fake_init(&fk, kind, image, SECTORS);
	fake_card_cfg(&fk, &cfg, regbuf);
	cfg.delay_us = log_delay;
	ndelay = 0;
	assert_int_equal(mmchal_card_setup(&card, &cfg), 0);
}

static void test_setup_clears_everything(void **state)
{
	struct mmchal_card_cfg cfg;

	(void)state;
	fake_init(&fk, FAKE_SDHC, image, SECTORS);
	fake_card_cfg(&fk, &cfg, regbuf);
	memset(&card, 0xa5, sizeof(card));
	assert_int_equal(mmchal_card_setup(&card, &cfg), 0);
	assert_false(card.ready);
	assert_false(card.removed);
	assert_int_equal(card.err.err, 0);
	assert_int_equal(card.info.type, MMCHAL_CARD_UNKNOWN);
	assert_int_equal(card.ios.clock_hz, 0);
	assert_ptr_equal(card.cfg.sg_scratch, card.sg_inline);
	assert_int_equal(card.cfg.sg_scratch_len, MMCHAL_CARD_SG_INLINE);
}

static void test_not_set_up(void **state)
{
	(void)state;
	/* half-filled objects are refused, never driven */
	fake_init(&fk, FAKE_SDHC, image, SECTORS);
	memset(&card, 0, sizeof(card));
	card.cfg.ops = &fake_ops;
	card.cfg.ctx = &fk;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_check_present(&card), MMCHAL_EINVAL);
	card.cfg.buf = regbuf;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_check_present(&card), MMCHAL_EINVAL);
	card.cfg.ops = NULL;
	card.cfg.sg_scratch = card.sg_inline;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_check_present(NULL), MMCHAL_EINVAL);
	assert_int_equal(fk.requests, 0);
	assert_int_equal(fk.set_ios_calls, 0);
}

static void test_check_present(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_check_present(&card), 0);
	assert_true(card.ready);
	fk.cd_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_check_present(&card), MMCHAL_ENOMEDIUM);
	assert_false(card.ready);
	assert_true(card.removed);
	/* present again: still removed until init */
	fk.cd_err = 0;
	assert_int_equal(mmchal_card_check_present(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_card_init(&card), 0);
	/* a get_cd error other than "no medium" changes nothing */
	fk.cd_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_check_present(&card), 0);
	assert_true(card.ready);
	fk.cd_err = 0;
	fk.present = false;
	assert_int_equal(mmchal_card_check_present(&card), MMCHAL_ENOMEDIUM);
	assert_false(card.ready);

	/* a non-removable slot never asks get_cd */
	start(FAKE_SDHC);
	fk.caps.bus |= MMCHAL_BUS_NONREMOVABLE;
	assert_int_equal(mmchal_card_init(&card), 0);
	fk.present = false;
	assert_int_equal(mmchal_card_check_present(&card), 0);
	card.removed = true;
	assert_int_equal(mmchal_card_check_present(&card), MMCHAL_ENOMEDIUM);
}

static void test_power_up_sequence(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	/* leave the bus in a fast state, then init again from scratch */
	assert_int_equal(mmchal_card_init(&card), 0);
	card.ios.signal_voltage = MMCHAL_SIGNAL_180;
	fk.set_ios_calls = 0;
	fk.nlog = 0;
	ndelay = 0;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fk.ios_hist[0].power_mode, MMCHAL_POWER_OFF);
	assert_int_equal(fk.ios_hist[0].clock_hz, 0);
	assert_int_equal(fk.ios_hist[0].bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(fk.ios_hist[0].timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(fk.ios_hist[0].signal_voltage, MMCHAL_SIGNAL_330);
	assert_int_equal(fk.ios_hist[1].power_mode, MMCHAL_POWER_UP);
	assert_int_equal(fk.ios_hist[1].clock_hz, 0);
	assert_int_equal(fk.ios_hist[2].power_mode, MMCHAL_POWER_ON);
	assert_int_equal(fk.ios_hist[2].clock_hz, 400000u);
	assert_int_equal(fk.ios_hist[2].timing, MMCHAL_TIMING_LEGACY);
	/* 1 ms of power before the clock, 1 ms of clock before CMD0 */
	assert_true(ndelay >= 2u);
	assert_int_equal(delay_us_at[0], 1000);
	assert_int_equal(delay_ios_at[0], 2);
	assert_int_equal(delay_log_at[0], 0);
	assert_int_equal(delay_us_at[1], 1000);
	assert_int_equal(delay_ios_at[1], 3);
	assert_int_equal(delay_log_at[1], 0);
	/* CMD0 twice with argument 0 */
	assert_int_equal(fk.log[0], 0);
	assert_int_equal(fk.log[1], 0);
	assert_int_equal(fk.log_arg[0], 0);
	assert_int_equal(fk.log_arg[1], 0);

	/* the caller's identification clock, capped by the host */
	start(FAKE_SDHC);
	card.cfg.f_init_hz = 300000u;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fk.ios_hist[2].clock_hz, 300000u);
	start(FAKE_SDHC);
	fk.caps.f_max_hz = 200000u;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fk.ios_hist[2].clock_hz, 200000u);
}

static void test_power_up_failures(void **state)
{
	(void)state;
	for (uint32_t at = 1; at <= 3; at++) {
		start(FAKE_SDHC);
		fk.set_ios_fail_at = at;
		assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
		assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
		assert_int_equal(fk.set_ios_calls, at);
		assert_int_equal(fk.requests, 0);
		assert_false(card.ready);
	}
	/* nothing answers at all: the identification clock was requested */
	start(FAKE_SDHC);
	fk.fail_op = 0;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.info.clock_hz, 400000u);
}

static void test_cmd8_echo(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	fk.if_cond_xor = 0x001;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.err, MMCHAL_EPROTO);
	assert_int_equal(card.err.opcode, 8);
	assert_int_equal(card.err.arg, 0x1aa);
	assert_int_equal(fake_count(&fk, 5), 0);
	start(FAKE_SDHC);
	fk.if_cond_xor = 0x100; /* the voltage nibble */
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	/* bits above the echo are not compared */
	start(FAKE_SDHC);
	fk.if_cond_xor = 0x1000;
	assert_int_equal(mmchal_card_init(&card), 0);
}

static void test_cmd5_answers(void **state)
{
	(void)state;
	/* a memory card that answers CMD5 with memory and no functions */
	start(FAKE_SDHC);
	fk.mem_r4 = (1u << 27) | OCR_VDD_27_36;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.type, MMCHAL_CARD_SD);
	assert_int_equal(fake_count(&fk, 5), 1);
	assert_int_equal(card.err.err, 0);
	/* an SDIO card with no functions and no memory is still SDIO */
	start(FAKE_SDIO);
	fk.sdio_ocr = OCR_VDD_27_36;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.type, MMCHAL_CARD_SDIO);
	assert_int_equal(card.info.sdio.nfuncs, 0);
	/* one function and memory: a combo card */
	start(FAKE_SDIO);
	fk.sdio_ocr = (1u << 28) | (1u << 27) | OCR_VDD_27_36;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.type, MMCHAL_CARD_SD_COMBO);
	/* seven functions, no memory */
	start(FAKE_SDIO);
	fk.sdio_ocr = (7u << 28) | OCR_VDD_27_36;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO); /* FBR 3 has no CIS */
	assert_int_equal(card.info.sdio.nfuncs, 7);
	assert_int_equal(card.info.type, MMCHAL_CARD_UNKNOWN);
	/* the SDIO failure names its own step, not the silent CMD8 */
	start(FAKE_SDIO);
	fk.fail_op = 3;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, 3);
}

static void test_removal_during_detection(void **state)
{
	(void)state;
	/* gone at CMD8: nothing more is sent */
	start(FAKE_SDHC);
	fk.remove_at_op = 8;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.opcode, 8);
	assert_int_equal(fk.nlog, 3);
	assert_true(card.removed);
	/* gone at CMD5 (after a silent CMD8): the record names CMD5 */
	start(FAKE_MMC);
	fk.remove_at_op = 5;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.err, MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.opcode, 5);
	assert_int_equal(fk.nlog, 4);
	/* gone at CMD55 on an eMMC: no CMD0 and CMD1 afterwards */
	start(FAKE_MMC);
	fk.remove_at_op = 55;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.opcode, 55);
	assert_int_equal(fk.nlog, 5);
	assert_int_equal(fake_count(&fk, 1), 0);
	/* gone at the CMD0 before CMD1 */
	start(FAKE_MMC);
	fk.fail_op = 0;
	fk.fail_skip = 2;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(fake_count(&fk, 1), 0);
}

static void test_init_ops_fail_or_missing(void **state)
{
	(void)state;
	/* get_caps fails */
	start(FAKE_SDHC);
	fk.caps_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(fk.set_ios_calls, 0);
	start(FAKE_SDHC);
	fk.caps_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_true(card.removed);
	/* get_caps missing: no capabilities, even after an init that had them */
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	ops_copy = fake_ops;
	ops_copy.get_caps = NULL;
	card.cfg.ops = &ops_copy;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.caps.bus, 0);
	assert_int_equal(card.caps.f_max_hz, 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	/* get_cd says no card */
	start(FAKE_SDHC);
	card.err.arg = 9;
	fk.present = false;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_true(card.removed);
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(card.err.arg, 0);
	fk.present = true;
	fk.cd_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	/* get_cd missing or failing otherwise: the card is assumed present */
	fk.cd_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_false(card.removed);
	/* get_limits fails */
	start(FAKE_SDHC);
	fk.limits_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(card.info.type, MMCHAL_CARD_UNKNOWN);
	assert_int_equal(fake_count(&fk, 2), 0);
	/* init_card not there */
	start(FAKE_SDHC);
	fk.init_card_err = MMCHAL_ENOTSUP;
	assert_int_equal(mmchal_card_init(&card), 0);
}

static void test_limits_without_op(void **state)
{
	(void)state;
	start(FAKE_MMC);
	/* an init with the op first leaves fields the fallback does not set */
	fk.limits.seg_boundary = 0xffff;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.limits.seg_boundary, 0xffff);
	fk.no_limits_op = true;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.limits.max_segs, MMCHAL_CARD_SG_INLINE);
	assert_int_equal(card.limits.max_blk_count, 65535);
	assert_int_equal(card.limits.max_blk_size, 512);
	assert_int_equal(card.limits.max_req_size, 65535u * 512u);
	assert_int_equal(card.limits.max_seg_size, 0);
	assert_int_equal(card.limits.seg_boundary, 0);
	assert_int_equal(card.limits.card, MMCHAL_CARD_MMC);
}

static void test_failed_init_resets_state(void **state)
{
	struct mmchal_sg sg = {.cpu = regbuf, .phys = 0, .len = 512};

	(void)state;
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_true(card.ready);
	/* a second init that fails in the power-up: not ready, a fresh record */
	mmchal_card_fail_(&card, MMCHAL_EILSEQ, 2, true, 5);
	fk.set_ios_fail_at = fk.set_ios_calls + 1u;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_false(card.ready);
	assert_int_equal(card.err.err, MMCHAL_EIO);
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_false(card.err.app);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), MMCHAL_ENOMEDIUM);
	/* a removal noticed on a step init tolerates still fails the init */
	start(FAKE_MMC);
	fk.fail_op = 6;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_false(card.ready);
	/* the host reports the card gone on a set_ios whose result the width
	   fallback does not use: init still fails */
	start(FAKE_MMC);
	fk.garble_idx = EXT_CSD_REV + 1u;
	fk.set_ios_fail_at = 6;
	fk.set_ios_fail_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.err, MMCHAL_ENOMEDIUM);
	assert_true(card.removed);
	assert_false(card.ready);
	assert_int_equal(card.info.type, MMCHAL_CARD_UNKNOWN);
}

static void test_unrecorded_removal_record(void **state)
{
	(void)state;
	/* the removal is seen on a set_ios whose failure nothing records: the
	   record names no command but keeps the cleared fields, opcode 0 and
	   argument 0 */
	start(FAKE_MMC);
	fk.garble_idx = EXT_CSD_REV + 1u;
	fk.set_ios_fail_at = 6;
	fk.set_ios_fail_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.err, MMCHAL_ENOMEDIUM);
	assert_int_equal(card.err.opcode, 0);
	assert_int_equal(card.err.arg, 0);
	assert_false(card.err.app);
	assert_false(card.err.status_valid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_clears_everything),
		cmocka_unit_test(test_not_set_up),
		cmocka_unit_test(test_check_present),
		cmocka_unit_test(test_power_up_sequence),
		cmocka_unit_test(test_power_up_failures),
		cmocka_unit_test(test_cmd8_echo),
		cmocka_unit_test(test_cmd5_answers),
		cmocka_unit_test(test_removal_during_detection),
		cmocka_unit_test(test_init_ops_fail_or_missing),
		cmocka_unit_test(test_limits_without_op),
		cmocka_unit_test(test_failed_init_resets_state),
		cmocka_unit_test(test_unrecorded_removal_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
