import Foundation
import TestSupport
import Testing

/// `--timings`: where a PDF build's time went, one line after the build (and after each build
/// of `watch`), and in an issue's `--json` summary. The figures change from run to run, so
/// what is pinned is their form: every part named, none negative, the parts adding up to the
/// whole, and the PDF the same bytes with and without the flag.
@Suite struct TimingsTests {
    /// The line's parts, by name, in milliseconds; and the whole.
    static func parse(_ stderr: String) -> (parts: [(String, Int)], all: Int)? {
        guard let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("timings: ") || $0.hasPrefix("  timings: ") }),
            let semicolon = line.lastIndex(of: ";")
        else { return nil }
        let body = line[line.index(line.firstIndex(of: ":")!, offsetBy: 2)..<semicolon]
        var parts: [(String, Int)] = []
        for item in body.components(separatedBy: ", ") {
            let words = item.split(separator: " ")
            guard words.count >= 3, words.last == "ms", let ms = Int(words[words.count - 2]) else { return nil }
            parts.append((words.dropLast(2).joined(separator: " "), ms))
        }
        let tail = line[line.index(after: semicolon)...].split(separator: " ")
        guard tail.count == 4, let all = Int(tail[0]), tail[1] == "ms", tail[2] == "in", tail[3] == "all" else { return nil }
        return (parts, all)
    }

    static let text =
        "<h1>Tides</h1>\n" + String(repeating: "The harbour at dawn is grey and silver, the boats at rest. ", count: 400) + "\n"

    /// Each part once, in order, none negative, adding up to the whole within their rounding.
    static func checkParts(_ stderr: String, names: [String]) {
        guard let (parts, all) = parse(stderr) else {
            Issue.record("no timings line in:\n\(stderr)")
            return
        }
        #expect(parts.map(\.0) == names, "\(stderr)")
        #expect(parts.allSatisfy { $0.1 >= 0 })
        let sum = parts.map(\.1).reduce(0, +)
        #expect(abs(sum - all) <= parts.count, "\(sum) ms in parts, \(all) ms in all: \(stderr)")
    }

    static let documentParts = ["reading", "layout", "drawing", "Cairo writing the pages", "Cairo writing the fonts"]

    @Test func buildSaysWhereTheTimeWent() throws {
        let d = TemporaryDirectory("timings")
        let doc = d.write("doc.txt", Self.text)
        let timed = run(["build", doc, "-o", d.file("timed.pdf"), "--timings", "-q"])
        #expect(timed.status == 0, "\(timed.stderr)")
        Self.checkParts(timed.stderr, names: Self.documentParts)
        let plain = run(["build", doc, "-o", d.file("plain.pdf"), "-q"])
        #expect(!plain.stderr.contains("timings:"))
        #expect(d.read("timed.pdf") == d.read("plain.pdf"), "--timings changes nothing in the PDF")
    }

    @Test func pressBuildAddsItsPostPass() throws {
        let d = TemporaryDirectory("timings")
        let doc = d.write("doc.txt", Self.text)
        let r = run(["build", doc, "-o", d.file("press.pdf"), "--press", "--timings", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        Self.checkParts(r.stderr, names: Self.documentParts + ["PDF/X post-pass"])
        #expect((Self.parse(r.stderr)?.parts.last?.1 ?? 0) > 0, "the post-pass takes some time: \(r.stderr)")
    }

    struct Summary: Decodable {
        struct Seconds: Decodable {
            var readingAndLayout, drawing, cairoPages, cairoFonts, postPass, rest, total: Double
        }
        var timings: Seconds?
    }

    @Test func issueSummaryHoldsTheTimings() throws {
        let d = TemporaryDirectory("timings")
        let manifest = IssueBuildTests.issue(d)
        let r = run(["build", manifest, "-o", d.file("issue.pdf"), "--json", "--timings", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        Self.checkParts(
            r.stderr,
            names: ["reading and laying out the articles", "the rest", "drawing", "Cairo writing the pages", "Cairo writing the fonts"])
        let t = try #require(try JSONDecoder().decode(Summary.self, from: r.stdout).timings)
        let parts = [t.readingAndLayout, t.drawing, t.cairoPages, t.cairoFonts, t.postPass, t.rest]
        #expect(parts.allSatisfy { $0 >= 0 } && t.drawing > 0 && t.cairoPages > 0)
        #expect(abs(parts.reduce(0, +) - t.total) <= 0.006, "\(t)")
        let untimed = run(["build", manifest, "-o", d.file("issue2.pdf"), "--json", "-q"])
        #expect(try JSONDecoder().decode(Summary.self, from: untimed.stdout).timings == nil)
    }

    @Test func watchSaysItAfterEachBuild() throws {
        let d = TemporaryDirectory("timings")
        d.write("doc.txt", Self.text)
        let w = try WatchTests.Watcher(d, ["doc.txt", "-o", "doc.pdf", "--timings"])
        try w.wait("the first build") { w.lines(containing: "timings: ") == 1 }
        d.write("doc.txt", Self.text + "One more paragraph.\n")
        try w.wait("the rebuild") { w.lines(containing: "timings: ") == 2 }
        w.stop()
        let lines = w.text.split(separator: "\n")
        for (k, line) in lines.enumerated() where line.hasPrefix("  timings: ") {
            #expect(k > 0 && lines[k - 1].contains("wrote doc.pdf"), "each follows its build's line: \(w.text)")
            Self.checkParts(String(line), names: Self.documentParts)
        }
        let png = run(["watch", d.file("doc.txt"), "--page", "1", "-o", d.file("p.png"), "--timings"])
        #expect(png.status == 2 && png.stderr.contains("--timings measures a PDF's writing"), "\(png.stderr)")
    }
}
