/**
 * @file
 * @brief eMMC identification, bus width and timing selection.
 *
 * Sequence (JEDEC eMMC 6.4 and 6.6, PROTOCOL.md 4): CMD1 with sector mode
 * until ready, CMD2, CMD3 with a host-chosen RCA, CMD9, CMD7, CMD8
 * (EXT_CSD), then the widest bus (8 bits, else 4, each switch checked
 * with CMD13 and verified by reading EXT_CSD again over the new width, as
 * Linux mmc_compare_ext_csds does), then the fastest timing both sides
 * allow: HS400 (by way of HS200 and HS, JEDEC 6.6.2.3), HS200 with tuning,
 * DDR52, HS. The width is set before the timing, as U-Boot and Zephyr do;
 * Linux sets HS_TIMING first (the sources disagree; both are legal). A
 * library built without HS200 (::MMCHAL_WITH_HS200 0, config.h) has neither
 * the HS200 and HS400 steps nor the tuning: it stops at DDR52 or HS.
 *
 * Locking: none; one caller per card object, thread context.
 */
#include "core/card_priv.h"

#include "core/hints.h"
#include "core/mem.h"

/* CMD1 argument: sector mode, 2.7-3.6 V and 1.70-1.95 V (PROTOCOL.md 1) */
#define MMC_OCR_ARG 0x40ff8080u

#define MMC_CLOCK_LEGACY 26000000u
#define MMC_CLOCK_HS26   26000000u
#define MMC_CLOCK_HS52   52000000u
#define MMC_CLOCK_HS200  200000000u

/* CMD6 access mode 11: write byte (JEDEC 6.10.4); command set 0 as U-Boot and
   Zephyr send (Linux sends 1; the field is ignored for this access mode) */
#define MMC_SWITCH_WRITE_BYTE (3u << 24)

/* CMD6: SWITCH, write one EXT_CSD byte, wait for busy (not the CMD13 check).
   Out of line: mmc_steps() and mmc_try_width() share one copy. */
static CORE_NOINLINE_ int mmc_switch(struct mmchal_card *card, uint32_t index, uint32_t value)
{
	struct mmchal_cmd cmd;
	uint32_t arg = MMC_SWITCH_WRITE_BYTE | (index << 16) | (value << 8);
	/* every CMD6 comes after EXT_CSD was decoded, and the decoder gives
	   GENERIC_CMD6_TIME or its 500 ms default, never 0 */
	uint32_t busy = card->info.ext_csd.cmd6_time_ms;

	return mmchal_card_cmd_r1b_(card, &cmd, CARD_CMD_SWITCH, arg, busy);
}

/* CMD13 after a switch: SWITCH_ERROR says the card refused the value. Out of
   line: mmc_steps() and mmc_try_width() share one copy. */
static CORE_NOINLINE_ int mmc_switch_check(struct mmchal_card *card)
{
	return mmchal_card_wait_tran_(card, R1_CMD_ERRORS | R1_SWITCH_ERROR, NULL);
}

/*
 * Bus mode changes are sequences of steps, one 16-bit word each, run by
 * mmc_steps() until the first failure or the 0 that ends a sequence:
 *   SW(index, value)   CMD6 writing EXT_CSD BUS_WIDTH (W) or HS_TIMING (T)
 *   IOS(timing, clock) the host's timing and clock, then set_ios
 * Flags: CHK  CMD13 afterwards (mmc_switch_check);
 *        W8   (SW) value + 1 on an 8-bit bus (the 8-bit code of a width);
 *        NOCALL (IOS) set the timing only, set_ios comes later.
 */
#define STEP_SW     (1u << 14)
#define STEP_IOS    (2u << 14)
#define STEP_CHK    (1u << 13)
#define STEP_HS_IDX (1u << 12) /* SW: HS_TIMING, else BUS_WIDTH */
#define STEP_W8     (1u << 11) /* SW */
#define STEP_NOCALL (1u << 11) /* IOS */
#define STEP_CLK(c) ((uint32_t)(c) << 4)
#define CLK_KEEP    0u
#define CLK_HS      1u /* 52 MHz, or 26 MHz for an HS26-only card */
#define CLK_52      2u
#define CLK_200     3u
#define CLK_LEGACY  4u
#define W(v)        (STEP_SW | (v))
#define T(v)        (STEP_SW | STEP_HS_IDX | (v))
#define IOS(t, c)   (STEP_IOS | STEP_CLK(c) | (t))

/* HS200 did not work (HS at 52 MHz, which an HS200 card reaches from any
   timing mode), plain HS: one array, entered at different steps. */
static const uint16_t seq_hs200_back[] = {
	IOS(MMCHAL_TIMING_MMC_HS, CLK_52),
	/* seq_hs: HS_TIMING = 1, then CMD13 at the new timing, as Linux
	   mmc_switch_status does */
	T(EXT_CSD_TIMING_HS),
	IOS(MMCHAL_TIMING_MMC_HS, CLK_HS) | STEP_CHK,
	0,
};
#define seq_hs (seq_hs200_back + 1)

#if MMCHAL_WITH_HS200
/* HS400 did not come up: HS on the 8-bit single data rate bus, the state
   every HS400 switch starts from. */
static const uint16_t seq_hs400_back[] = {
	IOS(MMCHAL_TIMING_MMC_HS, CLK_52),
	T(EXT_CSD_TIMING_HS),
	IOS(MMCHAL_TIMING_MMC_HS, CLK_HS) | STEP_CHK,
	W(EXT_CSD_WIDTH_8) | STEP_CHK,
	0,
};

/* HS400 from tuned HS200: HS at 52 MHz, 8-bit DDR, HS_TIMING = 3, 200 MHz
   (JEDEC 6.6.2.3, Linux mmc_select_hs400). */
static const uint16_t seq_hs400[] = {
	IOS(MMCHAL_TIMING_MMC_HS, CLK_52),
	T(EXT_CSD_TIMING_HS),
	IOS(MMCHAL_TIMING_MMC_HS, CLK_HS) | STEP_CHK,
	W(EXT_CSD_WIDTH_8_DDR) | STEP_CHK,
	T(EXT_CSD_TIMING_HS400),
	IOS(MMCHAL_TIMING_MMC_HS400, CLK_200) | STEP_CHK,
	0,
};

/* HS200: HS_TIMING = 2 at up to 200 MHz on 1.8 V (tuning follows). */
static const uint16_t seq_hs200[] = {
	T(EXT_CSD_TIMING_HS200),
	IOS(MMCHAL_TIMING_MMC_HS200, CLK_200) | STEP_CHK,
	0,
};
#endif

/* DDR52 from HS: BUS_WIDTH 5 or 6. */
static const uint16_t seq_ddr52[] = {
	W(EXT_CSD_WIDTH_4_DDR) | STEP_W8 | STEP_CHK,
	IOS(MMCHAL_TIMING_MMC_DDR52, CLK_KEEP),
	0,
};

/* DDR52 failed: single data rate HS on the width already set, the card back
   to SDR, then the host, which may have been told DDR52 already (a set_ios
   that failed). */
static const uint16_t seq_ddr52_back[] = {
	IOS(MMCHAL_TIMING_MMC_HS, CLK_KEEP) | STEP_NOCALL,
	W(EXT_CSD_WIDTH_4) | STEP_W8 | STEP_CHK,
	IOS(MMCHAL_TIMING_MMC_HS, CLK_KEEP),
	0,
};

/* The card refused HS (SWITCH_ERROR): legacy timing, as Linux
   mmc_select_timing goes on after -EBADMSG. */
static const uint16_t seq_legacy[] = {
	IOS(MMCHAL_TIMING_LEGACY, CLK_LEGACY),
	0,
};

/* Neither wide bus works: the card back on one bit. */
static const uint16_t seq_width_1[] = {
	W(EXT_CSD_WIDTH_1) | STEP_CHK,
	0,
};

/* The clock of a CLK_* code (not CLK_KEEP), before the host's limit. */
static uint32_t step_clock(const struct mmchal_card *card, unsigned code)
{
	uint32_t f;

	switch (code) {
	case CLK_HS:
		return (card->info.ext_csd.card_type & EXT_CSD_TYPE_HS52) ? MMC_CLOCK_HS52
									  : MMC_CLOCK_HS26;
	case CLK_52:
		return MMC_CLOCK_HS52;
	case CLK_200:
		return MMC_CLOCK_HS200;
	default:
		f = card->info.csd.tran_speed_hz;
		return (f == 0u || f > MMC_CLOCK_LEGACY) ? MMC_CLOCK_LEGACY : f;
	}
}

static int mmc_steps(struct mmchal_card *card, const uint16_t *step)
{
	int err = 0;

	for (; !err && *step; step++) {
		uint32_t s = *step;

		if (s & STEP_SW) {
			uint32_t v = s & 7u;

			if ((s & STEP_W8) && card->ios.bus_width == MMCHAL_BUS_WIDTH_8)
				v++;
			err = mmc_switch(
				card, (s & STEP_HS_IDX) ? EXT_CSD_HS_TIMING : EXT_CSD_BUS_WIDTH, v);
		} else {
			unsigned clk = (s >> 4) & 7u;

			card->ios.timing = (enum mmchal_timing)(s & 0xfu);
#if MMCHAL_WITH_HS200
			/* HS200 signals at 1.8 V; a slot that cannot switch has its
			   eMMC I/O wired to 1.8 V already (the binding's
			   mmc-hs200-1_8v) */
			if (card->ios.timing == MMCHAL_TIMING_MMC_HS200 &&
			    (card->caps.bus & MMCHAL_BUS_1_8V))
				card->ios.signal_voltage = MMCHAL_SIGNAL_180;
#endif
			if (clk != CLK_KEEP)
				card->ios.clock_hz = step_clock(card, clk);
			if (!(s & STEP_NOCALL))
				err = mmchal_card_set_ios_(card);
		}
		if (!err && (s & STEP_CHK))
			err = mmc_switch_check(card);
	}
	return err;
}

static int mmc_read_ext_csd(struct mmchal_card *card, struct mmchal_ext_csd *ext)
{
	int err = mmchal_card_read_reg_(card, CARD_CMD_SEND_IF_COND, 0, false, 512);

	if (err)
		return err;
	err = mmchal_card_decode_ext_csd_(card->cfg.buf, ext);
	if (err)
		return mmchal_card_fail_op_(card, err, CARD_CMD_SEND_IF_COND, 0);
	return 0;
}

/* Switch the width, then read EXT_CSD over it: a bus fault shows as a CRC
   error or as fields that differ from the 1-bit copy. */
static int mmc_try_width(struct mmchal_card *card, uint32_t ext_val, enum mmchal_bus_width w)
{
	const struct mmchal_ext_csd *was = &card->info.ext_csd;
	struct mmchal_ext_csd now;
	int err;

	err = mmc_switch(card, EXT_CSD_BUS_WIDTH, ext_val);
	if (!err)
		err = mmc_switch_check(card);
	if (err)
		return err;
	card->ios.bus_width = w;
	err = mmchal_card_set_ios_(card);
	if (!err)
		err = mmc_read_ext_csd(card, &now);
	if (!err && (now.sec_count != was->sec_count || now.card_type != was->card_type ||
		     now.rev != was->rev || now.bus_width != ext_val))
		err = mmchal_card_fail_op_(card, MMCHAL_EPROTO, CARD_CMD_SEND_IF_COND, 0);
	if (err) {
		card->ios.bus_width = MMCHAL_BUS_WIDTH_1;
		if (err != MMCHAL_ENOMEDIUM)
			(void)mmchal_card_set_ios_(card);
	}
	return err;
}

static int mmc_bus_width(struct mmchal_card *card)
{
	int err = MMCHAL_ENOTSUP;

	if (card->caps.bus & MMCHAL_BUS_8_BIT) {
		err = mmc_try_width(card, EXT_CSD_WIDTH_8, MMCHAL_BUS_WIDTH_8);
		if (!err || err == MMCHAL_ENOMEDIUM)
			return err;
		mmchal_card_err_clear_(card);
	}
	if (card->caps.bus & (MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT)) {
		/* an 8-bit slot carries the 4-bit bus on DAT0-3 */
		err = mmc_try_width(card, EXT_CSD_WIDTH_4, MMCHAL_BUS_WIDTH_4);
		if (!err || err == MMCHAL_ENOMEDIUM)
			return err;
		mmchal_card_err_clear_(card);
	}
	if (err == MMCHAL_ENOTSUP)
		return 0;
	return mmc_steps(card, seq_width_1);
}

#if MMCHAL_WITH_HS200
/* HS200 and CMD21 tuning. */
static int mmc_hs200(struct mmchal_card *card)
{
	int err = mmc_steps(card, seq_hs200);

	if (err)
		return err;
	err = mmchal_host_execute_tuning(card->cfg.ops, card->cfg.ctx, CARD_CMD_SEND_TUNING_MMC);
	if (err == MMCHAL_ENOTSUP)
		return 0;
	if (err)
		return mmchal_card_fail_op_(card, mmchal_card_note_err_(card, err),
					    CARD_CMD_SEND_TUNING_MMC, 0);
	card->info.tuned = true;
	return 0;
}
#endif

/* A failed mode change: start again from a known state. */
static int mmc_fall_back(struct mmchal_card *card, const uint16_t *seq)
{
	mmchal_card_err_clear_(card);
#if MMCHAL_WITH_HS200
	/* only mmc_hs200() sets it; without HS200 it stays false (config.h) */
	card->info.tuned = false;
#endif
	return mmc_steps(card, seq);
}

static int mmc_timing(struct mmchal_card *card)
{
	uint32_t bus = card->caps.bus;
	uint8_t ct = card->info.ext_csd.card_type;
	bool wide = card->ios.bus_width != MMCHAL_BUS_WIDTH_1;
	int err;

#if MMCHAL_WITH_HS200
	if ((bus & MMCHAL_BUS_HS200) && (ct & EXT_CSD_TYPE_HS200_18) && wide) {
		err = mmc_hs200(card);
		if (!err) {
			if (!(bus & MMCHAL_BUS_HS400) || !(ct & EXT_CSD_TYPE_HS400_18) ||
			    card->ios.bus_width != MMCHAL_BUS_WIDTH_8)
				return 0;
			err = mmc_steps(card, seq_hs400);
			if (!err || err == MMCHAL_ENOMEDIUM)
				return err;
			return mmc_fall_back(card, seq_hs400_back);
		}
		if (err == MMCHAL_ENOMEDIUM)
			return err;
		return mmc_fall_back(card, seq_hs200_back);
	}
#endif
	if (!(bus & MMCHAL_BUS_MMC_HS) || !(ct & (EXT_CSD_TYPE_HS52 | EXT_CSD_TYPE_HS26)))
		return 0;
	err = mmc_steps(card, seq_hs);
	if (err == MMCHAL_EILSEQ)
		return mmc_fall_back(card, seq_legacy);
	if (err)
		return err;
	if ((bus & MMCHAL_BUS_MMC_DDR52) && (ct & EXT_CSD_TYPE_DDR52_18_33) && wide) {
		err = mmc_steps(card, seq_ddr52);
		if (err && err != MMCHAL_ENOMEDIUM)
			err = mmc_fall_back(card, seq_ddr52_back);
	}
	return err;
}

int mmchal_card_mmc_init_(struct mmchal_card *card)
{
	bool answered;
	int err;

	/* CMD1 in sector mode */
	err = mmchal_card_ident_(card, true, MMC_OCR_ARG, &answered);
	if (err)
		return err;

	err = mmc_steps(card, seq_legacy);
	if (err)
		return err;

	card->info.sectors = card->info.csd.capacity / MMCHAL_CARD_BLKSZ;
	card->info.erase_unit = card->info.csd.erase_grp;
	/* info.erased_byte is 0 until EXT_CSD says otherwise: mmchal_card_init()
	   cleared the info, and an SD attempt that came before set nothing (a
	   card that answered ACMD41 is never tried as eMMC) */
	mmchal_card_read_only_(card);
	/* SET_BLOCK_COUNT exists from MMC 3.1 (SPEC_VERS 3) */
	card->info.cmd23 = card->info.csd.spec_vers >= 3u && (card->caps.bus & MMCHAL_BUS_CMD23);

	if (card->info.csd.spec_vers >= 4u) {
		/* CMD8: SEND_EXT_CSD */
		err = mmc_read_ext_csd(card, &card->info.ext_csd);
		if (err)
			return err;
		/* above 2 GB the CSD size is a dummy; SEC_COUNT holds it */
		if (card->info.block_addr && card->info.ext_csd.rev >= 2u)
			card->info.sectors = card->info.ext_csd.sec_count;
		card->info.erased_byte = card->info.ext_csd.erased_byte;
		mmchal_card_decode_mmc_cid_(card->info.raw_cid, card->info.ext_csd.rev,
					    &card->info.cid);
		err = mmc_bus_width(card);
		if (err)
			return err;
		err = mmc_timing(card);
		if (err)
			return err;
	}
	return mmchal_card_set_blocklen_(card);
}
