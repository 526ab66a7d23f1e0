import Foundation
import GalleyLayout
import GalleyRender
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// One bookmark as qpdf reads it: title, page (from 1), the y of its target from the page's
/// top, and its children.
private struct Bookmark: Equatable, CustomStringConvertible {
    var title: String
    var page: Int
    var top: Double
    var kids: [Bookmark]
    var description: String { "\(title)@\(page)" + (kids.isEmpty ? "" : "\(kids)") }
}

/// The PDF's outline (qpdf --json), and its page labels.
private func outline(_ path: String, pageHeight: Double) throws -> (bookmarks: [Bookmark], labels: [[String: Any]]) {
    let json = tool("qpdf", ["--json", "--json-key=outlines", "--json-key=pagelabels", path]).output
    let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    func read(_ items: [[String: Any]]) -> [Bookmark] {
        items.map { item in
            let dest = item["dest"] as? [Any] ?? []
            let y = dest.count > 3 ? (dest[3] as? Double ?? 0) : 0
            return Bookmark(
                title: item["title"] as? String ?? "", page: item["destpageposfrom1"] as? Int ?? 0, top: pageHeight - y,
                kids: read(item["kids"] as? [[String: Any]] ?? []))
        }
    }
    return (read(root["outlines"] as? [[String: Any]] ?? []), root["pagelabels"] as? [[String: Any]] ?? [])
}

@Suite struct OutlineTests {
    static let text = """
        <h1>Part One</h1>
        Opening text of part one.
        <h2>Chapter A</h2>
        Text of chapter A.
        <h3>Section   A.1</h3>
        Text.
        <h2>Chapter B</h2>
        Text of chapter B.
        <h1>Part Two</h1>
        <h3>A section under a part</h3>
        <h2>Chapter C</h2>
        Text.
        """

    // Every heading is a bookmark, nested by level (a level skipped nests under the nearest
    // above it), titled with its text, pointing at its first line.
    @Test func nestedByLevel() throws {
        let dir = TemporaryDirectory("outline")
        var t = Template.default
        t.balance = false
        let fs = framesetter(Self.text, template: t)
        try Export.pdf(fs, to: dir.file("o.pdf"), metadata: PDFMetadata(title: "o", creator: "test", date: Date(timeIntervalSince1970: 0)))
        let marks = try outline(dir.file("o.pdf"), pageHeight: t.pageHeight).bookmarks
        #expect(marks.map(\.title) == ["Part One", "Part Two"])
        #expect(marks[0].kids.map(\.title) == ["Chapter A", "Chapter B"])
        #expect(marks[0].kids[0].kids.map(\.title) == ["Section A.1"])
        #expect(marks[1].kids.map(\.title) == ["A section under a part", "Chapter C"])
        // Targets: the page and the top of each heading's first line.
        let lines = pages(of: fs)[0].frames.flatMap(\.lines).filter { $0.lineIndex == 0 }
        let headingTops = lines.filter { fs.story.paragraphs[$0.paragraphIndex].style.headingLevel > 0 }.map(\.box.y)
        func flat(_ b: [Bookmark]) -> [Bookmark] { b.flatMap { [$0] + flat($0.kids) } }
        let all = flat(marks)
        #expect(all.count == 7 && all.allSatisfy { $0.page == 1 })
        #expect(zip(all.map(\.top), headingTops).allSatisfy { abs($0 - $1) < 1 }, "\(all.map(\.top)) \(headingTops)")
    }

    // A story without headings has no outline; a long one has one bookmark per heading, each on
    // the page its heading is on.
    @Test func countsAndPages() throws {
        let dir = TemporaryDirectory("outline")
        let none = run(["build", "-", "-o", dir.file("none.pdf")], stdin: Array("Just text.".utf8))
        #expect(none.status == 0)
        #expect(try outline(dir.file("none.pdf"), pageHeight: 842).bookmarks.isEmpty)
        let body = String(repeating: "Words enough to fill a good part of a column of a page. ", count: 30)
        let text = (1...40).map { "<h2>Heading \($0)</h2>\n\(body)" }.joined(separator: "\n")
        let fs = framesetter(text)
        try Export.pdf(fs, to: dir.file("many.pdf"), metadata: PDFMetadata(title: "m", creator: "t", date: Date(timeIntervalSince1970: 0)))
        let marks = try outline(dir.file("many.pdf"), pageHeight: fs.template.pageHeight).bookmarks
        #expect(marks.count == 40)
        var pageOf: [String: Int] = [:]
        for page in pages(of: fs) {
            for line in page.frames.flatMap(\.lines) where line.lineIndex == 0 && fs.story.paragraphs[line.paragraphIndex].style.isHeading {
                pageOf[Outline.title(of: fs.story.paragraphs[line.paragraphIndex], in: fs.story)] = page.number
            }
        }
        #expect(marks.allSatisfy { pageOf[$0.title] == $0.page }, "\(marks)")
        #expect(Set(marks.map(\.page)).count > 5)
    }

    // startPage numbers the folios and the PDF's page labels from N.
    @Test func startPage() throws {
        let dir = TemporaryDirectory("labels")
        let text = String(repeating: "A paragraph of text long enough to need a few lines in its column.\n", count: 200)
        let r = run(["build", "-", "-o", dir.file("l.pdf"), "--set", "startPage=17"], stdin: Array(text.utf8))
        #expect(r.status == 0)
        let labels = try outline(dir.file("l.pdf"), pageHeight: 842).labels
        #expect(labels.count == 1)
        let label = labels.first?["label"] as? [String: Any]
        #expect(label?["/St"] as? Int == 17 && label?["/S"] as? String == "/D")
        let second = tool("pdftotext", ["-f", "2", "-l", "2", dir.file("l.pdf"), "-"]).output
        #expect(second.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("18"))
    }
}
