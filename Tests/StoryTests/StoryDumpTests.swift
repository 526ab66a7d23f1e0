import GalleyMarkup
@testable import GalleyStory
import TestSupport
import Testing

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
        assertDump(StoryDump.dump(story), #"""
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

    // A samples file dumps without trapping, and its run ranges tile each paragraph.
    @Test func sampleRunsTileParagraphs() {
        for name in ["article.txt", "chinese.txt"] {
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
