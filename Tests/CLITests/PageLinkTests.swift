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
}
