/*
 * The card layer over the host core and the mock backend (the whole library
 * stack, polled, PIO): identification of each card type, addressing, the
 * bus and timing choice, a timeout at each identification step, block I/O at
 * both ends of the card, erase, write protection, a failed write and removal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include <mmchal/card.h>
#include <mmchal/host_core.h>
#include <mmchal/mock.h>

#define IMAGE_SIZE (1024u * 1024u)
#define SECTORS    (IMAGE_SIZE / 512u)
#define LOG_LEN    64u

static uint8_t image[IMAGE_SIZE];
static uint8_t regbuf[MMCHAL_CARD_BUF_SIZE];
static uint8_t wbuf[16384], rbuf[16384];
static struct mmchal_mock mock;
static struct mmchal_mock_log_entry mlog[LOG_LEN];
static struct mmchal_host host;
static struct mmchal_card card;
static uint64_t vclock;

static uint64_t vnow(void *ctx)
{
	(void)ctx;
	return vclock += 1000u;
}

static void vdelay(void *ctx, uint32_t us)
{
	(void)ctx;
	vclock += (uint64_t)us * 1000u;
}

static const struct mmchal_port_ops port_ops = {.now_ns = vnow, .delay_us = vdelay};
static const struct mmchal_port port = {.ops = &port_ops};

#define SD_BUS   (MMCHAL_BUS_4_BIT | MMCHAL_BUS_SD_HS | MMCHAL_BUS_CMD23)
#define MMC_BUS  (MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_MMC_HS | MMCHAL_BUS_CMD23)
#define SG(b, n) (&(struct mmchal_sg){.cpu = (b), .phys = (uintptr_t)(b), .len = (n)})

static void pattern(void)
{
	for (uint32_t i = 0; i < IMAGE_SIZE; i++)
		image[i] = (uint8_t)(i * 29u + (i >> 9) + 1u);
}

/* Mock, host core and card object; nothing sent yet. */
static void stack(enum mmchal_mock_card kind, uint32_t bus, uint64_t size)
{
	struct mmchal_mock_cfg mc;
	struct mmchal_backend be;
	struct mmchal_host_cfg hc;
	struct mmchal_card_cfg cc;

	pattern();
	memset(&mc, 0, sizeof(mc));
	mc.card = kind;
	mc.image = image;
	mc.image_size = size;
	mc.host.bus = bus;
	mc.host.completion = MMCHAL_COMPLETES_POLLED;
	mc.host.f_max_hz = 200000000u;
	mc.log = mlog;
	mc.log_len = LOG_LEN;
	mc.op_cond_polls = 2;
	/* what a real controller reports for a command the card ignores */
	mc.illegal_error = MMCHAL_ETIMEDOUT;
	assert_int_equal(mmchal_mock_init(&mock, &mc), 0);
	assert_int_equal(mmchal_mock_backend(&mock, &be), 0);
	memset(&hc, 0, sizeof(hc));
	hc.backend = &be;
	hc.port = &port;
	assert_int_equal(mmchal_host_init(&host, &hc), 0);
	memset(&cc, 0, sizeof(cc));
	cc.ops = &mmchal_host_core_ops;
	cc.ctx = &host;
	cc.buf = regbuf;
	cc.buf_phys = (uintptr_t)regbuf;
	cc.op_cond_tries = 20;
	cc.delay_us = vdelay;
	assert_int_equal(mmchal_card_setup(&card, &cc), 0);
}

static void teardown_stack(void)
{
	mmchal_host_deinit(&host);
}

static void test_sdhc(void **state)
{
	const struct mmchal_card_info *info;
	struct mmchal_mock_status st;

	(void)state;
	stack(MMCHAL_MOCK_SDHC, SD_BUS, IMAGE_SIZE);
	assert_int_equal(mmchal_card_init(&card), 0);
	info = mmchal_card_info(&card);
	assert_int_equal(info->type, MMCHAL_CARD_SD);
	assert_true(info->block_addr);
	assert_true(info->sd_v2);
	assert_int_equal(info->sectors, SECTORS);
	assert_int_equal(info->rca, 0x1234);
	assert_int_equal(info->cid.psn, 0x01234567u);
	assert_int_equal(info->bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(info->timing, MMCHAL_TIMING_SD_HS);
	assert_true(info->cmd23);
	assert_int_equal(mmchal_mock_status(&mock, &st), 0);
	assert_int_equal(st.state, MMCHAL_MOCK_ST_TRAN);
	assert_int_equal(st.width, 4);
	assert_int_equal(st.hs_timing, 1);
	assert_true(st.ccs);
	assert_int_equal(st.ios.bus_width, MMCHAL_BUS_WIDTH_4);
	/* the host core derived its limits for an SD card */
	assert_int_equal(mmchal_host_limits(&host)->card, MMCHAL_CARD_SD);
	teardown_stack();
}

static void test_sdsc_addressing(void **state)
{
	const struct mmchal_mock_log_entry *e;

	(void)state;
	stack(MMCHAL_MOCK_SDSC, SD_BUS, IMAGE_SIZE);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_false(card.info.block_addr);
	assert_int_equal(card.info.csd.structure, 0);
	assert_int_equal(card.info.sectors, SECTORS);
	memset(wbuf, 0x5a, 512);
	mmchal_mock_log_clear(&mock);
	assert_int_equal(mmchal_card_write(&card, 5, 1, SG(wbuf, 512), 1), 0);
	e = mmchal_mock_log_get(&mock, 0);
	assert_non_null(e);
	assert_int_equal(e->opcode, 24);
	assert_int_equal(e->arg, 5u * 512u);
	assert_memory_equal(&image[5 * 512], wbuf, 512);
	teardown_stack();
}

static void test_emmc(void **state)
{
	struct mmchal_mock_status st;

	(void)state;
	stack(MMCHAL_MOCK_EMMC, MMC_BUS | MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400, IMAGE_SIZE);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.type, MMCHAL_CARD_MMC);
	assert_true(card.info.block_addr);
	assert_int_equal(card.info.sectors, SECTORS);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_8);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS400);
	assert_true(card.info.tuned);
	assert_int_equal(mmchal_mock_stats(&mock)->tunings, 1);
	assert_int_equal(mmchal_mock_status(&mock, &st), 0);
	assert_int_equal(st.width, 8);
	assert_int_equal(st.hs_timing, 3);
	assert_int_equal(st.ios.timing, MMCHAL_TIMING_MMC_HS400);
	assert_int_equal(mmchal_host_limits(&host)->card, MMCHAL_CARD_MMC);
	assert_int_equal(mmchal_card_read(&card, SECTORS - 4, 4, SG(rbuf, 2048), 1), 0);
	assert_memory_equal(rbuf, &image[(SECTORS - 4) * 512], 2048);
	teardown_stack();
}

static void test_emmc_8bit_refused_falls_back(void **state)
{
	struct mmchal_mock_status st;

	(void)state;
	stack(MMCHAL_MOCK_EMMC, MMC_BUS, IMAGE_SIZE);
	/* the first CMD6 (BUS_WIDTH = 8 bits) fails */
	assert_int_equal(mmchal_mock_fail_cmd(&mock, 6, MMCHAL_EILSEQ, 1), 0);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(mmchal_mock_status(&mock, &st), 0);
	assert_int_equal(st.width, 4);
	assert_int_equal(st.ios.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(mmchal_card_read(&card, 0, 8, SG(rbuf, 4096), 1), 0);
	assert_memory_equal(rbuf, image, 4096);
	teardown_stack();
}

static void test_sdio(void **state)
{
	(void)state;
	stack(MMCHAL_MOCK_SDIO, SD_BUS, 0);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.type, MMCHAL_CARD_SDIO);
	assert_int_equal(card.info.sdio.nfuncs, 1);
	assert_int_equal(card.info.sdio.vendor, 0x02d0);
	assert_int_equal(card.info.sdio.device, 0x4d4b);
	assert_int_equal(card.info.sdio.max_blk_size, 512);
	assert_int_equal(mmchal_host_limits(&host)->card, MMCHAL_CARD_SDIO);
	assert_int_equal(mmchal_card_read(&card, 0, 1, SG(rbuf, 512), 1), MMCHAL_ENOTSUP);
	teardown_stack();
}

/* A timeout at one identification command: init fails naming it; a retry works. */
static void timeout_once(enum mmchal_mock_card kind, uint32_t bus, uint32_t op, uint32_t count,
			 uint32_t want_op, bool want_app)
{
	const struct mmchal_card_err *e;

	stack(kind, bus, IMAGE_SIZE);
	assert_int_equal(mmchal_mock_fail_cmd(&mock, op, MMCHAL_ETIMEDOUT, count), 0);
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	e = mmchal_card_last_error(&card);
	assert_int_equal(e->opcode, want_op);
	assert_int_equal(e->app, want_app);
	assert_int_equal(card.info.type, MMCHAL_CARD_UNKNOWN);
	/* the host is usable: the same stack identifies the card at once */
	mmchal_mock_clear_faults(&mock);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_read(&card, SECTORS - 2, 2, SG(rbuf, 1024), 1), 0);
	assert_memory_equal(rbuf, &image[(SECTORS - 2) * 512], 1024);
	teardown_stack();
}

static void test_sd_timeouts(void **state)
{
	const uint32_t A = MMCHAL_MOCK_ACMD;

	(void)state;
	timeout_once(MMCHAL_MOCK_SDHC, SD_BUS, 0, 1, 0, false);
	timeout_once(MMCHAL_MOCK_SDHC, SD_BUS, 55, 1, 55, false);
	timeout_once(MMCHAL_MOCK_SDHC, SD_BUS, 41 | A, 1, 41, true);
	timeout_once(MMCHAL_MOCK_SDHC, SD_BUS, 2, 1, 2, false);
	timeout_once(MMCHAL_MOCK_SDHC, SD_BUS, 3, 1, 3, false);
	timeout_once(MMCHAL_MOCK_SDHC, SD_BUS, 9, 1, 9, false);
	timeout_once(MMCHAL_MOCK_SDHC, SD_BUS, 7, 1, 7, false);
	timeout_once(MMCHAL_MOCK_SDHC, SD_BUS, 51 | A, 1, 51, true);
	timeout_once(MMCHAL_MOCK_SDHC, SD_BUS, 6 | A, 1, 6, true);
	timeout_once(MMCHAL_MOCK_SDHC, SD_BUS, 6, 1, 6, false);
}

static void test_emmc_timeouts(void **state)
{
	(void)state;
	timeout_once(MMCHAL_MOCK_EMMC, MMC_BUS, 0, 1, 0, false);
	timeout_once(MMCHAL_MOCK_EMMC, MMC_BUS, 1, 1, 1, false);
	timeout_once(MMCHAL_MOCK_EMMC, MMC_BUS, 2, 1, 2, false);
	timeout_once(MMCHAL_MOCK_EMMC, MMC_BUS, 3, 1, 3, false);
	timeout_once(MMCHAL_MOCK_EMMC, MMC_BUS, 9, 1, 9, false);
	timeout_once(MMCHAL_MOCK_EMMC, MMC_BUS, 7, 1, 7, false);
	/* CMD8 twice: SEND_IF_COND (silent anyway), then SEND_EXT_CSD */
	timeout_once(MMCHAL_MOCK_EMMC, MMC_BUS, 8, 2, 8, false);
}

static void test_emmc_status_timeout_at_width(void **state)
{
	(void)state;
	/* CMD13 after the 8-bit switch times out: 4 bits, and the card works */
	stack(MMCHAL_MOCK_EMMC, MMC_BUS, IMAGE_SIZE);
	assert_int_equal(mmchal_mock_fail_cmd(&mock, 13, MMCHAL_ETIMEDOUT, 1), 0);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(mmchal_card_read(&card, 0, 4, SG(rbuf, 2048), 1), 0);
	assert_memory_equal(rbuf, image, 2048);
	teardown_stack();
}

static void rw_both_ends(enum mmchal_mock_card kind, uint32_t bus)
{
	stack(kind, bus, IMAGE_SIZE);
	assert_int_equal(mmchal_card_init(&card), 0);
	for (uint32_t i = 0; i < sizeof(wbuf); i++)
		wbuf[i] = (uint8_t)(i * 3u + 7u);
	assert_int_equal(mmchal_card_write(&card, 0, 1, SG(wbuf, 512), 1), 0);
	assert_memory_equal(image, wbuf, 512);
	assert_int_equal(mmchal_card_write(&card, SECTORS - 32, 32, SG(wbuf, 16384), 1), 0);
	assert_memory_equal(&image[(SECTORS - 32) * 512], wbuf, 16384);
	memset(rbuf, 0, sizeof(rbuf));
	assert_int_equal(mmchal_card_read(&card, 0, 1, SG(rbuf, 512), 1), 0);
	assert_memory_equal(rbuf, wbuf, 512);
	assert_int_equal(mmchal_card_read(&card, SECTORS - 32, 32, SG(rbuf, 16384), 1), 0);
	assert_memory_equal(rbuf, wbuf, 16384);
	assert_int_equal(mmchal_card_read(&card, SECTORS - 1, 1, SG(rbuf, 512), 1), 0);
	assert_memory_equal(rbuf, wbuf + 16384 - 512, 512);
	/* past the end: refused, nothing sent */
	mmchal_mock_log_clear(&mock);
	assert_int_equal(mmchal_card_read(&card, SECTORS - 1, 2, SG(rbuf, 1024), 1), MMCHAL_ERANGE);
	assert_int_equal(mmchal_card_write(&card, SECTORS, 1, SG(wbuf, 512), 1), MMCHAL_ERANGE);
	assert_int_equal(mmchal_mock_log_count(&mock), 0);
	teardown_stack();
}

static void test_rw_first_and_last(void **state)
{
	(void)state;
	rw_both_ends(MMCHAL_MOCK_SDHC, SD_BUS);
	rw_both_ends(MMCHAL_MOCK_SDSC, SD_BUS);
	rw_both_ends(MMCHAL_MOCK_EMMC, MMC_BUS);
	/* CMD12 instead of CMD23 */
	rw_both_ends(MMCHAL_MOCK_SDHC, MMCHAL_BUS_4_BIT);
}

static void erase_check(enum mmchal_mock_card kind, uint32_t bus, uint64_t lba, uint32_t n)
{
	uint8_t erased[512];
	uint8_t before[512];

	stack(kind, bus, IMAGE_SIZE);
	assert_int_equal(mmchal_card_init(&card), 0);
	memset(erased, card.info.erased_byte, sizeof(erased));
	memcpy(before, &image[(lba + n) * 512], 512);
	assert_int_equal(mmchal_card_erase(&card, lba, n, MMCHAL_CARD_ERASE), 0);
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(mmchal_card_read(&card, lba + i, 1, SG(rbuf, 512), 1), 0);
		assert_memory_equal(rbuf, erased, 512);
	}
	/* the block after the range is untouched */
	assert_int_equal(mmchal_card_read(&card, lba + n, 1, SG(rbuf, 512), 1), 0);
	assert_memory_equal(rbuf, before, 512);
	teardown_stack();
}

static void test_erase(void **state)
{
	(void)state;
	erase_check(MMCHAL_MOCK_SDHC, SD_BUS, 10, 10);
	erase_check(MMCHAL_MOCK_SDSC, SD_BUS, 3, 4);
	stack(MMCHAL_MOCK_EMMC, MMC_BUS, IMAGE_SIZE);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_not_equal(card.info.erase_unit, 0);
	teardown_stack();
	erase_check(MMCHAL_MOCK_EMMC, MMC_BUS, 0, card.info.erase_unit);
}

static void test_write_protect(void **state)
{
	(void)state;
	stack(MMCHAL_MOCK_SDHC, SD_BUS, IMAGE_SIZE);
	mmchal_mock_set_write_protect(&mock, true);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_true(card.info.read_only);
	mmchal_mock_log_clear(&mock);
	assert_int_equal(mmchal_card_write(&card, 0, 1, SG(wbuf, 512), 1), MMCHAL_EROFS);
	assert_int_equal(mmchal_card_erase(&card, 0, 1, MMCHAL_CARD_ERASE), MMCHAL_EROFS);
	assert_int_equal(mmchal_mock_log_count(&mock), 0);
	assert_int_equal(mmchal_card_read(&card, 0, 1, SG(rbuf, 512), 1), 0);
	assert_memory_equal(rbuf, image, 512);
	teardown_stack();
}

static void test_failed_sd_write(void **state)
{
	(void)state;
	stack(MMCHAL_MOCK_SDHC, SD_BUS, IMAGE_SIZE);
	assert_int_equal(mmchal_card_init(&card), 0);
	for (uint32_t i = 0; i < 4096; i++)
		wbuf[i] = (uint8_t)~i;
	assert_int_equal(mmchal_mock_fail_data(&mock, MMCHAL_MOCK_DATA_CRC, 3, 1), 0);
	assert_int_equal(mmchal_card_write(&card, 64, 8, SG(wbuf, 4096), 1), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 25);
	assert_int_equal(card.err.arg, 64);
	assert_true(card.err.bytes_from_card);
	assert_int_equal(card.err.bytes_done, 3 * 512);
	assert_memory_equal(&image[64 * 512], wbuf, 3 * 512);
	/* the card is usable afterwards */
	assert_int_equal(mmchal_card_write(&card, 64, 8, SG(wbuf, 4096), 1), 0);
	assert_memory_equal(&image[64 * 512], wbuf, 4096);
	teardown_stack();
}

static void test_removal(void **state)
{
	(void)state;
	stack(MMCHAL_MOCK_SDHC, SD_BUS, IMAGE_SIZE);
	assert_int_equal(mmchal_card_init(&card), 0);
	mmchal_mock_set_present(&mock, false);
	assert_int_equal(mmchal_card_read(&card, 0, 1, SG(rbuf, 512), 1), MMCHAL_ENOMEDIUM);
	mmchal_mock_set_present(&mock, true);
	assert_int_equal(mmchal_card_read(&card, 0, 1, SG(rbuf, 512), 1), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_card_write(&card, 0, 1, SG(wbuf, 512), 1), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_read(&card, 0, 1, SG(rbuf, 512), 1), 0);
	assert_memory_equal(rbuf, image, 512);
	teardown_stack();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sdhc),
		cmocka_unit_test(test_sdsc_addressing),
		cmocka_unit_test(test_emmc),
		cmocka_unit_test(test_emmc_8bit_refused_falls_back),
		cmocka_unit_test(test_sdio),
		cmocka_unit_test(test_sd_timeouts),
		cmocka_unit_test(test_emmc_timeouts),
		cmocka_unit_test(test_emmc_status_timeout_at_width),
		cmocka_unit_test(test_rw_first_and_last),
		cmocka_unit_test(test_erase),
		cmocka_unit_test(test_write_protect),
		cmocka_unit_test(test_failed_sd_write),
		cmocka_unit_test(test_removal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
