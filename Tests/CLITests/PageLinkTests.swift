import Foundation
import TestSupport
import Testing

/// Links to a page of the document itself (`<a href="#page=N">`) go there, forward and back.
@Suite struct PageLinkTests {
    @Test func forwardAndBack() throws {
        let d = TemporaryDirectory("pagelink")
        let body = String(repeating: "The harbour at dawn is a study in grey and silver, with boats at the quay. ", count: 8) + "\n"
        let text =
            ##"See <a href="#page=3">the third page</a>."## + "\n" + String(repeating: body, count: 40)
            + ##"Back to <a href="#page=1">the first</a>."## + "\n"
        let source = d.write("doc.txt", text)
        let pdf = d.file("doc.pdf")
        let r = run(["build", source, "-o", pdf, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let links = try PDFLinks(pdf)
        try #require(links.pages.count >= 3)
        #expect(links.pages[0].map(\.destination) == [3])
        #expect(links.pages.last?.map(\.destination) == [1])
    }

    // A link broken from one column into the next was one annotation, whose /Rect (the union
    // of its lines, which most readers go by) covered the text between: a click on the other
    // column's words opened it. Each column's lines of it are now an annotation of their own.
    @Test func aLinkAcrossColumnsIsOneAnnotationAColumn() throws {
        let d = TemporaryDirectory("link-columns")
        let words = String(repeating: "harbour grey silver boats quay ", count: 30)
        let source = d.write("doc.txt", ##"Before <a href="https://example.org/long">"## + words + "</a> after.\n")
        let pdf = d.file("doc.pdf")
        let r = run(["build", source, "-o", pdf, "-q", "--set", "page.size=A6", "--set", "columns=2", "--set", "margins=20"])
        #expect(r.status == 0, "\(r.stderr)")
        let first = try #require(try PDFLinks(pdf).pages.first)
        // A6 is 297.6 pt wide: two columns of about 123 pt.
        #expect(first.count == 2, "\(first.map(\.rect))")
        for a in first { #expect(a.rect[2] - a.rect[0] < 130, "\(a.rect)") }
        #expect(Set(first.map(\.uri)) == ["https://example.org/long"])
    }

    // An image set apart from the lines (a float, a block image) inside <a> lost its link: it
    // has no line to carry it. It gets an annotation of its own, over the picture.
    @Test func anImageInsideALinkIsALink() throws {
        let d = TemporaryDirectory("image-links")
        d.write("chart.png", try #require(FileManager.default.contents(atPath: repoPath("samples/images/chart.png"))))
        let source = d.write(
            "doc.txt",
            ##"<a href="https://float.example/"><img src="chart.png" float="left" width="30%"></a>Text beside the float.\n"##
                + ##"<a href="https://block.example/"><img src="chart.png" width="30%"></a>\nAfter.\n"##)
        let pdf = d.file("doc.pdf")
        let r = run(["build", source, "-o", pdf, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let first = try #require(try PDFLinks(pdf).pages.first)
        #expect(Set(first.map(\.uri)) == ["https://float.example/", "https://block.example/"])
        // Over the picture: 30 % of a 246.6 pt column is 74 pt wide.
        for a in first { #expect(abs(a.rect[2] - a.rect[0] - 74) <= 1, "\(a.rect)") }
    }
}

