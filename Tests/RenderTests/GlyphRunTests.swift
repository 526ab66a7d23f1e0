import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyRender

@Suite struct GlyphRunTests {
    /// The runs line 1 is placed as, and the runs its glyphs are drawn as: each as its text.
    private func runs(_ markup: String) -> (placed: [String], drawn: [String]) {
        TestFonts.pin()
        let template = attributeTemplate(width: 600, height: 200)
        let story = buildStory("<font face=\"DejaVu Serif\" size=\"10\">" + markup, template: template).story
        let fs = Framesetter(story: story, template: template, file: "t.txt", options: LayoutOptions(threads: 1))
        let line = PageRenderer(framesetter: fs).place(firstPageLines(fs)[0])
        func text(_ r: PlacedRun) -> String { String(story.text.utf8Slice(r.run.storyRange.lowerBound, r.run.storyRange.upperBound)) }
        return (line.runs.map(text), PageRenderer.glyphRuns(line.runs).map(text))
    }

    // Underline, strikethrough, background, shadow, letter spacing and ligatures change nothing
    // about how the glyphs themselves are drawn: the line's glyphs are drawn as one run.
    @Test func spansThatDrawGlyphsAlikeAreDrawnTogether() {
        let (placed, drawn) = runs(
            "One <u>two</u> three <s>four</s> five <span background=\"yellow\">six</span> seven "
                + "<span kern=\"1\">eight</span> <span ligatures=\"0\">nine</span> <span shadow=\"1 1 2 gray\">ten</span> end")
        #expect(placed.count == 13)
        #expect(drawn == ["One two three four five six seven eight nine ten end"])
    }

    // A colour, a face, a slant or a raised baseline changes the glyphs' drawing: its own run.
    @Test func spansThatDrawGlyphsDifferentlyKeepTheirRuns() {
        for span in ["<font color=\"red\">two</font>", "<b>two</b>", "<span obliqueness=\"0.2\">two</span>", "<sup>two</sup>"] {
            let (placed, drawn) = runs("One \(span) three <u>four</u> five")
            #expect(drawn == ["One ", "two", " three four five"], "\(span): placed \(placed)")
        }
    }

    // Merged glyphs keep their places: the drawn run's advances add up to the placed runs'.
    @Test func mergedRunsKeepEveryGlyphInPlace() {
        TestFonts.pin()
        let template = attributeTemplate(width: 600, height: 200, alignment: .justify)
        let text =
            "<font face=\"DejaVu Serif\" size=\"10\">"
            + String(repeating: "Justified <u>words</u> and <span kern=\"0.7\">more</span> of them. ", count: 8)
        let story = buildStory(text, template: template).story
        let fs = Framesetter(story: story, template: template, file: "t.txt", options: LayoutOptions(threads: 1))
        let renderer = PageRenderer(framesetter: fs)
        for placedLine in firstPageLines(fs) {
            let line = renderer.place(placedLine)
            // Each glyph's origin on the page: its run's start plus the advances before it.
            func origins(_ runs: [PlacedRun]) -> [Double] {
                runs.flatMap { r in
                    var at = r.start
                    return r.run.glyphs.map { g in
                        defer { at += Double(g.geometry.width) / pangoScale }
                        return at
                    }
                }
            }
            let drawn = PageRenderer.glyphRuns(line.runs)
            #expect(drawn.count < line.runs.count)
            let a = origins(line.runs)
            let b = origins(drawn)
            #expect(a.count == b.count)
            for (p, q) in zip(a, b) { #expect(abs(p - q) < 0.01) }
        }
    }
}
