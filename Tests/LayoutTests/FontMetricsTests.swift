import CPango
import GalleyLayout
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// The width of the single line `markup` sets to, and its height.
private func firstLine(_ markup: String) throws -> PlacedLine {
    let fs = framesetter(markup)
    return try #require(pages(of: fs).first?.frames.first?.lines.first)
}

@Suite struct FontMetricsTests {
    // Body text lines are as tall as the template's leading (12 pt for 10 pt magazine body).
    @Test func bodyLineHeight() throws {
        #expect(try firstLine("Hello").box.height == 12)
    }

    // A bigger font makes a taller line, in proportion (20 pt → 24 pt).
    @Test func biggerFontTallerLine() throws {
        #expect(try firstLine("<font size=\"20\">Hello</font>").box.height == 24)
    }

    // A superscript or subscript (nested too) keeps the line's pitch, so the next line stays
    // on the baseline grid; a run raised by 10 pt pushes it apart.
    @Test(arguments: ["mc<sup>2</sup>", "H<sub>2</sub>O", "x<sup>n<sup>2</sup></sup>", "H<sub>2</sub>O mc<sup>2</sup>"])
    func raisedFiguresKeepTheLeading(markup: String) throws {
        #expect(try firstLine("Energy is \(markup) here").box.height == 12)
    }

    @Test func aRunRaisedHighPushesTheLineDown() throws {
        #expect(try firstLine("Up <span baseline=\"10\">there</span> now").box.height > 18)
    }

    // A kern further back than a letter is wide stops each advance at 0: the line was set
    // backwards, out of its column and over the next one's text (width -230.8).
    @Test func negativeKernNeverRunsBackwards() throws {
        let markup = "Plain start, then <span kern=\"-20\">kern minus twenty here</span>."
        let line = try firstLine(markup)
        #expect(line.contentWidth > 0 && line.contentWidth <= line.box.width, "\(line.contentWidth)")
        #expect(
            buildStory(markup).diagnostics.warnings.map(\.message) == [
                "kern '-20' takes back more than half of the 10 pt type: its letters are drawn over each other"
            ])
        #expect(buildStory("<span kern=\"-1\">tight</span>").diagnostics.warnings.isEmpty)
    }

    // A CJK ideograph at 10 pt is 10 pt wide (fallback to Noto Serif CJK).
    @Test func cjkIdeographWidth() throws {
        #expect(abs(try firstLine("中").contentWidth - 10) < 0.01)
    }

    // Text width scales with size: 20 pt text is twice as wide as 10 pt text.
    @Test func widthScalesWithSize() throws {
        let small = try firstLine("Hello").contentWidth
        let big = try firstLine("<font size=\"20\">Hello</font>").contentWidth
        #expect(abs(big - 2 * small) < 0.1)
    }

    // A colour emoji at 10 pt is about 10 pt wide, and scales with the size, like any glyph.
    @Test(arguments: [10.0, 20.0]) func emojiWidth(size: Double) throws {
        let line = try firstLine("<font size=\"\(Int(size))\">😀</font>")
        #expect(line.contentWidth < size * 1.5, "emoji width \(line.contentWidth) at \(size) pt")
    }

    // A machine where fontconfig finds no font (an empty FONTCONFIG_FILE) gets one clear error
    // instead of a layout of missing glyphs (it used to crash while shaping).
    @Test func noFontsIsAnError() throws {
        let engine = TextEngine(plan: .empty)
        let empty = FcConfigCreate()
        pango_fc_font_map_set_config(OpaquePointer(engine.fontMap), empty)
        FcConfigDestroy(empty)
        let story = buildStory("Hello").story
        let (_, diagnostics) = FontPlan.resolve(story: story, fallbackFaces: [], language: "en", file: "t.txt", engine: engine)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.severity == .error)
        #expect(diagnostics.first?.message.hasPrefix("fontconfig finds no fonts") == true)
    }

    // A template fallback that is not installed is left out, with a warning: fontconfig's
    // stand-in for it took the characters before the fallbacks after it.
    @Test func missingFallbackLeftOut() {
        let story = buildStory("Hello 你好").story
        let (plan, diagnostics) = FontPlan.resolve(
            story: story, fallbackFaces: ["Nowhere Sans", "Noto Sans CJK SC"], scriptFallbacks: ["Hani": ["Nowhere Serif CJK"]],
            language: "en", file: "t.txt")
        #expect(plan.fallbackFaces == ["Noto Sans CJK SC"])
        #expect(plan.scriptFallbacks.allSatisfy { $0.faces.isEmpty }, "\(plan.scriptFallbacks)")
        #expect(
            diagnostics.map(\.message).sorted() == [
                "the template's fallback face 'Nowhere Sans' is not installed; it is left out of the fallbacks",
                "the template's fallback face 'Nowhere Serif CJK' is not installed; it is left out of the fallbacks",
            ], "\(diagnostics)")
        // A family Galley knows by kind takes its kind's stand-in, as a style's face does.
        let (mac, said) = FontPlan.resolve(story: story, fallbackFaces: ["Songti SC"], language: "en", file: "t.txt")
        #expect(mac.fallbackFaces == ["Songti SC"])
        #expect(said.map(\.message) == ["face 'Songti SC' is not installed; using 'Noto Serif CJK SC' (a CJK serif (Song/Ming/Mincho))"])
    }
}
