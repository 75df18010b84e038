/*
 * The simulator's physical memory (sim/mem.c): regions of whole 4 KiB pages
 * that may not overlap, the translations between host pointers and physical
 * addresses with their exact bounds, the bump allocator's alignment and
 * exhaustion, and the scattered page lists (every entry one page, no two
 * adjacent, the order a function of the seed).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "drv.h"

#define PAGE 4096u

static struct mmchal_sim *new_sim(void)
{
	struct mmchal_sim *sim = NULL;

	assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
	return sim;
}

static void test_regions(void **state)
{
	struct mmchal_sim *sim = new_sim();
	static uint8_t host[2 * PAGE];
	uint32_t i;

	(void)state;
	assert_int_equal(mmchal_sim_mem_add(NULL, 0, PAGE, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_mem_add(sim, 0, 0, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_mem_add(sim, 0x800, PAGE, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_mem_add(sim, 0, PAGE + 1, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_mem_add(sim, 0xfffffffffffff000ull, 2 * PAGE, NULL),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_mem_add(sim, 0x10000, 2 * PAGE, host), 0);
	/* Overlaps from below, from above, inside and around: refused. */
	assert_int_equal(mmchal_sim_mem_add(sim, 0xf000, 2 * PAGE, NULL), MMCHAL_EBUSY);
	assert_int_equal(mmchal_sim_mem_add(sim, 0x11000, 2 * PAGE, NULL), MMCHAL_EBUSY);
	assert_int_equal(mmchal_sim_mem_add(sim, 0x10000, PAGE, NULL), MMCHAL_EBUSY);
	assert_int_equal(mmchal_sim_mem_add(sim, 0xf000, 4 * PAGE, NULL), MMCHAL_EBUSY);
	/* Touching on either side is fine; indices count up. */
	assert_int_equal(mmchal_sim_mem_add(sim, 0xf000, PAGE, NULL), 1);
	assert_int_equal(mmchal_sim_mem_add(sim, 0x12000, PAGE, NULL), 2);
	for (i = 3; i < MMCHAL_SIM_MEM_REGIONS; i++)
		assert_int_equal(mmchal_sim_mem_add(sim, 0x100000ull * i, PAGE, NULL), (int)i);
	assert_int_equal(mmchal_sim_mem_add(sim, 0x10000000ull, PAGE, NULL), MMCHAL_ENOSPC);

	/* Physical -> host: the exact byte, up to the region's last byte. */
	assert_ptr_equal(mmchal_sim_phys_to_host(sim, 0x10000, 1), host);
	assert_ptr_equal(mmchal_sim_phys_to_host(sim, 0x11fff, 1), host + 2 * PAGE - 1);
	assert_ptr_equal(mmchal_sim_phys_to_host(sim, 0x10000, 2 * PAGE), host);
	assert_null(mmchal_sim_phys_to_host(sim, 0x10001, 2 * PAGE));
	assert_null(mmchal_sim_phys_to_host(sim, 0x11fff, 2)); /* into the next region */
	assert_null(mmchal_sim_phys_to_host(sim, 0xe000, 1));
	assert_null(mmchal_sim_phys_to_host(sim, 0x10000, 0));
	assert_null(mmchal_sim_phys_to_host(NULL, 0x10000, 1));
	drv_close(&(struct drv){.sim = sim});
}

static void test_host_to_phys(void **state)
{
	struct mmchal_sim *sim = new_sim();
	static uint8_t host[PAGE];
	mmchal_phys_addr_t phys = 0;

	(void)state;
	assert_int_equal(mmchal_sim_mem_add(sim, 0x40000, PAGE, host), 0);
	assert_int_equal(mmchal_sim_host_to_phys(sim, host, PAGE, &phys), 0); /* the first byte */
	assert_int_equal(phys, 0x40000);
	assert_int_equal(mmchal_sim_host_to_phys(sim, host + 5, 10, &phys), 0);
	assert_int_equal(phys, 0x40005);
	assert_int_equal(mmchal_sim_host_to_phys(sim, host + PAGE - 1, 1, &phys), 0);
	assert_int_equal(phys, 0x40fff);
	phys = 1;
	assert_int_equal(mmchal_sim_host_to_phys(sim, host + PAGE - 1, 2, &phys), MMCHAL_ENOENT);
	assert_int_equal(mmchal_sim_host_to_phys(sim, host + PAGE, 1, &phys), MMCHAL_ENOENT);
	assert_int_equal(mmchal_sim_host_to_phys(sim, &phys, 1, &phys), MMCHAL_ENOENT);
	assert_int_equal(phys, 1);
	assert_int_equal(mmchal_sim_host_to_phys(NULL, host, 1, &phys), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_host_to_phys(sim, NULL, 1, &phys), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_host_to_phys(sim, host, 0, &phys), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_host_to_phys(sim, host, 1, NULL), MMCHAL_EINVAL);
	drv_close(&(struct drv){.sim = sim});
}

static void test_alloc(void **state)
{
	struct mmchal_sim *sim = new_sim();
	mmchal_phys_addr_t phys = 0;
	uint8_t *a, *b, *c;
	int r;

	(void)state;
	r = mmchal_sim_mem_add(sim, 0x80000, 2 * PAGE, NULL);
	assert_int_equal(r, 0);
	assert_null(mmchal_sim_mem_alloc(NULL, r, 16, 0, &phys));
	assert_null(mmchal_sim_mem_alloc(sim, -1, 16, 0, &phys));
	assert_null(mmchal_sim_mem_alloc(sim, 1, 16, 0, &phys));
	assert_null(mmchal_sim_mem_alloc(sim, INT_MAX, 16, 0, &phys));
	assert_null(mmchal_sim_mem_alloc(sim, r, 0, 0, &phys));
	assert_null(mmchal_sim_mem_alloc(sim, r, 16, 24, &phys)); /* not a power of two */
	/* Align 0 = 1: bytes one after another. */
	a = mmchal_sim_mem_alloc(sim, r, 3, 0, &phys);
	assert_non_null(a);
	assert_int_equal(phys, 0x80000);
	b = mmchal_sim_mem_alloc(sim, r, 5, 1, &phys);
	assert_ptr_equal(b, a + 3);
	assert_int_equal(phys, 0x80003);
	/* Aligned to 512: the next multiple. */
	c = mmchal_sim_mem_alloc(sim, r, 100, 512, NULL);
	assert_ptr_equal(c, a + 512);
	assert_ptr_equal(mmchal_sim_phys_to_host(sim, 0x80200, 100), c);
	/* The rest exactly, then nothing. */
	assert_ptr_equal(mmchal_sim_mem_alloc(sim, r, 2 * PAGE - 612, 1, &phys), a + 612);
	assert_int_equal(phys, 0x80264);
	assert_null(mmchal_sim_mem_alloc(sim, r, 1, 1, &phys));
	/* An alignment beyond the region. */
	r = mmchal_sim_mem_add(sim, 0x100000, PAGE, NULL);
	assert_null(mmchal_sim_mem_alloc(sim, r, 1, 1ull << 40, &phys));
	assert_non_null(mmchal_sim_mem_alloc(sim, r, PAGE, PAGE, &phys));
	assert_int_equal(phys, 0x100000);
	drv_close(&(struct drv){.sim = sim});
}

static void scatter(struct mmchal_sim *sim, int r, uint32_t n, uint64_t seed, struct mmchal_sg *sg,
		    mmchal_phys_addr_t base)
{
	uint32_t i, j, used[16] = {0};

	assert_int_equal(mmchal_sim_mem_scatter(sim, r, n, seed, sg), 0);
	for (i = 0; i < n; i++) {
		uint64_t off = sg[i].phys - base;

		assert_int_equal(sg[i].len, PAGE);
		/* Every other page of 2n, each once: never two adjacent. */
		assert_true(off % (2 * PAGE) == 0 && off < 2ull * n * PAGE);
		assert_ptr_equal(sg[i].cpu, mmchal_sim_phys_to_host(sim, sg[i].phys, PAGE));
		used[off / (2 * PAGE)]++;
		for (j = 0; j < i; j++)
			assert_true(sg[j].phys + PAGE != sg[i].phys &&
				    sg[i].phys + PAGE != sg[j].phys);
	}
	for (i = 0; i < n; i++)
		assert_int_equal(used[i], 1);
}

static void test_scatter(void **state)
{
	struct mmchal_sim *sim = new_sim();
	struct mmchal_sg a[16], b[16], c[16];
	int r;
	uint32_t i, same_ab = 0, same_ac = 0;

	(void)state;
	r = mmchal_sim_mem_add(sim, 0x200000, 128 * PAGE, NULL);
	assert_int_equal(mmchal_sim_mem_scatter(NULL, r, 4, 1, a), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_mem_scatter(sim, r, 4, 1, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_mem_scatter(sim, r, 0, 1, a), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_mem_scatter(sim, -1, 4, 1, a), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_mem_scatter(sim, r + 1, 4, 1, a), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_mem_scatter(sim, r, 65, 1, a), MMCHAL_ENOMEM);
	scatter(sim, r, 16, 7, a, 0x200000);
	scatter(sim, r, 16, 7, b, 0x200000 + 32 * PAGE);
	scatter(sim, r, 16, 8, c, 0x200000 + 64 * PAGE);
	for (i = 0; i < 16; i++) {
		same_ab += a[i].phys - 0x200000 == b[i].phys - (0x200000 + 32 * PAGE);
		same_ac += a[i].phys - 0x200000 == c[i].phys - (0x200000 + 64 * PAGE);
	}
	/* The same seed gives the same order; another seed another one. */
	assert_int_equal(same_ab, 16);
	assert_true(same_ac < 16);
	/* One page: the only order there is. */
	scatter(sim, r, 1, 3, a, 0x200000 + 96 * PAGE);
	drv_close(&(struct drv){.sim = sim});
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_host_to_phys),
		cmocka_unit_test(test_alloc),
		cmocka_unit_test(test_scatter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
