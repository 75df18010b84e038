/*
 * The SD card model's state rules, command by command (SD Physical Layer
 * 4.10 table 4-42; PROTOCOL.md section 2): a command that is not legal in
 * the card's state gets no response and leaves the state as it was, and from
 * stand-by on, where CMD13 answers, the next R1 carries ILLEGAL_COMMAND once.
 * Each state is reached the way a host reaches it, and every illegal command
 * of the table is tried in it; the eMMC model the same way.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "drv.h"

#define R1_ILLEGAL   (1u << 22)
#define R1_BLOCK_LEN (1u << 29)
#define R1_APP       (1u << 5)
#define R1_STATE(v)  (((v) >> 9) & 0xfu)

/* An SDHC card without CMD23 in an otherwise idle Gen3 slot; no UHS. */
static void open_sd(struct drv *d, bool cmd23)
{
	struct mmchal_sim_card_config cc;

	assert_int_equal(drv_open(d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	cc.write_rate = 0;
	cc.powerup_ns = 0;
	cc.uhs = false;
	cc.cmd23 = cmd23;
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	mmchal_bus_wr16(&d->bus, R_HOSTMODE, 0x0101u); /* 32-bit port */
}

/* An (application) command: its encoding and argument. */
struct cmd {
	bool app;
	uint16_t enc;
	uint32_t arg;
};

/*
 * Each command of @cmds is illegal in @state: no response, the state kept,
 * and where @rca names an addressed card (stand-by or transfer) ILLEGAL_COMMAND
 * reported by the next CMD13, then cleared.
 */
static void expect_illegal(struct drv *d, int state, uint32_t rca, const struct cmd *cmds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (cmds[i].app) {
			/* CMD55 itself is legal here; the ACMD that follows is not. */
			assert_int_equal(drv_cmd(d, C_R1 | 55, rca << 16), 0);
			assert_int_equal(d->rsp[0] & R1_APP, R1_APP);
		}
		if (drv_cmd(d, cmds[i].enc, cmds[i].arg) != MMCHAL_ETIMEDOUT)
			fail_msg("state %d: command 0x%04x (arg 0x%x) answered", state, cmds[i].enc,
				 cmds[i].arg);
		assert_int_equal(mmchal_sim_card_state(d->sim), state);
		if (!rca)
			continue;
		assert_int_equal(drv_cmd(d, C_R1 | 13, rca << 16), 0);
		if (!(d->rsp[0] & R1_ILLEGAL))
			fail_msg("state %d: command 0x%04x not reported illegal", state,
				 cmds[i].enc);
		assert_int_equal(R1_STATE(d->rsp[0]), (uint32_t)state);
		assert_int_equal(drv_cmd(d, C_R1 | 13, rca << 16), 0);
		assert_int_equal(d->rsp[0] & R1_ILLEGAL, 0);
	}
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_sd_state_table(void **state)
{
	static const struct cmd in_idle[] = {
		{false, C_R2 | 2, 0},          {false, C_R1 | 3, 0},
		{false, C_R2 | 9, 0},          {false, C_R1 | 11, 0},
		{false, C_R1 | 13, 0},         {false, C_R1 | 16, 512},
		{false, C_R1 | 17, 0},         {false, C_R1 | 23, 1},
		{false, C_R1 | 6, 0x00fffff1}, {true, C_R1 | C_ACMD | 6, 2},
		{true, C_R1 | C_ACMD | 13, 0}, {true, C_R1 | C_ACMD | 22, 0},
		{true, C_R1 | C_ACMD | 51, 0},
	};
	/* No S18A granted: CMD11 is illegal in ready too. */
	static const struct cmd in_ready[] = {
		{false, C_R1 | 3, 0},  {false, C_R1 | 8, 0x1aa}, {false, C_R2 | 9, 0},
		{false, C_R1 | 11, 0}, {false, C_R1 | 55, 0},    {false, C_R1 | 16, 512},
		{false, C_R1B | 7, 0},
	};
	static const struct cmd in_ident[] = {
		{false, C_R2 | 2, 0},
		{false, C_R1 | 8, 0x1aa},
		{false, C_R1 | 55, 0},
		{false, C_R2 | 9, 0},
	};
	static const struct cmd in_stby[] = {
		{false, C_R2 | 2, 0},          {false, C_R1 | 8, 0x1aa},
		{false, C_R1 | 16, 512},       {false, C_R1 | 17, 0},
		{false, C_R1 | 6, 0x00fffff1}, {false, C_R1 | 23, 1},
		{false, C_R1 | 11, 0},         {true, C_R3 | C_ACMD | 41, 0x40ff8000u},
		{true, C_R1 | C_ACMD | 6, 2},  {true, C_R1 | C_ACMD | 13, 0},
		{true, C_R1 | C_ACMD | 51, 0}, {true, C_R1 | C_ACMD | 22, 0},
	};
	static const struct cmd in_tran[] = {
		{false, C_R2 | 2, 0},
		{false, C_R1 | 3, 0},
		{false, C_R1 | 8, 0x1aa},
		{false, C_R1 | 11, 0},
		{false, C_R1 | 23, 1}, /* the card has no CMD23 */
		{true, C_R3 | C_ACMD | 41, 0x40ff8000u},
		{true, C_R1 | C_ACMD | 6, 1}, /* no such bus width */
		{true, C_R1 | C_ACMD | 9, 0}, /* no such ACMD */
	};
	struct drv d;
	uint32_t rca;

	(void)state;
	open_sd(&d, false);
	/* idle: CMD0, then CMD8 with the 2.7-3.6 V range. */
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	expect_illegal(&d, MMCHAL_SIM_ST_IDLE, 0, in_idle, N(in_idle));
	/* CMD8 with an unsupported voltage range is silent, and legal. */
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x2aa), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x1aa), 0);
	assert_int_equal(d.rsp[0], 0x1aau);
	/* ready: ACMD41 with HCS, a card that powers up at once. */
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R3 | C_ACMD | 41, 0x40ff8000u), 0);
	assert_int_equal(d.rsp[0], 0xc0ff8000u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_READY);
	expect_illegal(&d, MMCHAL_SIM_ST_READY, 0, in_ready, N(in_ready));
	/* ident: CMD2. */
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDENT);
	expect_illegal(&d, MMCHAL_SIM_ST_IDENT, 0, in_ident, N(in_ident));
	/* stand-by: CMD3 publishes the RCA. */
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	rca = d.rsp[0] >> 16;
	assert_int_equal(rca, 0xb368u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	expect_illegal(&d, MMCHAL_SIM_ST_STBY, rca, in_stby, N(in_stby));
	/* CMD7 and CMD9 to another card: silent, not illegal, still stand-by. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, (rca + 1u) << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R2 | 9, (rca + 1u) << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, rca << 16), 0);
	assert_int_equal(d.rsp[0] & R1_ILLEGAL, 0);
	assert_int_equal(R1_STATE(d.rsp[0]), MMCHAL_SIM_ST_STBY);
	/* transfer: CMD7 to this card. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, rca << 16), 0);
	assert_int_equal(drv_wait_not_busy(&d, 1000000000ull) & S_DAT0, S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	expect_illegal(&d, MMCHAL_SIM_ST_TRAN, rca, in_tran, N(in_tran));
	/* CMD55 to another card: silent, and the next command is no ACMD. */
	assert_int_equal(drv_cmd(&d, C_R1 | 55, (rca + 1u) << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, rca << 16), 0);
	assert_int_equal(d.rsp[0] & (R1_ILLEGAL | R1_APP), 0);
	/*
	 * CMD16 above 512 bytes: answered, BLOCK_LEN_ERROR in its own response
	 * (an error of the command itself, SD 4.10 table 4-42) and cleared after.
	 */
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 1024), 0);
	assert_int_equal(d.rsp[0] & R1_BLOCK_LEN, R1_BLOCK_LEN);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, rca << 16), 0);
	assert_int_equal(d.rsp[0] & R1_BLOCK_LEN, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), 0);
	assert_int_equal(d.rsp[0] & R1_BLOCK_LEN, 0);
	/* CMD7 to another card deselects this one, silently. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	/* CMD3 again in stand-by: a new RCA, the state kept. */
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	assert_int_equal(d.rsp[0] >> 16, rca + 1u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	drv_close(&d);
}

/* With CMD23 in the SCR, CMD23 is legal in transfer and only there. */
static void test_sd_cmd23_only_in_tran(void **state)
{
	static const struct cmd in_stby[] = {{false, C_R1 | 23, 4}};
	struct drv d;
	uint32_t rca;

	(void)state;
	open_sd(&d, true);
	rca = drv_sd_init(&d);
	assert_int_equal(rca, 0xb368u);
	assert_int_equal(drv_cmd(&d, C_R1 | 23, 4), 0);
	assert_int_equal(d.rsp[0] & R1_ILLEGAL, 0);
	assert_int_equal(R1_STATE(d.rsp[0]), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	expect_illegal(&d, MMCHAL_SIM_ST_STBY, rca, in_stby, N(in_stby));
	drv_close(&d);
}

/*
 * The eMMC model, the same way (JEDEC 5.1 section 6.4, PROTOCOL.md section
 * 2): SD-only commands (CMD5, CMD55, CMD8 outside transfer) are never legal,
 * CMD3 needs a non-zero RCA, and each state refuses what belongs to another.
 */
static void test_mmc_state_table(void **state)
{
	static const struct cmd in_idle[] = {
		{false, C_R2 | 2, 0},        {false, C_R1 | 3, 1u << 16},
		{false, C_R2 | 9, 1u << 16}, {false, C_R1 | 13, 1u << 16},
		{false, C_R1 | 8, 0},        {false, C_R1 | 5, 0},
		{false, C_R1 | 55, 0},       {false, C_R1 | 16, 512},
		{false, C_R1 | 17, 0},       {false, C_R1 | 6, 0x03b70000u},
		{false, C_R1 | 23, 1},
	};
	static const struct cmd in_ready[] = {
		{false, C_R1 | 3, 1u << 16},
		{false, C_R2 | 9, 1u << 16},
		{false, C_R1B | 7, 1u << 16},
		{false, C_R1 | 16, 512},
	};
	static const struct cmd in_ident[] = {
		{false, C_R2 | 2, 0},
		{false, C_R3 | 1, 0x40ff8080u},
		{false, C_R1 | 3, 0}, /* RCA 0 is reserved */
		{false, C_R2 | 9, 1u << 16},
	};
	static const struct cmd in_stby[] = {
		{false, C_R2 | 2, 0},           {false, C_R3 | 1, 0x40ff8080u},
		{false, C_R1 | 3, 2u << 16},    {false, C_R1 | 8, 0},
		{false, C_R1 | 16, 512},        {false, C_R1 | 17, 0},
		{false, C_R1 | 6, 0x03b70000u}, {false, C_R1 | 23, 1},
		{false, C_R1 | 55, 1u << 16},   {false, C_R1 | 5, 0},
	};
	static const struct cmd in_tran[] = {
		{false, C_R2 | 2, 0},         {false, C_R3 | 1, 0x40ff8080u},
		{false, C_R1 | 3, 2u << 16},  {false, C_R2 | 9, 1u << 16},
		{false, C_R1 | 55, 1u << 16}, {false, C_R1 | 5, 0},
	};
	struct mmchal_sim_card_config cc;
	struct drv d;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.powerup_ns = 0;
	cc.switch_busy_ns = 0;
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	expect_illegal(&d, MMCHAL_SIM_ST_IDLE, 0, in_idle, N(in_idle));
	assert_int_equal(drv_cmd(&d, C_R3 | 1, 0x40ff8080u), 0);
	assert_int_equal(d.rsp[0], 0xc0ff8080u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_READY);
	expect_illegal(&d, MMCHAL_SIM_ST_READY, 0, in_ready, N(in_ready));
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDENT);
	expect_illegal(&d, MMCHAL_SIM_ST_IDENT, 0, in_ident, N(in_ident));
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 1u << 16), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	expect_illegal(&d, MMCHAL_SIM_ST_STBY, 1, in_stby, N(in_stby));
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 1u << 16), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	expect_illegal(&d, MMCHAL_SIM_ST_TRAN, 1, in_tran, N(in_tran));
	/* Legal in transfer: CMD23 and CMD16 of 512 bytes, answered without error. */
	assert_int_equal(drv_cmd(&d, C_R1 | 23, 1), 0);
	assert_int_equal(d.rsp[0] & R1_ILLEGAL, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 16, 512), 0);
	assert_int_equal(d.rsp[0] & (R1_ILLEGAL | R1_BLOCK_LEN), 0);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sd_state_table),
		cmocka_unit_test(test_sd_cmd23_only_in_tran),
		cmocka_unit_test(test_mmc_state_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
