import CCairo
import CPango
import GalleyLayout
import GalleySupport

/// Colour glyphs (emoji) rendered as images at `scale` pixels a point, one per glyph of each
/// font, kept for the document: a PDF then holds each image once, however often it is drawn.
final class ColorGlyphImages {
    /// Pixels per point: 576 ppi.
    static let scale = 8.0
    /// Most images kept; past it a glyph is rendered each time it is drawn, and the image is
    /// `transient` (memory stays bounded for a document using every emoji at many sizes).
    static let capacity = 2048

    struct Image {
        let surface: OpaquePointer
        let width: Int32
        let height: Int32
        /// Where the image's top left corner lies from the glyph's origin, in points.
        let origin: (x: Double, y: Double)
        /// Not kept: the caller destroys the surface once drawn (Cairo holds its own reference
        /// for as long as it needs the image).
        var transient = false
    }

    private struct Key: Hashable {
        let font: FontKey
        let glyph: UInt32
    }

    /// Rendered glyphs; nil for a glyph with no ink (nothing to draw).
    private var images: [Key: Image?] = [:]

    deinit {
        for case let image? in images.values { cairo_surface_destroy(image.surface) }
    }

    /// The image of `glyph` of the font (`pangoFont` is `font` in the calling thread's engine).
    func image(of glyph: UInt32, font: FontKey, pangoFont: UnsafeMutablePointer<PangoFont>) -> Image? {
        let key = Key(font: font, glyph: glyph)
        if let known = images[key] { return known }
        var image = Self.render(glyph, pangoFont)
        if images.count < Self.capacity {
            images[key] = image
        } else {
            image?.transient = true
        }
        return image
    }

    /// Renders one glyph with a pixel of margin around its ink.
    private static func render(_ glyph: UInt32, _ font: UnsafeMutablePointer<PangoFont>) -> Image? {
        var ink = PangoRectangle()
        pango_font_get_glyph_extents(font, glyph, &ink, nil)
        let unit = Double(PANGO_SCALE)
        let x0 = Double(ink.x) / unit
        let y0 = Double(ink.y) / unit
        let w = Int32((Double(ink.width) / unit * scale).rounded(.up)) + 2
        let h = Int32((Double(ink.height) / unit * scale).rounded(.up)) + 2
        guard w > 2, h > 2, Int(w) * Int(h) < 16_000_000,
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)
        else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        guard let glyphs = pango_glyph_string_new() else {
            cairo_surface_destroy(surface)
            return nil
        }
        defer { pango_glyph_string_free(glyphs) }
        pango_glyph_string_set_size(glyphs, 1)
        glyphs.pointee.glyphs[0] = PangoGlyphInfo(
            glyph: glyph, geometry: PangoGlyphGeometry(width: ink.width, x_offset: 0, y_offset: 0), attr: PangoGlyphVisAttr())
        glyphs.pointee.log_clusters[0] = 0
        let cr = cairo_create(surface)!
        cairo_scale(cr, scale, scale)
        cairo_translate(cr, -x0 + 1 / scale, -y0 + 1 / scale)
        cairo_move_to(cr, 0, 0)
        pango_cairo_show_glyph_string(cr, font, glyphs)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return Image(surface: surface, width: w, height: h, origin: (x0 - 1 / scale, y0 - 1 / scale))
    }
}
