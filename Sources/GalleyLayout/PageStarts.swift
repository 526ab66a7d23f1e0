import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate

/// The pages of the last layout of a story and the flow at each one's start, kept between the
/// builds of `galley watch` (with `ParagraphCache`): a build after an edit takes the pages
/// before the edit as they were and lays out again from the first page whose start depends on
/// what the edit changed. What a page start depends on is the story before it and the
/// paragraphs its flow holds laid out (`Flow.reach`); the template, the styles and the fonts
/// are the paragraph cache's to check, and a change of them forgets these too.
final class PageStarts: @unchecked Sendable {
    struct Start {
        /// The flow before the page was begun (`Flow.startPage`), without its warnings: each
        /// start holding its own list would copy it page after page.
        var flow: Flow
        /// How many of the layout's warnings the flow had said by then.
        var warnings: Int
        /// The page laid out from it; nil while it is being laid out.
        var page: Page?
    }

    /// Where a layout may begin: the pages before it, the flow before each page and the one
    /// to begin from (`flows.count == pages.count + 1`).
    struct Resumption {
        var pages: [Page]
        var flows: [Flow]
    }

    private let lock = Lock()
    private var story: Story?
    /// The template the pages were laid out with (an issue lays an article out at more than
    /// one folio, and mirrored margins move its columns).
    private var template: Template?
    private var starts: [Start] = []
    /// The warnings of the last layout's flow, in order (each start's are the first of them).
    private var warnings: [Diagnostic] = []
    /// How many pages the last layout took from the one before: before the edit, and after it.
    private(set) var kept = 0
    private(set) var reused = 0
    /// The last layout ran to the story's end (a preview stops at its page).
    private var complete = false
    /// The layout before the one under way, while it is under way: its pages after an edit
    /// may be taken again (`reusable`).
    private var previous: Previous?

    struct Previous {
        /// Its starts from the edit on, each flow set in the story under way (which only its
        /// paragraph indices and layouts are compared in), so that the old story is let go.
        var starts: [Start]
        /// How many warnings it said in all.
        var warnings: Int
        /// From it to the story under way.
        var shift: StoryShift
    }

    /// Pages of the layout before, from a start the new layout's flow continues (see
    /// `Flow.continues`), to its end.
    struct Reuse {
        var shift: StoryShift
        var starts: ArraySlice<Start>
    }

    /// Forgets everything (the template, the styles or the fonts changed).
    func clear() {
        lock.lock()
        (story, template, starts, warnings, previous) = (nil, nil, [], [], nil)
        lock.unlock()
    }

    /// Where a layout of `story` may begin: the last page start of the layout before that
    /// depends on nothing at or after the first byte the two stories differ in. Nil when that
    /// is page 1, or the stories' images or text blocks differ.
    func resumption(for story: Story, template: Template) -> Resumption? {
        lock.lock()
        defer { lock.unlock() }
        guard let before = self.story, self.template == template, let changed = Self.firstDifference(before, story) else {
            return nil
        }
        var k = 0
        while k + 1 < starts.count && starts[k].page != nil && starts[k + 1].flow.reach < changed { k += 1 }
        guard k > 0 else { return nil }
        let flows = starts[...k].map { start in
            var flow = start.flow
            flow.diagnostics.append(contentsOf: Array(warnings.prefix(start.warnings)))
            return flow
        }
        return Resumption(pages: starts[..<k].compactMap(\.page), flows: flows)
    }

    /// A layout of `story` begins, keeping the first `kept` pages of the one before.
    func begin(_ story: Story, template: Template, keeping kept: Int) {
        lock.lock()
        previous = nil
        // What is kept lets go of the draw runs made ahead for its pages (every glyph of half a
        // book), which drawing them again would not use: the next build makes them beside its
        // drawing (`DrawAhead`). The pages before the edit are handed to this build as they
        // were (`resumption`); those from the edit on are held while it is drawn, as they may
        // be taken again.
        var made: [ObjectIdentifier: ParagraphLayout] = [:]
        let before = starts[..<min(kept, starts.count)].map { $0.withoutDrawRuns(&made, story: story) }
        if let old = self.story, complete, self.template == template, kept < starts.count,
            let shift = StoryShift.between(old, story)
        {
            let tail = starts[kept...].map { $0.withoutDrawRuns(&made, story: story) }
            previous = Previous(starts: tail, warnings: warnings.count, shift: shift)
        }
        self.story = story
        self.template = template
        self.kept = kept
        reused = 0
        starts = before
        lock.unlock()
    }

    /// The pages of the layout before that follow from where `flow` stands before page
    /// `number`, when it stands where one of them began, in the same state; `sameColumns`
    /// tells whether the columns of an old folio are those of the new one (the only thing a
    /// page's number changes in its layout). Only from a layout that ran to its end and said no
    /// warning from there on.
    func reusable(_ flow: Flow, page number: Int, sameColumns: (_ old: Int, _ new: Int) -> Bool) -> Reuse? {
        lock.lock()
        defer { lock.unlock() }
        guard let before = previous else { return nil }
        let shift = before.shift
        let old = flow.paragraph - shift.paragraphs
        guard shift.holds(old),
            let j = before.starts.firstIndex(where: {
                $0.flow.paragraph == old && $0.flow.line == flow.line && flow.continues($0.flow, shift)
            }),
            let page = before.starts[j].page, page.number > 1, sameColumns(page.folio, page.folio + number - page.number),
            before.starts[j].warnings == before.warnings, before.starts[j...].allSatisfy({ $0.page != nil })
        else { return nil }
        reused = before.starts.count - j
        return Reuse(shift: shift, starts: before.starts[j...])
    }

    /// Page `number` (from 1) begins from `flow`.
    func record(_ flow: Flow, page number: Int) {
        var kept = flow
        kept.diagnostics = Diagnostics()
        lock.lock()
        if number == starts.count + 1 { starts.append(Start(flow: kept, warnings: flow.diagnostics.all.count)) }
        lock.unlock()
    }

    /// The layout ended with its flow having said `flowWarnings`; `complete` when it ran to the
    /// story's end.
    func end(_ flowWarnings: Diagnostics, complete: Bool) {
        lock.lock()
        warnings = flowWarnings.all
        self.complete = complete
        previous = nil
        lock.unlock()
    }

    /// The first `count` pages of the last layout (fewer when it made fewer).
    func pages(upTo count: Int) -> [Page] {
        lock.lock()
        defer { lock.unlock() }
        return starts.prefix(max(0, count)).compactMap(\.page)
    }

    /// Lines of the pages held whose paragraphs hold draw runs.
    var linesWithDrawRuns: Int {
        lock.lock()
        defer { lock.unlock() }
        return starts.reduce(0) { $0 + ($1.page?.linesWithDrawRuns ?? 0) }
    }

    /// Page `number` is laid out. It is kept without the draw runs made ahead for it: they are
    /// let go once it is drawn, as it would hold them until the next build.
    func finish(_ page: Page, number: Int) {
        var made: [ObjectIdentifier: ParagraphLayout] = [:]
        let kept = page.withoutDrawRuns(&made)
        lock.lock()
        if number <= starts.count { starts[number - 1].page = kept }
        lock.unlock()
    }

    /// The first story byte at which `b` may lay out differently from `a`: where their text,
    /// their runs or their paragraphs first differ. Nil when their images or text blocks differ
    /// (those are numbered across the story) or either has text blocks.
    static func firstDifference(_ a: Story, _ b: Story) -> Int? {
        guard a.images.laidOutAlike(b.images), a.blocks.isEmpty, b.blocks.isEmpty else { return nil }
        let text = a.text.utf8.withContiguousStorageIfAvailable { x in
            b.text.utf8.withContiguousStorageIfAvailable { y in x.indices.first { $0 >= y.count || x[$0] != y[$0] } ?? x.count }
        }
        guard case let d?? = text else { return nil }
        /// Where two lists of story pieces first differ (`Int.max` when they do not).
        func first<T: Equatable>(_ x: [T], _ y: [T], at start: (T) -> Int) -> Int {
            for i in 0..<min(x.count, y.count) where x[i] != y[i] { return min(start(x[i]), start(y[i])) }
            guard x.count != y.count else { return Int.max }
            return start(x.count > y.count ? x[y.count] : y[x.count])
        }
        return min(d, first(a.runs, b.runs) { $0.range.lowerBound }, first(a.paragraphs, b.paragraphs) { $0.range.lowerBound })
    }
}
