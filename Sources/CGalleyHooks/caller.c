#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include "caller.h"
#include "galley_hooks.h"

/* Off until the executable turns them on: until then, and for good in any other program, every
 * hook passes each call straight to the library it stands in for. */
static atomic_int active = 0;

int galley_hooks_active(void) { return atomic_load_explicit(&active, memory_order_relaxed); }

/* The hooks rely on what Cairo does with zlib's and FreeType's functions, and glyphs.c and cff.c
 * on FreeType's glyph loading and CFF tables, as they are in these versions (Debian 12's). Any
 * other version may call them differently: the hooks then stay off. */
extern int cairo_version(void);
enum { CAIRO_VERIFIED = 11600 }; /* 1.16.0 */
static const char *const ZLIB_VERIFIED = "1.2.13";
static const int FREETYPE_VERIFIED[3] = {2, 12, 1};

int galley_hooks_activate(char *why, size_t size) {
    FT_Library library;
    FT_Int major = 0, minor = 0, patch = 0;
    if (FT_Init_FreeType(&library) == 0) {
        FT_Library_Version(library, &major, &minor, &patch);
        FT_Done_FreeType(library);
    }
    int cairo = cairo_version();
    if (cairo != CAIRO_VERIFIED) {
        snprintf(why, size, "Cairo %d.%d.%d is not the version the hooks were verified with (1.16.0)", cairo / 10000,
                 cairo / 100 % 100, cairo % 100);
        return 0;
    }
    if (major != FREETYPE_VERIFIED[0] || minor != FREETYPE_VERIFIED[1] || patch != FREETYPE_VERIFIED[2]) {
        snprintf(why, size, "FreeType %d.%d.%d is not the version the hooks were verified with (2.12.1)", major, minor, patch);
        return 0;
    }
    if (strcmp(zlibVersion(), ZLIB_VERIFIED) != 0) {
        snprintf(why, size, "zlib %s is not the version the hooks were verified with (%s)", zlibVersion(), ZLIB_VERIFIED);
        return 0;
    }
    atomic_store(&active, 1);
    return 1;
}

int galley_from_cairo(void *from, _Atomic(void *) *site) {
    if (!galley_hooks_active()) return 0;
    if (from == *site) return 1;
    Dl_info caller;
    if (!dladdr(from, &caller) || !caller.dli_fname || !strstr(caller.dli_fname, "libcairo")) return 0;
    *site = from;
    return 1;
}
