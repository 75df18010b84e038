/**
 * @file
 * @brief Internal: a bounded, read-only reader of flattened device-tree blobs.
 *
 * The library cannot trust a blob: libfdt 1.6.1 was seen to crash and loop on
 * malformed input (also inside fdt_check_full()), and its symbols would make
 * the archive need a C library. So the blob is checked here once, completely
 * (header, memory reservation map, every token of the structure block, every
 * property name), with the caller's size as the hard bound; afterwards every
 * read still checks its bounds, so a reader never leaves the blob even if a
 * check were missed. Depth and node count are bounded; every token advances
 * the offset, so every walk ends.
 *
 * Format: Devicetree Specification v0.4, chapter 5 (flattened format).
 *
 * Locking: none; the blob is only read.
 */
#ifndef MMCHAL_DT_FDT_H
#define MMCHAL_DT_FDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* DT spec 5.2: header magic and the 40-byte header of version 17. */
#define FDT_MAGIC_       0xd00dfeedu
#define FDT_HEADER_SIZE_ 40u
/* Versions this reader understands (libfdt reads 16 and 17 as well). */
#define FDT_VERSION_MIN_ 16u
#define FDT_VERSION_MAX_ 17u

/* DT spec 5.4.1: structure block tokens. */
#define FDT_BEGIN_NODE_ 0x1u
#define FDT_END_NODE_   0x2u
#define FDT_PROP_       0x3u
#define FDT_NOP_        0x4u
#define FDT_END_        0x9u

/** A checked blob. Offsets are relative to the structure / strings block. */
struct mmchal_fdt_ {
	const uint8_t *blob;
	uint32_t totalsize;
	uint32_t struct_off;
	uint32_t struct_size;
	uint32_t strings_off;
	uint32_t strings_size;
	uint32_t nnodes;    /* nodes in the tree, counted by the check */
	uint32_t max_depth; /* deepest node, root = 1 */
};

/** One token read from the structure block. */
struct mmchal_fdt_tok_ {
	uint32_t tag;
	uint32_t next;       /* offset of the token after this one */
	const char *name;    /* node name (BEGIN_NODE) or property name (PROP) */
	uint32_t name_len;   /* strlen(name) */
	const uint8_t *data; /* property value (PROP) */
	uint32_t len;        /* property length (PROP) */
};

/*
 * Check a whole blob and fill @p f. Returns 0, MMCHAL_EPROTO for anything
 * malformed, MMCHAL_ERANGE when the tree is deeper than max_depth levels or
 * has more than max_nodes nodes.
 */
int mmchal_fdt_init_(struct mmchal_fdt_ *f, const void *blob, size_t size, uint32_t max_depth,
		     uint32_t max_nodes);

/* Read the token at struct-block offset @p off. Returns 0 or MMCHAL_EPROTO. */
int mmchal_fdt_token_(const struct mmchal_fdt_ *f, uint32_t off, struct mmchal_fdt_tok_ *tok);

/*
 * Property @p name of the node whose BEGIN_NODE token is at @p node. Returns
 * its value (and length in *len) or NULL when the node has no such property.
 */
const uint8_t *mmchal_fdt_getprop_(const struct mmchal_fdt_ *f, uint32_t node, const char *name,
				   uint32_t *len);

/* Whether the node has property @p name (a boolean property is present or not). */
bool mmchal_fdt_hasprop_(const struct mmchal_fdt_ *f, uint32_t node, const char *name);

/*
 * Read a one-cell (u32) property. Returns 0, MMCHAL_ENOENT when absent,
 * MMCHAL_EPROTO when its length is not 4.
 */
int mmchal_fdt_getu32_(const struct mmchal_fdt_ *f, uint32_t node, const char *name, uint32_t *out);

/* Offset of the node with this phandle, or MMCHAL_ENOENT. */
int mmchal_fdt_by_phandle_(const struct mmchal_fdt_ *f, uint32_t phandle, uint32_t *node);

/* Big-endian cell at @p p. */
uint32_t mmchal_fdt_be32_(const uint8_t *p);

/*
 * String list helpers (compatible, dma-names). A valid list is non-empty
 * and ends with a NUL. stringlist_ok_ says whether it is valid; count_
 * counts its strings; get_ returns string @p idx (and its length) or NULL.
 */
bool mmchal_fdt_stringlist_ok_(const uint8_t *data, uint32_t len);
uint32_t mmchal_fdt_stringlist_count_(const uint8_t *data, uint32_t len);
const char *mmchal_fdt_stringlist_get_(const uint8_t *data, uint32_t len, uint32_t idx,
				       uint32_t *slen);
/*
 * The string at offset *@p off of a list that count_ found valid (and its
 * length), with *@p off moved past it; NULL once *@p off reaches the end. A
 * walk over every string with next_ reads the list once; get_ for each index
 * in turn reads it once per string, quadratic in a long list.
 */
const char *mmchal_fdt_stringlist_next_(const uint8_t *data, uint32_t len, uint32_t *off,
					uint32_t *slen);

/* NUL-terminated string equality with a bounded left side of length @p alen. */
bool mmchal_fdt_streq_(const char *a, uint32_t alen, const char *b);

#endif /* MMCHAL_DT_FDT_H */
