/*
 * The eMMC boot reader (sdhi_boot.h) over the register-level simulator: the
 * bus it sets up as the card sees it, the exact bytes it reads, the errors it
 * reports and recovers from, and its answer to every bad argument.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/sdhi_boot.h>
#include <mmchal/sdhi_socs.h>
#include <mmchal_sim/card.h>
#include <mmchal_sim/fault.h>
#include <mmchal_sim/mem.h>
#include <mmchal_sim/sim.h>

/* Registers and bits, from REFERENCE.md (not from the library's own header). */
#define R_CMD         0x00u
#define R_STOP        0x08u
#define R_SECCNT      0x0au
#define R_INFO1       0x1cu
#define R_CLK_CTRL    0x24u
#define R_SIZE        0x26u
#define R_OPTION      0x28u
#define R_CC_EXT_MODE 0xd8u
#define R_SOFT_RST    0xe0u
#define R_HOST_MODE   0xe4u
#define DM_MODE       0x820u /* DM_CM_DTRAN_MODE */
#define DM_ADDR       0x880u /* DM_DTRAN_ADDR */

#define CMD_R1    0x0400u
#define CMD_DATA  0x0800u
#define CMD_READ  0x1000u
#define CMD_MULTI 0x2000u
#define STOP_SEC  0x0100u
#define CLK_EN    0x0100u
#define CLK_DIV1  0x00ffu
#define OPT_W8    (1u << 13)
#define OPT_W1    (1u << 15)
#define EXT_DMA   (1u << 1)
#define HM_64     0x0000u
#define HM_32     0x0101u
#define ST_ERRORS 0x007f0000u /* INFO2 bits 6:0 as bits 22:16: CMD, CRC, END, timeouts, ... */
#define VER_0CB0D 0xcb0du
#define DM_READ   (1u << 16)
#define DM_BUS64  (3u << 4)
#define DM_INCR   (1u << 0)

#define RAM_BASE 0x40000000ull
#define RAM_SIZE (8u << 20)
#define CLK      200000000u
#define BUF_MAX  (64u * 512u)
#define GUARD    256u
#define CAP      (8u << 20) /* the card: 8 MiB, 16384 sectors */
#define SECTORS  (CAP / 512u)

struct bx {
	struct mmchal_sim *sim;
	struct mmchal_sim_config sc;
	struct mmchal_sim_card_config card;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_sdhi_soc soc;
	struct mmchal_port port;
	struct mmchal_port_ops ops; /* the simulator's, plus counting cache ops */
	struct mmchal_emmc_boot eb;
	uint8_t *scratch;
	mmchal_phys_addr_t scratch_phys;
	uint8_t *buf; /* GUARD bytes, BUF_MAX bytes, GUARD bytes */
	mmchal_phys_addr_t buf_phys;
	uint8_t *store;
	uint64_t store_size;
};

/* Cache maintenance as the reader asks for it. */
static unsigned int inval_calls;
static void *inval_addr;
static size_t inval_len;

static void count_clean(void *ctx, const void *addr, size_t len)
{
	(void)ctx;
	(void)addr;
	(void)len;
	fail_msg("the boot reader never writes: no clean");
}

static void count_inval(void *ctx, void *addr, size_t len)
{
	(void)ctx;
	inval_calls++;
	inval_addr = addr;
	inval_len = len;
}

/* Simulator and card; the configuration as a board file fills it in. */
static void bx_sim(struct bx *b, enum mmchal_sim_card_kind kind)
{
	memset(b, 0, sizeof(*b));
	assert_int_equal(mmchal_sim_config_defaults(&b->sc, MMCHAL_SIM_SOC_GEN3), 0);
	if (kind != MMCHAL_SIM_CARD_NONE)
		assert_int_equal(mmchal_sim_card_defaults(kind, &b->card), 0);
	b->card.kind = kind;
	b->card.capacity = CAP;
	b->soc = (struct mmchal_sdhi_soc)MMCHAL_SDHI_SOC_RCAR_GEN3;
	b->cfg.soc = &b->soc;
	b->cfg.clk_hz = CLK;
	b->cfg.caps.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS;
}

/* Create what bx_sim() described; every byte of the card a pattern of its offset. */
static void bx_start(struct bx *b)
{
	int ram;

	assert_int_equal(mmchal_sim_create(&b->sc, &b->sim), 0);
	ram = mmchal_sim_mem_add(b->sim, RAM_BASE, RAM_SIZE, NULL);
	assert_true(ram >= 0);
	if (b->card.kind != MMCHAL_SIM_CARD_NONE) {
		assert_int_equal(mmchal_sim_card_insert(b->sim, &b->card), 0);
		b->store = mmchal_sim_card_store(b->sim, &b->store_size);
		assert_non_null(b->store);
		for (uint64_t i = 0; i < b->store_size; i++)
			b->store[i] = (uint8_t)((i * 7u) ^ (i >> 9));
	}
	assert_int_equal(mmchal_sim_bus(b->sim, &b->cfg.bus), 0);
	assert_int_equal(mmchal_sim_port(b->sim, &b->port), 0);
	b->ops = *b->port.ops;
	b->ops.cache_clean = count_clean;
	b->ops.cache_invalidate = count_inval;
	b->port.ops = &b->ops;
	b->cfg.port = &b->port;
	b->scratch = mmchal_sim_mem_alloc(b->sim, ram, MMCHAL_EMMC_BOOT_SCRATCH, 4096,
					  &b->scratch_phys);
	b->buf = mmchal_sim_mem_alloc(b->sim, ram, BUF_MAX + 2u * GUARD, 4096, &b->buf_phys);
	assert_non_null(b->scratch);
	assert_non_null(b->buf);
	memset(b->buf, 0xa5, BUF_MAX + 2u * GUARD);
	inval_calls = 0;
}

static int bx_init(struct bx *b)
{
	return mmchal_emmc_boot_init(&b->eb, &b->cfg, b->scratch, b->scratch_phys);
}

static void bx_open(struct bx *b, enum mmchal_sim_card_kind kind)
{
	bx_sim(b, kind);
	bx_start(b);
	assert_int_equal(bx_init(b), 0);
}

static void bx_close(struct bx *b)
{
	mmchal_sim_destroy(b->sim);
}

/* Read into the guarded buffer, freshly filled with 0xa5. */
/* Read into the guarded buffer, freshly filled with 0xa5. */
static int bx_read(struct bx *b, uint64_t lba, uint32_t n)
{
	memset(b->buf, 0xa5, BUF_MAX + 2u * GUARD);
	memset(b->buf, 0xa5, BUF_MAX + 2u * GUARD);
	return mmchal_emmc_boot_read(&b->eb, lba, n, b->buf + GUARD, b->buf_phys + GUARD);
}

/* The buffer holds exactly sectors lba..lba+n-1, the guards are untouched. */
static void bx_expect(const struct bx *b, uint64_t lba, uint32_t n)
{
	for (uint32_t i = 0; i < GUARD; i++) {
		assert_int_equal(b->buf[i], 0xa5);
		assert_int_equal(b->buf[GUARD + n * 512u + i], 0xa5);
	}
	assert_memory_equal(b->buf + GUARD, b->store + lba * 512u, n * 512u);
}

static uint16_t reg16(const struct bx *b, uint32_t reg)
{
	return b->cfg.bus.ops->read16(b->cfg.bus.ctx, reg << 2);
}

static uint32_t card_width(const struct bx *b, enum mmchal_timing *t)
{
	uint32_t w = 0;

	assert_int_equal(mmchal_sim_card_bus(b->sim, &w, t), 0);
	return w;
}

static void add_fault(struct bx *b, enum mmchal_sim_fault_kind kind,
		      enum mmchal_sim_fault_trigger trig, uint8_t op, uint32_t count)
{
	struct mmchal_sim_fault f = {.kind = kind, .trigger = trig, .opcode = op, .count = count};

	assert_int_equal(mmchal_sim_fault_add(b->sim, &f), 0);
}

/* ------------------------------------------------------------------------ bring-up */

static void test_init_8bit_high_speed(void **state)
{
	struct bx b;
	enum mmchal_timing t;

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), SECTORS);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 8);
	assert_int_equal(card_width(&b, &t), 8);
	assert_int_equal(t, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(mmchal_sim_card_ext_csd(b.sim, 183), 2);
	assert_int_equal(mmchal_sim_card_ext_csd(b.sim, 185), 1);
	assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
	/* 52 MHz at most from 200 MHz: 1/4, code 1, clock on; 8-bit bus; 64-bit port;
	   DMA mode; 512-byte blocks */
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x01u);
	assert_int_equal(reg16(&b, R_OPTION) & (OPT_W1 | OPT_W8), OPT_W8);
	assert_int_equal(reg16(&b, R_HOST_MODE), HM_64);
	assert_int_equal(reg16(&b, R_CC_EXT_MODE) & EXT_DMA, EXT_DMA);
	assert_int_equal(reg16(&b, R_SIZE), 512);
	/* The EXT_CSD went through the scratch buffer, with the cache invalidated. */
	assert_int_equal(b.scratch[212] | (b.scratch[213] << 8) | (b.scratch[214] << 16) |
				 ((uint32_t)b.scratch[215] << 24),
			 SECTORS);
	assert_int_equal(b.scratch[183], 2);
	assert_ptr_equal(inval_addr, b.scratch);
	assert_int_equal(inval_len, 512);
	bx_close(&b);
}

static void test_init_widths_by_board(void **state)
{
	static const struct {
		uint32_t bus;
		uint32_t width;
		uint16_t opt;
	} cases[] = {
		{MMCHAL_BUS_4_BIT, 4, 0},
		{0, 1, OPT_W1},
		{MMCHAL_BUS_8_BIT, 8, OPT_W8},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bx b;

		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		b.cfg.caps.bus = cases[i].bus | MMCHAL_BUS_MMC_HS;
		bx_start(&b);
		assert_int_equal(bx_init(&b), 0);
		assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), cases[i].width);
		assert_int_equal(card_width(&b, NULL), cases[i].width);
		assert_int_equal(reg16(&b, R_OPTION) & (OPT_W1 | OPT_W8), cases[i].opt);
		assert_int_equal(bx_read(&b, 100, 3), 0);
		bx_expect(&b, 100, 3);
		bx_close(&b);
	}
}

static void test_init_card_refuses_8bit(void **state)
{
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.mmc_no_8bit = true;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 4);
	assert_int_equal(card_width(&b, NULL), 4);
	assert_int_equal(bx_read(&b, 7, 2), 0);
	bx_expect(&b, 7, 2);
	bx_close(&b);
}

static void test_init_width_check_fails_falls_back(void **state)
{
	struct bx b;

	(void)state;
	/* The EXT_CSD read at 8 bits (the 2nd CMD8) fails: back to 1 bit (3rd), then 4
	   bits (4th) works. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_CMD, 8, 1);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 4);
	assert_int_equal(card_width(&b, NULL), 4);
	assert_int_equal(mmchal_sim_card_ext_csd(b.sim, 183), 1);
	assert_int_equal(bx_read(&b, 1000, 5), 0);
	bx_expect(&b, 1000, 5);
	bx_close(&b);

	/* Every width check fails on a 4-bit board: 1 bit, proved. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.caps.bus = MMCHAL_BUS_4_BIT;
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_CMD, 8, 1);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 1);
	assert_int_equal(card_width(&b, NULL), 1);
	assert_int_equal(bx_read(&b, 3, 1), 0);
	bx_expect(&b, 3, 1);
	bx_close(&b);

	/* Not even the 1-bit check works again: not supported. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.caps.bus = MMCHAL_BUS_4_BIT;
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_CMD, 8, 1);
	add_fault(&b, MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_CMD, 8, 2);
	assert_int_equal(bx_init(&b), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 0);
	assert_int_equal(bx_read(&b, 3, 1), MMCHAL_EINVAL);
	bx_close(&b);
}

static void test_init_timing_and_clock(void **state)
{
	static const struct {
		uint32_t bus;   /* added to 8-bit */
		uint8_t type;   /* CARD_TYPE */
		uint32_t f_max; /* board limit */
		uint16_t clk;   /* SD_CLK_CTRL */
		enum mmchal_timing timing;
	} cases[] = {
		/* no high speed on the board: 25 MHz (1/8) */
		{0, 0x57, 0, CLK_EN | 0x02u, MMCHAL_TIMING_LEGACY},
		/* a card without high speed */
		{MMCHAL_BUS_MMC_HS, 0x00, 0, CLK_EN | 0x02u, MMCHAL_TIMING_LEGACY},
		/* HS26 only: high speed at 26 MHz */
		{MMCHAL_BUS_MMC_HS, 0x01, 0, CLK_EN | 0x02u, MMCHAL_TIMING_MMC_HS},
		/* the board's limit: 20 MHz -> 12.5 MHz (1/16) */
		{MMCHAL_BUS_MMC_HS, 0x57, 20000000u, CLK_EN | 0x04u, MMCHAL_TIMING_MMC_HS},
		/* 50 MHz is the limit itself: 1/4 */
		{MMCHAL_BUS_MMC_HS, 0x57, 50000000u, CLK_EN | 0x01u, MMCHAL_TIMING_MMC_HS},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bx b;
		enum mmchal_timing t;

		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		b.cfg.caps.bus = MMCHAL_BUS_8_BIT | cases[i].bus;
		b.cfg.caps.f_max_hz = cases[i].f_max;
		b.card.mmc_card_type = cases[i].type;
		bx_start(&b);
		assert_int_equal(bx_init(&b), 0);
		assert_int_equal(reg16(&b, R_CLK_CTRL), cases[i].clk);
		assert_int_equal(card_width(&b, &t), 8);
		assert_int_equal(t, cases[i].timing);
		assert_int_equal(bx_read(&b, 9, 4), 0);
		bx_expect(&b, 9, 4);
		bx_close(&b);
	}
}

static void test_init_clock_1_1(void **state)
{
	struct bx b;

	(void)state;
	/* A 50 MHz controller clock with the 1/1 divider: the card clock is 50 MHz. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.clk_hz = 50000000u;
	b.sc.base_clock_hz = 50000000u;
	b.cfg.extra_flags = MMCHAL_SDHI_F_CLK_DIV1;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | CLK_DIV1);
	assert_int_equal(bx_read(&b, 0, 2), 0);
	bx_expect(&b, 0, 2);
	bx_close(&b);

	/* Without it, 1/2 at most: 25 MHz, code 0 */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.clk_hz = 50000000u;
	b.sc.base_clock_hz = 50000000u;
	b.soc.flags &= ~MMCHAL_SDHI_F_CLK_DIV1;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x00u);
	bx_close(&b);

	/* 400 kHz out of reach of 1/512: 250 MHz / 512 > 400 kHz */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.clk_hz = 250000000u;
	b.sc.base_clock_hz = 250000000u;
	bx_start(&b);
	assert_int_equal(bx_init(&b), MMCHAL_ERANGE);
	bx_close(&b);
}

static void test_init_byte_mode_card(void **state)
{
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.byte_mode = true;
	b.card.capacity = 32ull << 20;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	/* from the CSD */
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), (32u << 20) / 512u);
	/* byte addresses on the bus: the right sectors arrive */
	assert_int_equal(bx_read(&b, 12345, 3), 0);
	bx_expect(&b, 12345, 3);
	memset(b.buf, 0xa5, BUF_MAX + 2u * GUARD);
	assert_int_equal(bx_read(&b, (32u << 20) / 512u - 1u, 1), 0);
	bx_expect(&b, (32u << 20) / 512u - 1u, 1);
	bx_close(&b);
}

static void test_init_slow_power_up(void **state)
{
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.powerup_ns = 600000000u; /* 0.6 s: within the 1 s of CMD1 */
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_true(mmchal_sim_now(b.sim) >= 600000000u);
	bx_close(&b);

	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.powerup_ns = 3000000000u; /* 3 s: the card never got ready */
	bx_start(&b);
	assert_int_equal(bx_init(&b), MMCHAL_ETIMEDOUT);
	assert_true(mmchal_sim_now(b.sim) >= 1000000000u);
	assert_true(mmchal_sim_now(b.sim) < 3000000000u);
	bx_close(&b);
}

static void test_init_no_card_and_wrong_card(void **state)
{
	static const enum mmchal_sim_card_kind kinds[] = {MMCHAL_SIM_CARD_NONE, MMCHAL_SIM_CARD_SD};

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct bx b;

		bx_sim(&b, kinds[i]);
		bx_start(&b);
		/* CMD1 has no answer: no eMMC */
		assert_int_equal(bx_init(&b), MMCHAL_ETIMEDOUT);
		assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 0);
		bx_close(&b);
	}
}

static void test_init_controller_without_idmac(void **state)
{
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.sc.version = VER_0CB0D; /* IP version 0x0d */
	bx_start(&b);
	assert_int_equal(bx_init(&b), MMCHAL_ENOTSUP);
	/* nothing sent to the card */
	assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_IDLE);
	assert_int_equal(mmchal_sim_reg_writes(b.sim, R_CMD << 2), 0);
	bx_close(&b);
}

static void test_init_32bit_port_without_64bit_access(void **state)
{
	struct bx b;
	struct mmchal_bus_ops ops;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	ops = *b.cfg.bus.ops;
	ops.read64 = NULL;
	ops.write64 = NULL;
	b.cfg.bus.ops = &ops;
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(reg16(&b, R_HOST_MODE), HM_32);
	/* the DMA address then in the low half */
	assert_int_equal(bx_read(&b, 77, 8), 0);
	bx_expect(&b, 77, 8);
	bx_close(&b);
}

static void test_init_faults_during_bring_up(void **state)
{
	struct bx b;
	enum mmchal_timing t;

	(void)state;
	/* HS_TIMING never seen by the card (the first CMD6 lost): legacy timing, 8 bits */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_CMD_TIMEOUT, MMCHAL_SIM_AT_CMD, 6, 0);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(card_width(&b, &t), 8);
	assert_int_equal(t, MMCHAL_TIMING_LEGACY);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x02u);
	assert_int_equal(bx_read(&b, 50, 2), 0);
	bx_expect(&b, 50, 2);
	bx_close(&b);

	/* Its response lost (a CRC error): the card did switch and is busy for a while;
	   the host waits for DAT0, keeps the legacy clock (safe at either timing) and
	   goes on to 8 bits. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 6, 0);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(card_width(&b, &t), 8);
	assert_int_equal(t, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x02u);
	assert_int_equal(bx_read(&b, 50, 2), 0);
	bx_expect(&b, 50, 2);
	bx_close(&b);

	/* Each command of the identification failing fails the bring-up with its error. */
	static const struct {
		enum mmchal_sim_fault_kind kind;
		uint8_t op;
		int err;
	} cases[] = {
		{MMCHAL_SIM_FAULT_CMD_TIMEOUT, 2, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_CMD_CRC, 3, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_CMD_CRC, 9, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_CMD_TIMEOUT, 7, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_CMD_CRC, 16, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_CRC, 8, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_TIMEOUT, 8, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_DMA_ERROR, 8, MMCHAL_EFAULT},
		{MMCHAL_SIM_FAULT_STUCK_BUSY, 7, MMCHAL_ETIMEDOUT},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		bx_start(&b);
		add_fault(&b, cases[i].kind, MMCHAL_SIM_AT_CMD, cases[i].op, 0);
		assert_int_equal(bx_init(&b), cases[i].err);
		assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 0);
		assert_int_equal(bx_read(&b, 0, 1), MMCHAL_EINVAL);
		/* the controller is left reset: clock at its bring-up value, no error bits */
		assert_int_equal(mmchal_bus_rd32(&b.cfg.bus, R_INFO1) & ST_ERRORS, 0);
		bx_close(&b);
	}
}

static void test_init_cmd6_busy_bound(void **state)
{
	struct bx b;

	(void)state;
	/* A card that holds DAT0 after the HS_TIMING switch: the wait ends after the
	   card's GENERIC_CMD6_TIME (the simulated card: 10 ms units) and the card is left
	   at legacy timing, where the next switch fails too. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	add_fault(&b, MMCHAL_SIM_FAULT_STUCK_BUSY, MMCHAL_SIM_AT_CMD, 6, 0);
	assert_int_equal(bx_init(&b), MMCHAL_ENOTSUP);
	bx_close(&b);
}

/* ------------------------------------------------------------------------ reads */

static void test_read_exact_bytes(void **state)
{
	static const struct {
		uint64_t lba;
		uint32_t n;
	} cases[] = {{0, 1}, {1, 2}, {511, 9}, {4096, 64}, {SECTORS - 1u, 1}, {SECTORS - 64u, 64}};
	struct bx b;

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(b.buf, 0xa5, BUF_MAX + 2u * GUARD);
		inval_calls = 0;
		assert_int_equal(bx_read(&b, cases[i].lba, cases[i].n), 0);
		bx_expect(&b, cases[i].lba, cases[i].n);
		/* invalidated before and after the DMA, exactly the buffer */
		assert_int_equal(inval_calls, 2);
		assert_ptr_equal(inval_addr, b.buf + GUARD);
		assert_int_equal(inval_len, cases[i].n * 512u);
		assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
	}
	bx_close(&b);
}

static void test_read_single_and_multi_commands(void **state)
{
	struct bx b;
	uint64_t cmds;

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	/* One block: CMD17, no block counter, SD_STOP 0. */
	assert_int_equal(bx_read(&b, 5, 1), 0);
	assert_int_equal(reg16(&b, R_CMD), 17u | CMD_R1 | CMD_DATA | CMD_READ);
	assert_int_equal(reg16(&b, R_STOP), 0);
	/* Several: CMD18, the 32-bit counter, automatic CMD12 (SD_STOP.SEC). */
	cmds = mmchal_sim_reg_writes(b.sim, R_CMD << 2);
	assert_int_equal(bx_read(&b, 5, 3), 0);
	assert_int_equal(mmchal_sim_reg_writes(b.sim, R_CMD << 2), cmds + 1u);
	assert_int_equal(reg16(&b, R_CMD), 18u | CMD_R1 | CMD_DATA | CMD_READ | CMD_MULTI);
	assert_int_equal(reg16(&b, R_STOP), STOP_SEC);
	assert_int_equal(b.cfg.bus.ops->read32(b.cfg.bus.ctx, R_SECCNT << 2), 3);
	/* DMAC: read channel, 64-bit bus, address increment, the buffer's address */
	assert_int_equal(b.cfg.bus.ops->read32(b.cfg.bus.ctx, DM_MODE),
			 DM_READ | DM_BUS64 | DM_INCR);
	assert_int_equal(b.cfg.bus.ops->read64(b.cfg.bus.ctx, DM_ADDR), b.buf_phys + GUARD);
	assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
	bx_close(&b);
}

static void test_read_range(void **state)
{
	struct bx b;
	uint64_t n = SECTORS;

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(bx_read(&b, n - 1u, 1), 0);
	bx_expect(&b, n - 1u, 1);
	assert_int_equal(bx_read(&b, n - 4u, 4), 0);
	bx_expect(&b, n - 4u, 4);
	memset(b.buf, 0xa5, BUF_MAX + 2u * GUARD);
	assert_int_equal(bx_read(&b, n, 1), MMCHAL_ERANGE);
	assert_int_equal(bx_read(&b, n - 1u, 2), MMCHAL_ERANGE);
	assert_int_equal(bx_read(&b, UINT64_MAX, 1), MMCHAL_ERANGE);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 1, (uint32_t)n, b.buf, 0x80), MMCHAL_ERANGE);
	/* nothing touched */
	for (uint32_t i = 0; i < BUF_MAX + 2u * GUARD; i++)
		assert_int_equal(b.buf[i], 0xa5);
	bx_close(&b);
}

static void test_read_errors_recover(void **state)
{
	static const struct {
		enum mmchal_sim_fault_kind kind;
		enum mmchal_sim_fault_trigger trig;
		uint8_t op;
		uint32_t count;
		uint32_t blocks;
		int err;
	} cases[] = {
		{MMCHAL_SIM_FAULT_CMD_TIMEOUT, MMCHAL_SIM_AT_CMD, 18, 0, 8, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 18, 0, 8, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 18, 5, 8, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_END_BIT, MMCHAL_SIM_AT_BLOCK, 18, 2, 8, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_TIMEOUT, MMCHAL_SIM_AT_BLOCK, 18, 7, 8, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 18, 3, 8, MMCHAL_EFAULT},
		{MMCHAL_SIM_FAULT_CMD_CRC, MMCHAL_SIM_AT_CMD, 17, 0, 1, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_CMD, 17, 0, 1, MMCHAL_EIO},
		{MMCHAL_SIM_FAULT_DATA_TIMEOUT, MMCHAL_SIM_AT_CMD, 17, 0, 1, MMCHAL_ETIMEDOUT},
		{MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_CMD, 17, 0, 1, MMCHAL_EFAULT},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bx b;

		bx_open(&b, MMCHAL_SIM_CARD_MMC);
		add_fault(&b, cases[i].kind, cases[i].trig, cases[i].op, cases[i].count);
		assert_int_equal(bx_read(&b, 200, cases[i].blocks), cases[i].err);
		assert_int_equal(mmchal_sim_faults_fired(b.sim, cases[i].kind), 1);
		/* never past the buffer */
		for (uint32_t g = 0; g < GUARD; g++) {
			assert_int_equal(b.buf[g], 0xa5);
			assert_int_equal(b.buf[GUARD + cases[i].blocks * 512u + g], 0xa5);
		}
		/* the card is back in tran and the next read works */
		assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
		assert_int_equal(bx_read(&b, 300, 8), 0);
		bx_expect(&b, 300, 8);
		bx_close(&b);
	}
}

static void test_read_dma_outside_ram(void **state)
{
	struct bx b;
	static uint8_t host[512];

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	/* The last buffer below 4 GiB passes the checks; nothing is there: DMAC error. */
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1, host, 0xfffffe00u), MMCHAL_EFAULT);
	assert_int_equal(bx_read(&b, 1, 2), 0);
	bx_expect(&b, 1, 2);
	bx_close(&b);
}

static void test_read_old_info1_layout(void **state)
{
	struct bx b;

	(void)state;
	/* M3-W ES1.0: the read-channel end is DM_CM_INFO1 bit 17. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.sc.dmac_old_info1 = true;
	b.cfg.rev = MMCHAL_SDHI_REV_M3W_ES10;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(bx_read(&b, 40, 6), 0);
	bx_expect(&b, 40, 6);
	bx_close(&b);

	/* The same controller described without the revision: bit 20 never comes; the
	   wait is bounded (2 blocks' worth: 2 * 250 ms) */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.sc.dmac_old_info1 = true;
	bx_start(&b);
	assert_int_equal(bx_init(&b), MMCHAL_ETIMEDOUT);
	assert_true(mmchal_sim_now(b.sim) >= 500000000u);
	bx_close(&b);
}

static void test_read_fixed_address_part(void **state)
{
	struct bx b;

	(void)state;
	/* RZ/G2L: only fixed address mode; DTRAN_MODE bit 0 stays clear. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.sc.idmac_fixed_addr_only = true;
	b.soc = (struct mmchal_sdhi_soc)MMCHAL_SDHI_SOC_RZG2L;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(bx_read(&b, 64, 16), 0);
	bx_expect(&b, 64, 16);
	assert_int_equal(b.cfg.bus.ops->read32(b.cfg.bus.ctx, DM_MODE), DM_READ | DM_BUS64);
	bx_close(&b);
}

static void test_read_random_faults(void **state)
{
	struct bx b;
	uint32_t ok = 0, failed = 0;
	uint64_t x = 20261203u;

	(void)state;
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	assert_int_equal(mmchal_sim_fault_random(b.sim, 99, 20000,
						 (1u << MMCHAL_SIM_FAULT_CMD_TIMEOUT) |
							 (1u << MMCHAL_SIM_FAULT_CMD_CRC) |
							 (1u << MMCHAL_SIM_FAULT_DATA_CRC) |
							 (1u << MMCHAL_SIM_FAULT_DATA_TIMEOUT) |
							 (1u << MMCHAL_SIM_FAULT_END_BIT) |
							 (1u << MMCHAL_SIM_FAULT_DMA_ERROR)),
			 0);
	for (int i = 0; i < 300; i++) {
		uint32_t n, lba;
		int err;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		n = 1u + (uint32_t)(x >> 33) % 64u;
		lba = (uint32_t)(x >> 40) % (SECTORS - n);
		memset(b.buf, 0xa5, BUF_MAX + 2u * GUARD);
		err = bx_read(&b, lba, n);
		if (getenv("BX_DEBUG"))
			fprintf(stderr, "%d: lba %u n %u err %d\n", i, lba, n, err);
		if (err == 0) {
			bx_expect(&b, lba, n);
			ok++;
		} else {
			assert_true(err == MMCHAL_EIO || err == MMCHAL_ETIMEDOUT ||
				    err == MMCHAL_EFAULT);
			failed++;
		}
	}
	assert_true(ok > 100u);
	assert_true(failed > 10u);
	mmchal_sim_fault_clear(b.sim);
	assert_int_equal(bx_read(&b, 4242, 33), 0);
	bx_expect(&b, 4242, 33);
	bx_close(&b);
}

/* ------------------------------------------------------------------------ bad input */

static void test_bad_input(void **state)
{
	struct bx b;
	struct mmchal_sdhi_cfg c;
	struct mmchal_emmc_boot before;
	struct mmchal_port_ops nodelay;
	struct mmchal_port port;
	struct mmchal_sdhi_soc gen2 = MMCHAL_SDHI_SOC_RCAR_GEN2;
	uint64_t writes;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	writes = mmchal_sim_reg_writes(b.sim, R_SOFT_RST << 2);
	memset(&b.eb, 0x5a, sizeof(b.eb));
	before = b.eb;

	assert_int_equal(mmchal_emmc_boot_init(NULL, &b.cfg, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, NULL, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &b.cfg, NULL, b.scratch_phys), MMCHAL_EINVAL);
	/* unaligned, above 4 GiB, crossing 4 GiB */
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &b.cfg, b.scratch, b.scratch_phys + 64u),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &b.cfg, b.scratch, 0x100000000ull),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &b.cfg, b.scratch, 0xffffff80u),
			 MMCHAL_EINVAL);
	c = b.cfg;
	c.soc = NULL;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c.soc = &gen2; /* a SYS-DMAC SoC */
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c = b.cfg;
	c.clk_hz = 0;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c = b.cfg;
	c.bus.bus_shift = 1;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c.bus.bus_shift = 3;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c = b.cfg;
	c.bus.ops = NULL;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	c = b.cfg;
	c.port = NULL;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	nodelay = b.ops;
	nodelay.delay_us = NULL;
	port = b.port;
	port.ops = &nodelay;
	c.port = &port;
	assert_int_equal(mmchal_emmc_boot_init(&b.eb, &c, b.scratch, b.scratch_phys),
			 MMCHAL_EINVAL);
	/* none of these touched the state or the controller */
	assert_memory_equal(&b.eb, &before, sizeof(before));
	assert_int_equal(mmchal_sim_reg_writes(b.sim, R_SOFT_RST << 2), writes);

	/* reads: a state that was never set up, then a good one */
	memset(&b.eb, 0, sizeof(b.eb));
	assert_int_equal(bx_read(&b, 0, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_sectors(NULL), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(NULL), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 0);
	assert_int_equal(bx_init(&b), 0);
	writes = mmchal_sim_reg_writes(b.sim, R_CMD << 2);
	assert_int_equal(mmchal_emmc_boot_read(NULL, 0, 1, b.buf, b.buf_phys), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1, NULL, b.buf_phys), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 0, b.buf, b.buf_phys), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1, b.buf, b.buf_phys + 8u), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1, b.buf, 0x100000000ull), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1, b.buf, 0xffffff80u), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 2, b.buf, 0xfffffe00u), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, 1u << 23, b.buf, 0x80u), MMCHAL_EINVAL);
	assert_int_equal(mmchal_emmc_boot_read(&b.eb, 0, UINT32_MAX, b.buf, 0x80u), MMCHAL_EINVAL);
	/* no command went out */
	assert_int_equal(mmchal_sim_reg_writes(b.sim, R_CMD << 2), writes);
	for (uint32_t i = 0; i < BUF_MAX + 2u * GUARD; i++)
		assert_int_equal(b.buf[i], 0xa5);
	bx_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_8bit_high_speed),
		cmocka_unit_test(test_init_widths_by_board),
		cmocka_unit_test(test_init_card_refuses_8bit),
		cmocka_unit_test(test_init_width_check_fails_falls_back),
		cmocka_unit_test(test_init_timing_and_clock),
		cmocka_unit_test(test_init_clock_1_1),
		cmocka_unit_test(test_init_byte_mode_card),
		cmocka_unit_test(test_init_slow_power_up),
		cmocka_unit_test(test_init_no_card_and_wrong_card),
		cmocka_unit_test(test_init_controller_without_idmac),
		cmocka_unit_test(test_init_32bit_port_without_64bit_access),
		cmocka_unit_test(test_init_faults_during_bring_up),
		cmocka_unit_test(test_init_cmd6_busy_bound),
		cmocka_unit_test(test_read_exact_bytes),
		cmocka_unit_test(test_read_single_and_multi_commands),
		cmocka_unit_test(test_read_range),
		cmocka_unit_test(test_read_errors_recover),
		cmocka_unit_test(test_read_dma_outside_ram),
		cmocka_unit_test(test_read_old_info1_layout),
		cmocka_unit_test(test_read_fixed_address_part),
		cmocka_unit_test(test_read_random_faults),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
