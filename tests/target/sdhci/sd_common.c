/*
 * Helpers of the QEMU SD guest programs; see sd_common.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "target/platform.h"
#include "sd_common.h"
#include "sd_image.h"
#include "sd_platform.h"

unsigned int sd_cache_cleans;
size_t sd_cache_clean_len;

static uint64_t port_now(void *ctx)
{
	(void)ctx;
	return sd_platform_now_ns();
}

void sd_delay_us(void *ctx, uint32_t us)
{
	uint64_t end = sd_platform_now_ns() + (uint64_t)us * 1000u;

	(void)ctx;
	while (sd_platform_now_ns() < end)
		;
}

/* QEMU models no caches; these count what the backend asks for. */
static void port_clean(void *ctx, const void *addr, size_t len)
{
	(void)ctx;
	(void)addr;
	sd_cache_cleans++;
	sd_cache_clean_len = len;
}

static void port_invalidate(void *ctx, void *addr, size_t len)
{
	(void)ctx;
	(void)addr;
	(void)len;
}

static const struct mmchal_port_ops plain_ops = {
	.now_ns = port_now,
	.delay_us = sd_delay_us,
};
static const struct mmchal_port_ops cached_ops = {
	.now_ns = port_now,
	.delay_us = sd_delay_us,
	.cache_clean = port_clean,
	.cache_invalidate = port_invalidate,
};
const struct mmchal_port sd_port = {.ops = &plain_ops};
const struct mmchal_port sd_port_cached = {.ops = &cached_ops};

struct mmchal_sg sd_sg(void *p, uint32_t len)
{
	struct mmchal_sg s = {.cpu = p, .phys = (uintptr_t)p, .len = len};

	return s;
}

void sd_fill(const struct mmchal_sg *sg, uint32_t n, uint32_t lba, uint32_t tag)
{
	uint8_t sec[SDIMG_SECTOR];
	uint32_t pos = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint8_t *p = sg[i].cpu;

		for (uint32_t off = 0; off < sg[i].len; off++, pos++) {
			if (pos % SDIMG_SECTOR == 0)
				sdimg_fill(sec, lba + pos / SDIMG_SECTOR, tag);
			p[off] = sec[pos % SDIMG_SECTOR];
		}
	}
}

void sd_check(const struct mmchal_sg *sg, uint32_t n, uint32_t lba, uint32_t tag)
{
	uint8_t sec[SDIMG_SECTOR];
	uint32_t pos = 0;

	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *p = sg[i].cpu;

		for (uint32_t off = 0; off < sg[i].len; off++, pos++) {
			if (pos % SDIMG_SECTOR == 0)
				sdimg_fill(sec, lba + pos / SDIMG_SECTOR, tag);
			if (p[off] != sec[pos % SDIMG_SECTOR]) {
				mmt_printf("mismatch: sector %u byte %u (segment %u offset %u): "
					   "0x%02x, expected 0x%02x (tag %u)\n",
					   (unsigned int)(lba + pos / SDIMG_SECTOR),
					   (unsigned int)(pos % SDIMG_SECTOR), (unsigned int)i,
					   (unsigned int)off, p[off], sec[pos % SDIMG_SECTOR],
					   (unsigned int)tag);
				fail();
			}
		}
	}
}

void sd_scrub(const struct mmchal_sg *sg, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		memset(sg[i].cpu, 0xee, sg[i].len);
}
