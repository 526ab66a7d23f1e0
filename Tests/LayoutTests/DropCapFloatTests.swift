import GalleyLayout
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// What a drop cap set beside a float may not do, as messages: a line's box outside its
/// column, a line broken to less than `wrapMinWidth` (the room it was broken to: its slot, less
/// the initial's indent beside one), an initial's box outside its column.
func dropCapsOutOfPlace(_ pages: [Page], template t: Template) -> [String] {
    var out: [String] = []
    for page in pages {
        for frame in page.frames {
            let (c, at) = (frame.rect, "page \(page.number) column \(frame.column + 1)")
            for line in frame.lines {
                let (b, room) = (line.box, line.paragraph.widths[line.lineIndex])
                if b.x < c.x - 0.01 || b.maxX > c.maxX + 0.01 { out.append("\(at): line \(line.storyRange) \(b) outside \(c)") }
                if room < min(t.wrapMinWidth, c.width) - 0.01 { out.append("\(at): line \(line.storyRange) broken to \(room) pt") }
            }
            for cap in frame.dropCaps where cap.rect.x < c.x - 0.01 || cap.rect.maxX > c.maxX + 0.01 {
                out.append("\(at): initial \(cap.storyRange) \(cap.rect) outside \(c)")
            }
        }
    }
    return out
}

/// Initials whose box meets a float's keep-out, as messages.
func initialsOverFloats(_ pages: [Page], story: Story) -> [String] {
    boxesOverFloats(pages, story: story) { frame in frame.dropCaps.map { ($0.rect, "initial") } }
}

/// The typographer's page: a pull quote at the head of the first column, a paragraph under a
/// five-line initial, another pull quote, a paragraph under a four-line one.
private let besidePullQuotes = """
    <pullquote float="left">“Left pull quote beside a drop cap.”</pullquote>
    <p dropcap="5">Quietly the compositor set the forme in the chase and locked it with quoins, then lifted it to the bed \
    of the press and pulled a first proof for the editor to read over before the evening edition went down.</p>
    <pullquote float="right">“A right pull quote in its column.”</pullquote>
    <p dropcap="4">Gutters were wide in that shop because the foreman liked white space, and he said so to anyone who would \
    listen at the stone while the apprentices distributed the type back into the cases.</p>
    """

@Suite struct DropCapBesideFloatTests {
    /// Checks a layout with drop caps beside floats; returns how many initials it set.
    @discardableResult
    func expectInPlace(_ fs: Framesetter, template t: Template, _ label: String) -> Int {
        let ps = pages(of: fs)
        for found in [dropCapsOutOfPlace(ps, template: t), linesOverFloats(ps, story: fs.story), initialsOverFloats(ps, story: fs.story)] {
            #expect(found.isEmpty, "\(label): \(found.prefix(4).joined(separator: "; "))")
        }
        return ps.flatMap(\.frames).flatMap(\.dropCaps).count
    }

    // Beside the left pull quote a strip of 55.5 pt was free (tabloid: 84.2), room for a line
    // but not for the Q (65.2 pt with its gap; 62.4) and a line: the lines beside it were
    // broken to 0 pt (21.9), "uietly" set a letter a line in the gutter (x 210.9, the column
    // ending at 201.2), and the Q's box crossed the column's edge. It now starts where the Q
    // and a line fit: below the quote (or, balanced into a shorter band, in the next column).
    @Test(arguments: ["magazine", "tabloid"]) func besideAColumnPullQuote(template name: String) throws {
        let base = try #require(Template.builtin(named: name))
        let t = try TemplateLoader.apply(name == "magazine" ? ["columns=3"] : [], to: base, file: "--set").get()
        #expect(expectInPlace(framesetter(besidePullQuotes, template: t), template: t, name) == 2)
    }

    // A pull quote across the gutters of five columns leaves the second a strip of 39.6 pt
    // beside it, less than the H's 40.4 pt: "Harbour" was set "a", "r-", "b" on lines of 0 pt.
    @Test func besideAPageWidePullQuote() throws {
        let t = try TemplateLoader.apply(["columns=5"], to: .default, file: "--set").get()
        let text = """
            <pullquote>“A pull quote across the gutters.”</pullquote>
            Filler.
            <columnbreak>
            <p dropcap="3">Harbour press hyphen orphan, margin hyphen and, of. Tracking binding and press margin press \
            ligature kerning chase binding printer compositor word a of fold of line the justify forme compositor set.</p>
            """
        #expect(expectInPlace(framesetter(text, template: t), template: t, "five columns") == 1)
    }
}
