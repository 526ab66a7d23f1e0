import CPango
import GalleyStory
import GalleySupport

/// Vertical text (`<vertical>`) is shaped as horizontal text with the fonts' vertical forms
/// (`vert`, `vrt2`: 「」（）《》 turned, ，。 moved to the upper right, ︙ for …), broken like
/// any line, and drawn in a space turned a quarter turn: there turned text (Latin words, long
/// numbers) reads downwards as it should, and the renderer turns each wide character and each
/// upright unit back, about the centre of its em, so they stand upright (UAX #50's U and Tu
/// classes). Pango's own vertical gravity was tried first: its items of punctuation came out
/// turned 180° in Galley's drawing, and its glyph offsets depended on the font's vertical
/// metrics; drawing upright ourselves is the same in the PDF and the PNG and needs no metrics
/// but the em.
extension TextEngine {
    /// 縦中横: numbers of at most `digits` ASCII digits (not part of a longer number or word)
    /// become one upright unit an em long, their glyphs side by side across the column and
    /// centred in it: all the unit's advance is on its last glyph, each glyph offset to its
    /// place, and the unit's bytes are flagged `uprightUnit`.
    static func setUprightDigits(
        _ bytes: [UInt8], upTo digits: Int, glyphs: inout [PangoGlyphInfo], clusters: [Int32], runs: [GlyphRun],
        sizes styles: [TextStyle], advance: inout [Double], flags: inout [ByteFlags]
    ) {
        guard digits > 0 else { return }
        func isDigit(_ b: Int) -> Bool { b >= 0 && b < bytes.count && bytes[b] >= 0x30 && bytes[b] <= 0x39 }
        func joins(_ b: Int) -> Bool {
            guard b >= 0 && b < bytes.count else { return false }
            let c = bytes[b] | 0x20
            return isDigit(b) || (c >= 0x61 && c <= 0x7A) || bytes[b] == UInt8(ascii: ".") || bytes[b] == UInt8(ascii: ",")
        }
        var g = 0
        for run in runs {
            g = Int(run.glyphs.lowerBound)
            let em = styles[Int(run.style)].size * pangoScale
            while g < Int(run.glyphs.upperBound) {
                let c = Int(clusters[g])
                guard isDigit(c), !joins(c - 1) else {
                    g += 1
                    continue
                }
                var e = g
                while e < Int(run.glyphs.upperBound) && isDigit(Int(clusters[e])) && Int(clusters[e]) == c + (e - g) { e += 1 }
                if e - g <= digits && !joins(c + (e - g)) {
                    uprightUnit(g..<e, em: em, glyphs: &glyphs, from: c, advance: &advance, flags: &flags)
                }
                g = e
            }
        }
    }

    /// A CJK face's vertical form of a run of dashes (`——`, one glyph under `vert`) keeps the
    /// horizontal advance of one: set down the column it would run over its neighbours. Each
    /// such glyph is given an em for each dash it stands for.
    static func setDashRuns(
        _ bytes: [UInt8], glyphs: inout [PangoGlyphInfo], clusters: [Int32], runs: [GlyphRun], sizes styles: [TextStyle],
        advance: inout [Double]
    ) {
        for run in runs {
            let size = styles[Int(run.style)].size
            for g in Int(run.glyphs.lowerBound)..<Int(run.glyphs.upperBound) where isDash(bytes, at: Int(clusters[g])) {
                let c = Int(clusters[g])
                // The glyph's cluster: to the next glyph's (the run is left to right), else the run's end.
                let end = g + 1 < Int(run.glyphs.upperBound) ? Int(clusters[g + 1]) : Int(run.bytes.upperBound)
                guard end > c else { continue }
                var n = 0
                var b = c
                while b < end, isDash(bytes, at: b) {
                    n += 1
                    b += 3
                }
                let wanted = Double(n) * size
                guard n > 1, b == end, Double(glyphs[g].geometry.width) / pangoScale < wanted * 0.95 else { continue }
                glyphs[g].geometry.width = Int32((wanted * pangoScale).rounded())
                advance[c] += wanted - (c..<end).reduce(0) { $0 + advance[$1] }
            }
        }
    }

    /// Whether a dash a CJK face sets full width starts at byte `b`: — ― ⸺ ⸻.
    package static func isDash(_ bytes: [UInt8], at b: Int) -> Bool {
        guard b + 2 < bytes.count, bytes[b] == 0xE2 else { return false }
        return bytes[b + 1] == 0x80 && (bytes[b + 2] == 0x94 || bytes[b + 2] == 0x95)
            || bytes[b + 1] == 0xB8 && (bytes[b + 2] == 0xBA || bytes[b + 2] == 0xBB)
    }

    /// Makes glyphs `unit` (one digit each, from byte `first`) one upright unit `em` long.
    private static func uprightUnit(
        _ unit: Range<Int>, em: Double, glyphs: inout [PangoGlyphInfo], from first: Int, advance: inout [Double],
        flags: inout [ByteFlags]
    ) {
        let total = unit.reduce(Int32(0)) { $0 + glyphs[$1].geometry.width }
        var pen = Int32(((em - Double(total)) / 2).rounded())
        for g in unit {
            let w = glyphs[g].geometry.width
            glyphs[g].geometry.x_offset += pen
            glyphs[g].geometry.width = g == unit.upperBound - 1 ? Int32(em.rounded()) : 0
            pen += w
        }
        for b in first..<(first + unit.count) {
            advance[b] = b == first ? em / pangoScale : 0
            flags[b].insert(.uprightUnit)
        }
    }
}
