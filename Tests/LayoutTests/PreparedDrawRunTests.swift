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

@Suite struct PagesAheadTests {
    // The pages handed over are the pages laid out, each paragraph with its draw runs made once
    // for all its lines on the page; each page is handed over once.
    @Test func pagesComePreparedAndOnce() throws {
        let text = (0..<90).map { i in
            "Paragraph \(i): justified text with <b>bold words</b> and <i>italic ones</i>, long enough to run over several "
                + "lines of a column, and now and then from one page to the next."
        }.joined(separator: "\n")
        let fs = framesetter(text, threads: 1)
        let laidOut = pages(of: fs)
        try #require(laidOut.count >= 3)
        let ahead = PagesAhead(laidOut.map { [$0] })
        defer { ahead.stop() }
        for (k, page) in laidOut.enumerated() {
            let taken = try #require(ahead.take(k, waiting: true)?.first)
            #expect(PageDump.dump(taken, story: fs.story) == PageDump.dump(page, story: fs.story))
            let lines = taken.frames.flatMap(\.lines)
            #expect(lines.allSatisfy { $0.paragraph.preparedLines == $0.paragraph.lines.count })
            let paragraphs = { (lines: [PlacedLine]) in Set(lines.map { ObjectIdentifier($0.paragraph) }).count }
            #expect(paragraphs(lines) == paragraphs(page.frames.flatMap(\.lines)))
            #expect(ahead.take(k) == nil)
        }
    }
}
