import Foundation
import TestSupport
import Testing

// Running heads in the PDF, page by page, as a reader extracts them.

/// Builds `text` (as `t.txt` in a fresh folder) to `t.pdf` with the running head on, set for
/// facing pages; returns the folder and the CLI result.
private func buildFacing(_ text: String, _ args: [String] = []) -> (TemporaryDirectory, CLIResult) {
    let dir = TemporaryDirectory("heads")
    dir.write("t.txt", text)
    let sets = [
        "header.enabled=true", "header.left={page} · {issue}", "header.right={title} · {section} · {page}",
        "margins.inner=25mm", "margins.outer=12mm",
    ]
    let r = run(["build", dir.file("t.txt"), "-o", dir.file("t.pdf"), "-q"] + sets.flatMap { ["--set", $0] } + args)
    return (dir, r)
}

/// The text pdftotext finds on page `page` inside the rectangle (points, from the top left).
private func text(_ pdf: String, page: Int, x: Int, y: Int, width: Int, height: Int) -> String {
    let args = ["-raw", "-f", "\(page)", "-l", "\(page)", "-x", "\(x)", "-y", "\(y)", "-W", "\(width)", "-H", "\(height)", pdf, "-"]
    return tool("pdftotext", args).output.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Words enough for about four A4 pages of two columns.
private let body = (1...70).map { p in (1...45).map { "word\(p)x\($0)" }.joined(separator: " ") }.joined(separator: "\n")

@Suite struct RunningHeadOutputTests {
    // The head of each page, in the top margin (42 pt of A4's 15 mm), in its half of the page:
    // none on page 1, which opens the story with an <h1> across the columns; then left-hand
    // pages flush left, right-hand pages flush right, every field filled from <meta>.
    @Test func headsPerPage() throws {
        let meta = "<meta title=\"The Last Compositors\" section=\"Features\" issue=\"No. 12\">\n"
        let (dir, r) = buildFacing(meta + "<h1 span=\"all\">Setting by Hand</h1>\n" + body)
        #expect(r.status == 0, "\(r.stderr)")
        let pdf = dir.file("t.pdf")
        let info = tool("pdfinfo", [pdf]).output.split(separator: "\n")
        let pages = Int(info.first { $0.hasPrefix("Pages:") }?.split(separator: " ").last ?? "") ?? 0
        try #require(pages >= 4)
        func head(_ p: Int) -> (left: String, right: String) {
            (text(pdf, page: p, x: 0, y: 0, width: 297, height: 42), text(pdf, page: p, x: 298, y: 0, width: 297, height: 42))
        }
        #expect(head(1) == ("", ""))
        #expect(head(2) == ("2 · No. 12", ""))
        #expect(head(3) == ("", "The Last Compositors · Features · 3"))
        #expect(head(4) == ("4 · No. 12", ""))
        // The footer stays centred, the folio alone.
        #expect(text(pdf, page: 2, x: 0, y: 800, width: 595, height: 42) == "2")
    }
    // With no <meta> the title is the first <h1>'s (the section, not given, is empty, and its
    // separator goes with it); the head is off unless enabled.
    @Test func titleFromHeading() {
        let (dir, r) = buildFacing("<h1>Setting by Hand</h1>\n" + body)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(text(dir.file("t.pdf"), page: 1, x: 298, y: 0, width: 297, height: 42) == "Setting by Hand · 1")
        let plain = TemporaryDirectory("heads")
        plain.write("t.txt", "<h1>Setting by Hand</h1>\n" + body)
        #expect(run(["build", plain.file("t.txt"), "-o", plain.file("t.pdf"), "-q"]).status == 0)
        #expect(text(plain.file("t.pdf"), page: 2, x: 0, y: 0, width: 595, height: 42) == "")
    }
    // An unknown field in a --set text is a usage error naming it; nothing is written.
    @Test func unknownField() {
        let (dir, r) = buildFacing("Text.", ["--set", "footer.text={page} {issues}"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--set footer.text={page} {issues}: unknown placeholder '{issues}'; did you mean '{issue}'?"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("t.pdf")))
    }
    // A located template error for an unknown field in a template file.
    @Test func unknownFieldInFile() {
        let dir = TemporaryDirectory("heads")
        dir.write("t.txt", "Text.")
        dir.write("h.json", "{\n  \"header\": {\"enabled\": true, \"right\": \"{title} {folio}\"}\n}\n")
        let r = run(["build", dir.file("t.txt"), "--template", dir.file("h.json"), "-o", dir.file("t.pdf"), "-q"])
        #expect(r.status != 0)
        #expect(
            r.stderr.contains(
                "h.json:2:40: error: key 'header.right': unknown placeholder '{folio}'; use {page}, {pages}, {title}, {section} or {issue}"
            ))
    }
}
