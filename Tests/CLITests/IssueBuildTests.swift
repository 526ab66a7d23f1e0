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
        let texts =
            articles ?? [
                "<h1>First Light</h1>\n" + String(repeating: String(repeating: body, count: 6) + "\n", count: 12),
                "<h1>The Night Shift</h1>\n<h2>At ten</h2>\n" + String(repeating: String(repeating: body, count: 5) + "\n", count: 4),
                "<h1>Tides</h1>\n" + String(repeating: body, count: 3) + "\n",
            ]
        for (k, t) in texts.enumerated() { d.write("a\(k + 1).txt", t) }
        d.write("cover.png", FileManager.default.contents(atPath: repoPath("samples/images/chart.png"))!)
        let list = texts.indices.map { k in
            k == 1
                ? #"{"file": "a2.txt", "section": "Features", "byline": "I. Carrow", "startOn": "recto"}"# : #"{"file": "a\#(k + 1).txt"}"#
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

    // `inspect --lines` of an issue dumps each page's lines under the issue's page and its
    // part: it was ignored, the page map alone printed.
    @Test func linesOfAnIssue() throws {
        let d = TemporaryDirectory("issue")
        let r = run(["inspect", Self.issue(d), "--lines", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.output.contains("issue page 2 (folio 2), contents: page 1 "), "\(r.output)")
        #expect(r.output.contains(" |First Light|"), "\(r.output)")
        let plain = run(["inspect", Self.issue(d), "-q"]).output
        #expect(!plain.contains("issue page") && r.output.hasPrefix(plain.prefix(40)))
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
        // Each contents entry links to its article's first page, a page written after it.
        let starts = (1...3).compactMap { k in m.pages.first { $0.article == "a\(k).txt" }?.index }
        let links = try PDFLinks(pdf)
        #expect(links.pages[1].map(\.destination) == starts.map { Optional($0) }, "\(links.pages[1])")
    }

    // The contents page's running head says the issue's title in `{issue}`, as the articles'
    // pages do (it was empty there).
    @Test func contentsRunningHeadNamesTheIssue() throws {
        let d = TemporaryDirectory("issue-heads")
        let manifest = IssueJumpTests.issue(
            d, [("a.txt", "<h1>Alpha</h1>\n" + IssueJumpTests.body, "")],
            extra: #", "contents": {"title": "Inside"}, "set": {"header": {"enabled": true, "text": "{issue} / {title}"}}"#)
        let pdf = d.file("issue.pdf")
        try #require(run(["build", manifest, "-o", pdf, "-q"]).status == 0)
        let contents = tool("pdftotext", ["-f", "1", "-l", "1", pdf, "-"]).output
        #expect(contents.hasPrefix("Harbour Monthly / Inside\n"), "\(contents)")
    }

    // An article titled as the issue keeps its own entry under the issue's (only an article's
    // own PDF, `--split`, has its entry for the root).
    @Test func anArticleTitledAsTheIssueKeepsItsEntry() throws {
        let d = TemporaryDirectory("issue-outline")
        let articles = [("a.txt", "<h1>Alpha</h1>\n" + IssueJumpTests.body, ""), ("b.txt", "<h2>Echo</h2>\n" + IssueJumpTests.body, "")]
        let manifest = IssueJumpTests.issue(d, articles)
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        d.write("issue.json", text.replacingOccurrences(of: #"{"file": "b.txt""#, with: #"{"file": "b.txt", "title": "Harbour Monthly""#))
        let pdf = d.file("issue.pdf")
        let r = run(["build", manifest, "-o", pdf, "--split", d.file("split"), "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        let issue = try IssueJumpTests.outline(pdf)
        #expect(issue == "Harbour Monthly[Alpha, Harbour Monthly[Echo]]", "\(issue)")
        #expect(try IssueJumpTests.outline(d.file("split/b.pdf")) == "Harbour Monthly[Echo]")
    }

    // A jump: the first page in place, the rest after the last article, each end naming the
    // other's folio; an edit that moves the continuation moves both numbers.
    @Test func jumpLines() throws {
        let d = TemporaryDirectory("issue")
        let body = String(repeating: "The harbour at dawn is a study in grey and silver, with boats. ", count: 6) + "\n"
        var manifest = Self.issue(d, articles: ["<h1>Long</h1>\n" + String(repeating: body, count: 60), "<h1>Short</h1>\n" + body])
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        text = text.replacingOccurrences(of: #"{"file": "a1.txt"}"#, with: #"{"file": "a1.txt", "jump": {"after": 1}}"#)
        manifest = d.write("issue.json", text)
        func check() throws {
            let pdf = d.file("issue.pdf")
            #expect(run(["build", manifest, "-o", pdf, "-q"]).status == 0)
            let m = try Self.map(manifest)
            let long = m.pages.filter { $0.article == "a1.txt" }
            let short = try #require(m.pages.first { $0.article == "a2.txt" })
            #expect(long.count >= 2 && long[1].folio > short.folio, "\(m.pages.map { "\($0.folio) \($0.article ?? $0.kind)" })")
            let first = tool("pdftotext", ["-f", "\(long[0].index)", "-l", "\(long[0].index)", pdf, "-"]).output
            let next = tool("pdftotext", ["-f", "\(long[1].index)", "-l", "\(long[1].index)", pdf, "-"]).output
            #expect(first.contains("Continued on page \(long[1].folio)"), "\(first)")
            #expect(next.contains("Continued from page \(long[0].folio)"), "\(next)")
            // Each line links to the other's page: forward, to a page not written yet, and back.
            let links = try PDFLinks(pdf)
            #expect(links.pages[long[0].index - 1].map(\.destination) == [long[1].index])
            #expect(links.pages[long[1].index - 1].map(\.destination) == [long[0].index])
        }
        try check()
        // The short article grows by pages: the continuation moves, and the numbers with it.
        d.write("a2.txt", "<h1>Short</h1>\n" + String(repeating: body, count: 40))
        try check()
    }

    // `startOn: any`: a short article set under the end of the one before, on the same page,
    // when there is room; the contents give that page, its own PDF holds it alone.
    @Test func startOnAnyPage() throws {
        let d = TemporaryDirectory("issue")
        let body = String(repeating: "The harbour at dawn is a study in grey and silver, with boats. ", count: 5) + "\n"
        var manifest = Self.issue(d, articles: ["<h1>Dawn</h1>\n" + body + body, "<h1>Dusk</h1>\n" + body + "Last words of dusk.\n"])
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        text = text.replacingOccurrences(of: #""startOn": "recto"}"#, with: #""startOn": "any"}"#)
            .replacingOccurrences(of: #""after": "a1.txt""#, with: #""after": "a2.txt""#)
        manifest = d.write("issue.json", text)
        struct Page: Decodable {
            var index: Int
            var folio: Int
            var article: String?
            var following: [String]?
        }
        struct Pages: Decodable { var pages: [Page] }
        let r = run(["inspect", manifest, "--json", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let pages = try JSONDecoder().decode(Pages.self, from: r.stdout).pages
        let shared = try #require(pages.first { $0.article == "a1.txt" })
        #expect(shared.following == ["a2.txt"])
        #expect(!pages.contains { $0.article == "a2.txt" }, "all of it fits under a1")
        let pdf = d.file("issue.pdf")
        let out = d.file("split")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        #expect(run(["build", manifest, "-o", pdf, "--split", out, "-q"]).status == 0)
        let page = tool("pdftotext", ["-f", "\(shared.index)", "-l", "\(shared.index)", pdf, "-"]).output
        let dawn = try #require(page.range(of: "Dawn"))
        let dusk = try #require(page.range(of: "Dusk"))
        #expect(dawn.lowerBound < dusk.lowerBound && page.contains("Last words of dusk."), "\(page)")
        let contents = tool("pdftotext", ["-f", "2", "-l", "2", "-layout", pdf, "-"]).output
        let line = contents.split(separator: "\n").first { $0.contains("Dusk") }.map(String.init) ?? ""
        #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("\(shared.folio) "), "\(contents)")
        let alone = tool("pdftotext", [out + "/a2.pdf", "-"]).output
        #expect(alone.contains("Dusk") && !alone.contains("Dawn"), "\(alone)")
        // A point on each article's text of the shared page names that article.
        let under = run(["locate", manifest, "--page", "\(shared.index)", "--at", "60,\(Self.duskY(pdf, page: shared.index))", "-q"])
        #expect(under.output.hasPrefix(d.file("a2.txt") + ": "), "\(under.output)")
        #expect(run(["locate", manifest, "--page", "\(shared.index)", "--at", "100,80", "-q"]).output.hasPrefix(d.file("a1.txt") + ": "))
    }

    // An article that starts under another (`startOn: any`) keeps its folio on that page in
    // its own PDF (--split), with its own running lines: the page had none, the issue's being
    // the other article's.
    @Test func splitKeepsTheFolioOfASharedPage() throws {
        let d = TemporaryDirectory("issue")
        let body = String(repeating: "The harbour at dawn is a study in grey and silver, with boats. ", count: 5) + "\n"
        d.write("a.txt", "<h1>Dawn</h1>\n" + body)
        d.write("b.txt", "<h1>Dusk</h1>\n" + String(repeating: body, count: 24))
        let manifest = d.write(
            "issue.json",
            #"{"title": "Harbour Monthly", "set": {"footer.text": "{title} · {page}"}, "articles": [{"file": "a.txt"}, "#
                + #"{"file": "b.txt", "startOn": "any"}]}"#)
        let out = d.file("split")
        #expect(run(["build", manifest, "-o", d.file("issue.pdf"), "--split", out, "-q"]).status == 0)
        let issue = tool("pdftotext", ["-f", "1", "-l", "1", d.file("issue.pdf"), "-"]).output
        #expect(issue.split(separator: "\n").contains("Dusk"), "b starts under a: \(issue)")
        #expect(issue.contains("Dawn · 1") && !issue.contains("Dusk · 1"), "one footer, the page's own: \(issue)")
        for (name, title) in [("a", "Dawn"), ("b", "Dusk")] {
            let first = tool("pdftotext", ["-f", "1", "-l", "1", out + "/\(name).pdf", "-"]).output
            #expect(first.contains("\(title) · 1"), "\(name): \(first)")
        }
        let second = tool("pdftotext", ["-f", "2", "-l", "2", out + "/b.pdf", "-"]).output
        #expect(second.contains("Dusk · 2"), "\(second)")
    }

    /// The y of the word "Dusk" on a page of a PDF, from pdftotext's boxes (points from the top).
    static func duskY(_ pdf: String, page: Int) -> Double {
        let html = tool("pdftotext", ["-f", "\(page)", "-l", "\(page)", "-bbox", pdf, "-"]).output
        guard let line = html.split(separator: "\n").first(where: { $0.contains(">Dusk<") }),
            let r = line.range(of: #"yMin="([0-9.]+)""#, options: .regularExpression)
        else { return 0 }
        let value = line[r].dropFirst(6).dropLast()
        return (Double(value) ?? 0) + 4
    }

    // A point of an issue's page names the article's file and the source position in it.
    @Test func locateInAnIssue() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d)
        let m = try Self.map(manifest)
        let start = try #require(m.pages.first { $0.article == "a2.txt" })
        let r = run(["locate", manifest, "--page", "\(start.index)", "--at", "100,80", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        // The article's file as diagnostics name it: a path from here, not from the manifest.
        #expect(r.output.hasPrefix(d.file("a2.txt") + ": page \(start.index)"), "\(r.output)")
        #expect(r.output.contains("(source 2:"), "\(r.output)")  // the h2 "At ten" under the h1
        #expect(run(["locate", manifest, "--page", "1", "--at", "10,10", "-q"]).output == "page 1 (folio none): cover\n")
        let cover = run(["locate", manifest, "--page", "1", "--at", "10,10", "--json", "-q"])
        let object = try #require(try JSONSerialization.jsonObject(with: cover.stdout) as? [String: Any], "\(cover.output)")
        #expect(object["kind"] as? String == "cover" && object["page"] as? Int == 1)
    }

    // --split, --depfile and --json beside the issue.
    @Test func splitDepfileAndSummary() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d)
        let out = d.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let r = run(["build", manifest, "-o", d.file("issue.pdf"), "--split", out, "--depfile", d.file("issue.d"), "--json", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["a1", "a2", "a3"] { #expect(FileManager.default.fileExists(atPath: out + "/\(name).pdf"), "\(name)") }
        let dep = try String(contentsOfFile: d.file("issue.d"), encoding: .utf8)
        #expect(dep.hasPrefix(d.file("issue.pdf") + ":"))
        for f in ["issue.json", "a1.txt", "a2.txt", "a3.txt", "cover.png"] { #expect(dep.contains(d.file(f)), "\(f): \(dep)") }
        #expect(dep.contains(".ttf"), "the font files: \(dep)")
        // An SVG's own image is an input too.
        d.write("pics/dot.png", d.read("cover.png")!)
        d.write("pics/frame.svg", WatchTests.framedImage)
        d.write("a3.txt", "<h1>Tides</h1>\n<img src=\"pics/frame.svg\" width=\"200\" height=\"120\">\n")
        #expect(run(["build", manifest, "-o", d.file("issue.pdf"), "--depfile", d.file("issue.d"), "-q"]).status == 0)
        let withSVG = try String(contentsOfFile: d.file("issue.d"), encoding: .utf8)
        #expect(withSVG.contains(d.file("pics/frame.svg")) && withSVG.contains(d.file("pics/dot.png")), "\(withSVG)")
        // And the font its text is set in, by librsvg.
        d.write(
            "pics/label.svg",
            #"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="4" y="30" style="font-size: 20px; font-family: 'Liberation Mono', monospace">Tide</text></svg>"#
        )
        d.write("a3.txt", "<h1>Tides</h1>\n<img src=\"pics/label.svg\" width=\"200\">\n")
        #expect(run(["build", manifest, "-o", d.file("issue.pdf"), "--depfile", d.file("issue.d"), "-q"]).status == 0)
        let withText = try String(contentsOfFile: d.file("issue.d"), encoding: .utf8)
        #expect(withText.contains("LiberationMono-Regular.ttf"), "\(withText)")
        let summary = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        #expect((summary["articles"] as? [[String: Any]])?.count == 3)
        #expect(summary["pages"] as? Int == (try Self.map(manifest)).pages.count)
        // The depfile may go in the split folder the build makes.
        let fresh = d.file("fresh")
        let inside = run(["build", manifest, "-o", d.file("issue.pdf"), "--split", fresh, "--depfile", fresh + "/issue.d", "-q"])
        #expect(inside.status == 0, "\(inside.stderr)")
        #expect(FileManager.default.fileExists(atPath: fresh + "/issue.d") && FileManager.default.fileExists(atPath: fresh + "/a1.pdf"))
    }

    // With --press, each article --split writes is a press PDF too: its sheets and PDF/X-4
    // (it was a plain PDF of bare pages).
    @Test func splitOnPress() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d)
        let r = run(["build", manifest, "-o", d.file("issue.pdf"), "--split", d.file("out"), "--press", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["issue.pdf", "out/a1.pdf"] {
            let info = tool("pdfinfo", ["-box", d.file(name)]).output
            #expect(info.contains("TrimBox:") && info.contains("BleedBox:"), "\(name): \(info)")
            let meta = tool("pdfinfo", ["-meta", d.file(name)]).output
            #expect(meta.contains("PDF/X-4"), "\(name): \(meta)")
        }
    }

    // A press build's output intent is an input: listed in the depfile, and no output (the
    // PDF, the depfile, a split article) may be written over it.
    @Test func outputIntentIsAnInput() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d)
        let profile = try #require(FileManager.default.contents(atPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc"))
        d.write("printer.icc", profile)
        d.write("out/a1.pdf", profile)
        let press = ["--press", "--output-intent"]
        let dep = run(
            ["build", manifest, "-o", d.file("issue.pdf"), "--depfile", d.file("issue.d"), "-q"] + press + [d.file("printer.icc")])
        #expect(dep.status == 0, "\(dep.stderr)")
        #expect(try String(contentsOfFile: d.file("issue.d"), encoding: .utf8).contains(d.file("printer.icc")))
        for extra in [["-o", d.file("printer.icc")], ["-o", d.file("x.pdf"), "--depfile", d.file("printer.icc")]] {
            let r = run(["build", manifest, "-q"] + extra + press + [d.file("printer.icc")])
            #expect(r.status == 2, "\(extra): \(r.stderr)")
        }
        let split = run(["build", manifest, "-o", d.file("x.pdf"), "--split", d.file("out"), "-q"] + press + [d.file("out/a1.pdf")])
        #expect(split.status == 2 && split.stderr.contains("/out/a1.pdf' would overwrite the input"), "\(split.stderr)")
        #expect(d.read("printer.icc") == profile && d.read("out/a1.pdf") == profile)
    }

    // An output that fails after the issue's PDF is drawn (a split article's, the depfile) had
    // the PDF replaced all the same, and a failed build left a fresh target for Make. Every
    // output is now asked first: the PDF and the split stay as they were.
    @Test func aLateOutputMistakeWritesNothing() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d)
        let first = run(["build", manifest, "-o", d.file("issue.pdf"), "-q"])
        try #require(first.status == 0, "\(first.stderr)")
        let before = try #require(d.read("issue.pdf"))
        let depfile = run(["build", manifest, "-o", d.file("issue.pdf"), "--depfile", "/proc/issue.d", "--split", d.file("split"), "-q"])
        #expect(depfile.status == 1 && depfile.stderr.contains("cannot make a temporary file in '/proc'"), "\(depfile.stderr)")
        #expect(d.read("issue.pdf") == before)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: d.file("split"))) ?? []).isEmpty)
        try FileManager.default.createDirectory(atPath: d.file("split2"), withIntermediateDirectories: true)
        #expect(mkfifo(d.file("split2/a2.pdf"), 0o600) == 0)
        let fifo = run(["build", manifest, "-o", d.file("issue.pdf"), "--split", d.file("split2"), "-q"])
        #expect(fifo.status == 1 && fifo.stderr.contains("a2.pdf': it is not a regular file"), "\(fifo.stderr)")
        #expect(d.read("issue.pdf") == before)
        try FileManager.default.createDirectory(atPath: d.file("split3/a1.pdf"), withIntermediateDirectories: true)
        let folder = run(["build", manifest, "-o", d.file("issue.pdf"), "--split", d.file("split3"), "-q"])
        #expect(folder.status == 2 && folder.stderr.contains("a1.pdf' is a folder"), "\(folder.stderr)")
    }

    // --split makes its folder (and those above it) when missing; a name two articles share
    // is numbered; a folder that cannot be made is an error before anything is written.
    // `--threads` sets how many threads lay the articles out; the PDF is the same bytes however
    // many there are.
    @Test func threadCountKeepsTheBytes() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d)
        for threads in [nil, "1", "3"] {
            let out = d.file("issue-\(threads ?? "default").pdf")
            let r = run(["build", manifest, "-o", out, "-q"] + (threads.map { ["--threads", $0] } ?? []))
            #expect(r.status == 0, "\(r.stderr)")
        }
        let first = try #require(d.read("issue-default.pdf"))
        #expect(d.read("issue-1.pdf") == first && d.read("issue-3.pdf") == first)
    }

    @Test func splitFolder() throws {
        let d = TemporaryDirectory("issue")
        let body = "The harbour at dawn is a study in grey and silver. "
        d.write("a1.txt", "<h1>One</h1>\n" + body + "\n")
        try FileManager.default.createDirectory(atPath: d.file("b"), withIntermediateDirectories: true)
        d.write("b/a1.txt", "<h1>Two</h1>\n" + body + "\n")
        let manifest = d.write("issue.json", #"{"title": "X", "articles": [{"file": "a1.txt"}, {"file": "b/a1.txt"}]}"#)
        let out = d.file("parts/2026/12")
        let r = run(["build", manifest, "-o", d.file("issue.pdf"), "--split", out, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(tool("pdftotext", [out + "/a1.pdf", "-"]).output.contains("One"))
        #expect(tool("pdftotext", [out + "/a1-2.pdf", "-"]).output.contains("Two"))
        d.write("taken", "a file, not a folder")
        let bad = run(["build", manifest, "-o", d.file("other.pdf"), "--split", d.file("taken"), "-q"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--split: cannot make the folder"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: d.file("other.pdf")))
        // So is a depfile in a folder that does not exist.
        let rule = run(["build", manifest, "-o", d.file("other.pdf"), "--depfile", d.file("none/issue.d"), "-q"])
        #expect(rule.status == 2 && rule.stderr.contains("no such folder"), "\(rule.stderr)")
        #expect(!FileManager.default.fileExists(atPath: d.file("other.pdf")))
        // And the PDF's own, but for the --split folder, made first.
        let pdf = run(["build", manifest, "-o", d.file("none/issue.pdf"), "-q"])
        #expect(pdf.status == 2 && pdf.stderr.contains("no such folder"), "\(pdf.stderr)")
        let inSplit = run(["build", manifest, "-o", d.file("made/issue.pdf"), "--split", d.file("made/parts"), "-q"])
        #expect(inSplit.status == 0, "\(inSplit.stderr)")
        #expect(FileManager.default.fileExists(atPath: d.file("made/issue.pdf")))
    }

    // `--depfile -` prints the rule, unless standard output carries the PDF or the summary.
    @Test func depfileToStandardOutput() {
        let d = TemporaryDirectory("issue")
        d.write("a1.txt", "One.")
        let manifest = d.write("issue.json", #"{"title": "X", "articles": [{"file": "a1.txt"}]}"#)
        let r = run(["build", manifest, "-o", d.file("issue.pdf"), "--depfile", "-", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.output.hasPrefix(d.file("issue.pdf") + ":") && r.output.contains(d.file("a1.txt")), "\(r.output)")
        #expect(!FileManager.default.fileExists(atPath: "-"))
        let json = run(["build", manifest, "-o", d.file("issue.pdf"), "--depfile", "-", "--json", "-q"])
        #expect(json.status == 2 && json.stderr.contains("--depfile -: standard output already carries"), "\(json.stderr)")
    }

    // The depfile or an article's split PDF named as the issue's PDF (or the SyncTeX file, or
    // each other) would write one over the other: refused, and the PDF there is kept.
    @Test func outputsThatWouldOverwriteEachOther() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d)
        let pdf = d.file("issue.pdf")
        #expect(run(["build", manifest, "-o", pdf, "-q"]).status == 0)
        let good = try #require(d.read("issue.pdf"))
        let depfile = run(["build", manifest, "-o", pdf, "--depfile", d.path + "/./issue.pdf", "-q"])
        #expect(depfile.status == 2 && depfile.stderr.contains("is the issue's PDF"), "\(depfile.stderr)")
        let synctex = run(["build", manifest, "-o", pdf, "--synctex", "--depfile", d.file("issue.synctex.gz"), "-q"])
        #expect(synctex.status == 2 && synctex.stderr.contains("is the SyncTeX file"), "\(synctex.stderr)")
        let split = run(["build", manifest, "-o", d.file("a1.pdf"), "--split", d.path, "-q"])
        // Refused as -o is: status 2, said by the command.
        #expect(split.status == 2 && split.stderr.contains("galley build: error: --split: cannot write"), "\(split.stderr)")
        #expect(split.stderr.contains("it is the issue's PDF"), "\(split.stderr)")
        try FileManager.default.createDirectory(atPath: d.file("parts"), withIntermediateDirectories: false)
        let rule = run(["build", manifest, "-o", pdf, "--split", d.file("parts"), "--depfile", d.file("parts/a2.pdf"), "-q"])
        #expect(rule.status == 2 && rule.stderr.contains("it is the --depfile"), "\(rule.stderr)")
        #expect(d.read("issue.pdf") == good)
        #expect(!FileManager.default.fileExists(atPath: d.file("a1.pdf")))
    }

    // Bad manifests: located errors, and nothing written.
    @Test func badManifest() throws {
        let d = TemporaryDirectory("issue")
        let manifest = d.write("issue.json", #"{"title": "X", "articles": [{"file": "missing.txt"}]}"#)
        let r = run(["build", manifest, "-o", d.file("issue.pdf")])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("\(manifest):1:"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: d.file("issue.pdf")))
        // With --json, the summary says why on standard output too.
        let json = run(["build", manifest, "-o", d.file("issue.pdf"), "--json", "-q"])
        let summary = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any], "\(json.output)")
        #expect(json.status == 1 && summary["errors"] as? Int == 1 && summary["pages"] as? Int == 0)
        let said = (summary["diagnostics"] as? [[String: Any]])?.first
        #expect((said?["message"] as? String)?.contains("missing.txt") == true && said?["line"] as? Int == 1, "\(json.output)")
        // So for an output refused before the build begins (one of the issue's own files).
        let article = d.write("a.txt", "Text.\n")
        let own = d.write("own.json", #"{"title": "X", "articles": [{"file": "a.txt"}]}"#)
        let refused = run(["build", own, "-o", article, "--json", "-q"])
        let refusal = try #require(try JSONSerialization.jsonObject(with: refused.stdout) as? [String: Any], "\(refused.output)")
        #expect(refused.status == 2 && refusal["errors"] as? Int == 1, "\(refused.output)")
        #expect(d.read("a.txt") == Data("Text.\n".utf8))

        // An article that does not parse: its own diagnostics, and the previous PDF is kept.
        let good = Self.issue(d)
        #expect(run(["build", good, "-o", d.file("issue.pdf"), "-q"]).status == 0)
        let before = try? Data(contentsOf: URL(fileURLWithPath: d.file("issue.pdf")))
        d.write("a2.txt", "<font color=\"gren\">x</font>\n")
        let bad = run(["build", good, "-o", d.file("issue.pdf")])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("\(d.file("a2.txt")):1:14: error: unknown colour 'gren'"), "\(bad.stderr)")
        #expect((try? Data(contentsOf: URL(fileURLWithPath: d.file("issue.pdf")))) == before)

        // A cover that is not an image, at its place in the manifest.
        d.write("a2.txt", "<h1>Fine</h1>\n")
        d.write("cover.png", "not a picture")
        let cover = run(["check", good])
        #expect(cover.status == 1)
        #expect(cover.stderr.contains("error: cannot use cover image 'cover.png'"), "\(cover.stderr)")
        #expect(cover.stderr.contains("^~~~~~~~~~~\n"), "the whole value underlined: \(cover.stderr)")

        // A manifest that is not UTF-8: said at its first bad byte, with the line and a caret.
        let latin = d.file("latin.json")
        let bytes: [UInt8] = Array("{\n  \"title\": \"Caf".utf8) + [0xE9] + Array("\"\n}\n".utf8)
        #expect(FileManager.default.createFile(atPath: latin, contents: Data(bytes)))
        let notUTF8 = run(["check", latin])
        #expect(notUTF8.status == 1)
        #expect(notUTF8.stderr.hasPrefix("\(latin):2:16: error: cannot read issue manifest"), "\(notUTF8.stderr)")
        #expect(notUTF8.stderr.contains("  \"title\": \"Caf") && notUTF8.stderr.contains("^"), "\(notUTF8.stderr)")
    }

    // The command line's -t and --set reach an issue: -t in place of the manifest's template,
    // --set over every layer (a bad key is a usage error), --max-image-pixels for its images.
    @Test func commandLineTemplateAndOverrides() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d)
        func size(_ args: [String]) throws -> String {
            let pdf = d.file("issue.pdf")
            let r = run(["build", manifest, "-o", pdf, "-q"] + args)
            try #require(r.status == 0, "\(r.stderr)")
            return tool("pdfinfo", [pdf]).output.split(separator: "\n").first { $0.hasPrefix("Page size:") }.map(String.init) ?? ""
        }
        let plain = try size([])
        #expect(try size(["-t", "letter"]) != plain)
        #expect(try size(["--set", "page.width=400"]).contains("400 x"))
        let unknown = run(["build", manifest, "-o", d.file("x.pdf"), "--set", "nosuchkey=1"])
        #expect(unknown.status == 2 && unknown.stderr.contains("nosuchkey"), "\(unknown.stderr)")
        let pixels = run(["check", manifest, "--max-image-pixels", "100"])
        #expect(pixels.status == 1 && pixels.stderr.contains("cannot use cover image"), "\(pixels.stderr)")
    }

    // A cover line's unknown class is a warning at the class's value, with a suggestion.
    // The manifest's `language` is the issue's: its articles are set in it (here, German
    // quotation marks), and an article's own `set` still overrides it.
    @Test func theIssuesLanguage() throws {
        let d = TemporaryDirectory("issue-language")
        d.write("a.txt", "She said \"Hallo\" to him.\n")
        d.write("b.txt", "He said \"Hello\" back.\n")
        let manifest = d.write(
            "issue.json",
            #"{"title": "T", "language": "de", "articles": [{"file": "a.txt"}, {"file": "b.txt", "set": {"language": "en"}}]}"#)
        let pdf = d.file("issue.pdf")
        #expect(run(["build", manifest, "-o", pdf, "-q"]).status == 0)
        let text = tool("pdftotext", [pdf, "-"]).output
        #expect(text.contains("„Hallo“") && text.contains("“Hello”"), "\(text)")
    }

    @Test func coverLineClassWarnedAtItsValue() {
        let d = TemporaryDirectory("issue")
        _ = Self.issue(d)
        let manifest = d.write(
            "issue.json",
            #"{"cover": {"image": "cover.png", "lines": [{"text": "X", "class": "coverlin"}]}, "articles": [{"file": "a1.txt"}]}"#)
        let r = run(["check", manifest])
        #expect(
            r.stderr.contains("\(manifest):1:67: warning: unknown class 'coverlin' for a cover line; did you mean 'coverline'?"),
            "\(r.stderr)")
    }

    // A cover line's text may break its line: "Two\nlines" is set on two lines (a newline in
    // markup is a space).
    @Test func coverLineBreaksWhereItsTextDoes() {
        let d = TemporaryDirectory("issue")
        _ = Self.issue(d)
        let manifest = d.write(
            "issue.json", #"{"cover": {"image": "cover.png", "lines": [{"text": "Two\nlines"}]}, "articles": [{"file": "a1.txt"}]}"#)
        let pdf = d.file("issue.pdf")
        let r = run(["build", manifest, "-o", pdf, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let cover = tool("pdftotext", ["-f", "1", "-l", "1", pdf, "-"]).output
        #expect(cover.hasPrefix("Two\nlines\n"), "\(cover)")
    }

    // The cover sets the cover lines it has room for; those it has none for are not set, with a
    // warning at the text of the first of them (they were dropped without a word).
    @Test func coverLinesWithoutRoomWarnedAtTheFirstLeftOut() throws {
        let d = TemporaryDirectory("issue")
        _ = Self.issue(d)
        func manifest(lines count: Int) -> String {
            // One cover line a line of the manifest: line k of the list is line k + 1 of the file.
            let lines = (1...count).map { #"{"text": "Cover line \#($0): the night shift, the compositors, a thousand years of type"}"# }
            return d.write(
                "issue.json",
                "{\"cover\": {\"image\": \"cover.png\", \"lines\": [\n" + lines.joined(separator: ",\n")
                    + "\n]}, \"articles\": [{\"file\": \"a1.txt\"}]}")
        }
        let pdf = d.file("issue.pdf")
        let few = run(["build", manifest(lines: 2), "-o", pdf])
        #expect(few.status == 0 && !few.stderr.contains("no room"), "\(few.stderr)")
        let path = manifest(lines: 12)
        let r = run(["build", path, "-o", pdf])
        #expect(r.status == 0, "\(r.stderr)")
        let cover = tool("pdftotext", ["-f", "1", "-l", "1", pdf, "-"]).output
        let set = (1...12).filter { cover.contains("Cover line \($0):") }
        #expect(!set.isEmpty && set == Array(1...set.count) && set.count < 12, "\(cover)")
        let first = set.count + 1
        let warning = "warning: the cover has no room for this cover line; it and the \(12 - first) after it are not set"
        #expect(r.stderr.contains("\(path):\(first + 1):10: " + warning), "\(r.stderr)")
    }

    // A style of the manifest's own template file can be the base of a style its `set` adds.
    @Test func setStyleBasedOnTheTemplateFilesStyle() throws {
        let d = TemporaryDirectory("issue")
        d.write("a.txt", "<h1>One</h1>\n<p class=\"x\">Styled.</p>\n")
        d.write("t.json", #"{"name": "t2", "extends": "magazine", "styles": {"mine": {"basedOn": "deck", "color": "red"}}}"#)
        let manifest = d.write(
            "issue.json", #"{"template": "t.json", "set": {"styles": {"x": {"basedOn": "mine"}}}, "articles": [{"file": "a.txt"}]}"#)
        let r = run(["check", manifest])
        #expect(r.status == 0, "\(r.stderr)")
        d.write("issue.json", #"{"template": "t.json", "set": {"styles": {"x": {"basedOn": "nine"}}}, "articles": [{"file": "a.txt"}]}"#)
        let bad = run(["check", manifest])
        #expect(bad.status == 1 && bad.stderr.contains("unknown style 'nine'; did you mean 'mine'?"), "\(bad.stderr)")
    }

    // A style the manifest's `set` gets wrong is said at its value in the manifest, before
    // any article is set (as a document's template is checked): the issue's layer, an
    // article's own, or `--set` on the command line.
    @Test func setStylesCheckedAtTheirValue() throws {
        let d = TemporaryDirectory("issue")
        d.write("a.txt", "<h1>One</h1>\n<p class=\"deck\">Deck.</p>\n")
        let manifest = d.write("issue.json", #"{"set": {"styles": {"deck": {"dropcap": 20}}}, "articles": [{"file": "a.txt"}]}"#)
        let r = run(["check", manifest])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(manifest):1:41: error: key 'set.styles.deck.dropcap': dropcap must be"), "\(r.stderr)")
        #expect(!r.stderr.contains("a.txt:"), "\(r.stderr)")
        d.write("issue.json", #"{"articles": [{"file": "a.txt", "set": {"styles.deck.size": -3}}]}"#)
        let own = run(["check", manifest])
        #expect(own.stderr.contains("\(manifest):1:61: error: key 'articles[0].set.styles.deck.size'"), "\(own.stderr)")
        d.write("issue.json", #"{"articles": [{"file": "a.txt"}]}"#)
        let given = run(["check", manifest, "--set", "styles.deck.size=-2"])
        #expect(given.status == 2 && given.stderr.contains("--set styles.deck.size=-2: style 'deck'"), "\(given.stderr)")
    }

    // Make reads the depfile: after the build the PDF is up to date, and touching any input
    // it lists (an article, the manifest, an image, a font) makes it out of date. Names with
    // a colon, a space or a hash are written as Make reads them.
    @Test func makeReadsTheDepfile() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d, articles: ["<h1>One</h1>\nText.\n", "<h1>Two</h1>\nMore.\n", "<h1>Three</h1>\nEnd.\n"])
        try FileManager.default.moveItem(atPath: d.file("a3.txt"), toPath: d.file("c:d #3.txt"))
        let text = try String(contentsOfFile: manifest, encoding: .utf8).replacingOccurrences(of: "a3.txt", with: "c:d #3.txt")
        d.write("issue.json", text)
        let r = run(["build", manifest, "-o", d.file("issue.pdf"), "--depfile", d.file("issue.d"), "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        d.write("Makefile", "-include issue.d\n\(d.file("issue.pdf")):\n\ttrue\n")
        func upToDate() -> Bool { tool("make", ["-q", "-C", d.path, "-f", "Makefile", d.file("issue.pdf")]).status == 0 }
        #expect(upToDate(), "\((try? String(contentsOfFile: d.file("issue.d"), encoding: .utf8)) ?? "")")
        let dep = try String(contentsOfFile: d.file("issue.d"), encoding: .utf8)
        let names = dep.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \\")) }
        let font = try #require(names.first { $0.hasSuffix(".ttf") })
        let future = Date().addingTimeInterval(60)
        for input in ["a1.txt", "issue.json", "cover.png", "c:d #3.txt"].map(d.file) {
            let before = try FileManager.default.attributesOfItem(atPath: input)[.modificationDate]
            try FileManager.default.setAttributes([.modificationDate: future], ofItemAtPath: input)
            #expect(!upToDate(), "\(input)")
            try FileManager.default.setAttributes([.modificationDate: before!], ofItemAtPath: input)
            #expect(upToDate(), "\(input) put back")
        }
        #expect(dep.contains(font) && FileManager.default.fileExists(atPath: font), "\(font)")
        // An article renamed (and the manifest with it): the rule's old name is a file to
        // remake, so `make` rebuilds rather than stopping at "No rule to make target".
        try FileManager.default.moveItem(atPath: d.file("a1.txt"), toPath: d.file("one.txt"))
        d.write("issue.json", text.replacingOccurrences(of: "a1.txt", with: "one.txt"))
        let made = tool("make", ["-q", "-C", d.path, "-f", "Makefile", d.file("issue.pdf")])
        #expect(made.status == 1, "\(made.output)")
    }

    // The running lines carry the issue's numbers: `{pages}` counts the issue's pages and the
    // front matter's folios are roman, as its labels are; the cover's label is empty; an
    // insert after contents set first comes right after them.
    @Test func issueNumbersInRunningLines() throws {
        let d = TemporaryDirectory("issue")
        _ = Self.issue(d)
        let manifest = d.write(
            "issue.json",
            #"""
            {"contents": {"after": "start"}, "frontMatter": "roman", "set": {"footer.text": "{page} of {pages}"},
             "cover": {"image": "cover.png"}, "inserts": [{"image": "cover.png", "after": "contents"}],
             "articles": [{"file": "a1.txt"}, {"file": "a3.txt"}]}
            """#)
        let pdf = d.file("issue.pdf")
        let r = run(["build", manifest, "-o", pdf, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        let m = try Self.map(manifest)
        #expect(m.pages.prefix(3).map(\.kind) == ["contents", "insert", "cover"], "\(m.pages.map(\.kind))")
        let total = m.pages.count
        let contents = tool("pdftotext", ["-f", "1", "-l", "1", pdf, "-"]).output
        #expect(contents.contains("i of \(total)"), "\(contents)")
        let last = tool("pdftotext", ["-f", "\(total)", "-l", "\(total)", pdf, "-"]).output
        #expect(last.contains("\(total) of \(total)"), "\(last)")
        // The cover's range has neither a style nor a prefix: an empty label.
        let json = try JSONSerialization.jsonObject(with: tool("qpdf", ["--json", "--json-key=pagelabels", pdf]).stdout)
        let labels = try #require((json as? [String: Any])?["pagelabels"] as? [[String: Any]])
        let cover = try #require(labels.first { $0["index"] as? Int == 2 }?["label"] as? [String: Any])
        #expect(cover["/S"] == nil && cover["/P"] == nil, "\(labels)")
    }

    // `{issue}` is the issue's title on every page: an article's own `<meta issue>` changed it
    // for that article's pages alone.
    @Test func theIssueNameHoldsAcrossArticles() throws {
        let d = TemporaryDirectory("issue")
        _ = Self.issue(d)
        d.write("a3.txt", "<meta issue=\"Spring\">\n<h1>Tides</h1>\nThe tide turns.\n")
        let manifest = d.write(
            "issue.json",
            #"{"title": "Harbour Monthly", "set": {"footer.text": "{issue} · {page}"}, "articles": [{"file": "a3.txt"}, {"file": "a1.txt"}]}"#
        )
        let pdf = d.file("issue.pdf")
        try #require(run(["build", manifest, "-o", pdf, "-q"]).status == 0)
        let first = tool("pdftotext", ["-f", "1", "-l", "1", pdf, "-"]).output
        #expect(first.contains("Harbour Monthly · 1") && !first.contains("Spring"), "\(first)")
        #expect(tool("pdftotext", ["-f", "2", "-l", "2", pdf, "-"]).output.contains("Harbour Monthly · 2"))
    }

    // A manifest with three mistakes says the three, in the order of the file: it said one,
    // the last in the file, as the checking order met it first.
    @Test func everyMistakeOfAManifestIsSaid() {
        let d = TemporaryDirectory("issue")
        _ = Self.issue(d)
        let manifest = d.write(
            "bad.json",
            """
            {"title": "T",
             "articles": [{"file": "a1.txt", "sectoin": "x"},
              {"file": "missing.txt"}], "pageMultiple": 0}
            """)
        let r = run(["build", manifest, "-o", d.file("bad.pdf")])
        #expect(r.status == 1)
        let places = r.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map { $0.split(separator: " ")[0] }
        #expect(places == ["\(manifest):2:34:", "\(manifest):3:12:", "\(manifest):3:45:"], "\(r.stderr)")
        // Two repeats and two missing inserts: the four, where the first repeat alone was said.
        let twice = d.write(
            "twice.json",
            """
            {"articles": [{"file": "a1.txt"}, {"file": "a1.txt"}, {"file": "a2.txt"}, {"file": "a2.txt"}],
             "inserts": [{"image": "nope1.png", "after": "a1.txt"}, {"image": "nope2.png"}]}
            """)
        let t = run(["build", twice, "-o", d.file("bad.pdf")])
        let said = t.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map { $0.split(separator: " ")[0] }
        #expect(said == ["\(twice):1:44:", "\(twice):1:84:", "\(twice):2:24:", "\(twice):2:67:"], "\(t.stderr)")
        // A missing article does not hide a repeated one.
        let missing = d.write("missing.json", #"{"articles": [{"file": "a1.txt"}, {"file": "gone.txt"}, {"file": "a1.txt"}]}"#)
        let m = run(["build", missing, "-o", d.file("bad.pdf")])
        #expect(m.stderr.contains("cannot find article 'gone.txt'") && m.stderr.contains("'a1.txt' is already listed"), "\(m.stderr)")
    }

    // Slips a manifest lets through, said: an empty article (an empty page and a contents
    // entry, without a word); a first folio in a `set` (ignored: the issue numbers its pages);
    // a file listed again, whose warnings came once per listing.
    @Test func issueSlipsAreSaid() throws {
        let d = TemporaryDirectory("issue")
        _ = Self.issue(d)
        d.write("empty.txt", " \n\n")
        d.write("odd.txt", "<font face=\"Nowhere Grotesk\">Odd.</font>\n")
        let pdf = d.file("issue.pdf")
        let empty = d.write("e.json", #"{"articles": [{"file": "a3.txt"}, {"file": "empty.txt"}]}"#)
        let r = run(["build", empty, "-o", pdf])
        #expect(r.status == 0 && r.stderr.contains("e.json:1:44: warning: article 'empty.txt' has no text"), "\(r.stderr)")
        let folio = d.write("f.json", #"{"articles": [{"file": "a3.txt", "set": {"startPage": 40}}]}"#)
        let f = run(["build", folio, "-o", pdf, "-q"])
        #expect(
            f.status == 1 && f.stderr.contains("f.json:1:55: error: key 'articles[0].set.startPage': an issue's folios run on"),
            "\(f.stderr)")
        let usage = run(["build", empty, "-o", pdf, "--set", "startPage=40"])
        #expect(usage.status == 2 && usage.stderr.contains("--set startPage: an issue's folios run on"), "\(usage.stderr)")
        let twice = d.write("t.json", #"{"articles": [{"file": "odd.txt"}, {"file": "a3.txt"}, {"file": "odd.txt", "allowRepeat": true}]}"#)
        let t = run(["build", twice, "-o", pdf])
        #expect(t.status == 0 && t.stderr.components(separatedBy: "'Nowhere Grotesk' is not installed").count == 2, "\(t.stderr)")
        // However the second listing spells the file.
        let spelt = d.write("s.json", #"{"articles": [{"file": "odd.txt"}, {"file": "./odd.txt", "allowRepeat": true}]}"#)
        let s = run(["build", spelt, "-o", pdf])
        #expect(s.status == 0 && s.stderr.components(separatedBy: "'Nowhere Grotesk' is not installed").count == 2, "\(s.stderr)")
    }

    // An article's own `print` (bleed, slug, marks) is not used, as every page of the issue
    // is on the manifest's sheet: said at the article (it was dropped without a word).
    @Test func anArticlesOwnPrintIsSaid() {
        let d = TemporaryDirectory("issue")
        d.write("a.txt", "<h1>A</h1>\nText.\n")
        let manifest = d.write("issue.json", #"{"articles": [{"file": "a.txt", "set": {"print": {"bleed": "5mm"}}}]}"#)
        let r = run(["check", manifest])
        #expect(r.stderr.contains("issue.json:1:24: warning: article 'a.txt' sets its own print"), "\(r.stderr)")
        d.write("issue.json", #"{"set": {"print": {"bleed": "5mm"}}, "articles": [{"file": "a.txt", "set": {"columns": 1}}]}"#)
        #expect(!run(["check", manifest]).stderr.contains("own print"))
    }

    // Every mistake of a manifest is said in one run: a repeated article did not hide a bad
    // jump, nor that an insert after an article not listed (three runs to find them).
    @Test func everyManifestMistakeAtOnce() {
        let d = TemporaryDirectory("issue")
        for name in ["a.txt", "b.txt", "c.txt"] { d.write(name, "<h1>\(name)</h1>\nText.\n") }
        d.write("cover.png", FileManager.default.contents(atPath: repoPath("samples/images/chart.png"))!)
        let manifest = d.write(
            "issue.json",
            #"{"articles": [{"file": "a.txt"}, {"file": "b.txt", "jump": {"after": 1, "to": "zz.txt"}}, {"file": "./a.txt"}], "#
                + #""inserts": [{"image": "cover.png", "after": "zz.txt"}]}"#)
        let r = run(["check", manifest])
        #expect(r.status == 1)
        for said in [
            "error: key 'articles[1].jump.to': 'zz.txt' is not one of the articles", "error: article './a.txt' is already listed",
            "error: key 'inserts[0].after': 'zz.txt' is not one of the articles",
        ] {
            #expect(r.stderr.contains(said), "\(said): \(r.stderr)")
        }
    }

    // A manifest broken by an edit (a trailing comma, a lost brace, a misspelt key) is an error
    // at its mistake: never a story of its JSON text written over the issue's PDF.
    @Test func aBrokenManifestIsNotTypesetAsText() throws {
        let d = TemporaryDirectory("issue")
        let manifest = Self.issue(d)
        let pdf = d.file("issue.pdf")
        #expect(run(["build", manifest, "-o", pdf, "-q"]).status == 0)
        let good = try #require(d.read("issue.pdf"))
        for broken in [
            #"{"articles": [{"file": "a1.txt"},]}"#, #"{"articles": [{"file": "a1.txt"}]"#, #"{"artciles": [{"file": "a1.txt"}]}"#,
        ] {
            d.write("issue.json", broken)
            let r = run(["build", manifest, "-o", pdf])
            #expect(r.status == 1 && r.stderr.hasPrefix("\(manifest):1:"), "\(broken): \(r.stderr)")
            #expect(run(["check", manifest]).status == 1, "\(broken)")
            #expect(d.read("issue.pdf") == good, "\(broken)")
        }
    }
}
