/*
 * The SDHCI backend against QEMU's own SD card and host controller.
 *
 * The guest drives the backend's ops directly: it identifies the card (CMD0,
 * CMD8, ACMD41, CMD2, CMD3, CMD9, CMD7, ACMD6), then reads and writes blocks
 * through every data path the controller offers (PIO, SDMA, ADMA2-32 with a
 * scatter list, ADMA2-64 into RAM above 4 GiB where there is some) and checks
 * every byte against the image formula of sd_image.h. After QEMU exits, the
 * host tool sdimg checks the image file for the same writes.
 *
 * Tests run in order and share the card state; each starts by selecting the
 * DMA mode it exercises.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <mmchal/sdhci.h>

#include "target/platform.h"
#include "sd_common.h"
#include "sd_image.h"
#include "sd_platform.h"

#define CMD_TIMEOUT_NS 200000000ull /* 200 ms: QEMU answers at once; a stuck transfer ends here */
#define R1_ADDRESS_ERR (1u << 30)
#define R1_STATE(r)    (((r) >> 9) & 0xfu)
#define R1_STATE_TRAN  4u
#define R1_STATE_DATA  5u
#define R1_STATE_RCV   6u
#define R1_READY       (1u << 8) /* READY_FOR_DATA */
#define OCR_BUSY       (1u << 31)
#define OCR_CCS        (1u << 30)

static struct sd_platform plat;
static struct mmchal_sdhci sdhci;
static struct mmchal_backend be;
static struct mmchal_host_caps hcaps;
static struct mmchal_dma_caps dcaps;
static uint32_t sd_flags;

static struct {
	uint32_t ocr, rca, cid[4], csd[4];
	bool hc;
	uint32_t sectors;
} card;

/* Buffers: 512 KiB aligned to the SDMA boundary, plus a scatter area. */
static uint8_t big[512u * 1024u] __attribute__((aligned(512u * 1024u)));
static uint8_t area[256u * 1024u] __attribute__((aligned(4096)));
static uint8_t adma_table[MMCHAL_SDHCI_ADMA_TABLE_SIZE(16)] __attribute__((aligned(8)));

/* ------------------------------------------------------------- backend */

static int use_mode(enum mmchal_sdhci_dma mode, void *table, uint32_t table_size)
{
	struct mmchal_sdhci_cfg cfg = {
		.port = &sd_port_cached,
		.base_clock_hz = plat.base_clock_hz,
		.bus_width = 4,
		.dma = mode,
		.adma_table = table,
		.adma_table_dma = (uintptr_t)table,
		.adma_table_size = table_size,
	};
	int ret = mmchal_bus_init_mmio(&cfg.bus, plat.regs, 0);

	if (ret == 0)
		ret = mmchal_sdhci_init(&sdhci, &cfg, &be);
	if (ret == 0)
		ret = be.ops->probe(be.ctx);
	if (ret == 0)
		ret = be.ops->get_caps(be.ctx, &hcaps, &dcaps);
	return ret;
}

static int set_bus(uint32_t hz, enum mmchal_bus_width width)
{
	struct mmchal_ios ios = {
		.clock_hz = hz,
		.bus_width = width,
		.timing = MMCHAL_TIMING_LEGACY,
		.power_mode = MMCHAL_POWER_ON,
		.signal_voltage = MMCHAL_SIGNAL_330,
	};

	return be.ops->set_ios(be.ctx, &ios);
}

static bool is_64(enum mmchal_sdhci_dma mode)
{
	return mode == MMCHAL_SDHCI_DMA_ADMA2_64;
}

/* Re-probe in @mode (a controller reset) and restore the card's bus settings. */
static void select_mode(enum mmchal_sdhci_dma mode)
{
	void *table = is_64(mode) ? (void *)plat.high_mem : adma_table;

	assert_int_equal(use_mode(mode, mode >= MMCHAL_SDHCI_DMA_ADMA2_32 ? table : NULL,
				  mode >= MMCHAL_SDHCI_DMA_ADMA2_32 ? sizeof(adma_table) : 0),
			 0);
	assert_int_equal(sdhci.mode, mode);
	assert_int_equal(set_bus(25000000, MMCHAL_BUS_WIDTH_4), 0);
}

/* Start @x and poll until it completes, fails or times out (then abort). */
static int run(const struct mmchal_xfer *x)
{
	uint32_t want = MMCHAL_EV_CMD_DONE, got = 0, ev;
	uint64_t end;
	int ret;

	if (x->data)
		want |= MMCHAL_EV_DATA_DONE;
	else if (x->cmd->flags & MMCHAL_RSP_BUSY)
		want |= MMCHAL_EV_BUSY_DONE;
	ret = be.ops->start(be.ctx, x);
	if (ret)
		return ret;
	end = sd_platform_now_ns() + CMD_TIMEOUT_NS;
	for (;;) {
		ret = be.ops->handle_irq(be.ctx, &ev);
		if (ret)
			return ret;
		got |= ev;
		if (got & MMCHAL_EV_CMD_ERROR)
			return x->cmd->error;
		if (got & MMCHAL_EV_DATA_ERROR)
			return x->data->error;
		if ((got & want) == want)
			return 0;
		if (sd_platform_now_ns() > end) {
			be.ops->abort(be.ctx);
			return MMCHAL_ETIMEDOUT;
		}
	}
}

static int cmd(uint32_t opcode, uint32_t arg, uint32_t flags, uint32_t *resp)
{
	struct mmchal_cmd c = {.opcode = opcode, .arg = arg, .flags = flags};
	struct mmchal_xfer x = {.cmd = &c};
	int ret = run(&x);

	if (resp)
		memcpy(resp, c.resp, sizeof(c.resp));
	return ret;
}

static int acmd(uint32_t opcode, uint32_t arg, uint32_t flags, uint32_t *resp)
{
	int ret = cmd(55, card.rca << 16, MMCHAL_RSP_R1, NULL);

	return ret ? ret : cmd(opcode, arg, flags, resp);
}

/* Bits hi..lo of a 128-bit register held as resp[0] = bits 127:96 ... resp[3] = 31:0. */
static uint32_t bits(const uint32_t *r, unsigned int hi, unsigned int lo)
{
	uint32_t v = 0;

	for (unsigned int b = hi + 1; b-- > lo;)
		v = (v << 1) | ((r[3 - b / 32] >> (b % 32)) & 1u);
	return v;
}

/* ------------------------------------------------------------- blocks */

struct blk_io {
	enum mmchal_dir dir;
	uint32_t lba, count;
	const struct mmchal_sg *sg; /* PIO: the buffers */
	uint32_t sg_len;
	bool dma;    /* DIRECT plan through segs built from sg */
	uint32_t r1; /* response of the read/write command */
};

static int blocks(struct blk_io *io)
{
	struct mmchal_dma_seg segs[16];
	struct mmchal_cmd c = {
		.arg = card.hc ? io->lba : io->lba * SDIMG_SECTOR,
		.flags = MMCHAL_RSP_R1,
	};
	struct mmchal_data d = {
		.dir = io->dir,
		.blksz = SDIMG_SECTOR,
		.blocks = io->count,
		.sg = io->sg,
		.sg_len = io->sg_len,
	};
	struct mmchal_cmd stop = {.opcode = 12, .flags = MMCHAL_RSP_R1B, .resp = {0xffffffffu}};
	struct mmchal_xfer x = {.cmd = &c,
				.data = &d,
				.auto_stop = io->count > 1,
				.stop = io->count > 1 ? &stop : NULL};
	uint32_t want;
	int ret;

	if (io->dir == MMCHAL_DIR_FROM_CARD)
		c.opcode = io->count > 1 ? 18 : 17;
	else
		c.opcode = io->count > 1 ? 25 : 24;
	if (io->dma) {
		if (io->sg_len > 16)
			return MMCHAL_EINVAL;
		for (uint32_t i = 0; i < io->sg_len; i++) {
			segs[i].addr = io->sg[i].phys;
			segs[i].len = io->sg[i].len;
		}
		x.plan = MMCHAL_PLAN_DIRECT;
		x.segs = segs;
		x.nsegs = io->sg_len;
	}
	ret = run(&x);
	io->r1 = c.resp[0];
	if (ret == 0 && d.bytes_xfered != io->count * SDIMG_SECTOR)
		return MMCHAL_EIO;
	/* The Auto CMD12's R1 (Response bits 127:96): the card got it while sending
	   (data) or receiving (rcv), ready for data, with no error bits. */
	want = (io->dir == MMCHAL_DIR_FROM_CARD ? R1_STATE_DATA : R1_STATE_RCV) << 9 | R1_READY;
	if (ret == 0 && x.stop && (stop.error != 0 || stop.resp[0] != want))
		return MMCHAL_EPROTO;
	return ret;
}

/* Read or write @count sectors at @lba through the buffers @sg (PIO or the current DMA mode). */
static int io_sg(enum mmchal_dir dir, uint32_t lba, uint32_t count, const struct mmchal_sg *sg,
		 uint32_t n, bool dma)
{
	struct blk_io io = {
		.dir = dir, .lba = lba, .count = count, .sg = sg, .sg_len = n, .dma = dma};

	return blocks(&io);
}

/* Write plan entry @w through @wsg, read it back through @rsg, both by @dma, and compare. */
static void write_and_verify(const struct sdimg_write *w, const struct mmchal_sg *wsg, uint32_t wn,
			     const struct mmchal_sg *rsg, uint32_t rn, bool dma)
{
	uint32_t st[4];

	mmt_printf("  write %u sector(s) at %u: %s\n", (unsigned int)w->count, (unsigned int)w->lba,
		   w->what);
	sd_fill(wsg, wn, w->lba, w->tag);
	assert_int_equal(io_sg(MMCHAL_DIR_TO_CARD, w->lba, w->count, wsg, wn, dma), 0);
	assert_int_equal(cmd(13, card.rca << 16, MMCHAL_RSP_R1, st), 0);
	assert_int_equal(R1_STATE(st[0]), R1_STATE_TRAN);
	sd_scrub(rsg, rn);
	assert_int_equal(io_sg(MMCHAL_DIR_FROM_CARD, w->lba, w->count, rsg, rn, dma), 0);
	sd_check(rsg, rn, w->lba, w->tag);
}

static struct sdimg_write plan[SDIMG_W_COUNT];

/* --------------------------------------------------------------- tests */

static void test_probe(void **state)
{
	(void)state;
	assert_int_equal(use_mode(MMCHAL_SDHCI_DMA_NONE, NULL, 0), 0);
	mmt_printf("  controller: spec field %u (v%u.00), vendor %u, caps 0x%08x 0x%08x\n",
		   sdhci.spec, sdhci.spec + 1u, sdhci.vendor, (unsigned int)sdhci.caps0,
		   (unsigned int)sdhci.caps1);
	mmt_printf("  host caps: bus 0x%05x, f_min %u Hz, f_max %u Hz, max_blk_size %u\n",
		   (unsigned int)hcaps.bus, (unsigned int)hcaps.f_min_hz,
		   (unsigned int)hcaps.f_max_hz, (unsigned int)hcaps.max_blk_size);
	assert_int_equal(dcaps.kind, MMCHAL_DMA_NONE);
	assert_int_equal(hcaps.completion, MMCHAL_COMPLETES_POLLED);
	assert_int_equal(hcaps.blk_count_bits, 16);
	assert_true(hcaps.bus & MMCHAL_BUS_4_BIT);
	assert_true(hcaps.bus & MMCHAL_BUS_AUTO_CMD12);
	assert_false(hcaps.bus & (MMCHAL_BUS_NONREMOVABLE | MMCHAL_BUS_8_BIT));
	assert_true(hcaps.f_max_hz >= 25000000u);
	assert_true(hcaps.f_min_hz <= 400000u);
	assert_int_equal(be.ops->get_cd(be.ctx), 1);
	assert_int_equal(be.ops->get_ro(be.ctx), 0);
	/* Before power-up: no clock, no command can be issued. */
	assert_int_equal(sdhci.clock_hz, 0);
}

static void test_identify(void **state)
{
	uint32_t r[4];
	char oid[3], pnm[6];

	(void)state;
	assert_int_equal(set_bus(400000, MMCHAL_BUS_WIDTH_1), 0);
	assert_true(sdhci.clock_hz <= 400000u && sdhci.clock_hz >= 100000u);
	mmt_printf("  identification clock %u Hz\n", (unsigned int)sdhci.clock_hz);
	assert_int_equal(be.ops->card_busy(be.ctx), 0);

	/* CMD0: GO_IDLE_STATE; CMD8: SEND_IF_COND, 2.7-3.6 V, check pattern 0xaa. */
	assert_int_equal(cmd(0, 0, MMCHAL_RSP_NONE, NULL), 0);
	assert_int_equal(cmd(8, 0x1aa, MMCHAL_RSP_R7, r), 0);
	assert_int_equal(r[0], 0x1aa);
	/* ACMD41: SD_SEND_OP_COND with HCS, 2.7-3.6 V, until the card leaves busy. */
	for (int i = 0; i < 100; i++) {
		assert_int_equal(acmd(41, OCR_CCS | 0x00ff8000u, MMCHAL_RSP_R3, r), 0);
		if (r[0] & OCR_BUSY)
			break;
	}
	card.ocr = r[0];
	assert_true(card.ocr & OCR_BUSY);
	card.hc = (card.ocr & OCR_CCS) != 0;
	/* CMD2: ALL_SEND_CID; CMD3: SEND_RELATIVE_ADDR; CMD9: SEND_CSD. */
	assert_int_equal(cmd(2, 0, MMCHAL_RSP_R2, card.cid), 0);
	assert_int_equal(cmd(3, 0, MMCHAL_RSP_R6, r), 0);
	card.rca = r[0] >> 16;
	assert_int_not_equal(card.rca, 0);
	assert_int_equal(cmd(9, card.rca << 16, MMCHAL_RSP_R2, card.csd), 0);
	if (bits(card.csd, 127, 126) == 0) {
		uint32_t c_size = bits(card.csd, 73, 62), mult = bits(card.csd, 49, 47);
		uint32_t bl_len = bits(card.csd, 83, 80);

		card.sectors = ((c_size + 1u) << (mult + 2u + bl_len)) / SDIMG_SECTOR;
		assert_false(card.hc);
	} else {
		assert_int_equal(bits(card.csd, 127, 126), 1);
		card.sectors = (bits(card.csd, 69, 48) + 1u) * 1024u;
		assert_true(card.hc);
	}
	/* CMD7: SELECT_CARD, R1b. */
	assert_int_equal(cmd(7, card.rca << 16, MMCHAL_RSP_R1B, r), 0);
	/* ACMD6: SET_BUS_WIDTH 4-bit; CMD16 for byte-addressed cards. */
	assert_int_equal(acmd(6, 2, MMCHAL_RSP_R1, NULL), 0);
	if (!card.hc)
		assert_int_equal(cmd(16, SDIMG_SECTOR, MMCHAL_RSP_R1, NULL), 0);
	assert_int_equal(set_bus(25000000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(cmd(13, card.rca << 16, MMCHAL_RSP_R1, r), 0);
	assert_int_equal(R1_STATE(r[0]), R1_STATE_TRAN);

	oid[0] = (char)bits(card.cid, 119, 112);
	oid[1] = (char)bits(card.cid, 111, 104);
	oid[2] = '\0';
	for (unsigned int i = 0; i < 5; i++)
		pnm[i] = (char)bits(card.cid, 103 - 8 * i, 96 - 8 * i);
	pnm[5] = '\0';
	mmt_printf("  card: OCR 0x%08x (%s), RCA 0x%04x, CSD v%u, %u sectors (%u MiB)\n",
		   (unsigned int)card.ocr,
		   card.hc ? "SDHC, block addressing" : "SDSC, byte addressing",
		   (unsigned int)card.rca, (unsigned int)bits(card.csd, 127, 126) + 1u,
		   (unsigned int)card.sectors, (unsigned int)(card.sectors / 2048u));
	mmt_printf("  CID: %08x %08x %08x %08x: MID 0x%02x OID \"%s\" PNM \"%s\" PRV %u.%u "
		   "PSN 0x%08x MDT %u/%u\n",
		   (unsigned int)card.cid[0], (unsigned int)card.cid[1], (unsigned int)card.cid[2],
		   (unsigned int)card.cid[3], (unsigned int)bits(card.cid, 127, 120), oid, pnm,
		   (unsigned int)bits(card.cid, 63, 60), (unsigned int)bits(card.cid, 59, 56),
		   (unsigned int)bits(card.cid, 55, 24), (unsigned int)bits(card.cid, 11, 8),
		   (unsigned int)(2000u + bits(card.cid, 19, 12)));
	/* What QEMU's card (hw/sd/sd.c) puts in its CID. */
	assert_int_equal(bits(card.cid, 127, 120), 0xaa);
	assert_string_equal(oid, "XY");
	assert_string_equal(pnm, "QEMU!");
	mmt_printf("sd-card: %s %u\n", card.hc ? "SDHC" : "SDSC", (unsigned int)card.sectors);
	sdimg_plan(sd_flags, card.sectors, plan);
}

static void test_pio_read(void **state)
{
	struct mmchal_sg sg[3] = {sd_sg(area, 1001), sd_sg(area + 2000, 23),
				  sd_sg(area + 4096, 3072)};
	struct mmchal_sg one = sd_sg(area + 8192, SDIMG_SECTOR);

	(void)state;
	select_mode(MMCHAL_SDHCI_DMA_NONE);
	/* CMD18 + auto-CMD12, 8 sectors into three buffers (one boundary mid-word). */
	sd_scrub(sg, 3);
	assert_int_equal(io_sg(MMCHAL_DIR_FROM_CARD, 16, 8, sg, 3, false), 0);
	sd_check(sg, 3, 16, 0);
	/* CMD17 of sector 0 and of the last tag-0 sector of the head. */
	assert_int_equal(io_sg(MMCHAL_DIR_FROM_CARD, 0, 1, &one, 1, false), 0);
	sd_check(&one, 1, 0, 0);
	assert_int_equal(io_sg(MMCHAL_DIR_FROM_CARD, SDIMG_HEAD_SECTS - 1u, 1, &one, 1, false), 0);
	sd_check(&one, 1, SDIMG_HEAD_SECTS - 1u, 0);
	/* A sector in the sparse middle of the image reads as zeros. */
	memset(area + 8192, 0x5a, SDIMG_SECTOR);
	assert_int_equal(io_sg(MMCHAL_DIR_FROM_CARD, card.sectors / 2u, 1, &one, 1, false), 0);
	for (uint32_t i = 0; i < SDIMG_SECTOR; i++)
		assert_int_equal(area[8192 + i], 0);
}

static void test_pio_write(void **state)
{
	struct mmchal_sg w[2] = {sd_sg(area, 1536), sd_sg(area + 4096, 2560)};
	struct mmchal_sg r = sd_sg(area + 16384, 8 * SDIMG_SECTOR);
	uint32_t done = 99;

	(void)state;
	select_mode(MMCHAL_SDHCI_DMA_NONE);
	write_and_verify(&plan[SDIMG_W_PIO], w, 2, &r, 1, false);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 8);
}

static void test_sdma(void **state)
{
	struct mmchal_sg w = sd_sg(area, 16 * SDIMG_SECTOR);
	struct mmchal_sg r = sd_sg(area + 65536, 16 * SDIMG_SECTOR);
	struct mmchal_sg b = sd_sg(big, sizeof(big));
	struct mmchal_sg cross = sd_sg(big + sizeof(big) - 512, 1024);

	(void)state;
	select_mode(MMCHAL_SDHCI_DMA_SDMA);
	assert_int_equal(dcaps.kind, MMCHAL_DMA_INTERNAL);
	assert_int_equal(dcaps.dir[MMCHAL_DIR_FROM_CARD].max_segs, 1);
	assert_int_equal(dcaps.dir[MMCHAL_DIR_FROM_CARD].seg_boundary, 512u * 1024u - 1u);
	assert_int_equal(dcaps.dir[MMCHAL_DIR_FROM_CARD].addr_bits, 32);
	write_and_verify(&plan[SDIMG_W_SDMA], &w, 1, &r, 1, true);
	/* 512 KiB in one segment that ends exactly at the 512 KiB boundary. */
	sd_scrub(&b, 1);
	assert_int_equal(io_sg(MMCHAL_DIR_FROM_CARD, 8192, 1024, &b, 1, true), 0);
	sd_check(&b, 1, 8192, 0);
	/* A segment across the boundary is refused before anything is issued. */
	assert_int_equal(io_sg(MMCHAL_DIR_FROM_CARD, 8192, 2, &cross, 1, true), MMCHAL_EINVAL);
}

static void test_adma32_scatter(void **state)
{
	/* Five segments of uneven sizes, out of order in memory, one not block-aligned. */
	struct mmchal_sg w[5] = {sd_sg(area + 40960, 512), sd_sg(area + 4, 1536),
				 sd_sg(area + 16384, 4096), sd_sg(area + 8192, 3072),
				 sd_sg(area + 32768, 3072)};
	struct mmchal_sg r[3] = {sd_sg(area + 65536 + 12, 2052), sd_sg(area + 81920, 4092),
				 sd_sg(area + 98304, 6144)};
	unsigned int cleans;

	(void)state;
	select_mode(MMCHAL_SDHCI_DMA_ADMA2_32);
	assert_int_equal(dcaps.dir[MMCHAL_DIR_TO_CARD].max_segs,
			 sizeof(adma_table) / MMCHAL_SDHCI_ADMA2_32_DESC_SIZE);
	assert_int_equal(dcaps.dir[MMCHAL_DIR_TO_CARD].max_seg_size, 65536);
	cleans = sd_cache_cleans;
	write_and_verify(&plan[SDIMG_W_ADMA32], w, 5, r, 3, true);
	/* The table was cleaned before each start: the read's 3 descriptors last. */
	assert_int_equal(sd_cache_cleans, cleans + 2u);
	assert_int_equal(sd_cache_clean_len, 3u * MMCHAL_SDHCI_ADMA2_32_DESC_SIZE);
}

static void test_adma32_64k(void **state)
{
	/* A descriptor of exactly 64 KiB is encoded with length 0. */
	struct mmchal_sg w[2] = {sd_sg(big, 65536), sd_sg(big + 131072, 16384)};
	struct mmchal_sg r[2] = {sd_sg(big + 262144, 16384), sd_sg(area, 65536)};

	(void)state;
	select_mode(MMCHAL_SDHCI_DMA_ADMA2_32);
	write_and_verify(&plan[SDIMG_W_ADMA32_64K], w, 2, r, 2, true);
	/* The read's descriptors: 16 KiB (valid, transfer), then 64 KiB as length 0 (+ end). */
	assert_int_equal(adma_table[0], 0x21);
	assert_int_equal(adma_table[2] | adma_table[3] << 8, 16384);
	assert_int_equal(adma_table[8], 0x23);
	assert_int_equal(adma_table[10] | adma_table[11], 0);
}

static void test_last_sector(void **state)
{
	struct mmchal_sg one = sd_sg(area, SDIMG_SECTOR);
	struct mmchal_sg r = sd_sg(area + 4096, SDIMG_SECTOR);
	struct blk_io past = {.dir = MMCHAL_DIR_FROM_CARD, .count = 1, .sg = &r, .sg_len = 1};
	uint32_t st[4];

	(void)state;
	select_mode(MMCHAL_SDHCI_DMA_ADMA2_32);
	write_and_verify(&plan[SDIMG_W_LAST], &one, 1, &r, 1, false);
	assert_int_equal(io_sg(MMCHAL_DIR_FROM_CARD, card.sectors - 2u, 1, &r, 1, true), 0);
	sd_check(&r, 1, card.sectors - 2u, 0);
	/* One past the end: R1 ADDRESS_ERROR, then no data; the software timeout ends it. */
	past.lba = card.sectors;
	assert_int_equal(blocks(&past), MMCHAL_ETIMEDOUT);
	assert_true(past.r1 & R1_ADDRESS_ERR);
	mmt_printf("  read past the end: R1 0x%08x, then the software timeout\n",
		   (unsigned int)past.r1);
	/* The controller and the card recover after the abort. */
	assert_int_equal(cmd(13, card.rca << 16, MMCHAL_RSP_R1, st), 0);
	assert_int_equal(R1_STATE(st[0]), R1_STATE_TRAN);
	assert_int_equal(io_sg(MMCHAL_DIR_FROM_CARD, 0, 1, &r, 1, true), 0);
	sd_check(&r, 1, 0, 0);
}

static void test_adma64_high(void **state)
{
	uint8_t *hi = (uint8_t *)plat.high_mem;
	/* One segment across the 4 GiB line, two above it. */
	struct mmchal_sg w[3] = {sd_sg((void *)plat.below_4g_edge, 8192), sd_sg(hi + 0x10000, 4096),
				 sd_sg(hi + 0x30004, 4096)};
	struct mmchal_sg r[2] = {sd_sg(hi + 0x40000, 12288),
				 sd_sg((void *)plat.below_4g_edge, 4096)};

	(void)state;
	select_mode(MMCHAL_SDHCI_DMA_ADMA2_64);
	assert_int_equal(dcaps.dir[MMCHAL_DIR_TO_CARD].addr_bits, 64);
	assert_int_equal(dcaps.dir[MMCHAL_DIR_TO_CARD].max_segs,
			 sizeof(adma_table) / MMCHAL_SDHCI_ADMA2_64_DESC_SIZE);
	write_and_verify(&plan[SDIMG_W_ADMA64], w, 3, r, 2, true);
	/* The table itself sits above 4 GiB and holds the read's two 96-bit descriptors:
	   hi + 0x40000 (address bits 63:32 = 1), then the segment below 4 GiB (+ end). */
	assert_int_equal(hi[0], 0x21);
	assert_int_equal(hi[8], 1);
	assert_int_equal(hi[12], 0x23);
	assert_int_equal(hi[12 + 8], 0);
}

static void test_state(void **state)
{
	(void)state;
	assert_int_equal(be.ops->card_busy(be.ctx), 0);
	assert_int_equal(be.ops->get_cd(be.ctx), 1);
	assert_int_equal(be.ops->get_ro(be.ctx), 0);
	/* Power off stops the clock; the card layer would start again from CMD0. */
	{
		struct mmchal_ios ios = {.power_mode = MMCHAL_POWER_OFF,
					 .bus_width = MMCHAL_BUS_WIDTH_1};

		assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
		assert_int_equal(sdhci.clock_hz, 0);
	}
}

int main(void)
{
	static const struct CMUnitTest base[] = {
		cmocka_unit_test(test_probe),      cmocka_unit_test(test_identify),
		cmocka_unit_test(test_pio_read),   cmocka_unit_test(test_pio_write),
		cmocka_unit_test(test_sdma),       cmocka_unit_test(test_adma32_scatter),
		cmocka_unit_test(test_adma32_64k), cmocka_unit_test(test_last_sector),
		cmocka_unit_test(test_state),
	};
	static const struct CMUnitTest with64[] = {
		cmocka_unit_test(test_probe),       cmocka_unit_test(test_identify),
		cmocka_unit_test(test_pio_read),    cmocka_unit_test(test_pio_write),
		cmocka_unit_test(test_sdma),        cmocka_unit_test(test_adma32_scatter),
		cmocka_unit_test(test_adma32_64k),  cmocka_unit_test(test_last_sector),
		cmocka_unit_test(test_adma64_high), cmocka_unit_test(test_state),
	};

	if (sd_platform_init(&plat) != 0)
		return 1;
	if (use_mode(MMCHAL_SDHCI_DMA_AUTO, adma_table, sizeof(adma_table)) != 0) {
		mmt_printf("sdhci: probe failed\n");
		return 1;
	}
	if (sdhci.mode == MMCHAL_SDHCI_DMA_ADMA2_64 && plat.high_mem)
		sd_flags |= SDIMG_F_ADMA64;
	mmt_printf("sd-config: %s, SDHCI v%u.00, caps 0x%08x, best DMA %s, flags %u\n", plat.name,
		   sdhci.spec + 1u, (unsigned int)sdhci.caps0, mmchal_sdhci_dma_name(sdhci.mode),
		   (unsigned int)sd_flags);
	if (sd_flags & SDIMG_F_ADMA64)
		return cmocka_run_group_tests(with64, NULL, NULL);
	return cmocka_run_group_tests(base, NULL, NULL);
}
