#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_FONT_FORMATS_H
#include "caller.h"
#include "galley_hooks.h"
#include "fonts.h"

/* Cairo asks FreeType for each glyph of a PDF several times: its metrics when a page is recorded,
 * its outline when the page is written (to learn that it is an outline glyph), and its metrics
 * again at the size of the font subset. Every FT_Load_Glyph of a CFF glyph runs its charstring,
 * ~10 µs for a Chinese ideograph: 8,500 loads for 2,900 ideographs in the CJK bench, the largest
 * single cost of that build, all on the drawing thread.
 *
 * Without hinting, FreeType's CFF driver makes a glyph in font units and then scales it: every
 * point, and the advances, by FT_MulFix with the size's scale; the bearings and extents come from
 * the scaled outline's control box; FT_Load_Glyph then scales the linear advances and applies the
 * face's transform. So a glyph loaded once in font units (FT_LOAD_NO_SCALE) gives every later
 * load of it, at any size and transform, exactly as FreeType would, for the price of the
 * multiplications. This hook does that for Cairo's loads (other callers go straight to FreeType):
 * the glyph in font units is kept per font file and face index, whichever FT_Face Cairo opened
 * it with, and the slot is filled as FreeType fills it.
 *
 * Only what that reasoning covers is served: CFF outlines, unhinted, no bitmaps, no colour
 * layers or SVG glyphs, no variations, no vertical layout, no rendering in the load. And each font is
 * checked: its first loads are made by FreeType too and compared field by field; a difference
 * (another FreeType, a font the reasoning misses) sends that font back to FreeType for good.
 * What is not reproduced: the bitmap size FreeType presets in the slot for a later
 * FT_Render_Glyph (left cleared; Cairo sizes its bitmaps from the outline itself). */

static FT_Error (*freetype_load)(FT_Face, FT_UInt, FT_Int32);
static pthread_once_t bound = PTHREAD_ONCE_INIT;
static void bind_freetype_once(void) { freetype_load = (FT_Error(*)(FT_Face, FT_UInt, FT_Int32))dlsym(RTLD_NEXT, "FT_Load_Glyph"); }
static void bind_freetype(void) { pthread_once(&bound, bind_freetype_once); }

static _Thread_local int reuse_enabled = 1;
void galley_set_glyph_reuse(int enabled) { reuse_enabled = enabled != 0; }
int galley_get_glyph_reuse(void) { return reuse_enabled; }

/* Flags a served load may carry: everything else (hinting, NO_SCALE, rendering, vertical
 * layout, pedantic errors, ...) goes to FreeType. The target mode only matters to hinting and
 * rendering. */
#define SERVED_FLAGS \
    (FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_IGNORE_GLOBAL_ADVANCE_WIDTH | FT_LOAD_NO_AUTOHINT | \
     FT_LOAD_CROP_BITMAP | FT_LOAD_COLOR | (FT_Int32)0xF0000)
#define RAW_FLAGS (FT_LOAD_NO_SCALE | FT_LOAD_LINEAR_DESIGN | FT_LOAD_IGNORE_TRANSFORM | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
/* Loads compared with FreeType's before a font is trusted. */
#define CHECKS 8

/* A glyph in font units, as FreeType's CFF driver makes it before scaling. */
struct raw_glyph {
    int n_points, n_contours, outline_flags;
    FT_Glyph_Metrics metrics;
    FT_Fixed linear_hori, linear_vert;
    FT_Vector *points; /* n_points, then tags and contours follow in the same block */
    char *tags;
    short *contours;
};

/* An FT_Face Cairo loads through, with the memory its slot's outline points to when served. */
struct face {
    FT_Face face;
    struct font *font;
    FT_Vector *points;
    char *tags;
    short *contours;
    int point_cap, contour_cap;
    struct face *next;
};

pthread_mutex_t galley_fonts_lock = PTHREAD_MUTEX_INITIALIZER;
static struct font *fonts;
static struct face *faces;

const char *galley_face_path(FT_Face face) {
    // A stream of the caller's own (FT_Open_Face with FT_OPEN_STREAM) may use `pathname` for
    // anything; FreeType's own file streams keep the path there, memory streams NULL.
    if (!face->stream || (face->face_flags & FT_FACE_FLAG_EXTERNAL_STREAM)) return NULL;
    return face->stream->pathname.pointer ? (const char *)face->stream->pathname.pointer : NULL;
}

/* Whether a face's glyphs are CFF outlines. */
int galley_face_is_cff(FT_Face face) {
    const char *format = FT_Get_Font_Format(face);
    return format && strcmp(format, "CFF") == 0;
}

/* Whether a load of this face with these flags is one the reasoning above covers. */
static int servable(FT_Face face, FT_Int32 flags) {
    if (!face || !face->size || !face->glyph || !galley_face_path(face)) return 0;
    if ((flags & ~SERVED_FLAGS) || !(flags & FT_LOAD_NO_HINTING)) return 0;
    if (!FT_IS_SCALABLE(face) || FT_HAS_MULTIPLE_MASTERS(face) || FT_HAS_COLOR(face) || FT_HAS_SVG(face)) return 0;
    if (FT_HAS_FIXED_SIZES(face) && !(flags & FT_LOAD_NO_BITMAP)) return 0;
    return !FT_IS_TRICKY(face) && galley_face_is_cff(face);
}

/* The record of a font file and face index (made on first sight); called under the lock. */
struct font *galley_font_record(const char *path, FT_Long index, FT_Long num_glyphs) {
    struct font *font;
    for (font = fonts; font; font = font->next)
        if (font->index == index && font->num_glyphs == num_glyphs && strcmp(font->path, path) == 0) return font;
    font = calloc(1, sizeof *font);
    if (!font) return NULL;
    font->path = strdup(path);
    font->glyphs = calloc((size_t)num_glyphs, sizeof *font->glyphs);
    font->used = calloc(((size_t)num_glyphs + 7) / 8, 1);
    if (!font->path || !font->glyphs || !font->used) {
        free(font->path);
        free(font->glyphs);
        free(font->used);
        free(font);
        return NULL;
    }
    font->index = index;
    font->num_glyphs = num_glyphs;
    font->next = fonts;
    fonts = font;
    return font;
}

/* The record of an FT_Face (made on first sight); called under the lock. */
static struct face *face_record(FT_Face face) {
    const char *path = galley_face_path(face);
    struct face *f;
    for (f = faces; f; f = f->next)
        if (f->face == face) break;
    // A face freed and another opened at the same address: rebind it to its font.
    if (f && f->font->index == face->face_index && f->font->num_glyphs == face->num_glyphs && strcmp(f->font->path, path) == 0)
        return f;
    struct font *font = galley_font_record(path, face->face_index, face->num_glyphs);
    if (!font) return NULL;
    if (!f) {
        f = calloc(1, sizeof *f);
        if (!f) return NULL;
        f->face = face;
        f->next = faces;
        faces = f;
    }
    f->font = font;
    return f;
}

/* The glyph in the slot, just loaded with RAW_FLAGS, copied into one block. */
static struct raw_glyph *capture(FT_GlyphSlot slot) {
    if (slot->format != FT_GLYPH_FORMAT_OUTLINE) return NULL;
    const FT_Outline *o = &slot->outline;
    size_t n = (size_t)o->n_points, c = (size_t)o->n_contours;
    struct raw_glyph *g = malloc(sizeof *g + n * sizeof(FT_Vector) + c * sizeof(short) + n);
    if (!g) return NULL;
    g->points = (FT_Vector *)(g + 1);
    g->contours = (short *)(g->points + n);
    g->tags = (char *)(g->contours + c);
    g->n_points = (int)n;
    g->n_contours = (int)c;
    g->outline_flags = o->flags;
    g->metrics = slot->metrics;
    g->linear_hori = slot->linearHoriAdvance;
    g->linear_vert = slot->linearVertAdvance;
    if (n) {
        memcpy(g->points, o->points, n * sizeof(FT_Vector));
        memcpy(g->tags, o->tags, n);
    }
    if (c) memcpy(g->contours, o->contours, c * sizeof(short));
    return g;
}

/* What FT_Load_Glyph puts in a slot, computed from the glyph in font units. */
struct served {
    FT_Glyph_Metrics metrics;
    FT_Fixed linear_hori, linear_vert;
    FT_Vector advance;
    FT_Outline outline;
};

/* FreeType's FT_MulFix (a·b / 65536, rounded half away from zero), inlined: a CJK glyph has
 * some 200 points. The checks compare the results with FreeType's own loads. */
static inline FT_Long mul_fix(FT_Long a, FT_Long b) {
    int64_t ab = (int64_t)a * (int64_t)b;
    return (FT_Long)((ab + 0x8000 - (ab < 0)) >> 16);
}

/* Scales and transforms `g` for `face`'s size and transform into `out`, whose outline arrays
 * have room for the glyph. */
static void serve(FT_Face face, const struct raw_glyph *g, struct served *out) {
    FT_Size_Metrics *size = &face->size->metrics;
    FT_Fixed xs = size->x_scale, ys = size->y_scale;
    FT_Outline *o = &out->outline;
    o->n_points = (short)g->n_points;
    o->n_contours = (short)g->n_contours;
    o->flags = g->outline_flags | (size->y_ppem < 24 ? FT_OUTLINE_HIGH_PRECISION : 0);
    for (int i = 0; i < g->n_points; i++) {
        o->points[i].x = mul_fix(g->points[i].x, xs);
        o->points[i].y = mul_fix(g->points[i].y, ys);
    }
    if (g->n_points) memcpy(o->tags, g->tags, (size_t)g->n_points);
    if (g->n_contours) memcpy(o->contours, g->contours, (size_t)g->n_contours * sizeof(short));

    FT_Glyph_Metrics *m = &out->metrics;
    *m = g->metrics;
    m->horiAdvance = FT_MulFix(g->metrics.horiAdvance, xs);
    m->vertAdvance = FT_MulFix(g->metrics.vertAdvance, ys);
    FT_BBox box;
    FT_Outline_Get_CBox(o, &box);
    m->width = box.xMax - box.xMin;
    m->height = box.yMax - box.yMin;
    m->horiBearingX = box.xMin;
    m->horiBearingY = box.yMax;
    if (FT_HAS_VERTICAL(face)) {
        m->vertBearingX = m->horiBearingX - m->horiAdvance / 2;
        m->vertBearingY = FT_MulFix(g->metrics.vertBearingY, ys);
    }
    out->linear_hori = FT_MulDiv(g->linear_hori, xs, 64);
    out->linear_vert = FT_MulDiv(g->linear_vert, ys, 64);
    out->advance.x = m->horiAdvance;
    out->advance.y = 0;

    FT_Matrix matrix;
    FT_Vector delta;
    FT_Get_Transform(face, &matrix, &delta);
    int identity = matrix.xx == 0x10000 && matrix.yy == 0x10000 && matrix.xy == 0 && matrix.yx == 0;
    if (!identity || delta.x || delta.y) {
        FT_Outline_Transform(o, &matrix);
        FT_Outline_Translate(o, delta.x, delta.y);
        FT_Vector_Transform(&out->advance, &matrix);
    }
}

/* Whether FreeType's slot holds what `s` says. */
static int same(const FT_GlyphSlot slot, const struct served *s) {
    const FT_Outline *a = &slot->outline, *b = &s->outline;
    if (slot->format != FT_GLYPH_FORMAT_OUTLINE || memcmp(&slot->metrics, &s->metrics, sizeof s->metrics)) return 0;
    if (slot->linearHoriAdvance != s->linear_hori || slot->linearVertAdvance != s->linear_vert) return 0;
    if (slot->advance.x != s->advance.x || slot->advance.y != s->advance.y) return 0;
    if (slot->lsb_delta || slot->rsb_delta || slot->num_subglyphs) return 0;
    if (a->n_points != b->n_points || a->n_contours != b->n_contours || a->flags != b->flags) return 0;
    if (a->n_points && (memcmp(a->points, b->points, (size_t)a->n_points * sizeof(FT_Vector)) || memcmp(a->tags, b->tags, (size_t)a->n_points)))
        return 0;
    return !a->n_contours || !memcmp(a->contours, b->contours, (size_t)a->n_contours * sizeof(short));
}

/* Room for `g` in the face's own outline memory. */
static int reserve(struct face *f, const struct raw_glyph *g) {
    if (g->n_points > f->point_cap) {
        int cap = g->n_points < 256 ? 256 : g->n_points;
        FT_Vector *p = realloc(f->points, (size_t)cap * sizeof(FT_Vector));
        if (!p) return 0;
        f->points = p;
        char *t = realloc(f->tags, (size_t)cap);
        if (!t) return 0;
        f->tags = t;
        f->point_cap = cap;
    }
    if (g->n_contours > f->contour_cap) {
        int cap = g->n_contours < 64 ? 64 : g->n_contours;
        short *c = realloc(f->contours, (size_t)cap * sizeof(short));
        if (!c) return 0;
        f->contours = c;
        f->contour_cap = cap;
    }
    return 1;
}

/* Compares FreeType's load of `gid` (now in the slot) with what would be served; called on a
 * font's first loads. */
static int check(FT_Face face, const struct raw_glyph *g) {
    struct served s;
    FT_Vector *points = malloc(((size_t)g->n_points + 1) * sizeof(FT_Vector));
    char *tags = malloc((size_t)g->n_points + 1);
    short *contours = malloc(((size_t)g->n_contours + 1) * sizeof(short));
    int ok = 0;
    if (points && tags && contours) {
        s.outline.points = points;
        s.outline.tags = tags;
        s.outline.contours = contours;
        serve(face, g, &s);
        ok = same(face->glyph, &s);
    }
    free(points);
    free(tags);
    free(contours);
    return ok;
}

/* Fills the face's slot as FreeType's FT_Load_Glyph would. */
static void fill(FT_Face face, struct face *f, const struct raw_glyph *g, FT_UInt gid) {
    FT_GlyphSlot slot = face->glyph;
    struct served s;
    s.outline.points = f->points;
    s.outline.tags = f->tags;
    s.outline.contours = f->contours;
    serve(face, g, &s);
    slot->glyph_index = gid;
    slot->format = FT_GLYPH_FORMAT_OUTLINE;
    slot->metrics = s.metrics;
    slot->linearHoriAdvance = s.linear_hori;
    slot->linearVertAdvance = s.linear_vert;
    slot->advance = s.advance;
    slot->outline = s.outline;
    slot->lsb_delta = slot->rsb_delta = 0;
    slot->num_subglyphs = 0;
    slot->subglyphs = NULL;
    slot->control_data = NULL;
    slot->control_len = 0;
    // The slot may still own a bitmap from an earlier render: FreeType frees it on its next
    // load; its size is cleared as FreeType clears it before a load.
    slot->bitmap.width = slot->bitmap.rows = 0;
    slot->bitmap.pitch = 0;
    slot->bitmap.pixel_mode = 0;
    slot->bitmap_left = slot->bitmap_top = 0;
}

FT_Error galley_load_glyph(FT_Face face, FT_UInt gid, FT_Int32 flags) {
    bind_freetype();
    if (!face || gid >= (FT_UInt)face->num_glyphs || !galley_face_path(face) || !galley_face_is_cff(face))
        return freetype_load(face, gid, flags);
    pthread_mutex_lock(&galley_fonts_lock);
    struct face *f = face_record(face);
    struct font *font = f ? f->font : NULL;
    // Every glyph Cairo loads is one it may embed (see cff.c), served or not.
    if (font) font->used[gid / 8] |= (unsigned char)(1u << (gid % 8));
    struct raw_glyph *g = font && font->state >= 0 ? font->glyphs[gid] : NULL;
    int state = font ? font->state : -1;
    pthread_mutex_unlock(&galley_fonts_lock);
    if (!reuse_enabled || !servable(face, flags)) return freetype_load(face, gid, flags);
    if (state < 0) return freetype_load(face, gid, flags);
    if (!g) {
        FT_Error e = freetype_load(face, gid, RAW_FLAGS);
        if (e || !(g = capture(face->glyph))) return freetype_load(face, gid, flags);
        pthread_mutex_lock(&galley_fonts_lock);
        if (font->glyphs[gid]) {
            free(g);
            g = font->glyphs[gid];
        } else {
            __atomic_store_n(&font->glyphs[gid], g, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&galley_fonts_lock);
    }
    if (state == 0) {
        // Still being checked: FreeType loads it, and the two must agree.
        FT_Error e = freetype_load(face, gid, flags);
        int ok = !e && check(face, g);
        pthread_mutex_lock(&galley_fonts_lock);
        if (!ok) font->state = -1;
        else if (font->state == 0 && ++font->checks >= CHECKS) font->state = 1;
        pthread_mutex_unlock(&galley_fonts_lock);
        return e;
    }
    if (!reserve(f, g)) return freetype_load(face, gid, flags);
    fill(face, f, g, gid);
    return FT_Err_Ok;
}

/* Cairo's loads come here (the dynamic linker binds its FT_Load_Glyph calls to the executable's);
 * everyone else's go to FreeType. */
FT_Error FT_Load_Glyph(FT_Face face, FT_UInt gid, FT_Int32 flags) {
    bind_freetype();
    static _Atomic(void *) cairo_site = NULL;
    if (!galley_from_cairo(__builtin_return_address(0), &cairo_site)) return freetype_load(face, gid, flags);
    return galley_load_glyph(face, gid, flags);
}

/* A shaping thread's own FreeType, to load glyphs in font units ahead of Cairo. */
struct galley_glyph_loader {
    FT_Library library;
    struct opened {
        char *path;
        long index;
        FT_Face face; /* NULL: does not open, or not a font the hook serves */
    } *opened;
    int count, cap;
};

galley_glyph_loader *galley_glyph_loader_new(void) {
    bind_freetype();
    galley_glyph_loader *l = calloc(1, sizeof *l);
    if (l && FT_Init_FreeType(&l->library)) {
        free(l);
        return NULL;
    }
    return l;
}

void galley_glyph_loader_free(galley_glyph_loader *l) {
    if (!l) return;
    for (int i = 0; i < l->count; i++) {
        if (l->opened[i].face) FT_Done_Face(l->opened[i].face);
        free(l->opened[i].path);
    }
    free(l->opened);
    FT_Done_FreeType(l->library);
    free(l);
}

static FT_Face loader_face(galley_glyph_loader *l, const char *path, long index) {
    for (int i = 0; i < l->count; i++)
        if (l->opened[i].index == index && strcmp(l->opened[i].path, path) == 0) return l->opened[i].face;
    if (l->count == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        struct opened *o = realloc(l->opened, (size_t)cap * sizeof *o);
        if (!o) return NULL;
        l->opened = o;
        l->cap = cap;
    }
    char *copy = strdup(path);
    if (!copy) return NULL;
    FT_Face face = NULL;
    if (FT_New_Face(l->library, path, index, &face) == 0 && !servable(face, FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) {
        FT_Done_Face(face);
        face = NULL;
    }
    l->opened[l->count++] = (struct opened){copy, index, face};
    return face;
}

long galley_glyph_loader_prepare(galley_glyph_loader *l, const char *path, long index, const unsigned *gids, long n) {
    if (!l || !path || n <= 0) return 0;
    FT_Face face = loader_face(l, path, index);
    if (!face) return 0;
    pthread_mutex_lock(&galley_fonts_lock);
    struct font *font = galley_font_record(path, index, face->num_glyphs);
    int wanted = font && font->state >= 0;
    pthread_mutex_unlock(&galley_fonts_lock);
    if (!wanted) return 0;
    long made = 0;
    for (long i = 0; i < n; i++) {
        unsigned gid = gids[i];
        if (gid >= (unsigned)face->num_glyphs) continue;
        // Unlocked peek: a glyph already made (or being made by Cairo) is skipped; a race only
        // costs a load, the insert below keeps the first.
        if (__atomic_load_n(&font->glyphs[gid], __ATOMIC_ACQUIRE)) continue;
        struct raw_glyph *g;
        if (freetype_load(face, gid, RAW_FLAGS) || !(g = capture(face->glyph))) continue;
        pthread_mutex_lock(&galley_fonts_lock);
        if (font->glyphs[gid]) free(g);
        else {
            __atomic_store_n(&font->glyphs[gid], g, __ATOMIC_RELEASE);
            made++;
        }
        pthread_mutex_unlock(&galley_fonts_lock);
    }
    return made;
}

struct font *galley_find_font(const char *path, long index) {
    for (struct font *font = fonts; font; font = font->next)
        if (font->index == index && strcmp(font->path, path) == 0) return font;
    return NULL;
}

int galley_glyph_reuse_state(const char *path, long index) {
    pthread_mutex_lock(&galley_fonts_lock);
    struct font *font = galley_find_font(path, index);
    int state = font ? font->state : 2;
    pthread_mutex_unlock(&galley_fonts_lock);
    return state;
}

long galley_glyph_compare(const char *path, long index, double ppem, const double matrix[4], long first, long count) {
    bind_freetype();
    FT_Library library;
    FT_Face face;
    if (FT_Init_FreeType(&library)) return -1;
    if (FT_New_Face(library, path, index, &face)) {
        FT_Done_FreeType(library);
        return -1;
    }
    FT_Matrix m = {(FT_Fixed)(matrix[0] * 65536), (FT_Fixed)(matrix[1] * 65536), (FT_Fixed)(matrix[2] * 65536), (FT_Fixed)(matrix[3] * 65536)};
    FT_Vector delta = {5, -3};
    FT_Set_Transform(face, &m, &delta);
    const FT_Int32 flags = FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_IGNORE_GLOBAL_ADVANCE_WIDTH | FT_LOAD_COLOR;
    long differ = servable(face, flags) ? 0 : -2;
    // Square pixels, then pixels a quarter wider than tall (different x and y scales).
    for (int wide = 0; wide < 2 && differ >= 0; wide++) {
        FT_F26Dot6 height = (FT_F26Dot6)(ppem * 64 + 0.5);
        FT_Set_Char_Size(face, wide ? height * 5 / 4 : height, height, 72, 72);
        for (long gid = first; gid < first + count && gid < face->num_glyphs; gid++) {
            if (freetype_load(face, (FT_UInt)gid, RAW_FLAGS)) continue;
            struct raw_glyph *g = capture(face->glyph);
            if (!g) continue;
            if (freetype_load(face, (FT_UInt)gid, flags) || !check(face, g)) differ++;
            free(g);
        }
    }
    FT_Done_Face(face);
    FT_Done_FreeType(library);
    return differ;
}

