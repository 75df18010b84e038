/*
 * Test harness for the mock backend tests (see mock_harness.h).
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

uint8_t mh_image[MH_IMAGE_SIZE];
struct mmchal_mock mh;
struct mmchal_mock_log_entry mh_log[MH_LOG_LEN];
const struct mmchal_backend_ops *mh_ops = &mmchal_mock_ops;

uint8_t mh_pattern(uint64_t off)
{
	return (uint8_t)(off * 7u + (off >> 9) * 13u + 1u);
}

void mh_cfg(struct mmchal_mock_cfg *cfg, enum mmchal_mock_card card, uint64_t size)
{
	memset(cfg, 0, sizeof(*cfg));
	for (uint32_t i = 0; i < MH_IMAGE_SIZE; i++)
		mh_image[i] = mh_pattern(i);
	cfg->card = card;
	cfg->image = mh_image;
	cfg->image_size = size;
	cfg->log = mh_log;
	cfg->log_len = MH_LOG_LEN;
}

void mh_init(const struct mmchal_mock_cfg *cfg)
{
	assert_int_equal(mmchal_mock_init(&mh, cfg), 0);
}

void mh_sdio_init(uint32_t bus, uint8_t functions)
{
	struct mmchal_mock_cfg cfg;

	mh_cfg(&cfg, MMCHAL_MOCK_SDIO, 64u * 1024u);
	cfg.host.bus = bus;
	cfg.sdio_functions = functions;
	mh_init(&cfg);
}

uint32_t mh_run(struct mmchal_xfer *x)
{
	uint32_t all = 0;

	assert_int_equal(mh_ops->start(&mh, x), 0);
	for (int i = 0; i < 100 && mmchal_mock_busy(&mh); i++) {
		uint32_t ev = 0;

		assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
		all |= ev;
	}
	assert_false(mmchal_mock_busy(&mh));
	return all;
}

uint32_t mh_cmd(uint32_t op, uint32_t arg, uint32_t flags, struct mmchal_cmd *c)
{
	struct mmchal_cmd local;
	struct mmchal_xfer x;

	if (!c)
		c = &local;
	memset(c, 0, sizeof(*c));
	c->opcode = op;
	c->arg = arg;
	c->flags = flags;
	memset(&x, 0, sizeof(x));
	x.cmd = c;
	return mh_run(&x);
}

uint32_t mh_pio(uint32_t op, uint32_t arg, enum mmchal_dir dir, uint32_t blksz, uint32_t blocks,
		void *buf, struct mmchal_cmd *c, struct mmchal_data *d)
{
	static struct mmchal_sg sg;
	struct mmchal_xfer x;

	memset(c, 0, sizeof(*c));
	memset(d, 0, sizeof(*d));
	c->opcode = op;
	c->arg = arg;
	c->flags = MMCHAL_RSP_R1;
	sg.cpu = buf;
	sg.phys = 0;
	sg.len = blksz * blocks;
	d->dir = dir;
	d->blksz = blksz;
	d->blocks = blocks;
	d->sg = &sg;
	d->sg_len = 1;
	memset(&x, 0, sizeof(x));
	x.cmd = c;
	x.data = d;
	x.plan = MMCHAL_PLAN_PIO;
	return mh_run(&x);
}

void mh_sd_to_tran(void)
{
	struct mmchal_cmd c;

	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(41, 0x40ff8000, MMCHAL_RSP_R3, &c), MMCHAL_EV_CMD_DONE);
	assert_true(c.resp[0] & 0x80000000u);
	assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_R2, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0] >> 16, MH_RCA);
	/* With MMCHAL_BUS_HW_BUSY the R1b command also reports the end of busy. */
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c) & ~MMCHAL_EV_BUSY_DONE,
			 MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
}

void mh_mmc_to_tran(void)
{
	struct mmchal_cmd c;

	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(1, 0x40ff8080, MMCHAL_RSP_R3, &c), MMCHAL_EV_CMD_DONE);
	assert_true(c.resp[0] & 0x80000000u);
	assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_R2, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(3, 1u << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(7, 1u << 16, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
}

void mh_sdio_to_tran(void)
{
	struct mmchal_cmd c;

	assert_int_equal(mh_cmd(5, 0, MMCHAL_RSP_R4, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(5, 0x00ff8000, MMCHAL_RSP_R4, &c), MMCHAL_EV_CMD_DONE);
	assert_true(c.resp[0] & 0x80000000u);
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
}
