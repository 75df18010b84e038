/*
 * Simulator tests of the internal DMAC's registers and limits (REF "SDHI
 * internal DMAC"; docs/sim.md section 3): absent below IP version 0x10, the
 * address limit at the start of a transfer and with idmac_addr_bits 64, the
 * channel resets while a transfer runs, the masks and the 16-bit access.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

#define DM_ADDR_H 0x888u

static void open_mmc(struct drv *d, const struct mmchal_sim_config *cfg)
{
	struct mmchal_sim_card_config cc;

	assert_int_equal(drv_open(d, cfg), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	cc.write_rate = 0;
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	assert_int_equal(drv_mmc_init(d), 0);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u);    /* 25 MHz */
	mmchal_bus_wr16(&d->bus, R_OPTION, 0x80aeu); /* 1-bit, timeout 2^23 clocks */
	mmchal_bus_wr16(&d->bus, R_EXTMODE, 0x1012u);
}

static void dm_go(struct drv *d, bool read, uint64_t addr)
{
	mmchal_bus_raw_wr32(&d->bus, DM_INFO1, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_INFO2, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_MODE, (read ? 1u << 16 : 0) | 0x31u);
	d->bus.ops->write64(d->bus.ctx, DM_ADDR, addr);
	mmchal_bus_raw_wr32(&d->bus, DM_CTRL, 1);
}

/* VERSION 0xcb0d (IP version 0x0d, below 0x10): no DMAC registers at all. */
static void test_no_dmac_below_ip_0x10(void **state)
{
	struct mmchal_sim_config cfg;
	struct drv d;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN2);
	assert_int_equal(drv_open(&d, &cfg), 0);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_RST), 0);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_MASK1), 0);
	mmchal_bus_raw_wr32(&d.bus, DM_MASK2, 0x1234u);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_MASK2), 0);
	drv_close(&d);
	/* 0xcc10 (IP version 0x10): present. */
	cfg.version = 0xcc10u;
	assert_int_equal(drv_open(&d, &cfg), 0);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_RST), 0xffffffffu);
	drv_close(&d);
}

/*
 * A start address past the 32-bit limit (0x100000000, the first byte above
 * it) fails at the start, before any block; with idmac_addr_bits 64 the same
 * address is driven, through DM_DTRAN_ADDR's upper half at 0x888.
 */
static void test_address_limit_at_start(void **state)
{
	static const uint64_t high = 0x100000000ull;
	struct mmchal_sim_config cfg;
	struct drv d;
	uint8_t *hi, *store;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
	open_mmc(&d, &cfg);
	assert_int_equal(mmchal_sim_mem_add(d.sim, high, 4096, NULL), 0);
	dm_go(&d, true, high);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 17);
	drv_close(&d);

	cfg.idmac_addr_bits = 64;
	open_mmc(&d, &cfg);
	assert_int_equal(mmchal_sim_mem_add(d.sim, high, 4096, NULL), 0);
	hi = mmchal_sim_phys_to_host(d.sim, high, 4096);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[i] = (uint8_t)(i + 3u);
	mmchal_bus_raw_wr32(&d.bus, DM_MASK1, 0);
	mmchal_bus_raw_wr32(&d.bus, DM_MASK2, 0);
	mmchal_bus_raw_wr32(&d.bus, DM_INFO1, 0);
	mmchal_bus_raw_wr32(&d.bus, DM_INFO2, 0);
	mmchal_bus_raw_wr32(&d.bus, DM_MODE, (1u << 16) | 0x31u);
	mmchal_bus_raw_wr32(&d.bus, DM_ADDR, 0);
	mmchal_bus_raw_wr32(&d.bus, DM_ADDR_H, 1);
	assert_true(d.bus.ops->read64(d.bus.ctx, DM_ADDR) == high);
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 1);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 0);
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 1u << 20);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 0);
	assert_memory_equal(hi, store, 512);
	/* A 64-bit write replaces the whole address, upper half included. */
	d.bus.ops->write64(d.bus.ctx, DM_ADDR, 0x40000000u);
	assert_true(d.bus.ops->read64(d.bus.ctx, DM_ADDR) == 0x40000000u);
	drv_close(&d);
}

/*
 * DM_CM_RST while a transfer runs (REF: bit 8 channel 0, bit 9 channel 1,
 * active-low): clearing the other channel's bit leaves it running, clearing
 * its own stops it, so the next block stays in the controller's buffer.
 */
static void test_channel_reset_while_running(void **state)
{
	struct mmchal_sim_counters c;
	uint64_t phys;
	uint8_t *buf;
	struct drv d;

	(void)state;
	open_mmc(&d, NULL);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 1u << 20, NULL), 0);
	buf = mmchal_sim_mem_alloc(d.sim, 0, 4 * 512, 128, &phys);
	memset(mmchal_sim_card_store(d.sim, NULL), 0x9c, 4 * 512);
	drv_setup_data(&d, 512, 4, true);
	dm_go(&d, true, phys);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	/* Channel 0's reset does not touch the read on channel 1. */
	mmchal_bus_raw_wr32(&d.bus, DM_RST, ~(1u << 8));
	mmchal_bus_raw_wr32(&d.bus, DM_RST, 0xffffffffu);
	/* After block 0 (about 170 us at 25 MHz on one line), reset channel 1. */
	mmchal_sim_advance(d.sim, 250000u);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.idmac_bytes == 512);
	mmchal_bus_raw_wr32(&d.bus, DM_RST, ~(1u << 9));
	mmchal_sim_advance(d.sim, 10000000u);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.idmac_bytes == 512);
	assert_false(drv_status(&d) & S_ACCESS_END);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 0);
	assert_int_equal(buf[512], 0);
	drv_close(&d);

	/* A write on channel 0: channel 1's reset leaves it, its own stops it. */
	open_mmc(&d, NULL);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 1u << 20, NULL), 0);
	buf = mmchal_sim_mem_alloc(d.sim, 0, 4 * 512, 128, &phys);
	memset(buf, 0x5e, 4 * 512);
	drv_setup_data(&d, 512, 4, true);
	dm_go(&d, false, phys);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_MULTI | 25, 0), 0);
	mmchal_bus_raw_wr32(&d.bus, DM_RST, ~(1u << 9));
	mmchal_bus_raw_wr32(&d.bus, DM_RST, 0xffffffffu);
	mmchal_sim_advance(d.sim, 250000u);
	mmchal_bus_raw_wr32(&d.bus, DM_RST, ~(1u << 8));
	mmchal_sim_advance(d.sim, 10000000u);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.idmac_bytes == 2 * 512); /* block 0 sent, block 1 taken before the reset */
	assert_false(drv_status(&d) & S_ACCESS_END);
	drv_close(&d);
}

/*
 * DM_CM_INFO1_MASK gates the line: a transfer end with its bit masked leaves
 * the line low, unmasked it raises it. A 16-bit access writes the low half
 * only (docs/sim.md section 3 for the SDHI; the DMAC registers are 32-bit).
 */
static void test_masks_and_16bit_access(void **state)
{
	uint64_t phys;
	struct drv d;

	(void)state;
	open_mmc(&d, NULL);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 1u << 20, NULL), 0);
	(void)mmchal_sim_mem_alloc(d.sim, 0, 512, 128, &phys);
	d.bus.ops->write16(d.bus.ctx, DM_MASK1, 0x1234u);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_MASK1), 0x1234u);
	mmchal_bus_raw_wr32(&d.bus, DM_MASK1, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_MASK1, 0xffffffffu); /* SDHI interrupts all masked */
	drv_setup_data(&d, 512, 1, false);
	dm_go(&d, true, phys);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 1u << 20);
	assert_false(mmchal_sim_irq_line(d.sim));
	mmchal_bus_raw_wr32(&d.bus, DM_MASK1, ~(1u << 20));
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_MASK1), ~(1u << 20));
	assert_true(mmchal_sim_irq_line(d.sim));
	mmchal_bus_raw_wr32(&d.bus, DM_INFO1, ~(1u << 20));
	assert_false(mmchal_sim_irq_line(d.sim));
	drv_close(&d);
}

/* An SDIO card in transfer state with function 1's buffer filled; 32-bit PIO port. */
static void open_sdio(struct drv *d, const struct mmchal_sim_config *cfg)
{
	struct mmchal_sim_card_config cc;
	uint8_t *store;

	assert_int_equal(drv_open(d, cfg), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SDIO, &cc);
	cc.read_latency_ns = 0;
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	drv_cmd(d, C_R3 | 5, 0x00ff8000u);
	mmchal_sim_advance(d->sim, 1000000u);
	assert_int_equal(drv_cmd(d, C_R3 | 5, 0x00ff8000u), 0);
	assert_int_equal(drv_cmd(d, C_R1 | 3, 0), 0);
	assert_int_equal(drv_cmd(d, C_R1B | 7, 1u << 16), 0);
	store = mmchal_sim_card_store(d->sim, NULL);
	for (unsigned i = 0; i < 4096; i++)
		store[i] = (uint8_t)(i * 7u + 5u);
	mmchal_bus_wr16(&d->bus, R_EXTMODE, 0x1012u);
}

/* CMD53 byte-mode read of @n bytes from address 0 of function 1, by the DMAC in @mode. */
static uint32_t sdio_dm_read(struct drv *d, uint32_t n, uint32_t mode, uint64_t addr)
{
	mmchal_bus_raw_wr32(&d->bus, DM_INFO1, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_INFO2, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_MODE, (1u << 16) | mode);
	d->bus.ops->write64(d->bus.ctx, DM_ADDR, addr);
	mmchal_bus_raw_wr32(&d->bus, DM_CTRL, 1);
	drv_setup_data(d, n, 1, false);
	assert_int_equal(drv_cmd(d, C_R1 | C_DATA | C_READ | 53, (1u << 28) | (1u << 26) | n), 0);
	return drv_wait(d, S_ACCESS_END, 100000000u);
}

/*
 * Blocks that are not a multiple of the 8-byte beat: in fixed-address mode
 * the last, short beat writes only its own byte; a block ending exactly at
 * the 32-bit limit moves, one ending one byte past it fails and leaves the
 * byte above the limit untouched.
 */
static void test_short_beats_and_limit_byte(void **state)
{
	static const uint64_t low = 0xfffff000ull, high = 0x100000000ull;
	uint8_t *lo, *hi, *store;
	struct drv d;
	uint32_t st;

	(void)state;
	open_sdio(&d, NULL);
	assert_int_equal(mmchal_sim_mem_add(d.sim, low, 4096, NULL), 0);
	assert_int_equal(mmchal_sim_mem_add(d.sim, high, 4096, NULL), 1);
	lo = mmchal_sim_phys_to_host(d.sim, low, 4096);
	hi = mmchal_sim_phys_to_host(d.sim, high, 4096);
	store = mmchal_sim_card_store(d.sim, NULL);
	/* Fixed address, 129 bytes: 16 full beats, then 1 byte. */
	memset(lo, 0xee, 4096);
	st = sdio_dm_read(&d, 129, 0x30u, low);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	assert_int_equal(lo[0], store[128]);
	assert_memory_equal(lo + 1, store + 121, 7);
	assert_int_equal(lo[8], 0xee);
	/* 128 bytes ending at 0xffffffff: moved. */
	memset(lo, 0xee, 4096);
	st = sdio_dm_read(&d, 128, 0x31u, low + 0xf80u);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 0);
	assert_memory_equal(lo + 0xf80u, store, 128);
	/* 129 bytes: the last one would be at 0x100000000. */
	memset(lo, 0xee, 4096);
	memset(hi, 0xee, 4096);
	(void)sdio_dm_read(&d, 129, 0x31u, low + 0xf80u);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 17);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_false(drv_status(&d) & S_ACCESS_END); /* the block was not taken */
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 0);
	assert_int_equal(hi[0], 0xee);
	assert_int_equal(lo[0xf80], 0xee);
	drv_close(&d);
}

/*
 * An injected DMA error (docs/sim.md section 9): the channel's INFO2 bit, the
 * block stays where it was, and no access end comes, not even when the DMA
 * requests are switched on again: the channel stopped.
 */
static void test_dma_error_has_no_access_end(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 17, 0, 0};
	uint64_t phys;
	uint8_t *buf;
	struct drv d;

	(void)state;
	open_mmc(&d, NULL);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 1u << 20, NULL), 0);
	buf = mmchal_sim_mem_alloc(d.sim, 0, 512, 128, &phys);
	memset(buf, 0xee, 512);
	memset(mmchal_sim_card_store(d.sim, NULL), 0x12, 512);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	drv_setup_data(&d, 512, 1, false);
	dm_go(&d, true, phys);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	mmchal_sim_advance(d.sim, 100000000u);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 17);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 0);
	assert_false(drv_status(&d) & S_ACCESS_END);
	assert_int_equal(buf[0], 0xee);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DMA_ERROR), 1);
	/* the error stopped the channel: DMA requests switched on again move nothing */
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 0x1012u);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_false(drv_status(&d) & S_ACCESS_END);
	assert_int_equal(buf[0], 0xee);
	drv_close(&d);
}

/*
 * A write command that got no response (a response timeout) has no data
 * phase (docs/sim.md correction 4): the DMAC takes nothing, even when it is
 * started again afterwards and DMA requests are switched on anew.
 */
static void test_no_dma_after_response_timeout(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_CMD_TIMEOUT, MMCHAL_SIM_AT_CMD, 24, 0, 0};
	struct mmchal_sim_counters c;
	uint64_t phys;
	struct drv d;

	(void)state;
	open_mmc(&d, NULL);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 1u << 20, NULL), 0);
	memset(mmchal_sim_mem_alloc(d.sim, 0, 512, 128, &phys), 0x3a, 512);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	drv_setup_data(&d, 512, 1, false);
	dm_go(&d, false, phys);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | 24, 0), MMCHAL_ETIMEDOUT);
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 1);
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 0x1012u);
	mmchal_sim_advance(d.sim, 10000000u);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.idmac_bytes == 0);
	assert_false(drv_status(&d) & S_ACCESS_END);
	assert_int_equal(mmchal_sim_card_store(d.sim, NULL)[0], 0);
	drv_close(&d);
}

/*
 * CC_EXT_MODE bit 1 gates the DMA requests (REF): with it clear the block
 * goes to the data port (buffer ready) although the DMAC is started. An
 * injected DMA error hits once: after a restart the same block moves.
 */
static void test_dma_requests_gate_and_one_shot_error(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 17, 0, 0};
	struct mmchal_sim_counters c;
	uint8_t *buf, *store;
	uint64_t phys;
	struct drv d;

	(void)state;
	open_mmc(&d, NULL);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 1u << 20, NULL), 0);
	buf = mmchal_sim_mem_alloc(d.sim, 0, 512, 128, &phys);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[i] = (uint8_t)(i * 9u + 4u);
	memset(buf, 0xee, 512);
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 0x1010u); /* DMA requests off */
	drv_setup_data(&d, 512, 1, false);
	dm_go(&d, true, phys);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	assert_true(drv_wait(&d, S_BRE, 100000000u) & S_BRE);
	/* Restarting the DMAC and rewriting CC_EXT_MODE (still off) move nothing either. */
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 1);
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 0x1010u);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.idmac_bytes == 0);
	assert_int_equal(buf[0], 0xee);
	drv_ack(&d, S_BRE);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	for (unsigned i = 0; i < 512; i += 4) {
		uint32_t v = d.bus.ops->read32(d.bus.ctx, R_BUF << 2);

		assert_memory_equal(&v, store + i, 4);
	}
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	drv_close(&d);

	open_mmc(&d, NULL);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 1u << 20, NULL), 0);
	buf = mmchal_sim_mem_alloc(d.sim, 0, 512, 128, &phys);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[i] = (uint8_t)(i * 9u + 4u);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	drv_setup_data(&d, 512, 1, false);
	dm_go(&d, true, phys);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 17);
	mmchal_bus_raw_wr32(&d.bus, DM_INFO2, 0);
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 1); /* restart: the waiting block moves */
	assert_true(drv_wait(&d, S_ACCESS_END, 100000000u) & S_ACCESS_END);
	assert_memory_equal(buf, store, 512);
	assert_int_equal(mmchal_sim_faults_fired(d.sim, MMCHAL_SIM_FAULT_DMA_ERROR), 1);
	drv_close(&d);
}

/*
 * Register read-back: DM_CM_DTRAN_MODE holds what was written, DM_CM_DTRAN_CTRL
 * reads 0, a 32-bit write of DM_DTRAN_ADDR keeps the upper half written at
 * 0x888. A DTRAN_CTRL write without bit 0 starts nothing (with a mode whose
 * bus width is not 64 bits, a start would fail at once with the channel's
 * error). A start address at the very limit is taken: only the blocks that
 * would pass it fail.
 */
static void test_register_readback(void **state)
{
	struct mmchal_sim_config cfg;
	struct drv d;

	(void)state;
	open_mmc(&d, NULL);
	mmchal_bus_raw_wr32(&d.bus, DM_MODE, 0x10031u);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_MODE), 0x10031u);
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 1);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_CTRL), 0);
	d.bus.ops->write64(d.bus.ctx, DM_ADDR, 0x3ffffffffull);
	mmchal_bus_raw_wr32(&d.bus, DM_ADDR_H, 0x5u);
	mmchal_bus_raw_wr32(&d.bus, DM_ADDR, 0x40000080u); /* replaces all of the low half */
	assert_true(d.bus.ops->read64(d.bus.ctx, DM_ADDR) == 0x540000080ull);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_ADDR_H), 0x5u);
	/* bits 5:4 = 1: a start would be a DMA error; bit 1 alone is no start */
	mmchal_bus_raw_wr32(&d.bus, DM_INFO2, 0);
	mmchal_bus_raw_wr32(&d.bus, DM_MODE, 0x10011u);
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 2);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 0);
	mmchal_bus_raw_wr32(&d.bus, DM_CTRL, 3);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 17);
	drv_close(&d);

	/* byte alignment, 32 address bits: a start at 0xffffffff is no error yet */
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
	cfg.idmac_align = 1;
	open_mmc(&d, &cfg);
	mmchal_bus_raw_wr32(&d.bus, DM_INFO2, 0);
	dm_go(&d, true, 0xffffffffull);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 0);
	dm_go(&d, true, 0x100000000ull);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 17);
	drv_close(&d);
}

/*
 * Fixed-address mode to an address no memory answers: the channel's error,
 * no access end, nothing counted; then, in the same mode to memory, the
 * block is counted once. A finished transfer leaves the channel stopped: the
 * next read's block stays in the buffer, and no access end comes.
 */
static void test_fixed_address_fault_and_end(void **state)
{
	struct mmchal_sim_counters c;
	uint8_t *lo, *store;
	struct drv d;
	uint32_t st;

	(void)state;
	open_sdio(&d, NULL);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 4096, NULL), 0);
	lo = mmchal_sim_phys_to_host(d.sim, 0x40000000u, 4096);
	store = mmchal_sim_card_store(d.sim, NULL);
	(void)sdio_dm_read(&d, 64, 0x30u, 0x50000000u); /* fixed address, no memory */
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 17);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_false(drv_status(&d) & S_ACCESS_END);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 0);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.idmac_bytes == 0);
	drv_close(&d);

	open_sdio(&d, NULL);
	assert_int_equal(mmchal_sim_mem_add(d.sim, 0x40000000u, 4096, NULL), 0);
	lo = mmchal_sim_phys_to_host(d.sim, 0x40000000u, 4096);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(lo, 0xee, 4096);
	st = sdio_dm_read(&d, 64, 0x30u, 0x40000000u);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 1u << 20);
	assert_memory_equal(lo, store + 56, 8); /* every beat to the same 8 bytes */
	assert_int_equal(lo[8], 0xee);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.idmac_bytes == 64);
	/* the next read without a new start: the block stays for the data port */
	drv_ack(&d, S_ACCESS_END | S_RSP_END);
	mmchal_bus_raw_wr32(&d.bus, DM_INFO1, 0);
	drv_setup_data(&d, 64, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 53, (1u << 28) | (1u << 26) | 64u),
			 0);
	mmchal_sim_advance(d.sim, 10000000u);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.idmac_bytes == 64);
	assert_false(drv_status(&d) & S_ACCESS_END);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 0);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_dmac_below_ip_0x10),
		cmocka_unit_test(test_address_limit_at_start),
		cmocka_unit_test(test_channel_reset_while_running),
		cmocka_unit_test(test_masks_and_16bit_access),
		cmocka_unit_test(test_short_beats_and_limit_byte),
		cmocka_unit_test(test_dma_error_has_no_access_end),
		cmocka_unit_test(test_no_dma_after_response_timeout),
		cmocka_unit_test(test_dma_requests_gate_and_one_shot_error),
		cmocka_unit_test(test_register_readback),
		cmocka_unit_test(test_fixed_address_fault_and_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
