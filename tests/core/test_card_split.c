/* Request splitter of the card layer (src/core/card_split.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core/card_priv.h"

static uint8_t mem[65536];
static struct mmchal_sg out[16];

static struct mmchal_sg ent(uint32_t off, uint32_t len)
{
	struct mmchal_sg e = {.cpu = &mem[off], .phys = 0x40000000u + off, .len = len};

	return e;
}

static struct mmchal_card_split_lim_ lim_default(void)
{
	struct mmchal_card_split_lim_ l = {.max_blocks = 1024, .max_segs = 16};

	return l;
}

/* Next request; checks the return and the block count. */
static uint32_t next(struct mmchal_card_split_ *cur, const struct mmchal_card_split_lim_ *l,
		     const struct mmchal_sg **list, uint32_t blocks)
{
	uint32_t n = 0, b = 0;

	assert_int_equal(mmchal_card_split_next_(cur, l, out, 16, list, &n, &b), 0);
	assert_int_equal(b, blocks);
	return n;
}

static void check_piece(const struct mmchal_sg *p, uint32_t off, uint32_t len)
{
	assert_ptr_equal(p->cpu, &mem[off]);
	assert_int_equal(p->phys, 0x40000000u + off);
	assert_int_equal(p->len, len);
}

static void test_sg_check(void **state)
{
	struct mmchal_sg sg[2] = {ent(0, 512), ent(4096, 1024)};

	(void)state;
	assert_int_equal(mmchal_card_sg_check_(sg, 2, 1536), 0);
	assert_int_equal(mmchal_card_sg_check_(NULL, 2, 1536), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_sg_check_(sg, 0, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_sg_check_(sg, 2, 1024), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_sg_check_(sg, 2, 2048), MMCHAL_EINVAL);
	sg[1].len = 0;
	assert_int_equal(mmchal_card_sg_check_(sg, 2, 512), MMCHAL_EINVAL);
}

static void test_fits_passes_caller_list(void **state)
{
	struct mmchal_sg sg[3] = {ent(0, 4096), ent(8192, 4096), ent(16384, 512)};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 3};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;

	(void)state;
	assert_int_equal(next(&cur, &l, &list, 17), 3);
	assert_ptr_equal(list, sg);
	assert_int_equal(cur.idx, 3);
	assert_int_equal(cur.off, 0);
}

static void test_max_blocks_cuts_entry(void **state)
{
	struct mmchal_sg sg[1] = {ent(0, 4096)};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 1};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;

	(void)state;
	l.max_blocks = 3;
	assert_int_equal(next(&cur, &l, &list, 3), 1);
	assert_ptr_equal(list, out);
	check_piece(&list[0], 0, 1536);
	assert_int_equal(next(&cur, &l, &list, 3), 1);
	check_piece(&list[0], 1536, 1536);
	assert_int_equal(next(&cur, &l, &list, 2), 1);
	check_piece(&list[0], 3072, 1024);
	assert_int_equal(cur.idx, 1);
}

static void test_max_segs_whole_entries(void **state)
{
	struct mmchal_sg sg[8];
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 8};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;

	(void)state;
	for (unsigned i = 0; i < 8; i++)
		sg[i] = ent(i * 4096u, 512);
	l.max_segs = 3;
	assert_int_equal(next(&cur, &l, &list, 3), 3);
	assert_ptr_equal(list, &sg[0]);
	assert_int_equal(next(&cur, &l, &list, 3), 3);
	assert_ptr_equal(list, &sg[3]);
	assert_int_equal(next(&cur, &l, &list, 2), 2);
	assert_ptr_equal(list, &sg[6]);
}

static void test_max_segs_gives_back_partial_block(void **state)
{
	struct mmchal_sg sg[4] = {ent(0, 700), ent(4096, 700), ent(8192, 700), ent(12288, 972)};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 4};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;

	(void)state;
	l.max_segs = 2;
	assert_int_equal(next(&cur, &l, &list, 2), 2);
	check_piece(&list[0], 0, 700);
	check_piece(&list[1], 4096, 324);
	assert_int_equal(next(&cur, &l, &list, 2), 2);
	check_piece(&list[0], 4096 + 324, 376);
	check_piece(&list[1], 8192, 648);
	assert_int_equal(next(&cur, &l, &list, 2), 2);
	check_piece(&list[0], 8192 + 648, 52);
	check_piece(&list[1], 12288, 972);
	assert_int_equal(cur.idx, 4);
}

static void test_block_over_too_many_entries(void **state)
{
	struct mmchal_sg sg[4] = {ent(0, 128), ent(4096, 128), ent(8192, 128), ent(12288, 128)};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 4};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;
	uint32_t n = 99, b = 99;

	(void)state;
	l.max_segs = 2;
	assert_int_equal(mmchal_card_split_next_(&cur, &l, out, 16, &list, &n, &b), MMCHAL_EINVAL);
	/* nothing was taken */
	assert_int_equal(cur.idx, 0);
	assert_int_equal(cur.off, 0);
	/* the scratch size bounds the entries like max_segs does */
	l.max_segs = 16;
	assert_int_equal(mmchal_card_split_next_(&cur, &l, out, 3, &list, &n, &b), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_split_next_(&cur, &l, out, 4, &list, &n, &b), 0);
	assert_int_equal(n, 4);
	assert_int_equal(b, 1);
}

static void test_max_seg_size(void **state)
{
	struct mmchal_sg sg[1] = {ent(0, 4096)};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 1};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;

	(void)state;
	l.max_seg_size = 1024;
	assert_int_equal(next(&cur, &l, &list, 8), 4);
	for (unsigned i = 0; i < 4; i++)
		check_piece(&list[i], i * 1024u, 1024);
}

static void test_seg_boundary(void **state)
{
	struct mmchal_sg sg[1] = {ent(0xf00, 1024)};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 1};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;

	(void)state;
	l.seg_boundary = 0xfff;
	assert_int_equal(next(&cur, &l, &list, 2), 2);
	check_piece(&list[0], 0xf00, 256);
	check_piece(&list[1], 0x1000, 768);
	/* an all-ones mask is no boundary at all */
	cur.idx = 0;
	l.seg_boundary = UINT64_MAX;
	assert_int_equal(next(&cur, &l, &list, 2), 1);
	assert_ptr_equal(list, sg);
}

static void test_virt_boundary(void **state)
{
	/* first entry may start off a page, the last may end off one */
	struct mmchal_sg ok[3] = {ent(0x1200, 0xe00), ent(0x4000, 0x1000), ent(0x8000, 0x200)};
	struct mmchal_sg gap[2] = {ent(0x1000, 512), ent(0x5000, 512)};
	struct mmchal_sg mid[2] = {ent(0x1000, 256), ent(0x5000, 256)};
	struct mmchal_card_split_ cur = {.sg = ok, .nsg = 3};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;
	uint32_t n, b;

	(void)state;
	l.virt_boundary = 0xfff;
	assert_int_equal(next(&cur, &l, &list, 16), 3);
	assert_ptr_equal(list, ok);
	/* an entry ending off a page: the next one goes in a new request */
	cur = (struct mmchal_card_split_){.sg = gap, .nsg = 2};
	assert_int_equal(next(&cur, &l, &list, 1), 1);
	assert_ptr_equal(list, &gap[0]);
	assert_int_equal(next(&cur, &l, &list, 1), 1);
	assert_ptr_equal(list, &gap[1]);
	/* the same gap inside a block cannot be split */
	cur = (struct mmchal_card_split_){.sg = mid, .nsg = 2};
	assert_int_equal(mmchal_card_split_next_(&cur, &l, out, 16, &list, &n, &b), MMCHAL_EINVAL);
	/* without the boundary the same list is one request */
	cur = (struct mmchal_card_split_){.sg = mid, .nsg = 2};
	l.virt_boundary = 0;
	assert_int_equal(next(&cur, &l, &list, 1), 2);
}

static void test_seg_size_cut_keeps_virt_boundary(void **state)
{
	struct mmchal_sg sg[1] = {ent(0x1000, 0x3000)};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 1};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;

	(void)state;
	l.max_seg_size = 0x1800;
	l.virt_boundary = 0xfff;
	assert_int_equal(next(&cur, &l, &list, 24), 3);
	check_piece(&list[0], 0x1000, 0x1000);
	check_piece(&list[1], 0x2000, 0x1000);
	check_piece(&list[2], 0x3000, 0x1000);
}

static void test_dma_only_buffers(void **state)
{
	struct mmchal_sg sg[1] = {{.cpu = NULL, .phys = 0x80000000u, .len = 2048}};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 1};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;

	(void)state;
	l.max_blocks = 2;
	assert_int_equal(next(&cur, &l, &list, 2), 1);
	assert_null(list[0].cpu);
	assert_int_equal(list[0].phys, 0x80000000u);
	assert_int_equal(next(&cur, &l, &list, 2), 1);
	assert_null(list[0].cpu);
	assert_int_equal(list[0].phys, 0x80000400u);
	assert_int_equal(list[0].len, 1024);
}

static void test_bad_cursor(void **state)
{
	struct mmchal_sg sg[1] = {ent(0, 512)};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 1, .idx = 1};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;
	uint32_t n, b;

	(void)state;
	assert_int_equal(mmchal_card_split_next_(&cur, &l, out, 16, &list, &n, &b), MMCHAL_EINVAL);
	cur.idx = 0;
	l.max_blocks = 0;
	assert_int_equal(mmchal_card_split_next_(&cur, &l, out, 16, &list, &n, &b), MMCHAL_EINVAL);
	l.max_blocks = 1;
	assert_int_equal(mmchal_card_split_next_(&cur, &l, out, 0, &list, &n, &b), MMCHAL_EINVAL);
}

/* The partial block given back spans several entries: they are dropped
   whole, the last kept one is shortened, and the next request starts at the
   first byte given back. */
static void test_give_back_spans_entries(void **state)
{
	struct mmchal_sg sg[6] = {ent(0, 400),    ent(1024, 300), ent(2048, 100),
				  ent(3072, 100), ent(4096, 112), ent(8192, 2060)};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 6};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;
	uint32_t n;

	(void)state;
	l.max_segs = 4;
	/* 400 + 300 + 100 + 100 = 900: one block and 388 bytes over */
	n = next(&cur, &l, &list, 1);
	assert_ptr_equal(list, out);
	assert_int_equal(n, 2);
	check_piece(&list[0], 0, 400);
	check_piece(&list[1], 1024, 112);
	assert_int_equal(cur.idx, 1);
	assert_int_equal(cur.off, 112);
	/* 188 + 100 + 100 + 112 = 500 after the given-back 188: not a block;
	   with more entries allowed the rest goes in one */
	l.max_segs = 16;
	n = next(&cur, &l, &list, 5);
	assert_int_equal(n, 5);
	check_piece(&list[0], 1024 + 112, 188);
	check_piece(&list[4], 8192, 2060);
	assert_int_equal(cur.idx, 6);
}

static void test_cap_and_boundary_edges(void **state)
{
	struct mmchal_sg a[2] = {ent(0, 512), ent(0x1000, 1024)};
	struct mmchal_sg b[1] = {ent(0x1e00, 1024)};
	struct mmchal_sg c[1] = {ent(0x1200, 0x2000)};
	struct mmchal_sg d[1] = {ent(0x1000, 2048)};
	struct mmchal_card_split_ cur = {.sg = a, .nsg = 2};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;
	uint32_t n;

	(void)state;
	/* the block cap cuts the second entry to what is left of it */
	l.max_blocks = 2;
	n = next(&cur, &l, &list, 2);
	assert_int_equal(n, 2);
	check_piece(&list[1], 0x1000, 512);
	n = next(&cur, &l, &list, 1);
	check_piece(&list[0], 0x1200, 512);
	/* an entry exactly max_seg_size long is not cut, even off a page */
	l = lim_default();
	l.virt_boundary = 0xfff;
	l.max_seg_size = 1024;
	cur = (struct mmchal_card_split_){.sg = b, .nsg = 1};
	assert_int_equal(next(&cur, &l, &list, 2), 1);
	assert_ptr_equal(list, b);
	/* an entry crossing pages is not cut when no size limit applies */
	l = lim_default();
	l.virt_boundary = 0xfff;
	cur = (struct mmchal_card_split_){.sg = c, .nsg = 1};
	assert_int_equal(next(&cur, &l, &list, 16), 1);
	assert_ptr_equal(list, c);
	/* a size cut with no page boundary inside keeps its length; the
	   request then ends at it */
	l.max_seg_size = 1024;
	cur = (struct mmchal_card_split_){.sg = d, .nsg = 1};
	assert_int_equal(next(&cur, &l, &list, 2), 1);
	check_piece(&list[0], 0x1000, 1024);
	assert_int_equal(next(&cur, &l, &list, 2), 1);
	check_piece(&list[0], 0x1400, 1024);
}

/* A given-back tail exactly one entry long drops that entry whole. */
static void test_give_back_exact_entry(void **state)
{
	struct mmchal_sg sg[3] = {ent(0, 512), ent(0x1000, 100), ent(0x2000, 412)};
	struct mmchal_card_split_ cur = {.sg = sg, .nsg = 3};
	struct mmchal_card_split_lim_ l = lim_default();
	const struct mmchal_sg *list;

	(void)state;
	l.max_segs = 2;
	assert_int_equal(next(&cur, &l, &list, 1), 1);
	check_piece(&list[0], 0, 512);
	assert_int_equal(cur.idx, 1);
	assert_int_equal(cur.off, 0);
	assert_int_equal(next(&cur, &l, &list, 1), 2);
	assert_ptr_equal(list, &sg[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sg_check),
		cmocka_unit_test(test_fits_passes_caller_list),
		cmocka_unit_test(test_max_blocks_cuts_entry),
		cmocka_unit_test(test_max_segs_whole_entries),
		cmocka_unit_test(test_max_segs_gives_back_partial_block),
		cmocka_unit_test(test_block_over_too_many_entries),
		cmocka_unit_test(test_max_seg_size),
		cmocka_unit_test(test_seg_boundary),
		cmocka_unit_test(test_virt_boundary),
		cmocka_unit_test(test_seg_size_cut_keeps_virt_boundary),
		cmocka_unit_test(test_dma_only_buffers),
		cmocka_unit_test(test_bad_cursor),
		cmocka_unit_test(test_give_back_spans_entries),
		cmocka_unit_test(test_cap_and_boundary_edges),
		cmocka_unit_test(test_give_back_exact_entry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
