#define _GNU_SOURCE
#include <dlfcn.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "caller.h"
#include "galley_hooks.h"

/* Cairo 1.16 compresses every PDF stream with zlib at its default level (6), offers no setting,
 * and does it on the drawing thread, the one that bounds a build. The streams it opens come
 * here instead (it calls deflateInit_, deflate and deflateEnd; defining them in the executable
 * makes the dynamic linker bind its calls to these; other libraries' streams stay zlib's) and
 * are compressed whole: at level 1, the default, by ISA-L's igzip at its level 3 (on page
 * text as small as libdeflate's level 1 and faster; a CJK font program, which barely
 * compresses, 2.4 times as fast as libdeflate and 3 times as fast as zlib's level 1, 1 %
 * bigger; tiny streams at its level 0, see below), at levels 2 to 9 by
 * libdeflate at that level (smaller than zlib's at any level).
 *
 * A stream's input is kept until deflate is asked to finish, then compressed in one call and
 * handed out as the caller's output space allows, zlib's contract (deflate may consume input
 * before it produces output). Past 32 MB of input (a huge image) the stream carries on through
 * zlib's own streaming deflate, so memory stays bounded. Streams made by deflateInit2_ (libpng)
 * are zlib's own: the hooks pass them through. */

static _Thread_local int galley_deflate_level = 1;
static _Thread_local size_t galley_deflate_limit = 32u << 20;

void galley_set_deflate_level(int level) { galley_deflate_level = level < 1 ? 1 : level > 9 ? 9 : level; }
int galley_get_deflate_level(void) { return galley_deflate_level; }
void galley_set_deflate_limit(size_t bytes) { galley_deflate_limit = bytes; }
size_t galley_get_deflate_limit(void) { return galley_deflate_limit; }

/* Each thread keeps its compression state (a PDF has hundreds of small streams, an image and its
 * soft mask per shadow, and making it costs as much as compressing a few kilobytes): libdeflate's
 * compressor for the level it last used, and igzip's working memory. Freed when the thread ends. */
struct engines {
    struct libdeflate_compressor *compressor;
    int level;
    unsigned char *igzip; /* ISAL_DEF_LVL3_DEFAULT bytes */
};
static pthread_key_t engines_key;
static pthread_once_t engines_key_once = PTHREAD_ONCE_INIT;
static _Thread_local struct engines *engines;

static void free_engines(void *p) {
    struct engines *e = p;
    if (e->compressor) libdeflate_free_compressor(e->compressor);
    free(e->igzip);
    free(e);
}
static void make_engines_key(void) { pthread_key_create(&engines_key, free_engines); }

static struct engines *thread_engines(void) {
    if (engines) return engines;
    pthread_once(&engines_key_once, make_engines_key);
    engines = calloc(1, sizeof *engines);
    if (engines) pthread_setspecific(engines_key, engines);
    return engines;
}

static struct libdeflate_compressor *thread_compressor(int level) {
    struct engines *e = thread_engines();
    if (!e) return NULL;
    if (e->compressor && e->level == level) return e->compressor;
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
    if (!c) return NULL;
    if (e->compressor) libdeflate_free_compressor(e->compressor);
    e->compressor = c;
    e->level = level;
    return c;
}

/* Tiny streams (the forms Cairo wraps images in), where building Huffman tables is all the
 * work, take igzip's level 0 with its default tables. */
enum { TINY_STREAM = 1024 };

/* `in` compressed by igzip into a zlib stream (level 3; 0 for tiny streams, see above); 0 if
 * it does not fit `space`. */
static size_t igzip_whole(const unsigned char *in, size_t len, unsigned char *out, size_t space) {
    struct engines *e = thread_engines();
    if (!e || len > 0xFFFFFFFFu) return 0;
    struct isal_zstream z;
    /* Cleared first: the stateless init leaves parts of the state (the level 0 hash table
     * among them) as they were on the stack, and the output then depended on what ran before,
     * so a page drawn while `watch` waited was not the bytes a cold build writes. */
    memset(&z, 0, sizeof z);
    isal_deflate_stateless_init(&z);
    if (len < TINY_STREAM) {
        z.level = 0;
    } else {
        if (!e->igzip && !(e->igzip = malloc(ISAL_DEF_LVL3_DEFAULT))) return 0;
        z.level = 3;
        z.level_buf = e->igzip;
        z.level_buf_size = ISAL_DEF_LVL3_DEFAULT;
    }
    z.gzip_flag = IGZIP_ZLIB;
    z.end_of_stream = 1;
    z.flush = NO_FLUSH;
    z.next_in = (uint8_t *)in;
    z.avail_in = (uint32_t)len;
    z.next_out = out;
    z.avail_out = space > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)space;
    if (isal_deflate_stateless(&z) != COMP_OK) return 0;
    return z.total_out;
}

/* Marks our streams: the first word of their state points here, while zlib's own state starts
 * with a pointer back to its z_stream. */
static const char sentinel = 0;

struct whole_stream {
    const char *mark;
    int level;
    size_t limit;
    unsigned char *in;
    size_t len, cap;
    unsigned char *out; /* the compressed stream, once finished */
    size_t out_len, out_pos;
    z_stream *zlib;       /* zlib's stream, once the input outgrew the limit */
    size_t pending;       /* held input not yet given to `zlib` */
};

/* zlib's own functions, looked up once. */
static int (*zlib_init)(z_streamp, int, const char *, int);
static int (*zlib_deflate)(z_streamp, int);
static int (*zlib_deflate_end)(z_streamp);
static pthread_once_t bound = PTHREAD_ONCE_INIT;

static void bind_zlib_once(void) {
    zlib_init = (int (*)(z_streamp, int, const char *, int))dlsym(RTLD_NEXT, "deflateInit_");
    zlib_deflate = (int (*)(z_streamp, int))dlsym(RTLD_NEXT, "deflate");
    zlib_deflate_end = (int (*)(z_streamp))dlsym(RTLD_NEXT, "deflateEnd");
}

static void bind_zlib(void) { pthread_once(&bound, bind_zlib_once); }

static struct whole_stream *ours(z_streamp strm) {
    if (!strm || !strm->state) return NULL;
    struct whole_stream *s = (struct whole_stream *)strm->state;
    return s->mark == &sentinel ? s : NULL;
}

int galley_deflate_init_whole(z_streamp strm) {
    if (!strm) return Z_STREAM_ERROR;
    bind_zlib();
    struct whole_stream *s = calloc(1, sizeof *s);
    if (!s) return Z_MEM_ERROR;
    s->mark = &sentinel;
    s->level = galley_deflate_level;
    s->limit = galley_deflate_limit;
    strm->state = (struct internal_state *)s;
    strm->total_in = strm->total_out = 0;
    strm->msg = NULL;
    strm->adler = 1;
    strm->data_type = Z_UNKNOWN;
    return Z_OK;
}

/* Cairo's streams are compressed whole; anyone else's (zlib's compress(), GIO) stay zlib's. */
int deflateInit_(z_streamp strm, int level, const char *version, int stream_size) {
    bind_zlib();
    static _Atomic(void *) cairo_site = NULL;
    if (!galley_from_cairo(__builtin_return_address(0), &cairo_site)) return zlib_init(strm, level, version, stream_size);
    if (!version || version[0] != ZLIB_VERSION[0] || stream_size != (int)sizeof(z_stream)) return Z_VERSION_ERROR;
    return galley_deflate_init_whole(strm);
}

/* Moves the stream to zlib's streaming deflate, its buffered input still to be given. */
static int fall_back(struct whole_stream *s) {
    s->zlib = calloc(1, sizeof *s->zlib);
    if (!s->zlib) return Z_MEM_ERROR;
    int r = deflateInit2_(s->zlib, s->level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, (int)sizeof(z_stream));
    if (r != Z_OK) {
        free(s->zlib);
        s->zlib = NULL;
        return r;
    }
    s->pending = s->len;
    return Z_OK;
}

/* One call of zlib's deflate on `input`, the caller's output space and totals kept in step. */
static int through_zlib(z_streamp strm, struct whole_stream *s, unsigned char *input, uInt *avail, int flush) {
    z_stream *z = s->zlib;
    z->next_in = input;
    z->avail_in = *avail;
    z->next_out = strm->next_out;
    z->avail_out = strm->avail_out;
    int r = zlib_deflate(z, flush);
    uInt made = strm->avail_out - z->avail_out;
    *avail = z->avail_in;
    strm->next_out += made;
    strm->avail_out -= made;
    strm->total_out += made;
    strm->adler = z->adler;
    return r;
}

static int deflate_fallback(z_streamp strm, struct whole_stream *s, int flush) {
    // The held input goes first; the caller's input waits until it is all taken.
    while (s->pending > 0) {
        if (strm->avail_out == 0) return Z_OK;
        uInt avail = s->pending > 0x40000000u ? 0x40000000u : (uInt)s->pending;
        uInt before = avail;
        int r = through_zlib(strm, s, s->in + (s->len - s->pending), &avail, Z_NO_FLUSH);
        s->pending -= before - avail;
        if (r != Z_OK && r != Z_BUF_ERROR) return r;
    }
    if (s->in) {
        free(s->in);
        s->in = NULL;
        s->len = s->cap = 0;
    }
    uInt avail = strm->avail_in;
    unsigned char *input = (unsigned char *)strm->next_in;
    int r = through_zlib(strm, s, input, &avail, flush);
    uInt used = strm->avail_in - avail;
    strm->next_in += used;
    strm->avail_in = avail;
    strm->total_in += used;
    return r;
}

int deflate(z_streamp strm, int flush) {
    bind_zlib();
    struct whole_stream *s = ours(strm);
    if (!s) return zlib_deflate(strm, flush);
    if (s->zlib) return deflate_fallback(strm, s, flush);
    if (!s->out) {
        // Keep the input.
        if (strm->avail_in > 0) {
            if (!strm->next_in) return Z_STREAM_ERROR;
            size_t need = s->len + strm->avail_in;
            if (need > s->limit || (flush != Z_NO_FLUSH && flush != Z_FINISH)) {
                // Too big to hold, or a flush point asked for: zlib's streaming deflate.
                int r = fall_back(s);
                if (r != Z_OK) return r;
                return deflate_fallback(strm, s, flush);
            }
            if (need > s->cap) {
                size_t cap = s->cap ? s->cap : 65536;
                while (cap < need) cap *= 2;
                unsigned char *grown = realloc(s->in, cap);
                if (!grown) return Z_MEM_ERROR;
                s->in = grown;
                s->cap = cap;
            }
            memcpy(s->in + s->len, strm->next_in, strm->avail_in);
            s->len = need;
            strm->total_in += strm->avail_in;
            strm->next_in += strm->avail_in;
            strm->avail_in = 0;
        } else if (flush != Z_NO_FLUSH && flush != Z_FINISH) {
            int r = fall_back(s);
            if (r != Z_OK) return r;
            return deflate_fallback(strm, s, flush);
        }
        if (flush != Z_FINISH) return Z_OK;
        // Compress it all.
        struct libdeflate_compressor *c = thread_compressor(s->level);
        if (!c) return Z_MEM_ERROR;
        size_t bound = libdeflate_zlib_compress_bound(c, s->len);
        s->out = malloc(bound ? bound : 1);
        if (!s->out) return Z_MEM_ERROR;
        s->out_len = s->level == 1 ? igzip_whole(s->in, s->len, s->out, bound) : 0;
        if (s->out_len == 0) s->out_len = libdeflate_zlib_compress(c, s->in, s->len, s->out, bound);
        strm->adler = libdeflate_adler32(1, s->in, s->len);
        free(s->in);
        s->in = NULL;
        s->len = s->cap = 0;
        if (s->out_len == 0) return Z_STREAM_ERROR;
    }
    if (strm->avail_in > 0) return Z_STREAM_ERROR;  // input after finishing
    size_t n = s->out_len - s->out_pos;
    if (n > strm->avail_out) n = strm->avail_out;
    if (n > 0) {
        memcpy(strm->next_out, s->out + s->out_pos, n);
        strm->next_out += n;
        strm->avail_out -= (uInt)n;
        strm->total_out += n;
        s->out_pos += n;
    }
    return s->out_pos == s->out_len ? Z_STREAM_END : Z_OK;
}

int deflateEnd(z_streamp strm) {
    bind_zlib();
    struct whole_stream *s = ours(strm);
    if (!s) return zlib_deflate_end(strm);
    if (s->zlib) {
        zlib_deflate_end(s->zlib);
        free(s->zlib);
    }
    free(s->in);
    free(s->out);
    free(s);
    strm->state = NULL;
    return Z_OK;
}
