/*
 * mmchal-sim: the whole stack on a simulated board. Host init, card init
 * (identity and limits with their reasons), then block workloads through
 * the card layer, timed in the simulator's virtual time, with every byte
 * verified. See docs/mmchal-sim.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mmchal/limits.h>
#include <mmchal_sim/card.h>
#if MMCHAL_SIM_HAS_DT
#include <mmchal/dt.h>
#endif

#include "board.h"

#define CARD_BYTES    (256ull << 20)
#define MAX_REQ_PAGES 512u /* 2 MiB of 4 KiB pages */
#define PAGE          4096u

enum workload { SEQ_READ = 0, SEQ_WRITE, RAND_READ, RAND_WRITE, WORKLOAD_COUNT };

static const char *const workload_name[WORKLOAD_COUNT] = {"seq-read", "seq-write", "rand-read",
							  "rand-write"};

/* A host configuration of the table: what limits the SDHI ends up with. */
struct setup {
	const char *name;
	enum mmchal_sim_soc soc;
	enum mmchal_sdhi_kind kind;
	bool iommu;
	bool merge;
	const char *compatible; /* SoC table entry; NULL = by soc */
	uint32_t bus;           /* board wiring (MMCHAL_BUS_*); 0 = the card's default board */
	uint32_t f_max_hz;      /* max-frequency; 0 = the controller clock */
};

static const struct setup setups[] = {
	/* internal DMAC, one segment per transfer (no IOMMU) */
	{"idmac", MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, false, false, NULL, 0, 0},
	/* SYS-DMAC channel chaining 32 segments (R-Car Gen2-like SDHI) */
	{"sysdmac", MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC, false, false, NULL, 0, 0},
	/* internal DMAC behind the IOMMU, host not merge-capable: one 4 KiB page
	   per request, each mapped through the IOMMU on its own */
	{"iommu-nomerge", MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, true, false, NULL, 0, 0},
	/* internal DMAC behind the IOMMU, merge-capable: 512 segments merged
	   (last: the card is identified on this setup) */
	{"idmac+iommu", MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, true, true, NULL, 0, 0},
};

struct opts {
	bool quick, json, help;
	enum mmchal_sim_card_kind card;
	bool progress;
	const char *dtb;     /* --dtb FILE */
	const char *node;    /* --node PATH */
	const char *soc_rev; /* --soc-rev ESx.y */
};

struct run {
	const struct setup *setup;
	enum workload w;
	uint32_t req_size;
	uint32_t max_segs;
	bool iommu;
	bool merge;
	uint64_t bytes;
	uint64_t ns;
	uint64_t requests;
	uint64_t plan[MMCHAL_PLAN_COUNT];
	uint64_t calls;                  /* mmchal_card_read/write() calls */
	uint32_t iova_peak, bounce_peak; /* most mapped at once during this run */
	double mb_s, bus_ratio;
	double bus_mb_s;
	double media_mb_s; /* the card's media rate for the direction; 0 = unlimited */
	double limit_mb_s; /* the tighter of bus_mb_s and media_mb_s */
	double card_ratio; /* mb_s / limit_mb_s */
};

/* seed measurement on a real R-Car H3 (HS400 eMMC), seq-read of 512 KiB */
#define SEED_SEGS1_KB_S   121427.0 /* H3_max_segs_1_on_IOMMU */
#define SEED_SEGS512_KB_S 197325.0 /* H3_max_segs_512_on_IOMMU */
#define SUMMARY_REQ       524288u

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint8_t pat(uint64_t off, uint32_t gen)
{
	return (uint8_t)((off * 131u) ^ (off >> 12) ^ (gen * 29u));
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mmchal-sim [--card emmc|sd|sdio] [--dtb FILE [--node PATH] [--soc-rev "
		"ESx.y]]\n"
		"                  [--quick] [--json] [--help]\n"
		"\n"
		"Runs mmchal on a simulated R-Car H3-like board (SDHI with its internal DMAC,\n"
		"an IOMMU, an HS400 eMMC by default): host init, card init, then sequential\n"
		"and random reads and writes through the card layer, each request made of\n"
		"scattered 4 KiB pages, for four host setups:\n"
		"  idmac          internal DMAC without the IOMMU: max_segs 1\n"
		"  sysdmac        a SYS-DMAC channel (R-Car Gen2-like): max_segs 32\n"
		"  iommu-nomerge  internal DMAC behind the IOMMU, host not merge-capable:\n"
		"                 max_segs 1, every request one 4 KiB page\n"
		"  idmac+iommu    internal DMAC behind the IOMMU, merge-capable: max_segs 512\n"
		"                 merged into one IOVA range\n"
		"Every byte written is checked on the card, every byte read in memory, and\n"
		"the IOMMU pages of each run must be the pages of one request.\n"
		"\n"
		"options:\n"
		"  --card KIND  emmc (default), sd or sdio (sdio: identification only)\n"
		"  --dtb FILE   build the board from a device tree: the SDHI node's backend,\n"
		"               bus width, modes, max-frequency and IOMMU; one setup, named\n"
		"               after the node, instead of the four built-in ones\n"
		"  --node PATH  the SDHI node to use (default: the first enabled one that\n"
		"               suits the card: 8 bits for an eMMC, else 4)\n"
		"  --soc-rev R  SoC revision for the tree (e.g. ES3.0; decides the H3 IOMMU)\n"
		"  --quick      fewer request sizes and less data (for CI)\n"
		"  --json       one JSON object on stdout instead of the table and summary\n"
		"               (fields: docs/mmchal-sim.md)\n"
		"  --help       this text\n"
		"\n"
		"The table, one row per run (times are the simulator's virtual time):\n"
		"  workload   seq-read, seq-write, rand-read, rand-write\n"
		"  req        request size; setup as above; segs: the max_segs the host derived\n"
		"  MB/s       bytes moved / virtual time (10^6 bytes per second)\n"
		"  bus        MB/s as a fraction of the bus limit (clock x width, x2 for DDR)\n"
		"  card       MB/s as a fraction of the tighter of the bus limit and the\n"
		"             card's media rate for the direction (the default eMMC: 250 MB/s\n"
		"             read, 125 MB/s write): how close the host gets to what the\n"
		"             card can deliver\n"
		"  reqs       data requests the host core ran (a call is split to fit the limits)\n"
		"  plans      requests per DMA plan: merged (IOMMU_MERGED), direct, bounced, pio\n"
		"  iova/bnc   most IOMMU pages / bounce slots mapped at once during the run\n"
		"             (a 4 KiB merged read: 1 page; the board has no bounce pool)\n"
		"After the table, on the default board: seq-read of 512 KiB behind the IOMMU\n"
		"with 1 segment against 512 merged segments, their ratio next to the seed's\n"
		"measurement on a real H3 (121 427 vs 197 325 KB/s, 1.63x), and the\n"
		"512-segment figure as a fraction of the bus limit and of the card limit.\n"
		"Exit status: 0 when every run completed and verified, 1 otherwise, 2 on usage.\n");
}

static int parse(int argc, char **argv, struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->card = MMCHAL_SIM_CARD_MMC;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			o->quick = true;
		} else if (!strcmp(argv[i], "--json")) {
			o->json = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			o->help = true;
		} else if (!strcmp(argv[i], "--dtb") && i + 1 < argc) {
			o->dtb = argv[++i];
		} else if (!strcmp(argv[i], "--node") && i + 1 < argc) {
			o->node = argv[++i];
		} else if (!strcmp(argv[i], "--soc-rev") && i + 1 < argc) {
			o->soc_rev = argv[++i];
		} else if (!strcmp(argv[i], "--card") && i + 1 < argc) {
			const char *k = argv[++i];

			if (!strcmp(k, "emmc"))
				o->card = MMCHAL_SIM_CARD_MMC;
			else if (!strcmp(k, "sd"))
				o->card = MMCHAL_SIM_CARD_SD;
			else if (!strcmp(k, "sdio"))
				o->card = MMCHAL_SIM_CARD_SDIO;
			else
				return -1;
		} else {
			return -1;
		}
	}
	o->progress = !o->json && isatty(STDERR_FILENO);
	if (o->node && !o->dtb)
		return -1;
	return 0;
}

static const char *timing_name(enum mmchal_timing t)
{
	static const char *const n[] = {"legacy", "SD HS", "MMC HS", "SDR12", "SDR25", "SDR50",
					"SDR104", "DDR50", "DDR52",  "HS200", "HS400"};

	return (unsigned)t < sizeof(n) / sizeof(n[0]) ? n[t] : "?";
}

static const char *type_name(enum mmchal_card_type t)
{
	switch (t) {
	case MMCHAL_CARD_SD:
		return "SD";
	case MMCHAL_CARD_MMC:
		return "eMMC";
	case MMCHAL_CARD_SDIO:
		return "SDIO";
	case MMCHAL_CARD_SD_COMBO:
		return "SD combo";
	default:
		return "unknown";
	}
}

/* Bus limit from the bus settings, 10^6 bytes per second. */
static double bus_mb_s(const struct mmchal_ios *ios)
{
	bool ddr = ios->timing == MMCHAL_TIMING_MMC_DDR52 ||
		   ios->timing == MMCHAL_TIMING_MMC_HS400 || ios->timing == MMCHAL_TIMING_UHS_DDR50;

	return (double)ios->clock_hz * ios->bus_width / 8.0 * (ddr ? 2.0 : 1.0) / 1e6;
}

static int open_setup(struct board *b, const struct setup *s, enum mmchal_sim_card_kind card,
		      uint64_t bytes)
{
	struct board_opts o;
	int err;

	board_defaults(&o, card, bytes);
	o.soc = s->soc;
	o.kind = s->kind;
	o.iommu = s->iommu;
	o.merge_capable = s->merge;
	o.compatible = s->compatible;
	if (s->bus)
		o.bus = s->bus;
	o.f_max_hz = s->f_max_hz;
	err = board_open(b, &o);
	if (err)
		return err;
	return mmchal_card_init(&b->card);
}

#if MMCHAL_SIM_HAS_DT
#define MAX_BLOB  (4u << 20)
#define MAX_NODES 32u

/* The setup of one SDHI node of a device tree. */
static int setup_from_dt(const struct opts *o, struct setup *out, char *name, size_t name_len)
{
	static struct mmchal_dt_node nodes[MAX_NODES];
	struct mmchal_dt_opts dopts;
	struct mmchal_dt_board board;
	const struct mmchal_dt_node *pick = NULL;
	unsigned char *blob;
	size_t size, n = 0;
	FILE *f = fopen(o->dtb, "rb");
	int err;

	if (!f) {
		fprintf(stderr, "mmchal-sim: cannot open %s\n", o->dtb);
		return 1;
	}
	blob = malloc(MAX_BLOB);
	size = blob ? fread(blob, 1, MAX_BLOB, f) : 0;
	fclose(f);
	if (!blob || size == 0 || size == MAX_BLOB) {
		fprintf(stderr, "mmchal-sim: cannot read %s\n", o->dtb);
		free(blob);
		return 1;
	}
	memset(&dopts, 0, sizeof(dopts));
	dopts.soc_revision = o->soc_rev;
	err = mmchal_dt_probe(blob, size, &dopts, &board, nodes, MAX_NODES, &n);
	if (err < 0) {
		fprintf(stderr, "mmchal-sim: %s: %s\n", o->dtb, mmchal_strerror(err));
		free(blob);
		return 1;
	}
	for (size_t i = 0; i < n && i < MAX_NODES; i++) {
		const struct mmchal_dt_node *d = &nodes[i];

		if (o->node) {
			if (!strcmp(d->path, o->node))
				pick = d;
			continue;
		}
		if (!d->enabled || !d->supported || d->error)
			continue;
		if (!pick ||
		    (o->card == MMCHAL_SIM_CARD_MMC && d->bus_width == 8u && pick->bus_width != 8u))
			pick = d;
	}
	if (!pick || !pick->supported || pick->error || pick->backend == MMCHAL_DT_BACKEND_NONE) {
		fprintf(stderr, "mmchal-sim: %s: no usable SDHI node%s%s\n", o->dtb,
			o->node ? " at " : "", o->node ? o->node : "");
		free(blob);
		return 1;
	}
	memset(out, 0, sizeof(*out));
	snprintf(name, name_len, "%s", pick->path);
	out->name = name;
	out->kind = pick->backend == MMCHAL_DT_BACKEND_IDMAC     ? MMCHAL_SDHI_IDMAC
		    : pick->backend == MMCHAL_DT_BACKEND_SYSDMAC ? MMCHAL_SDHI_SYSDMAC
								 : MMCHAL_SDHI_PIO;
	/* the simulator models a Gen3 SDHI (internal DMAC) and a Gen2 one (SYS-DMAC) */
	out->soc = out->kind == MMCHAL_SDHI_IDMAC ? MMCHAL_SIM_SOC_GEN3 : MMCHAL_SIM_SOC_GEN2;
	out->iommu = pick->iommu_usable;
	out->merge = pick->caps.host.merge_capable;
	out->compatible = pick->cfg.soc->compatible;
	out->bus = pick->cfg.caps.bus;
	out->f_max_hz = pick->cfg.caps.f_max_hz;
	if (!o->json)
		printf("board: %s, node %s (%s, %s, %u-bit%s)\n",
		       board.model ? board.model : o->dtb, pick->path, pick->compatible,
		       mmchal_dt_backend_name(pick->backend), pick->bus_width,
		       out->iommu ? ", IOMMU" : "");
	free(blob);
	return 0;
}
#endif

static void print_identity(const struct board *b, bool json)
{
	const struct mmchal_card_info *i = mmchal_card_info(&b->card);

	if (json) {
		printf("\"card\": {\"type\": \"%s\", \"name\": \"%s\", \"sectors\": %" PRIu64
		       ", \"bus_width\": %d, \"timing\": \"%s\", \"clock_hz\": %" PRIu32
		       ", \"block_addr\": %s, \"cmd23\": %s, \"bus_mb_s\": %.1f"
		       ", \"media_read_mb_s\": %.1f, \"media_write_mb_s\": %.1f}",
		       type_name(i->type), i->cid.pnm, i->sectors, (int)i->bus_width,
		       timing_name(i->timing), i->clock_hz, i->block_addr ? "true" : "false",
		       i->cmd23 ? "true" : "false", bus_mb_s(&b->card.ios),
		       (double)b->card_cfg.read_rate / 1e6, (double)b->card_cfg.write_rate / 1e6);
		return;
	}
	if (i->type == MMCHAL_CARD_SDIO || i->type == MMCHAL_CARD_SD_COMBO)
		printf("card: %s, %u function(s), vendor 0x%04x device 0x%04x, largest block %u "
		       "(reported only: no block access)\n",
		       type_name(i->type), i->sdio.nfuncs, i->sdio.vendor, i->sdio.device,
		       i->sdio.max_blk_size);
	else
		printf("card: %s \"%s\" (manufacturer 0x%02x, serial 0x%08" PRIx32 "), %" PRIu64
		       " sectors (%" PRIu64 " MiB), %s addressing\n",
		       type_name(i->type), i->cid.pnm, i->cid.mid, i->cid.psn, i->sectors,
		       i->sectors / 2048u, i->block_addr ? "block" : "byte");
	printf("bus:  %d-bit %s at %.1f MHz (limit %.0f MB/s), CMD23 %s\n", (int)i->bus_width,
	       timing_name(i->timing), i->clock_hz / 1e6, bus_mb_s(&b->card.ios),
	       i->cmd23 ? "yes" : "no");
	if (i->type != MMCHAL_CARD_SDIO && i->type != MMCHAL_CARD_SD_COMBO)
		printf("media: %.0f MB/s read, %.0f MB/s write (the card's own rates; 0 = "
		       "unlimited)\n",
		       (double)b->card_cfg.read_rate / 1e6, (double)b->card_cfg.write_rate / 1e6);
}

static void print_limits(const struct board *b)
{
	char buf[2048];

	if (mmchal_limits_explain(&b->card.limits, buf, sizeof(buf)) < 0)
		return;
	printf("limits for this card, with reasons:\n");
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		printf("  %s\n", line);
}

/* Fill the request's pages with the pattern of card offset @off. */
static void fill_pages(struct mmchal_sg *sg, uint32_t n, uint64_t off, uint32_t gen)
{
	for (uint32_t p = 0; p < n; p++) {
		uint8_t *d = sg[p].cpu;

		for (uint32_t i = 0; i < PAGE; i++)
			d[i] = pat(off + (uint64_t)p * PAGE + i, gen);
	}
}

static bool pages_match(const struct mmchal_sg *sg, uint32_t n, const uint8_t *src)
{
	for (uint32_t p = 0; p < n; p++)
		if (memcmp(sg[p].cpu, src + (size_t)p * PAGE, PAGE) != 0)
			return false;
	return true;
}

static int do_run(struct board *b, struct mmchal_sg *sg, struct run *r, uint64_t volume,
		  uint32_t gen)
{
	uint32_t pages = r->req_size / PAGE;
	uint64_t span = b->card.info.sectors * 512u;
	uint64_t nreq = volume / r->req_size;
	bool write = r->w == SEQ_WRITE || r->w == RAND_WRITE;
	bool rnd = r->w == RAND_READ || r->w == RAND_WRITE;
	uint8_t *store;
	uint64_t size, t0;
	struct mmchal_host_stats s0, s1;
	int err;

	store = mmchal_sim_card_store(b->sim, &size);
	if (!store || size < span)
		return MMCHAL_EINVAL;
	if (nreq == 0)
		nreq = 1;
	if (nreq * r->req_size > span)
		nreq = span / r->req_size;
	(void)mmchal_host_stats(&b->host, &s0);
	board_iova_reset(b);
	t0 = mmchal_sim_now(b->sim);
	r->ns = 0;
	for (uint64_t q = 0; q < nreq; q++) {
		uint64_t off = rnd ? (rng() % (span / r->req_size)) * r->req_size : q * r->req_size;

		/* preparing and checking buffers takes no virtual time: only the
		   simulated hardware and the port's delays advance the clock */
		if (write)
			fill_pages(sg, pages, off, gen);
		else
			for (uint32_t p = 0; p < pages; p++)
				memset(sg[p].cpu, 0xa5, PAGE);
		err = write ? mmchal_card_write(&b->card, off / 512u, r->req_size / 512u, sg, pages)
			    : mmchal_card_read(&b->card, off / 512u, r->req_size / 512u, sg, pages);
		if (err)
			return err;
		/* verify: a write must be on the card (the pages still hold the
		   pattern: the device only reads them), a read in memory */
		if (!pages_match(sg, pages, store + off))
			return MMCHAL_EIO;
	}
	r->ns = mmchal_sim_now(b->sim) - t0;
	r->bytes = nreq * r->req_size;
	(void)mmchal_host_stats(&b->host, &s1);
	r->requests = 0;
	for (int p = 0; p < MMCHAL_PLAN_COUNT; p++) {
		r->plan[p] = s1.plan[p] - s0.plan[p];
		r->requests += r->plan[p];
	}
	r->calls = nreq;
	r->iova_peak = (uint32_t)board_iova_peak(b);
	/* The host core's bounce peak runs from host init: it is this run's when
	   it rose during the run, and 0 when it never left 0; otherwise it is an
	   upper bound. (The built-in board has no bounce pool: always 0.) */
	r->bounce_peak = s1.bounce_slots_peak;
	r->bus_mb_s = bus_mb_s(&b->card.ios);
	r->media_mb_s = (double)(write ? b->card_cfg.write_rate : b->card_cfg.read_rate) / 1e6;
	r->limit_mb_s = r->media_mb_s > 0 && r->media_mb_s < r->bus_mb_s ? r->media_mb_s
									 : r->bus_mb_s;
	r->mb_s = r->ns ? (double)r->bytes * 1e3 / (double)r->ns : 0.0;
	r->bus_ratio = r->bus_mb_s > 0 ? r->mb_s / r->bus_mb_s : 0.0;
	r->card_ratio = r->limit_mb_s > 0 ? r->mb_s / r->limit_mb_s : 0.0;
	return 0;
}

/*
 * The IOMMU pages a run should have held at its peak: requests run one at a
 * time and every page of a request is mapped while it runs (merged or one
 * mapping per segment), so the peak is the pages of the largest request;
 * without the IOMMU nothing is mapped. 0 and true when the split of calls
 * into requests is uneven (no single expectation).
 */
static bool iova_expected(const struct run *r, uint32_t *pages)
{
	uint32_t per_call, call_pages = r->req_size / PAGE;

	*pages = 0;
	if (!r->iommu)
		return true;
	if (r->calls == 0 || r->requests % r->calls != 0)
		return false;
	per_call = (uint32_t)(r->requests / r->calls);
	if (per_call == 0)
		return false;
	*pages = (call_pages + per_call - 1u) / per_call;
	return true;
}

static void size_str(uint32_t sz, char *buf, size_t n)
{
	if (sz >= (1u << 20))
		snprintf(buf, n, "%uM", sz >> 20);
	else
		snprintf(buf, n, "%uK", sz >> 10);
}

static void print_row(const struct run *r)
{
	char sz[16];

	size_str(r->req_size, sz, sizeof(sz));
	printf("%-10s %5s  %-13s %4u  %7.1f  %4.2f  %4.2f  %6" PRIu64 "  merged %-5" PRIu64
	       " direct %-5" PRIu64 " bounced %-3" PRIu64 " pio %-4" PRIu64 "  %4u/%u\n",
	       workload_name[r->w], sz, r->setup->name, r->max_segs, r->mb_s, r->bus_ratio,
	       r->card_ratio, r->requests, r->plan[MMCHAL_PLAN_IOMMU_MERGED],
	       r->plan[MMCHAL_PLAN_DIRECT], r->plan[MMCHAL_PLAN_BOUNCED], r->plan[MMCHAL_PLAN_PIO],
	       r->iova_peak, r->bounce_peak);
}

static void print_json_run(const struct run *r, bool first)
{
	printf("%s\n    {\"workload\": \"%s\", \"setup\": \"%s\", \"req_size\": %u, \"max_segs\": "
	       "%u, "
	       "\"iommu\": %s, \"merge\": %s, \"mb_s\": %.1f, \"bus_ratio\": %.3f, "
	       "\"bus_mb_s\": %.1f, \"card_ratio\": %.3f, \"card_limit_mb_s\": %.1f, "
	       "\"requests\": %" PRIu64 ", \"calls\": %" PRIu64
	       ", \"plans\": {\"iommu_merged\": %" PRIu64 ", \"direct\": %" PRIu64
	       ", \"bounced\": %" PRIu64 ", \"pio\": %" PRIu64 "}, \"iova_pages_peak\": %u"
	       ", \"bounce_slots_peak\": %u, \"bytes\": %" PRIu64 ", \"virtual_ns\": %" PRIu64 "}",
	       first ? "" : ",", workload_name[r->w], r->setup->name, r->req_size, r->max_segs,
	       r->iommu ? "true" : "false", r->merge ? "true" : "false", r->mb_s, r->bus_ratio,
	       r->bus_mb_s, r->card_ratio, r->limit_mb_s, r->requests, r->calls,
	       r->plan[MMCHAL_PLAN_IOMMU_MERGED], r->plan[MMCHAL_PLAN_DIRECT],
	       r->plan[MMCHAL_PLAN_BOUNCED], r->plan[MMCHAL_PLAN_PIO], r->iova_peak, r->bounce_peak,
	       r->bytes, r->ns);
}

/* The seq-read run of SUMMARY_REQ behind the IOMMU with @merge. */
static const struct run *find_summary_run(const struct run *runs, unsigned n, bool merge)
{
	for (unsigned i = 0; i < n; i++) {
		const struct run *r = &runs[i];

		if (r->w == SEQ_READ && r->req_size == SUMMARY_REQ && r->iommu &&
		    r->merge == merge && (merge || r->max_segs == 1u))
			return r;
	}
	return NULL;
}

/* The seed's comparison: 1 against 512 segments behind the IOMMU. */
static void print_summary(const struct run *runs, unsigned n, bool json)
{
	const struct run *one = find_summary_run(runs, n, false);
	const struct run *many = find_summary_run(runs, n, true);
	double ratio;

	if (!one || !many || one->mb_s <= 0) {
		if (json)
			printf(", \"summary\": null");
		return;
	}
	ratio = many->mb_s / one->mb_s;
	if (json) {
		printf(", \"summary\": {\"workload\": \"seq-read\", \"req_size\": %u, "
		       "\"segs1_setup\": \"%s\", \"segs1_mb_s\": %.1f, \"merged_setup\": \"%s\", "
		       "\"merged_max_segs\": %u, \"merged_mb_s\": %.1f, \"ratio\": %.2f, "
		       "\"seed_segs1_kb_s\": %.0f, \"seed_segs512_kb_s\": %.0f, "
		       "\"seed_ratio\": %.2f, \"merged_bus_ratio\": %.3f, \"bus_mb_s\": %.1f, "
		       "\"merged_card_ratio\": %.3f, \"card_limit_mb_s\": %.1f}",
		       SUMMARY_REQ, one->setup->name, one->mb_s, many->setup->name, many->max_segs,
		       many->mb_s, ratio, SEED_SEGS1_KB_S, SEED_SEGS512_KB_S,
		       SEED_SEGS512_KB_S / SEED_SEGS1_KB_S, many->bus_ratio, many->bus_mb_s,
		       many->card_ratio, many->limit_mb_s);
		return;
	}
	printf("\nseq-read, %u KiB requests of scattered 4 KiB pages, behind the IOMMU:\n",
	       SUMMARY_REQ >> 10);
	printf("  %4u segment  %-15s %7.1f MB/s\n", one->max_segs, one->setup->name, one->mb_s);
	printf("  %4u segments %-15s %7.1f MB/s = %.2fx (seed on a real H3: %.0f vs %.0f "
	       "KB/s, %.2fx)\n",
	       many->max_segs, many->setup->name, many->mb_s, ratio, SEED_SEGS1_KB_S,
	       SEED_SEGS512_KB_S, SEED_SEGS512_KB_S / SEED_SEGS1_KB_S);
	printf("  %u segments: %.2f of the bus limit (%.0f MB/s), %.2f of the card limit "
	       "(%.0f MB/s)\n",
	       many->max_segs, many->bus_ratio, many->bus_mb_s, many->card_ratio, many->limit_mb_s);
}

int main(int argc, char **argv)
{
	static const uint32_t sizes_full[] = {4096,   16384,  65536,   131072,
					      262144, 524288, 1048576, 2097152};
	static const uint32_t sizes_quick[] = {4096, 524288};
	const uint32_t *sizes;
	uint32_t nsizes;
	struct opts o;
	const struct setup *set = setups;
	size_t nset = sizeof(setups) / sizeof(setups[0]);
	static char dt_name[128];
	static struct board b;
	static struct run runs[4u * WORKLOAD_COUNT * 8u];
	struct mmchal_sg *sg;
	bool first = true;
	int status = 0, err;
	unsigned nruns = 0, nruns_kept = 0, total;

	if (parse(argc, argv, &o)) {
		usage(stderr);
		return 2;
	}
	if (o.help) {
		usage(stdout);
		return 0;
	}
	if (o.dtb) {
#if MMCHAL_SIM_HAS_DT
		static struct setup dt_setup;

		if (setup_from_dt(&o, &dt_setup, dt_name, sizeof(dt_name)))
			return 1;
		set = &dt_setup;
		nset = 1;
#else
		fprintf(stderr, "mmchal-sim: built without the device-tree front end (libfdt)\n");
		return 2;
#endif
	}
	sizes = o.quick ? sizes_quick : sizes_full;
	nsizes = o.quick ? 2u : (uint32_t)(sizeof(sizes_full) / sizeof(sizes_full[0]));
	sg = calloc(MAX_REQ_PAGES, sizeof(*sg));
	if (!sg)
		return 1;
	if (o.json)
		printf("{\"board\": \"%s\", ",
		       o.dtb ? dt_name : "R-Car H3-like (simulated SDHI, internal DMAC, IOMMU)");

	/* identification on the default board (or the tree's), shown once */
	err = open_setup(&b, &set[nset - 1], o.card, CARD_BYTES);
	if (err) {
		fprintf(stderr, "mmchal-sim: card init failed: %s (CMD%u%s)\n",
			mmchal_strerror(err), b.card.err.opcode,
			b.card.err.app ? " after CMD55" : "");
		if (o.json)
			printf("\"card\": null, \"runs\": [], \"summary\": null, \"ok\": false}\n");
		board_close(&b);
		free(sg);
		return 1;
	}
	print_identity(&b, o.json);
	if (!o.json) {
		print_limits(&b);
		printf("\n");
	}
	if (b.card.info.type != MMCHAL_CARD_SD && b.card.info.type != MMCHAL_CARD_MMC) {
		board_close(&b);
		if (o.json)
			printf(", \"runs\": [], \"summary\": null, \"ok\": true}\n");
		free(sg);
		return 0;
	}
	board_close(&b);

	if (o.json)
		printf(", \"runs\": [");
	else
		printf("%-10s %5s  %-13s %4s  %7s  %4s  %4s  %6s  %-43s %s\n", "workload", "req",
		       "setup", "segs", "MB/s", "bus", "card", "reqs", "plans", "iova/bnc");
	total = (unsigned)nset * WORKLOAD_COUNT * nsizes;
	for (size_t si = 0; si < nset && !status; si++) {
		const struct setup *s = &set[si];

		err = open_setup(&b, s, o.card, CARD_BYTES);
		if (!err)
			err = board_pages(&b, MAX_REQ_PAGES, 42 + si, sg);
		if (err) {
			fprintf(stderr, "mmchal-sim: %s: setup failed: %s\n", s->name,
				mmchal_strerror(err));
			status = 1;
			board_close(&b);
			break;
		}
		for (int w = 0; w < WORKLOAD_COUNT && !status; w++) {
			for (uint32_t k = 0; k < nsizes; k++) {
				struct run r;
				uint32_t want;
				/* virtual time per request does not depend on how many
				   run, so 8 MiB gives the same MB/s as more would */
				uint64_t volume = o.quick ? (2ull << 20) : (8ull << 20);

				memset(&r, 0, sizeof(r));
				r.setup = s;
				r.w = (enum workload)w;
				r.req_size = sizes[k];
				r.max_segs = b.card.limits.max_segs;
				r.iommu = s->iommu;
				r.merge = b.card.limits.merge;
				/* small random requests: fewer of them, the count matters */
				if (r.req_size < 65536u)
					volume /= 8u;
				if (o.progress)
					fprintf(stderr, "\r[%u/%u] %s %s %u bytes   ", ++nruns,
						total, s->name, workload_name[w], r.req_size);
				err = do_run(&b, sg, &r, volume,
					     (uint32_t)(si * 32u + (unsigned)w * 8u + k));
				if (err) {
					fprintf(stderr, "\nmmchal-sim: %s %s %u: %s (CMD%u)\n",
						s->name, workload_name[w], r.req_size,
						mmchal_strerror(err), b.card.err.opcode);
					status = 1;
					break;
				}
				if (iova_expected(&r, &want) && r.iova_peak != want) {
					fprintf(stderr,
						"\nmmchal-sim: %s %s %u: %u IOMMU pages mapped at "
						"once, expected %u\n",
						s->name, workload_name[w], r.req_size, r.iova_peak,
						want);
					status = 1;
					break;
				}
				if (nruns_kept < sizeof(runs) / sizeof(runs[0]))
					runs[nruns_kept++] = r;
				if (o.json) {
					print_json_run(&r, first);
					first = false;
				} else {
					if (o.progress)
						fprintf(stderr, "\r%60s\r", "");
					print_row(&r);
				}
			}
		}
		board_close(&b);
	}
	if (o.progress)
		fprintf(stderr, "\r%60s\r", "");
	if (o.json)
		printf("\n  ]");
	if (!status)
		print_summary(runs, nruns_kept, o.json);
	else if (o.json)
		printf(", \"summary\": null");
	if (o.json)
		printf(", \"ok\": %s}\n", status ? "false" : "true");
	free(sg);
	/* output that did not reach its reader is a failure too */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "mmchal-sim: cannot write the output\n");
		status = 1;
	}
	return status;
}
