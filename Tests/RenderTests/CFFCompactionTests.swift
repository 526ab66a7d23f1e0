import CGalleyHooks
import Foundation
import TestSupport
import Testing

/// Cairo is given compact CFF tables: the font's table without the charstrings of glyphs it has
/// not loaded (CGalleyHooks/cff.c).
@Suite struct CFFCompactionTests {
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"
    static let cjkBold = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
    static let sansCJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

    /// Compacts a font keeping `gids`; returns (glyphs that differ, compact and original lengths).
    private func compare(_ path: String, _ index: Int, _ gids: [UInt32]) -> (Int, UInt, UInt) {
        var compact: UInt = 0
        var original: UInt = 0
        let differ = galley_cff_compact_compare(path, index, gids, gids.count, &compact, &original)
        return (differ, compact, original)
    }

    // Read back by FreeType, a compact table has every kept glyph's outline exactly and no other
    // (the offsets of the blocks after the charstrings, the font DICTs and their Private DICTs
    // and subroutines all moved right), and it is a fraction of the font's table.
    @Test(arguments: [(cjk, 2), (cjkBold, 2), (sansCJK, 0)])
    func keptGlyphsReadBackExactly(font: (String, Int)) {
        let gids: [UInt32] = [1, 2, 3, 100, 4_000, 12_345, 30_000, 50_000, 65_534] + Array(20_000..<20_300)
        let (differ, compact, original) = compare(font.0, font.1, gids)
        #expect(differ == 0)
        #expect(compact > 0 && compact * 5 < original, "\(compact) of \(original) bytes")
    }

    // Keeping nothing but glyph 0, or every glyph, still reads back.
    @Test func extremes() {
        #expect(compare(Self.cjk, 2, []).0 == 0)
        let (differ, compact, original) = compare(Self.cjk, 2, Array(0..<65_535))
        #expect(differ == 0)
        #expect(compact > original / 2)
    }

    // Small tables (a Latin CFF font) are given whole; a TrueType font has no CFF table.
    @Test func smallOrMissingTablesAreNotCompacted() {
        #expect(compare("/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf", 0, [1, 2]).0 == -1)
        #expect(compare("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 0, [1, 2]).0 == -1)
    }

    // A PDF made from compact tables is byte for byte the one made from the fonts' own tables
    // (Cairo takes the same glyphs from either), and the table Cairo read was the compact one.
    @Test func pdfIsTheSameFromCompactTables() throws {
        let dir = TemporaryDirectory("cff")
        var pdfs: [Data] = []
        for compact: Int32 in [0, 1] {
            galley_set_cff_compaction(compact)
            defer { galley_set_cff_compaction(1) }
            let out = dir.file("t\(pdfs.count).pdf")
            let r = run(["build", repoPath("samples/chinese.txt"), "-o", out, "-q"])
            #expect(r.status == 0, "\(r.stderr)")
            pdfs.append(try #require(dir.read("t\(pdfs.count).pdf")))
        }
        let same = pdfs[0] == pdfs[1]  // (a Bool: Swift Testing would diff two PDFs byte by byte)
        #expect(same)
        let length = galley_cff_compact_length(Self.cjk, 2)
        #expect(length > 0 && length < 8_000_000, "\(length)")
        #expect(tool("qpdf", ["--check", dir.file("t1.pdf")]).status == 0)
    }
}
