/**
 * @file
 * @brief The host object: set-up and take-down, the host ops table an MMC
 *        stack drives, and the queries (limits, counters, explanation).
 *
 * Locking: every entry takes the host lock (host_priv.h) for as long as it
 * reads or writes shared state and calls backend ops with it held, as
 * backend.h requires; mmchal_host_init() probes the backend before the host
 * is live, without the lock. The request path is in request.c.
 */
#include <mmchal/config.h>
#include <mmchal/host_core.h>
#include <mmchal/error.h>

#include "core/host_priv.h"
#include "core/mem.h"
#include "core/strbuf.h"

static int derive(struct mmchal_host *h, enum mmchal_card_type card, struct mmchal_limits *out)
{
	struct mmchal_port_caps pc = {
		.lock = mmchal_port_has_lock(&h->port),
		.deferred_work = mmchal_port_has_work(&h->port),
	};

	return mmchal_limits_derive(&h->caps, &pc, &h->policy, card, out) == 0 ? 0 : MMCHAL_EINVAL;
}

static mmchal_irqflags_t no_lock(void *ctx)
{
	(void)ctx;
	return (mmchal_irqflags_t)0; /* handed to no_unlock(), which ignores it */
}

static void no_unlock(void *ctx, mmchal_irqflags_t flags)
{
	(void)ctx;
	(void)flags;
}

int mmchal_host_init(struct mmchal_host *host, const struct mmchal_host_cfg *cfg)
{
	struct mmchal_host *h = host;
	int err;

	if (!h || !cfg || !cfg->backend || !cfg->port)
		return MMCHAL_EINVAL;
	memset(h, 0, sizeof(*h));
	if (mmchal_backend_check(cfg->backend) != 0 || mmchal_port_check(cfg->port) != 0)
		return MMCHAL_EINVAL;
	if ((cfg->seg_table == NULL) != (cfg->seg_table_len == 0))
		return MMCHAL_EINVAL;
	h->be = *cfg->backend;
	h->port = *cfg->port;
	if (h->port.cache_line == 0)
		h->port.cache_line = MMCHAL_CACHE_LINE_DEFAULT;
	h->dom = cfg->iommu;
	h->bounce = cfg->bounce;
	h->policy = cfg->policy;
	h->cmd_timeout_ms = cfg->cmd_timeout_ms ? cfg->cmd_timeout_ms
						: MMCHAL_HOST_CMD_TIMEOUT_MS_DEFAULT;
	h->data_timeout_ms = cfg->data_timeout_ms ? cfg->data_timeout_ms
						  : MMCHAL_HOST_DATA_TIMEOUT_MS_DEFAULT;
	h->busy_timeout_ms = cfg->busy_timeout_ms ? cfg->busy_timeout_ms
						  : MMCHAL_HOST_BUSY_TIMEOUT_MS_DEFAULT;
	h->cmd_timeout_ns = (uint64_t)h->cmd_timeout_ms * 1000000u;
	h->data_timeout_ns = (uint64_t)h->data_timeout_ms * 1000000u;
	/* a port without a lock pair runs in one context (port.h) */
	h->lock = h->port.ops->lock_irqsave ? h->port.ops->lock_irqsave : no_lock;
	h->unlock = h->port.ops->unlock_irqrestore ? h->port.ops->unlock_irqrestore : no_unlock;
	h->now = h->port.ops->now_ns;
	h->be_start = h->be.ops->start;
	h->be_irq = h->be.ops->handle_irq;
	h->be_blocks = h->be.ops->blocks_done;
	h->pio_retry = cfg->pio_retry;
	h->card_change = cfg->card_change;
	h->card_change_arg = cfg->card_change_arg;
	h->sdio_irq = cfg->sdio_irq;
	h->sdio_irq_arg = cfg->sdio_irq_arg;
	/* No cache ops means the port's DMA is cache-coherent (port.h). */
	h->noncoherent = h->port.ops->cache_clean != NULL;
	if (cfg->seg_table) {
		h->segs = cfg->seg_table;
		h->segs_len = cfg->seg_table_len;
	} else {
		h->segs = &h->seg1;
		h->segs_len = 1;
	}

	err = h->be.ops->probe(h->be.ctx);
	if (err == 0)
		err = h->be.ops->get_caps(h->be.ctx, &h->caps.host, &h->caps.dma);
	if (err != 0)
		goto fail;
#if !MMCHAL_WITH_SDIO
	/* No SDIO interrupt path in this build (config.h): none is offered to the
	   stack above, and an owner waiting for the callback is refused, as a
	   host naming a left-out IOMMU layer or pool is. */
	h->caps.host.bus &= ~MMCHAL_BUS_SDIO_IRQ;
	if (cfg->sdio_irq) {
		err = MMCHAL_EINVAL;
		goto fail;
	}
#endif
#if MMCHAL_WITH_IOMMU
	if (h->dom && mmchal_iommu_domain_get_caps(h->dom, &h->caps.iommu) != 0) {
		err = MMCHAL_EINVAL;
		goto fail;
	}
	if (h->dom && !h->caps.iommu.present) {
		err = MMCHAL_EINVAL;
		goto fail;
	}
#else
	/* The stand-in domain (iommu_off.c) refuses every domain and writes
	   nothing: a host naming one is refused without asking it. */
	if (h->dom) {
		err = MMCHAL_EINVAL;
		goto fail;
	}
#endif
#if MMCHAL_WITH_BOUNCE
	if (mmchal_bounce_get_caps(h->bounce, &h->caps.bounce) != 0) {
		err = MMCHAL_EINVAL;
		goto fail;
	}
#else
	/* The stand-in pool (bounce_off.c) answers "no pool", all zeros as the
	   memset above left h->caps.bounce, for none and refuses a pool: the
	   same without asking it. */
	if (h->bounce) {
		err = MMCHAL_EINVAL;
		goto fail;
	}
#endif
	err = derive(h, MMCHAL_CARD_UNKNOWN, &h->limits);
	if (err != 0)
		goto fail;
	mmchal_host_plan_env_(h);
	h->state = HS_IDLE;
	h->magic = HOST_MAGIC;
	return 0;
fail:
	memset(h, 0, sizeof(*h));
	return err < 0 ? err : MMCHAL_EINVAL;
}

void mmchal_host_deinit(struct mmchal_host *host)
{
	if (!host_live_(host))
		return;
	(void)mmchal_host_abort(host);
	host->magic = 0;
}

const struct mmchal_limits *mmchal_host_limits(const struct mmchal_host *host)
{
	return host_live_(host) ? &host->limits : NULL;
}

#if MMCHAL_WITH_STATS
/* Under the lock, no mapping or release in progress: the domain's and the
 * pool's figures into the host's counters. */
static void read_usage(struct mmchal_host *host)
{
	struct mmchal_host_stats *st = &host->st;

	if (MMCHAL_WITH_IOMMU && host->dom) {
		struct mmchal_iommu_domain_stats ds;

		if (mmchal_iommu_domain_get_stats(host->dom, &ds) == 0) {
			st->iova_pages = (uint32_t)ds.pages_mapped;
			st->iova_pages_peak = (uint32_t)ds.pages_peak;
		}
	}
	st->bounce_slots = mmchal_bounce_in_use(host->bounce);
	st->bounce_slots_peak = mmchal_bounce_peak(host->bounce);
}
#endif

int mmchal_host_stats(struct mmchal_host *host, struct mmchal_host_stats *st)
{
	if (!host_live_(host) || !st)
		return MMCHAL_EINVAL;
#if MMCHAL_WITH_STATS
	mmchal_irqflags_t f = host_lock_(host);

	/* The domain and the pool count for themselves. While a request is being
	 * mapped (PREP) or released (DONE), its owner works on them without the
	 * lock: reading them then would race, so the figures last read stand. */
	if (host->state != HS_PREP && host->state != HS_DONE)
		read_usage(host);
	*st = host->st;
	host_unlock_(host, f);
	return 0;
#else
	memset(st, 0, sizeof(*st));
	return MMCHAL_ENOTSUP;
#endif
}

_Static_assert(MMCHAL_HOST_ERR_SLOTS == 1 - MMCHAL_EROFS,
	       "one slot of the errors by kind per error code");

/* ------------------------------------------------------------------ host ops */

/* The ops that run under the lock, in one dispatcher: each op is a tail call
 * with its number and its argument, and the liveness check, the lock and the
 * idle check exist once. The ops from OP_IDLE_ONLY_ on run only when no
 * request is in flight (MMCHAL_EBUSY otherwise); the others in any state. */
enum host_op_ {
	OP_CARD_BUSY,
	OP_GET_CD,
	OP_GET_RO,
	OP_GET_LIMITS, /* arg: struct mmchal_limits * */
	OP_SDIO_IRQ,   /* arg: enable */
	OP_IDLE_ONLY_,
	OP_INIT_CARD = OP_IDLE_ONLY_, /* arg: enum mmchal_card_type */
	OP_SET_IOS,                   /* arg: const struct mmchal_ios * */
	OP_HW_RESET,
	OP_TUNING, /* arg: opcode */
};

static int init_card(struct mmchal_host *h, enum mmchal_card_type type)
{
	struct mmchal_limits lim;
	int err = derive(h, type, &lim);

	if (err == 0) {
		h->limits = lim;
		mmchal_host_plan_env_(h);
	}
	return err;
}

static int host_call(void *ctx, enum host_op_ op, uintptr_t arg)
{
	struct mmchal_host *h = ctx;
	const struct mmchal_backend_ops *o;
	mmchal_irqflags_t f;
	int ret;

	if (!host_live_(h))
		return MMCHAL_EINVAL;
	o = h->be.ops;
	f = host_lock_(h);
	if (op >= OP_IDLE_ONLY_ && h->state != HS_IDLE) {
		ret = MMCHAL_EBUSY;
	} else {
		switch (op) {
		case OP_CARD_BUSY:
			ret = mmchal_backend_card_busy(&h->be);
			break;
		case OP_GET_CD:
			ret = mmchal_backend_get_cd(&h->be);
			break;
		case OP_GET_RO:
			ret = mmchal_backend_get_ro(&h->be);
			break;
		case OP_GET_LIMITS:
			*(struct mmchal_limits *)arg = h->limits;
			ret = 0;
			break;
#if MMCHAL_WITH_SDIO
		case OP_SDIO_IRQ:
			ret = o->enable_sdio_irq ? o->enable_sdio_irq(h->be.ctx, arg != 0)
						 : MMCHAL_ENOTSUP;
			break;
#endif
		case OP_INIT_CARD:
			ret = init_card(h, (enum mmchal_card_type)arg);
			break;
		case OP_SET_IOS:
			ret = o->set_ios(h->be.ctx, (const struct mmchal_ios *)arg);
			break;
		case OP_HW_RESET:
			ret = mmchal_backend_hw_reset(&h->be);
			break;
		default: /* OP_TUNING */
			ret = mmchal_backend_execute_tuning(&h->be, (uint32_t)arg);
			break;
		}
	}
	host_unlock_(h, f);
	return ret;
}

static int op_init_card(void *ctx, enum mmchal_card_type type)
{
	return host_call(ctx, OP_INIT_CARD, (uintptr_t)type);
}

static int op_request(void *ctx, struct mmchal_request *req)
{
	return mmchal_host_request(ctx, req);
}

static int op_card_busy(void *ctx)
{
	return host_call(ctx, OP_CARD_BUSY, 0);
}

/* Every field of @p ios inside its enum (types.h); the backend never sees another value. */
static bool ios_ok(const struct mmchal_ios *ios)
{
	return (ios->bus_width == MMCHAL_BUS_WIDTH_1 || ios->bus_width == MMCHAL_BUS_WIDTH_4 ||
		ios->bus_width == MMCHAL_BUS_WIDTH_8) &&
	       (unsigned)ios->timing <= (unsigned)MMCHAL_TIMING_MMC_HS400 &&
	       (unsigned)ios->power_mode <= (unsigned)MMCHAL_POWER_ON &&
	       (unsigned)ios->signal_voltage <= (unsigned)MMCHAL_SIGNAL_120;
}

static int op_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	if (!ios || !ios_ok(ios))
		return MMCHAL_EINVAL;
	return host_call(ctx, OP_SET_IOS, (uintptr_t)ios);
}

static int op_get_cd(void *ctx)
{
	return host_call(ctx, OP_GET_CD, 0);
}

static int op_get_ro(void *ctx)
{
	return host_call(ctx, OP_GET_RO, 0);
}

static int op_hw_reset(void *ctx)
{
	return host_call(ctx, OP_HW_RESET, 0);
}

static int op_execute_tuning(void *ctx, uint32_t opcode)
{
	/* the tuning blocks: SD CMD19, eMMC CMD21 (PROTOCOL.md) */
	if (opcode != 19u && opcode != 21u)
		return MMCHAL_EINVAL;
	return host_call(ctx, OP_TUNING, opcode);
}

#if MMCHAL_WITH_SDIO
static int op_enable_sdio_irq(void *ctx, bool enable)
{
	return host_call(ctx, OP_SDIO_IRQ, enable);
}
#else
/* No SDIO interrupt path in this build (config.h): the backend's is never
   turned on. */
static int op_enable_sdio_irq(void *ctx, bool enable)
{
	(void)enable;
	return host_live_(ctx) ? MMCHAL_ENOTSUP : MMCHAL_EINVAL;
}
#endif

static int op_request_sync(void *ctx, struct mmchal_request *req, uint32_t timeout_ms)
{
	return mmchal_host_request_sync(ctx, req, timeout_ms);
}

static int op_get_caps(void *ctx, struct mmchal_host_caps *caps)
{
	struct mmchal_host *h = ctx;

	if (!host_live_(h) || !caps)
		return MMCHAL_EINVAL;
	*caps = h->caps.host;
	return 0;
}

static int op_get_limits(void *ctx, struct mmchal_limits *limits)
{
	if (!limits)
		return MMCHAL_EINVAL;
	return host_call(ctx, OP_GET_LIMITS, (uintptr_t)limits);
}

const struct mmchal_host_ops mmchal_host_core_ops = {
	.init_card = op_init_card,
	.request = op_request,
	.card_busy = op_card_busy,
	.set_ios = op_set_ios,
	.get_cd = op_get_cd,
	.get_ro = op_get_ro,
	.hw_reset = op_hw_reset,
	.execute_tuning = op_execute_tuning,
	.enable_sdio_irq = op_enable_sdio_irq,
	.request_sync = op_request_sync,
	.get_caps = op_get_caps,
	.get_limits = op_get_limits,
};

/* ------------------------------------------------------------------ explain */

/* Append one line built in @p line, whole or not at all. */
static bool put_line(struct mmchal_strbuf_ *out, struct mmchal_strbuf_ *line)
{
	if (line->overflow || out->overflow || out->len + line->len + 1u > out->size) {
		out->overflow = true;
		return false;
	}
	mmchal_sb_puts_(out, line->buf);
	return true;
}

static bool put_count(struct mmchal_strbuf_ *out, const char *indent, const char *what, uint64_t n)
{
	char buf[200];
	struct mmchal_strbuf_ line;

	mmchal_sb_init_(&line, buf, sizeof(buf));
	mmchal_sb_puts_(&line, indent);
	mmchal_sb_puts_(&line, what);
	mmchal_sb_puts_(&line, ": ");
	mmchal_sb_putu_(&line, n);
	mmchal_sb_putc_(&line, '\n');
	return put_line(out, &line);
}

static void explain_stats(struct mmchal_strbuf_ *out, const struct mmchal_host_stats *st)
{
	static const struct {
		const char *name;
		size_t off;
	} counters[] = {
		{"requests", offsetof(struct mmchal_host_stats, requests)},
		{"completed", offsetof(struct mmchal_host_stats, completed)},
		{"bytes", offsetof(struct mmchal_host_stats, bytes)},
		{"rejected (invalid)", offsetof(struct mmchal_host_stats, rejected_invalid)},
		{"rejected (busy)", offsetof(struct mmchal_host_stats, rejected_busy)},
		{"timeouts", offsetof(struct mmchal_host_stats, timeouts)},
		{"aborts", offsetof(struct mmchal_host_stats, aborts)},
		{"PIO retries", offsetof(struct mmchal_host_stats, pio_retries)},
		{"IOMMU mappings the engine could not take",
		 offsetof(struct mmchal_host_stats, map_fallbacks)},
		{"requests the full checks validated",
		 offsetof(struct mmchal_host_stats, full_checks)},
		{"data phases the full planner planned",
		 offsetof(struct mmchal_host_stats, full_plans)},
		{"IOMMU mappings the full check examined",
		 offsetof(struct mmchal_host_stats, full_map_checks)},
		{"IOMMU unmap errors", offsetof(struct mmchal_host_stats, unmap_errors)},
	};

	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		uint64_t v;

		memcpy(&v, (const unsigned char *)st + counters[i].off, sizeof(v));
		if (!put_count(out, "", counters[i].name, v))
			return;
	}
	for (int p = 0; p < MMCHAL_PLAN_COUNT; p++) {
		char name[40];
		struct mmchal_strbuf_ nb;

		mmchal_sb_init_(&nb, name, sizeof(name));
		mmchal_sb_puts_(&nb, "plan ");
		mmchal_sb_puts_(&nb, mmchal_plan_name((enum mmchal_plan)p));
		if (!put_count(out, "", name, st->plan[p]))
			return;
		for (int r = 0; r < MMCHAL_PR_COUNT; r++) {
			if (st->reason[p][r] != 0 &&
			    !put_count(out, "  ",
				       mmchal_plan_reason_text((enum mmchal_plan_reason)r),
				       st->reason[p][r]))
				return;
		}
	}
	for (int n = 1; n < MMCHAL_NB_COUNT; n++) {
		if (st->nobounce[n] != 0 &&
		    !put_count(out, "PIO, not bounced: ",
			       mmchal_plan_nobounce_text((enum mmchal_plan_nobounce)n),
			       st->nobounce[n]))
			return;
	}
	for (int e = 1; e < MMCHAL_HOST_ERR_SLOTS; e++) {
		if (st->errors[e] != 0 &&
		    !put_count(out, "failed: ", mmchal_strerror(-e), st->errors[e]))
			return;
	}
	if (!put_count(out, "", "IOVA pages mapped", st->iova_pages) ||
	    !put_count(out, "", "IOVA pages mapped, peak", st->iova_pages_peak) ||
	    !put_count(out, "", "bounce slots in use", st->bounce_slots))
		return;
	(void)put_count(out, "", "bounce slots in use, peak", st->bounce_slots_peak);
}

int mmchal_host_explain(struct mmchal_host *host, char *buf, size_t size)
{
	struct mmchal_host_stats st;
	struct mmchal_strbuf_ out;
	int n;

	if (!host_live_(host) || !buf || size == 0)
		return MMCHAL_EINVAL;
	n = mmchal_limits_explain(&host->limits, buf, size);
	if (n < 0)
		return n;
	mmchal_sb_init_(&out, buf + n, size - (size_t)n);
	if (MMCHAL_WITH_STATS) {
		(void)mmchal_host_stats(host, &st);
		explain_stats(&out, &st);
	} else {
		char text[64];
		struct mmchal_strbuf_ line;

		mmchal_sb_init_(&line, text, sizeof(text));
		mmchal_sb_puts_(&line, "statistics: not kept (MMCHAL_WITH_STATS is 0)\n");
		(void)put_line(&out, &line);
	}
	if (out.overflow)
		return MMCHAL_ENOSPC;
	return n + (int)out.len;
}
