import GalleyLayout
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// `n` sentences of body text, one paragraph.
private func body(_ n: Int) -> String {
    let sentence = "Press and river type harbour, margin and column hyphen set, widow chase and river line printer orphan fold. "
    return String(repeating: sentence, count: n)
}

/// Where pull quotes and sidebars go among their text: a sidebar asking for its column's foot,
/// and pull quotes near the story's end.
@Suite struct TextBlockPlacementTests {
    // The bug hunter's page (typography finding 4): a sidebar asking for its column's foot,
    // anchored in the band above a heading across the columns, with the default pull quote
    // across the gutter lower in that band. It was set just above the pull quote (y 356.7–414.5,
    // the band ending at 492.5), and five lines of its column went on under it; with the pull
    // quote higher up, it went to the foot of the page, under the heading, in the next band.
    // It stands at the foot of its column in the band it is met in, above the heading, with no
    // line of that column under it.
    @Test(arguments: [4, 6, 8, 10]) func bottomSidebarAtTheFootOfItsBand(sentences: Int) throws {
        let sidebar =
            #"<aside float="bottom"><b>In brief.</b> This sidebar asks for the foot of its column, so no text of the column "#
            + "should be set below it. It holds a few sentences of its own to make it tall enough to matter.</aside>"
        let text =
            [
                #"<h1 span="all">Everything on one page at once</h1>"#, body(4),
                #"<img src="images/chart.png" float="left" width="45%" caption="A chart floated left with a caption.">"#,
                body(sentences), "<pullquote>“A pull quote sitting in the middle of the page.”</pullquote>", body(sentences),
                sidebar, body(3), body(2), #"<h2 span="all">A heading across the columns</h2>"#,
            ] + Array(repeating: body(5), count: 8)
        let fs = framesetter(text.joined(separator: "\n"))
        let ps = expectInvariants(fs, "\(sentences) sentences")
        let page = try #require(ps.first)
        let placed = page.floats + page.frames.flatMap(\.images)
        let box = try #require(placed.first { fs.story.images[$0.image].source == "<aside>" })
        let heading = try #require(page.frames.filter(\.spansColumns).dropFirst().first)
        #expect(box.rect.maxY <= heading.rect.y + 0.01, "\(sentences): the sidebar \(box.rect) is under the heading at \(heading.rect.y)")
        let column = page.frames.first { $0.images.contains { $0.image == box.image } }
        #expect(column.map { abs(box.rect.maxY - $0.rect.maxY) < 0.01 } == true, "\(sentences): \(box.rect) not at the foot of its column")
        let story = fs.story
        for found in [
            linesUnderFootSidebars(ps, story: story), linesOverFloats(ps, story: story), notPlacedOnce(ps, story: story),
            lostOrDoubled(ps, story: story),
        ] {
            #expect(found.isEmpty, "\(sentences) sentences: \(found.prefix(3))")
        }
    }

    // The bug hunter's short story (typography finding 5): a centred pull quote between its two
    // paragraphs. The columns balanced at the story's end held all the text in column 1 and the
    // quote alone at the head of the empty column 2, one word a line (it asks for 25 % of its
    // column). It stands in column 1, with lines of its text beside it.
    @Test func pullQuoteBesideTheTextItIsMetIn() throws {
        let text = """
            <h1>A short story</h1>
            The press starts at ten. By then the last ferry has tied up, the fish market has been hosed down and the only light left on the quay is the green one over the door of the press.
            <pullquote float="center" width="25%">“A page tells you when it is wrong. You do not always know what is wrong. But you know, and the night goes better with tea.”</pullquote>
            He has worked nights here for twenty-two years, and the paper has never once been late.
            """
        let fs = framesetter(text)
        let ps = expectInvariants(fs, "short story")
        #expect(ps.count == 1)
        #expect(textBlocksAlone(ps, story: fs.story).isEmpty, "\(textBlocksAlone(ps, story: fs.story))")
        let frame = try #require(ps.first?.frames.first { !$0.images.isEmpty })
        let quote = try #require(frame.images.first).rect
        #expect(frame.lines.contains { $0.box.y < quote.maxY && $0.box.maxY > quote.y }, "no line beside the quote \(quote)")
    }

    // The same in three columns (the tabloid template): the right pull quote, met in column 2
    // where the balanced columns are too short for it, was set alone at the head of column 3.
    @Test func pullQuotesInThreeColumns() throws {
        let text = """
            <pullquote float="left">“Left pull quote beside a drop cap.”</pullquote>
            <p dropcap="5">Quietly the compositor set the forme in the chase and locked it with quoins, then lifted it to the bed of the press and pulled a first proof for the editor to read over before the evening edition went down.</p>
            <pullquote float="right">“A right pull quote in its column.”</pullquote>
            <p dropcap="4">Gutters were wide in that shop because the foreman liked white space, and he said so to anyone who would listen at the stone while the apprentices distributed the type back into the cases.</p>
            """
        let t = try #require(Template.builtin(named: "tabloid"))
        let fs = framesetter(text, template: t)
        let ps = expectInvariants(fs, "tabloid")
        #expect(ps.count == 1)
        #expect(textBlocksAlone(ps, story: fs.story).isEmpty, "\(textBlocksAlone(ps, story: fs.story))")
        #expect(notPlacedOnce(ps, story: fs.story).isEmpty)
    }

    // A tall, narrow pull quote met near the story's end, where its column has no room left for
    // it: it waited for the next column, where no text came, or for a page of its own (with the
    // text ending in the last column). It goes in the last column of the text, as asked where a
    // balanced column holds it beside text, else under the text as wide as the column, cut
    // (with a warning) when longer than the room left there.
    @Test(arguments: [1, 8, 14, 16, 44, 48, 52]) func pullQuoteTheStoryEndsBefore(sentences: Int) throws {
        let text = [
            body(sentences),
            #"<pullquote float="right" width="25%">“A page tells you when it is wrong. You do not always know what is "#
                + "wrong. But you know, and the night goes better with tea.”</pullquote>",
            "He has worked nights here for twenty-two years.",
        ].joined(separator: "\n")
        for balance in [true, false] {
            var t = Template.default
            t.balance = balance
            let fs = framesetter(text, template: t)
            let ps = expectInvariants(fs, "\(sentences) sentences, balance \(balance)")
            let alone = textBlocksAlone(ps, story: fs.story)
            #expect(alone.isEmpty, "\(sentences) sentences, balance \(balance): \(alone)")
            #expect(ps.allSatisfy { $0.frames.contains { !$0.lines.isEmpty } }, "\(sentences), balance \(balance): a page of no text")
            #expect(notPlacedOnce(ps, story: fs.story).isEmpty)
        }
    }

    // A float met at the foot of a full column waits for the next one, and a `<columnbreak>`
    // follows it: the break was made again in the column the float opened, which held the float
    // alone, and the text after the break went on to the next page. That column is the new
    // one: the text after the break goes on in it, beside or under the float.
    @Test(arguments: [
        #"<img src="images/chart.png" float="left" width="60%">"#,
        #"<aside float="bottom"><b>In brief.</b> A sidebar met at the foot of a full column.</aside>"#,
    ])
    func breakAfterAFloatThatWaited(float: String) throws {
        let text = [body(28), float, "<columnbreak>", body(4)].joined(separator: "\n")
        var t = Template.default
        t.balance = false
        let fs = framesetter(text, template: t)
        let ps = expectInvariants(fs, float)
        #expect(ps.count == 1)
        let second = try #require(ps.first?.frames.last)
        #expect(!second.images.isEmpty && !second.lines.isEmpty, "column 2: \(second.images.count) images, \(second.lines.count) lines")
    }
}
