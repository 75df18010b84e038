/*
 * Replays every file kept in tests/fuzz/request/ (the seed corpus of
 * fuzz/fuzz_request.c and every input it ever failed on) through the same
 * checks, so that each finding stays a regression test in every build.
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

#include "fuzz_request.h"

#ifndef FUZZ_REQUEST_CORPUS
#error "FUZZ_REQUEST_CORPUS (the corpus directory) must be defined"
#endif

static void test_replay_corpus(void **state)
{
	DIR *dir = opendir(FUZZ_REQUEST_CORPUS);
	struct dirent *e;
	unsigned files = 0, crashes = 0;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir)) != NULL) {
		char path[4096];
		static uint8_t buf[1u << 20];
		size_t n;
		FILE *fp;
		int rc;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", FUZZ_REQUEST_CORPUS, e->d_name);
		fp = fopen(path, "rb");
		assert_non_null(fp);
		n = fread(buf, 1, sizeof(buf), fp);
		fclose(fp);
		rc = fuzz_request_run(buf, n);
		if (rc != 0)
			fprintf(stderr, "%s: property %d broken\n", e->d_name, rc);
		assert_int_equal(rc, 0);
		files++;
		crashes += strncmp(e->d_name, "crash-", 6) == 0;
	}
	closedir(dir);
	/* the corpus is there, and so is every kept finding */
	assert_true(files >= 16u);
	assert_true(crashes >= 1u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
