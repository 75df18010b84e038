/*
 * The card model the mock's SD and eMMC cards share (src/backends/mock/
 * mock_card.c): the commands a card does not answer, each sent by a host
 * that waits for a response; CMD16 and CMD23; and what a power-on reset
 * (CMD0) puts back.
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

#define CMD_DONE  MMCHAL_EV_CMD_DONE
#define CMD_ERROR MMCHAL_EV_CMD_ERROR
#define ALL_DONE  (MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE)
#define R1_TRAN   (MMCHAL_MOCK_R1_STATE(MMCHAL_MOCK_ST_TRAN) | MMCHAL_MOCK_R1_READY_FOR_DATA)

static uint8_t buf[4 * 512];

static void sd_card(enum mmchal_mock_card card, uint32_t busy_latency)
{
	struct mmchal_mock_cfg cfg;

	mh_cfg(&cfg, card, card == MMCHAL_MOCK_SDSC ? 64u * 1024u : MH_IMAGE_SIZE);
	cfg.busy_latency = busy_latency;
	mh_init(&cfg);
	mh_sd_to_tran();
}

/* A command the card must not answer: a host that waits for R1 times out. */
static void silent(uint32_t op, uint32_t arg, uint32_t state_after)
{
	struct mmchal_cmd c;

	assert_int_equal(mh_cmd(op, arg, MMCHAL_RSP_R1, &c), CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(c.resp[0], 0);
	assert_int_equal(mh.state, state_after);
}

/* A command illegal in the state: no response, MMCHAL_EILSEQ by default. */
static void illegal(uint32_t op, uint32_t arg, uint32_t state_after)
{
	struct mmchal_cmd c;

	assert_int_equal(mh_cmd(op, arg, MMCHAL_RSP_R1, &c), CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_EILSEQ);
	assert_int_equal(mh.state, state_after);
}

/*
 * CMD7 in every state it changes (SD spec 4.3.4, JEDEC 84-B51 6.4.4): a
 * select of another card and a deselect are never answered; a select of
 * this card in tran, data or prg is illegal, as CMD7 in idle is.
 */
static void test_cmd7_unanswered(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	sd_card(MMCHAL_MOCK_SDHC, 0);
	illegal(7, MH_RCA << 16, MMCHAL_MOCK_ST_TRAN);
	silent(7, 0, MMCHAL_MOCK_ST_STBY);             /* deselect: tran -> stby */
	silent(7, 0x4321u << 16, MMCHAL_MOCK_ST_STBY); /* another card */
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);

	/* prg: selected -> illegal, deselected -> dis; in dis another card's
	   select is not answered, this card's goes back to prg */
	sd_card(MMCHAL_MOCK_SDHC, 1000);
	assert_int_equal(mh_pio(24, 0, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_PRG);
	illegal(7, MH_RCA << 16, MMCHAL_MOCK_ST_PRG);
	silent(7, 0, MMCHAL_MOCK_ST_DIS);
	silent(7, 0x4321u << 16, MMCHAL_MOCK_ST_DIS);
	assert_int_equal(mh_cmd(7, MH_RCA << 16, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_PRG);

	/* idle: no RCA yet, CMD7 is illegal */
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	illegal(7, MH_RCA << 16, MMCHAL_MOCK_ST_IDLE);
}

/* CMD0 is never answered; eMMC's 0xFFFFFFFA (boot) leaves the card as it
   is, any other argument, and any argument to an SD card, resets it. CMD15
   is not answered either; an unknown command, and the other card type's
   erase commands, are illegal. */
static void test_cmd0_cmd15_unknown(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	sd_card(MMCHAL_MOCK_SDHC, 0);
	illegal(60, 0, MMCHAL_MOCK_ST_TRAN);
	illegal(35, 0, MMCHAL_MOCK_ST_TRAN); /* eMMC's ERASE_GROUP_START */
	illegal(36, 0, MMCHAL_MOCK_ST_TRAN);
	silent(0, 0xfffffffau, MMCHAL_MOCK_ST_IDLE);
	mh_sd_to_tran();
	silent(0, 0, MMCHAL_MOCK_ST_IDLE);

	{
		struct mmchal_mock_cfg cfg;

		mh_cfg(&cfg, MMCHAL_MOCK_EMMC, MH_IMAGE_SIZE);
		mh_init(&cfg);
		mh_mmc_to_tran();
	}
	illegal(32, 0, MMCHAL_MOCK_ST_TRAN); /* SD's ERASE_WR_BLK_START */
	illegal(33, 0, MMCHAL_MOCK_ST_TRAN);
	silent(0, 0xfffffffau, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(mh_cmd(13, 1u << 16, MMCHAL_RSP_R1, &c), CMD_DONE); /* RCA 1 */
	silent(0, 0xfffffffbu, MMCHAL_MOCK_ST_IDLE);

	/* CMD15 to this card in stby: inactive, no answer */
	sd_card(MMCHAL_MOCK_SDHC, 0);
	silent(7, 0, MMCHAL_MOCK_ST_STBY);
	silent(15, MH_RCA << 16, MMCHAL_MOCK_ST_INA);
}

/*
 * CMD16: 512 is the only block length a byte-addressed card takes here
 * (BLOCK_LEN_ERROR in the response to any other), an SDHC card ignores the
 * argument. CMD23 answers R1 and its count is kept across a repeated CMD23.
 */
static void test_cmd16_and_cmd23(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	sd_card(MMCHAL_MOCK_SDSC, 0);
	assert_int_equal(mh_cmd(16, 1024, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_BLOCK_LEN_ERROR);
	assert_int_equal(mh_cmd(16, 512, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);

	sd_card(MMCHAL_MOCK_SDHC, 0);
	assert_int_equal(mh_cmd(16, 1024, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(mh_cmd(23, 4, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(mh_cmd(23, 4, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_pio(18, 0, MMCHAL_DIR_FROM_CARD, 512, 4, buf, &c, &d), ALL_DONE);
	/* counted: back in tran without CMD12 */
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_TRAN);
}

/* What CMD0 puts back: the error bits not yet reported, the application
   command flag, a pending CMD23 count and the busy signal. */
static void test_power_on_reset(void **state)
{
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	/* an error bit pending from an illegal command */
	sd_card(MMCHAL_MOCK_SDHC, 0);
	illegal(60, 0, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_cmd(8, 0x1aa, MMCHAL_RSP_R7, &c), CMD_DONE);
	assert_int_equal(mh_cmd(55, 0, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], 0x120); /* idle, ready, APP_CMD: no error */

	/* CMD55 then CMD0: the next command is not an application command */
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	illegal(41, 0x40ff8000, MMCHAL_MOCK_ST_IDLE);

	/* CMD23 then CMD0: the count is gone, CMD18 is open-ended */
	sd_card(MMCHAL_MOCK_SDHC, 0);
	assert_int_equal(mh_cmd(23, 2, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	mh_sd_to_tran();
	assert_int_equal(mh_pio(18, 0, MMCHAL_DIR_FROM_CARD, 512, 2, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DATA);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);

	/* busy from a write, then CMD0: not busy */
	sd_card(MMCHAL_MOCK_SDHC, 1000);
	assert_int_equal(mh_pio(24, 0, MMCHAL_DIR_TO_CARD, 512, 1, buf, &c, &d), ALL_DONE);
	assert_int_equal(mh_ops->card_busy(&mh), 1);
	assert_int_equal(mh_cmd(0, 0, MMCHAL_RSP_NONE, &c), CMD_DONE);
	assert_int_equal(mh_ops->card_busy(&mh), 0);
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_IDLE);
}

/*
 * Erase on a byte-addressed card: a start address refused (not a block
 * boundary) restarts the sequence, so CMD38 after it is a sequence error
 * and erases nothing; a whole sequence erases and leaves the card busy
 * programming.
 */
static void test_erase_sequence_and_busy(void **state)
{
	struct mmchal_cmd c;

	(void)state;
	sd_card(MMCHAL_MOCK_SDSC, 5);
	assert_int_equal(mh_cmd(32, 512, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(33, 1024, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(32, 513, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ADDRESS_ERROR);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN | MMCHAL_MOCK_R1_ERASE_SEQ_ERROR);
	assert_int_equal(mh_image[512], mh_pattern(512));
	assert_int_equal(mh_ops->card_busy(&mh), 0);

	assert_int_equal(mh_cmd(32, 512, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(33, 1024, MMCHAL_RSP_R1, &c), CMD_DONE);
	assert_int_equal(mh_cmd(38, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(c.resp[0], R1_TRAN);
	assert_int_equal(mh_image[512], 0);
	assert_int_equal(mh_image[1535], 0);
	assert_int_equal(mh_image[1536], mh_pattern(1536));
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_PRG);
	assert_int_equal(mh_ops->card_busy(&mh), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmd7_unanswered),
		cmocka_unit_test(test_cmd0_cmd15_unknown),
		cmocka_unit_test(test_cmd16_and_cmd23),
		cmocka_unit_test(test_power_on_reset),
		cmocka_unit_test(test_erase_sequence_and_busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
