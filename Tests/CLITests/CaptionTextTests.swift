import Foundation
import TestSupport
import Testing

/// A caption's text is set in its face and comes back from the PDF: digits, `#` and `*` (emoji
/// to Pango's itemizer when a colour face is among the fallbacks) went to the emoji font, drawn
/// as grey boxes an emoji wide and lost from the text.
@Suite struct CaptionTextTests {
    @Test(arguments: ["Figure 57 #1", "Table 3*, 1952"])
    func aCaptionsDigitsStayText(caption: String) throws {
        let d = TemporaryDirectory("caption")
        d.write("chart.png", try #require(FileManager.default.contents(atPath: repoPath("samples/images/chart.png"))))
        let text = d.write("t.txt", "<img src=\"chart.png\" width=\"40%\" caption=\"\(caption)\">\n")
        let pdf = d.file("t.pdf")
        #expect(run(["build", text, "-o", pdf, "-q"]).status == 0)
        #expect(tool("pdftotext", [pdf, "-"]).output.contains(caption))
        #expect(!tool("pdffonts", [pdf]).output.contains("Type 3"), "no colour-emoji font for a caption of text")
    }
}

/// A URL found by `--social` breaks only where its characters allow: a hyphen added inside it
/// ("representation?param-") reads as part of the address.
@Suite struct SocialURLBreakTests {
    @Test func aURLTakesNoHyphen() {
        let text =
            "See https://example.com/documentation/configuration/international/representation?parameter=extraordinarily&other=value for details.\n"
        let r = run(["inspect", "-", "--social", "--lines", "-q", "--set", "columns=3"], stdin: Array(text.utf8))
        #expect(r.status == 0)
        let lines = r.output.split(separator: "\n").filter { $0.contains(" line ") }
        #expect(lines.count > 1, "\(r.output)")
        #expect(!lines.contains { $0.contains("HYPHEN") }, "\(r.output)")
    }
}
