/*
 * Bad-input rows: error texts, the port seam and its table checks, the bus
 * accessor, and the backend and host-ops wrappers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

/* ------------------------------------------------------------------ error.h */

static int strerror_positive(void)
{
	bi_arm();
	return bi_str(mmchal_strerror(1), "unknown error");
}

static int strerror_int_min(void)
{
	bi_arm();
	return bi_str(mmchal_strerror(-2147483647 - 1), "unknown error");
}

/* ------------------------------------------------------------------ port.h */

static int port_check_null(void)
{
	bi_arm();
	return mmchal_port_check(NULL);
}

static int port_check_no_ops(void)
{
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	bi_arm();
	return mmchal_port_check(p);
}

static int port_check_half_lock(void)
{
	struct mmchal_port_ops *o = BI_NEW(struct mmchal_port_ops);
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	*o = bi_port_ops;
	o->unlock_irqrestore = NULL;
	p->ops = o;
	bi_arm();
	return mmchal_port_check(p);
}

static int port_check_no_clock(void)
{
	struct mmchal_port_ops *o = BI_NEW(struct mmchal_port_ops);
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	*o = bi_port_ops;
	o->now_ns = NULL;
	p->ops = o;
	bi_arm();
	return mmchal_port_check(p);
}

static int port_check_cache_line(void)
{
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	p->ops = &bi_port_ops;
	p->cache_line = 48;
	bi_arm();
	return mmchal_port_check(p);
}

static int port_check_cache_line_max(void)
{
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	p->ops = &bi_port_ops;
	p->cache_line = UINT32_MAX;
	bi_arm();
	return mmchal_port_check(p);
}

static int iommu_check_null(void)
{
	bi_arm();
	return mmchal_iommu_check(NULL);
}

static int iommu_check_no_map(void)
{
	struct mmchal_iommu_ops *o = BI_NEW(struct mmchal_iommu_ops);
	struct mmchal_iommu *i = BI_NEW(struct mmchal_iommu);

	*o = bi_iommu_ops;
	o->map = NULL;
	i->ops = o;
	bi_arm();
	return mmchal_iommu_check(i);
}

static int iommu_check_no_ops(void)
{
	struct mmchal_iommu *i = BI_NEW(struct mmchal_iommu);

	bi_arm();
	return mmchal_iommu_check(i);
}

static int chan_check_null(void)
{
	bi_arm();
	return mmchal_dma_chan_check(NULL);
}

static int chan_check_no_ops(void)
{
	struct mmchal_dma_chan *c = BI_NEW(struct mmchal_dma_chan);

	bi_arm();
	return mmchal_dma_chan_check(c);
}

static int chan_check_no_terminate(void)
{
	struct mmchal_dma_chan_ops *o = BI_NEW(struct mmchal_dma_chan_ops);
	struct mmchal_dma_chan *c = BI_NEW(struct mmchal_dma_chan);

	*o = bi_chan_ops;
	o->terminate = NULL;
	c->ops = o;
	bi_arm();
	return mmchal_dma_chan_check(c);
}

static int bus_init_null_bus(void)
{
	static uint32_t regs[4];

	bi_arm();
	return mmchal_bus_init_mmio(NULL, regs, 0);
}

static int bus_init_null_base(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);

	bi_arm();
	return mmchal_bus_init_mmio(b, NULL, 0);
}

static int bus_init_shift(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);
	uint32_t *regs = bi_obj(64);

	bi_arm();
	return mmchal_bus_init_mmio(b, regs, 3);
}

static int bus_init_shift_max(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);
	uint32_t *regs = bi_obj(64);

	bi_arm();
	return mmchal_bus_init_mmio(b, regs, UINT8_MAX);
}

static int bus_check_null(void)
{
	bi_arm();
	return mmchal_bus_check(NULL);
}

static int bus_check_no_ops(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);

	bi_arm();
	return mmchal_bus_check(b);
}

static int bus_check_shift(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);

	b->ops = &mmchal_bus_mmio_ops;
	b->ctx = b;
	b->bus_shift = 3;
	bi_arm();
	return mmchal_bus_check(b);
}

static int bus_check_no_write32(void)
{
	struct mmchal_bus_ops *o = BI_NEW(struct mmchal_bus_ops);
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);

	*o = mmchal_bus_mmio_ops;
	o->write32 = NULL;
	b->ops = o;
	bi_arm();
	return mmchal_bus_check(b);
}

/* ------------------------------------------------------------------ backend.h */

static int backend_check_null(void)
{
	bi_arm();
	return mmchal_backend_check(NULL);
}

static int backend_check_no_ops(void)
{
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	bi_arm();
	return mmchal_backend_check(be);
}

static int backend_check_no_name(void)
{
	struct mmchal_backend_ops *o = BI_NEW(struct mmchal_backend_ops);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	*o = bi_spy_backend_ops;
	o->name = NULL;
	be->ops = o;
	bi_arm();
	return mmchal_backend_check(be);
}

static int backend_check_no_abort(void)
{
	struct mmchal_backend_ops *o = BI_NEW(struct mmchal_backend_ops);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	*o = bi_spy_backend_ops;
	o->abort = NULL;
	be->ops = o;
	bi_arm();
	return mmchal_backend_check(be);
}

/* The optional-op wrappers on a backend without the op: ENOTSUP, nothing called. */
static struct mmchal_backend *min_backend(void)
{
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	be->ops = &bi_spy_backend_min_ops;
	be->ctx = BI_NEW(struct bi_spy);
	return be;
}

static int backend_busy_missing(void)
{
	struct mmchal_backend *be = min_backend();

	bi_arm();
	return mmchal_backend_card_busy(be);
}

static int backend_cd_missing(void)
{
	struct mmchal_backend *be = min_backend();

	bi_arm();
	return mmchal_backend_get_cd(be);
}

static int backend_ro_missing(void)
{
	struct mmchal_backend *be = min_backend();

	bi_arm();
	return mmchal_backend_get_ro(be);
}

static int backend_reset_missing(void)
{
	struct mmchal_backend *be = min_backend();

	bi_arm();
	return mmchal_backend_hw_reset(be);
}

static int backend_tuning_missing(void)
{
	struct mmchal_backend *be = min_backend();

	bi_arm();
	return mmchal_backend_execute_tuning(be, UINT32_MAX);
}

/* ------------------------------------------------------------------ host.h */

static int host_ops_check_null(void)
{
	bi_arm();
	return mmchal_host_ops_check(NULL);
}

static int host_ops_check_no_request(void)
{
	struct mmchal_host_ops *o = BI_NEW(struct mmchal_host_ops);

	*o = mmchal_host_core_ops;
	o->request = NULL;
	bi_arm();
	return mmchal_host_ops_check(o);
}

static int host_ops_check_no_set_ios(void)
{
	struct mmchal_host_ops *o = BI_NEW(struct mmchal_host_ops);

	*o = mmchal_host_core_ops;
	o->set_ios = NULL;
	bi_arm();
	return mmchal_host_ops_check(o);
}

/* A host-ops table with only the required ops: every wrapper says ENOTSUP. */
static int min_request(void *ctx, struct mmchal_request *req)
{
	(void)ctx;
	(void)req;
	return MMCHAL_EIO;
}

static int min_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	(void)ctx;
	(void)ios;
	return MMCHAL_EIO;
}

static const struct mmchal_host_ops min_host_ops = {
	.request = min_request,
	.set_ios = min_set_ios,
};

static int hw_init_card_missing(void)
{
	bi_arm();
	return mmchal_host_init_card(&min_host_ops, NULL, (enum mmchal_card_type)99);
}

static int hw_card_busy_missing(void)
{
	bi_arm();
	return mmchal_host_card_busy(&min_host_ops, NULL);
}

static int hw_get_cd_missing(void)
{
	bi_arm();
	return mmchal_host_get_cd(&min_host_ops, NULL);
}

static int hw_get_ro_missing(void)
{
	bi_arm();
	return mmchal_host_get_ro(&min_host_ops, NULL);
}

static int hw_hw_reset_missing(void)
{
	bi_arm();
	return mmchal_host_hw_reset(&min_host_ops, NULL);
}

static int hw_tuning_missing(void)
{
	bi_arm();
	return mmchal_host_execute_tuning(&min_host_ops, NULL, 0);
}

static int hw_sdio_irq_missing(void)
{
	bi_arm();
	return mmchal_host_enable_sdio_irq(&min_host_ops, NULL, true);
}

static int hw_request_sync_missing(void)
{
	struct mmchal_request *r = BI_NEW(struct mmchal_request);

	bi_arm();
	return mmchal_host_request_sync_op(&min_host_ops, NULL, r, UINT32_MAX);
}

static int hw_get_caps_missing(void)
{
	struct mmchal_host_caps *c = BI_NEW(struct mmchal_host_caps);

	bi_arm();
	return mmchal_host_get_caps_op(&min_host_ops, NULL, c);
}

static int hw_get_limits_missing(void)
{
	struct mmchal_limits *l = BI_NEW(struct mmchal_limits);

	bi_arm();
	return mmchal_host_get_limits_op(&min_host_ops, NULL, l);
}

#define WRAPPER_PRE                                                                         \
	"the wrapper's contract is a checked table (a *_check() call at registration); it " \
	"dereferences it without a test to stay one call on the hot path"
#define BUS_PRE                                                                                    \
	"an inline register accessor on a bus that passed mmchal_bus_check(); it is the hot path " \
	"of every register access and has no error return"

const struct bi_row bi_rows_core[] = {
	BI_ROW(mmchal_strerror, "positive value", strerror_positive, 0),
	BI_ROW(mmchal_strerror, "INT_MIN", strerror_int_min, 0),

	BI_ROW(mmchal_port_check, "NULL port", port_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_port_check, "NULL ops", port_check_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_port_check, "lock without unlock", port_check_half_lock, MMCHAL_EINVAL),
	BI_ROW(mmchal_port_check, "no now_ns", port_check_no_clock, MMCHAL_EINVAL),
	BI_ROW(mmchal_port_check, "cache line 48", port_check_cache_line, MMCHAL_EINVAL),
	BI_ROW(mmchal_port_check, "cache line UINT32_MAX", port_check_cache_line_max,
	       MMCHAL_EINVAL),
	BI_PRE(mmchal_port_has_lock, WRAPPER_PRE),
	BI_PRE(mmchal_port_has_work, WRAPPER_PRE),
	BI_ROW(mmchal_iommu_check, "NULL", iommu_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_check, "NULL ops", iommu_check_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_iommu_check, "no map op", iommu_check_no_map, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_chan_check, "NULL", chan_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_chan_check, "NULL ops", chan_check_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_dma_chan_check, "no terminate op", chan_check_no_terminate, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_init_mmio, "NULL bus", bus_init_null_bus, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_init_mmio, "NULL base", bus_init_null_base, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_init_mmio, "bus_shift 3", bus_init_shift, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_init_mmio, "bus_shift 255", bus_init_shift_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_check, "NULL", bus_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_check, "NULL ops", bus_check_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_check, "bus_shift 3", bus_check_shift, MMCHAL_EINVAL),
	BI_ROW(mmchal_bus_check, "no write32", bus_check_no_write32, MMCHAL_EINVAL),
	BI_PRE(mmchal_bus_rd16, BUS_PRE),
	BI_PRE(mmchal_bus_wr16, BUS_PRE),
	BI_PRE(mmchal_bus_rd32, BUS_PRE),
	BI_PRE(mmchal_bus_wr32, BUS_PRE),
	BI_PRE(mmchal_bus_raw_rd32, BUS_PRE),
	BI_PRE(mmchal_bus_raw_wr32, BUS_PRE),
	BI_PRE(mmchal_bus_mmio_ops,
	       "ctx is a register window the port maps (mmchal_bus_init_mmio() refuses NULL); "
	       "the ops are plain volatile accesses with no error return"),

	BI_ROW(mmchal_backend_check, "NULL", backend_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_backend_check, "NULL ops", backend_check_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_backend_check, "no name", backend_check_no_name, MMCHAL_EINVAL),
	BI_ROW(mmchal_backend_check, "no abort", backend_check_no_abort, MMCHAL_EINVAL),
	BI_ROW(mmchal_backend_card_busy, "op missing", backend_busy_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_backend_get_cd, "op missing", backend_cd_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_backend_get_ro, "op missing", backend_ro_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_backend_hw_reset, "op missing", backend_reset_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_backend_execute_tuning, "op missing, opcode UINT32_MAX",
	       backend_tuning_missing, MMCHAL_ENOTSUP),
	BI_PRE(mmchal_backend_card_busy, WRAPPER_PRE),
	BI_PRE(mmchal_backend_get_cd, WRAPPER_PRE),
	BI_PRE(mmchal_backend_get_ro, WRAPPER_PRE),
	BI_PRE(mmchal_backend_hw_reset, WRAPPER_PRE),
	BI_PRE(mmchal_backend_execute_tuning, WRAPPER_PRE),

	BI_ROW(mmchal_host_ops_check, "NULL", host_ops_check_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_ops_check, "no request", host_ops_check_no_request, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_ops_check, "no set_ios", host_ops_check_no_set_ios, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init_card, "op missing, card type 99", hw_init_card_missing,
	       MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_card_busy, "op missing", hw_card_busy_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_get_cd, "op missing", hw_get_cd_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_get_ro, "op missing", hw_get_ro_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_hw_reset, "op missing", hw_hw_reset_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_execute_tuning, "op missing", hw_tuning_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_enable_sdio_irq, "op missing", hw_sdio_irq_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_request_sync_op, "op missing", hw_request_sync_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_get_caps_op, "op missing", hw_get_caps_missing, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_host_get_limits_op, "op missing", hw_get_limits_missing, MMCHAL_ENOTSUP),
	BI_PRE(mmchal_host_init_card, WRAPPER_PRE),
	BI_PRE(mmchal_host_card_busy, WRAPPER_PRE),
	BI_PRE(mmchal_host_get_cd, WRAPPER_PRE),
	BI_PRE(mmchal_host_get_ro, WRAPPER_PRE),
	BI_PRE(mmchal_host_hw_reset, WRAPPER_PRE),
	BI_PRE(mmchal_host_execute_tuning, WRAPPER_PRE),
	BI_PRE(mmchal_host_enable_sdio_irq, WRAPPER_PRE),
	BI_PRE(mmchal_host_request_sync_op, WRAPPER_PRE),
	BI_PRE(mmchal_host_get_caps_op, WRAPPER_PRE),
	BI_PRE(mmchal_host_get_limits_op, WRAPPER_PRE),
};

const size_t bi_nrows_core = sizeof(bi_rows_core) / sizeof(bi_rows_core[0]);
