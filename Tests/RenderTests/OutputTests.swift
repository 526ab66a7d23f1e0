import Foundation
import GalleyLayout
import GalleyRender
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

// MARK: - Helpers

/// Builds `text` (as `t.txt` in a fresh folder) to `t.pdf`; returns the folder and the CLI result.
private func buildPDF(_ text: String, _ args: [String] = [], env: [String: String] = [:]) -> (TemporaryDirectory, CLIResult) {
    let dir = TemporaryDirectory("render")
    dir.write("t.txt", text)
    let r = run(["build", dir.file("t.txt"), "-o", dir.file("t.pdf"), "-q"] + args, env: env)
    return (dir, r)
}

/// Builds a sample to a PDF in a fresh folder.
private func buildSample(_ name: String, _ args: [String] = []) -> (TemporaryDirectory, CLIResult) {
    let dir = TemporaryDirectory("render")
    let r = run(["build", repoPath("samples/" + name), "-o", dir.file("t.pdf"), "-q"] + args)
    return (dir, r)
}

/// `pdfinfo`'s fields, keyed by name.
private func pdfinfo(_ path: String, _ args: [String] = []) -> [String: String] {
    var fields: [String: String] = [:]
    for line in tool("pdfinfo", args + [path]).output.split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return fields
}

/// Words as a reader sees them: ligatures expanded (NFKC), hyphenated line ends rejoined,
/// soft hyphens and hyphens dropped (a compound broken at its hyphen cannot be told apart).
func words(_ text: String) -> [String] {
    text.precomposedStringWithCompatibilityMapping
        .replacingOccurrences(of: "-\n", with: "")
        .replacingOccurrences(of: "\u{AD}", with: "")
        .split(whereSeparator: { $0.isWhitespace })
        .map { $0.replacingOccurrences(of: "-", with: "") }
}

/// A deterministic plain text: `count` paragraphs of numbered words, no hyphens, no markup.
func plainParagraphs(_ count: Int) -> String {
    let vocabulary = [
        "harbour", "compositor", "ink", "paper", "press", "metal", "quay", "lantern", "morning", "window", "letter", "galley", "proof",
        "margin", "column", "leading",
    ]
    var lines: [String] = []
    var n = 0
    for p in 0..<count {
        let length = 20 + (p * 37) % 100
        var ws: [String] = []
        for _ in 0..<length {
            ws.append("\(vocabulary[(n * 7) % vocabulary.count])\(n)")
            n += 1
        }
        lines.append(ws.joined(separator: " ") + ".")
    }
    return lines.joined(separator: "\n")
}

/// The first index where two word lists differ, for a readable failure.
private func firstDifference(_ a: [String], _ b: [String]) -> String {
    for (i, (x, y)) in zip(a, b).enumerated() where x != y {
        return "word \(i): '\(x)' vs '\(y)'"
    }
    return a.count == b.count ? "same" : "lengths \(a.count) vs \(b.count)"
}

// MARK: - Validity

@Suite struct PDFValidityTests {
    // qpdf finds no structural or stream errors in any sample or in a tiny inline text.
    @Test(arguments: ["article.txt", "chinese.txt", "long.txt"]) func qpdfCheckSamples(name: String) {
        let (dir, r) = buildSample(name)
        #expect(r.status == 0, "\(r.stderr)")
        let q = tool("qpdf", ["--check", dir.file("t.pdf")])
        #expect(q.status == 0, "\(q.output)\(q.stderr)")
        #expect(q.output.contains("No syntax or stream encoding errors found"))
    }

    // An inline text with colours, strokes and an empty paragraph is a valid PDF too.
    @Test func qpdfCheckInline() {
        let (dir, r) = buildPDF(
            "Plain\n\n<font color=\"red\" strokeColor=\"blue\">Stroked</font> <font strokeWidth=\"3\">hollow</font> 中文 😀")
        #expect(r.status == 0)
        #expect(tool("qpdf", ["--check", dir.file("t.pdf")]).status == 0)
    }

    // pdfinfo: A4 pages, as many as inspect reports.
    @Test func pageCountAndA4() throws {
        let (dir, r) = buildSample("article.txt")
        #expect(r.status == 0)
        let info = pdfinfo(dir.file("t.pdf"))
        #expect(info["Pages"] == "5")
        #expect(info["Page size"] == "595.276 x 841.89 pts (A4)")
        let json = run(["inspect", "--json", "-q", repoPath("samples/article.txt")]).stdout
        let pages = try #require((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["pages"] as? [Any])
        #expect(pages.count == 5)
    }

    // Another template's page size reaches the PDF: letter.
    @Test func letterSize() {
        let (dir, _) = buildPDF("x", ["--template", "letter"])
        #expect(pdfinfo(dir.file("t.pdf"))["Page size"] == "612 x 792 pts (letter)")
    }

    // Export.pdf called directly returns the number of pages it wrote.
    @Test func exportReturnsPageCount() throws {
        let dir = TemporaryDirectory("render")
        let fs = framesetter(sample("long.txt"))
        let n = try Export.pdf(
            fs, to: dir.file("x.pdf"), metadata: PDFMetadata(title: "x", creator: "test", date: Date(timeIntervalSince1970: 0)))
        #expect(n > 10)
        #expect(pdfinfo(dir.file("x.pdf"))["Pages"] == String(n))
    }

    // pdffonts: every font is embedded and subset (a six-letter tag before its name).
    @Test(arguments: ["article.txt", "chinese.txt"]) func fontsEmbeddedAndSubset(name: String) {
        let (dir, _) = buildSample(name)
        let rows = tool("pdffonts", [dir.file("t.pdf")]).output.split(separator: "\n").dropFirst(2)
        #expect(rows.count >= 2)
        for row in rows {
            let cols = row.split(separator: " ")
            #expect(cols.count >= 7)
            #expect(cols[cols.count - 5] == "yes", "not embedded: \(row)")
            #expect(cols[cols.count - 4] == "yes", "not subset: \(row)")
            #expect(cols[0].wholeMatch(of: /[A-Z]{6}\+.+/) != nil, "no subset tag: \(row)")
        }
    }

    // The JPEG is embedded as it is (DCT passthrough); PNGs are re-encoded.
    @Test func jpegPassthrough() {
        let (dir, _) = buildSample("article.txt")
        let list = tool("pdfimages", ["-list", dir.file("t.pdf")]).output
        let rows = list.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ") }
        let harbour = rows.first { $0.count > 8 && $0[3] == "1200" && $0[4] == "800" }
        #expect(harbour?[8] == "jpeg", "\(list)")
        let chart = rows.first { $0.count > 8 && $0[3] == "900" && $0[4] == "600" }
        #expect(chart?[8] == "image", "\(list)")
    }
}

// MARK: - Text order

@Suite struct TextOrderTests {
    // pdftotext's default mode orders text blocks by its own layout analysis, which splits
    // justified lines with wide gaps and short last lines into separate blocks and can read
    // a column-2 paragraph before the rest of column 1. `-raw` keeps content-stream order: the
    // order Galley draws in, which must be reading order (column 1, then column 2, page by page).

    /// The words of each column, page by page, cropping pdftotext to the column rectangles
    /// (so the folios are left out).
    private func columnText(_ pdf: String, template: Template) -> String {
        TestFonts.pin()
        let pages = Int(pdfinfo(pdf)["Pages"] ?? "0") ?? 0
        let columns = Framesetter(story: buildStory("").story, template: template, file: "-").columns
        var out = ""
        for p in 1...max(1, pages) {
            for c in columns {
                let args = [
                    "-raw", "-f", "\(p)", "-l", "\(p)", "-x", "\(Int(c.x) - 1)", "-y", "\(Int(c.y) - 1)",
                    "-W", "\(Int(c.width) + 3)", "-H", "\(Int(c.height) + 3)", pdf, "-",
                ]
                out += tool("pdftotext", args).output + "\n"
            }
        }
        return out
    }

    // Two justified columns, no footer: the whole document reads back every word once, in story order.
    @Test func wholeDocumentInOrder() {
        let text = plainParagraphs(40)
        let (dir, r) = buildPDF(text, ["--set", "footer.enabled=false"])
        #expect(r.status == 0)
        #expect(Int(pdfinfo(dir.file("t.pdf"))["Pages"] ?? "") ?? 0 >= 3)
        let extracted = words(tool("pdftotext", ["-raw", dir.file("t.pdf"), "-"]).output)
        let expected = words(text)
        let same = extracted == expected
        #expect(same, "\(firstDifference(extracted, expected))")
    }

    // With folios: column by column the words come back in story order, none lost or doubled.
    @Test func columnsInOrder() {
        let text = plainParagraphs(40)
        let (dir, r) = buildPDF(text)
        #expect(r.status == 0)
        let extracted = words(columnText(dir.file("t.pdf"), template: .default))
        let expected = words(text)
        let same = extracted == expected
        #expect(same, "\(firstDifference(extracted, expected))")
    }

    // Three columns (tabloid) read in order too.
    @Test func threeColumnsInOrder() {
        let text = plainParagraphs(60)
        let (dir, _) = buildPDF(text, ["--template", "tabloid"])
        let extracted = words(columnText(dir.file("t.pdf"), template: Template.builtin(named: "tabloid")!))
        let expected = words(text)
        let same = extracted == expected
        #expect(same, "\(firstDifference(extracted, expected))")
    }

    // The long sample (quotes, compounds, hyphenation) comes back in order.
    @Test func longSampleInOrder() {
        let (dir, _) = buildSample("long.txt")
        let extracted = words(columnText(dir.file("t.pdf"), template: .default))
        let expected = words(buildStory(sample("long.txt")).story.text)
        let same = extracted == expected
        #expect(same, "\(firstDifference(extracted, expected))")
    }

    // The Chinese sample: its Latin letters and digits come back in order.
    @Test func chineseSampleLatinInOrder() {
        let (dir, _) = buildSample("chinese.txt")
        func latin(_ s: String) -> String {
            String(
                s.precomposedStringWithCompatibilityMapping.unicodeScalars.filter {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))
                })
        }
        let extracted = latin(columnText(dir.file("t.pdf"), template: .default))
        let expected = latin(buildStory(sample("chinese.txt")).story.text)
        #expect(expected.count > 20)
        #expect(extracted == expected)
    }

    // The Chinese sample: every letter and digit back in order, ideographs included.
    @Test func chineseSampleInOrder() {
        let (dir, _) = buildSample("chinese.txt")
        func letters(_ s: String) -> [String] {
            s.precomposedStringWithCompatibilityMapping.replacingOccurrences(of: "-\n", with: "").unicodeScalars
                .filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }.map { String($0) }
        }
        let extracted = letters(columnText(dir.file("t.pdf"), template: .default))
        let expected = letters(buildStory(sample("chinese.txt")).story.text)
        let same = extracted == expected
        #expect(same, "\(firstDifference(extracted, expected))")
    }

    // Copying text out of the PDF gives the story's characters, not ligature or look-alike code points.
    @Test func extractedTextIsTheStoryText() {
        let (dir, _) = buildPDF("office fish off 文／字", ["--set", "footer.enabled=false"])
        let text = tool("pdftotext", ["-raw", dir.file("t.pdf"), "-"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text == "office fish off 文／字")
    }
}

// MARK: - Metadata and reproducibility

@Suite struct MetadataTests {
    // Title defaults to the input's name; creator names Galley and its version.
    @Test func defaultTitleAndCreator() {
        let (dir, _) = buildPDF("x")
        let info = pdfinfo(dir.file("t.pdf"))
        #expect(info["Title"] == "t")
        #expect(info["Creator"] == "Galley 0.1.0")
    }

    // Standard input builds are titled "Untitled".
    @Test func stdinTitle() {
        let dir = TemporaryDirectory("render")
        #expect(run(["build", "-", "-o", dir.file("s.pdf")], stdin: Array("x".utf8)).status == 0)
        #expect(pdfinfo(dir.file("s.pdf"))["Title"] == "Untitled")
    }

    // --title sets the title, non-ASCII included.
    @Test func explicitTitle() {
        let (dir, _) = buildPDF("x", ["--title", "Über den Hafen — 港"])
        #expect(pdfinfo(dir.file("t.pdf"))["Title"] == "Über den Hafen — 港")
    }

    // Without SOURCE_DATE_EPOCH the dates are fixed at 2000-01-01.
    @Test func fixedDate() {
        let (dir, _) = buildPDF("x")
        let info = pdfinfo(dir.file("t.pdf"), ["-isodates"])
        #expect(info["CreationDate"] == "2000-01-01T00:00:00Z")
        #expect(info["ModDate"] == "2000-01-01T00:00:00Z")
    }

    // SOURCE_DATE_EPOCH=1700000000 sets creation and modification dates to 2023-11-14T22:13:20Z.
    @Test func sourceDateEpoch() {
        let (dir, _) = buildPDF("x", env: ["SOURCE_DATE_EPOCH": "1700000000"])
        let info = pdfinfo(dir.file("t.pdf"), ["-isodates"])
        #expect(info["CreationDate"] == "2023-11-14T22:13:20Z")
        #expect(info["ModDate"] == "2023-11-14T22:13:20Z")
    }

    // A SOURCE_DATE_EPOCH that is no date a PDF holds stops the build, as the convention asks:
    // a word fell back to 2000 unsaid, and a year past 9999 wrote malformed dates.
    @Test(arguments: ["soon", "-5", "253402300800", "99999999999999"]) func badSourceDateEpoch(_ value: String) {
        let (dir, r) = buildPDF("x", env: ["SOURCE_DATE_EPOCH": value])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("galley build: error: SOURCE_DATE_EPOCH is '\(value)'; it must be whole seconds"), "\(r.stderr)")
        #expect(dir.read("t.pdf") == nil)
        let last = buildPDF("x", env: ["SOURCE_DATE_EPOCH": "253402300799"])
        #expect(pdfinfo(last.0.file("t.pdf"), ["-isodates"])["CreationDate"] == "9999-12-31T23:59:59Z")
    }

    // Two builds of the same input give identical bytes.
    @Test func identicalBuilds() {
        let (a, _) = buildSample("article.txt")
        let (b, _) = buildSample("article.txt")
        #expect(a.read("t.pdf") != nil && a.read("t.pdf") == b.read("t.pdf"))
    }

    // One shaping thread or four: identical bytes for a document big enough to shape in parallel.
    @Test func identicalAcrossThreadCounts() {
        let (a, _) = buildSample("long.txt", ["--threads", "1"])
        let (b, _) = buildSample("long.txt", ["--threads", "4"])
        #expect(a.read("t.pdf") != nil && a.read("t.pdf") == b.read("t.pdf"))
    }

    // A different SOURCE_DATE_EPOCH changes the bytes; the same one does not.
    @Test func epochChangesBytes() {
        let (a, _) = buildPDF("x", env: ["SOURCE_DATE_EPOCH": "1700000000"])
        let (b, _) = buildPDF("x", env: ["SOURCE_DATE_EPOCH": "1700000000"])
        let (c, _) = buildPDF("x")
        #expect(a.read("t.pdf") == b.read("t.pdf"))
        #expect(a.read("t.pdf") != c.read("t.pdf"))
    }
}
