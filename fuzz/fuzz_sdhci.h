/*
 * The SDHCI fuzz target as a function, shared by the libFuzzer entry
 * (fuzz/fuzz_sdhci.c) and the corpus replay test (tests/fuzz/test_fuzz_sdhci.c).
 */
#ifndef MMCHAL_FUZZ_SDHCI_H
#define MMCHAL_FUZZ_SDHCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Bytes of the fixed header (configuration, requests) before the register stream. */
#define FUZZ_SDHCI_HDR 32u

/** What one input reached; the replay test asserts that the seeds reach these. */
struct fuzz_sdhci_result {
	unsigned int mode;     /**< DMA mode the backend resolved (enum mmchal_sdhci_dma) */
	unsigned int cmd_ok;   /**< requests without data that ended with 0 */
	unsigned int read_ok;  /**< data reads that ended with 0 */
	unsigned int write_ok; /**< data writes that ended with 0 */
	unsigned int dma_ok;   /**< data requests that ended with 0 and moved by DMA */
	unsigned int pio_ok;   /**< data requests that ended with 0 and moved through the port */
};

/** What the fake controller is asked for, for an oracle (seed generation). */
struct fuzz_sdhci_view {
	uint32_t off;           /**< byte offset of the register read */
	unsigned int width;     /**< bytes, 2 or 4 */
	uint32_t written;       /**< the last value written at this offset and width (0: none) */
	uint16_t cmd;           /**< the last Command register value written */
	uint32_t arg;           /**< its argument */
	uint32_t data_left;     /**< bytes of the current PIO data phase not moved yet */
	bool data;              /**< a data phase was started by the last command */
	unsigned int int_reads; /**< Interrupt Status reads since the last command */
};

/** An oracle: the value of one register read, instead of the input's. */
typedef uint32_t (*fuzz_sdhci_oracle_fn)(void *ctx, const struct fuzz_sdhci_view *v);

/**
 * Run one input; 0 when every property holds, else the number of the first
 * broken one. @p res (may be NULL) gets what the input reached.
 */
int fuzz_sdhci_run(const uint8_t *data, size_t size, struct fuzz_sdhci_result *res);

/**
 * Seed generation: run the header @p hdr (::FUZZ_SDHCI_HDR bytes) with every
 * register read answered by @p fn, and store the answers, in input order, in
 * @p rec (at most @p cap bytes; *@p len set). Header + record replay the run.
 */
int fuzz_sdhci_record(const uint8_t *hdr, fuzz_sdhci_oracle_fn fn, void *ctx, uint8_t *rec,
		      size_t cap, size_t *len, struct fuzz_sdhci_result *res);

/** The libFuzzer entry: aborts when fuzz_sdhci_run() finds a broken property. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* MMCHAL_FUZZ_SDHCI_H */
