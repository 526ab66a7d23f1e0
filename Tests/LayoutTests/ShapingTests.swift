import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// Shapes the first paragraph of `markup` with the pinned fonts.
private func shapeFirst(_ markup: String) -> (story: Story, shaped: ShapedText) {
    TestFonts.pin()
    let story = buildStory(markup).story
    let template = Template.default
    let (plan, _) = FontPlan.resolve(story: story, fallbackFaces: template.fallbackFaces, language: template.language, file: "t")
    return (story, TextEngine(plan: plan).shape(story, paragraph: 0))
}

/// Each glyph run as "first byte..<end byte colour-hex", and every glyph's cluster inside its run.
private func runs(_ r: (story: Story, shaped: ShapedText)) -> [String] {
    r.shaped.runs.map { run in
        for g in Int(run.glyphs.lowerBound)..<Int(run.glyphs.upperBound) {
            #expect(run.bytes.contains(r.shaped.clusters[g]), "glyph \(g) outside its run \(run.bytes)")
        }
        let c = r.story.styles[Int(run.style)].color
        return "\(run.bytes.lowerBound)..<\(run.bytes.upperBound) \(c.red == 1 ? "red" : "black")"
    }
}

@Suite struct ShapingTests {
    // Style runs that differ only in how their glyphs are drawn are shaped as one: the pair
    // kerning of "WAVE" applies across the colour changes, so the advances are those of the
    // plain word; the glyph runs are still one per style run.
    @Test func alikeStylesShapeTogether() {
        let plain = shapeFirst("WAVE")
        let spans = shapeFirst(#"W<span color="red">AV</span>E"#)
        #expect(spans.shaped.x == plain.shaped.x)
        #expect(runs(spans) == ["0..<1 black", "1..<3 red", "3..<4 black"])
        // The font kerns W–A and V–E: styles that shape apart (here only in naming a feature
        // that is on anyway) lose that kerning at their boundaries.
        let apart = shapeFirst(#"W<span features="kern">AV</span>E"#)
        #expect(apart.shaped.x != plain.shaped.x)
    }

    // Letter-spaced text has no ligatures (a ligature stayed one glyph among spaced letters,
    // "o ﬃ c e"); set solid, "office" takes one.
    @Test func letterSpacingTurnsLigaturesOff() {
        #expect(shapeFirst("office").shaped.glyphs.count < 6)
        #expect(shapeFirst(#"<span kern="3">office</span>"#).shaped.glyphs.count == 6)
        #expect(shapeFirst(#"<span kern="3" ligatures="2">office</span>"#).shaped.glyphs.count < 6)
    }

    // A cluster that would hold characters of two styles (here a combining accent given its
    // own colour) sends the paragraph back to one item per style run: the accent keeps a glyph
    // of its own style.
    @Test func aClusterAcrossStylesIsShapedApart() {
        let r = shapeFirst("e<span color=\"red\">\u{301}</span>x")
        #expect(runs(r) == ["0..<1 black", "1..<3 red", "3..<4 black"])
        #expect(r.shaped.runs[1].glyphs.count >= 1)
    }

    // A letter with more combining marks than a cluster is shaped with is cut into pieces of
    // at most `longestShapedCluster` characters (HarfBuzz's mark lookback is quadratic): every
    // mark still has its glyph, the pieces keep the text's order, and the break analysis (one
    // grapheme, no break inside) is the text's own.
    @Test func longClustersAreShapedInPieces() {
        let marks = 1000
        let r = shapeFirst("x a" + String(repeating: "\u{301}", count: marks) + " y")
        // (HarfBuzz composes the letter and the first acute into one glyph, á.)
        #expect(r.shaped.glyphs.count == 4 + marks)
        #expect(r.shaped.clusters == r.shaped.clusters.sorted())
        let pieceStarts = r.shaped.runs.map(\.bytes.lowerBound)
        #expect(pieceStarts.count >= marks / TextEngine.longestShapedCluster)
        #expect(pieceStarts == pieceStarts.sorted())
    }

    // Only Latin paragraphs are merged: elsewhere a fallback font's run lends its font to the
    // punctuation after it within an item.
    @Test func latinTextTest() {
        #expect(TextEngine.isLatinText(Array("plain ASCII, digits 0-9".utf8)))
        #expect(TextEngine.isLatinText(Array("café — “quoted” naïve e\u{301}".utf8)))
        #expect(!TextEngine.isLatinText(Array("汉字 #话题#".utf8)))
        #expect(!TextEngine.isLatinText(Array("emoji 😀".utf8)))
        #expect(!TextEngine.isLatinText(Array("שלום".utf8)))
        #expect(!TextEngine.isLatinText(Array("a\u{202B}b".utf8)))
        #expect(!TextEngine.isLatinText(Array("a\u{2067}b".utf8)))
        #expect(!TextEngine.isLatinText(Array("Привет".utf8)))
    }
}
