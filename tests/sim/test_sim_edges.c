/*
 * Simulator tests for edges that nothing else pinned down: the internal
 * DMAC's address limit, the eMMC capacity boundary and EXT_CSD byte order,
 * and the reset value of every register.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

static void emmc(struct drv *d, uint64_t capacity)
{
	struct mmchal_sim_card_config cc;

	assert_int_equal(drv_open(d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	cc.write_rate = 0;
	if (capacity)
		cc.capacity = capacity;
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	assert_int_equal(drv_mmc_init(d), 0);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u);      /* 25 MHz */
	mmchal_bus_wr16(&d->bus, R_HOSTMODE, 0x0101u); /* 32-bit port */
	mmchal_bus_wr16(&d->bus, R_OPTION, 0x80aeu);   /* 1-bit, timeout 2^23 clocks */
}

static void dm_go(struct drv *d, bool read, uint64_t addr)
{
	mmchal_bus_wr16(&d->bus, R_EXTMODE, 0x1012u);
	mmchal_bus_raw_wr32(&d->bus, DM_MASK1, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_MASK2, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_INFO1, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_INFO2, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_MODE, (read ? 1u << 16 : 0) | 0x31u);
	d->bus.ops->write64(d->bus.ctx, DM_ADDR, addr);
	mmchal_bus_raw_wr32(&d->bus, DM_CTRL, 1);
}

/*
 * The internal DMAC never moves past its address limit: a transfer that starts
 * below 4 GiB and would cross it stops with a DMA error at the block that
 * crosses, and memory above the limit (present here) stays untouched.
 */
static void test_idmac_stops_at_address_limit(void **state)
{
	static const uint64_t low = 0xfffff000ull, high = 0x100000000ull;
	struct drv d;
	uint8_t *lo, *hi, *store;

	(void)state;
	emmc(&d, 0);
	assert_int_equal(mmchal_sim_mem_add(d.sim, low, 4096, NULL), 0);
	assert_int_equal(mmchal_sim_mem_add(d.sim, high, 4096, NULL), 1);
	lo = mmchal_sim_phys_to_host(d.sim, low, 4096);
	hi = mmchal_sim_phys_to_host(d.sim, high, 4096);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 2048; i++)
		store[i] = (uint8_t)(i * 3u + 7u);
	memset(lo, 0xee, 4096);
	memset(hi, 0xee, 4096);
	/* Read 2 blocks to 0xfffffe00: block 0 ends at the limit, block 1 would cross it. */
	drv_setup_data(&d, 512, 2, true);
	dm_go(&d, true, low + 0xe00u);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	mmchal_sim_run(d.sim, mmchal_sim_now(d.sim) + 10000000u);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 17);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 0);
	assert_memory_equal(lo + 0xe00u, store, 512);
	for (unsigned i = 0; i < 4096; i++)
		assert_int_equal(hi[i], 0xee);
	drv_close(&d);

	/* Write: block 1 would be read from above the limit; the card never gets it. */
	emmc(&d, 0);
	assert_int_equal(mmchal_sim_mem_add(d.sim, low, 4096, NULL), 0);
	assert_int_equal(mmchal_sim_mem_add(d.sim, high, 4096, NULL), 1);
	lo = mmchal_sim_phys_to_host(d.sim, low, 4096);
	hi = mmchal_sim_phys_to_host(d.sim, high, 4096);
	store = mmchal_sim_card_store(d.sim, NULL);
	memset(lo, 0x11, 4096);
	memset(hi, 0x22, 4096);
	drv_setup_data(&d, 512, 2, true);
	dm_go(&d, false, low + 0xe00u);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_MULTI | 25, 0), 0);
	mmchal_sim_run(d.sim, mmchal_sim_now(d.sim) + 10000000u);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 1u << 16);
	for (unsigned i = 0; i < 1024; i++)
		assert_int_equal(store[i], i < 512 ? 0x11 : 0x00);
	drv_close(&d);
}

/* Read one block at @lba by PIO; returns 0 or the error status bits. */
static uint32_t rd_block(struct drv *d, uint32_t lba, uint8_t *buf)
{
	return drv_pio_read(d, C_R1 | 17, lba, 512, 1, buf);
}

/*
 * eMMC capacity boundary: SEC_COUNT is little-endian in EXT_CSD[212..215]; the
 * last sector reads and writes, the first one past it is refused with
 * OUT_OF_RANGE and no data; a multi-block read running off the end stops there.
 */
static void test_emmc_capacity_boundary(void **state)
{
	static const uint32_t sectors = 0x20c00u; /* 131 x 512 KiB: three distinct bytes */
	struct drv d;
	uint8_t ext[512], blk[512], *store;
	uint32_t st;

	(void)state;
	emmc(&d, (uint64_t)sectors * 512u);
	assert_int_equal(drv_pio_read(&d, C_R1 | 8, 0, 512, 1, ext), 0);
	assert_int_equal(ext[212], 0x00);
	assert_int_equal(ext[213], 0x0c);
	assert_int_equal(ext[214], 0x02);
	assert_int_equal(ext[215], 0x00);
	assert_int_equal(ext[196], 0x57); /* CARD_TYPE */
	assert_int_equal(ext[192], 8);    /* EXT_CSD_REV */
	assert_int_equal(ext[194], 2);    /* CSD_STRUCTURE */
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[(uint64_t)(sectors - 1u) * 512u + i] = (uint8_t)(i + 9u);
	/* The last sector reads. */
	assert_int_equal(rd_block(&d, sectors - 1u, blk), 0);
	assert_memory_equal(blk, store + (uint64_t)(sectors - 1u) * 512u, 512);
	/* One past: R1 with OUT_OF_RANGE, the card stays in tran, no block comes. */
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, sectors), 0);
	assert_int_equal(d.rsp[0] & (1u << 31), 1u << 31);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	st = drv_wait(&d, S_BRE, 1000000000ull);
	assert_int_equal(st & (S_BRE | S_DATA_TO), S_DATA_TO);
	/* Writes: the last sector is written, the next one is refused. */
	memset(blk, 0x3c, sizeof(blk));
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(drv_pio_write(&d, C_R1 | 24, sectors - 1u, 512, 1, blk), 0);
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(store[(uint64_t)sectors * 512u - 1u], 0x3c);
	drv_ack(&d, 0xffffffffu);
	drv_setup_data(&d, 512, 1, false);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | 24, sectors), 0);
	assert_int_equal(d.rsp[0] & (1u << 31), 1u << 31);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	/* CMD18 of two blocks from the last sector: block 0 comes, then the card stops. */
	drv_ack(&d, 0xffffffffu);
	drv_setup_data(&d, 512, 2, false);
	mmchal_bus_wr16(&d.bus, R_STOP, 0x0100u);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | C_NOA12 | 18, sectors - 1u),
			 0);
	assert_int_equal(d.rsp[0] & (1u << 31), 0);
	st = drv_wait(&d, S_BRE, 1000000000ull);
	assert_true(st & S_BRE);
	drv_ack(&d, S_BRE);
	for (unsigned i = 0; i < 512; i += 4)
		(void)d.bus.ops->read32(d.bus.ctx, R_BUF << 2);
	st = drv_wait(&d, S_BRE, 1000000000ull);
	assert_int_equal(st & (S_BRE | S_DATA_TO), S_DATA_TO);
	/* CMD12 reports the OUT_OF_RANGE of the block past the end. */
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(drv_cmd(&d, C_R1B | 12, 0), 0);
	assert_int_equal(d.rsp[0] & (1u << 31), 1u << 31);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	drv_close(&d);
}

struct regval {
	uint32_t reg;
	uint16_t val;
};

/* Reset values of every SDHI register (docs/sim.md section 3). */
static const struct regval sdhi_reset[] = {
	{R_CMD, 0},           {R_ARG, 0},          {R_ARG + 2u, 0},    {R_STOP, 0},
	{R_SECCNT, 0},        {R_MASK1, 0x031du},  {R_MASK2, 0x837fu}, {R_CLK, 0x0080u},
	{R_SIZE, 0x0200u},    {R_OPTION, 0x40eeu}, {R_ERR1, 0x2000u},  {R_ERR2, 0},
	{0x34u, 0},           {0x36u, 0},          {0x38u, 0xc007u},   {R_EXTMODE, 0},
	{R_SOFTRST, 0x0001u}, {R_HOSTMODE, 0},     {R_IFMODE, 0},
};

static void check_sdhi_reset(struct drv *d)
{
	for (unsigned i = 0; i < sizeof(sdhi_reset) / sizeof(sdhi_reset[0]); i++)
		assert_int_equal(mmchal_bus_rd16(&d->bus, sdhi_reset[i].reg), sdhi_reset[i].val);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(mmchal_bus_rd16(&d->bus, R_RSP + 2u * i), 0);
}

/*
 * Reset values: after creation and after a soft reset that follows writes of
 * other values to every register; the status with an empty slot (DAT0 high,
 * bit 27, bus idle); the internal DMAC's registers after creation.
 */
static void test_reset_values(void **state)
{
	struct mmchal_sim *sim;
	struct drv d;

	(void)state;
	assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
	d.sim = sim;
	mmchal_sim_bus(sim, &d.bus);
	check_sdhi_reset(&d);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_VERSION), 0xcd10u);
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_INFO1), (1u << 23) | (1u << 27) | (1u << 29));
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_MODE), 0);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_RST), 0xffffffffu);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO1), 0);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_MASK1), 0xffffffffu);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_INFO2), 0);
	assert_int_equal(mmchal_bus_raw_rd32(&d.bus, DM_MASK2), 0xffffffffu);
	assert_true(d.bus.ops->read64(d.bus.ctx, DM_ADDR) == 0);
	assert_false(mmchal_sim_irq_line(sim));
	/* Write something else everywhere (the clock stays off: no command goes out). */
	mmchal_bus_wr32(&d.bus, R_ARG, 0xdeadbeefu);
	mmchal_bus_wr16(&d.bus, R_STOP, 0x0100u);
	mmchal_bus_wr16(&d.bus, R_SECCNT, 7);
	mmchal_bus_wr32(&d.bus, R_MASK1, 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x00ffu);
	mmchal_bus_wr16(&d.bus, R_SIZE, 64);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x80a0u);
	mmchal_bus_wr16(&d.bus, 0x34u, 1);
	mmchal_bus_wr16(&d.bus, 0x38u, 0);
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 2);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	mmchal_bus_wr16(&d.bus, R_IFMODE, 1);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SIZE), 64);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_OPTION), 0xc0a0u); /* bit 14 reads 1 */
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	check_sdhi_reset(&d);
	mmchal_sim_destroy(sim);

	/* Gen2: VERSION 0xcb0d and the same SDHI reset values. */
	{
		struct mmchal_sim_config cfg;

		mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN2);
		assert_int_equal(mmchal_sim_create(&cfg, &sim), 0);
		d.sim = sim;
		mmchal_sim_bus(sim, &d.bus);
		check_sdhi_reset(&d);
		assert_int_equal(mmchal_bus_rd16(&d.bus, R_VERSION), 0xcb0du);
		mmchal_sim_destroy(sim);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idmac_stops_at_address_limit),
		cmocka_unit_test(test_emmc_capacity_boundary),
		cmocka_unit_test(test_reset_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
