/*
 * Card layer (src/core/card_*.c) over a command-level fake host and card
 * (card_fake.c): identification of each card type, bus and timing choice,
 * addressing, block I/O split to the host's limits, erase, write protection,
 * faults at each identification step, failed writes and removal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "card_fake.h"
#include "core/card_priv.h"

#define SECTORS 2048u

static uint8_t image[SECTORS * 512u];
static uint8_t regbuf[MMCHAL_CARD_BUF_SIZE];
static uint8_t wbuf[64 * 1024];
static uint8_t rbuf[64 * 1024];
static struct fake fk;
static struct mmchal_card card;

static void start(enum fake_kind kind)
{
	struct mmchal_card_cfg cfg;

	for (uint32_t i = 0; i < sizeof(image); i++)
		image[i] = (uint8_t)(i * 7u + (i >> 9));
	fake_init(&fk, kind, image, SECTORS);
	fake_card_cfg(&fk, &cfg, regbuf);
	assert_int_equal(mmchal_card_setup(&card, &cfg), 0);
}

static struct mmchal_sg sg1(uint8_t *buf, uint32_t len)
{
	struct mmchal_sg s = {.cpu = buf, .phys = (uintptr_t)buf, .len = len};

	return s;
}

#define SG(buf, n) (&(struct mmchal_sg){.cpu = (buf), .phys = (uintptr_t)(buf), .len = (n)})

static void fill(uint8_t *buf, uint32_t len, uint8_t seed)
{
	for (uint32_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed + i * 13u + (i >> 8));
}

/* Does the log hold @ops, in this order, starting at entry @from? */
static bool log_has(const uint32_t *ops, uint32_t n, uint32_t from)
{
	for (uint32_t i = 0; i < n; i++)
		if (from + i >= fk.nlog || fk.log[from + i] != ops[i])
			return false;
	return true;
}

static void test_setup_checks(void **state)
{
	struct mmchal_card_cfg cfg;
	struct mmchal_host_ops no_sync = fake_ops;
	struct mmchal_sg sg;

	(void)state;
	fake_init(&fk, FAKE_SDHC, image, SECTORS);
	fake_card_cfg(&fk, &cfg, regbuf);
	assert_int_equal(mmchal_card_setup(NULL, &cfg), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_setup(&card, NULL), MMCHAL_EINVAL);
	cfg.buf = NULL;
	assert_int_equal(mmchal_card_setup(&card, &cfg), MMCHAL_EINVAL);
	cfg.buf = regbuf;
	no_sync.request_sync = NULL;
	cfg.ops = &no_sync;
	assert_int_equal(mmchal_card_setup(&card, &cfg), MMCHAL_EINVAL);
	cfg.ops = &fake_ops;
	cfg.sg_scratch = card.sg_inline;
	cfg.sg_scratch_len = 0;
	assert_int_equal(mmchal_card_setup(&card, &cfg), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_init(NULL), MMCHAL_EINVAL);
	memset(&card, 0, sizeof(card));
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EINVAL);
	sg = sg1(rbuf, 512);
	assert_int_equal(mmchal_card_read(NULL, 0, 1, &sg, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), MMCHAL_EINVAL);
	assert_null(mmchal_card_info(NULL));
	assert_null(mmchal_card_last_error(NULL));
	/* set up but never initialised: no card to talk to */
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), MMCHAL_ENOMEDIUM);
	assert_int_equal(fk.requests, 0);
}

static void test_sdhc_identify(void **state)
{
	const struct mmchal_card_info *info;
	const uint32_t seq[] = {0, 0, 8, 5, 55, 41 | FAKE_APP, 55, 41 | FAKE_APP, 55, 41 | FAKE_APP,
				2, 3, 9, 7, 55, 51 | FAKE_APP, 55, 6 | FAKE_APP,  6,  6};

	(void)state;
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	info = mmchal_card_info(&card);
	assert_int_equal(info->type, MMCHAL_CARD_SD);
	assert_true(info->sd_v2);
	assert_true(info->block_addr);
	assert_int_equal(info->sectors, SECTORS);
	assert_int_equal(info->rca, 0x1234);
	assert_string_equal(info->cid.pnm, "FSD01");
	assert_int_equal(info->cid.psn, 0x00c0ffeeu);
	assert_int_equal(info->cid.year, 2025);
	assert_int_equal(info->csd.structure, 1);
	assert_int_equal(info->scr.sd_spec, 2);
	assert_true(info->cmd23);
	assert_false(info->read_only);
	assert_int_equal(info->bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(info->timing, MMCHAL_TIMING_SD_HS);
	assert_int_equal(info->clock_hz, 50000000u);
	assert_int_equal(fk.ios.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(fk.ios.power_mode, MMCHAL_POWER_ON);
	assert_true(fk.sd_hs);
	/* the exact command sequence; HCS in every ACMD41, 0x1AA in CMD8 */
	assert_true(log_has(seq, sizeof(seq) / sizeof(seq[0]), 0));
	assert_int_equal(fk.log_arg[2], 0x1aa);
	assert_int_equal(fk.log_arg[5], 0x40ff8000u);
	assert_int_equal(fk.log_arg[18], 0x00fffff1u);
	assert_int_equal(fk.log_arg[19], 0x80fffff1u);
	/* no CMD16 on a block-addressed card */
	assert_int_equal(fake_count(&fk, 16), 0);
	/* the host learnt the type right after ACMD41, before CMD2 */
	assert_int_equal(fk.init_card_calls, 1);
	assert_int_equal(fk.init_type, MMCHAL_CARD_SD);
	assert_int_equal(fk.init_card_at, 10);
	assert_int_equal(card.limits.card, MMCHAL_CARD_SD);
	assert_int_equal(mmchal_card_last_error(&card)->err, 0);
}

static void test_sd_host_without_extras(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	fk.caps.bus = 0; /* 1-bit, default speed, no CMD23 */
	fk.caps.f_max_hz = 20000000u;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 20000000u);
	assert_false(card.info.cmd23);
	assert_int_equal(fake_count(&fk, 6 | FAKE_APP), 0);
	assert_int_equal(fake_count(&fk, 6), 0);
}

static void test_sdsc_byte_addressing(void **state)
{
	struct mmchal_sg sg;

	(void)state;
	start(FAKE_SDSC);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.type, MMCHAL_CARD_SD);
	assert_true(card.info.sd_v2);
	assert_false(card.info.block_addr);
	assert_int_equal(card.info.csd.structure, 0);
	assert_int_equal(card.info.sectors, SECTORS);
	assert_int_equal(card.info.erased_byte, 0xff);
	assert_int_equal(fake_count(&fk, 16), 1);
	fill(wbuf, 512, 1);
	sg = sg1(wbuf, 512);
	fk.nlog = 0;
	assert_int_equal(mmchal_card_write(&card, 3, 1, &sg, 1), 0);
	assert_int_equal(fk.log[0], 24);
	assert_int_equal(fk.log_arg[0], 3u * 512u);
	assert_memory_equal(&image[3 * 512], wbuf, 512);
	sg = sg1(rbuf, 1024);
	fk.nlog = 0;
	assert_int_equal(mmchal_card_read(&card, 2, 2, &sg, 1), 0);
	assert_int_equal(fk.log[1], 18);
	assert_int_equal(fk.log_arg[1], 2u * 512u);
	assert_memory_equal(rbuf + 512, wbuf, 512);
}

static void test_sd_v1(void **state)
{
	(void)state;
	start(FAKE_SD_V1);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_false(card.info.sd_v2);
	assert_false(card.info.block_addr);
	/* no HCS for a card that did not answer CMD8 */
	for (uint32_t i = 0; i < fk.nlog; i++)
		if (fk.log[i] == (41 | FAKE_APP))
			assert_int_equal(fk.log_arg[i], 0x00ff8000u);
}

static void test_mmc_identify(void **state)
{
	const struct mmchal_card_info *info;
	const uint32_t seq[] = {0, 0, 8, 5, 55, 41 | FAKE_APP, 0, 1, 1, 1, 2, 3, 9, 7, 8};

	(void)state;
	start(FAKE_MMC);
	assert_int_equal(mmchal_card_init(&card), 0);
	info = mmchal_card_info(&card);
	assert_int_equal(info->type, MMCHAL_CARD_MMC);
	assert_true(info->block_addr);
	assert_int_equal(info->rca, 1);
	assert_int_equal(info->sectors, SECTORS);
	assert_int_equal(info->ext_csd.rev, 8);
	assert_string_equal(info->cid.pnm, "FEMMC1");
	assert_int_equal(info->cid.year, 2022);
	assert_int_equal(info->erase_unit, 16);
	assert_true(info->cmd23);
	assert_int_equal(info->bus_width, MMCHAL_BUS_WIDTH_8);
	assert_int_equal(info->timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(info->clock_hz, 52000000u);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_8);
	assert_int_equal(fk.ext_csd[EXT_CSD_HS_TIMING], EXT_CSD_TIMING_HS);
	assert_true(log_has(seq, sizeof(seq) / sizeof(seq[0]), 0));
	assert_int_equal(fk.log_arg[7], 0x40ff8080u);
	assert_int_equal(fk.log_arg[11], 1u << 16);
	assert_int_equal(fk.init_type, MMCHAL_CARD_MMC);
	assert_int_equal(fk.init_card_calls, 1);
	assert_int_equal(fk.init_card_at, 10);
	assert_int_equal(fk.tuning_calls, 0);
	assert_int_equal(mmchal_card_last_error(&card)->err, 0);
}

static void test_mmc_refuses_8bit(void **state)
{
	(void)state;
	start(FAKE_MMC);
	fk.refuse_8bit = true;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(fk.ios.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_4);
	/* two width switches: 8 refused, 4 taken */
	assert_int_equal(mmchal_card_last_error(&card)->err, 0);
}

static void test_mmc_8bit_bus_fault(void **state)
{
	struct mmchal_sg sg = sg1(rbuf, 4096);

	(void)state;
	start(FAKE_MMC);
	fk.bad_8bit_bus = true; /* the card takes 8 bits, the wiring does not */
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_4);
	assert_int_equal(mmchal_card_read(&card, 0, 8, &sg, 1), 0);
	assert_memory_equal(rbuf, image, 4096);
}

static void test_mmc_1bit_host(void **state)
{
	(void)state;
	start(FAKE_MMC);
	fk.caps.bus = MMCHAL_BUS_MMC_HS;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_1);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], 0);
}

static void test_mmc_hs200(void **state)
{
	(void)state;
	start(FAKE_MMC);
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_1_8V;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS200);
	assert_int_equal(card.info.clock_hz, 200000000u);
	assert_true(card.info.tuned);
	assert_int_equal(fk.tuning_calls, 1);
	assert_int_equal(fk.tuning_opcode, 21);
	assert_int_equal(fk.ios.signal_voltage, MMCHAL_SIGNAL_180);
	assert_int_equal(fk.ext_csd[EXT_CSD_HS_TIMING], EXT_CSD_TIMING_HS200);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_8);
}

static void test_mmc_hs400(void **state)
{
	struct mmchal_sg sg = sg1(rbuf, 8192);

	(void)state;
	start(FAKE_MMC);
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	fk.caps.f_max_hz = 0; /* unknown: no clamp */
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS400);
	assert_int_equal(card.info.clock_hz, 200000000u);
	assert_int_equal(fk.ext_csd[EXT_CSD_HS_TIMING], EXT_CSD_TIMING_HS400);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_8_DDR);
	assert_int_equal(fk.tuning_calls, 1);
	assert_int_equal(mmchal_card_read(&card, SECTORS - 16, 16, &sg, 1), 0);
	assert_memory_equal(rbuf, &image[(SECTORS - 16) * 512], 8192);
	/* without 8 bits there is no HS400: HS200 on 4 bits */
	start(FAKE_MMC);
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	fk.refuse_8bit = true;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS200);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	/* the caller can stop at HS200 */
	start(FAKE_MMC);
	card.cfg.bus_disable = MMCHAL_BUS_HS400;
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS200);
}

static void test_mmc_hs400_refused(void **state)
{
	struct mmchal_sg sg = {.cpu = rbuf, .phys = (uintptr_t)rbuf, .len = 4096};

	(void)state;
	start(FAKE_MMC);
	fk.caps.bus |= MMCHAL_BUS_HS200 | MMCHAL_BUS_HS400;
	fk.refuse_timing = EXT_CSD_TIMING_HS400;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_8);
	assert_int_equal(card.info.clock_hz, 52000000u);
	assert_false(card.info.tuned);
	assert_int_equal(fk.ext_csd[EXT_CSD_HS_TIMING], EXT_CSD_TIMING_HS);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_8);
	assert_int_equal(card.err.err, 0);
	assert_int_equal(mmchal_card_read(&card, 0, 8, &sg, 1), 0);
	assert_memory_equal(rbuf, image, 4096);
}

static void test_mmc_tuning_fails(void **state)
{
	(void)state;
	start(FAKE_MMC);
	fk.caps.bus |= MMCHAL_BUS_HS200;
	fk.tuning_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_false(card.info.tuned);
	assert_int_equal(card.info.clock_hz, 52000000u);
	assert_int_equal(fk.ext_csd[EXT_CSD_HS_TIMING], EXT_CSD_TIMING_HS);
	assert_int_equal(mmchal_card_last_error(&card)->err, 0);
}

static void test_mmc_refuses_timing(void **state)
{
	(void)state;
	/* HS200 refused with SWITCH_ERROR: HS instead */
	start(FAKE_MMC);
	fk.caps.bus |= MMCHAL_BUS_HS200;
	fk.refuse_timing = EXT_CSD_TIMING_HS200;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_HS);
	assert_int_equal(fk.ext_csd[EXT_CSD_HS_TIMING], EXT_CSD_TIMING_HS);
	assert_int_equal(fk.tuning_calls, 0);
	/* HS refused too: legacy timing, and the card still works */
	start(FAKE_MMC);
	fk.refuse_timing = EXT_CSD_TIMING_HS;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_LEGACY);
	assert_int_equal(card.info.clock_hz, 26000000u);
	assert_int_equal(fk.ext_csd[EXT_CSD_HS_TIMING], EXT_CSD_TIMING_LEGACY);
	assert_int_equal(card.err.err, 0);
	assert_int_equal(mmchal_card_read(&card, 0, 2, SG(rbuf, 1024), 1), 0);
	assert_memory_equal(rbuf, image, 1024);
}

static void test_sd_without_app_cmd_bit(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	fk.no_app_bit = true;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EILSEQ);
	assert_int_equal(card.err.opcode, 55);
	assert_true(card.err.status_valid);
	assert_int_equal(card.err.status & R1_APP_CMD, 0);
}

static void test_mmc_ddr52(void **state)
{
	(void)state;
	start(FAKE_MMC);
	fk.caps.bus |= MMCHAL_BUS_MMC_DDR52;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_MMC_DDR52);
	assert_int_equal(fk.ext_csd[EXT_CSD_BUS_WIDTH], EXT_CSD_WIDTH_8_DDR);
	assert_int_equal(fk.ext_csd[EXT_CSD_HS_TIMING], EXT_CSD_TIMING_HS);
}

static void test_sdio_identify(void **state)
{
	const struct mmchal_sdio_info *s;
	struct mmchal_sg sg = sg1(rbuf, 512);

	(void)state;
	start(FAKE_SDIO);
	assert_int_equal(mmchal_card_init(&card), 0);
	s = &card.info.sdio;
	assert_int_equal(card.info.type, MMCHAL_CARD_SDIO);
	assert_int_equal(fk.init_type, MMCHAL_CARD_SDIO);
	assert_int_equal(card.info.rca, 0x1234);
	assert_int_equal(s->nfuncs, 2);
	assert_false(s->mem_present);
	assert_int_equal(s->sdio_rev, 4);
	assert_int_equal(s->cccr_rev, 3);
	assert_int_equal(s->vendor, 0x02d0);
	assert_int_equal(s->device, 0x4329);
	assert_int_equal(s->fn0_blk_size, 64);
	assert_int_equal(s->fn_blk_size[0], 512);
	assert_int_equal(s->fn_blk_size[1], 2048);
	assert_int_equal(s->fn_blk_size[2], 0);
	assert_int_equal(s->max_blk_size, 2048);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
	assert_int_equal(fk.f0[CCCR_BUS_IF] & 3u, 2);
	assert_int_equal(card.info.timing, MMCHAL_TIMING_SD_HS);
	assert_int_equal(fk.f0[CCCR_SPEED], CCCR_SPEED_SHS | CCCR_SPEED_EHS);
	assert_int_equal(card.info.sectors, 0);
	/* reported, no block access */
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), MMCHAL_ENOTSUP);
	assert_int_equal(mmchal_card_erase(&card, 0, 1, MMCHAL_CARD_ERASE), MMCHAL_ENOTSUP);
}

/* One identification command fails once: init reports it, the retry works. */
static void fault_once(enum fake_kind kind, uint32_t op, uint32_t skip, uint32_t want_op,
		       bool want_app)
{
	struct mmchal_sg sg = sg1(rbuf, 1024);
	const struct mmchal_card_err *e;

	start(kind);
	fk.fail_op = op;
	fk.fail_skip = skip;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	e = mmchal_card_last_error(&card);
	assert_int_equal(e->err, MMCHAL_ETIMEDOUT);
	assert_int_equal(e->opcode, want_op);
	assert_int_equal(e->app, want_app);
	assert_int_equal(card.info.type, MMCHAL_CARD_UNKNOWN);
	assert_int_equal(mmchal_card_read(&card, 0, 2, &sg, 1), MMCHAL_ENOMEDIUM);
	/* the host is still usable: a second init succeeds */
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_last_error(&card)->err, 0);
	assert_int_equal(mmchal_card_read(&card, SECTORS - 2, 2, &sg, 1), 0);
	assert_memory_equal(rbuf, &image[(SECTORS - 2) * 512], 1024);
}

static void test_sd_faults_each_step(void **state)
{
	(void)state;
	fault_once(FAKE_SDHC, 0, 0, 0, false);
	/* without the CMD8 answer there is no HCS: the SDHC card never gets ready */
	fault_once(FAKE_SDHC, 8, 0, 41, true);
	fault_once(FAKE_SDHC, 55, 0, 55, false);
	fault_once(FAKE_SDHC, 41 | FAKE_APP, 1, 41, true);
	fault_once(FAKE_SDHC, 2, 0, 2, false);
	fault_once(FAKE_SDHC, 3, 0, 3, false);
	fault_once(FAKE_SDHC, 9, 0, 9, false);
	fault_once(FAKE_SDHC, 7, 0, 7, false);
	fault_once(FAKE_SDHC, 51 | FAKE_APP, 0, 51, true);
	fault_once(FAKE_SDHC, 6 | FAKE_APP, 0, 6, true);
	fault_once(FAKE_SDHC, 6, 0, 6, false);
	fault_once(FAKE_SDHC, 6, 1, 6, false);
}

static void test_mmc_faults_each_step(void **state)
{
	(void)state;
	fault_once(FAKE_MMC, 0, 0, 0, false);
	fault_once(FAKE_MMC, 0, 2, 0, false); /* the CMD0 before CMD1 */
	fault_once(FAKE_MMC, 1, 1, 1, false);
	fault_once(FAKE_MMC, 2, 0, 2, false);
	fault_once(FAKE_MMC, 3, 0, 3, false);
	fault_once(FAKE_MMC, 9, 0, 9, false);
	fault_once(FAKE_MMC, 7, 0, 7, false);
	fault_once(FAKE_MMC, 8, 1, 8, false); /* the EXT_CSD read (CMD8 #1 is SEND_IF_COND) */
	fault_once(FAKE_MMC, 6, 1, 6, false); /* HS_TIMING after the width */
	fault_once(FAKE_MMC, 13, 1, 13, false);
}

static void test_mmc_width_switch_timeout_falls_back(void **state)
{
	(void)state;
	start(FAKE_MMC);
	fk.fail_op = 6;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.bus_width, MMCHAL_BUS_WIDTH_4);
}

static void test_sdio_faults(void **state)
{
	(void)state;
	/* a CMD5 poll after the inquiry times out */
	start(FAKE_SDIO);
	fk.fail_op = 5;
	fk.fail_skip = 1;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, 5);
	assert_int_equal(mmchal_card_init(&card), 0);
	start(FAKE_SDIO);
	fk.fail_op = 52;
	fk.fail_skip = 4;
	fk.fail_times = 1;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ETIMEDOUT);
	assert_int_equal(card.err.opcode, 52);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.info.sdio.max_blk_size, 2048);
}

static void test_no_card(void **state)
{
	(void)state;
	start(FAKE_SDHC);
	fk.present = false;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(fk.requests, 0);
}

static void rw_ends(enum fake_kind kind)
{
	struct mmchal_sg sg;

	start(kind);
	assert_int_equal(mmchal_card_init(&card), 0);
	/* sector 0, one block: CMD24 / CMD17 */
	fill(wbuf, 512, 3);
	sg = sg1(wbuf, 512);
	fk.nlog = 0;
	assert_int_equal(mmchal_card_write(&card, 0, 1, &sg, 1), 0);
	assert_int_equal(fk.log[0], 24);
	/* the write waited for programming: CMD13 until tran */
	assert_int_equal(fake_count(&fk, 13), 3);
	assert_memory_equal(image, wbuf, 512);
	sg = sg1(rbuf, 512);
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), 0);
	assert_memory_equal(rbuf, wbuf, 512);
	/* the last sectors, several blocks */
	fill(wbuf, 4096, 9);
	sg = sg1(wbuf, 4096);
	assert_int_equal(mmchal_card_write(&card, SECTORS - 8, 8, &sg, 1), 0);
	assert_memory_equal(&image[(SECTORS - 8) * 512], wbuf, 4096);
	memset(rbuf, 0, 4096);
	sg = sg1(rbuf, 4096);
	assert_int_equal(mmchal_card_read(&card, SECTORS - 8, 8, &sg, 1), 0);
	assert_memory_equal(rbuf, wbuf, 4096);
	assert_int_equal(mmchal_card_read(&card, SECTORS - 1, 1, SG(rbuf, 512), 1), 0);
	assert_memory_equal(rbuf, wbuf + 3584, 512);
	/* past the end: refused before anything is sent */
	fk.requests = 0;
	assert_int_equal(mmchal_card_read(&card, SECTORS - 7, 8, &sg, 1), MMCHAL_ERANGE);
	assert_int_equal(mmchal_card_write(&card, SECTORS, 1, &sg, 1), MMCHAL_ERANGE);
	assert_int_equal(mmchal_card_read(&card, UINT64_MAX, 1, &sg, 1), MMCHAL_ERANGE);
	assert_int_equal(mmchal_card_last_error(&card)->err, MMCHAL_ERANGE);
	assert_int_equal(mmchal_card_last_error(&card)->opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(fk.requests, 0);
}

static void test_rw_first_and_last_sector(void **state)
{
	(void)state;
	rw_ends(FAKE_SDHC);
	rw_ends(FAKE_SDSC);
	rw_ends(FAKE_MMC);
}

static void test_cmd23_or_cmd12(void **state)
{
	struct mmchal_sg sg = sg1(rbuf, 8192);

	(void)state;
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_read(&card, 16, 16, &sg, 1), 0);
	assert_int_equal(fk.sbc_seen, 1);
	assert_int_equal(fk.stop_seen, 0);
	/* the host cannot send CMD23: CMD12 after */
	start(FAKE_SDHC);
	fk.caps.bus &= ~MMCHAL_BUS_CMD23;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_false(card.info.cmd23);
	assert_int_equal(mmchal_card_read(&card, 16, 16, &sg, 1), 0);
	assert_int_equal(mmchal_card_write(&card, 16, 16, &sg, 1), 0);
	assert_int_equal(fk.sbc_seen, 0);
	assert_int_equal(fk.stop_seen, 2);
	/* the card has no CMD23 (SCR bit 33 clear) */
	start(FAKE_SDHC);
	fk.scr[3] = 0;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_false(card.info.cmd23);
	assert_int_equal(mmchal_card_read(&card, 0, 2, SG(rbuf, 1024), 1), 0);
	assert_int_equal(fk.stop_seen, 1);
	/* one block never needs either */
	assert_int_equal(mmchal_card_read(&card, 0, 1, SG(rbuf, 512), 1), 0);
	assert_int_equal(fk.stop_seen, 1);
	assert_int_equal(fk.sbc_seen, 0);
}

static void test_split_to_host_limits(void **state)
{
	struct mmchal_sg sg[16];
	struct mmchal_sg scratch[4];

	(void)state;
	start(FAKE_SDHC);
	card.cfg.sg_scratch = scratch;
	card.cfg.sg_scratch_len = 4;
	fk.limits.max_blk_count = 8;
	fk.limits.max_segs = 4;
	fk.limits.max_seg_size = 1024;
	assert_int_equal(mmchal_card_init(&card), 0);
	/* 32 KiB in 16 scattered 2 KiB pieces, written backwards in memory */
	fill(wbuf, 32768, 5);
	for (unsigned i = 0; i < 16; i++)
		sg[i] = sg1(wbuf + (15u - i) * 2048u, 2048);
	fk.requests = 0;
	assert_int_equal(mmchal_card_write(&card, 100, 64, sg, 16), 0);
	assert_int_equal(fk.limit_violations, 0);
	assert_int_equal(fk.max_nsg_seen, 4);
	assert_int_equal(fk.max_blocks_seen, 8);
	assert_int_equal(fake_count(&fk, 25), 8);
	for (unsigned i = 0; i < 16; i++)
		assert_memory_equal(&image[(100u + i * 4u) * 512u], sg[i].cpu, 2048);
	memset(rbuf, 0, 32768);
	for (unsigned i = 0; i < 16; i++)
		sg[i] = sg1(rbuf + i * 2048u, 2048);
	assert_int_equal(mmchal_card_read(&card, 100, 64, sg, 16), 0);
	assert_int_equal(fk.limit_violations, 0);
	assert_memory_equal(rbuf, &image[100 * 512], 32768);
	assert_int_equal(card.err.bytes_done, 32768);
}

static void test_bad_buffers(void **state)
{
	struct mmchal_sg sg[2] = {sg1(rbuf, 512), sg1(rbuf + 512, 256)};

	(void)state;
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	fk.requests = 0;
	assert_int_equal(mmchal_card_read(&card, 0, 0, sg, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_read(&card, 0, 1, NULL, 1), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_read(&card, 0, 1, sg, 0), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_read(&card, 0, 2, sg, 2), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_read(&card, 0, 1, sg, 2), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_erase(&card, 0, 0, MMCHAL_CARD_ERASE), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_erase(&card, 0, 1, (enum mmchal_erase_kind)7), MMCHAL_EINVAL);
	assert_int_equal(fk.requests, 0);
}

static void test_erase(void **state)
{
	struct mmchal_sg sg = sg1(rbuf, 30 * 512);
	uint8_t zero[512];

	(void)state;
	memset(zero, 0, sizeof(zero));
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_erase(&card, 10, 10, MMCHAL_CARD_ERASE), 0);
	assert_int_equal(fake_count(&fk, 32), 1);
	assert_int_equal(fake_count(&fk, 33), 1);
	assert_int_equal(fake_count(&fk, 38), 1);
	assert_int_equal(mmchal_card_read(&card, 5, 30, &sg, 1), 0);
	for (unsigned i = 0; i < 30; i++) {
		if (i >= 5 && i < 15)
			assert_memory_equal(rbuf + i * 512u, zero, 512);
		else
			assert_memory_not_equal(rbuf + i * 512u, zero, 512);
	}
	assert_memory_equal(rbuf, &image[5 * 512], 30 * 512);
	/* the last sector can be erased, the one after it cannot */
	assert_int_equal(mmchal_card_erase(&card, SECTORS - 1, 1, MMCHAL_CARD_DISCARD), 0);
	assert_int_equal(mmchal_card_erase(&card, SECTORS - 1, 2, MMCHAL_CARD_ERASE),
			 MMCHAL_ERANGE);
}

static void test_mmc_erase_and_discard(void **state)
{
	struct mmchal_sg sg = sg1(rbuf, 16 * 512);
	uint8_t zero[512];

	(void)state;
	memset(zero, 0, sizeof(zero));
	start(FAKE_MMC);
	assert_int_equal(mmchal_card_init(&card), 0);
	/* erase needs whole 16-sector groups */
	fk.requests = 0;
	assert_int_equal(mmchal_card_erase(&card, 8, 16, MMCHAL_CARD_ERASE), MMCHAL_EINVAL);
	assert_int_equal(mmchal_card_erase(&card, 16, 8, MMCHAL_CARD_ERASE), MMCHAL_EINVAL);
	assert_int_equal(fk.requests, 0);
	fk.nlog = 0;
	assert_int_equal(mmchal_card_erase(&card, 32, 16, MMCHAL_CARD_ERASE), 0);
	assert_int_equal(fk.log[0], 35);
	assert_int_equal(fk.log_arg[0], 32);
	assert_int_equal(fk.log[1], 36);
	assert_int_equal(fk.log_arg[1], 47);
	assert_int_equal(fk.log[2], 38);
	assert_int_equal(fk.log_arg[2], 0);
	assert_int_equal(mmchal_card_read(&card, 32, 16, &sg, 1), 0);
	for (unsigned i = 0; i < 16; i++)
		assert_memory_equal(rbuf + i * 512u, zero, 512);
	/* discard takes any range: DISCARD (3) on eMMC 4.5+ */
	fk.nlog = 0;
	assert_int_equal(mmchal_card_erase(&card, 3, 5, MMCHAL_CARD_DISCARD), 0);
	assert_int_equal(fk.log_arg[2], 3);
	/* before 4.5: TRIM when the card has it, else not supported */
	card.info.ext_csd.rev = 5;
	fk.nlog = 0;
	assert_int_equal(mmchal_card_erase(&card, 3, 5, MMCHAL_CARD_DISCARD), 0);
	assert_int_equal(fk.log_arg[2], 1);
	card.info.ext_csd.trim = false;
	assert_int_equal(mmchal_card_erase(&card, 3, 5, MMCHAL_CARD_DISCARD), MMCHAL_ENOTSUP);
}

static void test_write_protect_switch(void **state)
{
	struct mmchal_sg sg = sg1(wbuf, 512);
	uint8_t before[512];

	(void)state;
	start(FAKE_SDHC);
	fk.ro_switch = true;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_true(card.info.read_only);
	memcpy(before, image, 512);
	fk.requests = 0;
	assert_int_equal(mmchal_card_write(&card, 0, 1, &sg, 1), MMCHAL_EROFS);
	assert_int_equal(mmchal_card_last_error(&card)->err, MMCHAL_EROFS);
	/* refused before any command */
	assert_int_equal(mmchal_card_last_error(&card)->opcode, MMCHAL_CARD_NO_CMD);
	assert_false(mmchal_card_last_error(&card)->status_valid);
	assert_int_equal(mmchal_card_erase(&card, 0, 1, MMCHAL_CARD_ERASE), MMCHAL_EROFS);
	assert_int_equal(fk.requests, 0);
	assert_memory_equal(image, before, 512);
	/* reads still work */
	sg = sg1(rbuf, 512);
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), 0);
	/* CSD TMP_WRITE_PROTECT has the same effect */
	start(FAKE_MMC);
	fk.csd[3] |= 1u << 12;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_true(card.info.csd.tmp_wp);
	assert_int_equal(mmchal_card_write(&card, 0, 1, &sg, 1), MMCHAL_EROFS);
}

static void test_card_refuses_write(void **state)
{
	struct mmchal_sg sg = sg1(wbuf, 1024);
	const struct mmchal_card_err *e;

	(void)state;
	start(FAKE_MMC);
	fk.card_wp = true;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_write(&card, 4, 2, &sg, 1), MMCHAL_EROFS);
	e = mmchal_card_last_error(&card);
	assert_int_equal(e->opcode, 13);
	assert_true(e->status_valid);
	assert_true(e->status & R1_WP_VIOLATION);
	assert_int_equal(e->bytes_done, 0);
}

/* An 8-block write at @p lba sent as two CMD25 of 4 blocks, the second failing
   with EIO: the error names the second command and counts the first one's
   blocks as done. */
static void fail_second_write(enum fake_kind kind, uint32_t lba)
{
	struct mmchal_sg sg = sg1(wbuf, 8 * 512);

	start(kind);
	fk.limits.max_blk_count = 4;
	assert_int_equal(mmchal_card_init(&card), 0);
	fk.fail_op = 25;
	fk.fail_skip = 1;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_write(&card, lba, 8, &sg, 1), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 25);
	assert_int_equal(card.err.arg, lba + 4u);
	assert_int_equal(card.err.bytes_done, 4 * 512);
}

static void test_sd_failed_write_counts_blocks(void **state)
{
	struct mmchal_sg sg = sg1(wbuf, 8 * 512);
	const struct mmchal_card_err *e;

	(void)state;
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	fk.wr_fail = true;
	fk.wr_fail_after = 3;
	fill(wbuf, 8 * 512, 77);
	assert_int_equal(mmchal_card_write(&card, 40, 8, &sg, 1), MMCHAL_EIO);
	e = mmchal_card_last_error(&card);
	assert_int_equal(e->err, MMCHAL_EIO);
	assert_int_equal(e->opcode, 25);
	assert_int_equal(e->arg, 40);
	assert_true(e->bytes_from_card);
	assert_int_equal(e->bytes_done, 3 * 512);
	assert_int_equal(fake_count(&fk, 22 | FAKE_APP), 1);
	assert_memory_equal(&image[40 * 512], wbuf, 3 * 512);
	/* a failure in the second request counts the first one in */
	fail_second_write(FAKE_SDHC, 40);
	assert_true(card.err.bytes_from_card);
}

static void test_mmc_failed_write_claims_nothing(void **state)
{
	(void)state;
	fail_second_write(FAKE_MMC, 0);
	assert_false(card.err.bytes_from_card);
}

static void test_read_error_reported(void **state)
{
	struct mmchal_sg sg = sg1(rbuf, 4 * 512);

	(void)state;
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	fk.fail_op = 23;
	fk.fail_times = 1;
	fk.fail_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_read(&card, 7, 4, &sg, 1), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, 23);
	assert_int_equal(card.err.arg, 4);
	/* the next call starts clean and works */
	assert_int_equal(mmchal_card_read(&card, 7, 4, &sg, 1), 0);
	assert_int_equal(card.err.err, 0);
	assert_memory_equal(rbuf, &image[7 * 512], 4 * 512);
}

static void test_removal(void **state)
{
	struct mmchal_sg sg = sg1(rbuf, 512);

	(void)state;
	start(FAKE_SDHC);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_check_present(&card), 0);
	fk.present = false;
	fk.requests = 0;
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), MMCHAL_ENOMEDIUM);
	/* card detect said so: nothing was sent */
	assert_int_equal(fk.requests, 0);
	/* back in the slot, but not initialised: still no medium */
	fk.present = true;
	assert_int_equal(mmchal_card_check_present(&card), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_card_write(&card, 0, 1, &sg, 1), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_card_erase(&card, 0, 1, MMCHAL_CARD_ERASE), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), 0);
	/* removed in the middle of a request */
	fk.remove_at_op = 17;
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), MMCHAL_ENOMEDIUM);
	assert_true(card.removed);
	fk.present = true;
	fk.remove_at_op = 0;
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), MMCHAL_ENOMEDIUM);
	/* removed during identification */
	fk.remove_at_op = 9;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_ENOMEDIUM);
	fk.present = true;
	fk.remove_at_op = 0;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(mmchal_card_read(&card, 0, 1, &sg, 1), 0);
}

static void test_host_op_failures(void **state)
{
	(void)state;
	/* set_ios refused: no command was the culprit */
	start(FAKE_SDHC);
	fk.set_ios_err = MMCHAL_EINVAL;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EINVAL);
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(fk.requests, 0);
	fk.set_ios_err = 0;
	assert_int_equal(mmchal_card_init(&card), 0);
	/* init_card refused: the type is not set up on the host */
	start(FAKE_MMC);
	fk.init_card_err = MMCHAL_EIO;
	assert_int_equal(mmchal_card_init(&card), MMCHAL_EIO);
	assert_int_equal(card.err.opcode, MMCHAL_CARD_NO_CMD);
	assert_int_equal(card.info.type, MMCHAL_CARD_UNKNOWN);
	/* a host without init_card is fine */
	start(FAKE_MMC);
	fk.init_card_err = MMCHAL_ENOTSUP;
	assert_int_equal(mmchal_card_init(&card), 0);
}

static void test_host_without_limits_op(void **state)
{
	struct mmchal_sg sg = sg1(rbuf, 8192);

	(void)state;
	start(FAKE_SDHC);
	fk.no_limits_op = true;
	assert_int_equal(mmchal_card_init(&card), 0);
	assert_int_equal(card.limits.max_blk_count, 65535);
	assert_int_equal(card.limits.max_segs, MMCHAL_CARD_SG_INLINE);
	assert_int_equal(mmchal_card_read(&card, 0, 16, &sg, 1), 0);
	assert_memory_equal(rbuf, image, 8192);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_checks),
		cmocka_unit_test(test_sdhc_identify),
		cmocka_unit_test(test_sd_host_without_extras),
		cmocka_unit_test(test_sdsc_byte_addressing),
		cmocka_unit_test(test_sd_v1),
		cmocka_unit_test(test_mmc_identify),
		cmocka_unit_test(test_mmc_refuses_8bit),
		cmocka_unit_test(test_mmc_8bit_bus_fault),
		cmocka_unit_test(test_mmc_1bit_host),
		cmocka_unit_test(test_mmc_hs200),
		cmocka_unit_test(test_mmc_hs400),
		cmocka_unit_test(test_mmc_hs400_refused),
		cmocka_unit_test(test_mmc_tuning_fails),
		cmocka_unit_test(test_mmc_refuses_timing),
		cmocka_unit_test(test_sd_without_app_cmd_bit),
		cmocka_unit_test(test_mmc_ddr52),
		cmocka_unit_test(test_sdio_identify),
		cmocka_unit_test(test_sd_faults_each_step),
		cmocka_unit_test(test_mmc_faults_each_step),
		cmocka_unit_test(test_mmc_width_switch_timeout_falls_back),
		cmocka_unit_test(test_sdio_faults),
		cmocka_unit_test(test_no_card),
		cmocka_unit_test(test_rw_first_and_last_sector),
		cmocka_unit_test(test_cmd23_or_cmd12),
		cmocka_unit_test(test_split_to_host_limits),
		cmocka_unit_test(test_bad_buffers),
		cmocka_unit_test(test_erase),
		cmocka_unit_test(test_mmc_erase_and_discard),
		cmocka_unit_test(test_write_protect_switch),
		cmocka_unit_test(test_card_refuses_write),
		cmocka_unit_test(test_sd_failed_write_counts_blocks),
		cmocka_unit_test(test_mmc_failed_write_claims_nothing),
		cmocka_unit_test(test_read_error_reported),
		cmocka_unit_test(test_removal),
		cmocka_unit_test(test_host_op_failures),
		cmocka_unit_test(test_host_without_limits_op),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
