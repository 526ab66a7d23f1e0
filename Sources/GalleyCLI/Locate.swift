import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleySupport

/// `galley locate`: between a point of a page and a position of the source.
extension Run {
    /// Why source position `line`:`column` of `source` has no place on a page.
    static func unset(line: Int, column: Int, in source: SourceFile) -> String {
        let name = "'\(source.path)'"
        // A terminator at the very end starts no line a reader counts.
        let lines = source.text.hasSuffix("\n") ? source.lineCount - 1 : source.lineCount
        guard line <= lines else { return "\(line):\(column) is past the end of \(name), which has \(count(lines, "line"))" }
        let columns = source.lineText(line).unicodeScalars.count
        guard column <= columns + 1 else {
            return "\(line):\(column) is past the end of line \(line) of \(name), which has \(count(columns, "column"))"
        }
        return "\(line):\(column) of \(name) sets nothing on a page (a tag, a comment, a blank line, or text not shown)"
    }

    mutating func locate() throws -> Int32 {
        let o = try LocateOptions(arguments)
        if IssueLoader.isManifest(o.document.input) { return try locateInIssue(o) }
        guard let doc = try load(o.document) else { return failed() }
        var pages: [Page] = []
        doc.framesetter.layOut { page in
            pages.append(page)
            // A point needs its page only; a source position may be on any.
            return o.point == nil || page.number < o.page
        }
        let answer: Located
        if let point = o.point {
            guard o.page <= pages.count else {
                diagnostics.append(.error("page \(o.page) does not exist: the document has \(count(pages.count, "page"))"))
                return failed()
            }
            let page = pages[o.page - 1]
            guard point.x >= 0, point.y >= 0, point.x <= page.width, point.y <= page.height else {
                diagnostics.append(
                    .error(
                        "the point \(format(point.x)),\(format(point.y)) is outside page \(o.page), "
                            + "which is \(format(page.width))×\(format(page.height)) pt"))
                return failed()
            }
            let textBottom = page.height - doc.template.margins.bottom
            answer = Located(hit: Locator.hit(page, x: point.x, y: point.y, textBottom: textBottom), page: page, doc: doc, at: point)
        } else {
            let (line, column) = o.source!
            guard let found = located(line: line, column: column, of: doc, on: pages) else { return failed() }
            answer = found
        }
        io.writeOutput(Data((o.json ? answer.json() : answer.text()).utf8))
        report()
        return 0
    }

    /// Where source position `line`:`column` of `doc` is set on `pages`; nil, with the error
    /// said, when nowhere.
    private mutating func located(line: Int, column: Int, of doc: Document, on pages: [Page]) -> Located? {
        // A column past the end of its line is a mistake, not the next line's start.
        if line <= doc.source.lineCount, column > doc.source.lineText(line).unicodeScalars.count + 1 {
            diagnostics.append(.error(Self.unset(line: line, column: column, in: doc.source)))
            return nil
        }
        // Text of a pull quote or sidebar is set in the block, from a story of its own.
        if let (page, placed, byte, shown) = Locator.blockPlace(line: line, column: column, in: pages), let set = placed.block {
            guard let shown else {
                // An image of the block (its own block image) is no line.
                if let inner = set.page, let (_, image) = Locator.image(ofByte: byte, in: [inner]) {
                    return Located(image: image, in: set, origin: set.textOrigin(in: placed.rect), page: pages[page])
                }
                let what = set.block.kind == .pullquote ? "pull quote" : "sidebar"
                diagnostics.append(
                    .error("\(line):\(column) of '\(doc.source.path)' is in the part of a \(what) cut for want of room; it is not set"))
                return nil
            }
            return Located(byte: byte, line: shown, block: set, origin: set.textOrigin(in: placed.rect), page: pages[page])
        }
        // Anywhere in an <img> tag is the image, which stands where its tag begins.
        let column = line <= doc.source.lineCount ? Self.imageTagStart(column, in: doc.source.lineText(line)) ?? column : column
        let byte = doc.story.sourceMap.storyByte(line: line, column: column, in: doc.story.text)
        let text = doc.story.text.utf8
        // Just past a line's last character (where an editor's cursor stands at its end): that
        // character, rather than the break after it (which a line ending in a character of
        // several bytes counts as its own), from its first byte.
        // So is a place in a tag that ends its line (a closing `</font>`), which maps to that
        // break.
        if let byte, let (page, frame, cap) = Locator.dropCap(ofByte: byte, in: pages) {
            return Located(dropCap: cap, byte: byte, page: pages[page], frame: frame, doc: doc)
        }
        let pastEnd = line <= doc.source.lineCount && column == doc.source.lineText(line).unicodeScalars.count + 1
        let atBreak = byte.map { $0 >= text.count || Locator.place(ofByte: $0, in: pages) == nil } ?? false
        if pastEnd || atBreak, let b = byte, b > 0, b <= text.count {
            var last = b - 1
            while last > 0 && text[text.index(text.startIndex, offsetBy: last)] & 0xC0 == 0x80 { last -= 1 }
            if doc.story.sourceMap.sourceLocation(ofByte: last, in: doc.story.text)?.line == line,
                let place = Locator.place(ofByte: last, in: pages)
            {
                return Located(byte: last, place: place, pages: pages, doc: doc)
            }
        }
        if let byte, let place = Locator.place(ofByte: byte, in: pages) {
            return Located(byte: byte, place: place, pages: pages, doc: doc)
        }
        // An <img> set apart from the lines.
        if let byte, let (page, image) = Locator.image(ofByte: byte, in: pages) {
            return Located(image: image, page: pages[page], doc: doc)
        }
        diagnostics.append(.error(Self.unset(line: line, column: column, in: doc.source)))
        return nil
    }
}

extension Run {
    /// The column an `<img …>` tag of `text` holding `column` begins at (columns count Unicode
    /// scalars from 1); nil when `column` is in no such tag.
    static func imageTagStart(_ column: Int, in text: some StringProtocol) -> Int? {
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i + 4 <= scalars.count {
            defer { i += 1 }
            guard scalars[i] == "<", String(String.UnicodeScalarView(scalars[(i + 1)..<(i + 4)])).lowercased() == "img" else { continue }
            let end = scalars[i...].firstIndex(of: ">") ?? scalars.count - 1
            // (Just past a tag that ends its line, where an editor's cursor stands, counts.)
            let last = end == scalars.count - 1 ? end + 2 : end + 1
            if column >= i + 1 && column <= last { return i + 1 }
            i = end
        }
        return nil
    }

    /// `locate` on an issue: a point of a page of the issue gives the article's file and the
    /// `line:col` in it. A source position belongs to an article's file, so `--source` is
    /// asked of that file.
    mutating func locateInIssue(_ o: LocateOptions) throws -> Int32 {
        guard let point = o.point else {
            throw UsageError(message: "on an issue, locate takes a point (--page N --at X,Y); --source works on an article's own file")
        }
        guard let (issue, plan) = try loadIssue(o.document) else { return failed() }
        guard o.page <= plan.pages.count else {
            diagnostics.append(.error("page \(o.page) does not exist: the issue has \(count(plan.pages.count, "page"))"))
            return failed()
        }
        let entry = plan.pages[o.page - 1]
        // The articles set on the page (two when one starts under another's end), with what
        // each has under the point: the one with something there answers.
        let hits = entry.placements.compactMap { p, page in
            plan.parts[p].article.map { article in
                let textBottom = page.height - issue.articles[article].template.margins.bottom
                return (part: p, page: page, article: article, hit: Locator.hit(page, x: point.x, y: point.y, textBottom: textBottom))
            }
        }
        func rank(_ h: Locator.Hit) -> Int {
            switch h {
            case .character, .image, .blockCharacter, .dropCap: 0
            case .column: 1
            case .margin: 2
            }
        }
        guard let (part, page, k, hit) = hits.min(by: { rank($0.hit) < rank($1.hit) }) else {
            // A page of no article (the cover, the contents, an insert): what it is.
            let said =
                o.json
                ? prettyJSON(Located.Unset(page: o.page, folio: entry.label, kind: entry.kind.rawValue))
                : "page \(o.page) (folio \(entry.label ?? "none")): \(entry.kind.rawValue)\n"
            io.writeOutput(Data(said.utf8))
            report()
            return 0
        }
        var doc = issue.articles[k]
        doc.framesetter = plan.parts[part].framesetter
        var answer = Located(hit: hit, page: page, doc: doc, at: point)
        answer.page = o.page
        answer.article = issue.articles[k].source.path
        io.writeOutput(Data((o.json ? answer.json() : "\(answer.article!): " + answer.text()).utf8))
        report()
        return 0
    }
}

/// One answer of `locate`, as text or JSON.
struct Located: Encodable {
    struct Box: Encodable {
        var x, y, width, height: Double
    }

    /// An issue's page of no article: its number, folio and kind (`cover`, `contents`, …).
    struct Unset: Encodable {
        var page: Int
        var folio: String?
        var kind: String
    }

    /// What the point is on: `character`, `dropcap`, `image`, `column` (between lines) or `margin`.
    var kind: String
    var page: Int
    var column: Int?
    /// The character: its offset in the story (Unicode scalars), its source position, the word
    /// around it, and the line's box and text.
    var offset: Int?
    var source: String?
    var word: String?
    var x: Double?
    var line: Box?
    var lineText: String?
    /// In an issue, the article the page belongs to: its file, as diagnostics name it.
    var article: String?
    /// The pull quote or sidebar (`pullquote`, `sidebar`) whose text the character is in: its
    /// offset and source are those of the block's text.
    var block: String?
    /// An image's source and box.
    var image: String?
    var imageBox: Box?

    init(hit: Locator.Hit, page: Page, doc: Document, at point: (x: Double, y: Double)) {
        self.page = page.number
        kind = "margin"
        switch hit {
        case .character(let byte, let line, let frame):
            kind = "character"
            column = page.frames[frame].column + 1
            describe(byte: byte, line: line, story: doc.story)
        case .image(let i, let rect):
            kind = "image"
            image = doc.story.images[i].source
            imageBox = Self.box(rect)
        case .blockCharacter(let byte, let line, let set, let origin):
            self = Located(byte: byte, line: line, block: set, origin: origin, page: page)
        case .dropCap(let byte, let cap, let frame):
            self = Located(dropCap: cap, byte: byte, page: page, frame: frame, doc: doc)
        case .column(let frame, let nearest):
            kind = "column"
            column = page.frames[frame].column + 1
            if let byte = nearest, let line = page.frames[frame].lines.first(where: { $0.storyRange.contains(byte) }) {
                describe(byte: byte, line: line, story: doc.story)
            }
        case .margin:
            break
        }
    }

    init(byte: Int, place: (page: Int, frame: Int, line: PlacedLine), pages: [Page], doc: Document) {
        let page = pages[place.page]
        self.page = page.number
        kind = "character"
        column = page.frames[place.frame].column + 1
        describe(byte: byte, line: place.line, story: doc.story)
    }

    /// A character of a pull quote or sidebar: its line and x moved from the block's space to
    /// the page's.
    init(byte: Int, line: PlacedLine, block set: SetTextBlock, origin: Point, page: Page) {
        self.page = page.number
        kind = "character"
        block = set.block.kind.rawValue
        describe(byte: byte, line: line, story: set.framesetter.story)
        x = x.map { Self.round($0 + origin.x) }
        self.line = Self.box(Rect(x: line.box.x + origin.x, y: line.box.y + origin.y, width: line.box.width, height: line.box.height))
    }

    /// An image of a pull quote's or sidebar's own text, its box moved to the page's space.
    init(image placed: PlacedImage, in set: SetTextBlock, origin: Point, page: Page) {
        let story = set.framesetter.story
        self.page = page.number
        kind = "image"
        block = set.block.kind.rawValue
        offset = story.characterOffset(ofByte: placed.storyOffset)
        source = story.sourceMap.sourceLocation(ofByte: placed.storyOffset, in: story.text).map { "\($0.line):\($0.column)" }
        image = story.images.indices.contains(placed.image) ? story.images[placed.image].source : nil
        let r = placed.rect
        imageBox = Self.box(Rect(x: r.x + origin.x, y: r.y + origin.y, width: r.width, height: r.height))
    }

    /// A drop cap: the character it is, the word it begins, and its box.
    init(dropCap cap: PlacedDropCap, byte: Int, page: Page, frame: Int, doc: Document) {
        self.page = page.number
        kind = "dropcap"
        column = page.frames[frame].column + 1
        let first = cap.storyRange.lowerBound
        offset = doc.story.characterOffset(ofByte: first)
        source = doc.story.sourceMap.sourceLocation(ofByte: first, in: doc.story.text).map { "\($0.line):\($0.column)" }
        word = Self.word(around: cap.storyRange.upperBound - 1, in: doc.story.text)
        lineText = String(doc.story.text.utf8Slice(first, cap.storyRange.upperBound))
        self.line = Self.box(cap.rect)
    }

    init(image placed: PlacedImage, page: Page, doc: Document) {
        self.page = page.number
        kind = "image"
        offset = doc.story.characterOffset(ofByte: placed.storyOffset)
        source = doc.story.sourceMap.sourceLocation(ofByte: placed.storyOffset, in: doc.story.text).map { "\($0.line):\($0.column)" }
        image = doc.story.images[placed.image].source
        imageBox = Self.box(placed.rect)
    }

    mutating func describe(byte: Int, line: PlacedLine, story: Story) {
        offset = story.characterOffset(ofByte: byte)
        source = story.sourceMap.sourceLocation(ofByte: byte, in: story.text).map { "\($0.line):\($0.column)" }
        word = Self.word(around: byte, in: story.text)
        x = Locator.x(ofByte: byte, in: line).map(Self.round)
        self.line = Self.box(line.box)
        lineText = String(story.text.utf8Slice(line.storyRange.lowerBound, line.storyRange.upperBound)).trimmed(newlines: true)
    }

    /// The run of letters and digits holding `byte`, or at a space or a mark the one it ends
    /// (empty after another space or mark). In text without spaces between words (Chinese,
    /// Japanese) it is the clause: the run between marks.
    static func word(around byte: Int, in text: String) -> String {
        // An apostrophe, typed or typographic (’), stays in its word.
        func joins(_ c: Character) -> Bool {
            !(c.isWhitespace || (c.isPunctuation && c != "'" && c != "\u{2019}") || c.isSymbol || c == "\u{FFFC}")
        }
        var runStart: String.Index?
        var i = text.startIndex
        var offset = 0
        while i < text.endIndex {
            let c = text[i]
            offset += c.utf8.count
            if byte < offset {
                // At a space or a mark, the word it ends (where an editor's cursor stands).
                guard joins(c) else { return runStart.map { String(text[$0..<i]) } ?? "" }
                var end = text.index(after: i)
                while end < text.endIndex, joins(text[end]) { end = text.index(after: end) }
                return String(text[(runStart ?? i)..<end])
            }
            runStart = joins(c) ? runStart ?? i : nil
            i = text.index(after: i)
        }
        return ""
    }

    static func round(_ v: Double) -> Double { (v * 10).rounded() / 10 }
    static func box(_ r: Rect) -> Box { Box(x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height)) }

    func json() -> String { prettyJSON(self) }

    func text() -> String {
        var s = "page \(page)"
        if let column { s += ", column \(column)" }
        switch kind {
        case "image":
            s += block.map { $0 == "pullquote" ? ", in a pull quote" : ", in a sidebar" } ?? ""
            // A point in a block's box but on none of its lines (its padding): the block.
            switch image {
            case "<pullquote>": s += ": a pull quote"
            case "<aside>": s += ": a sidebar"
            default: s += ": image \(image ?? "")"
            }
            if let imageBox {
                s += ", box \(format(imageBox.x)),\(format(imageBox.y)) \(format(imageBox.width))×\(format(imageBox.height))"
            }
            if let source { s += " (source \(source))" }
        case "margin": s += ": the margin"
        case "dropcap":
            s += ": drop cap '\(lineText ?? "")'"
            if let offset, let source { s += ", character \(offset) (source \(source))" }
            if let word, !word.isEmpty { s += ", word '\(word)'" }
            if let line { s += ", box \(format(line.x)),\(format(line.y)) \(format(line.width))×\(format(line.height))" }
        default:
            if kind == "column" { s += ": between lines; nearest" }
            if let block { s += block == "pullquote" ? ", in a pull quote" : ", in a sidebar" }
            if let offset, let source { s += ": character \(offset) (source \(source))" }
            if let word, !word.isEmpty { s += ", word '\(word)'" }
            if let x { s += ", at x \(format(x))" }
            if let line { s += ", line \(format(line.x)),\(format(line.y)) \(format(line.width))×\(format(line.height))" }
            if let lineText { s += "\n  \(lineText)" }
        }
        return s + "\n"
    }
}
