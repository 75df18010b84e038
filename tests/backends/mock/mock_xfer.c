/*
 * Transfer helpers shared by test_mock.c and test_mock_dma.c (see mock_xfer.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/mock.h>

#include "mock_harness.h"
#include "mock_xfer.h"

uint8_t buf[8 * 512];
struct mmchal_sg sg[4];
struct mmchal_dma_seg segs[4];

void sd_tran(struct mmchal_mock_cfg *cfg)
{
	mh_init(cfg);
	mh_sd_to_tran();
}

void sd_default(void)
{
	struct mmchal_mock_cfg cfg;

	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	sd_tran(&cfg);
}

struct mmchal_dma_caps dma_both(const struct mmchal_dma_dir_caps *each)
{
	struct mmchal_dma_caps d;

	memset(&d, 0, sizeof(d));
	d.kind = MMCHAL_DMA_INTERNAL;
	for (int i = 0; i < MMCHAL_DIR_COUNT; i++)
		d.dir[i] = *each;
	return d;
}

struct mmchal_dma_caps dma_caps(uint32_t max_segs)
{
	const struct mmchal_dma_dir_caps each = {.max_segs = max_segs, .max_seg_size = 65536};

	return dma_both(&each);
}

void dma_xfer(struct mmchal_xfer *x, struct mmchal_cmd *c, struct mmchal_data *d, uint32_t op,
	      uint32_t arg, enum mmchal_dir dir, uint32_t blocks, enum mmchal_plan plan, uint32_t n)
{
	memset(x, 0, sizeof(*x));
	memset(c, 0, sizeof(*c));
	memset(d, 0, sizeof(*d));
	c->opcode = op;
	c->arg = arg;
	c->flags = MMCHAL_RSP_R1;
	d->dir = dir;
	d->blksz = 512;
	d->blocks = blocks;
	d->sg = sg;
	d->sg_len = n;
	x->cmd = c;
	x->data = d;
	x->plan = plan;
	x->segs = segs;
	x->nsegs = n;
}
