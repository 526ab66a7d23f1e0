import CPango
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate

/// A story's laid-out pages as bytes, and back: what the layout cache keeps, so that a story
/// unchanged since the last build is drawn without being shaped or broken again. Everything a
/// page holds is written, shaped paragraphs included, so the pages read back draw, locate and
/// list their fonts exactly as the pages written did. Fonts are written by their description
/// (a `FontKey` is only this process's number); a pull quote or sidebar by its block and
/// width, set again on reading (it is small, and its framesetter holds an engine).
///
/// The bytes are only trusted when they came from this executable for the same input (the
/// caller's key and checksum say so); reading still checks every index against the story, so
/// damaged bytes are an error, never a crash.
package enum LayoutArchive {
    /// What an archive holds: pages, and the warnings their layout gave.
    package typealias Contents = (pages: [Page], warnings: [Diagnostic])
}

extension Framesetter {
    /// `pages`, laid out by this framesetter, and the warnings their layout gave, as bytes.
    package func archive(_ pages: [Page], warnings: [Diagnostic]) -> [UInt8] {
        var w = ArchiveWriter()
        w.out.int(warnings.count)
        for d in warnings { w.diagnostic(d) }
        w.out.int(pages.count)
        for page in pages { w.page(page) }
        // The paragraphs the pages named, then the fonts those named: the reader needs the
        // fonts first, the paragraphs next, so they go ahead of the pages.
        var paragraphs = ByteWriter()
        paragraphs.int(w.paragraphs.count)
        for p in w.paragraphs { w.encode(p, into: &paragraphs) }
        var out = ByteWriter()
        out.int(w.fonts.count)
        for key in w.fonts {
            out.string(FontRegistry.shared.description(of: key))
            out.bool(FontRegistry.shared.isColor(key))
        }
        out.append(raw: paragraphs.bytes)
        out.append(raw: w.out.bytes)
        return out.bytes
    }

    /// The pages and warnings `archive` wrote, for this framesetter's story.
    /// `bytes` from `offset` to their end (a cache entry's payload, read in place).
    package func unarchive(_ bytes: [UInt8], from offset: Int = 0) throws(ByteReader.Malformed) -> LayoutArchive.Contents {
        var r = ByteReader(bytes, from: offset)
        var reader = ArchiveReader(story: story, blocks: TextBlocks(story: story, template: template, file: file))
        try reader.tables(&r)
        var warnings: [Diagnostic] = []
        for _ in 0..<(try r.int(in: 0..<100_000)) { warnings.append(try reader.diagnostic(&r)) }
        var pages: [Page] = []
        for _ in 0..<(try r.int(in: 0..<1_000_000)) { pages.append(try reader.page(&r)) }
        guard r.isAtEnd else { throw ByteReader.Malformed() }
        return (pages, warnings)
    }
}

/// Writes pages, numbering fonts and shaped paragraphs as it meets them.
private struct ArchiveWriter {
    var out = ByteWriter()
    var fonts: [FontKey] = []
    private var fontIndex: [FontKey: Int] = [:]
    var paragraphs: [ParagraphLayout] = []
    private var paragraphIndex: [ObjectIdentifier: Int] = [:]

    mutating func font(_ key: FontKey) -> Int {
        if let i = fontIndex[key] { return i }
        fonts.append(key)
        fontIndex[key] = fonts.count - 1
        return fonts.count - 1
    }

    mutating func paragraph(_ p: ParagraphLayout) -> Int {
        if let i = paragraphIndex[ObjectIdentifier(p)] { return i }
        paragraphs.append(p)
        paragraphIndex[ObjectIdentifier(p)] = paragraphs.count - 1
        return paragraphs.count - 1
    }

    mutating func diagnostic(_ d: Diagnostic) {
        out.string(d.severity.rawValue)
        out.string(d.message)
        out.optionalString(d.file)
        out.bool(d.location != nil)
        if let l = d.location {
            out.int(l.line)
            out.int(l.column)
            out.int(l.offset)
        }
        out.int(d.length)
    }

    mutating func rect(_ r: Rect) {
        for v in [r.x, r.y, r.width, r.height] { out.double(v) }
    }

    mutating func point(_ p: Point) {
        out.double(p.x)
        out.double(p.y)
    }

    mutating func optionalRect(_ r: Rect?) {
        out.bool(r != nil)
        if let r { rect(r) }
    }

    mutating func page(_ p: Page) {
        out.int(p.number)
        out.int(p.folio)
        out.double(p.width)
        out.double(p.height)
        for line in [p.footer, p.header] {
            out.bool(line != nil)
            if let line {
                out.string(line.text)
                point(line.anchor)
                out.string(line.alignment.rawValue)
            }
        }
        out.int(p.frames.count)
        for f in p.frames { frame(f) }
        images(p.floats)
    }

    mutating func frame(_ f: Frame) {
        rect(f.rect)
        out.int(f.column)
        out.bool(f.spansColumns)
        out.range(f.visibleRange)
        out.int(f.lines.count)
        for l in f.lines {
            point(l.origin)
            rect(l.box)
            out.range(l.storyRange)
            out.double(l.contentWidth)
            out.bool(l.overfull)
            out.int(paragraph(l.paragraph))
            out.int(l.paragraphIndex)
            out.int(l.lineIndex)
            out.bool(l.vertical)
        }
        images(f.images)
        out.int(f.dropCaps.count)
        for c in f.dropCaps {
            point(c.origin)
            rect(c.rect)
            out.range(c.storyRange)
            out.int(c.lines)
            out.int(paragraph(c.paragraph))
            out.int(c.paragraphIndex)
        }
    }

    mutating func images(_ list: [PlacedImage]) {
        out.int(list.count)
        for i in list {
            out.int(i.image)
            rect(i.rect)
            out.int(i.storyOffset)
            out.bool(i.shrunk)
            out.optionalString(i.caption)
            optionalRect(i.captionRect)
            optionalRect(i.exclusion)
            out.bool(i.block != nil)
            if let b = i.block { out.double(b.framesetter.template.pageWidth) }
        }
    }
}

extension ArchiveWriter {
    /// A shaped paragraph and its lines (not the draw runs made ahead: they are made again).
    mutating func encode(_ p: ParagraphLayout, into o: inout ByteWriter) {
        let t = p.text
        o.int(t.index)
        o.int(t.storyStart)
        o.int(t.length)
        o.plain(t.bytes)
        o.plain(packed(t.glyphs))
        o.plain(t.clusters)
        o.int(t.runs.count)
        for run in t.runs {
            o.int(font(run.font))
            o.int(Int(run.style))
            o.byte(run.level)
            o.range(Int(run.glyphs.lowerBound)..<Int(run.glyphs.upperBound))
            o.range(Int(run.bytes.lowerBound)..<Int(run.bytes.upperBound))
        }
        o.plain(t.x)
        o.plain(t.flags.map(\.rawValue))
        let hyphens = t.hyphens.map { (font($0.key), $0.value) }.sorted { $0.0 < $1.0 }
        o.int(hyphens.count)
        for (f, glyph) in hyphens {
            o.int(f)
            o.plain(packed([glyph]))
        }
        o.bool(t.rightToLeft)
        o.int(t.attachments.count)
        for a in t.attachments {
            o.int(Int(a.byte))
            o.int(a.image)
            for v in [a.width, a.height, a.descent] { o.double(v) }
            o.bool(a.shrunk)
        }
        o.bool(t.dropCap != nil)
        if let d = t.dropCap { encode(d, into: &o) }
        o.bool(t.vertical)
        o.int(t.blanks.count)
        for b in t.blanks {
            o.int(Int(b.byte))
            for v in [b.left, b.right, b.hang] { o.double(v) }
        }
        o.plain(t.blankSums)
        o.int(t.autoSpaces.count)
        for a in t.autoSpaces {
            o.int(Int(a.byte))
            o.double(a.width)
        }
        o.int(p.lines.count)
        for line in p.lines { Self.encode(line, into: &o) }
        let g = p.glue
        for v in [g.spaceStretch, g.spaceShrink, g.wideStretch, g.wideShrink, g.letterStretch, g.letterShrink, g.expansion] {
            o.double(v)
        }
        o.plain(p.widths.first)
        o.double(p.widths.rest)
        o.plain(p.unhyphenated.sorted())
    }

    mutating func encode(_ d: DropCap, into o: inout ByteWriter) {
        o.int(d.lines)
        o.int(d.end)
        o.int(font(d.font))
        o.double(d.size)
        for v in [d.color.red, d.color.green, d.color.blue, d.color.alpha] { o.double(v) }
        o.plain(packed(d.glyphs))
        o.plain(d.clusters)
        for v in [d.advance, d.indent, d.capTop, d.drop, d.ink.x, d.ink.y, d.ink.width, d.ink.height] { o.double(v) }
        o.int(d.beside)
        o.double(d.reach)
    }

    static func encode(_ l: LineBreak, into o: inout ByteWriter) {
        for v in [l.start, l.contentEnd, l.end] { o.int(Int(v)) }
        o.bool(l.hyphen)
        for v in [l.naturalWidth, l.availableWidth, l.indent, l.alignOffset, l.ratio, l.setWidth, l.height, l.ascent] {
            o.double(v)
        }
        o.bool(l.overfull)
        o.bool(l.brokenInWord)
        o.double(l.squeeze)
        o.double(l.letterRatio)
        o.int(l.expansion + 64)
    }
}

/// Reads what `ArchiveWriter` wrote, checking every index against the story.
private struct ArchiveReader {
    let story: Story
    let blocks: TextBlocks
    var fonts: [FontKey] = []
    var paragraphs: [ParagraphLayout] = []
    typealias Reader = ByteReader

    init(story: Story, blocks: TextBlocks) {
        self.story = story
        self.blocks = blocks
    }

    var storyLength: Int { story.text.utf8.count }

    mutating func tables(_ r: inout Reader) throws(ByteReader.Malformed) {
        for _ in 0..<(try r.int(in: 0..<100_000)) {
            let name = try r.string()
            fonts.append(FontRegistry.shared.key(for: name, isColor: try r.bool()))
        }
        for _ in 0..<(try r.int(in: 0..<10_000_000)) { paragraphs.append(try paragraph(&r)) }
    }

    func font(_ r: inout Reader) throws(ByteReader.Malformed) -> FontKey { fonts[try r.int(in: 0..<fonts.count)] }

    func diagnostic(_ r: inout Reader) throws(ByteReader.Malformed) -> Diagnostic {
        guard let severity = Severity(rawValue: try r.string()) else { throw ByteReader.Malformed() }
        let message = try r.string()
        let file = try r.optionalString()
        var location: SourceLocation?
        if try r.bool() { location = SourceLocation(line: try r.int(), column: try r.int(), offset: try r.int()) }
        return Diagnostic(severity, message, file: file, at: location, length: try r.int(in: 1..<Int.max))
    }

    func rect(_ r: inout Reader) throws(ByteReader.Malformed) -> Rect {
        Rect(x: try r.double(), y: try r.double(), width: try r.double(), height: try r.double())
    }

    func point(_ r: inout Reader) throws(ByteReader.Malformed) -> Point { Point(x: try r.double(), y: try r.double()) }

    func optionalRect(_ r: inout Reader) throws(ByteReader.Malformed) -> Rect? { try r.bool() ? try rect(&r) : nil }

    func page(_ r: inout Reader) throws(ByteReader.Malformed) -> Page {
        let number = try r.int(in: 1..<Int.max)
        let folio = try r.int()
        var page = Page(number: number, width: try r.double(), height: try r.double(), frames: [])
        page.folio = folio
        var running: [RunningLine?] = []
        for _ in 0..<2 {
            guard try r.bool() else {
                running.append(nil)
                continue
            }
            let text = try r.string()
            let anchor = try point(&r)
            guard let alignment = Alignment(rawValue: try r.string()) else { throw ByteReader.Malformed() }
            running.append(RunningLine(text: text, anchor: anchor, alignment: alignment))
        }
        (page.footer, page.header) = (running[0], running[1])
        for _ in 0..<(try r.int(in: 0..<10_000)) { page.frames.append(try frame(&r)) }
        page.floats = try images(&r)
        return page
    }

    func frame(_ r: inout Reader) throws(ByteReader.Malformed) -> Frame {
        let rect = try self.rect(&r)
        let column = try r.int(in: 0..<10_000)
        let spans = try r.bool()
        var f = Frame(rect: rect, column: column, spansColumns: spans, visibleRange: try r.range(within: storyLength))
        for _ in 0..<(try r.int(in: 0..<1_000_000)) {
            let origin = try point(&r)
            let box = try self.rect(&r)
            let range = try r.range(within: storyLength)
            let width = try r.double()
            let overfull = try r.bool()
            let layout = paragraphs[try r.int(in: 0..<paragraphs.count)]
            let index = try r.int(in: 0..<story.paragraphs.count)
            let line = try r.int(in: 0..<layout.lines.count)
            f.lines.append(
                PlacedLine(
                    origin: origin, box: box, storyRange: range, contentWidth: width, overfull: overfull, paragraphIndex: index,
                    lineIndex: line, paragraph: layout, vertical: try r.bool()))
        }
        f.images = try images(&r)
        for _ in 0..<(try r.int(in: 0..<100_000)) {
            let origin = try point(&r)
            let rect = try self.rect(&r)
            let range = try r.range(within: storyLength)
            let lines = try r.int(in: 1..<1_000)
            let layout = paragraphs[try r.int(in: 0..<paragraphs.count)]
            f.dropCaps.append(
                PlacedDropCap(
                    origin: origin, rect: rect, storyRange: range, lines: lines,
                    paragraphIndex: try r.int(in: 0..<story.paragraphs.count), paragraph: layout))
        }
        return f
    }

    func images(_ r: inout Reader) throws(ByteReader.Malformed) -> [PlacedImage] {
        var list: [PlacedImage] = []
        for _ in 0..<(try r.int(in: 0..<100_000)) {
            let index = try r.int(in: 0..<story.images.count)
            let rect = try self.rect(&r)
            var i = PlacedImage(image: index, rect: rect, storyOffset: try r.int(in: 0..<storyLength + 1), shrunk: try r.bool())
            i.caption = try r.optionalString()
            i.captionRect = try optionalRect(&r)
            i.exclusion = try optionalRect(&r)
            if try r.bool() {
                let width = try r.double()
                guard let block = story.images[index].block, story.blocks.indices.contains(block) else {
                    throw ByteReader.Malformed()
                }
                i.block = blocks.set(block, width: width)
            }
            list.append(i)
        }
        return list
    }
}

extension ArchiveReader {
    func paragraph(_ r: inout Reader) throws(ByteReader.Malformed) -> ParagraphLayout {
        let index = try r.int(in: 0..<story.paragraphs.count)
        let start = try r.int(in: 0..<storyLength + 1)
        let length = try r.int(in: 0..<storyLength - start + 1)
        let bytes = try r.plain(UInt8.self)
        let glyphs = try unpacked(try r.plain(Int32.self))
        let clusters = try r.plain(Int32.self)
        guard clusters.count == glyphs.count else { throw ByteReader.Malformed() }
        var runs: [GlyphRun] = []
        for _ in 0..<(try r.int(in: 0..<glyphs.count + 1)) {
            let font = try self.font(&r)
            let style = try r.int(in: 0..<story.styles.count)
            let level = try r.byte()
            let g = try r.range(within: glyphs.count)
            let b = try r.range(within: bytes.count)
            runs.append(
                GlyphRun(
                    font: font, style: Int32(style), level: level, glyphs: Int32(g.lowerBound)..<Int32(g.upperBound),
                    bytes: Int32(b.lowerBound)..<Int32(b.upperBound)))
        }
        let x = try r.plain(Double.self)
        let flags = try r.plain(UInt16.self).map(ByteFlags.init(rawValue:))
        // Bytes are looked up by cluster in `flags` and `x`, which reach one past the last.
        guard flags.count >= bytes.count, x.count >= bytes.count, clusters.allSatisfy({ $0 >= 0 && Int($0) < flags.count })
        else { throw ByteReader.Malformed() }
        var text = ShapedText(
            index: index, storyStart: start, length: length, bytes: bytes, glyphs: glyphs, clusters: clusters, runs: runs, x: x,
            flags: flags, hyphens: [:])
        for _ in 0..<(try r.int(in: 0..<fonts.count + 1)) {
            let font = try self.font(&r)
            guard let glyph = try unpacked(try r.plain(Int32.self)).first else { throw ByteReader.Malformed() }
            text.hyphens[font] = glyph
        }
        text.rightToLeft = try r.bool()
        for _ in 0..<(try r.int(in: 0..<bytes.count + 1)) {
            let byte = try r.int(in: 0..<bytes.count)
            let image = try r.int(in: 0..<story.images.count)
            text.attachments.append(
                Attachment(
                    byte: Int32(byte), image: image, width: try r.double(), height: try r.double(), descent: try r.double(),
                    shrunk: try r.bool()))
        }
        if try r.bool() { text.dropCap = try dropCap(&r, bytes: bytes.count) }
        text.vertical = try r.bool()
        for _ in 0..<(try r.int(in: 0..<bytes.count + 1)) {
            let byte = try r.int(in: 0..<bytes.count)
            text.blanks.append(PunctuationBlank(byte: Int32(byte), left: try r.double(), right: try r.double(), hang: try r.double()))
        }
        text.blankSums = try r.plain(Double.self)
        for _ in 0..<(try r.int(in: 0..<bytes.count + 1)) {
            text.autoSpaces.append((Int32(try r.int(in: 0..<bytes.count + 1)), try r.double()))
        }
        // Lines reach `length`, where the sums end.
        let ends = text.blankSums.isEmpty ? flags.count : min(flags.count, text.blankSums.count - 1)
        guard length <= ends else { throw ByteReader.Malformed() }
        var lines: [LineBreak] = []
        for _ in 0..<(try r.int(in: 0..<bytes.count + 2)) { lines.append(try line(&r, bytes: ends)) }
        var glue = GlueModel()
        glue.spaceStretch = try r.double()
        glue.spaceShrink = try r.double()
        glue.wideStretch = try r.double()
        glue.wideShrink = try r.double()
        glue.letterStretch = try r.double()
        glue.letterShrink = try r.double()
        glue.expansion = try r.double()
        let widths = LineWidths(first: try r.plain(Double.self), rest: try r.double())
        let unhyphenated = Set(try r.plain(Int.self))
        return ParagraphLayout(text: text, lines: lines, glue: glue, widths: widths, unhyphenated: unhyphenated)
    }

    func dropCap(_ r: inout Reader, bytes: Int) throws(ByteReader.Malformed) -> DropCap {
        let lines = try r.int(in: 1..<1_000)
        let end = try r.int(in: 0..<bytes + 1)
        let font = try self.font(&r)
        let size = try r.double()
        let color = RGBA(try r.double(), try r.double(), try r.double(), try r.double())
        let glyphs = try unpacked(try r.plain(Int32.self))
        let clusters = try r.plain(Int32.self)
        guard clusters.count == glyphs.count else { throw ByteReader.Malformed() }
        return DropCap(
            lines: lines, end: end, font: font, size: size, color: color, glyphs: glyphs, clusters: clusters, advance: try r.double(),
            indent: try r.double(), capTop: try r.double(), drop: try r.double(), ink: try rect(&r),
            beside: try r.int(in: lines..<2 * lines + 1), reach: try r.double())
    }

    func line(_ r: inout Reader, bytes: Int) throws(ByteReader.Malformed) -> LineBreak {
        let start = try r.int(in: 0..<bytes + 1)
        let contentEnd = try r.int(in: start..<bytes + 1)
        let end = try r.int(in: start..<bytes + 1)
        let hyphen = try r.bool()
        var l = LineBreak(
            start: Int32(start), contentEnd: Int32(contentEnd), end: Int32(end), hyphen: hyphen, naturalWidth: try r.double(),
            availableWidth: try r.double(), indent: try r.double(), alignOffset: try r.double(), ratio: try r.double(),
            setWidth: try r.double(), height: try r.double(), ascent: try r.double(), overfull: try r.bool())
        l.brokenInWord = try r.bool()
        l.squeeze = try r.double()
        l.letterRatio = try r.double()
        l.expansion = try r.int(in: 0..<129) - 64
        return l
    }
}

/// Glyphs as five numbers each (Swift sees the C bit fields of their attributes only as
/// properties): glyph, width, x and y offset, and the attribute bits.
private func packed(_ glyphs: [PangoGlyphInfo]) -> [Int32] {
    [Int32](unsafeUninitializedCapacity: glyphs.count * 5) { out, count in
        for (k, g) in glyphs.enumerated() {
            let i = k * 5
            out[i] = Int32(bitPattern: g.glyph)
            out[i + 1] = g.geometry.width
            out[i + 2] = g.geometry.x_offset
            out[i + 3] = g.geometry.y_offset
            out[i + 4] = Int32(g.attr.is_cluster_start) | Int32(g.attr.is_color) << 1
        }
        count = glyphs.count * 5
    }
}

/// The glyphs `packed` wrote: five numbers each, read in one pass (a cached rebuild of the
/// bench's issue reads half a million).
private func unpacked(_ numbers: [Int32]) throws(ByteReader.Malformed) -> [PangoGlyphInfo] {
    guard numbers.count % 5 == 0 else { throw ByteReader.Malformed() }
    let n = numbers.count / 5
    return numbers.withUnsafeBufferPointer { p in
        [PangoGlyphInfo](unsafeUninitializedCapacity: n) { out, count in
            for k in 0..<n {
                let i = k * 5
                let attr = PangoGlyphVisAttr(is_cluster_start: UInt32(p[i + 4] & 1), is_color: UInt32(p[i + 4] >> 1 & 1))
                out[k] = PangoGlyphInfo(
                    glyph: UInt32(bitPattern: p[i]), geometry: PangoGlyphGeometry(width: p[i + 1], x_offset: p[i + 2], y_offset: p[i + 3]),
                    attr: attr)
            }
            count = n
        }
    }
}
