/*
 * The mock cards' registers and status blocks byte for byte (mock_sd.c,
 * mock_mmc.c): CID, CSD (SDHC, SDSC, eMMC sector and byte mode), SCR and
 * EXT_CSD as init leaves them, and the CMD6 switch status, ACMD13 SD status
 * and ACMD22 block count as the host reads them; the SDIO CCCR and CIS
 * (mock_sdio.c), CCCR access, the power cycle and CMD5/CMD15/CMD53 edges.
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

#define ALL_DONE (MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE)

/* SD: CID MID 0x4d, OID "MK", PNM "MSDHC"/"MSDSC", PRV 1.0, PSN 0x01234567,
   MDT 2026-12, end bit; CSD v2.0/v1.0 TAAC 0x0e, TRAN_SPEED 0x32, CCC 0x5b5,
   READ_BL_LEN 9, ERASE_BLK_EN, SECTOR_SIZE 0x7f, R2W_FACTOR 2, WRITE_BL_LEN 9;
   SCR SD_SPEC 2, bus widths 1 and 4, SD_SPEC3, CMD23. */
static void test_sd_registers(void **state)
{
	static const uint8_t cid_hc[16] = {0x4d, 0x4d, 0x4b, 0x4d, 0x53, 0x44, 0x48, 0x43,
					   0x10, 0x01, 0x23, 0x45, 0x67, 0x01, 0xac, 0x01};
	/* C_SIZE 0: (0 + 1) x 512 KiB */
	static const uint8_t csd_hc[16] = {0x40, 0x0e, 0x00, 0x32, 0x5b, 0x59, 0x00, 0x00,
					   0x00, 0x00, 0x7f, 0x80, 0x0a, 0x40, 0x00, 0x01};
	static const uint8_t scr[8] = {0x02, 0x05, 0x80, 0x02, 0x00, 0x00, 0x00, 0x00};
	static const uint8_t scr_no23[8] = {0x02, 0x05, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00};
	/* VDD currents 0xfff, C_SIZE 31, C_SIZE_MULT 0: 32 x 4 x 512 = 64 KiB */
	static const uint8_t csd_sc[16] = {0x00, 0x0e, 0x00, 0x32, 0x5b, 0x59, 0x00, 0x07,
					   0xff, 0xfc, 0x7f, 0x80, 0x0a, 0x40, 0x00, 0x01};
	struct mmchal_mock_cfg cfg;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	assert_memory_equal(mh.cid, cid_hc, 16);
	assert_memory_equal(mh.csd, csd_hc, 16);
	assert_memory_equal(mh.scr, scr, 8);
	mh_cfg(&cfg, MMCHAL_MOCK_SDSC, 64u * 1024u);
	mh_init(&cfg);
	assert_memory_equal(mh.cid + 6, "SC", 2);
	assert_memory_equal(mh.cid + 8, cid_hc + 8, 8);
	assert_memory_equal(mh.csd, csd_sc, 16);
	assert_memory_equal(mh.scr, scr, 8);
	/* no_cmd23: CMD_SUPPORT bit 33 clear, nothing else changed */
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.no_cmd23 = true;
	mh_init(&cfg);
	assert_memory_equal(mh.scr, scr_no23, 8);
	assert_memory_equal(mh.csd, csd_hc, 16);
}

/* eMMC: CID MID 0x4d, CBX 1, OID 0x4b, PNM "MEMMC1", PRV 1.0, PSN, MDT 12/12;
   CSD 3/4.x, TAAC, NSAC, TRAN_SPEED, CCC 0x0f5, READ_BL_LEN 9, the size
   (saturated in sector mode), ERASE_GRP_SIZE/MULT 31, R2W 2, WRITE_BL_LEN 9;
   EXT_CSD with SEC_COUNT 1024 and the fixed bytes. */
static void test_mmc_registers(void **state)
{
	static const uint8_t cid[16] = {0x4d, 0x01, 0x4b, 0x4d, 0x45, 0x4d, 0x4d, 0x43,
					0x31, 0x10, 0x01, 0x23, 0x45, 0x67, 0xcc, 0x01};
	/* C_SIZE 0xfff, C_SIZE_MULT 7 */
	static const uint8_t csd[16] = {0xd0, 0x0e, 0x01, 0x32, 0x0f, 0x59, 0x03, 0xff,
					0xc0, 0x03, 0xff, 0xe0, 0x0a, 0x40, 0x00, 0x01};
	/* byte mode, 512 KiB: C_SIZE 255, C_SIZE_MULT 0 (256 x 4 x 512) */
	static const uint8_t csd_byte[16] = {0xd0, 0x0e, 0x01, 0x32, 0x0f, 0x59, 0x00, 0x3f,
					     0xc0, 0x00, 0x7f, 0xe0, 0x0a, 0x40, 0x00, 0x01};
	static const struct {
		uint16_t idx;
		uint8_t val;
	} ext[] = {
		{192, 0x08}, /* EXT_CSD_REV 8 */
		{194, 0x02}, /* CSD_STRUCTURE */
		{196, 0x57}, /* CARD_TYPE */
		{199, 0x0a}, /* PARTITION_SWITCH_TIME */
		{213, 0x04}, /* SEC_COUNT 0x400 */
		{221, 0x01}, /* HC_WP_GRP_SIZE */
		{223, 0x01}, /* ERASE_TIMEOUT_MULT */
		{224, 0x01}, /* HC_ERASE_GRP_SIZE */
		{231, 0x10}, /* SEC_FEATURE_SUPPORT */
		{232, 0x01}, /* TRIM_MULT */
		{248, 0x0a}, /* GENERIC_CMD6_TIME */
		{504, 0x01}, /* S_CMD_SET */
	};
	uint8_t want[MMCHAL_MOCK_EXT_CSD_SIZE];
	struct mmchal_mock_cfg cfg;

	(void)state;
	memset(want, 0, sizeof(want));
	for (unsigned int i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		want[ext[i].idx] = ext[i].val;
	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	assert_memory_equal(mh.cid, cid, 16);
	assert_memory_equal(mh.csd, csd, 16);
	assert_memory_equal(mh.ext_csd, want, sizeof(want));
	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
	cfg.emmc_byte_mode = true;
	mh_init(&cfg);
	assert_memory_equal(mh.csd, csd_byte, 16);
	assert_memory_equal(mh.ext_csd, want, sizeof(want));
}

/* CMD6 with requests no group 2-6 supports, the SD status and ACMD22, each
   read after another status block filled the buffer; ACMD22 after writes of
   1 and 0x203 blocks, and its byte order. */
static void test_sd_status_blocks(void **state)
{
	static uint8_t big[0x203u * 512u];
	uint8_t buf[64], want[64], blk[512];
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	mh_init(&cfg);
	mh_sd_to_tran();
	memset(blk, 0x3c, sizeof(blk));
	assert_int_equal(mh_pio(24, 7, MMCHAL_DIR_TO_CARD, 512, 1, blk, &c, &d), ALL_DONE);

	/* the SCR first, so that the CMD6 status below is read over its bytes */
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_pio(51, 0, MMCHAL_DIR_FROM_CARD, 8, 1, buf, &c, &d), ALL_DONE);
	assert_memory_equal(buf, mh.scr, 8);
	assert_int_equal(buf[0], 0x02);

	/* check mode: high speed in group 1, function 1 in groups 2-6 (none has it) */
	assert_int_equal(mh_pio(6, 0x00111111u, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d),
			 ALL_DONE);
	memset(want, 0, sizeof(want));
	want[1] = 100; /* maximum current */
	for (unsigned int g = 0; g < 6; g++) {
		want[12 - 2 * g] = 0x80;
		want[13 - 2 * g] = g == 0 ? 0x03 : 0x01;
	}
	want[14] = 0xff; /* groups 6, 5: 0xf = cannot switch */
	want[15] = 0xff; /* groups 4, 3 */
	want[16] = 0xf1; /* group 2: 0xf, group 1: high speed */
	assert_memory_equal(buf, want, 64);

	/* SD status: 1-bit bus, SPEED_CLASS 4, AU_SIZE 9, ERASE_SIZE 1,
	   ERASE_TIMEOUT 1, ERASE_OFFSET 1; nothing left of the CMD6 status */
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_pio(13, 0, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d), ALL_DONE);
	memset(want, 0, sizeof(want));
	want[8] = 4;
	want[10] = 0x90;
	want[12] = 0x01;
	want[13] = 0x05;
	assert_memory_equal(buf, want, 64);

	/* ACMD22 after CMD6: one block written, big-endian, nothing else */
	assert_int_equal(mh_pio(6, 0x00fffff1u, MMCHAL_DIR_FROM_CARD, 64, 1, buf, &c, &d),
			 ALL_DONE);
	assert_int_equal(buf[1], 100);
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(mh_pio(22, 0, MMCHAL_DIR_FROM_CARD, 4, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[1], 0);
	assert_int_equal(buf[2], 0);
	assert_int_equal(buf[3], 1);
	assert_int_equal(buf[4], 0xee);

	/* 0x203 blocks in one open-ended write: the count in two bytes */
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7u);
	assert_int_equal(mh_pio(25, 0, MMCHAL_DIR_TO_CARD, 512, 0x203, big, &c, &d), ALL_DONE);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_memory_equal(mh_image, big, sizeof(big));
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_pio(22, 0, MMCHAL_DIR_FROM_CARD, 4, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[0], 0x00);
	assert_int_equal(buf[1], 0x00);
	assert_int_equal(buf[2], 0x02);
	assert_int_equal(buf[3], 0x03);

	/* The upper two bytes need writes of 32 MiB and 8 GiB: the count is set
	   as such a write would leave it, to check where each byte goes. */
	mh.last_written = 0x04030201u;
	assert_int_equal(mh_cmd(55, MH_RCA << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_pio(22, 0, MMCHAL_DIR_FROM_CARD, 4, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[0], 0x04);
	assert_int_equal(buf[1], 0x03);
	assert_int_equal(buf[2], 0x02);
	assert_int_equal(buf[3], 0x01);
}

/* SDIO with two functions: the CCCR and CIS as init leaves them (CCCR 3.00 /
   SDIO 3.00, SD 3.01, SMB and S4MI, common CIS at 0x1000, SHS; CISTPL_MANFID
   0x02d0/0x4d4b, CISTPL_FUNCID 0x0c, CISTPL_FUNCE of function 0 with 512-byte
   blocks and 25 Mbit/s, CISTPL_END; the function CIS at 0x1020 with a 42-byte
   CISTPL_FUNCE: type 1, 512-byte blocks, OCR 0xff8000, 100 ms enable). */
static void test_sdio_registers(void **state)
{
	static const uint8_t cccr[0x20] = {
		0x43, 0x03, 0, 0, 0, 0, 0, 0, 0x12, 0, 0x10, 0, 0, 0, 0, 0,
		0,    0,    0, 1, 0, 0, 0, 0, 0,    0, 0,    0, 0, 0, 0, 0,
	};
	static const uint8_t cis_common[17] = {0x20, 0x04, 0xd0, 0x02, 0x4b, 0x4d, 0x21, 0x02, 0x0c,
					       0x00, 0x22, 0x04, 0x00, 0x00, 0x02, 0x32, 0xff};
	uint8_t cis[0x80];
	struct mmchal_mock_cfg cfg;

	(void)state;
	memset(cis, 0, sizeof(cis));
	memcpy(cis, cis_common, sizeof(cis_common));
	cis[0x20] = 0x21;
	cis[0x21] = 0x02;
	cis[0x22] = 0x0c;
	cis[0x24] = 0x22;
	cis[0x25] = 42;
	cis[0x26 + 0] = 0x01;
	cis[0x26 + 12] = 0x00;
	cis[0x26 + 13] = 0x02;
	cis[0x26 + 14] = 0x00;
	cis[0x26 + 15] = 0x80;
	cis[0x26 + 16] = 0xff;
	cis[0x26 + 28] = 10;
	cis[0x26 + 42] = 0xff;
	mh_cfg(&cfg, MMCHAL_MOCK_SDIO, 64u * 1024u);
	cfg.sdio_functions = 2;
	mh_init(&cfg);
	assert_memory_equal(mh.cccr, cccr, sizeof(cccr));
	assert_memory_equal(mh.cis, cis, sizeof(cis));
}

/* CMD52 as the whole R5. */
static uint32_t sdio_rw(bool write, bool raw, uint32_t fn, uint32_t addr, uint8_t v)
{
	struct mmchal_cmd c;
	uint32_t arg = (write ? 1u << 31 : 0u) | fn << 28 | (raw ? 1u << 27 : 0u) | addr << 9 | v;

	assert_int_equal(mh_cmd(52, arg, MMCHAL_RSP_R5, &c), MMCHAL_EV_CMD_DONE);
	return c.resp[0];
}

#define R5_CMD MMCHAL_MOCK_R5_STATE(1)

static void sdio_one_fn(uint32_t op_cond_polls)
{
	struct mmchal_mock_cfg cfg;

	mh_cfg(&cfg, MMCHAL_MOCK_SDIO, 64u * 1024u);
	cfg.sdio_functions = 1;
	cfg.op_cond_polls = op_cond_polls;
	mh_init(&cfg);
}

/* CCCR writes and reads: IEN keeps only existing functions and the master
   bit, the function 0 block size reads back, a write without RAW answers 0,
   a read beyond function 1's memory is 0. */
static void test_sdio_cccr_access(void **state)
{
	(void)state;
	sdio_one_fn(0);
	mh_sdio_to_tran();
	assert_int_equal(sdio_rw(true, true, 0, 0x04, 0xff), R5_CMD | 0x03);
	assert_int_equal(sdio_rw(true, true, 0, 0x04, 0x01), R5_CMD | 0x01);
	assert_int_equal(sdio_rw(true, false, 0, 0x10, 0x40), R5_CMD | 0x00);
	assert_int_equal(sdio_rw(true, false, 0, 0x11, 0x01), R5_CMD | 0x00);
	assert_int_equal(sdio_rw(false, false, 0, 0x10, 0x00), R5_CMD | 0x40);
	assert_int_equal(sdio_rw(false, false, 0, 0x11, 0xaa), R5_CMD | 0x01);
	/* function 1 memory: a write without RAW answers 0, with RAW the byte */
	assert_int_equal(sdio_rw(true, false, 1, 5, 0x5a), R5_CMD | 0x00);
	assert_int_equal(mh_image[5], 0x5a);
	assert_int_equal(sdio_rw(true, true, 1, 6, 0xa5), R5_CMD | 0xa5);
	assert_int_equal(sdio_rw(false, false, 1, 5, 0x77), R5_CMD | 0x5a);
	/* FBR 1 byte 0 (interface code) reads 0 */
	assert_int_equal(sdio_rw(false, false, 0, 0x100, 0x33), R5_CMD | 0x00);
}

/* A power cycle resets block size and high speed. */
static void test_sdio_power_cycle(void **state)
{
	struct mmchal_ios ios = {.bus_width = MMCHAL_BUS_WIDTH_1, .power_mode = MMCHAL_POWER_OFF};
	struct mmchal_mock_status st;

	(void)state;
	sdio_one_fn(0);
	mh_sdio_to_tran();
	assert_int_equal(sdio_rw(true, true, 0, 0x10, 0x40), R5_CMD | 0x40);
	assert_int_equal(sdio_rw(true, true, 0, 0x13, 0x02), R5_CMD | 0x03);
	assert_int_equal(sdio_rw(true, true, 0, 0x02, 0x02), R5_CMD | 0x02); /* IOE: fn 1 */
	assert_int_equal(sdio_rw(true, true, 0, 0x04, 0x03), R5_CMD | 0x03); /* IEN */
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.hs_timing, 1);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	ios.power_mode = MMCHAL_POWER_ON;
	ios.clock_hz = 400000;
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	assert_int_equal(mmchal_mock_status(&mh, &st), 0);
	assert_int_equal(st.hs_timing, 0);
	mh_sdio_to_tran();
	assert_int_equal(sdio_rw(false, false, 0, 0x10, 0), R5_CMD | 0x00);
	assert_int_equal(sdio_rw(false, false, 0, 0x13, 0), R5_CMD | 0x01);
	/* the function and interrupt enables are off again */
	assert_int_equal(sdio_rw(false, false, 0, 0x02, 0), R5_CMD | 0x00);
	assert_int_equal(sdio_rw(false, false, 0, 0x03, 0), R5_CMD | 0x00);
	assert_int_equal(sdio_rw(false, false, 0, 0x04, 0), R5_CMD | 0x00);
}

/* CMD5 with one busy poll; CMD15 sends the card to ina; a fixed-address
   CMD53 at the end of function 1's memory is out of range. */
static void test_sdio_commands(void **state)
{
	struct mmchal_cmd c;
	static uint8_t buf[4];
	uint8_t big[8];
	struct mmchal_data d;

	(void)state;
	sdio_one_fn(1);
	assert_int_equal(mh_cmd(5, 0, MMCHAL_RSP_R4, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(5, 0x00ff8000, MMCHAL_RSP_R4, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0] & 0x80000000u, 0);
	assert_int_equal(mh_cmd(5, 0x00ff8000, MMCHAL_RSP_R4, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0] & 0x80000000u, 0x80000000u);
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R6, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);

	/* CMD53 byte mode, fixed address 0x10000 (= the image size): refused;
	   0xffff: one byte */
	assert_int_equal(mh_cmd(53, 1u << 28 | 0x10000u << 9 | 1u, MMCHAL_RSP_R5, &c),
			 MMCHAL_EV_CMD_DONE);
	assert_int_equal(c.resp[0], R5_CMD | MMCHAL_MOCK_R5_OUT_OF_RANGE);
	assert_int_equal(
		mh_pio(53, 1u << 28 | 0xffffu << 9 | 1u, MMCHAL_DIR_FROM_CARD, 1, 1, buf, &c, &d),
		MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(buf[0], mh_image[0xffff]);

	/* CMD53 block mode, open-ended, from 4 bytes before the end: the bytes
	   past the end of function 1's memory read 0 */
	assert_int_equal(sdio_rw(true, true, 0, 0x110, 4), R5_CMD | 4);
	memset(big, 0xee, sizeof(big));
	assert_int_equal(mh_pio(53, 1u << 28 | 1u << 27 | 1u << 26 | 0xfffcu << 9,
				MMCHAL_DIR_FROM_CARD, 4, 2, big, &c, &d),
			 MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_memory_equal(big, mh_image + 0xfffc, 4);
	assert_int_equal(big[4], 0);
	assert_int_equal(big[7], 0);
	assert_int_equal(sdio_rw(true, false, 0, 0x06, 0x01), R5_CMD | 0x00); /* abort */

	assert_int_equal(mh_cmd(15, MH_RCA << 16, MMCHAL_RSP_NONE, &c), MMCHAL_EV_CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_INA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sd_registers),     cmocka_unit_test(test_mmc_registers),
		cmocka_unit_test(test_sd_status_blocks), cmocka_unit_test(test_sdio_registers),
		cmocka_unit_test(test_sdio_cccr_access), cmocka_unit_test(test_sdio_power_cycle),
		cmocka_unit_test(test_sdio_commands),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
