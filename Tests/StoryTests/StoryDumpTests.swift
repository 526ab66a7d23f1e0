import GalleyMarkup
import TestSupport
import Testing

@testable import GalleyStory
@testable import GalleyTemplate

@Suite struct StoryDumpTests {
    let here = GalleyMarkup.SourceLocation(line: 3, column: 2, offset: 20)

    // A hand-made story shows every part: escapes, U+FFFC, stroke in the fill colour, language, dpi, set size, a misplaced end, paragraph fields unlike the template's.
    @Test func everyPart() {
        var map = SourceMap()
        map.add(storyOffset: 0, storyCharacters: 0, source: here)
        let style = ParagraphStyle(alignment: .left, firstLineIndent: 0, spacingAfter: 0, leadingRatio: 1.2)
        let text = "a\t\"中\"\n\u{FFFC}"
        let story = Story(
            text: text,
            styles: [TextStyle(face: "Noto Serif CJK SC", size: 9.5, strokeWidth: 3, language: "zh-Hans")],
            runs: [StyleRun(range: 0..<7, style: 0), StyleRun(range: 8..<11, style: 0)],
            paragraphs: [
                Paragraph(range: 0..<7, end: 7, content: .text, style: style, runs: 0..<1),
                Paragraph(range: 8..<11, end: 11, content: .image(0), style: style, runs: 1..<2),
            ],
            images: [
                ImageReference(
                    source: "a b.png", path: "/x/a b.png", info: ImageInfo(format: .png, pixelWidth: 3, pixelHeight: 4, dpi: 72),
                    width: nil, height: 20.5, location: here)
            ],
            sourceMap: map, faceRequests: [:])
        assertDump(
            StoryDump.dump(story),
            #"""
            "a\t\"中\""
            "\u{FFFC}"
            style 0 face="Noto Serif CJK SC" size=9.5 color=#000000 stroke=fill/3 lang=zh-Hans
            run 0..<5 style 0 "a\t\"中\""
            run 6..<7 style 0 "\u{FFFC}"
            paragraph 0..<5 text end=5 align=left after=0
            paragraph 6..<7 image 0 align=left after=0
            image 0 src="a b.png" png 3x4 px dpi=72 set -x20.5 pt @3:2
            """#)
    }

    // Every new style and paragraph field shows, compactly, only when not the default.
    @Test func newFields() {
        var t = TextStyle(face: "F", size: 9)
        t.weight = 300
        t.slant = .oblique
        t.background = RGBA(1, 1, 0)
        t.ligatures = 0
        t.kern = -0.25
        t.underline = Decoration(style: .wavy)
        t.strikethrough = Decoration(style: .double, color: RGBA(1, 0, 0))
        t.shadow = Shadow(dx: 1, dy: -1, blur: 2.5, color: RGBA(0.5, 0.5, 0.5))
        t.baselineOffset = 3.5
        t.obliqueness = 0.2
        t.expansion = -0.1
        t.direction = .rtl
        t.features = ["smcp", "ss01=2"]
        t.link = "https://example.org/a b"
        t.hyphenate = false
        var p = StoryBuilder.paragraphStyle(for: .default)
        p.alignment = .center
        p.indent = 12
        p.firstLineIndent = -6
        p.spacingBefore = 9
        p.spacingAfter = 4
        p.lineHeight = 14
        p.leadingRatio = 1.5
        p.direction = .ltr
        p.headingLevel = 2
        p.isHeading = true
        p.hyphenate = false
        p.breakBefore = .column
        p.vertical = true
        let story = Story(
            text: "x\u{2028}y", styles: [TextStyle(face: "F", size: 9), t],
            runs: [StyleRun(range: 0..<1, style: 0), StyleRun(range: 1..<5, style: 1)],
            paragraphs: [Paragraph(range: 0..<5, end: 5, content: .text, style: p, runs: 0..<2)],
            images: [], sourceMap: SourceMap(), faceRequests: [:])
        assertDump(
            StoryDump.dump(story),
            #"""
            "x\u{2028}y"
            style 0 face="F" size=9 color=#000000
            style 1 face="F" size=9 color=#000000 weight=300 style=oblique background=#ffff00 ligatures=0 kern=-0.25 underline=wavy strikethrough=double/#ff0000 shadow=1,-1,2.5,#808080 baseline=3.5 obliqueness=0.2 expansion=-0.1 dir=rtl features=smcp,ss01=2 link="https://example.org/a b" hyphenate=false
            run 0..<1 style 0 "x"
            run 1..<3 style 1 "\u{2028}y"
            paragraph 0..<3 text align=center indent=12 firstIndent=-6 before=9 after=4 lineHeight=14 leadingRatio=1.5 dir=ltr h2 heading hyphenate=false break=column vertical
            """#)
    }

    // Paragraph fields are compared with the template passed (here one that is left-aligned).
    @Test func paragraphBaseFromTemplate() {
        var t = Template.default
        t.alignment = .left
        let s = buildStory("x", template: t).story
        #expect(StoryDump.dump(s).hasSuffix("paragraph 0..<1 text align=left\n"))
        #expect(StoryDump.dump(s, template: t).hasSuffix("paragraph 0..<1 text\n"))
    }

    // Numbers are rounded to four decimals.
    @Test func rounding() {
        #expect(StoryDump.number(4.2250000000000005) == "4.225" && StoryDump.number(-1.5) == "-1.5" && StoryDump.number(1e-7) == "0")
    }

    // A samples file dumps without trapping, and its run ranges tile each paragraph.
    @Test func sampleRunsTileParagraphs() {
        for name in ["article.txt", "chinese.txt", "attributes.txt"] {
            let s = buildStory(sample(name), baseDirectory: repoPath("samples")).story
            #expect(!StoryDump.dump(s).isEmpty)
            for p in s.paragraphs {
                let runs = s.runs[p.runs]
                #expect(runs.first?.range.lowerBound == p.range.lowerBound, "\(name)")
                #expect(runs.last?.range.upperBound == p.range.upperBound, "\(name)")
                #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.range.upperBound == $1.range.lowerBound }, "\(name)")
            }
        }
    }
}
