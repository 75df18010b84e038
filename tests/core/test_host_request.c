/*
 * The request path and completion (src/core/request.c) over the scripted
 * backend: CMD23 / command / data / CMD12 sequencing, R1b busy, software
 * timeouts, abort, PIO retry after a DMA fault, honest bytes_xfered,
 * lock/unlock pairing per policy, deferred completion, mapping failures.
 * The plans themselves: test_host_plan.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/host_core.h>

#include "core/host_fixture.h"
#include "core/host_priv.h"
#include "core/request_fixture.h"

static void test_pio_read_cmd12(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(mmchal_host_irq(&g.host), 0); /* cmd + data done: CMD12 sent */
	assert_int_equal(ndone, 0);
	assert_int_equal(mmchal_host_irq(&g.host), 0);  /* CMD12 done: R1b busy */
	assert_int_equal(mmchal_host_poll(&g.host), 1); /* card_busy says idle */
	assert_int_equal(ndone, 1);
	assert_int_equal(g.tb.nstart, 2);
	assert_int_equal(g.tb.log[0].opcode, 18);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_PIO);
	assert_int_equal(g.tb.log[1].opcode, 12);
	assert_false(g.tb.log[1].data);
	assert_int_equal(data.bytes_xfered, 4096);
	assert_int_equal(data.error, 0);
	check_read_bytes(4096);
	stats(&st);
	assert_int_equal(st.requests, 1);
	assert_int_equal(st.completed, 1);
	assert_int_equal(st.bytes, 4096);
	assert_int_equal(st.plan[MMCHAL_PLAN_PIO], 1);
	assert_int_equal(st.reason[MMCHAL_PLAN_PIO][MMCHAL_PR_NO_ENGINE], 1);
	assert_false(g.rp.bad_nesting);
	assert_int_equal(g.rp.depth, 0);
	assert_false(g.tb.locked_seen_unlocked);
}

static void test_sbc_sequence_no_stop(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	make_rw(MMCHAL_DIR_TO_CARD, 4, 1);
	req.sbc = &sbc;
	memset(buf, 0x77, sizeof(buf));
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.nstart, 2);
	assert_int_equal(g.tb.log[0].opcode, 23);
	assert_int_equal(g.tb.log[1].opcode, 25);
	assert_true(g.tb.log[1].data);
	assert_int_equal(ndone, 1);
	assert_int_equal(data.bytes_xfered, 2048);
	assert_int_equal(g.tb.nwritten, 2048);
	assert_int_equal(g.tb.written[0], 0x77);
	assert_int_equal(g.tb.written[2047], 0x77);
}

/* An SD read of more than 65535 blocks: its CMD23 carries the count in all 32
   bits, which the host takes; a count that matches in neither reading (bits 15:0
   for eMMC, the whole argument for SD) is refused before anything starts. */
static void test_sbc_count_of_sd_in_32_bits(void **state)
{
	static unsigned char big[70000];
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	g.tb.host.blk_count_bits = 32;
	host_up();
	make_read(1, 1);
	req.sbc = &sbc;
	data.blksz = 1;
	data.blocks = 70000;
	sg[0] = (struct mmchal_sg){.cpu = big, .phys = (uintptr_t)big, .len = sizeof(big)};
	sbc.arg = 70000;
	memset(big, 0, sizeof(big));
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.nstart, 2);
	assert_int_equal(g.tb.log[0].opcode, 23);
	assert_int_equal(data.bytes_xfered, 70000);
	assert_int_equal(big[0], g.tb.fill);
	assert_int_equal(big[69999], (unsigned char)(g.tb.fill + 69999u));
	/* proved valid by the quick checks, as a count in bits 15:0 would be */
	stats(&st);
	assert_int_equal(st.full_checks, 0);
	/* the eMMC reading: bits 15:0 are 70000 - 65536, bit 16 is no count */
	sbc.arg = 70001;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EINVAL);
	assert_int_equal(g.tb.nstart, 2);
	assert_int_equal(ndone, 1);
}

static void test_data_error_sends_stop_and_counts_blocks(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	/* open-ended */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	g.tb.fail_op = 18;
	g.tb.fail_ev = MMCHAL_EV_DATA_ERROR;
	g.tb.fail_err = MMCHAL_EIO;
	g.tb.blocks_done = 3;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	assert_int_equal(data.error, MMCHAL_EIO);
	assert_int_equal(data.bytes_xfered, 3 * 512);
	assert_int_equal(g.tb.nabort, 1);
	assert_int_equal(g.tb.nstart, 2);
	assert_int_equal(g.tb.log[1].opcode, 12);
	assert_int_equal(ndone, 1);
	/* with CMD23 the failed transfer gets its CMD12 too */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	req.sbc = &sbc;
	g.tb.blocks_done = 99; /* never more than the request */
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	assert_int_equal(data.bytes_xfered, 4096);
	assert_int_equal(g.tb.nstart, 5);
	assert_int_equal(g.tb.log[2].opcode, 23);
	assert_int_equal(g.tb.log[3].opcode, 18);
	assert_int_equal(g.tb.log[4].opcode, 12);
	/* no blocks_done op: 0, never a guess */
	g.tb.has_blocks_done = false;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	assert_int_equal(data.bytes_xfered, 0);
	stats(&st);
	assert_int_equal(st.errors[-MMCHAL_EIO], 3);
	assert_int_equal(st.bytes, 1536 + 4096);
	/* a short transfer: DATA_DONE after 5 of 8 blocks is an error, 5 blocks told */
	g.tb.fail_op = 64;
	g.tb.has_blocks_done = true;
	g.tb.blocks_done = 5;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	assert_int_equal(data.bytes_xfered, 5 * 512);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].opcode, 12);
	/* and the host takes the next request */
	g.tb.blocks_done = UINT32_MAX;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(data.bytes_xfered, 4096);
}

static void test_command_errors(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	/* CMD23 fails: the command is never sent */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	req.sbc = &sbc;
	g.tb.fail_op = 23;
	g.tb.fail_ev = MMCHAL_EV_CMD_ERROR;
	g.tb.fail_err = MMCHAL_EILSEQ;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EILSEQ);
	assert_int_equal(sbc.error, MMCHAL_EILSEQ);
	assert_int_equal(g.tb.nstart, 1);
	assert_int_equal(data.bytes_xfered, 0);
	/* the command fails with no error code: EIO, the armed data aborted */
	g.tb.fail_op = 18;
	g.tb.fail_err = 0;
	req.sbc = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	assert_int_equal(cmd.error, MMCHAL_EIO);
	assert_int_equal(g.tb.nabort, 1);
	/* the card may have taken the command: the open-ended read gets its CMD12 */
	assert_int_equal(g.tb.nstart, 3);
	assert_int_equal(g.tb.log[2].opcode, 12);
	assert_int_equal(stop.error, 0);
	/* the backend refuses to start: error returned, done never called */
	g.tb.fail_op = 64;
	g.tb.start_err = MMCHAL_ENOMEDIUM;
	g.tb.start_err_op = 18;
	ndone = 0;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_ENOMEDIUM);
	assert_int_equal(ndone, 0);
	g.tb.start_err = 0;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(ndone, 1);
}

static void test_invalid_and_busy_change_nothing(void **state)
{
	struct mmchal_host_stats st;
	struct mmchal_request r2;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	sg[1].len = 100; /* sum wrong */
	data.bytes_xfered = 1234;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EINVAL);
	assert_int_equal(data.bytes_xfered, 1234);
	assert_int_equal(g.tb.nstart, 0);
	/* a NULL CPU address on a PIO host */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	sg[0].cpu = NULL;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EINVAL);
	assert_int_equal(g.tb.nstart, 0);
	/* one in flight, a second refused */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	r2 = req;
	assert_int_equal(mmchal_host_request(&g.host, &r2), MMCHAL_EBUSY);
	assert_int_equal(g.tb.nstart, 1);
	stats(&st);
	assert_int_equal(st.rejected_invalid, 2);
	assert_int_equal(st.rejected_busy, 1);
	assert_int_equal(st.requests, 1);
	assert_int_equal(mmchal_host_abort(&g.host), 0);
	assert_int_equal(mmchal_host_abort(&g.host), MMCHAL_ENOENT);
	assert_int_equal(ndone, 1);
	assert_int_equal(cmd.error, MMCHAL_ECANCELED);
}

/* Entries the combined checks must still catch: longer than max_seg_size or
 * zero-length, with the sum of lengths right (the list is never touched). */
static void test_invalid_entries_sum_right(void **state)
{
	const struct mmchal_limits *lim;
	uint32_t big;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++)
		g.tb.dma.dir[d].max_seg_size = 4096;
	host_up();
	lim = mmchal_host_limits(&g.host);
	assert_int_equal(lim->max_seg_size, 4096);
	big = lim->max_seg_size + 512u;
	assert_true((uint64_t)big + 512u <= lim->max_req_size);
	make_rw(MMCHAL_DIR_FROM_CARD, (big + 512u) / 512u, 2);
	sg[0].len = big;
	sg[1].len = 512;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EINVAL);
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 3);
	sg[1].len += sg[2].len;
	sg[2].len = 0;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EINVAL);
	assert_int_equal(g.tb.nstart, 0);
	/* and a valid one goes */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.tb.nstart, 1);
}

static void test_r1b_busy(void **state)
{
	struct mmchal_cmd c = {.opcode = 6, .arg = 0x03b70200, .flags = MMCHAL_RSP_R1B};
	struct mmchal_request r = {.cmd = &c, .done = on_done};

	(void)state;
	/* polled: card_busy until idle */
	setup_port(&rec_ops_coherent, 0);
	host_up();
	g.tb.busy_left = 3;
	assert_int_equal(mmchal_host_request(&g.host, &r), 0);
	assert_int_equal(mmchal_host_poll(&g.host), 0); /* response; busy 1 */
	assert_int_equal(mmchal_host_poll(&g.host), 0); /* busy 2 */
	assert_int_equal(mmchal_host_poll(&g.host), 0); /* busy 3 */
	assert_int_equal(ndone, 0);
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(ndone, 1);
	assert_int_equal(c.error, 0);
	/* stuck busy: the busy timeout fires */
	g.tb.busy_left = 1000000;
	c.busy_timeout_ms = 2;
	assert_int_equal(mmchal_host_request_sync(&g.host, &r, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(ndone, 2);
	assert_int_equal(g.tb.nabort, 1);
	/* the controller sees the end of busy itself */
	setup_port(&rec_ops_coherent, 0);
	g.tb.host.bus |= MMCHAL_BUS_HW_BUSY;
	g.tb.has_card_busy = false;
	host_up();
	c.error = 1;
	assert_int_equal(mmchal_host_request(&g.host, &r), 0);
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(c.error, 0);
	assert_int_equal(ndone, 1);
}

static void test_timeouts(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	g.cfg.cmd_timeout_ms = 5;
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	g.tb.auto_complete = false;
	/* command timeout: aborted, then CMD12 for the open-ended read */
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.rp.now += 4999999;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	g.rp.now += 1;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	assert_int_equal(cmd.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(g.tb.nabort, 1);
	assert_int_equal(g.tb.log[1].opcode, 12);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0); /* R1b busy */
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(data.bytes_xfered, 0);
	assert_int_equal(ndone, 1);
	assert_int_equal(mmchal_host_poll(&g.host), 0); /* nothing left to time out */
	assert_int_equal(ndone, 1);
	/* data timeout (per block, from the data) with CMD12 after it */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	data.timeout_ns = 1000000; /* 8 ms for 8 blocks */
	g.tb.blocks_done = 2;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	g.rp.now += 7999999;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	g.rp.now += 1;
	assert_int_equal(mmchal_host_poll(&g.host), 0); /* CMD12 on the line */
	assert_int_equal(g.tb.log[3].opcode, 12);
	assert_int_equal(data.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(data.bytes_xfered, 1024);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0); /* R1b busy */
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(ndone, 2);
	/* request_sync's own timeout */
	make_read(8, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 1), MMCHAL_ETIMEDOUT);
	assert_int_equal(ndone, 3);
	stats(&st);
	assert_int_equal(st.timeouts, 3);
	assert_int_equal(st.errors[-MMCHAL_ETIMEDOUT], 3);
	/* and the next request goes through */
	g.tb.auto_complete = true;
	g.tb.blocks_done = UINT32_MAX;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(ndone, 4);
	/* without a timeout of its own, request_sync waits out a busy card */
	{
		struct mmchal_cmd c6 = {.opcode = 6, .arg = 0x03b70200, .flags = MMCHAL_RSP_R1B};
		struct mmchal_request r6 = {.cmd = &c6, .done = on_done};

		g.tb.busy_left = 3;
		assert_int_equal(mmchal_host_request_sync(&g.host, &r6, 0), 0);
		assert_int_equal(c6.error, 0);
		assert_int_equal(g.tb.busy_left, 0);
	}
	/* its timeout in an open-ended read: CMD12 goes out, and from then on
	 * only the host's own timeouts bound it (its busy takes three polls) */
	g.tb.auto_data = false;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	g.tb.busy_left = 3;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 1), MMCHAL_ETIMEDOUT);
	assert_int_equal(data.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(stop.error, 0);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].opcode, 12);
	assert_int_equal(g.tb.busy_left, 0);
	assert_int_equal(ndone, 6);
}

static void test_spurious_and_late_events(void **state)
{
	struct mmchal_host_stats st;
	struct mmchal_cmd c = {.opcode = 13, .flags = MMCHAL_RSP_R1};
	struct mmchal_request r = {.cmd = &c, .done = on_done};

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	g.tb.pending = MMCHAL_EV_CARD_CHANGE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(mmchal_host_request_sync(&g.host, &r, 10), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	stats(&st);
	assert_int_equal(st.spurious, 2);
	assert_int_equal(ndone, 1);
}

/* Every way a request can fail is counted once under its error, and the
 * request reports that error: command, SET_BLOCK_COUNT and STOP errors, a
 * refused start of the command or the STOP, the controller's own CMD12, a
 * failed busy wait and a data error. */
static void test_errors_counted_by_kind(void **state)
{
	enum { SBC, OPEN }; /* the request: CMD23 first, or open-ended with CMD12 */
	static const struct {
		int shape;
		uint32_t fail_op, fail_ev, start_op;
		int err;
	} rows[] = {
		{SBC, 23, MMCHAL_EV_CMD_ERROR, 0, MMCHAL_EILSEQ},
		{SBC, 18, MMCHAL_EV_CMD_ERROR, 0, MMCHAL_ERANGE},
		{SBC, 18, MMCHAL_EV_DATA_ERROR, 0, MMCHAL_EPROTO},
		{OPEN, 12, MMCHAL_EV_CMD_ERROR, 0, MMCHAL_ENOSPC},
		{SBC, 64, 0, 18, MMCHAL_ENOENT},
		{OPEN, 64, 0, 12, MMCHAL_EALREADY},
	};
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
		if (rows[i].shape == SBC) {
			req.sbc = &sbc;
			req.stop = NULL;
		}
		g.tb.fail_op = rows[i].fail_op;
		g.tb.fail_ev = rows[i].fail_ev;
		g.tb.fail_err = rows[i].err;
		g.tb.start_err_op = rows[i].start_op;
		g.tb.start_err = rows[i].start_op ? rows[i].err : 0;
		assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), rows[i].err);
		stats(&st);
		assert_int_equal(st.errors[-rows[i].err], 1);
		assert_int_equal(st.completed, i + 1u);
	}
	g.tb.fail_op = 64;
	g.tb.start_err = 0;
	/* the controller's CMD12 failed after the data */
	g.tb.host.bus |= MMCHAL_BUS_AUTO_CMD12;
	mmchal_host_deinit(&g.host);
	host_up();
	g.tb.auto_stop_err = MMCHAL_ECANCELED;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_ECANCELED);
	stats(&st);
	assert_int_equal(st.errors[-MMCHAL_ECANCELED], 1);
	/* a busy wait the backend cannot answer */
	g.tb.has_card_busy = false;
	cmd = (struct mmchal_cmd){.opcode = 6, .flags = MMCHAL_RSP_R1B};
	req = (struct mmchal_request){.cmd = &cmd, .done = on_done};
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_ENOTSUP);
	stats(&st);
	assert_int_equal(st.errors[-MMCHAL_ENOTSUP], 1);
	/* and a request that went well counts no error */
	g.tb.has_card_busy = true;
	g.tb.auto_stop_err = 0;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	stats(&st);
	for (int e = 0; e < MMCHAL_HOST_ERR_SLOTS; e++)
		assert_int_equal(st.errors[e], e == -MMCHAL_ECANCELED || e == -MMCHAL_ENOTSUP);
}

static void test_lock_pairing_per_policy(void **state)
{
	static const enum mmchal_completion_policy pols[] = {
		MMCHAL_POLICY_IRQ_LOCKED, MMCHAL_POLICY_IRQ_SPLIT, MMCHAL_POLICY_DEFERRED};

	(void)state;
	for (size_t p = 0; p < 3; p++) {
		bool inside = false, inval_inside = false, inval_seen = false;

		setup_port(&rec_ops_full, 0);
		tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, false);
		g.cfg.policy.override = pols[p];
		g.rp.record_locks = true;
		host_up();
		assert_int_equal(mmchal_host_limits(&g.host)->policy, pols[p]);
		make_read(8, 2);
		g.tb.auto_complete = false;
		assert_int_equal(mmchal_host_request(&g.host, &req), 0);
		g.rp.n = 0;
		g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
		assert_int_equal(mmchal_host_irq(&g.host), 1);
		if (pols[p] == MMCHAL_POLICY_DEFERRED) {
			assert_int_equal(ndone, 0);
			assert_int_equal(rec_count(&g.rp, REC_WORK), 1);
			assert_int_equal(rec_count(&g.rp, REC_INVAL), 0);
			rec_run_work(&g.rp);
		}
		assert_int_equal(ndone, 1);
		for (uint32_t i = 0; i < g.rp.n; i++) {
			if (g.rp.log[i].op == REC_LOCK) {
				assert_false(inside);
				inside = true;
			} else if (g.rp.log[i].op == REC_UNLOCK) {
				assert_true(inside);
				inside = false;
			} else if (g.rp.log[i].op == REC_INVAL) {
				inval_seen = true;
				inval_inside |= inside;
			}
		}
		assert_false(inside);
		assert_true(inval_seen);
		/* only IRQ_LOCKED invalidates (completion work) with the lock held */
		assert_int_equal(inval_inside, pols[p] == MMCHAL_POLICY_IRQ_LOCKED);
		/* IRQ_LOCKED: one lock section; the others: transition, then commit */
		assert_int_equal(rec_count(&g.rp, REC_LOCK),
				 pols[p] == MMCHAL_POLICY_IRQ_LOCKED ? 1 : 2);
		assert_false(g.rp.bad_nesting);
		assert_false(g.tb.locked_seen_unlocked);
	}
}

/* A request with nothing to unmap, copy or invalidate (PIO; DIRECT on a
 * coherent engine) completes in the interrupt's one lock section under
 * IRQ_SPLIT: the commit needs no second one. */
static void test_no_release_one_lock_section(void **state)
{
	(void)state;
	for (int dma = 0; dma < 2; dma++) {
		setup_port(&rec_ops_coherent, 0);
		if (dma)
			tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, true);
		g.cfg.policy.override = MMCHAL_POLICY_IRQ_SPLIT;
		g.rp.record_locks = true;
		host_up();
		make_read(8, 2);
		g.tb.auto_complete = false;
		assert_int_equal(mmchal_host_request(&g.host, &req), 0);
		assert_int_equal(g.host.plan.plan, dma ? MMCHAL_PLAN_DIRECT : MMCHAL_PLAN_PIO);
		g.rp.n = 0;
		g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
		assert_int_equal(mmchal_host_irq(&g.host), 1);
		assert_int_equal(ndone, 1);
		assert_int_equal(rec_count(&g.rp, REC_LOCK), 1);
		assert_int_equal(rec_count(&g.rp, REC_UNLOCK), 1);
		/* a command without data, after that data phase: the same */
		cmd = (struct mmchal_cmd){.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
		req = (struct mmchal_request){.cmd = &cmd, .done = on_done};
		assert_int_equal(mmchal_host_request(&g.host, &req), 0);
		g.rp.n = 0;
		g.tb.pending = MMCHAL_EV_CMD_DONE;
		assert_int_equal(mmchal_host_irq(&g.host), 1);
		assert_int_equal(ndone, 2);
		assert_int_equal(rec_count(&g.rp, REC_LOCK), 1);
		assert_int_equal(rec_count(&g.rp, REC_UNLOCK), 1);
	}
}

static void test_deferred_schedule_fails(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_full, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, true);
	g.cfg.policy.override = MMCHAL_POLICY_DEFERRED;
	host_up();
	g.rp.work_err = MMCHAL_ENOMEM;
	make_read(8, 2);
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(ndone, 1);
	stats(&st);
	assert_int_equal(st.defer_inline, 1);
}

static void test_pio_retry_after_dma_fault(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	retry_host();
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(ndone, 1);
	/* 18 (DMA, fault), 12, 18 (PIO), 12 */
	assert_int_equal(g.tb.nstart, 4);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_DIRECT);
	assert_int_equal(g.tb.log[1].opcode, 12);
	assert_int_equal(g.tb.log[2].opcode, 18);
	assert_int_equal(g.tb.log[2].plan, MMCHAL_PLAN_PIO);
	assert_int_equal(data.error, 0);
	assert_int_equal(data.bytes_xfered, 4096);
	check_read_bytes(4096);
	stats(&st);
	assert_int_equal(st.pio_retries, 1);
	assert_int_equal(st.reason[MMCHAL_PLAN_PIO][MMCHAL_PR_RETRY], 1);
	assert_int_equal(st.completed, 1);
	/* without the switch the fault is reported */
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, true);
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	g.tb.fail_op = 18;
	g.tb.fail_ev = MMCHAL_EV_DATA_ERROR;
	g.tb.fail_err = MMCHAL_EFAULT;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EFAULT);
	assert_int_equal(g.tb.nstart, 2);
	/* the retry's SET_BLOCK_COUNT is refused: the request ends with that
	 * error, counted once, and the host takes the next one */
	retry_host();
	req.sbc = &sbc;
	req.stop = NULL;
	g.tb.start_err_op = 23;
	g.tb.start_err = MMCHAL_EBUSY;
	g.tb.start_err_after = 1;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EBUSY);
	assert_int_equal(sbc.error, MMCHAL_EBUSY);
	assert_int_equal(data.bytes_xfered, 0); /* the retry moved nothing */
	assert_int_equal(data.error, 0);
	assert_int_equal(ndone, 1);
	stats(&st);
	assert_int_equal(st.pio_retries, 1);
	assert_int_equal(st.errors[-MMCHAL_EBUSY], 1);
	assert_int_equal(st.errors[-MMCHAL_EFAULT], 0);
	g.tb.start_err = 0;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	/* with SET_BLOCK_COUNT: the retry starts clean, CMD23 again, and succeeds */
	retry_host();
	req.sbc = &sbc;
	req.stop = NULL;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(sbc.error, 0);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(data.error, 0);
	/* 23, 18 (DMA, fault), 23, 18 (PIO) */
	assert_int_equal(g.tb.nstart, 4);
	assert_int_equal(g.tb.log[2].opcode, 23);
	assert_int_equal(g.tb.log[3].plan, MMCHAL_PLAN_PIO);
	check_read_bytes(4096);
}

/* Every phase has its own deadline, armed when its command goes out: the
 * SET_BLOCK_COUNT, the command after it, the STOP after a timeout and an R1b
 * busy wait each time out exactly at their limit, never before. */
static void test_deadline_per_phase(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	g.cfg.cmd_timeout_ms = 5;
	host_up();
	g.tb.auto_complete = false;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	req.sbc = &sbc;
	req.stop = NULL;
	g.rp.now = 1000000000;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	g.rp.now += 4999999;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	g.rp.now += 1;
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(sbc.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(cmd.error, 0);
	/* the command after CMD23: its deadline counts from its own start */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	req.sbc = &sbc;
	req.stop = NULL;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.rp.now += 3000000;
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(g.host.state, HS_CMD);
	g.rp.now += 4999999;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	g.rp.now += 1;
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(cmd.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(sbc.error, 0);
	/* the STOP sent after a timeout has its own deadline too */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	stop.flags = MMCHAL_RSP_R1;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.rp.now += 5000000;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	assert_int_equal(g.host.state, HS_STOP);
	g.rp.now += 4999999;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	g.rp.now += 1;
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(cmd.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(stop.error, MMCHAL_ETIMEDOUT);
	/* an R1b busy wait: 3 ms from the response */
	cmd = (struct mmchal_cmd){.opcode = 6, .flags = MMCHAL_RSP_R1B, .busy_timeout_ms = 3};
	req = (struct mmchal_request){.cmd = &cmd, .done = on_done};
	g.tb.busy_left = 1000000;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.rp.now += 1000;
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	g.rp.now += 2999999;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	assert_int_equal(g.host.busy_polls, 1);
	g.rp.now += 1;
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(cmd.error, MMCHAL_ETIMEDOUT);
	/* the next busy wait counts its polls from zero */
	cmd = (struct mmchal_cmd){.opcode = 6, .flags = MMCHAL_RSP_R1B};
	g.tb.busy_left = 2;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(g.host.busy_polls, 0);
}

/* A command without data never carries the data fields of the request
 * before it: no plan, no segments, no controller STOP. */
static void test_command_xfer_has_no_data_fields(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, true);
	g.tb.host.bus |= MMCHAL_BUS_AUTO_CMD12;
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_true(g.tb.cur.auto_stop);
	assert_int_equal(g.tb.cur.nsegs, 2);
	g.tb.auto_complete = false;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	req.sbc = &sbc;
	req.stop = NULL;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.tb.cur.cmd->opcode, 23);
	assert_null(g.tb.cur.data);
	assert_false(g.tb.cur.auto_stop);
	assert_null(g.tb.cur.stop);
	assert_int_equal(g.tb.cur.plan, MMCHAL_PLAN_PIO);
	assert_null(g.tb.cur.segs);
	assert_int_equal(g.tb.cur.nsegs, 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(g.tb.cur.plan, MMCHAL_PLAN_DIRECT);
	assert_int_equal(g.tb.cur.nsegs, 2);
	assert_int_equal(mmchal_host_abort(&g.host), 0);
	/* a PIO data phase hands over no segments either */
	setup_port(&rec_ops_coherent, 0);
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.cur.cmd->opcode, 12);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_PIO);
	assert_int_equal(g.tb.log[0].nsegs, 0);
}

/* A mapping or a bounce that cannot be made fails the request with its
 * error before anything is sent, and leaves the host usable. */
static void test_map_failures(void **state)
{
	struct mmchal_bounce_map hold[8] = {0}; /* records not mapped */
	struct mmchal_dma_seg seg;
	struct mmchal_sg big = {.cpu = buf, .phys = (uintptr_t)buf, .len = sizeof(buf)};
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	g.fi.fail_map_at = 1;
	make_read(16, 2);
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EFAULT);
	assert_int_equal(g.tb.nstart, 0);
	assert_int_equal(g.fi.pages, 0);
	g.fi.fail_map_at = 0;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	/* the bounce pool is taken by someone else */
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].addr_align = 4096;
	mmchal_host_plan_env_(&g.host);
	for (int i = 0; i < 8; i++) /* 8 x 8 slots: all 64 */
		assert_int_equal(
			mmchal_bounce_map(&g.bounce, &big, 1, MMCHAL_DIR_TO_CARD, &hold[i], &seg),
			0);
	make_read(8, 1);
	sg[0].cpu = buf + 512;
	sg[0].phys += 512;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_ENOMEM);
	assert_int_equal(g.tb.nstart, 0);
	stats(&st);
	assert_int_equal(st.requests, 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(mmchal_bounce_unmap(&g.bounce, &hold[i], false), 0);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_BOUNCED);
}

/* An unmap that fails is counted; the data already arrived, so the request
 * itself succeeds. */
static void test_unmap_error_counted(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	g.fi.unmap_err = MMCHAL_EIO;
	make_read(16, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	stats(&st);
	assert_int_equal(st.unmap_errors, 1);
	assert_int_equal(st.completed, 1);
	for (int e = 0; e < MMCHAL_HOST_ERR_SLOTS; e++)
		assert_int_equal(st.errors[e],
				 0); /* a success counts no error, not even in slot 0 */
	g.fi.unmap_err = 0;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	stats(&st);
	assert_int_equal(st.unmap_errors, 1);
}

/* A backend whose interrupt handler fails reported nothing: no step is
 * taken on its events, from an interrupt or a poll; idle events are counted
 * as spurious. */
static void test_irq_errors_and_spurious(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	g.tb.pending = MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	stats(&st);
	assert_int_equal(st.spurious, 2);
	make_read(8, 1);
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.tb.irq_err = MMCHAL_EIO;
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	assert_int_equal(ndone, 0);
	assert_int_equal(g.host.state, HS_CMD);
	g.tb.irq_err = 0;
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(ndone, 1);
	assert_int_equal(data.error, 0);
	stats(&st);
	assert_int_equal(st.spurious, 2);
}

/* R1b: without a busy line and without card_busy the stack polls CMD13
 * itself (done at the response); with the busy line the host waits for its
 * end and ignores other events meanwhile. */
static void test_busy_without_and_with_the_line(void **state)
{
	struct mmchal_backend_ops ops = tb_ops;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	ops.card_busy = NULL;
	g.be.ops = &ops;
	host_up();
	cmd = (struct mmchal_cmd){.opcode = 6, .flags = MMCHAL_RSP_R1B};
	req = (struct mmchal_request){.cmd = &cmd, .done = on_done};
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(ndone, 1);
	/* the busy line */
	setup_port(&rec_ops_coherent, 0);
	g.tb.host.bus |= MMCHAL_BUS_HW_BUSY;
	host_up();
	cmd = (struct mmchal_cmd){.opcode = 6, .flags = MMCHAL_RSP_R1B};
	req = (struct mmchal_request){.cmd = &cmd, .done = on_done};
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(g.host.state, HS_BUSY);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(g.host.state, HS_BUSY);
	g.tb.pending = MMCHAL_EV_BUSY_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(ndone, 1);
	assert_int_equal(cmd.error, 0);
}

/* The end of busy reported with the response (or with the data, after the
 * controller's own CMD12) completes the request in that interrupt. */
static void test_busy_end_with_the_response(void **state)
{
	(void)state;
	/* R1b command, busy line */
	setup_port(&rec_ops_coherent, 0);
	g.tb.host.bus |= MMCHAL_BUS_HW_BUSY;
	host_up();
	cmd = (struct mmchal_cmd){.opcode = 6, .flags = MMCHAL_RSP_R1B};
	req = (struct mmchal_request){.cmd = &cmd, .done = on_done};
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_BUSY_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(ndone, 1);
	assert_int_equal(g.host.state, HS_IDLE);
	/* the core's CMD12 (R1b) after an open-ended read */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(g.host.state, HS_STOP);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_BUSY_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(ndone, 2);
	assert_int_equal(data.bytes_xfered, 4096);
	/* the controller's CMD12 without a busy line: its busy ends with the data */
	setup_port(&rec_ops_coherent, 0);
	g.tb.host.bus |= MMCHAL_BUS_AUTO_CMD12;
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_true(g.tb.cur.auto_stop);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE | MMCHAL_EV_BUSY_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(ndone, 1);
	assert_int_equal(g.tb.nstart, 1);
}

/* The controller's own CMD12 with its busy on the line: the data phase ends
 * after it, the core sends nothing more. */
static void test_auto_stop_with_busy_line(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	g.tb.host.bus |= MMCHAL_BUS_AUTO_CMD12 | MMCHAL_BUS_HW_BUSY;
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	stop.error = MMCHAL_EIO; /* stale: cleared by the request */
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.nstart, 1);
	assert_true(g.tb.cur.auto_stop);
	assert_ptr_equal(g.tb.cur.stop, &stop);
	assert_int_equal(stop.error, 0);
	assert_int_equal(data.bytes_xfered, 4096);
}

/* PIO retry when the completion runs outside the lock (IRQ_SPLIT), and no
 * retry for a list without CPU addresses: the fault is reported. */
static void test_pio_retry_split_and_no_cpu(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	retry_host_policy(MMCHAL_POLICY_IRQ_SPLIT);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(data.bytes_xfered, 4096);
	stats(&st);
	assert_int_equal(st.pio_retries, 1);
	assert_false(g.rp.bad_nesting);
	retry_host_policy(MMCHAL_POLICY_IRQ_SPLIT);
	sg[1].cpu = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EFAULT);
	stats(&st);
	assert_int_equal(st.pio_retries, 0);
	assert_int_equal(st.errors[-MMCHAL_EFAULT], 1);
}

/* A poll or interrupt call answers 1 exactly when the request completed in it:
 * the call that restarts a faulted DMA read by PIO answers 0 (the request is
 * running again, its done comes later), under every policy that completes in
 * the caller's context. */
static void test_pio_retry_is_no_completion(void **state)
{
	static const enum mmchal_completion_policy pols[] = {
		MMCHAL_POLICY_IRQ_LOCKED, MMCHAL_POLICY_IRQ_SPLIT, MMCHAL_POLICY_AUTO};
	struct mmchal_host_stats st;

	(void)state;
	for (size_t p = 0; p < sizeof(pols) / sizeof(pols[0]); p++) {
		unsigned int calls = 0, ones = 0;

		retry_host_policy(pols[p]);
		assert_int_equal(mmchal_host_request(&g.host, &req), 0);
		while (ndone == 0 && calls < 64u) {
			unsigned int before = ndone;
			int ret = p == 0 ? mmchal_host_irq(&g.host) : mmchal_host_poll(&g.host);

			if (ret == 0 && p == 0)
				ret = mmchal_host_poll(&g.host); /* R1b busy ends by polling */
			assert_int_equal(ret, (int)(ndone - before));
			ones += (unsigned int)ret;
			calls++;
		}
		assert_int_equal(ndone, 1);
		assert_int_equal(ones, 1);
		assert_int_equal(data.error, 0);
		assert_int_equal(data.bytes_xfered, 4096);
		stats(&st);
		assert_int_equal(st.pio_retries, 1);
		/* DMA try, its CMD12, the PIO retry and its CMD12 */
		assert_int_equal(g.tb.nstart, 4);
		assert_int_equal(g.tb.log[2].plan, MMCHAL_PLAN_PIO);
	}
}

/* The explanation in every buffer size: truncation is reported, the text is
 * terminated inside the buffer and nothing past it is written. */
static void test_explain_every_size(void **state)
{
	static char full[4096], out[4096 + 16];
	int n;

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU | USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	make_read(8, 1);
	g.tb.fail_op = 18;
	g.tb.fail_ev = MMCHAL_EV_DATA_ERROR;
	g.tb.fail_err = MMCHAL_EIO;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	n = mmchal_host_explain(&g.host, full, sizeof(full));
	assert_true(n > 0 && (size_t)n < sizeof(full));
	assert_int_equal(strlen(full), (size_t)n);
	assert_true(fx_contains(full, "failed: "));
	for (size_t size = 1; size <= (size_t)n + 1u; size++) {
		size_t z;
		int r;

		memset(out, 0x5a, sizeof(out));
		r = mmchal_host_explain(&g.host, out, size);
		for (size_t i = size; i < sizeof(out); i++)
			assert_int_equal(out[i], 0x5a);
		for (z = 0; z < size && out[z] != 0; z++)
			;
		assert_true(z < size); /* terminated inside the buffer */
		if (size <= (size_t)n) {
			assert_int_equal(r, MMCHAL_ENOSPC);
			assert_memory_equal(out, full, strlen(out));
		} else {
			assert_int_equal(r, n);
			assert_string_equal(out, full);
		}
	}
	assert_int_equal(mmchal_host_explain(&g.host, out, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_explain(&g.host, NULL, 8), MMCHAL_EINVAL);
}

/* A failed blocks_done() answer counts nothing, whatever it wrote. */
static void test_failed_blocks_done_counts_nothing(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	g.tb.fail_op = 18;
	g.tb.fail_ev = MMCHAL_EV_DATA_ERROR;
	g.tb.fail_err = MMCHAL_EIO;
	g.tb.blocks_done = 5;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	assert_int_equal(data.bytes_xfered, 5 * 512);
	g.tb.blocks_done_err = MMCHAL_EIO;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	assert_int_equal(data.error, MMCHAL_EIO);
	assert_int_equal(data.bytes_xfered, 0);
	assert_int_equal(ndone, 2);
}

/* A CMD23 or CMD12 that fails without a code from the backend is MMCHAL_EIO. */
static void test_sbc_and_stop_errors_without_code(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	g.tb.fail_ev = MMCHAL_EV_CMD_ERROR;
	g.tb.fail_err = 0;
	g.tb.fail_op = 23;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	req.sbc = &sbc;
	req.stop = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	assert_int_equal(sbc.error, MMCHAL_EIO);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(g.tb.nstart, 1);
	g.tb.fail_op = 12;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	assert_int_equal(stop.error, MMCHAL_EIO);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(data.error, 0);
	assert_int_equal(data.bytes_xfered, 4096);
	assert_int_equal(g.tb.nstart, 3);
	assert_int_equal(g.tb.log[2].opcode, 12);
	assert_int_equal(ndone, 2);
}

/* The controller's own CMD12 (R1b) on a host without a busy line: the core
 * waits on card_busy() after the data, as for a CMD12 it sent itself. */
static void test_auto_stop_busy_polled(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	g.tb.host.bus |= MMCHAL_BUS_AUTO_CMD12;
	host_up();
	g.tb.auto_complete = false;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_true(g.tb.cur.auto_stop);
	g.tb.busy_left = 2;
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(g.host.state, HS_BUSY);
	assert_int_equal(ndone, 0);
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	assert_int_equal(g.tb.busy_left, 1);
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(g.tb.busy_left, 0);
	assert_int_equal(ndone, 1);
	assert_int_equal(stop.error, 0);
	assert_int_equal(data.bytes_xfered, 4096);
	assert_int_equal(g.tb.nstart, 1);
}

/* A request starts with every error and count of its own cleared: stale values
   from the caller's last use never come back, on success and when the command
   fails before its data phase. */
static void test_request_clears_stale_fields(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	req.sbc = &sbc;
	req.stop = NULL;
	sbc.error = MMCHAL_EIO;
	data.error = MMCHAL_EIO;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(sbc.error, 0);
	assert_int_equal(data.error, 0);
	assert_int_equal(data.bytes_xfered, 4096);
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	stop.error = MMCHAL_EIO;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(stop.error, 0);
	/* the command fails: its data phase never ran */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	req.stop = NULL;
	data.error = MMCHAL_ETIMEDOUT;
	data.bytes_xfered = 123;
	g.tb.fail_op = 18;
	g.tb.fail_ev = MMCHAL_EV_CMD_ERROR;
	g.tb.fail_err = MMCHAL_EIO;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EIO);
	assert_int_equal(cmd.error, MMCHAL_EIO);
	assert_int_equal(data.error, 0);
	assert_int_equal(data.bytes_xfered, 0);
}

/* The controller ends only multiple-block transfers by itself: a one-block
   read with a STOP gets the core's own CMD12. */
static void test_auto_stop_only_multiple_blocks(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, 0);
	g.tb.host.bus |= MMCHAL_BUS_AUTO_CMD12;
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 1, 1);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_false(g.tb.cur.auto_stop);
	assert_int_equal(g.tb.nstart, 2);
	assert_int_equal(g.tb.log[1].opcode, 12);
	make_rw(MMCHAL_DIR_FROM_CARD, 2, 1);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_true(g.tb.cur.auto_stop);
	assert_int_equal(g.tb.nstart, 3);
}

/* A first command the backend refuses: the request is not counted, its
   mapping is released, and nothing completes. A command after a mapped DMA
   request carries no plan, segment or mapping of it. */
static void test_refused_start_unwinds(void **state)
{
	struct mmchal_host_stats st;
	struct mmchal_cmd c13 = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
	struct mmchal_request r13 = {.cmd = &c13, .done = on_done};

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	make_read(16, 2);
	g.tb.start_err_op = 18;
	g.tb.start_err = MMCHAL_EIO;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EIO);
	assert_int_equal(g.fi.pages, 0);
	assert_int_equal(g.fi.maps, g.fi.unmaps);
	assert_int_equal(ndone, 0);
	stats(&st);
	assert_int_equal(st.requests, 0);
	assert_int_equal(st.completed, 0);
	g.tb.start_err = 0;
	make_read(16, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.cur.plan, MMCHAL_PLAN_DIRECT);
	assert_int_equal(g.tb.cur.nsegs, 2);
	assert_int_equal(mmchal_host_request_sync(&g.host, &r13, 100), 0);
	assert_int_equal(g.tb.cur.plan, MMCHAL_PLAN_PIO);
	assert_int_equal(g.tb.cur.nsegs, 0);
	assert_null(g.tb.cur.segs);
	assert_false(g.host.plan.iommu);
	assert_int_equal(g.fi.pages, 0);
	stats(&st);
	assert_int_equal(st.requests, 2);
	assert_int_equal(st.completed, 2);
}

/* Polling an idle host: nothing pending counts nothing; a card change is
 * counted as one and is not spurious. A card change that comes with the
 * events of a running request is counted too, and the request completes. */
static void test_poll_idle_and_card_change(void **state)
{
	struct mmchal_host_stats st;
	struct mmchal_cmd c = {.opcode = 13, .flags = MMCHAL_RSP_R1};
	struct mmchal_request r = {.cmd = &c, .done = on_done};

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	g.tb.pending = 0;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	stats(&st);
	assert_int_equal(st.spurious, 0);
	assert_int_equal(st.card_changes, 0);
	g.tb.pending = MMCHAL_EV_CARD_CHANGE;
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	stats(&st);
	assert_int_equal(st.spurious, 0);
	assert_int_equal(st.card_changes, 1);
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &r), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_CARD_CHANGE;
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(ndone, 1);
	stats(&st);
	assert_int_equal(st.card_changes, 2);
	assert_int_equal(st.spurious, 0);
}

static int nested_rc;

/* Another context's request, the first time the host lock is released. */
static void nested_request(struct rec_port *rp)
{
	static struct mmchal_cmd c2 = {.opcode = 13, .flags = MMCHAL_RSP_R1};
	static struct mmchal_request r2 = {.cmd = &c2, .done = on_done};

	rp->on_unlock = NULL;
	nested_rc = mmchal_host_request(&g.host, &r2);
}

/* One request in flight: once a request has claimed the host, a second one
 * that comes while the first is still being checked (the lock released in
 * between) is refused with EBUSY and counted, and the first goes on. */
static void test_claimed_while_checking(void **state)
{
	struct mmchal_host_stats st;
	struct mmchal_cmd c = {.opcode = 13, .flags = MMCHAL_RSP_R1};
	struct mmchal_request r = {.cmd = &c, .done = on_done};

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	host_up();
	nested_rc = 1;
	g.tb.auto_complete = false;
	g.rp.on_unlock = nested_request;
	assert_int_equal(mmchal_host_request(&g.host, &r), 0);
	assert_int_equal(nested_rc, MMCHAL_EBUSY);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(ndone, 1);
	assert_int_equal(c.error, 0);
	stats(&st);
	assert_int_equal(st.rejected_busy, 1);
	assert_int_equal(st.completed, 1);
}

static struct mmchal_host_stats usage_seen[16];
static uint32_t usage_state[16];
static uint32_t nusage;
static bool in_usage;

/* Another context reads the counters whenever the lock is released while
   the request's owner maps it (PREP) or releases it (DONE). */
static void stats_while_mapping(struct rec_port *rp)
{
	uint32_t s = g.host.state;

	(void)rp;
	if (in_usage || (s != HS_PREP && s != HS_DONE) || nusage >= 16u)
		return;
	in_usage = true;
	assert_int_equal(mmchal_host_stats(&g.host, &usage_seen[nusage]), 0);
	usage_state[nusage++] = s;
	in_usage = false;
}

/* While a request is being mapped or released, mmchal_host_stats() does not
   read the domain: the usage figures are those of the last call that could
   read them (none mapped), although two pages are mapped at release. Once
   the request is over they are read again. */
static void test_stats_usage_while_mapping(void **state)
{
	struct mmchal_host_stats st;
	bool prep = false, done = false;

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	make_read(16, 2);
	stats(&st);
	assert_int_equal(st.iova_pages, 0);
	assert_int_equal(st.iova_pages_peak, 0);
	nusage = 0;
	in_usage = false;
	g.rp.on_unlock = stats_while_mapping;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	g.rp.on_unlock = NULL;
	assert_true(nusage > 0u);
	for (uint32_t i = 0; i < nusage; i++) {
		prep |= usage_state[i] == HS_PREP;
		done |= usage_state[i] == HS_DONE;
		assert_int_equal(usage_seen[i].iova_pages, 0);
		assert_int_equal(usage_seen[i].iova_pages_peak, 0);
		assert_int_equal(usage_seen[i].bounce_slots, 0);
		assert_int_equal(usage_seen[i].bounce_slots_peak, 0);
	}
	assert_true(prep);
	assert_true(done);
	stats(&st);
	assert_int_equal(st.completed, 1);
	assert_int_equal(st.iova_pages, 0);
	assert_int_equal(st.iova_pages_peak, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pio_read_cmd12),
		cmocka_unit_test(test_sbc_sequence_no_stop),
		cmocka_unit_test(test_sbc_count_of_sd_in_32_bits),
		cmocka_unit_test(test_data_error_sends_stop_and_counts_blocks),
		cmocka_unit_test(test_command_errors),
		cmocka_unit_test(test_invalid_and_busy_change_nothing),
		cmocka_unit_test(test_invalid_entries_sum_right),
		cmocka_unit_test(test_r1b_busy),
		cmocka_unit_test(test_timeouts),
		cmocka_unit_test(test_spurious_and_late_events),
		cmocka_unit_test(test_poll_idle_and_card_change),
		cmocka_unit_test(test_claimed_while_checking),
		cmocka_unit_test(test_stats_usage_while_mapping),
		cmocka_unit_test(test_errors_counted_by_kind),
		cmocka_unit_test(test_busy_end_with_the_response),
		cmocka_unit_test(test_lock_pairing_per_policy),
		cmocka_unit_test(test_no_release_one_lock_section),
		cmocka_unit_test(test_deferred_schedule_fails),
		cmocka_unit_test(test_pio_retry_after_dma_fault),
		cmocka_unit_test(test_deadline_per_phase),
		cmocka_unit_test(test_command_xfer_has_no_data_fields),
		cmocka_unit_test(test_map_failures),
		cmocka_unit_test(test_unmap_error_counted),
		cmocka_unit_test(test_irq_errors_and_spurious),
		cmocka_unit_test(test_busy_without_and_with_the_line),
		cmocka_unit_test(test_auto_stop_with_busy_line),
		cmocka_unit_test(test_pio_retry_split_and_no_cpu),
		cmocka_unit_test(test_pio_retry_is_no_completion),
		cmocka_unit_test(test_explain_every_size),
		cmocka_unit_test(test_failed_blocks_done_counts_nothing),
		cmocka_unit_test(test_sbc_and_stop_errors_without_code),
		cmocka_unit_test(test_auto_stop_busy_polled),
		cmocka_unit_test(test_request_clears_stale_fields),
		cmocka_unit_test(test_auto_stop_only_multiple_blocks),
		cmocka_unit_test(test_refused_start_unwinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
