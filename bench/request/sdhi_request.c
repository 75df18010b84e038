/*
 * Request cost of the SDHI backends over the simulator (../shared/BENCH.md
 * "Request-path cost"): for 1, 32 and 512 segments of scattered 4 KiB pages,
 * per backend and plan, the register accesses of one request counted at the
 * bus accessor and split into setup (mmchal_host_request up to the first
 * command), interrupt (every interrupt before the last one, DMA-channel
 * callbacks included) and completion (the last interrupt),
 * next to the floor of docs/backends.md, and the CPU instructions of the
 * library (src/) per request, counted by callgrind.
 *
 * Requests are eMMC reads and writes with CMD23 (no CMD12), 512-byte blocks,
 * at 52 MHz on an 8-bit bus, with the simulator's default eMMC timings (so a
 * write ends with the card busy), interrupt-driven: the simulator's interrupt
 * calls mmchal_host_irq(). The figures are of the steady state: each case
 * runs a warm-up request first. The "setup" column is what runs in the
 * caller's context: the data command itself is issued from the interrupt
 * that brings the CMD23 response, so its setup is counted under "irq".
 *
 * Prints figures. With --check it also exits 1 when a case needs more than
 * 1.5 times its floor (a count, not a time).
 *
 * Usage: bench_request_sdhi [--check] [--instructions [--valgrind PATH]]
 *        (--child N is the callgrind run of case N). Without --instructions
 *        the instruction column reads n/a.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mmchal/host_core.h>
#include <mmchal/sdhi.h>
#include <mmchal_sim/sim.h>

#define PAGES_MAX 512u
#define ROUNDS    8u

struct bcase {
	const char *backend;
	enum mmchal_sdhi_kind kind;
	enum mmchal_plan plan;
	bool write;
	uint32_t segs;
	bool iommu;
	bool bounce;
};

static const struct bcase cases[] = {
	{"sdhi-idmac", MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_DIRECT, false, 1, false, false},
	{"sdhi-idmac", MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_DIRECT, true, 1, false, false},
	{"sdhi-idmac", MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_BOUNCED, false, 1, false, true},
	{"sdhi-idmac", MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_BOUNCED, true, 1, false, true},
	{"sdhi-idmac", MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_IOMMU_MERGED, false, 1, true, false},
	{"sdhi-idmac", MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_IOMMU_MERGED, false, 32, true, false},
	{"sdhi-idmac", MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_IOMMU_MERGED, false, 512, true, false},
	{"sdhi-idmac", MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_IOMMU_MERGED, true, 512, true, false},
	{"sdhi-sysdmac", MMCHAL_SDHI_SYSDMAC, MMCHAL_PLAN_DIRECT, false, 1, false, false},
	{"sdhi-sysdmac", MMCHAL_SDHI_SYSDMAC, MMCHAL_PLAN_DIRECT, false, 32, false, false},
	{"sdhi-sysdmac", MMCHAL_SDHI_SYSDMAC, MMCHAL_PLAN_DIRECT, true, 32, false, false},
	{"sdhi-pio", MMCHAL_SDHI_PIO, MMCHAL_PLAN_PIO, false, 1, false, false},
	{"sdhi-pio", MMCHAL_SDHI_PIO, MMCHAL_PLAN_PIO, false, 32, false, false},
	{"sdhi-pio", MMCHAL_SDHI_PIO, MMCHAL_PLAN_PIO, true, 32, false, false},
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

enum phase { PH_SETUP, PH_IRQ, PH_DONE, PH_COUNT };

struct bench {
	struct mmchal_sim *sim;
	struct mmchal_sim_config sc;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_sdhi sdhi;
	struct mmchal_backend be;
	struct mmchal_port port;
	struct mmchal_iommu iommu;
	struct mmchal_iommu_domain dom;
	struct mmchal_bounce bounce;
	struct mmchal_host host;
	struct mmchal_host_cfg hc;
	uint64_t nodes[MMCHAL_IOVA_POOL_BYTES(64) / 8u + 1u];
	uint32_t meta[64];
	struct mmchal_sg sg[PAGES_MAX];
	struct mmchal_dma_seg table[PAGES_MAX];
	struct mmchal_cmd sbc, cmd;
	struct mmchal_data data;
	struct mmchal_request req;
	bool counting;
	enum phase ph;
	uint64_t acc[PH_COUNT];
	uint64_t irq_now;  /* accesses of the interrupt in progress */
	uint64_t irq_last; /* accesses of the last interrupt */
	bool in_irq;
	volatile bool done;
	int lo, hi;
};

static struct bench B;

static void die(const char *what, int rc)
{
	fprintf(stderr, "bench_request_sdhi: %s failed (%d)\n", what, rc);
	exit(2);
}

static void on_access(void *arg, const struct mmchal_sim_access *a)
{
	struct bench *b = arg;

	(void)a;
	if (!b->counting)
		return;
	if (b->in_irq)
		b->irq_now++;
	else
		b->acc[b->ph]++;
}

static void on_done(struct mmchal_request *r)
{
	(void)r;
	B.done = true;
}

static void run_irq(struct bench *b)
{
	b->in_irq = true;
	b->irq_now = 0;
	(void)mmchal_host_irq(&b->host);
	b->in_irq = false;
	b->acc[PH_IRQ] += b->irq_now;
	b->irq_last = b->irq_now;
}

static void sim_irq(void *arg)
{
	run_irq(arg);
}

static void dma_notify(void *arg)
{
	run_irq(arg);
}

static int cmd_sync(struct bench *b, uint32_t op, uint32_t arg, uint32_t flags, uint32_t *resp)
{
	struct mmchal_cmd c = {.opcode = op, .arg = arg, .flags = flags};
	struct mmchal_request r = {.cmd = &c, .done = on_done};
	int rc;

	b->done = false;
	rc = mmchal_host_request(&b->host, &r);
	if (rc)
		return rc;
	while (!b->done)
		mmchal_sim_run(b->sim, mmchal_sim_now(b->sim) + 1000000u);
	if (resp)
		*resp = c.resp[0];
	return c.error;
}

static void set_ios(struct bench *b, uint32_t hz, enum mmchal_bus_width w, enum mmchal_timing t)
{
	struct mmchal_ios ios = {hz, w, t, MMCHAL_POWER_ON, MMCHAL_SIGNAL_180};
	int rc = mmchal_host_core_ops.set_ios(&b->host, &ios);

	if (rc)
		die("set_ios", rc);
}

static void setup(struct bench *b, const struct bcase *c)
{
	struct mmchal_sim_card_config cc;
	uint32_t r = 0;
	int rc;

	memset(b, 0, sizeof(*b));
	mmchal_sim_config_defaults(&b->sc, c->kind == MMCHAL_SDHI_SYSDMAC ? MMCHAL_SIM_SOC_GEN2
									  : MMCHAL_SIM_SOC_GEN3);
	if (mmchal_sim_create(&b->sc, &b->sim))
		die("sim create", -1);
	b->lo = mmchal_sim_mem_add(b->sim, 0x40000000u, 32u << 20, NULL);
	b->hi = mmchal_sim_mem_add(b->sim, 0x100000000ull, 32u << 20, NULL);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	mmchal_sim_card_insert(b->sim, &cc);
	mmchal_sim_bus(b->sim, &b->cfg.bus);
	mmchal_sim_port(b->sim, &b->port);
	b->cfg.soc = mmchal_sdhi_soc_lookup(c->kind == MMCHAL_SDHI_SYSDMAC
						    ? "renesas,rcar-gen2-sdhi"
						    : "renesas,rcar-gen3-sdhi");
	b->cfg.clk_hz = 200000000u;
	b->cfg.reg_dma = b->sc.reg_phys;
	b->cfg.caps.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS;
	b->cfg.caps.completion = MMCHAL_COMPLETES_IN_IRQ;
	mmchal_sim_sysdmac(b->sim, MMCHAL_DIR_TO_CARD, &b->cfg.chan[0]);
	mmchal_sim_sysdmac(b->sim, MMCHAL_DIR_FROM_CARD, &b->cfg.chan[1]);
	b->cfg.dma_notify = dma_notify;
	b->cfg.dma_notify_arg = b;
	if (c->kind == MMCHAL_SDHI_IDMAC)
		rc = mmchal_sdhi_idmac_init(&b->sdhi, &b->cfg, &b->be);
	else if (c->kind == MMCHAL_SDHI_SYSDMAC)
		rc = mmchal_sdhi_sysdmac_init(&b->sdhi, &b->cfg, &b->be);
	else
		rc = mmchal_sdhi_pio_init(&b->sdhi, &b->cfg, &b->be);
	if (rc)
		die("backend init", rc);
	b->hc.backend = &b->be;
	b->hc.port = &b->port;
	b->hc.seg_table = b->table;
	b->hc.seg_table_len = PAGES_MAX;
	if (c->iommu) {
		struct mmchal_iommu_domain_cfg dc = {.iommu = &b->iommu,
						     .node_mem = b->nodes,
						     .node_mem_size = sizeof(b->nodes),
						     .addr_bits = 32};

		mmchal_sim_iommu_attach(b->sim, NULL);
		mmchal_sim_iommu(b->sim, &b->iommu);
		rc = mmchal_iommu_domain_init(&b->dom, &dc);
		if (rc)
			die("domain init", rc);
		b->hc.iommu = &b->dom;
	}
	if (c->bounce) {
		mmchal_phys_addr_t phys;
		void *mem = mmchal_sim_mem_alloc(b->sim, b->lo, 1u << 20, 4096, &phys);
		struct mmchal_bounce_cfg bc = {.mem = mem,
					       .dma = phys,
					       .size = 1u << 20,
					       .meta = b->meta,
					       .meta_size = sizeof(b->meta)};

		rc = mmchal_bounce_init(&b->bounce, &bc);
		if (rc)
			die("bounce init", rc);
		b->hc.bounce = &b->bounce;
	}
	rc = mmchal_host_init(&b->host, &b->hc);
	if (rc)
		die("host init", rc);
	mmchal_sim_set_irq_handler(b->sim, sim_irq, b);
	mmchal_sim_set_trace(b->sim, on_access, b);
	/* eMMC: CMD0, CMD1, CMD2, CMD3, CMD7, 8-bit, high speed */
	set_ios(b, 400000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY);
	cmd_sync(b, 0, 0, MMCHAL_RSP_NONE, NULL);
	for (int i = 0; i < 100 && !(r & 0x80000000u); i++) {
		if (i)
			mmchal_sim_advance(b->sim, 100000);
		if (cmd_sync(b, 1, 0x40ff8080u, MMCHAL_RSP_R3, &r))
			die("CMD1", -1);
	}
	if (cmd_sync(b, 2, 0, MMCHAL_RSP_R2, NULL) ||
	    cmd_sync(b, 3, 1u << 16, MMCHAL_RSP_R1, NULL) ||
	    cmd_sync(b, 7, 1u << 16, MMCHAL_RSP_R1B, NULL) ||
	    cmd_sync(b, 6, (3u << 24) | (183u << 16) | (2u << 8), MMCHAL_RSP_R1B, NULL) ||
	    cmd_sync(b, 6, (3u << 24) | (185u << 16) | (1u << 8), MMCHAL_RSP_R1B, NULL))
		die("identification", -1);
	set_ios(b, 52000000, MMCHAL_BUS_WIDTH_8, MMCHAL_TIMING_MMC_HS);
	rc = mmchal_host_core_ops.init_card(&b->host, MMCHAL_CARD_MMC);
	if (rc)
		die("init_card", rc);
	rc = mmchal_sim_mem_scatter(
		b->sim,
		c->plan == MMCHAL_PLAN_DIRECT && c->kind == MMCHAL_SDHI_IDMAC ? b->lo : b->hi,
		c->segs, 1, b->sg);
	if (rc)
		die("scatter", rc);
	/* one page at a 128-byte aligned address below 4 GiB for the direct internal DMAC */
	b->sbc = (struct mmchal_cmd){.opcode = 23, .arg = c->segs * 8u, .flags = MMCHAL_RSP_R1};
	b->cmd = (struct mmchal_cmd){
		.opcode = c->write ? 25u : 18u, .arg = 4096, .flags = MMCHAL_RSP_R1};
	b->data = (struct mmchal_data){.dir = c->write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD,
				       .blksz = 512,
				       .blocks = c->segs * 8u,
				       .sg = b->sg,
				       .sg_len = c->segs};
	b->req = (struct mmchal_request){
		.sbc = &b->sbc, .cmd = &b->cmd, .data = &b->data, .done = on_done};
}

/* One request, start to completion; the function callgrind collects (external so
   that its name survives). */
void bench_sdhi_one(struct bench *b);

__attribute__((noinline)) void bench_sdhi_one(struct bench *b)
{
	int rc;

	b->done = false;
	b->ph = PH_SETUP;
	rc = mmchal_host_request(&b->host, &b->req);
	if (rc)
		die("request", rc);
	b->ph = PH_IRQ;
	while (!b->done)
		mmchal_sim_run(b->sim, mmchal_sim_now(b->sim) + 1000000u);
	/* the interrupt that finished the request is the completion */
	b->acc[PH_IRQ] -= b->irq_last;
	b->acc[PH_DONE] += b->irq_last;
	if (b->cmd.error || b->data.error || b->sbc.error)
		die("request result", b->data.error ? b->data.error : b->cmd.error);
	/* after a PIO write the card programs with DAT0 low: the caller's stack waits for it
	   (CMD13 or card_busy) before the next command; not part of the request */
	b->in_irq = true;
	while (b->be.ops->card_busy(b->be.ctx) == 1)
		mmchal_sim_advance(b->sim, 1000);
	b->in_irq = false;
	b->irq_now = 0;
}

static enum mmchal_plan plan_of(struct bench *b)
{
	struct mmchal_host_stats st;

	mmchal_host_stats(&b->host, &st);
	for (int p = 0; p < MMCHAL_PLAN_COUNT; p++)
		if (st.plan[p])
			return (enum mmchal_plan)p;
	return MMCHAL_PLAN_PIO;
}

/*
 * The floor (docs/backends.md): register accesses the hardware needs for one
 * CMD23 + CMD18/25 request. w = accesses per 32-bit SD_ARG / SD_RSP10 (1 with
 * bus_shift 2, else 2), port = data port width in bytes.
 */
static uint64_t floor_of(const struct bcase *c, const struct bench *b)
{
	uint64_t w = b->cfg.bus.bus_shift == 2 ? 1 : 2, blocks = c->segs * 8u, f;

	/* CMD23: SD_ARG, SD_CMD; response: INFO1, INFO2, ack INFO1, SD_RSP10 */
	f = w + 1 + 2 + 1 + w;
	/* data command: SD_SECCNT, SD_ARG, SD_CMD; response: INFO1, INFO2, ack, SD_RSP10 */
	f += 1 + w + 1 + 2 + 1 + w;
	/* access end: INFO1, INFO2, ack INFO1 */
	f += 3;
	switch (c->kind) {
	case MMCHAL_SDHI_IDMAC:
		/* DTRAN_MODE, DTRAN_ADDR, DTRAN_CTRL; DM_CM_INFO1 read and ack */
		f += 3 + 2;
		/* a write without CMD12 ends with access end at the end of busy */
		if (c->write)
			f += 3;
		break;
	case MMCHAL_SDHI_SYSDMAC:
		/* the engine is outside the SDHI: nothing more; the busy end as above */
		if (c->write)
			f += 3;
		break;
	default:
		/* per block: INFO1, INFO2, ack INFO2, then the port */
		f += blocks * (3 + 512u / b->sdhi.port_width);
		break;
	}
	return f;
}

static uint64_t parse_callgrind(const char *path, uint64_t *total, uint64_t *backend)
{
	FILE *fp = fopen(path, "r");
	char line[4096], *files[4096] = {0};
	long cur = -1, fl = -1;
	bool skip = false;
	uint64_t lib = 0;

	*total = 0;
	*backend = 0;
	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		char *p = line;
		bool is_fl = !strncmp(p, "fl=", 3),
		     is_fi = !strncmp(p, "fi=", 3) || !strncmp(p, "fe=", 3);

		if (is_fl || is_fi || !strncmp(p, "cfi=", 4) || !strncmp(p, "cfl=", 4)) {
			char *q = strchr(p, '(');
			long id = q ? strtol(q + 1, NULL, 10) : -1;
			char *name = q ? strchr(q, ')') : NULL;

			if (id >= 0 && id < 4096 && name && name[1] == ' ') {
				name[strcspn(name, "\n")] = 0;
				free(files[id]);
				files[id] = strdup(name + 2);
			}
			if (is_fl)
				fl = cur = id;
			else if (is_fi)
				cur = id;
			continue;
		}
		if (!strncmp(p, "fn=", 3)) {
			cur = fl;
			continue;
		}
		if (!strncmp(p, "calls=", 6)) {
			skip = true;
			continue;
		}
		if (!strncmp(p, "totals:", 7) || !strncmp(p, "summary:", 8)) {
			*total = strtoull(strchr(p, ':') + 1, NULL, 10);
			continue;
		}
		if ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '*') {
			char *e;
			uint64_t v;

			strtol(p, &e, 10);
			v = strtoull(e, NULL, 10);
			if (skip) {
				skip = false;
				continue;
			}
			if (cur >= 0 && cur < 4096 && files[cur] && strstr(files[cur], "/src/")) {
				lib += v;
				if (strstr(files[cur], "/src/backends/"))
					*backend += v;
			}
		}
	}
	fclose(fp);
	for (int i = 0; i < 4096; i++)
		free(files[i]);
	return lib;
}

static int child(unsigned n)
{
	setup(&B, &cases[n]);
	bench_sdhi_one(&B); /* warm-up, not collected after the toggle */
	for (unsigned i = 0; i < ROUNDS; i++)
		bench_sdhi_one(&B);
	mmchal_host_deinit(&B.host);
	mmchal_sim_destroy(B.sim);
	return 0;
}

static int64_t instructions(const char *self, const char *valgrind, unsigned n, int64_t *backend)
{
	char cmd[4096], out[256];
	uint64_t total, lib, be;

	snprintf(out, sizeof(out), "/tmp/bench_request_sdhi.%d.%u.cg", (int)getpid(), n);
	snprintf(cmd, sizeof(cmd),
		 "%s --tool=callgrind --collect-atstart=no --toggle-collect='bench_sdhi_one*' "
		 "--callgrind-out-file=%s %s --child %u >/dev/null 2>&1",
		 valgrind, out, self, n);
	if (system(cmd) != 0)
		return -1;
	lib = parse_callgrind(out, &total, &be);
	remove(out);
	if (total == 0)
		return -1;
	/* ROUNDS + 1 collected requests (the warm-up too) */
	*backend = (int64_t)(be / (ROUNDS + 1u));
	return (int64_t)(lib / (ROUNDS + 1u));
}

int main(int argc, char **argv)
{
	const char *valgrind = "valgrind";
	bool check = false, use_vg = false;
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--child") && i + 1 < argc)
			return child((unsigned)atoi(argv[i + 1]));
		else if (!strcmp(argv[i], "--check"))
			check = true;
		else if (!strcmp(argv[i], "--instructions"))
			use_vg = true;
		else if (!strcmp(argv[i], "--valgrind") && i + 1 < argc)
			valgrind = argv[++i], use_vg = true;
	}
	if (use_vg && system("command -v valgrind >/dev/null 2>&1") != 0 &&
	    !strcmp(valgrind, "valgrind"))
		use_vg = false;
	printf("# SDHI request cost over the simulator: eMMC, CMD23 + CMD18/CMD25, 4 KiB "
	       "pages, steady state\n");
	printf("# 512 segments need merging behind an IOMMU: only the internal DMAC is "
	       "merge-capable (SYS-DMAC and PIO hosts keep max_segs 32)\n");
	for (unsigned n = 0; n < NCASES; n++) {
		const struct bcase *c = &cases[n];
		uint64_t sum[PH_COUNT] = {0}, tot, fl;
		enum mmchal_plan plan;
		int64_t ins = -1, bins = -1;
		static const char *pn[] = {"PIO", "DIRECT", "IOMMU_MERGED", "BOUNCED"};

		setup(&B, c);
		bench_sdhi_one(&B);
		B.counting = true;
		for (unsigned i = 0; i < ROUNDS; i++) {
			memset(B.acc, 0, sizeof(B.acc));
			bench_sdhi_one(&B);
			for (int p = 0; p < PH_COUNT; p++)
				sum[p] += B.acc[p];
		}
		B.counting = false;
		plan = plan_of(&B);
		fl = floor_of(c, &B);
		mmchal_host_deinit(&B.host);
		mmchal_sim_destroy(B.sim);
		if (plan != c->plan) {
			fprintf(stderr, "case %u: planned %s, expected %s\n", n, pn[plan],
				pn[c->plan]);
			bad = 1;
		}
		tot = (sum[0] + sum[1] + sum[2]) / ROUNDS;
		if (use_vg)
			ins = instructions(argv[0], valgrind, n, &bins);
		printf("request backend=%s plan=%s dir=%s segs=%u reg_accesses=%" PRIu64
		       " setup=%" PRIu64 " irq=%" PRIu64 " completion=%" PRIu64 " floor=%" PRIu64
		       " ratio=%.2f instructions=",
		       c->backend, pn[plan], c->write ? "write" : "read", c->segs, tot,
		       sum[PH_SETUP] / ROUNDS, sum[PH_IRQ] / ROUNDS, sum[PH_DONE] / ROUNDS, fl,
		       (double)tot / (double)fl);
		if (ins >= 0)
			printf("%" PRId64 " backend_instructions=%" PRId64 "\n", ins, bins);
		else
			printf("n/a\n");
		if (check && tot * 2u > fl * 3u)
			bad = 1;
	}
	return bad;
}
