/*
 * Replays every file kept in tests/fuzz/sdhci/ (the seed corpus of
 * fuzz/fuzz_sdhci.c and every input it ever failed on) through the same
 * checks, and holds the seeds to what they are for: each "seed-*" input
 * reaches a successful command, read and write under the host core in the
 * DMA mode its name says ("pio", "sdma", "adma32", "adma64"), by DMA where it
 * has one.
 *
 * The seeds are made by this program: a healthy SD Host Controller v3.00 with
 * a card in its slot (the oracle below) answers every register read, and the
 * answers are the input's stream. `fuzz_sdhci_replay --write-seeds DIR` writes
 * them; the test checks that the kept seeds are exactly what the oracle gives
 * today.
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

#include <mmchal/sdhci.h>

#include "fuzz_sdhci.h"

#ifndef FUZZ_SDHCI_CORPUS
#error "FUZZ_SDHCI_CORPUS (the corpus directory) must be defined"
#endif

#define REC_MAX (1u << 20)

/* ------------------------------------------------------------ the oracle */

/* Capabilities of a v3.00 controller (2.2.25): 50 MHz timeout clock, 200 MHz
   base clock, 512-byte blocks, 8-bit bus, ADMA2, high speed, SDMA, 3.3 V,
   64-bit system bus. */
#define CAPS0 0x116cc8b2u

static uint32_t oracle(void *ctx, const struct fuzz_sdhci_view *v)
{
	uint32_t r1 = (v->cmd >> 8) == 1u ? 0xc0ff8080u : 0x00000900u; /* OCR / R1 tran */

	(void)ctx;
	switch (v->off) {
	case 0x2e: /* timeout control and software reset: every reset ends at once */
		return v->written & 0x00ffu;
	case 0x2c: /* clock control: the internal clock is stable */
		return v->written | 0x0002u;
	case 0x28: /* host control and power control, as written */
	case 0x3e: /* host control 2 */
		return v->written;
	case 0xfe: /* host controller version: v3.00 */
		return 0x0002u;
	case 0x40:
		return CAPS0;
	case 0x24: /* present state: card in and stable, writable, DAT0 high; the
		      buffer ready while data is left, no inhibit */
		return (1u << 16) | (1u << 17) | (1u << 19) | (1u << 20) |
		       (v->data_left ? (1u << 10) | (1u << 11) : 0);
	case 0x30: /* interrupt status, once per command: command and transfer
		      complete, the buffer ready while data is left */
		if (v->int_reads)
			return 0;
		return 0x0001u | 0x0002u | (v->data_left ? 0x0030u : 0);
	case 0x10: /* response 0 */
		return r1;
	case 0x14:
	case 0x18:
		return 0x11223344u;
	case 0x1c: /* response 3: an R2's top, or the Auto CMD12's R1 */
		return 0x00000900u;
	case 0x20: /* buffer data port */
		return 0x01234567u;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------ the seeds */

struct seed {
	const char *name;
	unsigned int mode; /* the DMA mode the backend resolves */
	uint8_t hdr[FUZZ_SDHCI_HDR];
};

/* CMD13, CMD7 (R1b), a 4-block read + CMD12, a 2-block write with CMD23, a
   read by mmchal_host_request() + poll, CMD9 (R2) */
#define REQS \
	5, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 5, 3, 0, 0, 6, 0x41, 0, 0, 0x85, 0, 0, 0, 3, 0, 0, 0
/* CMD1 (R3), a 3-block read in 2 entries + CMD12 (R1b), a 99-byte SDIO block, a
   2-block write in 2 entries + CMD12, a misaligned read, CMD13 */
#define REQS_SG                                                                                   \
	5, 0, 0, 0, 4, 0, 0, 0, 5, 2, 1, 0, 9, 0x10, 0x31, 0, 6, 0x21, 0x01, 0, 5, 0, 0x08, 0, 1, \
		0, 0, 0

static const struct seed seeds[] = {
	/* no DMA: every block through the data port, 4-bit wiring */
	{"seed-pio", MMCHAL_SDHCI_DMA_NONE, {0, 1, 0x20, 0, REQS}},
	/* SDMA, one segment */
	{"seed-sdma", MMCHAL_SDHCI_DMA_SDMA, {0, 2, 0x20, 0, REQS}},
	/* ADMA2 with 32-bit descriptors, a 48-byte table, the port's cache ops */
	{"seed-adma32", MMCHAL_SDHCI_DMA_ADMA2_32, {0x08, 0x13, 0x30, 0x80, REQS}},
	/* ADMA2 with 64-bit descriptors, a 96-byte table above 4 GiB, a segment table,
	   scattered buffers */
	{"seed-adma64", MMCHAL_SDHCI_DMA_ADMA2_64, {0, 0x3c, 0x30, 0x80, REQS_SG}},
};

#define NSEEDS (sizeof(seeds) / sizeof(seeds[0]))

static uint8_t *make_seed(const struct seed *s, size_t *len, struct fuzz_sdhci_result *res)
{
	uint8_t *buf = malloc(FUZZ_SDHCI_HDR + REC_MAX);
	size_t n = 0;

	assert_non_null(buf);
	memcpy(buf, s->hdr, FUZZ_SDHCI_HDR);
	assert_int_equal(
		fuzz_sdhci_record(s->hdr, oracle, NULL, buf + FUZZ_SDHCI_HDR, REC_MAX, &n, res), 0);
	assert_true(n < REC_MAX);
	*len = FUZZ_SDHCI_HDR + n;
	return buf;
}

static const struct seed *seed_named(const char *name)
{
	for (size_t i = 0; i < NSEEDS; i++)
		if (strcmp(name, seeds[i].name) == 0)
			return &seeds[i];
	return NULL;
}

static void expect_success(const char *name, const struct fuzz_sdhci_result *r)
{
	const struct seed *s = seed_named(name);

	if (!s)
		return;
	if (!r->cmd_ok || !r->read_ok || !r->write_ok || r->mode != s->mode)
		fprintf(stderr, "%s: mode %u cmd %u read %u write %u dma %u pio %u\n", name,
			r->mode, r->cmd_ok, r->read_ok, r->write_ok, r->dma_ok, r->pio_ok);
	assert_int_equal(r->mode, s->mode);
	assert_true(r->cmd_ok >= 2u);
	assert_true(r->read_ok >= 2u);
	assert_true(r->write_ok >= 1u);
	if (s->mode == MMCHAL_SDHCI_DMA_NONE) {
		assert_int_equal(r->dma_ok, 0);
		assert_int_equal(r->pio_ok, r->read_ok + r->write_ok);
	} else {
		assert_true(r->dma_ok >= 2u);
	}
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = malloc(FUZZ_SDHCI_HDR + REC_MAX);

	assert_non_null(fp);
	assert_non_null(buf);
	*len = fread(buf, 1, FUZZ_SDHCI_HDR + REC_MAX, fp);
	fclose(fp);
	return buf;
}

/* Each seed reaches its successes, and the kept file is the one the oracle makes. */
static void test_seeds(void **state)
{
	(void)state;
	for (size_t i = 0; i < NSEEDS; i++) {
		struct fuzz_sdhci_result rec, rep;
		char path[4096];
		size_t n, m;
		uint8_t *made = make_seed(&seeds[i], &n, &rec);
		uint8_t *kept;

		expect_success(seeds[i].name, &rec);
		snprintf(path, sizeof(path), "%s/%s", FUZZ_SDHCI_CORPUS, seeds[i].name);
		kept = read_file(path, &m);
		if (m != n || memcmp(made, kept, n) != 0)
			fail_msg("%s differs from what the oracle makes: run fuzz_sdhci_replay "
				 "--write-seeds %s",
				 seeds[i].name, FUZZ_SDHCI_CORPUS);
		assert_int_equal(fuzz_sdhci_run(kept, m, &rep), 0);
		assert_memory_equal(&rec, &rep, sizeof(rec));
		free(made);
		free(kept);
	}
}

static void test_replay_corpus(void **state)
{
	DIR *dir = opendir(FUZZ_SDHCI_CORPUS);
	struct dirent *e;
	unsigned int files = 0, seeds_seen = 0, findings = 0;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir)) != NULL) {
		struct fuzz_sdhci_result res;
		char path[4096];
		uint8_t *buf;
		size_t n;
		int rc;

		if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", FUZZ_SDHCI_CORPUS, e->d_name);
		buf = read_file(path, &n);
		rc = fuzz_sdhci_run(buf, n, &res);
		if (rc != 0)
			fprintf(stderr, "%s: property %d broken\n", e->d_name, rc);
		assert_int_equal(rc, 0);
		expect_success(e->d_name, &res);
		files++;
		seeds_seen += seed_named(e->d_name) != NULL;
		findings += strncmp(e->d_name, "crash-", 6) == 0;
		free(buf);
	}
	closedir(dir);
	assert_int_equal(seeds_seen, NSEEDS);
	/* and every kept finding */
	assert_true(findings >= 1u);
	assert_int_equal(files, NSEEDS + findings);
}

static int write_seeds(const char *dir)
{
	for (size_t i = 0; i < NSEEDS; i++) {
		struct fuzz_sdhci_result res;
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
		printf("%s: %zu bytes, mode %u cmd %u read %u write %u dma %u pio %u\n", path, n,
		       res.mode, res.cmd_ok, res.read_ok, res.write_ok, res.dma_ok, res.pio_ok);
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
