/*
 * SDHI backends moving data over the simulator, through the backend ops only:
 * every backend, single and multiple blocks, reads and writes, CMD23 and
 * automatic CMD12, every plan the backend takes, bus_shift 0/1/2, every data
 * port width, buffers offset by 1..7 bytes, above 4 GiB (PIO, and the internal
 * DMAC behind an IOMMU), SDIO byte transfers of 1..511 bytes; data checked
 * byte for byte with guard bytes around each buffer.
 */
#include "sdhi_fx.h"

#include "backends/sdhi/sdhi_priv.h"

struct rw {
	enum mmchal_plan plan;
	bool write;
	uint32_t blocks;
	bool cmd23;
	uint32_t offset;
	int region; /* 0 = below 4 GiB, 1 = above */
	bool via_iommu;
	uint32_t nsg; /* PIO: split the buffer into this many sg entries (1..4) */
};

static uint32_t lba_next = 64;

static void wait_not_busy(struct fx *f)
{
	for (int i = 0; f->be.ops->card_busy(f->be.ctx) == 1; i++) {
		assert_true(i < 100000);
		fx_delay(f, 10000);
	}
}

static void do_rw(struct fx *f, const struct rw *t)
{
	const uint32_t len = t->blocks * 512u, lba = lba_next;
	struct mmchal_sg sg[4];
	struct mmchal_dma_seg seg;
	struct mmchal_data d;
	struct mmchal_cmd c;
	struct mmchal_xfer x;
	struct fx_buf b;
	uint64_t size;
	uint8_t *store = mmchal_sim_card_store(f->sim, &size);
	uint8_t before = 0, after = 0;
	uint32_t ev, nsg = t->nsg ? t->nsg : 1, off = 0;
	mmchal_dma_addr_t iova = 0x10000000u;

	lba_next += t->blocks + 1u;
	assert_non_null(store);
	fx_buf_get(f, t->region == 0 ? f->lo : f->hi, len, t->offset, &b);
	if (t->write) {
		for (uint32_t i = 0; i < len; i++)
			b.p[i] = fx_pat(i, lba);
		memset(store + (uint64_t)lba * 512u, 0, len);
		before = store[(uint64_t)lba * 512u - 1u] = 0x11;
		after = store[(uint64_t)(lba + t->blocks) * 512u] = 0x22;
	} else {
		for (uint32_t i = 0; i < len; i++)
			store[(uint64_t)lba * 512u + i] = fx_pat(i, lba);
		memset(b.p, 0x5a, len);
	}
	/* sg entries of uneven lengths: 1, 7, 300, rest (as many as asked) */
	for (uint32_t i = 0; i < nsg; i++) {
		static const uint32_t cut[3] = {1, 7, 300};
		uint32_t l = i + 1 < nsg ? cut[i] : len - off;

		sg[i].cpu = b.p + off;
		sg[i].phys = b.phys + off;
		sg[i].len = l;
		off += l;
	}
	memset(&d, 0, sizeof(d));
	d.dir = t->write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
	d.blksz = 512;
	d.blocks = t->blocks;
	d.sg = sg;
	d.sg_len = nsg;
	seg.addr = b.phys;
	seg.len = len;
	if (t->via_iommu) {
		mmchal_phys_addr_t p0 = b.phys & ~4095ull;
		uint64_t msize = ((b.phys + len + 4095u) & ~4095ull) - p0;

		assert_int_equal(
			f->iommu.ops->map(f->iommu.ctx, iova, p0, msize,
					  t->write ? MMCHAL_IOMMU_READ : MMCHAL_IOMMU_WRITE),
			0);
		seg.addr = iova + (b.phys & 4095u);
	}
	if (t->cmd23)
		assert_int_equal(fx_cmd(f, 23, t->blocks, MMCHAL_RSP_R1), 0);
	memset(&c, 0, sizeof(c));
	c.opcode = t->write ? (t->blocks > 1 || t->cmd23 ? 25u : 24u)
			    : (t->blocks > 1 || t->cmd23 ? 18u : 17u);
	c.arg = lba;
	c.flags = MMCHAL_RSP_R1;
	memset(&x, 0, sizeof(x));
	x.cmd = &c;
	x.data = &d;
	x.auto_stop = c.opcode == 18 || c.opcode == 25 ? !t->cmd23 : false;
	x.plan = t->plan;
	if (t->plan != MMCHAL_PLAN_PIO) {
		x.segs = &seg;
		x.nsegs = 1;
	}
	assert_int_equal(f->be.ops->start(f->be.ctx, &x), 0);
	ev = fx_wait(f, &x);
	assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_true(ev & MMCHAL_EV_CMD_DONE);
	assert_true(ev & MMCHAL_EV_DATA_DONE);
	assert_int_equal(c.error, 0);
	assert_int_equal(d.error, 0);
	assert_int_equal(d.bytes_xfered, len);
	/* R1 of CMD17/18/24/25: card status with READY_FOR_DATA, state tran */
	assert_int_equal((c.resp[0] >> 9) & 0xfu, 4);
	if (t->write) {
		assert_memory_equal(store + (uint64_t)lba * 512u, b.p, len);
		assert_int_equal(store[(uint64_t)lba * 512u - 1u], before);
		assert_int_equal(store[(uint64_t)(lba + t->blocks) * 512u], after);
		/* a DMA write with no CMD12 after it completes only once the card is idle */
		if (t->plan != MMCHAL_PLAN_PIO && !x.auto_stop)
			assert_int_equal(f->be.ops->card_busy(f->be.ctx), 0);
		wait_not_busy(f);
	} else {
		assert_memory_equal(b.p, store + (uint64_t)lba * 512u, len);
	}
	fx_buf_guards(&b);
	if (t->via_iommu) {
		mmchal_phys_addr_t p0 = b.phys & ~4095ull;
		uint64_t msize = ((b.phys + len + 4095u) & ~4095ull) - p0;

		assert_int_equal(f->iommu.ops->unmap(f->iommu.ctx, iova, msize), 0);
		if (f->iommu.ops->flush != NULL)
			f->iommu.ops->flush(f->iommu.ctx, iova, msize);
	}
}

/* Every direction x {1 block, 8 blocks auto CMD12, 8 blocks CMD23}. */
static void rw_set(struct fx *f, enum mmchal_plan plan, uint32_t offset, int region, bool iommu,
		   uint32_t nsg)
{
	for (int w = 0; w < 2; w++) {
		struct rw t = {plan, w == 1, 1, false, offset, region, iommu, nsg};

		do_rw(f, &t);
		t.blocks = 8;
		do_rw(f, &t);
		t.cmd23 = true;
		do_rw(f, &t);
	}
}

static void open_mmc(struct fx *f, const struct fx_opts *o)
{
	assert_int_equal(fx_open(f, o), 0);
	fx_mmc_init(f, MMCHAL_BUS_WIDTH_8);
}

static void test_idmac(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3,
			    MMCHAL_SDHI_IDMAC,
			    -1,
			    0,
			    0,
			    MMCHAL_SIM_CARD_MMC,
			    false,
			    false,
			    0};
	struct fx f;

	(void)state;
	open_mmc(&f, &o);
	assert_string_equal(f.be.ops->name, "sdhi-idmac");
	rw_set(&f, MMCHAL_PLAN_DIRECT, 0, 0, false, 1);
	rw_set(&f, MMCHAL_PLAN_BOUNCED, 128, 0, false, 1);
	/* the core's PIO retry goes through the same backend */
	rw_set(&f, MMCHAL_PLAN_PIO, 3, 0, false, 4);
	fx_close(&f);
}

static void test_idmac_iommu_above_4g(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3,
			    MMCHAL_SDHI_IDMAC,
			    -1,
			    0,
			    0,
			    MMCHAL_SIM_CARD_MMC,
			    true,
			    false,
			    0};
	struct fx f;

	(void)state;
	open_mmc(&f, &o);
	/* behind the IOMMU a buffer above 4 GiB is reached directly */
	rw_set(&f, MMCHAL_PLAN_IOMMU_MERGED, 0, 1, true, 1);
	rw_set(&f, MMCHAL_PLAN_DIRECT, 0, 1, true, 1);
	fx_close(&f);
}

static void test_idmac_old_info1(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3,
			    MMCHAL_SDHI_IDMAC,
			    -1,
			    0,
			    0,
			    MMCHAL_SIM_CARD_MMC,
			    false,
			    true,
			    0};
	struct fx f;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;

	(void)state;
	open_mmc(&f, &o);
	/* M3-W ES1.0: writes by DMA, reads by PIO (one read channel per SoC) */
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
	assert_int_equal(dc.dir[MMCHAL_DIR_FROM_CARD].min_len, UINT32_MAX);
	assert_int_equal(dc.dir[MMCHAL_DIR_TO_CARD].min_len, 0);
	struct rw t = {MMCHAL_PLAN_DIRECT, true, 8, false, 0, 0, false, 1};
	do_rw(&f, &t);
	t.write = false;
	t.plan = MMCHAL_PLAN_PIO;
	do_rw(&f, &t);
	fx_close(&f);
}

/* One 8-block DMA read into a fresh buffer: 1 when the data arrived intact. */
static int dma_read_ok(struct fx *f)
{
	uint64_t size;
	uint8_t *store = mmchal_sim_card_store(f->sim, &size);
	struct fx_buf b;
	struct mmchal_sg sg;
	struct mmchal_dma_seg seg;
	struct mmchal_cmd c = {.opcode = 18, .arg = 300, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {MMCHAL_DIR_FROM_CARD, 512, 8, &sg, 1, 0, 0, 0};
	struct mmchal_xfer x = {&c, &d, true, MMCHAL_PLAN_DIRECT, &seg, 1, NULL};
	uint32_t ev;

	fx_buf_get(f, f->lo, 8 * 512, 0, &b);
	memset(b.p, 0x5a, 8 * 512);
	for (uint32_t i = 0; i < 8 * 512; i++)
		store[300 * 512 + i] = fx_pat(i, 300);
	sg.cpu = b.p;
	sg.phys = b.phys;
	sg.len = 8 * 512;
	seg.addr = b.phys;
	seg.len = 8 * 512;
	assert_int_equal(f->be.ops->start(f->be.ctx, &x), 0);
	ev = fx_wait(f, &x);
	fx_buf_guards(&b);
	if (!(ev & MMCHAL_EV_DATA_DONE)) {
		assert_int_equal(f->be.ops->abort(f->be.ctx), 0);
		return 0;
	}
	return memcmp(b.p, store + 300 * 512, 8 * 512) == 0;
}

/* DM_CM_DTRAN_MODE per SoC: RZ/G2L leaves the increment bit clear, which only a
   fixed-address-mode DMAC takes as incrementing. */
static void test_idmac_fixed_address_mode(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3,
			    MMCHAL_SDHI_IDMAC,
			    -1,
			    0,
			    0,
			    MMCHAL_SIM_CARD_MMC,
			    false,
			    false,
			    0};
	struct fx f;

	(void)state;
	fx_more.sim_fixed_addr_only = true;
	fx_more.compat = "renesas,rzg2l-sdhi";
	open_mmc(&f, &o);
	assert_int_equal(dma_read_ok(&f), 1);
	assert_int_equal(mmchal_bus_raw_rd32(&f.cfg.bus, 0x820), 0x10030u);
	fx_close(&f);
	/* the same setting on an R-Car DMAC sends every beat to one address */
	fx_more.compat = "renesas,rzg2l-sdhi";
	open_mmc(&f, &o);
	assert_int_equal(dma_read_ok(&f), 0);
	fx_close(&f);
	/* and the R-Car entry sets the increment bit */
	open_mmc(&f, &o);
	assert_int_equal(dma_read_ok(&f), 1);
	assert_int_equal(mmchal_bus_raw_rd32(&f.cfg.bus, 0x820), 0x10031u);
	fx_close(&f);
}

/* The old DM_CM_INFO1 layout (read end at bit 17) on H3 ES1.x: the flag is needed. */
static void test_idmac_old_layout_read_end(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_H3_ES1,
			    MMCHAL_SDHI_IDMAC,
			    -1,
			    0,
			    0,
			    MMCHAL_SIM_CARD_MMC,
			    false,
			    false,
			    0};
	struct fx f;

	(void)state;
	fx_more.extra_flags = MMCHAL_SDHI_F_OLD_INFO1;
	open_mmc(&f, &o);
	assert_int_equal(dma_read_ok(&f), 1);
	fx_close(&f);
	open_mmc(&f, &o);
	assert_int_equal(dma_read_ok(&f), 0); /* waits for bit 20, which never comes */
	fx_close(&f);
}

static void test_pio_gen3_widths_shifts(void **state)
{
	(void)state;
	for (int shift = 0; shift <= 2; shift++) {
		for (uint8_t w = 2; w <= 8; w *= 2) {
			struct fx_opts o = {MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_PIO, shift, 0, w,
					    MMCHAL_SIM_CARD_MMC, false,           false, 0};
			struct fx f;

			if (w == 8 && shift != 2) {
				/* no 64-bit port unless the registers are 8 bytes apart */
				assert_int_equal(fx_open(&f, &o), MMCHAL_ENOTSUP);
				fx_close(&f);
				continue;
			}
			open_mmc(&f, &o);
			assert_int_equal(f.sdhi.port_width, w);
			rw_set(&f, MMCHAL_PLAN_PIO, (uint32_t)(w + shift) % 8u, 0, false, 3);
			fx_close(&f);
		}
	}
}

static void test_pio_offsets_above_4g(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_PIO, -1,    0, 0,
			    MMCHAL_SIM_CARD_MMC, false,           false, 0};
	struct fx f;

	(void)state;
	open_mmc(&f, &o);
	assert_int_equal(f.sdhi.port_width, 8);
	for (uint32_t off = 1; off <= 7; off++) {
		struct rw t = {MMCHAL_PLAN_PIO, false, 2,           false, off,
			       (int)(off & 1u), false, 1 + off % 4u};

		do_rw(&f, &t);
		t.write = true;
		do_rw(&f, &t);
	}
	fx_close(&f);
}

static void test_gen2_versions(void **state)
{
	static const uint16_t vers[2] = {0xcb0d, 0x490c};

	(void)state;
	for (int v = 0; v < 2; v++) {
		for (int shift = 0; shift <= 1; shift++) {
			for (uint8_t w = 2; w <= 4; w *= 2) {
				struct fx_opts o = {MMCHAL_SIM_SOC_GEN2,
						    MMCHAL_SDHI_SYSDMAC,
						    shift,
						    vers[v],
						    w,
						    MMCHAL_SIM_CARD_MMC,
						    false,
						    false,
						    0};
				struct fx f;

				open_mmc(&f, &o);
				assert_string_equal(f.be.ops->name, "sdhi-sysdmac");
				assert_int_equal(f.sdhi.port_width, w);
				/* a 32-bit counter needs bus_shift >= 1: at 0 its one 32-bit
				   access would be unaligned (test_sdhi_glitch.c) */
				assert_int_equal(f.sdhi.cnt_bits,
						 vers[v] == 0xcb0d && shift != 0 ? 32 : 16);
				rw_set(&f, MMCHAL_PLAN_DIRECT, 2u * (unsigned)(shift + 1), 0, false,
				       1);
				rw_set(&f, MMCHAL_PLAN_PIO, 5, 1, false, 2);
				fx_close(&f);
			}
		}
	}
}

static void test_sysdmac_iommu(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN2,
			    MMCHAL_SDHI_SYSDMAC,
			    -1,
			    0,
			    0,
			    MMCHAL_SIM_CARD_MMC,
			    true,
			    false,
			    0};
	struct fx f;

	(void)state;
	open_mmc(&f, &o);
	rw_set(&f, MMCHAL_PLAN_DIRECT, 0, 1, true, 1);
	fx_close(&f);
}

/*
 * An SDIO card on a Gen3 PIO host with a @w-byte data port, brought to the
 * transfer state at 25 MHz (CMD5 until ready, CMD3 for the RCA, CMD7); returns
 * the card's store (function 1 at address 0).
 */
static uint8_t *open_sdio(struct fx *f, uint8_t w)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3,  MMCHAL_SDHI_PIO, -1,    0, w,
			    MMCHAL_SIM_CARD_SDIO, false,           false, 0};
	uint32_t r[4];
	uint64_t size;
	uint8_t *store;

	assert_int_equal(fx_open(f, &o), 0);
	fx_ios(f, 400000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY);
	for (int i = 0;; i++) {
		assert_true(i < 100);
		assert_int_equal(fx_cmd_resp(f, 5, i ? 0x00ff8000u : 0, MMCHAL_RSP_R4, r), 0);
		if (i && (r[0] & 0x80000000u))
			break;
		fx_delay(f, 100000);
	}
	assert_int_equal(fx_cmd_resp(f, 3, 0, MMCHAL_RSP_R6, r), 0);
	f->rca = (uint16_t)(r[0] >> 16);
	assert_int_equal(fx_cmd(f, 7, (uint32_t)f->rca << 16, MMCHAL_RSP_R1B), 0);
	fx_ios(f, 25000000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY);
	store = mmchal_sim_card_store(f->sim, &size);
	assert_non_null(store);
	return store;
}

/* SDIO CMD53 byte mode, 1..511 bytes: PIO never touches a byte outside the buffer. */
static void test_sdio_odd_lengths(void **state)
{
	(void)state;
	for (uint8_t w = 2; w <= 8; w *= 2) {
		struct fx f;
		uint8_t *store = open_sdio(&f, w);

		for (uint32_t n = 1; n < 512; n += (n < 16 ? 1u : 37u)) {
			for (int wr = 1; wr >= 0; wr--) {
				struct fx_buf b;
				struct mmchal_sg sg;
				struct mmchal_data d = {0};
				struct mmchal_cmd c = {0};
				struct mmchal_xfer x = {0};
				uint32_t ev;

				fx_buf_get(&f, f.lo, n, n % 8u, &b);
				for (uint32_t i = 0; i < n; i++)
					b.p[i] = wr ? fx_pat(i, n) : 0x5a;
				if (wr)
					memset(store, 0, n + 1u);
				sg.cpu = b.p;
				sg.phys = b.phys;
				sg.len = n;
				d.dir = wr ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
				d.blksz = n;
				d.blocks = 1;
				d.sg = &sg;
				d.sg_len = 1;
				/* CMD53: function 1, byte mode, incrementing, address 0, count n */
				c.opcode = 53;
				c.arg = (wr ? 1u << 31 : 0) | (1u << 28) | (1u << 26) |
					(n & 0x1ffu);
				c.flags = MMCHAL_RSP_R5;
				x.cmd = &c;
				x.data = &d;
				x.plan = MMCHAL_PLAN_PIO;
				assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
				ev = fx_wait(&f, &x);
				assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR |
						       FX_TIMEOUT),
						 0);
				assert_int_equal(d.bytes_xfered, n);
				if (wr) {
					assert_memory_equal(store, b.p, n);
					assert_int_equal(store[n], 0);
				} else {
					for (uint32_t i = 0; i < n; i++)
						assert_int_equal(b.p[i], fx_pat(i, n));
				}
				fx_buf_guards(&b);
			}
		}
		fx_close(&f);
	}
}

/*
 * SDIO CMD53 block mode with block sizes that are not a multiple of the port width,
 * several blocks per command: the partial last word of each block carries only that
 * block's bytes, and the next block starts right after it, in one sg entry and in two
 * separate entries split inside a word (so that a word read past an entry's end
 * would land in its guard bytes).
 */
static void cmd53_blocks(struct fx *f, bool wr, uint32_t bs, uint32_t blocks, uint32_t split,
			 uint8_t *store)
{
	uint32_t total = bs * blocks;
	struct fx_buf b[2];
	struct mmchal_sg sg[2];
	struct mmchal_data d = {0};
	struct mmchal_cmd c = {0};
	struct mmchal_xfer x = {0};
	uint32_t ev, n0 = split ? split : total;

	fx_buf_get(f, f->lo, n0, 1, &b[0]);
	fx_buf_get(f, f->lo, total - n0 ? total - n0 : 1u, 3, &b[1]);
	for (uint32_t i = 0; i < total; i++) {
		uint8_t *q = i < n0 ? &b[0].p[i] : &b[1].p[i - n0];

		*q = wr ? fx_pat(i, total + bs) : 0x5a;
	}
	if (wr)
		memset(store, 0, total + 1u);
	sg[0].cpu = b[0].p;
	sg[0].phys = b[0].phys;
	sg[0].len = n0;
	sg[1].cpu = b[1].p;
	sg[1].phys = b[1].phys;
	sg[1].len = total - n0;
	d.dir = wr ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
	d.blksz = bs;
	d.blocks = blocks;
	d.sg = sg;
	d.sg_len = split ? 2u : 1u;
	/* CMD53: function 1, block mode, incrementing, address 0, count blocks */
	c.opcode = 53;
	c.arg = (wr ? 1u << 31 : 0) | (1u << 28) | (1u << 27) | (1u << 26) | blocks;
	c.flags = MMCHAL_RSP_R5;
	x.cmd = &c;
	x.data = &d;
	x.plan = MMCHAL_PLAN_PIO;
	assert_int_equal(f->be.ops->start(f->be.ctx, &x), 0);
	ev = fx_wait(f, &x);
	assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR | FX_TIMEOUT), 0);
	assert_int_equal(d.error, 0);
	assert_int_equal(d.bytes_xfered, total);
	for (uint32_t i = 0; i < total; i++) {
		uint8_t v = i < n0 ? b[0].p[i] : b[1].p[i - n0];

		assert_int_equal(v, fx_pat(i, total + bs));
		assert_int_equal(store[i], fx_pat(i, total + bs));
	}
	assert_int_equal(store[total], 0);
	fx_buf_guards(&b[0]);
	fx_buf_guards(&b[1]);
}

static void test_sdio_block_mode_odd_blksz(void **state)
{
	static const uint32_t sizes[] = {6, 10, 13};

	(void)state;
	for (uint8_t w = 2; w <= 8; w *= 2) {
		struct fx f;
		uint32_t r[4];
		uint8_t *store = open_sdio(&f, w);

		for (unsigned int k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			uint32_t bs = sizes[k];
			const uint32_t splits[] = {0, 5, bs + 3u};

			/* CMD52 writes of FBR1's block size (fn0 0x110, 0x111) */
			assert_int_equal(fx_cmd_resp(&f, 52, (1u << 31) | (0x110u << 9) | bs,
						     MMCHAL_RSP_R5, r),
					 0);
			assert_int_equal(
				fx_cmd_resp(&f, 52, (1u << 31) | (0x111u << 9), MMCHAL_RSP_R5, r),
				0);
			for (unsigned int j = 0; j < 3; j++) {
				cmd53_blocks(&f, true, bs, 3, splits[j], store);
				cmd53_blocks(&f, false, bs, 3, splits[j], store);
			}
		}
		fx_close(&f);
	}
}

/* A buffer event after the last block of the data phase is an error: the PIO mover
   touches neither the data port nor the caller's buffer, and keeps its position. */
static void test_pio_event_past_last_block(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_PIO, -1,    0, 0,
			    MMCHAL_SIM_CARD_MMC, false,           false, 0};
	struct mmchal_sim_counters c0, c1;
	struct mmchal_data d = {0};
	struct mmchal_sg sg;
	struct fx_buf b;
	struct fx f;

	(void)state;
	assert_int_equal(fx_open(&f, &o), 0);
	fx_buf_get(&f, f.lo, 512, 0, &b);
	memset(b.p, 0x5a, 512);
	sg.cpu = b.p;
	sg.phys = b.phys;
	sg.len = 512;
	d.blksz = 512;
	d.blocks = 1;
	d.sg = &sg;
	d.sg_len = 1;
	for (int rd = 0; rd <= 1; rd++) {
		d.dir = rd ? MMCHAL_DIR_FROM_CARD : MMCHAL_DIR_TO_CARD;
		f.sdhi.data = &d;
		f.sdhi.blocks_done = 1;
		f.sdhi.sg_idx = 0;
		f.sdhi.sg_off = 0;
		mmchal_sim_get_counters(f.sim, &c0);
		assert_int_equal(mmchal_sdhi_pio_block_(&f.sdhi, rd), MMCHAL_EIO);
		mmchal_sim_get_counters(f.sim, &c1);
		assert_int_equal(c1.reads, c0.reads);
		assert_int_equal(c1.writes, c0.writes);
		assert_int_equal(f.sdhi.blocks_done, 1);
		assert_int_equal(f.sdhi.sg_idx, 0);
		assert_int_equal(f.sdhi.sg_off, 0);
		for (uint32_t i = 0; i < 512; i++)
			assert_int_equal(b.p[i], 0x5a);
		fx_buf_guards(&b);
	}
	f.sdhi.data = NULL;
	f.sdhi.blocks_done = 0;
	fx_close(&f);
}

/*
 * An sg list that ends inside a block (the caller shortened it after start checked the
 * lengths): the mover stops with an error at the end of the list, at a word boundary
 * and inside a word, and never reaches the entry past the list's end. Counted at the
 * data port, it reads or writes no word past the end of the list: a list that ends at
 * a word boundary stops before the next word's port access; one that ends inside a
 * word stops a read after that word's access (its first bytes stored) and a write
 * before it.
 */
static void test_pio_list_ends_inside_block(void **state)
{
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_PIO, -1,    0, 4,
			    MMCHAL_SIM_CARD_MMC, false,           false, 0};
	static const uint32_t first[] = {4, 2}; /* a whole word, then half of one */
	static const uint64_t port_reads[] = {1, 1}, port_writes[] = {1, 0};
	struct mmchal_sim_counters c0, c1;
	struct mmchal_data d = {0};
	struct mmchal_sg sg[2];
	struct fx_buf b[2];
	struct fx f;

	(void)state;
	assert_int_equal(fx_open(&f, &o), 0);
	fx_buf_get(&f, f.lo, 8, 0, &b[0]);
	fx_buf_get(&f, f.lo, 8, 0, &b[1]);
	for (unsigned int k = 0; k < 2; k++) {
		for (int rd = 0; rd <= 1; rd++) {
			memset(b[0].p, 0x33, 8);
			memset(b[1].p, 0x5a, 8);
			sg[0].cpu = b[0].p;
			sg[0].phys = b[0].phys;
			sg[0].len = first[k];
			sg[1].cpu = b[1].p; /* past the end of the list: never touched */
			sg[1].phys = b[1].phys;
			sg[1].len = 8;
			d.dir = rd ? MMCHAL_DIR_FROM_CARD : MMCHAL_DIR_TO_CARD;
			d.blksz = 8;
			d.blocks = 1;
			d.sg = sg;
			d.sg_len = 1;
			f.sdhi.data = &d;
			f.sdhi.blocks_done = 0;
			f.sdhi.sg_idx = 0;
			f.sdhi.sg_off = 0;
			mmchal_sim_get_counters(f.sim, &c0);
			assert_int_equal(mmchal_sdhi_pio_block_(&f.sdhi, rd), MMCHAL_EIO);
			assert_int_equal(f.sdhi.blocks_done, 0);
			mmchal_sim_get_counters(f.sim, &c1);
			assert_int_equal(c1.port_reads - c0.port_reads, rd ? port_reads[k] : 0);
			assert_int_equal(c1.port_writes - c0.port_writes, rd ? 0 : port_writes[k]);
			for (uint32_t i = 0; i < 8; i++)
				assert_int_equal(b[1].p[i], 0x5a);
			/* a write never stores into the caller's buffer */
			for (uint32_t i = 0; !rd && i < 8; i++)
				assert_int_equal(b[0].p[i], 0x33);
			fx_buf_guards(&b[0]);
			fx_buf_guards(&b[1]);
		}
	}
	f.sdhi.data = NULL;
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idmac),
		cmocka_unit_test(test_idmac_iommu_above_4g),
		cmocka_unit_test(test_idmac_old_info1),
		cmocka_unit_test(test_idmac_fixed_address_mode),
		cmocka_unit_test(test_idmac_old_layout_read_end),
		cmocka_unit_test(test_pio_gen3_widths_shifts),
		cmocka_unit_test(test_pio_offsets_above_4g),
		cmocka_unit_test(test_gen2_versions),
		cmocka_unit_test(test_sysdmac_iommu),
		cmocka_unit_test(test_sdio_odd_lengths),
		cmocka_unit_test(test_sdio_block_mode_odd_blksz),
		cmocka_unit_test(test_pio_event_past_last_block),
		cmocka_unit_test(test_pio_list_ends_inside_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
