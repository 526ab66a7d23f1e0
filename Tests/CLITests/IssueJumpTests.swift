import Foundation
import TestSupport
import Testing

/// Where a jump's lines go on the page, how its continuation stands in the outline, and how
/// the pages an issue adds (fillers, front matter) are placed and numbered.
@Suite struct IssueJumpTests {
    static let body = String(repeating: "The harbour at dawn is a study in grey and silver, with boats. ", count: 6) + "\n"

    /// The PDF's outline as "Issue[Article[Heading], …]", from qpdf's reading of it.
    static func outline(_ pdf: String) throws -> String {
        let json = tool("qpdf", ["--json", "--json-key=outlines", pdf]).output
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        func tree(_ items: [[String: Any]]) -> String {
            items.map { item in
                let kids = item["kids"] as? [[String: Any]] ?? []
                return (item["title"] as? String ?? "") + (kids.isEmpty ? "" : "[" + tree(kids) + "]")
            }.joined(separator: ", ")
        }
        return tree(root["outlines"] as? [[String: Any]] ?? [])
    }

    /// An issue of `articles` (file name, text, and the manifest's fields for it) in `d`.
    static func issue(_ d: TemporaryDirectory, _ articles: [(String, String, String)], extra: String = "") -> String {
        for (name, text, _) in articles { d.write(name, text) }
        let list = articles.map { name, _, fields in #"{"file": "\#(name)"\#(fields)}"# }.joined(separator: ", ")
        return d.write("issue.json", #"{"title": "Harbour Monthly", "articles": [\#(list)]\#(extra)}"#)
    }

    /// An issue of a long article that jumps after its first page over a short one, with the
    /// manifest's `set`, built: the PDF's path.
    static func alphaJumpsOverBeta(_ d: TemporaryDirectory, set: String) throws -> String {
        let manifest = Self.issue(
            d,
            [
                ("a.txt", "<h1>Alpha</h1>\n" + String(repeating: Self.body, count: 30), #", "jump": {"after": 1}"#),
                ("b.txt", "<h1>Beta</h1>\n" + Self.body, ""),
            ], extra: #", "set": "# + set)
        let pdf = d.file("issue.pdf")
        let r = run(["build", manifest, "-o", pdf, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        return pdf
    }

    /// The words of a page with their boxes (pdftotext -bbox): text, x0, y0, x1, y1 from the top.
    static func words(_ pdf: String, page: Int) -> [(text: String, x0: Double, y0: Double, x1: Double, y1: Double)] {
        let html = tool("pdftotext", ["-f", "\(page)", "-l", "\(page)", "-bbox", pdf, "-"]).output
        return html.split(separator: "\n").compactMap { line in
            guard line.contains("<word "), let open = line.firstIndex(of: ">"), let close = line.range(of: "</word>"),
                open < close.lowerBound
            else { return nil }
            func value(_ key: String) -> Double? {
                guard let r = line.range(of: key + #"=""#) else { return nil }
                return Double(line[r.upperBound...].prefix { $0 != "\"" })
            }
            let text = String(line[line.index(after: open)..<close.lowerBound])
            guard let x0 = value("xMin"), let y0 = value("yMin"), let x1 = value("xMax"), let y1 = value("yMax") else { return nil }
            return (text, x0, y0, x1, y1)
        }
    }

    // A file listed again (`allowRepeat`) is a jump's target at its listing after the jump:
    // the target was its first listing, before the jump, and the manifest was refused.
    @Test func aRepeatedArticleAsTheTarget() throws {
        let d = TemporaryDirectory("jump-repeat")
        let manifest = Self.issue(
            d,
            [
                ("b.txt", "<h1>Beta</h1>\n" + Self.body, ""),
                ("a.txt", "<h1>Alpha</h1>\n" + String(repeating: Self.body, count: 40), #", "jump": {"after": 1, "to": "b.txt"}"#),
                ("c.txt", "<h1>Gamma</h1>\n" + Self.body, ""),
                ("b.txt", "<h1>Beta</h1>\n" + Self.body, #", "allowRepeat": true"#),
            ])
        let r = run(["inspect", manifest, "--json", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let map = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let articles = (map["pages"] as? [[String: Any]] ?? []).compactMap { $0["article"] as? String }
        let names = articles.map { URL(fileURLWithPath: $0).lastPathComponent }
        // b, a (its first page), c, b again, then the rest of a.
        #expect(Array(names.prefix(4)) == ["b.txt", "a.txt", "c.txt", "b.txt"] && names.count > 5, "\(names)")
        #expect(names.dropFirst(4).allSatisfy { $0 == "a.txt" }, "\(names)")
        // Its own file listed again: the rest goes after that later listing, not on at once.
        let own = d.write(
            "own.json",
            #"{"articles": [{"file": "a.txt", "jump": {"after": 1, "to": "a.txt"}}, {"file": "c.txt"}, "#
                + #"{"file": "a.txt", "allowRepeat": true}]}"#)
        let o = run(["inspect", own, "--json", "-q"])
        let ownMap = try #require(try JSONSerialization.jsonObject(with: o.stdout) as? [String: Any])
        let ownNames = (ownMap["pages"] as? [[String: Any]] ?? []).compactMap { $0["article"] as? String }
        #expect(Array(ownNames.prefix(3)) == ["a.txt", "c.txt", "a.txt"], "\(ownNames)")
    }

    // An article that starts under another (`startOn: any`) and jumps: "Continued on" goes
    // under its own text at the foot of the page, not under the end of the article above it.
    @Test func theJumpLineOfASharedPageIsUnderTheJumpingArticle() throws {
        let d = TemporaryDirectory("jump-any")
        let manifest = Self.issue(
            d,
            [
                ("c.txt", "<h1>Gamma</h1>\n" + String(repeating: Self.body, count: 9), ""),
                ("a.txt", "<h1>Alpha</h1>\n" + String(repeating: Self.body, count: 40), #", "startOn": "any", "jump": {"after": 1}"#),
                ("b.txt", "<h1>Beta</h1>\n" + Self.body, ""),
            ])
        let pdf = d.file("issue.pdf")
        let r = run(["build", manifest, "-o", pdf, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try #require((1...3).first { tool("pdftotext", ["-f", "\($0)", "-l", "\($0)", pdf, "-"]).output.contains("Alpha") })
        let words = Self.words(pdf, page: page)
        let note = try #require(words.first { $0.text == "Continued" })
        let alpha = try #require(words.first { $0.text == "Alpha" })
        // Below the jumping article's heading and below every word of the text above it.
        let text = words.filter { $0.y1 < note.y0 - 1 }
        #expect(note.y0 > alpha.y1 && note.y0 > (text.map(\.y1).max() ?? 0), "\(note) \(alpha)")
        let below = words.filter { $0.y0 > note.y1 }.map(\.text)
        #expect(below.allSatisfy { Int($0) != nil }, "only the folio under it: \(below)")
    }

    // A continuation's last page taking an article (`startOn: any`) that jumps itself holds
    // two jump lines: "Continued from" over the continuation, "Continued on" under the other.
    // The page had one line, and the second overwrote the first, its link back gone with it.
    @Test func aPageHoldsAContinuedFromAndAContinuedOn() throws {
        let d = TemporaryDirectory("jump-two")
        let manifest = Self.issue(
            d,
            [
                ("d.txt", "<h1>Delta</h1>\n" + String(repeating: Self.body, count: 14), #", "jump": {"after": 1, "to": "e.txt"}"#),
                ("e.txt", "<h1>Echo</h1>\n" + Self.body, ""),
                ("c.txt", "<h1>Gamma</h1>\n" + String(repeating: Self.body, count: 20), #", "startOn": "any", "jump": {"after": 1}"#),
                ("b.txt", "<h1>Beta</h1>\n" + Self.body, ""),
            ])
        let out = d.file("split")
        let r = run(["build", manifest, "-o", d.file("issue.pdf"), "--split", out, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        // d, e, the rest of d with c under it, b, the rest of c. Page 3 has both lines, "from"
        // over all its text and "on" under it.
        let text = tool("pdftotext", ["-f", "3", "-l", "3", d.file("issue.pdf"), "-"]).output
        #expect(text.contains("Continued from page 1") && text.contains("Continued on page 5"), "\(text)")
        let words = Self.words(d.file("issue.pdf"), page: 3)
        let notes = zip(words, words.dropFirst()).filter { $0.0.text == "Continued" }
        let from = try #require(notes.first { $0.1.text == "from" }?.0)
        let on = try #require(notes.first { $0.1.text == "on" }?.0)
        let body = words.filter { ["harbour", "Gamma"].contains($0.text) }
        #expect(body.count > 2 && body.allSatisfy { from.y1 < $0.y0 && $0.y1 < on.y0 }, "\(from) \(on)")
        let links = try PDFLinks(d.file("issue.pdf"))
        #expect(links.pages[2].map(\.destination) == [1, 5] && links.pages[4].map(\.destination) == [3], "\(links.pages)")
        // Each article's own PDF has its line and its link: d's two pages, c's two.
        for name in ["d", "c"] {
            let text = tool("pdftotext", [out + "/\(name).pdf", "-"]).output
            #expect(text.contains(name == "d" ? "Continued from page 1" : "Continued on page 5"), "\(name): \(text)")
            let own = try PDFLinks(out + "/\(name).pdf")
            #expect(own.pages.map { $0.map(\.destination) } == [[2], [1]], "\(name): \(own.pages)")
        }
        // The page map lists both, the one above first.
        let map = try #require(try JSONSerialization.jsonObject(with: run(["inspect", manifest, "--json", "-q"]).stdout) as? [String: Any])
        let page3 = try #require((map["pages"] as? [[String: Any]])?[2])
        let jumps = (page3["jumps"] as? [[String: Any]] ?? []).map { "\($0["text"] ?? "") \($0["target"] ?? "")" }
        #expect(jumps == ["Continued from page 1 1", "Continued on page 5 5"], "\(page3)")
    }

    // A jump's first part ended by a `<pagebreak>` leaves room under it; an article that may
    // start on any page was set there, between the first part and its "Continued on" line.
    // It now starts on the next page.
    @Test func aPageEndingAFirstPartTakesNoArticleUnderIt() throws {
        let d = TemporaryDirectory("jump-break")
        let manifest = Self.issue(
            d,
            [
                (
                    "a.txt", "<h1>Alpha</h1>\nOne line.\n<pagebreak>\n" + String(repeating: Self.body, count: 20),
                    #", "jump": {"after": 1}"#
                ),
                ("b.txt", "<h1>Beta</h1>\n" + Self.body, #", "startOn": "any""#),
            ])
        let m = try IssueBuildTests.map(manifest)
        #expect(m.pages.prefix(2).map(\.article) == ["a.txt", "b.txt"], "\(m.pages.map(\.article))")
        let pdf = d.file("issue.pdf")
        #expect(run(["build", manifest, "-o", pdf, "-q"]).status == 0)
        let first = tool("pdftotext", ["-f", "1", "-l", "1", pdf, "-"]).output
        #expect(first.contains("Continued on page 3") && !first.contains("Beta"), "\(first)")
    }

    // A footer on the side where "Continued on" goes: the two never touch; the jump line is
    // set on the footer's baseline, beside it.
    @Test func theJumpLineKeepsClearOfTheFooter() throws {
        let d = TemporaryDirectory("jump-footer")
        let pdf = try Self.alphaJumpsOverBeta(d, set: #"{"footer": {"right": "{title} · {page}", "size": 11}}"#)
        let words = Self.words(pdf, page: 1)
        let note = words.drop { $0.text != "Continued" }.prefix(4)
        let footer = words.drop { $0.text != "Alpha" || $0.y0 < 700 }.prefix(3)
        #expect(note.count == 4 && footer.count == 3, "\(words.suffix(8))")
        for a in note {
            for b in footer {
                let apart = a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0
                #expect(apart, "\(a) touches \(b)")
            }
        }
    }

    // "Continued from" beside a running head on the other side shares its baseline: it sat
    // on one of its own, a little above or below the head's.
    @Test func continuedFromOnTheHeadsBaseline() throws {
        let d = TemporaryDirectory("jump-head")
        let pdf = try Self.alphaJumpsOverBeta(d, set: #"{"header": {"enabled": true, "right": "{title}", "size": 8}}"#)
        // The continuation's first page, the one saying where it comes from.
        let page = try #require((1...6).first { n in Self.words(pdf, page: n).contains { $0.text == "from" } })
        let words = Self.words(pdf, page: page)
        let note = try #require(words.first { $0.text == "Continued" })
        let head = try #require(words.first { $0.text == "Alpha" && $0.y1 < note.y1 + 20 && $0.x0 > note.x1 })
        // The same size, so on one baseline their boxes have the same foot.
        #expect(abs(note.y1 - head.y1) < 0.5, "\(note) \(head)")
    }

    // Margins too shallow for a jump line, or a footer as wide as the text: the line was set
    // off the page (under it, above it, or left of it) without a word. It now stays on the
    // page, and the build says it has no room.
    @Test func aJumpLineWithNoRoomStaysOnThePageAndIsSaid() throws {
        let d = TemporaryDirectory("jump-room")
        let articles = [
            (
                "a.txt", "<h1>Alpha</h1>\n" + String(repeating: Self.body, count: 40),
                #", "title": "\#(String(repeating: "Long title ", count: 9))", "jump": {"after": 1}"#
            ),
            ("b.txt", "<h1>Beta</h1>\n" + Self.body, ""),
        ]
        for set in [#""margins": "3mm""#, #""margins": "8mm", "footer.text": "{title} · {page}""#] {
            let manifest = Self.issue(d, articles, extra: #", "set": {\#(set)}"#)
            let pdf = d.file("issue.pdf")
            let r = run(["build", manifest, "-o", pdf])
            #expect(
                r.status == 0 && r.stderr.contains("page 1: the jump line 'Continued on page 3' has no room clear of the text"),
                "\(set): \(r.stderr)")
            for page in [1, 3] {
                let note = try #require(Self.words(pdf, page: page).first { $0.text.contains("Continued") }, "\(set): page \(page)")
                #expect(note.x0 >= 0 && note.y0 >= 0 && note.x1 <= 595.3 && note.y1 <= 841.9, "\(set): page \(page): \(note)")
            }
        }
    }

    // The headings of a jump's continuation stay under their article in the outline, and the
    // contents' heading comes first under the issue, as its page does.
    @Test func aContinuationsHeadingsStayUnderItsArticle() throws {
        let d = TemporaryDirectory("jump-outline")
        let parts = (0..<5).map { "<h2>Part \($0)</h2>\n" + String(repeating: Self.body, count: 8) }.joined()
        let manifest = Self.issue(
            d,
            [
                ("a.txt", "<h1>Alpha</h1>\n" + parts, #", "jump": {"after": 1}"#),
                ("b.txt", "<h1>Beta</h1>\n" + Self.body, ""),
            ], extra: #", "contents": {"title": "Contents"}"#)
        let pdf = d.file("issue.pdf")
        #expect(run(["build", manifest, "-o", pdf, "-q"]).status == 0)
        let outline = try Self.outline(pdf)
        let parts4 = (0..<5).map { "Part \($0)" }.joined(separator: ", ")
        // An article's `<h1>` saying its entry's title again adds no level of its own.
        #expect(outline == "Harbour Monthly[Contents, Alpha[\(parts4)], Beta]", "\(outline)")
    }

    // An insert marked filler that names its place goes there (and pads the issue too); those
    // after the cover and the contents are numbered as front matter.
    @Test func placedFillersAndFrontMatterInserts() throws {
        let d = TemporaryDirectory("inserts")
        d.write("ad.png", FileManager.default.contents(atPath: repoPath("samples/images/chart.png"))!)
        let extra = """
            , "frontMatter": "roman", "cover": {"image": "ad.png"}, "contents": {"title": "Contents"},
            "inserts": [{"image": "ad.png", "after": "cover"}, {"image": "ad.png", "after": "a.txt", "filler": true}]
            """
        let articles = [("a.txt", "<h1>Alpha</h1>\n" + Self.body, ""), ("b.txt", "<h1>Beta</h1>\n" + Self.body, "")]
        let manifest = Self.issue(d, articles, extra: extra)
        let m = try IssueBuildTests.map(manifest)
        #expect(m.pages.map(\.kind) == ["cover", "insert", "contents", "article", "insert", "article"], "\(m.pages.map(\.kind))")
        #expect(m.pages.map(\.label) == [nil, "ii", "iii", "4", "5", "6"], "\(m.pages.map(\.label))")
    }

    // In an article's own PDF (--split) holding both halves of its jump, each line links to
    // the other's page of that file.
    @Test func splitJumpLinesLinkWithinTheFile() throws {
        let d = TemporaryDirectory("jump-split")
        let manifest = Self.issue(
            d,
            [
                ("a.txt", "<h1>Alpha</h1>\n" + String(repeating: Self.body, count: 30), #", "jump": {"after": 1}"#),
                ("b.txt", "<h1>Beta</h1>\n" + Self.body, ""),
            ])
        let out = d.file("split")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        #expect(run(["build", manifest, "-o", d.file("issue.pdf"), "--split", out, "-q"]).status == 0)
        let links = try PDFLinks(out + "/a.pdf")
        // The first part's page, then the continuation's.
        #expect(links.pages.count >= 2)
        #expect(links.pages[0].map(\.destination) == [2] && links.pages[1].map(\.destination) == [1], "\(links.pages)")
    }
}
