import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// `inspect --stats` counts CJK lines by the gaps between their characters, as Latin lines are
/// counted by their spaces.
@Suite struct CJKStatisticsTests {
    /// One column `ems` body ems wide.
    func column(ems: Double) -> Template {
        var t = tinyPage(lines: 20, columns: 1)
        t.pageWidth = 40 + ems * t.body.size
        return t
    }

    @Test func aLineOpenedUpByAProhibitedStartIsLoose() {
        // Ten characters fill the first line but ！ may not start the next (nor be compressed,
        // as 。 would be, to end the line on its ink): the line breaks before the tenth, and
        // nine characters share 10.5 ems (a fifth of an em a gap).
        let s = statistics(framesetter("一二三四五六七八九十！一二三四五六七八九十一二三四五六七八九十", template: column(ems: 10.5)))
        #expect(s.cjkJustifiedLines >= 2)
        #expect(s.cjkLooseLines >= 1 && s.cjkVeryLooseLines == 0)
        #expect(s.justifiedLines == 0)
    }

    @Test func linesThatFillTheirMeasureAreNotLoose() {
        let s = statistics(framesetter(String(repeating: "中文排版", count: 20), template: column(ems: 12)))
        #expect(s.cjkJustifiedLines >= 5)
        #expect(s.cjkLooseLines == 0 && s.cjkTightLines == 0)
    }
}
