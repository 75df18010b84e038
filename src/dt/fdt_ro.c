/**
 * @file
 * @brief Internal: bounded reads of a checked flattened device-tree blob.
 *
 * Every read checks its own bounds against the structure or strings block,
 * so even a read the check did not foresee cannot leave the blob.
 *
 * Locking: none; the blob is only read.
 */
#include <mmchal/error.h>

#include "dt/fdt.h"

uint32_t mmchal_fdt_be32_(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) |
	       (uint32_t)p[3];
}

/* Length of a NUL-terminated string in [p, p + max), or max when no NUL is there. */
static uint32_t bounded_strlen(const uint8_t *p, uint32_t max)
{
	uint32_t n = 0;

	while (n < max && p[n] != 0)
		n++;
	return n;
}

static uint32_t align4(uint32_t v)
{
	return (v + 3u) & ~3u;
}

int mmchal_fdt_token_(const struct mmchal_fdt_ *f, uint32_t off, struct mmchal_fdt_tok_ *tok)
{
	const uint8_t *s = f->blob + f->struct_off;
	uint32_t end = f->struct_size, room, n;

	if ((off & 3u) != 0 || off > end || end - off < 4u)
		return MMCHAL_EPROTO;
	tok->tag = mmchal_fdt_be32_(s + off);
	tok->name = NULL;
	tok->name_len = 0;
	tok->data = NULL;
	tok->len = 0;
	off += 4u;
	room = end - off;

	switch (tok->tag) {
	case FDT_BEGIN_NODE_:
		/* The unit name, NUL-terminated, padded to 4 bytes (5.4.1). */
		n = bounded_strlen(s + off, room);
		if (n == room)
			return MMCHAL_EPROTO;
		tok->name = (const char *)(s + off);
		tok->name_len = n;
		if (align4(n + 1u) > room)
			return MMCHAL_EPROTO;
		tok->next = off + align4(n + 1u);
		return 0;
	case FDT_PROP_: {
		uint32_t nameoff;

		/* len, nameoff, then len bytes of value padded to 4 (5.4.1). */
		if (room < 8u)
			return MMCHAL_EPROTO;
		tok->len = mmchal_fdt_be32_(s + off);
		nameoff = mmchal_fdt_be32_(s + off + 4u);
		off += 8u;
		room -= 8u;
		if (tok->len > room || align4(tok->len) > room)
			return MMCHAL_EPROTO;
		if (nameoff >= f->strings_size)
			return MMCHAL_EPROTO;
		n = bounded_strlen(f->blob + f->strings_off + nameoff, f->strings_size - nameoff);
		if (n == f->strings_size - nameoff)
			return MMCHAL_EPROTO;
		tok->name = (const char *)(f->blob + f->strings_off + nameoff);
		tok->name_len = n;
		tok->data = s + off;
		tok->next = off + align4(tok->len);
		return 0;
	}
	case FDT_END_NODE_:
	case FDT_NOP_:
	case FDT_END_:
		tok->next = off;
		return 0;
	default:
		return MMCHAL_EPROTO;
	}
}

bool mmchal_fdt_streq_(const char *a, uint32_t alen, const char *b)
{
	uint32_t i;

	for (i = 0; i < alen; i++) {
		if (b[i] == '\0' || b[i] != a[i])
			return false;
	}
	return b[alen] == '\0';
}

const uint8_t *mmchal_fdt_getprop_(const struct mmchal_fdt_ *f, uint32_t node, const char *name,
				   uint32_t *len)
{
	struct mmchal_fdt_tok_ tok;
	uint32_t off;

	if (mmchal_fdt_token_(f, node, &tok) != 0 || tok.tag != FDT_BEGIN_NODE_)
		return NULL;
	/* A node's properties come before its children: stop at the first non-property. */
	for (off = tok.next;; off = tok.next) {
		if (mmchal_fdt_token_(f, off, &tok) != 0)
			return NULL;
		if (tok.tag == FDT_NOP_)
			continue;
		if (tok.tag != FDT_PROP_)
			return NULL;
		if (mmchal_fdt_streq_(tok.name, tok.name_len, name)) {
			if (len != NULL)
				*len = tok.len;
			return tok.data;
		}
	}
}

bool mmchal_fdt_hasprop_(const struct mmchal_fdt_ *f, uint32_t node, const char *name)
{
	uint32_t len;

	return mmchal_fdt_getprop_(f, node, name, &len) != NULL;
}

int mmchal_fdt_getu32_(const struct mmchal_fdt_ *f, uint32_t node, const char *name, uint32_t *out)
{
	uint32_t len;
	const uint8_t *p = mmchal_fdt_getprop_(f, node, name, &len);

	if (p == NULL)
		return MMCHAL_ENOENT;
	if (len != 4u)
		return MMCHAL_EPROTO;
	*out = mmchal_fdt_be32_(p);
	return 0;
}

int mmchal_fdt_by_phandle_(const struct mmchal_fdt_ *f, uint32_t phandle, uint32_t *node)
{
	struct mmchal_fdt_tok_ tok;
	uint32_t off = 0, cur = 0;

	/* 0 and 0xffffffff are never valid phandles (DT spec 2.3.3). */
	if (phandle == 0 || phandle == 0xffffffffu)
		return MMCHAL_ENOENT;
	for (;;) {
		if (mmchal_fdt_token_(f, off, &tok) != 0)
			return MMCHAL_ENOENT;
		if (tok.tag == FDT_END_)
			return MMCHAL_ENOENT;
		if (tok.tag == FDT_BEGIN_NODE_)
			cur = off;
		else if (tok.tag == FDT_PROP_ && tok.len == 4u &&
			 (mmchal_fdt_streq_(tok.name, tok.name_len, "phandle") ||
			  mmchal_fdt_streq_(tok.name, tok.name_len, "linux,phandle")) &&
			 mmchal_fdt_be32_(tok.data) == phandle) {
			*node = cur;
			return 0;
		}
		off = tok.next;
	}
}

bool mmchal_fdt_stringlist_ok_(const uint8_t *data, uint32_t len)
{
	return data != NULL && len > 0 && data[len - 1u] == 0;
}

uint32_t mmchal_fdt_stringlist_count_(const uint8_t *data, uint32_t len)
{
	uint32_t i, n = 0;

	if (!mmchal_fdt_stringlist_ok_(data, len))
		return 0;
	for (i = 0; i < len; i++) {
		if (data[i] == 0)
			n++;
	}
	return n;
}

const char *mmchal_fdt_stringlist_next_(const uint8_t *data, uint32_t len, uint32_t *off,
					uint32_t *slen)
{
	const uint8_t *s;
	uint32_t n;

	if (data == NULL || *off >= len)
		return NULL;
	s = data + *off;
	n = bounded_strlen(s, len - *off);
	if (slen != NULL)
		*slen = n;
	*off += n + 1u;
	return (const char *)s;
}

const char *mmchal_fdt_stringlist_get_(const uint8_t *data, uint32_t len, uint32_t idx,
				       uint32_t *slen)
{
	uint32_t off = 0, n;

	if (!mmchal_fdt_stringlist_ok_(data, len))
		return NULL;
	while (off < len) {
		n = bounded_strlen(data + off, len - off);
		if (idx == 0) {
			if (slen != NULL)
				*slen = n;
			return (const char *)(data + off);
		}
		idx--;
		off += n + 1u;
	}
	return NULL;
}
