import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

// Running heads and footers on facing pages, and columns that move with mirrored margins.

/// A small two-column page with mirrored margins (inner 40, outer 20) and both running lines on.
private func facingPages() -> Template {
    var t = tinyPage(lines: 12)
    t.margins = EdgeInsets(top: 30, inner: 40, bottom: 30, outer: 20)
    t.pageHeight = 60 + 12 * t.body.leading
    t.header.enabled = true
    t.header.left = "{page} · {issue}"
    t.header.right = "{title} · {page}"
    t.footer.enabled = true
    return t
}

/// Enough plain paragraphs to fill several small pages.
private let body = (1...30).map { "Paragraph \($0) of words that fill the columns of a small page, line after line." }
    .joined(separator: "\n")

@Suite struct RunningHeadLayoutTests {
    // An issue lays its articles out ahead from a guessed folio and renumbers them: that must
    // give the pages a layout from the real folio gives, page numbers, running lines and all.
    @Test(arguments: [true, false]) func renumberedPagesAreLaidOutAlike(mirrored: Bool) throws {
        var t = facingPages()
        if !mirrored { t.margins = EdgeInsets(top: 30, right: 20, bottom: 30, left: 40) }
        let fs = framesetter("<meta title=\"T\" issue=\"No. 12\">\n" + body, template: t)
        let ahead = pages(of: fs)
        try #require(ahead.count >= 3)
        for start in [1, 2, 7, 12] {
            #expect(fs.laysOutAlike(from: start) == (!mirrored || start % 2 == 1), "from \(start)")
            guard fs.laysOutAlike(from: start) else { continue }
            let (copy, moved) = fs.renumbered(ahead, from: start)
            let direct = pages(of: fs.numbered(from: start))
            #expect(copy.template.startPage == start)
            #expect(moved.map { PageDump.dump($0, story: fs.story) } == direct.map { PageDump.dump($0, story: fs.story) })
            #expect(moved.map(\.folio) == direct.map(\.folio))
            #expect(moved.map(\.header?.text) == direct.map(\.header?.text))
            #expect(moved.map(\.header?.anchor) == direct.map(\.header?.anchor))
            #expect(moved.map(\.footer?.text) == direct.map(\.footer?.text))
            #expect(moved.map(\.footer?.anchor) == direct.map(\.footer?.anchor))
        }
    }

    // Right-hand pages (odd) have the inner margin on the left, left-hand pages on the right:
    // the columns move, their width does not.
    @Test func mirroredColumns() throws {
        let t = facingPages()
        let fs = framesetter("<meta title=\"T\" issue=\"No. 12\">\n" + body, template: t)
        #expect(fs.columns(onPage: 1).map(\.x) == [40, 40 + fs.columns[0].width + 10])
        #expect(fs.columns(onPage: 2).map(\.x) == [20, 20 + fs.columns[0].width + 10])
        #expect(fs.columns(onPage: 2).map(\.width) == fs.columns(onPage: 1).map(\.width))
        let ps = pages(of: fs)
        try #require(ps.count >= 3)
        for p in ps {
            let x = p.isRightHand ? 40.0 : 20.0
            #expect(p.frames.map(\.rect.x) == [x, x + fs.columns[0].width + 10], "page \(p.number)")
            #expect(p.frames[0].lines.allSatisfy { $0.box.x == x }, "page \(p.number)")
        }
        #expect(PageDump.dump(ps[1], story: fs.story).contains("column 1 at 20,30 "))
    }
    // Facing texts: flush right at the outer edge of the text on right-hand pages, flush left on
    // left-hand ones, fields filled; `text` alone is centred on the text.
    @Test func sides() throws {
        let t = facingPages()
        let fs = framesetter("<meta title=\"T\" issue=\"No. 12\">\n" + body, template: t)
        let ps = pages(of: fs)
        try #require(ps.count >= 3)
        let y = 15 + t.header.size * 0.35
        #expect(ps[0].header?.text == "T · 1" && ps[0].header?.alignment == .right)
        #expect(ps[0].header?.anchor == Point(x: 280, y: y))
        #expect(ps[1].header?.text == "2 · No. 12" && ps[1].header?.alignment == .left)
        #expect(ps[1].header?.anchor == Point(x: 20, y: y))
        #expect(ps[2].header?.text == "T · 3" && ps[2].header?.alignment == .right)
        // The footer has only `text`: centred on the text block, which moves.
        #expect(ps[0].footer?.anchor == Point(x: 160, y: t.pageHeight - 15) && ps[0].footer?.alignment == .center)
        #expect(ps[1].footer?.anchor == Point(x: 140, y: t.pageHeight - 15))
        #expect(PageDump.dump(ps[1], story: fs.story).contains("  header \"2 · No. 12\" at 20,17.8 flush left\n"))
    }
    // {pages} in a header is counted before page 1; a missing field is empty.
    @Test func pageCount() {
        var t = facingPages()
        t.header.left = nil
        t.header.right = nil
        t.header.text = "{section}{page}/{pages}"
        let ps = pages(of: framesetter(body, template: t))
        #expect(ps.map { $0.header?.text } == ps.map { "\($0.number)/\(ps.count)" })
    }
    // A page opening with an <h1> across the columns has no running head; the next has one. An
    // <h1> in its column does not open a story: the page keeps its head.
    @Test func openingPage() throws {
        let t = facingPages()
        let spanning = pages(of: framesetter("<h1 span=\"all\">The Last Compositors</h1>\n" + body, template: t))
        try #require(spanning.count >= 2)
        #expect(spanning[0].header == nil && spanning[0].footer != nil)
        #expect(spanning[1].header?.text == "2")  // an empty field takes its separator with it
        let inColumn = pages(of: framesetter("<h1>The Last Compositors</h1>\n" + body, template: t))
        #expect(inColumn[0].header?.text == "The Last Compositors · 1")
        // A story opening on a later page: that page has none.
        let later = pages(of: framesetter(body + "\n<pagebreak><h1 span=\"all\">Next</h1>\n" + body, template: t))
        let opening = try #require(later.first { p in p.frames.contains { $0.spansColumns } })
        #expect(opening.number > 1 && opening.header == nil)
        #expect(later.filter { $0.header == nil }.map(\.number) == [opening.number])
    }
    // A page holding nothing but a page-wide image has no running head.
    @Test func imageOnlyPage() {
        let rect = Rect(x: 20, y: 30, width: 260, height: 100)
        var page = Page(number: 2, width: 300, height: 500, frames: [Frame(rect: rect, column: 0, visibleRange: 5..<5)])
        let story = buildStory("x").story
        #expect(!Framesetter.opensStory(page, story))
        page.floats = [PlacedImage(image: 0, rect: rect, storyOffset: 4, shrunk: false)]
        #expect(Framesetter.opensStory(page, story))
    }
}
