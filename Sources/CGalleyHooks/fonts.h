#ifndef GALLEY_FONTS_H
#define GALLEY_FONTS_H
/* What glyphs.c and cff.c know about the fonts Cairo loads glyphs from (private to the hooks). */
#include <pthread.h>
#include <ft2build.h>
#include FT_FREETYPE_H

struct raw_glyph;
struct compact;

/* A font file and face index: the same glyphs whichever FT_Face shows them. Fields other than
 * the first four change under galley_fonts_lock. */
struct font {
    char *path;
    FT_Long index;
    FT_Long num_glyphs;
    struct font *next;
    int state; /* 0 being checked, 1 trusted, -1 left to FreeType */
    int checks;
    struct raw_glyph **glyphs; /* by glyph id, in font units (glyphs.c) */
    unsigned char *used;       /* bit per glyph id: Cairo has loaded it */
    /* The compact CFF table Cairo was last given (cff.c), and how many glyphs it keeps. */
    struct compact *compact;
    long compact_glyphs;
};

extern pthread_mutex_t galley_fonts_lock;
/* The record of a font file and face index (made on first sight); under the lock. */
struct font *galley_font_record(const char *path, FT_Long index, FT_Long num_glyphs);
/* The record of a font file and face index if there is one; under the lock. */
struct font *galley_find_font(const char *path, long index);
/* The file a face was opened from, or NULL. */
const char *galley_face_path(FT_Face face);
int galley_face_is_cff(FT_Face face);
#endif
