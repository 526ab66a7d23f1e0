import GalleyStory
import GalleyTemplate
import Glibc
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

    /// Long paragraphs over narrow columns: most of them run on from one page to the next.
    private func runningOnPages() -> [Page] {
        let text = (0..<8).map { i in
            String(repeating: "Paragraph \(i) goes on with <i>words</i> set justified and hyphenated over pages. ", count: 30)
        }.joined(separator: "\n")
        let fs = framesetter(text, threads: 1)
        return pages(of: fs)
    }

    // A page made ahead holds the draw runs of its own lines only (a paragraph running on to
    // the next page is not prepared whole), and they are the runs made when drawn.
    @Test func aPageMadeAheadHoldsItsOwnLinesRuns() {
        let pages = runningOnPages()
        #expect(pages.count >= 3)
        var straddling = 0
        for page in pages {
            #expect(page.needsDrawRuns)
            let prepared = DrawAhead.prepared(page)
            #expect(!prepared.needsDrawRuns)
            for (frame, made) in zip(page.frames, prepared.frames) {
                for (line, ahead) in zip(frame.lines, made.lines) {
                    let p = ahead.paragraph
                    #expect(p.preparedStart <= line.lineIndex && line.lineIndex < p.preparedStart + p.preparedLines)
                    #expect(describe(p.drawRuns(line: line.lineIndex)) == describe(line.paragraph.drawRuns(line: line.lineIndex)))
                    if p.preparedLines < p.lines.count { straddling += 1 }
                }
            }
        }
        #expect(straddling > 0)
    }

    // The helper prepares the pages the drawing thread has not reached, and hands each over once.
    @Test func theHelperPreparesThePagesAhead() throws {
        let pages = runningOnPages()
        let ahead = try #require(DrawAhead(pages: pages, window: pages.count))
        defer { ahead.stop() }
        var waited = 0
        while !ahead.isPrepared(pages.count - 1) && waited < 500 {
            usleep(10_000)
            waited += 1
        }
        for i in pages.indices {
            #expect(!ahead.take(i).needsDrawRuns)
            #expect(ahead.take(i).needsDrawRuns)  // taken: the page as it was given
        }
    }

    // The renderer's work (a PDF's shadow masks) is handed each paragraph made ahead, with
    // room for what it makes, once a page, after the runs of the page's lines are made.
    @Test func theRenderersWorkSeesEachParagraphMadeAhead() {
        for page in runningOnPages() {
            var seen: [Range<Int>] = []
            let prepared = DrawAhead.prepared(page) { l in
                #expect(l.preparedForDrawing != nil)
                seen.append(l.preparedLineRange)
            }
            var expected: [ObjectIdentifier: Range<Int>] = [:]
            for line in prepared.frames.flatMap(\.lines) {
                let p = line.paragraph
                #expect(p.preparedLineRange.contains(line.lineIndex))
                expected[ObjectIdentifier(p)] = p.preparedLineRange
            }
            #expect(seen.count == expected.count)
            #expect(Set(seen.map(\.lowerBound)) == Set(expected.values.map(\.lowerBound)))
        }
    }

    // Pages that carry their runs already need no helper.
    @Test func preparedPagesNeedNoHelper() {
        let pages = runningOnPages().map { DrawAhead.prepared($0) }
        #expect(DrawAhead(pages: pages) == nil)
    }
}
