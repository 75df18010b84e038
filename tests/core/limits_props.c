/*
 * Properties of mmchal_limits_derive() (DESIGN.md section 4), checked on
 * generated inputs. Each failing property returns its own number so that a
 * failure says which rule broke.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mmchal/error.h>

#include "limits_props.h"

static uint64_t pick(limits_rnd_fn rnd, void *ctx, const uint64_t *v, size_t n)
{
	return v[rnd(ctx) % n];
}

#define PICK(arr) pick(rnd, ctx, (arr), sizeof(arr) / sizeof((arr)[0]))

static void gen_dir(limits_rnd_fn rnd, void *ctx, struct mmchal_dma_dir_caps *d)
{
	static const uint64_t bits[] = {0, 32, 32, 36, 40, 64, 65};
	static const uint64_t align[] = {0, 1, 4, 16, 128, 128, 96};
	static const uint64_t gran[] = {0, 1, 2, 4, 6};
	static const uint64_t segs[] = {1, 1, 8, 16, 32, 256, 0};
	static const uint64_t seg_size[] = {0xffffffffu, 16u << 20, 65536, 4096, 512, 1, 0};
	static const uint64_t bound[] = {0, 0, 0xffffffffu, 0xffff, 0x1000};
	static const uint64_t xfer[] = {0, 0, 0, 65536, 1u << 20, 511};

	d->addr_bits = (uint8_t)PICK(bits);
	d->addr_align = (uint32_t)PICK(align);
	d->len_granule = (uint32_t)PICK(gran);
	d->max_segs = (uint32_t)PICK(segs);
	d->max_seg_size = (uint32_t)PICK(seg_size);
	d->seg_boundary = PICK(bound);
	d->min_len = (uint32_t)(rnd(ctx) % 16u);
	d->max_xfer = PICK(xfer);
	d->coherent = rnd(ctx) & 1u;
}

void limits_gen(limits_rnd_fn rnd, void *ctx, struct limits_case *c)
{
	static const uint64_t cbits[] = {0, 16, 32, 32, 24};
	static const uint64_t soc_blk[] = {0, 256, 65535, 8388607, 8388607, 1};
	static const uint64_t blk_size[] = {0, 0, 512, 1024, 4096, 70000};
	static const uint64_t pages[] = {4096, 4096, 16384, 65536, 3000, 0};
	static const uint64_t maps[] = {0, 0, 1u << 20, 65536, 4096, 256};
	static const uint64_t ap_end[] = {0, 0xffffffffu, 0xfffffffffull, 0x1fff};
	static const uint64_t slot[] = {0, 0, 2048, 4096, 256, 3000};
	static const uint64_t per[] = {0, 0, 128, 32, 1};
	static const uint64_t nslots[] = {0, 0, 1024, 32, 1};
	static const uint64_t budget[] = {0, 0, 1000, 200000};
	static const uint64_t cost[] = {0, 0, 1, 100, 5000};
	uint64_t r;

	memset(c, 0, sizeof(*c));
	c->caps.host.merge_capable = rnd(ctx) & 1u;
	c->caps.host.blk_count_bits = (uint8_t)PICK(cbits);
	c->caps.host.max_blk_count = (uint32_t)PICK(soc_blk);
	c->caps.host.max_blk_size = (uint32_t)PICK(blk_size);
	c->caps.host.completion = (enum mmchal_completion_ctx)(rnd(ctx) % 9u == 0 ? 1 : 0);

	r = rnd(ctx) % 3u;
	c->caps.dma.kind = (enum mmchal_dma_kind)r;
	if (r != MMCHAL_DMA_NONE) {
		gen_dir(rnd, ctx, &c->caps.dma.dir[0]);
		if (rnd(ctx) & 1u)
			c->caps.dma.dir[1] = c->caps.dma.dir[0];
		else
			gen_dir(rnd, ctx, &c->caps.dma.dir[1]);
	}

	if (rnd(ctx) % 3u != 0) {
		struct mmchal_iommu_caps *io = &c->caps.iommu;

		io->present = true;
		io->page_size = (uint32_t)PICK(pages);
		io->merge_boundary = (rnd(ctx) % 4u == 0) ? 0 : (uint64_t)io->page_size - 1u;
		io->max_map_size = PICK(maps);
		io->aperture_end = PICK(ap_end);
		io->aperture_start = (rnd(ctx) % 8u == 0) ? 0x2000 : 0;
	}
	if (rnd(ctx) % 2u) {
		c->caps.bounce.present = true;
		c->caps.bounce.slot_size = (uint32_t)PICK(slot);
		c->caps.bounce.slots_per_map = (uint32_t)PICK(per);
		c->caps.bounce.nslots = (uint32_t)PICK(nslots);
	}
	c->port.lock = rnd(ctx) % 4u != 0;
	c->port.deferred_work = rnd(ctx) & 1u;
	c->cfg.override = (enum mmchal_completion_policy)(rnd(ctx) % 4u == 0 ? rnd(ctx) % 6u : 0);
	c->cfg.irq_off_budget_ns = (uint32_t)PICK(budget);
	c->cfg.irq_budget_ns = (uint32_t)PICK(budget);
	c->cfg.base_ns = (uint32_t)PICK(cost);
	c->cfg.unmap_ns_per_page = (uint32_t)PICK(cost);
	c->cfg.flush_ns = (uint32_t)PICK(cost);
	c->cfg.copy_ns_per_kib = (uint32_t)PICK(cost);
	c->card = (enum mmchal_card_type)(rnd(ctx) % 6u);
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int limits_check(const struct limits_case *c)
{
	const struct mmchal_caps *k = &c->caps;
	bool dma = k->dma.kind != MMCHAL_DMA_NONE;
	struct mmchal_limits l, again, untouched;
	uint64_t counter, eng_segs = UINT64_MAX, eng_seg = UINT64_MAX, blk;
	char text[2048];
	int ret, n, lines = 0;

	memset(&l, 0x5a, sizeof(l));
	untouched = l;
	ret = mmchal_limits_derive(&c->caps, &c->port, &c->cfg, c->card, &l);
	if (ret != 0) {
		if (ret != MMCHAL_EINVAL)
			return 1; /* the only error is EINVAL */
		if (memcmp(&l, &untouched, sizeof(l)) != 0)
			return 2; /* nothing written on error */
		return 0;
	}
	for (unsigned int i = 0; dma && i < MMCHAL_DIR_COUNT; i++) {
		eng_segs = min64(eng_segs, k->dma.dir[i].max_segs);
		eng_seg = min64(eng_seg, k->dma.dir[i].max_seg_size);
	}

	/* Rules 1-3: segments and merging. */
	bool mergeable = dma && k->host.merge_capable && k->iommu.present &&
			 k->iommu.merge_boundary != 0 &&
			 (c->card == MMCHAL_CARD_SD || c->card == MMCHAL_CARD_MMC);
	if (l.merge != mergeable)
		return 3;
	if (l.merge && (l.max_segs != 512 || l.virt_boundary != k->iommu.merge_boundary))
		return 4;
	if (!l.merge && (l.virt_boundary != 0 || l.max_segs != min64(32, eng_segs)))
		return 5;

	/* Rule 4-5: block size, count and request size. */
	blk = k->host.max_blk_size ? k->host.max_blk_size : 512;
	if (l.max_blk_size != blk)
		return 6;
	counter = k->host.blk_count_bits == 32 ? 0xffffffffu : 0xffffu;
	if (k->host.max_blk_count)
		counter = min64(counter, k->host.max_blk_count);
	if (l.max_blk_count == 0 || l.max_blk_count > counter)
		return 7;
	if ((uint64_t)l.max_blk_count * blk > l.max_req_size)
		return 8;
	if (l.max_req_size < blk || l.max_req_size > blk * counter)
		return 9;
	/* Not more than one block short of the largest whole-block request. */
	if (l.max_req_size - (uint64_t)l.max_blk_count * blk >= blk && l.max_blk_count != counter)
		return 10;
	if (l.bounce_limit != 0 && l.max_req_size > l.bounce_limit)
		return 11;
	if ((l.bounce_limit != 0) != (k->bounce.present && dma && !k->iommu.present))
		return 12;
	if (dma && k->iommu.present && k->iommu.max_map_size &&
	    l.max_req_size > k->iommu.max_map_size)
		return 13;
	if (l.merge && l.max_req_size > eng_seg)
		return 14;

	/* Rule 6: segment size. */
	if (l.max_seg_size == 0 || l.max_seg_size > l.max_req_size ||
	    (dma && l.max_seg_size > eng_seg))
		return 15;

	/* Rule 7: policy. */
	if (l.policy < MMCHAL_POLICY_IRQ_LOCKED || l.policy > MMCHAL_POLICY_POLLED)
		return 16;
	if (c->cfg.override != MMCHAL_POLICY_AUTO && l.policy != c->cfg.override)
		return 17;
	if (c->cfg.override == MMCHAL_POLICY_AUTO &&
	    (k->host.completion == MMCHAL_COMPLETES_POLLED || !c->port.lock) &&
	    l.policy != MMCHAL_POLICY_POLLED)
		return 18;
	if (l.policy == MMCHAL_POLICY_DEFERRED && !c->port.deferred_work)
		return 19;
	for (unsigned int f = 0; f < MMCHAL_LIM_COUNT; f++)
		if ((unsigned int)l.reason[f] >= MMCHAL_WHY_COUNT)
			return 20;

	/* Same input, same output; the text renders completely. */
	if (mmchal_limits_derive(&c->caps, &c->port, &c->cfg, c->card, &again) != 0 ||
	    memcmp(&l, &again, sizeof(l)) != 0)
		return 21;
	n = mmchal_limits_explain(&l, text, sizeof(text));
	if (n <= 0 || (size_t)n != strlen(text))
		return 22;
	for (int i = 0; i < n; i++)
		lines += text[i] == '\n';
	if (lines != MMCHAL_LIM_COUNT)
		return 23;
	return 0;
}
