import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// How many times each image of the story is placed, in a column or across the page, over all
/// the pages of a layout.
func placements(_ pages: [Page]) -> [Int: Int] {
    var count: [Int: Int] = [:]
    for page in pages {
        for image in page.floats + page.frames.flatMap(\.images) { count[image.image, default: 0] += 1 }
    }
    return count
}

/// The images of `story` (but inline ones, which lines carry) not placed exactly once, as messages.
func notPlacedOnce(_ pages: [Page], story: Story) -> [String] {
    let count = placements(pages)
    return story.images.indices.filter { story.images[$0].placement != .inline && count[$0] != 1 }.map {
        "image \($0) '\(story.images[$0].source)' placed \(count[$0] ?? 0) times"
    }
}

@Suite struct FloatRegressionTests {
    // Three page-wide images on lines of their own, the second too tall to share a page with the
    // others: deferred when first met, it was deferred again when the page was laid out again
    // around the third, and so set on page 2 and again on page 3.
    @Test func pageFloatDeferredOnceWhenThePageIsLaidOutAgain() {
        let markup = """
            <img src="images/chart.png" span="page" width="40%">
            <img src="images/tall.png" span="page">
            <img src="images/compass.svg" span="page" width="20%">
            """
        let fs = framesetter(markup)
        let ps = pages(of: fs)
        let wrong = notPlacedOnce(ps, story: fs.story)
        #expect(wrong.isEmpty, "\(wrong)")
    }

    // A float asking for more points than its place has is set narrower, and said so once
    // (it was set at the column's width without a word); one that fits is not.
    @Test func aFloatWiderThanItsPlaceIsSaid() {
        let fs = framesetter(
            "<img src=\"images/chart.png\" float=\"left\" width=\"2000\">\nText beside it.\n<img src=\"images/chart.png\" float=\"right\" width=\"100\">\nMore."
        )
        _ = pages(of: fs)
        let said = fs.diagnostics.warnings.filter { $0.message.contains("wider than its place") }
        #expect(
            said.map { "\($0.location.map { "\($0)" } ?? ""): \($0.message)" } == [
                "1:1: image 'images/chart.png' asks for 2000 pt, wider than its place; set at 246.6×164.4 pt"
            ])
    }

    // A top or bottom image no wider than a column stands in the column it is met in, with
    // the other columns running full beside it: centred across the gutter it kept both
    // columns' text away, and a 120 pt picture left 45 lines a column white.
    @Test(arguments: ["bottom", "top"]) func aNarrowTopOrBottomImageTakesOneColumn(_ placement: String) throws {
        let words = String(repeating: "Proof and forme, quoin and galley, the compositor sets the type. ", count: 40)
        let fs = framesetter("\(words)\n<img src=\"images/tall.png\" float=\"\(placement)\" width=\"120\">\n\(words)\n\(words)\n")
        let page = try #require(pages(of: fs).first)
        let image = try #require(page.floats.first)
        let columns = page.frames.filter { !$0.spansColumns }
        let home = try #require(columns.first { $0.rect.x <= image.rect.x && image.rect.maxX <= $0.rect.maxX })
        let other = try #require(columns.first { $0.column != home.column })
        // The other column is full; its own has no line beside the image.
        #expect(other.lines.count >= Int(other.rect.height / 12) - 1, "\(other.lines.count) lines")
        let beside = home.lines.filter { $0.box.maxY > image.rect.y + 0.01 && $0.box.y < image.rect.maxY - 0.01 }
        #expect(beside.isEmpty, "\(beside.count) lines beside the image")
    }

    // A bottom float that waits for a page the text never reaches stands at its top: it was
    // set at the foot, under half a page of nothing.
    @Test func floatsAloneGoToTheTop() throws {
        let markup = """
            A short text.
            <img src="images/chart.png" float="bottom" width="100%">
            <img src="images/chart.png" float="bottom" width="100%">
            """
        let fs = framesetter(markup)
        let ps = pages(of: fs)
        try #require(ps.count == 2 && ps[1].frames.allSatisfy(\.isEmpty) && ps[1].floats.count == 1)
        #expect(abs(ps[1].floats[0].rect.y - fs.columns[0].y) < 0.01, "\(ps[1].floats[0].rect)")
        // With text on the page, the foot as before.
        #expect(ps[0].floats.allSatisfy { $0.rect.maxY > fs.columns[0].maxY - 60 }, "\(ps[0].floats.map(\.rect))")
    }

    // More page-wide floats met on a page than it is laid out again for: the last time, they
    // wait for the next page, and that composition is the page's. The page used to keep the
    // frames of the try before while the flow went back to the page's start, so the next page
    // set the same text again.
    @Test func moreFloatsThanRelayouts() {
        let words = String(repeating: "Words of a paragraph that runs on. ", count: 3)
        let lines = (0...Framesetter.pageRelayouts + 3).map { _ in
            words + "\n" + #"<img src="images/compass.svg" span="page" width="5%">"#
        }
        let fs = framesetter(lines.joined(separator: "\n") + "\n" + words)
        let ps = pages(of: fs)
        let lost = lostOrDoubled(ps, story: fs.story)
        #expect(lost.isEmpty, "\(lost)")
        let wrong = notPlacedOnce(ps, story: fs.story)
        #expect(wrong.isEmpty, "\(wrong)")
    }

    // A page-wide image anchored in the first line of a paragraph, with no room left for it on
    // the page: where that line is the last of a column, the orphans rule moves the paragraph
    // on, its anchor is met again in the next column, and the image was deferred twice. Every
    // height of the column is tried for that line.
    @Test func pageFloatDeferredOnceWhenItsLineMovesOn() {
        var template = Template.default
        template.paragraphSpacing = 0  // one line per short paragraph: each height of the column
        let head = #"<img src="images/chart.png" span="page" float="top" width="100%">"#
        let anchored =
            #"Anchor <img src="images/tall.png" span="page"> in the first line of a paragraph that runs on"#
            + String(repeating: " and on", count: 60)
        let after = Array(repeating: String(repeating: "Closing words of the story that fill the page. ", count: 8), count: 12)
        for before in 24..<44 {
            var lines = [head]
            lines += (0..<before).map { "Line \($0)." }
            lines.append(anchored)
            lines += after
            let fs = framesetter(lines.joined(separator: "\n"), template: template)
            let ps = pages(of: fs)
            let wrong = notPlacedOnce(ps, story: fs.story)
            #expect(wrong.isEmpty, "\(before) lines before the anchor: \(wrong)")
        }
    }

    // Random documents with floats of every kind, on every built-in template: every image is
    // placed, and once.
    @Test(arguments: 0..<150) func everyImagePlacedOnce(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 17_000)
        let text = randomDocument(&rng)
        let t = try #require(Template.builtin(named: templateNames[seed % templateNames.count]))
        let fs = framesetter(text, template: t)
        let wrong = notPlacedOnce(pages(of: fs), story: fs.story)
        #expect(wrong.isEmpty, "seed \(seed), \(t.name): \(wrong.prefix(4))")
    }

    // A right float at the head of the page with a bottom float below it (the tester's page):
    // when it cannot stand whole above the bottom float, it was moved below it, to the page's
    // foot, and shrunk to 0.2 × 1 pt. It now takes the room above the bottom float, shrunk to it
    // with its proportions if it must (30 %), at its natural size if it fits (15 %); or, placed
    // on a later page, at its natural size.
    @Test(arguments: [30.0, 15.0]) func columnFloatTakesTheRoomAboveABottomFloat(percent: Double) throws {
        let template = try #require(Template.builtin(named: "pocket"))
        let markup =
            #"<img src="images/harbour.jpg" float="bottom" width="60%">"# + "\n"
            + #"<img src="images/tall.png" float="right" width="\#(Int(percent))%">"# + "\n"
            + String(repeating: "Words of a paragraph that runs on. ", count: 40)
        let fs = framesetter(markup, template: template)
        let ps = pages(of: fs)
        #expect(notPlacedOnce(ps, story: fs.story).isEmpty)
        let image = fs.story.images[1]
        let page = try #require(ps.first { $0.frames.contains { $0.images.contains { $0.image == 1 } } })
        let column = try #require(page.frames.first { $0.images.contains { $0.image == 1 } }).rect
        let float = try #require(page.frames.flatMap(\.images).first { $0.image == 1 })
        let natural = column.width * percent / 100 / image.aspectRatio
        // In its column, with its proportions.
        #expect(float.rect.y >= column.y - 0.01 && float.rect.maxY <= column.maxY + 0.01, "\(float.rect) outside \(column)")
        #expect(abs(float.rect.width / float.rect.height - image.aspectRatio) < 0.001, "\(float.rect)")
        guard let bottom = page.floats.first(where: { $0.image == 0 }), let keepOut = bottom.exclusion else {
            // Moved on to a page without the bottom float: whole there.
            #expect(abs(float.rect.height - natural) < 0.5 && !float.shrunk, "\(float.rect.height) pt tall, \(natural) natural")
            return
        }
        // Above the bottom float, its margin kept, and as tall as the room there allows.
        #expect(float.rect.maxY + image.margin <= keepOut.y + 0.01, "\(float.rect) meets \(keepOut)")
        let room = keepOut.y - image.margin - column.y
        #expect(float.rect.height >= min(natural, room) - 0.5, "\(float.rect.height) pt tall; \(natural) natural, \(room) of room")
        #expect(float.shrunk == (natural > room + 0.01))
    }

    // A tall float met under a page-wide one, where the column's only room is a strip: it was
    // shrunk into it to a sliver (37 pt wide, its caption a few letters a line). A gap under
    // half of what it needs is passed over, and it goes to the next page's whole column.
    @Test func aFloatIsNotShrunkToASliverBesideAPageFloat() throws {
        let body = String(repeating: "The harbour at dawn is a study in grey and silver, with boats that rock. ", count: 4)
        let markup = [
            body, #"<img src="images/compass.svg" span="page" width="80%" caption="A page-wide compass.">"#, body,
            #"<img src="images/tall.png" float="right" width="100%" caption="A tall banner beside the text.">"#,
            String(repeating: body, count: 3),
        ].joined(separator: "\n")
        let fs = framesetter(markup)
        let ps = pages(of: fs)
        let tall = try #require(ps.flatMap { $0.frames.flatMap(\.images) }.first { fs.story.images[$0.image].source == "images/tall.png" })
        let column = try #require(ps.first?.frames.first?.rect)
        // In a whole column it is the column's height, and its proportions give its width.
        #expect(tall.rect.width > 0.4 * column.width, "\(tall.rect) in a column \(column.width) pt wide")
        #expect(notPlacedOnce(ps, story: fs.story).isEmpty)
    }

    // A float that does not fit beside its anchor, in a band ended by a heading across the
    // columns: the columns left after the heading's stop stayed empty, so it went past the
    // heading and the page-wide image after it, to a page of its own. The next column takes it.
    @Test func aFloatWaitingWhenAHeadingSpansStaysInItsBand() throws {
        let words = "ferry quay net brick green building store light lighthouse harbour press market".split(separator: " ")
        func text(_ n: Int, _ seed: Int) -> String {
            (0..<n).map { String(words[($0 * 7 + seed) % words.count]) }.joined(separator: " ").capitalized + "."
        }
        let markup = [
            text(22, 1), "<h2>Heading</h2>", text(90, 2),
            #"<img src="images/harbour.jpg" float="right" width="100%" margin="6" caption="\#(text(20, 3))">"#,
            text(64, 4), #"<h2 span="all">Across</h2>"#, #"<img src="images/chart.png" span="page" width="90%" caption="A chart.">"#,
        ].joined(separator: "\n")
        let fs = framesetter(markup)
        let ps = pages(of: fs)
        #expect(notPlacedOnce(ps, story: fs.story).isEmpty)
        let harbour = try #require(fs.story.images.firstIndex { $0.source == "images/harbour.jpg" })
        let page = ps.firstIndex { $0.frames.contains { $0.images.contains { $0.image == harbour } } }
        #expect(page == 0, "on page \((page ?? -1) + 1) of \(ps.count)")
        #expect(ps.count == 1)
    }

    // A heading under a page-wide float at the page's head, its paragraph too short to split:
    // balancing kept the heading alone in column 1 and set the paragraph in column 2, since
    // the check that a heading keeps with what follows measured from the column's top, over
    // the float, not from where the heading lands under it.
    @Test func aHeadingUnderATopFloatKeepsItsParagraph() throws {
        let body = "Some body text that runs on and on for a while to fill some lines. "
        let markup =
            #"<img src="images/harbour.jpg" span="page" float="top" width="100%">"# + "\n<h1>Bleed test</h1>\n" + body + body + "\n"
        let fs = framesetter(markup)
        let frames = try #require(pages(of: fs).first).frames
        let heading = try #require(frames.firstIndex { $0.lines.contains { $0.paragraphIndex == 1 } })
        let text = try #require(frames.firstIndex { $0.lines.contains { $0.paragraphIndex == 2 } })
        #expect(heading == text, "the heading in frame \(heading), its paragraph in frame \(text)")
    }
}
