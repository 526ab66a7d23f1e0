#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
#include "caller.h"
#include "galley_hooks.h"
#include "fonts.h"

/* Cairo embeds a CFF font by reading the font's whole CFF table into a buffer of its own (twice
 * per font: once to read its header, once to subset it) and taking from it the glyphs the PDF
 * uses. For Noto Serif CJK the table is 23 MB, 22 of them the charstrings of 65,535 glyphs, of
 * which a magazine uses a few thousand: copying it is the largest memory traffic of a Chinese
 * build. So Cairo is given a compact table instead: the same bytes, except that every glyph
 * Cairo has not loaded (it loads each glyph it draws, see glyphs.c) has an empty charstring.
 * Cairo's subset of it is byte for byte the subset of the real table. Only CID-keyed fonts (the
 * large CJK ones) are compacted.
 *
 * The CFF format (Adobe TN 5176): a header, the Name, Top DICT, String and Global Subr INDEXes,
 * then blocks found through offsets from the start of the table: charset, Encoding, FDSelect,
 * CharStrings (an INDEX of one charstring per glyph), FDArray (an INDEX of font DICTs) and the
 * Private DICTs (each with its local Subrs INDEX, at an offset relative to the DICT). The
 * compact table keeps every block where it was except that the CharStrings INDEX shrinks, so
 * the offsets of blocks after it shrink by as much; they are rewritten in place, in the same
 * number of bytes. Anything unexpected (CFF2, several fonts in one table, an offset into the
 * charstrings, an offset that no longer fits its bytes) leaves the table as it is. */

static FT_Error (*freetype_load_table)(FT_Face, FT_ULong, FT_Long, FT_Byte *, FT_ULong *);
static pthread_once_t bound = PTHREAD_ONCE_INIT;
static void bind_once(void) {
    freetype_load_table = (FT_Error(*)(FT_Face, FT_ULong, FT_Long, FT_Byte *, FT_ULong *))dlsym(RTLD_NEXT, "FT_Load_Sfnt_Table");
}

static _Thread_local int compact_enabled = 1;
void galley_set_cff_compaction(int enabled) { compact_enabled = enabled != 0; }

#define TAG_CFF FT_MAKE_TAG('C', 'F', 'F', ' ')
/* Tables smaller than this are given whole: compaction would save little. */
#define COMPACT_MIN (1ul << 20)

/* Reads `length` bytes of the table at `offset` into a new buffer. */
static unsigned char *read_part(FT_Face face, unsigned long offset, unsigned long length) {
    unsigned char *b = malloc(length ? length : 1);
    FT_ULong n = length;
    if (b && length && freetype_load_table(face, TAG_CFF, (FT_Long)offset, b, &n)) {
        free(b);
        return NULL;
    }
    return b;
}

/* An INDEX at `p` of `data` (length `size`): its count, offset size, first data byte - 1 and end. */
struct index {
    unsigned count, offsize;
    unsigned long offsets; /* where the offset array starts */
    unsigned long base;    /* offsets are relative to this (the byte before the data) */
    unsigned long end;
};

static unsigned long read_offset(const unsigned char *p, unsigned size) {
    unsigned long v = 0;
    for (unsigned i = 0; i < size; i++) v = v << 8 | p[i];
    return v;
}

static int parse_index(const unsigned char *data, unsigned long size, unsigned long p, struct index *x) {
    if (p + 2 > size) return 0;
    x->count = (unsigned)data[p] << 8 | data[p + 1];
    if (x->count == 0) {
        x->offsize = 0;
        x->offsets = x->base = p + 2;
        x->end = p + 2;
        return 1;
    }
    if (p + 3 > size) return 0;
    x->offsize = data[p + 2];
    if (x->offsize < 1 || x->offsize > 4) return 0;
    x->offsets = p + 3;
    unsigned long array_end = x->offsets + ((unsigned long)x->count + 1) * x->offsize;
    if (array_end > size) return 0;
    x->base = array_end - 1;
    x->end = x->base + read_offset(data + x->offsets + (unsigned long)x->count * x->offsize, x->offsize);
    return x->end <= size;
}

/* One DICT operand: its value when an integer, where its bytes are and how many. */
struct operand {
    long value;
    int integer;
    unsigned long at;
    unsigned width;
};

/* Calls `visit` for each operator of the DICT in data[p, end) with its operands (at most 48);
 * operands say where they are as offsets in the table, data[0] being at `origin`. Returns 0 on
 * a malformed DICT or when `visit` does. */
typedef int (*dict_visitor)(void *context, int op, struct operand *operands, int n);

static int walk_dict(const unsigned char *data, unsigned long origin, unsigned long p, unsigned long end, dict_visitor visit, void *context) {
    struct operand operands[48];
    int n = 0;
    while (p < end) {
        unsigned b0 = data[p];
        struct operand o = {0, 1, origin + p, 1};
        if (b0 <= 21) {
            int op = (int)b0;
            unsigned long next = p + 1;
            if (b0 == 12) {
                if (p + 1 >= end) return 0;
                op = 1200 + data[p + 1];
                next = p + 2;
            }
            if (!visit(context, op, operands, n)) return 0;
            n = 0;
            p = next;
            continue;
        } else if (b0 == 28) {
            if (p + 3 > end) return 0;
            o.value = (int16_t)(data[p + 1] << 8 | data[p + 2]);
            o.width = 3;
        } else if (b0 == 29) {
            if (p + 5 > end) return 0;
            o.value = (int32_t)((uint32_t)data[p + 1] << 24 | (uint32_t)data[p + 2] << 16 | (uint32_t)data[p + 3] << 8 | data[p + 4]);
            o.width = 5;
        } else if (b0 == 30) {
            unsigned long q = p + 1;
            while (q < end && (data[q] & 0x0F) != 0x0F && (data[q] >> 4) != 0x0F) q++;
            if (q >= end) return 0;
            o.integer = 0;
            o.width = (unsigned)(q + 1 - p);
        } else if (b0 >= 32 && b0 <= 246) {
            o.value = (long)b0 - 139;
        } else if (b0 >= 247 && b0 <= 254) {
            if (p + 2 > end) return 0;
            o.value = b0 <= 250 ? ((long)b0 - 247) * 256 + data[p + 1] + 108 : -((long)b0 - 251) * 256 - data[p + 1] - 108;
            o.width = 2;
        } else {
            return 0; /* 22-27, 31, 255: reserved in CFF 1 */
        }
        if (n == 48) return 0;
        operands[n++] = o;
        p += o.width;
    }
    return n == 0;
}

/* Writes `v` over an integer operand in its own number of bytes; 0 if it does not fit. */
static int rewrite_operand(unsigned char *at, unsigned width, long v) {
    switch (width) {
    case 1:
        if (v < -107 || v > 107) return 0;
        at[0] = (unsigned char)(v + 139);
        return 1;
    case 2:
        if (v >= 108 && v <= 1131) {
            at[0] = (unsigned char)(247 + (v - 108) / 256);
            at[1] = (unsigned char)((v - 108) % 256);
            return 1;
        }
        if (v <= -108 && v >= -1131) {
            at[0] = (unsigned char)(251 + (-v - 108) / 256);
            at[1] = (unsigned char)((-v - 108) % 256);
            return 1;
        }
        return 0;
    case 3:
        if (v < -32768 || v > 32767) return 0;
        at[1] = (unsigned char)((v >> 8) & 0xFF);
        at[2] = (unsigned char)(v & 0xFF);
        return 1;
    case 5:
        if (v < INT32_MIN || v > INT32_MAX) return 0;
        at[1] = (unsigned char)((v >> 24) & 0xFF);
        at[2] = (unsigned char)((v >> 16) & 0xFF);
        at[3] = (unsigned char)((v >> 8) & 0xFF);
        at[4] = (unsigned char)(v & 0xFF);
        return 1;
    }
    return 0;
}

/* The table being compacted: the original's layout and the new one's pieces. */
struct compaction {
    FT_Face face;
    unsigned long size;            /* of the original table */
    unsigned long cs_start, cs_end; /* the CharStrings INDEX in the original */
    long shift;                    /* how much blocks after the CharStrings move (negative) */
    unsigned char *head;           /* original bytes [0, cs_start) */
    unsigned char *tail;           /* original bytes [cs_end, size) */
    /* DICTs still to visit: (start, end) in original offsets, and whether a Private DICT. */
    struct { unsigned long start, end; int private_dict; } pending[300];
    int pending_count;
    int fdarray_pending; /* FDArray offset seen: its DICTs are queued when the DICT is done */
    unsigned long fdarray;
    int ok;
};

/* The bytes of the original at `offset`, in the head or the tail; NULL inside the charstrings. */
static unsigned char *original(struct compaction *c, unsigned long offset, unsigned long length) {
    if (offset + length <= c->cs_start) return c->head + offset;
    if (offset >= c->cs_end && offset + length <= c->size) return c->tail + (offset - c->cs_end);
    return NULL;
}

/* An absolute offset's new value; -1 if it points into the charstrings. */
static long moved(struct compaction *c, long offset) {
    if ((unsigned long)offset < c->cs_start || (unsigned long)offset == c->cs_start) return offset;
    if ((unsigned long)offset >= c->cs_end) return offset + c->shift;
    return -1;
}

static int move_operand(struct compaction *c, struct operand *o) {
    if (!o->integer) return 0;
    long v = moved(c, o->value);
    if (v < 0) return 0;
    if (v == o->value) return 1;
    unsigned char *at = original(c, o->at, o->width);
    return at && rewrite_operand(at, o->width, v);
}

static int queue(struct compaction *c, unsigned long start, unsigned long end, int private_dict) {
    if (c->pending_count == (int)(sizeof c->pending / sizeof c->pending[0]) || end < start || end > c->size) return 0;
    c->pending[c->pending_count].start = start;
    c->pending[c->pending_count].end = end;
    c->pending[c->pending_count].private_dict = private_dict;
    c->pending_count++;
    return 1;
}

/* Top and font DICTs: offsets from the start of the table move with their blocks. */
static int visit_font_dict(void *context, int op, struct operand *o, int n) {
    struct compaction *c = context;
    switch (op) {
    case 15: /* charset: 0-2 are predefined */
    case 16: /* Encoding: 0-1 are predefined */
        if (n != 1 || !o[0].integer) return 0;
        if (o[0].value <= (op == 15 ? 2 : 1)) return 1;
        return move_operand(c, &o[0]);
    case 1237: /* FDSelect */
        return n == 1 && move_operand(c, &o[0]);
    case 17: /* CharStrings: stays where it is */
        return n == 1 && o[0].integer && (unsigned long)o[0].value == c->cs_start;
    case 18: /* Private: size, offset */
        if (n != 2 || !o[0].integer || !o[1].integer || o[0].value < 0 || o[1].value < 0) return 0;
        if (!queue(c, (unsigned long)o[1].value, (unsigned long)(o[1].value + o[0].value), 1)) return 0;
        return move_operand(c, &o[1]);
    case 1236: /* FDArray */
        if (n != 1 || !o[0].integer || o[0].value < 0) return 0;
        c->fdarray_pending = 1;
        c->fdarray = (unsigned long)o[0].value;
        return move_operand(c, &o[0]);
    case 1220: /* SyntheticBase: another font in the table */
        return 0;
    default:
        return 1;
    }
}

/* A Private DICT's local Subrs are at an offset from the DICT: both must move together. */
struct private_visit {
    struct compaction *c;
    unsigned long start;
};

static int visit_private_dict(void *context, int op, struct operand *o, int n) {
    struct private_visit *v = context;
    if (op != 19) return 1;
    if (n != 1 || !o[0].integer || o[0].value < 0) return 0;
    long subrs = (long)v->start + o[0].value;
    long a = moved(v->c, (long)v->start), b = moved(v->c, subrs);
    return a >= 0 && b >= 0 && b - a == o[0].value;
}

/* A compact table, shared by the font's record and the threads reading it. */
struct compact {
    int references;
    unsigned long length;
    unsigned char bytes[];
};

static void release(struct compact *t) {
    if (t && --t->references == 0) free(t);
}

/* The Top DICT's CharStrings offset, and whether the font is CID-keyed (has a ROS). */
struct top_facts {
    long charstrings;
    int cid;
};

static int find_charstrings(void *context, int op, struct operand *o, int n) {
    struct top_facts *facts = context;
    if (op == 17 && n == 1 && o[0].integer) facts->charstrings = o[0].value;
    if (op == 1230) facts->cid = 1;
    return 1;
}

/* Builds the compact table of `face` keeping the glyphs marked in `used` (and glyph 0). */
static struct compact *compact_table(FT_Face face, const unsigned char *used) {
    struct compaction c = {.face = face, .ok = 0};
    FT_ULong size = 0;
    if (freetype_load_table(face, TAG_CFF, 0, NULL, &size) || size < COMPACT_MIN) return NULL;
    c.size = size;
    struct compact *result = NULL;
    unsigned char *offsets = NULL;
    // The header and the first INDEXes: enough to find the CharStrings.
    unsigned long probe = size < 65536 ? size : 65536;
    unsigned char *start = read_part(face, 0, probe);
    if (!start || start[0] != 1 || start[2] < 4) goto done;
    struct index names, tops;
    if (!parse_index(start, probe, start[2], &names) || !parse_index(start, probe, names.end, &tops) || tops.count != 1) goto done;
    // The CharStrings offset from the Top DICT.
    unsigned long top_start = tops.base + read_offset(start + tops.offsets, tops.offsize);
    unsigned long top_end = tops.end;
    struct top_facts facts = {-1, 0};
    if (top_end > probe || !walk_dict(start, 0, top_start, top_end, find_charstrings, &facts)) goto done;
    // CID-keyed fonts only: a name-keyed font's accented glyphs may be built from others (seac)
    // that FreeType loads inside the glyph's load, unseen by the hook.
    if (!facts.cid || facts.charstrings <= 0 || (unsigned long)facts.charstrings >= size) goto done;
    c.cs_start = (unsigned long)facts.charstrings;
    // The CharStrings INDEX: its offset array, then its extent.
    unsigned char count_bytes[3];
    FT_ULong three = 3;
    if (freetype_load_table(face, TAG_CFF, (FT_Long)c.cs_start, count_bytes, &three)) goto done;
    unsigned count = (unsigned)count_bytes[0] << 8 | count_bytes[1];
    unsigned offsize = count_bytes[2];
    if (count != (unsigned)face->num_glyphs || offsize < 1 || offsize > 4) goto done;
    unsigned long array_length = ((unsigned long)count + 1) * offsize;
    if (c.cs_start + 3 + array_length > size) goto done;
    offsets = read_part(face, c.cs_start + 3, array_length);
    if (!offsets) goto done;
    unsigned long data_base = c.cs_start + 3 + array_length - 1;
    c.cs_end = data_base + read_offset(offsets + (unsigned long)count * offsize, offsize);
    if (c.cs_end > size || c.cs_end <= c.cs_start) goto done;
    // The new CharStrings: kept glyphs' charstrings, an endchar for every other glyph.
    unsigned long kept_bytes = 0;
    for (unsigned g = 0; g < count; g++) {
        unsigned long a = read_offset(offsets + (unsigned long)g * offsize, offsize);
        unsigned long b = read_offset(offsets + (unsigned long)(g + 1) * offsize, offsize);
        if (b < a || data_base + b > c.cs_end) goto done;
        kept_bytes += (g == 0 || used[g / 8] & (1u << (g % 8))) ? b - a : 1;
    }
    unsigned new_offsize = kept_bytes + 1 <= 0xFF ? 1 : kept_bytes + 1 <= 0xFFFF ? 2 : kept_bytes + 1 <= 0xFFFFFF ? 3 : 4;
    unsigned long new_cs_length = 3 + ((unsigned long)count + 1) * new_offsize + kept_bytes;
    c.shift = (long)new_cs_length - (long)(c.cs_end - c.cs_start);
    // The table: the blocks before the charstrings where they were, the new CharStrings INDEX,
    // the blocks after it; their offsets are then moved in place.
    unsigned long total = c.cs_start + new_cs_length + (size - c.cs_end);
    result = malloc(sizeof *result + total);
    if (!result) goto done;
    result->references = 1;
    result->length = total;
    c.head = result->bytes;
    c.tail = result->bytes + c.cs_start + new_cs_length;
    FT_ULong head_length = c.cs_start, tail_length = size - c.cs_end;
    if (freetype_load_table(face, TAG_CFF, 0, c.head, &head_length)) goto done;
    if (tail_length && freetype_load_table(face, TAG_CFF, (FT_Long)c.cs_end, c.tail, &tail_length)) goto done;
    if (!walk_dict(c.head, 0, top_start, top_end, visit_font_dict, &c)) goto done;
    if (c.fdarray_pending) {
        // The FDArray lies in the head or the tail; parse it where it is (`origin`: the table
        // offset of that piece's first byte).
        unsigned char *piece;
        unsigned long origin, length;
        if (c.fdarray < c.cs_start) {
            piece = c.head, origin = 0, length = c.cs_start;
        } else if (c.fdarray >= c.cs_end) {
            piece = c.tail, origin = c.cs_end, length = size - c.cs_end;
        } else {
            goto done;
        }
        struct index fds;
        if (!parse_index(piece, length, c.fdarray - origin, &fds)) goto done;
        for (unsigned i = 0; i < fds.count; i++) {
            unsigned long a = fds.base + read_offset(piece + fds.offsets + (unsigned long)i * fds.offsize, fds.offsize);
            unsigned long b = fds.base + read_offset(piece + fds.offsets + (unsigned long)(i + 1) * fds.offsize, fds.offsize);
            if (b > length || !walk_dict(piece, origin, a, b, visit_font_dict, &c)) goto done;
        }
    }
    for (int i = 0; i < c.pending_count; i++) {
        unsigned long a = c.pending[i].start, b = c.pending[i].end;
        unsigned char *bytes = original(&c, a, b - a);
        if (!bytes) goto done;
        struct private_visit v = {&c, a};
        if (!walk_dict(bytes, a, 0, b - a, visit_private_dict, &v)) goto done;
    }
    // The new CharStrings INDEX.
    unsigned char *cs = result->bytes + c.cs_start;
    cs[0] = (unsigned char)(count >> 8);
    cs[1] = (unsigned char)count;
    cs[2] = (unsigned char)new_offsize;
    unsigned char *array = cs + 3;
    unsigned char *data = array + ((unsigned long)count + 1) * new_offsize;
    unsigned long position = 1;
    for (unsigned g = 0; g <= count; g++) {
        for (unsigned k = 0; k < new_offsize; k++) array[(unsigned long)g * new_offsize + k] = (unsigned char)(position >> (8 * (new_offsize - 1 - k)));
        if (g == count) break;
        unsigned long a = read_offset(offsets + (unsigned long)g * offsize, offsize);
        unsigned long b = read_offset(offsets + (unsigned long)(g + 1) * offsize, offsize);
        if (g == 0 || used[g / 8] & (1u << (g % 8))) {
            FT_ULong n = b - a;
            if (n && freetype_load_table(face, TAG_CFF, (FT_Long)(data_base + a), data + position - 1, &n)) goto done;
            position += b - a;
        } else {
            data[position - 1] = 14; /* endchar */
            position += 1;
        }
    }
    c.ok = 1;
done:
    free(start);
    free(offsets);
    if (!c.ok) {
        free(result);
        result = NULL;
    }
    return result;
}

/* The compact table a thread was told the length of, until it reads it. */
static _Thread_local struct {
    struct font *font;
    struct compact *table;
} told;

/* Cairo's reads of a CFF table come here (a length query, then a read of that length, on one
 * thread): both get the compact table when there is one; other tables and callers go to
 * FreeType. */
FT_Error FT_Load_Sfnt_Table(FT_Face face, FT_ULong tag, FT_Long offset, FT_Byte *buffer, FT_ULong *length) {
    pthread_once(&bound, bind_once);
    if (tag != TAG_CFF || offset != 0 || !length || !face) return freetype_load_table(face, tag, offset, buffer, length);
    static _Atomic(void *) cairo_site = NULL;
    if (!galley_from_cairo(__builtin_return_address(0), &cairo_site)) return freetype_load_table(face, tag, offset, buffer, length);
    const char *path = galley_face_path(face);
    if (!path || !galley_face_is_cff(face)) return freetype_load_table(face, tag, offset, buffer, length);
    if (buffer) {
        // The read after a query: the table this thread was told about, if the length is its.
        pthread_mutex_lock(&galley_fonts_lock);
        struct compact *t = told.table;
        int mine = t && told.font && told.font->index == face->face_index && strcmp(told.font->path, path) == 0 && *length == t->length;
        if (!mine) {
            // Told on no query of this thread: the font's current compact table if the length is
            // its (a reader keeping a length from an earlier query); else FreeType's table.
            struct font *font = galley_find_font(path, face->face_index);
            if (font && font->compact && *length == font->compact->length) {
                release(t);
                t = font->compact;
                t->references++;
                mine = 1;
            }
        }
        if (mine) memcpy(buffer, t->bytes, t->length);
        release(t);
        told.table = NULL;
        told.font = NULL;
        pthread_mutex_unlock(&galley_fonts_lock);
        return mine ? FT_Err_Ok : freetype_load_table(face, tag, offset, buffer, length);
    }
    // A length query: the compact table for the glyphs Cairo has loaded so far, made again
    // only when it has loaded more (outside the lock: it takes a few milliseconds).
    pthread_mutex_lock(&galley_fonts_lock);
    release(told.table);
    told.table = NULL;
    struct font *font = galley_font_record(path, face->face_index, face->num_glyphs);
    long glyphs = 0;
    unsigned char *used = NULL;
    struct compact *t = NULL;
    if (font && compact_enabled) {
        size_t bytes = ((size_t)font->num_glyphs + 7) / 8;
        for (size_t i = 0; i < bytes; i++) glyphs += __builtin_popcount(font->used[i]);
        if (font->compact && font->compact_glyphs == glyphs) {
            t = font->compact;
            t->references++;
        } else if ((used = malloc(bytes))) {
            memcpy(used, font->used, bytes);
        }
    }
    pthread_mutex_unlock(&galley_fonts_lock);
    if (!t && used && (t = compact_table(face, used))) {
        {
            t->references = 2; /* the font's and this thread's */
            pthread_mutex_lock(&galley_fonts_lock);
            release(font->compact);
            font->compact = t;
            font->compact_glyphs = glyphs;
            pthread_mutex_unlock(&galley_fonts_lock);
        }
    }
    free(used);
    if (!t) return freetype_load_table(face, tag, offset, buffer, length);
    told.font = font;
    told.table = t;
    *length = t->length;
    return FT_Err_Ok;
}

long galley_cff_compact_length(const char *path, long index) {
    long n = 0;
    pthread_mutex_lock(&galley_fonts_lock);
    struct font *font = galley_find_font(path, index);
    if (font && font->compact) n = (long)font->compact->length;
    pthread_mutex_unlock(&galley_fonts_lock);
    return n;
}

long galley_cff_compact_compare(const char *path, long index, const unsigned *gids, long count, unsigned long *compact_length, unsigned long *original_length) {
    pthread_once(&bound, bind_once);
    FT_Library library;
    FT_Face face, compact = NULL;
    if (FT_Init_FreeType(&library)) return -1;
    long differ = -1;
    unsigned char *used = NULL;
    struct compact *table = NULL;
    if (FT_New_Face(library, path, index, &face)) goto out_library;
    FT_ULong size = 0;
    freetype_load_table(face, TAG_CFF, 0, NULL, &size);
    *original_length = size;
    used = calloc(((size_t)face->num_glyphs + 7) / 8, 1);
    if (!used) goto out_face;
    for (long i = 0; i < count; i++)
        if (gids[i] < (unsigned)face->num_glyphs) used[gids[i] / 8] |= (unsigned char)(1u << (gids[i] % 8));
    table = compact_table(face, used);
    *compact_length = table ? table->length : 0;
    if (!table || FT_New_Memory_Face(library, table->bytes, (FT_Long)table->length, 0, &compact)) goto out_face;
    differ = 0;
    // Every glyph: a kept one has the outline it has in the font, any other none.
    for (long g = 0; g < face->num_glyphs; g++) {
        int kept = g == 0 || (used[g / 8] & (1u << (g % 8)));
        if (FT_Load_Glyph(compact, (FT_UInt)g, FT_LOAD_NO_SCALE)) {
            differ++;
            continue;
        }
        FT_Outline *b = &compact->glyph->outline;
        if (!kept) {
            differ += b->n_points != 0;
            continue;
        }
        if (FT_Load_Glyph(face, (FT_UInt)g, FT_LOAD_NO_SCALE)) {
            differ++;
            continue;
        }
        FT_Outline *a = &face->glyph->outline;
        if (a->n_points != b->n_points || a->n_contours != b->n_contours ||
            (a->n_points && (memcmp(a->points, b->points, (size_t)a->n_points * sizeof(FT_Vector)) || memcmp(a->tags, b->tags, (size_t)a->n_points))) ||
            (a->n_contours && memcmp(a->contours, b->contours, (size_t)a->n_contours * sizeof(short))))
            differ++;
    }
    FT_Done_Face(compact);
out_face:
    FT_Done_Face(face);
out_library:
    FT_Done_FreeType(library);
    free(table);
    free(used);
    return differ;
}
