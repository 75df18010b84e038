/*
 * mmchal-probe: what mmchal derives from a board's device tree for every SDHI
 * controller, and why. See docs/probe.md for the output formats.
 *
 * Usage: mmchal-probe [--json] [--soc-revision REV] [--node PATH] FILE.dtb
 *
 * Exit status: 0 success, 1 bad input (unreadable file, malformed tree, no
 * such node), 2 usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/dt.h>
#include <mmchal/error.h>
#include <mmchal/limits.h>

#define MAX_BLOB  (64u << 20) /* larger than any real device tree */
#define MAX_NODES 64u

static const char *const card_keys[MMCHAL_DT_CARD_COUNT] = {"sd", "mmc", "sdio"};
static const char *const card_titles[MMCHAL_DT_CARD_COUNT] = {"SD", "eMMC", "SDIO"};

/* Bus bits in the order docs/probe.md lists them, with their tree names. */
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

static void usage(FILE *to)
{
	fprintf(to, "usage: mmchal-probe [--json] [--soc-revision REV] [--node PATH] FILE.dtb\n"
		    "\n"
		    "Reads a flattened device tree (DTB) and prints, for every SDHI controller\n"
		    "node, what mmchal derives from it: status, the compatible string that\n"
		    "matched the SoC table, backend, bus_shift, register window, interrupt,\n"
		    "IOMMU and DMA facts, bus width and capabilities, and the limits an SD, an\n"
		    "eMMC and an SDIO card would get, each with its reason.\n"
		    "\n"
		    "options:\n"
		    "  --json              print one JSON document (schema: docs/probe.md)\n"
		    "                      instead of the readable table\n"
		    "  --soc-revision REV  SoC revision the tree cannot say, e.g. ES2.0 or ES3.0\n"
		    "                      (decides whether R-Car H3's IOMMU serves SDHI, and the\n"
		    "                      ES1.x DMAC quirks); default: latest revision assumed\n"
		    "  --node PATH         only the node with this full path, e.g.\n"
		    "                      /soc/mmc@ee100000\n"
		    "  -h, --help          this text\n"
		    "\n"
		    "exit status: 0 success; 1 bad input (unreadable file, malformed tree,\n"
		    "no SDHI node at PATH); 2 usage error\n");
}

static int read_file(const char *path, unsigned char **out, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	size_t n;

	if (f == NULL)
		return -errno;
	buf = malloc(MAX_BLOB + 1u);
	if (buf == NULL) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, MAX_BLOB + 1u, f);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	if (n > MAX_BLOB) {
		free(buf);
		return -EFBIG;
	}
	*out = buf;
	*size = n;
	return 0;
}

/* ---------------------------------------------------------------- JSON */

static void json_str(const char *s)
{
	putchar('"');
	for (; s != NULL && *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_key(const char *k)
{
	json_str(k);
	putchar(':');
}

static void json_limits(const struct mmchal_limits *l)
{
	char line[512];
	unsigned int f;

	printf("{\"max_segs\":%u,\"max_req_size\":%llu,\"max_blk_count\":%u,"
	       "\"max_blk_size\":%u,\"max_seg_size\":%u,\"merge\":%s,\"virt_boundary\":%llu,"
	       "\"seg_boundary\":%llu,\"dma_align\":%u,\"bounce_limit\":%llu,\"policy\":",
	       l->max_segs, (unsigned long long)l->max_req_size, l->max_blk_count, l->max_blk_size,
	       l->max_seg_size, l->merge ? "true" : "false", (unsigned long long)l->virt_boundary,
	       (unsigned long long)l->seg_boundary, l->dma_align,
	       (unsigned long long)l->bounce_limit);
	json_str(mmchal_completion_policy_name(l->policy));
	printf(",\"reasons\":{");
	for (f = 0; f < MMCHAL_LIM_COUNT; f++) {
		if (mmchal_limits_explain_field(l, (enum mmchal_limit_field)f, line, sizeof(line)) <
		    0)
			line[0] = '\0';
		if (f > 0)
			putchar(',');
		json_key(mmchal_limit_field_name((enum mmchal_limit_field)f));
		json_str(line);
	}
	printf("}}");
}

static void json_node(const struct mmchal_dt_node *n)
{
	uint32_t i;
	bool first;

	printf("{");
	json_key("path");
	json_str(n->path);
	printf(",");
	json_key("status");
	json_str(n->enabled ? "okay" : "disabled");
	printf(",\"supported\":%s,", n->supported ? "true" : "false");
	json_key("compatible");
	if (n->compatible != NULL)
		json_str(n->compatible);
	else
		printf("null");
	printf(",");
	json_key("error");
	if (n->error != 0)
		json_str(mmchal_strerror(n->error));
	else
		printf("null");
	if (!n->supported) {
		printf(",");
		json_key("reason");
		json_str(n->nwhy > 0 ? n->why[n->nwhy - 1u].text : "");
	}
	if (n->supported && n->error == 0) {
		printf(",");
		json_key("backend");
		json_str(mmchal_dt_backend_name(n->backend));
		printf(",\"bus_shift\":%u,\"reg\":{\"addr\":%llu,\"size\":%llu},", n->bus_shift,
		       (unsigned long long)n->reg_addr, (unsigned long long)n->reg_size);
		printf("\"interrupt\":[");
		for (i = 0; i < n->irq_ncells; i++)
			printf("%s%u", i ? "," : "", n->irq[i]);
		printf("],\"iommu\":%s,\"iommu_listed\":%s,",
		       n->caps.iommu.present ? "true" : "false",
		       n->iommu_listed ? "true" : "false");
		printf("\"dma\":{\"tx\":%u,\"rx\":%u},\"bus_width\":%u,\"bus\":[", n->dma_tx,
		       n->dma_rx, n->bus_width);
		first = true;
		for (i = 0; i < sizeof(bus_names) / sizeof(bus_names[0]); i++) {
			if ((n->caps.host.bus & bus_names[i].bit) == 0)
				continue;
			if (!first)
				putchar(',');
			json_str(bus_names[i].name);
			first = false;
		}
		printf("],\"f_max_hz\":%u,\"merge_capable\":%s,\"blk_count_bits\":%u,"
		       "\"max_blk_count\":%u",
		       n->caps.host.f_max_hz, n->caps.host.merge_capable ? "true" : "false",
		       n->caps.host.blk_count_bits, n->caps.host.max_blk_count);
	}
	printf(",\"why\":[");
	for (i = 0; i < n->nwhy; i++) {
		char buf[MMCHAL_DT_WHY_LEN + 32];

		snprintf(buf, sizeof(buf), "%s: %s", mmchal_dt_fact_name(n->why[i].fact),
			 n->why[i].text);
		if (i > 0)
			putchar(',');
		json_str(buf);
	}
	printf("]");
	if (n->supported && n->error == 0) {
		printf(",\"limits\":{");
		for (i = 0; i < MMCHAL_DT_CARD_COUNT; i++) {
			if (i > 0)
				putchar(',');
			json_key(card_keys[i]);
			json_limits(&n->limits[i]);
		}
		printf("}");
	}
	printf("}");
}

static void print_json(const struct mmchal_dt_board *b, const char *rev,
		       const struct mmchal_dt_node *nodes, size_t count, const char *only)
{
	uint32_t i;
	size_t k;
	bool first = true;

	printf("{\"board\":[");
	for (i = 0; i < b->ncompat && i < MMCHAL_DT_BOARD_MAX; i++) {
		if (i > 0)
			putchar(',');
		json_str(b->compat[i]);
	}
	printf("],");
	json_key("model");
	if (b->model != NULL)
		json_str(b->model);
	else
		printf("null");
	printf(",");
	json_key("soc_revision");
	if (rev != NULL)
		json_str(rev);
	else
		printf("null");
	printf(",\"nodes\":[");
	for (k = 0; k < count; k++) {
		if (only != NULL && strcmp(nodes[k].path, only) != 0)
			continue;
		if (!first)
			putchar(',');
		json_node(&nodes[k]);
		first = false;
	}
	printf("]}\n");
}

/* ---------------------------------------------------------------- table */

static void print_bus(uint32_t bits)
{
	size_t i;
	bool first = true;

	for (i = 0; i < sizeof(bus_names) / sizeof(bus_names[0]); i++) {
		if ((bits & bus_names[i].bit) == 0)
			continue;
		printf("%s%s", first ? "" : " ", bus_names[i].name);
		first = false;
	}
	if (first)
		printf("1-bit, default speed");
}

static void print_node(const struct mmchal_dt_node *n)
{
	uint32_t i;
	unsigned int c, f;

	printf("%s\n", n->path);
	printf("  %-12s %s\n", "status", n->enabled ? "okay" : "disabled (not to be probed)");
	printf("  %-12s %s%s\n", "compatible", n->compatible ? n->compatible : "(none)",
	       n->supported ? "" : "  [unsupported]");
	if (n->error != 0)
		printf("  %-12s %s\n", "error", mmchal_strerror(n->error));
	if (n->supported && n->error == 0) {
		printf("  %-12s %s\n", "backend", mmchal_dt_backend_name(n->backend));
		printf("  %-12s %u\n", "bus_shift", n->bus_shift);
		printf("  %-12s 0x%llx, 0x%llx bytes\n", "reg", (unsigned long long)n->reg_addr,
		       (unsigned long long)n->reg_size);
		printf("  %-12s", "interrupt");
		if (n->irq_ncells == 0)
			printf(" none (polled)");
		for (i = 0; i < n->irq_ncells; i++)
			printf(" 0x%x", n->irq[i]);
		printf("\n  %-12s %s\n", "iommu",
		       n->caps.iommu.present ? "yes (4 KiB pages, can merge)"
		       : n->iommu_listed     ? "listed, not used"
					     : "no");
		printf("  %-12s tx %u, rx %u\n", "dma channels", n->dma_tx, n->dma_rx);
		printf("  %-12s %u\n", "bus-width", n->bus_width);
		printf("  %-12s ", "bus caps");
		print_bus(n->caps.host.bus);
		printf("\n  %-12s ", "f_max");
		if (n->caps.host.f_max_hz)
			printf("%u Hz\n", n->caps.host.f_max_hz);
		else
			printf("not given\n");
	}
	printf("  why:\n");
	for (i = 0; i < n->nwhy; i++)
		printf("    %-10s %s\n", mmchal_dt_fact_name(n->why[i].fact), n->why[i].text);
	if (n->why_lost)
		printf("    (more reasons did not fit)\n");
	if (!n->supported || n->error != 0) {
		printf("\n");
		return;
	}
	printf("  limits:      %14s %14s %14s\n", card_titles[0], card_titles[1], card_titles[2]);
	printf("    %-13s %12u %14u %14u\n", "max_segs", n->limits[0].max_segs,
	       n->limits[1].max_segs, n->limits[2].max_segs);
	printf("    %-13s %12llu %14llu %14llu\n", "max_req_size",
	       (unsigned long long)n->limits[0].max_req_size,
	       (unsigned long long)n->limits[1].max_req_size,
	       (unsigned long long)n->limits[2].max_req_size);
	printf("    %-13s %12u %14u %14u\n", "max_blk_count", n->limits[0].max_blk_count,
	       n->limits[1].max_blk_count, n->limits[2].max_blk_count);
	printf("    %-13s %12u %14u %14u\n", "max_seg_size", n->limits[0].max_seg_size,
	       n->limits[1].max_seg_size, n->limits[2].max_seg_size);
	printf("    %-13s %12s %14s %14s\n", "merge", n->limits[0].merge ? "yes" : "no",
	       n->limits[1].merge ? "yes" : "no", n->limits[2].merge ? "yes" : "no");
	printf("    %-13s %12s %14s %14s\n", "completion",
	       mmchal_completion_policy_name(n->limits[0].policy),
	       mmchal_completion_policy_name(n->limits[1].policy),
	       mmchal_completion_policy_name(n->limits[2].policy));
	/* One line per field when all three cards agree, else one per card. */
	printf("  limit reasons:\n");
	for (f = 0; f < MMCHAL_LIM_COUNT; f++) {
		char lines[MMCHAL_DT_CARD_COUNT][512];
		bool same = true;

		for (c = 0; c < MMCHAL_DT_CARD_COUNT; c++) {
			if (mmchal_limits_explain_field(&n->limits[c], (enum mmchal_limit_field)f,
							lines[c], sizeof(lines[c])) < 0)
				lines[c][0] = '\0';
			if (c > 0 && strcmp(lines[c], lines[0]) != 0)
				same = false;
		}
		for (c = 0; c < MMCHAL_DT_CARD_COUNT; c++) {
			if (same) {
				printf("    %-5s %s\n", "all", lines[0]);
				break;
			}
			printf("    %-5s %s\n", card_titles[c], lines[c]);
		}
	}
	printf("\n");
}

static void print_table(const struct mmchal_dt_board *b, const char *rev,
			const struct mmchal_dt_node *nodes, size_t count, const char *only)
{
	uint32_t i;
	size_t k;

	printf("board:        ");
	for (i = 0; i < b->ncompat && i < MMCHAL_DT_BOARD_MAX; i++)
		printf("%s%s", i ? ", " : "", b->compat[i]);
	printf("\nmodel:        %s\n", b->model ? b->model : "(none)");
	printf("SoC revision: %s\n", rev ? rev : "not given (latest assumed)");
	printf("SDHI nodes:   %zu\n\n", count);
	for (k = 0; k < count; k++) {
		if (only == NULL || strcmp(nodes[k].path, only) == 0)
			print_node(&nodes[k]);
	}
}

int main(int argc, char **argv)
{
	static struct mmchal_dt_node nodes[MAX_NODES];
	struct mmchal_dt_board board;
	struct mmchal_dt_opts opts;
	const char *file = NULL, *rev = NULL, *only = NULL;
	bool json = false;
	unsigned char *blob = NULL;
	size_t size = 0, count = 0, k;
	uint8_t ma, mi;
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = true;
		} else if (strcmp(argv[i], "--soc-revision") == 0 && i + 1 < argc) {
			rev = argv[++i];
		} else if (strcmp(argv[i], "--node") == 0 && i + 1 < argc) {
			only = argv[++i];
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "mmchal-probe: unknown option or missing value: %s\n",
				argv[i]);
			usage(stderr);
			return 2;
		} else if (file == NULL) {
			file = argv[i];
		} else {
			fprintf(stderr, "mmchal-probe: more than one FILE given\n");
			usage(stderr);
			return 2;
		}
	}
	if (file == NULL) {
		fprintf(stderr, "mmchal-probe: no FILE given\n");
		usage(stderr);
		return 2;
	}
	if (rev != NULL && mmchal_dt_parse_revision(rev, &ma, &mi) != 0) {
		fprintf(stderr,
			"mmchal-probe: --soc-revision %s: not of the form ES<major>.<minor>\n",
			rev);
		return 2;
	}

	rc = read_file(file, &blob, &size);
	if (rc != 0) {
		fprintf(stderr, "mmchal-probe: %s: %s\n", file,
			rc == -EFBIG ? "larger than 64 MiB, not a device tree" : strerror(-rc));
		return 1;
	}
	memset(&opts, 0, sizeof(opts));
	opts.soc_revision = rev;
	memset(&board, 0, sizeof(board));
	rc = mmchal_dt_probe(blob, size, &opts, &board, nodes, MAX_NODES, &count);
	if (rc == MMCHAL_ENOSPC) {
		fprintf(stderr, "mmchal-probe: %s: more than %u SDHI nodes\n", file, MAX_NODES);
		free(blob);
		return 1;
	}
	if (rc != 0) {
		fprintf(stderr, "mmchal-probe: %s: %s\n", file,
			rc == MMCHAL_EPROTO   ? "not a well-formed device tree blob"
			: rc == MMCHAL_ERANGE ? "device tree nested too deeply or too many nodes"
					      : mmchal_strerror(rc));
		free(blob);
		return 1;
	}
	if (only != NULL) {
		for (k = 0; k < count && strcmp(nodes[k].path, only) != 0; k++)
			;
		if (k == count) {
			fprintf(stderr, "mmchal-probe: %s: no SDHI node at %s\n", file, only);
			free(blob);
			return 1;
		}
	}
	if (json)
		print_json(&board, rev, nodes, count, only);
	else
		print_table(&board, rev, nodes, count, only);
	free(blob);
	return 0;
}
