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

/* 400 kHz on one data line at 3.3 V: what every slot takes. */
static const struct mmchal_ios slow_ios = {.clock_hz = 400000,
					   .bus_width = MMCHAL_BUS_WIDTH_1,
					   .power_mode = MMCHAL_POWER_ON,
					   .signal_voltage = MMCHAL_SIGNAL_330};

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
	struct mmchal_ios ios = slow_ios;

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
	struct mmchal_ios ios = slow_ios;

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
	struct mmchal_cmd c;
	uint32_t ev;

	(void)state;
	mh_sdio_init(MMCHAL_BUS_SDIO_IRQ, 1);
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

/* One command with stale response words, run to its end. */
static uint32_t run_stale(struct mmchal_xfer *x, struct mmchal_cmd *c, uint32_t op, uint32_t arg,
			  uint32_t flags)
{
	*c = (struct mmchal_cmd){.opcode = op, .arg = arg, .flags = flags, .error = MMCHAL_EIO};
	for (int i = 0; i < 4; i++)
		c->resp[i] = 0xdeadbeefu;
	x->cmd = c;
	return mh_run(x);
}

/* What the log and the caller's structures hold at each way a transfer ends:
   a failed command (no response words), a removed card, a data phase (the
   response already logged while the data is still due), the controller's own
   CMD12 (its R1, no error), a busy end, an application command. */
static void test_log_and_answers_per_end(void **state)
{
	static const uint32_t zero[4];
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c, stop;
	struct mmchal_data d;
	struct mmchal_sg sg = {.cpu = blk, .len = 1024};
	struct mmchal_xfer x = {0};
	const struct mmchal_mock_log_entry *e;
	uint32_t ev;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.host.bus |= MMCHAL_BUS_HW_BUSY | MMCHAL_BUS_AUTO_CMD12;
	mh_init(&cfg);
	mh_sd_to_tran();
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 13, MMCHAL_EIO, 1), 0);
	assert_int_equal(run_stale(&x, &c, 13, MH_RCA << 16, MMCHAL_RSP_R1), MMCHAL_EV_CMD_ERROR);
	assert_memory_equal(c.resp, zero, sizeof(zero));
	e = mmchal_mock_log_last(&mh);
	assert_int_equal(e->events, MMCHAL_EV_CMD_ERROR);
	assert_int_equal(e->cmd_error, MMCHAL_EIO);
	/* the controller's CMD12 after two blocks */
	d = (struct mmchal_data){
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 2, .sg = &sg, .sg_len = 1};
	stop = (struct mmchal_cmd){.opcode = 12, .flags = MMCHAL_RSP_R1B, .error = MMCHAL_EIO};
	x = (struct mmchal_xfer){
		.data = &d, .auto_stop = true, .plan = MMCHAL_PLAN_PIO, .stop = &stop};
	assert_int_equal(run_stale(&x, &c, 18, 0, MMCHAL_RSP_R1),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(stop.error, 0);
	assert_int_equal(stop.resp[0],
			 MMCHAL_MOCK_R1_STATE(MMCHAL_MOCK_ST_DATA) | MMCHAL_MOCK_R1_READY_FOR_DATA);
	assert_int_equal(mmchal_mock_log_last(&mh)->events,
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	/* an R1b command on a host that sees the busy line: the busy end is logged */
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	x = (struct mmchal_xfer){0};
	ev = run_stale(&x, &c, 7, MH_RCA << 16, MMCHAL_RSP_R1B);
	assert_int_equal(ev, MMCHAL_EV_CMD_DONE | MMCHAL_EV_BUSY_DONE);
	assert_int_equal(mmchal_mock_log_last(&mh)->events, ev);
	/* ACMD22 is an application command */
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_pio(22, 0, MMCHAL_DIR_FROM_CARD, 4, 1, blk, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(mmchal_mock_log_last(&mh)->opcode, 22u | MMCHAL_MOCK_ACMD);

	/* a data phase still due: the command's answer is in the log already */
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.data_latency = 2;
	cfg.cmd_latency = 2;
	mh_init(&cfg);
	mh_sd_to_tran();
	d = (struct mmchal_data){
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 1, .sg = &sg, .sg_len = 1};
	sg.len = 512;
	c = (struct mmchal_cmd){.opcode = 17, .flags = MMCHAL_RSP_R1};
	x = (struct mmchal_xfer){.cmd = &c, .data = &d, .plan = MMCHAL_PLAN_PIO};
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	ev = 0;
	for (int i = 0; i < 10 && !(ev & MMCHAL_EV_CMD_DONE); i++)
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CMD_DONE);
	assert_true(mmchal_mock_busy(&mh));
	e = mmchal_mock_log_last(&mh);
	assert_int_equal(e->resp[0], R1_TRAN);
	assert_int_equal(e->events, MMCHAL_EV_CMD_DONE);
	for (int i = 0; i < 10 && mmchal_mock_busy(&mh); i++)
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	/* a card pulled while a command waits: no response words, logged */
	c = (struct mmchal_cmd){.opcode = 13, .arg = MH_RCA << 16, .flags = MMCHAL_RSP_R1};
	for (int i = 0; i < 4; i++)
		c.resp[i] = 0xdeadbeefu;
	x = (struct mmchal_xfer){.cmd = &c};
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	mmchal_mock_set_present(&mh, false);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev & MMCHAL_EV_CMD_ERROR, MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ENOMEDIUM);
	assert_memory_equal(c.resp, zero, sizeof(zero));
	assert_int_equal(mmchal_mock_log_last(&mh)->events, MMCHAL_EV_CMD_ERROR);
}

/* In manual mode a trigger given while nothing is in flight completes the next
   transfer's first phase. */
static void test_trigger_kept_for_next(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c = {.opcode = 13, .arg = MH_RCA << 16, .flags = MMCHAL_RSP_R1};
	struct mmchal_xfer x = {.cmd = &c};
	uint32_t ev;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	mh_sd_to_tran();
	mh.cfg.manual = true;
	mmchal_mock_trigger(&mh);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	/* consumed: the next one waits for its own */
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
	mmchal_mock_trigger(&mh);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CMD_DONE);
}

/* Each transfer starts clean: a command after a two-block read reports no
   blocks and only its own events; a response the host did not ask for and a
   command the card ignores leave no response words; an illegal command
   without a response is no error; a card pulled before start is refused at
   the card with MMCHAL_ENOMEDIUM. */
static void test_each_transfer_starts_clean(void **state)
{
	static const uint32_t zero[4];
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;
	uint32_t blocks = 99;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	mh_sd_to_tran();
	assert_int_equal(mh_pio(18, 0, MMCHAL_DIR_FROM_CARD, 512, 2, blk, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	while (mh_ops->card_busy(&mh) == 1)
		;
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_ops->blocks_done(&mh, &blocks), 0);
	assert_int_equal(blocks, 0);
	assert_int_equal(mmchal_mock_log_last(&mh)->blocks_done, 0);
	assert_int_equal(mmchal_mock_log_last(&mh)->events, MMCHAL_EV_CMD_DONE);
	/* CMD13 sent without a response wanted; CMD2, which a card in tran ignores */
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	assert_memory_equal(c.resp, zero, sizeof(zero));
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	assert_memory_equal(c.resp, zero, sizeof(zero));
	assert_int_equal(c.error, 0);
	/* ACMD41 without CMD55 is illegal in tran; without a response: no error */
	assert_int_equal(mh_cmd(41, 0, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.error, 0);
	assert_int_equal(mh_cmd(41, 0, MMCHAL_RSP_R3, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	/* ACMD23 and ACMD42 are application commands */
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(23, 1, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mmchal_mock_log_last(&mh)->opcode, 23u | MMCHAL_MOCK_ACMD);
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(42, 0, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mmchal_mock_log_last(&mh)->opcode, 42u | MMCHAL_MOCK_ACMD);
	/* pulled before start */
	mmchal_mock_set_present(&mh, false);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c),
			 MMCHAL_EV_CMD_ERROR | MMCHAL_EV_CARD_CHANGE);
	assert_int_equal(c.error, MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_mock_log_last(&mh)->state, MMCHAL_MOCK_ST_OFF);
}

/* The slot's limits in set_ios: a timing past the last one, a 4-bit bus on a
   1-bit slot, a clock at f_min (taken) and one below (refused). */
static void test_set_ios_limits(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_ios ios = slow_ios;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.host.bus = MMCHAL_BUS_SD_HS;
	cfg.host.f_min_hz = 400000;
	mh_init(&cfg);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	ios.clock_hz = 399999;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EINVAL);
	ios.clock_hz = 400000;
	ios.bus_width = MMCHAL_BUS_WIDTH_4;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EINVAL);
	ios.bus_width = MMCHAL_BUS_WIDTH_1;
	ios.timing = MMCHAL_TIMING_SD_HS;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	ios.timing = (enum mmchal_timing)(MMCHAL_TIMING_MMC_HS400 + 1);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EINVAL);
}

/* mmchal_mock_status() after init and after a transfer: every field, with the
   padding and any field it does not set zeroed; and mmchal_mock_irq_pending()
   for a presence change, a busy line counting down, and nothing at all. */
static void test_status_and_irq_pending(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_mock_status st, want;
	struct mmchal_cmd c;
	struct mmchal_data d;
	uint32_t ev;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.host.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_HW_BUSY;
	cfg.busy_latency = 2;
	mh_init(&cfg);
	assert_int_equal(mh.nblocks, MH_IMAGE_SIZE / 512u);
	memset(&st, 0x5a, sizeof(st));
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	memset(&want, 0, sizeof(want));
	want.state = MMCHAL_MOCK_ST_IDLE;
	want.width = 1;
	want.present = true;
	want.ios.bus_width = MMCHAL_BUS_WIDTH_1;
	want.ios.timing = MMCHAL_TIMING_LEGACY;
	want.ios.power_mode = MMCHAL_POWER_ON;
	want.ios.signal_voltage = MMCHAL_SIGNAL_330;
	assert_memory_equal(&st, &want, sizeof(st));
	assert_false(mmchal_mock_irq_pending(&mh));
	mh_sd_to_tran();
	assert_int_equal(mh_pio(18, 0, MMCHAL_DIR_FROM_CARD, 512, 2, blk, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.state, MMCHAL_MOCK_ST_DATA);
	assert_int_equal(st.rca, MH_RCA);
	assert_int_equal(st.width, 1);
	assert_true(st.ccs);
	assert_int_equal(st.blocks_done, 2);
	assert_int_equal(st.ios.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_BUSY_DONE);
	/* CMD12 (R1b) after a write, with the busy line: pending once the card's
	   programming busy has counted down */
	assert_int_equal(mh_pio(25, 0, MMCHAL_DIR_TO_CARD, 512, 2, blk, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	c = (struct mmchal_cmd){.opcode = 12, .flags = MMCHAL_RSP_R1B};
	struct mmchal_xfer x = {.cmd = &c};
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_true(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CMD_DONE);
	for (int i = 0; i < 10 && !(ev & MMCHAL_EV_BUSY_DONE); i++) {
		bool pending = mmchal_mock_irq_pending(&mh);

		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		assert_int_equal(pending, (ev & MMCHAL_EV_BUSY_DONE) != 0);
	}
	assert_int_equal(ev, MMCHAL_EV_BUSY_DONE);
	assert_false(mmchal_mock_irq_pending(&mh));
	/* a card pulled: pending until the host has looked */
	mmchal_mock_set_present(&mh, false);
	assert_true(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CARD_CHANGE);
	assert_false(mmchal_mock_irq_pending(&mh));
	/* a command to the card that is gone: pending, and it fails */
	c = (struct mmchal_cmd){.opcode = 13, .arg = MH_RCA << 16, .flags = MMCHAL_RSP_R1};
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_true(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ENOMEDIUM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clear_faults_clears_each),
		cmocka_unit_test(test_fail_argument_edges),
		cmocka_unit_test(test_log_slot_reused_and_cleared),
		cmocka_unit_test(test_write_protect_csd_bit),
		cmocka_unit_test(test_sdio_irq_raised_again),
		cmocka_unit_test(test_log_and_answers_per_end),
		cmocka_unit_test(test_trigger_kept_for_next),
		cmocka_unit_test(test_each_transfer_starts_clean),
		cmocka_unit_test(test_set_ios_limits),
		cmocka_unit_test(test_status_and_irq_pending),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
