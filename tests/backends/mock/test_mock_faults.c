/*
 * Mock backend fault switches and log ring (src/backends/mock/mock.c):
 * mmchal_mock_clear_faults() clears each switch, the edges of the fault
 * setters' arguments, a reused log slot that keeps nothing of its last
 * command, a cleared log that starts again at the front of the ring, and
 * the CSD write-protect bit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/error.h>
#include <mmchal/mock.h>

#include "mock_harness.h"

#define R1_TRAN (MMCHAL_MOCK_R1_STATE(MMCHAL_MOCK_ST_TRAN) | MMCHAL_MOCK_R1_READY_FOR_DATA)

static uint8_t blk[1024];

static void sd_tran(void)
{
	struct mmchal_mock_cfg cfg;

	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.busy_latency = 2;
	mh_init(&cfg);
	mh_sd_to_tran();
}

/* Each switch is off after mmchal_mock_clear_faults(): a command fault, a data
   fault, an op fault and a stuck busy line. */
static void test_clear_faults_clears_each(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;
	struct mmchal_ios ios = {.clock_hz = 400000,
				 .bus_width = MMCHAL_BUS_WIDTH_1,
				 .power_mode = MMCHAL_POWER_ON,
				 .signal_voltage = MMCHAL_SIGNAL_330};

	(void)state;
	sd_tran();
	/* a write leaves the card busy programming, and the line stuck holds it */
	assert_int_equal(mh_pio(24, 0, MMCHAL_DIR_TO_CARD, 512, 1, blk, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	mmchal_mock_set_busy_stuck(&mh, true);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 13, MMCHAL_EIO, 0), 0);
	assert_int_equal(mmchal_mock_fail_data(&mh, MMCHAL_MOCK_DATA_CRC, 0, 0), 0);
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_SET_IOS, MMCHAL_ETIMEDOUT, 0), 0);
	/* every switch is on */
	for (int i = 0; i < 10; i++)
		assert_int_equal(mh_ops->card_busy(&mh), 1);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_ETIMEDOUT);
	mmchal_mock_clear_faults(&mh);
	/* and every one is off: the busy counts down from where it was */
	for (int i = 0; i < 10 && mh_ops->card_busy(&mh) == 1; i++)
		;
	assert_int_equal(mh_ops->card_busy(&mh), 0);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(mh_pio(17, 1, MMCHAL_DIR_FROM_CARD, 512, 1, blk, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.error, 0);
	assert_int_equal(blk[0], mh_pattern(512));
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
}

/* The setters' edges: error 0 clears a switch, command 63 can fail and 64
   cannot, a positive error is refused. */
static void test_fail_argument_edges(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_ios ios = {.clock_hz = 400000,
				 .bus_width = MMCHAL_BUS_WIDTH_1,
				 .power_mode = MMCHAL_POWER_ON,
				 .signal_voltage = MMCHAL_SIGNAL_330};

	(void)state;
	sd_tran();
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_SET_IOS, MMCHAL_EIO, 0), 0);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EIO);
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_SET_IOS, 0, 0), 0);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_SET_IOS, 1, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 63, MMCHAL_EIO, 1), 0);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 64, MMCHAL_EIO, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 63 | MMCHAL_MOCK_ACMD, MMCHAL_EIO, 1), 0);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 13, 1, 1), MMCHAL_EINVAL);
	/* a command fault with error 0 is off */
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 13, MMCHAL_EIO, 0), 0);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 13, 0, 0), 0);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.error, 0);
	assert_int_equal(c.resp[0], R1_TRAN);
}

/* A two-entry ring: the slot a new command reuses keeps nothing of the old
   one (its data error, block count, direction), and after a clear the next
   command goes to the front of the caller's ring, numbered on. */
static void test_log_slot_reused_and_cleared(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;
	const struct mmchal_mock_log_entry *e;
	uint32_t seq;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.log_len = 2;
	mh_init(&cfg);
	mh_sd_to_tran();
	assert_int_equal(mmchal_mock_fail_data(&mh, MMCHAL_MOCK_DATA_CRC, 1, 1), 0);
	assert_int_equal(mh_pio(18, 0, MMCHAL_DIR_FROM_CARD, 512, 2, blk, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	e = mmchal_mock_log_last(&mh);
	assert_non_null(e);
	assert_int_equal(e->data_error, MMCHAL_EIO);
	assert_true(e->has_data);
	assert_int_equal(e->blocks, 2);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	while (mh_ops->card_busy(&mh) == 1)
		;
	/* two more commands: the CMD18 slot is taken by the second */
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mmchal_mock_log_count(&mh), 2);
	e = mmchal_mock_log_last(&mh);
	assert_int_equal(e->opcode, 13);
	assert_false(e->has_data);
	assert_int_equal(e->data_error, 0);
	assert_int_equal(e->blocks, 0);
	assert_int_equal(e->blksz, 0);
	assert_int_equal(e->cmd_error, 0);
	/* the newest in the ring's first slot: the next one would go to the second */
	if (mmchal_mock_log_last(&mh) != &mh_log[0])
		assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	e = mmchal_mock_log_last(&mh);
	assert_ptr_equal(e, &mh_log[0]);
	seq = e->seq;
	mmchal_mock_log_clear(&mh);
	assert_int_equal(mmchal_mock_log_count(&mh), 0);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mmchal_mock_log_count(&mh), 1);
	assert_ptr_equal(mmchal_mock_log_get(&mh, 0), &mh_log[0]);
	assert_int_equal(mh_log[0].seq, seq + 1u);
	assert_int_equal(mh_log[0].opcode, 13);
}

/* Write protection sets the CSD's TMP_WRITE_PROTECT (bit 12) and nothing else
   of it; clearing it puts the CSD back. */
static void test_write_protect_csd_bit(void **state)
{
	struct mmchal_cmd c;
	uint32_t csd[4], wp[4];

	(void)state;
	sd_tran();
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(9, MH_RCA << 16, MMCHAL_RSP_R2, &c), MMCHAL_EV_CMD_DONE);
	memcpy(csd, c.resp, sizeof(csd));
	mmchal_mock_set_write_protect(&mh, true);
	assert_int_equal(mh_cmd(9, MH_RCA << 16, MMCHAL_RSP_R2, &c), MMCHAL_EV_CMD_DONE);
	memcpy(wp, c.resp, sizeof(wp));
	/* resp[3] holds CSD bits 31:0 (R2 without its CRC byte: bits 127:8 << 8) */
	assert_int_equal(wp[0], csd[0]);
	assert_int_equal(wp[1], csd[1]);
	assert_int_equal(wp[2], csd[2]);
	assert_int_equal(wp[3] ^ csd[3], 1u << 12);
	assert_int_equal(wp[3] & (1u << 12), 1u << 12);
	mmchal_mock_set_write_protect(&mh, false);
	assert_int_equal(mh_cmd(9, MH_RCA << 16, MMCHAL_RSP_R2, &c), MMCHAL_EV_CMD_DONE);
	assert_memory_equal(c.resp, csd, sizeof(csd));
}

/* An SDIO interrupt raised again after the host saw the last one is reported
   again (once each time). */
static void test_sdio_irq_raised_again(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	uint32_t ev;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDIO, 64u * 1024u);
	cfg.host.bus = MMCHAL_BUS_SDIO_IRQ;
	cfg.sdio_functions = 1;
	mh_init(&cfg);
	mh_sdio_to_tran();
	/* CMD52 write of IENM and IEN1 to CCCR 0x04 */
	assert_int_equal(mh_cmd(52, 1u << 31 | 1u << 27 | 0x04u << 9 | 0x03u, MMCHAL_RSP_R5, &c),
			 MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, true), 0);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(mmchal_mock_sdio_irq(&mh, 0x02), 0);
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		assert_int_equal(ev, MMCHAL_EV_SDIO_IRQ);
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		assert_int_equal(ev, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clear_faults_clears_each),
		cmocka_unit_test(test_fail_argument_edges),
		cmocka_unit_test(test_log_slot_reused_and_cleared),
		cmocka_unit_test(test_write_protect_csd_bit),
		cmocka_unit_test(test_sdio_irq_raised_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
