/**
 * @file
 * @brief Generic SD Host Controller backend (SD Host Controller Simplified
 *        Specification v3.00; also v1.00/v2.00 controllers and v4 controllers
 *        left in their v3-compatible register layout).
 *
 * Locking: every op runs with the host lock held by the core (probe before
 * the host is live); the backend keeps no state outside ::mmchal_sdhci.
 * Waits (reset, clock stable, command inhibit) are bounded busy waits on the
 * port clock.
 */
#include <mmchal/sdhci.h>

#include "core/mem.h"
#include "sdhci_regs.h"

#define NS_PER_US 1000ull
#define NS_PER_MS 1000000ull

/* Bounded waits. Reset and clock stabilisation: the spec gives no figure; Linux
   sdhci.c allows 100 ms for a reset and 150 ms for the internal clock. */
#define SDHCI_RESET_TIMEOUT_NS   (100ull * NS_PER_MS)
#define SDHCI_CLOCK_TIMEOUT_NS   (150ull * NS_PER_MS)
/* A command waits at most this long for the inhibit bits of the previous one. */
#define SDHCI_INHIBIT_TIMEOUT_NS (1ull * NS_PER_MS)

/* How often one handle_irq call re-reads the status before returning (Linux: 16). */
#define SDHCI_IRQ_LOOPS 16

static uint16_t rd16(const struct mmchal_sdhci *h, uint32_t off)
{
	return mmchal_bus_rd16(&h->cfg.bus, off);
}

static void wr16(const struct mmchal_sdhci *h, uint32_t off, uint16_t val)
{
	mmchal_bus_wr16(&h->cfg.bus, off, val);
}

static uint32_t rd32(const struct mmchal_sdhci *h, uint32_t off)
{
	return mmchal_bus_raw_rd32(&h->cfg.bus, off);
}

static void wr32(const struct mmchal_sdhci *h, uint32_t off, uint32_t val)
{
	mmchal_bus_raw_wr32(&h->cfg.bus, off, val);
}

static uint64_t now_ns(const struct mmchal_sdhci *h)
{
	return h->cfg.port->ops->now_ns(h->cfg.port->ctx);
}

static uint32_t desc_size(enum mmchal_sdhci_dma mode)
{
	return mode == MMCHAL_SDHCI_DMA_ADMA2_64 ? MMCHAL_SDHCI_ADMA2_64_DESC_SIZE
						 : MMCHAL_SDHCI_ADMA2_32_DESC_SIZE;
}

static bool is_adma(enum mmchal_sdhci_dma mode)
{
	return mode == MMCHAL_SDHCI_DMA_ADMA2_32 || mode == MMCHAL_SDHCI_DMA_ADMA2_64;
}

/* ------------------------------------------------------------------ resets */

/*
 * One line per write: the reset register takes the bits of the lines to reset,
 * and some controllers (QEMU's among them) act only on a single bit, so a
 * combined CMD|DAT write would reset nothing there. The timeout control byte
 * shares the 16-bit access and is written back unchanged.
 */
static int reset_line(struct mmchal_sdhci *h, uint8_t line)
{
	uint16_t tmo = rd16(h, SDHCI_TIMEOUT_CONTROL) & 0x00ffu;
	uint16_t bit = (uint16_t)(line << SDHCI_RESET_SHIFT);
	uint64_t start = now_ns(h);

	wr16(h, SDHCI_TIMEOUT_CONTROL, (uint16_t)(tmo | bit));
	while (rd16(h, SDHCI_TIMEOUT_CONTROL) & bit) {
		if (now_ns(h) - start > SDHCI_RESET_TIMEOUT_NS)
			return MMCHAL_ETIMEDOUT;
		h->cfg.port->ops->delay_us(h->cfg.port->ctx, 10);
	}
	return 0;
}

static int reset_cmd_dat(struct mmchal_sdhci *h)
{
	int r1 = reset_line(h, SDHCI_RESET_CMD);
	int r2 = reset_line(h, SDHCI_RESET_DATA);

	return r1 ? r1 : r2;
}

/* ------------------------------------------------------------ interrupts */

static uint32_t irq_mask(const struct mmchal_sdhci *h)
{
	uint32_t en = SDHCI_INT_CMD_DONE | SDHCI_INT_XFER_DONE | SDHCI_INT_DMA | SDHCI_INT_BUF_WR |
		      SDHCI_INT_BUF_RD | ((uint32_t)SDHCI_INT_ERR_ENABLE << 16);

	if (!(h->cfg.flags & (MMCHAL_SDHCI_F_NONREMOVABLE | MMCHAL_SDHCI_F_BROKEN_CD)))
		en |= SDHCI_INT_CARD_INSERT | SDHCI_INT_CARD_REMOVE;
	return en | h->irq_enable;
}

static void irq_program(struct mmchal_sdhci *h)
{
	uint32_t en = irq_mask(h);

	wr32(h, SDHCI_INT_ENABLE, en);
	wr32(h, SDHCI_SIGNAL_ENABLE, (h->cfg.flags & MMCHAL_SDHCI_F_IRQ) ? en : 0);
}

/* ------------------------------------------------------------------ probe */

static uint32_t max_blk_size(const struct mmchal_sdhci *h)
{
	uint32_t f = (h->caps0 >> SDHCI_CAP_MAX_BLK_SHIFT) & SDHCI_CAP_MAX_BLK_MASK;

	/* 3 is reserved; read it as the 512 bytes every controller has. */
	return f == 3 ? 512u : 512u << f;
}

static int resolve_dma(struct mmchal_sdhci *h)
{
	bool adma = (h->caps0 & SDHCI_CAP_ADMA2) && h->spec >= SDHCI_SPEC_200;
	bool bus64 = (h->caps0 & SDHCI_CAP_64BIT) != 0;
	bool sdma = (h->caps0 & SDHCI_CAP_SDMA) != 0;
	uint32_t size = h->cfg.adma_table ? h->cfg.adma_table_size : 0;
	enum mmchal_sdhci_dma mode = h->cfg.dma;

	if (mode == MMCHAL_SDHCI_DMA_AUTO) {
		if (adma && bus64 && size >= MMCHAL_SDHCI_ADMA2_64_DESC_SIZE)
			mode = MMCHAL_SDHCI_DMA_ADMA2_64;
		else if (adma && size >= MMCHAL_SDHCI_ADMA2_32_DESC_SIZE &&
			 h->cfg.adma_table_dma + size - 1u <= 0xffffffffull)
			mode = MMCHAL_SDHCI_DMA_ADMA2_32;
		else if (sdma)
			mode = MMCHAL_SDHCI_DMA_SDMA;
		else
			mode = MMCHAL_SDHCI_DMA_NONE;
	}
	switch (mode) {
	case MMCHAL_SDHCI_DMA_NONE:
		h->max_segs = 0;
		break;
	case MMCHAL_SDHCI_DMA_SDMA:
		if (!sdma)
			return MMCHAL_ENOTSUP;
		h->max_segs = 1;
		break;
	case MMCHAL_SDHCI_DMA_ADMA2_32:
	case MMCHAL_SDHCI_DMA_ADMA2_64:
		if (!adma || (mode == MMCHAL_SDHCI_DMA_ADMA2_64 && !bus64))
			return MMCHAL_ENOTSUP;
		if (size < desc_size(mode))
			return MMCHAL_EINVAL;
		/* The 32-bit mode has a 32-bit ADMA system address: the table sits below 4 GiB. */
		if (mode == MMCHAL_SDHCI_DMA_ADMA2_32 &&
		    h->cfg.adma_table_dma + size - 1u > 0xffffffffull)
			return MMCHAL_EINVAL;
		h->max_segs = size / desc_size(mode);
		break;
	default:
		return MMCHAL_EINVAL;
	}
	h->mode = mode;
	return 0;
}

static int sdhci_probe(void *ctx)
{
	struct mmchal_sdhci *h = ctx;
	uint16_t ver;
	uint32_t field;
	int ret;

	if (!h || !h->cfg.port)
		return MMCHAL_EINVAL;
	h->probed = false;
	ret = reset_line(h, SDHCI_RESET_ALL);
	if (ret)
		return ret;

	ver = rd16(h, SDHCI_HOST_VERSION);
	h->spec = (uint8_t)(ver & 0xffu);
	h->vendor = (uint8_t)(ver >> 8);
	h->caps0 = rd32(h, SDHCI_CAPS0);
	h->caps1 = h->spec >= SDHCI_SPEC_300 ? rd32(h, SDHCI_CAPS1) : 0;

	/* Base clock, MHz: bits 13:8 before v3.00, bits 15:8 from v3.00 on (2.2.25). */
	field = (h->caps0 >> SDHCI_CAP_BASE_SHIFT) &
		(h->spec >= SDHCI_SPEC_300 ? SDHCI_CAP_BASE_MASK_V3 : SDHCI_CAP_BASE_MASK_V2);
	h->base_hz = field ? field * 1000000u : h->cfg.base_clock_hz;
	if (h->base_hz == 0)
		return MMCHAL_EINVAL;

	field = h->caps0 & SDHCI_CAP_TMCLK_MASK;
	if (field)
		h->tmclk_hz = field * ((h->caps0 & SDHCI_CAP_TMCLK_MHZ) ? 1000000u : 1000u);
	else
		h->tmclk_hz = h->cfg.timeout_clock_hz;

	ret = resolve_dma(h);
	if (ret)
		return ret;

	h->clock_hz = 0;
	h->cmd = NULL;
	h->data = NULL;
	h->stop = NULL;
	h->busy_cmd = NULL;
	h->done_blocks = 0;
	h->irq_enable = 0;
	wr16(h, SDHCI_TIMEOUT_CONTROL, SDHCI_TIMEOUT_MAX);
	irq_program(h);
	wr32(h, SDHCI_INT_STATUS, 0xffffffffu);
	h->probed = true;
	return 0;
}

/* ------------------------------------------------------------------- caps */

static int sdhci_get_caps(void *ctx, struct mmchal_host_caps *host, struct mmchal_dma_caps *dma)
{
	const struct mmchal_sdhci *h = ctx;
	uint32_t width = h && h->cfg.bus_width ? h->cfg.bus_width : 4u;
	uint32_t bus = MMCHAL_BUS_CMD23 | MMCHAL_BUS_AUTO_CMD12 | MMCHAL_BUS_HW_BUSY |
		       MMCHAL_BUS_SDIO_IRQ;
	uint32_t div_max;

	if (!h || !h->probed || !host || !dma)
		return MMCHAL_EINVAL;

	if (width >= 4)
		bus |= MMCHAL_BUS_4_BIT;
	if (width == 8 && (h->caps0 & SDHCI_CAP_8BIT))
		bus |= MMCHAL_BUS_8_BIT;
	if ((h->caps0 & SDHCI_CAP_HS) && !(h->cfg.flags & MMCHAL_SDHCI_F_NO_HS))
		bus |= MMCHAL_BUS_SD_HS | MMCHAL_BUS_MMC_HS;
	/* UHS-I needs the 1.8 V switch of Host Control 2 (v3.00). SDR104, HS200 and
	   SDR50-with-tuning need tuning, which this backend does not do. */
	if (h->spec >= SDHCI_SPEC_300 && !(h->cfg.flags & MMCHAL_SDHCI_F_NO_1_8V) &&
	    (h->caps1 & (SDHCI_CAP1_SDR50 | SDHCI_CAP1_SDR104 | SDHCI_CAP1_DDR50))) {
		bus |= MMCHAL_BUS_1_8V | MMCHAL_BUS_UHS_SDR12 | MMCHAL_BUS_UHS_SDR25;
		if ((h->caps1 & SDHCI_CAP1_SDR50) && !(h->caps1 & SDHCI_CAP1_SDR50_TUNING))
			bus |= MMCHAL_BUS_UHS_SDR50;
		if (h->caps1 & SDHCI_CAP1_DDR50)
			bus |= MMCHAL_BUS_UHS_DDR50 | MMCHAL_BUS_MMC_DDR52;
	}
	/* Only the board knows: the Zynq-7000 reports an embedded slot (capabilities
	   0x69ec0080, bits 31:30 = 01) on boards with a removable, detected SD slot. */
	if (h->cfg.flags & MMCHAL_SDHCI_F_NONREMOVABLE)
		bus |= MMCHAL_BUS_NONREMOVABLE;
	if (h->cfg.flags & MMCHAL_SDHCI_F_BROKEN_CD)
		bus |= MMCHAL_BUS_BROKEN_CD;

	memset(host, 0, sizeof(*host));
	host->blk_count_bits = 16; /* the Block Count register is 16 bits wide */
	host->max_blk_size = max_blk_size(h);
	host->completion = (h->cfg.flags & MMCHAL_SDHCI_F_IRQ) ? MMCHAL_COMPLETES_IN_IRQ
							       : MMCHAL_COMPLETES_POLLED;
	host->bus = bus;
	/* Divided clock mode: base / 2N with a 10-bit N from v3.00, else base / 256 at most. */
	div_max = h->spec >= SDHCI_SPEC_300 ? 2046u : 256u;
	host->f_min_hz = (h->base_hz + div_max - 1u) / div_max;
	host->f_max_hz = h->base_hz;
	if (h->cfg.f_max_hz && h->cfg.f_max_hz < host->f_max_hz)
		host->f_max_hz = h->cfg.f_max_hz;

	memset(dma, 0, sizeof(*dma));
	if (h->mode == MMCHAL_SDHCI_DMA_NONE) {
		dma->kind = MMCHAL_DMA_NONE;
		return 0;
	}
	dma->kind = MMCHAL_DMA_INTERNAL;
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		struct mmchal_dma_dir_caps *c = &dma->dir[d];

		c->coherent = (h->cfg.flags & MMCHAL_SDHCI_F_COHERENT) != 0;
		/* ADMA2 data addresses are 32-bit aligned (1.13.4); the SDMA address is
		   held to the same rule so that one alignment serves both modes. */
		c->addr_align = 4;
		c->max_segs = h->max_segs;
		if (h->mode == MMCHAL_SDHCI_DMA_SDMA) {
			/* One segment that never reaches the buffer boundary: the DMA
			   interrupt at the boundary then never has to restart the engine. */
			c->addr_bits = 32;
			c->max_seg_size = MMCHAL_SDHCI_SDMA_BOUNDARY;
			c->seg_boundary = MMCHAL_SDHCI_SDMA_BOUNDARY - 1u;
			c->max_xfer = MMCHAL_SDHCI_SDMA_BOUNDARY;
		} else {
			c->addr_bits = h->mode == MMCHAL_SDHCI_DMA_ADMA2_64 ? 64 : 32;
			c->max_seg_size = MMCHAL_SDHCI_ADMA2_MAX_LEN;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- set_ios */

static int set_clock(struct mmchal_sdhci *h, uint32_t hz)
{
	uint16_t clk = rd16(h, SDHCI_CLOCK_CONTROL);
	uint32_t div, actual;
	uint64_t start;

	clk &= (uint16_t)~SDHCI_CLOCK_CARD_EN;
	wr16(h, SDHCI_CLOCK_CONTROL, clk);
	h->clock_hz = 0;
	if (hz == 0)
		return 0;

	if (h->spec >= SDHCI_SPEC_300) {
		/* 10-bit divided clock mode: f = base / 2N, N = 0 gives the base clock. */
		if (hz >= h->base_hz) {
			div = 0;
			actual = h->base_hz;
		} else {
			div = (uint32_t)(((uint64_t)h->base_hz + 2ull * hz - 1u) / (2ull * hz));
			if (div > 1023u)
				return MMCHAL_ERANGE;
			actual = h->base_hz / (2u * div);
		}
	} else {
		/* 8-bit mode: a power of two from 1 to 256; the register holds divisor / 2. */
		uint32_t d = 1;

		while (d < 256u && h->base_hz / d > hz)
			d <<= 1;
		if (h->base_hz / d > hz)
			return MMCHAL_ERANGE;
		div = d >> 1;
		actual = h->base_hz / d;
	}

	clk = (uint16_t)(((div & 0xffu) << SDHCI_DIV_LO_SHIFT) |
			 (((div & SDHCI_DIV_HI_MASK) >> 8) << SDHCI_DIV_HI_SHIFT) |
			 SDHCI_CLOCK_INT_EN);
	wr16(h, SDHCI_CLOCK_CONTROL, clk);
	start = now_ns(h);
	while (!(rd16(h, SDHCI_CLOCK_CONTROL) & SDHCI_CLOCK_INT_STABLE)) {
		if (now_ns(h) - start > SDHCI_CLOCK_TIMEOUT_NS)
			return MMCHAL_ETIMEDOUT;
		h->cfg.port->ops->delay_us(h->cfg.port->ctx, 10);
	}
	wr16(h, SDHCI_CLOCK_CONTROL, (uint16_t)(clk | SDHCI_CLOCK_CARD_EN));
	h->clock_hz = actual;
	return 0;
}

static int set_power(struct mmchal_sdhci *h, enum mmchal_power_mode mode)
{
	uint16_t hc = rd16(h, SDHCI_HOST_CONTROL);
	uint16_t volt;

	if (mode == MMCHAL_POWER_OFF) {
		wr16(h, SDHCI_HOST_CONTROL, (uint16_t)(hc & ~SDHCI_POWER_MASK));
		return 0;
	}
	/* The highest supported voltage; 1.8 V bus power exists only on embedded slots. */
	if (h->caps0 & SDHCI_CAP_330)
		volt = SDHCI_POWER_330;
	else if (h->caps0 & SDHCI_CAP_300)
		volt = SDHCI_POWER_300;
	else if (h->caps0 & SDHCI_CAP_180)
		volt = SDHCI_POWER_180;
	else
		return MMCHAL_ENOTSUP;
	if ((hc & SDHCI_POWER_MASK) == (volt | SDHCI_POWER_ON))
		return 0;
	/* Voltage first, then bus power (3.3 "SD Bus Power Control" sequence). */
	hc = (uint16_t)((hc & ~SDHCI_POWER_MASK) | volt);
	wr16(h, SDHCI_HOST_CONTROL, hc);
	wr16(h, SDHCI_HOST_CONTROL, (uint16_t)(hc | SDHCI_POWER_ON));
	/* The controller drops bus power when no card is inserted or the voltage is
	   not supported (2.2.11). */
	if (!(rd16(h, SDHCI_HOST_CONTROL) & SDHCI_POWER_ON))
		return (rd32(h, SDHCI_PRESENT_STATE) & SDHCI_PS_CARD_IN) ? MMCHAL_ENOTSUP
									 : MMCHAL_ENOMEDIUM;
	return 0;
}

static int timing_bits(const struct mmchal_sdhci *h, enum mmchal_timing t, bool *hs, uint16_t *uhs)
{
	uint32_t c1 = h->spec >= SDHCI_SPEC_300 ? h->caps1 : 0;

	*hs = true;
	*uhs = SDHCI_CTRL2_SDR12;
	switch (t) {
	case MMCHAL_TIMING_LEGACY:
		*hs = false;
		return 0;
	case MMCHAL_TIMING_SD_HS:
	case MMCHAL_TIMING_MMC_HS:
		return (h->caps0 & SDHCI_CAP_HS) ? 0 : MMCHAL_ENOTSUP;
	case MMCHAL_TIMING_UHS_SDR12:
	case MMCHAL_TIMING_UHS_SDR25:
		*uhs = t == MMCHAL_TIMING_UHS_SDR12 ? SDHCI_CTRL2_SDR12 : SDHCI_CTRL2_SDR25;
		return (c1 & (SDHCI_CAP1_SDR50 | SDHCI_CAP1_SDR104 | SDHCI_CAP1_DDR50))
			       ? 0
			       : MMCHAL_ENOTSUP;
	case MMCHAL_TIMING_UHS_SDR50:
		*uhs = SDHCI_CTRL2_SDR50;
		return (c1 & SDHCI_CAP1_SDR50) ? 0 : MMCHAL_ENOTSUP;
	case MMCHAL_TIMING_UHS_DDR50:
	case MMCHAL_TIMING_MMC_DDR52:
		*uhs = SDHCI_CTRL2_DDR50;
		return (c1 & SDHCI_CAP1_DDR50) ? 0 : MMCHAL_ENOTSUP;
	default:
		/* SDR104, HS200 and HS400 need tuning (and HS400 a vendor mode). */
		return MMCHAL_ENOTSUP;
	}
}

static int sdhci_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	struct mmchal_sdhci *h = ctx;
	uint32_t width;
	uint16_t hc, uhs;
	bool hs;
	int ret;

	if (!h || !h->probed || !ios)
		return MMCHAL_EINVAL;
	width = h->cfg.bus_width ? h->cfg.bus_width : 4u;
	if ((ios->bus_width != MMCHAL_BUS_WIDTH_1 && ios->bus_width != MMCHAL_BUS_WIDTH_4 &&
	     ios->bus_width != MMCHAL_BUS_WIDTH_8) ||
	    (uint32_t)ios->bus_width > width)
		return MMCHAL_EINVAL;
	if (ios->bus_width == MMCHAL_BUS_WIDTH_8 && !(h->caps0 & SDHCI_CAP_8BIT))
		return MMCHAL_ENOTSUP;
	if (ios->power_mode > MMCHAL_POWER_ON || ios->signal_voltage > MMCHAL_SIGNAL_120)
		return MMCHAL_EINVAL;
	ret = timing_bits(h, ios->timing, &hs, &uhs);
	if (ret)
		return ret;
	if (hs && (h->cfg.flags & MMCHAL_SDHCI_F_NO_HS))
		return MMCHAL_ENOTSUP;
	if (ios->signal_voltage == MMCHAL_SIGNAL_120)
		return MMCHAL_ENOTSUP;
	if (ios->signal_voltage == MMCHAL_SIGNAL_180 &&
	    (h->spec < SDHCI_SPEC_300 || (h->cfg.flags & MMCHAL_SDHCI_F_NO_1_8V)))
		return MMCHAL_ENOTSUP;

	if (ios->power_mode == MMCHAL_POWER_OFF) {
		ret = set_clock(h, 0);
		set_power(h, MMCHAL_POWER_OFF);
		return ret;
	}
	ret = set_power(h, ios->power_mode);
	if (ret)
		return ret;

	hc = rd16(h, SDHCI_HOST_CONTROL);
	hc &= (uint16_t) ~(SDHCI_CTRL_4BIT | SDHCI_CTRL_8BIT | SDHCI_CTRL_HISPD);
	if (ios->bus_width == MMCHAL_BUS_WIDTH_4)
		hc |= SDHCI_CTRL_4BIT;
	else if (ios->bus_width == MMCHAL_BUS_WIDTH_8)
		hc |= SDHCI_CTRL_8BIT;
	if (hs)
		hc |= SDHCI_CTRL_HISPD;
	wr16(h, SDHCI_HOST_CONTROL, hc);

	if (h->spec >= SDHCI_SPEC_300) {
		uint16_t c2 = rd16(h, SDHCI_HOST_CONTROL2);

		c2 &= (uint16_t) ~(SDHCI_CTRL2_UHS_MASK | SDHCI_CTRL2_1_8V);
		c2 |= uhs;
		if (ios->signal_voltage == MMCHAL_SIGNAL_180)
			c2 |= SDHCI_CTRL2_1_8V;
		wr16(h, SDHCI_HOST_CONTROL2, c2);
	}
	/* The clock last: a timing change takes effect with the clock stopped (3.2). */
	if (ios->power_mode == MMCHAL_POWER_UP)
		return set_clock(h, 0);
	return set_clock(h, ios->clock_hz);
}

/* ------------------------------------------------------------------ start */

static uint8_t timeout_value(const struct mmchal_sdhci *h, uint32_t timeout_ns)
{
	uint32_t tmclk = h->tmclk_hz ? h->tmclk_hz : h->clock_hz;

	if (!tmclk || !timeout_ns)
		return SDHCI_TIMEOUT_MAX;
	/* The counter expires after TMCLK x 2^(13 + n) (2.2.15). */
	for (uint8_t n = 0; n < SDHCI_TIMEOUT_MAX; n++) {
		uint64_t ns = ((1ull << (13u + n)) * 1000000000ull) / tmclk;

		if (ns >= timeout_ns)
			return n;
	}
	return SDHCI_TIMEOUT_MAX;
}

static void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}

/* ADMA2 descriptors, little-endian whatever the CPU (1.13.4, figures 1-10/1-11). */
static void write_adma_table(struct mmchal_sdhci *h, const struct mmchal_dma_seg *segs,
			     uint32_t nsegs)
{
	uint8_t *p = h->cfg.adma_table;
	uint32_t dsz = desc_size(h->mode);
	const struct mmchal_port *port = h->cfg.port;

	for (uint32_t i = 0; i < nsegs; i++, p += dsz) {
		uint16_t attr = SDHCI_ADMA2_VALID | SDHCI_ADMA2_TRAN;

		if (i + 1u == nsegs)
			attr |= SDHCI_ADMA2_END;
		put_le16(p, attr);
		/* Length 0 stands for 65536 bytes. */
		put_le16(p + 2, (uint16_t)(segs[i].len & 0xffffu));
		put_le32(p + 4, (uint32_t)segs[i].addr);
		if (dsz == MMCHAL_SDHCI_ADMA2_64_DESC_SIZE)
			put_le32(p + 8, (uint32_t)(segs[i].addr >> 32));
	}
	if (port->ops->cache_clean && !(h->cfg.flags & MMCHAL_SDHCI_F_COHERENT))
		port->ops->cache_clean(port->ctx, h->cfg.adma_table, (size_t)nsegs * dsz);
}

static int check_segs(const struct mmchal_sdhci *h, const struct mmchal_xfer *x, uint64_t total)
{
	uint64_t sum = 0;
	uint32_t max_len = h->mode == MMCHAL_SDHCI_DMA_SDMA ? MMCHAL_SDHCI_SDMA_BOUNDARY
							    : MMCHAL_SDHCI_ADMA2_MAX_LEN;
	bool addr32 = h->mode != MMCHAL_SDHCI_DMA_ADMA2_64;

	if (h->mode == MMCHAL_SDHCI_DMA_NONE || !x->segs || x->nsegs == 0 || x->nsegs > h->max_segs)
		return MMCHAL_EINVAL;
	for (uint32_t i = 0; i < x->nsegs; i++) {
		const struct mmchal_dma_seg *s = &x->segs[i];
		uint64_t last = s->addr + s->len - 1u;

		if (s->len == 0 || s->len > max_len || (s->addr & 3u) || last < s->addr)
			return MMCHAL_EINVAL;
		if (addr32 && last > 0xffffffffull)
			return MMCHAL_ERANGE;
		if (h->mode == MMCHAL_SDHCI_DMA_SDMA &&
		    (s->addr ^ last) & ~(uint64_t)(MMCHAL_SDHCI_SDMA_BOUNDARY - 1u))
			return MMCHAL_EINVAL;
		sum += s->len;
	}
	return sum == total ? 0 : MMCHAL_EINVAL;
}

static int check_sg(const struct mmchal_data *data, uint64_t total)
{
	uint64_t sum = 0;

	if (!data->sg || data->sg_len == 0)
		return MMCHAL_EINVAL;
	for (uint32_t i = 0; i < data->sg_len; i++) {
		if (!data->sg[i].cpu || data->sg[i].len == 0)
			return MMCHAL_EINVAL;
		sum += data->sg[i].len;
	}
	return sum == total ? 0 : MMCHAL_EINVAL;
}

static bool is_multi(const struct mmchal_xfer *x)
{
	/* CMD18 and CMD25 are multi-block whatever the count (Linux mmc_op_multi). */
	return x->data->blocks > 1u || x->cmd->opcode == 18u || x->cmd->opcode == 25u ||
	       x->auto_stop;
}

static int prepare_data(struct mmchal_sdhci *h, const struct mmchal_xfer *x, uint16_t *mode)
{
	struct mmchal_data *data = x->data;
	uint64_t total;
	bool dma = x->plan != MMCHAL_PLAN_PIO;
	uint16_t m = SDHCI_TRNS_BLK_CNT_EN;
	int ret;

	if (data->blksz == 0 || data->blksz > max_blk_size(h) || data->blocks == 0 ||
	    data->blocks > 0xffffu || data->dir > MMCHAL_DIR_FROM_CARD ||
	    (unsigned int)x->plan >= MMCHAL_PLAN_COUNT)
		return MMCHAL_EINVAL;
	total = (uint64_t)data->blksz * data->blocks;
	ret = dma ? check_segs(h, x, total) : check_sg(data, total);
	if (ret)
		return ret;

	if (dma) {
		uint16_t hc = rd16(h, SDHCI_HOST_CONTROL) & (uint16_t)~SDHCI_CTRL_DMA_MASK;

		if (h->mode == MMCHAL_SDHCI_DMA_SDMA) {
			wr32(h, SDHCI_SDMA_ADDR, (uint32_t)x->segs[0].addr);
			hc |= SDHCI_CTRL_SDMA;
		} else {
			write_adma_table(h, x->segs, x->nsegs);
			wr32(h, SDHCI_ADMA_ADDR_LO, (uint32_t)h->cfg.adma_table_dma);
			if (h->mode == MMCHAL_SDHCI_DMA_ADMA2_64) {
				wr32(h, SDHCI_ADMA_ADDR_HI,
				     (uint32_t)(h->cfg.adma_table_dma >> 32));
				hc |= SDHCI_CTRL_ADMA64;
			} else {
				hc |= SDHCI_CTRL_ADMA32;
			}
		}
		wr16(h, SDHCI_HOST_CONTROL, hc);
		m |= SDHCI_TRNS_DMA;
	}
	h->pio = !dma;
	memset(&h->pos, 0, sizeof(h->pos));

	wr16(h, SDHCI_TIMEOUT_CONTROL, timeout_value(h, data->timeout_ns));
	wr32(h, SDHCI_BLOCK_SIZE,
	     (uint32_t)(SDHCI_BLKSZ_BOUNDARY_512K | data->blksz) | (data->blocks << 16));
	if (data->dir == MMCHAL_DIR_FROM_CARD)
		m |= SDHCI_TRNS_READ;
	if (is_multi(x)) {
		m |= SDHCI_TRNS_MULTI;
		if (x->auto_stop)
			m |= SDHCI_TRNS_AUTO_CMD12;
	}
	data->bytes_xfered = 0;
	data->error = 0;
	*mode = m;
	return 0;
}

static uint16_t command_bits(const struct mmchal_cmd *cmd, bool data)
{
	uint16_t c = SDHCI_CMD_OPCODE(cmd->opcode);

	if (!(cmd->flags & MMCHAL_RSP_PRESENT))
		c |= SDHCI_CMD_RESP_NONE;
	else if (cmd->flags & MMCHAL_RSP_136)
		c |= SDHCI_CMD_RESP_136;
	else if (cmd->flags & MMCHAL_RSP_BUSY)
		c |= SDHCI_CMD_RESP_48B;
	else
		c |= SDHCI_CMD_RESP_48;
	if (cmd->flags & MMCHAL_RSP_CRC)
		c |= SDHCI_CMD_CRC;
	if (cmd->flags & MMCHAL_RSP_OPCODE)
		c |= SDHCI_CMD_INDEX;
	if (data)
		c |= SDHCI_CMD_DATA;
	/* CMD12 aborts a data transfer; as an abort command it may be issued while
	   the DAT line is still in use (2.2.6 "Command Type"). */
	if (cmd->opcode == 12u)
		c |= SDHCI_CMD_TYPE_ABORT;
	return c;
}

static int wait_inhibit(struct mmchal_sdhci *h, uint32_t mask)
{
	uint64_t start = now_ns(h);

	while (rd32(h, SDHCI_PRESENT_STATE) & mask) {
		if (now_ns(h) - start > SDHCI_INHIBIT_TIMEOUT_NS)
			return MMCHAL_EBUSY;
	}
	return 0;
}

static int sdhci_start(void *ctx, const struct mmchal_xfer *x)
{
	struct mmchal_sdhci *h = ctx;
	struct mmchal_cmd *cmd;
	uint32_t f, inhibit = SDHCI_PS_CMD_INHIBIT;
	uint16_t mode = 0;
	int ret;

	if (!h || !h->probed || !x || !x->cmd)
		return MMCHAL_EINVAL;
	cmd = x->cmd;
	f = cmd->flags;
	if (cmd->opcode > 63u || (f & ~0x1fu) ||
	    ((f & (MMCHAL_RSP_136 | MMCHAL_RSP_BUSY)) == (MMCHAL_RSP_136 | MMCHAL_RSP_BUSY)) ||
	    ((f & ~MMCHAL_RSP_PRESENT) && !(f & MMCHAL_RSP_PRESENT)) || (x->auto_stop && !x->data))
		return MMCHAL_EINVAL;
	if (h->cmd || h->data || h->busy_cmd)
		return MMCHAL_EBUSY;
	if ((x->data || (f & MMCHAL_RSP_BUSY)) && cmd->opcode != 12u)
		inhibit |= SDHCI_PS_DAT_INHIBIT;
	ret = wait_inhibit(h, inhibit);
	if (ret)
		return ret;

	h->done_blocks = 0;
	if (x->data) {
		ret = prepare_data(h, x, &mode);
		if (ret)
			return ret;
	}
	cmd->error = 0;
	h->cmd = cmd;
	h->data = x->data;
	/* With Auto CMD12 its response is the STOP's (backend.h). */
	h->stop = x->auto_stop ? x->stop : NULL;
	if (h->stop)
		h->stop->error = 0;
	wr32(h, SDHCI_ARGUMENT, cmd->arg);
	wr16(h, SDHCI_TRANSFER_MODE, mode);
	/* The command may complete inside this write (QEMU runs it synchronously). */
	wr16(h, SDHCI_COMMAND, command_bits(cmd, x->data != NULL));
	return 0;
}

/* ---------------------------------------------------------------- PIO */

/* Move up to 4 bytes between a data port word and the caller's list. */
static void pio_bytes(struct mmchal_sdhci *h, uint8_t *word, uint32_t n, bool read)
{
	const struct mmchal_sg *sg = h->data->sg;
	struct mmchal_sdhci_pio *pos = &h->pos;

	while (n && pos->sg_idx < h->data->sg_len) {
		uint32_t room = sg[pos->sg_idx].len - pos->sg_off;
		uint32_t k = n < room ? n : room;
		uint8_t *buf = (uint8_t *)sg[pos->sg_idx].cpu + pos->sg_off;

		if (read)
			memcpy(buf, word, k);
		else
			memcpy(word, buf, k);
		word += k;
		n -= k;
		pos->sg_off += k;
		if (pos->sg_off == sg[pos->sg_idx].len) {
			pos->sg_idx++;
			pos->sg_off = 0;
		}
	}
}

static void pio_block(struct mmchal_sdhci *h, bool read)
{
	uint32_t left = h->data->blksz;

	while (left) {
		uint32_t n = left < 4u ? left : 4u;
		uint8_t w[4] = {0, 0, 0, 0};
		uint32_t v;

		if (read) {
			v = rd32(h, SDHCI_BUFFER);
			w[0] = (uint8_t)v;
			w[1] = (uint8_t)(v >> 8);
			w[2] = (uint8_t)(v >> 16);
			w[3] = (uint8_t)(v >> 24);
			pio_bytes(h, w, n, true);
		} else {
			pio_bytes(h, w, n, false);
			v = (uint32_t)w[0] | ((uint32_t)w[1] << 8) | ((uint32_t)w[2] << 16) |
			    ((uint32_t)w[3] << 24);
			wr32(h, SDHCI_BUFFER, v);
		}
		left -= n;
	}
}

static void pio_run(struct mmchal_sdhci *h)
{
	bool read = h->data->dir == MMCHAL_DIR_FROM_CARD;
	uint32_t ready = read ? SDHCI_PS_BUF_RD_EN : SDHCI_PS_BUF_WR_EN;

	while (h->pos.blocks < h->data->blocks && (rd32(h, SDHCI_PRESENT_STATE) & ready)) {
		pio_block(h, read);
		h->pos.blocks++;
	}
}

/* ------------------------------------------------------------ completion */

static uint32_t live_blocks_done(const struct mmchal_sdhci *h)
{
	const struct mmchal_data *data = h->data;
	uint32_t left = rd16(h, SDHCI_BLOCK_COUNT);
	uint32_t done = left <= data->blocks ? data->blocks - left : 0;

	/* By PIO, only what went through the port: a read block that reached the
	   caller's memory, a written block the card could have been sent. */
	if (h->pio && h->pos.blocks < done)
		done = h->pos.blocks;
	/* A written block leaves the counter before its CRC status is back: count only
	   those followed by another one. */
	if (data->dir == MMCHAL_DIR_TO_CARD && done)
		done--;
	return done;
}

static void read_response(const struct mmchal_sdhci *h, struct mmchal_cmd *cmd)
{
	if (!(cmd->flags & MMCHAL_RSP_PRESENT))
		return;
	if (cmd->flags & MMCHAL_RSP_136) {
		uint32_t r[4];

		for (uint32_t i = 0; i < 4; i++)
			r[i] = rd32(h, SDHCI_RESPONSE(i));
		/* The registers hold R2 bits 127:8 as 119:0; resp[] wants 127:0 with
		   the CRC byte as 0. */
		cmd->resp[0] = (r[3] << 8) | (r[2] >> 24);
		cmd->resp[1] = (r[2] << 8) | (r[1] >> 24);
		cmd->resp[2] = (r[1] << 8) | (r[0] >> 24);
		cmd->resp[3] = r[0] << 8;
	} else {
		cmd->resp[0] = rd32(h, SDHCI_RESPONSE(0));
	}
}

static int cmd_error(uint32_t st)
{
	if (st & SDHCI_INT_CMD_TIMEOUT)
		return MMCHAL_ETIMEDOUT;
	if (st & SDHCI_INT_CMD_INDEX)
		return MMCHAL_EPROTO;
	return MMCHAL_EIO; /* CRC or end bit */
}

static int data_error(const struct mmchal_sdhci *h, uint32_t st)
{
	if (st & SDHCI_INT_ADMA_ERR)
		return MMCHAL_EFAULT;
	if (st & SDHCI_INT_DATA_TIMEOUT)
		return MMCHAL_ETIMEDOUT;
	if (st & SDHCI_INT_AUTO_CMD_ERR)
		return (rd16(h, SDHCI_AUTO_CMD_STATUS) & SDHCI_AUTO_CMD_TIMEOUT) ? MMCHAL_ETIMEDOUT
										 : MMCHAL_EIO;
	return MMCHAL_EIO; /* CRC, end bit, current limit */
}

/*
 * An error of the Auto CMD12 alone (2.2.23 Auto CMD Error Status): executed
 * after the last block (the block counter is at 0), no other data error. Then
 * the data went through and the failure is the STOP's. Returns its error, or 0
 * when the error is the data phase's.
 */
static int auto_stop_error(const struct mmchal_sdhci *h, uint32_t st)
{
	uint16_t a;

	if ((st & SDHCI_INT_DATA_ERR_MASK) != SDHCI_INT_AUTO_CMD_ERR ||
	    rd16(h, SDHCI_BLOCK_COUNT) != 0)
		return 0;
	a = rd16(h, SDHCI_AUTO_CMD_STATUS);
	if (a & (SDHCI_AUTO_CMD12_NOT_EXEC | SDHCI_AUTO_CMD_NOT_ISSUED))
		return 0;
	if (a & SDHCI_AUTO_CMD_TIMEOUT)
		return MMCHAL_ETIMEDOUT;
	if (a & SDHCI_AUTO_CMD_INDEX)
		return MMCHAL_EPROTO; /* as for any command (cmd_error) */
	if (a & (SDHCI_AUTO_CMD_CRC | SDHCI_AUTO_CMD_END_BIT))
		return MMCHAL_EIO;
	return 0;
}

static void end_data(struct mmchal_sdhci *h, int err)
{
	struct mmchal_data *data = h->data;

	if (err) {
		h->done_blocks = live_blocks_done(h);
		data->bytes_xfered = h->done_blocks * data->blksz;
	} else {
		h->done_blocks = data->blocks;
		data->bytes_xfered = data->blocks * data->blksz;
	}
	data->error = err;
	h->data = NULL;
	h->stop = NULL;
}

static uint32_t service(struct mmchal_sdhci *h, uint32_t st)
{
	uint32_t ev = 0;

	if (st & (SDHCI_INT_CARD_INSERT | SDHCI_INT_CARD_REMOVE))
		ev |= MMCHAL_EV_CARD_CHANGE;
	if (st & SDHCI_INT_CARD_INT) {
		/* Level-triggered by the card: masked until enable_sdio_irq() again. */
		h->irq_enable &= (uint16_t)~SDHCI_INT_CARD_INT;
		irq_program(h);
		ev |= MMCHAL_EV_SDIO_IRQ;
	}

	if (h->cmd && (st & SDHCI_INT_CMD_ERR_MASK)) {
		h->cmd->error = cmd_error(st);
		h->cmd = NULL;
		ev |= MMCHAL_EV_CMD_ERROR;
		if (h->data) {
			end_data(h, MMCHAL_ECANCELED);
			ev |= MMCHAL_EV_DATA_ERROR;
		}
		/* After a command error the CMD line (and a data phase) must be reset (3.10.1). */
		reset_cmd_dat(h);
		return ev;
	}
	if (h->cmd && (st & SDHCI_INT_CMD_DONE)) {
		read_response(h, h->cmd);
		if (h->cmd->flags & MMCHAL_RSP_BUSY && !h->data)
			h->busy_cmd = h->cmd;
		h->cmd = NULL;
		ev |= MMCHAL_EV_CMD_DONE;
	}

	if (h->data) {
		if (st & SDHCI_INT_DATA_ERR_MASK) {
			int se = h->stop ? auto_stop_error(h, st) : 0;

			if (se) {
				struct mmchal_cmd *stop = h->stop;

				end_data(h, 0);
				stop->error = se;
				/* the CMD line after the Auto CMD12 error, and DAT (3.10.1) */
				reset_cmd_dat(h);
				return ev | MMCHAL_EV_DATA_DONE;
			}
			end_data(h, data_error(h, st));
			reset_cmd_dat(h);
			return ev | MMCHAL_EV_DATA_ERROR;
		}
		if (h->pio && (st & (SDHCI_INT_BUF_RD | SDHCI_INT_BUF_WR)))
			pio_run(h);
		/* SDMA stopped at a buffer boundary: writing the address register (which
		   holds the next address) resumes it (1.13.2). */
		if ((st & SDHCI_INT_DMA) && !h->pio && h->mode == MMCHAL_SDHCI_DMA_SDMA)
			wr32(h, SDHCI_SDMA_ADDR, rd32(h, SDHCI_SDMA_ADDR));
		if ((st & SDHCI_INT_XFER_DONE) && h->pio && h->pos.blocks < h->data->blocks) {
			/* Transfer Complete comes after the last block went through the
			   buffer (2.2.17). A read drains what the port still holds; a
			   write has nothing left to send to. */
			if (h->data->dir == MMCHAL_DIR_FROM_CARD)
				pio_run(h);
			if (h->pos.blocks < h->data->blocks) {
				/* The controller ended the transfer short: the blocks the
				   CPU never moved are lost, whatever the counter says. */
				end_data(h, MMCHAL_EIO);
				reset_cmd_dat(h);
				return ev | MMCHAL_EV_DATA_ERROR;
			}
		}
		if (st & SDHCI_INT_XFER_DONE) {
			/* The Auto CMD12 response is in Response bits 127:96 (2.2.7). */
			if (h->stop)
				h->stop->resp[0] = rd32(h, SDHCI_RESPONSE(3));
			end_data(h, 0);
			ev |= MMCHAL_EV_DATA_DONE;
		}
	} else if (h->busy_cmd) {
		if (st & SDHCI_INT_DATA_TIMEOUT) {
			h->busy_cmd->error = MMCHAL_ETIMEDOUT;
			h->busy_cmd = NULL;
			reset_cmd_dat(h);
			ev |= MMCHAL_EV_CMD_ERROR;
		} else if (st & SDHCI_INT_XFER_DONE) {
			h->busy_cmd = NULL;
			ev |= MMCHAL_EV_BUSY_DONE;
		}
	}
	return ev;
}

static int sdhci_handle_irq(void *ctx, uint32_t *events)
{
	struct mmchal_sdhci *h = ctx;
	uint32_t ev = 0;

	if (!events)
		return MMCHAL_EINVAL;
	*events = 0;
	if (!h || !h->probed)
		return MMCHAL_EINVAL;
	for (int i = 0; i < SDHCI_IRQ_LOOPS; i++) {
		uint32_t st = rd32(h, SDHCI_INT_STATUS);
		/* Bit 15 is a summary; the card interrupt is cleared at the card. */
		uint32_t ack = st & ~(uint32_t)(SDHCI_INT_ERROR | SDHCI_INT_CARD_INT);

		if (!(st & ~(uint32_t)SDHCI_INT_ERROR))
			break;
		if (ack)
			wr32(h, SDHCI_INT_STATUS, ack);
		ev |= service(h, st);
	}
	*events = ev;
	return 0;
}

static int sdhci_abort(void *ctx)
{
	struct mmchal_sdhci *h = ctx;
	int ret;

	if (!h || !h->probed)
		return MMCHAL_EINVAL;
	if (h->data)
		h->done_blocks = live_blocks_done(h);
	ret = reset_cmd_dat(h);
	wr32(h, SDHCI_INT_STATUS, ~(uint32_t)(SDHCI_INT_ERROR | SDHCI_INT_CARD_INT));
	h->cmd = NULL;
	h->data = NULL;
	h->stop = NULL;
	h->busy_cmd = NULL;
	return ret;
}

/* ------------------------------------------------------------- the rest */

static int sdhci_card_busy(void *ctx)
{
	const struct mmchal_sdhci *h = ctx;

	if (!h || !h->probed)
		return MMCHAL_EINVAL;
	return (rd32(h, SDHCI_PRESENT_STATE) & SDHCI_PS_DAT0_LEVEL) ? 0 : 1;
}

static int sdhci_get_cd(void *ctx)
{
	const struct mmchal_sdhci *h = ctx;

	if (!h || !h->probed)
		return MMCHAL_EINVAL;
	if (h->cfg.flags & MMCHAL_SDHCI_F_NONREMOVABLE)
		return 1;
	if (h->cfg.flags & MMCHAL_SDHCI_F_BROKEN_CD)
		return MMCHAL_ENOTSUP;
	return (rd32(h, SDHCI_PRESENT_STATE) & SDHCI_PS_CARD_IN) ? 1 : 0;
}

static int sdhci_get_ro(void *ctx)
{
	const struct mmchal_sdhci *h = ctx;

	if (!h || !h->probed)
		return MMCHAL_EINVAL;
	if (h->cfg.flags & MMCHAL_SDHCI_F_NONREMOVABLE)
		return 0;
	return (rd32(h, SDHCI_PRESENT_STATE) & SDHCI_PS_WP_LEVEL) ? 0 : 1;
}

static int sdhci_blocks_done(void *ctx, uint32_t *blocks)
{
	const struct mmchal_sdhci *h = ctx;

	if (!h || !h->probed || !blocks)
		return MMCHAL_EINVAL;
	*blocks = h->data ? live_blocks_done(h) : h->done_blocks;
	return 0;
}

static int sdhci_enable_sdio_irq(void *ctx, bool enable)
{
	struct mmchal_sdhci *h = ctx;

	if (!h || !h->probed)
		return MMCHAL_EINVAL;
	if (enable)
		h->irq_enable |= SDHCI_INT_CARD_INT;
	else
		h->irq_enable &= (uint16_t)~SDHCI_INT_CARD_INT;
	irq_program(h);
	return 0;
}

const struct mmchal_backend_ops mmchal_sdhci_ops = {
	.name = "sdhci",
	.probe = sdhci_probe,
	.get_caps = sdhci_get_caps,
	.set_ios = sdhci_set_ios,
	.start = sdhci_start,
	.handle_irq = sdhci_handle_irq,
	.abort = sdhci_abort,
	.card_busy = sdhci_card_busy,
	.get_cd = sdhci_get_cd,
	.get_ro = sdhci_get_ro,
	.blocks_done = sdhci_blocks_done,
	.enable_sdio_irq = sdhci_enable_sdio_irq,
};

int mmchal_sdhci_init(struct mmchal_sdhci *sdhci, const struct mmchal_sdhci_cfg *cfg,
		      struct mmchal_backend *be)
{
	uint8_t w;

	if (!sdhci || !cfg)
		return MMCHAL_EINVAL;
	if (mmchal_bus_check(&cfg->bus) || cfg->bus.bus_shift != 0 || mmchal_port_check(cfg->port))
		return MMCHAL_EINVAL;
	w = cfg->bus_width;
	if (w != 0 && w != 1 && w != 4 && w != 8)
		return MMCHAL_EINVAL;
	if ((unsigned int)cfg->dma > MMCHAL_SDHCI_DMA_ADMA2_64)
		return MMCHAL_EINVAL;
	if (!cfg->adma_table != !cfg->adma_table_size || (cfg->adma_table_dma & 7u))
		return MMCHAL_EINVAL;
	if (is_adma(cfg->dma) && cfg->adma_table_size < desc_size(cfg->dma))
		return MMCHAL_EINVAL;

	memset(sdhci, 0, sizeof(*sdhci));
	sdhci->cfg = *cfg;
	if (be) {
		be->ops = &mmchal_sdhci_ops;
		be->ctx = sdhci;
	}
	return 0;
}

const char *mmchal_sdhci_dma_name(enum mmchal_sdhci_dma mode)
{
	switch (mode) {
	case MMCHAL_SDHCI_DMA_AUTO:
		return "auto";
	case MMCHAL_SDHCI_DMA_NONE:
		return "pio";
	case MMCHAL_SDHCI_DMA_SDMA:
		return "sdma";
	case MMCHAL_SDHCI_DMA_ADMA2_32:
		return "adma2-32";
	case MMCHAL_SDHCI_DMA_ADMA2_64:
		return "adma2-64";
	}
	return "unknown";
}
