import Foundation
import TestSupport
import Testing

/// Pull quotes and sidebars through the CLI: where they land, that text wraps them, that their
/// text is in the PDF, and the located errors of bad ones.
@Suite struct TextBlockTests {
    static let words = "the press ran all night while compositors set type by hand and the editor read proofs".split(separator: " ")

    /// `n` paragraphs of `length` words each.
    static func paragraphs(_ n: Int, length: Int = 60, seed: Int = 0) -> String {
        (0..<n).map { p in (0..<length).map { String(words[($0 * 7 + p * 3 + seed) % words.count]) }.joined(separator: " ") + "." }
            .joined(separator: "\n") + "\n"
    }

    struct Listed {
        var kind: String
        var placement: String
        var page: Int
        var rect: (x: Double, y: Double, width: Double, height: Double)
    }

    /// The pull quotes and sidebars `inspect --json` lists.
    static func blocks(_ input: String, _ extra: [String] = []) throws -> [Listed] {
        let r = run(["inspect", input, "--json", "-q"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        var out: [Listed] = []
        for (k, page) in (object["pages"] as? [[String: Any]] ?? []).enumerated() {
            let columns = page["columns"] as? [[String: Any]] ?? []
            let images = columns.flatMap { $0["images"] as? [[String: Any]] ?? [] } + (page["images"] as? [[String: Any]] ?? [])
            for i in images where i["kind"] as? String != "image" {
                out.append(
                    Listed(
                        kind: i["kind"] as! String, placement: i["placement"] as! String, page: k + 1,
                        rect: (i["x"] as! Double, i["y"] as! Double, i["width"] as! Double, i["height"] as! Double)))
            }
        }
        return out
    }

    // A pull quote met mid-column sits across the gutter, 40 % of the text area wide, and both
    // columns' lines run beside it; its words are in the PDF once.
    @Test func pullQuoteAcrossTheGutter() throws {
        let d = TemporaryDirectory("blocks")
        let input = d.write("a.txt", Self.paragraphs(2) + "<pullquote>Every letter has a weight.</pullquote>\n" + Self.paragraphs(12))
        let listed = try Self.blocks(input)
        #expect(listed.count == 1)
        let q = try #require(listed.first)
        #expect(q.kind == "pullquote" && q.placement == "span" && q.page == 1)
        // magazine: A4, 42.5 pt margins, so the text area is 510.2 pt wide and centred.
        #expect(abs(q.rect.width - 204.1) < 0.2)
        #expect(abs(q.rect.x + q.rect.width / 2 - 297.6) < 0.2)
        #expect(q.rect.y > 100)
        // Lines beside it in both columns: some line of each column ends (or starts) at its side.
        let lines = run(["inspect", input, "--lines", "-q"]).output
        #expect(lines.contains("pullquote (span)"))
        #expect(run(["build", input, "-o", d.file("a.pdf"), "-q"]).status == 0)
        let text = tool("pdftotext", ["-raw", d.file("a.pdf"), "-"]).output
        #expect(text.components(separatedBy: "Every letter has a weight.").count == 2, "\(text)")
    }

    // A sidebar floats to the top of its column by default, only that column's text moves,
    // and its paragraphs are its own; `span="page"` sets it across the columns.
    @Test func sidebarAtTheTopOfItsColumn() throws {
        let d = TemporaryDirectory("blocks")
        let input = d.write(
            "a.txt", Self.paragraphs(8) + "<aside><b>In brief.</b> First point.\nSecond point.</aside>\n" + Self.paragraphs(8, seed: 1))
        let listed = try Self.blocks(input)
        let s = try #require(listed.first)
        #expect(s.kind == "sidebar" && s.placement == "top")
        #expect(abs(s.rect.y - 42.5) < 0.1)
        #expect(abs(s.rect.width - 246.6) < 0.2)
        let wide = d.write("b.txt", Self.paragraphs(2) + "<aside span=\"page\">Across the page.</aside>\n" + Self.paragraphs(8))
        let w = try #require(try Self.blocks(wide).first)
        #expect(w.placement == "span" && abs(w.rect.width - 510.2) < 0.2)
        #expect(run(["build", input, "-o", d.file("a.pdf"), "-q"]).status == 0)
        let text = tool("pdftotext", ["-raw", d.file("a.pdf"), "-"]).output
        #expect(text.contains("In brief. First point.") && text.contains("Second point."), "\(text)")
    }

    // A sidebar ending with an image is as tall as its text and the image together.
    @Test func sidebarWithAnImage() throws {
        let d = TemporaryDirectory("blocks")
        d.write("chart.png", try #require(FileManager.default.contents(atPath: repoPath("samples/images/chart.png"))))
        let input = d.write("a.txt", "Text.\n<aside>Above.\n<img src=\"chart.png\" width=\"200pt\"></aside>\nMore.\n")
        let s = try #require(try Self.blocks(input).first)
        // chart.png is 900×600 pixels: set 200 pt wide it is 133 pt tall; a line and the padding add more.
        #expect(s.rect.height > 133 + 2 * 10, "\(s.rect)")
    }

    // A pull quote in a column, to one side, wraps only that column.
    @Test func pullQuoteInAColumn() throws {
        let d = TemporaryDirectory("blocks")
        let input = d.write("a.txt", Self.paragraphs(2) + "<pullquote float=\"right\">To one side.</pullquote>\n" + Self.paragraphs(8))
        let q = try #require(try Self.blocks(input).first)
        #expect(q.placement == "float-right")
        #expect(abs(q.rect.width - 246.6 * 0.6) < 0.2)
    }

    // A quote a quarter of a column wide sets a word or two a line: warned of, once, at its
    // tag; the default width is not.
    @Test func narrowPullQuote() {
        let d = TemporaryDirectory("blocks")
        let quote = "“A page tells you when it is wrong, and the night goes better with tea.”"
        let narrow = d.write(
            "narrow.txt", Self.paragraphs(2) + "<pullquote float=\"center\" width=\"25%\">\(quote)</pullquote>\n" + Self.paragraphs(8))
        let r = run(["check", narrow])
        let said = r.stderr.components(separatedBy: "\n").filter { $0.contains("ems of its 14 pt type") }
        #expect(
            said == [
                "\(narrow):3:1: warning: this pull quote's lines are 49.7 pt wide, 3.5 ems of its 14 pt type, which sets a word or two a line; make it wider (width) or its type smaller"
            ], "\(r.stderr)")
        let usual = d.write("usual.txt", Self.paragraphs(2) + "<pullquote float=\"center\">\(quote)</pullquote>\n" + Self.paragraphs(8))
        #expect(!run(["check", usual]).stderr.contains("ems of"))
    }

    // Bad blocks get located diagnostics, never a hang.
    @Test func badBlocks() {
        let d = TemporaryDirectory("blocks")
        let long = String(repeating: "A very long pull quote that goes on. ", count: 400)
        let cut = d.write("long.txt", "Text.\n<pullquote>\(long)</pullquote>\nMore text.\n")
        let r = run(["check", cut])
        #expect(r.status == 0)
        #expect(r.stderr.contains("\(cut):2:1: warning: this pull quote is longer than the"), "\(r.stderr)")
        #expect(r.stderr.contains("the rest of it is cut"))

        let nested = d.write("nested.txt", "<aside>Out <pullquote>in</pullquote> out</aside>\n")
        let n = run(["check", nested])
        #expect(n.status == 1)
        #expect(n.stderr.contains("\(nested):1:12: error: a <pullquote> cannot stand inside the <aside> opened at 1:1; it is ignored"))

        let open = d.write("open.txt", "Text.\n<pullquote>never closed\n")
        let o = run(["check", open])
        #expect(o.status == 1)
        #expect(o.stderr.contains("\(open):2:1: error: <pullquote> is never closed; close it with </pullquote>"))

        let side = d.write("side.txt", "Text.\n<pullquote float=\"top\">q</pullquote>\n")
        let s = run(["check", side])
        #expect(s.status == 1)
        #expect(s.stderr.contains("error: unknown float 'top' for <pullquote>"))

        let style = d.write("style.txt", "Text.\n<aside class=\"sidbar\">q</aside>\n")
        #expect(run(["check", style]).stderr.contains("warning: unknown class 'sidbar'; did you mean 'sidebar'?"))
    }
}
