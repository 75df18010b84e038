/*
 * The request path and completion (src/core/request.c) over the scripted
 * backend: CMD23 / command / data / CMD12 sequencing, R1b busy, software
 * timeouts, abort, PIO retry after a DMA fault, honest bytes_xfered, the
 * exact cache operations per plan and direction, lock/unlock pairing per
 * policy, deferred completion, IOMMU and bounce resources back to zero.
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

static _Alignas(4096) unsigned char buf[4 * 4096];
static _Alignas(4096) unsigned char pool[64 * 2048];
static uint32_t pool_meta[MMCHAL_BOUNCE_META_BYTES(64) / sizeof(uint32_t)];
static _Alignas(16) unsigned char nodes[MMCHAL_IOVA_POOL_BYTES(64)];

static struct {
	struct tb tb;
	struct rec_port rp;
	struct fiommu fi;
	struct mmchal_iommu iommu;
	struct mmchal_iommu_domain dom;
	struct mmchal_bounce bounce;
	struct mmchal_backend be;
	struct mmchal_port port;
	struct mmchal_host_cfg cfg;
	struct mmchal_host host;
	struct mmchal_dma_seg table[8];
} g;

static struct mmchal_cmd sbc, cmd, stop;
static struct mmchal_data data;
static struct mmchal_sg sg[4];
static struct mmchal_request req;
static unsigned ndone;

static void on_done(struct mmchal_request *r)
{
	(void)r;
	ndone++;
}

#define USE_BOUNCE (1u << 0)
#define USE_IOMMU  (1u << 1)

static void setup_port(const struct mmchal_port_ops *ops, unsigned flags)
{
	memset(&g, 0, sizeof(g));
	tb_init(&g.tb);
	rec_init(&g.rp);
	g.tb.port = &g.rp;
	g.be.ops = &tb_ops;
	g.be.ctx = &g.tb;
	g.port.ops = ops;
	g.port.ctx = &g.rp;
	g.port.cache_line = 64;
	g.cfg.backend = &g.be;
	g.cfg.port = &g.port;
	g.cfg.seg_table = g.table;
	g.cfg.seg_table_len = 8;
	if (flags & USE_BOUNCE) {
		struct mmchal_bounce_cfg bc = {.mem = pool,
					       .dma = (uintptr_t)pool,
					       .size = sizeof(pool),
					       .slots_per_map = 16,
					       .meta = pool_meta,
					       .meta_size = sizeof(pool_meta)};

		assert_int_equal(mmchal_bounce_init(&g.bounce, &bc), 0);
		g.cfg.bounce = &g.bounce;
	}
	if (flags & USE_IOMMU) {
		struct mmchal_iommu_domain_cfg dc = {.iommu = &g.iommu,
						     .node_mem = nodes,
						     .node_mem_size = sizeof(nodes),
						     .addr_bits = 32};

		g.iommu.ops = &fiommu_ops;
		g.iommu.ctx = &g.fi;
		assert_int_equal(mmchal_iommu_domain_init(&g.dom, &dc), 0);
		g.cfg.iommu = &g.dom;
	}
	ndone = 0;
}

static void host_up(void)
{
	assert_int_equal(mmchal_host_init(&g.host, &g.cfg), 0);
}

/* CMD18/25 of @p blocks x 512 bytes over 4 KiB pieces of buf, with CMD12. */
static void make_rw(enum mmchal_dir dir, uint32_t blocks, uint32_t nsg)
{
	uint32_t left = blocks * 512;

	sbc = (struct mmchal_cmd){.opcode = 23, .arg = blocks, .flags = MMCHAL_RSP_R1};
	cmd = (struct mmchal_cmd){.opcode = dir == MMCHAL_DIR_FROM_CARD ? 18 : 25,
				  .flags = MMCHAL_RSP_R1};
	stop = (struct mmchal_cmd){.opcode = 12, .flags = MMCHAL_RSP_R1B};
	for (uint32_t i = 0; i < nsg; i++) {
		uint32_t len = left / (nsg - i);

		sg[i].cpu = buf + 4096 * i;
		sg[i].phys = (uintptr_t)(buf + 4096 * i);
		sg[i].len = len;
		left -= len;
	}
	data = (struct mmchal_data){
		.dir = dir, .blksz = 512, .blocks = blocks, .sg = sg, .sg_len = nsg};
	req = (struct mmchal_request){.cmd = &cmd, .data = &data, .stop = &stop, .done = on_done};
}

static void check_read_bytes(uint32_t n)
{
	uint32_t off = 0;

	for (uint32_t i = 0; i < data.sg_len; i++) {
		for (uint32_t j = 0; j < sg[i].len && off < n; j++, off++) {
			if (((unsigned char *)sg[i].cpu)[j] != (unsigned char)(0x40 + off))
				fail_msg("byte %u: %u", (unsigned)off,
					 (unsigned)((unsigned char *)sg[i].cpu)[j]);
		}
	}
}

static void stats(struct mmchal_host_stats *st)
{
	assert_int_equal(mmchal_host_stats(&g.host, st), 0);
}

/* ------------------------------------------------------------ sequencing */

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

/* ------------------------------------------------------------ busy, timeouts */

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
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	req.stop = NULL;
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

/* ------------------------------------------------------------ DMA plans, caches */

static void expect_rec(uint32_t i, enum rec_op op, const void *addr, size_t len)
{
	assert_true(i < g.rp.n);
	assert_int_equal(g.rp.log[i].op, op);
	assert_ptr_equal((const void *)g.rp.log[i].addr, addr);
	assert_int_equal(g.rp.log[i].len, len);
}

static void test_cache_ops_direct(void **state)
{
	(void)state;
	setup_port(&rec_ops_full, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, false);
	g.tb.identity = true;
	host_up();
	/* write: clean before the device reads, nothing after */
	make_rw(MMCHAL_DIR_TO_CARD, 8, 2);
	memset(buf, 0x31, sizeof(buf));
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.rp.n, 2);
	expect_rec(0, REC_CLEAN, buf, 2048);
	expect_rec(1, REC_CLEAN, buf + 4096, 2048);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_DIRECT);
	assert_int_equal(g.tb.log[0].nsegs, 2);
	assert_int_equal(g.tb.log[0].seg0.addr, (uintptr_t)buf);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	g.tb.pending = MMCHAL_EV_CMD_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(mmchal_host_poll(&g.host), 1);
	assert_int_equal(g.rp.n, 2);
	/* read: invalidate before (no dirty line may land on the data) and after */
	g.rp.n = 0;
	g.tb.auto_complete = true;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	req.stop = NULL;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.rp.n, 4);
	expect_rec(0, REC_INVAL, buf, 2048);
	expect_rec(1, REC_INVAL, buf + 4096, 2048);
	expect_rec(2, REC_INVAL, buf, 2048);
	expect_rec(3, REC_INVAL, buf + 4096, 2048);
	check_read_bytes(4096);
	/* a read into a buffer sharing its last line goes PIO: no cache op at all */
	g.rp.n = 0;
	make_rw(MMCHAL_DIR_FROM_CARD, 1, 1);
	sg[0].cpu = buf + 8;
	sg[0].phys += 8;
	req.stop = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.rp.n, 0);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].plan, MMCHAL_PLAN_PIO);
	assert_false(g.rp.bad_nesting);
}

/* Submit without completing, check the host's plan is the planner's, abort. */
static void expect_plan(enum mmchal_plan plan, enum mmchal_plan_reason why, uint32_t index)
{
	struct mmchal_plan_result p;

	assert_int_equal(mmchal_dma_plan(&g.host.penv, &data, &p), 0);
	assert_int_equal(p.plan, plan);
	assert_int_equal(p.reason, why);
	assert_int_equal(p.index, index);
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.host.plan.plan, p.plan);
	assert_int_equal(g.host.plan.reason, p.reason);
	assert_int_equal(g.host.plan.nobounce, p.nobounce);
	assert_int_equal(g.host.plan.merge, p.merge);
	assert_int_equal(g.host.plan.index, p.index);
	assert_int_equal(g.host.plan.iommu, p.iommu);
	assert_int_equal(mmchal_host_abort(&g.host), 0);
}

/*
 * The host plans the request as the planner does (expect_plan()); @p fast:
 * from its own constants, without running the planner; @p full_check: the
 * quick request checks could not prove it valid.
 */
static void expect_plan_path(enum mmchal_plan plan, bool fast, bool full_check)
{
	struct mmchal_plan_result p;
	struct mmchal_host_stats before, after;

	assert_int_equal(mmchal_dma_plan(&g.host.penv, &data, &p), 0);
	assert_int_equal(p.plan, plan);
	stats(&before);
	expect_plan(p.plan, p.reason, p.index);
	stats(&after);
	assert_int_equal(after.full_plans - before.full_plans, fast ? 0 : 1);
	assert_int_equal(after.full_checks - before.full_checks, full_check ? 1 : 0);
}

/* expect_plan(), decided by the host's own constants and quick checks. */
static void expect_fast_plan(enum mmchal_plan plan, enum mmchal_plan_reason why, uint32_t index)
{
	struct mmchal_host_stats before, after;

	stats(&before);
	expect_plan(plan, why, index);
	stats(&after);
	assert_int_equal(after.full_plans, before.full_plans);
	assert_int_equal(after.full_checks, before.full_checks);
}

/* 2 KiB at buf, then 6 KiB from buf + 2 KiB */
static void unalign_second(void)
{
	sg[0].len = 2048;
	sg[1].cpu = buf + 2048;
	sg[1].phys = (uintptr_t)(buf + 2048);
	sg[1].len = 6144;
}

/* A coherent engine the list does not fit, no IOMMU: the host's bounce
 * answer is the planner's (reason, entry), and where the planner would not
 * bounce, neither does the host. */
static void test_bounce_plan_is_the_planners(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	g.tb.identity = true;
	host_up();
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].addr_align = 4096;
	mmchal_host_plan_env_(&g.host);
	/* the second entry starts half-way into a page */
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	unalign_second();
	expect_fast_plan(MMCHAL_PLAN_BOUNCED, MMCHAL_PR_ALIGN, 1);
	/* aligned: DIRECT, in both directions */
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 1);
	req.stop = NULL;
	expect_fast_plan(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0);
	make_rw(MMCHAL_DIR_TO_CARD, 16, 1);
	req.stop = NULL;
	expect_fast_plan(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0);
	/* at the top of a DMA length window that starts above 0 */
	for (int d = 0; d < 2; d++) {
		g.host.caps.dma.dir[d].min_len = 1024;
		g.host.caps.dma.dir[d].max_xfer = 8192;
	}
	mmchal_host_plan_env_(&g.host);
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	unalign_second();
	expect_fast_plan(MMCHAL_PLAN_BOUNCED, MMCHAL_PR_ALIGN, 1);
	for (int d = 0; d < 2; d++) {
		g.host.caps.dma.dir[d].min_len = 0;
		g.host.caps.dma.dir[d].max_xfer = 0;
	}
	mmchal_host_plan_env_(&g.host);
	/* a bounce needs every CPU address */
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	unalign_second();
	sg[0].cpu = NULL;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EINVAL);
	/* the bounce is one segment the engine must take: too long, PIO */
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].max_seg_size = 4096;
	mmchal_host_plan_env_(&g.host);
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	unalign_second();
	expect_plan(MMCHAL_PLAN_PIO, MMCHAL_PR_ALIGN, 1);
	assert_int_equal(g.host.plan.nobounce, MMCHAL_NB_ENGINE);
	/* a length granule the whole transfer does not meet: PIO */
	for (int d = 0; d < 2; d++) {
		g.host.caps.dma.dir[d].max_seg_size = 65536;
		g.host.caps.dma.dir[d].len_granule = 2048;
	}
	mmchal_host_plan_env_(&g.host);
	make_rw(MMCHAL_DIR_FROM_CARD, 3, 1);
	req.stop = NULL;
	expect_plan(MMCHAL_PLAN_PIO, MMCHAL_PR_GRANULE, 0);
	assert_int_equal(g.host.plan.nobounce, MMCHAL_NB_ENGINE);
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

/* One entry the engine refuses, no IOMMU: the host names the planner's
 * reason for each rule (the one-entry shortcut of the obstacle search), and
 * an entry the engine takes goes DIRECT. */
static void test_one_entry_bounce_reasons(void **state)
{
	static const struct {
		uint32_t align, seg_max, boundary;
		uint8_t bits;
		uint32_t offset;
		enum mmchal_plan plan;
		enum mmchal_plan_reason why;
		uint32_t granule;
		uint64_t phys; /* a device address of its own (the CPU's stays in buf); 0 = buf */
		bool fast;     /* the host's constants decide without the planner */
	} rows[] = {
		{4096, 65536, 0, 0, 512, MMCHAL_PLAN_BOUNCED, MMCHAL_PR_ALIGN, 0, 0, true},
		{1, 2048, 0, 0, 0, MMCHAL_PLAN_PIO, MMCHAL_PR_SEG_SIZE, 0, 0, false},
		{1, 65536, 0, 12, 0, MMCHAL_PLAN_BOUNCED, MMCHAL_PR_ADDR_BITS, 0, 0, true},
		{1, 65536, 4095, 0, 512, MMCHAL_PLAN_BOUNCED, MMCHAL_PR_BOUNDARY, 0, 0, true},
		{4096, 65536, 4095, 0, 0, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0, 0, true},
		/* a start off the length granule: the host's one-pass proof needs
		 * aligned starts and finds no obstacle of its own; the planner
		 * takes the entry as it is (only lengths have a granule) */
		{1, 65536, 0, 0, 256, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 512, 0, false},
		/* aligned to a length granule: the host's own answer */
		{1, 65536, 0, 0, 0, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 512, 0, true},
		/* the last byte exactly at the top of 32 address bits */
		{1, 65536, 0, 32, 0, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0, 0xfffff000u, true},
		/* across a 4 KiB boundary, the last byte one below the top of 32 bits */
		{1, 65536, 4095, 32, 0, MMCHAL_PLAN_BOUNCED, MMCHAL_PR_BOUNDARY, 0, 0xffffefffu,
		 true},
	};

	(void)state;
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	g.tb.identity = true;
	host_up();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		for (int d = 0; d < 2; d++) {
			g.host.caps.dma.dir[d].addr_align = rows[i].align;
			g.host.caps.dma.dir[d].max_seg_size = rows[i].seg_max;
			g.host.caps.dma.dir[d].seg_boundary = rows[i].boundary;
			g.host.caps.dma.dir[d].addr_bits = rows[i].bits;
			g.host.caps.dma.dir[d].len_granule = rows[i].granule;
		}
		mmchal_host_plan_env_(&g.host);
		make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
		req.stop = NULL;
		sg[0].cpu = buf + rows[i].offset;
		sg[0].phys = rows[i].phys ? rows[i].phys : sg[0].phys + rows[i].offset;
		if (rows[i].fast)
			expect_fast_plan(rows[i].plan, rows[i].why, 0);
		else
			expect_plan(rows[i].plan, rows[i].why, 0);
		if (rows[i].plan == MMCHAL_PLAN_BOUNCED && rows[i].boundary) {
			/* the bounce region itself stays between two boundaries */
			mmchal_dma_addr_t a = g.tb.log[g.tb.nstart - 1].seg0.addr;

			assert_int_equal(a & ~(uint64_t)rows[i].boundary,
					 (a + 4095u) & ~(uint64_t)rows[i].boundary);
		}
	}
	/* 8 KiB cannot be one segment between two 4 KiB boundaries: PIO */
	for (int d = 0; d < 2; d++) {
		g.host.caps.dma.dir[d].addr_align = 1;
		g.host.caps.dma.dir[d].addr_bits = 0;
	}
	mmchal_host_plan_env_(&g.host);
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 1);
	req.stop = NULL;
	sg[0].cpu = buf + 512;
	sg[0].phys += 512;
	expect_plan(MMCHAL_PLAN_PIO, MMCHAL_PR_BOUNDARY, 0);
	assert_int_equal(g.host.plan.nobounce, MMCHAL_NB_ENGINE);
}

/* Merging, with the mapping size as the only open question once the
 * request checks passed: the host's verdict is the merge policy's, on both
 * sides of the IOMMU's largest mapping and of its aperture. */
static void test_merge_verdict_is_the_policys(void **state)
{
	static const struct {
		uint64_t max_map, ap_start, ap_end;
		uint32_t offset;
		enum mmchal_plan plan;
	} rows[] = {
		{0, 0x1000, 0xffffffffu, 0, MMCHAL_PLAN_IOMMU_MERGED},
		{8192, 0x1000, 0xffffffffu, 0, MMCHAL_PLAN_IOMMU_MERGED},
		{8191, 0x1000, 0xffffffffu, 0, MMCHAL_PLAN_DIRECT},
		/* 2 KiB into the first page: three pages */
		{12288, 0x1000, 0xffffffffu, 2048, MMCHAL_PLAN_IOMMU_MERGED},
		{8192, 0x1000, 0xffffffffu, 2048, MMCHAL_PLAN_DIRECT},
		/* 8 KiB from 2 KiB into a page: three whole pages, one byte too many */
		{12287, 0x1000, 0xffffffffu, 2048, MMCHAL_PLAN_DIRECT},
		{0, 0x1000, 0x2fff, 0, MMCHAL_PLAN_IOMMU_MERGED},
		{0, 0x1000, 0x2ffe, 0, MMCHAL_PLAN_DIRECT},
		{0, 0, UINT64_MAX, 0, MMCHAL_PLAN_IOMMU_MERGED},
	};

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	g.tb.host.merge_capable = true;
	host_up();
	assert_int_equal(mmchal_host_core_ops.init_card(&g.host, MMCHAL_CARD_MMC), 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct mmchal_plan_result p;

		g.host.caps.iommu.max_map_size = rows[i].max_map;
		g.host.caps.iommu.aperture_start = rows[i].ap_start;
		g.host.caps.iommu.aperture_end = rows[i].ap_end;
		mmchal_host_plan_env_(&g.host);
		assert_true(g.host.pfast[MMCHAL_DIR_FROM_CARD].merge_fast);
		make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
		req.stop = NULL;
		if (rows[i].offset) {
			/* 2 KiB + 4 KiB + 2 KiB: interior boundaries on pages */
			make_rw(MMCHAL_DIR_FROM_CARD, 16, 3);
			req.stop = NULL;
			sg[0].cpu = buf + 2048;
			sg[0].phys += 2048;
			sg[0].len = 2048;
			sg[1].len = 4096;
			sg[2].len = 2048;
		}
		assert_int_equal(mmchal_dma_plan(&g.host.penv, &data, &p), 0);
		assert_int_equal(p.plan, rows[i].plan);
		/* the verdict is the host's own when merging; a refusal asks the
		 * planner; an unaligned first entry needs the full checks */
		expect_plan_path(rows[i].plan, rows[i].plan == MMCHAL_PLAN_IOMMU_MERGED,
				 rows[i].offset != 0);
	}
	/* a virt_boundary other than the merge boundary: the policy itself decides */
	g.host.limits.virt_boundary = 0;
	mmchal_host_plan_env_(&g.host);
	assert_false(g.host.pfast[MMCHAL_DIR_FROM_CARD].merge_fast);
}

/* @p n entries of 4 KiB (the last @p last bytes) for a read of @p blocks. */
static void make_pages(uint32_t blocks, uint32_t n, uint32_t last)
{
	make_rw(MMCHAL_DIR_FROM_CARD, blocks, n);
	for (uint32_t i = 0; i + 1u < n; i++)
		sg[i].len = 4096;
	sg[n - 1u].len = last;
}

/*
 * The edges of the DMA length window are the host's to decide, on both
 * sides; outside it, and on a host where no length fits, the planner runs
 * and gives the same answer. Behind a merging IOMMU a list that ends inside
 * a page takes the full request checks (the quick ones look at every end).
 */
static void test_length_window_edges(void **state)
{
	(void)state;
	for (int merged = 0; merged < 2; merged++) {
		enum mmchal_plan dma = merged ? MMCHAL_PLAN_IOMMU_MERGED : MMCHAL_PLAN_DIRECT;

		setup_port(&rec_ops_coherent, merged ? USE_IOMMU : 0);
		tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
		g.tb.host.merge_capable = merged != 0;
		host_up();
		assert_int_equal(mmchal_host_core_ops.init_card(&g.host, MMCHAL_CARD_MMC), 0);
		for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
			g.host.caps.dma.dir[d].min_len = 4096;
			g.host.caps.dma.dir[d].max_xfer = 8192;
		}
		mmchal_host_plan_env_(&g.host);
		make_pages(8, 1, 4096);
		expect_plan_path(dma, true, false);
		make_pages(16, 2, 4096);
		expect_plan_path(dma, true, false);
		make_pages(7, 1, 3584);
		expect_plan_path(MMCHAL_PLAN_PIO, false, merged != 0);
		make_pages(17, 3, 512);
		expect_plan_path(MMCHAL_PLAN_PIO, false, merged != 0);
		/* no length is both long and short enough */
		for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
			g.host.caps.dma.dir[d].min_len = 8192;
			g.host.caps.dma.dir[d].max_xfer = 4096;
		}
		mmchal_host_plan_env_(&g.host);
		make_pages(8, 1, 4096);
		expect_plan_path(MMCHAL_PLAN_PIO, false, false);
		make_pages(16, 2, 4096);
		expect_plan_path(MMCHAL_PLAN_PIO, false, false);
	}
}

/* A merged segment longer than the engine takes (by one byte: 8 KiB against
 * 8191) is refused after mapping and the request goes the planner's
 * fallback way; one that fits is taken. */
static void test_merged_segment_length_checked(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	g.tb.host.merge_capable = true;
	host_up();
	assert_int_equal(mmchal_host_core_ops.init_card(&g.host, MMCHAL_CARD_MMC), 0);
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++)
		g.host.caps.dma.dir[d].max_seg_size = 8191;
	mmchal_host_plan_env_(&g.host);
	make_pages(15, 2, 3584);
	req.stop = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_IOMMU_MERGED);
	assert_int_equal(g.tb.log[0].seg0.len, 7680);
	stats(&st);
	assert_int_equal(st.map_fallbacks, 0);
	make_pages(16, 2, 4096);
	req.stop = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	/* behind the IOMMU there is no untranslated path, and no pool: PIO */
	assert_int_equal(g.tb.log[1].plan, MMCHAL_PLAN_PIO);
	assert_int_equal(g.tb.log[1].nsegs, 0);
	stats(&st);
	assert_int_equal(st.map_fallbacks, 1);
	assert_int_equal(st.reason[MMCHAL_PLAN_PIO][MMCHAL_PR_MAPPED_BAD], 1);
	assert_int_equal(g.fi.pages, 0);
}

/*
 * With an engine segment boundary the bounce region starts on a multiple of
 * its size rounded up to a power of two, so that it never straddles one:
 * after a one-slot bounce the pool's next free slot (2 KiB in) would put
 * a 4 KiB region across the 4 KiB boundary; the region goes to 4 KiB.
 */
static void test_bounce_region_inside_a_boundary(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	g.tb.identity = true;
	host_up();
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].seg_boundary = 0xfff;
	mmchal_host_plan_env_(&g.host);
	/* 512 bytes across a 4 KiB boundary: bounced into slot 0 */
	make_rw(MMCHAL_DIR_FROM_CARD, 1, 1);
	req.stop = NULL;
	sg[0].cpu = buf + 4096 - 256;
	sg[0].phys += 4096 - 256;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(g.tb.log[0].seg0.addr, (uintptr_t)pool);
	/* 4 KiB across one: the region skips slot 1 */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	req.stop = NULL;
	sg[0].cpu = buf + 2048;
	sg[0].phys += 2048;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[1].plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(g.tb.log[1].seg0.addr, (uintptr_t)pool + 4096u);
	assert_int_equal(g.tb.log[1].seg0.len, 4096);
	assert_int_equal(mmchal_bounce_in_use(&g.bounce), 0);
}

/* An engine segment boundary: the host's checks cover the ends of every
 * entry, so a valid request still needs no full check; and an error code
 * beyond the table of errors by kind is reported but not counted there. */
static void test_boundary_host_and_unknown_error(void **state)
{
	struct mmchal_host_stats st, before;

	(void)state;
	setup_port(&rec_ops_coherent, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	for (int d = 0; d < 2; d++)
		g.tb.dma.dir[d].seg_boundary = 0xffff;
	host_up();
	assert_int_equal(mmchal_host_limits(&g.host)->seg_boundary, 0xffff);
	make_rw(MMCHAL_DIR_TO_CARD, 16, 2);
	req.stop = NULL;
	expect_fast_plan(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, 0);
	/* the last error code has its slot */
	make_rw(MMCHAL_DIR_TO_CARD, 8, 1);
	req.stop = NULL;
	g.tb.auto_complete = true;
	g.tb.fail_op = 25;
	g.tb.fail_ev = MMCHAL_EV_DATA_ERROR;
	g.tb.fail_err = MMCHAL_EROFS;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), MMCHAL_EROFS);
	stats(&st);
	assert_int_equal(st.errors[-MMCHAL_EROFS], 1);
	/* one beyond it is reported, not counted (nor anywhere else) */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	req.stop = NULL;
	g.tb.fail_op = 18;
	g.tb.fail_err = -MMCHAL_HOST_ERR_SLOTS;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), -MMCHAL_HOST_ERR_SLOTS);
	before = st;
	stats(&st);
	before.requests++;
	before.completed++;
	before.plan[MMCHAL_PLAN_DIRECT]++;
	before.reason[MMCHAL_PLAN_DIRECT][MMCHAL_PR_DIRECT]++;
	before.nobounce[MMCHAL_NB_NONE]++;
	before.bytes = st.bytes; /* the blocks the backend says moved */
	assert_memory_equal(&st, &before, sizeof(st));
}

static void test_cache_ops_bounced(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_full, USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 1, false);
	g.tb.identity = true;
	host_up();
	/* a read into a buffer that shares its first cache line */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	sg[0].cpu = buf + 8;
	sg[0].phys += 8;
	req.stop = NULL;
	memset(buf, 0, sizeof(buf));
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_BOUNCED);
	assert_int_equal(g.tb.log[0].nsegs, 1);
	assert_int_equal(g.tb.log[0].seg0.len, 4096);
	stats(&st);
	assert_int_equal(st.bounce_slots, 2);
	assert_int_equal(st.reason[MMCHAL_PLAN_BOUNCED][MMCHAL_PR_SHARED_LINE], 1);
	/* the slots were filled by the CPU: cleaned before the device writes them */
	assert_int_equal(g.rp.n, 1);
	expect_rec(0, REC_CLEAN, (void *)(uintptr_t)g.tb.log[0].seg0.addr, 4096);
	for (uint32_t i = 0; i < 4096; i++)
		((unsigned char *)(uintptr_t)g.tb.log[0].seg0.addr)[i] = (unsigned char)(0x40 + i);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	/* invalidated before the copy back */
	assert_int_equal(g.rp.n, 2);
	expect_rec(1, REC_INVAL, (void *)(uintptr_t)g.tb.log[0].seg0.addr, 4096);
	check_read_bytes(4096);
	stats(&st);
	assert_int_equal(st.bounce_slots, 0);
	assert_int_equal(st.bounce_slots_peak, 2);
	assert_int_equal(mmchal_bounce_in_use(&g.bounce), 0);
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
		make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
		req.stop = NULL;
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

static void test_deferred_schedule_fails(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_full, 0);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, true);
	g.cfg.policy.override = MMCHAL_POLICY_DEFERRED;
	host_up();
	g.rp.work_err = MMCHAL_ENOMEM;
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	req.stop = NULL;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(ndone, 1);
	stats(&st);
	assert_int_equal(st.defer_inline, 1);
}

/* A DMA host with PIO retry on, a two-entry read prepared, the DMA faulting
 * once on CMD18. */
static void retry_host_policy(enum mmchal_completion_policy policy)
{
	setup_port(&rec_ops_coherent, 0);
	g.cfg.policy.override = policy;
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 8, true);
	g.tb.identity = true;
	g.cfg.pio_retry = true;
	host_up();
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	g.tb.fail_op = 18;
	g.tb.fail_ev = MMCHAL_EV_DATA_ERROR;
	g.tb.fail_err = MMCHAL_EFAULT;
	g.tb.fail_once = true;
}

static void retry_host(void)
{
	retry_host_policy(MMCHAL_POLICY_AUTO);
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

/* Submit, expect @p plan and reason, complete by the test backend. */
static void expect_mapped(enum mmchal_plan plan, enum mmchal_plan_reason why)
{
	g.tb.auto_complete = true;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[g.tb.nstart - 1].plan, plan);
	assert_int_equal(g.host.plan.reason, why);
	assert_int_equal(g.fi.pages, 0);
}

/* expect_mapped(); @p full: the exact check of the mapped segments ran
 * (the host's one-pass proof could not decide). */
static void expect_mapped_by(enum mmchal_plan plan, enum mmchal_plan_reason why, bool full)
{
	struct mmchal_host_stats before, after;

	stats(&before);
	expect_mapped(plan, why);
	stats(&after);
	assert_int_equal(after.full_map_checks - before.full_map_checks, full ? 1 : 0);
}

/* Behind the IOMMU the mapped segments still meet the engine's reach and
 * segment size: a domain wider than the engine, a merged segment longer than
 * the engine takes. */
static void test_iommu_mapping_within_engine(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU | USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 2, true);
	g.tb.host.merge_capable = true;
	host_up();
	assert_int_equal(mmchal_host_core_ops.init_card(&g.host, MMCHAL_CARD_MMC), 0);
	/* in reach: merged */
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	expect_mapped(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED);
	/* the engine reaches only page 0 (which the domain never hands out) */
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].addr_bits = 12;
	mmchal_host_plan_env_(&g.host);
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	expect_mapped(MMCHAL_PLAN_BOUNCED, MMCHAL_PR_MAPPED_BAD);
	stats(&st);
	assert_int_equal(st.map_fallbacks, 1);
	/* in reach again, but the merged 8 KiB is longer than the engine's 4 KiB */
	for (int d = 0; d < 2; d++) {
		g.host.caps.dma.dir[d].addr_bits = 0;
		g.host.caps.dma.dir[d].max_seg_size = 4096;
	}
	mmchal_host_plan_env_(&g.host);
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	expect_mapped(MMCHAL_PLAN_PIO, MMCHAL_PR_MAPPED_BAD);
	stats(&st);
	assert_int_equal(st.map_fallbacks, 2);
}

static void test_iommu_plans_release_everything(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU | USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 1, true);
	g.tb.host.merge_capable = true;
	host_up();
	assert_int_equal(mmchal_host_core_ops.init_card(&g.host, MMCHAL_CARD_MMC), 0);
	assert_true(mmchal_host_limits(&g.host)->merge);
	/* merged: one segment, pages mapped while in flight */
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	g.tb.auto_complete = false;
	assert_int_equal(mmchal_host_request(&g.host, &req), 0);
	assert_int_equal(g.tb.log[0].plan, MMCHAL_PLAN_IOMMU_MERGED);
	assert_int_equal(g.tb.log[0].nsegs, 1);
	assert_int_equal(g.tb.log[0].seg0.len, 8192);
	assert_int_equal(g.fi.pages, 2);
	stats(&st);
	assert_int_equal(st.iova_pages, 2);
	g.tb.pending = MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE;
	assert_int_equal(mmchal_host_irq(&g.host), 1);
	assert_int_equal(g.fi.pages, 0);
	stats(&st);
	assert_int_equal(st.iova_pages, 0);
	assert_int_equal(st.iova_pages_peak, 2);
	/* the figures are the domain's own: another user of it shows */
	{
		static const struct mmchal_sg other[] = {{NULL, 0x100000, 3u * 4096u}};
		struct mmchal_iommu_mapping om;
		struct mmchal_dma_seg oseg;

		memset(&om, 0, sizeof(om));
		assert_int_equal(mmchal_iommu_map_merged(&g.dom, other, 1, MMCHAL_DIR_TO_CARD,
							 MMCHAL_CARD_MMC, &om, &oseg, NULL),
				 0);
		stats(&st);
		assert_int_equal(st.iova_pages, 3);
		assert_int_equal(st.iova_pages_peak, 3);
		assert_int_equal(mmchal_iommu_unmap(&g.dom, &om), 0);
		stats(&st);
		assert_int_equal(st.iova_pages, 0);
		assert_int_equal(st.iova_pages_peak, 3);
	}
	/* the engine needs 8 KiB alignment: the merged IOVA starts 2 KiB into a
	 * page, the post-mapping check refuses it and the request is bounced */
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].addr_align = 8192;
	mmchal_host_plan_env_(&g.host); /* the host's planner constants follow */
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 2);
	sg[0].cpu = buf + 2048;
	sg[0].phys += 2048;
	sg[0].len = 2048;
	sg[1].len = 2048;
	req.stop = NULL;
	g.tb.auto_complete = true;
	g.tb.identity = true; /* device addresses of the pool are CPU addresses */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.tb.log[1].plan, MMCHAL_PLAN_BOUNCED);
	/* the engine got the bounce region, and the bytes came back */
	assert_int_equal(g.tb.log[1].nsegs, 1);
	assert_true(g.tb.log[1].seg0.addr >= (uintptr_t)pool &&
		    g.tb.log[1].seg0.addr + 4096u <= (uintptr_t)pool + sizeof(pool));
	check_read_bytes(4096);
	g.tb.identity = false;
	stats(&st);
	assert_int_equal(st.map_fallbacks, 1);
	assert_int_equal(st.reason[MMCHAL_PLAN_BOUNCED][MMCHAL_PR_MAPPED_BAD], 1);
	assert_int_equal(g.fi.pages, 0);
	assert_int_equal(st.iova_pages, 0);
	assert_int_equal(st.bounce_slots, 0);
	/* an invalid request maps nothing and sends nothing */
	{
		uint32_t maps = g.fi.maps, starts = g.tb.nstart;

		make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
		sg[1].len = 4095;
		assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EINVAL);
		assert_int_equal(g.fi.maps, maps);
		assert_int_equal(g.tb.nstart, starts);
	}
	/* the explanation names the plans taken and why */
	{
		static char text[4096];

		assert_true(mmchal_host_explain(&g.host, text, sizeof(text)) > 0);
		assert_true(fx_contains(text, "\nplan IOMMU_MERGED: 1\n  the IOMMU maps the list "
					      "to one device address: 1\n"));
		assert_true(fx_contains(text, "\nplan BOUNCED: 1\n  the IOMMU mapping is not what "
					      "the engine can take: 1\n"));
		assert_true(fx_contains(text, "IOMMU mappings the engine could not take: 1\n"));
	}
	/* a failing IOMMU map: the error comes back, nothing stays mapped */
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].addr_align = 0;
	mmchal_host_plan_env_(&g.host);
	g.fi.fail_map_at = g.fi.maps + 2;
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	assert_int_equal(mmchal_host_request(&g.host, &req), MMCHAL_EFAULT);
	assert_int_equal(g.fi.pages, 0);
	g.fi.fail_map_at = 0;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	assert_int_equal(g.fi.pages, 0);
	assert_int_equal(mmchal_bounce_in_use(&g.bounce), 0);
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

/* ------------------------------------------------------------ edges */

/* Behind an IOMMU without merging, an engine with an alignment (and then a
 * boundary) takes the mapped segments only after their check: both folds of
 * the check, and a mapping that fails it. */
static void test_mapped_segments_checked(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU | USE_BOUNCE);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	host_up();
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].addr_align = 512;
	mmchal_host_plan_env_(&g.host);
	assert_false(g.host.pfast[MMCHAL_DIR_FROM_CARD].dev_any);
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, false);
	/* a 64 KiB boundary: every segment of the mapping stays inside one */
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].seg_boundary = 0xffff;
	mmchal_host_plan_env_(&g.host);
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	expect_mapped_by(MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT_IOMMU, false);
	/* a 4 KiB boundary: the first segment (one page) keeps it, the second
	 * (two pages) cannot: refused after mapping */
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].seg_boundary = 0xfff;
	mmchal_host_plan_env_(&g.host);
	make_rw(MMCHAL_DIR_FROM_CARD, 24, 2);
	req.stop = NULL;
	sg[0].len = 4096;
	sg[1].len = 8192;
	expect_mapped_by(MMCHAL_PLAN_PIO, MMCHAL_PR_MAPPED_BAD, true);
	/* a 2 KiB boundary no 4 KiB segment can keep: refused after mapping */
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].seg_boundary = 0x7ff;
	mmchal_host_plan_env_(&g.host);
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	expect_mapped_by(MMCHAL_PLAN_PIO, MMCHAL_PR_MAPPED_BAD, true);
}

/* A merged mapping on an engine with an alignment: the host proves the one
 * segment fits without the exact check. */
static void test_merged_mapping_proved(void **state)
{
	(void)state;
	setup_port(&rec_ops_coherent, USE_IOMMU);
	tb_set_dma(&g.tb, MMCHAL_DMA_INTERNAL, 4, true);
	g.tb.host.merge_capable = true;
	host_up();
	assert_int_equal(mmchal_host_core_ops.init_card(&g.host, MMCHAL_CARD_MMC), 0);
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].addr_align = 512;
	mmchal_host_plan_env_(&g.host);
	assert_false(g.host.pfast[MMCHAL_DIR_FROM_CARD].dev_any);
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	expect_mapped_by(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED, false);
	assert_int_equal(g.tb.log[0].nsegs, 1);
	assert_int_equal(g.tb.log[0].seg0.len, 8192);
	/* with a length granule the transfer meets */
	for (int d = 0; d < 2; d++)
		g.host.caps.dma.dir[d].len_granule = 512;
	mmchal_host_plan_env_(&g.host);
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	expect_mapped_by(MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PR_MERGED, false);
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
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
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
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	req.stop = NULL;
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
	make_rw(MMCHAL_DIR_FROM_CARD, 16, 2);
	req.stop = NULL;
	assert_int_equal(mmchal_host_request_sync(&g.host, &req, 100), 0);
	stats(&st);
	assert_int_equal(st.unmap_errors, 1);
	assert_int_equal(st.completed, 1);
	assert_int_equal(st.errors[-MMCHAL_EIO], 0);
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
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	req.stop = NULL;
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
	make_rw(MMCHAL_DIR_FROM_CARD, 8, 1);
	req.stop = NULL;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pio_read_cmd12),
		cmocka_unit_test(test_sbc_sequence_no_stop),
		cmocka_unit_test(test_data_error_sends_stop_and_counts_blocks),
		cmocka_unit_test(test_command_errors),
		cmocka_unit_test(test_invalid_and_busy_change_nothing),
		cmocka_unit_test(test_invalid_entries_sum_right),
		cmocka_unit_test(test_r1b_busy),
		cmocka_unit_test(test_timeouts),
		cmocka_unit_test(test_spurious_and_late_events),
		cmocka_unit_test(test_cache_ops_direct),
		cmocka_unit_test(test_cache_ops_bounced),
		cmocka_unit_test(test_bounce_plan_is_the_planners),
		cmocka_unit_test(test_one_entry_bounce_reasons),
		cmocka_unit_test(test_errors_counted_by_kind),
		cmocka_unit_test(test_merge_verdict_is_the_policys),
		cmocka_unit_test(test_merged_mapping_proved),
		cmocka_unit_test(test_bounce_region_inside_a_boundary),
		cmocka_unit_test(test_boundary_host_and_unknown_error),
		cmocka_unit_test(test_length_window_edges),
		cmocka_unit_test(test_merged_segment_length_checked),
		cmocka_unit_test(test_busy_end_with_the_response),
		cmocka_unit_test(test_lock_pairing_per_policy),
		cmocka_unit_test(test_deferred_schedule_fails),
		cmocka_unit_test(test_pio_retry_after_dma_fault),
		cmocka_unit_test(test_iommu_plans_release_everything),
		cmocka_unit_test(test_iommu_mapping_within_engine),
		cmocka_unit_test(test_deadline_per_phase),
		cmocka_unit_test(test_command_xfer_has_no_data_fields),
		cmocka_unit_test(test_mapped_segments_checked),
		cmocka_unit_test(test_map_failures),
		cmocka_unit_test(test_unmap_error_counted),
		cmocka_unit_test(test_irq_errors_and_spurious),
		cmocka_unit_test(test_busy_without_and_with_the_line),
		cmocka_unit_test(test_auto_stop_with_busy_line),
		cmocka_unit_test(test_pio_retry_split_and_no_cpu),
		cmocka_unit_test(test_explain_every_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
