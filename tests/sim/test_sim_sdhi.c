/*
 * Simulator tests, controller and cards: bus addressing, counting and
 * tracing, status semantics, the card protocol state machines, PIO data and
 * timing arithmetic. Driven through struct mmchal_bus like a driver.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

static struct drv open_gen3(void)
{
	struct drv d;

	assert_int_equal(drv_open(&d, NULL), 0);
	return d;
}

static void insert(struct drv *d, enum mmchal_sim_card_kind kind,
		   struct mmchal_sim_card_config *cfg_out)
{
	struct mmchal_sim_card_config cfg;

	assert_int_equal(mmchal_sim_card_defaults(kind, &cfg), 0);
	if (cfg_out)
		cfg = *cfg_out;
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cfg), 0);
	drv_ack(d, 0xffffffffu);
}

static void test_bus_shift_addressing(void **state)
{
	(void)state;
	for (uint8_t shift = 0; shift <= 2; shift++) {
		struct mmchal_sim_config cfg;
		struct drv d;

		mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
		cfg.bus_shift = shift;
		assert_int_equal(drv_open(&d, &cfg), 0);
		assert_int_equal(d.bus.bus_shift, shift);
		mmchal_sim_reset_counters(d.sim);
		/* VERSION is logical 0xe2: byte 0xe2 << shift. */
		assert_int_equal(d.bus.ops->read16(d.bus.ctx, 0xe2u << shift), 0xcd10);
		assert_int_equal(mmchal_sim_reg_reads(d.sim, 0xe2u << shift), 1);
		/* A 32-bit register is two halves at offset and offset + 2 (logical). */
		mmchal_bus_wr32(&d.bus, R_ARG, 0x12345678u);
		assert_int_equal(d.bus.ops->read16(d.bus.ctx, R_ARG << shift), 0x5678);
		assert_int_equal(d.bus.ops->read16(d.bus.ctx, (R_ARG + 2u) << shift), 0x1234);
		assert_int_equal(mmchal_sim_reg_writes(d.sim, R_ARG << shift), 1);
		assert_int_equal(mmchal_sim_reg_writes(d.sim, (R_ARG + 2u) << shift), 1);
		drv_close(&d);
	}
}

static unsigned traced;
static void trace_cb(void *arg, const struct mmchal_sim_access *a)
{
	(void)arg;
	(void)a;
	traced++;
}

static void test_counting_and_trace(void **state)
{
	struct drv d = open_gen3();
	struct mmchal_sim_access a;
	struct mmchal_sim_counters c;
	uint64_t t0;

	(void)state;
	mmchal_sim_reset_counters(d.sim);
	mmchal_sim_set_trace(d.sim, trace_cb, NULL);
	traced = 0;
	t0 = mmchal_sim_now(d.sim);
	mmchal_bus_wr16(&d.bus, R_SIZE, 0x0040u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SIZE), 0x0040);
	/* Each access costs the documented 100 ns. */
	assert_true(mmchal_sim_now(d.sim) == t0 + 200u);
	assert_int_equal(traced, 2);
	assert_int_equal(mmchal_sim_trace_count(d.sim), 2);
	assert_int_equal(mmchal_sim_trace_get(d.sim, 0, &a), 0);
	assert_true(a.write);
	assert_int_equal(a.off, R_SIZE << 2);
	assert_int_equal(a.val, 0x40);
	assert_int_equal(a.width, 2);
	assert_true(a.t_ns == t0 + 100u);
	assert_int_equal(mmchal_sim_trace_get(d.sim, 1, &a), 0);
	assert_false(a.write);
	assert_int_equal(mmchal_sim_trace_get(d.sim, 2, &a), MMCHAL_ERANGE);
	mmchal_sim_get_counters(d.sim, &c);
	assert_int_equal(c.reads, 1);
	assert_int_equal(c.writes, 1);
	mmchal_sim_set_trace(d.sim, NULL, NULL);
	drv_close(&d);
}

static unsigned irqs;
static uint64_t irq_time;
static struct drv *irq_drv;
static void irq_cb(void *arg)
{
	(void)arg;
	irqs++;
	irq_time = mmchal_sim_now(irq_drv->sim);
	/* A handler acknowledges what it saw, as a driver would. */
	drv_ack(irq_drv, drv_status(irq_drv));
}

static void test_w0c_masks_and_irq_line(void **state)
{
	struct drv d = open_gen3();
	struct mmchal_sim_card_config cfg;
	uint32_t st;
	uint64_t t;

	(void)state;
	/* Reset masks are TMIO_MASK_ALL (0x031d / 0x837f). */
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_MASK1), 0x031d);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_MASK2), 0x837f);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cfg);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cfg), 0);
	st = drv_status(&d);
	assert_true(st & S_INSERTED);
	assert_true(st & S_CD);
	/* Masked: the line stays low. */
	assert_false(mmchal_sim_irq_line(d.sim));
	mmchal_bus_wr16(&d.bus, R_MASK1, (uint16_t)~S_INSERTED);
	assert_true(mmchal_sim_irq_line(d.sim));
	/* Writing 1 keeps a bit; writing 0 clears it; live bits stay. */
	mmchal_bus_wr16(&d.bus, R_INFO1, 0xffffu);
	assert_true(drv_status(&d) & S_INSERTED);
	mmchal_bus_wr16(&d.bus, R_INFO1, (uint16_t)~S_INSERTED);
	st = drv_status(&d);
	assert_false(st & S_INSERTED);
	assert_true(st & S_CD);
	assert_false(mmchal_sim_irq_line(d.sim));
	/* Handler runs once the line has been high for the interrupt latency. */
	irq_drv = &d;
	irqs = 0;
	mmchal_sim_set_irq_handler(d.sim, irq_cb, NULL);
	mmchal_bus_wr16(&d.bus, R_MASK1, 0);
	mmchal_bus_wr16(&d.bus, R_MASK2, 0);
	t = mmchal_sim_now(d.sim);
	mmchal_sim_card_remove(d.sim);
	assert_true(mmchal_sim_irq_line(d.sim));
	assert_int_equal(mmchal_sim_run(d.sim, t + 1000000u), MMCHAL_SIM_RUN_IRQ);
	assert_int_equal(irqs, 1);
	assert_true(irq_time == t + 2000u);
	assert_false(mmchal_sim_irq_line(d.sim));
	/* Under the port lock the handler is held back until the unlock. */
	{
		mmchal_irqflags_t f = d.port.ops->lock_irqsave(d.port.ctx);

		mmchal_sim_card_insert(d.sim, &cfg);
		mmchal_sim_advance(d.sim, 10000u);
		assert_int_equal(irqs, 1);
		d.port.ops->unlock_irqrestore(d.port.ctx, f);
		assert_int_equal(irqs, 2);
	}
	mmchal_sim_set_irq_handler(d.sim, NULL, NULL);
	drv_close(&d);
}

static void test_sd_identification(void **state)
{
	struct drv d = open_gen3();
	uint64_t t0;

	(void)state;
	insert(&d, MMCHAL_SIM_CARD_SD, NULL);
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	/* CMD8 R7 echoes voltage and check pattern. */
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x1aa), 0);
	assert_int_equal(d.rsp[0], 0x1aa);
	/* ACMD41 reports busy until the power-up time (1 ms) has passed. */
	t0 = mmchal_sim_now(d.sim);
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0), 0);
	assert_int_equal(d.rsp[0], (0u << 9) | (1u << 8) | (1u << 5));
	assert_int_equal(drv_cmd(&d, C_R3 | C_ACMD | 41, 0x40ff8000u), 0);
	assert_int_equal(d.rsp[0], 0x00ff8000u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	mmchal_sim_advance(d.sim, 1000000u - (mmchal_sim_now(d.sim) - t0));
	drv_cmd(&d, C_R1 | 55, 0);
	assert_int_equal(drv_cmd(&d, C_R3 | C_ACMD | 41, 0x41ff8000u), 0);
	assert_int_equal(d.rsp[0], 0xc1ff8000u); /* ready, CCS, S18A (uhs) */
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_READY);
	/* CMD2: CID, stored shifted right by 8 (CRC byte dropped). */
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
	assert_int_equal(d.rsp[3] >> 16, 0x00aa); /* MID = bits 127:120 -> RSP bits 119:112 */
	assert_int_equal((d.rsp[3] >> 0) & 0xffffu, 0x534d); /* OID */
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDENT);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	assert_int_equal(d.rsp[0] >> 16, 0xb368);
	assert_int_equal(d.rsp[0] & 0x1fffu, (2u << 9) | (1u << 8)); /* ident, ready */
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	/* CMD9: CSD v2, C_SIZE = 64 MiB / 512 KiB - 1 = 127 at bits 69:48 -> 61:40. */
	assert_int_equal(drv_cmd(&d, C_R2 | 9, 0xb368u << 16), 0);
	assert_int_equal(d.rsp[3] >> 22, 1);                /* CSD_STRUCTURE at 119:118 */
	assert_int_equal((d.rsp[1] >> 8) & 0x3fffffu, 127); /* C_SIZE */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0xb368u << 16), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 0xb368u << 16), 0);
	assert_int_equal(d.rsp[0], (4u << 9) | (1u << 8));
	drv_close(&d);
}

static void test_sd_illegal_command(void **state)
{
	struct drv d = open_gen3();
	uint32_t rca;

	(void)state;
	insert(&d, MMCHAL_SIM_CARD_SD, NULL);
	rca = drv_sd_init(&d);
	assert_int_equal(rca, 0xb368);
	/* CMD2 in tran: no response -> command timeout, state kept. */
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2) & 1u, 1);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	/* The next R1 carries ILLEGAL_COMMAND, the one after does not. */
	assert_int_equal(drv_cmd(&d, C_R1 | 13, rca << 16), 0);
	assert_int_equal(d.rsp[0], (1u << 22) | (4u << 9) | (1u << 8));
	assert_int_equal(drv_cmd(&d, C_R1 | 13, rca << 16), 0);
	assert_int_equal(d.rsp[0], (4u << 9) | (1u << 8));
	/* A memory card ignores CMD52. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, 0), MMCHAL_ETIMEDOUT);
	/* An R1 expectation on an R3 response (all-ones CRC) is a CRC error. */
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	drv_cmd(&d, C_R1 | 55, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_ACMD | 41, 0x40ff8000u), MMCHAL_EIO);
	drv_close(&d);
}

static void test_sd_scr_switch_and_data(void **state)
{
	struct drv d = open_gen3();
	uint8_t scr[8], sw[64];
	uint8_t *wr = malloc(4 * 512), *rd = malloc(4 * 512);
	uint8_t *store;
	uint32_t rca;

	(void)state;
	insert(&d, MMCHAL_SIM_CARD_SD, NULL);
	rca = drv_sd_init(&d);
	drv_cmd(&d, C_R1 | 55, rca << 16);
	assert_int_equal(drv_pio_read(&d, C_R1 | C_ACMD | 51, 0, 8, 1, scr), 0);
	assert_int_equal(scr[0] & 0x0f, 2);    /* SD_SPEC */
	assert_int_equal(scr[1] & 0x0f, 5);    /* bus widths */
	assert_int_equal(scr[3] & 0x02, 0x02); /* CMD23 */
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	/* CMD6 set high speed: status byte 16 low nibble echoes function 1. */
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x80fffff1u, 64, 1, sw), 0);
	assert_int_equal(sw[16] & 0x0f, 1);
	assert_int_equal(sw[13] & 0x1f, 0x1f);
	{
		enum mmchal_timing t;
		uint32_t w;

		mmchal_sim_card_bus(d.sim, &w, &t);
		assert_int_equal(t, MMCHAL_TIMING_SD_HS);
		assert_int_equal(w, 4);
	}
	/* 50 MHz: divider 0 (1/2 of 200 MHz) is over 50 MHz? no: exactly 100 MHz -> use 1/4. */
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0101u);
	for (unsigned i = 0; i < 4 * 512; i++)
		wr[i] = (uint8_t)(i * 7u + 3u);
	assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | 25, 10, 512, 4, wr), 0);
	assert_int_equal(drv_wait_not_busy(&d, 100000000u) & S_DAT0, S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	store = mmchal_sim_card_store(d.sim, NULL);
	assert_memory_equal(store + 10 * 512, wr, 4 * 512);
	assert_int_equal(drv_pio_read(&d, C_R1 | C_MULTI | 18, 10, 512, 4, rd), 0);
	assert_memory_equal(rd, wr, 4 * 512);
	/* Single block at a 32-bit port width. */
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	memset(rd, 0, 512);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 11, 512, 1, rd), 0);
	assert_memory_equal(rd, wr + 512, 512);
	/* A read past the end: OUT_OF_RANGE in the R1, no data. */
	assert_int_equal(drv_cmd(&d, C_R1 | 13, rca << 16), 0);
	assert_int_equal(drv_pio_read(&d, C_R1 | 17, 1u << 20, 512, 1, rd), S_DATA_TO);
	free(wr);
	free(rd);
	drv_close(&d);
}

static void test_mmc_ext_csd_and_switch(void **state)
{
	struct drv d = open_gen3();
	uint8_t ext[512];

	(void)state;
	insert(&d, MMCHAL_SIM_CARD_MMC, NULL);
	/* eMMC stays silent on CMD8 in idle and on CMD55. */
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x1aa), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_mmc_init(&d), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(drv_pio_read(&d, C_R1 | 8, 0, 512, 1, ext), 0);
	assert_int_equal(ext[196], 0x57);
	assert_int_equal(ext[192], 8);
	assert_int_equal(ext[212] | ext[213] << 8 | ext[214] << 16 | ext[215] << 24,
			 (64u << 20) / 512u);
	/* HS400 before an 8-bit DDR width: SWITCH_ERROR reported by CMD13. */
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b90300u), 0);
	assert_int_equal(drv_wait_not_busy(&d, 10000000u) & S_DAT0, S_DAT0);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 1u << 16), 0);
	assert_int_equal(d.rsp[0] & (1u << 7), 1u << 7);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 185), 0);
	/*
	 * CMD6 busy: prg, then tran after switch_busy_ns (100 us). Sent as R1 the
	 * response end comes at once and the busy shows on DAT0; sent as R1b the
	 * controller waits for DAT0 before response end (hardware busy detection).
	 */
	assert_int_equal(drv_cmd(&d, C_R1 | 6, 0x03b70200u), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_PRG);
	assert_false(drv_status(&d) & S_DAT0);
	drv_wait_not_busy(&d, 10000000u);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b70200u), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_true(drv_status(&d) & S_DAT0);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 183), 2);
	assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b90200u), 0); /* HS200 */
	drv_wait_not_busy(&d, 10000000u);
	{
		enum mmchal_timing t;
		uint32_t w;

		mmchal_sim_card_bus(d.sim, &w, &t);
		assert_int_equal(t, MMCHAL_TIMING_MMC_HS200);
		assert_int_equal(w, 8);
	}
	drv_close(&d);
}

/* Bring an eMMC to HS400 and the host to 200 MHz DDR 8-bit. */
static void mmc_to_hs400(struct drv *d)
{
	assert_int_equal(drv_mmc_init(d), 0);
	drv_cmd(d, C_R1B | 6, 0x03b90100u); /* HS */
	drv_wait_not_busy(d, 10000000u);
	drv_cmd(d, C_R1B | 6, 0x03b70600u); /* 8-bit DDR */
	drv_wait_not_busy(d, 10000000u);
	drv_cmd(d, C_R1B | 6, 0x03b90300u); /* HS400 */
	drv_wait_not_busy(d, 10000000u);
	assert_int_equal(mmchal_sim_card_ext_csd(d->sim, 185), 3);
	mmchal_bus_wr16(&d->bus, R_OPTION, 0x40eeu | (1u << 13));
	mmchal_bus_wr16(&d->bus, R_IFMODE, 1);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x01ffu);
}

static void test_timing_command_at_ident_clock(void **state)
{
	struct drv d = open_gen3();
	uint64_t t0, t1;

	(void)state;
	insert(&d, MMCHAL_SIM_CARD_SD, NULL);
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_ARG, 0x1aa);
	t0 = mmchal_sim_now(d.sim);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | 8);
	/* 200 MHz / 512 = 390.625 kHz: 2560 ns per clock; 48 + N_CR 2 + 48 clocks. */
	assert_int_equal(mmchal_sim_run(d.sim, t0 + 10000000u), MMCHAL_SIM_RUN_IRQ);
	t1 = mmchal_sim_now(d.sim);
	assert_true(t1 == t0 + 100u + 98u * 2560u + 2000u);
	/* Without a response the controller waits 48 + 64 clocks. */
	drv_ack(&d, 0xffffffffu);
	t0 = mmchal_sim_now(d.sim);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | 2);
	assert_int_equal(mmchal_sim_run(d.sim, t0 + 10000000u), MMCHAL_SIM_RUN_IRQ);
	assert_true(mmchal_sim_now(d.sim) == t0 + 100u + 112u * 2560u + 2000u);
	assert_true(drv_status(&d) & S_CMD_TO);
	drv_close(&d);
}

static void test_timing_pio_block(void **state)
{
	struct drv d = open_gen3();
	struct mmchal_sim_card_config cfg;
	uint8_t blk[512];
	uint64_t t0;

	(void)state;
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cfg);
	cfg.read_latency_ns = 75000u;
	cfg.read_rate = 0;
	insert(&d, MMCHAL_SIM_CARD_MMC, &cfg);
	mmc_to_hs400(&d);
	drv_setup_data(&d, 512, 1, false);
	drv_ack(&d, 0xffffffffu);
	mmchal_bus_wr32(&d.bus, R_ARG, 0);
	t0 = mmchal_sim_now(d.sim);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | C_DATA | C_READ | 17);
	/* Buffer ready = command 98 clocks + latency + (256 + 18) clocks at 5 ns. */
	while (!(drv_status(&d) & S_BRE))
		mmchal_sim_run(d.sim, t0 + 1000000u);
	assert_true(mmchal_sim_now(d.sim) >= t0 + 100u + 490u + 75000u + 1370u);
	assert_true(mmchal_sim_now(d.sim) < t0 + 100u + 490u + 75000u + 1370u + 2000u + 200u);
	drv_ack(&d, S_BRE);
	for (unsigned i = 0; i < 512; i += 8) {
		uint64_t v = drv_port_rd(&d);

		memcpy(blk + i, &v, 8);
	}
	assert_true(drv_status(&d) & S_ACCESS_END);
	drv_close(&d);
}

static void test_sdio(void **state)
{
	struct drv d = open_gen3();
	uint8_t buf[16];
	uint8_t *store;

	(void)state;
	insert(&d, MMCHAL_SIM_CARD_SDIO, NULL);
	/* SDIO card: no answer to CMD8 or ACMD41, R4 to CMD5. */
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x1aa), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R3 | 5, 0), 0);
	assert_int_equal(d.rsp[0], (1u << 28) | 0x00ff8000u);
	assert_int_equal(drv_cmd(&d, C_R3 | 5, 0x00ff8000u), 0);
	assert_int_equal(d.rsp[0] >> 31, 0);
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(drv_cmd(&d, C_R3 | 5, 0x00ff8000u), 0);
	assert_int_equal(d.rsp[0] >> 31, 1);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	assert_int_equal(d.rsp[0] >> 16, 1);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 1u << 16), 0);
	/* CMD52 read CCCR revision. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, 0), 0);
	assert_int_equal(d.rsp[0] & 0xff, 0x43);
	assert_int_equal((d.rsp[0] >> 12) & 3u, 1); /* CMD state */
	/* CMD52 write with read-after-write to function 1, address 5. */
	assert_int_equal(
		drv_cmd(&d, C_R1 | 52, (1u << 31) | (1u << 28) | (1u << 27) | (5u << 9) | 0xa5), 0);
	assert_int_equal(d.rsp[0] & 0xff, 0xa5);
	store = mmchal_sim_card_store(d.sim, NULL);
	assert_int_equal(store[5], 0xa5);
	/* CMD52 to function 2 (absent): FUNCTION_NUMBER. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, (2u << 28)), 0);
	assert_int_equal(d.rsp[0] & (1u << 9), 1u << 9);
	/* CMD53 byte mode, 16 bytes from address 0, incrementing. */
	for (unsigned i = 0; i < 16; i++)
		store[i] = (uint8_t)(0x10 + i);
	assert_int_equal(drv_pio_read(&d, C_R1 | 53, (1u << 28) | (1u << 26) | 16u, 16, 1, buf), 0);
	for (unsigned i = 0; i < 16; i++)
		assert_int_equal(buf[i], 0x10 + i);
	/* Bus width through CCCR 0x07. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, (1u << 31) | (7u << 9) | 2u), 0);
	{
		uint32_t w;

		mmchal_sim_card_bus(d.sim, &w, NULL);
		assert_int_equal(w, 4);
	}
	drv_close(&d);
}

static void test_soft_reset_and_busy_command(void **state)
{
	struct drv d = open_gen3();
	uint32_t st;

	(void)state;
	insert(&d, MMCHAL_SIM_CARD_SD, NULL);
	mmchal_bus_wr32(&d.bus, R_ARG, 0x1aa);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | 8);
	/* Command busy while in flight; a second command is an illegal access. */
	st = drv_status(&d);
	assert_true(st & (1u << 30));
	assert_false(st & (1u << 29));
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | 13);
	assert_true(drv_status(&d) & S_ILL);
	/* Soft reset clears status and restores reset values. */
	mmchal_bus_wr16(&d.bus, R_SIZE, 8);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	st = drv_status(&d);
	assert_false(st & S_ILL);
	assert_false(st & (1u << 30));
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SIZE), 0x200);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_OPTION), 0x40ee);
	/* Clock off: the command waits for the clock. */
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0080u);
	mmchal_bus_wr16(&d.bus, R_CMD, C_NONE | 0);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_false(drv_status(&d) & S_RSP_END);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u);
	assert_true(drv_wait(&d, S_RSP_END, 10000000u) & S_RSP_END);
	drv_close(&d);
}

static void test_api_errors(void **state)
{
	struct mmchal_sim_config cfg;
	struct mmchal_sim *sim;
	struct mmchal_sim_card_config cc;

	(void)state;
	assert_int_equal(mmchal_sim_create(NULL, NULL), MMCHAL_EINVAL);
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
	cfg.bus_shift = 3;
	assert_int_equal(mmchal_sim_create(&cfg, &sim), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_config_defaults(&cfg, (enum mmchal_sim_soc)7), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
	assert_int_equal(mmchal_sim_card_defaults((enum mmchal_sim_card_kind)9, &cc),
			 MMCHAL_EINVAL);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
	cc.capacity = 1000;
	assert_int_equal(mmchal_sim_card_insert(sim, &cc), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_card_remove(sim), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_card_state(sim), MMCHAL_ENOMEDIUM);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cc);
	assert_int_equal(mmchal_sim_card_insert(sim, &cc), 0);
	assert_int_equal(mmchal_sim_card_insert(sim, &cc), MMCHAL_EBUSY);
	assert_int_equal(mmchal_sim_card_ext_csd(sim, 0), MMCHAL_EINVAL);
	mmchal_sim_destroy(sim);
	mmchal_sim_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bus_shift_addressing),
		cmocka_unit_test(test_counting_and_trace),
		cmocka_unit_test(test_w0c_masks_and_irq_line),
		cmocka_unit_test(test_sd_identification),
		cmocka_unit_test(test_sd_illegal_command),
		cmocka_unit_test(test_sd_scr_switch_and_data),
		cmocka_unit_test(test_mmc_ext_csd_and_switch),
		cmocka_unit_test(test_timing_command_at_ident_clock),
		cmocka_unit_test(test_timing_pio_block),
		cmocka_unit_test(test_sdio),
		cmocka_unit_test(test_soft_reset_and_busy_command),
		cmocka_unit_test(test_api_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
