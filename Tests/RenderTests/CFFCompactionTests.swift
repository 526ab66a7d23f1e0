import Foundation
import TestSupport
import Testing

/// Cairo is given compact CFF tables: the font's table without the charstrings of glyphs it has
/// not loaded (CGalleyHooks/cff.c, in the galley executable only; these checks run it).
@Suite struct CFFCompactionTests {
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"
    static let cjkBold = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
    static let sansCJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

    /// Compacts a font keeping `gids` (ranges `a-b` and ids, comma-separated; `-` for none);
    /// returns (glyphs that differ, compact and original lengths).
    private func compare(_ path: String, _ index: Int, _ gids: String) -> (Int, Int, Int) {
        let r = runExecutable(["__hooks", "cff-compare", path, "\(index)", gids])
        let n = r.output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return n.count == 3 ? (n[0], n[1], n[2]) : (-99, 0, 0)
    }

    // Read back by FreeType, a compact table has every kept glyph's outline exactly and no other
    // (the offsets of the blocks after the charstrings, the font DICTs and their Private DICTs
    // and subroutines all moved right), and it is a fraction of the font's table.
    @Test(arguments: [(cjk, 2), (cjkBold, 2), (sansCJK, 0)])
    func keptGlyphsReadBackExactly(font: (String, Int)) {
        let (differ, compact, original) = compare(font.0, font.1, "1-3,100,4000,12345,30000,50000,65534,20000-20299")
        #expect(differ == 0)
        #expect(compact > 0 && compact * 5 < original, "\(compact) of \(original) bytes")
    }

    // Keeping nothing but glyph 0, or every glyph, still reads back.
    @Test func extremes() {
        #expect(compare(Self.cjk, 2, "-").0 == 0)
        let (differ, compact, original) = compare(Self.cjk, 2, "0-65534")
        #expect(differ == 0)
        #expect(compact > original / 2)
    }

    // Small tables (a Latin CFF font) are given whole; a TrueType font has no CFF table.
    @Test func smallOrMissingTablesAreNotCompacted() {
        #expect(compare("/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf", 0, "1,2").0 == -1)
        #expect(compare("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 0, "1,2").0 == -1)
    }

    // With the hooks on, the table Cairo read for the Chinese sample was a compact one; with
    // them off, none was made.
    @Test func buildReadsACompactTable() throws {
        let dir = TemporaryDirectory("cff")
        let build = ["build", repoPath("samples/chinese.txt"), "-o", dir.file("t.pdf"), "-q"]
        let on = runExecutable(["__hooks", "after-build", Self.cjk, "2"] + build)
        let length = on.output.split(separator: " ").dropFirst(3).first.flatMap { Int($0) } ?? 0
        #expect(on.output.hasPrefix("status 0 cff ") && length > 0 && length < 8_000_000, "\(on.output)")
        #expect(tool("qpdf", ["--check", dir.file("t.pdf")]).status == 0)
        let off = runExecutable(["__hooks", "after-build", Self.cjk, "2"] + build, hooks: false)
        #expect(off.output.hasPrefix("status 0 cff 0 "), "\(off.output)")
    }
}
