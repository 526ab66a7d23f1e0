import CPango
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate

/// A paragraph's first letter set as an initial several lines tall (a drop cap), shaped in its
/// own face at the size that makes its capitals reach from the top of the first line's capitals
/// down to the baseline of line `lines`; an ideograph (or kana, Hangul), which has no capitals,
/// at the size that makes its em box reach from the top of the first line's em boxes down to
/// the foot of line `lines`'s. The first `beside` lines are set beside it, narrower by
/// `indent` (see `narrowing`): `lines`, and more when its ink hangs below its baseline (a J's hook,
/// a Q's tail). The paragraph's first line starts after it, at byte `end`.
package struct DropCap: Sendable {
    /// How many lines tall the initial is.
    package var lines: Int
    /// Paragraph byte after the initial (an opening quotation mark and a letter): where the
    /// first line starts.
    package var end: Int
    package var font: FontKey
    /// The initial's size, points.
    package var size: Double
    package var color: RGBA
    /// The initial's glyphs, and the paragraph byte of each one's cluster.
    package var glyphs: [PangoGlyphInfo]
    package var clusters: [Int32]
    /// The initial's advance, and how far the lines beside it move right: `shift`, the advance
    /// or the ink where it reaches further (a Q's tail, a K's arm in a script face), and a gap.
    package var advance: Double
    package var indent: Double
    /// The cap height of the first line's text (the top of its ideographic em box, for an
    /// initial set in one): the initial's top is this far above the first baseline, points.
    package var capTop: Double
    /// From the first line's baseline down to the initial's: `lines - 1` line pitches, less, for
    /// an initial set in an em box, what raises its baseline above line `lines`'s so that the
    /// feet of the two em boxes meet (its em reaches further below its baseline).
    package var drop: Double
    /// The initial's ink (Pango's ink rectangle) from the left end of its baseline, y down. Its
    /// cap height and advance do not bound it: a J's hook or a Q's tail hangs below the baseline,
    /// and a J's hook or an A's foot reaches left of the origin (a negative left side bearing).
    package var ink: Rect
    /// How many lines are set beside the initial: `lines`, and one more for each line below
    /// those whose box its ink reaches into, so that a descender never runs into the text.
    package var beside: Int
    /// From the first line's baseline down to that of the last line beside the initial:
    /// `beside - 1` line pitches.
    package var reach: Double

    /// How far right of the lines' edge the initial is drawn: as far as its ink would cross that
    /// edge, so that it never stands in the margin or the gutter; 0 for most letters, whose
    /// origin stays on the edge as it always was.
    package var shift: Double { max(0, -ink.x) }

    /// How far right of the lines' edge the initial reaches: its advance, or its ink where that
    /// goes further, after `shift`. Its box is this wide.
    package var width: Double { shift + max(advance, ink.maxX) }

    /// `widths` with the first `beside` lines narrower by `indent`, so the breaker sets them
    /// beside the initial.
    package func narrowing(_ widths: LineWidths) -> LineWidths {
        let n = max(beside, widths.first.count)
        return LineWidths(first: (0..<n).map { widths[$0] - ($0 < beside ? indent : 0) }, rest: widths.rest)
    }

    /// The initial's foot when its paragraph's first line is `first`, that line's box's top at
    /// `top`: the foot of the last line beside it, or of its ink should that hang lower still
    /// (`beside` counts lines of the body's pitch; a first line of other faces can differ).
    /// What follows the paragraph starts no higher.
    package func foot(top: Double, first: LineBreak) -> Double {
        max(top + first.height + reach, top + first.ascent + drop + max(0, ink.maxY))
    }

    /// Opening quotation marks that go into the initial with the letter after them.
    static let openingQuotes: Set<Character> = [
        "\u{201C}", "\"", "\u{2018}", "'", "\u{00AB}", "\u{300C}", "\u{300E}", "\u{201E}", "\u{2039}",
    ]

    /// The UTF-8 length of a text's initial: opening quotation marks, then one letter or digit
    /// (with its combining marks); nil when the text does not start so.
    static func initialLength(_ bytes: some Collection<UInt8>) -> Int? {
        let head = String(decoding: bytes, as: UTF8.self)
        var length = 0
        for c in head.prefix(4) {
            length += c.utf8.count
            if openingQuotes.contains(c) { continue }
            guard let first = c.unicodeScalars.first, first.properties.isAlphabetic || first.properties.numericType != nil
            else { return nil }
            return length
        }
        return nil
    }

    /// Whether an initial's letter (after its quotation marks) is set in an em box: an ideograph,
    /// kana, Bopomofo or a Hangul syllable, which has no capitals to size it by.
    static func isSetInEmBox(_ initial: [UInt8]) -> Bool {
        guard let c = String(decoding: initial, as: UTF8.self).first(where: { !openingQuotes.contains($0) }),
            let s = c.unicodeScalars.first
        else { return false }
        return s.properties.isIdeographic || (0x3040...0x312F).contains(s.value) || (0xAC00...0xD7A3).contains(s.value)
    }
}

extension TextEngine {
    /// The drop cap `request` asks of a shaped paragraph, or nil when the paragraph cannot have
    /// one: right-to-left text, no letter to start it, nothing after the letter, or a cluster
    /// (a ligature) joining the letter to the next one.
    ///
    /// Its size follows from two constraints: the initial's capitals are as tall as the first
    /// line's capitals plus `lines - 1` line pitches, so that their top meets the top of the first
    /// line's capitals and their baseline the baseline of line `lines`. An initial set in an em
    /// box (`emBoxFit`) has its em box fill the lines' instead. With `cjk` compressing marks, an
    /// opening bracket before the letter gives up its blank at the column's edge, as it may at a
    /// line's start.
    func dropCap(_ request: DropCapRequest, for text: ShapedText, style: ParagraphStyle, cjk: CJKSpec) -> DropCap? {
        // Cap heights and the initial's layout are measured by Cairo.
        FaceLock.run { measuredDropCap(request, for: text, style: style, cjk: cjk) }
    }

    /// Whether the paragraph's first letter is part of a link. An initial is drawn apart from
    /// its line and its link: a URL's first letter as a drop cap read "h ttps://…", the link
    /// starting after it.
    static func startsWithLink(_ text: ShapedText, _ styles: [TextStyle]) -> Bool {
        guard let first = text.run(containing: 0), let link = styles[Int(first.style)].link else { return false }
        return !link.isEmpty
    }

    private func measuredDropCap(_ request: DropCapRequest, for text: ShapedText, style: ParagraphStyle, cjk: CJKSpec) -> DropCap? {
        guard !text.rightToLeft, let end = DropCap.initialLength(text.bytes.prefix(32)), end < text.length,
            text.flags[end].contains(.clusterStart), let run = text.run(containing: end), !Self.startsWithLink(text, plan.styles)
        else { return nil }
        let body = plan.styles[Int(run.style)]
        let pitch = style.lineHeight ?? style.leadingRatio * body.size
        let face = FontProbe(engine: self).resolve(request.face).0
        let bytes = Array(text.bytes[..<end])
        let halfWidth = cjk.punctuation != .full && PunctuationMarks.isMark(bytes, at: 0)
        let drop = Double(request.lines - 1) * pitch
        let fit: (size: Double, top: Double, sink: Double)?
        if DropCap.isSetInEmBox(bytes) {
            // The first line's em boxes are its ideographs': the letter's own font in the body.
            let letter = text.run(containing: end - 1) ?? run
            fit = emBoxFit(bytes, face: face, halfWidth: halfWidth, body: font(letter.font), size: body.size, drop: drop)
        } else {
            fit = capFit(face: face, body: font(run.font), size: body.size, drop: drop)
        }
        guard let fit, let shaped = shapeInitial(bytes, face: face, size: fit.size, halfWidth: halfWidth) else { return nil }
        // A body line's box reaches this far below its baseline (`LineBreaker.box` splits the
        // pitch evenly around the font's ascent and descent): each line below line `lines` whose
        // box the initial's ink reaches into is set beside it too. A letter on the baseline (its
        // overshoot well inside the descent) gets none, nor an ideograph inside its em box.
        let m = plan.metrics[Int(run.style)]
        let below = (pitch + m.descent - m.ascent) / 2
        let depth = fit.sink + shaped.ink.maxY - below
        let extra = depth > 0.001 && pitch > 0 ? min(request.lines, Int((depth / pitch).rounded(.up))) : 0
        let shift = max(0, -shaped.ink.x)
        return DropCap(
            lines: request.lines, end: end, font: shaped.font, size: fit.size, color: request.color, glyphs: shaped.glyphs,
            clusters: shaped.clusters, advance: shaped.advance, indent: shift + max(shaped.advance, shaped.ink.maxX) + body.size * 0.3,
            capTop: fit.top, drop: drop + fit.sink, ink: shaped.ink, beside: request.lines + extra,
            reach: drop + Double(extra) * pitch)
    }

    /// A Latin initial's size: its capitals as tall as the cap height of `body` at `size` plus
    /// `drop`; its top that cap height above the first baseline, its baseline on line `lines`'s.
    private func capFit(
        face: FontPlan.Face, body: UnsafeMutablePointer<PangoFont>, size: Double, drop: Double
    ) -> (size: Double, top: Double, sink: Double)? {
        let capTop = capHeight(of: body, size: size)
        let unit = 100.0
        let probe = face.makeDescription(size: unit)
        defer { pango_font_description_free(probe) }
        guard let probeFont = pango_font_map_load_font(fontMap, context, probe) else { return nil }
        let ratio = capHeight(of: probeFont, size: unit) / unit
        galley_object_unref(probeFont)
        guard capTop > 0, ratio > 0 else { return nil }
        return ((capTop + drop) / ratio, capTop, 0)
    }

    /// An ideograph's size: its em box as tall as that of the first line's ideographs (`body`
    /// at `size`) plus `drop`, from the top of the first line's em box to the foot of line
    /// `lines`'s. Sized by the face's cap height, it overshot line `lines`; by its ink, 一 would
    /// be huge. Its em reaches further below its baseline than the lines' (Noto CJK's em box
    /// runs from −0.12 to 0.88 em), so its baseline is `sink` below line `lines`'s, a negative
    /// distance, for the feet of the two em boxes to meet.
    private func emBoxFit(
        _ bytes: [UInt8], face: FontPlan.Face, halfWidth: Bool, body: UnsafeMutablePointer<PangoFont>, size: Double,
        drop: Double
    ) -> (size: Double, top: Double, sink: Double)? {
        // The initial's face falls back to a CJK one for the letter: shaped once to find which.
        guard let probe = shapeInitial(bytes, face: face, size: 100, halfWidth: halfWidth) else { return nil }
        let (top, bottom) = emBox(of: body)
        let (ownTop, ownBottom) = emBox(of: font(probe.font))
        guard top > bottom, ownTop > ownBottom else { return nil }
        let initial = (drop + (top - bottom) * size) / (ownTop - ownBottom)
        return (initial, top * size, ownBottom * initial - bottom * size)
    }

    /// A font's ideographic em box, top and bottom in ems above the baseline.
    func emBox(of font: UnsafeMutablePointer<PangoFont>) -> (top: Double, bottom: Double) {
        var (top, bottom) = (0.0, 0.0)
        galley_font_ideo_embox(font, &top, &bottom)
        return (top, bottom)
    }

    /// A font's cap height at `size` points: its OS/2 table's, else the height of its "H".
    func capHeight(of font: UnsafeMutablePointer<PangoFont>, size: Double) -> Double {
        let ratio = galley_font_cap_ratio(font)
        if ratio > 0 { return ratio * size }
        return Double(galley_font_h_top(font)) / pangoScale
    }

    /// The initial's text shaped as one run of `face` at `size`, with its ink box (from the left
    /// end of its baseline, y down): nil when it takes more than one font (a quotation mark the
    /// face lacks). `halfWidth` shapes its CJK marks in their half-width forms (`halt`): an
    /// opening bracket at the column's edge without its blank before the ink. (The letter has
    /// none; a feature over the whole text keeps it one item.)
    private func shapeInitial(
        _ bytes: [UInt8], face: FontPlan.Face, size: Double, halfWidth: Bool = false
    ) -> (font: FontKey, glyphs: [PangoGlyphInfo], clusters: [Int32], advance: Double, ink: Rect)? {
        let layout = pango_layout_new(context)!
        defer { galley_object_unref(UnsafeMutableRawPointer(layout)) }
        let d = face.makeDescription(size: size)
        defer { pango_font_description_free(d) }
        pango_layout_set_font_description(layout, d)
        bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32(b.count)) }
        }
        if halfWidth {
            let attributes = pango_attr_list_new()!
            defer { pango_attr_list_unref(attributes) }
            pango_attr_list_insert(attributes, pango_attr_font_features_new("halt=1"))
            pango_layout_set_attributes(layout, attributes)
        }
        guard let line = pango_layout_get_line_readonly(layout, 0), let runs = line.pointee.runs, runs.pointee.next == nil,
            let item = runs.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self).pointee,
            let glyphString = item.glyphs?.pointee, let pangoFont = item.item.pointee.analysis.font
        else { return nil }
        let n = Int(glyphString.num_glyphs)
        let glyphs = Array(UnsafeBufferPointer(start: glyphString.glyphs, count: n))
        let clusters = Array(UnsafeBufferPointer(start: glyphString.log_clusters, count: n)).map { Int32($0) }
        let advance = glyphs.reduce(0.0) { $0 + Double($1.geometry.width) } / pangoScale
        var ink = PangoRectangle()
        pango_layout_line_get_extents(line, &ink, nil)
        let box = Rect(
            x: Double(ink.x) / pangoScale, y: Double(ink.y) / pangoScale, width: Double(ink.width) / pangoScale,
            height: Double(ink.height) / pangoScale)
        return (key(of: pangoFont), glyphs, clusters, advance, box)
    }
}
