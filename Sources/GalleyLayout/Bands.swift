import GalleyMarkup
import GalleyStory
import GalleyTemplate

/// What setting an element across the columns did.
struct SpanPlacement {
    /// The frame holding its lines, when any were placed.
    var frame: Frame?
    /// It is all placed, and the page goes on below it at `bottom`; false: the page is full
    /// (the element moves to the next page, or goes on there).
    var done: Bool
    var bottom: Double
}

extension Flow {
    /// The next child is set across the columns.
    var nextSpans: Bool { paragraph < story.paragraphs.count && Self.spans(story.paragraphs[paragraph]) }

    /// A paragraph of text set across the columns (an image or a vertical block in a `<p
    /// span="all">` is set as it would be without it).
    static func spans(_ p: Paragraph) -> Bool {
        guard p.style.spansColumns, !p.style.vertical, case .text = p.content else { return false }
        return true
    }

    /// Sets the paragraph that spans the columns across `area` from `top`. It moves to the next
    /// page whole unless it and what it keeps with it fit, or the page has nothing above it:
    /// then what fits is placed (at least one line, so the flow progresses), and an element
    /// taller than the page goes on across the next one.
    mutating func placeSpanning(in area: Rect, at top: Double, pageEmpty: Bool, _ layout: (Int) -> ParagraphLayout?) -> SpanPlacement {
        let p = story.paragraphs[paragraph]
        guard var l = current ?? take(paragraph, layout) else { return SpanPlacement(frame: nil, done: false, bottom: top) }
        var widths = LineWidths(first: Array(repeating: area.width, count: line), rest: area.width)
        if let dropCap = l.text.dropCap { widths = dropCap.narrowing(widths) }
        if !broken(l, from: line, to: widths), let rebreak { l = rebreak(l, line, widths, l.unhyphenated) }
        current = l
        var y = line == 0 && !pageEmpty ? top + p.style.spacingBefore : top
        // Below any page-wide float it would meet.
        let height = l.lines[line...].reduce(0) { $0 + $1.height }
        let floats = Region(rect: area, exclusions: pageFloats.map(\.exclusion), minimumWidth: 0)
        while !floats.isClear(top: y, bottom: y + height), let below = floats.clearance(below: y, bottom: y + height), below > y {
            y = below
        }
        var tops: [Double] = []
        var yy = y
        for k in line..<l.lines.count {
            let t = self.top(height: l.lines[k].height, at: yy, gridTop: area.y)
            if t + l.lines[k].height > area.maxY + 0.001 { break }
            tops.append(t)
            yy = t + l.lines[k].height
        }
        let whole = tops.count == l.lines.count - line
        // Its drop cap comes along whole: below an element shorter than the initial is tall,
        // the initial's foot is the element's (as `dropCapFits` has it in a column).
        if line == 0, let dropCap = l.text.dropCap, let first = tops.first {
            yy = max(yy, dropCap.foot(top: first, first: l.lines[0]))
        }
        if !pageEmpty && (!whole || yy > area.maxY + 0.001 || !keepsFollowing(l, below: yy + p.style.spacingAfter, in: area, layout)) {
            return SpanPlacement(frame: nil, done: false, bottom: top)
        }
        if !whole && line == 0 {
            diagnostics.append(
                .warning(
                    "an element spanning the columns is taller than the page; it goes on across the next page",
                    file: file, at: story.sourceMap.sourceLocation(ofByte: p.range.lowerBound, in: story.text)))
        }
        var d = Distributor(
            rect: Rect(x: area.x, y: y, width: area.width, height: max(0, area.maxY - y)), column: 0, start: position,
            exclusions: [], minimumWidth: 0, columnHeight: area.height, fresh: true)
        d.y = y
        let count = max(1, tops.count)
        setLines(l, count: count, tops: tops, xs: Array(repeating: area.x, count: tops.count), &d)
        line += count
        d.frame.spansColumns = true
        d.frame.rect.height = d.y - y
        if line < l.lines.count {
            d.frame.visibleRange = d.frame.visibleRange.lowerBound..<position
            return SpanPlacement(frame: d.frame, done: false, bottom: d.y)
        }
        current = nil
        line = 0
        paragraph += 1
        d.frame.visibleRange = d.frame.visibleRange.lowerBound..<position
        return SpanPlacement(frame: d.frame, done: true, bottom: d.y + p.style.spacingAfter)
    }

    /// A spanning heading ending at `y` leaves room for what it keeps with it in a column below.
    mutating func keepsFollowing(_ l: ParagraphLayout, below y: Double, in area: Rect, _ layout: (Int) -> ParagraphLayout?) -> Bool {
        guard story.paragraphs[paragraph].style.isHeading, paragraph + 1 < story.paragraphs.count else { return true }
        let columns = max(1, template.columns)
        let width = (area.width - Double(columns - 1) * template.gutter) / Double(columns)
        let column = Rect(x: area.x, y: y, width: width, height: max(0, area.maxY - y))
        return keptBottom(from: paragraph + 1, at: y, rect: column, depth: 0, layout) <= area.maxY + 0.001
    }

    /// Where this flow stands is where `other` stands: the same child and line, the same floats
    /// and block images waiting and the same placed. Not the same deferrals: a float that `other`
    /// set where it was met may have moved on to the head of the next column, which a balanced
    /// column, shorter than the float and the text above it, demands; it is placed all the same,
    /// in its band, and what follows is laid out as after `other`.
    func reached(_ other: Flow) -> Bool {
        paragraph == other.paragraph && line == other.line && (current == nil) == (other.current == nil)
            && deferred == other.deferred && deferredPage == other.deferredPage && deferredBlocks == other.deferredBlocks
            && placed == other.placed
    }
}

extension Framesetter {
    /// Composes a page's text (the composer): bands of columns filled side by side, each ended by
    /// the page's foot or by an element spanning the columns, which is set across the page
    /// below the band's balanced columns; the next band starts under it. True when a page-wide
    /// float was placed and the page must be laid out again.
    static func composePage(
        _ columns: [Rect], textArea: Rect, of flow: inout Flow, layout: (Int) -> ParagraphLayout?
    ) -> ([Frame], Bool) {
        var frames: [Frame] = []
        var top = textArea.y
        let minimum = min(flow.template.body.leading, textArea.height)
        while true {
            let pageEmpty = frames.allSatisfy(\.isEmpty)
            if flow.nextSpans {
                let placed = flow.placeSpanning(in: textArea, at: top, pageEmpty: pageEmpty, layout)
                if let frame = placed.frame { frames.append(frame) }
                guard placed.done else { break }
                top = placed.bottom
                continue
            }
            if !pageEmpty && top + minimum > textArea.maxY + 0.001 { break }
            let rects = columns.map { Rect(x: $0.x, y: top, width: $0.width, height: textArea.maxY - top) }
            flow.bandTop = top
            let start = flow
            var (band, stop) = fillColumns(rects, of: &flow, fresh: pageEmpty, layout: layout)
            if stop == .relayout { return (frames + band, true) }
            if stop == .span || (flow.template.balance && (stop == .finished || stop == .pageBreak)) {
                if let balanced = balance(from: start, rects, reaching: flow, stop: stop, layout: layout) {
                    (band, flow) = balanced
                }
            }
            if frames.isEmpty || !band.allSatisfy(\.isEmpty) { frames += band }
            guard stop == .span else { break }
            top = max(top, band.map(contentBottom).max() ?? top)
        }
        return (frames, false)
    }

    /// Fills the columns in turn, acting on each region's stop: after a page break, a spanning
    /// element or a page-wide float the remaining columns stay empty, but for the floats still
    /// waiting at a spanning element. Returns the stop that ended the band (the last column's,
    /// when none ended it early).
    static func fillColumns(
        _ columns: [Rect], of flow: inout Flow, fresh: Bool = true, layout: (Int) -> ParagraphLayout?
    ) -> ([Frame], RegionStop) {
        var frames: [Frame] = []
        var stopped: RegionStop?
        var last = RegionStop.finished
        for (c, rect) in columns.enumerated() {
            // Floats waiting when a spanning element ends the band are of its text: the columns
            // left take them (and stop at the element again), rather than a later page.
            if stopped == .span && !flow.deferred.isEmpty {
                let (frame, stop) = flow.fill(rect, column: c, fresh: fresh, layout: layout)
                frames.append(frame)
                if stop == .relayout { return (frames, stop) }
                continue
            }
            if stopped != nil {
                frames.append(Frame(rect: rect, column: c, visibleRange: flow.position..<flow.position))
                continue
            }
            let (frame, stop) = flow.fill(rect, column: c, fresh: fresh, layout: layout)
            frames.append(frame)
            last = stop
            if stop == .pageBreak || stop == .relayout || stop == .span { stopped = stop }
        }
        return (frames, last)
    }

    /// The band's columns balanced: laid out again from `start` at the least height, in whole
    /// lines of the body leading, at which they take all they took at full height and stop the
    /// same way (`Flow.reached`: a float may move on to the next column of the band); with a
    /// float or a block image in the band, a few heights above it when they bring the column
    /// ends closer (`closerAbove`); then, where the last column ends more than a line short, some
    /// of the columns before it one line shorter (`lowered`). Nil when no height does
    /// (the rules of widows, orphans and keeps can demand the full height). Above an element
    /// across the columns, a column those rules leave empty beside text is balanced without them
    /// (`splitsFreely`).
    static func balance(
        from start: Flow, _ rects: [Rect], reaching natural: Flow, stop: RegionStop, layout: (Int) -> ParagraphLayout?
    ) -> ([Frame], Flow)? {
        let kept = balance(from: start, rects, reaching: natural, stop: stop, splitsFreely: false, layout: layout)
        // Two lines carried over a page by the widows rule, alone in the first column above a
        // heading across the columns, left the second empty: a hole across the page under the
        // columns, which end two lines apart. Two lines (three of a paragraph's start) cannot be
        // split by rules asking for two on each side, so there they give way, where that brings
        // the ends within a line; an uneven band whose columns all hold text keeps the rules.
        guard stop == .span, let band = kept?.0, band.contains(where: \.isEmpty), band.contains(where: { !$0.lines.isEmpty }),
            let freer = balance(from: start, rects, reaching: natural, stop: stop, splitsFreely: true, layout: layout),
            spread(freer.0, top: rects[0].y) <= start.template.body.leading + 0.01
        else { return kept }
        return freer
    }

    /// `balance`, with paragraphs split anywhere in its trials when `splitsFreely`.
    static func balance(
        from start: Flow, _ rects: [Rect], reaching natural: Flow, stop: RegionStop, splitsFreely: Bool,
        layout: (Int) -> ParagraphLayout?
    ) -> ([Frame], Flow)? {
        let pitch = start.template.body.leading
        let full = rects[0].height
        guard rects.count > 1, pitch > 0 else { return nil }
        // A vertical block is as tall as the rest of its column: it has no height to balance.
        let paragraphs = start.story.paragraphs
        let reached = min(natural.paragraph + 1, paragraphs.count)
        if start.paragraph < reached && paragraphs[start.paragraph..<reached].contains(where: \.style.vertical) { return nil }
        // The least height whose trial left a pull quote or sidebar alone (`textBlockAlone`).
        var aloneAt = Int.max
        // Images kept before the text that follows them (`imageAfterLaterText`), where a height can.
        var keepsOrder = true
        func attempt(_ lines: [Int]) -> ([Frame], Flow)? {
            var flow = start
            flow.balancing = true
            flow.splitsFreely = splitsFreely
            let shaped = zip(rects, lines).map { Rect(x: $0.x, y: $0.y, width: $0.width, height: min(full, Double($1) * pitch)) }
            let (frames, s) = fillColumns(shaped, of: &flow, fresh: false, layout: layout)
            flow.balancing = false
            flow.splitsFreely = false
            // Not the first column left empty while a later one holds what it gave up (an image
            // that opens the next column, as `reached` lets it): that is no balance. Nor a pull
            // quote or sidebar moved on to a column of no text.
            let firstEmpty = frames[0].isEmpty && frames.dropFirst().contains { !$0.isEmpty }
            let alone = textBlockAlone(frames, story: start.story)
            if alone { aloneAt = min(aloneAt, lines.max() ?? 0) }
            let disordered = keepsOrder && imageAfterLaterText(frames, story: start.story)
            return s == stop && !firstEmpty && !alone && !disordered && flow.reached(natural) ? (frames, flow) : nil
        }
        let tallest = Int((full / pitch + 1e-6).rounded(.down))
        var found = leastHeight(1, tallest, columns: rects.count, attempt: attempt)
        if found == nil {
            keepsOrder = false
            found = leastHeight(1, tallest, columns: rects.count, attempt: attempt)
        }
        // Heights at which the story ends a column before a pull quote or sidebar, left alone
        // in the next, lie above those at which the text runs on beside it: blind to them, the
        // search looks again below the lowest met, taking such a height as too tall.
        if aloneAt < (found?.height ?? Int.max),
            let lower = leastHeight(1, aloneAt - 1, columns: rects.count, attempt: attempt, tooTall: { aloneAt == $0 })
        {
            found = lower
        }
        guard let found else { return nil }
        let top = rects[0].y
        let (result, at) = closerAbove(
            found.balanced, height: found.height, tallest: tallest, columns: rects.count, top: top, pitch: pitch, attempt: attempt)
        return lowered(result, height: at, columns: rects.count, top: top, pitch: pitch, attempt: attempt)
    }

    /// The least of the heights `low...high` (in lines) at which `attempt` takes all, by a binary
    /// search: what fits at a height fits at any taller one, but those `tooTall` says are too
    /// tall.
    static func leastHeight(
        _ low: Int, _ high: Int, columns: Int, attempt: ([Int]) -> ([Frame], Flow)?, tooTall: (Int) -> Bool = { _ in false }
    ) -> (balanced: ([Frame], Flow), height: Int)? {
        var (low, high) = (low, high)
        var best: (balanced: ([Frame], Flow), height: Int)?
        while low <= high {
            let mid = (low + high) / 2
            if let r = attempt(Array(repeating: mid, count: columns)) {
                best = (r, mid)
                high = mid - 1
            } else if tooTall(mid) {
                high = mid - 1
            } else {
                low = mid + 1
            }
        }
        return best
    }

    /// How many heights above the least `closerAbove` tries, at most: balancing runs on every
    /// band, and a band with floats costs only these few trials more.
    static let heightsAbove = 4

    /// The least height of a band holding a float or a block image need not be the one whose
    /// columns end closest: at the least, a float that no longer fits where it was met opens
    /// the next column and the text fills the room it left, while a line or two more can keep
    /// it beside its text, or the text beside it breaks otherwise. Where the ends are more than
    /// a line apart, the next heights up are tried (at most `heightsAbove`, in order, stopping
    /// at ends within a line) and the one whose ends are closest kept, the lower of two as close.
    /// A band of text alone is left as it is: a taller height only leaves its last column
    /// shorter, and `lowered` evens it.
    static func closerAbove(
        _ balanced: ([Frame], Flow), height: Int, tallest: Int, columns: Int, top: Double, pitch: Double,
        attempt: ([Int]) -> ([Frame], Flow)?
    ) -> (([Frame], Flow), Int) {
        var result = balanced
        var at = height
        var best = spread(balanced.0, top: top)
        guard best > pitch + 0.01, balanced.0.contains(where: { !$0.images.isEmpty }) else { return (result, at) }
        for h in stride(from: height + 1, through: min(height + heightsAbove, tallest), by: 1) {
            guard let taller = attempt(Array(repeating: h, count: columns)) else { continue }
            let s = spread(taller.0, top: top)
            if s < best - 0.01 {
                (result, at, best) = (taller, h, s)
                if best <= pitch + 0.01 { break }
            }
        }
        return (result, at)
    }

    /// Where the last column ends more than a line short of the others: the columns before it
    /// one line shorter, each or not, whichever brings the column ends closest together with
    /// the first column still holding something. Every choice is tried (up to 16), not one
    /// column after another: a paragraph cut elsewhere is broken again and may come out a line
    /// shorter, so lowering one column can leave the ends as far apart as before and lowering
    /// two bring them together.
    static func lowered(
        _ balanced: ([Frame], Flow), height: Int, columns: Int, top: Double, pitch: Double,
        attempt: ([Int]) -> ([Frame], Flow)?
    ) -> ([Frame], Flow) {
        var result = balanced
        var best = spread(balanced.0, top: top)
        guard height > 1, best > pitch + 0.01 else { return result }
        let choices = min(columns - 1, 4)
        // Fewer lowered columns first, the rightmost first among as many.
        let masks = (1..<(1 << choices)).sorted { ($0.nonzeroBitCount, $0) < ($1.nonzeroBitCount, $1) }
        for mask in masks {
            var lines = Array(repeating: height, count: columns)
            for k in 0..<choices where mask & (1 << k) != 0 { lines[columns - 2 - k] = height - 1 }
            guard let lower = attempt(lines), !lower.0[0].isEmpty else { continue }
            let s = spread(lower.0, top: top)
            if s < best - 0.01 {
                (result, best) = (lower, s)
                if best <= pitch + 0.01 { break }
            }
        }
        return result
    }

    /// A column of the band holding a pull quote or sidebar but no line. In a trial of `balance`
    /// a float of text met in a column too short for it moves on to the next (`reached` lets
    /// it), and when the story ended in the column it was met in, the least height left it
    /// alone at the head of an empty column; a float of text stands among text.
    static func textBlockAlone(_ frames: [Frame], story: Story) -> Bool {
        frames.contains { f in f.lines.isEmpty && f.images.contains { story.images[$0.image].block != nil } }
    }

    /// A block image in a column after one holding text that follows it in the story. The least
    /// height that takes all moved a block image too tall for the room under its text to the
    /// next column, and the text after it went on in the first: the picture came after the words
    /// that follow it, with room enough above. (A float moving on so is what lets a band with
    /// one balance at all: text wraps around it wherever it stands.)
    static func imageAfterLaterText(_ frames: [Frame], story: Story) -> Bool {
        var latestText = -1
        for frame in frames {
            for image in frame.images where image.storyOffset < latestText && Self.isBlockImage(story.images[image.image]) {
                return true
            }
            latestText = max(latestText, frame.lines.map(\.storyRange.lowerBound).max() ?? -1)
        }
        return false
    }

    /// A picture set as a paragraph of its own (not a pull quote or sidebar, which are blocks too).
    static func isBlockImage(_ image: ImageReference) -> Bool { image.placement == .block && image.block == nil }

    /// How far apart the lowest and highest column ends of a band are.
    static func spread(_ frames: [Frame], top: Double) -> Double {
        let ends = frames.map { contentBottom($0) }
        return (ends.max() ?? top) - (ends.min() ?? top)
    }

    /// The foot of what a frame holds (its top when it holds nothing): its lines, its images
    /// with their captions, and its drop caps down to their foot (an initial hangs below a
    /// paragraph shorter than it is tall, and what follows the band must not meet it).
    static func contentBottom(_ frame: Frame) -> Double {
        let lines = frame.lines.map(\.box.maxY).max() ?? frame.rect.y
        let images = frame.images.map { max($0.rect.maxY, $0.captionRect?.maxY ?? 0) }.max() ?? frame.rect.y
        let dropCaps = frame.dropCaps.map(\.foot).max() ?? frame.rect.y
        return max(lines, images, dropCaps)
    }
}
