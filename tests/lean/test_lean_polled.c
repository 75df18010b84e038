/*
 * The host core of a library built without its interrupt path
 * (MMCHAL_WITH_IRQ 0, config.h), over the simulated board (SDHI with
 * internal DMAC, eMMC): mmchal_host_irq() refuses and touches nothing, not
 * even a register; the card layer reads and writes through the polled host;
 * a request driven by hand completes in the mmchal_host_poll() call that
 * sees its end, with its callback called there, once; request_sync's own
 * timeout and the data timeout that mmchal_host_poll() enforces both fire on
 * a card stuck busy, and the host works afterwards; a backend that declares
 * completion in its interrupt is polled like any other, whatever policy the
 * limits name; the host lock is still taken by every entry but
 * mmchal_host_irq(), and nothing is deferred; and the SDHI never unmasks an
 * interrupt, so its line never rises, also with events latched in the status.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/config.h>
#include <mmchal_sim/card.h>
#include <mmchal_sim/fault.h>

#include "../../tools/sim/board.h"
#include "core/host_priv.h"

_Static_assert(!MMCHAL_WITH_IRQ, "tests/lean/test_lean_polled.c is for a library without IRQs");

#define CAPACITY (16ull << 20)
#define SECTORS  (CAPACITY / 512u)
#define NPAGES   8u

/* Byte offsets of the interrupt masks in the simulated Gen3 window (bus_shift 2). */
#define INFO1_MASK_OFF   0x080u
#define INFO2_MASK_OFF   0x088u
#define DM_INFO1_MASK    0x848u
#define DM_INFO2_MASK    0x858u
/* SD_INFO1/2_MASK after a reset: every source masked (the simulator's model). */
#define INFO1_MASK_RESET 0x031du
#define INFO2_MASK_RESET 0x837fu

/* R1 card status: CURRENT_STATE, bits 12:9 (JEDEC 84-B51 6.13). */
#define R1_STATE(r) (((r) >> 9) & 0xfu)
#define STATE_TRAN  4u

static struct board B;
static struct mmchal_sg pages[NPAGES];
static int ndone;
static struct mmchal_request *last_done;

static void on_done(struct mmchal_request *r)
{
	ndone++;
	last_done = r;
}

static void open_board(bool irq)
{
	struct board_opts o;

	board_defaults(&o, MMCHAL_SIM_CARD_MMC, CAPACITY);
	/* HS on the 8-bit bus, with or without MMCHAL_WITH_HS200: the virtual
	   times and poll counts below are those of a 52 MHz bus */
	o.bus &= ~(uint32_t)(MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400);
	o.irq = irq;
	assert_int_equal(board_open(&B, &o), 0);
	assert_int_equal(board_pages(&B, NPAGES, 11, pages), 0);
	ndone = 0;
	last_done = NULL;
}

static void open_card(bool irq)
{
	open_board(irq);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_int_equal(B.card.info.type, MMCHAL_CARD_MMC);
	assert_int_equal(B.card.info.sectors, SECTORS);
	assert_int_equal(B.card.info.bus_width, MMCHAL_BUS_WIDTH_8);
	assert_int_equal(B.card.ios.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(B.card.info.clock_hz, 52000000u);
}

/* The first block of page @p p as a one-entry list. */
static struct mmchal_sg block_of(uint32_t p)
{
	struct mmchal_sg sg = pages[p];

	sg.len = 512;
	return sg;
}

static uint8_t *store(void)
{
	uint64_t size = 0;
	uint8_t *s = mmchal_sim_card_store(B.sim, &size);

	assert_non_null(s);
	assert_int_equal(size, CAPACITY);
	return s;
}

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 31u) ^ (seed * 7u) ^ (i >> 9));
}

static struct mmchal_sim_counters counters(void)
{
	struct mmchal_sim_counters c;

	mmchal_sim_get_counters(B.sim, &c);
	return c;
}

static uint16_t reg16(uint32_t off)
{
	return B.scfg.bus.ops->read16(B.scfg.bus.ctx, off);
}

static uint32_t reg32(uint32_t off)
{
	return B.scfg.bus.ops->read32(B.scfg.bus.ctx, off);
}

/* Nothing the controller could raise its interrupt with was ever unmasked. */
static void assert_masks_untouched(void)
{
	assert_int_equal(mmchal_sim_reg_writes(B.sim, INFO1_MASK_OFF), 0);
	assert_int_equal(mmchal_sim_reg_writes(B.sim, INFO2_MASK_OFF), 0);
	assert_int_equal(mmchal_sim_reg_writes(B.sim, DM_INFO1_MASK), 0);
	assert_int_equal(mmchal_sim_reg_writes(B.sim, DM_INFO2_MASK), 0);
	assert_int_equal(reg16(INFO1_MASK_OFF), INFO1_MASK_RESET);
	assert_int_equal(reg16(INFO2_MASK_OFF), INFO2_MASK_RESET);
	assert_int_equal(reg32(DM_INFO1_MASK), 0xffffffffu);
	assert_int_equal(reg32(DM_INFO2_MASK), 0xffffffffu);
}

/* mmchal_host_irq(), @p n times: ENOTSUP each time, and neither the host (its
   state, the request in flight, its counters: the whole object) nor the
   controller (not one register access) nor the callback sees it. */
static void irq_changes_nothing(int n)
{
	static struct mmchal_host before;
	struct mmchal_sim_counters c0 = counters(), c1;
	int done0 = ndone;

	memcpy(&before, &B.host, sizeof(before));
	for (int i = 0; i < n; i++)
		assert_int_equal(mmchal_host_irq(&B.host), MMCHAL_ENOTSUP);
	assert_memory_equal(&before, &B.host, sizeof(before));
	c1 = counters();
	assert_int_equal(c1.reads, c0.reads);
	assert_int_equal(c1.writes, c0.writes);
	assert_int_equal(c1.commands, c0.commands);
	assert_int_equal(ndone, done0);
}

/* ------------------------------------------------------------ mmchal_host_irq */

static void test_irq_refused(void **state)
{
	struct mmchal_cmd c = {.opcode = 13, .flags = MMCHAL_RSP_R1};
	struct mmchal_request r = {.cmd = &c, .done = on_done};

	(void)state;
	assert_int_equal(mmchal_host_irq(NULL), MMCHAL_EINVAL);

	/* a live, idle host: refused, nothing read or written */
	open_card(false);
	irq_changes_nothing(3);

	/* with a request whose answer is latched in the controller: still
	   refused and still untouched; the poll then completes it */
	c.arg = (uint32_t)B.card.info.rca << 16;
	assert_int_equal(mmchal_host_request(&B.host, &r), 0);
	assert_int_equal(B.host.state, HS_CMD);
	mmchal_sim_advance(B.sim, 100000);
	/* the response end is latched, masked: no interrupt */
	assert_int_equal(reg16(0x070u) & 1u, 1u);
	assert_false(mmchal_sim_irq_line(B.sim));
	irq_changes_nothing(3);
	assert_int_equal(B.host.state, HS_CMD);
	assert_int_equal(c.resp[0], 0);
	assert_int_equal(mmchal_host_poll(&B.host), 1);
	assert_int_equal(ndone, 1);
	assert_ptr_equal(last_done, &r);
	assert_int_equal(c.error, 0);
	assert_int_equal(R1_STATE(c.resp[0]), STATE_TRAN);
	assert_int_equal(B.host.state, HS_IDLE);
	irq_changes_nothing(1);

	/* a host taken down: not live */
	mmchal_host_deinit(&B.host);
	assert_int_equal(mmchal_host_irq(&B.host), MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_poll(&B.host), MMCHAL_EINVAL);
	board_close(&B);
}

/* ------------------------------------------------------------ the whole stack */

static void test_card_read_write(void **state)
{
	struct mmchal_sg last;
	uint8_t *st;
	uint64_t lba = 1000;

	(void)state;
	open_card(false);
	st = store();
	last = block_of(0);
#if !MMCHAL_EMMC_RO
	/* written through the card layer, the bytes land in the card */
	for (uint32_t p = 0; p < NPAGES; p++)
		fill(pages[p].cpu, 4096, p + 1u);
	assert_int_equal(mmchal_card_write(&B.card, lba, NPAGES * 8u, pages, NPAGES), 0);
	for (uint32_t p = 0; p < NPAGES; p++)
		assert_memory_equal(st + lba * 512u + p * 4096u, pages[p].cpu, 4096);
	/* and the last block of the card */
	fill(last.cpu, 512, 99);
	assert_int_equal(mmchal_card_write(&B.card, SECTORS - 1u, 1, &last, 1), 0);
	assert_memory_equal(st + (SECTORS - 1u) * 512u, last.cpu, 512);
#endif
	/* read back what the card holds */
	fill(st + 4096u * 3u, NPAGES * 4096u, 42);
	for (uint32_t p = 0; p < NPAGES; p++)
		memset(pages[p].cpu, 0x5a, 4096);
	assert_int_equal(mmchal_card_read(&B.card, 24, NPAGES * 8u, pages, NPAGES), 0);
	for (uint32_t p = 0; p < NPAGES; p++)
		assert_memory_equal(st + 4096u * 3u + p * 4096u, pages[p].cpu, 4096);
	memset(last.cpu, 0, 512);
	assert_int_equal(mmchal_card_read(&B.card, SECTORS - 1u, 1, &last, 1), 0);
	assert_memory_equal(st + (SECTORS - 1u) * 512u, last.cpu, 512);

	assert_false(mmchal_sim_irq_line(B.sim));
	assert_int_equal(counters().irqs, 0);
	assert_masks_untouched();
	board_close(&B);
}

/* ------------------------------------------------------------ by hand */

/* One poll after @p ns of virtual time; the interrupt line stays low. */
static int poll_after(uint64_t ns)
{
	if (ns)
		mmchal_sim_advance(B.sim, ns);
	assert_false(mmchal_sim_irq_line(B.sim));
	return mmchal_host_poll(&B.host);
}

static void test_poll_by_hand(void **state)
{
	struct mmchal_cmd sbc = {.opcode = 23, .arg = 8, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd cmd = {.opcode = 25, .arg = 4096, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd stop = {.opcode = 12, .flags = MMCHAL_RSP_R1B};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_TO_CARD, .blksz = 512, .blocks = 8, .sg = &pages[0], .sg_len = 1};
	struct mmchal_request r = {.sbc = &sbc, .cmd = &cmd, .data = &d, .done = on_done};
	uint8_t *st;

	(void)state;
	open_card(false);
	st = store();

	/* CMD23 + CMD25: eight blocks from one page */
	fill(pages[0].cpu, 4096, 7);
	assert_int_equal(mmchal_host_request(&B.host, &r), 0);
	assert_int_equal(B.host.state, HS_SBC);
	/* nothing has come back yet */
	assert_int_equal(poll_after(0), 0);
	assert_int_equal(B.host.state, HS_SBC);
	/* CMD23 answered: CMD25 goes out */
	assert_int_equal(poll_after(20000), 0);
	assert_int_equal(B.host.state, HS_CMD);
	assert_int_equal(R1_STATE(sbc.resp[0]), STATE_TRAN);
	/* CMD25 answered: the data phase runs */
	assert_int_equal(poll_after(20000), 0);
	assert_int_equal(B.host.state, HS_DATA);
	assert_int_equal(R1_STATE(cmd.resp[0]), STATE_TRAN);
	assert_int_equal(d.bytes_xfered, 0);
	assert_int_equal(ndone, 0);
	/* the blocks and the card's programming are over: done, in this call */
	assert_int_equal(poll_after(10000000), 1);
	assert_int_equal(ndone, 1);
	assert_ptr_equal(last_done, &r);
	assert_int_equal(B.host.state, HS_IDLE);
	assert_int_equal(sbc.error, 0);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(d.error, 0);
	assert_int_equal(d.bytes_xfered, 4096);
	assert_memory_equal(st + 4096u * 512u, pages[0].cpu, 4096);
	/* later polls find nothing: the callback is not called again */
	assert_int_equal(poll_after(0), 0);
	assert_int_equal(poll_after(1000000), 0);
	assert_int_equal(ndone, 1);

	/* CMD18 with CMD12 (sent by the controller): the same blocks back into
	   the second page */
	memset(pages[1].cpu, 0xa5, 4096);
	cmd = (struct mmchal_cmd){.opcode = 18, .arg = 4096, .flags = MMCHAL_RSP_R1};
	d = (struct mmchal_data){.dir = MMCHAL_DIR_FROM_CARD,
				 .blksz = 512,
				 .blocks = 8,
				 .sg = &pages[1],
				 .sg_len = 1};
	r = (struct mmchal_request){.cmd = &cmd, .data = &d, .stop = &stop, .done = on_done};
	assert_int_equal(mmchal_host_request(&B.host, &r), 0);
	assert_int_equal(B.host.state, HS_CMD);
	assert_int_equal(poll_after(0), 0);
	assert_int_equal(B.host.state, HS_CMD);
	assert_int_equal(poll_after(20000), 0);
	assert_int_equal(B.host.state, HS_DATA);
	assert_int_equal(ndone, 1);
	assert_int_equal(poll_after(10000000), 1);
	assert_int_equal(ndone, 2);
	assert_ptr_equal(last_done, &r);
	assert_int_equal(B.host.state, HS_IDLE);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(d.error, 0);
	assert_int_equal(stop.error, 0);
	assert_int_equal(d.bytes_xfered, 4096);
	assert_memory_equal(pages[1].cpu, pages[0].cpu, 4096);
	assert_int_equal(poll_after(1000000), 0);
	assert_int_equal(ndone, 2);
	assert_masks_untouched();
	board_close(&B);
}

/* ------------------------------------------------------------ timeouts */

/* The card holds DAT0 low from now on, until CMD0. */
static void stick_card(void)
{
	struct mmchal_sim_fault f = {.kind = MMCHAL_SIM_FAULT_STUCK_BUSY,
				     .trigger = MMCHAL_SIM_AT_TIME,
				     .t_ns = mmchal_sim_now(B.sim)};

	assert_int_equal(mmchal_sim_fault_add(B.sim, &f), 0);
}

/* CMD0, then identification again: the host takes requests after a timeout. */
static void unstick_and_read(void)
{
	struct mmchal_cmd c0 = {.opcode = 0, .flags = MMCHAL_RSP_NONE};
	struct mmchal_request r0 = {.cmd = &c0};
	uint8_t *st = store();

	assert_int_equal(mmchal_host_request_sync(&B.host, &r0, 100), 0);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	fill(st + 512u * 64u, 4096, 5);
	memset(pages[2].cpu, 0, 4096);
	assert_int_equal(mmchal_card_read(&B.card, 64, 8, &pages[2], 1), 0);
	assert_memory_equal(st + 512u * 64u, pages[2].cpu, 4096);
}

/*
 * @p r on a stuck card with request_sync's @p timeout_ms: it fails with
 * ETIMEDOUT after exactly @p expect_ns of virtual time, in its data phase,
 * with no block known to be written; its callback ran once and the host is
 * idle. With counters: one software timeout, one failed request.
 */
static void sync_times_out(struct mmchal_request *r, uint32_t timeout_ms, uint64_t expect_ns)
{
	uint64_t t0, dt;
	int done0 = ndone;
#if MMCHAL_WITH_STATS
	struct mmchal_host_stats s0, s1;

	assert_int_equal(mmchal_host_stats(&B.host, &s0), 0);
#endif
	stick_card();
	t0 = mmchal_sim_now(B.sim);
	assert_int_equal(mmchal_host_request_sync(&B.host, r, timeout_ms), MMCHAL_ETIMEDOUT);
	dt = mmchal_sim_now(B.sim) - t0;
	assert_int_equal(dt, expect_ns);
	assert_int_equal(ndone, done0 + 1);
	assert_ptr_equal(last_done, r);
	assert_int_equal(r->cmd->error, 0);
	assert_int_equal(r->data->error, MMCHAL_ETIMEDOUT);
	assert_int_equal(r->data->bytes_xfered, 0);
	assert_int_equal(B.host.state, HS_IDLE);
#if MMCHAL_WITH_STATS
	assert_int_equal(mmchal_host_stats(&B.host, &s1), 0);
	assert_int_equal(s1.timeouts - s0.timeouts, 1);
	assert_int_equal(s1.errors[-MMCHAL_ETIMEDOUT] - s0.errors[-MMCHAL_ETIMEDOUT], 1);
	assert_int_equal(s1.completed - s0.completed, 1);
	assert_int_equal(s1.defer_inline, 0);
#endif
}

static void test_sync_timeout(void **state)
{
	struct mmchal_sg sg;
	struct mmchal_cmd cmd = {.opcode = 24, .arg = 512, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_TO_CARD, .blksz = 512, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_request r = {.cmd = &cmd, .data = &d, .done = on_done};

	(void)state;
	open_card(false);
	sg = block_of(0);
	fill(sg.cpu, 512, 3);

	/* 1. request_sync's own timeout: 5 ms, far below the host's data
	   timeout. The simulator's time is exact: 5 ms from the submit, then
	   the poll interval (1 us) that crossed it and the abort's register
	   accesses (100 ns each). */
	sync_times_out(&r, 5, 5002500u);
	unstick_and_read();

	/* 2. the data timeout mmchal_host_poll() enforces (2 ms for the block,
	   from CMD24's response on), with no deadline of request_sync's own */
	d.timeout_ns = 2000000;
	sync_times_out(&r, 0, 2005000u);
	unstick_and_read();

	assert_int_equal(ndone, 2);
	assert_masks_untouched();
	board_close(&B);
}

/* ------------------------------------------------------------ IRQ backend */

/* A backend that says it completes in its interrupt works polled, whatever
   completion policy the host's limits name: completion runs in the poll that
   sees it, never deferred and never left to an interrupt. */
static void test_irq_backend_polled(void **state)
{
	static const enum mmchal_completion_policy policies[] = {
		MMCHAL_POLICY_IRQ_LOCKED, MMCHAL_POLICY_IRQ_SPLIT, MMCHAL_POLICY_DEFERRED,
		MMCHAL_POLICY_POLLED};
	struct mmchal_host_caps caps;
	struct mmchal_sg sg;
	uint8_t *st;

	(void)state;
	open_card(true);
	sg = block_of(3);
	assert_int_equal(mmchal_host_core_ops.get_caps(&B.host, &caps), 0);
	assert_int_equal(caps.completion, MMCHAL_COMPLETES_IN_IRQ);
	st = store();
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		struct mmchal_cmd cmd = {
			.opcode = 17, .arg = 300u + (uint32_t)i, .flags = MMCHAL_RSP_R1};
		struct mmchal_data d = {.dir = MMCHAL_DIR_FROM_CARD,
					.blksz = 512,
					.blocks = 1,
					.sg = &sg,
					.sg_len = 1};
		struct mmchal_request r = {.cmd = &cmd, .data = &d, .done = on_done};
		int before = ndone, polls;

		/* what the limits say is not the polled host's business */
		B.host.limits.policy = policies[i];
		fill(st + 512u * (300u + i), 512, (uint32_t)i + 10u);
		memset(sg.cpu, 0, 512);
		assert_int_equal(mmchal_host_request(&B.host, &r), 0);
		irq_changes_nothing(1);
		/* one poll every 5 us: 16 find it running, the 17th completes it
		   and runs the callback, under every policy */
		for (polls = 1; polls < 17; polls++) {
			assert_int_equal(poll_after(5000), 0);
			assert_int_equal(ndone, before);
		}
		assert_int_equal(poll_after(5000), 1);
		assert_int_equal(ndone, before + 1);
		assert_ptr_equal(last_done, &r);
		assert_int_equal(B.host.state, HS_IDLE);
		assert_int_equal(d.error, 0);
		assert_int_equal(d.bytes_xfered, 512);
		assert_memory_equal(st + 512u * (300u + i), sg.cpu, 512);
		/* and through the card layer */
		fill(st + 512u * 800u, 4096, (uint32_t)i);
		assert_int_equal(mmchal_card_read(&B.card, 800, 8, &pages[4], 1), 0);
		assert_memory_equal(st + 512u * 800u, pages[4].cpu, 4096);
	}
#if !MMCHAL_EMMC_RO
	fill(pages[5].cpu, 4096, 77);
	assert_int_equal(mmchal_card_write(&B.card, 900, 8, &pages[5], 1), 0);
	assert_memory_equal(st + 512u * 900u, pages[5].cpu, 4096);
#endif
	assert_int_equal(counters().irqs, 0);
	assert_masks_untouched();
	board_close(&B);
}

/* ------------------------------------------------------------ the lock */

/* The board's port, with its lock pair and deferred work counted. */
static struct {
	const struct mmchal_port *inner;
	unsigned int takes, depth, max_depth, works;
} L;

static mmchal_irqflags_t cl_lock(void *ctx)
{
	(void)ctx;
	L.takes++;
	if (++L.depth > L.max_depth)
		L.max_depth = L.depth;
	return L.inner->ops->lock_irqsave(L.inner->ctx);
}

static void cl_unlock(void *ctx, mmchal_irqflags_t f)
{
	(void)ctx;
	assert_int_equal(L.depth, 1);
	L.depth--;
	L.inner->ops->unlock_irqrestore(L.inner->ctx, f);
}

static uint64_t cl_now(void *ctx)
{
	(void)ctx;
	return L.inner->ops->now_ns(L.inner->ctx);
}

static void cl_delay(void *ctx, uint32_t us)
{
	(void)ctx;
	L.inner->ops->delay_us(L.inner->ctx, us);
}

static int cl_work(void *ctx, mmchal_work_fn fn, void *arg)
{
	(void)ctx;
	L.works++;
	return L.inner->ops->schedule_work(L.inner->ctx, fn, arg);
}

/*
 * The host lock stays in a polled-only library: it serialises the threads
 * that share a host, so every entry still takes it, once at a time, and
 * lets it go; mmchal_host_irq() does not take it, and no work is deferred.
 */
static void test_lock_kept(void **state)
{
	static const struct mmchal_port_ops ops = {.lock_irqsave = cl_lock,
						   .unlock_irqrestore = cl_unlock,
						   .now_ns = cl_now,
						   .delay_us = cl_delay,
						   .schedule_work = cl_work};
	struct mmchal_port port = {.ops = &ops};
	struct mmchal_host_cfg hc;
	struct mmchal_cmd c = {.opcode = 13, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd c2 = {.opcode = 13, .flags = MMCHAL_RSP_R1};
	struct mmchal_request r = {.cmd = &c, .done = on_done};
	struct mmchal_request r2 = {.cmd = &c2, .done = on_done};
	unsigned int t0;
	uint8_t *st;

	(void)state;
	open_board(true);
	memset(&L, 0, sizeof(L));
	L.inner = &B.port;
	hc = B.hc;
	hc.port = &port;
	mmchal_host_deinit(&B.host);
	assert_int_equal(mmchal_host_init(&B.host, &hc), 0);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	st = store();
	fill(st + 512u * 40u, 4096, 9);
	assert_int_equal(mmchal_card_read(&B.card, 40, 8, &pages[6], 1), 0);
	assert_memory_equal(st + 512u * 40u, pages[6].cpu, 4096);
	assert_int_equal(L.depth, 0);
	assert_int_equal(L.max_depth, 1);

	/* an idle poll: one lock section; mmchal_host_irq(): none */
	t0 = L.takes;
	assert_int_equal(mmchal_host_poll(&B.host), 0);
	assert_int_equal(L.takes, t0 + 1u);
	assert_int_equal(mmchal_host_irq(&B.host), MMCHAL_ENOTSUP);
	assert_int_equal(L.takes, t0 + 1u);

	/* a request: claimed, then started, each under the lock; a second one
	   while it is in flight is refused under the lock */
	c.arg = (uint32_t)B.card.info.rca << 16;
	t0 = L.takes;
	assert_int_equal(mmchal_host_request(&B.host, &r), 0);
	assert_int_equal(L.takes, t0 + 2u);
	assert_int_equal(mmchal_host_request(&B.host, &r2), MMCHAL_EBUSY);
	assert_int_equal(L.takes, t0 + 3u);
	assert_int_equal(mmchal_host_irq(&B.host), MMCHAL_ENOTSUP);
	assert_int_equal(L.takes, t0 + 3u);
	/* the poll that completes it: the events, then the commit */
	assert_int_equal(poll_after(100000), 1);
	assert_int_equal(L.takes, t0 + 5u);
	assert_int_equal(ndone, 1);
	assert_ptr_equal(last_done, &r);
	assert_int_equal(c.error, 0);
	assert_int_equal(L.depth, 0);
	assert_int_equal(L.max_depth, 1);
	assert_int_equal(L.works, 0);
	board_close(&B);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irq_refused),        cmocka_unit_test(test_card_read_write),
		cmocka_unit_test(test_poll_by_hand),       cmocka_unit_test(test_sync_timeout),
		cmocka_unit_test(test_irq_backend_polled), cmocka_unit_test(test_lock_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
