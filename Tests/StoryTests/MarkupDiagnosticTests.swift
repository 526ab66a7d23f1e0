import GalleyMarkup
import GalleyStory
@testable import GalleyTemplate
import TestSupport
import Testing

/// The diagnostics of `text`, rendered as the CLI prints them.
func diagnosticsOf(_ text: String) -> String { buildStory(text).rendered }

// MARK: - Bad values

@Suite struct CharacterValueDiagnosticTests {
    // kern that is not a length.
    @Test func kern() {
        assertDump(
            diagnosticsOf(#"<span kern="wide">x</span>"#),
            #"""
            t.txt:1:13: error: kern must be a number of points or em, got 'wide'
            <span kern="wide">x</span>
                        ^~~~
            """#)
    }
    // kern out of range.
    @Test func kernRange() {
        assertDump(
            diagnosticsOf(#"<span kern="-500">x</span>"#),
            #"""
            t.txt:1:13: error: kern '-500' is out of range (from -100 to 100)
            <span kern="-500">x</span>
                        ^~~~
            """#)
    }
    // shadow with too few parts: the exact message with an example.
    @Test func shadowArity() {
        assertDump(
            diagnosticsOf(#"<span shadow="1 2">x</span>"#),
            #"""
            t.txt:1:15: error: shadow needs 'dx dy blur color', e.g. shadow="1 1 2 gray"
            <span shadow="1 2">x</span>
                          ^~~
            """#)
    }
    // shadow with a word where a length should be.
    @Test func shadowWord() {
        #expect(
            buildStory(#"<span shadow="1 x 2 gray">x</span>"#).diagnostics.all.map(\.message)
                == [#"shadow needs 'dx dy blur color', e.g. shadow="1 1 2 gray""#])
    }
    // A negative blur points at the blur.
    @Test func shadowBlur() {
        assertDump(
            diagnosticsOf(#"<span shadow="1 2 -3 gray">x</span>"#),
            #"""
            t.txt:1:19: error: shadow blur must be 0 or more, got '-3'
            <span shadow="1 2 -3 gray">x</span>
                              ^~
            """#)
    }
    // A bad shadow colour points at the colour, with a suggestion.
    @Test func shadowColour() {
        assertDump(
            diagnosticsOf(#"<span shadow="1 2 3  gren">x</span>"#),
            #"""
            t.txt:1:22: error: unknown colour 'gren'; did you mean 'green'?
            <span shadow="1 2 3  gren">x</span>
                                 ^~~~
            """#)
    }
    // An unknown style, with a suggestion.
    @Test func style() {
        assertDump(
            diagnosticsOf(#"<span style="itallic">x</span>"#),
            #"""
            t.txt:1:14: error: unknown style 'itallic'; did you mean 'italic'?
            <span style="itallic">x</span>
                         ^~~~~~~
            """#)
    }
    // An unknown style with nothing close lists the choices.
    @Test func styleList() {
        #expect(
            buildStory(#"<span style="slanted">x"#).diagnostics.errors.map(\.message)
                == ["unknown style 'slanted'; use normal, italic or oblique"])
    }
    // An unknown underline style, with a suggestion; without one, the list.
    @Test func underline() {
        assertDump(
            diagnosticsOf(#"<span underline="wavey" strikethrough="zigzag">x</span>"#),
            #"""
            t.txt:1:18: error: unknown underline style 'wavey'; did you mean 'wavy'?
            <span underline="wavey" strikethrough="zigzag">x</span>
                             ^~~~~
            t.txt:1:40: error: unknown strikethrough style 'zigzag'; use single, double, thick, dotted, dashed, wavy or none
            <span underline="wavey" strikethrough="zigzag">x</span>
                                                   ^~~~~~
            """#)
    }
    // A decoration colour that is not a colour.
    @Test func underlineColour() {
        #expect(
            buildStory(#"<span underlineColor="bleu">x"#).diagnostics.errors.map(\.message) == [
                "unknown colour 'bleu'; did you mean 'blue'?"
            ])
    }
    // Bad weights: a word, a near miss, a number out of range, a fraction.
    @Test func weight() {
        assertDump(
            diagnosticsOf(
                #"<span weight="heavy">a</span><span weight="blod">b</span><span weight="950">c</span><span weight="450.5">d</span>"#),
            #"""
            t.txt:1:15: error: unknown weight 'heavy'; use 100 to 900, bold or normal
            <span weight="heavy">a</span><span weight="blod">b</span><span weight="950">c</span><span weight="450.5">d</span>
                          ^~~~~
            t.txt:1:44: error: unknown weight 'blod'; did you mean 'bold'?
            <span weight="heavy">a</span><span weight="blod">b</span><span weight="950">c</span><span weight="450.5">d</span>
                                                       ^~~~
            t.txt:1:72: error: weight must be a whole number from 100 to 900, got '950'
            <span weight="heavy">a</span><span weight="blod">b</span><span weight="950">c</span><span weight="450.5">d</span>
                                                                                   ^~~
            t.txt:1:99: error: weight must be a whole number from 100 to 900, got '450.5'
            <span weight="heavy">a</span><span weight="blod">b</span><span weight="950">c</span><span weight="450.5">d</span>
                                                                                                              ^~~~~
            """#)
    }
    // background: a bad colour.
    @Test func background() {
        #expect(
            buildStory(#"<span background="yelow">x"#).diagnostics.errors.map(\.message) == [
                "unknown colour 'yelow'; did you mean 'yellow'?"
            ])
    }
    // ligatures outside 0–2.
    @Test func ligatures() {
        assertDump(
            diagnosticsOf(#"<span ligatures="3">x</span>"#),
            #"""
            t.txt:1:18: error: ligatures must be 0, 1 or 2, got '3'
            <span ligatures="3">x</span>
                             ^
            """#)
    }
    // baseline that is not a length.
    @Test func baseline() {
        assertDump(
            diagnosticsOf(#"<span baseline="up">x</span>"#),
            #"""
            t.txt:1:17: error: baseline must be a number of points or em, got 'up'
            <span baseline="up">x</span>
                            ^~
            """#)
    }
    // obliqueness and expansion outside -1…1.
    @Test func fractions() {
        assertDump(
            diagnosticsOf(#"<span obliqueness="2" expansion="-1.5">x</span>"#),
            #"""
            t.txt:1:20: error: obliqueness must be a number from -1 to 1, got '2'
            <span obliqueness="2" expansion="-1.5">x</span>
                               ^
            t.txt:1:34: error: expansion must be a number from -1 to 1, got '-1.5'
            <span obliqueness="2" expansion="-1.5">x</span>
                                             ^~~~
            """#)
    }
    // dir: a near miss.
    @Test func dir() {
        assertDump(
            diagnosticsOf(#"<span dir="rlt">x</span>"#),
            #"""
            t.txt:1:12: error: unknown direction 'rlt'; did you mean 'rtl'?
            <span dir="rlt">x</span>
                       ^~~
            """#)
    }
    // features: each bad tag is located inside the value; upper case gets a suggestion.
    @Test func features() {
        assertDump(
            diagnosticsOf(#"<span features="smcp SMCP, smallcaps">x</span>"#),
            #"""
            t.txt:1:22: error: bad OpenType feature 'SMCP'; did you mean 'smcp'?
            <span features="smcp SMCP, smallcaps">x</span>
                                 ^~~~
            t.txt:1:28: error: bad OpenType feature 'smallcaps'; a feature is 4 letters or digits, optionally =N, as in 'smcp' or 'ss01=1'
            <span features="smcp SMCP, smallcaps">x</span>
                                       ^~~~~~~~~
            """#)
    }
    // A feature value that is not a whole number.
    @Test func featureValue() {
        #expect(buildStory(#"<span features="ss01=on">x"#).diagnostics.errors.count == 1)
        #expect(buildStory(#"<span features="ss01=">x"#).diagnostics.errors.count == 1)
    }
    // lang: not BCP 47; with an underscore, the hyphenated form is suggested.
    @Test func lang() {
        assertDump(
            diagnosticsOf(#"<span lang="zh_Hans">a</span><span lang="e">b</span>"#),
            #"""
            t.txt:1:13: error: 'zh_Hans' is not a BCP 47 language tag; did you mean 'zh-Hans'?
            <span lang="zh_Hans">a</span><span lang="e">b</span>
                        ^~~~~~~
            t.txt:1:42: error: 'e' is not a BCP 47 language tag such as 'en' or 'zh-Hans'
            <span lang="zh_Hans">a</span><span lang="e">b</span>
                                                     ^
            """#)
    }
    // hyphenate must be true or false.
    @Test func hyphenate() {
        assertDump(
            diagnosticsOf(#"<span hyphenate="no">x</span>"#),
            #"""
            t.txt:1:18: error: hyphenate must be true or false, got 'no'
            <span hyphenate="no">x</span>
                             ^~
            """#)
    }
    // A bad value leaves the field alone and the tag's other attributes apply.
    @Test func badValueKeepsTheRest() {
        let b = buildStory(#"<span kern="wide" weight="bold">x"#)
        #expect(b.story.styles[0].kern == 0 && b.story.styles[0].weight == 700)
        #expect(b.diagnostics.errors.count == 1)
    }
    // A repeated attribute is applied once (the last), so a bad first one is not reported.
    @Test func repeatedAttribute() {
        let b = buildStory(#"<span dir="rlt" dir="rtl">x</span>"#)
        #expect(b.story.text == "\u{2067}x\u{2069}")
        #expect(b.diagnostics.all.map(\.message) == ["attribute 'dir' repeated; the last one is used"])
    }
}

@Suite struct ParagraphValueDiagnosticTests {
    // Every paragraph attribute with a bad value, each at its value.
    @Test func all() {
        assertDump(
            diagnosticsOf(#"<p align="centre" indent="-1" before="x" leading="-20" lineHeight="0" dir="up" hyphenate="1">x</p>"#),
            #"""
            t.txt:1:11: error: unknown alignment 'centre'; did you mean 'center'?
            <p align="centre" indent="-1" before="x" leading="-20" lineHeight="0" dir="up" hyphenate="1">x</p>
                      ^~~~~~
            t.txt:1:27: error: indent must be 0 or more, got '-1'
            <p align="centre" indent="-1" before="x" leading="-20" lineHeight="0" dir="up" hyphenate="1">x</p>
                                      ^~
            t.txt:1:39: error: before must be a number of points or em, got 'x'
            <p align="centre" indent="-1" before="x" leading="-20" lineHeight="0" dir="up" hyphenate="1">x</p>
                                                  ^
            t.txt:1:51: error: leading '-20' leaves no line height (lines are 12 pt apart)
            <p align="centre" indent="-1" before="x" leading="-20" lineHeight="0" dir="up" hyphenate="1">x</p>
                                                              ^~~
            t.txt:1:68: error: lineHeight must be greater than 0, got '0'
            <p align="centre" indent="-1" before="x" leading="-20" lineHeight="0" dir="up" hyphenate="1">x</p>
                                                                               ^
            t.txt:1:76: error: unknown direction 'up'; use ltr, rtl or auto
            <p align="centre" indent="-1" before="x" leading="-20" lineHeight="0" dir="up" hyphenate="1">x</p>
                                                                                       ^~
            t.txt:1:91: error: hyphenate must be true or false, got '1'
            <p align="centre" indent="-1" before="x" leading="-20" lineHeight="0" dir="up" hyphenate="1">x</p>
                                                                                                      ^
            """#)
    }
    // after too large.
    @Test func afterRange() {
        #expect(buildStory(#"<p after="3000">x</p>"#).diagnostics.errors.map(\.message) == ["after '3000' is out of range (at most 2000)"])
    }
}

// MARK: - Structure

@Suite struct StructureDiagnosticTests {
    // </span> with nothing open: a warning, and nothing changes.
    @Test func unmatchedSpan() {
        let b = buildStory("a</span>b")
        assertDump(
            b.rendered,
            #"""
            t.txt:1:2: warning: </span> without a matching <span>; it is ignored
            a</span>b
             ^
            """#)
        #expect(b.story.text == "ab" && b.story.styles.count == 1)
    }
    // </p> with no <p> open.
    @Test func unmatchedP() {
        assertDump(
            diagnosticsOf("a</p>"),
            #"""
            t.txt:1:2: warning: </p> without a matching <p>; it is ignored
            a</p>
             ^
            """#)
    }
    // <a> without href: an error at the tag; its text is set as plain text.
    @Test func linkWithoutHref() {
        let b = buildStory("<a>x</a>y")
        assertDump(
            b.rendered,
            #"""
            t.txt:1:1: error: <a> needs an href attribute
            <a>x</a>y
            ^~
            """#)
        #expect(b.story.styles.count == 1 && b.story.styles[0].link == nil)
    }
    // An empty href.
    @Test func emptyHref() {
        assertDump(
            diagnosticsOf(#"<a href=" ">x</a>"#),
            #"""
            t.txt:1:10: error: empty link href
            <a href=" ">x</a>
                     ^
            """#)
    }
    // <b>…</i>: a warning, and </i> closes the <b> that is open.
    @Test func mismatchedClose() {
        let b = buildStory("<b>x</i>y")
        assertDump(
            b.rendered,
            #"""
            t.txt:1:5: warning: mismatched </i>: it closes <b> (opened at 1:1); expected </b>
            <b>x</i>y
                ^
            """#)
        #expect(b.story.runs.map { b.story.styles[$0.style].weight } == [700, 400])
    }
    // An end tag whose start is open further out closes what is inside it too, with a warning for each.
    @Test func closesInnerContainers() {
        let b = buildStory("<b>a<i>b<u>c</b>d")
        assertDump(
            b.rendered,
            #"""
            t.txt:1:13: warning: </b> also closes <u> (opened at 1:9); expected </u> first
            <b>a<i>b<u>c</b>d
                        ^
            t.txt:1:13: warning: </b> also closes <i> (opened at 1:5); expected </i> first
            <b>a<i>b<u>c</b>d
                        ^
            """#)
        #expect(b.story.styles[b.story.runs.last!.style] == TextStyle(face: "DejaVu Serif", size: 10))
    }
    // </p> closes an inline container left open inside it.
    @Test func blockClosesInline() {
        assertDump(
            diagnosticsOf("<p><b>x</p>y"),
            #"""
            t.txt:1:8: warning: </p> also closes <b> (opened at 1:4); expected </b> first
            <p><b>x</p>y
                   ^
            """#)
    }
    // An inline end tag does not reach out of a block: ignored with a warning.
    @Test func inlineCannotLeaveBlock() {
        assertDump(
            diagnosticsOf("<b><p>x</b></p></b>"),
            #"""
            t.txt:1:8: warning: </b> cannot close <b> (opened at 1:1) from inside <p> (opened at 1:4); it is ignored
            <b><p>x</b></p></b>
                   ^
            """#)
    }
    // Inside a block, a stray inline end tag with no inline container open is ignored.
    @Test func strayInsideBlock() {
        assertDump(
            diagnosticsOf("<p>x</i></p>"),
            #"""
            t.txt:1:5: warning: </i> without a matching <i>; it is ignored
            <p>x</i></p>
                ^
            """#)
    }
    // Heading levels that do not match: the heading still ends, with a warning.
    @Test func headingMismatch() {
        let b = buildStory("<h2>x</h3>y")
        assertDump(
            b.rendered,
            #"""
            t.txt:1:6: warning: mismatched </h3>: it closes <h2> (opened at 1:1); expected </h2>
            <h2>x</h3>y
                 ^
            """#)
        #expect(b.story.paragraphs.count == 2)
    }
    // </font> never closes a container: one crossing a <b> closes it with a warning; with none open it is ignored.
    @Test func fontAcrossContainer() {
        assertDump(
            diagnosticsOf(#"<font color="red"><b>x</font>y</b>"#),
            #"""
            t.txt:1:23: warning: </font> also closes <b> (opened at 1:19); expected </b> first
            <font color="red"><b>x</font>y</b>
                                  ^
            t.txt:1:31: warning: </b> without a matching <b>; it is ignored
            <font color="red"><b>x</font>y</b>
                                          ^
            """#)
    }
    // Containers open at the end of the file: a warning at each opening tag, in order; open fonts are silent.
    @Test func unclosedAtEnd() {
        let b = buildStory("<font color=\"red\"><p>a <b>b <a href=\"x\">c")
        assertDump(
            b.rendered,
            #"""
            t.txt:1:19: warning: <p> is never closed; it runs to the end of the text
            <font color="red"><p>a <b>b <a href="x">c
                              ^~
            t.txt:1:24: warning: <b> is never closed; it runs to the end of the text
            <font color="red"><p>a <b>b <a href="x">c
                                   ^~
            t.txt:1:29: warning: <a> is never closed; it runs to the end of the text
            <font color="red"><p>a <b>b <a href="x">c
                                        ^~
            """#)
        #expect(b.story.text == "a b c")
    }
    // A break with nothing after it.
    @Test func trailingBreak() {
        assertDump(
            diagnosticsOf("a\n<pagebreak>\n"),
            #"""
            t.txt:2:1: warning: <pagebreak> at the end of the text has nothing to break before; it is ignored
            <pagebreak>
            ^~~~~~~~~~
            """#)
    }
    // Breaks in a row are one break (no column or page is left empty), and the others are said.
    @Test func breaksInARow() {
        assertDump(
            diagnosticsOf("a\n<columnbreak>\n<columnbreak><pagebreak>\nb"),
            #"""
            t.txt:3:1: warning: <columnbreak> right after <columnbreak> (at 2:1) makes one break, a <columnbreak>: Galley leaves no column or page empty
            <columnbreak><pagebreak>
            ^~~~~~~~~~~~
            t.txt:3:14: warning: <pagebreak> right after <columnbreak> (at 3:1) makes one break, a <pagebreak>: Galley leaves no column or page empty
            <columnbreak><pagebreak>
                         ^~~~~~~~~~
            """#)
        #expect(buildStory("a\n<columnbreak>\n<columnbreak><pagebreak>\nb").story.paragraphs.last?.style.breakBefore == .page)
    }
    // Warnings do not stop the build; bad values are errors.
    @Test func severities() {
        #expect(!buildStory("<b>x</i>").diagnostics.hasErrors)
        #expect(buildStory(#"<span kern="x">y</span>"#).diagnostics.hasErrors)
    }
}

// MARK: - Invariants and scale

@Suite struct StructureInvariantTests {
    static let inputs = [
        "<b>a<i>b</b>c</i>d", "<p>a\n\n<img src=\"images/chart.png\">\nb</p>", "<span dir=\"rtl\">a\n\nb<br>c</span>",
        "a<pagebreak><columnbreak>\n<vertical>x\n</p>y</vertical>", "<h1>a<h2>b</h1>c</h2>", "<a href=\"x\"><a>y</a>",
        "\n\n<p></p>\n<font size=\"30\">T\n", "<p>x</b></font></span>y", "<sup><sub><u><s>z",
    ]

    // Paragraphs partition the text, runs tile each paragraph, and only empty paragraphs have empty runs.
    @Test(arguments: inputs) func partition(_ input: String) {
        for mode in [ParagraphMode.newline, .blankLine] {
            let s = story(input, mode: mode)
            var at = 0
            for (i, p) in s.paragraphs.enumerated() {
                #expect(p.range.lowerBound == at, "\(i)")
                at = p.end
                let runs = s.runs[p.runs]
                #expect(runs.first?.range.lowerBound == p.range.lowerBound && runs.last?.range.upperBound == p.range.upperBound)
                #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.range.upperBound == $1.range.lowerBound })
                #expect(runs.allSatisfy { !$0.range.isEmpty } || p.range.isEmpty)
            }
            #expect(at == s.text.utf8.count)
        }
    }

    // Every paragraph's isolates are balanced.
    @Test(arguments: inputs) func isolatesBalanced(_ input: String) {
        let s = story(input + "<span dir=\"ltr\">q\nr")
        for p in s.paragraphs {
            var depth = 0
            for u in s.text.utf8Slice(p.range).unicodeScalars {
                if (0x2066...0x2068).contains(u.value) { depth += 1 }
                if u.value == 0x2069 { depth -= 1 }
                #expect(depth >= 0)
            }
            #expect(depth == 0)
        }
    }

    // Matching end tags takes constant time: 50,000 open fonts and as many stray end tags build quickly.
    @Test func manyOpenFonts() {
        let n = 50_000
        let b = buildStory(String(repeating: "<font>", count: n) + "x" + String(repeating: "</i>", count: n))
        #expect(b.diagnostics.all.count == n && b.story.text == "x")
    }
}
