/*
 * Table validation (src/core/port.c): ports, IOMMU instances, DMA channels,
 * backends and host ops tables; and the wrappers that turn a missing
 * optional op into MMCHAL_ENOTSUP.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/backend.h>
#include <mmchal/host.h>
#include <mmchal/port.h>

static mmchal_irqflags_t lock(void *ctx)
{
	(void)ctx;
	return 0;
}

static void unlock(void *ctx, mmchal_irqflags_t f)
{
	(void)ctx;
	(void)f;
}

static uint64_t now(void *ctx)
{
	(void)ctx;
	return 0;
}

static void delay(void *ctx, uint32_t us)
{
	(void)ctx;
	(void)us;
}

static void clean(void *ctx, const void *a, size_t n)
{
	(void)ctx;
	(void)a;
	(void)n;
}

static void inval(void *ctx, void *a, size_t n)
{
	(void)ctx;
	(void)a;
	(void)n;
}

static int work(void *ctx, mmchal_work_fn fn, void *arg)
{
	(void)ctx;
	fn(arg);
	return 0;
}

static void test_port_check(void **state)
{
	struct mmchal_port_ops ops = {.lock_irqsave = lock,
				      .unlock_irqrestore = unlock,
				      .now_ns = now,
				      .delay_us = delay,
				      .cache_clean = clean,
				      .cache_invalidate = inval,
				      .schedule_work = work};
	struct mmchal_port port = {.ops = &ops, .cache_line = 64};

	(void)state;
	assert_int_equal(mmchal_port_check(&port), 0);
	assert_true(mmchal_port_has_lock(&port));
	assert_true(mmchal_port_has_work(&port));

	/* Minimal boot-loader port: a clock and a delay. */
	ops = (struct mmchal_port_ops){.now_ns = now, .delay_us = delay};
	port.cache_line = 0;
	assert_int_equal(mmchal_port_check(&port), 0);
	assert_false(mmchal_port_has_lock(&port));
	assert_false(mmchal_port_has_work(&port));

	ops.now_ns = NULL;
	assert_int_equal(mmchal_port_check(&port), MMCHAL_EINVAL);
	ops.now_ns = now;
	ops.delay_us = NULL;
	assert_int_equal(mmchal_port_check(&port), MMCHAL_EINVAL);
	ops.delay_us = delay;
	ops.lock_irqsave = lock; /* without its unlock */
	assert_int_equal(mmchal_port_check(&port), MMCHAL_EINVAL);
	ops.lock_irqsave = NULL;
	ops.cache_invalidate = inval; /* without clean */
	assert_int_equal(mmchal_port_check(&port), MMCHAL_EINVAL);
	ops.cache_invalidate = NULL;
	port.cache_line = 48;
	assert_int_equal(mmchal_port_check(&port), MMCHAL_EINVAL);
	port.cache_line = 32;
	assert_int_equal(mmchal_port_check(&port), 0);
	/* 1 is a power of two; 3 is not */
	port.cache_line = 1;
	assert_int_equal(mmchal_port_check(&port), 0);
	port.cache_line = 3;
	assert_int_equal(mmchal_port_check(&port), MMCHAL_EINVAL);
	port.cache_line = 32;
	port.ops = NULL;
	assert_int_equal(mmchal_port_check(&port), MMCHAL_EINVAL);
	assert_int_equal(mmchal_port_check(NULL), MMCHAL_EINVAL);
}

static int iommu_caps(void *ctx, struct mmchal_iommu_caps *c)
{
	(void)ctx;
	(void)c;
	return 0;
}

static int iommu_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t pa, uint64_t size,
		     uint32_t prot)
{
	(void)ctx;
	(void)iova;
	(void)pa;
	(void)size;
	(void)prot;
	return 0;
}

static int iommu_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	(void)ctx;
	(void)iova;
	(void)size;
	return 0;
}

static void test_iommu_check(void **state)
{
	struct mmchal_iommu_ops ops = {
		.get_caps = iommu_caps, .map = iommu_map, .unmap = iommu_unmap};
	struct mmchal_iommu io = {.ops = &ops};

	(void)state;
	/* flush is optional */
	assert_int_equal(mmchal_iommu_check(&io), 0);
	ops.map = NULL;
	assert_int_equal(mmchal_iommu_check(&io), MMCHAL_EINVAL);
	ops.map = iommu_map;
	ops.unmap = NULL;
	assert_int_equal(mmchal_iommu_check(&io), MMCHAL_EINVAL);
	ops.unmap = iommu_unmap;
	ops.get_caps = NULL;
	assert_int_equal(mmchal_iommu_check(&io), MMCHAL_EINVAL);
	assert_int_equal(mmchal_iommu_check(NULL), MMCHAL_EINVAL);
	io.ops = NULL;
	assert_int_equal(mmchal_iommu_check(&io), MMCHAL_EINVAL);
}

static int chan_caps(void *ctx, struct mmchal_dma_dir_caps *c)
{
	(void)ctx;
	(void)c;
	return 0;
}

static int chan_prep(void *ctx, const struct mmchal_dma_xfer *x)
{
	(void)ctx;
	(void)x;
	return 0;
}

static int chan_op(void *ctx)
{
	(void)ctx;
	return 0;
}

static void test_dma_chan_check(void **state)
{
	struct mmchal_dma_chan_ops ops = {.get_caps = chan_caps,
					  .prepare = chan_prep,
					  .submit = chan_op,
					  .terminate = chan_op};
	struct mmchal_dma_chan ch = {.ops = &ops};

	(void)state;
	assert_int_equal(mmchal_dma_chan_check(&ch), 0);
	ops.terminate = NULL;
	assert_int_equal(mmchal_dma_chan_check(&ch), MMCHAL_EINVAL);
	ops.terminate = chan_op;
	ops.prepare = NULL;
	assert_int_equal(mmchal_dma_chan_check(&ch), MMCHAL_EINVAL);
	ops.prepare = chan_prep;
	ops.get_caps = NULL;
	assert_int_equal(mmchal_dma_chan_check(&ch), MMCHAL_EINVAL);
	ops.get_caps = chan_caps;
	ops.submit = NULL;
	assert_int_equal(mmchal_dma_chan_check(&ch), MMCHAL_EINVAL);
	ops.submit = chan_op;
	assert_int_equal(mmchal_dma_chan_check(&ch), 0);
	ch.ops = NULL;
	assert_int_equal(mmchal_dma_chan_check(&ch), MMCHAL_EINVAL);
	assert_int_equal(mmchal_dma_chan_check(NULL), MMCHAL_EINVAL);
}

static int be_caps(void *ctx, struct mmchal_host_caps *h, struct mmchal_dma_caps *d)
{
	(void)ctx;
	(void)h;
	(void)d;
	return 0;
}

static int be_ios(void *ctx, const struct mmchal_ios *ios)
{
	(void)ctx;
	(void)ios;
	return 0;
}

static int be_start(void *ctx, const struct mmchal_xfer *x)
{
	(void)ctx;
	(void)x;
	return 0;
}

static int be_irq(void *ctx, uint32_t *ev)
{
	(void)ctx;
	*ev = 0;
	return 0;
}

static int be_busy(void *ctx)
{
	return *(int *)ctx;
}

static int be_tune(void *ctx, uint32_t opcode)
{
	(void)ctx;
	return (int)opcode;
}

static void test_backend_check_and_wrappers(void **state)
{
	struct mmchal_backend_ops ops = {.name = "test",
					 .probe = chan_op,
					 .get_caps = be_caps,
					 .set_ios = be_ios,
					 .start = be_start,
					 .handle_irq = be_irq,
					 .abort = chan_op};
	int busy = 1;
	struct mmchal_backend be = {.ops = &ops, .ctx = &busy};

	(void)state;
	assert_int_equal(mmchal_backend_check(&be), 0);
	/* Missing optional ops answer "not supported". */
	assert_int_equal(mmchal_backend_card_busy(&be), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_backend_get_cd(&be), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_backend_get_ro(&be), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_backend_hw_reset(&be), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_backend_execute_tuning(&be, 21), MMCHAL_ENOTSUP);
	/* Present ones are called. */
	ops.card_busy = be_busy;
	ops.execute_tuning = be_tune;
	assert_int_equal(mmchal_backend_card_busy(&be), 1);
	busy = 0;
	assert_int_equal(mmchal_backend_card_busy(&be), 0);
	assert_int_equal(mmchal_backend_execute_tuning(&be, 21), 21);

	/* Each required op is required. */
	ops.name = NULL;
	assert_int_equal(mmchal_backend_check(&be), MMCHAL_EINVAL);
	ops.name = "test";
	ops.handle_irq = NULL;
	assert_int_equal(mmchal_backend_check(&be), MMCHAL_EINVAL);
	ops.handle_irq = be_irq;
	ops.abort = NULL;
	assert_int_equal(mmchal_backend_check(&be), MMCHAL_EINVAL);
	ops.abort = chan_op;
	ops.start = NULL;
	assert_int_equal(mmchal_backend_check(&be), MMCHAL_EINVAL);
	ops.start = be_start;
	ops.probe = NULL;
	assert_int_equal(mmchal_backend_check(&be), MMCHAL_EINVAL);
	ops.probe = chan_op;
	ops.get_caps = NULL;
	assert_int_equal(mmchal_backend_check(&be), MMCHAL_EINVAL);
	ops.get_caps = be_caps;
	ops.set_ios = NULL;
	assert_int_equal(mmchal_backend_check(&be), MMCHAL_EINVAL);
	ops.set_ios = be_ios;
	assert_int_equal(mmchal_backend_check(&be), 0);
	be.ops = NULL;
	assert_int_equal(mmchal_backend_check(&be), MMCHAL_EINVAL);
	assert_int_equal(mmchal_backend_check(NULL), MMCHAL_EINVAL);
}

static int host_req(void *ctx, struct mmchal_request *r)
{
	(void)ctx;
	(void)r;
	return 0;
}

static int host_cd(void *ctx)
{
	(void)ctx;
	return 1;
}

static void test_host_ops_check_and_wrappers(void **state)
{
	struct mmchal_host_ops ops = {.request = host_req, .set_ios = be_ios};

	(void)state;
	assert_int_equal(mmchal_host_ops_check(&ops), 0);
	assert_int_equal(mmchal_host_init_card(&ops, NULL, MMCHAL_CARD_MMC), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_card_busy(&ops, NULL), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_get_cd(&ops, NULL), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_get_ro(&ops, NULL), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_hw_reset(&ops, NULL), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_execute_tuning(&ops, NULL, 19), MMCHAL_ENOTSUP);
	ops.get_cd = host_cd;
	assert_int_equal(mmchal_host_get_cd(&ops, NULL), 1);
	ops.set_ios = NULL;
	assert_int_equal(mmchal_host_ops_check(&ops), MMCHAL_EINVAL);
	ops.set_ios = be_ios;
	ops.request = NULL;
	assert_int_equal(mmchal_host_ops_check(&ops), MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_ops_check(NULL), MMCHAL_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_check),
		cmocka_unit_test(test_iommu_check),
		cmocka_unit_test(test_dma_chan_check),
		cmocka_unit_test(test_backend_check_and_wrappers),
		cmocka_unit_test(test_host_ops_check_and_wrappers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
