import CCairo
import CPango
import GalleyLayout

extension PageRenderer {
    /// Draws a drop cap's initial, filled as the outline of its glyphs. Its characters are not
    /// shown here: a PDF reader makes a word of characters of one size on one baseline, so the
    /// initial shown as text would be read apart from the rest of its word ("T he"). They are
    /// carried at the head of the first line instead (see `carryInitial`).
    func drawDropCap(_ placed: PlacedDropCap, on cr: OpaquePointer) {
        guard let dropCap = placed.paragraph.text.dropCap else { return }
        let font = framesetter.engine.font(dropCap.font)
        var glyphs = dropCap.glyphs
        var clusters = dropCap.clusters
        glyphs.withUnsafeMutableBufferPointer { g in
            clusters.withUnsafeMutableBufferPointer { c in
                var gs = PangoGlyphString(
                    num_glyphs: Int32(g.count), glyphs: g.baseAddress, log_clusters: c.baseAddress, space: Int32(g.count))
                cairo_new_path(cr)
                cairo_move_to(cr, placed.origin.x, placed.origin.y)
                pango_cairo_glyph_string_path(cr, font, &gs)
            }
        }
        setColor(dropCap.color, on: cr)
        cairo_fill(cr)
    }

    /// Shows the initial's characters in a PDF once more, as the paragraph's own glyphs for them
    /// at the first line's size, just before its first run and on its baseline, at 1/255 opacity
    /// (as hollow text is: Cairo drops fully clear drawing, and this changes no pixel by more
    /// than a level): PDF readers then extract and find the first word whole. Its own glyphs
    /// map to its own characters, so no font's map gains a glyph standing for other text.
    func carryInitial(_ placed: PlacedDropCap, before first: PlacedRun, on cr: OpaquePointer) {
        let text = placed.paragraph.text
        guard let dropCap = text.dropCap, cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0,
            let run = text.runs(meeting: 0..<dropCap.end).first, Int(run.bytes.upperBound) >= dropCap.end
        else { return }
        let range = text.glyphs(of: run, in: 0..<dropCap.end)
        var glyphs = Array(text.glyphs[range])
        var clusters = Array(text.clusters[range])
        let width = glyphs.reduce(0.0) { $0 + Double($1.geometry.width) } / pangoScale
        let font = framesetter.engine.font(run.font)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        var color = first.style.color
        color.alpha = 1.0 / 255
        setColor(color, on: cr)
        cairo_move_to(cr, first.start - width, first.runBaseline)
        glyphs.withUnsafeMutableBufferPointer { g in
            clusters.withUnsafeMutableBufferPointer { c in
                var gs = PangoGlyphString(
                    num_glyphs: Int32(g.count), glyphs: g.baseAddress, log_clusters: c.baseAddress, space: Int32(g.count))
                if !showTextDirectly(text.bytes, start: 0, end: dropCap.end, level: 0, glyphs: &gs, font: font, on: cr) {
                    pango_cairo_show_glyph_string(cr, font, &gs)
                }
            }
        }
        cairo_new_path(cr)
    }
}
