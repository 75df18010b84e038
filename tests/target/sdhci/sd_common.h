/*
 * Shared by the two QEMU SD guest programs: the port (a clock from the board,
 * cache ops that count what they are asked), and buffers filled with and
 * checked against the image formula of sd_image.h.
 */
#ifndef SD_COMMON_H
#define SD_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <mmchal/port.h>
#include <mmchal/types.h>

/* A port with a clock and delay; @with_cache adds counting cache ops. */
extern const struct mmchal_port sd_port;
extern const struct mmchal_port sd_port_cached;
extern unsigned int sd_cache_cleans;
extern size_t sd_cache_clean_len;

void sd_delay_us(void *ctx, uint32_t us);

/* One buffer as a scatter-gather entry; CPU address = physical address. */
struct mmchal_sg sd_sg(void *p, uint32_t len);

/* Fill @sg with the formula content of the sectors from @lba with @tag. */
void sd_fill(const struct mmchal_sg *sg, uint32_t n, uint32_t lba, uint32_t tag);

/* Compare @sg with the formula content; fails the test at the first difference. */
void sd_check(const struct mmchal_sg *sg, uint32_t n, uint32_t lba, uint32_t tag);

/* Overwrite @sg with a byte that no sector holds in a row. */
void sd_scrub(const struct mmchal_sg *sg, uint32_t n);

#endif /* SD_COMMON_H */
