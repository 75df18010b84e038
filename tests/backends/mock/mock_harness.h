/*
 * Test harness for the mock backend tests: a mock over a static image, and
 * helpers that run one transfer through the backend ops (start, then
 * handle_irq until it completes) and walk a card to the transfer state.
 */
#ifndef MMCHAL_TESTS_MOCK_HARNESS_H
#define MMCHAL_TESTS_MOCK_HARNESS_H

#include <stdint.h>

#include <mmchal/mock.h>

#define MH_IMAGE_SIZE (512u * 1024u)
#define MH_LOG_LEN    32u
#define MH_RCA        0x1234u

extern uint8_t mh_image[MH_IMAGE_SIZE];
extern struct mmchal_mock mh;
extern struct mmchal_mock_log_entry mh_log[MH_LOG_LEN];
extern const struct mmchal_backend_ops *mh_ops;

/* A zero configuration for @p card over the first @p size bytes of mh_image,
   with the log ring; the image is filled with a pattern. */
void mh_cfg(struct mmchal_mock_cfg *cfg, enum mmchal_mock_card card, uint64_t size);
/* mmchal_mock_init(&mh, cfg), asserted. */
void mh_init(const struct mmchal_mock_cfg *cfg);
/* mh_init() of an SDIO card over 64 KiB of mh_image with @p functions I/O
   functions, on a host with the bus capabilities @p bus. */
void mh_sdio_init(uint32_t bus, uint8_t functions);
/* Pattern byte of image offset @p off. */
uint8_t mh_pattern(uint64_t off);

/* Start @p x (asserting 0) and call handle_irq until the mock is idle (at most
   100 calls); returns the OR of all events. */
uint32_t mh_run(struct mmchal_xfer *x);
/* A command without data; the response lands in @p c (may be NULL). */
uint32_t mh_cmd(uint32_t op, uint32_t arg, uint32_t flags, struct mmchal_cmd *c);
/* A PIO data command over one buffer. */
uint32_t mh_pio(uint32_t op, uint32_t arg, enum mmchal_dir dir, uint32_t blksz, uint32_t blocks,
		void *buf, struct mmchal_cmd *c, struct mmchal_data *d);

/* Identification to the transfer state, asserted step by step. */
void mh_sd_to_tran(void);
void mh_mmc_to_tran(void);
void mh_sdio_to_tran(void);

#endif
