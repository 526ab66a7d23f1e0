import Foundation
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// A6 with three columns of about 5.9 pt: narrower than most glyphs at 10 pt.
private var slivers: Template {
    var t = Template.default
    (t.pageWidth, t.pageHeight) = PageSize.a6.points
    t.margins = EdgeInsets(top: 20, right: 140, bottom: 20, left: 140)
    t.gutter = 0
    t.columns = 3
    return t
}

/// A6, one column, 10 mm margins.
private var small: Template {
    var t = Template.default
    (t.pageWidth, t.pageHeight) = PageSize.a6.points
    t.margins = EdgeInsets(all: 28)
    t.columns = 1
    return t
}

/// Pathological inputs must terminate, produce pages and keep the invariants. Warnings are fine.
@Suite(.timeLimit(.minutes(1))) struct PathologicalTests {
    // A 5,000-character word is broken (emergency breaks), nothing lost.
    @Test func fiveThousandCharacterWord() {
        let fs = framesetter(String(repeating: "x", count: 5000))
        let ps = expectInvariants(fs, "long word")
        let lines = ps.flatMap(\.frames).flatMap(\.lines)
        #expect(lines.count > 20)
        #expect(lines.allSatisfy { $0.contentWidth <= $0.box.width + 0.01 })
    }

    // The long word in a narrow page with a pocket-like column.
    @Test func longWordSmallPage() {
        expectInvariants(framesetter("a " + String(repeating: "é", count: 5000) + " b", template: small), "long word, A6")
    }

    // Columns narrower than a glyph: one glyph (or grapheme) per line, overfull, never an empty line forever.
    @Test func columnNarrowerThanAGlyph() {
        let t = slivers
        #expect(t.columnWidth < 6 && t.columnWidth >= 1)
        let fs = framesetter("WWW mmm 中文 😀 Hello", template: t)
        let ps = expectInvariants(fs, "slivers")
        let lines = ps.flatMap(\.frames).flatMap(\.lines)
        #expect(lines.contains { $0.overfull })
        #expect(fs.diagnostics.warnings.contains { $0.message.contains("wider than its column") })
        let text = Array(fs.story.text.utf8)
        let empty = lines.filter { $0.storyRange.isEmpty }
        #expect(empty.isEmpty, "\(empty.count) empty lines")
        let blank = lines.filter { l in !l.storyRange.isEmpty && text[l.storyRange].allSatisfy { $0 == 0x20 } }
        #expect(blank.isEmpty, "\(blank.count) lines of only spaces")
    }

    // The same slivers asked through --set, as a user would: refused, since columns narrower
    // than two ems of the body only make thousands of warnings and pages (the layout itself
    // holds for them, above).
    @Test func columnNarrowerThanAGlyphThroughSet() throws {
        let result = TemplateLoader.apply(
            ["page.size=A6", "columns=3", "margins.left=140", "margins.right=140", "gutter=0"], to: .default, file: "--set")
        guard case .failure(let d) = result else {
            Issue.record("slivers accepted")
            return
        }
        #expect(
            d.message.hasPrefix("--set gutter=0: template leaves too little room for text: columns would be 5.8 pt wide"), "\(d.message)")
    }

    // A 400 pt font on a small page: lines taller than the column are placed anyway, one per column.
    @Test func hugeFontSmallPage() {
        let fs = framesetter("<font size=\"400\">Big</font> text", template: small)
        let ps = expectInvariants(fs, "400 pt")
        #expect(ps.count >= 2)
        #expect(fs.diagnostics.warnings.contains { $0.message.hasPrefix("a line 480 pt tall does not fit a column 363.5 pt tall") })
        for frame in ps.flatMap(\.frames) where frame.lines.contains(where: { $0.box.height > frame.rect.height }) {
            #expect(frame.lines.count == 1)
        }
    }

    // A vertical block of 700 pt characters on a small page: each line is wider than the column,
    // so one is set in each column anyway, with one warning, and the flow ends (it made empty
    // pages for ever).
    @Test func verticalLineWiderThanTheColumn() {
        let fs = framesetter("<vertical>縦書き<font size=\"700\">大きな字</font>の文</vertical>\nAfter.", template: small)
        let ps = pages(of: fs)
        let vertical = ps.flatMap(\.frames).flatMap(\.lines).filter(\.vertical)
        #expect(!vertical.isEmpty && ps.count < 40)
        for frame in ps.flatMap(\.frames) { #expect(frame.lines.filter(\.vertical).count <= 1) }
        // Said once each: too wide for the column, and (700 pt tall) too long for the block.
        let warned = fs.diagnostics.warnings.filter { $0.message.hasPrefix("a vertical line") }
        #expect(warned.filter { $0.message.contains("wide does not fit a column") }.count == 1, "\(warned.map(\.message))")
        #expect(warned.filter { $0.message.contains("longer than its block") }.count <= 1, "\(warned.map(\.message))")
        #expect(fs.story.text.hasSuffix("After.") && ps.last!.frames.flatMap(\.lines).contains { !$0.vertical })
    }

    // The largest size the markup allows (2000 pt).
    @Test func maximumFontSize() {
        expectInvariants(framesetter("<font size=\"2000\">W</font>x", template: small), "2000 pt")
    }

    // An image taller than the page is shrunk to the column height, with a warning.
    @Test func imageTallerThanThePage() {
        let fs = framesetter("Above\n<img src=\"images/tall.png\">\nBelow", template: small)
        let ps = expectInvariants(fs, "tall image")
        let images = ps.flatMap(\.frames).flatMap(\.images)
        #expect(images.count == 1)
        #expect(images.first?.shrunk == true)
        if let i = images.first {
            #expect(abs(i.rect.height - small.textHeight) < 0.01)
            #expect(abs(i.rect.width / i.rect.height - 300.0 / 1400.0) < 0.001)
        }
        #expect(fs.diagnostics.warnings.contains { $0.message.hasPrefix("image 'images/tall.png' is taller than the column; shrunk to") })
    }

    // A block image taller than the page keeps its caption: the image is shrunk so that it and
    // its caption fit the column, the caption set under it across the column (the image was
    // shrunk to the whole column and its caption dropped, without a word).
    @Test func captionOfAnImageTallerThanThePage() throws {
        let fs = framesetter("Above\n<img src=\"images/tall.png\" caption=\"A tall banner and its caption.\">\nBelow", template: small)
        let ps = expectInvariants(fs, "tall image with a caption")
        let images = ps.flatMap(\.frames).flatMap(\.images)
        #expect(images.count == 1)
        let i = try #require(images.first)
        #expect(i.shrunk && i.caption == "A tall banner and its caption.")
        let caption = try #require(i.captionRect)
        let frame = try #require(ps.flatMap(\.frames).first { f in f.images.contains { $0.image == i.image } })
        #expect(caption.height > 0 && caption.y >= i.rect.maxY && caption.x == frame.rect.x && caption.width == frame.rect.width)
        // The figure, caption included, fits its column; the image keeps its proportions.
        #expect(i.rect.y >= frame.rect.y - 0.01 && caption.maxY <= frame.rect.maxY + 0.01, "\(i.rect) \(caption) in \(frame.rect)")
        #expect(i.rect.height < small.textHeight - caption.height)
        #expect(abs(i.rect.width / i.rect.height - 300.0 / 1400.0) < 0.001)
        let warnings = fs.diagnostics.warnings.map(\.message)
        let shrunk = "image 'images/tall.png' and its caption are taller than the column; shrunk to"
        #expect(warnings.contains { $0.hasPrefix(shrunk) }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("caption of image") }, "\(warnings)")
    }

    // An image whose attributes make it absurdly tall, and one absurdly wide.
    @Test func extremeImageShapes() {
        let text =
            "<img src=\"images/chart.png\" width=\"1\" height=\"100000\">\n<img src=\"images/chart.png\" width=\"100000\" height=\"1\">\nx"
        let ps = expectInvariants(framesetter(text, template: small), "extreme images")
        #expect(ps.flatMap(\.frames).flatMap(\.images).count == 2)
    }

    // Many images in a row, each taller than the column: one per column, all placed.
    @Test func manyTallImages() {
        let text = String(repeating: "<img src=\"images/tall.png\">\n", count: 12)
        let ps = expectInvariants(framesetter(text, template: small), "tall images")
        #expect(ps.flatMap(\.frames).flatMap(\.images).count == 12)
    }

    // An empty file: one page, empty frames.
    @Test func emptyFile() {
        let fs = framesetter("")
        let ps = expectInvariants(fs, "empty")
        #expect(ps.count == 1)
        #expect(ps[0].frames.allSatisfy { $0.visibleRange == 0..<0 })
    }

    // A file of only newlines: empty paragraphs flow over pages like lines.
    @Test func onlyNewlines() {
        let ps = expectInvariants(framesetter(String(repeating: "\n", count: 2000)), "newlines")
        #expect(ps.count > 1)
    }

    // Only newlines in blank-line mode: nothing to set, still one page.
    @Test func onlyNewlinesBlankLineMode() {
        var t = Template.default
        t.paragraphMode = .blankLine
        #expect(expectInvariants(framesetter(String(repeating: "\n", count: 2000), template: t), "newlines, blank-line").count == 1)
    }

    // 2,000 <font> tags never closed: 2,000 nested styles, laid out.
    @Test func twoThousandUnclosedFonts() {
        var text = ""
        for i in 0..<2000 { text += "<font size=\"\(6 + i % 20)\" color=\"#\(String(format: "%06x", i * 2654435 % 0xFFFFFF))\">w\(i) " }
        let fs = framesetter(text)
        let ps = expectInvariants(fs, "2000 fonts")
        #expect(fs.story.styles.count > 100)
        #expect(ps.count >= 1)
    }

    // Very long single paragraph (no newline), 200 KB: terminates with many pages.
    @Test func hugeParagraph() {
        let text = String(repeating: "lorem ipsum dolor sit amet ", count: 8000)
        let ps = expectInvariants(framesetter(text, threads: 4), "200 KB paragraph")
        #expect(ps.count > 20)
    }

    // Spaces only, tabs and zero-width characters: no crash, pages made.
    @Test(arguments: [
        String(repeating: " ", count: 3000), String(repeating: "\t", count: 500), String(repeating: "\u{200B}", count: 500), "\u{FEFF}x",
        String(repeating: "\u{00AD}", count: 300),
    ])
    func invisibleText(text: String) {
        expectInvariants(framesetter(text), "invisible \(dumpQuoted(String(text.prefix(2))))")
    }

    // Right-to-left and combining marks in a narrow column.
    @Test func bidiAndCombining() {
        let text = "Hello שלום עולם مرحبا بالعالم e\u{301}\u{302}\u{303} क्षत्रिय"
        expectInvariants(framesetter(String(repeating: text + " ", count: 30), template: small), "bidi")
    }

    // A face that is not installed falls back with a warning, and layout proceeds.
    @Test func missingFace() {
        let fs = framesetter("<font face=\"No Such Face 123\">text</font>")
        expectInvariants(fs, "missing face")
        #expect(fs.diagnostics.warnings.contains { $0.message.hasPrefix("face 'No Such Face 123' is not installed") })
    }
}
