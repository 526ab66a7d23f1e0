import Foundation
import GalleyMarkup
import GalleyStory

/// How the framesetter runs.
public struct LayoutOptions: Sendable {
    /// Shaping threads; nil picks one per core (at most 4). Small stories are shaped inline.
    public var threads: Int?
    public init(threads: Int? = nil) { self.threads = threads }
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
    /// The engine of the thread that made the framesetter: resolves faces and draws.
    package let engine: TextEngine
    package let plan: FontPlan
    let options: LayoutOptions
    let breaker: any LineBreaker
    let hyphenation: HyphenationRules
    let hyphenator: Hyphenator?

    public init(story: Story, template: Template, file: String, options: LayoutOptions = LayoutOptions()) {
        self.story = story
        self.template = template
        self.file = file
        self.options = options
        switch template.lineBreaking {
        case .totalFit: self.breaker = TotalFitBreaker()
        case .greedy: self.breaker = GreedyBreaker()
        }
        let h = template.hyphenation
        self.hyphenation = HyphenationRules(
            enabled: h.enabled, minWord: h.minWord, leftMin: h.leftMin, rightMin: h.rightMin, capitals: h.capitals,
            maxConsecutive: h.maxConsecutive)
        self.hyphenator = h.enabled ? Hyphenator.forLanguage(template.language) : nil
        let (plan, warnings) = FontPlan.resolve(
            story: story, fallbackFaces: template.fallbackFaces, language: template.language, file: file)
        self.plan = plan
        self.engine = TextEngine(plan: plan)
        diagnostics.append(contentsOf: warnings)
    }

    /// How paragraphs are shaped and broken, shared by every shaping thread.
    var setting: ParagraphSetting {
        ParagraphSetting(breaker: breaker, hyphenation: hyphenation, hyphenator: hyphenator)
    }

    /// The column rectangles of every page, left to right.
    public var columns: [Rect] {
        let t = template
        let usable = t.pageWidth - t.margins.left - t.margins.right
        let n = max(1, t.columns)
        let width = (usable - Double(n - 1) * t.gutter) / Double(n)
        let height = t.pageHeight - t.margins.top - t.margins.bottom
        return (0..<n).map { Rect(x: t.margins.left + Double($0) * (width + t.gutter), y: t.margins.top, width: width, height: height) }
    }

    /// Lays the story out, handing each finished page to `body` in order. `body` returns false
    /// to stop early (a preview needs only the pages up to the one it shows). Returns the number
    /// of pages made.
    @discardableResult
    public func layOut(_ body: (Page) throws -> Bool) rethrows -> Int {
        // A footer showing the page count needs it before page 1 is drawn: count first.
        let total = template.footer.enabled && template.footer.text.contains("{pages}") ? run(pages: 0) { _ in true } : 0
        return try run(pages: total, body)
    }

    private func run(pages total: Int, _ body: (Page) throws -> Bool) rethrows -> Int {
        let columns = self.columns
        let columnWidth = columns[0].width
        let widths = LineWidths(rest: columnWidth)
        let count = story.paragraphs.count
        let threads = options.threads ?? min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let parallel = threads > 1 && count >= 24 && story.text.utf8.count >= 16_384
        let pipeline = parallel
            ? ShapingPipeline(story: story, plan: plan, setting: setting, widths: widths, threads: threads) : nil
        defer { pipeline?.stop() }
        func layout(_ i: Int) -> ParagraphLayout? {
            if let pipeline { return pipeline.take(i) }
            return setting.layOut(story: story, paragraph: i, engine: engine, widths: widths)
        }

        var flow = Flow(story: story, template: template, file: file)
        let setting = self.setting
        let plan = self.plan
        flow.rebreak = { [story] l, from, lines in setting.rebreak(l, from: from, story: story, plan: plan, unhyphenated: lines) }
        var pageNumber = 0
        repeat {
            pageNumber += 1
            var page = Page(number: pageNumber, width: template.pageWidth, height: template.pageHeight, frames: [], footer: nil)
            for (c, rect) in columns.enumerated() {
                page.frames.append(flow.fill(rect, column: c, layout: layout))
            }
            if template.footer.enabled {
                let text = template.footer.text(page: pageNumber, pages: total)
                page.footer = (text, Point(x: template.pageWidth / 2, y: template.pageHeight - template.margins.bottom / 2))
            }
            if try !body(page) { break }
        } while !flow.finished
        diagnostics.append(contentsOf: flow.diagnostics)
        return pageNumber
    }
}

/// The state of the flow between regions (Typst's `Work`): the next paragraph, and the next line
/// of a paragraph split across regions.
struct Flow {
    let story: Story
    let template: Template
    let file: String
    var paragraph = 0
    var line = 0
    /// The paragraph being split across regions, kept so it is not shaped again.
    var current: ParagraphLayout?
    var diagnostics = Diagnostics()

    init(story: Story, template: Template, file: String) {
        self.story = story
        self.template = template
        self.file = file
    }

    var finished: Bool { paragraph >= story.paragraphs.count }

    /// Story byte where the flow stands.
    var position: Int {
        guard !finished else { return story.text.utf8.count }
        if let current, line > 0 { return current.storyStart + Int(current.lines[line].start) }
        return story.paragraphs[paragraph].range.lowerBound
    }

    /// Breaks a paragraph again with some lines barred from ending in a hyphen.
    var rebreak: ((ParagraphLayout, Int, Set<Int>) -> ParagraphLayout)?
    /// Paragraphs already warned about for breaking inside a word (one warning each).
    var warnedInWord: Set<Int> = []
    /// Paragraph layouts taken early (a heading looks at what follows it).
    var lookahead: [Int: ParagraphLayout] = [:]

    /// The layout of paragraph `i`, from the look-ahead or the shaper.
    mutating func take(_ i: Int, _ layout: (Int) -> ParagraphLayout?) -> ParagraphLayout? {
        if let l = lookahead.removeValue(forKey: i) { return l }
        return layout(i)
    }

    /// The layout of paragraph `i` without consuming it.
    mutating func peek(_ i: Int, _ layout: (Int) -> ParagraphLayout?) -> ParagraphLayout? {
        if i == paragraph, let current { return current }
        if let l = lookahead[i] { return l }
        let l = layout(i)
        lookahead[i] = l
        return l
    }

    /// Where a line whose box would start at `y` starts: body lines snap down to the baseline
    /// grid of the region (so both columns share baselines); other lines stay where they are.
    func top(of line: LineBreak, at y: Double, gridTop: Double) -> Double {
        let pitch = template.body.leading
        guard template.baselineGrid, abs(line.height - pitch) < 0.01 else { return y }
        let k = ((y - gridTop) / pitch - 1e-6).rounded(.up)
        return gridTop + max(0, k) * pitch
    }

    /// Height from `y` down to the end of paragraph `i`'s first `count` lines.
    func linesBottom(_ l: ParagraphLayout, from first: Int, count: Int, at y: Double, gridTop: Double) -> Double {
        var y = y
        for k in first..<min(l.lines.count, first + count) {
            y = top(of: l.lines[k], at: y, gridTop: gridTop) + l.lines[k].height
        }
        return y
    }

    /// Where a heading starting at `y` and what it must keep with end: the heading's lines, then
    /// the first lines of the next paragraph (at least `keepWithNext`, and the orphans rule), or
    /// the next image; a chain of headings is kept together.
    mutating func keptBottom(from i: Int, at y: Double, rect: Rect, depth: Int, _ layout: (Int) -> ParagraphLayout?) -> Double {
        guard i < story.paragraphs.count else { return y }
        let p = story.paragraphs[i]
        switch p.content {
        case .image(let n):
            let w = rect.width
            return y + min(rect.height, w / story.images[n].aspectRatio)
        case .text:
            guard let l = peek(i, layout) else { return y }
            if p.style.isHeading && depth < 4 {
                let end = linesBottom(l, from: 0, count: l.lines.count, at: y, gridTop: rect.y) + p.style.spacingAfter
                return keptBottom(from: i + 1, at: end, rect: rect, depth: depth + 1, layout)
            }
            // The lines that must come along: all of a paragraph too short to split under the
            // widows and orphans rules, else the first `keepWithNext` (at least the orphans).
            let n = l.lines.count
            let keep = n < template.orphans + template.widows ? n : max(template.keepWithNext, template.orphans)
            return linesBottom(l, from: 0, count: keep, at: y, gridTop: rect.y)
        }
    }

    /// Fills one region. Every pass of the loop places lines or an image, or ends the region
    /// because something is already in it: an empty region always takes the next item (forced,
    /// with a warning, when it does not fit), so the flow always progresses.
    /// A page break was met: the remaining columns of this page stay empty.
    var skipRestOfPage = false

    mutating func fill(_ rect: Rect, column: Int, layout: (Int) -> ParagraphLayout?) -> Frame {
        var frame = Frame(rect: rect, column: column, visibleRange: position..<position)
        if column == 0 { skipRestOfPage = false }
        if skipRestOfPage { return frame }
        var y = rect.y
        let bottom = rect.maxY + 0.001
        fill: while !finished {
            let p = story.paragraphs[paragraph]
            if line == 0 && current == nil {
                // `<columnbreak>` / `<pagebreak>` before the paragraph, unless already at the top.
                switch p.style.breakBefore {
                case .column where !frame.isEmpty:
                    break fill
                case .page where !frame.isEmpty || column > 0:
                    skipRestOfPage = true
                    break fill
                default: break
                }
                if !frame.isEmpty { y += p.style.spacingBefore }
            }
            switch p.content {
            case .image(let i):
                let image = story.images[i]
                var w = rect.width
                var h = w / image.aspectRatio
                let shrunk = h > rect.height
                if shrunk {
                    h = rect.height
                    w = h * image.aspectRatio
                }
                if y + h > bottom && !frame.isEmpty { break fill }
                if shrunk {
                    diagnostics.append(.warning(
                        "image '\(image.source)' is taller than the column; shrunk to \(format(w))×\(format(h)) pt",
                        file: file, at: image.location, length: 4))
                }
                frame.images.append(
                    PlacedImage(image: i, rect: Rect(x: rect.x + (rect.width - w) / 2, y: y, width: w, height: h),
                        storyOffset: p.range.lowerBound, shrunk: shrunk))
                y += h + p.style.spacingAfter
                paragraph += 1
            case .text:
                let l: ParagraphLayout
                if let c = current {
                    l = c
                } else {
                    guard let made = take(paragraph, layout) else { break }
                    l = made
                    current = made
                    line = 0
                }
                // A heading moves on rather than end a column without what follows it.
                if line == 0 && p.style.isHeading && !frame.isEmpty
                    && keptBottom(from: paragraph, at: y, rect: rect, depth: 0, layout) > bottom
                {
                    break fill
                }
                // The lines that fit, each on the grid when it is a body line.
                var tops: [Double] = []
                var yy = y
                for k in line..<l.lines.count {
                    let t = top(of: l.lines[k], at: yy, gridTop: rect.y)
                    if t + l.lines[k].height > bottom { break }
                    tops.append(t)
                    yy = t + l.lines[k].height
                }
                let remaining = l.lines.count - line
                var count = tops.count
                if count < remaining {
                    // Split: keep `widows` lines for the next column and `orphans` here (or move
                    // the whole paragraph on), but never leave a region empty.
                    if remaining - count < template.widows { count = remaining - template.widows }
                    if line == 0 && count < template.orphans { count = 0 }
                    if count <= 0 && frame.isEmpty { count = max(1, tops.count) }
                    count = max(0, count)
                    // No word hyphenated across the column break: break the paragraph again with
                    // that line barred from a hyphen (once per line), then fit it afresh.
                    let last = line + count - 1
                    if count > 0 && !template.hyphenation.acrossColumns && l.lines[last].hyphen,
                        let rebreak, !l.unhyphenated.contains(last)
                    {
                        var barred = l.unhyphenated
                        barred.insert(last)
                        current = rebreak(l, line, barred)
                        continue fill
                    }
                }
                for k in 0..<count {
                    let index = line + k
                    let b = l.lines[index]
                    let t = k < tops.count ? tops[k] : y
                    if k >= tops.count {
                        diagnostics.append(.warning(
                            "a line \(format(b.height)) pt tall does not fit a column \(format(rect.height)) pt tall; placed anyway",
                            file: file, at: story.sourceMap.sourceLocation(ofByte: l.storyStart + Int(b.start), in: story.text)))
                    }
                    if b.overfull {
                        let start = l.storyStart + Int(b.start)
                        let snippet = story.text.utf8Slice(start, l.storyStart + Int(b.contentEnd))
                        diagnostics.append(.warning(
                            "line is \(format(b.setWidth - b.availableWidth)) pt wider than its column: '\(snippet.prefix(40))' cannot be broken to fit",
                            file: file, at: story.sourceMap.sourceLocation(ofByte: start, in: story.text)))
                    }
                    if b.brokenInWord && !warnedInWord.contains(paragraph) {
                        warnedInWord.insert(paragraph)
                        let start = l.storyStart + Int(b.start)
                        let snippet = story.text.utf8Slice(start, l.storyStart + Int(b.contentEnd))
                        diagnostics.append(.warning(
                            "a word is wider than the \(format(b.availableWidth)) pt column; broken between letters after '\(snippet.suffix(20))'",
                            file: file, at: story.sourceMap.sourceLocation(ofByte: start, in: story.text)))
                    }
                    // The indent is on the leading edge: the left one, or the right in RTL text.
                    let x = rect.x + (l.text.rightToLeft ? 0 : b.indent)
                    frame.lines.append(
                        PlacedLine(
                            origin: Point(x: x, y: t + b.ascent),
                            box: Rect(x: x, y: t, width: b.availableWidth, height: b.height),
                            storyRange: (l.storyStart + Int(b.start))..<(l.storyStart + Int(b.end)),
                            contentWidth: b.setWidth, overfull: b.overfull, paragraphIndex: paragraph, lineIndex: index,
                            paragraph: l))
                    y = t + b.height
                }
                line += count
                if line < l.lines.count { break fill }
                y += p.style.spacingAfter
                current = nil
                line = 0
                paragraph += 1
            }
        }
        frame.visibleRange = frame.visibleRange.lowerBound..<position
        if finished { frame.visibleRange = frame.visibleRange.lowerBound..<story.text.utf8.count }
        return frame
    }
}

func format(_ v: Double) -> String {
    let r = (v * 10).rounded() / 10
    return r == r.rounded() ? String(Int(r)) : String(r)
}
