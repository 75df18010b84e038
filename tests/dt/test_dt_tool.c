/*
 * mmchal-probe (tools/probe/): its --json output on every shared board,
 * parsed and checked field by field against the library's own probe results
 * and expected.csv, the --node and --soc-revision options, and the exit
 * status and stderr line for every kind of bad input and usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mmchal/dt.h>
#include <mmchal/error.h>
#include <mmchal/limits.h>

#include "dt/dt_shared.h"
#include "dt/json_mini.h"

#define MAXN 16

/* The schema's names of the bus bits (docs/probe.md), in its order. */
static const struct {
	uint32_t bit;
	const char *name;
} bus_names[] = {
	{MMCHAL_BUS_4_BIT, "4-bit"},
	{MMCHAL_BUS_8_BIT, "8-bit"},
	{MMCHAL_BUS_SD_HS, "sd-highspeed"},
	{MMCHAL_BUS_MMC_HS, "mmc-highspeed"},
	{MMCHAL_BUS_UHS_SDR12, "sd-uhs-sdr12"},
	{MMCHAL_BUS_UHS_SDR25, "sd-uhs-sdr25"},
	{MMCHAL_BUS_UHS_SDR50, "sd-uhs-sdr50"},
	{MMCHAL_BUS_UHS_SDR104, "sd-uhs-sdr104"},
	{MMCHAL_BUS_UHS_DDR50, "sd-uhs-ddr50"},
	{MMCHAL_BUS_MMC_DDR52, "mmc-ddr-1_8v"},
	{MMCHAL_BUS_HS200, "mmc-hs200-1_8v"},
	{MMCHAL_BUS_HS400, "mmc-hs400-1_8v"},
	{MMCHAL_BUS_CMD23, "cmd23"},
	{MMCHAL_BUS_AUTO_CMD12, "auto-cmd12"},
	{MMCHAL_BUS_HW_BUSY, "hw-busy"},
	{MMCHAL_BUS_NONREMOVABLE, "non-removable"},
	{MMCHAL_BUS_BROKEN_CD, "broken-cd"},
	{MMCHAL_BUS_1_8V, "1.8v"},
	{MMCHAL_BUS_SDIO_IRQ, "sdio-irq"},
	{MMCHAL_BUS_HW_RESET, "hw-reset"},
};

struct run {
	int status; /* exit status, -1 when it did not exit normally */
	char *out;  /* stdout */
	char *err;  /* stderr */
	int err_lines;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Run the tool with @p args (already quoted), capturing stdout and stderr. */
static void tool(struct run *r, const char *args)
{
	char out[] = "/tmp/mmchal-probe-out-XXXXXX", err[] = "/tmp/mmchal-probe-err-XXXXXX";
	char cmd[2048];
	int fo = mkstemp(out), fe = mkstemp(err), st;
	const char *p;

	assert_true(fo >= 0 && fe >= 0);
	close(fo);
	close(fe);
	assert_true((size_t)snprintf(cmd, sizeof(cmd), "'%s' %s >'%s' 2>'%s'", PROBE_TOOL, args,
				     out, err) < sizeof(cmd));
	st = system(cmd);
	r->status = (st != -1 && WIFEXITED(st)) ? WEXITSTATUS(st) : -1;
	r->out = slurp(out);
	r->err = slurp(err);
	unlink(out);
	unlink(err);
	r->err_lines = 0;
	for (p = r->err; *p != '\0'; p++)
		if (*p == '\n')
			r->err_lines++;
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

static void board_arg(const char *board, char *out, size_t size)
{
	char name[128], path[512];

	snprintf(name, sizeof(name), "%s.dtb", board);
	dt_path(name, path, sizeof(path));
	snprintf(out, size, "'%s'", path);
}

/* ---------------------------------------------------------------- field checks */

static const struct jval *get(const struct jdoc *d, const struct jval *o, const char *k)
{
	static const struct jval none = {.type = J_NULL, .first = -1, .next = -1};
	const struct jval *v = json_get(d, o, k);

	if (v == NULL) {
		fail_msg("JSON member \"%s\" missing", k);
		return &none; /* not reached: fail_msg() leaves the test */
	}
	return v;
}

static void expect_uint(const struct jdoc *d, const struct jval *o, const char *k, uint64_t want)
{
	const struct jval *v = get(d, o, k);

	assert_int_equal(v->type, J_NUM);
	assert_true(v->is_uint);
	if (v->u != want)
		fail_msg("\"%s\": %llu, expected %llu", k, (unsigned long long)v->u,
			 (unsigned long long)want);
}

static void expect_bool(const struct jdoc *d, const struct jval *o, const char *k, bool want)
{
	const struct jval *v = get(d, o, k);

	assert_int_equal(v->type, J_BOOL);
	assert_int_equal(v->b, want);
}

static void expect_str(const struct jdoc *d, const struct jval *o, const char *k, const char *want)
{
	const struct jval *v = get(d, o, k);

	if (want == NULL) {
		assert_int_equal(v->type, J_NULL);
		return;
	}
	assert_int_equal(v->type, J_STR);
	assert_string_equal(v->s, want);
}

static void check_limits(const struct jdoc *d, const struct jval *o, const struct mmchal_limits *l)
{
	const struct jval *reasons = get(d, o, "reasons");
	char line[512];
	unsigned int f;

	expect_uint(d, o, "max_segs", l->max_segs);
	expect_uint(d, o, "max_req_size", l->max_req_size);
	expect_uint(d, o, "max_blk_count", l->max_blk_count);
	expect_uint(d, o, "max_blk_size", l->max_blk_size);
	expect_uint(d, o, "max_seg_size", l->max_seg_size);
	expect_bool(d, o, "merge", l->merge);
	expect_uint(d, o, "virt_boundary", l->virt_boundary);
	expect_uint(d, o, "seg_boundary", l->seg_boundary);
	expect_uint(d, o, "dma_align", l->dma_align);
	expect_uint(d, o, "bounce_limit", l->bounce_limit);
	expect_str(d, o, "policy", mmchal_completion_policy_name(l->policy));
	assert_int_equal(reasons->type, J_OBJ);
	assert_int_equal(reasons->n, MMCHAL_LIM_COUNT);
	for (f = 0; f < MMCHAL_LIM_COUNT; f++) {
		assert_true(mmchal_limits_explain_field(l, (enum mmchal_limit_field)f, line,
							sizeof(line)) > 0);
		expect_str(d, reasons, mmchal_limit_field_name((enum mmchal_limit_field)f), line);
	}
}

static void check_node(const struct jdoc *d, const struct jval *o, const struct mmchal_dt_node *n)
{
	static const char *const cards[MMCHAL_DT_CARD_COUNT] = {"sd", "mmc", "sdio"};
	const struct jval *a, *lim;
	char buf[MMCHAL_DT_WHY_LEN + 32];
	size_t i, k;

	expect_str(d, o, "path", n->path);
	expect_str(d, o, "status", n->enabled ? "okay" : "disabled");
	expect_bool(d, o, "supported", n->supported);
	expect_str(d, o, "compatible", n->compatible);
	expect_str(d, o, "error", n->error ? mmchal_strerror(n->error) : NULL);
	a = get(d, o, "why");
	assert_int_equal(a->type, J_ARR);
	assert_int_equal(a->n, n->nwhy);
	for (i = 0; i < n->nwhy; i++) {
		snprintf(buf, sizeof(buf), "%s: %s", mmchal_dt_fact_name(n->why[i].fact),
			 n->why[i].text);
		assert_string_equal(json_at(d, a, i)->s, buf);
	}
	if (!n->supported || n->error != 0) {
		assert_null(json_get(d, o, "limits"));
		assert_null(json_get(d, o, "backend"));
		return;
	}
	expect_str(d, o, "backend", mmchal_dt_backend_name(n->backend));
	expect_uint(d, o, "bus_shift", n->bus_shift);
	expect_uint(d, get(d, o, "reg"), "addr", n->reg_addr);
	expect_uint(d, get(d, o, "reg"), "size", n->reg_size);
	a = get(d, o, "interrupt");
	assert_int_equal(a->n, n->irq_ncells);
	for (i = 0; i < n->irq_ncells; i++)
		assert_int_equal(json_at(d, a, i)->u, n->irq[i]);
	expect_bool(d, o, "iommu", n->caps.iommu.present);
	expect_bool(d, o, "iommu_listed", n->iommu_listed);
	expect_uint(d, get(d, o, "dma"), "tx", n->dma_tx);
	expect_uint(d, get(d, o, "dma"), "rx", n->dma_rx);
	expect_uint(d, o, "bus_width", n->bus_width);
	a = get(d, o, "bus");
	for (i = 0, k = 0; i < sizeof(bus_names) / sizeof(bus_names[0]); i++) {
		if ((n->caps.host.bus & bus_names[i].bit) == 0)
			continue;
		assert_non_null(json_at(d, a, k));
		assert_string_equal(json_at(d, a, k)->s, bus_names[i].name);
		k++;
	}
	assert_int_equal(a->n, k);
	expect_uint(d, o, "f_max_hz", n->caps.host.f_max_hz);
	expect_bool(d, o, "merge_capable", n->caps.host.merge_capable);
	expect_uint(d, o, "blk_count_bits", n->caps.host.blk_count_bits);
	expect_uint(d, o, "max_blk_count", n->caps.host.max_blk_count);
	lim = get(d, o, "limits");
	assert_int_equal(lim->n, MMCHAL_DT_CARD_COUNT);
	for (i = 0; i < MMCHAL_DT_CARD_COUNT; i++)
		check_limits(d, get(d, lim, cards[i]), &n->limits[i]);
}

/* ---------------------------------------------------------------- tests */

static void test_json_every_board(void **state)
{
	static struct dt_row rows[DT_MAX_ROWS];
	static struct mmchal_dt_node nodes[MAXN];
	size_t nrows = dt_expected(rows, DT_MAX_ROWS), b, i, r, n, checked = 0;
	struct mmchal_dt_board board;
	char arg[600];

	(void)state;
	for (b = 0; b < dt_nboards; b++) {
		struct run run;
		struct jdoc d;
		const struct jval *root, *jn, *ja;
		size_t size;
		unsigned char *blob = dt_load(dt_boards[b], &size);

		memset(&board, 0, sizeof(board));
		assert_int_equal(mmchal_dt_probe(blob, size, NULL, &board, nodes, MAXN, &n), 0);
		board_arg(dt_boards[b], arg, sizeof(arg));
		strcat(arg, " --json");
		tool(&run, arg);
		assert_int_equal(run.status, 0);
		assert_string_equal(run.err, "");
		assert_true(json_parse(&d, run.out) >= 0);
		root = &d.v[0];
		assert_int_equal(root->type, J_OBJ);
		ja = get(&d, root, "board");
		assert_int_equal(ja->n, board.ncompat);
		for (i = 0; i < board.ncompat; i++)
			assert_string_equal(json_at(&d, ja, i)->s, board.compat[i]);
		expect_str(&d, root, "model", board.model);
		expect_str(&d, root, "soc_revision", NULL);
		jn = get(&d, root, "nodes");
		assert_int_equal(jn->n, n);
		for (i = 0; i < n; i++)
			check_node(&d, json_at(&d, jn, i), &nodes[i]);
		/* And against expected.csv directly. */
		for (r = 0; r < nrows; r++) {
			const struct jval *o = NULL, *lim;

			if (strcmp(rows[r].board, dt_boards[b]) != 0)
				continue;
			for (i = 0; i < n && o == NULL; i++)
				if (strcmp(get(&d, json_at(&d, jn, i), "path")->s, rows[r].node) ==
				    0)
					o = json_at(&d, jn, i);
			assert_non_null(o);
			expect_str(&d, o, "status", rows[r].status);
			expect_str(&d, o, "backend", rows[r].backend);
			expect_uint(&d, o, "bus_shift", rows[r].bus_shift);
			expect_bool(&d, o, "iommu", rows[r].iommu);
			lim = get(&d, o, "limits");
			expect_uint(&d, get(&d, lim, "sd"), "max_segs", rows[r].max_segs_sd_mmc);
			expect_uint(&d, get(&d, lim, "mmc"), "max_segs", rows[r].max_segs_sd_mmc);
			expect_uint(&d, get(&d, lim, "sdio"), "max_segs", rows[r].max_segs_sdio);
			checked++;
		}
		json_free(&d);
		run_free(&run);
		free(blob);
	}
	assert_int_equal(checked, nrows);
}

static void test_json_h3_exact(void **state)
{
	struct run run;
	struct jdoc d;
	const struct jval *o, *irq;
	char arg[700];

	(void)state;
	board_arg("r8a77951-salvator-xs", arg, sizeof(arg));
	strcat(arg, " --json --node /soc/mmc@ee140000 --soc-revision ES2.0");
	tool(&run, arg);
	assert_int_equal(run.status, 0);
	assert_true(json_parse(&d, run.out) >= 0);
	expect_str(&d, &d.v[0], "soc_revision", "ES2.0");
	assert_int_equal(get(&d, &d.v[0], "nodes")->n, 1);
	o = json_at(&d, get(&d, &d.v[0], "nodes"), 0);
	expect_str(&d, o, "path", "/soc/mmc@ee140000");
	expect_str(&d, o, "compatible", "renesas,sdhi-r8a7795");
	expect_str(&d, o, "backend", "idmac");
	expect_uint(&d, o, "bus_shift", 2);
	expect_uint(&d, get(&d, o, "reg"), "addr", 0xee140000u);
	expect_uint(&d, get(&d, o, "reg"), "size", 0x2000u);
	irq = get(&d, o, "interrupt");
	assert_int_equal(irq->n, 3);
	assert_int_equal(json_at(&d, irq, 1)->u, 167);
	expect_bool(&d, o, "iommu", false);
	expect_bool(&d, o, "iommu_listed", true);
	expect_uint(&d, o, "bus_width", 8);
	expect_uint(&d, o, "f_max_hz", 200000000u);
	expect_uint(&d, get(&d, get(&d, o, "limits"), "mmc"), "max_segs", 1);
	expect_str(&d, get(&d, get(&d, get(&d, o, "limits"), "mmc"), "reasons"), "max_segs",
		   "max_segs = 1: the DMA engine chains at most 1 segment(s) per transfer");
	json_free(&d);
	run_free(&run);
}

static void test_human_table(void **state)
{
	struct run run;
	char arg[600];

	(void)state;
	board_arg("r8a7790-lager", arg, sizeof(arg));
	tool(&run, arg);
	assert_int_equal(run.status, 0);
	assert_string_equal(run.err, "");
	assert_non_null(strstr(run.out, "board:        renesas,lager, renesas,r8a7790\n"));
	assert_non_null(strstr(run.out, "/soc/mmc@ee140000\n  status       okay\n"));
	assert_non_null(strstr(run.out, "  backend      sysdmac\n  bus_shift    0\n"));
	assert_non_null(
		strstr(run.out, "    max_segs                32             32             32\n"));
	run_free(&run);
}

static void expect_fail(const char *args, int status, const char *first_line_part)
{
	struct run run;

	tool(&run, args);
	print_message("args %s -> %d: %.*s\n", args, run.status, (int)strcspn(run.err, "\n"),
		      run.err);
	assert_int_equal(run.status, status);
	assert_true(run.err_lines >= 1);
	if (status == 1) {
		/* Bad input: exactly one line on stderr, nothing on stdout. */
		assert_int_equal(run.err_lines, 1);
		assert_string_equal(run.out, "");
	}
	assert_non_null(strstr(run.err, first_line_part));
	assert_true(strncmp(run.err, "mmchal-probe: ", 14) == 0);
	run_free(&run);
}

static void test_bad_input_and_usage(void **state)
{
	char good[600], dts[600], args[1400], trunc[] = "/tmp/mmchal-probe-trunc-XXXXXX";
	char path[512];
	struct run run;
	size_t size;
	unsigned char *blob = dt_load("r8a7790-lager", &size);
	int fd = mkstemp(trunc);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, blob, 1000), 1000);
	close(fd);
	board_arg("r8a7790-lager", good, sizeof(good));
	dt_path("r8a7790-lager.dts", path, sizeof(path));
	snprintf(dts, sizeof(dts), "'%s'", path);

	expect_fail("", 2, "no FILE given");
	expect_fail("--bogus x.dtb", 2, "unknown option");
	snprintf(args, sizeof(args), "%s --node", good);
	expect_fail(args, 2, "missing value: --node");
	snprintf(args, sizeof(args), "%s %s", good, good);
	expect_fail(args, 2, "more than one FILE");
	snprintf(args, sizeof(args), "--soc-revision ES3 %s", good);
	expect_fail(args, 2, "--soc-revision ES3: not of the form");

	expect_fail("/nonexistent/board.dtb", 1, "No such file");
	snprintf(args, sizeof(args), "'%s'", trunc);
	expect_fail(args, 1, "not a well-formed device tree blob");
	expect_fail(dts, 1, "not a well-formed device tree blob");
	snprintf(args, sizeof(args), "--node /soc/mmc@ee200000 %s", good);
	expect_fail(args, 1, "no SDHI node at /soc/mmc@ee200000");
	unlink(trunc);

	tool(&run, "--help");
	assert_int_equal(run.status, 0);
	assert_non_null(strstr(run.out, "--json"));
	assert_non_null(strstr(run.out, "--soc-revision REV"));
	assert_non_null(strstr(run.out, "--node PATH"));
	assert_non_null(strstr(run.out, "--help"));
	assert_non_null(strstr(run.out, "exit status"));
	run_free(&run);
	free(blob);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_every_board),
		cmocka_unit_test(test_json_h3_exact),
		cmocka_unit_test(test_human_table),
		cmocka_unit_test(test_bad_input_and_usage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
