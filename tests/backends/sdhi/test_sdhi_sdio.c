/*
 * The SDHI backend's SDIO card interrupt, register by register (SDIO_MODE,
 * SDIO_INFO1, SDIO_MASK): not reported while off, reported once and
 * acknowledged with 0xfffe (Linux tmio_mmc_sdio_irq), the interrupt off with
 * the report until enable_sdio_irq(true). The reset that keeps it enabled is
 * in test_sdhi_regs.c (test_reset_restores); the whole path over the
 * simulated SDIO card in test_sdhi_host.c (test_sdio_irq_through_host).
 */
#include "sdhi_fx.h"

#define R_SDIOMODE 0x34u

static uint16_t reg16(struct fx *f, uint32_t reg)
{
	return mmchal_bus_rd16(&f->cfg.bus, reg);
}

static const struct fx_opts gen3_mmc = {
	MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, -1, 0, 0, MMCHAL_SIM_CARD_MMC, false, false, 0};

/* SDIO card interrupt (SDIO_INFO1 bit 0) on the eMMC fixture: a bus wrapper sets the
   bit as a card would until it is acknowledged and checks the acknowledging write
   (the simulator's own SDIO card interrupt is driven in test_sdhi_host.c). */
static const struct mmchal_bus_ops *ioirq_inner;
static bool ioirq_pending;
static uint64_t ioirq_acks;
static uint32_t ioirq_shift;

static uint16_t ioirq_rd16(void *ctx, uint32_t off)
{
	uint16_t v = ioirq_inner->read16(ctx, off);

	if (off == (R_SDIOMODE + 2u) << ioirq_shift && ioirq_pending)
		v |= 1u;
	return v;
}

static void ioirq_wr16(void *ctx, uint32_t off, uint16_t val)
{
	if (off == (R_SDIOMODE + 2u) << ioirq_shift && !(val & 1u)) {
		ioirq_pending = false;
		ioirq_acks++;
		assert_int_equal(val, 0xfffe);
	}
	ioirq_inner->write16(ctx, off, val);
}

static void test_sdio_irq(void **state)
{
	struct mmchal_bus_ops ops;
	uint32_t ev;
	struct fx f;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	ioirq_inner = f.cfg.bus.ops;
	ioirq_shift = f.sc.bus_shift;
	ops = *f.cfg.bus.ops;
	ops.read16 = ioirq_rd16;
	ops.write16 = ioirq_wr16;
	f.cfg.bus.ops = &ops;
	assert_int_equal(mmchal_sdhi_idmac_init(&f.sdhi, &f.cfg, &f.be), 0);
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	ioirq_pending = false;
	ioirq_acks = 0;
	/* not enabled: not reported, not acknowledged */
	ioirq_pending = true;
	assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
	assert_false(ev & MMCHAL_EV_SDIO_IRQ);
	assert_int_equal(ioirq_acks, 0);
	/* enabled: reported once and acknowledged, the interrupt off with the report */
	assert_int_equal(f.be.ops->enable_sdio_irq(f.be.ctx, true), 0);
	assert_int_equal(reg16(&f, R_SDIOMODE + 4u), 0xfffe); /* SDIO_MASK: IOIRQ open */
	assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
	assert_true(ev & MMCHAL_EV_SDIO_IRQ);
	assert_int_equal(ioirq_acks, 1);
	assert_int_equal(reg16(&f, R_SDIOMODE), 0);
	assert_int_equal(reg16(&f, R_SDIOMODE + 4u), 0xffff);
	/* the card still holds it: not reported again until enabled again */
	ioirq_pending = true;
	assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
	assert_false(ev & MMCHAL_EV_SDIO_IRQ);
	assert_int_equal(ioirq_acks, 1);
	assert_int_equal(f.be.ops->enable_sdio_irq(f.be.ctx, true), 0);
	assert_int_equal(reg16(&f, R_SDIOMODE), 1);
	assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
	assert_true(ev & MMCHAL_EV_SDIO_IRQ);
	assert_int_equal(ioirq_acks, 2);
	assert_int_equal(f.be.ops->enable_sdio_irq(f.be.ctx, true), 0);
	assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
	assert_false(ev & MMCHAL_EV_SDIO_IRQ);
	assert_int_equal(f.be.ops->enable_sdio_irq(f.be.ctx, false), 0);
	assert_int_equal(reg16(&f, R_SDIOMODE), 0);
	assert_int_equal(reg16(&f, R_SDIOMODE + 4u), 0xffff);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sdio_irq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
