import GalleySupport

/// Makes the draw runs of pages laid out already (an issue's, all known before the first is
/// drawn) on a thread of its own, a few pages ahead of the thread that draws them, which
/// otherwise makes them as it draws and bounds the build while the other cores are idle. A page
/// the thread has not reached is drawn as it is; the draw runs are the same either way.
package final class PagesAhead: @unchecked Sendable {
    /// How many pages ahead of the drawing the thread may go: the runs of a page hold every
    /// glyph, so they are made only shortly before they are drawn.
    static let window = 3

    private let condition = Condition()
    private let pages: [[Page]]
    private var ready: [[Page]?]
    private var next = 0
    private var consumed = 0
    private var stopped = false
    private var running = true

    /// `pages`: for each page drawn, in order, the laid-out pages drawn on it.
    package init(_ pages: [[Page]]) {
        self.pages = pages
        ready = Array(repeating: nil, count: pages.count)
        if !startThread({ [self] in work() }) { running = false }
    }

    private func work() {
        while true {
            condition.lock()
            while !stopped && next < pages.count && next >= consumed + Self.window { condition.wait() }
            if stopped || next >= pages.count {
                running = false
                condition.broadcast()
                condition.unlock()
                return
            }
            let k = next
            next += 1
            condition.unlock()
            let prepared = pages[k].map { $0.preparingDrawing() }
            condition.lock()
            ready[k] = prepared
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The pages drawn on page `k` with their draw runs made, or nil when the thread has not
    /// got to them yet (`waiting`: until it has); asking for page k lets it go on to the pages
    /// after.
    package func take(_ k: Int, waiting: Bool = false) -> [Page]? {
        condition.lock()
        defer { condition.unlock() }
        if k + 1 > consumed {
            consumed = k + 1
            condition.broadcast()
        }
        guard k < ready.count else { return nil }
        while waiting && running && ready[k] == nil { condition.wait() }
        let r = ready[k]
        ready[k] = nil
        return r
    }

    /// Stops the thread and waits for it.
    package func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }
}

extension Page {
    /// The page with each of its paragraphs' draw runs made (`ParagraphLayout.preparingDrawing`),
    /// once for all the lines of a paragraph. (A paragraph running on to the next page is laid
    /// out there as a layout of its own, broken for that region.)
    func preparingDrawing() -> Page {
        var made: [ObjectIdentifier: ParagraphLayout] = [:]
        func prepared(_ l: ParagraphLayout) -> ParagraphLayout {
            let id = ObjectIdentifier(l)
            let p = made[id] ?? (l.preparedLines > 0 ? l : l.preparingDrawing())
            made[id] = p
            return p
        }
        var page = self
        for f in page.frames.indices {
            for l in page.frames[f].lines.indices { page.frames[f].lines[l].paragraph = prepared(frames[f].lines[l].paragraph) }
            for d in page.frames[f].dropCaps.indices { page.frames[f].dropCaps[d].paragraph = prepared(frames[f].dropCaps[d].paragraph) }
        }
        return page
    }
}
