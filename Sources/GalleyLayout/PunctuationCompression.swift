import CPango
import GalleySupport
import GalleyTemplate

/// A CJK punctuation mark's blank: the part of its em box its ink leaves empty (the right half
/// of a Simplified 。or 」, the left half of 「, a quarter each side of a Traditional centred
/// 。), as the font's own half-width form (`halt`) tells it. What is left of it after the
/// shaper's compression of neighbouring marks is what a line may still give up.
package struct PunctuationBlank: Sendable, Equatable {
    /// Paragraph byte of the mark.
    package var byte: Int32
    /// Blank before and after the ink, points.
    package var left: Double
    package var right: Double
    /// What may hang past a line's end (`cjk.hanging`, 。，、．): the ink, or with full-width
    /// marks the ink and its blank; else 0.
    package var hang: Double

    /// All a line may take from the mark when it is not the line's last.
    var blank: Double { left + right }
}

/// Punctuation compression (标点挤压) per clreq's default, in two parts.
///
/// At shaping time (fixed, whatever the line breaks): two marks side by side share half an em
/// of blank between them when a closing mark meets an opening one (`，「` `」「`), and none when
/// both close or both open and one is a bracket (`。」` `」，` `「『`); two marks of one kind
/// that are no brackets (`，，` `。。`) keep theirs, ink meeting blank. `half` takes every mark's
/// blank away. The widths `x[]` are those of the compressed marks, so the breaker sees them.
///
/// At line time (what the line needs): a line's last mark drops its blank after the ink (a
/// justified line ends on ink, not half an em short of its edge), and a line wider than its
/// measure takes the blank of its marks (its first opening bracket, the marks inside, hanging
/// 。，、 when asked) before its ideographs are squeezed: `LineBreak.squeeze`.
struct PunctuationMarks {
    /// The marks met while shaping: glyph index, paragraph byte, blank before and after the
    /// ink along the line (Pango units), whether the mark may hang, and whether it is a bracket.
    private(set) var marks: [(glyph: Int, byte: Int, left: Int32, right: Int32, hangs: Bool, bracket: Bool)] = []
    /// Vertical text: the blank is above and below the ink of the vertical forms, and a cut
    /// moves the glyph along the column (`cut(_:before:after:vertical:)`).
    var vertical = false

    var isEmpty: Bool { marks.isEmpty }

    /// Whether the three bytes at `b` are a mark compression applies to: 、。, the CJK
    /// brackets, ・, the full-width （）［］｛｝，．：；, and curly quotes (full-width when shaped
    /// from the CJK face). ！ and ？ are never compressed (clreq), nor the ideographic space.
    @inline(__always) static func isMark(_ bytes: [UInt8], at b: Int) -> Bool {
        guard b + 2 < bytes.count else { return false }
        let (b0, b1, b2) = (bytes[b], bytes[b + 1], bytes[b + 2])
        switch b0 {
        case 0xE3:
            return (b1 == 0x80 && (b2 == 0x81 || b2 == 0x82 || (0x88...0x91).contains(b2) || (0x94...0x9B).contains(b2)))
                || (b1 == 0x83 && b2 == 0xBB)
        case 0xEF:
            switch (b1, b2) {
            case (0xBC, 0x88), (0xBC, 0x89), (0xBC, 0x8C), (0xBC, 0x8E), (0xBC, 0x9A), (0xBC, 0x9B), (0xBC, 0xBB), (0xBC, 0xBD),
                (0xBD, 0x9B), (0xBD, 0x9D):
                return true
            default: return false
            }
        case 0xE2:
            return b1 == 0x80 && (b2 == 0x98 || b2 == 0x99 || b2 == 0x9C || b2 == 0x9D)
        default: return false
        }
    }

    /// 、。，． : the marks that may hang past a line's end.
    static func mayHang(_ bytes: [UInt8], at b: Int) -> Bool {
        (bytes[b] == 0xE3 && bytes[b + 1] == 0x80 && (bytes[b + 2] == 0x81 || bytes[b + 2] == 0x82))
            || (bytes[b] == 0xEF && bytes[b + 1] == 0xBC && (bytes[b + 2] == 0x8C || bytes[b + 2] == 0x8E))
    }

    /// Whether the mark at `b` (`isMark`) is a bracket or a quotation mark: not one of 、。・，．：；.
    static func isBracket(_ bytes: [UInt8], at b: Int) -> Bool {
        let (b0, b1, b2) = (bytes[b], bytes[b + 1], bytes[b + 2])
        switch b0 {
        case 0xE3: return b1 == 0x80 && b2 != 0x81 && b2 != 0x82
        case 0xEF: return b1 == 0xBD || (b2 != 0x8C && b2 != 0x8E && b2 != 0x9A && b2 != 0x9B)
        default: return b0 == 0xE2
        }
    }

    mutating func add(glyph: Int, byte: Int, left: Int32, right: Int32, hangs: Bool, bracket: Bool) {
        marks.append((glyph, byte, left, right, hangs, bracket))
    }

    /// Compresses the marks as `spec` asks, writing their new advances and offsets into
    /// `glyphs` and `advance`, and returns what blank each keeps for the line breaker.
    mutating func apply(
        _ spec: CJKSpec, glyphs: inout [PangoGlyphInfo], advance: inout [Double], flags: inout [ByteFlags]
    ) -> [PunctuationBlank] {
        func cut(_ k: Int, left: Int32, right: Int32) {
            guard left > 0 || right > 0 else { return }
            Self.cut(&glyphs[marks[k].glyph].geometry, before: left, after: right, vertical: vertical)
            advance[marks[k].byte] -= Double(left + right) / pangoScale
            marks[k].left -= left
            marks[k].right -= right
        }
        for k in marks.indices where spec.punctuation != .full {
            if spec.punctuation == .half {
                cut(k, left: marks[k].left, right: marks[k].right)
            } else if k > 0 && marks[k].byte == marks[k - 1].byte + 3 && marks[k].glyph == marks[k - 1].glyph + 1
                && (marks[k - 1].bracket || marks[k].bracket)
            {
                // Neighbours: a closing and an opening mark keep the wider of their blanks
                // (half an em), two closing or two opening marks none. The first gives first.
                // Without a bracket (`，，` `。。`, or centred Traditional marks) the blank after
                // one mark is not beside another blank but before the next one's ink: clreq
                // and JLREQ 3.1.4 merge only blanks that meet, so both keep their em.
                let (a, b) = (marks[k - 1].right, marks[k].left)
                let excess = a + b - (a > 0 && b > 0 ? max(a, b) : 0)
                let fromA = min(a, excess)
                cut(k - 1, left: 0, right: fromA)
                cut(k, left: min(b, excess - fromA), right: 0)
            }
        }
        var out: [PunctuationBlank] = []
        // Full-width marks keep their blank whatever the line needs; only hanging is left.
        let keeps = spec.punctuation == .full ? 0.0 : 1.0
        for m in marks {
            let (left, right) = (keeps * Double(m.left) / pangoScale, keeps * Double(m.right) / pangoScale)
            // What hangs is what is left after the line's end drops the blank after the ink.
            let hanging = Double(glyphs[m.glyph].geometry.width) / pangoScale - left - right
            let hang = spec.hanging && m.hangs ? max(0, hanging) : 0
            guard left > 0 || right > 0 || hang > 0 else { continue }
            flags[m.byte].insert(.punctuationBlank)
            out.append(PunctuationBlank(byte: Int32(m.byte), left: left, right: right, hang: hang))
        }
        return out
    }

    /// Takes `before` and `after` (Pango units) from a mark's advance. Horizontally its ink moves
    /// back by `before`. A vertical line is drawn turned, each mark upright and centred in its
    /// cell along the column (`VerticalDrawing.swift`); `y_offset` (along the column there) moves
    /// it from that centre by half the difference, so that what is cut is its blank, not its ink.
    static func cut(_ g: inout PangoGlyphGeometry, before: Int32, after: Int32, vertical: Bool) {
        g.width -= before + after
        if vertical {
            g.y_offset += (after - before) / 2
        } else {
            g.x_offset -= before
        }
    }

    /// `blankSums` for `blanks` over a paragraph of `length` bytes.
    static func sums(_ blanks: [PunctuationBlank], length: Int) -> [Double] {
        guard !blanks.isEmpty else { return [] }
        var sums = [Double](repeating: 0, count: length + 1)
        var running = 0.0
        var k = 0
        for b in 0...length {
            sums[b] = running
            if k < blanks.count && Int(blanks[k].byte) == b {
                running += blanks[k].blank
                k += 1
            }
        }
        return sums
    }
}

extension ShapedText {
    /// The mark at byte `b`, if it keeps blank.
    package func blank(at b: Int) -> PunctuationBlank? {
        guard flags[b].contains(.punctuationBlank) else { return nil }
        let k = blanks.partitionPoint { Int($0.byte) >= b }
        return k < blanks.count && Int(blanks[k].byte) == b ? blanks[k] : nil
    }

    /// The mark a line whose content ends at `end` ends with: the blank after its ink, which
    /// the line drops, and what of it may hang. Zero when the line does not end with a mark.
    package func lineEndMark(_ end: Int, from start: Int) -> (trim: Double, hang: Double) {
        guard !blanks.isEmpty, end > start else { return (0, 0) }
        var c = end - 1
        while c > start && !flags[c].contains(.charStart) { c -= 1 }
        guard let m = blank(at: c) else { return (0, 0) }
        return (m.right, m.hang)
    }

    /// What the marks of `start..<end` give so that a line `over` points too wide fits: its
    /// marks' blank (its last mark's `trim` already dropped) and the hanging ink of that mark.
    @inline(__always)
    package func squeeze(_ start: Int, _ end: Int, over: Double, trim: Double, hang: Double) -> Double {
        guard over > 0 else { return 0 }
        return min(over, squeezePool(start, end, trim: trim, hang: hang))
    }

    /// All the marks of `start..<end` may give: `squeeze` at its most.
    @inline(__always)
    package func squeezePool(_ start: Int, _ end: Int, trim: Double, hang: Double) -> Double {
        guard !blankSums.isEmpty, end > start else { return 0 }
        return blankSums[end] - blankSums[start] - trim + hang
    }
}

/// A glyph of a font in a language (Pango's languages are interned: the pointer names one).
struct BlankKey: Hashable {
    var font: FontKey
    var glyph: PangoGlyph
    var language: UInt
    var vertical: Bool
}

extension TextEngine {
    /// The blank of a mark's glyph before and after its ink, Pango units, from the font's
    /// half-width form (`halt`): the glyph shaped alone, with and without the feature; the
    /// offset it gains is the blank before, the rest of the advance it loses the blank after.
    /// Shaped alone, never measured in context (kerning there would pass for blank), so the
    /// answer is the same on every thread. Once per font, glyph and language.
    func punctuationBlank(
        _ text: UnsafePointer<CChar>, at b: Int, glyph: PangoGlyph, font: FontKey, analysis: PangoAnalysis, vertical: Bool
    ) -> (left: Int32, right: Int32) {
        let key = BlankKey(font: font, glyph: glyph, language: UInt(bitPattern: analysis.language), vertical: vertical)
        if let known = blankCache[key] { return known }
        if vertical {
            let found = verticalBlank(text + b, glyph: glyph, analysis: analysis)
            blankCache[key] = found
            return found
        }
        let full = shapedAlone(text + b, glyph: glyph, analysis: analysis, feature: nil)
        let half = shapedAlone(text + b, glyph: glyph, analysis: analysis, feature: "halt=1")
        var found: (left: Int32, right: Int32) = (0, 0)
        if let full, let half, half.width < full.width {
            let left = max(0, full.x_offset - half.x_offset)
            found = (left, max(0, full.width - half.width - left))
        }
        blankCache[key] = found
        return found
    }

    /// The geometry of the three-byte character at `text` shaped alone as `glyph` in the
    /// item's font and language, with an OpenType `feature` added; nil if it is not that glyph.
    private func shapedAlone(
        _ text: UnsafePointer<CChar>, glyph: PangoGlyph, analysis: PangoAnalysis, feature: String?
    ) -> PangoGlyphGeometry? {
        var a = analysis
        a.level = 0
        let attribute = feature.map { pango_attr_font_features_new($0)! }
        if let attribute { a.extra_attrs = g_slist_prepend(g_slist_copy(analysis.extra_attrs), attribute) }
        defer {
            if let attribute {
                g_slist_free(a.extra_attrs)
                pango_attribute_destroy(attribute)
            }
        }
        let gs = pango_glyph_string_new()!
        defer { pango_glyph_string_free(gs) }
        FaceLock.run { pango_shape(text, 3, &a, gs) }  // a mark the font lacks: see hyphenGlyph
        guard gs.pointee.num_glyphs == 1 && gs.pointee.glyphs[0].glyph == glyph else { return nil }
        return gs.pointee.glyphs[0].geometry
    }
}

extension TextEngine {
    /// The blank above and below the ink of a vertical form, Pango units, from the font's
    /// vertical half-width form (`vhal`): the character shaped alone top to bottom by HarfBuzz,
    /// with and without the feature; the glyph moved up is the blank above, the rest of the
    /// advance lost the blank below. (`halt` leaves most vertical forms alone, and Pango shapes
    /// vertical lines horizontally, so only HarfBuzz's own vertical direction reads `vhal`.)
    /// Scaled to the glyph's advance in the line; none if HarfBuzz picks another glyph.
    fileprivate func verticalBlank(
        _ text: UnsafePointer<CChar>, glyph: PangoGlyph, analysis: PangoAnalysis
    ) -> (left: Int32, right: Int32) {
        guard let font = analysis.font, let hbFont = pango_font_get_hb_font(font),
            let full = Self.shapedDown(text, hbFont, analysis, glyph: glyph, halfWidth: false),
            let half = Self.shapedDown(text, hbFont, analysis, glyph: glyph, halfWidth: true),
            full.advance > 0, half.advance < full.advance
        else { return (0, 0) }
        let above = max(0, half.rise - full.rise)
        let below = max(0, full.advance - half.advance - above)
        // HarfBuzz's units are the hb_font's scale; the line's are the advance Pango shaped.
        let em = Double(shapedAlone(text, glyph: glyph, analysis: analysis, feature: nil)?.width ?? 0)
        let scale = em / Double(full.advance)
        return (Int32((Double(above) * scale).rounded()), Int32((Double(below) * scale).rounded()))
    }

    /// The character at `text` shaped alone top to bottom: its advance down the column and how
    /// far its glyph is raised (HarfBuzz units); nil unless it is the one glyph `glyph`.
    private static func shapedDown(
        _ text: UnsafePointer<CChar>, _ font: OpaquePointer, _ analysis: PangoAnalysis, glyph: PangoGlyph, halfWidth: Bool
    ) -> (advance: Int32, rise: Int32)? {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        // The one character at `text`, however many bytes its UTF-8 takes.
        let lead = UInt8(bitPattern: text[0])
        let bytes: Int32 = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        hb_buffer_add_utf8(buffer, text, bytes, 0, bytes)
        hb_buffer_set_direction(buffer, HB_DIRECTION_TTB)
        hb_buffer_set_script(buffer, HB_SCRIPT_HAN)
        hb_buffer_set_language(buffer, hb_language_from_string(pango_language_to_string(analysis.language), -1))
        var features = [hb_feature_t(), hb_feature_t()]
        _ = hb_feature_from_string("vrt2", -1, &features[0])
        _ = hb_feature_from_string("vhal", -1, &features[1])
        hb_shape(font, buffer, features, halfWidth ? 2 : 1)
        var count: UInt32 = 0
        guard let info = hb_buffer_get_glyph_infos(buffer, &count), count == 1, info[0].codepoint == glyph,
            let position = hb_buffer_get_glyph_positions(buffer, nil)
        else { return nil }
        return (-position[0].y_advance, position[0].y_offset)
    }
}
