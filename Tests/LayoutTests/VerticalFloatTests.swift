import Foundation
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// `<vertical>` blocks beside floats: no vertical line's strip meets a float's exclusion on its
/// page, as no horizontal line's box does (`linesOverFloats`, ExclusionPropertyTests).
@Suite struct VerticalFloatTests {
    static let block =
        "<vertical lang=\"ja\">" + String(repeating: "縦書きの文章がここに入ります。", count: 10)
        + "</vertical>"

    /// The float (image or text block) placed first on page 1, in a column or across the page.
    func firstFloat(_ ps: [Page], story: Story, block: Bool) throws -> PlacedImage {
        let page = try #require(ps.first)
        let placed = page.frames.flatMap(\.images) + page.floats
        return try #require(placed.first { (story.images[$0.image].block != nil) == block && $0.exclusion != nil })
    }

    /// The vertical lines of page 1 whose strips cross `area`: they run beside it, above or
    /// below, never through it.
    func expectStripsClear(of area: Rect, _ ps: [Page], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let lines = ps[0].frames.flatMap(\.lines).filter(\.vertical)
        #expect(!lines.isEmpty, sourceLocation: sourceLocation)
        let crossing = lines.filter { $0.box.x < area.maxX - 0.01 && $0.box.maxX > area.x + 0.01 }
        #expect(!crossing.isEmpty, "no strip under the float: the test shows nothing", sourceLocation: sourceLocation)
        for l in crossing {
            #expect(
                l.box.y >= area.maxY - 0.01 || l.box.maxY <= area.y + 0.01, "line \(l.storyRange) at \(l.box) runs through \(area)",
                sourceLocation: sourceLocation)
        }
    }

    // The tester's page: a right float, then a block as tall as the rest of the column (its
    // strips used to run straight through the chart); and a pull quote before the block, set
    // across the gutter at its anchor, the page laid out again around it. The strips either
    // crosses start below it.
    @Test(arguments: [
        ("<img src=\"images/chart.png\" float=\"right\" width=\"50%\">", false),
        ("<pullquote>A quote that floats across the gutter.</pullquote>", true),
    ])
    func floatBeforeTheBlock(before: String, block: Bool) throws {
        let fs = framesetter("Intro line.\n\(before)\n\(Self.block)\nLast line.\n")
        let ps = pages(of: fs)
        let float = try firstFloat(ps, story: fs.story, block: block)
        expectStripsClear(of: try #require(float.exclusion), ps)
        let over = linesOverFloats(ps, story: fs.story)
        #expect(over.isEmpty, "\(over.prefix(4))")
        let lost = lostOrDoubled(ps, story: fs.story)
        #expect(lost.isEmpty, "\(lost.prefix(4))")
    }

    // A block of its own height beside a float as wide as the column: no strip has room at the
    // block's top, so the whole block moves down below the float, as a block image does.
    @Test func blockMovesBelowAFloatAcrossTheColumn() throws {
        let text =
            "Intro line.\n<img src=\"images/chart.png\" float=\"right\" width=\"100%\">\n"
            + "<vertical lang=\"ja\" height=\"8em\"><p>縦書きの文章がここに入ります。</p></vertical>\nAfter the block.\n"
        let fs = framesetter(text)
        let ps = pages(of: fs)
        let chart = try firstFloat(ps, story: fs.story, block: false)
        let area = try #require(chart.exclusion)
        let lines = ps[0].frames.flatMap(\.lines)
        let vertical = lines.filter(\.vertical)
        #expect(!vertical.isEmpty)
        #expect(vertical.allSatisfy { $0.box.y >= area.maxY - 0.01 && abs($0.box.height - 80) < 0.01 }, "\(vertical.map(\.box))")
        let after = try #require(lines.last { !$0.vertical })
        #expect(after.box.y >= vertical.map(\.box.maxY).max()! - 0.01)
        #expect(linesOverFloats(ps, story: fs.story).isEmpty)
        #expect(lostOrDoubled(ps, story: fs.story).isEmpty)
    }

    static let chinese = "中文书籍在很长的年月里都是竖着排的，字从上往下走，行从右往左数。周师傅说，他学徒的第一年，排的第一本书就是竖排的《唐诗三百首》，一页十行，每行二十个字。"

    /// The vertical lines of `pages` and the warnings said of vertical blocks.
    func verticalLinesAndWarnings(_ text: String) -> (Framesetter, [Page], [PlacedLine], [Diagnostic]) {
        let fs = framesetter(text)
        let ps = pages(of: fs)
        let lines = ps.flatMap(\.frames).flatMap(\.lines).filter(\.vertical)
        return (fs, ps, lines, fs.diagnostics.warnings.filter { $0.message.hasPrefix("a vertical block") })
    }

    // A block of its own height met by a float (the tester's page; and a pull quote): it
    // starts below the float and keeps the whole of its height, as a block image would. Its
    // lines used to run from the float's foot to where the block would have ended, shorter than
    // asked (300 pt → 220 beside the chart), and nothing was said.
    @Test(arguments: [
        ("<img src=\"images/chart.png\" float=\"right\" width=\"45%\">", false),
        ("<pullquote>A quote that floats across the gutter.</pullquote>", true),
    ])
    func blockBelowAFloatKeepsItsHeight(before: String, block: Bool) throws {
        let (fs, ps, lines, said) = verticalLinesAndWarnings(
            "Intro line.\n\(before)\n<vertical lang=\"zh-Hans\" height=\"300\"><p>\(Self.chinese)</p></vertical>\nAfter the block.\n")
        let area = try #require(try firstFloat(ps, story: fs.story, block: block).exclusion)
        #expect(!lines.isEmpty && lines.allSatisfy { abs($0.box.height - 300) < 0.01 }, "\(lines.map(\.box))")
        #expect(lines.allSatisfy { $0.box.y >= area.maxY - 0.01 }, "\(lines.map(\.box)) below \(area)")
        #expect(said.isEmpty, "\(said.map(\.message))")
        #expect(linesOverFloats(ps, story: fs.story).isEmpty)
        #expect(lostOrDoubled(ps, story: fs.story).isEmpty)
    }

    // One the rest of the column below the float is too short for opens the next column, whole,
    // as a block image does, rather than run beside the float shorter than asked.
    @Test func blockTooTallBelowAFloatOpensTheNextColumn() throws {
        let (fs, ps, lines, said) = verticalLinesAndWarnings(
            "Intro line.\n<img src=\"images/chart.png\" float=\"right\" width=\"45%\">\n"
                + "<vertical lang=\"zh-Hans\" height=\"700\"><p>\(Self.chinese)</p></vertical>\nAfter the block.\n")
        #expect(!lines.isEmpty && lines.allSatisfy { abs($0.box.height - 700) < 0.01 }, "\(lines.map(\.box))")
        #expect(ps[0].frames[0].lines.allSatisfy { !$0.vertical }, "the block stays in the float's column")
        #expect(said.isEmpty, "\(said.map(\.message))")
        #expect(lostOrDoubled(ps, story: fs.story).isEmpty)
    }

    // A region that must take the block (the page's first column, under a float across the
    // page) keeps it where floats meet it, its lines beside them shorter than asked: said once
    // for the block, at its start.
    @Test func blockKeptBesideFloatsSaysSo() throws {
        let (_, _, lines, said) = verticalLinesAndWarnings(
            "<img src=\"images/chart.png\" float=\"top\" width=\"60%\">\n"
                + "<vertical lang=\"zh-Hans\" height=\"700\"><p>\(Self.chinese)</p><p>\(Self.chinese)</p></vertical>\nAfter.\n")
        #expect(lines.contains { $0.box.height < 700 - 0.01 })
        #expect(said.count == 1, "\(said.map(\.message))")
        let warning = try #require(said.first)
        let expected = "a vertical block 700 pt tall has no room clear of the floats in its column"
        #expect(warning.message.hasPrefix(expected), "\(warning.message)")
        #expect(warning.location?.line == 2, "\(String(describing: warning.location))")
    }

    // The exclusion property with vertical blocks: random documents of every float kind with
    // `<vertical>` blocks among their paragraphs, every built-in template in turn. No line's box
    // meets a float's exclusion, and nothing is lost or set twice.
    @Test(arguments: 0..<120) func noVerticalLineOverAFloat(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 31_000)
        let (t, fs, ps) = try laidOutRandomly(randomVerticalDocument(&rng), seed: seed)
        expectNone(each: [linesOverFloats(ps, story: fs.story), lostOrDoubled(ps, story: fs.story)], seed: seed, template: t)
    }

    // A block shorter than its characters: each line runs past its foot, said once at build,
    // as a length down the block in what did not fit.
    @Test func blockShorterThanItsCharacters() {
        let fs = framesetter("Intro.\n<vertical height=\"5\">縦書きの文章</vertical>\nAfter.\n")
        let lines = pages(of: fs).flatMap(\.frames).flatMap(\.lines).filter(\.vertical)
        #expect(!lines.isEmpty && lines.allSatisfy { $0.overfull && $0.contentWidth > $0.box.height })
        let said = fs.diagnostics.all.map(\.message).filter { $0.hasPrefix("a vertical line is ") }
        #expect(said.count == 1 && said[0].hasSuffix("pt longer than its block is tall (5 pt); it runs past its foot"), "\(said)")
    }
}

/// A random document (`randomDocument`) with one to four `<vertical>` blocks put between its
/// paragraphs (never inside a pull quote or sidebar, whose text spans lines): blocks of one to
/// three paragraphs, as tall as the rest of their column or as their `height`.
func randomVerticalDocument(_ rng: inout SplitMix) -> String {
    let characters = Array("縦書きの文章がここに入ります。活字印刷始于北宋，毕昇以胶泥刻字。")
    var lines: [String] = []
    var between = [0]  // where a block may go: not inside a text block
    var open = false
    for piece in randomDocument(&rng).split(separator: "\n", omittingEmptySubsequences: false) {
        lines.append(String(piece))
        if piece.contains("<pullquote") || piece.contains("<aside") { open = true }
        if piece.contains("</pullquote>") || piece.contains("</aside>") { open = false }
        if !open { between.append(lines.count) }
    }
    for _ in 0..<Int.random(in: 1...4, using: &rng) {
        let paragraphs = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            String((0..<Int.random(in: 5...200, using: &rng)).map { _ in characters.randomElement(using: &rng)! })
        }
        let height = ["", #" height="8em""#, #" height="20em""#, #" height="400""#].randomElement(using: &rng)!
        let block = "<vertical\(height)>" + paragraphs.map { "<p>\($0)</p>" }.joined() + "</vertical>"
        // The places after it move on by one.
        let at = between.randomElement(using: &rng)!
        lines.insert(block, at: at)
        between = between.map { $0 > at ? $0 + 1 : $0 }
    }
    return lines.joined(separator: "\n")
}
