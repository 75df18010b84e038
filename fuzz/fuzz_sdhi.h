/*
 * The SDHI fuzz target as a function, shared by the libFuzzer entry
 * (fuzz/fuzz_sdhi.c) and the corpus replay test (tests/fuzz/test_fuzz_sdhi.c).
 */
#ifndef MMCHAL_FUZZ_SDHI_H
#define MMCHAL_FUZZ_SDHI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Bytes of the fixed header (mode, configuration, requests) before the register stream. */
#define FUZZ_SDHI_HDR 40u

/** What one input reached; the replay test asserts that the seeds reach these. */
struct fuzz_sdhi_result {
	unsigned int cmd_ok;    /**< mode 1: requests without data that ended with 0 */
	unsigned int read_ok;   /**< mode 1: data reads that ended with 0 */
	unsigned int write_ok;  /**< mode 1: data writes that ended with 0 */
	unsigned int boot_init; /**< mode 2: mmchal_emmc_boot_init() returned 0 */
	unsigned int boot_read; /**< mode 2: mmchal_emmc_boot_read() returned 0 */
};

/** What the fake controller is asked for, for an oracle (seed generation). */
struct fuzz_sdhi_view {
	bool fill;          /**< a DMA fill byte of the boot scratch buffer, else a register read */
	uint32_t off;       /**< register read: byte offset in the window; fill: byte index */
	unsigned int width; /**< register read: bytes, 2, 4 or 8 */
	uint8_t shift;      /**< bus_shift of the window */
	uint16_t cmd;       /**< the last SD_CMD written */
	uint32_t arg;       /**< its argument */
	uint8_t ext[3];     /**< boot reader: the last CMD6 values of BUS_WIDTH, HS_TIMING
				 (EXT_CSD 183, 185) */
	uint32_t data_left; /**< bytes of the current PIO data phase not moved yet */
};

/** An oracle: the value of one read (or one fill byte), instead of the input's. */
typedef uint64_t (*fuzz_sdhi_oracle_fn)(void *ctx, const struct fuzz_sdhi_view *v);

/**
 * Run one input; 0 when every property holds, else the number of the first
 * broken one. @p res (may be NULL) gets what the input reached.
 */
int fuzz_sdhi_run(const uint8_t *data, size_t size, struct fuzz_sdhi_result *res);

/**
 * Seed generation: run the header @p hdr (::FUZZ_SDHI_HDR bytes) with every
 * register read answered by @p fn, and store the answers, in input order, in
 * @p rec (at most @p cap bytes; *@p len set). Header + record replay the run.
 */
int fuzz_sdhi_record(const uint8_t *hdr, fuzz_sdhi_oracle_fn fn, void *ctx, uint8_t *rec,
		     size_t cap, size_t *len, struct fuzz_sdhi_result *res);

/** The libFuzzer entry: aborts when fuzz_sdhi_run() finds a broken property. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* MMCHAL_FUZZ_SDHI_H */
