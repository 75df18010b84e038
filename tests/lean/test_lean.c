/*
 * A lean build of the library (config.h): with MMCHAL_EMMC_RO an eMMC is
 * identified and read over the whole stack (simulated SDHI with internal
 * DMAC, host core, card layer), while writes and erases are refused with no
 * bus traffic and SD or SDIO cards are not identified; with the IOMMU layer
 * or the bounce pool left out their functions refuse and a host that names
 * one is refused at init; without the fast path every request takes the full
 * check and the planner, with the same decisions. Each group runs only when
 * the build has that option, and the build must have at least one of them
 * (the test list of a lean build is this file alone). Without counters the
 * host says so and works as with them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/config.h>
#include <mmchal_sim/card.h>

#include "../../tools/sim/board.h"

#define CAPACITY (16ull << 20)
#define SECTORS  (CAPACITY / 512u)
#define NPAGES   8u

_Static_assert(MMCHAL_EMMC_RO || !MMCHAL_WITH_IOMMU || !MMCHAL_WITH_BOUNCE || !MMCHAL_FAST_PATH ||
		       !MMCHAL_WITH_STATS || !MMCHAL_WITH_SDIO || !MMCHAL_WITH_HS200 ||
		       !MMCHAL_WITH_IRQ,
	       "tests/lean is built only for a lean library");

static struct board B;
static struct mmchal_sg pages[NPAGES];

static void open_card(enum mmchal_sim_card_kind kind)
{
	struct board_opts o;

	board_defaults(&o, kind, CAPACITY);
	assert_int_equal(board_open(&B, &o), 0);
	assert_int_equal(board_pages(&B, NPAGES, 5, pages), 0);
}

#if MMCHAL_EMMC_RO || !MMCHAL_FAST_PATH || !MMCHAL_WITH_STATS
static uint8_t *store(void)
{
	uint64_t size = 0;
	uint8_t *s = mmchal_sim_card_store(B.sim, &size);

	assert_non_null(s);
	assert_int_equal(size, CAPACITY);
	return s;
}
#endif

#if MMCHAL_EMMC_RO
static uint64_t commands(void)
{
	struct mmchal_sim_counters c;

	mmchal_sim_get_counters(B.sim, &c);
	return c.commands;
}

/* eMMC identification and reads work as in the full build. */
static void test_emmc_identify_and_read(void **state)
{
	uint8_t *st;

	(void)state;
	open_card(MMCHAL_SIM_CARD_MMC);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_int_equal(B.card.info.type, MMCHAL_CARD_MMC);
	assert_true(B.card.info.block_addr);
	assert_int_equal(B.card.info.sectors, SECTORS);
	assert_int_equal(B.card.info.bus_width, MMCHAL_BUS_WIDTH_8);
	assert_int_equal(B.card.info.timing, MMCHAL_TIMING_MMC_HS400);
	/* eMMC only: the SD/SDIO probes (CMD8, CMD5, ACMD41) were never sent,
	   so the card stayed in the eMMC path from the first command */
	assert_false(B.card.info.sd_v2);

	/* reads, first and last blocks of the card, several requests each */
	st = store();
	for (uint64_t i = 0; i < CAPACITY; i += 4093u)
		st[i] = (uint8_t)(i * 7u + 3u);
	for (int pass = 0; pass < 2; pass++) {
		uint64_t lba = pass ? SECTORS - NPAGES * 8u : 0;

		for (uint32_t p = 0; p < NPAGES; p++)
			memset(pages[p].cpu, 0x5a, 4096);
		assert_int_equal(mmchal_card_read(&B.card, lba, NPAGES * 8u, pages, NPAGES), 0);
		for (uint32_t p = 0; p < NPAGES; p++)
			assert_memory_equal(st + lba * 512u + p * 4096u, pages[p].cpu, 4096);
	}
	assert_int_equal(mmchal_card_read(&B.card, SECTORS - 1u, 2, pages, 1), MMCHAL_ERANGE);
	board_close(&B);
}

/* Writes and erases are refused before anything reaches the bus. */
static void test_emmc_writes_refused(void **state)
{
	uint8_t *st, *before;

	(void)state;
	open_card(MMCHAL_SIM_CARD_MMC);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	st = store();
	before = malloc(CAPACITY);
	assert_non_null(before);
	memcpy(before, st, CAPACITY);
	for (uint32_t p = 0; p < NPAGES; p++)
		memset(pages[p].cpu, 0xc3, 4096);
	mmchal_sim_reset_counters(B.sim);

	assert_int_equal(mmchal_card_write(&B.card, 0, 8, pages, 1), MMCHAL_ENOTSUP);
	assert_int_equal(B.card.err.err, MMCHAL_ENOTSUP);
	assert_int_equal(B.card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(B.card.err.bytes_done, 0);
	assert_int_equal(mmchal_card_write(&B.card, 100, NPAGES * 8u, pages, NPAGES),
			 MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_card_erase(&B.card, 0, 1024, MMCHAL_CARD_ERASE), MMCHAL_ENOTSUP);
	assert_int_equal(B.card.err.err, MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_card_erase(&B.card, 8, 8, MMCHAL_CARD_DISCARD), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_card_write(NULL, 0, 8, pages, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_erase(NULL, 0, 8, MMCHAL_CARD_ERASE), MMCHAL_EINVAL);
	assert_int_equal(commands(), 0);
	assert_memory_equal(before, st, CAPACITY);
	free(before);

	/* the card is still usable for reads afterwards */
	assert_int_equal(mmchal_card_read(&B.card, 0, 8, pages, 1), 0);
	assert_memory_equal(st, pages[0].cpu, 4096);
	assert_true(commands() > 0);
	board_close(&B);
}

/* An SD or SDIO card does not answer CMD1: identification fails as it does
   for an empty bus, and no SD or SDIO command was sent. */
static void test_sd_and_sdio_not_identified(void **state)
{
	static const enum mmchal_sim_card_kind kinds[] = {MMCHAL_SIM_CARD_SD, MMCHAL_SIM_CARD_SDIO};

	(void)state;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		open_card(kinds[i]);
		assert_int_equal(mmchal_card_init(&B.card), MMCHAL_ETIMEDOUT);
		assert_int_equal(B.card.info.type, MMCHAL_CARD_UNKNOWN);
		assert_int_equal(B.card.err.opcode, 1);
		assert_false(B.card.err.app);
		assert_int_equal(mmchal_card_read(&B.card, 0, 8, pages, 1), MMCHAL_ENOMEDIUM);
		board_close(&B);
	}
}
#endif

#if !MMCHAL_WITH_IOMMU
static int no_caps(void *ctx, struct mmchal_iommu_caps *caps)
{
	(void)ctx;
	caps->present = true;
	caps->page_size = 4096;
	return 0;
}

static int no_map(void *ctx, mmchal_dma_addr_t iova, mmchal_phys_addr_t phys, uint64_t size,
		  uint32_t prot)
{
	(void)ctx;
	(void)iova;
	(void)phys;
	(void)size;
	(void)prot;
	return 0;
}

static int no_unmap(void *ctx, mmchal_dma_addr_t iova, uint64_t size)
{
	(void)ctx;
	(void)iova;
	(void)size;
	return 0;
}

/* Without the IOMMU layer every domain function refuses, nothing is
   mergeable, and a host that names a domain is refused at init. */
static void test_iommu_left_out(void **state)
{
	static const struct mmchal_iommu_ops ops = {
		.get_caps = no_caps, .map = no_map, .unmap = no_unmap};
	struct mmchal_iommu iommu = {.ops = &ops};
	uint64_t nodes[64];
	struct mmchal_iommu_domain_cfg dc = {
		.iommu = &iommu, .node_mem = nodes, .node_mem_size = sizeof(nodes)};
	struct mmchal_iommu_domain dom;
	struct mmchal_iommu_mapping map = {0};
	struct mmchal_iommu_caps caps = {
		.present = true, .page_size = 4096, .merge_boundary = 4095};
	struct mmchal_iommu_domain_stats st;
	struct mmchal_merge_info mi;
	struct mmchal_sg sg = {.phys = 0x1000, .len = 4096};
	struct mmchal_dma_seg seg;
	struct mmchal_host host;
	struct mmchal_host_cfg hc;

	(void)state;
	memset(&dom, 0x6b, sizeof(dom));
	assert_int_equal(mmchal_iommu_domain_init(&dom, &dc), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_iommu_domain_get_caps(&dom, &caps), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_iommu_domain_get_stats(&dom, &st), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_iommu_map_merged(&dom, &sg, 1, MMCHAL_DIR_TO_CARD, MMCHAL_CARD_MMC,
						 &map, &seg, &mi),
			 MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_iommu_map_segs(&dom, &sg, 1, MMCHAL_DIR_FROM_CARD, &map, &seg),
			 MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_iommu_unmap(&dom, &map), MMCHAL_ENOTSUP);
	mi.reason = MMCHAL_MERGE_OK;
	assert_int_equal(mmchal_merge_check(&sg, 1, &caps, MMCHAL_CARD_MMC, &mi),
			 MMCHAL_MERGE_NO_IOMMU);
	assert_int_equal(mi.reason, MMCHAL_MERGE_NO_IOMMU);
	assert_string_equal(mmchal_merge_reason_str(MMCHAL_MERGE_NO_IOMMU),
			    "no IOMMU in front of the DMA master");

	/* the planner plans as for no IOMMU, even when an environment names one
	   that could merge this list: DIRECT from the physical addresses */
	{
		struct mmchal_dma_caps dma = {.kind = MMCHAL_DMA_INTERNAL};
		struct mmchal_sg two[2] = {{.phys = 0x10000, .len = 4096},
					   {.phys = 0x30000, .len = 4096}};
		struct mmchal_data d = {.dir = MMCHAL_DIR_TO_CARD,
					.blksz = 512,
					.blocks = 16,
					.sg = two,
					.sg_len = 2};
		struct mmchal_plan_env env = {.dma = &dma,
					      .iommu = &caps,
					      .merge = true,
					      .card = MMCHAL_CARD_MMC,
					      .seg_table = 8};
		struct mmchal_plan_result pr;

		for (int i = 0; i < MMCHAL_DIR_COUNT; i++) {
			dma.dir[i].max_segs = 8;
			dma.dir[i].max_seg_size = 65536;
			dma.dir[i].coherent = true;
		}
		assert_int_equal(mmchal_dma_plan(&env, &d, &pr), 0);
		assert_int_equal(pr.plan, MMCHAL_PLAN_DIRECT);
		assert_int_equal(pr.reason, MMCHAL_PR_DIRECT);
		assert_int_equal(pr.merge, MMCHAL_MERGE_NO_IOMMU);
		assert_false(pr.iommu);
	}

	/* the board's host, once more with a domain named */
	open_card(MMCHAL_SIM_CARD_MMC);
	hc = B.hc;
	hc.iommu = &dom;
	assert_int_equal(mmchal_host_init(&host, &hc), MMCHAL_EINVAL);
	board_close(&B);
}
#endif

#if !MMCHAL_WITH_BOUNCE
/* Without the bounce pool: no pool can be set up, NULL is "no pool", and a
   host that names a pool is refused at init. */
static void test_bounce_left_out(void **state)
{
	static uint8_t mem[8192];
	uint32_t meta[1];
	struct mmchal_bounce_cfg bc = {.mem = mem,
				       .size = sizeof(mem),
				       .slots_per_map = 2,
				       .meta = meta,
				       .meta_size = sizeof(meta)};
	struct mmchal_bounce pool;
	struct mmchal_bounce_caps caps;
	struct mmchal_bounce_map map = {0};
	struct mmchal_sg sg = {.cpu = mem, .phys = 0x1000, .len = 512};
	struct mmchal_dma_seg seg;
	struct mmchal_host host;
	struct mmchal_host_cfg hc;

	(void)state;
	memset(&pool, 0, sizeof(pool));
	assert_int_equal(mmchal_bounce_init(&pool, &bc), MMCHAL_ENOTSUP);
	memset(&caps, 0x6b, sizeof(caps));
	assert_int_equal(mmchal_bounce_get_caps(NULL, &caps), 0);
	assert_false(caps.present);
	assert_int_equal(caps.nslots, 0);
	assert_int_equal(mmchal_bounce_get_caps(&pool, &caps), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_bounce_get_caps(NULL, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_map(&pool, &sg, 1, MMCHAL_DIR_TO_CARD, &map, &seg),
			 MMCHAL_ENOTSUP);
	assert_int_equal(
		mmchal_bounce_map_aligned(&pool, &sg, 1, MMCHAL_DIR_TO_CARD, 64, &map, &seg),
		MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_bounce_unmap(&pool, &map, true), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_bounce_in_use(&pool), 0);

	open_card(MMCHAL_SIM_CARD_MMC);
	hc = B.hc;
	hc.bounce = &pool;
	assert_int_equal(mmchal_host_init(&host, &hc), MMCHAL_EINVAL);
	/* the board's own host (no pool) came up: its card identifies */
	assert_int_equal(mmchal_card_init(&B.card), 0);
	board_close(&B);
}
#endif

#if !MMCHAL_FAST_PATH
/* Without the host's precomputed answers every request is checked in full
   and planned by the planner, which decides as the fast path would: an
   aligned list goes DIRECT, a misaligned buffer (no pool) PIO. */
static void test_no_fast_path(void **state)
{
	struct mmchal_host_stats a, b;
	uint8_t *st;

	(void)state;
	open_card(MMCHAL_SIM_CARD_MMC);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	st = store();
	for (uint32_t i = 0; i < NPAGES * 4096u + 512u; i++)
		st[512u * 100u + i] = (uint8_t)(i * 13u + 1u);
#if MMCHAL_WITH_STATS
	assert_int_equal(mmchal_host_stats(&B.host, &a), 0);
#endif
	assert_int_equal(mmchal_card_read(&B.card, 100, NPAGES * 8u, pages, NPAGES), 0);
	for (uint32_t p = 0; p < NPAGES; p++)
		assert_memory_equal(st + 512u * 100u + p * 4096u, pages[p].cpu, 4096);
	{
		/* one block into the first page, one byte in */
		uint8_t *odd = pages[0].cpu;
		struct mmchal_sg one = {.cpu = odd + 1, .phys = pages[0].phys + 1, .len = 512};

		memset(odd, 0x5a, 4096);
		assert_int_equal(mmchal_card_read(&B.card, 100, 1, &one, 1), 0);
		assert_memory_equal(odd + 1, st + 512u * 100u, 512);
		assert_int_equal(odd[0], 0x5a);
		assert_int_equal(odd[513], 0x5a);
	}
#if MMCHAL_WITH_STATS
	assert_int_equal(mmchal_host_stats(&B.host, &b), 0);
	/* the internal DMAC chains one segment: a request per page */
	assert_int_equal(b.plan[MMCHAL_PLAN_DIRECT] - a.plan[MMCHAL_PLAN_DIRECT], NPAGES);
	assert_int_equal(b.plan[MMCHAL_PLAN_PIO] - a.plan[MMCHAL_PLAN_PIO], 1);
	assert_int_equal(b.reason[MMCHAL_PLAN_PIO][MMCHAL_PR_ALIGN] -
				 a.reason[MMCHAL_PLAN_PIO][MMCHAL_PR_ALIGN],
			 1);
	/* every request was checked in full, every data phase planned */
	assert_int_equal(b.full_checks - a.full_checks, b.requests - a.requests);
	assert_int_equal(b.full_plans - a.full_plans, NPAGES + 1u);
	assert_int_equal(b.bytes - a.bytes, NPAGES * 4096u + 512u);
#else
	(void)a;
	(void)b;
#endif
	board_close(&B);
}

/* mmchal_request_check() runs its exact checks alone: the same answers. */
static void test_no_fast_path_check(void **state)
{
	static const struct mmchal_limits lim = {.max_segs = 4,
						 .max_seg_size = 65536,
						 .max_blk_size = 512,
						 .max_blk_count = 65535,
						 .max_req_size = 1u << 20};
	struct mmchal_sg sg[2] = {{.phys = 0x10000, .len = 4096}, {.phys = 0x30000, .len = 512}};
	struct mmchal_cmd sbc = {.opcode = 23, .arg = 9, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd cmd = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 9, .sg = sg, .sg_len = 2};
	struct mmchal_request r = {.sbc = &sbc, .cmd = &cmd, .data = &d};
	struct mmchal_req_check_info why;

	(void)state;
	memset(&why, 0xa5, sizeof(why));
	assert_int_equal(mmchal_request_check(&r, &lim, &why), 0);
	assert_int_equal(why.why, MMCHAL_REQ_OK);
	assert_int_equal(why.index, 0);
	assert_true(why.sum.valid);
	assert_int_equal(why.sum.phys_or, 0x30000);
	assert_int_equal(why.sum.len1_or, 4095);
	assert_int_equal(why.sum.last_and, 0x10fffu & 0x301ffu);
	assert_int_equal(why.sum.cross_or, 0xfffu | 0x1ffu);
	/* the first failure is named, with its entry */
	sg[1].len = 0;
	assert_int_equal(mmchal_request_check(&r, &lim, &why), MMCHAL_EINVAL);
	assert_int_equal(why.why, MMCHAL_REQ_SEG_ZERO);
	assert_int_equal(why.index, 1);
	assert_false(why.sum.valid);
	sg[1].len = 512;
	sbc.arg = 8;
	assert_int_equal(mmchal_request_check(&r, &lim, &why), MMCHAL_EINVAL);
	assert_int_equal(why.why, MMCHAL_REQ_SBC_COUNT);
	assert_int_equal(mmchal_request_check(NULL, &lim, &why), MMCHAL_EINVAL);
	assert_int_equal(why.why, MMCHAL_REQ_NULL);
	/* without info, the same verdicts */
	sbc.arg = 9;
	assert_int_equal(mmchal_request_check(&r, &lim, NULL), 0);
	d.blocks = 8;
	assert_int_equal(mmchal_request_check(&r, &lim, NULL), MMCHAL_EINVAL);
}
#endif

#if !MMCHAL_WITH_STATS
/* Without counters: the stats call refuses and zeroes, explain says so, and
   the host works as with them. */
static void test_no_stats(void **state)
{
	struct mmchal_host_stats st;
	char text[4096];
	int n;

	(void)state;
	open_card(MMCHAL_SIM_CARD_MMC);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_int_equal(mmchal_card_read(&B.card, 0, NPAGES * 8u, pages, NPAGES), 0);
	assert_memory_equal(store(), pages[0].cpu, 4096);
	memset(&st, 0xa5, sizeof(st));
	assert_int_equal(mmchal_host_stats(&B.host, &st), MMCHAL_ENOTSUP);
	for (size_t i = 0; i < sizeof(st); i++)
		assert_int_equal(((const uint8_t *)&st)[i], 0);
	assert_int_equal(mmchal_host_stats(&B.host, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_stats(NULL, &st), MMCHAL_EINVAL);
	n = mmchal_host_explain(&B.host, text, sizeof(text));
	assert_true(n > 0);
	assert_int_equal(strlen(text), (size_t)n);
	assert_non_null(strstr(text, "max_segs"));
	assert_non_null(strstr(text, "\nstatistics: not kept (MMCHAL_WITH_STATS is 0)\n"));
	assert_null(strstr(text, "requests:"));
	board_close(&B);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#if MMCHAL_EMMC_RO
		cmocka_unit_test(test_emmc_identify_and_read),
		cmocka_unit_test(test_emmc_writes_refused),
		cmocka_unit_test(test_sd_and_sdio_not_identified),
#endif
#if !MMCHAL_WITH_IOMMU
		cmocka_unit_test(test_iommu_left_out),
#endif
#if !MMCHAL_WITH_BOUNCE
		cmocka_unit_test(test_bounce_left_out),
#endif
#if !MMCHAL_WITH_STATS
		cmocka_unit_test(test_no_stats),
#endif
#if !MMCHAL_FAST_PATH
		cmocka_unit_test(test_no_fast_path),
		cmocka_unit_test(test_no_fast_path_check),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
