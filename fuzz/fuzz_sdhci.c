/*
 * libFuzzer target: a broken or glitching SD Host Controller (SDHCI) against
 * the SDHCI backend under the host core.
 *
 * The input is a fixed header of FUZZ_SDHCI_HDR bytes (bytes past the end read
 * as 0) and then a stream: every register read of the library takes its value
 * from the stream, 2 or 4 bytes little-endian. Once the stream is used up a
 * read returns a fixed pattern chosen by header byte 0 (0 and all ones in turn,
 * all zeros, or all ones), so every bounded wait must end on its own.
 *
 * The header chooses the configuration (DMA mode, ADMA2 descriptor table and
 * where it lies, board flags, bus width, clocks, the port's cache ops, the
 * host's timeouts, PIO retry, a segment table) and up to 6 requests: command
 * only, R1b, R2, R3, single and multiple block reads and writes into guarded
 * caller buffers (aligned or not, below or above 4 GiB), SDIO blocks of 1 to
 * 512 bytes, set_ios and the queries; each synchronously or by
 * mmchal_host_request() + mmchal_host_poll().
 *
 * The fake DMA engine runs when a data command is issued with the DMA bit of
 * Transfer Mode set, as the Host Control DMA select says: SDMA moves the whole
 * transfer at the SDMA address (which must lie in one caller buffer and not
 * cross the 512 KiB buffer boundary the backend programs); ADMA2 walks the
 * descriptor table in the caller's table memory from the ADMA system address
 * (every descriptor valid, "tran", inside a caller buffer, the table ended by
 * an END descriptor before its end, the lengths adding up to the transfer).
 *
 * Checked (fuzz_sdhci_run() returns the number of the first broken property):
 *  1 a register access outside the 256-byte window, at an illegal width or
 *    alignment (16-bit at even offsets, 32-bit at multiples of 4, the data port
 *    32-bit only), or a write to a read-only register;
 *  2 a call returned a value its header does not document;
 *  3 a request's done callback ran other than exactly once (or after a refusal);
 *  4 a single request or call took more than 10^6 bus accesses;
 *  5 a guard byte around a buffer changed, or a write request's buffer changed;
 *  6 a DMA engine was programmed outside the caller's buffers, a malformed
 *    descriptor table, or a cache operation outside the caller's memory;
 *  7 a data request that succeeded did not move all its bytes (through the port
 *    or by the engine), or its buffers do not hold, in order, the bytes that
 *    crossed the port or the engine;
 *  8 the host refused a request as busy with nothing in flight.
 * Buffers are cache-line aligned, as DMA buffers of a non-coherent system are,
 * with guard bytes on both sides; ASan and UBSan report any access past them.
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
#include <mmchal/sdhci.h>

#include "fuzz_harness.h"
#include "fuzz_sdhci.h"

/* Registers and bits, from the SD Host Controller Simplified Specification
   v3.00, chapter 2 (byte offsets). */
#define R_SDMA_ADDR  0x00u
#define R_BLOCK_SIZE 0x04u
#define R_BLOCK_CNT  0x06u
#define R_ARGUMENT   0x08u
#define R_XFER_MODE  0x0cu
#define R_COMMAND    0x0eu
#define R_BUFFER     0x20u
#define R_INT_STATUS 0x30u
#define R_HOST_CTRL  0x28u
#define R_ADMA_LO    0x58u
#define R_ADMA_HI    0x5cu
#define WINDOW       0x100u

#define TM_DMA     (1u << 0)
#define TM_BLK_CNT (1u << 1)
#define TM_MULTI   (1u << 5)
#define TM_READ    (1u << 4)
#define CMD_DATA   (1u << 5)
#define ADMA_VALID (1u << 0)
#define ADMA_END   (1u << 1)
#define ADMA_ACT   (3u << 4)
#define ADMA_TRAN  (2u << 4)
#define SDMA_BOUND 0x80000ull

#define ACCESS_MAX  1000000u
#define MAX_REQS    6u
#define PHYS_BASE   0x10000000ull
#define PHYS_HIGH   0x100000000ull
#define TABLE_LOW   0x0ff00000ull
#define NOW_STEP_NS 1000000u /* every now_ns call: 1 ms */

/* properties of this target; 2, 3, 5, 7 and 8 are fuzz_harness.h's */
enum prop {
	P_WINDOW = 1,
	P_BOUND = 4,
	P_DMA = 6,
	P_DATA = FH_P_DATA,
};

struct fz {
	struct fuzz_h f; /* the stream, buffers, the bus log, the jump out */
	fuzz_sdhci_oracle_fn oracle;
	void *octx;
	/* registers as written, little-endian */
	uint8_t regs[WINDOW];
	unsigned int int_reads;
	/* the current data phase: bytes it must move, and moved */
	bool data;
	uint32_t data_total, port_moved;
	bool pio_seen, dma_seen;
	uint64_t accesses;
	/* the ADMA2 descriptor table (buffer 0) when there is one */
	struct fh_region *table;
};

static struct fz Z;

/* FUZZ_SDHCI_TRACE=1 in the environment: every access and call on stderr. */
static int trace = -1;

static void tr(const char *what, uint32_t off, unsigned int width, uint64_t val)
{
	if (trace < 0)
		trace = getenv("FUZZ_SDHCI_TRACE") != NULL;
	if (trace)
		fprintf(stderr, "%s %02x/%u %llx\n", what, off, width, (unsigned long long)val);
}

static _Noreturn void broken(struct fz *z, int prop, const char *what, uint64_t v)
{
	fh_broken(&z->f, prop, what, v);
}

static uint32_t reg_get(const struct fz *z, uint32_t off, unsigned int width)
{
	uint32_t v = 0;

	for (unsigned int i = 0; i < width; i++)
		v |= (uint32_t)z->regs[off + i] << (8u * i);
	return v;
}

/* ------------------------------------------------------------ the stream */

static uint8_t hdr_byte(const uint8_t *h, size_t n, size_t i)
{
	return i < n ? h[i] : 0;
}

static uint32_t take(struct fz *z, uint32_t off, unsigned int nbytes)
{
	if (z->oracle) {
		struct fuzz_sdhci_view v = {
			.off = off,
			.width = nbytes,
			.written = reg_get(z, off, nbytes),
			.cmd = (uint16_t)reg_get(z, R_COMMAND, 2),
			.arg = reg_get(z, R_ARGUMENT, 4),
			.data_left = z->data && !z->dma_seen && z->port_moved < z->data_total
					     ? z->data_total - z->port_moved
					     : 0,
			.data = z->data,
			.int_reads = z->int_reads,
		};

		return (uint32_t)fh_record(&z->f, z->oracle(z->octx, &v), nbytes);
	}
	return (uint32_t)fh_take(&z->f, nbytes);
}

/* ------------------------------------------------------------ buffers */

/* The engine moves @p len bytes at @p phys: reads fill a pattern (of the offset
   in the transfer), writes read every byte; both are logged. */
static void dma_move(struct fz *z, uint64_t phys, uint64_t len, bool to_mem)
{
	struct fh_region *r = fh_region_at(&z->f, phys, len);
	uint8_t *p;
	volatile uint8_t sink = 0;

	if (!r || len == 0)
		broken(z, P_DMA, "DMA outside the caller's buffers at", phys);
	p = r->cpu + (phys - r->phys);
	for (uint64_t i = 0; i < len; i++) {
		if (to_mem)
			p[i] = (uint8_t)(z->f.logged * 13u + 7u);
		else
			sink ^= p[i];
		fh_log(&z->f, p[i], 1);
	}
	(void)sink;
}

static uint32_t le(const uint8_t *p, unsigned int n)
{
	uint32_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint32_t)p[i] << (8u * i);
	return v;
}

/* ADMA2 (1.13.4): the table at the ADMA system address, 8- or 12-byte descriptors. */
static void adma_run(struct fz *z, bool bits64, uint64_t total, bool to_mem)
{
	uint64_t at = reg_get(z, R_ADMA_LO, 4), sum = 0;
	unsigned int dsz = bits64 ? 12u : 8u;
	const struct fh_region *t = z->table;

	if (bits64)
		at |= (uint64_t)reg_get(z, R_ADMA_HI, 4) << 32;
	if (!t || at < t->phys || at - t->phys >= t->len)
		broken(z, P_DMA, "ADMA system address outside the descriptor table", at);
	for (uint64_t off = at - t->phys;; off += dsz) {
		const uint8_t *d;
		uint16_t attr;
		uint32_t len;
		uint64_t addr;

		if (off + dsz > t->len)
			broken(z, P_DMA, "ADMA2 table runs past its end at", off);
		d = t->cpu + off;
		attr = (uint16_t)le(d, 2);
		len = le(d + 2, 2);
		addr = le(d + 4, 4);
		if (bits64)
			addr |= (uint64_t)le(d + 8, 4) << 32;
		if (!(attr & ADMA_VALID) || (attr & ADMA_ACT) != ADMA_TRAN)
			broken(z, P_DMA, "ADMA2 descriptor not a valid tran, attr", attr);
		if (len == 0)
			len = 65536u;
		if (addr & 3u)
			broken(z, P_DMA, "ADMA2 data address not 32-bit aligned", addr);
		dma_move(z, addr, len, to_mem);
		sum += len;
		if (attr & ADMA_END)
			break;
	}
	if (sum != total)
		broken(z, P_DMA, "ADMA2 lengths do not add up to the transfer", sum);
}

/* A command is issued (the upper byte of the Command register was written). */
static void issue(struct fz *z)
{
	uint16_t cmd = (uint16_t)reg_get(z, R_COMMAND, 2);
	uint16_t tm = (uint16_t)reg_get(z, R_XFER_MODE, 2);
	uint32_t blksz = reg_get(z, R_BLOCK_SIZE, 2) & 0xfffu;
	uint32_t count = reg_get(z, R_BLOCK_CNT, 2);
	uint32_t blocks = (tm & TM_MULTI) ? count : 1u;
	uint64_t total = (uint64_t)blksz * blocks;
	bool to_mem = (tm & TM_READ) != 0;

	z->int_reads = 0;
	z->data = (cmd & CMD_DATA) != 0;
	if (!z->data)
		return; /* a STOP or a status query keeps the data phase's account */
	z->port_moved = 0;
	z->pio_seen = false;
	z->dma_seen = false;
	z->data_total = 0;
	z->f.logged = 0;
	if ((tm & TM_MULTI) && !(tm & TM_BLK_CNT))
		broken(z, P_DMA, "multiple-block transfer without the block count", tm);
	z->data_total = (uint32_t)total;
	if (!(tm & TM_DMA) || total == 0)
		return;
	z->dma_seen = true;
	switch ((reg_get(z, R_HOST_CTRL, 1) >> 3) & 3u) {
	case 0: { /* SDMA */
		uint64_t a = reg_get(z, R_SDMA_ADDR, 4);

		if ((a ^ (a + total - 1u)) & ~(SDMA_BOUND - 1u))
			broken(z, P_DMA, "SDMA transfer crosses the buffer boundary at", a);
		dma_move(z, a, total, to_mem);
		break;
	}
	case 2:
		adma_run(z, false, total, to_mem);
		break;
	case 3:
		adma_run(z, true, total, to_mem);
		break;
	default:
		broken(z, P_DMA, "reserved DMA select", reg_get(z, R_HOST_CTRL, 1));
	}
}

/* ------------------------------------------------------------ the bus */

static bool read_only(uint32_t off)
{
	return (off >= 0x10u && off < 0x20u) || off == 0x24u || off == 0x26u ||
	       (off >= 0x40u && off < 0x50u) || off == 0x3cu || off == 0xfeu;
}

static void bus_access(struct fz *z, uint32_t off, unsigned int width, bool write)
{
	bool ok = off < WINDOW && width <= WINDOW - off && !(off & (width - 1u));

	z->accesses++;
	if (z->accesses > ACCESS_MAX)
		broken(z, P_BOUND, "more bus accesses than allowed in one call", z->accesses);
	if (off >= R_BUFFER && off < R_BUFFER + 4u)
		ok = ok && width == 4 && off == R_BUFFER;
	if (write)
		for (unsigned int i = 0; ok && i < width; i += 2)
			ok = !read_only(off + i);
	if (!ok)
		broken(z, P_WINDOW, "illegal register access at",
		       ((uint64_t)write << 40) | ((uint64_t)width << 32) | off);
}

static uint32_t bus_read(struct fz *z, uint32_t off, unsigned int width)
{
	uint32_t val;

	bus_access(z, off, width, false);
	val = take(z, off, width);
	if (off == R_BUFFER) {
		z->pio_seen = true;
		z->port_moved += 4;
		fh_log(&z->f, val, 4);
	}
	if (off == R_INT_STATUS)
		z->int_reads++;
	tr("rd", off, width, val);
	return val;
}

static void bus_write(struct fz *z, uint32_t off, unsigned int width, uint32_t val)
{
	tr("wr", off, width, val);
	bus_access(z, off, width, true);
	if (off == R_BUFFER) {
		z->pio_seen = true;
		z->port_moved += 4;
		fh_log(&z->f, val, 4);
		return;
	}
	for (unsigned int i = 0; i < width; i++)
		z->regs[off + i] = (uint8_t)(val >> (8u * i));
	/* Writing the upper byte of the Command register issues the command (2.2.6). */
	if (off <= R_COMMAND + 1u && off + width > R_COMMAND + 1u)
		issue(z);
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
	return bus_read(ctx, off, 4);
}

static void b_wr32(void *ctx, uint32_t off, uint32_t val)
{
	bus_write(ctx, off, 4, val);
}

static const struct mmchal_bus_ops bus_ops = {
	.read16 = b_rd16,
	.write16 = b_wr16,
	.read32 = b_rd32,
	.write32 = b_wr32,
};

/* ------------------------------------------------------------ the port */

static uint64_t now;

static uint64_t p_now(void *ctx)
{
	(void)ctx;
	now += NOW_STEP_NS; /* time passes at every look: every timeout expires */
	return now;
}

static void p_delay(void *ctx, uint32_t us)
{
	(void)ctx;
	now += (uint64_t)us * 1000u + 1u;
}

/* Cache maintenance covers exactly memory the caller gave: a buffer or the table. */
static void cache_range(struct fz *z, const void *addr, size_t len)
{
	const uint8_t *a = addr;

	for (unsigned int i = 0; i < z->f.nreg; i++)
		if (a >= z->f.reg[i].cpu && len <= z->f.reg[i].len &&
		    (size_t)(a - z->f.reg[i].cpu) <= z->f.reg[i].len - len)
			return;
	broken(z, P_DMA, "cache maintenance outside the caller's memory, len", len);
}

static void p_clean(void *ctx, const void *addr, size_t len)
{
	cache_range(ctx, addr, len);
}

static void p_inval(void *ctx, void *addr, size_t len)
{
	cache_range(ctx, addr, len);
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

/* ------------------------------------------------------------ checks */

static void begin_call(struct fz *z)
{
	z->accesses = 0;
}

/* ------------------------------------------------------------ the requests */

struct hrun {
	struct mmchal_sdhci sdhci;
	struct mmchal_backend be;
	struct mmchal_sdhci_cfg cfg;
	struct mmchal_port port;
	struct mmchal_host host;
	struct mmchal_host_cfg hc;
	struct mmchal_dma_seg segs[8];
};

static void queries(struct fz *z, struct hrun *h, const uint8_t *d)
{
	struct fuzz_h *f = &z->f;
	int rc;

	begin_call(z);
	rc = mmchal_host_core_ops.enable_sdio_irq(&h->host, d[1] & 1u);
	FH_EXPECT(f, rc, 0);
	/* the SDHCI backend has neither a hardware reset nor tuning */
	rc = mmchal_host_core_ops.hw_reset(&h->host);
	FH_EXPECT(f, rc, MMCHAL_ENOTSUP);
	rc = mmchal_host_core_ops.execute_tuning(&h->host, 21);
	FH_EXPECT(f, rc, MMCHAL_ENOTSUP);
	rc = mmchal_host_core_ops.card_busy(&h->host);
	FH_EXPECT(f, rc, 0, 1);
	rc = mmchal_host_core_ops.get_cd(&h->host);
	/* a board whose card detect is broken cannot say */
	FH_EXPECT(f, rc, 0, 1, MMCHAL_ENOTSUP);
	rc = mmchal_host_core_ops.get_ro(&h->host);
	FH_EXPECT(f, rc, 0, 1);
}

static void set_ios(struct fz *z, struct hrun *h, const uint8_t *d)
{
	struct mmchal_ios ios;
	int rc;

	fh_ios_build(d, &ios);
	begin_call(z);
	rc = mmchal_host_core_ops.set_ios(&h->host, &ios);
	/* ENOMEDIUM: bus power dropped for want of a card; ETIMEDOUT: the clock never
	   became stable */
	FH_EXPECT(&z->f, rc, 0, MMCHAL_EINVAL, MMCHAL_ENOTSUP, MMCHAL_ERANGE, MMCHAL_ENOMEDIUM,
		  MMCHAL_ETIMEDOUT);
}

/* Beyond the host core's own errors: EBUSY when the controller's inhibit bits
   never clear, ERANGE for a segment above 4 GiB. */
static const int async_ok[] = {0, MMCHAL_EINVAL, MMCHAL_ENOMEM, MMCHAL_EBUSY, MMCHAL_ERANGE};
static const int sync_ok[] = {0,
			      MMCHAL_EINVAL,
			      MMCHAL_ETIMEDOUT,
			      MMCHAL_EIO,
			      MMCHAL_EPROTO,
			      MMCHAL_ECANCELED,
			      MMCHAL_EFAULT,
			      MMCHAL_ENOMEM,
			      MMCHAL_EBUSY,
			      MMCHAL_ERANGE};
static const struct fh_answers answers = {
	.async_ok = async_ok,
	.n_async = sizeof(async_ok) / sizeof(async_ok[0]),
	.sync_ok = sync_ok,
	.n_sync = sizeof(sync_ok) / sizeof(sync_ok[0]),
};

static void host_request(struct fz *z, struct hrun *h, const uint8_t *d,
			 struct fuzz_sdhci_result *res, unsigned int keep)
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
		queries(z, h, d);
		return;
	}
	tr("request", r.kind, r.async, data->blocks * 1000u + data->blksz);
	begin_call(z);
	rc = fh_req_run(&z->f, &h->host, &r, &answers);
	if (rc == 0 && r.is_data) {
		/* Served through the port: every block moved there (a partial last word
		   counts whole). Served by DMA: the engine ran for the whole transfer. */
		uint32_t per = (data->blksz + 3u) / 4u * 4u;

		if (z->dma_seen && z->data_total != data->blksz * data->blocks)
			broken(z, P_DATA, "DMA success with bytes moved", z->data_total);
		if (!z->dma_seen && z->port_moved != per * data->blocks)
			broken(z, P_DATA, "PIO success with bytes moved", z->port_moved);
		if (data->bytes_xfered != data->blksz * data->blocks)
			broken(z, P_DATA, "success with bytes_xfered", data->bytes_xfered);
		fh_data_check(&z->f, data, z->dma_seen ? data->blksz : per);
		if (z->dma_seen)
			res->dma_ok++;
		else
			res->pio_ok++;
	}
	if (rc == 0) {
		if (!r.is_data)
			res->cmd_ok++;
		else if (r.write)
			res->write_ok++;
		else
			res->read_ok++;
	}
	fh_regions_free(&z->f, keep);
}

/* ------------------------------------------------------------ set-up */

static void host_run(struct fz *z, const uint8_t *hd, struct fuzz_sdhci_result *res, struct hrun *h)
{
	static const uint32_t tbl_len[4] = {0, 8, 48, 96};
	static const uint32_t fmax[8] = {0, 400000u, 25000000u, 50000000u, 1u, 0, 0, 0};
	static const uint8_t widths[4] = {0, 1, 4, 8};
	uint32_t tlen = tbl_len[(hd[1] >> 3) & 3u];
	unsigned int keep = 0, nreq;
	int rc;

	if (tlen) {
		uint64_t tphys = ((hd[1] & 0x20u) ? PHYS_HIGH : TABLE_LOW) +
				 ((hd[1] & 0x40u) ? 4u : 0);

		z->table = fh_region_add(&z->f, tlen, tphys);
		z->table->no_data = true;
		h->cfg.adma_table = z->table->cpu;
		h->cfg.adma_table_dma = tphys;
		h->cfg.adma_table_size = tlen;
		keep = 1;
	}
	h->cfg.bus.ops = &bus_ops;
	h->cfg.bus.ctx = z;
	h->port.ops = (hd[0] & 0x08u) ? &port_ops_cache : &port_ops;
	h->port.ctx = z;
	h->cfg.port = &h->port;
	h->cfg.dma = (enum mmchal_sdhci_dma)((hd[1] & 7u) % 5u);
	h->cfg.flags = (hd[2] & 0x0fu) | ((hd[1] & 0x80u) ? MMCHAL_SDHCI_F_COHERENT : 0);
	h->cfg.bus_width = widths[(hd[2] >> 4) & 3u];
	h->cfg.base_clock_hz = (hd[2] & 0x40u) ? 50000000u : 0;
	h->cfg.timeout_clock_hz = (hd[2] & 0x80u) ? 1000000u : 0;
	h->cfg.f_max_hz = fmax[hd[3] & 7u];
	begin_call(z);
	rc = mmchal_sdhci_init(&h->sdhci, &h->cfg, &h->be);
	FH_EXPECT(&z->f, rc, 0, MMCHAL_EINVAL);
	if (rc)
		return;
	h->hc.backend = &h->be;
	h->hc.port = &h->port;
	h->hc.pio_retry = (hd[0] & 0x10u) != 0;
	if (hd[3] & 0x80u) {
		h->hc.seg_table = h->segs;
		h->hc.seg_table_len = 8;
	}
	h->hc.cmd_timeout_ms = fh_ms_sel[(hd[0] >> 5) & 3u];
	h->hc.data_timeout_ms = fh_ms_sel[(hd[3] >> 3) & 3u];
	h->hc.busy_timeout_ms = fh_ms_sel[(hd[3] >> 5) & 3u];
	begin_call(z);
	rc = mmchal_host_init(&h->host, &h->hc);
	/* probe: ETIMEDOUT for a reset that never ends, EINVAL for no base clock,
	   ENOTSUP for a DMA mode the capabilities lack */
	FH_EXPECT(&z->f, rc, 0, MMCHAL_EINVAL, MMCHAL_ENOTSUP, MMCHAL_ETIMEDOUT);
	if (rc)
		return;
	res->mode = h->sdhci.mode;
	nreq = 1u + hd[4] % MAX_REQS;
	for (unsigned int i = 0; i < nreq; i++)
		host_request(z, h, hd + 8u + 4u * i, res, keep);
	begin_call(z);
	mmchal_host_deinit(&h->host);
}

/* ------------------------------------------------------------ entry points */

static int run(const uint8_t *data, size_t size, struct fuzz_sdhci_result *out)
{
	struct fz *z = &Z;
	uint8_t hd[FUZZ_SDHCI_HDR];
	static struct hrun h; /* large: kept off the stack */
	static struct fuzz_sdhci_result dummy;
	/* live across the setjmp below: volatile, so that a longjmp cannot leave it
	   in a register the jump restored */
	struct fuzz_sdhci_result *volatile res = out ? out : &dummy;

	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < FUZZ_SDHCI_HDR; i++)
		hd[i] = hdr_byte(data, size, i);
	z->f.p = size > FUZZ_SDHCI_HDR ? data + FUZZ_SDHCI_HDR : NULL;
	z->f.n = size > FUZZ_SDHCI_HDR ? size - FUZZ_SDHCI_HDR : 0;
	z->f.tail = (hd[0] >> 1) & 3u;
	z->f.bad = 0;
	z->f.name = "fuzz_sdhci";
	z->f.quiet = z->oracle != NULL;
	z->f.high_base = PHYS_HIGH;
	now = 0;
	memset(&h, 0, sizeof(h));
	if (setjmp(z->f.jb) == 0)
		host_run(z, hd, res, &h);
	fh_regions_free(&z->f, 0);
	return z->f.bad;
}

int fuzz_sdhci_run(const uint8_t *data, size_t size, struct fuzz_sdhci_result *res)
{
	memset(&Z, 0, sizeof(Z));
	return run(data, size, res);
}

int fuzz_sdhci_record(const uint8_t *hdr, fuzz_sdhci_oracle_fn fn, void *ctx, uint8_t *rec,
		      size_t cap, size_t *len, struct fuzz_sdhci_result *res)
{
	int rc;

	memset(&Z, 0, sizeof(Z));
	Z.oracle = fn;
	Z.octx = ctx;
	Z.f.rec = rec;
	Z.f.rec_cap = cap;
	rc = run(hdr, FUZZ_SDHCI_HDR, res);
	*len = Z.f.rec_len;
	Z.oracle = NULL;
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_sdhci_run(data, size, NULL) != 0)
		abort();
	return 0;
}
