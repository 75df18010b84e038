/*
 * A 128-bit card register (CID, CSD) as the core holds an R2 response:
 * r[0] has bits 127:96, r[3] bits 31:0. Shared by the fake card and the
 * decoder and identification tests, which build registers field by field.
 */
#ifndef TESTS_CORE_REG128_H
#define TESTS_CORE_REG128_H

#include <stdint.h>

/* Put @p len bits of @p v at [start + len - 1 : start] of @p r. */
static inline void reg128_put(uint32_t r[4], unsigned start, unsigned len, uint32_t v)
{
	for (unsigned i = 0; i < len; i++) {
		unsigned b = start + i;
		uint32_t m = 1u << (b % 32u);

		if ((v >> i) & 1u)
			r[3u - b / 32u] |= m;
		else
			r[3u - b / 32u] &= ~m;
	}
}

#endif /* TESTS_CORE_REG128_H */
