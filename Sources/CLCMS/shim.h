// Little CMS 2 (Debian's liblcms2-dev): `--cmyk` builds the device link that sends Galley's
// RGB greys to black ink alone (see `NeutralLink.swift`).
//
// liblcms2 is opened when a CMYK build first needs it, not linked, as libqpdf is: only `--cmyk`
// builds use it, and Ghostscript, which those builds need anyway, depends on it, so it is
// installed wherever `--cmyk` can run. Each `galley_cms…` function calls the library's own
// through `dlsym`.
#include <dlfcn.h>
#include <lcms2.h>

/* liblcms2, opened once (NULL when it is not installed). */
static inline void *galley_lcms_library(void) {
    static void *library;
    if (!library) library = dlopen("liblcms2.so.2", RTLD_LAZY | RTLD_LOCAL);
    if (!library) library = dlopen("liblcms2.so", RTLD_LAZY | RTLD_LOCAL);
    return library;
}

/* The library's function `name`. */
static inline void *galley_lcms_symbol(const char *name) {
    void *library = galley_lcms_library();
    return library ? dlsym(library, name) : NULL;
}

/* The functions the device link calls: FUNCTION(result, name, parameters, arguments), and
   PROCEDURE for those that return nothing. */
#define GALLEY_LCMS_FUNCTIONS(FUNCTION, PROCEDURE) \
    FUNCTION(cmsBool, cmsCloseProfile, (cmsHPROFILE p), (p)) \
    FUNCTION(cmsHPROFILE, cmsCreateProfilePlaceholder, (cmsContext c), (c)) \
    FUNCTION(cmsHTRANSFORM, cmsCreateTransform, \
        (cmsHPROFILE in, cmsUInt32Number inFormat, cmsHPROFILE out, cmsUInt32Number outFormat, cmsUInt32Number intent, \
         cmsUInt32Number flags), \
        (in, inFormat, out, outFormat, intent, flags)) \
    PROCEDURE(cmsDeleteTransform, (cmsHTRANSFORM t), (t)) \
    PROCEDURE(cmsDoTransform, (cmsHTRANSFORM t, const void *in, void *out, cmsUInt32Number count), (t, in, out, count)) \
    FUNCTION(cmsMLU *, cmsMLUalloc, (cmsContext c, cmsUInt32Number items), (c, items)) \
    PROCEDURE(cmsMLUfree, (cmsMLU * mlu), (mlu)) \
    FUNCTION(cmsBool, cmsMLUsetASCII, (cmsMLU * mlu, const char language[3], const char country[3], const char *text), \
        (mlu, language, country, text)) \
    FUNCTION(cmsHPROFILE, cmsOpenProfileFromMem, (const void *bytes, cmsUInt32Number size), (bytes, size)) \
    FUNCTION(cmsPipeline *, cmsPipelineAlloc, (cmsContext c, cmsUInt32Number in, cmsUInt32Number out), (c, in, out)) \
    PROCEDURE(cmsPipelineFree, (cmsPipeline * p), (p)) \
    FUNCTION(cmsBool, cmsPipelineInsertStage, (cmsPipeline * p, cmsStageLoc where, cmsStage *s), (p, where, s)) \
    FUNCTION(cmsBool, cmsSaveProfileToMem, (cmsHPROFILE p, void *bytes, cmsUInt32Number *size), (p, bytes, size)) \
    PROCEDURE(cmsSetColorSpace, (cmsHPROFILE p, cmsColorSpaceSignature s), (p, s)) \
    PROCEDURE(cmsSetDeviceClass, (cmsHPROFILE p, cmsProfileClassSignature s), (p, s)) \
    PROCEDURE(cmsSetHeaderRenderingIntent, (cmsHPROFILE p, cmsUInt32Number intent), (p, intent)) \
    PROCEDURE(cmsSetPCS, (cmsHPROFILE p, cmsColorSpaceSignature s), (p, s)) \
    PROCEDURE(cmsSetProfileVersion, (cmsHPROFILE p, cmsFloat64Number version), (p, version)) \
    FUNCTION(cmsStage *, cmsStageAllocCLut16bit, \
        (cmsContext c, cmsUInt32Number points, cmsUInt32Number in, cmsUInt32Number out, const cmsUInt16Number *table), \
        (c, points, in, out, table)) \
    FUNCTION(cmsStage *, cmsStageAllocToneCurves, (cmsContext c, cmsUInt32Number channels, cmsToneCurve *const curves[]), \
        (c, channels, curves)) \
    FUNCTION(cmsBool, cmsStageSampleCLut16bit, (cmsStage * s, cmsSAMPLER16 sampler, void *cargo, cmsUInt32Number flags), \
        (s, sampler, cargo, flags)) \
    FUNCTION(cmsBool, cmsWriteTag, (cmsHPROFILE p, cmsTagSignature tag, const void *data), (p, tag, data))

#define GALLEY_LCMS_FUNCTION(result, name, parameters, arguments) \
    static inline result galley_##name parameters { \
        static result(*f) parameters; \
        if (!f) f = (result(*) parameters)galley_lcms_symbol(#name); \
        return f arguments; \
    }
#define GALLEY_LCMS_PROCEDURE(name, parameters, arguments) \
    static inline void galley_##name parameters { \
        static void(*f) parameters; \
        if (!f) f = (void(*) parameters)galley_lcms_symbol(#name); \
        f arguments; \
    }
GALLEY_LCMS_FUNCTIONS(GALLEY_LCMS_FUNCTION, GALLEY_LCMS_PROCEDURE)

/* Whether every function the link needs is there: checked before any is called. */
#define GALLEY_LCMS_FOUND(result, name, parameters, arguments) && galley_lcms_symbol(#name)
#define GALLEY_LCMS_PROCEDURE_FOUND(name, parameters, arguments) && galley_lcms_symbol(#name)
static inline int galley_lcms_available(void) {
    return galley_lcms_library() != NULL GALLEY_LCMS_FUNCTIONS(GALLEY_LCMS_FOUND, GALLEY_LCMS_PROCEDURE_FOUND);
}

/* lcms2's pixel formats are macros Swift cannot import: 16-bit RGB and CMYK. */
static const cmsUInt32Number galley_lcms_rgb16 = TYPE_RGB_16;
static const cmsUInt32Number galley_lcms_cmyk16 = TYPE_CMYK_16;
