/*
 * The part of <string.h> a PORTABLE test may use. The runner provides it on
 * every target (riscv64-unknown-elf has no C library at all), so a test that
 * reaches for anything else fails to build on the targets, not only on one.
 */
#ifndef MMCHAL_TARGET_STRING_H
#define MMCHAL_TARGET_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

#endif /* MMCHAL_TARGET_STRING_H */
