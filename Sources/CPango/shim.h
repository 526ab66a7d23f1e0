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

/* Exported by libpangoft2 but declared only in Pango's private header: a font's metrics as
 * pango_font_get_metrics gives them for horizontal text (ascent, descent, height, underline and
 * strikethrough), without the approximate character widths, which that function measures by
 * laying out the language's sample sentence. */
PangoFontMetrics *pango_fc_font_create_base_metrics_for_context(PangoFcFont *font, PangoContext *context);

/* The base metrics of a font from a pangocairo font map (the caller unrefs them). */
static inline PangoFontMetrics *galley_font_base_metrics(PangoFont *font) {
    return pango_fc_font_create_base_metrics_for_context(PANGO_FC_FONT(font), NULL);
}

/* Has Pango make what it measures a font with through Cairo: the font's Cairo font and the box
 * a missing glyph is drawn as. Shaping with the font afterwards leaves Cairo alone, even for a
 * glyph the font lacks (see TextEngine.prepareForMissingGlyphs in GalleyLayout). */
static inline void galley_font_prepare_measures(PangoFont *font) {
    PangoRectangle ink, logical;
    pango_font_get_glyph_extents(font, PANGO_GLYPH_UNKNOWN_FLAG | 'A', &ink, &logical);
}

/* The Cairo scaled font of a font from a pangocairo font map (borrowed; NULL if none). */
static inline cairo_scaled_font_t *galley_font_scaled(PangoFont *font) {
    return pango_cairo_font_get_scaled_font((PangoCairoFont *)font);
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

#include FT_TRUETYPE_TABLES_H

/* A font's cap height as a fraction of its em, from the OS/2 table (sCapHeight, in tables of
 * version 2 and later); 0 when the font gives none. */
static inline double galley_font_cap_ratio(PangoFont *font) {
    PangoFcFont *fc = PANGO_FC_FONT(font);
    FT_Face face = pango_fc_font_lock_face(fc);
    double ratio = 0;
    if (face) {
        TT_OS2 *os2 = (TT_OS2 *)FT_Get_Sfnt_Table(face, FT_SFNT_OS2);
        if (os2 && os2->version >= 2 && os2->sCapHeight > 0 && face->units_per_EM > 0)
            ratio = (double)os2->sCapHeight / face->units_per_EM;
        pango_fc_font_unlock_face(fc);
    }
    return ratio;
}

#include <hb-ot.h>

/* A font's ideographic em box in Han text, its top and bottom as fractions of the em above the
 * baseline: the BASE table's idtp and ideo (Noto CJK: 0.88 and -0.12), else HarfBuzz's
 * fallback from the font's metrics. */
static inline void galley_font_ideo_embox(PangoFont *font, double *top, double *bottom) {
    hb_font_t *hb = pango_font_get_hb_font(font);
    int xs = 0, ys = 0;
    hb_position_t t = 0, b = 0;
    hb_font_get_scale(hb, &xs, &ys);
    hb_ot_layout_get_baseline_with_fallback(
        hb, HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_TOP_OR_RIGHT, HB_DIRECTION_LTR, HB_SCRIPT_HAN, HB_TAG_NONE, &t);
    hb_ot_layout_get_baseline_with_fallback(
        hb, HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_BOTTOM_OR_LEFT, HB_DIRECTION_LTR, HB_SCRIPT_HAN, HB_TAG_NONE, &b);
    *top = ys ? (double)t / ys : 0;
    *bottom = ys ? (double)b / ys : 0;
}

/* How far the ink of a font's "H" reaches above the baseline, Pango units: the cap height of a
 * font whose OS/2 table does not say. */
static inline int galley_font_h_top(PangoFont *font) {
    PangoGlyph glyph = pango_fc_font_get_glyph(PANGO_FC_FONT(font), 'H');
    if (!glyph) return 0;
    PangoRectangle ink;
    pango_font_get_glyph_extents(font, glyph, &ink, NULL);
    return -ink.y;
}

/* A font's embedding licence: FreeType's FT_Get_FSType_Flags (the OS/2 table's fsType, or a
 * Type 1 font's FSType entry); 0 (installable) when the face cannot be read. */
static inline unsigned short galley_font_fs_type(PangoFont *font) {
    PangoFcFont *fc = PANGO_FC_FONT(font);
    FT_Face face = pango_fc_font_lock_face(fc);
    unsigned short flags = 0;
    if (face) {
        flags = FT_Get_FSType_Flags(face);
        pango_fc_font_unlock_face(fc);
    }
    return flags;
}
