/*
 * Replays every file kept in tests/fuzz/sdhi/ (the seed corpus of
 * fuzz/fuzz_sdhi.c and every input it ever failed on) through the same
 * checks, and holds the seeds to what they are for: each "seed-host-*" input
 * reaches a successful command, read and write under the host core, each
 * "seed-boot-*" input a successful mmchal_emmc_boot_init() and read.
 *
 * The seeds are made by this program: a healthy controller and eMMC (the
 * oracle below) answers every register read, and the answers are the input's
 * stream. `fuzz_sdhi_replay --write-seeds DIR` writes them; the test checks
 * that the kept seeds are exactly what the oracle gives today.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_sdhi.h"

#ifndef FUZZ_SDHI_CORPUS
#error "FUZZ_SDHI_CORPUS (the corpus directory) must be defined"
#endif

#define REC_MAX (1u << 20)

/* ------------------------------------------------------------ the oracle */

struct orc {
	uint16_t version;
};

/* EXT_CSD of an 8 MiB sector-mode eMMC with high speed, after the CMD6s seen. */
static uint8_t ext_csd(const struct fuzz_sdhi_view *v)
{
	switch (v->off) {
	case 183: /* BUS_WIDTH */
		return v->ext[0];
	case 185: /* HS_TIMING */
		return v->ext[1];
	case 196: /* CARD_TYPE: HS26 | HS52 */
		return 0x03;
	case 213: /* SEC_COUNT 16384 (bytes 212..215, little-endian) */
		return 0x40;
	case 248: /* GENERIC_CMD6_TIME: 10 ms */
		return 1;
	default:
		return 0;
	}
}

static uint64_t oracle(void *ctx, const struct fuzz_sdhi_view *v)
{
	const struct orc *o = ctx;
	uint32_t r1 = (v->cmd & 0x3fu) == 1u ? 0xc0ff8080u : 0x00000900u; /* OCR / R1 tran */
	uint32_t reg;

	if (v->fill)
		return ext_csd(v);
	if (v->off == 0xffffffffu)
		return 0; /* SYS-DMAC: prepared, submitted, done at the next register read */
	if (v->off >= 0x800u) {
		/* DM_CM_INFO1: every channel end; DM_CM_INFO2: no error */
		return v->off == 0x840u ? (1u << 16) | (1u << 17) | (1u << 20) : 0;
	}
	reg = v->off >> v->shift;
	switch (reg) {
	case 0xe2: /* VERSION */
		return o->version;
	case 0x1c: /* SD_INFO1: response end, access end once the data moved, CD, writable */
		return 0x00a1u | (v->data_left == 0 ? 0x0004u : 0);
	case 0x1e: /* SD_INFO2: DAT0 high, bus idle, buffer ready while data is left */
		return 0x2080u | (v->data_left ? 0x0300u : 0);
	case 0x0c: /* SD_RSP10 */
		return v->width == 2 ? (r1 & 0xffffu) : r1;
	case 0x0e:
		return r1 >> 16;
	case 0x30: /* SD_BUF0 */
		return 0x0123456789abcdefull;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------ the seeds */

struct seed {
	const char *name;
	uint16_t version;
	uint8_t hdr[FUZZ_SDHI_HDR];
};

/* Host mode: CMD0, CMD13, CMD7 (R1b), CMD18 of 4 blocks + CMD12, CMD25 of 2
   blocks + CMD12, CMD17 by mmchal_host_request() + poll. */
#define HOST_REQS 5, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 5, 3, 0, 0, 6, 1, 0, 0, 0x85, 0, 0, 0
/* Host mode, PIO: CMD9 (R2), CMD1 (R3), a 3-block read in 3 entries with CMD23,
   a 99-byte SDIO block in 2 entries, a write in 2 entries, CMD13 with a done callback. */
#define PIO_REQS  5, 3, 0, 0, 0, 4, 0, 0, 0, 5, 0x42, 2, 0, 9, 0, 0x31, 0, 6, 1, 1, 0, 0x41, 0, 0, 0

static const struct seed seeds[] = {
	/* internal DMAC on R-Car H3, 64-bit accesses */
	{"seed-host-idmac", 0xcc10u, {0, 0, 0, 0x02, 0, 0, 0x80, HOST_REQS}},
	/* SYS-DMAC on R-Car H2 (window > 0x100: bus_shift 1), 32 segments */
	{"seed-host-sysdmac", 0xcb0du, {0, 1, 2, 0x01, 0, 0x1f, 0x80, HOST_REQS}},
	/* PIO on the Gen3 fallback entry, 32-bit port */
	{"seed-host-pio", 0xcc10u, {0, 2, 5, 0x08, 0, 0, 0x80, PIO_REQS}},
	/* boot reader: 8-bit and high speed, 64-bit accesses, cache invalidate; a
	   single and an 8-block read */
	{"seed-boot-8bit", 0xcc10u, {1, 0, 0, 0x1f, 0, 2, 3, 0, 10, 7}},
	/* boot reader: 4-bit wiring only, 32-bit accesses, 133 MHz, 26 MHz limit, H3
	   ES1.x (old DM_CM_INFO1 layout) */
	{"seed-boot-4bit", 0xcc10u, {1, 0, 1, 0x21, 1, 1, 0x83, 3}},
};

#define NSEEDS (sizeof(seeds) / sizeof(seeds[0]))

static uint8_t *make_seed(const struct seed *s, size_t *len, struct fuzz_sdhi_result *res)
{
	struct orc o = {.version = s->version};
	uint8_t *buf = malloc(FUZZ_SDHI_HDR + REC_MAX);
	size_t n = 0;

	assert_non_null(buf);
	memcpy(buf, s->hdr, FUZZ_SDHI_HDR);
	assert_int_equal(
		fuzz_sdhi_record(s->hdr, oracle, &o, buf + FUZZ_SDHI_HDR, REC_MAX, &n, res), 0);
	assert_true(n < REC_MAX);
	*len = FUZZ_SDHI_HDR + n;
	return buf;
}

static void expect_success(const char *name, const struct fuzz_sdhi_result *r)
{
	if (strncmp(name, "seed-host", 9) == 0) {
		if (!r->cmd_ok || !r->read_ok || !r->write_ok)
			fprintf(stderr, "%s: cmd %u read %u write %u\n", name, r->cmd_ok,
				r->read_ok, r->write_ok);
		assert_true(r->cmd_ok >= 1u);
		assert_true(r->read_ok >= 1u);
		assert_true(r->write_ok >= 1u);
	} else if (strncmp(name, "seed-boot", 9) == 0) {
		if (!r->boot_init || !r->boot_read)
			fprintf(stderr, "%s: init %u read %u\n", name, r->boot_init, r->boot_read);
		assert_int_equal(r->boot_init, 1);
		assert_true(r->boot_read >= 1u);
	}
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = malloc(FUZZ_SDHI_HDR + REC_MAX);

	assert_non_null(fp);
	assert_non_null(buf);
	*len = fread(buf, 1, FUZZ_SDHI_HDR + REC_MAX, fp);
	fclose(fp);
	return buf;
}

/* Each seed reaches its successes, and the kept file is the one the oracle makes. */
static void test_seeds(void **state)
{
	(void)state;
	for (size_t i = 0; i < NSEEDS; i++) {
		struct fuzz_sdhi_result rec, rep;
		char path[4096];
		size_t n, m;
		uint8_t *made = make_seed(&seeds[i], &n, &rec);
		uint8_t *kept;

		expect_success(seeds[i].name, &rec);
		snprintf(path, sizeof(path), "%s/%s", FUZZ_SDHI_CORPUS, seeds[i].name);
		kept = read_file(path, &m);
		if (m != n || memcmp(made, kept, n) != 0)
			fail_msg("%s differs from what the oracle makes: run fuzz_sdhi_replay "
				 "--write-seeds %s",
				 seeds[i].name, FUZZ_SDHI_CORPUS);
		assert_int_equal(fuzz_sdhi_run(kept, m, &rep), 0);
		assert_memory_equal(&rec, &rep, sizeof(rec));
		free(made);
		free(kept);
	}
}

static void test_replay_corpus(void **state)
{
	DIR *dir = opendir(FUZZ_SDHI_CORPUS);
	struct dirent *e;
	unsigned int files = 0, seeds_seen = 0, findings = 0;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir)) != NULL) {
		struct fuzz_sdhi_result res;
		char path[4096];
		uint8_t *buf;
		size_t n;
		int rc;

		if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", FUZZ_SDHI_CORPUS, e->d_name);
		buf = read_file(path, &n);
		rc = fuzz_sdhi_run(buf, n, &res);
		if (rc != 0)
			fprintf(stderr, "%s: property %d broken\n", e->d_name, rc);
		assert_int_equal(rc, 0);
		expect_success(e->d_name, &res);
		files++;
		seeds_seen += strncmp(e->d_name, "seed-", 5) == 0;
		findings += strncmp(e->d_name, "crash-", 6) == 0;
		free(buf);
	}
	closedir(dir);
	assert_true(seeds_seen >= NSEEDS);
	/* and every kept finding */
	assert_true(findings >= 3u);
	assert_true(files >= NSEEDS + findings);
}

static int write_seeds(const char *dir)
{
	for (size_t i = 0; i < NSEEDS; i++) {
		struct fuzz_sdhi_result res;
		char path[4096];
		size_t n;
		uint8_t *buf = make_seed(&seeds[i], &n, &res);
		FILE *fp;

		snprintf(path, sizeof(path), "%s/%s", dir, seeds[i].name);
		fp = fopen(path, "wb");
		if (!fp || fwrite(buf, 1, n, fp) != n || fclose(fp) != 0) {
			fprintf(stderr, "cannot write %s\n", path);
			return 1;
		}
		printf("%s: %zu bytes, cmd %u read %u write %u boot init %u read %u\n", path, n,
		       res.cmd_ok, res.read_ok, res.write_ok, res.boot_init, res.boot_read);
		free(buf);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_replay_corpus),
	};

	if (argc == 3 && strcmp(argv[1], "--write-seeds") == 0)
		return write_seeds(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
