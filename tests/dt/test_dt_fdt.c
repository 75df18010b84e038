/*
 * The blob reader of the device-tree probe (src/dt/fdt_check.c, fdt_ro.c,
 * dt_why.c) called directly on hand-built trees: every bound of a token,
 * every lookup's exact result (offsets, lengths, pointers into the blob),
 * string lists, phandles and the reason slots of a node.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/dt.h>
#include <mmchal/error.h>

#include "core/strbuf.h"
#include "dt/dt_node.h"
#include "dt/dt_shared.h"
#include "dt/dt_why.h"
#include "dt/fdt.h"
#include "dt/fdt_build.h"

/* ---------------------------------------------------------------- fdt_ro */

static void test_be32(void **state)
{
	static const uint8_t a[4] = {0x12, 0x34, 0x56, 0x78};
	static const uint8_t b[4] = {0x80, 0x01, 0xfe, 0xff};

	(void)state;
	assert_int_equal(mmchal_fdt_be32_(a), 0x12345678u);
	assert_int_equal(mmchal_fdt_be32_(b), 0x8001feffu);
}

static void test_streq(void **state)
{
	(void)state;
	assert_true(mmchal_fdt_streq_("abc", 3, "abc"));
	assert_true(mmchal_fdt_streq_("abcdef", 3, "abc"));
	assert_true(mmchal_fdt_streq_("", 0, ""));
	assert_false(mmchal_fdt_streq_("abc", 3, "abcd"));
	assert_false(mmchal_fdt_streq_("abc", 3, "ab"));
	assert_false(mmchal_fdt_streq_("abc", 3, "abd"));
	assert_false(mmchal_fdt_streq_("abc", 3, "xbc"));
	assert_false(mmchal_fdt_streq_("", 0, "a"));

	assert_true(mmchal_dt_streq_("okay", "okay"));
	assert_true(mmchal_dt_streq_(NULL, NULL));
	assert_false(mmchal_dt_streq_("okay", NULL));
	assert_false(mmchal_dt_streq_(NULL, "okay"));
	assert_false(mmchal_dt_streq_("ok", "okay"));
	assert_false(mmchal_dt_streq_("okay", "ok"));
	assert_false(mmchal_dt_streq_("okay", "okey"));
}

static void test_stringlists(void **state)
{
	static const uint8_t two[] = "ab\0cde";       /* 7 bytes: "ab", "cde" */
	static const uint8_t open[3] = {'a', 0, 'b'}; /* the last string has no NUL */
	static const uint8_t empties[3] = {0, 0, 0};
	uint32_t slen = 99;
	const char *s;

	(void)state;
	assert_true(mmchal_fdt_stringlist_ok_(two, sizeof(two)));
	assert_false(mmchal_fdt_stringlist_ok_(NULL, 4));
	assert_false(mmchal_fdt_stringlist_ok_(two, 0));
	assert_false(mmchal_fdt_stringlist_ok_(open, sizeof(open)));
	assert_true(mmchal_fdt_stringlist_ok_(open, 2));
	assert_true(mmchal_fdt_stringlist_ok_(empties, 1)); /* one empty string */

	assert_int_equal(mmchal_fdt_stringlist_count_(two, sizeof(two)), 2);
	assert_int_equal(mmchal_fdt_stringlist_count_(two, 3), 1);
	assert_int_equal(mmchal_fdt_stringlist_count_(open, sizeof(open)), 0);
	assert_int_equal(mmchal_fdt_stringlist_count_(empties, sizeof(empties)), 3);
	assert_int_equal(mmchal_fdt_stringlist_count_(NULL, 0), 0);

	s = mmchal_fdt_stringlist_get_(two, sizeof(two), 0, &slen);
	assert_ptr_equal(s, two);
	assert_int_equal(slen, 2);
	s = mmchal_fdt_stringlist_get_(two, sizeof(two), 1, &slen);
	assert_ptr_equal(s, two + 3);
	assert_int_equal(slen, 3);
	assert_ptr_equal(mmchal_fdt_stringlist_get_(two, sizeof(two), 1, NULL), two + 3);
	slen = 99;
	assert_null(mmchal_fdt_stringlist_get_(two, sizeof(two), 2, &slen));
	assert_int_equal(slen, 99);
	assert_null(mmchal_fdt_stringlist_get_(open, sizeof(open), 0, &slen));
	s = mmchal_fdt_stringlist_get_(empties, sizeof(empties), 2, &slen);
	assert_ptr_equal(s, empties + 2);
	assert_int_equal(slen, 0);
}

/* The one-pass walk: each string with its length and the offset after it,
   then NULL at the end, with the offset and length left alone. */
static void test_stringlist_next(void **state)
{
	static const uint8_t two[] = "ab\0cde"; /* 7 bytes: "ab", "cde" */
	static const uint8_t empties[3] = {0, 0, 0};
	uint32_t off = 0, slen = 99;

	(void)state;
	assert_ptr_equal(mmchal_fdt_stringlist_next_(two, sizeof(two), &off, &slen), two);
	assert_int_equal(slen, 2);
	assert_int_equal(off, 3);
	assert_ptr_equal(mmchal_fdt_stringlist_next_(two, sizeof(two), &off, NULL), two + 3);
	assert_int_equal(off, 7);
	assert_null(mmchal_fdt_stringlist_next_(two, sizeof(two), &off, &slen));
	assert_int_equal(off, 7);
	assert_int_equal(slen, 2);
	off = 0;
	for (uint32_t i = 0; i < 3; i++) {
		assert_ptr_equal(mmchal_fdt_stringlist_next_(empties, sizeof(empties), &off, &slen),
				 empties + i);
		assert_int_equal(slen, 0);
		assert_int_equal(off, i + 1u);
	}
	assert_null(mmchal_fdt_stringlist_next_(empties, sizeof(empties), &off, &slen));
	/* Never past len, even in a list without its final NUL: "bc" of the
	   4-byte view "a\0bc" of a longer buffer. */
	{
		static const uint8_t longer[8] = {'a', 0, 'b', 'c', 'd', 'e', 'f', 0};

		off = 2;
		assert_ptr_equal(mmchal_fdt_stringlist_next_(longer, 4, &off, &slen), longer + 2);
		assert_int_equal(slen, 2);
		assert_int_equal(off, 5);
	}
	off = 0;
	assert_null(mmchal_fdt_stringlist_next_(NULL, 4, &off, &slen));
	assert_int_equal(off, 0);
}

/* A tree with known offsets: / { a; b = <5>; nop; node@1 { phandle }; x { } }. */
struct tree {
	unsigned char *blob;
	size_t size;
	struct mmchal_fdt_ f;
	uint32_t root, node1, x, nop, end_tok;
};

static void build_tree(struct tree *t)
{
	static const uint8_t eight[8] = {0, 0, 0, 1, 0, 0, 0, 2};
	struct fdtb b = {0};

	t->root = fdtb_here(&b);
	fdtb_begin(&b, "");
	fdtb_prop(&b, "a", NULL, 0);
	fdtb_prop_u32(&b, "b", 5);
	t->nop = fdtb_here(&b);
	fdtb_raw32(&b, 4);
	fdtb_prop(&b, "wide", eight, sizeof(eight));
	fdtb_prop_str(&b, "s", "xyz");
	t->node1 = fdtb_here(&b);
	fdtb_begin(&b, "node@1");
	fdtb_prop(&b, "phandle", eight, 3); /* not one cell: ignored */
	fdtb_prop_u32(&b, "linux,phandle", 7);
	fdtb_end(&b);
	t->x = fdtb_here(&b);
	fdtb_begin(&b, "x");
	fdtb_prop_u32(&b, "phandle", 9);
	fdtb_begin(&b, "y");
	fdtb_end(&b);
	fdtb_end(&b);
	/* Phandles 0 and 0xffffffff are not phandles (DT spec 2.3.3). */
	fdtb_begin(&b, "z");
	fdtb_prop_u32(&b, "phandle", 0);
	fdtb_end(&b);
	fdtb_begin(&b, "w");
	fdtb_prop_u32(&b, "phandle", 0xffffffffu);
	fdtb_end(&b);
	fdtb_end(&b);
	t->end_tok = fdtb_here(&b);
	t->blob = fdtb_finish(&b, &t->size);
	assert_int_equal(mmchal_fdt_init_(&t->f, t->blob, t->size, 8, 8), 0);
}

static void test_init_counts(void **state)
{
	struct tree t;
	struct mmchal_fdt_ f;

	(void)state;
	build_tree(&t);
	assert_int_equal(t.f.nnodes, 6);
	assert_int_equal(t.f.max_depth, 3);
	assert_int_equal(t.f.struct_off, 56);
	assert_int_equal(t.f.struct_size, t.end_tok + 4u);
	assert_int_equal(t.f.totalsize, t.size);
	/* Exactly at the limits, and one below them. */
	assert_int_equal(mmchal_fdt_init_(&f, t.blob, t.size, 3, 6), 0);
	assert_int_equal(mmchal_fdt_init_(&f, t.blob, t.size, 2, 6), MMCHAL_ERANGE);
	assert_int_equal(mmchal_fdt_init_(&f, t.blob, t.size, 3, 5), MMCHAL_ERANGE);
	assert_int_equal(mmchal_fdt_init_(NULL, t.blob, t.size, 3, 6), MMCHAL_EINVAL);
	assert_int_equal(mmchal_fdt_init_(&f, NULL, t.size, 3, 6), MMCHAL_EINVAL);
	/* A failed check leaves no counts behind. */
	assert_int_equal(mmchal_fdt_init_(&f, t.blob, 39, 3, 6), MMCHAL_EPROTO);
	assert_int_equal(f.nnodes, 0);
	assert_int_equal(f.max_depth, 0);
	free(t.blob);
}

static void test_tokens(void **state)
{
	struct tree t;
	struct mmchal_fdt_tok_ tok;
	struct mmchal_fdt_ f;

	(void)state;
	build_tree(&t);
	assert_int_equal(mmchal_fdt_token_(&t.f, t.root, &tok), 0);
	assert_int_equal(tok.tag, FDT_BEGIN_NODE_);
	assert_int_equal(tok.name_len, 0);
	assert_int_equal(tok.next, 8);
	assert_int_equal(mmchal_fdt_token_(&t.f, t.node1, &tok), 0);
	assert_int_equal(tok.name_len, 6);
	assert_memory_equal(tok.name, "node@1", 7);
	assert_int_equal(tok.next, t.node1 + 12u);
	assert_null(tok.data);
	assert_int_equal(tok.len, 0);
	/* The property after the root's name: "a", empty. */
	assert_int_equal(mmchal_fdt_token_(&t.f, 8, &tok), 0);
	assert_int_equal(tok.tag, FDT_PROP_);
	assert_int_equal(tok.len, 0);
	assert_int_equal(tok.name_len, 1);
	assert_ptr_equal(tok.data, t.blob + t.f.struct_off + 20);
	assert_int_equal(tok.next, 20);
	/* "b" = <5>: 12 bytes of header, 4 of value. */
	assert_int_equal(mmchal_fdt_token_(&t.f, 20, &tok), 0);
	assert_int_equal(tok.len, 4);
	assert_int_equal(tok.next, 36);
	assert_int_equal(mmchal_fdt_be32_(tok.data), 5);
	assert_int_equal(mmchal_fdt_token_(&t.f, t.nop, &tok), 0);
	assert_int_equal(tok.tag, FDT_NOP_);
	assert_int_equal(tok.next, t.nop + 4u);
	assert_int_equal(mmchal_fdt_token_(&t.f, t.end_tok, &tok), 0);
	assert_int_equal(tok.tag, FDT_END_);
	assert_int_equal(tok.next, t.end_tok + 4u);

	/* Every token clears what it does not set, whatever the caller's struct held. */
	memset(&tok, 0xa5, sizeof(tok));
	assert_int_equal(mmchal_fdt_token_(&t.f, t.nop, &tok), 0);
	assert_null(tok.name);
	assert_int_equal(tok.name_len, 0);
	assert_null(tok.data);
	assert_int_equal(tok.len, 0);
	memset(&tok, 0xa5, sizeof(tok));
	assert_int_equal(mmchal_fdt_token_(&t.f, t.node1, &tok), 0);
	assert_null(tok.data);
	assert_int_equal(tok.len, 0);
	memset(&tok, 0xa5, sizeof(tok));
	assert_int_equal(mmchal_fdt_token_(&t.f, t.root, &tok), 0);
	assert_int_equal(tok.name_len, 0);
	/* The value of "b" (<5>) read as a tag: not a token. */
	assert_int_equal(mmchal_fdt_token_(&t.f, 32, &tok), MMCHAL_EPROTO);
	/* A structure block ending two bytes into a token. */
	f = t.f;
	f.struct_size = 38;
	assert_int_equal(mmchal_fdt_token_(&f, 36, &tok), MMCHAL_EPROTO);
	/* A strings block ending inside a name ("wi|de"): the name has no NUL there. */
	f = t.f;
	f.strings_size = 6;
	assert_int_equal(mmchal_fdt_token_(&f, 40, &tok), MMCHAL_EPROTO);
	f.strings_size = 9;
	assert_int_equal(mmchal_fdt_token_(&f, 40, &tok), 0);
	assert_int_equal(tok.name_len, 4);
	/* A structure block ending inside a node name ("node|@1"). */
	f = t.f;
	f.struct_size = t.node1 + 8u;
	assert_int_equal(mmchal_fdt_token_(&f, t.node1, &tok), MMCHAL_EPROTO);

	/* Offsets: misaligned, at the end, past the end. */
	assert_int_equal(mmchal_fdt_token_(&t.f, 2, &tok), MMCHAL_EPROTO);
	assert_int_equal(mmchal_fdt_token_(&t.f, 1, &tok), MMCHAL_EPROTO);
	assert_int_equal(mmchal_fdt_token_(&t.f, t.end_tok + 4u, &tok), MMCHAL_EPROTO);
	assert_int_equal(mmchal_fdt_token_(&t.f, t.end_tok + 8u, &tok), MMCHAL_EPROTO);
	assert_int_equal(mmchal_fdt_token_(&t.f, 0xfffffffcu, &tok), MMCHAL_EPROTO);

	/* Structure blocks cut inside a token (the view only, not the blob). */
	f = t.f;
	f.struct_size = 4; /* BEGIN_NODE with no room for its name */
	assert_int_equal(mmchal_fdt_token_(&f, 0, &tok), MMCHAL_EPROTO);
	f.struct_size = 5; /* the name's NUL, but not the padding... */
	assert_int_equal(mmchal_fdt_token_(&f, 0, &tok), MMCHAL_EPROTO);
	f.struct_size = 8; /* ...which fits exactly here */
	assert_int_equal(mmchal_fdt_token_(&f, 0, &tok), 0);
	assert_int_equal(tok.next, 8);
	f.struct_size = 16; /* PROP header without its nameoff */
	assert_int_equal(mmchal_fdt_token_(&f, 8, &tok), MMCHAL_EPROTO);
	f.struct_size = 20; /* "a": a header of exactly 12 bytes, no value */
	assert_int_equal(mmchal_fdt_token_(&f, 8, &tok), 0);
	f.struct_size = 35; /* "b": one byte of the value missing */
	assert_int_equal(mmchal_fdt_token_(&f, 20, &tok), MMCHAL_EPROTO);
	f.struct_size = 36;
	assert_int_equal(mmchal_fdt_token_(&f, 20, &tok), 0);
	/* A name offset at the end of the strings block; a name without its NUL. */
	f = t.f;
	f.strings_size = 2; /* "a\0" */
	assert_int_equal(mmchal_fdt_token_(&f, 8, &tok), 0);
	assert_int_equal(mmchal_fdt_token_(&f, 20, &tok), MMCHAL_EPROTO);
	f.strings_size = 1; /* "a" without NUL */
	assert_int_equal(mmchal_fdt_token_(&f, 8, &tok), MMCHAL_EPROTO);
	f.strings_size = 3; /* "a\0b" */
	assert_int_equal(mmchal_fdt_token_(&f, 20, &tok), MMCHAL_EPROTO);
	f.strings_size = 4;
	assert_int_equal(mmchal_fdt_token_(&f, 20, &tok), 0);
	free(t.blob);
}

/* ---------------------------------------------------------------- fdt_check layouts */

enum { BLK_RSV, BLK_STRUCT, BLK_STRINGS };

/*
 * The blocks of a small tree (/ { a; }) placed at @off[] in a blob of
 * @total bytes, the reservation map being @rsv (@rsv_len bytes). The DT spec
 * does not order the blocks; the check must accept any placement inside the
 * blob with the alignments of 5.2 (map 8, structure 4).
 */
static unsigned char *layout(const uint32_t off[3], uint32_t total, const uint8_t *rsv,
			     uint32_t rsv_len, uint32_t version)
{
	struct fdtb b = {0};
	unsigned char *std, *blob;
	size_t size;
	uint32_t slen, strslen;

	fdtb_begin(&b, "");
	fdtb_prop(&b, "a", NULL, 0);
	fdtb_end(&b);
	std = fdtb_finish(&b, &size);
	slen = dt_be32(std + 36);
	strslen = dt_be32(std + 32);
	blob = calloc(1, total);
	assert_non_null(blob);
	memcpy(blob, std, 40);
	dt_put_be32(blob + 4, total);
	dt_put_be32(blob + 8, off[BLK_STRUCT]);
	dt_put_be32(blob + 12, off[BLK_STRINGS]);
	dt_put_be32(blob + 16, off[BLK_RSV]);
	dt_put_be32(blob + 20, version);
	memcpy(blob + off[BLK_STRUCT], std + 56, slen);
	memcpy(blob + off[BLK_STRINGS], std + 56 + slen, strslen);
	memcpy(blob + off[BLK_RSV], rsv, rsv_len);
	free(std);
	return blob;
}

static int check(const unsigned char *blob, uint32_t total)
{
	struct mmchal_fdt_ f;

	return mmchal_fdt_init_(&f, blob, total, 8, 8);
}

static void test_block_placement(void **state)
{
	/* The tree's structure block is 28 bytes, its strings block 2 ("a"). */
	static const uint8_t zero[16];
	static const uint8_t entry_zero[32] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x10, 0};
	static const uint8_t lone[16] = {1};
	unsigned char *blob;

	(void)state;
	/* Structure right after the header; map last, ending the blob exactly. */
	blob = layout((const uint32_t[]){80, 40, 72}, 96, zero, 16, 17);
	assert_int_equal(check(blob, 96), 0);
	free(blob);
	/* Strings right after the header; the map right after them. */
	blob = layout((const uint32_t[]){48, 64, 40}, 96, zero, 16, 17);
	assert_int_equal(check(blob, 96), 0);
	free(blob);
	/* One entry, then the terminating pair, then the strings ('a' right after it). */
	blob = layout((const uint32_t[]){40, 76, 72}, 104, entry_zero, 32, 17);
	assert_int_equal(check(blob, 104), 0);
	free(blob);
	/* An entry whose only non-zero byte is its first, and no terminator. */
	blob = layout((const uint32_t[]){80, 40, 72}, 96, lone, 16, 17);
	assert_int_equal(check(blob, 96), MMCHAL_EPROTO);
	free(blob);
	/* The structure block misaligned (58 = 8k + 2), and overlapping the header. */
	blob = layout((const uint32_t[]){40, 58, 88}, 96, zero, 16, 17);
	assert_int_equal(check(blob, 96), MMCHAL_EPROTO);
	free(blob);
	/* Version 16 (no size_dt_struct), structure block at 36: inside the header. */
	blob = layout((const uint32_t[]){80, 44, 72}, 96, zero, 16, 16);
	assert_int_equal(check(blob, 96), 0);
	memmove(blob + 36, blob + 44, 28);
	dt_put_be32(blob + 8, 36);
	assert_int_equal(check(blob, 96), MMCHAL_EPROTO);
	dt_put_be32(blob + 8, 44);
	memmove(blob + 44, blob + 36, 28);
	assert_int_equal(check(blob, 96), 0);
	free(blob);
	/* last_comp_version 17 is as readable as 16. */
	blob = layout((const uint32_t[]){80, 40, 72}, 96, zero, 16, 17);
	dt_put_be32(blob + 24, 17);
	assert_int_equal(check(blob, 96), 0);
	free(blob);
}

static void test_unknown_token_in_check(void **state)
{
	struct fdtb b = {0};
	struct mmchal_fdt_ f;
	unsigned char *blob;
	size_t size;

	(void)state;
	fdtb_begin(&b, "");
	fdtb_raw32(&b, 5); /* not a token of DT spec 5.4.1 */
	fdtb_end(&b);
	blob = fdtb_finish(&b, &size);
	assert_int_equal(mmchal_fdt_init_(&f, blob, size, 8, 8), MMCHAL_EPROTO);
	free(blob);
}

static void test_getprop(void **state)
{
	struct tree t;
	uint32_t len = 99, v = 77;
	const uint8_t *p;

	(void)state;
	build_tree(&t);
	p = mmchal_fdt_getprop_(&t.f, t.root, "b", &len);
	assert_ptr_equal(p, t.blob + t.f.struct_off + 32);
	assert_int_equal(len, 4);
	/* After the NOP. */
	p = mmchal_fdt_getprop_(&t.f, t.root, "s", &len);
	assert_non_null(p);
	assert_int_equal(len, 4);
	assert_string_equal((const char *)p, "xyz");
	assert_ptr_equal(mmchal_fdt_getprop_(&t.f, t.root, "s", NULL), p);
	len = 99;
	assert_null(mmchal_fdt_getprop_(&t.f, t.root, "nope", &len));
	assert_int_equal(len, 99);
	/* A child's property is not the parent's. */
	assert_null(mmchal_fdt_getprop_(&t.f, t.root, "linux,phandle", &len));
	/* Not at a node: a property, a NOP, misaligned. */
	assert_null(mmchal_fdt_getprop_(&t.f, 8, "b", &len));
	assert_null(mmchal_fdt_getprop_(&t.f, t.nop, "s", &len));
	assert_null(mmchal_fdt_getprop_(&t.f, 2, "b", &len));

	assert_true(mmchal_fdt_hasprop_(&t.f, t.root, "a"));
	assert_false(mmchal_fdt_hasprop_(&t.f, t.root, "c"));
	assert_true(mmchal_fdt_hasprop_(&t.f, t.x, "phandle"));

	assert_int_equal(mmchal_fdt_getu32_(&t.f, t.root, "b", &v), 0);
	assert_int_equal(v, 5);
	v = 77;
	assert_int_equal(mmchal_fdt_getu32_(&t.f, t.root, "wide", &v), MMCHAL_EPROTO);
	assert_int_equal(mmchal_fdt_getu32_(&t.f, t.root, "a", &v), MMCHAL_EPROTO);
	assert_int_equal(mmchal_fdt_getu32_(&t.f, t.root, "c", &v), MMCHAL_ENOENT);
	assert_int_equal(v, 77);
	free(t.blob);
}

static void test_getprop_cut_block(void **state)
{
	struct tree t;
	struct mmchal_fdt_ f;
	uint32_t len;

	(void)state;
	build_tree(&t);
	/* A view whose structure block ends inside the root's properties. */
	f = t.f;
	f.struct_size = 36;
	assert_null(mmchal_fdt_getprop_(&f, t.root, "s", &len));
	assert_non_null(mmchal_fdt_getprop_(&f, t.root, "b", &len));
	free(t.blob);
}

static void test_phandles(void **state)
{
	struct tree t;
	struct mmchal_fdt_ f;
	uint32_t node = 12345;

	(void)state;
	build_tree(&t);
	assert_int_equal(mmchal_fdt_by_phandle_(&t.f, 9, &node), 0);
	assert_int_equal(node, t.x);
	assert_int_equal(mmchal_fdt_by_phandle_(&t.f, 7, &node), 0);
	assert_int_equal(node, t.node1);
	node = 12345;
	assert_int_equal(mmchal_fdt_by_phandle_(&t.f, 8, &node), MMCHAL_ENOENT);
	assert_int_equal(mmchal_fdt_by_phandle_(&t.f, 0, &node), MMCHAL_ENOENT);
	assert_int_equal(mmchal_fdt_by_phandle_(&t.f, 0xffffffffu, &node), MMCHAL_ENOENT);
	/* The three bytes of "phandle" in node@1 are <0 0 0>: never a match. */
	assert_int_equal(node, 12345);
	/* A view cut before the phandle: the walk stops at the bound. */
	f = t.f;
	f.struct_size = t.x;
	assert_int_equal(mmchal_fdt_by_phandle_(&f, 9, &node), MMCHAL_ENOENT);
	assert_int_equal(node, 12345);
	free(t.blob);
}

/* ---------------------------------------------------------------- the probe's walk */

static const char sdhi_h3[] = "renesas,sdhi-r8a7795";
/* Root cells default to 2 + 1 (DT spec 2.3.5): a 12-byte reg. */
static const uint8_t reg_2_1[12] = {0, 0, 0, 0, 0xee, 0x10, 0, 0, 0, 0, 0x20, 0};

static void sdhi_node(struct fdtb *b, const char *name)
{
	fdtb_begin(b, name);
	fdtb_prop(b, "compatible", sdhi_h3, sizeof(sdhi_h3));
	fdtb_prop(b, "reg", reg_2_1, sizeof(reg_2_1));
	fdtb_end(b);
}

static void name_of(char *out, char c, size_t len)
{
	memset(out, c, len);
	out[len] = '\0';
}

static void test_more_root_compatibles_than_kept(void **state)
{
	static const char compat[] = "a,1\0a,2\0a,3\0a,4\0a,5\0renesas,r8a7796";
	static struct mmchal_dt_node n[2];
	struct mmchal_dt_opts opts = {.soc_revision = "ES1.0"};
	struct mmchal_dt_board board;
	struct fdtb b = {0};
	unsigned char *blob;
	size_t size, found;

	(void)state;
	fdtb_begin(&b, "");
	fdtb_prop(&b, "compatible", compat, sizeof(compat));
	fdtb_begin(&b, "mmc@0");
	fdtb_prop(&b, "compatible", sdhi_h3, sizeof(sdhi_h3));
	fdtb_prop(&b, "reg", reg_2_1, sizeof(reg_2_1));
	fdtb_prop_u32(&b, "iommus", 5);
	fdtb_end(&b);
	fdtb_end(&b);
	blob = fdtb_finish(&b, &size);
	assert_int_equal(mmchal_dt_probe(blob, size, &opts, &board, n, 2, &found), 0);
	assert_int_equal(found, 1);
	assert_int_equal(board.ncompat, 6);
	assert_string_equal(board.compat[0], "a,1");
	assert_string_equal(board.compat[3], "a,4");
	assert_null(board.model); /* the fields after compat[] are not overwritten */
	/* The SoC, the last entry, counts for the revision and the IOMMU rules. */
	assert_string_equal(board.soc, "renesas,r8a7796");
	assert_int_equal(board.rev, MMCHAL_SDHI_REV_M3W_ES10);
	assert_true(n[0].iommu_listed);
	assert_false(n[0].iommu_usable);
	assert_string_equal(n[0].why[5].text,
			    "IOMMU listed in the tree but not usable for SDHI on renesas,r8a7796 "
			    "ES1.0 (the IPMMU driver does not attach SDHI there)");
	free(blob);
}

static void test_paths_at_the_limit(void **state)
{
	static struct mmchal_dt_node n[8];
	char name[200], expect[200];
	struct fdtb b = {0};
	unsigned char *blob;
	size_t size, found;

	(void)state;
	fdtb_begin(&b, "");
	/* "/" + 127 characters: 128 with its NUL, one too many. */
	name_of(name, 'a', 127);
	sdhi_node(&b, name);
	/* "/" + 126 characters fit (127); a child needs at least "/" and a name. */
	name_of(name, 'b', 126);
	fdtb_begin(&b, name);
	sdhi_node(&b, "c");
	fdtb_end(&b);
	/* A parent over the limit: its short child keeps the last path that fit. */
	name_of(name, 'd', 120);
	fdtb_begin(&b, name);
	fdtb_begin(&b, "eeeeeeeeeeeeeeeeeeee");
	sdhi_node(&b, "mmc@1");
	fdtb_end(&b);
	fdtb_end(&b);
	/* A long sibling does not make the next one long. */
	name_of(name, 'f', 140);
	sdhi_node(&b, name);
	sdhi_node(&b, "mmc@2");
	fdtb_end(&b);
	blob = fdtb_finish(&b, &size);
	assert_int_equal(mmchal_dt_probe(blob, size, NULL, NULL, n, 8, &found), 0);
	assert_int_equal(found, 5);

	assert_int_equal(n[0].error, MMCHAL_ERANGE);
	assert_string_equal(n[0].path, "/");
	assert_int_equal(n[1].error, MMCHAL_ERANGE);
	expect[0] = '/';
	name_of(expect + 1, 'b', 126);
	assert_string_equal(n[1].path, expect);
	assert_int_equal(n[2].error, MMCHAL_ERANGE);
	name_of(expect + 1, 'd', 120);
	assert_string_equal(n[2].path, expect);
	assert_int_equal(n[3].error, MMCHAL_ERANGE);
	assert_string_equal(n[3].path, "/");
	assert_int_equal(n[4].error, 0);
	assert_string_equal(n[4].path, "/mmc@2");
	assert_int_equal(n[4].reg_size, 0x2000);
	free(blob);
}

static void test_root_is_never_a_node(void **state)
{
	static struct mmchal_dt_node n[2];
	struct fdtb b = {0};
	unsigned char *blob;
	size_t size, found = 7;

	(void)state;
	fdtb_begin(&b, "");
	fdtb_prop(&b, "compatible", sdhi_h3, sizeof(sdhi_h3));
	fdtb_prop(&b, "reg", reg_2_1, sizeof(reg_2_1));
	fdtb_end(&b);
	blob = fdtb_finish(&b, &size);
	assert_int_equal(mmchal_dt_probe(blob, size, NULL, NULL, n, 2, &found), 0);
	assert_int_equal(found, 0);
	/* Arguments: no nodes but room for one; a revision that does not parse. */
	found = 7;
	assert_int_equal(mmchal_dt_probe(blob, size, NULL, NULL, NULL, 1, &found), MMCHAL_EINVAL);
	assert_int_equal(found, 7);
	assert_int_equal(mmchal_dt_probe(blob, size, &(struct mmchal_dt_opts){.soc_revision = "x"},
					 NULL, n, 2, &found),
			 MMCHAL_EINVAL);
	assert_int_equal(found, 0);
	free(blob);
}

static void test_interrupt_parent_is_the_tree_parent(void **state)
{
	static struct mmchal_dt_node n[2];
	struct fdtb b = {0};
	unsigned char *blob;
	size_t size, found;

	(void)state;
	/* DT spec 2.4.1: without interrupt-parent, the devicetree parent, when it
	   is an interrupt controller (here with two cells; the root has none). */
	fdtb_begin(&b, "");
	fdtb_begin(&b, "intc");
	fdtb_prop_u32(&b, "#interrupt-cells", 2);
	fdtb_prop_u32(&b, "#address-cells", 2);
	fdtb_prop_u32(&b, "#size-cells", 1);
	fdtb_begin(&b, "mmc@0");
	fdtb_prop(&b, "compatible", sdhi_h3, sizeof(sdhi_h3));
	fdtb_prop(&b, "reg", reg_2_1, sizeof(reg_2_1));
	fdtb_prop(&b, "interrupts", (const uint8_t[]){0, 0, 0, 3, 0, 0, 0, 4}, 8);
	fdtb_end(&b);
	fdtb_end(&b);
	fdtb_end(&b);
	blob = fdtb_finish(&b, &size);
	assert_int_equal(mmchal_dt_probe(blob, size, NULL, NULL, n, 2, &found), 0);
	assert_int_equal(found, 1);
	assert_int_equal(n[0].error, 0);
	assert_int_equal(n[0].irq_ncells, 2);
	assert_int_equal(n[0].irq[0], 3);
	assert_int_equal(n[0].irq[1], 4);
	assert_int_equal(n[0].why[4].fact, MMCHAL_DT_FACT_INTERRUPT);
	assert_string_equal(n[0].why[4].text, "interrupts <0x3 0x4>: completion by interrupt");
	free(blob);
}

static void test_h3_as_the_only_root_compatible(void **state)
{
	static struct mmchal_dt_node n[2];
	struct fdtb b = {0};
	unsigned char *blob;
	size_t size, found;

	(void)state;
	fdtb_begin(&b, "");
	fdtb_prop_str(&b, "compatible", "renesas,r8a7795");
	fdtb_begin(&b, "mmc@0");
	fdtb_prop(&b, "compatible", sdhi_h3, sizeof(sdhi_h3));
	fdtb_prop(&b, "reg", reg_2_1, sizeof(reg_2_1));
	fdtb_prop(&b, "iommus", (const uint8_t[]){0, 0, 0, 9, 0, 0, 0, 0x21}, 8);
	fdtb_end(&b);
	fdtb_end(&b);
	blob = fdtb_finish(&b, &size);
	assert_int_equal(mmchal_dt_probe(blob, size, NULL, NULL, n, 2, &found), 0);
	assert_int_equal(found, 1);
	assert_true(n[0].iommu_usable);
	assert_int_equal(n[0].why[5].fact, MMCHAL_DT_FACT_IOMMU);
	assert_string_equal(
		n[0].why[5].text,
		"iommus lists IOMMU phandle 0x9 with master ID 0x21; H3 revision not "
		"given: assumed ES3.x, where the IPMMU serves SDHI (ES1.x/ES2.x cannot)");
	free(blob);
}

static void test_revision_texts(void **state)
{
	uint8_t ma = 0, mi = 0;

	(void)state;
	assert_int_equal(mmchal_dt_parse_revision("ES1.9", &ma, &mi), 0);
	assert_int_equal(ma, 1);
	assert_int_equal(mi, 9);
	assert_int_equal(mmchal_dt_parse_revision("9.19", &ma, &mi), 0);
	assert_int_equal(ma, 9);
	assert_int_equal(mi, 19);
	assert_int_equal(mmchal_dt_parse_revision("Es255.255", &ma, &mi), 0);
	assert_int_equal(ma, 255);
	assert_int_equal(mi, 255);
	ma = mi = 0;
	assert_int_equal(mmchal_dt_parse_revision("ES1.0001", &ma, &mi), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dt_parse_revision("ES0001.1", &ma, &mi), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dt_parse_revision("Ex1.0", &ma, &mi), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dt_parse_revision("xs1.0", &ma, &mi), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dt_parse_revision("ES1:0", &ma, &mi), MMCHAL_EINVAL);
	assert_int_equal(ma, 0);
	assert_int_equal(mi, 0);
}

/* ---------------------------------------------------------------- dt_why */

static void test_why_slots(void **state)
{
	static struct mmchal_dt_node n;
	struct mmchal_strbuf_ sb;
	char spare[MMCHAL_DT_WHY_LEN];
	uint32_t i;

	(void)state;
	memset(&n, 0, sizeof(n));
	for (i = 0; i < MMCHAL_DT_WHY_MAX; i++)
		mmchal_dt_why_(&n, MMCHAL_DT_FACT_REG, "r");
	assert_int_equal(n.nwhy, MMCHAL_DT_WHY_MAX);
	assert_false(n.why_lost);
	mmchal_dt_why_(&n, MMCHAL_DT_FACT_QUIRK, "lost");
	assert_int_equal(n.nwhy, MMCHAL_DT_WHY_MAX);
	assert_true(n.why_lost);
	assert_int_equal(n.why[MMCHAL_DT_WHY_MAX - 1u].fact, MMCHAL_DT_FACT_REG);
	assert_string_equal(n.why[MMCHAL_DT_WHY_MAX - 1u].text, "r");

	memset(&n, 0, sizeof(n));
	mmchal_dt_why_putn_(mmchal_dt_why_begin_(&n, MMCHAL_DT_FACT_DMA, &sb, spare), "abcdef", 3);
	assert_int_equal(n.nwhy, 1);
	assert_int_equal(n.why[0].fact, MMCHAL_DT_FACT_DMA);
	assert_string_equal(n.why[0].text, "abc");
	mmchal_dt_why_putn_(&sb, "xyz", 0);
	assert_string_equal(n.why[0].text, "abc");
}

static void test_names(void **state)
{
	static const char *const facts[] = {
		"status", "compatible", "backend",  "bus_shift", "reg",   "interrupt", "iommu",
		"dma",    "bus_width",  "bus_caps", "f_max",     "merge", "blk_count", "quirk",
	};
	unsigned int i;

	(void)state;
	assert_int_equal(sizeof(facts) / sizeof(facts[0]), MMCHAL_DT_FACT_COUNT);
	for (i = 0; i < MMCHAL_DT_FACT_COUNT; i++)
		assert_string_equal(mmchal_dt_fact_name((enum mmchal_dt_fact)i), facts[i]);
	assert_string_equal(mmchal_dt_fact_name((enum mmchal_dt_fact) - 1), "?");
	assert_string_equal(mmchal_dt_backend_name(MMCHAL_DT_BACKEND_NONE), "none");
	assert_string_equal(mmchal_dt_backend_name(MMCHAL_DT_BACKEND_IDMAC), "idmac");
	assert_string_equal(mmchal_dt_backend_name(MMCHAL_DT_BACKEND_SYSDMAC), "sysdmac");
	assert_string_equal(mmchal_dt_backend_name(MMCHAL_DT_BACKEND_PIO), "pio");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_be32),
		cmocka_unit_test(test_streq),
		cmocka_unit_test(test_stringlists),
		cmocka_unit_test(test_stringlist_next),
		cmocka_unit_test(test_init_counts),
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_unknown_token_in_check),
		cmocka_unit_test(test_block_placement),
		cmocka_unit_test(test_getprop),
		cmocka_unit_test(test_getprop_cut_block),
		cmocka_unit_test(test_phandles),
		cmocka_unit_test(test_more_root_compatibles_than_kept),
		cmocka_unit_test(test_paths_at_the_limit),
		cmocka_unit_test(test_root_is_never_a_node),
		cmocka_unit_test(test_revision_texts),
		cmocka_unit_test(test_h3_as_the_only_root_compatible),
		cmocka_unit_test(test_interrupt_parent_is_the_tree_parent),
		cmocka_unit_test(test_why_slots),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
