import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// Indents are kept within the line: a first line hung before its column's edge ran into the
/// gutter and over the column before, and an indent past the column set the text off the page.
@Suite struct IndentBoundsTests {
    /// Every line's box, and every glyph it sets, within its column; and what was said.
    func check(_ markup: String) -> (outside: [String], said: [String]) {
        let fs = framesetter(markup)
        var outside: [String] = []
        for page in pages(of: fs) {
            for frame in page.frames {
                for line in frame.lines where line.box.x < frame.rect.x - 0.01 || line.box.maxX > frame.rect.maxX + 0.01 {
                    outside.append("page \(page.number): line at \(line.box.x)…\(line.box.maxX), column \(frame.rect.x)…\(frame.rect.maxX)")
                }
            }
        }
        return (outside, fs.diagnostics.all.map(\.message).filter { $0.hasPrefix("an indent of ") })
    }

    @Test func firstLineHungBeforeTheColumn() {
        let filler = "<p>" + String(repeating: "Filler text for the first column to fill it. ", count: 100) + "</p>"
        let (outside, said) = check(filler + "\n<p firstIndent=\"-40\">Hanging first line by forty points into the gutter.</p>")
        #expect(outside.isEmpty, "\(outside)")
        #expect(said == ["an indent of -40 pt would set the line 40 pt before its column's edge; set at 0 pt"], "\(said)")
    }

    @Test func indentPastTheColumn() {
        let (outside, said) = check("<p indent=\"600\">Indented past the column, and on for a line or two more.</p>")
        #expect(outside.isEmpty, "\(outside)")
        #expect(said.count == 1 && said[0].hasPrefix("an indent of 600 pt leaves too little of the "), "\(said)")
    }

    // A hanging indent within the column (indent and a negative first indent that undoes it)
    // is set as asked, without a word.
    @Test func hangingIndentWithinTheColumn() {
        let text = "A hanging indent: the first line at the edge, the rest in by twenty points, as a list is set."
        let (outside, said) = check("<p indent=\"20\" firstIndent=\"-20\">\(text)</p>")
        #expect(outside.isEmpty && said.isEmpty, "\(outside) \(said)")
    }
}
