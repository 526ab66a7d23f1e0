import CCairo
import CPango
import GalleyLayout

/// The slug line as the post-pass draws it, in the registration colour like the other marks:
/// Cairo cannot choose that colour, and text drawn by Cairo would be device RGB. The line is
/// laid out as previews set it (DejaVu Sans 6 pt, by Pango with an engine of no story, so a
/// file name in a script DejaVu Sans lacks takes the face fontconfig finds for it, shaped)
/// and each glyph's outline becomes PDF path operators, written once as a form the pages share.
///
/// Its Cairo objects are used by one thread at a time: the one that made them, then the one
/// the post-pass hands them to (through `Background`, which orders the two).
final class SlugOutlines: @unchecked Sendable {
    /// A glyph of the line: its key (its index in its font, the font's number in `fonts` above
    /// bit 32) and its distance from the line's start.
    struct Placed: Equatable {
        var glyph: UInt
        var x: Double
    }

    private let surface: OpaquePointer
    private let cr: OpaquePointer
    /// The fonts the lines' glyphs come from (referenced), DejaVu Sans first as a rule.
    private var fonts: [OpaquePointer] = []
    /// Each glyph's outline met so far, as PDF path operators in the glyph's space (y up).
    private(set) var outlines: [UInt: String] = [:]

    init() {
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        cr = cairo_create(surface)
    }

    deinit {
        FaceLock.run { [fonts] in fonts.forEach { cairo_scaled_font_destroy($0) } }
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// `text`'s glyphs from its start, their outlines added to `outlines`; within `width`, when
    /// given (see `layout`).
    func glyphs(_ text: String, width: Double? = nil) -> [Placed] {
        FaceLock.run { placedGlyphs(text, width: width) }
    }

    /// The slug line `text` laid out by an engine of no story: DejaVu Sans at the slug's size,
    /// fontconfig's fallbacks for what it lacks. Wider than `width`, it loses the start of the
    /// file's name to an ellipsis, keeping the page and the date: cut at the box's edge it
    /// named another file ("tiny.tx"). The caller frees it.
    static func layout(_ text: String, engine: TextEngine, width: Double? = nil) -> OpaquePointer {
        let layout = PageRenderer.plainLayout(text, family: PressSheet.slugFace, size: PressSheet.slugSize, context: engine.context)
        if let width {
            pango_layout_set_width(layout, Int32(max(1, width) * Double(PANGO_SCALE)))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_START)
        }
        return layout
    }

    private func placedGlyphs(_ text: String, width: Double?) -> [Placed] {
        let engine = EnginePool.borrow(plan: .empty)
        defer { EnginePool.giveBack(engine) }
        let layout = Self.layout(text, engine: engine, width: width)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let scale = Double(PANGO_SCALE)
        var placed: [Placed] = []
        guard let iter = pango_layout_get_iter(layout) else { return [] }
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iter), let font = run.pointee.item.pointee.analysis.font,
                let scaled = galley_font_scaled(font)
            else { continue }
            var logical = PangoRectangle()
            pango_layout_iter_get_run_extents(iter, nil, &logical)
            let number = UInt(fontNumber(scaled)) << 32
            var x = Double(logical.x) / scale
            let glyphs = run.pointee.glyphs.pointee
            for k in 0..<Int(glyphs.num_glyphs) {
                let g = glyphs.glyphs[k]
                // A box for a character no face has is Pango's own drawing, not a glyph's.
                if g.glyph & PANGO_GLYPH_UNKNOWN_FLAG == 0 && g.glyph != PANGO_GLYPH_EMPTY {
                    let key = number | UInt(g.glyph)
                    placed.append(Placed(glyph: key, x: x + Double(g.geometry.x_offset) / scale))
                    if outlines[key] == nil { outlines[key] = outline(key) }
                }
                x += Double(g.geometry.width) / scale
            }
        } while pango_layout_iter_next_run(iter) != 0
        return placed
    }

    /// `font`'s number in `fonts`, added (and referenced) when new.
    private func fontNumber(_ font: OpaquePointer) -> Int {
        if let i = fonts.firstIndex(of: font) { return i }
        fonts.append(cairo_scaled_font_reference(font))
        return fonts.count - 1
    }

    /// One glyph's outline at the origin, filled (`f`).
    private func outline(_ key: UInt) -> String {
        cairo_set_scaled_font(cr, fonts[Int(key >> 32)])
        var glyph = cairo_glyph_t(index: key & 0xFFFF_FFFF, x: 0, y: 0)
        cairo_new_path(cr)
        cairo_glyph_path(cr, &glyph, 1)
        guard let path = cairo_copy_path(cr) else { return "" }
        defer { cairo_path_destroy(path) }
        // A space has no outline (and Cairo gives its path no data).
        guard path.pointee.status == CAIRO_STATUS_SUCCESS, let data = path.pointee.data else { return "" }
        let n = PDFXWriter.number
        func point(_ p: cairo_path_data_t) -> String { "\(n(p.point.x)) \(n(-p.point.y))" }
        var ops = ""
        var i = 0
        while i < Int(path.pointee.num_data) {
            let header = data[i].header
            switch header.type {
            case CAIRO_PATH_MOVE_TO: ops += "\(point(data[i + 1])) m\n"
            case CAIRO_PATH_LINE_TO: ops += "\(point(data[i + 1])) l\n"
            case CAIRO_PATH_CURVE_TO: ops += "\(point(data[i + 1])) \(point(data[i + 2])) \(point(data[i + 3])) c\n"
            default: ops += "h\n"
            }
            i += Int(header.length)
        }
        return ops.isEmpty ? "" : ops + "f\n"
    }
}
