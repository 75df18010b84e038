/*
 * The golden-text tests' shared part (test_dt_golden.c, test_dt_golden_edge.c):
 * everything the probe derives about every node of a blob, written as text
 * one fact per line, the exact comparison of that text with the expected
 * lines, and the property helpers of the hand-built trees.
 */
#ifndef MMCHAL_TEST_DT_GOLDEN_H
#define MMCHAL_TEST_DT_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

#include "dt/fdt_build.h"

struct out {
	char buf[65536];
	size_t len;
};

/* The description of every node of @p blob, probed with @p rev. */
void describe_blob(struct out *o, const char *board, const unsigned char *blob, size_t size,
		   const char *rev);
/* @p got, split at its newlines, is exactly the lines of @p want. */
void assert_text(const char *got, const char *const *want);

/* Property @p name: @p n cells of @p v, big-endian. */
void cells(struct fdtb *b, const char *name, uint32_t n, const uint32_t *v);
/* Property @p name: the string list @p v of @p len bytes, NULs included. */
void strlist(struct fdtb *b, const char *name, const char *v, uint32_t len);

/* The hand-built trees (a blob from malloc) and their exact descriptions. */
unsigned char *edge_tree(size_t *size); /* dt_golden_edge.c */
extern const char *const edge_golden[];
unsigned char *edge2_tree(size_t *size); /* dt_golden_edge2.c */
extern const char *const edge2_golden[];

#endif
