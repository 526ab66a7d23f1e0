import Foundation
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// Every attribute the renderer draws, one per coloured run, in a story of numbered words.
private func everyAttribute(template: Template) -> Framesetter {
    let colours = ["#010000", "#020000", "#030000", "#040000", "#050000", "#060000", "#070000", "#080000", "#090000", "#0a0000"]
    var markup = ""
    var n = 0
    for paragraph in 0..<3 {
        var words: [String] = []
        for c in colours {
            let group = (0..<4).map { _ in
                n += 1
                return "word\(n)"
            }.joined(separator: " ")
            words.append("<font color=\"\(c)\">\(group)</font>")
        }
        markup += words.joined(separator: " ") + (paragraph < 2 ? "\n" : "")
    }
    return attributed(markup, template: template) { s in
        switch Int((s.color.red * 255).rounded()) {
        case 1: s.strokeWidth = -3
        case 2: s.strokeWidth = 3
        case 3: s.shadow = Shadow(dx: 1, dy: 1, blur: 1.5, color: RGBA(0, 0, 0, 0.5))
        case 4: s.shadow = Shadow(dx: 1, dy: 1, blur: 0, color: RGBA(0, 0, 1))
        case 5: s.obliqueness = 0.25
        case 6: s.expansion = 0.2
        case 7: s.background = RGBA(1, 1, 0)
        case 8:
            s.underline = Decoration(style: .wavy)
            s.strikethrough = Decoration(style: .double, color: RGBA(1, 0, 0))
        case 9: s.baselineOffset = 3
        case 10:
            s.link = "https://example.com/x"
            s.expansion = -0.1
            s.obliqueness = -0.1
            s.shadow = Shadow(dx: -1, dy: 1, blur: 3, color: RGBA(0, 0.5, 0))
        default: break
        }
    }
}

@Suite struct AttributePDFTextTests {
    // pdftotext reads every word once, in order, through strokes, shadows, slants, expansion, backgrounds and decorations.
    @Test func wordsOnceInOrder() throws {
        let fs = everyAttribute(template: attributeTemplate(width: 300, height: 400))
        let dir = TemporaryDirectory("attr")
        let pdf = try renderPDF(fs, in: dir)
        let extracted = words(tool("pdftotext", ["-raw", pdf, "-"]).output)
        let expected = words(fs.story.text)
        #expect(expected.count == 120)
        #expect(extracted == expected, "\(extracted.prefix(20))")
    }

    // The same over two columns and several pages.
    @Test func wordsInOrderOverPages() throws {
        let fs = everyAttribute(template: attributeTemplate(width: 300, height: 150, columns: 2))
        let dir = TemporaryDirectory("attr")
        let pdf = try renderPDF(fs, in: dir)
        let pages = tool("pdfinfo", [pdf]).output.contains("Pages:          1\n")
        #expect(!pages)
        #expect(words(tool("pdftotext", ["-raw", pdf, "-"]).output) == words(fs.story.text))
    }

    // A character no font has is drawn as Pango's box, and copied as itself: the box's hex
    // digits were the text ("Before 012 000 after"), and the words around it stay text.
    @Test func missingCharacterCopiesAsItself() throws {
        let fs = framesetter("Before \u{12000} after, and <b>bold \u{12001}</b> too.\n")
        let dir = TemporaryDirectory("attr")
        let pdf = try renderPDF(fs, in: dir)
        let text = tool("pdftotext", ["-raw", pdf, "-"]).output
        #expect(text.hasPrefix("Before \u{12000} after, and bold \u{12001} too."), "\(text)")
    }

    // qpdf finds nothing wrong with a PDF that uses every attribute, links included.
    @Test func validPDF() throws {
        let fs = everyAttribute(template: attributeTemplate(width: 300, height: 150, columns: 2))
        let dir = TemporaryDirectory("attr")
        let q = tool("qpdf", ["--check", try renderPDF(fs, in: dir)])
        #expect(q.status == 0, "\(q.output)\(q.stderr)")
    }

    // The PDF and the PNG put backgrounds, decorations and shadows in the same places: the PDF
    // rasterised by pdftoppm at 144 dpi matches Galley's own PNG within a pixel or two.
    @Test func pdfMatchesPNG() throws {
        let fs = attributed("ab <font color=\"red\" size=\"30\">Hg</font> cd") {
            guard $0.color == attrRed else { return }
            $0.background = attrYellow
            $0.underline = Decoration(style: .thick, color: attrBlue)
            $0.shadow = Shadow(dx: 3, dy: 3, blur: 2, color: RGBA(0, 0.7, 0))
            $0.obliqueness = 0.2
        }
        let dir = TemporaryDirectory("attr")
        let pdf = try renderPDF(fs, in: dir)
        let r = tool("pdftoppm", ["-png", "-r", "144", "-singlefile", pdf, dir.file("ppm")])
        try #require(r.status == 0, "\(r.stderr)")
        let fromPDF = try PNGPixels(path: dir.file("ppm.png"))
        let own = try renderPNG(fs)
        #expect(fromPDF.width == own.width && fromPDF.height == own.height)
        func greenish(_ p: PNGPixels.Pixel) -> Bool { Int(p.g) - Int(p.r) > 40 && Int(p.g) - Int(p.b) > 40 && p.r < 200 }
        for predicate in [yellowPixel, bluePixel, redPixel, greenish] as [(PNGPixels.Pixel) -> Bool] {
            let a = Ink(fromPDF, where: predicate)
            let b = Ink(own, where: predicate)
            #expect(!a.isEmpty && !b.isEmpty)
            #expect(
                abs(a.minX - b.minX) <= 2 && abs(a.maxX - b.maxX) <= 2 && abs(a.minY - b.minY) <= 2 && abs(a.maxY - b.maxY) <= 2,
                "pdf \(a.minX),\(a.minY)–\(a.maxX),\(a.maxY) png \(b.minX),\(b.minY)–\(b.maxX),\(b.maxY)")
            #expect(abs(a.centroid.x - b.centroid.x) < 1.5 && abs(a.centroid.y - b.centroid.y) < 1.5)
        }
    }

    // Not a timing test: each shadowed run is one mask image at the resolution its blur needs
    // (0.75 px per σ = blur / 2, between 72 and 300 ppi), so a page of shadowed text has bounded
    // memory and file size.
    @Test func shadowMasksBounded() throws {
        let text = plainParagraphs(2)
        let template = attributeTemplate(width: 420, height: 600)
        for blur in [0.5, 2.0, 12.0] {
            let fs = attributed("<font color=\"red\">" + text + "</font>", template: template) {
                if $0.color == attrRed { $0.shadow = Shadow(dx: 1, dy: 1, blur: blur, color: RGBA(0, 0, 0, 0.4)) }
            }
            let dir = TemporaryDirectory("attr")
            let pdf = try renderPDF(fs, in: dir)
            let lines = firstPageLines(fs).count
            // pdfimages -list: page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
            let rows = tool("pdfimages", ["-list", "-f", "1", "-l", "1", pdf]).output.split(separator: "\n").dropFirst(2)
                .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            let masks = rows.filter { $0.count > 13 && $0[2] == "smask" }
            #expect(masks.count == lines, "blur \(blur): \(masks.count) masks for \(lines) lines")
            for m in masks {
                let ppi = Double(m[12]) ?? 0
                let needed = min(300, max(72, 0.75 / (blur / 2) * 72))
                #expect(abs(ppi - needed) <= 1, "blur \(blur): \(ppi) ppi, \(needed) needed")
            }
            let size = (try FileManager.default.attributesOfItem(atPath: pdf)[.size] as? Int) ?? 0
            let pages = Int(tool("pdfinfo", [pdf]).output.firstMatch(of: /Pages:\s+(\d+)/)?.1 ?? "1") ?? 1
            #expect(size < pages * lines * 100_000, "blur \(blur): \(size) bytes, \(pages) pages of \(lines) lines")
            // The masks of a page, all of one colour, are painted through one soft mask.
            let raw = String(decoding: try Data(contentsOf: URL(fileURLWithPath: pdf)), as: UTF8.self)
            let softMasks = raw.ranges(of: "/Type /Mask").count
            #expect(softMasks == pages, "blur \(blur): \(softMasks) soft masks on \(pages) pages")
        }
    }
}
