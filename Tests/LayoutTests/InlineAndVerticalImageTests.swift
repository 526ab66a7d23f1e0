import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// Inline images kept to their line and column, and floats anchored in vertical text placed.
@Suite struct InlineAndVerticalImageTests {
    /// The inline images set in the lines of `pages`, with the line that holds each.
    func inlineImages(_ pages: [Page]) -> [(line: PlacedLine, image: GalleyLayout.Attachment)] {
        pages.flatMap(\.frames).flatMap(\.lines).flatMap { line in
            let start = line.storyRange.lowerBound - line.paragraph.storyStart
            let end = line.storyRange.upperBound - line.paragraph.storyStart
            return line.paragraph.text.attachments(in: start..<end).filter { $0.width > 0 }.map { (line, $0) }
        }
    }

    // A block image takes its width (a share of the column, or points), centred in its
    // column; without one, or asked wider than the column, it is the column's width.
    @Test func blockImagesTakeTheirWidth() throws {
        let fs = framesetter(
            """
            Text.
            <img src="images/chart.png" width="50%">
            <img src="images/chart.png" width="120pt">
            <img src="images/chart.png">
            <img src="images/chart.png" width="2000pt">
            <img src="images/chart.png" height="60pt">
            """)
        let column = fs.columns[0]
        // Each in its own column (the page's columns are balanced, so some go to the second).
        let placed = pages(of: fs).flatMap(\.frames).flatMap { f in f.images.map { ($0, f.rect) } }
        let images = placed.map(\.0)
        try #require(images.count == 5)
        let widths = images.map { ($0.rect.width * 10).rounded() / 10 }
        let expected = [column.width / 2, 120, column.width, column.width, 90].map { ($0 * 10).rounded() / 10 }
        #expect(widths == expected)
        for (image, frame) in placed {
            #expect(abs(image.rect.midX - frame.midX) < 0.01, "centred: \(image.rect) in \(frame)")
            #expect(abs(image.rect.width / image.rect.height - 1.5) < 0.01)
        }
    }

    // An inline image asked 1000 pt wide was set at that width, over the other column and off
    // the page, with only an overfull-line warning: it is shrunk, with its proportions, to the
    // width of its line, and the warning says so as a float's does.
    @Test func wideInlineImageIsShrunkToItsLine() throws {
        let fs = framesetter(#"Some text before <img src="images/chart.png" inline width="1000pt"> and after."#)
        let ps = pages(of: fs)
        let column = fs.columns[0]
        let set = inlineImages(ps)
        let (line, image) = try #require(set.first)
        #expect(set.count == 1)
        #expect(image.width <= column.width + 0.01, "\(image.width) pt wide in a column \(column.width) pt wide")
        #expect(abs(image.width / image.height - 1.5) < 0.01, "chart.png is 900×600: \(image.width)×\(image.height)")
        #expect(!line.overfull)
        #expect(line.contentWidth <= line.box.width + 0.01, "a line \(line.contentWidth) pt wide in a measure of \(line.box.width)")
        let warnings = fs.diagnostics.warnings.map(\.message)
        #expect(warnings.contains { $0.contains("chart.png") && $0.contains("shrunk to") }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("wider than its column") }, "\(warnings)")
    }

    // An inline image asked 2000 pt tall made a line taller than the column, set past the
    // page's foot ("placed anyway"): it is shrunk so that its line fits the column.
    @Test func tallInlineImageIsShrunkToTheColumn() throws {
        let fs = framesetter(#"Some text before <img src="images/tall.png" inline height="2000"> and after."#)
        let ps = pages(of: fs)
        let column = fs.columns[0]
        let set = inlineImages(ps)
        let (line, image) = try #require(set.first)
        #expect(set.count == 1)
        #expect(image.height < column.height, "\(image.height) pt tall in a column \(column.height) pt tall")
        #expect(abs(image.width / image.height - 300.0 / 1400.0) < 0.001, "tall.png is 300×1400: \(image.width)×\(image.height)")
        #expect(line.box.y >= column.y - 0.01 && line.box.maxY <= column.maxY + 0.01, "line at \(line.box), column \(column)")
        #expect(!line.overfull)
        let warnings = fs.diagnostics.warnings.map(\.message)
        #expect(warnings.contains { $0.contains("tall.png") && $0.contains("shrunk to") }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("placed anyway") }, "\(warnings)")
    }

    /// The tester's file: a short vertical paragraph with `image` among its words, between
    /// two lines of horizontal text.
    static func vertical(_ image: String) -> String {
        "Intro.\n<vertical lang=\"ja\">縦書きの文章が" + image + "ここに入ります。</vertical>\nAfter.\n"
    }

    /// Lays `text` out and expects every image placed once, no line over a float and no text
    /// lost or set twice.
    func laidOut(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Page] {
        let fs = framesetter(text)
        let ps = pages(of: fs)
        let wrong = notPlacedOnce(ps, story: fs.story)
        #expect(wrong.isEmpty, "\(wrong)", sourceLocation: sourceLocation)
        let over = linesOverFloats(ps, story: fs.story)
        #expect(over.isEmpty, "\(over.prefix(4))", sourceLocation: sourceLocation)
        let lost = lostOrDoubled(ps, story: fs.story)
        #expect(lost.isEmpty, "\(lost.prefix(4))", sourceLocation: sourceLocation)
        return ps
    }

    // The tester's file: a float anchored in a vertical paragraph was never placed, and the
    // image was lost without a word. It goes at the top of the block, whose lines keep out of it.
    @Test func floatAnchoredInVerticalTextIsPlaced() throws {
        let ps = laidOut(Self.vertical(#"<img src="images/chart.png" float="right" width="40%">"#))
        let chart = try #require(ps.first?.frames.first?.images.first, "the chart is placed in the block's column")
        let vertical = ps[0].frames[0].lines.filter(\.vertical)
        #expect(!vertical.isEmpty)
        // Met before the block's lines, it is not pushed below them.
        #expect(vertical.contains { $0.box.maxY > chart.rect.maxY }, "\(vertical.map(\.box)) beside \(chart.rect)")
    }

    // A float anchored in the second paragraph of a block, which goes on to the left of the
    // first from the block's top: it goes below the block, where no line of it is set.
    @Test func floatAnchoredInALaterParagraphOfTheBlockIsPlaced() throws {
        let ps = laidOut(
            "Intro.\n<vertical lang=\"ja\" height=\"10em\"><p>縦書きの文章がここに入ります。</p>"
                + "<p>二つ目の段落<img src=\"images/chart.png\" float=\"left\" width=\"30%\">です。</p></vertical>\nAfter the block.\n")
        let chart = try #require(ps.first?.frames.first?.images.first, "the chart is placed in the block's column")
        let vertical = ps[0].frames.flatMap(\.lines).filter(\.vertical)
        #expect(!vertical.isEmpty)
        #expect(vertical.allSatisfy { $0.box.maxY <= chart.rect.y + 0.01 }, "\(vertical.map(\.box)) above \(chart.rect)")
    }

    // A page-wide float anchored in vertical text: placed on the page, which is laid out again
    // around it.
    @Test func pageFloatAnchoredInVerticalTextIsPlaced() throws {
        let ps = laidOut(Self.vertical(#"<img src="images/chart.png" span="page" width="50%">"#))
        #expect(ps.first?.floats.count == 1)
    }
}
