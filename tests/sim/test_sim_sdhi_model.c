/*
 * Simulator tests of the SDHI register model and the simulator core, value
 * for value: register contents after reset and after writes, the response
 * type the controller infers, the error detail registers, the response and
 * busy timing, the automatic CMD12, the bus decode (alias, alignment, width),
 * the run loop's result bits, the per-offset counters' window. Register
 * facts from REFERENCE.md; where the reference is silent the value is the
 * one docs/sim.md gives the model.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "drv.h"

/* ------------------------------------------------------------ helpers */

#define S_CMD_IDX   (1u << 16)
#define S_SCLKDIVEN (1u << 29)
#define S_CBSY      (1u << 30)
#define SOFT_RESET(d)                                     \
	do {                                              \
		mmchal_bus_wr16(&(d)->bus, R_SOFTRST, 0); \
		mmchal_bus_wr16(&(d)->bus, R_SOFTRST, 1); \
	} while (0)

/* One clock at 200 MHz / 512 (SD_CLK_CTRL 0x0180, drv_open's default) is 2560 ns. */
#define CLK_NS 2560u

static struct mmchal_sim_card_config sd_cfg(void)
{
	struct mmchal_sim_card_config c;

	assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &c), 0);
	return c;
}

static void open_with_card(struct drv *d, const struct mmchal_sim_config *cfg,
			   const struct mmchal_sim_card_config *cc)
{
	assert_int_equal(drv_open(d, cfg), 0);
	if (cc)
		assert_int_equal(mmchal_sim_card_insert(d->sim, cc), 0);
	drv_ack(d, 0xffffffffu);
}

/* SD identification up to stand-by (CMD0, CMD8, ACMD41 until ready, CMD2, CMD3); the RCA. */
static uint32_t sd_to_stby(struct drv *d)
{
	assert_true(drv_sd_ready(d));
	assert_int_equal(drv_cmd(d, C_R2 | 2, 0), 0);
	assert_int_equal(drv_cmd(d, C_R1 | 3, 0), 0);
	assert_int_equal(mmchal_sim_card_state(d->sim), MMCHAL_SIM_ST_STBY);
	return d->rsp[0] >> 16;
}

static void issue(struct drv *d, uint16_t cmd, uint32_t arg)
{
	drv_ack(d, 0xffffffffu);
	mmchal_bus_wr32(&d->bus, R_ARG, arg);
	mmchal_bus_wr16(&d->bus, R_CMD, cmd);
}

/*
 * Issue a command and return the virtual time from the SD_CMD write to the
 * first unmasked status event: mmchal_sim_run() returns once the line has
 * been high for the interrupt latency (2000 ns).
 */
static uint64_t event_delay(struct drv *d, uint16_t cmd, uint32_t arg)
{
	uint64_t t0;

	issue(d, cmd, arg);
	t0 = mmchal_sim_now(d->sim);
	assert_int_equal(mmchal_sim_run(d->sim, t0 + 100000000000ull), MMCHAL_SIM_RUN_IRQ);
	return mmchal_sim_now(d->sim) - 2000u - t0;
}

static uint64_t bad_accesses(struct drv *d)
{
	struct mmchal_sim_counters c;

	mmchal_sim_get_counters(d->sim, &c);
	return c.bad_accesses;
}

static uint64_t commands(struct drv *d)
{
	struct mmchal_sim_counters c;

	mmchal_sim_get_counters(d->sim, &c);
	return c.commands;
}

/* ------------------------------------------------------------ core: counters */

/*
 * The per-offset counters cover bytes 0..MMCHAL_SIM_WINDOW-1 only: accesses
 * at the window's end are counted in the totals but in no per-offset slot,
 * and asking for that offset gives 0 (sim.h); no slot past the arrays is
 * touched (valgrind and the asan preset see that).
 */
static void test_counter_window_edge(void **state)
{
	struct mmchal_sim_counters c;
	struct drv d;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	mmchal_sim_reset_counters(d.sim);
	d.bus.ops->write16(d.bus.ctx, MMCHAL_SIM_WINDOW, 0x1234u);
	assert_int_equal(d.bus.ops->read16(d.bus.ctx, MMCHAL_SIM_WINDOW), 0);
	d.bus.ops->write16(d.bus.ctx, MMCHAL_SIM_WINDOW - 4u, 0x1234u);
	assert_int_equal(d.bus.ops->read16(d.bus.ctx, MMCHAL_SIM_WINDOW - 4u), 0);
	assert_true(mmchal_sim_reg_reads(d.sim, MMCHAL_SIM_WINDOW) == 0);
	assert_true(mmchal_sim_reg_writes(d.sim, MMCHAL_SIM_WINDOW) == 0);
	assert_true(mmchal_sim_reg_reads(d.sim, MMCHAL_SIM_WINDOW - 4u) == 1);
	assert_true(mmchal_sim_reg_writes(d.sim, MMCHAL_SIM_WINDOW - 4u) == 1);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.reads == 2 && c.writes == 2);
	drv_close(&d);
}

/* ------------------------------------------------------------ core: run loop */

static unsigned work_runs;
static void count_work(void *arg)
{
	(void)arg;
	work_runs++;
}

/*
 * mmchal_sim_run() with nothing pending returns 0 at its limit; under the
 * port lock nothing is delivered, so it returns 0 even with deferred work
 * queued, and the work runs once the lock is released. Deferred work runs
 * "when the caller next waits": a run that reaches its limit runs it.
 */
static void test_run_limit_lock_and_work(void **state)
{
	struct drv d;
	mmchal_irqflags_t f;
	uint64_t t;

	(void)state;
	open_with_card(&d, NULL, NULL);
	work_runs = 0;
	f = d.port.ops->lock_irqsave(d.port.ctx);
	assert_int_equal(d.port.ops->schedule_work(d.port.ctx, count_work, NULL), 0);
	t = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_run(d.sim, t + 1000u), 0);
	assert_true(mmchal_sim_now(d.sim) == t + 1000u);
	assert_int_equal(work_runs, 0);
	d.port.ops->unlock_irqrestore(d.port.ctx, f);
	assert_int_equal(work_runs, 1);

	assert_int_equal(d.port.ops->schedule_work(d.port.ctx, count_work, NULL), 0);
	t = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_run(d.sim, t + 1000u), 0);
	assert_int_equal(work_runs, 2);
	assert_true(mmchal_sim_now(d.sim) == t + 1000u);
	drv_close(&d);
}

/*
 * The interrupt is taken when the line has been high for the latency: a run
 * whose limit is exactly that instant reports MMCHAL_SIM_RUN_IRQ (no handler
 * installed), a run one nanosecond shorter does not. CMD0 (no response) ends
 * 48 clocks after the write: 122 880 ns at 390.625 kHz.
 */
static void test_run_irq_due_exactly_at_limit(void **state)
{
	struct drv d;
	uint64_t t0;

	(void)state;
	open_with_card(&d, NULL, NULL);
	issue(&d, C_NONE | 0, 0);
	t0 = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_run(d.sim, t0 + 48u * CLK_NS + 2000u - 1u), 0);
	assert_true(mmchal_sim_irq_line(d.sim));
	assert_int_equal(mmchal_sim_run(d.sim, t0 + 48u * CLK_NS + 2000u), MMCHAL_SIM_RUN_IRQ);
	assert_true(mmchal_sim_now(d.sim) == t0 + 48u * CLK_NS + 2000u);
	drv_close(&d);
}

static unsigned h_irqs;
static struct drv *h_drv;
static void ack_all_irq(void *arg)
{
	(void)arg;
	h_irqs++;
	drv_ack(h_drv, drv_status(h_drv));
}

/*
 * A handler runs between accesses once the interrupt is due, reads
 * included: a driver that only polls SD_INFO1 still gets its interrupt
 * taken after the read during which it became due.
 */
static void test_irq_taken_after_a_read(void **state)
{
	struct drv d;
	unsigned n = 0;

	(void)state;
	open_with_card(&d, NULL, NULL);
	h_drv = &d;
	h_irqs = 0;
	mmchal_sim_set_irq_handler(d.sim, ack_all_irq, NULL);
	issue(&d, C_NONE | 0, 0);
	while (!h_irqs && n++ < 4000u)
		(void)mmchal_bus_rd16(&d.bus, R_VERSION);
	assert_int_equal(h_irqs, 1);
	/* The response end came at 122 880 ns; the handler at the first read 2 us later. */
	assert_in_range(n, (48u * CLK_NS + 2000u) / 100u - 2u, (48u * CLK_NS + 2000u) / 100u + 2u);
	mmchal_sim_set_irq_handler(d.sim, NULL, NULL);
	drv_close(&d);
}

static unsigned seq_log[64], seq_n;
static void seq_work(void *arg)
{
	if (seq_n < 64u)
		seq_log[seq_n] = (unsigned)(uintptr_t)arg;
	seq_n++;
}

/*
 * A full deferred-work queue (64 entries) is delivered whole: every item
 * runs exactly once, in the order scheduled, and the queue is empty after.
 */
static void test_full_work_queue_delivered_in_order(void **state)
{
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, NULL);
	seq_n = 0;
	for (uintptr_t i = 0; i < 64u; i++)
		assert_int_equal(d.port.ops->schedule_work(d.port.ctx, seq_work, (void *)i), 0);
	assert_int_equal(d.port.ops->schedule_work(d.port.ctx, seq_work, NULL), MMCHAL_EBUSY);
	assert_int_equal(seq_n, 0);
	d.port.ops->delay_us(d.port.ctx, 1);
	assert_int_equal(seq_n, 64);
	for (unsigned i = 0; i < 64u; i++)
		assert_int_equal(seq_log[i], i);
	d.port.ops->delay_us(d.port.ctx, 1);
	assert_int_equal(seq_n, 64);
	assert_int_equal(d.port.ops->schedule_work(d.port.ctx, seq_work, (void *)(uintptr_t)7), 0);
	d.port.ops->delay_us(d.port.ctx, 1);
	assert_int_equal(seq_n, 65);
	drv_close(&d);
}

/* ------------------------------------------------------------ core: bus decode */

/*
 * The data port is also decoded at +rx_port_offset (0x2000) for the SYS-DMAC
 * read channel (REFERENCE.md, SYS-DMAC): a read there with no transfer is a
 * port read and an illegal access (INFO2 bit 31). A port write without a
 * transfer is counted as a port write and flagged the same way.
 */
static void test_port_alias_and_port_counters(void **state)
{
	struct mmchal_sim_counters c;
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, NULL);
	mmchal_sim_reset_counters(d.sim);
	assert_true(d.bus.ops->read64(d.bus.ctx, (R_BUF << 2) + 0x2000u) == 0);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.port_reads == 1 && c.bad_accesses == 1 && c.port_writes == 0);
	assert_true(drv_status(&d) & S_ILL);
	drv_ack(&d, S_ILL);
	d.bus.ops->write64(d.bus.ctx, R_BUF << 2, 0x1122334455667788ull);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.port_reads == 1 && c.port_writes == 1 && c.bad_accesses == 2);
	assert_true(drv_status(&d) & S_ILL);
	drv_close(&d);
}

/*
 * With bus_shift 2 a register sits at a 4-byte aligned byte offset; an access
 * off that alignment reaches no register: a read gives 0, a write changes
 * nothing.
 */
static void test_unaligned_access_ignored(void **state)
{
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, NULL);
	assert_int_equal(d.bus.ops->read16(d.bus.ctx, (R_INFO2 << 2) + 2u), 0);
	assert_int_equal(d.bus.ops->read16(d.bus.ctx, (R_VERSION << 2) + 1u), 0);
	d.bus.ops->write16(d.bus.ctx, (R_SIZE << 2) + 2u, 0x0040u);
	d.bus.ops->write16(d.bus.ctx, (R_SIZE << 2) + 1u, 0x0040u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SIZE), 0x0200);
	drv_close(&d);
}

/*
 * Only SD_ARG and SD_RSP10..76 are reached whole by one 32-bit access
 * (REFERENCE.md, 32-bit access on Gen3); a 32-bit read of a 16-bit register
 * returns it zero-extended, and a 16-bit write to SD_ARG changes only its
 * low half.
 */
static void test_wide_access_decode(void **state)
{
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, NULL);
	mmchal_bus_wr16(&d.bus, R_SECCNT, 5u);
	mmchal_bus_wr16(&d.bus, R_STOP, 0x0100u);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_STOP << 2), 0x0100u);
	d.bus.ops->write32(d.bus.ctx, R_ARG << 2, 0x12345678u);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_ARG << 2), 0x12345678u);
	d.bus.ops->write16(d.bus.ctx, R_ARG << 2, 0xabcdu);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_ARG << 2), 0x1234abcdu);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ARG + 2u), 0x1234u);
	drv_close(&d);
}

/*
 * Registers written with zeros read back zero: SD_CLK_CTRL 0 (clock off,
 * divider 1/2) and SD_SIZE 0, with SD_CMD and SD_STOP at their reset 0, and
 * nothing else changes when time passes.
 */
static void test_zero_registers_read_back(void **state)
{
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, NULL);
	SOFT_RESET(&d);
	mmchal_bus_wr16(&d.bus, R_CLK, 0);
	mmchal_bus_wr16(&d.bus, R_SIZE, 0);
	mmchal_bus_wr16(&d.bus, R_STOP, 0);
	mmchal_sim_advance(d.sim, 1000u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SIZE), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_CLK), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_STOP), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_CMD), 0);
	drv_close(&d);
}

/* ------------------------------------------------------------ SDHI registers */

static uint64_t last_trace_val(struct drv *d)
{
	struct mmchal_sim_access a;

	assert_int_equal(mmchal_sim_trace_get(d->sim, mmchal_sim_trace_count(d->sim) - 1u, &a), 0);
	return a.val;
}

/*
 * From VERSION 0xcb0d the block counter is 32 bits, reached by one 32-bit
 * access (REFERENCE.md); a 16-bit read gives its low 16 bits, and the access
 * seen on the bus (the trace) carries exactly those 16 bits.
 */
static void test_seccnt_16bit_read_is_low_half(void **state)
{
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, NULL);
	d.bus.ops->write32(d.bus.ctx, R_SECCNT << 2, 0x00012345u);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_SECCNT << 2), 0x00012345u);
	assert_int_equal(last_trace_val(&d), 0x00012345u);
	assert_int_equal(d.bus.ops->read16(d.bus.ctx, R_SECCNT << 2), 0x2345u);
	assert_int_equal(last_trace_val(&d), 0x2345u);
	drv_close(&d);
}

/*
 * Before VERSION 0xcb0d the block counter has 16 bits (REFERENCE.md): on
 * 0x490c a 32-bit write of 0x10001 sets it to 1, so a CMD18 with SD_STOP.SEC
 * moves one block and ends (auto CMD12, access end), no second block.
 */
static void test_seccnt_16bit_before_cb0d(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct mmchal_sim_config cfg;
	struct drv d;
	uint32_t st;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN2);
	cfg.version = 0x490cu;
	open_with_card(&d, &cfg, &cc);
	drv_sd_init(&d);
	mmchal_bus_wr16(&d.bus, R_SIZE, 512u);
	d.bus.ops->write32(d.bus.ctx, R_SECCNT << 1, 0x00010001u);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_SECCNT << 1), 1u);
	mmchal_bus_wr16(&d.bus, R_STOP, 0x0100u);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	st = drv_wait(&d, S_BRE, 100000000u);
	assert_true(st & S_BRE);
	drv_ack(&d, S_BRE);
	for (unsigned i = 0; i < 256; i++)
		(void)drv_port_rd(&d);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_ACCESS_END | S_BRE | S_ERRORS), S_ACCESS_END);
	mmchal_sim_advance(d.sim, 50000000u);
	assert_int_equal(drv_status(&d) & (S_BRE | S_ERRORS), 0);
	assert_int_equal(bad_accesses(&d), 0);
	drv_close(&d);
}

/*
 * The interrupt masks are plain read/write registers: SD_INFO2_MASK reads
 * back what was written (0, then the reset value 0x837f).
 */
static void test_info2_mask_read_back(void **state)
{
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, NULL);
	mmchal_bus_wr16(&d.bus, R_MASK2, 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_MASK2), 0);
	mmchal_bus_wr16(&d.bus, R_MASK2, 0x837fu);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_MASK2), 0x837fu);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_MASK1), 0);
	mmchal_bus_wr16(&d.bus, R_MASK1, 0x031du);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_MASK2), 0x837fu);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_MASK1), 0x031du);
	drv_close(&d);
}

/*
 * Logical offsets with no register read 0, also right after a response has
 * filled SD_RSP10..76: the even holes of the map and the odd logical offsets
 * (byte offset (reg << 2), reachable with bus_shift 2) inside the response
 * block. SD_RSP10 itself holds the R6 of CMD3.
 */
static void test_unused_registers_read_zero(void **state)
{
	static const uint16_t holes[] = {0x02, 0x0d, 0x0f, 0x11, 0x13, 0x15, 0x17, 0x19,
					 0x1b, 0x2a, 0x32, 0x3a, 0x3c, 0x40, 0x50, 0x80,
					 0xc0, 0xd6, 0xda, 0xdc, 0xde, 0xe8, 0xf0, 0xfe};
	struct mmchal_sim_card_config cc = sd_cfg();
	struct drv d;
	uint32_t rca;

	(void)state;
	open_with_card(&d, NULL, &cc);
	rca = sd_to_stby(&d);
	assert_int_equal(rca, 0xb368u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_RSP + 2u), 0xb368u);
	assert_true(mmchal_bus_rd16(&d.bus, R_RSP) != 0);
	for (unsigned i = 0; i < sizeof(holes) / sizeof(holes[0]); i++)
		assert_int_equal(d.bus.ops->read16(d.bus.ctx, (uint32_t)holes[i] << 2), 0);
	drv_close(&d);
}

/*
 * SOFT_RST (write 0 then 1) returns SD_CMD to 0 and clears the response
 * registers, and drops a command that was written while the clock was off:
 * enabling the clock afterwards sends nothing.
 */
static void test_soft_reset_clears_command_state(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, &cc);
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x1aa), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_CMD), C_R1 | 8);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_RSP << 2), 0x1aau);
	SOFT_RESET(&d);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_CMD), 0);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_RSP << 2), 0);
	for (unsigned i = 1; i < 8; i++)
		assert_int_equal(mmchal_bus_rd16(&d.bus, R_RSP + 2u * i), 0);

	/* Clock off (reset value 0x0080): the command waits for the clock. */
	mmchal_sim_reset_counters(d.sim);
	issue(&d, C_R1 | 8, 0x1aa);
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(commands(&d), 0);
	SOFT_RESET(&d);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u);
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(commands(&d), 0);
	assert_int_equal(drv_status(&d) & (S_RSP_END | S_CMD_TO), 0);
	/* ... and a new command is legal and goes out at once. */
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x1aa), 0);
	assert_int_equal(commands(&d), 1);
	assert_int_equal(bad_accesses(&d), 0);
	drv_close(&d);
}

/*
 * A command written while the clock is off goes out when SD_CLK_CTRL bit 8
 * is set, not on a divider change with the clock still off; once sent, the
 * next command is accepted (no illegal access).
 */
static void test_clock_gates_pending_command(void **state)
{
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, NULL);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0080u);
	mmchal_sim_reset_counters(d.sim);
	issue(&d, C_NONE | 0, 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0040u);
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(commands(&d), 0);
	assert_int_equal(drv_status(&d) & S_RSP_END, 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u);
	assert_int_equal(commands(&d), 1);
	assert_true(drv_wait(&d, S_RSP_END, 10000000u) & S_RSP_END);
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	assert_int_equal(commands(&d), 2);
	assert_int_equal(bad_accesses(&d), 0);
	drv_close(&d);
}

/*
 * The divider floor: with a base clock of 256 Hz and 1/512 the SD clock
 * would be 0.5 Hz; the model runs it at 1 Hz (docs/sim.md), so CMD0's 48
 * clocks take exactly 48 s of virtual time.
 */
static void test_slowest_clock_is_one_hertz(void **state)
{
	struct mmchal_sim_config cfg;
	struct drv d;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
	cfg.base_clock_hz = 256u;
	open_with_card(&d, &cfg, NULL);
	assert_true(event_delay(&d, C_NONE | 0, 0) == 48000000000ull);
	drv_close(&d);
}

/* ------------------------------------------------------------ responses */

/*
 * Response timing: command (48 clocks), N_CR (2 clocks), then the response:
 * 48 bits, or 136 for R2. At 390.625 kHz: CMD8 (R7) 98 clocks, CMD2 (R2)
 * 186 clocks.
 */
static void test_response_timing_by_length(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct drv d;

	(void)state;
	cc.powerup_ns = 0;
	open_with_card(&d, NULL, &cc);
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	assert_true(event_delay(&d, C_R1 | 8, 0x1aa) == 98u * CLK_NS);
	drv_cmd(&d, C_R1 | 55, 0);
	assert_int_equal(drv_cmd(&d, C_R3 | C_ACMD | 41, 0x40ff8000u), 0);
	assert_true(d.rsp[0] & 0x80000000u);
	assert_true(event_delay(&d, C_R2 | 2, 0) == 186u * CLK_NS);
	assert_int_equal(drv_status(&d) & S_ERRORS, 0);
	drv_close(&d);
}

/* Issue a command, wait for its response end and check the error status
 * bits of SD_INFO2 (with the response end) and SD_ERR_STS1. */
static void expect_checked(struct drv *d, uint16_t cmd, uint32_t arg, uint32_t status,
			   uint16_t err1)
{
	uint32_t st;

	issue(d, cmd, arg);
	st = drv_wait(d, S_RSP_END, 10000000u);
	assert_int_equal(st & (S_RSP_END | S_ERRORS), status);
	assert_int_equal(mmchal_bus_rd16(&d->bus, R_ERR1), err1);
}

/*
 * Error detail registers. The controller checks a response by the type in
 * SD_CMD (or the one it infers when bits 10:8 are 0, from the index: R1 for
 * an ordinary index, R3 only for ACMD41 with the 0x0040 flag). An R3 (all-ones
 * index and CRC fields) checked as R1 or R1b gives CRC and index errors with
 * response end: SD_ERR_STS1 bits 8 and 0 beside the CRC-status "010"
 * (bit 13). A 48-bit response checked as R2 is an end-bit error (bit 4). A
 * response timeout is SD_ERR_STS2 bit 0, and the next command clears it.
 */
static void test_error_detail_registers(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, NULL);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x2000u);
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x1aa), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 0x0001u);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x2000u);

	/* CMD8 checked as R2: end-bit error. */
	expect_checked(&d, C_R2 | 8, 0x1aa, S_RSP_END | S_END, 0x2010u);

	/* ACMD41 sent with an inferred type and no 0x0040 flag: checked as R1. */
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0), 0);
	expect_checked(&d, 41, 0x40ff8000u, S_RSP_END | S_CRC | S_CMD_IDX, 0x2101u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 0);

	/* The same with the flag: inferred R3, no error. */
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0), 0);
	expect_checked(&d, C_ACMD | 41, 0x40ff8000u, S_RSP_END, 0x2000u);

	/* Explicit R1b on ACMD41: checked like R1. */
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0), 0);
	expect_checked(&d, C_R1B | C_ACMD | 41, 0x40ff8000u, S_RSP_END | S_CRC | S_CMD_IDX,
		       0x2101u);

	/* An R2 checked as R2: no error, ERR_STS1 back to the CRC status only. */
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_READY);
	assert_int_equal(drv_cmd(&d, C_R2 | 2, 0), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1), 0x2000u);
	drv_close(&d);
}

/*
 * Hardware busy detection for an inferred R1b (REFERENCE.md): CMD7 selecting
 * a card that then holds DAT0 for 1 ms gets its response end only when DAT0
 * is released, 98 clocks + 1 ms after the write; also with the 0x0040 flag,
 * which infers R3 for index 41 only.
 */
static void test_inferred_r1b_select(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct drv d;
	uint32_t rca;

	(void)state;
	cc.switch_busy_ns = 1000000u;
	open_with_card(&d, NULL, &cc);
	rca = sd_to_stby(&d);
	assert_true(event_delay(&d, 7, rca << 16) == 98u * CLK_NS + 1000000u);
	assert_int_equal(drv_status(&d) & (S_RSP_END | S_ERRORS | S_DAT0), S_RSP_END | S_DAT0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	/* Deselect (no response), then select again with the ACMD flag set. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_true(event_delay(&d, C_ACMD | 7, rca << 16) == 98u * CLK_NS + 1000000u);
	assert_int_equal(drv_status(&d) & (S_RSP_END | S_ERRORS | S_DAT0), S_RSP_END | S_DAT0);
	drv_close(&d);
}

/* A card in tran that has just taken one block by PIO and is programming it
 * (DAT0 low). */
static void open_programming(struct drv *d, const struct mmchal_sim_card_config *cc, uint8_t fill)
{
	uint8_t blk[512];

	open_with_card(d, NULL, cc);
	drv_sd_init(d);
	memset(blk, fill, sizeof(blk));
	assert_int_equal(drv_pio_write(d, C_R1 | 24, 0, 512, 1, blk), 0);
	assert_false(drv_status(d) & S_DAT0);
}

/*
 * CMD38 (ERASE) is R1b too: with an inferred type its response end waits for
 * the erase busy (1 ms, one 4 MiB unit). Before it, a write whose access end
 * came twice (at the block and again at busy end, TMIO_MMC_HAS_IDLE_WAIT)
 * leaves nothing behind: the erase's busy end raises no access end.
 */
static void test_inferred_r1b_erase_after_write(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct drv d;
	uint32_t st;

	(void)state;
	open_programming(&d, &cc, 0x3c);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_true((st & (S_ACCESS_END | S_DAT0 | S_SCLKDIVEN)) ==
		    (S_ACCESS_END | S_DAT0 | S_SCLKDIVEN));
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(drv_cmd(&d, C_R1 | 32, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 33, 0), 0);
	assert_true(event_delay(&d, 38, 0) == 98u * CLK_NS + 1000000u);
	assert_int_equal(drv_status(&d) & (S_RSP_END | S_ACCESS_END | S_ERRORS), S_RSP_END);
	mmchal_sim_advance(d.sim, 5000000u);
	assert_int_equal(drv_status(&d) & (S_RSP_END | S_ACCESS_END | S_ERRORS), S_RSP_END);
	drv_close(&d);
}

/*
 * A soft reset ends the controller's waits: an R1b response held for DAT0
 * does not appear when the card releases DAT0 after the reset, and neither
 * does the second access end of a write whose card was still programming.
 */
static void test_soft_reset_cancels_busy_waits(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct drv d;
	uint32_t rca;

	(void)state;
	cc.switch_busy_ns = 1000000u;
	open_with_card(&d, NULL, &cc);
	rca = sd_to_stby(&d);
	issue(&d, C_R1B | 7, rca << 16);
	mmchal_sim_advance(d.sim, 98u * CLK_NS + 10000u);
	/* The response is in; command busy until DAT0 is released. */
	assert_int_equal(drv_status(&d) & (S_RSP_END | S_CBSY | S_DAT0), S_CBSY);
	SOFT_RESET(&d);
	assert_int_equal(drv_status(&d) & (S_RSP_END | S_CBSY), 0);
	mmchal_sim_advance(d.sim, 2000000u);
	assert_int_equal(drv_status(&d) & (S_RSP_END | S_ACCESS_END | S_CBSY | S_DAT0), S_DAT0);
	drv_close(&d);

	open_programming(&d, &cc, 0x5a); /* programming: 2 ms */
	SOFT_RESET(&d);
	mmchal_sim_advance(d.sim, 3000000u);
	assert_int_equal(drv_status(&d) & (S_RSP_END | S_ACCESS_END | S_DAT0), S_DAT0);
	drv_close(&d);
}

/* ------------------------------------------------------------ data */

/* Read one block by PIO with SD_SIZE @size; 0 or the error bits. */
static uint32_t read_one(struct drv *d, uint16_t size, uint8_t *out, uint32_t max)
{
	uint32_t st, n = 0;

	mmchal_bus_wr16(&d->bus, R_SIZE, size);
	mmchal_bus_wr16(&d->bus, R_STOP, 0);
	assert_int_equal(drv_cmd(d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	st = drv_wait(d, S_BRE, 100000000u);
	if (!(st & S_BRE))
		return st & S_ERRORS ? st & S_ERRORS : S_DATA_TO;
	drv_ack(d, S_BRE);
	while (n < max && !(drv_status(d) & S_ACCESS_END)) {
		uint64_t v = drv_port_rd(d);

		memcpy(out + n, &v, 8);
		n += 8;
	}
	return n;
}

/*
 * SD_SIZE 0 or above 512 transfers 512-byte blocks (docs/sim.md): a CMD17
 * then gives exactly 64 reads of the 64-bit port, the card's first block,
 * and access end after the last one.
 */
static void test_block_size_clamped_to_512(void **state)
{
	static const uint16_t sizes[] = {0, 513, 0x3ff};
	struct mmchal_sim_card_config cc = sd_cfg();
	uint8_t got[1024];
	uint8_t *store;
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, &cc);
	drv_sd_init(&d);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		store[i] = (uint8_t)(i * 7u + 1u);
	for (unsigned k = 0; k < 3; k++) {
		memset(got, 0, sizeof(got));
		assert_int_equal(read_one(&d, sizes[k], got, sizeof(got)), 512);
		assert_memory_equal(got, store, 512);
		assert_true(drv_status(&d) & S_ACCESS_END);
		assert_int_equal(drv_status(&d) & S_ERRORS, 0);
		assert_int_equal(mmchal_bus_rd16(&d.bus, R_SIZE), sizes[k]);
		drv_ack(&d, 0xffffffffu);
	}
	assert_int_equal(bad_accesses(&d), 0);
	drv_close(&d);
}

/*
 * VERSION 0xcc10 (Gen3 SD) is Gen3 for HOST_MODE: 0 selects the 64-bit data
 * port (REFERENCE.md, HOST_MODE), so a block reads with 64 64-bit accesses.
 */
static void test_port_width_cc10(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct mmchal_sim_config cfg;
	uint8_t got[512];
	struct drv d;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
	cfg.version = 0xcc10u;
	open_with_card(&d, &cfg, &cc);
	drv_sd_init(&d);
	assert_int_equal(drv_port_width(&d), 8);
	memset(mmchal_sim_card_store(d.sim, NULL), 0x99, 512);
	assert_int_equal(read_one(&d, 512, got, sizeof(got)), 512);
	assert_int_equal(got[0], 0x99);
	assert_int_equal(got[511], 0x99);
	assert_int_equal(bad_accesses(&d), 0);
	drv_close(&d);
}

/*
 * A CMD18 of two blocks with SD_STOP.SEC, drained by PIO; @remove pulls the
 * card after the second block arrived. An illegal CMD28 first makes the
 * CMD18 response carry ILLEGAL_COMMAND (R1 bit 22).
 */
static void read2_drained(struct drv *d, bool remove)
{
	uint32_t st;

	assert_int_equal(drv_cmd(d, C_R1 | 28, 0), MMCHAL_ETIMEDOUT);
	drv_setup_data(d, 512, 2, true);
	assert_int_equal(drv_cmd(d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	assert_int_equal(d->rsp[0], (1u << 22) | (4u << 9) | (1u << 8));
	for (unsigned b = 0; b < 2; b++) {
		st = drv_wait(d, S_BRE, 100000000u);
		assert_true(st & S_BRE);
		drv_ack(d, S_BRE);
		if (b == 1 && remove)
			assert_int_equal(mmchal_sim_card_remove(d->sim), 0);
		for (unsigned i = 0; i < 64; i++)
			(void)drv_port_rd(d);
	}
}

/*
 * Automatic CMD12 after the last block: command busy (INFO2 bit 30) while it
 * is on the CMD line, then access end; its R1 (state DATA, ready) replaces
 * the CMD18 response in SD_RSP10 and is kept in SD_RSP54 (REFERENCE.md:
 * Linux reads it from SD_RSP10).
 */
static void test_auto12_response(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct drv d;
	uint32_t st;

	(void)state;
	open_with_card(&d, NULL, &cc);
	drv_sd_init(&d);
	read2_drained(&d, false);
	st = drv_status(&d);
	assert_int_equal(st & (S_CBSY | S_ACCESS_END | S_SCLKDIVEN), S_CBSY);
	st = drv_wait(&d, S_ACCESS_END, 10000000u);
	assert_int_equal(st & (S_CBSY | S_ACCESS_END | S_ERRORS | S_SCLKDIVEN),
			 S_ACCESS_END | S_SCLKDIVEN);
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, R_RSP << 2), (5u << 9) | (1u << 8));
	assert_int_equal(d.bus.ops->read32(d.bus.ctx, (R_RSP + 8u) << 2), (5u << 9) | (1u << 8));
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	drv_close(&d);
}

/*
 * No response to the automatic CMD12 (the card was pulled): command timeout
 * (INFO2 bit 22) with SD_ERR_STS2 bit 1 (CMD12 response timeout; RZ/A1H
 * manual naming, inferred) and nothing else there; command busy clear and
 * the controller idle again (bit 29 set), no access end.
 */
static void test_auto12_timeout(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct drv d;
	uint32_t st;

	(void)state;
	open_with_card(&d, NULL, &cc);
	drv_sd_init(&d);
	read2_drained(&d, true);
	st = drv_status(&d);
	assert_int_equal(st & (S_CBSY | S_ACCESS_END | S_CMD_TO | S_SCLKDIVEN),
			 S_CMD_TO | S_SCLKDIVEN);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR2), 0x0002u);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_int_equal(drv_status(&d) & (S_CBSY | S_ACCESS_END), 0);
	drv_close(&d);
}

/* A soft reset while the automatic CMD12 is in flight cancels it: no access end follows. */
static void test_auto12_cancelled_by_reset(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct drv d;

	(void)state;
	open_with_card(&d, NULL, &cc);
	drv_sd_init(&d);
	read2_drained(&d, false);
	assert_true(drv_status(&d) & S_CBSY);
	SOFT_RESET(&d);
	mmchal_sim_advance(d.sim, 10000000u);
	assert_int_equal(drv_status(&d) & (S_CBSY | S_ACCESS_END | S_RSP_END | S_ERRORS), 0);
	drv_close(&d);
}

/*
 * The data port takes writes only at its HOST_MODE width, only while the
 * buffer waits for a block, and only as many blocks as SD_SECCNT says: a
 * 16-bit write to the 64-bit port and a write after the last block (while
 * the automatic CMD12 runs) are illegal accesses that store nothing.
 */
static void test_port_write_checks(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	uint8_t *store;
	struct drv d;
	uint32_t st;
	unsigned n = 0;

	(void)state;
	open_with_card(&d, NULL, &cc);
	drv_sd_init(&d);
	drv_setup_data(&d, 512, 2, true);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_MULTI | 25, 0), 0);
	for (unsigned b = 0; b < 2; b++) {
		st = drv_wait(&d, S_BWE, 100000000u);
		assert_true(st & S_BWE);
		drv_ack(&d, S_BWE);
		if (b == 0) {
			d.bus.ops->write16(d.bus.ctx, R_BUF << 2, 0xeeeeu);
			assert_int_equal(bad_accesses(&d), 1);
			assert_true(drv_status(&d) & S_ILL);
			drv_ack(&d, S_ILL);
		}
		for (unsigned i = 0; i < 64; i++)
			drv_port_wr(&d, 0x0101010101010101ull * (b + 1u));
	}
	while (!(drv_status(&d) & S_CBSY) && n++ < 10000u)
		mmchal_sim_advance(d.sim, 1000u);
	assert_true(drv_status(&d) & S_CBSY);
	drv_port_wr(&d, 0x7777777777777777ull);
	assert_int_equal(bad_accesses(&d), 2);
	assert_true(drv_status(&d) & S_ILL);
	drv_ack(&d, S_ILL);
	st = drv_wait(&d, S_ACCESS_END, 10000000u);
	assert_true(st & S_ACCESS_END);
	store = mmchal_sim_card_store(d.sim, NULL);
	assert_int_equal(store[0], 0x01);
	assert_int_equal(store[511], 0x01);
	assert_int_equal(store[512], 0x02);
	assert_int_equal(store[1023], 0x02);
	assert_int_equal(store[1024], 0x00);
	drv_close(&d);
}

/*
 * An open-ended CMD18 (SD_STOP.SEC clear) runs until SD_STOP bit 0: writing
 * SD_STOP without bit 0 stops nothing, the next block still comes; bit 0
 * ends the transfer after the block in the buffer (auto CMD12, access end).
 */
static void test_open_ended_read_stops_on_bit0(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct mmchal_sim_counters c;
	struct drv d;
	uint32_t st;

	(void)state;
	open_with_card(&d, NULL, &cc);
	drv_sd_init(&d);
	mmchal_bus_wr16(&d.bus, R_SIZE, 512u);
	mmchal_bus_wr16(&d.bus, R_STOP, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | C_MULTI | 18, 0), 0);
	mmchal_sim_reset_counters(d.sim);
	for (unsigned b = 0; b < 2; b++) {
		st = drv_wait(&d, S_BRE, 100000000u);
		assert_int_equal(st & (S_BRE | S_ACCESS_END | S_ERRORS), S_BRE);
		drv_ack(&d, S_BRE);
		mmchal_bus_wr16(&d.bus, R_STOP, b ? 0x0001u : 0);
		for (unsigned i = 0; i < 64; i++)
			(void)drv_port_rd(&d);
	}
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_BRE | S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	mmchal_sim_get_counters(d.sim, &c);
	assert_true(c.blocks == 2 && c.commands == 1 && c.bad_accesses == 0);
	drv_close(&d);
}

/*
 * The data port takes a write only once the write buffer is requested: a
 * write before the CMD24 response (and so before buffer write enable) is an
 * illegal access and is not stored; the block written after BWE is.
 */
static void test_port_write_before_response_is_illegal(void **state)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	uint8_t *store;
	struct drv d;
	uint32_t st;

	(void)state;
	open_with_card(&d, NULL, &cc);
	drv_sd_init(&d);
	drv_setup_data(&d, 512, 1, false);
	issue(&d, C_R1 | C_DATA | 24, 0);
	drv_port_wr(&d, 0x1111111111111111ull);
	assert_int_equal(bad_accesses(&d), 1);
	drv_ack(&d, S_ILL);
	st = drv_wait(&d, S_BWE, 100000000u);
	assert_true(st & S_BWE);
	drv_ack(&d, S_BWE | S_RSP_END);
	for (unsigned i = 0; i < 64; i++)
		drv_port_wr(&d, 0x0807060504030201ull);
	st = drv_wait(&d, S_ACCESS_END, 100000000u);
	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	assert_int_equal(bad_accesses(&d), 1);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < 512; i++)
		assert_int_equal(store[i], (i % 8u) + 1u);
	drv_close(&d);
}

/* ------------------------------------------------------------ SYS-DMAC */

static unsigned dma_calls;
static int dma_status;
static void on_dma(void *arg, int status)
{
	(void)arg;
	dma_calls++;
	dma_status = status;
}

/* Gen2 (0xcb0d, 32-bit port), card in tran at 25 MHz, a read channel prepared and submitted. */
static uint8_t *gen2_dma_read_setup(struct drv *d, const struct mmchal_sim_config *cfg,
				    uint16_t ext_mode)
{
	struct mmchal_sim_card_config cc = sd_cfg();
	struct mmchal_dma_chan rx;
	struct mmchal_dma_xfer x;
	struct mmchal_dma_seg *seg;
	uint64_t phys;
	uint8_t *buf;

	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	open_with_card(d, cfg, &cc);
	assert_int_equal(mmchal_sim_mem_add(d->sim, 0x40000000u, 1u << 20, NULL), 0);
	drv_sd_init(d);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u);
	mmchal_bus_wr16(&d->bus, R_HOSTMODE, 0);
	mmchal_bus_wr16(&d->bus, R_EXTMODE, ext_mode);
	buf = mmchal_sim_mem_alloc(d->sim, 0, 512 + sizeof(*seg), 8, &phys);
	assert_non_null(buf);
	seg = (struct mmchal_dma_seg *)(void *)(buf + 512);
	memset(mmchal_sim_card_store(d->sim, NULL), 0x6b, 512);
	assert_int_equal(mmchal_sim_sysdmac(d->sim, MMCHAL_DIR_FROM_CARD, &rx), 0);
	seg->addr = phys;
	seg->len = 512;
	memset(&x, 0, sizeof(x));
	x.dir = MMCHAL_DIR_FROM_CARD;
	x.segs = seg;
	x.nsegs = 1;
	x.dev_addr = 0xee100000u + (0x30u << 1) + 0x2000u;
	x.dev_width = 4;
	x.done = on_dma;
	assert_int_equal(rx.ops->prepare(rx.ctx, &x), 0);
	assert_int_equal(rx.ops->submit(rx.ctx), 0);
	dma_calls = 0;
	drv_setup_data(d, 512, 1, false);
	return buf;
}

/*
 * CC_EXT_MODE bit 1 hands the data port to DMA (REFERENCE.md): a block that
 * arrived for the CPU (buffer read ready) is taken by the running SYS-DMAC
 * channel as soon as software sets the bit.
 */
static void test_ext_mode_hands_buffer_to_dma(void **state)
{
	struct mmchal_sim_config cfg;
	struct drv d;
	uint8_t *buf;
	uint32_t st;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN2);
	buf = gen2_dma_read_setup(&d, &cfg, 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 17, 0), 0);
	st = drv_wait(&d, S_BRE, 10000000u);
	assert_true(st & S_BRE);
	assert_int_equal(dma_calls, 0);
	assert_int_not_equal(buf[0], 0x6b);
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 0x0002u);
	assert_int_equal(dma_calls, 1);
	assert_int_equal(dma_status, 0);
	assert_int_equal(buf[0], 0x6b);
	assert_int_equal(buf[511], 0x6b);
	assert_true(drv_status(&d) & S_ACCESS_END);
	drv_close(&d);
}

/*
 * mmchal_sim_run() reports everything that ran: with no interrupt latency,
 * the SYS-DMAC completion and the access-end interrupt of the same instant
 * come back together as MMCHAL_SIM_RUN_DMA | MMCHAL_SIM_RUN_IRQ.
 */
static void test_run_reports_dma_and_irq(void **state)
{
	struct mmchal_sim_config cfg;
	struct drv d;
	uint64_t t0;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN2);
	cfg.irq_latency_ns = 0;
	(void)gen2_dma_read_setup(&d, &cfg, 0x0002u);
	h_drv = &d;
	h_irqs = 0;
	drv_ack(&d, 0xffffffffu);
	mmchal_sim_set_irq_handler(d.sim, ack_all_irq, NULL);
	mmchal_bus_wr32(&d.bus, R_ARG, 0);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | C_DATA | C_READ | 17);
	t0 = mmchal_sim_now(d.sim);
	assert_int_equal(mmchal_sim_run(d.sim, t0 + 100000000u), MMCHAL_SIM_RUN_IRQ);
	assert_int_equal(h_irqs, 1);
	assert_int_equal(dma_calls, 0);
	assert_int_equal(mmchal_sim_run(d.sim, t0 + 100000000u),
			 MMCHAL_SIM_RUN_DMA | MMCHAL_SIM_RUN_IRQ);
	assert_int_equal(h_irqs, 2);
	assert_int_equal(dma_calls, 1);
	mmchal_sim_set_irq_handler(d.sim, NULL, NULL);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_window_edge),
		cmocka_unit_test(test_run_limit_lock_and_work),
		cmocka_unit_test(test_run_irq_due_exactly_at_limit),
		cmocka_unit_test(test_irq_taken_after_a_read),
		cmocka_unit_test(test_full_work_queue_delivered_in_order),
		cmocka_unit_test(test_port_alias_and_port_counters),
		cmocka_unit_test(test_unaligned_access_ignored),
		cmocka_unit_test(test_wide_access_decode),
		cmocka_unit_test(test_zero_registers_read_back),
		cmocka_unit_test(test_seccnt_16bit_read_is_low_half),
		cmocka_unit_test(test_seccnt_16bit_before_cb0d),
		cmocka_unit_test(test_info2_mask_read_back),
		cmocka_unit_test(test_unused_registers_read_zero),
		cmocka_unit_test(test_soft_reset_clears_command_state),
		cmocka_unit_test(test_clock_gates_pending_command),
		cmocka_unit_test(test_slowest_clock_is_one_hertz),
		cmocka_unit_test(test_response_timing_by_length),
		cmocka_unit_test(test_error_detail_registers),
		cmocka_unit_test(test_inferred_r1b_select),
		cmocka_unit_test(test_inferred_r1b_erase_after_write),
		cmocka_unit_test(test_soft_reset_cancels_busy_waits),
		cmocka_unit_test(test_block_size_clamped_to_512),
		cmocka_unit_test(test_port_width_cc10),
		cmocka_unit_test(test_auto12_response),
		cmocka_unit_test(test_auto12_timeout),
		cmocka_unit_test(test_auto12_cancelled_by_reset),
		cmocka_unit_test(test_port_write_checks),
		cmocka_unit_test(test_open_ended_read_stops_on_bit0),
		cmocka_unit_test(test_port_write_before_response_is_illegal),
		cmocka_unit_test(test_ext_mode_hands_buffer_to_dma),
		cmocka_unit_test(test_run_reports_dma_and_irq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
