/*
 * The whole stack against QEMU's own SD card: the host core with the SDHCI
 * backend, the card layer on the host core's ops. For each data path the
 * controller offers (PIO, SDMA, ADMA2-32, ADMA2-64 above 4 GiB where there
 * is RAM there), the host is brought up with the backend in that mode, the
 * card is identified from power-up by mmchal_card_init(), and blocks move
 * through mmchal_card_read()/write(); the host's plan counters show which
 * plan carried them. The writes are those of sd_image.h, which the host tool
 * sdimg checks in the image file after QEMU exits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <mmchal/bounce.h>
#include <mmchal/card.h>
#include <mmchal/host_core.h>
#include <mmchal/sdhci.h>

#include "target/platform.h"
#include "sd_common.h"
#include "sd_image.h"
#include "sd_platform.h"

static struct sd_platform plat;
static struct mmchal_sdhci sdhci;
static struct mmchal_backend be;
static struct mmchal_host host;
static struct mmchal_card card;
static struct mmchal_dma_seg seg_table[16];
static uint32_t sd_flags;
static struct sdimg_write plan[SDIMG_W_COUNT];
static uint32_t sectors;

static uint8_t cardbuf[MMCHAL_CARD_BUF_SIZE] __attribute__((aligned(64)));
static uint8_t big[512u * 1024u] __attribute__((aligned(512u * 1024u)));
static uint8_t area[256u * 1024u] __attribute__((aligned(4096)));
static uint8_t adma_table[MMCHAL_SDHCI_ADMA_TABLE_SIZE(16)] __attribute__((aligned(8)));
static char text[4096];
/* Bounce pool: 128 slots of 2 KiB, one mapping's worth (the swiotlb defaults). */
static uint8_t pool_mem[256u * 1024u] __attribute__((aligned(4096)));
static uint32_t pool_meta[MMCHAL_BOUNCE_META_BYTES(128) / sizeof(uint32_t)];
static struct mmchal_bounce pool;

/* The lock of an interrupt-driven host: interrupts masked on the one CPU. */
static mmchal_irqflags_t lock_save(void *ctx)
{
	(void)ctx;
	return sd_platform_irq_save();
}

static void lock_restore(void *ctx, mmchal_irqflags_t flags)
{
	(void)ctx;
	sd_platform_irq_restore(flags);
}

static uint64_t now(void *ctx)
{
	(void)ctx;
	return sd_platform_now_ns();
}

static const struct mmchal_port_ops locked_ops = {
	.lock_irqsave = lock_save,
	.unlock_irqrestore = lock_restore,
	.now_ns = now,
	.delay_us = sd_delay_us,
};
static const struct mmchal_port locked_port = {.ops = &locked_ops};

/* Host up with the backend in @mode (with a bounce pool, interrupt-driven), card
   identified from power-up. */
static int bring_up(enum mmchal_sdhci_dma mode, bool bounce, bool irq)
{
	void *table = mode == MMCHAL_SDHCI_DMA_ADMA2_64 ? (void *)plat.high_mem : adma_table;
	bool adma = mode == MMCHAL_SDHCI_DMA_ADMA2_32 || mode == MMCHAL_SDHCI_DMA_ADMA2_64 ||
		    mode == MMCHAL_SDHCI_DMA_AUTO;
	const struct mmchal_port *port = irq ? &locked_port : &sd_port;
	struct mmchal_sdhci_cfg scfg = {
		.port = port,
		.flags = irq ? MMCHAL_SDHCI_F_IRQ : 0,
		.base_clock_hz = plat.base_clock_hz,
		.bus_width = 4,
		.dma = mode,
		.adma_table = adma ? table : NULL,
		.adma_table_dma = adma ? (uintptr_t)table : 0,
		.adma_table_size = adma ? sizeof(adma_table) : 0,
	};
	struct mmchal_host_cfg hcfg = {
		.backend = &be,
		.port = port,
		.seg_table = seg_table,
		.seg_table_len = 16,
	};
	struct mmchal_card_cfg ccfg = {
		.ops = &mmchal_host_core_ops,
		.ctx = &host,
		.buf = cardbuf,
		.buf_phys = (uintptr_t)cardbuf,
		.delay_us = sd_delay_us,
	};
	int ret;

	struct mmchal_bounce_cfg bcfg = {
		.mem = pool_mem,
		.dma = (uintptr_t)pool_mem,
		.size = sizeof(pool_mem),
		.meta = pool_meta,
		.meta_size = sizeof(pool_meta),
	};

	mmchal_host_deinit(&host);
	ret = mmchal_bus_init_mmio(&scfg.bus, plat.regs, 0);
	if (ret == 0 && bounce) {
		ret = mmchal_bounce_init(&pool, &bcfg);
		hcfg.bounce = &pool;
	}
	if (ret == 0)
		ret = mmchal_sdhci_init(&sdhci, &scfg, &be);
	if (ret == 0)
		ret = mmchal_host_init(&host, &hcfg);
	if (ret == 0)
		ret = mmchal_card_setup(&card, &ccfg);
	if (ret == 0)
		ret = mmchal_card_init(&card);
	return ret;
}

static void up_with(enum mmchal_sdhci_dma mode, bool bounce, bool irq)
{
	int ret = bring_up(mode, bounce, irq);

	if (ret != 0) {
		const struct mmchal_card_err *e = mmchal_card_last_error(&card);

		mmt_printf("bring-up in %s: %s (CMD%u%s arg 0x%08x status 0x%08x)\n",
			   mmchal_sdhci_dma_name(mode), mmchal_strerror(ret),
			   (unsigned int)e->opcode, e->app ? " (app)" : "", (unsigned int)e->arg,
			   (unsigned int)e->status);
	}
	assert_int_equal(ret, 0);
	assert_int_equal(sdhci.mode, mode);
}

static void up(enum mmchal_sdhci_dma mode)
{
	up_with(mode, false, false);
}

static uint64_t plans(enum mmchal_plan p)
{
	struct mmchal_host_stats st;

	assert_int_equal(mmchal_host_stats(&host, &st), 0);
	return st.plan[p];
}

/* Write plan entry @w through @wsg, read it back through @rsg; all by @expect plans. */
static void write_and_verify(const struct sdimg_write *w, const struct mmchal_sg *wsg, uint32_t wn,
			     const struct mmchal_sg *rsg, uint32_t rn, enum mmchal_plan expect)
{
	uint64_t before = plans(expect);

	mmt_printf("  write %u sector(s) at %u: %s\n", (unsigned int)w->count, (unsigned int)w->lba,
		   w->what);
	sd_fill(wsg, wn, w->lba, w->tag);
	assert_int_equal(mmchal_card_write(&card, w->lba, w->count, wsg, wn), 0);
	sd_scrub(rsg, rn);
	assert_int_equal(mmchal_card_read(&card, w->lba, w->count, rsg, rn), 0);
	sd_check(rsg, rn, w->lba, w->tag);
	/* Both directions went through the expected plan. */
	assert_true(plans(expect) >= before + 2u);
}

static void print_card(void)
{
	const struct mmchal_card_info *i = mmchal_card_info(&card);

	mmt_printf("  card: %s, OCR 0x%08x, RCA 0x%04x, %s addressing, %u sectors (%u MiB), "
		   "CSD v%u\n",
		   i->type == MMCHAL_CARD_SD ? "SD" : "other", (unsigned int)i->ocr,
		   (unsigned int)i->rca, i->block_addr ? "block" : "byte", (unsigned int)i->sectors,
		   (unsigned int)(i->sectors / 2048u), (unsigned int)i->csd.structure + 1u);
	mmt_printf("  CID: MID 0x%02x OID 0x%04x PNM \"%s\" PRV %u.%u PSN 0x%08x MDT %u/%u\n",
		   i->cid.mid, i->cid.oid, i->cid.pnm, i->cid.prv >> 4, i->cid.prv & 0xfu,
		   (unsigned int)i->cid.psn, i->cid.month, i->cid.year);
	mmt_printf("  bus: %u-bit, timing %u, clock %u Hz requested, %u Hz programmed; "
		   "SCR spec %u, CMD23 %s\n",
		   (unsigned int)i->bus_width, (unsigned int)i->timing, (unsigned int)i->clock_hz,
		   (unsigned int)sdhci.clock_hz, i->scr.sd_spec, i->cmd23 ? "used" : "not used");
}

/* ---------------------------------------------------------------- tests */

static void test_identify(void **state)
{
	const struct mmchal_card_info *i;

	(void)state;
	up(MMCHAL_SDHCI_DMA_NONE);
	i = mmchal_card_info(&card);
	print_card();
	/* What QEMU's card (hw/sd/sd.c) reports. */
	assert_int_equal(i->type, MMCHAL_CARD_SD);
	assert_int_equal(i->rca, 0x4567);
	assert_int_equal(i->cid.mid, 0xaa);
	assert_int_equal(i->cid.oid, ('X' << 8) | 'Y');
	assert_string_equal(i->cid.pnm, "QEMU!");
	assert_true(i->sd_v2);
	assert_false(i->read_only);
	assert_int_equal(i->block_addr, i->sectors > 4194304u);
	assert_int_equal(i->csd.structure, i->block_addr ? 1 : 0);
	assert_int_equal(i->bus_width, MMCHAL_BUS_WIDTH_4);
	/* The controller offers high speed and QEMU's card switches (CMD6). */
	assert_int_equal(i->timing, MMCHAL_TIMING_SD_HS);
	assert_true(sdhci.clock_hz > 25000000u && sdhci.clock_hz <= 50000000u);
	sectors = (uint32_t)i->sectors;
	mmt_printf("sd-card: %s %u\n", i->block_addr ? "SDHC" : "SDSC", (unsigned int)sectors);
	sdimg_plan(sd_flags, sectors, plan);
}

static void test_pio(void **state)
{
	struct mmchal_sg r[3] = {sd_sg(area, 1001), sd_sg(area + 2000, 23),
				 sd_sg(area + 4096, 3072)};
	struct mmchal_sg w[2] = {sd_sg(area + 16384, 1536), sd_sg(area + 20480, 2560)};
	struct mmchal_sg rb = sd_sg(area + 32768, 8 * SDIMG_SECTOR);
	struct mmchal_sg hole = sd_sg(area + 65536, SDIMG_SECTOR);
	uint64_t dma_before;

	(void)state;
	up(MMCHAL_SDHCI_DMA_NONE);
	dma_before = plans(MMCHAL_PLAN_DIRECT);
	sd_scrub(r, 3);
	assert_int_equal(mmchal_card_read(&card, 16, 8, r, 3), 0);
	sd_check(r, 3, 16, 0);
	write_and_verify(&plan[SDIMG_W_PIO], w, 2, &rb, 1, MMCHAL_PLAN_PIO);
	memset(area + 65536, 0x5a, SDIMG_SECTOR);
	assert_int_equal(mmchal_card_read(&card, sectors / 2u, 1, &hole, 1), 0);
	for (uint32_t k = 0; k < SDIMG_SECTOR; k++)
		assert_int_equal(area[65536 + k], 0);
	assert_int_equal(plans(MMCHAL_PLAN_DIRECT), dma_before);
}

static void test_sdma(void **state)
{
	struct mmchal_sg w = sd_sg(area, 16 * SDIMG_SECTOR);
	struct mmchal_sg r = sd_sg(area + 65536, 16 * SDIMG_SECTOR);
	struct mmchal_sg b = sd_sg(big, sizeof(big));
	uint64_t direct;

	(void)state;
	up(MMCHAL_SDHCI_DMA_SDMA);
	write_and_verify(&plan[SDIMG_W_SDMA], &w, 1, &r, 1, MMCHAL_PLAN_DIRECT);
	/* 512 KiB: one SDMA transfer up to the buffer boundary. */
	direct = plans(MMCHAL_PLAN_DIRECT);
	sd_scrub(&b, 1);
	assert_int_equal(mmchal_card_read(&card, 8192, 1024, &b, 1), 0);
	sd_check(&b, 1, 8192, 0);
	assert_int_equal(plans(MMCHAL_PLAN_DIRECT), direct + 1u);
}

static void test_adma32(void **state)
{
	struct mmchal_sg w[5] = {sd_sg(area + 40960, 512), sd_sg(area + 4, 1536),
				 sd_sg(area + 16384, 4096), sd_sg(area + 8192, 3072),
				 sd_sg(area + 32768, 3072)};
	struct mmchal_sg r[3] = {sd_sg(area + 65536 + 12, 2052), sd_sg(area + 81920, 4092),
				 sd_sg(area + 98304, 6144)};
	struct mmchal_sg w64[2] = {sd_sg(big, 65536), sd_sg(big + 131072, 16384)};
	struct mmchal_sg r64[2] = {sd_sg(big + 262144, 16384), sd_sg(area, 65536)};
	uint64_t direct;
	int n;

	(void)state;
	up(MMCHAL_SDHCI_DMA_ADMA2_32);
	direct = plans(MMCHAL_PLAN_DIRECT);
	write_and_verify(&plan[SDIMG_W_ADMA32], w, 5, r, 3, MMCHAL_PLAN_DIRECT);
	/* One request each way: the scatter lists went to the engine whole. */
	assert_int_equal(plans(MMCHAL_PLAN_DIRECT), direct + 2u);
	write_and_verify(&plan[SDIMG_W_ADMA32_64K], w64, 2, r64, 2, MMCHAL_PLAN_DIRECT);
	n = mmchal_host_explain(&host, text, sizeof(text));
	assert_true(n > 0);
	mmt_printf("%s", text);
}

static void test_last_sector(void **state)
{
	struct mmchal_sg one = sd_sg(area, SDIMG_SECTOR);
	struct mmchal_sg r = sd_sg(area + 4096, SDIMG_SECTOR);
	struct mmchal_sg two = sd_sg(area + 8192, 2 * SDIMG_SECTOR);

	(void)state;
	up(MMCHAL_SDHCI_DMA_ADMA2_32);
	write_and_verify(&plan[SDIMG_W_LAST], &one, 1, &r, 1, MMCHAL_PLAN_DIRECT);
	assert_int_equal(mmchal_card_read(&card, sectors - 2u, 1, &r, 1), 0);
	sd_check(&r, 1, sectors - 2u, 0);
	/* The card layer refuses a read past the end before anything is sent. */
	assert_int_equal(mmchal_card_read(&card, sectors, 1, &r, 1), MMCHAL_ERANGE);
	assert_int_equal(mmchal_card_read(&card, sectors - 1u, 2, &two, 1), MMCHAL_ERANGE);
}

static void test_bounced(void **state)
{
	struct mmchal_sg three[3] = {sd_sg(area, 4096), sd_sg(area + 8192 + 4, 2048),
				     sd_sg(area + 16384, 2048)};
	struct mmchal_sg one = sd_sg(area + 65536, 8192);
	struct mmchal_sg odd = sd_sg(area + 131072 + 1, 8192);
	const struct sdimg_write *w = &plan[SDIMG_W_SDMA];
	uint64_t bounced, direct;

	(void)state;
	up_with(MMCHAL_SDHCI_DMA_SDMA, true, false);
	/* Three buffers for an engine of one segment: the card layer splits the read. */
	direct = plans(MMCHAL_PLAN_DIRECT);
	bounced = plans(MMCHAL_PLAN_BOUNCED);
	sd_scrub(three, 3);
	assert_int_equal(mmchal_card_read(&card, 16, 16, three, 3), 0);
	sd_check(three, 3, 16, 0);
	assert_int_equal(plans(MMCHAL_PLAN_DIRECT), direct + 3u);
	/* The SDMA write again, same content, from a buffer at an odd address: bounced. */
	mmt_printf("  write %u sector(s) at %u again, bounced from an odd address\n",
		   (unsigned int)w->count, (unsigned int)w->lba);
	sd_fill(&odd, 1, w->lba, w->tag);
	assert_int_equal(mmchal_card_write(&card, w->lba, w->count, &odd, 1), 0);
	assert_int_equal(plans(MMCHAL_PLAN_BOUNCED), bounced + 1u);
	sd_scrub(&one, 1);
	assert_int_equal(mmchal_card_read(&card, w->lba, w->count, &one, 1), 0);
	sd_check(&one, 1, w->lba, w->tag);
	/* ADMA2 bounces a read into an odd address too, and copies it back. */
	up_with(MMCHAL_SDHCI_DMA_ADMA2_32, true, false);
	bounced = plans(MMCHAL_PLAN_BOUNCED);
	sd_scrub(&odd, 1);
	assert_int_equal(mmchal_card_read(&card, 100, 16, &odd, 1), 0);
	sd_check(&odd, 1, 100, 0);
	assert_int_equal(plans(MMCHAL_PLAN_BOUNCED), bounced + 1u);
	assert_int_equal(mmchal_bounce_in_use(&pool), 0);
}

static void test_adma64_high(void **state)
{
	uint8_t *hi = (uint8_t *)plat.high_mem;
	struct mmchal_sg w[3] = {sd_sg((void *)plat.below_4g_edge, 8192), sd_sg(hi + 0x10000, 4096),
				 sd_sg(hi + 0x30004, 4096)};
	struct mmchal_sg r[2] = {sd_sg(hi + 0x40000, 12288),
				 sd_sg((void *)plat.below_4g_edge, 4096)};

	(void)state;
	up(MMCHAL_SDHCI_DMA_ADMA2_64);
	write_and_verify(&plan[SDIMG_W_ADMA64], w, 3, r, 2, MMCHAL_PLAN_DIRECT);
}

static volatile bool req_finished;
static volatile unsigned int irq_count;

static void on_irq(void)
{
	irq_count++;
	(void)mmchal_host_irq(&host);
}

static void on_done(struct mmchal_request *req)
{
	(void)req;
	req_finished = true;
}

/* A read through mmchal_host_request(): only the interrupt handler can complete it. */
static int async_read(uint32_t lba, uint32_t count, const struct mmchal_sg *sg, uint32_t n)
{
	struct mmchal_cmd cmd = {
		.opcode = count > 1 ? 18 : 17,
		.arg = mmchal_card_info(&card)->block_addr ? lba : lba * SDIMG_SECTOR,
		.flags = MMCHAL_RSP_R1,
	};
	struct mmchal_cmd stop = {.opcode = 12, .flags = MMCHAL_RSP_R1B};
	struct mmchal_data data = {.dir = MMCHAL_DIR_FROM_CARD,
				   .blksz = SDIMG_SECTOR,
				   .blocks = count,
				   .sg = sg,
				   .sg_len = n};
	struct mmchal_request req = {
		.cmd = &cmd, .data = &data, .stop = count > 1 ? &stop : NULL, .done = on_done};
	uint64_t end;
	int ret;

	req_finished = false;
	ret = mmchal_host_request(&host, &req);
	if (ret)
		return ret;
	end = sd_platform_now_ns() + 1000000000ull;
	while (!req_finished && sd_platform_now_ns() < end)
		;
	if (!req_finished) {
		(void)mmchal_host_abort(&host);
		return MMCHAL_ETIMEDOUT;
	}
	if (cmd.error || data.error)
		return cmd.error ? cmd.error : data.error;
	return req.stop ? stop.error : 0;
}

static void test_irq(void **state)
{
	static const enum mmchal_sdhci_dma modes[] = {MMCHAL_SDHCI_DMA_NONE, MMCHAL_SDHCI_DMA_SDMA,
						      MMCHAL_SDHCI_DMA_ADMA2_32};
	struct mmchal_sg three[3] = {sd_sg(area, 1001), sd_sg(area + 2000, 23),
				     sd_sg(area + 4096, 11264)};
	struct mmchal_sg one = sd_sg(area + 65536, 12288);
	struct mmchal_sg s1 = sd_sg(area + 131072, SDIMG_SECTOR);

	(void)state;
	for (unsigned int i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		bool dma = modes[i] != MMCHAL_SDHCI_DMA_NONE;
		const struct mmchal_sg *sg = dma ? &one : three;
		uint32_t n = dma ? 1 : 3;
		unsigned int before;

		up_with(modes[i], false, true);
		assert_int_not_equal(mmchal_host_limits(&host)->policy, MMCHAL_POLICY_POLLED);
		assert_int_equal(sd_platform_irq_start(on_irq), 0);
		before = irq_count;
		sd_scrub(sg, n);
		assert_int_equal(async_read(16, 24, sg, n), 0);
		sd_check(sg, n, 16, 0);
		sd_scrub(&s1, 1);
		assert_int_equal(async_read(SDIMG_HEAD_SECTS - 1u, 1, &s1, 1), 0);
		sd_check(&s1, 1, SDIMG_HEAD_SECTS - 1u, 0);
		sd_platform_irq_stop();
		mmt_printf("  %s, interrupt-driven (policy %u): %u interrupts for 2 reads\n",
			   mmchal_sdhci_dma_name(modes[i]),
			   (unsigned int)mmchal_host_limits(&host)->policy, irq_count - before);
		assert_true(irq_count - before >= 2u);
	}
}

int main(void)
{
	static const struct CMUnitTest base[] = {
		cmocka_unit_test(test_identify),    cmocka_unit_test(test_pio),
		cmocka_unit_test(test_sdma),        cmocka_unit_test(test_adma32),
		cmocka_unit_test(test_last_sector), cmocka_unit_test(test_bounced),
	};
	static const struct CMUnitTest with_irq[] = {
		cmocka_unit_test(test_identify),    cmocka_unit_test(test_pio),
		cmocka_unit_test(test_sdma),        cmocka_unit_test(test_adma32),
		cmocka_unit_test(test_last_sector), cmocka_unit_test(test_bounced),
		cmocka_unit_test(test_irq),
	};
	static const struct CMUnitTest with64[] = {
		cmocka_unit_test(test_identify),    cmocka_unit_test(test_pio),
		cmocka_unit_test(test_sdma),        cmocka_unit_test(test_adma32),
		cmocka_unit_test(test_last_sector), cmocka_unit_test(test_bounced),
		cmocka_unit_test(test_adma64_high), cmocka_unit_test(test_irq),
	};
	struct mmchal_sdhci_cfg cfg = {.port = &sd_port, .dma = MMCHAL_SDHCI_DMA_AUTO};

	if (sd_platform_init(&plat) != 0)
		return 1;
	/* Which data paths exist: the backend alone, before the stack comes up. */
	cfg.base_clock_hz = plat.base_clock_hz;
	cfg.adma_table = adma_table;
	cfg.adma_table_dma = (uintptr_t)adma_table;
	cfg.adma_table_size = sizeof(adma_table);
	if (mmchal_bus_init_mmio(&cfg.bus, plat.regs, 0) != 0 ||
	    mmchal_sdhci_init(&sdhci, &cfg, &be) != 0 || be.ops->probe(be.ctx) != 0) {
		mmt_printf("sdhci: probe failed\n");
		return 1;
	}
	if (sdhci.mode == MMCHAL_SDHCI_DMA_ADMA2_64 && plat.high_mem)
		sd_flags |= SDIMG_F_ADMA64;
	mmt_printf("sd-config: %s, SDHCI v%u.00, caps 0x%08x, best DMA %s, flags %u\n", plat.name,
		   sdhci.spec + 1u, (unsigned int)sdhci.caps0, mmchal_sdhci_dma_name(sdhci.mode),
		   (unsigned int)sd_flags);
	mmt_printf("sd-irq: %s\n", plat.has_irq ? "yes" : "no");
	/* The ADMA2-64 configurations are all on the board with interrupts. */
	if (sd_flags & SDIMG_F_ADMA64)
		return plat.has_irq ? cmocka_run_group_tests(with64, NULL, NULL) : 1;
	if (plat.has_irq)
		return cmocka_run_group_tests(with_irq, NULL, NULL);
	return cmocka_run_group_tests(base, NULL, NULL);
}
