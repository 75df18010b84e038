/*
 * A small JSON reader for the tests: parses one document into a fixed pool of
 * values (no allocation per value), strict enough to reject what is not JSON.
 */
#ifndef MMCHAL_TEST_JSON_MINI_H
#define MMCHAL_TEST_JSON_MINI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	bool b;
	bool is_uint; /* a non-negative integer that fits uint64_t */
	uint64_t u;   /* its value */
	char *s;      /* J_STR: decoded text; object member: key */
	char *key;    /* the member name when this value sits in an object */
	int first;    /* J_ARR/J_OBJ: index of the first child, -1 = none */
	int next;     /* next sibling, -1 = last */
	size_t n;     /* J_ARR/J_OBJ: number of children */
};

struct jdoc {
	struct jval *v;
	size_t nv, cap;
	char *text; /* decoded strings live here */
	size_t tlen, tcap;
};

/* Parse @p src; returns the root index, or -1 when it is not one valid document. */
int json_parse(struct jdoc *d, const char *src);
void json_free(struct jdoc *d);

/* Member @p key of object @p obj, or NULL. */
const struct jval *json_get(const struct jdoc *d, const struct jval *obj, const char *key);
/* Element @p i of array @p arr, or NULL. */
const struct jval *json_at(const struct jdoc *d, const struct jval *arr, size_t i);

#endif
