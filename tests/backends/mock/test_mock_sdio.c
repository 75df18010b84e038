/*
 * Tests of the mock SDIO card (src/backends/mock/mock_sdio.c): CMD5 R4,
 * R6 and R5 exactly, CCCR and FBR registers, a CIS walk as a card layer
 * does it (CISTPL_MANFID, CISTPL_FUNCE), CMD53 byte and block mode on
 * function 1, errors in R5, the card interrupt, the RES reset.
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

#define CMD_DONE MMCHAL_EV_CMD_DONE
#define ALL_DONE (MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE)
#define R5_CMD   MMCHAL_MOCK_R5_STATE(1)

static uint8_t buf[1024];

/* CMD52: returns the whole R5. */
static uint32_t rw(bool write, uint32_t fn, uint32_t addr, uint8_t v)
{
	struct mmchal_cmd c;
	uint32_t arg = (write ? 1u << 31 : 0u) | fn << 28 | (write ? 1u << 27 : 0u) | addr << 9 | v;

	assert_int_equal(mh_cmd(52, arg, MMCHAL_RSP_R5, &c), CMD_DONE);
	return c.resp[0];
}

static uint8_t rd(uint32_t fn, uint32_t addr)
{
	uint32_t r = rw(false, fn, addr, 0);

	assert_int_equal(r & 0xff00u, R5_CMD);
	return (uint8_t)r;
}

static void test_identification(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	mh_sdio_init(0, 2);
	/* Memory probing gets silence. */
	assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_cmd(1, 0x40ff8080, MMCHAL_RSP_R3, &c), MMCHAL_EV_CMD_ERROR);
	/* R4: 2 functions, no memory, I/O OCR; ready once a window is given. */
	assert_int_equal(mh_cmd(5, 0, MMCHAL_RSP_R4, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x20ff8000);
	assert_int_equal(mh_cmd(5, 0x00ff8000, MMCHAL_RSP_R4, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0xa0ff8000);
	/* R6 from ready (state 1), then R1b select from stby (3). */
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x12340300 | MMCHAL_MOCK_R1_ILLEGAL_COMMAND >> 8);
	/* Asked again in stby (3): the same RCA, no error left to report. */
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x12340700);
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(3) | MMCHAL_MOCK_R1_READY_FOR_DATA);
	/* CMD5 after CMD3 and block commands are illegal. */
	assert_int_equal(mh_cmd(5, 0x00ff8000, MMCHAL_RSP_R4, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_cmd(17, 0, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	/* The R5 of the next CMD52 carries ILLEGAL_COMMAND once. */
	assert_int_equal(rw(false, 0, 0x00, 0), MMCHAL_MOCK_R5_ILLEGAL | R5_CMD | 0x43);
	assert_int_equal(rw(false, 0, 0x00, 0), R5_CMD | 0x43);
}

/* CIS walk: CCCR CIS pointer, tuples up to CISTPL_END, then function 1's. */
static void test_cis(void **state)
{
	struct mmchal_mock_cfg cfg;
	uint32_t p, fp;
	bool manfid = false, funce0 = false, funce1 = false;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDIO, 64u * 1024u);
	cfg.sdio_max_blksz = 300;
	mh_init(&cfg);
	mh_sdio_to_tran();
	assert_int_equal(rd(0, 0x08) & 0x02, 0x02); /* SMB */
	p = rd(0, 0x09) | rd(0, 0x0a) << 8 | rd(0, 0x0b) << 16;
	assert_int_equal(p, 0x1000);
	for (int n = 0; n < 16; n++) {
		uint8_t code = rd(0, p), len;

		if (code == 0xff)
			break;
		len = rd(0, p + 1);
		if (code == 0x20) {
			assert_int_equal(len, 4);
			assert_int_equal(rd(0, p + 2) | rd(0, p + 3) << 8, 0x02d0);
			assert_int_equal(rd(0, p + 4) | rd(0, p + 5) << 8, 0x4d4b);
			manfid = true;
		}
		if (code == 0x22) {
			assert_int_equal(rd(0, p + 2), 0); /* function 0 */
			assert_int_equal(rd(0, p + 3) | rd(0, p + 4) << 8, 300);
			assert_int_equal(rd(0, p + 5), 0x32);
			funce0 = true;
		}
		p += 2u + len;
	}
	fp = rd(0, 0x109) | rd(0, 0x10a) << 8 | rd(0, 0x10b) << 16;
	assert_int_equal(fp, 0x1020);
	for (int n = 0; n < 16; n++) {
		uint8_t code = rd(0, fp), len;

		if (code == 0xff)
			break;
		len = rd(0, fp + 1);
		if (code == 0x22) {
			assert_int_equal(len, 42);
			assert_int_equal(rd(0, fp + 2), 1);
			assert_int_equal(rd(0, fp + 2 + 12) | rd(0, fp + 2 + 13) << 8, 300);
			assert_int_equal(rd(0, fp + 2 + 28), 10);
			funce1 = true;
		}
		fp += 2u + len;
	}
	assert_true(manfid);
	assert_true(funce0);
	assert_true(funce1);
	/* Function 2 does not exist (FBR reads 0, CMD52 flags FUNCTION_NUMBER). */
	assert_int_equal(rd(0, 0x209), 0);
	assert_int_equal(rw(false, 2, 0, 0), R5_CMD | MMCHAL_MOCK_R5_FUNCTION);
}

static void test_cccr(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	mh_sdio_init(MMCHAL_BUS_4_BIT, 1);
	mh_sdio_to_tran();
	/* IOE with read-after-write; IOR follows; bits beyond the functions drop. */
	assert_int_equal(rw(true, 0, 0x02, 0xfe), R5_CMD | 0x02);
	assert_int_equal(rd(0, 0x03), 0x02);
	/* Read-only register: the write is ignored. */
	assert_int_equal(rw(true, 0, 0x00, 0x11), R5_CMD | 0x43);
	/* Block sizes: function 0 in the CCCR, function 1 in its FBR. */
	assert_int_equal(rw(true, 0, 0x10, 0x40), R5_CMD | 0x40);
	assert_int_equal(rd(0, 0x11), 0);
	assert_int_equal(rw(true, 0, 0x111, 0x02), R5_CMD | 0x02);
	assert_int_equal(rd(0, 0x110), 0);
	assert_int_equal(mh.fn[1].blksz, 512);
	assert_int_equal(rw(true, 0, 0x111, 0x10), R5_CMD | 0x02); /* 4096 > 512: kept */
	/* High speed: BSS = 1 (SHS stays). */
	assert_int_equal(rw(true, 0, 0x13, 0x02), R5_CMD | 0x03);
	assert_int_equal(mh.hs, 1);
	/* Bus width 4 bit: the host must follow. */
	assert_int_equal(rw(true, 0, 0x07, 0x02), R5_CMD | 0x02);
	assert_int_equal(mh.width, 4);
	assert_int_equal(mh_pio(53, 1u << 28 | 1u << 26 | 0u << 9 | 8u, MMCHAL_DIR_FROM_CARD, 8, 1,
				buf, &c, &d),
			 CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	/* RES: the I/O part resets after the response. */
	assert_int_equal(rw(true, 0, 0x06, 0x08) & 0xff00u, R5_CMD);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
	assert_int_equal(mh.rca, 0);
	assert_int_equal(mh.width, 1);
	assert_int_equal(mh.fn[1].blksz, 0);
}

/* CMD53 on function 1 (the image): block and byte mode, incrementing and fixed. */
static void test_rw_extended(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;
	uint32_t w = 1u << 31, fn1 = 1u << 28, blk = 1u << 27, inc = 1u << 26;

	(void)state;
	mh_sdio_init(0, 1);
	mh_sdio_to_tran();
	/* Block mode needs a block size first. */
	assert_int_equal(mh_pio(53, fn1 | blk | inc | 0x100u << 9 | 2u, MMCHAL_DIR_FROM_CARD, 64, 2,
				buf, &c, &d),
			 CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(c.resp[0], R5_CMD | MMCHAL_MOCK_R5_ERROR);
	assert_int_equal(d.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(rw(true, 0, 0x110, 64), R5_CMD | 64);
	for (int i = 0; i < 128; i++)
		buf[i] = (uint8_t)(0x80 + i);
	assert_int_equal(mh_pio(53, w | fn1 | blk | inc | 0x100u << 9 | 2u, MMCHAL_DIR_TO_CARD, 64,
				2, buf, &c, &d),
			 ALL_DONE);
	assert_int_equal(c.resp[0], R5_CMD);
	assert_memory_equal(mh_image + 0x100, buf, 128);
	assert_int_equal(mh_image[0xff], mh_pattern(0xff));
	assert_int_equal(mh_image[0x180], mh_pattern(0x180));
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	/* Byte mode read of 10 bytes. */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(
		mh_pio(53, fn1 | inc | 0x104u << 9 | 10u, MMCHAL_DIR_FROM_CARD, 10, 1, buf, &c, &d),
		ALL_DONE);
	assert_memory_equal(buf, mh_image + 0x104, 10);
	/* Byte count 0 means 512. */
	assert_int_equal(
		mh_pio(53, fn1 | inc | 0x0u << 9 | 0u, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d),
		ALL_DONE);
	assert_memory_equal(buf, mh_image, 512);
	/* Fixed address (a FIFO register): every byte goes to the same place. */
	buf[0] = 1;
	buf[1] = 2;
	buf[2] = 3;
	assert_int_equal(
		mh_pio(53, w | fn1 | 0x20u << 9 | 3u, MMCHAL_DIR_TO_CARD, 3, 1, buf, &c, &d),
		ALL_DONE);
	assert_int_equal(mh_image[0x20], 3);
	assert_int_equal(mh_image[0x21], mh_pattern(0x21));
	/* Function 0 in byte mode: the CCCR. */
	assert_int_equal(mh_pio(53, 0x0u << 9 | 4u, MMCHAL_DIR_FROM_CARD, 4, 1, buf, &c, &d),
			 ALL_DONE);
	assert_int_equal(buf[0], 0x43);
	/* Beyond the image: OUT_OF_RANGE, no data. */
	assert_int_equal(
		mh_pio(53, fn1 | inc | 0xfffcu << 9 | 8u, MMCHAL_DIR_FROM_CARD, 8, 1, buf, &c, &d),
		CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(c.resp[0], R5_CMD | MMCHAL_MOCK_R5_OUT_OF_RANGE);
	/* The host frames another length than the card: CRC error. */
	assert_int_equal(
		mh_pio(53, fn1 | inc | 0x0u << 9 | 8u, MMCHAL_DIR_FROM_CARD, 16, 1, buf, &c, &d),
		CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	/* Direction disagrees with the R/W flag. */
	assert_int_equal(
		mh_pio(53, fn1 | inc | 0x0u << 9 | 8u, MMCHAL_DIR_TO_CARD, 8, 1, buf, &c, &d),
		CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	/* Function 1 CMD52 beyond the image. */
	assert_int_equal(rw(false, 1, 0x1ffff, 0), R5_CMD | MMCHAL_MOCK_R5_OUT_OF_RANGE);
	assert_int_equal(rw(true, 1, 0x10, 0x99), R5_CMD | 0x99);
	assert_int_equal(mh_image[0x10], 0x99);
}

static void test_sdio_irq(void **state)
{
	uint32_t ev;

	(void)state;
	mh_sdio_init(0, 1);
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, true), MMCHAL_ENOTSUP);
	mh_sdio_init(MMCHAL_BUS_SDIO_IRQ, 1);
	mh_sdio_to_tran();
	assert_int_equal(mmchal_mock_sdio_irq(&mh, 0x04), MMCHAL_EINVAL); /* no function 2 */
	assert_int_equal(mmchal_mock_sdio_irq(&mh, 0x02), 0);
	assert_int_equal(rd(0, 0x05), 0x02); /* INTx */
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, true), 0);
	/* The card signals only with IENM and the function's IEN set. */
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, false), 0);
	assert_int_equal(rw(true, 0, 0x04, 0x03), R5_CMD | 0x03);
	assert_false(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, true), 0);
	assert_true(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_SDIO_IRQ);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0); /* once, until the host enables again */
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, true), 0);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_SDIO_IRQ);
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, false), 0);
	assert_int_equal(mmchal_mock_sdio_irq(&mh, 0x02), 0);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
	assert_int_equal(mmchal_mock_sdio_irq(&mh, 0), 0);
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, true), 0);
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, 0);
	assert_int_equal(rd(0, 0x05), 0);
	/* Not an SDIO card: refused. */
	mh_sdio_init(0, 1);
	mh.cfg.card = MMCHAL_MOCK_SDHC;
	assert_int_equal(mmchal_mock_sdio_irq(&mh, 0x02), MMCHAL_EINVAL);
}

/* A block size set byte by byte keeps the other byte and only that; a card
   reset (RES) clears the card's block sizes but not the host's SDIO interrupt
   enable, which belongs to the controller. */
static void test_blksz_bytes_and_reset(void **state)
{
	uint32_t ev;

	(void)state;
	mh_sdio_init(MMCHAL_BUS_SDIO_IRQ, 1);
	mh_sdio_to_tran();
	assert_int_equal(mh_ops->enable_sdio_irq(&mh, true), 0);
	assert_int_equal(rw(true, 0, 0x110, 0x01), R5_CMD | 0x01);
	assert_int_equal(rw(true, 0, 0x110, 0x02), R5_CMD | 0x02);
	assert_int_equal(mh.fn[1].blksz, 0x0002);
	assert_int_equal(rw(true, 0, 0x111, 0x01), R5_CMD | 0x01);
	assert_int_equal(mh.fn[1].blksz, 0x0102);
	assert_int_equal(rw(true, 0, 0x110, 0x00), R5_CMD | 0x00);
	assert_int_equal(mh.fn[1].blksz, 0x0100);
	assert_int_equal(rd(0, 0x111), 0x01);
	/* RES, then the card identified again with its interrupt enabled */
	assert_int_equal(rw(true, 0, 0x06, 0x08) & 0xff00u, R5_CMD);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
	assert_int_equal(mh.fn[1].blksz, 0);
	mh_sdio_to_tran();
	assert_int_equal(rw(true, 0, 0x04, 0x03), R5_CMD | 0x03);
	assert_int_equal(mmchal_mock_sdio_irq(&mh, 0x02), 0);
	assert_true(mmchal_mock_irq_pending(&mh));
	assert_int_equal(mh_ops->handle_irq(&mh, &ev), 0);
	assert_int_equal(ev, MMCHAL_EV_SDIO_IRQ);
}

/* The first byte past the CCCR and past the CIS area read 0 whatever the data
   bits of the read carry; a CMD53 that ends exactly at the image's end is in
   range; a CMD5 before the card is ready answers the OCR without the ready
   bit. */
static void test_area_ends(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	mh_sdio_init(MMCHAL_BUS_4_BIT, 1);
	mh_sdio_to_tran();
	assert_int_equal(rw(true, 0, 0x10, 0x40), R5_CMD | 0x40); /* function 0 block size */
	assert_int_equal(rw(false, 0, 0x20, 0x5a), R5_CMD | 0x00);
	assert_int_equal(rw(false, 0, 0x1000u + 0x80u, 0x5a), R5_CMD | 0x00);
	assert_int_equal(rw(false, 0, 0x1ff00, 0x5a), R5_CMD | 0x00);
	assert_int_equal(rd(0, 0x1000u), 0x20); /* CISTPL_MANFID, the area's first byte */
	assert_int_equal(mh_pio(53, 1u << 28 | 1u << 26 | (64u * 1024u - 4u) << 9 | 4u,
				MMCHAL_DIR_FROM_CARD, 4, 1, buf, &c, &d),
			 ALL_DONE);
	assert_int_equal(c.resp[0] & 0xff00u, R5_CMD);
	assert_memory_equal(buf, &mh_image[64u * 1024u - 4u], 4);

	mh_cfg(&cfg, MMCHAL_MOCK_SDIO, 64u * 1024u);
	cfg.sdio_functions = 1;
	cfg.op_cond_polls = 1;
	mh_init(&cfg);
	assert_int_equal(mh_cmd(5, 0, MMCHAL_RSP_R4, &c), CMD_DONE);
	assert_int_equal(mh_cmd(5, 0x00ff8000u, MMCHAL_RSP_R4, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 1u << 28 | 0x00ff8000u); /* one function, OCR, not ready */
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
	assert_int_equal(mh_cmd(5, 0x00ff8000u, MMCHAL_RSP_R4, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 1u << 31 | 1u << 28 | 0x00ff8000u);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_READY);
}

/* An R5 reports and clears what was pending and nothing else: the R6 of a CMD3
   asked again in stand-by after CMD52s carries only the RCA and the state. */
static void test_r5_clears_pending(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	mh_sdio_init(MMCHAL_BUS_4_BIT, 1);
	mh_sdio_to_tran();
	assert_int_equal(rd(0, 0x00), 0x43);
	assert_int_equal(rw(false, 2, 0x00, 0), R5_CMD | MMCHAL_MOCK_R5_FUNCTION);
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_STBY);
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MH_RCA << 16 | MMCHAL_MOCK_R1_STATE(MMCHAL_MOCK_ST_STBY) |
					    MMCHAL_MOCK_R1_READY_FOR_DATA);
}

/* CCCR and CMD52/CMD5/CMD3 edges: reserved bus width and UHS speeds refused,
   functions that do not exist, the image's end, reads outside every area, and
   the commands outside their states. */
static void test_cmd52_edges(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	mh_sdio_init(MMCHAL_BUS_4_BIT, 1);
	mh_sdio_to_tran();
	/* bus width 01 and 11 are not offered: nothing changes */
	assert_int_equal(rw(true, 0, 0x07, 0x01), R5_CMD | 0x00);
	assert_int_equal(rw(true, 0, 0x07, 0x03), R5_CMD | 0x00);
	assert_int_equal(mh.width, 1);
	assert_int_equal(rw(true, 0, 0x07, 0x82), R5_CMD | 0x82);
	assert_int_equal(mh.width, 4);
	assert_int_equal(rw(true, 0, 0x07, 0x00), R5_CMD | 0x00);
	assert_int_equal(mh.width, 1);
	/* BSS 2 (SDR50) is not offered: back to default speed */
	assert_int_equal(rw(true, 0, 0x13, 0x04), R5_CMD | 0x01);
	assert_int_equal(mh.hs, 0);
	/* function 2 does not exist; function 1 ends with the image */
	assert_int_equal(rw(false, 2, 0x00, 0), R5_CMD | MMCHAL_MOCK_R5_FUNCTION);
	assert_int_equal(rw(false, 1, 64u * 1024u, 0), R5_CMD | MMCHAL_MOCK_R5_OUT_OF_RANGE);
	assert_int_equal(rw(true, 1, 64u * 1024u, 0x5a), R5_CMD | MMCHAL_MOCK_R5_OUT_OF_RANGE);
	assert_int_equal(rd(1, 64u * 1024u - 1u), mh_pattern(64u * 1024u - 1u));
	assert_int_equal(mh_cmd(53, 2u << 28 | 4u, MMCHAL_RSP_R5, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R5_CMD | MMCHAL_MOCK_R5_FUNCTION);
	assert_int_equal(rd(1, 64u * 1024u - 1u), mh_pattern(64u * 1024u - 1u));
	/* function 0 outside the CCCR, FBRs and CIS reads 0; FBR of a missing function
	   and a non-block-size FBR byte are not written */
	assert_int_equal(rd(0, 0x1ff00), 0);
	assert_int_equal(rw(true, 0, 0x210, 0x40) & 0xff00u, R5_CMD);
	assert_int_equal(rw(true, 0, 0x112, 0x40) & 0xff00u, R5_CMD);
	assert_int_equal(mh.fn[1].blksz, 0);
	assert_int_equal(rw(true, 0, 0x110, 0x40), R5_CMD | 0x40);
	assert_int_equal(mh.fn[1].blksz, 0x40);
	/* CMD5 and CMD3 in tran: illegal */
	assert_int_equal(mh_cmd(5, 0x00ff8000u, MMCHAL_RSP_R4, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	/* CMD52 and CMD53 outside tran: illegal */
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(52, 0, MMCHAL_RSP_R5, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	assert_int_equal(mh_cmd(53, 1u << 28 | 4u, MMCHAL_RSP_R5, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);

	/* CMD5 with a voltage the card does not take: silent, inactive */
	mh_sdio_init(MMCHAL_BUS_4_BIT, 1);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(5, 0x00000080u, MMCHAL_RSP_R4, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_INA);
	/* inquiry in ready: the OCR with the ready bit */
	mh_sdio_init(MMCHAL_BUS_4_BIT, 1);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(5, 0x00ff8000u, MMCHAL_RSP_R4, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_READY);
	assert_int_equal(mh_cmd(5, 0, MMCHAL_RSP_R4, &c), CMD_DONE);
	assert_true(c.resp[0] & (1u << 31));
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_READY);
}

/* CMD53 byte mode on a function without memory (reads 0, writes dropped), CMD52
   ABORT without RES (no reset), CMD3 outside ready/stby. */
static void test_cmd53_other_function(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;
	uint8_t b4[4];

	(void)state;
	mh_sdio_init(MMCHAL_BUS_4_BIT, 2);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	mh_sdio_to_tran();
	memset(b4, 0x5a, sizeof(b4));
	/* function 2, byte mode, incrementing, address 0x10, 4 bytes */
	assert_int_equal(mh_pio(53, 2u << 28 | 1u << 26 | 0x10u << 9 | 4u, MMCHAL_DIR_FROM_CARD, 4,
				1, b4, &c, &d),
			 ALL_DONE);
	for (int i = 0; i < 4; i++)
		assert_int_equal(b4[i], 0);
	memset(b4, 0x77, sizeof(b4));
	assert_int_equal(mh_pio(53, 1u << 31 | 2u << 28 | 1u << 26 | 0x10u << 9 | 4u,
				MMCHAL_DIR_TO_CARD, 4, 1, b4, &c, &d),
			 ALL_DONE);
	assert_int_equal(mh_pio(53, 2u << 28 | 1u << 26 | 0x10u << 9 | 4u, MMCHAL_DIR_FROM_CARD, 4,
				1, b4, &c, &d),
			 ALL_DONE);
	assert_int_equal(b4[0], 0);
	/* function 1, fixed address at the image's last byte: that byte each time */
	assert_int_equal(mh_pio(53, 1u << 28 | (64u * 1024u - 1u) << 9 | 4u, MMCHAL_DIR_FROM_CARD,
				4, 1, b4, &c, &d),
			 ALL_DONE);
	for (int i = 0; i < 4; i++)
		assert_int_equal(b4[i], mh_pattern(64u * 1024u - 1u));
	/* a write to function 0 above the FBRs (the CIS): dropped */
	{
		uint8_t cis0 = rd(0, 0x1000);

		assert_int_equal(rw(true, 0, 0x1000, (uint8_t)~cis0), R5_CMD | cis0);
		assert_int_equal(rd(0, 0x1000), cis0);
	}
	/* ABORT of function 1 without RES: the card stays where it is */
	assert_int_equal(rw(true, 0, 0x06, 0x01) & 0xff00u, R5_CMD);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(mh.rca, MH_RCA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identification),
		cmocka_unit_test(test_cis),
		cmocka_unit_test(test_cccr),
		cmocka_unit_test(test_rw_extended),
		cmocka_unit_test(test_sdio_irq),
		cmocka_unit_test(test_cmd52_edges),
		cmocka_unit_test(test_blksz_bytes_and_reset),
		cmocka_unit_test(test_area_ends),
		cmocka_unit_test(test_r5_clears_pending),
		cmocka_unit_test(test_cmd53_other_function),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
