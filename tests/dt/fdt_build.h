/*
 * Test helper: builds small flattened device trees by hand (DT spec v0.4,
 * chapter 5), for shapes no shared board has. Each finished blob lives in a
 * buffer of exactly its size, so a read past it is caught by ASan/valgrind.
 */
#ifndef MMCHAL_TEST_FDT_BUILD_H
#define MMCHAL_TEST_FDT_BUILD_H

#include <stddef.h>
#include <stdint.h>

struct fdtb {
	unsigned char *s; /* structure block */
	size_t slen, scap;
	char strs[512]; /* strings block */
	size_t strslen;
};

/* Structure-block offset the next token will have. */
uint32_t fdtb_here(const struct fdtb *b);
void fdtb_begin(struct fdtb *b, const char *name);
void fdtb_prop(struct fdtb *b, const char *name, const void *v, uint32_t len);
void fdtb_prop_u32(struct fdtb *b, const char *name, uint32_t v);
void fdtb_prop_str(struct fdtb *b, const char *name, const char *s);
void fdtb_raw32(struct fdtb *b, uint32_t v);
void fdtb_end(struct fdtb *b);
/* END token, header, empty reservation map, blocks; the builder is reset. */
unsigned char *fdtb_finish(struct fdtb *b, size_t *size);

#endif
