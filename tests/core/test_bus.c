/*
 * Bus accessor (src/core/bus.c and the inline helpers of port.h): logical
 * offsets shifted by bus_shift, 32-bit registers as two 16-bit halves, the
 * memory-mapped ops on a RAM window, and argument checks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/port.h>

/* A 1 KiB register window in RAM, aligned for 64-bit access. */
static uint64_t window[128];

static void test_mmio_16_bit_shifted(void **state)
{
	struct mmchal_bus bus;
	uint8_t *w = (uint8_t *)window;

	(void)state;
	for (uint8_t shift = 0; shift <= 2; shift++) {
		uint16_t v;

		memset(window, 0, sizeof(window));
		assert_int_equal(mmchal_bus_init_mmio(&bus, window, shift), 0);
		assert_int_equal(mmchal_bus_check(&bus), 0);
		/* SD_INFO1 is logical 0x1c: byte 0x1c, 0x38 or 0x70. */
		mmchal_bus_wr16(&bus, 0x1c, 0xbeef);
		memcpy(&v, w + (0x1cu << shift), sizeof(v));
		assert_int_equal(v, 0xbeef);
		assert_int_equal(mmchal_bus_rd16(&bus, 0x1c), 0xbeef);
		/* Nothing else in the window was written. */
		for (unsigned int i = 0; i < sizeof(window); i++)
			if (i < (0x1cu << shift) || i >= (0x1cu << shift) + 2)
				assert_int_equal(w[i], 0);
	}
}

static void test_mmio_32_bit_as_halves(void **state)
{
	struct mmchal_bus bus;
	uint8_t *w = (uint8_t *)window;
	uint16_t lo, hi;

	(void)state;
	memset(window, 0, sizeof(window));
	assert_int_equal(mmchal_bus_init_mmio(&bus, window, 2), 0);
	/* SD_INFO1/INFO2 pair at logical 0x1c/0x1e -> bytes 0x70/0x78 on Gen3. */
	mmchal_bus_wr32(&bus, 0x1c, 0x12345678u);
	memcpy(&lo, w + 0x70, 2);
	memcpy(&hi, w + 0x78, 2);
	assert_int_equal(lo, 0x5678);
	assert_int_equal(hi, 0x1234);
	assert_int_equal(mmchal_bus_rd32(&bus, 0x1c), 0x12345678u);
}

static void test_mmio_raw_unshifted(void **state)
{
	struct mmchal_bus bus;
	uint32_t v;

	(void)state;
	memset(window, 0, sizeof(window));
	assert_int_equal(mmchal_bus_init_mmio(&bus, window, 2), 0);
	/* DM_* registers are not shifted: byte 0x20 is byte 0x20. */
	mmchal_bus_raw_wr32(&bus, 0x20, 0xcafef00du);
	memcpy(&v, (uint8_t *)window + 0x20, 4);
	assert_int_equal(v, 0xcafef00du);
	assert_int_equal(mmchal_bus_raw_rd32(&bus, 0x20), 0xcafef00du);
	mmchal_bus_mmio_ops.write64(bus.ctx, 0x40, 0x0102030405060708ull);
	assert_int_equal(mmchal_bus_mmio_ops.read64(bus.ctx, 0x40), 0x0102030405060708ull);
}

static uint16_t r16(void *ctx, uint32_t off)
{
	(void)ctx;
	return (uint16_t)off;
}

static void w16(void *ctx, uint32_t off, uint16_t val)
{
	(void)ctx;
	(void)off;
	(void)val;
}

static uint32_t r32(void *ctx, uint32_t off)
{
	(void)ctx;
	return off;
}

static void w32(void *ctx, uint32_t off, uint32_t val)
{
	(void)ctx;
	(void)off;
	(void)val;
}

static void test_check_rejects_bad_accessors(void **state)
{
	const struct mmchal_bus_ops full = {
		.read16 = r16, .write16 = w16, .read32 = r32, .write32 = w32};
	const struct mmchal_bus_ops no_w32 = {.read16 = r16, .write16 = w16, .read32 = r32};
	const struct mmchal_bus_ops no_r16 = {.write16 = w16, .read32 = r32, .write32 = w32};
	const struct mmchal_bus_ops no_w16 = {.read16 = r16, .read32 = r32, .write32 = w32};
	const struct mmchal_bus_ops no_r32 = {.read16 = r16, .write16 = w16, .write32 = w32};
	struct mmchal_bus bus = {.ops = &full, .bus_shift = 1};

	(void)state;
	assert_int_equal(mmchal_bus_check(&bus), 0);
	assert_int_equal(mmchal_bus_rd16(&bus, 0x24), 0x48);
	bus.bus_shift = 3;
	assert_int_equal(mmchal_bus_check(&bus), MMCHAL_EINVAL);
	bus.bus_shift = 0;
	bus.ops = &no_w32;
	assert_int_equal(mmchal_bus_check(&bus), MMCHAL_EINVAL);
	bus.ops = &no_r16;
	assert_int_equal(mmchal_bus_check(&bus), MMCHAL_EINVAL);
	bus.ops = &no_w16;
	assert_int_equal(mmchal_bus_check(&bus), MMCHAL_EINVAL);
	bus.ops = &no_r32;
	assert_int_equal(mmchal_bus_check(&bus), MMCHAL_EINVAL);
	bus.bus_shift = 2;
	bus.ops = &full;
	assert_int_equal(mmchal_bus_check(&bus), 0);
	bus.ops = NULL;
	assert_int_equal(mmchal_bus_check(&bus), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bus_check(NULL), MMCHAL_EINVAL);
}

static void test_init_rejects_bad_arguments(void **state)
{
	struct mmchal_bus bus = {0};

	(void)state;
	assert_int_equal(mmchal_bus_init_mmio(NULL, window, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bus_init_mmio(&bus, NULL, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bus_init_mmio(&bus, window, 3), MMCHAL_EINVAL);
	/* Untouched on error. */
	assert_null(bus.ops);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmio_16_bit_shifted),
		cmocka_unit_test(test_mmio_32_bit_as_halves),
		cmocka_unit_test(test_mmio_raw_unshifted),
		cmocka_unit_test(test_check_rejects_bad_accessors),
		cmocka_unit_test(test_init_rejects_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
