/**
 * @file
 * @brief SDHI common code: probe and soft reset, bus settings, command issue,
 *        response and status decode, completion of a data phase; the parts
 *        every SDHI backend shares.
 *
 * Completion follows what the controller does on the boards (REFERENCE.md,
 * "How the drivers that work on the hardware use it"): an error bit comes
 * together with response end or access end, so both the completion bit and
 * the error bits are taken from the same status read; an R1b response ends
 * only when the card released DAT0; a DMA write without automatic CMD12 is
 * finished only on an access end seen with the bus idle (INFO2 bit 29).
 *
 * @note Every op runs with the host lock held by the core (backend.h), except
 *       probe, which runs before the host is live. No op waits for the card:
 *       nothing here waits or polls.
 */
#include <mmchal/config.h>

#include "sdhi_priv.h"

#include "core/mem.h"

SDHI_NOINLINE_ static uint16_t rd16(const struct mmchal_sdhi *s, uint32_t reg)
{
	return mmchal_bus_rd16(&s->cfg.bus, reg);
}

SDHI_NOINLINE_ static void wr16(const struct mmchal_sdhi *s, uint32_t reg, uint16_t val)
{
	mmchal_bus_wr16(&s->cfg.bus, reg, val);
}

/* One 32-bit access at a logical offset (shifted like the 16-bit ones). */
SDHI_NOINLINE_ static void wr32_one(const struct mmchal_sdhi *s, uint32_t reg, uint32_t val)
{
	s->cfg.bus.ops->write32(s->cfg.bus.ctx, reg << s->cfg.bus.bus_shift, val);
}

/* A 32-bit logical register as its two 16-bit halves, low first: the accesses of
   mmchal_bus_rd32(), through rd16() so that one copy of the 16-bit access serves all. */
static uint32_t rd16x2(const struct mmchal_sdhi *s, uint32_t reg)
{
	uint32_t lo = rd16(s, reg);

	return lo | ((uint32_t)rd16(s, reg + 2u) << 16);
}

/* SD_ARG and SD_RSPxx: with bus_shift 2 (s->wide) one 32-bit access reaches the whole
   logical register (U-Boot, Zephyr); otherwise the two 16-bit halves, low first
   (Linux; mmchal_bus_wr32()). */
static void wr_arg(const struct mmchal_sdhi *s, uint32_t val)
{
	if (s->wide) {
		wr32_one(s, SDHI_ARG, val);
	} else {
		wr16(s, SDHI_ARG, (uint16_t)val);
		wr16(s, SDHI_ARG + 2u, (uint16_t)(val >> 16));
	}
}

static uint32_t rd_rsp(const struct mmchal_sdhi *s, uint32_t reg)
{
	if (s->wide)
		return s->cfg.bus.ops->read32(s->cfg.bus.ctx, reg << s->cfg.bus.bus_shift);
	return rd16x2(s, reg);
}

/* A register whose last written value is kept in @p cache: written only on a change. */
SDHI_NOINLINE_ static void wr16_cached(const struct mmchal_sdhi *s, uint32_t reg, uint16_t *cache,
				       uint16_t val)
{
	if (*cache != val) {
		wr16(s, reg, val);
		*cache = val;
	}
}

static uint32_t rd_status(const struct mmchal_sdhi *s)
{
	return rd16x2(s, SDHI_INFO1);
}

/* Write 0 to the latched bits seen, 1 elsewhere; INFO2 bit 11 is always written 1. */
static void ack(const struct mmchal_sdhi *s, uint32_t bits)
{
	bits &= SDHI_ST_LATCHED;
	if (bits & 0xffffu)
		wr16(s, SDHI_INFO1, (uint16_t)~bits);
	if (bits >> 16)
		wr16(s, SDHI_INFO2, (uint16_t)(~(bits >> 16) | (SDHI_ST_ALWAYS1 >> 16)));
}

static bool cd_usable(const struct mmchal_sdhi *s)
{
	return !(s->cfg.caps.bus & (MMCHAL_BUS_NONREMOVABLE | MMCHAL_BUS_BROKEN_CD));
}

#if MMCHAL_WITH_IRQ
SDHI_NOINLINE_ static uint32_t irq_base(const struct mmchal_sdhi *s)
{
	/* the command and data error sets share the CRC and end-bit bits */
	uint32_t on = SDHI_ST_RSP_END | SDHI_ST_ACCESS_END | SDHI_ST_ILL_ACCESS;

	on |= SDHI_ST_CMD_ERR;
	on |= SDHI_ST_DATA_ERR;

	if (cd_usable(s))
		on |= SDHI_ST_CARD;
	return on;
}

static void write_masks(const struct mmchal_sdhi *s)
{
	wr16(s, SDHI_INFO1_MASK, (uint16_t)~s->irq_on);
	wr16(s, SDHI_INFO2_MASK, (uint16_t) ~(s->irq_on >> 16));
}
#endif

#if MMCHAL_WITH_SDIO
/*
 * SDIO_MASK bit 0 clear (the card interrupt unmasked) exactly while SDIO_MODE bit 0
 * is on, both from s->sdio_mode; the mask first, so that turning it off never
 * leaves an open mask with the mode on. A library built without SDIO functions
 * (config.h) never writes either: SDIO_MODE stays 0 and SDIO_MASK masked, as the
 * reset of probe leaves them.
 */
static void write_sdio(const struct mmchal_sdhi *s)
{
	wr16(s, SDHI_SDIO_MASK, (uint16_t)~s->sdio_mode);
	wr16(s, SDHI_SDIO_MODE, s->sdio_mode);
}
#endif

#if MMCHAL_WITH_IRQ
void mmchal_sdhi_dma_mode_(struct mmchal_sdhi *s, bool dma)
{
	uint32_t on;

	if (dma == s->dma_on)
		return;
	/* With DMA the data port raises DMA requests: the buffer interrupts stay masked. */
	on = irq_base(s) | (dma ? 0 : SDHI_ST_PIO);
	wr16(s, SDHI_CC_EXT_MODE, dma ? SDHI_EXT_DMA : 0);
	s->dma_on = dma;
	if (on != s->irq_on) {
		s->irq_on = on;
		write_masks(s);
	}
}
#else
/*
 * A library without the interrupt path (MMCHAL_WITH_IRQ 0) polls the status
 * registers, which latch every event whatever the masks say (U-Boot's TMIO
 * driver polls SD_INFO1/2 and the DMAC's DM_CM_INFO1/2 and never writes a
 * mask; Linux reads masked bits in its handler): the masks keep the value the
 * soft reset gave them, every source masked, and only the DMA enable changes.
 */
void mmchal_sdhi_dma_mode_(struct mmchal_sdhi *s, bool dma)
{
	if (dma == s->dma_on)
		return;
	wr16(s, SDHI_CC_EXT_MODE, dma ? SDHI_EXT_DMA : 0);
	s->dma_on = dma;
}
#endif

/* SOFT_RST bit 0 is an active-low reset: 0 then 1 (Linux renesas_sdhi_reset). */
static void reset_pulse(const struct mmchal_sdhi *s)
{
	wr16(s, SDHI_SOFT_RST, 0);
	wr16(s, SDHI_SOFT_RST, SDHI_SOFT_RST_RUN);
}

/*
 * The registers a soft reset loses, written from their cached values: clock, bus width
 * and timeout, data port width (when @p host_mode), DDR mode and SDIO mode when set,
 * DMA mode off, interrupt masks (left masked without the interrupt path, as
 * mmchal_sdhi_dma_mode_() says). Probe sets them up the same way.
 */
static void restore(struct mmchal_sdhi *s, bool host_mode)
{
	wr16(s, SDHI_CLK_CTRL, s->clk_ctrl);
	wr16(s, SDHI_OPTION, s->option);
	if (host_mode)
		wr16(s, SDHI_HOST_MODE, s->host_mode);
	if (s->if_mode != 0)
		wr16(s, SDHI_IF_MODE, s->if_mode);
#if MMCHAL_WITH_SDIO
	/* The reset masks the card interrupt again: mode and mask both (Linux
	   tmio_mmc_reset writes CTL_SDIO_IRQ_MASK and the SDIO mode back). */
	if (s->sdio_mode != 0)
		write_sdio(s);
#endif
	/* Whether the reset clears the DMA enable is not documented: clear it here so that
	   the cached state is the hardware's either way. */
	wr16(s, SDHI_CC_EXT_MODE, 0);
	s->dma_on = false;
#if MMCHAL_WITH_IRQ
	s->irq_on = irq_base(s) | SDHI_ST_PIO;
	write_masks(s);
#endif
	/* Unknown after a reset: the next request writes them. */
	s->size = 0;
	s->stop = 0xffffu;
}

/* Soft reset and the registers it loses put back. */
static void soft_reset(struct mmchal_sdhi *s)
{
	reset_pulse(s);
	if (MMCHAL_WITH_STATS)
		s->stats.soft_resets++;
	restore(s, s->host_mode != 0);
}

SDHI_NOINLINE_ static void end_xfer(struct mmchal_sdhi *s)
{
	s->state = 0;
	s->cmd = NULL;
	s->data = NULL;
	s->stop_cmd = NULL;
}

/* After any error: stop the engine, reset the controller, forget the xfer. */
static void recover(struct mmchal_sdhi *s)
{
	if (SDHI_HAS_ENG_(s) && (s->state & SDHI_S_DMA_BUILT))
		SDHI_ENG_(s, stop)(s);
	soft_reset(s);
	end_xfer(s);
}

/* ------------------------------------------------------------------------ probe */

/* HOST_MODE per VERSION family and port width 2, 4, 8 (Linux renesas_sdhi_sdbuf_width);
   the last family has no HOST_MODE: a row of 0 rather than a test. */
static const uint16_t host_modes[][3] = {
	{SDHI_HM_GEN3_16, SDHI_HM_GEN3_32, SDHI_HM_GEN3_64},
	{SDHI_HM_CB0D_16, SDHI_HM_CB0D_32, 0},
	{SDHI_HM_490C_16, SDHI_HM_490C_32, 0},
	{0}, /* older: a 16-bit port (index 0) and no HOST_MODE */
};

static int select_port(struct mmchal_sdhi *s)
{
	uint16_t v = s->version;
	uint8_t want = s->cfg.port_width;
	unsigned int fam = 3; /* older: 16-bit port, no HOST_MODE */
	uint8_t max = 2;

	if (v >= SDHI_VER_GEN3_SD)
		fam = 0;
	else if (v == SDHI_VER_GEN2_SDR104)
		fam = 1;
	else if (v == SDHI_VER_GEN2_SDR50)
		fam = 2;
	if (fam < 3)
		max = 4;
	/* A 64-bit port needs 64-bit bus accesses and registers 8 bytes apart (Linux
	   renesas_sdhi_enable_dma: "Iff regs are 8 byte apart, sdbuf is 64 bit"). */
	if (fam == 0 && s->cfg.bus.bus_shift == 2 && s->cfg.bus.ops->read64 != NULL &&
	    s->cfg.bus.ops->write64 != NULL)
		max = 8;
	if (want == 0)
		want = max;
	if (want > max)
		return MMCHAL_ENOTSUP;
	s->port_width = want;
	/* want is 2, 4 or 8 (setup): index 0, 1, 2 */
	s->host_mode = host_modes[fam][want >> 2];
	return 0;
}

int mmchal_sdhi_probe_(void *ctx)
{
	struct mmchal_sdhi *s = ctx;
	int rc;

	if (s == NULL)
		return MMCHAL_EINVAL;
	s->probed = false;
	reset_pulse(s);
	s->version = rd16(s, SDHI_VERSION);
	/* Internal DMAC from IP version 0x10 (REFERENCE.md, versions). */
	if (SDHI_IS_IDMAC_(s) && (s->version & 0xffu) < SDHI_VER_IP_DMAC)
		return MMCHAL_ENOTSUP;
	/* The 32-bit counter takes the 4 bytes at 0x0a << bus_shift. At bus_shift 0
	   (a window of 0x100 bytes) they would be SD_SECCNT and SD_RSP10, and one
	   32-bit access there is unaligned, which a device bus may fault: such a
	   controller counts 16 bits, whatever its VERSION reads. */
	s->cnt_bits = s->version >= SDHI_VER_GEN2_SDR104 && s->cfg.bus.bus_shift != 0 ? 32 : 16;
	/* 0x490c has no command-busy bit (Linux drops TMIO_MMC_HAVE_CBSY there). */
	s->have_cbsy = s->version != SDHI_VER_GEN2_SDR50;
	rc = select_port(s);
	if (rc)
		return rc;
	s->wide = s->cfg.bus.bus_shift == 2;
	s->clk_ctrl = SDHI_CLK_DIV512;
	s->option = SDHI_OPT_ALWAYS1 | (SDHI_OPT_TOP_MAX << SDHI_OPT_TOP_SHIFT) | SDHI_OPT_WIDTH1;
	s->if_mode = 0;
	s->sdio_mode = 0;
	/* HOST_MODE 0 is a real setting on 0xcb0d and later: always write it there. */
	restore(s, s->version >= SDHI_VER_GEN2_SDR104 || s->version == SDHI_VER_GEN2_SDR50);
	ack(s, SDHI_ST_LATCHED);
	s->present = cd_usable(s) ? (rd_status(s) & SDHI_ST_CD) != 0 : true;
	if (SDHI_DMA_BUILT && SDHI_HAS_ENG_(s))
		SDHI_ENG_(s, probe)(s);
	end_xfer(s);
	s->probed = true;
	return 0;
}

int mmchal_sdhi_get_caps_(void *ctx, struct mmchal_host_caps *host, struct mmchal_dma_caps *dma)
{
	struct mmchal_sdhi *s = ctx;
	uint32_t cnt_max, fmax;

	if (s == NULL || host == NULL || dma == NULL || !s->probed)
		return MMCHAL_EINVAL;
	*host = s->cfg.caps;
	host->merge_capable = (s->flags & MMCHAL_SDHI_F_MERGE) && SDHI_IS_IDMAC_(s);
	host->blk_count_bits = s->cnt_bits;
	cnt_max = s->cnt_bits == 32 ? 0xffffffffu : 0xffffu;
	host->max_blk_count = s->cfg.soc->max_blk_count < cnt_max ? s->cfg.soc->max_blk_count
								  : cnt_max;
	host->max_blk_size = 512;
	/* "All SDHI support HW busy detection" (Linux MMC_CAP_WAIT_WHILE_BUSY); CMD23 and
	   automatic CMD12 are in every of_data. */
	host->bus |= MMCHAL_BUS_CMD23 | MMCHAL_BUS_AUTO_CMD12 | MMCHAL_BUS_HW_BUSY;
	if (!(s->flags & MMCHAL_SDHI_F_HS400))
		host->bus &= ~MMCHAL_BUS_HS400;
	host->f_min_hz = s->cfg.clk_hz / 512u;
	fmax = s->cfg.clk_hz;
	if (!(s->flags & MMCHAL_SDHI_F_CLK_DIV1))
		fmax /= 2u;
	if (host->f_max_hz == 0 || host->f_max_hz > fmax)
		host->f_max_hz = fmax;
	memset(dma, 0, sizeof(*dma));
	dma->kind = MMCHAL_DMA_NONE;
	if (SDHI_DMA_BUILT && SDHI_HAS_ENG_(s))
		SDHI_ENG_(s, caps)(s, dma);
	return 0;
}

/* ------------------------------------------------------------------------ bus settings */

/* The card clock of a divider code that divider() chose (or probe's 1/512): code
   1 << n divides by 4 << n, that is by 4 * code. */
static uint32_t card_clock(const struct mmchal_sdhi *s, uint16_t clk_ctrl)
{
	uint32_t div = clk_ctrl & SDHI_CLK_DIV_MASK;

	if (div == SDHI_CLK_DIV1)
		return s->cfg.clk_hz;
	if (div == 0)
		return s->cfg.clk_hz / 2u;
	return s->cfg.clk_hz / (4u * div);
}

/*
 * The smallest divider whose clock does not exceed @p hz: 1/1 (code 0xff, where the
 * SoC has it), 1/2 (code 0), 1/4 .. 1/512 (codes 1 << 0 .. 1 << 7). The clock is
 * never 0 (setup refuses it), so f <= 2^m * hz is (f - 1) >> m < hz: no 64-bit product.
 */
static int divider(const struct mmchal_sdhi *s, uint32_t hz, uint16_t *code)
{
	uint32_t f = s->cfg.clk_hz;

	if ((s->flags & MMCHAL_SDHI_F_CLK_DIV1) && f <= hz) {
		*code = SDHI_CLK_DIV1;
		return 0;
	}
	for (unsigned int m = 1; m <= 9; m++) {
		if (((f - 1u) >> m) < hz) {
			*code = (uint16_t)((1u << m) >> 2);
			return 0;
		}
	}
	return MMCHAL_ERANGE;
}

static int set_clock(struct mmchal_sdhi *s, uint32_t hz)
{
	uint16_t code, val;
	int rc;

	if (hz == 0) {
		val = (uint16_t)(s->clk_ctrl & ~SDHI_CLK_ENABLE);
	} else {
		rc = divider(s, hz, &code);
		if (rc)
			return rc;
		val = (uint16_t)(code | SDHI_CLK_ENABLE);
	}
	if (val == s->clk_ctrl)
		return 0;
	/* Stop the clock, change the divider, start it again (Linux renesas_sdhi_set_clock,
	   U-Boot tmio_sd_set_clk_rate: no glitch while the divider changes). No request is
	   in flight here; neither driver waits for INFO2 bit 29 first, and a card holding
	   DAT0 low must not keep the host from slowing down for its recovery. */
	if (s->clk_ctrl & SDHI_CLK_ENABLE)
		wr16(s, SDHI_CLK_CTRL, (uint16_t)(s->clk_ctrl & ~SDHI_CLK_ENABLE));
	if (val & SDHI_CLK_ENABLE)
		wr16(s, SDHI_CLK_CTRL, (uint16_t)(val & ~SDHI_CLK_ENABLE));
	wr16(s, SDHI_CLK_CTRL, val);
	s->clk_ctrl = val;
	return 0;
}

/* The DDR timings, as a set of ::mmchal_timing bits. */
#define SDHI_TIMING_DDR                                                      \
	((1u << MMCHAL_TIMING_MMC_HS400) | (1u << MMCHAL_TIMING_MMC_DDR52) | \
	 (1u << MMCHAL_TIMING_UHS_DDR50))

int mmchal_sdhi_set_ios_(void *ctx, const struct mmchal_ios *ios)
{
	struct mmchal_sdhi *s = ctx;
	uint16_t width;

	if (s == NULL || ios == NULL || !s->probed)
		return MMCHAL_EINVAL;
	switch (ios->bus_width) {
	case MMCHAL_BUS_WIDTH_1:
		width = SDHI_OPT_WIDTH1;
		break;
	case MMCHAL_BUS_WIDTH_4:
		width = 0;
		break;
	case MMCHAL_BUS_WIDTH_8:
		width = SDHI_OPT_WIDTH8;
		break;
	default:
		return MMCHAL_EINVAL;
	}
	if ((unsigned int)ios->timing > MMCHAL_TIMING_MMC_HS400 ||
	    (unsigned int)ios->power_mode > MMCHAL_POWER_ON ||
	    (unsigned int)ios->signal_voltage > MMCHAL_SIGNAL_120)
		return MMCHAL_EINVAL;
	if (ios->timing == MMCHAL_TIMING_MMC_HS400 && !(s->flags & MMCHAL_SDHI_F_HS400))
		return MMCHAL_ENOTSUP;
	if (s->state)
		return MMCHAL_EBUSY;
	wr16_cached(s, SDHI_OPTION, &s->option,
		    (uint16_t)((s->option & ~(SDHI_OPT_WIDTH1 | SDHI_OPT_WIDTH8)) | width));
	/* DDR data needs IF_MODE bit 0 in every DDR mode (U-Boot; Linux uses only HS400);
	   the timing is in range here. */
	wr16_cached(s, SDHI_IF_MODE, &s->if_mode,
		    ((1u << ios->timing) & SDHI_TIMING_DDR) ? SDHI_IF_DDR : 0);
	return set_clock(s, ios->power_mode == MMCHAL_POWER_OFF ? 0 : ios->clock_hz);
}

/*
 * SD_OPTION bits 7:4: the shortest window 2^(13+n) card clocks not below @p ns, that
 * is not below ns * (kHz) / 10^6 + 1 clocks; with P = ns * kHz that is
 * P < 10^6 * 2^(13+n), compared without a 64-bit division.
 */
static uint16_t timeout_bits(const struct mmchal_sdhi *s, uint32_t ns)
{
	uint64_t p, lim = 1000000ull << 13;
	unsigned int n = 0;

	if (ns == 0)
		ns = s->cfg.data_timeout_ns;
	if (ns == 0 || !(s->clk_ctrl & SDHI_CLK_ENABLE))
		return SDHI_OPT_TOP_MAX;
	p = (uint64_t)ns * (card_clock(s, s->clk_ctrl) / 1000u);
	while (n < SDHI_OPT_TOP_MAX && lim <= p) {
		lim <<= 1;
		n++;
	}
	return (uint16_t)n;
}

/* ------------------------------------------------------------------------ requests */

/*
 * SD_CMD bits 10:8 (the response type) per response flags, indexed by PRESENT, 136,
 * CRC and BUSY (flag bits 3:0): none without PRESENT, else R2 with 136, else R1b with
 * BUSY, else R1 with CRC, else R3 (R3/R4: no CRC, no index). One load instead of a
 * chain of tests.
 */
_Static_assert(MMCHAL_RSP_PRESENT == 1u && MMCHAL_RSP_136 == 2u && MMCHAL_RSP_CRC == 4u &&
		       MMCHAL_RSP_BUSY == 8u,
	       "rsp_codes[] is indexed by these four flags");
#define RSP_(type) ((uint8_t)(SDHI_CMD_RSP_##type >> 8))
static const uint8_t rsp_codes[] = {
	/* BUSY 0, CRC 0 */ RSP_(NONE), RSP_(R3),  RSP_(NONE), RSP_(R2),
	/* BUSY 0, CRC 1 */ RSP_(NONE), RSP_(R1),  RSP_(NONE), RSP_(R2),
	/* BUSY 1, CRC 0 */ RSP_(NONE), RSP_(R1B), RSP_(NONE), RSP_(R2),
	/* BUSY 1, CRC 1 */ RSP_(NONE), RSP_(R1B), RSP_(NONE), RSP_(R2),
};
#undef RSP_

static uint16_t rsp_code(uint32_t flags)
{
	return (uint16_t)(rsp_codes[flags & 0xfu] << 8);
}

SDHI_NOINLINE_ static int check_data(struct mmchal_sdhi *s, const struct mmchal_xfer *x)
{
	const struct mmchal_data *d = x->data;
	uint64_t total, sum = 0;

	if (d->blksz == 0 || d->blksz > 512u || d->blocks == 0)
		return MMCHAL_EINVAL;
	if (d->dir != MMCHAL_DIR_TO_CARD && d->dir != MMCHAL_DIR_FROM_CARD)
		return MMCHAL_EINVAL;
	if (s->cnt_bits == 16 && d->blocks > 0xffffu)
		return MMCHAL_EINVAL;
	total = (uint64_t)d->blksz * d->blocks;
	if (x->plan == MMCHAL_PLAN_PIO) {
		if (d->sg == NULL || d->sg_len == 0)
			return MMCHAL_EINVAL;
		for (uint32_t i = 0; i < d->sg_len; i++) {
			if (d->sg[i].cpu == NULL || d->sg[i].len == 0)
				return MMCHAL_EINVAL;
			sum += d->sg[i].len;
		}
		return sum == total ? 0 : MMCHAL_EINVAL;
	}
	if (!SDHI_DMA_BUILT || (unsigned int)x->plan >= MMCHAL_PLAN_COUNT || !SDHI_HAS_ENG_(s) ||
	    x->segs == NULL || x->nsegs == 0)
		return MMCHAL_EINVAL;
	for (uint32_t i = 0; i < x->nsegs; i++) {
		if (x->segs[i].len == 0)
			return MMCHAL_EINVAL;
		sum += x->segs[i].len;
	}
	if (sum != total)
		return MMCHAL_EINVAL;
	return SDHI_ENG_(s, check)(s, x);
}

static bool multi_block(const struct mmchal_xfer *x)
{
	/* CMD18 / CMD25 stay multi-block commands even for one block. */
	return x->data->blocks > 1 || x->cmd->opcode == 18 || x->cmd->opcode == 25;
}

int mmchal_sdhi_start_(void *ctx, const struct mmchal_xfer *x)
{
	struct mmchal_sdhi *s = ctx;
	struct mmchal_cmd *cmd;
	struct mmchal_data *d;
	uint32_t state;
	uint16_t c, stop = 0;
	int rc;

	if (s == NULL || x == NULL || x->cmd == NULL || !s->probed || x->cmd->opcode > 63u)
		return MMCHAL_EINVAL;
	if (s->state)
		return MMCHAL_EBUSY;
	/* Refused without a command on the bus while no card is seen; the card-detect
	   level is read again so that a caller that does not poll idle interrupts sees
	   a new card. */
	if (!s->present) {
		if (!cd_usable(s) || !(rd16(s, SDHI_INFO1) & SDHI_ST_CD))
			return MMCHAL_ENOMEDIUM;
		s->present = true;
	}
	/* The phase bits are built in state and stored once, before the command goes
	   out: neither check_data() nor the engine's check and arm read them. */
	cmd = x->cmd;
	d = x->data;
	c = (uint16_t)(cmd->opcode | rsp_code(cmd->flags));
	state = SDHI_S_CMD;
	if (cmd->flags & MMCHAL_RSP_BUSY)
		state |= SDHI_S_R1B;
	cmd->error = 0;
	if (d != NULL) {
		rc = check_data(s, x);
		if (rc)
			return rc;
		d->error = 0;
		d->bytes_xfered = 0;
		c |= SDHI_CMD_DATA;
		state |= SDHI_S_DATA;
		if (d->dir == MMCHAL_DIR_FROM_CARD) {
			c |= SDHI_CMD_READ;
			state |= SDHI_S_READ;
		}
		if (multi_block(x)) {
			c |= SDHI_CMD_MULTI;
			stop = SDHI_STOP_SEC;
			if (x->auto_stop) {
				state |= SDHI_S_AUTO_STOP;
				s->stop_cmd = x->stop;
				if (x->stop != NULL)
					x->stop->error = 0;
			} else {
				c |= SDHI_CMD_NO_AUTO12;
			}
		}
		/* blksz <= 512 (check_data): the cast keeps it */
		wr16_cached(s, SDHI_SIZE, &s->size, (uint16_t)d->blksz);
		/* SD_SECCNT counts only with SD_STOP.SEC; a single-block command needs none.
		   The 32-bit counter is one 32-bit access (Linux sd_ctrl_write32). */
		if (stop) {
			if (s->cnt_bits == 32)
				wr32_one(s, SDHI_SECCNT, d->blocks);
			else
				wr16(s, SDHI_SECCNT, (uint16_t)d->blocks);
		}
		wr16_cached(s, SDHI_STOP, &s->stop, stop);
		wr16_cached(s, SDHI_OPTION, &s->option,
			    (uint16_t)((s->option & ~SDHI_OPT_TOP_MASK) |
				       (timeout_bits(s, d->timeout_ns) << SDHI_OPT_TOP_SHIFT)));
		s->data = d;
		s->blocks_done = 0;
		s->sg_idx = 0;
		s->sg_off = 0;
		rc = 1;
		if (SDHI_DMA_BUILT && x->plan != MMCHAL_PLAN_PIO) {
			rc = SDHI_ENG_(s, arm)(s, x);
			if (rc < 0) {
				end_xfer(s);
				return rc;
			}
			if (rc != 1) /* 1: the engine refused this one, PIO for it alone */
				state |= SDHI_S_DMA;
		}
		/* Without an engine rc is 1 here and the DMA enable is off (setup and restore()
		   clear it, only this call sets it): the call would return at once. */
		if (SDHI_DMA_BUILT)
			mmchal_sdhi_dma_mode_(s, rc == 0);
	}
	s->state = state;
	s->cmd = cmd;
	if (MMCHAL_WITH_STATS)
		s->stats.requests++;
	wr_arg(s, cmd->arg);
	wr16(s, SDHI_CMD, c);
	return 0;
}

static int cmd_error(uint32_t st)
{
	if (st & SDHI_ST_CMD_TO)
		return MMCHAL_ETIMEDOUT;
	if (st & (SDHI_ST_CRC | SDHI_ST_END_BIT | SDHI_ST_CMD_IDX | SDHI_ST_ILL_ACCESS))
		return MMCHAL_EIO;
	return 0;
}

static int data_error(uint32_t st)
{
	/* With automatic CMD12 a response timeout of that CMD12 ends the phase too. */
	if (st & (SDHI_ST_DATA_TO | SDHI_ST_CMD_TO))
		return MMCHAL_ETIMEDOUT;
	if (st & (SDHI_ST_CRC | SDHI_ST_END_BIT | SDHI_ST_OVERFLOW | SDHI_ST_UNDERRUN |
		  SDHI_ST_ILL_ACCESS))
		return MMCHAL_EIO;
	return 0;
}

static void read_response(struct mmchal_sdhi *s, struct mmchal_cmd *cmd)
{
	if (cmd->flags & MMCHAL_RSP_136) {
		/* The registers hold bits 127:8 right-aligned (no CRC byte): shift by 8.
		   SD_RSP10 (bits 39:8) first, into resp[3]; each word takes the top byte of
		   the register read before it. */
		uint32_t prev = 0;

		for (unsigned int i = 0; i < 4u; i++) {
			uint32_t r = rd_rsp(s, SDHI_RSP10 + 4u * i);

			cmd->resp[3u - i] = (r << 8) | (prev >> 24);
			prev = r;
		}
	} else if (cmd->flags & MMCHAL_RSP_PRESENT) {
		cmd->resp[0] = rd_rsp(s, SDHI_RSP10);
	}
}

/*
 * Blocks known to have completed. A PIO write counts a block when it goes into
 * the data buffer, but the card takes it only with a positive CRC status after
 * the block has left the buffer: until the access end, the last block written
 * is not known to be on the card (SD Physical Layer 7.3.3.1 / JEDEC 84-B51
 * 6.15: a write block is acknowledged by its CRC status token).
 */
static uint32_t known_blocks(const struct mmchal_sdhi *s)
{
	uint32_t n = s->blocks_done;

	if (s->data != NULL && (s->state & SDHI_S_DATA) &&
	    !(s->state & (SDHI_S_READ | SDHI_S_DMA_BUILT | SDHI_S_ACC_END)) && n > 0)
		n--;
	return n;
}

/* After an error or an abort: what is known to have completed, in bytes too. */
static void settle(struct mmchal_sdhi *s)
{
	s->blocks_done = known_blocks(s);
	s->data->bytes_xfered = s->blocks_done * s->data->blksz;
}

/* Fail the xfer with @p err; returns the events that report it. */
static uint32_t fail(struct mmchal_sdhi *s, int err)
{
	uint32_t ev = 0;

	if (s->state & SDHI_S_CMD) {
		s->cmd->error = err;
		ev = MMCHAL_EV_CMD_ERROR;
	}
	if (s->data != NULL) {
		settle(s);
		s->data->error = err;
		if (!(s->state & SDHI_S_CMD))
			ev = MMCHAL_EV_DATA_ERROR;
	}
	/* Only an engine reports MMCHAL_EFAULT (through dma_progress()); the other errors
	   that come here are ETIMEDOUT, EIO and ENOMEDIUM, so without an engine there is
	   no DMA error to count. */
	if (MMCHAL_WITH_STATS && SDHI_DMA_BUILT && err == MMCHAL_EFAULT)
		s->stats.dma_errors++;
	recover(s);
	return ev;
}

/* Command phase: completion and errors come in the same status. Returns the events. */
static uint32_t cmd_phase(struct mmchal_sdhi *s, uint32_t st)
{
	uint32_t ev = MMCHAL_EV_CMD_DONE;
	int err;

	if (!(st & (SDHI_ST_RSP_END | SDHI_ST_CMD_ERR | SDHI_ST_ILL_ACCESS)))
		return 0;
	err = cmd_error(st);
	if (err)
		return fail(s, err);
	read_response(s, s->cmd);
	s->state &= ~SDHI_S_CMD;
	if (s->state & SDHI_S_R1B) {
		/* Response end comes once the card released DAT0; DAT0 still low here means
		   a controller that did not wait: the busy end is then polled. */
		if (st & SDHI_ST_DAT0)
			ev |= MMCHAL_EV_BUSY_DONE;
		else
			s->state |= SDHI_S_BUSY_WAIT;
	}
	if (s->state & SDHI_S_DATA) {
		if (s->state & SDHI_S_DMA_BUILT)
			SDHI_ENG_(s, go)(s);
	} else if (!(s->state & SDHI_S_BUSY_WAIT)) {
		end_xfer(s);
	}
	return ev;
}

/* Idle after a write: INFO2 bit 29 with the idle wait, else command busy clear (Linux
   tmio_mmc_data_irq); a controller with neither is taken as idle. */
SDHI_NOINLINE_ static bool bus_idle(const struct mmchal_sdhi *s, uint32_t st)
{
	if (s->flags & MMCHAL_SDHI_F_IDLE_WAIT)
		return st & SDHI_ST_SCLKDIVEN;
	if (s->have_cbsy)
		return !(st & SDHI_ST_CBSY);
	return true;
}

/*
 * With automatic CMD12 an error in the status may belong to that CMD12 alone:
 * SD_ERR_STS1/2 tell (separate bits for the CMD12 response, sdhi_regs.h). The
 * controller sends it only after the last block, so then every block went
 * through. Returns the STOP's error, or 0 when the error is the data phase's.
 */
static int auto_stop_error(const struct mmchal_sdhi *s)
{
	uint16_t e1 = (uint16_t)(rd16(s, SDHI_ERR_STS1) & SDHI_ERR1_ALL);
	uint16_t e2 = (uint16_t)(rd16(s, SDHI_ERR_STS2) & SDHI_ERR2_ALL);

	if ((e1 & ~SDHI_ERR1_A12) || (e2 & ~SDHI_ERR2_A12))
		return 0;
	if (e2 & SDHI_ERR2_A12)
		return MMCHAL_ETIMEDOUT;
	if (e1 & SDHI_ERR1_A12)
		return MMCHAL_EIO;
	return 0;
}

/* All blocks moved: account for them; returns the event that reports the end of the
   data phase. */
SDHI_NOINLINE_ static uint32_t data_complete(struct mmchal_sdhi *s)
{
	struct mmchal_data *d = s->data;

	s->blocks_done = d->blocks;
	d->bytes_xfered = d->blksz * d->blocks;
	return MMCHAL_EV_DATA_DONE;
}

/* A DMA data phase whose engine end was not seen yet: ask the engine. Returns its
   error, else 0; the engine end is then noted. */
static int dma_progress(struct mmchal_sdhi *s)
{
	int r;

	if (!(s->state & SDHI_S_DMA_BUILT) || (s->state & SDHI_S_DMA_END))
		return 0;
	r = SDHI_ENG_(s, poll)(s);
	if (r > 0) {
		s->state |= SDHI_S_DMA_END;
		r = 0;
	}
	return r;
}

/* The data went through but the automatic CMD12 failed: the STOP's error only.
   Returns the events. */
static uint32_t stop_failed(struct mmchal_sdhi *s, int err)
{
	int r = dma_progress(s);
	uint32_t ev;

	if (r < 0)
		return fail(s, r);
	ev = data_complete(s);
	s->stop_cmd->error = err;
	recover(s);
	return ev;
}

/* Data phase: returns the events. */
static uint32_t data_phase(struct mmchal_sdhi *s, uint32_t st)
{
	bool read = s->state & SDHI_S_READ;
	int err = data_error(st);
	uint32_t ev = 0;

	if (err && s->stop_cmd != NULL && (st & (SDHI_ST_CMD_TO | SDHI_ST_CRC | SDHI_ST_END_BIT))) {
		int se = auto_stop_error(s);

		if (se)
			return stop_failed(s, se);
	}

	if (!err && !(s->state & SDHI_S_DMA_BUILT) && (st & (read ? SDHI_ST_BRE : SDHI_ST_BWE)))
		err = mmchal_sdhi_pio_block_(s, read);
	if (!err)
		err = dma_progress(s);
	if (err)
		return fail(s, err);
	if (st & SDHI_ST_ACCESS_END) {
		/* A DMA write ends on an access end with the bus idle; if the card was still
		   busy, access end comes again (TMIO_MMC_HAS_IDLE_WAIT, Linux
		   tmio_mmc_data_irq, with or without automatic CMD12). A PIO write with
		   automatic CMD12 waits the same way: with hardware busy detection the data
		   phase ends after CMD12's busy (backend.h). */
		if (!read && (s->state & (SDHI_S_DMA_BUILT | SDHI_S_AUTO_STOP)) &&
		    !bus_idle(s, st) && !(s->state & SDHI_S_IDLE_WAIT))
			s->state |= SDHI_S_IDLE_WAIT;
		else
			s->state |= SDHI_S_ACC_END;
	} else if ((s->state & SDHI_S_IDLE_WAIT) && bus_idle(s, st)) {
		s->state |= SDHI_S_ACC_END;
	}
	if ((s->state & SDHI_S_ACC_END) &&
	    (!(s->state & SDHI_S_DMA_BUILT) || (s->state & SDHI_S_DMA_END))) {
		/* Through the port every block is counted as it moves: an access end before
		   the last one is a short transfer, never all blocks done (the caller's
		   buffer holds stale bytes where blocks did not arrive). */
		if (!(s->state & SDHI_S_DMA_BUILT) && s->blocks_done < s->data->blocks)
			return fail(s, MMCHAL_EIO);
		/* The automatic CMD12's R1 is in SD_RSP10 after the data end, where Linux
		   reads it (tmio_mmc_do_data_irq, "fill in response from auto CMD12"). */
		if (s->stop_cmd != NULL)
			s->stop_cmd->resp[0] = rd_rsp(s, SDHI_RSP10);
		ev = data_complete(s);
		end_xfer(s);
	}
	return ev;
}

int mmchal_sdhi_handle_irq_(void *ctx, uint32_t *events)
{
	struct mmchal_sdhi *s = ctx;
	uint32_t ev = 0, st, latched;

	if (s == NULL || events == NULL || !s->probed)
		return MMCHAL_EINVAL;
	st = rd_status(s);
	latched = st & SDHI_ST_LATCHED;
	if (latched)
		ack(s, latched);
	if (cd_usable(s)) {
		bool present = (st & SDHI_ST_CD) != 0;

		if ((latched & SDHI_ST_CARD) || present != s->present)
			ev |= MMCHAL_EV_CARD_CHANGE;
		s->present = present && !(latched & SDHI_ST_REMOVED);
	}
#if MMCHAL_WITH_SDIO
	if (s->sdio_mode && (rd16(s, SDHI_SDIO_INFO1) & 1u)) {
		/*
		 * The card holds its interrupt until the cause is cleared with bus
		 * commands: report it once, with the interrupt off until
		 * enable_sdio_irq(true) (as Linux mmc_signal_sdio_irq turns the host's
		 * off), then acknowledge IOIRQ so that it cannot come back meanwhile.
		 */
		s->sdio_mode = 0;
		write_sdio(s);
		wr16(s, SDHI_SDIO_INFO1, 0xfffeu);
		ev |= MMCHAL_EV_SDIO_IRQ;
	}
#endif
	if (s->state && !s->present) {
		ev |= fail(s, MMCHAL_ENOMEDIUM);
	} else {
		/* The data phase is looked at in the call that saw the response only when
		   this status already carries data events: the engine was just started. */
		bool data_running = !(s->state & SDHI_S_CMD) ||
				    (st & (SDHI_ST_ACCESS_END | SDHI_ST_PIO | SDHI_ST_DATA_TO));

		if (s->state & SDHI_S_CMD)
			ev |= cmd_phase(s, st);
		else if ((s->state & SDHI_S_BUSY_WAIT) && !(s->state & SDHI_S_DATA) &&
			 (st & SDHI_ST_DAT0)) {
			ev |= MMCHAL_EV_BUSY_DONE;
			end_xfer(s);
		}
		if ((s->state & SDHI_S_DATA) && !(s->state & SDHI_S_CMD) && data_running)
			ev |= data_phase(s, st);
	}
	*events = ev;
	return 0;
}

int mmchal_sdhi_abort_(void *ctx)
{
	struct mmchal_sdhi *s = ctx;

	if (s == NULL || !s->probed)
		return MMCHAL_EINVAL;
	if (s->data != NULL)
		settle(s);
	recover(s);
	return 0;
}

/* One status level of a probed controller: 1 when bit @p bit of @p reg reads as
   @p level, else 0. */
static int status_level(const struct mmchal_sdhi *s, uint32_t reg, uint16_t bit, uint16_t level)
{
	if (s == NULL || !s->probed)
		return MMCHAL_EINVAL;
	return (rd16(s, reg) & bit) == level;
}

int mmchal_sdhi_card_busy_(void *ctx)
{
	/* INFO2 bit 23 is the DAT0 level: low while the card is busy. */
	return status_level(ctx, SDHI_INFO2, SDHI_ST_DAT0 >> 16, 0);
}

int mmchal_sdhi_get_cd_(void *ctx)
{
	const struct mmchal_sdhi *s = ctx;

	if (s != NULL && s->probed && (s->cfg.caps.bus & MMCHAL_BUS_NONREMOVABLE))
		return 1;
	return status_level(s, SDHI_INFO1, SDHI_ST_CD, SDHI_ST_CD);
}

int mmchal_sdhi_get_ro_(void *ctx)
{
	/* INFO1 bit 7 is 1 while the card is writable (Linux tmio get_ro inverts it). */
	return status_level(ctx, SDHI_INFO1, SDHI_ST_WP, 0);
}

int mmchal_sdhi_blocks_done_(void *ctx, uint32_t *blocks)
{
	struct mmchal_sdhi *s = ctx;

	if (s == NULL || blocks == NULL)
		return MMCHAL_EINVAL;
	*blocks = known_blocks(s);
	return 0;
}

#if MMCHAL_WITH_SDIO
int mmchal_sdhi_enable_sdio_irq_(void *ctx, bool enable)
{
	struct mmchal_sdhi *s = ctx;

	if (s == NULL || !s->probed)
		return MMCHAL_EINVAL;
	s->sdio_mode = enable ? 1u : 0u;
	write_sdio(s);
	return 0;
}
#endif

/* ------------------------------------------------------------------------ init */

int mmchal_sdhi_setup_(struct mmchal_sdhi *s, const struct mmchal_sdhi_cfg *cfg,
		       enum mmchal_sdhi_kind kind, const struct mmchal_sdhi_engine *eng,
		       const struct mmchal_backend_ops *ops, struct mmchal_backend *out)
{
	if (s == NULL || cfg == NULL || out == NULL || cfg->soc == NULL || cfg->clk_hz == 0)
		return MMCHAL_EINVAL;
	if (mmchal_bus_check(&cfg->bus) != 0)
		return MMCHAL_EINVAL;
	if (cfg->port_width != 0 && cfg->port_width != 2 && cfg->port_width != 4 &&
	    cfg->port_width != 8)
		return MMCHAL_EINVAL;
	if (cfg->port != NULL && mmchal_port_check(cfg->port) != 0)
		return MMCHAL_EINVAL;
	if ((unsigned int)cfg->rev > MMCHAL_SDHI_REV_M3W_LATER)
		return MMCHAL_EINVAL;
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->kind = kind;
	s->eng = eng;
	s->flags = cfg->soc->flags | cfg->extra_flags | mmchal_sdhi_rev_flags(cfg->rev);
	out->ops = ops;
	out->ctx = s;
	return 0;
}

int mmchal_sdhi_get_stats(const struct mmchal_sdhi *sdhi, struct mmchal_sdhi_stats *out)
{
	if (sdhi == NULL || out == NULL)
		return MMCHAL_EINVAL;
	/* A library without counters (MMCHAL_WITH_STATS 0) never counts: all zero. */
	*out = sdhi->stats;
	return MMCHAL_WITH_STATS ? 0 : MMCHAL_ENOTSUP;
}

int mmchal_sdhi_init(struct mmchal_sdhi *sdhi, const struct mmchal_sdhi_cfg *cfg,
		     struct mmchal_backend *out)
{
	/* NULL storage is refused here too: a library without the chosen
	   backend must not answer MMCHAL_ENOTSUP to a NULL argument. */
	if (sdhi == NULL || out == NULL || cfg == NULL || cfg->soc == NULL)
		return MMCHAL_EINVAL;
	switch (cfg->soc->kind) {
	case MMCHAL_SDHI_IDMAC:
#if MMCHAL_WITH_BACKEND_SDHI_IDMAC
		return mmchal_sdhi_idmac_init(sdhi, cfg, out);
#else
		return MMCHAL_ENOTSUP;
#endif
	case MMCHAL_SDHI_SYSDMAC:
		if (cfg->chan[0].ops != NULL && cfg->chan[1].ops != NULL) {
#if MMCHAL_WITH_BACKEND_SDHI_SYSDMAC
			return mmchal_sdhi_sysdmac_init(sdhi, cfg, out);
#else
			return MMCHAL_ENOTSUP;
#endif
		}
		break;
	case MMCHAL_SDHI_PIO:
		break;
	default:
		return MMCHAL_EINVAL;
	}
#if MMCHAL_WITH_BACKEND_PIO
	return mmchal_sdhi_pio_init(sdhi, cfg, out);
#else
	return MMCHAL_ENOTSUP;
#endif
}
