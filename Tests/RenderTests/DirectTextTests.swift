import Foundation
import GalleyLayout
import GalleyStory
import GalleyTemplate
import TestSupport
import Synchronization
import Testing

@testable import GalleyRender

/// Tests that toggle `PageRenderer.showsTextDirectly` run one at a time.
@Suite(.serialized) struct DirectTextTests {
    // Runs shown without Pango's renderer give the bytes Pango's renderer gives, in a PDF and a
    // PNG: ligatures and combining marks (clusters of several characters or glyphs), an inline
    // image (an empty glyph), CJK, emoji, right-to-left text and a character no font has (these
    // last two left to Pango), outlines, slant and expansion.
    @Test func sameBytesAsPangosRenderer() throws {
        let markup = """
            Official affine flows: ﬁne “quotes”, e\u{301}\u{327} and ñ, <b>bold</b> <i>italic</i>, \
            <span strokeColor="blue">outlined</span>, <span obliqueness="0.2" expansion="0.3">slanted and wide</span>.
            An image <img src="images/chart.png" width="12" height="10"> inline, 中文排版 and emoji 😀👍🏽.
            עברית and العربية in a line, and an unknown \u{E000}\u{10FFFD} character.
            """
        func build() throws -> (pdf: Data, png: Data) {
            let fs = framesetter(markup)
            let dir = TemporaryDirectory("direct")
            let path = try renderPDF(fs, in: dir)
            try Export.png(fs, page: 1, to: dir.file("p.png"), dpi: 144)
            return (try Data(contentsOf: URL(fileURLWithPath: path)), try Data(contentsOf: URL(fileURLWithPath: dir.file("p.png"))))
        }
        PageRenderer.showsTextDirectly.store(false, ordering: .relaxed)
        let pango = try build()
        PageRenderer.showsTextDirectly.store(true, ordering: .relaxed)
        let direct = try build()
        #expect(!pango.pdf.isEmpty && direct.pdf == pango.pdf)
        #expect(!pango.png.isEmpty && direct.png == pango.png)
    }

    // Lines of several hundred glyphs, a run each (past the first size of the renderer's
    // scratch buffers, which then grow), after short ones: the same bytes either way.
    @Test func longRunsSameBytes() throws {
        var template = attributeTemplate(width: 1400, height: 300)
        template.body = TextSpec(face: "DejaVu Sans", size: 4, leading: 5, color: .black)
        let markup = "Short line.\n" + String(repeating: "Words of a very long line set small, ", count: 60) + "end.\nAnother short one."
        func build() throws -> Data {
            let fs = framesetter(markup, template: template)
            let dir = TemporaryDirectory("direct")
            return try Data(contentsOf: URL(fileURLWithPath: try renderPDF(fs, in: dir)))
        }
        let fs = framesetter(markup, template: template)
        let runs = pages(of: fs)[0].frames.flatMap(\.lines).map { $0.paragraph.drawRuns(line: $0.lineIndex).map(\.glyphs.count).max() ?? 0 }
        #expect(runs.max()! > 600, "\(runs)")
        PageRenderer.showsTextDirectly.store(false, ordering: .relaxed)
        let pango = try build()
        PageRenderer.showsTextDirectly.store(true, ordering: .relaxed)
        let direct = try build()
        #expect(!pango.isEmpty && direct == pango)
    }
}
