/*
 * Bad-input rows: the bounce pool (bounce.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

/* ------------------------------------------------------------------ bounce.h */

#define SLOT   512u
#define NSLOTS 8u

static struct mmchal_bounce_cfg *bounce_cfg(void)
{
	struct mmchal_bounce_cfg *c = BI_NEW(struct mmchal_bounce_cfg);

	c->size = SLOT * NSLOTS;
	c->mem = bi_obj(c->size);
	c->dma = 0x60000000u;
	c->slot_size = SLOT;
	c->slots_per_map = 4;
	c->meta_size = MMCHAL_BOUNCE_META_BYTES(NSLOTS);
	c->meta = bi_obj(c->meta_size);
	return c;
}

static struct mmchal_bounce *bounce_live(void)
{
	struct mmchal_bounce *b = BI_NEW(struct mmchal_bounce);

	if (mmchal_bounce_init(b, bounce_cfg()) != 0)
		fail_msg("bad_input: bounce fixture");
	return b;
}

static int binit_with(struct mmchal_bounce_cfg *c)
{
	struct mmchal_bounce *b = BI_NEW(struct mmchal_bounce);

	memset(b, 0x3c, sizeof(*b));
	bi_arm();
	return mmchal_bounce_init(b, c);
}

static int binit_null(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	bi_arm();
	return mmchal_bounce_init(NULL, c);
}

static int binit_null_cfg(void)
{
	return binit_with(NULL);
}

static int binit_no_mem(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->mem = NULL;
	return binit_with(c);
}

static int binit_no_meta(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->meta = NULL;
	return binit_with(c);
}

static int binit_slot_npot(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->slot_size = 600;
	return binit_with(c);
}

static int binit_slot_max(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->slot_size = UINT32_MAX;
	return binit_with(c);
}

static int binit_size0(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->size = 0;
	return binit_with(c);
}

static int binit_few_slots(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->slots_per_map = NSLOTS + 1u;
	return binit_with(c);
}

static int binit_meta_small(void)
{
	struct mmchal_bounce_cfg *c = bounce_cfg();

	c->size = SIZE_MAX;
	return binit_with(c);
}

static int bcaps_null(void)
{
	struct mmchal_bounce *b = bounce_live();

	bi_arm();
	return mmchal_bounce_get_caps(b, NULL);
}

static int bcaps_uninit(void)
{
	struct mmchal_bounce *b = BI_NEW(struct mmchal_bounce);
	struct mmchal_bounce_caps *c = BI_NEW(struct mmchal_bounce_caps);

	bi_arm();
	return mmchal_bounce_get_caps(b, c);
}

static int bcaps_no_pool(void)
{
	struct mmchal_bounce_caps *c = BI_NEW(struct mmchal_bounce_caps);

	memset(c, 0xff, sizeof(*c));
	bi_writable(c, sizeof(*c));
	bi_arm();
	return mmchal_bounce_get_caps(NULL, c) | (c->present ? 1 : 0) | (c->nslots ? 2 : 0);
}

struct bmap_objs {
	struct mmchal_bounce *b;
	struct mmchal_sg *sg;
	struct mmchal_bounce_map *map;
	struct mmchal_dma_seg *out;
};

static struct bmap_objs bo(bool live)
{
	struct bmap_objs o;

	o.b = live ? bounce_live() : BI_NEW(struct mmchal_bounce);
	o.sg = BI_NEW(struct mmchal_sg);
	o.sg->len = 1000;
	o.sg->cpu = bi_obj(o.sg->len);
	o.sg->phys = 0x1234;
	o.map = BI_NEW(struct mmchal_bounce_map);
	o.out = BI_NEW(struct mmchal_dma_seg);
	return o;
}

static int bmap_null(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(NULL, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

static int bmap_null_sg(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(o.b, NULL, 1, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

static int bmap_nsg0(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 0, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

static int bmap_null_map(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, NULL, o.out);
}

static int bmap_null_out(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, NULL);
}

static int bmap_dir(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, (enum mmchal_dir)2, o.map, o.out);
}

static int bmap_no_cpu(void)
{
	struct bmap_objs o = bo(true);

	o.sg->cpu = NULL;
	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

static int bmap_len0(void)
{
	struct bmap_objs o = bo(true);

	o.sg->len = 0;
	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

static int bmap_too_large(void)
{
	struct bmap_objs o = bo(true);

	o.sg->len = UINT32_MAX;
	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out);
}

static int bmap_mapped(void)
{
	struct bmap_objs o = bo(true);

	if (mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out) != 0)
		fail_msg("bad_input: bounce map fixture");
	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

static int bmap_uninit(void)
{
	struct bmap_objs o = bo(false);

	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out);
}

/* An odd CPU address is fine: the data is copied byte for byte. */
static int bmap_unaligned_cpu(void)
{
	struct bmap_objs o = bo(true);

	o.sg->cpu = bi_obj_at(o.sg->len, 1);
	memset(o.sg->cpu, 0x77, o.sg->len);
	bi_writable(o.b, sizeof(*o.b));
	bi_writable(o.b->mem, SLOT * NSLOTS);
	bi_writable(o.b->used, MMCHAL_BOUNCE_META_BYTES(NSLOTS));
	bi_writable(o.map, sizeof(*o.map));
	bi_writable(o.out, sizeof(*o.out));
	bi_arm();
	return mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, o.map, o.out) |
	       (o.out->len == 1000u && o.b->mem[999] == 0x77 ? 0 : 1);
}

static int bmapa_align(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map_aligned(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, 3, o.map, o.out);
}

static int bmapa_align_max(void)
{
	struct bmap_objs o = bo(true);

	bi_writable(o.b, sizeof(*o.b));
	bi_arm();
	return mmchal_bounce_map_aligned(o.b, o.sg, 1, MMCHAL_DIR_TO_CARD, 0x80000000u, o.map,
					 o.out);
}

static int bmapa_null(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_map_aligned(NULL, o.sg, 1, MMCHAL_DIR_TO_CARD, 8, o.map, o.out);
}

static int bunmap_null(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_unmap(NULL, o.map, true);
}

static int bunmap_null_map(void)
{
	struct mmchal_bounce *b = bounce_live();

	bi_arm();
	return mmchal_bounce_unmap(b, NULL, true);
}

static int bunmap_never(void)
{
	struct bmap_objs o = bo(true);

	bi_arm();
	return mmchal_bounce_unmap(o.b, o.map, true);
}

static int bunmap_twice(void)
{
	struct bmap_objs o = bo(true);

	if (mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out) != 0 ||
	    mmchal_bounce_unmap(o.b, o.map, true) != 0)
		fail_msg("bad_input: bounce unmap fixture");
	bi_arm();
	return mmchal_bounce_unmap(o.b, o.map, true);
}

static int bunmap_uninit_pool(void)
{
	struct bmap_objs o = bo(true);
	struct mmchal_bounce *b = BI_NEW(struct mmchal_bounce);

	if (mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out) != 0)
		fail_msg("bad_input: bounce unmap fixture");
	bi_arm();
	return mmchal_bounce_unmap(b, o.map, true);
}

static int bunmap_corrupt(void)
{
	struct bmap_objs o = bo(true);

	if (mmchal_bounce_map(o.b, o.sg, 1, MMCHAL_DIR_FROM_CARD, o.map, o.out) != 0)
		fail_msg("bad_input: bounce unmap fixture");
	o.map->first = NSLOTS - 1u;
	bi_arm();
	return mmchal_bounce_unmap(o.b, o.map, true);
}

static int bin_use_null(void)
{
	bi_arm();
	return (int)mmchal_bounce_in_use(NULL);
}

static int bpeak_null(void)
{
	bi_arm();
	return (int)mmchal_bounce_peak(NULL);
}

const struct bi_row bi_rows_bounce[] = {
	BI_ROW(mmchal_bounce_init, "NULL pool", binit_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "NULL cfg", binit_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "no memory", binit_no_mem, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "no meta", binit_no_meta, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "slot size 600", binit_slot_npot, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "slot size UINT32_MAX", binit_slot_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "size 0", binit_size0, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "fewer slots than one mapping", binit_few_slots, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_init, "size SIZE_MAX, meta for 8 slots", binit_meta_small,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_get_caps, "NULL caps", bcaps_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_get_caps, "NULL pool: no pool", bcaps_no_pool, 0),
	BI_ROW(mmchal_bounce_get_caps, "pool never initialised", bcaps_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "NULL pool", bmap_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "NULL sg", bmap_null_sg, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "0 entries", bmap_nsg0, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "NULL map", bmap_null_map, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "NULL out", bmap_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "direction 2", bmap_dir, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "entry without CPU address", bmap_no_cpu, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "entry length 0", bmap_len0, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "entry of UINT32_MAX bytes", bmap_too_large, MMCHAL_ERANGE),
	BI_ROW(mmchal_bounce_map, "mapping still mapped", bmap_mapped, MMCHAL_EBUSY),
	BI_ROW(mmchal_bounce_map, "pool never initialised", bmap_uninit, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map, "CPU address at +1 (accepted)", bmap_unaligned_cpu, 0),
	BI_ROW(mmchal_bounce_map_aligned, "align 3", bmapa_align, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_map_aligned, "align 2^31: no aligned slot", bmapa_align_max,
	       MMCHAL_ENOMEM),
	BI_ROW(mmchal_bounce_map_aligned, "NULL pool", bmapa_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_unmap, "NULL pool", bunmap_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_unmap, "NULL map", bunmap_null_map, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_unmap, "never mapped", bunmap_never, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_unmap, "released twice", bunmap_twice, MMCHAL_EALREADY),
	BI_ROW(mmchal_bounce_unmap, "pool never initialised", bunmap_uninit_pool, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_unmap, "slots beyond the pool", bunmap_corrupt, MMCHAL_EINVAL),
	BI_ROW(mmchal_bounce_in_use, "NULL pool", bin_use_null, 0),
	BI_ROW(mmchal_bounce_peak, "NULL pool", bpeak_null, 0),
};

const size_t bi_nrows_bounce = sizeof(bi_rows_bounce) / sizeof(bi_rows_bounce[0]);
