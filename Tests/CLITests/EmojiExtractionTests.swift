import Foundation
import TestSupport
import Testing

/// Colour emoji are painted as images over a blank glyph that carries their characters. Cairo
/// left a blank glyph out of the PDF when it fell on a whole point (its ink box, a point, was
/// empty): 👍🏽 at the start of a line with a 50 pt margin (in the social sample, a line that
/// happened to start so) was drawn but not extracted.
@Suite struct EmojiExtractionTests {
    @Test(arguments: ["42.5", "50", "40", "60.25"]) func modifierEmojiExtractsAtAnyPlace(margin: String) {
        let d = TemporaryDirectory("emoji")
        let input = d.write("t.txt", "👍🏽 in context, and 😀 after\n")
        let pdf = d.file("t.pdf")
        let set = ["--set", "margins.left=\(margin)", "--set", "margins.inner=\(margin)"]
        #expect(run(["build", input, "-o", pdf, "-q"] + set).status == 0)
        let words = tool("pdftotext", [pdf, "-"]).output
        #expect(words.contains("👍🏽"), "margin \(margin): \(words)")
        #expect(words.contains("😀"), "margin \(margin): \(words)")
    }
}
