/*
 * Just enough printf for the runner's messages; there is no stdio on the
 * targets. Output goes through mmt_putc().
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "platform.h"

struct spec {
	int left;
	char pad;
	int width;
};

static int emit_padded(const struct spec *sp, const char *s, size_t len)
{
	int n = 0;
	int fill = sp->width > (int)len ? sp->width - (int)len : 0;

	if (!sp->left) {
		for (; fill > 0; fill--, n++)
			mmt_putc(sp->pad);
	}
	for (size_t i = 0; i < len; i++, n++)
		mmt_putc(s[i]);
	for (; fill > 0; fill--, n++)
		mmt_putc(' ');
	return n;
}

static int emit_number(const struct spec *sp, uintmax_t v, int negative, unsigned int base,
		       int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char buf[sizeof(uintmax_t) * 8 + 2];
	size_t pos = sizeof(buf);
	struct spec s = *sp;
	int n = 0;

	do {
		buf[--pos] = digits[v % base];
		v /= base;
	} while (v != 0);
	if (negative) {
		if (s.pad == '0') {
			/* The sign goes before zero padding: "-0012". */
			mmt_putc('-');
			n++;
			if (s.width > 0)
				s.width--;
		} else {
			buf[--pos] = '-';
		}
	}
	return n + emit_padded(&s, buf + pos, sizeof(buf) - pos);
}

static uintmax_t fetch_unsigned(va_list *ap, int lmod)
{
	switch (lmod) {
	case 'H':
		return (unsigned char)va_arg(*ap, unsigned int);
	case 'h':
		return (unsigned short)va_arg(*ap, unsigned int);
	case 'l':
		return va_arg(*ap, unsigned long);
	case 'L':
		return va_arg(*ap, unsigned long long);
	case 'z':
		return va_arg(*ap, size_t);
	case 'j':
		return va_arg(*ap, uintmax_t);
	case 't':
		return (uintmax_t)va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

static intmax_t fetch_signed(va_list *ap, int lmod)
{
	switch (lmod) {
	case 'H':
		return (signed char)va_arg(*ap, int);
	case 'h':
		return (short)va_arg(*ap, int);
	case 'l':
		return va_arg(*ap, long);
	case 'L':
		return va_arg(*ap, long long);
	case 'z':
		/* %zd: the signed type of size_t's width. */
		return (intmax_t)(ptrdiff_t)va_arg(*ap, size_t);
	case 'j':
		return va_arg(*ap, intmax_t);
	case 't':
		return va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, int);
	}
}

static int length_modifier(const char **pp)
{
	const char *p = *pp;
	int lmod = 0;

	if (*p == 'h') {
		lmod = 'h';
		if (*++p == 'h') {
			lmod = 'H';
			p++;
		}
	} else if (*p == 'l') {
		lmod = 'l';
		if (*++p == 'l') {
			lmod = 'L';
			p++;
		}
	} else if (*p == 'z' || *p == 'j' || *p == 't') {
		lmod = *p++;
	}
	*pp = p;
	return lmod;
}

static int convert(char conv, const struct spec *sp, int lmod, va_list *ap)
{
	char c;
	const char *s;
	intmax_t sv;

	switch (conv) {
	case 'c':
		c = (char)va_arg(*ap, int);
		return emit_padded(sp, &c, 1);
	case 's':
		s = va_arg(*ap, const char *);
		if (s == NULL)
			s = "(null)";
		return emit_padded(sp, s, __builtin_strlen(s));
	case 'p':
		mmt_putc('0');
		mmt_putc('x');
		return 2 + emit_number(sp, (uintptr_t)va_arg(*ap, void *), 0, 16, 0);
	case 'd':
	case 'i':
		sv = fetch_signed(ap, lmod);
		return emit_number(sp, sv < 0 ? 0 - (uintmax_t)sv : (uintmax_t)sv, sv < 0, 10, 0);
	case 'u':
		return emit_number(sp, fetch_unsigned(ap, lmod), 0, 10, 0);
	case 'x':
	case 'X':
		return emit_number(sp, fetch_unsigned(ap, lmod), 0, 16, conv == 'X');
	case '%':
		mmt_putc('%');
		return 1;
	default:
		/* Unknown conversion: show it rather than guess its argument. */
		mmt_putc('%');
		mmt_putc(conv);
		return 2;
	}
}

int mmt_vprintf(const char *fmt, va_list ap)
{
	va_list aq;
	int n = 0;

	va_copy(aq, ap);
	for (const char *p = fmt; *p != '\0'; p++) {
		struct spec sp = {0, ' ', 0};
		int lmod;

		if (*p != '%') {
			mmt_putc(*p);
			n++;
			continue;
		}
		p++;
		for (;; p++) {
			if (*p == '-')
				sp.left = 1;
			else if (*p == '0')
				sp.pad = '0';
			else
				break;
		}
		while (*p >= '0' && *p <= '9')
			sp.width = sp.width * 10 + (*p++ - '0');
		if (sp.left)
			sp.pad = ' ';
		lmod = length_modifier(&p);
		if (*p == '\0')
			break;
		n += convert(*p, &sp, lmod, &aq);
	}
	va_end(aq);
	return n;
}

int mmt_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = mmt_vprintf(fmt, ap);
	va_end(ap);
	return n;
}
