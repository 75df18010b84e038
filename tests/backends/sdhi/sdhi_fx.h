/*
 * Test fixture for the SDHI backends: one simulator (sim/), one backend
 * instance driven through its ops only, in polled mode, and helpers to
 * identify a card and move data with guard bytes around every buffer.
 */
#ifndef TESTS_BACKENDS_SDHI_FX_H
#define TESTS_BACKENDS_SDHI_FX_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/sdhi.h>
#include <mmchal_sim/sim.h>

#define FX_LO_BASE 0x40000000ull  /* RAM below 4 GiB */
#define FX_HI_BASE 0x100000000ull /* RAM above 4 GiB */
#define FX_RAM     (16u << 20)
#define FX_GUARD   64u
#define FX_CLK     200000000u
#define FX_TIMEOUT (1u << 31) /* fx_wait gave up */

struct fx_opts {
	enum mmchal_sim_soc soc;
	enum mmchal_sdhi_kind kind;
	int bus_shift;      /* -1 = the SoC default */
	uint16_t version;   /* 0 = the SoC default */
	uint8_t port_width; /* 0 = widest */
	enum mmchal_sim_card_kind card;
	bool iommu;
	bool old_info1;
	uint32_t extra_bus; /* MMCHAL_BUS_* for the configuration */
};

/* Less common settings for the next fx_open(), which then clears them. */
struct fx_more {
	bool sim_fixed_addr_only; /* the simulated DMAC is a fixed-address-mode part */
	const char *compat;       /* SoC entry; NULL = the family fallback of the SoC */
	uint32_t extra_flags;     /* MMCHAL_SDHI_F_* added by hand */
};

static struct fx_more fx_more;

struct fx {
	struct mmchal_sim *sim;
	struct mmchal_sim_config sc;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_sdhi sdhi;
	struct mmchal_backend be;
	struct mmchal_iommu iommu;
	bool has_iommu;
	int lo, hi;
	uint16_t rca;
};

static inline int fx_open(struct fx *f, const struct fx_opts *o)
{
	struct mmchal_sim_card_config cc;
	int rc;

	memset(f, 0, sizeof(*f));
	assert_int_equal(mmchal_sim_config_defaults(&f->sc, o->soc), 0);
	if (o->bus_shift >= 0)
		f->sc.bus_shift = (uint8_t)o->bus_shift;
	if (o->version)
		f->sc.version = o->version;
	f->sc.dmac_old_info1 = f->sc.dmac_old_info1 || o->old_info1;
	f->sc.idmac_fixed_addr_only = fx_more.sim_fixed_addr_only;
	assert_int_equal(mmchal_sim_create(&f->sc, &f->sim), 0);
	f->lo = mmchal_sim_mem_add(f->sim, FX_LO_BASE, FX_RAM, NULL);
	f->hi = mmchal_sim_mem_add(f->sim, FX_HI_BASE, FX_RAM, NULL);
	assert_true(f->lo >= 0 && f->hi >= 0);
	if (o->iommu) {
		assert_int_equal(mmchal_sim_iommu_attach(f->sim, NULL), 0);
		assert_int_equal(mmchal_sim_iommu(f->sim, &f->iommu), 0);
		f->has_iommu = true;
	}
	if (o->card != MMCHAL_SIM_CARD_NONE) {
		assert_int_equal(mmchal_sim_card_defaults(o->card, &cc), 0);
		assert_int_equal(mmchal_sim_card_insert(f->sim, &cc), 0);
	}
	assert_int_equal(mmchal_sim_bus(f->sim, &f->cfg.bus), 0);
	if (fx_more.compat)
		f->cfg.soc = mmchal_sdhi_soc_lookup(fx_more.compat);
	else if (o->soc == MMCHAL_SIM_SOC_GEN2)
		f->cfg.soc = mmchal_sdhi_soc_lookup("renesas,rcar-gen2-sdhi");
	else
		f->cfg.soc = mmchal_sdhi_soc_lookup("renesas,rcar-gen3-sdhi");
	f->cfg.extra_flags = fx_more.extra_flags;
	memset(&fx_more, 0, sizeof(fx_more));
	f->cfg.clk_hz = FX_CLK;
	f->cfg.port_width = o->port_width;
	f->cfg.reg_dma = f->sc.reg_phys;
	f->cfg.caps.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_HS400 | o->extra_bus;
	f->cfg.caps.completion = MMCHAL_COMPLETES_POLLED;
	assert_int_equal(mmchal_sim_sysdmac(f->sim, MMCHAL_DIR_TO_CARD, &f->cfg.chan[0]), 0);
	assert_int_equal(mmchal_sim_sysdmac(f->sim, MMCHAL_DIR_FROM_CARD, &f->cfg.chan[1]), 0);
	if (o->old_info1)
		f->cfg.rev = MMCHAL_SDHI_REV_M3W_ES10;
	switch (o->kind) {
	case MMCHAL_SDHI_IDMAC:
		rc = mmchal_sdhi_idmac_init(&f->sdhi, &f->cfg, &f->be);
		break;
	case MMCHAL_SDHI_SYSDMAC:
		rc = mmchal_sdhi_sysdmac_init(&f->sdhi, &f->cfg, &f->be);
		break;
	default:
		rc = mmchal_sdhi_pio_init(&f->sdhi, &f->cfg, &f->be);
		break;
	}
	if (rc)
		return rc;
	return f->be.ops->probe(f->be.ctx);
}

static inline void fx_close(struct fx *f)
{
	mmchal_sim_destroy(f->sim);
	f->sim = NULL;
}

static inline bool fx_done(const struct mmchal_xfer *x, uint32_t ev)
{
	if (ev & MMCHAL_EV_CMD_ERROR)
		return true;
	if (x->data != NULL)
		return ev & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR);
	if (!(ev & MMCHAL_EV_CMD_DONE))
		return false;
	return !(x->cmd->flags & MMCHAL_RSP_BUSY) || (ev & MMCHAL_EV_BUSY_DONE);
}

/* Poll handle_irq until the xfer finished (virtual time, 20 us steps at most). */
static inline uint32_t fx_wait(struct fx *f, const struct mmchal_xfer *x)
{
	uint64_t deadline = mmchal_sim_now(f->sim) + 20000000000ull;
	uint32_t acc = 0, ev;

	for (;;) {
		uint64_t now, until;

		assert_int_equal(f->be.ops->handle_irq(f->be.ctx, &ev), 0);
		acc |= ev;
		if (fx_done(x, acc))
			return acc;
		now = mmchal_sim_now(f->sim);
		if (now >= deadline)
			return acc | FX_TIMEOUT;
		until = now + 20000u < deadline ? now + 20000u : deadline;
		mmchal_sim_run(f->sim, until);
	}
}

static inline int fx_cmd_resp(struct fx *f, uint32_t op, uint32_t arg, uint32_t flags,
			      uint32_t *resp)
{
	struct mmchal_cmd c = {.opcode = op, .arg = arg, .flags = flags};
	struct mmchal_xfer x = {.cmd = &c};
	uint32_t ev;
	int rc = f->be.ops->start(f->be.ctx, &x);

	if (rc)
		return rc;
	ev = fx_wait(f, &x);
	assert_false(ev & FX_TIMEOUT);
	if (resp != NULL)
		memcpy(resp, c.resp, sizeof(c.resp));
	return c.error;
}

static inline int fx_cmd(struct fx *f, uint32_t op, uint32_t arg, uint32_t flags)
{
	return fx_cmd_resp(f, op, arg, flags, NULL);
}

static inline void fx_ios(struct fx *f, uint32_t hz, enum mmchal_bus_width w, enum mmchal_timing t)
{
	struct mmchal_ios ios = {
		.clock_hz = hz, .bus_width = w, .timing = t, .power_mode = MMCHAL_POWER_ON};

	assert_int_equal(f->be.ops->set_ios(f->be.ctx, &ios), 0);
}

static inline void fx_delay(struct fx *f, uint64_t ns)
{
	mmchal_sim_advance(f->sim, ns);
}

/* eMMC: CMD0, CMD1 until ready, CMD2, CMD3, CMD9, CMD7, 8-bit bus at 25 MHz. */
static inline void fx_mmc_init(struct fx *f, enum mmchal_bus_width w)
{
	uint32_t r[4];

	fx_ios(f, 400000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY);
	assert_int_equal(fx_cmd(f, 0, 0, MMCHAL_RSP_NONE), 0);
	for (int i = 0;; i++) {
		assert_true(i < 100);
		assert_int_equal(fx_cmd_resp(f, 1, 0x40ff8080u, MMCHAL_RSP_R3, r), 0);
		if (r[0] & 0x80000000u)
			break;
		fx_delay(f, 100000);
	}
	assert_int_equal(fx_cmd(f, 2, 0, MMCHAL_RSP_R2), 0);
	f->rca = 1;
	assert_int_equal(fx_cmd(f, 3, 1u << 16, MMCHAL_RSP_R1), 0);
	assert_int_equal(fx_cmd(f, 9, 1u << 16, MMCHAL_RSP_R2), 0);
	assert_int_equal(fx_cmd(f, 7, 1u << 16, MMCHAL_RSP_R1B), 0);
	if (w != MMCHAL_BUS_WIDTH_1) {
		/* CMD6 SWITCH: write byte EXT_CSD[183] BUS_WIDTH = 1 (4-bit) or 2 (8-bit). */
		uint32_t v = w == MMCHAL_BUS_WIDTH_8 ? 2u : 1u;

		assert_int_equal(fx_cmd(f, 6, (3u << 24) | (183u << 16) | (v << 8), MMCHAL_RSP_R1B),
				 0);
	}
	fx_ios(f, 26000000, w, MMCHAL_TIMING_LEGACY);
}

static inline uint8_t fx_pat(uint64_t i, uint32_t seed)
{
	uint64_t x = (i + 1u) * 0x9e3779b97f4a7c15ull ^ seed;

	return (uint8_t)(x >> 29);
}

/* A buffer of @p len bytes at @p offset past an aligned start, guarded on both sides. */
struct fx_buf {
	uint8_t *base; /* first guard byte */
	uint8_t *p;    /* the buffer */
	mmchal_phys_addr_t phys;
	uint32_t len;
};

static inline void fx_buf_get(struct fx *f, int region, uint32_t len, uint32_t offset,
			      struct fx_buf *b)
{
	mmchal_phys_addr_t phys;

	uint64_t size = 4096u + offset + len + FX_GUARD;

	b->base = mmchal_sim_mem_alloc(f->sim, region, size, 4096u, &phys);
	assert_non_null(b->base);
	memset(b->base, 0xa5, size);
	b->p = b->base + 4096u + offset; /* the guard sits below, inside the allocation */
	b->phys = phys + 4096u + offset;
	b->len = len;
}

static inline void fx_buf_guards(const struct fx_buf *b)
{
	for (uint32_t i = 1; i <= FX_GUARD; i++)
		assert_int_equal(b->p[-(int)i], 0xa5);
	for (uint32_t i = 0; i < FX_GUARD; i++)
		assert_int_equal(b->p[b->len + i], 0xa5);
}

#endif /* TESTS_BACKENDS_SDHI_FX_H */
