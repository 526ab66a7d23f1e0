import CCairo
import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate
import Glibc

/// One page of an issue as it goes into the PDF: what it is, its folio and label, and what
/// draws it (a laid-out page of a part, an image filling the page, or nothing).
public struct IssuePage: Sendable {
    public enum Kind: String, Sendable {
        case cover, contents, article, insert, filler, blank
    }

    public var kind: Kind
    /// The number the page has in the issue (physical pages counted from `startPage`).
    public var folio: Int
    /// The PDF page label: none on the cover, roman numerals for front matter if asked.
    public var label: String?
    /// The part whose page this is (`IssuePart`), and the page's number within it (from 1).
    public var part: Int?
    public var page: Page?
    /// An image filling the page (the cover's, an insert's).
    public var image: String?
    /// Its jump lines: "Continued from page 7" above the text of a continuation that starts
    /// here, "Continued on page 42" under the text of a first part that ends here. A page holds
    /// one of each at most, and may hold both: a continuation's last page can take an article
    /// (`startOn: any`) whose own first part ends on it. Two of a kind cannot meet: a
    /// continuation starts on a page of its own, and a page that ends a first part takes no
    /// article after it (`IssuePlanner.room`).
    public var notes: [JumpNote] = []
    /// Articles that start on this page under the end of the one before (`startOn: any`):
    /// each one's part and first page, set below what is already on the page.
    public var followers: [(part: Int, page: Page)] = []

    /// What is drawn on the page from laid-out parts: its own page, then its followers'.
    public var placements: [(part: Int, page: Page)] {
        (part.flatMap { p in page.map { [(p, $0)] } } ?? []) + followers
    }

    /// The page with only the placements of the parts `keep` accepts, the first of them as its
    /// own (an article's pages printed alone); nil when none is left.
    public func keeping(_ keep: (Int) -> Bool) -> IssuePage? {
        let kept = placements.filter { keep($0.part) }
        guard let first = kept.first else { return nil }
        var p = self
        p.notes = notes.filter { keep($0.part) }
        p.part = first.part
        p.page = first.page
        p.followers = Array(kept.dropFirst())
        return p
    }

    /// The footer (for a note under the text) or running head (above it) drawn on the page,
    /// with its style: what the note must keep clear of.
    public func running(_ note: JumpNote, parts: [IssuePart]) -> (line: RunningLine, spec: RunningLineSpec)? {
        guard let part, let page, let line = note.above ? page.header : page.footer else { return nil }
        let t = parts[part].framesetter.template
        return (line, note.above ? t.header : t.footer)
    }

    public init(kind: Kind, folio: Int, label: String?, part: Int? = nil, page: Page? = nil, image: String? = nil) {
        self.kind = kind
        self.folio = folio
        self.label = label
        self.part = part
        self.page = page
        self.image = image
    }
}

extension IssueExport {
    /// The jump lines of `pages` (with their page's index) that have no place clear of the text,
    /// the running line and the page's edges (`PageRenderer.place`): each is then drawn over
    /// one of them.
    public static func crampedNotes(parts: [IssuePart], pages: [IssuePage]) -> [(page: Int, note: JumpNote)] {
        pages.indices.flatMap { i in
            pages[i].notes.filter { note in
                guard let page = pages[i].placements.first(where: { $0.part == note.part })?.page else { return false }
                let renderer = PageRenderer(framesetter: parts[note.part].framesetter)
                return !renderer.noteFits(note, on: page, beside: pages[i].running(note, parts: parts))
            }.map { (i, $0) }
        }
    }
}

/// A jump line: where an article jumps to or comes from, linked to that page.
public struct JumpNote: Sendable {
    public var text: String
    /// The part whose text it ends or continues: on a page shared by two articles
    /// (`startOn: any`), not always the page's own.
    public var part: Int
    /// Above the text area (the continuation's head) or below it (the first part's end).
    public var above: Bool
    /// The page of the PDF it links to, from 1 (0: none, as in an article printed alone).
    public var target: Int

    public init(text: String, part: Int, above: Bool, target: Int) {
        self.text = text
        self.part = part
        self.above = above
        self.target = target
    }
}

/// A laid-out story of the issue: an article, the contents or the cover lines.
public struct IssuePart: @unchecked Sendable {
    public var framesetter: Framesetter
    /// The bookmark standing for it in the outline (an article's title), nil for none.
    public var bookmark: String?
    /// The manifest's article it sets, if it is one.
    public var article: Int?

    public init(framesetter: Framesetter, bookmark: String?, article: Int? = nil) {
        self.framesetter = framesetter
        self.bookmark = bookmark
        self.article = article
    }
}

/// Writes an issue's pages, in order, to one PDF: every part's pages drawn by its own
/// renderer, images filling the pages that are images, the outline (issue, then each article
/// with its headings) and the page labels.
public enum IssueExport {
    /// Writes `pages` to `path`. With `drawAhead`, the articles' draw runs are made on
    /// another thread a page ahead of the drawing (`DrawAhead`). `article`: the PDF is one
    /// article's (`--split`), whose outline entry is the root, titled as `metadata` is.
    public static func pdf(
        parts: [IssuePart], pages: [IssuePage], pageSize: (Double, Double), to path: String, metadata: PDFMetadata,
        subject: String?, keywords: [String], compression: Int = 1, press: PressOutput? = nil, timings: PDFTimings? = nil,
        drawAhead: Bool = false, article: Bool = false, progress: (Int) -> Void = { _ in }
    ) throws(RenderError) {
        let out = try AtomicFile(target: path)
        var committed = false
        defer { if !committed { out.discard() } }
        let draft = try press.map { p throws(RenderError) in try PressDraft(beside: out, press: p) }
        var sheets: [PressSheet] = []
        var slugs: [String] = []
        guard let surface = cairo_pdf_surface_create(draft?.file.path ?? out.temporaryPath, pageSize.0, pageSize.1),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw RenderError(.error("cannot write '\(path)'")) }
        // Unfinished (a page failed), the surface writes its fonts as it goes.
        defer { FaceLock.run { cairo_surface_destroy(surface) } }
        setMetadata(surface, metadata, subject: subject, keywords: keywords)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        let renderers = parts.map { PageRenderer(framesetter: $0.framesetter) }
        let root = cairo_pdf_surface_add_outline(
            surface, Int32(CAIRO_PDF_OUTLINE_ROOT), metadata.title, "page=1", CAIRO_PDF_OUTLINE_FLAG_OPEN)
        // Under the issue's entry, in page order: the contents' heading, then each article's
        // entry with its headings; a jump's continuation goes on with its article's outline.
        var outlines = parts.map { _ in Outline() }
        for o in outlines.indices { outlines[o].parent = root }
        let outlineOf = parts.indices.map { p in parts[p].article.flatMap { a in parts.firstIndex { $0.article == a } } ?? p }
        var bookmarked: Set<Int> = []
        var images = IssueImages()
        var drawing: Int?
        // The articles' draw runs, made on another core while this thread draws.
        let ahead = drawAhead ? DrawAhead(pages: pages.flatMap { $0.placements.map(\.page) }) : nil
        defer { ahead?.stop() }
        var placed = 0
        for (index, entry) in pages.enumerated() {
            progress(index + 1)
            let size = entry.page.map { ($0.width, $0.height) } ?? pageSize
            let sheet = press.map { PressSheet(trimWidth: size.0, trimHeight: size.1, print: $0.print) }
            sheets += sheet.map { [$0] } ?? []
            cairo_pdf_surface_set_size(surface, sheet?.width ?? size.0, sheet?.height ?? size.1)
            // A page without a label (the cover) gets an empty one: Cairo would run the range
            // before it on over it, and a file's labels must start at its first page.
            cairo_pdf_surface_set_page_label(surface, entry.label ?? "")
            PageDestination.mark(index + 1, on: cr)
            for o in outlines.indices { outlines[o].offset = sheet?.margin ?? 0 }
            try timings.measure(.drawing) { () throws(RenderError) in
                try PageRenderer.onSheet(sheet, cr) { () throws(RenderError) in
                    if let image = entry.image {
                        try images.fill(image, width: size.0, height: size.1, bleed: sheet?.print.bleed ?? 0, on: cr)
                    }
                }
            }
            if let press { slugs.append(press.slugLine(folio: entry.label ?? String(entry.folio))) }
            for (p, given) in entry.placements {
                let page = ahead?.take(placed) ?? given
                placed += 1
                // One part's pages after another's: one engine serves them in turn.
                if let last = drawing, last != p { parts[last].framesetter.relinquishEngine() }
                drawing = p
                if let title = parts[p].bookmark, bookmarked.insert(p).inserted {
                    outlines[outlineOf[p]].parentTitle = title
                    // An article's own PDF (--split) has it for its title: its entry is the root.
                    // (In the issue, an article titled as the issue is still an entry of it.)
                    if !article || title != metadata.title {
                        outlines[outlineOf[p]].parent = cairo_pdf_surface_add_outline(
                            surface, root, title, "page=\(index + 1)", cairo_pdf_outline_flags_t(0))
                    }
                }
                renderers[p].bleed = sheet?.print.bleed ?? 0
                try timings.measure(.drawing) { () throws(RenderError) in
                    try PageRenderer.onSheet(sheet, cr) { () throws(RenderError) in
                        try renderers[p].draw(page, on: cr, paper: p == entry.part)
                    }
                }
                outlines[outlineOf[p]].add(page, story: parts[p].framesetter.story, to: surface, pageIndex: index + 1)
                for note in entry.notes where note.part == p {
                    let beside = entry.running(note, parts: parts)
                    timings.measure(.drawing) {
                        PageRenderer.onSheet(sheet, cr) {
                            renderers[p].drawNote(note, on: page, beside: beside, cr: cr, linked: note.target > 0)
                        }
                    }
                }
            }
            timings.measure(.pages) { FaceLock.run { cairo_show_page(cr) } }
        }
        timings.measure(.fonts) { FaceLock.run { cairo_surface_finish(surface) } }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(.error(Export.finishFailure(status, path: path))) }
        if let draft, let press {
            try timings.measure(.postPass) { () throws(RenderError) in
                try draft.finish(into: out, sheets: sheets, slugs: slugs, press: press, metadata: metadata, target: path)
            }
        }
        try out.commit()
        committed = true
    }

    /// Page `number` of the issue (from 1) as a PNG at `dpi`.
    public static func png(
        parts: [IssuePart], pages: [IssuePage], page number: Int, pageSize: (Double, Double), to path: String, dpi: Double,
        press: PressOutput? = nil
    ) throws(RenderError) {
        guard number >= 1 && number <= pages.count else {
            throw RenderError(.error("page \(number) does not exist: the issue has \(pages.count) page\(pages.count == 1 ? "" : "s")"))
        }
        let entry = pages[number - 1]
        let size = entry.page.map { ($0.width, $0.height) } ?? pageSize
        let sheet = press.map { PressSheet(trimWidth: size.0, trimHeight: size.1, print: $0.print) }
        try Export.writePNG(to: path, width: sheet?.width ?? size.0, height: sheet?.height ?? size.1, dpi: dpi) { cr throws(RenderError) in
            try PageRenderer.onSheet(sheet, cr) { () throws(RenderError) in
                var images = IssueImages()
                if let image = entry.image { try images.fill(image, width: size.0, height: size.1, bleed: sheet?.print.bleed ?? 0, on: cr) }
                for (p, page) in entry.placements {
                    let renderer = PageRenderer(framesetter: parts[p].framesetter)
                    renderer.bleed = sheet?.print.bleed ?? 0
                    try renderer.draw(page, on: cr, paper: p == entry.part)
                    for note in entry.notes where note.part == p {
                        renderer.drawNote(note, on: page, beside: entry.running(note, parts: parts), cr: cr, linked: false)
                    }
                }
            }
            if let sheet, let press {
                PageRenderer.drawSlugLine(press.slugLine(folio: entry.label ?? String(entry.folio)), sheet: sheet, on: cr)
                PageRenderer.drawMarks(sheet, on: cr)
            }
        }
    }

    static func setMetadata(_ surface: OpaquePointer, _ metadata: PDFMetadata, subject: String?, keywords: [String]) {
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, metadata.title)
        if let a = metadata.author { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, a) }
        if let s = subject { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, s) }
        if !keywords.isEmpty { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, keywords.joined(separator: ", ")) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, metadata.creator)
        let date = Export.iso8601(metadata.date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
    }

    /// A folio in lower-case roman numerals (front matter).
    public static func roman(_ n: Int) -> String {
        let table: [(Int, String)] = [
            (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"),
            (5, "v"), (4, "iv"), (1, "i"),
        ]
        // Past 3999, thousands as repeated m's, as LaTeX's \roman writes them.
        var n = max(1, n)
        var out = ""
        for (value, letters) in table {
            while n >= value {
                out += letters
                n -= value
            }
        }
        return out
    }
}

/// Full-page images (a cover, an insert), each decoded once, drawn to cover the page: scaled to
/// fill it and centred, the overflow cut at the page's edges.
struct IssueImages {
    private var store = ImageStore(file: "")
    private var references: [String: ImageReference] = [:]

    /// `bleed`: on a press sheet the image covers the page and its bleed.
    mutating func fill(_ path: String, width: Double, height: Double, bleed: Double = 0, on cr: OpaquePointer) throws(RenderError) {
        let image = try reference(path)
        let (iw, ih) = (Double(image.info.pixelWidth), Double(image.info.pixelHeight))
        let (w, h) = (width + 2 * bleed, height + 2 * bleed)
        let scale = max(w / iw, h / ih)
        let rect = Rect(x: (width - iw * scale) / 2, y: (height - ih * scale) / 2, width: iw * scale, height: ih * scale)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, bleed > 0 ? -bleed : 0, bleed > 0 ? -bleed : 0, w, h)
        cairo_clip(cr)
        if image.info.format == .svg {
            try store.drawSVG(image, in: rect, on: cr)
            return
        }
        let surface = try store.surface(for: image)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / iw, rect.height / ih)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_rectangle(cr, 0, 0, iw, ih)
        cairo_fill(cr)
    }

    mutating func reference(_ path: String) throws(RenderError) -> ImageReference {
        if let known = references[path] { return known }
        let info: ImageInfo
        switch ImageInfo.read(path: path) {
        case .success(let i): info = i
        case .failure(let e): throw RenderError(.error("cannot use image '\(path)': \(e.message)", file: path))
        }
        let r = ImageReference(
            source: path, path: path, info: info, width: nil, height: nil, location: SourceLocation(line: 1, column: 1, offset: 0))
        references[path] = r
        return r
    }
}
