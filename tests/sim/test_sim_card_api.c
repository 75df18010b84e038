/*
 * The slot and card functions of the simulator (<mmchal_sim/card.h>) as a
 * test of a user's storage stack calls them: which configurations a card
 * insert takes and refuses (each limit on both sides where the store can be
 * had), and the documented error of every function for a NULL simulator, an
 * empty slot and an argument out of range, with nothing changed by a refusal.
 */
#define _DEFAULT_SOURCE /* mmap MAP_ANONYMOUS, MAP_NORESERVE: 2 GiB stores, untouched */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <sys/mman.h>

#include "drv.h"

#define S_WP_OFF (1u << 7) /* SD_INFO1 bit 7: 1 = writable */
#define KIB512   (512ull * 1024u)
#define GIB2     (2ull << 30)

/* A store the simulator may be given for a large card; never touched here. */
static void *big_store(uint64_t size)
{
	void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	assert_true(p != MAP_FAILED);
	return p;
}

/*
 * Insert @cfg into an empty slot and expect @want; on success the card is
 * there with its configured size and the store given (or one of its own),
 * and is taken out again; on a refusal the slot stays empty.
 */
static void try_insert(const struct mmchal_sim_card_config *cfg, int want)
{
	struct drv d;
	uint64_t size = 0;
	uint8_t *store;

	assert_int_equal(drv_open(&d, NULL), 0);
	assert_int_equal(mmchal_sim_card_insert(d.sim, cfg), want);
	store = mmchal_sim_card_store(d.sim, &size);
	if (want == 0) {
		assert_non_null(store);
		if (cfg->store)
			assert_ptr_equal(store, cfg->store);
		assert_int_equal(size, cfg->capacity);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
		assert_int_equal(mmchal_sim_card_remove(d.sim), 0);
	} else {
		assert_null(store);
		assert_int_equal(size, 0);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_ENOMEDIUM);
	}
	drv_close(&d);
}

/* The defaults of docs/sim.md section 5, written down from its table. */
static void expected_defaults(enum mmchal_sim_card_kind kind, struct mmchal_sim_card_config *w)
{
	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->serial = 0x0badcafeu;
	w->powerup_ns = 1000000u;
	switch (kind) {
	case MMCHAL_SIM_CARD_SD:
		w->capacity = 64ull << 20;
		w->rca = 0xb368u;
		w->cmd23 = true;
		w->uhs = true;
		w->read_latency_ns = 400000u;
		w->read_rate = 80000000u;
		w->write_rate = 40000000u;
		w->write_busy_ns = 2000000u;
		w->erase_busy_ns = 1000000u;
		break;
	case MMCHAL_SIM_CARD_MMC:
		w->capacity = 64ull << 20;
		w->mmc_card_type = 0x57u;
		w->read_latency_ns = 75000u;
		w->read_rate = 250000000u;
		w->write_rate = 125000000u;
		w->write_busy_ns = 44000u;
		w->switch_busy_ns = 100000u;
		w->erase_busy_ns = 1000000u;
		break;
	default:
		w->capacity = 4096u;
		w->rca = 1u;
		w->read_latency_ns = 10000u;
		break;
	}
}

static void test_defaults(void **state)
{
	struct mmchal_sim_card_config cfg, zero;
	static const enum mmchal_sim_card_kind bad[] = {MMCHAL_SIM_CARD_NONE,
							(enum mmchal_sim_card_kind)4,
							(enum mmchal_sim_card_kind)0x7f};

	(void)state;
	memset(&zero, 0, sizeof(zero));
	assert_int_equal(mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, NULL), MMCHAL_EINVAL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&cfg, 0xa5, sizeof(cfg));
		assert_int_equal(mmchal_sim_card_defaults(bad[i], &cfg), MMCHAL_EINVAL);
		/* Nothing half filled in for an unknown kind. */
		assert_memory_equal(&cfg, &zero, sizeof(cfg));
	}
	/* Each kind: exactly the table of docs/sim.md section 5, every other field 0. */
	for (int k = MMCHAL_SIM_CARD_SD; k <= MMCHAL_SIM_CARD_SDIO; k++) {
		struct mmchal_sim_card_config want;

		memset(&cfg, 0xa5, sizeof(cfg));
		assert_int_equal(mmchal_sim_card_defaults((enum mmchal_sim_card_kind)k, &cfg), 0);
		expected_defaults((enum mmchal_sim_card_kind)k, &want);
		/* The SDIO card has no CID: its serial is not part of the table. */
		if (k == MMCHAL_SIM_CARD_SDIO)
			want.serial = cfg.serial;
		assert_memory_equal(&cfg, &want, sizeof(cfg));
	}
}

/* SD: a non-zero multiple of 512 KiB, a non-zero RCA, SDSC at most 2 GiB. */
static void test_insert_sd_limits(void **state)
{
	struct mmchal_sim_card_config cfg;
	void *store = big_store(GIB2);

	(void)state;
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cfg);
	try_insert(&cfg, 0);
	cfg.capacity = 0;
	try_insert(&cfg, MMCHAL_EINVAL);
	cfg.capacity = KIB512 + 512u;
	try_insert(&cfg, MMCHAL_EINVAL);
	cfg.capacity = KIB512;
	try_insert(&cfg, 0);
	cfg.rca = 0;
	try_insert(&cfg, MMCHAL_EINVAL);
	/* SDSC: CSD v1 describes 2 GiB at most (4096 x 512 KiB). */
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &cfg);
	cfg.sdsc = true;
	cfg.store = store;
	cfg.capacity = GIB2;
	try_insert(&cfg, 0);
	cfg.capacity = GIB2 + KIB512;
	try_insert(&cfg, MMCHAL_EINVAL);
	/* The same size is an SDHC card's to have. */
	cfg.sdsc = false;
	try_insert(&cfg, 0);
	/* SDHC/SDXC: 2 TiB at most (CSD v2 C_SIZE of 22 bits). */
	cfg.store = NULL;
	cfg.capacity = (1ull << 41) + KIB512;
	try_insert(&cfg, MMCHAL_EINVAL);
	munmap(store, (size_t)GIB2);
}

/*
 * eMMC: a non-zero multiple of 512 KiB, a SEC_COUNT of 32 bits, byte mode
 * only up to 2 GiB. No RCA: the host assigns it.
 */
static void test_insert_mmc_limits(void **state)
{
	struct mmchal_sim_card_config cfg;
	void *store = big_store(GIB2 + KIB512);

	(void)state;
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cfg);
	cfg.rca = 0;
	try_insert(&cfg, 0);
	cfg.capacity = 0;
	try_insert(&cfg, MMCHAL_EINVAL);
	cfg.capacity = (64ull << 20) + 4096u;
	try_insert(&cfg, MMCHAL_EINVAL);
	cfg.store = store;
	cfg.byte_mode = true;
	cfg.capacity = GIB2;
	try_insert(&cfg, 0);
	cfg.capacity = GIB2 + KIB512;
	try_insert(&cfg, MMCHAL_EINVAL);
	cfg.byte_mode = false;
	try_insert(&cfg, 0);
	/* 2^32 sectors and one more erase group do not fit SEC_COUNT. */
	cfg.store = NULL;
	cfg.capacity = (1ull << 41) + KIB512;
	try_insert(&cfg, MMCHAL_EINVAL);
	munmap(store, (size_t)(GIB2 + KIB512));
}

/* SDIO: function 1's buffer of 1..131072 bytes, a non-zero RCA. */
static void test_insert_sdio_limits(void **state)
{
	struct mmchal_sim_card_config cfg;

	(void)state;
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SDIO, &cfg);
	cfg.capacity = 1;
	try_insert(&cfg, 0);
	cfg.capacity = 131072u;
	try_insert(&cfg, 0);
	cfg.capacity = 131073u;
	try_insert(&cfg, MMCHAL_EINVAL);
	cfg.capacity = 0;
	try_insert(&cfg, MMCHAL_EINVAL);
	cfg.capacity = 4096u;
	cfg.rca = 0;
	try_insert(&cfg, MMCHAL_EINVAL);
	/* An empty slot or an unknown kind is no card. */
	cfg.rca = 1;
	cfg.kind = MMCHAL_SIM_CARD_NONE;
	try_insert(&cfg, MMCHAL_EINVAL);
	cfg.kind = (enum mmchal_sim_card_kind)4;
	try_insert(&cfg, MMCHAL_EINVAL);
}

/*
 * NULL arguments, an occupied slot and an empty one: each function's
 * documented error, and a refused insert leaves the card in the slot as it
 * was (same store, same contents, same state).
 */
static void test_slot_errors(void **state)
{
	struct mmchal_sim_card_config sd, mmc;
	struct drv d;
	uint8_t *store, *again;
	uint64_t size = 0;
	uint32_t width = 99;
	enum mmchal_timing timing = (enum mmchal_timing)99;

	(void)state;
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &sd);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &mmc);
	assert_int_equal(drv_open(&d, NULL), 0);

	assert_int_equal(mmchal_sim_card_insert(NULL, &sd), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_card_insert(d.sim, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_card_remove(NULL), MMCHAL_EINVAL);
	assert_null(mmchal_sim_card_store(NULL, &size));
	assert_int_equal(size, 0);
	assert_int_equal(mmchal_sim_card_state(NULL), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_card_ext_csd(NULL, 0), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_card_set_wp(NULL, true), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_card_bus(NULL, &width, &timing), MMCHAL_ENOMEDIUM);

	/* The empty slot. */
	assert_int_equal(mmchal_sim_card_remove(d.sim), MMCHAL_ENOMEDIUM);
	assert_null(mmchal_sim_card_store(d.sim, &size));
	assert_int_equal(size, 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 0), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_card_set_wp(d.sim, true), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_card_bus(d.sim, &width, &timing), MMCHAL_ENOMEDIUM);
	assert_int_equal(width, 99);
	assert_int_equal(timing, 99);

	/*
	 * An SD card in the slot: the controller sees it arrive, and the card is
	 * in idle on a 1-bit bus at legacy timing before any command.
	 */
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(drv_status(&d) & (S_CD | S_INSERTED | S_REMOVED), 0);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &sd), 0);
	assert_int_equal(drv_status(&d) & (S_CD | S_INSERTED | S_REMOVED), S_CD | S_INSERTED);
	assert_int_equal(mmchal_sim_card_bus(d.sim, &width, &timing), 0);
	assert_int_equal(width, 1);
	assert_int_equal(timing, MMCHAL_TIMING_LEGACY);
	/* A second card is refused and changes nothing. */
	store = mmchal_sim_card_store(d.sim, NULL);
	assert_non_null(store);
	memset(store, 0x5c, 4096);
	assert_int_equal(drv_cmd(&d, C_NONE | 0, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | 8, 0x1aa), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &mmc), MMCHAL_EBUSY);
	again = mmchal_sim_card_store(d.sim, &size);
	assert_ptr_equal(again, store);
	assert_int_equal(size, sd.capacity);
	assert_int_equal(store[0], 0x5c);
	assert_int_equal(store[4095], 0x5c);
	/* Still the SD card: it has no EXT_CSD, and it answers ACMD41. */
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 0), MMCHAL_EINVAL);
	assert_int_equal(drv_cmd(&d, C_R1 | 55, 0), 0);
	assert_int_equal(drv_cmd(&d, C_R3 | C_ACMD | 41, 0x40ff8000u), 0);

	/* Out parameters may be NULL. */
	assert_int_equal(mmchal_sim_card_bus(d.sim, NULL, NULL), 0);
	assert_int_equal(mmchal_sim_card_bus(d.sim, &width, NULL), 0);
	assert_int_equal(width, 1);
	assert_int_equal(mmchal_sim_card_bus(d.sim, NULL, &timing), 0);
	assert_int_equal(timing, MMCHAL_TIMING_LEGACY);

	/* The switch: SD_INFO1 bit 7 follows it. */
	assert_int_equal(drv_status(&d) & S_WP_OFF, S_WP_OFF);
	assert_int_equal(mmchal_sim_card_set_wp(d.sim, true), 0);
	assert_int_equal(drv_status(&d) & S_WP_OFF, 0);
	assert_int_equal(mmchal_sim_card_set_wp(d.sim, false), 0);
	assert_int_equal(drv_status(&d) & S_WP_OFF, S_WP_OFF);

	/* Taken out once, seen by the controller; the second time the slot is empty. */
	drv_ack(&d, 0xffffffffu);
	assert_int_equal(mmchal_sim_card_remove(d.sim), 0);
	assert_int_equal(drv_status(&d) & (S_CD | S_INSERTED | S_REMOVED), S_REMOVED);
	assert_int_equal(mmchal_sim_card_remove(d.sim), MMCHAL_ENOMEDIUM);
	assert_null(mmchal_sim_card_store(d.sim, NULL));
	drv_close(&d);
}

/*
 * mmchal_sim_sdio_irq(): MMCHAL_EINVAL for a NULL simulator, MMCHAL_ENOMEDIUM
 * for an empty slot (checked before the card type, as by
 * mmchal_sim_card_ext_csd()), MMCHAL_EINVAL for an SD card and an eMMC, which
 * have no I/O function; 0 both ways for an SDIO card, and the empty slot again
 * once it is taken out.
 */
static void test_sdio_irq_errors(void **state)
{
	struct mmchal_sim_card_config sd, mmc, sdio;
	struct drv d;

	(void)state;
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SD, &sd);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &mmc);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SDIO, &sdio);
	assert_int_equal(drv_open(&d, NULL), 0);
	assert_int_equal(mmchal_sim_sdio_irq(NULL, true), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_sdio_irq(NULL, false), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), MMCHAL_ENOMEDIUM);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, false), MMCHAL_ENOMEDIUM);

	assert_int_equal(mmchal_sim_card_insert(d.sim, &sd), 0);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, false), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_card_remove(d.sim), 0);

	assert_int_equal(mmchal_sim_card_insert(d.sim, &mmc), 0);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, false), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_card_remove(d.sim), 0);

	assert_int_equal(mmchal_sim_card_insert(d.sim, &sdio), 0);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), 0);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, false), 0);
	assert_int_equal(mmchal_sim_card_remove(d.sim), 0);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), MMCHAL_ENOMEDIUM);
	drv_close(&d);
}

/* EXT_CSD bytes 0..511 of an eMMC, the configured CARD_TYPE among them. */
static void test_ext_csd_index(void **state)
{
	struct mmchal_sim_card_config cfg;
	struct drv d;
	uint8_t ext[512];

	(void)state;
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cfg);
	cfg.mmc_card_type = 0x17u;
	cfg.read_latency_ns = 0;
	cfg.read_rate = 0;
	cfg.switch_busy_ns = 10000000u;
	assert_int_equal(drv_open(&d, NULL), 0);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cfg), 0);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 196), 0x17);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, 512), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_card_ext_csd(d.sim, UINT32_MAX), MMCHAL_EINVAL);
	/* Every byte is the one CMD8 sends. */
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u); /* 32-bit port */
	assert_int_equal(drv_mmc_init(&d), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(drv_wait_not_busy(&d, 1000000000ull) & S_DAT0, S_DAT0);
	assert_int_equal(drv_pio_read(&d, C_R1 | 8, 0, 512, 1, ext), 0);
	for (uint32_t i = 0; i < 512u; i++)
		assert_int_equal(mmchal_sim_card_ext_csd(d.sim, i), ext[i]);
	/*
	 * Taken out while it holds DAT0 low after a SWITCH (10 ms of busy;
	 * BUS_WIDTH written with 0; issued as R1, so that the response ends
	 * before the busy does): without a card the line is high at once.
	 */
	assert_int_equal(drv_cmd(&d, C_R1 | 6, 0x03b70000u), 0);
	assert_int_equal(drv_status(&d) & S_DAT0, 0);
	assert_int_equal(mmchal_sim_card_remove(d.sim), 0);
	assert_int_equal(drv_status(&d) & S_DAT0, S_DAT0);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),          cmocka_unit_test(test_insert_sd_limits),
		cmocka_unit_test(test_insert_mmc_limits), cmocka_unit_test(test_insert_sdio_limits),
		cmocka_unit_test(test_slot_errors),       cmocka_unit_test(test_ext_csd_index),
		cmocka_unit_test(test_sdio_irq_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
