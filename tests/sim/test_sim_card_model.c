/*
 * The card model's own rules, each asserted as a real card shows it through
 * the controller: what a removal, a reinsertion (a power cycle) and CMD0
 * reset, the registers a card has at insertion, READY_FOR_DATA while busy, CMD12 and
 * CMD13 states, the busy (or none) after a stop and after an R2, CMD23
 * counts of one and more, a payload block of the wrong length, the blocks
 * at and past the end of the store, the erase sequence rules (SD Physical
 * Layer 4.10, 4.3.5; JEDEC 5.1 6.6.9), the clock each UHS-I / eMMC mode
 * allows, the HS400 CARD_TYPE bits and the top byte of SEC_COUNT.
 */
#define _DEFAULT_SOURCE /* mmap MAP_ANONYMOUS, MAP_NORESERVE; stores with a guard page */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <sys/mman.h>

#include "drv.h"

#define R1_OUT_OF_RANGE (1u << 31)
#define R1_ERASE_SEQ    (1u << 28)
#define R1_ERASE_PARAM  (1u << 27)
#define R1_BLOCK_LEN    (1u << 29)
#define R1_ILLEGAL      (1u << 22)
#define R1_ERASE_RESET  (1u << 13)
#define R1_READY        (1u << 8)
#define R1_APP          (1u << 5)
#define R1_SWITCH_ERROR (1u << 7)
#define R1_ST(s)        ((uint32_t)(s) << 9)
#define TRAN_READY      (R1_ST(MMCHAL_SIM_ST_TRAN) | R1_READY)
#define S_CBSY          (1u << 30)
#define ERR1_END        (1u << 4)

#define KIB512 (512u * 1024u)
#define PAGE   4096u

static void fast(struct mmchal_sim_card_config *c)
{
	c->read_latency_ns = 0;
	c->read_rate = 0;
	c->write_rate = 0;
}

/* A Gen3 simulator whose accesses and interrupt take no time: events are seen
   at the nanosecond they happen. */
static void precise(struct mmchal_sim_config *cfg)
{
	mmchal_sim_config_defaults(cfg, MMCHAL_SIM_SOC_GEN3);
	cfg->reg_access_ns = 0;
	cfg->irq_latency_ns = 0;
}

/*
 * Open a simulator (@cfg, NULL = Gen3 defaults) with the card @cc in the slot,
 * 32-bit data port; with @ident, identify it into tran (SD: 4-bit bus) at
 * 25 MHz. Returns the RCA (eMMC: 1).
 */
static uint32_t open_card(struct drv *d, const struct mmchal_sim_config *cfg,
			  const struct mmchal_sim_card_config *cc, bool ident)
{
	uint32_t rca = 1;

	assert_int_equal(drv_open(d, cfg), 0);
	assert_int_equal(mmchal_sim_card_insert(d->sim, cc), 0);
	mmchal_bus_wr16(&d->bus, R_HOSTMODE, 0x0101u);
	if (!ident)
		return rca;
	if (cc->kind == MMCHAL_SIM_CARD_SD) {
		rca = drv_sd_init(d);
		assert_int_equal(rca, cc->rca);
	} else {
		assert_int_equal(drv_mmc_init(d), 0);
	}
	assert_true(drv_wait_not_busy(d, 100000000u) & S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d->sim), MMCHAL_SIM_ST_TRAN);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u); /* 200 MHz / 8 = 25 MHz */
	drv_ack(d, 0xffffffffu);
	return rca;
}

static void card_cfg(struct mmchal_sim_card_config *cc, enum mmchal_sim_card_kind kind)
{
	mmchal_sim_card_defaults(kind, cc);
	fast(cc);
}

/* R1 of CMD13 to @rca. */
static uint32_t status(struct drv *d, uint32_t rca)
{
	assert_int_equal(drv_cmd(d, C_R1 | 13, rca << 16), 0);
	return d->rsp[0];
}

/* R1 of a command that must be answered. */
static uint32_t r1(struct drv *d, uint16_t cmd, uint32_t arg)
{
	assert_int_equal(drv_cmd(d, cmd, arg), 0);
	return d->rsp[0];
}

/* eMMC identification from idle without CMD0: CMD1 until ready, CMD2; returns CMD3's R1. */
static uint32_t mmc_ident(struct drv *d)
{
	for (int i = 0; i < 100; i++) {
		assert_int_equal(drv_cmd(d, C_R3 | 1, 0x40ff8080u), 0);
		if (d->rsp[0] & 0x80000000u)
			break;
		d->port.ops->delay_us(d->port.ctx, 100);
	}
	assert_int_equal(d->rsp[0], 0xc0ff8080u);
	assert_int_equal(drv_cmd(d, C_R2 | 2, 0), 0);
	return r1(d, C_R1 | 3, 1u << 16);
}

/* SD up to ready without CMD0: CMD8, CMD55 + ACMD41 (@ocr) until ready; returns the R3. */
static uint32_t sd_ready(struct drv *d, uint32_t ocr)
{
	assert_int_equal(drv_cmd(d, C_R1 | 8, 0x1aa), 0);
	assert_int_equal(d->rsp[0], 0x1aau);
	for (int i = 0; i < 100; i++) {
		assert_int_equal(drv_cmd(d, C_R1 | 55, 0), 0);
		assert_int_equal(drv_cmd(d, C_R3 | C_ACMD | 41, ocr), 0);
		if (d->rsp[0] & 0x80000000u)
			break;
		d->port.ops->delay_us(d->port.ctx, 100);
	}
	return d->rsp[0];
}

/* Bits [hi:lo] of a CID/CSD read as R2 (the response registers hold bits 127:8). */
static uint32_t r2_bits(const uint32_t rsp[4], unsigned hi, unsigned lo)
{
	uint32_t v = 0;

	for (unsigned b = hi + 1u; b-- > lo;) {
		unsigned r = b - 8u;

		v = v << 1 | ((rsp[r / 32u] >> (r % 32u)) & 1u);
	}
	return v;
}

/* Issue @cmd without waiting for it. */
static void issue(struct drv *d, uint16_t cmd, uint32_t arg)
{
	drv_ack(d, 0xffffffffu);
	mmchal_bus_wr32(&d->bus, R_ARG, arg);
	mmchal_bus_wr16(&d->bus, R_CMD, cmd);
}

/*
 * On a precise() simulator: issue @cmd and return the time from the SD_CMD
 * write to response end (for R1b: to the release of DAT0), to the nanosecond:
 * only response end may raise the interrupt line meanwhile.
 */
static uint64_t rsp_after(struct drv *d, uint16_t cmd, uint32_t arg)
{
	uint64_t t0, limit;

	mmchal_bus_wr32(&d->bus, R_MASK1, ~S_RSP_END);
	issue(d, cmd, arg);
	t0 = mmchal_sim_now(d->sim);
	limit = t0 + 100000000u;
	while (!(drv_status(d) & S_RSP_END) && mmchal_sim_now(d->sim) < limit)
		mmchal_sim_run(d->sim, limit);
	assert_int_equal(drv_status(d) & (S_RSP_END | S_ERRORS), S_RSP_END);
	mmchal_bus_wr32(&d->bus, R_MASK1, 0);
	d->rsp[0] = mmchal_bus_rd32(&d->bus, R_RSP);
	return mmchal_sim_now(d->sim) - t0;
}

/*
 * A card taken out and put back is powered up afresh: status bits the card
 * had pending (ILLEGAL_COMMAND of a CMD9 in tran, ERASE_RESET of the erase
 * sequence it cut) are gone, so the first R1 after identification without
 * CMD0 (CMD3) carries none of them.
 */
static void test_reinsertion_is_a_power_cycle(void **state)
{
	struct mmchal_sim_card_config cc;
	struct drv d;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_MMC);
	open_card(&d, NULL, &cc, true);
	assert_int_equal(r1(&d, C_R1 | 35, 0), TRAN_READY);
	assert_int_equal(drv_cmd(&d, C_R2 | 9, 1u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_remove(d.sim), 0);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	assert_int_equal(mmc_ident(&d), R1_ST(MMCHAL_SIM_ST_IDENT) | R1_READY);
	drv_close(&d);
}

/*
 * An SD card has its registers from power-up (docs/sim.md: "set at insertion
 * and again by CMD0"): identified without any CMD0, its CID and CSD are the
 * documented ones (CID MID 0xAA, OID "SM", PSN = serial; CSD v2.0 with C_SIZE
 * = capacity / 512 KiB - 1).
 */
static void test_sd_registers_at_insertion(void **state)
{
	struct mmchal_sim_card_config cc;
	struct drv d;
	uint32_t rca;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_SD);
	cc.serial = 0x12345678u;
	open_card(&d, NULL, &cc, false);
	assert_int_equal(sd_ready(&d, 0x40ff8000u), 0xc0ff8000u);
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
	assert_int_equal(r2_bits(d.rsp, 127, 120), 0xaa);
	assert_int_equal(r2_bits(d.rsp, 119, 104), 0x534d);
	assert_int_equal(r2_bits(d.rsp, 55, 24), 0x12345678u);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	rca = d.rsp[0] >> 16;
	assert_int_equal(rca, 0xb368u);
	assert_int_equal(drv_cmd(&d, C_R2 | 9, rca << 16), 0);
	assert_int_equal(r2_bits(d.rsp, 127, 126), 1);
	assert_int_equal(r2_bits(d.rsp, 69, 48), (64u << 20) / KIB512 - 1u);
	assert_int_equal(r2_bits(d.rsp, 25, 22), 9);
	drv_close(&d);
}

/*
 * CMD0 resets the card (PROTOCOL.md section 4: identification starts again):
 * its pending status bits are dropped, and CMD1 reports busy again until the
 * power-up time has passed from the first CMD1 after the reset.
 */
static void test_cmd0_restarts_the_card(void **state)
{
	struct mmchal_sim_card_config cc;
	struct drv d;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_MMC);
	open_card(&d, NULL, &cc, true);
	/* CMD9 is a stand-by command: illegal in tran, ILLEGAL_COMMAND pending. */
	assert_int_equal(drv_cmd(&d, C_R2 | 9, 1u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	assert_int_equal(r1(&d, C_R3 | 1, 0x40ff8080u), 0x40ff8080u);
	d.port.ops->delay_us(d.port.ctx, 500);
	assert_int_equal(r1(&d, C_R3 | 1, 0x40ff8080u), 0x40ff8080u);
	d.port.ops->delay_us(d.port.ctx, 600);
	assert_int_equal(r1(&d, C_R3 | 1, 0x40ff8080u), 0xc0ff8080u);
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
	assert_int_equal(r1(&d, C_R1 | 3, 1u << 16), R1_ST(MMCHAL_SIM_ST_IDENT) | R1_READY);
	drv_close(&d);
}

/*
 * ACMD41 with an empty voltage window is an inquiry (SD Physical Layer 4.10
 * section 4.2.3.1): the card answers its OCR, busy, and stays idle; with a
 * window it powers up. An ILLEGAL_COMMAND pending from the ident state (CMD9
 * there) reaches the host in CMD3's R6, bit 14 (R6 carries status bits 23,
 * 22, 19 in 15:13 and 12:0 as they are, SD 4.10 section 4.9.5).
 */
static void test_sd_acmd41_inquiry_and_r6_status(void **state)
{
	struct mmchal_sim_card_config cc;
	struct drv d;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_SD);
	open_card(&d, NULL, &cc, false);
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x1aa), 0);
	assert_int_equal(r1(&d, C_R1 | 55, 0), R1_ST(MMCHAL_SIM_ST_IDLE) | R1_READY | R1_APP);
	assert_int_equal(r1(&d, C_R3 | C_ACMD | 41, 0), 0x00ff8000u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	assert_int_equal(sd_ready(&d, 0x40ff8000u), 0xc0ff8000u);
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R2 | 9, 0), MMCHAL_ETIMEDOUT); /* illegal in ident */
	assert_int_equal(r1(&d, C_R1 | 3, 0),
			 (uint32_t)cc.rca << 16 | 0x4000u | R1_ST(MMCHAL_SIM_ST_IDENT) | R1_READY);
	assert_int_equal(r1(&d, C_R1 | 13, (uint32_t)cc.rca << 16),
			 R1_ST(MMCHAL_SIM_ST_STBY) | R1_READY);
	drv_close(&d);
}

/*
 * SD CMD16: up to 512 bytes are accepted (an SDHC card ignores the length),
 * above that BLOCK_LEN_ERROR. CMD6 in check mode asking group 2 for a
 * function the card lacks (1): that group's result nibble is 0xF and group 1
 * (asked 0xF, "no change") reports its current function 0, so byte 16 of the
 * status is 0xF0 (SD 4.10 section 4.3.10.4, table 4-13); nothing switches.
 */
static void test_sd_cmd16_limit_and_cmd6_group2(void **state)
{
	struct mmchal_sim_card_config cc;
	enum mmchal_timing t;
	uint8_t st[64];
	struct drv d;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_SD);
	open_card(&d, NULL, &cc, true);
	assert_int_equal(r1(&d, C_R1 | 16, 512), TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 16, 513), R1_BLOCK_LEN | TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 16, 512), TRAN_READY);
	memset(st, 0x55, sizeof(st));
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x00ffff1fu, 64, 1, st), 0);
	assert_int_equal(st[16], 0xf0);
	assert_int_equal(st[15], 0x00);
	assert_int_equal(st[14], 0x00);
	assert_int_equal(mmchal_sim_card_bus(d.sim, NULL, &t), 0);
	assert_int_equal(t, MMCHAL_TIMING_LEGACY);
	drv_close(&d);
}

/*
 * The voltage switch's end, to the microsecond: after CMD11 the card holds
 * DAT0 low across the clock stop, and releases it 100 us after the clock
 * restarts (docs/sim.md, an assumption within the 1 ms SD 4.10 section
 * 4.2.4.2 allows): still low 99 us after, high at 100 us. A clock stop and
 * start without a switch in progress changes nothing.
 */
static void test_sd_voltage_switch_release_time(void **state)
{
	struct mmchal_sim_card_config cc;
	struct mmchal_sim_config cfg;
	struct drv d;

	(void)state;
	precise(&cfg);
	card_cfg(&cc, MMCHAL_SIM_CARD_SD);
	open_card(&d, &cfg, &cc, false);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u);
	assert_int_equal(sd_ready(&d, 0x41ff8000u), 0xc1ff8000u);
	assert_int_equal(r1(&d, C_R1 | 11, 0), R1_ST(MMCHAL_SIM_ST_READY) | R1_READY);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0080u); /* clock off */
	mmchal_sim_advance(d.sim, 5000000u);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u); /* on again, at 1.8 V */
	mmchal_sim_advance(d.sim, 99000u);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	mmchal_sim_advance(d.sim, 1000u);
	assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
	/* the switch is over: another stop and start leave DAT0 high */
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0080u);
	mmchal_sim_advance(d.sim, 1000u);
	assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u);
	mmchal_sim_advance(d.sim, 1000u);
	assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDENT);
	drv_close(&d);
}

/*
 * A CMD0 during programming ends that busy for good: the card has restarted.
 * Here a 50 ms programming busy is cut by CMD0, the card identified again
 * with S18R and switched to 1.8 V by CMD11; the card then holds DAT0 low
 * until the host stops the clock and starts it again (SD Physical Layer
 * 4.2.4.2, docs/sim.md), also past the time the old programming would have
 * ended.
 */
static void test_cmd0_ends_programming_busy(void **state)
{
	struct mmchal_sim_card_config cc;
	struct drv d;
	uint8_t blk[512];
	uint64_t t_wr;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_SD);
	cc.write_busy_ns = 50000000u;
	open_card(&d, NULL, &cc, true);
	memset(blk, 0x3c, sizeof(blk));
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 4, 512, 1, blk), 0);
	t_wr = mmchal_sim_now(d.sim);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_PRG);
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x80eeu);
	assert_int_equal(sd_ready(&d, 0x41ff8000u), 0xc1ff8000u);
	assert_int_equal(r1(&d, C_R1 | 11, 0), R1_ST(MMCHAL_SIM_ST_READY) | R1_READY);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	/* Well past the end of the cut programming busy: still low. */
	mmchal_sim_advance(d.sim, t_wr + 60000000u - mmchal_sim_now(d.sim));
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0080u); /* clock off */
	d.port.ops->delay_us(d.port.ctx, 5000);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u); /* on again: released 100 us later */
	d.port.ops->delay_us(d.port.ctx, 1000);
	assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
	drv_close(&d);
}

/*
 * The card pulled out while it holds DAT0 low after an R1b command (an eMMC
 * SWITCH with 10 ms of busy): DAT0 is pulled high without a card, so the
 * controller's busy wait ends at the removal with response end (docs/sim.md
 * "removal releases DAT0"), not when the card's busy would have ended.
 */
static void test_removal_ends_r1b_busy_wait(void **state)
{
	struct mmchal_sim_card_config cc;
	struct drv d;
	uint64_t t_rm;
	uint32_t st;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_MMC);
	cc.switch_busy_ns = 10000000u;
	open_card(&d, NULL, &cc, true);
	issue(&d, C_R1B | 6, 0x03af0100u); /* ERASE_GROUP_DEF = 1 */
	mmchal_sim_advance(d.sim, 1000000u);
	st = drv_status(&d);
	assert_int_equal(st & (S_RSP_END | S_DAT0 | S_CBSY), S_CBSY);
	t_rm = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_card_remove(d.sim), 0);
	mmchal_sim_advance(d.sim, 1000u);
	st = drv_status(&d);
	assert_int_equal(st & (S_RSP_END | S_REMOVED | S_DAT0 | S_CBSY),
			 S_RSP_END | S_REMOVED | S_DAT0);
	assert_true(mmchal_sim_now(d.sim) - t_rm < 10000u);
	drv_close(&d);
}

/*
 * READY_FOR_DATA is 0 while the card is busy (docs/sim.md), also in tran: an
 * SD card selected by CMD7 (sent as R1) holds DAT0 low for switch_busy_ns, and
 * CMD13 then answers tran without READY_FOR_DATA; once DAT0 is high, with it.
 */
static void test_ready_for_data_clear_while_busy(void **state)
{
	struct mmchal_sim_card_config cc;
	struct drv d;
	uint32_t rca;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_SD);
	cc.switch_busy_ns = 1000000u;
	rca = open_card(&d, NULL, &cc, true);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0), MMCHAL_ETIMEDOUT); /* deselect: silent */
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(r1(&d, C_R1 | 7, rca << 16), R1_ST(MMCHAL_SIM_ST_STBY) | R1_READY);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	assert_int_equal(status(&d, rca), R1_ST(MMCHAL_SIM_ST_TRAN));
	assert_true(drv_wait_not_busy(&d, 10000000u) & S_DAT0);
	assert_int_equal(status(&d, rca), TRAN_READY);
	drv_close(&d);
}

/*
 * CMD7 while the card programs a write (PROTOCOL.md section 1; SD Physical
 * Layer 4.10 section 4.3): deselected, it goes from prg to dis with no
 * response and lets DAT0 go while it programs on; CMD13 answers dis without
 * READY_FOR_DATA and a CMD7 to another card leaves it there; selected again
 * it answers dis, returns to prg with DAT0 low, and to tran when the write
 * busy ends, not earlier. Left deselected, it ends in stand-by. A CMD7 that
 * selects the card while it is in prg is illegal.
 */
static void deselect_while_programming(enum mmchal_sim_card_kind kind)
{
	const uint32_t dis = R1_ST(MMCHAL_SIM_ST_DIS);
	struct mmchal_sim_card_config cc;
	struct drv d;
	uint8_t blk[512];
	uint64_t t_wr;
	uint32_t rca;

	card_cfg(&cc, kind);
	cc.write_busy_ns = 20000000u;
	rca = open_card(&d, NULL, &cc, true);
	memset(blk, 0x5a, sizeof(blk));

	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 8, 512, 1, blk), 0);
	t_wr = mmchal_sim_now(d.sim);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	assert_int_equal(drv_cmd(&d, C_NONE | 7, 0), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_DIS);
	assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
	assert_int_equal(status(&d, rca), dis);
	assert_int_equal(drv_cmd(&d, C_R1 | 7, (rca + 1u) << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_DIS);
	assert_int_equal(r1(&d, C_R1 | 7, rca << 16), dis);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_PRG);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	/* Selecting a card that is already in prg is illegal: no response. */
	assert_int_equal(drv_cmd(&d, C_R1 | 7, rca << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(status(&d, rca), R1_ILLEGAL | R1_ST(MMCHAL_SIM_ST_PRG));
	assert_true(drv_wait_not_busy(&d, 40000000u) & S_DAT0);
	assert_true(mmchal_sim_now(d.sim) - t_wr >= 19000000u);
	assert_true(mmchal_sim_now(d.sim) - t_wr <= 20100000u);
	assert_int_equal(status(&d, rca), TRAN_READY);

	/* Deselected until the write is programmed: stand-by, DAT0 high throughout. */
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 9, 512, 1, blk), 0);
	t_wr = mmchal_sim_now(d.sim);
	assert_int_equal(drv_cmd(&d, C_NONE | 7, 0), 0);
	while (mmchal_sim_now(d.sim) - t_wr < 25000000u) {
		assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
		mmchal_sim_advance(d.sim, 1000000u);
	}
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(status(&d, rca), R1_ST(MMCHAL_SIM_ST_STBY) | R1_READY);
	assert_int_equal(r1(&d, C_R1 | 7, rca << 16), R1_ST(MMCHAL_SIM_ST_STBY) | R1_READY);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	drv_close(&d);
}

static void test_deselect_while_programming_sd(void **state)
{
	(void)state;
	deselect_while_programming(MMCHAL_SIM_CARD_SD);
}

static void test_deselect_while_programming_emmc(void **state)
{
	(void)state;
	deselect_while_programming(MMCHAL_SIM_CARD_MMC);
}

/*
 * CMD12 is legal in data and rcv only, CMD13 from stand-by on without a
 * change of state (PROTOCOL.md section 1): CMD12 in tran is illegal (no
 * response, ILLEGAL_COMMAND in the next R1); CMD13 in rcv answers rcv and
 * leaves the card there; CMD12 then sends it through prg to tran.
 */
static void test_stop_and_status_states(void **state)
{
	static const enum mmchal_sim_card_kind kinds[] = {MMCHAL_SIM_CARD_SD, MMCHAL_SIM_CARD_MMC};
	struct mmchal_sim_card_config cc;
	struct drv d;
	uint32_t rca;

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		card_cfg(&cc, kinds[k]);
		rca = open_card(&d, NULL, &cc, true);
		assert_int_equal(drv_cmd(&d, C_R1B | 12, 0), MMCHAL_ETIMEDOUT);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
		assert_int_equal(status(&d, rca), R1_ILLEGAL | TRAN_READY);
		assert_int_equal(status(&d, rca), TRAN_READY);
		/* CMD25 without data: the card waits in rcv. */
		mmchal_bus_wr16(&d.bus, R_SIZE, 512);
		mmchal_bus_wr16(&d.bus, R_STOP, 0);
		assert_int_equal(r1(&d, C_R1 | C_DATA | C_MULTI | 25, 0), TRAN_READY);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_RCV);
		assert_int_equal(status(&d, rca), R1_ST(MMCHAL_SIM_ST_RCV) | R1_READY);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_RCV);
		assert_int_equal(r1(&d, C_R1 | 12, 0), R1_ST(MMCHAL_SIM_ST_RCV) | R1_READY);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_PRG);
		assert_true(drv_wait_not_busy(&d, 100000000u) & S_DAT0);
		assert_int_equal(status(&d, rca), TRAN_READY);
		drv_close(&d);
	}
}

/*
 * The busy after CMD12, to the nanosecond (docs/sim.md section 8): none when
 * it ends a read (data -> tran, nothing to program), so an R1b CMD12 ends
 * exactly when a CMD13 does; write_busy_ns from the CMD12 response when it
 * ends an open write (rcv -> prg -> tran).
 */
static void test_stop_busy_exact(void **state)
{
	struct mmchal_sim_card_config cc;
	struct mmchal_sim_config sc;
	struct drv d;
	uint64_t t13, t12;
	uint8_t blk[512], *store;
	uint32_t rca;

	(void)state;
	precise(&sc);
	card_cfg(&cc, MMCHAL_SIM_CARD_SD);
	cc.write_busy_ns = 2000000u;
	rca = open_card(&d, &sc, &cc, true);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[i] = (uint8_t)(i * 7u);
	t13 = rsp_after(&d, C_R1 | 13, rca << 16);
	assert_int_equal(d.rsp[0], TRAN_READY);

	/* Open read: one block, then CMD12 in data. */
	mmchal_bus_wr16(&d.bus, R_SIZE, 512);
	mmchal_bus_wr16(&d.bus, R_STOP, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	for (unsigned i = 0; i < 512; i += 4) {
		uint32_t v = (uint32_t)drv_port_rd(&d);

		for (unsigned k = 0; k < 4; k++)
			blk[i + k] = (uint8_t)(v >> (8u * k));
	}
	assert_memory_equal(blk, store, 512);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_DATA);
	t12 = rsp_after(&d, C_R1B | 12, 0);
	assert_int_equal(d.rsp[0], R1_ST(MMCHAL_SIM_ST_DATA) | R1_READY);
	assert_int_equal(t12, t13);
	assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);

	/* Open write: one block on the card, then CMD12 in rcv. */
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr16(&d.bus, R_STOP, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_MULTI | 25, 9), 0);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE);
	drv_ack(&d, S_BWE);
	for (unsigned i = 0; i < 512; i += 4)
		drv_port_wr(&d, 0x5a5a5a5au);
	assert_true(drv_wait(&d, S_BWE, 100000000u) & S_BWE); /* block 0 is on the card */
	assert_int_equal(store[9 * 512], 0x5a);
	t12 = rsp_after(&d, C_R1B | 12, 0);
	assert_int_equal(d.rsp[0], R1_ST(MMCHAL_SIM_ST_RCV) | R1_READY);
	assert_int_equal(t12, t13 + 2000000u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	drv_close(&d);
}

/*
 * CMD2's R2 is no busy response: DAT0 is high at the very nanosecond the
 * response has arrived (PROTOCOL.md section 1: only R1b commands hold DAT0).
 */
static void test_r2_without_busy(void **state)
{
	struct mmchal_sim_card_config cc;
	struct mmchal_sim_config sc;
	struct drv d;

	(void)state;
	precise(&sc);
	card_cfg(&cc, MMCHAL_SIM_CARD_MMC);
	open_card(&d, &sc, &cc, false);
	for (int i = 0; i < 100; i++) {
		assert_int_equal(drv_cmd(&d, C_R3 | 1, 0x40ff8080u), 0);
		if (d.rsp[0] & 0x80000000u)
			break;
		d.port.ops->delay_us(d.port.ctx, 100);
	}
	assert_int_equal(d.rsp[0], 0xc0ff8080u);
	(void)rsp_after(&d, C_R2 | 2, 0);
	assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDENT);
	/* bits 127:96 of the CID in RSP76..: MID 0xAA, CBX 1, OID 0x53 */
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_RSP + 12u) & 0x00ffffffu, 0x00aa0153u);
	drv_close(&d);
}

/*
 * CMD23 counts (PROTOCOL.md section 1): a CMD18 or CMD25 after it ends by
 * itself after that many blocks, without CMD12, also for a count of one;
 * three blocks read as the store holds them.
 */
static void test_cmd23_counts(void **state)
{
	static const enum mmchal_sim_card_kind kinds[] = {MMCHAL_SIM_CARD_SD, MMCHAL_SIM_CARD_MMC};
	struct mmchal_sim_card_config cc;
	uint8_t buf[3 * 512], *store;
	struct drv d;
	uint32_t rca;

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		card_cfg(&cc, kinds[k]);
		rca = open_card(&d, NULL, &cc, true);
		mmchal_bus_wr16(&d.bus, R_OPTION, k ? 0x80aeu : 0x40aeu); /* timeout 2^23 */
		store = mmchal_sim_card_store(d.sim, NULL);
		for (unsigned i = 0; i < sizeof(buf); i++)
			store[100 * 512 + i] = (uint8_t)(i ^ (i >> 8) ^ k);
		/* Three blocks. */
		assert_int_equal(r1(&d, C_R1 | 23, 3), TRAN_READY);
		assert_int_equal(drv_pio_read(&d, C_R1 | C_MULTI | C_NOA12 | 18, 100, 512, 3, buf),
				 0);
		assert_memory_equal(buf, store + 100 * 512, sizeof(buf));
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
		/* One block read. */
		assert_int_equal(r1(&d, C_R1 | 23, 1), TRAN_READY);
		assert_int_equal(drv_pio_read(&d, C_R1 | C_MULTI | C_NOA12 | 18, 101, 512, 1, buf),
				 0);
		assert_memory_equal(buf, store + 101 * 512, 512);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
		/* One block written: rcv -> prg -> tran by itself. */
		memset(buf, 0xd4, 512);
		assert_int_equal(r1(&d, C_R1 | 23, 1), TRAN_READY);
		assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | C_NOA12 | 25, 7, 512, 1, buf),
				 0);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_PRG);
		assert_true(drv_wait_not_busy(&d, 100000000u) & S_DAT0);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
		assert_int_equal(status(&d, rca), TRAN_READY);
		assert_memory_equal(store + 7 * 512, buf, 512);
		drv_close(&d);
	}
}

/*
 * A register block read with SD_SIZE other than its length (the SD CMD6
 * status is 64 bytes, EXT_CSD 512): the card sends its own length, so the
 * controller sees an end-bit error, as for a data block of the wrong size.
 */
static void test_payload_of_wrong_length(void **state)
{
	struct mmchal_sim_card_config cc;
	uint8_t buf[512];
	struct drv d;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_SD);
	open_card(&d, NULL, &cc, true);
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x00ffffffu, 512, 1, buf), S_END);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1) & ERR1_END, ERR1_END);
	drv_close(&d);

	card_cfg(&cc, MMCHAL_SIM_CARD_MMC);
	open_card(&d, NULL, &cc, true);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x80eeu);
	assert_int_equal(drv_pio_read(&d, C_R1 | 8, 0, 64, 1, buf), S_END);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1) & ERR1_END, ERR1_END);
	drv_close(&d);
}

/*
 * The end of the medium, with the caller's store right below an inaccessible
 * page: the last block reads and writes exactly (no byte past the store is
 * touched); a CMD25 running past the end has its block there refused
 * (negative CRC status, ERR_STS1 bit 11 and token "101"), nothing is written
 * past the end, and the CMD12 response reports OUT_OF_RANGE (in rcv), once.
 */
static void test_last_block_and_past_the_end(void **state)
{
	struct mmchal_sim_card_config cc;
	uint8_t *map, buf[2 * 512];
	struct drv d;

	(void)state;
	map = mmap(NULL, KIB512 + PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(map != MAP_FAILED);
	assert_int_equal(mprotect(map + KIB512, PAGE, PROT_NONE), 0);
	for (unsigned i = 0; i < KIB512; i++)
		map[i] = (uint8_t)(i * 13u + (i >> 9));
	card_cfg(&cc, MMCHAL_SIM_CARD_MMC);
	cc.capacity = KIB512; /* 1024 sectors */
	cc.store = map;
	open_card(&d, NULL, &cc, true);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x80aeu);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 1023, 512, 1, buf), 0);
	assert_memory_equal(buf, map + KIB512 - 512u, 512);
	memset(buf, 0x6b, sizeof(buf));
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, 1023, 512, 1, buf), 0);
	assert_true(drv_wait_not_busy(&d, 100000000u) & S_DAT0);
	assert_memory_equal(map + KIB512 - 512u, buf, 512);

	/* Two blocks from the last one, no automatic CMD12. */
	memset(buf, 0x19, 512);
	memset(buf + 512, 0x2a, 512);
	assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | C_NOA12 | 25, 1023, 512, 2, buf),
			 S_CRC);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x5800u);
	assert_memory_equal(map + KIB512 - 512u, buf, 512);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_RCV);
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(r1(&d, C_R1B | 12, 0),
			 R1_OUT_OF_RANGE | R1_ST(MMCHAL_SIM_ST_RCV) | R1_READY);
	assert_true(drv_wait_not_busy(&d, 100000000u) & S_DAT0);
	assert_int_equal(status(&d, 1), TRAN_READY);
	drv_close(&d);
	munmap(map, KIB512 + PAGE);
}

/* Blocks [first, last] of @store must hold @v, the blocks around them @fill. */
static void check_blocks(const uint8_t *store, unsigned first, unsigned last, uint8_t v,
			 uint8_t fill)
{
	for (unsigned i = first * 512u; i < (last + 1u) * 512u; i++)
		assert_int_equal(store[i], v);
	assert_int_equal(store[first * 512u - 1u], fill);
	assert_int_equal(store[(last + 1u) * 512u], fill);
}

/*
 * SD erase sequence (SD Physical Layer 4.10, 4.3.5): "If an erase (CMD38) or
 * address setting (CMD32, 33) command is received out of sequence, the card
 * shall set the ERASE_SEQ_ERROR bit ... and reset the whole sequence. If an
 * out of sequence command (except SEND_STATUS) is received, the card shall set
 * the ERASE_RESET status bit, reset the erase sequence and execute the last
 * command." So: a CMD33 or CMD38 after any reset of the sequence is a sequence
 * error and erases nothing; a CMD32 given again is an erase command (no
 * ERASE_RESET); CMD38 puts the card in prg until the erase is done.
 */
static void test_sd_erase_sequence_rules(void **state)
{
	struct mmchal_sim_card_config cc;
	uint8_t *store;
	struct drv d;
	uint32_t rca;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_SD);
	rca = open_card(&d, NULL, &cc, true);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(store, 0xaa, 1u << 20);

	/* CMD32 twice: the second is no out-of-sequence command. */
	assert_int_equal(r1(&d, C_R1 | 32, 10), TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 32, 12) & R1_ERASE_RESET, 0);
	assert_int_equal(r1(&d, C_R1 | 33, 13), TRAN_READY);
	/* CMD38 sent as R1: its response comes at once, the card programs in prg. */
	assert_int_equal(r1(&d, C_R1 | 38, 0), TRAN_READY);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_PRG);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	assert_int_equal(status(&d, rca), R1_ST(MMCHAL_SIM_ST_PRG));
	assert_true(drv_wait_not_busy(&d, 100000000u) & S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(status(&d, rca), TRAN_READY);
	check_blocks(store, 12, 13, 0x00, 0xaa);
	/* The sequence is over: CMD33 now is out of sequence. */
	assert_int_equal(r1(&d, C_R1 | 33, 20), R1_ERASE_SEQ | TRAN_READY);
	/* ... and so is the next CMD33: an out-of-order one starts no sequence. */
	assert_int_equal(r1(&d, C_R1 | 33, 21), R1_ERASE_SEQ | TRAN_READY);
	assert_int_equal(r1(&d, C_R1B | 38, 0), R1_ERASE_SEQ | TRAN_READY);
	/* CMD32, CMD38 out of sequence: the whole sequence is reset, CMD33 is next out. */
	assert_int_equal(r1(&d, C_R1 | 32, 20), TRAN_READY);
	assert_int_equal(r1(&d, C_R1B | 38, 0), R1_ERASE_SEQ | TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 33, 21), R1_ERASE_SEQ | TRAN_READY);
	assert_int_equal(r1(&d, C_R1B | 38, 0), R1_ERASE_SEQ | TRAN_READY);
	/* Another command in the sequence: ERASE_RESET, then CMD33 is out of sequence. */
	assert_int_equal(r1(&d, C_R1 | 32, 20), TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 33, 21), TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 16, 512), R1_ERASE_RESET | TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 33, 21), R1_ERASE_SEQ | TRAN_READY);
	assert_int_equal(r1(&d, C_R1B | 38, 0), R1_ERASE_SEQ | TRAN_READY);
	/* So is CMD55 (only SEND_STATUS is exempt): after it and an ACMD, CMD38 is out. */
	assert_int_equal(r1(&d, C_R1 | 32, 20), TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 33, 21), TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 55, rca << 16), R1_ERASE_RESET | R1_APP | TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | C_ACMD | 6, 2), R1_APP | TRAN_READY);
	assert_int_equal(r1(&d, C_R1B | 38, 0), R1_ERASE_SEQ | TRAN_READY);
	/*
	 * CMD56 is such a command too (the model has no GEN_CMD and stays silent:
	 * ILLEGAL_COMMAND beside the erase bits); CMD38 then erases nothing.
	 */
	assert_int_equal(r1(&d, C_R1 | 32, 20), TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 33, 21), TRAN_READY);
	assert_int_equal(drv_cmd(&d, C_R1 | 56, 1), MMCHAL_ETIMEDOUT);
	assert_int_equal(r1(&d, C_R1B | 38, 0) & (R1_ERASE_SEQ | R1_ERASE_RESET),
			 R1_ERASE_SEQ | R1_ERASE_RESET);
	/* A start address past the capacity sets none: CMD33 and CMD38 are out of sequence. */
	assert_int_equal(r1(&d, C_R1 | 32, (64u << 20) / 512u), R1_OUT_OF_RANGE | TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 33, 25), R1_ERASE_SEQ | TRAN_READY);
	assert_int_equal(r1(&d, C_R1B | 38, 0), R1_ERASE_SEQ | TRAN_READY);
	for (unsigned i = 0; i < 12 * 512u; i++)
		assert_int_equal(store[i], 0xaa);
	for (unsigned i = 14 * 512u; i < (1u << 20); i++)
		assert_int_equal(store[i], 0xaa);
	drv_close(&d);
}

/*
 * eMMC erase sequence (JEDEC 5.1 6.6.9, the same rules): CMD35 given again is
 * an erase command (no ERASE_RESET) and the range it starts is the one
 * trimmed; a CMD38 refused with ERASE_PARAM still ends the sequence, so the
 * next CMD38 is a sequence error and erases nothing.
 */
static void test_emmc_erase_sequence_rules(void **state)
{
	struct mmchal_sim_card_config cc;
	uint8_t *store;
	struct drv d;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_MMC);
	open_card(&d, NULL, &cc, true);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(store, 0xaa, 1u << 20);
	assert_int_equal(r1(&d, C_R1 | 35, 5), TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 35, 7) & R1_ERASE_RESET, 0);
	assert_int_equal(r1(&d, C_R1 | 36, 8), TRAN_READY);
	assert_int_equal(r1(&d, C_R1B | 38, 1), TRAN_READY); /* trim: exactly 7..8 */
	check_blocks(store, 7, 8, 0x00, 0xaa);
	/* ERASE_PARAM (argument 2), then a valid CMD38: out of sequence. */
	assert_int_equal(r1(&d, C_R1 | 35, 20), TRAN_READY);
	assert_int_equal(r1(&d, C_R1 | 36, 21), TRAN_READY);
	assert_int_equal(r1(&d, C_R1B | 38, 2), R1_ERASE_PARAM | TRAN_READY);
	assert_int_equal(r1(&d, C_R1B | 38, 1), R1_ERASE_SEQ | TRAN_READY);
	for (unsigned i = 0; i < 7 * 512u; i++)
		assert_int_equal(store[i], 0xaa);
	for (unsigned i = 9 * 512u; i < (1u << 20); i++)
		assert_int_equal(store[i], 0xaa);
	drv_close(&d);
}

/* One block read at the clock @div of the base clock; returns drv_pio_read's result. */
static uint32_t read_at(struct drv *d, uint16_t div)
{
	uint8_t blk[512];

	mmchal_bus_wr16(&d->bus, R_CLK, (uint16_t)(0x0100u | div));
	return drv_pio_read(d, C_R1 | 17, 0, 512, 1, blk);
}

/*
 * The clock each faster mode allows, to the hertz (docs/sim.md section 8; REF
 * bus rates): eMMC HS 52 MHz and HS200 200 MHz, SD SDR50 100 MHz and SDR104
 * 208 MHz (after CMD11 at 1.8 V). One hertz more: every block fails its CRC.
 */
static void test_fast_mode_clock_limits(void **state)
{
	static const struct {
		enum mmchal_sim_card_kind kind;
		unsigned mode; /* eMMC HS_TIMING / SD group 1 function */
		uint64_t base;
		bool ok;
	} cases[] = {
		{MMCHAL_SIM_CARD_MMC, 1, 52000000u, true},
		{MMCHAL_SIM_CARD_MMC, 1, 52000001u, false},
		{MMCHAL_SIM_CARD_MMC, 2, 200000000u, true},
		{MMCHAL_SIM_CARD_MMC, 2, 200000001u, false},
		{MMCHAL_SIM_CARD_SD, 2, 100000000u, true},
		{MMCHAL_SIM_CARD_SD, 2, 100000001u, false},
		{MMCHAL_SIM_CARD_SD, 3, 208000000u, true},
		{MMCHAL_SIM_CARD_SD, 3, 208000001u, false},
	};
	struct mmchal_sim_card_config cc;
	struct mmchal_sim_config sc;
	enum mmchal_timing t;
	struct drv d;
	uint8_t sw[64];

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mmchal_sim_config_defaults(&sc, MMCHAL_SIM_SOC_GEN3);
		sc.base_clock_hz = cases[i].base;
		card_cfg(&cc, cases[i].kind);
		open_card(&d, &sc, &cc, false); /* identification at 1/512 */
		if (cases[i].kind == MMCHAL_SIM_CARD_MMC) {
			assert_int_equal(drv_mmc_init(&d), 0);
			/* 8-bit bus (HS200 needs a wide one), then HS_TIMING. */
			assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b70200u), 0);
			mmchal_bus_wr16(&d.bus, R_OPTION, 0x60eeu);
			assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b90000u | cases[i].mode << 8),
					 0);
			assert_int_equal(status(&d, 1), TRAN_READY);
			assert_int_equal(mmchal_sim_card_bus(d.sim, NULL, &t), 0);
			assert_int_equal(t, cases[i].mode == 1 ? MMCHAL_TIMING_MMC_HS
							       : MMCHAL_TIMING_MMC_HS200);
		} else {
			uint32_t rca;

			assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
			assert_int_equal(sd_ready(&d, 0x41ff8000u), 0xc1ff8000u);
			assert_int_equal(r1(&d, C_R1 | 11, 0),
					 R1_ST(MMCHAL_SIM_ST_READY) | R1_READY);
			mmchal_bus_wr16(&d.bus, R_CLK, 0x0080u);
			d.port.ops->delay_us(d.port.ctx, 5000);
			mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u);
			d.port.ops->delay_us(d.port.ctx, 1000);
			assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
			assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
			assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
			rca = d.rsp[0] >> 16;
			assert_int_equal(drv_cmd(&d, C_R1B | 7, rca << 16), 0);
			assert_int_equal(drv_cmd(&d, C_R1 | 55, rca << 16), 0);
			assert_int_equal(drv_cmd(&d, C_R1 | C_ACMD | 6, 2), 0);
			mmchal_bus_wr16(&d.bus, R_OPTION, 0x40eeu);
			assert_int_equal(
				drv_pio_read(&d, C_R1 | 6, 0x80fffff0u | cases[i].mode, 64, 1, sw),
				0);
			assert_int_equal(sw[16] & 0x0fu, cases[i].mode);
			assert_int_equal(mmchal_sim_card_bus(d.sim, NULL, &t), 0);
			assert_int_equal(t, cases[i].mode == 2 ? MMCHAL_TIMING_UHS_SDR50
							       : MMCHAL_TIMING_UHS_SDR104);
		}
		assert_int_equal(read_at(&d, 0xffu), cases[i].ok ? 0 : S_CRC);
		drv_close(&d);
	}
}

/*
 * HS400 needs a CARD_TYPE HS400 bit (6 or 7; PROTOCOL.md section 3): a card
 * with HS26, HS52, DDR52 and HS200 only (0x17) takes the HS400 path up to the
 * 8-bit DDR width and refuses HS_TIMING 3 with SWITCH_ERROR, staying in DDR52.
 */
static void test_hs400_needs_card_type(void **state)
{
	struct mmchal_sim_card_config cc;
	enum mmchal_timing t;
	struct drv d;
	uint32_t w;

	(void)state;
	card_cfg(&cc, MMCHAL_SIM_CARD_MMC);
	cc.mmc_card_type = 0x17u;
	open_card(&d, NULL, &cc, true);
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b90100u), 0); /* HS_TIMING 1 */
	assert_int_equal(status(&d, 1), TRAN_READY);
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b70600u), 0); /* BUS_WIDTH 6 */
	assert_int_equal(status(&d, 1), TRAN_READY);
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b90300u), 0); /* HS_TIMING 3 */
	assert_int_equal(status(&d, 1), R1_SWITCH_ERROR | TRAN_READY);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 185), 1);
	assert_int_equal(mmchal_sim_card_bus(d.sim, &w, &t), 0);
	assert_int_equal(w, 8);
	assert_int_equal(t, MMCHAL_TIMING_MMC_DDR52);
	drv_close(&d);
}

/*
 * SEC_COUNT (EXT_CSD 215:212, little-endian) of a device above 8 GiB, whose
 * top byte is not 0: 0x01234400 sectors (about 9.1 GiB; the caller's store,
 * never touched).
 */
static void test_sec_count_top_byte(void **state)
{
	static const uint64_t sectors = 0x01234400u;
	struct mmchal_sim_card_config cc;
	struct drv d;
	void *store;

	(void)state;
	store = mmap(NULL, (size_t)(sectors * 512u), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	assert_true(store != MAP_FAILED);
	card_cfg(&cc, MMCHAL_SIM_CARD_MMC);
	cc.capacity = sectors * 512u;
	cc.store = store;
	open_card(&d, NULL, &cc, false);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 212), 0x00);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 213), 0x44);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 214), 0x23);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 215), 0x01);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 216), 0x00);
	drv_close(&d);
	munmap(store, (size_t)(sectors * 512u));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reinsertion_is_a_power_cycle),
		cmocka_unit_test(test_sd_registers_at_insertion),
		cmocka_unit_test(test_cmd0_restarts_the_card),
		cmocka_unit_test(test_cmd0_ends_programming_busy),
		cmocka_unit_test(test_sd_acmd41_inquiry_and_r6_status),
		cmocka_unit_test(test_sd_cmd16_limit_and_cmd6_group2),
		cmocka_unit_test(test_sd_voltage_switch_release_time),
		cmocka_unit_test(test_removal_ends_r1b_busy_wait),
		cmocka_unit_test(test_ready_for_data_clear_while_busy),
		cmocka_unit_test(test_deselect_while_programming_sd),
		cmocka_unit_test(test_deselect_while_programming_emmc),
		cmocka_unit_test(test_stop_and_status_states),
		cmocka_unit_test(test_stop_busy_exact),
		cmocka_unit_test(test_r2_without_busy),
		cmocka_unit_test(test_cmd23_counts),
		cmocka_unit_test(test_payload_of_wrong_length),
		cmocka_unit_test(test_last_block_and_past_the_end),
		cmocka_unit_test(test_sd_erase_sequence_rules),
		cmocka_unit_test(test_emmc_erase_sequence_rules),
		cmocka_unit_test(test_fast_mode_clock_limits),
		cmocka_unit_test(test_hs400_needs_card_type),
		cmocka_unit_test(test_sec_count_top_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
