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
#define MAX_SG      3u
#define MAX_REGIONS 8u
#define GUARD       64u
#define GUARD_BYTE  0xa5u
#define PHYS_BASE   0x10000000ull
#define PHYS_HIGH   0x100000000ull
#define PHYS_STRIDE 0x00100000ull
#define TABLE_LOW   0x0ff00000ull
#define NOW_STEP_NS 1000000u /* every now_ns call: 1 ms */
#define LOG_MAX     8192u

enum prop {
	P_WINDOW = 1,
	P_RETVAL,
	P_DONE,
	P_BOUND,
	P_GUARD,
	P_DMA,
	P_DATA,
	P_BUSY,
};

struct region {
	uint8_t *base; /* GUARD bytes, len bytes, GUARD bytes */
	uint8_t *cpu;
	uint64_t phys;
	uint32_t len;
};

struct fz {
	jmp_buf jb;
	int bad;
	/* the stream */
	const uint8_t *p;
	size_t n;
	unsigned int tail;
	bool tail_ones;
	fuzz_sdhci_oracle_fn oracle;
	void *octx;
	uint8_t *rec;
	size_t rec_cap, rec_len;
	/* registers as written, little-endian */
	uint8_t regs[WINDOW];
	unsigned int int_reads;
	/* the current data phase: bytes it must move, and moved */
	bool data;
	uint32_t data_total, port_moved;
	bool pio_seen, dma_seen;
	/* what crossed the port or the engine, in transfer order (the first
	   LOG_MAX bytes): the data a request's buffers must hold afterwards */
	uint8_t log[LOG_MAX];
	uint32_t logged;
	uint64_t accesses;
	/* buffers; region 0 is the ADMA2 descriptor table when there is one */
	struct region reg[MAX_REGIONS];
	unsigned int nreg;
	struct region *table;
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
	if (!z->oracle)
		fprintf(stderr, "fuzz_sdhci: property %d broken: %s (0x%llx)\n", prop, what,
			(unsigned long long)v);
	z->bad = prop;
	longjmp(z->jb, 1);
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
	uint32_t val = 0;

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

		val = z->oracle(z->octx, &v);
		for (unsigned int i = 0; i < nbytes; i++)
			if (z->rec_len < z->rec_cap)
				z->rec[z->rec_len++] = (uint8_t)(val >> (8u * i));
		return nbytes < 4 ? val & ((1u << (8u * nbytes)) - 1u) : val;
	}
	if (z->n < nbytes) {
		/* used up: the pattern, for this whole value */
		bool ones = z->tail == 2u || (z->tail != 1u && z->tail_ones);

		z->tail_ones = !z->tail_ones;
		z->n = 0;
		return ones ? (nbytes < 4 ? (1u << (8u * nbytes)) - 1u : UINT32_MAX) : 0;
	}
	for (unsigned int i = 0; i < nbytes; i++)
		val |= (uint32_t)z->p[i] << (8u * i);
	z->p += nbytes;
	z->n -= nbytes;
	return val;
}

/* ------------------------------------------------------------ buffers */

static struct region *region_add(struct fz *z, uint32_t len, uint64_t phys)
{
	struct region *r;

	if (z->nreg == MAX_REGIONS)
		abort(); /* the harness asks for at most MAX_REGIONS */
	r = &z->reg[z->nreg++];
	/* cache-line aligned, as DMA buffers of a non-coherent system are */
	r->base = aligned_alloc(GUARD, (len + 3u * GUARD - 1u) / GUARD * GUARD);
	if (!r->base)
		abort();
	memset(r->base, GUARD_BYTE, len + 2u * GUARD);
	r->cpu = r->base + GUARD;
	r->phys = phys;
	r->len = len;
	return r;
}

/* Frees the request buffers (the table, region 0, stays with the controller). */
static void regions_free(struct fz *z, unsigned int keep)
{
	for (unsigned int i = keep; i < z->nreg; i++)
		free(z->reg[i].base);
	z->nreg = keep;
}

static void guards_check(struct fz *z)
{
	for (unsigned int i = 0; i < z->nreg; i++) {
		const struct region *r = &z->reg[i];

		for (uint32_t k = 0; k < GUARD; k++)
			if (r->base[k] != GUARD_BYTE || r->cpu[r->len + k] != GUARD_BYTE)
				broken(z, P_GUARD, "guard byte changed, region", i);
	}
}

/* The data buffer holding [phys, phys + len), or NULL (never the table). */
static struct region *region_at(struct fz *z, uint64_t phys, uint64_t len)
{
	for (unsigned int i = 0; i < z->nreg; i++) {
		struct region *r = &z->reg[i];

		if (r == z->table)
			continue;
		if (phys >= r->phys && len <= r->len && phys - r->phys <= r->len - len)
			return r;
	}
	return NULL;
}

static void log_byte(struct fz *z, uint8_t b)
{
	if (z->logged < LOG_MAX)
		z->log[z->logged] = b;
	z->logged++;
}

/* The engine moves @p len bytes at @p phys: reads fill a pattern (of the offset
   in the transfer), writes read every byte; both are logged. */
static void dma_move(struct fz *z, uint64_t phys, uint64_t len, bool to_mem)
{
	struct region *r = region_at(z, phys, len);
	uint8_t *p;
	volatile uint8_t sink = 0;

	if (!r || len == 0)
		broken(z, P_DMA, "DMA outside the caller's buffers at", phys);
	p = r->cpu + (phys - r->phys);
	for (uint64_t i = 0; i < len; i++) {
		if (to_mem)
			p[i] = (uint8_t)(z->logged * 13u + 7u);
		else
			sink ^= p[i];
		log_byte(z, p[i]);
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
	const struct region *t = z->table;

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
	z->logged = 0;
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

static void log_word(struct fz *z, uint32_t v)
{
	for (unsigned int i = 0; i < 4; i++)
		log_byte(z, (uint8_t)(v >> (8u * i)));
}

static uint32_t bus_read(struct fz *z, uint32_t off, unsigned int width)
{
	uint32_t val;

	bus_access(z, off, width, false);
	val = take(z, off, width);
	if (off == R_BUFFER) {
		z->pio_seen = true;
		z->port_moved += 4;
		log_word(z, val);
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
		log_word(z, val);
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

	for (unsigned int i = 0; i < z->nreg; i++)
		if (a >= z->reg[i].cpu && len <= z->reg[i].len &&
		    (size_t)(a - z->reg[i].cpu) <= z->reg[i].len - len)
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

static bool one_of(int rc, const int *ok, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rc == ok[i])
			return true;
	return false;
}

#define STR_(x)  #x
#define LINE_(x) STR_(x)
#define EXPECT(z, rc, ...)                                                                        \
	do {                                                                                      \
		static const int ok_[] = {__VA_ARGS__};                                           \
		if (!one_of((rc), ok_, sizeof(ok_) / sizeof(ok_[0])))                             \
			broken((z), P_RETVAL, "undocumented return value, line " LINE_(__LINE__), \
			       (uint64_t)(rc));                                                   \
	} while (0)

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

static unsigned int done_calls;

static void on_done(struct mmchal_request *r)
{
	(void)r;
	done_calls++;
}

static const uint32_t ms_sel[4] = {0, 1, 5, 50};

/* The request's buffers: up to MAX_SG entries, each its own guarded allocation. */
static uint32_t make_sg(struct fz *z, uint8_t sel, uint32_t total, struct mmchal_sg *sg)
{
	static const uint32_t offs[4] = {0, 128, 2, 1};
	uint64_t base = (sel & 0x80u) ? PHYS_HIGH : PHYS_BASE;
	uint32_t n = 1u + (sel % MAX_SG), left = total, i;

	if (n > total)
		n = total;
	for (i = 0; i < n; i++) {
		uint32_t len = i + 1u == n ? left : (sel & 0x40u) ? total / n : 512u;
		struct region *r;

		if (len > left - (n - 1u - i))
			len = left - (n - 1u - i);
		if (len == 0)
			len = 1;
		r = region_add(z, len,
			       base + PHYS_STRIDE * z->nreg + (i == 0 ? offs[(sel >> 2) & 3u] : 0));
		for (uint32_t k = 0; k < len; k++)
			r->cpu[k] = (uint8_t)(k ^ 0x5au);
		sg[i].cpu = r->cpu;
		sg[i].phys = r->phys;
		sg[i].len = len;
		left -= len;
	}
	return n;
}

static void queries(struct fz *z, struct hrun *h, const uint8_t *d)
{
	int rc;

	begin_call(z);
	rc = mmchal_host_core_ops.enable_sdio_irq(&h->host, d[1] & 1u);
	EXPECT(z, rc, 0);
	/* the SDHCI backend has neither a hardware reset nor tuning */
	rc = mmchal_host_core_ops.hw_reset(&h->host);
	EXPECT(z, rc, MMCHAL_ENOTSUP);
	rc = mmchal_host_core_ops.execute_tuning(&h->host, 21);
	EXPECT(z, rc, MMCHAL_ENOTSUP);
	rc = mmchal_host_core_ops.card_busy(&h->host);
	EXPECT(z, rc, 0, 1);
	rc = mmchal_host_core_ops.get_cd(&h->host);
	/* a board whose card detect is broken cannot say */
	EXPECT(z, rc, 0, 1, MMCHAL_ENOTSUP);
	rc = mmchal_host_core_ops.get_ro(&h->host);
	EXPECT(z, rc, 0, 1);
}

static void set_ios(struct fz *z, struct hrun *h, const uint8_t *d)
{
	static const uint32_t hz[8] = {0,        1,         400000, 26000000,
				       52000000, 200000000, 100000, 0xffffffffu};
	struct mmchal_ios ios = {
		.clock_hz = hz[d[1] & 7u],
		.bus_width = (d[1] & 0x18u) == 0 ? MMCHAL_BUS_WIDTH_1
			     : (d[1] & 0x10u)    ? MMCHAL_BUS_WIDTH_8
						 : MMCHAL_BUS_WIDTH_4,
		.timing = (enum mmchal_timing)(d[2] % 12u),
		.power_mode = (enum mmchal_power_mode)((d[2] >> 4) % 3u),
		.signal_voltage = (enum mmchal_signal_voltage)((d[2] >> 6) % 3u),
	};
	int rc;

	begin_call(z);
	rc = mmchal_host_core_ops.set_ios(&h->host, &ios);
	/* ENOMEDIUM: bus power dropped for want of a card; ETIMEDOUT: the clock never
	   became stable */
	EXPECT(z, rc, 0, MMCHAL_EINVAL, MMCHAL_ENOTSUP, MMCHAL_ERANGE, MMCHAL_ENOMEDIUM,
	       MMCHAL_ETIMEDOUT);
}

/*
 * After a data request that succeeded, its buffers hold what crossed the port or
 * the engine, in transfer order: byte t of the transfer (block t / blksz) is at
 * log offset t when the engine moved it, and in word-padded blocks when the port
 * did (a block takes whole 32-bit words).
 */
static void data_check(struct fz *z, const struct mmchal_data *d)
{
	uint32_t per = z->dma_seen ? d->blksz : (d->blksz + 3u) / 4u * 4u, t = 0;

	for (uint32_t i = 0; i < d->sg_len; i++) {
		const uint8_t *b = d->sg[i].cpu;

		for (uint32_t k = 0; k < d->sg[i].len; k++, t++) {
			uint32_t at = t / d->blksz * per + t % d->blksz;

			if (at < LOG_MAX && b[k] != z->log[at])
				broken(z, P_DATA,
				       "buffer byte differs from the bus at transfer offset", t);
		}
	}
}

/* The first error of a completed request, as mmchal_host_request_sync() gives it. */
static int first_error(const struct mmchal_request *req)
{
	if (req->sbc && req->sbc->error)
		return req->sbc->error;
	if (req->cmd->error)
		return req->cmd->error;
	if (req->data && req->data->error)
		return req->data->error;
	return req->stop ? req->stop->error : 0;
}

static void host_request(struct fz *z, struct hrun *h, const uint8_t *d,
			 struct fuzz_sdhci_result *res, unsigned int keep)
{
	struct mmchal_cmd cmd = {0}, stop = {0}, sbc = {0};
	struct mmchal_data data = {0};
	struct mmchal_request req = {0};
	struct mmchal_sg sg[MAX_SG];
	struct mmchal_host_stats st0, st1;
	unsigned int type = (d[0] & 0x3fu) % 10u;
	bool async = d[0] & 0x80u, write = false, is_data = false;
	uint8_t copy[MAX_SG][4096];
	int rc;

	done_calls = 0;
	z->pio_seen = false;
	z->dma_seen = false;
	z->data_total = 0;
	z->port_moved = 0;
	z->logged = 0;
	cmd.busy_timeout_ms = ms_sel[d[3] & 3u];
	switch (type) {
	case 0: /* CMD0 GO_IDLE_STATE: no response */
		cmd.opcode = 0;
		cmd.flags = MMCHAL_RSP_NONE;
		break;
	case 1: /* CMD13 SEND_STATUS: R1 */
		cmd.opcode = 13;
		cmd.arg = 1u << 16;
		cmd.flags = MMCHAL_RSP_R1;
		break;
	case 2: /* CMD7 SELECT_CARD: R1b */
		cmd.opcode = 7;
		cmd.arg = 1u << 16;
		cmd.flags = MMCHAL_RSP_R1B;
		break;
	case 3: /* CMD9 SEND_CSD: R2 */
		cmd.opcode = 9;
		cmd.arg = 1u << 16;
		cmd.flags = MMCHAL_RSP_R2;
		break;
	case 4: /* CMD1 SEND_OP_COND: R3 */
		cmd.opcode = 1;
		cmd.arg = 0x40ff8080u;
		cmd.flags = MMCHAL_RSP_R3;
		break;
	case 5: /* reads: CMD17 / CMD18 */
	case 6: /* writes: CMD24 / CMD25 */
	case 9: /* SDIO CMD53-like block of 1..512 bytes (reads and writes) */
		is_data = true;
		write = type == 6 || (type == 9 && (d[1] & 0x80u));
		data.dir = write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
		data.blocks = 1u + (d[1] & 7u);
		data.blksz = type == 9 ? 1u + (((uint32_t)d[2] << 1 | (d[1] >> 3)) & 0x1ffu) : 512u;
		data.timeout_ns = (d[3] & 4u) ? 1000000u : 0;
		if (type == 9) {
			cmd.opcode = 53;
			cmd.flags = MMCHAL_RSP_R5;
		} else {
			cmd.opcode = write ? (data.blocks > 1 ? 25u : 24u)
					   : (data.blocks > 1 ? 18u : 17u);
			cmd.flags = MMCHAL_RSP_R1;
		}
		cmd.arg = d[3];
		if (data.blocks > 1 && type != 9) {
			if (d[1] & 0x40u) {
				sbc.opcode = 23;
				sbc.arg = data.blocks;
				sbc.flags = MMCHAL_RSP_R1;
				req.sbc = &sbc;
			} else {
				stop.opcode = 12;
				stop.flags = (d[1] & 0x20u) ? MMCHAL_RSP_R1 : MMCHAL_RSP_R1B;
				req.stop = &stop;
			}
		}
		data.sg_len = make_sg(z, d[2], data.blksz * data.blocks, sg);
		data.sg = sg;
		for (uint32_t i = 0; i < data.sg_len; i++)
			memcpy(copy[i], sg[i].cpu, sg[i].len);
		req.data = &data;
		break;
	case 7:
		set_ios(z, h, d);
		return;
	default: /* 8 */
		queries(z, h, d);
		return;
	}
	req.cmd = &cmd;
	tr("request", type, async, data.blocks * 1000u + data.blksz);
	if (mmchal_host_stats(&h->host, &st0) != 0)
		abort();
	begin_call(z);
	if (async) {
		req.done = on_done;
		rc = mmchal_host_request(&h->host, &req);
		/* refused, or the backend's start error (EBUSY: the controller's inhibit
		   bits never cleared; ERANGE: a segment above 4 GiB) */
		EXPECT(z, rc, 0, MMCHAL_EINVAL, MMCHAL_ENOMEM, MMCHAL_EBUSY, MMCHAL_ERANGE);
		if (rc != 0 && done_calls)
			broken(z, P_DONE, "done called for a refused request", done_calls);
		while (rc == 0 && done_calls == 0) {
			int prc = mmchal_host_poll(&h->host);

			EXPECT(z, prc, 0, 1);
			if ((prc == 1) != (done_calls == 1))
				broken(z, P_DONE, "poll's answer and the done call disagree",
				       done_calls);
		}
		if (rc == 0) {
			rc = first_error(&req);
			/* nothing more comes for a completed request */
			(void)mmchal_host_poll(&h->host);
		}
	} else {
		req.done = (d[0] & 0x40u) ? on_done : NULL;
		rc = mmchal_host_request_sync(&h->host, &req, ms_sel[(d[3] >> 4) & 3u]);
	}
	if (mmchal_host_stats(&h->host, &st1) != 0)
		abort();
	EXPECT(z, rc, 0, MMCHAL_EINVAL, MMCHAL_ETIMEDOUT, MMCHAL_EIO, MMCHAL_EPROTO,
	       MMCHAL_ECANCELED, MMCHAL_EFAULT, MMCHAL_ENOMEM, MMCHAL_EBUSY, MMCHAL_ERANGE);
	if (st1.requests - st0.requests > 1u ||
	    st1.completed - st0.completed != st1.requests - st0.requests)
		broken(z, P_DONE, "requests started and completed differ",
		       st1.completed - st0.completed);
	if (req.done && done_calls != st1.completed - st0.completed)
		broken(z, P_DONE, "done calls", done_calls);
	if (st1.rejected_busy != st0.rejected_busy)
		broken(z, P_BUSY, "refused as busy with nothing in flight", 0);
	guards_check(z);
	for (uint32_t i = 0; is_data && write && i < data.sg_len; i++)
		if (memcmp(copy[i], sg[i].cpu, sg[i].len) != 0)
			broken(z, P_GUARD, "a write request's buffer changed, entry", i);
	if (rc == 0 && is_data) {
		/* Served through the port: every block moved there (a partial last word
		   counts whole). Served by DMA: the engine ran for the whole transfer. */
		uint32_t per = (data.blksz + 3u) / 4u * 4u;

		if (z->dma_seen && z->data_total != data.blksz * data.blocks)
			broken(z, P_DATA, "DMA success with bytes moved", z->data_total);
		if (!z->dma_seen && z->port_moved != per * data.blocks)
			broken(z, P_DATA, "PIO success with bytes moved", z->port_moved);
		if (data.bytes_xfered != data.blksz * data.blocks)
			broken(z, P_DATA, "success with bytes_xfered", data.bytes_xfered);
		data_check(z, &data);
		if (z->dma_seen)
			res->dma_ok++;
		else
			res->pio_ok++;
	}
	if (rc == 0) {
		if (!is_data)
			res->cmd_ok++;
		else if (write)
			res->write_ok++;
		else
			res->read_ok++;
	}
	regions_free(z, keep);
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

		z->table = region_add(z, tlen, tphys);
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
	EXPECT(z, rc, 0, MMCHAL_EINVAL);
	if (rc)
		return;
	h->hc.backend = &h->be;
	h->hc.port = &h->port;
	h->hc.pio_retry = (hd[0] & 0x10u) != 0;
	if (hd[3] & 0x80u) {
		h->hc.seg_table = h->segs;
		h->hc.seg_table_len = 8;
	}
	h->hc.cmd_timeout_ms = ms_sel[(hd[0] >> 5) & 3u];
	h->hc.data_timeout_ms = ms_sel[(hd[3] >> 3) & 3u];
	h->hc.busy_timeout_ms = ms_sel[(hd[3] >> 5) & 3u];
	begin_call(z);
	rc = mmchal_host_init(&h->host, &h->hc);
	/* probe: ETIMEDOUT for a reset that never ends, EINVAL for no base clock,
	   ENOTSUP for a DMA mode the capabilities lack */
	EXPECT(z, rc, 0, MMCHAL_EINVAL, MMCHAL_ENOTSUP, MMCHAL_ETIMEDOUT);
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
	z->p = size > FUZZ_SDHCI_HDR ? data + FUZZ_SDHCI_HDR : NULL;
	z->n = size > FUZZ_SDHCI_HDR ? size - FUZZ_SDHCI_HDR : 0;
	z->tail = (hd[0] >> 1) & 3u;
	z->bad = 0;
	now = 0;
	memset(&h, 0, sizeof(h));
	if (setjmp(z->jb) == 0)
		host_run(z, hd, res, &h);
	regions_free(z, 0);
	return z->bad;
}

static void reset_fz(struct fz *z)
{
	fuzz_sdhci_oracle_fn fn = z->oracle;
	void *octx = z->octx;
	uint8_t *rec = z->rec;
	size_t cap = z->rec_cap;

	memset(z, 0, sizeof(*z));
	z->oracle = fn;
	z->octx = octx;
	z->rec = rec;
	z->rec_cap = cap;
}

int fuzz_sdhci_run(const uint8_t *data, size_t size, struct fuzz_sdhci_result *res)
{
	Z.oracle = NULL;
	reset_fz(&Z);
	return run(data, size, res);
}

int fuzz_sdhci_record(const uint8_t *hdr, fuzz_sdhci_oracle_fn fn, void *ctx, uint8_t *rec,
		      size_t cap, size_t *len, struct fuzz_sdhci_result *res)
{
	int rc;

	Z.oracle = fn;
	Z.octx = ctx;
	Z.rec = rec;
	Z.rec_cap = cap;
	reset_fz(&Z);
	rc = run(hdr, FUZZ_SDHCI_HDR, res);
	*len = Z.rec_len;
	Z.oracle = NULL;
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_sdhci_run(data, size, NULL) != 0)
		abort();
	return 0;
}
