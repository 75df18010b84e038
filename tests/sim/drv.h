/*
 * Test-local driver helper: drives the simulator the way a TMIO/SDHI driver
 * would, through struct mmchal_bus only. Register offsets are written down
 * here from REFERENCE.md, independently of the model's own definitions.
 */
#ifndef TESTS_SIM_DRV_H
#define TESTS_SIM_DRV_H

#include <mmchal_sim/sim.h>

#define R_CMD      0x00u
#define R_ARG      0x04u
#define R_STOP     0x08u
#define R_SECCNT   0x0au
#define R_RSP      0x0cu
#define R_INFO1    0x1cu
#define R_INFO2    0x1eu
#define R_MASK1    0x20u
#define R_MASK2    0x22u
#define R_CLK      0x24u
#define R_SIZE     0x26u
#define R_OPTION   0x28u
#define R_ERR1     0x2cu
#define R_ERR2     0x2eu
#define R_BUF      0x30u
#define R_EXTMODE  0xd8u
#define R_SOFTRST  0xe0u
#define R_VERSION  0xe2u
#define R_HOSTMODE 0xe4u
#define R_IFMODE   0xe6u

#define DM_MODE  0x820u
#define DM_CTRL  0x828u
#define DM_RST   0x830u
#define DM_INFO1 0x840u
#define DM_MASK1 0x848u
#define DM_INFO2 0x850u
#define DM_MASK2 0x858u
#define DM_ADDR  0x880u

#define S_RSP_END    (1u << 0)
#define S_ACCESS_END (1u << 2)
#define S_REMOVED    (1u << 3)
#define S_INSERTED   (1u << 4)
#define S_CD         (1u << 5)
#define S_CRC        (1u << 17)
#define S_END        (1u << 18)
#define S_DATA_TO    (1u << 19)
#define S_CMD_TO     (1u << 22)
#define S_DAT0       (1u << 23)
#define S_BRE        (1u << 24)
#define S_BWE        (1u << 25)
#define S_ILL        (1u << 31)
#define S_ERRORS     (S_CRC | S_END | S_DATA_TO | S_CMD_TO | (1u << 16) | S_ILL)

/* SD_CMD encodings */
#define C_NONE  0x0300u
#define C_R1    0x0400u
#define C_R1B   0x0500u
#define C_R2    0x0600u
#define C_R3    0x0700u
#define C_DATA  0x0800u
#define C_READ  0x1000u
#define C_MULTI 0x2000u
#define C_NOA12 0x4000u
#define C_ACMD  0x0040u

struct drv {
	struct mmchal_sim *sim;
	struct mmchal_bus bus;
	struct mmchal_port port;
	uint32_t rsp[4];
};

static inline int drv_open(struct drv *d, const struct mmchal_sim_config *cfg)
{
	int rc = mmchal_sim_create(cfg, &d->sim);

	if (rc)
		return rc;
	mmchal_sim_bus(d->sim, &d->bus);
	mmchal_sim_port(d->sim, &d->port);
	/* Reset, unmask everything, clock at 1/512 (390.625 kHz) for identification. */
	mmchal_bus_wr16(&d->bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d->bus, R_SOFTRST, 1);
	mmchal_bus_wr32(&d->bus, R_MASK1, 0);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0180u);
	mmchal_bus_wr16(&d->bus, R_OPTION, 0x80eeu); /* 1-bit until the card is switched */
	return 0;
}

static inline void drv_close(struct drv *d)
{
	mmchal_sim_destroy(d->sim);
	d->sim = NULL;
}

static inline uint32_t drv_status(struct drv *d)
{
	return mmchal_bus_rd32(&d->bus, R_INFO1);
}

static inline void drv_ack(struct drv *d, uint32_t bits)
{
	mmchal_bus_wr16(&d->bus, R_INFO1, (uint16_t)~bits);
	mmchal_bus_wr16(&d->bus, R_INFO2, (uint16_t)(~(bits >> 16) | 0x0800u));
}

/* Wait until all of @bits are set or an error bit is; returns the status seen. */
static inline uint32_t drv_wait(struct drv *d, uint32_t bits, uint64_t timeout_ns)
{
	uint64_t deadline = mmchal_sim_now(d->sim) + timeout_ns;

	for (;;) {
		uint32_t st = drv_status(d);

		if ((st & bits) == bits || (st & S_ERRORS))
			return st;
		/* An internal DMAC error ends the wait too (the line stays high for it). */
		if ((mmchal_bus_rd16(&d->bus, R_VERSION) & 0xffu) >= 0x10u &&
		    mmchal_bus_raw_rd32(&d->bus, DM_INFO2))
			return st;
		if (mmchal_sim_now(d->sim) >= deadline)
			return st;
		mmchal_sim_run(d->sim, deadline);
	}
}

/* Issue a command and wait for its response; 0, MMCHAL_ETIMEDOUT or MMCHAL_EIO. */
static inline int drv_cmd(struct drv *d, uint16_t cmd, uint32_t arg)
{
	uint32_t st;

	drv_ack(d, 0xffffffffu);
	mmchal_bus_wr32(&d->bus, R_ARG, arg);
	mmchal_bus_wr16(&d->bus, R_CMD, cmd);
	st = drv_wait(d, S_RSP_END, 1000000000ull);
	drv_ack(d, S_RSP_END);
	if (st & S_CMD_TO)
		return MMCHAL_ETIMEDOUT;
	if (st & (S_CRC | S_END | (1u << 16)))
		return MMCHAL_EIO;
	if (!(st & S_RSP_END))
		return MMCHAL_ETIMEDOUT;
	for (unsigned i = 0; i < 4; i++)
		d->rsp[i] = mmchal_bus_rd32(&d->bus, R_RSP + 4u * i);
	return 0;
}

static inline uint32_t drv_port_width(struct drv *d)
{
	uint16_t hm = mmchal_bus_rd16(&d->bus, R_HOSTMODE);

	uint16_t ver = mmchal_bus_rd16(&d->bus, R_VERSION);

	/* Linux renesas_sdhi_sdbuf_width(): the meaning of HOST_MODE depends on VERSION. */
	if (ver >= 0xcc10u)
		return !(hm & 1u) ? 8u : (hm & 0x100u) ? 4u : 2u;
	if (ver == 0xcb0du)
		return (hm & 1u) ? 2u : 4u;
	if (ver == 0x490cu)
		return (hm & 1u) ? 4u : 2u;
	return 2u;
}

static inline uint64_t drv_port_rd(struct drv *d)
{
	uint32_t off = R_BUF << d->bus.bus_shift;

	switch (drv_port_width(d)) {
	case 8:
		return d->bus.ops->read64(d->bus.ctx, off);
	case 4:
		return d->bus.ops->read32(d->bus.ctx, off);
	default:
		return d->bus.ops->read16(d->bus.ctx, off);
	}
}

static inline void drv_port_wr(struct drv *d, uint64_t v)
{
	uint32_t off = R_BUF << d->bus.bus_shift;

	switch (drv_port_width(d)) {
	case 8:
		d->bus.ops->write64(d->bus.ctx, off, v);
		break;
	case 4:
		d->bus.ops->write32(d->bus.ctx, off, (uint32_t)v);
		break;
	default:
		d->bus.ops->write16(d->bus.ctx, off, (uint16_t)v);
		break;
	}
}

static inline void drv_setup_data(struct drv *d, uint32_t blksz, uint32_t blocks, bool auto12)
{
	mmchal_bus_wr16(&d->bus, R_SIZE, (uint16_t)blksz);
	/* The 32-bit block counter is one 32-bit access (the next offset is SD_RSP10). */
	d->bus.ops->write32(d->bus.ctx, R_SECCNT << d->bus.bus_shift, blocks);
	mmchal_bus_wr16(&d->bus, R_STOP, auto12 || blocks > 1 ? 0x0100u : 0);
}

/* PIO read of @blocks blocks; returns 0 or the error status bits. */
static inline uint32_t drv_pio_read(struct drv *d, uint16_t cmd, uint32_t arg, uint32_t blksz,
				    uint32_t blocks, uint8_t *buf)
{
	uint32_t w = drv_port_width(d), st;

	drv_setup_data(d, blksz, blocks, true);
	if (drv_cmd(d, (uint16_t)(cmd | C_DATA | C_READ), arg))
		return drv_status(d) | S_CMD_TO;
	for (uint32_t b = 0; b < blocks; b++) {
		st = drv_wait(d, S_BRE, 2000000000ull);
		if (!(st & S_BRE))
			return st & S_ERRORS ? st & S_ERRORS : S_DATA_TO;
		drv_ack(d, S_BRE);
		for (uint32_t i = 0; i < blksz; i += w) {
			uint64_t v = drv_port_rd(d);

			for (uint32_t k = 0; k < w && i + k < blksz; k++)
				buf[(size_t)b * blksz + i + k] = (uint8_t)(v >> (8u * k));
		}
	}
	st = drv_wait(d, S_ACCESS_END, 2000000000ull);
	drv_ack(d, S_ACCESS_END);
	return (st & S_ERRORS) ? (st & S_ERRORS) : (st & S_ACCESS_END) ? 0 : S_DATA_TO;
}

static inline uint32_t drv_pio_write(struct drv *d, uint16_t cmd, uint32_t arg, uint32_t blksz,
				     uint32_t blocks, const uint8_t *buf)
{
	uint32_t w = drv_port_width(d), st;

	drv_setup_data(d, blksz, blocks, true);
	if (drv_cmd(d, (uint16_t)(cmd | C_DATA), arg))
		return drv_status(d) | S_CMD_TO;
	for (uint32_t b = 0; b < blocks; b++) {
		st = drv_wait(d, S_BWE, 2000000000ull);
		if (!(st & S_BWE))
			return st & S_ERRORS ? st & S_ERRORS : S_DATA_TO;
		drv_ack(d, S_BWE);
		for (uint32_t i = 0; i < blksz; i += w) {
			uint64_t v = 0;

			for (uint32_t k = 0; k < w && i + k < blksz; k++)
				v |= (uint64_t)buf[(size_t)b * blksz + i + k] << (8u * k);
			drv_port_wr(d, v);
		}
	}
	st = drv_wait(d, S_ACCESS_END, 2000000000ull);
	drv_ack(d, S_ACCESS_END);
	return (st & S_ERRORS) ? (st & S_ERRORS) : (st & S_ACCESS_END) ? 0 : S_DATA_TO;
}

/* SD up to ready: CMD0, CMD8, then CMD55 + ACMD41 (HCS, 2.7-3.6 V) until the
 * card reports power-up done (at most 100 rounds, 100 us apart); false when
 * CMD8 fails. The last R3 is left in d->rsp[0]. */
static inline bool drv_sd_ready(struct drv *d)
{
	drv_cmd(d, C_NONE | 0, 0);
	if (drv_cmd(d, C_R1 | 8, 0x1aa))
		return false;
	for (int i = 0; i < 100; i++) {
		drv_cmd(d, C_R1 | 55, 0);
		drv_cmd(d, C_R3 | C_ACMD | 41, 0x40ff8000u);
		if (d->rsp[0] & 0x80000000u)
			break;
		d->port.ops->delay_us(d->port.ctx, 100);
	}
	return true;
}

/* SD: CMD0, CMD8, ACMD41 loop, CMD2, CMD3, CMD9, CMD7, ACMD6(4-bit). Returns the RCA. */
static inline uint32_t drv_sd_init(struct drv *d)
{
	uint32_t rca;

	if (!drv_sd_ready(d))
		return 0;
	drv_cmd(d, C_R2 | 2, 0);
	drv_cmd(d, C_R1 | 3, 0);
	rca = d->rsp[0] >> 16;
	drv_cmd(d, C_R2 | 9, rca << 16);
	drv_cmd(d, C_R1B | 7, rca << 16);
	drv_cmd(d, C_R1 | 55, rca << 16);
	drv_cmd(d, C_R1 | C_ACMD | 6, 2);
	mmchal_bus_wr16(&d->bus, R_OPTION, 0x40eeu); /* 4-bit */
	return rca;
}

/* eMMC: CMD0, CMD1 loop, CMD2, CMD3(1), CMD9, CMD7. */
static inline int drv_mmc_init(struct drv *d)
{
	drv_cmd(d, C_NONE | 0, 0);
	for (int i = 0; i < 100; i++) {
		drv_cmd(d, C_R3 | 1, 0x40ff8080u);
		if (d->rsp[0] & 0x80000000u)
			break;
		d->port.ops->delay_us(d->port.ctx, 100);
	}
	drv_cmd(d, C_R2 | 2, 0);
	drv_cmd(d, C_R1 | 3, 1u << 16);
	drv_cmd(d, C_R2 | 9, 1u << 16);
	return drv_cmd(d, C_R1B | 7, 1u << 16);
}

/* Wait until DAT0 is high (card not busy). */
static inline uint32_t drv_wait_not_busy(struct drv *d, uint64_t timeout_ns)
{
	uint64_t deadline = mmchal_sim_now(d->sim) + timeout_ns;
	uint32_t st;

	while (!((st = drv_status(d)) & S_DAT0) && mmchal_sim_now(d->sim) < deadline)
		d->port.ops->delay_us(d->port.ctx, 10);
	return st;
}

#endif
