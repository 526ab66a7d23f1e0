#include <pango/pangocairo.h>
#include <pango/pangofc-font.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>

/* Swift cannot see these as functions (macros, casts); thin inline wrappers. */

/* The PangoFcFont behind a PangoFont from a pangocairo font map (all of them on Linux). */
static inline FcPattern *galley_font_pattern(PangoFont *font) {
    return pango_fc_font_get_pattern(PANGO_FC_FONT(font));
}

/* FC_COLOR of a font: true for colour (emoji) fonts. */
static inline int galley_font_is_color(PangoFont *font) {
    FcBool color = FcFalse;
    FcPattern *p = galley_font_pattern(font);
    if (p && FcPatternGetBool(p, FC_COLOR, 0, &color) == FcResultMatch) return color ? 1 : 0;
    return 0;
}

/* The family name fontconfig actually matched for a font (borrowed string; NULL if none). */
static inline const char *galley_font_family(PangoFont *font) {
    FcChar8 *s = NULL;
    FcPattern *p = galley_font_pattern(font);
    if (p && FcPatternGetString(p, FC_FAMILY, 0, &s) == FcResultMatch) return (const char *)s;
    return NULL;
}

/* The file of a font (borrowed string; NULL if none). */
static inline const char *galley_font_file(PangoFont *font) {
    FcChar8 *s = NULL;
    FcPattern *p = galley_font_pattern(font);
    if (p && FcPatternGetString(p, FC_FILE, 0, &s) == FcResultMatch) return (const char *)s;
    return NULL;
}

/* The face index of a font in its file (a collection holds several); 0 if none. */
static inline long galley_font_index(PangoFont *font) {
    int index = 0;
    FcPattern *p = galley_font_pattern(font);
    if (p) FcPatternGetInteger(p, FC_INDEX, 0, &index);
    return index;
}

static inline void galley_object_unref(void *object) { if (object) g_object_unref(object); }

/* What fontconfig synthesizes for a font: bit 0 emboldened, bit 1 slanted by a matrix. */
static inline int galley_font_synthesis(PangoFont *font) {
    int out = 0;
    FcPattern *p = galley_font_pattern(font);
    if (!p) return 0;
    FcBool embolden = FcFalse;
    if (FcPatternGetBool(p, FC_EMBOLDEN, 0, &embolden) == FcResultMatch && embolden) out |= 1;
    FcMatrix *m = NULL;
    if (FcPatternGetMatrix(p, FC_MATRIX, 0, &m) == FcResultMatch && m && m->xy != 0) out |= 2;
    return out;
}

/* How many fonts fontconfig lists for a font map (system and application sets). */
static inline int galley_font_count(PangoFontMap *map) {
    FcConfig *config = pango_fc_font_map_get_config(PANGO_FC_FONT_MAP(map));
    int n = 0;
    FcFontSet *system = FcConfigGetFonts(config, FcSetSystem);
    FcFontSet *application = FcConfigGetFonts(config, FcSetApplication);
    if (system) n += system->nfont;
    if (application) n += application->nfont;
    return n;
}
