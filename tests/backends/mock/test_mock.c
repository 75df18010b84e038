/*
 * Tests of the mock controller (src/backends/mock/mock.c, mock_data.c):
 * configuration checks, the PIO data path byte for byte, latencies and the
 * trigger, every fault switch, presence, busy, write protect, the request
 * log, the slot ops. The DMA data paths and rules are in test_mock_dma.c.
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
#include "mock_xfer.h"

static uint8_t guard[8 * 512 + 64];

/* Start CMD12 with an R1b response and no data in @p x; the events are left
   to the caller, who sees the busy phase through handle_irq. */
static void start_stop(struct mmchal_xfer *x, struct mmchal_cmd *c)
{
	memset(x, 0, sizeof(*x));
	memset(c, 0, sizeof(*c));
	c->opcode = 12;
	c->flags = MMCHAL_RSP_R1B;
	x->cmd = c;
	assert_int_equal(mh_ops->start(&mh, x), 0);
}

/* ------------------------------------------------------------------ init */

static void test_init_checks(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_backend be;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	assert_int_equal(mmchal_mock_init(NULL, &cfg), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_init(&mh, NULL), MMCHAL_EINVAL);
	cfg.card = (enum mmchal_mock_card)4;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.card = MMCHAL_MOCK_SDHC;
	cfg.image_size = 256u * 1024u; /* not a CSD v2 capacity */
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.image_size = MH_IMAGE_SIZE;
	cfg.image = NULL;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.image = mh_image;
	cfg.log_len = 0;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.log_len = MH_LOG_LEN;
	cfg.dma = dma_caps(0);
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.dma = dma_caps(1);
	cfg.dma.dir[MMCHAL_DIR_TO_CARD].addr_align = 3;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.dma = dma_caps(1);
	cfg.illegal_error = 1;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.illegal_error = 0;
	cfg.card = MMCHAL_MOCK_SDSC;
	cfg.image_size = 1000;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.card = MMCHAL_MOCK_EMMC;
	cfg.image_size = 1000;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.card = MMCHAL_MOCK_SDIO;
	cfg.sdio_functions = 8;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.sdio_functions = 2;
	cfg.image = NULL;
	cfg.image_size = 0;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), 0);

	assert_int_equal(mmchal_mock_backend(&mh, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_backend(&mh, &be), 0);
	assert_ptr_equal(be.ops, &mmchal_mock_ops);
	assert_ptr_equal(be.ctx, &mh);
	assert_int_equal(mmchal_backend_check(&be), 0);
	assert_non_null(be.ops->card_busy);
	assert_non_null(be.ops->get_cd);
	assert_non_null(be.ops->get_ro);
	assert_non_null(be.ops->hw_reset);
	assert_non_null(be.ops->execute_tuning);
	assert_non_null(be.ops->blocks_done);
	assert_non_null(be.ops->enable_sdio_irq);
	assert_string_equal(be.ops->name, "mock");
}

static void test_caps(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_host_caps h;
	struct mmchal_dma_caps d;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.host.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_CMD23;
	cfg.host.max_blk_count = 77;
	cfg.host.completion = MMCHAL_COMPLETES_POLLED;
	cfg.dma = dma_caps(3);
	cfg.dma.dir[MMCHAL_DIR_FROM_CARD].addr_align = 8;
	mh_init(&cfg);
	assert_int_equal(mh_ops->probe(&mh), 0);
	assert_int_equal(mh_ops->get_caps(&mh, &h, NULL), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->get_caps(&mh, &h, &d), 0);
	assert_int_equal(h.bus, MMCHAL_BUS_4_BIT | MMCHAL_BUS_CMD23);
	assert_int_equal(h.max_blk_count, 77);
	assert_int_equal(h.completion, MMCHAL_COMPLETES_POLLED);
	assert_int_equal(d.kind, MMCHAL_DMA_INTERNAL);
	assert_int_equal(d.dir[MMCHAL_DIR_FROM_CARD].max_segs, 3);
	assert_int_equal(d.dir[MMCHAL_DIR_FROM_CARD].addr_align, 8);
}

/* ------------------------------------------------------------------ data paths */

/* PIO over three buffers of odd sizes; nothing outside them is written. */
static void test_pio_scatter(void **state)
{
	struct mmchal_xfer x;
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	sd_default();
	memset(guard, 0xee, sizeof(guard));
	sg[0].cpu = guard + 16;
	sg[0].len = 100;
	sg[1].cpu = guard + 200;
	sg[1].len = 700;
	sg[2].cpu = guard + 1000;
	sg[2].len = 736; /* 3 * 512 = 100 + 700 + 736 */
	dma_xfer(&x, &c, &d, 18, 20, MMCHAL_DIR_FROM_CARD, 3, MMCHAL_PLAN_PIO, 3);
	x.segs = NULL;
	x.nsegs = 0;
	x.auto_stop = true;
	assert_int_equal(mh_run(&x), ALL_DONE);
	assert_memory_equal(guard + 16, mh_image + 20 * 512, 100);
	assert_memory_equal(guard + 200, mh_image + 20 * 512 + 100, 700);
	assert_memory_equal(guard + 1000, mh_image + 20 * 512 + 800, 736);
	for (uint32_t i = 0; i < sizeof(guard); i++) {
		if ((i >= 16 && i < 116) || (i >= 200 && i < 900) || (i >= 1000 && i < 1736))
			continue;
		assert_int_equal(guard[i], 0xee);
	}
	/* auto_stop: the controller's CMD12 put the card back in tran. */
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_true(mmchal_mock_log_last(&mh)->auto_stop);

	/* The same list, written. */
	memset(guard + 16, 0x11, 100);
	memset(guard + 200, 0x22, 700);
	memset(guard + 1000, 0x33, 736);
	dma_xfer(&x, &c, &d, 25, 40, MMCHAL_DIR_TO_CARD, 3, MMCHAL_PLAN_PIO, 3);
	x.auto_stop = true;
	assert_int_equal(mh_run(&x), ALL_DONE);
	assert_int_equal(mh_image[40 * 512], 0x11);
	assert_int_equal(mh_image[40 * 512 + 99], 0x11);
	assert_int_equal(mh_image[40 * 512 + 100], 0x22);
	assert_int_equal(mh_image[40 * 512 + 799], 0x22);
	assert_int_equal(mh_image[40 * 512 + 800], 0x33);
	assert_int_equal(mh_image[43 * 512 - 1], 0x33);
	assert_int_equal(mh_image[43 * 512], mh_pattern(43 * 512));
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
}

/* Reads a register-sized reply (@p len bytes of command @p op) into one
   buffer, then split at @p split into two: the same bytes. */
static void read_split(uint32_t op, uint32_t arg, uint32_t len, uint32_t split)
{
	struct mmchal_xfer x;
	struct mmchal_cmd c;
	struct mmchal_data d;

	memset(buf, 0, sizeof(buf));
	sg[0].cpu = buf;
	sg[0].len = len;
	dma_xfer(&x, &c, &d, op, arg, MMCHAL_DIR_FROM_CARD, 1, MMCHAL_PLAN_PIO, 1);
	d.blksz = len;
	assert_int_equal(mh_run(&x), ALL_DONE);
	memset(guard, 0xee, sizeof(guard));
	sg[0].cpu = guard;
	sg[0].len = split;
	sg[1].cpu = guard + 1024;
	sg[1].len = len - split;
	dma_xfer(&x, &c, &d, op, arg, MMCHAL_DIR_FROM_CARD, 1, MMCHAL_PLAN_PIO, 2);
	d.blksz = len;
	assert_int_equal(mh_run(&x), ALL_DONE);
	assert_memory_equal(guard, buf, split);
	assert_memory_equal(guard + 1024, buf + split, len - split);
	assert_int_equal(guard[split], 0xee);
}

/* The CMD6 status and EXT_CSD over two buffers: the second gets the bytes
   after the split, not those at the start. */
static void test_pio_scatter_registers(void **state)
{
	struct mmchal_mock_cfg cfg;

	(void)state;
	sd_default();
	read_split(6, 0x00fffff1u, 64, 12);
	assert_int_equal(buf[1], 100);
	assert_int_equal(buf[13], 0x03);
	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	mh_mmc_to_tran();
	read_split(8, 0, 512, 200);
	assert_memory_equal(buf, mh.ext_csd, 512);
}

/* ------------------------------------------------------------------ latency */

static void test_latency(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;
	struct mmchal_xfer x;
	uint32_t ev;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	sd_tran(&cfg);
	mmchal_mock_set_latency(&mh, 2, 1, 0, false);
	sg[0].cpu = buf;
	sg[0].len = 512;
	dma_xfer(&x, &c, &d, 17, 1, MMCHAL_DIR_FROM_CARD, 1, MMCHAL_PLAN_PIO, 1);
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	for (int i = 0; i < 2; i++) {
		assert_false(mmchal_mock_irq_pending(&mh));
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		assert_int_equal(ev, 0);
	}
	assert_true(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(4) | MMCHAL_MOCK_R1_READY_FOR_DATA);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_DATA_DONE);
	assert_false(mmchal_mock_busy(&mh));
	assert_memory_equal(buf, mh_image + 512, 512);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);

	/* Manual: nothing without a trigger; one trigger, one phase. */
	mmchal_mock_set_latency(&mh, 0, 0, 0, true);
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		assert_int_equal(ev, 0);
	}
	mmchal_mock_trigger(&mh);
	assert_true(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, CMD_DONE);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
	mmchal_mock_trigger(&mh);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_DATA_DONE);
	/* A trigger before the start completes the next transfer's first phase. */
	mmchal_mock_trigger(&mh);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(4) | MMCHAL_MOCK_R1_READY_FOR_DATA);
}

/* ------------------------------------------------------------------ faults */

static void test_fail_cmd(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	sd_default();
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 64, MMCHAL_EIO, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 17, 5, 1), MMCHAL_EINVAL);
	/* Timeout: the card never saw it. */
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 17, MMCHAL_ETIMEDOUT, 1), 0);
	assert_int_equal(mh_pio(17, 0, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d),
			 MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(mmchal_mock_log_last(&mh)->cmd_error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh_pio(17, 0, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	/* Response CRC: the card executed it (it now waits for CMD12). */
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 18, MMCHAL_EIO, 1), 0);
	assert_int_equal(mh_pio(18, 0, MMCHAL_DIR_FROM_CARD, 512, 2, buf, &c, &d),
			 MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EIO);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DATA);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	/* Every command, until cleared. */
	assert_int_equal(mmchal_mock_fail_cmd(&mh, MMCHAL_MOCK_ANY_CMD, MMCHAL_ETIMEDOUT, 0), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
		assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	}
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 0, 0, 0), 0);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	/* An application command only as such: CMD6 passes, ACMD6 fails. */
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 6 | MMCHAL_MOCK_ACMD, MMCHAL_EILSEQ, 1), 0);
	assert_int_equal(mh_pio(6, 0x00fffff1, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(6, 2, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	assert_int_equal(mh.width, 1);
}

/* CRC at block K, data timeout, short transfer, DMA fault: K blocks moved. */
static void test_fail_data(void **state)
{
	static const struct {
		enum mmchal_mock_data_fault f;
		int err;
	} rows[] = {
		{MMCHAL_MOCK_DATA_CRC, MMCHAL_EIO},
		{MMCHAL_MOCK_DATA_TIMEOUT, MMCHAL_ETIMEDOUT},
		{MMCHAL_MOCK_DATA_DMA, MMCHAL_EFAULT},
		{MMCHAL_MOCK_DATA_SHORT, 0},
	};
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	assert_int_equal(mmchal_mock_fail_data(&mh, (enum mmchal_mock_data_fault)9, 0, 0),
			 MMCHAL_EINVAL);
	for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		uint32_t n = 0;

		sd_default();
		assert_int_equal(mmchal_mock_fail_data(&mh, rows[r].f, 2, 1), 0);
		/* A transfer that does not reach block 2 is not hit and does not count. */
		assert_int_equal(mh_pio(17, 0, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d),
				 ALL_DONE);
		memset(buf, 0xc3, sizeof(buf));
		assert_int_equal(mh_pio(25, 30, MMCHAL_DIR_TO_CARD, 512, 4, buf, &c, &d),
				 rows[r].err ? DATA_ERR : ALL_DONE);
		assert_int_equal(d.error, rows[r].err);
		assert_int_equal(mh_ops->blocks_done(&mh, &n), 0);
		assert_int_equal(n, 2);
		assert_int_equal(mh_image[30 * 512], 0xc3);
		assert_int_equal(mh_image[32 * 512 - 1], 0xc3);
		assert_int_equal(mh_image[32 * 512], mh_pattern(32 * 512));
		assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
		assert_int_equal(
			mmchal_mock_log_get(&mh, mmchal_mock_log_count(&mh) - 2)->blocks_done, 2);
		/* ACMD22: two blocks written well. */
		assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
		assert_int_equal(mh_pio(22, 0, MMCHAL_DIR_FROM_CARD, 4, 1, buf, &c, &d), ALL_DONE);
		assert_int_equal(buf[3], 2);
		/* Count 1: the next transfer succeeds. */
		assert_int_equal(mh_pio(18, 30, MMCHAL_DIR_FROM_CARD, 512, 4, buf, &c, &d),
				 ALL_DONE);
		assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	}
}

/* Removal: ENOMEDIUM for the phase in flight and every later command, card
   change reported once each way; insertion gives a fresh card. */
static void test_removal(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;
	struct mmchal_xfer x;
	uint32_t ev;

	(void)state;
	sd_default();
	assert_int_equal(mh_ops->get_cd(&mh), 1);
	mmchal_mock_set_latency(&mh, 0, 0, 0, true);
	sg[0].cpu = buf;
	sg[0].len = 1024;
	dma_xfer(&x, &c, &d, 18, 0, MMCHAL_DIR_FROM_CARD, 2, MMCHAL_PLAN_PIO, 1);
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	mmchal_mock_trigger(&mh);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, CMD_DONE);
	mmchal_mock_set_present(&mh, false);
	assert_int_equal(mh_ops->get_cd(&mh), 0);
	assert_true(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CARD_CHANGE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_ENOMEDIUM);
	assert_false(mmchal_mock_busy(&mh));
	mmchal_mock_set_latency(&mh, 0, 0, 0, false);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_mock_log_last(&mh)->state, MMCHAL_MOCK_ST_OFF);
	assert_int_equal(mh_ops->card_busy(&mh), 0);
	mmchal_mock_set_present(&mh, true);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CARD_CHANGE);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
	mh_sd_to_tran();
	assert_int_equal(mh_pio(17, 0, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_memory_equal(buf, mh_image, 512);
}

/* Busy after a write and after R1b commands; stuck busy; hardware busy detect. */
static void test_busy(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.busy_latency = 3;
	sd_tran(&cfg);
	assert_int_equal(mh_pio(24, 0, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_PRG);
	/* A read while programming is illegal. */
	assert_int_equal(mh_pio(17, 0, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d),
			 MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_ops->card_busy(&mh), 1);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(7) | MMCHAL_MOCK_R1_ILLEGAL_COMMAND);
	assert_int_equal(mh_ops->card_busy(&mh), 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(4) | MMCHAL_MOCK_R1_READY_FOR_DATA);

	/* Stuck: busy for ever, until cleared. */
	mmchal_mock_set_busy_stuck(&mh, true);
	assert_int_equal(mh_pio(24, 0, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(mh_ops->card_busy(&mh), 1);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_PRG);
	mmchal_mock_set_busy_stuck(&mh, false);
	for (int i = 0; i < 3; i++)
		assert_int_equal(mh_ops->card_busy(&mh), 1);
	assert_int_equal(mh_ops->card_busy(&mh), 0);

	/* With MMCHAL_BUS_HW_BUSY an R1b command ends with MMCHAL_EV_BUSY_DONE. */
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.busy_latency = 2;
	cfg.host.bus = MMCHAL_BUS_HW_BUSY;
	sd_tran(&cfg);
	assert_int_equal(mh_pio(25, 0, MMCHAL_DIR_TO_CARD, 512, 2, buf, &c, &d), ALL_DONE);
	{
		struct mmchal_xfer x;
		uint32_t ev;

		start_stop(&x, &c);
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		/* busy_latency 2: this call and the next see busy. */
		assert_int_equal(ev, CMD_DONE);
		/* the log has the response while the card is still busy */
		assert_int_equal(mmchal_mock_log_last(&mh)->opcode, 12);
		assert_int_equal(mmchal_mock_log_last(&mh)->events, CMD_DONE);
		assert_int_equal(mmchal_mock_log_last(&mh)->resp[0], c.resp[0]);
		assert_int_not_equal(c.resp[0], 0);
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		assert_int_equal(ev, 0);
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		assert_int_equal(ev, MMCHAL_EV_BUSY_DONE);
		assert_false(mmchal_mock_busy(&mh));
		/* Stuck: no BUSY_DONE; abort frees the controller. */
		mmchal_mock_set_busy_stuck(&mh, true);
		assert_int_equal(mh_pio(25, 0, MMCHAL_DIR_TO_CARD, 512, 2, buf, &c, &d), ALL_DONE);
		start_stop(&x, &c);
		mmchal_mock_trigger(&mh);
		for (int i = 0; i < 100; i++) {
			assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
			assert_int_equal(ev & MMCHAL_EV_BUSY_DONE, 0);
		}
		assert_int_equal(mh_ops->abort(&mh), 0);
		assert_false(mmchal_mock_busy(&mh));
		assert_int_equal(mmchal_mock_stats(&mh)->aborts, 1);
	}
}

static void test_write_protect(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	sd_default();
	assert_int_equal(mh_ops->get_ro(&mh), 0);
	mmchal_mock_set_write_protect(&mh, true);
	assert_int_equal(mh_ops->get_ro(&mh), 1);
	memset(buf, 0, 512);
	assert_int_equal(mh_pio(24, 3, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), DATA_ERR);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(4) | MMCHAL_MOCK_R1_READY_FOR_DATA |
					    MMCHAL_MOCK_R1_WP_VIOLATION);
	assert_int_equal(d.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh_image[3 * 512], mh_pattern(3 * 512));
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(mh_cmd(32, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(33, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_true(c.resp[0] & MMCHAL_MOCK_R1_WP_ERASE_SKIP);
	assert_int_equal(mh_image[0], mh_pattern(0));
	/* TMP_WRITE_PROTECT in the CSD. */
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(9, MH_RCA << 16, MMCHAL_RSP_R2, &c), CMD_DONE);
	assert_int_equal((c.resp[3] >> 12) & 1u, 1);
	mmchal_mock_set_write_protect(&mh, false);
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mh_pio(24, 3, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh_image[3 * 512], 0);
}

static void test_fail_op(void **state)
{
	struct mmchal_host_caps h;
	struct mmchal_dma_caps dm;
	struct mmchal_ios ios = {400000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY, MMCHAL_POWER_ON,
				 MMCHAL_SIGNAL_330};
	struct mmchal_cmd c;
	uint32_t ev = 7;

	(void)state;
	sd_default();
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_COUNT, MMCHAL_EIO, 0),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_PROBE, MMCHAL_EIO, 2), 0);
	assert_int_equal(mh_ops->probe(&mh), MMCHAL_EIO);
	assert_int_equal(mh_ops->probe(&mh), MMCHAL_EIO);
	assert_int_equal(mh_ops->probe(&mh), 0);
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_GET_CAPS, MMCHAL_ENOTSUP, 1), 0);
	assert_int_equal(mh_ops->get_caps(&mh, &h, &dm), MMCHAL_ENOTSUP);
	assert_int_equal(mh_ops->get_caps(&mh, &h, &dm), 0);
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_SET_IOS, MMCHAL_EIO, 1), 0);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EIO);
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_START, MMCHAL_EBUSY, 1), 0);
	{
		struct mmchal_xfer x;

		memset(&x, 0, sizeof(x));
		memset(&c, 0, sizeof(c));
		c.opcode = 13;
		c.arg = MH_RCA << 16;
		c.flags = MMCHAL_RSP_R1;
		x.cmd = &c;
		assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EBUSY);
		assert_false(mmchal_mock_busy(&mh));
		assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_HANDLE_IRQ, MMCHAL_EIO, 1),
				 0);
		assert_int_equal(mh_ops->start(&mh, &x), 0);
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), MMCHAL_EIO);
		assert_int_equal(ev, 0);
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		assert_int_equal(ev, CMD_DONE);
		assert_int_equal(
			mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_ABORT, MMCHAL_ETIMEDOUT, 1), 0);
		assert_int_equal(mh_ops->start(&mh, &x), 0);
		assert_int_equal(mh_ops->abort(&mh), MMCHAL_ETIMEDOUT);
		assert_false(mmchal_mock_busy(&mh));
		assert_int_equal(mmchal_mock_log_last(&mh)->cmd_error, MMCHAL_ECANCELED);
	}
	mmchal_mock_clear_faults(&mh);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mh_ops->handle_irq(NULL, &ev), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->handle_irq(&mh, NULL), MMCHAL_EINVAL);
}

/* ------------------------------------------------------------------ log */

static void test_log(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_mock_log_entry ring[4];
	const struct mmchal_mock_log_entry *e;
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.log = ring;
	cfg.log_len = 4;
	mh_init(&cfg);
	assert_int_equal(mmchal_mock_log_count(&mh), 0);
	assert_null(mmchal_mock_log_last(&mh));
	mh_sd_to_tran(); /* 7 commands: 0 8 55 41 2 3 7 */
	assert_int_equal(mmchal_mock_log_count(&mh), 4);
	e = mmchal_mock_log_get(&mh, 0);
	assert_int_equal(e->seq, 3);
	assert_int_equal(e->opcode, 41 | MMCHAL_MOCK_ACMD);
	assert_int_equal(e->state, MMCHAL_MOCK_ST_IDLE);
	assert_int_equal(e->resp[0], 0xc0ff8000);
	e = mmchal_mock_log_get(&mh, 1);
	assert_int_equal(e->opcode, 2);
	assert_int_equal(e->state, MMCHAL_MOCK_ST_READY);
	assert_int_equal(e->resp[0], 0x4d4d4b4d);
	e = mmchal_mock_log_get(&mh, 2);
	assert_int_equal(e->opcode, 3);
	assert_int_equal(e->flags, MMCHAL_RSP_R6);
	assert_int_equal(e->events, CMD_DONE);
	assert_null(mmchal_mock_log_get(&mh, 4));
	assert_int_equal(mh_pio(18, 9, MMCHAL_DIR_FROM_CARD, 512, 2, buf, &c, &d), ALL_DONE);
	e = mmchal_mock_log_last(&mh);
	assert_int_equal(e->seq, 7);
	assert_int_equal(e->opcode, 18);
	assert_int_equal(e->arg, 9);
	assert_int_equal(e->flags, MMCHAL_RSP_R1);
	assert_int_equal(e->state, MMCHAL_MOCK_ST_TRAN);
	assert_true(e->has_data);
	assert_int_equal(e->dir, MMCHAL_DIR_FROM_CARD);
	assert_int_equal(e->blksz, 512);
	assert_int_equal(e->blocks, 2);
	assert_int_equal(e->plan, MMCHAL_PLAN_PIO);
	assert_int_equal(e->sg_len, 1);
	assert_int_equal(e->nsegs, 0);
	assert_int_equal(e->blocks_done, 2);
	assert_int_equal(e->cmd_error, 0);
	assert_int_equal(e->data_error, 0);
	assert_int_equal(e->events, ALL_DONE);
	assert_int_equal(mmchal_mock_stats(&mh)->commands, 8);
	mmchal_mock_log_clear(&mh);
	assert_int_equal(mmchal_mock_log_count(&mh), 0);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mmchal_mock_log_last(&mh)->seq, 8);

	/* No ring: counters only. */
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.log = NULL;
	mh_init(&cfg);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mmchal_mock_log_count(&mh), 0);
	assert_int_equal(mmchal_mock_stats(&mh)->commands, 1);
}

/* ------------------------------------------------------------------ slot ops */

static void test_set_ios(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_ios ios = {400000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY, MMCHAL_POWER_ON,
				 MMCHAL_SIGNAL_330};
	struct mmchal_mock_status st;
	struct mmchal_cmd c;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.host.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_SD_HS;
	cfg.host.f_min_hz = 100000;
	cfg.host.f_max_hz = 50000000;
	sd_tran(&cfg);
	assert_int_equal(mh_ops->set_ios(&mh, NULL), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	ios.bus_width = MMCHAL_BUS_WIDTH_8;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EINVAL);
	ios.bus_width = (enum mmchal_bus_width)2;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EINVAL);
	ios.bus_width = MMCHAL_BUS_WIDTH_4;
	ios.timing = MMCHAL_TIMING_MMC_HS200;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EINVAL);
	ios.timing = MMCHAL_TIMING_SD_HS;
	ios.signal_voltage = MMCHAL_SIGNAL_180;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EINVAL);
	ios.signal_voltage = MMCHAL_SIGNAL_330;
	ios.clock_hz = 50000001;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EINVAL);
	ios.clock_hz = 99999;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EINVAL);
	ios.clock_hz = 50000000;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.ios.clock_hz, 50000000);
	assert_int_equal(st.ios.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(st.state, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(st.rca, MH_RCA);
	assert_true(st.ccs);
	assert_true(st.present);
	/* Power off: the card loses its state and answers nothing. */
	ios.power_mode = MMCHAL_POWER_OFF;
	ios.clock_hz = 0;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	ios.power_mode = MMCHAL_POWER_ON;
	ios.bus_width = MMCHAL_BUS_WIDTH_1;
	ios.timing = MMCHAL_TIMING_LEGACY;
	ios.clock_hz = 400000;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
	assert_int_equal(mmchal_mock_stats(&mh)->set_ios, 4);
}

static void test_optional_ops(void **state)
{
	struct mmchal_mock_cfg cfg;

	(void)state;
	sd_default();
	assert_int_equal(mh_ops->hw_reset(&mh), MMCHAL_ENOTSUP);
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, true), MMCHAL_ENOTSUP);
	assert_int_equal(mh_ops->execute_tuning(&mh, 21), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->execute_tuning(&mh, 19), 0);
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_TUNING, MMCHAL_EIO, 1), 0);
	assert_int_equal(mh_ops->execute_tuning(&mh, 19), MMCHAL_EIO);
	assert_int_equal(mmchal_mock_stats(&mh)->tunings, 1);
	assert_int_equal(mh_ops->blocks_done(&mh, NULL), MMCHAL_EINVAL);

	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.host.bus = MMCHAL_BUS_BROKEN_CD | MMCHAL_BUS_HW_RESET;
	mh_init(&cfg);
	assert_int_equal(mh_ops->get_cd(&mh), MMCHAL_ENOTSUP);
	assert_int_equal(mh_ops->execute_tuning(&mh, 19), MMCHAL_EIO); /* not in tran */
	assert_int_equal(mh_ops->hw_reset(&mh), 0);                    /* no RST_n on SD */
	assert_int_equal(mmchal_mock_stats(&mh)->hw_resets, 1);
}

/* Abort in the data phase; a trigger ends a busy phase; removal during busy;
   NULL contexts. */
static void test_abort_and_busy_phase(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_mock_status st;
	struct mmchal_xfer x;
	struct mmchal_cmd c;
	struct mmchal_data d;
	struct mmchal_ios ios;
	uint32_t ev, n;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.host.bus = MMCHAL_BUS_HW_BUSY;
	sd_tran(&cfg);
	mmchal_mock_set_latency(&mh, 0, 0, 0, true);
	sg[0].cpu = buf;
	sg[0].len = 1024;
	/* Open-ended read aborted before its data: the card still sends (data state). */
	dma_xfer(&x, &c, &d, 18, 0, MMCHAL_DIR_FROM_CARD, 2, MMCHAL_PLAN_PIO, 1);
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	mmchal_mock_trigger(&mh);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, CMD_DONE);
	assert_int_equal(mh_ops->abort(&mh), 0);
	assert_false(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mmchal_mock_log_last(&mh)->data_error, MMCHAL_ECANCELED);
	assert_int_equal(mh_ops->blocks_done(&mh, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DATA);
	/* A late trigger with nothing in flight waits for the next transfer. */
	mmchal_mock_trigger(&mh);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
	mmchal_mock_set_latency(&mh, 0, 0, 5, false);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE | MMCHAL_EV_BUSY_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	/* Single-block read aborted: the card ends it by itself. */
	mmchal_mock_set_latency(&mh, 0, 3, 5, false);
	sg[0].len = 512;
	dma_xfer(&x, &c, &d, 17, 0, MMCHAL_DIR_FROM_CARD, 1, MMCHAL_PLAN_PIO, 1);
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, CMD_DONE);
	assert_int_equal(mh_ops->abort(&mh), 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);

	/* A write, then CMD12 with busy: a trigger ends the busy phase early. */
	mmchal_mock_set_latency(&mh, 0, 0, 50, false);
	assert_int_equal(mh_pio(25, 0, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	start_stop(&x, &c);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, CMD_DONE);
	assert_false(mmchal_mock_irq_pending(&mh));
	mmchal_mock_trigger(&mh);
	assert_true(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_BUSY_DONE);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_false(st.busy);
	assert_int_equal(st.state, MMCHAL_MOCK_ST_TRAN);
	/* Removal while busy: BUSY_DONE with the command failed, ENOMEDIUM. */
	assert_int_equal(mh_pio(25, 0, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	start_stop(&x, &c);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, CMD_DONE);
	mmchal_mock_set_present(&mh, false);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CARD_CHANGE | MMCHAL_EV_CMD_ERROR | MMCHAL_EV_BUSY_DONE);
	assert_int_equal(c.error, MMCHAL_ENOMEDIUM);
	assert_int_equal(mh_ops->execute_tuning(&mh, 19), MMCHAL_ENOMEDIUM);

	/* Every op refuses a NULL context. */
	memset(&ios, 0, sizeof(ios));
	assert_int_equal(mh_ops->probe(NULL), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->set_ios(NULL, &ios), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->start(NULL, &x), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->abort(NULL), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->card_busy(NULL), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->get_cd(NULL), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->get_ro(NULL), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->hw_reset(NULL), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->execute_tuning(NULL, 19), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->blocks_done(NULL, &n), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->enable_sdio_irq(NULL, true), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_status(NULL, &st), MMCHAL_EINVAL);
	assert_null(mmchal_mock_stats(NULL));
	assert_int_equal(mmchal_mock_log_count(NULL), 0);
}

/* Every transfer the mock refuses at start: bad command or data, a bad sg list,
   and each DMA rule of the configured engine; each counted in the statistics. */
static void test_start_refusals(void **state)
{
	static const struct mmchal_dma_dir_caps rules = {
		.max_segs = 4,
		.max_seg_size = 4096,
		.addr_align = 8,
		.len_granule = 4,
		.addr_bits = 32,
		.seg_boundary = 0xffff,
		.min_len = 16,
		.max_xfer = 4096,
	};
	static uint8_t mem[8192];
	struct mmchal_mock_cfg cfg;
	struct mmchal_sg one, sg2[2];
	struct mmchal_dma_seg seg[5];
	struct mmchal_cmd c;
	struct mmchal_data d;
	struct mmchal_xfer x;
	uint64_t n = 0;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.dma = dma_both(&rules);
	mh_init(&cfg);
	for (int k = 0; k < 28; k++) {
		memset(&c, 0, sizeof(c));
		memset(&d, 0, sizeof(d));
		memset(&x, 0, sizeof(x));
		c.opcode = 17;
		c.flags = MMCHAL_RSP_R1;
		one.cpu = mem;
		one.phys = 0;
		one.len = 512;
		d.dir = MMCHAL_DIR_FROM_CARD;
		d.blksz = 512;
		d.blocks = 1;
		d.sg = &one;
		d.sg_len = 1;
		x.cmd = &c;
		x.data = &d;
		seg[0].addr = 0x10000;
		seg[0].len = 512;
		switch (k) {
		case 0:
			x.cmd = NULL;
			break;
		case 1:
			c.opcode = 64;
			break;
		case 2:
			d.dir = (enum mmchal_dir)MMCHAL_DIR_COUNT;
			break;
		case 3:
			d.blksz = 0;
			break;
		case 4:
			d.blocks = 0;
			break;
		case 5: /* with a segment list the engine would take */
			x.plan = (enum mmchal_plan)MMCHAL_PLAN_COUNT;
			x.segs = seg;
			x.nsegs = 1;
			break;
		case 6:
			d.blksz = 512;
			d.blocks = 0x800001u; /* more than 4 GiB */
			break;
		case 7:
			d.sg = NULL;
			break;
		case 8:
			d.sg_len = 0;
			break;
		case 9:
			one.cpu = NULL;
			break;
		case 10:
			sg2[0] = one;
			sg2[1] = one;
			sg2[1].len = 0;
			d.sg = sg2;
			d.sg_len = 2;
			break;
		case 11:
			one.len = 511;
			break;
		default:
			x.plan = MMCHAL_PLAN_DIRECT;
			x.segs = seg;
			x.nsegs = 1;
			break;
		}
		switch (k) {
		case 12:
			x.segs = NULL;
			break;
		case 13:
			x.nsegs = 0;
			break;
		case 14:
			x.nsegs = 5;
			break;
		case 15:
			x.plan = MMCHAL_PLAN_BOUNCED;
			seg[0].len = 256;
			seg[1].addr = 0x10100;
			seg[1].len = 256;
			x.nsegs = 2;
			break;
		case 16:
			seg[0].len = 0;
			break;
		case 17:
			d.blksz = 512;
			d.blocks = 9;
			seg[0].len = 4608; /* above max_seg_size */
			break;
		case 18:
			seg[0].addr = UINT64_MAX - 255u; /* wraps */
			break;
		case 19:
			seg[0].addr = 0x10004; /* 8-byte alignment */
			break;
		case 20:
			seg[0].len = 510; /* 4-byte granule */
			seg[1].addr = 0x20000;
			seg[1].len = 2;
			x.nsegs = 2;
			break;
		case 21:
			seg[0].addr = 0xfffffff8u; /* past 32 bits */
			break;
		case 22:
			seg[0].addr = 0xff00; /* across a 64 KiB boundary */
			break;
		case 23:
			seg[0].len = 256; /* the segments do not add up */
			break;
		case 24:
			d.blksz = 8; /* under min_len */
			seg[0].len = 8;
			one.len = 8;
			break;
		case 25:
			d.blocks = 9; /* above max_xfer */
			one.len = 4608;
			seg[0].len = 4096;
			seg[1].addr = 0x20000;
			seg[1].len = 512;
			x.nsegs = 2;
			break;
		case 26: /* an empty segment, though the sum is right */
			seg[1].addr = 0x20010;
			seg[1].len = 0;
			x.nsegs = 2;
			break;
		case 27:
			cfg.dma.kind = MMCHAL_DMA_NONE;
			mh_init(&cfg);
			n = 0;
			break;
		default:
			break;
		}
		assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
		n++;
		assert_int_equal(mmchal_mock_stats(&mh)->rejected, n);
	}
	assert_int_equal(mh_ops->start(&mh, NULL), MMCHAL_EINVAL);
}

/* The mock's own API with NULL, out-of-range and positive arguments: refused (or
   ignored where the function returns nothing), the mock unchanged. */
static void test_api_bad_args(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_mock_status st;
	struct mmchal_backend be;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	assert_int_equal(mmchal_mock_fail_op(NULL, MMCHAL_MOCK_OP_START, MMCHAL_EIO, 1),
			 MMCHAL_EINVAL);
	assert_int_equal(
		mmchal_mock_fail_op(&mh, (enum mmchal_mock_op)MMCHAL_MOCK_OP_COUNT, MMCHAL_EIO, 1),
		MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_START, 1, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_fail_cmd(NULL, 17, MMCHAL_EIO, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 17, 1, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, 64, MMCHAL_EIO, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, MMCHAL_MOCK_ACMD | 41u, MMCHAL_EIO, 1), 0);
	assert_int_equal(mmchal_mock_fail_cmd(&mh, MMCHAL_MOCK_ANY_CMD, 0, 0), 0);
	assert_int_equal(mmchal_mock_fail_data(NULL, MMCHAL_MOCK_DATA_CRC, 0, 1), MMCHAL_EINVAL);
	assert_int_equal(
		mmchal_mock_fail_data(&mh, (enum mmchal_mock_data_fault)(MMCHAL_MOCK_DATA_DMA + 1),
				      0, 1),
		MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_sdio_irq(NULL, 2), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_sdio_irq(&mh, 2), MMCHAL_EINVAL); /* not an SDIO card */
	assert_int_equal(mmchal_mock_status(NULL, &st), MMCHAL_EINVAL);
	assert_int_equal(mmchal_mock_backend(NULL, &be), MMCHAL_EINVAL);
	assert_null(mmchal_mock_log_get(NULL, 0));
	assert_null(mmchal_mock_log_last(NULL));
	assert_int_equal(mmchal_mock_log_count(NULL), 0);
	mmchal_mock_log_clear(&mh);
	assert_null(mmchal_mock_log_last(&mh));
	assert_null(mmchal_mock_log_get(&mh, 0));
	assert_false(mmchal_mock_irq_pending(NULL));
	assert_false(mmchal_mock_busy(NULL));
	assert_null(mmchal_mock_stats(NULL));
	/* the void ones do nothing with NULL */
	mmchal_mock_log_clear(NULL);
	mmchal_mock_clear_faults(NULL);
	mmchal_mock_set_busy_stuck(NULL, true);
	mmchal_mock_set_write_protect(NULL, true);
	mmchal_mock_set_present(NULL, false);
	mmchal_mock_trigger(NULL);
	mmchal_mock_set_latency(NULL, 1, 1, 1, true);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.state, MMCHAL_MOCK_ST_IDLE);
}

/* DMA caps checked at init (segment count and size at their edges), a failure
   scheduled on hw_reset, and the busy level in the status. */
static void test_init_dma_and_status(void **state)
{
	static const struct mmchal_dma_dir_caps one_byte = {.max_segs = 1, .max_seg_size = 1};
	struct mmchal_mock_cfg cfg;
	struct mmchal_mock_status st;
	struct mmchal_cmd c;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
	cfg.host.bus |= MMCHAL_BUS_HW_RESET;
	cfg.dma = dma_both(&one_byte);
	assert_int_equal(mmchal_mock_init(&mh, &cfg), 0);
	cfg.dma.dir[1].max_segs = 0;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.dma.dir[1].max_segs = 1;
	cfg.dma.dir[0].max_seg_size = 0;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.dma.dir[0].max_seg_size = 1;
	mh_init(&cfg);
	/* hw_reset: the scheduled error once, then it works */
	assert_int_equal(mmchal_mock_fail_op(&mh, MMCHAL_MOCK_OP_HW_RESET, MMCHAL_EIO, 1), 0);
	assert_int_equal(mh_ops->hw_reset(&mh), MMCHAL_EIO);
	assert_int_equal(mmchal_mock_stats(&mh)->hw_resets, 0);
	assert_int_equal(mh_ops->hw_reset(&mh), 0);
	assert_int_equal(mmchal_mock_stats(&mh)->hw_resets, 1);
	/* a card that holds DAT0 low shows busy in the status */
	mh_mmc_to_tran();
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_false(st.busy);
	mmchal_mock_set_busy_stuck(&mh, true);
	(void)mh_cmd(6, 0x03b90100, MMCHAL_RSP_R1B, &c);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_true(st.busy);
}

/* A ring whose length is not a power of two, before and after it wraps:
 * the oldest entry first. */
static void test_log_odd_ring(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_mock_log_entry ring[3];
	struct mmchal_cmd c;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.log = ring;
	cfg.log_len = 3;
	mh_init(&cfg);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), CMD_DONE);
	assert_int_equal(mmchal_mock_log_count(&mh), 2);
	assert_int_equal(mmchal_mock_log_get(&mh, 0)->opcode, 0);
	assert_int_equal(mmchal_mock_log_get(&mh, 1)->opcode, 8);
	mh_sd_to_tran(); /* 7 more: 0 8 55 41 2 3 7 */
	assert_int_equal(mmchal_mock_log_count(&mh), 3);
	assert_int_equal(mmchal_mock_log_get(&mh, 0)->seq, 6);
	assert_int_equal(mmchal_mock_log_get(&mh, 0)->opcode, 2);
	assert_int_equal(mmchal_mock_log_get(&mh, 1)->opcode, 3);
	assert_int_equal(mmchal_mock_log_get(&mh, 2)->opcode, 7);
	assert_int_equal(mmchal_mock_log_last(&mh)->seq, 8);
}

/* Configuration edges that must be accepted: a 64-bit engine, an eMMC in
 * sector mode whose size is not a multiple of 2 KiB (that rule is for byte
 * addressing); and with no latency both phases end in one call. */
static void test_init_edges_and_zero_latency(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;
	struct mmchal_xfer x;
	uint32_t ev;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, 3u * 512u);
	assert_int_equal(mmchal_mock_init(&mh, &cfg), 0);
	cfg.emmc_byte_mode = true;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.dma = dma_caps(1);
	for (int i = 0; i < MMCHAL_DIR_COUNT; i++)
		cfg.dma.dir[i].addr_bits = 64;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), 0);
	cfg.dma.dir[MMCHAL_DIR_TO_CARD].addr_bits = 65;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);

	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	sd_tran(&cfg);
	mmchal_mock_set_latency(&mh, 0, 0, 0, false);
	sg[0].cpu = buf;
	sg[0].len = 512;
	dma_xfer(&x, &c, &d, 17, 2, MMCHAL_DIR_FROM_CARD, 1, MMCHAL_PLAN_PIO, 1);
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, ALL_DONE);
	assert_memory_equal(buf, mh_image + 1024, 512);
}

/* card_busy counts its polls and notices a removal: a card gone is not
 * busy; the status shows the eMMC's HS_TIMING. */
static void test_busy_poll_removal_and_status(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_mock_status st;
	struct mmchal_cmd c;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	mh_mmc_to_tran();
	/* SWITCH HS_TIMING (byte 185) to 1: high speed */
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.hs_timing, 0);
	assert_int_equal(mh_cmd(6, 0x03b90100, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.hs_timing, 1);
	mmchal_mock_set_busy_stuck(&mh, true);
	assert_int_equal(mh_cmd(6, 0x03b90100, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mmchal_mock_stats(&mh)->busy_polls, 0);
	assert_int_equal(mh_ops->card_busy(&mh), 1);
	assert_int_equal(mh_ops->card_busy(&mh), 1);
	assert_int_equal(mmchal_mock_stats(&mh)->busy_polls, 2);
	mmchal_mock_set_present(&mh, false);
	assert_int_equal(mh_ops->card_busy(&mh), 0);
	assert_int_equal(mmchal_mock_stats(&mh)->busy_polls, 3);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_false(st.present);
	assert_false(st.busy);
}

/* Slot ops at their edges: a timing past the last one, handle_irq counted,
   a controller reset (probe) that ends what was in flight, hw_reset and
   tuning refused while a request is in flight, tuning after a removal,
   power off releasing DAT0, a removal and reinsertion seen across a power
   cycle. */
static void test_slot_op_edges(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_ios ios = {400000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY, MMCHAL_POWER_ON,
				 MMCHAL_SIGNAL_330};
	struct mmchal_xfer x;
	struct mmchal_cmd c;
	struct mmchal_data d;
	uint64_t irqs;
	uint32_t ev;

	(void)state;
	/* No image: an SDIO card needs none but then may not name a size; a
	   memory card needs one of at least a block. */
	mh_cfg(&cfg, MMCHAL_MOCK_SDIO, 0);
	cfg.image = NULL;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), 0);
	cfg.image_size = 512;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, 0);
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.image_size = 512u * 1024u;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), 0);

	/* A host that declares every bus mode still has no timing after HS400. */
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.host.bus = UINT32_MAX;
	cfg.busy_latency = 3;
	sd_tran(&cfg);
	ios.timing = MMCHAL_TIMING_MMC_HS400;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	ios.timing = (enum mmchal_timing)(MMCHAL_TIMING_MMC_HS400 + 1);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), MMCHAL_EINVAL);
	ios.timing = MMCHAL_TIMING_LEGACY;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);

	/* Every handle_irq call is counted, with or without work. */
	irqs = mmchal_mock_stats(&mh)->irq_calls;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		assert_int_equal(ev, 0);
	}
	assert_int_equal(mmchal_mock_stats(&mh)->irq_calls, irqs + 3u);

	/* In flight: no hardware reset and no tuning; a controller reset
	   (probe) ends the request, and both are taken again. */
	start_stop(&x, &c);
	assert_true(mmchal_mock_busy(&mh));
	assert_int_equal(mh_ops->hw_reset(&mh), MMCHAL_EBUSY);
	assert_int_equal(mh_ops->execute_tuning(&mh, 19), MMCHAL_EBUSY);
	assert_int_equal(mmchal_mock_stats(&mh)->hw_resets, 0);
	assert_int_equal(mmchal_mock_stats(&mh)->tunings, 0);
	assert_int_equal(mh_ops->probe(&mh), 0);
	assert_false(mmchal_mock_busy(&mh));
	assert_int_equal(mh_ops->hw_reset(&mh), 0);
	assert_int_equal(mmchal_mock_stats(&mh)->hw_resets, 1);
	assert_int_equal(mh_ops->execute_tuning(&mh, 19), 0);
	assert_int_equal(mmchal_mock_stats(&mh)->tunings, 1);

	/* A write leaves the card programming, DAT0 low; without power the
	   card holds nothing low. */
	assert_int_equal(mh_pio(24, 0, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_PRG);
	assert_int_equal(mh_ops->card_busy(&mh), 1);
	ios.power_mode = MMCHAL_POWER_OFF;
	ios.clock_hz = 0;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mh_ops->card_busy(&mh), 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_OFF);

	/* Removed and put back while the slot is off: set_ios sees both, so
	   the next interrupt reports the card change, and power-up finds the
	   new card in idle. */
	mmchal_mock_set_present(&mh, false);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	mmchal_mock_set_present(&mh, true);
	ios.power_mode = MMCHAL_POWER_ON;
	ios.clock_hz = 400000;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_CARD_CHANGE);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);

	/* Tuning notices a removal nobody has reported yet. */
	sd_tran(&cfg);
	assert_int_equal(mh_ops->execute_tuning(&mh, 19), 0);
	mmchal_mock_set_present(&mh, false);
	assert_int_equal(mh_ops->execute_tuning(&mh, 19), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_mock_stats(&mh)->tunings, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_checks),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_pio_scatter),
		cmocka_unit_test(test_pio_scatter_registers),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_fail_cmd),
		cmocka_unit_test(test_fail_data),
		cmocka_unit_test(test_removal),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_write_protect),
		cmocka_unit_test(test_fail_op),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_set_ios),
		cmocka_unit_test(test_optional_ops),
		cmocka_unit_test(test_abort_and_busy_phase),
		cmocka_unit_test(test_start_refusals),
		cmocka_unit_test(test_api_bad_args),
		cmocka_unit_test(test_init_dma_and_status),
		cmocka_unit_test(test_log_odd_ring),
		cmocka_unit_test(test_init_edges_and_zero_latency),
		cmocka_unit_test(test_busy_poll_removal_and_status),
		cmocka_unit_test(test_slot_op_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
