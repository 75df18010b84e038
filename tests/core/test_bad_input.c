/*
 * Bad input at every public entry (table-driven; the rows are in
 * bad_input_*.c, the format in bad_input.h). Each row is one test: it must
 * return its exact documented error and change nothing in the arena outside
 * what it declared writable.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

/* ------------------------------------------------------------------ arena */

#define BI_MAX_WRITABLE 8

static _Alignas(16) unsigned char arena[BI_ARENA_SIZE];
static _Alignas(16) unsigned char snap[BI_ARENA_SIZE];
static size_t arena_used;
static bool armed;
static struct {
	size_t off, len;
} writable[BI_MAX_WRITABLE];
static size_t nwritable;
#define BI_MAX_OBJS 64
static struct {
	size_t off, len;
} objs[BI_MAX_OBJS];
static size_t nobjs;

static void arena_reset(void)
{
	memset(arena, BI_FILL, sizeof(arena));
	arena_used = 0;
	armed = false;
	nwritable = 0;
	nobjs = 0;
}

void *bi_obj_at(size_t size, size_t misalign)
{
	size_t off = (arena_used + BI_GUARD + 15u) & ~(size_t)15u;
	unsigned char *p;

	off += misalign;
	if (armed || off + size + BI_GUARD > sizeof(arena))
		fail_msg("bad_input: arena exhausted or object made after bi_arm()");
	p = &arena[off];
	memset(p, 0, size);
	if (nobjs < BI_MAX_OBJS) {
		objs[nobjs].off = off;
		objs[nobjs].len = size;
		nobjs++;
	}
	arena_used = off + size;
	return p;
}

void *bi_obj(size_t size)
{
	return bi_obj_at(size, 0);
}

void bi_writable(const void *p, size_t size)
{
	const unsigned char *b = p;

	if (nwritable == BI_MAX_WRITABLE || b < arena || b + size > arena + sizeof(arena))
		fail_msg("bad_input: writable range outside the arena");
	writable[nwritable].off = (size_t)(b - arena);
	writable[nwritable].len = size;
	nwritable++;
}

void bi_arm(void)
{
	memcpy(snap, arena, sizeof(arena));
	armed = true;
}

int bi_str(const char *s, const char *want)
{
	return s && strcmp(s, want) == 0 ? 0 : 1;
}

/* Which object (in creation order) holds @p off, and where in it; -1 = a guard. */
static int object_of(size_t off, size_t *at)
{
	for (size_t i = 0; i < nobjs; i++)
		if (off >= objs[i].off && off - objs[i].off < objs[i].len) {
			*at = off - objs[i].off;
			return (int)i;
		}
	*at = off;
	return -1;
}

static bool may_change(size_t off)
{
	for (size_t i = 0; i < nwritable; i++)
		if (off >= writable[i].off && off - writable[i].off < writable[i].len)
			return true;
	return false;
}

/* ------------------------------------------------------------------ spies */

static int spy_count(void *ctx, enum bi_spy_op op)
{
	struct bi_spy *s = ctx;

	if (s)
		s->calls[op]++;
	return 0;
}

static int spy_probe(void *ctx)
{
	return spy_count(ctx, BI_SPY_PROBE);
}

static int spy_get_caps(void *ctx, struct mmchal_host_caps *host, struct mmchal_dma_caps *dma)
{
	(void)spy_count(ctx, BI_SPY_CAPS);
	memset(host, 0, sizeof(*host));
	memset(dma, 0, sizeof(*dma));
	host->completion = MMCHAL_COMPLETES_POLLED;
	host->bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_CMD23;
	return 0;
}

static int spy_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	(void)ios;
	return spy_count(ctx, BI_SPY_IOS);
}

static int spy_start(void *ctx, const struct mmchal_xfer *xfer)
{
	(void)xfer;
	return spy_count(ctx, BI_SPY_START);
}

static int spy_handle_irq(void *ctx, uint32_t *events)
{
	struct bi_spy *s = ctx;

	(void)spy_count(ctx, BI_SPY_IRQ);
	*events = s ? s->events : 0;
	return 0;
}

static int spy_abort(void *ctx)
{
	return spy_count(ctx, BI_SPY_ABORT);
}

static int spy_card_busy(void *ctx)
{
	return spy_count(ctx, BI_SPY_BUSY);
}

static int spy_get_cd(void *ctx)
{
	(void)spy_count(ctx, BI_SPY_CD);
	return 1;
}

static int spy_get_ro(void *ctx)
{
	return spy_count(ctx, BI_SPY_RO);
}

static int spy_hw_reset(void *ctx)
{
	return spy_count(ctx, BI_SPY_RESET);
}

static int spy_tuning(void *ctx, uint32_t opcode)
{
	(void)opcode;
	return spy_count(ctx, BI_SPY_TUNE);
}

static int spy_sdio_irq(void *ctx, bool enable)
{
	(void)enable;
	return spy_count(ctx, BI_SPY_SDIO);
}

const struct mmchal_backend_ops bi_spy_backend_ops = {
	.name = "spy",
	.probe = spy_probe,
	.get_caps = spy_get_caps,
	.set_ios = spy_set_ios,
	.start = spy_start,
	.handle_irq = spy_handle_irq,
	.abort = spy_abort,
	.card_busy = spy_card_busy,
	.get_cd = spy_get_cd,
	.get_ro = spy_get_ro,
	.hw_reset = spy_hw_reset,
	.execute_tuning = spy_tuning,
	.enable_sdio_irq = spy_sdio_irq,
};

const struct mmchal_backend_ops bi_spy_backend_min_ops = {
	.name = "spy-min",
	.probe = spy_probe,
	.get_caps = spy_get_caps,
	.set_ios = spy_set_ios,
	.start = spy_start,
	.handle_irq = spy_handle_irq,
	.abort = spy_abort,
};

static uint64_t port_clock;

static mmchal_irqflags_t port_lock(void *ctx)
{
	(void)ctx;
	return 0;
}

static void port_unlock(void *ctx, mmchal_irqflags_t flags)
{
	(void)ctx;
	(void)flags;
}

static uint64_t port_now(void *ctx)
{
	(void)ctx;
	return port_clock += 1000u;
}

static void port_delay(void *ctx, uint32_t us)
{
	(void)ctx;
	port_clock += (uint64_t)us * 1000u;
}

const struct mmchal_port_ops bi_port_ops = {
	.lock_irqsave = port_lock,
	.unlock_irqrestore = port_unlock,
	.now_ns = port_now,
	.delay_us = port_delay,
};

static int iommu_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	(void)ctx;
	memset(caps, 0, sizeof(*caps));
	caps->present = true;
	caps->page_size = 4096u;
	caps->merge_boundary = 4095u;
	caps->aperture_start = 0x100000u;
	caps->aperture_end = 0x3fffffffu;
	return 0;
}

static int iommu_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
		     uint32_t prot)
{
	(void)iova;
	(void)phys;
	(void)size;
	(void)prot;
	return spy_count(ctx, BI_SPY_IOMMU_MAP);
}

static int iommu_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	(void)iova;
	(void)size;
	return spy_count(ctx, BI_SPY_IOMMU_UNMAP);
}

static int iommu_flush(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	(void)iova;
	(void)size;
	return spy_count(ctx, BI_SPY_IOMMU_FLUSH);
}

const struct mmchal_iommu_ops bi_iommu_ops = {
	.get_caps = iommu_caps,
	.map = iommu_map,
	.unmap = iommu_unmap,
	.flush = iommu_flush,
};

static int chan_caps(void *ctx, struct mmchal_dma_dir_caps *caps)
{
	(void)ctx;
	memset(caps, 0, sizeof(*caps));
	caps->max_segs = 1;
	caps->max_seg_size = 65536u;
	caps->addr_align = 4;
	return 0;
}

static int chan_prepare(void *ctx, const struct mmchal_dma_xfer *xfer)
{
	(void)ctx;
	(void)xfer;
	return 0;
}

static int chan_ctx_only(void *ctx)
{
	(void)ctx;
	return 0;
}

const struct mmchal_dma_chan_ops bi_chan_ops = {
	.get_caps = chan_caps,
	.prepare = chan_prepare,
	.submit = chan_ctx_only,
	.terminate = chan_ctx_only,
};

/* ------------------------------------------------------------------ runner */

static void run_row(void **state)
{
	const struct bi_row *row = *state;
	int ret;

	if (row->pre) {
		/* a precondition row states its reason; nothing to call */
		assert_true(row->run == NULL && row->pre[0] != '\0');
		return;
	}
	arena_reset();
	ret = row->run();
	if (!armed)
		fail_msg("%s [%s]: the row never armed the arena", row->fn, row->what);
	if (ret != row->expect)
		fail_msg("%s [%s]: returned %d, expected %d", row->fn, row->what, ret, row->expect);
	for (size_t off = 0; off < sizeof(arena); off++) {
		size_t at;
		int obj;

		if (arena[off] == snap[off] || may_change(off))
			continue;
		obj = object_of(off, &at);
		fail_msg("%s [%s]: %s %d byte %u changed from 0x%02x to 0x%02x", row->fn, row->what,
			 obj < 0 ? "guard or free arena, offset" : "object", obj, (unsigned)at,
			 snap[off], arena[off]);
	}
}

#define BI_MAX_ROWS 1024

#define BI_NAME_MAX 96

static struct CMUnitTest tests[BI_MAX_ROWS];
static char names[BI_MAX_ROWS][BI_NAME_MAX];

/* "function: bad input", cut to fit */
static const char *name_of(size_t n, const struct bi_row *row)
{
	char *d = names[n];
	size_t a = strlen(row->fn), b = strlen(row->what);

	if (a > BI_NAME_MAX - 1u)
		a = BI_NAME_MAX - 1u;
	memcpy(d, row->fn, a);
	if (a + 2u < BI_NAME_MAX - 1u) {
		memcpy(d + a, ": ", 2);
		a += 2;
		if (b > BI_NAME_MAX - 1u - a)
			b = BI_NAME_MAX - 1u - a;
		memcpy(d + a, row->what, b);
		a += b;
	}
	d[a] = '\0';
	return d;
}

static size_t add_rows(size_t n, const struct bi_row *rows, size_t count)
{
	for (size_t i = 0; i < count && n < BI_MAX_ROWS; i++, n++) {
		tests[n].name = name_of(n, &rows[i]);
		tests[n].test_func = run_row;
		tests[n].setup_func = NULL;
		tests[n].teardown_func = NULL;
		/* the runner hands the state back as void *; rows are never written */
		tests[n].initial_state = (void *)(uintptr_t)&rows[i];
	}
	return n;
}

int main(void)
{
	size_t n = 0;

	n = add_rows(n, bi_rows_core, bi_nrows_core);
	n = add_rows(n, bi_rows_limits, bi_nrows_limits);
	n = add_rows(n, bi_rows_dma_plan, bi_nrows_dma_plan);
	n = add_rows(n, bi_rows_iova, bi_nrows_iova);
	n = add_rows(n, bi_rows_iommu, bi_nrows_iommu);
	n = add_rows(n, bi_rows_bounce, bi_nrows_bounce);
	n = add_rows(n, bi_rows_host, bi_nrows_host);
	n = add_rows(n, bi_rows_card, bi_nrows_card);
	n = add_rows(n, bi_rows_backends, bi_nrows_backends);
	n = add_rows(n, bi_rows_sdhi_boot, bi_nrows_sdhi_boot);
	n = add_rows(n, bi_rows_dt, bi_nrows_dt);
	n = add_rows(n, bi_rows_request, bi_nrows_request);
	/* the rows are counted at run time: call the group runner with the count */
#if defined(MMCHAL_ON_TARGET) && MMCHAL_ON_TARGET
	return mmt_run_group_("bad_input", tests, n, NULL, NULL);
#else
	return _cmocka_run_group_tests("bad_input", tests, n, NULL, NULL);
#endif
}
