/*
 * Block I/O in detail (src/core/card_io.c) over the fake card: refusals and
 * their records, request timeouts, the split limits taken from the host
 * (request size, block count, segments, segment size, virt_boundary), the
 * recovery after a failed request, what ACMD22 reports, and erase timing and
 * failures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "card_fake.h"
#include "core/card_priv.h"

#define SECTORS 1024u
#define TRAN_ST ((CARD_STATE_TRAN << 9) | R1_READY_FOR_DATA)

static uint8_t image[SECTORS * 512u];
static uint8_t regbuf[MMCHAL_CARD_BUF_SIZE];
static uint8_t raw[4096 + 320 * 512u];
static uint8_t *buf; /* 4 KiB aligned in raw */
static struct fake fk;
static struct mmchal_card card;

static void start(enum fake_kind kind)
{
	struct mmchal_card_cfg cfg;

	buf = raw + ((4096u - ((uintptr_t)raw & 4095u)) & 4095u);
	for (uint32_t i = 0; i < sizeof(image); i++)
		image[i] = (uint8_t)(i * 7u + (i >> 9));
	fake_init(&fk, kind, image, SECTORS);
	fake_card_cfg(&fk, &cfg, regbuf);
	assert_int_equal(mmchal_card_setup(&card, &cfg), 0);
	assert_int_equal(mmchal_card_init(&card), 0);
	fk.nlog = 0;
	fk.requests = 0;
	fk.max_blocks_seen = 0;
	fk.max_nsg_seen = 0;
}

static struct mmchal_sg sg_at(uint32_t off, uint32_t len)
{
	buf = raw + ((4096u - ((uintptr_t)raw & 4095u)) & 4095u);
	struct mmchal_sg s = {.cpu = buf + off, .phys = (uintptr_t)(buf + off), .len = len};

	return s;
}

/* Log index of the first command @op, or FAKE_LOG_LEN. */
static uint32_t first(uint32_t op)
{
	for (uint32_t i = 0; i < fk.nlog && i < FAKE_LOG_LEN; i++)
		if (fk.log[i] == op)
			return i;
	return FAKE_LOG_LEN;
}

static void refused(int got, int want)
{
	assert_int_equal(got, want);
	assert_int_equal(card.err.err, want);
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(card.err.bytes_done, 0);
}

static void test_refusals_and_records(void **state)
{
	struct mmchal_sg sg = sg_at(0, 1024);
	struct mmchal_card bare;

	(void)state;
	/* an object without scratch: refused before anything is touched */
	memset(&bare, 0, sizeof(bare));
	bare.cfg.ops = &fake_ops;
	bare.cfg.ctx = &fk;
	bare.err.opcode = 77;
	assert_int_equal(mmchal_card_read(&bare, 0, 2, &sg, 1), MMCHAL_EINVAL);
	assert_int_equal(bare.err.opcode, 77);
	assert_int_equal(bare.err.err, 0);

	start(FAKE_SDHC);
	card.err.arg = 9;
	refused(mmchal_card_read(&card, 0, 0, &sg, 1), MMCHAL_EINVAL);
	refused(mmchal_card_read(&card, SECTORS - 1u, 2, &sg, 1), MMCHAL_ERANGE);
	refused(mmchal_card_read(&card, SECTORS, 2, &sg, 1), MMCHAL_ERANGE);
	refused(mmchal_card_read(&card, 0, 3, &sg, 1), MMCHAL_EINVAL);
	card.info.read_only = true;
	refused(mmchal_card_write(&card, 0, 2, &sg, 1), MMCHAL_EROFS);
	refused(mmchal_card_erase(&card, 0, 2, MMCHAL_CARD_ERASE), MMCHAL_EROFS);
	card.info.read_only = false;
	refused(mmchal_card_erase(&card, 0, 2, (enum mmchal_erase_kind)2), MMCHAL_EINVAL);
	card.ready = false;
	refused(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_ENOMEDIUM);
	card.ready = true;
	fk.present = false;
	refused(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_ENOMEDIUM);
	assert_int_equal(fk.requests, 0);

	start(FAKE_SDIO);
	refused(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_ENOTSUP);
}

static void test_request_timeouts(void **state)
{
	struct mmchal_sg sg = sg_at(0, 1024);

	(void)state;
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_read(&card, 4, 2, &sg, 1), 0);
	assert_int_equal(fk.log[first(18)], 18);
	assert_int_equal(fk.log_timeout[first(18)], 1000 + 2 * 100);
	assert_int_equal(fk.data_timeout_ns, 100000000u);
	assert_int_equal(fk.log_busy_ms[first(18)], 0);
	fk.nlog = 0;
	assert_int_equal(mmchal_card_write(&card, 4, 2, &sg, 1), 0);
	assert_int_equal(fk.log_timeout[first(25)], 1000 + 2 * 250);
	assert_int_equal(fk.data_timeout_ns, 250000000u);
	fk.nlog = 0;
	card.cfg.cmd_timeout_ms = 300;
	sg.len = 512;
	assert_int_equal(mmchal_card_read(&card, 4, 1, &sg, 1), 0);
	assert_int_equal(fk.log_timeout[first(17)], 300 + 100);
	assert_int_equal(fk.log_arg[first(17)], 4);
}

static void test_split_limits(void **state)
{
	struct mmchal_sg sg, sg2;
	struct mmchal_sg two[2];

	(void)state;
	/* max_req_size of 3 blocks caps each request */
	start(FAKE_SDHC);
	sg = sg_at(0, 8 * 512);
	sg2 = sg_at(0, 1024);
	card.limits.max_req_size = 3u * 512u;
	assert_int_equal(mmchal_card_read(&card, 0, 8, &sg, 1), 0);
	assert_int_equal(fk.requests, 3);
	assert_int_equal(fk.max_blocks_seen, 3);
	assert_memory_equal(buf, image, 8 * 512);
	/* a block count of 1: one block per request */
	start(FAKE_SDHC);
	card.limits.max_blk_count = 1;
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg2, 1), 0);
	assert_int_equal(fk.requests, 2);
	assert_int_equal(fake_count(&fk, 17), 2);
	/* no block count at all, or blocks smaller than 512: not usable */
	card.limits.max_blk_count = 0;
	refused(mmchal_card_read(&card, 0, 2, &sg2, 1), MMCHAL_ENOTSUP);
	card.limits.max_blk_count = 8;
	card.limits.max_blk_size = 256;
	refused(mmchal_card_read(&card, 0, 2, &sg2, 1), MMCHAL_ENOTSUP);
	assert_int_equal(fk.requests, 2);
	/* max_segs 0 means one entry per request */
	start(FAKE_SDHC);
	card.limits.max_segs = 0;
	two[0] = sg_at(0, 512);
	two[1] = sg_at(4096, 512);
	assert_int_equal(mmchal_card_read(&card, 0, 2, two, 2), 0);
	assert_int_equal(fk.requests, 2);
	assert_int_equal(fk.max_nsg_seen, 1);
	/* a segment size under a block is raised to a block */
	start(FAKE_SDHC);
	card.limits.max_seg_size = 100;
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg2, 1), 0);
	assert_int_equal(fk.requests, 1);
	assert_int_equal(fk.max_nsg_seen, 2);
	assert_int_equal(fk.limit_violations, 0);
}

static void test_virt_boundary(void **state)
{
	struct mmchal_sg two[2];

	(void)state;
	start(FAKE_SDHC);
	fk.limits.virt_boundary = 0xfff;
	assert_int_equal(mmchal_card_init(&card), 0);
	fk.requests = 0;
	/* the second entry starts off a 4 KiB boundary: one request each */
	two[0] = sg_at(0, 512);
	two[1] = sg_at(8192 + 512, 512);
	assert_int_equal(mmchal_card_read(&card, 0, 2, two, 2), 0);
	assert_int_equal(fk.requests, 2);
	assert_int_equal(fk.limit_violations, 0);
	assert_memory_equal(buf, image, 512);
	assert_memory_equal(buf + 8192 + 512, image + 512, 512);
}

static void test_recover_after_failure(void **state)
{
	struct mmchal_sg sg = sg_at(0, 1024);

	(void)state;
	/* the read fails in the host: CMD13 tells where the card is */
	start(FAKE_SDHC);
	fk.fail_op = 18;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	memset(buf, 0, 1024);
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 18);
	assert_int_equal(card.err.arg, 0);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST);
	assert_int_equal(card.err.bytes_done, 0);
	assert_int_equal(fake_count(&fk, 12), 0);
	assert_int_equal(fake_count(&fk, 13), 2);
	/* the card is still sending: CMD12, then CMD13 until tran */
	start(FAKE_SDHC);
	fk.fail_op = 18;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	fk.st13_left = 1;
	fk.st13_word = (CARD_STATE_DATA << 9) | R1_READY_FOR_DATA;
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_EIO);
	assert_int_equal(card.err.status, (CARD_STATE_DATA << 9) | R1_READY_FOR_DATA);
	assert_int_equal(fake_count(&fk, 12), 1);
	assert_int_equal(fk.log_arg[first(12)], 0);
	assert_int_equal(fk.log[first(12) + 1u], 13);
	/* in rcv (a write): the same */
	start(FAKE_SDHC);
	fk.fail_op = 25;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	fk.st13_left = 1;
	fk.st13_word = (CARD_STATE_RCV << 9) | R1_READY_FOR_DATA;
	assert_int_equal(mmchal_card_write(&card, 0, 2, &sg, 1), MMCHAL_EIO);
	assert_int_equal(fake_count(&fk, 12), 1);
	/* removal during the request: no recovery */
	start(FAKE_SDHC);
	fk.remove_at_op = 18;
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_ENOMEDIUM);
	assert_int_equal(fake_count(&fk, 13), 0);
	assert_true(card.removed);
}

static void acmd22_case(uint32_t value, uint32_t blocks, uint32_t want)
{
	struct mmchal_sg sg = sg_at(0, blocks * 512u);

	start(FAKE_SDHC);
	fk.wr_fail = true;
	fk.wr_fail_after = 0;
	fk.acmd22_fixed = true;
	fk.acmd22_value = value;
	assert_int_equal(mmchal_card_write(&card, 0, blocks, &sg, 1), MMCHAL_EIO);
	assert_true(card.err.bytes_from_card);
	assert_int_equal(card.err.bytes_done, (uint64_t)want * 512u);
	assert_int_equal(fk.log_arg[first(22 | FAKE_APP)], 0);
}

static void test_acmd22_count(void **state)
{
	struct mmchal_sg sg = sg_at(0, 4 * 512u);

	(void)state;
	acmd22_case(0x00000105u, 300, 261);
	acmd22_case(0x80000005u, 10, 10);
	acmd22_case(0x00800005u, 10, 10);
	acmd22_case(0x00000003u, 10, 3);
	/* ACMD22 itself fails: nothing is claimed */
	start(FAKE_SDHC);
	fk.wr_fail = true;
	fk.wr_fail_after = 2;
	fk.fail_op = 22 | FAKE_APP;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_write(&card, 0, 4, &sg, 1), MMCHAL_EIO);
	assert_false(card.err.bytes_from_card);
	assert_int_equal(card.err.bytes_done, 0);
}

static void test_erase_details(void **state)
{
	(void)state;
	/* SD: CMD32/33/38 with block addresses and a busy time per 4 MiB unit */
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_erase(&card, 8, 16, MMCHAL_CARD_ERASE), 0);
	assert_int_equal(fk.log_arg[first(32)], 8);
	assert_int_equal(fk.log_arg[first(33)], 23);
	assert_int_equal(fk.log_arg[first(38)], 0);
	assert_int_equal(fk.log_busy_ms[first(38)], 1000 + 300);
	assert_int_equal(fk.log_timeout[first(38)], 1000 + 1300);
	/* SDSC: byte addresses */
	start(FAKE_SDSC);
	assert_int_equal(mmchal_card_erase(&card, 2, 3, MMCHAL_CARD_ERASE), 0);
	assert_int_equal(fk.log_arg[first(32)], 2 * 512);
	assert_int_equal(fk.log_arg[first(33)], 4 * 512);
	/* an R1 error on the start command stops the sequence */
	start(FAKE_SDHC);
	fk.pend_op = 32;
	fk.pend_bits = R1_ERASE_PARAM;
	assert_int_equal(mmchal_card_erase(&card, 0, 1, MMCHAL_CARD_ERASE), MMCHAL_EILSEQ);
	assert_int_equal(card.err.opcode, 32);
	assert_int_equal(card.err.arg, 0);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST | R1_ERASE_PARAM);
	assert_int_equal(fake_count(&fk, 33), 0);
	/* ... on the end command */
	start(FAKE_SDHC);
	fk.pend_op = 33;
	fk.pend_bits = R1_OUT_OF_RANGE;
	assert_int_equal(mmchal_card_erase(&card, 0, 1, MMCHAL_CARD_ERASE), MMCHAL_ERANGE);
	assert_int_equal(card.err.opcode, 33);
	assert_int_equal(fake_count(&fk, 38), 0);
	/* the start command fails in the host */
	start(FAKE_SDHC);
	fk.fail_op = 32;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_erase(&card, 0, 1, MMCHAL_CARD_ERASE), MMCHAL_ETIMEDOUT);
	assert_int_equal(fake_count(&fk, 33), 0);
	/* eMMC: erase groups of 16, busy per group */
	start(FAKE_MMC);
	assert_int_equal(mmchal_card_erase(&card, 16, 32, MMCHAL_CARD_ERASE), 0);
	assert_int_equal(fk.log_arg[first(35)], 16);
	assert_int_equal(fk.log_arg[first(36)], 47);
	assert_int_equal(fk.log_arg[first(38)], 0);
	/* discard on eMMC 4.5+: argument 3; trim before: 1; neither: refused */
	fk.nlog = 0;
	assert_int_equal(mmchal_card_erase(&card, 1, 3, MMCHAL_CARD_DISCARD), 0);
	assert_int_equal(fk.log_arg[first(38)], 3);
	card.info.ext_csd.rev = 5;
	fk.nlog = 0;
	assert_int_equal(mmchal_card_erase(&card, 1, 3, MMCHAL_CARD_DISCARD), 0);
	assert_int_equal(fk.log_arg[first(38)], 1);
	card.info.ext_csd.trim = false;
	refused(mmchal_card_erase(&card, 1, 3, MMCHAL_CARD_DISCARD), MMCHAL_ENOTSUP);
	/* unaligned erase on eMMC */
	refused(mmchal_card_erase(&card, 1, 16, MMCHAL_CARD_ERASE), MMCHAL_EINVAL);
	refused(mmchal_card_erase(&card, 16, 15, MMCHAL_CARD_ERASE), MMCHAL_EINVAL);
}

static void test_request_shape(void **state)
{
	struct mmchal_sg sg = sg_at(0, 3 * 512u);

	(void)state;
	/* with CMD23: SET_BLOCK_COUNT (R1) carries the count */
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_read(&card, 2, 3, &sg, 1), 0);
	assert_int_equal(fk.log[0], 23);
	assert_int_equal(fk.log_arg[0], 3);
	assert_int_equal(fk.log_flags[0], MMCHAL_RSP_R1);
	assert_int_equal(fk.log[1], 18);
	assert_int_equal(fk.log_flags[1], MMCHAL_RSP_R1);
	/* without: CMD12, R1 after a read, R1b with the write busy after a write */
	start(FAKE_SDHC);
	card.info.cmd23 = false;
	assert_int_equal(mmchal_card_read(&card, 2, 3, &sg, 1), 0);
	assert_int_equal(fk.log[1], 12);
	assert_int_equal(fk.log_flags[1], MMCHAL_RSP_R1);
	assert_int_equal(fk.log_busy_ms[1], 0);
	fk.nlog = 0;
	assert_int_equal(mmchal_card_write(&card, 2, 3, &sg, 1), 0);
	assert_int_equal(fk.log[1], 12);
	assert_int_equal(fk.log_flags[1], MMCHAL_RSP_R1B);
	assert_int_equal(fk.log_busy_ms[1], 250);
	/* a request timeout that would pass 32 bits is capped */
	start(FAKE_SDHC);
	card.cfg.cmd_timeout_ms = 0xffffff00u;
	assert_int_equal(mmchal_card_read(&card, 2, 3, &sg, 1), 0);
	assert_int_equal(fk.log_timeout[1], 0xffffffffu);
	card.cfg.cmd_timeout_ms = 0xfffffed3u; /* + 300 = 0xffffffff exactly */
	fk.nlog = 0;
	assert_int_equal(mmchal_card_read(&card, 2, 3, &sg, 1), 0);
	assert_int_equal(fk.log_timeout[1], 0xffffffffu);
}

static void test_request_failures(void **state)
{
	struct mmchal_sg sg = sg_at(0, 4 * 512u);

	(void)state;
	/* SET_BLOCK_COUNT fails: it is named, with its argument */
	start(FAKE_SDHC);
	fk.fail_op = 23;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_read(&card, 0, 4, &sg, 1), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, 23);
	assert_int_equal(card.err.arg, 4);
	/* CMD12 fails after the data */
	start(FAKE_SDHC);
	card.info.cmd23 = false;
	fk.fail_op = 12;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_read(&card, 0, 4, &sg, 1), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, 12);
	assert_int_equal(card.err.arg, 0);
	/* an R1 error in the read's response */
	start(FAKE_SDHC);
	fk.pend_op = 18;
	fk.pend_bits = R1_CARD_ECC_FAILED;
	assert_int_equal(mmchal_card_read(&card, 0, 4, &sg, 1), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 18);
	assert_int_equal(card.err.arg, 0);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST | R1_CARD_ECC_FAILED);
	/* ... a status bit outside the errors is none */
	start(FAKE_SDHC);
	fk.pend_op = 18;
	fk.pend_bits = R1_ILLEGAL_COMMAND;
	assert_int_equal(mmchal_card_read(&card, 0, 4, &sg, 1), 0);
	/* ... in CMD12's response */
	start(FAKE_SDHC);
	card.info.cmd23 = false;
	fk.pend_op = 12;
	fk.pend_bits = R1_OUT_OF_RANGE;
	assert_int_equal(mmchal_card_read(&card, 1, 4, &sg, 1), MMCHAL_ERANGE);
	assert_int_equal(card.err.opcode, 12);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(card.err.status, TRAN_ST | R1_OUT_OF_RANGE);
	/* the data phase fails after two blocks: two are done, and the status of
	   the answered command goes with the failure */
	start(FAKE_SDHC);
	fk.rd_fail = true;
	fk.rd_fail_after = 2;
	assert_int_equal(mmchal_card_read(&card, 8, 4, &sg, 1), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 18);
	assert_int_equal(card.err.arg, 8);
	assert_int_equal(card.err.bytes_done, 2 * 512);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST);
	assert_false(card.err.bytes_from_card);
	/* a host that over-reports is believed no further than the request */
	start(FAKE_SDHC);
	fk.rd_fail = true;
	fk.rd_fail_after = 2;
	fk.rd_over_report = true;
	assert_int_equal(mmchal_card_read(&card, 8, 4, &sg, 1), MMCHAL_EIO);
	assert_int_equal(card.err.bytes_done, 4 * 512);
	/* two blocks per request, the first fails after one: one is done */
	start(FAKE_SDHC);
	card.limits.max_blk_count = 2;
	fk.rd_fail = true;
	fk.rd_fail_after = 1;
	assert_int_equal(mmchal_card_read(&card, 8, 4, &sg, 1), MMCHAL_EIO);
	assert_int_equal(card.err.bytes_done, 1 * 512);
	assert_int_equal(card.err.err, MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 18);
}

/* A CMD12-terminated read whose CMD18 response carries an R1 error: the
   error stands and names CMD18, whatever the clean CMD12 response says. */
static void test_read_error_with_clean_stop(void **state)
{
	struct mmchal_sg sg = sg_at(0, 4 * 512u);

	(void)state;
	start(FAKE_SDHC);
	card.info.cmd23 = false;
	fk.pend_op = 18;
	fk.pend_bits = R1_CARD_ECC_FAILED;
	assert_int_equal(mmchal_card_read(&card, 2, 4, &sg, 1), MMCHAL_EIO);
	assert_int_equal(fake_count(&fk, 12), 1);
	assert_int_equal(card.err.err, MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 18);
	assert_int_equal(card.err.arg, 2);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST | R1_CARD_ECC_FAILED);
}

/* A request the fake host refuses before any data moves: the block count
   the card layer put in it is what the test sees. */
static uint32_t first_request_blocks(enum fake_kind kind, uint32_t blocks)
{
	struct mmchal_sg sg;

	start(kind);
	sg = sg_at(0, blocks * 512u);
	assert_true(card.info.cmd23);
	card.info.sectors = 200000;
	card.limits.max_blk_count = 100000;
	card.limits.max_req_size = 0;
	card.limits.max_seg_size = 0;
	fk.limits.max_blk_count = 1; /* every multi-block request is refused */
	assert_int_equal(mmchal_card_read(&card, 0, blocks, &sg, 1), MMCHAL_EINVAL);
	assert_int_equal(fk.limit_violations, 1);
	assert_int_equal(card.err.bytes_done, 0);
	return fk.max_blocks_seen;
}

static void test_mmc_cmd23_count_cap(void **state)
{
	(void)state;
	/* eMMC CMD23 has 16 bits of count */
	assert_int_equal(first_request_blocks(FAKE_MMC, 66000), 65535);
	assert_int_equal(first_request_blocks(FAKE_MMC, 65535), 65535);
	/* SD's CMD23 has 32 */
	assert_int_equal(first_request_blocks(FAKE_SDHC, 66000), 66000);
}

static void test_big_request_edges(void **state)
{
	struct mmchal_sg sg;

	(void)state;
	/* a host that allows exactly 65536 blocks: eMMC CMD23 still stops at 65535 */
	start(FAKE_MMC);
	sg = sg_at(0, 66000u * 512u);
	card.info.sectors = 200000;
	card.limits.max_blk_count = 65536;
	card.limits.max_req_size = 0;
	card.limits.max_seg_size = 0;
	fk.limits.max_blk_count = 1;
	assert_int_equal(mmchal_card_read(&card, 0, 66000, &sg, 1), MMCHAL_EINVAL);
	assert_int_equal(fk.max_blocks_seen, 65535);
	/* an SD write of 66000 blocks fails on the bus; ACMD22 reports 65541
	 * (three bytes) */
	start(FAKE_SDHC);
	sg = sg_at(0, 66000u * 512u);
	card.info.sectors = 200000;
	card.limits.max_blk_count = 100000;
	card.limits.max_req_size = 0;
	card.limits.max_seg_size = 0;
	fk.limits.max_blk_count = 100000;
	fk.limits.max_req_size = 100000u * 512u;
	fk.limits.max_seg_size = UINT32_MAX;
	fk.fail_op = 25;
	fk.fail_err = MMCHAL_EIO;
	fk.fail_times = 1;
	fk.acmd22_fixed = true;
	fk.acmd22_value = 65541;
	assert_int_equal(mmchal_card_write(&card, 0, 66000, &sg, 1), MMCHAL_EIO);
	assert_true(card.err.bytes_from_card);
	assert_int_equal(card.err.bytes_done, 65541ull * 512u);
}

/* The recovery waits for tran whatever reserved bits the status carries. */
static void test_recover_ignores_reserved_bits(void **state)
{
	struct mmchal_sg sg = sg_at(0, 1024);

	(void)state;
	start(FAKE_SDHC);
	fk.fail_op = 18;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	fk.st13_left = 3;
	fk.st13_word = (CARD_STATE_PRG << 9) | 1u;
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_EIO);
	/* one CMD13 to look, two more in prg, the last one in tran */
	assert_int_equal(fake_count(&fk, 13), 4);
	assert_int_equal(card.err.status, (CARD_STATE_PRG << 9) | 1u);
}

/* The recovery gives up at its first failing command. */
static void test_recover_steps_fail(void **state)
{
	struct mmchal_sg sg = sg_at(0, 1024);

	(void)state;
	/* its CMD13 fails: nothing more */
	start(FAKE_SDHC);
	fk.rd_fail = true;
	fk.rd_fail_after = 1;
	fk.fail_op = 13;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_EIO);
	assert_int_equal(fake_count(&fk, 13), 1);
	assert_int_equal(fake_count(&fk, 12), 0);
	assert_int_equal(card.err.bytes_done, 512);
	/* its CMD12 fails: no wait for tran */
	start(FAKE_SDHC);
	fk.rd_fail = true;
	fk.rd_fail_after = 1;
	fk.st13_left = 1;
	fk.st13_word = (CARD_STATE_DATA << 9) | R1_READY_FOR_DATA;
	fk.fail_op = 12;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_EIO);
	assert_int_equal(fake_count(&fk, 12), 1);
	assert_int_equal(fake_count(&fk, 13), 1);
	assert_int_equal(fk.log[fk.nlog - 1u], 12);
}

/* Leave a recognisable pattern where the next calls put their locals. */
static void poison_stack(void)
{
	volatile uint8_t junk[2048];

	for (uint32_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0xa5;
}

static void test_fresh_request_and_status(void **state)
{
	struct mmchal_sg sg = sg_at(0, 1024);

	(void)state;
	/* the command goes out clean whatever was on the stack */
	start(FAKE_SDHC);
	poison_stack();
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg, 1), 0);
	assert_int_equal(fk.log_resp1[first(18)], 0);
	assert_int_equal(fk.log_busy_ms[first(18)], 0);
	/* the failed command's own status is recorded, not the CMD13 after it */
	start(FAKE_SDHC);
	fk.rd_fail = true;
	fk.rd_fail_after = 1;
	fk.pend_op = 18;
	fk.pend_bits = R1_ILLEGAL_COMMAND;
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_EIO);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, TRAN_ST | R1_ILLEGAL_COMMAND);
	/* a list the limits cannot place: refused with no command named */
	start(FAKE_SDHC);
	card.limits.virt_boundary = 0xfff;
	{
		struct mmchal_sg two[2] = {sg_at(0, 256), sg_at(8192 + 100, 768)};

		assert_int_equal(mmchal_card_read(&card, 0, 2, two, 2), MMCHAL_EINVAL);
	}
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(fk.requests, 0);
}

/* The busy time of an eMMC erase of @blocks at 0 (erase groups of 16). */
static uint32_t mmc_erase_busy(uint32_t blocks)
{
	start(FAKE_MMC);
	card.info.sectors = 0xfffffff0u;
	fk.sectors = 0xfffffff0u;
	fk.card_wp = true; /* CMD38 answers WP_ERASE_SKIP: nothing is erased */
	assert_int_equal(mmchal_card_erase(&card, 0, blocks, MMCHAL_CARD_ERASE), MMCHAL_EROFS);
	assert_int_equal(card.err.opcode, 38);
	return fk.log_busy_ms[first(38)];
}

/* The busy time of an SD erase of @blocks at 0 (4 MiB units) on a card of
   @p sectors. */
static uint32_t sd_erase_busy_on(uint32_t blocks, uint32_t sectors)
{
	start(FAKE_SDHC);
	card.info.sectors = sectors;
	fk.sectors = sectors;
	fk.card_wp = true; /* CMD38 answers WP_ERASE_SKIP: nothing is erased */
	assert_int_equal(mmchal_card_erase(&card, 0, blocks, MMCHAL_CARD_ERASE), MMCHAL_EROFS);
	return fk.log_busy_ms[first(38)];
}

static uint32_t sd_erase_busy(uint32_t blocks)
{
	return sd_erase_busy_on(blocks, 20000);
}

static void test_erase_busy_and_waits(void **state)
{
	(void)state;
	/* a 2 TiB SDXC card erased almost whole: 524288 units of 300 ms, the unit
	   count not wrapped by rounding up */
	assert_int_equal(sd_erase_busy_on(0xfffff000u, 0xffffffffu), 1000u + 524288u * 300u);
	assert_int_equal(sd_erase_busy_on(0xffffffffu, 0xffffffffu), 1000u + 524288u * 300u);
	assert_int_equal(sd_erase_busy(8191), 1300);
	assert_int_equal(sd_erase_busy(8192), 1300);
	assert_int_equal(sd_erase_busy(8193), 1600);
	/* 2 groups: 1000 + 2 x 300 ms; the CMD13 after it */
	start(FAKE_MMC);
	assert_int_equal(mmchal_card_erase(&card, 0, 32, MMCHAL_CARD_ERASE), 0);
	assert_int_equal(fk.log_busy_ms[first(38)], 1600);
	assert_int_equal(fake_count(&fk, 13), 1);
	assert_int_equal(fk.log[fk.nlog - 1u], 13);
	/* discard of 3 blocks: one group */
	fk.nlog = 0;
	assert_int_equal(mmchal_card_erase(&card, 1, 3, MMCHAL_CARD_DISCARD), 0);
	assert_int_equal(fk.log_busy_ms[first(38)], 1300);
	/* REV 6 is the first with DISCARD */
	card.info.ext_csd.rev = 6;
	fk.nlog = 0;
	assert_int_equal(mmchal_card_erase(&card, 1, 3, MMCHAL_CARD_DISCARD), 0);
	assert_int_equal(fk.log_arg[first(38)], 3);
	/* no erase unit known: single blocks */
	card.info.erase_unit = 0;
	fk.nlog = 0;
	assert_int_equal(mmchal_card_erase(&card, 1, 3, MMCHAL_CARD_ERASE), 0);
	assert_int_equal(fk.log_busy_ms[first(38)], 1000 + 3 * 300);
	/* the cap of the busy time, just below and above it */
	assert_int_equal(mmc_erase_busy(14316545u * 16u), 1000u + 14316545u * 300u);
	assert_int_equal(mmc_erase_busy(14316548u * 16u), 0xffffffffu - 2000u);
	assert_int_equal(mmc_erase_busy(0xfffffff0u), 0xffffffffu - 2000u);
	/* a failed erase is followed by the recovery's CMD13s */
	start(FAKE_SDHC);
	fk.pend_op = 33;
	fk.pend_bits = R1_ERASE_PARAM;
	assert_int_equal(mmchal_card_erase(&card, 0, 1, MMCHAL_CARD_ERASE), MMCHAL_EILSEQ);
	assert_int_equal(fake_count(&fk, 13), 2);
}

/* Found by fuzz_card: a card_busy error while CMD38 (R1b) programs was
   returned by mmchal_card_erase() but left no failure record (err.err 0). */
static void test_busy_error_is_recorded(void **state)
{
	struct mmchal_sg sg = sg_at(0, 512);

	(void)state;
	start(FAKE_SDHC);
	fk.busy_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_erase(&card, 0, 1, MMCHAL_CARD_ERASE), MMCHAL_EIO);
	assert_int_equal(card.err.err, MMCHAL_EIO);
	/* card_busy is a host op: the failure is no command's */
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	/* the record is cleared again by the next call */
	fk.busy_err = 0;
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), 0);
	assert_int_equal(card.err.err, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals_and_records),
		cmocka_unit_test(test_request_timeouts),
		cmocka_unit_test(test_split_limits),
		cmocka_unit_test(test_virt_boundary),
		cmocka_unit_test(test_recover_after_failure),
		cmocka_unit_test(test_acmd22_count),
		cmocka_unit_test(test_erase_details),
		cmocka_unit_test(test_request_shape),
		cmocka_unit_test(test_request_failures),
		cmocka_unit_test(test_read_error_with_clean_stop),
		cmocka_unit_test(test_mmc_cmd23_count_cap),
		cmocka_unit_test(test_big_request_edges),
		cmocka_unit_test(test_recover_ignores_reserved_bits),
		cmocka_unit_test(test_recover_steps_fail),
		cmocka_unit_test(test_fresh_request_and_status),
		cmocka_unit_test(test_erase_busy_and_waits),
		cmocka_unit_test(test_busy_error_is_recorded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
