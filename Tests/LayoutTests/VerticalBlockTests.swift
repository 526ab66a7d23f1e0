import TestSupport
import Testing

@testable import GalleyLayout

/// `<vertical>`: a block as tall as its `height` or the rest of its column, its paragraphs
/// set right to left beside each other.
@Suite struct VerticalBlockTests {
    func verticalLines(_ text: String) -> [PlacedLine] {
        pages(of: framesetter(text))[0].frames[0].lines.filter(\.vertical)
    }

    @Test func heightAttributeSetsTheBlock() {
        let lines = verticalLines("Before.\n<vertical height=\"8em\"><p>活字印刷始于北宋，毕昇以胶泥刻字。</p></vertical>\nAfter.")
        #expect(!lines.isEmpty && lines.allSatisfy { abs($0.box.height - 80) < 0.01 })
    }

    // A height the column has no room for: the block takes the room there is, and says so.
    @Test func heightTallerThanTheColumnIsCutWithAWarning() {
        let fs = framesetter("<vertical height=\"2000\"><p>活字印刷始于北宋。</p></vertical>")
        let frame = pages(of: fs)[0].frames[0]
        let line = frame.lines.first { $0.vertical }!
        #expect(abs(line.box.maxY - frame.rect.maxY) < 0.01, "\(line.box) in \(frame.rect)")
        let warnings = fs.diagnostics.warnings.filter { $0.message.hasPrefix("a vertical block 2000 pt tall does not fit") }
        #expect(warnings.count == 1, "\(fs.diagnostics.warnings.map(\.message))")
        let fits = framesetter("<vertical height=\"8em\"><p>活字。</p></vertical>")
        #expect(!pages(of: fits).isEmpty && fits.diagnostics.warnings.isEmpty)
    }

    @Test func withoutHeightTheBlockTakesTheRestOfTheColumn() {
        let fs = framesetter("<vertical><p>活字印刷始于北宋，毕昇以胶泥刻字。</p></vertical>")
        let frame = pages(of: fs)[0].frames[0]
        let line = frame.lines.first { $0.vertical }!
        #expect(abs(line.box.maxY - frame.rect.maxY) < 0.01, "\(line.box) in \(frame.rect)")
        // All 16 characters in one line: the column is far taller than 16 ems.
        #expect(frame.lines.filter(\.vertical).count == 1)
    }

    @Test func paragraphsGoOnRightToLeft() {
        let lines = verticalLines("<vertical height=\"5em\"><p>活字印刷始于北宋。</p><p>排版之时先设铁板。</p></vertical>\nAfter.")
        let first = lines.filter { $0.paragraphIndex == lines[0].paragraphIndex }
        let second = lines.filter { $0.paragraphIndex != lines[0].paragraphIndex }
        #expect(!first.isEmpty && !second.isEmpty)
        #expect(second.allSatisfy { $0.box.y == first[0].box.y })
        #expect(second.map(\.box.maxX).max()! < first.map(\.box.x).min()!)
    }

    // clreq: a vertical line's inline start is its top. A first-line indent is blank above the
    // paragraph's first character (it was left at the line's foot), a hanging paragraph's other
    // lines start that far down, and a line set flush to its end still ends at the block's foot.
    @Test func indentsAreAtTheTopOfTheirLines() throws {
        let lines = verticalLines(
            "Before.\n<vertical height=\"10em\"><p>活字印刷始于北宋。</p><p firstIndent=\"20\">毕昇以胶泥刻字，一字一印，用火烧硬。</p>"
                + "<p indent=\"20\" firstIndent=\"-20\">再将字印依次排列，满一铁范为一板，持就火炀之。</p>"
                + "<p align=\"right\" firstIndent=\"20\">一板。</p></vertical>\nAfter.")
        let paragraphs = Dictionary(grouping: lines, by: \.paragraphIndex).sorted { $0.key < $1.key }.map(\.value)
        try #require(paragraphs.count == 4 && paragraphs.allSatisfy { !$0.isEmpty })
        let top = paragraphs[0][0].box.y
        let foot = top + 100
        // Where each line starts down its strip: all lines end at the block's foot.
        func starts(_ p: [PlacedLine]) -> [Double] { p.map { ($0.origin.y - top).rounded() } }
        #expect(lines.allSatisfy { abs($0.box.maxY - foot) < 0.01 && abs($0.box.y - $0.origin.y) < 0.01 }, "\(lines.map(\.box))")
        #expect(starts(paragraphs[0]).allSatisfy { $0 == 0 })
        #expect(starts(paragraphs[1]) == [20] + Array(repeating: 0, count: paragraphs[1].count - 1))
        #expect(starts(paragraphs[2]) == [0] + Array(repeating: 20, count: paragraphs[2].count - 1))
        let flush = paragraphs[3][0]
        let end = flush.origin.y + flush.paragraph.lines[flush.lineIndex].alignOffset + flush.contentWidth
        #expect(paragraphs[3].count == 1 && abs(end - foot) < 0.01, "the flush line ends at \(end), the block at \(foot)")
    }

    @Test func textAfterTheBlockIsBelowIt() {
        let fs = framesetter("<vertical height=\"6em\"><p>活字印刷。</p></vertical>\nAfter the block.")
        let lines = pages(of: fs)[0].frames[0].lines
        let block = lines.first { $0.vertical }!
        let after = lines.last { !$0.vertical }!
        #expect(after.box.y >= block.box.maxY - 0.01)
    }
}
