import GalleyMarkup
import GalleyStory
import TestSupport
import Testing

@testable import GalleyTemplate

/// The paragraph lines of the dump of `text`, then its diagnostics.
func paragraphLines(_ text: String, mode: ParagraphMode = .newline) -> String {
    let b = buildStory(text, template: template(mode))
    let lines = StoryDump.dump(b.story).split(separator: "\n").filter { $0.hasPrefix("paragraph ") }
    return lines.joined(separator: "\n") + "\n" + b.rendered
}

// MARK: - <p>

@Suite struct ParagraphTagTests {
    // Every paragraph attribute, in points, on one <p>.
    @Test func attributes() {
        #expect(
            paragraphLines(#"<p align="center" indent="12" firstIndent="-6" before="3" after="4" lineHeight="14">x</p>"#)
                == "paragraph 0..<1 text align=center indent=12 firstIndent=-6 before=3 after=4 lineHeight=14\n")
    }
    // Lengths in em are relative to the text size at the tag; other units are converted.
    @Test func emAndUnits() {
        #expect(
            paragraphLines(#"<font size="20"><p indent="1em" firstIndent="0.5em" before="1pc" after="0.25in">x</p>"#)
                == "paragraph 0..<1 text indent=20 firstIndent=10 before=12 after=18\n")
    }
    // leading is extra space: the line height is size × the template's ratio + leading.
    @Test func leading() {
        #expect(paragraphLines(#"<p leading="2">x</p>"#) == "paragraph 0..<1 text lineHeight=14\n")
        #expect(paragraphLines(#"<font size="20"><p leading="-0.1em">x</p>"#) == "paragraph 0..<1 text lineHeight=22\n")
    }
    // Each alignment; natural is left for LTR text and right for RTL text.
    @Test func alignments() {
        #expect(
            paragraphLines(#"<p align="left">a</p><p align="right">b</p><p align="justify">c</p>"#) == """
                paragraph 0..<1 text align=left
                paragraph 2..<3 text align=right
                paragraph 4..<5 text

                """)
        #expect(
            paragraphLines(#"<p align="natural">hello</p><p align="natural">שלום</p><p align="natural">١٢ مرحبا</p>"#) == """
                paragraph 0..<5 text align=left
                paragraph 6..<10 text align=right
                paragraph 11..<19 text align=right

                """)
    }
    // natural follows an explicit dir before the text's first strong character.
    @Test func naturalFollowsDir() {
        #expect(paragraphLines(#"<p align="natural" dir="rtl">abc</p>"#) == "paragraph 0..<3 text align=right dir=rtl\n")
        #expect(paragraphLines(#"<p align="natural" dir="auto">abc</p>"#) == "paragraph 0..<3 text align=left\n")
    }
    // dir and hyphenate on <p>.
    @Test func dirAndHyphenate() {
        #expect(paragraphLines(#"<p dir="rtl" hyphenate="false">x</p>"#) == "paragraph 0..<1 text dir=rtl hyphenate=false\n")
    }
    // Inside <p> newlines are spaces: wrapped lines join with one space, indentation and trailing blanks dropped.
    @Test func newlinesAreSpaces() {
        assertDump(
            listing("<p>\n  One two  \n    three\n\n four.\n</p>\nNext"),
            #"""
            "One two three four."
            "Next"
            style 0 face="DejaVu Serif" size=10 color=#000000
            run 0..<19 style 0 "One two three four."
            run 20..<24 style 0 "Next"
            paragraph 0..<19 text
            paragraph 20..<24 text
            """#)
    }
    // A newline right after </p> makes no empty paragraph; a second one does (newline mode).
    @Test func newlineAfterEnd() {
        #expect(storyText("<p>a</p>\nb") == "a\nb")
        #expect(storyText("<p>a</p>\n\nb") == "a\n\nb")
    }
    // Text before <p> on the same line is a paragraph of its own; so is text after </p>.
    @Test func textAroundP() {
        #expect(storyText("before <p>in</p>after") == "before \nin\nafter")
    }
    // Two <p>s on one line are two paragraphs; an empty <p></p> makes none.
    @Test func adjacentAndEmpty() {
        #expect(story("<p>a</p><p></p><p>b</p>").paragraphs.count == 2)
    }
    // Inside <p>, a line break between Chinese characters is no space; between Latin words it is one.
    @Test func chineseLineJoins() {
        #expect(storyText("<p>活字\n印刷\nand\nmore</p>") == "活字印刷 and more")
    }
    // Blank-line mode: inside <p> even a blank line is a space; outside, paragraphs work as before.
    @Test func blankLineMode() {
        #expect(storyText("<p>a\n\nb</p>\n\nc\nd", mode: .blankLine) == "a b\nc d")
    }
    // Inline tags inside <p> keep the joining space outside the tags.
    @Test func tagsAtLineEnds() {
        #expect(storyText("<p>one <b>two</b>\n<i>three</i></p>") == "one two three")
    }
    // A <p> opened in an open <p> ends it, as in HTML, where its end tag may be left out: the
    // first ran on through every later <p>, all "never closed".
    @Test func pEndsTheOpenP() {
        #expect(
            paragraphLines(#"<p align="center">a<p indent="5">b</p>c</p>"#) == """
                paragraph 0..<1 text align=center
                paragraph 2..<3 text indent=5
                paragraph 4..<5 text
                t.txt:1:40: warning: </p> without a matching <p>; it is ignored
                <p align="center">a<p indent="5">b</p>c</p>
                                                       ^

                """)
        #expect(paragraphLines("<p>First\nline.\n<p>Second\nline.").hasPrefix("paragraph 0..<11 text\nparagraph 12..<24 text\nt.txt:3:1: warning: <p> is never closed"))
    }
    // A <font> inside <p> ends with it; one before it carries through.
    @Test func fontScopes() {
        let s = story(#"<font color="red">a<p><font size="20">b</p>c"#)
        #expect(s.runs.map { "\(s.styles[$0.style].color)/\(Int(s.styles[$0.style].size))" } == ["#ff0000/10", "#ff0000/20", "#ff0000/10"])
    }
    // A <p> paragraph in a larger size is not taken for a heading; a bare one still is.
    @Test func explicitParagraphIsNoHeading() {
        #expect(
            paragraphLines(#"<font size="30"><p>Big</p><font size="20">Big"# + "\n" + #"<font size="10">body"#) == """
                paragraph 0..<3 text
                paragraph 4..<7 text align=left heading hyphenate=false
                paragraph 8..<12 text

                """)
    }

    // Text set large throughout (the tutorial's files often set it all at 14 pt) is not a row of
    // headings: they were set ragged and kept together, and the columns never balanced. A
    // paragraph is taken for a heading only when the text paragraphs beside it, past empty
    // lines, start at another size.
    @Test func largeTextIsNoRowOfHeadings() {
        let row = (1...3).map { #"<font size="14">Paragraph \#($0)."# }.joined(separator: "\n\n")
        #expect(!paragraphLines(row + "\n" + #"<font size="10">body"#).contains("heading"))
        let titled = #"<font size="24">Title"# + "\n\n" + row
        #expect(paragraphLines(titled).split(separator: "\n").filter { $0.contains("heading") }.count == 1)
    }
    // An image inside <p> ends the text before it; the text after it goes on in the <p>'s style.
    @Test func imageInsideP() {
        #expect(
            paragraphLines(#"<p align="center">a <img src="images/chart.png"> b</p>"#) == """
                paragraph 0..<2 text align=center
                paragraph 3..<4 image 0 align=center
                paragraph 5..<6 text align=center

                """)
    }
}

// MARK: - Headings

@Suite struct HeadingTagTests {
    // <h1>–<h3> take face, size, weight and colour from the template, and its spacing.
    @Test func levels() {
        assertDump(
            listing("<h1>One</h1>\n<h2>Two</h2>\n<h3>Three</h3>\nBody"),
            #"""
            "One"
            "Two"
            "Three"
            "Body"
            style 0 face="DejaVu Sans" size=20 color=#222222 weight=700
            style 1 face="DejaVu Sans" size=15 color=#222222 weight=700
            style 2 face="DejaVu Sans" size=12 color=#222222 weight=700
            style 3 face="DejaVu Serif" size=10 color=#000000
            run 0..<3 style 0 "One"
            run 4..<7 style 1 "Two"
            run 8..<13 style 2 "Three"
            run 14..<18 style 3 "Body"
            paragraph 0..<3 text align=left before=12 h1 heading hyphenate=false
            paragraph 4..<7 text align=left before=9 after=4 h2 heading hyphenate=false
            paragraph 8..<13 text align=left before=6 after=3 h3 heading hyphenate=false
            paragraph 14..<18 text
            """#)
    }
    // Another template's headings; its face is the template's, not requested by the text (a
    // warning about it was said at the heading, as if the text had asked for it).
    @Test func fromTemplate() {
        var t = Template.default
        t.headings.h2 = HeadingSpec(face: "Palatino", size: 14, weight: 600, color: RGBA(0, 0, 1), before: 1, after: 2)
        let s = buildStory("x\n<h2>T</h2>", template: t).story
        let h = s.styles[s.runs[1].style]
        #expect(h.face == "Palatino" && h.size == 14 && h.weight == 600 && h.color == RGBA(0, 0, 1))
        #expect(s.paragraphs[1].style.spacingBefore == 1 && s.paragraphs[1].style.spacingAfter == 2)
        #expect(s.faceRequests.isEmpty)
    }
    // Lines closer than three quarters of the type's size overprint: warned of at the value;
    // type set solid is not.
    @Test func overprintingLinesWarned() {
        let said = buildStory("<p lineHeight=\"4\">a</p>\n<p leading=\"-9\">b</p>\n<p lineHeight=\"10\">c</p>").diagnostics.warnings
        #expect(
            said.map { "\($0.location.map { "\($0)" } ?? ""): \($0.message)" } == [
                "1:16: lines 4 pt apart for 10 pt type print over each other",
                "2:13: lines 3 pt apart for 10 pt type print over each other",
            ])
    }

    // A tab is a space (the font's tab glyph drew an arrow), said once, at the first.
    @Test func tabsAreSpaces() {
        let built = buildStory("Name:\tHesketh\tMate\n<code>a\tb</code>")
        #expect(built.story.text == "Name: Hesketh Mate\na b")
        #expect(
            built.diagnostics.warnings.map { "\($0.location.map { "\($0)" } ?? ""): \($0.message)" } == [
                "1:6: a tab is set as a space: Galley sets no tab stops"
            ])
    }
    // A heading is one paragraph: its newlines are spaces.
    @Test func wrappedHeading() {
        #expect(storyText("<h2>A long\n  heading</h2>\nx") == "A long heading\nx")
    }
    // Paragraph attributes on a heading override the template's (here alignment and spacing).
    @Test func headingAttributes() {
        #expect(
            paragraphLines(#"<h1 align="center" after="0">T</h1>"#)
                == "paragraph 0..<1 text align=center before=12 after=0 h1 heading hyphenate=false\n")
    }
    // A heading has no first-line indent, even when the template has one.
    @Test func noIndent() {
        var t = Template.default
        t.firstLineIndent = 12
        #expect(buildStory("<h3>T</h3>", template: t).story.paragraphs[0].style.firstLineIndent == 0)
    }
    // Inline tags inside a heading add to its style.
    @Test func inlineInsideHeading() {
        let s = story("<h1>A <i>b</i></h1>")
        #expect(s.runs.map { s.styles[$0.style].slant } == [.normal, .italic])
        #expect(s.runs.map { s.styles[$0.style].size } == [20, 20])
    }
    // The heading's style ends with it.
    @Test func styleEnds() {
        let s = story("<h1>A</h1>b")
        #expect(s.styles[s.runs[1].style] == TextStyle(face: "DejaVu Serif", size: 10))
    }
}

// MARK: - Breaks and blocks

@Suite struct BreakTagTests {
    // <br> is U+2028 inside the paragraph.
    @Test func lineBreak() {
        assertDump(
            listing("one<br>two<br/>three"),
            #"""
            "one\u{2028}two\u{2028}three"
            style 0 face="DejaVu Serif" size=10 color=#000000
            run 0..<13 style 0 "one\u{2028}two\u{2028}three"
            paragraph 0..<13 text
            """#)
    }
    // Inside <p>, a newline next to <br> adds no space.
    @Test func lineBreakInP() {
        #expect(storyText("<p>one<br>\n  two\n<br>three</p>") == "one\u{2028}two\u{2028}three")
    }
    // In blank-line mode a wrapped line after <br> joins without a space.
    @Test func lineBreakBlankLineMode() {
        #expect(storyText("a<br>\nb\nc", mode: .blankLine) == "a\u{2028}b c")
    }
    // <br> is mapped to its tag.
    @Test func lineBreakSourceMap() {
        let s = story("ab<br>c")
        #expect(source(s, byte: 2) == "1:3" && source(s, byte: 5) == "1:7")
    }
    // <columnbreak> and <pagebreak> on their own lines: the next paragraph breaks before.
    @Test func breaksOnTheirOwnLines() {
        #expect(
            paragraphLines("a\n<columnbreak>\nb\n<pagebreak>\nc") == """
                paragraph 0..<1 text
                paragraph 2..<3 text break=column
                paragraph 4..<5 text break=page

                """)
    }
    // A break in mid-paragraph ends the paragraph first.
    @Test func breakMidParagraph() {
        #expect(
            paragraphLines("<p>a <columnbreak> b</p>") == """
                paragraph 0..<2 text
                paragraph 3..<4 text break=column

                """)
    }
    // Several breaks in a row are one, with a warning; a page break wins over a column break.
    @Test func severalBreaks() {
        #expect(
            paragraphLines("a<columnbreak><pagebreak><columnbreak>b") == """
                paragraph 0..<1 text
                paragraph 2..<3 text break=page
                t.txt:1:15: warning: <pagebreak> right after <columnbreak> (at 1:2) makes one break, a <pagebreak>: Galley leaves no column or page empty
                a<columnbreak><pagebreak><columnbreak>b
                              ^~~~~~~~~~
                t.txt:1:26: warning: <columnbreak> right after <pagebreak> (at 1:15) makes one break, a <pagebreak>: Galley leaves no column or page empty
                a<columnbreak><pagebreak><columnbreak>b
                                         ^~~~~~~~~~~~

                """)
    }
    // A break before an image moves the image.
    @Test func breakBeforeImage() {
        #expect(
            paragraphLines("a\n<pagebreak>\n<img src=\"images/chart.png\">") == """
                paragraph 0..<1 text
                paragraph 2..<3 image 0 break=page

                """)
    }
    // Blank-line mode: a break between paragraphs.
    @Test func breakBlankLineMode() {
        #expect(
            paragraphLines("a\nb\n\n<pagebreak>\n\nc", mode: .blankLine) == """
                paragraph 0..<3 text
                paragraph 4..<5 text break=page

                """)
    }
    // <vertical>: the paragraphs inside are vertical; the block starts and ends paragraphs.
    @Test func vertical() {
        assertDump(
            paragraphLines("a<vertical>\n竖排\n文字\n</vertical>\nb"),
            """
            paragraph 0..<1 text
            paragraph 2..<4 text vertical
            paragraph 5..<7 text vertical
            paragraph 8..<9 text
            """)
    }
    // A <p> inside <vertical> keeps both.
    @Test func verticalP() {
        #expect(paragraphLines(#"<vertical><p align="center">竖排</p></vertical>"#) == "paragraph 0..<2 text align=center vertical\n")
    }
}
