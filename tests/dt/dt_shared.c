/*
 * Test helpers: the shared device trees and expected.csv, read at run time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt/dt_shared.h"

const char *const dt_boards[] = {
	"r8a73a4-ape6evm",      "r8a7790-lager",   "r8a77951-salvator-xs",
	"r8a77965-salvator-xs", "r8a779f0-spider", "r9a07g044l2-smarc",
};
const size_t dt_nboards = sizeof(dt_boards) / sizeof(dt_boards[0]);

void dt_path(const char *name, char *out, size_t size)
{
	const char *dir = getenv("MMCHAL_SHARED_DIR");

	/* ctest sets the variable; a test run by hand (or under valgrind) falls
	   back to where the build found ../shared. */
	if (dir == NULL || dir[0] == '\0')
		dir = DT_SHARED_DIR_DEFAULT;
	assert_true((size_t)snprintf(out, size, "%s/data/dt/%s", dir, name) < size);
}

unsigned char *dt_load(const char *board, size_t *size)
{
	char name[128], path[512];
	unsigned char *buf;
	FILE *f;
	long n;

	snprintf(name, sizeof(name), "%s.dtb", board);
	dt_path(name, path, sizeof(path));
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return buf;
}

#define CSV_HEADER "board,node,status,backend,bus_shift,iommu,max_segs_sd_mmc,max_segs_sdio"

/* Split one CSV line into at most max fields (quoted fields may hold commas). */
static size_t split(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (n < max) {
		if (*p == '"') {
			fields[n++] = ++p;
			while (*p && *p != '"')
				p++;
			if (*p)
				*p++ = '\0';
		} else {
			fields[n++] = p;
			while (*p && *p != ',' && *p != '\n' && *p != '\r')
				p++;
		}
		if (*p != ',') {
			*p = '\0';
			break;
		}
		*p++ = '\0';
	}
	return n;
}

size_t dt_expected(struct dt_row *rows, size_t max)
{
	char path[512], line[1024];
	char *f[9];
	size_t n = 0;
	FILE *fp;

	dt_path("expected.csv", path, sizeof(path));
	fp = fopen(path, "r");
	if (fp == NULL)
		fail_msg("cannot open %s", path);
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_int_equal(strncmp(line, CSV_HEADER, strlen(CSV_HEADER)), 0);
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (line[0] == '\n' || line[0] == '\0')
			continue;
		assert_true(n < max);
		assert_true(split(line, f, 9) >= 8);
		snprintf(rows[n].board, sizeof(rows[n].board), "%s", f[0]);
		snprintf(rows[n].node, sizeof(rows[n].node), "%s", f[1]);
		snprintf(rows[n].status, sizeof(rows[n].status), "%s", f[2]);
		snprintf(rows[n].backend, sizeof(rows[n].backend), "%s", f[3]);
		rows[n].bus_shift = (unsigned int)strtoul(f[4], NULL, 10);
		assert_true(strcmp(f[5], "yes") == 0 || strcmp(f[5], "no") == 0);
		rows[n].iommu = strcmp(f[5], "yes") == 0;
		rows[n].max_segs_sd_mmc = (unsigned int)strtoul(f[6], NULL, 10);
		rows[n].max_segs_sdio = (unsigned int)strtoul(f[7], NULL, 10);
		n++;
	}
	fclose(fp);
	assert_true(n > 0);
	return n;
}

uint32_t dt_be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

void dt_put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}
