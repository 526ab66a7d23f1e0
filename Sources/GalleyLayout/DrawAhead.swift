import GalleySupport

/// Makes the draw runs of pages laid out earlier on another thread (`HelperThread`), a page
/// ahead of the thread that draws them: an issue's articles (laid out before the first page is drawn,
/// or read from the cache) and the pages `galley watch` keeps from its last build. Their
/// paragraphs hold no draw runs (a layout made only to be measured, a cache entry, pages kept
/// without them to save memory), so the drawing thread, the one that bounds a PDF build, would
/// otherwise make every one itself while the other core waits.
///
/// The helper never makes the drawing thread wait: a page it has not prepared yet is drawn as
/// it is, its runs made when drawn, and the helper moves past it. Both ways draw the same
/// bytes (`ParagraphLayout.drawRuns(line:)`). It holds at most `window` prepared pages, and
/// of each only the lines the page holds, so memory stays flat however many pages there are.
package final class DrawAhead: @unchecked Sendable {
    private let pages: [Page]
    private let window: Int
    private let condition = Condition()
    /// Prepared pages not yet taken, by index (nil: not made, or taken).
    private var ready: [Page?]
    /// The first page the drawing thread has not taken yet.
    private var taken = 0
    private var cancelled = false
    private var running = false
    /// The renderer's work on the runs made (a PDF's shadow masks), with an engine for `plan`.
    private let preparation: (plan: FontPlan, work: DrawingPreparation)?

    /// A helper for `pages`, in the order they are drawn; nil when none of them needs it, or
    /// when no thread could be started (the drawing thread then makes every run itself).
    package init?(pages: [Page], window: Int = 1, preparing preparation: (plan: FontPlan, work: DrawingPreparation)? = nil) {
        guard pages.contains(where: { $0.needsDrawRuns }) else { return nil }
        self.pages = pages
        self.window = max(1, window)
        self.preparation = preparation
        ready = Array(repeating: nil, count: pages.count)
        condition.lock()
        defer { condition.unlock() }
        running = HelperThread.shared.submit { [self] in work() }
        guard running else { return nil }
    }

    /// Page `i` (of the pages given, in order) with its draw runs if they are made, else as it
    /// was given. Never waits for the helper.
    package func take(_ i: Int) -> Page {
        condition.lock()
        defer { condition.unlock() }
        if i + 1 > taken {
            taken = i + 1
            condition.broadcast()
        }
        let page = ready[i] ?? pages[i]
        ready[i] = nil
        return page
    }

    /// Whether page `i` is made and waiting to be taken.
    package func isPrepared(_ i: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return ready[i] != nil
    }

    /// Stops the helper and waits until it has finished the page it is on (or, when another
    /// job held the thread, until it has seen that there is nothing left to do).
    package func stop() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    private func work() {
        let engine = preparation.map { EnginePool.borrow(plan: $0.plan) }
        defer { engine.map(EnginePool.giveBack) }
        let prepare = engine.flatMap { e in preparation.map { p in { (l: ParagraphLayout) in p.work(l, e) } } }
        var i = 0
        while true {
            condition.lock()
            while !cancelled && i < pages.count && i >= taken + window { condition.wait() }
            // Pages the drawing thread got to first are drawn already.
            i = max(i, taken)
            if cancelled || i >= pages.count {
                running = false
                condition.broadcast()
                condition.unlock()
                return
            }
            condition.unlock()
            let page = Self.prepared(pages[i], preparing: prepare)
            condition.lock()
            if i >= taken { ready[i] = page }
            condition.unlock()
            i += 1
        }
    }

    /// The page with the draw runs of its lines made: only the lines it holds, so that a
    /// paragraph running over several pages is not held whole for each. `preparation` does the
    /// renderer's work on each paragraph's runs.
    static func prepared(_ page: Page, preparing preparation: ((ParagraphLayout) -> Void)? = nil) -> Page {
        var lines: [ObjectIdentifier: Range<Int>] = [:]
        for frame in page.frames {
            for line in frame.lines where line.paragraph.preparedLines == 0 {
                let k = line.lineIndex
                lines[ObjectIdentifier(line.paragraph), default: k..<k + 1].formUnion(k)
            }
        }
        var made: [ObjectIdentifier: ParagraphLayout] = [:]
        return page.mappingParagraphs { l in
            let key = ObjectIdentifier(l)
            guard let range = lines[key] else { return l }
            if let m = made[key] { return m }
            let m = l.preparingDrawing(lines: range, forDrawing: preparation != nil)
            preparation?(m)
            made[key] = m
            return m
        }
    }
}

extension Range where Bound == Int {
    /// The smallest range holding this one and `k`.
    fileprivate mutating func formUnion(_ k: Int) {
        self = Swift.min(lowerBound, k)..<Swift.max(upperBound, k + 1)
    }
}

extension Page {
    /// Some line of the page belongs to a paragraph with no draw runs made.
    var needsDrawRuns: Bool {
        frames.contains { frame in frame.lines.contains { $0.paragraph.preparedLines == 0 } }
    }

    /// The lines of the page whose paragraphs hold draw runs.
    package var linesWithDrawRuns: Int {
        frames.reduce(0) { n, frame in n + frame.lines.count { $0.paragraph.preparedLines > 0 } }
    }
}
