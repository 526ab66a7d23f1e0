import CCairo
import GalleyLayout

/// The slug line as the post-pass draws it, in the registration colour like the other marks:
/// Cairo cannot choose that colour, and text drawn by Cairo would be device RGB. The line is
/// laid out as previews set it (DejaVu Sans 6 pt, Cairo's own text call) and each glyph's
/// outline becomes PDF path operators, written once as a form the pages share.
///
/// Its Cairo objects are used by one thread at a time: the one that made them, then the one
/// the post-pass hands them to (through `Background`, which orders the two).
final class SlugOutlines: @unchecked Sendable {
    /// A glyph of the line: its index in the face and its distance from the line's start.
    struct Placed: Equatable {
        var glyph: UInt
        var x: Double
    }

    private let surface: OpaquePointer
    private let cr: OpaquePointer
    private let font: OpaquePointer
    /// Each glyph's outline met so far, as PDF path operators in the glyph's space (y up).
    private(set) var outlines: [UInt: String] = [:]

    init() {
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        cr = cairo_create(surface)
        cairo_select_font_face(cr, PressSheet.slugFace, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, PressSheet.slugSize)
        // As a PDF surface sets text: this 1-pixel surface would otherwise round each advance
        // to a whole point and hint the outlines to its grid.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_set_font_options(cr, options)
        cairo_font_options_destroy(options)
        // The context owns the font it returns: held here for as long as these outlines are.
        font = FaceLock.run { [cr] in cairo_scaled_font_reference(cairo_get_scaled_font(cr)) }
    }

    deinit {
        FaceLock.run { [font] in cairo_scaled_font_destroy(font) }
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// `text`'s glyphs from its start, their outlines added to `outlines`.
    func glyphs(_ text: String) -> [Placed] {
        FaceLock.run { placedGlyphs(text) }
    }

    private func placedGlyphs(_ text: String) -> [Placed] {
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        let status = text.withCString {
            cairo_scaled_font_text_to_glyphs(font, 0, 0, $0, Int32(strlen($0)), &glyphs, &count, nil, nil, nil)
        }
        guard status == CAIRO_STATUS_SUCCESS, let glyphs else { return [] }
        defer { cairo_glyph_free(glyphs) }
        let placed = (0..<Int(count)).map { Placed(glyph: UInt(glyphs[$0].index), x: glyphs[$0].x) }
        for p in placed where outlines[p.glyph] == nil { outlines[p.glyph] = outline(p.glyph) }
        return placed
    }

    /// One glyph's outline at the origin, filled (`f`).
    private func outline(_ index: UInt) -> String {
        var glyph = cairo_glyph_t(index: index, x: 0, y: 0)
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
