/*
 * mmchal-sim end to end: `mmchal-sim --quick --json` on the default board,
 * checked run by run (the setups behind and without the IOMMU, their
 * max_segs, plans, the IOMMU pages of each run, the card column) and the
 * summary; and the exit status of runs that must fail.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#ifndef MMCHAL_SIM_EXE
#error "MMCHAL_SIM_EXE: path of mmchal-sim"
#endif

#define OUT_MAX (1u << 20)

static char out[OUT_MAX];

/* Run @cmd, keep its stdout in out[], return its exit status (-1: no exit). */
static int run_cmd(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, got;
	int st;

	assert_non_null(p);
	while ((got = fread(out + n, 1, OUT_MAX - 1 - n, p)) > 0)
		n += got;
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The text after `"key": ` in @obj up to the end of its line, or NULL. */
static const char *field(const char *obj, const char *key)
{
	char pat[64];
	const char *end = strchr(obj, '\n');
	const char *f;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	f = strstr(obj, pat);
	if (!f || (end && f > end))
		return NULL;
	return f + strlen(pat);
}

static double num(const char *obj, const char *key)
{
	const char *f = field(obj, key);
	char *e;
	double v;

	if (!f)
		fail_msg("field %s missing in: %.200s", key, obj);
	v = strtod(f, &e);
	if (e == f)
		fail_msg("field %s is not a number in: %.200s", key, obj);
	return v;
}

static bool flag(const char *obj, const char *key)
{
	const char *f = field(obj, key);

	if (!f)
		fail_msg("field %s missing in: %.200s", key, obj);
	if (!strncmp(f, "true", 4))
		return true;
	if (!strncmp(f, "false", 5))
		return false;
	fail_msg("field %s is not a boolean in: %.200s", key, obj);
	return false;
}

static void str(const char *obj, const char *key, char *buf, size_t n)
{
	const char *f = field(obj, key);
	const char *q = f && *f == '"' ? strchr(f + 1, '"') : NULL;
	size_t len = q ? (size_t)(q - f - 1) : 0;

	if (!q || len >= n) {
		fail_msg("field %s is not a string in: %.200s", key, obj);
		return;
	}
	memcpy(buf, f + 1, len);
	buf[len] = '\0';
}

struct want {
	const char *setup;
	bool iommu, merge;
	unsigned max_segs;
	unsigned seen;
};

static void check_run(const char *r, struct want *w, size_t nw)
{
	char setup[32], wl[16];
	struct want *s = NULL;
	double req = num(r, "req_size"), reqs = num(r, "requests"), calls = num(r, "calls");
	double bytes = num(r, "bytes"), iova = num(r, "iova_pages_peak");
	double limit, media;
	bool write;

	str(r, "setup", setup, sizeof(setup));
	str(r, "workload", wl, sizeof(wl));
	for (size_t i = 0; i < nw; i++)
		if (!strcmp(w[i].setup, setup))
			s = &w[i];
	if (!s) {
		fail_msg("unexpected setup %s", setup);
		return;
	}
	s->seen++;
	assert_true(req == 4096 || req == 524288);
	assert_int_equal(flag(r, "iommu"), s->iommu);
	assert_int_equal(flag(r, "merge"), s->merge);
	assert_int_equal((unsigned)num(r, "max_segs"), s->max_segs);
	assert_true(num(r, "mb_s") > 0);
	assert_true(field(r, "plans") != NULL);
	assert_int_equal((uint64_t)bytes, (uint64_t)(calls * req));
	/* the board has no bounce pool */
	assert_int_equal((unsigned)num(r, "bounce_slots_peak"), 0);
	assert_int_equal((unsigned)num(r, "bounced"), 0);
	assert_int_equal((unsigned)num(r, "pio"), 0);
	if (s->merge) {
		/* one merged request per call; its pages mapped once: a 4 KiB
		   read holds 1 page whatever ran before on this host */
		assert_int_equal((uint64_t)num(r, "iommu_merged"), (uint64_t)reqs);
		assert_int_equal((uint64_t)reqs, (uint64_t)calls);
		assert_int_equal((unsigned)iova, (unsigned)(req / 4096));
	} else {
		assert_int_equal((unsigned)num(r, "iommu_merged"), 0);
		assert_int_equal((uint64_t)num(r, "direct"), (uint64_t)reqs);
		if (s->max_segs == 1)
			assert_int_equal((uint64_t)reqs, (uint64_t)(bytes / 4096));
		/* behind the IOMMU one page per request, else nothing mapped */
		assert_int_equal((unsigned)iova, s->iommu ? 1u : 0u);
	}
	/* card: MB/s over the tighter of the bus and the eMMC's media rate
	   (the simulator's default eMMC: 250 MB/s read, 125 MB/s write) */
	write = strstr(wl, "write") != NULL;
	media = write ? 125.0 : 250.0;
	limit = num(r, "bus_mb_s") < media ? num(r, "bus_mb_s") : media;
	assert_true(num(r, "card_limit_mb_s") > limit - 0.05 &&
		    num(r, "card_limit_mb_s") < limit + 0.05);
	assert_true(num(r, "card_ratio") > num(r, "mb_s") / limit - 0.001 &&
		    num(r, "card_ratio") < num(r, "mb_s") / limit + 0.001);
	assert_true(num(r, "bus_ratio") > num(r, "mb_s") / num(r, "bus_mb_s") - 0.001 &&
		    num(r, "bus_ratio") < num(r, "mb_s") / num(r, "bus_mb_s") + 0.001);
}

static void test_quick_json(void **state)
{
	struct want w[] = {
		{"idmac", false, false, 1, 0},
		{"sysdmac", false, false, 32, 0},
		{"iommu-nomerge", true, false, 1, 0},
		{"idmac+iommu", true, true, 512, 0},
	};
	const char *r, *sum, *card;
	unsigned n = 0;

	(void)state;
	assert_int_equal(run_cmd(MMCHAL_SIM_EXE " --quick --json"), 0);
	assert_non_null(strstr(out, "{\"board\": \"R-Car H3-like"));
	assert_non_null(strstr(out, "\"ok\": true}"));
	card = strstr(out, "\"card\": {");
	assert_non_null(card);
	assert_true(num(card, "media_read_mb_s") == 250.0);
	assert_true(num(card, "media_write_mb_s") == 125.0);
	assert_true(num(card, "bus_mb_s") == 400.0);
	sum = strstr(out, "\"summary\": {");
	assert_non_null(sum);
	for (r = strstr(out, "{\"workload\": "); r && r < sum;
	     r = strstr(r + 1, "{\"workload\": ")) {
		check_run(r, w, sizeof(w) / sizeof(w[0]));
		n++;
	}
	assert_int_equal(n, 32);
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		assert_int_equal(w[i].seen, 8);

	assert_int_equal((unsigned)num(sum, "req_size"), 524288);
	assert_int_equal((unsigned)num(sum, "merged_max_segs"), 512);
	assert_true(num(sum, "seed_ratio") == 1.63);
	assert_true(num(sum, "seed_segs1_kb_s") == 121427);
	assert_true(num(sum, "seed_segs512_kb_s") == 197325);
	/* the seed's effect: >= 1.5x with 512 merged segments */
	assert_true(num(sum, "ratio") >= 1.5);
	assert_true(num(sum, "ratio") > num(sum, "merged_mb_s") / num(sum, "segs1_mb_s") - 0.01 &&
		    num(sum, "ratio") < num(sum, "merged_mb_s") / num(sum, "segs1_mb_s") + 0.01);
	assert_true(num(sum, "card_limit_mb_s") == 250.0);
	assert_true(num(sum, "bus_mb_s") == 400.0);
}

static void test_table_has_summary(void **state)
{
	(void)state;
	assert_int_equal(run_cmd(MMCHAL_SIM_EXE " --quick"), 0);
	assert_non_null(strstr(out, "  card    reqs"));
	assert_non_null(strstr(out, "seq-read, 512 KiB requests of scattered 4 KiB pages"));
	assert_non_null(strstr(out, "of the card limit (250 MB/s)"));
}

static void test_failures_exit_non_zero(void **state)
{
	(void)state;
	assert_int_equal(run_cmd(MMCHAL_SIM_EXE " --bogus 2>/dev/null"), 2);
	assert_int_equal(run_cmd(MMCHAL_SIM_EXE " --card floppy 2>/dev/null"), 2);
	assert_int_equal(run_cmd(MMCHAL_SIM_EXE " --node /soc/mmc 2>/dev/null"), 2);
	/* output that cannot be written is a failure */
	assert_int_equal(run_cmd(MMCHAL_SIM_EXE " --quick --json 2>/dev/null >/dev/full"), 1);
	assert_int_equal(run_cmd(MMCHAL_SIM_EXE " --help"), 0);
	assert_non_null(strstr(out, "iommu-nomerge"));
	assert_non_null(strstr(out, "  card "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quick_json),
		cmocka_unit_test(test_table_has_summary),
		cmocka_unit_test(test_failures_exit_non_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
