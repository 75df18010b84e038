/*
 * The SDHI backend of a library built without counters (MMCHAL_WITH_STATS 0,
 * config.h), over the simulated board (SDHI with internal DMAC, eMMC): the
 * card is identified, written (unless the card layer is the read-only one)
 * and read as with counters; requests and soft resets (probe and an abort)
 * leave every counter of the instance at 0; mmchal_sdhi_get_stats() writes
 * those zeros over whatever the caller's structure held and returns
 * MMCHAL_ENOTSUP, and still refuses a NULL argument with MMCHAL_EINVAL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/config.h>
#include <mmchal/sdhi.h>

#include "../../tools/sim/board.h"

_Static_assert(!MMCHAL_WITH_STATS, "tests/lean/test_lean_sdhi.c is for a library without counters");

#define CAPACITY (16ull << 20)
#define NPAGES   4u

static struct board B;

static void assert_no_counts(void)
{
	struct mmchal_sdhi_stats st;

	memset(&st, 0xa5, sizeof(st));
	assert_int_equal(mmchal_sdhi_get_stats(&B.sdhi, &st), MMCHAL_ENOTSUP);
	assert_int_equal(st.pio_fallbacks, 0);
	assert_int_equal(st.dma_errors, 0);
	assert_int_equal(st.soft_resets, 0);
	assert_int_equal(st.requests, 0);
}

/* Identification, a write and a read, an abort: nothing is counted. */
static void test_nothing_counted(void **state)
{
	struct board_opts o;
	struct mmchal_sg sg[NPAGES];

	(void)state;
	board_defaults(&o, MMCHAL_SIM_CARD_MMC, CAPACITY);
	assert_int_equal(board_open(&B, &o), 0);
	assert_int_equal(board_pages(&B, NPAGES, 3, sg), 0);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_int_equal(B.card.info.type, MMCHAL_CARD_MMC);
#if !MMCHAL_EMMC_RO
	assert_int_equal(mmchal_card_write(&B.card, 8, NPAGES * 8u, sg, NPAGES), 0);
#endif
	assert_int_equal(mmchal_card_read(&B.card, 8, NPAGES * 8u, sg, NPAGES), 0);
	/* an abort resets the controller (a soft reset, which a counting library counts) */
	assert_int_equal(B.be.ops->abort(B.be.ctx), 0);
	assert_no_counts();
	board_close(&B);
}

/* NULL arguments are refused as in a library with counters. */
static void test_null_refused(void **state)
{
	struct mmchal_sdhi_stats st;
	struct mmchal_sdhi s;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(mmchal_sdhi_get_stats(NULL, &st), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sdhi_get_stats(&s, NULL), MMCHAL_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_counted),
		cmocka_unit_test(test_null_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
