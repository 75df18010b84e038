/* Card register decoders (src/core/card_decode.c): CID, CSD, SCR, EXT_CSD, CIS, status. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core/card_priv.h"
#include "reg128.h"

static void test_bits(void **state)
{
	const uint32_t r[4] = {0x12345678u, 0x9abcdef0u, 0x0fedcba9u, 0x87654321u};

	(void)state;
	assert_int_equal(mmchal_card_bits_(r, 120, 8), 0x12);
	assert_int_equal(mmchal_card_bits_(r, 96, 32), 0x12345678u);
	assert_int_equal(mmchal_card_bits_(r, 0, 32), 0x87654321u);
	assert_int_equal(mmchal_card_bits_(r, 0, 4), 0x1);
	/* fields across a word boundary: bits 71:64 = 0xf0, bits 63:56 = 0x0f */
	assert_int_equal(mmchal_card_bits_(r, 56, 16), 0xf00f);
	assert_int_equal(mmchal_card_bits_(r, 60, 12), 0xf00);
	assert_int_equal(mmchal_card_bits_(r, 126, 2), 0);
}

static void test_tran_speed(void **state)
{
	(void)state;
	assert_int_equal(mmchal_card_tran_speed_hz_(0x32, false), 25000000u);
	assert_int_equal(mmchal_card_tran_speed_hz_(0x5a, false), 50000000u);
	assert_int_equal(mmchal_card_tran_speed_hz_(0x32, true), 26000000u);
	assert_int_equal(mmchal_card_tran_speed_hz_(0x5a, true), 52000000u);
	assert_int_equal(mmchal_card_tran_speed_hz_(0x0b, false), 100000000u);
	assert_int_equal(mmchal_card_tran_speed_hz_(0x2b, false), 200000000u);
	assert_int_equal(mmchal_card_tran_speed_hz_(0x07, false), 0u); /* reserved unit */
}

static void test_sd_cid(void **state)
{
	uint32_t r[4] = {0};
	struct mmchal_cid cid;

	(void)state;
	reg128_put(r, 120, 8, 0x03);
	reg128_put(r, 104, 16, 0x5344); /* "SD" */
	reg128_put(r, 96, 8, 'S');
	reg128_put(r, 88, 8, 'U');
	reg128_put(r, 80, 8, '3');
	reg128_put(r, 72, 8, '2');
	reg128_put(r, 64, 8, 'G');
	reg128_put(r, 56, 8, 0x80);
	reg128_put(r, 24, 32, 0xdeadbeefu);
	reg128_put(r, 12, 8, 24); /* 2024 */
	reg128_put(r, 8, 4, 7);
	mmchal_card_decode_sd_cid_(r, &cid);
	assert_int_equal(cid.mid, 0x03);
	assert_int_equal(cid.oid, 0x5344);
	assert_string_equal(cid.pnm, "SU32G");
	assert_int_equal(cid.prv, 0x80);
	assert_int_equal(cid.psn, 0xdeadbeefu);
	assert_int_equal(cid.year, 2024);
	assert_int_equal(cid.month, 7);
}

static void test_mmc_cid(void **state)
{
	uint32_t r[4] = {0};
	struct mmchal_cid cid;
	const char *name = "8GTF4R";

	(void)state;
	reg128_put(r, 120, 8, 0x15);
	reg128_put(r, 104, 16, 0x0100);
	for (unsigned i = 0; i < 6; i++)
		reg128_put(r, 96 - 8 * i, 8, (uint8_t)name[i]);
	reg128_put(r, 48, 8, 0x21);
	reg128_put(r, 16, 32, 0x01020304u);
	reg128_put(r, 12, 4, 11);
	reg128_put(r, 8, 4, 5);
	mmchal_card_decode_mmc_cid_(r, 0, &cid);
	assert_int_equal(cid.mid, 0x15);
	assert_int_equal(cid.oid, 0x0100);
	assert_string_equal(cid.pnm, "8GTF4R");
	assert_int_equal(cid.prv, 0x21);
	assert_int_equal(cid.psn, 0x01020304u);
	assert_int_equal(cid.month, 11);
	assert_int_equal(cid.year, 2002);
	/* eMMC 4.41+: the same code means 2018 */
	mmchal_card_decode_mmc_cid_(r, 5, &cid);
	assert_int_equal(cid.year, 2018);
	/* an unprintable name byte is shown as '?' */
	reg128_put(r, 96, 8, 0x01);
	mmchal_card_decode_mmc_cid_(r, 0, &cid);
	assert_string_equal(cid.pnm, "?GTF4R");
}

/* Bytes of a struct mmchal_cid that belong to no field (padding). */
static void cid_padding(bool pad[sizeof(struct mmchal_cid)])
{
	static const size_t off[] = {
		offsetof(struct mmchal_cid, mid),   offsetof(struct mmchal_cid, oid),
		offsetof(struct mmchal_cid, pnm),   offsetof(struct mmchal_cid, prv),
		offsetof(struct mmchal_cid, psn),   offsetof(struct mmchal_cid, year),
		offsetof(struct mmchal_cid, month),
	};
	static const size_t len[] = {
		sizeof(((struct mmchal_cid *)0)->mid),   sizeof(((struct mmchal_cid *)0)->oid),
		sizeof(((struct mmchal_cid *)0)->pnm),   sizeof(((struct mmchal_cid *)0)->prv),
		sizeof(((struct mmchal_cid *)0)->psn),   sizeof(((struct mmchal_cid *)0)->year),
		sizeof(((struct mmchal_cid *)0)->month),
	};

	for (size_t i = 0; i < sizeof(struct mmchal_cid); i++)
		pad[i] = true;
	for (size_t f = 0; f < sizeof(off) / sizeof(off[0]); f++)
		for (size_t i = 0; i < len[f]; i++)
			pad[off[f] + i] = false;
}

/* Both CID decoders overwrite a struct full of garbage completely: every
   field, the name's terminator and the bytes after it, and every padding
   byte (0), so that two decoded CIDs of the same register compare equal
   with memcmp. */
static void test_cid_clears_garbage(void **state)
{
	uint32_t r[4] = {0};
	struct mmchal_cid cid;
	bool pad[sizeof(struct mmchal_cid)];
	const unsigned char *b = (const unsigned char *)&cid;
	const char *name = "MMC04G";
	size_t npad = 0;

	(void)state;
	cid_padding(pad);
	for (size_t i = 0; i < sizeof(cid); i++)
		npad += pad[i];
	/* the layout this test relies on: at least one padding byte */
	assert_true(npad > 0u);

	reg128_put(r, 120, 8, 0x11);
	reg128_put(r, 104, 16, 0x0203);
	for (unsigned i = 0; i < 6; i++)
		reg128_put(r, 96 - 8 * i, 8, (uint8_t)name[i]);
	reg128_put(r, 48, 8, 0x42);
	reg128_put(r, 16, 32, 0x89abcdefu);
	reg128_put(r, 12, 4, 3);
	reg128_put(r, 8, 4, 2);
	memset(&cid, 0xa5, sizeof(cid));
	mmchal_card_decode_mmc_cid_(r, 0, &cid);
	assert_int_equal(cid.mid, 0x11);
	assert_int_equal(cid.oid, 0x0203);
	assert_memory_equal(cid.pnm, "MMC04G\0", 7);
	assert_int_equal(cid.prv, 0x42);
	assert_int_equal(cid.psn, 0x89abcdefu);
	assert_int_equal(cid.month, 3);
	assert_int_equal(cid.year, 1999);
	for (size_t i = 0; i < sizeof(cid); i++)
		if (pad[i])
			assert_int_equal(b[i], 0);

	/* the SD decoder: a 5-character name, pnm[5] the terminator, pnm[6] 0 */
	memset(r, 0, sizeof(r));
	reg128_put(r, 120, 8, 0x27);
	reg128_put(r, 104, 16, 0x5048);
	reg128_put(r, 96, 8, 'S');
	reg128_put(r, 88, 8, 'D');
	reg128_put(r, 80, 8, '1');
	reg128_put(r, 72, 8, '6');
	reg128_put(r, 64, 8, 'G');
	reg128_put(r, 56, 8, 0x30);
	reg128_put(r, 24, 32, 0x00c0ffeeu);
	reg128_put(r, 12, 8, 21);
	reg128_put(r, 8, 4, 12);
	memset(&cid, 0x5a, sizeof(cid));
	mmchal_card_decode_sd_cid_(r, &cid);
	assert_int_equal(cid.mid, 0x27);
	assert_int_equal(cid.oid, 0x5048);
	assert_memory_equal(cid.pnm, "SD16G\0\0", 7);
	assert_int_equal(cid.prv, 0x30);
	assert_int_equal(cid.psn, 0x00c0ffeeu);
	assert_int_equal(cid.year, 2021);
	assert_int_equal(cid.month, 12);
	for (size_t i = 0; i < sizeof(cid); i++)
		if (pad[i])
			assert_int_equal(b[i], 0);
}

static void test_sd_csd_v1(void **state)
{
	uint32_t r[4] = {0};
	struct mmchal_csd csd;

	(void)state;
	reg128_put(r, 126, 2, 0);
	reg128_put(r, 96, 8, 0x32);
	reg128_put(r, 84, 12, 0x5b5);
	reg128_put(r, 80, 4, 10);     /* 1024-byte READ_BL_LEN: a 2 GB SDSC */
	reg128_put(r, 62, 12, 4095u); /* C_SIZE */
	reg128_put(r, 47, 3, 7);      /* C_SIZE_MULT */
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), 0);
	assert_int_equal(csd.structure, 0);
	assert_int_equal(csd.tran_speed_hz, 25000000u);
	assert_int_equal(csd.ccc, 0x5b5);
	assert_int_equal(csd.read_bl_len, 10);
	/* 4096 x 2^9 x 1024 = 2 GiB */
	assert_int_equal(csd.capacity, 2147483648ull);
	assert_false(csd.perm_wp);
	assert_false(csd.tmp_wp);
	reg128_put(r, 12, 1, 1);
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), 0);
	assert_true(csd.tmp_wp);
	reg128_put(r, 13, 1, 1);
	reg128_put(r, 12, 1, 0);
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), 0);
	assert_true(csd.perm_wp);
	assert_false(csd.tmp_wp);
	/* READ_BL_LEN outside 9..11 is malformed */
	reg128_put(r, 80, 4, 8);
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), MMCHAL_EPROTO);
}

static void test_sd_csd_v2(void **state)
{
	uint32_t r[4] = {0};
	struct mmchal_csd csd;

	(void)state;
	reg128_put(r, 126, 2, 1);
	reg128_put(r, 112, 8, 0x0e);
	reg128_put(r, 96, 8, 0x5a);
	reg128_put(r, 80, 4, 9);
	reg128_put(r, 48, 22, 0x00ed1f); /* C_SIZE 60703: (60703 + 1) x 512 KiB */
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), 0);
	assert_int_equal(csd.structure, 1);
	assert_int_equal(csd.tran_speed_hz, 50000000u);
	assert_int_equal(csd.capacity, 60704ull * 524288ull);
	assert_int_equal(csd.erase_grp, 1);
	/* SDXC: the full 22-bit field */
	reg128_put(r, 48, 22, 0x3fffff);
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), 0);
	assert_int_equal(csd.capacity, 4194304ull * 524288ull);
	/* CSD v3 / reserved */
	reg128_put(r, 126, 2, 2);
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), MMCHAL_EPROTO);
	reg128_put(r, 126, 2, 3);
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), MMCHAL_EPROTO);
}

static void test_mmc_csd(void **state)
{
	uint32_t r[4] = {0};
	struct mmchal_csd csd;

	(void)state;
	reg128_put(r, 126, 2, 3);
	reg128_put(r, 122, 4, 4);
	reg128_put(r, 96, 8, 0x32);
	reg128_put(r, 80, 4, 9);
	reg128_put(r, 62, 12, 0xfff); /* the saturated size of a > 2 GB card */
	reg128_put(r, 47, 3, 7);
	reg128_put(r, 42, 5, 31);
	reg128_put(r, 37, 5, 31);
	reg128_put(r, 22, 4, 9);
	assert_int_equal(mmchal_card_decode_mmc_csd_(r, &csd), 0);
	assert_int_equal(csd.structure, 3);
	assert_int_equal(csd.spec_vers, 4);
	assert_int_equal(csd.tran_speed_hz, 26000000u);
	assert_int_equal(csd.capacity, 4096ull * 512ull * 512ull);
	assert_int_equal(csd.erase_grp, 1024);
	reg128_put(r, 22, 4, 10); /* 1 KiB write blocks: group counted in 512-byte sectors */
	assert_int_equal(mmchal_card_decode_mmc_csd_(r, &csd), 0);
	assert_int_equal(csd.erase_grp, 2048);
	reg128_put(r, 80, 4, 12);
	assert_int_equal(mmchal_card_decode_mmc_csd_(r, &csd), MMCHAL_EPROTO);
}

static void test_scr(void **state)
{
	uint8_t b[8] = {0x02, 0x35, 0x80, 0x03, 0, 0, 0, 0};
	struct mmchal_scr scr;

	(void)state;
	assert_int_equal(mmchal_card_decode_scr_(b, &scr), 0);
	assert_int_equal(scr.sd_spec, 2);
	assert_true(scr.sd_spec3);
	assert_int_equal(scr.bus_widths, 5);
	assert_int_equal(scr.erased_byte, 0x00);
	assert_true(scr.cmd23);
	b[1] = 0xb5; /* DATA_STAT_AFTER_ERASE = 1 */
	b[3] = 0x01; /* CMD20 only */
	assert_int_equal(mmchal_card_decode_scr_(b, &scr), 0);
	assert_int_equal(scr.erased_byte, 0xff);
	assert_false(scr.cmd23);
	b[1] = 0x34; /* no 1-bit bus */
	assert_int_equal(mmchal_card_decode_scr_(b, &scr), MMCHAL_EPROTO);
	b[1] = 0x35;
	b[0] = 0x12; /* SCR_STRUCTURE 1 */
	assert_int_equal(mmchal_card_decode_scr_(b, &scr), MMCHAL_EPROTO);
}

static void test_ext_csd(void **state)
{
	static uint8_t b[512];
	struct mmchal_ext_csd ext;

	(void)state;
	memset(b, 0, sizeof(b));
	b[EXT_CSD_REV] = 8;
	b[EXT_CSD_CARD_TYPE] = 0x57;
	b[212] = 0x00;
	b[213] = 0x00;
	b[214] = 0xa4;
	b[215] = 0x01; /* 0x01a40000 sectors = 13.1 GiB */
	b[EXT_CSD_GENERIC_CMD6_TIME] = 25;
	b[EXT_CSD_ERASED_MEM_CONT] = 1;
	b[EXT_CSD_BUS_WIDTH] = 2;
	b[EXT_CSD_HS_TIMING] = 3;
	b[EXT_CSD_HC_ERASE_GRP] = 1;
	b[EXT_CSD_ERASE_TIMEOUT] = 2;
	b[EXT_CSD_SEC_FEATURE] = 0x15;
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), 0);
	assert_int_equal(ext.rev, 8);
	assert_int_equal(ext.card_type, 0x57);
	assert_int_equal(ext.sec_count, 0x01a40000u);
	assert_int_equal(ext.cmd6_time_ms, 250);
	assert_int_equal(ext.erased_byte, 0xff);
	assert_int_equal(ext.bus_width, 2);
	assert_int_equal(ext.hs_timing, 3);
	assert_int_equal(ext.hc_erase_grp, 1024);
	assert_int_equal(ext.erase_timeout_ms, 600);
	assert_true(ext.trim);
	/* before eMMC 4.5 GENERIC_CMD6_TIME is not defined: 500 ms */
	b[EXT_CSD_REV] = 5;
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), 0);
	assert_int_equal(ext.cmd6_time_ms, 500);
	b[EXT_CSD_REV] = 8;
	b[EXT_CSD_GENERIC_CMD6_TIME] = 0;
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), 0);
	assert_int_equal(ext.cmd6_time_ms, 500);
	/* a v4.2+ card without sectors */
	memset(&b[212], 0, 4);
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), MMCHAL_EPROTO);
	b[EXT_CSD_REV] = 1;
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), 0);
}

static void test_status(void **state)
{
	(void)state;
	assert_int_equal(mmchal_card_status_err_(0x900, R1_CMD_ERRORS), 0);
	assert_int_equal(mmchal_card_status_err_(R1_OUT_OF_RANGE | 0x900, R1_CMD_ERRORS),
			 MMCHAL_ERANGE);
	assert_int_equal(mmchal_card_status_err_(R1_ADDRESS_ERROR, R1_CMD_ERRORS), MMCHAL_ERANGE);
	assert_int_equal(mmchal_card_status_err_(R1_WP_VIOLATION, R1_CMD_ERRORS), MMCHAL_EROFS);
	assert_int_equal(mmchal_card_status_err_(R1_WP_ERASE_SKIP, R1_CMD_ERRORS), MMCHAL_EROFS);
	assert_int_equal(mmchal_card_status_err_(R1_ERASE_SEQ_ERROR, R1_CMD_ERRORS), MMCHAL_EILSEQ);
	assert_int_equal(mmchal_card_status_err_(R1_CARD_ECC_FAILED, R1_CMD_ERRORS), MMCHAL_EIO);
	assert_int_equal(mmchal_card_status_err_(R1_ERROR, R1_CMD_ERRORS), MMCHAL_EIO);
	/* bits of the previous command are not this command's error */
	assert_int_equal(mmchal_card_status_err_(R1_ILLEGAL_COMMAND, R1_CMD_ERRORS), 0);
	assert_int_equal(mmchal_card_status_err_(R1_COM_CRC_ERROR, R1_CMD_ERRORS), 0);
	assert_int_equal(mmchal_card_status_err_(R1_SWITCH_ERROR, R1_CMD_ERRORS), 0);
	assert_int_equal(mmchal_card_status_err_(R1_SWITCH_ERROR, R1_CMD_ERRORS | R1_SWITCH_ERROR),
			 MMCHAL_EILSEQ);
	assert_int_equal(mmchal_card_status_err_(R1_COM_CRC_ERROR, ~0u), MMCHAL_EIO);
}

/* A function-0 address space with a CIS at 0x1000 and one at 0x2000. */
static uint8_t cis_mem[0x3000];
static unsigned cis_reads;

/* ctx non-NULL: every read fails. Above the array every byte reads 0x80, a
   tuple code with a long body. */
static int cis_rd(void *ctx, uint32_t addr, uint8_t *v)
{
	cis_reads++;
	if (ctx)
		return MMCHAL_ETIMEDOUT;
	*v = addr < sizeof(cis_mem) ? cis_mem[addr] : 0x80;
	return 0;
}

static void cis_setup(void)
{
	/* common CIS: a null tuple, a vendor tuple, MANFID, FUNCE type 0, END */
	static const uint8_t fn0[] = {
		0x00,                               /* CISTPL_NULL */
		0x15, 0x03, 0x01, 0x00, 0x00,       /* CISTPL_VERS_1 (skipped) */
		0x20, 0x04, 0xd0, 0x02, 0x4d, 0xa9, /* MANFID 0x02d0 / 0xa94d */
		0x22, 0x04, 0x00, 0x00, 0x02, 0x32, /* FUNCE fn0: 512 bytes */
		0xff,
	};
	/* function CIS: FUNCE type 1 with TPLFE_MAX_BLK_SIZE 2048 at 12..13 */
	static const uint8_t fn1[] = {
		0x21, 0x02, 0x0c, 0x00,                         /* FUNCID */
		0x22, 0x2a, 0x01, 0x01, 0x20, 0,    0,    0, 0, /* FUNCE type 1 ... */
		0,    0,    0,    0,    0,    0x00, 0x08,       /* ... max block 0x0800 */
	};

	memset(cis_mem, 0, sizeof(cis_mem));
	memcpy(&cis_mem[0x1000], fn0, sizeof(fn0));
	memcpy(&cis_mem[0x2000], fn1, sizeof(fn1));
	/* the rest of the 0x2a-byte FUNCE body, then END */
	cis_mem[0x2000 + 4 + 2 + 0x2a] = 0xff;
	cis_reads = 0;
}

static void test_cis(void **state)
{
	struct mmchal_card_cis_ cis;

	(void)state;
	cis_setup();
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x1000, true, &cis), 0);
	assert_true(cis.manfid);
	assert_int_equal(cis.vendor, 0x02d0);
	assert_int_equal(cis.device, 0xa94d);
	assert_int_equal(cis.max_blk, 512);
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x2000, false, &cis), 0);
	assert_false(cis.manfid);
	assert_int_equal(cis.max_blk, 2048);
	/* a function FUNCE read as function 0 gives no block size */
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x2000, true, &cis), 0);
	assert_int_equal(cis.max_blk, 0);
}

static void test_cis_malformed(void **state)
{
	struct mmchal_card_cis_ cis;
	int dummy;

	(void)state;
	cis_setup();
	/* pointer outside the CIS area */
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x0100, true, &cis), MMCHAL_EPROTO);
	assert_int_equal(cis_reads, 0);
	/* a short MANFID */
	cis_mem[0x1007] = 0x03;
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x1000, true, &cis), MMCHAL_EPROTO);
	/* a chain of null tuples with no end is cut after a bounded walk */
	cis_setup();
	memset(&cis_mem[0x1000], 0, 0x800);
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x1000, true, &cis), MMCHAL_EPROTO);
	assert_in_range(cis_reads, 1, 64);
	/* a chain that runs off the end of the area is refused, not read */
	cis_setup();
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x17f00, true, &cis), MMCHAL_EPROTO);
	assert_int_equal(cis_reads, 4);
	/* a read error is passed on */
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, &dummy, 0x1000, true, &cis),
			 MMCHAL_ETIMEDOUT);
	/* link 0xff ends the chain */
	cis_setup();
	cis_mem[0x1001] = 0x20;
	cis_mem[0x1002] = 0xff;
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x1000, true, &cis), 0);
	assert_false(cis.manfid);
}

/* Reads of the last two bytes of the CIS area: a MANFID code and a link of
   4 at 0x17ffe..0x17fff; every other address reads as cis_rd() does. */
static int cis_rd_top(void *ctx, uint32_t addr, uint8_t *v)
{
	(void)ctx;
	if (addr == 0x17ffeu || addr == 0x17fffu) {
		cis_reads++;
		*v = addr == 0x17ffeu ? 0x20 : 0x04;
		return 0;
	}
	return cis_rd(NULL, addr, v);
}

/* A tuple whose body would lie past the end of the CIS area (0x17fff):
   the code and the link are read, the first body byte at 0x18000 is
   refused without a read, and nothing of the tuple is taken. */
static void test_cis_body_past_area_end(void **state)
{
	struct mmchal_card_cis_ cis;

	(void)state;
	cis_setup();
	memset(&cis, 0xa5, sizeof(cis));
	assert_int_equal(mmchal_card_cis_parse_(cis_rd_top, NULL, 0x17ffe, true, &cis),
			 MMCHAL_EPROTO);
	assert_int_equal(cis_reads, 2);
	assert_false(cis.manfid);
	assert_int_equal(cis.vendor, 0);
	assert_int_equal(cis.device, 0);
	assert_int_equal(cis.max_blk, 0);
}

/* ctx: how many reads succeed before every later one fails. */
static int cis_rd_until(void *ctx, uint32_t addr, uint8_t *v)
{
	unsigned *left = ctx;

	if (*left == 0u)
		return MMCHAL_EIO;
	(*left)--;
	return cis_rd(NULL, addr, v);
}

static void test_cis_read_error_at_each_kind(void **state)
{
	struct mmchal_card_cis_ cis;
	unsigned left;

	(void)state;
	/* reads: null code, VERS_1 code, its link, MANFID code, link, body ... */
	cis_setup();
	left = 2; /* the VERS_1 link read fails */
	assert_int_equal(mmchal_card_cis_parse_(cis_rd_until, &left, 0x1000, true, &cis),
			 MMCHAL_EIO);
	assert_int_equal(cis_reads, 2);
	cis_setup();
	left = 5; /* the first MANFID body byte fails */
	assert_int_equal(mmchal_card_cis_parse_(cis_rd_until, &left, 0x1000, true, &cis),
			 MMCHAL_EIO);
	assert_int_equal(cis_reads, 5);
	assert_false(cis.manfid);
	cis_setup();
	left = 1000;
	assert_int_equal(mmchal_card_cis_parse_(cis_rd_until, &left, 0x1000, true, &cis), 0);
	assert_int_equal(cis_reads, 1 + 2 + 6 + 6 + 1);
}

/* Range edges of the decoders: printable names, block lengths, FUNCE sizes. */
static void test_decode_edges(void **state)
{
	uint32_t r[4] = {0};
	struct mmchal_cid cid;
	struct mmchal_csd csd;
	struct mmchal_card_cis_ cis;

	(void)state;
	/* PNM bytes 0x1f, 0x20, 0x7e, 0x7f, 'A' */
	reg128_put(r, 96, 8, 0x1f);
	reg128_put(r, 88, 8, 0x20);
	reg128_put(r, 80, 8, 0x7e);
	reg128_put(r, 72, 8, 0x7f);
	reg128_put(r, 64, 8, 'A');
	mmchal_card_decode_sd_cid_(r, &cid);
	assert_string_equal(cid.pnm, "? ~?A");
	/* SD CSD v1 with READ_BL_LEN 8, 11 and 12; eMMC with 12 */
	memset(r, 0, sizeof(r));
	reg128_put(r, 80, 4, 8);
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), MMCHAL_EPROTO);
	reg128_put(r, 80, 4, 11);
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), 0);
	assert_int_equal(csd.capacity, 1ull << (2 + 11));
	reg128_put(r, 80, 4, 12);
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), MMCHAL_EPROTO);
	reg128_put(r, 126, 2, 3);
	assert_int_equal(mmchal_card_decode_mmc_csd_(r, &csd), MMCHAL_EPROTO);
	reg128_put(r, 80, 4, 11);
	assert_int_equal(mmchal_card_decode_mmc_csd_(r, &csd), 0);
	/* a common FUNCE of 3 bytes, a function FUNCE of 13: no block size */
	cis_setup();
	cis_mem[0x100d] = 0x03;
	cis_mem[0x1011] = 0xff;
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x1000, true, &cis), 0);
	assert_true(cis.manfid);
	assert_int_equal(cis.max_blk, 0);
	cis_setup();
	cis_mem[0x2005] = 13;
	cis_mem[0x2006 + 13] = 0xff;
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x2000, false, &cis), 0);
	assert_int_equal(cis.max_blk, 0);
	/* ... and 14 is enough */
	cis_setup();
	cis_mem[0x2005] = 14;
	cis_mem[0x2006 + 14] = 0xff;
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x2000, false, &cis), 0);
	assert_int_equal(cis.max_blk, 2048);
}

/* Every TRAN_SPEED code against the tables of SD Physical Layer 5.3.2 and
   JEDEC eMMC 7.3.12 (time values in tenths; eMMC reads 6 as 2.6 and 11 as
   5.2), transfer rate units 100 kbit/s to 100 Mbit/s, 4-7 reserved. */
static void test_tran_speed_every_code(void **state)
{
	static const uint32_t tenths_sd[16] = {0,  10, 12, 13, 15, 20, 25, 30,
					       35, 40, 45, 50, 55, 60, 70, 80};
	static const uint32_t tenths_mmc[16] = {0,  10, 12, 13, 15, 20, 26, 30,
						35, 40, 45, 52, 55, 60, 70, 80};
	static const uint32_t unit_khz[4] = {100, 1000, 10000, 100000};

	(void)state;
	for (uint32_t code = 0; code < 256u; code++) {
		uint32_t u = code & 7u, m = (code >> 3) & 15u;
		uint32_t sd = u > 3u ? 0u : unit_khz[u] * 100u * tenths_sd[m];
		uint32_t mmc = u > 3u ? 0u : unit_khz[u] * 100u * tenths_mmc[m];

		assert_int_equal(mmchal_card_tran_speed_hz_((uint8_t)code, false), sd);
		assert_int_equal(mmchal_card_tran_speed_hz_((uint8_t)code, true), mmc);
	}
}

/* Each field is exactly as wide as the register layout says: with every
   other bit set, a field one bit wider would show it. */
static void test_field_widths(void **state)
{
	uint32_t r[4];
	struct mmchal_cid cid;
	struct mmchal_csd csd;
	struct mmchal_scr scr;
	uint8_t b[8];

	(void)state;
	/* SD CID, all ones: reserved [23:20] must not reach the year, nor the
	   year's LSB the month */
	memset(r, 0xff, sizeof(r));
	memset(&cid, 0xa5, sizeof(cid));
	mmchal_card_decode_sd_cid_(r, &cid);
	assert_int_equal(cid.mid, 0xff);
	assert_int_equal(cid.psn, 0xffffffffu);
	assert_int_equal(cid.year, 2255);
	assert_int_equal(cid.month, 15);
	assert_string_equal(cid.pnm, "?????");
	assert_int_equal(cid.pnm[6], 0);
	/* eMMC CID, all ones */
	mmchal_card_decode_mmc_cid_(r, 0, &cid);
	assert_int_equal(cid.month, 15);
	assert_int_equal(cid.prv, 0xff);
	assert_string_equal(cid.pnm, "??????");
	/* the PSN ends below PRV's lowest bit */
	memset(r, 0, sizeof(r));
	reg128_put(r, 56, 1, 1);
	mmchal_card_decode_sd_cid_(r, &cid);
	assert_int_equal(cid.psn, 0);
	assert_int_equal(cid.prv, 1);
	/* eMMC year 2010 (code 13) is not moved by the REV 5 rule */
	memset(r, 0, sizeof(r));
	reg128_put(r, 8, 4, 13);
	mmchal_card_decode_mmc_cid_(r, 5, &cid);
	assert_int_equal(cid.year, 2010);
	reg128_put(r, 8, 4, 12);
	mmchal_card_decode_mmc_cid_(r, 5, &cid);
	assert_int_equal(cid.year, 2025);

	/* SD CSD v1: C_SIZE [73:62] with reserved bit 74 set, TRAN_SPEED LSB set */
	memset(r, 0, sizeof(r));
	reg128_put(r, 96, 8, 0x33);
	reg128_put(r, 84, 12, 0x5b5);
	reg128_put(r, 80, 4, 9);
	reg128_put(r, 74, 1, 1);
	reg128_put(r, 62, 12, 1);
	reg128_put(r, 47, 3, 0);
	memset(&csd, 0xa5, sizeof(csd));
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), 0);
	assert_int_equal(csd.ccc, 0x5b5);
	assert_int_equal(csd.capacity, 2u * 4u * 512u);
	assert_int_equal(csd.spec_vers, 0);
	/* SD CSD v2: C_SIZE [69:48] with reserved bit 70 set */
	memset(r, 0, sizeof(r));
	reg128_put(r, 126, 2, 1);
	reg128_put(r, 80, 4, 9);
	reg128_put(r, 70, 1, 1);
	reg128_put(r, 48, 22, 3);
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), 0);
	assert_int_equal(csd.capacity, 4ull << 19);
	/* all ones: CCC is 12 bits even when the decode fails */
	memset(r, 0xff, sizeof(r));
	assert_int_equal(mmchal_card_decode_sd_csd_(r, &csd), MMCHAL_EPROTO);
	assert_int_equal(csd.ccc, 0xfff);

	/* eMMC erase group: WRITE_BL_LEN [25:22] 10 and 11 scale it, 8, 9 and 12
	   do not; R2W_FACTOR's LSB (bit 26) is not part of it */
	{
		static const struct {
			uint32_t wbl, grp;
		} w[] = {{8, 4}, {9, 4}, {10, 8}, {11, 16}, {12, 4}};

		for (uint32_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
			memset(r, 0, sizeof(r));
			reg128_put(r, 80, 4, 9);
			reg128_put(r, 42, 5, 1); /* ERASE_GRP_SIZE 1: 2 */
			reg128_put(r, 37, 5, 1); /* ERASE_GRP_MULT 1: 2 */
			reg128_put(r, 22, 4, w[k].wbl);
			reg128_put(r, 26, 1, 1);
			assert_int_equal(mmchal_card_decode_mmc_csd_(r, &csd), 0);
			assert_int_equal(csd.erase_grp, w[k].grp);
		}
	}

	/* SCR: SD_SPEC3 is bit 7 of byte 2 only; a failed decode leaves zeros */
	memset(b, 0, sizeof(b));
	b[1] = 0x01;
	b[2] = 0x7f;
	memset(&scr, 0xa5, sizeof(scr));
	assert_int_equal(mmchal_card_decode_scr_(b, &scr), 0);
	assert_false(scr.sd_spec3);
	b[2] = 0x80;
	assert_int_equal(mmchal_card_decode_scr_(b, &scr), 0);
	assert_true(scr.sd_spec3);
	b[0] = 0x10;
	memset(&scr, 0xa5, sizeof(scr));
	assert_int_equal(mmchal_card_decode_scr_(b, &scr), MMCHAL_EPROTO);
	assert_int_equal(scr.sd_spec, 0);
	assert_false(scr.sd_spec3);
	assert_int_equal(scr.bus_widths, 0);
	assert_int_equal(scr.erased_byte, 0);
	assert_false(scr.cmd23);
}

/* Reads 0xff (CISTPL_END) at the last address of the CIS area. */
static int cis_rd_last(void *ctx, uint32_t addr, uint8_t *v)
{
	(void)ctx;
	cis_reads++;
	*v = addr == 0x17fffu ? 0xffu : 0x00u;
	return 0;
}

static void test_ext_csd_and_cis_edges(void **state)
{
	static uint8_t b[512];
	struct mmchal_ext_csd ext;
	struct mmchal_card_cis_ cis;

	(void)state;
	memset(b, 0, sizeof(b));
	b[EXT_CSD_SEC_COUNT] = 1;
	/* GENERIC_CMD6_TIME counts from REV 6 */
	b[EXT_CSD_REV] = 6;
	b[EXT_CSD_GENERIC_CMD6_TIME] = 5;
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), 0);
	assert_int_equal(ext.cmd6_time_ms, 50);
	b[EXT_CSD_REV] = 5;
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), 0);
	assert_int_equal(ext.cmd6_time_ms, 500);
	/* TRIM is bit 4 of SEC_FEATURE_SUPPORT only */
	b[EXT_CSD_SEC_FEATURE] = 0xef;
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), 0);
	assert_false(ext.trim);
	b[EXT_CSD_SEC_FEATURE] = 0x10;
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), 0);
	assert_true(ext.trim);
	/* SEC_COUNT 0 is refused from REV 2 on */
	b[EXT_CSD_SEC_COUNT] = 0;
	b[EXT_CSD_REV] = 2;
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), MMCHAL_EPROTO);
	b[EXT_CSD_REV] = 1;
	assert_int_equal(mmchal_card_decode_ext_csd_(b, &ext), 0);
	assert_int_equal(ext.sec_count, 0);

	/* lock errors are protocol errors */
	assert_int_equal(mmchal_card_status_err_(R1_CARD_IS_LOCKED, 0xffffffffu), MMCHAL_EILSEQ);
	assert_int_equal(mmchal_card_status_err_(R1_LOCK_UNLOCK_FAILED, 0xffffffffu),
			 MMCHAL_EILSEQ);
	assert_int_equal(mmchal_card_status_err_(R1_BLOCK_LEN_ERROR, 0xffffffffu), MMCHAL_EILSEQ);

	/* the last address of the area is still read */
	cis_reads = 0;
	assert_int_equal(mmchal_card_cis_parse_(cis_rd_last, NULL, 0x17fff, true, &cis), 0);
	assert_int_equal(cis_reads, 1);
	/* 63 null tuples and an END: the 64th tuple is still looked at */
	cis_setup();
	memset(&cis_mem[0x1000], 0, 63);
	cis_mem[0x1000 + 63] = 0xff;
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x1000, true, &cis), 0);
	assert_int_equal(cis_reads, 64);
	/* a long FUNCE body: 16 bytes are read, no more */
	cis_setup();
	assert_int_equal(mmchal_card_cis_parse_(cis_rd, NULL, 0x2000, false, &cis), 0);
	assert_int_equal(cis_reads, 2 + 2 + 16 + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bits),
		cmocka_unit_test(test_tran_speed),
		cmocka_unit_test(test_sd_cid),
		cmocka_unit_test(test_mmc_cid),
		cmocka_unit_test(test_cid_clears_garbage),
		cmocka_unit_test(test_sd_csd_v1),
		cmocka_unit_test(test_sd_csd_v2),
		cmocka_unit_test(test_mmc_csd),
		cmocka_unit_test(test_scr),
		cmocka_unit_test(test_ext_csd),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_cis),
		cmocka_unit_test(test_cis_malformed),
		cmocka_unit_test(test_cis_body_past_area_end),
		cmocka_unit_test(test_cis_read_error_at_each_kind),
		cmocka_unit_test(test_decode_edges),
		cmocka_unit_test(test_tran_speed_every_code),
		cmocka_unit_test(test_field_widths),
		cmocka_unit_test(test_ext_csd_and_cis_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
