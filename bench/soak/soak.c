/*
 * Fault soak: random requests over the simulated board, through the host core
 * and the SDHI backends, under a random, seeded fault schedule, with every
 * result checked against a shadow of the card and of memory.
 *
 * Boards (one simulator, eMMC and host each, requests spread at random):
 *   idmac, idmac+bounce, idmac+iommu, idmac+iommu+bounce  (R-Car Gen3 SDHI)
 *   sysdmac, sysdmac+bounce, sysdmac+iommu                (R-Car Gen2 SDHI)
 *   pio                                                   (Gen3, CPU moves data)
 * half of them retry a DMA fault by PIO (mmchal_host_cfg::pio_retry).
 *
 * A request: an eMMC read or write (CMD17/24, or CMD18/25 with CMD23 or with
 * CMD12) of a random size at a random sector, from one of four segment
 * layouts: one contiguous buffer, scattered whole pages (the first may start
 * and the last end inside a page), odd offsets and lengths, or many small
 * segments; in RAM below or above 4 GiB. A few requests break the limits on
 * purpose and must be refused. Completion is interrupt-driven (the simulator's
 * interrupt calls mmchal_host_irq(), mmchal_host_poll() fires the timeouts),
 * or for one request in eight mmchal_host_request_sync().
 *
 * Faults (sim/include/mmchal_sim/fault.h): for most requests a random stream
 * (every command and block fails with a small probability, with any kind), and
 * for some one more fault at a random block or instant: command timeout and
 * CRC, data CRC, data timeout, end bit, DMA error, IOMMU fault, card removal,
 * stuck busy. Faults are off outside the request. After a request that failed
 * or saw a fault, the card is taken out, put back (same store) and identified
 * again, which also clears a stuck DAT0.
 *
 * Checked after every request (a violation is printed and counted; the exit
 * status is 1 when there was any):
 *  - done ran exactly once for a started request, never for a refused one,
 *    and not again later; the host's counters agree;
 *  - a refused request (negative return) changed nothing;
 *  - successful read: the buffers hold the card's data; successful write: the
 *    card holds the data, bytes_xfered is the whole request;
 *  - failed read: the first bytes_xfered bytes are the card's data (the host
 *    says they arrived); the rest of the buffers may hold anything;
 *  - failed write: the card's sectors of the request are a prefix of whole
 *    new blocks followed by the old ones (the card commits a block only after
 *    its CRC and never half of one), and that prefix is at least bytes_xfered
 *    (the host never claims a block the card does not have); it may be
 *    longer, since a controller learns of the last blocks only at the end. The
 *    shadow takes what the card kept;
 *  - the whole card equals the shadow; RAM outside the buffers (both regions
 *    in full) is unchanged;
 *  - no IOMMU page (domain, host and the IOMMU's own count) and no bounce slot
 *    is left in use;
 *  - a request that saw an IOMMU fault failed with an error or was retried by
 *    PIO; one that saw a command or data fault (timeout, CRC, end bit) failed
 *    with an error, unless a DMA fault in it made the host run it again by PIO
 *    (mmchal_host_cfg::pio_retry), which then stands for the whole request.
 *
 * Usage: soak [--requests N] [--seed S] [--no-faults] [--verbose]
 *        (default 10^5 requests, seed 1; --no-faults: the same requests, no faults)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/error.h>
#include <mmchal/host_core.h>
#include <mmchal/sdhi.h>
#include <mmchal_sim/sim.h>

#define CARD_BYTES  (2u << 20)
#define CARD_SECT   (CARD_BYTES / 512u)
#define ARENA       (1u << 20) /* bytes per RAM region the buffers live in */
#define ARENA_PG    (ARENA / 4096u)
#define MAXSEG      64u
#define LO_BASE     0x40000000ull
#define HI_BASE     0x100000000ull
#define BOUNCE_PA   0x48000000ull
#define BOUNCE_SZ   (1u << 20)
/* Behind an IOMMU the bounce pool is reached through a static mapping at the
   top of the IOMMU's aperture, which the domain is told not to use: the pool's
   dma address is the address the DMA master uses (mmchal_bounce_cfg::dma). */
#define BOUNCE_IOVA 0xfff00000ull
#define MAX_VIOL    50u

/* ------------------------------------------------------------ rng */

static uint64_t rng_s;

static uint64_t rnd(void)
{
	uint64_t z = (rng_s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

/* ------------------------------------------------------------ boards */

struct bdesc {
	const char *name;
	enum mmchal_sim_soc soc;
	enum mmchal_sdhi_kind kind;
	bool iommu, bounce, pio_retry;
};

static const struct bdesc boards[] = {
	{"idmac", MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, false, false, false},
	{"idmac+bounce", MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, false, true, true},
	{"idmac+iommu", MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, true, false, true},
	{"idmac+iommu+bounce", MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, true, true, false},
	{"sysdmac", MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC, false, false, true},
	{"sysdmac+bounce", MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC, false, true, false},
	{"sysdmac+iommu", MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC, true, false, true},
	{"pio", MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_PIO, false, false, false},
};
#define NBOARDS (sizeof(boards) / sizeof(boards[0]))

enum layout { L_CONTIG, L_PAGES, L_ODD, L_SMALL, L_COUNT };
static const char *const layout_name[L_COUNT] = {"contiguous", "pages", "odd", "small"};

struct board {
	const struct bdesc *d;
	struct mmchal_sim *sim;
	struct mmchal_sim_config sc;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_sdhi sdhi;
	struct mmchal_backend be;
	struct mmchal_port port;
	struct mmchal_iommu iommu, sim_iommu;
	struct mmchal_iommu_domain dom;
	struct mmchal_bounce bounce;
	struct mmchal_host host;
	struct mmchal_host_cfg hc;
	uint64_t nodes[MMCHAL_IOVA_POOL_BYTES(2u * MAXSEG) / 8u + 1u];
	uint32_t meta[64];
	struct mmchal_dma_seg table[MAXSEG];
	uint8_t *store, *shadow;
	uint8_t *arena[2], *ref[2];
	/* counters */
	uint64_t reqs, plan[MMCHAL_PLAN_COUNT], retried, refused, failed, reinit;
};

static struct board B[NBOARDS];

/* ------------------------------------------------------------ totals */

struct totals {
	uint64_t requests, started, ok, failed, refused_on_purpose, refused_other;
	uint64_t errors[MMCHAL_HOST_ERR_SLOTS + 1]; /* by -error; last = other */
	uint64_t faults[MMCHAL_SIM_FAULT_KIND_COUNT];
	uint64_t iommu_faults, reinserts, sync_reqs, layouts[L_COUNT], writes, reads;
	uint64_t bytes, checks, violations;
	uint64_t short_writes, write_prefix_beyond;
};

static struct totals T;
static bool verbose, no_faults;
static uint64_t req_no;
/* what the request in progress saw: fault kinds (bit n = kind n), its plan and error */
static uint32_t req_faults;
static int req_plan = -1, req_err;

static void violation(struct board *b, const char *fmt, const char *what, long long v1,
		      long long v2)
{
	T.violations++;
	if (T.violations <= MAX_VIOL)
		fprintf(stderr,
			"soak: VIOLATION request %" PRIu64 " board %s: %s (%s %lld %lld)"
			" [faults 0x%x plan %d error %d]\n",
			req_no, b->d->name, fmt, what, v1, v2, req_faults, req_plan, req_err);
}

#define CHECK(b, cond, msg, a1, a2)                                                     \
	do {                                                                            \
		T.checks++;                                                             \
		if (!(cond))                                                            \
			violation((b), (msg), #cond, (long long)(a1), (long long)(a2)); \
	} while (0)

static void die(const char *what, int rc)
{
	fprintf(stderr, "soak: %s failed (%d: %s)\n", what, rc, mmchal_strerror(rc));
	exit(2);
}

/* ------------------------------------------------------------ host glue */

static volatile unsigned done_calls;

static void on_done(struct mmchal_request *r)
{
	(void)r;
	done_calls++;
}

static void sim_irq(void *arg)
{
	(void)mmchal_host_irq(&((struct board *)arg)->host);
}

static void dma_notify(void *arg)
{
	(void)mmchal_host_irq(&((struct board *)arg)->host);
}

/* The simulator's IOMMU with the bounce window cut off the aperture the domain sees. */
static int wrap_get_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	struct board *b = ctx;
	int rc = b->sim_iommu.ops->get_caps(b->sim_iommu.ctx, caps);

	if (rc == 0 && b->d->bounce)
		caps->aperture_end = BOUNCE_IOVA - 1u;
	return rc;
}

static int wrap_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
		    uint32_t prot)
{
	struct board *b = ctx;

	return b->sim_iommu.ops->map(b->sim_iommu.ctx, iova, phys, size, prot);
}

static int wrap_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct board *b = ctx;

	return b->sim_iommu.ops->unmap(b->sim_iommu.ctx, iova, size);
}

static int wrap_flush(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	struct board *b = ctx;

	if (!b->sim_iommu.ops->flush)
		return 0;
	return b->sim_iommu.ops->flush(b->sim_iommu.ctx, iova, size);
}

static const struct mmchal_iommu_ops wrap_ops = {wrap_get_caps, wrap_map, wrap_unmap, wrap_flush};

static int cmd_sync(struct board *b, uint32_t op, uint32_t arg, uint32_t flags, uint32_t *resp)
{
	struct mmchal_cmd c = {.opcode = op, .arg = arg, .flags = flags};
	struct mmchal_request r = {.cmd = &c};
	int rc = mmchal_host_request_sync(&b->host, &r, 200);

	if (resp)
		*resp = c.resp[0];
	return rc;
}

static int set_ios(struct board *b, uint32_t hz, enum mmchal_bus_width w, enum mmchal_timing t)
{
	struct mmchal_ios ios = {hz, w, t, MMCHAL_POWER_ON, MMCHAL_SIGNAL_330};

	return mmchal_host_core_ops.set_ios(&b->host, &ios);
}

/* eMMC identification to the transfer state, 8-bit high speed. Faults are off. */
static int identify(struct board *b)
{
	uint32_t r = 0;
	int rc;

	if ((rc = set_ios(b, 400000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY)) != 0)
		return rc;
	if ((rc = cmd_sync(b, 0, 0, MMCHAL_RSP_NONE, NULL)) != 0)
		return rc;
	for (int i = 0; !(r & 0x80000000u); i++) {
		if (i == 100)
			return MMCHAL_ETIMEDOUT;
		if (i)
			mmchal_sim_advance(b->sim, 100000);
		if ((rc = cmd_sync(b, 1, 0x40ff8080u, MMCHAL_RSP_R3, &r)) != 0)
			return rc;
	}
	if ((rc = cmd_sync(b, 2, 0, MMCHAL_RSP_R2, NULL)) != 0 ||
	    (rc = cmd_sync(b, 3, 1u << 16, MMCHAL_RSP_R1, NULL)) != 0 ||
	    (rc = cmd_sync(b, 7, 1u << 16, MMCHAL_RSP_R1B, NULL)) != 0 ||
	    (rc = cmd_sync(b, 6, (3u << 24) | (183u << 16) | (2u << 8), MMCHAL_RSP_R1B, NULL)) !=
		    0 ||
	    (rc = cmd_sync(b, 6, (3u << 24) | (185u << 16) | (1u << 8), MMCHAL_RSP_R1B, NULL)) != 0)
		return rc;
	if ((rc = set_ios(b, 52000000, MMCHAL_BUS_WIDTH_8, MMCHAL_TIMING_MMC_HS)) != 0)
		return rc;
	return mmchal_host_core_ops.init_card(&b->host, MMCHAL_CARD_MMC);
}

static int insert_card(struct board *b)
{
	struct mmchal_sim_card_config cc;

	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.capacity = CARD_BYTES;
	cc.store = b->store;
	return mmchal_sim_card_insert(b->sim, &cc);
}

static uint32_t pattern(uint64_t phys)
{
	uint64_t z = phys * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(z >> 56);
}

static void board_open(struct board *b, const struct bdesc *d)
{
	mmchal_phys_addr_t base[2] = {LO_BASE, HI_BASE};
	int rc;

	memset(b, 0, sizeof(*b));
	b->d = d;
	mmchal_sim_config_defaults(&b->sc, d->soc);
	if ((rc = mmchal_sim_create(&b->sc, &b->sim)) != 0)
		die("sim create", rc);
	for (int i = 0; i < 2; i++) {
		b->arena[i] = malloc(ARENA);
		b->ref[i] = malloc(ARENA);
		if (!b->arena[i] || !b->ref[i])
			die("malloc", MMCHAL_ENOMEM);
		for (uint32_t k = 0; k < ARENA; k++)
			b->ref[i][k] = (uint8_t)pattern(base[i] + k);
		memcpy(b->arena[i], b->ref[i], ARENA);
		if ((rc = mmchal_sim_mem_add(b->sim, base[i], ARENA, b->arena[i])) < 0)
			die("mem add", rc);
	}
	b->store = calloc(1, CARD_BYTES);
	b->shadow = calloc(1, CARD_BYTES);
	if (!b->store || !b->shadow)
		die("malloc", MMCHAL_ENOMEM);
	if ((rc = insert_card(b)) != 0)
		die("card insert", rc);
	mmchal_sim_bus(b->sim, &b->cfg.bus);
	mmchal_sim_port(b->sim, &b->port);
	b->cfg.soc = mmchal_sdhi_soc_lookup(d->kind == MMCHAL_SDHI_SYSDMAC
						    ? "renesas,rcar-gen2-sdhi"
						    : "renesas,rcar-gen3-sdhi");
	b->cfg.clk_hz = 200000000u;
	b->cfg.reg_dma = b->sc.reg_phys;
	b->cfg.caps.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS |
			  MMCHAL_BUS_CMD23;
	b->cfg.caps.completion = MMCHAL_COMPLETES_IN_IRQ;
	mmchal_sim_sysdmac(b->sim, MMCHAL_DIR_TO_CARD, &b->cfg.chan[0]);
	mmchal_sim_sysdmac(b->sim, MMCHAL_DIR_FROM_CARD, &b->cfg.chan[1]);
	b->cfg.dma_notify = dma_notify;
	b->cfg.dma_notify_arg = b;
	if (d->kind == MMCHAL_SDHI_IDMAC)
		rc = mmchal_sdhi_idmac_init(&b->sdhi, &b->cfg, &b->be);
	else if (d->kind == MMCHAL_SDHI_SYSDMAC)
		rc = mmchal_sdhi_sysdmac_init(&b->sdhi, &b->cfg, &b->be);
	else
		rc = mmchal_sdhi_pio_init(&b->sdhi, &b->cfg, &b->be);
	if (rc)
		die("backend init", rc);
	b->hc.backend = &b->be;
	b->hc.port = &b->port;
	b->hc.seg_table = b->table;
	b->hc.seg_table_len = MAXSEG;
	b->hc.pio_retry = d->pio_retry;
	b->hc.cmd_timeout_ms = 20;
	b->hc.data_timeout_ms = 100;
	b->hc.busy_timeout_ms = 100;
	if (d->iommu) {
		struct mmchal_iommu_domain_cfg dc = {.iommu = &b->iommu,
						     .node_mem = b->nodes,
						     .node_mem_size = sizeof(b->nodes),
						     .addr_bits = 32};

		mmchal_sim_iommu_attach(b->sim, NULL);
		mmchal_sim_iommu(b->sim, &b->sim_iommu);
		b->iommu.ops = &wrap_ops;
		b->iommu.ctx = b;
		if ((rc = mmchal_iommu_domain_init(&b->dom, &dc)) != 0)
			die("domain init", rc);
		b->hc.iommu = &b->dom;
	}
	if (d->bounce) {
		mmchal_phys_addr_t phys = 0;
		int reg = mmchal_sim_mem_add(b->sim, BOUNCE_PA, BOUNCE_SZ, NULL);
		void *mem = reg < 0 ? NULL
				    : mmchal_sim_mem_alloc(b->sim, reg, BOUNCE_SZ, 4096, &phys);
		struct mmchal_bounce_cfg bc = {.mem = mem,
					       .dma = phys,
					       .size = BOUNCE_SZ,
					       .meta = b->meta,
					       .meta_size = sizeof(b->meta)};

		if (!mem)
			die("bounce memory", reg);
		if (d->iommu) {
			rc = b->sim_iommu.ops->map(b->sim_iommu.ctx, BOUNCE_IOVA, phys, BOUNCE_SZ,
						   MMCHAL_IOMMU_READ | MMCHAL_IOMMU_WRITE);
			if (rc)
				die("bounce window mapping", rc);
			bc.dma = BOUNCE_IOVA;
		}
		if ((rc = mmchal_bounce_init(&b->bounce, &bc)) != 0)
			die("bounce init", rc);
		b->hc.bounce = &b->bounce;
	}
	if ((rc = mmchal_host_init(&b->host, &b->hc)) != 0)
		die("host init", rc);
	mmchal_sim_set_irq_handler(b->sim, sim_irq, b);
	mmchal_sim_set_verbose(b->sim, verbose);
	if ((rc = identify(b)) != 0)
		die("identification", rc);
}

static void board_close(struct board *b)
{
	mmchal_host_deinit(&b->host);
	mmchal_sim_destroy(b->sim);
	for (int i = 0; i < 2; i++) {
		free(b->arena[i]);
		free(b->ref[i]);
	}
	free(b->store);
	free(b->shadow);
}

/* Take the card out, put it back (same store) and identify it again. */
static void reinit(struct board *b)
{
	int rc = MMCHAL_EIO;

	b->reinit++;
	T.reinserts++;
	for (int tries = 0; tries < 3 && rc != 0; tries++) {
		(void)mmchal_sim_card_remove(b->sim);
		mmchal_sim_run(b->sim, mmchal_sim_now(b->sim) + 100000u);
		(void)mmchal_host_poll(&b->host);
		if ((rc = insert_card(b)) != 0)
			die("card reinsert", rc);
		mmchal_sim_run(b->sim, mmchal_sim_now(b->sim) + 100000u);
		(void)mmchal_host_poll(&b->host);
		rc = identify(b);
	}
	CHECK(b, rc == 0, "card identification after reinsertion", rc, 0);
	if (rc != 0)
		die("identification after reinsertion", rc);
}

/* ------------------------------------------------------------ requests */

struct req {
	struct mmchal_sg sg[MAXSEG];
	uint32_t nsg, region;
	uint8_t *payload; /* write data, gathered */
	uint32_t total;
	enum layout layout;
};

static uint8_t payload_buf[MAXSEG * 4096u];

static uint32_t pick_pages(uint32_t *pages, uint32_t n)
{
	/* n distinct pages of the region, at random */
	static uint32_t perm[ARENA_PG];

	for (uint32_t i = 0; i < ARENA_PG; i++)
		perm[i] = i;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t j = i + below(ARENA_PG - i), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
		pages[i] = perm[i];
	}
	return n;
}

static void add_seg(struct board *b, struct req *q, uint32_t off, uint32_t len)
{
	mmchal_phys_addr_t base = q->region ? HI_BASE : LO_BASE;

	q->sg[q->nsg].cpu = b->arena[q->region] + off;
	q->sg[q->nsg].phys = base + off;
	q->sg[q->nsg].len = len;
	q->nsg++;
	q->total += len;
}

/* Pad an odd layout to whole 512-byte blocks (a new segment on a free page if needed). */
static void pad(struct board *b, struct req *q, uint32_t spare_page)
{
	uint32_t need = (512u - q->total % 512u) % 512u;
	struct mmchal_sg *l = &q->sg[q->nsg - 1u];
	uint32_t end_in_page = (uint32_t)((l->phys + l->len) & 4095u);

	if (need == 0)
		return;
	if (end_in_page != 0 && end_in_page + need <= 4096u) {
		l->len += need;
		q->total += need;
	} else {
		add_seg(b, q, spare_page * 4096u + below(4096u - need + 1u), need);
	}
}

static void gen_layout(struct board *b, struct req *q, uint32_t max_segs)
{
	uint32_t pages[MAXSEG + 1], n;

	memset(q, 0, sizeof(*q));
	q->layout = (enum layout)below(L_COUNT);
	q->region = below(4) == 0;
	if (max_segs > MAXSEG - 1u)
		max_segs = MAXSEG - 1u;
	switch (q->layout) {
	case L_CONTIG: {
		uint32_t blocks = below(8) == 0 ? 1u + below(256) : 1u + below(32);
		uint32_t off = below(4) == 0 ? below(4096) : 0;
		uint32_t start = below(ARENA_PG - 66u);

		add_seg(b, q, start * 4096u + off, blocks * 512u);
		break;
	}
	case L_PAGES:
		n = 1u + below(max_segs);
		pick_pages(pages, n);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t off = 0, len = 4096;

			if (i == 0 && below(3) == 0) {
				off = 512u * below(8);
				len -= off;
			}
			if (i + 1u == n && below(3) == 0 && len > 512u)
				len = 512u * (1u + below(len / 512u));
			add_seg(b, q, pages[i] * 4096u + off, len);
		}
		break;
	case L_ODD:
		n = 1u + below(max_segs < 16u ? max_segs : 16u);
		pick_pages(pages, n + 1u);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t off = below(4096), len = 1u + below(4096u - off);

			add_seg(b, q, pages[i] * 4096u + off, len);
		}
		pad(b, q, pages[n]);
		break;
	default:
		n = 1u + below(max_segs);
		pick_pages(pages, n + 1u);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t len = 8u + below(505), off = below(4096u - len + 1u);

			add_seg(b, q, pages[i] * 4096u + off, len);
		}
		pad(b, q, pages[n]);
		break;
	}
}

static void gather(const struct req *q, uint8_t *out)
{
	uint32_t o = 0;

	for (uint32_t i = 0; i < q->nsg; i++) {
		memcpy(out + o, q->sg[i].cpu, q->sg[i].len);
		o += q->sg[i].len;
	}
}

static void scatter(const struct req *q, const uint8_t *in)
{
	uint32_t o = 0;

	for (uint32_t i = 0; i < q->nsg; i++) {
		memcpy(q->sg[i].cpu, in + o, q->sg[i].len);
		o += q->sg[i].len;
	}
}

/* Put the buffers back to the reference pattern. */
static void restore(struct board *b, const struct req *q)
{
	for (uint32_t i = 0; i < q->nsg; i++) {
		uint8_t *p = q->sg[i].cpu;
		size_t off = (size_t)(p - b->arena[q->region]);

		memcpy(p, b->ref[q->region] + off, q->sg[i].len);
	}
}

static int first_error(const struct mmchal_request *r)
{
	if (r->sbc && r->sbc->error)
		return r->sbc->error;
	if (r->cmd->error)
		return r->cmd->error;
	if (r->data && r->data->error)
		return r->data->error;
	if (r->stop && r->stop->error)
		return r->stop->error;
	return 0;
}

static void count_error(int err)
{
	int i = -err;

	T.errors[i > 0 && i < MMCHAL_HOST_ERR_SLOTS ? i : MMCHAL_HOST_ERR_SLOTS]++;
}

/* Arm the faults of one request. */
static void arm_faults(struct board *b, uint32_t blocks)
{
	uint32_t all = (1u << MMCHAL_SIM_FAULT_KIND_COUNT) - 1u;
	struct mmchal_sim_fault f = {0};

	if (below(4) != 0)
		mmchal_sim_fault_random(b->sim, rnd(), 1000u + below(15000), all);
	if (below(8) == 0) {
		static const enum mmchal_sim_fault_kind bk[] = {
			MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_FAULT_DATA_TIMEOUT,
			MMCHAL_SIM_FAULT_END_BIT, MMCHAL_SIM_FAULT_DMA_ERROR,
			MMCHAL_SIM_FAULT_IOMMU};

		f.kind = bk[below(5)];
		f.trigger = MMCHAL_SIM_AT_BLOCK;
		f.opcode = MMCHAL_SIM_ANY_OPCODE;
		f.count = below(blocks);
		(void)mmchal_sim_fault_add(b->sim, &f);
	}
	if (below(8) == 0) {
		f.kind = (enum mmchal_sim_fault_kind)below(MMCHAL_SIM_FAULT_KIND_COUNT);
		f.trigger = MMCHAL_SIM_AT_TIME;
		f.opcode = MMCHAL_SIM_ANY_OPCODE;
		f.t_ns = mmchal_sim_now(b->sim) + below(blocks * 4000u + 200000u);
		(void)mmchal_sim_fault_add(b->sim, &f);
	}
}

static void disarm_faults(struct board *b)
{
	mmchal_sim_fault_clear(b->sim);
}

/* Drive one started request to its completion; false when it never completed. */
static bool wait_done(struct board *b)
{
	uint64_t limit = mmchal_sim_now(b->sim) + 2000000000ull;

	for (uint32_t it = 0; done_calls == 0; it++) {
		if (mmchal_sim_now(b->sim) > limit || it > 2000000u)
			return false;
		mmchal_sim_run(b->sim, mmchal_sim_now(b->sim) + 200000u);
		(void)mmchal_host_poll(&b->host);
	}
	return true;
}

/* Wait for the card to end programming; false when DAT0 stays low. */
static bool wait_not_busy(struct board *b)
{
	for (int i = 0; i < 2000; i++) {
		int busy = b->be.ops->card_busy(b->be.ctx);

		if (busy != 1)
			return true;
		mmchal_sim_advance(b->sim, 50000);
	}
	return false;
}

static void check_leaks(struct board *b)
{
	struct mmchal_host_stats st;

	mmchal_host_stats(&b->host, &st);
	CHECK(b, st.iova_pages == 0, "IOVA pages left mapped (host)", st.iova_pages, 0);
	CHECK(b, st.bounce_slots == 0, "bounce slots left in use (host)", st.bounce_slots, 0);
	if (b->d->iommu) {
		struct mmchal_iommu_domain_stats ds;
		struct mmchal_sim_iommu_stats is;

		mmchal_iommu_domain_get_stats(&b->dom, &ds);
		mmchal_sim_iommu_stats(b->sim, &is);
		CHECK(b, ds.pages_mapped == 0, "IOVA pages left mapped (domain)", ds.pages_mapped,
		      0);
		uint64_t fixed = b->d->bounce ? BOUNCE_SZ / MMCHAL_SIM_IOMMU_PAGE : 0;

		CHECK(b, is.mapped_pages == fixed, "pages left mapped in the IOMMU",
		      is.mapped_pages, fixed);
	}
	if (b->d->bounce)
		CHECK(b, mmchal_bounce_in_use(&b->bounce) == 0, "bounce slots left in use",
		      mmchal_bounce_in_use(&b->bounce), 0);
}

static void check_memory(struct board *b)
{
	for (int i = 0; i < 2; i++) {
		bool same = memcmp(b->arena[i], b->ref[i], ARENA) == 0;
		uint32_t at = 0;

		if (!same)
			while (b->arena[i][at] == b->ref[i][at])
				at++;
		CHECK(b, same, "RAM outside the buffers changed", i, at);
	}
	CHECK(b, memcmp(b->store, b->shadow, CARD_BYTES) == 0, "card differs from the shadow", 0,
	      0);
}

static uint8_t got_buf[MAXSEG * 4096u];

static void one_request(struct board *b)
{
	const struct mmchal_limits *lim = mmchal_host_limits(&b->host);
	struct req q;
	struct mmchal_cmd sbc = {.opcode = 23, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd cmd = {.flags = MMCHAL_RSP_R1};
	struct mmchal_cmd stop = {.opcode = 12, .flags = MMCHAL_RSP_R1B};
	struct mmchal_data data = {.blksz = 512};
	struct mmchal_request r = {.cmd = &cmd, .data = &data, .done = on_done};
	struct mmchal_host_stats st0, st1;
	struct mmchal_sim_iommu_stats is0 = {0}, is1 = {0};
	uint32_t fired0[MMCHAL_SIM_FAULT_KIND_COUNT], fired = 0, lba, blocks;
	bool write = below(2), sync = below(8) == 0, broken = below(64) == 0, done_ok;
	bool any_fault, busy_ok, refused, must_fail = false, retried;
	int rc, err, tries = 0;
	uint64_t start_off;

	do {
		gen_layout(b, &q, lim->max_segs);
		data.sg = q.sg;
		data.sg_len = q.nsg;
		data.blocks = q.total / 512u;
		tries++;
	} while (mmchal_request_check(&(struct mmchal_request){.cmd = &cmd, .data = &data}, lim,
				      NULL) != 0 &&
		 tries < 20);
	blocks = q.total / 512u;
	lba = below(CARD_SECT - blocks + 1u);
	start_off = (uint64_t)lba * 512u;
	data.dir = write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
	data.blocks = blocks;
	data.timeout_ns = 50000000u;
	cmd.arg = lba;
	if (blocks == 1 && below(2)) {
		cmd.opcode = write ? 24u : 17u;
	} else {
		cmd.opcode = write ? 25u : 18u;
		if (below(2)) {
			sbc.arg = blocks;
			r.sbc = &sbc;
		} else {
			r.stop = &stop;
		}
	}
	if (broken)
		data.blocks = blocks + 1u; /* lengths no longer add up: must be refused */
	T.layouts[q.layout]++;
	b->reqs++;
	T.requests++;
	if (write) {
		T.writes++;
		for (uint32_t i = 0; i < q.total; i++)
			payload_buf[i] = (uint8_t)rnd();
		scatter(&q, payload_buf);
	} else {
		T.reads++;
		for (uint32_t i = 0; i < q.nsg; i++)
			memset(q.sg[i].cpu, 0x5a, q.sg[i].len);
	}

	mmchal_host_stats(&b->host, &st0);
	if (b->d->iommu)
		mmchal_sim_iommu_stats(b->sim, &is0);
	for (int k = 0; k < MMCHAL_SIM_FAULT_KIND_COUNT; k++)
		fired0[k] = mmchal_sim_faults_fired(b->sim, (enum mmchal_sim_fault_kind)k);
	if (!broken && !no_faults)
		arm_faults(b, blocks);

	done_calls = 0;
	if (sync) {
		T.sync_reqs++;
		rc = mmchal_host_request_sync(&b->host, &r, 0);
		done_ok = true;
	} else {
		rc = mmchal_host_request(&b->host, &r);
		done_ok = rc != 0 || wait_done(b);
	}
	disarm_faults(b);
	CHECK(b, done_ok, "request never completed", 0, 0);
	if (!done_ok) {
		(void)mmchal_host_abort(&b->host);
		die("request never completed", 0);
	}
	err = rc != 0 ? rc : first_error(&r);
	if (sync)
		CHECK(b, rc == first_error(&r) || (rc < 0 && done_calls == 0),
		      "sync return is not the first error", rc, first_error(&r));
	/* a started request completes exactly once, and not again later */
	busy_ok = !write || wait_not_busy(b);
	mmchal_sim_run(b->sim, mmchal_sim_now(b->sim) + 1000000u);
	(void)mmchal_host_poll(&b->host);
	mmchal_host_stats(&b->host, &st1);
	if (rc != 0 && st1.requests == st0.requests) {
		/* refused before the start: nothing sent, done never called */
		CHECK(b, done_calls == 0, "done called for a refused request", done_calls, rc);
		CHECK(b, rc < 0, "refusal is not an error", rc, 0);
		if (broken) {
			CHECK(b, rc == MMCHAL_EINVAL, "broken request not refused as invalid", rc,
			      0);
			T.refused_on_purpose++;
		} else {
			T.refused_other++;
			b->refused++;
		}
	} else {
		CHECK(b, !broken, "broken request was started", rc, 0);
		CHECK(b, done_calls == 1, "done not called exactly once", done_calls, 1);
		CHECK(b, st1.completed == st0.completed + 1u, "host completion count",
		      st1.completed - st0.completed, 1);
		T.started++;
	}
	req_plan = -1;
	req_err = err;
	req_faults = 0;
	for (int p = 0; p < MMCHAL_PLAN_COUNT; p++) {
		b->plan[p] += st1.plan[p] - st0.plan[p];
		if (st1.plan[p] != st0.plan[p])
			req_plan = p;
	}
	b->retried += st1.pio_retries - st0.pio_retries;

	/* faults of this request */
	for (int k = 0; k < MMCHAL_SIM_FAULT_KIND_COUNT; k++) {
		uint32_t d = mmchal_sim_faults_fired(b->sim, (enum mmchal_sim_fault_kind)k) -
			     fired0[k];

		T.faults[k] += d;
		fired += d;
		if (d)
			req_faults |= 1u << k;
		if (d && (k == MMCHAL_SIM_FAULT_CMD_TIMEOUT || k == MMCHAL_SIM_FAULT_CMD_CRC ||
			  k == MMCHAL_SIM_FAULT_DATA_CRC || k == MMCHAL_SIM_FAULT_DATA_TIMEOUT ||
			  k == MMCHAL_SIM_FAULT_END_BIT))
			must_fail = true;
	}
	/* a command or data fault fails the request, unless a PIO retry (after a DMA
	   fault in the same request) ran the whole request again */
	retried = st1.pio_retries > st0.pio_retries;
	CHECK(b, err != 0 || !must_fail || retried, "command/data fault without an error",
	      req_faults, retried);
	any_fault = fired != 0;
	if (b->d->iommu) {
		mmchal_sim_iommu_stats(b->sim, &is1);
		T.iommu_faults += is1.faults - is0.faults;
		if (is1.faults != is0.faults)
			CHECK(b, err != 0 || retried, "IOMMU fault not reported",
			      is1.faults - is0.faults, err);
	}
	refused = rc != 0 && st1.requests == st0.requests;
	if (!refused && err) {
		T.failed++;
		b->failed++;
		count_error(err);
	} else if (!refused) {
		T.ok++;
		T.bytes += q.total;
	}

	/* data */
	if (refused) {
		/* refused: the card and the buffers are untouched */
		if (write) {
			gather(&q, got_buf);
			CHECK(b, memcmp(got_buf, payload_buf, q.total) == 0,
			      "refused write changed its buffers", 0, 0);
		}
	} else if (!write) {
		gather(&q, got_buf);
		if (err == 0) {
			CHECK(b, data.bytes_xfered == q.total, "read bytes_xfered",
			      data.bytes_xfered, q.total);
			CHECK(b, memcmp(got_buf, b->shadow + start_off, q.total) == 0,
			      "read data differs from the card", q.total, lba);
		} else {
			CHECK(b, data.bytes_xfered <= q.total && data.bytes_xfered % 512u == 0,
			      "failed read bytes_xfered", data.bytes_xfered, q.total);
			CHECK(b, memcmp(got_buf, b->shadow + start_off, data.bytes_xfered) == 0,
			      "failed read: the bytes it reported differ from the card",
			      data.bytes_xfered, lba);
		}
	} else {
		uint8_t *card = b->store + start_off, *old = b->shadow + start_off;

		if (err == 0) {
			CHECK(b, data.bytes_xfered == q.total, "write bytes_xfered",
			      data.bytes_xfered, q.total);
			CHECK(b, memcmp(card, payload_buf, q.total) == 0,
			      "written data differs on the card", q.total, lba);
		} else {
			/* a prefix of whole new blocks, then the old ones */
			uint32_t k = 0, bad = 0;
			bool in_prefix = true;

			for (uint32_t i = 0; i < blocks; i++) {
				bool is_new = memcmp(card + i * 512u, payload_buf + i * 512u,
						     512) == 0;
				bool is_old = memcmp(card + i * 512u, old + i * 512u, 512) == 0;

				if (is_new && in_prefix)
					k = i + 1u;
				else if (is_old)
					in_prefix = false;
				else
					bad++;
			}
			CHECK(b, bad == 0, "failed write: card blocks neither a new prefix nor old",
			      bad, blocks);
			CHECK(b, (uint64_t)k * 512u >= data.bytes_xfered,
			      "failed write: bytes_xfered beyond what the card holds",
			      data.bytes_xfered, k * 512u);
			if (k < blocks)
				T.short_writes++;
			if ((uint64_t)k * 512u > data.bytes_xfered)
				T.write_prefix_beyond++;
		}
		/* the shadow takes what the card kept (checked above) */
		memcpy(old, card, q.total);
		/* a refused or failed write must not have changed its own buffers */
		gather(&q, got_buf);
		CHECK(b, memcmp(got_buf, payload_buf, q.total) == 0, "write changed its buffers", 0,
		      0);
	}
	restore(b, &q);
	check_leaks(b);
	check_memory(b);
	if ((err && !refused) || any_fault || !busy_ok)
		reinit(b);
}

/* ------------------------------------------------------------ main */

static const char *const kind_name[MMCHAL_SIM_FAULT_KIND_COUNT] = {
	"cmd-timeout", "cmd-crc", "data-crc",     "data-timeout", "end-bit",
	"dma-error",   "iommu",   "card-removal", "stuck-busy"};

int main(int argc, char **argv)
{
	uint64_t n = 100000, seed = 1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--requests") && i + 1 < argc)
			n = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--verbose"))
			verbose = true;
		else if (!strcmp(argv[i], "--no-faults"))
			no_faults = true;
		else {
			fprintf(stderr,
				"usage: %s [--requests N] [--seed S] [--no-faults] [--verbose]\n",
				argv[0]);
			return 2;
		}
	}
	rng_s = seed;
	for (size_t i = 0; i < NBOARDS; i++) {
		board_open(&B[i], &boards[i]);
		/* the shadow starts as the card's (zeroed) store */
		memcpy(B[i].shadow, B[i].store, CARD_BYTES);
	}
	for (req_no = 0; req_no < n; req_no++) {
		one_request(&B[below(NBOARDS)]);
		if (T.violations > MAX_VIOL)
			break;
	}

	printf("soak: seed %" PRIu64 ", %" PRIu64 " requests (%" PRIu64 " reads, %" PRIu64
	       " writes, %" PRIu64 " by request_sync)\n",
	       seed, T.requests, T.reads, T.writes, T.sync_reqs);
	printf("soak: %" PRIu64 " started, %" PRIu64 " ok (%" PRIu64 " bytes), %" PRIu64
	       " failed with an error; refused: %" PRIu64 " on purpose (broken), %" PRIu64
	       " otherwise\n",
	       T.started, T.ok, T.bytes, T.failed, T.refused_on_purpose, T.refused_other);
	printf("soak: layouts:");
	for (int l = 0; l < L_COUNT; l++)
		printf(" %s %" PRIu64, layout_name[l], T.layouts[l]);
	printf("\nsoak: plans per attempt (a PIO retry after a DMA fault counts again as PIO)");
	printf("\n%-20s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "board", "requests", "PIO",
	       "DIRECT", "MERGED", "BOUNCED", "retried", "failed", "refused", "reinit");
	for (size_t i = 0; i < NBOARDS; i++) {
		const struct board *b = &B[i];

		printf("%-20s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64
		       " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 "\n",
		       b->d->name, b->reqs, b->plan[MMCHAL_PLAN_PIO], b->plan[MMCHAL_PLAN_DIRECT],
		       b->plan[MMCHAL_PLAN_IOMMU_MERGED], b->plan[MMCHAL_PLAN_BOUNCED], b->retried,
		       b->failed, b->refused, b->reinit);
	}
	printf("soak: errors:");
	for (int e = 1; e <= MMCHAL_HOST_ERR_SLOTS; e++) {
		if (T.errors[e])
			printf(" %s %" PRIu64,
			       e < MMCHAL_HOST_ERR_SLOTS ? mmchal_strerror(-e) : "other",
			       T.errors[e]);
	}
	printf("\nsoak: faults injected:");
	for (int k = 0; k < MMCHAL_SIM_FAULT_KIND_COUNT; k++)
		printf(" %s %" PRIu64, kind_name[k], T.faults[k]);
	printf("\nsoak: IOMMU faults raised %" PRIu64 ", card reinsertions %" PRIu64
	       ", failed writes that kept fewer blocks than asked %" PRIu64
	       " (more than bytes_xfered: %" PRIu64 ")\n",
	       T.iommu_faults, T.reinserts, T.short_writes, T.write_prefix_beyond);
	printf("soak: checks passed %" PRIu64 " of %" PRIu64 ", violations %" PRIu64 "\n",
	       T.checks - T.violations, T.checks, T.violations);
	for (size_t i = 0; i < NBOARDS; i++)
		board_close(&B[i]);
	return T.violations ? 1 : 0;
}
