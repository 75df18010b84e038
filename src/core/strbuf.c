/**
 * @file
 * @brief Internal bounded string builder (no printf in library code).
 *
 * Locking: none; the caller owns the buffer.
 */
#include "core/strbuf.h"

void mmchal_sb_init_(struct mmchal_strbuf_ *sb, char *buf, size_t size)
{
	sb->buf = buf;
	sb->size = size;
	sb->len = 0;
	sb->overflow = false;
	if (size > 0)
		buf[0] = '\0';
}

void mmchal_sb_putc_(struct mmchal_strbuf_ *sb, char c)
{
	if (sb->overflow || sb->len + 1 >= sb->size) {
		sb->overflow = true;
		return;
	}
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void mmchal_sb_puts_(struct mmchal_strbuf_ *sb, const char *s)
{
	while (*s)
		mmchal_sb_putc_(sb, *s++);
}

void mmchal_sb_putu_(struct mmchal_strbuf_ *sb, uint64_t v)
{
	char tmp[20]; /* 2^64 - 1 has 20 digits */
	unsigned int n = 0;

	do {
		tmp[n++] = (char)('0' + (v % 10u));
		v /= 10u;
	} while (v != 0);
	while (n > 0)
		mmchal_sb_putc_(sb, tmp[--n]);
}

void mmchal_sb_puthex_(struct mmchal_strbuf_ *sb, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	int shift = 60;

	mmchal_sb_puts_(sb, "0x");
	while (shift > 0 && ((v >> shift) & 0xfu) == 0)
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		mmchal_sb_putc_(sb, digits[(v >> shift) & 0xfu]);
}

void mmchal_sb_putsize_(struct mmchal_strbuf_ *sb, uint64_t bytes)
{
	/* fixed-width names: no pointer per name */
	static const char units[][4] = {"KiB", "MiB", "GiB", "TiB"};
	uint64_t v = bytes;
	unsigned int u = 0;

	mmchal_sb_putu_(sb, bytes);
	if (bytes < 1024u || (bytes % 1024u) != 0)
		return;
	v /= 1024u;
	while (u + 1 < sizeof(units) / sizeof(units[0]) && v >= 1024u && (v % 1024u) == 0) {
		v /= 1024u;
		u++;
	}
	mmchal_sb_puts_(sb, " (");
	mmchal_sb_putu_(sb, v);
	mmchal_sb_putc_(sb, ' ');
	mmchal_sb_puts_(sb, units[u]);
	mmchal_sb_putc_(sb, ')');
}

const char *mmchal_text_nth_(const char *pool, unsigned int n)
{
	for (; n > 0; n--) {
		while (*pool != '\0')
			pool++;
		pool++;
	}
	return pool;
}
