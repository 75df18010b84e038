/*
 * The limits derivation, the request check and the planner of a library
 * built without the IOMMU layer, the bounce pool or the interrupt path
 * (config.h, docs/footprint.md).
 *
 * In every such build the capability sets of a boot loader (SDHI internal
 * DMAC, SYS-DMAC, PIO; polled, no IOMMU, no pool) derive exactly what the
 * full build derives: every field, reason and cause is written out below by
 * hand, as are the plans and refusals of aligned, misaligned and oversized
 * requests. Then each group of the options the build leaves out:
 *  - no IOMMU layer: capabilities that name an IOMMU are refused with
 *    MMCHAL_ENOTSUP and nothing written; the planner and the request check
 *    take an environment or limits that name one as if they did not;
 *  - no bounce pool: the same for a pool; nothing is ever bounced;
 *  - no interrupt path: an interrupt-driven host is polled, with its own
 *    reason, and only a polled override is accepted; the host core derives
 *    that policy at init and runs a card with it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/config.h>
#include <mmchal/dma_plan.h>
#include <mmchal/error.h>
#include <mmchal/limits.h>

#include "core/dma_plan_priv.h"

#if !MMCHAL_WITH_IRQ && MMCHAL_WITH_BACKEND_MOCK
#include <mmchal/card.h>
#include <mmchal/host_core.h>
#include <mmchal/mock.h>
#endif

_Static_assert(!MMCHAL_WITH_IOMMU || !MMCHAL_WITH_BOUNCE || !MMCHAL_WITH_IRQ,
	       "test_lean_limits.c is built only for a library without the IOMMU layer, the "
	       "bounce pool or the interrupt path");

/* ------------------------------------------------------------ capabilities */

/* R-Car Gen3 SDHI internal DMAC (sdhi_idmac.c): one segment, 128-byte start
 * alignment, 32-bit addresses, 0xffffffff largest segment, not coherent. */
#define IDMAC_DIR                                                                              \
	{                                                                                      \
		.addr_bits = 32, .addr_align = 128, .max_segs = 1, .max_seg_size = 0xffffffffu \
	}
#define IDMAC_DMA                                                            \
	{                                                                    \
		.kind = MMCHAL_DMA_INTERNAL, .dir = { IDMAC_DIR, IDMAC_DIR } \
	}
/* An R-Car H3 (MMCHAL_SDHI_SOC_R8A7795) as sdhi_common.c reports it: merge-capable,
 * 32-bit block counter, MMCHAL_SDHI_BLK_COUNT_GEN3 blocks of 512 bytes; the boot
 * loader polls. */
#define GEN3_HOST(ctx)                                                                 \
	{                                                                              \
		.merge_capable = true, .blk_count_bits = 32, .max_blk_count = 8388607, \
		.max_blk_size = 512, .completion = (ctx)                               \
	}

/* An R-Car H2 (MMCHAL_SDHI_SOC_R8A7790) on its SYS-DMAC: 32 descriptors (the SoC
 * entry's max_segs) of up to 16 MiB, a 4-byte bus, the SDHI's granule of 2 and
 * minimum of 8 bytes (sdhi_sysdmac.c), no crossing of 4 GiB; the 16-bit block
 * counter of VERSION < 0xcb0d caps the SoC's count at 65535. */
#define SYSDMAC_DIR                                                                  \
	{                                                                            \
		.addr_bits = 32, .addr_align = 4, .len_granule = 2, .max_segs = 32,  \
		.max_seg_size = 16u << 20, .seg_boundary = 0xffffffffu, .min_len = 8 \
	}
#define SYSDMAC_DMA                                                              \
	{                                                                        \
		.kind = MMCHAL_DMA_EXTERNAL, .dir = { SYSDMAC_DIR, SYSDMAC_DIR } \
	}
#define GEN2_HOST(ctx)                                                             \
	{                                                                          \
		.blk_count_bits = 16, .max_blk_count = 65535, .max_blk_size = 512, \
		.completion = (ctx)                                                \
	}

/* An MCU's SDHI by PIO (MMCHAL_SDHI_SOC_SHMOBILE, the mcu-pio image): 16-bit
 * counter, 256 blocks per request, no engine. */
#define PIO_HOST(ctx)                                                            \
	{                                                                        \
		.blk_count_bits = 16, .max_blk_count = 256, .max_blk_size = 512, \
		.completion = (ctx)                                              \
	}

/* An IPMMU-like IOMMU with 4 KiB pages that can merge, and a default pool. */
#define IOMMU_MERGING                                                        \
	{                                                                    \
		.present = true, .page_size = 4096, .merge_boundary = 0xfff, \
		.aperture_end = 0xffffffffu                                  \
	}
#define POOL                    \
	{                       \
		.present = true \
	}

static const struct mmchal_caps idmac_caps = {.host = GEN3_HOST(MMCHAL_COMPLETES_POLLED),
					      .dma = IDMAC_DMA};
static const struct mmchal_caps sysdmac_caps = {.host = GEN2_HOST(MMCHAL_COMPLETES_POLLED),
						.dma = SYSDMAC_DMA};
static const struct mmchal_caps pio_caps = {.host = PIO_HOST(MMCHAL_COMPLETES_POLLED)};

/* A boot loader's port: no lock, no deferred work. */
static const struct mmchal_port_caps bare_port = {0};
static const struct mmchal_port_caps full_port = {.lock = true, .deferred_work = true};

/* ------------------------------------------------------------ expected limits */

#define R(f) [MMCHAL_LIM_##f]

/* The internal DMAC host, whatever the card: one segment and nothing to merge
 * with; the request is the block product (512 x 8388607), which also bounds the
 * 0xffffffff segment; 128-byte alignment; the backend completes by polling and
 * the work is the fixed 2000 ns. */
#define WANT_IDMAC(c)                                                                    \
	{                                                                                \
		.max_segs = 1, .max_blk_size = 512, .max_req_size = 4294966784u,         \
		.max_blk_count = 8388607, .max_seg_size = 4294966784u, .dma_align = 128, \
		.policy = MMCHAL_POLICY_POLLED, .completion_work_ns = 2000, .card = (c), \
		.reason = {R(MAX_SEGS) = MMCHAL_WHY_ENGINE_SEGS,                         \
			   R(MERGE) = MMCHAL_WHY_MERGE_NO_IOMMU,                         \
			   R(VIRT_BOUNDARY) = MMCHAL_WHY_MERGE_NO_IOMMU,                 \
			   R(MAX_BLK_SIZE) = MMCHAL_WHY_HOST_DECLARED,                   \
			   R(MAX_REQ_SIZE) = MMCHAL_WHY_BLK_PRODUCT,                     \
			   R(MAX_BLK_COUNT) = MMCHAL_WHY_SOC_BLK_COUNT,                  \
			   R(MAX_SEG_SIZE) = MMCHAL_WHY_FIT_REQ_SIZE,                    \
			   R(SEG_BOUNDARY) = MMCHAL_WHY_NONE,                            \
			   R(DMA_ALIGN) = MMCHAL_WHY_ENGINE_ALIGN,                       \
			   R(BOUNCE_LIMIT) = MMCHAL_WHY_BOUNCE_NO_POOL,                  \
			   R(POLICY) = MMCHAL_WHY_POLICY_NO_IRQ},                        \
		.cause = {                                                               \
			R(MAX_SEGS) = 1,                                                 \
			R(MERGE) = 1,                                                    \
			R(VIRT_BOUNDARY) = 1,                                            \
			R(MAX_BLK_SIZE) = 512,                                           \
			R(MAX_REQ_SIZE) = 4294966784u,                                   \
			R(MAX_BLK_COUNT) = 8388607,                                      \
			R(MAX_SEG_SIZE) = 4294966784u,                                   \
			R(SEG_BOUNDARY) = 0,                                             \
			R(DMA_ALIGN) = 128,                                              \
			R(BOUNCE_LIMIT) = 0,                                             \
			R(POLICY) = 2000                                                 \
		}                                                                        \
	}

/* The SYS-DMAC host: the TMIO default of 32 segments (the engine chains as
 * many), no merging (not merge-capable), 512 x 65535 bytes, 16 MiB segments
 * within the 4 GiB boundary (cause: the boundary, 2^32), 4-byte alignment. */
static const struct mmchal_limits want_sysdmac = {
	.max_segs = 32,
	.max_blk_size = 512,
	.max_req_size = 33553920u,
	.max_blk_count = 65535,
	.max_seg_size = 16777216u,
	.seg_boundary = 0xffffffffu,
	.dma_align = 4,
	.policy = MMCHAL_POLICY_POLLED,
	.completion_work_ns = 2000,
	.card = MMCHAL_CARD_SD,
	.reason = {R(MAX_SEGS) = MMCHAL_WHY_DEFAULT, R(MERGE) = MMCHAL_WHY_MERGE_NOT_CAPABLE,
		   R(VIRT_BOUNDARY) = MMCHAL_WHY_MERGE_NOT_CAPABLE,
		   R(MAX_BLK_SIZE) = MMCHAL_WHY_HOST_DECLARED,
		   R(MAX_REQ_SIZE) = MMCHAL_WHY_BLK_PRODUCT,
		   R(MAX_BLK_COUNT) = MMCHAL_WHY_BLK_COUNTER,
		   R(MAX_SEG_SIZE) = MMCHAL_WHY_ENGINE_SEG_SIZE,
		   R(SEG_BOUNDARY) = MMCHAL_WHY_ENGINE_BOUNDARY,
		   R(DMA_ALIGN) = MMCHAL_WHY_ENGINE_ALIGN,
		   R(BOUNCE_LIMIT) = MMCHAL_WHY_BOUNCE_NO_POOL,
		   R(POLICY) = MMCHAL_WHY_POLICY_NO_IRQ},
	.cause = {R(MAX_SEGS) = 32, R(MERGE) = 32, R(VIRT_BOUNDARY) = 32, R(MAX_BLK_SIZE) = 512,
		  R(MAX_REQ_SIZE) = 33553920u, R(MAX_BLK_COUNT) = 16, R(MAX_SEG_SIZE) = 16777216u,
		  R(SEG_BOUNDARY) = 0x100000000ull, R(DMA_ALIGN) = 4, R(BOUNCE_LIMIT) = 0,
		  R(POLICY) = 2000},
};

/* The PIO host: the TMIO default kept, nothing to merge, 512 x 256 bytes in
 * segments of any size up to that, no alignment. */
static const struct mmchal_limits want_pio = {
	.max_segs = 32,
	.max_blk_size = 512,
	.max_req_size = 131072u,
	.max_blk_count = 256,
	.max_seg_size = 131072u,
	.dma_align = 1,
	.policy = MMCHAL_POLICY_POLLED,
	.completion_work_ns = 2000,
	.card = MMCHAL_CARD_SD,
	.reason = {R(MAX_SEGS) = MMCHAL_WHY_PIO_NO_ENGINE, R(MERGE) = MMCHAL_WHY_MERGE_NO_DMA,
		   R(VIRT_BOUNDARY) = MMCHAL_WHY_MERGE_NO_DMA,
		   R(MAX_BLK_SIZE) = MMCHAL_WHY_HOST_DECLARED,
		   R(MAX_REQ_SIZE) = MMCHAL_WHY_BLK_PRODUCT,
		   R(MAX_BLK_COUNT) = MMCHAL_WHY_SOC_BLK_COUNT,
		   R(MAX_SEG_SIZE) = MMCHAL_WHY_FIT_REQ_SIZE, R(SEG_BOUNDARY) = MMCHAL_WHY_NONE,
		   R(DMA_ALIGN) = MMCHAL_WHY_NONE, R(BOUNCE_LIMIT) = MMCHAL_WHY_BOUNCE_NO_POOL,
		   R(POLICY) = MMCHAL_WHY_POLICY_NO_IRQ},
	.cause = {R(MAX_SEGS) = 32, R(MERGE) = 32, R(VIRT_BOUNDARY) = 32, R(MAX_BLK_SIZE) = 512,
		  R(MAX_REQ_SIZE) = 131072u, R(MAX_BLK_COUNT) = 256, R(MAX_SEG_SIZE) = 131072u,
		  R(SEG_BOUNDARY) = 0, R(DMA_ALIGN) = 1, R(BOUNCE_LIMIT) = 0, R(POLICY) = 2000},
};

/* Every field, reason and cause of @p got is @p want's. */
static void limits_are(const struct mmchal_limits *got, const struct mmchal_limits *want)
{
	assert_int_equal(got->max_segs, want->max_segs);
	assert_int_equal(got->merge, want->merge);
	assert_int_equal(got->virt_boundary, want->virt_boundary);
	assert_int_equal(got->max_blk_size, want->max_blk_size);
	assert_int_equal(got->max_req_size, want->max_req_size);
	assert_int_equal(got->max_blk_count, want->max_blk_count);
	assert_int_equal(got->max_seg_size, want->max_seg_size);
	assert_int_equal(got->seg_boundary, want->seg_boundary);
	assert_int_equal(got->dma_align, want->dma_align);
	assert_int_equal(got->bounce_limit, want->bounce_limit);
	assert_int_equal(got->policy, want->policy);
	assert_int_equal(got->completion_work_ns, want->completion_work_ns);
	assert_int_equal(got->card, want->card);
	for (unsigned int f = 0; f < MMCHAL_LIM_COUNT; f++) {
		if (got->reason[f] != want->reason[f] || got->cause[f] != want->cause[f])
			fail_msg("%s: reason %d cause %llu, want reason %d cause %llu",
				 mmchal_limit_field_name((enum mmchal_limit_field)f),
				 (int)got->reason[f], (unsigned long long)got->cause[f],
				 (int)want->reason[f], (unsigned long long)want->cause[f]);
	}
}

/* Derive into @p out, which must succeed. */
static void derive(const struct mmchal_caps *caps, const struct mmchal_port_caps *port,
		   const struct mmchal_policy_cfg *cfg, enum mmchal_card_type card,
		   struct mmchal_limits *out)
{
	memset(out, 0x5a, sizeof(*out));
	assert_int_equal(mmchal_limits_derive(caps, port, cfg, card, out), 0);
}

/* The derivation refuses with @p err and leaves its output as it was. */
static void refused(const struct mmchal_caps *caps, const struct mmchal_port_caps *port,
		    const struct mmchal_policy_cfg *cfg, enum mmchal_card_type card, int err)
{
	struct mmchal_limits out, before;

	memset(&out, 0xa5, sizeof(out));
	memcpy(&before, &out, sizeof(out));
	assert_int_equal(mmchal_limits_derive(caps, port, cfg, card, &out), err);
	assert_memory_equal(&out, &before, sizeof(out));
}

/* ------------------------------------------------------------ requests */

static _Alignas(4096) uint8_t buf[16 * 4096];
static struct mmchal_sg sgl[40];
static struct mmchal_data data;
static struct mmchal_cmd cmd18 = {.opcode = 18, .flags = MMCHAL_RSP_R1};
static struct mmchal_request req = {.cmd = &cmd18, .data = &data};

/* A list of @p n entries of @p len bytes each at CPU offset @p off in buf and
 * physical @p phys, one after the other. */
static void list(enum mmchal_dir dir, uint32_t blksz, uint32_t n, uint32_t len, size_t off,
		 uint64_t phys)
{
	memset(sgl, 0, sizeof(sgl));
	for (uint32_t i = 0; i < n; i++) {
		sgl[i].cpu = buf + off + (size_t)i * len % (sizeof(buf) - off);
		sgl[i].phys = phys + (uint64_t)i * len;
		sgl[i].len = len;
	}
	data = (struct mmchal_data){.dir = dir,
				    .blksz = blksz,
				    .blocks = (uint32_t)((uint64_t)n * len / blksz),
				    .sg = sgl,
				    .sg_len = n};
}

/* The request check of the list: @p why at entry @p index. */
static void check_is(const struct mmchal_limits *lim, enum mmchal_req_check why, uint32_t index)
{
	struct mmchal_req_check_info info;

	memset(&info, 0x5a, sizeof(info));
	assert_int_equal(mmchal_request_check(&req, lim, &info),
			 why == MMCHAL_REQ_OK ? 0 : MMCHAL_EINVAL);
	assert_int_equal(info.why, why);
	assert_int_equal(info.index, index);
	assert_int_equal(info.sum.valid, why == MMCHAL_REQ_OK);
}

/* The plan of the list in @p env: every field of the result. */
static void plan_is(const struct mmchal_plan_env *env, enum mmchal_plan plan,
		    enum mmchal_plan_reason why, enum mmchal_plan_nobounce nb, uint32_t index)
{
	struct mmchal_plan_result r;

	memset(&r, 0x5a, sizeof(r));
	assert_int_equal(mmchal_dma_plan(env, &data, &r), 0);
	assert_int_equal(r.plan, plan);
	assert_int_equal(r.reason, why);
	assert_int_equal(r.nobounce, nb);
	assert_int_equal(r.merge, MMCHAL_MERGE_NO_IOMMU);
	assert_int_equal(r.index, index);
	assert_false(r.iommu);
}

static const struct mmchal_dma_caps idmac_dma = IDMAC_DMA;
static const struct mmchal_dma_caps sysdmac_dma = SYSDMAC_DMA;

/* The host core's environments: a 64-byte cache line without coherent DMA, one
 * entry in the internal DMAC host's segment table, 32 in the SYS-DMAC's. */
static const struct mmchal_plan_env idmac_env = {
	.dma = &idmac_dma, .card = MMCHAL_CARD_MMC, .cache_line = 64, .seg_table = 1};
static const struct mmchal_plan_env sysdmac_env = {
	.dma = &sysdmac_dma, .card = MMCHAL_CARD_SD, .cache_line = 64, .seg_table = 32};

/* ------------------------------------------------------------ every lean build */

/* The three boot-loader hosts derive what the full build derives; the internal
 * DMAC host the same for every card (nothing merges without an IOMMU). */
static void test_boot_loader_limits(void **state)
{
	static const struct mmchal_limits want_idmac[] = {
		WANT_IDMAC(MMCHAL_CARD_UNKNOWN), WANT_IDMAC(MMCHAL_CARD_SD),
		WANT_IDMAC(MMCHAL_CARD_MMC), WANT_IDMAC(MMCHAL_CARD_SDIO),
		WANT_IDMAC(MMCHAL_CARD_SD_COMBO)};
	struct mmchal_limits l;

	(void)state;
	for (unsigned int i = 0; i < sizeof(want_idmac) / sizeof(want_idmac[0]); i++) {
		derive(&idmac_caps, &bare_port, NULL, want_idmac[i].card, &l);
		limits_are(&l, &want_idmac[i]);
	}
	derive(&sysdmac_caps, &bare_port, NULL, MMCHAL_CARD_SD, &l);
	limits_are(&l, &want_sysdmac);
	derive(&pio_caps, &bare_port, NULL, MMCHAL_CARD_SD, &l);
	limits_are(&l, &want_pio);
}

/* The policy settings of a polled host: the fixed cost is the configured one
 * (the other figures price units the host has not got), the budgets play no
 * part, a polled override is honoured and explained as one. */
static void test_polled_policy_settings(void **state)
{
	struct mmchal_policy_cfg cfg = {.base_ns = 3500,
					.irq_off_budget_ns = 1,
					.irq_budget_ns = 1,
					.unmap_ns_per_page = 7,
					.flush_ns = 9,
					.copy_ns_per_kib = 11};
	struct mmchal_limits want = WANT_IDMAC(MMCHAL_CARD_MMC), l;

	(void)state;
	want.completion_work_ns = 3500;
	want.cause[MMCHAL_LIM_POLICY] = 3500;
	derive(&idmac_caps, &full_port, &cfg, MMCHAL_CARD_MMC, &l);
	limits_are(&l, &want);

	cfg.override = MMCHAL_POLICY_POLLED;
	want.reason[MMCHAL_LIM_POLICY] = MMCHAL_WHY_POLICY_OVERRIDE;
	derive(&idmac_caps, &bare_port, &cfg, MMCHAL_CARD_MMC, &l);
	limits_are(&l, &want);

	/* an interrupt policy on a polled host: not runnable in any build */
	cfg.override = MMCHAL_POLICY_IRQ_SPLIT;
	refused(&idmac_caps, &full_port, &cfg, MMCHAL_CARD_MMC, MMCHAL_EINVAL);
}

/* Inconsistent capabilities are refused as in the full build, before any
 * unit the build lacks is looked at. */
static void test_inconsistent_caps(void **state)
{
	struct mmchal_caps c = idmac_caps;

	(void)state;
	refused(NULL, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_EINVAL);
	refused(&c, NULL, NULL, MMCHAL_CARD_MMC, MMCHAL_EINVAL);
	assert_int_equal(mmchal_limits_derive(&c, &bare_port, NULL, MMCHAL_CARD_MMC, NULL),
			 MMCHAL_EINVAL);
	refused(&c, &bare_port, NULL, (enum mmchal_card_type)(MMCHAL_CARD_SD_COMBO + 1),
		MMCHAL_EINVAL);
	c.dma.dir[MMCHAL_DIR_FROM_CARD].max_segs = 0;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_EINVAL);
	c = idmac_caps;
	c.host.blk_count_bits = 24;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_EINVAL);
	/* fields of a unit that is absent: two configurations mixed up */
	c = idmac_caps;
	c.iommu.page_size = 4096;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_EINVAL);
	c = idmac_caps;
	c.bounce.nslots = 4;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_EINVAL);
	/* an engine whose largest transfer is below one block */
	c = idmac_caps;
	c.dma.dir[MMCHAL_DIR_TO_CARD].max_xfer = 256;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_EINVAL);
}

/* The request check with the derived limits: a valid list and its summary,
 * then the first failure of oversized and badly shaped requests. */
static void test_request_check(void **state)
{
	struct mmchal_limits idmac, sysdmac, pio;
	struct mmchal_req_check_info info;

	(void)state;
	derive(&idmac_caps, &bare_port, NULL, MMCHAL_CARD_MMC, &idmac);
	derive(&sysdmac_caps, &bare_port, NULL, MMCHAL_CARD_SD, &sysdmac);
	derive(&pio_caps, &bare_port, NULL, MMCHAL_CARD_SD, &pio);

	list(MMCHAL_DIR_FROM_CARD, 512, 1, 4096, 0, 0x48000000u);
	check_is(&idmac, MMCHAL_REQ_OK, 0);
	assert_int_equal(mmchal_request_check(&req, &idmac, &info), 0);
	assert_int_equal(info.sum.phys_or, 0x48000000u);
	assert_int_equal(info.sum.last_and, 0x48000fffu);
	assert_int_equal(info.sum.cross_or, 0xfffu);
	assert_int_equal(info.sum.len1_or, 4095u);
	/* one more block than the counter holds, a block above 512 bytes, two entries */
	data.blocks = 8388608;
	check_is(&idmac, MMCHAL_REQ_BLOCKS, 0);
	list(MMCHAL_DIR_FROM_CARD, 1024, 1, 4096, 0, 0x48000000u);
	check_is(&idmac, MMCHAL_REQ_BLKSZ, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 2, 4096, 0, 0x48000000u);
	check_is(&idmac, MMCHAL_REQ_SEGS, 0);

	/* SYS-DMAC: 32 entries pass, 33 do not; 24 MiB in one entry is more than a
	   descriptor takes; the third entry empty */
	list(MMCHAL_DIR_TO_CARD, 512, 32, 512, 0, 0x40000000u);
	check_is(&sysdmac, MMCHAL_REQ_OK, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 33, 512, 0, 0x40000000u);
	check_is(&sysdmac, MMCHAL_REQ_SEGS, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 1, 24u << 20, 0, 0x40000000u);
	check_is(&sysdmac, MMCHAL_REQ_SEG_SIZE, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 4, 512, 0, 0x40000000u);
	sgl[2].len = 0;
	sgl[3].len = 1024;
	check_is(&sysdmac, MMCHAL_REQ_SEG_ZERO, 2);
	/* an entry crossing 4 GiB */
	list(MMCHAL_DIR_TO_CARD, 512, 1, 8192, 0, 0xfffff000u);
	check_is(&sysdmac, MMCHAL_REQ_SEG_BOUNDARY, 0);

	/* PIO: 256 blocks, not 257 */
	list(MMCHAL_DIR_FROM_CARD, 512, 32, 4096, 0, 0x20000000u);
	check_is(&pio, MMCHAL_REQ_OK, 0);
	list(MMCHAL_DIR_FROM_CARD, 512, 1, 131072u + 512u, 0, 0x20000000u);
	check_is(&pio, MMCHAL_REQ_BLOCKS, 0);
}

/* The planner for the internal DMAC: an aligned buffer goes DIRECT; a start
 * the engine cannot take, a buffer sharing a cache line, one beyond 32
 * address bits or a second entry go PIO (no pool: NO_POOL), each with its
 * obstacle; a SoC with one read channel reads by PIO (the length itself is
 * the obstacle). */
static void test_plans_idmac(void **state)
{
	struct mmchal_dma_caps one_rx = IDMAC_DMA;
	struct mmchal_plan_env env = idmac_env;

	(void)state;
	list(MMCHAL_DIR_FROM_CARD, 512, 1, 4096, 0, 0x48000000u);
	plan_is(&idmac_env, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, MMCHAL_NB_NONE, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 1, 4096, 64, 0x48000040u);
	plan_is(&idmac_env, MMCHAL_PLAN_PIO, MMCHAL_PR_ALIGN, MMCHAL_NB_NO_POOL, 0);
	list(MMCHAL_DIR_FROM_CARD, 512, 1, 512, 8, 0x48000080u);
	plan_is(&idmac_env, MMCHAL_PLAN_PIO, MMCHAL_PR_SHARED_LINE, MMCHAL_NB_NO_POOL, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 1, 8192, 0, 0xfffff000u);
	plan_is(&idmac_env, MMCHAL_PLAN_PIO, MMCHAL_PR_ADDR_BITS, MMCHAL_NB_NO_POOL, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 2, 4096, 0, 0x48000000u);
	plan_is(&idmac_env, MMCHAL_PLAN_PIO, MMCHAL_PR_SEGS, MMCHAL_NB_NO_POOL, 0);

	one_rx.dir[MMCHAL_DIR_FROM_CARD].min_len = UINT32_MAX;
	env.dma = &one_rx;
	list(MMCHAL_DIR_FROM_CARD, 512, 1, 4096, 0, 0x48000000u);
	plan_is(&env, MMCHAL_PLAN_PIO, MMCHAL_PR_MIN_LEN, MMCHAL_NB_ENGINE, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 1, 4096, 0, 0x48000000u);
	plan_is(&env, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, MMCHAL_NB_NONE, 0);

	/* a list without CPU addresses cannot go PIO */
	list(MMCHAL_DIR_TO_CARD, 512, 1, 4096, 64, 0x48000040u);
	sgl[0].cpu = NULL;
	{
		struct mmchal_plan_result r, before;

		memset(&r, 0x5a, sizeof(r));
		memcpy(&before, &r, sizeof(r));
		assert_int_equal(mmchal_dma_plan(&idmac_env, &data, &r), MMCHAL_EINVAL);
		assert_memory_equal(&r, &before, sizeof(r));
	}
}

/* The planner for the SYS-DMAC: eight pages DIRECT; an odd length, a short
 * transfer, 33 entries and a 24 MiB entry go PIO with their obstacle. */
static void test_plans_sysdmac(void **state)
{
	(void)state;
	list(MMCHAL_DIR_FROM_CARD, 512, 8, 4096, 0, 0x40000000u);
	plan_is(&sysdmac_env, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, MMCHAL_NB_NONE, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 3, 512, 0, 0x40000000u);
	sgl[1].len = 509;
	sgl[2].len = 515;
	plan_is(&sysdmac_env, MMCHAL_PLAN_PIO, MMCHAL_PR_GRANULE, MMCHAL_NB_NO_POOL, 1);
	list(MMCHAL_DIR_TO_CARD, 4, 1, 4, 0, 0x40000000u);
	plan_is(&sysdmac_env, MMCHAL_PLAN_PIO, MMCHAL_PR_MIN_LEN, MMCHAL_NB_ENGINE, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 33, 512, 0, 0x40000000u);
	plan_is(&sysdmac_env, MMCHAL_PLAN_PIO, MMCHAL_PR_SEGS, MMCHAL_NB_NO_POOL, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 2, 512, 0, 0x40000000u);
	sgl[1].len = 24u << 20;
	data.blocks = 1 + (24u << 20) / 512u;
	plan_is(&sysdmac_env, MMCHAL_PLAN_PIO, MMCHAL_PR_SEG_SIZE, MMCHAL_NB_NO_POOL, 1);
}

/* ------------------------------------------------------------ no IOMMU layer */

#if !MMCHAL_WITH_IOMMU
/* Capabilities that name an IOMMU are refused whatever the card and however
 * the IOMMU is described (no layer could map through it), and nothing is
 * written; inconsistent host or engine capabilities are still EINVAL. */
static void test_iommu_refused(void **state)
{
	struct mmchal_caps c = idmac_caps;

	(void)state;
	c.iommu = (struct mmchal_iommu_caps)IOMMU_MERGING;
	for (int card = MMCHAL_CARD_UNKNOWN; card <= MMCHAL_CARD_SD_COMBO; card++)
		refused(&c, &full_port, NULL, (enum mmchal_card_type)card, MMCHAL_ENOTSUP);
	/* one that cannot merge, one with page size 0 (EINVAL in the full build) */
	c.iommu.merge_boundary = 0;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_ENOTSUP);
	c.iommu = (struct mmchal_iommu_caps){.present = true};
	refused(&c, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_ENOTSUP);
	/* a PIO host and the SYS-DMAC host behind one */
	c = pio_caps;
	c.iommu = (struct mmchal_iommu_caps)IOMMU_MERGING;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_SD, MMCHAL_ENOTSUP);
	c = sysdmac_caps;
	c.iommu = (struct mmchal_iommu_caps)IOMMU_MERGING;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_SD, MMCHAL_ENOTSUP);
	/* the engine and the card are checked first */
	c.dma.dir[MMCHAL_DIR_TO_CARD].addr_align = 3;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_SD, MMCHAL_EINVAL);
	c = sysdmac_caps;
	c.iommu = (struct mmchal_iommu_caps)IOMMU_MERGING;
	refused(&c, &bare_port, NULL, (enum mmchal_card_type)9, MMCHAL_EINVAL);
}

/* An environment that names a merging IOMMU is planned as if it named none:
 * DIRECT from the physical address where the full build merges, PIO for a
 * buffer beyond the engine's address bits, which only a translation could
 * reach; the engine test ignores the caller's "behind an IOMMU" too. */
static void test_iommu_env_ignored(void **state)
{
	const struct mmchal_iommu_caps io = IOMMU_MERGING;
	struct mmchal_dma_dir_caps wide = SYSDMAC_DIR;
	struct mmchal_plan_env env = idmac_env;
	uint32_t index = 7;

	wide.addr_bits = 64;

	(void)state;
	env.iommu = &io;
	env.merge = true;
	list(MMCHAL_DIR_FROM_CARD, 512, 1, 4096, 0, 0x48000000u);
	plan_is(&env, MMCHAL_PLAN_DIRECT, MMCHAL_PR_DIRECT, MMCHAL_NB_NONE, 0);
	list(MMCHAL_DIR_TO_CARD, 512, 1, 8192, 0, 0x100000000ull);
	plan_is(&env, MMCHAL_PLAN_PIO, MMCHAL_PR_ADDR_BITS, MMCHAL_NB_NO_POOL, 0);
	env.merge = false;
	plan_is(&env, MMCHAL_PLAN_PIO, MMCHAL_PR_ADDR_BITS, MMCHAL_NB_NO_POOL, 0);

	/* the host core's engine test, told the list is behind an IOMMU: the
	   address bits and the boundary still count (the full build leaves both
	   to the check after mapping) */
	list(MMCHAL_DIR_TO_CARD, 512, 2, 4096, 0, 0x48000000u);
	sgl[1].phys = 0xfffff800u;
	assert_int_equal(mmchal_dma_obstacle_(&sysdmac_env, &sysdmac_dma.dir[MMCHAL_DIR_TO_CARD],
					      &data, true, &index),
			 MMCHAL_PR_ADDR_BITS);
	assert_int_equal(index, 1);
	sgl[1].phys = 0x1fffff800ull;
	assert_int_equal(mmchal_dma_obstacle_(&sysdmac_env, &wide, &data, true, &index),
			 MMCHAL_PR_BOUNDARY);
	assert_int_equal(index, 1);
	sgl[1].phys = 0x48002000u;
	assert_int_equal(mmchal_dma_obstacle_(&sysdmac_env, &wide, &data, true, &index),
			 MMCHAL_PR_COUNT);
	assert_int_equal(index, 0);
}

/* Interior boundaries are the merge raise's rule: limits that carry a
 * virt_boundary (only hand-made ones can here) do not hold a list to it. */
static void test_virt_boundary_ignored(void **state)
{
	struct mmchal_req_check_info info;
	struct mmchal_limits l;

	(void)state;
	derive(&sysdmac_caps, &bare_port, NULL, MMCHAL_CARD_SD, &l);
	l.virt_boundary = 0xfff;
	list(MMCHAL_DIR_TO_CARD, 512, 2, 512, 0, 0x1000u);
	sgl[1].phys = 0x3000u;
	check_is(&l, MMCHAL_REQ_OK, 0);
	assert_int_equal(mmchal_request_check(&req, &l, &info), 0);
	assert_int_equal(info.sum.phys_or, 0x3000u);
	assert_int_equal(info.sum.last_and, 0x11ffu);
	assert_int_equal(info.sum.cross_or, 0x1ffu);
	assert_int_equal(info.sum.len1_or, 511u);
	/* the other entry checks stand */
	sgl[1].len = 0;
	sgl[0].len = 1024;
	check_is(&l, MMCHAL_REQ_SEG_ZERO, 1);
}
#endif

/* ------------------------------------------------------------ no bounce pool */

#if !MMCHAL_WITH_BOUNCE
/* Capabilities that name a pool are refused whatever it looks like, and
 * nothing is written. */
static void test_pool_refused(void **state)
{
	struct mmchal_caps c = idmac_caps;

	(void)state;
	c.bounce = (struct mmchal_bounce_caps)POOL;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_ENOTSUP);
	refused(&c, &full_port, NULL, MMCHAL_CARD_UNKNOWN, MMCHAL_ENOTSUP);
	c.bounce = (struct mmchal_bounce_caps){
		.present = true, .slot_size = 512, .slots_per_map = 8, .nslots = 64};
	refused(&c, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_ENOTSUP);
	/* a slot size that is no power of two: EINVAL in the full build */
	c.bounce.slot_size = 3;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_MMC, MMCHAL_ENOTSUP);
	c = pio_caps;
	c.bounce = (struct mmchal_bounce_caps)POOL;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_SD, MMCHAL_ENOTSUP);
	c = sysdmac_caps;
	c.bounce = (struct mmchal_bounce_caps)POOL;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_SD, MMCHAL_ENOTSUP);
	c.host.max_blk_size = 65536;
	refused(&c, &bare_port, NULL, MMCHAL_CARD_SD, MMCHAL_EINVAL);
}

/* An environment with a bounce limit bounces nothing: what the full build
 * bounces goes PIO for want of a pool, and so does a fallback after a bad
 * mapping. */
static void test_nothing_bounced(void **state)
{
	struct mmchal_plan_env env = idmac_env;
	struct mmchal_plan_result r;

	(void)state;
	env.bounce_limit = 262144;
	list(MMCHAL_DIR_TO_CARD, 512, 1, 4096, 64, 0x48000040u);
	plan_is(&env, MMCHAL_PLAN_PIO, MMCHAL_PR_ALIGN, MMCHAL_NB_NO_POOL, 0);
	list(MMCHAL_DIR_FROM_CARD, 512, 1, 512, 8, 0x48000080u);
	plan_is(&env, MMCHAL_PLAN_PIO, MMCHAL_PR_SHARED_LINE, MMCHAL_NB_NO_POOL, 0);

	list(MMCHAL_DIR_TO_CARD, 512, 1, 4096, 0, 0x48000000u);
	memset(&r, 0x5a, sizeof(r));
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_MAPPED_BAD, &r), 0);
	assert_int_equal(r.plan, MMCHAL_PLAN_PIO);
	assert_int_equal(r.reason, MMCHAL_PR_MAPPED_BAD);
	assert_int_equal(r.nobounce, MMCHAL_NB_NO_POOL);
	assert_int_equal(r.merge, MMCHAL_MERGE_NO_IOMMU);
	assert_int_equal(r.index, 0);
	assert_false(r.iommu);
	/* a PIO retry and an over-long transfer are not bounce questions */
	memset(&r, 0x5a, sizeof(r));
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_RETRY, &r), 0);
	assert_int_equal(r.plan, MMCHAL_PLAN_PIO);
	assert_int_equal(r.reason, MMCHAL_PR_RETRY);
	assert_int_equal(r.nobounce, MMCHAL_NB_NONE);
	memset(&r, 0x5a, sizeof(r));
	assert_int_equal(mmchal_dma_plan_fallback(&env, &data, MMCHAL_PR_XFER, &r), 0);
	assert_int_equal(r.plan, MMCHAL_PLAN_PIO);
	assert_int_equal(r.reason, MMCHAL_PR_XFER);
	assert_int_equal(r.nobounce, MMCHAL_NB_ENGINE);
}
#endif

/* ------------------------------------------------------------ no interrupt path */

#if !MMCHAL_WITH_IRQ
/* An interrupt-driven host is polled for want of an interrupt path, whatever
 * the port offers and the budgets say (the full build: IRQ_LOCKED with no
 * work, POLLED for want of a lock, IRQ_SPLIT over budget without deferred
 * work); a polled host keeps its own reason. */
static void test_irq_host_polled(void **state)
{
	const struct mmchal_port_caps lock_only = {.lock = true};
	const struct mmchal_policy_cfg tight = {.irq_off_budget_ns = 1, .irq_budget_ns = 1};
	struct mmchal_caps c = idmac_caps;
	struct mmchal_limits want = WANT_IDMAC(MMCHAL_CARD_MMC), l;

	(void)state;
	c.host.completion = MMCHAL_COMPLETES_IN_IRQ;
	want.reason[MMCHAL_LIM_POLICY] = MMCHAL_WHY_POLICY_NO_IRQ_PATH;
	derive(&c, &full_port, NULL, MMCHAL_CARD_MMC, &l);
	limits_are(&l, &want);
	derive(&c, &bare_port, NULL, MMCHAL_CARD_MMC, &l);
	limits_are(&l, &want);
	derive(&c, &lock_only, &tight, MMCHAL_CARD_MMC, &l);
	limits_are(&l, &want);

	c = sysdmac_caps;
	c.host.completion = MMCHAL_COMPLETES_IN_IRQ;
	want = want_sysdmac;
	want.reason[MMCHAL_LIM_POLICY] = MMCHAL_WHY_POLICY_NO_IRQ_PATH;
	derive(&c, &full_port, NULL, MMCHAL_CARD_SD, &l);
	limits_are(&l, &want);

	/* a polled host: as in every build */
	derive(&pio_caps, &full_port, NULL, MMCHAL_CARD_SD, &l);
	limits_are(&l, &want_pio);
}

/* Only AUTO and POLLED are accepted as an override: every interrupt policy is
 * refused as a policy the host cannot run, also where the full build runs it
 * (interrupt host, lock and deferred work), and an unknown value too. */
static void test_irq_overrides(void **state)
{
	struct mmchal_policy_cfg cfg = {.override = MMCHAL_POLICY_POLLED};
	struct mmchal_caps c = idmac_caps;
	struct mmchal_limits want = WANT_IDMAC(MMCHAL_CARD_SD), l;

	(void)state;
	c.host.completion = MMCHAL_COMPLETES_IN_IRQ;
	want.reason[MMCHAL_LIM_POLICY] = MMCHAL_WHY_POLICY_OVERRIDE;
	derive(&c, &full_port, &cfg, MMCHAL_CARD_SD, &l);
	limits_are(&l, &want);
	cfg.override = MMCHAL_POLICY_AUTO;
	want.reason[MMCHAL_LIM_POLICY] = MMCHAL_WHY_POLICY_NO_IRQ_PATH;
	derive(&c, &full_port, &cfg, MMCHAL_CARD_SD, &l);
	limits_are(&l, &want);

	cfg.override = MMCHAL_POLICY_IRQ_LOCKED;
	refused(&c, &full_port, &cfg, MMCHAL_CARD_SD, MMCHAL_EINVAL);
	cfg.override = MMCHAL_POLICY_IRQ_SPLIT;
	refused(&c, &full_port, &cfg, MMCHAL_CARD_SD, MMCHAL_EINVAL);
	cfg.override = MMCHAL_POLICY_DEFERRED;
	refused(&c, &full_port, &cfg, MMCHAL_CARD_SD, MMCHAL_EINVAL);
	cfg.override = (enum mmchal_completion_policy)(MMCHAL_POLICY_POLLED + 1);
	refused(&c, &full_port, &cfg, MMCHAL_CARD_SD, MMCHAL_EINVAL);
	/* a polled host, the same */
	cfg.override = MMCHAL_POLICY_DEFERRED;
	refused(&idmac_caps, &full_port, &cfg, MMCHAL_CARD_SD, MMCHAL_EINVAL);
}

/* The completion work is still estimated where the build has the units that
 * cause it: unmapping behind an IOMMU, copying back from a pool. */
static void test_irq_work_estimated(void **state)
{
	struct mmchal_caps c = idmac_caps;
	struct mmchal_limits l;

	(void)state;
	c.host.completion = MMCHAL_COMPLETES_IN_IRQ;
#if MMCHAL_WITH_IOMMU
	/* merged: 512 segments; 2000 + (1048576 pages + 1) x 100 + 2000 ns */
	c.iommu = (struct mmchal_iommu_caps)IOMMU_MERGING;
	derive(&c, &full_port, NULL, MMCHAL_CARD_MMC, &l);
	assert_int_equal(l.max_segs, 512);
	assert_true(l.merge);
	assert_int_equal(l.policy, MMCHAL_POLICY_POLLED);
	assert_int_equal(l.completion_work_ns, 104861700u);
	assert_int_equal(l.reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_NO_IRQ_PATH);
	assert_int_equal(l.cause[MMCHAL_LIM_POLICY], 104861700u);
	c.iommu = (struct mmchal_iommu_caps){0};
#endif
#if MMCHAL_WITH_BOUNCE
	/* 2 KiB x 128 slots: 256 KiB requests, 2000 + 256 KiB x 500 ns */
	c.bounce = (struct mmchal_bounce_caps)POOL;
	derive(&c, &full_port, NULL, MMCHAL_CARD_MMC, &l);
	assert_int_equal(l.bounce_limit, 262144u);
	assert_int_equal(l.max_req_size, 262144u);
	assert_int_equal(l.reason[MMCHAL_LIM_MAX_REQ_SIZE], MMCHAL_WHY_BOUNCE_CLAMP);
	assert_int_equal(l.policy, MMCHAL_POLICY_POLLED);
	assert_int_equal(l.completion_work_ns, 130000u);
	assert_int_equal(l.reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_NO_IRQ_PATH);
	assert_int_equal(l.cause[MMCHAL_LIM_POLICY], 130000u);
	c.bounce = (struct mmchal_bounce_caps){0};
#endif
	derive(&c, &full_port, NULL, MMCHAL_CARD_MMC, &l);
	assert_int_equal(l.completion_work_ns, 2000u);
}

#if MMCHAL_WITH_BACKEND_MOCK
static uint8_t image[512u * 1024u];
static uint8_t regbuf[MMCHAL_CARD_BUF_SIZE];
static uint64_t vclock;
static unsigned int locks;

static uint64_t vnow(void *ctx)
{
	(void)ctx;
	return vclock += 1000u;
}

static void vdelay(void *ctx, uint32_t us)
{
	(void)ctx;
	vclock += (uint64_t)us * 1000u;
}

static mmchal_irqflags_t vlock(void *ctx)
{
	(void)ctx;
	locks++;
	return 0;
}

static void vunlock(void *ctx, mmchal_irqflags_t flags)
{
	(void)ctx;
	(void)flags;
}

static int vwork(void *ctx, mmchal_work_fn fn, void *arg)
{
	(void)ctx;
	(void)fn;
	(void)arg;
	return MMCHAL_ENOTSUP;
}

/* The host core derives the polled policy at init for a backend that
 * completes in an interrupt, with a port that has a lock and deferred work,
 * and identifies and reads an eMMC with it, polled. */
static void test_irq_host_core(void **state)
{
	static const struct mmchal_port_ops ops = {.lock_irqsave = vlock,
						   .unlock_irqrestore = vunlock,
						   .now_ns = vnow,
						   .delay_us = vdelay,
						   .schedule_work = vwork};
	static const struct mmchal_port port = {.ops = &ops};
	static struct mmchal_mock mock;
	static struct mmchal_host host;
	static struct mmchal_card card;
	struct mmchal_mock_cfg mc;
	struct mmchal_host_cfg hc;
	struct mmchal_card_cfg cc;
	struct mmchal_backend be;
	const struct mmchal_limits *l;
	struct mmchal_sg sg = {.cpu = buf, .phys = (uintptr_t)buf, .len = 4096};

	(void)state;
	for (uint32_t i = 0; i < sizeof(image); i++)
		image[i] = (uint8_t)(i * 31u + (i >> 9) + 3u);
	memset(&mc, 0, sizeof(mc));
	mc.card = MMCHAL_MOCK_EMMC;
	mc.image = image;
	mc.image_size = sizeof(image);
	mc.host.completion = MMCHAL_COMPLETES_IN_IRQ;
	mc.host.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS | MMCHAL_BUS_CMD23;
	mc.host.f_max_hz = 52000000u;
	mc.cmd_latency = 2;
	mc.data_latency = 3;
	assert_int_equal(mmchal_mock_init(&mock, &mc), 0);
	assert_int_equal(mmchal_mock_backend(&mock, &be), 0);
	memset(&hc, 0, sizeof(hc));
	hc.backend = &be;
	hc.port = &port;
	assert_int_equal(mmchal_host_init(&host, &hc), 0);
	l = mmchal_host_limits(&host);
	assert_non_null(l);
	assert_int_equal(l->policy, MMCHAL_POLICY_POLLED);
	assert_int_equal(l->reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_NO_IRQ_PATH);
	assert_int_equal(l->cause[MMCHAL_LIM_POLICY], 2000u);
	assert_int_equal(l->max_segs, 32u);
	assert_int_equal(l->reason[MMCHAL_LIM_MAX_SEGS], MMCHAL_WHY_PIO_NO_ENGINE);

	memset(&cc, 0, sizeof(cc));
	cc.ops = &mmchal_host_core_ops;
	cc.ctx = &host;
	cc.buf = regbuf;
	cc.buf_phys = (uintptr_t)regbuf;
	cc.op_cond_tries = 20;
	cc.delay_us = vdelay;
	assert_int_equal(mmchal_card_setup(&card, &cc), 0);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_info(&card)->type, MMCHAL_CARD_MMC);
	/* identified: derived again for the eMMC, still polled */
	l = mmchal_host_limits(&host);
	assert_int_equal(l->card, MMCHAL_CARD_MMC);
	assert_int_equal(l->policy, MMCHAL_POLICY_POLLED);
	assert_int_equal(l->reason[MMCHAL_LIM_POLICY], MMCHAL_WHY_POLICY_NO_IRQ_PATH);
	memset(buf, 0, 4096);
	assert_int_equal(mmchal_card_read(&card, 16, 8, &sg, 1), 0);
	assert_memory_equal(buf, image + 16u * 512u, 4096);
	mmchal_host_deinit(&host);
}
#endif
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_loader_limits),
		cmocka_unit_test(test_polled_policy_settings),
		cmocka_unit_test(test_inconsistent_caps),
		cmocka_unit_test(test_request_check),
		cmocka_unit_test(test_plans_idmac),
		cmocka_unit_test(test_plans_sysdmac),
#if !MMCHAL_WITH_IOMMU
		cmocka_unit_test(test_iommu_refused),
		cmocka_unit_test(test_iommu_env_ignored),
		cmocka_unit_test(test_virt_boundary_ignored),
#endif
#if !MMCHAL_WITH_BOUNCE
		cmocka_unit_test(test_pool_refused),
		cmocka_unit_test(test_nothing_bounced),
#endif
#if !MMCHAL_WITH_IRQ
		cmocka_unit_test(test_irq_host_polled),
		cmocka_unit_test(test_irq_overrides),
		cmocka_unit_test(test_irq_work_estimated),
#if MMCHAL_WITH_BACKEND_MOCK
		cmocka_unit_test(test_irq_host_core),
#endif
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
