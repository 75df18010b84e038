/*
 * Tests of the mock SD card (src/backends/mock/mock_sd.c, mock_card.c):
 * exact responses and registers through identification, the state machine
 * and its R1 error bits, block data byte for byte, CMD23 and CMD12, SD
 * switch functions, SCR, SD status, erase, SDSC byte addressing.
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

#define R1_TRAN  (MMCHAL_MOCK_R1_STATE(4) | MMCHAL_MOCK_R1_READY_FOR_DATA)
#define CMD_DONE MMCHAL_EV_CMD_DONE
#define ALL_DONE (MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE)

static uint8_t buf[4 * 512];

static void sdhc(void)
{
	struct mmchal_mock_cfg cfg;

	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	mh_init(&cfg);
}

/* Every response of the identification sequence (PROTOCOL.md section 4), exact. */
static void test_identification_responses(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	sdhc();
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x1aa);
	/* CMD55 in idle: APP_CMD, READY_FOR_DATA, state idle. */
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x120);
	/* ACMD41 inquiry (window 0): OCR, busy, still idle. */
	assert_int_equal(mh_cmd(41, 0, MMCHAL_RSP_R3, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x00ff8000);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(41, 0x40ff8000, MMCHAL_RSP_R3, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0xc0ff8000); /* ready, CCS */
	assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_R2, &c), CMD_DONE);
	/* CID: MID 0x4d, OID "MK", PNM "MSDHC", PRV 1.0, PSN 0x01234567, MDT 2026-12. */
	assert_int_equal(c.resp[0], 0x4d4d4b4d);
	assert_int_equal(c.resp[1], 0x53444843);
	assert_int_equal(c.resp[2], 0x10012345);
	assert_int_equal(c.resp[3], 0x6701ac00);
	/* R6: RCA, state ident (2) and READY_FOR_DATA in [12:0]. */
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x12340500);
	/* CSD v2, C_SIZE 0 (512 KiB), TRAN_SPEED 0x32, CCC 0x5b5. */
	assert_int_equal(mh_cmd(9, MH_RCA << 16, MMCHAL_RSP_R2, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x400e0032);
	assert_int_equal(c.resp[1], 0x5b590000);
	assert_int_equal(c.resp[2], 0x00007f80);
	assert_int_equal(c.resp[3], 0x0a400000);
	/* CMD7: R1 in stby (3). */
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(3) | MMCHAL_MOCK_R1_READY_FOR_DATA);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
}

/*
 * R6 packs card status bits 23, 22 and 19 into [15:13] and keeps [12:0] (SD
 * spec 4.9.5). An illegal CMD2 in stby sets ILLEGAL_COMMAND; the other error
 * bits, which no command in stby raises, are set as a card would hold them
 * (CC_ERROR, bit 20, is one R6 does not carry; bit 3 is AKE_SEQ_ERROR).
 */
static void test_r6_status_bits(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	sdhc();
	mh_sd_to_tran();
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_STBY);
	assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_R2, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MH_RCA << 16 | 0x4000u | 0x0700u);
	mh.pending = MMCHAL_MOCK_R1_COM_CRC_ERROR | MMCHAL_MOCK_R1_ERROR | 1u << 3;
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MH_RCA << 16 | 0x8000u | 0x2000u | 0x0700u | 0x0008u);
	mh.pending = 1u << 20;
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MH_RCA << 16 | 0x0700u);
	/* reported once: the next R6 has none of them */
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MH_RCA << 16 | 0x0700u);
}

/* A v1.x host (no HCS) never sees an SDHC card ready, one that sets HCS at
   once; a voltage mismatch goes ina. */
static void test_acmd41_hcs_and_voltage(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	sdhc();
	for (int i = 0; i < 5; i++) {
		assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
		assert_int_equal(mh_cmd(41, 0x00ff8000, MMCHAL_RSP_R3, &c), CMD_DONE);
		assert_int_equal(c.resp[0], 0x00ff8000);
	}
	/* The same card is ready at once for a host that sets HCS after them. */
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(41, 0x40ff8000, MMCHAL_RSP_R3, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0xc0ff8000u);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_READY);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(41, 0x00000080, MMCHAL_RSP_R3, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_INA);
	/* An inactive card answers nothing, not even CMD0. */
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
}

/* op_cond_polls busy answers before power-up completes. */
static void test_acmd41_polls(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.op_cond_polls = 3;
	mh_init(&cfg);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
		assert_int_equal(mh_cmd(41, 0x40ff8000, MMCHAL_RSP_R3, &c), CMD_DONE);
		assert_int_equal(c.resp[0], i < 3 ? 0x00ff8000u : 0xc0ff8000u);
	}
}

/* Illegal in the state: no response (MMCHAL_EILSEQ by default), state kept,
   ILLEGAL_COMMAND in the next R1 only. Configurable to a plain timeout. */
static void test_illegal_command(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	sdhc();
	assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_R2, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	assert_int_equal(c.resp[0], 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x120 | MMCHAL_MOCK_R1_ILLEGAL_COMMAND);
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x120);

	mh_sd_to_tran();
	/* CMD17 in stby is illegal; the data phase is not run. */
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_STBY);
	assert_int_equal(mh_pio(17, 0, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d),
			 MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_ILLEGAL_COMMAND | MMCHAL_MOCK_R1_STATE(3) |
					    MMCHAL_MOCK_R1_READY_FOR_DATA);

	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.illegal_error = MMCHAL_ETIMEDOUT;
	mh_init(&cfg);
	assert_int_equal(mh_cmd(5, 0, MMCHAL_RSP_R4, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh_cmd(52, 0, MMCHAL_RSP_R5, &c), MMCHAL_EV_CMD_ERROR);
}

/* Single and multiple block reads and writes, CMD12 and CMD23, byte for byte. */
static void test_block_data(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	sdhc();
	mh_sd_to_tran();
	assert_int_equal(mh_pio(17, 3, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(d.error, 0);
	assert_memory_equal(buf, mh_image + 3 * 512, 512);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);

	/* Open-ended CMD18: the card stays in data until CMD12. */
	assert_int_equal(mh_pio(18, 10, MMCHAL_DIR_FROM_CARD, 512, 3, buf, &c, &d), ALL_DONE);
	assert_memory_equal(buf, mh_image + 10 * 512, 3 * 512);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DATA);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(5) | MMCHAL_MOCK_R1_READY_FOR_DATA);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(mmchal_mock_stats(&mh)->blocks_read, 4);
	assert_int_equal(mmchal_mock_stats(&mh)->blocks_written, 0);

	/* CMD23 + CMD25: back in tran by itself. */
	for (uint32_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(0xa5u ^ i);
	assert_int_equal(mh_cmd(23, 4, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_pio(25, 100, MMCHAL_DIR_TO_CARD, 512, 4, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_memory_equal(mh_image + 100 * 512, buf, 4 * 512);
	assert_int_equal(mh_image[99 * 512 + 511], mh_pattern(99 * 512 + 511));
	assert_int_equal(mh_image[104 * 512], mh_pattern(104 * 512));
	assert_int_equal(mmchal_mock_stats(&mh)->blocks_written, 4);
	assert_int_equal(mmchal_mock_stats(&mh)->blocks_read, 4);

	/* CMD23 is dropped unless CMD18/25 follows at once. */
	assert_int_equal(mh_cmd(23, 2, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_pio(18, 0, MMCHAL_DIR_FROM_CARD, 512, 2, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DATA);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);

	/* ACMD22: blocks of the last write. */
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_pio(22, 0, MMCHAL_DIR_FROM_CARD, 4, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[0] << 24 | buf[1] << 16 | buf[2] << 8 | buf[3], 4);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_APP_CMD);
}

/* Reads beyond the card: OUT_OF_RANGE at the command, or at the end of a
   multiple-block run (reported with CMD12). */
static void test_out_of_range(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;
	uint32_t last = MH_IMAGE_SIZE / 512 - 1;

	(void)state;
	sdhc();
	mh_sd_to_tran();
	assert_int_equal(mh_pio(17, last + 1, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_OUT_OF_RANGE);
	assert_int_equal(d.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);

	assert_int_equal(mh_pio(18, last - 1, MMCHAL_DIR_FROM_CARD, 512, 4, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(d.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh.blocks_done, 2);
	assert_memory_equal(buf, mh_image + (last - 1) * 512, 1024);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(5) | MMCHAL_MOCK_R1_READY_FOR_DATA |
					    MMCHAL_MOCK_R1_OUT_OF_RANGE);

	/* The same with CMD23's count: the card still stops at its end. */
	memset(buf, 0xa5, 4 * 512);
	assert_int_equal(mh_cmd(23, 4, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_pio(18, last - 1, MMCHAL_DIR_FROM_CARD, 512, 4, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh.blocks_done, 2);
	assert_memory_equal(buf, mh_image + (last - 1) * 512, 1024);
	assert_int_equal(buf[1024], 0xa5);
	assert_int_equal(buf[4 * 512 - 1], 0xa5);

	/* A block of the image framed as 256 bytes: the CRCs do not match. */
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	mh_sd_to_tran();
	memset(buf, 0xa5, 512);
	assert_int_equal(mh_pio(17, 3, MMCHAL_DIR_FROM_CARD, 256, 2, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(mh.blocks_done, 0);
	assert_int_equal(buf[0], 0xa5);
}

/* Bus width: ACMD6 changes the card, set_ios the host; a mismatch gives CRC errors. */
static void test_bus_width(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_ios ios = {25000000, MMCHAL_BUS_WIDTH_4, MMCHAL_TIMING_LEGACY,
				 MMCHAL_POWER_ON, MMCHAL_SIGNAL_330};
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.host.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_SD_HS;
	mh_init(&cfg);
	mh_sd_to_tran();
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(6, 2, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_APP_CMD);
	assert_int_equal(mh_pio(17, 0, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mh_pio(17, 0, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_memory_equal(buf, mh_image, 512);

	/* ACMD13: DAT_BUS_WIDTH 4 bit, AU_SIZE 9. */
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_pio(13, 0, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[0], 0x80);
	assert_int_equal(buf[10] >> 4, 9);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
}

/* ACMD51 SCR and CMD6 high speed; the CSD follows the speed. */
static void test_scr_and_switch(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;
	static const uint8_t scr[8] = {0x02, 0x05, 0x80, 0x02, 0, 0, 0, 0};

	(void)state;
	sdhc();
	mh_sd_to_tran();
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_pio(51, 0, MMCHAL_DIR_FROM_CARD, 8, 1, buf, &c, &d), ALL_DONE);
	assert_memory_equal(buf, scr, 8);
	assert_int_equal(mh_log[MH_LOG_LEN - 1].opcode, 0); /* the ring is not full yet */
	assert_int_equal(mmchal_mock_log_last(&mh)->opcode, 51 | MMCHAL_MOCK_ACMD);

	/* Mode 0 (check): HS supported, nothing changes; R1 from tran. */
	assert_int_equal(mh_pio(6, 0x00fffff1, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(buf[1], 100);
	assert_int_equal(buf[12] << 8 | buf[13], 0x8003);
	assert_int_equal(buf[16] & 0xf, 1);
	assert_int_equal(mh.hs, 0);
	/* Wrong length: the host frames 512 bytes for a 64-byte status. */
	assert_int_equal(mh_pio(6, 0x00fffff1, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	/* SDR50 is not offered: 0xF, no switch. */
	assert_int_equal(mh_pio(6, 0x80fffff2, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[16] & 0xf, 0xf);
	assert_int_equal(mh.hs, 0);
	assert_int_equal(mh_pio(6, 0x80fffff1, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[16] & 0xf, 1);
	assert_int_equal(mh.hs, 1);
	/* 0xF keeps the current function: high speed in group 1, default in 2-6. */
	assert_int_equal(mh_pio(6, 0x00ffffff, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[14], 0x00);
	assert_int_equal(buf[15], 0x00);
	assert_int_equal(buf[16], 0x01);
	/* Function 1 in groups 1, 3, 5 and then in 2, 4, 6: each group's
	   selection in its own nibble, 0xF where a group does not offer it. */
	assert_int_equal(mh_pio(6, 0x00010101, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[14], 0x0f);
	assert_int_equal(buf[15], 0x0f);
	assert_int_equal(buf[16], 0x01);
	assert_int_equal(mh_pio(6, 0x00101010, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[14], 0xf0);
	assert_int_equal(buf[15], 0xf0);
	assert_int_equal(buf[16], 0xf0);
	assert_int_equal(mh.hs, 1);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(9, MH_RCA << 16, MMCHAL_RSP_R2, &c), CMD_DONE);
	assert_int_equal(c.resp[0] & 0xff, 0x5a);
	/* CMD0 goes back to default speed. */
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh.hs, 0);
}

/* CMD32/33/38 erase: zeros in the range only; sequence and parameter errors. */
static void test_erase(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	sdhc();
	mh_sd_to_tran();
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_SEQ_ERROR);
	assert_int_equal(mh_cmd(33, 5, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_SEQ_ERROR);
	assert_int_equal(mh_cmd(32, 8, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(33, 7, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_PARAM);
	assert_int_equal(mh_cmd(32, 4, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(33, 6, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	for (uint32_t i = 4 * 512; i < 7 * 512; i++)
		assert_int_equal(mh_image[i], 0);
	assert_int_equal(mh_image[4 * 512 - 1], mh_pattern(4 * 512 - 1));
	assert_int_equal(mh_image[7 * 512], mh_pattern(7 * 512));
	assert_int_equal(mh_cmd(32, MH_IMAGE_SIZE / 512, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_OUT_OF_RANGE);
}

/* SDSC: CSD v1 size fields, CCS 0, byte addresses, ADDRESS_ERROR when misaligned. */
static void test_sdsc(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;
	uint32_t csize, mult;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDSC, 64u * 1024u);
	mh_init(&cfg);
	assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), CMD_DONE);
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(41, 0x40ff8000, MMCHAL_RSP_R3, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x80ff8000); /* ready, CCS 0 */
	assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_R2, &c), CMD_DONE);
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), CMD_DONE);
	assert_int_equal(mh_cmd(9, MH_RCA << 16, MMCHAL_RSP_R2, &c), CMD_DONE);
	assert_int_equal(c.resp[0] >> 30, 0); /* CSD v1 */
	/* C_SIZE [73:62] and C_SIZE_MULT [49:47]: 64 KiB = 32 * 4 * 512. */
	csize = ((c.resp[1] & 0x3ffu) << 2) | (c.resp[2] >> 30);
	mult = (c.resp[2] >> 15) & 7u;
	assert_int_equal((csize + 1u) << (mult + 2u + 9u), 64u * 1024u);
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mh_cmd(16, 512, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(mh_cmd(16, 1024, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(mh_pio(17, 5 * 512, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_memory_equal(buf, mh_image + 5 * 512, 512);
	assert_int_equal(mh_pio(17, 5, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ADDRESS_ERROR);
}

/* Without CMD23 in the SCR, CMD23 is illegal. */
static void test_no_cmd23(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.no_cmd23 = true;
	mh_init(&cfg);
	mh_sd_to_tran();
	assert_int_equal(mh_cmd(23, 1, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
}

/* The select / deselect rules while programming (SD spec 4.10 Table 4-42), the
   addressed-card rule, CMD10, CMD15 and commands out of their states. */
static void test_state_machine(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.busy_latency = 10;
	mh_init(&cfg);
	mh_sd_to_tran();
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_cmd(9, MH_RCA << 16, MMCHAL_RSP_R2, &c), MMCHAL_EV_CMD_ERROR);
	/* Another card's RCA: silence, no error bit. */
	assert_int_equal(mh_cmd(13, 0x4321u << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ILLEGAL_COMMAND);
	/* ACMD23 and ACMD42 are accepted; ACMD6 with a reserved width sets ERROR. */
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(23, 8, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_APP_CMD);
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(42, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(6, 1, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_APP_CMD | MMCHAL_MOCK_R1_ERROR);
	assert_int_equal(mh.width, 1);
	/* CMD55 + a command that is no ACMD: the standard command, no APP_CMD. */
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(16, 512, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(mmchal_mock_log_last(&mh)->opcode, 16);
	/* ...while CMD55 + 13 is ACMD13 (its data, not run by the host, is dropped). */
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(13, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_APP_CMD);
	assert_int_equal(mmchal_mock_log_last(&mh)->opcode, 13 | MMCHAL_MOCK_ACMD);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);

	/* Programming: deselect -> dis, reselect -> prg, end of busy -> tran. */
	assert_int_equal(mh_pio(24, 0, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_PRG);
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DIS);
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(8));
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_PRG);
	while (mh_ops->card_busy(&mh) == 1)
		;
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	/* Deselected while programming: dis, then stby when busy ends. */
	assert_int_equal(mh_pio(24, 0, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(7, 0x4321u << 16, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DIS);
	while (mh_ops->card_busy(&mh) == 1)
		;
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_STBY);
	/* CMD10 in stby; CMD15 sends the card to ina for good. */
	assert_int_equal(mh_cmd(10, MH_RCA << 16, MMCHAL_RSP_R2, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x4d4d4b4d);
	assert_int_equal(mh_cmd(15, 0x4321u << 16, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_STBY);
	assert_int_equal(mh_cmd(15, MH_RCA << 16, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_INA);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
}

/* Commands in states that do not take them (illegal), or that the card ignores
   (silent: no response), and the ones accepted there. */
static void test_state_table(void **state)
{
	enum { TRAN, STBY, IDLE, READY, IDENT };
	enum { OK, ILL, SIL };
	static const struct {
		int st;
		bool app;
		uint32_t op, arg, flags;
		int res;
	} t[] = {
		{STBY, true, 6, 2, MMCHAL_RSP_R1, ILL},
		{STBY, true, 13, 0, MMCHAL_RSP_R1, ILL},
		{STBY, true, 22, 0, MMCHAL_RSP_R1, ILL},
		{STBY, true, 23, 1, MMCHAL_RSP_R1, ILL},
		{STBY, true, 42, 0, MMCHAL_RSP_R1, ILL},
		{TRAN, true, 23, 1, MMCHAL_RSP_R1, OK},
		{TRAN, true, 42, 0, MMCHAL_RSP_R1, OK},
		{TRAN, true, 41, 0x40ff8000u, MMCHAL_RSP_R3, ILL},
		{TRAN, false, 3, 0, MMCHAL_RSP_R6, ILL},
		{STBY, false, 3, 0, MMCHAL_RSP_R6, OK},
		{STBY, false, 6, 0x80fffff1u, MMCHAL_RSP_R1, ILL},
		{TRAN, false, 8, 0x1aa, MMCHAL_RSP_R7, ILL},
		{IDLE, false, 8, 0x2aa, MMCHAL_RSP_R7, SIL},
		{READY, false, 55, 0, MMCHAL_RSP_R1, ILL},
		{IDENT, false, 55, 0, MMCHAL_RSP_R1, ILL},
		{TRAN, false, 55, (MH_RCA + 1u) << 16, MMCHAL_RSP_R1, SIL},
		{STBY, false, 9, (MH_RCA + 1u) << 16, MMCHAL_RSP_R2, SIL},
		{TRAN, false, 9, MH_RCA << 16, MMCHAL_RSP_R2, ILL},
		{IDLE, false, 13, MH_RCA << 16, MMCHAL_RSP_R1, ILL},
		{TRAN, false, 13, (MH_RCA + 1u) << 16, MMCHAL_RSP_R1, SIL},
		{IDLE, false, 15, MH_RCA << 16, MMCHAL_RSP_R1, ILL},
		{STBY, false, 16, 512, MMCHAL_RSP_R1, ILL},
		{STBY, false, 38, 0, MMCHAL_RSP_R1B, ILL},
		{STBY, false, 32, 0, MMCHAL_RSP_R1, ILL},
	};
	struct mmchal_cmd c;

	(void)state;
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t ev;

		sdhc();
		if (t[i].st == TRAN || t[i].st == STBY) {
			mh_sd_to_tran();
			if (t[i].st == STBY)
				assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
		} else {
			assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
			if (t[i].st != IDLE) {
				assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), CMD_DONE);
				assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
				assert_int_equal(mh_cmd(41, 0x40ff8000, MMCHAL_RSP_R3, &c),
						 CMD_DONE);
				assert_int_equal(mh.state, MMCHAL_MOCK_ST_READY);
			}
			if (t[i].st == IDENT)
				assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_R2, &c), CMD_DONE);
		}
		if (t[i].app)
			assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
		ev = mh_cmd(t[i].op, t[i].arg, t[i].flags, &c);
		if (t[i].res == OK) {
			assert_int_equal(ev & MMCHAL_EV_CMD_ERROR, 0);
			assert_int_equal(c.error, 0);
		} else {
			assert_int_equal(ev, MMCHAL_EV_CMD_ERROR);
			assert_int_equal(c.error,
					 t[i].res == ILL ? MMCHAL_EILSEQ : MMCHAL_ETIMEDOUT);
		}
	}
	/* CMD15 to another card: ignored, this one stays */
	sdhc();
	mh_sd_to_tran();
	assert_int_equal(mh_cmd(15, (MH_RCA + 1u) << 16, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(mh_cmd(15, MH_RCA << 16, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_INA);
	/* ACMD6 with a reserved width: ERROR in its response, width kept */
	sdhc();
	mh_sd_to_tran();
	assert_int_equal(mh.width, 1);
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(6, 1, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_true(c.resp[0] & MMCHAL_MOCK_R1_ERROR);
	assert_int_equal(mh.width, 1);
	assert_int_equal(mh_cmd(13, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0] & MMCHAL_MOCK_R1_ERROR, 0);
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(6, 2, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh.width, 4);
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(6, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh.width, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identification_responses),
		cmocka_unit_test(test_r6_status_bits),
		cmocka_unit_test(test_acmd41_hcs_and_voltage),
		cmocka_unit_test(test_acmd41_polls),
		cmocka_unit_test(test_illegal_command),
		cmocka_unit_test(test_block_data),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_bus_width),
		cmocka_unit_test(test_scr_and_switch),
		cmocka_unit_test(test_erase),
		cmocka_unit_test(test_sdsc),
		cmocka_unit_test(test_no_cmd23),
		cmocka_unit_test(test_state_machine),
		cmocka_unit_test(test_state_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
