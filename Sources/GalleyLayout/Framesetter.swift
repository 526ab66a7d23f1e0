import FoundationEssentials
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate
import Glibc

/// How the framesetter runs.
public struct LayoutOptions: Sendable {
    /// Threads to use, the calling one included; nil picks one per core (at most 4). With 1,
    /// and for small stories, paragraphs are shaped on the calling thread.
    public var threads: Int?
    /// The caller draws every page as it is laid out (a PDF build): one thread is then left to
    /// drawing, which bounds such a build (on two cores a second shaping thread only took
    /// time from it). Otherwise (a preview, a check) every thread shapes.
    public var drawsEveryPage: Bool
    /// The files the template was read from (and a manifest that sets it), newest first: where
    /// a warning about a face only the template names points.
    public var templateFiles: [String]
    public init(threads: Int? = nil, drawsEveryPage: Bool = false, templateFiles: [String] = []) {
        self.threads = threads
        self.drawsEveryPage = drawsEveryPage
        self.templateFiles = templateFiles
    }
}

/// Makes frames from a story, region after region (Core Text's CTFramesetter): the template's
/// columns left to right, page after page, until the story's visible ranges have consumed it all.
/// Pages are handed over as soon as they are full, so drawing overlaps shaping and memory stays flat.
public final class Framesetter {
    public let story: Story
    public let template: Template
    /// The input file's name, for located diagnostics.
    public let file: String
    /// Warnings met while laying out (substituted faces, overfull lines, shrunk images).
    public private(set) var diagnostics = Diagnostics()
    /// The engine of the thread that lays the story out: resolves faces, shapes and draws.
    package var engine: TextEngine { lease.engine(for: plan) }
    /// Shared with the copies `numbered(from:)` makes: they work on one thread, one at a time.
    private let lease: EngineLease
    package let plan: FontPlan
    let options: LayoutOptions
    let breaker: any LineBreaker
    let hyphenation: HyphenationRules
    let hyphenator: Hyphenator?
    let attachments: AttachmentIndex
    /// Where the text of the first page starts when it follows another story on that page
    /// (`continuing(below:)`); nil: at the top margin.
    package private(set) var firstPageTop: Double?
    /// Paragraphs laid out by the builds before, for one that follows an edit.
    let cache: ParagraphCache?
    /// How many pages the last layout took from the build before (`keptPages`), and the page
    /// count its running lines showed (0 when they show none).
    private var keptBefore = 0
    private var shownTotal = 0

    /// `warmup`: font work started before the story existed (see `FontWarmup`), taken over here.
    /// `cache`: the paragraphs of earlier layouts of the same document (`galley watch`).
    public init(
        story: Story, template: Template, file: String, options: LayoutOptions = LayoutOptions(), warmup: FontWarmup? = nil,
        cache: ParagraphCache? = nil
    ) {
        cache?.begin(story: story, template: template)
        self.cache = cache
        self.story = story
        self.template = template
        self.file = file
        self.options = options
        switch template.lineBreaking {
        case .totalFit: self.breaker = TotalFitBreaker()
        case .greedy: self.breaker = GreedyBreaker()
        }
        let h = template.hyphenation
        var rules = HyphenationRules(
            enabled: h.enabled, minWord: h.minWord, leftMin: h.leftMin, rightMin: h.rightMin, capitals: h.capitals,
            maxConsecutive: h.maxConsecutive)
        rules.narrowBelow = Double(h.narrowMeasure) * template.body.size
        (rules.narrowMinWord, rules.narrowMaxConsecutive) = (h.narrowMinWord, h.narrowMaxConsecutive)
        self.hyphenation = rules
        self.hyphenator = h.enabled ? Hyphenator.forLanguage(template.language) : nil
        hyphenator?.preload()
        self.attachments = AttachmentIndex(story: story)
        // One engine probes the faces and then draws: one font map for this thread.
        let warmed = warmup?.take()
        let engine = warmed?.engine ?? EnginePool.borrow(plan: .empty)
        let (plan, warnings) = FontPlan.resolve(
            story: story, fallbackFaces: template.fallbackFaces, scriptFallbacks: template.scriptFallbacks, language: template.language,
            file: file, templateFiles: options.templateFiles, engine: engine, known: warmed?.faces ?? [:])
        engine.adopt(plan)
        self.plan = plan
        self.lease = EngineLease(engine)
        diagnostics.append(contentsOf: warnings)
        diagnostics.append(contentsOf: Self.cramped(template, files: options.templateFiles, hyphenates: hyphenator != nil))
    }

    /// What a template sets that will not come out as meant, said once, each at its value in
    /// the template's files: a footer or running head whose margin is too shallow for it (a
    /// running line stands in the middle of its margin, `runningLine`, so with its ascent, 0.8
    /// of its size, and its descent, 0.25, it meets the text when the margin is under 1.6 times
    /// its size for the footer, on its baseline, or 1.2 times for the head, its capitals
    /// centred); hyphenation in a language with no patterns (`hyphenates`: the layout found
    /// them); and a gutter too narrow to part the columns' words.
    static func cramped(_ t: Template, files: [String], hyphenates: Bool) -> [Diagnostic] {
        var said: [Diagnostic] = []
        func warn(at key: String, _ message: String) {
            let spot = TemplateLoader.valueSpot([key], in: files)
            said.append(.warning(message, file: spot?.file, at: spot?.at, length: spot?.length ?? 1))
        }
        for (spec, margin, needed, name, side) in [
            (t.footer, t.margins.bottom, 1.6 * t.footer.size, "footer", "bottom"),
            (t.header, t.margins.top, 1.2 * t.header.size, "running head", "top"),
        ] where spec.enabled && margin < needed - 0.05 {
            warn(
                at: "margins",
                "the \(side) margin (\(format(margin)) pt) is too shallow for the \(name) (\(format(spec.size)) pt), "
                    + "which is drawn over the text; give it at least \(format(needed.rounded(.up))) pt, or a smaller \(name)")
        }
        // Words simply not hyphenated, and justified lines loose, with no word of why. (CJK is
        // not hyphenated.)
        let language = t.language.split(separator: "-").first.map { $0.lowercased() } ?? ""
        if t.hyphenation.enabled, !hyphenates, !["zh", "ja", "ko"].contains(language) {
            warn(
                at: "language",
                "no hyphenation patterns are installed for '\(t.language)': its words are not hyphenated (Debian's hyphen-* packages "
                    + "hold them)")
        }
        // Columns closer than half an em of the body: their words run into each other.
        if t.columns > 1 && t.gutter < 0.5 * t.body.size {
            warn(
                at: "gutter",
                "the gutter (\(format(t.gutter)) pt) is under half an em of the \(format(t.body.size)) pt body: the columns' words run "
                    + "into each other; give it at least \(format((0.5 * t.body.size).rounded(.up))) pt")
        }
        return said
    }

    /// The same story and fonts numbered from folio `startPage` (an issue's article at its
    /// place), and run with `options` if given: the engine and its fonts are kept, so nothing
    /// is resolved or loaded again.
    package func numbered(from startPage: Int, options: LayoutOptions? = nil) -> Framesetter {
        var t = template
        t.startPage = startPage
        return Framesetter(copying: self, template: t, options: options ?? self.options)
    }

    /// The same story set from `top` down on its first page, under the end of another story
    /// that page holds: the first page has no running lines of its own.
    package func continuing(below top: Double) -> Framesetter {
        let copy = Framesetter(copying: self, template: template, options: options)
        copy.firstPageTop = top
        return copy
    }

    /// How many pages the layout under way (or the last one) took as the layout before laid
    /// them out, before an edit (`galley watch`; 0 without a paragraph cache).
    /// A layout whose running lines show the page count is run twice (`layOut`): the pass that
    /// counts is the one that takes pages from the build before.
    package var keptPages: Int { firstPageTop == nil ? keptBefore : 0 }

    /// The first `count` pages of the last layout, as it handed them over but without draw
    /// runs (none without a paragraph cache).
    package func laidOutPages(upTo count: Int) -> [Page] {
        (cache?.pages(upTo: count) ?? []).map { kept in
            // A page taken by the pass that counted was kept with the lines that pass gave it.
            var page = kept
            (page.footer, page.header) = runningLines(of: page, pages: shownTotal)
            return page
        }
    }

    /// Whether the pages laid out from this framesetter's first folio are those laid out from
    /// `startPage` but for their numbers and running lines (`renumbered`): the columns move
    /// only with mirrored margins, between folios of unlike parity.
    package func laysOutAlike(from startPage: Int) -> Bool {
        !template.margins.mirrored || (startPage - template.startPage) % 2 == 0
    }

    /// `pages`, all this framesetter laid out, as `numbered(from: startPage)` lays them out
    /// (when `laysOutAlike(from:)` holds), with the copy that draws them.
    package func renumbered(_ pages: [Page], from startPage: Int) -> (Framesetter, [Page]) {
        let copy = numbered(from: startPage)
        let total = showsPageCount ? pages.count : 0
        let moved = pages.map { page in
            var p = page
            p.folio = startPage + p.number - 1
            p.footer = copy.runningLine(template.footer, on: p, pages: total, head: false)
            p.header = Self.opensStory(p, story) ? nil : copy.runningLine(template.header, on: p, pages: total, head: true)
            if p.number == 1 && firstPageTop != nil { (p.footer, p.header) = (nil, nil) }
            return p
        }
        return (copy, moved)
    }

    private init(copying other: Framesetter, template: Template, options: LayoutOptions) {
        story = other.story
        self.template = template
        file = other.file
        self.options = options
        breaker = other.breaker
        hyphenation = other.hyphenation
        hyphenator = other.hyphenator
        attachments = other.attachments
        firstPageTop = other.firstPageTop
        lease = other.lease
        plan = other.plan
        diagnostics = other.diagnostics
        cache = other.cache
    }

    /// Gives the engine back to the pool until the framesetter (or a copy) is used again, for a
    /// caller that sets many stories one after another. Not while a page of it is being drawn.
    package func relinquishEngine() { lease.giveBack() }

    /// Adds the warnings that laying out pages read from the layout cache gave when they were
    /// laid out (see `LayoutArchive`).
    package func record(_ warnings: [Diagnostic]) { diagnostics.append(contentsOf: warnings) }

    /// The font files the lines of `pages` are set in: what a build depends on besides its
    /// text, template and images (`--depfile`).
    package func fontFiles(of pages: [Page]) -> Set<String> {
        var keys: Set<FontKey> = []
        for page in pages {
            for frame in page.frames {
                for line in frame.lines { for run in line.paragraph.text.runs { keys.insert(run.font) } }
                for cap in frame.dropCaps { for run in cap.paragraph.text.runs { keys.insert(run.font) } }
            }
        }
        return Set(keys.compactMap { engine.fontFile($0) })
    }

    /// How paragraphs are shaped and broken, shared by every shaping thread.
    var setting: ParagraphSetting {
        ParagraphSetting(
            breaker: breaker, hyphenation: hyphenation, hyphenator: hyphenator, language: template.language, attachments: attachments,
            columnHeight: columns[0].height, cjkAutoSpacing: template.cjkAutoSpacing, cjk: template.cjk, cache: cache)
    }

    /// The column rectangles of the first page, left to right: those of every page unless the
    /// margins are mirrored (see `columns(onPage:)`, which takes a folio).
    public var columns: [Rect] { columns(onPage: template.startPage) }

    /// The column rectangles of page `number` (from 1), left to right. Mirrored margins move
    /// them from page to page; their width stays, so paragraphs are shaped once for every page.
    public func columns(onPage number: Int) -> [Rect] {
        let t = template
        let m = t.margins.onPage(number)
        let usable = t.pageWidth - m.left - m.right
        let n = max(1, t.columns)
        let width = (usable - Double(n - 1) * t.gutter) / Double(n)
        let height = t.pageHeight - m.top - m.bottom
        return (0..<n).map { Rect(x: m.left + Double($0) * (width + t.gutter), y: m.top, width: width, height: height) }
    }

    /// Lays the story out, handing each finished page to `body` in order. `body` returns false
    /// to stop early (a preview needs only the pages up to the one it shows). Returns the number
    /// of pages made.
    @discardableResult
    public func layOut(_ body: (Page) throws -> Bool) rethrows -> Int {
        try layOut(preparing: nil, body)
    }

    /// `layOut(_:)`, with work the renderer does ahead for each paragraph's draw runs on the
    /// shaping threads of a PDF build (see `DrawingPreparation`).
    @discardableResult
    package func layOut(preparing preparation: DrawingPreparation?, _ body: (Page) throws -> Bool) rethrows -> Int {
        // A footer or header showing the page count needs it before page 1 is drawn: count first.
        let total = showsPageCount ? run(pages: 0, preparing: nil) { _ in true } : 0
        return try run(pages: total, preparing: preparation, body)
    }

    /// A footer or running head shows the number of pages.
    private var showsPageCount: Bool { [template.footer, template.header].contains { $0.enabled && $0.names("pages") } }

    private func run(pages total: Int, preparing preparation: DrawingPreparation?, _ body: (Page) throws -> Bool) rethrows -> Int {
        // Under `galley watch`, the pages before an edit as the last build laid them out.
        let starts = firstPageTop == nil ? cache?.pages : nil
        let kept = starts?.resumption(for: story, template: template)
        starts?.begin(story, template: template, keeping: kept?.pages.count ?? 0)
        // (A second pass, with the count, takes every page from the first.)
        if total == 0 { keptBefore = kept?.pages.count ?? 0 }
        shownTotal = total
        let columnWidth = columns[0].width
        let widths = LineWidths(rest: columnWidth)
        let count = story.paragraphs.count
        let threads = options.threads ?? min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let parallel = threads > 1 && count >= 24 && story.text.utf8.count >= 16_384
        var pipeline =
            parallel
            ? ShapingPipeline(
                story: story, plan: plan, setting: setting, widths: widths,
                threads: options.drawsEveryPage ? threads - 1 : threads, prepareDrawing: options.drawsEveryPage,
                preparation: preparation, from: kept?.flows.last?.paragraph ?? 0) : nil
        // With no worker thread to be had, this thread shapes every paragraph itself.
        pipeline = pipeline?.workers == 0 ? nil : pipeline
        defer { pipeline?.stop() }
        // Paragraphs taken during the current page, so the page can be laid out again.
        var taken: [Int: ParagraphLayout] = [:]
        func layout(_ i: Int) -> ParagraphLayout? {
            if let l = taken[i] { return l }
            // The pipeline hands each paragraph over once: one taken on an earlier page and
            // needed again (the page laid out again without it) is laid out again here.
            let l =
                pipeline?.take(i, helping: engine) ?? setting.layOut(story: story, paragraph: i, engine: engine, widths: widths)
            taken[i] = l
            return l
        }

        var flow = newFlow()
        var pageNumber = 0
        if let kept {
            let pages = kept.pages.map { old in
                var page = old
                (page.footer, page.header) = runningLines(of: page, pages: total)
                return page
            }
            if try !draw(pages, numberedFrom: 0, numbered: &pageNumber, preparing: preparation, body) {
                // Where a layout stopping here would stand (its warnings so far).
                diagnostics.append(contentsOf: kept.flows[pageNumber].diagnostics)
                return pageNumber
            }
            flow = flow.resumed(from: kept.flows[kept.pages.count])
        }
        var complete = true
        repeat {
            // After an edit, the pages of the layout before, once the flow stands where one
            // of them began, in the same state: what follows is laid out as it was.
            if pageNumber > (kept?.pages.count ?? 0), let reuse = starts?.reusable(flow, page: pageNumber + 1, sameColumns: sameColumns) {
                complete = try self.reuse(
                    reuse, after: flow, pages: total, numbered: &pageNumber, starts: starts, layout: layout, preparing: preparation, body)
                break
            }
            pageNumber += 1
            // Left and right pages go by the folio: an odd folio is a right-hand page.
            let folio = template.startPage + pageNumber - 1
            var columns = self.columns(onPage: folio)
            if pageNumber == 1, let top = firstPageTop {
                columns = columns.map { Rect(x: $0.x, y: top, width: $0.width, height: max(0, $0.maxY - top)) }
            }
            let textArea = Rect(
                x: columns[0].x, y: columns[0].y, width: columns[columns.count - 1].maxX - columns[0].x, height: columns[0].height)
            starts?.record(flow, page: pageNumber)
            flow.startPage(textArea: textArea, columns: columns)
            let start = flow
            var page = Page(number: pageNumber, width: template.pageWidth, height: template.pageHeight, frames: [])
            page.folio = folio
            // A page-wide float met on this page: lay the page out again with it in place, a
            // bounded number of times. The last time, the floats wait for the next page, those
            // placed and any met then, so that composition is the page's.
            for attempt in 0...(Self.pageRelayouts + 1) {
                let relayout: Bool
                (page.frames, relayout) = Self.composePage(columns, textArea: textArea, of: &flow, layout: layout)
                guard relayout else { break }
                var again = start
                // What the page holds now depends on the text this attempt reached.
                again.reachedInAttempts = flow.reach
                // Only the page-wide floats carry over: column floats are placed afresh.
                again.pageFloats = flow.pageFloats
                again.placed.formUnion(flow.pageFloats.map(\.placed.image))
                again.deferredPage = flow.deferredPage
                if attempt >= Self.pageRelayouts {
                    again.deferredPage += again.pageFloats.map(\.placed.image)
                    again.pageFloats = []
                    again.pageFloatsWait = true
                }
                flow = again
            }
            // Every page takes something, or the layout would never end. (A story set under
            // another's end may find too little room on its first page, and begin on the next.)
            let shortened = pageNumber == 1 && firstPageTop != nil
            if !shortened && page.frames.allSatisfy(\.isEmpty) && flow.standsStill(since: start) { flow.stopUnplaced() }
            page.floats = flow.pageFloats.map(\.placed)
            flow.warnAboutPageFloats(textHeight: textArea.height)
            flow.warnAboutFloatWidths(on: page)
            taken = taken.filter { $0.key == flow.paragraph || flow.lookahead[$0.key] != nil }
            if pageNumber > 1 || firstPageTop == nil { (page.footer, page.header) = runningLines(of: page, pages: total) }
            starts?.finish(page, number: pageNumber)
            if try !body(page) {
                complete = false
                break
            }
        } while !flow.finished
        starts?.end(flow.diagnostics, complete: complete)
        diagnostics.append(contentsOf: flow.diagnostics)
        return pageNumber
    }
}

extension Framesetter {
    /// How many times a page is laid out again for the page-wide floats met on it.
    static let pageRelayouts = 8

    /// The baseline of a line on the baseline grid, below its top: that of the story's first
    /// text in the template's body face and size (else its first text set at the grid's pitch).
    /// Each face puts its baseline elsewhere in a line of the same leading (the half-leading and
    /// its ascent above it), so body lines of two faces side by side missed each other's
    /// baselines by a point or more; every line on the grid takes this one. Nil when no text is
    /// set at the pitch.
    static func gridAscent(story: Story, plan: FontPlan, body: TextSpec, pitch: Double) -> Double? {
        var first: Double?
        for p in story.paragraphs {
            guard case .text = p.content else { continue }
            for run in story.runs[p.runs] where !run.range.isEmpty {
                let style = story.styles[run.style]
                let h = p.style.leadingRatio * style.size
                guard abs(h - pitch) < 0.01 else { continue }
                let m = plan.metrics[run.style]
                let ascent = (h + m.ascent - m.descent) / 2
                if style.face == body.face && style.size == body.size { return ascent }
                first = first ?? ascent
            }
        }
        return first
    }

    /// A flow at the story's start that breaks paragraphs again and sizes figures as this
    /// framesetter lays them out.
    fileprivate func newFlow() -> Flow {
        var flow = Flow(story: story, template: template, file: file)
        let setting = self.setting
        let plan = self.plan
        if template.baselineGrid {
            flow.gridAscent = Self.gridAscent(story: story, plan: plan, body: template.body, pitch: template.body.leading)
        }
        flow.rebreak = { [story] l, from, widths, lines in
            setting.rebreak(l, from: from, widths: widths, story: story, plan: plan, unhyphenated: lines)
        }
        flow.figures = Figures(
            story: story, captionGap: template.caption.gap,
            captionHeight: { [engine, template] text, width in
                engine.captionHeight(text, width: width, style: template.caption)
            })
        if !story.blocks.isEmpty { flow.figures?.blocks = TextBlocks(story: story, template: template, file: file) }
        return flow
    }

    /// Whether the columns of folio `a` stand where those of folio `b` do.
    func sameColumns(_ a: Int, _ b: Int) -> Bool { columns(onPage: a) == columns(onPage: b) }

    /// Hands `body` the pages of the layout before from `reuse` on, in this story, numbered on
    /// from `number`, and records their starts. Their paragraphs are taken through `layout`
    /// (the paragraph cache keeps them for the next build) where they are broken as they were,
    /// else moved. Returns false when `body` stopped.
    func reuse(
        _ reuse: PageStarts.Reuse, after flow: Flow, pages total: Int, numbered number: inout Int, starts: PageStarts?,
        layout: (Int) -> ParagraphLayout?, preparing preparation: DrawingPreparation?, _ body: (Page) throws -> Bool
    ) rethrows -> Bool {
        let shift = reuse.shift
        var moved: [ObjectIdentifier: ParagraphLayout] = [:]
        func move(_ old: ParagraphLayout) -> ParagraphLayout {
            if let m = moved[ObjectIdentifier(old)] { return m }
            let i = old.index + shift.paragraphs
            let fresh = layout(i)
            let m = Flow.sameLines(fresh, old) ? fresh! : old.moved(index: i, storyStart: old.storyStart + shift.bytes)
            moved[ObjectIdentifier(old)] = m
            return m
        }
        // A PDF draws them all: they are moved first (which is cheap), so that their draw runs
        // are made on another core while they are drawn.
        let first = number
        var pages: [Page] = []
        for start in reuse.starts {
            number += 1
            var page = start.page!.shifted(shift, moving: move)
            page.number = number
            page.folio = template.startPage + number - 1
            (page.footer, page.header) = runningLines(of: page, pages: total)
            var begun = start.flow.shifted(shift, into: story, moving: move)
            begun.diagnostics = flow.diagnostics
            starts?.record(begun, page: number)
            starts?.finish(page, number: number)
            if drawsAhead {
                pages.append(page)
            } else if try !body(page) {
                return false
            }
        }
        return try !drawsAhead || draw(pages, numberedFrom: first, numbered: &number, preparing: preparation, body)
    }

    /// Whether pages laid out before are drawn with their draw runs made on another thread.
    var drawsAhead: Bool { options.drawsEveryPage && (options.threads ?? ProcessInfo.processInfo.activeProcessorCount) > 1 }

    /// Hands `body` `pages`, numbered on from `first`, with their draw runs made ahead on another
    /// thread (`DrawAhead`, with the renderer's `preparation`) when `drawsAhead`; leaves
    /// `number` at the last page handed over. False when `body` stopped.
    func draw(
        _ pages: [Page], numberedFrom first: Int, numbered number: inout Int, preparing preparation: DrawingPreparation?,
        _ body: (Page) throws -> Bool
    ) rethrows -> Bool {
        let ahead = drawsAhead ? DrawAhead(pages: pages, preparing: preparation.map { (plan, $0) }) : nil
        defer { ahead?.stop() }
        for (k, page) in pages.enumerated() {
            number = first + k + 1
            if try !body(ahead?.take(k) ?? page) { return false }
        }
        return true
    }

    /// The footer and the running head of `page` (none on a page that opens the story);
    /// `folio` writes its number otherwise than in figures (an issue's roman front matter).
    package func runningLines(of page: Page, pages total: Int, folio: String? = nil) -> (footer: RunningLine?, header: RunningLine?) {
        let footer = runningLine(template.footer, on: page, pages: total, head: false, folio: folio)
        let header = Self.opensStory(page, story) ? nil : runningLine(template.header, on: page, pages: total, head: true, folio: folio)
        return (footer, header)
    }

    /// The footer or (`head`) the running head of `page`, its fields filled in; nil when off.
    /// It stands in the middle of the bottom margin (the footer's baseline) or of the top one
    /// (the head's capitals, about 0.7 of its size tall, centred there): centred on the page,
    /// or on the text when the margins are mirrored (the text moves from page to page), or
    /// flush with the outer edge of the text.
    func runningLine(_ spec: RunningLineSpec, on page: Page, pages: Int, head: Bool, folio: String? = nil) -> RunningLine? {
        guard spec.enabled else { return nil }
        let (text, alignment) = spec.text(onPage: page.folio)
        var values = story.fields
        values["page"] = folio ?? String(page.folio)
        // "{page} of {pages}": the last folio, which is the count only from folio 1 ("17 of 2").
        // An issue gives its own folios and its page count.
        values["pages"] = folio == nil && pages > 0 ? String(template.startPage + pages - 1) : String(pages)
        let m = template.margins.onPage(page.folio)
        let width = template.pageWidth
        let x =
            switch alignment {
            case .left: m.left
            case .right: width - m.right
            default: m.mirrored ? (m.left + width - m.right) / 2 : width / 2
            }
        let y = head ? m.top / 2 + spec.size * 0.35 : template.pageHeight - m.bottom / 2
        return RunningLine(text: RunningLineSpec.fill(text, values), anchor: Point(x: x, y: y), alignment: alignment)
    }

    /// A page that opens a story (it begins with elements across the columns, a kicker or a
    /// deck among them, one of which holds an `<h1>`), or holds nothing but a page-wide image:
    /// such a page has no running head, as in a magazine, where the title or the picture stands
    /// at the head of the page instead.
    static func opensStory(_ page: Page, _ story: Story) -> Bool {
        if !page.floats.isEmpty && page.frames.allSatisfy(\.lines.isEmpty) { return true }
        let head = page.frames.drop { $0.isEmpty }.prefix { $0.spansColumns }
        return head.contains { f in f.lines.contains { story.paragraphs[$0.paragraphIndex].style.headingLevel == 1 } }
    }
}

/// A length as dumps and messages print it: to a tenth at most, with no ".0".
package func format(_ v: Double) -> String {
    let r = (v * 10).rounded() / 10
    return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
}
