/*
 * Simulator object, virtual time and event loop, interrupt delivery, the
 * port facilities tied to virtual time, and counting/tracing.
 *
 * Callbacks (interrupt handler, SYS-DMAC completions, deferred work) run only
 * from sim_deliver_(), at the end of a top-level entry and never while the
 * port lock is held, so a handler never re-enters an access in progress.
 */
#include "sim_priv.h"

#include <stdio.h>

int mmchal_sim_config_defaults(struct mmchal_sim_config *cfg, enum mmchal_sim_soc soc)
{
	bool gen2 = soc == MMCHAL_SIM_SOC_GEN2;

	if (!cfg || (soc != MMCHAL_SIM_SOC_GEN3 && !gen2 && soc != MMCHAL_SIM_SOC_H3_ES1 &&
		     soc != MMCHAL_SIM_SOC_M3W_ES10))
		return MMCHAL_EINVAL;
	memset(cfg, 0, sizeof(*cfg));
	cfg->bus_shift = gen2 ? 1 : 2;
	cfg->version = gen2 ? 0xcb0du : 0xcd10u;
	/* The old DM_CM_INFO1 layout: H3 ES1.x and M3-W ES1.0 (U-Boot, TF-A; REF). */
	cfg->dmac_old_info1 = soc == MMCHAL_SIM_SOC_H3_ES1 || soc == MMCHAL_SIM_SOC_M3W_ES10;
	cfg->base_clock_hz = 200000000u;
	/* SDHI0 (mmc@ee100000) of R-Car Gen2 and Gen3 boards (shared/data/dt). */
	cfg->reg_phys = 0xee100000u;
	cfg->rx_port_offset = 0x2000u;
	cfg->reg_access_ns = 100u;
	cfg->irq_latency_ns = 2000u;
	cfg->ncr_clocks = 2u;
	cfg->ncr_max_clocks = 64u;
	cfg->idmac_align = 128u;
	cfg->idmac_addr_bits = 32u;
	cfg->sysdmac_max_segs = 32u;
	cfg->sysdmac_addr_bits = 40u;
	cfg->sysdmac_max_seg = 0x00ffffffu;
	cfg->trace_depth = 256u;
	return 0;
}

static bool pow2(uint32_t v)
{
	return v && !(v & (v - 1u));
}

int mmchal_sim_create(const struct mmchal_sim_config *cfg, struct mmchal_sim **out)
{
	struct mmchal_sim_config def;
	struct mmchal_sim *sim;

	if (!out)
		return MMCHAL_EINVAL;
	*out = NULL;
	if (!cfg) {
		mmchal_sim_config_defaults(&def, MMCHAL_SIM_SOC_GEN3);
		cfg = &def;
	}
	if (cfg->bus_shift > 2 || !cfg->base_clock_hz || !cfg->ncr_max_clocks ||
	    !pow2(cfg->idmac_align) || !cfg->idmac_addr_bits || cfg->idmac_addr_bits > 64 ||
	    !cfg->sysdmac_addr_bits || cfg->sysdmac_addr_bits > 64 || !cfg->sysdmac_max_segs ||
	    !cfg->sysdmac_max_seg)
		return MMCHAL_EINVAL;
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return MMCHAL_ENOMEM;
	sim->cfg = *cfg;
	sim->rd_count = calloc(MMCHAL_SIM_WINDOW, sizeof(uint64_t));
	sim->wr_count = calloc(MMCHAL_SIM_WINDOW, sizeof(uint64_t));
	if (cfg->trace_depth)
		sim->ring = calloc(cfg->trace_depth, sizeof(*sim->ring));
	for (unsigned i = 0; i < MMCHAL_DIR_COUNT; i++) {
		sim->chan[i].sim = sim;
		sim->chan[i].dir = (enum mmchal_dir)i;
		sim->chan[i].segs = calloc(cfg->sysdmac_max_segs, sizeof(struct mmchal_dma_seg));
		if (!sim->chan[i].segs)
			goto nomem;
	}
	if (!sim->rd_count || !sim->wr_count || (cfg->trace_depth && !sim->ring))
		goto nomem;
	for (unsigned i = 0; i < EV_COUNT; i++)
		sim->ev[i] = T_NEVER;
	sdhi_reset_(sim);
	idmac_reset_(sim);
	*out = sim;
	return 0;
nomem:
	mmchal_sim_destroy(sim);
	return MMCHAL_ENOMEM;
}

void mmchal_sim_destroy(struct mmchal_sim *sim)
{
	if (!sim)
		return;
	card_free_(sim);
	iommu_free_(sim);
	mem_free_(sim);
	sysdmac_free_(sim);
	free(sim->rd_count);
	free(sim->wr_count);
	free(sim->ring);
	free(sim);
}

uint64_t sim_splitmix_(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* ------------------------------------------------------------ time */

void sim_schedule_(struct mmchal_sim *sim, enum sim_ev ev, uint64_t t)
{
	sim->ev[ev] = t;
}

static int next_event(const struct mmchal_sim *sim)
{
	int best = -1;

	for (int i = 0; i < EV_COUNT; i++)
		if (sim->ev[i] != T_NEVER && (best < 0 || sim->ev[i] < sim->ev[best]))
			best = i;
	return best;
}

/* Run every event due at or before @t in time order, then set the clock to @t. */
void sim_advance_to_(struct mmchal_sim *sim, uint64_t t)
{
	for (;;) {
		int ev = next_event(sim);

		if (ev < 0 || sim->ev[ev] > t)
			break;
		if (sim->ev[ev] > sim->now)
			sim->now = sim->ev[ev];
		sim->ev[ev] = T_NEVER;
		if (ev == EV_FAULT)
			fault_time_event_(sim);
		else
			sdhi_event_(sim, (enum sim_ev)ev);
		sim_update_line_(sim);
	}
	if (t > sim->now)
		sim->now = t;
}

/*
 * Runs after every register access, every event and every change in the slot,
 * so it is also where the level-sensitive SDIO card interrupt is latched again
 * (sdhi_sdio_update_()) before the line is derived from the status.
 */
void sim_update_line_(struct mmchal_sim *sim)
{
	uint32_t st;
	bool line;

	sdhi_sdio_update_(sim);
	st = sdhi_status_(sim) & ST_LATCHED & ~sim->mask;
	line = st != 0 || idmac_status_(sim) != 0 ||
	       (sim->sdio_info1 & ~sim->sdio_info1_mask & SDIO_ST_IOIRQ) != 0;
	if (line && !sim->line)
		sim->line_rise = sim->now;
	sim->line = line;
}

bool mmchal_sim_irq_line(const struct mmchal_sim *sim)
{
	return sim && sim->line;
}

void sim_queue_done_(struct mmchal_sim *sim, mmchal_dma_done_fn fn, void *arg, int status)
{
	/* Two channels, each with one transfer: the queue cannot overflow. */
	if (sim->ndone < SIM_MAX_DONE)
		sim->done[sim->ndone++] = (struct sim_done){fn, arg, status};
}

static bool irq_due(const struct mmchal_sim *sim)
{
	return sim->line && sim->now >= sim->line_rise + sim->cfg.irq_latency_ns;
}

/* Returns MMCHAL_SIM_RUN_* bits for what ran. */
static unsigned deliver(struct mmchal_sim *sim)
{
	unsigned ran = 0;

	if (sim->in_cb || sim->lock_depth)
		return 0;
	sim->in_cb = true;
	while (sim->ndone) {
		struct sim_done d = sim->done[0];

		memmove(&sim->done[0], &sim->done[1], (sim->ndone - 1u) * sizeof(d));
		sim->ndone--;
		d.fn(d.arg, d.status);
		ran |= MMCHAL_SIM_RUN_DMA;
	}
	if (sim->irq_fn && irq_due(sim)) {
		sim->cnt.irqs++;
		sim->irq_fn(sim->irq_arg);
		ran |= MMCHAL_SIM_RUN_IRQ;
	}
	while (sim->nwork) {
		struct sim_work w = sim->work[0];

		memmove(&sim->work[0], &sim->work[1], (sim->nwork - 1u) * sizeof(w));
		sim->nwork--;
		w.fn(w.arg);
	}
	sim->in_cb = false;
	return ran;
}

void sim_deliver_(struct mmchal_sim *sim)
{
	(void)deliver(sim);
}

uint64_t mmchal_sim_now(const struct mmchal_sim *sim)
{
	return sim ? sim->now : 0;
}

void mmchal_sim_advance(struct mmchal_sim *sim, uint64_t ns)
{
	if (!sim)
		return;
	sim_advance_to_(sim, sim->now + ns);
	sim_deliver_(sim);
}

unsigned mmchal_sim_run(struct mmchal_sim *sim, uint64_t until_ns)
{
	if (!sim)
		return 0;
	for (;;) {
		int ev;
		uint64_t t;
		unsigned ran;

		if (sim->ndone && !sim->lock_depth && !sim->in_cb)
			return deliver(sim);
		if (irq_due(sim)) {
			ran = deliver(sim);
			return ran | MMCHAL_SIM_RUN_IRQ;
		}
		ev = next_event(sim);
		t = ev < 0 ? T_NEVER : sim->ev[ev];
		if (sim->line && sim->line_rise + sim->cfg.irq_latency_ns < t)
			t = sim->line_rise + sim->cfg.irq_latency_ns;
		if (t > until_ns) {
			sim_advance_to_(sim, until_ns);
			return deliver(sim);
		}
		sim_advance_to_(sim, t);
	}
}

void mmchal_sim_set_irq_handler(struct mmchal_sim *sim, mmchal_sim_irq_fn fn, void *arg)
{
	if (!sim)
		return;
	sim->irq_fn = fn;
	sim->irq_arg = arg;
}

/* ------------------------------------------------------------ port */

static uint64_t port_now(void *ctx)
{
	return ((struct mmchal_sim *)ctx)->now;
}

static void port_delay(void *ctx, uint32_t us)
{
	mmchal_sim_advance(ctx, (uint64_t)us * 1000u);
}

static mmchal_irqflags_t port_lock(void *ctx)
{
	struct mmchal_sim *sim = ctx;

	sim->lock_depth++;
	return sim->lock_depth;
}

static void port_unlock(void *ctx, mmchal_irqflags_t flags)
{
	struct mmchal_sim *sim = ctx;

	(void)flags;
	if (sim->lock_depth)
		sim->lock_depth--;
	/* A masked interrupt that is still pending is taken on unmasking. */
	sim_deliver_(sim);
}

static int port_work(void *ctx, mmchal_work_fn fn, void *arg)
{
	struct mmchal_sim *sim = ctx;

	if (!fn)
		return MMCHAL_EINVAL;
	if (sim->nwork >= SIM_MAX_WORK)
		return MMCHAL_EBUSY;
	sim->work[sim->nwork++] = (struct sim_work){fn, arg};
	return 0;
}

static void port_log(void *ctx, enum mmchal_log_level level, const char *msg, int64_t value)
{
	struct mmchal_sim *sim = ctx;
	static const char *const names[] = {"err", "warn", "info", "debug"};

	sim->cnt.logs++;
	if (sim->verbose && msg)
		fprintf(stderr, "[%12llu ns] %s: %s %lld\n", (unsigned long long)sim->now,
			(unsigned)level < 4u ? names[level] : "?", msg, (long long)value);
}

static const struct mmchal_port_ops sim_port_ops = {
	.lock_irqsave = port_lock,
	.unlock_irqrestore = port_unlock,
	.now_ns = port_now,
	.delay_us = port_delay,
	.schedule_work = port_work,
	.log = port_log,
};

int mmchal_sim_port(struct mmchal_sim *sim, struct mmchal_port *out)
{
	if (!sim || !out)
		return MMCHAL_EINVAL;
	out->ops = &sim_port_ops;
	out->ctx = sim;
	out->cache_line = 0;
	return 0;
}

void mmchal_sim_set_verbose(struct mmchal_sim *sim, bool on)
{
	if (sim)
		sim->verbose = on;
}

/* ------------------------------------------------------------ bus */

static bool is_port(const struct mmchal_sim *sim, uint32_t off)
{
	uint32_t port = SD_BUF0 << sim->cfg.bus_shift;

	return off == port || off == port + sim->cfg.rx_port_offset;
}

static bool is_dm(const struct mmchal_sim *sim, uint32_t off)
{
	return idmac_present_(sim) && off >= 0x800u && off < 0x900u;
}

static void account(struct mmchal_sim *sim, uint32_t off, uint64_t val, uint8_t width, bool wr)
{
	struct mmchal_sim_access a = {sim->now, off, val, width, wr};

	if (wr) {
		sim->cnt.writes++;
		if (off < MMCHAL_SIM_WINDOW)
			sim->wr_count[off]++;
	} else {
		sim->cnt.reads++;
		if (off < MMCHAL_SIM_WINDOW)
			sim->rd_count[off]++;
	}
	if (sim->ring) {
		uint32_t idx = (sim->ring_head + sim->ring_len) % sim->cfg.trace_depth;

		sim->ring[idx] = a;
		if (sim->ring_len < sim->cfg.trace_depth)
			sim->ring_len++;
		else
			sim->ring_head = (sim->ring_head + 1u) % sim->cfg.trace_depth;
	}
	if (sim->trace_fn)
		sim->trace_fn(sim->trace_arg, &a);
}

static void begin_access(struct mmchal_sim *sim)
{
	sim_advance_to_(sim, sim->now + sim->cfg.reg_access_ns);
}

static void end_access(struct mmchal_sim *sim)
{
	sim_update_line_(sim);
	sim_deliver_(sim);
}

/*
 * The 32-bit registers a 32-bit access at the logical offset reaches whole:
 * SD_ARG and SD_RSP10/32/54/76 (U-Boot tmio-common and Zephyr rcar_mmc write
 * SD_ARG and read the responses this way with bus_shift 2; REF).
 */
static bool is_wide32(uint32_t reg)
{
	return reg == SD_ARG || reg == SD_RSP0 || reg == SD_RSP0 + 4u || reg == SD_RSP0 + 8u ||
	       reg == SD_RSP0 + 12u;
}

static uint64_t do_read(struct mmchal_sim *sim, uint32_t off, uint32_t width)
{
	uint32_t reg = off >> sim->cfg.bus_shift;
	uint64_t v;

	if (is_port(sim, off)) {
		sim->cnt.port_reads++;
		return sdhi_port_read_(sim, width);
	}
	if (is_dm(sim, off))
		return idmac_read_(sim, off);
	if (off & ((1u << sim->cfg.bus_shift) - 1u))
		return 0;
	if (reg == SD_SECCNT)
		return sdhi_seccnt_read_(sim, width);
	v = sdhi_read_(sim, reg);
	if (width >= 4 && is_wide32(reg))
		v |= (uint64_t)sdhi_read_(sim, reg + 2u) << 16;
	/* A wider access to another 16-bit register returns it zero-extended. */
	return v;
}

static void do_write(struct mmchal_sim *sim, uint32_t off, uint64_t val, uint32_t width)
{
	if (is_port(sim, off)) {
		sim->cnt.port_writes++;
		sdhi_port_write_(sim, width, val);
		return;
	}
	if (is_dm(sim, off)) {
		idmac_write_(sim, off, val, width);
		return;
	}
	if (off & ((1u << sim->cfg.bus_shift) - 1u))
		return;
	if ((off >> sim->cfg.bus_shift) == SD_SECCNT) {
		sdhi_seccnt_write_(sim, width, (uint32_t)val);
		return;
	}
	if (width >= 4 && (off >> sim->cfg.bus_shift) == SD_ARG) {
		sdhi_write_(sim, SD_ARG, (uint16_t)val);
		sdhi_write_(sim, SD_ARG + 2u, (uint16_t)(val >> 16));
		return;
	}
	sdhi_write_(sim, off >> sim->cfg.bus_shift, (uint16_t)val);
}

static uint64_t bus_read(void *ctx, uint32_t off, uint32_t width)
{
	struct mmchal_sim *sim = ctx;
	uint64_t v;

	begin_access(sim);
	v = do_read(sim, off, width);
	account(sim, off, v, (uint8_t)width, false);
	end_access(sim);
	return v;
}

static void bus_write(void *ctx, uint32_t off, uint64_t val, uint32_t width)
{
	struct mmchal_sim *sim = ctx;

	begin_access(sim);
	account(sim, off, val, (uint8_t)width, true);
	do_write(sim, off, val, width);
	end_access(sim);
}

static uint16_t rd16(void *ctx, uint32_t off)
{
	return (uint16_t)bus_read(ctx, off, 2);
}

static void wr16(void *ctx, uint32_t off, uint16_t val)
{
	bus_write(ctx, off, val, 2);
}

static uint32_t rd32(void *ctx, uint32_t off)
{
	return (uint32_t)bus_read(ctx, off, 4);
}

static void wr32(void *ctx, uint32_t off, uint32_t val)
{
	bus_write(ctx, off, val, 4);
}

static uint64_t rd64(void *ctx, uint32_t off)
{
	return bus_read(ctx, off, 8);
}

static void wr64(void *ctx, uint32_t off, uint64_t val)
{
	bus_write(ctx, off, val, 8);
}

static const struct mmchal_bus_ops sim_bus_ops = {
	.read16 = rd16,
	.write16 = wr16,
	.read32 = rd32,
	.write32 = wr32,
	.read64 = rd64,
	.write64 = wr64,
};

int mmchal_sim_bus(struct mmchal_sim *sim, struct mmchal_bus *out)
{
	if (!sim || !out)
		return MMCHAL_EINVAL;
	out->ops = &sim_bus_ops;
	out->ctx = sim;
	out->bus_shift = sim->cfg.bus_shift;
	return 0;
}

/* ------------------------------------------------------------ counters and trace */

void mmchal_sim_set_trace(struct mmchal_sim *sim, mmchal_sim_trace_fn fn, void *arg)
{
	if (!sim)
		return;
	sim->trace_fn = fn;
	sim->trace_arg = arg;
}

uint32_t mmchal_sim_trace_count(const struct mmchal_sim *sim)
{
	return sim ? sim->ring_len : 0;
}

int mmchal_sim_trace_get(const struct mmchal_sim *sim, uint32_t idx, struct mmchal_sim_access *out)
{
	if (!sim || !out)
		return MMCHAL_EINVAL;
	if (idx >= sim->ring_len)
		return MMCHAL_ERANGE;
	*out = sim->ring[(sim->ring_head + idx) % sim->cfg.trace_depth];
	return 0;
}

uint64_t mmchal_sim_reg_reads(const struct mmchal_sim *sim, uint32_t off)
{
	return sim && off < MMCHAL_SIM_WINDOW ? sim->rd_count[off] : 0;
}

uint64_t mmchal_sim_reg_writes(const struct mmchal_sim *sim, uint32_t off)
{
	return sim && off < MMCHAL_SIM_WINDOW ? sim->wr_count[off] : 0;
}

void mmchal_sim_get_counters(const struct mmchal_sim *sim, struct mmchal_sim_counters *out)
{
	if (sim && out)
		*out = sim->cnt;
}

void mmchal_sim_reset_counters(struct mmchal_sim *sim)
{
	if (!sim)
		return;
	memset(&sim->cnt, 0, sizeof(sim->cnt));
	memset(sim->rd_count, 0, MMCHAL_SIM_WINDOW * sizeof(uint64_t));
	memset(sim->wr_count, 0, MMCHAL_SIM_WINDOW * sizeof(uint64_t));
	sim->ring_head = 0;
	sim->ring_len = 0;
}
