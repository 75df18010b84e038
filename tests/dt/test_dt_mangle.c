/*
 * Corrupted device trees (src/dt/fdt_check.c, fdt_ro.c): the shared boards
 * mangled in every structural way, and hand-built trees for nesting and
 * ordering, each with the exact error the probe must give, or, for random
 * damage, a survivable result (a defined error, or results that stay inside
 * the blob). Every blob lives in a buffer of exactly its size, so a read past
 * it is caught by ASan and valgrind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/dt.h>
#include <mmchal/error.h>

#include "dt/dt_shared.h"

/* Header fields (DT spec 5.2). */
#define H_MAGIC     0
#define H_TOTALSIZE 4
#define H_OFF_STR   8
#define H_OFF_STRS  12
#define H_OFF_RSV   16
#define H_VERSION   20
#define H_LASTCOMP  24
#define H_SIZE_STRS 32
#define H_SIZE_STR  36

#define MAXN 8

static struct mmchal_dt_node nodes[MAXN];

/* Probe a copy of @p size bytes in a buffer of exactly that size. */
static int probe_copy(const unsigned char *blob, size_t size, size_t *n)
{
	unsigned char *copy = malloc(size ? size : 1);
	int rc, rc2;
	size_t found = 0;

	assert_non_null(copy);
	memcpy(copy, blob, size);
	rc = mmchal_dt_check(copy, size);
	rc2 = mmchal_dt_probe(copy, size, NULL, NULL, nodes, MAXN, &found);
	/* The probe checks exactly as much as mmchal_dt_check(). */
	if (rc != 0 || rc2 != MMCHAL_ENOSPC)
		assert_int_equal(rc, rc2);
	free(copy);
	if (n != NULL)
		*n = found;
	return rc2;
}

static unsigned char *load(const char *board, size_t *size)
{
	return dt_load(board, size);
}

static void set32(unsigned char *b, size_t field, uint32_t v)
{
	dt_put_be32(b + field, v);
}

static uint32_t get32(const unsigned char *b, size_t field)
{
	return dt_be32(b + field);
}

/* ---------------------------------------------------------------- header */

static void test_truncation_every_64_bytes(void **state)
{
	size_t b, size, cut;
	unsigned char *blob;

	(void)state;
	for (b = 0; b < dt_nboards; b++) {
		blob = load(dt_boards[b], &size);
		for (cut = 0; cut < size; cut += 64) {
			/* totalsize still claims the whole blob: beyond the buffer. */
			assert_int_equal(probe_copy(blob, cut, NULL), MMCHAL_EPROTO);
			if (cut < 40)
				continue;
			/* totalsize made to match: the blocks now reach past the end. */
			set32(blob, H_TOTALSIZE, (uint32_t)cut);
			assert_int_equal(probe_copy(blob, cut, NULL), MMCHAL_EPROTO);
			set32(blob, H_TOTALSIZE, (uint32_t)size);
		}
		assert_int_equal(probe_copy(blob, size, NULL), 0);
		free(blob);
	}
}

static void test_header_fields(void **state)
{
	struct {
		size_t field;
		uint32_t value; /* ~0u - k: totalsize - k */
		int expect;
	} cases[] = {
		{H_MAGIC, 0xd00dfeefu, MMCHAL_EPROTO},
		{H_MAGIC, 0xedfe0dd0u, MMCHAL_EPROTO},
		{H_TOTALSIZE, 39, MMCHAL_EPROTO},
		{H_TOTALSIZE, 0, MMCHAL_EPROTO},
		{H_TOTALSIZE, 0xffffffffu, MMCHAL_EPROTO},
		{H_VERSION, 15, MMCHAL_EPROTO},
		{H_VERSION, 0, MMCHAL_EPROTO},
		{H_LASTCOMP, 18, MMCHAL_EPROTO},
		{H_OFF_STR, 0, MMCHAL_EPROTO},
		{H_OFF_STR, 39, MMCHAL_EPROTO},
		{H_OFF_STR, 0xffffffffu, MMCHAL_EPROTO},
		{H_OFF_STRS, 0xfffffff0u, MMCHAL_EPROTO},
		{H_OFF_RSV, 0xfffffff8u, MMCHAL_EPROTO},
		{H_OFF_RSV, 41, MMCHAL_EPROTO},
		{H_OFF_RSV, 0, MMCHAL_EPROTO},
		{H_SIZE_STR, 0xfffffffcu, MMCHAL_EPROTO},
		{H_SIZE_STRS, 0xffffffffu, MMCHAL_EPROTO},
		{H_SIZE_STR, 0, MMCHAL_EPROTO},
		{H_SIZE_STR, 4, MMCHAL_EPROTO},
	};
	size_t size, i;
	unsigned char *blob = load("r8a77951-salvator-xs", &size);
	unsigned char *work = malloc(size);
	uint32_t total = get32(blob, H_TOTALSIZE), off;

	(void)state;
	assert_non_null(work);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(work, blob, size);
		set32(work, cases[i].field, cases[i].value);
		print_message("field %zu = 0x%x\n", cases[i].field, cases[i].value);
		assert_int_equal(probe_copy(work, size, NULL), cases[i].expect);
	}

	/* Offsets and sizes just past the end, and misaligned. */
	memcpy(work, blob, size);
	set32(work, H_TOTALSIZE, total + 1);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	memcpy(work, blob, size);
	off = get32(blob, H_OFF_STR);
	set32(work, H_SIZE_STR, total - off + 4);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	memcpy(work, blob, size);
	set32(work, H_OFF_STR, off + 2);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	memcpy(work, blob, size);
	set32(work, H_OFF_STRS, total - get32(blob, H_SIZE_STRS) + 1);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	memcpy(work, blob, size);
	set32(work, H_OFF_STR, total);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	/* A reservation map without its terminating zero pair inside the blob. */
	memcpy(work, blob, size);
	set32(work, H_OFF_RSV, (total - 8u) & ~7u);
	memset(work + ((total - 8u) & ~7u), 0xff, 8);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);

	/* Readable versions: 16 (no size_dt_struct) and a later one compatible with 17. */
	memcpy(work, blob, size);
	set32(work, H_VERSION, 16);
	set32(work, H_LASTCOMP, 16);
	set32(work, H_SIZE_STR, 0xdeadbeefu); /* not a version-16 field */
	assert_int_equal(probe_copy(work, size, &i), 0);
	assert_int_equal(i, 4);
	memcpy(work, blob, size);
	set32(work, H_VERSION, 18);
	assert_int_equal(probe_copy(work, size, &i), 0);
	assert_int_equal(i, 4);
	memcpy(work, blob, size);
	/* A version that is not backwards compatible with 17. */
	memcpy(work, blob, size);
	set32(work, H_VERSION, 18);
	set32(work, H_LASTCOMP, 18);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	/* last_comp_version later than version. */
	set32(work, H_VERSION, 16);
	set32(work, H_LASTCOMP, 17);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	/* A buffer larger than totalsize is fine: only totalsize is read. */
	memcpy(work, blob, size);
	assert_int_equal(probe_copy(work, size, &i), 0);
	free(work);
	free(blob);
}

/* ---------------------------------------------------------------- tokens */

struct tok {
	uint32_t off; /* absolute offset of the tag */
	uint32_t tag;
};

/* A plain walk over a good blob: the offsets of its tokens. */
static size_t tokens(const unsigned char *b, struct tok *out, size_t max)
{
	uint32_t off = get32(b, H_OFF_STR), end = off + get32(b, H_SIZE_STR), tag, len;
	size_t n = 0;

	while (off < end && n < max) {
		tag = dt_be32(b + off);
		out[n].off = off;
		out[n++].tag = tag;
		off += 4;
		if (tag == 1) {
			off += (uint32_t)strlen((const char *)b + off) + 1;
			off = (off + 3u) & ~3u;
		} else if (tag == 3) {
			len = dt_be32(b + off);
			off += 8 + ((len + 3u) & ~3u);
		} else if (tag == 9) {
			break;
		}
	}
	return n;
}

#define MAXTOK 20000

static void test_property_lengths_and_names(void **state)
{
	static struct tok t[MAXTOK];
	size_t size, n, i, props = 0;
	unsigned char *blob = load("r8a7790-lager", &size);
	uint32_t str_end = get32(blob, H_OFF_STR) + get32(blob, H_SIZE_STR);
	uint32_t strs = get32(blob, H_SIZE_STRS), keep_len, keep_name;

	(void)state;
	n = tokens(blob, t, MAXTOK);
	assert_true(n > 100 && n < MAXTOK);
	assert_int_equal(t[n - 1].tag, 9);
	for (i = 0; i < n; i++) {
		unsigned char *p = blob + t[i].off;

		if (t[i].tag != 3)
			continue;
		props++;
		keep_len = dt_be32(p + 4);
		keep_name = dt_be32(p + 8);
		/* A length reaching past the structure block. */
		dt_put_be32(p + 4, str_end - (t[i].off + 12) + 1);
		assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_EPROTO);
		dt_put_be32(p + 4, 0xffffffffu);
		assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_EPROTO);
		dt_put_be32(p + 4, keep_len);
		/* A name offset past the strings block. */
		dt_put_be32(p + 8, strs);
		assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_EPROTO);
		dt_put_be32(p + 8, 0xfffffffcu);
		assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_EPROTO);
		dt_put_be32(p + 8, keep_name);
	}
	assert_true(props > 50);
	assert_int_equal(probe_copy(blob, size, NULL), 0);

	/* The strings block cut by one byte: its last name loses its NUL. */
	set32(blob, H_SIZE_STRS, strs - 1);
	assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_EPROTO);
	set32(blob, H_SIZE_STRS, strs);
	free(blob);
}

static void test_bad_tokens(void **state)
{
	static struct tok t[MAXTOK];
	size_t size, n, i, last_end = 0;
	unsigned char *blob = load("r8a77951-salvator-xs", &size);
	unsigned char *work = malloc(size);

	(void)state;
	assert_non_null(work);
	n = tokens(blob, t, MAXTOK);
	for (i = 0; i < n; i++)
		if (t[i].tag == 2)
			last_end = i;

	/* Unknown tags, at the root and deep inside. */
	memcpy(work, blob, size);
	dt_put_be32(work + t[0].off, 7);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	memcpy(work, blob, size);
	dt_put_be32(work + t[n / 2].off, 0x10000003u);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	/* The root never closed; END inside a node; a second END_NODE. */
	memcpy(work, blob, size);
	dt_put_be32(work + t[last_end].off, 4);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	memcpy(work, blob, size);
	dt_put_be32(work + t[n / 2].off, 9);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	memcpy(work, blob, size);
	dt_put_be32(work + t[n - 1].off, 2);
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	/* A structure block starting with a property. */
	memcpy(work, blob, size);
	set32(work, H_OFF_STR, t[1].off);
	set32(work, H_SIZE_STR, get32(blob, H_SIZE_STR) - (t[1].off - t[0].off));
	assert_int_equal(probe_copy(work, size, NULL), MMCHAL_EPROTO);
	/* NOPs anywhere are fine: every tenth property becomes a run of NOPs. */
	memcpy(work, blob, size);
	for (i = 0; i < n; i += 10) {
		uint32_t len, w;

		if (t[i].tag != 3)
			continue;
		len = 12u + ((dt_be32(blob + t[i].off + 4) + 3u) & ~3u);
		for (w = 0; w < len; w += 4)
			dt_put_be32(work + t[i].off + w, 4);
	}
	assert_int_equal(probe_copy(work, size, NULL), 0);
	free(work);
	free(blob);
}

/* ---------------------------------------------------------------- hand-built trees */

struct fdtb {
	unsigned char *s; /* structure block */
	size_t slen, scap;
	char strs[256];
	size_t strslen;
};

static void put(struct fdtb *b, const void *p, size_t len)
{
	if (b->slen + len + 4 > b->scap) {
		b->scap = (b->scap + len + 4) * 2;
		b->s = realloc(b->s, b->scap);
		assert_non_null(b->s);
	}
	memcpy(b->s + b->slen, p, len);
	b->slen += len;
	while (b->slen & 3u)
		b->s[b->slen++] = 0;
}

static void put32(struct fdtb *b, uint32_t v)
{
	unsigned char c[4];

	dt_put_be32(c, v);
	put(b, c, 4);
}

static void begin(struct fdtb *b, const char *name)
{
	put32(b, 1);
	put(b, name, strlen(name) + 1);
}

static void prop(struct fdtb *b, const char *name, const void *v, uint32_t len)
{
	uint32_t off;

	for (off = 0; off < b->strslen; off += (uint32_t)strlen(b->strs + off) + 1)
		if (strcmp(b->strs + off, name) == 0)
			break;
	if (off >= b->strslen) {
		assert_true(b->strslen + strlen(name) + 1 <= sizeof(b->strs));
		memcpy(b->strs + b->strslen, name, strlen(name) + 1);
		b->strslen += strlen(name) + 1;
	}
	put32(b, 3);
	put32(b, len);
	put32(b, off);
	if (len > 0)
		put(b, v, len);
}

static void end(struct fdtb *b)
{
	put32(b, 2);
}

/* Header + empty reservation map + structure + strings, in a buffer of exactly its size. */
static unsigned char *finish(struct fdtb *b, size_t *size)
{
	size_t rsv = 40, str = rsv + 16, strs, total;
	unsigned char *blob;

	put32(b, 9);
	strs = str + b->slen;
	total = strs + b->strslen;
	blob = calloc(1, total);
	assert_non_null(blob);
	dt_put_be32(blob + H_MAGIC, 0xd00dfeedu);
	dt_put_be32(blob + H_TOTALSIZE, (uint32_t)total);
	dt_put_be32(blob + H_OFF_STR, (uint32_t)str);
	dt_put_be32(blob + H_OFF_STRS, (uint32_t)strs);
	dt_put_be32(blob + H_OFF_RSV, (uint32_t)rsv);
	dt_put_be32(blob + H_VERSION, 17);
	dt_put_be32(blob + H_LASTCOMP, 16);
	dt_put_be32(blob + H_SIZE_STRS, (uint32_t)b->strslen);
	dt_put_be32(blob + H_SIZE_STR, (uint32_t)b->slen);
	memcpy(blob + str, b->s, b->slen);
	memcpy(blob + strs, b->strs, b->strslen);
	free(b->s);
	memset(b, 0, sizeof(*b));
	*size = total;
	return blob;
}

static const char sdhi_compat[] = "renesas,sdhi-r8a7795";
static const unsigned char reg_1_1[8] = {0xee, 0x10, 0, 0, 0, 0, 0x20, 0};

/* Root, then @p depth - 1 nested nodes named @p name, the innermost an SDHI. */
static unsigned char *nested(uint32_t depth, const char *name, size_t *size)
{
	struct fdtb b = {0};
	unsigned char one[4] = {0, 0, 0, 1};
	uint32_t i;

	begin(&b, "");
	for (i = 1; i < depth; i++) {
		begin(&b, name);
		prop(&b, "#address-cells", one, 4);
		prop(&b, "#size-cells", one, 4);
	}
	prop(&b, "compatible", sdhi_compat, sizeof(sdhi_compat));
	prop(&b, "reg", reg_1_1, sizeof(reg_1_1));
	for (i = 0; i < depth; i++)
		end(&b);
	return finish(&b, size);
}

static void test_deep_nesting(void **state)
{
	size_t size, n;
	unsigned char *blob;

	(void)state;
	/* The deepest accepted tree: an SDHI node at depth 64 with a short path. */
	blob = nested(MMCHAL_DT_MAX_DEPTH, "a", &size);
	assert_int_equal(probe_copy(blob, size, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(nodes[0].error, 0);
	assert_int_equal(strlen(nodes[0].path), 2u * (MMCHAL_DT_MAX_DEPTH - 1u));
	assert_int_equal(nodes[0].reg_size, 0x2000);
	free(blob);
	/* One more level, and far more. */
	blob = nested(MMCHAL_DT_MAX_DEPTH + 1u, "a", &size);
	assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_ERANGE);
	free(blob);
	blob = nested(20000, "a", &size);
	assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_ERANGE);
	free(blob);
	/* A path longer than MMCHAL_DT_PATH_MAX: the node reports it, nothing overflows. */
	blob = nested(10, "a-rather-long-node-name@12345678", &size);
	assert_int_equal(probe_copy(blob, size, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(nodes[0].error, MMCHAL_ERANGE);
	assert_true(strlen(nodes[0].path) < MMCHAL_DT_PATH_MAX);
	free(blob);
}

static void test_node_count_and_order(void **state)
{
	struct fdtb b = {0};
	size_t size, i;
	unsigned char *blob;

	(void)state;
	/* More nodes than MMCHAL_DT_MAX_NODES, all siblings. */
	begin(&b, "");
	for (i = 0; i < MMCHAL_DT_MAX_NODES; i++) {
		begin(&b, "x");
		end(&b);
	}
	end(&b);
	blob = finish(&b, &size);
	assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_ERANGE);
	free(blob);

	/* A property after a child node (DT spec 5.4.2: properties come first). */
	begin(&b, "");
	begin(&b, "child");
	end(&b);
	prop(&b, "late", "x", 2);
	end(&b);
	blob = finish(&b, &size);
	assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_EPROTO);
	free(blob);

	/* Two roots; a named root; an unnamed child. */
	begin(&b, "");
	end(&b);
	begin(&b, "");
	end(&b);
	blob = finish(&b, &size);
	assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_EPROTO);
	free(blob);
	begin(&b, "root");
	end(&b);
	blob = finish(&b, &size);
	assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_EPROTO);
	free(blob);
	begin(&b, "");
	begin(&b, "");
	end(&b);
	end(&b);
	blob = finish(&b, &size);
	assert_int_equal(probe_copy(blob, size, NULL), MMCHAL_EPROTO);
	free(blob);

	/* The smallest valid tree: an empty root, no SDHI node. */
	begin(&b, "");
	end(&b);
	blob = finish(&b, &size);
	assert_int_equal(probe_copy(blob, size, &i), 0);
	assert_int_equal(i, 0);
	free(blob);
}

static void test_phandle_lookups_bounded(void **state)
{
	static struct mmchal_dt_node many[100];
	struct fdtb b = {0};
	/* Root cells default to 2 + 1 (DT spec 2.3.5): a 12-byte reg. */
	static const unsigned char reg_2_1[12] = {0, 0, 0, 0, 0xee, 0x10, 0, 0, 0, 0, 0x20, 0};
	unsigned char cell[4], spec[12] = {0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 4};
	char name[32];
	size_t size, n, i;
	unsigned char *blob;

	(void)state;
	/* 100 interrupt controllers and 100 SDHI nodes, each with its own parent.
	   The root has #interrupt-cells <1>: a failed look-up that fell back to
	   the root would show one cell. */
	begin(&b, "");
	dt_put_be32(cell, 1);
	prop(&b, "#interrupt-cells", cell, 4);
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "intc@%zu", i);
		begin(&b, name);
		dt_put_be32(cell, 3);
		prop(&b, "#interrupt-cells", cell, 4);
		dt_put_be32(cell, (uint32_t)(i + 1));
		prop(&b, "phandle", cell, 4);
		end(&b);
	}
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "mmc@%zu", i);
		begin(&b, name);
		prop(&b, "compatible", sdhi_compat, sizeof(sdhi_compat));
		prop(&b, "reg", reg_2_1, sizeof(reg_2_1));
		dt_put_be32(cell, (uint32_t)(i + 1));
		prop(&b, "interrupt-parent", cell, 4);
		prop(&b, "interrupts", spec, sizeof(spec));
		end(&b);
	}
	end(&b);
	blob = finish(&b, &size);
	assert_int_equal(mmchal_dt_probe(blob, size, NULL, NULL, many, 100, &n), 0);
	assert_int_equal(n, 100);
	for (i = 0; i < n; i++) {
		bool resolved = strstr(many[i].why[4].text, "not found") == NULL;

		assert_int_equal(many[i].error, 0);
		assert_int_equal(many[i].why[4].fact, MMCHAL_DT_FACT_INTERRUPT);
		/* The first 64 parents are looked up; then the budget is spent. */
		assert_int_equal(resolved, i < 64);
		assert_int_equal(many[i].irq_ncells, 3);
		assert_int_equal(many[i].irq[1], 9);
	}
	free(blob);
}

static void test_phandle_lookups_cached(void **state)
{
	static struct mmchal_dt_node many[71];
	struct fdtb b = {0};
	static const unsigned char reg_2_1[12] = {0, 0, 0, 0, 0xee, 0x10, 0, 0, 0, 0, 0x20, 0};
	unsigned char cell[4], spec[12] = {0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 4};
	char name[32];
	size_t size, n, i;
	unsigned char *blob;

	(void)state;
	/* 70 SDHI nodes share one interrupt parent, the 71st has another: two
	   look-ups, far inside the budget of 64. */
	begin(&b, "");
	dt_put_be32(cell, 1);
	prop(&b, "#interrupt-cells", cell, 4);
	for (i = 1; i <= 2; i++) {
		snprintf(name, sizeof(name), "intc@%zu", i);
		begin(&b, name);
		dt_put_be32(cell, (uint32_t)(i + 1));
		prop(&b, "#interrupt-cells", cell, 4);
		dt_put_be32(cell, (uint32_t)i);
		prop(&b, "phandle", cell, 4);
		end(&b);
	}
	for (i = 0; i < 71; i++) {
		snprintf(name, sizeof(name), "mmc@%zu", i);
		begin(&b, name);
		prop(&b, "compatible", sdhi_compat, sizeof(sdhi_compat));
		prop(&b, "reg", reg_2_1, sizeof(reg_2_1));
		dt_put_be32(cell, i < 70 ? 1u : 2u);
		prop(&b, "interrupt-parent", cell, 4);
		prop(&b, "interrupts", spec, i < 70 ? 8u : 12u);
		end(&b);
	}
	end(&b);
	blob = finish(&b, &size);
	assert_int_equal(mmchal_dt_probe(blob, size, NULL, NULL, many, 71, &n), 0);
	assert_int_equal(n, 71);
	for (i = 0; i < n; i++) {
		assert_int_equal(many[i].error, 0);
		assert_int_equal(many[i].why[4].fact, MMCHAL_DT_FACT_INTERRUPT);
		assert_null(strstr(many[i].why[4].text, "not found"));
		assert_int_equal(many[i].irq_ncells, i < 70 ? 2 : 3);
	}
	assert_string_equal(many[70].why[4].text,
			    "interrupts <0x0 0x9 0x4>: completion by interrupt");
	free(blob);
}

/* ---------------------------------------------------------------- random damage */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static void assert_inside(const unsigned char *blob, size_t size, const char *s)
{
	if (s == NULL)
		return;
	assert_true((const unsigned char *)s >= blob && (const unsigned char *)s < blob + size);
	assert_non_null(memchr(s, 0, (size_t)(blob + size - (const unsigned char *)s)));
}

static void test_random_damage_survives(void **state)
{
	size_t b, size, iter, k, found, j;
	unsigned char *blob, *work;
	struct mmchal_dt_board board;
	int rc;

	(void)state;
	for (b = 0; b < dt_nboards; b++) {
		blob = load(dt_boards[b], &size);
		work = malloc(size);
		assert_non_null(work);
		for (iter = 0; iter < 300; iter++) {
			memcpy(work, blob, size);
			for (k = 1 + rnd() % 8; k > 0; k--) {
				/* Mostly the header and structure block, where damage matters. */
				size_t at = (rnd() & 1) ? rnd() % 64 : rnd() % size;

				work[at] = (unsigned char)((rnd() & 1)
								   ? rnd()
								   : work[at] ^
									     (1u << (rnd() % 8)));
			}
			rc = mmchal_dt_probe(work, size, NULL, &board, nodes, MAXN, &found);
			assert_true(rc == 0 || rc == MMCHAL_EPROTO || rc == MMCHAL_ERANGE ||
				    rc == MMCHAL_ENOSPC);
			if (rc != 0)
				continue;
			for (j = 0; j < board.ncompat && j < MMCHAL_DT_BOARD_MAX; j++)
				assert_inside(work, size, board.compat[j]);
			assert_inside(work, size, board.model);
			for (j = 0; j < found; j++) {
				assert_non_null(memchr(nodes[j].path, 0, MMCHAL_DT_PATH_MAX));
				assert_inside(work, size, nodes[j].compatible);
				assert_true(nodes[j].nwhy <= MMCHAL_DT_WHY_MAX);
			}
		}
		free(work);
		free(blob);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncation_every_64_bytes),
		cmocka_unit_test(test_header_fields),
		cmocka_unit_test(test_property_lengths_and_names),
		cmocka_unit_test(test_bad_tokens),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_node_count_and_order),
		cmocka_unit_test(test_phandle_lookups_bounded),
		cmocka_unit_test(test_phandle_lookups_cached),
		cmocka_unit_test(test_random_damage_survives),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
