/**
 * @file
 * @brief The memory-mapped bus accessor. The only code in the library that
 *        touches @c volatile.
 *
 * Locking: none; register accesses are as atomic as the bus makes them.
 */
#include <mmchal/port.h>

static uint16_t mmio_read16(void *ctx, uint32_t off)
{
	return *(volatile uint16_t *)((volatile uint8_t *)ctx + off);
}

static void mmio_write16(void *ctx, uint32_t off, uint16_t val)
{
	*(volatile uint16_t *)((volatile uint8_t *)ctx + off) = val;
}

static uint32_t mmio_read32(void *ctx, uint32_t off)
{
	return *(volatile uint32_t *)((volatile uint8_t *)ctx + off);
}

static void mmio_write32(void *ctx, uint32_t off, uint32_t val)
{
	*(volatile uint32_t *)((volatile uint8_t *)ctx + off) = val;
}

static uint64_t mmio_read64(void *ctx, uint32_t off)
{
	return *(volatile uint64_t *)((volatile uint8_t *)ctx + off);
}

static void mmio_write64(void *ctx, uint32_t off, uint64_t val)
{
	*(volatile uint64_t *)((volatile uint8_t *)ctx + off) = val;
}

const struct mmchal_bus_ops mmchal_bus_mmio_ops = {
	.read16 = mmio_read16,
	.write16 = mmio_write16,
	.read32 = mmio_read32,
	.write32 = mmio_write32,
	.read64 = mmio_read64,
	.write64 = mmio_write64,
};

int mmchal_bus_init_mmio(struct mmchal_bus *bus, volatile void *base, uint8_t bus_shift)
{
	if (!bus || !base || bus_shift > 2)
		return MMCHAL_EINVAL;
	bus->ops = &mmchal_bus_mmio_ops;
	/* The accessor casts back to volatile on every access. */
	bus->ctx = (void *)(uintptr_t)base;
	bus->bus_shift = bus_shift;
	return 0;
}

int mmchal_bus_check(const struct mmchal_bus *bus)
{
	if (!bus || !bus->ops || bus->bus_shift > 2)
		return MMCHAL_EINVAL;
	if (!bus->ops->read16 || !bus->ops->write16 || !bus->ops->read32 || !bus->ops->write32)
		return MMCHAL_EINVAL;
	return 0;
}
