/*
 * The eMMC boot reader (sdhi_boot.h) over the register-level simulator: the
 * bus it sets up as the card sees it, the exact bytes it reads, the errors it
 * reports and recovers from, and its answer to every bad argument.
 */
#define _DEFAULT_SOURCE /* mmap MAP_ANONYMOUS, MAP_NORESERVE: large cards, sparse */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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
#define R_ARG         0x04u
#define R_RSP10       0x0cu
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
#define BUF_MAX  (1024u * 512u)
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

/* The simulator's delay, logged into the spy's write log (offset SPY_DELAY). */
#define SPY_DELAY 0xffffffffu
static void (*sim_delay)(void *ctx, uint32_t us);
static void spy_log(uint32_t off, uint64_t val);

static void logged_delay(void *ctx, uint32_t us)
{
	spy_log(SPY_DELAY, us); /* consecutive delays add up in one entry */
	sim_delay(ctx, us);
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
		bool own = b->card.store != NULL; /* the test fills its own store */

		b->store = mmchal_sim_card_store(b->sim, &b->store_size);
		assert_non_null(b->store);
		for (uint64_t i = 0; !own && i < b->store_size; i++)
			b->store[i] = (uint8_t)((i * 7u) ^ (i >> 9));
	}
	assert_int_equal(mmchal_sim_bus(b->sim, &b->cfg.bus), 0);
	assert_int_equal(mmchal_sim_port(b->sim, &b->port), 0);
	b->ops = *b->port.ops;
	b->ops.cache_clean = count_clean;
	b->ops.cache_invalidate = count_inval;
	sim_delay = b->ops.delay_us;
	b->ops.delay_us = logged_delay;
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

/*
 * A bus between the reader and the simulator: it logs every write (offset and
 * value, in order) and can make the card's R1 to one command carry status error
 * bits (what a card reports for an ECC failure, for instance, which the simulator
 * has no fault for).
 */
#define SPY_LOG 2048u

struct spy {
	struct mmchal_bus inner;
	uint32_t off[SPY_LOG];
	uint64_t val[SPY_LOG];
	unsigned int n;
	uint8_t last_op; /* opcode of the last SD_CMD write */
	bool csd_patch;  /* CMD9's CSD gets csd_* below */
	uint32_t csd_bl, csd_size, csd_mult;
	uint8_t r1_op;         /* command whose R1 gets r1_bits (0 = none) */
	uint32_t r1_bits;      /* ORed into SD_RSP10 as read after it */
	unsigned int r1_times; /* how many of those responses */
};

static struct spy spy;

static void spy_log(uint32_t off, uint64_t val)
{
	if (off == SPY_DELAY && spy.n > 0 && spy.off[spy.n - 1] == SPY_DELAY) {
		spy.val[spy.n - 1] += val;
		return;
	}
	if (spy.n < SPY_LOG) {
		spy.off[spy.n] = off;
		spy.val[spy.n] = val;
		spy.n++;
	}
}

/* The values written to byte offset @p off from log entry @p from on, into @p out. */
static unsigned int spy_writes(uint32_t off, unsigned int from, uint64_t *out, unsigned int max)
{
	unsigned int k = 0;

	for (unsigned int i = from; i < spy.n && k < max; i++)
		if (spy.off[i] == off)
			out[k++] = spy.val[i];
	return k;
}

/* SD_CMD and SD_ARG of every command from log entry @p from on, in order. */
static unsigned int spy_cmds(unsigned int from, uint32_t (*out)[2], unsigned int max)
{
	uint32_t arg = 0;
	unsigned int k = 0;

	assert_true(spy.n < SPY_LOG); /* nothing was lost */
	for (unsigned int i = from; i < spy.n && k < max; i++) {
		if (spy.off[i] == (R_ARG << 2))
			arg = (uint32_t)spy.val[i];
		if (spy.off[i] == (R_CMD << 2)) {
			out[k][0] = (uint32_t)spy.val[i];
			out[k][1] = arg;
			k++;
		}
	}
	return k;
}

static uint16_t spy_rd16(void *ctx, uint32_t off)
{
	(void)ctx;
	return spy.inner.ops->read16(spy.inner.ctx, off);
}

static void spy_wr16(void *ctx, uint32_t off, uint16_t val)
{
	(void)ctx;
	spy_log(off, val);
	if (off == (R_CMD << 2))
		spy.last_op = (uint8_t)(val & 0x3fu);
	spy.inner.ops->write16(spy.inner.ctx, off, val);
}

static uint32_t spy_rd32(void *ctx, uint32_t off)
{
	uint32_t v = spy.inner.ops->read32(spy.inner.ctx, off);

	(void)ctx;
	/* CSD bit b is bit b - 8 of the response registers SD_RSP10 (bits 31:0),
	   SD_RSP32, SD_RSP54, SD_RSP76: READ_BL_LEN 83:80, C_SIZE 73:62, C_SIZE_MULT
	   49:47 */
	if (spy.csd_patch && spy.last_op == 9 && off == (R_RSP10 + 4u) << 2) {
		v &= ~((0x3ffu << 22) | (7u << 7));
		v |= ((spy.csd_size & 0x3ffu) << 22) | (spy.csd_mult << 7);
	}
	if (spy.csd_patch && spy.last_op == 9 && off == (R_RSP10 + 8u) << 2) {
		v &= ~((0xfu << 8) | 3u);
		v |= (spy.csd_bl << 8) | (spy.csd_size >> 10);
	}
	if (off == (R_RSP10 << 2) && spy.r1_op != 0 && spy.last_op == spy.r1_op &&
	    spy.r1_times > 0) {
		v |= spy.r1_bits;
		spy.r1_times--;
	}
	return v;
}

static void spy_wr32(void *ctx, uint32_t off, uint32_t val)
{
	(void)ctx;
	spy_log(off, val);
	spy.inner.ops->write32(spy.inner.ctx, off, val);
}

static uint64_t spy_rd64(void *ctx, uint32_t off)
{
	(void)ctx;
	return spy.inner.ops->read64(spy.inner.ctx, off);
}

static void spy_wr64(void *ctx, uint32_t off, uint64_t val)
{
	(void)ctx;
	spy_log(off, val);
	spy.inner.ops->write64(spy.inner.ctx, off, val);
}

static const struct mmchal_bus_ops spy_ops = {
	.read16 = spy_rd16,
	.write16 = spy_wr16,
	.read32 = spy_rd32,
	.write32 = spy_wr32,
	.read64 = spy_rd64,
	.write64 = spy_wr64,
};

/* Put the spy between the reader and the simulator of @p b (after bx_start()). */
static void spy_on(struct bx *b)
{
	memset(&spy, 0, sizeof(spy));
	spy.inner = b->cfg.bus;
	b->cfg.bus.ops = &spy_ops;
	b->cfg.bus.ctx = &spy;
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
	assert_int_equal(reg16(&b, R_OPTION), 0x4000u | 0x00b0u | OPT_W8);
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
		/* the whole register: bit 14, data timeout 2^24 clocks (bits 7:4 = 11), width */
		assert_int_equal(reg16(&b, R_OPTION), 0x4000u | 0x00b0u | cases[i].opt);
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
		spy_on(&b);
		assert_int_equal(bx_init(&b), 0);
		assert_int_equal(reg16(&b, R_CLK_CTRL), cases[i].clk);
		assert_int_equal(card_width(&b, &t), 8);
		/* HS_TIMING is asked for only where board and card both have it */
		{
			uint32_t cmds[64][2];
			unsigned int n = spy_cmds(0, cmds, 64), hs = 0;

			for (unsigned int k = 0; k < n; k++)
				hs += cmds[k][0] == (0x0500u | 6) && cmds[k][1] == 0x03b90100u;
			assert_int_equal(hs, (cases[i].bus && cases[i].type) ? 1 : 0);
		}
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

	/* A divider whose clock is above the limit by a fraction of a hertz is not taken:
	   200 000 001 Hz / 4 > 50 MHz, so 1/8 */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.cfg.clk_hz = 200000001u;
	b.sc.base_clock_hz = 200000001u;
	b.cfg.caps.f_max_hz = 50000000u;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x02u);
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
	/* each busy wait is GENERIC_CMD6_TIME (10 x 10 ms), not the 1 s default: the
	   switch, its recovery and the failed width trials take well under 2 s */
	assert_true(mmchal_sim_now(b.sim) >= 200000000u);
	assert_true(mmchal_sim_now(b.sim) < 2000000000u);
	bx_close(&b);
}

/* A card backed by an mmap'd store: only the pages read are ever touched. */
static uint8_t *big_store(uint64_t size)
{
	void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	assert_true(p != MAP_FAILED);
	return p;
}

static void fill(struct bx *b, uint64_t lba, uint32_t n)
{
	for (uint64_t i = lba * 512u; i < (lba + n) * 512u; i++)
		b->store[i] = (uint8_t)((i * 13u) ^ (i >> 9) ^ (i >> 24));
}

static void test_init_large_cards(void **state)
{
	/* Sector mode, 0x01020400 sectors (8.06 GiB): every byte of SEC_COUNT but the
	   lowest set, sector addresses above 2^24. */
	uint64_t sectors = 0x01020400u, size = sectors * 512u;
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.capacity = size;
	b.card.store = big_store(size);
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), sectors);
	fill(&b, sectors - 16u, 16);
	assert_int_equal(bx_read(&b, sectors - 16u, 16), 0);
	bx_expect(&b, sectors - 16u, 16);
	fill(&b, 0x01000001u, 3);
	assert_int_equal(bx_read(&b, 0x01000001u, 3), 0);
	bx_expect(&b, 0x01000001u, 3);
	assert_int_equal(bx_read(&b, sectors, 1), MMCHAL_ERANGE);
	bx_close(&b);
	munmap(b.card.store, (size_t)size);

	/* Byte mode, 768 MiB: C_SIZE 3071 (bits 11:10 set, across two response
	   registers), the last sector at byte address 768 MiB - 512. */
	size = 768ull << 20;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.byte_mode = true;
	b.card.capacity = size;
	b.card.store = big_store(size);
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), size / 512u);
	fill(&b, size / 512u - 2u, 2);
	assert_int_equal(bx_read(&b, size / 512u - 2u, 2), 0);
	bx_expect(&b, size / 512u - 2u, 2);
	assert_int_equal(bx_read(&b, size / 512u - 1u, 2), MMCHAL_ERANGE);
	bx_close(&b);
	munmap(b.card.store, (size_t)size);
}

static void test_init_again_and_state(void **state)
{
	struct bx b;
	uint64_t got[4];
	unsigned int en = 0, c0 = 0;
	uint64_t waited = 0;

	(void)state;
	/* The card clock runs 74 clocks (185 us at 400 kHz) before the first command:
	   the delays between the clock enable and CMD0. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	spy_on(&b);
	assert_int_equal(bx_init(&b), 0);
	for (unsigned int i = 0; i < spy.n; i++) {
		if (!en && spy.off[i] == (R_CLK_CTRL << 2) && spy.val[i] == 0x0180u)
			en = i;
		if (en && !c0 && spy.off[i] == (R_CMD << 2))
			c0 = i;
	}
	assert_true(en > 0 && c0 > en);
	for (unsigned int i = en; i < c0; i++)
		if (spy.off[i] == SPY_DELAY)
			waited += spy.val[i];
	assert_true(waited >= 185u);

	/* A second bring-up of a card a first one left in tran (a boot loader's second
	   stage): CMD0 sends it back to idle and all goes again. */
	assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 8);
	assert_int_equal(bx_read(&b, 33, 3), 0);
	bx_expect(&b, 33, 3);
	(void)got;
	bx_close(&b);

	/* State storage full of old bytes: a failed bring-up leaves it not ready, a
	   good one works from it. */
	bx_sim(&b, MMCHAL_SIM_CARD_NONE);
	bx_start(&b);
	memset(&b.eb, 0xff, sizeof(b.eb));
	assert_int_equal(bx_init(&b), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 0);
	assert_int_equal(bx_read(&b, 0, 1), MMCHAL_EINVAL);
	bx_close(&b);
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	memset(&b.eb, 0xff, sizeof(b.eb));
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), SECTORS);
	assert_int_equal(bx_read(&b, 1, 1), 0);
	bx_expect(&b, 1, 1);
	bx_close(&b);
}

static void test_init_host_mode_by_version_and_ops(void **state)
{
	static const struct {
		uint16_t version;
		bool rd64, wr64;
		uint16_t host_mode;
	} cases[] = {
		{0xcc10u, true, true, HM_64},   /* the first Gen3 VERSION */
		{0xcc10u, false, false, HM_32}, /* no 64-bit access: 32-bit port */
		{0xcd10u, true, false, HM_32},  /* 64-bit reads alone are not enough */
		{0xcd10u, false, true, HM_32},  /* nor 64-bit writes alone */
		{0xcb10u, false, false, 0},     /* before 0xcc10: HOST_MODE left as it is */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bx b;
		struct mmchal_bus_ops ops;

		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		b.sc.version = cases[i].version;
		bx_start(&b);
		ops = *b.cfg.bus.ops;
		if (!cases[i].rd64)
			ops.read64 = NULL;
		if (!cases[i].wr64)
			ops.write64 = NULL;
		b.cfg.bus.ops = &ops;
		assert_int_equal(bx_init(&b), 0);
		assert_int_equal(mmchal_sim_reg_writes(b.sim, R_HOST_MODE << 2) > 0,
				 cases[i].version >= 0xcc10u);
		assert_int_equal(b.cfg.bus.ops->read16(b.cfg.bus.ctx, R_HOST_MODE << 2),
				 cases[i].host_mode);
		assert_int_equal(bx_read(&b, 70, 2), 0);
		bx_expect(&b, 70, 2);
		bx_close(&b);
	}
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

static void test_init_clock_sequence(void **state)
{
	/* Every divider change: clock off (old divider), new divider, clock on (Linux
	   renesas_sdhi_set_clock: no glitch while it changes). After the soft reset the
	   cached value (0) goes back first. */
	static const uint64_t want[] = {
		0x0000, 0x0000, 0x0080, 0x0180, /* reset; 400 kHz (1/512) */
		0x0080, 0x0002, 0x0102,         /* 25 MHz (1/8) */
		0x0002, 0x0001, 0x0101,         /* 50 MHz (1/4) after HS_TIMING */
	};
	uint64_t got[16];
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	spy_on(&b);
	memset(&b.eb, 0xff, sizeof(b.eb)); /* nothing is taken from old state */
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(spy_writes(R_CLK_CTRL << 2, 0, got, 16), sizeof(want) / sizeof(want[0]));
	assert_memory_equal(got, want, sizeof(want));
	bx_close(&b);
}

static void test_init_command_sequence(void **state)
{
	/* JESD84-B51 identification and set-up, as SD_CMD (index | response type | data
	   bits) and SD_ARG; CMD1 repeats while the card is busy. */
	static const uint32_t want[][2] = {
		{0x0300u | 0, 0},            /* GO_IDLE, no response */
		{0x0700u | 1, 0x40ff8080u},  /* SEND_OP_COND, R3: sector mode */
		{0x0600u | 2, 0},            /* ALL_SEND_CID, R2 */
		{0x0400u | 3, 0x00010000u},  /* SET_RELATIVE_ADDR 1, R1 */
		{0x0600u | 9, 0x00010000u},  /* SEND_CSD, R2 */
		{0x0500u | 7, 0x00010000u},  /* SELECT, R1b */
		{0x0400u | 16, 512},         /* SET_BLOCKLEN 512 */
		{0x1c00u | 8, 0},            /* SEND_EXT_CSD, R1 + read data */
		{0x0500u | 6, 0x03b90100u},  /* SWITCH HS_TIMING = 1 */
		{0x0400u | 13, 0x00010000u}, /* SEND_STATUS */
		{0x0500u | 6, 0x03b70200u},  /* SWITCH BUS_WIDTH = 8 bit */
		{0x0400u | 13, 0x00010000u}, /* SEND_STATUS */
		{0x1c00u | 8, 0},            /* SEND_EXT_CSD at 8 bits */
	};
	uint32_t got[64][2];
	unsigned int n, k = 0;
	struct bx b;

	(void)state;
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.powerup_ns = 5000000u; /* CMD1 a few times */
	bx_start(&b);
	spy_on(&b);
	assert_int_equal(bx_init(&b), 0);
	n = spy_cmds(0, got, 64);
	for (unsigned int i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_true(k < n);
		assert_int_equal(got[k][0], want[i][0]);
		assert_int_equal(got[k][1], want[i][1]);
		k++;
		if (i == 1) {
			/* the repeats, 1 ms apart, then the ready one */
			unsigned int rep = 0;

			while (k < n && got[k][0] == want[1][0] && got[k][1] == want[1][1]) {
				k++;
				rep++;
			}
			assert_true(rep >= 3u && rep <= 6u);
		}
	}
	assert_int_equal(k, n);

	/* A multi-block read, and after a failed one the CMD12 (argument 0: no HPI) that
	   follows the controller's reset. */
	spy.n = 0;
	assert_int_equal(bx_read(&b, 0x123, 4), 0);
	n = spy_cmds(0, got, 64);
	assert_int_equal(n, 1);
	assert_int_equal(got[0][0], 0x3c00u | 18);
	assert_int_equal(got[0][1], 0x123);
	spy.n = 0;
	add_fault(&b, MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 18, 1);
	assert_int_equal(bx_read(&b, 0x456, 4), MMCHAL_EIO);
	n = spy_cmds(0, got, 64);
	assert_int_equal(n, 2);
	assert_int_equal(got[0][0], 0x3c00u | 18);
	assert_int_equal(got[0][1], 0x456);
	assert_int_equal(got[1][0], 0x0500u | 12);
	assert_int_equal(got[1][1], 0);
	/* the soft reset (0 then 1) comes between the two */
	{
		unsigned int c12 = 0, rst = 0;

		for (unsigned int i = 0; i < spy.n; i++) {
			if (spy.off[i] == (R_CMD << 2))
				c12 = i;
			if (spy.off[i] == (R_SOFT_RST << 2) && spy.val[i] == 0 && rst == 0)
				rst = i;
		}
		assert_true(rst > 0 && rst < c12);
		assert_int_equal(spy.val[rst + 1], 1);
		assert_int_equal(spy.off[rst + 1], R_SOFT_RST << 2);
	}
	assert_int_equal(bx_read(&b, 0x456, 4), 0);
	bx_expect(&b, 0x456, 4);
	bx_close(&b);
}

static void test_read_error_resets_dmac(void **state)
{
	struct bx b;
	uint64_t got[8];

	(void)state;
	/* After a DMAC error both channels are reset (active low: cleared, then set). */
	bx_open(&b, MMCHAL_SIM_CARD_MMC);
	spy_on(&b);
	b.eb.bus = b.cfg.bus;
	add_fault(&b, MMCHAL_SIM_FAULT_DMA_ERROR, MMCHAL_SIM_AT_BLOCK, 18, 1);
	assert_int_equal(bx_read(&b, 10, 4), MMCHAL_EFAULT);
	assert_true(spy_writes(0x830u, 0, got, 8) >= 2u); /* DM_CM_RST */
	assert_int_equal(got[0], ~((1u << 8) | (1u << 9)));
	assert_int_equal(got[1], 0xffffffffu);
	assert_int_equal(bx_read(&b, 10, 4), 0);
	bx_expect(&b, 10, 4);
	bx_close(&b);
}

static void test_card_status_errors(void **state)
{
	static const struct {
		uint8_t op;
		uint32_t bits;
	} init_cases[] = {
		{3, 1u << 19},  /* CMD3: ERROR */
		{7, 1u << 20},  /* CMD7: CC_ERROR */
		{16, 1u << 29}, /* CMD16: BLOCK_LEN_ERROR */
		{8, 1u << 21},  /* CMD8: CARD_ECC_FAILED */
	};
	struct bx b;

	(void)state;
	for (size_t i = 0; i < sizeof(init_cases) / sizeof(init_cases[0]); i++) {
		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		bx_start(&b);
		spy_on(&b);
		spy.r1_op = init_cases[i].op;
		spy.r1_bits = init_cases[i].bits;
		spy.r1_times = 1;
		assert_int_equal(bx_init(&b), MMCHAL_EIO);
		assert_int_equal(spy.r1_times, 0);
		bx_close(&b);
	}

	/* A read whose R1 reports an ECC failure (CMD17) or an out-of-range address
	   (CMD18) fails with EIO; the next read works. */
	for (unsigned int k = 0; k < 2; k++) {
		bx_sim(&b, MMCHAL_SIM_CARD_MMC);
		bx_start(&b);
		spy_on(&b);
		assert_int_equal(bx_init(&b), 0);
		spy.r1_op = k ? 18 : 17;
		spy.r1_bits = k ? 1u << 31 : 1u << 21;
		spy.r1_times = 1;
		assert_int_equal(bx_read(&b, 20, k ? 5 : 1), MMCHAL_EIO);
		assert_int_equal(spy.r1_times, 0);
		assert_int_equal(mmchal_sim_card_state(b.sim), MMCHAL_SIM_ST_TRAN);
		assert_int_equal(bx_read(&b, 20, 5), 0);
		bx_expect(&b, 20, 5);
		bx_close(&b);
	}

	/* COM_CRC_ERROR and ILLEGAL_COMMAND belong to the previous command: not an error
	   of this one. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	spy_on(&b);
	assert_int_equal(bx_init(&b), 0);
	spy.r1_op = 17;
	spy.r1_bits = (1u << 23) | (1u << 22);
	spy.r1_times = 1;
	assert_int_equal(bx_read(&b, 20, 1), 0);
	bx_expect(&b, 20, 1);
	bx_close(&b);
}

static void test_switch_error_on_width(void **state)
{
	struct bx b;

	(void)state;
	/* SWITCH_ERROR in the CMD13 after the 8-bit CMD6 (the card kept its width):
	   the next width is tried. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	bx_start(&b);
	spy_on(&b);
	spy.r1_op = 13;
	spy.r1_bits = 1u << 7;
	spy.r1_times = 1;
	/* the first CMD13 is the HS_TIMING check: high speed is refused, legacy stays */
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(reg16(&b, R_CLK_CTRL), CLK_EN | 0x02u);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 8);
	bx_close(&b);
}

static void test_long_select_busy(void **state)
{
	struct bx b;

	(void)state;
	/* A card busy for 30 ms after each CMD6 (HS_TIMING, BUS_WIDTH): the next
	   command waits for DAT0, or the EXT_CSD read in prg would fail. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.switch_busy_ns = 30000000u;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_bus_width(&b.eb), 8);
	assert_true(mmchal_sim_now(b.sim) >= 60000000u);
	assert_int_equal(bx_read(&b, 8, 8), 0);
	bx_expect(&b, 8, 8);
	bx_close(&b);
}

static void test_byte_mode_csd_limits(void **state)
{
	struct bx b;

	(void)state;
	/* A byte-mode CSD that claims more than 4 GiB (C_SIZE 2999, C_SIZE_MULT 7,
	   READ_BL_LEN 12: 12 288 000 sectors): byte addresses end at 4 GiB, so the
	   capacity is taken as 2^23 sectors. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.byte_mode = true;
	bx_start(&b);
	spy_on(&b);
	spy.csd_patch = true;
	spy.csd_size = 2999;
	spy.csd_mult = 7;
	spy.csd_bl = 12;
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 1u << 23);
	bx_close(&b);

	/* One the fields say exactly: C_SIZE 1000, C_SIZE_MULT 3, READ_BL_LEN 10:
	   1001 x 32 x 1024 bytes = 64 064 sectors. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.byte_mode = true;
	bx_start(&b);
	spy_on(&b);
	spy.csd_patch = true;
	spy.csd_size = 1000;
	spy.csd_mult = 3;
	spy.csd_bl = 10;
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 64064u);
	bx_close(&b);
}

static void test_read_whole_small_card(void **state)
{
	struct bx b;

	(void)state;
	/* The smallest card, 512 KiB, read whole in one request. */
	bx_sim(&b, MMCHAL_SIM_CARD_MMC);
	b.card.capacity = 512u << 10;
	bx_start(&b);
	assert_int_equal(bx_init(&b), 0);
	assert_int_equal(mmchal_emmc_boot_sectors(&b.eb), 1024);
	assert_int_equal(bx_read(&b, 0, 1024), 0);
	bx_expect(&b, 0, 1024);
	assert_int_equal(bx_read(&b, 1, 1024), MMCHAL_ERANGE);
	assert_int_equal(bx_read(&b, 0, 1025), MMCHAL_ERANGE);
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
		cmocka_unit_test(test_init_large_cards),
		cmocka_unit_test(test_init_again_and_state),
		cmocka_unit_test(test_init_host_mode_by_version_and_ops),
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
		cmocka_unit_test(test_init_clock_sequence),
		cmocka_unit_test(test_init_command_sequence),
		cmocka_unit_test(test_read_error_resets_dmac),
		cmocka_unit_test(test_card_status_errors),
		cmocka_unit_test(test_switch_error_on_width),
		cmocka_unit_test(test_long_select_busy),
		cmocka_unit_test(test_byte_mode_csd_limits),
		cmocka_unit_test(test_read_whole_small_card),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
