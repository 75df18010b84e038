/*
 * Test fixture for the eMMC boot reader (sdhi_boot.h): the register-level
 * simulator with one card, the configuration a board file fills in, a guarded
 * buffer, and a bus between the reader and the simulator that logs every
 * register write and port delay and can add status bits to a card's response.
 */
#ifndef TESTS_BACKENDS_SDHI_BOOT_FX_H
#define TESTS_BACKENDS_SDHI_BOOT_FX_H

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

static inline void count_clean(void *ctx, const void *addr, size_t len)
{
	(void)ctx;
	(void)addr;
	(void)len;
	fail_msg("the boot reader never writes: no clean");
}

/* The simulator's delay, logged into the spy's write log (offset SPY_DELAY). */
#define SPY_DELAY 0xffffffffu
static void (*sim_delay)(void *ctx, uint32_t us);
static inline void spy_log(uint32_t off, uint64_t val);

static inline void logged_delay(void *ctx, uint32_t us)
{
	spy_log(SPY_DELAY, us); /* consecutive delays add up in one entry */
	sim_delay(ctx, us);
}

static inline void count_inval(void *ctx, void *addr, size_t len)
{
	(void)ctx;
	inval_calls++;
	inval_addr = addr;
	inval_len = len;
}

/* Simulator and card; the configuration as a board file fills it in. */
static inline void bx_sim(struct bx *b, enum mmchal_sim_card_kind kind)
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
static inline void bx_start(struct bx *b)
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

static inline int bx_init(struct bx *b)
{
	return mmchal_emmc_boot_init(&b->eb, &b->cfg, b->scratch, b->scratch_phys);
}

static inline void bx_open(struct bx *b, enum mmchal_sim_card_kind kind)
{
	bx_sim(b, kind);
	bx_start(b);
	assert_int_equal(bx_init(b), 0);
}

static inline void bx_close(struct bx *b)
{
	mmchal_sim_destroy(b->sim);
}

/* Read into the guarded buffer, freshly filled with 0xa5. */
/* Read into the guarded buffer, freshly filled with 0xa5. */
static inline int bx_read(struct bx *b, uint64_t lba, uint32_t n)
{
	memset(b->buf, 0xa5, BUF_MAX + 2u * GUARD);
	memset(b->buf, 0xa5, BUF_MAX + 2u * GUARD);
	return mmchal_emmc_boot_read(&b->eb, lba, n, b->buf + GUARD, b->buf_phys + GUARD);
}

/* The buffer holds exactly sectors lba..lba+n-1, the guards are untouched. */
static inline void bx_expect(const struct bx *b, uint64_t lba, uint32_t n)
{
	for (uint32_t i = 0; i < GUARD; i++) {
		assert_int_equal(b->buf[i], 0xa5);
		assert_int_equal(b->buf[GUARD + n * 512u + i], 0xa5);
	}
	assert_memory_equal(b->buf + GUARD, b->store + lba * 512u, n * 512u);
}

static inline uint16_t reg16(const struct bx *b, uint32_t reg)
{
	return b->cfg.bus.ops->read16(b->cfg.bus.ctx, reg << 2);
}

static inline uint32_t card_width(const struct bx *b, enum mmchal_timing *t)
{
	uint32_t w = 0;

	assert_int_equal(mmchal_sim_card_bus(b->sim, &w, t), 0);
	return w;
}

static inline void add_fault(struct bx *b, enum mmchal_sim_fault_kind kind,
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

static inline void spy_log(uint32_t off, uint64_t val)
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
static inline unsigned int spy_writes(uint32_t off, unsigned int from, uint64_t *out,
				      unsigned int max)
{
	unsigned int k = 0;

	for (unsigned int i = from; i < spy.n && k < max; i++)
		if (spy.off[i] == off)
			out[k++] = spy.val[i];
	return k;
}

/* SD_CMD and SD_ARG of every command from log entry @p from on, in order. */
static inline unsigned int spy_cmds(unsigned int from, uint32_t (*out)[2], unsigned int max)
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

static inline uint16_t spy_rd16(void *ctx, uint32_t off)
{
	(void)ctx;
	return spy.inner.ops->read16(spy.inner.ctx, off);
}

static inline void spy_wr16(void *ctx, uint32_t off, uint16_t val)
{
	(void)ctx;
	spy_log(off, val);
	if (off == (R_CMD << 2))
		spy.last_op = (uint8_t)(val & 0x3fu);
	spy.inner.ops->write16(spy.inner.ctx, off, val);
}

static inline uint32_t spy_rd32(void *ctx, uint32_t off)
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

static inline void spy_wr32(void *ctx, uint32_t off, uint32_t val)
{
	(void)ctx;
	spy_log(off, val);
	spy.inner.ops->write32(spy.inner.ctx, off, val);
}

static inline uint64_t spy_rd64(void *ctx, uint32_t off)
{
	(void)ctx;
	return spy.inner.ops->read64(spy.inner.ctx, off);
}

static inline void spy_wr64(void *ctx, uint32_t off, uint64_t val)
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
static inline void spy_on(struct bx *b)
{
	memset(&spy, 0, sizeof(spy));
	spy.inner = b->cfg.bus;
	b->cfg.bus.ops = &spy_ops;
	b->cfg.bus.ctx = &spy;
}

#endif /* TESTS_BACKENDS_SDHI_BOOT_FX_H */
