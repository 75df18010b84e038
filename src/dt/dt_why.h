/**
 * @file
 * @brief Internal: building the reason texts of a probed node.
 *
 * Locking: none; the caller owns the node.
 */
#ifndef MMCHAL_DT_WHY_H
#define MMCHAL_DT_WHY_H

#include <mmchal/dt.h>

#include "core/strbuf.h"

/*
 * Start a reason for @p fact: returns a builder for the node's next slot, or
 * (when the node's slots are full) for @p spare, after marking the node.
 */
struct mmchal_strbuf_ *mmchal_dt_why_begin_(struct mmchal_dt_node *n, enum mmchal_dt_fact fact,
					    struct mmchal_strbuf_ *sb,
					    char spare[MMCHAL_DT_WHY_LEN]);

/* Append a string of known length (not NUL-terminated in the blob). */
void mmchal_dt_why_putn_(struct mmchal_strbuf_ *sb, const char *s, uint32_t n);

/* A one-piece reason. */
void mmchal_dt_why_(struct mmchal_dt_node *n, enum mmchal_dt_fact fact, const char *text);

#endif /* MMCHAL_DT_WHY_H */
