/*
 * Tests of the mock eMMC (src/backends/mock/mock_mmc.c): identification
 * with exact OCR, CID and CSD, SD probing met with silence, EXT_CSD as data,
 * CMD6 SWITCH (bus width, HS_TIMING and their ordering rules, refused
 * switches), blocks with CMD23, CMD35/36/38 erase, byte mode, RST_n.
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

#define CMD_DONE         MMCHAL_EV_CMD_DONE
#define ALL_DONE         (MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE)
#define R1_TRAN          (MMCHAL_MOCK_R1_STATE(4) | MMCHAL_MOCK_R1_READY_FOR_DATA)
#define SWITCH(idx, val) (0x03000000u | (uint32_t)(idx) << 16 | (uint32_t)(val) << 8)

static uint8_t ext[512];
static uint8_t buf[4 * 512];

static void emmc(uint8_t card_type, uint32_t bus)
{
	struct mmchal_mock_cfg cfg;

	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
	cfg.emmc_card_type = card_type;
	cfg.host.bus = bus;
	mh_init(&cfg);
}

static uint32_t status(void)
{
	struct mmchal_cmd c;

	assert_int_equal(mh_cmd(13, 1u << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	return c.resp[0];
}

static void read_ext_csd(void)
{
	struct mmchal_cmd c;
	struct mmchal_data d;

	assert_int_equal(mh_pio(8, 0, MMCHAL_DIR_FROM_CARD, 512, 1, ext, &c, &d), ALL_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
}

static void test_identification(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	emmc(0, 0);
	/* SD probing: CMD8 (SEND_EXT_CSD, illegal in idle), CMD55, CMD5 are silent. */
	assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_cmd(5, 0, MMCHAL_RSP_R4, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_cmd(1, 0, MMCHAL_RSP_R3, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x40ff8080); /* inquiry: sector mode, busy */
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
	assert_int_equal(mh_cmd(1, 0x40ff8080, MMCHAL_RSP_R3, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0xc0ff8080);
	assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_R2, &c), CMD_DONE);
	/* CID: MID 0x4d, CBX 1, OID 0x4b, "MEMMC1", PRV 1.0, PSN, MDT 12/2025. */
	assert_int_equal(c.resp[0], 0x4d014b4d);
	assert_int_equal(c.resp[1], 0x454d4d43);
	assert_int_equal(c.resp[2], 0x31100123);
	assert_int_equal(c.resp[3], 0x4567cc00);
	assert_int_equal(mh_cmd(3, 0, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR); /* RCA 0 */
	assert_int_equal(mh_cmd(3, 1u << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], MMCHAL_MOCK_R1_STATE(2) | MMCHAL_MOCK_R1_READY_FOR_DATA |
					    MMCHAL_MOCK_R1_ILLEGAL_COMMAND);
	assert_int_equal(mh_cmd(9, 1u << 16, MMCHAL_RSP_R2, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0xd00e0132);
	assert_int_equal((c.resp[1] >> 20) & 0xfff, 0x0f5); /* CCC */
	assert_int_equal(mh_cmd(7, 1u << 16, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN);
	read_ext_csd();
	assert_int_equal(ext[192], 8);    /* EXT_CSD_REV 5.1 */
	assert_int_equal(ext[196], 0x57); /* CARD_TYPE default */
	assert_int_equal(ext[212] | ext[213] << 8 | ext[214] << 16 | ext[215] << 24,
			 MH_IMAGE_SIZE / 512);
	assert_int_equal(ext[248], 10);
	assert_int_equal(ext[183], 0);
	assert_int_equal(ext[185], 0);
}

static void test_op_cond_polls(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
	cfg.op_cond_polls = 2;
	mh_init(&cfg);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(mh_cmd(1, 0x40ff8080, MMCHAL_RSP_R3, &c), CMD_DONE);
		assert_int_equal(c.resp[0], i < 2 ? 0x40ff8080u : 0xc0ff8080u);
	}
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_READY);
}

/* The Linux / PROTOCOL.md section 4 order: HS_TIMING, width, and the HS400 path. */
static void test_switch(void **state)
{
	struct mmchal_ios ios = {52000000, MMCHAL_BUS_WIDTH_8, MMCHAL_TIMING_MMC_HS,
				 MMCHAL_POWER_ON, MMCHAL_SIGNAL_330};
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	emmc(0, MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS);
	mh_mmc_to_tran();
	assert_int_equal(mh_cmd(6, 0x03b90100, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(status(), R1_TRAN);
	assert_int_equal(mh_cmd(6, 0x03b70200, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN);
	assert_int_equal(mh.width, 8);
	/* The host is still at 1 bit: the EXT_CSD read fails on CRC. */
	assert_int_equal(mh_pio(8, 0, MMCHAL_DIR_FROM_CARD, 512, 1, ext, &c, &d),
			 CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(mh_ops->set_ios(&mh, &ios), 0);
	read_ext_csd();
	assert_int_equal(ext[183], 2);
	assert_int_equal(ext[185], 1);

	/* HS400 only after BUS_WIDTH = 6, which needs HS_TIMING = 1. */
	assert_int_equal(mh_cmd(6, SWITCH(185, 3), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN); /* reported with the next status */
	assert_int_equal(status(), R1_TRAN | MMCHAL_MOCK_R1_SWITCH_ERROR);
	assert_int_equal(status(), R1_TRAN);
	assert_int_equal(mh_cmd(6, SWITCH(183, 6), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN);
	assert_int_equal(mh_cmd(6, SWITCH(185, 3), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN);
	assert_int_equal(mh.hs, 3);
	/* DDR width while HS_TIMING is 3 (not 1): refused. */
	assert_int_equal(mh_cmd(6, SWITCH(183, 5), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN | MMCHAL_MOCK_R1_SWITCH_ERROR);
	/* Read-only byte, partition access to a partition that does not exist,
	   bad values: refused, nothing changes. */
	assert_int_equal(mh_cmd(6, SWITCH(192, 1), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN | MMCHAL_MOCK_R1_SWITCH_ERROR);
	assert_int_equal(mh_cmd(6, SWITCH(179, 1), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN | MMCHAL_MOCK_R1_SWITCH_ERROR);
	assert_int_equal(mh_cmd(6, SWITCH(183, 3), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN | MMCHAL_MOCK_R1_SWITCH_ERROR);
	/* Set bits (access 01) and clear bits (access 10). */
	assert_int_equal(mh_cmd(6, 0x01af0100, MMCHAL_RSP_R1B, &c), CMD_DONE); /* 175 |= 1 */
	assert_int_equal(status(), R1_TRAN);
	assert_int_equal(mh.ext_csd[175], 1);
	assert_int_equal(mh_cmd(6, 0x02af0100, MMCHAL_RSP_R1B, &c), CMD_DONE); /* 175 &= ~1 */
	assert_int_equal(mh.ext_csd[175], 0);
	assert_int_equal(mh.ext_csd[192], 8);
	/* CMD6 outside tran is illegal. */
	assert_int_equal(mh_cmd(7, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(6, 0x03b90100, MMCHAL_RSP_R1B, &c), MMCHAL_EV_CMD_ERROR);
}

/* A card without HS200: HS_TIMING = 2 refused. Busy after SWITCH with busy_latency. */
static void test_switch_card_type_and_busy(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
	cfg.emmc_card_type = 0x03;
	cfg.busy_latency = 2; /* one look is taken by the handle_irq that completes CMD6 */
	mh_init(&cfg);
	mh_mmc_to_tran();
	assert_int_equal(mh_cmd(6, 0x03b70100, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_PRG);
	assert_int_equal(mh_ops->card_busy(&mh), 1);
	assert_int_equal(mh_ops->card_busy(&mh), 0);
	assert_int_equal(mh_cmd(6, SWITCH(185, 2), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mh_ops->card_busy(&mh), 1);
	assert_int_equal(mh_ops->card_busy(&mh), 0);
	assert_int_equal(status(), R1_TRAN | MMCHAL_MOCK_R1_SWITCH_ERROR);
	assert_int_equal(mh.ext_csd[185], 0);
}

static void test_blocks_and_erase(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	emmc(0, 0);
	mh_mmc_to_tran();
	memset(buf, 0x77, sizeof(buf));
	/* CMD23 with the reliable-write bit: the count is [15:0]. */
	assert_int_equal(mh_cmd(23, 0x80000003u, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_pio(25, 50, MMCHAL_DIR_TO_CARD, 512, 3, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
	assert_memory_equal(mh_image + 50 * 512, buf, 3 * 512);
	assert_int_equal(mh_pio(17, 51, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(buf[0], 0x77);
	/* SD erase commands are illegal; CMD35/36/38 erase. */
	assert_int_equal(mh_cmd(32, 50, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_cmd(35, 50, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ILLEGAL_COMMAND);
	assert_int_equal(mh_cmd(36, 51, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	for (uint32_t i = 50 * 512; i < 52 * 512; i++)
		assert_int_equal(mh_image[i], 0);
	assert_int_equal(mh_image[52 * 512], 0x77);
	/* SD commands an eMMC does not have. */
	assert_int_equal(mh_cmd(55, 1u << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(mh_ops->execute_tuning(&mh, 21), 0);
	assert_int_equal(mh_ops->execute_tuning(&mh, 19), MMCHAL_EINVAL);
}

static void test_byte_mode(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
	cfg.emmc_byte_mode = true;
	mh_init(&cfg);
	assert_int_equal(mh_cmd(1, 0x40ff8080, MMCHAL_RSP_R3, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x80ff8080);
	assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_R2, &c), CMD_DONE);
	assert_int_equal(mh_cmd(3, 1u << 16, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(9, 1u << 16, MMCHAL_RSP_R2, &c), CMD_DONE);
	{
		uint32_t csize = ((c.resp[1] & 0x3ffu) << 2) | (c.resp[2] >> 30);
		uint32_t mult = (c.resp[2] >> 15) & 7u;

		assert_int_equal((uint64_t)(csize + 1u) << (mult + 2u + 9u), MH_IMAGE_SIZE);
	}
	assert_int_equal(mh_cmd(7, 1u << 16, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mh_pio(17, 9 * 512, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_memory_equal(buf, mh_image + 9 * 512, 512);
	assert_int_equal(mh_pio(17, 9, MMCHAL_DIR_FROM_CARD, 512, 1, buf, &c, &d),
			 CMD_DONE | MMCHAL_EV_DATA_ERROR);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ADDRESS_ERROR);
}

/* RST_n: the eMMC goes back to idle with default width and timing. */
static void test_hw_reset(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	emmc(0, MMCHAL_BUS_HW_RESET | MMCHAL_BUS_8_BIT);
	mh_mmc_to_tran();
	assert_int_equal(mh_cmd(6, 0x03b70200, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mh.width, 8);
	assert_int_equal(mh_ops->hw_reset(&mh), 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
	assert_int_equal(mh.width, 1);
	assert_int_equal(mh.ext_csd[183], 0);
	assert_int_equal(mh.rca, 0);
	mh_mmc_to_tran();
}

/* Every writable EXT_CSD byte at the edge of its range, and the timing / width
   ordering rules, from a fresh card each: accepted (the byte holds the value) or
   refused with SWITCH_ERROR (the byte unchanged). */
static void test_switch_ranges(void **state)
{
	static const struct {
		uint8_t ct;      /* CARD_TYPE; 0 = the default 0x57 */
		uint8_t pre_idx; /* a switch made first; 0 = none */
		uint8_t pre_val;
		uint8_t idx, val;
		bool ok;
	} t[] = {
		{0, 0, 0, 33, 1, true},        {0, 0, 0, 33, 2, false},
		{0, 0, 0, 175, 1, true},       {0, 0, 0, 175, 2, false},
		{0, 0, 0, 34, 4, true},        {0, 0, 0, 34, 5, false},
		{0, 0, 0, 161, 1, true},       {0, 0, 0, 161, 2, false},
		{0, 0, 0, 162, 2, true},       {0, 0, 0, 162, 3, false},
		{0, 0, 0, 179, 0x48, true},    {0, 0, 0, 179, 0x09, false},
		{0, 0, 0, 187, 0xff, true},    {0, 0, 0, 183, 0, true},
		{0, 0, 0, 183, 1, true},       {0, 0, 0, 183, 4, false},
		{0, 0, 0, 183, 5, false},      {0, 185, 1, 183, 5, true},
		{0, 185, 1, 183, 6, true},     {0x13, 185, 1, 183, 6, false},
		{0, 0, 0, 183, 7, false},      {0, 0, 0, 185, 0, true},
		{0x0c, 0, 0, 185, 1, false},   {0x01, 0, 0, 185, 1, true},
		{0x02, 0, 0, 185, 1, true},    {0, 0, 0, 185, 2, false},
		{0, 183, 1, 185, 2, true},     {0, 183, 2, 185, 2, true},
		{0x03, 183, 2, 185, 2, false}, {0, 183, 2, 185, 3, false},
		{0, 0, 0, 185, 4, false},      {0, 0, 0, 185, 0x12, false},
		{0, 0, 0, 185, 0x1f, false},   {0, 0, 0, 196, 0x57, false},
	};
	struct mmchal_cmd c;

	(void)state;
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint8_t before;

		emmc(t[i].ct, MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS);
		mh_mmc_to_tran();
		if (t[i].pre_idx) {
			assert_int_equal(
				mh_cmd(6, SWITCH(t[i].pre_idx, t[i].pre_val), MMCHAL_RSP_R1B, &c),
				CMD_DONE);
			assert_int_equal(status(), R1_TRAN);
		}
		before = mh.ext_csd[t[i].idx];
		assert_int_equal(mh_cmd(6, SWITCH(t[i].idx, t[i].val), MMCHAL_RSP_R1B, &c),
				 CMD_DONE);
		assert_int_equal(status(),
				 t[i].ok ? R1_TRAN : R1_TRAN | MMCHAL_MOCK_R1_SWITCH_ERROR);
		assert_int_equal(mh.ext_csd[t[i].idx], t[i].ok ? t[i].val : before);
		if (t[i].ok && t[i].idx == 185)
			assert_int_equal(mh.hs, t[i].val & 0x0fu);
		if (t[i].ok && t[i].idx == 183)
			assert_int_equal(mh.width, t[i].val == 0 ? 1u : (t[i].val & 1u) ? 4u : 8u);
	}
}

/* Identification commands outside their states, a foreign voltage, the CMD6
   command-set access (changes nothing) and HS400 on a card without it. */
static void test_mmc_states(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	emmc(0, MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	/* CMD2 and CMD3 in idle: illegal */
	assert_int_equal(mh_cmd(2, 0, MMCHAL_RSP_R2, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	assert_int_equal(mh_cmd(3, 1u << 16, MMCHAL_RSP_R1, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	/* CMD1 with a voltage window the card does not take: silent, inactive */
	assert_int_equal(mh_cmd(1, 0x00000001u, MMCHAL_RSP_R3, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_INA);

	emmc(0x17, MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS); /* no HS400 */
	mh_mmc_to_tran();
	/* CMD1 in tran: illegal */
	assert_int_equal(mh_cmd(1, 0x40ff8080, MMCHAL_RSP_R3, &c), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	/* access 00 (command set): accepted, nothing written */
	assert_int_equal(mh_cmd(6, 0x00b70200, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN);
	assert_int_equal(mh.ext_csd[183], 0);
	/* HS400 at 8-bit DDR, but the card has no HS400 */
	assert_int_equal(mh_cmd(6, SWITCH(185, 1), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mh_cmd(6, SWITCH(183, 6), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN);
	assert_int_equal(mh_cmd(6, SWITCH(185, 3), MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(status(), R1_TRAN | MMCHAL_MOCK_R1_SWITCH_ERROR);
	assert_int_equal(mh.hs, 1);
}

/*
 * What a reset puts back (JEDEC 5.1 section 7.4: BUS_WIDTH, HS_TIMING and
 * ERASE_GROUP_DEF are reset by CMD0 and RST_n): width and timing to the
 * defaults, the status's hs_timing with them; the boot bits of
 * PARTITION_CONFIG stay. Set-bits and clear-bits SWITCH act on the byte's
 * current value.
 */
static void test_reset_bytes(void **state)
{
	struct mmchal_mock_status st;
	struct mmchal_cmd c;

	(void)state;
	for (int how = 0; how < 2; how++) {
		emmc(0, MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS | MMCHAL_BUS_HW_RESET);
		mh_mmc_to_tran();
		assert_int_equal(mh_cmd(6, SWITCH(185, 1), MMCHAL_RSP_R1B, &c), CMD_DONE);
		assert_int_equal(mh_cmd(6, SWITCH(183, 2), MMCHAL_RSP_R1B, &c), CMD_DONE);
		assert_int_equal(mh_cmd(6, SWITCH(175, 1), MMCHAL_RSP_R1B, &c), CMD_DONE);
		assert_int_equal(mh_cmd(6, SWITCH(179, 0x48), MMCHAL_RSP_R1B, &c), CMD_DONE);
		/* POWER_OFF_NOTIFICATION 1, then |= 2 and &= ~1 */
		assert_int_equal(mh_cmd(6, SWITCH(34, 1), MMCHAL_RSP_R1B, &c), CMD_DONE);
		assert_int_equal(mh_cmd(6, 0x01220200u, MMCHAL_RSP_R1B, &c), CMD_DONE);
		assert_int_equal(status(), R1_TRAN);
		assert_int_equal(mh.ext_csd[34], 3);
		assert_int_equal(mh_cmd(6, 0x02220100u, MMCHAL_RSP_R1B, &c), CMD_DONE);
		assert_int_equal(status(), R1_TRAN);
		assert_int_equal(mh.ext_csd[34], 2);
		assert_int_equal(mmchal_mock_status(&mh, &st), 0);
		assert_int_equal(st.hs_timing, 1);
		assert_int_equal(st.width, 8);
		if (how == 0)
			assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
		else
			assert_int_equal(mh_ops->hw_reset(&mh), 0);
		assert_int_equal(mmchal_mock_status(&mh, &st), 0);
		assert_int_equal(st.state, MMCHAL_MOCK_ST_IDLE);
		assert_int_equal(st.hs_timing, 0);
		assert_int_equal(st.width, 1);
		assert_int_equal(mh.ext_csd[183], 0);
		assert_int_equal(mh.ext_csd[185], 0);
		assert_int_equal(mh.ext_csd[175], 0);
		assert_int_equal(mh.ext_csd[179], 0x48);
		assert_int_equal(mh.ext_csd[192], 8);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identification),
		cmocka_unit_test(test_op_cond_polls),
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_switch_card_type_and_busy),
		cmocka_unit_test(test_switch_ranges),
		cmocka_unit_test(test_mmc_states),
		cmocka_unit_test(test_blocks_and_erase),
		cmocka_unit_test(test_byte_mode),
		cmocka_unit_test(test_hw_reset),
		cmocka_unit_test(test_reset_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
