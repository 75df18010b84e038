/**
 * @file
 * @brief Internal: the state of the probe walk and the derivation of one node.
 *
 * Locking: none; the caller owns the walk and the results.
 */
#ifndef MMCHAL_DT_NODE_H
#define MMCHAL_DT_NODE_H

#include <mmchal/dt.h>

#include "dt/fdt.h"

/* Most phandle look-ups (each a pass over the structure block) per probe call. */
#define MMCHAL_DT_PHANDLE_SCANS_ 64u

/* The walk: the current node's ancestors (stack[0] = root) and path. */
struct mmchal_dt_walk_ {
	const struct mmchal_fdt_ *f;
	const struct mmchal_dt_opts *opts;
	struct mmchal_dt_board board;
	uint32_t stack[MMCHAL_DT_MAX_DEPTH];    /* node offsets, root first */
	uint32_t path_len[MMCHAL_DT_MAX_DEPTH]; /* length of the path at each depth */
	bool path_long[MMCHAL_DT_MAX_DEPTH];    /* the path at this depth did not fit */
	char path[MMCHAL_DT_PATH_MAX];
	uint32_t ph_scans; /* phandle look-ups done */
	bool ph_valid;     /* ph_last / ph_node hold the last look-up */
	uint32_t ph_last;
	uint32_t ph_node;
};

/*
 * The root compatibles the SoC rules look at: the first MMCHAL_DT_BOARD_MAX
 * kept in @p b, then, when there were more, the last one (the SoC by
 * convention, kept in b->soc). Index @p i below mmchal_dt_board_n_().
 */
uint32_t mmchal_dt_board_n_(const struct mmchal_dt_board *b);
const char *mmchal_dt_board_compat_(const struct mmchal_dt_board *b, uint32_t i);

/* NUL-terminated string equality. */
bool mmchal_dt_streq_(const char *a, const char *b);

/*
 * Whether a node is an SDHI controller: one of its compatibles is in the SoC
 * table or is named like an SDHI ("renesas,sdhi-*", "renesas,*-sdhi").
 */
bool mmchal_dt_is_sdhi_(const struct mmchal_fdt_ *f, uint32_t node);

/* Derive everything about the node at w->stack[depth] into @p n. */
void mmchal_dt_node_probe_(struct mmchal_dt_walk_ *w, uint32_t depth, struct mmchal_dt_node *n);

#endif /* MMCHAL_DT_NODE_H */
