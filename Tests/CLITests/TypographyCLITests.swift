import Foundation
import TestSupport
import Testing

/// Typographic punctuation from the command line: the PDF's text holds the marks, and source
/// positions after a replacement still find their characters.
@Suite struct TypographyCLITests {
    static let text =
        #"<h1>"Quotes"</h1>"# + "\n"
        + #""It's the '90s -- rock 'n' roll..." she said, and typed <code>grep "it's" -- x...</code> words follow."#
        + "\n"

    // The built PDF's text holds “ ” ’ where the source had straight quotes; <code> kept its own.
    @Test func pdfText() throws {
        let d = TemporaryDirectory("typography")
        let input = d.write("t.txt", Self.text)
        let pdf = d.file("t.pdf")
        #expect(run(["build", input, "-o", pdf, "-q"]).status == 0)
        let words = tool("pdftotext", [pdf, "-"]).output
        #expect(words.contains("“Quotes”"), "\(words)")
        #expect(words.contains("“It’s the ’90s -- rock ’n’ roll...” she said"), "\(words)")
        #expect(words.contains(#"grep "it's" -- x..."#), "\(words)")
        #expect(run(["build", input, "-o", pdf, "-q", "--set", "typography.dashes=true"]).status == 0)
        let dashed = tool("pdftotext", [pdf, "-"]).output
        #expect(dashed.contains("’90s – rock ’n’ roll…”"), "\(dashed)")
        #expect(dashed.contains(#"grep "it's" -- x..."#), "\(dashed)")
    }

    /// The column (from 1) of the first `needle` on line 2 of `text` (ASCII before it).
    static func column(of needle: String) -> Int {
        let line = text.split(separator: "\n")[1]
        return line.distance(from: line.startIndex, to: line.range(of: needle)!.lowerBound) + 1
    }

    /// `galley locate … --json` with dashes on, as an object.
    static func locate(_ input: String, _ args: [String]) throws -> [String: Any] {
        let r = run(["locate", input, "--json", "-q", "--set", "typography.dashes=true"] + args)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
    }

    // Past replacements that change the text's length (a dash, an ellipsis), `locate` still
    // goes from a source position to its word and back.
    @Test func locateAfterReplacements() throws {
        let d = TemporaryDirectory("typography")  // removed when it goes
        let input = d.write("t.txt", Self.text)
        let column = Self.column(of: "words")
        let object = try Self.locate(input, ["--source", "2:\(column)"])
        #expect(object["word"] as? String == "words" && object["source"] as? String == "2:\(column)", "\(object)")
        let line = try #require(object["line"] as? [String: Double])
        let x = try #require(object["x"] as? Double)
        let point = "\(x + 0.1),\(line["y"]! + line["height"]! / 2)"
        let back = try Self.locate(input, ["--page", "\(object["page"] as? Int ?? 0)", "--at", point])
        #expect(back["source"] as? String == "2:\(column)" && back["word"] as? String == "words", "\(back)")
        // An apostrophe, now three bytes, maps to where it was typed, in its word.
        let apostrophe = Self.column(of: "'")
        let found = try Self.locate(input, ["--source", "2:\(apostrophe)"])
        #expect(found["source"] as? String == "2:\(apostrophe)" && found["word"] as? String == "It’s", "\(found)")
    }

    // A running head or footer wider than the text (a long title) is cut to the text's width
    // with an ellipsis: it ran off the page.
    @Test func aLongRunningLineStaysOnThePage() throws {
        let d = TemporaryDirectory("running")
        let title = String(repeating: "A Very Long Title That Keeps Going ", count: 6)
        let input = d.write("in.txt", "<meta title=\"\(title)\">\n" + String(repeating: "Body words to fill the column.\n", count: 10))
        let pdf = d.file("out.pdf")
        let r = run([
            "build", input, "-o", pdf, "--set", "header.enabled=true", "--set", "header.text={title}", "--set", "footer.enabled=true",
            "--set", "footer.right={title} · {page}",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let html = tool("pdftotext", ["-bbox", pdf, "-"]).output
        var xs: [Double] = []
        for line in html.split(separator: "\n") where line.contains("<word ") {
            for key in ["xMin=\"", "xMax=\""] {
                if let r = line.range(of: key), let v = Double(line[r.upperBound...].prefix { $0 != "\"" }) { xs.append(v) }
            }
        }
        let margin = 42.0  // the magazine template's side margins are wider than this
        #expect(!xs.isEmpty && xs.allSatisfy { $0 >= margin && $0 <= 595.28 - margin }, "\(xs.min() ?? 0)…\(xs.max() ?? 0)")
        // The cut title is still the text a reader finds (Cairo maps the ellipsis to it).
        #expect(tool("pdftotext", [pdf, "-"]).output.hasPrefix(title.trimmingCharacters(in: .whitespaces)))
    }
}
