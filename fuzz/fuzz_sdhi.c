/*
 * libFuzzer target: a broken or glitching SDHI controller against the SDHI
 * backends (under the host core) and the eMMC boot reader.
 *
 * The input is a fixed header of FUZZ_SDHI_HDR bytes (bytes past the end read
 * as 0) and then a stream: every register read of the library takes its value
 * from the stream, 2, 4 or 8 bytes little-endian. Once the stream is used up a
 * read returns a fixed pattern chosen by header byte 0 (0 and all ones in turn,
 * all zeros, or all ones), so every bounded wait must end on its own.
 *
 * Header byte 0, bit 0 chooses the mode:
 *  0 host-core mode: an SDHI backend (internal DMAC, SYS-DMAC or PIO; the SoC
 *    entry from the library's table) under the host core with polled
 *    completion runs up to 6 requests (command only, R1b, R2, R3, single and
 *    multiple block reads and writes into guarded caller buffers, set_ios,
 *    queries), each synchronously or by mmchal_host_request() + _poll();
 *  1 boot-reader mode: mmchal_emmc_boot_init() and up to 3
 *    mmchal_emmc_boot_read() calls.
 *
 * The fake DMA engines move data only inside the buffers they were given: the
 * internal DMAC on its start bit (SD_SIZE x SD_SECCNT bytes at DM_DTRAN_ADDR,
 * which must lie in one caller buffer), a SYS-DMAC channel a number of
 * register reads after submit (its segments must lie in the request's buffers).
 * In boot mode the DMAC fills the EXT_CSD scratch buffer from the stream.
 *
 * Checked (fuzz_sdhi_run() returns the number of the first broken property):
 *  1 a register access outside the declared window or at an illegal width or
 *    alignment (a 16-bit register at reg << bus_shift, 32-bit accesses 4-byte
 *    aligned, 64-bit only at the data port and DM_DTRAN_ADDR, DM_* 32-bit);
 *  2 a call returned a value its header does not document;
 *  3 a request's done callback ran other than exactly once (or after a refusal);
 *  4 a single request or call took more than 10^6 bus accesses, or the boot
 *    reader made more than 256 accesses between two delay_us calls;
 *  5 a guard byte around a buffer changed, or a write request's buffer changed;
 *  6 a DMA engine was programmed outside the caller's buffers;
 *  7 a PIO request that succeeded did not move all its bytes through the port,
 *    or a data request's buffers do not hold, in order, the bytes that crossed
 *    the port or the engine;
 *  8 the host refused a request as busy with nothing in flight;
 *  9 the boot reader waited longer than its documented bounds allow.
 * ASan and UBSan report any access outside the (exactly sized) allocations.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/error.h>
#include <mmchal/host_core.h>
#include <mmchal/sdhi.h>
#include <mmchal/sdhi_boot.h>

#include "fuzz_harness.h"
#include "fuzz_sdhi.h"

/* Registers, from REFERENCE.md (logical offsets; DM_* are byte offsets). */
#define R_CMD      0x00u
#define R_ARG      0x04u
#define R_STOP     0x08u
#define R_SECCNT   0x0au
#define R_SIZE     0x26u
#define R_BUF0     0x30u
#define R_SOFT_RST 0xe0u
#define R_TOP      0x100u /* logical registers end here */
#define DM_CTRL    0x828u
#define DM_ADDR    0x880u

#define CMD_DATA  0x0800u
#define CMD_READ  0x1000u
#define CMD_MULTI 0x2000u
#define STOP_SEC  0x0100u

#define ACCESS_MAX    1000000u
#define BOOT_SPIN_MAX 256u
#define MAX_REQS      6u
#define PHYS_BASE     0x10000000ull
#define PHYS_STRIDE   0x00100000ull
#define REG_DMA       0xe6800000ull
#define NOW_STEP_NS   1000000u /* every now_ns call: 1 ms */

/* properties of this target; 2, 3, 5, 7 and 8 are fuzz_harness.h's */
enum prop {
	P_WINDOW = 1,
	P_RETVAL = FH_P_RETVAL,
	P_BOUND = 4,
	P_DMA = 6,
	P_PIO = FH_P_DATA,
	P_BUSY = FH_P_BUSY,
	P_BOOT_TIME = 9,
};

struct fchan {
	int dir;
	bool armed; /* prepared and submitted, completion pending */
	bool prepared;
	uint32_t countdown; /* register reads until completion */
	int status;
	struct mmchal_dma_xfer x;
	struct mmchal_dma_seg segs[32];
};

struct fz {
	struct fuzz_h f; /* the stream, buffers (fh_region::scratch: the boot reader's EXT_CSD
			    buffer, filled from the stream), the bus log, the jump out */
	fuzz_sdhi_oracle_fn oracle;
	void *octx;
	/* the window */
	uint32_t win;
	uint8_t shift;
	bool dm_regs;
	/* registers as written */
	uint16_t size, stop, cmd;
	uint32_t seccnt, arg, dm_mode;
	uint64_t dm_addr;
	uint8_t ext[3];
	/* the current data phase: bytes the port must move, and moved */
	uint32_t port_width;
	uint32_t data_total, port_moved;
	bool pio_seen, dma_seen;
	/* accounting */
	uint64_t accesses, spin, delays, delayed_us, now;
	bool boot;
	/* SYS-DMAC channels */
	struct fchan ch[2];
	uint8_t ch_caps;
	uint64_t rx_offset;
};

static struct fz Z;

/* FUZZ_SDHI_TRACE=1 in the environment: every access and call on stderr. */
static int trace = -1;

static void tr(const char *what, uint32_t off, unsigned int width, uint64_t val)
{
	if (trace < 0)
		trace = getenv("FUZZ_SDHI_TRACE") != NULL;
	if (trace)
		fprintf(stderr, "%s %04x/%u %llx\n", what, off, width, (unsigned long long)val);
}

static _Noreturn void broken(struct fz *z, int prop, const char *what, uint64_t v)
{
	fh_broken(&z->f, prop, what, v);
}

/* ------------------------------------------------------------ the stream */

static uint8_t hdr_byte(const uint8_t *h, size_t n, size_t i)
{
	return i < n ? h[i] : 0;
}

static uint64_t take(struct fz *z, unsigned int nbytes, const struct fuzz_sdhi_view *v)
{
	if (z->oracle)
		return fh_record(&z->f, z->oracle(z->octx, v), nbytes);
	return fh_take(&z->f, nbytes);
}

static void view_of(const struct fz *z, struct fuzz_sdhi_view *v)
{
	memset(v, 0, sizeof(*v));
	v->shift = z->shift;
	v->cmd = z->cmd;
	v->arg = z->arg;
	memcpy(v->ext, z->ext, sizeof(v->ext));
	v->data_left = z->dma_seen || z->data_total <= z->port_moved
			       ? 0
			       : z->data_total - z->port_moved;
}

/* ------------------------------------------------------------ buffers */

/* A DMA engine moves @p len bytes at @p phys: reads fill (from the stream for the
   boot scratch buffer, else a pattern of the offset in the transfer), writes read
   every byte; both are logged. */
static void dma_move(struct fz *z, uint64_t phys, uint64_t len, bool to_mem)
{
	struct fh_region *r = fh_region_at(&z->f, phys, len);
	uint8_t *p;
	volatile uint8_t sink = 0;

	if (!r || len == 0)
		broken(z, P_DMA, "DMA outside the caller's buffers at", phys);
	p = r->cpu + (phys - r->phys);
	z->dma_seen = true;
	for (uint64_t i = 0; i < len; i++) {
		if (!to_mem) {
			sink ^= p[i];
		} else if (r->scratch && i < 512u) {
			struct fuzz_sdhi_view v;

			view_of(z, &v);
			v.fill = true;
			v.off = (uint32_t)i;
			p[i] = (uint8_t)take(z, 1, &v);
		} else {
			p[i] = (uint8_t)(z->f.logged * 13u + 7u);
		}
		fh_log(&z->f, p[i], 1);
	}
	(void)sink;
}

/* ------------------------------------------------------------ SYS-DMAC channels */

static void chan_tick(struct fz *z)
{
	for (unsigned int d = 0; d < 2; d++) {
		struct fchan *c = &z->ch[d];

		if (!c->armed || c->countdown-- > 0)
			continue;
		c->armed = false;
		if (c->status == 0)
			for (uint32_t i = 0; i < c->x.nsegs; i++)
				dma_move(z, c->segs[i].addr, c->segs[i].len,
					 c->x.dir == MMCHAL_DIR_FROM_CARD);
		c->x.done(c->x.done_arg, c->status);
	}
}

static int ch_get_caps(void *ctx, struct mmchal_dma_dir_caps *caps)
{
	struct fchan *c = ctx;
	uint8_t b = Z.ch_caps;

	memset(caps, 0, sizeof(*caps));
	if ((b & 0x80u) && c->dir == MMCHAL_DIR_TO_CARD)
		return MMCHAL_EIO;
	caps->addr_bits = 32;
	caps->max_segs = 1u + (b & 0x1fu);
	caps->max_seg_size = (b & 0x20u) ? 4096u : 0xffffffffu;
	caps->addr_align = (b & 0x40u) ? 4u : 0u;
	caps->coherent = true;
	return 0;
}

static int ch_prepare(void *ctx, const struct mmchal_dma_xfer *x)
{
	struct fchan *c = ctx;
	struct fz *z = &Z;
	uint64_t port = REG_DMA + ((uint64_t)R_BUF0 << z->shift);
	struct fuzz_sdhi_view v;

	if (x->dir != (enum mmchal_dir)c->dir || x->done == NULL || x->nsegs == 0 ||
	    x->nsegs > 32u || x->segs == NULL)
		broken(z, P_DMA, "SYS-DMAC transfer malformed, nsegs", x->nsegs);
	if (x->dev_addr != port + (x->dir == MMCHAL_DIR_FROM_CARD ? z->rx_offset : 0) ||
	    (x->dev_width != 2 && x->dev_width != 4 && x->dev_width != 8))
		broken(z, P_DMA, "SYS-DMAC device port wrong", x->dev_addr);
	for (uint32_t i = 0; i < x->nsegs; i++) {
		if (!fh_region_at(&z->f, x->segs[i].addr, x->segs[i].len) || x->segs[i].len == 0)
			broken(z, P_DMA, "SYS-DMAC segment outside the buffers", x->segs[i].addr);
		c->segs[i] = x->segs[i];
	}
	c->x = *x;
	c->armed = false;
	view_of(z, &v);
	v.off = 0xffffffffu; /* not a register: the channel's answer */
	v.width = 1;
	c->prepared = !(take(z, 1, &v) & 0x80u);
	return c->prepared ? 0 : MMCHAL_EIO;
}

static int ch_submit(void *ctx)
{
	struct fchan *c = ctx;
	struct fuzz_sdhi_view v;
	uint8_t b;

	if (!c->prepared)
		broken(&Z, P_DMA, "SYS-DMAC submit without prepare", 0);
	view_of(&Z, &v);
	v.off = 0xffffffffu;
	v.width = 1;
	b = (uint8_t)take(&Z, 1, &v);
	if (b & 0x80u)
		return MMCHAL_EIO;
	c->prepared = false;
	c->armed = true;
	c->countdown = b & 0x1fu;
	c->status = (b & 0x40u) ? MMCHAL_EIO : 0;
	return 0;
}

static int ch_terminate(void *ctx)
{
	struct fchan *c = ctx;

	c->armed = false;
	c->prepared = false;
	return 0;
}

static const struct mmchal_dma_chan_ops chan_ops = {
	.get_caps = ch_get_caps,
	.prepare = ch_prepare,
	.submit = ch_submit,
	.terminate = ch_terminate,
};

/* ------------------------------------------------------------ the bus */

static bool dm_reg(uint32_t off)
{
	switch (off) {
	case 0x820u: /* DM_CM_DTRAN_MODE */
	case 0x828u: /* DM_CM_DTRAN_CTRL */
	case 0x830u: /* DM_CM_RST */
	case 0x840u: /* DM_CM_INFO1 */
	case 0x848u: /* DM_CM_INFO1_MASK */
	case 0x850u: /* DM_CM_INFO2 */
	case 0x858u: /* DM_CM_INFO2_MASK */
	case 0x880u: /* DM_DTRAN_ADDR */
	case 0x888u: /* DM_DTRAN_ADDR upper half */
		return true;
	default:
		return false;
	}
}

static void bus_access(struct fz *z, uint32_t off, unsigned int width)
{
	bool ok = false;

	z->accesses++;
	z->spin++;
	if (z->accesses > ACCESS_MAX)
		broken(z, P_BOUND, "more bus accesses than allowed in one call", z->accesses);
	if (z->boot && z->spin > BOOT_SPIN_MAX)
		broken(z, P_BOUND, "boot reader: accesses without a delay", z->spin);
	if (off < z->win && width <= z->win - off && !(off & (width - 1u))) {
		if (off < (R_TOP << z->shift)) {
			uint32_t reg = off >> z->shift;

			ok = !(off & ((1u << z->shift) - 1u)) && !(reg & 1u);
			if (width == 8)
				ok = ok && reg == R_BUF0 && z->shift == 2;
		} else if (z->dm_regs && dm_reg(off)) {
			ok = width == 4 || (width == 8 && off == DM_ADDR);
		}
	}
	if (!ok)
		broken(z, P_WINDOW, "illegal register access at", ((uint64_t)width << 32) | off);
}

static bool is_port(const struct fz *z, uint32_t off)
{
	return off == (R_BUF0 << z->shift);
}

static void port_access(struct fz *z, unsigned int width)
{
	if (z->pio_seen && width != z->port_width)
		broken(z, P_WINDOW, "data port accessed at two widths", width);
	z->pio_seen = true;
	z->port_width = width;
	z->port_moved += width;
}

static uint64_t bus_read(struct fz *z, uint32_t off, unsigned int width)
{
	struct fuzz_sdhi_view v;
	uint64_t val;

	bus_access(z, off, width);
	chan_tick(z);
	if (is_port(z, off))
		port_access(z, width);
	view_of(z, &v);
	v.off = off;
	v.width = width;
	val = take(z, width, &v);
	if (is_port(z, off))
		fh_log(&z->f, val, width);
	tr("rd", off, width, val);
	return val;
}

static void bus_write(struct fz *z, uint32_t off, unsigned int width, uint64_t val)
{
	tr("wr", off, width, val);
	bus_access(z, off, width);
	if (is_port(z, off)) {
		port_access(z, width);
		fh_log(&z->f, val, width);
		return;
	}
	if (off >= (R_TOP << z->shift)) {
		if (off == 0x820u)
			z->dm_mode = (uint32_t)val;
		if (off == DM_ADDR)
			z->dm_addr = width == 8 ? val
						: (z->dm_addr & ~0xffffffffull) | (uint32_t)val;
		if (off == 0x888u)
			z->dm_addr = (z->dm_addr & 0xffffffffull) | (val << 32);
		if (off == DM_CTRL && (val & 1u)) {
			/* SD_SIZE x SD_SECCNT bytes (one block without SD_STOP.SEC) */
			uint64_t len = (uint64_t)(z->size & 0x3ffu) *
				       ((z->stop & STOP_SEC) ? z->seccnt : 1u);

			dma_move(z, z->dm_addr, len, (z->dm_mode & (1u << 16)) != 0);
		}
		return;
	}
	switch (off >> z->shift) {
	case R_SIZE:
		z->size = (uint16_t)val;
		break;
	case R_STOP:
		z->stop = (uint16_t)val;
		break;
	case R_SECCNT:
		z->seccnt = width == 4 ? (uint32_t)val : (z->seccnt & 0xffff0000u) | (uint16_t)val;
		break;
	case R_SECCNT + 2u:
		z->seccnt = (z->seccnt & 0xffffu) | ((uint32_t)(uint16_t)val << 16);
		break;
	case R_ARG:
		z->arg = width == 4 ? (uint32_t)val : (z->arg & 0xffff0000u) | (uint16_t)val;
		break;
	case R_ARG + 2u:
		z->arg = (z->arg & 0xffffu) | ((uint32_t)(uint16_t)val << 16);
		break;
	case R_SOFT_RST:
		if (!(val & 1u)) {
			/* reset values: one 512-byte block, no sector count */
			z->size = 512;
			z->stop = 0;
			z->seccnt = 0;
		}
		break;
	case R_CMD:
		z->cmd = (uint16_t)val;
		if (val & CMD_DATA) {
			/* a data phase starts: what the port or the engine must move */
			z->port_moved = 0;
			z->f.logged = 0;
			z->pio_seen = false;
			z->dma_seen = false;
			z->data_total = (uint32_t)(z->size & 0x3ffu) *
					((val & CMD_MULTI) && (z->stop & STOP_SEC) ? z->seccnt
										   : 1u);
		}
		/* CMD6 SWITCH, write byte: remember BUS_WIDTH and HS_TIMING (oracles) */
		if ((val & 0x3fu) == 6u && ((z->arg >> 24) & 3u) == 3u) {
			uint32_t idx = (z->arg >> 16) & 0xffu;

			if (idx == 183u)
				z->ext[0] = (uint8_t)(z->arg >> 8);
			if (idx == 185u)
				z->ext[1] = (uint8_t)(z->arg >> 8);
		}
		break;
	default:
		break;
	}
}

static uint16_t b_rd16(void *ctx, uint32_t off)
{
	return (uint16_t)bus_read(ctx, off, 2);
}

static void b_wr16(void *ctx, uint32_t off, uint16_t val)
{
	bus_write(ctx, off, 2, val);
}

static uint32_t b_rd32(void *ctx, uint32_t off)
{
	return (uint32_t)bus_read(ctx, off, 4);
}

static void b_wr32(void *ctx, uint32_t off, uint32_t val)
{
	bus_write(ctx, off, 4, val);
}

static uint64_t b_rd64(void *ctx, uint32_t off)
{
	return bus_read(ctx, off, 8);
}

static void b_wr64(void *ctx, uint32_t off, uint64_t val)
{
	bus_write(ctx, off, 8, val);
}

static const struct mmchal_bus_ops bus_ops64 = {
	.read16 = b_rd16,
	.write16 = b_wr16,
	.read32 = b_rd32,
	.write32 = b_wr32,
	.read64 = b_rd64,
	.write64 = b_wr64,
};

static const struct mmchal_bus_ops bus_ops32 = {
	.read16 = b_rd16,
	.write16 = b_wr16,
	.read32 = b_rd32,
	.write32 = b_wr32,
};

/* ------------------------------------------------------------ the port */

static uint64_t p_now(void *ctx)
{
	struct fz *z = ctx;

	z->now += NOW_STEP_NS; /* time passes at every look: every timeout expires */
	return z->now;
}

static void p_delay(void *ctx, uint32_t us)
{
	struct fz *z = ctx;

	z->now += (uint64_t)us * 1000u + 1u;
	z->delays++;
	z->delayed_us += us;
	z->spin = 0;
}

static void p_inval(void *ctx, void *addr, size_t len)
{
	struct fz *z = ctx;

	/* the boot reader invalidates exactly a buffer it was given */
	for (unsigned int i = 0; i < z->f.nreg; i++)
		if (addr >= (void *)z->f.reg[i].cpu &&
		    (uint8_t *)addr + len <= z->f.reg[i].cpu + z->f.reg[i].len)
			return;
	broken(z, P_DMA, "cache invalidate outside the buffers, len", len);
}

static void p_clean(void *ctx, const void *addr, size_t len)
{
	(void)ctx;
	(void)addr;
	(void)len;
}

static const struct mmchal_port_ops port_ops = {
	.now_ns = p_now,
	.delay_us = p_delay,
};

static const struct mmchal_port_ops port_ops_cache = {
	.now_ns = p_now,
	.delay_us = p_delay,
	.cache_clean = p_clean,
	.cache_invalidate = p_inval,
};

/* ------------------------------------------------------------ common set-up */

static const struct mmchal_sdhi_soc *pick_soc(uint8_t sel, int kind)
{
	size_t count, k = 0, want;
	const struct mmchal_sdhi_soc *t = mmchal_sdhi_soc_table(&count);

	for (size_t i = 0; i < count; i++)
		k += kind < 0 || t[i].kind == (enum mmchal_sdhi_kind)kind;
	if (k == 0)
		return NULL;
	want = sel % k;
	for (size_t i = 0; i < count; i++)
		if (kind < 0 || t[i].kind == (enum mmchal_sdhi_kind)kind) {
			if (want == 0)
				return &t[i];
			want--;
		}
	return NULL;
}

static uint32_t extra_flags(uint8_t b)
{
	uint32_t f = 0;

	f |= (b & 0x08u) ? MMCHAL_SDHI_F_OLD_INFO1 : 0;
	f |= (b & 0x10u) ? MMCHAL_SDHI_F_ONE_RX_ONLY : 0;
	f |= (b & 0x20u) ? MMCHAL_SDHI_F_FIXED_ADDR : 0;
	f |= (b & 0x40u) ? MMCHAL_SDHI_F_IDLE_WAIT : 0;
	f |= (b & 0x80u) ? MMCHAL_SDHI_F_CLK_DIV1 : 0;
	return f;
}

static void begin_call(struct fz *z)
{
	z->accesses = 0;
	z->spin = 0;
}

/* ------------------------------------------------------------ mode 1: host core */

struct hrun {
	struct mmchal_sdhi sdhi;
	struct mmchal_backend be;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_port port;
	struct mmchal_host host;
	struct mmchal_host_cfg hc;
	struct mmchal_dma_seg table[8];
	struct mmchal_sdhi_soc soc;
	bool live;
};

static void set_ios(struct fz *z, struct hrun *h, const uint8_t *d)
{
	struct mmchal_ios ios;
	int rc;

	fh_ios_build(d, &ios);
	begin_call(z);
	rc = mmchal_host_core_ops.set_ios(&h->host, &ios);
	FH_EXPECT(&z->f, rc, 0, MMCHAL_EINVAL, MMCHAL_ENOTSUP, MMCHAL_ERANGE);
}

static void queries(struct fz *z, struct hrun *h)
{
	int rc;

	begin_call(z);
	rc = mmchal_host_core_ops.card_busy(&h->host);
	FH_EXPECT(&z->f, rc, 0, 1);
	rc = mmchal_host_core_ops.get_cd(&h->host);
	FH_EXPECT(&z->f, rc, 0, 1);
	rc = mmchal_host_core_ops.get_ro(&h->host);
	FH_EXPECT(&z->f, rc, 0, 1);
}

/* Beyond the host core's own errors: the backend's start error (no card, an
   engine that failed); an SDHI backend never answers EBUSY itself. */
static const int async_ok[] = {0, MMCHAL_EINVAL, MMCHAL_ENOMEM, MMCHAL_ENOMEDIUM, MMCHAL_EFAULT};
static const int sync_ok[] = {0,
			      MMCHAL_EINVAL,
			      MMCHAL_ETIMEDOUT,
			      MMCHAL_EIO,
			      MMCHAL_ENOMEDIUM,
			      MMCHAL_EFAULT,
			      MMCHAL_ENOMEM};
static const struct fh_answers answers = {
	.async_ok = async_ok,
	.n_async = sizeof(async_ok) / sizeof(async_ok[0]),
	.sync_ok = sync_ok,
	.n_sync = sizeof(sync_ok) / sizeof(sync_ok[0]),
	.busy_is_bad = true,
};

static void host_request(struct fz *z, struct hrun *h, const uint8_t *d,
			 struct fuzz_sdhi_result *res)
{
	static struct fh_req r; /* large: kept off the stack */
	const struct mmchal_data *data = &r.data;
	int rc;

	z->pio_seen = false;
	z->dma_seen = false;
	z->data_total = 0;
	z->port_moved = 0;
	z->f.logged = 0;
	fh_req_build(&z->f, d, PHYS_BASE, &r);
	if (r.kind == 7) {
		set_ios(z, h, d);
		return;
	}
	if (r.kind == 8) {
		queries(z, h);
		return;
	}
	tr("request", r.kind, r.async, data->blocks * 1000u + data->blksz);
	begin_call(z);
	rc = fh_req_run(&z->f, &h->host, &r, &answers);
	if (rc == 0 && r.is_data) {
		/* A request served through the port moved every byte of every block there
		   (a partial last word counts whole); one served by DMA had its engine run. */
		uint32_t w = z->pio_seen ? z->port_width : 1u, per = (data->blksz + w - 1u) / w * w;

		if (z->pio_seen && z->port_moved != per * data->blocks)
			broken(z, P_PIO, "PIO success with bytes moved", z->port_moved);
		if (!z->pio_seen && !z->dma_seen)
			broken(z, P_PIO, "data success without any data moved", 0);
		fh_data_check(&z->f, data, per);
	}
	if (rc == 0) {
		if (!r.is_data)
			res->cmd_ok++;
		else if (r.write)
			res->write_ok++;
		else
			res->read_ok++;
	}
	fh_regions_free(&z->f, 0);
}

static void host_mode(struct fz *z, const uint8_t *hd, struct fuzz_sdhi_result *res, struct hrun *h)
{
	int kind = hd[1] % 3u, rc, shift;
	const struct mmchal_sdhi_soc *soc = pick_soc(hd[2], kind == 2 ? -1 : kind);
	uint64_t reg_size;
	unsigned int nreq;
	static const uint8_t widths[4] = {0, 2, 4, 8};

	if (!soc)
		return;
	h->soc = *soc;
	reg_size = (hd[3] & 1u) ? 0x2000u : 0x100u;
	shift = mmchal_sdhi_bus_shift(&h->soc, reg_size);
	if (shift < 0)
		abort();
	z->shift = (uint8_t)shift;
	z->win = shift == 2 ? 0x2000u : shift == 1 ? 0x400u : 0x100u;
	z->dm_regs = kind == 0;
	z->rx_offset = soc->dma_rx_offset;
	z->ch_caps = hd[5];
	z->ch[0].dir = MMCHAL_DIR_TO_CARD;
	z->ch[1].dir = MMCHAL_DIR_FROM_CARD;

	h->cfg.bus.ops = (hd[3] & 2u) ? &bus_ops64 : &bus_ops32;
	h->cfg.bus.ctx = z;
	h->cfg.bus.bus_shift = (uint8_t)shift;
	h->port.ops = &port_ops;
	h->port.ctx = z;
	h->cfg.port = &h->port;
	h->cfg.soc = &h->soc;
	h->cfg.rev = (enum mmchal_sdhi_rev)(hd[4] % 6u);
	h->cfg.extra_flags = extra_flags(hd[4]);
	h->cfg.clk_hz = 200000000u;
	h->cfg.port_width = widths[(hd[3] >> 2) & 3u];
	h->cfg.reg_dma = REG_DMA;
	h->cfg.caps.completion = MMCHAL_COMPLETES_POLLED;
	h->cfg.caps.bus = ((hd[3] & 0x10u) ? MMCHAL_BUS_NONREMOVABLE : 0) |
			  ((hd[3] & 0x20u) ? MMCHAL_BUS_BROKEN_CD : 0) |
			  ((hd[6] & 0x80u) ? MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT : 0);
	h->cfg.data_timeout_ns = (hd[6] & 0x40u) ? 1000000u : 0;
	h->cfg.chan[0].ops = &chan_ops;
	h->cfg.chan[0].ctx = &z->ch[0];
	h->cfg.chan[1].ops = &chan_ops;
	h->cfg.chan[1].ctx = &z->ch[1];
	begin_call(z);
	if (kind == 0)
		rc = mmchal_sdhi_idmac_init(&h->sdhi, &h->cfg, &h->be);
	else if (kind == 1)
		rc = mmchal_sdhi_sysdmac_init(&h->sdhi, &h->cfg, &h->be);
	else
		rc = mmchal_sdhi_pio_init(&h->sdhi, &h->cfg, &h->be);
	FH_EXPECT(&z->f, rc, 0, MMCHAL_EINVAL);
	if (rc)
		return;
	h->hc.backend = &h->be;
	h->hc.port = &h->port;
	h->hc.pio_retry = (hd[3] & 0x40u) != 0;
	h->hc.seg_table = h->table;
	h->hc.seg_table_len = 8;
	h->hc.cmd_timeout_ms = fh_ms_sel[hd[6] & 3u];
	h->hc.data_timeout_ms = fh_ms_sel[(hd[6] >> 2) & 3u];
	h->hc.busy_timeout_ms = fh_ms_sel[(hd[6] >> 4) & 3u];
	begin_call(z);
	rc = mmchal_host_init(&h->host, &h->hc);
	/* probe: ENOTSUP for a VERSION without the DMAC or a port too wide for it */
	FH_EXPECT(&z->f, rc, 0, MMCHAL_EINVAL, MMCHAL_ENOTSUP);
	if (rc)
		return;
	h->live = true;
	nreq = 1u + hd[7] % MAX_REQS;
	for (unsigned int i = 0; i < nreq; i++)
		host_request(z, h, hd + 8u + 4u * i, res);
	begin_call(z);
	mmchal_host_deinit(&h->host);
}

/* ------------------------------------------------------------ mode 2: boot reader */

/* Longest a boot call may wait, us: every wait of the reader is bounded (sdhi_boot.c),
   the longest CMD6 busy 2.55 s, a read of 8 blocks 2.25 s, CMD1 1 s; a call issues
   a few dozen commands. The input limits how many waits end by a status bit. */
#define BOOT_US_MAX 120000000ull

static void boot_mode(struct fz *z, const uint8_t *hd, struct fuzz_sdhi_result *res)
{
	static const uint32_t clk[8] = {200000000u, 133333333u,  400000u,   100000u,
					1u,         0xffffffffu, 52000000u, 800000u};
	static const uint32_t fmax[8] = {0, 26000000u, 52000000u, 400000u, 100000u, 1u, 0, 0};
	const struct mmchal_sdhi_soc *soc = pick_soc(hd[1], MMCHAL_SDHI_IDMAC);
	struct mmchal_sdhi_soc s;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_port port;
	struct mmchal_emmc_boot eb;
	struct fh_region *scratch;
	unsigned int nread = hd[5] % 4u;
	int rc;

	if (!soc)
		return;
	memset(&eb, 0, sizeof(eb));
	s = *soc;
	memset(&cfg, 0, sizeof(cfg));
	z->boot = true;
	z->shift = 2;
	z->win = 0x2000u;
	z->dm_regs = true;
	z->size = 512;
	cfg.bus.ops = (hd[3] & 8u) ? &bus_ops64 : &bus_ops32;
	cfg.bus.ctx = z;
	cfg.bus.bus_shift = 2;
	port.ops = (hd[3] & 0x10u) ? &port_ops_cache : &port_ops;
	port.ctx = z;
	port.cache_line = 0;
	cfg.port = &port;
	cfg.soc = &s;
	cfg.rev = (enum mmchal_sdhi_rev)(hd[2] % 6u);
	cfg.extra_flags = extra_flags(hd[2]);
	cfg.clk_hz = clk[(hd[3] >> 5) & 7u];
	cfg.caps.bus = ((hd[3] & 1u) ? MMCHAL_BUS_4_BIT : 0) |
		       ((hd[3] & 2u) ? MMCHAL_BUS_8_BIT : 0) |
		       ((hd[3] & 4u) ? MMCHAL_BUS_MMC_HS : 0);
	cfg.caps.f_max_hz = fmax[hd[4] & 7u];
	scratch = fh_region_add(&z->f, MMCHAL_EMMC_BOOT_SCRATCH, PHYS_BASE);
	scratch->scratch = true;
	begin_call(z);
	z->delayed_us = 0;
	rc = mmchal_emmc_boot_init(&eb, &cfg, scratch->cpu, scratch->phys);
	FH_EXPECT(&z->f, rc, 0, MMCHAL_EINVAL, MMCHAL_ENOTSUP, MMCHAL_ERANGE, MMCHAL_ETIMEDOUT,
		  MMCHAL_EIO, MMCHAL_EFAULT);
	if (z->delayed_us > BOOT_US_MAX)
		broken(z, P_BOOT_TIME, "boot init waited, us", z->delayed_us);
	fh_guards_check(&z->f);
	if (rc == 0)
		res->boot_init++;
	if (rc == 0 && mmchal_emmc_boot_bus_width(&eb) == 0)
		broken(z, P_RETVAL, "boot init succeeded without a bus width", 0);
	for (unsigned int i = 0; i < nread; i++) {
		const uint8_t *rd = hd + 6u + 2u * i;
		uint32_t blocks = 1u + (rd[1] & 7u);
		uint64_t sectors = mmchal_emmc_boot_sectors(&eb);
		uint64_t lba = (rd[0] & 0x80u) && sectors > 0 ? sectors - (rd[0] & 0x7fu) - 1u
							      : rd[0];
		struct fh_region *dst = fh_region_add(&z->f, blocks * 512u,
						      PHYS_BASE + PHYS_STRIDE * (i + 1u));

		begin_call(z);
		z->delayed_us = 0;
		rc = mmchal_emmc_boot_read(&eb, lba, blocks, dst->cpu,
					   dst->phys + ((rd[1] & 0x10u) ? 64u : 0));
		FH_EXPECT(&z->f, rc, 0, MMCHAL_EINVAL, MMCHAL_ERANGE, MMCHAL_ETIMEDOUT, MMCHAL_EIO,
			  MMCHAL_EFAULT);
		if (z->delayed_us > BOOT_US_MAX)
			broken(z, P_BOOT_TIME, "boot read waited, us", z->delayed_us);
		fh_guards_check(&z->f);
		if (rc == 0)
			res->boot_read++;
	}
}

/* ------------------------------------------------------------ entry points */

static int run(const uint8_t *data, size_t size, struct fuzz_sdhi_result *out)
{
	struct fz *z = &Z;
	uint8_t hd[FUZZ_SDHI_HDR];
	static struct hrun h; /* large: kept off the stack */
	static struct fuzz_sdhi_result dummy;
	/* live across the setjmp below: volatile, so that a longjmp cannot leave it
	   in a register the jump restored */
	struct fuzz_sdhi_result *volatile res = out ? out : &dummy;

	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < FUZZ_SDHI_HDR; i++)
		hd[i] = hdr_byte(data, size, i);
	z->f.p = size > FUZZ_SDHI_HDR ? data + FUZZ_SDHI_HDR : NULL;
	z->f.n = size > FUZZ_SDHI_HDR ? size - FUZZ_SDHI_HDR : 0;
	z->f.tail = (hd[0] >> 1) & 3u;
	z->f.bad = 0;
	z->f.name = "fuzz_sdhi";
	z->f.quiet = z->oracle != NULL;
	memset(&h, 0, sizeof(h));
	if (setjmp(z->f.jb) == 0) {
		if (hd[0] & 1u)
			boot_mode(z, hd, res);
		else
			host_mode(z, hd, res, &h);
	}
	fh_regions_free(&z->f, 0);
	return z->f.bad;
}

int fuzz_sdhi_run(const uint8_t *data, size_t size, struct fuzz_sdhi_result *res)
{
	memset(&Z, 0, sizeof(Z));
	return run(data, size, res);
}

int fuzz_sdhi_record(const uint8_t *hdr, fuzz_sdhi_oracle_fn fn, void *ctx, uint8_t *rec,
		     size_t cap, size_t *len, struct fuzz_sdhi_result *res)
{
	int rc;

	memset(&Z, 0, sizeof(Z));
	Z.oracle = fn;
	Z.octx = ctx;
	Z.f.rec = rec;
	Z.f.rec_cap = cap;
	rc = run(hdr, FUZZ_SDHI_HDR, res);
	*len = Z.f.rec_len;
	Z.oracle = NULL;
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_sdhi_run(data, size, NULL) != 0)
		abort();
	return 0;
}
