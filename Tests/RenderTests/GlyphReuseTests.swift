import CGalleyHooks
import Foundation
import TestSupport
import Testing

/// Cairo's glyph loads served from glyphs loaded once in font units (CGalleyHooks/glyphs.c) must
/// be exactly FreeType's: every point, tag, contour, metric and advance.
@Suite struct GlyphReuseTests {
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"
    static let cjkBold = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
    static let roman = "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf"
    static let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

    /// Sizes: body text, a fractional size, a headline, and the 1000-pixel em Cairo loads a PDF's
    /// glyphs at. Transforms: none, a shear (obliqueness), and a rotation with scaling.
    static let sizes = [10.0, 7.3, 23.0, 1000.0]
    static let matrices: [[Double]] = [[1, 0, 0, 1], [1, 0.2, 0, 1], [0.8, -0.6, 0.6, 0.8]]

    // CID-keyed CFF (Noto Serif CJK, collection faces 2 and 0): glyphs from the start, the
    // ideographs and the end of the font.
    @Test(arguments: sizes) func cidKeyedCFFMatchesFreeType(ppem: Double) {
        for m in Self.matrices {
            for (index, first) in [(2, 0), (2, 20_000), (0, 40_000), (2, 65_300)] {
                #expect(galley_glyph_compare(Self.cjk, index, ppem, m, first, 120) == 0, "face \(index) glyphs \(first)… at \(ppem) \(m)")
            }
        }
    }

    // Bold CJK and a plain (name-keyed) CFF font, every glyph of the latter.
    @Test(arguments: sizes) func otherCFFFontsMatchFreeType(ppem: Double) {
        for m in Self.matrices {
            #expect(galley_glyph_compare(Self.cjkBold, 2, ppem, m, 30_000, 120) == 0)
            #expect(galley_glyph_compare(Self.roman, 0, ppem, m, 0, 1_000) == 0)
        }
    }

    // TrueType outlines are left to FreeType; a missing file is said to be one.
    @Test func otherFontsAreNotServed() {
        #expect(galley_glyph_compare(Self.dejavu, 0, 10, [1, 0, 0, 1], 0, 10) == -2)
        #expect(galley_glyph_compare("/nonexistent/font.otf", 0, 10, [1, 0, 0, 1], 0, 10) == -1)
    }

    // A shaping thread's loader makes each glyph once, and only for fonts the hook serves.
    @Test func loaderMakesEachGlyphOnce() {
        let loader = galley_glyph_loader_new()
        defer { galley_glyph_loader_free(loader) }
        let gids: [UInt32] = Array(5_000..<5_100) + Array(5_050..<5_150)
        #expect(galley_glyph_loader_prepare(loader, Self.cjk, 3, gids, gids.count) == 150)
        #expect(galley_glyph_loader_prepare(loader, Self.cjk, 3, gids, gids.count) == 0)
        #expect(galley_glyph_loader_prepare(loader, Self.dejavu, 0, gids, gids.count) == 0)
        #expect(galley_glyph_loader_prepare(loader, "/nonexistent/font.otf", 0, gids, gids.count) == 0)
        #expect(galley_glyph_reuse_state(Self.cjk, 3) == 0)
    }

    // A build serves Cairo's loads: a face no other test uses (Noto Serif CJK KR, face 1 of
    // the collection) is checked on its first loads, then trusted, and the PDF holds the text.
    // (That served loads give the very PDF FreeType's give is the comparisons above, glyph by
    // glyph: Cairo keeps the glyphs it has loaded for the life of the process, so a second
    // build in this process would not load them again.)
    @Test func buildServesCairosLoads() throws {
        #expect(galley_glyph_reuse_state(Self.cjk, 1) == 2)
        let hangul = String((0..<60).map { Character(Unicode.Scalar(0xAC00 + $0 * 37)!) })
        let dir = TemporaryDirectory("glyphs")
        dir.write("t.txt", "<font face=\"Noto Serif CJK KR\">\(hangul)</font>")
        let r = run(["build", dir.file("t.txt"), "-o", dir.file("t.pdf"), "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(galley_glyph_reuse_state(Self.cjk, 1) == 1)
        #expect(tool("qpdf", ["--check", dir.file("t.pdf")]).status == 0)
        let text = tool("pdftotext", [dir.file("t.pdf"), "-"]).output
        #expect(text.filter { !$0.isWhitespace }.hasPrefix(hangul))
    }
}
