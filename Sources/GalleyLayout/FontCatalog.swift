import CPango
import GalleySupport

/// What `galley fonts` shows: the faces fontconfig lists (installed and project fonts), and
/// what a face name resolves to, the way a build resolves it.
package enum FontCatalog {
    package struct Face: Encodable, Sendable, Equatable {
        package var family: String
        package var style: String
        /// OpenType weight, 100–900.
        package var weight: Int
        package var italic: Bool
        package var file: String
        /// The face's index in a collection (`.ttc`), 0 otherwise.
        package var index: Int
    }

    package struct Resolution: Encodable, Sendable {
        /// The name asked for.
        package var name: String
        package var face: Face?
        /// The name is not installed as such: `face` stands in for it.
        package var substituted: Bool
        /// Why that face: the class of the name and what the substitute is ("a didone serif").
        package var reason: String?
    }

    /// Every face fontconfig lists, by family, then weight, then style.
    package static func faces() -> [Face] {
        _ = FaceClasses.rulesLoaded
        let pattern = FcPatternCreate()
        let objects = FcObjectSetCreate()
        defer {
            FcPatternDestroy(pattern)
            FcObjectSetDestroy(objects)
        }
        for name in ["family", "style", "weight", "slant", "file", "index"] { FcObjectSetAdd(objects, name) }
        guard let set = FcFontList(FcConfigGetCurrent(), pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        var out: [Face] = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let p = set.pointee.fonts[i], let face = face(of: p) else { continue }
            out.append(face)
        }
        func order(_ f: Face) -> (String, Int, Int, String) { (f.family.lowercased(), f.weight, f.italic ? 1 : 0, f.style) }
        return out.sorted { order($0) < order($1) }
    }

    /// A face as fontconfig describes it; nil without a family or a file.
    static func face(of p: OpaquePointer) -> Face? {
        func string(_ key: String) -> String? {
            var s: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(p, key, 0, &s) == FcResultMatch, let s else { return nil }
            return String(cString: s)
        }
        func integer(_ key: String) -> Int32? {
            var v: Int32 = 0
            return FcPatternGetInteger(p, key, 0, &v) == FcResultMatch ? v : nil
        }
        func number(_ key: String) -> Double? {
            var v = 0.0
            if FcPatternGetDouble(p, key, 0, &v) == FcResultMatch { return v }
            return integer(key).map(Double.init)
        }
        guard let family = string("family"), let file = string("file") else { return nil }
        let weight = Int(FcWeightToOpenTypeDouble(number("weight") ?? 80).rounded())
        return Face(
            family: family, style: string("style") ?? "", weight: weight, italic: (integer("slant") ?? 0) != 0, file: file,
            index: Int(integer("index") ?? 0))
    }

    /// What a build makes of the face name `name`: the face drawn, and why when it stands in.
    /// The file fontconfig gives for `family` in its regular face, as a library asking it
    /// directly (librsvg, for an SVG's text) would get; nil when it gives none.
    package static func file(ofFamily family: String) -> String? {
        let engine = EnginePool.borrow(plan: .empty)
        defer { EnginePool.giveBack(engine) }
        let d = FontPlan.Face(family: family, weight: 400, italic: false).makeDescription(size: 10)
        defer { pango_font_description_free(d) }
        guard let font = pango_font_map_load_font(engine.fontMap, engine.context, d) else { return nil }
        defer { galley_object_unref(font) }
        return galley_font_file(font).map { String(cString: $0) }
    }

    package static func resolve(_ name: String) -> Resolution {
        let engine = EnginePool.borrow(plan: .empty)
        defer { EnginePool.giveBack(engine) }
        let probe = FontProbe(engine: engine)
        let (face, used) = probe.resolve(name)
        let d = face.makeDescription(size: 10)
        defer { pango_font_description_free(d) }
        var drawn: Face?
        if let font = pango_font_map_load_font(engine.fontMap, engine.context, d) {
            if let p = galley_font_pattern(font) { drawn = Self.face(of: p) }
            galley_object_unref(font)
        }
        let reason = used.map { FaceClasses.reason(for: name, using: $0) ?? "not a family Galley knows by kind; fontconfig's choice" }
        return Resolution(name: name, face: drawn, substituted: used != nil, reason: reason)
    }
}
