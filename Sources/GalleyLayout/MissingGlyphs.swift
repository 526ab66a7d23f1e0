import GalleyMarkup
import GalleyStory

extension ShapedText {
    static let unknownFlag: UInt32 = 0x1000_0000  // PANGO_GLYPH_UNKNOWN_FLAG
    static let emptyGlyph: UInt32 = 0x0FFF_FFFF  // PANGO_GLYPH_EMPTY

    /// Whether any glyph of the paragraph is Pango's box for a character no font has (an
    /// invisible character's among them): a quick test before `missingCharacters`.
    package var hasMissingGlyphs: Bool {
        let (unknownFlag, empty) = (Self.unknownFlag, Self.emptyGlyph)
        return glyphs.withUnsafeBufferPointer { g in g.contains { $0.glyph & unknownFlag != 0 && $0.glyph != empty } }
    }

    /// Calls `body` with the paragraph byte and the character of each glyph in `range` (paragraph
    /// bytes) that no face could draw. Pango shapes such a character as a box, an "unknown"
    /// glyph that carries the character itself.
    package func missingCharacters(in range: Range<Int>, _ body: (_ byte: Int, _ character: Unicode.Scalar) -> Void) {
        let (unknownFlag, empty) = (Self.unknownFlag, Self.emptyGlyph)
        for run in runs(meeting: range) {
            for i in glyphs(of: run, in: range) {
                let glyph = glyphs[i].glyph
                guard glyph & unknownFlag != 0, glyph != empty, let c = Unicode.Scalar(glyph & ~unknownFlag), !c.isInvisible else {
                    continue
                }
                body(Int(clusters[i]), c)
            }
        }
    }
}

extension Unicode.Scalar {
    /// Shaped as a box but never drawn: a forced line break (`<br>` is U+2028) ends its line, and
    /// the renderer draws no control character or space.
    var isInvisible: Bool {
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .spaceSeparator: true
        default: false
        }
    }

    /// "U+12000 CUNEIFORM SIGN A": the code point and, when Unicode names it, its name.
    package var described: String {
        var hex = String(value, radix: 16, uppercase: true)
        if hex.count < 4 { hex = String(repeating: "0", count: 4 - hex.count) + hex }
        guard let name = properties.name ?? properties.nameAlias else { return "U+" + hex }
        return "U+\(hex) \(name)"
    }
}

extension Flow {
    /// Warns once per document about each character of a paragraph that no face (its own, the
    /// template's fallbacks, fontconfig's) can draw: it would be printed as a box. A
    /// paragraph's new ones are said together, at the first: a sentence in a script no font
    /// has gave a warning, and its source line, for every letter.
    mutating func warnAboutMissingGlyphs(in l: ParagraphLayout) {
        guard l.index > missingGlyphsScanned else { return }
        missingGlyphsScanned = l.index
        guard l.text.hasMissingGlyphs else { return }
        var first: Int?
        var found: [Unicode.Scalar] = []
        l.text.missingCharacters(in: 0..<l.text.length) { byte, c in
            guard warnedMissing.insert(c.value).inserted else { return }
            first = first ?? byte
            found.append(c)
        }
        guard let first, let c = found.first else { return }
        let at = story.sourceMap.sourceLocation(ofByte: l.storyStart + first, in: story.text)
        let fix = "(install a font that has \(found.count == 1 ? "it" : "them"), or name one in the template's 'fallback')"
        let message =
            found.count == 1
            ? "no installed font has \(c.described); it is drawn as a box " + fix
            : "no installed font has \(found.count) characters of this paragraph (\(Self.listed(found))); they are drawn as boxes " + fix
        diagnostics.append(.warning(message, file: file, at: at, length: 1))
    }

    /// "U+0E20 THAI CHARACTER SO SAMPHAO, U+0E32 THAI CHARACTER SARA AA and 12 more".
    static func listed(_ characters: [Unicode.Scalar]) -> String {
        let named = characters.prefix(2).map(\.described).joined(separator: ", ")
        return characters.count > 2 ? named + " and \(characters.count - 2) more" : named.replacing(", ", with: " and ", maxReplacements: 1)
    }
}
