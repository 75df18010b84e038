/**
 * @file
 * @brief The eMMC boot reader (sdhi_boot.h): eMMC identification and
 *        polled block reads by the SDHI internal DMAC, in one object.
 *
 * The register facts are the SDHI backends' (sdhi_regs.h, REFERENCE.md); the
 * protocol is JEDEC JESD84-B51 (PROTOCOL.md): CMD1 with the sector-mode bit
 * until the OCR busy bit reads 1, CMD2, CMD3 with a host-chosen RCA, CMD9,
 * CMD7, CMD8 for the EXT_CSD, CMD6 for HS_TIMING and BUS_WIDTH, each CMD6
 * followed by CMD13 for SWITCH_ERROR. The controller reports an R1b command
 * done once the card has released DAT0 (REFERENCE.md, hardware busy
 * detection); DAT0 is still polled after it, for a controller that did not
 * wait. A data phase is done when both the DMAC's channel end and the SDHI
 * access end were seen; an error bit comes with either.
 *
 * Every wait is a loop of status reads and port delays, bounded by the sum
 * of those delays: the bound is a lower limit of the time waited, never
 * shorter than the figure named. The card's own data timeout (SD_OPTION) is
 * 2^24 card clocks, 0.32 s at 52 MHz, above the 100 ms read access time an
 * eMMC may take (JESD84-B51 6.8.2, as Linux's mmc_set_data_timeout()).
 */
#include <mmchal/config.h>
#include <mmchal/sdhi_boot.h>

#include "sdhi_regs.h"

#include "core/card_priv.h"
#include "core/mem.h"

#define EB_BLKSZ 512u
#define EB_RCA   (1u << 16) /* RCA 1 in bits 31:16: the host chooses it (CMD3) */

/* Bounds of the waits, us. */
#define EB_US_CMD   100000u  /* a response: 64 clocks at 400 kHz are 160 us */
#define EB_US_OCR   1000000u /* CMD1 busy: JESD84-B51 6.4.3, 1 s */
#define EB_US_BLOCK 250000u  /* each data block; above the 100 ms read access time */
#define EB_US_CMD6  1000000u /* CMD6 busy when GENERIC_CMD6_TIME is 0 */

#define EB_TOP_2_24 11u /* SD_OPTION bits 7:4: data timeout 2^(13 + 11) card clocks */

#define EB_OCR_ARG 0x40ff8080u /* sector mode, 2.7-3.6 V and 1.70-1.95 V */
#define EB_HZ_ID   400000u     /* identification clock (fOD) */
#define EB_HZ_LEG  26000000u   /* legacy timing */
#define EB_HZ_HS   52000000u   /* high-speed timing */

#define EB_ERR (SDHI_ST_CMD_ERR | SDHI_ST_DATA_ERR | SDHI_ST_ILL_ACCESS)

#define EB_SWITCH(idx, val) ((3u << 24) | ((uint32_t)(idx) << 16) | ((uint32_t)(val) << 8))

static void wr16(const struct mmchal_emmc_boot *eb, uint32_t reg, uint16_t val)
{
	mmchal_bus_wr16(&eb->bus, reg, val);
}

/* One 32-bit access at a logical offset: bus_shift is 2 (init checks it). */
static void wr32(const struct mmchal_emmc_boot *eb, uint32_t reg, uint32_t val)
{
	eb->bus.ops->write32(eb->bus.ctx, reg << 2, val);
}

static uint32_t rd32(const struct mmchal_emmc_boot *eb, uint32_t reg)
{
	return eb->bus.ops->read32(eb->bus.ctx, reg << 2);
}

static void dm_wr(const struct mmchal_emmc_boot *eb, uint32_t off, uint32_t val)
{
	mmchal_bus_raw_wr32(&eb->bus, off, val);
}

static uint32_t dm_rd(const struct mmchal_emmc_boot *eb, uint32_t off)
{
	return mmchal_bus_raw_rd32(&eb->bus, off);
}

/*
 * Soft reset and the registers it loses written again; the DMAC channels reset (active
 * low: clear, then set, Linux abort_dma). SD_SIZE keeps its reset value, 512, the
 * block size of every transfer here; the interrupt masks keep theirs: all masked.
 */
static void reset(const struct mmchal_emmc_boot *eb)
{
	dm_wr(eb, DM_CM_RST, ~(DM_RST_CH0 | DM_RST_CH1));
	dm_wr(eb, DM_CM_RST, 0xffffffffu);
	wr16(eb, SDHI_SOFT_RST, 0);
	wr16(eb, SDHI_SOFT_RST, SDHI_SOFT_RST_RUN);
	wr16(eb, SDHI_CLK_CTRL, eb->clk_ctrl);
	wr16(eb, SDHI_OPTION, eb->option);
	if (eb->gen3)
		wr16(eb, SDHI_HOST_MODE, eb->host_mode);
	wr16(eb, SDHI_CC_EXT_MODE, SDHI_EXT_DMA);
}

/*
 * Stop the clock, set the divider, start it (no glitch while it changes). The divider
 * is the smallest whose clock does not exceed @p hz: 1/1 (0xff, where the SoC has it),
 * else 1/2^m, code (1 << m) >> 2, for m = 1..9; f <= 2^m * hz is (f - 1) >> m < hz.
 * The same rule as the backends' divider() (sdhi_common.c), kept here so that the
 * reader links no backend code: a shared out-of-line helper costs every image 30
 * to 40 bytes of calls.
 */
static int set_clock(struct mmchal_emmc_boot *eb, uint32_t hz)
{
	uint32_t f = eb->clk_hz;
	uint16_t code = SDHI_CLK_DIV1;
	unsigned int m = 1;

	if (hz > eb->f_max_hz)
		hz = eb->f_max_hz;
	if (!(eb->flags & MMCHAL_SDHI_F_CLK_DIV1) || f > hz) {
		while (((f - 1u) >> m) >= hz) {
			if (++m > 9u)
				return MMCHAL_ERANGE;
		}
		code = (uint16_t)((1u << m) >> 2);
	}
	wr16(eb, SDHI_CLK_CTRL, (uint16_t)(eb->clk_ctrl & ~SDHI_CLK_ENABLE));
	wr16(eb, SDHI_CLK_CTRL, code);
	eb->clk_ctrl = (uint16_t)(code | SDHI_CLK_ENABLE);
	wr16(eb, SDHI_CLK_CTRL, eb->clk_ctrl);
	return 0;
}

/*
 * Poll until every bit of @p need (SD_INFO1 | SD_INFO2 << 16) was seen and, with
 * @p dma, the DMAC's read-channel end; an error bit ends the wait at once. Level bits
 * (DAT0) count once seen.
 */
static int wait(const struct mmchal_emmc_boot *eb, uint32_t need, bool dma, uint64_t us)
{
	/* H3 ES1.x, M3-W ES1.0: read-channel end at bit 17 (U-Boot, TF-A). */
	uint32_t end = (eb->flags & MMCHAL_SDHI_F_OLD_INFO1) ? DM_INFO1_END_CH1_OLD
							     : DM_INFO1_END_CH1;
	uint32_t seen = 0;
	uint64_t waited = 0;

	for (;;) {
		uint32_t st = mmchal_bus_rd32(&eb->bus, SDHI_INFO1), step;

		if (st & EB_ERR)
			return (st & (SDHI_ST_CMD_TO | SDHI_ST_DATA_TO)) ? MMCHAL_ETIMEDOUT
									 : MMCHAL_EIO;
		if (dma) {
			if (dm_rd(eb, DM_CM_INFO2) & (DM_INFO2_ERR_CH0 | DM_INFO2_ERR_CH1))
				return MMCHAL_EFAULT;
			dma = !(dm_rd(eb, DM_CM_INFO1) & end);
		}
		seen |= st & need;
		if (seen == need && !dma)
			return 0;
		if (waited >= us)
			return MMCHAL_ETIMEDOUT;
		/* 1 us steps for the first millisecond, then 64 us: a long wait (a slow
		   card, a large read) costs fewer register reads */
		step = waited < 1024u ? 1u : 64u;
		eb->port->ops->delay_us(eb->port->ctx, step);
		waited += step;
	}
}

/*
 * Issue one command (@p c: SD_CMD value) and wait for its response; an R1 or R1b
 * response with an error bit of its own is ::MMCHAL_EIO; an R1b waits for DAT0
 * up to the card's CMD6 time. @p r gets the response registers SD_RSP10..76, or NULL.
 * After an error the controller is reset.
 */
static int cmd(const struct mmchal_emmc_boot *eb, uint32_t c, uint32_t arg, uint32_t *r)
{
	uint32_t rsp = c & 0x0700u;
	int err;

	/* Clear the completion bits of the last command. SD_INFO2 holds no latched bit
	   here: every error is followed by a reset (below, and in read_blocks()). */
	wr16(eb, SDHI_INFO1, 0);
	wr32(eb, SDHI_ARG, arg);
	wr16(eb, SDHI_CMD, (uint16_t)c);
	err = wait(eb, SDHI_ST_RSP_END, false, EB_US_CMD);
	if (err)
		goto fail;
	if (r != NULL) {
		for (unsigned int i = 0; i < 4u; i++)
			r[i] = rd32(eb, SDHI_RSP10 + 4u * i);
	}
	if (rsp == SDHI_CMD_RSP_R1 || rsp == SDHI_CMD_RSP_R1B) {
		err = MMCHAL_EIO;
		if (rd32(eb, SDHI_RSP10) & R1_CMD_ERRORS)
			goto fail;
		err = rsp == SDHI_CMD_RSP_R1B ? wait(eb, SDHI_ST_DAT0, false, eb->busy_us) : 0;
		if (err)
			goto fail;
	}
	return 0;
fail:
	/* The controller after any error: reset, as after power-up but for clock and
	   width. A card that took an R1b command whose response was lost may be busy:
	   DAT0 released first, so that the next command finds it in tran. */
	reset(eb);
	if (rsp == SDHI_CMD_RSP_R1B)
		(void)wait(eb, SDHI_ST_DAT0, false, eb->busy_us);
	return err;
}

static void invalidate(const struct mmchal_emmc_boot *eb, void *buf, uint32_t n)
{
	if (eb->port->ops->cache_invalidate != NULL)
		eb->port->ops->cache_invalidate(eb->port->ctx, buf, (size_t)n * EB_BLKSZ);
}

/*
 * Read @p n blocks with command @p op at @p arg into @p buf / @p dma: more than one
 * with SD_STOP.SEC, the 32-bit block count and the automatic CMD12. The DMAC starts
 * after a good response (Linux, U-Boot). After an error: reset, then CMD12 so that
 * the card leaves the data state (a card already in tran ignores it: no response,
 * and cmd() resets the controller after that timeout too).
 */
static int read_blocks(const struct mmchal_emmc_boot *eb, uint32_t op, uint32_t arg, uint32_t n,
		       void *buf, mmchal_dma_addr_t dma)
{
	uint32_t c = op | SDHI_CMD_RSP_R1 | SDHI_CMD_DATA | SDHI_CMD_READ;
	uint32_t mode = DM_MODE_CH1_READ | DM_MODE_BUS_64;
	int err;

	if (n > 1u) {
		c |= SDHI_CMD_MULTI;
		wr32(eb, SDHI_SECCNT, n);
	}
	wr16(eb, SDHI_STOP, n > 1u ? SDHI_STOP_SEC : 0);
	/* Address increment, except on parts that only have fixed address mode. */
	if (!(eb->flags & MMCHAL_SDHI_F_FIXED_ADDR))
		mode |= DM_MODE_ADDR_INCR;
	dm_wr(eb, DM_CM_DTRAN_MODE, mode);
	/* One 64-bit write sets both halves (Linux writeq); else the low half: the
	   address is below 4 GiB (checked by the callers). */
	if (eb->bus.ops->write64 != NULL)
		eb->bus.ops->write64(eb->bus.ctx, DM_DTRAN_ADDR, dma);
	else
		dm_wr(eb, DM_DTRAN_ADDR, (uint32_t)dma);
	dm_wr(eb, DM_CM_INFO1, 0);
	dm_wr(eb, DM_CM_INFO2, 0);
	invalidate(eb, buf, n);
	err = cmd(eb, c, arg, NULL);
	if (!err) {
		dm_wr(eb, DM_CM_DTRAN_CTRL, DM_CTRL_START);
		err = wait(eb, SDHI_ST_ACCESS_END, true, ((uint64_t)n + 1u) * EB_US_BLOCK);
	}
	invalidate(eb, buf, n);
	if (err) {
		reset(eb);
		(void)cmd(eb, CARD_CMD_STOP | SDHI_CMD_RSP_R1B, 0, NULL);
	}
	return err;
}

/* A DMA address of @p n blocks: aligned and the whole buffer below 4 GiB. */
static bool dma_ok(mmchal_dma_addr_t dma, uint32_t n)
{
	return !(dma & (MMCHAL_EMMC_BOOT_ALIGN - 1u)) && dma <= 0xffffffffu &&
	       (uint64_t)n * EB_BLKSZ - 1u <= 0xffffffffu - dma;
}

static int ext_csd(const struct mmchal_emmc_boot *eb, uint8_t *x, mmchal_dma_addr_t dma)
{
	return read_blocks(eb, CARD_CMD_SEND_IF_COND, 0, 1, x, dma);
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* CMD6 (R1b) then CMD13: a card that refused the switch sets SWITCH_ERROR. */
static int sw(const struct mmchal_emmc_boot *eb, uint32_t idx, uint32_t val)
{
	uint32_t r[4];
	int err = cmd(eb, CARD_CMD_SWITCH | SDHI_CMD_RSP_R1B, EB_SWITCH(idx, val), NULL);

	if (!err)
		err = cmd(eb, CARD_CMD_SEND_STATUS | SDHI_CMD_RSP_R1, EB_RCA, r);
	if (!err && (r[0] & R1_SWITCH_ERROR))
		err = MMCHAL_EIO;
	return err;
}

static void set_width(struct mmchal_emmc_boot *eb, unsigned int bits)
{
	uint16_t w = bits == 8u ? SDHI_OPT_WIDTH8 : bits == 1u ? SDHI_OPT_WIDTH1 : 0;

	eb->option = (uint16_t)((eb->option & ~(SDHI_OPT_WIDTH1 | SDHI_OPT_WIDTH8)) | w);
	wr16(eb, SDHI_OPTION, eb->option);
	eb->width = (uint8_t)bits;
}

/*
 * Card and host to @p bits wide (EXT_CSD BUS_WIDTH @p val), proved by the EXT_CSD read
 * at that width: its BUS_WIDTH byte and its capacity as read at 1 bit. Returns 0 when
 * the width works; 1 when it does not and both sides are back at 1 bit, proved the
 * same way; ::MMCHAL_ENOTSUP when not even that works.
 */
static int try_width(struct mmchal_emmc_boot *eb, uint8_t *x, mmchal_dma_addr_t dma,
		     unsigned int bits, uint32_t val)
{
	uint32_t sec = le32(x + EXT_CSD_SEC_COUNT);

	for (;;) {
		int err = sw(eb, EXT_CSD_BUS_WIDTH, val);

		if (!err) {
			set_width(eb, bits);
			err = ext_csd(eb, x, dma);
		}
		if (!err && x[EXT_CSD_BUS_WIDTH] == val && le32(x + EXT_CSD_SEC_COUNT) == sec)
			return bits == 1u ? 1 : 0;
		if (bits == 1u)
			return MMCHAL_ENOTSUP;
		bits = 1;
		val = EXT_CSD_WIDTH_1;
	}
}

/* Capacity of a byte-mode card from its CSD (r: SD_RSP10..76, CSD bits 127:8):
   (C_SIZE + 1) << (C_SIZE_MULT + 2) blocks of 2^READ_BL_LEN bytes, in sectors. */
static uint64_t csd_sectors(const uint32_t *r)
{
	/* CSD bit b is bit (b - 8) of r[]: READ_BL_LEN 83:80, C_SIZE 73:62, C_SIZE_MULT
	   49:47 */
	uint32_t bl = (r[2] >> 8) & 0xfu;
	uint32_t size = ((r[1] >> 22) | (r[2] << 10)) & 0xfffu;
	uint32_t mult = (r[1] >> 7) & 0x7u;
	uint64_t bytes = (uint64_t)(size + 1u) << (mult + 2u + bl);

	/* the byte address of every sector must fit 32 bits */
	bytes /= EB_BLKSZ;
	return bytes < (1ull << 23) ? bytes : (1ull << 23);
}

/* Identification through the EXT_CSD in @p x: everything after the controller set-up. */
static int identify(struct mmchal_emmc_boot *eb, uint8_t *x, mmchal_dma_addr_t dma)
{
	uint32_t r[4] = {0};
	uint32_t ocr = 0, t;
	int err;

	err = cmd(eb, CARD_CMD_GO_IDLE | SDHI_CMD_RSP_NONE, 0, NULL);
	for (uint32_t ms = 0; !err && !(ocr & OCR_BUSY); ms++) {
		if (ms > EB_US_OCR / 1000u)
			return MMCHAL_ETIMEDOUT;
		if (ms)
			eb->port->ops->delay_us(eb->port->ctx, 1000);
		err = cmd(eb, CARD_CMD_SEND_OP_COND | SDHI_CMD_RSP_R3, EB_OCR_ARG, r);
		ocr = r[0];
	}
	if (!err)
		err = cmd(eb, CARD_CMD_ALL_SEND_CID | SDHI_CMD_RSP_R2, 0, NULL);
	if (!err)
		err = cmd(eb, CARD_CMD_SET_REL_ADDR | SDHI_CMD_RSP_R1, EB_RCA, NULL);
	if (!err)
		err = set_clock(eb, EB_HZ_LEG);
	if (!err)
		err = cmd(eb, CARD_CMD_SEND_CSD | SDHI_CMD_RSP_R2, EB_RCA, r);
	if (err)
		return err;
	eb->sector_mode = (ocr & OCR_MMC_ACCESS) == OCR_CCS;
	eb->sectors = csd_sectors(r);
	eb->busy_us = EB_US_CMD6;
	err = cmd(eb, CARD_CMD_SELECT | SDHI_CMD_RSP_R1B, EB_RCA, NULL);
	if (!err)
		err = cmd(eb, CARD_CMD_SET_BLOCKLEN | SDHI_CMD_RSP_R1, EB_BLKSZ, NULL);
	if (!err)
		err = ext_csd(eb, x, dma);
	if (err)
		return err;
	if (eb->sector_mode)
		eb->sectors = le32(x + EXT_CSD_SEC_COUNT);
	/* GENERIC_CMD6_TIME, units of 10 ms */
	t = x[EXT_CSD_GENERIC_CMD6_TIME];
	if (t)
		eb->busy_us = t * 10000u;
	/* High speed where both have it; a card that refuses stays at legacy timing. A
	   faster clock always divides (the 400 kHz one did). */
	if ((eb->bus_caps & MMCHAL_BUS_MMC_HS) &&
	    (x[EXT_CSD_CARD_TYPE] & (EXT_CSD_TYPE_HS26 | EXT_CSD_TYPE_HS52)) &&
	    sw(eb, EXT_CSD_HS_TIMING, EXT_CSD_TIMING_HS) == 0)
		(void)set_clock(eb,
				(x[EXT_CSD_CARD_TYPE] & EXT_CSD_TYPE_HS52) ? EB_HZ_HS : EB_HZ_LEG);
	/* The widest bus the board wires and the card takes; 1 bit is where it started. */
	err = 1;
	if (eb->bus_caps & MMCHAL_BUS_8_BIT)
		err = try_width(eb, x, dma, 8, EXT_CSD_WIDTH_8);
	if (err == 1 && (eb->bus_caps & MMCHAL_BUS_4_BIT))
		err = try_width(eb, x, dma, 4, EXT_CSD_WIDTH_4);
	return err < 0 ? err : 0;
}

int mmchal_emmc_boot_init(struct mmchal_emmc_boot *eb, const struct mmchal_sdhi_cfg *cfg,
			  void *scratch, mmchal_dma_addr_t scratch_dma)
{
	const struct mmchal_bus_ops *ops;
	uint16_t v;
	int err;

	if (eb == NULL || cfg == NULL || scratch == NULL || cfg->soc == NULL ||
	    cfg->soc->kind != MMCHAL_SDHI_IDMAC || cfg->clk_hz == 0 ||
	    mmchal_bus_check(&cfg->bus) || cfg->bus.bus_shift != 2u ||
	    mmchal_port_check(cfg->port) || !dma_ok(scratch_dma, 1))
		return MMCHAL_EINVAL;
	ops = cfg->bus.ops;
	memset(eb, 0, sizeof(*eb));
	eb->bus = cfg->bus;
	eb->port = cfg->port;
	eb->clk_hz = cfg->clk_hz;
	eb->f_max_hz = cfg->caps.f_max_hz ? cfg->caps.f_max_hz : cfg->clk_hz;
	eb->flags = cfg->soc->flags | cfg->extra_flags | mmchal_sdhi_rev_flags(cfg->rev);
	eb->bus_caps = cfg->caps.bus;
	eb->option = SDHI_OPT_ALWAYS1 | (EB_TOP_2_24 << SDHI_OPT_TOP_SHIFT) | SDHI_OPT_WIDTH1;
	eb->width = 1;
	v = mmchal_bus_rd16(&eb->bus, SDHI_VERSION);
	/* Internal DMAC from IP version 0x10 (REFERENCE.md, versions). */
	if ((v & 0xffu) < SDHI_VER_IP_DMAC)
		return MMCHAL_ENOTSUP;
	/* Gen3 HOST_MODE: a 64-bit data port needs 64-bit accesses (Linux
	   renesas_sdhi_enable_dma); bus_shift is 2 here. */
	eb->gen3 = v >= SDHI_VER_GEN3_SD;
	eb->host_mode = (ops->read64 != NULL && ops->write64 != NULL) ? SDHI_HM_GEN3_64
								      : SDHI_HM_GEN3_32;
	reset(eb);
	err = set_clock(eb, EB_HZ_ID);
	if (!err) {
		/* 74 clocks before the first command (JESD84-B51 10.1): 185 us at 400 kHz */
		eb->port->ops->delay_us(eb->port->ctx, 1000);
		err = identify(eb, scratch, scratch_dma);
	}
	/* after a failure the controller was reset where it failed */
	eb->ready = err == 0;
	return err;
}

int mmchal_emmc_boot_read(struct mmchal_emmc_boot *eb, uint64_t lba, uint32_t blocks, void *dst,
			  mmchal_dma_addr_t dst_dma)
{
	if (eb == NULL || !eb->ready || dst == NULL || blocks == 0 || !dma_ok(dst_dma, blocks))
		return MMCHAL_EINVAL;
	if (blocks > eb->sectors || lba > eb->sectors - blocks)
		return MMCHAL_ERANGE;
	/* A byte-mode card is at most 4 GiB (CSD), a sector-mode one 2^32 sectors: the
	   address fits 32 bits either way. */
	return read_blocks(eb, blocks > 1u ? CARD_CMD_READ_MULTIPLE : CARD_CMD_READ_SINGLE,
			   (uint32_t)(eb->sector_mode ? lba : lba * EB_BLKSZ), blocks, dst,
			   dst_dma);
}

uint64_t mmchal_emmc_boot_sectors(const struct mmchal_emmc_boot *eb)
{
	return eb != NULL && eb->ready ? eb->sectors : 0;
}

uint32_t mmchal_emmc_boot_bus_width(const struct mmchal_emmc_boot *eb)
{
	return eb != NULL && eb->ready ? eb->width : 0;
}
