import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

@Suite struct PreparedDrawRunTests {
    /// A line's draw runs as text: font, style, position, width, and each glyph with its advance.
    private func describe(_ runs: [DrawRun]) -> String {
        runs.map { r in
            let glyphs = zip(r.glyphs, r.clusters).map { "\($0.glyph):\($0.geometry.width)@\($1)" }.joined(separator: " ")
            return "font \(r.font) style \(r.style) x \(r.x) w \(r.width) \(r.storyRange) hyphen \(r.isHyphen) [\(glyphs)]"
        }.joined(separator: "\n")
    }

    // Draw runs made ahead on a shaping thread are the ones the drawing thread would make, line
    // for line, on justified, hyphenated, mixed-style text.
    @Test func preparedRunsAreTheRunsMadeWhenDrawn() {
        let text = (0..<12).map { i in
            "Paragraph \(i): justified text with <b>bold words</b>, <u>underlined</u> and <font color=\"red\">coloured</font> "
                + "ones, long enough to be hyphenated across several lines of a narrow column."
        }.joined(separator: "\n")
        let fs = framesetter(text, threads: 1)
        var lines = 0
        for page in pages(of: fs) {
            for frame in page.frames {
                for line in frame.lines {
                    let layout = line.paragraph
                    let prepared = layout.preparingDrawing()
                    #expect(describe(prepared.drawRuns(line: line.lineIndex)) == describe(layout.drawRuns(line: line.lineIndex)))
                    lines += 1
                }
            }
        }
        #expect(lines > 20)
    }
}
