import Testing

@testable import GalleyRender

/// The slug line's glyphs, as the post-pass outlines them.
@Suite struct SlugOutlineTests {
    // A file name in a script DejaVu Sans lacks takes its glyphs from a face that has them:
    // they were DejaVu Sans's empty box (tofu). Latin stays in DejaVu Sans, advancing along
    // the line, and every glyph has an outline.
    @Test func fileNamesInOtherScripts() {
        let outlines = SlugOutlines()
        let placed = outlines.glyphs("文章 café.txt")
        #expect(placed.count == 11, "\(placed)")
        let fonts = placed.map { $0.glyph >> 32 }
        #expect(fonts[0] == fonts[1] && fonts[0] != fonts[3], "\(fonts)")
        #expect(Set(fonts[3...]).count == 1)
        #expect(zip(placed, placed.dropFirst()).allSatisfy { $0.x < $1.x })
        // All but the space, which has no outline.
        let drawn = placed.filter { outlines.outlines[$0.glyph]?.hasSuffix("f\n") == true }
        #expect(drawn.count == placed.count - 1, "\(placed)")
        #expect(!placed.contains { $0.glyph & 0xFFFF_FFFF == 0 }, "no .notdef: \(placed)")
    }

    // A line wider than its box loses the start of the file's name to an ellipsis and keeps
    // the page and the date: cut at the box's edge it named another file ("tiny.tx").
    @Test func longNamesEllipsized() {
        let outlines = SlugOutlines()
        let line = "a-rather-long-file-name-for-a-small-page.txt  ·  page 12  ·  2026-12-04"
        let whole = outlines.glyphs(line)
        let fitted = outlines.glyphs(line, width: 90)
        #expect(fitted.count < whole.count)
        #expect(fitted.suffix(10).map(\.glyph) == whole.suffix(10).map(\.glyph), "the date kept")
        #expect(fitted.first?.glyph != whole.first?.glyph, "the name's start given up")
        #expect((fitted.last?.x ?? 0) < 90)
    }

    // An Arabic file name is a run inside a left-to-right line, flush left as the preview
    // has it: the line was set right to left and flush right.
    @Test func arabicNamesInALeftToRightLine() {
        let outlines = SlugOutlines()
        let line = PressOutput.slugLine(label: "ملف.txt", folio: "1", date: "2026-12-04")
        let placed = outlines.glyphs(line, width: 300)
        let four = outlines.glyphs("4").first?.glyph
        #expect((placed.map(\.x).min() ?? 99) < 1, "\(placed)")
        #expect(placed.max { $0.x < $1.x }?.glyph == four, "the date last: \(placed)")
    }
}
