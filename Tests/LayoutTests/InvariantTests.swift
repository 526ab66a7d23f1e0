import Foundation
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

// MARK: - Invariant checks

/// Everything wrong with a layout, as messages (empty when it holds every invariant):
///
/// * frames come in page and column order, band by band: each band's frames are the columns
///   left to right, within their column's rectangle, and a frame spanning the columns spans the
///   text area; a band or a spanning frame starts below everything placed before it, drop caps
///   down to their foot;
/// * visible ranges partition the story: the first frame starts at 0, each frame starts where
///   the previous one ended, the last ends at the end of the text;
/// * inside the frames, lines and images hold the text in order, nothing lost or doubled: the
///   only bytes between consecutive items are paragraph terminators;
/// * every line box lies within its column horizontally, its content fits the box unless the
///   line is overfull, and it does not pass the column bottom unless it alone is taller than the column;
/// * lines and images in a frame go down the column without overlapping;
/// * no line but those of its own paragraph beside it meets a drop cap down to its foot (which
///   hangs below a paragraph shorter than the initial is tall), in its column, in a later band
///   or across the columns.
func violations(_ fs: Framesetter, _ pages: [Page]) -> [String] {
    var out: [String] = []
    let story = fs.story
    let text = Array(story.text.utf8)
    var next = 0
    var covered = 0
    // Every image is placed once; those placed after the text that follows them may be skipped
    // over where they stand in the text.
    var placements: [Int: Int] = [:]
    for page in pages {
        for i in page.floats + page.frames.flatMap(\.images) { placements[i.storyOffset, default: 0] += 1 }
    }
    for (offset, n) in placements where n > 1 { out.append("image @\(offset) placed \(n) times") }
    let deferredOK = Set(placements.keys)
    func onlyTerminators(_ a: Int, _ b: Int) -> Bool {
        var k = a
        while k < b {
            if text[k] == 0x0A {
                k += 1
            } else if deferredOK.contains(k) && k + 3 <= b {
                k += 3
            } else {
                return false
            }
        }
        return true
    }
    for (p, page) in pages.enumerated() {
        if page.number != p + 1 { out.append("page \(p + 1) is numbered \(page.number)") }
        // The page's columns: mirrored margins move them, and a story set under another starts lower.
        var columns = fs.columns(onPage: page.folio)
        if page.number == 1, let top = fs.firstPageTop {
            columns = columns.map { Rect(x: $0.x, y: top, width: $0.width, height: max(0, $0.maxY - top)) }
        }
        let area = Rect(
            x: columns[0].x, y: columns[0].y, width: columns[columns.count - 1].maxX - columns[0].x, height: columns[0].height)
        var expected = 0  // the column the next frame of a band must be
        var above = area.y  // the foot of what earlier bands and spanning frames placed
        var bandFoot = area.y
        for (c, frame) in page.frames.enumerated() {
            let at = "page \(page.number) frame \(c + 1)"
            if frame.spansColumns {
                if expected != 0 { out.append("\(at): spans the columns in the middle of a band") }
                if frame.rect.x != area.x || abs(frame.rect.width - area.width) > 0.01 {
                    out.append("\(at): spanning rect \(frame.rect) is not across the text area")
                }
                if frame.rect.y < above - 0.01 { out.append("\(at): spanning frame starts above what came before it") }
                let initials = frame.dropCaps.map(\.foot).max() ?? 0
                above = max(above, frame.rect.maxY, (frame.lines.map(\.box.maxY).max() ?? 0), initials)
            } else {
                if frame.column != expected { out.append("\(at): column index \(frame.column), expected \(expected)") }
                let column = columns[min(frame.column, columns.count - 1)]
                if frame.rect.x != column.x || frame.rect.width != column.width || frame.rect.y < column.y - 0.01
                    || frame.rect.maxY > column.maxY + 0.01
                {
                    out.append("\(at): rect \(frame.rect) is not in the column \(column)")
                }
                if frame.rect.y < above - 0.01 { out.append("\(at): band starts at \(frame.rect.y), above \(above)") }
                let initials = frame.dropCaps.map(\.foot).max() ?? 0
                let foot = max(frame.lines.map(\.box.maxY).max() ?? 0, frame.images.map(\.rect.maxY).max() ?? 0, initials)
                bandFoot = max(bandFoot, foot)
                expected = (expected + 1) % columns.count
                if expected == 0 { above = max(above, bandFoot) }
            }
            let r = frame.visibleRange
            if r.lowerBound != next { out.append("\(at): starts at \(r.lowerBound), previous frame ended at \(next)") }
            if r.upperBound < r.lowerBound { out.append("\(at): range \(r) runs backwards") }
            next = r.upperBound

            // Items in story order: lines by range, images by their U+FFFC (3 bytes).
            var items: [(range: Range<Int>, top: Double, bottom: Double, what: String, image: Bool)] = []
            for l in frame.lines {
                items.append((l.storyRange, l.box.y, l.box.maxY, "line @\(l.storyRange)", false))
                let b = l.box
                let tall = frame.lines.count == 1 && frame.images.isEmpty && b.height > frame.rect.height
                if b.x < frame.rect.x - 0.01 || b.maxX > frame.rect.maxX + 0.01 {
                    out.append("\(at): line \(l.storyRange) box \(b.x)..<\(b.maxX) outside \(frame.rect.x)..<\(frame.rect.maxX)")
                }
                if !l.overfull && l.contentWidth > b.width + 0.01 {
                    out.append("\(at): line \(l.storyRange) content \(l.contentWidth) wider than box \(b.width) but not overfull")
                }
                if b.maxY > frame.rect.maxY + 0.01 && !tall {
                    out.append("\(at): line \(l.storyRange) bottom \(b.maxY) below column bottom \(frame.rect.maxY)")
                }
                if b.y < frame.rect.y - 0.01 { out.append("\(at): line \(l.storyRange) above the column") }
            }
            // A drop cap holds its paragraph's first letter; it stands beside the lines after it by
            // design, so it takes no part in the overlap check, but it stays inside its column.
            for d in frame.dropCaps {
                items.append((d.storyRange, d.rect.y, d.rect.y, "drop cap @\(d.storyRange)", false))
                if d.rect.x < frame.rect.x - 0.01 || d.rect.maxX > frame.rect.maxX + 0.01 || d.rect.maxY > frame.rect.maxY + 0.01 {
                    out.append("\(at): drop cap \(d.rect) outside the column \(frame.rect)")
                }
            }
            for i in frame.images {
                // A float (it keeps text out) goes where it fits, which may be under text after its
                // anchor (a strip beside a sidebar too narrow for it): out of the vertical order.
                let what = i.exclusion == nil ? "image @\(i.storyOffset)" : "float @\(i.storyOffset)"
                items.append((i.storyOffset..<(i.storyOffset + 3), i.rect.y, i.rect.maxY, what, true))
                let rr = i.rect
                if rr.x < frame.rect.x - 0.01 || rr.maxX > frame.rect.maxX + 0.01 || rr.y < frame.rect.y - 0.01
                    || rr.maxY > frame.rect.maxY + 0.01
                {
                    out.append("\(at): image \(i.image) rect \(rr) outside the column \(frame.rect)")
                }
            }
            items.sort {
                $0.range.lowerBound < $1.range.lowerBound
                    || ($0.range.lowerBound == $1.range.lowerBound && $0.range.upperBound < $1.range.upperBound)
            }
            for (k, item) in items.enumerated() {
                // An image deferred past the text after it (a float or a block image that opens
                // the next column) stands outside the order; it is counted once below.
                if item.image && (item.range.lowerBound < covered || item.range.lowerBound < r.lowerBound)
                    && deferredOK.contains(item.range.lowerBound)
                {
                    continue
                }
                if item.range.lowerBound < r.lowerBound || item.range.upperBound > r.upperBound {
                    out.append("\(at): \(item.what) outside the visible range \(r)")
                }
                // Only paragraph terminators (and images placed later) may lie between what is
                // covered so far and this item.
                if item.range.lowerBound < covered {
                    out.append("\(at): \(item.what) overlaps text already placed (up to \(covered))")
                } else if !onlyTerminators(covered, min(item.range.lowerBound, text.count)) {
                    out.append("\(at): bytes \(covered)..<\(item.range.lowerBound) were placed nowhere")
                }
                covered = max(covered, item.range.upperBound)
                let outOfOrder = ["drop cap", "float"]
                if k > 0 && !outOfOrder.contains(where: { item.what.hasPrefix($0) || items[k - 1].what.hasPrefix($0) }) {
                    let prev = items[k - 1]
                    // A row may hold two lines: text on both sides of a float across it.
                    let sameRow = !item.image && !prev.image && abs(item.top - prev.top) < 0.01
                    if item.top < prev.bottom - 0.01 && !sameRow { out.append("\(at): \(item.what) overlaps \(prev.what) vertically") }
                }
            }
            if out.count > 20 { return out }
        }
        // An initial stands beside the first lines of its paragraph, and nothing else stands
        // within its box down to its foot: not the next paragraph, nor a band or an element
        // across the columns below the band that holds it.
        let pageLines = page.frames.flatMap(\.lines)
        for (c, frame) in page.frames.enumerated() {
            for d in frame.dropCaps {
                for l in pageLines where l.paragraphIndex != d.paragraphIndex || l.lineIndex >= d.lines {
                    let b = l.box
                    if b.x < d.rect.maxX - 0.01 && b.maxX > d.rect.x + 0.01 && b.y < d.foot - 0.01 && b.maxY > d.rect.y + 0.01 {
                        out.append(
                            "page \(page.number) frame \(c + 1): line \(l.storyRange) \(b) meets the drop cap \(d.rect) (foot \(d.foot))")
                    }
                }
            }
        }
        if expected != 0 { out.append("page \(page.number): its last band ends after column \(expected)") }
    }
    if next != text.count { out.append("the last frame ends at \(next), the text at \(text.count)") }
    if !onlyTerminators(min(covered, text.count), text.count) {
        out.append("bytes \(covered)..<\(text.count) were placed nowhere")
    }
    return out
}

/// Lays out and checks; returns the pages for further checks.
@discardableResult
func expectInvariants(
    _ fs: Framesetter, _ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> [Page] {
    let ps = pages(of: fs)
    #expect(!ps.isEmpty, "\(label): no pages", sourceLocation: sourceLocation)
    let v = violations(fs, ps)
    #expect(v.isEmpty, "\(label): \(v.prefix(8).joined(separator: "; "))", sourceLocation: sourceLocation)
    return ps
}

/// Every page dumped, joined.
func dumps(_ fs: Framesetter) -> [String] {
    pages(of: fs).map { PageDump.dump($0, story: fs.story) }
}

let sampleNames = ["article.txt", "chinese.txt", "long.txt", "feature.txt"]
let templateNames = ["magazine", "letter", "tabloid", "pocket", "tablet", "magazine-zh"]

// MARK: - Samples × templates

@Suite struct PartitionTests {
    // Every sample under every built-in template: visible ranges partition the story, lines stay in their columns.
    @Test(arguments: sampleNames, templateNames) func samplesUnderTemplates(name: String, template: String) throws {
        let t = try #require(Template.builtin(named: template))
        expectInvariants(framesetter(sample(name), template: t), "\(name) / \(template)")
    }

    // Every alignment, in both paragraph modes, with a first-line indent, keeps the invariants on the article.
    @Test(arguments: Alignment.allCases, ParagraphMode.allCases) func modes(alignment: Alignment, mode: ParagraphMode) {
        var t = Template.default
        t.alignment = alignment
        t.paragraphMode = mode
        t.firstLineIndent = 12
        let fs = framesetter(sample("article.txt"), template: t)
        let ps = pages(of: fs)
        let v = violations(fs, ps)
        if mode == .blankLine {
            // The space a pending newline adds before an <img> belongs to no paragraph (see StoryTests).
            #expect(v.isEmpty, "\(v.prefix(4))")
        } else {
            #expect(v.isEmpty, "\(alignment) / \(mode): \(v.prefix(8))")
        }
    }

    // A single short line: one page, the first frame holds everything, the second is empty at the end.
    @Test func oneLine() {
        let fs = framesetter("Hello")
        let ps = expectInvariants(fs, "one line")
        #expect(ps.count == 1)
        #expect(ps[0].frames.map(\.visibleRange) == [0..<5, 5..<5])
        #expect(ps[0].frames[0].lines.count == 1)
    }

    // Page visible ranges run from the first frame's start to the last frame's end, and pages tile the story too.
    @Test func pagesTile() {
        let fs = framesetter(sample("long.txt"))
        let ps = pages(of: fs)
        #expect(ps.first?.visibleRange.lowerBound == 0)
        #expect(ps.last?.visibleRange.upperBound == fs.story.text.utf8.count)
        #expect(zip(ps, ps.dropFirst()).allSatisfy { $0.visibleRange.upperBound == $1.visibleRange.lowerBound })
    }

    // The footer carries the folio, centred in the bottom margin.
    @Test func footerFolio() {
        let fs = framesetter(sample("long.txt"))
        let ps = pages(of: fs)
        #expect(ps.map { $0.footer?.text } == ps.map { String($0.number) })
        let t = Template.default
        #expect(ps[0].footer?.anchor == Point(x: t.pageWidth / 2, y: t.pageHeight - t.margins.bottom / 2))
        #expect(ps[0].footer?.alignment == .center && ps.allSatisfy { $0.header == nil })
    }

    // {pages} in the footer becomes the page count (FooterSpec's documented placeholder).
    @Test func footerPageCount() {
        var t = Template.default
        t.footer.text = "{page} of {pages}"
        let ps = pages(of: framesetter(sample("article.txt"), template: t))
        #expect(ps.first?.footer?.text == "1 of \(ps.count)")
        // From another first folio it is the last folio: "17 of 2" read as nonsense.
        t.startPage = 17
        let from17 = pages(of: framesetter(sample("article.txt"), template: t))
        #expect(from17.last?.footer?.text == "\(16 + from17.count) of \(16 + from17.count)")
    }

    // No footer when the template turns it off.
    @Test func footerOff() {
        #expect(pages(of: framesetter("x", template: Template.builtin(named: "tablet")!)).allSatisfy { $0.footer == nil })
    }
}

// MARK: - Same breaks everywhere

@Suite struct DeterminismTests {
    // Shaped on the calling thread or on others, as a build or a preview runs: every page dump
    // is identical.
    @Test(arguments: sampleNames) func threadCounts(name: String) {
        let one = dumps(framesetter(sample(name), threads: 1))
        for (n, drawing) in [(2, false), (4, false), (2, true), (4, true)] {
            let many = dumps(framesetter(sample(name), threads: n, drawsEveryPage: drawing))
            #expect(one.count == many.count, "\(name): \(n) threads")
            for (a, b) in zip(one, many) where a != b {
                Issue.record(Comment(rawValue: "\(name), \(n) threads, drawing \(drawing):\n" + lineDiff(a, b)))
                break
            }
        }
    }

    // A preview stops early, yet its page is the one the full (PDF) run makes.
    @Test(arguments: [1, 3, 7]) func previewPageMatchesFullRun(page: Int) throws {
        let fs = framesetter(sample("long.txt"), threads: 2)
        let full = dumps(fs)
        try #require(full.count >= page)
        var seen: Page?
        framesetter(sample("long.txt"), threads: 2).layOut { p in
            if p.number == page {
                seen = p
                return false
            }
            return true
        }
        let early = try #require(seen)
        assertDump(PageDump.dump(early, story: fs.story), full[page - 1])
    }

    // Laying out the same framesetter twice gives the same pages.
    @Test func sameFramesetterTwice() {
        let fs = framesetter(sample("article.txt"))
        #expect(dumps(fs) == dumps(fs))
    }
}
