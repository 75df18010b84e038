/**
 * @file
 * @brief Card layer entry points: set-up, power-up and card-type detection,
 *        removal, and the accessors.
 *
 * Detection follows Linux mmc_rescan_try_freq (PROTOCOL.md 4): CMD0, CMD8,
 * then CMD5 (SDIO), ACMD41 (SD) and CMD1 (eMMC) in turn; a card that does not
 * answer one of them is not of that kind.
 *
 * Locking: none; one caller per card object, thread context.
 */
#include "core/card_priv.h"

#include "core/mem.h"

#define F_INIT_HZ_DEFAULT 400000u
/* CMD8 argument: VHS 0001 (2.7-3.6 V), check pattern 0xAA (SD Physical Layer 4.3.13) */
#define SD_IF_COND_ARG    0x1aau

int mmchal_card_setup(struct mmchal_card *card, const struct mmchal_card_cfg *cfg)
{
	if (!card || !cfg || !cfg->buf)
		return MMCHAL_EINVAL;
	if (!cfg->ops || !cfg->ops->request_sync || !cfg->ops->set_ios)
		return MMCHAL_EINVAL;
	if (cfg->sg_scratch && cfg->sg_scratch_len == 0u)
		return MMCHAL_EINVAL;
	memset(card, 0, sizeof(*card));
	card->cfg = *cfg;
	if (!card->cfg.sg_scratch) {
		card->cfg.sg_scratch = card->sg_inline;
		card->cfg.sg_scratch_len = MMCHAL_CARD_SG_INLINE;
	}
	return 0;
}

static bool setup_done(const struct mmchal_card *card)
{
	return card->cfg.ops && card->cfg.buf && card->cfg.sg_scratch;
}

int mmchal_card_check_present(struct mmchal_card *card)
{
	int cd;

	if (!card || !setup_done(card))
		return MMCHAL_EINVAL;
	if (card->caps.bus & MMCHAL_BUS_NONREMOVABLE)
		return card->removed ? MMCHAL_ENOMEDIUM : 0;
	cd = mmchal_host_get_cd(card->cfg.ops, card->cfg.ctx);
	if (cd == 0 || cd == MMCHAL_ENOMEDIUM) {
		card->removed = true;
		card->ready = false;
	}
	return card->removed ? MMCHAL_ENOMEDIUM : 0;
}

void mmchal_card_read_only_(struct mmchal_card *card)
{
	int ro = mmchal_host_get_ro(card->cfg.ops, card->cfg.ctx);

	card->info.read_only = ro == 1 || card->info.csd.perm_wp || card->info.csd.tmp_wp;
}

int mmchal_card_type_known_(struct mmchal_card *card, enum mmchal_card_type type)
{
	int err;

	card->info.type = type;
	/* the limits follow the card (e.g. the merge raise for memory cards) */
	err = mmchal_host_init_card(card->cfg.ops, card->cfg.ctx, type);
	if (err && err != MMCHAL_ENOTSUP)
		return mmchal_card_host_err_(card, err);
	memset(&card->limits, 0, sizeof(card->limits));
	err = mmchal_host_get_limits_op(card->cfg.ops, card->cfg.ctx, &card->limits);
	if (err == MMCHAL_ENOTSUP) {
		/* no limits to ask for: one entry per caller entry, 16-bit counter */
		card->limits.max_segs = card->cfg.sg_scratch_len;
		card->limits.max_blk_count = 65535u;
		card->limits.max_blk_size = MMCHAL_CARD_BLKSZ;
		card->limits.max_req_size = (uint64_t)65535u * MMCHAL_CARD_BLKSZ;
		card->limits.card = type;
		return 0;
	}
	return mmchal_card_host_err_(card, err);
}

static int power_up(struct mmchal_card *card)
{
	int err;

	card->ios.clock_hz = 0;
	card->ios.bus_width = MMCHAL_BUS_WIDTH_1;
	card->ios.timing = MMCHAL_TIMING_LEGACY;
	card->ios.signal_voltage = MMCHAL_SIGNAL_330;
	/* a cycle through power-off resets a card left in any state */
	card->ios.power_mode = MMCHAL_POWER_OFF;
	err = mmchal_card_set_ios_(card);
	if (err)
		return err;
	card->ios.power_mode = MMCHAL_POWER_UP;
	err = mmchal_card_set_ios_(card);
	if (err)
		return err;
	/* >= 1 ms of power before the clock (U-Boot mmc_power_on), then the
	   identification clock; the host sends the 74 initial clocks with it */
	mmchal_card_delay_(card, 1000u);
	card->ios.power_mode = MMCHAL_POWER_ON;
	card->ios.clock_hz = card->cfg.f_init_hz ? card->cfg.f_init_hz : F_INIT_HZ_DEFAULT;
	err = mmchal_card_set_ios_(card);
	if (err)
		return err;
	mmchal_card_delay_(card, 1000u);
	card->info.clock_hz = card->ios.clock_hz;
	return 0;
}

/* CMD0: GO_IDLE_STATE. */
static int go_idle(struct mmchal_card *card)
{
	struct mmchal_cmd cmd;

	return mmchal_card_cmd_(card, &cmd, CARD_CMD_GO_IDLE, 0, MMCHAL_RSP_NONE);
}

#if MMCHAL_EMMC_RO
/* eMMC-only build (config.h): the eMMC sequence alone, as an eMMC boot
   loader runs it (JEDEC eMMC 6.4.4: CMD0, then CMD1 until ready). */
static int identify(struct mmchal_card *card)
{
	int err = power_up(card);

	if (!err)
		err = go_idle(card);
	if (!err)
		err = go_idle(card);
	if (err)
		return err;
	return mmchal_card_mmc_init_(card);
}
#else
static int identify(struct mmchal_card *card)
{
	struct mmchal_cmd cmd;
	bool v2 = false, sd = false;
	int err;

	err = power_up(card);
	if (err)
		return err;
	/* CMD0 twice: a card in a slot without power switching keeps its state,
	   and one that saw CMD55 but lost the command after it takes the next
	   command as an application command; the first CMD0 clears that */
	err = go_idle(card);
	if (!err)
		err = go_idle(card);
	if (err)
		return err;

	/* CMD8: SEND_IF_COND. Only SD 2.00+ answers; eMMC and SD 1.x stay silent */
	err = mmchal_card_cmd_(card, &cmd, CARD_CMD_SEND_IF_COND, SD_IF_COND_ARG, MMCHAL_RSP_R7);
	if (err == MMCHAL_ENOMEDIUM)
		return MMCHAL_ENOMEDIUM;
	if (!err) {
		if ((cmd.resp[0] & 0xfffu) != SD_IF_COND_ARG)
			return mmchal_card_fail_op_(card, MMCHAL_EPROTO, CARD_CMD_SEND_IF_COND,
						    SD_IF_COND_ARG);
		v2 = true;
	}
	mmchal_card_err_clear_(card);

	/* CMD5: IO_SEND_OP_COND inquiry. Memory cards treat it as illegal */
	err = mmchal_card_cmd_(card, &cmd, CARD_CMD_IO_SEND_OP_COND, 0, MMCHAL_RSP_R4);
	if (err == MMCHAL_ENOMEDIUM)
		return MMCHAL_ENOMEDIUM;
	if (!err) {
		uint32_t r4 = cmd.resp[0];

		/* no functions and memory present: a memory card that answers
		   CMD5 (Zephyr sdio.c); go on as one. (The failure record is
		   clear: nothing failed since the clear above.) */
		if (((r4 >> 28) & 7u) != 0u || !(r4 & (1u << 27)))
			return mmchal_card_sdio_init_(card, r4);
	}
	mmchal_card_err_clear_(card);

	err = mmchal_card_sd_init_(card, v2, &sd);
	/* no answer to CMD55/ACMD41 is how an eMMC shows itself (SanDisk
	   manual; U-Boot falls back on the timeout). A card that answered CMD8
	   or ACMD41 is SD whatever went wrong later. */
	if (!err || err == MMCHAL_ENOMEDIUM || v2 || sd)
		return err;
	mmchal_card_err_clear_(card);
	err = go_idle(card);
	if (err)
		return err;
	return mmchal_card_mmc_init_(card);
}
#endif

int mmchal_card_init(struct mmchal_card *card)
{
	int err;

	if (!card || !setup_done(card))
		return MMCHAL_EINVAL;
	mmchal_card_err_clear_(card);
	card->ready = false;
	memset(&card->info, 0, sizeof(card->info));
	memset(&card->caps, 0, sizeof(card->caps));
	err = mmchal_host_get_caps_op(card->cfg.ops, card->cfg.ctx, &card->caps);
	if (err && err != MMCHAL_ENOTSUP)
		return mmchal_card_host_err_(card, err);
	card->caps.bus &= ~card->cfg.bus_disable;
	/* a new card: present unless the slot's card detect says otherwise */
	card->removed = false;
	err = mmchal_card_check_present(card);
	if (err)
		return mmchal_card_refuse_(card, err);
	err = identify(card);
	if (!err && card->removed)
		err = MMCHAL_ENOMEDIUM;
	if (err) {
		card->info.type = MMCHAL_CARD_UNKNOWN;
		/* keeps what identify() recorded; with no record (a removal it
		   did not fail on) the record's fields are still the clear's
		   zeros, and those go with the error */
		return mmchal_card_fail_op_(card, err, 0, 0);
	}
#if !MMCHAL_WITH_SDIO
	/* detected by CMD5, but this build drives no SDIO function (config.h):
	   the card keeps its type and is not ready */
	if (card->info.type == MMCHAL_CARD_SDIO || card->info.type == MMCHAL_CARD_SD_COMBO)
		return mmchal_card_refuse_(card, MMCHAL_ENOTSUP);
#endif
	card->info.bus_width = card->ios.bus_width;
	card->info.timing = card->ios.timing;
	card->info.clock_hz = card->ios.clock_hz;
	card->ready = true;
	return 0;
}

const struct mmchal_card_info *mmchal_card_info(const struct mmchal_card *card)
{
	return card ? &card->info : NULL;
}

const struct mmchal_card_err *mmchal_card_last_error(const struct mmchal_card *card)
{
	return card ? &card->err : NULL;
}
