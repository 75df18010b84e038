/**
 * @file
 * @brief Mock backend: the backend ops, the life of one transfer (command,
 *        data, busy phases with their latencies), fault switches, presence,
 *        the request log.
 *
 * A transfer's command reaches the card in @c start (the card model changes
 * state there); its events come from the @c handle_irq call that completes
 * each phase. The data of a phase moves in that call.
 *
 * Locking: the backend ops run under the caller's lock. mmchal_mock_trigger()
 * and mmchal_mock_set_present() only store to atomic flags, which the ops
 * read; every other function must not run concurrently with an op.
 */
#include "mock_priv.h"

#define ST(s) MMCHAL_MOCK_ST_##s

/* Compiler builtins: inline on every target we build for (word-size operands). */
static int atomic_ld(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* NOLINTNEXTLINE(readability-non-const-parameter): written through the builtin */
static void atomic_st(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* NOLINTNEXTLINE(readability-non-const-parameter): written through the builtin */
static int atomic_xchg(int *p, int v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL);
}

/* ------------------------------------------------------------------ log */

static struct mmchal_mock_log_entry *log_at(const struct mmchal_mock *m, uint32_t idx)
{
	return idx < m->cfg.log_len && m->cfg.log ? &m->cfg.log[idx] : NULL;
}

static uint32_t log_add(struct mmchal_mock *m)
{
	uint32_t idx;

	if (!m->cfg.log)
		return UINT32_MAX;
	idx = m->log_head;
	m->log_head = (m->log_head + 1u) % m->cfg.log_len;
	if (m->log_used < m->cfg.log_len)
		m->log_used++;
	memset(&m->cfg.log[idx], 0, sizeof(m->cfg.log[idx]));
	return idx;
}

static void log_update(struct mmchal_mock *m)
{
	struct mmchal_mock_log_entry *e = log_at(m, m->log_idx);

	if (!e)
		return;
	memcpy(e->resp, m->xfer.cmd->resp, sizeof(e->resp));
	e->cmd_error = m->xfer.cmd->error;
	if (m->xfer.data)
		e->data_error = m->xfer.data->error;
	e->blocks_done = m->blocks_done;
	e->events = m->xfer_events;
}

uint32_t mmchal_mock_log_count(const struct mmchal_mock *m)
{
	return m ? m->log_used : 0;
}

const struct mmchal_mock_log_entry *mmchal_mock_log_get(const struct mmchal_mock *m, uint32_t i)
{
	uint32_t first;

	if (!m || i >= m->log_used)
		return NULL;
	first = (m->log_head + m->cfg.log_len - m->log_used) % m->cfg.log_len;
	return &m->cfg.log[(first + i) % m->cfg.log_len];
}

const struct mmchal_mock_log_entry *mmchal_mock_log_last(const struct mmchal_mock *m)
{
	return m && m->log_used ? mmchal_mock_log_get(m, m->log_used - 1u) : NULL;
}

void mmchal_mock_log_clear(struct mmchal_mock *m)
{
	if (!m)
		return;
	m->log_used = 0;
	m->log_head = 0;
	m->log_idx = UINT32_MAX;
}

/* ------------------------------------------------------------------ faults */

/* The error an op is to fail with, consuming one count; 0 for none. */
static int op_fault(struct mmchal_mock *m, enum mmchal_mock_op op)
{
	int err = m->op_error[op];

	if (err && m->op_count[op] != 0u && --m->op_count[op] == 0u)
		m->op_error[op] = 0;
	return err;
}

int mmchal_mock_fail_op(struct mmchal_mock *m, enum mmchal_mock_op op, int error, uint32_t count)
{
	if (!m || (unsigned)op >= MMCHAL_MOCK_OP_COUNT || error > 0)
		return MMCHAL_EINVAL;
	m->op_error[op] = error;
	m->op_count[op] = count;
	return 0;
}

int mmchal_mock_fail_cmd(struct mmchal_mock *m, uint32_t opcode, int error, uint32_t count)
{
	if (!m || error > 0 ||
	    (opcode != MMCHAL_MOCK_ANY_CMD && (opcode & ~MMCHAL_MOCK_ACMD) > 63u))
		return MMCHAL_EINVAL;
	m->fail_on = error != 0;
	m->fail_opcode = opcode;
	m->fail_error = error;
	m->fail_count = count;
	return 0;
}

int mmchal_mock_fail_data(struct mmchal_mock *m, enum mmchal_mock_data_fault fault, uint32_t block,
			  uint32_t count)
{
	if (!m || (unsigned)fault > MMCHAL_MOCK_DATA_DMA)
		return MMCHAL_EINVAL;
	m->dfault = fault;
	m->dfault_block = block;
	m->dfault_count = count;
	return 0;
}

void mmchal_mock_clear_faults(struct mmchal_mock *m)
{
	if (!m)
		return;
	m->fail_on = false;
	m->dfault = MMCHAL_MOCK_DATA_NONE;
	memset(m->op_error, 0, sizeof(m->op_error));
	memset(m->op_count, 0, sizeof(m->op_count));
	m->busy_stuck = false;
}

void mmchal_mock_set_busy_stuck(struct mmchal_mock *m, bool stuck)
{
	if (m)
		m->busy_stuck = stuck;
}

void mmchal_mock_set_write_protect(struct mmchal_mock *m, bool ro)
{
	if (!m)
		return;
	m->ro = ro;
	if (m->cfg.card != MMCHAL_MOCK_SDIO)
		mock_put_bits_(m->csd, 16, 12, 12, ro ? 1u : 0u); /* TMP_WRITE_PROTECT */
}

void mmchal_mock_set_present(struct mmchal_mock *m, bool present)
{
	if (m)
		atomic_st(&m->present_flag, present ? 1 : 0);
}

void mmchal_mock_trigger(struct mmchal_mock *m)
{
	if (m)
		atomic_st(&m->trigger_flag, 1);
}

/* Act on a presence change: a removed card is gone, an inserted one is new. */
static void sync_presence(struct mmchal_mock *m)
{
	int p = atomic_ld(&m->present_flag);

	if (p == m->present_seen)
		return;
	m->present_seen = p;
	m->change_pending = true;
	if (!p) {
		m->state = ST(OFF);
		m->busy = false;
	} else if (m->powered) {
		mock_card_power_on_(m);
	}
}

int mmchal_mock_sdio_irq(struct mmchal_mock *m, uint8_t mask)
{
	if (!m || m->cfg.card != MMCHAL_MOCK_SDIO)
		return MMCHAL_EINVAL;
	if (mask & ~(((1u << m->cfg.sdio_functions) - 1u) << 1))
		return MMCHAL_EINVAL;
	m->sdio_int = mask;
	m->sdio_irq_sent = false;
	return 0;
}

static bool sdio_irq_due(const struct mmchal_mock *m)
{
	uint8_t ien = m->cccr[0x04];

	return m->cfg.card == MMCHAL_MOCK_SDIO && m->sdio_irq_on && !m->sdio_irq_sent &&
	       (ien & 1u) && (m->sdio_int & ien) && m->present_seen;
}

/* ------------------------------------------------------------------ transfer */

static void finish(struct mmchal_mock *m)
{
	m->active = false;
	log_update(m);
}

static void complete_cmd(struct mmchal_mock *m, uint32_t *events)
{
	struct mmchal_cmd *c = m->xfer.cmd;

	if (m->cmd_err) {
		memset(c->resp, 0, sizeof(c->resp));
		c->error = m->cmd_err;
		*events |= MMCHAL_EV_CMD_ERROR;
		m->xfer_events |= MMCHAL_EV_CMD_ERROR;
		finish(m);
		return;
	}
	memcpy(c->resp, m->resp_pending, sizeof(c->resp));
	c->error = 0;
	*events |= MMCHAL_EV_CMD_DONE;
	m->xfer_events |= MMCHAL_EV_CMD_DONE;
	if (m->xfer.data) {
		m->phase = MOCK_PH_DATA;
		m->wait = m->cfg.data_latency;
		log_update(m);
		return;
	}
	/* The card started a data phase the host does not run: a single block or a
	   fixed-size reply ends by itself, a multiple-block one waits for CMD12. */
	if (m->src_kind != MOCK_SRC_NONE)
		mock_card_data_end_(m, 0, false);
	if (m->r1b && (m->cfg.host.bus & MMCHAL_BUS_HW_BUSY)) {
		m->phase = MOCK_PH_BUSY;
		log_update(m);
		return;
	}
	finish(m);
}

static void complete_data(struct mmchal_mock *m, uint32_t *events)
{
	struct mmchal_data *d = m->xfer.data;
	uint32_t blocks = 0;
	int err;

	err = mock_move_data_(m, &blocks);
	m->blocks_done = blocks;
	if (d->dir == MMCHAL_DIR_TO_CARD && m->src_kind == MOCK_SRC_IMAGE)
		m->last_written = blocks;
	/* the controller's CMD12 reaches the card still sending or receiving */
	if (m->xfer.auto_stop && !err && m->xfer.stop) {
		m->xfer.stop->resp[0] = mock_r1_(m, m->state);
		m->xfer.stop->error = 0;
	}
	mock_card_data_end_(m, (uint64_t)blocks * d->blksz, m->xfer.auto_stop && !err);
	d->error = err;
	*events |= err ? MMCHAL_EV_DATA_ERROR : MMCHAL_EV_DATA_DONE;
	m->xfer_events |= err ? MMCHAL_EV_DATA_ERROR : MMCHAL_EV_DATA_DONE;
	finish(m);
}

/* The card went away: the phase in flight ends with MMCHAL_ENOMEDIUM. */
static void fail_removed(struct mmchal_mock *m, uint32_t *events)
{
	uint32_t ev;

	if (m->phase == MOCK_PH_DATA) {
		m->xfer.data->error = MMCHAL_ENOMEDIUM;
		ev = MMCHAL_EV_DATA_ERROR;
	} else {
		memset(m->xfer.cmd->resp, 0, sizeof(m->xfer.cmd->resp));
		m->xfer.cmd->error = MMCHAL_ENOMEDIUM;
		ev = MMCHAL_EV_CMD_ERROR;
		if (m->phase == MOCK_PH_BUSY)
			ev |= MMCHAL_EV_BUSY_DONE;
	}
	*events |= ev;
	m->xfer_events |= ev;
	finish(m);
}

/* Complete what is due: each phase after its latency (or a trigger); a phase
   whose latency is 0 completes in the same call as the one before. */
static void advance(struct mmchal_mock *m, uint32_t *events)
{
	bool trig = atomic_xchg(&m->trigger_flag, 0) != 0;
	bool completed = false;

	while (m->active) {
		if (!m->present_seen) {
			fail_removed(m, events);
			return;
		}
		if (m->phase == MOCK_PH_BUSY) {
			if (m->busy && trig && !m->busy_stuck)
				mock_busy_end_(m);
			if (m->busy)
				return;
			*events |= MMCHAL_EV_BUSY_DONE;
			m->xfer_events |= MMCHAL_EV_BUSY_DONE;
			finish(m);
			return;
		}
		if (!trig) {
			if (m->cfg.manual)
				return;
			/* The latency of a phase counts from the call after the one
			   that completed the phase before it. */
			if (m->wait > 0u && completed)
				return;
			if (m->wait > 0u) {
				m->wait--;
				return;
			}
		}
		trig = false;
		completed = true;
		if (m->phase == MOCK_PH_CMD)
			complete_cmd(m, events);
		else
			complete_data(m, events);
	}
}

static bool is_acmd(const struct mmchal_mock *m, uint32_t op)
{
	if (!m->app || !mock_is_sd_(m))
		return false;
	return op == 6u || op == 13u || op == 22u || op == 23u || op == 41u || op == 42u ||
	       op == 51u;
}

/* A command for the card: executed unless a fault switch or the slot says
   otherwise; sets m->cmd_err for the command phase. */
static void issue(struct mmchal_mock *m, struct mmchal_cmd *c)
{
	bool want = (c->flags & MMCHAL_RSP_PRESENT) != 0u;
	uint32_t key = c->opcode | (is_acmd(m, c->opcode) ? MMCHAL_MOCK_ACMD : 0u);
	int fail = 0;

	if (!m->present_seen) {
		m->cmd_err = MMCHAL_ENOMEDIUM;
		return;
	}
	if (!m->powered || m->state == ST(OFF)) {
		m->cmd_err = want ? MMCHAL_ETIMEDOUT : 0;
		return;
	}
	if (m->fail_on && (m->fail_opcode == MMCHAL_MOCK_ANY_CMD || m->fail_opcode == key)) {
		fail = m->fail_error;
		if (m->fail_count != 0u && --m->fail_count == 0u)
			m->fail_on = false;
		if (fail != MMCHAL_EIO) {
			m->cmd_err = fail;
			return;
		}
	}
	switch (mock_card_cmd_(m, c)) {
	case MOCK_RESP:
		if (!want)
			memset(m->resp_pending, 0, sizeof(m->resp_pending));
		break;
	case MOCK_SILENT:
		m->cmd_err = want ? MMCHAL_ETIMEDOUT : 0;
		break;
	default: /* MOCK_ILLEGAL */
		m->cmd_err = want ? m->cfg.illegal_error : 0;
		break;
	}
	if (fail)
		m->cmd_err = fail;
}

static void log_start(struct mmchal_mock *m, uint32_t state, uint32_t key)
{
	struct mmchal_mock_log_entry *e;
	const struct mmchal_xfer *x = &m->xfer;

	m->log_idx = log_add(m);
	e = log_at(m, m->log_idx);
	m->seq++;
	if (!e)
		return;
	e->seq = m->seq - 1u;
	e->opcode = key;
	e->arg = x->cmd->arg;
	e->flags = x->cmd->flags;
	e->state = state;
	e->auto_stop = x->auto_stop;
	if (x->data) {
		e->has_data = true;
		e->dir = x->data->dir;
		e->blksz = x->data->blksz;
		e->blocks = x->data->blocks;
		e->plan = x->plan;
		e->nsegs = x->plan == MMCHAL_PLAN_PIO ? 0u : x->nsegs;
		e->sg_len = x->data->sg_len;
	}
}

static int mock_start(void *ctx, const struct mmchal_xfer *x)
{
	struct mmchal_mock *m = ctx;
	uint32_t state, key;
	int err;

	if (!m)
		return MMCHAL_EINVAL;
	sync_presence(m);
	err = op_fault(m, MMCHAL_MOCK_OP_START);
	if (!err)
		err = mock_check_xfer_(m, x);
	if (!err && m->active)
		err = MMCHAL_EBUSY;
	if (err) {
		m->stats.rejected++;
		return err;
	}
	m->xfer = *x;
	m->active = true;
	m->phase = MOCK_PH_CMD;
	m->wait = m->cfg.cmd_latency;
	m->blocks_done = 0;
	m->cmd_err = 0;
	m->xfer_events = 0;
	m->r1b = (x->cmd->flags & MMCHAL_RSP_BUSY) != 0u;
	m->src_kind = MOCK_SRC_NONE;
	memset(m->resp_pending, 0, sizeof(m->resp_pending));
	state = m->present_seen && m->powered ? m->state : ST(OFF);
	key = x->cmd->opcode | (is_acmd(m, x->cmd->opcode) ? MMCHAL_MOCK_ACMD : 0u);
	issue(m, x->cmd);
	log_start(m, state, key);
	m->stats.commands++;
	return 0;
}

static int mock_handle_irq(void *ctx, uint32_t *events)
{
	struct mmchal_mock *m = ctx;
	int err;

	if (!m || !events)
		return MMCHAL_EINVAL;
	*events = 0;
	m->stats.irq_calls++;
	err = op_fault(m, MMCHAL_MOCK_OP_HANDLE_IRQ);
	if (err)
		return err;
	sync_presence(m);
	mock_busy_tick_(m);
	if (m->change_pending) {
		m->change_pending = false;
		*events |= MMCHAL_EV_CARD_CHANGE;
	}
	if (m->active)
		advance(m, events);
	if (sdio_irq_due(m)) {
		m->sdio_irq_sent = true;
		*events |= MMCHAL_EV_SDIO_IRQ;
	}
	return 0;
}

static int mock_abort(void *ctx)
{
	struct mmchal_mock *m = ctx;

	if (!m)
		return MMCHAL_EINVAL;
	m->stats.aborts++;
	if (m->active) {
		struct mmchal_mock_log_entry *e = log_at(m, m->log_idx);

		/* The controller stops; a single-block transfer ends at the card by
		   itself, a multiple-block one waits for CMD12. */
		if (m->phase == MOCK_PH_DATA)
			mock_card_data_end_(m, 0, false);
		m->active = false;
		if (e) {
			if (m->phase == MOCK_PH_CMD)
				e->cmd_error = MMCHAL_ECANCELED;
			else if (m->phase == MOCK_PH_DATA)
				e->data_error = MMCHAL_ECANCELED;
		}
	}
	return op_fault(m, MMCHAL_MOCK_OP_ABORT);
}

/* ------------------------------------------------------------------ slot ops */

static int mock_probe(void *ctx)
{
	struct mmchal_mock *m = ctx;
	int err;

	if (!m)
		return MMCHAL_EINVAL;
	err = op_fault(m, MMCHAL_MOCK_OP_PROBE);
	if (err)
		return err;
	/* A controller reset: nothing in flight; the card keeps its state. */
	m->active = false;
	return 0;
}

static int mock_get_caps(void *ctx, struct mmchal_host_caps *host, struct mmchal_dma_caps *dma)
{
	struct mmchal_mock *m = ctx;
	int err;

	if (!m || !host || !dma)
		return MMCHAL_EINVAL;
	err = op_fault(m, MMCHAL_MOCK_OP_GET_CAPS);
	if (err)
		return err;
	*host = m->cfg.host;
	*dma = m->cfg.dma;
	return 0;
}

static bool timing_ok(uint32_t bus, enum mmchal_timing t)
{
	static const uint32_t need[] = {
		[MMCHAL_TIMING_LEGACY] = 0,
		[MMCHAL_TIMING_SD_HS] = MMCHAL_BUS_SD_HS,
		[MMCHAL_TIMING_MMC_HS] = MMCHAL_BUS_MMC_HS,
		[MMCHAL_TIMING_UHS_SDR12] = MMCHAL_BUS_UHS_SDR12,
		[MMCHAL_TIMING_UHS_SDR25] = MMCHAL_BUS_UHS_SDR25,
		[MMCHAL_TIMING_UHS_SDR50] = MMCHAL_BUS_UHS_SDR50,
		[MMCHAL_TIMING_UHS_SDR104] = MMCHAL_BUS_UHS_SDR104,
		[MMCHAL_TIMING_UHS_DDR50] = MMCHAL_BUS_UHS_DDR50,
		[MMCHAL_TIMING_MMC_DDR52] = MMCHAL_BUS_MMC_DDR52,
		[MMCHAL_TIMING_MMC_HS200] = MMCHAL_BUS_HS200,
		[MMCHAL_TIMING_MMC_HS400] = MMCHAL_BUS_HS400,
	};

	if ((unsigned)t >= sizeof(need) / sizeof(need[0]))
		return false;
	return (bus & need[t]) == need[t];
}

/* Bus settings within what the slot declares; power off loses the card's state. */
static int mock_set_ios(void *ctx, const struct mmchal_ios *ios)
{
	struct mmchal_mock *m = ctx;
	uint32_t bus;
	int err;

	if (!m || !ios)
		return MMCHAL_EINVAL;
	err = op_fault(m, MMCHAL_MOCK_OP_SET_IOS);
	if (err)
		return err;
	bus = m->cfg.host.bus;
	if (ios->bus_width == MMCHAL_BUS_WIDTH_8   ? !(bus & MMCHAL_BUS_8_BIT)
	    : ios->bus_width == MMCHAL_BUS_WIDTH_4 ? !(bus & (MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT))
						   : ios->bus_width != MMCHAL_BUS_WIDTH_1)
		return MMCHAL_EINVAL;
	if (!timing_ok(bus, ios->timing) || (unsigned)ios->power_mode > MMCHAL_POWER_ON)
		return MMCHAL_EINVAL;
	if (ios->signal_voltage == MMCHAL_SIGNAL_180 ? !(bus & MMCHAL_BUS_1_8V)
						     : ios->signal_voltage != MMCHAL_SIGNAL_330)
		return MMCHAL_EINVAL;
	if (m->cfg.host.f_max_hz && ios->clock_hz > m->cfg.host.f_max_hz)
		return MMCHAL_EINVAL;
	if (ios->clock_hz && ios->clock_hz < m->cfg.host.f_min_hz)
		return MMCHAL_EINVAL;
	sync_presence(m);
	if (ios->power_mode == MMCHAL_POWER_OFF) {
		m->powered = false;
		if (m->present_seen)
			m->state = ST(OFF);
		m->busy = false;
	} else if (!m->powered) {
		m->powered = true;
		if (m->present_seen)
			mock_card_power_on_(m);
	}
	m->ios = *ios;
	m->stats.set_ios++;
	return 0;
}

static int mock_card_busy(void *ctx)
{
	struct mmchal_mock *m = ctx;

	if (!m)
		return MMCHAL_EINVAL;
	m->stats.busy_polls++;
	sync_presence(m);
	return mock_busy_tick_(m) ? 1 : 0;
}

static int mock_get_cd(void *ctx)
{
	struct mmchal_mock *m = ctx;

	if (!m)
		return MMCHAL_EINVAL;
	if (m->cfg.host.bus & MMCHAL_BUS_BROKEN_CD)
		return MMCHAL_ENOTSUP;
	return atomic_ld(&m->present_flag);
}

static int mock_get_ro(void *ctx)
{
	struct mmchal_mock *m = ctx;

	if (!m)
		return MMCHAL_EINVAL;
	return m->ro ? 1 : 0;
}

static int mock_hw_reset(void *ctx)
{
	struct mmchal_mock *m = ctx;
	int err;

	if (!m)
		return MMCHAL_EINVAL;
	if (!(m->cfg.host.bus & MMCHAL_BUS_HW_RESET))
		return MMCHAL_ENOTSUP;
	if (m->active)
		return MMCHAL_EBUSY;
	err = op_fault(m, MMCHAL_MOCK_OP_HW_RESET);
	if (err)
		return err;
	/* RST_n reaches eMMC only; SD and SDIO cards have no such pin. */
	sync_presence(m);
	if (m->cfg.card == MMCHAL_MOCK_EMMC && m->present_seen && m->powered)
		mock_card_power_on_(m);
	m->stats.hw_resets++;
	return 0;
}

/* CMD19 (SD, SDIO) / CMD21 (eMMC) tuning always finds a sampling point in tran. */
static int mock_execute_tuning(void *ctx, uint32_t opcode)
{
	struct mmchal_mock *m = ctx;
	uint32_t want;
	int err;

	if (!m)
		return MMCHAL_EINVAL;
	want = m->cfg.card == MMCHAL_MOCK_EMMC ? 21u : 19u;
	if (opcode != want)
		return MMCHAL_EINVAL;
	if (m->active)
		return MMCHAL_EBUSY;
	err = op_fault(m, MMCHAL_MOCK_OP_TUNING);
	if (err)
		return err;
	sync_presence(m);
	if (!m->present_seen)
		return MMCHAL_ENOMEDIUM;
	if (m->state != ST(TRAN))
		return MMCHAL_EIO;
	m->stats.tunings++;
	return 0;
}

static int mock_blocks_done(void *ctx, uint32_t *blocks)
{
	struct mmchal_mock *m = ctx;

	if (!m || !blocks)
		return MMCHAL_EINVAL;
	*blocks = m->blocks_done;
	return 0;
}

static int mock_enable_sdio_irq(void *ctx, bool enable)
{
	struct mmchal_mock *m = ctx;

	if (!m)
		return MMCHAL_EINVAL;
	if (!(m->cfg.host.bus & MMCHAL_BUS_SDIO_IRQ))
		return MMCHAL_ENOTSUP;
	m->sdio_irq_on = enable;
	if (enable)
		m->sdio_irq_sent = false;
	return 0;
}

const struct mmchal_backend_ops mmchal_mock_ops = {
	.name = "mock",
	.probe = mock_probe,
	.get_caps = mock_get_caps,
	.set_ios = mock_set_ios,
	.start = mock_start,
	.handle_irq = mock_handle_irq,
	.abort = mock_abort,
	.card_busy = mock_card_busy,
	.get_cd = mock_get_cd,
	.get_ro = mock_get_ro,
	.hw_reset = mock_hw_reset,
	.execute_tuning = mock_execute_tuning,
	.blocks_done = mock_blocks_done,
	.enable_sdio_irq = mock_enable_sdio_irq,
};

/* ------------------------------------------------------------------ set-up */

static bool pow2_or_none(uint32_t v)
{
	return (v & (v - 1u)) == 0u;
}

static int check_image(const struct mmchal_mock_cfg *c)
{
	uint64_t sz = c->image_size;
	bool bytes = c->card == MMCHAL_MOCK_SDSC ||
		     (c->card == MMCHAL_MOCK_EMMC && c->emmc_byte_mode);

	if (c->card == MMCHAL_MOCK_SDIO)
		return !c->image && sz ? MMCHAL_EINVAL : 0;
	if (!c->image || sz == 0u)
		return MMCHAL_EINVAL;
	if ((uint64_t)(size_t)sz != sz)
		return MMCHAL_EINVAL;
	/* Capacities the CSD (v1: 12-bit C_SIZE with 512-byte blocks; v2: 22-bit
	   C_SIZE in 512 KiB units) or SEC_COUNT can state exactly. */
	if (bytes)
		return mock_csd_v1_mult_(sz) < 0 ? MMCHAL_EINVAL : 0;
	if (c->card == MMCHAL_MOCK_SDHC)
		return sz % (512ull * 1024u) || sz / (512ull * 1024u) > (1u << 22) ? MMCHAL_EINVAL
										   : 0;
	return sz % MOCK_BLK || sz / MOCK_BLK > UINT32_MAX ? MMCHAL_EINVAL : 0;
}

static int check_dma(const struct mmchal_dma_caps *d)
{
	if ((unsigned)d->kind > MMCHAL_DMA_EXTERNAL)
		return MMCHAL_EINVAL;
	if (d->kind == MMCHAL_DMA_NONE)
		return 0;
	for (unsigned i = 0; i < MMCHAL_DIR_COUNT; i++) {
		const struct mmchal_dma_dir_caps *c = &d->dir[i];

		if (c->max_segs == 0u || c->max_seg_size == 0u || c->addr_bits > 64u ||
		    !pow2_or_none(c->addr_align) || !pow2_or_none(c->len_granule))
			return MMCHAL_EINVAL;
	}
	return 0;
}

int mmchal_mock_init(struct mmchal_mock *m, const struct mmchal_mock_cfg *cfg)
{
	struct mmchal_mock_cfg *c;

	if (!m || !cfg || (unsigned)cfg->card > MMCHAL_MOCK_SDIO)
		return MMCHAL_EINVAL;
	if (check_image(cfg) || check_dma(&cfg->dma) || (cfg->log && cfg->log_len == 0u) ||
	    cfg->sdio_functions > 7u || cfg->illegal_error > 0 || cfg->sdio_max_blksz > 2048u)
		return MMCHAL_EINVAL;
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	c = &m->cfg;
	if (!c->log)
		c->log_len = 0;
	if (!c->rca)
		c->rca = 0x1234;
	if (!c->serial)
		c->serial = 0x01234567u;
	if (!c->emmc_card_type)
		c->emmc_card_type = 0x57;
	if (!c->sdio_functions)
		c->sdio_functions = 1;
	if (!c->sdio_manf)
		c->sdio_manf = 0x02d0;
	if (!c->sdio_card_id)
		c->sdio_card_id = 0x4d4b;
	if (!c->sdio_max_blksz)
		c->sdio_max_blksz = 512;
	if (!c->illegal_error)
		c->illegal_error = MMCHAL_EILSEQ;
	m->nblocks = c->image_size / MOCK_BLK;
	m->present_flag = 1;
	m->present_seen = 1;
	m->powered = true;
	m->ios.bus_width = MMCHAL_BUS_WIDTH_1;
	m->ios.timing = MMCHAL_TIMING_LEGACY;
	m->ios.power_mode = MMCHAL_POWER_ON;
	m->ios.signal_voltage = MMCHAL_SIGNAL_330;
	m->log_idx = UINT32_MAX;
	mock_card_regs_(m);
	mock_card_power_on_(m);
	return 0;
}

int mmchal_mock_backend(struct mmchal_mock *m, struct mmchal_backend *be)
{
	if (!m || !be)
		return MMCHAL_EINVAL;
	be->ops = &mmchal_mock_ops;
	be->ctx = m;
	return 0;
}

/* ------------------------------------------------------------------ queries */

void mmchal_mock_set_latency(struct mmchal_mock *m, uint32_t cmd, uint32_t data, uint32_t busy,
			     bool manual)
{
	if (!m)
		return;
	m->cfg.cmd_latency = cmd;
	m->cfg.data_latency = data;
	m->cfg.busy_latency = busy;
	m->cfg.manual = manual;
}

bool mmchal_mock_busy(const struct mmchal_mock *m)
{
	return m && m->active;
}

bool mmchal_mock_irq_pending(const struct mmchal_mock *m)
{
	bool trig, present;

	if (!m)
		return false;
	present = atomic_ld(&m->present_flag) != 0;
	if (m->change_pending || present != (m->present_seen != 0))
		return true;
	if (sdio_irq_due(m))
		return true;
	if (!m->active)
		return false;
	if (!present)
		return true;
	trig = atomic_ld(&m->trigger_flag) != 0;
	if (m->phase == MOCK_PH_BUSY)
		return !m->busy || (!m->busy_stuck && (trig || m->busy_left == 0u));
	return trig || (!m->cfg.manual && m->wait == 0u);
}

int mmchal_mock_status(const struct mmchal_mock *m, struct mmchal_mock_status *st)
{
	if (!m || !st)
		return MMCHAL_EINVAL;
	memset(st, 0, sizeof(*st));
	st->state = (enum mmchal_mock_state)m->state;
	st->rca = m->rca;
	st->width = m->width;
	st->hs_timing = m->hs;
	st->busy = m->busy;
	st->ccs = m->ccs;
	st->present = atomic_ld(&m->present_flag) != 0;
	st->ios = m->ios;
	st->blocks_done = m->blocks_done;
	return 0;
}

const struct mmchal_mock_stats *mmchal_mock_stats(const struct mmchal_mock *m)
{
	return m ? &m->stats : NULL;
}
