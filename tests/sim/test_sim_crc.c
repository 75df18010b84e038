/*
 * The simulated cards' register CRC (sim/card.c card_crc7_fill_()): CRC7,
 * x^7 + x^3 + 1, over the first 15 bytes of a CID or CSD, stored in byte 15
 * as crc << 1 | 1 (PROTOCOL.md: R2 carries the register with its own CRC7).
 * The SDHI model drops that byte as the controller does, so only a direct
 * call can see it. With a zero initial value, leading zero bytes do not
 * change the CRC, so a 5-byte command frame right-aligned in the register
 * gives the frame's well-known last byte. The CID and CSD the card models
 * build carry a valid CRC7 (checked against a bit-by-bit CRC written here).
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

/* CRC7 of bytes 0-14, computed here bit by bit, independently of the model. */
static uint8_t crc7_ref(const uint8_t reg[16])
{
	uint8_t crc = 0;

	for (unsigned bit = 0; bit < 120u; bit++) {
		unsigned in = (reg[bit / 8u] >> (7u - bit % 8u)) & 1u;
		unsigned fb = in ^ ((crc >> 6) & 1u);

		crc = (uint8_t)((crc << 1) & 0x7fu);
		if (fb)
			crc ^= 0x09u;
	}
	return (uint8_t)((crc << 1) | 1u);
}

/*
 * The CID and CSD a card is given at insertion (and again at CMD0) carry a
 * valid CRC7 in byte 15, as on a real card (PROTOCOL.md section 0: R2 carries
 * the register with its own CRC7): eMMC and SD, two serial numbers each (the
 * PSN is in the CID, so its CRC changes with it).
 */
static void test_register_crcs(void **state)
{
	static const enum mmchal_sim_card_kind kinds[] = {MMCHAL_SIM_CARD_MMC, MMCHAL_SIM_CARD_SD};
	static const uint32_t serials[] = {0x0badcafeu, 0x00000001u};
	static struct sim_card c;

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		for (unsigned s = 0; s < 2; s++) {
			memset(&c, 0, sizeof(c));
			assert_int_equal(mmchal_sim_card_defaults(kinds[k], &c.cfg), 0);
			c.cfg.serial = serials[s];
			if (kinds[k] == MMCHAL_SIM_CARD_MMC)
				mmc_init_regs_(&c);
			else
				sd_init_regs_(&c);
			assert_int_equal(c.cid[0], 0xaa); /* MID: the registers are there */
			assert_int_equal(c.cid[15], crc7_ref(c.cid));
			assert_int_equal(c.csd[15], crc7_ref(c.csd));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_frames),
		cmocka_unit_test(test_whole_register),
		cmocka_unit_test(test_register_crcs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
