import GalleyLayout
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// Random prose: `count` paragraphs of 4–60 words, from a seed.
private func prose(_ count: Int, _ rng: inout SplitMix) -> [String] {
    let words = ["press", "ink", "galley", "quoin", "chase", "forme", "platen", "tympan", "frisket", "stick", "lead", "sort", "case"]
    return (0..<count).map { _ in
        let n = Int.random(in: 4...60, using: &rng)
        return (0..<n).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ").capitalized + "."
    }
}

/// The foot of each non-spanning frame of the last band of a page, in column order.
private func lastBandFeet(_ page: Page) -> [Double] {
    let band = page.frames.reversed().prefix { !$0.spansColumns }.reversed()
    return band.map { f in max(f.lines.map(\.box.maxY).max() ?? f.rect.y, f.images.map(\.rect.maxY).max() ?? f.rect.y) }
}

/// The foot of what a frame holds, its top when it holds nothing: its lines, and its images
/// with their captions (a column holding only a float ends at the float's foot).
private func contentFoot(_ f: Frame) -> Double {
    let images = f.images.map { max($0.rect.maxY, $0.captionRect?.maxY ?? 0) }
    return max(f.lines.map(\.box.maxY).max() ?? f.rect.y, images.max() ?? f.rect.y)
}

@Suite struct BalanceTests {
    // A short story with a block image between two paragraphs: the least balanced height left
    // no room for the image under the first, so it opened the second column and the paragraph
    // after it stayed in the first. The image now comes before its later text, as at full height.
    @Test func aBlockImageStaysBeforeItsLaterText() throws {
        let text = "Some text before.\n<img src=\"images/chart.png\" width=\"50%\" caption=\"x\">\nText after."
        let fs = framesetter(text, template: .default)
        let page = try #require(expectInvariants(fs, "block image").first)
        let image = try #require(page.frames.firstIndex { !$0.images.isEmpty })
        let after = try #require(page.frames.firstIndex { $0.lines.contains { $0.paragraphIndex == 2 } })
        #expect(image <= after, "image in column \(image + 1), the text after it in column \(after + 1)")
    }

    // At the story's end the columns end on one baseline or one line apart: random stories,
    // page sizes and column counts, with the rules that may demand more (widows, orphans,
    // spacing off the grid) relaxed.
    @Test(arguments: 0..<40) func lastPageBalanced(seed: Int) {
        var rng = SplitMix(seed: UInt64(seed))
        let columns = Int.random(in: 2...4, using: &rng)
        var t = tinyPage(lines: Int.random(in: 8...40, using: &rng), columns: columns)
        t.pageWidth = Double(columns) * Double.random(in: 120...220, using: &rng)
        t.widows = 1
        t.orphans = 1
        t.paragraphSpacing = 0
        let fs = framesetter(prose(Int.random(in: 1...25, using: &rng), &rng).joined(separator: "\n"), template: t)
        let ps = expectInvariants(fs, "seed \(seed)")
        guard let last = ps.last else { return }
        let feet = lastBandFeet(last)
        let spread = (feet.max() ?? 0) - (feet.min() ?? 0)
        #expect(spread <= t.body.leading + 0.01, "seed \(seed): column feet \(feet)")
        // Left columns are never emptier than right ones by more than a line.
        for (a, b) in zip(feet, feet.dropFirst()) { #expect(a >= b - t.body.leading - 0.01, "seed \(seed): \(feet)") }
    }

    // With the default rules (widows and orphans 2, paragraph spacing) the columns still end
    // within a few lines, and every invariant holds.
    @Test(arguments: 0..<20) func defaultRules(seed: Int) {
        var rng = SplitMix(seed: UInt64(1000 + seed))
        let t = tinyPage(lines: Int.random(in: 12...40, using: &rng), columns: Int.random(in: 2...3, using: &rng))
        let fs = framesetter(prose(Int.random(in: 2...20, using: &rng), &rng).joined(separator: "\n"), template: t)
        let ps = expectInvariants(fs, "seed \(seed)")
        let feet = ps.last.map(lastBandFeet) ?? []
        #expect((feet.max() ?? 0) - (feet.min() ?? 0) <= 4 * t.body.leading + 0.01, "seed \(seed): \(feet)")
    }

    // balance: false leaves the first column full and the rest of the text in the next.
    @Test func switchedOff() {
        var t = tinyPage(lines: 10)
        t.balance = false
        let fs = framesetter("One.\nTwo.\nThree.", template: t)
        let frames = pages(of: fs)[0].frames
        #expect(frames.map(\.lines.count) == [3, 0])
        t.balance = true
        #expect(pages(of: framesetter("One.\nTwo.\nThree.", template: t))[0].frames.map(\.lines.count) == [2, 1])
    }

    // Before a page break the columns of that page are balanced too.
    @Test func beforeAPageBreak() {
        let fs = framesetter("One.\nTwo.\nThree.\nFour.\n<pagebreak>\nFive.", template: tinyPage(lines: 10))
        let ps = pages(of: fs)
        #expect(ps.count == 2)
        #expect(ps[0].frames.map(\.lines.count) == [2, 2])
    }

    // The tester's page: a column float between two paragraphs, at the story's end or above an
    // element across the columns. At a balanced height the float no longer fits its column under
    // the text above it and opens the next one, and balancing refused every such trial (a float
    // deferred from where it was met), so the band kept its full height: one column held it all,
    // 16 lines and the float, and the others stood empty (17/3/0 lines in three columns). Now the
    // float moves on within the band: every column holds something, the float is placed once
    // and inside its frame, and the columns end within a line (in two columns within two: the
    // orphans rule leaves the paragraph after the float no single line at the first one's foot).
    @Test(arguments: [2, 3], [false, true]) func aColumnFloatInTheBand(columns: Int, spanAfter: Bool) throws {
        var parts: [String] = [
            "Rollers steel sorted hyphenation each line magazine rhythm hand and gutters each attention light set by into "
                + "type line over by margins into each magazine columns measuring faded ligatures ligatures gutters each columns "
                + "gutters sorted each faded set margins reader against windows type steel rhythm measuring columns ink margins "
                + "magazine.",
            #"<img src="images/chart.png" float="left" width="60%">"#,
            "Paragraphs while hand gutters columns ligatures harbour and hand margins captions line columns each kerning light "
                + "patience paragraphs rhythm into.",
        ]
        if spanAfter {
            parts += [#"<h2 span="all">Spanning heading</h2>"#, "Printing rollers typography gutters and ink over pressroom."]
        }
        var t = Template.default
        t.columns = columns
        let fs = framesetter(parts.joined(separator: "\n"), template: t)
        let label = "\(columns) columns\(spanAfter ? ", above a span" : "")"
        let ps = expectInvariants(fs, label)
        #expect(ps.count == 1, "\(label): \(ps.count) pages")
        #expect(notPlacedOnce(ps, story: fs.story).isEmpty, "\(label)")
        let outside = columnFloatsOutsideFrames(ps, story: fs.story)
        #expect(outside.isEmpty, "\(label): \(outside)")
        let page = try #require(ps.first)
        let band = Array(page.frames.prefix { !$0.spansColumns })
        try #require(band.count == columns, "\(label): \(band.count) columns in the band")
        #expect(band.allSatisfy { !$0.isEmpty }, "\(label): \(band.map(\.lines.count)) lines")
        #expect(band.contains { !$0.images.isEmpty }, "\(label): the float is not in the band")
        let feet = band.map(contentFoot)
        let lines = columns == 2 ? 2.0 : 1.0
        #expect((feet.max() ?? 0) - (feet.min() ?? 0) <= lines * t.body.leading + 0.01, "\(label): column feet \(feet)")
    }
}

@Suite struct SpanTests {
    // A heading with span="all" is one frame across the text area, between two bands of
    // balanced columns; nothing after it is set above it, nothing before it below it.
    @Test func headingAcrossTheColumns() throws {
        let body = (1...6).map { "Paragraph \($0) " + String(repeating: "of ordinary words set in columns ", count: 4) }
        let text = body.joined(separator: "\n") + "\n<h2 span=\"all\">Across the page</h2>\n" + body.joined(separator: "\n")
        let fs = framesetter(text, template: tinyPage(lines: 60))
        let ps = expectInvariants(fs, "span")
        #expect(ps.count == 1)
        let frames = ps[0].frames
        #expect(frames.map(\.spansColumns) == [false, false, true, false, false])
        let span = frames[2]
        #expect(span.lines.count == 1 && span.rect.width > frames[0].rect.width * 2)
        let spanRange = span.visibleRange
        for (i, f) in frames.enumerated() where i != 2 {
            for l in f.lines {
                if l.box.y < span.rect.y { #expect(l.storyRange.upperBound <= spanRange.lowerBound) }
                if l.box.y > span.rect.y { #expect(l.storyRange.lowerBound >= spanRange.upperBound) }
            }
        }
        // The band above is balanced: its columns end within a line of each other.
        let feet = frames[0..<2].map { $0.lines.map(\.box.maxY).max() ?? 0 }
        #expect(abs(feet[0] - feet[1]) <= 12.01, "\(feet)")
    }

    // Random stories with spanning headings and paragraphs: every invariant holds, and no
    // line set above a spanning element belongs to text after it.
    @Test(arguments: 0..<30) func randomSpans(seed: Int) {
        var rng = SplitMix(seed: UInt64(500 + seed))
        var t = tinyPage(lines: Int.random(in: 10...50, using: &rng), columns: Int.random(in: 2...3, using: &rng))
        t.pageWidth = Double(t.columns) * 150
        var parts = prose(Int.random(in: 3...30, using: &rng), &rng)
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let at = Int.random(in: 0...parts.count, using: &rng)
            let tag = ["h1", "h2", "p"].randomElement(using: &rng)!
            parts.insert("<\(tag) span=\"all\">Spanning \(tag) at \(at)</\(tag)>", at: at)
        }
        let fs = framesetter(parts.joined(separator: "\n"), template: t)
        let ps = expectInvariants(fs, "seed \(seed)")
        for page in ps {
            for span in page.frames where span.spansColumns {
                for f in page.frames where !f.spansColumns {
                    for l in f.lines where l.box.maxY <= span.rect.y + 0.01 {
                        #expect(
                            l.storyRange.upperBound <= span.visibleRange.lowerBound,
                            "seed \(seed): \(l.storyRange) above \(span.visibleRange)")
                    }
                }
            }
        }
    }

    // A paragraph shorter than its drop cap, then an element across the columns: the initial
    // hangs below the paragraph's last line, and the element starts below its foot. The band's
    // end was taken from its lines and images alone, so the element's first lines were set over
    // the initial (a `<p span="all">` and an `<h2 span="all">` alike).
    @Test(arguments: ["p", "h2"]) func belowADropCap(tag: String) throws {
        let across =
            "Jumps even quick dog never even notices the over fox never while lazy lazy into typesetter jumps even dog "
            + "jumps never the watches reader even quick jumps the grey while jumps brown grey watches grey reader jumps lines."
        let text = "<p dropcap=\"4\">The over.</p>\n<\(tag) span=\"all\">\(across)</\(tag)>\nMore body text."
        let fs = framesetter(text, template: tinyPage(lines: 30))
        let ps = expectInvariants(fs, tag)
        let frames = try #require(ps.first).frames
        let cap = try #require(frames.first?.dropCaps.first)
        #expect(frames.first?.lines.count == 1 && cap.foot > (frames.first?.lines.last?.box.maxY ?? 0) + 12)
        let span = try #require(frames.first { $0.spansColumns })
        let first = try #require(span.lines.first)
        #expect(span.rect.y >= cap.foot - 0.01 && first.box.y >= cap.foot - 0.01, "\(tag) at \(first.box.y), initial's foot at \(cap.foot)")
        // The band below the element starts below it too.
        for f in frames.drop(while: { !$0.spansColumns }).dropFirst() {
            #expect(f.rect.y >= span.rect.maxY - 0.01)
        }
    }

    // An element across the columns with a drop cap of its own, shorter than the initial, at
    // the foot of a page: its initial ran past the text area (into the footer); it goes to the
    // next page whole, as an element whose lines do not fit. (Fourteen one-line elements leave
    // 30 pt at the foot of the page: room for its line, not for its initial.)
    @Test func dropCapAcrossAtThePageFoot() throws {
        let fillers = (1...14).map { "<p span=\"all\">Filler line \($0).</p>" }.joined(separator: "\n")
        let fs = framesetter(fillers + "\n<p span=\"all\" dropcap=\"4\">Tiny.</p>\nAfter text.", template: tinyPage(lines: 30))
        let ps = expectInvariants(fs, "drop cap at the foot")
        var caps = 0
        for page in ps {
            let area = fs.columns(onPage: page.folio)[0]
            for cap in page.frames.flatMap(\.dropCaps) {
                caps += 1
                #expect(page.number == 2, "the element with the initial is on page \(page.number)")
                #expect(cap.foot <= area.maxY + 0.01, "page \(page.number): initial's foot \(cap.foot), text area's \(area.maxY)")
            }
        }
        #expect(caps == 1)
    }

    // Random stories of paragraphs under drop caps, most shorter than their initial (a few
    // words), and elements across the columns, some with drop caps of their own: every
    // invariant holds (no line of other text meets an initial down to its foot, no band or
    // element starts above it), and no initial runs past the foot of the text area.
    @Test(arguments: 0..<30) func randomDropCapsAndSpans(seed: Int) {
        var rng = SplitMix(seed: UInt64(700 + seed))
        var t = tinyPage(lines: Int.random(in: 10...50, using: &rng), columns: Int.random(in: 2...3, using: &rng))
        t.pageWidth = Double(t.columns) * 150
        var parts = prose(Int.random(in: 3...20, using: &rng), &rng)
        for k in parts.indices where Bool.random(using: &rng) {
            let words = parts[k].split(separator: " ").prefix(Int.random(in: 1...12, using: &rng)).joined(separator: " ")
            parts[k] = "<p dropcap=\"\(Int.random(in: 2...5, using: &rng))\">\(words)</p>"
        }
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let at = Int.random(in: 0...parts.count, using: &rng)
            let tag = ["h1", "h2", "p"].randomElement(using: &rng)!
            let cap = Int.random(in: 0..<4, using: &rng) == 0 ? " dropcap=\"3\"" : ""
            parts.insert("<\(tag) span=\"all\"\(cap)>Spanning \(tag) at \(at)</\(tag)>", at: at)
        }
        let fs = framesetter(parts.joined(separator: "\n"), template: t)
        let ps = expectInvariants(fs, "seed \(seed)")
        for page in ps {
            let area = fs.columns(onPage: page.folio)[0]
            for cap in page.frames.flatMap(\.dropCaps) {
                #expect(cap.foot <= area.maxY + 0.01, "seed \(seed) page \(page.number): initial's foot \(cap.foot) below \(area.maxY)")
            }
        }
    }

    // headings.h1.span in the template spans every <h1> without markup.
    @Test func templateKey() throws {
        var t = tinyPage(lines: 40)
        t.headings.h1.span = true
        let fs = framesetter("<h1>Headline</h1>\nBody text follows the headline here.", template: t)
        let frames = pages(of: fs)[0].frames
        #expect(frames.first?.spansColumns == true)
        #expect(frames.first?.lines.count == 1)
    }

    // An element taller than the page goes on across the next page, with a warning, and the
    // layout ends.
    @Test func tallerThanThePage() {
        let long = String(repeating: "A spanning paragraph that will not fit on one tiny page. ", count: 40)
        let fs = framesetter("<p span=\"all\">\(long)</p>\nAfter it.", template: tinyPage(lines: 6))
        let ps = expectInvariants(fs, "tall span")
        #expect(ps.count > 1)
        #expect(fs.diagnostics.all.contains { $0.message.contains("taller than the page") })
    }

    // A spanning heading with no room under it for the lines it keeps goes to the next page.
    @Test func headingKeptWithText() {
        let fill = (1...8).map { "Line \($0) of the first page." }.joined(separator: "\n")
        let fs = framesetter(fill + "\n<h2 span=\"all\">Kept</h2>\nText after it.\nMore text.", template: tinyPage(lines: 5))
        let ps = expectInvariants(fs, "kept")
        let withSpan = ps.firstIndex { $0.frames.contains(where: \.spansColumns) }
        let withText = ps.firstIndex { p in
            p.frames.contains { f in f.lines.contains { $0.storyRange.lowerBound > 0 && !f.spansColumns && $0.paragraphIndex == 9 } }
        }
        #expect(withSpan != nil && withSpan == withText)
    }

    // Two lines above a heading across the columns: widows and orphans of 2 cannot split them,
    // and the band was left 2 against 0, a hole above the heading. They are set one a column.
    @Test func twoLinesAboveAHeadingAcross() throws {
        let fs = framesetter(
            "Ink and quoin, forme and galley, the press.\n<h2 span=\"all\">Across</h2>\nText after it.", template: tinyPage(lines: 10))
        let frames = try #require(expectInvariants(fs, "two lines").first).frames
        #expect(frames.map(\.spansColumns) == [false, false, true, false, false])
        #expect(frames.prefix(2).map(\.lines.count) == [1, 1])
    }

    // The lines the widows rule carries over a page, then a heading across the columns: the
    // band they open the next page with is balanced, never a column of them beside an empty one.
    @Test func carriedLinesAboveAHeadingAcross() {
        let t = tinyPage(lines: 8)
        var carried = 0
        for words in stride(from: 50, through: 90, by: 2) {
            let body = (0..<words).map { ["press", "ink", "galley", "quoin", "forme"][$0 % 5] }.joined(separator: " ")
            let fs = framesetter(body + ".\n<h2 span=\"all\">Across</h2>\n" + paragraphs(4), template: t)
            for page in expectInvariants(fs, "\(words) words") {
                let band = page.frames.prefix { !$0.spansColumns }
                guard band.count < page.frames.count, band.contains(where: { !$0.lines.isEmpty }) else { continue }
                if page.number > 1 { carried += 1 }
                let feet = band.map(contentFoot)
                #expect(feet.max()! - feet.min()! <= t.body.leading + 0.01, "\(words) words, page \(page.number): \(feet)")
            }
        }
        #expect(carried > 0)
    }
}

@Suite struct BlockImageTests {
    /// Text, then a block image too tall for what is left of the column, then more text.
    static let text =
        (1...4).map { "Opening paragraph \($0) with words enough for a line or two of its column." }
        .joined(separator: "\n") + "\n<img src=\"images/tall.png\">\n"
        + (1...12).map { "Following paragraph \($0) with words enough for a line or two of its column." }.joined(separator: "\n")

    // defer (the default): the text after the image goes on in the column, and the image opens
    // the next one; nothing is lost or doubled.
    @Test func deferredToTheNextColumn() throws {
        var t = tinyPage(lines: 30)
        t.balance = false
        let fs = framesetter(Self.text, template: t)
        let ps = expectInvariants(fs, "defer")
        let first = try #require(ps.first?.frames.first)
        #expect(first.images.isEmpty)
        #expect(first.lines.contains { $0.paragraphIndex > 4 }, "text after the image fills the first column")
        let image = try #require(ps.flatMap(\.frames).first { !$0.images.isEmpty })
        #expect(image.column == 1 && image.images[0].rect.y == image.rect.y, "it opens the next column")
        let foot = first.lines.map(\.box.maxY).max() ?? 0
        #expect(foot >= first.rect.maxY - 3 * t.body.leading, "the first column is at most 3 lines short")
    }

    // inOrder keeps the tutorial's strict order: the column ends where the image did not fit.
    @Test func strictOrder() throws {
        var t = tinyPage(lines: 30)
        t.balance = false
        t.blockImages = .inOrder
        let fs = framesetter(Self.text, template: t)
        let ps = expectInvariants(fs, "in order")
        let first = try #require(ps.first?.frames.first)
        #expect(first.lines.allSatisfy { $0.paragraphIndex < 4 })
        #expect(ps[0].frames[1].images.first?.rect.y == ps[0].frames[1].rect.y)
    }

    // The bug hunter's page: a block image deferred to the head of the next column, under a
    // page-wide sidebar, was set below it at its full height (150 × 700 pt from y 255.7, past
    // the page's foot at 799.4) with no word, as that column had to take something. It is
    // shrunk into the room under the sidebar, with a warning.
    @Test(arguments: [2, 3]) func underAPageWideSidebar(columns: Int) throws {
        let body = String(repeating: "Body text words here. ", count: 30)
        let text = [
            body, #"<aside span="page">A page-wide sidebar in the middle of the page.</aside>"#, body,
            #"<img src="images/tall.png" width="150">"#, body,
        ].joined(separator: "\n")
        var t = Template.default
        t.columns = columns
        let fs = framesetter(text, template: t)
        let ps = expectInvariants(fs, "\(columns) columns")
        let page = try #require(ps.first)
        let frame = try #require(page.frames.first { !$0.images.isEmpty })
        let image = try #require(frame.images.first)
        let sidebar = try #require(page.floats.first?.exclusion)
        #expect(image.rect.maxY <= frame.rect.maxY + 0.01, "\(image.rect) past the foot of \(frame.rect)")
        #expect(image.shrunk && image.rect.y >= sidebar.maxY - 0.01 && image.rect.height < 700, "\(image.rect) under \(sidebar)")
        #expect(abs(image.rect.width / image.rect.height - 300.0 / 1400.0) < 0.001)
        let shrunk = "image 'images/tall.png' is taller than the room the page's floats leave in the column; shrunk to"
        #expect(fs.diagnostics.warnings.contains { $0.message.hasPrefix(shrunk) }, "\(fs.diagnostics.warnings.map(\.message))")
    }

    // A block image opening the page, with a sidebar (a top float kept to its column) anchored
    // after it: the page laid out again with the sidebar in place set the badge below it, from
    // y 708.1, 246.6 pt tall, past the foot at 799.4. The room under the sidebar is under half
    // of it, so the badge opens the next column whole, and the text goes on in the first.
    @Test func underASidebarInItsColumn() throws {
        let sidebar = #"<aside width="50%">"# + String(repeating: "Sidebar words here. ", count: 63) + "</aside>"
        let text = [#"<img src="images/badge.png">"#, sidebar, #"<img src="images/chart.png" float="left" width="40%">"#, "Body."]
            .joined(separator: "\n")
        let fs = framesetter(text)
        let ps = expectInvariants(fs, "sidebar")
        #expect(notPlacedOnce(ps, story: fs.story).isEmpty)
        func isBadge(_ i: PlacedImage) -> Bool { fs.story.images[i.image].source == "images/badge.png" }
        let frame = try #require(ps.flatMap(\.frames).first { $0.images.contains(where: isBadge) })
        let badge = try #require(frame.images.first(where: isBadge))
        #expect(!badge.shrunk && abs(badge.rect.height - frame.rect.width) < 0.01, "\(badge.rect)")
        #expect(badge.rect.y == frame.rect.y && badge.rect.maxY <= frame.rect.maxY + 0.01, "\(badge.rect) in \(frame.rect)")
        #expect(!fs.diagnostics.warnings.contains { $0.message.contains("badge.png") })
    }

    // A block image opening the page between a page-wide photograph at its head and one at its
    // foot was set below the lower one, from y 805.4, wholly past the foot. It is shrunk into
    // the gap between them, its caption with it.
    @Test func betweenPageWideFloats() throws {
        let text = [
            #"<img src="images/harbour.jpg" span="page" float="top" width="40%">"#,
            #"<img src="images/harbour.jpg" span="page" float="bottom" width="40%">"#,
            #"<img src="images/tall.png" caption="A tall banner between two page-wide photographs.">"#,
            String(repeating: "Body text words here. ", count: 30),
        ].joined(separator: "\n")
        let fs = framesetter(text)
        let ps = expectInvariants(fs, "between floats")
        let page = try #require(ps.first)
        let image = try #require(page.frames.first?.images.first)
        let caption = try #require(image.captionRect)
        let floats = page.floats.compactMap(\.exclusion).sorted { $0.y < $1.y }
        try #require(floats.count == 2)
        #expect(image.shrunk && image.rect.y >= floats[0].maxY - 0.01, "\(image.rect) under \(floats[0])")
        #expect(caption.maxY <= floats[1].y + 0.01, "\(caption) over \(floats[1])")
        #expect(abs(image.rect.width / image.rect.height - 300.0 / 1400.0) < 0.001)
        let shrunk = "image 'images/tall.png' and its caption are taller than the room the page's floats leave in the column; shrunk to"
        #expect(fs.diagnostics.warnings.contains { $0.message.hasPrefix(shrunk) }, "\(fs.diagnostics.warnings.map(\.message))")
    }
}

@Suite struct ShortColumnTests {
    // On a tiny page, a heading that cannot keep its lines below it moves to the next column and
    // leaves this one short: the report names the column, how short, and why.
    @Test func headingKeptWithItsLines() {
        var t = tinyPage(lines: 12)
        t.balance = false
        let body = (1...4).map { "Paragraph \($0) has words." }.joined(separator: "\n")
        let text = body + "\n<h2>A heading here</h2>\n" + String(repeating: "Words after the heading run on. ", count: 12)
        let fs = framesetter(text, template: t)
        let ps = expectInvariants(fs, "short")
        let short = ps.flatMap { LayoutStatistics.shortColumns($0, story: fs.story, leading: t.body.leading) }
        let first = short.first { $0.page == 1 && $0.column == 1 }
        #expect(first?.cause == "a heading kept with the lines after it", "\(short)")
        #expect((first?.lines ?? 0) > 3)
    }

    // A column ended by <columnbreak>, and the story's last column, are reported with those causes.
    @Test func breakAndEnd() {
        var t = tinyPage(lines: 12)
        t.balance = false
        let fs = framesetter("One line.\n<columnbreak>\nAnother line.", template: t)
        let short = pages(of: fs).flatMap { LayoutStatistics.shortColumns($0, story: fs.story, leading: t.body.leading) }
        #expect(short.map(\.cause) == ["a column or page break", "the end of the story"])
    }
}

@Suite struct SpanFloatTests {
    // A page-wide image met in the second column of a band under a spanning headline goes on
    // that page, in that band: never above the headline, and the columns wrap around it.
    @Test func belowTheHeadline() throws {
        let body = (1...9).map { "Paragraph \($0) of the story, long enough to take several lines of its column of text." }
        var parts = ["<h1 span=\"all\">A headline across</h1>"] + body
        parts.insert("<img src=\"images/harbour.jpg\" span=\"page\" width=\"60%\">", at: 8)
        var t = tinyPage(lines: 50)
        t.pageWidth = 420
        let fs = framesetter(parts.joined(separator: "\n"), template: t)
        let ps = expectInvariants(fs, "span float")
        #expect(ps.count == 1)
        let page = try #require(ps.first)
        let head = try #require(page.frames.first { $0.spansColumns })
        let image = try #require(page.floats.first)
        #expect(image.rect.y >= head.rect.maxY, "\(image.rect) above the headline \(head.rect)")
        for line in page.frames.flatMap(\.lines) where !line.vertical {
            let e = try #require(image.exclusion)
            #expect(line.box.maxY <= e.y + 0.01 || line.box.y >= e.maxY - 0.01, "line \(line.box) over the image \(e)")
        }
    }
}

@Suite struct SpanEdgeTests {
    // span="all" on a paragraph holding only an image, or a vertical block, sets it as it would
    // be without the attribute: the layout ends, nothing is lost.
    @Test(arguments: [
        "<p span=\"all\"><img src=\"images/chart.png\"></p>\nText after.",
        "<vertical><p span=\"all\">活字印刷</p></vertical>\nText after.",
        "<p span=\"all\"></p>\n<h2 span=\"all\"> </h2>\nText.",
    ]) func oddSpans(text: String) {
        let fs = framesetter(text, template: tinyPage(lines: 20))
        // (Vertical lines stand side by side, which the overlap check does not read.)
        let ps = text.hasPrefix("<vertical>") ? pages(of: fs) : expectInvariants(fs, text)
        #expect(ps.count == 1)
        #expect(ps.last?.frames.last?.visibleRange.upperBound == fs.story.text.utf8.count)
    }
}

@Suite struct LongCaptionTests {
    // A page-wide figure whose caption is thousands of words long is set on the page, its caption
    // cut to half the room with a warning; the layout ends (it used to place the image far above
    // the page, a point wide, and defer it without end).
    @Test(arguments: ["span=\"page\" width=\"60%\"", "float=\"right\" width=\"40%\""]) func cutToFit(placement: String) throws {
        let caption = Array(repeating: "caption words", count: 2000).joined(separator: " ")
        let text =
            "Text before.\n<img src=\"images/harbour.jpg\" \(placement) caption=\"\(caption)\">\n"
            + String(repeating: "Text after the figure. ", count: 60)
        let fs = framesetter(text)
        let ps = pages(of: fs)
        #expect(ps.count <= 2)
        #expect(ps.last?.frames.last?.visibleRange.upperBound == fs.story.text.utf8.count)
        let image = try #require((ps.flatMap(\.floats) + ps.flatMap(\.frames).flatMap(\.images)).first)
        let area = fs.columns[0]
        #expect(image.rect.y >= area.y - 0.01 && image.rect.width > 50, "\(image.rect)")
        #expect((image.captionRect?.maxY ?? .infinity) <= area.maxY + 0.01)
        #expect(fs.diagnostics.all.contains { $0.message.contains("the rest of it is cut") })
    }
}
