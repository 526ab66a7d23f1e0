import CLCMS

/// The device link a CMYK build converts Galley's flat colours through (text and vector
/// graphics): a grey, R = G = B, becomes black ink alone, K = 1 − grey, as Ghostscript maps
/// DeviceGray to K; every other colour goes from sRGB to the output intent, relative
/// colorimetric with black point compensation, as Ghostscript would convert it. Without the
/// link, black text comes out as a rich black of four inks (72/68/67/88 % on SWOP), which
/// misregisters in small type and runs near 300 % ink.
///
/// Images go through a plain link (`greysToK` false): the same conversion with no exception for
/// greys, so a photo's neutrals keep the intent's own black generation. Ghostscript cannot be
/// left to convert them: before 10.03 its pdfwrite replaces `-sOutputICCProfile` with its
/// default CMYK profile when `ColorConversionStrategy` is set (Ghostscript bug 707350), so
/// whatever no link converts is separated for default_cmyk.icc, whatever the intent.
///
/// The link is a 33-point table. Tetrahedral interpolation, which Little CMS uses for three
/// inputs, takes a point on a cube's diagonal from the diagonal's two corners only, so every
/// grey, not only the table's 33, comes out as K alone.
enum NeutralLink {
    static let gridPoints: UInt32 = 33

    /// The link's ICC bytes, from `sRGB` to `intent` (a CMYK printer profile): with `greysToK`,
    /// greys to black ink alone (text and graphics); without, the intent's own conversion
    /// (images).
    static func make(sRGB: ColorProfile, intent: ColorProfile, greysToK: Bool = true) throws(RenderError) -> [UInt8] {
        guard galley_lcms_available() != 0 else {
            throw RenderError(.error("--cmyk needs Little CMS (liblcms2-2), which is not installed"))
        }
        func fail(_ what: String) -> RenderError {
            RenderError(.error("--cmyk could not make its colour link from '\(intent.path)': \(what)"))
        }
        guard let source = open(sRGB), let target = open(intent) else { throw fail("Little CMS could not read the profiles") }
        defer {
            _ = galley_cmsCloseProfile(source)
            _ = galley_cmsCloseProfile(target)
        }
        guard
            let transform = galley_cmsCreateTransform(
                source, galley_lcms_rgb16, target, galley_lcms_cmyk16, UInt32(INTENT_RELATIVE_COLORIMETRIC),
                UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION))
        else { throw fail("Little CMS could not join sRGB to it") }
        defer { galley_cmsDeleteTransform(transform) }
        guard let link = galley_cmsCreateProfilePlaceholder(nil) else { throw fail("out of memory") }
        defer { _ = galley_cmsCloseProfile(link) }
        guard describe(link, from: intent, greysToK: greysToK) else { throw fail("could not write its description") }
        guard let table = sampledTable(transform, greysToK ? sample : plain) else { throw fail("Little CMS could not sample it") }
        defer { galley_cmsPipelineFree(table) }
        guard galley_cmsWriteTag(link, cmsSigAToB0Tag, UnsafeRawPointer(table)) != 0 else { throw fail("could not write the table") }
        guard let bytes = save(link) else { throw fail("could not save it") }
        return bytes
    }

    /// Why Little CMS cannot convert sRGB to `intent`, if it cannot: a profile whose header
    /// and tag table are sound can still hold tags no reader can use. Nil too when Little CMS
    /// is not installed, as only `--cmyk` needs it. The transform is not optimised, so only the
    /// tags are read, and no table is computed.
    static func damage(of intent: ColorProfile, sRGB: ColorProfile) -> String? {
        guard galley_lcms_available() != 0 else { return nil }
        guard let target = open(intent) else { return "Little CMS cannot read it" }
        defer { _ = galley_cmsCloseProfile(target) }
        guard let source = open(sRGB) else { return nil }
        defer { _ = galley_cmsCloseProfile(source) }
        let flags = UInt32(cmsFLAGS_NOOPTIMIZE | cmsFLAGS_NOCACHE)
        guard
            let transform = galley_cmsCreateTransform(
                source, galley_lcms_rgb16, target, galley_lcms_cmyk16, UInt32(INTENT_RELATIVE_COLORIMETRIC), flags)
        else { return "Little CMS cannot convert colours to it (a tag it needs is damaged or missing)" }
        galley_cmsDeleteTransform(transform)
        return nil
    }

    private static func open(_ profile: ColorProfile) -> cmsHPROFILE? {
        profile.bytes.withUnsafeBytes { galley_cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
    }

    /// The header of an RGB-to-CMYK device link, and its description; false if it failed.
    private static func describe(_ link: cmsHPROFILE, from intent: ColorProfile, greysToK: Bool) -> Bool {
        galley_cmsSetProfileVersion(link, 4.3)
        galley_cmsSetDeviceClass(link, cmsSigLinkClass)
        galley_cmsSetColorSpace(link, cmsSigRgbData)
        galley_cmsSetPCS(link, cmsSigCmykData)
        galley_cmsSetHeaderRenderingIntent(link, UInt32(INTENT_RELATIVE_COLORIMETRIC))
        guard let text = galley_cmsMLUalloc(nil, 1) else { return false }
        defer { galley_cmsMLUfree(text) }
        let name = "Galley: sRGB to \(intent.name)" + (greysToK ? ", greys to K" : "")
        return galley_cmsMLUsetASCII(text, "en", "US", name) != 0
            && galley_cmsWriteTag(link, cmsSigProfileDescriptionTag, UnsafeRawPointer(text)) != 0
    }

    /// Identity curves, the sampled table, identity curves: the shape an ICC `mAB` tag holds.
    private static func sampledTable(_ transform: cmsHTRANSFORM, _ sampler: cmsSAMPLER16) -> OpaquePointer? {
        guard let pipeline = galley_cmsPipelineAlloc(nil, 3, 4) else { return nil }
        guard let grid = galley_cmsStageAllocCLut16bit(nil, gridPoints, 3, 4, nil),
            galley_cmsStageSampleCLut16bit(grid, sampler, transform, 0) != 0,
            let before = galley_cmsStageAllocToneCurves(nil, 3, nil), let after = galley_cmsStageAllocToneCurves(nil, 4, nil),
            galley_cmsPipelineInsertStage(pipeline, cmsAT_END, before) != 0,
            galley_cmsPipelineInsertStage(pipeline, cmsAT_END, grid) != 0,
            galley_cmsPipelineInsertStage(pipeline, cmsAT_END, after) != 0
        else {
            galley_cmsPipelineFree(pipeline)
            return nil
        }
        return pipeline
    }

    /// One node of the table: a grey to K alone, any other colour through the transform (the
    /// cargo).
    private static let sample: cmsSAMPLER16 = { input, output, cargo in
        guard let input, let output else { return 0 }
        if input[0] == input[1] && input[1] == input[2] {
            (output[0], output[1], output[2], output[3]) = (0, 0, 0, UInt16.max - input[0])
        } else {
            galley_cmsDoTransform(cargo, input, output, 1)
        }
        return 1
    }

    /// One node of the plain table: every colour through the transform.
    private static let plain: cmsSAMPLER16 = { input, output, cargo in
        guard let input, let output else { return 0 }
        galley_cmsDoTransform(cargo, input, output, 1)
        return 1
    }

    private static func save(_ link: cmsHPROFILE) -> [UInt8]? {
        var size: UInt32 = 0
        guard galley_cmsSaveProfileToMem(link, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let saved = bytes.withUnsafeMutableBytes { galley_cmsSaveProfileToMem(link, $0.baseAddress, &size) }
        return saved != 0 ? Array(bytes.prefix(Int(size))) : nil
    }
}
