/**
 * @file
 * @brief Internal: what host.c (object, ops, queries) and request.c (request
 *        path, completion) share.
 *
 * Locking: host_lock_()/host_unlock_() are the port's lock pair, or nothing
 * on a port without one (polled hosts run in one context).
 */
#ifndef MMCHAL_CORE_HOST_PRIV_H
#define MMCHAL_CORE_HOST_PRIV_H

#include <mmchal/host_core.h>

#include "core/hints.h"

/* "MHST": the host is live. */
#define HOST_MAGIC 0x4d485354u

/* Completion states; the transition table is in request.c. */
enum host_state_ {
	HS_IDLE = 0, /* no request */
	HS_PREP,     /* claimed by a submitter: planning, mapping (no lock held) */
	HS_SBC,      /* SET_BLOCK_COUNT (CMD23) on the line */
	HS_CMD,      /* the command on the line, its data phase armed */
	HS_DATA,     /* command answered, data phase running */
	HS_STOP,     /* STOP_TRANSMISSION (CMD12) on the line */
	HS_BUSY,     /* waiting for the end of R1b busy on DAT0 */
	HS_DONE,     /* result decided: one context owns unmap, copy-back and done */
};

#if defined(__OPTIMIZE_SIZE__)
/* A build optimised for size (hints.h) calls the check instead of inlining
 * it, and would keep a copy of it in each file: one copy, in request.c. */
bool mmchal_host_live_(const struct mmchal_host *h);
#define host_live_ mmchal_host_live_
#else
static inline bool host_live_(const struct mmchal_host *h)
{
	return h && h->magic == HOST_MAGIC;
}
#endif

/* The port's lock pair, or no-ops (set by mmchal_host_init()). */
static inline mmchal_irqflags_t host_lock_(struct mmchal_host *h)
{
	return h->lock(h->port.ctx);
}

static inline void host_unlock_(struct mmchal_host *h, mmchal_irqflags_t f)
{
	h->unlock(h->port.ctx, f);
}

/* The host's counters; nothing at all in a library built without them
 * (MMCHAL_WITH_STATS 0, config.h), where only the host is "used". */
#if MMCHAL_WITH_STATS
#define HSTAT_ADD_(h, field, n) ((h)->st.field += (n))
#define HSTAT_SUB_(h, field, n) ((h)->st.field -= (n))
#else
#define HSTAT_ADD_(h, field, n) ((void)(h))
#define HSTAT_SUB_(h, field, n) ((void)(h))
#endif

/* Set host->penv from the caps and the current limits (request.c). */
void mmchal_host_plan_env_(struct mmchal_host *h);

#endif /* MMCHAL_CORE_HOST_PRIV_H */
