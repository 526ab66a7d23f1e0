import GalleyMarkup
import GalleyStory
@testable import GalleyTemplate
import TestSupport
import Testing

@Suite struct AttributeSampleTests {
    let built = buildStory(sample("attributes.txt"), baseDirectory: repoPath("samples"))

    // The specimen builds without a single diagnostic.
    @Test func clean() {
        #expect(built.rendered == "")
    }
    // It has the title, five sections and one third-level heading, all explicit.
    @Test func headings() {
        let levels = built.story.paragraphs.map(\.style.headingLevel).filter { $0 > 0 }
        #expect(levels == [1, 2, 2, 2, 2, 2, 3, 2])
    }
    // One page break and one column break, each before a section heading.
    @Test func breaks() {
        let breaks = built.story.paragraphs.filter { $0.style.breakBefore != .none }
        #expect(breaks.map(\.style.breakBefore) == [.page, .column])
        #expect(breaks.allSatisfy { $0.style.headingLevel == 2 })
    }
    // Two vertical paragraphs of Chinese, each one paragraph though wrapped in the source.
    @Test func vertical() {
        let v = built.story.paragraphs.filter(\.style.vertical)
        #expect(v.count == 2)
        #expect(v.allSatisfy { !built.story.text.utf8Slice($0.range).contains(" ") })
    }
    // The Arabic paragraph is RTL and, being natural, right-aligned.
    @Test func rightToLeft() {
        let p = built.story.paragraphs.first { $0.style.direction == .rtl }
        #expect(p?.style.alignment == .right)
    }
    // Every character attribute is used somewhere, and there is a link and a <br>.
    @Test func everyAttributeUsed() {
        let s = built.story.styles
        #expect(s.contains { $0.weight == 300 } && s.contains { $0.slant == .oblique } && s.contains { $0.background != nil })
        #expect(Set(s.map(\.ligatures)) == [0, 1, 2])
        #expect(Set(s.compactMap(\.underline?.style)) == Set(LineStyle.allCases))
        #expect(s.contains { $0.strikethrough?.color != nil } && s.contains { $0.shadow != nil } && s.contains { $0.kern < 0 })
        #expect(s.contains { $0.baselineOffset < 0 } && s.contains { $0.obliqueness != 0 } && s.contains { $0.expansion < 0 })
        #expect(s.contains { $0.direction == .ltr } && s.contains { !$0.features.isEmpty } && s.contains { $0.language == "zh-Hans" })
        #expect(s.contains { !$0.hyphenate } && s.contains { $0.link != nil } && s.contains(where: \.isStroked))
        #expect(built.story.text.contains("\u{2028}") && built.story.text.contains("\u{2067}"))
    }
}

extension String {
    func utf8Slice(_ r: Range<Int>) -> Substring {
        let u = utf8
        let a = u.index(u.startIndex, offsetBy: r.lowerBound)
        return self[a..<u.index(a, offsetBy: r.count)]
    }
}
