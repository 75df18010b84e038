/*
 * The data phase: blocks on the DAT lines, the one-block controller buffer,
 * and the engines (CPU through the data port, internal DMAC, SYS-DMAC) that
 * fill or drain it.
 *
 * Timing of block i (all from docs/sim.md):
 *   read:  start = max(bus free, t0 + read latency + (i + 1) * media block time)
 *          arrival = start + bus block time
 *   write: start = max(buffer filled, bus free, t0 + i * media block time)
 *          end = start + bus block time (+ N_WR and CRC status)
 * where t0 is the end of the command response. The bus is free again once
 * the buffer has been drained (read) or the block has left it (write): the
 * controller stops the clock while its buffer is full.
 */
#include "sim_priv.h"

#define ERR1_END           (1u << 4)
#define ERR1_RD_CRC        (1u << 10)
#define ERR1_WR_CRC        (1u << 11)
#define ERR1_CRC_STAT_MASK (7u << 12)
#define ERR2_RD_TO         (1u << 4)
#define ERR2_CRC_TO        (1u << 5)

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return (a + b - 1u) / b;
}

uint64_t data_block_ns_(const struct mmchal_sim *sim, bool read)
{
	uint32_t w = sdhi_bus_width_(sim);
	uint64_t data = ceil_div((uint64_t)sim->x.blksz * 8u, w);
	/* start bit, CRC16 per line (both edges in DDR: 32 bits in 16 clocks), end bit */
	uint64_t clocks;

	if (sim->if_mode & 1u)
		data = ceil_div(data, 2);
	clocks = data + 16u + 2u;
	if (!read)
		clocks += 2u + 5u + 2u; /* N_WR, CRC status token, 2 clocks before it */
	return sdhi_clk_ns_(sim, clocks);
}

static uint64_t media_ns(const struct mmchal_sim *sim, uint64_t rate)
{
	if (!rate)
		return 0;
	return ceil_div((uint64_t)sim->x.blksz * 1000000000ull, rate);
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/*
 * A CRC, end-bit or timeout error ends the data phase and comes with access end
 * (Linux reads the error bits in the access-end handler, tmio_mmc_data_irq; REF).
 */
static void fail(struct mmchal_sim *sim, uint32_t st, uint16_t e1, uint16_t e2)
{
	sim->err1 |= e1;
	if (e1 & ERR1_WR_CRC) /* negative CRC status token "101" (inferred) */
		sim->err1 = (uint16_t)((sim->err1 & ~ERR1_CRC_STAT_MASK) | (5u << 12));
	sim->err2 |= e2;
	sim->x.failed = true;
	sim->x.active = false;
	sim->x.bstate = BUF_EMPTY;
	sim->ev[EV_BLOCK] = T_NEVER;
	sim->ev[EV_DATA_TO] = T_NEVER;
	sdhi_set_status_(sim, st | ST_ACCESS_END);
}

bool data_take_fault_(struct mmchal_sim *sim, enum mmchal_sim_fault_kind kind, uint32_t block)
{
	struct sim_xfer *x = &sim->x;

	for (uint32_t i = 0; i < x->nfaults; i++) {
		if (!x->faults[i].used && x->faults[i].kind == kind &&
		    x->faults[i].block == block) {
			x->faults[i].used = true;
			fault_fired_(sim, kind);
			return true;
		}
	}
	return false;
}

/* The host and the card must agree on width, edge mode and a clock the mode allows. */
static bool bus_mismatch(const struct mmchal_sim *sim)
{
	uint32_t w = 1;
	enum mmchal_timing t;

	mmchal_sim_card_bus(sim, &w, &t);
	if (w != sdhi_bus_width_(sim))
		return true;
	if (card_ddr_(sim) != ((sim->if_mode & 1u) != 0))
		return true;
	return sdhi_clock_hz_(sim) > card_clock_max_(sim);
}

static bool more_blocks(const struct sim_xfer *x)
{
	return x->open ? !x->stop_req : x->next < x->nblocks;
}

static void timeout_at(struct mmchal_sim *sim, uint64_t from)
{
	sim->x.bstate = BUF_BUSY;
	sim_schedule_(sim, EV_DATA_TO, from + sdhi_data_timeout_ns_(sim));
}

static void schedule_read(struct mmchal_sim *sim)
{
	struct sim_xfer *x = &sim->x;
	struct sim_card *c = &sim->card;
	uint64_t ready, start, lat;
	uint32_t i = x->next;

	if (!x->active || x->bstate != BUF_EMPTY || !more_blocks(x))
		return;
	fault_on_block_(sim, i);
	if (data_take_fault_(sim, MMCHAL_SIM_FAULT_CARD_REMOVE, i) && c->present)
		mmchal_sim_card_remove(sim);
	if (data_take_fault_(sim, MMCHAL_SIM_FAULT_DATA_TIMEOUT, i) || !c->present ||
	    sim->res.card_data != CDATA_READ || c->state != MMCHAL_SIM_ST_DATA) {
		timeout_at(sim, x->bus_free);
		return;
	}
	lat = c->cfg.read_latency_ns;
	if (i == 0 && lat > sdhi_data_timeout_ns_(sim)) {
		timeout_at(sim, x->t0);
		return;
	}
	ready = x->t0 + lat + (uint64_t)(i + 1u) * media_ns(sim, c->cfg.read_rate);
	start = max64(x->bus_free, ready);
	x->bstate = BUF_BUSY;
	sim_schedule_(sim, EV_BLOCK, start + data_block_ns_(sim, true));
}

static void write_request(struct mmchal_sim *sim)
{
	struct sim_xfer *x = &sim->x;

	if (!x->active || x->bstate != BUF_EMPTY || !more_blocks(x))
		return;
	if (sdhi_dma_enabled_(sim))
		data_pump_(sim);
	else
		sdhi_set_status_(sim, ST_BWE);
}

void data_start_(struct mmchal_sim *sim)
{
	struct sim_xfer *x = &sim->x;

	/* the rest of sim->x is zero: data_abort_() at the start of the command */
	x->active = true;
	x->t0 = sim->now;
	x->bus_free = sim->now;
	/* a DMA write's first block is taken by write_request(); a read's
	   comes with its block event */
	if (x->read)
		schedule_read(sim);
	else
		write_request(sim);
}

static void finish(struct mmchal_sim *sim)
{
	struct sim_xfer *x = &sim->x;

	if (x->auto12 || x->open) {
		sdhi_auto12_(sim);
		return;
	}
	x->active = false;
	idmac_data_end_(sim);
	sdhi_access_end_(sim);
}

void data_block_event_(struct mmchal_sim *sim)
{
	struct sim_xfer *x = &sim->x;
	struct sim_card *c = &sim->card;
	uint32_t i = x->next;

	if (!x->active)
		return;
	x->bus_free = sim->now;
	if (data_take_fault_(sim, MMCHAL_SIM_FAULT_DATA_CRC, i) || bus_mismatch(sim)) {
		fail(sim, ST_CRC, x->read ? ERR1_RD_CRC : ERR1_WR_CRC, 0);
		return;
	}
	if (x->read) {
		int rc;

		if (data_take_fault_(sim, MMCHAL_SIM_FAULT_END_BIT, i)) {
			fail(sim, ST_END_BIT, ERR1_END, 0);
			return;
		}
		rc = card_read_block_(sim, x->buf, x->blksz);
		if (rc == -2) {
			/* The card stopped sending (e.g. past its end): no block comes. */
			timeout_at(sim, sim->now);
			return;
		}
		if (rc < 0) {
			fail(sim, ST_END_BIT, ERR1_END, 0);
			return;
		}
		sim->cnt.blocks++;
		x->next++;
		x->bstate = BUF_FULL;
		x->buf_pos = 0;
		if (sdhi_dma_enabled_(sim))
			data_pump_(sim);
		else
			sdhi_set_status_(sim, ST_BRE);
		return;
	} else {
		bool done = false;

		if (!c->present) {
			/*
			 * The card went away while the block was on the bus: no CRC
			 * status comes back, so the controller times out (docs/sim.md
			 * section 9: after a removal the transfer times out).
			 */
			timeout_at(sim, sim->now);
			return;
		}
		if (card_write_block_(sim, x->buf, x->blksz, sim->now, &done) < 0) {
			fail(sim, ST_CRC, ERR1_WR_CRC, 0);
			return;
		}
		sim->err1 = (uint16_t)((sim->err1 & ~ERR1_CRC_STAT_MASK) | (2u << 12)); /* "010" */
		sim->cnt.blocks++;
		x->next++;
		x->bstate = BUF_EMPTY;
		x->buf_pos = 0;
		if (data_take_fault_(sim, MMCHAL_SIM_FAULT_STUCK_BUSY, i)) {
			c->stuck = true;
			c->busy = true;
		}
		if (done) {
			/* Last block of a CMD24 or of a CMD23-counted CMD25: program, then tran. */
			c->busy = true;
			sim_schedule_(sim, EV_BUSY,
				      max64(sim->now, c->media_done) + c->cfg.write_busy_ns);
		}
		if (!more_blocks(x))
			finish(sim);
		else
			write_request(sim);
	}
}

void data_timeout_event_(struct mmchal_sim *sim)
{
	if (!sim->x.active)
		return;
	fail(sim, ST_DATA_TO, 0, sim->x.read ? ERR2_RD_TO : ERR2_CRC_TO);
}

void data_buffer_drained_(struct mmchal_sim *sim)
{
	struct sim_xfer *x = &sim->x;

	/* buf_pos starts again at 0 when the next block arrives */
	x->bstate = BUF_EMPTY;
	x->bus_free = max64(x->bus_free, sim->now);
	if (!more_blocks(x))
		finish(sim);
	else
		schedule_read(sim);
}

void data_buffer_filled_(struct mmchal_sim *sim)
{
	struct sim_xfer *x = &sim->x;
	struct sim_card *c = &sim->card;
	uint32_t i = x->next;
	uint64_t start;

	x->bstate = BUF_BUSY;
	fault_on_block_(sim, i);
	if (data_take_fault_(sim, MMCHAL_SIM_FAULT_CARD_REMOVE, i) && c->present)
		mmchal_sim_card_remove(sim);
	start = max64(sim->now, x->bus_free);
	if (data_take_fault_(sim, MMCHAL_SIM_FAULT_DATA_TIMEOUT, i) || !c->present || c->stuck ||
	    sim->res.card_data != CDATA_WRITE || c->state != MMCHAL_SIM_ST_RCV) {
		/* No CRC status comes back from the card. */
		timeout_at(sim, start);
		return;
	}
	start = max64(start, x->t0 + (uint64_t)i * media_ns(sim, c->cfg.write_rate));
	sim_schedule_(sim, EV_BLOCK, start + data_block_ns_(sim, false));
}

void data_pump_(struct mmchal_sim *sim)
{
	struct sim_xfer *x = &sim->x;

	if (!x->active || x->failed || !sdhi_dma_enabled_(sim))
		return;
	if (x->read && x->bstate == BUF_FULL) {
		uint32_t blk = x->next - 1u;

		if (idmac_move_(sim, x->buf, x->blksz, true, blk) ||
		    sysdmac_move_(sim, x->buf, x->blksz, true, blk))
			data_buffer_drained_(sim);
	} else if (!x->read && x->bstate == BUF_EMPTY && more_blocks(x)) {
		if (idmac_move_(sim, x->buf, x->blksz, false, x->next) ||
		    sysdmac_move_(sim, x->buf, x->blksz, false, x->next))
			data_buffer_filled_(sim);
	}
}

void data_stop_req_(struct mmchal_sim *sim)
{
	struct sim_xfer *x = &sim->x;

	if (!x->active)
		return;
	x->stop_req = true;
	if (x->bstate == BUF_EMPTY && x->open)
		finish(sim);
}

void data_abort_(struct mmchal_sim *sim)
{
	memset(&sim->x, 0, sizeof(sim->x));
	sim->ev[EV_BLOCK] = T_NEVER;
	sim->ev[EV_DATA_TO] = T_NEVER;
}
