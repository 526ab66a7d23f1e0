import Foundation
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// A quadrilateral's bounds in page space, y down: (x, y, width, height).
func bounds(_ quad: [Double], pageHeight: Double) -> (x: Double, y: Double, width: Double, height: Double) {
    let xs = stride(from: 0, to: 8, by: 2).map { quad[$0] }
    let ys = stride(from: 1, to: 8, by: 2).map { pageHeight - quad[$0] }
    return (xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!)
}

/// The expected link rectangles of page 1's lines, from the layout: per line, the extent of the runs of `style`.
private func expectedRects(_ fs: Framesetter, linkColor: RGBA) -> [(x: Double, y: Double, width: Double, height: Double)] {
    firstPageLines(fs).compactMap { line in
        let runs = runExtents(line).filter { fs.story.styles[$0.style].color == linkColor }
        guard let a = runs.map(\.start).min(), let b = runs.map(\.end).max() else { return nil }
        return (a, line.box.y, b - a, line.box.height)
    }
}

@Suite struct AttributeLinkTests {
    // One linked word: one /Link annotation whose rectangle is the word's advance by the line box.
    @Test func oneLinkOneRect() throws {
        let fs = attributed("see <font color=\"blue\">example</font> here") {
            if $0.color == attrBlue { $0.link = "https://example.com/a" }
        }
        let dir = TemporaryDirectory("attr")
        let links = try PDFLinks(try renderPDF(fs, in: dir))
        #expect(links.pages.count == 1)
        let annots = links.pages[0]
        try #require(annots.count == 1)
        #expect(annots[0].uri == "https://example.com/a")
        try #require(annots[0].quads.count == 1)
        let expected = try #require(expectedRects(fs, linkColor: attrBlue).first)
        let got = bounds(annots[0].quads[0], pageHeight: links.pageHeight)
        #expect(abs(got.x - expected.x) < 0.01 && abs(got.width - expected.width) < 0.01, "\(got) vs \(expected)")
        #expect(abs(got.y - expected.y) < 0.01 && abs(got.height - expected.height) < 0.01, "\(got) vs \(expected)")
        // /Rect is the quads' bounds (rounded outwards to whole points by Cairo).
        let r = annots[0].rect
        #expect(r.count == 4 && r[0] <= got.x + 1 && r[2] >= got.x + got.width - 1)
    }

    // A link broken across two lines: one annotation, two rectangles, one per line.
    @Test func brokenAcrossLines() throws {
        let fs = attributed("aa <font color=\"blue\">bbbb cccc dddd eeee</font> ff", template: attributeTemplate(width: 140)) {
            if $0.color == attrBlue { $0.link = "https://example.com/long" }
        }
        let expected = expectedRects(fs, linkColor: attrBlue)
        try #require(expected.count >= 2)
        let dir = TemporaryDirectory("attr")
        let links = try PDFLinks(try renderPDF(fs, in: dir))
        try #require(links.pages.count == 1 && links.pages[0].count == 1)
        let quads = links.pages[0][0].quads.map { bounds($0, pageHeight: links.pageHeight) }
        #expect(quads.count == expected.count)
        for (q, e) in zip(quads, expected) {
            #expect(abs(q.x - e.x) < 0.01 && abs(q.y - e.y) < 0.01 && abs(q.width - e.width) < 0.01 && abs(q.height - e.height) < 0.01)
        }
    }

    // A link across two columns of one page is an annotation a column, each with its lines'
    // rectangles: one annotation's Rect, the union readers go by, covered the text between.
    @Test func acrossColumns() throws {
        let template = attributeTemplate(width: 300, height: 80, columns: 2)
        let fs = attributed("<font color=\"blue\">one two three four five six seven eight nine ten</font>", template: template) {
            if $0.color == attrBlue { $0.link = "https://example.com/cols" }
        }
        let dir = TemporaryDirectory("attr")
        let links = try PDFLinks(try renderPDF(fs, in: dir))
        try #require(links.pages.count >= 1)
        try #require(links.pages[0].count == 2)
        let xs = links.pages[0].map { $0.quads.map { bounds($0, pageHeight: links.pageHeight).x } }
        #expect(xs[0].allSatisfy { $0 < 150 } && xs[1].allSatisfy { $0 > 150 }, "\(xs)")
        #expect(links.pages[0].allSatisfy { $0.uri == "https://example.com/cols" })
    }

    // A link running onto the next page: one annotation on each page, each with its own rectangles.
    @Test func acrossPages() throws {
        let template = attributeTemplate(width: 160, height: 80)
        let fs = attributed("<font color=\"blue\">one two three four five six seven eight nine ten eleven</font>", template: template) {
            if $0.color == attrBlue { $0.link = "https://example.com/pages" }
        }
        let dir = TemporaryDirectory("attr")
        let links = try PDFLinks(try renderPDF(fs, in: dir))
        try #require(links.pages.count >= 2)
        for page in links.pages {
            #expect(page.count == 1)
            #expect(page.first?.uri == "https://example.com/pages")
            #expect((page.first?.quads.count ?? 0) >= 1)
        }
    }

    // Two separate links to the same target are two annotations; a second target is a third.
    @Test func separateLinks() throws {
        let fs = attributed(
            "<font color=\"blue\">aa</font> bb <font color=\"blue\">cc</font> <font color=\"red\">dd</font>",
            template: attributeTemplate(width: 400)
        ) {
            if $0.color == attrBlue { $0.link = "https://example.com/same" }
            if $0.color == attrRed { $0.link = "https://example.com/other" }
        }
        let dir = TemporaryDirectory("attr")
        let links = try PDFLinks(try renderPDF(fs, in: dir))
        let uris = links.pages[0].map(\.uri).sorted()
        #expect(uris == ["https://example.com/other", "https://example.com/same", "https://example.com/same"])
    }

    // One link over two paragraphs (only a newline between its runs) stays one annotation.
    @Test func acrossParagraphs() throws {
        let fs = attributed("<font color=\"blue\">first\nsecond</font>") {
            if $0.color == attrBlue { $0.link = "https://example.com/p" }
        }
        let dir = TemporaryDirectory("attr")
        let links = try PDFLinks(try renderPDF(fs, in: dir))
        try #require(links.pages[0].count == 1)
        #expect(links.pages[0][0].quads.count == 2)
    }

    // Quotes, backslashes, parentheses and non-ASCII in a target: a valid PDF, the URI percent-encoded.
    @Test func awkwardTarget() throws {
        let fs = attributed("<font color=\"blue\">odd</font>") {
            if $0.color == attrBlue { $0.link = "https://example.com/it's\\a(b)/café?q=x y" }
        }
        let dir = TemporaryDirectory("attr")
        let pdf = try renderPDF(fs, in: dir)
        let check = tool("qpdf", ["--check", pdf])
        #expect(check.status == 0, "\(check.output)")
        let links = try PDFLinks(pdf)
        #expect(links.pages[0].map(\.uri) == ["https://example.com/it's%5Ca%28b%29/caf%C3%A9?q=x%20y"])
    }

    // In a PNG a link draws nothing: the pixels are those of the same text without it.
    @Test func nothingInPNG() throws {
        let text = "see <font color=\"blue\">example</font> here"
        let plain = try renderPNG(attributed(text) { _ in })
        let linked = try renderPNG(attributed(text) { if $0.color == attrBlue { $0.link = "https://example.com" } })
        #expect(plain.samples == linked.samples)
    }
}
