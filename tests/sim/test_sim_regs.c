/*
 * Simulator tests of the card registers, bit for bit: the CID and CSD as the
 * controller stores an R2 (bits 127:8, the CRC byte dropped: REF register
 * map), the SCR, the SD status, the CMD6 status block and the whole EXT_CSD.
 * The expected images are built here from the field tables of PROTOCOL.md
 * section 3 and the values docs/sim.md section 5 names, so that every bit a
 * model change moves is seen, zeros included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

/* Set bits [hi:lo] of a big-endian register of @bytes bytes (bit 0 = LSB of the last byte). */
static void put(uint8_t *reg, unsigned bytes, unsigned hi, unsigned lo, uint64_t val)
{
	for (unsigned b = lo; b <= hi; b++) {
		uint8_t *p = &reg[bytes - 1u - b / 8u];

		if ((val >> (b - lo)) & 1u)
			*p = (uint8_t)(*p | (1u << (b % 8u)));
	}
}

/* Bytes 0..14 (bits 127:8) of an R2 register from the four 32-bit response words. */
static void r2_bytes(const struct drv *d, uint8_t out[15])
{
	for (unsigned b = 0; b < 15; b++) {
		unsigned bit = 112u -
			       8u * b; /* register bit 120 - 8b sits at response bit 112 - 8b */

		out[b] = (uint8_t)(d->rsp[bit / 32u] >> (bit % 32u));
	}
}

static void assert_r2(struct drv *d, uint16_t cmd, uint32_t arg, const uint8_t want[16])
{
	uint8_t got[15];

	assert_int_equal(drv_cmd(d, cmd, arg), 0);
	r2_bytes(d, got);
	assert_memory_equal(got, want, 15);
}

static void sd_cid(uint8_t cid[16], uint32_t serial)
{
	memset(cid, 0, 16);
	put(cid, 16, 127, 120, 0xaa);           /* MID */
	put(cid, 16, 119, 104, 0x534d);         /* OID "SM" */
	put(cid, 16, 103, 64, 0x4d4d53494dull); /* PNM "MMSIM" */
	put(cid, 16, 63, 56, 0x10);             /* PRV */
	put(cid, 16, 55, 24, serial);           /* PSN */
	put(cid, 16, 19, 12, 26);               /* MDT year 2000 + 26 */
	put(cid, 16, 11, 8, 11);                /* MDT month */
}

/* CSD v2.0 (PROTOCOL.md section 3, "Simulator defaults (SDHC)"). */
static void sd_csd_v2(uint8_t csd[16], uint64_t capacity, uint8_t tran_speed, bool twp)
{
	memset(csd, 0, 16);
	put(csd, 16, 127, 126, 1);                            /* CSD_STRUCTURE v2.0 */
	put(csd, 16, 119, 112, 0x0e);                         /* TAAC */
	put(csd, 16, 103, 96, tran_speed);                    /* TRAN_SPEED */
	put(csd, 16, 95, 84, 0x5b5);                          /* CCC */
	put(csd, 16, 83, 80, 9);                              /* READ_BL_LEN */
	put(csd, 16, 69, 48, capacity / (512u * 1024u) - 1u); /* C_SIZE */
	put(csd, 16, 46, 46, 1);                              /* ERASE_BLK_EN */
	put(csd, 16, 45, 39, 0x7f);                           /* SECTOR_SIZE */
	put(csd, 16, 28, 26, 2);                              /* R2W_FACTOR */
	put(csd, 16, 25, 22, 9);                              /* WRITE_BL_LEN */
	put(csd, 16, 12, 12, twp);                            /* TMP_WRITE_PROTECT */
}

static struct mmchal_sim_card_config fast_card(enum mmchal_sim_card_kind kind)
{
	struct mmchal_sim_card_config cc;

	mmchal_sim_card_defaults(kind, &cc);
	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	cc.write_rate = 0;
	return cc;
}

/* SD up to stand-by: CMD0, CMD8, ACMD41 until ready, CMD2 (CID checked), CMD3. */
static uint32_t sd_to_stby(struct drv *d, const uint8_t cid[16], uint32_t ocr)
{
	assert_true(drv_sd_ready(d));
	assert_int_equal(d->rsp[0], ocr); /* no S18A: not asked for */
	assert_r2(d, C_R2 | 2, 0, cid);
	assert_int_equal(drv_cmd(d, C_R1 | 3, 0), 0);
	return d->rsp[0] >> 16;
}

static void acmd_read(struct drv *d, uint32_t rca, uint8_t idx, uint32_t len, uint8_t *buf)
{
	assert_int_equal(drv_cmd(d, C_R1 | 55, rca << 16), 0);
	assert_int_equal(drv_pio_read(d, (uint16_t)(C_R1 | C_ACMD | idx), 0, len, 1, buf), 0);
}

/*
 * SD: CID and CSD bit for bit, before and after a high-speed switch (TRAN_SPEED
 * 0x32 -> 0x5a, PROTOCOL.md section 3), the SCR, the SD status in both bus
 * widths and the CMD6 status block.
 */
static void test_sd_registers_exact(void **state)
{
	struct mmchal_sim_card_config cc = fast_card(MMCHAL_SIM_CARD_SD);
	uint8_t cid[16], csd[16], scr[8], want_scr[8], st[64], want[64];
	struct drv d;
	uint32_t rca;

	(void)state;
	cc.serial = 0x12345678u;
	cc.capacity = 96ull << 20; /* C_SIZE 191 */
	assert_int_equal(drv_open(&d, NULL), 0);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	sd_cid(cid, cc.serial);
	sd_csd_v2(csd, cc.capacity, 0x32, false);
	rca = sd_to_stby(&d, cid, 0xc0ff8000u);
	assert_int_equal(rca, 0xb368u);
	assert_r2(&d, C_R2 | 9, rca << 16, csd);
	assert_r2(&d, C_R2 | 10, rca << 16, cid);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, rca << 16), 0);

	/* SCR: SD_SPEC 2, SD_SPEC3, widths 1 and 4 bit, CMD23 (PROTOCOL.md section 3). */
	memset(want_scr, 0, sizeof(want_scr));
	put(want_scr, 8, 59, 56, 2);
	put(want_scr, 8, 51, 48, 0x5);
	put(want_scr, 8, 47, 47, 1);
	put(want_scr, 8, 33, 33, 1);
	acmd_read(&d, rca, 51, 8, scr);
	assert_memory_equal(scr, want_scr, 8);

	/* SD status: DAT_BUS_WIDTH [511:510] 0 in 1-bit, 2 in 4-bit; AU_SIZE 9 (4 MiB). */
	memset(want, 0, sizeof(want));
	put(want, 64, 431, 428, 9);
	acmd_read(&d, rca, 13, 64, st);
	assert_memory_equal(st, want, 64);
	assert_int_equal(drv_cmd(&d, C_R1 | 55, rca << 16), 0);
	assert_int_equal(drv_cmd(&d, C_R1 | C_ACMD | 6, 2), 0);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x40eeu);
	put(want, 64, 511, 510, 2);
	acmd_read(&d, rca, 13, 64, st);
	assert_memory_equal(st, want, 64);

	/*
	 * CMD6 check of every group "no change": 100 mA, group 1 supports
	 * functions 0-4 (UHS card) and the other groups function 0, all with bit
	 * 15 (PROTOCOL.md section 3 byte offsets); group 1 selects 0 (default speed).
	 */
	memset(want, 0, sizeof(want));
	want[1] = 0x64;
	want[12] = 0x80;
	want[13] = 0x1f;
	for (unsigned off = 2; off < 12; off += 2) {
		want[off] = 0x80;
		want[off + 1u] = 0x01;
	}
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x00ffffffu, 64, 1, st), 0);
	assert_memory_equal(st, want, 64);
	/* Group 4 function 1 (not supported): its nibble (byte 15 high) reads 0xF, no switch. */
	want[15] = 0xf0;
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x80ff1fffu, 64, 1, st), 0);
	assert_memory_equal(st, want, 64);
	want[15] = 0x00;
	/* Group 6 function 1: byte 14 high nibble reads 0xF. */
	want[14] = 0xf0;
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x801fffffu, 64, 1, st), 0);
	assert_memory_equal(st, want, 64);
	want[14] = 0x00;
	/* Switch to high speed: byte 16 reads 1, TRAN_SPEED becomes 0x5a. */
	want[16] = 0x01;
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x80fffff1u, 64, 1, st), 0);
	assert_memory_equal(st, want, 64);
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x00ffffffu, 64, 1, st), 0);
	assert_memory_equal(st, want, 64);
	/* The SCR is unchanged by the switch. */
	acmd_read(&d, rca, 51, 8, scr);
	assert_memory_equal(scr, want_scr, 8);
	/* Deselect (no response), read the CSD again. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	sd_csd_v2(csd, cc.capacity, 0x5a, false);
	assert_r2(&d, C_R2 | 9, rca << 16, csd);
	assert_r2(&d, C_R2 | 10, rca << 16, cid);
	/* CMD0 resets the registers: TRAN_SPEED is 0x32 again. */
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x80eeu);
	rca = sd_to_stby(&d, cid, 0xc0ff8000u);
	sd_csd_v2(csd, cc.capacity, 0x32, false);
	assert_r2(&d, C_R2 | 9, rca << 16, csd);
	drv_close(&d);

	/* A non-UHS, write-protected card without CMD23 that reads erased as 0xff. */
	cc.uhs = false;
	cc.cmd23 = false;
	cc.tmp_write_protect = true;
	cc.erased_ones = true;
	assert_int_equal(drv_open(&d, NULL), 0);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	rca = sd_to_stby(&d, cid, 0xc0ff8000u);
	sd_csd_v2(csd, cc.capacity, 0x32, true);
	assert_r2(&d, C_R2 | 9, rca << 16, csd);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, rca << 16), 0);
	memset(want_scr, 0, sizeof(want_scr));
	put(want_scr, 8, 59, 56, 2);
	put(want_scr, 8, 55, 55, 1); /* DATA_STAT_AFTER_ERASE */
	put(want_scr, 8, 51, 48, 0x5);
	put(want_scr, 8, 47, 47, 1);
	acmd_read(&d, rca, 51, 8, scr);
	assert_memory_equal(scr, want_scr, 8);
	/* Group 1 supports only default and high speed. */
	memset(want, 0, sizeof(want));
	want[1] = 0x64;
	want[12] = 0x80;
	want[13] = 0x03;
	for (unsigned off = 2; off < 12; off += 2) {
		want[off] = 0x80;
		want[off + 1u] = 0x01;
	}
	assert_int_equal(drv_pio_read(&d, C_R1 | 6, 0x00ffffffu, 64, 1, st), 0);
	assert_memory_equal(st, want, 64);
	drv_close(&d);
}

/*
 * SDSC: CSD v1.0 (PROTOCOL.md section 3: capacity = (C_SIZE + 1) << (C_SIZE_MULT
 * + 2) << READ_BL_LEN): READ_BL_LEN 9 up to 1 GiB, 10 above (docs/sim.md
 * section 5), OCR without CCS.
 */
static void test_sdsc_csd_v1_exact(void **state)
{
	static const uint64_t caps[2] = {256ull << 20, (1ull << 30) + (512u << 10)};
	struct mmchal_sim_card_config cc = fast_card(MMCHAL_SIM_CARD_SD);
	uint8_t cid[16], csd[16];
	struct drv d;
	uint32_t rca;

	(void)state;
	cc.sdsc = true;
	sd_cid(cid, cc.serial);
	for (unsigned i = 0; i < 2; i++) {
		unsigned bl = i ? 10u : 9u;

		cc.capacity = caps[i];
		cc.tmp_write_protect = i == 1;
		memset(csd, 0, sizeof(csd));
		put(csd, 16, 119, 112, 0x26);                      /* TAAC 1.5 ms */
		put(csd, 16, 103, 96, 0x32);                       /* TRAN_SPEED */
		put(csd, 16, 95, 84, 0x5b5);                       /* CCC */
		put(csd, 16, 83, 80, bl);                          /* READ_BL_LEN */
		put(csd, 16, 79, 79, 1);                           /* READ_BL_PARTIAL */
		put(csd, 16, 73, 62, (caps[i] >> (bl + 9u)) - 1u); /* C_SIZE */
		put(csd, 16, 61, 50, 0xfff);                       /* VDD currents */
		put(csd, 16, 49, 47, 7);                           /* C_SIZE_MULT */
		put(csd, 16, 46, 46, 1);                           /* ERASE_BLK_EN */
		put(csd, 16, 45, 39, 0x7f);                        /* SECTOR_SIZE */
		put(csd, 16, 28, 26, 2);                           /* R2W_FACTOR */
		put(csd, 16, 25, 22, bl);                          /* WRITE_BL_LEN */
		put(csd, 16, 12, 12, i == 1);                      /* TMP_WRITE_PROTECT */
		assert_int_equal(drv_open(&d, NULL), 0);
		assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
		rca = sd_to_stby(&d, cid, 0x80ff8000u);
		assert_r2(&d, C_R2 | 9, rca << 16, csd);
		drv_close(&d);
	}
}

static void mmc_cid(uint8_t cid[16], uint32_t serial)
{
	memset(cid, 0, 16);
	put(cid, 16, 127, 120, 0xaa);             /* MID */
	put(cid, 16, 113, 112, 1);                /* CBX: BGA */
	put(cid, 16, 111, 104, 0x53);             /* OID */
	put(cid, 16, 103, 56, 0x4d4d4353494dull); /* PNM "MMCSIM" */
	put(cid, 16, 55, 48, 0x10);               /* PRV */
	put(cid, 16, 47, 16, serial);             /* PSN */
	put(cid, 16, 15, 12, 11);                 /* MDT month */
	put(cid, 16, 11, 8, 13);                  /* year 1997 + 16 + 13 (EXT_CSD_REV >= 5) */
}

static void mmc_csd(uint8_t csd[16], bool twp)
{
	memset(csd, 0, 16);
	put(csd, 16, 127, 126, 3);    /* CSD_STRUCTURE: in EXT_CSD[194] */
	put(csd, 16, 125, 122, 4);    /* SPEC_VERS 4.x */
	put(csd, 16, 119, 112, 0x0e); /* TAAC */
	put(csd, 16, 103, 96, 0x32);  /* TRAN_SPEED */
	put(csd, 16, 95, 84, 0x8f5);  /* CCC */
	put(csd, 16, 83, 80, 9);      /* READ_BL_LEN */
	put(csd, 16, 73, 62, 0xfff);  /* C_SIZE saturated: above 2 GB the size is in EXT_CSD */
	put(csd, 16, 61, 59, 5);      /* VDD_R_CURR_MIN */
	put(csd, 16, 58, 56, 7);      /* VDD_R_CURR_MAX */
	put(csd, 16, 55, 53, 5);      /* VDD_W_CURR_MIN */
	put(csd, 16, 52, 50, 7);      /* VDD_W_CURR_MAX */
	put(csd, 16, 49, 47, 7);      /* C_SIZE_MULT */
	put(csd, 16, 46, 42, 31);     /* ERASE_GRP_SIZE */
	put(csd, 16, 41, 37, 31);     /* ERASE_GRP_MULT: 32 x 32 blocks = 512 KiB */
	put(csd, 16, 28, 26, 2);      /* R2W_FACTOR */
	put(csd, 16, 25, 22, 9);      /* WRITE_BL_LEN */
	put(csd, 16, 12, 12, twp);    /* TMP_WRITE_PROTECT */
}

static void mmc_ext_csd(uint8_t e[512], uint64_t capacity, uint8_t card_type, bool ones)
{
	uint32_t sectors = (uint32_t)(capacity / 512u);

	memset(e, 0, 512);
	e[181] = ones;             /* ERASED_MEM_CONT */
	e[192] = 8;                /* EXT_CSD_REV 5.1 */
	e[194] = 2;                /* CSD_STRUCTURE */
	e[196] = card_type;        /* CARD_TYPE */
	e[197] = 0x1f;             /* DRIVER_STRENGTH */
	e[199] = 3;                /* PARTITION_SWITCH_TIME */
	e[212] = (uint8_t)sectors; /* SEC_COUNT, little-endian */
	e[213] = (uint8_t)(sectors >> 8);
	e[214] = (uint8_t)(sectors >> 16);
	e[215] = (uint8_t)(sectors >> 24);
	e[221] = 1;    /* HC_WP_GRP_SIZE */
	e[223] = 1;    /* ERASE_TIMEOUT_MULT */
	e[224] = 1;    /* HC_ERASE_GRP_SIZE: 512 KiB */
	e[231] = 0x10; /* SEC_FEATURE_SUPPORT: SEC_GB_CL_EN */
	e[232] = 1;    /* TRIM_MULT */
	e[248] = 10;   /* GENERIC_CMD6_TIME */
	e[504] = 1;    /* S_CMD_SET */
}

/*
 * eMMC: CID, CSD and the whole EXT_CSD, for the default card and for one with
 * another capacity, CARD_TYPE, write protection and erased value; a SWITCH
 * writes exactly its byte (BUS_WIDTH 183, HS_TIMING 185) and a CMD0 restores
 * the reset image.
 */
static void test_mmc_registers_exact(void **state)
{
	struct mmchal_sim_card_config cc = fast_card(MMCHAL_SIM_CARD_MMC);
	uint8_t cid[16], csd[16], ext[512], want[512];
	struct drv d;

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			cc.serial = 0x87654321u;
			cc.capacity = 0x30c00ull * 512u; /* SEC_COUNT bytes 00 0c 03 00 */
			cc.mmc_card_type = 0x03u;
			cc.tmp_write_protect = true;
			cc.erased_ones = true;
		}
		mmc_cid(cid, cc.serial);
		mmc_csd(csd, cc.tmp_write_protect);
		mmc_ext_csd(want, cc.capacity, cc.mmc_card_type, cc.erased_ones);
		assert_int_equal(drv_open(&d, NULL), 0);
		assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
		/* A card is in idle from power-up; the second pass starts without CMD0. */
		if (!pass)
			drv_cmd(&d, C_NONE | 0, 0);
		for (int i = 0; i < 100; i++) {
			drv_cmd(&d, C_R3 | 1, 0x40ff8080u);
			if (d.rsp[0] & 0x80000000u)
				break;
			d.port.ops->delay_us(d.port.ctx, 100);
		}
		assert_int_equal(d.rsp[0], 0xc0ff8080u);
		assert_r2(&d, C_R2 | 2, 0, cid);
		assert_int_equal(drv_cmd(&d, C_R1 | 3, 5u << 16), 0);
		assert_r2(&d, C_R2 | 9, 5u << 16, csd);
		assert_r2(&d, C_R2 | 10, 5u << 16, cid);
		assert_int_equal(drv_cmd(&d, C_R1B | 7, 5u << 16), 0);
		assert_int_equal(drv_pio_read(&d, C_R1 | 8, 0, 512, 1, ext), 0);
		assert_memory_equal(ext, want, 512);
		/* SWITCH write byte BUS_WIDTH = 1 (4-bit): only byte 183 changes. */
		assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b70100u), 0);
		assert_int_equal(drv_cmd(&d, C_R1 | 13, 5u << 16), 0);
		assert_int_equal(d.rsp[0] & (1u << 7), 0);
		want[183] = 1;
		mmchal_bus_wr16(&d.bus, R_OPTION, 0x40eeu); /* the host follows to 4-bit */
		if (!pass) {
			/* HS_TIMING = 1 (the card has HS52): byte 185. */
			assert_int_equal(drv_cmd(&d, C_R1B | 6, 0x03b90100u), 0);
			want[185] = 1;
		}
		assert_int_equal(drv_pio_read(&d, C_R1 | 8, 0, 512, 1, ext), 0);
		assert_memory_equal(ext, want, 512);
		/* CMD0: the registers are the reset image again. */
		drv_cmd(&d, C_NONE | 0, 0);
		assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
		mmchal_bus_wr16(&d.bus, R_OPTION, 0x80eeu); /* back to 1-bit with the card */
		for (int i = 0; i < 100; i++) {
			drv_cmd(&d, C_R3 | 1, 0x40ff8080u);
			if (d.rsp[0] & 0x80000000u)
				break;
			d.port.ops->delay_us(d.port.ctx, 100);
		}
		assert_r2(&d, C_R2 | 2, 0, cid);
		assert_int_equal(drv_cmd(&d, C_R1 | 3, 5u << 16), 0);
		assert_int_equal(drv_cmd(&d, C_R1B | 7, 5u << 16), 0);
		want[183] = 0;
		want[185] = 0;
		assert_int_equal(drv_pio_read(&d, C_R1 | 8, 0, 512, 1, ext), 0);
		assert_memory_equal(ext, want, 512);
		drv_close(&d);
	}
}

/*
 * Controller registers read back what was written, within their widths
 * (docs/sim.md section 3): SD_SECCNT by a 16-bit access, SD_SIZE bits 9:0,
 * SD_CLK_CTRL bits 9:0, IF_MODE bit 0, SDIO_MODE, SOFT_RST bit 0 (0 while held
 * in reset: REF "write 0 then 1"). A soft reset keeps the card-detect and
 * write-protect levels (INFO1 bits 5 and 7: they follow the slot) and clears
 * the latched insert event (bit 4).
 */
static void test_sdhi_register_readback(void **state)
{
	struct mmchal_sim_card_config cc = fast_card(MMCHAL_SIM_CARD_SD);
	struct drv d;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	d.bus.ops->write16(d.bus.ctx, R_SECCNT << 2, 0x1234u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SECCNT), 0x1234u);
	mmchal_bus_wr16(&d.bus, R_SIZE, 0xffffu);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SIZE), 0x03ffu);
	mmchal_bus_wr16(&d.bus, R_CLK, 0xfc3fu);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_CLK), 0x003fu);
	mmchal_bus_wr16(&d.bus, R_IFMODE, 0xffffu);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_IFMODE), 1);
	mmchal_bus_wr16(&d.bus, 0x34u, 1); /* SDIO_MODE */
	assert_int_equal(mmchal_bus_rd16(&d.bus, 0x34u), 1);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SOFTRST), 0);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SOFTRST), 1);
	assert_int_equal(mmchal_bus_rd16(&d.bus, 0x34u), 0);
	/* The reset is the 1 -> 0 edge: writing 1 again, or 0 twice, resets nothing more. */
	mmchal_bus_wr16(&d.bus, R_SIZE, 64);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SIZE), 64);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SIZE), 0x200u);
	mmchal_bus_wr16(&d.bus, R_SIZE, 64);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SIZE), 64);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	mmchal_bus_wr32(&d.bus, R_MASK1, 0);

	/* Card in, slot not write-protected: CD level, WP bit 7 reads 1, insert event. */
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
	assert_int_equal(drv_status(&d) & 0xbcu, S_INSERTED | S_CD | 0x80u);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	assert_int_equal(drv_status(&d) & 0xbcu, S_CD | 0x80u);
	/* Write-protect switch on: bit 7 reads 0, also after a soft reset. */
	assert_int_equal(mmchal_sim_card_set_wp(d.sim, true), 0);
	assert_int_equal(drv_status(&d) & 0xbcu, S_CD);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	assert_int_equal(drv_status(&d) & 0xbcu, S_CD);
	drv_close(&d);
}

/* Poll for response end with 1 ns accesses; returns the status seen at that moment. */
static uint32_t poll_rsp_end(struct drv *d, uint16_t cmd, uint32_t arg)
{
	uint32_t st;

	drv_ack(d, 0xffffffffu);
	mmchal_bus_wr32(&d->bus, R_ARG, arg);
	mmchal_bus_wr16(&d->bus, R_CMD, cmd);
	for (unsigned i = 0; i < 100000u; i++) {
		st = drv_status(d);
		if (st & (S_RSP_END | S_ERRORS))
			return st;
	}
	return 0;
}

/*
 * An R2 (CMD9, CMD10) has no busy phase: DAT0 (INFO2 bit 23) is high when
 * response end is seen, even within a nanosecond of it.
 */
static void test_r2_has_no_busy(void **state)
{
	struct mmchal_sim_config cfg;
	struct drv d;

	(void)state;
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
	cfg.reg_access_ns = 1;
	for (int kind = 0; kind < 2; kind++) {
		struct mmchal_sim_card_config cc = fast_card(kind ? MMCHAL_SIM_CARD_MMC
								  : MMCHAL_SIM_CARD_SD);
		uint32_t rca = kind ? 1u : 0xb368u;

		assert_int_equal(drv_open(&d, &cfg), 0);
		assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
		if (kind)
			assert_int_equal(drv_mmc_init(&d), 0);
		else
			assert_int_equal(drv_sd_init(&d), rca);
		assert_int_equal(drv_cmd(&d, C_R1B | 7, 0), MMCHAL_ETIMEDOUT);
		mmchal_bus_wr16(&d.bus, R_CLK, 0x0102u); /* 25 MHz */
		for (uint16_t idx = 9; idx <= 10; idx++)
			assert_int_equal(poll_rsp_end(&d, (uint16_t)(C_R2 | idx), rca << 16) &
						 (S_RSP_END | S_ERRORS | S_DAT0),
					 S_RSP_END | S_DAT0);
		drv_close(&d);
	}
}

/*
 * More read-back (docs/sim.md section 3): SD_ARG by halves, SD_CMD as written
 * (the clock is off, so the command waits), SD_STOP bits 8 and 0 only,
 * CC_EXT_MODE, HOST_MODE, SDIO_INFO1_MASK as written and SDIO_INFO1 cleared by
 * writing 0, SD_OPTION bit 14 always 1, an offset between registers reads 0,
 * and each 16-bit half of the four response registers.
 */
static void test_sdhi_register_readback_more(void **state)
{
	struct drv d;

	(void)state;
	assert_int_equal(drv_open(&d, NULL), 0);
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0080u); /* clock off */
	mmchal_bus_wr16(&d.bus, R_ARG, 0x1234u);
	mmchal_bus_wr16(&d.bus, R_ARG + 2u, 0xabcdu);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ARG), 0x1234u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ARG + 2u), 0xabcdu);
	assert_int_equal(mmchal_bus_rd32(&d.bus, R_ARG), 0xabcd1234u);
	mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | 13);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_CMD), C_R1 | 13);
	mmchal_bus_wr16(&d.bus, R_STOP, 0xffffu);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_STOP), 0x0101u);
	mmchal_bus_wr16(&d.bus, R_EXTMODE, 0x1010u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_EXTMODE), 0x1010u);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_HOSTMODE), 0x0101u);
	mmchal_bus_wr16(&d.bus, 0x38u, 0x1234u); /* SDIO_INFO1_MASK */
	assert_int_equal(mmchal_bus_rd16(&d.bus, 0x38u), 0x1234u);
	mmchal_bus_wr16(&d.bus, 0x36u, 0xffffu); /* SDIO_INFO1: only clearing */
	assert_int_equal(mmchal_bus_rd16(&d.bus, 0x36u), 0);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x00a0u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_OPTION), 0x40a0u);
	assert_int_equal(mmchal_bus_rd16(&d.bus, 0x32u), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, 0xeau), 0);
	drv_close(&d);

	/* R2 in the response registers, half by half: CID bits 127:8 right-aligned. */
	{
		struct mmchal_sim_card_config cc = fast_card(MMCHAL_SIM_CARD_SD);
		uint8_t cid[16];

		assert_int_equal(drv_open(&d, NULL), 0);
		assert_int_equal(mmchal_sim_card_insert(d.sim, &cc), 0);
		sd_cid(cid, cc.serial);
		(void)sd_to_stby(&d, cid, 0xc0ff8000u);
		assert_int_equal(drv_cmd(&d, C_R2 | 10, 0xb368u << 16), 0);
		for (unsigned h = 0; h < 8; h++) {
			/* Half h holds register bits 16h + 23 .. 16h + 8: bytes 14 - 2h, 13 - 2h. */
			uint16_t want = (uint16_t)(cid[14 - 2 * h] |
						   (h < 7 ? cid[13 - 2 * h] << 8 : 0));

			assert_int_equal(mmchal_bus_rd16(&d.bus, R_RSP + 2u * h), want);
		}
		drv_close(&d);
	}
}

/*
 * SD_SECCNT by one 32-bit access (docs/sim.md section 3; REF: 32-bit from
 * VERSION 0xcb0d): all 32 bits from 0xcb0d on, the low 16 bits before it,
 * both ways; a 16-bit access is always the low half.
 */
static void test_seccnt_width_per_version(void **state)
{
	static const uint16_t versions[] = {0x490cu, 0xcb0cu, 0xcb0du, 0xcd10u};
	struct mmchal_sim_config cfg;
	struct drv d;

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		bool wide = versions[i] >= 0xcb0du;
		uint32_t off;

		mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
		cfg.version = versions[i];
		assert_int_equal(drv_open(&d, &cfg), 0);
		off = R_SECCNT << d.bus.bus_shift;
		d.bus.ops->write32(d.bus.ctx, off, 0x00012345u);
		assert_int_equal(d.bus.ops->read32(d.bus.ctx, off), wide ? 0x00012345u : 0x2345u);
		assert_int_equal(d.bus.ops->read16(d.bus.ctx, off), 0x2345u);
		d.bus.ops->write16(d.bus.ctx, off, 0x0007u);
		assert_int_equal(d.bus.ops->read32(d.bus.ctx, off), 0x0007u);
		drv_close(&d);
	}
}

/*
 * INFO2 bit 30 (command busy) while a command is on the line, except on
 * VERSION 0x490c, which has no command-busy bit (REF versions); bit 29
 * (SCLKDIVEN) is clear while the command runs and set once it is done.
 */
static void test_command_busy_bit_per_version(void **state)
{
	static const uint16_t versions[] = {0x490cu, 0xcb0du, 0xcd10u};
	struct mmchal_sim_config cfg;
	struct drv d;

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		uint32_t st;

		mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
		cfg.version = versions[i];
		assert_int_equal(drv_open(&d, &cfg), 0); /* 390 kHz: a command takes 120 us */
		st = drv_status(&d);
		assert_int_equal(st & (3u << 29), 1u << 29);
		mmchal_bus_wr16(&d.bus, R_CMD, C_R1 | 13);
		st = drv_status(&d);
		assert_int_equal(st & (3u << 29), i == 0 ? 0 : 1u << 30);
		mmchal_sim_advance(d.sim, 1000000u); /* the timeout (no card) has come */
		st = drv_status(&d);
		assert_int_equal(st & ((3u << 29) | S_CMD_TO), (1u << 29) | S_CMD_TO);
		drv_close(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sd_registers_exact),
		cmocka_unit_test(test_sdsc_csd_v1_exact),
		cmocka_unit_test(test_mmc_registers_exact),
		cmocka_unit_test(test_sdhi_register_readback),
		cmocka_unit_test(test_r2_has_no_busy),
		cmocka_unit_test(test_sdhi_register_readback_more),
		cmocka_unit_test(test_seccnt_width_per_version),
		cmocka_unit_test(test_command_busy_bit_per_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
