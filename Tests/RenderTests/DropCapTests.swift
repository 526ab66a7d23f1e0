import Foundation
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

// Drop caps: where the initial stands (in pixels), the lines beside it, what follows a short
// paragraph, a split across columns, and the text a PDF reader extracts.

/// One column 280 pt wide of DejaVu Serif 10/12, justified, no footer or hyphenation; initials
/// in red, so their ink tells apart from the text's.
private func dropCapTemplate(columns: Int = 1, height: Double = 400) -> Template {
    var t = Template.default
    t.pageWidth = 300 + Double(columns - 1) * 290
    t.pageHeight = height
    t.margins = EdgeInsets(all: 10)
    t.columns = columns
    t.gutter = 10
    t.firstLineIndent = 0
    t.footer.enabled = false
    t.hyphenation.enabled = false
    t.dropCap.color = attrRed
    t.balance = false
    return t
}

/// Capitals only, none reaching below the baseline or above the cap height by much: each
/// line's ink runs from its capitals' top to its baseline.
private let capitals = String(repeating: "THE HERON STANDS IN THE WATER AT DAWN AND WAITS FOR THE FISH TO RISE. ", count: 4)

private func firstPage(_ fs: Framesetter) -> Page {
    var first: Page?
    fs.layOut { page in
        first = page
        return false
    }
    return first!
}

@Suite struct DropCapGeometryTests {
    // The initial's top meets the top of the first line's capitals, and its baseline (the foot of
    // a "T") the baseline of line 3, each within a pixel at 4 pixels a point.
    @Test func capsAndBaselineMeet() throws {
        let fs = framesetter("<p dropcap=\"3\">\(capitals)</p>", template: dropCapTemplate())
        let page = firstPage(fs)
        let lines = page.frames[0].lines
        let cap = try #require(page.frames[0].dropCaps.first)
        let png = try renderPNG(fs, dpi: 288)
        func px(_ v: Double) -> Double { v * 4 }
        let initial = Ink(png, where: redPixel)
        /// The dark ink of line `k`, between its box's top and its baseline.
        func ink(_ k: Int) -> Ink {
            let l = lines[k]
            return Ink(
                png, x: Int(px(l.origin.x))..<Int(px(l.origin.x + l.contentWidth)),
                y: Int(px(l.box.y))..<Int(px(l.origin.y).rounded()), where: darkPixel)
        }
        let first = ink(0)
        let third = ink(2)
        #expect(abs(initial.minY - first.minY) <= 1, "initial's top \(initial.minY) px, first line's capitals \(first.minY) px")
        #expect(abs(initial.maxY - third.maxY) <= 1, "initial's foot \(initial.maxY) px, third line's baseline \(third.maxY) px")
        #expect(abs(Double(initial.maxY + 1) - px(lines[2].origin.y)) <= 1)
        #expect(abs(cap.origin.y - lines[2].origin.y) < 0.01 && cap.rect.maxY == cap.origin.y)
        #expect(abs(Double(initial.minY) - px(cap.rect.y)) <= 1.5)
        // Nothing of the text is red, and the initial stays left of the lines beside it.
        #expect(Double(initial.maxX) < px(lines[0].origin.x))
    }

    // The three lines beside the initial are narrower by its advance and a gap, and start that
    // much further right; the fourth is the column's full width again. The first line starts
    // after the initial's letter.
    @Test func linesBesideIt() throws {
        let text = "The quick brown fox jumps over the lazy dog; " + String(repeating: "then it runs off into the woods. ", count: 8)
        let fs = framesetter("<p dropcap=\"3\">\(text)</p>", template: dropCapTemplate())
        let page = firstPage(fs)
        let column = page.frames[0].rect
        let lines = page.frames[0].lines
        let cap = try #require(page.frames[0].dropCaps.first)
        let dropCap = try #require(lines[0].paragraph.text.dropCap)
        #expect(lines.count > 4)
        #expect(cap.rect.x == column.x && abs(cap.rect.width - dropCap.advance) < 0.001 && dropCap.indent > dropCap.advance)
        for l in lines[0..<3] {
            #expect(abs(l.origin.x - (column.x + dropCap.indent)) < 0.001)
            #expect(abs(l.box.width - (column.width - dropCap.indent)) < 0.001)
        }
        for l in lines[3...] {
            #expect(l.origin.x == column.x && abs(l.box.width - column.width) < 0.001)
        }
        #expect(lines[0].storyRange.lowerBound == 1 && cap.storyRange == 0..<1)
        let dump = PageDump.dump(page, story: fs.story)
        #expect(dump.contains("    dropcap 10,"), "\(dump)")
        #expect(dump.contains(" lines=3 @1:16 |T|\n"))
    }

    // An initial whose ink hangs below its baseline (a J's hook, a Q's tail) has the line below
    // line 3 set beside it too, and its box and foot take the ink in; one whose ink reaches left
    // of its origin (the J's hook again) moves right until its ink meets the column's edge. In
    // pixels: no text's ink stands in the initial's, and none of the initial's is left of the
    // column. (The hook and the tail ran into line 4, the hook 3.6 pt into the margin, and the
    // box stopped at the baseline.)
    @Test(arguments: ["Just as quietly", "Quietly"]) func inkBelowTheBaseline(opening: String) throws {
        let text =
            opening + " the compositor set each line by hand, measuring it against a steel rule while the harbour light faded "
            + "over the composing room windows, the rollers turned and the apprentices sorted the type back into its cases."
        let fs = framesetter("<p dropcap=\"3\">\(text)</p>", template: dropCapTemplate())
        let page = firstPage(fs)
        let column = page.frames[0].rect
        let lines = page.frames[0].lines
        let cap = try #require(page.frames[0].dropCaps.first)
        try #require(lines.count > 4)
        #expect(abs(cap.origin.y - lines[2].origin.y) < 0.01)
        for l in lines[1..<4] {
            #expect(abs(l.origin.x - lines[0].origin.x) < 0.001 && abs(l.box.width - lines[0].box.width) < 0.001)
        }
        for l in lines[4...] {
            #expect(l.origin.x == column.x && abs(l.box.width - column.width) < 0.001)
        }
        let png = try renderPNG(fs, dpi: 288)
        func px(_ v: Double) -> Double { v * 4 }
        let initial = Ink(png, where: redPixel)
        try #require(!initial.isEmpty)
        // The ink reaches into line 4's box: the case at hand.
        #expect(Double(initial.maxY) > px(lines[3].box.y))
        let overprinted = Ink(png, x: initial.minX..<(initial.maxX + 1), y: initial.minY..<(initial.maxY + 1), where: darkPixel)
        #expect(overprinted.isEmpty, "\(overprinted.count) px of text in the initial's ink, \(initial)")
        #expect(Double(initial.maxX) < px(lines[3].origin.x))
        #expect(Double(initial.minX) >= px(column.x) - 1, "ink from \(initial.minX) px, the column from \(px(column.x))")
        if opening.hasPrefix("J") { #expect(Double(initial.minX) <= px(column.x) + 2) }
        #expect(Double(initial.minX) >= px(cap.rect.x) - 1 && Double(initial.maxX) <= px(cap.rect.maxX) + 1)
        #expect(Double(initial.maxY) <= px(cap.rect.maxY) + 1, "ink to \(initial.maxY) px, box to \(px(cap.rect.maxY))")
        #expect(cap.foot >= cap.rect.maxY && cap.foot >= lines[3].box.maxY - 0.01)
    }

    // A Han initial fills three lines of ideographic em boxes: from the top of the first line's
    // em (0.88 em above its baseline in Noto CJK) to the foot of line 3's (0.12 em below its
    // baseline), so its ink stays inside and only three lines are set beside it. Sized by the
    // Latin cap height it overshot line 3's baseline by 3.2 pt and had line 4 beside it too.
    @Test func hanInitialFillsItsLines() throws {
        var t = dropCapTemplate()
        t.language = "zh-Hans"
        let text = String(repeating: "清晨六点，老城南边的一间小印刷作坊已经亮起了灯。七十一岁的周师傅戴上老花镜。", count: 5)
        let fs = framesetter("<p dropcap=\"3\">\(text)</p>", template: t)
        let page = firstPage(fs)
        let (column, lines) = (page.frames[0].rect, page.frames[0].lines)
        let cap = try #require(page.frames[0].dropCaps.first)
        try #require(lines.count > 4)
        #expect(lines[2].origin.x > column.x && lines[3].origin.x == column.x, "\(lines.prefix(4).map(\.origin))")
        #expect(cap.beside == 3)
        let (top, foot) = (lines[0].origin.y - 8.8, lines[2].origin.y + 1.2)
        #expect(abs(cap.rect.y - top) < 0.01 && cap.rect.maxY <= foot + 0.01, "\(cap.rect), em boxes \(top)..<\(foot)")
        let png = try renderPNG(fs, dpi: 288)
        let initial = Ink(png, where: redPixel)
        try #require(!initial.isEmpty)
        #expect(Double(initial.minY) >= top * 4 - 1 && Double(initial.maxY) <= foot * 4 + 1, "\(initial), \(top)..<\(foot) pt")
        // Its ink fills most of the three ems and two leadings, as an ideograph fills its em.
        #expect(Double(initial.maxY - initial.minY) > 0.85 * (foot - top) * 4)
        #expect(Double(initial.maxX) < lines[0].origin.x * 4)
    }

    // An initial opening with 「 gives up the bracket's blank at the column's edge, as an
    // opening bracket at a line's start may: its ink starts where the font's half-width form
    // puts it (0.15 em in, 3.3 pt), not half an em further (it was 17 pt in).
    @Test func hanInitialWithABracket() throws {
        var t = dropCapTemplate()
        t.language = "zh-Hans"
        let text = "「这声音我听了五十年，」他笑着说，「闭上眼睛都知道哪个字放在哪里。」这是第二段，用引号开头的首字下沉。"
        let fs = framesetter("<p dropcap=\"2\">\(text)</p>", template: t)
        let page = firstPage(fs)
        let column = page.frames[0].rect
        let cap = try #require(page.frames[0].dropCaps.first)
        let size = try #require(cap.paragraph.text.dropCap).size
        #expect(fs.story.text.utf8Slice(cap.storyRange.lowerBound, cap.storyRange.upperBound) == "「这")
        let initial = Ink(try renderPNG(fs, dpi: 288), where: redPixel)
        try #require(!initial.isEmpty)
        let inset = Double(initial.minX) / 4 - column.x
        #expect(inset >= -0.25 && inset < size / 4, "the bracket's ink \(inset) pt from the column's edge, \(size) pt initial")
    }

    // An opening quotation mark goes into the initial with the letter; a paragraph that starts
    // with no letter gets no drop cap.
    @Test func quotationMark() throws {
        let text = "<p dropcap=\"2\">\u{201C}Hello,\u{201D} she said, and went on her way.</p>\n<p dropcap=\"2\">\u{2014} no letter</p>"
        let fs = framesetter(text, template: dropCapTemplate())
        let page = firstPage(fs)
        #expect(page.frames[0].dropCaps.count == 1)
        let cap = try #require(page.frames[0].dropCaps.first)
        #expect(fs.story.text.utf8Slice(cap.storyRange.lowerBound, cap.storyRange.upperBound) == "\u{201C}H")
    }

    // A drop cap the paragraph cannot have is a warning that says why, at the paragraph.
    @Test func noDropCapSaysWhy() {
        let cases = [
            ("<p dropcap=\"3\">\u{2014} no letter, so no initial at all here.</p>", "does not begin with a letter"),
            ("<p dropcap=\"3\" dir=\"rtl\">שלום עולם, וזה משפט ארוך מספיק.</p>", "right-to-left text takes none"),
            ("<p dropcap=\"3\">fine words that run on and on for a while.</p>", "one glyph with the next (a ligature)"),
            // A URL's first letter set apart read "h ttps://…", its link starting after it.
            (
                "<p dropcap=\"3\"><a href=\"https://drop.example/\">https://drop.example/path</a> and then some words after it.</p>",
                "its first letter is part of a link"
            ),
        ]
        for (text, why) in cases {
            let fs = framesetter(text, template: dropCapTemplate())
            _ = firstPage(fs)
            let said = fs.diagnostics.all.map(\.message)
            #expect(said.contains { $0.hasPrefix("no drop cap: ") && $0.contains(why) }, "\(text): \(said)")
        }
        // A paragraph that has one, and an empty one (an unclosed tag at the end: it had the
        // warning, at no place), say nothing.
        for text in ["<p dropcap=\"3\">Fine words.</p>", "<p dropcap=\"3\">"] {
            let fs = framesetter(text, template: dropCapTemplate())
            _ = firstPage(fs)
            #expect(!fs.diagnostics.all.contains { $0.message.hasPrefix("no drop cap") }, "\(text)")
        }
    }

    // A paragraph shorter than its initial leaves it hanging below the text, white beside it:
    // said once, with the height that would fit.
    @Test func aShortParagraphUnderItsInitialIsSaid() {
        let fs = framesetter("<p dropcap=\"4\">“Just a short one.”</p>\nAnd then the next paragraph.", template: dropCapTemplate())
        _ = firstPage(fs)
        let said = fs.diagnostics.warnings.map(\.message).filter { $0.contains("drop cap, which hangs") }
        #expect(said == ["the paragraph sets 1 line beside its 4-line drop cap, which hangs below its text; set it without one"])
    }

    // A paragraph shorter than its initial keeps its lines beside it, and the next paragraph
    // starts below the initial's foot, in pixels too.
    @Test func shortParagraph() throws {
        let fs = framesetter("<p dropcap=\"4\">Hi there.</p>\nThe next paragraph.", template: dropCapTemplate())
        let page = firstPage(fs)
        let lines = page.frames[0].lines
        let cap = try #require(page.frames[0].dropCaps.first)
        #expect(lines.count == 2)
        #expect(lines[0].origin.x > cap.rect.maxX)
        #expect(lines[1].box.y >= cap.rect.maxY, "next line at \(lines[1].box.y), initial's foot at \(cap.rect.maxY)")
        let png = try renderPNG(fs, dpi: 288)
        let initial = Ink(png, where: redPixel)
        let next = Ink(png, y: Int(lines[1].box.y * 4)..<png.height, where: darkPixel)
        #expect(initial.maxY < next.minY)
    }

    // A paragraph shorter than its J: the next paragraph starts below the hook, not below line
    // 3, in pixels too (no spacing or grid to hide it). It was set over the hook.
    @Test func shortParagraphBelowAHook() throws {
        var t = dropCapTemplate()
        t.paragraphSpacing = 0
        t.baselineGrid = false
        let fs = framesetter("<p dropcap=\"3\">Jo.</p>\nThe next paragraph.", template: t)
        let page = firstPage(fs)
        let lines = page.frames[0].lines
        let cap = try #require(page.frames[0].dropCaps.first)
        try #require(lines.count == 2)
        #expect(lines[1].box.y >= cap.foot - 0.01 && cap.foot >= cap.rect.maxY)
        let png = try renderPNG(fs, dpi: 288)
        let initial = Ink(png, where: redPixel)
        let next = Ink(png, y: Int(lines[1].box.y * 4)..<png.height, where: darkPixel)
        #expect(initial.maxY < next.minY, "the hook to \(initial.maxY) px, the next paragraph from \(next.minY) px")
    }

    // A paragraph shorter than its initial, then a paragraph or a heading across the columns:
    // it starts below the initial's foot, in pixels too. (It was set from the foot of the band's
    // lines, over the initial.)
    @Test(arguments: ["p", "h2"]) func shortParagraphAboveASpan(tag: String) throws {
        let across = String(repeating: "Words set across both columns below the initial. ", count: 6)
        let text = "<p dropcap=\"4\">The over.</p>\n<\(tag) span=\"all\">\(across)</\(tag)>\nMore body text."
        let fs = framesetter(text, template: dropCapTemplate(columns: 2))
        let page = firstPage(fs)
        let cap = try #require(page.frames.flatMap(\.dropCaps).first)
        let span = try #require(page.frames.first { $0.spansColumns })
        let first = try #require(span.lines.first)
        #expect(first.box.y >= cap.foot - 0.01, "\(tag) at \(first.box.y), initial's foot at \(cap.foot)")
        let png = try renderPNG(fs, dpi: 288)
        let initial = Ink(png, where: redPixel)
        let below = Ink(png, y: Int(span.rect.y * 4)..<png.height, where: darkPixel)
        #expect(!initial.isEmpty && initial.maxY < below.minY, "initial's ink to \(initial.maxY) px, the \(tag)'s from \(below.minY) px")
    }

    // A sidebar holding a paragraph shorter than its initial is as tall as the initial: its
    // text height ran to the last line, and the box cut the initial off.
    @Test func shortParagraphInASidebar() throws {
        let fs = framesetter("Text before the sidebar.\n<aside><p dropcap=\"4\">Tiny.</p></aside>\nMore text.", template: dropCapTemplate())
        let page = firstPage(fs)
        let placed = try #require((page.floats + page.frames.flatMap(\.images)).first { $0.block != nil })
        let set = try #require(placed.block)
        let cap = try #require(set.page?.frames.first?.dropCaps.first)
        #expect(set.textHeight >= cap.foot - 0.01, "text height \(set.textHeight), initial's foot \(cap.foot)")
    }

    // A paragraph with a drop cap that would start at a column's foot, with room for fewer lines
    // than the initial is tall, goes to the next column whole: initial and first lines together.
    // (Columns of 23 lines; one-line paragraphs above it fill all but `room` of the first.)
    @Test(arguments: 0...6) func splitKeepsInitialWithItsLines(room: Int) throws {
        var t = dropCapTemplate(columns: 2, height: 300)
        t.paragraphSpacing = 0
        let filler = String(repeating: "One line of filler.\n", count: 23 - room)
        let body = String(repeating: "Words after the initial go on. ", count: 30)
        let fs = framesetter(filler + "<p dropcap=\"4\">" + body + "</p>", template: t)
        let frames = pages(of: fs).flatMap(\.frames)
        let holding = frames.filter { !$0.dropCaps.isEmpty }
        try #require(holding.count == 1)
        let frame = holding[0]
        let paragraph = frame.dropCaps[0].paragraphIndex
        #expect(frame.column == (room < 4 ? 1 : 0))
        let beside = frame.lines.filter { $0.paragraphIndex == paragraph && $0.lineIndex < 4 }
        #expect(beside.count == 4, "\(beside.count) lines beside the initial")
        #expect(frame.dropCaps[0].rect.maxY <= frame.rect.maxY + 0.01)
        // The rest, wherever it goes on, at full width.
        for l in frames.flatMap(\.lines) where l.paragraphIndex == paragraph && l.lineIndex >= 4 {
            #expect(abs(l.box.width - frame.rect.width) < 0.001)
        }
    }

    // A paragraph with a drop cap that starts in the second column just above, beside or at the
    // foot of a page-wide image (placed from the first column, 60 % of the page wide, so each
    // column keeps a strip beside it): the initial stays clear of the image's keep-out, as every
    // line does, and the lines beside it start just past it. It used to stand over the image,
    // its lines beside the image moved right by the image and by its indent both; or, set in
    // the strip, to have its last line run back under it below the image. (One-line paragraphs
    // walk its start down the column, past the image.)
    @Test(arguments: 28...44) func clearOfAPageWideImage(fillers: Int) throws {
        let text =
            String(repeating: "Filler.\n", count: 3) + "<img src=\"images/harbour.jpg\" span=\"page\" width=\"60%\">\n"
            + String(repeating: "Filler.\n", count: fillers) + "<p dropcap=\"3\">"
            + String(repeating: "Words after the initial go on and on. ", count: 12) + "</p>\n"
            + String(repeating: String(repeating: "More text follows the paragraph here. ", count: 10) + "\n", count: 6)
        let fs = framesetter(text)
        var caps = 0
        for page in pages(of: fs) {
            let keepOuts = (page.floats + page.frames.flatMap(\.images)).map { $0.exclusion ?? $0.rect }
            #expect(!keepOuts.isEmpty || page.number > 1)
            for frame in page.frames {
                for cap in frame.dropCaps {
                    caps += 1
                    let r = cap.rect
                    for e in keepOuts {
                        let meets = r.x < e.maxX - 0.01 && r.maxX > e.x + 0.01 && r.y < e.maxY - 0.01 && r.maxY > e.y + 0.01
                        #expect(!meets, "page \(page.number): initial at \(r) over the image's keep-out \(e)")
                    }
                    let indent = try #require(cap.paragraph.text.dropCap).indent
                    let beside = frame.lines.filter { $0.paragraphIndex == cap.paragraphIndex && $0.lineIndex < cap.lines }
                    #expect(beside.count == cap.lines)
                    for l in beside {
                        #expect(
                            abs(l.origin.x - (r.x + indent)) < 0.01,
                            "line \(l.lineIndex) beside the initial at x \(l.origin.x), the initial at \(r.x) (indent \(indent))")
                    }
                }
            }
        }
        #expect(caps == 1)
    }
}

@Suite struct DropCapPDFTests {
    // pdftotext reads the first word whole, in its default mode and in content order, and the
    // quotation mark with it; the rest of the text as usual.
    @Test func firstWordWhole() throws {
        let text =
            "<p dropcap=\"3\">The quick brown fox jumps over the lazy dog and runs on and on into the woods beyond the hill.</p>\n"
            + "<p dropcap=\"2\">\u{201C}Hello,\u{201D} she said to the fox, who did not answer her at all that day.</p>"
        let dir = TemporaryDirectory("dropcap")
        try renderPDF(framesetter(text, template: dropCapTemplate()), in: dir)
        for args in [[String](), ["-raw"]] {
            let out = tool("pdftotext", args + [dir.file("t.pdf"), "-"]).output
            let words = out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.hasPrefix("The quick brown fox"), "\(args): \(words)")
            #expect(words.contains("the hill. \u{201C}Hello,\u{201D} she said"), "\(args): \(words)")
        }
        #expect(tool("qpdf", ["--check", dir.file("t.pdf")]).status == 0)
    }
}
