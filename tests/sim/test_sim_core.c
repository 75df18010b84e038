/*
 * Simulator tests of the core: the configuration defaults and the check of
 * every field, virtual time in mmchal_sim_run(), the moment an interrupt is
 * taken, the order of deferred work and the trace ring once it wraps
 * (docs/sim.md sections 1, 2 and 10).
 */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drv.h"

/* The defaults of docs/sim.md section 2, per starting point. */
static void test_config_defaults_exact(void **state)
{
	static const enum mmchal_sim_soc socs[] = {MMCHAL_SIM_SOC_GEN3, MMCHAL_SIM_SOC_GEN2,
						   MMCHAL_SIM_SOC_H3_ES1, MMCHAL_SIM_SOC_M3W_ES10};
	struct mmchal_sim_config c;

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		bool gen2 = socs[i] == MMCHAL_SIM_SOC_GEN2;

		memset(&c, 0x5a, sizeof(c));
		assert_int_equal(mmchal_sim_config_defaults(&c, socs[i]), 0);
		assert_int_equal(c.bus_shift, gen2 ? 1 : 2);
		assert_int_equal(c.version, gen2 ? 0xcb0du : 0xcd10u);
		assert_int_equal(c.dmac_old_info1, i >= 2);
		assert_true(c.base_clock_hz == 200000000u);
		assert_true(c.reg_phys == 0xee100000u);
		assert_int_equal(c.rx_port_offset, 0x2000u);
		assert_true(c.reg_access_ns == 100u);
		assert_true(c.irq_latency_ns == 2000u);
		assert_int_equal(c.ncr_clocks, 2);
		assert_int_equal(c.ncr_max_clocks, 64);
		assert_int_equal(c.idmac_align, 128);
		assert_int_equal(c.idmac_addr_bits, 32);
		assert_false(c.idmac_fixed_addr_only);
		assert_int_equal(c.sysdmac_max_segs, 32);
		assert_int_equal(c.sysdmac_addr_bits, 40);
		assert_true(c.sysdmac_max_seg == 0xffffffu);
		assert_int_equal(c.trace_depth, 256);
	}
	assert_int_equal(mmchal_sim_config_defaults(&c, (enum mmchal_sim_soc)9), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_config_defaults(NULL, MMCHAL_SIM_SOC_GEN3), MMCHAL_EINVAL);
}

/* Each field the simulator needs is checked on its own (mmchal_sim_create()). */
static void test_config_rejects_each_bad_field(void **state)
{
	struct mmchal_sim_config c;
	struct mmchal_sim *sim;

	(void)state;
	for (int n = 0; n < 12; n++) {
		mmchal_sim_config_defaults(&c, MMCHAL_SIM_SOC_GEN3);
		switch (n) {
		case 0:
			c.bus_shift = 3;
			break;
		case 1:
			c.base_clock_hz = 0;
			break;
		case 2:
			c.ncr_max_clocks = 0;
			break;
		case 3:
			c.idmac_align = 96;
			break;
		case 4:
			c.idmac_addr_bits = 0;
			break;
		case 5:
			c.idmac_addr_bits = 65;
			break;
		case 6:
			c.sysdmac_addr_bits = 0;
			break;
		case 7:
			c.sysdmac_addr_bits = 65;
			break;
		case 8:
			c.sysdmac_max_segs = 0;
			break;
		case 9:
			c.sysdmac_max_seg = 0;
			break;
		case 10:
			c.idmac_align = 0;
			break;
		default:
			/* The edges themselves are valid. */
			c.bus_shift = 2;
			c.idmac_addr_bits = 64;
			c.sysdmac_addr_bits = 64;
			c.idmac_align = 1;
			break;
		}
		sim = (struct mmchal_sim *)&c;
		if (n < 11) {
			assert_int_equal(mmchal_sim_create(&c, &sim), MMCHAL_EINVAL);
			assert_null(sim);
		} else {
			assert_int_equal(mmchal_sim_create(&c, &sim), 0);
			assert_non_null(sim);
			mmchal_sim_destroy(sim);
		}
	}
	assert_int_equal(mmchal_sim_create(NULL, NULL), MMCHAL_EINVAL);
}

struct irq_rec {
	struct drv *d;
	unsigned calls;
	uint64_t at;
};

static void on_irq(void *arg)
{
	struct irq_rec *r = arg;

	if (!r->calls++)
		r->at = mmchal_sim_now(r->d->sim);
	drv_ack(r->d, 0xffffffffu); /* clears the insert event: the line drops */
}

/*
 * Virtual time: mmchal_sim_run() with nothing to do stops exactly at its
 * deadline and reports nothing; an interrupt is taken irq_latency_ns (2 us)
 * after the line rose, not earlier, and run() reports it.
 */
static void test_run_time_and_irq_latency(void **state)
{
	struct mmchal_sim_card_config cc;
	struct irq_rec rec = {0};
	struct drv d;
	uint64_t t0;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	rec.d = &d;
	t0 = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_run(d.sim, t0 + 12345u), 0);
	assert_true(mmchal_sim_now(d.sim) == t0 + 12345u);
	mmchal_sim_advance(d.sim, 655u);
	assert_true(mmchal_sim_now(d.sim) == t0 + 13000u);

	mmchal_sim_set_irq_handler(d.sim, on_irq, &rec);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
	t0 = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0); /* insert event: line high */
	assert_true(mmchal_sim_irq_line(d.sim));
	/* Not taken before the latency has passed. */
	assert_int_equal(mmchal_sim_run(d.sim, t0 + 1999u), 0);
	assert_int_equal(rec.calls, 0);
	assert_true(mmchal_sim_now(d.sim) == t0 + 1999u);
	assert_int_equal(mmchal_sim_run(d.sim, t0 + 1000000u), MMCHAL_SIM_RUN_IRQ);
	assert_int_equal(rec.calls, 1);
	assert_true(rec.at == t0 + 2000u);
	assert_false(mmchal_sim_irq_line(d.sim));
	{
		struct mmchal_sim_counters c;

		mmchal_sim_get_counters(d.sim, &c);
		assert_true(c.irqs == 1);
		/* no simulator or no output: nothing read, nothing written */
		memset(&c, 0xab, sizeof(c));
		mmchal_sim_get_counters(NULL, &c);
		assert_true(c.irqs == 0xababababababababull);
		mmchal_sim_get_counters(d.sim, NULL);
	}
	assert_true(mmchal_sim_now(NULL) == 0);
	assert_int_equal(mmchal_sim_run(NULL, 1000u), 0);
	assert_int_equal(mmchal_sim_trace_count(NULL), 0);
	assert_false(mmchal_sim_irq_line(NULL));
	drv_close(&d);
}

struct work_rec {
	int order[4];
	int n;
};

static struct work_rec work_log;

static void work_a(void *arg)
{
	work_log.order[work_log.n++] = (int)(intptr_t)arg;
}

static void no_work(void *arg)
{
	(void)arg;
}

/*
 * Deferred work runs at the end of the next top-level entry, in the order it
 * was scheduled; a full queue says EBUSY, a NULL function EINVAL.
 */
static void test_deferred_work_in_order(void **state)
{
	struct drv d;
	int rc;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	memset(&work_log, 0, sizeof(work_log));
	for (intptr_t i = 1; i <= 3; i++)
		assert_int_equal(d.port.ops->schedule_work(d.port.ctx, work_a, (void *)i), 0);
	assert_int_equal(work_log.n, 0);
	d.port.ops->delay_us(d.port.ctx, 1);
	assert_int_equal(work_log.n, 3);
	assert_int_equal(work_log.order[0], 1);
	assert_int_equal(work_log.order[1], 2);
	assert_int_equal(work_log.order[2], 3);
	/* The end of a register write is such an entry too. */
	assert_int_equal(d.port.ops->schedule_work(d.port.ctx, work_a, (void *)4), 0);
	mmchal_bus_wr16(&d.bus, R_SIZE, 0x200u);
	assert_int_equal(work_log.n, 4);
	assert_int_equal(work_log.order[3], 4);
	assert_int_equal(d.port.ops->schedule_work(d.port.ctx, NULL, NULL), MMCHAL_EINVAL);
	for (unsigned i = 0;; i++) {
		rc = d.port.ops->schedule_work(d.port.ctx, no_work, NULL);
		if (rc) {
			assert_int_equal(rc, MMCHAL_EBUSY);
			assert_int_equal(i, 64);
			break;
		}
		assert_true(i < 64);
	}
	drv_close(&d);
}

/* A ring of 4 entries holds the last 4 accesses, oldest first, after it wrapped. */
static void test_trace_ring_wraps(void **state)
{
	struct mmchal_sim_config cfg;
	struct mmchal_sim_access a;
	struct mmchal_sim *sim;
	struct mmchal_bus bus;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
	cfg.trace_depth = 4;
	assert_int_equal(mmchal_sim_create(&cfg, &sim), 0);
	mmchal_sim_bus(sim, &bus);
	for (uint16_t i = 0; i < 6; i++)
		mmchal_bus_wr16(&bus, R_SIZE, (uint16_t)(0x100u + i));
	assert_int_equal(mmchal_sim_trace_count(sim), 4);
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(mmchal_sim_trace_get(sim, i, &a), 0);
		assert_int_equal(a.off, R_SIZE << 2);
		assert_true(a.val == 0x102u + i);
		assert_int_equal(a.width, 2);
		assert_true(a.write);
		assert_true(a.t_ns == 100u * (3u + i));
	}
	assert_int_equal(mmchal_sim_trace_get(sim, 4, &a), MMCHAL_ERANGE);
	mmchal_sim_destroy(sim);
}

/* splitmix64 (Steele, Lea, Flood 2014; Vigna's reference splitmix64.c), written here afresh. */
static uint64_t ref_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * The scatter list is a seeded splitmix64 shuffle (docs/sim.md section 7):
 * Fisher-Yates from the last entry down, j = next() % (i + 1), of every other
 * page of a block of 2 * npages pages. The same seed must give the same list
 * in every version, so that a seed reported for a run reproduces it.
 */
static void test_scatter_is_seeded_splitmix(void **state)
{
	static const uint64_t seeds[] = {0, 1, 0x123456789abcdefull};
	struct mmchal_sg sg[16];
	struct mmchal_sim *sim;
	uint64_t x = 0;

	(void)state;
	/* The reference itself: the first output for seed 0. */
	assert_true(ref_splitmix(&x) == 0xe220a8397b1dcdafull);
	for (unsigned s = 0; s < 3; s++) {
		uint32_t order[16];
		mmchal_phys_addr_t base;

		assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
		assert_int_equal(mmchal_sim_mem_add(sim, 0x40000000u, 1u << 20, NULL), 0);
		assert_int_equal(mmchal_sim_mem_scatter(sim, 0, 16, seeds[s], sg), 0);
		for (uint32_t i = 0; i < 16; i++)
			order[i] = i;
		x = seeds[s];
		for (uint32_t i = 15; i > 0; i--) {
			uint32_t j = (uint32_t)(ref_splitmix(&x) % (i + 1u)), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		base = sg[0].phys - 2u * 4096u * order[0];
		assert_true(base == 0x40000000u);
		for (uint32_t i = 0; i < 16; i++) {
			assert_true(sg[i].phys == base + 2u * 4096u * order[i]);
			assert_true(sg[i].len == 4096u);
			assert_ptr_equal(sg[i].cpu, mmchal_sim_phys_to_host(sim, sg[i].phys, 4096));
		}
		mmchal_sim_destroy(sim);
	}
}

static unsigned dma_done_calls;
static int dma_done_status;

static void on_dma_done(void *arg, int status)
{
	(void)arg;
	dma_done_calls++;
	dma_done_status = status;
}

/*
 * mmchal_sim_run() also stops when a SYS-DMAC completion ran (docs/sim.md
 * section 1), at that instant, even while the line is high for an interrupt
 * not due yet (irq_latency_ns 1 ms here, the response end left unacknowledged).
 */
static void test_run_stops_at_dma_completion(void **state)
{
	struct mmchal_sim_card_config cc;
	struct mmchal_sim_config cfg;
	struct mmchal_dma_seg seg;
	struct mmchal_dma_chan rx;
	struct mmchal_dma_xfer x;
	struct drv d;
	uint64_t phys, t_cmd;
	uint8_t *buf;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN2);
	cfg.irq_latency_ns = 1000000u;
	assert_int_equal(drv_open(&d, &cfg), 0);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 1u << 20, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	assert_int_equal(drv_sd_init(&d), 0xb368u);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u);     /* 25 MHz */
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0);      /* 0xcb0d: 32-bit port */
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 0x0002u); /* DMA requests on */
	buf = mmchal_sim_mem_alloc(d.sim, 0, 512, 8, &phys);
	memset(mmchal_sim_card_store(d.sim, NULL), 0x6b, 512);
	assert_int_equal(mmchal_sim_sysdmac(d.sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	seg.addr = phys;
	seg.len = 512;
	memset(&x, 0, sizeof(x));
	x.dir = MMCHAL_DIR_FROM_CARD;
	x.segs = &seg;
	x.nsegs = 1;
	x.dev_addr = 0xee100000u + (0x30u << 1) + 0x2000u;
	x.dev_width = 4;
	x.done = on_dma_done;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	assert_int_equal(rx.ops->submit(rx.ctx), 0);
	dma_done_calls = 0;
	drv_setup_data(&d, 512, 1, false);
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_ARG, 0);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | C_DATA | C_READ | 17);
	t_cmd = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_run(d.sim, t_cmd + 100000000u), MMCHAL_SIM_RUN_DMA);
	assert_int_equal(dma_done_calls, 1);
	assert_int_equal(dma_done_status, 0);
	/* 25 MHz, 4 bits: 98 clocks of command and response, 1042 of block = 45 600 ns. */
	assert_true(mmchal_sim_now(d.sim) - t_cmd == 1920u + 2000u + 41680u);
	assert_true(mmchal_sim_irq_line(d.sim));
	assert_int_equal(buf[0], 0x6b);
	assert_int_equal(buf[511], 0x6b);
	drv_close(&d);
}

/* The per-offset counters cover the window only (docs/sim.md section 10). */
static void test_counters_outside_window(void **state)
{
	struct drv d;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	assert_true(mmchal_sim_reg_writes(d.sim, R_SIZE << 2) == 0);
	mmchal_bus_wr16(&d.bus, R_SIZE, 0x200u);
	assert_true(mmchal_sim_reg_writes(d.sim, R_SIZE << 2) == 1);
	assert_true(mmchal_sim_reg_writes(d.sim, MMCHAL_SIM_WINDOW) == 0);
	assert_true(mmchal_sim_reg_reads(d.sim, MMCHAL_SIM_WINDOW) == 0);
	assert_true(mmchal_sim_reg_writes(d.sim, UINT32_MAX) == 0);
	assert_true(mmchal_sim_reg_reads(d.sim, UINT32_MAX) == 0);
	assert_true(mmchal_sim_reg_writes(NULL, 0) == 0);
	assert_true(mmchal_sim_reg_reads(NULL, 0) == 0);
	drv_close(&d);
}

/* Run the port's log op with stderr sent to a file; returns what was printed. */
static size_t log_to_file(struct drv *d, char *out, size_t size)
{
	FILE *f = tmpfile();
	int saved;
	size_t n;

	assert_non_null(f);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fileno(f), 2), 2);
	d->port.ops->log(d->port.ctx, MMCHAL_LOG_INFO, "hello", 42);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	rewind(f);
	n = fread(out, 1, size - 1u, f);
	out[n] = 0;
	fclose(f);
	return n;
}

/* The log op prints only in verbose mode, and counts every call (docs/sim.md section 10). */
static void test_verbose_log(void **state)
{
	struct mmchal_sim_counters c;
	struct drv d;
	char text[128];

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	assert_int_equal(log_to_file(&d, text, sizeof(text)), 0);
	mmchal_sim_set_verbose(d.sim, true);
	assert_true(log_to_file(&d, text, sizeof(text)) > 0);
	assert_non_null(strstr(text, "info: hello 42"));
	/* A level past the known ones prints as "?". */
	{
		FILE *f = tmpfile();
		int saved = dup(2);
		size_t n;

		assert_non_null(f);
		fflush(stderr);
		assert_int_equal(dup2(fileno(f), 2), 2);
		d.port.ops->log(d.port.ctx, (enum mmchal_log_level)4, "odd", 1);
		fflush(stderr);
		assert_int_equal(dup2(saved, 2), 2);
		close(saved);
		rewind(f);
		n = fread(text, 1, sizeof(text) - 1u, f);
		text[n] = 0;
		fclose(f);
		assert_non_null(strstr(text, "?: odd 1"));
	}
	mmchal_sim_set_verbose(d.sim, false);
	assert_int_equal(log_to_file(&d, text, sizeof(text)), 0);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.logs == 4);
	drv_close(&d);
}

static void *trace_seen;

static void on_trace(void *arg, const struct mmchal_sim_access *a)
{
	(void)a;
	trace_seen = arg;
}

/*
 * The seams' argument checks, the trace callback's argument, and
 * mmchal_sim_reset_counters() clearing the per-offset counters and the ring
 * (docs/sim.md section 10).
 */
static void test_seams_and_counter_reset(void **state)
{
	struct mmchal_sim_access a;
	struct mmchal_sim *sim;
	struct mmchal_port port;
	struct mmchal_bus bus;
	int tag;

	(void)state;
	assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
	assert_int_equal(mmchal_sim_port(NULL, &port), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_port(sim, NULL), MMCHAL_EINVAL);
	memset(&port, 0x5a, sizeof(port));
	assert_int_equal(mmchal_sim_port(sim, &port), 0);
	assert_int_equal(port.cache_line, 0);
	assert_ptr_equal(port.ctx, sim);
	assert_int_equal(mmchal_sim_bus(NULL, &bus), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_bus(sim, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_bus(sim, &bus), 0);
	assert_int_equal(mmchal_sim_trace_get(NULL, 0, &a), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_trace_get(sim, 0, NULL), MMCHAL_EINVAL);
	mmchal_sim_set_trace(sim, on_trace, &tag);
	mmchal_bus_wr16(&bus, R_SIZE, 0x100u);
	(void)mmchal_bus_rd16(&bus, R_SIZE);
	mmchal_bus_wr16(&bus, R_HOSTMODE, 0x0101u); /* byte 0x390: high in the window */
	(void)mmchal_bus_rd16(&bus, R_HOSTMODE);
	assert_ptr_equal(trace_seen, &tag);
	assert_true(mmchal_sim_reg_writes(sim, R_SIZE << 2) == 1);
	assert_true(mmchal_sim_reg_reads(sim, R_SIZE << 2) == 1);
	assert_true(mmchal_sim_reg_writes(sim, R_HOSTMODE << 2) == 1);
	assert_true(mmchal_sim_reg_reads(sim, R_HOSTMODE << 2) == 1);
	mmchal_sim_reset_counters(sim);
	assert_true(mmchal_sim_reg_writes(sim, R_SIZE << 2) == 0);
	assert_true(mmchal_sim_reg_reads(sim, R_SIZE << 2) == 0);
	assert_true(mmchal_sim_reg_writes(sim, R_HOSTMODE << 2) == 0);
	assert_true(mmchal_sim_reg_reads(sim, R_HOSTMODE << 2) == 0);
	assert_int_equal(mmchal_sim_trace_count(sim), 0);
	mmchal_bus_wr16(&bus, R_SIZE, 0x123u);
	assert_int_equal(mmchal_sim_trace_get(sim, 0, &a), 0);
	assert_true(a.val == 0x123u);
	assert_true(a.write);
	mmchal_sim_destroy(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_defaults_exact),
		cmocka_unit_test(test_config_rejects_each_bad_field),
		cmocka_unit_test(test_run_time_and_irq_latency),
		cmocka_unit_test(test_deferred_work_in_order),
		cmocka_unit_test(test_trace_ring_wraps),
		cmocka_unit_test(test_scatter_is_seeded_splitmix),
		cmocka_unit_test(test_run_stops_at_dma_completion),
		cmocka_unit_test(test_counters_outside_window),
		cmocka_unit_test(test_verbose_log),
		cmocka_unit_test(test_seams_and_counter_reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
