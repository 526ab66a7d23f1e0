#define _GNU_SOURCE
#include <langinfo.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "galley_hooks.h"

/* Cairo writes every number of a PDF through snprintf (`__snprintf_chk` in Debian's fortified
 * build): 300,000 "%d" and 30,000 "%f" for the 114-page bench magazine, each a trip through
 * glibc's whole printf machinery (and its multi-precision conversion for "%f"), ~7 % of the
 * drawing thread; a CJK document adds a "%0*x" per glyph. Those formats are written here
 * directly, with glibc's exact results: an integer ("%d", "%ld", and "%010ld", each object's
 * offset in the cross-reference table); hexadecimal ("%04x", "%0*x"); a fixed-point number
 * rounded to the nearest, "%f" and "%.*f" to at most 6 decimals (Cairo's 3-decimal numbers of
 * patterns and masks; a value within 1e-5 of a tie, where rounding the exact binary value
 * matters, and anything large, not finite or of another format goes to glibc); and "%.18f" of
 * zero, which Cairo asks for to count the zeros of small numbers. Every other call goes to
 * glibc unchanged. */

int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, va_list ap);

/* snprintf's result: the whole length, the copy cut to fit with its NUL. */
static int put(char *s, size_t maxlen, const char *text, int n) {
    if (maxlen > 0) {
        size_t k = (size_t)n < maxlen - 1 ? (size_t)n : maxlen - 1;
        memcpy(s, text, k);
        s[k] = 0;
    }
    return n;
}

/* An integer, zero-padded to `width` characters (the sign included, as printf's "0" flag does). */
static int format_int(char *s, size_t maxlen, long v, int width) {
    char b[24];
    char *p = b + sizeof b;
    unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (b + sizeof b - p < width - (v < 0) && p > b + 1) *--p = '0';
    if (v < 0) *--p = '-';
    return put(s, maxlen, p, (int)(b + sizeof b - p));
}

/* Lower-case hexadecimal, zero-padded to `width` digits. */
static int format_hex(char *s, size_t maxlen, unsigned int v, int width) {
    if (width < 0 || width > 16) return -1;
    char b[24];
    char *p = b + sizeof b;
    int digits = 0;
    do {
        *--p = "0123456789abcdef"[v & 15];
        v >>= 4;
        digits++;
    } while (v);
    while (digits < width) {
        *--p = '0';
        digits++;
    }
    return put(s, maxlen, p, (int)(b + sizeof b - p));
}

/* "%.{digits}f" of d (0 to 6 digits) when it can be written exactly as glibc would; false
 * otherwise. Below 1e6 the scaled value has at most 12 integer digits, so the 64-bit long
 * double product is within 6e-8 of the exact one: rounding it to the nearest agrees with
 * rounding the exact value unless that lies within 1e-5 of a half. */
static int format_fixed(char *s, size_t maxlen, double d, int digits, int *result) {
    static const long double scales[] = {1.0L, 10.0L, 100.0L, 1000.0L, 10000.0L, 100000.0L, 1000000.0L};
    if (digits < 0 || digits > 6 || !isfinite(d) || fabs(d) >= 1e6) return 0;
    const char *point = nl_langinfo(RADIXCHAR);  // a locale writing "1,5" is glibc's to do
    if (point[0] != '.' || point[1] != 0) return 0;
    long double x = fabsl((long double)d) * scales[digits];
    unsigned long long v = (unsigned long long)x;  // x >= 0: the cast is the floor
    long double fraction = x - (long double)v;
    if (fabsl(fraction - 0.5L) < 1e-5L) return 0;
    if (fraction > 0.5L) v += 1;
    char b[40];
    char *p = b + sizeof b;
    for (int i = 0; i < digits; i++) {
        *--p = (char)('0' + v % 10);
        v /= 10;
    }
    if (digits > 0) *--p = '.';
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (signbit(d)) *--p = '-';
    *result = put(s, maxlen, p, (int)(b + sizeof b - p));
    return 1;
}

/* Writes the call when its format is one of ours; false to leave it to glibc. */
static int format_fast(char *s, size_t maxlen, const char *f, va_list ap, int *result) {
    if (f[0] != '%') return 0;
    if (f[1] == 'd' && f[2] == 0) {
        *result = format_int(s, maxlen, va_arg(ap, int), 0);
        return 1;
    }
    if (f[1] == 'f' && f[2] == 0) return format_fixed(s, maxlen, va_arg(ap, double), 6, result);
    if (f[1] == 'l' && f[2] == 'd' && f[3] == 0) {
        *result = format_int(s, maxlen, va_arg(ap, long), 0);
        return 1;
    }
    if (strcmp(f, "%010ld") == 0) {
        *result = format_int(s, maxlen, va_arg(ap, long), 10);
        return 1;
    }
    if (strcmp(f, "%.*f") == 0) {
        int digits = va_arg(ap, int);
        return format_fixed(s, maxlen, va_arg(ap, double), digits, result);
    }
    if (strcmp(f, "%0*x") == 0) {
        int width = va_arg(ap, int);
        *result = format_hex(s, maxlen, va_arg(ap, unsigned int), width);
        return *result >= 0;
    }
    if (strcmp(f, "%04x") == 0) {
        *result = format_hex(s, maxlen, va_arg(ap, unsigned int), 4);
        return 1;
    }
    if (strcmp(f, "%.18f") == 0) {
        double d = va_arg(ap, double);
        if (d != 0) return 0;
        *result = signbit(d) ? put(s, maxlen, "-0.000000000000000000", 21) : put(s, maxlen, "0.000000000000000000", 20);
        return 1;
    }
    return 0;
}

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, ...) {
    va_list ap, fast;
    va_start(ap, format);
    va_copy(fast, ap);
    int result;
    // A destination smaller than claimed is glibc's to report (it aborts).
    if (!(slen >= maxlen && format && format_fast(s, maxlen, format, fast, &result)))
        result = __vsnprintf_chk(s, maxlen, flag, slen, format, ap);
    va_end(fast);
    va_end(ap);
    return result;
}

int galley_format_double(char *buffer, size_t size, const char *format, double d) {
    return __snprintf_chk(buffer, size, 1, size, format, d);
}

int galley_format_precision(char *buffer, size_t size, int digits, double d) {
    return __snprintf_chk(buffer, size, 1, size, "%.*f", digits, d);
}

int galley_format_int(char *buffer, size_t size, int v) { return __snprintf_chk(buffer, size, 1, size, "%d", v); }

int galley_format_offset(char *buffer, size_t size, long v) { return __snprintf_chk(buffer, size, 1, size, "%010ld", v); }

int galley_format_long(char *buffer, size_t size, long v) { return __snprintf_chk(buffer, size, 1, size, "%ld", v); }

int galley_format_hex(char *buffer, size_t size, int width, unsigned int v) {
    return width == 4 ? __snprintf_chk(buffer, size, 1, size, "%04x", v) : __snprintf_chk(buffer, size, 1, size, "%0*x", width, v);
}
