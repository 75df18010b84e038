/*
 * The part every footprint image shares: the entry point, the volatile
 * inputs and the port/bus set-up of a polled bare-metal port (see
 * docs/porting.md, "Bare metal, polled").
 */
#include "fp.h"

volatile uintptr_t fp_in;
volatile intptr_t fp_out;

static uint64_t fp_now_ns(void *ctx)
{
	(void)ctx;
	return fp_in;
}

static void fp_delay_us(void *ctx, uint32_t us)
{
	(void)ctx;
	fp_out = us;
}

static const struct mmchal_port_ops fp_port_ops = {
	.now_ns = fp_now_ns,
	.delay_us = fp_delay_us,
};

void fp_port(void)
{
	struct mmchal_port port = {.ops = &fp_port_ops, .ctx = NULL};
	struct mmchal_bus bus;

	fp_out = mmchal_port_check(&port);
	fp_out = mmchal_bus_init_mmio(&bus, FP_PTR(volatile void *), 2);
	fp_out = mmchal_bus_check(&bus);
	fp_out = mmchal_bus_rd16(&bus, FP_U32());
	mmchal_bus_wr16(&bus, FP_U32(), (uint16_t)fp_in);
}

/* The linker's entry: no C library start-up, nothing but the image. */
void fp_entry(void);

void fp_entry(void)
{
	fp_out = fp_main();
	for (;;)
		;
}
