/*
 * The golden-text tests' shared part: a probe's whole result as text and
 * its exact comparison (see dt_golden.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include <mmchal/dt.h>

#include "dt/dt_golden.h"
#include "dt/dt_shared.h"

#define MAXN 32

__attribute__((format(printf, 2, 3))) static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, sizeof(o->buf) - o->len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(o->buf) - o->len);
	o->len += (size_t)n;
}

static void put_dir(struct out *o, const char *name, const struct mmchal_dma_dir_caps *c)
{
	put(o, "%s: bits %u align %u granule %u segs %u seg %u min %u\n", name, c->addr_bits,
	    c->addr_align, c->len_granule, c->max_segs, c->max_seg_size, c->min_len);
}

/* Everything the probe derives about one node, one fact per line. */
static void describe(struct out *o, const struct mmchal_dt_node *n)
{
	const struct mmchal_caps *c = &n->caps;
	uint32_t i;

	put(o, "%s off %u enabled %d supported %d error %d compatible %s backend %s\n", n->path,
	    n->offset, n->enabled, n->supported, n->error, n->compatible ? n->compatible : "-",
	    mmchal_dt_backend_name(n->backend));
	put(o, "reg 0x%llx+0x%llx nreg %u shift %u irq %u <%x %x %x %x>\n",
	    (unsigned long long)n->reg_addr, (unsigned long long)n->reg_size, n->nreg, n->bus_shift,
	    n->irq_ncells, n->irq[0], n->irq[1], n->irq[2], n->irq[3]);
	put(o, "iommu listed %d usable %d phandle 0x%x id 0x%x dma tx %u rx %u width %u\n",
	    n->iommu_listed, n->iommu_usable, n->iommu_phandle, n->iommu_id, n->dma_tx, n->dma_rx,
	    n->bus_width);
	put(o, "host bus 0x%x fmax %u merge %d cnt %u/%u blk %u completion %d\n", c->host.bus,
	    c->host.f_max_hz, c->host.merge_capable, c->host.blk_count_bits, c->host.max_blk_count,
	    c->host.max_blk_size, (int)c->host.completion);
	put(o, "dma kind %d\n", (int)c->dma.kind);
	put_dir(o, "to", &c->dma.dir[MMCHAL_DIR_TO_CARD]);
	put_dir(o, "from", &c->dma.dir[MMCHAL_DIR_FROM_CARD]);
	put(o, "iommu present %d page %u boundary 0x%llx\n", c->iommu.present, c->iommu.page_size,
	    (unsigned long long)c->iommu.merge_boundary);
	put(o, "cfg rev %d shift %u reg_dma 0x%llx bus 0x%x fmax %u\n", (int)n->cfg.rev,
	    n->cfg.bus.bus_shift, (unsigned long long)n->cfg.reg_dma, n->cfg.caps.bus,
	    n->cfg.caps.f_max_hz);
	for (i = 0; i < MMCHAL_DT_CARD_COUNT; i++)
		put(o, "limits %u: segs %u merge %d blks %u seg %u policy %d\n", i,
		    n->limits[i].max_segs, n->limits[i].merge, n->limits[i].max_blk_count,
		    n->limits[i].max_seg_size, (int)n->limits[i].policy);
	put(o, "why %u lost %d\n", n->nwhy, n->why_lost);
	for (i = 0; i < n->nwhy; i++)
		put(o, "%s: %s\n", mmchal_dt_fact_name(n->why[i].fact), n->why[i].text);
}

/* The description of every node of @p blob, probed with @p rev. */
void describe_blob(struct out *o, const char *board, const unsigned char *blob, size_t size,
		   const char *rev)
{
	static struct mmchal_dt_node nodes[MAXN];
	struct mmchal_dt_opts opts = {.soc_revision = rev};
	struct mmchal_dt_board b;
	size_t n, i;

	memset(nodes, 0, sizeof(nodes));
	assert_int_equal(mmchal_dt_probe(blob, size, &opts, &b, nodes, MAXN, &n), 0);
	o->len = 0;
	o->buf[0] = '\0';
	put(o, "board %s model %s soc %s ncompat %u rev %d\n", board, b.model ? b.model : "-",
	    b.soc ? b.soc : "-", b.ncompat, (int)b.rev);
	for (i = 0; i < n; i++)
		describe(o, &nodes[i]);
}

void cells(struct fdtb *b, const char *name, uint32_t n, const uint32_t *v)
{
	unsigned char buf[64];
	uint32_t i;

	assert_true(n * 4u <= sizeof(buf));
	for (i = 0; i < n; i++)
		dt_put_be32(buf + 4u * i, v[i]);
	fdtb_prop(b, name, buf, 4u * n);
}

void strlist(struct fdtb *b, const char *name, const char *v, uint32_t len)
{
	fdtb_prop(b, name, v, len);
}

/* @p got, split at its newlines, is exactly the lines of @p want. */
void assert_text(const char *got, const char *const *want)
{
	size_t line = 0, len;
	const char *nl;

	for (; want[line] != NULL; line++) {
		nl = strchr(got, '\n');
		if (nl == NULL)
			fail_msg("line %zu missing, want: %s", line + 1, want[line]);
		len = (size_t)(nl - got);
		if (len != strlen(want[line]) || memcmp(got, want[line], len) != 0)
			fail_msg("line %zu differs:\n got: %.*s\nwant: %s", line + 1, (int)len, got,
				 want[line]);
		got = nl + 1;
	}
	if (*got != '\0')
		fail_msg("line %zu: more than expected: %.200s", line + 1, got);
}
