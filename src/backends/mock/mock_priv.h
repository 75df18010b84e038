/**
 * @file
 * @brief Internal: what the parts of the mock backend share (the controller
 *        side in mock.c and mock_data.c, the card models in mock_card.c,
 *        mock_sd.c, mock_mmc.c and mock_sdio.c).
 *
 * Locking: none; every function runs inside a backend op or a test-side call
 * of mock.h, which the caller serialises.
 */
#ifndef MMCHAL_BACKENDS_MOCK_PRIV_H
#define MMCHAL_BACKENDS_MOCK_PRIV_H

#include <mmchal/mock.h>

#include "core/mem.h"

#define MOCK_BLK 512u

/* Outcome of one command at the card. */
enum mock_res {
	MOCK_RESP = 0, /* the card answered; response in m->resp_pending */
	MOCK_SILENT,   /* no response, no error bit (not addressed, voltage mismatch) */
	MOCK_ILLEGAL,  /* no response, ILLEGAL_COMMAND set for the next response */
};

/* Where the data phase of the current command goes (m->src_kind). */
enum mock_src {
	MOCK_SRC_NONE = 0, /* the card moves no data */
	MOCK_SRC_IMAGE,    /* blocks of the image from m->src_off */
	MOCK_SRC_PAYLOAD,  /* m->payload (read) */
	MOCK_SRC_EXT_CSD,  /* m->ext_csd (read) */
	MOCK_SRC_SDIO,     /* SDIO CMD53: function m->src_fn at m->src_off */
};

/* Transfer phases (m->phase). */
enum mock_phase {
	MOCK_PH_CMD = 0,
	MOCK_PH_DATA,
	MOCK_PH_BUSY,
};

/* m->src_len of an open-ended multiple-block transfer. */
#define MOCK_LEN_OPEN UINT64_MAX

/* Bits of m->erase_seq. */
#define MOCK_ERASE_START 1u
#define MOCK_ERASE_END   2u

/* Register bit field writer: bit 0 is the LSB of the last byte (big-endian
   register images as the card sends them). */
void mock_put_bits_(uint8_t *reg, unsigned nbytes, unsigned hi, unsigned lo, uint64_t v);

/* Card side, common (mock_card.c). */
/* The CSD v1 size (SDSC, byte-addressed eMMC; READ_BL_LEN 9): capacity =
   (C_SIZE + 1) x 2^(C_SIZE_MULT + 2) x 512 (SD 4.10 section 5.3.2, JEDEC 5.1
   section 7.3). The C_SIZE_MULT of the smallest unit that keeps C_SIZE within
   its 12 bits, or -1 when that unit does not divide @p size (no CSD v1 states
   it exactly) or @p size is over 1 GiB. */
int mock_csd_v1_mult_(uint64_t size);
/* Writes C_SIZE and C_SIZE_MULT of m->cfg.image_size (a size with a multiplier). */
void mock_csd_v1_size_(struct mmchal_mock *m);
void mock_card_power_on_(struct mmchal_mock *m);
void mock_card_regs_(struct mmchal_mock *m);
int mock_card_cmd_(struct mmchal_mock *m, const struct mmchal_cmd *cmd);
uint32_t mock_r1_(struct mmchal_mock *m, uint32_t state);
void mock_resp_r1_(struct mmchal_mock *m, uint32_t state);
void mock_resp_r2_(struct mmchal_mock *m, const uint8_t reg[16]);
void mock_busy_enter_(struct mmchal_mock *m, uint32_t next_state);
bool mock_busy_tick_(struct mmchal_mock *m);
void mock_busy_end_(struct mmchal_mock *m);
void mock_card_data_end_(struct mmchal_mock *m, uint64_t bytes, bool auto_stop);
int mock_mem_cmd_(struct mmchal_mock *m, uint32_t op, uint32_t arg, uint32_t st);
bool mock_addr_(struct mmchal_mock *m, uint32_t arg, uint64_t *off);
bool mock_is_sd_(const struct mmchal_mock *m);

/* Card models. */
void mock_sd_regs_(struct mmchal_mock *m);
void mock_sd_reset_(struct mmchal_mock *m);
int mock_sd_cmd_(struct mmchal_mock *m, uint32_t op, uint32_t arg, bool app);
void mock_mmc_regs_(struct mmchal_mock *m);
void mock_mmc_reset_(struct mmchal_mock *m);
int mock_mmc_cmd_(struct mmchal_mock *m, uint32_t op, uint32_t arg);
void mock_sdio_regs_(struct mmchal_mock *m);
void mock_sdio_reset_(struct mmchal_mock *m);
int mock_sdio_cmd_(struct mmchal_mock *m, uint32_t op, uint32_t arg);
void mock_sdio_byte_(struct mmchal_mock *m, uint32_t fn, uint32_t addr, uint8_t *byte, bool write);

/* Controller side (mock_data.c). */
int mock_check_xfer_(const struct mmchal_mock *m, const struct mmchal_xfer *x);
int mock_move_data_(struct mmchal_mock *m, uint32_t *blocks);

#endif /* MMCHAL_BACKENDS_MOCK_PRIV_H */
