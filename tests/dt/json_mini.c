/*
 * A small JSON reader for the tests (RFC 8259 subset: \uXXXX escapes below
 * 0x80 only, which is all mmchal-probe writes; numbers kept as unsigned
 * integers when they are such).
 */
#include <stdlib.h>
#include <string.h>

#include "dt/json_mini.h"

struct pstate {
	struct jdoc *d;
	const char *p;
	int depth;
};

static void ws(struct pstate *s)
{
	while (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')
		s->p++;
}

static int newval(struct jdoc *d, enum jtype t)
{
	if (d->nv == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 256;
		d->v = realloc(d->v, d->cap * sizeof(*d->v));
		if (d->v == NULL)
			abort();
	}
	memset(&d->v[d->nv], 0, sizeof(d->v[0]));
	d->v[d->nv].type = t;
	d->v[d->nv].first = -1;
	d->v[d->nv].next = -1;
	return (int)d->nv++;
}

/* Strings are stored as offsets while the text buffer may move; fixed up at the end. */
static long put_text(struct jdoc *d, const char *s, size_t n)
{
	long at;

	if (d->tlen + n + 1 > d->tcap) {
		d->tcap = (d->tlen + n + 1) * 2;
		d->text = realloc(d->text, d->tcap);
		if (d->text == NULL)
			abort();
	}
	at = (long)d->tlen;
	memcpy(d->text + d->tlen, s, n);
	d->tlen += n;
	d->text[d->tlen++] = '\0';
	return at;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Returns the text offset + 1 of the decoded string, 0 on error. */
static long str(struct pstate *s)
{
	char buf[4096];
	size_t n = 0;

	if (*s->p != '"')
		return 0;
	s->p++;
	while (*s->p != '"') {
		char c = *s->p++;

		if (c == '\0' || (unsigned char)c < 0x20 || n + 1 >= sizeof(buf))
			return 0;
		if (c == '\\') {
			c = *s->p++;
			switch (c) {
			case '"':
			case '\\':
			case '/':
				break;
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'u': {
				int v = 0, i, h;

				for (i = 0; i < 4; i++) {
					h = hexval(*s->p++);
					if (h < 0)
						return 0;
					v = v * 16 + h;
				}
				if (v == 0 || v > 0xff)
					return 0;
				c = (char)v;
				break;
			}
			default:
				return 0;
			}
		}
		buf[n++] = c;
	}
	s->p++;
	return put_text(s->d, buf, n) + 1;
}

static int value(struct pstate *s);

static int container(struct pstate *s, bool obj)
{
	int me = newval(s->d, obj ? J_OBJ : J_ARR), last = -1, child;
	long key = 0;

	s->p++;
	ws(s);
	if (*s->p == (obj ? '}' : ']')) {
		s->p++;
		return me;
	}
	for (;;) {
		ws(s);
		if (obj) {
			key = str(s);
			if (key == 0)
				return -1;
			ws(s);
			if (*s->p++ != ':')
				return -1;
		}
		child = value(s);
		if (child < 0)
			return -1;
		s->d->v[child].key = (char *)(intptr_t)key; /* offset + 1, fixed up later */
		if (last < 0)
			s->d->v[me].first = child;
		else
			s->d->v[last].next = child;
		last = child;
		s->d->v[me].n++;
		ws(s);
		if (*s->p == ',') {
			s->p++;
			continue;
		}
		if (*s->p++ != (obj ? '}' : ']'))
			return -1;
		return me;
	}
}

static int value(struct pstate *s)
{
	int v;
	long t;

	ws(s);
	if (++s->depth > 64)
		return -1;
	switch (*s->p) {
	case '{':
	case '[':
		v = container(s, *s->p == '{');
		break;
	case '"':
		t = str(s);
		if (t == 0)
			return -1;
		v = newval(s->d, J_STR);
		s->d->v[v].s = (char *)(intptr_t)t;
		break;
	case 't':
	case 'f':
	case 'n':
		if (strncmp(s->p, "true", 4) == 0) {
			v = newval(s->d, J_BOOL);
			s->d->v[v].b = true;
			s->p += 4;
		} else if (strncmp(s->p, "false", 5) == 0) {
			v = newval(s->d, J_BOOL);
			s->p += 5;
		} else if (strncmp(s->p, "null", 4) == 0) {
			v = newval(s->d, J_NULL);
			s->p += 4;
		} else {
			return -1;
		}
		break;
	default: {
		const char *start = s->p;
		uint64_t u = 0;
		bool ok = true;

		if (*s->p == '-')
			s->p++;
		if (*s->p < '0' || *s->p > '9')
			return -1;
		while (*s->p >= '0' && *s->p <= '9') {
			unsigned int dgt = (unsigned int)(*s->p - '0');

			if (u > (UINT64_MAX - dgt) / 10)
				ok = false;
			u = u * 10 + dgt;
			s->p++;
		}
		if (*s->p == '.' || *s->p == 'e' || *s->p == 'E' || *start == '-') {
			ok = false;
			while (strchr("0123456789.eE+-", *s->p) != NULL && *s->p != '\0')
				s->p++;
		}
		v = newval(s->d, J_NUM);
		s->d->v[v].is_uint = ok;
		s->d->v[v].u = ok ? u : 0;
		break;
	}
	}
	s->depth--;
	return v;
}

int json_parse(struct jdoc *d, const char *src)
{
	struct pstate s = {.d = d, .p = src, .depth = 0};
	int root;
	size_t i;

	memset(d, 0, sizeof(*d));
	root = value(&s);
	ws(&s);
	if (root < 0 || *s.p != '\0')
		return -1;
	for (i = 0; i < d->nv; i++) {
		if (d->v[i].s != NULL)
			d->v[i].s = d->text + ((intptr_t)d->v[i].s - 1);
		if (d->v[i].key != NULL)
			d->v[i].key = d->text + ((intptr_t)d->v[i].key - 1);
	}
	return root;
}

void json_free(struct jdoc *d)
{
	free(d->v);
	free(d->text);
	memset(d, 0, sizeof(*d));
}

const struct jval *json_get(const struct jdoc *d, const struct jval *obj, const char *key)
{
	int i;

	if (obj == NULL || obj->type != J_OBJ)
		return NULL;
	for (i = obj->first; i >= 0; i = d->v[i].next)
		if (strcmp(d->v[i].key, key) == 0)
			return &d->v[i];
	return NULL;
}

const struct jval *json_at(const struct jdoc *d, const struct jval *arr, size_t i)
{
	int k;

	if (arr == NULL || (arr->type != J_ARR && arr->type != J_OBJ))
		return NULL;
	for (k = arr->first; k >= 0 && i > 0; k = d->v[k].next)
		i--;
	return k >= 0 ? &d->v[k] : NULL;
}
