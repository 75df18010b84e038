/*
 * The SDIO card model against the SDIO facts of PROTOCOL.md (sections 1, 3
 * and 4): R4 / R5 / R6 layouts, the CCCR registers software may write (IOEx
 * and IORx, IENx, ABORT RES, bus interface, high speed), the CIS pointers,
 * FBR1's block size, CMD52 and CMD53 errors in R5, and the states in which an
 * I/O-only card stays silent. Then the card interrupt end to end, as a driver
 * sees it through the registers: CCCR 0x04/0x05 (SDIO Simplified
 * Specification 6.9), DAT1 in 1-bit and 4-bit mode (section 8), and the
 * controller's SDIO_MODE / SDIO_INFO1 / SDIO_INFO1_MASK (REF; Linux tmio).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

/* R5 flags (PROTOCOL.md section 1). */
#define R5_ILLEGAL      (1u << 14)
#define R5_ERROR        (1u << 11)
#define R5_FUNCTION     (1u << 9)
#define R5_OUT_OF_RANGE (1u << 8)
#define R5_STATE(r)     (((r) >> 12) & 3u)

/* CMD52 argument: [31] R/W, [30:28] function, [27] RAW, [25:9] address, [7:0] data. */
#define RD52(fn, addr)     (((uint32_t)(fn) << 28) | ((uint32_t)(addr) << 9))
#define WR52(fn, addr, v)  ((1u << 31) | RD52(fn, addr) | (uint32_t)(v))
#define RAW52(fn, addr, v) (WR52(fn, addr, v) | (1u << 27))
/* CMD53: [27] block mode, [26] incrementing, [8:0] count. */
#define CMD53(wr, fn, blk, inc, addr, n)                                             \
	(((uint32_t)(wr) << 31) | ((uint32_t)(fn) << 28) | ((uint32_t)(blk) << 27) | \
	 ((uint32_t)(inc) << 26) | ((uint32_t)(addr) << 9) | (uint32_t)(n))

/* The controller's SDIO registers (REF register map) and bits (Linux tmio_mmc.h). */
#define R_SDIO_MODE   0x34u
#define R_SDIO_INFO1  0x36u
#define R_SDIO_MASK   0x38u
#define IOIRQ         0x0001u /* TMIO_SDIO_STAT_IOIRQ; SDIO_MODE bit 0 enables it */
#define SDIO_MASK_ALL 0xc007u /* TMIO_SDIO_MASK_ALL, the mask's reset value */

/* CCCR 0x04 IENx: IENM bit 0, IEN1 bit 1; 0x05 INTx: INT1 bit 1; 0x06 RES bit 3. */
#define CCCR_IEN 0x04u
#define CCCR_INT 0x05u
#define IENM     0x01u
#define IEN1     0x02u
#define INT1     0x02u

static void open_sdio(struct drv *d)
{
	struct mmchal_sim_card_config cfg;

	assert_int_equal(drv_open(d, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SDIO, &cfg);
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cfg), 0);
	drv_ack(d, 0xffffffffu);
}

/* CMD5 until ready, CMD3, CMD7: the card in the transfer state. */
static void sdio_up(struct drv *d)
{
	drv_cmd(d, C_R3 | 5, 0x00ff8000u);
	mmchal_sim_advance(d->sim, 1000000u);
	assert_int_equal(drv_cmd(d, C_R3 | 5, 0x00ff8000u), 0);
	assert_int_equal(d->rsp[0] >> 31, 1);
	assert_int_equal(drv_cmd(d, C_R1 | 3, 0), 0);
	/* R6: RCA 1, state READY (2) in [12:9], READY_FOR_DATA [8]. */
	assert_int_equal(d->rsp[0], (1u << 16) | (1u << 9) | (1u << 8));
	assert_int_equal(drv_cmd(d, C_R1B | 7, 1u << 16), 0);
	assert_int_equal(mmchal_sim_card_state(d->sim), MMCHAL_SIM_ST_TRAN);
}

static uint8_t rd52(struct drv *d, uint32_t fn, uint32_t addr)
{
	assert_int_equal(drv_cmd(d, C_R1 | 52, RD52(fn, addr)), 0);
	assert_int_equal(d->rsp[0] & 0xff00u, 1u << 12); /* no flags, CMD state */
	return (uint8_t)d->rsp[0];
}

static void wr52(struct drv *d, uint32_t fn, uint32_t addr, uint8_t v)
{
	assert_int_equal(drv_cmd(d, C_R1 | 52, WR52(fn, addr, v)), 0);
	/* A write without RAW returns no data. */
	assert_int_equal(d->rsp[0], 1u << 12);
}

static void test_cccr_writable_bits(void **state)
{
	struct drv d;
	uint32_t w;
	enum mmchal_timing t;

	(void)state;
	open_sdio(&d);
	sdio_up(&d);
	/* CCCR 0x02 IOEx: only function 1 exists; IORx follows at once. */
	wr52(&d, 0, 0x02, 0xff);
	assert_int_equal(rd52(&d, 0, 0x02), 0x02);
	assert_int_equal(rd52(&d, 0, 0x03), 0x02);
	/* 0x04 IENx: master enable and function 1. */
	wr52(&d, 0, 0x04, 0xff);
	assert_int_equal(rd52(&d, 0, 0x04), 0x03);
	/* Read-only registers keep their values. */
	wr52(&d, 0, 0x00, 0x00);
	assert_int_equal(rd52(&d, 0, 0x00), 0x43);
	wr52(&d, 0, 0x08, 0x00);
	assert_int_equal(rd52(&d, 0, 0x08), 0x02);
	/* 0x07 bus interface: 10 = 4-bit, 00 = 1-bit; 01 and 11 are reserved. */
	wr52(&d, 0, 0x07, 0x02);
	assert_int_equal(rd52(&d, 0, 0x07), 0x02);
	wr52(&d, 0, 0x07, 0x01);
	assert_int_equal(rd52(&d, 0, 0x07), 0x02);
	mmchal_sim_card_bus(d.sim, &w, NULL);
	assert_int_equal(w, 4);
	wr52(&d, 0, 0x07, 0x03);
	assert_int_equal(rd52(&d, 0, 0x07), 0x02);
	wr52(&d, 0, 0x07, 0x00);
	assert_int_equal(rd52(&d, 0, 0x07), 0x00);
	mmchal_sim_card_bus(d.sim, &w, NULL);
	assert_int_equal(w, 1);
	/* 0x13: SHS (bit 0) is read-only and set; BSS = 1 selects high speed. */
	wr52(&d, 0, 0x13, 0x02);
	assert_int_equal(rd52(&d, 0, 0x13), 0x03);
	mmchal_sim_card_bus(d.sim, NULL, &t);
	assert_int_equal(t, MMCHAL_TIMING_SD_HS);
	wr52(&d, 0, 0x13, 0x00);
	assert_int_equal(rd52(&d, 0, 0x13), 0x01);
	mmchal_sim_card_bus(d.sim, NULL, &t);
	assert_int_equal(t, MMCHAL_TIMING_LEGACY);
	/* FN0 block size (0x10/0x11) and FBR1's (0x110/0x111) are read/write. */
	wr52(&d, 0, 0x10, 0x40);
	wr52(&d, 0, 0x11, 0x01);
	assert_int_equal(rd52(&d, 0, 0x10), 0x40);
	assert_int_equal(rd52(&d, 0, 0x11), 0x01);
	wr52(&d, 0, 0x111, 0x02);
	assert_int_equal(rd52(&d, 0, 0x111), 0x02);
	/* Read after write returns the register's new value. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, RAW52(0, 0x04, 0x01)), 0);
	assert_int_equal(d.rsp[0], (1u << 12) | 0x01u);
	drv_close(&d);
}

static void test_cis_pointers(void **state)
{
	struct drv d;
	uint32_t cis0, cis1;

	(void)state;
	open_sdio(&d);
	sdio_up(&d);
	/* CCCR 0x09-0x0b and FBR1 +0x09: pointers to the CIS, little endian. */
	cis0 = rd52(&d, 0, 0x09) | ((uint32_t)rd52(&d, 0, 0x0a) << 8) |
	       ((uint32_t)rd52(&d, 0, 0x0b) << 16);
	cis1 = rd52(&d, 0, 0x109) | ((uint32_t)rd52(&d, 0, 0x10a) << 8) |
	       ((uint32_t)rd52(&d, 0, 0x10b) << 16);
	assert_int_equal(cis0, 0x1000u);
	assert_int_equal(cis1, 0x1100u);
	/* FBR1 0x100: standard interface code 7 (SDIO 3.0 FBR). */
	assert_int_equal(rd52(&d, 0, 0x100), 0x07);
	/* The first tuple of each CIS: CISTPL_MANFID (0x20) and CISTPL_FUNCID (0x21). */
	assert_int_equal(rd52(&d, 0, cis0), 0x20);
	assert_int_equal(rd52(&d, 0, cis0 + 1), 0x04);
	assert_int_equal(rd52(&d, 0, cis1), 0x21);
	/* Each chain ends with CISTPL_END (0xff); past it and between: 0. */
	assert_int_equal(rd52(&d, 0, cis0 + 16), 0xff);
	assert_int_equal(rd52(&d, 0, cis0 + 17), 0x00);
	assert_int_equal(rd52(&d, 0, cis1 + 48), 0xff);
	assert_int_equal(rd52(&d, 0, cis1 + 49), 0x00);
	assert_int_equal(rd52(&d, 0, 0x0fff), 0x00);
	assert_int_equal(rd52(&d, 0, 0x10ff), 0x00);
	assert_int_equal(rd52(&d, 0, 0x1ff), 0x00);
	assert_int_equal(rd52(&d, 0, 0x200), 0x00);
	drv_close(&d);
}

static void test_abort_reset(void **state)
{
	struct drv d;
	uint32_t w;

	(void)state;
	open_sdio(&d);
	sdio_up(&d);
	wr52(&d, 0, 0x07, 0x02);
	wr52(&d, 0, 0x02, 0x02);
	/* ABORT without RES: nothing happens. */
	wr52(&d, 0, 0x06, 0x07);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	assert_int_equal(rd52(&d, 0, 0x02), 0x02);
	/* RES (bit 3): the card is reset, to idle, 1-bit, registers at reset values. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, WR52(0, 0x06, 0x08)), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	mmchal_sim_card_bus(d.sim, &w, NULL);
	assert_int_equal(w, 1);
	/* Idle: CMD52 gets no response. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, RD52(0, 0)), MMCHAL_ETIMEDOUT);
	sdio_up(&d);
	assert_int_equal(rd52(&d, 0, 0x02), 0x00);
	assert_int_equal(rd52(&d, 0, 0x07), 0x00);

	/* Before selection a RES write resets too (Linux sends it first, to any card). */
	assert_int_equal(drv_cmd(&d, C_R1 | 7, 0), MMCHAL_ETIMEDOUT); /* deselect */
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 52, WR52(0, 0x06, 0x01)), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 52, WR52(1, 0x06, 0x08)), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 52, WR52(0, 0x07, 0x08)), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 52, RD52(0, 0x06) | 0x08u), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 52, WR52(0, 0x06, 0x08)), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	drv_close(&d);
}

static void test_r5_errors(void **state)
{
	struct drv d;
	uint8_t *store;
	uint8_t buf[512];

	(void)state;
	open_sdio(&d);
	sdio_up(&d);
	store = mmchal_sim_card_store(d.sim, NULL);
	/* Function 1's buffer is 4096 bytes: 4095 is the last address. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, RAW52(1, 4095, 0x5a)), 0);
	assert_int_equal(d.rsp[0], (1u << 12) | 0x5au);
	assert_int_equal(store[4095], 0x5a);
	assert_int_equal(drv_cmd(&d, C_R1 | 52, WR52(1, 4096, 0x5a)), 0);
	assert_int_equal(d.rsp[0], (1u << 12) | R5_OUT_OF_RANGE);
	assert_int_equal(drv_cmd(&d, C_R1 | 52, RD52(1, 4096)), 0);
	assert_int_equal(d.rsp[0], (1u << 12) | R5_OUT_OF_RANGE);
	/* A write of function 1 without RAW returns no data. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, WR52(1, 7, 0x33)), 0);
	assert_int_equal(d.rsp[0], 1u << 12);
	assert_int_equal(store[7], 0x33);
	/* CMD53 to function 0 and to an absent function: FUNCTION_NUMBER. */
	assert_int_equal(drv_cmd(&d, C_R1 | 53, CMD53(0, 0, 0, 1, 0, 4)), 0);
	assert_int_equal(d.rsp[0], (1u << 12) | R5_FUNCTION);
	assert_int_equal(drv_cmd(&d, C_R1 | 53, CMD53(0, 3, 0, 1, 0, 4)), 0);
	assert_int_equal(d.rsp[0], (1u << 12) | R5_FUNCTION);
	/* Block mode with count 0 (until aborted) is not modelled: ERROR. */
	assert_int_equal(drv_cmd(&d, C_R1 | 53, CMD53(0, 1, 1, 1, 0, 0)), 0);
	assert_int_equal(d.rsp[0], (1u << 12) | R5_ERROR);
	/* Block mode past the end: 9 blocks of 512 at 0 need 4608 bytes. */
	assert_int_equal(drv_cmd(&d, C_R1 | 53, CMD53(0, 1, 1, 1, 0, 9)), 0);
	assert_int_equal(d.rsp[0], (1u << 12) | R5_OUT_OF_RANGE);
	/* A fixed address needs one byte only, even for 512 bytes at 4095. */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(drv_pio_read(&d, C_R1 | 53, CMD53(0, 1, 0, 0, 4095, 0), 512, 1, buf), 0);
	assert_int_equal(buf[0], 0x5a);
	assert_int_equal(buf[511], 0x5a);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	/* Byte mode, count 0 = 512 bytes, incrementing from 3584: the last 512 bytes. */
	for (unsigned i = 0; i < 512; i++)
		store[3584 + i] = (uint8_t)(i * 7u);
	assert_int_equal(drv_pio_read(&d, C_R1 | 53, CMD53(0, 1, 0, 1, 3584, 0), 512, 1, buf), 0);
	assert_memory_equal(buf, store + 3584, 512);
	assert_int_equal(drv_cmd(&d, C_R1 | C_DATA | C_READ | 53, CMD53(0, 1, 0, 1, 3585, 0)), 0);
	assert_int_equal(d.rsp[0], (1u << 12) | R5_OUT_OF_RANGE);
	drv_close(&d);
}

static void test_silent_states(void **state)
{
	struct drv d;

	(void)state;
	open_sdio(&d);
	/* Idle: CMD3, CMD7, CMD53 unanswered; memory commands never answered. */
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 1u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 53, CMD53(0, 1, 0, 1, 0, 4)), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 0, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R3 | 1, 0x40ff8080u), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 13, 1u << 16), MMCHAL_ETIMEDOUT);
	/* CMD5 with OCR 0 (probe) answers but does not start the power-up. */
	assert_int_equal(drv_cmd(&d, C_R3 | 5, 0), 0);
	assert_int_equal(d.rsp[0], (1u << 28) | 0x00ff8000u);
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(drv_cmd(&d, C_R3 | 5, 0x00ff8000u), 0);
	assert_int_equal(d.rsp[0] >> 31, 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	sdio_up(&d);
	/* Transfer state: CMD5 and CMD3 are not answered. */
	assert_int_equal(drv_cmd(&d, C_R3 | 5, 0x00ff8000u), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), MMCHAL_ETIMEDOUT);
	/* CMD7 of its own RCA while selected: no response, still selected. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 1u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	/* Deselect; in stand-by CMD3 gives the RCA again (R6, state STBY = 3). */
	assert_int_equal(drv_cmd(&d, C_R1 | 7, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 3, 0), 0);
	assert_int_equal(d.rsp[0], (1u << 16) | (3u << 9) | (1u << 8));
	/* CMD7 of another RCA in stand-by: no response, not selected. */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 2u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_STBY);
	assert_int_equal(drv_cmd(&d, C_R1 | 53, CMD53(0, 1, 0, 1, 0, 4)), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R3 | 5, 0x00ff8000u), MMCHAL_ETIMEDOUT);
	/* Selected again: R1 with the state it left (STBY). */
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 1u << 16), 0);
	assert_int_equal((d.rsp[0] >> 9) & 0xfu, MMCHAL_SIM_ST_STBY);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);
	drv_close(&d);
}

/*
 * Function 1's CIS byte for byte (SDIO spec 16.7; the FUNCE field offsets as
 * Linux sdio_cis.c reads them): CISTPL_FUNCID (0x21: SDIO card, 0x0c), then
 * CISTPL_FUNCE (0x22, 42 bytes): TPLFE_TYPE 1, FUNCTION_INFO 1, every field 0
 * but TPLFE_MAX_BLK_SIZE (data 12-13) = 512, the I/O OCR (data 14-17) =
 * 0x00ff8000 and TPLFE_ENABLE_TIMEOUT_VAL (data 28-29) = 10 (100 ms); then
 * CISTPL_END.
 */
static void test_cis1_exact(void **state)
{
	uint8_t want[50];
	struct drv d;

	(void)state;
	memset(want, 0, sizeof(want));
	want[0] = 0x21;
	want[1] = 0x02;
	want[2] = 0x0c;
	want[4] = 0x22;
	want[5] = 42;
	want[6 + 0] = 0x01;
	want[6 + 1] = 0x01;
	want[6 + 13] = 0x02; /* 512, little-endian */
	want[6 + 15] = 0x80; /* OCR 0x00ff8000, little-endian */
	want[6 + 16] = 0xff;
	want[6 + 28] = 10;
	want[48] = 0xff;
	open_sdio(&d);
	sdio_up(&d);
	for (uint32_t i = 0; i < sizeof(want); i++)
		assert_int_equal(rd52(&d, 0, 0x1100u + i), want[i]);
	drv_close(&d);
}

/*
 * Function 1 block size (FBR1 0x110/0x111, little-endian; 0 reads as the
 * default 512 here): a CMD53 block transfer moves blocks of exactly that size.
 * A byte-mode CMD53 whose data block (SD_SIZE) is not its count fails with a
 * negative CRC status and writes nothing, not even the bytes that fit.
 * CMD7 to another RCA in stand-by is not an illegal command (the selecting
 * R1 after it has no ILLEGAL_COMMAND, bit 22).
 */
static void test_fn1_block_size_and_lengths(void **state)
{
	static uint8_t out[2 * 512], in[2 * 512];
	uint8_t *store;
	struct drv d;

	(void)state;
	open_sdio(&d);
	mmchal_bus_wr16(&d.bus, R_HOSTMODE, 0x0101u);
	sdio_up(&d);
	store = mmchal_sim_card_store(d.sim, NULL);
	for (unsigned i = 0; i < sizeof(out); i++)
		out[i] = (uint8_t)(i * 3u + 1u);
	/* FBR1 block size 0: blocks of 512. */
	assert_int_equal(drv_pio_write(&d, C_R1 | C_MULTI | C_NOA12 | 53, CMD53(1, 1, 1, 1, 0, 2),
				       512, 2, out),
			 0);
	assert_memory_equal(store, out, sizeof(out));
	/* 0x0100 = 256 through the high byte. */
	wr52(&d, 0, 0x110, 0x00);
	wr52(&d, 0, 0x111, 0x01);
	assert_int_equal(drv_pio_read(&d, C_R1 | C_MULTI | C_NOA12 | 53, CMD53(0, 1, 1, 1, 0, 4),
				      256, 4, in),
			 0);
	assert_memory_equal(in, out, sizeof(in));
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_TRAN);

	/* A 16-byte write, then an 8-byte CMD53 sent as a 16-byte data block. */
	memset(store + 0x200, 0xee, 64);
	memset(out, 0xaa, 16);
	assert_int_equal(drv_pio_write(&d, C_R1 | 53, CMD53(1, 1, 0, 1, 0x300, 16), 16, 1, out), 0);
	memset(out, 0x55, 16);
	assert_int_equal(drv_pio_write(&d, C_R1 | 53, CMD53(1, 1, 0, 1, 0x200, 8), 16, 1, out),
			 S_CRC);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_ERR1) & 0x0800u, 0x0800u);
	for (unsigned i = 0; i < 64; i++)
		assert_int_equal(store[0x200 + i], 0xee);
	/* The same with the right size: exactly 8 bytes written. */
	drv_ack(&d, 0xffffffffu);
	/* The card waits in the data state: RES resets it (docs/sim.md section 5). */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, WR52(0, 0x06, 0x08)), MMCHAL_ETIMEDOUT);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	sdio_up(&d);
	assert_int_equal(drv_pio_write(&d, C_R1 | 53, CMD53(1, 1, 0, 1, 0x200, 8), 8, 1, out), 0);
	for (unsigned i = 0; i < 64; i++)
		assert_int_equal(store[0x200 + i], i < 8 ? 0x55 : 0xee);

	/* A read whose data block (SD_SIZE 16) is not its count (8): end-bit error. */
	assert_int_equal(drv_pio_read(&d, C_R1 | 53, CMD53(0, 1, 0, 1, 0x200, 8), 16, 1, in),
			 S_END);
	assert_int_equal(drv_cmd(&d, C_R1 | 52, WR52(0, 0x06, 0x08)), MMCHAL_ETIMEDOUT);
	sdio_up(&d);

	/* CMD7 to another RCA in stand-by: silent and legal. */
	assert_int_equal(drv_cmd(&d, C_R1 | 7, 0), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 2u << 16), MMCHAL_ETIMEDOUT);
	assert_int_equal(drv_cmd(&d, C_R1B | 7, 1u << 16), 0);
	assert_int_equal(d.rsp[0], (3u << 9) | (1u << 8));
	drv_close(&d);
}

/* ------------------------------------------------------------ card interrupt */

/*
 * An SDIO card in tran, every SD_INFO1/2 bit masked so that only the SDIO
 * interrupt can raise the line, and the line low.
 */
static void irq_open(struct drv *d)
{
	open_sdio(d);
	sdio_up(d);
	mmchal_bus_wr32(&d->bus, R_MASK1, 0xffffffffu);
	drv_ack(d, 0xffffffffu);
	assert_false(mmchal_sim_irq_line(d->sim));
	assert_int_equal(mmchal_bus_rd16(&d->bus, R_SDIO_INFO1), 0);
}

static uint16_t sdio_info(struct drv *d)
{
	return mmchal_bus_rd16(&d->bus, R_SDIO_INFO1);
}

/* The driver clears IOIRQ: 0 clears a bit, 1 keeps it (Linux tmio on SDHI). */
static void sdio_clear(struct drv *d)
{
	mmchal_bus_wr16(&d->bus, R_SDIO_INFO1, (uint16_t)~IOIRQ);
}

/* The card interrupt unmasked, then detected (the order of Linux tmio and the backend). */
static void sdio_detect_on(struct drv *d)
{
	mmchal_bus_wr16(&d->bus, R_SDIO_MASK, SDIO_MASK_ALL & ~IOIRQ);
	mmchal_bus_wr16(&d->bus, R_SDIO_MODE, 1);
}

/* CMD53 block read of two 512-byte blocks from function 1's address 0, to its response. */
static void start_read(struct drv *d)
{
	drv_setup_data(d, 512, 2, false);
	assert_int_equal(drv_cmd(d, C_R1 | C_DATA | C_READ | C_MULTI | C_NOA12 | 53,
				 CMD53(0, 1, 1, 1, 0, 2)),
			 0);
	assert_int_equal(d->rsp[0], 1u << 12);
	assert_int_equal(mmchal_sim_card_state(d->sim), MMCHAL_SIM_ST_DATA);
}

/* Wait for the next block in the buffer; stop before the last @p keep bytes of it. */
static void read_block(struct drv *d, uint8_t *buf, uint32_t keep)
{
	uint32_t w = drv_port_width(d);

	assert_true(drv_wait(d, S_BRE, 1000000000ull) & S_BRE);
	drv_ack(d, S_BRE);
	for (uint32_t i = 0; i + keep < 512u; i += w) {
		uint64_t v = drv_port_rd(d);

		for (uint32_t k = 0; k < w; k++)
			buf[i + k] = (uint8_t)(v >> (8u * k));
	}
}

/* The last @p w bytes of the block: the port read that ends the data phase. */
static void read_last(struct drv *d, uint8_t *buf, uint32_t w)
{
	uint64_t v = drv_port_rd(d);

	for (uint32_t k = 0; k < w; k++)
		buf[512u - w + k] = (uint8_t)(v >> (8u * k));
}

static void end_read(struct drv *d, const uint8_t *buf)
{
	uint32_t st = drv_wait(d, S_ACCESS_END, 1000000000ull);

	assert_int_equal(st & (S_ACCESS_END | S_ERRORS), S_ACCESS_END);
	drv_ack(d, S_ACCESS_END);
	assert_memory_equal(buf, mmchal_sim_card_store(d->sim, NULL), 1024);
	assert_int_equal(mmchal_sim_card_state(d->sim), MMCHAL_SIM_ST_TRAN);
}

static void fill_store(struct drv *d)
{
	uint8_t *store = mmchal_sim_card_store(d->sim, NULL);

	for (unsigned i = 0; i < 1024u; i++)
		store[i] = (uint8_t)(i * 13u + 5u);
}

/*
 * The card drives its interrupt only with both IENM and IEN1 set in CCCR
 * 0x04 (SDIO Simplified Specification 6.9), and the controller latches it
 * only while SDIO_MODE bit 0 is set (REF; Linux tmio). INTx (CCCR 0x05)
 * shows the pending source whatever the enables (an assumption of the model,
 * docs/sim.md section 5).
 */
static void test_sdio_irq_needs_enables(void **state)
{
	struct drv d;

	(void)state;
	irq_open(&d);
	assert_int_equal(rd52(&d, 0, CCCR_INT), 0x00);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), 0);
	assert_int_equal(rd52(&d, 0, CCCR_INT), INT1);
	/* The card signals, but SDIO_MODE is 0: nothing is latched. */
	wr52(&d, 0, CCCR_IEN, IENM | IEN1);
	mmchal_bus_wr16(&d.bus, R_SDIO_MASK, SDIO_MASK_ALL & ~IOIRQ);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	/* Detection on: latched at once, and the line is high. */
	mmchal_bus_wr16(&d.bus, R_SDIO_MODE, 1);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));
	/* Detection off again and cleared: it stays clear. */
	mmchal_bus_wr16(&d.bus, R_SDIO_MODE, 0);
	sdio_clear(&d);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	mmchal_bus_wr16(&d.bus, R_SDIO_MODE, 1);
	assert_int_equal(sdio_info(&d), IOIRQ);
	/* IEN1 alone, IENM alone, neither: the card keeps DAT1 high. */
	wr52(&d, 0, CCCR_IEN, IEN1);
	sdio_clear(&d);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	wr52(&d, 0, CCCR_IEN, IENM);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	wr52(&d, 0, CCCR_IEN, 0);
	assert_int_equal(sdio_info(&d), 0);
	/* Still pending at the card all along. */
	assert_int_equal(rd52(&d, 0, CCCR_INT), INT1);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	/* Both again: the interrupt is seen as soon as the CMD52 has set them. */
	wr52(&d, 0, CCCR_IEN, IENM | IEN1);
	assert_int_equal(rd52(&d, 0, CCCR_IEN), IENM | IEN1);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));
	drv_close(&d);
}

static unsigned irq_calls;

static void count_irq(void *arg)
{
	(void)arg;
	irq_calls++;
}

/*
 * SDIO_INFO1_MASK bit 0 set (as after reset: 0xc007, TMIO_SDIO_MASK_ALL)
 * keeps the card interrupt off the line, and the interrupt handler does not
 * run; the bit itself is set and reads so. Unmasked, the handler runs
 * irq_latency_ns after the line rose.
 */
static void test_sdio_irq_masked(void **state)
{
	struct mmchal_sim_config cfg;
	struct drv d;
	uint64_t t;

	(void)state;
	irq_open(&d);
	mmchal_sim_config_defaults(&cfg, MMCHAL_SIM_SOC_GEN3);
	irq_calls = 0;
	mmchal_sim_set_irq_handler(d.sim, count_irq, NULL);
	wr52(&d, 0, CCCR_IEN, IENM | IEN1);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SDIO_MASK), SDIO_MASK_ALL);
	mmchal_bus_wr16(&d.bus, R_SDIO_MODE, 1);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), 0);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_false(mmchal_sim_irq_line(d.sim));
	assert_int_equal(mmchal_sim_run(d.sim, mmchal_sim_now(d.sim) + 1000000u), 0);
	assert_int_equal(irq_calls, 0);
	assert_int_equal(sdio_info(&d), IOIRQ);
	/* Unmasked: the line rises with the write, the handler runs once the latency passed. */
	mmchal_bus_wr16(&d.bus, R_SDIO_MASK, SDIO_MASK_ALL & ~IOIRQ);
	t = mmchal_sim_now(d.sim);
	assert_true(mmchal_sim_irq_line(d.sim));
	assert_int_equal(irq_calls, 0);
	assert_int_equal(mmchal_sim_run(d.sim, t + 1000000u), MMCHAL_SIM_RUN_IRQ);
	assert_int_equal(irq_calls, 1);
	assert_int_equal(mmchal_sim_now(d.sim), t + cfg.irq_latency_ns);
	/* Masked again: the line drops, the bit stays. */
	mmchal_bus_wr16(&d.bus, R_SDIO_MASK, SDIO_MASK_ALL);
	assert_false(mmchal_sim_irq_line(d.sim));
	assert_int_equal(sdio_info(&d), IOIRQ);
	mmchal_sim_set_irq_handler(d.sim, NULL, NULL);
	drv_close(&d);
}

/*
 * The SDIO interrupt is level sensitive (SDIO Simplified Specification
 * section 8): while the card still signals, the host cannot clear the bit
 * (the read right after the clearing write shows it again, the line stays
 * high); once the function has withdrawn its source the bit stays set until
 * cleared, and then stays clear. Writing 1 sets nothing, and only bit 0 is
 * ever set.
 */
static void test_sdio_irq_level(void **state)
{
	struct drv d;

	(void)state;
	irq_open(&d);
	wr52(&d, 0, CCCR_IEN, IENM | IEN1);
	sdio_detect_on(&d);
	assert_int_equal(sdio_info(&d), 0);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), 0);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));
	sdio_clear(&d);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));
	mmchal_bus_wr16(&d.bus, R_SDIO_INFO1, 0);
	assert_int_equal(sdio_info(&d), IOIRQ);
	/* Raising an active source again changes nothing. */
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), 0);
	assert_int_equal(sdio_info(&d), IOIRQ);
	/* Withdrawn: no longer pending at the card, the bit waits for the host. */
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, false), 0);
	assert_int_equal(rd52(&d, 0, CCCR_INT), 0x00);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));
	sdio_clear(&d);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	mmchal_sim_advance(d.sim, 1000000u);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	mmchal_bus_wr16(&d.bus, R_SDIO_INFO1, 0xffffu);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	/* A new interrupt from the function. */
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), 0);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));
	drv_close(&d);
}

/*
 * 4-bit mode: DAT1 carries data, so the card signals its interrupt only
 * outside a data transfer (the interrupt period, SDIO Simplified
 * Specification section 8; the card has no S4MI in CCCR 0x08, so not between
 * blocks either). An interrupt raised during a CMD53 block read is not seen
 * while a block waits in the buffer, and is latched by the port read that
 * ends the data phase. One latched before the read stays (a latch does not
 * clear itself), but cleared during the data phase it is not set again until
 * the phase has ended.
 */
static void test_sdio_irq_4bit_data_phase(void **state)
{
	static uint8_t buf[1024];
	struct drv d;
	uint32_t w;

	(void)state;
	irq_open(&d);
	fill_store(&d);
	wr52(&d, 0, CCCR_IEN, IENM | IEN1);
	sdio_detect_on(&d);
	wr52(&d, 0, 0x07, 0x02);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x40eeu); /* 4-bit */
	w = drv_port_width(&d);

	start_read(&d);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), 0);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	read_block(&d, buf, 0);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	read_block(&d, buf + 512, w);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	read_last(&d, buf + 512, w);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));
	end_read(&d, buf);
	assert_int_equal(rd52(&d, 0, CCCR_INT), INT1);

	/* Latched before the read: kept; cleared in the data phase: clear to its end. */
	memset(buf, 0, sizeof(buf));
	start_read(&d);
	assert_int_equal(sdio_info(&d), IOIRQ);
	sdio_clear(&d);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	read_block(&d, buf, 0);
	read_block(&d, buf + 512, w);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	read_last(&d, buf + 512, w);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));
	end_read(&d, buf);
	drv_close(&d);
}

/*
 * 1-bit mode: DAT1 is the interrupt pin (SDIO Simplified Specification
 * section 8), so the card signals at any time, also during a data transfer:
 * raised in the middle of a CMD53 block read, the interrupt is latched at
 * once; the read completes undisturbed.
 */
static void test_sdio_irq_1bit_data_phase(void **state)
{
	static uint8_t buf[1024];
	struct drv d;
	uint32_t w;

	(void)state;
	irq_open(&d);
	fill_store(&d);
	wr52(&d, 0, CCCR_IEN, IENM | IEN1);
	sdio_detect_on(&d);
	assert_int_equal(rd52(&d, 0, 0x07), 0x00); /* 1-bit, as after sdio_up() */
	w = drv_port_width(&d);

	start_read(&d);
	read_block(&d, buf, 0);
	assert_int_equal(sdio_info(&d), 0);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), 0);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_DATA);
	/* Cleared in the data phase while still signalled: set again at once. */
	sdio_clear(&d);
	assert_int_equal(sdio_info(&d), IOIRQ);
	/* Withdrawn and cleared, so that the line is low while the driver waits. */
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, false), 0);
	sdio_clear(&d);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	read_block(&d, buf + 512, w);
	read_last(&d, buf + 512, w);
	end_read(&d, buf);
	assert_int_equal(sdio_info(&d), 0);
	drv_close(&d);
}

/*
 * What resets the interrupt. A controller soft reset does not touch the card:
 * SDIO_MODE, SDIO_INFO1 and SDIO_INFO1_MASK are back at 0, 0, 0xc007 and the
 * line is low, and the card's interrupt is latched again once the host turns
 * detection on. CCCR RES resets the card with function 1 (SDIO Simplified
 * Specification 6.9): the source and IENx are gone. A removal ends the
 * interrupt, and a card inserted again has none pending.
 */
static void test_sdio_irq_resets(void **state)
{
	struct mmchal_sim_card_config cfg;
	struct drv d;

	(void)state;
	irq_open(&d);
	wr52(&d, 0, CCCR_IEN, IENM | IEN1);
	sdio_detect_on(&d);
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), 0);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));

	mmchal_bus_wr16(&d.bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d.bus, R_SOFTRST, 1);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SDIO_MODE), 0);
	assert_int_equal(sdio_info(&d), 0);
	assert_int_equal(mmchal_bus_rd16(&d.bus, R_SDIO_MASK), SDIO_MASK_ALL);
	assert_false(mmchal_sim_irq_line(d.sim));
	/* The clock, bus width and masks as drv_open() set them. */
	mmchal_bus_wr16(&d.bus, R_CLK, 0x0180u);
	mmchal_bus_wr16(&d.bus, R_OPTION, 0x80eeu);
	mmchal_bus_wr32(&d.bus, R_MASK1, 0xffffffffu);
	assert_int_equal(rd52(&d, 0, CCCR_INT), INT1);
	assert_int_equal(rd52(&d, 0, CCCR_IEN), IENM | IEN1);
	assert_int_equal(sdio_info(&d), 0);
	sdio_detect_on(&d);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_true(mmchal_sim_irq_line(d.sim));

	/* RES: the card answers, then is idle without its interrupt. */
	assert_int_equal(drv_cmd(&d, C_R1 | 52, WR52(0, 0x06, 0x08)), 0);
	assert_int_equal(mmchal_sim_card_state(d.sim), MMCHAL_SIM_ST_IDLE);
	assert_int_equal(sdio_info(&d), IOIRQ);
	sdio_clear(&d);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	sdio_up(&d);
	assert_int_equal(rd52(&d, 0, CCCR_INT), 0x00);
	assert_int_equal(rd52(&d, 0, CCCR_IEN), 0x00);
	wr52(&d, 0, CCCR_IEN, IENM | IEN1);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));

	/* Removal while signalling: the bit waits for the host, then stays clear. */
	assert_int_equal(mmchal_sim_sdio_irq(d.sim, true), 0);
	assert_int_equal(sdio_info(&d), IOIRQ);
	assert_int_equal(mmchal_sim_card_remove(d.sim), 0);
	assert_int_equal(sdio_info(&d), IOIRQ);
	sdio_clear(&d);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	/* Inserted again: nothing pending, nothing enabled. */
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_SDIO, &cfg);
	assert_int_equal(mmchal_sim_card_insert(d.sim, &cfg), 0);
	assert_int_equal(sdio_info(&d), 0);
	sdio_up(&d);
	assert_int_equal(rd52(&d, 0, CCCR_INT), 0x00);
	assert_int_equal(rd52(&d, 0, CCCR_IEN), 0x00);
	wr52(&d, 0, CCCR_IEN, IENM | IEN1);
	assert_int_equal(sdio_info(&d), 0);
	assert_false(mmchal_sim_irq_line(d.sim));
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cccr_writable_bits),
		cmocka_unit_test(test_cis_pointers),
		cmocka_unit_test(test_abort_reset),
		cmocka_unit_test(test_r5_errors),
		cmocka_unit_test(test_silent_states),
		cmocka_unit_test(test_cis1_exact),
		cmocka_unit_test(test_fn1_block_size_and_lengths),
		cmocka_unit_test(test_sdio_irq_needs_enables),
		cmocka_unit_test(test_sdio_irq_masked),
		cmocka_unit_test(test_sdio_irq_level),
		cmocka_unit_test(test_sdio_irq_4bit_data_phase),
		cmocka_unit_test(test_sdio_irq_1bit_data_phase),
		cmocka_unit_test(test_sdio_irq_resets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
