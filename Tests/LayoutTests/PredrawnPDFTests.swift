import Foundation
import GalleyLayout
import GalleyRender
import GalleyTemplate
import TestSupport
import Testing

/// `galley watch` draws the pages its next build will most likely keep while it waits for the
/// edit (`PredrawnPDF`). The PDF made of them and of the pages drawn after the edit is a cold
/// build's, byte for byte, whether the edit falls after them (they are used), before them, or in
/// the template (the PDF is begun again).
@Suite struct PredrawnPDFTests {
    static let metadata = PDFMetadata(title: "t", creator: "test", date: Date(timeIntervalSince1970: 0))

    /// Draws every page `framesetter`'s last layout kept into the next PDF for `path`.
    static func predraw(after framesetter: Framesetter, to path: String) throws -> PredrawnPDF? {
        let predrawn = try PredrawnPDF(after: framesetter, to: path, metadata: metadata)
        while predrawn?.hasMore == true { try predrawn?.drawNext() }
        return predrawn
    }

    // Over long random documents and every template, with the page count in the footer or not,
    // edits of the text and now and then of the template, each build begun from the pages drawn
    // while the last one was awaited.
    @Test(arguments: 0..<6) func buildsFromPagesDrawnBeforeTheEditAreColdOnes(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 61_000)
        var text = IncrementalLayoutTests.longDocument(&rng)
        var template = try #require(Template.builtin(named: templateNames[seed % templateNames.count]))
        // Half of them count the pages in the footer, which lays each document out twice.
        if seed % 2 == 1 { template.footer.text = "{page} of {pages}" }
        let cache = ParagraphCache()
        let dir = TemporaryDirectory("predrawn")
        let path = dir.file("warm.pdf")
        var predrawn: PredrawnPDF?
        var (used, unused) = (0, 0)
        for step in 0..<8 {
            var what = "the first build"
            if step > 0 {
                var edited = ""
                var t = template
                repeat {
                    (edited, t, what) = IncrementalLayoutTests.edit(text, template, &rng)
                } while what.contains("float") || what.contains("<") && !what.contains("changed to")
                (text, template) = (edited, t)
            }
            let warm = framesetter(text, template: template, cache: cache)
            try Export.pdf(warm, to: path, metadata: Self.metadata, predrawn: predrawn)
            if let predrawn { predrawn.taken > 0 ? (used += predrawn.taken) : (unused += 1) }
            try Export.pdf(framesetter(text, template: template), to: dir.file("cold.pdf"), metadata: Self.metadata)
            #expect(dir.read("warm.pdf") == dir.read("cold.pdf"), "seed \(seed), step \(step): \(what)")
            predrawn = try Self.predraw(after: warm, to: path)
        }
        // Pages were drawn before some edit (whether it used them is the edits' luck: the
        // tests below and `WatchTests` make sure of both ways).
        #expect(used + unused > 0, "seed \(seed): no pages drawn before an edit")
    }

    // A footer that shows the page count has the layout count the pages first, in a pass of
    // its own, and the pass after it takes every page from that one: the pages kept from the
    // build before are those the counting pass kept, and they are drawn with the count.
    @Test func aPageCountInTheFooterStillBeginsThePDFAgain() throws {
        var template = Template.default
        template.footer.text = "{page} of {pages}"
        let paragraphs = (1...90).map { "Paragraph \($0): " + String(repeating: "the harbour at dawn, grey and silver. ", count: 6) }
        let dir = TemporaryDirectory("predrawn-count")
        let path = dir.file("warm.pdf")
        let cache = ParagraphCache()
        var lines = paragraphs
        var predrawn: PredrawnPDF?
        for (step, at) in [80, 80, 80, 8].enumerated() {
            lines[at] += " An edit."
            let text = lines.joined(separator: "\n")
            let warm = framesetter(text, template: template, cache: cache)
            try Export.pdf(warm, to: path, metadata: Self.metadata, predrawn: predrawn)
            try Export.pdf(framesetter(text, template: template), to: dir.file("cold.pdf"), metadata: Self.metadata)
            #expect(dir.read("warm.pdf") == dir.read("cold.pdf"), "step \(step)")
            // (The first build keeps nothing, so nothing is drawn before the second.) An edit on
            // the last page takes the pages drawn before it; one on the second does not.
            if step == 2 { #expect((predrawn?.taken ?? 0) > 0) }
            if step == 3 { #expect(predrawn?.taken == 0) }
            predrawn = try Self.predraw(after: warm, to: path)
        }
    }

    // Pages drawn before an edit that falls after them are used; before one that falls among
    // them they are not, and the PDF is begun again. Either way it is the cold one.
    @Test func editsAfterThePagesDrawnUseThemAndOthersBeginAgain() throws {
        let paragraphs = (1...90).map { "Paragraph \($0): " + String(repeating: "the harbour at dawn, grey and silver. ", count: 6) }
        let dir = TemporaryDirectory("predrawn-again")
        let path = dir.file("warm.pdf")
        let cache = ParagraphCache()
        func build(_ lines: [String], predrawn: PredrawnPDF?) throws -> Framesetter {
            let warm = framesetter(lines.joined(separator: "\n"), cache: cache)
            try Export.pdf(warm, to: path, metadata: Self.metadata, predrawn: predrawn)
            try Export.pdf(framesetter(lines.joined(separator: "\n")), to: dir.file("cold.pdf"), metadata: Self.metadata)
            #expect(dir.read("warm.pdf") == dir.read("cold.pdf"))
            return warm
        }
        var lines = paragraphs
        _ = try build(lines, predrawn: nil)
        lines[80] += " An edit near the end."
        let second = try build(lines, predrawn: nil)
        // An edit where the last one was: the pages drawn before it are used.
        let predrawn = try #require(try Self.predraw(after: second, to: path))
        #expect(predrawn.count > 2)
        lines[80] += " Another edit near the end."
        let third = try build(lines, predrawn: predrawn)
        #expect(predrawn.taken == predrawn.count)
        // An edit on the second page: the pages drawn after it are not the next build's.
        let again = try #require(try Self.predraw(after: third, to: path))
        lines[8] += " An edit near the start."
        _ = try build(lines, predrawn: again)
        #expect(again.taken == 0)
    }
}
