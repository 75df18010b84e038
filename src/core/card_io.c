/**
 * @file
 * @brief Block read, write and erase on an identified SD or eMMC card.
 *
 * A call is split into requests that fit the host's limits (card_split.c);
 * each request is CMD17/CMD24 for one block, else CMD18/CMD25 with CMD23
 * ahead when card and host both support it, else CMD12 after. A write is
 * complete when CMD13 shows the card back in the transfer state (SD Physical
 * Layer 4.3.4: the card programs after the data, the host polls). A failed
 * request is recovered (CMD12 when the card is still sending or receiving,
 * then CMD13 until tran); on SD, ACMD22 then says how many blocks of a
 * failed write were programmed (SD Physical Layer 4.3.4, Linux
 * mmc_sd_num_wr_blocks).
 *
 * Locking: none; one caller per card object, thread context.
 */
#include "core/card_priv.h"

#include "core/mem.h"

/* SD read access 100 ms and write busy 250 ms (PROTOCOL.md 5) */
#define READ_TIMEOUT_MS   100u
#define WRITE_TIMEOUT_MS  250u
#define CMD_TIMEOUT_MS    1000u
#define ERASE_BASE_MS     1000u
#define ERASE_PER_UNIT_MS 300u /* Linux: 300 ms per erase group without EXT_CSD data */
/* SD erases in allocation units; 4 MiB is the common AU of SDHC cards */
#define SD_AU_SECTORS     8192u

static int io_enter(struct mmchal_card *card, bool write)
{
	int err;

	if (!card || !card->cfg.ops || !card->cfg.sg_scratch)
		return MMCHAL_EINVAL;
	mmchal_card_err_clear_(card);
	err = mmchal_card_check_present(card);
	if (err)
		return mmchal_card_refuse_(card, err);
	if (!card->ready)
		return mmchal_card_refuse_(card, MMCHAL_ENOMEDIUM);
#if MMCHAL_WITH_SDIO
	/* an SDIO card is ready with no block access; a build without SDIO
	   functions (config.h) never makes one ready */
	if (card->info.type != MMCHAL_CARD_SD && card->info.type != MMCHAL_CARD_MMC)
		return mmchal_card_refuse_(card, MMCHAL_ENOTSUP);
#endif
	if (write && card->info.read_only)
		return mmchal_card_refuse_(card, MMCHAL_EROFS);
	return 0;
}

static int range_check(struct mmchal_card *card, uint64_t lba, uint32_t blocks)
{
	if (blocks == 0u)
		return mmchal_card_refuse_(card, MMCHAL_EINVAL);
	if (lba >= card->info.sectors || blocks > card->info.sectors - lba)
		return mmchal_card_refuse_(card, MMCHAL_ERANGE);
	return 0;
}

/* SDSC and byte-mode eMMC take byte addresses, the others block numbers. */
static uint32_t addr_arg(const struct mmchal_card *card, uint64_t lba)
{
	return card->info.block_addr ? (uint32_t)lba : (uint32_t)(lba * MMCHAL_CARD_BLKSZ);
}

static uint32_t cmd_timeout(const struct mmchal_card *card)
{
	return card->cfg.cmd_timeout_ms ? card->cfg.cmd_timeout_ms : CMD_TIMEOUT_MS;
}

static int split_limits(struct mmchal_card *card, struct mmchal_card_split_lim_ *lim)
{
	const struct mmchal_limits *l = &card->limits;
	uint64_t by_size = l->max_req_size / MMCHAL_CARD_BLKSZ;
	uint32_t max_blocks = l->max_blk_count;

	if (l->max_blk_size && l->max_blk_size < MMCHAL_CARD_BLKSZ)
		return MMCHAL_ENOTSUP;
	if (l->max_req_size && by_size < max_blocks)
		max_blocks = (uint32_t)by_size;
	/* eMMC CMD23 carries the count in [15:0] (JEDEC 6.10.4) */
	if (card->info.cmd23 && card->info.type == MMCHAL_CARD_MMC && max_blocks > 65535u)
		max_blocks = 65535u;
	if (max_blocks == 0u)
		return MMCHAL_ENOTSUP;
	lim->max_blocks = max_blocks;
	lim->max_segs = l->max_segs ? l->max_segs : 1u;
	lim->max_seg_size = l->max_seg_size;
	if (lim->max_seg_size && lim->max_seg_size < MMCHAL_CARD_BLKSZ)
		lim->max_seg_size = MMCHAL_CARD_BLKSZ;
	lim->seg_boundary = l->seg_boundary;
	lim->virt_boundary = l->virt_boundary;
	return 0;
}

/* After a failed request: stop a transfer still running, wait for tran. */
static void recover(struct mmchal_card *card)
{
	uint32_t arg = (uint32_t)card->info.rca << 16;
	struct mmchal_cmd cmd;
	uint32_t st;

	if (card->removed)
		return;
	/* CMD13: where is the card? */
	if (mmchal_card_cmd_(card, &cmd, CARD_CMD_SEND_STATUS, arg, MMCHAL_RSP_R1))
		return;
	st = cmd.resp[0];
	mmchal_card_fail_status_(card, st);
	if (R1_STATE(st) == CARD_STATE_DATA || R1_STATE(st) == CARD_STATE_RCV) {
		/* CMD12: STOP_TRANSMISSION */
		if (mmchal_card_cmd_r1b_(card, &cmd, CARD_CMD_STOP, 0, WRITE_TIMEOUT_MS))
			return;
	}
	(void)mmchal_card_wait_tran_(card, 0, NULL);
}

/* ACMD22: SEND_NUM_WR_BLOCKS, the well-written blocks of the last write. */
static int sd_written_blocks(struct mmchal_card *card, uint32_t *n)
{
	const uint8_t *b = card->cfg.buf;
	int err = mmchal_card_read_reg_(card, CARD_ACMD_NUM_WR_BLOCKS, 0, true, 4);

	if (err)
		return err;
	*n = ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
	return 0;
}

static int one_request(struct mmchal_card *card, enum mmchal_dir dir, uint64_t lba, uint32_t blocks,
		       const struct mmchal_sg *sg, uint32_t nsg, uint32_t *ok_blocks)
{
	/* the eMMC read-only build (config.h) keeps no write path */
	bool write = !MMCHAL_EMMC_RO && dir == MMCHAL_DIR_TO_CARD;
	bool multi = blocks > 1u;
	struct {
		struct mmchal_cmd sbc, cmd, stop;
		struct mmchal_data data;
		struct mmchal_request req;
	} r;
	uint32_t per_block = write ? WRITE_TIMEOUT_MS : READ_TIMEOUT_MS;
	uint64_t timeout = cmd_timeout(card) + (uint64_t)blocks * per_block;
	int err;

	memset(&r, 0, sizeof(r));
	*ok_blocks = 0;
	if (write)
		r.cmd.opcode = multi ? CARD_CMD_WRITE_MULTIPLE : CARD_CMD_WRITE_SINGLE;
	else
		r.cmd.opcode = multi ? CARD_CMD_READ_MULTIPLE : CARD_CMD_READ_SINGLE;
	r.cmd.arg = addr_arg(card, lba);
	r.cmd.flags = MMCHAL_RSP_R1;
	r.data.dir = dir;
	r.data.blksz = MMCHAL_CARD_BLKSZ;
	r.data.blocks = blocks;
	r.data.sg = sg;
	r.data.sg_len = nsg;
	r.data.timeout_ns = per_block * 1000000u;
	r.req.cmd = &r.cmd;
	r.req.data = &r.data;
	if (multi && card->info.cmd23) {
		/* CMD23: SET_BLOCK_COUNT */
		r.sbc.opcode = CARD_CMD_SET_BLOCK_COUNT;
		r.sbc.arg = blocks;
		r.sbc.flags = MMCHAL_RSP_R1;
		r.req.sbc = &r.sbc;
	} else if (multi) {
		/* CMD12 ends an open-ended transfer; busy after a write */
		r.stop.opcode = CARD_CMD_STOP;
		r.stop.flags = write ? MMCHAL_RSP_R1B : MMCHAL_RSP_R1;
		r.stop.busy_timeout_ms = write ? WRITE_TIMEOUT_MS : 0u;
		r.req.stop = &r.stop;
	}
	if (timeout > UINT32_MAX)
		timeout = UINT32_MAX;
	err = mmchal_card_run_(card, &r.req, (uint32_t)timeout, CARD_CMD_CHECK);
	if (!err && write) {
		/* the data is safe once programming is over */
		err = mmchal_card_wait_tran_(card, R1_CMD_ERRORS, NULL);
	}
	if (!err) {
		*ok_blocks = blocks;
		return 0;
	}
	/* a removal (MMCHAL_ENOMEDIUM from any step: mmchal_card_note_err_()
	   marked it) ends the request here */
	if (card->removed)
		return err;
	/* Refused before anything was sent (EINVAL with no command failed,
	 * host_core.h): the card is where it was, and recovery would send
	 * commands for a request that never reached it. */
	if (err == MMCHAL_EINVAL && !r.sbc.error && !r.cmd.error && !r.stop.error)
		return err;
	recover(card);
	if (write && card->info.type == MMCHAL_CARD_SD) {
		uint32_t n;

		/* the host's count says what was sent, not what was programmed */
		if (!sd_written_blocks(card, &n)) {
			*ok_blocks = n < blocks ? n : blocks;
			card->err.bytes_from_card = true;
		}
	} else if (!write) {
		*ok_blocks = r.data.bytes_xfered / MMCHAL_CARD_BLKSZ;
		if (*ok_blocks > blocks)
			*ok_blocks = blocks;
	}
	/* an eMMC write: what the host sent is not what was programmed, so no
	   block of the failed request is claimed */
	return err;
}

static int xfer(struct mmchal_card *card, enum mmchal_dir dir, uint64_t lba, uint32_t blocks,
		const struct mmchal_sg *sg, uint32_t nsg)
{
	struct mmchal_card_split_lim_ lim;
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = nsg};
	uint32_t done = 0;
	int err;

	err = io_enter(card, dir == MMCHAL_DIR_TO_CARD);
	if (!err)
		err = range_check(card, lba, blocks);
	if (err)
		return err;
	if (mmchal_card_sg_check_(sg, nsg, (uint64_t)blocks * MMCHAL_CARD_BLKSZ))
		return mmchal_card_refuse_(card, MMCHAL_EINVAL);
	err = split_limits(card, &lim);
	if (err)
		return mmchal_card_refuse_(card, err);
	while (done < blocks) {
		const struct mmchal_sg *list;
		uint32_t nlist, n, ok;

		err = mmchal_card_split_next_(&cur, &lim, card->cfg.sg_scratch,
					      card->cfg.sg_scratch_len, &list, &nlist, &n);
		if (err)
			break;
		/* n <= blocks - done: the list holds exactly blocks x 512 bytes
		   (mmchal_card_sg_check_()), every request so far took done
		   blocks of it, and the splitter hands out only what is left */
		err = one_request(card, dir, lba + done, n, list, nlist, &ok);
		done += ok;
		if (err)
			break;
	}
	card->err.bytes_done = (uint64_t)done * MMCHAL_CARD_BLKSZ;
	return mmchal_card_refuse_(card, err);
}

int mmchal_card_read(struct mmchal_card *card, uint64_t lba, uint32_t blocks,
		     const struct mmchal_sg *sg, uint32_t nsg)
{
	return xfer(card, MMCHAL_DIR_FROM_CARD, lba, blocks, sg, nsg);
}

#if MMCHAL_EMMC_RO
/* The eMMC read-only build (config.h): no write or erase is ever sent. */
static int refuse(struct mmchal_card *card)
{
	if (!card)
		return MMCHAL_EINVAL;
	mmchal_card_err_clear_(card);
	return mmchal_card_refuse_(card, MMCHAL_ENOTSUP);
}

int mmchal_card_write(struct mmchal_card *card, uint64_t lba, uint32_t blocks,
		      const struct mmchal_sg *sg, uint32_t nsg)
{
	(void)lba;
	(void)blocks;
	(void)sg;
	(void)nsg;
	return refuse(card);
}

int mmchal_card_erase(struct mmchal_card *card, uint64_t lba, uint32_t blocks,
		      enum mmchal_erase_kind kind)
{
	(void)lba;
	(void)blocks;
	(void)kind;
	return refuse(card);
}
#else
int mmchal_card_write(struct mmchal_card *card, uint64_t lba, uint32_t blocks,
		      const struct mmchal_sg *sg, uint32_t nsg)
{
	return xfer(card, MMCHAL_DIR_TO_CARD, lba, blocks, sg, nsg);
}

static int erase_cmd(struct mmchal_card *card, uint32_t opcode, uint32_t arg)
{
	struct mmchal_cmd cmd;

	return mmchal_card_cmd_(card, &cmd, opcode, arg, MMCHAL_RSP_R1 | CARD_CMD_CHECK);
}

int mmchal_card_erase(struct mmchal_card *card, uint64_t lba, uint32_t blocks,
		      enum mmchal_erase_kind kind)
{
	bool sd;
	uint32_t start_op, end_op, arg = 0, unit, units;
	uint64_t busy;
	struct mmchal_cmd cmd;
	int err = io_enter(card, true);

	if (err)
		return err;
	if (kind != MMCHAL_CARD_ERASE && kind != MMCHAL_CARD_DISCARD)
		return mmchal_card_refuse_(card, MMCHAL_EINVAL);
	err = range_check(card, lba, blocks);
	if (err)
		return err;
	sd = card->info.type == MMCHAL_CARD_SD;
	unit = card->info.erase_unit ? card->info.erase_unit : 1u;
	if (sd) {
		/* SD: CMD32/CMD33, CMD38 argument 0 (discard needs SD 5.0 and an SD
		   status read; an erase is a valid discard) */
		start_op = CARD_CMD_SD_ERASE_START;
		end_op = CARD_CMD_SD_ERASE_END;
		unit = SD_AU_SECTORS;
	} else {
		start_op = CARD_CMD_MMC_ERASE_START;
		end_op = CARD_CMD_MMC_ERASE_END;
		if (kind == MMCHAL_CARD_ERASE) {
			/* an eMMC erases whole erase groups (JEDEC 6.6.9) */
			if (lba % unit || blocks % unit)
				return mmchal_card_refuse_(card, MMCHAL_EINVAL);
		} else if (card->info.ext_csd.rev >= 6u) {
			arg = 3u; /* DISCARD, eMMC 4.5 */
		} else if (card->info.ext_csd.trim) {
			arg = 1u; /* TRIM, eMMC 4.4 */
		} else {
			return mmchal_card_refuse_(card, MMCHAL_ENOTSUP);
		}
	}
	/* rounded up without adding first: a count near 2^32 must not wrap */
	units = blocks / unit + (blocks % unit != 0u);
	busy = ERASE_BASE_MS + (uint64_t)units * ERASE_PER_UNIT_MS;
	if (busy > UINT32_MAX - CMD_TIMEOUT_MS * 2u)
		busy = UINT32_MAX - CMD_TIMEOUT_MS * 2u;

	err = erase_cmd(card, start_op, addr_arg(card, lba));
	if (!err)
		err = erase_cmd(card, end_op, addr_arg(card, lba + blocks - 1u));
	/* CMD38: ERASE, busy until done */
	if (!err)
		err = mmchal_card_cmd_r1b_(card, &cmd, CARD_CMD_ERASE, arg, (uint32_t)busy);
	if (!err)
		err = mmchal_card_wait_tran_(card, R1_CMD_ERRORS, NULL);
	if (err && !card->removed)
		recover(card);
	return err;
}
#endif
