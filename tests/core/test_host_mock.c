/*
 * The request path over the mock backend (an eMMC over a RAM image): single
 * and multiple blocks, reads and writes, CMD12 and CMD23, every plan (the
 * IOMMU plans through a small fake IOMMU that translates for the mock), every
 * fault switch giving its error, the host recovering, and IOVA pages and
 * bounce slots back to zero after every request.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/host_core.h>
#include <mmchal/mock.h>

#include "core/host_fixture.h"

#define IMAGE_SIZE (512u * 1024u)

static uint8_t image[IMAGE_SIZE];
static _Alignas(4096) unsigned char buf[9 * 4096];
static _Alignas(4096) unsigned char pool[64 * 2048];
static uint32_t pool_meta[MMCHAL_BOUNCE_META_BYTES(64) / sizeof(uint32_t)];
static _Alignas(16) unsigned char nodes[MMCHAL_IOVA_POOL_BYTES(64)];
static struct mmchal_mock_log_entry mlog[16];

enum kind { K_PIO, K_DIRECT, K_MERGED, K_DIRECT_IOMMU, K_BOUNCED, K_COUNT };

static const enum mmchal_plan kind_plan[K_COUNT] = {MMCHAL_PLAN_PIO, MMCHAL_PLAN_DIRECT,
						    MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PLAN_DIRECT,
						    MMCHAL_PLAN_BOUNCED};

static struct {
	enum kind kind;
	struct mmchal_mock mock;
	struct rec_port rp;
	struct fiommu fi;
	struct mmchal_iommu iommu;
	struct mmchal_iommu_domain dom;
	struct mmchal_bounce bounce;
	struct mmchal_backend be;
	struct mmchal_port port;
	struct mmchal_host host;
	struct mmchal_dma_seg table[8];
	uint32_t off; /* offset of the buffers in buf */
} g;

/* Extra MMCHAL_BUS_* bits, the card change and SDIO interrupt callbacks and the
   card (an SDIO card instead of the eMMC) of the next setup(). */
static uint32_t extra_bus;
static void (*change_fn)(void *arg);
static void (*sdio_fn)(void *arg);
static bool sdio_card;

static uint8_t pattern(uint32_t off)
{
	return (uint8_t)(off * 7u + (off >> 9) * 13u + 1u);
}

static void setup(enum kind k, bool pio_retry)
{
	struct mmchal_mock_cfg mc;
	struct mmchal_host_cfg hc;

	memset(&g, 0, sizeof(g));
	g.kind = k;
	for (uint32_t i = 0; i < IMAGE_SIZE; i++)
		image[i] = pattern(i);
	memset(&mc, 0, sizeof(mc));
	mc.card = sdio_card ? MMCHAL_MOCK_SDIO : MMCHAL_MOCK_EMMC;
	mc.sdio_functions = sdio_card ? 1 : 0;
	mc.image = image;
	mc.image_size = IMAGE_SIZE;
	mc.log = mlog;
	mc.log_len = 16;
	mc.host.completion = MMCHAL_COMPLETES_IN_IRQ;
	mc.host.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_CMD23 | extra_bus;
	mc.host.merge_capable = k == K_MERGED;
	if (k != K_PIO) {
		mc.dma.kind = MMCHAL_DMA_INTERNAL;
		for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
			mc.dma.dir[d].max_segs = k == K_MERGED ? 1 : 8;
			mc.dma.dir[d].max_seg_size = 65536;
			mc.dma.dir[d].coherent = true;
			/* BOUNCED: the engine needs page-aligned segments; buffers are not */
			mc.dma.dir[d].addr_align = k == K_BOUNCED ? 4096 : 0;
		}
	}
	mc.dma_to_cpu = fx_dma_to_cpu;
	mc.dma_ctx = (k == K_MERGED || k == K_DIRECT_IOMMU) ? &g.fi : NULL;
	mc.busy_latency = 2;
	assert_int_equal(mmchal_mock_init(&g.mock, &mc), 0);
	assert_int_equal(mmchal_mock_backend(&g.mock, &g.be), 0);
	rec_init(&g.rp);
	g.port.ops = &rec_ops_coherent;
	g.port.ctx = &g.rp;
	memset(&hc, 0, sizeof(hc));
	hc.backend = &g.be;
	hc.port = &g.port;
	hc.seg_table = g.table;
	hc.seg_table_len = 8;
	hc.pio_retry = pio_retry;
	hc.card_change = change_fn;
	hc.card_change_arg = &g.host;
	hc.sdio_irq = sdio_fn;
	hc.sdio_irq_arg = &g.host;
	hc.busy_timeout_ms = 5;
	hc.cmd_timeout_ms = 5;
	if (k == K_MERGED || k == K_DIRECT_IOMMU) {
		struct mmchal_iommu_domain_cfg dc = {.iommu = &g.iommu,
						     .node_mem = nodes,
						     .node_mem_size = sizeof(nodes),
						     .addr_bits = 32};

		g.iommu.ops = &fiommu_ops;
		g.iommu.ctx = &g.fi;
		assert_int_equal(mmchal_iommu_domain_init(&g.dom, &dc), 0);
		hc.iommu = &g.dom;
	}
	if (k == K_BOUNCED) {
		struct mmchal_bounce_cfg bc = {.mem = pool,
					       .dma = (uintptr_t)pool,
					       .size = sizeof(pool),
					       .slots_per_map = 16,
					       .meta = pool_meta,
					       .meta_size = sizeof(pool_meta)};

		assert_int_equal(mmchal_bounce_init(&g.bounce, &bc), 0);
		hc.bounce = &g.bounce;
		g.off = 512;
	}
	assert_int_equal(mmchal_host_init(&g.host, &hc), 0);
	assert_int_equal(mmchal_host_core_ops.init_card(&g.host, sdio_card ? MMCHAL_CARD_SDIO
									   : MMCHAL_CARD_MMC),
			 0);
	assert_int_equal(mmchal_host_limits(&g.host)->merge, k == K_MERGED);
}

static int cmd(uint32_t op, uint32_t arg, uint32_t flags, uint32_t *resp0)
{
	struct mmchal_cmd c = {.opcode = op, .arg = arg, .flags = flags};
	struct mmchal_request r = {.cmd = &c};
	int err = mmchal_host_request_sync(&g.host, &r, 100);

	if (resp0)
		*resp0 = c.resp[0];
	return err;
}

/* eMMC identification to the transfer state (JEDEC 84-B51 6.4). */
static void card_to_tran(void)
{
	uint32_t r = 0;
	int i;

	assert_int_equal(cmd(0, 0, MMCHAL_RSP_NONE, NULL), 0); /* GO_IDLE_STATE */
	for (i = 0; i < 10 && !(r & 0x80000000u); i++)         /* SEND_OP_COND */
		assert_int_equal(cmd(1, 0x40ff8080u, MMCHAL_RSP_R3, &r), 0);
	assert_true(r & 0x80000000u);
	assert_int_equal(cmd(2, 0, MMCHAL_RSP_R2, NULL), 0);         /* ALL_SEND_CID */
	assert_int_equal(cmd(3, 1u << 16, MMCHAL_RSP_R1, NULL), 0);  /* SET_RELATIVE_ADDR */
	assert_int_equal(cmd(7, 1u << 16, MMCHAL_RSP_R1B, NULL), 0); /* SELECT_CARD */
}

enum mode { SINGLE, STOP, SBC };

static struct mmchal_cmd rc, rsbc, rstop;
static struct mmchal_data rd;
static struct mmchal_sg rsg[4];
static struct mmchal_request rq;
static unsigned ndone;

static void on_done(struct mmchal_request *r)
{
	(void)r;
	ndone++;
}

/* Blocks at @p lba through @p nsg page-sized pieces of buf (one for SINGLE). */
static int rw(enum mmchal_dir dir, uint32_t lba, uint32_t blocks, uint32_t nsg, enum mode m)
{
	bool rd_ = dir == MMCHAL_DIR_FROM_CARD;
	uint32_t left = blocks * 512;

	rc = (struct mmchal_cmd){.flags = MMCHAL_RSP_R1, .arg = lba};
	rc.opcode = m == SINGLE ? (rd_ ? 17 : 24) : (rd_ ? 18 : 25);
	rsbc = (struct mmchal_cmd){.opcode = 23, .arg = blocks, .flags = MMCHAL_RSP_R1};
	rstop = (struct mmchal_cmd){.opcode = 12, .flags = MMCHAL_RSP_R1B};
	for (uint32_t i = 0; i < nsg; i++) {
		uint32_t len = i + 1 == nsg ? left : 4096;

		rsg[i].cpu = buf + g.off + 4096 * i;
		rsg[i].phys = (uintptr_t)rsg[i].cpu;
		rsg[i].len = len;
		left -= len;
	}
	rd = (struct mmchal_data){
		.dir = dir, .blksz = 512, .blocks = blocks, .sg = rsg, .sg_len = nsg};
	rq = (struct mmchal_request){.cmd = &rc, .data = &rd, .done = on_done};
	if (m == STOP)
		rq.stop = &rstop;
	if (m == SBC)
		rq.sbc = &rsbc;
	return mmchal_host_request_sync(&g.host, &rq, 100);
}

/* After a write without R1b the card programs; its stack waits (card_busy). */
static void wait_idle(void)
{
	int i;

	for (i = 0; i < 100 && mmchal_host_core_ops.card_busy(&g.host) == 1; i++)
		;
	assert_true(i < 100);
}

static void expect_image_in_buf(uint32_t lba, uint32_t blocks)
{
	for (uint32_t i = 0; i < blocks * 512; i++) {
		if (buf[g.off + i] != image[lba * 512 + i])
			fail_msg("byte %u of lba %u", (unsigned)i, (unsigned)lba);
	}
}

static void expect_clean(void)
{
	struct mmchal_host_stats st;

	assert_int_equal(mmchal_host_stats(&g.host, &st), 0);
	assert_int_equal(st.iova_pages, 0);
	assert_int_equal(st.bounce_slots, 0);
	assert_int_equal(g.fi.pages, 0);
	assert_int_equal(mmchal_bounce_in_use(g.kind == K_BOUNCED ? &g.bounce : NULL), 0);
	assert_false(g.rp.bad_nesting);
	assert_int_equal(g.rp.depth, 0);
}

static const struct mmchal_mock_log_entry *nonnull(const struct mmchal_mock_log_entry *e)
{
	static const struct mmchal_mock_log_entry none;

	if (!e) {
		fail_msg("no such log entry");
		return &none;
	}
	return e;
}

/* The last command the card saw, and the last one with data. */
static const struct mmchal_mock_log_entry *last_cmd(void)
{
	return nonnull(mmchal_mock_log_last(&g.mock));
}

static const struct mmchal_mock_log_entry *last_data(void)
{
	for (uint32_t i = mmchal_mock_log_count(&g.mock); i-- > 0;) {
		const struct mmchal_mock_log_entry *e = mmchal_mock_log_get(&g.mock, i);

		if (e && e->has_data)
			return e;
	}
	return nonnull(NULL);
}

static void test_every_plan_reads_and_writes(void **state)
{
	(void)state;
	for (int k = 0; k < K_COUNT; k++) {
		struct mmchal_host_stats st;
		const struct mmchal_mock_log_entry *e;

		setup((enum kind)k, false);
		card_to_tran();
		/* single block read */
		memset(buf, 0, sizeof(buf));
		assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 3, 1, 1, SINGLE), 0);
		expect_image_in_buf(3, 1);
		assert_int_equal(rd.bytes_xfered, 512);
		e = last_data();
		assert_int_equal(e->opcode, 17);
		assert_int_equal(e->plan, kind_plan[k]);
		expect_clean();
		/* multiple blocks, CMD12 */
		memset(buf, 0, sizeof(buf));
		assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 40, 32, 4, STOP), 0);
		expect_image_in_buf(40, 32);
		assert_int_equal(rd.bytes_xfered, 32 * 512);
		assert_int_equal(last_cmd()->opcode, 12);
		assert_int_equal(last_data()->plan, kind_plan[k]);
		assert_int_equal(last_data()->nsegs, k == K_PIO                          ? 0
						     : (k == K_MERGED || k == K_BOUNCED) ? 1
											 : 4);
		expect_clean();
		/* multiple blocks, CMD23 */
		memset(buf, 0, sizeof(buf));
		assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 100, 20, 3, SBC), 0);
		expect_image_in_buf(100, 20);
		assert_int_equal(last_data()->opcode, 18);
		expect_clean();
		/* writes: single, CMD12, CMD23 */
		for (uint32_t i = 0; i < sizeof(buf); i++)
			buf[i] = (unsigned char)(i * 3u + (unsigned)k);
		assert_int_equal(rw(MMCHAL_DIR_TO_CARD, 7, 1, 1, SINGLE), 0);
		wait_idle();
		expect_image_in_buf(7, 1);
		assert_int_equal(rw(MMCHAL_DIR_TO_CARD, 200, 24, 3, STOP), 0);
		expect_image_in_buf(200, 24);
		assert_int_equal(rw(MMCHAL_DIR_TO_CARD, 300, 32, 4, SBC), 0);
		wait_idle();
		expect_image_in_buf(300, 32);
		assert_int_equal(last_data()->opcode, 25);
		assert_int_equal(last_data()->plan, kind_plan[k]);
		expect_clean();
		assert_int_equal(mmchal_host_stats(&g.host, &st), 0);
		assert_int_equal(st.plan[kind_plan[k]], 6);
		assert_int_equal(st.completed, st.requests);
		mmchal_host_deinit(&g.host);
	}
}

static void test_command_faults(void **state)
{
	(void)state;
	setup(K_DIRECT, false);
	card_to_tran();
	/* a corrupted response */
	assert_int_equal(mmchal_mock_fail_cmd(&g.mock, 18, MMCHAL_EIO, 1), 0);
	assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 8, 16, 2, STOP), MMCHAL_EIO);
	assert_int_equal(rc.error, MMCHAL_EIO);
	assert_int_equal(rd.bytes_xfered, 0);
	/* the card may have taken it: the open-ended transfer is stopped */
	assert_int_equal(last_cmd()->opcode, 12);
	assert_int_equal(rstop.error, 0);
	expect_clean();
	/* the card does not answer: the command times out */
	assert_int_equal(mmchal_mock_fail_cmd(&g.mock, 18, MMCHAL_ETIMEDOUT, 1), 0);
	assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 8, 16, 2, STOP), MMCHAL_ETIMEDOUT);
	assert_int_equal(rc.error, MMCHAL_ETIMEDOUT);
	expect_clean();
	/* CMD23 refused: the command never goes out */
	assert_int_equal(mmchal_mock_fail_cmd(&g.mock, 23, MMCHAL_EILSEQ, 1), 0);
	assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 8, 16, 2, SBC), MMCHAL_EILSEQ);
	assert_int_equal(rsbc.error, MMCHAL_EILSEQ);
	assert_int_equal(last_cmd()->opcode, 23);
	/* the backend refuses to start: no completion */
	assert_int_equal(mmchal_mock_fail_op(&g.mock, MMCHAL_MOCK_OP_START, MMCHAL_ENOMEM, 1), 0);
	ndone = 0;
	assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 8, 16, 2, STOP), MMCHAL_ENOMEM);
	assert_int_equal(ndone, 0);
	expect_clean();
	/* recovered */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 8, 16, 2, STOP), 0);
	expect_image_in_buf(8, 16);
	expect_clean();
}

static void test_data_faults(void **state)
{
	static const struct {
		enum mmchal_mock_data_fault f;
		uint32_t block;
		int err;
	} rows[] = {
		{MMCHAL_MOCK_DATA_CRC, 3, MMCHAL_EIO},
		{MMCHAL_MOCK_DATA_TIMEOUT, 2, MMCHAL_ETIMEDOUT},
		{MMCHAL_MOCK_DATA_SHORT, 4, MMCHAL_EIO},
		{MMCHAL_MOCK_DATA_DMA, 5, MMCHAL_EFAULT},
	};

	(void)state;
	for (int k = K_DIRECT; k < K_COUNT; k++) {
		setup((enum kind)k, false);
		card_to_tran();
		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			assert_int_equal(
				mmchal_mock_fail_data(&g.mock, rows[i].f, rows[i].block, 1), 0);
			assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 16, 16, 2, STOP), rows[i].err);
			assert_int_equal(rd.error, rows[i].err);
			/* only the blocks that moved, and the open-ended transfer stopped */
			assert_int_equal(rd.bytes_xfered, rows[i].block * 512);
			assert_int_equal(last_cmd()->opcode, 12);
			expect_clean();
			/* and the next request succeeds */
			memset(buf, 0, sizeof(buf));
			assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 16, 16, 2, STOP), 0);
			expect_image_in_buf(16, 16);
			expect_clean();
		}
		mmchal_host_deinit(&g.host);
	}
}

/* R1 card status bits 12:9: the state the command found the card in. */
static uint32_t r1_state(uint32_t r1)
{
	return (r1 >> 9) & 0xfu;
}

/* With MMCHAL_BUS_AUTO_CMD12 the controller ends an open-ended transfer. */
static void test_auto_stop(void **state)
{
	(void)state;
	extra_bus = MMCHAL_BUS_AUTO_CMD12;
	for (int k = 0; k < K_COUNT; k++) {
		uint32_t before;

		setup((enum kind)k, false);
		card_to_tran();
		/* read: no CMD12 on the line, its answer from the backend */
		memset(buf, 0, sizeof(buf));
		before = mmchal_mock_log_count(&g.mock);
		assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 40, 32, 4, STOP), 0);
		expect_image_in_buf(40, 32);
		assert_int_equal(rd.bytes_xfered, 32 * 512);
		assert_int_equal(mmchal_mock_log_count(&g.mock), before + 1);
		assert_int_equal(last_cmd()->opcode, 18);
		assert_true(last_cmd()->auto_stop);
		assert_int_equal(rstop.error, 0);
		assert_int_equal(r1_state(rstop.resp[0]), MMCHAL_MOCK_ST_DATA);
		/* write: the card was receiving */
		for (uint32_t i = 0; i < sizeof(buf); i++)
			buf[i] = (unsigned char)(i * 5u + (unsigned)k);
		before = mmchal_mock_log_count(&g.mock);
		assert_int_equal(rw(MMCHAL_DIR_TO_CARD, 200, 24, 3, STOP), 0);
		wait_idle();
		expect_image_in_buf(200, 24);
		assert_int_equal(mmchal_mock_log_count(&g.mock), before + 1);
		assert_true(last_cmd()->auto_stop);
		assert_int_equal(r1_state(rstop.resp[0]), MMCHAL_MOCK_ST_RCV);
		/* the card is back in tran: a single block, and CMD23 without auto stop */
		assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 3, 1, 1, SINGLE), 0);
		assert_false(last_cmd()->auto_stop);
		assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 100, 20, 3, SBC), 0);
		assert_false(last_data()->auto_stop);
		expect_image_in_buf(100, 20);
		/* a failed data phase: the controller sent nothing, the core stops it */
		if (k != K_PIO) {
			assert_int_equal(mmchal_mock_fail_data(&g.mock, MMCHAL_MOCK_DATA_CRC, 3, 1),
					 0);
			assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 16, 16, 2, STOP), MMCHAL_EIO);
			assert_int_equal(rd.bytes_xfered, 3 * 512);
			assert_int_equal(last_cmd()->opcode, 12);
			assert_false(last_cmd()->auto_stop);
			assert_int_equal(rstop.error, 0);
		}
		memset(buf, 0, sizeof(buf));
		assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 16, 16, 2, STOP), 0);
		expect_image_in_buf(16, 16);
		expect_clean();
		mmchal_host_deinit(&g.host);
	}
	extra_bus = 0;
}

static unsigned changes;

static void on_change(void *arg)
{
	assert_ptr_equal(arg, &g.host);
	/* told after the lock is dropped */
	assert_int_equal(g.rp.depth, 0);
	changes++;
}

static unsigned sdio_irqs;

static void on_sdio_irq(void *arg)
{
	assert_ptr_equal(arg, &g.host);
	/* told after the lock is dropped */
	assert_int_equal(g.rp.depth, 0);
	sdio_irqs++;
}

/* A card removal and insertion reach the host's card_change callback, and only it. */
static void test_card_change(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	change_fn = on_change;
	sdio_fn = on_sdio_irq;
	setup(K_PIO, false);
	change_fn = NULL;
	sdio_fn = NULL;
	card_to_tran();
	changes = 0;
	sdio_irqs = 0;
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(changes, 0);
	mmchal_mock_set_present(&g.mock, false);
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(changes, 1);
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(changes, 1);
	mmchal_mock_set_present(&g.mock, true);
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	assert_int_equal(changes, 2);
	assert_int_equal(mmchal_host_stats(&g.host, &st), 0);
	assert_int_equal(st.card_changes, 2);
	assert_int_equal(st.sdio_irqs, 0);
	assert_int_equal(sdio_irqs, 0);
	mmchal_host_deinit(&g.host);
}

/* CMD52 to function @fn at @addr (a write of @v when @wr); returns the R5's data byte. */
static uint8_t cmd52(bool wr, uint32_t fn, uint32_t addr, uint8_t v)
{
	uint32_t r = 0;

	assert_int_equal(cmd(52, (wr ? 1u << 31 | 1u << 27 : 0) | fn << 28 | addr << 9 | v,
			     MMCHAL_RSP_R5, &r),
			 0);
	return (uint8_t)r;
}

/* The mock SDIO card through the host: CMD5 until ready, CMD3, CMD7, then IENM and
   IEN1 set in CCCR 0x04. */
static void sdio_select_ien(void)
{
	uint32_t r = 0;

	assert_int_equal(cmd(5, 0x00ff8000u, MMCHAL_RSP_R4, &r), 0);
	assert_true(r & 0x80000000u);
	assert_int_equal(cmd(3, 0, MMCHAL_RSP_R6, &r), 0);
	assert_int_equal(cmd(7, r & 0xffff0000u, MMCHAL_RSP_R1B, NULL), 0);
	assert_int_equal(cmd52(true, 0, 0x04, 0x03), 0x03); /* IENM, IEN1 */
}

/*
 * The SDIO card's interrupt reaches the host's sdio_irq callback (and only it) once, from
 * mmchal_host_irq() or mmchal_host_poll() with the lock dropped, and not again
 * while the card holds it until the owner enables it again through the host op;
 * every report is counted, also without a callback.
 */
static void test_sdio_irq(void **state)
{
	const struct mmchal_host_ops *ops = &mmchal_host_core_ops;
	struct mmchal_host_stats st;

	(void)state;
	sdio_card = true;
	sdio_fn = on_sdio_irq;
	change_fn = on_change;
	extra_bus = MMCHAL_BUS_SDIO_IRQ;
	setup(K_PIO, false);
	sdio_fn = NULL;
	change_fn = NULL;
	changes = 0;
	sdio_select_ien();
	sdio_irqs = 0;
	assert_int_equal(ops->enable_sdio_irq(&g.host, true), 0);
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(sdio_irqs, 0);
	assert_int_equal(mmchal_mock_sdio_irq(&g.mock, 0x02), 0);
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(sdio_irqs, 1);
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	assert_int_equal(sdio_irqs, 1);
	/* the owner reads INTx, and enables the interrupt again: the card still holds it */
	assert_int_equal(cmd52(false, 0, 0x05, 0), 0x02);
	assert_int_equal(ops->enable_sdio_irq(&g.host, true), 0);
	assert_int_equal(mmchal_host_poll(&g.host), 0);
	assert_int_equal(sdio_irqs, 2);
	assert_int_equal(mmchal_host_stats(&g.host, &st), 0);
	assert_int_equal(st.sdio_irqs, 2);
	assert_int_equal(st.card_changes, 0);
	assert_int_equal(changes, 0);
	assert_int_equal(ops->enable_sdio_irq(&g.host, false), 0);
	mmchal_host_deinit(&g.host);

	/* no callback: still counted */
	setup(K_PIO, false);
	sdio_select_ien();
	assert_int_equal(mmchal_mock_sdio_irq(&g.mock, 0x02), 0);
	assert_int_equal(ops->enable_sdio_irq(&g.host, true), 0);
	assert_int_equal(mmchal_host_irq(&g.host), 0);
	assert_int_equal(mmchal_host_stats(&g.host, &st), 0);
	assert_int_equal(st.sdio_irqs, 1);
	assert_int_equal(sdio_irqs, 2);
	mmchal_host_deinit(&g.host);
	sdio_card = false;
	extra_bus = 0;
}

static void test_dma_fault_pio_retry(void **state)
{
	struct mmchal_host_stats st;

	(void)state;
	setup(K_MERGED, true);
	card_to_tran();
	assert_int_equal(mmchal_mock_fail_data(&g.mock, MMCHAL_MOCK_DATA_DMA, 2, 1), 0);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 50, 16, 2, STOP), 0);
	expect_image_in_buf(50, 16);
	assert_int_equal(rd.bytes_xfered, 16 * 512);
	assert_int_equal(last_data()->plan, MMCHAL_PLAN_PIO);
	assert_int_equal(mmchal_host_stats(&g.host, &st), 0);
	assert_int_equal(st.pio_retries, 1);
	assert_int_equal(st.completed, st.requests);
	expect_clean();
}

static void test_removal_and_stuck_busy(void **state)
{
	const struct mmchal_host_ops *ops = &mmchal_host_core_ops;

	(void)state;
	setup(K_DIRECT, false);
	card_to_tran();
	/* removal: the request fails with ENOMEDIUM, the slot reports it */
	mmchal_mock_set_present(&g.mock, false);
	assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 8, 16, 2, STOP), MMCHAL_ENOMEDIUM);
	assert_int_equal(ops->get_cd(&g.host), 0);
	expect_clean();
	mmchal_mock_set_present(&g.mock, true);
	assert_int_equal(ops->get_cd(&g.host), 1);
	card_to_tran();
	memset(buf, 0, sizeof(buf));
	assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 8, 16, 2, STOP), 0);
	expect_image_in_buf(8, 16);
	/* stuck busy after a write's CMD12: the busy timeout fires */
	mmchal_mock_set_busy_stuck(&g.mock, true);
	assert_int_equal(rw(MMCHAL_DIR_TO_CARD, 8, 16, 2, STOP), MMCHAL_ETIMEDOUT);
	assert_int_equal(rstop.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(rd.error, 0);
	assert_int_equal(rd.bytes_xfered, 16 * 512);
	expect_clean();
	mmchal_mock_set_busy_stuck(&g.mock, false);
	for (int i = 0; i < 10 && ops->card_busy(&g.host) == 1; i++)
		;
	assert_int_equal(ops->card_busy(&g.host), 0);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(rw(MMCHAL_DIR_FROM_CARD, 8, 16, 2, STOP), 0);
	expect_image_in_buf(8, 16);
	expect_clean();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_plan_reads_and_writes),
		cmocka_unit_test(test_command_faults),
		cmocka_unit_test(test_data_faults),
		cmocka_unit_test(test_auto_stop),
		cmocka_unit_test(test_card_change),
		cmocka_unit_test(test_sdio_irq),
		cmocka_unit_test(test_dma_fault_pio_retry),
		cmocka_unit_test(test_removal_and_stuck_busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
