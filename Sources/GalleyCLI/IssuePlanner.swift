import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleySupport
import GalleyTemplate

/// Puts an issue's pages in order and numbers them: the cover, the contents, each article from
/// the page its `startOn` asks for (a blank page before it when needed), the inserts after the
/// article they follow, and blank or filler pages up to a multiple of `pageMultiple`. The
/// contents list page numbers, and their own length moves the pages after them: they are set
/// again until the numbers hold (at most `maximumPasses` times).
struct IssuePlanner {
    let issue: LoadedIssue
    let file: String
    /// Told now and then how many articles are laid out.
    var progress: (Int) -> Void = { _ in }
    /// `--cache`: articles laid out before, kept.
    var cache: ArticleCache?
    static let maximumPasses = 4
    /// `--threads`: how many threads lay the articles out.
    var threads: Int?

    /// The threads an issue's articles are laid out on: `--threads`, else one per core up to 4.
    static func threads(_ asked: Int?) -> Int {
        asked.map { max(1, $0) } ?? min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    func plan(diagnostics: inout Diagnostics) -> IssuePlan {
        var contentsPages = issue.manifest.contents == nil ? 0 : 1
        var plan = IssuePlan()
        let prelaid = IssuePrelayout(issue, threads: Self.threads(threads), cache: cache, progress: progress)
        for pass in 1...Self.maximumPasses {
            var warnings = Diagnostics()
            plan = layOut(contentsPages: contentsPages, prelaid: prelaid, warnings: &warnings)
            if pass == 1 { diagnostics.append(contentsOf: warnings.all) }
            plan.passes = pass
            guard issue.manifest.contents != nil else { break }
            let contents = self.contents(plan)
            var set: [Page] = []
            contents.layOut { page in
                set.append(page)
                return true
            }
            if set.count == contentsPages {
                place(contents, pages: set, in: &plan)
                break
            }
            if pass == Self.maximumPasses {
                diagnostics.append(.warning("the contents did not settle in \(pass) passes; their page numbers may be off", file: file))
                place(contents, pages: set, in: &plan)
            }
            contentsPages = max(1, set.count)
        }
        numberRunningLines(&plan)
        for (i, note) in IssueExport.crampedNotes(parts: plan.parts, pages: plan.pages) {
            let page = plan.pages[i]
            let (margin, line) = note.above ? ("top", "running head") : ("bottom", "footer")
            let running = page.running(note, parts: plan.parts) != nil
            let what = running ? "the text, the \(line) and the page's edge" : "the text and the page's edge"
            let fix = running ? "widen the \(margin) margin or shorten the \(line)" : "widen the \(margin) margin"
            diagnostics.append(
                .warning(
                    "page \(page.label ?? String(page.folio)): the jump line '\(note.text)' has no room clear of \(what); it is set over them (\(fix))",
                    file: file))
        }
        return plan
    }

    /// What only the whole issue knows, in each page's running lines (`IssuePlan.numbered`).
    func numberRunningLines(_ plan: inout IssuePlan) {
        for i in plan.pages.indices {
            guard let part = plan.pages[i].part, let page = plan.pages[i].page else { continue }
            plan.pages[i].page = plan.numbered(page, of: part, label: plan.pages[i].label)
        }
    }

    /// The pages with `contentsPages` pages kept for the contents (filled in by `place`);
    /// what is wrong with a jump or a cover line goes to `warnings`.
    func layOut(contentsPages: Int, prelaid: IssuePrelayout, warnings: inout Diagnostics) -> IssuePlan {
        let m = issue.manifest
        var plan = IssuePlan()
        var folio = m.startPage
        func add(_ kind: IssuePage.Kind, part: Int? = nil, page: Page? = nil, image: String? = nil, front: Bool = false) {
            let label = kind == .cover ? nil : (front && m.romanFrontMatter ? IssueExport.roman(folio) : String(folio))
            plan.pages.append(IssuePage(kind: kind, folio: folio, label: label, part: part, page: page, image: image))
            folio += 1
        }
        func reserveContents() { for _ in 0..<contentsPages { add(.contents, front: true) } }
        // Each insert once: after the first of an article listed more than once (`allowRepeat`).
        // A filler placed after something goes there too; one placed nowhere only pads. Those
        // after the cover or the contents are front matter.
        var insertsPlaced = Set<Int>()
        func inserts(after name: String?) {
            let front = name == "cover" || name == "contents"
            for (n, i) in m.inserts.enumerated()
            where i.after == name && !(i.filler && i.after == nil) && insertsPlaced.insert(n).inserted {
                add(.insert, image: i.image, front: front)
            }
        }
        // The inserts after the contents follow them, wherever they stand.
        if m.contents?.after == "start" {
            reserveContents()
            inserts(after: "contents")
        }
        if let cover = m.cover {
            let lines = coverLines(cover, folio: folio, notes: &warnings)
            if let lines { plan.parts.append(IssuePart(framesetter: lines.0, bookmark: nil)) }
            add(.cover, part: lines.map { _ in plan.parts.count - 1 }, page: lines?.1, image: cover.image, front: true)
        }
        inserts(after: "cover")
        if m.contents?.after != "start" {
            if m.contents != nil { reserveContents() }
            inserts(after: "contents")
        }
        // Articles that jump: their first pages set, the rest waiting for their place.
        var waiting: [(article: Int, part: Int, pages: Int, lastIndex: Int, lastFolio: Int, below: Double?)] = []
        // Those that jump after the article `name`, listed at `k` (nil: after the last one,
        // where any still waiting go too, their target having come before them). A file listed
        // again is the target at its listing after the jump, never the jumping one's own.
        func continuations(to name: String?, at k: Int = Int.max) {
            func due(_ w: (article: Int, part: Int, pages: Int, lastIndex: Int, lastFolio: Int, below: Double?)) -> Bool {
                name == nil || (m.articles[w.article].jump?.to == name && w.article < k)
            }
            for w in waiting where due(w) {
                let (framesetter, pages, _) = article(w.article, from: folio - w.pages, prelaid, below: w.below)
                plan.parts.append(IssuePart(framesetter: framesetter, bookmark: nil, article: w.article))
                let part = plan.parts.count - 1
                let first = plan.pages.count
                for page in pages where page.number > w.pages { add(.article, part: part, page: page) }
                // (Set again numbered otherwise, it could in principle end sooner: then no line.)
                guard plan.pages.count > first else { continue }
                plan.pages[w.lastIndex].notes.append(
                    JumpNote(text: "Continued on page \(plan.pages[first].folio)", part: w.part, above: false, target: first + 1))
                plan.pages[first].notes.append(
                    JumpNote(text: "Continued from page \(w.lastFolio)", part: part, above: true, target: w.lastIndex + 1))
            }
            waiting.removeAll(where: due)
        }
        for (k, article) in m.articles.enumerated() {
            let odd = folio % 2 == 1
            if (article.startOn == .recto && !odd) || (article.startOn == .verso && odd) { add(.blank) }
            // On the last page, under the article ending there, if it may and there is room.
            let shared = article.startOn == .any ? room(in: plan, for: k, endingFirstParts: Set(waiting.map(\.lastIndex))) : nil
            let start = shared.map { plan.pages[$0.index].folio } ?? folio
            let (framesetter, pages, seconds) = self.article(k, from: start, prelaid, below: shared?.top)
            let story = issue.articles[k].story
            plan.parts.append(IssuePart(framesetter: framesetter, bookmark: article.title ?? story.title ?? article.written, article: k))
            plan.starts.append((start, (shared?.index ?? plan.pages.count) + 1))
            plan.seconds[k] = seconds
            let part = plan.parts.count - 1
            var own = pages[...]
            if let shared, let first = own.popFirst() { plan.pages[shared.index].followers.append((part, first)) }
            for page in own { add(.article, part: part, page: page) }
            let count = pages.count
            if let jump = article.jump {
                if jump.after < count {
                    // Only the first `after` pages stay; the rest are set again where they go.
                    plan.pages.removeLast(count - jump.after)
                    folio -= count - jump.after
                    waiting.append((k, part, jump.after, plan.pages.count - 1, folio - 1, shared?.top))
                } else {
                    warnings.append(
                        .warning(
                            "'\(article.written)' has \(count) page\(count == 1 ? "" : "s"), so it cannot jump after \(jump.after); it is set whole",
                            file: file, at: jump.location))
                }
            }
            inserts(after: article.written)
            continuations(to: article.written, at: k)
        }
        continuations(to: nil)
        inserts(after: nil)
        // Blank pages, or the inserts marked filler in turn, up to a multiple of `pageMultiple`.
        let fillers = m.inserts.filter(\.filler)
        var k = 0
        while m.pageMultiple > 1 && plan.pages.count % m.pageMultiple != 0 {
            if fillers.isEmpty {
                add(.blank)
            } else {
                add(.filler, image: fillers[k % fillers.count].image)
                k += 1
            }
        }
        return plan
    }

    /// Where article `k`, which may start on any page, starts on the last one: the index of
    /// that page and the top of its text there, under the article ending on it, when at least
    /// six lines of room are left below a gap of two. Not on a page that ends a jump's first
    /// part (its index in `endingFirstParts`): the room under it is the first part's own (a
    /// `<pagebreak>` ended it there), and its "Continued on" line goes under its text.
    func room(in plan: IssuePlan, for k: Int, endingFirstParts: Set<Int>) -> (index: Int, top: Double)? {
        guard let last = plan.pages.indices.last, plan.pages[last].kind == .article, !endingFirstParts.contains(last) else {
            return nil
        }
        let t = issue.articles[k].framesetter.template
        let placements = plan.pages[last].placements
        guard placements.allSatisfy({ $0.page.width == t.pageWidth && $0.page.height == t.pageHeight }),
            let bottom = placements.compactMap(\.page.contentBottom).max()
        else { return nil }
        let top = bottom + 2 * t.body.leading
        let end = t.pageHeight - t.margins.onPage(plan.pages[last].folio).bottom
        return end - top >= 6 * t.body.leading ? (last, top) : nil
    }

    /// Article `k` laid out from folio `folio` (its first page's text from `below` down, if
    /// given), with the framesetter that draws it and the seconds its layout took: the
    /// prelayout's pages renumbered, or set again when their columns stand otherwise on that
    /// folio's parity.
    func article(_ k: Int, from folio: Int, _ prelaid: IssuePrelayout, below: Double? = nil) -> (Framesetter, [Page], Double) {
        if below == nil, let laid = prelaid.articles[k], laid.framesetter.laysOutAlike(from: folio) {
            let (framesetter, pages) = laid.framesetter.renumbered(laid.pages, from: folio)
            return (framesetter, pages, laid.seconds)
        }
        let clock = ContinuousClock()
        let started = clock.now
        var framesetter = issue.articles[k].framesetter.numbered(from: folio)
        if let below { framesetter = framesetter.continuing(below: below) }
        let pages = IssuePrelayout.pages(of: k, issue, framesetter, from: folio, below: below, cache: cache)
        framesetter.relinquishEngine()
        return (framesetter, pages, Self.seconds(clock.now - started))
    }

    /// The contents as a story: the title, then each article's folio, section, title (a link
    /// to its first page) and byline.
    func contents(_ plan: IssuePlan) -> Framesetter {
        let m = issue.manifest
        var lines = ["<h1>\(Self.escape(m.contents?.title ?? "Contents"))</h1>"]
        if let issueLine = [m.title, m.issue, m.date].compactMap({ $0 }).joined(separator: " · ").nonEmpty {
            lines.append("<p after=\"12\"><i>\(Self.escape(issueLine))</i></p>")
        }
        for (k, article) in m.articles.enumerated() {
            let story = issue.articles[k].story
            let title = Self.escape(article.title ?? story.title ?? article.written)
            let section = (article.section ?? story.section).map { Self.escape($0.uppercased()) + " · " } ?? ""
            let (folio, index) = plan.starts[k]
            var entry = "<p align=\"left\" after=\"6\"><b>\(folio)</b>  \(section)<a href=\"#page=\(index)\"><b>\(title)</b></a>"
            if let byline = article.byline { entry += "<br><i>\(Self.escape(byline))</i>" }
            lines.append(entry + "</p>")
        }
        var t = issue.base
        t.startPage = plan.pages.first { $0.kind == .contents }?.folio ?? m.startPage
        t.columns = 1
        t.balance = false
        let source = SourceFile(path: file, text: lines.joined(separator: "\n") + "\n")
        var (story, _) = StoryBuilder(template: t, baseDirectory: issue.manifest.folder).build(MarkupParser.parse(source))
        // Its running head says the issue's title in `{issue}`, as every article's page does.
        StoryFields(title: nil, section: nil, issue: m.title).apply(to: &story)
        return Framesetter(story: story, template: t, file: file, options: LayoutOptions(threads: 1))
    }

    /// The cover lines, set over the cover image in the template's styles (`class`, else
    /// `coverline`), without running lines. The cover is one page: lines it has no room for are
    /// not set, with a warning at the first of them.
    func coverLines(_ cover: IssueManifest.Cover, folio: Int, notes: inout Diagnostics) -> (Framesetter, Page)? {
        guard !cover.lines.isEmpty else { return nil }
        var t = issue.base
        t.startPage = folio
        t.footer.enabled = false
        t.header.enabled = false
        t.pageColor = nil
        t.columns = 1
        let markup = cover.lines.map { line in
            let style = line.styleClass ?? "coverline"
            if t.style(named: style) == nil {
                var message = "unknown class '\(style)' for a cover line"
                if let near = Suggestion.closest(to: style, in: t.styles.map(\.name)) { message += "; did you mean '\(near)'?" }
                notes.append(.warning(message, file: issue.manifest.path, at: line.location, length: style.unicodeScalars.count + 2))
            }
            // A line break the text asks for ("text": "Two\nlines") is kept, as `<br>`.
            let text = Self.escape(line.text).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "<br>")
            return "<p class=\"\(Self.escape(style))\">\(text)</p>"
        }
        let text = markup.joined(separator: "\n")
        let source = SourceFile(path: file, text: text + "\n")
        // (An unknown class was said above, at its place in the manifest.)
        let (story, _) = StoryBuilder(template: t, baseDirectory: issue.manifest.folder).build(MarkupParser.parse(source))
        let framesetter = Framesetter(story: story, template: t, file: file, options: LayoutOptions(threads: 1))
        var first: Page?
        framesetter.layOut { page in
            first = page
            return false
        }
        // The story's text from where the cover's page ends is not set: say so at the cover line
        // it comes from (each line is one line of the markup, from its byte `starts[k]` on).
        if let end = first?.visibleRange.upperBound, end < story.text.utf8.count,
            let at = story.sourceMap.sourceLocation(ofByte: end, in: story.text)
        {
            var starts: [Int] = []
            var offset = 0
            for m in markup {
                starts.append(offset)
                offset += m.utf8.count + 1
            }
            let k = starts.lastIndex { $0 <= at.offset } ?? 0
            let line = cover.lines[k]
            // Cut inside its text, or not begun.
            let started = story.paragraphs.contains { $0.range.lowerBound < end && end < $0.range.upperBound }
            let after = cover.lines.count - k - 1
            let what = (started ? "the rest of it" : "it") + (after > 0 ? " and the \(after) after it are" : " is")
            notes.append(
                .warning(
                    "the cover has no room for this cover line; \(what) not set (shorten the cover lines, or give them a smaller class)",
                    file: issue.manifest.path, at: line.textLocation, length: line.text.unicodeScalars.count + 2))
        }
        return first.map { (framesetter, $0) }
    }

    /// The contents' pages into the places kept for them.
    func place(_ contents: Framesetter, pages: [Page], in plan: inout IssuePlan) {
        // Its heading is its bookmark.
        plan.parts.append(IssuePart(framesetter: contents, bookmark: nil))
        let part = plan.parts.count - 1
        var k = 0
        for i in plan.pages.indices where plan.pages[i].kind == .contents && k < pages.count {
            plan.pages[i].part = part
            plan.pages[i].page = pages[k]
            k += 1
        }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func escape(_ s: String) -> String {
        s.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
