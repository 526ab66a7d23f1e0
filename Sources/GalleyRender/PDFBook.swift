import CCairo
import FoundationEssentials
import GalleyLayout
import GalleyStory
import GalleySupport
import GalleyTemplate

/// One story's PDF being written, a page at a time, into a temporary file beside its target:
/// Cairo's surface, the outline, and on a press sheet the slug lines. `Export.pdf` adds each
/// page as the layout makes it; `galley watch` also adds, while it waits for an edit, the pages
/// the next build will most likely keep (`PredrawnPDF`). Finished, the file replaces the target.
final class PDFBook {
    let metadata: PDFMetadata
    let compression: Int
    /// The target as asked for (the file is written beside what it leads to).
    let path: String
    private let out: AtomicFile
    private let press: PressOutput?
    private let sheet: PressSheet?
    private let draft: PressDraft?
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    private var outline = Outline()
    private var slugs: [String] = []
    private var done = false
    /// Pages added so far.
    private(set) var pages = 0
    /// Whether the file being written is still there, as made (a clean-up of the folder may
    /// have removed it while `galley watch` waited).
    var isIntact: Bool { out.isIntact }

    /// A PDF of pages of `template`'s size for `path`, with `metadata`; streams compressed at
    /// `compression` (1 fastest, 9 smallest); with `press`, each page on its press sheet.
    init(for path: String, template t: Template, metadata: PDFMetadata, compression: Int, press: PressOutput?) throws(RenderError) {
        self.metadata = metadata
        self.compression = compression
        self.path = path
        self.press = press
        let out = try AtomicFile(target: path)
        self.out = out
        sheet = press.map { PressSheet(trimWidth: t.pageWidth, trimHeight: t.pageHeight, print: $0.print) }
        do {
            draft = try press.map { p throws(RenderError) in try PressDraft(beside: out, press: p) }
        } catch {
            out.discard()
            throw error
        }
        let size = sheet.map { ($0.width, $0.height) } ?? (t.pageWidth, t.pageHeight)
        guard let surface = cairo_pdf_surface_create(draft?.file.path ?? out.temporaryPath, size.0, size.1),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            out.discard()
            throw RenderError(.error("cannot write '\(path)'"))
        }
        self.surface = surface
        IssueExport.setMetadata(surface, metadata, subject: nil, keywords: [])
        cr = cairo_create(surface)!
        outline.offset = sheet?.margin ?? 0
    }

    deinit {
        cairo_destroy(cr)
        // Unfinished (a page failed, or a build took another book), the surface writes its
        // fonts as it goes.
        FaceLock.run { cairo_surface_destroy(surface) }
        if !done { out.discard() }
    }

    /// Draws `page` (page `pages + 1` of the PDF) with `renderer`, whose story is `story`.
    func add(_ page: Page, renderer: PageRenderer, story: Story, timings: PDFTimings?) throws(RenderError) {
        try compressing { () throws(RenderError) in
            PageDestination.mark(pages + 1, on: cr)
            try timings.measure(.drawing) { () throws(RenderError) in
                if let sheet, let press {
                    try renderer.draw(page, on: cr, sheet: sheet)
                    slugs.append(press.slugLine(folio: String(page.folio)))
                } else {
                    try renderer.draw(page, on: cr)
                }
            }
            cairo_pdf_surface_set_page_label(surface, String(page.folio))
            outline.add(page, story: story, to: surface)
            timings.measure(.pages) { FaceLock.run { cairo_show_page(cr) } }
        }
        pages += 1
    }

    /// Writes the fonts and the end of the file, runs the press post-pass if any, and puts the
    /// file in place of the target.
    func finish(timings: PDFTimings?) throws(RenderError) {
        compressing { timings.measure(.fonts) { FaceLock.run { cairo_surface_finish(surface) } } }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(.error(Export.finishFailure(status, path: path))) }
        if let draft, let sheet, let press {
            try timings.measure(.postPass) { () throws(RenderError) in
                try draft.finish(
                    into: out, sheets: Array(repeating: sheet, count: pages), slugs: slugs, press: press, metadata: metadata,
                    target: path)
            }
        }
        try out.commit()
        done = true
    }

    /// Runs `body` with Cairo's streams compressed at this book's level. Cairo compresses at
    /// zlib's default level; only the executable's hooks offer another (`LibraryHooks`), set
    /// per thread, so around each piece of writing (a book may be written between others').
    private func compressing<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let hooks = LibraryHooks.installed
        let level = hooks?.setCompressionLevel(min(9, max(1, compression)))
        defer { if let hooks, let level { _ = hooks.setCompressionLevel(level) } }
        return try body()
    }
}
