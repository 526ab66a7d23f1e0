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
    /// about the centre of its em so that it stands upright. Each piece is shown with its own
    /// characters, in reading order, so a PDF reader extracts the column from top to bottom.
    func drawVertical(_ placed: PlacedRun, font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer) {
        let run = placed.run
        let t = placed.paragraph.text
        let size = placed.style.size
        let n = run.glyphs.count
        var i = 0
        var x = placed.start
        while i < n {
            let j = Self.verticalPiece(run, from: i, in: t)
            let upright = Self.isUpright(run.clusters[i], t)
            let width = run.glyphs[i..<j].reduce(0.0) { $0 + Double($1.geometry.width) } / pangoScale
            var piece = placed
            piece.run = Self.slice(run, i..<j, storyStart: t.storyStart)
            cairo_save(cr)
            if upright {
                cairo_translate(cr, x + width / 2, placed.runBaseline)
                cairo_rotate(cr, -Double.pi / 2)
                // An upright unit wider than its em (three wide digits) is narrowed to fit.
                let ink = width - 2 * Double(run.glyphs[i].geometry.x_offset) / pangoScale
                if t.flags[Int(run.clusters[i])].contains(.uprightUnit) && ink > width * 0.95 {
                    cairo_scale(cr, width * 0.95 / ink, 1)
                }
                cairo_translate(cr, -width / 2, size * Self.emCentre)
            } else {
                cairo_translate(cr, x, placed.runBaseline + size * Self.turnedShift)
            }
            cairo_move_to(cr, 0, 0)
            withGlyphString(piece) { gs in showText(piece, glyphs: &gs, font: font, on: cr) }
            cairo_restore(cr)
            x += width
            i = j
        }
    }

    /// Drawn upright: a wide character (ideograph, kana, full-width mark) or an upright unit.
    static func isUpright(_ cluster: Int32, _ t: ShapedText) -> Bool {
        !t.flags[Int(cluster)].intersection([.wide, .uprightUnit]).isEmpty
    }

    /// The end of the piece of `run` starting at glyph `i`: a wide character's glyphs, an
    /// upright unit, or the turned glyphs that follow one another.
    static func verticalPiece(_ run: DrawRun, from i: Int, in t: ShapedText) -> Int {
        let n = run.glyphs.count
        var j = i + 1
        let c = run.clusters[i]
        if t.flags[Int(c)].contains(.uprightUnit) {
            while j < n && t.flags[Int(run.clusters[j])].contains(.uprightUnit) && run.clusters[j] == run.clusters[j - 1] + 1 { j += 1 }
        } else if isUpright(c, t) {
            while j < n && run.clusters[j] == c { j += 1 }
        } else {
            while j < n && !isUpright(run.clusters[j], t) { j += 1 }
        }
        return j
    }

    /// Glyphs `range` of `run` as a run of their own, with the story bytes they show.
    static func slice(_ run: DrawRun, _ range: Range<Int>, storyStart: Int) -> DrawRun {
        var piece = run
        piece.glyphs = Array(run.glyphs[range])
        piece.clusters = Array(run.clusters[range])
        let lower = storyStart + Int(run.clusters[range.lowerBound])
        let upper = range.upperBound < run.clusters.count ? storyStart + Int(run.clusters[range.upperBound]) : run.storyRange.upperBound
        piece.storyRange = max(lower, run.storyRange.lowerBound)..<max(lower, upper)
        piece.attachments = []
        return piece
    }
}
