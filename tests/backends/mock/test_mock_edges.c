/*
 * Mock backend edges (src/backends/mock/mock.c): the configuration limits
 * themselves, a command's error cleared on success, a command without a
 * response to a powered-off card, NULL arguments of get_caps, the eMMC
 * hardware reset of a card that is off or gone, the SDIO master interrupt
 * enable, a log cleared in flight; and of the card model (mock_card.c): CCS
 * after a power cycle, CMD23 dropped by a refused command, the erase
 * sequence after CMD38, CMD13/CMD15 in dis; and of the data phase
 * (mock_data.c): segment edges, device address 0, the card's block count.
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

/* Seven SDIO functions and 2048-byte SDIO blocks are the largest accepted. */
static void test_init_limits(void **state)
{
	struct mmchal_mock_cfg cfg;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDIO, 64u * 1024u);
	cfg.sdio_functions = 7;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), 0);
	assert_int_equal(mh.cfg.sdio_functions, 7);
	cfg.sdio_functions = 8;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
	cfg.sdio_functions = 1;
	cfg.sdio_max_blksz = 2048;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), 0);
	assert_int_equal(mh.cfg.sdio_max_blksz, 2048);
	cfg.sdio_max_blksz = 2049;
	assert_int_equal(mmchal_mock_init(&mh, &cfg), MMCHAL_EINVAL);
}

/* A successful command clears the error its structure held from before. */
static void test_cmd_error_cleared(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c = {
		.opcode = 13, .arg = MH_RCA << 16, .flags = MMCHAL_RSP_R1, .error = MMCHAL_EIO};
	struct mmchal_xfer x = {.cmd = &c};

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	mh_sd_to_tran();
	assert_int_equal(mh_run(&x), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.error, 0);
	assert_int_equal(c.resp[0],
			 MMCHAL_MOCK_R1_STATE(MMCHAL_MOCK_ST_TRAN) | MMCHAL_MOCK_R1_READY_FOR_DATA);
}

/* Powered off, a card answers nothing: a command that expects no answer
   completes, one that expects a response times out. */
static void test_unpowered_card(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_ios ios = {.bus_width = MMCHAL_BUS_WIDTH_1, .power_mode = MMCHAL_POWER_OFF};
	struct mmchal_cmd c;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.error, 0);
	assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
}

static void test_get_caps_null(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	assert_int_equal(mh_ops->get_caps(NULL, &hc, &dc), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->get_caps(&mh, NULL, &dc), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->get_caps(&mh, &hc, NULL), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->get_caps(&mh, &hc, &dc), 0);
}

/* RST_n resets a powered, present eMMC only: a card that is off or gone stays
   off. */
static void test_hw_reset_off_card(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_mock_status st;
	struct mmchal_ios ios = {.bus_width = MMCHAL_BUS_WIDTH_1, .power_mode = MMCHAL_POWER_OFF};

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
	cfg.host.bus = MMCHAL_BUS_HW_RESET | MMCHAL_BUS_4_BIT;
	mh_init(&cfg);
	mh_mmc_to_tran();
	assert_int_equal(mh_ops->hw_reset(&mh), 0);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.state, MMCHAL_MOCK_ST_IDLE);

	/* powered off */
	mh_mmc_to_tran();
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mh_ops->hw_reset(&mh), 0);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.state, MMCHAL_MOCK_ST_OFF);
	assert_int_equal(mmchal_mock_stats(&mh)->hw_resets, 2);

	/* removed while powered */
	ios.power_mode = MMCHAL_POWER_ON;
	ios.clock_hz = 400000;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	mh_mmc_to_tran();
	mmchal_mock_set_present(&mh, false);
	assert_int_equal(mh_ops->hw_reset(&mh), 0);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.state, MMCHAL_MOCK_ST_OFF);
	assert_int_equal(mmchal_mock_stats(&mh)->hw_resets, 3);
}

/* A function's interrupt enable without the master enable (CCCR 0x04 bit 0)
   signals nothing. */
static void test_sdio_irq_needs_ienm(void **state)
{
	struct mmchal_cmd c;
	uint32_t ev;

	(void)state;
	mh_sdio_init(MMCHAL_BUS_SDIO_IRQ, 1);
	mh_sdio_to_tran();
	assert_int_equal(mmchal_mock_sdio_irq(&mh, 0x02), 0);
	/* CMD52 write of IEN1 alone to CCCR 0x04, read back */
	assert_int_equal(mh_cmd(52, 1u << 31 | 1u << 27 | 0x04u << 9 | 0x02u, MMCHAL_RSP_R5, &c),
			 MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0] & 0xffu, 0x02);
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, true), 0);
	assert_false(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
	/* with IENM the interrupt comes at once, during the CMD52 that sets it */
	assert_int_equal(mh_cmd(52, 1u << 31 | 1u << 27 | 0x04u << 9 | 0x03u, MMCHAL_RSP_R5, &c),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_SDIO_IRQ);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
}

/* A log cleared while a command is in flight: its completion writes no entry. */
static void test_log_cleared_in_flight(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c = {.opcode = 8, .arg = 0x1aa, .flags = MMCHAL_RSP_R7};
	struct mmchal_xfer x = {.cmd = &c};
	struct mmchal_mock_log_entry before[MH_LOG_LEN];
	uint32_t ev = 0, all = 0;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.cmd_latency = 3;
	mh_init(&cfg);
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_int_equal(mmchal_mock_log_count(&mh), 1);
	mmchal_mock_log_clear(&mh);
	memcpy(before, mh_log, sizeof(before));
	for (int i = 0; i < 10 && mmchal_mock_busy(&mh); i++) {
		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		all |= ev;
	}
	assert_false(mmchal_mock_busy(&mh));
	assert_int_equal(all, MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], 0x1aa);
	assert_int_equal(mmchal_mock_log_count(&mh), 0);
	assert_memory_equal(mh_log, before, sizeof(before));
}

static void sd_tran(uint32_t busy_latency)
{
	struct mmchal_mock_cfg cfg;

	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.busy_latency = busy_latency;
	mh_init(&cfg);
	mh_sd_to_tran();
}

/* A power cycle forgets block addressing (CCS): it comes back with ACMD41. */
static void test_power_cycle_forgets_ccs(void **state)
{
	struct mmchal_mock_status st;
	struct mmchal_ios ios = {.bus_width = MMCHAL_BUS_WIDTH_1, .power_mode = MMCHAL_POWER_OFF};

	(void)state;
	sd_tran(0);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_true(st.ccs);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	ios.power_mode = MMCHAL_POWER_ON;
	ios.clock_hz = 400000;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.state, MMCHAL_MOCK_ST_IDLE);
	assert_false(st.ccs);
	assert_int_equal(st.rca, 0);
}

/* A power cycle forgets an erase start: CMD33 after it is out of sequence. */
static void test_power_cycle_forgets_erase(void **state)
{
	struct mmchal_ios ios = {.bus_width = MMCHAL_BUS_WIDTH_1, .power_mode = MMCHAL_POWER_OFF};
	struct mmchal_cmd c;

	(void)state;
	sd_tran(0);
	assert_int_equal(mh_cmd(32, 10, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	ios.power_mode = MMCHAL_POWER_ON;
	ios.clock_hz = 400000;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	mh_sd_to_tran();
	assert_int_equal(mh_cmd(33, 11, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_SEQ_ERROR);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_SEQ_ERROR);
	assert_int_equal(mh_image[10 * 512], mh_pattern(10 * 512));
}

/* CMD23 counts for the next command only, also when that one is refused: the
   CMD18 after it is open-ended again. */
static void test_cmd23_dropped_by_refusal(void **state)
{
	static uint8_t buf[3 * 512];
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	sd_tran(0);
	/* refused for the address */
	assert_int_equal(mh_cmd(23, 2, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(18, MH_IMAGE_SIZE / 512, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_OUT_OF_RANGE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(mh_pio(18, 20, MMCHAL_DIR_FROM_CARD, 512, 3, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_memory_equal(buf, mh_image + 20 * 512, sizeof(buf));
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DATA);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);

	/* refused for write protection */
	mmchal_mock_set_write_protect(&mh, true);
	assert_int_equal(mh_cmd(23, 2, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(25, 20, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_WP_VIOLATION);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mh_pio(18, 40, MMCHAL_DIR_FROM_CARD, 512, 3, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_memory_equal(buf, mh_image + 40 * 512, sizeof(buf));
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DATA);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
}

/* CMD23 of 2 and a host that reads 3 blocks: the card sends its 2, the host
   times out on the third, and the card is back in tran (its count is done);
   a CRC error inside the count leaves it sending, for CMD12 to end. */
static void test_cmd23_count_ends_before_host(void **state)
{
	static uint8_t buf[3 * 512];
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	sd_tran(0);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mh_cmd(23, 2, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_pio(18, 20, MMCHAL_DIR_FROM_CARD, 512, 3, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_ETIMEDOUT);
	assert_memory_equal(buf, mh_image + 20 * 512, 2 * 512);
	assert_int_equal(buf[2 * 512], 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	/* the next command is taken in tran */
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0] & (0xfu << 9), 4u << 9);

	/* a data CRC error on the second of two counted blocks: still sending */
	assert_int_equal(mmchal_mock_fail_data(&mh, MMCHAL_MOCK_DATA_CRC, 1, 1), 0);
	assert_int_equal(mh_cmd(23, 2, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_pio(18, 20, MMCHAL_DIR_FROM_CARD, 512, 2, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DATA);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
}

/* Every CMD38, erased or refused, ends the sequence: the next one needs a new
   CMD32 and CMD33. */
static void test_erase_sequence_restarts(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	sd_tran(0);
	assert_int_equal(mh_cmd(32, 10, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(33, 11, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(mh_image[10 * 512], 0);
	/* after an erase: CMD33 alone is out of sequence */
	assert_int_equal(mh_cmd(33, 12, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_SEQ_ERROR);
	/* ...and stays so: a sequence error starts nothing */
	assert_int_equal(mh_cmd(33, 12, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_SEQ_ERROR);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_SEQ_ERROR);
	assert_int_equal(mh_image[12 * 512], mh_pattern(12 * 512));

	/* after a refused range: CMD38 again is out of sequence */
	assert_int_equal(mh_cmd(32, 30, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(33, 29, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_PARAM);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_SEQ_ERROR);

	/* a CMD33 beyond the card drops the start: a good CMD33 after it is out of
	   sequence */
	assert_int_equal(mh_cmd(32, 30, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(33, MH_IMAGE_SIZE / 512, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_OUT_OF_RANGE);
	assert_int_equal(mh_cmd(33, 31, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_SEQ_ERROR);
	assert_int_equal(mh_image[30 * 512], mh_pattern(30 * 512));
}

/* In dis (deselected while programming) CMD13 and CMD15 are legal. */
static void test_dis_state_commands(void **state)
{
	static uint8_t buf[512];
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	sd_tran(10);
	assert_int_equal(mh_pio(24, 0, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DIS);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(MMCHAL_MOCK_ST_DIS));
	assert_int_equal(mh_cmd(15, MH_RCA << 16, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.error, 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_INA);
}

/* ------------------------------------------------------------ mock_data.c */

static struct mmchal_dma_seg dsegs[2];

static void dma_sd_tran(uint32_t len_granule)
{
	struct mmchal_mock_cfg cfg;

	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.dma.kind = MMCHAL_DMA_INTERNAL;
	for (int i = 0; i < MMCHAL_DIR_COUNT; i++) {
		cfg.dma.dir[i].max_segs = 2;
		cfg.dma.dir[i].max_seg_size = 65536;
		cfg.dma.dir[i].len_granule = len_granule;
	}
	mh_init(&cfg);
	mh_sd_to_tran();
}

static void dma_read(struct mmchal_xfer *x, struct mmchal_cmd *c, struct mmchal_data *d,
		     uint32_t nsegs)
{
	memset(x, 0, sizeof(*x));
	memset(c, 0, sizeof(*c));
	memset(d, 0, sizeof(*d));
	c->opcode = 17;
	c->arg = 3;
	c->flags = MMCHAL_RSP_R1;
	d->dir = MMCHAL_DIR_FROM_CARD;
	d->blksz = 512;
	d->blocks = 1;
	x->cmd = c;
	x->data = d;
	x->plan = MMCHAL_PLAN_DIRECT;
	x->segs = dsegs;
	x->nsegs = nsegs;
}

/* A segment may end on the last byte of the 64-bit space, not beyond; a
   4-byte segment is a whole granule of 4. */
static void test_dma_segment_edges(void **state)
{
	struct mmchal_xfer x;
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	dma_sd_tran(0);
	dma_read(&x, &c, &d, 1);
	dsegs[0].addr = UINT64_MAX - 511u;
	dsegs[0].len = 512;
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_int_equal(mh_ops->abort(&mh), 0);
	dsegs[0].addr = UINT64_MAX - 510u;
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	dsegs[0].addr = UINT64_MAX - 512u;
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_int_equal(mh_ops->abort(&mh), 0);

	dma_sd_tran(4);
	dma_read(&x, &c, &d, 2);
	dsegs[0].addr = 0x1000;
	dsegs[0].len = 4;
	dsegs[1].addr = 0x2000;
	dsegs[1].len = 508;
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_int_equal(mh_ops->abort(&mh), 0);
	dsegs[0].len = 6;
	dsegs[1].len = 506;
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
}

/* DIRECT with the default resolver: device address 0 is no memory, the
   transfer fails with EFAULT before the first byte. */
static void test_dma_address_zero(void **state)
{
	struct mmchal_xfer x;
	struct mmchal_cmd c;
	struct mmchal_data d;
	uint32_t n;

	(void)state;
	dma_sd_tran(0);
	dma_read(&x, &c, &d, 1);
	dsegs[0].addr = 0;
	dsegs[0].len = 512;
	assert_int_equal(mh_run(&x), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EFAULT);
	assert_int_equal(mh_ops->blocks_done(&mh, &n), 0);
	assert_int_equal(n, 0);
}

/* The card sends what its command asked for: one block for CMD17, the CMD23
   count for CMD18; the host's extra blocks time out, and inside the card
   that is no OUT_OF_RANGE. */
static void test_card_stops_at_its_count(void **state)
{
	static uint8_t buf[3 * 512];
	struct mmchal_cmd c;
	struct mmchal_data d;
	uint32_t n;

	(void)state;
	sd_tran(0);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mh_pio(17, 5, MMCHAL_DIR_FROM_CARD, 512, 2, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh_ops->blocks_done(&mh, &n), 0);
	assert_int_equal(n, 1);
	assert_memory_equal(buf, mh_image + 5 * 512, 512);
	assert_int_equal(buf[512], 0);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);

	assert_int_equal(mh_cmd(23, 2, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_pio(18, 8, MMCHAL_DIR_FROM_CARD, 512, 3, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh_ops->blocks_done(&mh, &n), 0);
	assert_int_equal(n, 2);
	assert_memory_equal(buf, mh_image + 8 * 512, 1024);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0] & MMCHAL_MOCK_R1_OUT_OF_RANGE, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_limits),
		cmocka_unit_test(test_cmd_error_cleared),
		cmocka_unit_test(test_unpowered_card),
		cmocka_unit_test(test_get_caps_null),
		cmocka_unit_test(test_hw_reset_off_card),
		cmocka_unit_test(test_sdio_irq_needs_ienm),
		cmocka_unit_test(test_log_cleared_in_flight),
		cmocka_unit_test(test_power_cycle_forgets_ccs),
		cmocka_unit_test(test_power_cycle_forgets_erase),
		cmocka_unit_test(test_cmd23_dropped_by_refusal),
		cmocka_unit_test(test_cmd23_count_ends_before_host),
		cmocka_unit_test(test_erase_sequence_restarts),
		cmocka_unit_test(test_dis_state_commands),
		cmocka_unit_test(test_dma_segment_edges),
		cmocka_unit_test(test_dma_address_zero),
		cmocka_unit_test(test_card_stops_at_its_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
