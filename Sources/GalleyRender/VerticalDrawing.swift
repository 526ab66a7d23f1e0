import CCairo
import CPango
import GalleyLayout

extension PageRenderer {
    /// Where the centre of a CJK face's em lies above its baseline, in ems: Noto CJK's
    /// ideographic em box runs from −0.12 to 0.88.
    static let emCentre = 0.38
    /// How far a turned run's baseline is moved across its column, in ems, so that its letters
    /// sit on the column's centre line (about half a capital's height).
    static let turnedShift = 0.35

    /// Draws a run of a vertical line in the line's turned space (see `VerticalText.swift`):
    /// turned text as it is, each wide character and each upright unit (縦中横) turned back
    /// about the centre of its em so that it stands upright. A PDF reader reads upright
    /// characters one to a line, columns left to right; so an upright piece is drawn with no
    /// text, and its characters ride on a blank glyph (the font's ideographic space, an em
    /// long) turned with the line, as turned text is: the reader then reads each column as one
    /// turned line, top to bottom, and the columns right to left.
    /// A colour run (emoji) stands upright too, one piece per cluster; in a PDF
    /// (`colorImages`) it is painted as images (`paintColorImages`).
    func drawVertical(
        _ placed: PlacedRun, font: UnsafeMutablePointer<PangoFont>, colorImages: Bool = false, on cr: OpaquePointer
    ) {
        let run = placed.run
        let t = placed.paragraph.text
        let color = FontRegistry.shared.isColor(run.font)
        let n = run.glyphs.count
        var i = 0
        var x = placed.start
        let size = placed.style.size
        let stands = { (g: Int) in color || Self.isUpright(run.clusters[g], t) || Self.isFullWidthMark(run, g, t, font, size) }
        while i < n {
            let j = Self.verticalPiece(run, from: i, in: t, upright: stands)
            let upright = stands(i)
            let width = run.glyphs[i..<j].reduce(0.0) { $0 + Double($1.geometry.width) } / pangoScale
            var piece = placed
            piece.run = Self.slice(run, i..<j, storyStart: t.storyStart)
            cairo_save(cr)
            if upright {
                cairo_translate(cr, x + width / 2, placed.runBaseline)
                cairo_rotate(cr, -Double.pi / 2)
                standUpright(piece, color: color, font: font, on: cr)
            } else {
                cairo_translate(cr, x, placed.runBaseline + placed.style.size * Self.turnedShift)
            }
            cairo_move_to(cr, 0, 0)
            withGlyphString(piece) { gs in
                if colorImages {
                    paintColorImages(piece, glyphs: &gs, font: font, on: cr)
                } else if !upright || !showWithoutText(&gs, font: font, on: cr) {
                    showText(piece, glyphs: &gs, font: font, on: cr)
                }
            }
            cairo_restore(cr)
            if upright { carryText(piece, at: x, width: width, font: font, on: cr) }
            x += width
            i = j
        }
    }

    /// Moves the origin, turned upright about the centre of an upright `piece`'s cell, to where
    /// the piece's glyphs start: across the column, its em (the glyphs' own advance, not the
    /// cell's, which justification and punctuation compression change) centred on the column's
    /// centre line; along it, the em box centred in the cell (a compressed mark's `y_offset`
    /// then moves it so that its blank, not its ink, is what was cut). A colour glyph has no
    /// ideographic em box: its ink is centred.
    private func standUpright(_ piece: PlacedRun, color: Bool, font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer) {
        let glyphs = piece.run.glyphs
        let size = piece.style.size
        // A dash's or an ellipsis's vertical form is drawn where vertical metrics would put it,
        // not about the em's centre as an ideograph is: its ink is centred in its cell instead,
        // so that a dash of two ems runs on unbroken down the column's middle.
        if color || Self.isDashOrEllipsis(piece.run.clusters[0], piece.paragraph.text) {
            var ink = PangoRectangle()
            pango_font_get_glyph_extents(font, glyphs[0].glyph, &ink, nil)
            let (cx, cy) = (Double(ink.x) + Double(ink.width) / 2, Double(ink.y) + Double(ink.height) / 2)
            cairo_translate(cr, -cx / pangoScale, -cy / pangoScale)
            return
        }
        let t = piece.paragraph.text
        if t.flags[Int(piece.run.clusters[0])].contains(.uprightUnit) {
            // The unit's em; one wider than that (three wide digits) is narrowed to fit.
            let ink = size - 2 * Double(glyphs[0].geometry.x_offset) / pangoScale
            if ink > size * 0.95 { cairo_scale(cr, size * 0.95 / ink, 1) }
            cairo_translate(cr, -size / 2, size * Self.emCentre)
            return
        }
        var em: Int32 = 0
        for g in glyphs where g.glyph != 0x0FFF_FFFF {
            var logical = PangoRectangle()
            pango_font_get_glyph_extents(font, g.glyph, nil, &logical)
            em += logical.width
        }
        cairo_translate(cr, -Double(em) / pangoScale / 2, size * Self.emCentre)
    }

    /// Shows glyphs mapped to no text (an empty ActualText in a PDF): their characters are
    /// carried by `carryText`. False when the surface takes no text (a PNG): shown as usual.
    func showWithoutText(_ gs: inout PangoGlyphString, font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer) -> Bool {
        guard cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0, let scaled = galley_font_scaled(font) else {
            return false
        }
        var glyphs: [cairo_glyph_t] = []
        var pen = 0.0
        for i in 0..<Int(gs.num_glyphs) {
            let g = gs.glyphs[i]
            if g.glyph != 0x0FFF_FFFF {
                let x = pen + Double(g.geometry.x_offset) / pangoScale
                glyphs.append(cairo_glyph_t(index: UInt(g.glyph), x: x, y: Double(g.geometry.y_offset) / pangoScale))
            }
            pen += Double(g.geometry.width) / pangoScale
        }
        guard !glyphs.isEmpty else { return true }
        var cluster = cairo_text_cluster_t(num_bytes: 0, num_glyphs: Int32(glyphs.count))
        cairo_save(cr)
        cairo_set_scaled_font(cr, scaled)
        cairo_show_text_glyphs(cr, "", 0, glyphs, Int32(glyphs.count), &cluster, 1, cairo_text_cluster_flags_t(0))
        cairo_restore(cr)
        return true
    }

    /// Shows the characters of an upright `piece` (at `x` along the line) on the ideographic
    /// space of the story's CJK face (an em long, whatever face the piece is in: digits too),
    /// turned with the line and on the turned text's baseline.
    func carryText(_ piece: PlacedRun, at x: Double, width: Double, font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer) {
        let t = piece.paragraph.text
        let range = (piece.run.storyRange.lowerBound - t.storyStart)..<(piece.run.storyRange.upperBound - t.storyStart)
        guard !range.isEmpty, cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0 else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let face = framesetter.engine.plan.cjkFamily ?? "Noto Serif CJK SC"
        cairo_select_font_face(cr, face, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, max(width, 0.01))  // the space as long as the piece
        var space: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        guard
            cairo_scaled_font_text_to_glyphs(cairo_get_scaled_font(cr), 0, 0, "\u{3000}", 3, &space, &count, nil, nil, nil)
                == CAIRO_STATUS_SUCCESS, let space
        else { return }
        defer { cairo_glyph_free(space) }
        guard count == 1 && space[0].index != 0 else { return }
        cairo_set_source_rgb(cr, 0, 0, 0)  // opaque: a blank inks nothing, and clear drawing is dropped
        let (gx, gy) = Self.offWholeUnits(x, piece.runBaseline + piece.style.size * Self.turnedShift, on: cr)
        var glyph = cairo_glyph_t(index: space[0].index, x: gx, y: gy)
        var cluster = cairo_text_cluster_t(num_bytes: Int32(range.count), num_glyphs: 1)
        t.bytes.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                cairo_show_text_glyphs(
                    cr, chars.baseAddress! + range.lowerBound, Int32(range.count), &glyph, 1, &cluster, 1, cairo_text_cluster_flags_t(0))
            }
        }
    }

    /// Drawn upright: a wide character (ideograph, kana, full-width mark) or an upright unit.
    static func isUpright(_ cluster: Int32, _ t: ShapedText) -> Bool {
        !t.flags[Int(cluster)].intersection([.wide, .uprightUnit]).isEmpty
    }

    /// The end of the piece of `run` starting at glyph `i`: a wide character's glyphs, an
    /// upright unit, or the turned glyphs that follow one another.
    static func verticalPiece(_ run: DrawRun, from i: Int, in t: ShapedText, upright: (Int) -> Bool) -> Int {
        let n = run.glyphs.count
        var j = i + 1
        let c = run.clusters[i]
        if t.flags[Int(c)].contains(.uprightUnit) {
            while j < n && t.flags[Int(run.clusters[j])].contains(.uprightUnit) && run.clusters[j] == run.clusters[j - 1] + 1 { j += 1 }
        } else if upright(i) {
            while j < n && run.clusters[j] == c { j += 1 }
        } else {
            while j < n && !upright(j) { j += 1 }
        }
        return j
    }

    /// A curly quote (‘’“”), a dash (— ― ⸺ ⸻) or an ellipsis (…) set from a CJK face
    /// (`CJKPunctuation`): an em wide, its vertical form (a corner bracket, a dash or dots down
    /// the column, `vert`) is drawn for the column already, so it stands upright like 「」; turned
    /// with the line it lay across the column. A narrow one from a Latin face turns with the
    /// line, as its words do.
    static func isFullWidthMark(
        _ run: DrawRun, _ g: Int, _ t: ShapedText, _ font: UnsafeMutablePointer<PangoFont>, _ size: Double
    ) -> Bool {
        let c = Int(run.clusters[g])
        let quote =
            c + 2 < t.bytes.count && t.bytes[c] == 0xE2 && t.bytes[c + 1] == 0x80 && [0x98, 0x99, 0x9C, 0x9D].contains(t.bytes[c + 2])
        guard quote || isDashOrEllipsis(run.clusters[g], t) else { return false }
        var logical = PangoRectangle()
        pango_font_get_glyph_extents(font, run.glyphs[g].glyph, nil, &logical)
        return Double(logical.width) / pangoScale > 0.9 * size
    }

    /// Whether a dash (— ― ⸺ ⸻) or an ellipsis (…) starts at paragraph byte `cluster`.
    static func isDashOrEllipsis(_ cluster: Int32, _ t: ShapedText) -> Bool {
        let c = Int(cluster)
        let ellipsis = c + 2 < t.bytes.count && t.bytes[c] == 0xE2 && t.bytes[c + 1] == 0x80 && t.bytes[c + 2] == 0xA6
        return ellipsis || TextEngine.isDash(t.bytes, at: c)
    }

    /// Glyphs `range` of `run` as a run of their own, with the story bytes they show.
    static func slice(_ run: DrawRun, _ range: Range<Int>, storyStart: Int) -> DrawRun {
        var piece = run
        piece.glyphs = Array(run.glyphs[range])
        piece.clusters = Array(run.clusters[range])
        // Its bytes run from its first character to the run's next one. A right-to-left run's
        // glyphs go from its last character back: its first is at the piece's end, the next
        // one before the piece.
        let rtl = run.level % 2 == 1
        let first = run.clusters[rtl ? range.upperBound - 1 : range.lowerBound]
        let next = rtl ? range.lowerBound - 1 : range.upperBound
        let lower = storyStart + Int(first)
        let upper = run.clusters.indices.contains(next) ? storyStart + Int(run.clusters[next]) : run.storyRange.upperBound
        piece.storyRange = max(lower, run.storyRange.lowerBound)..<max(lower, upper)
        piece.attachments = []
        return piece
    }
}
