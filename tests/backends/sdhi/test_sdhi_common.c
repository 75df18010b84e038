/*
 * SDHI common code over the simulator: configuration checks, probe and the
 * VERSION-dependent settings, declared capabilities, clock divider, bus width
 * and DDR mode, soft reset restoring the settings, command encoding and
 * responses (R2 rebuilt, R3, R6, R7), start argument checks, card detect,
 * write protect, DAT0 busy, abort in the middle of a transfer.
 */
#include "sdhi_fx.h"

static uint16_t reg16(struct fx *f, uint32_t reg)
{
	return mmchal_bus_rd16(&f->cfg.bus, reg);
}

static const struct fx_opts gen3_mmc = {
	MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, -1, 0, 0, MMCHAL_SIM_CARD_MMC, false, false, 0};

static void test_init_checks(void **state)
{
	struct fx f;
	struct mmchal_sdhi s;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_backend be;
	struct mmchal_bus_ops no16 = {0};

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	cfg = f.cfg;
	assert_int_equal(mmchal_sdhi_idmac_init(NULL, &cfg, &be), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sdhi_idmac_init(&s, NULL, &be), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &cfg, NULL), MMCHAL_EINVAL);
	cfg.clk_hz = 0;
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg = f.cfg;
	cfg.port_width = 3;
	assert_int_equal(mmchal_sdhi_pio_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg = f.cfg;
	cfg.soc = NULL;
	assert_int_equal(mmchal_sdhi_pio_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg = f.cfg;
	cfg.bus.ops = &no16;
	assert_int_equal(mmchal_sdhi_pio_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg = f.cfg;
	cfg.rev = (enum mmchal_sdhi_rev)99;
	assert_int_equal(mmchal_sdhi_pio_init(&s, &cfg, &be), MMCHAL_EINVAL);
	/* backend kind must match the SoC entry; SYS-DMAC needs both channels */
	cfg = f.cfg;
	assert_int_equal(mmchal_sdhi_sysdmac_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg.soc = mmchal_sdhi_soc_lookup("renesas,rcar-gen2-sdhi");
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &cfg, &be), MMCHAL_EINVAL);
	cfg.chan[1].ops = NULL;
	assert_int_equal(mmchal_sdhi_sysdmac_init(&s, &cfg, &be), MMCHAL_EINVAL);
	/* mmchal_sdhi_init: Gen2 without channels is PIO, Gen3 is the internal DMAC */
	assert_int_equal(mmchal_sdhi_init(&s, &cfg, &be), 0);
	assert_string_equal(be.ops->name, "sdhi-pio");
	assert_ptr_equal(be.ctx, &s);
	cfg = f.cfg;
	cfg.soc = mmchal_sdhi_soc_lookup("renesas,rcar-gen2-sdhi");
	assert_int_equal(mmchal_sdhi_init(&s, &cfg, &be), 0);
	assert_string_equal(be.ops->name, "sdhi-sysdmac");
	cfg = f.cfg;
	assert_int_equal(mmchal_sdhi_init(&s, &cfg, &be), 0);
	assert_string_equal(be.ops->name, "sdhi-idmac");
	assert_int_equal(mmchal_backend_check(&be), 0);
	assert_int_equal(mmchal_sdhi_init(&s, NULL, &be), MMCHAL_EINVAL);
	/* ops refuse to run before probe */
	{
		struct mmchal_host_caps hc;
		struct mmchal_dma_caps dc;
		uint32_t ev;

		assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), MMCHAL_EINVAL);
		assert_int_equal(be.ops->handle_irq(be.ctx, &ev), MMCHAL_EINVAL);
		assert_int_equal(be.ops->card_busy(be.ctx), MMCHAL_EINVAL);
	}
	assert_int_equal(mmchal_sdhi_get_stats(NULL, NULL), MMCHAL_EINVAL);
	fx_close(&f);
}

static void test_probe_versions(void **state)
{
	static const struct {
		enum mmchal_sim_soc soc;
		uint16_t ver;
		enum mmchal_sdhi_kind kind;
		uint8_t width, cnt, hm;
		int rc;
	} rows[] = {
		{MMCHAL_SIM_SOC_GEN3, 0xcd10, MMCHAL_SDHI_IDMAC, 8, 32, 0x00, 0},
		{MMCHAL_SIM_SOC_GEN3, 0xcc10, MMCHAL_SDHI_PIO, 8, 32, 0x00, 0},
		{MMCHAL_SIM_SOC_GEN2, 0xcb0d, MMCHAL_SDHI_PIO, 4, 32, 0x00, 0},
		{MMCHAL_SIM_SOC_GEN2, 0x490c, MMCHAL_SDHI_PIO, 4, 16, 0x01, 0},
		{MMCHAL_SIM_SOC_GEN2, 0x820b, MMCHAL_SDHI_PIO, 2, 16, 0x00, 0},
		/* an internal-DMAC backend on an IP version without the DMAC */
		{MMCHAL_SIM_SOC_GEN3, 0xcb0d, MMCHAL_SDHI_IDMAC, 0, 0, 0, MMCHAL_ENOTSUP},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fx_opts o = {
			rows[i].soc, rows[i].kind, -1, rows[i].ver, 0, MMCHAL_SIM_CARD_MMC,
			false,       false,        0};
		struct fx f;

		assert_int_equal(fx_open(&f, &o), rows[i].rc);
		if (!rows[i].rc) {
			assert_int_equal(f.sdhi.port_width, rows[i].width);
			assert_int_equal(f.sdhi.cnt_bits, rows[i].cnt);
			assert_int_equal(reg16(&f, 0xe4), rows[i].hm);
			assert_int_equal(f.sdhi.have_cbsy, rows[i].ver != 0x490c);
		}
		fx_close(&f);
	}
}

static void test_caps(void **state)
{
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	struct fx f;
	struct fx_opts o = gen3_mmc;

	(void)state;
	assert_int_equal(fx_open(&f, &o), 0);
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
	assert_true(hc.merge_capable);
	assert_int_equal(hc.blk_count_bits, 32);
	assert_int_equal(hc.max_blk_count, 8388607);
	assert_int_equal(hc.max_blk_size, 512);
	assert_int_equal(hc.f_min_hz, FX_CLK / 512u);
	assert_int_equal(hc.f_max_hz, FX_CLK);
	assert_int_equal(hc.completion, MMCHAL_COMPLETES_POLLED);
	assert_int_equal(hc.bus, MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_HS400 |
					 MMCHAL_BUS_CMD23 | MMCHAL_BUS_AUTO_CMD12 |
					 MMCHAL_BUS_HW_BUSY);
	assert_int_equal(dc.kind, MMCHAL_DMA_INTERNAL);
	for (int d = 0; d < 2; d++) {
		assert_int_equal(dc.dir[d].addr_bits, 32);
		assert_int_equal(dc.dir[d].addr_align, 128);
		assert_int_equal(dc.dir[d].max_segs, 1);
		assert_int_equal(dc.dir[d].max_seg_size, 0xffffffffu);
		assert_int_equal(dc.dir[d].min_len, 0);
	}
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, NULL, &dc), MMCHAL_EINVAL);
	fx_close(&f);

	/* RZ/G2L: no HS400, board max-frequency kept */
	assert_int_equal(fx_open(&f, &o), 0);
	f.cfg.soc = mmchal_sdhi_soc_lookup("renesas,rzg2l-sdhi");
	f.cfg.caps.f_max_hz = 52000000;
	assert_int_equal(mmchal_sdhi_idmac_init(&f.sdhi, &f.cfg, &f.be), 0);
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
	assert_false(hc.bus & MMCHAL_BUS_HS400);
	assert_int_equal(hc.f_max_hz, 52000000);
	fx_close(&f);

	/* merge-capable only with the SoC's flag and the internal DMAC: RZ/A2 has
	   no flag; a Gen3 SoC driven by PIO has the flag but no engine to merge for */
	assert_int_equal(fx_open(&f, &o), 0);
	f.cfg.soc = mmchal_sdhi_soc_lookup("renesas,sdhi-r7s9210");
	assert_int_equal(mmchal_sdhi_idmac_init(&f.sdhi, &f.cfg, &f.be), 0);
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
	assert_false(hc.merge_capable);
	assert_int_equal(dc.kind, MMCHAL_DMA_INTERNAL);
	f.cfg.soc = mmchal_sdhi_soc_lookup("renesas,rcar-gen3-sdhi");
	assert_int_equal(mmchal_sdhi_pio_init(&f.sdhi, &f.cfg, &f.be), 0);
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
	assert_true(f.sdhi.flags & MMCHAL_SDHI_F_MERGE);
	assert_false(hc.merge_capable);
	assert_int_equal(dc.kind, MMCHAL_DMA_NONE);
	fx_close(&f);

	/* SYS-DMAC: channel caps plus the Linux rules; Gen2 not merge-capable */
	o.soc = MMCHAL_SIM_SOC_GEN2;
	o.kind = MMCHAL_SDHI_SYSDMAC;
	assert_int_equal(fx_open(&f, &o), 0);
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
	assert_false(hc.merge_capable);
	assert_int_equal(dc.kind, MMCHAL_DMA_EXTERNAL);
	for (int d = 0; d < 2; d++) {
		assert_int_equal(dc.dir[d].addr_bits, 40);
		assert_int_equal(dc.dir[d].addr_align, 2);
		assert_int_equal(dc.dir[d].len_granule, 2);
		assert_int_equal(dc.dir[d].min_len, 8);
		assert_int_equal(dc.dir[d].max_segs, 32);
		assert_int_equal(dc.dir[d].max_seg_size, 0xffffff);
	}
	fx_close(&f);

	/* PIO, Gen2 0x490c: 16-bit counter caps the block count */
	o.kind = MMCHAL_SDHI_PIO;
	o.version = 0x490c;
	assert_int_equal(fx_open(&f, &o), 0);
	assert_int_equal(f.be.ops->get_caps(f.be.ctx, &hc, &dc), 0);
	assert_int_equal(dc.kind, MMCHAL_DMA_NONE);
	assert_int_equal(hc.blk_count_bits, 16);
	assert_int_equal(hc.max_blk_count, 65535);
	assert_false(hc.merge_capable);
	fx_close(&f);
}

static void test_clock_divider(void **state)
{
	static const struct {
		uint32_t hz;
		uint16_t clk;
	} rows[] = {
		{400000, 0x180},                        /* 390.625 kHz */
		{25000000, 0x102},                      /* 1/8 */
		{26000000, 0x102},                      /* 25 MHz, never above */
		{50000000, 0x101},                      /* 1/4 */
		{52000000, 0x101},                      /* 50 MHz */
		{99999999, 0x101},                      /* 50 MHz: 1/2 would be above */
		{100000000, 0x100},                     /* 1/2 */
		{150000000, 0x100}, {200000000, 0x1ff}, /* 1/1 */
		{400000000, 0x1ff}, {390625, 0x180},
	};
	struct fx f;
	struct mmchal_ios ios = {0, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY, MMCHAL_POWER_ON,
				 MMCHAL_SIGNAL_330};

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	assert_int_equal(reg16(&f, 0x24), 0x080); /* off after probe */
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ios.clock_hz = rows[i].hz;
		assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), 0);
		assert_int_equal(reg16(&f, 0x24), rows[i].clk);
	}
	/* below 1/512: refused, nothing changes */
	ios.clock_hz = 390624;
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), MMCHAL_ERANGE);
	assert_int_equal(reg16(&f, 0x24), 0x180);
	/* clock 0 and power off stop the clock, keeping the divider */
	ios.clock_hz = 0;
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), 0);
	assert_int_equal(reg16(&f, 0x24), 0x080);
	ios.clock_hz = 25000000;
	ios.power_mode = MMCHAL_POWER_OFF;
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), 0);
	assert_int_equal(reg16(&f, 0x24) & 0x100, 0);
	fx_close(&f);

	/* no 1/1 setting on SH-Mobile (no TMIO_MMC_CLK_ACTUAL): 200 MHz asked gives 100 MHz */
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	f.cfg.soc = mmchal_sdhi_soc_lookup("renesas,sdhi-shmobile");
	assert_int_equal(mmchal_sdhi_pio_init(&f.sdhi, &f.cfg, &f.be), 0);
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	ios.power_mode = MMCHAL_POWER_ON;
	ios.clock_hz = 200000000;
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), 0);
	assert_int_equal(reg16(&f, 0x24), 0x100);
	fx_close(&f);
}

static void test_width_ddr_and_reset(void **state)
{
	struct fx f;
	struct mmchal_ios ios = {50000000, MMCHAL_BUS_WIDTH_8, MMCHAL_TIMING_MMC_DDR52,
				 MMCHAL_POWER_ON, MMCHAL_SIGNAL_180};
	uint16_t clk, opt, hm, m1, m2;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	assert_int_equal(reg16(&f, 0x28) & 0xa000, 0x8000); /* 1-bit after probe */
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), 0);
	assert_int_equal(reg16(&f, 0x28) & 0xa000, 0x2000);
	assert_int_equal(reg16(&f, 0xe6), 1); /* DDR */
	ios.bus_width = MMCHAL_BUS_WIDTH_4;
	ios.timing = MMCHAL_TIMING_MMC_HS;
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), 0);
	assert_int_equal(reg16(&f, 0x28) & 0xa000, 0);
	assert_int_equal(reg16(&f, 0xe6), 0);
	ios.timing = MMCHAL_TIMING_MMC_HS400;
	ios.bus_width = MMCHAL_BUS_WIDTH_8;
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), 0);
	assert_int_equal(reg16(&f, 0xe6), 1);
	ios.bus_width = (enum mmchal_bus_width)2;
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), MMCHAL_EINVAL);
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, NULL), MMCHAL_EINVAL);
	/* soft reset (abort) puts every setting back */
	clk = reg16(&f, 0x24);
	opt = reg16(&f, 0x28);
	hm = reg16(&f, 0xe4);
	m1 = reg16(&f, 0x20);
	m2 = reg16(&f, 0x22);
	assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	assert_int_equal(f.sdhi.stats.soft_resets, 1);
	assert_int_equal(reg16(&f, 0x24), clk);
	assert_int_equal(reg16(&f, 0x28), opt);
	assert_int_equal(reg16(&f, 0xe4), hm);
	assert_int_equal(reg16(&f, 0xe6), 1);
	assert_int_equal(reg16(&f, 0x20), m1);
	assert_int_equal(reg16(&f, 0x22), m2);
	/* masks: response end, access end, card detect, errors, buffer events enabled */
	assert_int_equal(m1, (uint16_t)~0x001du);
	assert_int_equal(m2, (uint16_t)~0x837fu);
	fx_close(&f);

	/* HS400 refused where the SoC has none */
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	f.cfg.soc = mmchal_sdhi_soc_lookup("renesas,sdhi-r8a77995");
	assert_int_equal(mmchal_sdhi_idmac_init(&f.sdhi, &f.cfg, &f.be), 0);
	assert_int_equal(f.be.ops->probe(f.be.ctx), 0);
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), MMCHAL_EINVAL);
	ios.bus_width = MMCHAL_BUS_WIDTH_8;
	assert_int_equal(f.be.ops->set_ios(f.be.ctx, &ios), MMCHAL_ENOTSUP);
	fx_close(&f);
}

/* SD identification through the backend: R7 echo, R3 OCR, R2 CID rebuilt, R6 RCA. */
static void test_sd_responses(void **state)
{
	struct fx_opts o = gen3_mmc;
	struct fx f;
	uint32_t r[4];

	(void)state;
	o.card = MMCHAL_SIM_CARD_SD;
	o.kind = MMCHAL_SDHI_PIO;
	assert_int_equal(fx_open(&f, &o), 0);
	fx_ios(&f, 400000, MMCHAL_BUS_WIDTH_1, MMCHAL_TIMING_LEGACY);
	assert_int_equal(fx_cmd(&f, 0, 0, MMCHAL_RSP_NONE), 0);
	assert_int_equal(fx_cmd_resp(&f, 8, 0x1aa, MMCHAL_RSP_R7, r), 0);
	assert_int_equal(r[0], 0x1aa);
	/* CMD5 is illegal for an SD card: no response */
	assert_int_equal(fx_cmd(&f, 5, 0, MMCHAL_RSP_R4), MMCHAL_ETIMEDOUT);
	for (int i = 0;; i++) {
		assert_true(i < 100);
		assert_int_equal(fx_cmd(&f, 55, 0, MMCHAL_RSP_R1), 0);
		assert_int_equal(fx_cmd_resp(&f, 41, 0x40ff8000u, MMCHAL_RSP_R3, r), 0);
		if (r[0] & 0x80000000u)
			break;
		fx_delay(&f, 100000);
	}
	assert_int_equal(r[0], 0xc0ff8000u);
	assert_int_equal(fx_cmd_resp(&f, 2, 0, MMCHAL_RSP_R2, r), 0);
	/* CID: PSN in bits 55:24, CRC7 byte rebuilt as 0 */
	assert_int_equal((r[2] << 8) | (r[3] >> 24), 0x0badcafeu);
	assert_int_equal(r[3] & 0xffu, 0);
	assert_int_not_equal(r[0], 0);
	assert_int_equal(fx_cmd_resp(&f, 3, 0, MMCHAL_RSP_R6, r), 0);
	assert_int_equal(r[0] >> 16, 0xb368);
	f.rca = 0xb368;
	assert_int_equal(fx_cmd_resp(&f, 9, 0xb368u << 16, MMCHAL_RSP_R2, r), 0);
	/* CSD v2: CSD_STRUCTURE 1 (bits 127:126), TAAC 0x0e, TRAN_SPEED 0x32 */
	assert_int_equal(r[0] >> 30, 1);
	assert_int_equal((r[0] >> 16) & 0xffu, 0x0e);
	assert_int_equal(r[0] & 0xffu, 0x32);
	/* CCC (bits 95:84) 0x5b5, READ_BL_LEN (83:80) 9, C_SIZE (69:48) 127: 64 MiB */
	assert_int_equal(r[1] >> 20, 0x5b5);
	assert_int_equal((r[1] >> 16) & 0xfu, 9);
	assert_int_equal(r[1] & 0xffffu, 0);
	assert_int_equal(r[2] >> 16, 127);
	assert_int_equal(fx_cmd(&f, 7, 0xb368u << 16, MMCHAL_RSP_R1B), 0);
	assert_int_equal(fx_cmd_resp(&f, 13, 0xb368u << 16, MMCHAL_RSP_R1, r), 0);
	assert_int_equal((r[0] >> 9) & 0xfu, 4);
	/* a wrong response type shows as an end-bit error: EIO */
	assert_int_equal(fx_cmd(&f, 13, 0xb368u << 16, MMCHAL_RSP_R2), MMCHAL_EIO);
	assert_int_equal(fx_cmd(&f, 13, 0xb368u << 16, MMCHAL_RSP_R1), 0);
	/* write protect and card detect */
	assert_int_equal(f.be.ops->get_ro(f.be.ctx), 0);
	assert_int_equal(f.be.ops->get_cd(f.be.ctx), 1);
	assert_int_equal(f.be.ops->card_busy(f.be.ctx), 0);
	fx_close(&f);
}

static void test_start_checks(void **state)
{
	struct fx f;
	struct mmchal_cmd c = {.opcode = 17, .arg = 0, .flags = MMCHAL_RSP_R1};
	uint8_t buf[1024];
	struct mmchal_sg sg = {buf, 0, 512};
	struct mmchal_data d = {MMCHAL_DIR_FROM_CARD, 512, 1, &sg, 1, 0, 0, 0};
	struct mmchal_xfer x = {&c, &d, false, MMCHAL_PLAN_PIO, NULL, 0, NULL};
	struct mmchal_sim_counters sc;
	struct mmchal_cmd busy = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
	struct mmchal_xfer bx = {&busy, NULL, false, MMCHAL_PLAN_PIO, NULL, 0, NULL};

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	mmchal_sim_reset_counters(f.sim);
	assert_int_equal(f.be.ops->start(f.be.ctx, NULL), MMCHAL_EINVAL);
	c.opcode = 64;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	c.opcode = 17;
	d.blksz = 0;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	d.blksz = 513;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	d.blksz = 512;
	d.blocks = 2; /* sg holds only one block */
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	d.blocks = 1;
	sg.cpu = NULL;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	sg.cpu = buf;
	d.dir = (enum mmchal_dir)5;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	d.dir = MMCHAL_DIR_FROM_CARD;
	x.plan = (enum mmchal_plan)9;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	x.plan = MMCHAL_PLAN_PIO;
	mmchal_sim_get_counters(f.sim, &sc);
	assert_int_equal(sc.writes, 0);
	/* one xfer at a time */
	assert_int_equal(f.be.ops->start(f.be.ctx, &bx), 0);
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EBUSY);
	assert_int_equal(fx_wait(&f, &bx) & FX_TIMEOUT, 0);
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	assert_int_equal(fx_wait(&f, &x) & MMCHAL_EV_DATA_DONE, MMCHAL_EV_DATA_DONE);

	/* data timeout: the shortest SD_OPTION window not below the request's, at 26 MHz
	   (25 MHz): 1 ms = 25 000 clocks -> 2^15 (n = 2); 0 = the longest (n = 14) */
	d.timeout_ns = 1000000;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	assert_int_equal((mmchal_bus_rd16(&f.cfg.bus, 0x28) >> 4) & 0xfu, 2);
	assert_int_equal(fx_wait(&f, &x) & MMCHAL_EV_DATA_DONE, MMCHAL_EV_DATA_DONE);
	d.timeout_ns = 0;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	assert_int_equal((mmchal_bus_rd16(&f.cfg.bus, 0x28) >> 4) & 0xfu, 14);
	assert_int_equal(fx_wait(&f, &x) & MMCHAL_EV_DATA_DONE, MMCHAL_EV_DATA_DONE);
	fx_close(&f);

	/* a 16-bit block counter takes at most 65535 blocks */
	struct fx_opts o = {MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_PIO, -1,    0x490c, 0,
			    MMCHAL_SIM_CARD_MMC, false,           false, 0};
	assert_int_equal(fx_open(&f, &o), 0);
	d.blocks = 65536;
	sg.len = 512u * 65536u;
	c.opcode = 18;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	/* DMA plan on the PIO backend */
	d.blocks = 1;
	sg.len = 512;
	x.plan = MMCHAL_PLAN_DIRECT;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), MMCHAL_EINVAL);
	fx_close(&f);
}

/* A PIO write with automatic CMD12 ends after CMD12's busy (hardware busy
   detection), R1b end with the busy end, abort mid-read. */
static void test_busy_and_abort(void **state)
{
	struct fx f;
	struct fx_opts o = gen3_mmc;
	struct fx_buf b;
	struct mmchal_sg sg;
	struct mmchal_cmd c = {.opcode = 25, .arg = 8, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {MMCHAL_DIR_TO_CARD, 512, 4, &sg, 1, 0, 0, 0};
	struct mmchal_xfer x = {&c, &d, true, MMCHAL_PLAN_PIO, NULL, 0, NULL};
	uint32_t ev, moved, blocks = 99;

	(void)state;
	o.kind = MMCHAL_SDHI_PIO;
	assert_int_equal(fx_open(&f, &o), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	fx_buf_get(&f, f.lo, 4 * 512, 0, &b);
	sg.cpu = b.p;
	sg.phys = b.phys;
	sg.len = 4 * 512;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	ev = fx_wait(&f, &x);
	assert_true(ev & MMCHAL_EV_DATA_DONE);
	assert_int_equal(f.be.ops->card_busy(f.be.ctx), 0);
	assert_int_equal(mmchal_sim_card_state(f.sim), MMCHAL_SIM_ST_TRAN);
	/* R1b CMD6: done together with the busy end */
	assert_int_equal(fx_cmd(&f, 6, (3u << 24) | (185u << 16) | (1u << 8), MMCHAL_RSP_R1B), 0);
	assert_int_equal(f.be.ops->card_busy(f.be.ctx), 0);
	/* abort a read after its first block */
	c.opcode = 18;
	d.dir = MMCHAL_DIR_FROM_CARD;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	for (int i = 0; i < 1000 && f.sdhi.blocks_done < 1; i++) {
		mmchal_sim_run(f.sim, mmchal_sim_now(f.sim) + 5000);
		assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
		assert_int_equal(ev & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR), 0);
	}
	/* a read block is complete once it left the buffer: all of them count */
	moved = f.sdhi.blocks_done;
	assert_true(moved >= 1 && moved < 4);
	assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	assert_int_equal(f.be.ops->blocks_done(f.be.ctx, &blocks), 0);
	assert_int_equal(blocks, moved);
	assert_int_equal(d.bytes_xfered, blocks * 512u);
	/* the controller takes the next command: stop the card, then read again */
	assert_int_equal(fx_cmd(&f, 12, 0, MMCHAL_RSP_R1B), 0);
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	assert_true(fx_wait(&f, &x) & MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.bytes_xfered, 4 * 512);
	/* a write aborted before its first block: none is on the card */
	c.opcode = 25;
	d.dir = MMCHAL_DIR_TO_CARD;
	assert_int_equal(f.be.ops->start(f.be.ctx, &x), 0);
	assert_int_equal(f.sdhi.blocks_done, 0);
	assert_int_equal(f.be.ops->abort(f.be.ctx), 0);
	assert_int_equal(f.be.ops->blocks_done(f.be.ctx, &blocks), 0);
	assert_int_equal(blocks, 0);
	assert_int_equal(d.bytes_xfered, 0);
	fx_buf_guards(&b);
	fx_close(&f);
}

/* Init clears the whole instance: storage full of 1s comes out unprobed, idle and
   with zero statistics, and every op that needs a probe refuses. */
static void test_init_clears_storage(void **state)
{
	struct mmchal_sdhi_stats st;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	struct mmchal_sdhi s;
	struct mmchal_backend be;
	struct mmchal_ios ios = {0};
	struct mmchal_cmd c = {0};
	struct mmchal_xfer x = {.cmd = &c};
	uint32_t ev, blocks = 1;
	struct fx f;

	(void)state;
	assert_int_equal(fx_open(&f, &gen3_mmc), 0);
	memset(&s, 0xff, sizeof(s));
	assert_int_equal(mmchal_sdhi_idmac_init(&s, &f.cfg, &be), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), MMCHAL_EINVAL);
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_EINVAL);
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	assert_int_equal(be.ops->handle_irq(be.ctx, &ev), MMCHAL_EINVAL);
	assert_int_equal(be.ops->abort(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->card_busy(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->get_cd(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->get_ro(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->enable_sdio_irq(be.ctx, true), MMCHAL_EINVAL);
	assert_int_equal(be.ops->blocks_done(be.ctx, &blocks), 0);
	assert_int_equal(blocks, 0);
	assert_int_equal(mmchal_sdhi_get_stats(&s, &st), 0);
	assert_int_equal(st.requests, 0);
	assert_int_equal(st.soft_resets, 0);
	assert_int_equal(st.dma_errors, 0);
	assert_int_equal(st.pio_fallbacks, 0);
	fx_close(&f);
}

static void test_write_protect(void **state)
{
	struct mmchal_sim_card_config cc;
	struct fx f;
	struct fx_opts o = gen3_mmc;

	(void)state;
	o.card = MMCHAL_SIM_CARD_NONE;
	assert_int_equal(fx_open(&f, &o), 0);
	assert_int_equal(f.be.ops->get_cd(f.be.ctx), 0);
	assert_int_equal(fx_cmd(&f, 0, 0, MMCHAL_RSP_NONE), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc), 0);
	cc.write_protect = true;
	assert_int_equal(mmchal_sim_card_insert(f.sim, &cc), 0);
	assert_int_equal(f.be.ops->get_cd(f.be.ctx), 1);
	assert_int_equal(f.be.ops->get_ro(f.be.ctx), 1);
	fx_close(&f);
	/* a non-removable slot is always present */
	o.extra_bus = MMCHAL_BUS_NONREMOVABLE;
	assert_int_equal(fx_open(&f, &o), 0);
	assert_int_equal(f.be.ops->get_cd(f.be.ctx), 1);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_checks),
		cmocka_unit_test(test_probe_versions),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_clock_divider),
		cmocka_unit_test(test_width_ddr_and_reset),
		cmocka_unit_test(test_sd_responses),
		cmocka_unit_test(test_start_checks),
		cmocka_unit_test(test_busy_and_abort),
		cmocka_unit_test(test_write_protect),
		cmocka_unit_test(test_init_clears_storage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
