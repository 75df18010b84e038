/**
 * @file
 * @brief Internal: a bounded string builder for text rendering without printf.
 *
 * Locking: none; the caller owns the buffer.
 */
#ifndef MMCHAL_CORE_STRBUF_H
#define MMCHAL_CORE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Bounded builder: appends until full, then only records that text was lost. */
struct mmchal_strbuf_ {
	char *buf;     /* destination, always NUL-terminated while size > 0 */
	size_t size;   /* bytes in buf */
	size_t len;    /* characters written (excluding NUL) */
	bool overflow; /* some text did not fit */
};

void mmchal_sb_init_(struct mmchal_strbuf_ *sb, char *buf, size_t size);
void mmchal_sb_putc_(struct mmchal_strbuf_ *sb, char c);
void mmchal_sb_puts_(struct mmchal_strbuf_ *sb, const char *s);
void mmchal_sb_putu_(struct mmchal_strbuf_ *sb, uint64_t v);
void mmchal_sb_puthex_(struct mmchal_strbuf_ *sb, uint64_t v);
/* Bytes as a decimal number followed by a binary unit when exact: "262144 (256 KiB)". */
void mmchal_sb_putsize_(struct mmchal_strbuf_ *sb, uint64_t bytes);

/*
 * Text number @p n of @p pool, a run of NUL-ended strings in enum order (the
 * form the core keeps its names and texts in: no pointer per string, and a
 * pool nothing names is dropped whole by the linker). The caller bounds @p n.
 */
const char *mmchal_text_nth_(const char *pool, unsigned int n);

#endif /* MMCHAL_CORE_STRBUF_H */
