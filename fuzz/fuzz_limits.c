/*
 * libFuzzer target: the input chooses a capability set (one byte per choice,
 * see tests/core/limits_props.c), which the limits derivation must either
 * reject with MMCHAL_EINVAL and nothing written, or turn into limits that
 * keep every rule. Any broken property aborts (a finding).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "limits_props.h"

struct bytes {
	const uint8_t *p;
	size_t n;
};

static uint64_t next_byte(void *ctx)
{
	struct bytes *b = ctx;

	if (b->n == 0)
		return 0;
	b->n--;
	return *b->p++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bytes b = {data, size};
	struct limits_case c;

	limits_gen(next_byte, &b, &c);
	if (limits_check(&c) != 0)
		abort();
	return 0;
}
