/*
 * Bad-input rows: the device-tree front end (dt.h), over a small blob built
 * here (a root naming an R-Car H3 and one SDHI node), so the rows need no
 * file and also run on the targets.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

#if MMCHAL_HAVE_LIBFDT && (MMCHAL_WITH_BACKEND_SDHI_IDMAC || MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || \
			   MMCHAL_WITH_BACKEND_PIO)

/* Flattened device tree tokens and layout (devicetree specification 5). */
#define FDT_MAGIC      0xd00dfeedu
#define FDT_BEGIN_NODE 1u
#define FDT_END_NODE   2u
#define FDT_PROP       3u
#define FDT_END        9u
#define HDR_SIZE       40u
#define RSV_SIZE       16u

struct builder {
	uint8_t *buf;
	size_t len;
};

static void put32(struct builder *b, uint32_t v)
{
	b->buf[b->len++] = (uint8_t)(v >> 24);
	b->buf[b->len++] = (uint8_t)(v >> 16);
	b->buf[b->len++] = (uint8_t)(v >> 8);
	b->buf[b->len++] = (uint8_t)v;
}

static void put_bytes(struct builder *b, const void *p, size_t n)
{
	memcpy(b->buf + b->len, p, n);
	b->len += n;
	while (b->len & 3u)
		b->buf[b->len++] = 0;
}

static void begin_node(struct builder *b, const char *name)
{
	put32(b, FDT_BEGIN_NODE);
	put_bytes(b, name, strlen(name) + 1u);
}

static void prop(struct builder *b, uint32_t nameoff, const void *val, size_t len)
{
	put32(b, FDT_PROP);
	put32(b, (uint32_t)len);
	put32(b, nameoff);
	put_bytes(b, val, len);
}

static void prop_u32(struct builder *b, uint32_t nameoff, uint32_t v)
{
	uint8_t be[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};

	prop(b, nameoff, be, 4);
}

/* the strings block: offsets of each name */
static const char strings[] = "compatible\0#address-cells\0#size-cells\0reg\0status";
#define S_COMPAT 0u
#define S_ACELLS 11u
#define S_SCELLS 26u
#define S_REG    38u
#define S_STATUS 42u

#define BLOB_MAX 1536u

/* Build the blob at @p at (any alignment); returns its size. @p reg_len is
 * the length of the SDHI node's reg (8 is right); @p depth more nodes are
 * nested under it. */
static size_t build_with(uint8_t *at, size_t reg_len, unsigned int depth)
{
	static const char root_compat[] = "renesas,salvator-x\0renesas,r8a7795";
	static const char mmc_compat[] = "renesas,sdhi-r8a7795\0renesas,rcar-gen3-sdhi";
	static const uint8_t reg[8] = {0xee, 0x10, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00};
	struct builder b = {at, HDR_SIZE + RSV_SIZE};
	size_t struct_off = b.len, struct_size, strings_off, total;

	memset(at, 0, HDR_SIZE + RSV_SIZE);
	begin_node(&b, "");
	prop(&b, S_COMPAT, root_compat, sizeof(root_compat));
	prop_u32(&b, S_ACELLS, 1);
	prop_u32(&b, S_SCELLS, 1);
	begin_node(&b, "mmc@ee100000");
	prop(&b, S_COMPAT, mmc_compat, sizeof(mmc_compat));
	prop(&b, S_REG, reg, reg_len);
	prop(&b, S_STATUS, "okay", 5);
	for (unsigned int i = 0; i < depth; i++)
		begin_node(&b, "n");
	for (unsigned int i = 0; i < depth; i++)
		put32(&b, FDT_END_NODE);
	put32(&b, FDT_END_NODE);
	put32(&b, FDT_END_NODE);
	put32(&b, FDT_END);
	struct_size = b.len - struct_off;
	strings_off = b.len;
	memcpy(at + b.len, strings, sizeof(strings));
	total = b.len + sizeof(strings);
	b.len = 0;
	put32(&b, FDT_MAGIC);
	put32(&b, (uint32_t)total);
	put32(&b, (uint32_t)struct_off);
	put32(&b, (uint32_t)strings_off);
	put32(&b, HDR_SIZE);
	put32(&b, 17);
	put32(&b, 16);
	put32(&b, 0);
	put32(&b, (uint32_t)sizeof(strings));
	put32(&b, (uint32_t)struct_size);
	return total;
}

static size_t build(uint8_t *at)
{
	return build_with(at, 8, 0);
}

struct blob {
	uint8_t *p;
	size_t size;
};

static struct blob blob_at(size_t misalign)
{
	struct blob b;

	b.p = bi_obj_at(BLOB_MAX, misalign);
	b.size = build(b.p);
	return b;
}

static int chk_null(void)
{
	bi_arm();
	return mmchal_dt_check(NULL, 4096);
}

static int chk_size0(void)
{
	struct blob b = blob_at(0);

	bi_arm();
	return mmchal_dt_check(b.p, 0);
}

static int chk_short(void)
{
	struct blob b = blob_at(0);

	bi_arm();
	return mmchal_dt_check(b.p, HDR_SIZE - 1u);
}

static int chk_truncated(void)
{
	struct blob b = blob_at(0);

	bi_arm();
	return mmchal_dt_check(b.p, b.size - 1u);
}

static int chk_magic(void)
{
	struct blob b = blob_at(0);

	b.p[0] ^= 0xffu;
	bi_arm();
	return mmchal_dt_check(b.p, b.size);
}

static int chk_no_end(void)
{
	struct blob b = blob_at(0);

	/* the FDT_END token just before the strings block becomes FDT_END_NODE */
	b.p[b.size - sizeof(strings) - 1u] = FDT_END_NODE;
	bi_arm();
	return mmchal_dt_check(b.p, b.size);
}

static int chk_good(void)
{
	struct blob b = blob_at(0);

	bi_arm();
	return mmchal_dt_check(b.p, b.size);
}

static int chk_unaligned(void)
{
	struct blob b = blob_at(3);

	bi_arm();
	return mmchal_dt_check(b.p, b.size);
}

static int chk_size_max(void)
{
	struct blob b = blob_at(0);

	bi_arm();
	return mmchal_dt_check(b.p, SIZE_MAX);
}

static int rev_with(const char *text)
{
	uint8_t *ma = BI_NEW(uint8_t), *mi = BI_NEW(uint8_t);

	*ma = 0x3c;
	*mi = 0x3c;
	bi_arm();
	return mmchal_dt_parse_revision(text, ma, mi);
}

static int rev_null(void)
{
	return rev_with(NULL);
}

static int rev_null_major(void)
{
	uint8_t *mi = BI_NEW(uint8_t);

	bi_arm();
	return mmchal_dt_parse_revision("ES2.0", NULL, mi);
}

static int rev_null_minor(void)
{
	uint8_t *ma = BI_NEW(uint8_t);

	bi_arm();
	return mmchal_dt_parse_revision("ES2.0", ma, NULL);
}

static int rev_empty(void)
{
	return rev_with("");
}

static int rev_es(void)
{
	return rev_with("ES");
}

static int rev_no_minor(void)
{
	return rev_with("ES2.");
}

static int rev_major0(void)
{
	return rev_with("ES0.1");
}

static int rev_major256(void)
{
	return rev_with("ES256.0");
}

static int rev_trailing(void)
{
	return rev_with("ES3.0x");
}

static int rev_long(void)
{
	return rev_with("ES00000000000000000000000000000000000000001.0");
}

struct probe_objs {
	struct blob b;
	struct mmchal_dt_opts *opts;
	struct mmchal_dt_board *board;
	struct mmchal_dt_node *nodes;
	size_t *nfound;
};

static struct probe_objs probe_objs(size_t misalign)
{
	struct probe_objs o;

	o.b = blob_at(misalign);
	o.opts = BI_NEW(struct mmchal_dt_opts);
	o.board = BI_NEW(struct mmchal_dt_board);
	o.nodes = BI_NEW(struct mmchal_dt_node);
	o.nfound = BI_NEW(size_t);
	*o.nfound = 77;
	return o;
}

static int probe_null_blob(void)
{
	struct probe_objs o = probe_objs(0);

	bi_arm();
	return mmchal_dt_probe(NULL, o.b.size, o.opts, o.board, o.nodes, 1, o.nfound);
}

static int probe_null_nfound(void)
{
	struct probe_objs o = probe_objs(0);

	bi_arm();
	return mmchal_dt_probe(o.b.p, o.b.size, o.opts, o.board, o.nodes, 1, NULL);
}

static int probe_null_nodes(void)
{
	struct probe_objs o = probe_objs(0);

	bi_arm();
	return mmchal_dt_probe(o.b.p, o.b.size, o.opts, o.board, NULL, 1, o.nfound);
}

/* A refused probe reports no node: only *nfound (set to 0) may change. */
static int probe_refused(struct probe_objs *o, size_t size)
{
	bi_writable(o->nfound, sizeof(*o->nfound));
	bi_arm();
	return mmchal_dt_probe(o->b.p, size, o->opts, o->board, o->nodes, 1, o->nfound) |
	       (*o->nfound == 0 ? 0 : 0x100);
}

static int probe_bad_rev(void)
{
	struct probe_objs o = probe_objs(0);

	o.opts->soc_revision = "ES2";
	return probe_refused(&o, o.b.size);
}

static int probe_truncated(void)
{
	struct probe_objs o = probe_objs(0);

	return probe_refused(&o, o.b.size - 4u);
}

static int probe_magic(void)
{
	struct probe_objs o = probe_objs(0);

	o.b.p[3] = 0;
	return probe_refused(&o, o.b.size);
}

static int probe_no_room(void)
{
	struct probe_objs o = probe_objs(0);

	bi_writable(o.nfound, sizeof(*o.nfound));
	bi_writable(o.board, sizeof(*o.board));
	bi_arm();
	return mmchal_dt_probe(o.b.p, o.b.size, o.opts, o.board, NULL, 0, o.nfound) |
	       (*o.nfound == 1 ? 0 : 0x100);
}

/* An odd blob address, no options, no board: the node is found as usual. */
static int probe_unaligned(void)
{
	struct probe_objs o = probe_objs(1);

	bi_writable(o.nfound, sizeof(*o.nfound));
	bi_writable(o.nodes, sizeof(*o.nodes));
	bi_arm();
	return mmchal_dt_probe(o.b.p, o.b.size, NULL, NULL, o.nodes, 1, o.nfound) |
	       (*o.nfound == 1 && o.nodes->supported && o.nodes->error == 0 ? 0 : 0x100);
}

/* A node problem is the node's error, not the call's. */
static int probe_bad_reg(void)
{
	struct probe_objs o = probe_objs(0);

	o.b.size = build_with(o.b.p, 7, 0);
	bi_writable(o.nfound, sizeof(*o.nfound));
	bi_writable(o.nodes, sizeof(*o.nodes));
	bi_writable(o.board, sizeof(*o.board));
	bi_arm();
	return mmchal_dt_probe(o.b.p, o.b.size, o.opts, o.board, o.nodes, 1, o.nfound) |
	       (*o.nfound == 1 && o.nodes->error == MMCHAL_EPROTO ? 0 : 0x100);
}

static int probe_policy_enum(void)
{
	struct probe_objs o = probe_objs(0);
	struct mmchal_policy_cfg *pol = BI_NEW(struct mmchal_policy_cfg);

	pol->override = (enum mmchal_completion_policy)9;
	o.opts->policy = pol;
	bi_writable(o.nfound, sizeof(*o.nfound));
	bi_writable(o.nodes, sizeof(*o.nodes));
	bi_writable(o.board, sizeof(*o.board));
	bi_arm();
	return mmchal_dt_probe(o.b.p, o.b.size, o.opts, o.board, o.nodes, 1, o.nfound) |
	       (*o.nfound == 1 && o.nodes->error == MMCHAL_EINVAL ? 0 : 0x100);
}

/* Root, SDHI node and 63 more: 65 levels, one above MMCHAL_DT_MAX_DEPTH. */
static int chk_too_deep(void)
{
	struct blob b = blob_at(0);

	b.size = build_with(b.p, 8, MMCHAL_DT_MAX_DEPTH - 1u);
	bi_arm();
	return mmchal_dt_check(b.p, b.size);
}

static int chk_deepest(void)
{
	struct blob b = blob_at(0);

	b.size = build_with(b.p, 8, MMCHAL_DT_MAX_DEPTH - 2u);
	bi_arm();
	return mmchal_dt_check(b.p, b.size);
}

static int probe_too_deep(void)
{
	struct probe_objs o = probe_objs(0);

	o.b.size = build_with(o.b.p, 8, MMCHAL_DT_MAX_DEPTH - 1u);
	return probe_refused(&o, o.b.size);
}

static int backend_name_range(void)
{
	bi_arm();
	return bi_str(mmchal_dt_backend_name((enum mmchal_dt_backend)4), "?") |
	       bi_str(mmchal_dt_backend_name((enum mmchal_dt_backend) - 1), "?");
}

static int fact_name_range(void)
{
	bi_arm();
	return bi_str(mmchal_dt_fact_name(MMCHAL_DT_FACT_COUNT), "?") |
	       bi_str(mmchal_dt_fact_name((enum mmchal_dt_fact) - 1), "?");
}

#endif

/* Present in every configuration (the front end may be configured out). */
static int chk_fdt_magic_constant(void)
{
	bi_arm();
	return mmchal_strerror(MMCHAL_EPROTO)[0] != '\0' ? 0 : 1;
}

const struct bi_row bi_rows_dt[] = {
#if MMCHAL_HAVE_LIBFDT && (MMCHAL_WITH_BACKEND_SDHI_IDMAC || MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || \
			   MMCHAL_WITH_BACKEND_PIO)
	BI_ROW(mmchal_dt_check, "NULL blob", chk_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_check, "size 0", chk_size0, MMCHAL_EPROTO),
	BI_ROW(mmchal_dt_check, "size below the header", chk_short, MMCHAL_EPROTO),
	BI_ROW(mmchal_dt_check, "totalsize beyond size", chk_truncated, MMCHAL_EPROTO),
	BI_ROW(mmchal_dt_check, "bad magic", chk_magic, MMCHAL_EPROTO),
	BI_ROW(mmchal_dt_check, "no END token", chk_no_end, MMCHAL_EPROTO),
	BI_ROW(mmchal_dt_check, "well-formed (the row's own blob)", chk_good, 0),
	BI_ROW(mmchal_dt_check, "blob at an odd address", chk_unaligned, 0),
	BI_ROW(mmchal_dt_check, "size SIZE_MAX", chk_size_max, 0),
	BI_ROW(mmchal_dt_check, "65 levels", chk_too_deep, MMCHAL_ERANGE),
	BI_ROW(mmchal_dt_check, "64 levels (the most)", chk_deepest, 0),
	BI_ROW(mmchal_dt_parse_revision, "NULL text", rev_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_parse_revision, "NULL major", rev_null_major, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_parse_revision, "NULL minor", rev_null_minor, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_parse_revision, "empty", rev_empty, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_parse_revision, "\"ES\"", rev_es, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_parse_revision, "\"ES2.\"", rev_no_minor, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_parse_revision, "major 0", rev_major0, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_parse_revision, "major 256", rev_major256, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_parse_revision, "trailing text", rev_trailing, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_parse_revision, "40 leading zeros", rev_long, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_probe, "NULL blob", probe_null_blob, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_probe, "NULL nfound", probe_null_nfound, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_probe, "NULL nodes with max 1", probe_null_nodes, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_probe, "revision \"ES2\"", probe_bad_rev, MMCHAL_EINVAL),
	BI_ROW(mmchal_dt_probe, "size below totalsize", probe_truncated, MMCHAL_EPROTO),
	BI_ROW(mmchal_dt_probe, "bad magic", probe_magic, MMCHAL_EPROTO),
	BI_ROW(mmchal_dt_probe, "max 0 with one node", probe_no_room, MMCHAL_ENOSPC),
	BI_ROW(mmchal_dt_probe, "blob at an odd address", probe_unaligned, 0),
	BI_ROW(mmchal_dt_probe, "reg of 7 bytes: the node's error", probe_bad_reg, 0),
	BI_ROW(mmchal_dt_probe, "policy override 9: the node's error", probe_policy_enum, 0),
	BI_ROW(mmchal_dt_probe, "65 levels", probe_too_deep, MMCHAL_ERANGE),
	BI_ROW(mmchal_dt_backend_name, "4 and -1", backend_name_range, 0),
	BI_ROW(mmchal_dt_fact_name, "COUNT and -1", fact_name_range, 0),
#endif
	BI_ROW(mmchal_strerror, "EPROTO has a text", chk_fdt_magic_constant, 0),
};

const size_t bi_nrows_dt = sizeof(bi_rows_dt) / sizeof(bi_rows_dt[0]);
