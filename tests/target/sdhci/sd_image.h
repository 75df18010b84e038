/*
 * What the card images hold and what the QEMU SD tests write, shared by the
 * guest test (which checks what it reads) and the host tool sdimg (which
 * creates the images and checks them after QEMU exits).
 *
 * An image of C sectors holds the formula content of tag 0 in its first
 * 8 MiB and its last 1 MiB, zeros (a sparse hole) elsewhere. Every sector the
 * guest writes gets the formula content of the write's tag. Each sector
 * starts with its LBA and tag, so a misplaced sector names where it belongs.
 */
#ifndef SD_IMAGE_H
#define SD_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SDIMG_SECTOR     512u
#define SDIMG_HEAD_SECTS 16384u /* 8 MiB of formula content at the start */
#define SDIMG_TAIL_SECTS 2048u  /* 1 MiB at the end */
#define SDIMG_MAGIC      0xa55au

/* Test configuration bits, reported by the guest and passed to the checker. */
#define SDIMG_F_ADMA64 (1u << 0) /* the ADMA2-64 write above 4 GiB is part of the run */

/* One write the guest makes: @count sectors from @lba with the content of @tag. */
struct sdimg_write {
	uint32_t lba;
	uint32_t count;
	uint32_t tag;
	const char *what;
};

enum {
	SDIMG_W_PIO = 0,
	SDIMG_W_SDMA,
	SDIMG_W_ADMA32,
	SDIMG_W_ADMA32_64K,
	SDIMG_W_LAST,
	SDIMG_W_ADMA64,
	SDIMG_W_COUNT
};

static inline uint32_t sdimg_mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

/* Formula content of one sector: LBA (LE32), tag (LE16), magic (LE16), then hash words. */
static inline void sdimg_fill(uint8_t *buf, uint32_t lba, uint32_t tag)
{
	for (uint32_t i = 0; i < SDIMG_SECTOR / 4u; i++) {
		uint32_t w;

		if (i == 0)
			w = lba;
		else if (i == 1)
			w = (tag & 0xffffu) | (SDIMG_MAGIC << 16);
		else
			w = sdimg_mix(lba * 0x9e3779b1u ^ (tag << 24) ^ i);
		buf[4 * i] = (uint8_t)w;
		buf[4 * i + 1] = (uint8_t)(w >> 8);
		buf[4 * i + 2] = (uint8_t)(w >> 16);
		buf[4 * i + 3] = (uint8_t)(w >> 24);
	}
}

/* Whether sector @lba of an image of @sectors holds tag-0 content from the start. */
static inline bool sdimg_initial(uint32_t lba, uint32_t sectors)
{
	return lba < SDIMG_HEAD_SECTS || lba >= sectors - SDIMG_TAIL_SECTS;
}

/*
 * The writes of one run into @w (SDIMG_W_COUNT entries); returns how many are
 * made. All but the last-sector write lie inside the first 8 MiB, so their
 * neighbours hold tag-0 content.
 */
static inline uint32_t sdimg_plan(uint32_t flags, uint32_t sectors, struct sdimg_write *w)
{
	static const struct sdimg_write fixed[] = {
		{1000, 8, 1, "PIO, CMD25 + auto-CMD12"},
		{2000, 16, 2, "SDMA, one segment"},
		{3000, 24, 3, "ADMA2-32, 5 segments"},
		{5000, 160, 4, "ADMA2-32, a 64 KiB descriptor"},
		{0, 1, 5, "last sector, CMD24"},
		{4000, 32, 6, "ADMA2-64, buffers above 4 GiB"},
	};
	uint32_t n = (flags & SDIMG_F_ADMA64) ? SDIMG_W_COUNT : SDIMG_W_ADMA64;

	for (uint32_t i = 0; i < n; i++)
		w[i] = fixed[i];
	w[SDIMG_W_LAST].lba = sectors - 1u;
	return n;
}

#endif /* SD_IMAGE_H */
