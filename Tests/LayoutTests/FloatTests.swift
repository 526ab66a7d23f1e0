import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// A story from markup whose block images are then given float settings (the markup for
/// floats is tested in StoryTests; these tests are about the flow).
func floatStory(_ markup: String, template: Template = .default, _ configure: (inout [ImageReference]) -> Void) -> Framesetter {
    TestFonts.pin()
    var story = buildStory(markup, template: template).story
    configure(&story.images)
    return Framesetter(story: story, template: template, file: "t.txt")
}

/// Every line's box against every exclusion on its page: no overlap (margin included).
/// With `round`, images are taken for the ellipse inscribed in their box (contour wrap around a
/// round image): a line may enter the box's corners but not the ellipse widened by `margin`.
func expectNoLineUnderAnImage(
    _ pages: [Page], round: Bool = false, margin: Double = 6, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    for page in pages {
        let placed = page.frames.flatMap(\.images) + page.floats
        for frame in page.frames {
            for l in frame.lines {
                let box = Rect(x: l.box.x, y: l.box.y, width: l.contentWidth, height: l.box.height)
                for image in placed {
                    var e = image.exclusion ?? image.rect
                    if round {
                        // The ellipse's extent over the line's height, plus the margin.
                        let r = image.rect
                        let cy = r.midY
                        let ry = r.height / 2
                        let dy = max(0, max(abs(box.y - cy), abs(box.maxY - cy)) - 0.0)
                        let nearest = min(abs(box.y - cy), abs(box.maxY - cy))
                        let inside = (box.y <= cy && box.maxY >= cy) ? 0 : nearest
                        _ = dy
                        guard inside < ry + margin else { continue }
                        let t = min(1, inside / ry)
                        let half = (1 - t * t).squareRoot() * r.width / 2
                        e = Rect(
                            x: r.x + r.width / 2 - half - margin, y: r.y - margin, width: 2 * half + 2 * margin,
                            height: r.height + 2 * margin)
                    }
                    let overlap = box.x < e.maxX - 0.01 && box.maxX > e.x + 0.01 && box.y < e.maxY - 0.01 && box.maxY > e.y + 0.01
                    #expect(!overlap, "page \(page.number): line at \(box) runs under \(e)", sourceLocation: sourceLocation)
                }
            }
        }
    }
}

let longText = paragraphs(40)

@Suite struct FloatTests {
    // A left float at 40 % of the column: the lines beside it are shorter and start to its
    // right; the paragraph returns to full width on the first line clear of it.
    @Test func leftFloat() {
        let text = "First paragraph before the float.\n<img src=\"images/chart.png\">\n" + longText
        let fs = floatStory(text) { images in
            images[0].placement = .float(.left)
            images[0].widthSpec = .percent(40)
        }
        let ps = pages(of: fs)
        expectNoLineUnderAnImage(ps)
        expectPartition(fs)
        let frame = ps[0].frames[0]
        let image = frame.images[0]
        #expect(abs(image.rect.width - frame.rect.width * 0.4) < 0.01)
        let beside = frame.lines.filter { $0.box.y < image.exclusion!.maxY && $0.box.maxY > image.rect.y }
        let below = frame.lines.filter { $0.box.y >= image.exclusion!.maxY }
        #expect(beside.count >= 5)
        #expect(beside.allSatisfy { $0.box.x >= image.exclusion!.maxX - 0.01 && $0.box.width < frame.rect.width * 0.6 })
        #expect(below.allSatisfy { abs($0.box.width - frame.rect.width) < 0.01 })
    }

    // A right float: lines beside it end before it.
    @Test func rightFloat() {
        let fs = floatStory("<img src=\"images/badge.png\">\n" + longText) { images in
            images[0].placement = .float(.right)
            images[0].widthSpec = .points(100)
        }
        let ps = pages(of: fs)
        expectNoLineUnderAnImage(ps)
        let image = ps[0].frames[0].images[0]
        #expect(abs(image.rect.maxX - ps[0].frames[0].rect.maxX) < 0.01)
    }

    // A float in the middle of a column with wrap both: lines on each side, left then right.
    @Test func centreFloatBothSides() {
        let fs = floatStory("<img src=\"images/badge.png\">\n" + longText) { images in
            images[0].placement = .float(.center)
            images[0].widthSpec = .points(80)
            images[0].wrap = .both
        }
        let ps = pages(of: fs)
        expectNoLineUnderAnImage(ps)
        let frame = ps[0].frames[0]
        let image = frame.images[0]
        let left = frame.lines.filter { $0.box.maxX <= image.rect.x && $0.box.y < image.rect.maxY }
        let right = frame.lines.filter { $0.box.x >= image.rect.maxX && $0.box.y < image.rect.maxY }
        #expect(left.count >= 3 && right.count >= 3, "\(left.count) left, \(right.count) right")
        expectPartition(fs)
    }

    // Contour wrap follows the shape: beside a circle, lines are shortest at its middle.
    @Test func contourEllipse() {
        let fs = floatStory("<img src=\"images/badge.png\">\n" + longText) { images in
            images[0].placement = .float(.left)
            images[0].widthSpec = .points(150)
            images[0].wrap = .contour
            images[0].shape = .ellipse
        }
        let ps = pages(of: fs)
        expectNoLineUnderAnImage(ps, round: true)
        let frame = ps[0].frames[0]
        let image = frame.images[0]
        let beside = frame.lines.filter { $0.box.y >= image.rect.y && $0.box.maxY <= image.rect.maxY }
        let widths = beside.map(\.box.width)
        #expect(widths.count >= 8)
        // Wider near the top and bottom of the circle than at its middle.
        let middle = widths[widths.count / 2]
        #expect(widths.first! > middle + 20 && widths.last! > middle + 20, "\(widths)")
    }

    // Contour wrap from the PNG's alpha: the badge is round on a transparent ground; every
    // line keeps the margin from the opaque pixels it passes.
    @Test func contourAlpha() {
        let fs = floatStory("<img src=\"images/badge.png\">\n" + longText) { images in
            images[0].placement = .float(.right)
            images[0].widthSpec = .points(150)
            images[0].wrap = .contour
            images[0].shape = .alpha
        }
        let ps = pages(of: fs)
        let frame = ps[0].frames[0]
        let image = frame.images[0]
        let figures = Figures(story: fs.story, captionHeight: { _, _ in 0 })
        let outline = figures.outline(0, width: image.rect.width, height: image.rect.height, step: 1)
        let beside = frame.lines.filter { $0.box.y >= image.rect.y - 6 && $0.box.y < image.rect.maxY + 6 }
        #expect(beside.count >= 8)
        for l in beside {
            let rows = outline.indices.filter { Double($0) >= l.box.y - 6 - image.rect.y && Double($0) <= l.box.maxY + 6 - image.rect.y }
            let left = rows.compactMap { outline[$0]?.left }.min().map { image.rect.x + $0 } ?? .infinity
            #expect(
                l.box.x + l.contentWidth <= left - 6 + 0.01,
                "line \(l.box) ends at \(l.box.x + l.contentWidth), outline at \(left), image \(image.rect), rows \(rows.first ?? -1)...\(rows.last ?? -1)"
            )
        }
        let widths = beside.map(\.box.width)
        #expect(widths.first! > widths[widths.count / 2] + 20, "\(widths)")
    }

    // A float taller than the room left in the column moves to the next column; the text
    // fills the space it left, and nothing is dropped or placed twice.
    @Test func floatMovesForward() {
        let text = paragraphs(9) + "\n<img src=\"images/tall.png\">\n" + longText
        let fs = floatStory(text) { images in
            images[0].placement = .float(.left)
            images[0].widthSpec = .points(85)
        }
        let ps = pages(of: fs)
        expectNoLineUnderAnImage(ps)
        expectPartition(fs)
        let all = ps.flatMap { $0.frames.flatMap(\.images) }
        #expect(all.count == 1)
        let column = ps.flatMap(\.frames).first { !$0.images.isEmpty }!
        #expect(column.column == 1 || ps[0].frames[0].images.isEmpty)
        #expect(abs(all[0].rect.y - column.rect.y) < 0.01)
        // The column it left is full of text to its foot: short of it by less than a
        // paragraph's space and the two lines an orphan takes with it.
        let before = ps[0].frames[0]
        #expect(before.lines.last!.box.maxY > before.rect.maxY - 3 * 12)
    }

    // A float larger than a column is shrunk, with a warning, and never loops.
    @Test func floatLargerThanAColumn() {
        let fs = floatStory("<img src=\"images/tall.png\">\n" + longText) { images in
            images[0].placement = .float(.right)
            images[0].widthSpec = .points(240)
        }
        let ps = pages(of: fs)
        #expect(ps.flatMap { $0.frames.flatMap(\.images) }.first!.shrunk)
        #expect(fs.diagnostics.warnings.contains { $0.message.contains("shrunk") })
        expectPartition(fs)
    }

    // A page-wide image spans the gutter, centred; both columns wrap around it.
    @Test func spanAcrossColumns() {
        let text = paragraphs(3) + "\n<img src=\"images/harbour.jpg\">\n" + longText
        let fs = floatStory(text) { images in
            images[0].placement = .span
            images[0].widthSpec = .percent(50)
        }
        let ps = pages(of: fs)
        expectNoLineUnderAnImage(ps)
        expectPartition(fs)
        let span = ps[0].floats[0]
        let columns = ps[0].frames
        #expect(span.rect.x < columns[0].rect.maxX && span.rect.maxX > columns[1].rect.x)
        for frame in columns {
            let beside = frame.lines.filter { $0.box.y < span.rect.maxY && $0.box.maxY > span.rect.y }
            #expect(beside.count >= 3)
        }
    }

    // Two page-wide images in a row: the second, its place taken by the first, goes right under
    // it, and the columns wrap it too (it was taken for one at the page's top, and the strips
    // beside it were left empty).
    @Test func secondSpanInARowHasTextBeside() throws {
        let text = paragraphs(3) + "\n<img src=\"images/harbour.jpg\">\n<img src=\"images/harbour.jpg\">\n" + longText
        let fs = floatStory(text) { images in
            for k in 0..<2 {
                images[k].placement = .span
                images[k].widthSpec = .percent(60)
            }
        }
        let ps = pages(of: fs)
        expectNoLineUnderAnImage(ps)
        expectPartition(fs)
        let spans = ps[0].floats.sorted { $0.rect.y < $1.rect.y }
        try #require(spans.count == 2)
        for (k, span) in spans.enumerated() {
            let keepOut = span.exclusion ?? span.rect
            for frame in ps[0].frames {
                let beside = frame.lines.filter { $0.box.y >= keepOut.y - 0.01 && $0.box.maxY <= keepOut.maxY + 0.01 }
                #expect(beside.count >= 10, "span \(k), column \(frame.column): \(beside.count) lines beside it")
            }
        }
    }

    // Top and bottom floats sit at the top and foot of the page across all columns; no line
    // runs beside them.
    @Test func topAndBottom() {
        let text =
            paragraphs(5) + "\n<img src=\"images/harbour.jpg\">\n" + paragraphs(5, seed: 4) + "\n<img src=\"images/chart.png\">\n"
            + longText
        let fs = floatStory(text) { images in
            images[0].placement = .top
            images[0].widthSpec = .percent(100)
            images[1].placement = .bottom
            images[1].widthSpec = .percent(60)
        }
        let ps = pages(of: fs)
        expectNoLineUnderAnImage(ps)
        expectPartition(fs)
        let floats = ps.flatMap(\.floats)
        #expect(floats.count == 2)
        let top = floats.first { $0.image == 0 }!
        #expect(abs(top.rect.y - ps[0].frames[0].rect.y) < 0.01)
        let bottom = floats.first { $0.image == 1 }!
        #expect(abs(bottom.rect.maxY - ps[0].frames[0].rect.maxY) < 1)
    }

    // Floats never overlap: a second float that would meet the first goes below it (or on).
    @Test func floatsDoNotOverlap() {
        let fs = floatStory("<img src=\"images/chart.png\">\n<img src=\"images/badge.png\">\n<img src=\"images/harbour.jpg\">\n" + longText)
        { images in
            images[0].placement = .float(.left)
            images[0].widthSpec = .percent(60)
            images[1].placement = .float(.right)
            images[1].widthSpec = .percent(60)
            images[2].placement = .span
            images[2].widthSpec = .percent(50)
        }
        let ps = pages(of: fs)
        for page in ps {
            let all = page.frames.flatMap(\.images) + page.floats
            for (k, a) in all.enumerated() {
                for b in all[(k + 1)...] {
                    let overlap = a.rect.x < b.rect.maxX && a.rect.maxX > b.rect.x && a.rect.y < b.rect.maxY && a.rect.maxY > b.rect.y
                    #expect(!overlap, "page \(page.number): \(a.rect) and \(b.rect)")
                }
            }
        }
        #expect(ps.flatMap { $0.frames.flatMap(\.images) + $0.floats }.count == 3)
        expectNoLineUnderAnImage(ps)
        expectPartition(fs)
    }

    // Captions sit under their image and count in the exclusion.
    @Test func caption() {
        let fs = floatStory("<img src=\"images/chart.png\">\n" + longText) { images in
            images[0].placement = .float(.left)
            images[0].widthSpec = .percent(50)
            images[0].caption = "Orders of tide tables, 2018 to 2025, against everything else."
        }
        let ps = pages(of: fs)
        let image = ps[0].frames[0].images[0]
        #expect(image.captionRect != nil)
        #expect(image.captionRect!.y > image.rect.maxY && image.exclusion!.maxY >= image.captionRect!.maxY)
        expectNoLineUnderAnImage(ps)
    }

    // A block image's caption sits under it, across its column, and the text after it goes on
    // below the caption (it was dropped).
    @Test func blockImageCaption() throws {
        let after = String(repeating: "After the chart, the tide tables go on line after line.\n", count: 40)
        let fs = framesetter("Before the chart.\n<img src=\"images/chart.png\" caption=\"Orders of tide tables.\">\n" + after)
        let ps = expectInvariants(fs, "block image with a caption")
        let frame = ps[0].frames[0]
        let image = try #require(frame.images.first)
        #expect(!image.shrunk && image.caption == "Orders of tide tables.")
        let caption = try #require(image.captionRect)
        #expect(caption.y >= image.rect.maxY && caption.height > 0 && caption.x == frame.rect.x && caption.width == frame.rect.width)
        // The lines after it in its column (the columns are balanced) start under the caption.
        let below = frame.lines.filter { $0.box.y > image.rect.y }
        #expect(!below.isEmpty)
        for line in below { #expect(line.box.y >= caption.maxY - 0.01, "\(line.box) over the caption \(caption)") }
    }
}
