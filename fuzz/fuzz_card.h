/*
 * The card-layer fuzz target as a function, shared by the libFuzzer entry
 * (fuzz/fuzz_card.c) and the corpus replay test (tests/fuzz/).
 */
#ifndef MMCHAL_FUZZ_CARD_H
#define MMCHAL_FUZZ_CARD_H

#include <stddef.h>
#include <stdint.h>

#include <mmchal/types.h>

/** What one run reached, for the replay test's seed assertions. */
struct fuzz_card_result {
	int init_rc;                /**< result of the first mmchal_card_init() */
	enum mmchal_card_type type; /**< info.type after it (UNKNOWN on failure) */
	int block_addr;             /**< info.block_addr after it */
	uint32_t io_ok;             /**< read, write and erase calls that returned 0 */
	uint64_t host_calls;        /**< host ops called during the run */
};

/**
 * Run one input; 0 when every property holds, else the source line of the
 * first broken one. @p res may be NULL.
 */
int fuzz_card_run(const uint8_t *data, size_t size, struct fuzz_card_result *res);

/** The libFuzzer entry: aborts when fuzz_card_run() finds a broken property. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* MMCHAL_FUZZ_CARD_H */
