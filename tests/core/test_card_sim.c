/*
 * The card layer on the whole stack over the register-level simulator: an
 * SDHI backend (internal DMAC, SYS-DMAC, PIO) under the host core, the
 * simulated IOMMU, and the simulator's SD, eMMC and SDIO card models. Host
 * only (the simulator is).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal_sim/card.h>
#include <mmchal_sim/fault.h>

#include "../../tools/sim/board.h"

#define CAPACITY (16ull << 20)
#define SECTORS  (CAPACITY / 512u)
#define NPAGES   128u /* 512 KiB requests */

static struct board B;
static struct mmchal_sg pages[NPAGES];

static void open_board(struct board_opts *o)
{
	assert_int_equal(board_open(&B, o), 0);
	assert_int_equal(board_pages(&B, NPAGES, 7, pages), 0);
}

static uint8_t *store(void)
{
	uint64_t size = 0;
	uint8_t *s = mmchal_sim_card_store(B.sim, &size);

	assert_non_null(s);
	assert_int_equal(size, CAPACITY);
	return s;
}

/* Write @n pages at @lba from a pattern, read them back into cleared pages,
   compare with the card's store. */
static void rw_check(uint64_t lba, uint32_t n, uint8_t seed)
{
	uint8_t *st = store();

	for (uint32_t p = 0; p < n; p++)
		for (uint32_t i = 0; i < 4096u; i++)
			((uint8_t *)pages[p].cpu)[i] = (uint8_t)(seed + p * 31u + i * 7u);
	assert_int_equal(mmchal_card_write(&B.card, lba, n * 8u, pages, n), 0);
	for (uint32_t p = 0; p < n; p++)
		assert_memory_equal(st + (lba * 512u) + p * 4096u, pages[p].cpu, 4096);
	for (uint32_t p = 0; p < n; p++)
		memset(pages[p].cpu, 0xa5, 4096);
	assert_int_equal(mmchal_card_read(&B.card, lba, n * 8u, pages, n), 0);
	for (uint32_t p = 0; p < n; p++)
		assert_memory_equal(st + (lba * 512u) + p * 4096u, pages[p].cpu, 4096);
}

static void test_emmc_hs400_merged(void **state)
{
	struct board_opts o;
	uint32_t width;
	enum mmchal_timing timing;
	struct mmchal_host_stats hs;
	uint64_t before;

	(void)state;
	board_defaults(&o, MMCHAL_SIM_CARD_MMC, CAPACITY);
	o.iommu = true;
	o.merge_capable = true;
	open_board(&o);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_int_equal(B.card.info.type, MMCHAL_CARD_MMC);
	assert_true(B.card.info.block_addr);
	assert_int_equal(B.card.info.sectors, SECTORS);
	assert_int_equal(B.card.info.timing, MMCHAL_TIMING_MMC_HS400);
	assert_int_equal(B.card.info.bus_width, MMCHAL_BUS_WIDTH_8);
	/* the SDHI backends have no execute_tuning: HS200 and HS400 run untuned */
	assert_false(B.card.info.tuned);
	assert_int_equal(mmchal_sim_card_bus(B.sim, &width, &timing), 0);
	assert_int_equal(width, 8);
	assert_int_equal(timing, MMCHAL_TIMING_MMC_HS400);
	/* init_card made the host raise its limits for merging */
	assert_int_equal(B.card.limits.max_segs, 512);
	assert_true(B.card.limits.merge);
	assert_int_equal(mmchal_host_stats(&B.host, &hs), 0);
	before = hs.plan[MMCHAL_PLAN_IOMMU_MERGED];
	rw_check(0, NPAGES, 1);
	rw_check(SECTORS - NPAGES * 8u, NPAGES, 2);
	/* each 512 KiB of scattered pages went as one merged request */
	assert_int_equal(mmchal_host_stats(&B.host, &hs), 0);
	assert_int_equal(hs.plan[MMCHAL_PLAN_IOMMU_MERGED] - before, 4);
	assert_int_equal(hs.iova_pages, 0);
	assert_int_equal(mmchal_card_read(&B.card, SECTORS - 1, 2, pages, 1), MMCHAL_ERANGE);
	board_close(&B);
}

static void test_emmc_without_iommu_splits(void **state)
{
	struct board_opts o;
	struct mmchal_host_stats hs;
	uint64_t before;

	(void)state;
	board_defaults(&o, MMCHAL_SIM_CARD_MMC, CAPACITY);
	open_board(&o);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	/* the internal DMAC chains one segment: one request per page */
	assert_int_equal(B.card.limits.max_segs, 1);
	assert_int_equal(mmchal_host_stats(&B.host, &hs), 0);
	before = hs.plan[MMCHAL_PLAN_DIRECT];
	rw_check(1000, 16, 3);
	assert_int_equal(mmchal_host_stats(&B.host, &hs), 0);
	assert_int_equal(hs.plan[MMCHAL_PLAN_DIRECT] - before, 32);
	board_close(&B);
}

static void test_emmc_refuses_8bit(void **state)
{
	struct board_opts o;
	uint32_t width;
	enum mmchal_timing timing;

	(void)state;
	board_defaults(&o, MMCHAL_SIM_CARD_MMC, CAPACITY);
	o.card.mmc_no_8bit = true;
	open_board(&o);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_int_equal(B.card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	/* HS400 needs 8 bits: HS200 on 4 */
	assert_int_equal(B.card.info.timing, MMCHAL_TIMING_MMC_HS200);
	assert_int_equal(mmchal_sim_card_bus(B.sim, &width, &timing), 0);
	assert_int_equal(width, 4);
	assert_int_equal(timing, MMCHAL_TIMING_MMC_HS200);
	rw_check(8, 4, 4);
	board_close(&B);
}

static void test_sd_cards(void **state)
{
	struct board_opts o;
	enum mmchal_sdhi_kind kinds[3] = {MMCHAL_SDHI_IDMAC, MMCHAL_SDHI_PIO, MMCHAL_SDHI_SYSDMAC};

	(void)state;
	for (unsigned k = 0; k < 3; k++) {
		for (int sdsc = 0; sdsc < 2; sdsc++) {
			board_defaults(&o, MMCHAL_SIM_CARD_SD, CAPACITY);
			o.kind = kinds[k];
			if (kinds[k] == MMCHAL_SDHI_SYSDMAC)
				o.soc = MMCHAL_SIM_SOC_GEN2;
			o.card.sdsc = sdsc;
			open_board(&o);
			assert_int_equal(mmchal_card_init(&B.card), 0);
			assert_int_equal(B.card.info.type, MMCHAL_CARD_SD);
			assert_int_equal(B.card.info.block_addr, !sdsc);
			assert_int_equal(B.card.info.csd.structure, sdsc ? 0 : 1);
			assert_int_equal(B.card.info.sectors, SECTORS);
			assert_int_equal(B.card.info.bus_width, MMCHAL_BUS_WIDTH_4);
			assert_int_equal(B.card.info.timing, MMCHAL_TIMING_SD_HS);
			rw_check(0, 4, 5);
			rw_check(SECTORS - 32, 4, 6);
			board_close(&B);
		}
	}
}

static void test_sdio(void **state)
{
	struct board_opts o;

	(void)state;
	board_defaults(&o, MMCHAL_SIM_CARD_SDIO, 0);
	open_board(&o);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_int_equal(B.card.info.type, MMCHAL_CARD_SDIO);
	assert_int_equal(B.card.info.sdio.nfuncs, 1);
	assert_int_not_equal(B.card.info.sdio.max_blk_size, 0);
	assert_false(B.card.limits.merge);
	assert_int_equal(mmchal_card_read(&B.card, 0, 1, pages, 1), MMCHAL_ENOTSUP);
	board_close(&B);
}

#define NO_ERROR 0xffffffffu

static void timeout_at(enum mmchal_sim_card_kind kind, uint8_t op, uint32_t nth, uint32_t want)
{
	struct board_opts o;
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_CMD_TIMEOUT, MMCHAL_SIM_AT_CMD, op, nth, 0};

	board_defaults(&o, kind, CAPACITY);
	open_board(&o);
	assert_int_equal(mmchal_sim_fault_add(B.sim, &f), 0);
	assert_int_equal(mmchal_card_init(&B.card), want == NO_ERROR ? 0 : MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_faults_fired(B.sim, MMCHAL_SIM_FAULT_CMD_TIMEOUT), 1);
	if (want == NO_ERROR) {
		/* the lost command did not stop identification */
		rw_check(SECTORS - 8, 1, 8);
		board_close(&B);
		return;
	}
	assert_int_equal(B.card.err.opcode, want);
	/* the host recovered: the retry identifies the card */
	assert_int_equal(mmchal_card_init(&B.card), 0);
	rw_check(SECTORS - 8, 1, 9);
	board_close(&B);
}

static void test_timeouts_during_identification(void **state)
{
	static const uint8_t sd_ops[] = {55, 41, 2, 3, 9, 7, 51, 6};
	static const uint8_t mmc_ops[] = {1, 2, 3, 9, 7};

	(void)state;
	for (unsigned i = 0; i < sizeof(sd_ops); i++)
		timeout_at(MMCHAL_SIM_CARD_SD, sd_ops[i], 0, sd_ops[i]);
	/* the second CMD6 is SWITCH_FUNC (the first is ACMD6) */
	timeout_at(MMCHAL_SIM_CARD_SD, 6, 1, 6);
	for (unsigned i = 0; i < sizeof(mmc_ops); i++)
		timeout_at(MMCHAL_SIM_CARD_MMC, mmc_ops[i], 0, mmc_ops[i]);
	/* eMMC CMD8: the second one is SEND_EXT_CSD */
	timeout_at(MMCHAL_SIM_CARD_MMC, 8, 1, 8);
	/* the HS200 switch after the width is lost: HS instead */
	timeout_at(MMCHAL_SIM_CARD_MMC, 6, 1, NO_ERROR);
	/* CMD0 has no response: a lost one goes unnoticed, and the second CMD0
	   (or the power cycle) does the reset */
	timeout_at(MMCHAL_SIM_CARD_SD, 0, 0, NO_ERROR);
	timeout_at(MMCHAL_SIM_CARD_MMC, 0, 2, NO_ERROR);
	/* CMD13 after the 8-bit switch: the layer falls back to 4 bits */
	timeout_at(MMCHAL_SIM_CARD_MMC, 13, 0, NO_ERROR);
}

static void erase_check(enum mmchal_sim_card_kind kind, uint64_t lba, uint32_t n)
{
	struct board_opts o;
	uint8_t *st;

	board_defaults(&o, kind, CAPACITY);
	open_board(&o);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	st = store();
	/* a pattern over the range and the block after it */
	for (uint64_t i = 0; i < (uint64_t)(n + 1u) * 512u; i++)
		st[lba * 512u + i] = (uint8_t)(i * 5u + 3u);
	assert_int_equal(mmchal_card_erase(&B.card, lba, n, MMCHAL_CARD_ERASE), 0);
	for (uint64_t i = 0; i < (uint64_t)n * 512u; i++)
		assert_int_equal(st[lba * 512u + i], B.card.info.erased_byte);
	for (uint64_t i = (uint64_t)n * 512u; i < (uint64_t)(n + 1u) * 512u; i++)
		assert_int_equal(st[lba * 512u + i], (uint8_t)(i * 5u + 3u));
	/* and the host reads what the card holds */
	assert_int_equal(mmchal_card_read(&B.card, lba, 8, pages, 1), 0);
	assert_memory_equal(pages[0].cpu, st + lba * 512u, 4096);
	board_close(&B);
}

static void test_erase(void **state)
{
	(void)state;
	erase_check(MMCHAL_SIM_CARD_SD, 64, 8);
	erase_check(MMCHAL_SIM_CARD_MMC, 0, 1024);
}

static void test_write_protect(void **state)
{
	struct board_opts o;

	(void)state;
	board_defaults(&o, MMCHAL_SIM_CARD_SD, CAPACITY);
	o.card.write_protect = true;
	open_board(&o);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_true(B.card.info.read_only);
	assert_int_equal(mmchal_card_write(&B.card, 0, 8, pages, 1), MMCHAL_EROFS);
	assert_int_equal(mmchal_card_read(&B.card, 0, 8, pages, 1), 0);
	board_close(&B);
	/* the card's own protection (CSD TMP_WRITE_PROTECT) */
	board_defaults(&o, MMCHAL_SIM_CARD_MMC, CAPACITY);
	o.card.tmp_write_protect = true;
	open_board(&o);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_true(B.card.info.csd.tmp_wp);
	assert_int_equal(mmchal_card_erase(&B.card, 0, 1024, MMCHAL_CARD_ERASE), MMCHAL_EROFS);
	board_close(&B);
}

static void test_failed_write(void **state)
{
	struct board_opts o;
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 25, 3, 0};

	(void)state;
	board_defaults(&o, MMCHAL_SIM_CARD_SD, CAPACITY);
	open_board(&o);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_int_equal(mmchal_sim_fault_add(B.sim, &f), 0);
	assert_int_equal(mmchal_card_write(&B.card, 80, 8, pages, 1), MMCHAL_EIO);
	assert_int_equal(B.card.err.opcode, 25);
	assert_true(B.card.err.bytes_from_card);
	assert_int_equal(B.card.err.bytes_done, 3 * 512);
	assert_memory_equal(store() + 80 * 512, pages[0].cpu, 3 * 512);
	rw_check(80, 1, 12);
	board_close(&B);
}

static void test_removal(void **state)
{
	struct board_opts o;

	(void)state;
	board_defaults(&o, MMCHAL_SIM_CARD_SD, CAPACITY);
	open_board(&o);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_int_equal(mmchal_sim_card_remove(B.sim), 0);
	/* the card-detect interrupt of the removal (polled here) */
	assert_int_equal(mmchal_host_poll(&B.host), 0);
	assert_int_equal(mmchal_card_read(&B.card, 0, 8, pages, 1), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_card_insert(B.sim, &o.card), 0);
	assert_int_equal(mmchal_card_read(&B.card, 0, 8, pages, 1), MMCHAL_ENOMEDIUM);
	/* and of the insertion */
	assert_int_equal(mmchal_host_poll(&B.host), 0);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_int_equal(mmchal_card_read(&B.card, 0, 8, pages, 1), 0);
	board_close(&B);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emmc_hs400_merged),
		cmocka_unit_test(test_emmc_without_iommu_splits),
		cmocka_unit_test(test_emmc_refuses_8bit),
		cmocka_unit_test(test_sd_cards),
		cmocka_unit_test(test_sdio),
		cmocka_unit_test(test_timeouts_during_identification),
		cmocka_unit_test(test_erase),
		cmocka_unit_test(test_write_protect),
		cmocka_unit_test(test_failed_write),
		cmocka_unit_test(test_removal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
