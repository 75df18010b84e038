/*
 * A small SDHCI register model behind the bus accessor, a port whose clock
 * advances 1 us per reading (clock_step_ns), and the setup helpers the SDHCI
 * backend tests share (see sdhci_model.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "sdhci_model.h"

#define SDHCI_INHIBIT_BITS 0x3u /* Command Inhibit (CMD) and (DAT) */

/* ------------------------------------------------------------ the model */

struct model m;

uint16_t get16(uint32_t off)
{
	return (uint16_t)(m.r8[off] | m.r8[off + 1] << 8);
}

void put16(uint32_t off, uint16_t v)
{
	m.r8[off] = (uint8_t)v;
	m.r8[off + 1] = (uint8_t)(v >> 8);
}

uint32_t get32(uint32_t off)
{
	return get16(off) | (uint32_t)get16(off + 2) << 16;
}

static void issue(uint16_t cmd)
{
	uint16_t mode = get16(0x0c);

	m.ncmds++;
	m.last_cmd = cmd;
	m.last_mode = mode;
	if (m.cmd_err) {
		m.err |= m.cmd_err;
		return;
	}
	m.norm |= 1u << 0;
	if ((cmd & 3u) == 3u && !(cmd & 0x20u) && !m.hold_xfer)
		m.norm |= 1u << 1;
	if (!(cmd & 0x20u))
		return;
	m.blkcnt = get16(0x06);
	m.blksz = get16(0x04) & 0xfffu;
	if (mode & 1u) {
		if (!m.hold_xfer) {
			m.blkcnt = 0;
			m.norm |= 1u << 1;
		}
		return;
	}
	m.pos = 0;
	m.limit = m.blksz * m.blkcnt;
	if (mode & 0x10u) {
		m.reading = true;
		m.present |= 1u << 11;
		m.norm |= 1u << 5;
	} else {
		m.writing = true;
		m.present |= 1u << 10;
		m.norm |= 1u << 4;
	}
}

/* The bytes of the block the next data port access carries: 4, or what is left
   of the block. */
static uint32_t pio_width(void)
{
	uint32_t left = m.blksz - m.pos % m.blksz;

	return left < 4u ? left : 4u;
}

static void pio_advance(void)
{
	m.pos += pio_width();
	if (m.pos % m.blksz == 0)
		m.blkcnt--;
	if (m.pos == m.limit) {
		m.present &= ~((1u << 10) | (1u << 11));
		m.reading = m.writing = false;
		if (!m.hold_xfer)
			m.norm |= 1u << 1;
	} else if (m.one_block && m.pos % m.blksz == 0) {
		/* the next block is not in the buffer yet: the test raises it */
		m.present &= ~((1u << 10) | (1u << 11));
	}
}

static uint16_t md_read16(void *ctx, uint32_t off)
{
	(void)ctx;
	switch (off) {
	case 0x06:
		return m.blkcnt;
	case 0x2c:
		return (uint16_t)(get16(off) | ((get16(off) & 1u) && !m.clock_stuck ? 2u : 0u));
	case 0xfe:
		return m.version;
	default:
		return get16(off);
	}
}

static void md_write16(void *ctx, uint32_t off, uint16_t v)
{
	(void)ctx;
	switch (off) {
	case 0x0e:
		put16(off, v);
		issue(v);
		return;
	case 0x28:
		m.hc_log[m.nhc++ & 7u] = v;
		if (m.power_drops)
			v &= (uint16_t)~0x100u;
		put16(off, v);
		return;
	case 0x2e:
		if (v >> 8) {
			m.resets[m.nresets++ & 15u] = (uint8_t)(v >> 8);
			if ((v >> 8) == 1u) {
				uint8_t keep = m.r8[0x2e];

				memset(m.r8, 0, sizeof(m.r8));
				m.r8[0x2e] = keep;
				m.norm = m.norm_after_reset;
				m.err = 0;
			}
		}
		m.r8[0x2e] = (uint8_t)v;
		m.r8[0x2f] = m.reset_stuck ? (uint8_t)(v >> 8) : 0;
		return;
	default:
		put16(off, v);
	}
}

static uint32_t md_read32(void *ctx, uint32_t off)
{
	uint32_t v = 0;

	(void)ctx;
	switch (off) {
	case 0x10:
	case 0x14:
	case 0x18:
	case 0x1c:
		return m.resp[(off - 0x10) / 4];
	case 0x20:
		m.port_reads++;
		if (m.reading) {
			memcpy(&v, m.card + m.pos, pio_width());
			pio_advance();
		}
		return v;
	case 0x24:
		if (m.inhibit_reads) {
			m.inhibit_reads--;
			return m.present | SDHCI_INHIBIT_BITS;
		}
		return m.present | (m.inhibit_stuck ? 1u : 0u);
	case 0x30:
		m.status_reads++;
		return m.norm | m.norm_stuck | (m.err ? 0x8000u : 0u) | (uint32_t)m.err << 16;
	case 0x40:
		return m.caps0;
	case 0x44:
		return m.caps1;
	default:
		return get32(off);
	}
}

static void md_write32(void *ctx, uint32_t off, uint32_t v)
{
	(void)ctx;
	switch (off) {
	case 0x00:
		m.sdma_writes++;
		break;
	case 0x20:
		m.port_word = v;
		if (m.writing) {
			memcpy(m.card + m.pos, &v, pio_width());
			pio_advance();
		}
		return;
	case 0x30:
		m.acked |= v;
		m.norm &= (uint16_t)~v;
		m.err &= (uint16_t) ~(v >> 16);
		return;
	case 0x34:
		/* A status bit whose enable is off reads 0 (2.2.19). */
		m.norm &= (uint16_t)v;
		m.err &= (uint16_t)(v >> 16);
		break;
	default:
		break;
	}
	put16(off, (uint16_t)v);
	put16(off + 2, (uint16_t)(v >> 16));
}

static const struct mmchal_bus_ops model_ops = {
	.read16 = md_read16,
	.write16 = md_write16,
	.read32 = md_read32,
	.write32 = md_write32,
};

/* ------------------------------------------------------------- the port */

uint64_t clock_ns;
uint64_t clock_step_ns = 1000;
uint32_t last_delay_us;
unsigned int cleans;
const void *clean_addr;
size_t clean_len;

/* Every reading clock_step_ns (1 us) later: bounded waits end after a known
   number of polls. */
static uint64_t p_now(void *ctx)
{
	(void)ctx;
	clock_ns += clock_step_ns;
	return clock_ns;
}

static void p_delay(void *ctx, uint32_t us)
{
	(void)ctx;
	last_delay_us = us;
	clock_ns += us * 1000ull;
}

static void p_clean(void *ctx, const void *addr, size_t len)
{
	(void)ctx;
	cleans++;
	clean_addr = addr;
	clean_len = len;
}

static void p_inval(void *ctx, void *addr, size_t len)
{
	(void)ctx;
	(void)addr;
	(void)len;
}

static const struct mmchal_port_ops port_ops = {
	.now_ns = p_now,
	.delay_us = p_delay,
	.cache_clean = p_clean,
	.cache_invalidate = p_inval,
};
const struct mmchal_port port = {.ops = &port_ops};

/* ---------------------------------------------------------------- setup */

struct mmchal_sdhci h;
struct mmchal_backend be;

struct mmchal_sdhci_cfg base_cfg(void)
{
	struct mmchal_sdhci_cfg c = {
		.bus = {.ops = &model_ops},
		.port = &port,
		.adma_table = m.mem + TABLE_DMA,
		.adma_table_dma = TABLE_DMA,
		.adma_table_size = MMCHAL_SDHCI_ADMA_TABLE_SIZE(8),
	};

	return c;
}

void model_reset(uint16_t version, uint32_t caps0)
{
	memset(&m, 0, sizeof(m));
	m.version = version;
	m.caps0 = caps0;
	m.present = (1u << 16) | (1u << 17) | (1u << 19) | (0xfu << 20);
	cleans = 0;
	clock_step_ns = 1000;
}

int up(const struct mmchal_sdhci_cfg *c)
{
	int ret = mmchal_sdhci_init(&h, c, &be);

	return ret ? ret : be.ops->probe(be.ctx);
}

void up_ok(uint16_t version, uint32_t caps0, enum mmchal_sdhci_dma dma)
{
	struct mmchal_sdhci_cfg c = base_cfg();

	model_reset(version, caps0);
	c.dma = dma;
	assert_int_equal(up(&c), 0);
}

int power_on(uint32_t hz, enum mmchal_bus_width w)
{
	struct mmchal_ios ios = {.clock_hz = hz, .bus_width = w, .power_mode = MMCHAL_POWER_ON};

	return be.ops->set_ios(be.ctx, &ios);
}

/* Poll until nothing more happens; returns the events seen. */
uint32_t model_poll(void)
{
	uint32_t all = 0, ev;

	for (int i = 0; i < 4; i++) {
		assert_int_equal(be.ops->handle_irq(be.ctx, &ev), 0);
		all |= ev;
	}
	return all;
}
