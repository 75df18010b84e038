/*
 * The simulated cards' register CRC (sim/card.c card_crc7_fill_()): CRC7,
 * x^7 + x^3 + 1, over the first 15 bytes of a CID or CSD, stored in byte 15
 * as crc << 1 | 1 (PROTOCOL.md: R2 carries the register with its own CRC7).
 * The SDHI model drops that byte as the controller does, so only a direct
 * call can see it. With a zero initial value, leading zero bytes do not
 * change the CRC, so a 5-byte command frame right-aligned in the register
 * gives the frame's well-known last byte.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "sim_priv.h"

/* Byte 15 for a register whose last five bytes are @p frame, the rest zero;
   bytes 0-14 must come back unchanged. */
static uint8_t crc_of_frame(const uint8_t frame[5])
{
	uint8_t reg[16], want[15];

	memset(reg, 0, sizeof(reg));
	memcpy(reg + 10, frame, 5);
	reg[15] = 0x5a; /* overwritten */
	memcpy(want, reg, sizeof(want));
	card_crc7_fill_(reg);
	assert_memory_equal(reg, want, sizeof(want));
	return reg[15];
}

static void test_command_frames(void **state)
{
	/* PROTOCOL.md: CMD0(0) ends 0x95, CMD8(0x1AA) ends 0x87; the others by
	   polynomial division of the frame. */
	static const struct {
		uint8_t frame[5];
		uint8_t last;
	} v[] = {
		{{0x40, 0x00, 0x00, 0x00, 0x00}, 0x95}, /* CMD0 */
		{{0x48, 0x00, 0x00, 0x01, 0xaa}, 0x87}, /* CMD8 0x1AA */
		{{0x51, 0x00, 0x00, 0x00, 0x00}, 0x55}, /* CMD17 0 */
		{{0x77, 0x00, 0x00, 0x00, 0x00}, 0x65}, /* CMD55 0 */
		{{0x69, 0x40, 0xff, 0x80, 0x00}, 0x17}, /* ACMD41 0x40ff8000 */
		{{0x7a, 0x00, 0x00, 0x00, 0x00}, 0xfd}, /* CMD58 0 */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_int_equal(crc_of_frame(v[i].frame), v[i].last);
}

static void test_whole_register(void **state)
{
	uint8_t reg[16];

	(void)state;
	/* every one of the 15 bytes counts: 01 02 ... 0f */
	for (unsigned i = 0; i < 15; i++)
		reg[i] = (uint8_t)(i + 1u);
	reg[15] = 0;
	card_crc7_fill_(reg);
	assert_int_equal(reg[15], 0x35);
	/* the zero register: CRC 0, only the end bit */
	memset(reg, 0, sizeof(reg));
	card_crc7_fill_(reg);
	assert_int_equal(reg[15], 0x01);
	/* the top bit of byte 0 reaches the CRC through 119 shifts */
	reg[0] = 0x80;
	card_crc7_fill_(reg);
	assert_int_equal(reg[15], 0x89);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_frames),
		cmocka_unit_test(test_whole_register),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
