/*
 * The mem and str functions the library and PORTABLE tests may call; the
 * targets have no C library (riscv64-unknown-elf) or we choose not to link it
 * (arm-none-eabi), so the same code runs on both.
 *
 * Built with -fno-tree-loop-distribute-patterns (and -fno-builtin): otherwise
 * GCC recognises these loops as memset/memcpy and compiles them into calls to
 * themselves.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n-- != 0)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	/* Compare as integers: relational operators on unrelated objects are undefined. */
	if ((uintptr_t)d <= (uintptr_t)s || (uintptr_t)d >= (uintptr_t)s + n) {
		while (n-- != 0)
			*d++ = *s++;
	} else {
		while (n-- != 0)
			d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n-- != 0)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *pa = a;
	const unsigned char *pb = b;

	for (size_t i = 0; i < n; i++) {
		if (pa[i] != pb[i])
			return pa[i] < pb[i] ? -1 : 1;
	}
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	const unsigned char *pa = (const unsigned char *)a;
	const unsigned char *pb = (const unsigned char *)b;

	while (*pa != '\0' && *pa == *pb) {
		pa++;
		pb++;
	}
	return *pa < *pb ? -1 : *pa > *pb;
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *pa = (const unsigned char *)a;
	const unsigned char *pb = (const unsigned char *)b;

	for (; n != 0; n--, pa++, pb++) {
		if (*pa != *pb)
			return *pa < *pb ? -1 : 1;
		if (*pa == '\0')
			break;
	}
	return 0;
}
