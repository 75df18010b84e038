/*
 * mmchal-demo: what mmchal decides for a few real host configurations, and
 * why. For each example host it queries nothing but declared capabilities
 * (as a port would get them from the backend, the IOMMU driver and the
 * bounce pool), derives the limits for each card type, and prints them with
 * their reasons.
 *
 * Usage: mmchal-demo [--brief]
 */
#include <stdio.h>
#include <string.h>

#include <mmchal/mmchal.h>

struct example {
	const char *title;
	const char *source;
	struct mmchal_caps caps;
	struct mmchal_port_caps port;
};

/* R-Car Gen3 SDHI internal DMAC (REFERENCE.md, Linux renesas_sdhi_internal_dmac.c
 * and U-Boot tmio-common): one segment, 128-byte alignment, 32-bit bus addresses. */
#define GEN3_IDMAC_DIR                                                                         \
	{                                                                                      \
		.addr_bits = 32, .addr_align = 128, .max_segs = 1, .max_seg_size = 0xffffffffu \
	}

/* R-Car Gen2 SYS-DMAC behind the SDHI data port: 4-byte bus width, 2-byte length
 * rule, segments under 8 bytes go PIO; 32 descriptors in this example. */
#define GEN2_SYSDMAC_DIR                                                            \
	{                                                                           \
		.addr_bits = 32, .addr_align = 4, .len_granule = 2, .max_segs = 32, \
		.max_seg_size = 16u << 20, .min_len = 8                             \
	}

static const struct example examples[] = {
	{
		.title = "R-Car H3 ES3.0 SDHI, internal DMAC behind the IPMMU (4 KiB pages)",
		.source = "renesas,sdhi-r8a7795: bus_shift 2, 32-bit block counter, "
			  "8388607 blocks, merge-capable",
		.caps = {.host = {.merge_capable = true,
				  .blk_count_bits = 32,
				  .max_blk_count = 8388607,
				  .completion = MMCHAL_COMPLETES_IN_IRQ},
			 .dma = {.kind = MMCHAL_DMA_INTERNAL,
				 .dir = {GEN3_IDMAC_DIR, GEN3_IDMAC_DIR}},
			 .iommu = {.present = true,
				   .page_size = 4096,
				   .merge_boundary = 0xfff,
				   .aperture_start = 0,
				   .aperture_end = 0xffffffffu}},
		.port = {.lock = true, .deferred_work = true},
	},
	{
		.title = "R-Car M3-W SDHI, internal DMAC, IPMMU not usable for SDHI",
		.source = "renesas,sdhi-r8a7796 via rcar-gen3-sdhi; Linux's IPMMU driver does not "
			  "attach SDHI on M3-W, so there is no IOMMU and a swiotlb-style pool",
		.caps = {.host = {.merge_capable = true,
				  .blk_count_bits = 32,
				  .max_blk_count = 8388607,
				  .completion = MMCHAL_COMPLETES_IN_IRQ},
			 .dma = {.kind = MMCHAL_DMA_INTERNAL,
				 .dir = {GEN3_IDMAC_DIR, GEN3_IDMAC_DIR}},
			 .bounce = {.present = true}},
		.port = {.lock = true, .deferred_work = true},
	},
	{
		.title = "R-Car H2 SDHI with SYS-DMAC",
		.source = "renesas,sdhi-r8a7790: bus_shift 1, 32-bit block counter (VERSION "
			  ">= 0xcb0d), 8388607 blocks",
		.caps = {.host = {.blk_count_bits = 32,
				  .max_blk_count = 8388607,
				  .completion = MMCHAL_COMPLETES_IN_IRQ},
			 .dma = {.kind = MMCHAL_DMA_EXTERNAL,
				 .dir = {GEN2_SYSDMAC_DIR, GEN2_SYSDMAC_DIR}}},
		.port = {.lock = true, .deferred_work = true},
	},
	{
		.title = "SH-Mobile SDHI without a dmas property: PIO",
		.source = "renesas,sdhi-r8a73a4: bus_shift 0, 16-bit block counter, 256 blocks",
		.caps = {.host = {.blk_count_bits = 16,
				  .max_blk_count = 256,
				  .completion = MMCHAL_COMPLETES_IN_IRQ}},
		.port = {.lock = true},
	},
	{
		.title = "Boot loader on R-Car Gen3: internal DMAC, polled, no IOMMU set up",
		.source = "single context, no interrupts",
		.caps = {.host = {.merge_capable = true,
				  .blk_count_bits = 32,
				  .max_blk_count = 8388607,
				  .completion = MMCHAL_COMPLETES_POLLED},
			 .dma = {.kind = MMCHAL_DMA_INTERNAL,
				 .dir = {GEN3_IDMAC_DIR, GEN3_IDMAC_DIR}}},
		.port = {0},
	},
};

static const enum mmchal_card_type cards[] = {MMCHAL_CARD_MMC, MMCHAL_CARD_SD, MMCHAL_CARD_SDIO};

static int show(const struct example *ex, bool brief)
{
	char text[2048];

	printf("== %s\n   (%s)\n", ex->title, ex->source);
	for (size_t c = 0; c < sizeof(cards) / sizeof(cards[0]); c++) {
		struct mmchal_limits lim;
		int ret = mmchal_limits_derive(&ex->caps, &ex->port, NULL, cards[c], &lim);

		if (ret < 0) {
			fprintf(stderr, "mmchal-demo: %s: %s\n", ex->title, mmchal_strerror(ret));
			return 1;
		}
		printf("-- %s card: max_segs %u, max_req_size %llu, %s\n",
		       mmchal_card_type_name(cards[c]), (unsigned int)lim.max_segs,
		       (unsigned long long)lim.max_req_size,
		       mmchal_completion_policy_name(lim.policy));
		if (brief)
			continue;
		ret = mmchal_limits_explain(&lim, text, sizeof(text));
		if (ret < 0) {
			fprintf(stderr, "mmchal-demo: explain: %s\n", mmchal_strerror(ret));
			return 1;
		}
		/* Indent each line of the explanation. */
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
			printf("     %s\n", line);
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	bool brief = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--brief") == 0) {
			brief = true;
		} else {
			fprintf(stderr, "usage: %s [--brief]\n", argv[0]);
			return 2;
		}
	}
	printf("mmchal %s: limits derived from queried capabilities, with reasons\n\n",
	       MMCHAL_VERSION_STRING);
	for (size_t i = 0; i < sizeof(examples) / sizeof(examples[0]); i++)
		if (show(&examples[i], brief))
			return 1;
	return 0;
}
