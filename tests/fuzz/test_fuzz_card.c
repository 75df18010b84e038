/*
 * Replays every file kept in tests/fuzz/card/ (the seed corpus of
 * fuzz/fuzz_card.c, written by tools/fuzz_card_seeds.py, and every input it
 * ever failed on) through the same checks, so that each finding stays a
 * regression test in every build. The seeds named seed-<type>-* must also
 * still reach a successful init of that card type and successful block
 * calls: a change that made the fuzzer stop reaching them fails here.
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

#include "fuzz_card.h"

#ifndef FUZZ_CARD_CORPUS
#error "FUZZ_CARD_CORPUS (the corpus directory) must be defined"
#endif

struct seed_kind {
	const char *prefix;
	enum mmchal_card_type type;
	int block_addr; /* -1: either */
	bool memory;
	unsigned seen;
};

static void test_replay_corpus(void **state)
{
	struct seed_kind kinds[] = {
		{"seed-sdhc", MMCHAL_CARD_SD, 1, true, 0},
		{"seed-sdsc", MMCHAL_CARD_SD, 0, true, 0},
		{"seed-emmc", MMCHAL_CARD_MMC, 1, true, 0},
		{"seed-sdio", MMCHAL_CARD_SDIO, -1, false, 0},
	};
	DIR *dir = opendir(FUZZ_CARD_CORPUS);
	struct dirent *e;
	unsigned files = 0, crashes = 0;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir)) != NULL) {
		static uint8_t buf[1u << 20];
		struct fuzz_card_result res;
		char path[4096];
		size_t n;
		FILE *fp;
		int rc;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", FUZZ_CARD_CORPUS, e->d_name);
		fp = fopen(path, "rb");
		assert_non_null(fp);
		n = fread(buf, 1, sizeof(buf), fp);
		fclose(fp);
		rc = fuzz_card_run(buf, n, &res);
		if (getenv("FUZZ_CARD_VERBOSE"))
			fprintf(stderr, "%s: rc %d init %d type %d io_ok %u host calls %llu\n",
				e->d_name, rc, res.init_rc, (int)res.type, res.io_ok,
				(unsigned long long)res.host_calls);
		if (rc != 0)
			fprintf(stderr, "%s: property at fuzz_card.c:%d broken\n", e->d_name, rc);
		assert_int_equal(rc, 0);
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			struct seed_kind *s = &kinds[k];

			if (strncmp(e->d_name, s->prefix, strlen(s->prefix)) != 0)
				continue;
			if (res.init_rc != 0 || res.type != s->type ||
			    (s->block_addr >= 0 && res.block_addr != s->block_addr) ||
			    (s->memory && res.io_ok == 0u))
				fprintf(stderr, "%s: init %d type %d block_addr %d io_ok %u\n",
					e->d_name, res.init_rc, (int)res.type, res.block_addr,
					res.io_ok);
			assert_int_equal(res.init_rc, 0);
			assert_int_equal(res.type, s->type);
			if (s->block_addr >= 0)
				assert_int_equal(res.block_addr, s->block_addr);
			if (s->memory)
				assert_true(res.io_ok > 0u);
			s->seen++;
		}
		files++;
		crashes += strncmp(e->d_name, "crash-", 6) == 0;
	}
	closedir(dir);
	/* every card type has its seeds, and every kept finding is there */
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		assert_true(kinds[k].seen >= 1u);
	assert_true(files >= 15u);
	(void)crashes;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
