/*
 * Transfer helpers shared by test_mock.c and test_mock_dma.c: one SD card in
 * the transfer state, an internal DMA engine's capabilities, and a data xfer
 * built over the buffers below (defined in mock_xfer.c).
 */
#ifndef MMCHAL_TESTS_MOCK_XFER_H
#define MMCHAL_TESTS_MOCK_XFER_H

#include <stdint.h>

#include <mmchal/mock.h>

#define CMD_DONE MMCHAL_EV_CMD_DONE
#define ALL_DONE (MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE)
#define DATA_ERR (MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_ERROR)

extern uint8_t buf[8 * 512];
/* The sg list and the segment list dma_xfer() points a transfer at. */
extern struct mmchal_sg sg[4];
extern struct mmchal_dma_seg segs[4];

/* mh_init(@p cfg), then the SD identification to the transfer state. */
void sd_tran(struct mmchal_mock_cfg *cfg);
/* sd_tran() of an SDHC card over all of mh_image, with no DMA engine. */
void sd_default(void);
/* An internal engine with the rules @p each in both directions. */
struct mmchal_dma_caps dma_both(const struct mmchal_dma_dir_caps *each);
/* An internal engine taking @p max_segs segments of up to 64 KiB each way, no
   other rule. */
struct mmchal_dma_caps dma_caps(uint32_t max_segs);
/* A data xfer of @p blocks 512-byte blocks over the first @p n entries of sg
   and segs, with an R1 response. */
void dma_xfer(struct mmchal_xfer *x, struct mmchal_cmd *c, struct mmchal_data *d, uint32_t op,
	      uint32_t arg, enum mmchal_dir dir, uint32_t blocks, enum mmchal_plan plan,
	      uint32_t n);

#endif
