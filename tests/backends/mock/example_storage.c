/*
 * Example (docs/testing.md): unit-testing your own storage stack against the
 * mock card, through the real host core.
 *
 * The "stack under test" is the small sector layer in the first half of this
 * file (blk_open, blk_rw): it identifies an SD card and reads and writes
 * 512-byte sectors using nothing but struct mmchal_host_ops. The second half
 * builds the test bench (a mock SD card over a RAM image, a host in polled
 * mode with a virtual clock) and checks the stack's behaviour: data byte for
 * byte, the commands it sends (from the mock's request log), its retry on a
 * CRC error, its answer to a removed card, a slow card, a DMA host.
 *
 * Portable: no allocation, no threads, no stdio; it runs on the host and on
 * the Cortex-M4 / RV64 targets under QEMU.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/error.h>
#include <mmchal/host_core.h>
#include <mmchal/mock.h>

/* ===================================================== the stack under test */

#define BLK_SIZE        512u
#define BLK_TRIES       3u          /* attempts per transfer */
#define R1_ERRORS       0xfdf90008u /* R1 bits that mean the command failed */
#define R1_OUT_OF_RANGE (1u << 31)

struct blk {
	const struct mmchal_host_ops *ops;
	void *host;
	uint32_t rca;
	bool high_capacity;
	bool cmd23;
};

static int blk_cmd(struct blk *b, uint32_t op, uint32_t arg, uint32_t flags, uint32_t *resp)
{
	struct mmchal_cmd c = {.opcode = op, .arg = arg, .flags = flags};
	struct mmchal_request r = {.cmd = &c};
	int err = b->ops->request_sync(b->host, &r, 1000);

	if (resp)
		*resp = c.resp[0];
	return err;
}

/* SD identification (PROTOCOL.md section 4): CMD0, CMD8, ACMD41 until ready,
   CMD2, CMD3, CMD7. */
static int blk_open(struct blk *b, const struct mmchal_host_ops *ops, void *host)
{
	struct mmchal_host_caps caps;
	uint32_t r = 0;
	int err;

	memset(b, 0, sizeof(*b));
	b->ops = ops;
	b->host = host;
	if (ops->get_caps(host, &caps) == 0)
		b->cmd23 = (caps.bus & MMCHAL_BUS_CMD23) != 0u;
	blk_cmd(b, 0, 0, MMCHAL_RSP_NONE, NULL);
	err = blk_cmd(b, 8, 0x1aa, MMCHAL_RSP_R7, &r);
	if (err || (r & 0xfffu) != 0x1aau)
		return err ? err : MMCHAL_EPROTO;
	for (int i = 0; i < 100; i++) {
		err = blk_cmd(b, 55, 0, MMCHAL_RSP_R1, NULL);
		if (!err)
			err = blk_cmd(b, 41, 0x40ff8000, MMCHAL_RSP_R3, &r);
		if (err)
			return err;
		if (r & 0x80000000u)
			break;
	}
	if (!(r & 0x80000000u))
		return MMCHAL_ETIMEDOUT;
	b->high_capacity = (r & 0x40000000u) != 0u;
	err = blk_cmd(b, 2, 0, MMCHAL_RSP_R2, NULL);
	if (!err)
		err = blk_cmd(b, 3, 0, MMCHAL_RSP_R6, &r);
	if (err)
		return err;
	b->rca = r >> 16;
	err = blk_cmd(b, 7, b->rca << 16, MMCHAL_RSP_R1B, NULL);
	if (err)
		return err;
	return mmchal_host_init_card(ops, host, MMCHAL_CARD_SD);
}

/* Read or write @p count sectors at @p lba: CMD23 + CMD18/25 when the host
   can, else CMD18/25 + CMD12; retried on a bus error. */
static int blk_rw(struct blk *b, bool write, uint32_t lba, uint32_t count, void *buf)
{
	struct mmchal_sg sg = {.cpu = buf, .phys = (uintptr_t)buf, .len = count * BLK_SIZE};
	int err = MMCHAL_EIO;

	for (uint32_t t = 0; t < BLK_TRIES && err == MMCHAL_EIO; t++) {
		struct mmchal_cmd sbc = {.opcode = 23, .arg = count, .flags = MMCHAL_RSP_R1};
		struct mmchal_cmd stop = {.opcode = 12, .flags = MMCHAL_RSP_R1B};
		struct mmchal_cmd cmd = {.flags = MMCHAL_RSP_R1};
		struct mmchal_data data = {
			.blksz = BLK_SIZE, .blocks = count, .sg = &sg, .sg_len = 1};
		struct mmchal_request r = {.cmd = &cmd, .data = &data};

		cmd.opcode = write ? (count > 1u ? 25u : 24u) : (count > 1u ? 18u : 17u);
		cmd.arg = b->high_capacity ? lba : lba * BLK_SIZE;
		data.dir = write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
		/* With CMD23 the host core sends CMD12 only after a failed data phase. */
		if (count > 1u && b->cmd23)
			r.sbc = &sbc;
		if (count > 1u)
			r.stop = &stop;
		err = b->ops->request_sync(b->host, &r, 1000);
		if (cmd.resp[0] & R1_OUT_OF_RANGE)
			return MMCHAL_ERANGE;
		if (!err && (cmd.resp[0] & R1_ERRORS))
			err = MMCHAL_EIO;
	}
	return err;
}

/* ===================================================== the test bench */

#define IMAGE_SIZE (512u * 1024u)

static uint8_t image[IMAGE_SIZE];
static uint8_t buf[16 * BLK_SIZE];
static struct mmchal_mock_log_entry log_ring[64];
static struct mmchal_mock mock;
static struct mmchal_backend backend;
static struct mmchal_host host;
static struct blk dev;
static uint64_t clock_ns;

/* A polled port: a virtual clock that the host's waits advance. */
static uint64_t bench_now(void *ctx)
{
	(void)ctx;
	return clock_ns += 1000u;
}

static void bench_delay(void *ctx, uint32_t us)
{
	(void)ctx;
	clock_ns += (uint64_t)us * 1000u;
}

static const struct mmchal_port_ops bench_port_ops = {
	.now_ns = bench_now,
	.delay_us = bench_delay,
};

/* For an interrupt-driven host: a lock (single-threaded here, so it only
   counts) that the host core takes around its state changes. */
static int lock_depth;

static mmchal_irqflags_t bench_lock(void *ctx)
{
	(void)ctx;
	lock_depth++;
	return 0;
}

static void bench_unlock(void *ctx, mmchal_irqflags_t flags)
{
	(void)ctx;
	(void)flags;
	lock_depth--;
}

static const struct mmchal_port_ops bench_irq_port_ops = {
	.lock_irqsave = bench_lock,
	.unlock_irqrestore = bench_unlock,
	.now_ns = bench_now,
	.delay_us = bench_delay,
};

/* A mock SD card (SDHC, 512 KiB) behind a host; @p adjust may change the mock's config. */
static void bench_up(void (*adjust)(struct mmchal_mock_cfg *cfg))
{
	struct mmchal_mock_cfg mcfg;
	struct mmchal_host_cfg hcfg;
	struct mmchal_port port = {.ops = &bench_port_ops};

	for (uint32_t i = 0; i < IMAGE_SIZE; i++)
		image[i] = (uint8_t)(i ^ (i >> 9));
	memset(&mcfg, 0, sizeof(mcfg));
	mcfg.card = MMCHAL_MOCK_SDHC;
	mcfg.image = image;
	mcfg.image_size = IMAGE_SIZE;
	mcfg.log = log_ring;
	mcfg.log_len = 64;
	mcfg.host.completion = MMCHAL_COMPLETES_POLLED;
	mcfg.host.bus = MMCHAL_BUS_CMD23;
	if (adjust)
		adjust(&mcfg);
	if (mcfg.host.completion == MMCHAL_COMPLETES_IN_IRQ)
		port.ops = &bench_irq_port_ops;
	assert_int_equal(mmchal_mock_init(&mock, &mcfg), 0);
	assert_int_equal(mmchal_mock_backend(&mock, &backend), 0);

	memset(&hcfg, 0, sizeof(hcfg));
	hcfg.backend = &backend;
	hcfg.port = &port;
	assert_int_equal(mmchal_host_init(&host, &hcfg), 0);
	assert_int_equal(blk_open(&dev, &mmchal_host_core_ops, &host), 0);
}

static void bench_down(void)
{
	mmchal_host_deinit(&host);
}

/* Writes land in the card's image; reads return it; the commands are the expected ones. */
static void test_round_trip(void **state)
{
	const struct mmchal_mock_log_entry *e;
	uint32_t n;

	(void)state;
	bench_up(NULL);
	assert_true(dev.high_capacity);
	assert_int_equal(dev.rca, 0x1234);
	for (uint32_t i = 0; i < 8 * BLK_SIZE; i++)
		buf[i] = (uint8_t)(0x3c + i);
	assert_int_equal(blk_rw(&dev, true, 100, 8, buf), 0);
	assert_memory_equal(image + 100 * BLK_SIZE, buf, 8 * BLK_SIZE);

	/* The stack sent CMD23(8) and CMD25(100) with 8 blocks, nothing else. */
	n = mmchal_mock_log_count(&mock);
	e = mmchal_mock_log_get(&mock, n - 2);
	assert_int_equal(e->opcode, 23);
	assert_int_equal(e->arg, 8);
	e = mmchal_mock_log_get(&mock, n - 1);
	assert_int_equal(e->opcode, 25);
	assert_int_equal(e->arg, 100);
	assert_int_equal(e->blocks, 8);
	assert_int_equal(e->plan, MMCHAL_PLAN_PIO);
	assert_int_equal(e->data_error, 0);

	memset(buf, 0, sizeof(buf));
	assert_int_equal(blk_rw(&dev, false, 100, 8, buf), 0);
	assert_memory_equal(buf, image + 100 * BLK_SIZE, 8 * BLK_SIZE);
	assert_int_equal(blk_rw(&dev, false, 7, 1, buf), 0);
	assert_memory_equal(buf, image + 7 * BLK_SIZE, BLK_SIZE);
	assert_int_equal(mmchal_mock_log_last(&mock)->opcode, 17);
	bench_down();
}

/* One CRC error on the third block: the stack retries once and succeeds. */
static void test_retry_on_crc(void **state)
{
	struct mmchal_host_stats st;
	uint32_t before;

	(void)state;
	bench_up(NULL);
	assert_int_equal(mmchal_mock_fail_data(&mock, MMCHAL_MOCK_DATA_CRC, 2, 1), 0);
	before = (uint32_t)mmchal_mock_stats(&mock)->commands;
	assert_int_equal(blk_rw(&dev, false, 40, 4, buf), 0);
	assert_memory_equal(buf, image + 40 * BLK_SIZE, 4 * BLK_SIZE);
	/* CMD23 + CMD18 (CRC error) + CMD12, then CMD23 + CMD18. */
	assert_int_equal(mmchal_mock_stats(&mock)->commands - before, 5);
	assert_int_equal(mmchal_mock_log_get(&mock, mmchal_mock_log_count(&mock) - 4)->data_error,
			 MMCHAL_EIO);
	assert_int_equal(mmchal_mock_log_get(&mock, mmchal_mock_log_count(&mock) - 3)->opcode, 12);
	assert_int_equal(mmchal_host_stats(&host, &st), 0);
	assert_int_equal(st.errors[-MMCHAL_EIO], 1);

	/* A card that always fails: the stack gives up after BLK_TRIES. */
	assert_int_equal(mmchal_mock_fail_data(&mock, MMCHAL_MOCK_DATA_CRC, 0, 0), 0);
	before = (uint32_t)mmchal_mock_stats(&mock)->commands;
	assert_int_equal(blk_rw(&dev, true, 40, 4, buf), MMCHAL_EIO);
	assert_int_equal(mmchal_mock_stats(&mock)->commands - before, 3 * BLK_TRIES);
	bench_down();
}

/* A removed card: MMCHAL_ENOMEDIUM, card detect says so. */
static void test_removed_card(void **state)
{
	(void)state;
	bench_up(NULL);
	mmchal_mock_set_present(&mock, false);
	assert_int_equal(mmchal_host_get_cd(&mmchal_host_core_ops, &host), 0);
	assert_int_equal(blk_rw(&dev, false, 0, 1, buf), MMCHAL_ENOMEDIUM);
	bench_down();
}

/* Beyond the end of the card: the stack reports MMCHAL_ERANGE. */
static void test_out_of_range(void **state)
{
	(void)state;
	bench_up(NULL);
	assert_int_equal(blk_rw(&dev, false, IMAGE_SIZE / BLK_SIZE, 1, buf), MMCHAL_ERANGE);
	assert_int_equal(blk_rw(&dev, false, 0, 1, buf), 0);
	bench_down();
}

/* A slow card (busy ACMD41 answers, completions after several polls) and a
   host without CMD23 (the stack falls back to CMD12). */
static void slow(struct mmchal_mock_cfg *cfg)
{
	cfg->op_cond_polls = 5;
	cfg->cmd_latency = 3;
	cfg->data_latency = 4;
	cfg->host.bus = 0;
}

static void test_slow_card_without_cmd23(void **state)
{
	(void)state;
	bench_up(slow);
	assert_int_equal(blk_rw(&dev, false, 3, 2, buf), 0);
	assert_memory_equal(buf, image + 3 * BLK_SIZE, 2 * BLK_SIZE);
	assert_int_equal(mmchal_mock_log_last(&mock)->opcode, 12);
	assert_int_equal(mmchal_mock_log_get(&mock, mmchal_mock_log_count(&mock) - 2)->opcode, 18);
	bench_down();
}

/* A DMA host (one segment per transfer, coherent): the same stack, the DIRECT plan. */
static void dma(struct mmchal_mock_cfg *cfg)
{
	cfg->dma.kind = MMCHAL_DMA_INTERNAL;
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		cfg->dma.dir[d].max_segs = 1;
		cfg->dma.dir[d].max_seg_size = 65536;
		cfg->dma.dir[d].coherent = true;
	}
}

static void test_dma_host(void **state)
{
	(void)state;
	bench_up(dma);
	for (uint32_t i = 0; i < 4 * BLK_SIZE; i++)
		buf[i] = (uint8_t)(0x91 ^ i);
	assert_int_equal(blk_rw(&dev, true, 200, 4, buf), 0);
	assert_int_equal(mmchal_mock_log_last(&mock)->plan, MMCHAL_PLAN_DIRECT);
	assert_memory_equal(image + 200 * BLK_SIZE, buf, 4 * BLK_SIZE);
	bench_down();
}

/* An interrupt-driven host: the request completes when "the interrupt" comes,
   i.e. when the test triggers the mock and calls mmchal_host_irq(). */
static void in_irq(struct mmchal_mock_cfg *cfg)
{
	cfg->host.completion = MMCHAL_COMPLETES_IN_IRQ;
}

static unsigned done_calls;

static void on_done(struct mmchal_request *req)
{
	(void)req;
	done_calls++;
}

static void test_interrupt_driven(void **state)
{
	struct mmchal_sg sg = {.cpu = buf, .phys = (uintptr_t)buf, .len = 2 * BLK_SIZE};
	struct mmchal_cmd sbc = {.opcode = 23, .arg = 2, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd cmd = {.opcode = 18, .arg = 9, .flags = MMCHAL_RSP_R1};
	struct mmchal_data data = {.dir = MMCHAL_DIR_FROM_CARD,
				   .blksz = BLK_SIZE,
				   .blocks = 2,
				   .sg = &sg,
				   .sg_len = 1};
	struct mmchal_request req = {.sbc = &sbc, .cmd = &cmd, .data = &data, .done = on_done};
	int irqs = 0;

	(void)state;
	bench_up(in_irq);
	done_calls = 0;
	memset(buf, 0, 2 * BLK_SIZE);
	mmchal_mock_set_latency(&mock, 0, 0, 0, true); /* nothing happens by itself */
	assert_int_equal(mmchal_host_request(&host, &req), 0);
	assert_int_equal(mmchal_host_irq(&host), 0); /* a spurious interrupt */
	assert_int_equal(done_calls, 0);
	/* Each trigger is one interrupt: CMD23, CMD18, its data. */
	while (done_calls == 0 && irqs < 10) {
		mmchal_mock_trigger(&mock);
		assert_true(mmchal_mock_irq_pending(&mock));
		mmchal_host_irq(&host);
		irqs++;
	}
	assert_int_equal(irqs, 3);
	assert_int_equal(done_calls, 1);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(data.error, 0);
	assert_int_equal(data.bytes_xfered, 2 * BLK_SIZE);
	assert_memory_equal(buf, image + 9 * BLK_SIZE, 2 * BLK_SIZE);
	assert_int_equal(lock_depth, 0);
	bench_down();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_retry_on_crc),
		cmocka_unit_test(test_removed_card),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_slow_card_without_cmd23),
		cmocka_unit_test(test_dma_host),
		cmocka_unit_test(test_interrupt_driven),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
