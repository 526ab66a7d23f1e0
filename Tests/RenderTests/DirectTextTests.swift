import Foundation
import GalleyLayout
import GalleyStory
import TestSupport
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
        PageRenderer.showsTextDirectly = false
        let pango = try build()
        PageRenderer.showsTextDirectly = true
        let direct = try build()
        #expect(!pango.pdf.isEmpty && direct.pdf == pango.pdf)
        #expect(!pango.png.isEmpty && direct.png == pango.png)
    }
}
