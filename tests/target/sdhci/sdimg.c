/*
 * Host tool of the QEMU SD tests (built with the host compiler, also in cross
 * builds):
 *
 *   sdimg make  FILE MIB          create a fresh image of MIB MiB (sparse)
 *   sdimg check FILE MIB FLAGS    after a run: every sector the guest wrote,
 *                                 its neighbours, all formula content and every
 *                                 allocated extent must match sd_image.h
 *
 * Exit status 0 when the image is as the test meant it, 1 on a mismatch,
 * 2 on a usage or I/O error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sd_image.h"

static int usage(void)
{
	fprintf(stderr, "usage: sdimg make FILE MIB | sdimg check FILE MIB FLAGS\n");
	return 2;
}

static int do_make(const char *file, uint32_t sectors)
{
	uint8_t buf[SDIMG_SECTOR * 64];
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || ftruncate(fd, (off_t)sectors * SDIMG_SECTOR) != 0) {
		perror(file);
		return 2;
	}
	for (uint32_t lba = 0; lba < sectors; lba += 64) {
		if (!sdimg_initial(lba, sectors))
			continue;
		for (uint32_t i = 0; i < 64; i++)
			sdimg_fill(buf + i * SDIMG_SECTOR, lba + i, 0);
		if (pwrite(fd, buf, sizeof(buf), (off_t)lba * SDIMG_SECTOR) !=
		    (ssize_t)sizeof(buf)) {
			perror(file);
			return 2;
		}
	}
	if (close(fd) != 0) {
		perror(file);
		return 2;
	}
	return 0;
}

struct checker {
	int fd;
	uint32_t sectors;
	struct sdimg_write w[SDIMG_W_COUNT];
	uint32_t nw;
	uint8_t *seen; /* one byte per sector: already compared */
	unsigned long compared, written, neighbours, mismatches;
};

static void expected(const struct checker *c, uint32_t lba, uint8_t *buf, int *tag)
{
	for (uint32_t i = 0; i < c->nw; i++) {
		if (lba >= c->w[i].lba && lba - c->w[i].lba < c->w[i].count) {
			*tag = (int)c->w[i].tag;
			sdimg_fill(buf, lba, c->w[i].tag);
			return;
		}
	}
	if (sdimg_initial(lba, c->sectors)) {
		*tag = 0;
		sdimg_fill(buf, lba, 0);
	} else {
		*tag = -1;
		memset(buf, 0, SDIMG_SECTOR);
	}
}

static int compare(struct checker *c, uint32_t lba)
{
	uint8_t want[SDIMG_SECTOR], got[SDIMG_SECTOR];
	int tag;

	if (lba >= c->sectors || c->seen[lba])
		return 0;
	c->seen[lba] = 1;
	expected(c, lba, want, &tag);
	if (pread(c->fd, got, sizeof(got), (off_t)lba * SDIMG_SECTOR) != (ssize_t)sizeof(got)) {
		perror("pread");
		return -1;
	}
	c->compared++;
	if (memcmp(want, got, sizeof(got)) != 0) {
		if (c->mismatches++ < 10) {
			uint32_t glba = got[0] | got[1] << 8 | got[2] << 16 |
					(uint32_t)got[3] << 24;

			fprintf(stderr,
				"sdimg: sector %u differs: expected %s%d, found header lba %u tag "
				"%u "
				"magic 0x%02x%02x\n",
				lba, tag < 0 ? "zeros " : "tag ", tag, glba, got[4] | got[5] << 8,
				got[7], got[6]);
		}
	}
	return 0;
}

static int do_check(const char *file, uint32_t sectors, uint32_t flags)
{
	struct checker c = {.sectors = sectors};
	off_t pos = 0, end = (off_t)sectors * SDIMG_SECTOR;
	struct stat st;

	c.fd = open(file, O_RDONLY);
	if (c.fd < 0 || fstat(c.fd, &st) != 0) {
		perror(file);
		return 2;
	}
	if (st.st_size != end) {
		fprintf(stderr, "sdimg: %s is %lld bytes, expected %lld\n", file,
			(long long)st.st_size, (long long)end);
		return 1;
	}
	c.seen = calloc(sectors, 1);
	if (!c.seen)
		return 2;
	c.nw = sdimg_plan(flags, sectors, c.w);

	/* Every written sector and the sector on each side of it. */
	for (uint32_t i = 0; i < c.nw; i++) {
		unsigned long before = c.compared;

		for (uint32_t k = 0; k < c.w[i].count; k++)
			compare(&c, c.w[i].lba + k);
		c.written += c.compared - before;
		before = c.compared;
		if (c.w[i].lba > 0)
			compare(&c, c.w[i].lba - 1u);
		compare(&c, c.w[i].lba + c.w[i].count);
		c.neighbours += c.compared - before;
	}
	/* All formula content, then whatever else the file has allocated (it must be
	   zeros): a stray write anywhere in the image shows up here. */
	for (uint32_t lba = 0; lba < sectors; lba++) {
		if (sdimg_initial(lba, sectors))
			compare(&c, lba);
	}
	while (pos < end) {
		off_t data = lseek(c.fd, pos, SEEK_DATA), hole;

		if (data < 0)
			break; /* ENXIO: no data after pos */
		hole = lseek(c.fd, data, SEEK_HOLE);
		if (hole < 0)
			hole = end;
		for (off_t o = data & ~(off_t)(SDIMG_SECTOR - 1); o < hole; o += SDIMG_SECTOR)
			compare(&c, (uint32_t)(o / SDIMG_SECTOR));
		pos = hole;
	}
	printf("sdimg: %s: %lu sectors compared (%lu written by the guest, %lu neighbours), "
	       "%lu mismatches\n",
	       file, c.compared, c.written, c.neighbours, c.mismatches);
	free(c.seen);
	close(c.fd);
	return c.mismatches ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long mib;

	if (argc < 4)
		return usage();
	mib = strtoul(argv[3], NULL, 0);
	if (mib == 0 || mib > 4096 || (mib & (mib - 1)) != 0) {
		fprintf(stderr, "sdimg: size must be a power of two MiB up to 4096\n");
		return 2;
	}
	if (strcmp(argv[1], "make") == 0 && argc == 4)
		return do_make(argv[2], (uint32_t)(mib * 2048u));
	if (strcmp(argv[1], "check") == 0 && argc == 5)
		return do_check(argv[2], (uint32_t)(mib * 2048u),
				(uint32_t)strtoul(argv[4], NULL, 0));
	return usage();
}
