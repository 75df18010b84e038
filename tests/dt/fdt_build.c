/* Hand-built flattened device trees for tests (see fdt_build.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "dt/dt_shared.h"
#include "dt/fdt_build.h"

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

uint32_t fdtb_here(const struct fdtb *b)
{
	return (uint32_t)b->slen;
}

void fdtb_raw32(struct fdtb *b, uint32_t v)
{
	unsigned char c[4];

	dt_put_be32(c, v);
	put(b, c, 4);
}

void fdtb_begin(struct fdtb *b, const char *name)
{
	fdtb_raw32(b, 1);
	put(b, name, strlen(name) + 1);
}

void fdtb_prop(struct fdtb *b, const char *name, const void *v, uint32_t len)
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
	fdtb_raw32(b, 3);
	fdtb_raw32(b, len);
	fdtb_raw32(b, off);
	if (len > 0)
		put(b, v, len);
}

void fdtb_prop_u32(struct fdtb *b, const char *name, uint32_t v)
{
	unsigned char c[4];

	dt_put_be32(c, v);
	fdtb_prop(b, name, c, 4);
}

void fdtb_prop_str(struct fdtb *b, const char *name, const char *s)
{
	fdtb_prop(b, name, s, (uint32_t)strlen(s) + 1);
}

void fdtb_end(struct fdtb *b)
{
	fdtb_raw32(b, 2);
}

unsigned char *fdtb_finish(struct fdtb *b, size_t *size)
{
	size_t rsv = 40, str = rsv + 16, strs, total;
	unsigned char *blob;

	fdtb_raw32(b, 9);
	strs = str + b->slen;
	total = strs + b->strslen;
	blob = calloc(1, total);
	assert_non_null(blob);
	dt_put_be32(blob + 0, 0xd00dfeedu);
	dt_put_be32(blob + 4, (uint32_t)total);
	dt_put_be32(blob + 8, (uint32_t)str);
	dt_put_be32(blob + 12, (uint32_t)strs);
	dt_put_be32(blob + 16, (uint32_t)rsv);
	dt_put_be32(blob + 20, 17);
	dt_put_be32(blob + 24, 16);
	dt_put_be32(blob + 32, (uint32_t)b->strslen);
	dt_put_be32(blob + 36, (uint32_t)b->slen);
	memcpy(blob + str, b->s, b->slen);
	memcpy(blob + strs, b->strs, b->strslen);
	free(b->s);
	memset(b, 0, sizeof(*b));
	*size = total;
	return blob;
}
