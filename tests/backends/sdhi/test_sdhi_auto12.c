/*
 * Automatic CMD12 on every SDHI backend, through the backend ops: after an
 * open-ended multi-block read and write with auto_stop the STOP carries the
 * R1 the card gave to the controller's CMD12 (SD_RSP10 after the data end),
 * not the data command's; a write ends only once CMD12's busy ended; a
 * response timeout, CRC or end-bit error of that CMD12 alone is the STOP's
 * error with the data complete; a data error leaves the STOP alone, and so
 * does a transfer without auto_stop.
 */
#include "sdhi_fx.h"

#define LBA    300u
#define NBLK   8u
/* 0xffffffff never comes from the card: CRC and end bit are checked. */
#define POISON 0xdeadbeefu

/* R1 card status: CURRENT_STATE in bits 12:9, READY_FOR_DATA bit 8 (JEDEC 84-B51 6.13). */
#define R1_TRAN 0x00000900u /* tran, ready for data */
#define R1_DATA 0x00000b00u /* data, ready for data: CMD12 received while sending */
#define R1_RCV  0x00000d00u /* rcv, ready for data: CMD12 received while receiving */

struct io {
	struct fx_buf b;
	struct mmchal_sg sg;
	struct mmchal_dma_seg seg;
	struct mmchal_data d;
	struct mmchal_cmd c;
	struct mmchal_cmd stop;
	struct mmchal_xfer x;
};

struct backend_case {
	enum mmchal_sim_soc soc;
	enum mmchal_sdhi_kind kind;
	enum mmchal_plan plan;
	int bus_shift; /* -1 = the SoC default */
};

static const struct backend_case cases[] = {
	{MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_IDMAC, MMCHAL_PLAN_DIRECT, -1},
	{MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_SYSDMAC, MMCHAL_PLAN_DIRECT, -1},
	{MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_PIO, MMCHAL_PLAN_PIO, -1},
	{MMCHAL_SIM_SOC_GEN2, MMCHAL_SDHI_PIO, MMCHAL_PLAN_PIO, -1},
	/* SD_RSP10 reached as two 16-bit halves on a Gen3 register layout */
	{MMCHAL_SIM_SOC_GEN3, MMCHAL_SDHI_PIO, MMCHAL_PLAN_PIO, 1},
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

static void io_prep(struct fx *f, struct io *io, bool write, enum mmchal_plan plan, uint32_t nblk)
{
	memset(io, 0, sizeof(*io));
	fx_buf_get(f, f->lo, nblk * 512u, 0, &io->b);
	memset(io->b.p, write ? 0x77 : 0x5a, nblk * 512u);
	io->sg.cpu = io->b.p;
	io->sg.phys = io->b.phys;
	io->sg.len = nblk * 512u;
	io->seg.addr = io->b.phys;
	io->seg.len = nblk * 512u;
	io->d.dir = write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
	io->d.blksz = 512;
	io->d.blocks = nblk;
	io->d.sg = &io->sg;
	io->d.sg_len = 1;
	io->c.opcode = write ? 25 : 18;
	io->c.arg = LBA;
	io->c.flags = MMCHAL_RSP_R1;
	io->stop.opcode = 12;
	io->stop.flags = MMCHAL_RSP_R1B;
	io->stop.resp[0] = POISON;
	io->stop.error = 1; /* no mmchal error: shows whether the backend wrote it */
	io->x.cmd = &io->c;
	io->x.data = &io->d;
	io->x.auto_stop = true;
	io->x.stop = &io->stop;
	io->x.plan = plan;
	if (plan != MMCHAL_PLAN_PIO) {
		io->x.segs = &io->seg;
		io->x.nsegs = 1;
	}
}

static uint32_t io_run(struct fx *f, struct io *io)
{
	uint32_t ev;

	assert_int_equal(f->be.ops->start(f->be.ctx, &io->x), 0);
	ev = fx_wait(f, &io->x);
	assert_false(ev & FX_TIMEOUT);
	return ev;
}

static void open_case(struct fx *f, const struct backend_case *bc, uint32_t extra_bus)
{
	struct fx_opts o = {bc->soc, bc->kind, bc->bus_shift, 0, 0, MMCHAL_SIM_CARD_MMC,
			    false,   false,    extra_bus};

	assert_int_equal(fx_open(f, &o), 0);
	fx_mmc_init(f, MMCHAL_BUS_WIDTH_8);
}

static void fill_store(struct fx *f, uint32_t seed)
{
	uint64_t size;
	uint8_t *store = mmchal_sim_card_store(f->sim, &size);

	for (uint32_t i = 0; i < NBLK * 512u; i++)
		store[LBA * 512u + i] = fx_pat(i, seed);
}

/* The R1 of the controller's CMD12 lands in stop->resp[0]; a write ends after its busy. */
static void test_auto12_response(void **state)
{
	(void)state;
	for (size_t b = 0; b < NCASES; b++) {
		uint64_t size;
		uint8_t *store;
		struct mmchal_sim_counters sc0, sc1;
		struct fx f;
		struct io io;
		uint32_t ev;

		open_case(&f, &cases[b], 0);
		store = mmchal_sim_card_store(f.sim, &size);
		fill_store(&f, 3);
		io_prep(&f, &io, false, cases[b].plan, NBLK);
		mmchal_sim_get_counters(f.sim, &sc0);
		ev = io_run(&f, &io);
		mmchal_sim_get_counters(f.sim, &sc1);
		assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR), 0);
		assert_true(ev & MMCHAL_EV_DATA_DONE);
		/* CMD18 and the controller's CMD12 */
		assert_int_equal(sc1.commands - sc0.commands, 2);
		assert_int_equal(io.c.resp[0], R1_TRAN);
		assert_int_equal(io.stop.resp[0], R1_DATA);
		assert_int_equal(io.stop.error, 0);
		assert_int_equal(io.d.bytes_xfered, NBLK * 512u);
		assert_memory_equal(io.b.p, store + LBA * 512u, NBLK * 512u);
		assert_int_equal(mmchal_sim_card_state(f.sim), MMCHAL_SIM_ST_TRAN);

		io_prep(&f, &io, true, cases[b].plan, NBLK);
		ev = io_run(&f, &io);
		assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR), 0);
		assert_true(ev & MMCHAL_EV_DATA_DONE);
		assert_int_equal(io.c.resp[0], R1_TRAN);
		assert_int_equal(io.stop.resp[0], R1_RCV);
		assert_int_equal(io.stop.error, 0);
		/* hardware busy detection: CMD12's busy is over at the data end */
		assert_int_equal(f.be.ops->card_busy(f.be.ctx), 0);
		assert_int_equal(mmchal_sim_card_state(f.sim), MMCHAL_SIM_ST_TRAN);
		assert_memory_equal(store + LBA * 512u, io.b.p, NBLK * 512u);
		fx_buf_guards(&io.b);
		fx_close(&f);
	}
}

/* Without auto_stop the controller sends no CMD12 and the STOP is not touched. */
static void test_no_auto12_leaves_stop(void **state)
{
	(void)state;
	for (size_t b = 0; b < NCASES; b++) {
		struct mmchal_sim_counters sc0, sc1;
		struct fx f;
		struct io io;
		uint32_t ev;

		open_case(&f, &cases[b], 0);
		fill_store(&f, 4);
		io_prep(&f, &io, false, cases[b].plan, NBLK);
		io.x.auto_stop = false;
		mmchal_sim_get_counters(f.sim, &sc0);
		ev = io_run(&f, &io);
		mmchal_sim_get_counters(f.sim, &sc1);
		assert_true(ev & MMCHAL_EV_DATA_DONE);
		assert_int_equal(sc1.commands - sc0.commands, 1);
		assert_int_equal(io.stop.resp[0], POISON);
		assert_int_equal(io.stop.error, 1);
		/* the card is still sending: the caller's CMD12 ends it */
		assert_int_equal(mmchal_sim_card_state(f.sim), MMCHAL_SIM_ST_DATA);
		assert_int_equal(fx_cmd(&f, 12, 0, MMCHAL_RSP_R1B), 0);
		assert_int_equal(mmchal_sim_card_state(f.sim), MMCHAL_SIM_ST_TRAN);
		fx_close(&f);
	}
}

/*
 * A bus that shows a CRC or end-bit error of the automatic CMD12's response:
 * once the controller raised access end (the CMD12 response came), INFO2 adds
 * the CRC (bit 1) or end-bit (bit 2) error and SD_ERR_STS1 the CMD12 bit
 * (RSPCRCE1 bit 9, RSPLENE1 bit 3: RZ/A1H User's Manual), until the soft reset.
 */
struct a12_bus {
	struct mmchal_bus inner;
	uint8_t shift;
	bool armed, firing;
	uint16_t info2, err1;
	uint32_t fired;
	/* internal DMAC: bits added to DM_CM_INFO2 and taken from DM_CM_INFO1
	   while firing (a channel error instead of the channel's end) */
	uint32_t dm_info2_add, dm_info1_drop;
};

static struct a12_bus A12;

static uint16_t a12_rd16(void *ctx, uint32_t off)
{
	struct a12_bus *a = ctx;
	uint16_t v = a->inner.ops->read16(a->inner.ctx, off);
	uint32_t reg = off >> a->shift;

	if (a->armed && reg == 0x1cu && (v & 0x0004u)) {
		a->firing = true;
		a->armed = false;
		a->fired++;
	}
	if (a->firing && reg == 0x1eu)
		v |= a->info2;
	if (a->firing && reg == 0x2cu)
		v |= a->err1;
	return v;
}

static void a12_wr16(void *ctx, uint32_t off, uint16_t val)
{
	struct a12_bus *a = ctx;

	if ((off >> a->shift) == 0xe0u && !(val & 1u))
		a->firing = false; /* soft reset clears the status */
	a->inner.ops->write16(a->inner.ctx, off, val);
}

static uint32_t a12_rd32(void *ctx, uint32_t off)
{
	struct a12_bus *a = ctx;
	uint32_t v = a->inner.ops->read32(a->inner.ctx, off);

	if (a->firing && off == 0x850u) /* DM_CM_INFO2 */
		v |= a->dm_info2_add;
	if (a->firing && off == 0x840u) /* DM_CM_INFO1 */
		v &= ~a->dm_info1_drop;
	return v;
}

static void a12_wr32(void *ctx, uint32_t off, uint32_t val)
{
	struct a12_bus *a = ctx;

	a->inner.ops->write32(a->inner.ctx, off, val);
}

static uint64_t a12_rd64(void *ctx, uint32_t off)
{
	struct a12_bus *a = ctx;

	return a->inner.ops->read64(a->inner.ctx, off);
}

static void a12_wr64(void *ctx, uint32_t off, uint64_t val)
{
	struct a12_bus *a = ctx;

	a->inner.ops->write64(a->inner.ctx, off, val);
}

static const struct mmchal_bus_ops a12_ops = {a12_rd16, a12_wr16, a12_rd32,
					      a12_wr32, a12_rd64, a12_wr64};

/* Put the injecting bus under an opened backend and probe it again. */
static void a12_attach(struct fx *f, const struct backend_case *bc)
{
	memset(&A12, 0, sizeof(A12));
	A12.inner = f->cfg.bus;
	A12.shift = f->cfg.bus.bus_shift;
	f->cfg.bus.ops = &a12_ops;
	f->cfg.bus.ctx = &A12;
	if (bc->kind == MMCHAL_SDHI_IDMAC)
		assert_int_equal(mmchal_sdhi_idmac_init(&f->sdhi, &f->cfg, &f->be), 0);
	else if (bc->kind == MMCHAL_SDHI_SYSDMAC)
		assert_int_equal(mmchal_sdhi_sysdmac_init(&f->sdhi, &f->cfg, &f->be), 0);
	else
		assert_int_equal(mmchal_sdhi_pio_init(&f->sdhi, &f->cfg, &f->be), 0);
	assert_int_equal(f->be.ops->probe(f->be.ctx), 0);
	fx_mmc_init(f, MMCHAL_BUS_WIDTH_8);
}

/* A good read with the STOP's answer after a failed automatic CMD12: recovered. */
static void check_good(struct fx *f, const struct backend_case *bc)
{
	struct io io;
	uint32_t ev;

	while (f->be.ops->card_busy(f->be.ctx) == 1)
		fx_delay(f, 10000);
	if (mmchal_sim_card_state(f->sim) != MMCHAL_SIM_ST_TRAN)
		assert_int_equal(fx_cmd(f, 12, 0, MMCHAL_RSP_R1B), 0);
	io_prep(f, &io, false, bc->plan, NBLK);
	ev = io_run(f, &io);
	assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR), 0);
	assert_int_equal(io.stop.resp[0], R1_DATA);
	assert_int_equal(io.stop.error, 0);
}

struct a12_fault {
	bool write;
	uint16_t info2, err1;
};

static const struct a12_fault a12_faults[] = {
	{false, 0x0002u, 0x0200u}, /* response CRC */
	{true, 0x0002u, 0x0200u},
	{false, 0x0004u, 0x0008u}, /* end bit */
	{true, 0x0004u, 0x0008u},
};

/* CRC or end-bit error of the CMD12 response only: EIO in the STOP, the data complete. */
static void test_auto12_crc_end_bit(void **state)
{
	(void)state;
	for (size_t b = 0; b < NCASES; b++) {
		for (size_t k = 0; k < sizeof(a12_faults) / sizeof(a12_faults[0]); k++) {
			uint64_t size;
			uint8_t *store;
			struct fx f;
			struct io io;
			uint32_t ev;

			open_case(&f, &cases[b], 0);
			a12_attach(&f, &cases[b]);
			store = mmchal_sim_card_store(f.sim, &size);
			fill_store(&f, 5);
			io_prep(&f, &io, a12_faults[k].write, cases[b].plan, NBLK);
			A12.info2 = a12_faults[k].info2;
			A12.err1 = a12_faults[k].err1;
			A12.armed = true;
			ev = io_run(&f, &io);
			assert_int_equal(A12.fired, 1);
			assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR), 0);
			assert_true(ev & MMCHAL_EV_DATA_DONE);
			assert_int_equal(io.d.error, 0);
			assert_int_equal(io.d.bytes_xfered, NBLK * 512u);
			assert_int_equal(io.stop.error, MMCHAL_EIO);
			if (a12_faults[k].write)
				assert_memory_equal(store + LBA * 512u, io.b.p, NBLK * 512u);
			else
				assert_memory_equal(io.b.p, store + LBA * 512u, NBLK * 512u);
			assert_false(A12.firing); /* the controller was reset */
			check_good(&f, &cases[b]);
			fx_close(&f);
		}
	}
}

/* A data CRC error with auto_stop: the data phase's error; the STOP is not touched. */
static void test_data_error_leaves_stop(void **state)
{
	(void)state;
	for (size_t b = 0; b < NCASES; b++) {
		struct mmchal_sim_fault sf = {MMCHAL_SIM_FAULT_DATA_CRC, MMCHAL_SIM_AT_BLOCK, 18, 3,
					      0};
		struct fx f;
		struct io io;
		uint32_t ev;

		open_case(&f, &cases[b], 0);
		assert_int_equal(mmchal_sim_fault_add(f.sim, &sf), 0);
		io_prep(&f, &io, false, cases[b].plan, NBLK);
		ev = io_run(&f, &io);
		assert_true(ev & MMCHAL_EV_DATA_ERROR);
		assert_false(ev & MMCHAL_EV_DATA_DONE);
		assert_int_equal(io.d.error, MMCHAL_EIO);
		assert_int_equal(io.stop.resp[0], POISON);
		assert_int_equal(io.stop.error, 0); /* cleared at start, no failure stored */
		check_good(&f, &cases[b]);
		fx_close(&f);
	}
}

/*
 * No answer to the automatic CMD12: the card went away after its last block
 * was in the buffer, on a host that does not watch card detect. The response
 * timeout (SD_ERR_STS2 RSPTO1) is the STOP's ETIMEDOUT; the data arrived.
 */
static void test_auto12_timeout(void **state)
{
	(void)state;
	for (size_t b = 0; b < NCASES; b++) {
		struct mmchal_sim_counters sc;
		uint64_t blocks0;
		struct fx f;
		struct io io;
		uint32_t ev = 0;

		if (cases[b].kind != MMCHAL_SDHI_PIO)
			continue; /* the buffer holds the last block until PIO drains it */
		open_case(&f, &cases[b], MMCHAL_BUS_NONREMOVABLE);
		fill_store(&f, 6);
		io_prep(&f, &io, false, cases[b].plan, 2);
		mmchal_sim_get_counters(f.sim, &sc);
		blocks0 = sc.blocks;

		assert_int_equal(f.be.ops->start(f.be.ctx, &io.x), 0);
		/* serve until the card has sent both blocks, without draining the last */
		for (int i = 0; i < 100000; i++) {
			mmchal_sim_get_counters(f.sim, &sc);
			if (sc.blocks - blocks0 == 2)
				break;
			assert_int_equal(f.be.ops->handle_irq(f.be.ctx, &ev), 0);
			assert_int_equal(ev & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR), 0);
			mmchal_sim_run(f.sim, mmchal_sim_now(f.sim) + 1000);
		}
		assert_int_equal(sc.blocks - blocks0, 2);
		assert_int_equal(mmchal_sim_card_remove(f.sim), 0);
		ev = fx_wait(&f, &io.x);
		assert_false(ev & FX_TIMEOUT);
		assert_int_equal(ev & (MMCHAL_EV_CMD_ERROR | MMCHAL_EV_DATA_ERROR), 0);
		assert_true(ev & MMCHAL_EV_DATA_DONE);
		assert_int_equal(io.d.error, 0);
		assert_int_equal(io.d.bytes_xfered, 2 * 512u);
		for (uint32_t i = 0; i < 2 * 512u; i++)
			assert_int_equal(io.b.p[i], fx_pat(i, 6));
		assert_int_equal(io.stop.error, MMCHAL_ETIMEDOUT);
		assert_int_equal(io.stop.resp[0], POISON);
		fx_close(&f);
	}
}

/*
 * The error is the automatic CMD12's only when SD_ERR_STS1/2 show CMD12 bits and
 * nothing else: with a data-phase CRC bit beside the CMD12 one (bit 10 with bit
 * 9), or with no detail at all, it is the data phase's, and the STOP keeps no error.
 */
static void test_auto12_error_owner(void **state)
{
	static const uint16_t err1[] = {0x0200u | 0x0400u, 0};

	(void)state;
	for (size_t b = 0; b < NCASES; b++) {
		for (size_t k = 0; k < sizeof(err1) / sizeof(err1[0]); k++) {
			struct fx f;
			struct io io;
			uint32_t ev;

			open_case(&f, &cases[b], 0);
			a12_attach(&f, &cases[b]);
			io_prep(&f, &io, false, cases[b].plan, NBLK);
			A12.info2 = 0x0002u;
			A12.err1 = err1[k];
			A12.armed = true;
			ev = io_run(&f, &io);
			assert_int_equal(A12.fired, 1);
			assert_true(ev & MMCHAL_EV_DATA_ERROR);
			assert_false(ev & MMCHAL_EV_DATA_DONE);
			assert_int_equal(io.d.error, MMCHAL_EIO);
			assert_int_equal(io.stop.error, 0);
			check_good(&f, &cases[b]);
			fx_close(&f);
		}
	}
}

/*
 * The internal DMAC's channel reports an error where its end should be, while
 * the automatic CMD12's response has a CRC error: the data did not all arrive,
 * so the DMA error is the data phase's (EFAULT) and the STOP keeps none.
 */
static void test_auto12_error_with_dma_error(void **state)
{
	(void)state;
	for (int write = 0; write < 2; write++) {
		struct fx f;
		struct io io;
		uint32_t ev;

		open_case(&f, &cases[0], 0);
		a12_attach(&f, &cases[0]);
		io_prep(&f, &io, write, cases[0].plan, NBLK);
		A12.info2 = 0x0002u;
		A12.err1 = 0x0200u;
		/* DM_INFO2 channel 0 (write) or 1 (read) error, DM_INFO1 END_CH0/CH1 gone */
		A12.dm_info2_add = write ? 1u << 16 : 1u << 17;
		A12.dm_info1_drop = (1u << 16) | (1u << 17) | (1u << 20);
		A12.armed = true;
		ev = io_run(&f, &io);
		assert_int_equal(A12.fired, 1);
		assert_true(ev & MMCHAL_EV_DATA_ERROR);
		assert_false(ev & MMCHAL_EV_DATA_DONE);
		assert_int_equal(io.d.error, MMCHAL_EFAULT);
		assert_int_equal(io.stop.error, 0);
		assert_false(A12.firing); /* the controller was reset */
		check_good(&f, &cases[0]);
		fx_close(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto12_response),
		cmocka_unit_test(test_no_auto12_leaves_stop),
		cmocka_unit_test(test_auto12_crc_end_bit),
		cmocka_unit_test(test_data_error_leaves_stop),
		cmocka_unit_test(test_auto12_timeout),
		cmocka_unit_test(test_auto12_error_owner),
		cmocka_unit_test(test_auto12_error_with_dma_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
