import Foundation
import GalleyLayout
import GalleyRender
import GalleyTemplate
import TestSupport
import Testing

/// Compressed vertical marks and colour emoji as drawn in a column, at 72 dpi and 40 pt: a
/// cell is 40 pixels down the column, a compressed mark's 20.
@Suite struct VerticalCompressionDrawingTests {
    /// The bounding box (x0, y0, x1, y1) of the pixels `inked` in rows `rows` (points from the
    /// line's top) across the line's strip.
    func ink(
        _ png: PNGPixels, _ line: PlacedLine, rows: Range<Double>, inked: (PNGPixels.Pixel) -> Bool = { $0.r < 128 }
    ) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)?
        for y in Int(line.box.y + rows.lowerBound)..<Int(line.box.y + rows.upperBound) {
            for x in Int(line.box.x)..<Int(line.box.maxX) where inked(png[x, y]) {
                let b = box ?? (x, y, x, y)
                box = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y))
            }
        }
        return box
    }

    /// The first line of `markup` that is (or is not) vertical, and its page drawn at 72 dpi,
    /// by Galley (PNG) and by poppler from Galley's PDF.
    func drawn(_ markup: String, vertical: Bool = true) throws -> (line: PlacedLine, png: PNGPixels, pdf: PNGPixels) {
        let fs = framesetter(markup)
        let dir = TemporaryDirectory("vertical-compression")
        try Export.png(fs, page: 1, to: dir.file("v.png"), dpi: 72)
        let meta = PDFMetadata(title: "v", creator: "test", date: Date(timeIntervalSince1970: 0))
        try Export.pdf(fs, to: dir.file("v.pdf"), metadata: meta)
        #expect(tool("pdftoppm", ["-r", "72", "-png", "-singlefile", dir.file("v.pdf"), dir.file("p")]).status == 0)
        let line = try #require(pages(of: fs)[0].frames[0].lines.first { $0.vertical == vertical })
        return (line, try PNGPixels(path: dir.file("v.png")), try PNGPixels(path: dir.file("p.png")))
    }

    func column(_ text: String) -> String {
        #"<vertical height="400"><p><font size="40">"# + text + "</font></p></vertical>"
    }

    /// Expects the ink in `rows` to lie inside `inside` (points from the line's top), in the
    /// column's right half when `right`.
    func expectInk(
        _ png: PNGPixels, _ line: PlacedLine, rows: Range<Double>, inside: ClosedRange<Double>, right: Bool = false,
        _ what: String
    ) {
        guard let box = ink(png, line, rows: rows) else {
            Issue.record("no ink for \(what)")
            return
        }
        let (top, bottom) = (Double(box.1) - line.box.y, Double(box.3) - line.box.y)
        #expect(top >= inside.lowerBound - 1 && bottom <= inside.upperBound + 1, "\(what): ink \(top)…\(bottom)")
        if right { #expect(Double(box.0) > line.box.midX - 2, "\(what): ink \(box) in \(line.box)") }
    }

    /// Expects no ink in the ideographic spaces' cells `blank` (points from the line's top).
    func expectBlank(_ png: PNGPixels, _ line: PlacedLine, rows: Range<Double>, _ what: String) {
        let box = ink(png, line, rows: rows)
        #expect(box == nil, "\(what): ink \(String(describing: box)) in rows \(rows)")
    }

    // 　。」　: 。 and 」 close, so 。 is half an em (20 px) with its ink, in the upper right of
    // the vertical em, inside it; 」 keeps its em, its ink in the upper half. The ideographic
    // spaces either side stay blank: no ink is pushed out of the marks' cells.
    @Test func closingMarksKeepTheirInkInTheirCells() throws {
        let (line, png, pdf) = try drawn(column("　。」　"))
        for (image, name) in [(png, "png"), (pdf, "pdf")] {
            expectBlank(image, line, rows: 0..<40, "\(name) before 。")
            expectInk(image, line, rows: 40..<60, inside: 40...60, right: true, "\(name) 。")
            expectInk(image, line, rows: 60..<100, inside: 60...80, "\(name) 」")
            expectBlank(image, line, rows: 100..<140, "\(name) after 」")
        }
    }

    // 　「『　: two opening marks; 『 gives the blank above its ink, so its cell (80–100) holds
    // its ink, and 「 keeps its em, ink in the lower half. 　，「　: ， gives its lower half.
    @Test func openingMarksGiveTheBlankAbove() throws {
        let (line, png, pdf) = try drawn(column("　「『　"))
        for (image, name) in [(png, "png"), (pdf, "pdf")] {
            expectBlank(image, line, rows: 0..<40, "\(name) before 「")
            expectInk(image, line, rows: 40..<80, inside: 60...80, "\(name) 「")
            expectInk(image, line, rows: 80..<100, inside: 80...100, "\(name) 『")
            expectBlank(image, line, rows: 100..<140, "\(name) after 『")
        }
        let (comma, commaPNG, commaPDF) = try drawn(column("　，「　"))
        for (image, name) in [(commaPNG, "png"), (commaPDF, "pdf")] {
            expectBlank(image, comma, rows: 0..<40, "\(name) before ，")
            expectInk(image, comma, rows: 40..<60, inside: 40...60, right: true, "\(name) ，")
            expectInk(image, comma, rows: 60..<100, inside: 80...100, "\(name) 「")
            expectBlank(image, comma, rows: 100..<140, "\(name) after 「")
        }
    }

    // “好” between ideographs: the quotes come from the CJK face, an em wide, and stand upright
    // in their vertical forms like 「」: “ inks the lower half of its cell, ” the upper.
    @Test func curlyQuotesStandUprightLikeCornerBrackets() throws {
        let (line, png, pdf) = try drawn(column("　“好”　"))
        for (image, name) in [(png, "png"), (pdf, "pdf")] {
            expectInk(image, line, rows: 40..<80, inside: 60...80, "\(name) “")
            expectInk(image, line, rows: 120..<160, inside: 120...140, "\(name) ”")
            expectBlank(image, line, rows: 160..<200, "\(name) after ”")
        }
    }

    /// The pixels of `box` in `png`, row after row, and its size.
    func crop(_ png: PNGPixels, _ box: (Int, Int, Int, Int)) -> (w: Int, h: Int, at: (Int, Int) -> PNGPixels.Pixel) {
        (box.2 - box.0 + 1, box.3 - box.1 + 1, { png[box.0 + $0, box.1 + $1] })
    }

    /// Mean difference of two crops' channels over the part both cover.
    func difference(
        _ a: (w: Int, h: Int, at: (Int, Int) -> PNGPixels.Pixel), _ b: (w: Int, h: Int, at: (Int, Int) -> PNGPixels.Pixel)
    ) -> Double {
        var sum = 0
        let (w, h) = (min(a.w, b.w), min(a.h, b.h))
        for y in 0..<h {
            for x in 0..<w {
                let (p, q) = (a.at(x, y), b.at(x, y))
                sum += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
            }
        }
        return Double(sum) / Double(max(1, 3 * w * h))
    }

    // 👍 in a column stands as it does in a line: its pixels match the line's, not the line's
    // turned a quarter either way; and it is centred on the column's centre line.
    @Test func emojiStandUprightInAColumn() throws {
        let markup = column("好👍好") + "\n<p><font size=\"40\">好👍好</font></p>"
        let (line, png, pdf) = try drawn(markup)
        let (across, acrossPNG, _) = try drawn(markup, vertical: false)
        func colourful(_ p: PNGPixels.Pixel) -> Bool { max(p.r, p.g, p.b) - min(p.r, p.g, p.b) > 40 }
        let upright = crop(acrossPNG, try #require(ink(acrossPNG, across, rows: 0..<across.box.height, inked: colourful)))
        let turned = [
            (upright.h, upright.w, { upright.at($1, upright.h - 1 - $0) }),
            (upright.h, upright.w, { upright.at(upright.w - 1 - $1, $0) }),
        ]
        for (image, name) in [(png, "png"), (pdf, "pdf")] {
            let box = try #require(ink(image, line, rows: 0..<line.box.height, inked: colourful), "\(name)")
            let down = crop(image, box)
            let same = difference(down, upright)
            let sideways = turned.map { difference(down, $0) }.min()!
            #expect(same * 3 < sideways, "\(name): \(same) against \(sideways) turned")
            #expect(abs(Double(box.0 + box.2) / 2 - line.box.midX) < 2, "\(name): \(box) in \(line.box)")
        }
    }
}
