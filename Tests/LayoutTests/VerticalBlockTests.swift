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

    @Test func textAfterTheBlockIsBelowIt() {
        let fs = framesetter("<vertical height=\"6em\"><p>活字印刷。</p></vertical>\nAfter the block.")
        let lines = pages(of: fs)[0].frames[0].lines
        let block = lines.first { $0.vertical }!
        let after = lines.last { !$0.vertical }!
        #expect(after.box.y >= block.box.maxY - 0.01)
    }
}
