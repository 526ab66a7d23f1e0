import CCairo
import CPango
import GalleyLayout
import GalleyMarkup
import GalleyStory

/// Draws laid-out pages with Cairo. It decides nothing: every position comes from the layout,
/// and glyphs are drawn as shaped, so the PDF and the PNG of a page are the same geometry.
final class PageRenderer {
    let framesetter: Framesetter
    let images: ImageStore
    private var story: Story { framesetter.story }

    init(framesetter: Framesetter) {
        self.framesetter = framesetter
        self.images = ImageStore(file: framesetter.file)
    }

    /// Draws one page onto `cr`, whose user space is the page in points.
    func draw(_ page: Page, on cr: OpaquePointer) throws(RenderError) {
        for frame in page.frames {
            for image in frame.images { try draw(image, on: cr) }
            for line in frame.lines { draw(line, on: cr) }
        }
        if let footer = page.footer { drawFooter(footer.text, center: footer.center, on: cr) }
    }

    private func draw(_ placed: PlacedImage, on cr: OpaquePointer) throws(RenderError) {
        let image = story.images[placed.image]
        let surface = try images.surface(for: image)
        let pw = Double(cairo_image_surface_get_width(surface))
        let ph = Double(cairo_image_surface_get_height(surface))
        cairo_save(cr)
        cairo_translate(cr, placed.rect.x, placed.rect.y)
        cairo_scale(cr, placed.rect.width / pw, placed.rect.height / ph)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_rectangle(cr, 0, 0, pw, ph)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    private func setColor(_ c: RGBA, on cr: OpaquePointer) {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
    }

    /// Draws a line's runs from their shaped glyphs: fill first, then any outline over it, so
    /// the text stays selectable in the PDF.
    private func draw(_ line: PlacedLine, on cr: OpaquePointer) {
        let layout = line.paragraph
        let b = layout.lines[line.lineIndex]
        let x0 = line.origin.x + b.alignOffset
        let y = line.origin.y
        let engine = framesetter.engine
        let bytes = layout.text.bytes
        for run in layout.drawRuns(line: line.lineIndex) {
            let style = story.styles[run.style]
            let font = engine.font(run.font)
            var glyphs = run.glyphs
            let start = Int(run.storyRange.lowerBound - layout.storyStart)
            let end = Int(run.storyRange.upperBound - layout.storyStart)
            // Clusters relative to the run's first byte, as a PangoItem wants them.
            var clusters = run.clusters.map { $0 - Int32(start) }
            glyphs.withUnsafeMutableBufferPointer { g in
                clusters.withUnsafeMutableBufferPointer { c in
                    var gs = PangoGlyphString(
                        num_glyphs: Int32(g.count), glyphs: g.baseAddress, log_clusters: c.baseAddress, space: Int32(g.count))
                    // Hollow text (positive width) is still drawn as text, so it stays selectable
                    // and searchable, but at 1/255 opacity: Cairo drops fully clear drawing, and
                    // 1/255 changes no pixel by more than one level.
                    let hollow = style.strokeWidth > 0
                    var fill = style.color
                    if hollow { fill.alpha = 1.0 / 255 }
                    setColor(fill, on: cr)
                    cairo_move_to(cr, x0 + run.x, y)
                    if run.isHyphen || end <= start {
                        // An added hyphen has no text of its own.
                        pango_cairo_show_glyph_string(cr, font, &gs)
                    } else {
                        // With the text and clusters, so the PDF maps glyphs back to the real
                        // characters (ligatures, and CJK ideographs that share glyphs with radicals).
                        bytes.withUnsafeBufferPointer { text in
                            var item = PangoItem()
                            item.offset = Int32(start)
                            item.length = Int32(end - start)
                            item.num_chars = Int32(text[start..<end].lazy.filter { $0 & 0xC0 != 0x80 }.count)
                            item.analysis.font = font
                            item.analysis.level = run.level
                            withUnsafeMutablePointer(to: &item) { itemPointer in
                                withUnsafeMutablePointer(to: &gs) { glyphPointer in
                                    var glyphItem = PangoGlyphItem(
                                        item: itemPointer, glyphs: glyphPointer, y_offset: 0, start_x_offset: 0, end_x_offset: 0)
                                    text.withMemoryRebound(to: CChar.self) { chars in
                                        pango_cairo_show_glyph_item(cr, chars.baseAddress, &glyphItem)
                                    }
                                }
                            }
                        }
                    }
                    if style.isStroked {
                        cairo_new_path(cr)
                        cairo_move_to(cr, x0 + run.x, y)
                        pango_cairo_glyph_string_path(cr, font, &gs)
                        setColor(style.strokeColor ?? style.color, on: cr)
                        cairo_set_line_width(cr, abs(style.strokeWidth) / 100 * style.size)
                        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                        cairo_stroke(cr)
                    }
                }
            }
        }
    }

    private func drawFooter(_ text: String, center: Point, on cr: OpaquePointer) {
        let t = framesetter.template.footer
        let layout = pango_layout_new(framesetter.engine.context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let d = pango_font_description_new()!
        defer { pango_font_description_free(d) }
        pango_font_description_set_family(d, t.face)
        pango_font_description_set_size(d, Int32(t.size * Double(PANGO_SCALE)))
        pango_layout_set_font_description(layout, d)
        pango_layout_set_text(layout, text, -1)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let baseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
        setColor(t.color, on: cr)
        cairo_move_to(cr, center.x - Double(logical.width) / Double(PANGO_SCALE) / 2, center.y - baseline)
        pango_cairo_show_layout(cr, layout)
    }
}
