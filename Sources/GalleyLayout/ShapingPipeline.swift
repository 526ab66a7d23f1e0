import FoundationEssentials
import GalleyStory
import GalleySupport
import GalleyTemplate
import Glibc

/// Shapes and breaks paragraphs ahead of the framesetter on dedicated threads, each with its own
/// `TextEngine` (Pango is not thread-safe; a font map per thread is the measured way to use two
/// cores). Results come back in story order. Workers stay at most `window` paragraphs ahead of
/// the consumer, so memory stays flat however long the story is.
final class ShapingPipeline: @unchecked Sendable {
    private let story: Story
    private let plan: FontPlan
    private let setting: ParagraphSetting
    private let widths: LineWidths
    private let window: Int
    private let condition = Condition()
    /// Finished paragraphs not yet taken (nil: not done, or taken).
    private var slots: [ParagraphLayout?]
    private var done: [Bool]
    /// The next paragraph a worker will take, and the first one the consumer has not taken.
    private var next = 0
    private var consumed = 0
    private var cancelled = false
    private var running = 0

    /// Whether workers also make each paragraph's draw runs (a PDF build draws every page).
    private let prepareDrawing: Bool

    /// The renderer's work on prepared draw runs (see `DrawingPreparation`).
    private let preparation: DrawingPreparation?

    init(
        story: Story, plan: FontPlan, setting: ParagraphSetting, widths: LineWidths, threads: Int, window: Int = 48,
        prepareDrawing: Bool = false, preparation: DrawingPreparation? = nil, from first: Int = 0
    ) {
        self.prepareDrawing = prepareDrawing
        self.preparation = prepareDrawing ? preparation : nil
        self.story = story
        self.plan = plan
        self.setting = setting
        self.widths = widths
        self.window = window
        slots = Array(repeating: nil, count: story.paragraphs.count)
        done = Array(repeating: false, count: story.paragraphs.count)
        // A layout resumed at a page start (`PageStarts`) takes nothing before its paragraph.
        (next, consumed) = (first, first)
        condition.lock()
        defer { condition.unlock() }
        for _ in 0..<threads where startThread(stackSize: 4 << 20, { [self] in work() }) {
            running += 1
        }
        workers = running
    }

    /// The worker threads started (0 when the system refused them all: the caller then lays
    /// paragraphs out itself).
    private(set) var workers = 0

    /// One worker: its own engine, taking paragraphs in order until none are left.
    private func work() {
        let engine = EnginePool.borrow(plan: plan)
        defer { EnginePool.giveBack(engine) }
        while true {
            condition.lock()
            while !cancelled && next < story.paragraphs.count && next >= consumed + window { condition.wait() }
            if cancelled || next >= story.paragraphs.count {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let i = next
            next += 1
            // Draw runs are made here only while the consumer is well behind: then drawing
            // bounds the build and this thread has time to spare; otherwise the consumer
            // waits for shaping, and makes them itself when it draws.
            let ahead = i - consumed
            condition.unlock()
            var result = setting.layOut(story: story, paragraph: i, engine: engine, widths: widths)
            if prepareDrawing && ahead >= window / 3, let prepared = result?.preparingDrawing() {
                preparation?(prepared, engine)
                result = prepared
            }
            condition.lock()
            publish(result, at: i)
            condition.unlock()
            // The glyph outlines Cairo will load when it draws the paragraph, made after it
            // is handed over, so that the consumer never waits for them (if it gets to a
            // glyph first, it loads it itself).
            if prepareDrawing, let result { engine.prepareOutlines(of: result.text) }
        }
    }

    /// The layout of paragraph `i`, waiting for a worker when needed. Taking paragraph i lets
    /// the workers run up to i + window. While paragraph i is still being shaped, the caller
    /// shapes the next paragraph no worker has taken yet with `engine` (its own), rather than
    /// wait: at the start of a build the first page waits for its paragraphs, and the calling
    /// thread has nothing else to do. Nil for a paragraph that is not text, and for one taken
    /// before: each is handed over once, so the pipeline keeps no layout the consumer has.
    func take(_ i: Int, helping engine: TextEngine? = nil) -> ParagraphLayout? {
        condition.lock()
        defer { condition.unlock() }
        if i + 1 > consumed {
            consumed = i + 1
            condition.broadcast()
        }
        while !done[i] {
            if let engine, !cancelled, next < story.paragraphs.count, next < consumed + window {
                let j = next
                next += 1
                condition.unlock()
                let result = setting.layOut(story: story, paragraph: j, engine: engine, widths: widths)
                condition.lock()
                publish(result, at: j)
            } else {
                condition.wait()
            }
        }
        let r = slots[i]
        slots[i] = nil
        return r
    }

    /// Hands paragraph `i` over to the consumer (the lock held).
    private func publish(_ result: ParagraphLayout?, at i: Int) {
        slots[i] = result
        done[i] = true
        condition.broadcast()
    }

    /// Stops the workers and waits until they have finished their current paragraph.
    func stop() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}

/// How paragraphs are shaped and broken: the breaker and the hyphenation rules. Shared read-only
/// by every shaping thread.
struct ParagraphSetting: Sendable {
    var breaker: any LineBreaker
    var hyphenation: HyphenationRules
    /// The template language's patterns (nil when hyphenation is off or it has none).
    var hyphenator: Hyphenator?
    /// The template's language: a paragraph in another (`<p lang>`) is hyphenated by its own.
    var language = ""
    /// Images anchored in running text.
    var attachments: AttachmentIndex
    /// The height of a whole column: no inline image is set taller than its line fits.
    var columnHeight = Double.infinity
    /// A quarter em between ideographs and Latin letters or digits that touch.
    var cjkAutoSpacing = false
    /// CJK punctuation compression and hanging.
    var cjk = CJKSpec()
    /// Paragraphs laid out by the builds before (`galley watch`).
    var cache: ParagraphCache?

    /// Shapes and breaks one paragraph with an engine of the calling thread (nil for block
    /// objects, which are not shaped), or takes it from the cache.
    func layOut(story: Story, paragraph i: Int, engine: TextEngine, widths: LineWidths) -> ParagraphLayout? {
        let p = story.paragraphs[i]
        guard case .text = p.content else { return nil }
        let attachments = self.attachments.attachments(
            of: p, story: story, plan: engine.plan, width: widths.rest, columnHeight: columnHeight)
        guard let cache else { return shape(i, of: story, attachments: attachments, engine: engine, widths: widths) }
        let key = ParagraphCache.key(p, story: story, attachments: attachments, widths: widths)
        if let kept = cache.layout(for: key, index: i, storyStart: p.range.lowerBound) { return kept }
        let made = shape(i, of: story, attachments: attachments, engine: engine, widths: widths)
        cache.keep(made, for: key)
        return made
    }

    /// The patterns paragraph `p` is hyphenated with: its own language's (the language of its
    /// first run, which `<p lang>` sets), or the template's; nil when it takes no hyphens.
    func hyphenator(for p: Paragraph, in story: Story) -> Hyphenator? {
        guard p.style.hyphenate, hyphenation.enabled else { return nil }
        guard let run = story.runs[p.runs].first else { return hyphenator }
        let own = story.styles[Int(run.style)].language
        return own.lowercased() == language.lowercased() ? hyphenator : Hyphenator.forLanguage(own)
    }

    private func shape(_ i: Int, of story: Story, attachments: [Attachment], engine: TextEngine, widths: LineWidths) -> ParagraphLayout {
        let p = story.paragraphs[i]
        let hyphenator = hyphenator(for: p, in: story)
        var shaped = engine.shape(
            story, paragraph: i, hyphens: hyphenator != nil, attachments: attachments, autoSpacing: cjkAutoSpacing,
            cjk: cjk)
        if let asked = p.style.dropCap, !p.style.vertical {
            shaped.dropCap = engine.dropCap(asked, for: shaped, style: p.style, cjk: cjk)
        }
        // Beside a drop cap the first lines are narrower, and the first starts after the initial.
        let widths = shaped.dropCap?.narrowing(widths) ?? widths
        let emptyStyle = story.runs[p.runs].first?.style ?? 0
        var request = BreakRequest(
            text: shaped, style: p.style, plan: engine.plan, emptyStyle: emptyStyle, widths: widths,
            hyphenation: hyphenation.forMeasure(widths.rest), hyphenator: hyphenator)
        request.start = shaped.dropCap?.end ?? 0
        return ParagraphLayout(text: shaped, lines: breaker.lines(for: request), glue: request.glue, widths: widths)
    }

    /// The last line of the window that re-breaking `l` from line `from` may stop at, its old
    /// lines after it kept: eight lines past `from` and the lines barred from a hyphen, at a line
    /// that ends without one, before the last; nil when the lines after it could not stay (the
    /// widths differ from `l`'s there, or vary by line) or the paragraph is too short to gain.
    static func window(_ l: ParagraphLayout, from: Int, widths: LineWidths, unhyphenated: Set<Int>) -> Int? {
        guard widths == l.widths, from >= widths.first.count else { return nil }
        var e = max(from, unhyphenated.max() ?? from) + 8
        while e < l.lines.count - 1 && l.lines[e].hyphen { e += 1 }
        return e < l.lines.count - 1 ? e : nil
    }

    /// Breaks a shaped paragraph again from line `from` on (earlier lines are already placed
    /// and stay), to new widths (a region with floats) and so that the lines in `unhyphenated`
    /// do not end with a hyphen. No Pango: the shaped text has all it needs.
    func rebreak(
        _ l: ParagraphLayout, from: Int, widths: LineWidths, story: Story, plan: FontPlan, unhyphenated: Set<Int>
    ) -> ParagraphLayout {
        let p = story.paragraphs[l.index]
        var request = BreakRequest(
            text: l.text, style: p.style, plan: plan, emptyStyle: story.runs[p.runs].first?.style ?? 0, widths: widths,
            glue: l.glue, hyphenation: hyphenation.forMeasure(widths.rest), hyphenator: hyphenator(for: p, in: story))
        request.unhyphenatedLines = unhyphenated
        request.firstLine = from
        request.start = from < l.lines.count ? Int(l.lines[from].start) : l.text.dropCap?.end ?? 0
        var tail: [LineBreak]
        if let window = Self.window(l, from: from, widths: widths, unhyphenated: unhyphenated), breaker is TotalFitBreaker {
            // Broken again up to a line of the old layout a few lines on, the old lines after it
            // kept: a long paragraph that loses a hyphen at each column's foot costs each column
            // its window, not the rest of the paragraph (that was quadratic in its length).
            request.end = Int(l.lines[window].end)
            tail = breaker.lines(for: request)
            // A window too tight for its text (a word broken between letters) is broken again whole.
            if tail.last.map({ Int($0.end) }) == request.end && !tail.contains(where: \.brokenInWord) {
                tail += l.lines[(window + 1)...]
            } else {
                request.end = nil
                tail = breaker.lines(for: request)
            }
        } else {
            tail = breaker.lines(for: request)
        }
        // Lines already placed keep the widths they were broken to.
        let kept = LineWidths(
            first: (0..<from).map { l.widths[$0] } + (from..<max(from, widths.first.count)).map { widths[$0] }, rest: widths.rest)
        return ParagraphLayout(
            text: l.text, lines: Array(l.lines.prefix(from)) + tail, glue: l.glue, widths: kept, unhyphenated: unhyphenated,
            prepared: Array(l.prepared.prefix(max(0, from - l.preparedStart))), preparedStart: l.preparedStart)
    }
}
