/*
 * The part every footprint image shares: the entry point, the volatile
 * inputs, the port of a polled bare-metal firmware (see docs/porting.md,
 * "Bare metal, polled") and the bring-up every firmware does: host core over
 * one backend, card identification, a block read and, for a firmware that
 * writes, a block write.
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

const struct mmchal_port fp_port = {.ops = &fp_port_ops, .ctx = NULL};

int fp_sdhi_cfg(struct mmchal_sdhi_cfg *cfg, const struct mmchal_sdhi_soc *soc)
{
	uint64_t reg_size = 0x2000;
	int shift;

	*cfg = (struct mmchal_sdhi_cfg){0};
	cfg->soc = soc;
	if (!cfg->soc)
		return MMCHAL_ENOENT;
	shift = mmchal_sdhi_bus_shift(cfg->soc, reg_size);
	if (shift < 0)
		return shift;
	shift = mmchal_bus_init_mmio(&cfg->bus, FP_PTR(volatile void *), (uint8_t)shift);
	if (shift)
		return shift;
	cfg->port = &fp_port;
	cfg->clk_hz = 200000000u;
	cfg->caps.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_SD_HS | MMCHAL_BUS_MMC_HS;
	cfg->caps.completion = MMCHAL_COMPLETES_POLLED;
	return 0;
}

struct mmchal_host fp_host;
static struct mmchal_card fp_card;
static uint8_t fp_regbuf[MMCHAL_CARD_BUF_SIZE] __attribute__((aligned(64)));
static uint8_t fp_block[MMCHAL_CARD_BLKSZ] __attribute__((aligned(64)));

int fp_card_io(struct mmchal_host_cfg *hc, bool write)
{
	struct mmchal_card_cfg cc = {0};
	struct mmchal_sg sg = {0};
	int err;

	hc->port = &fp_port;
	err = mmchal_host_init(&fp_host, hc);
	if (err)
		return err;
	cc.ops = &mmchal_host_core_ops;
	cc.ctx = &fp_host;
	cc.buf = fp_regbuf;
	cc.buf_phys = (mmchal_phys_addr_t)(uintptr_t)fp_regbuf;
	cc.delay_us = fp_delay_us;
	err = mmchal_card_setup(&fp_card, &cc);
	if (!err)
		err = mmchal_card_init(&fp_card);
	if (err)
		return err;
	sg.cpu = fp_block;
	sg.phys = (mmchal_phys_addr_t)(uintptr_t)fp_block;
	sg.len = sizeof(fp_block);
	err = mmchal_card_read(&fp_card, fp_in, 1, &sg, 1);
	if (!err && write)
		err = mmchal_card_write(&fp_card, fp_in, 1, &sg, 1);
	return err;
}

/* The linker's entry: no C library start-up, nothing but the image. */
void fp_entry(void);

void fp_entry(void)
{
	fp_out = fp_main();
	for (;;)
		;
}
