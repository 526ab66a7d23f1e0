import Foundation
import GalleyMarkup
import GalleyStory
import TestSupport
import Testing

@testable import GalleyTemplate

// MARK: - <font>: the Core Text tutorial's semantics

@Suite struct FontSemanticsTests {
    // An unclosed <font color="red"> colours everything after it, across paragraphs.
    @Test func colourChangesAllTextAfterIt() {
        assertDump(
            listing("Hello <font color=\"red\">world\nnext para"),
            #"""
            "Hello world"
            "next para"
            style 0 face="DejaVu Serif" size=10 color=#000000
            style 1 face="DejaVu Serif" size=10 color=#ff0000
            run 0..<6 style 0 "Hello "
            run 6..<11 style 1 "world"
            run 12..<21 style 1 "next para"
            paragraph 0..<11 text
            paragraph 12..<21 text
            """#)
    }

    // Attributes a <font> leaves out keep the value in force (size stays 20, face stays Helvetica).
    @Test func omittedAttributesKeepTheirValue() {
        assertDump(
            listing("<font face=\"Helvetica\" size=\"20\">a<font color=\"blue\">b"),
            #"""
            "ab"
            style 0 face="Helvetica" size=20 color=#000000
            style 1 face="Helvetica" size=20 color=#0000ff
            run 0..<1 style 0 "a"
            run 1..<2 style 1 "b"
            paragraph 0..<2 text
            """#)
    }

    // </font> returns to the style before its matching <font>, level by level; a stray one warns.
    @Test func closingRestoresThePreviousStyle() {
        assertDump(
            listing("a<font size=\"20\">b<font color=\"blue\">c</font>d</font>e</font>f"),
            #"""
            "abcdef"
            style 0 face="DejaVu Serif" size=10 color=#000000
            style 1 face="DejaVu Serif" size=20 color=#000000
            style 2 face="DejaVu Serif" size=20 color=#0000ff
            run 0..<1 style 0 "a"
            run 1..<2 style 1 "b"
            run 2..<3 style 2 "c"
            run 3..<4 style 1 "d"
            run 4..<6 style 0 "ef"
            paragraph 0..<6 text
            t.txt:1:55: warning: </font> without a matching <font>; it is ignored
            a<font size="20">b<font color="blue">c</font>d</font>e</font>f
                                                                  ^
            """#)
    }

    // A <font> opened inside a <span> ends with it; a </font> after that names the end tag
    // that ended it: it said only "without a matching <font>", with that <font> in sight.
    @Test func aFontEndedByItsSpanIsNamed() {
        let b = buildStory("<span size=\"20\">a<font color=\"blue\">b</span>c</font>d")
        #expect(
            b.rendered.hasPrefix(
                "t.txt:1:46: warning: </font> without a matching <font>: the <font> opened at 1:18 was ended by </span> at 1:38; it is ignored"
            ), "\(b.rendered)")
    }

    // A heading opened inside another splits it without a word: now said.
    @Test func nestedHeadingsAreSaid() {
        let b = buildStory("<h1>Heading <h2>nested</h2> tail</h1>")
        #expect(
            b.rendered.hasPrefix(
                "t.txt:1:13: warning: <h2> inside <h1> (opened at 1:1): headings do not nest, so the <h1> ends here"), "\(b.rendered)")
    }

    // A </font> before any <font> warns and changes nothing.
    @Test func unmatchedCloseWarning() {
        let b = buildStory("x</font>y")
        #expect(
            b.rendered == """
                t.txt:1:2: warning: </font> without a matching <font>; it is ignored
                x</font>y
                 ^

                """)
        #expect(b.story.styles.count == 1 && b.story.runs.count == 1)
    }

    // An unclosed <font> is normal in tutorial files: no diagnostic at all.
    @Test func unclosedFontIsSilent() {
        #expect(buildStory("<font color=\"red\">to the end\nand on").diagnostics.isEmpty)
    }

    // Equal styles are stored once, and runs refer to them by index.
    @Test func stylesAreDeduplicated() {
        let s = story("<font color=\"red\">a</font>b<font color=\"red\">c</font>")
        #expect(s.styles.count == 2)
        #expect(s.runs.map(\.style) == [0, 1, 0])  // styles are numbered as text first uses them
    }

    // A <font> that changes nothing does not split the run.
    @Test func sameStyleMergesRuns() {
        let s = story("a<font color=\"black\">b</font>c")
        #expect(s.runs == [StyleRun(range: 0..<3, style: 0)])
    }

    // Runs never cross a paragraph terminator.
    @Test func runsStopAtParagraphs() {
        #expect(story("a\nb").runs == [StyleRun(range: 0..<1, style: 0), StyleRun(range: 2..<3, style: 0)])
    }

    // The template's body face, size and colour are the starting style.
    @Test func startsFromTheTemplateBody() {
        var t = Template.default
        t.body = TextSpec(face: "DejaVu Sans", size: 9, leading: 11, color: RGBA(0, 0, 1))
        let s = buildStory("x", template: t).story
        #expect(s.styles == [TextStyle(face: "DejaVu Sans", size: 9, color: RGBA(0, 0, 1), language: "en")])
    }

    // A rejected attribute leaves the others of the same tag in force.
    @Test func badAttributeKeepsTheOthers() {
        assertDump(
            listing("<font color=\"gren\" size=\"12pt\">x"),
            #"""
            "x"
            style 0 face="DejaVu Serif" size=12 color=#000000
            run 0..<1 style 0 "x"
            paragraph 0..<1 text
            t.txt:1:14: error: unknown colour 'gren'; did you mean 'green'?
            <font color="gren" size="12pt">x
                         ^~~~
            """#)
    }
}

// MARK: - Strokes

@Suite struct StrokeTests {
    // strokeColor alone gives fill plus outline at Core Text's -3 % of the size.
    @Test func strokeColorAloneIsMinusThree() {
        assertDump(
            StoryDump.dump(story("x<font strokeColor=\"blue\">y")),
            #"""
            "xy"
            style 0 face="DejaVu Serif" size=10 color=#000000
            style 1 face="DejaVu Serif" size=10 color=#000000 stroke=#0000ff/-3
            run 0..<1 style 0 "x"
            run 1..<2 style 1 "y"
            paragraph 0..<2 text
            """#)
    }

    // strokeColor="none" removes the outline, colour and width both.
    @Test func strokeColorNoneRemovesTheStroke() {
        let s = story("<font strokeColor=\"blue\" strokeWidth=\"2\">y<font strokeColor=\"none\">z")
        #expect(s.styles[s.runs[1].style].strokeColor == nil)
        #expect(s.styles[s.runs[1].style].strokeWidth == 0)
        #expect(!s.styles[s.runs[1].style].isStroked)
    }

    // strokeWidth keeps its sign: positive is hollow, negative fills and strokes; no colour means the fill colour.
    @Test func strokeWidthSignKept() {
        assertDump(
            StoryDump.dump(story("<font strokeWidth=\"2\">y</font><font strokeWidth=\"-2\" strokeColor=\"red\">z")),
            #"""
            "yz"
            style 0 face="DejaVu Serif" size=10 color=#000000 stroke=fill/2
            style 1 face="DejaVu Serif" size=10 color=#000000 stroke=#ff0000/-2
            run 0..<1 style 0 "y"
            run 1..<2 style 1 "z"
            paragraph 0..<2 text
            """#)
    }

    // A stroke colour inside a stroked font keeps the width in force instead of resetting it to -3.
    @Test func strokeColorKeepsInheritedWidth() {
        let s = story("<font strokeWidth=\"4\"><font strokeColor=\"red\">x")
        #expect(s.styles[s.runs[0].style].strokeWidth == 4)
        #expect(s.styles[s.runs[0].style].strokeColor == RGBA(1, 0, 0))
    }

    // An explicit strokeWidth="0" wins over the -3 default of a lone colour: no outline.
    @Test func explicitZeroWidthWins() {
        let s = story("<font strokeColor=\"red\" strokeWidth=\"0\">x")
        #expect(s.styles[0].strokeWidth == 0 && !s.styles[0].isStroked)
    }

    // </font> brings the unstroked style back.
    @Test func closingRemovesTheStroke() {
        let s = story("<font strokeColor=\"blue\">a</font>b")
        #expect(s.styles[s.runs[1].style].isStroked == false)
    }
}

// MARK: - Paragraph modes

@Suite struct ParagraphModeTests {
    // Newline mode: every newline ends a paragraph.
    @Test func newlineModeEachLineIsAParagraph() {
        let s = story("a\nb\nc")
        #expect(s.text == "a\nb\nc")
        #expect(s.paragraphs.map(\.range) == [0..<1, 2..<3, 4..<5])
        #expect(s.paragraphs.map(\.end) == [2, 4, 5])
    }

    // Newline mode: an empty line is an empty paragraph, with a zero-length run carrying the style in force.
    @Test func newlineModeEmptyParagraphs() {
        assertDump(
            listing("a\n\n<font size=\"20\">\nb"),
            #"""
            "a"
            ""
            ""
            "b"
            style 0 face="DejaVu Serif" size=10 color=#000000
            style 1 face="DejaVu Serif" size=20 color=#000000
            run 0..<1 style 0 "a"
            run 2..<2 style 0 ""
            run 3..<3 style 1 ""
            run 4..<5 style 1 "b"
            paragraph 0..<1 text
            paragraph 2..<2 text
            paragraph 3..<3 text
            paragraph 4..<5 text
            """#)
    }

    // CRLF line ends are newlines like LF.
    @Test func crlfIsANewline() {
        #expect(storyText("a\r\nb") == "a\nb")
    }

    // An empty source is one empty paragraph.
    @Test func emptySource() {
        let s = story("")
        #expect(s.text == "" && s.paragraphs.count == 1 && s.paragraphs[0].range == 0..<0 && s.paragraphs[0].end == 0)
    }

    // A source ending with a newline: the last paragraph has no terminator (Story's documented invariant).
    @Test func finalNewlineIsNotATerminator() {
        let s = story("a\nb\n")
        #expect(s.text == "a\nb")
        #expect(s.paragraphs.last?.end == 3)
    }

    // Only newlines: one empty paragraph per newline and no terminator after the last.
    @Test func onlyNewlines() {
        let s = story("\n\n")
        #expect(s.paragraphs.count == 2)
        #expect(s.text == "\n")
    }

    // Blank-line mode: a single newline joins lines with one space; a blank line ends the paragraph.
    @Test func blankLineModeJoinsWrappedLines() {
        assertDump(
            listing("one\ntwo\n\nthree", mode: .blankLine),
            #"""
            "one two"
            "three"
            style 0 face="DejaVu Serif" size=10 color=#000000
            run 0..<7 style 0 "one two"
            run 8..<13 style 0 "three"
            paragraph 0..<7 text
            paragraph 8..<13 text
            """#)
    }

    // Blank-line mode: several blank lines (also with spaces on them) are one break; leading and trailing ones are none.
    @Test func blankLineModeSeveralBlankLinesAreOneBreak() {
        #expect(storyText("\n\na\n\n\n\n  \n\nb\n\n\n", mode: .blankLine) == "a\nb")
        #expect(story("a\n\n\n\nb", mode: .blankLine).paragraphs.count == 2)
    }

    // Blank-line mode: the indentation that starts a paragraph is dropped.
    @Test func blankLineModeDropsParagraphIndent() {
        #expect(storyText("  a\n\n\tb", mode: .blankLine) == "a\nb")
    }

    // Blank-line mode: a space already ending the line is the joining space (no double space).
    @Test func blankLineModeNoDoubleSpace() {
        #expect(storyText("a \nb", mode: .blankLine) == "a b")
    }

    // Blank-line mode: a newline inside a <font> still joins with one space.
    @Test func blankLineModeNewlineInsideFont() {
        #expect(storyText("x <font color=\"red\">\n</font>y", mode: .blankLine) == "x y")
    }

    // Blank-line mode: an indented continuation line is joined with exactly one space.
    @Test func blankLineModeContinuationIndent() {
        #expect(storyText("one\n   two", mode: .blankLine) == "one two")
    }

    // Blank-line mode: trailing spaces of a wrapped line collapse into the one joining space.
    @Test func blankLineModeTrailingSpacesOfWrappedLine() {
        #expect(storyText("one   \ntwo", mode: .blankLine) == "one two")
    }

    // Blank-line mode: paragraphs still partition the text (a trailing space before a blank line belongs to no paragraph today).
    @Test func blankLineModeParagraphsPartitionText() {
        for input in ["one \n\ntwo", "a\n<img src=\"images/chart.png\">\nb"] {
            let s = story(input, mode: .blankLine)
            for (i, p) in s.paragraphs.enumerated().dropLast() {
                #expect(p.end == p.range.upperBound + 1, "paragraph \(i) of \(dumpQuoted(input))")
                #expect(p.end == s.paragraphs[i + 1].range.lowerBound)
            }
        }
    }
}

// MARK: - Attribute values

@Suite struct AttributeValueTests {
    // An unknown colour name suggests the nearest one, pointing at the value.
    @Test func badColourDidYouMean() {
        #expect(
            buildStory("Hi <font color=\"bleu\">x").rendered == """
                t.txt:1:17: error: unknown colour 'bleu'; did you mean 'blue'?
                Hi <font color="bleu">x
                                ^~~~

                """)
    }

    // Colour forms: CSS names, #rgb, rgb().
    @Test func colourForms() {
        let s = story("<font color=\"rebeccapurple\">a<font color=\"#0f0\">b<font color=\"rgb(255, 0, 0)\">c")
        #expect(s.styles.map { "\($0.color)" } == ["#663399", "#00ff00", "#ff0000"])
    }

    // A size that is not a number.
    @Test func sizeNotANumber() {
        #expect(
            buildStory("<font size=\"big\">x").rendered == """
                t.txt:1:13: error: size must be a number of points, got 'big'
                <font size="big">x
                            ^~~

                """)
    }

    // A size of zero or less.
    @Test func sizeNotPositive() {
        #expect(buildStory("<font size=\"-3\">x").diagnostics.all.map(\.message) == ["size must be greater than 0, got '-3'"])
        #expect(buildStory("<font size=\"0\">x").diagnostics.all.map(\.message) == ["size must be greater than 0, got '0'"])
    }

    // A vertical block's height below its least says so, not that it is out of range above.
    @Test func verticalHeightTooSmall() {
        let said = buildStory("<vertical height=\"-5\">縦</vertical>").diagnostics.all.map(\.message)
        #expect(said == ["height must be at least 1 pt, got '-5'"])
    }

    // A box's negative margin is an error at it, not a box left out without a word.
    @Test(arguments: ["aside", "pullquote"]) func negativeBoxMargin(tag: String) {
        let built = buildStory("x\n<\(tag) margin=\"-3\">Kept.</\(tag)>\n")
        #expect(built.diagnostics.all.map(\.message) == ["margin must be 0 or more, got '-3'"])
    }

    // Out-of-range size, strokeWidth and an empty face, each located at its value.
    @Test func outOfRange() {
        assertDump(
            buildStory("<font face=\" \" strokeWidth=\"200\" size=\"5000\">x").rendered,
            #"""
            t.txt:1:13: warning: empty face name; the face around it is kept
            <font face=" " strokeWidth="200" size="5000">x
                        ^
            t.txt:1:29: error: strokeWidth '200' is out of range (at most 100)
            <font face=" " strokeWidth="200" size="5000">x
                                        ^~~
            t.txt:1:40: error: size '5000' is out of range (at most 2000)
            <font face=" " strokeWidth="200" size="5000">x
                                                   ^~~~
            """#)
    }

    // Sizes take length units: 12pt is 12, 0.5in is 36.
    @Test func sizeUnits() {
        let s = story("<font size=\"12pt\">a<font size=\"0.5in\">b")
        #expect(s.styles.map(\.size) == [12, 36])
    }

    // The first place a face is asked for is remembered (for "not installed" warnings).
    @Test func faceRequests() {
        let s = story("x\n<font face=\"Palatino\">a</font><font face=\"Palatino\">b")
        #expect(s.faceRequests.mapValues { "\($0)" } == ["Palatino": "2:13"])
    }
}

@Suite struct StyleHashTests {
    // Styles that differ only in their link target, face, background, decorations or shadow hash
    // apart: a document of posts has thousands of link styles, which interning would otherwise
    // pile into one bucket (quadratic time).
    @Test func stylesHashApartByWhatTellsThemApart() {
        let base = TextStyle(face: "DejaVu Sans", size: 9, color: RGBA(0, 0, 0), language: "en")
        var variants: [TextStyle] = []
        for i in 0..<200 {
            var s = base
            s.link = "https://example.com/p/\(i)"
            variants.append(s)
        }
        var other = base
        other.face = "DejaVu Serif"
        variants.append(other)
        other = base
        other.background = RGBA(1, 1, 0)
        variants.append(other)
        other = base
        other.underline = Decoration(style: .wavy)
        variants.append(other)
        other = base
        other.shadow = Shadow(dx: 1, dy: 1, blur: 2, color: RGBA(0.5, 0.5, 0.5))
        variants.append(other)
        #expect(Set(variants.map(\.hashValue)).count == variants.count)
        // Interning them: each found again.
        var index: [TextStyle: Int] = [:]
        for (i, s) in variants.enumerated() { index[s] = i }
        #expect(variants.indices.allSatisfy { index[variants[$0]] == $0 })
    }
}
