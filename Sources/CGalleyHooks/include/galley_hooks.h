#ifndef GALLEY_HOOKS_H
#define GALLEY_HOOKS_H
/* Galley's hooks into libraries as Cairo calls them (zlib, FreeType), made by ELF symbol
 * interposition, linked into the galley executable only:
 * a function defined in the executable is the one the dynamic linker binds every library's call
 * of that name to. What a hook does not handle goes to the library's own function (dlsym
 * RTLD_NEXT).
 *
 * Cairo's PDF streams are compressed whole, by igzip at level 1, by libdeflate at levels 2 to 9
 * (see deflate.c). The level and
 * the limit are the calling thread's, taken when a stream is opened. */
#include <stddef.h>
#include <zlib.h>

/* Turns the hooks on, once, at start-up, when the running Cairo, FreeType and zlib are the
 * versions they were verified with; else they stay off and `why` says which differs. Returns
 * whether they are on. Until it is called every hook passes its calls to the library. */
int galley_hooks_activate(char *why, size_t size);
int galley_hooks_active(void);
/* The compression level, 1 (fastest, the default) to 9 (smallest). */
void galley_set_deflate_level(int level);
int galley_get_deflate_level(void);
/* Opens a stream compressed whole, as Cairo's deflateInit_ calls get: use it with
 * deflate and deflateEnd. */
int galley_deflate_init_whole(z_streamp strm);
/* Input a stream holds before it carries on through zlib's streaming deflate (32 MB). */
void galley_set_deflate_limit(size_t bytes);
size_t galley_get_deflate_limit(void);
/* Cairo's glyph loads are served from glyphs loaded once in font units (see glyphs.c); on by
 * default, per thread. */
void galley_set_glyph_reuse(int enabled);
int galley_get_glyph_reuse(void);
/* What glyphs.c decided about a font file and face index it has seen: 0 still checking its
 * loads, 1 trusted, -1 left to FreeType, 2 never seen. */
int galley_glyph_reuse_state(const char *path, long index);
/* Loads glyphs first..<first+count of a font at `ppem` with the transform `matrix` (xx, xy, yx,
 * yy) both by FreeType and as the hook serves them: the number that differ (-1: the font does
 * not open, -2: not a font the hook serves). */
long galley_glyph_compare(const char *path, long index, double ppem, const double matrix[4], long first, long count);
/* A shaping thread's loader of glyphs ahead of Cairo: `prepare` loads the given glyphs of a font
 * file and face index (in font units, with the thread's own FreeType), so that Cairo's loads on
 * the drawing thread find them made. Returns how many it made (0 for fonts the hook does not
 * serve). One loader per thread. */
typedef struct galley_glyph_loader galley_glyph_loader;
galley_glyph_loader *galley_glyph_loader_new(void);
void galley_glyph_loader_free(galley_glyph_loader *loader);
long galley_glyph_loader_prepare(galley_glyph_loader *loader, const char *path, long index, const unsigned *gids, long n);
/* Sets glibc's allocator to keep freed memory for reuse (see allocator.c): the executable calls
 * it first thing. */
void galley_keep_freed_memory(void);
/* Cairo is given compact CFF tables, without the charstrings of glyphs it has not loaded (see
 * cff.c); on by default, per thread. */
void galley_set_cff_compaction(int enabled);
/* The length of the compact CFF table last made for a font file and face index (0: none). */
long galley_cff_compact_length(const char *path, long index);
/* Makes the compact table of a font keeping glyphs `gids` (and 0), opens it with FreeType and
 * compares every glyph with the font's: the number that differ (a kept glyph's outline, or an
 * outline where there should be none); -1 when no compact table is made. Says both lengths. */
long galley_cff_compact_compare(const char *path, long index, const unsigned *gids, long count, unsigned long *compact_length, unsigned long *original_length);
#endif
