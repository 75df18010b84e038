/*
 * Tests of the mock controller's DMA (src/backends/mock/mock.c, mock_data.c):
 * the DMA data paths byte for byte, with the default resolver and with a
 * dma_to_cpu hook, every declared DMA rule enforced at start, and transfers
 * exactly at each limit accepted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/error.h>
#include <mmchal/mock.h>

#include "mock_harness.h"
#include "mock_xfer.h"

#define DEV_BASE 0x40000000u

/* DIRECT with the default resolver: device address = CPU pointer value. */
static void test_dma_direct_default(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_xfer x;
	struct mmchal_cmd c;
	struct mmchal_data d;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.dma = dma_caps(4);
	sd_tran(&cfg);
	memset(buf, 0, sizeof(buf));
	segs[0].addr = (mmchal_dma_addr_t)(uintptr_t)(buf + 1024);
	segs[0].len = 512;
	segs[1].addr = (mmchal_dma_addr_t)(uintptr_t)buf;
	segs[1].len = 1024;
	dma_xfer(&x, &c, &d, 18, 7, MMCHAL_DIR_FROM_CARD, 3, MMCHAL_PLAN_DIRECT, 2);
	assert_int_equal(mh_run(&x), ALL_DONE);
	assert_memory_equal(buf + 1024, mh_image + 7 * 512, 512);
	assert_memory_equal(buf, mh_image + 8 * 512, 1024);
	assert_int_equal(mmchal_mock_log_last(&mh)->plan, MMCHAL_PLAN_DIRECT);
	assert_int_equal(mmchal_mock_log_last(&mh)->nsegs, 2);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);

	/* Device address 0 is a bus fault. */
	segs[0].addr = 0;
	segs[0].len = 512;
	dma_xfer(&x, &c, &d, 17, 7, MMCHAL_DIR_FROM_CARD, 1, MMCHAL_PLAN_DIRECT, 1);
	assert_int_equal(mh_run(&x), DATA_ERR);
	assert_int_equal(d.error, MMCHAL_EFAULT);

	/* With 32-bit pointers, a range that ends past them, or starts there, has
	   no CPU address: a bus fault, with nothing moved. */
	if (sizeof(void *) < sizeof(mmchal_dma_addr_t)) {
		static const mmchal_dma_addr_t beyond[] = {(mmchal_dma_addr_t)UINTPTR_MAX - 255u,
							   (mmchal_dma_addr_t)UINTPTR_MAX + 1u};

		for (size_t i = 0; i < sizeof(beyond) / sizeof(beyond[0]); i++) {
			segs[0].addr = beyond[i];
			dma_xfer(&x, &c, &d, 17, 7, MMCHAL_DIR_FROM_CARD, 1, MMCHAL_PLAN_DIRECT, 1);
			assert_int_equal(mh_run(&x), DATA_ERR);
			assert_int_equal(d.error, MMCHAL_EFAULT);
			assert_int_equal(mmchal_mock_log_last(&mh)->blocks_done, 0);
		}
	}
}

/* A device address space of its own, resolved by the hook; NULL = fault. */
static uint32_t hook_calls;
static enum mmchal_dir hook_dir;

static void *dev_to_cpu(void *ctx, mmchal_dma_addr_t addr, uint32_t len, enum mmchal_dir dir)
{
	uint8_t *mem = ctx;

	hook_calls++;
	hook_dir = dir;
	if (addr < DEV_BASE || addr + len > DEV_BASE + sizeof(buf))
		return NULL;
	return mem + (addr - DEV_BASE);
}

static void test_dma_hook_and_fault(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_xfer x;
	struct mmchal_cmd c;
	struct mmchal_data d;
	enum mmchal_plan plans[] = {MMCHAL_PLAN_IOMMU_MERGED, MMCHAL_PLAN_BOUNCED};

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.dma = dma_caps(2);
	cfg.dma_to_cpu = dev_to_cpu;
	cfg.dma_ctx = buf;
	sd_tran(&cfg);
	for (int p = 0; p < 2; p++) {
		memset(buf, 0x5a, sizeof(buf));
		hook_calls = 0;
		segs[0].addr = DEV_BASE;
		segs[0].len = 2048;
		dma_xfer(&x, &c, &d, 25, 60, MMCHAL_DIR_TO_CARD, 4, plans[p], 1);
		assert_int_equal(mh_run(&x), ALL_DONE);
		assert_int_equal(hook_calls, 4); /* one range per block */
		assert_int_equal(hook_dir, MMCHAL_DIR_TO_CARD);
		assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
		for (int i = 0; i < 2048; i++)
			assert_int_equal(mh_image[60 * 512 + i], 0x5a);
		assert_int_equal(mmchal_mock_log_last(&mh)->opcode, 12);
	}
	/* The third block's range is beyond the hook's window: EFAULT after 2 blocks. */
	segs[0].addr = DEV_BASE + 2048;
	segs[0].len = 1024;
	segs[1].addr = DEV_BASE + 8192;
	segs[1].len = 1024;
	dma_xfer(&x, &c, &d, 18, 0, MMCHAL_DIR_FROM_CARD, 4, MMCHAL_PLAN_DIRECT, 2);
	assert_int_equal(mh_run(&x), DATA_ERR);
	assert_int_equal(d.error, MMCHAL_EFAULT);
	assert_int_equal(hook_dir, MMCHAL_DIR_FROM_CARD);
	assert_memory_equal(buf + 2048, mh_image, 1024);
	assert_int_equal(mh.blocks_done, 2);
	{
		uint32_t n = 99;

		assert_int_equal(mh_ops->blocks_done(&mh, &n), 0);
		assert_int_equal(n, 2);
	}
	/* A failed multiple-block read waits for CMD12. */
	assert_int_equal(mh.state, MMCHAL_MOCK_ST_DATA);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
}

/* Every declared DMA rule is enforced; a refused start sends nothing. */
static void test_dma_rules(void **state)
{
	struct mmchal_mock_cfg cfg;
	struct mmchal_xfer x;
	struct mmchal_cmd c;
	struct mmchal_data d;
	uint32_t logged;

	(void)state;
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	cfg.dma = dma_caps(2);
	cfg.dma.dir[MMCHAL_DIR_FROM_CARD].addr_align = 16;
	cfg.dma.dir[MMCHAL_DIR_FROM_CARD].len_granule = 4;
	cfg.dma.dir[MMCHAL_DIR_FROM_CARD].addr_bits = 32;
	cfg.dma.dir[MMCHAL_DIR_FROM_CARD].seg_boundary = 0xfff;
	cfg.dma.dir[MMCHAL_DIR_FROM_CARD].max_seg_size = 1024;
	cfg.dma.dir[MMCHAL_DIR_FROM_CARD].min_len = 1024;
	cfg.dma.dir[MMCHAL_DIR_FROM_CARD].max_xfer = 1536;
	cfg.dma_to_cpu = dev_to_cpu;
	cfg.dma_ctx = buf;
	sd_tran(&cfg);
	logged = mmchal_mock_log_count(&mh);

	segs[0].addr = DEV_BASE;
	segs[0].len = 512;
	segs[1].addr = DEV_BASE + 512;
	segs[1].len = 512;
	dma_xfer(&x, &c, &d, 18, 0, MMCHAL_DIR_FROM_CARD, 2, MMCHAL_PLAN_DIRECT, 2);
	assert_int_equal(mh_ops->start(&mh, &x), 0); /* the good one */
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EBUSY);
	assert_int_equal(mh_ops->abort(&mh), 0);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	logged = mmchal_mock_log_count(&mh);

	dma_xfer(&x, &c, &d, 18, 0, MMCHAL_DIR_FROM_CARD, 2, MMCHAL_PLAN_DIRECT, 3);
	segs[2].addr = DEV_BASE + 1024;
	segs[2].len = 0;
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL); /* 3 > max_segs */
	dma_xfer(&x, &c, &d, 18, 0, MMCHAL_DIR_FROM_CARD, 2, MMCHAL_PLAN_IOMMU_MERGED, 2);
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL); /* merged = one segment */
	dma_xfer(&x, &c, &d, 18, 0, MMCHAL_DIR_FROM_CARD, 2, MMCHAL_PLAN_BOUNCED, 2);
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	segs[0].addr = DEV_BASE + 8; /* misaligned */
	dma_xfer(&x, &c, &d, 18, 0, MMCHAL_DIR_FROM_CARD, 2, MMCHAL_PLAN_DIRECT, 2);
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	segs[0].addr = 0x100000000ull; /* beyond 32 address bits */
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	segs[0].addr = DEV_BASE + 0xf00; /* crosses the 4 KiB boundary */
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	segs[0].addr = DEV_BASE;
	segs[0].len = 510; /* not a multiple of the granule, and the sum is wrong */
	segs[1].len = 514;
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	segs[0].len = 1536; /* above max_seg_size */
	dma_xfer(&x, &c, &d, 18, 0, MMCHAL_DIR_FROM_CARD, 3, MMCHAL_PLAN_DIRECT, 1);
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	segs[0].len = 512; /* below min_len */
	dma_xfer(&x, &c, &d, 17, 0, MMCHAL_DIR_FROM_CARD, 1, MMCHAL_PLAN_DIRECT, 1);
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	segs[0].len = 1024; /* total above max_xfer */
	segs[1].addr = DEV_BASE + 1024;
	segs[1].len = 1024;
	dma_xfer(&x, &c, &d, 18, 0, MMCHAL_DIR_FROM_CARD, 4, MMCHAL_PLAN_DIRECT, 2);
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	/* The other direction has none of these rules: accepted. */
	dma_xfer(&x, &c, &d, 25, 0, MMCHAL_DIR_TO_CARD, 4, MMCHAL_PLAN_DIRECT, 2);
	assert_int_equal(mh_run(&x), ALL_DONE);
	assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	assert_int_equal(mmchal_mock_stats(&mh)->rejected, 11);
	assert_int_equal(mmchal_mock_log_count(&mh), logged + 2);

	/* PIO-only engine: every DMA plan is refused; PIO needs CPU addresses. */
	mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
	sd_tran(&cfg);
	segs[0].addr = (mmchal_dma_addr_t)(uintptr_t)buf;
	segs[0].len = 512;
	dma_xfer(&x, &c, &d, 17, 0, MMCHAL_DIR_FROM_CARD, 1, MMCHAL_PLAN_DIRECT, 1);
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	sg[0].cpu = NULL;
	sg[0].len = 512;
	dma_xfer(&x, &c, &d, 17, 0, MMCHAL_DIR_FROM_CARD, 1, MMCHAL_PLAN_PIO, 1);
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	sg[0].cpu = buf;
	d.blksz = 0;
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	d.blksz = 512;
	c.opcode = 64;
	assert_int_equal(mh_ops->start(&mh, &x), MMCHAL_EINVAL);
	assert_int_equal(mh_ops->start(&mh, NULL), MMCHAL_EINVAL);
	c.opcode = 17;
	assert_int_equal(mh_run(&x), ALL_DONE);
}

/* Device addresses of test_dma_exact_limits: the low 16 bits index dma_mem
   (the segments of one row do not overlap there). */
static uint8_t dma_mem[0x10000];

static void *low16_to_cpu(void *ctx, mmchal_dma_addr_t addr, uint32_t len, enum mmchal_dir dir)
{
	(void)ctx;
	(void)dir;
	if ((addr & 0xffffu) + len > sizeof(dma_mem))
		return NULL;
	return dma_mem + (addr & 0xffffu);
}

/*
 * Transfers exactly at each DMA rule of the engine are accepted and move the
 * right bytes: max_segs segments, a segment of max_seg_size, a total of
 * max_xfer and of min_len, a segment that ends on the last byte the address
 * bits reach and on the last byte before a boundary, one at the alignment,
 * and the last byte of a 64-bit address space. The largest data phase and
 * CMD63, the highest command, are taken too.
 */
static void test_dma_exact_limits(void **state)
{
	static const struct {
		uint32_t blocks, nsegs;
		uint64_t addr[4];
		uint32_t len[4];
		uint32_t addr_bits;
		uint32_t max_xfer;
	} rows[] = {
		/* 4 segments (max_segs), 2048 bytes (max_xfer) */
		{4, 4, {0x10000, 0x21000, 0x32000, 0x43000}, {512, 512, 512, 512}, 32, 2048},
		/* segments of max_seg_size; max_xfer 0 means max_segs x max_seg_size */
		{8, 4, {0x50000, 0x61000, 0x72000, 0x83000}, {1024, 1024, 1024, 1024}, 32, 0},
		/* ends on 0xffffffff, the last byte of 32 address bits */
		{1, 1, {0xfffffe00u}, {512}, 32, 2048},
		/* ends on 0x6ffff, the last byte before the 64 KiB boundary */
		{1, 1, {0x6fe00}, {512}, 32, 2048},
		/* at the 8-byte alignment, in two segments of 4-byte granules */
		{1, 2, {0x70008, 0x80210}, {508, 4}, 32, 2048},
		/* 64 address bits: the last 512 bytes there are */
		{1, 1, {UINT64_MAX - 511u}, {512}, 64, 2048},
	};
	struct mmchal_mock_cfg cfg;
	struct mmchal_dma_seg seg[4];
	struct mmchal_cmd c;
	struct mmchal_data d;
	struct mmchal_xfer x;

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		uint32_t blk = (uint32_t)r * 8u, pos = 0;
		const struct mmchal_dma_dir_caps rules = {
			.max_segs = 4,
			.max_seg_size = 1024,
			.addr_align = 8,
			.len_granule = 4,
			.addr_bits = rows[r].addr_bits,
			.seg_boundary = 0xffff,
			.min_len = 512,
			.max_xfer = rows[r].max_xfer,
		};

		mh_cfg(&cfg, MMCHAL_MOCK_SDHC, MH_IMAGE_SIZE);
		cfg.dma = dma_both(&rules);
		cfg.dma_to_cpu = low16_to_cpu;
		sd_tran(&cfg);
		memset(dma_mem, 0, sizeof(dma_mem));
		for (uint32_t i = 0; i < rows[r].nsegs; i++) {
			seg[i].addr = rows[r].addr[i];
			seg[i].len = rows[r].len[i];
		}
		memset(&c, 0, sizeof(c));
		memset(&d, 0, sizeof(d));
		memset(&x, 0, sizeof(x));
		c.opcode = rows[r].blocks > 1u ? 18 : 17;
		c.arg = blk;
		c.flags = MMCHAL_RSP_R1;
		d.dir = MMCHAL_DIR_FROM_CARD;
		d.blksz = 512;
		d.blocks = rows[r].blocks;
		x.cmd = &c;
		x.data = &d;
		x.plan = MMCHAL_PLAN_DIRECT;
		x.segs = seg;
		x.nsegs = rows[r].nsegs;
		assert_int_equal(mh_run(&x), ALL_DONE);
		assert_int_equal(d.error, 0);
		assert_int_equal(mmchal_mock_stats(&mh)->rejected, 0);
		for (uint32_t i = 0; i < rows[r].nsegs; i++) {
			const uint8_t *p = dma_mem + (rows[r].addr[i] & 0xffffu);

			for (uint32_t k = 0; k < rows[r].len[i]; k++, pos++)
				assert_int_equal(p[k], mh_pattern((uint64_t)blk * 512u + pos));
		}
		if (rows[r].blocks > 1u)
			assert_int_equal(mh_cmd(12, 0, MMCHAL_RSP_R1B, &c), CMD_DONE);
	}
	/* The largest data phase, 4 GiB - 1 (3 x 0x55555555 bytes), is taken;
	   aborted before any interrupt, it touches none of the buffer. */
	{
		struct mmchal_sg one = {.cpu = dma_mem, .len = UINT32_MAX};

		memset(&c, 0, sizeof(c));
		memset(&d, 0, sizeof(d));
		memset(&x, 0, sizeof(x));
		memset(dma_mem, 0x6b, sizeof(dma_mem));
		c.opcode = 18;
		c.flags = MMCHAL_RSP_R1;
		d.dir = MMCHAL_DIR_FROM_CARD;
		d.blksz = 3;
		d.blocks = 0x55555555u;
		d.sg = &one;
		d.sg_len = 1;
		x.cmd = &c;
		x.data = &d;
		assert_int_equal(mh_ops->start(&mh, &x), 0);
		assert_int_equal(mh_ops->abort(&mh), 0);
		assert_int_equal(mmchal_mock_stats(&mh)->rejected, 0);
		for (size_t i = 0; i < sizeof(dma_mem); i++)
			assert_int_equal(dma_mem[i], 0x6b);
	}
	/* CMD63 is a command the card refuses, not a transfer the host refuses. */
	memset(&c, 0, sizeof(c));
	memset(&x, 0, sizeof(x));
	c.opcode = 63;
	c.flags = MMCHAL_RSP_R1;
	x.cmd = &c;
	assert_int_equal(mh_ops->start(&mh, &x), 0);
	assert_int_equal(mmchal_mock_stats(&mh)->rejected, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dma_direct_default),
		cmocka_unit_test(test_dma_hook_and_fault),
		cmocka_unit_test(test_dma_rules),
		cmocka_unit_test(test_dma_exact_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
