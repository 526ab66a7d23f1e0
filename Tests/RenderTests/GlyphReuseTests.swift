import Foundation
import TestSupport
import Testing

/// Cairo's glyph loads served from glyphs loaded once in font units (CGalleyHooks/glyphs.c) must
/// be exactly FreeType's: every point, tag, contour, metric and advance. The hooks are in the
/// galley executable only, so these checks run it (`galley __hooks …`).
@Suite struct GlyphReuseTests {
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"
    static let cjkBold = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
    static let roman = "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf"
    static let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

    /// Sizes: body text, a fractional size, a headline, and the 1000-pixel em Cairo loads a PDF's
    /// glyphs at. Transforms: none, a shear (obliqueness), and a rotation with scaling.
    static let sizes = [10.0, 7.3, 23.0, 1000.0]
    static let matrices: [[Double]] = [[1, 0, 0, 1], [1, 0.2, 0, 1], [0.8, -0.6, 0.6, 0.8]]

    /// The number of glyphs served otherwise than FreeType loads them.
    func differing(_ font: String, _ index: Int, _ ppem: Double, _ m: [Double], _ first: Int, _ count: Int) -> String {
        let args = ["__hooks", "glyph-compare", font, "\(index)", "\(ppem)"] + m.map { "\($0)" } + ["\(first)", "\(count)"]
        return runExecutable(args).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // CID-keyed CFF (Noto Serif CJK, collection faces 2 and 0): glyphs from the start, the
    // ideographs and the end of the font.
    @Test(arguments: sizes) func cidKeyedCFFMatchesFreeType(ppem: Double) {
        for m in Self.matrices {
            for (index, first) in [(2, 0), (2, 20_000), (0, 40_000), (2, 65_300)] {
                #expect(differing(Self.cjk, index, ppem, m, first, 120) == "0", "face \(index) glyphs \(first)… at \(ppem) \(m)")
            }
        }
    }

    // Bold CJK and a plain (name-keyed) CFF font, every glyph of the latter.
    @Test(arguments: sizes) func otherCFFFontsMatchFreeType(ppem: Double) {
        for m in Self.matrices {
            #expect(differing(Self.cjkBold, 2, ppem, m, 30_000, 120) == "0")
            #expect(differing(Self.roman, 0, ppem, m, 0, 1_000) == "0")
        }
    }

    // TrueType outlines are left to FreeType; a missing file is said to be one.
    @Test func otherFontsAreNotServed() {
        #expect(differing(Self.dejavu, 0, 10, [1, 0, 0, 1], 0, 10) == "-2")
        #expect(differing("/nonexistent/font.otf", 0, 10, [1, 0, 0, 1], 0, 10) == "-1")
    }

    // A shaping thread's loader makes each glyph once, and only for fonts the hook serves.
    @Test func loaderMakesEachGlyphOnce() {
        let r = runExecutable(["__hooks", "glyph-loader", Self.cjk, "3", "5000", "100", "5050", "100", "5000", "150"])
        #expect(r.output == "100 50 0 state 0\n", "\(r.stderr)")
        #expect(runExecutable(["__hooks", "glyph-loader", Self.dejavu, "0", "1", "10"]).output == "0 state 2\n")
        #expect(runExecutable(["__hooks", "glyph-loader", "/nonexistent/font.otf", "0", "1", "10"]).output == "0 state 2\n")
    }

    // A build serves Cairo's loads, with the hooks on: a face is checked on its first loads,
    // then trusted, and the PDF holds the text. With GALLEY_NO_HOOKS=1 the hook never sees it.
    @Test func buildServesCairosLoads() throws {
        let hangul = String((0..<60).map { Character(Unicode.Scalar(0xAC00 + $0 * 37)!) })
        let dir = TemporaryDirectory("glyphs")
        dir.write("t.txt", "<font face=\"Noto Serif CJK KR\">\(hangul)</font>")
        let build = ["build", dir.file("t.txt"), "-o", dir.file("t.pdf"), "-q"]
        let on = runExecutable(["__hooks", "after-build", Self.cjk, "1"] + build)
        #expect(on.output.hasPrefix("status 0 ") && on.output.hasSuffix(" glyphs 1\n"), "\(on.output) \(on.stderr)")
        #expect(tool("qpdf", ["--check", dir.file("t.pdf")]).status == 0)
        #expect(tool("pdftotext", [dir.file("t.pdf"), "-"]).output.filter { !$0.isWhitespace }.hasPrefix(hangul))
        let off = runExecutable(["__hooks", "after-build", Self.cjk, "1"] + build, hooks: false)
        #expect(off.output == "status 0 cff 0 glyphs 2\n", "\(off.output)")
    }
}
