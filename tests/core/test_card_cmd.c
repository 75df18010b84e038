/*
 * The card layer's command helpers (src/core/card_cmd.c) called directly on
 * an identified card over the fake host: what each request carries (timeout,
 * busy time, buffer address, cleared response), the failure record, the R1
 * checks of register reads and R1b commands, and the busy and status waits
 * with their exact poll counts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "card_fake.h"
#include "core/card_priv.h"

#define SECTORS 256u
#define TRAN_ST ((CARD_STATE_TRAN << 9) | R1_READY_FOR_DATA)

static uint8_t image[SECTORS * 512u];
static uint8_t regbuf[MMCHAL_CARD_BUF_SIZE];
static struct fake fk;
static struct mmchal_card card;
static struct mmchal_host_ops ops_no_busy;
static uint32_t delays[4];
static void *delay_arg_seen;

static void count_delay(void *arg, uint32_t us)
{
	delay_arg_seen = arg;
	if (us == 100u)
		delays[0]++;
	else if (us == 1000u)
		delays[1]++;
	else
		delays[2]++;
}

/* An identified card; the log and the delay counts start afresh. */
static void start(enum fake_kind kind)
{
	struct mmchal_card_cfg cfg;

	fake_init(&fk, kind, image, SECTORS);
	fake_card_cfg(&fk, &cfg, regbuf);
	cfg.delay_us = count_delay;
	cfg.delay_arg = &fk;
	assert_int_equal(mmchal_card_setup(&card, &cfg), 0);
	assert_int_equal(mmchal_card_init(&card), 0);
	fk.nlog = 0;
	fk.busy_calls = 0;
	memset(delays, 0, sizeof(delays));
	delay_arg_seen = NULL;
}

/* Leave a recognisable pattern where the next calls put their locals. */
static void poison_stack(void)
{
	volatile uint8_t junk[2048];

	for (uint32_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0xa5;
}

static void test_note_err_and_delay(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	assert_true(card.ready);
	assert_int_equal(mmchal_card_note_err_(&card, MMCHAL_EIO), MMCHAL_EIO);
	assert_true(card.ready);
	assert_false(card.removed);
	assert_int_equal(mmchal_card_note_err_(&card, MMCHAL_ENOMEDIUM), MMCHAL_ENOMEDIUM);
	assert_false(card.ready);
	assert_true(card.removed);

	mmchal_card_delay_(&card, 77);
	assert_int_equal(delays[2], 1);
	assert_ptr_equal(delay_arg_seen, &fk);
	card.cfg.delay_us = NULL;
	mmchal_card_delay_(&card, 77);
	assert_int_equal(delays[2], 1);
}

static void test_set_ios_failure_record(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	mmchal_card_err_clear_(&card);
	fk.set_ios_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_set_ios_(&card), MMCHAL_EIO);
	assert_int_equal(card.err.err, MMCHAL_EIO);
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(card.err.arg, 0);
	assert_false(card.err.app);
	assert_true(card.ready);
	/* the host says the card is gone */
	mmchal_card_err_clear_(&card);
	card.err.arg = 0x55;
	fk.set_ios_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_set_ios_(&card), MMCHAL_ENOMEDIUM);
	assert_true(card.removed);
	assert_false(card.ready);
	assert_int_equal(card.err.arg, 0);
}

static void test_cmd_request_fields(void **state)
{
	struct mmchal_cmd cmd;

	(void)state;
	start(FAKE_SDHC);
	/* a command struct full of garbage goes out clean */
	memset(&cmd, 0xa5, sizeof(cmd));
	assert_int_equal(
		mmchal_card_cmd_(&card, &cmd, CARD_CMD_SEND_STATUS, 0x12340000u, MMCHAL_RSP_R1), 0);
	assert_int_equal(fk.nlog, 1);
	assert_int_equal(fk.log_timeout[0], 1000);
	assert_int_equal(fk.log_busy_ms[0], 0);
	assert_int_equal(fk.log_resp1[0], 0);
	assert_int_equal(cmd.resp[1], 0);
	assert_int_equal(cmd.resp[0], TRAN_ST);
	assert_int_equal(cmd.error, 0);
	/* the caller's command timeout */
	card.cfg.cmd_timeout_ms = 250;
	assert_int_equal(
		mmchal_card_cmd_(&card, &cmd, CARD_CMD_SEND_STATUS, 0x12340000u, MMCHAL_RSP_R1), 0);
	assert_int_equal(fk.log_timeout[1], 250);

	/* R1b: the busy time adds to the wait and goes to the host */
	memset(&cmd, 0xa5, sizeof(cmd));
	assert_int_equal(mmchal_card_cmd_r1b_(&card, &cmd, CARD_CMD_STOP, 0, 500), 0);
	assert_int_equal(fk.log[2], CARD_CMD_STOP);
	assert_int_equal(fk.log_timeout[2], 750);
	assert_int_equal(fk.log_busy_ms[2], 500);
	assert_int_equal(fk.log_resp1[2], 0);
	assert_int_equal(cmd.resp[1], 0);
	assert_int_equal(cmd.flags, MMCHAL_RSP_R1B);
	assert_int_equal(fk.busy_calls, 1);
}

static void test_r1b_status_error(void **state)
{
	struct mmchal_cmd cmd;

	(void)state;
	start(FAKE_SDHC);
	mmchal_card_err_clear_(&card);
	fk.pending = R1_WP_ERASE_SKIP;
	assert_int_equal(mmchal_card_cmd_r1b_(&card, &cmd, CARD_CMD_STOP, 7, 10), MMCHAL_EROFS);
	assert_int_equal(card.err.err, MMCHAL_EROFS);
	assert_int_equal(card.err.opcode, CARD_CMD_STOP);
	assert_int_equal(card.err.arg, 7);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST | R1_WP_ERASE_SKIP);
	/* no busy wait after an error */
	assert_int_equal(fk.busy_calls, 0);
	assert_int_equal(fk.nlog, 1);

	/* busy never ends and CMD13 keeps saying prg: the wait's timeout comes back */
	mmchal_card_err_clear_(&card);
	fk.busy_left = 1000;
	fk.st13_left = 1000;
	fk.st13_word = (CARD_STATE_PRG << 9);
	assert_int_equal(mmchal_card_cmd_r1b_(&card, &cmd, CARD_CMD_STOP, 0, 10), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, CARD_CMD_SEND_STATUS);
	assert_int_equal(fake_count(&fk, CARD_CMD_SEND_STATUS), 10);
}

static void test_acmd_records(void **state)
{
	struct mmchal_cmd cmd;

	(void)state;
	start(FAKE_SDHC);
	mmchal_card_err_clear_(&card);
	fk.no_app_bit = true;
	assert_int_equal(mmchal_card_acmd_(&card, &cmd, CARD_ACMD_SET_BUS_WIDTH, 2, MMCHAL_RSP_R1),
			 MMCHAL_EILSEQ);
	assert_int_equal(card.err.opcode, CARD_CMD_APP);
	assert_int_equal(card.err.arg, 0x12340000u);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST);
	assert_int_equal(fk.nlog, 1);

	/* an ACMD failing after an earlier failure keeps that record as it was */
	fk.no_app_bit = false;
	mmchal_card_err_clear_(&card);
	mmchal_card_fail_(&card, MMCHAL_EIO, CARD_CMD_SEND_STATUS, false, 1);
	fk.fail_op = CARD_ACMD_SET_BUS_WIDTH | FAKE_APP;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_acmd_(&card, &cmd, CARD_ACMD_SET_BUS_WIDTH, 2, MMCHAL_RSP_R1),
			 MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.err, MMCHAL_EIO);
	assert_int_equal(card.err.opcode, CARD_CMD_SEND_STATUS);
	assert_false(card.err.app);
	/* and one that fails on its own is marked as an ACMD */
	mmchal_card_err_clear_(&card);
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_acmd_(&card, &cmd, CARD_ACMD_SET_BUS_WIDTH, 2, MMCHAL_RSP_R1),
			 MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, CARD_ACMD_SET_BUS_WIDTH);
	assert_true(card.err.app);
}

/* An ACMD goes out after CMD55 as any command does: no busy time, the
   command timeout. */
static void test_acmd_request_fields(void **state)
{
	struct mmchal_cmd cmd;

	(void)state;
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_acmd_(&card, &cmd, CARD_ACMD_SET_BUS_WIDTH, 2, MMCHAL_RSP_R1),
			 0);
	assert_int_equal(fk.nlog, 2);
	assert_int_equal(fk.log[0], CARD_CMD_APP);
	assert_int_equal(fk.log[1], CARD_ACMD_SET_BUS_WIDTH | FAKE_APP);
	assert_int_equal(fk.log_timeout[1], 1000);
	assert_int_equal(fk.log_busy_ms[1], 0);
	assert_int_equal(cmd.opcode, CARD_ACMD_SET_BUS_WIDTH);
	assert_int_equal(cmd.arg, 2);
	assert_int_equal(cmd.flags, MMCHAL_RSP_R1);
}

static void test_read_reg(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	memset(regbuf, 0, sizeof(regbuf));
	assert_int_equal(mmchal_card_read_reg_(&card, CARD_ACMD_SEND_SCR, 0, true, 8), 0);
	assert_memory_equal(regbuf, fk.scr, 8);
	assert_int_equal(fk.data_phys, 0x50000000u);
	assert_int_equal(fk.data_timeout_ns, 100000000u);
	assert_int_equal(fk.log[1], CARD_ACMD_SEND_SCR | FAKE_APP);
	assert_int_equal(fk.log_busy_ms[1], 0);
	assert_int_equal(fk.log_resp1[1], 0);
	assert_int_equal(fk.log_timeout[1], 1000);

	/* CMD55 fails: no ACMD goes out */
	mmchal_card_err_clear_(&card);
	fk.nlog = 0;
	fk.fail_op = CARD_CMD_APP;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_read_reg_(&card, CARD_ACMD_SEND_SCR, 0, true, 8),
			 MMCHAL_ETIMEDOUT);
	assert_int_equal(fk.nlog, 1);
	assert_int_equal(card.err.opcode, CARD_CMD_APP);

	/* an error bit in the R1 of a read without CMD55 (eMMC EXT_CSD) */
	start(FAKE_MMC);
	mmchal_card_err_clear_(&card);
	fk.pending = R1_CC_ERROR;
	assert_int_equal(mmchal_card_read_reg_(&card, CARD_CMD_SEND_IF_COND, 3, false, 512),
			 MMCHAL_EIO);
	assert_int_equal(card.err.err, MMCHAL_EIO);
	assert_int_equal(card.err.opcode, CARD_CMD_SEND_IF_COND);
	assert_int_equal(card.err.arg, 3);
	assert_false(card.err.app);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST | R1_CC_ERROR);
	/* a bit outside the command errors is no error */
	mmchal_card_err_clear_(&card);
	fk.pending = R1_ILLEGAL_COMMAND;
	assert_int_equal(mmchal_card_read_reg_(&card, CARD_CMD_SEND_IF_COND, 0, false, 512), 0);
	assert_int_equal(card.err.err, 0);
	/* the host failed the request: no card status to record */
	mmchal_card_err_clear_(&card);
	fk.fail_op = CARD_CMD_SEND_IF_COND;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_read_reg_(&card, CARD_CMD_SEND_IF_COND, 0, false, 512),
			 MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, CARD_CMD_SEND_IF_COND);
	assert_false(card.err.status_valid);
	assert_int_equal(card.err.status, 0);
	/* the command is answered and the data phase fails (the card sends on
	   another width than the host reads): the answer's status goes with
	   the failure */
	mmchal_card_err_clear_(&card);
	fk.ios.bus_width = fk.ios.bus_width == MMCHAL_BUS_WIDTH_1 ? MMCHAL_BUS_WIDTH_4
								  : MMCHAL_BUS_WIDTH_1;
	assert_int_equal(mmchal_card_read_reg_(&card, CARD_CMD_SEND_IF_COND, 0, false, 512),
			 MMCHAL_EIO);
	assert_int_equal(card.err.err, MMCHAL_EIO);
	assert_int_equal(card.err.opcode, CARD_CMD_SEND_IF_COND);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST);
	fk.ios = card.ios;
	/* the card does not answer (not in tran): the host sees a clean data
	   phase and marks the command as failed, so there is no status */
	mmchal_card_err_clear_(&card);
	fk.state = CARD_STATE_STBY;
	poison_stack();
	assert_int_equal(mmchal_card_read_reg_(&card, CARD_CMD_SEND_IF_COND, 0, false, 512),
			 MMCHAL_ETIMEDOUT);
	assert_false(card.err.status_valid);
	fk.state = CARD_STATE_TRAN;
}

static void test_wait_tran_polls(void **state)
{
	uint32_t st = 0;

	(void)state;
	start(FAKE_SDHC);
	card.cfg.busy_poll_tries = 3;
	/* two answers in prg, the third in tran: three polls are enough */
	mmchal_card_err_clear_(&card);
	fk.st13_left = 2;
	fk.st13_word = (CARD_STATE_PRG << 9) | R1_READY_FOR_DATA;
	assert_int_equal(mmchal_card_wait_tran_(&card, R1_CMD_ERRORS, &st), 0);
	assert_int_equal(st, TRAN_ST);
	assert_int_equal(fake_count(&fk, CARD_CMD_SEND_STATUS), 3);
	assert_int_equal(fk.log_arg[0], 0x12340000u);
	assert_int_equal(delays[0], 2);
	/* three in prg: three polls are not */
	mmchal_card_err_clear_(&card);
	fk.nlog = 0;
	fk.st13_left = 3;
	assert_int_equal(mmchal_card_wait_tran_(&card, R1_CMD_ERRORS, &st), MMCHAL_ETIMEDOUT);
	assert_int_equal(fake_count(&fk, CARD_CMD_SEND_STATUS), 3);
	assert_int_equal(st, (CARD_STATE_PRG << 9) | R1_READY_FOR_DATA);
	assert_int_equal(card.err.opcode, CARD_CMD_SEND_STATUS);
	assert_int_equal(card.err.arg, 0x12340000u);
	/* in tran but not ready for data, or in rcv: still waiting */
	mmchal_card_err_clear_(&card);
	fk.nlog = 0;
	fk.st13_left = 1;
	fk.st13_word = CARD_STATE_TRAN << 9;
	assert_int_equal(mmchal_card_wait_tran_(&card, R1_CMD_ERRORS, NULL), 0);
	assert_int_equal(fake_count(&fk, CARD_CMD_SEND_STATUS), 2);
	fk.nlog = 0;
	fk.st13_left = 1;
	fk.st13_word = (CARD_STATE_RCV << 9) | R1_READY_FOR_DATA;
	assert_int_equal(mmchal_card_wait_tran_(&card, R1_CMD_ERRORS, NULL), 0);
	assert_int_equal(fake_count(&fk, CARD_CMD_SEND_STATUS), 2);
	/* an error in the mask ends the wait with the status recorded */
	mmchal_card_err_clear_(&card);
	fk.nlog = 0;
	fk.pending = R1_OUT_OF_RANGE;
	assert_int_equal(mmchal_card_wait_tran_(&card, R1_CMD_ERRORS, &st), MMCHAL_ERANGE);
	assert_int_equal(st, TRAN_ST | R1_OUT_OF_RANGE);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST | R1_OUT_OF_RANGE);
	assert_int_equal(card.err.opcode, CARD_CMD_SEND_STATUS);
	/* a failing CMD13 */
	mmchal_card_err_clear_(&card);
	fk.fail_op = CARD_CMD_SEND_STATUS;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_wait_tran_(&card, R1_CMD_ERRORS, &st), MMCHAL_ETIMEDOUT);
}

static void test_wait_busy(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	card.cfg.busy_poll_tries = 3;
	/* busy twice, then free: three card_busy calls, no CMD13 */
	fk.busy_left = 2;
	assert_int_equal(mmchal_card_wait_busy_(&card, 10), 0);
	assert_int_equal(fk.busy_calls, 3);
	assert_int_equal(fk.nlog, 0);
	assert_int_equal(delays[0], 2);
	/* busy three times: the tries run out and CMD13 decides */
	fk.busy_calls = 0;
	fk.busy_left = 3;
	assert_int_equal(mmchal_card_wait_busy_(&card, 10), 0);
	assert_int_equal(fk.busy_calls, 3);
	assert_int_equal(fake_count(&fk, CARD_CMD_SEND_STATUS), 1);
	/* ... with mask 0: a reserved bit in the status is not an error */
	fk.nlog = 0;
	fk.busy_left = 3;
	fk.st13_left = 1;
	fk.st13_word = TRAN_ST | 1u;
	assert_int_equal(mmchal_card_wait_busy_(&card, 10), 0);
	assert_int_equal(fake_count(&fk, CARD_CMD_SEND_STATUS), 1);
	/* ... and CMD13 timing out is the answer */
	fk.nlog = 0;
	fk.busy_left = 3;
	fk.st13_left = 100;
	fk.st13_word = CARD_STATE_PRG << 9;
	mmchal_card_err_clear_(&card);
	assert_int_equal(mmchal_card_wait_busy_(&card, 10), MMCHAL_ETIMEDOUT);
	fk.st13_left = 0;
	/* without an RCA (identification) there is nobody to ask */
	fk.nlog = 0;
	fk.busy_left = 3;
	card.info.rca = 0;
	assert_int_equal(mmchal_card_wait_busy_(&card, 10), 0);
	assert_int_equal(fk.nlog, 0);
	card.info.rca = 0x1234;
	/* a controller that waits by itself: no polling */
	fk.busy_calls = 0;
	fk.busy_left = 3;
	card.caps.bus |= MMCHAL_BUS_HW_BUSY;
	assert_int_equal(mmchal_card_wait_busy_(&card, 10), 0);
	assert_int_equal(fk.busy_calls, 0);
	card.caps.bus &= ~MMCHAL_BUS_HW_BUSY;
	/* card_busy errors */
	fk.busy_left = 0;
	fk.busy_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_wait_busy_(&card, 10), MMCHAL_EIO);
	assert_true(card.ready);
	fk.busy_err = MMCHAL_ENOMEDIUM;
	assert_int_equal(mmchal_card_wait_busy_(&card, 10), MMCHAL_ENOMEDIUM);
	assert_true(card.removed);
	/* no card_busy op: straight to CMD13 */
	start(FAKE_SDHC);
	ops_no_busy = fake_ops;
	ops_no_busy.card_busy = NULL;
	card.cfg.ops = &ops_no_busy;
	fk.st13_left = 1;
	fk.st13_word = CARD_STATE_PRG << 9;
	assert_int_equal(mmchal_card_wait_busy_(&card, 10), 0);
	assert_int_equal(fake_count(&fk, CARD_CMD_SEND_STATUS), 2);
	assert_int_equal(fk.busy_calls, 0);
	/* ENOTSUP from the op means the same */
	card.cfg.ops = &fake_ops;
	fk.nlog = 0;
	fk.busy_err = MMCHAL_ENOTSUP;
	assert_int_equal(mmchal_card_wait_busy_(&card, 10), 0);
	assert_int_equal(fk.busy_calls, 1);
	assert_int_equal(fake_count(&fk, CARD_CMD_SEND_STATUS), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_note_err_and_delay),
		cmocka_unit_test(test_set_ios_failure_record),
		cmocka_unit_test(test_cmd_request_fields),
		cmocka_unit_test(test_r1b_status_error),
		cmocka_unit_test(test_acmd_records),
		cmocka_unit_test(test_acmd_request_fields),
		cmocka_unit_test(test_read_reg),
		cmocka_unit_test(test_wait_tran_polls),
		cmocka_unit_test(test_wait_busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
