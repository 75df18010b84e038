/*
 * Mock card geometry (mock_sd.c, mock_mmc.c): the CSD v1 size with a
 * C_SIZE_MULT above 0, the largest images, eMMC SEC_COUNT and the sizes a
 * CSD v1 cannot state. Host only: the 16 MiB image does not fit the QEMU
 * targets.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <mmchal/error.h>
#include <mmchal/mock.h>

#define BIG (16u * 1024u * 1024u)

static uint8_t image[BIG];
static struct mmchal_mock mock;

/* CSD bits hi..lo, bit 127 first in byte 0. */
static uint32_t csd_bits(const uint8_t *csd, unsigned int hi, unsigned int lo)
{
	uint32_t v = 0;

	for (unsigned int b = hi + 1u; b-- > lo;)
		v = v << 1 | ((csd[15u - b / 8u] >> (b % 8u)) & 1u);
	return v;
}

/* 16 MiB = (4095 + 1) x 2^(1 + 2) x 512: C_SIZE 4095, C_SIZE_MULT 1, and
   ERASE_BLK_EN (bit 46) next to it. */
static void test_sdsc_16mib(void **state)
{
	static const uint8_t want[16] = {0x00, 0x0e, 0x00, 0x32, 0x5b, 0x59, 0x03, 0xff,
					 0xff, 0xfc, 0xff, 0x80, 0x0a, 0x40, 0x00, 0x01};
	struct mmchal_mock_cfg cfg;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.card = MMCHAL_MOCK_SDSC;
	cfg.image = image;
	cfg.image_size = BIG;
	assert_int_equal(mmchal_mock_init(&mock, &cfg), 0);
	assert_int_equal(csd_bits(mock.csd, 73, 62), 4095);
	assert_int_equal(csd_bits(mock.csd, 49, 47), 1);
	assert_int_equal(csd_bits(mock.csd, 46, 46), 1);
	assert_int_equal(csd_bits(mock.csd, 45, 39), 0x7f);
	assert_memory_equal(mock.csd, want, sizeof(want));
}

/*
 * SDHC/SDXC: C_SIZE in CSD v2.0 bits 69:48, in 512 KiB units less one (SD
 * spec 5.3.3), here with a value whose three bytes all differ; the rest of
 * the CSD as at 512 KiB. Init reads no byte of the image (see below).
 */
static void test_sdhc_c_size(void **state)
{
	static const uint8_t want[16] = {0x40, 0x0e, 0x00, 0x32, 0x5b, 0x59, 0x00, 0x35,
					 0xa5, 0xc3, 0x7f, 0x80, 0x0a, 0x40, 0x00, 0x01};
	struct mmchal_mock_cfg cfg;

	(void)state;
	if (sizeof(size_t) < 8) /* 1.7 TB does not fit a 32-bit size_t */
		return;
	memset(&cfg, 0, sizeof(cfg));
	cfg.card = MMCHAL_MOCK_SDHC;
	cfg.image = image;
	cfg.image_size = (0x35a5c3ull + 1u) * 512u * 1024u;
	assert_int_equal(mmchal_mock_init(&mock, &cfg), 0);
	assert_int_equal(csd_bits(mock.csd, 69, 48), 0x35a5c3);
	assert_memory_equal(mock.csd, want, sizeof(want));
	assert_int_equal(mock.nblocks, (0x35a5c3ull + 1u) * 1024u);
}

/*
 * The largest images each card type can state, and one unit more refused:
 * 1 GiB byte-addressed (CSD v1), 2 TiB SDHC/SDXC (22-bit C_SIZE of 512 KiB
 * units), 2^32 - 1 blocks of eMMC. Init checks only the size: it reads no
 * byte of the image, so a small buffer stands for the large one here. An
 * unknown DMA kind is refused too.
 */
static void test_largest_images(void **state)
{
	static const struct {
		enum mmchal_mock_card card;
		uint64_t size;
		int rc;
	} rows[] = {
		{MMCHAL_MOCK_SDSC, 1ull << 30, 0},
		{MMCHAL_MOCK_SDSC, (1ull << 30) + 2048u, MMCHAL_EINVAL},
		{MMCHAL_MOCK_SDHC, (1ull << 22) * 512u * 1024u, 0},
		{MMCHAL_MOCK_SDHC, ((1ull << 22) + 1u) * 512u * 1024u, MMCHAL_EINVAL},
		{MMCHAL_MOCK_EMMC, 0xffffffffull * 512u, 0},
		{MMCHAL_MOCK_EMMC, (1ull << 32) * 512u, MMCHAL_EINVAL},
	};
	struct mmchal_mock_cfg cfg;

	(void)state;
	if (sizeof(size_t) < 8) /* the sizes do not fit a 32-bit size_t: refused early */
		return;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&cfg, 0, sizeof(cfg));
		cfg.card = rows[i].card;
		cfg.image = image;
		cfg.image_size = rows[i].size;
		assert_int_equal(mmchal_mock_init(&mock, &cfg), rows[i].rc);
		if (rows[i].rc == 0)
			assert_int_equal(mock.nblocks, rows[i].size / 512u);
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.card = MMCHAL_MOCK_SDHC;
	cfg.image = image;
	cfg.image_size = BIG;
	cfg.dma.kind = MMCHAL_DMA_EXTERNAL;
	for (int d = 0; d < MMCHAL_DIR_COUNT; d++) {
		cfg.dma.dir[d].max_segs = 1;
		cfg.dma.dir[d].max_seg_size = 65536;
	}
	assert_int_equal(mmchal_mock_init(&mock, &cfg), 0);
	cfg.dma.kind = (enum mmchal_dma_kind)(MMCHAL_DMA_EXTERNAL + 1);
	assert_int_equal(mmchal_mock_init(&mock, &cfg), MMCHAL_EINVAL);
}

/*
 * eMMC sizes in both addressing modes, without reading the image: SEC_COUNT
 * little-endian in EXT_CSD[215:212] with every byte distinct; in byte mode
 * the CSD's C_SIZE and C_SIZE_MULT at the smallest multiplier that states the
 * size (JEDEC 5.1 section 7.3: (C_SIZE + 1) x 2^(C_SIZE_MULT + 2) blocks of
 * 512 bytes), up to the 1 GiB that 4096 x 2^9 x 512 reaches.
 */
static void test_emmc_sizes(void **state)
{
	static const struct {
		uint64_t size;
		uint32_t c_size, mult;
	} rows[] = {
		{1ull << 30, 4095, 7}, /* the largest byte-mode card */
		{64u * 1024u * 1024u, 4095, 3},
		{8u * 1024u * 1024u, 4095, 0}, /* exactly 4096 units of 2 KiB */
		{6u * 1024u * 1024u, 3071, 0},
		{(8u * 1024u + 4u) * 1024u, 2048, 1}, /* over 8 MiB: 4 KiB units */
	};
	/* sizes no CSD v1 states exactly: refused for SDSC and byte-mode eMMC */
	static const uint64_t refused[] = {
		(8u * 1024u + 2u) * 1024u,   /* 2 KiB over 8 MiB: not a 4 KiB unit */
		(16u * 1024u + 4u) * 1024u,  /* not an 8 KiB unit */
		(1ull << 30) + 256u * 1024u, /* over 1 GiB */
		2ull << 30,                  /* 4096 units of 512 KiB: C_SIZE_MULT 8 */
		2048u * 3u / 2u,             /* 3 KiB: not a 2 KiB unit */
	};
	struct mmchal_mock_cfg cfg;

	(void)state;
	if (sizeof(size_t) < 8) /* 0x04030201 sectors do not fit a 32-bit size_t */
		return;
	memset(&cfg, 0, sizeof(cfg));
	cfg.card = MMCHAL_MOCK_EMMC;
	cfg.image = image;
	cfg.image_size = 0x04030201ull * 512u;
	assert_int_equal(mmchal_mock_init(&mock, &cfg), 0);
	assert_int_equal(mock.ext_csd[212], 0x01);
	assert_int_equal(mock.ext_csd[213], 0x02);
	assert_int_equal(mock.ext_csd[214], 0x03);
	assert_int_equal(mock.ext_csd[215], 0x04);
	/* sector mode: the CSD size is saturated */
	assert_int_equal(csd_bits(mock.csd, 73, 62), 4095);
	assert_int_equal(csd_bits(mock.csd, 49, 47), 7);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		cfg.emmc_byte_mode = true;
		cfg.image_size = rows[i].size;
		assert_int_equal(mmchal_mock_init(&mock, &cfg), 0);
		assert_int_equal(csd_bits(mock.csd, 73, 62), rows[i].c_size);
		assert_int_equal(csd_bits(mock.csd, 49, 47), rows[i].mult);
		assert_int_equal((uint64_t)(rows[i].c_size + 1u) << (rows[i].mult + 2u + 9u),
				 rows[i].size);
		/* SEC_COUNT states the same size in byte mode too */
		assert_int_equal((uint32_t)mock.ext_csd[212] | (uint32_t)mock.ext_csd[213] << 8 |
					 (uint32_t)mock.ext_csd[214] << 16 |
					 (uint32_t)mock.ext_csd[215] << 24,
				 rows[i].size / 512u);
	}
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		cfg.card = MMCHAL_MOCK_EMMC;
		cfg.emmc_byte_mode = true;
		cfg.image_size = refused[i];
		assert_int_equal(mmchal_mock_init(&mock, &cfg), MMCHAL_EINVAL);
		cfg.card = MMCHAL_MOCK_SDSC;
		assert_int_equal(mmchal_mock_init(&mock, &cfg), MMCHAL_EINVAL);
		/* sector-addressed eMMC states them all in SEC_COUNT */
		cfg.card = MMCHAL_MOCK_EMMC;
		cfg.emmc_byte_mode = false;
		assert_int_equal(mmchal_mock_init(&mock, &cfg), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sdsc_16mib),
		cmocka_unit_test(test_sdhc_c_size),
		cmocka_unit_test(test_largest_images),
		cmocka_unit_test(test_emmc_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
