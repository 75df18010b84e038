/*
 * SD identification in detail (src/core/card_sd.c) over the fake card: the
 * ACMD41 and CMD3 loops with their exact limits, each step stopping the
 * sequence when it fails, R1 errors in the CMD7, ACMD6 and CMD16 responses,
 * the default-speed clock from TRAN_SPEED, and the bus width and high-speed
 * choice from the SCR, the CSD classes and the switch status.
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
#define TRAN_ST ((CARD_STATE_TRAN << 9) | R1_READY_FOR_DATA)

static uint8_t image[SECTORS * 512u];
static uint8_t regbuf[MMCHAL_CARD_BUF_SIZE];
static struct fake fk;
static struct mmchal_card card;
static uint32_t ndelay_poll;

static void count_delay(void *arg, uint32_t us)
{
	(void)arg;
	/* the power-up waits happen before any command */
	if (us == 1000u && fk.nlog > 0u)
		ndelay_poll++;
}

static void start(enum fake_kind kind)
{
	struct mmchal_card_cfg cfg;

	fake_init(&fk, kind, image, SECTORS);
	fake_card_cfg(&fk, &cfg, regbuf);
	cfg.delay_us = count_delay;
	ndelay_poll = 0;
	assert_int_equal(mmchal_card_setup(&card, &cfg), 0);
}

static uint32_t last_op(void)
{
	return fk.log[fk.nlog - 1u];
}

/* Index in the log of the first command @op, or FAKE_LOG_LEN. */
static uint32_t first(uint32_t op)
{
	for (uint32_t i = 0; i < fk.nlog && i < FAKE_LOG_LEN; i++)
		if (fk.log[i] == op)
			return i;
	return FAKE_LOG_LEN;
}

static void test_acmd41_tries_exact(void **state)
{
	(void)state;
	/* ready at the third ACMD41 */
	start(FAKE_SDHC);
	card.cfg.op_cond_tries = 3;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 41 | FAKE_APP), 3);
	assert_int_equal(ndelay_poll, 2);
	assert_int_equal(card.info.ocr, OCR_BUSY | OCR_CCS | OCR_VDD_27_36);
	start(FAKE_SDHC);
	card.cfg.op_cond_tries = 2;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(fake_count(&fk, 41 | FAKE_APP), 2);
	assert_int_equal(card.err.opcode, 41);
	assert_true(card.err.app);
	assert_int_equal(card.err.arg, OCR_CCS | OCR_VDD_27_36);
	/* an SD card is not tried as an eMMC */
	assert_int_equal(fake_count(&fk, 1), 0);
}

static void test_rca_retries(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	fk.sd_rca_zero = 2;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 3), 3);
	assert_int_equal(card.info.rca, 0x1234);
	assert_int_equal(fk.log_arg[first(3)], 0);
	assert_int_equal(fk.log_arg[first(2)], 0);
	start(FAKE_SDHC);
	fk.sd_rca_zero = 3;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(fake_count(&fk, 3), 3);
	assert_int_equal(card.err.opcode, 3);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(last_op(), 3);
}

/* @op fails: init stops right there with its error. */
static void stops_at(enum fake_kind kind, uint32_t op, uint32_t skip)
{
	start(kind);
	fk.fail_op = op;
	fk.fail_skip = skip;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(last_op(), op);
	assert_int_equal(card.err.opcode, op & ~FAKE_APP);
	assert_false(card.ready);
}

static void test_each_step_stops(void **state)
{
	(void)state;
	stops_at(FAKE_SDHC, 2, 0);
	stops_at(FAKE_SDHC, 3, 0);
	stops_at(FAKE_SDHC, 9, 0);
	stops_at(FAKE_SDHC, 7, 0);
	stops_at(FAKE_SDHC, 51 | FAKE_APP, 0);
	stops_at(FAKE_SDHC, 6 | FAKE_APP, 0);
	stops_at(FAKE_SDHC, 6, 0);
	stops_at(FAKE_SDHC, 6, 1);
	stops_at(FAKE_SDSC, 16, 0);
}

static void test_r1_errors_in_steps(void **state)
{
	(void)state;
	/* CMD7 */
	start(FAKE_SDHC);
	fk.pend_op = 7;
	fk.pend_bits = R1_CC_ERROR;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 7);
	assert_int_equal(card.err.arg, 0x12340000u);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, (CARD_STATE_STBY << 9) | R1_READY_FOR_DATA | R1_CC_ERROR);
	assert_int_equal(last_op(), 7);
	/* the host failed CMD7 (a bad response CRC): its error wins over the
	   bits of the damaged response */
	start(FAKE_SDHC);
	fk.fail_op = 7;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	fk.pend_op = 7;
	fk.pend_bits = R1_OUT_OF_RANGE;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(card.err.err, MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 7);
	/* ACMD6 */
	start(FAKE_SDHC);
	fk.pend_op = 6 | FAKE_APP;
	fk.pend_bits = R1_ERROR;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 6);
	assert_true(card.err.app);
	assert_int_equal(card.err.arg, 2);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST | R1_ERROR);
	assert_int_equal(last_op(), 6 | FAKE_APP);
	assert_int_equal(fk.sd_width, 4); /* the card took it; the host stays on 1 bit */
	assert_int_equal(fk.ios.bus_width, MMCHAL_BUS_WIDTH_1);
	/* CMD16 on a byte-addressed card */
	start(FAKE_SDSC);
	fk.pend_op = 16;
	fk.pend_bits = R1_BLOCK_LEN_ERROR;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EILSEQ);
	assert_int_equal(card.err.opcode, 16);
	assert_int_equal(card.err.arg, 512);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST | R1_BLOCK_LEN_ERROR);
	/* bits outside the command errors are no failure */
	start(FAKE_SDSC);
	fk.pend_op = 16;
	fk.pend_bits = R1_ILLEGAL_COMMAND;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fk.log_arg[first(16)], 512);
}

static void test_select_waits_for_busy(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	fk.busy_left = 1;
	assert_int_equal(mmchal_card_init(&card), 0);
	/* CMD7 is the only R1b command of SD identification */
	assert_int_equal(fk.busy_calls, 2);
	start(FAKE_SDHC);
	fk.busy_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(last_op(), 7);
}

static void test_csd_and_scr_errors(void **state)
{
	(void)state;
	/* CSD structure 2 (SDUC) */
	start(FAKE_SDHC);
	reg128_put(fk.csd, 126, 2, 2);
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.opcode, 9);
	assert_int_equal(card.err.arg, 0x12340000u);
	assert_int_equal(last_op(), 9);
	/* SCR structure 1 */
	start(FAKE_SDHC);
	fk.scr[0] = 0x12;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.opcode, 51);
	assert_true(card.err.app);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(last_op(), 51 | FAKE_APP);
	assert_int_equal(fk.log_arg[first(51 | FAKE_APP)], 0);
	/* the host refuses the type */
	start(FAKE_SDHC);
	fk.init_card_err = MMCHAL_EBUSY;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EBUSY);
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(last_op(), 41 | FAKE_APP);
}

static void test_default_speed_clock(void **state)
{
	(void)state;
	/* TRAN_SPEED 20 MHz: the default-speed clock follows it */
	start(FAKE_SDHC);
	reg128_put(fk.csd, 96, 8, 0x2a);
	fk.caps.bus &= ~MMCHAL_BUS_SD_HS;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.clock_hz, 20000000u);
	assert_int_equal(fk.ios_hist[3].clock_hz, 20000000u);
	/* above 25 MHz or not given: 25 MHz */
	start(FAKE_SDHC);
	reg128_put(fk.csd, 96, 8, 0x5a);
	fk.caps.bus &= ~MMCHAL_BUS_SD_HS;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.clock_hz, 25000000u);
	start(FAKE_SDHC);
	reg128_put(fk.csd, 96, 8, 0x00);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fk.ios_hist[3].clock_hz, 25000000u);
	/* the set_ios of each step fails in turn: DS clock, 4 bits, HS */
	for (uint32_t at = 4; at <= 6; at++) {
		start(FAKE_SDHC);
		fk.set_ios_fail_at = at;
		assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
		assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
		assert_int_equal(fk.set_ios_calls, at);
	}
	assert_int_equal(last_op(), 6);
}

static void test_width_and_speed_choice(void **state)
{
	(void)state;
	/* the SCR offers only 1 bit */
	start(FAKE_SDHC);
	fk.scr[1] = 0x31;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 6 | FAKE_APP), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_SD_HS);
	/* SD 1.0 (no CMD6) and SD 1.10 (CMD6) */
	start(FAKE_SDHC);
	fk.scr[0] = 0x00;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 6), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 25000000u);
	start(FAKE_SDHC);
	fk.scr[0] = 0x01;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_SD_HS);
	/* no class 10 in the CSD: no CMD6 */
	start(FAKE_SDHC);
	reg128_put(fk.csd, 84, 12, 0x1b5);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 6), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	/* the card does not offer high speed: only the check is sent */
	start(FAKE_SDHC);
	fk.sd_no_hs = true;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 6), 1);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 25000000u);
	/* it refuses the switch */
	start(FAKE_SDHC);
	fk.sd_hs_refuse = true;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fake_count(&fk, 6), 2);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 25000000u);
	assert_int_equal(fk.set_ios_calls, 5);
}

static void test_write_protect_bits(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	reg128_put(fk.csd, 12, 1, 1); /* TMP_WRITE_PROTECT */
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_true(card.info.read_only);
	start(FAKE_SDHC);
	reg128_put(fk.csd, 13, 1, 1); /* PERM_WRITE_PROTECT */
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_true(card.info.read_only);
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_false(card.info.read_only);
	assert_int_equal(card.info.erase_unit, 1);
	assert_int_equal(card.info.sectors, SECTORS);
}

/* Found by fuzz_card: a card without CCS (byte addresses) whose CSD is v2
   claimed more than 4 GiB; init took it, and blocks from 2^23 on got
   addresses that wrapped around 32 bits onto the start of the card. */
static void test_byte_addressed_capacity_fits(void **state)
{
	(void)state;
	/* an SDSC card (no CCS) with a v2 CSD of 8 GiB: refused */
	start(FAKE_SDSC);
	reg128_put(fk.csd, 126, 2, 1);
	reg128_put(fk.csd, 48, 22, 16383);
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.opcode, CARD_CMD_SEND_CSD);
	assert_false(card.ready);
	/* exactly 4 GiB is the last that byte addresses reach */
	start(FAKE_SDSC);
	reg128_put(fk.csd, 126, 2, 1);
	reg128_put(fk.csd, 48, 22, 8191);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.sectors, 1u << 23);
	/* a v1 CSD never claims more: the largest one */
	start(FAKE_SDSC);
	reg128_put(fk.csd, 80, 4, 11);
	reg128_put(fk.csd, 62, 12, 4095);
	reg128_put(fk.csd, 47, 3, 7);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.sectors, 1u << 23);
}

/* A CSD that does not decode leaves the size and erase unit unset: the
   identification step shared with eMMC derives them only from a decoded SD
   CSD (after a failed init the info keeps what was learnt before). */
static void test_bad_csd_sets_no_size(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	reg128_put(fk.csd, 126, 2, 2);
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.opcode, CARD_CMD_SEND_CSD);
	assert_int_equal(card.info.sectors, 0);
	assert_int_equal(card.info.erase_unit, 0);
	assert_true(card.info.block_addr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acmd41_tries_exact),
		cmocka_unit_test(test_rca_retries),
		cmocka_unit_test(test_each_step_stops),
		cmocka_unit_test(test_r1_errors_in_steps),
		cmocka_unit_test(test_select_waits_for_busy),
		cmocka_unit_test(test_csd_and_scr_errors),
		cmocka_unit_test(test_default_speed_clock),
		cmocka_unit_test(test_width_and_speed_choice),
		cmocka_unit_test(test_write_protect_bits),
		cmocka_unit_test(test_byte_addressed_capacity_fits),
		cmocka_unit_test(test_bad_csd_sets_no_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
