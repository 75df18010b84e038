/*
 * Tests of the bounce pool (src/iommu/bounce.c): caps, exact copies both
 * ways, no stale data after a short transfer, exhaustion without waiting,
 * double release, bad arguments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/bounce.h>
#include <mmchal/error.h>

#define SLOT     512u
#define PER_MAP  8u
#define NSLOTS   32u
#define DMA_BASE 0x80000000u

static unsigned char mem[SLOT * NSLOTS];
static uint32_t meta[MMCHAL_BOUNCE_META_BYTES(NSLOTS) / 4u];
static struct mmchal_bounce b;
static unsigned char buf_a[1000], buf_b[700], buf_c[4096];

static void init(void)
{
	struct mmchal_bounce_cfg cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.mem = mem;
	cfg.dma = DMA_BASE;
	cfg.size = sizeof(mem);
	cfg.slot_size = SLOT;
	cfg.slots_per_map = PER_MAP;
	cfg.meta = meta;
	cfg.meta_size = sizeof(meta);
	assert_int_equal(mmchal_bounce_init(&b, &cfg), 0);
}

static void test_init_and_caps(void **state)
{
	struct mmchal_bounce_cfg cfg;
	struct mmchal_bounce_caps caps;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.mem = mem;
	cfg.size = sizeof(mem);
	cfg.meta = meta;
	cfg.meta_size = sizeof(meta);
	/* Defaults: 2 KiB slots, 128 per map -> this pool has only 8 slots. */
	assert_int_equal(mmchal_bounce_init(&b, &cfg), MMCHAL_EINVAL);
	cfg.slots_per_map = 4;
	assert_int_equal(mmchal_bounce_init(&b, &cfg), 0);
	assert_int_equal(mmchal_bounce_get_caps(&b, &caps), 0);
	assert_true(caps.present);
	assert_int_equal(caps.slot_size, MMCHAL_BOUNCE_SLOT_SIZE_DEFAULT);
	assert_int_equal(caps.slots_per_map, 4);
	assert_int_equal(caps.nslots, sizeof(mem) / 2048u);
	cfg.slot_size = 1000;
	assert_int_equal(mmchal_bounce_init(&b, &cfg), MMCHAL_EINVAL);
	cfg.slot_size = SLOT;
	cfg.meta_size = 0;
	assert_int_equal(mmchal_bounce_init(&b, &cfg), MMCHAL_EINVAL);
	cfg.meta_size = sizeof(meta);
	cfg.mem = NULL;
	assert_int_equal(mmchal_bounce_init(&b, &cfg), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_get_caps(NULL, &caps), 0);
	assert_false(caps.present);
	assert_int_equal(caps.nslots, 0);
	assert_int_equal(mmchal_bounce_get_caps(&b, NULL), MMCHAL_EINVAL);
	/* a pool that was never set up (zeroed): refused, caps untouched */
	{
		struct mmchal_bounce zero;

		memset(&zero, 0, sizeof(zero));
		memset(&caps, 0xa5, sizeof(caps));
		assert_int_equal(mmchal_bounce_get_caps(&zero, &caps), MMCHAL_EINVAL);
		assert_int_equal(caps.slot_size, 0xa5a5a5a5u);
	}
	init();
	assert_int_equal(mmchal_bounce_get_caps(&b, &caps), 0);
	assert_int_equal(caps.slot_size, SLOT);
	assert_int_equal(caps.slots_per_map, PER_MAP);
	assert_int_equal(caps.nslots, NSLOTS);
}

static void test_init_edges(void **state)
{
	struct mmchal_bounce_cfg cfg;
	struct mmchal_bounce_caps caps;
	struct mmchal_sg sg = {buf_a, 0, 3};
	struct mmchal_bounce_map map;
	struct mmchal_dma_seg out;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.mem = mem;
	cfg.dma = DMA_BASE;
	cfg.meta = meta;
	cfg.meta_size = sizeof(meta);
	cfg.size = sizeof(mem);
	assert_int_equal(mmchal_bounce_init(NULL, &cfg), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_init(&b, NULL), MMCHAL_EINVAL);
	cfg.meta = NULL;
	assert_int_equal(mmchal_bounce_init(&b, &cfg), MMCHAL_EINVAL);
	cfg.meta = meta;
	/* Exactly one mapping's worth of slots is enough. */
	cfg.slot_size = SLOT;
	cfg.slots_per_map = PER_MAP;
	cfg.size = PER_MAP * SLOT;
	assert_int_equal(mmchal_bounce_init(&b, &cfg), 0);
	cfg.size = PER_MAP * SLOT - 1u;
	assert_int_equal(mmchal_bounce_init(&b, &cfg), MMCHAL_EINVAL);
	/* Bookkeeping left dirty by a previous user is cleared. */
	memset(meta, 0xff, sizeof(meta));
	cfg.size = sizeof(mem);
	assert_int_equal(mmchal_bounce_init(&b, &cfg), 0);
	assert_int_equal(meta[0], 0);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_bounce_map(&b, &sg, 1, MMCHAL_DIR_TO_CARD, &map, &out), 0);
	assert_int_equal(out.addr, DMA_BASE);
	assert_int_equal(mmchal_bounce_unmap(&b, &map, false), 0);
	/* One-byte slots (shift 0): 3 bytes take 3 slots. */
	cfg.slot_size = 1;
	cfg.size = 32;
	assert_int_equal(mmchal_bounce_init(&b, &cfg), 0);
	assert_int_equal(mmchal_bounce_get_caps(&b, &caps), 0);
	assert_int_equal(caps.slot_size, 1);
	assert_int_equal(caps.nslots, 32);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_bounce_map(&b, &sg, 1, MMCHAL_DIR_TO_CARD, &map, &out), 0);
	assert_int_equal(mmchal_bounce_map(&b, &sg, 1, MMCHAL_DIR_TO_CARD, &map, &out),
			 MMCHAL_EBUSY);
	assert_int_equal(mmchal_bounce_unmap(&b, &map, false), 0);
	assert_int_equal(mmchal_bounce_map(&b, &sg, 1, MMCHAL_DIR_TO_CARD, &map, &out), 0);
	assert_int_equal(out.addr, DMA_BASE + 3u);
	assert_int_equal(mmchal_bounce_in_use(&b), 3);
}

/* A device that needs a coarser start than one slot gets an aligned region,
 * also when round-robin reuse puts the cursor between aligned slots. */
static void test_map_aligned(void **state)
{
	struct mmchal_sg sg = {.cpu = buf_a, .phys = 0, .len = 100};
	struct mmchal_bounce_map m1, m2;
	struct mmchal_dma_seg seg;

	(void)state;
	init();
	memset(&m1, 0, sizeof(m1));
	memset(&m2, 0, sizeof(m2));
	/* slot 0, released: the cursor now stands at slot 1 */
	assert_int_equal(mmchal_bounce_map(&b, &sg, 1, MMCHAL_DIR_TO_CARD, &m1, &seg), 0);
	assert_int_equal(seg.addr, DMA_BASE);
	assert_int_equal(mmchal_bounce_unmap(&b, &m1, false), 0);
	/* a 4-slot alignment skips slots 1..3 */
	assert_int_equal(
		mmchal_bounce_map_aligned(&b, &sg, 1, MMCHAL_DIR_FROM_CARD, 4u * SLOT, &m2, &seg),
		0);
	assert_int_equal(seg.addr, DMA_BASE + 4u * SLOT);
	assert_int_equal(seg.len, 100);
	assert_int_equal(mmchal_bounce_in_use(&b), 1);
	assert_int_equal(mmchal_bounce_unmap(&b, &m2, false), 0);
	/* align 0 is documented as "none", like 1: the next slot after the
	 * cursor (slot 5), not only an address aligned to 2^32 */
	memset(&m2, 0, sizeof(m2));
	assert_int_equal(mmchal_bounce_map_aligned(&b, &sg, 1, MMCHAL_DIR_TO_CARD, 0, &m2, &seg),
			 0);
	assert_int_equal(seg.addr, DMA_BASE + 5u * SLOT);
	assert_int_equal(m2.first, 5);
	assert_int_equal(mmchal_bounce_unmap(&b, &m2, false), 0);
	/* not a power of two */
	memset(&m2, 0, sizeof(m2));
	assert_int_equal(
		mmchal_bounce_map_aligned(&b, &sg, 1, MMCHAL_DIR_TO_CARD, 3u * SLOT, &m2, &seg),
		MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_in_use(&b), 0);
}

static void test_to_card_copy(void **state)
{
	struct mmchal_sg sg[2] = {{buf_a, 0, sizeof(buf_a)}, {buf_b, 0, sizeof(buf_b)}};
	struct mmchal_bounce_map map;
	struct mmchal_dma_seg out;
	size_t off;

	(void)state;
	init();
	for (size_t i = 0; i < sizeof(buf_a); i++)
		buf_a[i] = (unsigned char)(i * 7u);
	for (size_t i = 0; i < sizeof(buf_b); i++)
		buf_b[i] = (unsigned char)(i * 13u + 1u);
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_bounce_map(&b, sg, 2, MMCHAL_DIR_TO_CARD, &map, &out), 0);
	assert_int_equal(out.len, 1700);
	assert_int_equal(map.len, 1700);
	assert_int_equal(map.dir, MMCHAL_DIR_TO_CARD);
	/* A fresh pool starts at its first slot: the device address is the
	 * pool's own, not an offset into it. */
	assert_int_equal(out.addr, DMA_BASE);
	assert_int_equal(mmchal_bounce_in_use(&b), 4);
	off = (size_t)(out.addr - DMA_BASE);
	assert_memory_equal(mem + off, buf_a, sizeof(buf_a));
	assert_memory_equal(mem + off + sizeof(buf_a), buf_b, sizeof(buf_b));
	/* TO_CARD never copies back, even when asked. */
	mem[off] ^= 0xffu;
	assert_int_equal(mmchal_bounce_unmap(&b, &map, true), 0);
	assert_int_equal(buf_a[0], 0);
	assert_int_equal(mmchal_bounce_in_use(&b), 0);
	assert_int_equal(mmchal_bounce_unmap(&b, &map, true), MMCHAL_EALREADY);
}

static void test_from_card_copy_back_exact(void **state)
{
	struct mmchal_sg sg[2] = {{buf_a, 0, 300}, {buf_b, 0, 200}};
	struct mmchal_bounce_map map;
	struct mmchal_dma_seg out;
	unsigned char want_a[1000], want_b[700];
	size_t off;

	(void)state;
	init();
	memset(buf_a, 0x11, sizeof(buf_a));
	memset(buf_b, 0x22, sizeof(buf_b));
	memset(&map, 0, sizeof(map));
	assert_int_equal(mmchal_bounce_map(&b, sg, 2, MMCHAL_DIR_FROM_CARD, &map, &out), 0);
	off = (size_t)(out.addr - DMA_BASE);
	/* The "device" writes all 500 bytes. */
	for (size_t i = 0; i < 500; i++)
		mem[off + i] = (unsigned char)(0x80u + i);
	assert_int_equal(mmchal_bounce_unmap(&b, &map, true), 0);
	memset(want_a, 0x11, sizeof(want_a));
	memset(want_b, 0x22, sizeof(want_b));
	for (size_t i = 0; i < 300; i++)
		want_a[i] = (unsigned char)(0x80u + i);
	for (size_t i = 0; i < 200; i++)
		want_b[i] = (unsigned char)(0x80u + 300u + i);
	/* Exactly the mapped bytes changed; nothing beyond. */
	assert_memory_equal(buf_a, want_a, sizeof(buf_a));
	assert_memory_equal(buf_b, want_b, sizeof(buf_b));
}

static void test_no_stale_data_after_short_transfer(void **state)
{
	struct mmchal_sg secret = {buf_c, 0, 2048};
	struct mmchal_sg mine = {buf_a, 0, 1000};
	struct mmchal_bounce_map m1, m2;
	struct mmchal_dma_seg o1, o2;
	unsigned char want[1000];

	(void)state;
	init();
	/* Another user's data passes through the slots first. */
	memset(buf_c, 0x5a, sizeof(buf_c));
	memset(&m1, 0, sizeof(m1));
	memset(&m2, 0, sizeof(m2));
	for (uint32_t round = 0; round < NSLOTS / 4u; round++) {
		assert_int_equal(mmchal_bounce_map(&b, &secret, 1, MMCHAL_DIR_TO_CARD, &m1, &o1),
				 0);
		assert_int_equal(mmchal_bounce_unmap(&b, &m1, false), 0);
	}
	memset(buf_a, 0x33, sizeof(buf_a));
	assert_int_equal(mmchal_bounce_map(&b, &mine, 1, MMCHAL_DIR_FROM_CARD, &m2, &o2), 0);
	/* The device writes only 100 bytes (short transfer). */
	memset(mem + (o2.addr - DMA_BASE), 0x44, 100);
	assert_int_equal(mmchal_bounce_unmap(&b, &m2, true), 0);
	memset(want, 0x33, sizeof(want));
	memset(want, 0x44, 100);
	assert_memory_equal(buf_a, want, sizeof(want));
}

static void test_exhaustion_and_release(void **state)
{
	struct mmchal_sg sg = {buf_c, 0, 4096}; /* 8 slots: a whole group */
	struct mmchal_sg small = {buf_a, 0, 1};
	struct mmchal_bounce_map m[5];
	struct mmchal_dma_seg o[5];
	struct mmchal_sg too_big = {buf_c, 0, SLOT * PER_MAP + 1u};

	(void)state;
	init();
	memset(m, 0, sizeof(m));
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(mmchal_bounce_map(&b, &sg, 1, MMCHAL_DIR_TO_CARD, &m[i], &o[i]),
				 0);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(o[i].addr, DMA_BASE + i * PER_MAP * SLOT);
	assert_int_equal(mmchal_bounce_in_use(&b), NSLOTS);
	assert_int_equal(mmchal_bounce_map(&b, &small, 1, MMCHAL_DIR_TO_CARD, &m[4], &o[4]),
			 MMCHAL_ENOMEM);
	assert_int_equal(b.failures, 1);
	assert_int_equal(mmchal_bounce_map(&b, &too_big, 1, MMCHAL_DIR_TO_CARD, &m[4], &o[4]),
			 MMCHAL_ERANGE);
	assert_int_equal(mmchal_bounce_unmap(&b, &m[2], false), 0);
	assert_int_equal(mmchal_bounce_map(&b, &small, 1, MMCHAL_DIR_TO_CARD, &m[4], &o[4]), 0);
	assert_int_equal(o[4].addr, DMA_BASE + 2u * PER_MAP * SLOT);
	/* A mapping never straddles two groups: 7 free slots in group 2 only. */
	assert_int_equal(mmchal_bounce_map(&b, &sg, 1, MMCHAL_DIR_TO_CARD, &m[2], &o[2]),
			 MMCHAL_ENOMEM);
	assert_int_equal(mmchal_bounce_map(&b, &small, 1, MMCHAL_DIR_TO_CARD, &m[4], &o[4]),
			 MMCHAL_EBUSY);
	for (uint32_t i = 0; i < 5; i++) {
		if (i != 2)
			assert_int_equal(mmchal_bounce_unmap(&b, &m[i], false), 0);
	}
	assert_int_equal(mmchal_bounce_in_use(&b), 0);
}

/* The most slots in use at once: raised by a map, kept by an unmap and by
 * a refused map, back to 0 only when the pool is initialised again. */
static void test_peak(void **state)
{
	struct mmchal_sg two = {buf_a, 0, 1000};   /* 2 slots */
	struct mmchal_sg three = {buf_c, 0, 1500}; /* 3 slots */
	struct mmchal_sg too_big = {buf_c, 0, SLOT * PER_MAP + 1u};
	struct mmchal_bounce_map m1, m2, m3;
	struct mmchal_dma_seg o;

	(void)state;
	init();
	memset(&m1, 0, sizeof(m1));
	memset(&m2, 0, sizeof(m2));
	memset(&m3, 0, sizeof(m3));
	assert_int_equal(mmchal_bounce_peak(&b), 0);
	assert_int_equal(mmchal_bounce_map(&b, &two, 1, MMCHAL_DIR_TO_CARD, &m1, &o), 0);
	assert_int_equal(mmchal_bounce_peak(&b), 2);
	assert_int_equal(mmchal_bounce_map(&b, &three, 1, MMCHAL_DIR_FROM_CARD, &m2, &o), 0);
	assert_int_equal(mmchal_bounce_in_use(&b), 5);
	assert_int_equal(mmchal_bounce_peak(&b), 5);
	assert_int_equal(mmchal_bounce_unmap(&b, &m1, false), 0);
	assert_int_equal(mmchal_bounce_map(&b, &too_big, 1, MMCHAL_DIR_TO_CARD, &m3, &o),
			 MMCHAL_ERANGE);
	assert_int_equal(mmchal_bounce_map(&b, &two, 1, MMCHAL_DIR_TO_CARD, &m1, &o), 0);
	assert_int_equal(mmchal_bounce_in_use(&b), 5);
	assert_int_equal(mmchal_bounce_peak(&b), 5);
	assert_int_equal(mmchal_bounce_unmap(&b, &m1, false), 0);
	assert_int_equal(mmchal_bounce_unmap(&b, &m2, false), 0);
	assert_int_equal(mmchal_bounce_in_use(&b), 0);
	assert_int_equal(mmchal_bounce_peak(&b), 5);
	init();
	assert_int_equal(mmchal_bounce_peak(&b), 0);
	/* no pool: nothing in use, no peak */
	assert_int_equal(mmchal_bounce_peak(NULL), 0);
	assert_int_equal(mmchal_bounce_in_use(NULL), 0);
}

static void test_bad_args(void **state)
{
	struct mmchal_sg nocpu = {NULL, 0x1000, 10};
	struct mmchal_sg zero = {buf_a, 0, 0};
	struct mmchal_sg ok = {buf_a, 0, 10};
	struct mmchal_bounce_map m;
	struct mmchal_dma_seg o;

	(void)state;
	init();
	memset(&m, 0, sizeof(m));
	assert_int_equal(mmchal_bounce_map(&b, &nocpu, 1, MMCHAL_DIR_TO_CARD, &m, &o),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_map(&b, &zero, 1, MMCHAL_DIR_TO_CARD, &m, &o),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_map(&b, &ok, 0, MMCHAL_DIR_TO_CARD, &m, &o), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_map(&b, &ok, 1, (enum mmchal_dir)5, &m, &o), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_map(NULL, &ok, 1, MMCHAL_DIR_TO_CARD, &m, &o),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_unmap(&b, &m, false), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_unmap(NULL, &m, false), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_unmap(&b, NULL, false), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_map(&b, NULL, 1, MMCHAL_DIR_TO_CARD, &m, &o), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_map(&b, &ok, 1, MMCHAL_DIR_TO_CARD, NULL, &o),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_map(&b, &ok, 1, MMCHAL_DIR_TO_CARD, &m, NULL),
			 MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_in_use(&b), 0);
	assert_int_equal(mmchal_bounce_in_use(NULL), 0);
}

/* More than 32 slots (several bookkeeping words) and a last group shorter
 * than slots_per_map. */
#define BIG_SLOTS 70u
static unsigned char big_mem[SLOT * BIG_SLOTS];
static uint32_t big_meta[MMCHAL_BOUNCE_META_BYTES(BIG_SLOTS) / 4u];

static void test_large_pool_short_last_group(void **state)
{
	struct mmchal_bounce_cfg cfg;
	struct mmchal_sg group = {buf_c, 0, PER_MAP * SLOT};
	struct mmchal_sg seven = {buf_c, 0, 7u * SLOT};
	struct mmchal_sg six = {buf_c, 0, 6u * SLOT};
	struct mmchal_sg one = {buf_a, 0, 10};
	struct mmchal_bounce_map m[11];
	struct mmchal_dma_seg o[11];
	struct mmchal_bounce_caps caps;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.mem = big_mem;
	cfg.dma = DMA_BASE;
	cfg.size = sizeof(big_mem);
	cfg.slot_size = SLOT;
	cfg.slots_per_map = PER_MAP;
	cfg.meta = big_meta;
	cfg.meta_size = sizeof(big_meta);
	/* Bookkeeping for 64 slots is one word too few for 70. */
	cfg.meta_size = MMCHAL_BOUNCE_META_BYTES(64);
	assert_int_equal(mmchal_bounce_init(&b, &cfg), MMCHAL_EINVAL);
	cfg.meta_size = sizeof(big_meta);
	assert_int_equal(mmchal_bounce_init(&b, &cfg), 0);
	assert_int_equal(mmchal_bounce_get_caps(&b, &caps), 0);
	assert_int_equal(caps.nslots, BIG_SLOTS);
	memset(m, 0, sizeof(m));
	for (size_t i = 0; i < sizeof(buf_c); i++)
		buf_c[i] = (unsigned char)(i * 3u + 5u);
	for (uint32_t g = 0; g < 8; g++) {
		assert_int_equal(mmchal_bounce_map(&b, &group, 1, MMCHAL_DIR_TO_CARD, &m[g], &o[g]),
				 0);
		assert_int_equal(o[g].addr, DMA_BASE + g * PER_MAP * SLOT);
	}
	/* Group 8 holds only slots 64..69. */
	assert_int_equal(mmchal_bounce_map(&b, &seven, 1, MMCHAL_DIR_TO_CARD, &m[8], &o[8]),
			 MMCHAL_ENOMEM);
	assert_int_equal(mmchal_bounce_map(&b, &six, 1, MMCHAL_DIR_TO_CARD, &m[8], &o[8]), 0);
	assert_int_equal(o[8].addr, DMA_BASE + 64u * SLOT);
	assert_memory_equal(big_mem + 64u * SLOT, buf_c, 6u * SLOT);
	assert_int_equal(mmchal_bounce_in_use(&b), BIG_SLOTS);
	assert_int_equal(mmchal_bounce_map(&b, &one, 1, MMCHAL_DIR_TO_CARD, &m[9], &o[9]),
			 MMCHAL_ENOMEM);
	/* Slots 40..47 live in the second bookkeeping word. */
	assert_int_equal(mmchal_bounce_unmap(&b, &m[5], false), 0);
	assert_int_equal(big_meta[1], 0xffff00ffu);
	assert_int_equal(mmchal_bounce_map(&b, &one, 1, MMCHAL_DIR_TO_CARD, &m[9], &o[9]), 0);
	assert_int_equal(o[9].addr, DMA_BASE + 40u * SLOT);
	assert_memory_equal(big_mem + 40u * SLOT, buf_a, 10);
	assert_int_equal(big_meta[1], 0xffff01ffu);
	assert_int_equal(big_meta[2], 0x3fu);
	for (uint32_t g = 0; g < 10; g++) {
		if (g != 5)
			assert_int_equal(mmchal_bounce_unmap(&b, &m[g], false), 0);
	}
	assert_int_equal(mmchal_bounce_in_use(&b), 0);
	assert_int_equal(big_meta[0] | big_meta[1] | big_meta[2], 0);
}

static void test_round_robin_reuse(void **state)
{
	struct mmchal_sg one = {buf_a, 0, 1};
	struct mmchal_sg two = {buf_a, 0, SLOT + 1u};
	struct mmchal_bounce_map m;
	struct mmchal_dma_seg o;

	(void)state;
	init();
	memset(&m, 0, sizeof(m));
	/* A released slot is not handed out again until the search has gone
	 * round the whole pool: slot k for the k-th mapping, wrapping at the end. */
	for (uint32_t k = 0; k < NSLOTS + 3u; k++) {
		assert_int_equal(mmchal_bounce_map(&b, &one, 1, MMCHAL_DIR_TO_CARD, &m, &o), 0);
		assert_int_equal(o.addr, DMA_BASE + (k % NSLOTS) * SLOT);
		assert_int_equal(mmchal_bounce_unmap(&b, &m, false), 0);
	}
	/* The cursor is at slot 3: a two-slot mapping takes 3..4, the next one 5..6. */
	assert_int_equal(mmchal_bounce_map(&b, &two, 1, MMCHAL_DIR_TO_CARD, &m, &o), 0);
	assert_int_equal(o.addr, DMA_BASE + 3u * SLOT);
	assert_int_equal(mmchal_bounce_in_use(&b), 2);
	assert_int_equal(mmchal_bounce_unmap(&b, &m, false), 0);
	assert_int_equal(mmchal_bounce_map(&b, &two, 1, MMCHAL_DIR_TO_CARD, &m, &o), 0);
	assert_int_equal(o.addr, DMA_BASE + 5u * SLOT);
	assert_int_equal(mmchal_bounce_unmap(&b, &m, false), 0);
}

static void test_free_slot_behind_the_cursor(void **state)
{
	struct mmchal_sg one = {buf_a, 0, 1};
	struct mmchal_bounce_map m[NSLOTS + 1u];
	struct mmchal_dma_seg o[NSLOTS + 1u];

	(void)state;
	init();
	memset(m, 0, sizeof(m));
	for (uint32_t k = 0; k < NSLOTS; k++)
		assert_int_equal(mmchal_bounce_map(&b, &one, 1, MMCHAL_DIR_TO_CARD, &m[k], &o[k]),
				 0);
	/* Refill slots 0 and 3: the cursor ends at slot 4. */
	assert_int_equal(mmchal_bounce_unmap(&b, &m[0], false), 0);
	assert_int_equal(mmchal_bounce_unmap(&b, &m[3], false), 0);
	assert_int_equal(mmchal_bounce_map(&b, &one, 1, MMCHAL_DIR_TO_CARD, &m[0], &o[0]), 0);
	assert_int_equal(o[0].addr, DMA_BASE);
	assert_int_equal(mmchal_bounce_map(&b, &one, 1, MMCHAL_DIR_TO_CARD, &m[3], &o[3]), 0);
	assert_int_equal(o[3].addr, DMA_BASE + 3u * SLOT);
	/* The only free slot is behind the cursor in its own group. */
	assert_int_equal(mmchal_bounce_unmap(&b, &m[1], false), 0);
	assert_int_equal(mmchal_bounce_map(&b, &one, 1, MMCHAL_DIR_TO_CARD, &m[NSLOTS], &o[NSLOTS]),
			 0);
	assert_int_equal(o[NSLOTS].addr, DMA_BASE + SLOT);
	assert_int_equal(mmchal_bounce_in_use(&b), NSLOTS);
}

static void test_groups_searched_forward(void **state)
{
	struct mmchal_sg group = {buf_c, 0, PER_MAP * SLOT};
	struct mmchal_sg one = {buf_a, 0, 1};
	struct mmchal_bounce_map m[3];
	struct mmchal_dma_seg o[3];

	(void)state;
	init();
	memset(m, 0, sizeof(m));
	/* Group 0 full, slot 8 taken: the cursor is at 9, group 1 has 7 free. */
	assert_int_equal(mmchal_bounce_map(&b, &group, 1, MMCHAL_DIR_TO_CARD, &m[0], &o[0]), 0);
	assert_int_equal(mmchal_bounce_map(&b, &one, 1, MMCHAL_DIR_TO_CARD, &m[1], &o[1]), 0);
	assert_int_equal(o[1].addr, DMA_BASE + 8u * SLOT);
	/* A whole group goes to the next group after the cursor (2), not 3. */
	assert_int_equal(mmchal_bounce_map(&b, &group, 1, MMCHAL_DIR_TO_CARD, &m[2], &o[2]), 0);
	assert_int_equal(o[2].addr, DMA_BASE + 16u * SLOT);
}

static void test_copy_back_from_a_later_slot(void **state)
{
	struct mmchal_sg first = {buf_c, 0, 3u * SLOT};
	struct mmchal_sg sg[2] = {{buf_a, 0, 10}, {buf_b, 0, 20}};
	struct mmchal_bounce_map m1, m2;
	struct mmchal_dma_seg o1, o2;

	(void)state;
	init();
	memset(&m1, 0, sizeof(m1));
	memset(&m2, 0, sizeof(m2));
	memset(buf_c, 0x77, sizeof(buf_c));
	assert_int_equal(mmchal_bounce_map(&b, &first, 1, MMCHAL_DIR_TO_CARD, &m1, &o1), 0);
	assert_int_equal(mmchal_bounce_map(&b, sg, 2, MMCHAL_DIR_FROM_CARD, &m2, &o2), 0);
	assert_int_equal(o2.addr, DMA_BASE + 3u * SLOT);
	for (uint32_t i = 0; i < 30; i++)
		mem[3u * SLOT + i] = (unsigned char)(0xc0u + i);
	assert_int_equal(mmchal_bounce_unmap(&b, &m2, true), 0);
	for (uint32_t i = 0; i < 10; i++)
		assert_int_equal(buf_a[i], 0xc0u + i);
	for (uint32_t i = 0; i < 20; i++)
		assert_int_equal(buf_b[i], 0xc0u + 10u + i);
	assert_int_equal(mmchal_bounce_unmap(&b, &m1, false), 0);
}

static void test_unmap_of_a_corrupted_record(void **state)
{
	struct mmchal_sg sg = {buf_c, 0, 2u * SLOT};
	struct mmchal_bounce_map m, bad;
	struct mmchal_dma_seg o;

	(void)state;
	init();
	memset(&m, 0, sizeof(m));
	assert_int_equal(mmchal_bounce_map(&b, &sg, 1, MMCHAL_DIR_TO_CARD, &m, &o), 0);
	/* Each record below is refused and releases nothing. */
	bad = m;
	bad.first = NSLOTS;
	assert_int_equal(mmchal_bounce_unmap(&b, &bad, false), MMCHAL_EINVAL);
	bad = m;
	bad.first = NSLOTS - 1u; /* 2 slots from the last one run past the pool */
	assert_int_equal(mmchal_bounce_unmap(&b, &bad, false), MMCHAL_EINVAL);
	bad = m;
	bad.nslots = 0;
	assert_int_equal(mmchal_bounce_unmap(&b, &bad, false), MMCHAL_EINVAL);
	bad = m;
	bad.nslots = NSLOTS + 1u;
	assert_int_equal(mmchal_bounce_unmap(&b, &bad, false), MMCHAL_EINVAL);
	bad = m;
	bad.state = 0x12345678u;
	assert_int_equal(mmchal_bounce_unmap(&b, &bad, false), MMCHAL_EINVAL);
	assert_int_equal(mmchal_bounce_in_use(&b), 2);
	assert_int_equal(meta[0], 0x3u);
	/* The last two slots themselves are a valid record. */
	bad = m;
	bad.first = NSLOTS - 2u;
	assert_int_equal(mmchal_bounce_unmap(&b, &bad, false), 0);
	assert_int_equal(mmchal_bounce_in_use(&b), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_and_caps),
		cmocka_unit_test(test_init_edges),
		cmocka_unit_test(test_map_aligned),
		cmocka_unit_test(test_to_card_copy),
		cmocka_unit_test(test_from_card_copy_back_exact),
		cmocka_unit_test(test_no_stale_data_after_short_transfer),
		cmocka_unit_test(test_exhaustion_and_release),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_large_pool_short_last_group),
		cmocka_unit_test(test_round_robin_reuse),
		cmocka_unit_test(test_peak),
		cmocka_unit_test(test_free_slot_behind_the_cursor),
		cmocka_unit_test(test_groups_searched_forward),
		cmocka_unit_test(test_copy_back_from_a_later_slot),
		cmocka_unit_test(test_unmap_of_a_corrupted_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
