/**
 * @file
 * @brief Card layer commands: one command, an application command, a
 *        register read, busy and status waits, and the failure record.
 *
 * Everything goes through the host's request_sync and set_ios ops; nothing
 * here touches a register.
 *
 * Locking: none; one caller per card object, thread context (request_sync
 * waits).
 */
#include "core/card_priv.h"

#include "core/hints.h"
#include "core/mem.h"

#define CMD_TIMEOUT_MS_DEFAULT 1000u
#define BUSY_TRIES_DEFAULT     100000u
#define OP_COND_TRIES_DEFAULT  1000u
/* ~1 s of CMD1, ACMD41 or CMD5 polling with the caller's delay (Linux 100 x
   10 ms, U-Boot 1000 x 1 ms) */
#define OP_COND_POLL_US        1000u

/* polling interval while the card is busy, when the caller gave a delay */
#define BUSY_POLL_US 100u

void mmchal_card_err_clear_(struct mmchal_card *card)
{
	memset(&card->err, 0, sizeof(card->err));
}

/* Out of line: every failure path calls this one copy. */
CORE_NOINLINE_ int mmchal_card_fail_(struct mmchal_card *card, int err, uint32_t opcode, bool app,
				     uint32_t arg)
{
	if (err && !card->err.err) {
		card->err.err = err;
		card->err.opcode = opcode;
		card->err.app = app;
		card->err.arg = arg;
	}
	return err;
}

int mmchal_card_fail_op_(struct mmchal_card *card, int err, uint32_t opcode, uint32_t arg)
{
	return mmchal_card_fail_(card, err, opcode, false, arg);
}

void mmchal_card_fail_status_(struct mmchal_card *card, uint32_t status)
{
	if (card->err.err && !card->err.status_valid) {
		card->err.status = status;
		card->err.status_valid = true;
	}
}

int mmchal_card_note_err_(struct mmchal_card *card, int err)
{
	if (err == MMCHAL_ENOMEDIUM) {
		card->removed = true;
		card->ready = false;
	}
	return err;
}

void mmchal_card_delay_(struct mmchal_card *card, uint32_t us)
{
	if (card->cfg.delay_us)
		card->cfg.delay_us(card->cfg.delay_arg, us);
}

static uint32_t cmd_timeout(const struct mmchal_card *card)
{
	return card->cfg.cmd_timeout_ms ? card->cfg.cmd_timeout_ms : CMD_TIMEOUT_MS_DEFAULT;
}

int mmchal_card_set_ios_(struct mmchal_card *card)
{
	int err;

	/* every clock the layer asks for is capped at the host's f_max here */
	if (card->caps.f_max_hz && card->ios.clock_hz > card->caps.f_max_hz)
		card->ios.clock_hz = card->caps.f_max_hz;
	err = card->cfg.ops->set_ios(card->cfg.ctx, &card->ios);
	return mmchal_card_host_err_(card, err);
}

static int run(struct mmchal_card *card, struct mmchal_request *req, uint32_t timeout_ms)
{
	int err = mmchal_host_request_sync_op(card->cfg.ops, card->cfg.ctx, req, timeout_ms);

	return mmchal_card_note_err_(card, err);
}

int mmchal_card_refuse_(struct mmchal_card *card, int err)
{
	return mmchal_card_fail_op_(card, err, MMCHAL_CARD_NO_CMD, 0);
}

int mmchal_card_host_err_(struct mmchal_card *card, int err)
{
	return mmchal_card_refuse_(card, mmchal_card_note_err_(card, err));
}

int mmchal_card_check_(struct mmchal_card *card, const struct mmchal_cmd *cmd, uint32_t mask,
		       bool app)
{
	int err = mmchal_card_status_err_(cmd->resp[0], mask);

	if (err) {
		mmchal_card_fail_(card, err, cmd->opcode, app, cmd->arg);
		mmchal_card_fail_status_(card, cmd->resp[0]);
	}
	return err;
}

/* Flags of command() beside CARD_CMD_CHECK (never sent). */
#define CMD_APP  (1u << 30) /* an application command: failures say so */
#define CMD_READ (1u << 29) /* @extra is the size of a one-block register read */
#define CMD_PRIV (CARD_CMD_CHECK | CMD_APP | CMD_READ)

int mmchal_card_run_(struct mmchal_card *card, struct mmchal_request *req, uint32_t timeout_ms,
		     uint32_t flags)
{
	const struct mmchal_cmd *cmd = req->cmd;
	bool app = (flags & CMD_APP) != 0;
	int err = run(card, req, timeout_ms);

	if (err) {
		const struct mmchal_cmd *f = (req->sbc && req->sbc->error)     ? req->sbc
					     : (req->stop && req->stop->error) ? req->stop
									       : cmd;

		mmchal_card_fail_(card, err, f->opcode, app, f->arg);
		/* the command was answered (the data phase failed): its status
		   goes with the failure */
		if (f == cmd && req->data && !cmd->error)
			mmchal_card_fail_status_(card, cmd->resp[0]);
		return err;
	}
	if (!(flags & CARD_CMD_CHECK))
		return 0;
	err = mmchal_card_check_(card, cmd, R1_CMD_ERRORS, app);
	if (!err && req->stop)
		err = mmchal_card_check_(card, req->stop, R1_CMD_ERRORS, false);
	return err;
}

/*
 * The one place a command is built and sent: @cmd cleared and filled in,
 * with CMD_READ a one-block read of @extra bytes into cfg.buf, else @extra
 * the busy time of an R1b command, added to the command timeout, then run
 * by mmchal_card_run_().
 */
static int command(struct mmchal_card *card, struct mmchal_cmd *cmd, uint32_t opcode, uint32_t arg,
		   uint32_t flags, uint32_t extra)
{
	/* one clear for all three: data and sg are unused (req.data NULL)
	   unless CMD_READ fills them in */
	struct {
		struct mmchal_request req;
		struct mmchal_data data;
		struct mmchal_sg sg;
	} r;
	uint32_t busy_ms = extra;

	memset(cmd, 0, sizeof(*cmd));
	memset(&r, 0, sizeof(r));
	if (flags & CMD_READ) {
		r.sg.cpu = card->cfg.buf;
		r.sg.phys = card->cfg.buf_phys;
		r.sg.len = extra;
		r.data.dir = MMCHAL_DIR_FROM_CARD;
		r.data.blksz = extra;
		r.data.blocks = 1;
		r.data.sg = &r.sg;
		r.data.sg_len = 1;
		/* register reads take at most the 100 ms SD read timeout (PROTOCOL.md 5) */
		r.data.timeout_ns = 100000000u;
		r.req.data = &r.data;
		busy_ms = 0;
	}
	cmd->opcode = opcode;
	cmd->arg = arg;
	cmd->flags = flags & ~CMD_PRIV;
	cmd->busy_timeout_ms = busy_ms;
	r.req.cmd = cmd;
	return mmchal_card_run_(card, &r.req, cmd_timeout(card) + busy_ms, flags);
}

int mmchal_card_cmd_(struct mmchal_card *card, struct mmchal_cmd *cmd, uint32_t opcode,
		     uint32_t arg, uint32_t flags)
{
	return command(card, cmd, opcode, arg, flags, 0);
}

int mmchal_card_cmd_r2_(struct mmchal_card *card, uint32_t opcode, uint32_t arg, uint32_t reg[4])
{
	struct mmchal_cmd cmd;
	int err = mmchal_card_cmd_(card, &cmd, opcode, arg, MMCHAL_RSP_R2);

	if (!err)
		memcpy(reg, cmd.resp, sizeof(cmd.resp));
	return err;
}

/* CMD55: APP_CMD; the next command is an application command. */
static int app_cmd(struct mmchal_card *card, struct mmchal_cmd *cmd)
{
	return mmchal_card_cmd_(card, cmd, CARD_CMD_APP, (uint32_t)card->info.rca << 16,
				MMCHAL_RSP_R1);
}

int mmchal_card_acmd_(struct mmchal_card *card, struct mmchal_cmd *cmd, uint32_t opcode,
		      uint32_t arg, uint32_t flags)
{
	int err = app_cmd(card, cmd);

	if (err)
		return err;
	if (!(cmd->resp[0] & R1_APP_CMD)) {
		mmchal_card_fail_op_(card, MMCHAL_EILSEQ, CARD_CMD_APP, cmd->arg);
		mmchal_card_fail_status_(card, cmd->resp[0]);
		return MMCHAL_EILSEQ;
	}
	return command(card, cmd, opcode, arg, flags | CMD_APP, 0);
}

int mmchal_card_read_reg_(struct mmchal_card *card, uint32_t opcode, uint32_t arg, bool app,
			  uint32_t blksz)
{
	struct mmchal_cmd cmd;

	if (app) {
		int err = app_cmd(card, &cmd);

		if (err)
			return err;
	}
	return command(card, &cmd, opcode, arg,
		       MMCHAL_RSP_R1 | CARD_CMD_CHECK | CMD_READ | (app ? CMD_APP : 0u), blksz);
}

int mmchal_card_op_cond_(struct mmchal_card *card, uint32_t opcode, uint32_t arg, bool app,
			 bool *answered)
{
	uint32_t tries = card->cfg.op_cond_tries ? card->cfg.op_cond_tries : OP_COND_TRIES_DEFAULT;
	struct mmchal_cmd cmd;

	for (uint32_t i = 0; i < tries; i++) {
		/* the eMMC read-only build (config.h) sends no ACMD41 */
		int err = (!MMCHAL_EMMC_RO && app)
				  ? mmchal_card_acmd_(card, &cmd, opcode, arg, MMCHAL_RSP_R3)
				  : mmchal_card_cmd_(card, &cmd, opcode, arg, MMCHAL_RSP_R3);

		if (err)
			return err;
		*answered = true;
		card->info.ocr = cmd.resp[0];
		if (cmd.resp[0] & OCR_BUSY)
			return 0;
		mmchal_card_delay_(card, OP_COND_POLL_US);
	}
	return mmchal_card_fail_(card, MMCHAL_ETIMEDOUT, opcode, app, arg);
}

int mmchal_card_set_blocklen_(struct mmchal_card *card)
{
	struct mmchal_cmd cmd;

	if (card->info.block_addr)
		return 0;
	/* CMD16: SET_BLOCKLEN; SDSC may default to its READ_BL_LEN, a byte-mode
	   eMMC to its own */
	return mmchal_card_cmd_(card, &cmd, CARD_CMD_SET_BLOCKLEN, MMCHAL_CARD_BLKSZ,
				MMCHAL_RSP_R1 | CARD_CMD_CHECK);
}

static uint32_t busy_tries(const struct mmchal_card *card)
{
	return card->cfg.busy_poll_tries ? card->cfg.busy_poll_tries : BUSY_TRIES_DEFAULT;
}

int mmchal_card_wait_tran_(struct mmchal_card *card, uint32_t mask, uint32_t *status)
{
	uint32_t arg = (uint32_t)card->info.rca << 16;
	struct mmchal_cmd cmd;
	uint32_t tries = busy_tries(card);

	for (uint32_t i = 0; i < tries; i++) {
		uint32_t st;
		int err;

		/* CMD13: SEND_STATUS */
		err = mmchal_card_cmd_(card, &cmd, CARD_CMD_SEND_STATUS, arg, MMCHAL_RSP_R1);
		if (err)
			return err;
		st = cmd.resp[0];
		if (status)
			*status = st;
		err = mmchal_card_check_(card, &cmd, mask, false);
		if (err)
			return err;
		/* programming is over when the card is ready for data and out of
		   prg (U-Boot mmc_poll_for_busy, Linux mmc_busy_cb) */
		if ((st & R1_READY_FOR_DATA) && R1_STATE(st) != CARD_STATE_PRG &&
		    R1_STATE(st) != CARD_STATE_RCV)
			return 0;
		mmchal_card_delay_(card, BUSY_POLL_US);
	}
	return mmchal_card_fail_op_(card, MMCHAL_ETIMEDOUT, CARD_CMD_SEND_STATUS, arg);
}

int mmchal_card_wait_busy_(struct mmchal_card *card, uint32_t timeout_ms)
{
	uint32_t tries = busy_tries(card);

	(void)timeout_ms;
	/* a controller that detects the end of busy has already waited */
	if (card->caps.bus & MMCHAL_BUS_HW_BUSY)
		return 0;
	for (uint32_t i = 0; i < tries; i++) {
		int b = mmchal_host_card_busy(card->cfg.ops, card->cfg.ctx);

		if (b == MMCHAL_ENOTSUP)
			break;
		/* a host op failed: recorded as no command's, like set_ios */
		if (b < 0)
			return mmchal_card_host_err_(card, b);
		if (b == 0)
			return 0;
		mmchal_card_delay_(card, BUSY_POLL_US);
	}
	/* no DAT0 view (or it never let go): CMD13 tells when programming is done;
	   identification has no RCA yet and never gets here with busy */
	if (card->info.rca == 0u)
		return 0;
	return mmchal_card_wait_tran_(card, 0, NULL);
}

int mmchal_card_cmd_r1b_(struct mmchal_card *card, struct mmchal_cmd *cmd, uint32_t opcode,
			 uint32_t arg, uint32_t busy_ms)
{
	int err = command(card, cmd, opcode, arg, MMCHAL_RSP_R1B | CARD_CMD_CHECK, busy_ms);

	return err ? err : mmchal_card_wait_busy_(card, busy_ms);
}
