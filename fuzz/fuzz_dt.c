/*
 * libFuzzer target: the input is a device-tree blob (seeds: the shared boards
 * in ../shared/data/dt, passed as a second corpus directory at run time; see
 * tests/fuzz/dt/README.md). The probe must return a defined result, never
 * read outside the input (ASan), and on success give results that stay inside
 * the blob and agree with mmchal_dt_check(). Any broken property aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/dt.h>
#include <mmchal/error.h>

#define MAXN 8

static struct mmchal_dt_node nodes[MAXN];

static void inside(const uint8_t *blob, size_t size, const char *s)
{
	if (s == NULL)
		return;
	if ((const uint8_t *)s < blob || (const uint8_t *)s >= blob + size)
		abort();
	if (memchr(s, 0, (size_t)(blob + size - (const uint8_t *)s)) == NULL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The input length picks the revision input, so the seeds stay real blobs. */
	static const char *const revs[] = {NULL, "ES1.0", "ES2.0", "ES3.0"};
	struct mmchal_dt_opts opts = {.soc_revision = revs[size % 4u]};
	struct mmchal_dt_board board;
	size_t found = 0, i, j;
	int rc, check;

	memset(&board, 0, sizeof(board));
	rc = mmchal_dt_probe(data, size, &opts, &board, nodes, MAXN, &found);
	check = mmchal_dt_check(data, size);
	if (rc != 0 && rc != MMCHAL_EPROTO && rc != MMCHAL_ERANGE && rc != MMCHAL_ENOSPC)
		abort();
	/* The probe rejects exactly what the check rejects. */
	if ((rc == MMCHAL_EPROTO || rc == MMCHAL_ERANGE) != (check != 0))
		abort();
	if (rc != 0 && rc != MMCHAL_ENOSPC)
		return 0;
	if ((rc == MMCHAL_ENOSPC) != (found > MAXN))
		abort();
	for (i = 0; i < board.ncompat && i < MMCHAL_DT_BOARD_MAX; i++)
		inside(data, size, board.compat[i]);
	inside(data, size, board.model);
	inside(data, size, board.soc);
	for (i = 0; i < found && i < MAXN; i++) {
		const struct mmchal_dt_node *n = &nodes[i];

		if (memchr(n->path, 0, sizeof(n->path)) == NULL || n->path[0] != '/')
			abort();
		inside(data, size, n->compatible);
		if (n->nwhy > MMCHAL_DT_WHY_MAX)
			abort();
		for (j = 0; j < n->nwhy; j++)
			if (memchr(n->why[j].text, 0, sizeof(n->why[j].text)) == NULL)
				abort();
		if (n->supported != (n->soc != NULL))
			abort();
		if (!n->supported || n->error != 0)
			continue;
		/* A node read completely has a register window and usable limits. */
		if (n->reg_size == 0 || n->bus_shift > 2 || n->cfg.soc != n->soc)
			abort();
		for (j = 0; j < MMCHAL_DT_CARD_COUNT; j++)
			if (n->limits[j].max_segs == 0 || n->limits[j].max_req_size == 0)
				abort();
	}
	return 0;
}
