/*
 * The SDHI backends against a scripted controller that reports what the
 * fuzz target (fuzz/fuzz_sdhi.c) found glitching hardware may report: each
 * test is one finding, and fails on the code before its fix.
 *
 * The controller is a register file with a script for the status: every read
 * of SD_INFO1 takes the next 32-bit status word of the script (SD_INFO2 reads
 * its upper half), the last word repeating; every write is logged.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/host_core.h>
#include <mmchal/sdhi.h>
#include <mmchal/sdhi_socs.h>

/* Registers and bits, from REFERENCE.md. */
#define R_SECCNT 0x0au
#define R_INFO1  0x1cu
#define R_INFO2  0x1eu
#define R_BUF0   0x30u
#define R_VER    0xe2u
#define DM_INFO1 0x840u
#define DM_INFO2 0x850u

#define ST_RSP_END (1u << 0)
#define ST_ACC_END (1u << 2)
#define ST_CD      (1u << 5)
#define ST_DAT0    (1u << 23)
#define ST_BRE     (1u << 24)
#define ST_IDLE    (1u << 29)
#define ST_BASE    (ST_CD | ST_DAT0 | ST_IDLE)

#define LOG_MAX 4096u

struct ctl {
	uint8_t shift;
	uint16_t version;
	const uint32_t *script; /* status words */
	unsigned int nscript, pos;
	uint32_t cur; /* status word of the last SD_INFO1 read */
	uint32_t dm_info1, dm_info2;
	struct {
		uint32_t off;
		unsigned int width;
		uint64_t val;
	} log[LOG_MAX];
	unsigned int nlog;
};

static struct ctl C;

static void logw(uint32_t off, unsigned int width, uint64_t val)
{
	if (C.nlog < LOG_MAX) {
		C.log[C.nlog].off = off;
		C.log[C.nlog].width = width;
		C.log[C.nlog].val = val;
		C.nlog++;
	}
}

static uint64_t rd(uint32_t off)
{
	if (off == (R_INFO1 << C.shift)) {
		C.cur = C.script[C.pos];
		if (C.pos + 1u < C.nscript)
			C.pos++;
		return C.cur & 0xffffu;
	}
	if (off == (R_INFO2 << C.shift))
		return C.cur >> 16;
	if (off == (R_VER << C.shift))
		return C.version;
	if (off == DM_INFO1)
		return C.dm_info1;
	if (off == DM_INFO2)
		return C.dm_info2;
	if (off == (R_BUF0 << C.shift))
		return 0x0706050403020100ull;
	return 0;
}

static uint16_t c_rd16(void *ctx, uint32_t off)
{
	(void)ctx;
	return (uint16_t)rd(off);
}

static uint32_t c_rd32(void *ctx, uint32_t off)
{
	(void)ctx;
	return (uint32_t)rd(off);
}

static uint64_t c_rd64(void *ctx, uint32_t off)
{
	(void)ctx;
	return rd(off);
}

static void c_wr16(void *ctx, uint32_t off, uint16_t val)
{
	(void)ctx;
	logw(off, 2, val);
}

static void c_wr32(void *ctx, uint32_t off, uint32_t val)
{
	(void)ctx;
	logw(off, 4, val);
}

static void c_wr64(void *ctx, uint32_t off, uint64_t val)
{
	(void)ctx;
	logw(off, 8, val);
}

static const struct mmchal_bus_ops ctl_ops = {
	.read16 = c_rd16,
	.write16 = c_wr16,
	.read32 = c_rd32,
	.write32 = c_wr32,
	.read64 = c_rd64,
	.write64 = c_wr64,
};

static void ctl_reset(uint8_t shift, uint16_t version, const uint32_t *script, unsigned int n)
{
	memset(&C, 0, sizeof(C));
	C.shift = shift;
	C.version = version;
	C.script = script;
	C.nscript = n;
}

static void cfg_of(struct mmchal_sdhi_cfg *cfg, const struct mmchal_sdhi_soc *soc, uint8_t shift)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->bus.ops = &ctl_ops;
	cfg->bus.bus_shift = shift;
	cfg->soc = soc;
	cfg->clk_hz = 200000000u;
	cfg->caps.completion = MMCHAL_COMPLETES_POLLED;
}

/* Poll the backend until the xfer reports its end; the events seen. */
static uint32_t run_xfer(struct mmchal_backend *be)
{
	uint32_t acc = 0, ev;

	for (int i = 0; i < 64; i++) {
		assert_int_equal(be->ops->handle_irq(be->ctx, &ev), 0);
		acc |= ev;
		if (acc & (MMCHAL_EV_DATA_DONE | MMCHAL_EV_DATA_ERROR | MMCHAL_EV_CMD_ERROR))
			return acc;
	}
	fail_msg("the xfer did not end");
	return acc;
}

/*
 * A PIO read of 2 blocks whose access end comes after one buffer-ready only
 * (fuzz_sdhi found it; tests/fuzz/sdhi/crash-pio-access-end-short): the data
 * phase is short and fails with EIO, counting the one block that moved. It
 * used to end as done with bytes_xfered 1024, half of the buffer never written.
 */
static void test_pio_access_end_before_last_block(void **state)
{
	static const uint32_t script[] = {
		ST_BASE,              /* probe: card present */
		ST_BASE | ST_RSP_END, /* the response */
		ST_BASE | ST_BRE,     /* block 0 */
		ST_BASE | ST_ACC_END, /* access end, block 1 never came */
	};
	static const struct mmchal_sdhi_soc soc = MMCHAL_SDHI_SOC_RCAR_GEN3;
	static struct mmchal_sdhi sdhi;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_backend be;
	uint8_t buf[1024 + 16];
	struct mmchal_sg sg = {.cpu = buf, .len = 1024};
	struct mmchal_cmd cmd = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 2, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &cmd, .data = &d, .plan = MMCHAL_PLAN_PIO};
	uint32_t ev, blocks = 99;

	(void)state;
	ctl_reset(2, 0xcc10u, script, 4);
	cfg_of(&cfg, &soc, 2);
	assert_int_equal(mmchal_sdhi_pio_init(&sdhi, &cfg, &be), 0);
	assert_int_equal(be.ops->probe(be.ctx), 0);
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	ev = run_xfer(&be);
	assert_true(ev & MMCHAL_EV_CMD_DONE);
	assert_false(ev & MMCHAL_EV_DATA_DONE);
	assert_true(ev & MMCHAL_EV_DATA_ERROR);
	assert_int_equal(d.error, MMCHAL_EIO);
	assert_int_equal(d.bytes_xfered, 512);
	assert_int_equal(be.ops->blocks_done(be.ctx, &blocks), 0);
	assert_int_equal(blocks, 1);
	/* block 0 came from the port, block 1 was never written */
	assert_int_equal(buf[0], 0x00);
	assert_int_equal(buf[7], 0x07);
	assert_int_equal(buf[512], 0xa5);
}

/*
 * A controller with a 0x100-byte window (bus_shift 0) whose VERSION reads
 * 0xcb0d or later (fuzz_sdhi: crash-seccnt-unaligned-32bit): the 32-bit block
 * counter would be one 32-bit access at byte 0x0a, unaligned (and its upper
 * half SD_RSP10). It counts 16 bits: SD_SECCNT is one 16-bit write.
 */
static void test_shift0_block_counter_16bit(void **state)
{
	static const uint32_t script[] = {ST_BASE};
	static const struct mmchal_sdhi_soc soc = MMCHAL_SDHI_SOC_SHMOBILE;
	static struct mmchal_sdhi sdhi;
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_backend be;
	struct mmchal_host_caps hc;
	struct mmchal_dma_caps dc;
	uint8_t buf[1024];
	struct mmchal_sg sg = {.cpu = buf, .len = sizeof(buf)};
	struct mmchal_cmd cmd = {.opcode = 18, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 2, .sg = &sg, .sg_len = 1};
	struct mmchal_xfer x = {.cmd = &cmd, .data = &d, .plan = MMCHAL_PLAN_PIO};
	unsigned int seccnt = 0;

	(void)state;
	ctl_reset(0, 0xcb0du, script, 1);
	cfg_of(&cfg, &soc, 0);
	assert_int_equal(mmchal_sdhi_pio_init(&sdhi, &cfg, &be), 0);
	assert_int_equal(be.ops->probe(be.ctx), 0);
	assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);
	assert_int_equal(hc.blk_count_bits, 16);
	assert_true(hc.max_blk_count <= 0xffffu);
	C.nlog = 0;
	assert_int_equal(be.ops->start(be.ctx, &x), 0);
	for (unsigned int i = 0; i < C.nlog; i++) {
		/* every access naturally aligned; SD_SECCNT once, 16 bits */
		assert_int_equal(C.log[i].off & (C.log[i].width - 1u), 0);
		if (C.log[i].off == R_SECCNT) {
			assert_int_equal(C.log[i].width, 2);
			assert_int_equal(C.log[i].val, 2);
			seccnt++;
		}
	}
	assert_int_equal(seccnt, 1);
	/* more blocks than 16 bits count are refused */
	assert_int_equal(be.ops->abort(be.ctx), 0);
	d.blocks = 0x10000u;
	sg.len = 0; /* never reached */
	assert_int_equal(be.ops->start(be.ctx, &x), MMCHAL_EINVAL);
}

/* ------------------------------------------------------------ under the host core */

static uint64_t now_ns;

static uint64_t p_now(void *ctx)
{
	(void)ctx;
	return now_ns += 1000u;
}

static void p_delay(void *ctx, uint32_t us)
{
	(void)ctx;
	now_ns += (uint64_t)us * 1000u;
}

static const struct mmchal_port_ops port_ops = {.now_ns = p_now, .delay_us = p_delay};

static unsigned int ndone;

static void on_done(struct mmchal_request *r)
{
	(void)r;
	ndone++;
}

/*
 * A DMA read that the internal DMAC fails, on a host with PIO retry, polled
 * with mmchal_host_request() and mmchal_host_poll() (fuzz_sdhi:
 * crash-pio-retry-poll-answer): the poll that restarts the request by PIO is
 * no completion and returns 0; the poll that completes it returns 1, as done
 * runs. The restarting poll used to return 1 with the request still running,
 * so a caller that stops waiting there hands out buffers the PIO retry writes.
 */
static void test_pio_retry_poll_is_no_completion(void **state)
{
	static const uint32_t script[] = {
		ST_BASE,              /* probe */
		ST_BASE | ST_RSP_END, /* the response: the DMAC starts */
		ST_BASE,              /* and fails */
		ST_BASE | ST_RSP_END, /* the retry's response */
		ST_BASE | ST_BRE,     /* its block */
		ST_BASE | ST_ACC_END, /* and its access end */
	};
	static const struct mmchal_sdhi_soc soc = MMCHAL_SDHI_SOC_RCAR_GEN3;
	static struct mmchal_sdhi sdhi;
	static struct mmchal_host host;
	static _Alignas(128) uint8_t buf[512];
	struct mmchal_sdhi_cfg cfg;
	struct mmchal_backend be;
	struct mmchal_port port = {.ops = &port_ops};
	struct mmchal_host_cfg hc = {.backend = &be, .port = &port, .pio_retry = true};
	struct mmchal_sg sg = {.cpu = buf, .phys = 0x40000000u, .len = sizeof(buf)};
	struct mmchal_cmd cmd = {.opcode = 17, .flags = MMCHAL_RSP_R1};
	struct mmchal_data d = {
		.dir = MMCHAL_DIR_FROM_CARD, .blksz = 512, .blocks = 1, .sg = &sg, .sg_len = 1};
	struct mmchal_request req = {.cmd = &cmd, .data = &d, .done = on_done};
	struct mmchal_host_stats st;
	int rc, polls = 0;

	(void)state;
	ctl_reset(2, 0xcc10u, script, 6);
	C.dm_info2 = 1u << 17; /* DM_CM_INFO2: channel 1 (read) error */
	cfg_of(&cfg, &soc, 2);
	assert_int_equal(mmchal_sdhi_idmac_init(&sdhi, &cfg, &be), 0);
	assert_int_equal(mmchal_host_init(&host, &hc), 0);
	ndone = 0;
	assert_int_equal(mmchal_host_request(&host, &req), 0);
	/* the response; then the poll that sees the DMAC error restarts by PIO */
	assert_int_equal(mmchal_host_poll(&host), 0);
	rc = mmchal_host_poll(&host);
	assert_int_equal(ndone, 0);
	assert_int_equal(rc, 0);
	assert_int_equal(mmchal_host_stats(&host, &st), 0);
	assert_int_equal(st.pio_retries, 1);
	C.dm_info2 = 0;
	do {
		rc = mmchal_host_poll(&host);
		assert_true(rc == 0 || rc == 1);
		assert_int_equal(ndone, (unsigned int)rc);
		assert_true(++polls < 16);
	} while (rc == 0);
	assert_int_equal(cmd.error, 0);
	assert_int_equal(d.error, 0);
	assert_int_equal(d.bytes_xfered, 512);
	assert_int_equal(buf[5], 0x05);
	mmchal_host_deinit(&host);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pio_access_end_before_last_block),
		cmocka_unit_test(test_shift0_block_counter_16bit),
		cmocka_unit_test(test_pio_retry_poll_is_no_completion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
