/**
 * @file
 * @brief Internal: the complete check of a flattened device-tree blob.
 *
 * Everything a later read relies on is checked here, with the caller's
 * buffer size as the hard bound (DT spec v0.4, chapter 5): the header, the
 * memory reservation map, and every token of the structure block in one
 * iterative pass (no recursion: an explicit depth counter bounded by the
 * caller). Each token moves the offset forward by at least 4 bytes, so the
 * pass ends within struct_size / 4 steps whatever the blob contains.
 *
 * Locking: none; the blob is only read.
 */
#include <mmchal/error.h>

#include "dt/fdt.h"

/* Header fields, DT spec 5.2 (byte offsets). */
#define HDR_MAGIC        0u
#define HDR_TOTALSIZE    4u
#define HDR_OFF_STRUCT   8u
#define HDR_OFF_STRINGS  12u
#define HDR_OFF_RSVMAP   16u
#define HDR_VERSION      20u
#define HDR_LAST_COMP    24u
#define HDR_SIZE_STRINGS 32u
#define HDR_SIZE_STRUCT  36u

/* A range [off, off + len) lies inside [0, limit). No overflow: 64-bit sums. */
static bool in_bounds(uint32_t off, uint32_t len, uint32_t limit)
{
	return (uint64_t)off + len <= limit;
}

static int check_header(struct mmchal_fdt_ *f, const uint8_t *b, size_t size)
{
	uint32_t version, last_comp, rsv;

	if (size < FDT_HEADER_SIZE_)
		return MMCHAL_EPROTO;
	if (mmchal_fdt_be32_(b + HDR_MAGIC) != FDT_MAGIC_)
		return MMCHAL_EPROTO;
	f->totalsize = mmchal_fdt_be32_(b + HDR_TOTALSIZE);
	if (f->totalsize < FDT_HEADER_SIZE_ || f->totalsize > size)
		return MMCHAL_EPROTO;

	/*
	 * Version 17 adds size_dt_struct; a version-16 blob is read up to the
	 * end of the blob. A later version that stays compatible with 17
	 * (last_comp_version <= 17) is readable too.
	 */
	version = mmchal_fdt_be32_(b + HDR_VERSION);
	last_comp = mmchal_fdt_be32_(b + HDR_LAST_COMP);
	if (version < FDT_VERSION_MIN_ || last_comp > FDT_VERSION_MAX_ || last_comp > version)
		return MMCHAL_EPROTO;

	f->struct_off = mmchal_fdt_be32_(b + HDR_OFF_STRUCT);
	f->strings_off = mmchal_fdt_be32_(b + HDR_OFF_STRINGS);
	f->strings_size = mmchal_fdt_be32_(b + HDR_SIZE_STRINGS);
	if (f->struct_off < FDT_HEADER_SIZE_ || f->struct_off > f->totalsize ||
	    (f->struct_off & 3u) != 0)
		return MMCHAL_EPROTO;
	if (version >= 17)
		f->struct_size = mmchal_fdt_be32_(b + HDR_SIZE_STRUCT);
	else
		f->struct_size = f->totalsize - f->struct_off;
	if (!in_bounds(f->struct_off, f->struct_size, f->totalsize))
		return MMCHAL_EPROTO;
	if (f->strings_off < FDT_HEADER_SIZE_ ||
	    !in_bounds(f->strings_off, f->strings_size, f->totalsize))
		return MMCHAL_EPROTO;

	/*
	 * Memory reservation map (5.3): 8-byte aligned pairs of 64-bit address
	 * and size, ended by a pair of zeros that must lie inside the blob.
	 */
	rsv = mmchal_fdt_be32_(b + HDR_OFF_RSVMAP);
	if (rsv < FDT_HEADER_SIZE_ || (rsv & 7u) != 0)
		return MMCHAL_EPROTO;
	for (;;) {
		const uint8_t *e;
		uint32_t i, any = 0;

		if (!in_bounds(rsv, 16u, f->totalsize))
			return MMCHAL_EPROTO;
		e = b + rsv;
		for (i = 0; i < 16u; i++)
			any |= e[i];
		if (any == 0)
			break;
		rsv += 16u;
	}
	return 0;
}

int mmchal_fdt_init_(struct mmchal_fdt_ *f, const void *blob, size_t size, uint32_t max_depth,
		     uint32_t max_nodes)
{
	struct mmchal_fdt_tok_ tok;
	uint32_t off = 0, depth = 0, nodes = 0;
	bool root_done = false, props_allowed = false;
	int rc;

	if (f == NULL || blob == NULL)
		return MMCHAL_EINVAL;
	f->blob = blob;
	f->nnodes = 0;
	f->max_depth = 0;
	rc = check_header(f, blob, size);
	if (rc != 0)
		return rc;

	for (;;) {
		rc = mmchal_fdt_token_(f, off, &tok);
		if (rc != 0)
			return rc;
		switch (tok.tag) {
		case FDT_BEGIN_NODE_:
			/* One root, with the empty name; every other node named. */
			if (root_done || (depth == 0) != (tok.name_len == 0))
				return MMCHAL_EPROTO;
			if (depth >= max_depth || nodes >= max_nodes)
				return MMCHAL_ERANGE;
			depth++;
			nodes++;
			if (depth > f->max_depth)
				f->max_depth = depth;
			props_allowed = true;
			break;
		case FDT_END_NODE_:
			if (depth == 0)
				return MMCHAL_EPROTO;
			depth--;
			if (depth == 0)
				root_done = true;
			/* The parent's properties came before its first child (5.4.2). */
			props_allowed = false;
			break;
		case FDT_PROP_:
			if (depth == 0 || !props_allowed)
				return MMCHAL_EPROTO;
			break;
		case FDT_NOP_:
			break;
		case FDT_END_:
			if (!root_done)
				return MMCHAL_EPROTO;
			f->nnodes = nodes;
			return 0;
		default:
			return MMCHAL_EPROTO; /* not reached: token_() refuses other tags */
		}
		off = tok.next;
	}
}
