import Foundation
import GalleyMarkup
import GalleyStory
@testable import GalleyTemplate
import TestSupport
import Testing

// MARK: - Source map and character offsets

@Suite struct SourceMapTests {
    // Text after an entity maps to its own column, past the whole entity.
    @Test func afterAnEntity() {
        let s = story("a &amp; b")
        #expect(s.text == "a & b")
        #expect(source(s, byte: 2) == "1:3")
        #expect(source(s, byte: 4) == "1:9")
    }

    // Inside one run made of several text nodes, every character maps to its own column.
    @Test func acrossMergedNodes() {
        let s = story("ab&amp;cd")
        #expect(s.runs.count == 1)
        #expect(source(s, byte: 3) == "1:8")
        #expect(source(s, byte: 4) == "1:9")
    }

    // Text on a later line, after a tag.
    @Test func laterLine() {
        let s = story("first\nsecond <font color=\"red\">third")
        #expect(source(s, byte: 6) == "2:1")
        #expect(source(s, byte: 13) == "2:26")
    }

    // Text right after an opening tag at the very start.
    @Test func afterLeadingTag() {
        #expect(source(story("<font color=\"red\">a"), byte: 0) == "1:19")
    }

    // A paragraph terminator maps to the newline it came from; U+FFFC to its <img> tag.
    @Test func terminatorsAndObjects() {
        let s = story("ab\n  <img src=\"images/chart.png\">\nc")
        #expect(source(s, byte: 2) == "1:3")
        let object = s.paragraphs[2].range.lowerBound
        #expect(source(s, byte: object) == "2:3")
        #expect(source(s, byte: s.paragraphs[3].range.lowerBound) == "3:1")
    }

    // Blank-line mode: the joining space maps to the newline, the next word to its own line.
    @Test func blankLineJoin() {
        let s = story("one\ntwo", mode: .blankLine)
        #expect(source(s, byte: 3) == "1:4")
        #expect(source(s, byte: 4) == "2:1")
    }

    // CRLF files map later lines correctly.
    @Test func crlf() {
        #expect(source(story("a\r\nbc"), byte: 3) == "2:2")
    }

    // CJK and emoji: columns and character offsets count Unicode scalars, not bytes.
    @Test func cjkAndEmojiColumns() {
        let s = story("中文 <font color=\"red\">字😀x")
        let zi = byte(of: "字", in: s.text)
        #expect(zi == 7)
        #expect(source(s, byte: zi) == "1:22")
        #expect(s.characterOffset(ofByte: zi) == 3)
        let x = byte(of: "x", in: s.text)
        #expect(source(s, byte: x) == "1:24")
        #expect(s.characterOffset(ofByte: x) == 5)
    }

    // Character offsets across paragraphs count terminators, and an emoji with VS16 is two scalars.
    @Test func characterOffsetsAcrossParagraphs() {
        let s = story("📖\n🖨️z\n中")
        #expect(s.characterOffset(ofByte: byte(of: "z", in: s.text)) == 4)
        #expect(s.characterOffset(ofByte: byte(of: "中", in: s.text)) == 6)
        #expect(s.characterOffset(ofByte: s.text.utf8.count) == 7)
    }

    // The source location's byte offset moves with the column.
    @Test func offsetsAdvance() {
        let s = story("é&lt;ü")
        let loc = s.sourceMap.sourceLocation(ofByte: byte(of: "ü", in: s.text), in: s.text)
        #expect(loc?.column == 6)
        #expect(loc?.offset == 6)
    }
}
