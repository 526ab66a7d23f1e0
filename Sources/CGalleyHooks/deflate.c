#define _GNU_SOURCE
#include <dlfcn.h>
#include <zlib.h>
#include "galley_hooks.h"

/* Cairo 1.16 compresses every PDF stream with zlib's default level (6) and offers no setting.
 * (The level is the calling thread's: Cairo compresses on the thread that draws or finishes the
 * surface, so documents written at once on several threads keep their own levels.)
 * The compression runs on the drawing thread, the one that bounds a build's time; on the
 * 114-page bench magazine level 1 makes the whole build ~15 % faster than level 6 for ~13 %
 * more bytes (`galley build --compression 9` trades back). Cairo's deflateInit_ call comes
 * here and the stream is set up with the chosen level, everything else zlib's own. */
static _Thread_local int galley_deflate_level = 1;

void galley_set_deflate_level(int level) { galley_deflate_level = level < 1 ? 1 : level > 9 ? 9 : level; }
int galley_get_deflate_level(void) { return galley_deflate_level; }

int deflateInit_(z_streamp strm, int level, const char *version, int stream_size) {
    (void)level;
    return deflateInit2_(strm, galley_deflate_level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, version,
                         stream_size);
}

/* A CFF font program barely compresses, and a CJK font's subset is megabytes of it (the 60 KB
 * bench poems embed 2 MB): level 1 gains 15 % at ~20 ms a megabyte, Huffman coding alone 10 %
 * in a third of the time. So at level 1 a stream that starts like a CFF font (header: major
 * version 1, minor 0, header size 4, offset size 1 to 4; Cairo writes the bare table) is coded
 * with Huffman codes only. The choice is made at the stream's first call, before zlib has
 * taken any input, when deflateParams only records the new parameters. */
static int looks_like_cff(const unsigned char *p, unsigned n) {
    return n >= 4 && p[0] == 1 && p[1] == 0 && p[2] == 4 && p[3] >= 1 && p[3] <= 4;
}

int deflate(z_streamp strm, int flush) {
    static int (*next)(z_streamp, int);
    if (!next) next = (int (*)(z_streamp, int))dlsym(RTLD_NEXT, "deflate");
    if (strm->total_in == 0 && galley_deflate_level == 1 && strm->next_in && looks_like_cff(strm->next_in, strm->avail_in))
        deflateParams(strm, 1, Z_HUFFMAN_ONLY);
    return next(strm, flush);
}
