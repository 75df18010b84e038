/**
 * @file
 * @brief Internal: the four memory functions a freestanding C compiler may
 *        call. The integrator's C library (or its own port) provides them;
 *        library code includes this instead of <string.h>.
 */
#ifndef MMCHAL_CORE_MEM_H
#define MMCHAL_CORE_MEM_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#endif /* MMCHAL_CORE_MEM_H */
