import CCairo
import CGalleyPixels
import CPixbuf
import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import GalleySupport
import Glibc

/// What `check` asks of a story's images before it says they are fine.
public enum ImageCheck {
    /// The errors drawing `images` would meet (see `ImageStore.decodingErrors`).
    public static func decodingErrors(of images: [ImageReference], file: String) -> [Diagnostic] {
        ImageStore.decodingErrors(of: images, file: file)
    }
}

/// Decodes the story's images into Cairo surfaces once each. JPEG files keep their original
/// bytes attached, so the PDF embeds them without re-encoding.
final class ImageStore {
    private var surfaces: [String: OpaquePointer] = [:]
    let file: String

    init(file: String) { self.file = file }

    /// Loaded SVG documents.
    private var svgs: [String: OpaquePointer] = [:]

    deinit {
        for (_, s) in surfaces { cairo_surface_destroy(s) }
        for (_, h) in svgs { g_object_unref(UnsafeMutableRawPointer(h)) }
    }

    /// librsvg's message in a diagnostic's words: libxml's "Error domain 1 code 77 on line 1
    /// column 69 of data: Premature end of data in tag svg line 1" and its line break become
    /// "line 1, column 69: premature end of data in tag svg".
    static func svgReason(_ raw: String) -> String {
        var text = String(raw.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        if let match = text.firstMatch(of: /Error domain \d+ code \d+ on line (\d+) column (\d+) of data: (.*)/) {
            var detail = String(match.3).trimmed()
            // libxml ends some messages with the line again ("… in tag svg line 1").
            if let tail = detail.firstMatch(of: /\s+line \d+$/) { detail.removeSubrange(tail.range) }
            let prefix = text[..<match.range.lowerBound]
            text = "\(prefix)line \(match.1), column \(match.2): \(detail.prefix(1).lowercased() + detail.dropFirst())"
        }
        return text.replacing("\n", with: " ")
    }

    /// An SVG's document, read by librsvg on first use, once drawn at `size` (points) by
    /// `SVGProbe` in a process of its own.
    @discardableResult
    private func loadSVG(_ image: ImageReference, size: (width: Double, height: Double)) throws(RenderError) -> OpaquePointer {
        if let h = svgs[image.path] { return h }
        guard let rsvg = Rsvg.shared else {
            throw RenderError(
                .error("cannot draw SVG '\(image.source)': librsvg is not installed", file: file, at: image.location, length: 4))
        }
        // librsvg reads an SVG's own images only from the SVG's folder or below it (its
        // default policy; no flag widens it here). Given the file's real path, that folder
        // is the real one, inside the root the SVG was admitted under.
        let path = FileRoot.canonicalPath(image.path)
        if let why = SVGProbe.failure(of: path, width: size.width, height: size.height) {
            let (at, length) = Self.place(of: image)
            throw RenderError(.error("cannot draw SVG '\(image.source)': \(why)", file: file, at: at, length: length))
        }
        var error: UnsafeMutablePointer<GError>?
        guard let h = rsvg.newFromFile(path, &error) else {
            let reason = error.map { Self.svgReason(String(cString: $0.pointee.message)) } ?? "unknown error"
            if let error { g_error_free(error) }
            let (at, length) = Self.place(of: image)
            throw RenderError(.error("cannot read SVG '\(image.source)': \(reason)", file: file, at: at, length: length))
        }
        svgs[image.path] = h
        return h
    }

    /// Draws an SVG into `rect` with librsvg: vectors stay vectors in the PDF.
    func drawSVG(_ image: ImageReference, in rect: Rect, on cr: OpaquePointer) throws(RenderError) {
        guard let rsvg = Rsvg.shared else {
            throw RenderError(
                .error("cannot draw SVG '\(image.source)': librsvg is not installed", file: file, at: image.location, length: 4))
        }
        let handle = try loadSVG(image, size: (rect.width, rect.height))
        // An RsvgRectangle: x, y, width, height as doubles.
        let viewport = [rect.x, rect.y, rect.width, rect.height]
        var error: UnsafeMutablePointer<GError>?
        cairo_save(cr)
        // An SVG's text is set by librsvg with Pango and Cairo: under the lock of Cairo's faces.
        let ok = FaceLock.run { viewport.withUnsafeBytes { rsvg.renderDocument(handle, cr, $0.baseAddress, &error) } }
        cairo_restore(cr)
        if ok == 0 {
            let reason = error.map { Self.svgReason(String(cString: $0.pointee.message)) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw RenderError(.error("cannot draw SVG '\(image.source)': \(reason)", file: file, at: image.location, length: 4))
        }
    }

    /// Whether `images` (of the story read from `file`) decode, as drawing them would: the
    /// errors drawing would meet. `check` reads them so, since their headers alone (all the
    /// story's building reads) say nothing of a file cut short or an SVG that does not parse.
    static func decodingErrors(of images: [ImageReference], file: String) -> [Diagnostic] {
        let store = ImageStore(file: file)
        var seen: Set<String> = []
        var errors: [Diagnostic] = []
        for image in images where !image.path.isEmpty && seen.insert(image.path).inserted {
            do throws(RenderError) {
                if image.info.format == .svg {
                    try store.loadSVG(image, size: (Double(image.info.pixelWidth), Double(image.info.pixelHeight)))
                } else {
                    try store.decode(image)
                }
            } catch {
                errors.append(error.diagnostic)
            }
        }
        return errors
    }

    /// Decodes a raster image and lets it go (`decodingErrors`).
    private func decode(_ image: ImageReference) throws(RenderError) {
        g_object_unref(UnsafeMutableRawPointer(try pixbuf(of: image)))
    }

    /// A raster image decoded by gdk-pixbuf, as its file holds it (the caller drops it), or
    /// why it could not be.
    private func pixbuf(of image: ImageReference) throws(RenderError) -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        guard let loaded = gdk_pixbuf_new_from_file(image.path, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw RenderError(decodingError(image, reason))
        }
        return loaded
    }

    /// An image that could not be decoded, said at its `src` value (at its tag for one the
    /// builder made).
    private func decodingError(_ image: ImageReference, _ reason: String) -> Diagnostic {
        let (at, length) = Self.place(of: image)
        return .error("cannot decode image '\(image.source)': \(reason)", file: file, at: at, length: length)
    }

    /// Where a file's failure is said: its `src` value, or the tag for an image the builder made.
    static func place(of image: ImageReference) -> (SourceLocation, Int) {
        image.sourceValue.map { ($0, max(1, image.source.unicodeScalars.count)) } ?? (image.location, 4)
    }

    /// The surface of an image, decoding it on first use.
    func surface(for image: ImageReference) throws(RenderError) -> OpaquePointer {
        if let s = surfaces[image.path] { return s }
        let loaded = try pixbuf(of: image)
        // A new pixbuf, or `loaded` with one more reference: either way one more to drop.
        let oriented = gdk_pixbuf_apply_embedded_orientation(loaded)
        let pixbuf = oriented ?? loaded
        defer {
            if let oriented { g_object_unref(UnsafeMutableRawPointer(oriented)) }
            g_object_unref(UnsafeMutableRawPointer(loaded))
        }
        let w = gdk_pixbuf_get_width(pixbuf)
        let h = gdk_pixbuf_get_height(pixbuf)
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let alpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let srcStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let src = gdk_pixbuf_read_pixels(pixbuf)!
        // The header was checked against the limits when the story was built; the file may have
        // changed since, and Cairo then gives a surface in an error state with no pixels.
        let surface = cairo_image_surface_create(alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, w, h)!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let dst = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            throw RenderError(decodingError(image, "a \(w)×\(h) pixel image is too large"))
        }
        cairo_surface_flush(surface)
        let dstStride = Int(cairo_image_surface_get_stride(surface))
        // Cairo wants native-endian 32-bit pixels, alpha premultiplied.
        galley_pixbuf_to_cairo(src, Int32(srcStride), Int32(channels), alpha ? 1 : 0, dst, Int32(dstStride), w, h)
        cairo_surface_mark_dirty(surface)
        // Only when the pixels are the file's as stored: a rotated image must be re-encoded, and
        // so must an inverted CMYK one, which Cairo would embed with no Decode to undo it.
        if image.info.format == .jpeg, !image.info.invertedCMYK, pixbuf == loaded,
            let data = FileManager.default.contents(atPath: image.path)
        {
            data.withUnsafeBytes { raw in
                _ = galley_attach_mime_data(
                    surface, "image/jpeg", raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count))
            }
        }
        surfaces[image.path] = surface
        return surface
    }
}

/// librsvg, loaded when the first SVG is drawn: linked at start-up it (and the XML and ICU
/// libraries it brings) costs every run ~3 MiB of memory, though most documents have no SVG.
final class Rsvg: @unchecked Sendable {
    typealias NewFromFile =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?
        ) -> OpaquePointer?
    typealias RenderDocument =
        @convention(c) (
            OpaquePointer?, OpaquePointer?, UnsafeRawPointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?
        ) -> Int32

    let newFromFile: NewFromFile
    let renderDocument: RenderDocument

    private init?() {
        guard let lib = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL),
            let new = dlsym(lib, "rsvg_handle_new_from_file"),
            let render = dlsym(lib, "rsvg_handle_render_document")
        else { return nil }
        newFromFile = unsafeBitCast(new, to: NewFromFile.self)
        renderDocument = unsafeBitCast(render, to: RenderDocument.self)
    }

    static let shared = Rsvg()
}
