/**
 * @file
 * @brief Device-tree probe: SDHI nodes -> backend configuration, capabilities
 *        and limits, each derived fact with its reason.
 *
 * The blob is checked completely first (dt/fdt_check.c); then one iterative
 * walk over the structure block keeps the path and the ancestors of the
 * current node on a bounded stack and derives every SDHI node it meets
 * (dt/dt_node.c). Nothing recurses, nothing allocates.
 *
 * Locking: none; any context. The caller owns the blob and the results.
 */
#include <mmchal/dt.h>
#include <mmchal/error.h>

#include "core/mem.h"
#include "dt/dt_node.h"
#include "dt/fdt.h"

int mmchal_dt_check(const void *blob, size_t size)
{
	struct mmchal_fdt_ f;

	if (blob == NULL)
		return MMCHAL_EINVAL;
	return mmchal_fdt_init_(&f, blob, size, MMCHAL_DT_MAX_DEPTH, MMCHAL_DT_MAX_NODES);
}

static char lower(char c)
{
	if (c >= 'A' && c <= 'Z')
		return (char)(c - 'A' + 'a');
	return c;
}

/* One decimal number of 1..3 digits, at most 255. */
static const char *parse_u8(const char *s, uint8_t *out)
{
	unsigned int v = 0, n = 0;

	while (*s >= '0' && *s <= '9' && n < 4u) {
		v = v * 10u + (unsigned int)(*s - '0');
		s++;
		n++;
	}
	if (n == 0 || n > 3u || v > 255u)
		return NULL;
	*out = (uint8_t)v;
	return s;
}

int mmchal_dt_parse_revision(const char *text, uint8_t *major, uint8_t *minor)
{
	const char *s = text;
	uint8_t ma, mi;

	if (text == NULL || major == NULL || minor == NULL)
		return MMCHAL_EINVAL;
	if (lower(s[0]) == 'e' && lower(s[1]) == 's')
		s += 2;
	s = parse_u8(s, &ma);
	if (s == NULL || *s != '.' || ma == 0)
		return MMCHAL_EINVAL;
	s = parse_u8(s + 1, &mi);
	if (s == NULL || *s != '\0')
		return MMCHAL_EINVAL;
	*major = ma;
	*minor = mi;
	return 0;
}

/* The SoC a root compatible names, for the revision quirks. */
static enum mmchal_sdhi_rev rev_of(const struct mmchal_dt_board *b)
{
	uint32_t i;
	bool h3 = false, m3w = false;

	if (b->rev_major == 0)
		return MMCHAL_SDHI_REV_UNKNOWN;
	for (i = 0; i < mmchal_dt_board_n_(b); i++) {
		h3 |= mmchal_dt_streq_(mmchal_dt_board_compat_(b, i), "renesas,r8a7795");
		m3w |= mmchal_dt_streq_(mmchal_dt_board_compat_(b, i), "renesas,r8a7796");
	}
	if (h3) {
		if (b->rev_major == 1)
			return MMCHAL_SDHI_REV_H3_ES1;
		if (b->rev_major == 2)
			return MMCHAL_SDHI_REV_H3_ES2;
		return MMCHAL_SDHI_REV_H3_ES3;
	}
	if (m3w) {
		if (b->rev_major == 1 && b->rev_minor == 0)
			return MMCHAL_SDHI_REV_M3W_ES10;
		return MMCHAL_SDHI_REV_M3W_LATER;
	}
	return MMCHAL_SDHI_REV_UNKNOWN;
}

static void read_board(const struct mmchal_fdt_ *f, uint32_t root, struct mmchal_dt_board *b)
{
	const uint8_t *p;
	uint32_t len, i, n;

	p = mmchal_fdt_getprop_(f, root, "compatible", &len);
	n = mmchal_fdt_stringlist_count_(p, len);
	b->ncompat = n;
	for (i = 0; i < n && i < MMCHAL_DT_BOARD_MAX; i++)
		b->compat[i] = mmchal_fdt_stringlist_get_(p, len, i, NULL);
	/* By convention the most specific comes first: the SoC is the last entry. */
	if (n > 0)
		b->soc = mmchal_fdt_stringlist_get_(p, len, n - 1u, NULL);
	p = mmchal_fdt_getprop_(f, root, "model", &len);
	if (mmchal_fdt_stringlist_ok_(p, len))
		b->model = (const char *)p;
}

/* Append "/name" to the path of depth @p d; false when it does not fit. */
static bool path_push(struct mmchal_dt_walk_ *w, uint32_t d, const char *name, uint32_t len)
{
	uint32_t at = w->path_len[d - 1u], sep = at > 1u ? 1u : 0u;

	if (w->path_long[d - 1u] || at + sep + len >= MMCHAL_DT_PATH_MAX)
		return false;
	if (sep)
		w->path[at++] = '/';
	memcpy(w->path + at, name, len);
	at += len;
	w->path[at] = '\0';
	w->path_len[d] = at;
	return true;
}

int mmchal_dt_probe(const void *blob, size_t size, const struct mmchal_dt_opts *opts,
		    struct mmchal_dt_board *board, struct mmchal_dt_node *nodes, size_t max,
		    size_t *nfound)
{
	static const struct mmchal_dt_opts no_opts;
	struct mmchal_fdt_ f;
	struct mmchal_fdt_tok_ tok;
	struct mmchal_dt_walk_ w;
	uint32_t off = 0, depth = 0;
	size_t found = 0;
	int rc;

	if (blob == NULL || nfound == NULL || (nodes == NULL && max > 0))
		return MMCHAL_EINVAL;
	*nfound = 0;
	if (opts == NULL)
		opts = &no_opts;
	memset(&w, 0, sizeof(w));
	if (opts->soc_revision != NULL &&
	    mmchal_dt_parse_revision(opts->soc_revision, &w.board.rev_major, &w.board.rev_minor) !=
		    0)
		return MMCHAL_EINVAL;
	rc = mmchal_fdt_init_(&f, blob, size, MMCHAL_DT_MAX_DEPTH, MMCHAL_DT_MAX_NODES);
	if (rc != 0)
		return rc;
	w.f = &f;
	w.opts = opts;

	for (;;) {
		rc = mmchal_fdt_token_(&f, off, &tok);
		if (rc != 0)
			return rc; /* cannot happen after the check; never trust it */
		if (tok.tag == FDT_END_)
			break;
		if (tok.tag == FDT_BEGIN_NODE_) {
			if (depth >= MMCHAL_DT_MAX_DEPTH)
				return MMCHAL_ERANGE;
			w.stack[depth] = off;
			if (depth == 0) {
				read_board(&f, off, &w.board);
				w.board.rev = rev_of(&w.board);
				w.path[0] = '/';
				w.path[1] = '\0';
				w.path_len[0] = 1;
				w.path_long[0] = false;
			} else {
				w.path_long[depth] = !path_push(&w, depth, tok.name, tok.name_len);
				/* Too long: the node keeps its parent's path (the buffer may
				   hold a deeper path of an earlier node: cut it there). */
				if (w.path_long[depth]) {
					w.path_len[depth] = w.path_len[depth - 1u];
					w.path[w.path_len[depth]] = '\0';
				}
			}
			if (depth > 0 && mmchal_dt_is_sdhi_(&f, off)) {
				if (found < max)
					mmchal_dt_node_probe_(&w, depth, &nodes[found]);
				found++;
			}
			depth++;
		} else if (tok.tag == FDT_END_NODE_) {
			if (depth == 0)
				return MMCHAL_EPROTO;
			depth--;
		}
		off = tok.next;
	}
	if (board != NULL)
		*board = w.board;
	*nfound = found;
	return found > max ? MMCHAL_ENOSPC : 0;
}
