/*
 * SDHCI backend (src/backends/sdhci/) against a small register model behind
 * the bus accessor: capability decoding, DMA mode choice, clock divider,
 * power, command register bits, R2 decoding, PIO through the data port,
 * ADMA2 descriptors and SDMA programming, every error the controller can
 * report (which QEMU's controller cannot produce), busy, card events, abort
 * and argument checks. The QEMU runs under tests/target/sdhci/ prove the
 * same backend against an independent controller and card.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "sdhci_model.h"

/* ---------------------------------------------------------------- tests */

static void test_init_rejects(void **state)
{
	struct mmchal_sdhci_cfg c;

	(void)state;
	model_reset(0x2402, CAPS_QEMU_V3);
	c = base_cfg();
	assert_int_equal(mmchal_sdhci_init(NULL, &c, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sdhci_init(&h, NULL, NULL), MMCHAL_EINVAL);
	c.bus.bus_shift = 1;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), MMCHAL_EINVAL);
	c = base_cfg();
	c.port = NULL;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), MMCHAL_EINVAL);
	c = base_cfg();
	c.bus_width = 2;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), MMCHAL_EINVAL);
	c = base_cfg();
	c.dma = (enum mmchal_sdhci_dma)9;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), MMCHAL_EINVAL);
	c = base_cfg();
	c.adma_table_size = 0;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), MMCHAL_EINVAL);
	c = base_cfg();
	c.adma_table_dma = TABLE_DMA + 4;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), MMCHAL_EINVAL);
	c = base_cfg();
	c.dma = MMCHAL_SDHCI_DMA_ADMA2_64;
	c.adma_table_size = 8;
	assert_int_equal(mmchal_sdhci_init(&h, &c, NULL), MMCHAL_EINVAL);
	/* Nothing above touched a register. */
	assert_int_equal(m.nresets, 0);

	c = base_cfg();
	be.ops = NULL;
	assert_int_equal(mmchal_sdhci_init(&h, &c, &be), 0);
	assert_ptr_equal(be.ops, &mmchal_sdhci_ops);
	assert_ptr_equal(be.ctx, &h);
	assert_int_equal(mmchal_backend_check(&be), 0);
	assert_string_equal(mmchal_sdhci_dma_name(MMCHAL_SDHCI_DMA_ADMA2_64), "adma2-64");
	assert_string_equal(mmchal_sdhci_dma_name((enum mmchal_sdhci_dma)7), "unknown");
}

static void test_probe_v3(void **state)
{
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;

	(void)state;
	up_ok(0x2402, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(h.spec, 2);
	assert_int_equal(h.vendor, 0x24);
	assert_int_equal(h.base_hz, 52000000u);
	assert_int_equal(h.tmclk_hz, 52000000u);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_ADMA2_64);
	assert_int_equal(h.max_segs, MMCHAL_SDHCI_ADMA_TABLE_SIZE(8) / 12u);
	/* One reset-all write; status enables set, signals off (polled). */
	assert_int_equal(m.nresets, 1);
	assert_int_equal(m.resets[0], 1);
	assert_int_equal(get32(0x34), 0x03ff00fbu);
	assert_int_equal(get32(0x38), 0);
	assert_int_equal(m.r8[0x2e], 0x0e);

	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.bus, MMCHAL_BUS_4_BIT | MMCHAL_BUS_SD_HS | MMCHAL_BUS_MMC_HS |
					 MMCHAL_BUS_CMD23 | MMCHAL_BUS_AUTO_CMD12 |
					 MMCHAL_BUS_HW_BUSY | MMCHAL_BUS_SDIO_IRQ);
	assert_int_equal(hc.f_min_hz, 25416u); /* 52 MHz / 2046, rounded up */
	assert_int_equal(hc.f_max_hz, 52000000u);
	assert_int_equal(hc.blk_count_bits, 16);
	assert_int_equal(hc.max_blk_size, 512);
	assert_int_equal(hc.completion, MMCHAL_COMPLETES_POLLED);
	assert_int_equal(dc.kind, MMCHAL_DMA_INTERNAL);
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		assert_int_equal(dc.dir[d].addr_bits, 64);
		assert_int_equal(dc.dir[d].addr_align, 4);
		assert_int_equal(dc.dir[d].max_segs, h.max_segs);
		assert_int_equal(dc.dir[d].max_seg_size, 65536);
		assert_int_equal(dc.dir[d].seg_boundary, 0);
		assert_false(dc.dir[d].coherent);
	}

	/* UHS-I from the second capabilities word: SDR50 without tuning, DDR50. */
	model_reset(0x0002, CAPS_QEMU_V3 | (1u << 26));
	m.caps1 = (1u << 0) | (1u << 2);
	{
		struct mmchal_sdhci_cfg c = base_cfg();

		c.flags = MMCHAL_SDHCI_F_IRQ | MMCHAL_SDHCI_F_COHERENT |
			  MMCHAL_SDHCI_F_NONREMOVABLE;
		c.f_max_hz = 25000000u;
		assert_int_equal(up(&c), 0);
	}
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.bus & (MMCHAL_BUS_1_8V | MMCHAL_BUS_UHS_SDR12 | MMCHAL_BUS_UHS_SDR25 |
				   MMCHAL_BUS_UHS_SDR50 | MMCHAL_BUS_UHS_DDR50 |
				   MMCHAL_BUS_UHS_SDR104 | MMCHAL_BUS_NONREMOVABLE),
			 MMCHAL_BUS_1_8V | MMCHAL_BUS_UHS_SDR12 | MMCHAL_BUS_UHS_SDR25 |
				 MMCHAL_BUS_UHS_SDR50 | MMCHAL_BUS_UHS_DDR50 |
				 MMCHAL_BUS_NONREMOVABLE);
	assert_int_equal(hc.f_max_hz, 25000000u);
	assert_int_equal(hc.completion, MMCHAL_COMPLETES_IN_IRQ);
	assert_true(dc.dir[0].coherent);
	/* With an interrupt line the signal enables follow the status enables, and
	   non-removable drops the card insert/remove interrupts. */
	assert_int_equal(get32(0x38), 0x03ff003bu);
	assert_int_equal(get32(0x34), 0x03ff003bu);
}

static void test_probe_zynq(void **state)
{
	struct mmchal_sdhci_cfg c;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;

	(void)state;
	/* No base clock in the capabilities and none configured. */
	model_reset(0x8901, CAPS_ZYNQ);
	c = base_cfg();
	assert_int_equal(up(&c), MMCHAL_EINVAL);
	assert_false(h.probed);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), MMCHAL_EINVAL);

	c.base_clock_hz = 50000000u;
	c.bus_width = 8;
	assert_int_equal(up(&c), 0);
	assert_int_equal(h.spec, 1);
	assert_int_equal(h.base_hz, 50000000u);
	assert_int_equal(h.tmclk_hz, 0);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_ADMA2_32);
	assert_int_equal(h.max_segs, MMCHAL_SDHCI_ADMA_TABLE_SIZE(8) / 8u);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	/* An embedded slot type does not make the slot non-removable. */
	assert_int_equal(hc.bus & (MMCHAL_BUS_8_BIT | MMCHAL_BUS_NONREMOVABLE), MMCHAL_BUS_8_BIT);
	assert_int_equal(hc.f_min_hz, 195313u); /* 50 MHz / 256, rounded up */
	assert_int_equal(dc.dir[1].addr_bits, 32);

	/* ADMA2-64 needs the 64-bit system bus. */
	model_reset(0x8901, CAPS_ZYNQ);
	c.dma = MMCHAL_SDHCI_DMA_ADMA2_64;
	assert_int_equal(up(&c), MMCHAL_ENOTSUP);
	/* The 32-bit ADMA system address cannot reach a table above 4 GiB. */
	c.dma = MMCHAL_SDHCI_DMA_ADMA2_32;
	c.adma_table_dma = 0x100000000ull;
	assert_int_equal(up(&c), MMCHAL_EINVAL);
	/* AUTO then falls back to SDMA. */
	c.dma = MMCHAL_SDHCI_DMA_AUTO;
	assert_int_equal(up(&c), 0);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_SDMA);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(dc.dir[0].max_segs, 1);
	assert_int_equal(dc.dir[0].max_seg_size, 512u * 1024u);
	assert_int_equal(dc.dir[0].seg_boundary, 512u * 1024u - 1u);
	assert_int_equal(dc.dir[0].max_xfer, 512u * 1024u);
}

static void test_probe_pio_only(void **state)
{
	struct mmchal_sdhci_cfg c;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;

	(void)state;
	model_reset(0x0001, 0x01003200u); /* 50 MHz, 3.3 V, no SDMA, no ADMA2 */
	c = base_cfg();
	assert_int_equal(up(&c), 0);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_NONE);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(dc.kind, MMCHAL_DMA_NONE);
	assert_int_equal(hc.bus & (MMCHAL_BUS_SD_HS | MMCHAL_BUS_1_8V), 0);
	c.dma = MMCHAL_SDHCI_DMA_SDMA;
	assert_int_equal(up(&c), MMCHAL_ENOTSUP);
	c.dma = MMCHAL_SDHCI_DMA_ADMA2_32;
	assert_int_equal(up(&c), MMCHAL_ENOTSUP);
	/* A reset that never ends. */
	c.dma = MMCHAL_SDHCI_DMA_NONE;
	m.reset_stuck = true;
	assert_int_equal(up(&c), MMCHAL_ETIMEDOUT);
}

static void test_clock(void **state)
{
	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	/* v3.00: N = ceil(52 MHz / (2 x 400 kHz)) = 65, exactly 400 kHz. */
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	assert_int_equal(h.clock_hz, 400000u);
	assert_int_equal(get16(0x2c), (65u << 8) | 0x5u);
	/* 25 MHz: 52 / 2 = 26 MHz would be too fast, N = 2 gives 13 MHz. */
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(h.clock_hz, 13000000u);
	assert_int_equal(power_on(52000000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(h.clock_hz, 52000000u);
	assert_int_equal(get16(0x2c), 0x5u);
	/* N = 1000 uses the upper divider bits 7:6. */
	assert_int_equal(power_on(26000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(get16(0x2c), ((1000u & 0xffu) << 8) | (3u << 6) | 0x5u);
	assert_int_equal(power_on(10000, MMCHAL_BUS_WIDTH_4), MMCHAL_ERANGE);
	assert_int_equal(h.clock_hz, 0);
	m.clock_stuck = true;
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), MMCHAL_ETIMEDOUT);
	assert_int_equal(get16(0x2c) & 0x4u, 0); /* the card clock stays off */

	/* v2.00: powers of two; 400 kHz from 52 MHz is 52 / 256 = 203125 Hz. */
	up_ok(0x0001, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	assert_int_equal(h.clock_hz, 203125u);
	assert_int_equal(get16(0x2c), (0x80u << 8) | 0x5u);
	assert_int_equal(power_on(26000000, MMCHAL_BUS_WIDTH_1), 0);
	assert_int_equal(get16(0x2c), (0x01u << 8) | 0x5u);
	assert_int_equal(power_on(100000, MMCHAL_BUS_WIDTH_1), MMCHAL_ERANGE);
}

static void test_power_and_bus(void **state)
{
	struct mmchal_ios ios = {.bus_width = MMCHAL_BUS_WIDTH_4, .power_mode = MMCHAL_POWER_ON};

	(void)state;
	up_ok(0x0001, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_4), 0);
	/* 3.3 V and bus power; 4-bit. */
	assert_int_equal(get16(0x28), 0x0f02u);
	ios.timing = MMCHAL_TIMING_SD_HS;
	ios.clock_hz = 50000000;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x28), 0x0f06u);
	ios.timing = MMCHAL_TIMING_MMC_HS200;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);
	ios.timing = MMCHAL_TIMING_UHS_SDR50;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);
	ios.timing = MMCHAL_TIMING_LEGACY;
	ios.signal_voltage = MMCHAL_SIGNAL_180; /* v2.00: no Host Control 2 */
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);
	ios.signal_voltage = MMCHAL_SIGNAL_330;
	ios.bus_width = MMCHAL_BUS_WIDTH_8; /* wired 4 (the default) */
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_EINVAL);
	ios.bus_width = (enum mmchal_bus_width)2;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_EINVAL);
	assert_int_equal(be.ops->set_ios(be.ctx, NULL), MMCHAL_EINVAL);
	ios.bus_width = MMCHAL_BUS_WIDTH_1;
	ios.power_mode = MMCHAL_POWER_OFF;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x28) & 0xff00u, 0);
	assert_int_equal(h.clock_hz, 0);

	/* The controller drops bus power: no card, or the voltage is refused. */
	m.power_drops = true;
	m.present &= ~(1u << 16);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), MMCHAL_ENOMEDIUM);
	m.present |= 1u << 16;
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), MMCHAL_ENOTSUP);

	/* v3.00: UHS mode select and the 1.8 V switch in Host Control 2. */
	model_reset(0x0002, CAPS_QEMU_V3 | (1u << 26));
	m.caps1 = 1u << 2;
	{
		struct mmchal_sdhci_cfg c = base_cfg();

		assert_int_equal(up(&c), 0);
	}
	ios.power_mode = MMCHAL_POWER_ON;
	ios.timing = MMCHAL_TIMING_UHS_DDR50;
	ios.signal_voltage = MMCHAL_SIGNAL_180;
	ios.clock_hz = 50000000;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x3e), 0x0cu);
	assert_int_equal(get16(0x28) & 0x04u, 0x04u);
}

static void test_command_bits(void **state)
{
	static const struct {
		uint32_t op, flags;
		uint16_t bits;
	} t[] = {
		{0, MMCHAL_RSP_NONE, 0x0000}, {8, MMCHAL_RSP_R7, 0x081a},
		{41, MMCHAL_RSP_R3, 0x2902},  {2, MMCHAL_RSP_R2, 0x0209},
		{7, MMCHAL_RSP_R1B, 0x071b},  {12, MMCHAL_RSP_R1B, 0x0cdb},
	};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct mmchal_cmd c = {.opcode = t[i].op, .arg = 0x1aa + i, .flags = t[i].flags};
		struct mmchal_xfer x = {.cmd = &c};
		uint32_t ev;

		m.resp[0] = 0x900 + i;
		assert_int_equal(be.ops->start(be.ctx, &x), 0);
		assert_int_equal(m.last_cmd, t[i].bits);
		assert_int_equal(m.last_mode, 0);
		assert_int_equal(get32(0x08), 0x1aa + i);
		ev = model_poll();
		if (t[i].flags & MMCHAL_RSP_BUSY)
			assert_int_equal(ev, MMCHAL_EV_CMD_DONE | MMCHAL_EV_BUSY_DONE);
		else
			assert_int_equal(ev, MMCHAL_EV_CMD_DONE);
		assert_int_equal(c.error, 0);
		if (t[i].flags == MMCHAL_RSP_R7)
			assert_int_equal(c.resp[0], 0x900 + i);
	}
	/* R2: the registers hold bits 127:8 as 119:0. */
	{
		struct mmchal_cmd c = {.opcode = 2, .flags = MMCHAL_RSP_R2};
		struct mmchal_xfer x = {.cmd = &c};

		m.resp[0] = 0x44332211u;
		m.resp[1] = 0x88776655u;
		m.resp[2] = 0xccbbaa99u;
		m.resp[3] = 0x00ffeeddu;
		assert_int_equal(be.ops->start(be.ctx, &x), 0);
		assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
		assert_int_equal(c.resp[0], 0xffeeddccu);
		assert_int_equal(c.resp[1], 0xbbaa9988u);
		assert_int_equal(c.resp[2], 0x77665544u);
		assert_int_equal(c.resp[3], 0x33221100u);
	}
	/* Nothing pending: no events. */
	assert_int_equal(model_poll(), 0);
}

static void test_start_rejects(void **state)
{
	uint8_t buf[1024];
	struct mmchal_sg sg = {.cpu = buf, .len = 512};
	struct mmchal_dma_seg seg = {.addr = 0x2000, .len = 512};
	struct mmchal_cmd c = {.opcode = 17, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d};
	unsigned int n;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_ADMA2_32);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	n = m.ncmds;
	assert_int_equal(be.ops->start(NULL, &x), MMCHAL_EINVAL);
	assert_int_equal(be.ops->start(be.ctx, NULL), MMCHAL_EINVAL);
	c.opcode = 64;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	c.opcode = 17;
	c.flags = MMCHAL_RSP_136 | MMCHAL_RSP_BUSY | MMCHAL_RSP_PRESENT;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	c.flags = MMCHAL_RSP_CRC;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	c.flags = MMCHAL_RSP_R1;
	d.blksz = 0;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	d.blksz = 1024; /* above the 512 bytes of the capabilities */
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	d.blksz = 512;
	d.blocks = 0x10000;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	d.blocks = 2; /* the list holds one block */
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	d.blocks = 1;
	sg.cpu = NULL;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	sg.cpu = buf;
	/* DMA plans: the segment list. */
	x.plan = MMCHAL_PLAN_DIRECT;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL); /* no segs */
	x.segs = &seg;
	x.nsegs = h.max_segs + 1u;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	x.nsegs = 1;
	seg.addr = 0x2002;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	seg.addr = 0xfffffe00u + 4u;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_ERANGE);
	seg.addr = 0x2000;
	seg.len = 256;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	seg.len = 512;
	x.auto_stop = true;
	x.data = NULL;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	x.auto_stop = false;
	x.data = &d;
	/* Command inhibit that never clears. */
	m.inhibit_stuck = true;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EBUSY);
	m.inhibit_stuck = false;
	assert_int_equal(m.ncmds, n);
	/* One in flight: a second start is refused. */
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EBUSY);
	assert_int_equal(m.ncmds, n + 1u);

	/* SDMA: one segment, inside a 512 KiB window. */
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_SDMA);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	seg.addr = 0x7fe00u + 256u;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	/* PIO only: no DMA plan. */
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_NONE);
	seg.addr = 0x2000;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
}

static void test_pio(void **state)
{
	uint8_t a[1001], b[23], cbuf[1024];
	struct mmchal_sg sg[3] = {{.cpu = a, .len = sizeof(a)},
				  {.cpu = b, .len = sizeof(b)},
				  {.cpu = cbuf, .len = sizeof(cbuf)}};
	struct mmchal_cmd c = {.opcode = 18, .arg = 7, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 4, .sg = sg, .sg_len = 3};
	struct mmchal_xfer x = {.cmd = &c, .data = &d, .auto_stop = true};
	uint32_t done;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	for (unsigned int i = 0; i < sizeof(m.card); i++)
		m.card[i] = (uint8_t)(i * 7u + 3u);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	/* Block count enable, read, multi-block, auto-CMD12; 512-byte blocks, 512 KiB boundary. */
	assert_int_equal(m.last_mode, 0x36);
	assert_int_equal(m.last_cmd, 0x123a);
	assert_int_equal(get16(0x04), 0x7200);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.bytes_xfered, 2048);
	assert_int_equal(d.error, 0);
	assert_memory_equal(a, m.card, sizeof(a));
	assert_memory_equal(b, m.card + sizeof(a), sizeof(b));
	assert_memory_equal(cbuf, m.card + sizeof(a) + sizeof(b), sizeof(cbuf));
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 4);

	/* Write the same list back, one block: CMD24 without auto-CMD12. */
	memset(m.card, 0, sizeof(m.card));
	sg[0].len = 500;
	sg[1].len = 12;
	c.opcode = 24;
	d.dir = MMCHAL_DIR_TO_CARD;
	d.blocks = 1;
	d.sg_len = 2;
	x.auto_stop = false;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(m.last_mode, 0x02);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_memory_equal(m.card, a, 500);
	assert_memory_equal(m.card + 500, b, 12);
	assert_int_equal(m.card[512], 0);
}

static void test_adma_descriptors(void **state)
{
	struct mmchal_dma_seg segs[3] = {{0x4000, 512}, {0x12345678, 65536}, {0x8004, 1024}};
	struct mmchal_sg sg = {.len = 1};
	struct mmchal_cmd c = {.opcode = 25, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_TO_CARD, .blksz = 512, .blocks = 131, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c,
				.data = &d,
				.plan = MMCHAL_PLAN_DIRECT,
				.segs = segs,
				.nsegs = 3,
				.auto_stop = true};
	const uint8_t *t = m.mem + TABLE_DMA;
	static const uint8_t want32[24] = {
		0x21, 0,    0x00, 0x02, 0x00, 0x40, 0x00, 0x00, 0x21, 0,    0x00, 0x00,
		0x78, 0x56, 0x34, 0x12, 0x23, 0,    0x00, 0x04, 0x04, 0x80, 0x00, 0x00,
	};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_ADMA2_32);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_memory_equal(t, want32, sizeof(want32));
	/* nothing written past the last descriptor */
	for (unsigned int i = sizeof(want32); i < sizeof(want32) + 16u; i++)
		assert_int_equal(t[i], 0);
	assert_int_equal(cleans, 1);
	assert_ptr_equal(clean_addr, t);
	assert_int_equal(clean_len, 24);
	assert_int_equal(get32(0x58), TABLE_DMA);
	assert_int_equal(m.r8[0x28] & 0x18u, 0x10u);
	assert_int_equal(m.last_mode, 0x27); /* DMA, count, auto-CMD12, multi, write */
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.bytes_xfered, 131u * 512u);

	/* 64-bit: 12-byte descriptors with address bits 63:32, table address high half. */
	{
		struct mmchal_sdhci_cfg cfg = base_cfg();

		model_reset(0x0002, CAPS_QEMU_V3);
		cfg.adma_table_dma = 0x200001000ull;
		cfg.flags = MMCHAL_SDHCI_F_COHERENT;
		assert_int_equal(up(&cfg), 0);
	}
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_ADMA2_64);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	segs[1].addr = 0x123456780ull;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(t[12], 0x21);
	assert_int_equal(t[14] | t[15], 0); /* 65536 as length 0 */
	assert_int_equal(t[16] | t[17] << 8 | t[18] << 16 | (uint32_t)t[19] << 24, 0x23456780u);
	assert_int_equal(t[20], 0x01);
	assert_int_equal(t[24], 0x23);
	assert_int_equal(get32(0x58), 0x1000u);
	assert_int_equal(get32(0x5c), 0x2u);
	assert_int_equal(m.r8[0x28] & 0x18u, 0x18u);
	assert_int_equal(cleans, 0); /* coherent: no cache maintenance */
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
}

static void test_sdma(void **state)
{
	struct mmchal_dma_seg seg = {0x80000, 4096};
	struct mmchal_sg sg = {.len = 1};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 8, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {
		.cmd = &c, .data = &d, .plan = MMCHAL_PLAN_BOUNCED, .segs = &seg, .nsegs = 1};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_SDMA);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(get32(0x00), 0x80000u);
	assert_int_equal(m.sdma_writes, 1);
	assert_int_equal(m.r8[0x28] & 0x18u, 0);
	assert_int_equal(m.last_mode, 0x33);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(m.sdma_writes, 1);
	/* A DMA interrupt at a boundary: the address register is written again;
	   at no other interrupt. */
	m.norm |= 1u << 3;
	assert_int_equal(model_poll(), 0);
	assert_int_equal(m.sdma_writes, 2);
	m.norm |= 1u << 1;
	assert_int_equal(model_poll(), MMCHAL_EV_DATA_DONE);
	assert_int_equal(d.bytes_xfered, 4096);
	assert_int_equal(m.sdma_writes, 2);
}

static void test_errors(void **state)
{
	static const struct {
		uint16_t err;
		bool data;
		int cmd_error, data_error;
	} t[] = {
		{1u << 0, false, MMCHAL_ETIMEDOUT, 0},
		{1u << 1, false, MMCHAL_EIO, 0},
		{1u << 2, false, MMCHAL_EIO, 0},
		{1u << 3, false, MMCHAL_EPROTO, 0},
		{1u << 0, true, MMCHAL_ETIMEDOUT, MMCHAL_ECANCELED},
	};
	uint8_t buf[2048];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 4, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .auto_stop = true};
	uint32_t done;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t want = MMCHAL_EV_CMD_ERROR | (t[i].data ? MMCHAL_EV_DATA_ERROR : 0);

		x.data = t[i].data ? &d : NULL;
		x.auto_stop = t[i].data;
		m.cmd_err = t[i].err;
		m.nresets = 0;
		assert_int_equal(be.ops->start(be.ctx, &x), 0);
		assert_int_equal(model_poll(), want);
		assert_int_equal(c.error, t[i].cmd_error);
		if (t[i].data)
			assert_int_equal(d.error, t[i].data_error);
		/* CMD then DAT line, one write each. */
		assert_int_equal(m.nresets, 2);
		assert_int_equal(m.resets[0], 2);
		assert_int_equal(m.resets[1], 4);
	}
	m.cmd_err = 0;

	/* Data phase errors after a good response; the counter says 3 blocks are left. */
	{
		static const struct {
			uint16_t err;
			int error;
		} e[] = {
			{1u << 4, MMCHAL_ETIMEDOUT}, {1u << 5, MMCHAL_EIO},
			{1u << 6, MMCHAL_EIO},       {1u << 9, MMCHAL_EFAULT},
			{1u << 8, MMCHAL_ETIMEDOUT},
		};

		x.data = &d;
		x.auto_stop = true;
		for (unsigned int i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
			m.hold_xfer = true;
			assert_int_equal(be.ops->start(be.ctx, &x), 0);
			assert_int_equal(model_poll() & MMCHAL_EV_CMD_DONE, MMCHAL_EV_CMD_DONE);
			m.reading = false;
			m.blkcnt = 3;
			m.err |= e[i].err;
			put16(0x3c, 1u << 1); /* auto-CMD12 timeout */
			m.nresets = 0;
			assert_int_equal(model_poll(), MMCHAL_EV_DATA_ERROR);
			assert_int_equal(d.error, e[i].error);
			assert_int_equal(m.nresets, 2);
			assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
			assert_int_equal(done, 1);
			assert_int_equal(d.bytes_xfered, done * 512u);
		}
		put16(0x3c, 0);
	}
	m.hold_xfer = false;

	/* A written block counted by the controller may still fail: one less is reported. */
	{
		struct mmchal_dma_seg seg = {0x2000, 2048};

		x.plan = MMCHAL_PLAN_DIRECT;
		x.segs = &seg;
		x.nsegs = 1;
		d.dir = MMCHAL_DIR_TO_CARD;
		c.opcode = 25;
		m.hold_xfer = true;
		assert_int_equal(be.ops->start(be.ctx, &x), 0);
		assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
		m.blkcnt = 1; /* 3 blocks have left the controller */
		assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
		assert_int_equal(done, 2);
		m.err |= 1u << 5;
		assert_int_equal(model_poll(), MMCHAL_EV_DATA_ERROR);
		assert_int_equal(d.bytes_xfered, 1024);
		m.hold_xfer = false;
	}
}

/*
 * Auto CMD12: its R1 from Response bits 127:96 (2.2.7) lands in the STOP, not
 * the data command's from bits 31:0; an Auto CMD Error after the last block
 * (counter at 0) is the STOP's error with the data complete; one before it, or
 * with Auto CMD12 Not Executed or without any error bit of the STOP, is the
 * data phase's; no auto_stop, no STOP.
 */
static void test_auto_cmd12(void **state)
{
	static const struct {
		uint16_t status; /* Auto CMD Error Status */
		uint16_t blkcnt; /* blocks left */
		int stop_error;  /* 0: a data error instead */
		int data_error;
	} t[] = {
		{1u << 1, 0, MMCHAL_ETIMEDOUT, 0},
		{1u << 2, 0, MMCHAL_EIO, 0},
		{1u << 3, 0, MMCHAL_EIO, 0},
		{1u << 4, 0, MMCHAL_EPROTO, 0},
		{(1u << 0) | (1u << 1), 0, 0, MMCHAL_ETIMEDOUT},
		{1u << 7, 0, 0, MMCHAL_EIO},
		{1u << 2, 2, 0, MMCHAL_EIO},
		{0, 0, 0, MMCHAL_EIO},
		{1u << 5, 0, 0, MMCHAL_EIO},
	};
	uint8_t buf[2048];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_dma_seg seg = {0x2000, 2048};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_cmd stop = {.opcode = 12, .flags = MMCHAL_RSP_R1B};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 4, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d, .auto_stop = true, .stop = &stop};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	for (unsigned int i = 0; i < sizeof(m.card); i++)
		m.card[i] = (uint8_t)(i * 5u + 1u);

	/* PIO read: CMD18's R1 (tran) in bits 31:0, CMD12's (data state) in 127:96 */
	m.resp[0] = 0x00000900u;
	m.resp[3] = 0x00000b00u;
	stop.error = 1;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(stop.error, 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(c.resp[0], 0x00000900u);
	assert_int_equal(stop.resp[0], 0x00000b00u);
	assert_int_equal(d.error, 0);
	assert_memory_equal(buf, m.card, sizeof(buf));

	/* DMA write: CMD12 received in rcv */
	x.plan = MMCHAL_PLAN_DIRECT;
	x.segs = &seg;
	x.nsegs = 1;
	c.opcode = 25;
	d.dir = MMCHAL_DIR_TO_CARD;
	m.resp[3] = 0x00000d00u;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(m.last_mode & 0x04u, 0x04u);
	assert_int_equal(stop.resp[0], 0x00000d00u);
	assert_int_equal(stop.error, 0);

	/* without auto_stop the STOP is not touched */
	x.auto_stop = false;
	stop.resp[0] = 0xdeadbeefu;
	stop.error = 1;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(m.last_mode & 0x04u, 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(stop.resp[0], 0xdeadbeefu);
	assert_int_equal(stop.error, 1);
	x.auto_stop = true;

	/* Auto CMD errors */
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		stop.resp[0] = 0xdeadbeefu;
		m.hold_xfer = true;
		assert_int_equal(be.ops->start(be.ctx, &x), 0);
		assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
		m.blkcnt = t[i].blkcnt;
		m.err |= 1u << 8;
		put16(0x3c, t[i].status);
		m.nresets = 0;
		if (t[i].stop_error) {
			assert_int_equal(model_poll(), MMCHAL_EV_DATA_DONE);
			assert_int_equal(d.error, 0);
			assert_int_equal(d.bytes_xfered, 2048);
			assert_int_equal(stop.error, t[i].stop_error);
		} else {
			assert_int_equal(model_poll(), MMCHAL_EV_DATA_ERROR);
			assert_int_equal(d.error, t[i].data_error);
			assert_int_equal(stop.error, 0);
		}
		assert_int_equal(stop.resp[0], 0xdeadbeefu);
		/* CMD then DAT line */
		assert_int_equal(m.nresets, 2);
		assert_int_equal(m.resets[0], 2);
		assert_int_equal(m.resets[1], 4);
	}
	put16(0x3c, 0);
	m.hold_xfer = false;
}

static void test_busy(void **state)
{
	struct mmchal_cmd c = {.opcode = 7, .arg = 0x45670000, .flags = MMCHAL_RSP_R1B};
	struct mmchal_xfer x = {.cmd = &c};

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), 0);
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	/* DAT0 low while busy. */
	m.present &= ~(1u << 20);
	assert_int_equal(be.ops->card_busy(be.ctx), 1);
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EBUSY);
	m.present |= 1u << 20;
	assert_int_equal(be.ops->card_busy(be.ctx), 0);
	m.norm |= 1u << 1;
	assert_int_equal(model_poll(), MMCHAL_EV_BUSY_DONE);
	/* Busy that outlasts the data timeout. */
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	m.err |= 1u << 4;
	m.nresets = 0;
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_ERROR);
	assert_int_equal(c.error, MMCHAL_ETIMEDOUT);
	assert_int_equal(m.nresets, 2);
}

static void test_card_events(void **state)
{
	struct mmchal_sdhci_cfg cfg;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(be.ops->get_cd(be.ctx), 1);
	assert_int_equal(be.ops->get_ro(be.ctx), 0);
	m.present &= ~((1u << 16) | (1u << 19));
	assert_int_equal(be.ops->get_cd(be.ctx), 0);
	assert_int_equal(be.ops->get_ro(be.ctx), 1);
	m.norm |= 1u << 7;
	assert_int_equal(model_poll(), MMCHAL_EV_CARD_CHANGE);
	assert_int_equal(m.norm, 0);

	/* SDIO card interrupt: reported once, then masked until enabled again. */
	assert_int_equal(be.ops->enable_sdio_irq(be.ctx, true), 0);
	assert_int_equal(get32(0x34) & (1u << 8), 1u << 8);
	m.norm |= 1u << 8;
	m.acked = 0;
	assert_int_equal(model_poll(), MMCHAL_EV_SDIO_IRQ);
	assert_int_equal(get32(0x34) & (1u << 8), 0);
	/* neither the card interrupt (cleared at the card) nor the summary bit acked */
	assert_int_equal(m.acked & ((1u << 8) | (1u << 15)), 0);
	assert_int_equal(be.ops->enable_sdio_irq(be.ctx, false), 0);

	cfg = base_cfg();
	cfg.flags = MMCHAL_SDHCI_F_NONREMOVABLE;
	assert_int_equal(up(&cfg), 0);
	assert_int_equal(be.ops->get_cd(be.ctx), 1);
	assert_int_equal(be.ops->get_ro(be.ctx), 0);
	cfg.flags = MMCHAL_SDHCI_F_BROKEN_CD;
	assert_int_equal(up(&cfg), 0);
	assert_int_equal(be.ops->get_cd(be.ctx), MMCHAL_ENOTSUP);
	assert_int_equal(get32(0x34) & 0xc0u, 0);
}

static void test_abort(void **state)
{
	uint8_t buf[1024];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 2, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d};
	uint32_t done = 9;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	/* The card sends nothing: the core's timeout aborts. */
	m.hold_xfer = true;
	m.cmd_err = 0;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	m.reading = false;
	m.present &= ~(1u << 11);
	m.nresets = 0;
	assert_int_equal(be.ops->abort(be.ctx), 0);
	assert_int_equal(m.nresets, 2);
	assert_int_equal(m.resets[0], 2);
	assert_int_equal(m.resets[1], 4);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 0);
	/* Ready for the next command. */
	m.hold_xfer = false;
	m.norm = 0;
	{
		struct mmchal_cmd s = {.opcode = 13, .flags = MMCHAL_RSP_R1};
		struct mmchal_xfer sx = {.cmd = &s};

		assert_int_equal(be.ops->start(be.ctx, &sx), 0);
		assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	}
	m.reset_stuck = true;
	assert_int_equal(be.ops->abort(be.ctx), MMCHAL_ETIMEDOUT);
}

static void test_ops_reject_unprobed(void **state)
{
	struct mmchal_sdhci_cfg cfg;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	struct mmchal_ios ios = {.bus_width = MMCHAL_BUS_WIDTH_1};
	struct mmchal_cmd c = {.opcode = 0};
	struct mmchal_xfer x = {.cmd = &c};
	uint32_t v;

	(void)state;
	model_reset(0x0002, CAPS_QEMU_V3);
	cfg = base_cfg();
	assert_int_equal(mmchal_sdhci_init(&h, &cfg, &be), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), MMCHAL_EINVAL);
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_EINVAL);
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	v = 0xdeadu;
	assert_int_equal(be.ops->handle_irq(be.ctx, &v), MMCHAL_EINVAL);
	assert_int_equal(v, 0);
	assert_int_equal(be.ops->handle_irq(be.ctx, NULL), MMCHAL_EINVAL);
	assert_int_equal(be.ops->abort(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->card_busy(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->get_cd(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->get_ro(be.ctx), MMCHAL_EINVAL);
	assert_int_equal(be.ops->blocks_done(be.ctx, &v), MMCHAL_EINVAL);
	assert_int_equal(be.ops->enable_sdio_irq(be.ctx, true), MMCHAL_EINVAL);
	assert_int_equal(be.ops->probe(NULL), MMCHAL_EINVAL);
	assert_int_equal(m.ncmds, 0);
	assert_int_equal(m.nresets, 0);
}

/* Bus power at the highest voltage the capabilities offer; none offered: refused. */
static void test_power_voltages(void **state)
{
	static const struct {
		uint32_t volts;
		int ret;
		uint16_t power;
	} t[] = {
		{1u << 24 | 1u << 25 | 1u << 26, 0, 0x0f00},
		{1u << 25 | 1u << 26, 0, 0x0d00},
		{1u << 25, 0, 0x0d00},
		{1u << 26, 0, 0x0b00},
		{0, MMCHAL_ENOTSUP, 0},
	};

	(void)state;
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		up_ok(0x0002, (CAPS_QEMU_V3 & ~(7u << 24)) | t[i].volts, MMCHAL_SDHCI_DMA_AUTO);
		assert_int_equal(power_on(400000, MMCHAL_BUS_WIDTH_1), t[i].ret);
		assert_int_equal(get16(0x28) & 0xff00u, t[i].power);
	}
}

/* Timings, widths, flags and the argument checks of set_ios. */
static void test_ios_edges(void **state)
{
	struct mmchal_ios ios = {.clock_hz = 25000000,
				 .bus_width = MMCHAL_BUS_WIDTH_4,
				 .timing = MMCHAL_TIMING_UHS_SDR12,
				 .power_mode = MMCHAL_POWER_ON,
				 .signal_voltage = MMCHAL_SIGNAL_180};
	struct mmchal_sdhci_cfg c;

	(void)state;
	/* v3.00 with SDR50: SDR12 and SDR25 select UHS modes 0 and 1, high speed on */
	model_reset(0x0002, CAPS_QEMU_V3);
	m.caps1 = 1u << 0;
	c = base_cfg();
	assert_int_equal(up(&c), 0);
	put16(0x3e, 0x0007);
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x3e), 0x0008);
	assert_int_equal(get16(0x28) & 0x00ffu, 0x06);
	ios.timing = MMCHAL_TIMING_UHS_SDR25;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x3e), 0x0009);
	ios.timing = MMCHAL_TIMING_UHS_SDR50;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x3e), 0x000a);
	ios.timing = MMCHAL_TIMING_UHS_DDR50; /* no DDR50 in the capabilities */
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);
	/* bad power mode or signal voltage; 1.2 V never */
	ios.timing = MMCHAL_TIMING_LEGACY;
	ios.power_mode = (enum mmchal_power_mode)(MMCHAL_POWER_ON + 1);
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_EINVAL);
	ios.power_mode = MMCHAL_POWER_ON;
	ios.signal_voltage = (enum mmchal_signal_voltage)(MMCHAL_SIGNAL_120 + 1);
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_EINVAL);
	ios.signal_voltage = MMCHAL_SIGNAL_120;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);
	/* power up: bus power on, the card clock still stopped */
	ios.signal_voltage = MMCHAL_SIGNAL_330;
	ios.power_mode = MMCHAL_POWER_UP;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x28) & 0xff00u, 0x0f00);
	assert_int_equal(get16(0x2c) & 0x0004u, 0);
	assert_int_equal(h.clock_hz, 0);
	ios.power_mode = MMCHAL_POWER_ON;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x2c) & 0x0004u, 0x0004);
	assert_int_equal(h.clock_hz, 13000000); /* 52 MHz / 4 */

	/* SDR12 without any UHS capability */
	model_reset(0x0002, CAPS_QEMU_V3);
	c = base_cfg();
	assert_int_equal(up(&c), 0);
	ios.timing = MMCHAL_TIMING_UHS_SDR12;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);
	ios.timing = MMCHAL_TIMING_UHS_SDR25;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);

	/* a board without high speed: HS refused, legacy fine */
	model_reset(0x0002, CAPS_QEMU_V3);
	c = base_cfg();
	c.flags = MMCHAL_SDHCI_F_NO_HS;
	assert_int_equal(up(&c), 0);
	ios.timing = MMCHAL_TIMING_SD_HS;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);
	ios.timing = MMCHAL_TIMING_LEGACY;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x28) & 0x00ffu, 0x02);

	/* 8 data lines wired: 8-bit where the controller has it, else refused */
	model_reset(0x0002, CAPS_QEMU_V3 | (1u << 18));
	c = base_cfg();
	c.bus_width = 8;
	assert_int_equal(up(&c), 0);
	ios.bus_width = MMCHAL_BUS_WIDTH_8;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x28) & 0x00ffu, 0x20);
	model_reset(0x0002, CAPS_QEMU_V3);
	assert_int_equal(up(&c), 0);
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);

	assert_string_equal(mmchal_sdhci_dma_name(MMCHAL_SDHCI_DMA_AUTO), "auto");
	assert_string_equal(mmchal_sdhci_dma_name(MMCHAL_SDHCI_DMA_NONE), "pio");
	assert_string_equal(mmchal_sdhci_dma_name(MMCHAL_SDHCI_DMA_SDMA), "sdma");
	assert_string_equal(mmchal_sdhci_dma_name(MMCHAL_SDHCI_DMA_ADMA2_32), "adma2-32");
}

/* Data timeout counter: the shortest TMCLK x 2^(13 + n) not below the request's. */
static void test_data_timeout(void **state)
{
	static const struct {
		uint32_t tmclk_caps, timeout_ns;
		uint8_t val;
	} t[] = {
		/* 52 MHz TMCLK: 2^16 clocks are 1260307 ns */
		{0xb4, 1260307, 3},
		{0xb4, 1260308, 4},
		{0xb4, 1, 0},
		{0xb4, 0, 0x0e},
		{0xb4, 4000000000u, 0x0e},
		/* 52 kHz TMCLK (bit 7 clear): 2^13 clocks are 157538461 ns */
		{0x34, 157538461, 0},
		{0x34, 157538462, 1},
		/* 2 kHz TMCLK: 2^13 clocks are exactly 4096000000 ns */
		{0x02, 4096000000u, 0},
		{0x02, 4096000001u, 1},
		/* no TMCLK: the card clock (13 MHz) counts */
		{0x00, 630153, 0},
		{0x00, 630154, 1},
	};
	uint8_t buf[512];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 17, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d};

	(void)state;
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		up_ok(0x0002, (CAPS_QEMU_V3 & ~0xffu) | t[i].tmclk_caps, MMCHAL_SDHCI_DMA_NONE);
		assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
		d.timeout_ns = t[i].timeout_ns;
		assert_int_equal(be.ops->start(be.ctx, &x), 0);
		assert_int_equal(m.r8[0x2e], t[i].val);
		assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	}
	/* a PIO request needs its sg list */
	d.sg = NULL;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	d.sg = &sg;
	d.sg_len = 0;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
}

/* Capability decoding: block size field, base clock width, f_min rounding, DMA
   mode choice at the edges of the table size and of 4 GiB, UHS modes. */
static void test_caps_decoding(void **state)
{
	static const uint32_t blk[4] = {512, 1024, 2048, 512};
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	struct mmchal_sdhci_cfg c;
	const uint32_t caps32 = CAPS_QEMU_V3 & ~(1u << 28);

	(void)state;
	for (uint32_t f = 0; f < 4; f++) {
		up_ok(0x0002, (CAPS_QEMU_V3 & ~(3u << 16)) | f << 16, MMCHAL_SDHCI_DMA_AUTO);
		assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
		assert_int_equal(hc.max_blk_size, blk[f]);
	}
	/* 52 MHz / 2046, rounded up; nothing the backend does not set */
	assert_int_equal(hc.f_min_hz, 25416);
	assert_false(hc.merge_capable);
	assert_int_equal(hc.max_blk_count, 0);
	/* v3.00: the base clock field has 8 bits (0xc8: 200 MHz) */
	up_ok(0x0002, (CAPS_QEMU_V3 & ~0xff00u) | 0xc800u, MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.f_max_hz, 200000000);
	/* a table of exactly one 64-bit descriptor: ADMA2 64-bit, one segment */
	model_reset(0x0002, CAPS_QEMU_V3);
	c = base_cfg();
	c.adma_table_size = MMCHAL_SDHCI_ADMA2_64_DESC_SIZE;
	assert_int_equal(up(&c), 0);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_ADMA2_64);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(dc.dir[0].max_segs, 1);
	assert_int_equal(dc.dir[0].addr_bits, 64);
	/* 32-bit ADMA2: the table must end at or below 4 GiB - 1 */
	model_reset(0x0002, caps32);
	c = base_cfg();
	c.adma_table_dma = 0xfffffff8u;
	c.adma_table_size = 8;
	assert_int_equal(up(&c), 0);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_ADMA2_32);
	c.adma_table_size = 9; /* last byte at 4 GiB */
	assert_int_equal(up(&c), 0);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_SDMA);
	c.dma = MMCHAL_SDHCI_DMA_ADMA2_32;
	assert_int_equal(up(&c), MMCHAL_EINVAL);
	c.adma_table_size = 8;
	assert_int_equal(up(&c), 0);
	assert_int_equal(h.mode, MMCHAL_SDHCI_DMA_ADMA2_32);
	/* SDMA: 32-bit addresses */
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_SDMA);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(dc.dir[0].addr_bits, 32);
	assert_int_equal(dc.dir[1].addr_bits, 32);
	/* UHS: SDR104 alone gives the 1.8 V switch with SDR12/SDR25 only */
	model_reset(0x0002, CAPS_QEMU_V3);
	m.caps1 = 1u << 1;
	c = base_cfg();
	assert_int_equal(up(&c), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.bus & (MMCHAL_BUS_1_8V | MMCHAL_BUS_UHS_SDR12 | MMCHAL_BUS_UHS_SDR25 |
				   MMCHAL_BUS_UHS_SDR50 | MMCHAL_BUS_UHS_DDR50),
			 MMCHAL_BUS_1_8V | MMCHAL_BUS_UHS_SDR12 | MMCHAL_BUS_UHS_SDR25);
	/* SDR50 alone: SDR50, no DDR50 */
	model_reset(0x0002, CAPS_QEMU_V3);
	m.caps1 = 1u << 0;
	assert_int_equal(up(&c), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_true(hc.bus & MMCHAL_BUS_UHS_SDR50);
	assert_false(hc.bus & (MMCHAL_BUS_UHS_DDR50 | MMCHAL_BUS_MMC_DDR52));
}

/* set_ios edges: no high speed in the capabilities, 8-bit then 4-bit, the 8-bit
   divider's lower end. */
static void test_ios_more(void **state)
{
	struct mmchal_ios ios = {.clock_hz = 400000,
				 .bus_width = MMCHAL_BUS_WIDTH_4,
				 .timing = MMCHAL_TIMING_SD_HS,
				 .power_mode = MMCHAL_POWER_ON};
	struct mmchal_sdhci_cfg c;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3 & ~(1u << 21), MMCHAL_SDHCI_DMA_AUTO);
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);
	ios.timing = MMCHAL_TIMING_MMC_HS;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ENOTSUP);
	/* 8-bit, then back to 4-bit: the 8-bit bit cleared */
	model_reset(0x0002, CAPS_QEMU_V3 | (1u << 18));
	c = base_cfg();
	c.bus_width = 8;
	assert_int_equal(up(&c), 0);
	ios.timing = MMCHAL_TIMING_LEGACY;
	ios.bus_width = MMCHAL_BUS_WIDTH_8;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x28) & 0x00ffu, 0x20);
	ios.bus_width = MMCHAL_BUS_WIDTH_4;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	assert_int_equal(get16(0x28) & 0x00ffu, 0x02);
	/* v2.00: base / 256 at most: 150 kHz from 52 MHz is out of range, 203125 Hz is not */
	up_ok(0x0001, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_AUTO);
	ios.clock_hz = 150000;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), MMCHAL_ERANGE);
	ios.clock_hz = 203125;
	assert_int_equal(be.ops->set_ios(be.ctx, &ios), 0);
	{
		struct mmchal_host_caps hc;
		struct mmchal_dma_caps dc;

		/* 52 MHz / 256 exactly: no rounding up */
		assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
		assert_int_equal(hc.f_min_hz, 203125);
	}
	assert_int_equal(h.clock_hz, 203125);
	assert_int_equal(get16(0x2c) >> 8, 0x80);
}

/* Start: multi-block bits of one-block CMD18/CMD25, block count and size limits,
   the counters reset, the board's timeout clock. */
static void test_start_more(void **state)
{
	uint8_t buf[4096];
	struct mmchal_sg sg = {.cpu = buf, .len = 512};
	struct mmchal_cmd c = {.opcode = 25, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_TO_CARD, .blksz = 512, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d};
	struct mmchal_sdhci_cfg cfg;
	uint32_t done;

	(void)state;
	memset(buf, 0x3c, sizeof(buf));
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_NONE);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	d.bytes_xfered = 77;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(d.bytes_xfered, 0);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 0);
	assert_int_equal(m.last_mode, 0x22); /* multi, count, write */
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 1);
	c.opcode = 18;
	d.dir = MMCHAL_DIR_FROM_CARD;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 0);
	assert_int_equal(m.last_mode, 0x32);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	/* larger blocks than the controller takes */
	d.blksz = 1024;
	sg.len = 1024;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	/* 65535 blocks fit the 16-bit count, 65536 do not */
	d.blksz = 4;
	d.blocks = 65536;
	sg.len = 4u * 65536u;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	d.blocks = 65535;
	sg.len = 4u * 65535u;
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(be.ops->abort(be.ctx), 0);
	m.hold_xfer = false;

	/* no timeout clock in the capabilities: the board's (1 MHz) counts */
	model_reset(0x0002, CAPS_QEMU_V3 & ~0xffu);
	cfg = base_cfg();
	cfg.timeout_clock_hz = 1000000;
	cfg.dma = MMCHAL_SDHCI_DMA_NONE;
	assert_int_equal(up(&cfg), 0);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	d.blksz = 512;
	d.blocks = 1;
	sg.len = 512;
	c.opcode = 17;
	d.timeout_ns = 8192000; /* 2^13 clocks */
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(m.r8[0x2e], 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	d.timeout_ns = 8192001;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(m.r8[0x2e], 1);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE | MMCHAL_EV_DATA_DONE);
	/* the CMD and DAT line resets of an abort keep the timeout byte */
	assert_int_equal(be.ops->abort(be.ctx), 0);
	assert_int_equal(m.r8[0x2e], 1);
}

/* Abort after the data moved but before the controller reported the end: the
   blocks that reached memory stay counted. */
static void test_abort_counts(void **state)
{
	uint8_t buf[2048];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd c = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 4, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d};
	uint32_t done;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_NONE);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	assert_int_equal(be.ops->abort(be.ctx), 0);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 4);
	/* a command without data after it: no blocks */
	m.hold_xfer = false;
	{
		struct mmchal_cmd c13 = {.opcode = 13, .arg = 1u << 16, .flags = MMCHAL_RSP_R1};
		struct mmchal_xfer x13 = {.cmd = &c13};

		assert_int_equal(be.ops->start(be.ctx, &x13), 0);
		assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
		assert_int_equal(done, 0);
		assert_int_equal(model_poll(), MMCHAL_EV_CMD_DONE);
	}
}

/* Probe again and after a failed reset; flags in the caps; segment limits per
   DMA mode; DAT inhibit only for data and busy commands (not CMD12); abort
   clears the status; the card interrupt enable follows enable_sdio_irq. */
static void test_reprobe_and_limits(void **state)
{
	uint8_t buf[512];
	struct mmchal_sg sg = {.cpu = buf, .len = 1};
	struct mmchal_cmd c = {.opcode = 17, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 1, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_dma_seg seg = {0x4000, 1};
	struct mmchal_xfer x = {.cmd = &c, .data = &d};
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	struct mmchal_sdhci_cfg cfg;
	uint32_t done;

	(void)state;
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_ADMA2_32);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	assert_int_equal(h.clock_hz, 13000000);
	/* one-byte blocks and a one-byte ADMA2 segment are valid */
	m.hold_xfer = true;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(be.ops->abort(be.ctx), 0);
	x.plan = MMCHAL_PLAN_DIRECT;
	x.segs = &seg;
	x.nsegs = 1;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(be.ops->abort(be.ctx), 0);
	/* abort leaves no status pending */
	m.norm |= (1u << 1) | (1u << 0);
	assert_int_equal(be.ops->abort(be.ctx), 0);
	assert_int_equal(m.norm, 0);
	/* ADMA2: at most 65536 bytes per segment */
	d.blksz = 4;
	d.blocks = 16385;
	seg.len = 65540;
	sg.len = 65540;
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
	/* again probed: the clock and the counters start over */
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_int_equal(h.clock_hz, 0);
	assert_int_equal(be.ops->blocks_done(be.ctx, &done), 0);
	assert_int_equal(done, 0);
	/* a probe whose reset does not finish leaves the backend unusable */
	m.reset_stuck = true;
	assert_int_equal(be.ops->probe(be.ctx), MMCHAL_ETIMEDOUT);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), MMCHAL_EINVAL);
	m.reset_stuck = false;

	/* SDMA: a 65540-byte segment within one 512 KiB window is fine */
	up_ok(0x0002, CAPS_QEMU_V3, MMCHAL_SDHCI_DMA_SDMA);
	assert_int_equal(power_on(25000000, MMCHAL_BUS_WIDTH_4), 0);
	seg.addr = 0x80000;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	assert_int_equal(be.ops->abort(be.ctx), 0);
	m.hold_xfer = false;
	assert_int_equal(be.ops->get_caps(be.ctx, NULL, &dc), MMCHAL_EINVAL);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, NULL), MMCHAL_EINVAL);

	/* DAT inhibit: a busy command waits for it, CMD12 and plain commands do not */
	m.present |= 1u << 1;
	{
		struct mmchal_cmd b = {.opcode = 7, .arg = 1u << 16, .flags = MMCHAL_RSP_R1B};
		struct mmchal_xfer bx = {.cmd = &b};

		assert_int_equal(be.ops->start(be.ctx, &bx), MMCHAL_EBUSY);
		b.opcode = 12;
		assert_int_equal(be.ops->start(be.ctx, &bx), 0);
		assert_int_equal(be.ops->abort(be.ctx), 0);
		b.opcode = 13;
		b.flags = MMCHAL_RSP_R1;
		assert_int_equal(be.ops->start(be.ctx, &bx), 0);
		assert_int_equal(be.ops->abort(be.ctx), 0);
		x.plan = MMCHAL_PLAN_PIO;
		assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EBUSY);
	}
	m.present &= ~(1u << 1);

	/* broken card detect is declared; the card interrupt enable follows */
	model_reset(0x0002, CAPS_QEMU_V3);
	cfg = base_cfg();
	cfg.flags = MMCHAL_SDHCI_F_BROKEN_CD;
	assert_int_equal(up(&cfg), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_true(hc.bus & MMCHAL_BUS_BROKEN_CD);
	assert_int_equal(be.ops->enable_sdio_irq(be.ctx, true), 0);
	assert_int_equal(get32(0x34) & (1u << 8), 1u << 8);
	assert_int_equal(be.ops->enable_sdio_irq(be.ctx, false), 0);
	assert_int_equal(get32(0x34) & (1u << 8), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_probe_v3),
		cmocka_unit_test(test_probe_zynq),
		cmocka_unit_test(test_probe_pio_only),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_power_and_bus),
		cmocka_unit_test(test_command_bits),
		cmocka_unit_test(test_start_rejects),
		cmocka_unit_test(test_pio),
		cmocka_unit_test(test_adma_descriptors),
		cmocka_unit_test(test_sdma),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_card_events),
		cmocka_unit_test(test_auto_cmd12),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_ops_reject_unprobed),
		cmocka_unit_test(test_power_voltages),
		cmocka_unit_test(test_ios_edges),
		cmocka_unit_test(test_data_timeout),
		cmocka_unit_test(test_caps_decoding),
		cmocka_unit_test(test_ios_more),
		cmocka_unit_test(test_start_more),
		cmocka_unit_test(test_abort_counts),
		cmocka_unit_test(test_reprobe_and_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
