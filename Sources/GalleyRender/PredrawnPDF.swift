import GalleyLayout

/// The start of a watched story's next PDF, drawn while `galley watch` waits for the edit that
/// asks for it. An edit is most often made where the last one was, and the pages before it are
/// taken as they were (`Framesetter.keptPages`), so these are the pages the last build kept.
/// Cairo writes a page's operators as it is shown and the fonts at the end, in the order glyphs
/// were first used, so a PDF whose first pages are these and whose others are drawn after
/// the edit is the one a cold build writes, byte for byte, provided these are the next
/// layout's first pages as it hands them over: `Export.pdf` checks each (kept by the layout,
/// with the same running lines) and otherwise starts the PDF again.
///
/// The caller makes sure that nothing else these pages draw from has changed: the files the
/// story reads besides its text (images, emoticon packs) and the options. The template is
/// checked here.
public final class PredrawnPDF {
    let book: PDFBook
    /// The renderer of the build before, with its story and template; the next one shares its
    /// images (`PageRenderer`).
    let renderer: PageRenderer
    /// The pages to draw, and the next one.
    private let pages: [Page]
    private var next = 0
    /// Their draw runs, made on the other core a page ahead (they were kept without them).
    private var ahead: DrawAhead?
    /// The running lines of the pages drawn, in order.
    private(set) var drawn: [(footer: RunningLine?, header: RunningLine?)] = []
    /// How many of them the build after took (`Export.pdf`).
    public internal(set) var taken = 0

    /// The pages `framesetter`'s last layout kept from the one before, to be drawn into a PDF
    /// for `path`, made as `Export.pdf` makes it with the same arguments; nil when it kept none.
    public init?(
        after framesetter: Framesetter, to path: String, metadata: PDFMetadata, compression: Int = 1
    ) throws(RenderError) {
        pages = framesetter.laidOutPages(upTo: framesetter.keptPages)
        guard !pages.isEmpty else { return nil }
        book = try PDFBook(for: path, template: framesetter.template, metadata: metadata, compression: compression, press: nil)
        renderer = PageRenderer(framesetter: framesetter)
        ahead = DrawAhead(pages: pages)
    }

    deinit { ahead?.stop() }

    /// Pages drawn so far.
    public var count: Int { drawn.count }

    /// Whether pages are left to draw.
    public var hasMore: Bool { next < pages.count }

    /// Draws the next page.
    public func drawNext() throws(RenderError) {
        guard next < pages.count else { return }
        let page = ahead?.take(next) ?? pages[next]
        next += 1
        if next == pages.count { pause() }
        try book.add(page, renderer: renderer, story: renderer.story, timings: PDFTimings?.none)
        drawn.append((page.footer, page.header))
        // The next build borrows the engine meanwhile (the one with the story's fonts).
        renderer.framesetter.relinquishEngine()
    }

    /// Stops drawing ahead: the build that may use these pages is about to begin, and wants
    /// the other core (its own draw runs are made there).
    public func pause() {
        ahead?.stop()
        ahead = nil
    }

    /// Whether the pages drawn can begin the PDF of `framesetter` for `path` with `metadata`.
    func fits(_ framesetter: Framesetter, path: String, metadata: PDFMetadata, compression: Int) -> Bool {
        let m = book.metadata
        // Links make every page a tagged `Part` (`PageRenderer`).
        let hasLinks = !renderer.links.links.isEmpty
        return !drawn.isEmpty && book.isIntact && book.path == path && book.compression == compression
            && framesetter.template == renderer.framesetter.template
            && (m.title, m.author, m.creator, m.date) == (metadata.title, metadata.author, metadata.creator, metadata.date)
            && hasLinks == !LinkIndex(story: framesetter.story).links.isEmpty
    }

    /// Whether `page`, handed over by `framesetter`'s layout, is the one drawn here at its place.
    func holds(_ page: Page, of framesetter: Framesetter) -> Bool {
        page.number <= drawn.count && page.number <= framesetter.keptPages
            && drawn[page.number - 1].footer == page.footer && drawn[page.number - 1].header == page.header
    }
}
