/*
 * The card layer of a library built without SDIO functions or without HS200
 * (config.h), over the simulated board (SDHI, host core, card layer) and the
 * command-level fake card of tests/core.
 *
 * Without SDIO functions: SD cards are identified, written and read as
 * before; an SDIO or combo card is detected by CMD5 and refused with
 * MMCHAL_ENOTSUP, its type kept, the card not ready and no command sent after
 * CMD5; a host configured with an SDIO interrupt callback is refused, its
 * enable_sdio_irq op answers MMCHAL_ENOTSUP and the SDHI controller keeps the
 * SDIO interrupt masked as the reset left it. Without HS200: an eMMC that
 * offers HS200 and HS400 on a host that offers them stops at DDR52 (or HS on
 * a host without DDR52), with no HS200 or HS400 switch, no tuning and no
 * CMD21, and reads and writes at that mode. Each group runs only in the build
 * that leaves its option out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/config.h>
#include <mmchal_sim/card.h>

#include "../../tools/sim/board.h"
#include "core/card_fake.h"
#include "core/card_priv.h"

_Static_assert(!MMCHAL_WITH_SDIO || !MMCHAL_WITH_HS200,
	       "test_lean_card.c is built only without SDIO functions or HS200");

#define CAPACITY (16ull << 20)
#define SECTORS  (CAPACITY / 512u)
#define NPAGES   8u
#define NLOG     256u

static struct board B;
static struct mmchal_sg pages[NPAGES];

/* ---- what reached the bus: every write of SD_CMD (logical offset 0, 0 at
   any bus_shift) is one command put on the CMD line */
static uint32_t bus_ops[NLOG];
static uint32_t nbus;

static void on_access(void *arg, const struct mmchal_sim_access *a)
{
	(void)arg;
	if (a->write && a->off == 0u) {
		if (nbus < NLOG)
			bus_ops[nbus] = (uint32_t)a->val & 0x3fu;
		nbus++;
	}
}

static uint32_t bus_count(uint32_t op)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < nbus && i < NLOG; i++)
		n += bus_ops[i] == op;
	return n;
}

/* ---- what the card layer asked of the host: the host core's ops with a
   record of each command, each set_ios and each tuning request */
static struct {
	uint32_t n;
	uint32_t op[NLOG];
	uint32_t arg[NLOG];
	uint32_t tunings;
	uint32_t ios_n;
	enum mmchal_timing timing[NLOG];
	enum mmchal_signal_voltage volt[NLOG];
} spy;

static void spy_cmd(const struct mmchal_cmd *c)
{
	if (c && spy.n < NLOG) {
		spy.op[spy.n] = c->opcode;
		spy.arg[spy.n] = c->arg;
	}
	if (c)
		spy.n++;
}

static int spy_request_sync(void *ctx, struct mmchal_request *req, uint32_t timeout_ms)
{
	spy_cmd(req->sbc);
	spy_cmd(req->cmd);
	return mmchal_host_core_ops.request_sync(ctx, req, timeout_ms);
}

static int spy_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	if (spy.ios_n < NLOG) {
		spy.timing[spy.ios_n] = ios->timing;
		spy.volt[spy.ios_n] = ios->signal_voltage;
	}
	spy.ios_n++;
	return mmchal_host_core_ops.set_ios(ctx, ios);
}

static int spy_execute_tuning(void *ctx, uint32_t opcode)
{
	spy.tunings++;
	return mmchal_host_core_ops.execute_tuning(ctx, opcode);
}

static struct mmchal_host_ops spy_ops;

/* The board with @o, its card layer driven through the spy, both records
   empty. */
static void open_board(const struct board_opts *o)
{
	struct mmchal_card_cfg cc;

	assert_int_equal(board_open(&B, o), 0);
	assert_int_equal(board_pages(&B, NPAGES, 11, pages), 0);
	spy_ops = mmchal_host_core_ops;
	spy_ops.request_sync = spy_request_sync;
	spy_ops.set_ios = spy_set_ios;
	spy_ops.execute_tuning = spy_execute_tuning;
	cc = B.card.cfg;
	cc.ops = &spy_ops;
	assert_int_equal(mmchal_card_setup(&B.card, &cc), 0);
	memset(&spy, 0, sizeof(spy));
	nbus = 0;
	mmchal_sim_set_trace(B.sim, on_access, NULL);
}

static void close_board(void)
{
	mmchal_sim_set_trace(B.sim, NULL, NULL);
	board_close(&B);
}

static uint8_t *store(void)
{
	uint64_t size = 0;
	uint8_t *s = mmchal_sim_card_store(B.sim, &size);

	assert_non_null(s);
	assert_int_equal(size, CAPACITY);
	return s;
}

/* Write @n pages at @lba from a pattern, compare the card's store, read them
   back into cleared pages and compare again. */
static void rw_check(uint64_t lba, uint32_t n, uint8_t seed)
{
	uint8_t *st = store();

	for (uint32_t p = 0; p < n; p++)
		for (uint32_t i = 0; i < 4096u; i++)
			((uint8_t *)pages[p].cpu)[i] = (uint8_t)(seed + p * 29u + i * 5u);
	assert_int_equal(mmchal_card_write(&B.card, lba, n * 8u, pages, n), 0);
	for (uint32_t p = 0; p < n; p++)
		assert_memory_equal(st + lba * 512u + p * 4096u, pages[p].cpu, 4096);
	for (uint32_t p = 0; p < n; p++)
		memset(pages[p].cpu, 0xa5, 4096);
	assert_int_equal(mmchal_card_read(&B.card, lba, n * 8u, pages, n), 0);
	for (uint32_t p = 0; p < n; p++)
		assert_memory_equal(st + lba * 512u + p * 4096u, pages[p].cpu, 4096);
}

/* The same for one block (CMD24, CMD17). */
static void rw_block(uint64_t lba, uint8_t seed)
{
	uint8_t *st = store(), *buf = pages[0].cpu;
	struct mmchal_sg one = {.cpu = buf, .phys = pages[0].phys, .len = 512};

	for (uint32_t i = 0; i < 512u; i++)
		buf[i] = (uint8_t)(seed * 3u + i);
	assert_int_equal(mmchal_card_write(&B.card, lba, 1, &one, 1), 0);
	assert_memory_equal(st + lba * 512u, buf, 512);
	memset(buf, 0xa5, 512);
	assert_int_equal(mmchal_card_read(&B.card, lba, 1, &one, 1), 0);
	assert_memory_equal(st + lba * 512u, buf, 512);
}

static const enum mmchal_sdhi_kind kinds[] = {MMCHAL_SDHI_IDMAC, MMCHAL_SDHI_PIO};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

#if !MMCHAL_WITH_SDIO
/* SD cards (SDHC and SDSC) over the internal DMAC and PIO: the detection
   still asks CMD5 once, the card answers nothing to it and is identified,
   written and read as before. */
static void test_sd_identify_write_read(void **state)
{
	struct board_opts o;
	uint32_t width;
	enum mmchal_timing timing;

	(void)state;
	for (size_t k = 0; k < NKINDS; k++) {
		for (int sdsc = 0; sdsc < 2; sdsc++) {
			board_defaults(&o, MMCHAL_SIM_CARD_SD, CAPACITY);
			o.kind = kinds[k];
			o.card.sdsc = sdsc != 0;
			open_board(&o);
			assert_int_equal(mmchal_card_init(&B.card), 0);
			assert_true(B.card.ready);
			assert_int_equal(B.card.info.type, MMCHAL_CARD_SD);
			assert_int_equal(B.card.info.block_addr, sdsc == 0);
			assert_int_equal(B.card.info.sectors, SECTORS);
			assert_int_equal(B.card.info.bus_width, MMCHAL_BUS_WIDTH_4);
			assert_int_equal(B.card.info.timing, MMCHAL_TIMING_SD_HS);
			assert_int_equal(B.card.info.clock_hz, 50000000u);
			assert_int_equal(B.card.err.err, 0);
			assert_int_equal(mmchal_sim_card_bus(B.sim, &width, &timing), 0);
			assert_int_equal(width, 4);
			assert_int_equal(timing, MMCHAL_TIMING_SD_HS);
			/* CMD0, CMD0, CMD8, CMD5 (unanswered), then ACMD41 */
			assert_true(nbus > 5u);
			assert_int_equal(bus_ops[0], 0);
			assert_int_equal(bus_ops[1], 0);
			assert_int_equal(bus_ops[2], 8);
			assert_int_equal(bus_ops[3], 5);
			assert_int_equal(bus_ops[4], 55);
			assert_int_equal(bus_ops[5], 41);
			assert_int_equal(bus_count(5), 1);
			assert_int_equal(bus_count(52), 0);
			rw_check(0, NPAGES, 1);
			rw_check(SECTORS - NPAGES * 8u, NPAGES, 2);
			rw_check(777, 3, 3);
			rw_block(SECTORS - 1u, 4);
			close_board();
		}
	}
}

/* The refusal as the card layer records it: ENOTSUP, no command failed. */
static void assert_refused(const struct mmchal_card *card)
{
	assert_false(card->ready);
	assert_int_equal(card->err.err, MMCHAL_ENOTSUP);
	assert_int_equal(card->err.opcode, MMCHAL_CARD_NO_CMD);
	assert_false(card->err.app);
	assert_int_equal(card->err.arg, 0);
	assert_false(card->err.status_valid);
	assert_int_equal(card->err.bytes_done, 0);
}

/* The simulator's SDIO card (one function, no memory): detected by CMD5 and
   refused; nothing is sent after the CMD5 inquiry, the host is not told of
   an SDIO card, and no block call reaches the bus. Init again: the same. */
static void test_sdio_card_refused(void **state)
{
	struct board_opts o;
	uint8_t buf[512];
	struct mmchal_sg sg = {.cpu = buf, .phys = 0, .len = sizeof(buf)};

	(void)state;
	for (size_t k = 0; k < NKINDS; k++) {
		board_defaults(&o, MMCHAL_SIM_CARD_SDIO, 0);
		o.kind = kinds[k];
		open_board(&o);
		for (int pass = 0; pass < 2; pass++) {
			nbus = 0;
			spy.n = 0;
			assert_int_equal(mmchal_card_init(&B.card), MMCHAL_ENOTSUP);
			assert_int_equal(B.card.info.type, MMCHAL_CARD_SDIO);
			assert_int_equal(B.card.info.sdio.nfuncs, 1);
			assert_false(B.card.info.sdio.mem_present);
			assert_int_equal(B.card.info.sdio.max_blk_size, 0);
			assert_int_equal(B.card.info.rca, 0);
			assert_int_equal(B.card.info.sectors, 0);
			assert_refused(&B.card);
			assert_ptr_equal(mmchal_card_last_error(&B.card), &B.card.err);
			/* CMD0, CMD0, CMD8 (an SDIO card has no memory to answer it),
			   the CMD5 inquiry: nothing else */
			assert_int_equal(nbus, 4);
			assert_int_equal(bus_ops[0], 0);
			assert_int_equal(bus_ops[1], 0);
			assert_int_equal(bus_ops[2], 8);
			assert_int_equal(bus_ops[3], 5);
			assert_int_equal(spy.n, 4);
			assert_int_equal(spy.arg[3], 0);
			assert_int_equal(mmchal_host_limits(&B.host)->card, MMCHAL_CARD_UNKNOWN);
			assert_int_equal(B.card.limits.card, MMCHAL_CARD_UNKNOWN);
		}
		/* no block access: refused as for a card never identified, with
		   no command on the bus */
		nbus = 0;
		assert_int_equal(mmchal_card_read(&B.card, 0, 1, &sg, 1), MMCHAL_ENOMEDIUM);
		assert_int_equal(B.card.err.err, MMCHAL_ENOMEDIUM);
		assert_int_equal(B.card.err.opcode, MMCHAL_CARD_NO_CMD);
		assert_int_equal(mmchal_card_write(&B.card, 0, 1, &sg, 1), MMCHAL_ENOMEDIUM);
		assert_int_equal(mmchal_card_erase(&B.card, 0, 1, MMCHAL_CARD_ERASE),
				 MMCHAL_ENOMEDIUM);
		assert_int_equal(nbus, 0);
		close_board();
	}
}

static uint8_t fake_image[64u * 512u];
static uint8_t fake_buf[MMCHAL_CARD_BUF_SIZE];
static struct fake fk;
static struct mmchal_card fcard;

/* A combo card (the fake's SDIO card answering CMD5 with one function and
   memory present): refused as SD_COMBO after the CMD5 inquiry, its memory
   part not driven either; no read reaches it. A memory card that answers
   CMD5 with no function is still identified as the memory card it is. */
static void test_combo_card_refused(void **state)
{
	struct mmchal_card_cfg cfg;
	struct mmchal_sg sg = {.cpu = fake_buf, .phys = 0, .len = 512};

	(void)state;
	fake_init(&fk, FAKE_SDIO, fake_image, 64);
	fk.sdio_ocr = (1u << 28) | (1u << 27) | OCR_VDD_27_36;
	fake_card_cfg(&fk, &cfg, fake_buf);
	assert_int_equal(mmchal_card_setup(&fcard, &cfg), 0);
	assert_int_equal(mmchal_card_init(&fcard), MMCHAL_ENOTSUP);
	assert_int_equal(fcard.info.type, MMCHAL_CARD_SD_COMBO);
	assert_int_equal(fcard.info.sdio.nfuncs, 1);
	assert_true(fcard.info.sdio.mem_present);
	assert_int_equal(fcard.info.ocr, 0);
	assert_refused(&fcard);
	assert_int_equal(fk.nlog, 4);
	assert_int_equal(fk.log[0], 0);
	assert_int_equal(fk.log[1], 0);
	assert_int_equal(fk.log[2], 8);
	assert_int_equal(fk.log[3], 5);
	assert_int_equal(fk.log_arg[3], 0);
	assert_int_equal(fk.init_card_calls, 0);
	assert_int_equal(mmchal_card_read(&fcard, 0, 1, &sg, 1), MMCHAL_ENOMEDIUM);
	assert_int_equal(fk.nlog, 4);

	/* an SDHC card that answers CMD5 with no I/O function and memory present */
	fake_init(&fk, FAKE_SDHC, fake_image, 64);
	fk.mem_r4 = (1u << 27) | OCR_VDD_27_36;
	fake_card_cfg(&fk, &cfg, fake_buf);
	assert_int_equal(mmchal_card_setup(&fcard, &cfg), 0);
	assert_int_equal(mmchal_card_init(&fcard), 0);
	assert_true(fcard.ready);
	assert_int_equal(fcard.info.type, MMCHAL_CARD_SD);
	assert_int_equal(fake_count(&fk, 5), 1);
	assert_int_equal(fk.init_card_calls, 1);
	assert_int_equal(fk.init_type, MMCHAL_CARD_SD);
	memset(fake_image, 0x3c, 512);
	memset(fake_buf, 0, 512);
	assert_int_equal(mmchal_card_read(&fcard, 0, 1, &sg, 1), 0);
	assert_memory_equal(fake_buf, fake_image, 512);
}

static unsigned sdio_calls, be_enables;

static void on_sdio_irq(void *arg)
{
	(void)arg;
	sdio_calls++;
}

/* A backend op the host core must never call. */
static int be_enable_sdio_irq(void *ctx, bool enable)
{
	(void)ctx;
	(void)enable;
	be_enables++;
	return 0;
}

/* One command through the host, no data; the response's first word. */
static int host_cmd(uint32_t op, uint32_t arg, uint32_t flags, uint32_t *resp)
{
	struct mmchal_cmd c = {.opcode = op, .arg = arg, .flags = flags};
	struct mmchal_request r = {.cmd = &c};
	int err = mmchal_host_request_sync(&B.host, &r, 1000);

	*resp = c.resp[0];
	return err;
}

/* Bits 0..15 of the SDHI register at logical offset @reg. */
static uint16_t sdhi_reg(uint32_t reg)
{
	return mmchal_bus_rd16(&B.scfg.bus, reg);
}

#define R_SDIO_MODE  0x34u
#define R_SDIO_INFO1 0x36u
#define R_SDIO_MASK  0x38u

/*
 * The host core has no SDIO interrupt path: a host configured with an
 * sdio_irq callback is refused, the enable_sdio_irq op answers ENOTSUP (EINVAL
 * without a live host), the host's capabilities offer no SDIO interrupt, and
 * the SDHI backend has no such op. An SDIO card brought up by hand, with its
 * function 1 interrupt enabled in the card and raised, is never reported and
 * the controller's SDIO registers are never written: SDIO_MODE 0, SDIO_MASK
 * as the reset left it (0xc007, IOIRQ masked), SDIO_INFO1 never latched.
 */
static void test_sdio_irq_left_out(void **state)
{
	struct board_opts o;
	struct mmchal_host other;
	struct mmchal_host_cfg hc;
	struct mmchal_host_caps caps;
	struct mmchal_backend_ops be_ops;
	struct mmchal_backend be;
	uint32_t shift, r = 0, ev;

	(void)state;
	board_defaults(&o, MMCHAL_SIM_CARD_SDIO, 0);
	o.kind = MMCHAL_SDHI_PIO;
	o.bus |= MMCHAL_BUS_SDIO_IRQ;
	open_board(&o);
	shift = B.scfg.bus.bus_shift;

	/* the same host with an owner for the SDIO interrupt: refused, not live */
	hc = B.hc;
	hc.sdio_irq = on_sdio_irq;
	hc.sdio_irq_arg = &other;
	memset(&other, 0x6b, sizeof(other));
	assert_int_equal(mmchal_host_init(&other, &hc), MMCHAL_EINVAL);
	assert_null(mmchal_host_limits(&other));
	assert_int_equal(mmchal_host_poll(&other), MMCHAL_EINVAL);
	/* an argument without a callback asks for nothing; over a backend that
	   has the op, the host still never turns the interrupt on */
	be_ops = *B.be.ops;
	be_ops.enable_sdio_irq = be_enable_sdio_irq;
	be.ops = &be_ops;
	be.ctx = B.be.ctx;
	hc.backend = &be;
	hc.sdio_irq = NULL;
	assert_int_equal(mmchal_host_init(&other, &hc), 0);
	be_enables = 0;
	assert_int_equal(mmchal_host_core_ops.enable_sdio_irq(&other, true), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_core_ops.enable_sdio_irq(&other, false), MMCHAL_ENOTSUP);
	assert_int_equal(be_enables, 0);
	mmchal_host_deinit(&other);

	assert_int_equal(mmchal_host_core_ops.enable_sdio_irq(&B.host, true), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_core_ops.enable_sdio_irq(&B.host, false), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_enable_sdio_irq(&mmchal_host_core_ops, &B.host, true),
			 MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_host_core_ops.enable_sdio_irq(NULL, true), MMCHAL_EINVAL);
	assert_int_equal(mmchal_host_core_ops.enable_sdio_irq(&other, true), MMCHAL_EINVAL);
	assert_null(B.be.ops->enable_sdio_irq);
	assert_int_equal(mmchal_host_core_ops.get_caps(&B.host, &caps), 0);
	assert_int_equal(caps.bus, MMCHAL_BUS_4_BIT | MMCHAL_BUS_SD_HS | MMCHAL_BUS_MMC_HS |
					   MMCHAL_BUS_CMD23 | MMCHAL_BUS_AUTO_CMD12 |
					   MMCHAL_BUS_HW_BUSY);

	/* the card layer powers the slot and refuses the card; then the card by
	   hand: CMD5 until ready, CMD3, CMD7, CMD52 write of IENM | IEN1 (CCCR
	   0x04) */
	assert_int_equal(mmchal_card_init(&B.card), MMCHAL_ENOTSUP);
	for (int i = 0;; i++) {
		assert_true(i < 100);
		assert_int_equal(host_cmd(5, 0x00ff8000u, MMCHAL_RSP_R4, &r), 0);
		if (r & 0x80000000u)
			break;
		B.port.ops->delay_us(B.port.ctx, 100);
	}
	assert_int_equal(host_cmd(3, 0, MMCHAL_RSP_R6, &r), 0);
	assert_int_equal(host_cmd(7, r & 0xffff0000u, MMCHAL_RSP_R1B, &r), 0);
	assert_int_equal(host_cmd(52, (1u << 31) | (0x04u << 9) | 0x03u, MMCHAL_RSP_R5, &r), 0);
	assert_int_equal(host_cmd(52, 0x04u << 9, MMCHAL_RSP_R5, &r), 0);
	assert_int_equal(r & 0xffu, 0x03);

	/* function 1 raises its interrupt: the card signals it, nobody hears */
	assert_int_equal(mmchal_sim_sdio_irq(B.sim, true), 0);
	B.port.ops->delay_us(B.port.ctx, 1000);
	assert_int_equal(mmchal_host_poll(&B.host), 0);
	assert_int_equal(B.be.ops->handle_irq(B.be.ctx, &ev), 0);
	assert_int_equal(ev & MMCHAL_EV_SDIO_IRQ, 0);
	assert_int_equal(host_cmd(52, 0x05u << 9, MMCHAL_RSP_R5, &r), 0);
	assert_int_equal(r & 0xffu, 0x02); /* INTx: function 1 pending in the card */
	assert_int_equal(sdio_calls, 0);
	assert_int_equal(sdhi_reg(R_SDIO_MODE), 0);
	assert_int_equal(sdhi_reg(R_SDIO_MASK), 0xc007);
	assert_int_equal(sdhi_reg(R_SDIO_INFO1), 0);
	assert_int_equal(mmchal_sim_reg_writes(B.sim, R_SDIO_MODE << shift), 0);
	assert_int_equal(mmchal_sim_reg_writes(B.sim, R_SDIO_MASK << shift), 0);
	assert_int_equal(mmchal_sim_reg_writes(B.sim, R_SDIO_INFO1 << shift), 0);
	assert_int_equal(mmchal_sim_reg_reads(B.sim, R_SDIO_INFO1 << shift), 1);
	close_board();
}
#endif

#if !MMCHAL_WITH_HS200
/* CMD6 argument writing @value to EXT_CSD byte @index (JEDEC 6.10.4). */
#define SWITCH_ARG(index, value) ((3u << 24) | ((index) << 16) | ((value) << 8))

/* No HS200 or HS400 anywhere: no tuning, no CMD21, no set_ios at an HS200
   or HS400 timing or at 1.8 V; CMD6 wrote exactly @n values, @args. */
static void assert_no_hs200(const uint32_t *args, uint32_t n)
{
	uint32_t k = 0;

	assert_int_equal(spy.tunings, 0);
	assert_int_equal(bus_count(21), 0);
	assert_true(spy.n <= NLOG);
	for (uint32_t i = 0; i < spy.n; i++) {
		assert_int_not_equal(spy.op[i], 21);
		if (spy.op[i] == 6) {
			assert_true(k < n);
			assert_int_equal(spy.arg[i], args[k]);
			k++;
		}
	}
	assert_int_equal(k, n);
	assert_int_equal(bus_count(6), n);
	assert_true(spy.ios_n <= NLOG);
	for (uint32_t i = 0; i < spy.ios_n; i++) {
		assert_int_not_equal(spy.timing[i], MMCHAL_TIMING_MMC_HS200);
		assert_int_not_equal(spy.timing[i], MMCHAL_TIMING_MMC_HS400);
		assert_int_equal(spy.volt[i], MMCHAL_SIGNAL_330);
	}
}

/*
 * An eMMC offering HS26, HS52, DDR52, HS200 and HS400 (CARD_TYPE 0x57) on a
 * Gen3 host with the 8-bit bus, HS200, HS400 and, first, DDR52: identified at
 * 8-bit DDR52, 52 MHz (BUS_WIDTH 6, HS_TIMING 1 in the card), then, on a host
 * without DDR52, at 8-bit HS, 52 MHz. Reads and writes at that mode over the
 * internal DMAC and PIO, bytes compared with the card's store.
 */
static void test_emmc_stops_below_hs200(void **state)
{
	static const uint32_t ddr_args[] = {
		SWITCH_ARG(EXT_CSD_BUS_WIDTH, EXT_CSD_WIDTH_8),
		SWITCH_ARG(EXT_CSD_HS_TIMING, EXT_CSD_TIMING_HS),
		SWITCH_ARG(EXT_CSD_BUS_WIDTH, EXT_CSD_WIDTH_8_DDR),
	};
	struct board_opts o;
	uint32_t width;
	enum mmchal_timing timing;

	(void)state;
	for (size_t k = 0; k < NKINDS; k++) {
		for (int ddr = 1; ddr >= 0; ddr--) {
			board_defaults(&o, MMCHAL_SIM_CARD_MMC, CAPACITY);
			o.kind = kinds[k];
			if (ddr)
				o.bus |= MMCHAL_BUS_MMC_DDR52;
			assert_int_equal(o.card.mmc_card_type, 0x57);
			assert_int_equal(o.bus & (MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400),
					 MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400);
			open_board(&o);
			assert_int_equal(mmchal_card_init(&B.card), 0);
			/* the host does offer both */
			assert_int_equal(B.card.caps.bus & (MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400),
					 MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400);
			assert_true(B.card.ready);
			assert_int_equal(B.card.info.type, MMCHAL_CARD_MMC);
			assert_int_equal(B.card.info.ext_csd.card_type, 0x57);
			assert_int_equal(B.card.info.sectors, SECTORS);
			assert_int_equal(B.card.info.bus_width, MMCHAL_BUS_WIDTH_8);
			assert_int_equal(B.card.info.timing,
					 ddr ? MMCHAL_TIMING_MMC_DDR52 : MMCHAL_TIMING_MMC_HS);
			assert_int_equal(B.card.info.clock_hz, 52000000u);
			assert_false(B.card.info.tuned);
			assert_int_equal(B.card.ios.signal_voltage, MMCHAL_SIGNAL_330);
			assert_int_equal(B.card.err.err, 0);
			assert_int_equal(mmchal_sim_card_bus(B.sim, &width, &timing), 0);
			assert_int_equal(width, 8);
			assert_int_equal(timing,
					 ddr ? MMCHAL_TIMING_MMC_DDR52 : MMCHAL_TIMING_MMC_HS);
			assert_int_equal(mmchal_sim_card_ext_csd(B.sim, EXT_CSD_HS_TIMING),
					 EXT_CSD_TIMING_HS);
			assert_int_equal(mmchal_sim_card_ext_csd(B.sim, EXT_CSD_BUS_WIDTH),
					 ddr ? EXT_CSD_WIDTH_8_DDR : EXT_CSD_WIDTH_8);
			assert_no_hs200(ddr_args, ddr ? 3u : 2u);

			rw_check(0, NPAGES, 4);
			rw_check(SECTORS - NPAGES * 8u, NPAGES, 5);
			rw_check(4099, 5, 6);
			rw_block(SECTORS / 2u + 1u, 7);
			assert_int_equal(bus_count(21), 0);
			assert_int_equal(spy.tunings, 0);
			close_board();
		}
	}
}

/*
 * An eMMC whose DDR52 width switch (the third CMD6: BUS_WIDTH 8, HS_TIMING 1,
 * BUS_WIDTH 6) goes unanswered (the card never saw it): the card layer
 * falls back to single data rate HS on the 8-bit bus. Without HS200 no step ever tunes, so
 * the fall-back has no tuning to forget: info.tuned is false throughout and
 * the failure record is cleared as with HS200.
 */
static void test_emmc_ddr52_fall_back(void **state)
{
	static const uint32_t args[] = {
		SWITCH_ARG(EXT_CSD_BUS_WIDTH, EXT_CSD_WIDTH_8),
		SWITCH_ARG(EXT_CSD_HS_TIMING, EXT_CSD_TIMING_HS),
		SWITCH_ARG(EXT_CSD_BUS_WIDTH, EXT_CSD_WIDTH_8_DDR),
		SWITCH_ARG(EXT_CSD_BUS_WIDTH, EXT_CSD_WIDTH_8),
	};
	struct mmchal_sim_fault f = {.kind = MMCHAL_SIM_FAULT_CMD_TIMEOUT,
				     .trigger = MMCHAL_SIM_AT_CMD,
				     .opcode = CARD_CMD_SWITCH,
				     .count = 2};
	struct board_opts o;
	uint32_t width;
	enum mmchal_timing timing;

	(void)state;
	board_defaults(&o, MMCHAL_SIM_CARD_MMC, CAPACITY);
	o.bus |= MMCHAL_BUS_MMC_DDR52;
	open_board(&o);
	assert_int_equal(mmchal_sim_fault_add(B.sim, &f), 0);
	assert_int_equal(mmchal_card_init(&B.card), 0);
	assert_true(B.card.ready);
	assert_int_equal(B.card.info.bus_width, MMCHAL_BUS_WIDTH_8);
	assert_int_equal(B.card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_false(B.card.info.tuned);
	assert_int_equal(B.card.err.err, 0);
	assert_int_equal(mmchal_sim_card_bus(B.sim, &width, &timing), 0);
	assert_int_equal(width, 8);
	assert_int_equal(timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(mmchal_sim_card_ext_csd(B.sim, EXT_CSD_BUS_WIDTH), EXT_CSD_WIDTH_8);
	/* the lost switch, then the fall-back's BUS_WIDTH 2 */
	assert_no_hs200(args, 4u);
	rw_block(SECTORS / 2u, 9);
	close_board();
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#if !MMCHAL_WITH_SDIO
		cmocka_unit_test(test_sd_identify_write_read),
		cmocka_unit_test(test_sdio_card_refused),
		cmocka_unit_test(test_combo_card_refused),
		cmocka_unit_test(test_sdio_irq_left_out),
#endif
#if !MMCHAL_WITH_HS200
		cmocka_unit_test(test_emmc_stops_below_hs200),
		cmocka_unit_test(test_emmc_ddr52_fall_back),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
