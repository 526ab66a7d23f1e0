import Foundation
import TestSupport
import Testing

/// Justification as a PDF reader sees it: on a narrow measure, where lines are widened and
/// narrowed by glyph expansion, every justified line's last word ends on the column's edge in
/// the word boxes pdftotext reads from the glyphs' widths and text matrices. Were the glyphs
/// drawn at their own width while their places allow for expansion, a line would end up to
/// 2 % of its ink (some 3 pt) short of the edge or past it.
@Suite struct JustifiedPDFTests {
    @Test func expandedLinesEndOnTheEdge() throws {
        let d = TemporaryDirectory("justified")
        let paragraphs: [Substring] = sample("long.txt").split(separator: "\n").filter { $0.count > 300 }
        let text = paragraphs.prefix(6).joined(separator: "\n")
        let input = d.file("in.txt")
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let pdf = d.file("out.pdf")
        let r = run(["build", input, "-o", pdf, "--set", "columns=3", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = wordLines(pdf, page: 1)
        // The first column: its lines by baseline; a paragraph's last line ends short.
        let column = lines.filter { $0.xMin < 200 }
        let far = column.map(\.xMax).max() ?? 0
        let full = column.filter { $0.xMax > far - 6 }.sorted { $0.xMax < $1.xMax }
        #expect(full.count >= 30, "\(column.count) lines")
        let edge = full.isEmpty ? far : full[full.count / 2].xMax
        for line in full {
            #expect(abs(line.xMax - edge) < 0.3, "a line ends at \(line.xMax), the column at \(edge): \(line.last)")
        }
        // The glyphs themselves are scaled: text matrices wider and narrower than the type's
        // size, by at most 2 %.
        let qdf = d.file("qdf.pdf")
        #expect(tool("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf]).status == 0)
        let content = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        let scales = textMatrixScales(content)
        #expect(scales.contains { $0 > 1.004 } && scales.contains { $0 < 0.996 }, "\(Set(scales))")
        #expect(scales.allSatisfy { abs($0 - 1) <= 0.0201 }, "\(Set(scales))")
    }

    /// Horizontal ÷ vertical scale of every text matrix (`a b c d e f Tm`) of unslanted text.
    private func textMatrixScales(_ content: String) -> [Double] {
        content.split(separator: "\n").compactMap { line -> Double? in
            let n = line.split(separator: " ")
            guard n.count == 7, n[6] == "Tm", let a = Double(n[0]), let d = Double(n[3]), d != 0 else { return nil }
            return abs(a / d)
        }
    }

    /// Each text line of a page: where its first word starts and its last ends, and that word.
    private func wordLines(_ pdf: String, page: Int) -> [(xMin: Double, xMax: Double, last: String)] {
        let html = tool("pdftotext", ["-f", "\(page)", "-l", "\(page)", "-bbox-layout", pdf, "-"]).output
        var out: [(Double, Double, String)] = []
        for block in html.components(separatedBy: "<line ").dropFirst() {
            let words = block.components(separatedBy: "<word ").dropFirst().compactMap { w -> (Double, Double, String)? in
                guard let x0 = attribute("xMin", w), let x1 = attribute("xMax", w) else { return nil }
                let word = w.split(separator: ">").dropFirst().first.map { String($0.prefix { $0 != "<" }) } ?? ""
                return (x0, x1, word)
            }
            guard let first = words.first, let last = words.last else { continue }
            out.append((first.0, last.1, last.2))
        }
        return out
    }

    private func attribute(_ name: String, _ s: String) -> Double? {
        guard let r = s.range(of: name + #"="([0-9.]+)""#, options: .regularExpression) else { return nil }
        return Double(s[r].dropFirst(name.count + 2).dropLast())
    }
}
