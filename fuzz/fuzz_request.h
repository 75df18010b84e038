/*
 * The request-path fuzz target as a function, shared by the libFuzzer entry
 * (fuzz/fuzz_request.c) and the corpus replay test (tests/fuzz/).
 */
#ifndef MMCHAL_FUZZ_REQUEST_H
#define MMCHAL_FUZZ_REQUEST_H

#include <stddef.h>
#include <stdint.h>

/** Run one input; 0 when every property holds, else the first broken one. */
int fuzz_request_run(const uint8_t *data, size_t size);

/** The libFuzzer entry: aborts when fuzz_request_run() finds a broken property. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* MMCHAL_FUZZ_REQUEST_H */
