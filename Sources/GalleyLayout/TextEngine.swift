import CPango
import FoundationEssentials
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate
import Glibc

/// Pango units per point (at 72 dpi a device unit is a point).
package let pangoScale = Double(PANGO_SCALE)

/// One thread's Pango state: a font map, a print-configured context, and caches keyed by the
/// story's style indices. Pango objects are not thread-safe, so an engine is used by one thread
/// at a time (a thread done with it may hand it over, as `FontWarmup` does); threads exchange
/// fonts only as `FontKey`s (see `FontRegistry`).
package final class TextEngine {
    /// This engine's own font map (never the per-thread default: its lifetime is ours).
    package let fontMap: UnsafeMutablePointer<PangoFontMap>
    /// 72 dpi, hint metrics off, hint style none, glyph positions not rounded: device-independent
    /// shaping, so the PDF and the PNG of a page break identically.
    package let context: OpaquePointer
    /// The styles the engine serves (see `adopt`).
    package private(set) var plan: FontPlan
    /// Font description of each story style (index = style index), made on first use.
    private var descriptions: [OpaquePointer?] = []
    /// The same for text of a script with faces of its own: [slot - 1][style].
    private var scriptDescriptions: [[OpaquePointer?]] = []
    /// FontKey of each PangoFont this engine has met.
    private var keys: [UnsafeMutableRawPointer: FontKey] = [:]
    /// PangoFont of each key, loaded in this engine's font map.
    private var fonts: [FontKey: UnsafeMutablePointer<PangoFont>] = [:]
    /// The hyphen glyph of each font, shaped once.
    var hyphenCache: [FontKey: PangoGlyphInfo] = [:]
    /// The blank of each CJK punctuation glyph met, by font and glyph (`punctuationBlank`).
    var blankCache: [BlankKey: (left: Int32, right: Int32)] = [:]
    /// This thread's FreeType for loading glyph outlines ahead of Cairo (made on first use).
    private var glyphLoader: OpaquePointer?
    /// The executable's hooks, when they are on (taken once: they are installed before any engine).
    private let hooks = LibraryHooks.installed
    /// The fonts fontconfig listed when the engine was made (see `EnginePool.fontsChanged`).
    var generation = 0
    /// The fonts whose Cairo side Pango has made under `FaceLock` (`prepareForMissingGlyphs`).
    private var measured: Set<UnsafeMutableRawPointer> = []
    /// The file and face index of each font met, for the loader (nil: not a file).
    private var fontFiles: [FontKey: (path: String, index: Int)?] = [:]

    package init(plan: FontPlan) {
        // The face-class rules must be in fontconfig's configuration before any font map exists.
        _ = FaceClasses.rulesLoaded
        self.plan = plan
        fontMap = pango_cairo_font_map_new()
        let ctx = pango_font_map_create_context(fontMap)!
        context = ctx
        pango_cairo_context_set_resolution(ctx, 72)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(ctx, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(ctx, 0)
        pango_context_set_language(ctx, pango_language_from_string(plan.language))
    }

    /// Serves `plan` from now on: the descriptions made for the last plan go, the fonts stay.
    /// Runs in the plan's language carry no language of their own, so the context takes it.
    func adopt(_ plan: FontPlan) {
        freeDescriptions()
        if plan.language != self.plan.language {
            pango_context_set_language(context, pango_language_from_string(plan.language))
        }
        self.plan = plan
    }

    private func freeDescriptions() {
        for d in descriptions + scriptDescriptions.joined() { if let d { pango_font_description_free(d) } }
        descriptions.removeAll(keepingCapacity: true)
        scriptDescriptions.removeAll()
    }

    deinit {
        freeDescriptions()
        for (_, f) in fonts { galley_object_unref(f) }
        if let glyphLoader { hooks?.freeGlyphLoader(glyphLoader) }
        galley_object_unref(UnsafeMutableRawPointer(context))
        galley_object_unref(fontMap)
    }

    /// The Pango description (faces with fallbacks, weight, style, size) of a story style.
    func description(style: Int) -> OpaquePointer {
        if style >= descriptions.count {
            descriptions.append(contentsOf: repeatElement(nil, count: style + 1 - descriptions.count))
        }
        if let d = descriptions[style] { return d }
        let d = plan.makeDescription(style: style)
        descriptions[style] = d
        return d
    }

    /// The description of a style for text whose script has faces of its own (`slot` > 0).
    func description(style: Int, slot: Int) -> OpaquePointer {
        guard slot > 0 else { return description(style: style) }
        while scriptDescriptions.count < slot { scriptDescriptions.append([]) }
        if style >= scriptDescriptions[slot - 1].count {
            scriptDescriptions[slot - 1].append(contentsOf: repeatElement(nil, count: style + 1 - scriptDescriptions[slot - 1].count))
        }
        if let d = scriptDescriptions[slot - 1][style] { return d }
        let d = plan.makeDescription(style: style, slot: slot)
        scriptDescriptions[slot - 1][style] = d
        return d
    }

    /// The registry key of a font this engine loaded.
    func key(of font: UnsafeMutablePointer<PangoFont>) -> FontKey {
        let raw = UnsafeMutableRawPointer(font)
        if let k = keys[raw] { return k }
        let desc = pango_font_describe(font)!
        let name = descriptionText(desc)
        pango_font_description_free(desc)
        let k = FontRegistry.shared.key(for: name, isColor: galley_font_is_color(font) != 0)
        keys[raw] = k
        g_object_ref(font)  // held so the pointer stays unique for this engine's life
        fonts[k] = font
        return k
    }

    /// Has Pango make a font's Cairo side under `FaceLock` before an item of `text` is shaped
    /// with it, when the item may hold a glyph the font lacks: Pango measures such a glyph's box
    /// through Cairo, and would otherwise open a face outside the lock. Once per font: after it
    /// Pango measures boxes from what it made. Text the font covers is shaped by HarfBuzz alone.
    func prepareForMissingGlyphs(_ font: UnsafeMutablePointer<PangoFont>, text: UnsafeBufferPointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(font)
        guard !measured.contains(raw), Self.mayLackGlyphs(font, text) else { return }
        FaceLock.run { galley_font_prepare_measures(font) }
        measured.insert(raw)
    }

    /// Whether `font` may lack a glyph for some character of `text`: a control character, or one
    /// beyond ASCII its cmap does not map (printable ASCII is in every font Pango picks for it).
    static func mayLackGlyphs(_ font: UnsafeMutablePointer<PangoFont>, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let bytes = text.baseAddress else { return false }
        var hbFont: OpaquePointer?
        var i = 0
        while i < text.count {
            let lead = bytes[i]
            if lead >= 0x20 && lead < 0x7F {
                i += 1
                continue
            }
            guard lead >= 0x80, let scalar = CJKPunctuation.scalar(at: i, bytes, length: text.count) else { return true }
            if hbFont == nil { hbFont = pango_font_get_hb_font(font) }
            var glyph: hb_codepoint_t = 0
            guard let hbFont, hb_font_get_nominal_glyph(hbFont, scalar, &glyph) != 0 else { return true }
            i += lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        }
        return false
    }

    /// Loads the outlines of a shaped paragraph's glyphs in font units on this thread, so that
    /// Cairo, drawing them on another, finds them made (the executable's hooks, glyphs.c: CFF
    /// fonts only; without the hooks, or for other fonts, this does nothing). A shaping thread
    /// does it for a build that draws every page.
    func prepareOutlines(of text: ShapedText) {
        guard let hooks else { return }
        if glyphLoader == nil { glyphLoader = hooks.makeGlyphLoader() }
        guard let glyphLoader else { return }
        var gids: [UInt32] = []
        for run in text.runs {
            let file: (path: String, index: Int)?
            if let known = fontFiles[run.font] {
                file = known
            } else {
                let f = font(run.font)
                file = galley_font_file(f).map { (String(cString: $0), galley_font_index(f)) }
                fontFiles[run.font] = file
            }
            guard let file else { continue }
            gids.removeAll(keepingCapacity: true)
            for g in text.glyphs[Int(run.glyphs.lowerBound)..<Int(run.glyphs.upperBound)] where g.glyph & 0xF000_0000 == 0 {
                gids.append(g.glyph)
            }
            hooks.prepareGlyphs(glyphLoader, file.path, file.index, gids)
        }
    }

    /// The file a font is read from, if fontconfig knows it.
    package func fontFile(_ key: FontKey) -> String? {
        galley_font_file(font(key)).map { String(cString: $0) }
    }

    /// What the preflight needs of a font's licence: its file, its family, and its OS/2
    /// `fsType` embedding bits (FreeType's reading; 0, installable, when unreadable).
    package func embeddingLicence(_ key: FontKey) -> (file: String?, family: String?, fsType: UInt16) {
        let f = font(key)
        let file = galley_font_file(f).map { String(cString: $0) }
        return (file, galley_font_family(f).map { String(cString: $0) }, FaceLock.run { galley_font_fs_type(f) })
    }

    /// The fonts this engine has loaded.
    var fontCount: Int { fonts.count }

    /// This engine's PangoFont for a key published by any engine (same fonts, same glyph ids).
    package func font(_ key: FontKey) -> UnsafeMutablePointer<PangoFont> {
        if let f = fonts[key] { return f }
        let desc = pango_font_description_from_string(FontRegistry.shared.description(of: key))
        let f = pango_font_map_load_font(fontMap, context, desc)!
        pango_font_description_free(desc)
        fonts[key] = f
        keys[UnsafeMutableRawPointer(f)] = key
        return f
    }
}

/// Resolves the faces a story asks for once, before shaping starts: which family and style each
/// face name means, which faces are substituted (for warnings), and each style's line metrics.
/// Immutable and shared by every thread.
package struct FontPlan: Sendable {
    /// A face name turned into what Pango can look up.
    package struct Face: Sendable, Hashable {
        package var family: String
        package var weight: Int32
        package var italic: Bool
        /// PangoStretch ("Futura Condensed"): normal unless the name says otherwise.
        package var stretch: UInt32 = PANGO_STRETCH_NORMAL.rawValue
        /// A colour (emoji) font. Never put in a family list: Pango then takes it for the digits,
        /// `#` and `*` it also covers; its own emoji itemization finds it for real emoji.
        package var isColor = false

        /// A new Pango description of this face alone at `size` points. The caller owns it.
        func makeDescription(size: Double) -> OpaquePointer {
            let d = pango_font_description_new()!
            pango_font_description_set_family(d, family)
            pango_font_description_set_weight(d, PangoWeight(rawValue: UInt32(weight)))
            pango_font_description_set_style(d, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
            if stretch != PANGO_STRETCH_NORMAL.rawValue { pango_font_description_set_stretch(d, PangoStretch(rawValue: stretch)) }
            pango_font_description_set_size(d, Int32((size * pangoScale).rounded()))
            return d
        }
    }
    /// Vertical metrics of a style's primary font, points.
    package struct Metrics: Sendable {
        package var ascent: Double
        package var descent: Double
        /// Underline and strikethrough: distance from the baseline (positive up) and thickness.
        package var underlinePosition: Double
        package var underlineThickness: Double
        package var strikethroughPosition: Double = 3
        package var strikethroughThickness: Double = 0.5
    }

    package let styles: [TextStyle]
    package let faces: [String: Face]
    package let fallbackFaces: [String]
    /// Faces tried first for text of a script (template `fallback` by script), by ISO 15924 tag
    /// as GLib gives it; a description for slot k + 1 puts entry k's faces first.
    package private(set) var scriptFallbacks: [(script: UInt32, faces: [String])] = []
    /// The CJK face that sets …, —, “ ” ‘ ’ next to CJK text (`CJKPunctuation`): the first of
    /// the Han and default fallbacks with ideographs and quotes; nil for none. Its description
    /// slot comes after the scripts' (0: none).
    package private(set) var cjkFamily: String?
    package var cjkPunctuationSlot: Int { cjkFamily == nil ? 0 : scriptFallbacks.count + 1 }
    /// Story face names that are CJK faces themselves: their own punctuation is kept.
    package private(set) var cjkFaces: Set<String> = []
    package let language: String
    /// Metrics of each style (index = style index).
    package let metrics: [Metrics]

    /// Resolves every face of the story with a throwaway engine on the calling thread.
    /// Substitutions become warnings located where the face was first asked for.
    /// `known`: faces already resolved with `engine` (see `FontWarmup`).
    package static func resolve(
        story: Story, fallbackFaces: [String], scriptFallbacks: [String: [String]] = [:], language: String, file: String,
        templateFiles: [String] = [], engine: TextEngine? = nil, known: [String: (Face, String?)] = [:]
    ) -> (FontPlan, [Diagnostic]) {
        var faces: [String: Face] = [:]
        var diagnostics: [Diagnostic] = []
        let probe = FontProbe(engine: engine ?? TextEngine(plan: .empty))
        // With no font at all Pango shapes nothing: say so instead of laying out empty glyphs.
        guard probe.hasFonts else {
            let config = ProcessInfo.processInfo.environment["FONTCONFIG_FILE"].map { " (FONTCONFIG_FILE is '\($0)')" } ?? ""
            let d = Diagnostic.error("fontconfig finds no fonts\(config); install fonts (make setup installs the ones Galley uses)")
            return (FontPlan(styles: story.styles, faces: [:], fallbackFaces: fallbackFaces, language: language, metrics: []), [d])
        }
        var names = Set(story.styles.map(\.face))
        names.formUnion(fallbackFaces)
        for list in scriptFallbacks.values { names.formUnion(list) }
        // Warnings in the order the faces appear in the source.
        let ordered = names.sorted {
            (story.faceRequests[$0]?.offset ?? Int.max, $0) < (story.faceRequests[$1]?.offset ?? Int.max, $1)
        }
        // A fallback no style names, not installed and of no kind Galley knows, is left out:
        // fontconfig's arbitrary stand-in for it would take the characters before the
        // fallbacks after it. A known family (`Songti SC`) takes its kind's stand-in.
        let named = Set(story.styles.map(\.face))
        var missing: Set<String> = []
        for name in ordered {
            let (face, used) = known[name] ?? probe.resolve(name)
            faces[name] = face
            if let used, !named.contains(name), !FaceClasses.isGeneric(name), FaceClasses.reason(for: name, using: used) == nil {
                missing.insert(name)
                let spot = TemplateLoader.faceSpot(name, in: templateFiles)
                diagnostics.append(
                    .warning(
                        "the template's fallback face '\(name)' is not installed; it is left out of the fallbacks", file: spot?.file,
                        at: spot?.at, length: spot?.length ?? 1))
                continue
            }
            // A generic family (`serif`) is answered by the system's default for it, as asked.
            if let used, !FaceClasses.isGeneric(name) {
                let requested = story.faceRequests[name]
                // The class the name is of, and what the substitute is ("a didone serif").
                let why = FaceClasses.reason(for: name, using: used).map { " (\($0))" } ?? Self.likelySlip(name)
                // A face only the template names is said at its place there, when it has one.
                let spot = requested == nil ? TemplateLoader.faceSpot(name, in: templateFiles) : nil
                diagnostics.append(
                    .warning(
                        "face '\(name)' is not installed; using '\(used)'\(why)", file: requested == nil ? spot?.file : file,
                        at: requested ?? spot?.at, length: spot?.length ?? name.unicodeScalars.count))
            }
        }
        let fallbackFaces = fallbackFaces.filter { !missing.contains($0) }
        let scriptFallbacks = scriptFallbacks.mapValues { $0.filter { !missing.contains($0) } }
        let unmeasured = FontPlan(styles: story.styles, faces: faces, fallbackFaces: fallbackFaces, language: language, metrics: [])
        // Bold and italic come from real faces; when a family has none, fontconfig synthesizes
        // them (emboldening, slanting), and the user is told.
        var told: Set<String> = []
        for (i, style) in story.styles.enumerated() where style.weight >= 600 || style.slant != .normal {
            let synthesis = probe.synthesis(unmeasured.makeDescription(style: i))
            let family = faces[style.face]?.family ?? style.face
            for (bit, what) in [(1, "bold"), (2, "italic")] where synthesis & bit != 0 && !told.contains(family + what) {
                told.insert(family + what)
                let requested = story.faceRequests[style.face]
                diagnostics.append(
                    .warning(
                        "'\(family)' has no \(what) face; synthesizing one", file: requested == nil ? nil : file, at: requested,
                        length: style.face.unicodeScalars.count))
            }
        }
        // A face whose file fontconfig reads but whose glyphs draw nothing (a damaged file) would
        // set its text invisibly: said once, at the first request of a name that became it. Only
        // the faces the styles name: probing a fallback the text never reaches would load it
        // (3 MB for a CJK face's CFF table).
        let styled = Set(story.styles.compactMap { faces[$0.face]?.family })
        for family in styled.sorted() where probe.drawsNoInk(family) {
            let name = ordered.first { faces[$0]?.family == family } ?? family
            let requested = story.faceRequests[name]
            diagnostics.append(
                .warning(
                    "face '\(family)' draws nothing: its font file's glyphs have no outlines (is it damaged?); its text is invisible",
                    file: requested == nil ? nil : file, at: requested, length: name.unicodeScalars.count))
        }
        // Styles that differ in colour, decoration, spacing, language… share a font: measured once.
        var measured: [String: Metrics] = [:]
        let metrics = story.styles.indices.map { i -> Metrics in
            let d = unmeasured.makeDescription(style: i)
            let key = descriptionText(d)
            if let known = measured[key] {
                pango_font_description_free(d)
                return known
            }
            let m = probe.metrics(d)
            measured[key] = m
            return m
        }
        var plan = FontPlan(styles: story.styles, faces: faces, fallbackFaces: fallbackFaces, language: language, metrics: metrics)
        plan.scriptFallbacks = scriptFallbacks.sorted { $0.key < $1.key }.map { (Self.scriptTag($0.key), $0.value) }
        plan.findCJKFaces(probe, candidates: (scriptFallbacks["Hani"] ?? []) + fallbackFaces)
        return (plan, diagnostics)
    }

    /// "; did you mean 'Helvetica'?" for a face name known to no table nor installed that is a
    /// slip of one that is (`Helvetca`), else nothing: colours, keys and values had suggestions,
    /// faces none. The installed faces are listed only here, for a name already not found.
    static func likelySlip(_ name: String) -> String {
        let known = Set(FaceClasses.table.map(\.family) + FontCatalog.faces().map(\.family))
        guard let guess = Suggestion.closest(to: name, in: known.sorted()), guess.lowercased() != name.lowercased() else { return "" }
        return "; did you mean '\(guess)'?"
    }

    /// Whether a family is a sans: by its class when the table knows it, else by its name.
    static func isSans(_ family: String) -> Bool {
        if let kind = FaceClasses.kind(ofFamily: family) { return [.grotesque, .humanist, .geometric, .cjkSans].contains(kind) }
        return family.contains("Sans") && !family.contains("Serif")
    }

    /// "Noto Serif CJK SC" → "Noto Sans CJK SC"; other names as they are.
    static func sansCounterpart(_ name: String) -> String {
        name.hasPrefix("Noto Serif CJK") ? "Noto Sans CJK" + name.dropFirst("Noto Serif CJK".count) : name
    }

    /// Sets `cjkFamily` and `cjkFaces` by asking the fonts which have an ideograph and “.
    private mutating func findCJKFaces(_ probe: FontProbe, candidates: [String]) {
        let faces = faces
        func family(_ name: String) -> String { faces[name]?.family ?? name }
        cjkFamily = candidates.map(family).first { probe.covers($0, [0x4E00, 0x201C]) }
        guard cjkFamily != nil else { return }
        cjkFaces = Set(styles.map(\.face)).filter { probe.covers(family($0), [0x4E00]) }
    }

    /// "Hani" as the tag GLib's `g_unicode_script_to_iso15924` gives.
    static func scriptTag(_ code: String) -> UInt32 {
        code.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The description slot for text of `script` (a GLib ISO 15924 tag): 0 when the template
    /// gives the script no faces of its own.
    package func slot(forScript script: UInt32) -> Int {
        (scriptFallbacks.firstIndex { $0.script == script } ?? -1) + 1
    }

    private init(styles: [TextStyle], faces: [String: Face], fallbackFaces: [String], language: String, metrics: [Metrics]) {
        self.styles = styles
        self.faces = faces
        self.fallbackFaces = fallbackFaces
        self.language = language
        self.metrics = metrics
    }

    /// A new Pango description for a style: its family, then the fallback families (with slot
    /// k > 0, those of `scriptFallbacks[k - 1]` first). The caller owns it.
    package func makeDescription(style: Int, slot: Int = 0) -> OpaquePointer {
        let s = styles[style]
        var face = faces[s.face] ?? Face(family: s.face, weight: 400, italic: false)
        // The run's own weight and slant win over what the face name says ("… Bold").
        if s.weight != 400 { face.weight = Int32(s.weight) }
        if s.slant != .normal { face.italic = true }
        let names =
            slot == cjkPunctuationSlot && slot > 0
            ? fallbackFaces : slot > 0 ? scriptFallbacks[slot - 1].faces + fallbackFaces : fallbackFaces
        // A sans sets its Chinese in a CJK sans: a heading in DejaVu Sans is not to fall back
        // to Noto Serif CJK Bold.
        let sans = Self.isSans(face.family)
        let fallbacks = names.map { sans ? Self.sansCounterpart($0) : $0 }.compactMap { name -> String? in
            guard let f = faces[name] else { return name }
            return f.isColor ? nil : f.family
        }
        let cjk = sans ? Self.sansCounterpart(cjkFamily ?? face.family) : cjkFamily ?? face.family
        let first = slot == cjkPunctuationSlot && slot > 0 ? [cjk, face.family] : [face.family]
        let families = (first + fallbacks).joined(separator: ",")
        let d = pango_font_description_new()!
        pango_font_description_set_family(d, families)
        pango_font_description_set_weight(d, PangoWeight(rawValue: UInt32(face.weight)))
        pango_font_description_set_style(
            d, s.slant == .oblique ? PANGO_STYLE_OBLIQUE : face.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        if face.stretch != PANGO_STRETCH_NORMAL.rawValue {
            pango_font_description_set_stretch(d, PangoStretch(rawValue: face.stretch))
        }
        pango_font_description_set_size(d, Int32((s.size * pangoScale).rounded()))
        return d
    }
}

/// Asks fontconfig (through Pango) what a face name resolves to.
final class FontProbe {
    let engine: TextEngine

    init(engine: TextEngine) { self.engine = engine }

    /// Whether fontconfig lists any font at all (Pango's generic families exist regardless).
    var hasFonts: Bool { galley_font_count(engine.fontMap) > 0 }

    /// Style words of PostScript names ("Helvetica-BoldOblique") and of "Family Style" names.
    static let styleWords: [(String, Int32, Bool)] = [
        ("bolditalic", 700, true), ("boldoblique", 700, true), ("bold", 700, false),
        ("italic", 400, true), ("oblique", 400, true), ("roman", 400, false), ("regular", 400, false),
        ("book", 400, false), ("medium", 500, false), ("semibold", 600, false), ("light", 300, false),
        ("black", 900, false), ("heavy", 900, false), ("mediumitalic", 500, true), ("lightitalic", 300, true),
        ("thin", 100, false), ("hairline", 100, false), ("ultralight", 200, false), ("extralight", 200, false),
        ("demibold", 600, false), ("demi", 600, false), ("extrabold", 800, false), ("ultrabold", 800, false),
    ]

    /// Width words of "Family Width Weight" names ("Futura Condensed Medium"), as PangoStretch.
    static let widthWords: [String: PangoStretch] = [
        "ultracondensed": PANGO_STRETCH_ULTRA_CONDENSED, "extracondensed": PANGO_STRETCH_EXTRA_CONDENSED,
        "compressed": PANGO_STRETCH_EXTRA_CONDENSED, "condensed": PANGO_STRETCH_CONDENSED,
        "narrow": PANGO_STRETCH_CONDENSED, "semicondensed": PANGO_STRETCH_SEMI_CONDENSED,
        "semiexpanded": PANGO_STRETCH_SEMI_EXPANDED, "expanded": PANGO_STRETCH_EXPANDED,
        "extended": PANGO_STRETCH_EXPANDED, "wide": PANGO_STRETCH_EXPANDED, "extraexpanded": PANGO_STRETCH_EXTRA_EXPANDED,
    ]

    /// A "Family Weight Width Style" name read from its end: the family and the face it asks
    /// for, or nil when no style or width word ends it. Two words are tried before one ("Demi Bold").
    /// `throughFamilies`: go on through a name the table knows ("Arial Black" is then Arial at
    /// weight 900: what its stand-in must be set at when it is not installed).
    static func styled(_ name: String, throughFamilies: Bool = false) -> FontPlan.Face? {
        var words = name.split(separator: " ").map(String.init)
        var face = FontPlan.Face(family: name, weight: 400, italic: false)
        var stripped = false
        // A family the table knows is a name, not a style ("Times New Roman", "Arial Black").
        while words.count > 1, throughFamilies || !FaceClasses.isFamily(words.joined(separator: " ")) {
            let two = words.count > 2 ? (words[words.count - 2] + words[words.count - 1]).lowercased() : nil
            // "Ultra Light Italic": three words, the weight's two and the slant.
            let three = words.count > 3 ? words.suffix(3).joined().lowercased() : nil
            let taken: Int
            if let three, let style = styleWord(three), style.italic {
                face.weight = style.weight != 400 ? style.weight : face.weight
                face.italic = true
                taken = 3
            } else if let two, let style = styleWord(two) {
                face.weight = style.weight != 400 ? style.weight : face.weight
                face.italic = face.italic || style.italic
                taken = 2
            } else if let two, let width = widthWords[two] {
                face.stretch = width.rawValue
                taken = 2
            } else if let style = styleWords.first(where: { $0.0 == words.last!.lowercased() }) {
                if style.1 != 400 { face.weight = style.1 }
                face.italic = face.italic || style.2
                taken = 1
            } else if let width = widthWords[words.last!.lowercased()] {
                face.stretch = width.rawValue
                taken = 1
            } else {
                break
            }
            words.removeLast(taken)
            stripped = true
        }
        face.family = words.joined(separator: " ")
        return stripped ? face : nil
    }

    /// The family of a PostScript name's family part written without spaces, as the table of
    /// known families spells it ("HelveticaNeue" is Helvetica Neue), and the width a trailing
    /// width word asks for ("AvenirNextCondensed"); nil when the table knows neither.
    static func postScriptFamily(_ family: String) -> (String, PangoStretch?)? {
        FaceClasses.entry(runningOn: family).map { ($0.0.family, $0.width.flatMap { widthWords[$0] }) }
    }

    /// A PostScript name's family and style word (lower case): "Helvetica-Bold", and as
    /// Monotype's and Apple's fonts spell them, "Arial-BoldMT", "TimesNewRomanPS-ItalicMT",
    /// "ArialMT" and "TimesNewRomanPSMT" (the last two regular). Nil for other names.
    static func postScriptParts(_ name: String) -> (family: String, style: String)? {
        var family: Substring
        var style: String
        if let dash = name.lastIndex(of: "-") {
            (family, style) = (name[..<dash], name[name.index(after: dash)...].lowercased())
            if name.hasSuffix("MT") { style.removeLast(2) }
        } else if !name.contains(" "), name.hasSuffix("MT"), name.count > 2 {
            (family, style) = (name.dropLast(2), "regular")
        } else {
            return nil
        }
        if family.hasSuffix("PS"), family.count > 2 { family = family.dropLast(2) }
        let trimmed = String(family).trimmed()
        return trimmed.isEmpty ? nil : (trimmed, style)
    }

    /// The weight and slant a PostScript style word names: one of `styleWords`, or a weight
    /// and a slant run together ("UltraLightItalic", "SemiboldOblique").
    static func styleWord(_ word: String) -> (weight: Int32, italic: Bool)? {
        if let (_, w, i) = styleWords.first(where: { $0.0 == word }) { return (w, i) }
        for slant in ["italic", "oblique"] where word.hasSuffix(slant) {
            let stem = word.dropLast(slant.count)
            if let (_, w, _) = styleWords.first(where: { $0.0 == stem && !$0.2 }) { return (w, true) }
        }
        return nil
    }

    /// A PostScript style word, after a width word run on before it ("CondensedBold",
    /// "CondensedExtraBold", "Condensed"): the width, weight and slant. "HelveticaNeue-
    /// CondensedBold" was read as no style at all, and set regular at normal width.
    static func widthAndStyle(_ word: String) -> (width: PangoStretch?, weight: Int32, italic: Bool)? {
        if let (w, i) = styleWord(word) { return (nil, w, i) }
        for (name, width) in widthWords.sorted(by: { $0.key.count > $1.key.count }) where word.hasPrefix(name) {
            let rest = String(word.dropFirst(name.count))
            if rest.isEmpty { return (width, 400, false) }
            if let (w, i) = styleWord(rest) { return (width, w, i) }
        }
        return nil
    }

    /// The face for a name, and the family actually used when the name is not installed.
    func resolve(_ name: String) -> (FontPlan.Face, String?) {
        var candidates: [FontPlan.Face] = []
        // "Helvetica-Bold", "Arial-BoldMT", "TimesNewRomanPSMT": a PostScript name.
        if let (family, word) = Self.postScriptParts(name), let (width, w, i) = Self.widthAndStyle(word) {
            var face = FontPlan.Face(family: family, weight: w, italic: i)
            if let width { face.stretch = width.rawValue }
            if let (spaced, stretch) = Self.postScriptFamily(family) {
                face.family = spaced
                if let stretch { face.stretch = stretch.rawValue }
            }
            candidates.append(face)
        }
        // "DejaVu Serif Bold Italic", "Futura Condensed Medium": trailing style and width words.
        let whole = FontPlan.Face(family: name, weight: 400, italic: false)
        if let styled = Self.styled(name) {
            // A family named with a width ("Nimbus Sans Narrow") is that family, not a width of another.
            if styled.stretch != PANGO_STRETCH_NORMAL.rawValue, case let (used, color) = matchedFamily(whole),
                normalize(used) == normalize(name)
            {
                return (FontPlan.Face(family: name, weight: 400, italic: false, isColor: color), nil)
            }
            candidates.append(styled)
        }
        candidates.append(whole)
        // Prefer a reading whose family is installed as such.
        var substitute: (FontPlan.Face, String)?
        for var c in candidates {
            let (used, color) = matchedFamily(c)
            c.isColor = color
            if normalize(used) == normalize(c.family) {
                // A width the family has no face in ("Liberation Sans Narrow") is set in its
                // nearest, normal width: a substitution, said as one.
                if c.stretch != PANGO_STRETCH_NORMAL.rawValue, !Self.has(family: used, width: Self.fontconfigWidth[c.stretch] ?? 100) {
                    return (c, used)
                }
                return (c, nil)
            }
            if substitute == nil {
                // Name the substitute's real family: an alias ("Palatino") in a family list loses
                // to the fallback families after it, which are real names.
                c.family = used
                // A known family whose name says a weight or width ("Arial Black", "Franklin
                // Gothic Medium") keeps it in its stand-in.
                if c.weight == 400, !c.italic, c.stretch == PANGO_STRETCH_NORMAL.rawValue,
                    let implied = Self.styled(name, throughFamilies: true)
                {
                    (c.weight, c.italic, c.stretch) = (implied.weight, implied.italic, implied.stretch)
                }
                substitute = (c, used)
            }
        }
        return substitute.map { ($0.0, $0.1) } ?? (candidates[0], name)
    }

    private func normalize(_ s: String) -> String { s.lowercased().filter { !$0.isWhitespace } }

    /// Whether the font fontconfig gives for `family` has every one of `characters`.
    func covers(_ family: String, _ characters: [UInt32]) -> Bool {
        let d = FontPlan.Face(family: family, weight: 400, italic: false).makeDescription(size: 10)
        defer { pango_font_description_free(d) }
        guard let font = pango_font_map_load_font(engine.fontMap, engine.context, d) else { return false }
        defer { galley_object_unref(font) }
        return characters.allSatisfy { pango_font_has_char(font, $0) != 0 }
    }

    /// The family fontconfig picks for a face with no fallbacks, and whether it is a colour
    /// font: fontconfig's best match for the pattern Pango makes of the face (family, weight,
    /// slant, width, size, language), which is the first font of the fontset Pango would make.
    /// Making that fontset sorts every installed font (most of a millisecond); a substituted
    /// face's fontset would be made for nothing, as shaping asks for its substitute.
    func matchedFamily(_ face: FontPlan.Face) -> (String, Bool) {
        let language = String(cString: pango_language_to_string(pango_context_get_language(engine.context)))
        let key = MatchKey(family: face.family, weight: face.weight, italic: face.italic, stretch: face.stretch, language: language)
        return Self.matches.answer(key) { fontconfigMatch(face, language: language) }
    }

    /// What a match asks of fontconfig.
    struct MatchKey: Hashable, Sendable {
        var family: String
        var weight: Int32
        var italic: Bool
        var stretch: UInt32
        var language: String
    }

    /// fontconfig's answers, kept for the process: a match takes a fraction of a millisecond,
    /// and every story resolves its template's faces again (an issue's twenty articles, each
    /// build of `watch`), always with the same answers while the fonts stay as they are.
    static let matches = FontMatches()

    private func fontconfigMatch(_ face: FontPlan.Face, language: String) -> (String, Bool) {
        guard let p = FcPatternCreate() else { return ("?", false) }
        defer { FcPatternDestroy(p) }
        func add(_ key: String, _ value: String) {
            value.withCString { FcPatternAddString(p, key, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        }
        add("family", face.family)
        add("lang", language)
        FcPatternAddInteger(p, "weight", FcWeightFromOpenType(face.weight))
        FcPatternAddInteger(p, "slant", face.italic ? 100 : 0)  // FC_SLANT_ITALIC, FC_SLANT_ROMAN
        FcPatternAddInteger(p, "width", Self.fontconfigWidth[face.stretch] ?? 100)
        FcPatternAddDouble(p, "size", 10)
        FcConfigSubstitute(nil, p, FcMatchPattern)
        FcDefaultSubstitute(p)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, p, &result) else { return ("?", false) }
        defer { FcPatternDestroy(match) }
        var family: UnsafeMutablePointer<FcChar8>?
        var color: FcBool = 0
        let name = FcPatternGetString(match, "family", 0, &family) == FcResultMatch ? family.map { String(cString: $0) } : nil
        let isColor = FcPatternGetBool(match, "color", 0, &color) == FcResultMatch && color != 0
        return (name ?? "?", isColor)
    }

    /// Whether fontconfig lists a face of `family` narrower than normal when `width` (FC_WIDTH)
    /// is, wider when it is: families name their widths loosely ("Condensed" is 87 in DejaVu).
    static func has(family: String, width: Int32) -> Bool {
        guard let p = FcPatternCreate() else { return true }
        defer { FcPatternDestroy(p) }
        family.withCString { FcPatternAddString(p, "family", UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        guard let os = FcObjectSetCreate() else { return true }
        defer { FcObjectSetDestroy(os) }
        FcObjectSetAdd(os, "width")
        guard let set = FcFontList(nil, p, os) else { return true }
        defer { FcFontSetDestroy(set) }
        for i in 0..<Int(set.pointee.nfont) {
            var w: Int32 = 100
            guard let f = set.pointee.fonts[i], FcPatternGetInteger(f, "width", 0, &w) == FcResultMatch else { continue }
            if width < 100 ? w < 100 : w > 100 { return true }
        }
        return false
    }

    /// PangoStretch as fontconfig's width (FC_WIDTH_…).
    static let fontconfigWidth: [UInt32: Int32] = [
        PANGO_STRETCH_ULTRA_CONDENSED.rawValue: 50, PANGO_STRETCH_EXTRA_CONDENSED.rawValue: 63,
        PANGO_STRETCH_CONDENSED.rawValue: 75, PANGO_STRETCH_SEMI_CONDENSED.rawValue: 87, PANGO_STRETCH_NORMAL.rawValue: 100,
        PANGO_STRETCH_SEMI_EXPANDED.rawValue: 113, PANGO_STRETCH_EXPANDED.rawValue: 125,
        PANGO_STRETCH_EXTRA_EXPANDED.rawValue: 150, PANGO_STRETCH_ULTRA_EXPANDED.rawValue: 200,
    ]

    /// Whether the font of `family` has glyphs for common letters that draw nothing: a file
    /// fontconfig reads (its names) whose outlines cannot be loaded (a damaged `loca` or
    /// `glyf`), which would set every line in it invisibly. The letters it has no glyph for
    /// (a CJK face's Latin) do not count.
    func drawsNoInk(_ family: String) -> Bool {
        let d = FontPlan.Face(family: family, weight: 400, italic: false).makeDescription(size: 10)
        defer { pango_font_description_free(d) }
        guard let font = pango_font_map_load_font(engine.fontMap, engine.context, d), let hb = pango_font_get_hb_font(font) else {
            return false
        }
        defer { galley_object_unref(font) }
        var tried = 0
        for scalar in ["H", "o", "中", "あ"].compactMap({ $0.unicodeScalars.first?.value }) {
            var glyph: hb_codepoint_t = 0
            guard hb_font_get_nominal_glyph(hb, scalar, &glyph) != 0, glyph != 0 else { continue }
            var ink = PangoRectangle()
            pango_font_get_glyph_extents(font, glyph, &ink, nil)
            if ink.width > 0 && ink.height > 0 { return false }
            tried += 1
        }
        return tried > 0
    }

    /// What fontconfig synthesizes for the first family of a description (bit 0 bold, bit 1 slant).
    func synthesis(_ d: OpaquePointer) -> Int {
        defer { pango_font_description_free(d) }
        let family = String(cString: pango_font_description_get_family(d))
        pango_font_description_set_family(d, String(family.split(separator: ",").first ?? ""))
        guard let font = pango_font_map_load_font(engine.fontMap, engine.context, d) else { return 0 }
        defer { galley_object_unref(font) }
        return Int(galley_font_synthesis(font))
    }

    /// Metrics of the first font of a description (the style's own face, not a fallback): the
    /// vertical metrics `pango_font_get_metrics` gives, which do not depend on the language,
    /// without its approximate character widths (Galley uses none), which it measures by laying
    /// out a sample sentence: 0.3–0.7 ms a font on the serial start of a build.
    func metrics(_ d: OpaquePointer) -> FontPlan.Metrics {
        defer { pango_font_description_free(d) }
        // Metrics of the primary family only: fallbacks must not change the line pitch.
        let family = String(cString: pango_font_description_get_family(d))
        let primary = pango_font_description_copy(d)!
        defer { pango_font_description_free(primary) }
        pango_font_description_set_family(primary, String(family.split(separator: ",").first ?? ""))
        guard let font = pango_font_map_load_font(engine.fontMap, engine.context, primary),
            let m = galley_font_base_metrics(font)
        else { return FontPlan.Metrics(ascent: 8, descent: 2, underlinePosition: -1, underlineThickness: 0.5) }
        defer {
            pango_font_metrics_unref(m)
            galley_object_unref(font)
        }
        return FontPlan.Metrics(
            ascent: Double(pango_font_metrics_get_ascent(m)) / pangoScale,
            descent: Double(pango_font_metrics_get_descent(m)) / pangoScale,
            underlinePosition: Double(pango_font_metrics_get_underline_position(m)) / pangoScale,
            underlineThickness: Double(pango_font_metrics_get_underline_thickness(m)) / pangoScale,
            strikethroughPosition: Double(pango_font_metrics_get_strikethrough_position(m)) / pangoScale,
            strikethroughThickness: Double(pango_font_metrics_get_strikethrough_thickness(m)) / pangoScale)
    }
}

extension FontPlan {
    /// A plan with no styles, for engines that only load fonts by key.
    package static let empty = FontPlan(styles: [], faces: [:], fallbackFaces: [], language: "en", metrics: [])
}

/// A font published by one engine so that another can load the same face.
package typealias FontKey = Int32

/// Process-wide table of fonts met while shaping: Pango font description string ↔ key.
package final class FontRegistry: @unchecked Sendable {
    package static let shared = FontRegistry()
    private let lock = Lock()
    private var byName: [String: FontKey] = [:]
    private var names: [String] = []
    private var color: [Bool] = []

    package func key(for name: String, isColor: Bool) -> FontKey {
        lock.lock()
        defer { lock.unlock() }
        if let k = byName[name] { return k }
        names.append(name)
        color.append(isColor)
        let k = FontKey(names.count - 1)
        byName[name] = k
        return k
    }

    package func description(of key: FontKey) -> String {
        lock.lock()
        defer { lock.unlock() }
        return names[Int(key)]
    }

    /// True for colour (emoji) fonts.
    package func isColor(_ key: FontKey) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return color[Int(key)]
    }
}

extension TextEngine {
    /// A Pango layout of a caption set `width` points wide in the template's caption style,
    /// centred. The renderer draws exactly this layout, so measured and drawn agree. The caller
    /// owns the layout.
    package func captionLayout(_ caption: String, width: Double, style: CaptionSpec) -> OpaquePointer {
        let layout = pango_layout_new(context)!
        let d = pango_font_description_new()!
        defer { pango_font_description_free(d) }
        // A colour (emoji) face among the fallbacks takes digits, `#` and `*` from a layout's
        // itemizer (they are emoji too, in Pango's eyes), which set "Figure 57 #1" as emoji and
        // lost it from the text: the colour faces are offered to the emoji alone.
        let color = plan.fallbackFaces.filter { plan.faces[$0]?.isColor == true }
        let text = plan.fallbackFaces.filter { plan.faces[$0]?.isColor != true }
        pango_font_description_set_family(d, ([style.face] + text).joined(separator: ","))
        pango_font_description_set_style(d, style.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_font_description_set_size(d, Int32((style.size * pangoScale).rounded()))
        pango_layout_set_font_description(layout, d)
        pango_layout_set_width(layout, Int32(max(1, width) * pangoScale))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        pango_layout_set_text(layout, caption, -1)
        if !color.isEmpty, let attrs = pango_attr_list_new() {
            var byte = 0
            for character in caption {
                let length = character.utf8.count
                if character.unicodeScalars.contains(where: {
                    $0.properties.isEmojiPresentation || $0.value == 0xFE0F || $0.value == 0x20E3
                }),
                    let a = pango_attr_family_new(color.joined(separator: ","))
                {
                    a.pointee.start_index = guint(byte)
                    a.pointee.end_index = guint(byte + length)
                    pango_attr_list_insert(attrs, a)
                }
                byte += length
            }
            pango_layout_set_attributes(layout, attrs)
            pango_attr_list_unref(attrs)
        }
        return layout
    }

    /// Height of a caption set `width` points wide.
    package func captionHeight(_ text: String, width: Double, style: CaptionSpec) -> Double {
        let layout = captionLayout(text, width: width, style: style)
        defer { galley_object_unref(UnsafeMutableRawPointer(layout)) }
        var w: Int32 = 0
        var h: Int32 = 0
        FaceLock.run { pango_layout_get_size(layout, &w, &h) }
        return Double(h) / pangoScale
    }
}

/// Pango's text form of a font description ("DejaVu Serif Bold 12").
func descriptionText(_ d: OpaquePointer) -> String {
    guard let c = pango_font_description_to_string(d) else { return "" }
    defer { g_free(c) }
    return String(cString: c)
}
