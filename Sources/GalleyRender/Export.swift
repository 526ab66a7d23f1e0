import CCairo
import CPNG
import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate
import Glibc

/// Document metadata written into the PDF.
public struct PDFMetadata: Sendable {
    public var title: String
    public var author: String?
    public var creator: String
    /// Creation date: `SOURCE_DATE_EPOCH` when set, else a fixed date, so builds are reproducible.
    public var date: Date

    public init(title: String, author: String? = nil, creator: String, date: Date) {
        self.title = title
        self.author = author
        self.creator = creator
        self.date = date
    }

    /// The date from `SOURCE_DATE_EPOCH`, or 2000-01-01T00:00:00Z.
    public static func reproducibleDate(environment: [String: String] = ProcessInfo.processInfo.environment) -> Date {
        if let s = environment["SOURCE_DATE_EPOCH"], let t = Int64(s.trimmed()), t >= 0 {
            return Date(timeIntervalSince1970: TimeInterval(t))
        }
        return Date(timeIntervalSince1970: 946_684_800)
    }
}

/// Writes laid-out pages to files.
public enum Export {
    /// Lays out the whole story and writes every page to one PDF, drawing each page as soon as
    /// it is laid out. `compression` is the level the PDF's streams are compressed at, 1
    /// (fastest) to 9 (smallest). With `press`, each page is drawn on its press sheet into a
    /// draft that the PDF/X post-pass (`PDFXWriter`) writes out. `predrawn`: the first pages,
    /// drawn already for this PDF (`galley watch`), used when the layout hands them over again
    /// as they were drawn. `progress` is told each page number. `timings` gathers where the
    /// time went (`--timings`). Returns the number of pages.
    @discardableResult
    public static func pdf(
        _ framesetter: Framesetter, to path: String, metadata: PDFMetadata, compression: Int = 1, press: PressOutput? = nil,
        timings: PDFTimings? = nil, predrawn: PredrawnPDF? = nil, progress: (Int) -> Void = { _ in },
        drawn: (Page) -> Void = { _ in }
    ) throws(RenderError) -> Int {
        let story = framesetter.story
        func newBook() throws(RenderError) -> PDFBook {
            try PDFBook(for: path, template: framesetter.template, metadata: metadata, compression: compression, press: press)
        }
        var start = predrawn.flatMap { p in
            press == nil && p.fits(framesetter, path: path, metadata: metadata, compression: compression) ? p : nil
        }
        var book: PDFBook
        if let start { book = start.book } else { book = try newBook() }
        var renderer = PageRenderer(framesetter: framesetter, sharing: start?.renderer)
        // The running lines of the pages handed over while those drawn already are checked: a
        // PDF begun again takes the pages from the layout's own record of them (without draw
        // runs, and with the running lines they had when laid out), and these lines.
        var checked: [(footer: RunningLine?, header: RunningLine?)] = []
        func beginAgain() throws(RenderError) {
            start = nil
            book = try newBook()
            renderer = PageRenderer(framesetter: framesetter)
            let pages = framesetter.laidOutPages(upTo: checked.count)
            guard pages.count == checked.count else {
                throw RenderError(.error("cannot write '\(path)': the pages laid out before the edit were lost; build it again"))
            }
            for (k, var page) in pages.enumerated() {
                (page.footer, page.header) = checked[k]
                try book.add(page, renderer: renderer, story: story, timings: timings)
            }
            checked = []
        }
        var failure: RenderError?
        let pages = framesetter.layOut(preparing: { layout, engine in
            PageRenderer.prepareShadows(layout, engine: engine, story: story)
        }) { page in
            do {
                if let s = start, page.number <= s.count {
                    if s.holds(page, of: framesetter) {
                        checked.append((page.footer, page.header))
                        progress(page.number)
                        drawn(page)
                        return true
                    }
                    try beginAgain()
                }
                try book.add(page, renderer: renderer, story: story, timings: timings)
            } catch let e as RenderError {
                failure = e
                return false
            } catch {
                return false
            }
            progress(page.number)
            drawn(page)
            return true
        }
        if let failure { throw failure }
        // A story now shorter than the pages drawn before it.
        if let s = start, pages < s.count { try beginAgain() }
        try book.finish(timings: timings)
        if let start { start.taken = start.count }
        return pages
    }

    /// Why Cairo could not finish a PDF, in words that name the part that failed: only a write
    /// error is about the file; a font FreeType cannot read is not the disk's fault.
    static func finishFailure(_ status: cairo_status_t, path: String) -> String {
        switch status {
        case CAIRO_STATUS_WRITE_ERROR: return "cannot write '\(path)': the disk refused the data (full, or removed)"
        case CAIRO_STATUS_NO_MEMORY: return "cannot make '\(path)': out of memory"
        case CAIRO_STATUS_FREETYPE_ERROR:
            return "cannot make '\(path)': FreeType could not read a font to embed it (a damaged or unsupported font file)"
        default: return "cannot make '\(path)': Cairo failed: \(String(cString: cairo_status_to_string(status)))"
        }
    }

    /// The most pixels a preview page may have: each costs 4 bytes in Cairo's image and 3 in the
    /// rows handed to libpng, so this bounds a preview's memory (an A4 page at 600 dpi fits).
    public static let maxPreviewPixels = 40_000_000

    /// Lays out the story up to page `number` and writes that page as a PNG at `dpi`, on the
    /// template's paper (on white, when the paper is translucent or none).
    /// Throws when the page does not exist (saying how many there are).
    public static func png(
        _ framesetter: Framesetter, page number: Int, to path: String, dpi: Double, press: PressOutput? = nil
    ) throws(RenderError) {
        var found: Page?
        var count = 0
        count = framesetter.layOut { page in
            if page.number == number {
                found = page
                return false
            }
            return true
        }
        guard let page = found else { throw RenderError(missingPage(number, of: count, framesetter)) }
        try writePNG(page, to: path, dpi: dpi, renderer: PageRenderer(framesetter: framesetter), press: press)
    }

    /// Page `number` past the last of `count`. Pages are asked for from 1 whatever their folios
    /// (`startPage`), which the message gives when they differ: `--page 17` of a document whose
    /// folios are 17 and 18 was said not to exist, with no word of why.
    static func missingPage(_ number: Int, of count: Int, _ framesetter: Framesetter) -> Diagnostic {
        var message = "page \(number) does not exist: the document has \(count) page\(count == 1 ? "" : "s")"
        let first = framesetter.template.startPage
        if first != 1 && count > 0 {
            let folios = count == 1 ? "folio \(first)" : "folios \(first)–\(first + count - 1)"
            message += " (\(folios)); --page counts from the first page, 1"
        }
        return .error(message)
    }

    /// Lays the story out once, up to the last of `numbers`, and writes each of those pages as a
    /// PNG at `dpi` to `path(number)`. Returns the pages laid out. Throws when a page does not
    /// exist, once the pages before it are written.
    @discardableResult
    public static func pngs(
        _ framesetter: Framesetter, pages numbers: [Int], to path: (Int) -> String, dpi: Double, press: PressOutput? = nil
    ) throws(RenderError) -> [Page] {
        let last = numbers.max() ?? 0
        var laid: [Page] = []
        framesetter.layOut { page in
            laid.append(page)
            return page.number < last
        }
        // Every page asked for is checked before any is written: a set of PNGs is written whole
        // or not at all (`watch --pages` says the files were kept as they were).
        if let missing = numbers.sorted().first(where: { $0 > laid.count }) {
            throw RenderError(missingPage(missing, of: laid.count, framesetter))
        }
        let renderer = PageRenderer(framesetter: framesetter)
        for n in numbers.sorted() {
            try writePNG(laid[n - 1], to: path(n), dpi: dpi, renderer: renderer, press: press)
        }
        return laid
    }

    /// One page as a PNG: the page alone, or with `press` its whole sheet, marks and trim.
    static func writePNG(_ page: Page, to path: String, dpi: Double, renderer: PageRenderer, press: PressOutput?) throws(RenderError) {
        guard let press else {
            return try writePNG(to: path, width: page.width, height: page.height, dpi: dpi) { cr throws(RenderError) in
                try renderer.draw(page, on: cr)
            }
        }
        let sheet = PressSheet(trimWidth: page.width, trimHeight: page.height, print: press.print)
        try writePNG(to: path, width: sheet.width, height: sheet.height, dpi: dpi) { cr throws(RenderError) in
            try renderer.draw(page, on: cr, sheet: sheet)
            PageRenderer.drawSlugLine(press.slugLine(folio: String(page.folio)), sheet: sheet, on: cr)
            PageRenderer.drawMarks(sheet, on: cr)
        }
    }

    /// Draws a page `width` × `height` points with `draw` (in points, on white) and writes it as
    /// a PNG at `dpi`, through a temporary file.
    static func writePNG(
        to path: String, width: Double, height: Double, dpi: Double, _ draw: (OpaquePointer) throws(RenderError) -> Void
    ) throws(RenderError) {
        let out = try AtomicFile(target: path)
        var committed = false
        defer { if !committed { out.discard() } }
        let (w, h) = try previewPixels(width: width, height: height, dpi: dpi)
        let scale = dpi / 72
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h)!
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw RenderError(.error("cannot make a \(w)×\(h) pixel image: out of memory"))
        }
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_scale(cr, scale, scale)
        do {
            try FaceLock.run { () throws(RenderError) in try draw(cr) }
        } catch {
            cairo_destroy(cr)
            throw error
        }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        // A page with no colour (most of a magazine's) is written grey: a third of the bytes
        // to compress, which is most of a preview's time.
        let grey = greyRows(data, width: Int(w), height: Int(h), stride: stride)
        let rows = grey ?? rgbRows(data, width: Int(w), height: Int(h), stride: stride)
        let channels: Int32 = grey == nil ? 3 : 1
        let status = galley_write_png(out.temporaryPath, rows, w, h, channels, 1, dpi)
        guard status == 0 else {
            throw RenderError(.error("cannot write '\(path)': \(status == -1 ? String(cString: strerror(errno)) : "PNG encoding failed")"))
        }
        try out.commit()
        committed = true
    }

    /// Cairo's pixels (0x00RRGGBB words, rows `stride` bytes apart) as PNG's grey rows, one byte
    /// a pixel after each row's filter byte (0, none), when every one is a grey; nil at the first
    /// that is not. The rows are compressed as they are (`galley_write_png`).
    static func greyRows(_ data: UnsafeRawPointer, width: Int, height: Int, stride: Int) -> [UInt8]? {
        let length = (width + 1) * height
        let grey = [UInt8](unsafeUninitializedCapacity: length) { out, count in
            count = 0
            for y in 0..<height {
                let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
                out[count] = 0
                count += 1
                for x in 0..<width {
                    let p = row[x] & 0xFF_FFFF
                    let b = p & 0xFF
                    guard p == b &* 0x01_0101 else { return }
                    out[count] = UInt8(b)
                    count += 1
                }
            }
        }
        return grey.count == length ? grey : nil
    }

    /// Cairo's pixels as PNG's RGB rows, each after its filter byte (0, none).
    static func rgbRows(_ data: UnsafeRawPointer, width: Int, height: Int, stride: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: (width * 3 + 1) * height)
        rgb.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
                var o = y * (width * 3 + 1) + 1
                for x in 0..<width {
                    let p = row[x]
                    dst[o] = UInt8((p >> 16) & 0xFF)
                    dst[o + 1] = UInt8((p >> 8) & 0xFF)
                    dst[o + 2] = UInt8(p & 0xFF)
                    o += 3
                }
            }
        }
        return rgb
    }

    /// The pixel size of `page` at `dpi`, within the preview's budget; past it, an error naming
    /// the highest resolution that fits.
    static func previewPixels(width: Double, height: Double, dpi: Double) throws(RenderError) -> (Int32, Int32) {
        let scale = dpi / 72
        let w = Int32((width * scale).rounded())
        let h = Int32((height * scale).rounded())
        guard w > 0, h > 0, Int(w) * Int(h) <= maxPreviewPixels else {
            let most = Int((72 * (Double(maxPreviewPixels) / (width * height)).squareRoot()).rounded(.down))
            throw RenderError(
                .error(
                    "a \(w)×\(h) pixel page is over the preview's limit of \(maxPreviewPixels / 1_000_000) million pixels "
                        + "(\(maxPreviewPixels * 7 / 1_048_576) MiB); use --dpi \(most) or less"))
        }
        return (w, h)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` in UTC. Written by hand: DateFormatter loads ICU, which costs
    /// ~8 MiB of memory for one date.
    static func iso8601(_ d: Date) -> String {
        var t = time_t(d.timeIntervalSince1970.rounded(.down))
        var tm = tm()
        gmtime_r(&t, &tm)
        func pad(_ v: Int32, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(pad(tm.tm_year + 1900, 4))-\(pad(tm.tm_mon + 1, 2))-\(pad(tm.tm_mday, 2))T"
            + "\(pad(tm.tm_hour, 2)):\(pad(tm.tm_min, 2)):\(pad(tm.tm_sec, 2))Z"
    }
}
