import Foundation
import GalleyLayout
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// A random document: paragraphs of random length, headings, and floats of every kind (left,
/// right, centre, top, bottom, across the page, contour, pull quotes and sidebars), with and
/// without captions, anchored
/// inside paragraphs or standing on lines of their own, so that anchors fall in every column.
/// With `blockImages`, a fifth of the floats are block images instead (the documents without
/// them are as they were: the choice draws nothing from `rng` then). With `dropCaps`, a third of
/// the paragraphs of text open with an initial 2 to 5 lines tall, so that some start beside a
/// float, and some hold one anchored beside their initial (the same: nothing drawn without).
/// With `oneTextBlock`, the first float is a pull quote or sidebar and there is no other, and
/// stories may be shorter.
func randomDocument(_ rng: inout SplitMix, blockImages: Bool = false, dropCaps: Bool = false, oneTextBlock: Bool = false) -> String {
    let words = "the harbour at dawn is a study in grey and silver with boats that rock against quay gulls wheel above masts slow circles"
        .split(separator: " ")
    func sentence(_ n: Int) -> String {
        (0..<n).map { _ in String(words.randomElement(using: &rng)!) }.joined(separator: " ").capitalized + "."
    }
    let images = ["images/chart.png", "images/harbour.jpg", "images/compass.svg", "images/badge.png", "images/tall.png"]
    // Pull quotes and sidebars: floats of text, across the gutter, in a column, at a column's
    // head or foot, or across the page.
    func block() -> String {
        let (tag, attributes) = [
            ("pullquote", ""), ("pullquote", #" float="left""#), ("pullquote", #" float="right" width="80%""#),
            ("aside", ""), ("aside", #" float="bottom""#), ("aside", #" span="page""#),
        ].randomElement(using: &rng)!
        let text = (0..<Int.random(in: 1...3, using: &rng)).map { _ in sentence(Int.random(in: 3...40, using: &rng)) }
        return "<\(tag)\(attributes)>\(text.joined(separator: "\n"))</\(tag)>"
    }
    var floats = 0
    func float() -> String {
        floats += 1
        if oneTextBlock { return floats == 1 ? block() : sentence(3) }
        if blockImages && Int.random(in: 0..<5, using: &rng) == 0 {
            var attributes = " width=\"\([20, 35, 50, 70, 100].randomElement(using: &rng)!)%\""
            if Bool.random(using: &rng) { attributes += " caption=\"\(sentence(Int.random(in: 2...14, using: &rng)))\"" }
            return "<img src=\"\(images.randomElement(using: &rng)!)\"\(attributes)>"
        }
        if Int.random(in: 0..<4, using: &rng) == 0 { return block() }
        let src = images.randomElement(using: &rng)!
        var attributes: String
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: attributes = #"float="left""#
        case 1: attributes = #"float="right""#
        case 2: attributes = #"float="center""#
        case 3: attributes = #"span="page" float="top""#
        case 4: attributes = #"span="page" float="bottom""#
        case 5: attributes = #"span="page""#
        case 6: attributes = #"float="right" wrap="contour" shape="circle""#
        default: attributes = #"float="left" wrap="contour" shape="circle""#
        }
        let width = [20, 35, 50, 70, 100].randomElement(using: &rng)!
        attributes += " width=\"\(width)%\""
        if Bool.random(using: &rng) { attributes += " caption=\"\(sentence(Int.random(in: 2...14, using: &rng)))\"" }
        return "<img src=\"\(src)\" \(attributes)>"
    }
    func initial(_ text: String) -> String {
        guard dropCaps, Int.random(in: 0..<3, using: &rng) == 0 else { return text }
        return "<p dropcap=\"\(Int.random(in: 2...5, using: &rng))\">\(text)</p>"
    }
    var lines: [String] = []
    // (With one float of text, short stories too, which end before the last column.)
    for _ in 0..<Int.random(in: oneTextBlock ? 2...30 : 6...30, using: &rng) {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: lines.append("<h2>\(sentence(Int.random(in: 2...8, using: &rng)))</h2>")
        case 1, 2: lines.append(float())
        case 3, 4:
            lines.append(
                initial(
                    sentence(Int.random(in: 5...60, using: &rng)) + " " + float() + " " + sentence(Int.random(in: 5...60, using: &rng))))
        default: lines.append(initial(sentence(Int.random(in: 3...120, using: &rng))))
        }
    }
    return lines.joined(separator: "\n")
}

/// The areas of a page that no line may meet: every float's exclusion (margin included). A
/// contour float's text may enter its box, so only what is surely inside its outline counts:
/// the rectangle inscribed in its ellipse, and its caption.
func forbiddenAreas(_ page: Page, story: Story) -> [(Rect, String)] {
    var out: [(Rect, String)] = []
    for image in page.floats + page.frames.flatMap(\.images) {
        guard var area = image.exclusion else { continue }
        let reference = story.images[image.image]
        if reference.wrap == .contour {
            let r = image.rect
            let (hw, hh) = (r.width / 2 / 2.squareRoot(), r.height / 2 / 2.squareRoot())
            area = Rect(x: r.midX - hw, y: r.midY - hh, width: 2 * hw, height: 2 * hh)
            if let c = image.captionRect { out.append((c, "caption of \(reference.source)")) }
        }
        out.append((area, reference.source))
    }
    return out
}

/// Block images, captions included, set outside their column (past its foot, as one under a
/// page-wide float was) or over a float's exclusion, as messages.
func blockImagesOutOfPlace(_ pages: [Page], story: Story) -> [String] {
    var out: [String] = []
    for page in pages {
        let areas = (page.floats + page.frames.flatMap(\.images)).compactMap(\.exclusion)
        for frame in page.frames {
            for image in frame.images where story.images[image.image].placement == .block {
                let at = "page \(page.number) column \(frame.column + 1): block image \(story.images[image.image].source)"
                let c = frame.rect
                var boxes = [(image.rect, "")]
                if let caption = image.captionRect { boxes.append((caption, " caption")) }
                for (r, what) in boxes {
                    if r.x < c.x - 0.01 || r.maxX > c.maxX + 0.01 || r.y < c.y - 0.01 || r.maxY > c.maxY + 0.01 {
                        out.append("\(at)\(what) \(r) outside the column \(c)")
                    }
                    for a in areas where r.x < a.maxX - 0.01 && r.maxX > a.x + 0.01 && r.y < a.maxY - 0.01 && r.maxY > a.y + 0.01 {
                        out.append("\(at)\(what) \(r) meets a float's exclusion \(a)")
                    }
                }
            }
        }
    }
    return out
}

/// Column floats, captions included, that stand outside their column's frame, as messages:
/// a balanced column once ended above the float it held, beside a page-wide float lower down.
func columnFloatsOutsideFrames(_ pages: [Page], story: Story) -> [String] {
    var out: [String] = []
    for page in pages {
        for frame in page.frames {
            // Column floats, and sidebars at their column's foot.
            for image in frame.images where story.images[image.image].placement != .block {
                let c = frame.rect
                for r in [image.rect] + (image.captionRect.map { [$0] } ?? [])
                where r.x < c.x - 0.01 || r.maxX > c.maxX + 0.01 || r.y < c.y - 0.01 || r.maxY > c.maxY + 0.01 {
                    out.append("page \(page.number) column \(frame.column + 1): \(story.images[image.image].source) \(r) outside \(c)")
                }
            }
        }
    }
    return out
}

/// Pull quotes and sidebars set in a column that holds no line, as messages: a float of text
/// stands among text (one met where the story ended a column early was set alone at the head
/// of the next column, or on a page of its own).
func textBlocksAlone(_ pages: [Page], story: Story) -> [String] {
    var out: [String] = []
    for page in pages {
        for frame in page.frames where frame.lines.isEmpty {
            for image in frame.images where story.images[image.image].block != nil {
                out.append("page \(page.number) column \(frame.column + 1): \(story.images[image.image].source) \(image.rect) with no line")
            }
        }
    }
    return out
}

/// Lines under a sidebar that asks for its column's foot, in its column of the band it stands
/// in, as messages (one was set just above a pull quote lower in the column, and the column's
/// text went on under it).
func linesUnderFootSidebars(_ pages: [Page], story: Story) -> [String] {
    var out: [String] = []
    for page in pages {
        for sidebar in page.floats + page.frames.flatMap(\.images) {
            let image = story.images[sidebar.image]
            guard image.block != nil, image.placement == .bottom else { continue }
            let r = sidebar.rect
            for frame in page.frames where !frame.spansColumns && frame.rect.x <= r.midX && r.midX <= frame.rect.maxX {
                guard frame.rect.y <= r.y + 0.01 && r.y < frame.rect.maxY else { continue }
                for line in frame.lines where line.box.y >= r.maxY - 0.01 {
                    let at = "page \(page.number) column \(frame.column + 1)"
                    out.append("\(at): line \(line.storyRange) at \(line.box.y) under the sidebar \(r)")
                }
            }
        }
    }
    return out
}

/// Lines whose box meets an area of `forbiddenAreas`, as messages.
func linesOverFloats(_ pages: [Page], story: Story) -> [String] {
    boxesOverFloats(pages, story: story) { frame in frame.lines.map { ($0.box, "line \($0.storyRange)") } }
}

/// The boxes `boxes` gives of each frame (with what each is) that meet an area of
/// `forbiddenAreas`, as messages.
func boxesOverFloats(_ pages: [Page], story: Story, _ boxes: (Frame) -> [(Rect, String)]) -> [String] {
    var out: [String] = []
    for page in pages {
        let areas = forbiddenAreas(page, story: story)
        for frame in page.frames {
            for (b, name) in boxes(frame) {
                for (a, what) in areas
                where b.x < a.maxX - 0.01 && b.maxX > a.x + 0.01 && b.y < a.maxY - 0.01 && b.maxY > a.y + 0.01 {
                    out.append("page \(page.number) column \(frame.column + 1): \(name) \(b) meets \(what) \(a)")
                }
            }
        }
    }
    return out
}

/// Expects `found`, an invariant's breaches as messages, to be empty, saying the first few
/// with the seed and template that reproduce them.
func expectNone(
    _ found: [String], seed: Int, template t: Template, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    #expect(found.isEmpty, "seed \(seed), \(t.name): \(found.prefix(4).joined(separator: "; "))", sourceLocation: sourceLocation)
}

/// `expectNone` for the findings of each of several invariants.
func expectNone(
    each lists: [[String]], seed: Int, template t: Template, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    for found in lists { expectNone(found, seed: seed, template: t, sourceLocation: sourceLocation) }
}

/// A random document laid out in the built-in template its seed picks (every one in turn), its
/// pages with it. GALLEY_DUMP_DOCS=DIR writes the document out as `<name><seed>.txt`, to reproduce
/// a failing seed with the CLI.
func laidOutRandomly(_ text: String, seed: Int, dumpedAs name: String? = nil) throws -> (Template, Framesetter, [Page]) {
    if let name, let dir = ProcessInfo.processInfo.environment["GALLEY_DUMP_DOCS"] {
        try? text.write(toFile: dir + "/\(name)\(seed).txt", atomically: true, encoding: .utf8)
    }
    let t = try #require(Template.builtin(named: templateNames[seed % templateNames.count]))
    let fs = framesetter(text, template: t)
    return (t, fs, pages(of: fs))
}

@Suite struct ExclusionPropertyTests {
    // Over 500 random documents, every built-in template in turn: no line's box meets a float's
    // exclusion on its page, and the layout keeps the partition invariants; no sidebar asking
    // for its column's foot has text of that column under it.
    @Test(arguments: 0..<500) func noLineOverAFloat(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed))
        let (t, fs, ps) = try laidOutRandomly(randomDocument(&rng), seed: seed, dumpedAs: "doc")
        let story = fs.story
        expectNone(
            each: [
                linesOverFloats(ps, story: story), needlesslyNarrow(ps, story: story), columnFloatsOutsideFrames(ps, story: story),
                lostOrDoubled(ps, story: story), linesUnderFootSidebars(ps, story: story),
            ], seed: seed, template: t)
    }

    // Over random documents with one pull quote or sidebar and no other float, every built-in
    // template in turn: it does not stand in a column of no text (one met where the story's
    // text ended a column early was set alone at the head of the next, or on a page of its
    // own), a sidebar asking for its column's foot has no text of that column under it, no
    // line meets it, and nothing is lost or doubled. (Among other floats that crowd the last
    // columns, and wait past the story's end themselves, a float of text may still be alone.)
    @Test(arguments: 0..<500) func textBlockAmongItsText(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 57_000)
        let (t, fs, ps) = try laidOutRandomly(randomDocument(&rng, oneTextBlock: true), seed: seed, dumpedAs: "textblock")
        let story = fs.story
        expectNone(
            each: [
                textBlocksAlone(ps, story: story), linesUnderFootSidebars(ps, story: story), linesOverFloats(ps, story: story),
                notPlacedOnce(ps, story: story), lostOrDoubled(ps, story: story),
            ], seed: seed, template: t)
    }

    // Over random documents with block images among the floats, every built-in template in
    // turn: no block image is set outside its column or over a float (one opening a column under
    // a page-wide float was set at the column's height below it, past the page's foot), every
    // image is placed once, no line meets a float, and nothing is lost or doubled.
    @Test(arguments: 0..<300) func blockImagesAmongFloats(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 23_000)
        let (t, fs, ps) = try laidOutRandomly(randomDocument(&rng, blockImages: true), seed: seed, dumpedAs: "blocks")
        let story = fs.story
        expectNone(
            each: [
                blockImagesOutOfPlace(ps, story: story), columnFloatsOutsideFrames(ps, story: story), notPlacedOnce(ps, story: story),
                linesOverFloats(ps, story: story), lostOrDoubled(ps, story: story),
            ], seed: seed, template: t)
    }

    // Random documents whose paragraphs open with drop caps among the floats, every built-in
    // template in turn: no line outside its column or broken to less than `wrapMinWidth`, no
    // initial across its column's edge, no line over a float. A paragraph that started beside a
    // float, in a strip that held a line but not the initial and a line, had the lines beside
    // the initial broken to what was left: 25, 9, 0 pt (set in the gutter), a word a letter a line.
    @Test(arguments: 0..<100) func dropCapsBesideFloats(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 41_000)
        let (t, fs, ps) = try laidOutRandomly(randomDocument(&rng, dropCaps: true), seed: seed, dumpedAs: "dropcaps")
        expectNone(each: [dropCapsOutOfPlace(ps, template: t), linesOverFloats(ps, story: fs.story)], seed: seed, template: t)
    }

    // A story set under another on its first page (an issue's `startOn: any`): on random
    // documents and every template, nothing of it above its top, no running lines on that
    // page, no line over a float, nothing lost or doubled.
    @Test(arguments: 0..<100) func continuingBelowAnotherStory(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 9_000)
        let text = randomDocument(&rng)
        let t = try #require(Template.builtin(named: templateNames[seed % templateNames.count]))
        let height = t.pageHeight - t.margins.top - t.margins.bottom
        let top = t.margins.top + height * Double(10 + seed % 60) / 100
        let fs = framesetter(text, template: t).continuing(below: top)
        let ps = pages(of: fs)
        let first = ps.first?.frames.flatMap { $0.lines.map(\.box.y) + $0.images.map(\.rect.y) } ?? []
        #expect(first.allSatisfy { $0 >= top - 0.01 }, "seed \(seed), \(t.name): something above \(top)")
        #expect(ps.first?.floats.allSatisfy { $0.rect.y >= top - 0.01 } ?? true, "seed \(seed), \(t.name): a float above \(top)")
        #expect(ps.first?.footer == nil && ps.first?.header == nil)
        expectNone(each: [linesOverFloats(ps, story: fs.story), lostOrDoubled(ps, story: fs.story)], seed: seed, template: t)
    }

    // The new user's page: a page-wide bottom float anchored while column 2 is filled. Column 2's
    // text used to run on over the photograph.
    @Test func bottomFloatAnchoredInSecondColumn() throws {
        let dir = TemporaryDirectory("exclusions")
        dir.write(
            "head.svg",
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="80"><rect width="600" height="80" fill="#234"/></svg>"##)
        for name in ["harbour.jpg", "chart.png"] {
            dir.write(name, try #require(FileManager.default.contents(atPath: repoPath("samples/images/" + name))))
        }
        let body = "The harbour at dawn is a study in grey and silver, with boats that rock against the quay. "
        let paragraph = String(repeating: body, count: 4)
        var lines = [#"<img src="head.svg" span="page" float="top" width="100%">"#]
        lines += Array(repeating: paragraph, count: 3)
        lines.append(#"<img src="chart.png" float="right" width="40%" caption="A chart of the tides over a week.">"#)
        lines += Array(repeating: paragraph, count: 2) + ["<h2>A job without a job</h2>"] + Array(repeating: paragraph, count: 4)
        lines.append(
            String(repeating: body, count: 2)
                + #"<img src="harbour.jpg" span="page" float="bottom" width="100%" caption="The harbour at first light.">"#
                + String(repeating: body, count: 2))
        lines += Array(repeating: paragraph, count: 6)
        for set in [[], ["paragraphSpacing=0", "firstLineIndent=12pt"]] {
            let t = try TemplateLoader.apply(set, to: .default, file: "--set").get()
            let fs = framesetter(lines.joined(separator: "\n"), template: t, baseDirectory: dir.path)
            let ps = pages(of: fs)
            // The photograph is on page 1, its anchor met in column 2 of it.
            let photo = try #require(ps.first?.floats.first { fs.story.images[$0.image].source == "harbour.jpg" })
            let anchorColumn = ps[0].frames.firstIndex { $0.visibleRange.contains(photo.storyOffset) }
            #expect(anchorColumn == nil || anchorColumn == 1, "\(set)")
            let over = linesOverFloats(ps, story: fs.story)
            #expect(over.isEmpty, "\(set): \(over.prefix(3))")
            #expect(lostOrDoubled(ps, story: fs.story).isEmpty)
        }
    }

    // A page-wide image anchored low in column 2 used to wait for page 2 and be alone there,
    // the text after its anchor left on page 1. It now goes to the top of page 1, which is
    // laid out again around it.
    @Test func spanAnchoredInSecondColumnStaysOnItsPage() throws {
        let body = "The harbour at dawn is a study in grey and silver, with boats that rock against the quay. "
        var lines = ["<h1>Stranded</h1>"] + Array(repeating: String(repeating: body, count: 5), count: 5)
        lines.append(
            String(repeating: body, count: 2) + #"<img src="images/harbour.jpg" span="page" width="80%" caption="The harbour.">"#
                + String(repeating: body, count: 2))
        lines += Array(repeating: String(repeating: body, count: 3), count: 2)
        let fs = framesetter(lines.joined(separator: "\n"))
        let ps = pages(of: fs)
        #expect(ps.count == 1)
        let photo = try #require(ps.first?.floats.first)
        #expect(photo.rect.y == fs.template.margins.top)
        #expect(linesOverFloats(ps, story: fs.story).isEmpty)
    }

    // A large initial letter after a page-wide float makes its own line tall; the lines after
    // it return to the baseline grid (every slot used to be as tall as the initial's line).
    @Test func largeInitialAfterATopFloat() throws {
        let text =
            #"<img src="images/harbour.jpg" span="page" float="top" width="100%" height="200">"# + "\n"
            + #"<p align="center"><i>A deck that sets the scene.</i></p>"# + "\n"
            + #"<font size="34" color="firebrick">T</font>he first thing a compositor learns is to read type upside down and "#
            + "backwards, for that is how it sits in the stick. The second is patience, and the third is to keep the case in "
            + "order, so that the hand finds each letter without the eye."
        var t = Template.default
        t.balance = false  // the paragraph whole in the first column
        let fs = framesetter(text, template: t)
        let lines = try #require(pages(of: fs).first?.frames.first?.lines.filter { $0.paragraphIndex == 2 })
        #expect(lines.count >= 4)
        #expect(lines[0].box.height > 30)
        let pitches = zip(lines.dropFirst(), lines.dropFirst(2)).map { $1.origin.y - $0.origin.y }
        #expect(pitches.allSatisfy { abs($0 - fs.template.body.leading) < 0.01 }, "\(pitches)")
    }

    // A heading at every height from beside a right float to below its caption: its lines are
    // as wide as the room beside what their own boxes meet, so below the caption it is one
    // line at the column's width ("A job without a / job" was broken as if the float were beside it).
    @Test(arguments: 0..<40) func headingBelowAFloat(words: Int) {
        let intro = String(repeating: "The harbour at dawn is grey. ", count: 3)
        let text =
            intro + #"<img src="images/chart.png" float="right" width="40%" caption="A chart of the tides over a whole week, day by day.">"#
            + String(repeating: " boats", count: words * 3) + "\n<h2>A job without a job</h2>\nAnd the text after it goes on."
        for set in [[String](), ["paragraphSpacing=0", "firstLineIndent=12pt"]] {
            guard case .success(let t) = TemplateLoader.apply(set, to: .default, file: "--set") else { return }
            let fs = framesetter(text, template: t)
            let ps = pages(of: fs)
            let narrow = needlesslyNarrow(ps, story: fs.story)
            #expect(narrow.isEmpty, "\(words) words, \(set): \(narrow.prefix(2))")
            #expect(linesOverFloats(ps, story: fs.story).isEmpty)
        }
    }
}

/// Lines set narrower than their column although their box meets no float: a line's width
/// comes from the exclusions its own box meets (a heading below a float's caption is not
/// broken as if the float were beside it).
func needlesslyNarrow(_ pages: [Page], story: Story) -> [String] {
    var out: [String] = []
    for page in pages {
        let areas = (page.floats + page.frames.flatMap(\.images)).compactMap(\.exclusion)
        for frame in page.frames {
            for line in frame.lines where line.paragraph.widths[line.lineIndex] < frame.rect.width - 0.01 {
                let b = line.box
                let meets = areas.contains { a in
                    frame.rect.x < a.maxX && frame.rect.maxX > a.x && b.y < a.maxY - 0.01 && b.maxY > a.y + 0.01
                }
                if !meets {
                    out.append(
                        "page \(page.number) column \(frame.column + 1): line \(line.storyRange) at \(b.y) is "
                            + "\(line.paragraph.widths[line.lineIndex]) wide, meeting no float")
                }
            }
        }
    }
    return out
}

/// What of the story no frame holds, or holds twice, in a layout with floats: frames' visible
/// ranges follow each other from 0 to the end of the text, and every byte but paragraph
/// terminators is in exactly one line, or is an image's U+FFFC (placed wherever its float went).
func lostOrDoubled(_ pages: [Page], story: Story) -> [String] {
    var out: [String] = []
    let text = Array(story.text.utf8)
    var next = 0
    var seen = [UInt8](repeating: 0, count: text.count)
    for page in pages {
        for frame in page.frames {
            if frame.visibleRange.lowerBound != next {
                out.append("page \(page.number) column \(frame.column + 1) starts at \(frame.visibleRange.lowerBound), not \(next)")
            }
            next = frame.visibleRange.upperBound
            for line in frame.lines {
                for b in line.storyRange where b < text.count { seen[b] &+= 1 }
            }
        }
    }
    if next != text.count { out.append("the last frame ends at \(next), the text at \(text.count)") }
    var images = Set<Int>()
    for (i, image) in story.images.enumerated() where image.placement != .inline {
        let offset = image.anchor ?? story.paragraphs.first { $0.content == .image(i) }?.range.lowerBound
        if let offset { images.formUnion(offset..<(offset + 3)) }
    }
    for b in text.indices where text[b] != 0x0A && !images.contains(b) && seen[b] != 1 {
        out.append("byte \(b) is in \(seen[b]) lines")
        if out.count > 8 { break }
    }
    return out
}
