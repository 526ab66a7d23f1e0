import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate
import Glibc

/// What `galley inspect` reports: per page and column, the visible range as character offsets,
/// the source line:col where it starts, line and image counts, and text that did not fit.
struct InspectReport {
    struct Column: Encodable {
        var column: Int
        /// True for an element set across every column (`span="all"`); left out otherwise.
        var spans: Bool?
        var x, y, width, height: Double
        var start: Int
        var end: Int
        var source: String?
        var lines: Int
        var images: [Image]
        /// The drop caps of the paragraphs starting in the column; left out when none does.
        var dropCaps: [DropCap]?
    }
    struct DropCap: Encodable {
        /// The initial's characters (an opening quotation mark and a letter).
        var text: String
        var lines: Int
        var source: String?
        /// The initial's box, from the first line's capitals down to its baseline.
        var x, y, width, height: Double
    }
    struct Image: Encodable {
        var src: String
        /// image, pullquote or sidebar.
        var kind: String
        /// block, inline, float-left, float-right, float-center, span, top or bottom.
        var placement: String
        var x, y, width, height: Double
        var shrunk: Bool
        var caption: String?
        /// The area text keeps out of (image, caption and margin), for floats.
        var exclusion: Box?
    }
    struct Box: Encodable {
        var x, y, width, height: Double
    }
    struct PageInfo: Encodable {
        var number: Int
        var width, height: Double
        var start: Int
        var end: Int
        var columns: [Column]
        /// Images across the columns (top, bottom, spanning the gutters).
        var images: [Image]
    }
    struct Overflow: Encodable {
        var page: Int
        var column: Int
        var source: String?
        var excess: Double
        var text: String
    }
    struct Message: Encodable {
        var severity: String
        var message: String
        var file: String?
        var line: Int?
        var column: Int?

        init(severity: String, message: String, file: String?, line: Int?, column: Int?) {
            (self.severity, self.message, self.file, self.line, self.column) = (severity, message, file, line, column)
        }

        init(_ d: Diagnostic) {
            self.init(
                severity: d.severity.rawValue, message: d.message, file: d.file, line: d.location?.line, column: d.location?.column)
        }
    }
    struct Output: Encodable {
        var file: String
        var template: String
        var characters: Int
        var paragraphs: Int
        var pages: [PageInfo]
        var overflow: [Overflow]
        var diagnostics: [Message]
        var statistics: Statistics?
    }
    struct Statistics: Encodable {
        var counts: LayoutStatistics
        var loose, veryLoose, tight, widestP95, hyphenated: Double
    }

    let document: Document
    var pages: [PageInfo] = []
    var statistics = LayoutStatistics()
    var includeStatistics = false
    var pageDumps: [String] = []
    var overflow: [Overflow] = []
    var diagnostics: [Diagnostic] = []

    init(document: Document) { self.document = document }

    var story: Story { document.story }

    func chars(_ byte: Int) -> Int { story.characterOffset(ofByte: byte) }

    mutating func add(_ page: Page) {
        var columns: [Column] = []
        for frame in page.frames {
            let r = frame.visibleRange
            let source = r.isEmpty ? nil : story.sourceMap.sourceLocation(ofByte: r.lowerBound, in: story.text).map { "\($0)" }
            columns.append(
                Column(
                    column: frame.column + 1, spans: frame.spansColumns ? true : nil, x: round1(frame.rect.x), y: round1(frame.rect.y),
                    width: round1(frame.rect.width), height: round1(frame.rect.height),
                    start: chars(r.lowerBound), end: chars(r.upperBound), source: source, lines: frame.lines.count,
                    images: frame.images.map(image), dropCaps: frame.dropCaps.isEmpty ? nil : frame.dropCaps.map(dropCap)))
            for l in frame.lines where l.overfull || l.box.maxY > frame.rect.maxY + 0.01 {
                let text = story.text.utf8Slice(l.storyRange.lowerBound, l.storyRange.upperBound)
                overflow.append(
                    Overflow(
                        page: page.number, column: frame.column + 1,
                        source: story.sourceMap.sourceLocation(ofByte: l.storyRange.lowerBound, in: story.text).map { "\($0)" },
                        // A vertical line's length runs down its box.
                        excess: round1(max(l.contentWidth - (l.vertical ? l.box.height : l.box.width), l.box.maxY - frame.rect.maxY)),
                        text: String(text.trimmed(newlines: true))))
            }
        }
        let r = page.visibleRange
        pages.append(
            PageInfo(
                number: page.number, width: round1(page.width), height: round1(page.height),
                start: chars(r.lowerBound), end: chars(r.upperBound), columns: columns, images: page.floats.map(image)))
    }

    func image(_ p: PlacedImage) -> Image {
        let source = story.images[p.image]
        let placement: String
        switch source.placement {
        case .block: placement = "block"
        case .inline: placement = "inline"
        case .float(let side): placement = "float-\(side.rawValue)"
        case .span: placement = "span"
        case .top: placement = "top"
        case .bottom: placement = "bottom"
        }
        return Image(
            src: source.source, kind: source.block.map { story.blocks[$0].kind.rawValue } ?? "image", placement: placement,
            x: round1(p.rect.x), y: round1(p.rect.y), width: round1(p.rect.width),
            height: round1(p.rect.height), shrunk: p.shrunk, caption: p.caption,
            exclusion: p.exclusion.map { Box(x: round1($0.x), y: round1($0.y), width: round1($0.width), height: round1($0.height)) })
    }

    func dropCap(_ c: PlacedDropCap) -> DropCap {
        DropCap(
            text: String(story.text.utf8Slice(c.storyRange.lowerBound, c.storyRange.upperBound)), lines: c.lines,
            source: story.sourceMap.sourceLocation(ofByte: c.storyRange.lowerBound, in: story.text).map { "\($0)" },
            x: round1(c.rect.x), y: round1(c.rect.y), width: round1(c.rect.width), height: round1(c.rect.height))
    }

    func round1(_ v: Double) -> Double { (v * 10).rounded() / 10 }

    func json() -> String {
        let out = Output(
            file: document.source.path, template: document.template.name,
            characters: story.text.unicodeScalars.count, paragraphs: story.paragraphs.count, pages: pages,
            overflow: overflow,
            diagnostics: diagnostics.map {
                Message(
                    severity: $0.severity.rawValue, message: $0.message, file: $0.file, line: $0.location?.line, column: $0.location?.column
                )
            },
            statistics: includeStatistics
                ? Statistics(
                    counts: statistics, loose: statistics.loose, veryLoose: statistics.veryLoose, tight: statistics.tight,
                    widestP95: statistics.widestP95, hyphenated: statistics.hyphenated) : nil)
        return prettyJSON(out)
    }

    func describe(_ i: Image) -> String {
        var s = "    \(i.kind == "image" ? "image \(i.src)" : i.kind) (\(i.placement)) at \(i.x),\(i.y) \(i.width)x\(i.height)"
        if i.shrunk { s += " (shrunk)" }
        if let e = i.exclusion { s += ", text keeps out of \(e.x),\(e.y) \(e.width)x\(e.height)" }
        return s + "\n"
    }

    func text() -> String {
        let characters = story.text.unicodeScalars.count
        var s =
            "\(document.source.path): \(count(pages.count, "page")), template \(document.template.name), "
            + "\(count(characters, "character")), \(count(story.paragraphs.count, "paragraph"))\n"
        for p in pages {
            s += "page \(p.number): characters \(p.start)..<\(p.end)\n"
            for c in p.columns {
                s += (c.spans == true ? "  across the columns" : "  column \(c.column)") + ": characters \(c.start)..<\(c.end)"
                if let src = c.source { s += " from \(src)" }
                s += ", " + count(c.lines, "line")
                if !c.images.isEmpty { s += ", " + count(c.images.count, "image") }
                s += "\n"
                for i in c.images { s += describe(i) }
            }
            if !p.images.isEmpty { s += "  on the page: " + count(p.images.count, "image") + "\n" }
            for i in p.images { s += describe(i) }
        }
        if !pageDumps.isEmpty { s += pageDumps.joined() }
        if includeStatistics { s += statistics.summary }
        if overflow.isEmpty {
            s += "everything fits\n"
        } else {
            s += "did not fit:\n"
            for o in overflow {
                s += "  page \(o.page) column \(o.column)\(o.source.map { " (\($0))" } ?? ""): \(o.excess) pt over: \(o.text.prefix(60))\n"
            }
        }
        return s
    }
}

/// "1 page", "2 pages".
func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

/// A value as the commands print JSON: indented, keys sorted, slashes as they are, one newline.
func prettyJSON<T: Encodable>(_ value: T) -> String {
    let e = JSONEncoder()
    e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? e.encode(value)) ?? Data(), as: UTF8.self) + "\n"
}
