/*
 * SDIO identification in detail (src/core/card_sdio.c) over the fake card:
 * the CMD5 loop and its argument, RCA, the R5 error flags and what they map
 * to, CIS pointers and malformed chains, bus width and high-speed choice by
 * card and host capability, and a failing set_ios at each step.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "card_fake.h"
#include "core/card_priv.h"

static uint8_t image[64 * 512];
static uint8_t regbuf[MMCHAL_CARD_BUF_SIZE];
static struct fake fk;
static struct mmchal_card card;
static uint32_t delays_1000, delays_other;

static void count_delay(void *arg, uint32_t us)
{
	(void)arg;
	if (us == 1000u)
		delays_1000++;
	else
		delays_other++;
}

static void start(void)
{
	struct mmchal_card_cfg cfg;

	fake_init(&fk, FAKE_SDIO, image, 64);
	fake_card_cfg(&fk, &cfg, regbuf);
	cfg.delay_us = count_delay;
	delays_1000 = delays_other = 0;
	assert_int_equal(mmchal_card_setup(&card, &cfg), 0);
}

/* Index in the log of the @n-th (from 0) command @op, or FAKE_LOG_LEN. */
static uint32_t nth(uint32_t op, uint32_t n)
{
	for (uint32_t i = 0; i < fk.nlog && i < FAKE_LOG_LEN; i++)
		if (fk.log[i] == op && n-- == 0u)
			return i;
	return FAKE_LOG_LEN;
}

static void test_cmd5_loop_and_args(void **state)
{
	uint32_t i;

	(void)state;
	start();
	assert_int_equal(mmchal_card_init(&card), 0);
	/* inquiry (arg 0), then three polls with the window until ready */
	assert_int_equal(fake_count(&fk, 5), 4);
	i = nth(5, 0);
	assert_int_equal(fk.log_arg[i], 0);
	for (uint32_t n = 1; n < 4; n++)
		assert_int_equal(fk.log_arg[nth(5, n)], OCR_VDD_27_36);
	assert_int_equal(card.info.ocr, OCR_BUSY | (2u << 28) | OCR_VDD_27_36);
	/* two busy answers, two waits; the power-up adds its own two */
	assert_int_equal(delays_1000, 4);
	assert_int_equal(delays_other, 0);
	/* CMD3 with argument 0, CMD7 with the RCA */
	assert_int_equal(fk.log_arg[nth(3, 0)], 0);
	assert_int_equal(fk.log_arg[nth(7, 0)], 0x12340000u);
	/* CMD52 reads: function 0, read flag clear, no data byte */
	assert_int_equal(fk.log_arg[nth(52, 0)], CCCR_SDIO_REV << 9);
	assert_int_equal(fk.log_arg[nth(52, 1)], CCCR_CAPS << 9);
	assert_int_equal(fk.log_arg[nth(52, 2)], CCCR_CIS_PTR << 9);
	assert_int_equal(card.info.sdio.caps, 0x13);
	assert_int_equal(card.info.clock_hz, 50000000u);
	assert_int_equal(fk.ios.clock_hz, 50000000u);
}

static void test_cmd5_tries_exact(void **state)
{
	(void)state;
	/* ready at the third poll: three tries are enough ... */
	start();
	card.cfg.op_cond_tries = 3;
	assert_int_equal(mmchal_card_init(&card), 0);
	/* ... two are not */
	start();
	card.cfg.op_cond_tries = 2;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, 5);
	assert_int_equal(card.err.arg, OCR_VDD_27_36);
	assert_int_equal(fake_count(&fk, 5), 3);
}

static void test_combo_and_voltage(void **state)
{
	(void)state;
	start();
	fk.sdio_ocr = (1u << 28) | (1u << 27) | OCR_VDD_27_36;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.type, MMCHAL_CARD_SD_COMBO);
	assert_int_equal(fk.init_type, MMCHAL_CARD_SD_COMBO);
	assert_true(card.info.sdio.mem_present);
	assert_int_equal(card.info.sdio.nfuncs, 1);
	assert_int_equal(card.info.sdio.max_blk_size, 512);
	assert_int_equal(card.info.sdio.fn_blk_size[1], 0);

	/* nothing a 3.3 V slot can give: refused before any poll */
	start();
	fk.sdio_ocr = (2u << 28) | 0x80u;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOTSUP);
	assert_int_equal(card.err.opcode, 5);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(fake_count(&fk, 5), 1);

	/* the host refuses the type */
	start();
	fk.init_card_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(fake_count(&fk, 5), 1);
}

static void test_rca_and_select_failures(void **state)
{
	(void)state;
	start();
	fk.sdio_rca_zero = true;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.opcode, 3);
	assert_int_equal(card.err.arg, 0);
	assert_int_equal(fake_count(&fk, 7), 0);

	start();
	fk.fail_op = 3;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, 3);

	start();
	fk.fail_op = 7;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, 7);
	assert_int_equal(fake_count(&fk, 52), 0);

	/* the CCCR capability read (second CMD52) times out */
	start();
	fk.fail_op = 52;
	fk.fail_skip = 1;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, 52);
	assert_int_equal(card.err.arg, CCCR_CAPS << 9);
	assert_int_equal(fake_count(&fk, 52), 2);
}

/* The CMD52 number @at answers with R5 @flags: init returns @want. */
static void r5_case(uint32_t at, uint32_t flags, int want, uint32_t want_arg)
{
	start();
	fk.r5_at = at;
	fk.r5_flags = flags;
	assert_int_equal(mmchal_card_init(&card), want);
	assert_int_equal(card.err.err, want);
	assert_int_equal(card.err.opcode, 52);
	assert_false(card.err.app);
	assert_int_equal(card.err.arg, want_arg);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status, flags | (2u << 12));
	assert_int_equal(card.info.type, MMCHAL_CARD_UNKNOWN);
	assert_int_equal(fake_count(&fk, 52), at);
}

static void test_r5_flags(void **state)
{
	(void)state;
	r5_case(2, R5_COM_CRC_ERROR, MMCHAL_EIO, CCCR_CAPS << 9);
	r5_case(2, R5_COM_CRC_ERROR | R5_OUT_OF_RANGE, MMCHAL_EIO, CCCR_CAPS << 9);
	r5_case(2, R5_OUT_OF_RANGE, MMCHAL_ERANGE, CCCR_CAPS << 9);
	r5_case(2, R5_OUT_OF_RANGE | R5_ILLEGAL_COMMAND, MMCHAL_ERANGE, CCCR_CAPS << 9);
	r5_case(2, R5_ILLEGAL_COMMAND, MMCHAL_EILSEQ, CCCR_CAPS << 9);
	r5_case(2, R5_ILLEGAL_COMMAND | R5_ERROR, MMCHAL_EILSEQ, CCCR_CAPS << 9);
	r5_case(2, R5_ERROR, MMCHAL_EIO, CCCR_CAPS << 9);
	r5_case(2, R5_FUNCTION_NUMBER, MMCHAL_EIO, CCCR_CAPS << 9);
	r5_case(1, R5_ERROR, MMCHAL_EIO, 0);
	/* the common CIS pointer, first byte */
	r5_case(3, R5_ERROR, MMCHAL_EIO, CCCR_CIS_PTR << 9);
	/* flags outside R5_ERRORS are no error */
	start();
	fk.r5_at = 2;
	fk.r5_flags = 1u << 13; /* IO_CURRENT_STATE bit */
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.sdio.caps, 0);
}

/* CMD52 before the bus set-up (CCCR, CIS pointers and tuples). */
static uint32_t cmd52_before_bus(void)
{
	start();
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_true(fake_count(&fk, 52) > 4u);
	return fake_count(&fk, 52) - 4u;
}

static void test_bus_write_and_speed_failures(void **state)
{
	uint32_t n;

	(void)state;
	/* the last four CMD52 are: BUS_IF read, write; SPEED read, write */
	n = cmd52_before_bus();
	assert_int_equal(fk.log_arg[nth(52, n)], CCCR_BUS_IF << 9);
	assert_int_equal(fk.log_arg[nth(52, n + 1u)], (1u << 31) | (CCCR_BUS_IF << 9) | 0x02u);
	assert_int_equal(fk.log_arg[nth(52, n + 2u)], CCCR_SPEED << 9);
	assert_int_equal(fk.log_arg[nth(52, n + 3u)],
			 (1u << 31) | (CCCR_SPEED << 9) | CCCR_SPEED_SHS | CCCR_SPEED_EHS);
	r5_case(n + 1u, R5_ERROR, MMCHAL_EIO, CCCR_BUS_IF << 9);
	r5_case(n + 2u, R5_ERROR, MMCHAL_EIO, (1u << 31) | (CCCR_BUS_IF << 9) | 0x02u);
	r5_case(n + 3u, R5_ERROR, MMCHAL_EIO, CCCR_SPEED << 9);
	r5_case(n + 4u, R5_ERROR, MMCHAL_EIO,
		(1u << 31) | (CCCR_SPEED << 9) | CCCR_SPEED_SHS | CCCR_SPEED_EHS);
}

static void test_bus_if_keeps_other_bits(void **state)
{
	(void)state;
	start();
	fk.f0[CCCR_BUS_IF] = 0x85; /* CD disable, S8B, a stale width */
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fk.f0[CCCR_BUS_IF], 0x86);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
}

static void test_set_ios_fails_each_step(void **state)
{
	(void)state;
	/* power-up takes calls 1..3; then default speed, 4 bits, high speed */
	for (uint32_t at = 4; at <= 6; at++) {
		start();
		fk.set_ios_fail_at = at;
		fk.set_ios_fail_err = MMCHAL_EBUSY;
		assert_int_equal(mmchal_card_init(&card), MMCHAL_EBUSY);
		assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
		assert_int_equal(fk.set_ios_calls, at);
	}
	start();
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(fk.set_ios_calls, 6);
}

static void test_low_speed_card(void **state)
{
	(void)state;
	/* a low-speed card without 4BLS: one bit, 400 kHz, no high speed */
	start();
	fk.f0[CCCR_CAPS] = CCCR_CAP_LSC;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 400000u);
	assert_int_equal(fk.f0[CCCR_BUS_IF], 0);
	assert_int_equal(fk.f0[CCCR_SPEED], CCCR_SPEED_SHS);
	/* with 4BLS: four bits, still low speed */
	start();
	fk.f0[CCCR_CAPS] = CCCR_CAP_LSC | CCCR_CAP_4BLS;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 400000u);
	assert_int_equal(fk.f0[CCCR_BUS_IF], 2);
	/* a full-speed card with 4BLS set means nothing more */
	start();
	fk.f0[CCCR_CAPS] = CCCR_CAP_4BLS;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_SD_HS);
}

static void test_host_and_card_speed_choice(void **state)
{
	(void)state;
	/* a 1-bit host with high speed */
	start();
	fk.caps.bus = MMCHAL_BUS_SD_HS;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(fk.f0[CCCR_BUS_IF], 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_SD_HS);
	assert_int_equal(card.info.clock_hz, 50000000u);
	/* a 4-bit host without high speed */
	start();
	fk.caps.bus = MMCHAL_BUS_4_BIT;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 25000000u);
	assert_int_equal(fk.f0[CCCR_SPEED], CCCR_SPEED_SHS);
	/* CCCR revision 1 (SDIO 1.10): no speed register */
	start();
	fk.f0[CCCR_SDIO_REV] = 0x21;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.sdio.cccr_rev, 1);
	assert_int_equal(card.info.sdio.sdio_rev, 2);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(fk.f0[CCCR_SPEED], CCCR_SPEED_SHS);
	/* revision 2 (SDIO 1.20) has it */
	start();
	fk.f0[CCCR_SDIO_REV] = 0x32;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_SD_HS);
	/* a card without SHS stays at default speed */
	start();
	fk.f0[CCCR_SPEED] = 0;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 25000000u);
	assert_int_equal(fk.f0[CCCR_SPEED], 0);
	/* a host slower than 50 MHz */
	start();
	fk.caps.f_max_hz = 30000000u;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_SD_HS);
	assert_int_equal(card.info.clock_hz, 30000000u);
}

static void test_cis_pointers(void **state)
{
	(void)state;
	/* the third pointer byte counts: 0x011000 is past function 0's space */
	start();
	fk.f0[CCCR_CIS_PTR + 2] = 0x01;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ERANGE);
	assert_int_equal(card.err.opcode, 52);
	assert_int_equal(card.err.arg, 0x11000u << 9);
	/* a pointer below the CIS area: refused without a read */
	start();
	fk.f0[CCCR_CIS_PTR + 1] = 0x08;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.opcode, 52);
	assert_int_equal(card.err.arg, 0x0800u << 9);
	assert_false(card.err.status_valid);
	/* the same for function 2's pointer */
	start();
	fk.f0[0x200 + FBR_CIS_PTR + 1] = 0x0c;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.arg, 0x0c80u << 9);
	assert_int_equal(card.info.type, MMCHAL_CARD_UNKNOWN);
	/* a function pointer that cannot be read */
	start();
	fk.f0[0x100 + FBR_CIS_PTR + 2] = 0x01;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ERANGE);
	assert_int_equal(card.err.arg, 0x11040u << 9);
	/* no MANFID in the common CIS */
	start();
	fk.f0[0x1000] = 0x21; /* FUNCID instead */
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EPROTO);
	assert_int_equal(card.err.opcode, 52);
	assert_int_equal(card.err.arg, 0x1000u << 9);
	assert_false(card.err.status_valid);
}

static void test_fn0_block_largest(void **state)
{
	(void)state;
	start();
	/* both functions report 32 bytes: function 0's 64 is the largest */
	fk.f0[0x1040 + 2 + 13] = 0x00;
	fk.f0[0x1040 + 2 + 12] = 0x20;
	fk.f0[0x1080 + 2 + 13] = 0x00;
	fk.f0[0x1080 + 2 + 12] = 0x20;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.sdio.fn0_blk_size, 64);
	assert_int_equal(card.info.sdio.fn_blk_size[0], 32);
	assert_int_equal(card.info.sdio.fn_blk_size[1], 32);
	assert_int_equal(card.info.sdio.max_blk_size, 64);
}

/* Log index of the first CMD52 with argument @arg, or FAKE_LOG_LEN. */
static uint32_t cmd52_at(uint32_t arg)
{
	for (uint32_t i = 0; i < fk.nlog && i < FAKE_LOG_LEN; i++)
		if (fk.log[i] == 52 && fk.log_arg[i] == arg)
			return i;
	return FAKE_LOG_LEN;
}

/* Each CIS pointer (CCCR 0x09, FBR 1 and 2 0x109, 0x209) is read as exactly
   three CMD52s of function 0, low byte first; the next command reads the
   first byte of the CIS it points to, never the byte after the pointer. */
static void test_cis_pointer_three_reads(void **state)
{
	static const uint32_t cis_at[3] = {0x1000, 0x1040, 0x1080};

	(void)state;
	start();
	assert_int_equal(mmchal_card_init(&card), 0);
	for (uint32_t fn = 0; fn < 3; fn++) {
		uint32_t base = fn * 0x100u + FBR_CIS_PTR;
		uint32_t i = cmd52_at(base << 9);

		assert_true(i + 3u < fk.nlog);
		assert_int_equal(fk.log[i + 1u], 52);
		assert_int_equal(fk.log_arg[i + 1u], (base + 1u) << 9);
		assert_int_equal(fk.log[i + 2u], 52);
		assert_int_equal(fk.log_arg[i + 2u], (base + 2u) << 9);
		assert_int_equal(fk.log[i + 3u], 52);
		assert_int_equal(fk.log_arg[i + 3u], cis_at[fn] << 9);
		assert_int_equal(cmd52_at((base + 3u) << 9), FAKE_LOG_LEN);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmd5_loop_and_args),
		cmocka_unit_test(test_cmd5_tries_exact),
		cmocka_unit_test(test_combo_and_voltage),
		cmocka_unit_test(test_rca_and_select_failures),
		cmocka_unit_test(test_r5_flags),
		cmocka_unit_test(test_bus_write_and_speed_failures),
		cmocka_unit_test(test_bus_if_keeps_other_bits),
		cmocka_unit_test(test_set_ios_fails_each_step),
		cmocka_unit_test(test_low_speed_card),
		cmocka_unit_test(test_host_and_card_speed_choice),
		cmocka_unit_test(test_cis_pointers),
		cmocka_unit_test(test_fn0_block_largest),
		cmocka_unit_test(test_cis_pointer_three_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
