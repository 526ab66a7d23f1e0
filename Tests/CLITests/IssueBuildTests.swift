import Foundation
import TestSupport
import Testing

/// Issue builds through the CLI: one manifest, many articles, one PDF whose folios run on,
/// whose contents give each article's real first page, and whose outline nests articles.
@Suite struct IssueBuildTests {
    /// A small issue in a folder of its own: a cover, the contents, three articles (the second
    /// starting on a right-hand page), an insert, padded to a multiple of 4.
    static func issue(_ d: TemporaryDirectory, articles: [String]? = nil) -> String {
        let body = "The harbour at dawn is a study in grey and silver, with boats that rock against the quay. "
        let texts = articles ?? [
            "<h1>First Light</h1>\n" + String(repeating: String(repeating: body, count: 6) + "\n", count: 12),
            "<h1>The Night Shift</h1>\n<h2>At ten</h2>\n" + String(repeating: String(repeating: body, count: 5) + "\n", count: 4),
            "<h1>Tides</h1>\n" + String(repeating: body, count: 3) + "\n",
        ]
        for (k, t) in texts.enumerated() { d.write("a\(k + 1).txt", t) }
        d.write("cover.png", FileManager.default.contents(atPath: repoPath("samples/images/chart.png"))!)
        let list = texts.indices.map { k in
            k == 1 ? #"{"file": "a2.txt", "section": "Features", "byline": "I. Carrow", "startOn": "recto"}"# : #"{"file": "a\#(k + 1).txt"}"#
        }.joined(separator: ",\n    ")
        return d.write(
            "issue.json",
            """
            {
              "title": "Harbour Monthly", "issue": "No. 12", "pageMultiple": 4,
              "cover": {"image": "cover.png", "lines": [{"text": "The printing issue"}]},
              "contents": {"title": "In this issue"},
              "articles": [
                \(list)
              ],
              "inserts": [{"image": "cover.png", "after": "a1.txt"}]
            }
            """)
    }

    struct MapPage: Decodable {
        var index: Int
        var folio: Int
        var label: String?
        var kind: String
        var article: String?
    }
    struct Map: Decodable {
        var pages: [MapPage]
        var contentsPasses: Int
    }

    static func map(_ manifest: String) throws -> Map {
        let r = run(["inspect", manifest, "--json", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        return try JSONDecoder().decode(Map.self, from: r.stdout)
    }

    // The page map: cover, contents, the articles with their insert, the blank page before a
    // right-hand start, padding to a multiple of 4; folios run on and labels follow them.
    @Test func pageMap() throws {
        let d = TemporaryDirectory("issue")
        let m = try Self.map(Self.issue(d))
        let kinds = m.pages.map(\.kind)
        #expect(kinds.first == "cover" && kinds[1] == "contents")
        #expect(m.pages.count % 4 == 0)
        #expect(m.pages.map(\.folio) == Array(1...m.pages.count))
        #expect(m.pages[0].label == nil)
        #expect(m.pages.dropFirst().allSatisfy { $0.label == String($0.folio) })
        let a2 = try #require(m.pages.first { $0.article == "a2.txt" })
        #expect(a2.folio % 2 == 1, "a recto start: \(m.pages.map { "\($0.folio) \($0.kind)" })")
        let insert = try #require(kinds.firstIndex(of: "insert"))
        #expect(m.pages[insert - 1].article == "a1.txt")
        #expect(m.contentsPasses >= 1 && m.contentsPasses <= 3)
    }

    // Each contents entry's page number is the page the article starts on, and the PDF's
    // folios, outline and text say the same.
    @Test func contentsAndFolios() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d)
        let pdf = d.file("issue.pdf")
        let r = run(["build", manifest, "-o", pdf])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(tool("qpdf", ["--check", pdf]).status == 0)
        let m = try Self.map(manifest)
        let contents = tool("pdftotext", ["-f", "2", "-l", "2", "-layout", pdf, "-"]).output
        for (k, title) in ["First Light", "The Night Shift", "Tides"].enumerated() {
            let start = try #require(m.pages.first { $0.article == "a\(k + 1).txt" })
            let line = contents.split(separator: "\n").first { $0.contains(title) }.map(String.init) ?? ""
            #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("\(start.folio) "), "\(title): \(contents)")
            // The article's first page shows its title, and its footer the folio.
            let page = tool("pdftotext", ["-f", "\(start.index)", "-l", "\(start.index)", pdf, "-"]).output
            #expect(page.contains(title) && page.contains("\(start.folio)"), "\(title): \(page)")
        }
        let info = tool("pdfinfo", [pdf]).output
        #expect(info.split(separator: "\n").contains { $0.hasPrefix("Title:") && $0.hasSuffix(" Harbour Monthly") }, "\(info)")
    }

    // Bad manifests: located errors, and nothing written.
    @Test func badManifest() {
        let d = TemporaryDirectory("issue")
        let manifest = d.write("issue.json", #"{"title": "X", "articles": [{"file": "missing.txt"}]}"#)
        let r = run(["build", manifest, "-o", d.file("issue.pdf")])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("\(manifest):1:"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: d.file("issue.pdf")))
    }
}
