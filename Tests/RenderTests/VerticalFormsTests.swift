import Foundation
import GalleyLayout
import GalleyRender
import GalleyTemplate
import TestSupport
import Testing

/// Vertical text as drawn: the fonts' vertical forms stand upright in their cells, numbers of
/// two digits stand upright as one unit (縦中横), the PDF and the PNG agree, and the text
/// extracts in reading order. At 72 dpi and 40 pt, a cell is 40 pixels down the column.
@Suite struct VerticalFormsTests {
    /// The ink's bounding box (x0, y0, x1, y1) of dark pixels in `cell` (the n-th em of the
    /// block's first line).
    func ink(_ png: PNGPixels, line: PlacedLine, cell n: Int, em: Double = 40) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)?
        let top = Int(line.box.y + Double(n) * em)
        for y in top..<(top + Int(em)) {
            for x in Int(line.box.x)..<Int(line.box.maxX) where png[x, y].r < 128 {
                let b = box ?? (x, y, x, y)
                box = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y))
            }
        }
        return box
    }

    /// The first vertical line of `markup` laid out, and its page drawn at 72 dpi.
    func drawn(_ markup: String) throws -> (PlacedLine, PNGPixels, Framesetter) {
        let fs = framesetter(markup)
        let dir = TemporaryDirectory("vertical-forms")
        try Export.png(fs, page: 1, to: dir.file("v.png"), dpi: 72)
        let first = pages(of: fs)[0].frames[0].lines.first { $0.vertical }
        let line = try #require(first)
        return (line, try PNGPixels(path: dir.file("v.png")), fs)
    }

    // （ takes its vertical form, an arc opening downwards: wider than it is tall. ， sits in
    // the upper right quarter of its cell, as a vertical comma does.
    @Test func punctuationTakesItsVerticalForms() throws {
        let (line, png, _) = try drawn(#"<vertical height="400"><p><font size="40">（一，二</font></p></vertical>"#)
        let paren = try #require(ink(png, line: line, cell: 0))
        #expect(paren.2 - paren.0 > 2 * (paren.3 - paren.1), "（ ink \(paren)")
        let comma = try #require(ink(png, line: line, cell: 2))
        let (cx, cy) = (Double(comma.0 + comma.2) / 2, Double(comma.1 + comma.3) / 2)
        #expect(cx > line.box.midX && cy < line.box.y + 2.5 * 40, "， ink \(comma) in column \(line.box)")
        // The ideographs stand upright too: 一 is a wide, flat stroke.
        let one = try #require(ink(png, line: line, cell: 1))
        #expect(one.2 - one.0 > 4 * (one.3 - one.1), "一 ink \(one)")
    }

    // A dash of two ems (one glyph under `vert`) runs down the middle of its two cells and
    // no further; an ellipsis is dots down its cell. Turned with the line, the dash lay across
    // the column, and with one em of advance it ran over the ideographs either side.
    @Test func dashesAndEllipsesRunDownTheColumn() throws {
        let (line, png, _) = try drawn(#"<vertical height="400"><p><font size="40">和——破…好</font></p></vertical>"#)
        for cell in [1, 2] {
            let dash = try #require(ink(png, line: line, cell: cell), "cell \(cell)")
            #expect(dash.3 - dash.1 > 30 && dash.2 - dash.0 < 8, "— ink \(dash) in cell \(cell)")
            #expect(abs(Double(dash.0 + dash.2) / 2 - line.box.midX) < 4, "— ink \(dash) off the column's middle \(line.box)")
        }
        // 破 is in the fourth cell, its ink clear of the dash: nothing of it in the middle of the cell above or below.
        let broken = try #require(ink(png, line: line, cell: 3))
        #expect(broken.2 - broken.0 > 25, "破 ink \(broken)")
        let dots = try #require(ink(png, line: line, cell: 4))
        #expect(dots.3 - dots.1 > 2 * (dots.2 - dots.0), "… ink \(dots)")
    }

    // A right-to-left word in a vertical line turns with the line, as a Latin one does, and is
    // drawn with its text: each piece of it once took its bytes from the wrong end of the run,
    // and Pango stopped the process on an assertion.
    @Test func rightToLeftWordsTurnWithTheLine() throws {
        let fs = framesetter(#"<vertical height="400"><p><font size="20">活字 فذة عربي 活字</font></p></vertical>"#)
        let dir = TemporaryDirectory("vertical-rtl")
        try Export.pdf(fs, to: dir.file("v.pdf"), metadata: PDFMetadata(title: "t", creator: "test", date: Date(timeIntervalSince1970: 0)))
        let text = tool("pdftotext", [dir.file("v.pdf"), "-"]).output
        #expect(text.contains("فذة عربي"), "\(text)")
    }

    // Two digits stand upright side by side in one cell (wider than tall); with tcy="none"
    // they are turned with the line, one below the other (taller than wide).
    @Test func twoDigitsStandUprightAsOneUnit() throws {
        let (line, png, fs) = try drawn(#"<vertical height="400"><p><font size="40">第12页</font></p></vertical>"#)
        let unit = try #require(ink(png, line: line, cell: 1))
        #expect(unit.2 - unit.0 > unit.3 - unit.1, "12 ink \(unit)")
        // The unit is one em long: 页 is in the third cell.
        let text = line.paragraph.text
        #expect(abs(text.x[5] - text.x[3] - 40) < 0.01)
        #expect(fs.story.paragraphs[0].style.uprightDigits == 2)
        let (turnedLine, turnedPNG, _) = try drawn(
            #"<vertical height="400" tcy="none"><p><font size="40">第12页</font></p></vertical>"#)
        let turned = try #require(ink(turnedPNG, line: turnedLine, cell: 1))
        #expect(turned.3 - turned.1 > turned.2 - turned.0, "turned 12 ink \(turned)")
        // Three digits are a longer number: turned with the line.
        let (long, longPNG, _) = try drawn(#"<vertical height="400"><p><font size="40">第123页</font></p></vertical>"#)
        let three = try #require(ink(longPNG, line: long, cell: 1))
        #expect(three.3 - three.1 > three.2 - three.0, "123 ink \(three)")
    }

    // The PDF, drawn by poppler, has its ink where Galley's PNG has it; and its text reads
    // column after column, right to left, both as poppler lays it out and as it is drawn
    // (-raw). An upright unit and a turned word keep their place in the column.
    @Test func pdfAgreesAndExtractsInReadingOrder() throws {
        let text = "活字印刷始于北宋，毕昇以胶泥刻字。第12页写着Pango。"
        let markup = #"<vertical height="120"><p><font size="20">"# + text + "</font></p></vertical>"
        let (line, png, fs) = try drawn(markup)
        let dir = TemporaryDirectory("vertical-pdf")
        try Export.pdf(fs, to: dir.file("v.pdf"), metadata: PDFMetadata(title: "v", creator: "test", date: Date(timeIntervalSince1970: 0)))
        #expect(tool("pdftoppm", ["-r", "72", "-png", "-singlefile", dir.file("v.pdf"), dir.file("p")]).status == 0)
        let poppler = try PNGPixels(path: dir.file("p.png"))
        for cell in 0..<6 {
            let a = ink(png, line: line, cell: cell, em: 20)
            let b = ink(poppler, line: line, cell: cell, em: 20)
            #expect(a != nil && b != nil)
            if let a, let b { #expect(abs(a.0 - b.0) <= 1 && abs(a.1 - b.1) <= 1 && abs(a.2 - b.2) <= 1, "cell \(cell): \(a) \(b)") }
        }
        for mode in [[], ["-raw"]] {
            let out = tool("pdftotext", mode + [dir.file("v.pdf"), "-"])
            let read = String(decoding: out.stdout, as: UTF8.self).filter { !$0.isWhitespace }
            #expect(read.hasPrefix(text), "\(mode): \(read)")
        }
    }
}
