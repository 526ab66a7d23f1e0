#ifndef GALLEY_HOOKS_H
#define GALLEY_HOOKS_H
/* Galley's hooks into libraries as Cairo calls them (zlib, snprintf), made by ELF symbol
 * interposition:
 * a function defined in the executable is the one the dynamic linker binds every library's call
 * of that name to. What a hook does not handle goes to the library's own function (dlsym
 * RTLD_NEXT).
 *
 * Cairo's PDF streams are compressed by libdeflate, each whole (see deflate.c). The level and
 * the limit are the calling thread's, taken when a stream is opened. */
#include <stddef.h>
#include <zlib.h>

/* The compression level, 1 (fastest, the default) to 9 (smallest). */
void galley_set_deflate_level(int level);
int galley_get_deflate_level(void);
/* Opens a stream compressed whole by libdeflate, as Cairo's deflateInit_ calls get: use it with
 * deflate and deflateEnd. */
int galley_deflate_init_whole(z_streamp strm);
/* Cairo's numbers go through snprintf (see format.c): these call it as Cairo does, for tests. */
int galley_format_double(char *buffer, size_t size, const char *format, double d);
int galley_format_int(char *buffer, size_t size, int v);
int galley_format_long(char *buffer, size_t size, long v);
/* "%04x" when width is 4, else "%0*x". */
int galley_format_hex(char *buffer, size_t size, int width, unsigned int v);
/* Input a stream holds before it carries on through zlib's streaming deflate (32 MB). */
void galley_set_deflate_limit(size_t bytes);
size_t galley_get_deflate_limit(void);
#endif
