import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// `<vertical>` blocks: CJK set top to bottom, lines (columns of characters) right to left.
@Suite struct VerticalTests {
    let text = "<vertical height=\"10em\"><p>活字印刷始于北宋，毕昇以胶泥刻字，一字一印，用火烧硬。排版之时，先设铁板，再将字印依次排列。</p></vertical>\nAfter the block."

    // Lines run right to left across the column, each a strip as tall as the block, in story
    // order; the text after the block comes below it (in the same column: balancing off).
    @Test func order() {
        var unbalanced = Template.default
        unbalanced.balance = false
        let fs = framesetter(text, template: unbalanced)
        let frame = pages(of: fs)[0].frames[0]
        let vertical = frame.lines.filter(\.vertical)
        #expect(vertical.count >= 2)
        for (a, b) in zip(vertical, vertical.dropFirst()) {
            #expect(b.box.x < a.box.x, "lines go right to left")
            #expect(b.storyRange.lowerBound == a.storyRange.upperBound, "in story order")
            #expect(a.box.height > a.box.width)
        }
        #expect(abs(vertical[0].box.maxX - frame.rect.maxX) < 0.01)
        let after = frame.lines.first { !$0.vertical }!
        #expect(after.box.y >= vertical.map(\.box.maxY).max()!)
    }

    // Drawn, the first line's ink is a tall, narrow strip at the column's right edge.
    @Test func drawn() throws {
        let fs = framesetter(text)
        let dir = TemporaryDirectory("vertical")
        try Export.png(fs, page: 1, to: dir.file("v.png"), dpi: 72)
        let png = try PNGPixels(path: dir.file("v.png"))
        let frame = pages(of: fs)[0].frames[0]
        let first = frame.lines.first(where: \.vertical)!
        var minY = Int.max
        var maxY = Int.min
        var minX = Int.max
        var maxX = Int.min
        for y in Int(first.box.y)..<Int(first.box.maxY) {
            for x in Int(first.box.x)..<Int(first.box.maxX) where png[x, y].r < 128 {
                minY = min(minY, y)
                maxY = max(maxY, y)
                minX = min(minX, x)
                maxX = max(maxX, x)
            }
        }
        #expect(maxY - minY > 4 * (maxX - minX), "ink \(minX)...\(maxX) × \(minY)...\(maxY)")
    }

    // Drawn, the first glyph of a paragraph indented 20 pt stands 20 pt below the block's top,
    // where the same glyph of an unindented one stands at the top (it stood there too, the
    // indent left as a gap at the line's foot).
    @Test func indentIsDrawnAtTheTop() throws {
        let fs = framesetter("<vertical height=\"10em\"><p>活字印刷始于北宋。</p><p firstIndent=\"20\">活字一字一印，用火烧硬。</p></vertical>\nAfter.")
        let dir = TemporaryDirectory("vertical-indent")
        try Export.png(fs, page: 1, to: dir.file("v.png"), dpi: 72)
        let png = try PNGPixels(path: dir.file("v.png"))
        let lines = pages(of: fs)[0].frames[0].lines.filter(\.vertical)
        let first = try #require(lines.first)
        let indented = try #require(lines.first { $0.paragraphIndex != first.paragraphIndex })
        // The first row down the block with ink in the line's strip.
        func firstInk(_ line: PlacedLine) -> Int? {
            (Int(first.box.y)..<Int(first.box.maxY)).first { y in (Int(line.box.x)..<Int(line.box.maxX)).contains { png[$0, y].r < 128 } }
        }
        let (plain, moved) = (try #require(firstInk(first)), try #require(firstInk(indented)))
        #expect(abs(moved - plain - 20) <= 1, "活 inked from \(plain) unindented, from \(moved) indented by 20 pt")
    }
}
