import CPango
import GalleyStory

/// Hit-testing between the page and the story (TextKit's `characterIndex(for:)` and its
/// inverse): the character under a point of a laid-out page, and the place of a character.
/// Positions come from the lines' draw runs, so they are where the glyphs are drawn,
/// justification and letter spacing included.
package enum Locator {
    /// What a point of a page falls on.
    package enum Hit: Equatable {
        /// A character of a line: its story byte, the line, and the column's frame.
        case character(byte: Int, line: PlacedLine, frame: Int)
        /// An image (a float, a block, or a pull quote or sidebar): its index in the story.
        case image(Int, rect: Rect)
        /// A character of a pull quote's or sidebar's text: its byte in the block's own story,
        /// its line (in the block's space), and the block with where its text stands on the page.
        case blockCharacter(byte: Int, line: PlacedLine, block: SetTextBlock, origin: Point)
        /// A drop cap: its paragraph's first byte, the initial, and the column's frame.
        case dropCap(byte: Int, cap: PlacedDropCap, frame: Int)
        /// Inside a column's frame, but between lines (the nearest line's character is given).
        case column(frame: Int, nearest: Int?)
        /// Outside every frame and image: the margins.
        case margin

        package static func == (a: Hit, b: Hit) -> Bool {
            switch (a, b) {
            case (.character(let x, _, let f), .character(let y, _, let g)): x == y && f == g
            case (.image(let x, _), .image(let y, _)): x == y
            case (.blockCharacter(let x, _, let a, _), .blockCharacter(let y, _, let b, _)): x == y && a === b
            case (.dropCap(let x, _, let f), .dropCap(let y, _, let g)): x == y && f == g
            case (.column(let f, let n), .column(let g, let m)): f == g && n == m
            case (.margin, .margin): true
            default: false
            }
        }
    }

    /// What is under (`x`, `y`) on `page`, points from its top left. `textBottom`: the foot of
    /// the page's text area, down to which a point under a column (balanced short, or empty) is
    /// in that column, not the margin.
    package static func hit(_ page: Page, x: Double, y: Double, textBottom: Double? = nil) -> Hit {
        for image in page.floats + page.frames.flatMap(\.images) where contains(image.rect, x, y) {
            if let set = image.block, let inner = set.page {
                let origin = set.textOrigin(in: image.rect)
                if case .character(let byte, let line, _) = hit(inner, x: x - origin.x, y: y - origin.y) {
                    return .blockCharacter(byte: byte, line: line, block: set, origin: origin)
                }
            }
            return .image(image.image, rect: image.rect)
        }
        for (k, frame) in page.frames.enumerated() {
            for cap in frame.dropCaps where contains(cap.rect, x, y) {
                return .dropCap(byte: cap.storyRange.lowerBound, cap: cap, frame: k)
            }
        }
        for (k, frame) in page.frames.enumerated() {
            for line in frame.lines where !line.vertical && contains(line.box, x, y) {
                return .character(byte: byte(in: line, at: x), line: line, frame: k)
            }
        }
        for (k, frame) in page.frames.enumerated() where contains(frame.rect, x, y) {
            // Between lines: the line nearest the point, at its x.
            let nearest = frame.lines.filter { !$0.vertical }.min { abs($0.box.midY - y) < abs($1.box.midY - y) }
            return .column(frame: k, nearest: nearest.map { byte(in: $0, at: x) })
        }
        // Under a column's frame: the lowest frame above the point across its x, its last line.
        if let textBottom, y < textBottom {
            let above = page.frames.indices.filter { k in
                let r = page.frames[k].rect
                return !page.frames[k].spansColumns && x >= r.x && x < r.maxX && y >= r.maxY
            }
            if let k = above.max(by: { page.frames[$0].rect.maxY < page.frames[$1].rect.maxY }) {
                let last = page.frames[k].lines.filter { !$0.vertical }.max { $0.box.maxY < $1.box.maxY }
                return .column(frame: k, nearest: last.map { byte(in: $0, at: x) })
            }
        }
        return .margin
    }

    static func contains(_ r: Rect, _ x: Double, _ y: Double) -> Bool {
        x >= r.x && x < r.maxX && y >= r.y && y < r.maxY
    }

    /// The story byte of the glyph cluster under `x` on `line` (its first or last character
    /// when `x` lies before or after the text).
    package static func byte(in line: PlacedLine, at x: Double) -> Int {
        let glyphs = positions(line)
        guard let first = glyphs.first else { return line.storyRange.lowerBound }
        if x < first.x { return first.byte }
        for g in glyphs where x >= g.x && x < g.x + max(g.width, 0.01) { return g.byte }
        return glyphs.max { $0.x < $1.x }!.byte
    }

    /// The x where the character at story byte `byte` is drawn on `line`: its cluster's first
    /// glyph (nil when the line does not draw it).
    package static func x(ofByte byte: Int, in line: PlacedLine) -> Double? {
        let glyphs = positions(line)
        return glyphs.filter { $0.byte <= byte }.max { $0.byte < $1.byte }.map(\.x) ?? glyphs.first?.x
    }

    /// Each drawn glyph's left edge and advance on the page, and its cluster's story byte.
    static func positions(_ line: PlacedLine) -> [(x: Double, width: Double, byte: Int)] {
        let layout = line.paragraph
        let origin = line.origin.x + layout.lines[line.lineIndex].alignOffset
        var out: [(x: Double, width: Double, byte: Int)] = []
        for run in layout.drawRuns(line: line.lineIndex) {
            var x = origin + run.x
            for (g, cluster) in zip(run.glyphs, run.clusters) {
                let w = Double(g.geometry.width) / Double(PANGO_SCALE)
                out.append((x, w, layout.storyStart + Int(cluster)))
                x += w
            }
        }
        return out
    }

    /// The image set apart from the lines (a block, a float in a column, a page-wide figure)
    /// whose U+FFFC is at story byte `byte`, and the index of its page.
    package static func image(ofByte byte: Int, in pages: [Page]) -> (page: Int, image: PlacedImage)? {
        for (p, page) in pages.enumerated() {
            for image in page.floats + page.frames.flatMap(\.images) where image.storyOffset == byte { return (p, image) }
        }
        return nil
    }

    /// The drop cap holding story byte `byte`: its page (index in `pages`), frame and initial.
    package static func dropCap(ofByte byte: Int, in pages: [Page]) -> (page: Int, frame: Int, cap: PlacedDropCap)? {
        for (p, page) in pages.enumerated() {
            for (f, frame) in page.frames.enumerated() {
                if let cap = frame.dropCaps.first(where: { $0.storyRange.contains(byte) }) { return (p, f, cap) }
            }
        }
        return nil
    }

    /// Where source position `line`:`column` is set in a pull quote or sidebar of `pages`: the
    /// page's index, the block as placed, the byte of its own story and the line that sets it,
    /// nil when that line is in the part of the block cut for want of room. A position in the
    /// block's source (from its opening tag to its closing one) is the block's: in a tag, the
    /// character after it, the last one after the text; just past a line's end, that line's
    /// last character, as in running text.
    package static func blockPlace(
        line: Int, column: Int, in pages: [Page]
    ) -> (page: Int, placed: PlacedImage, byte: Int, line: PlacedLine?)? {
        for (p, page) in pages.enumerated() {
            for placed in page.floats + page.frames.flatMap(\.images) {
                guard let set = placed.block, let inner = set.page,
                    let byte = blockByte(line: line, column: column, in: set)
                else { continue }
                let origin = set.textOrigin(in: placed.rect)
                let shown = place(ofByte: byte, in: [inner]).map(\.line).flatMap { l in
                    l.box.maxY + origin.y <= placed.rect.maxY + 0.01 ? l : nil
                }
                return (p, placed, byte, shown)
            }
        }
        return nil
    }

    /// The byte of `set`'s own story that source position `line`:`column` stands for (see
    /// `blockPlace`); nil when the position is outside the block's source.
    static func blockByte(line: Int, column: Int, in set: SetTextBlock) -> Int? {
        let story = set.framesetter.story, text = story.text, map = story.sourceMap
        let utf8 = Array(text.utf8)
        guard var lastByte = utf8.indices.last else { return nil }
        while lastByte > 0 && utf8[lastByte] & 0xC0 == 0x80 { lastByte -= 1 }
        guard let last = map.sourceLocation(ofByte: lastByte, in: text) else { return nil }
        let closing = set.block.kind == .pullquote ? "</pullquote>".count : "</aside>".count
        let start = set.block.location
        guard (start.line, start.column) <= (line, column), (line, column) <= (last.line, last.column + 1 + closing) else { return nil }
        var byte = map.storyByte(line: line, column: column, in: text) ?? lastByte
        if byte > lastByte { byte = lastByte }
        // Past the end of its line, the position maps to the next line's first character, or
        // to the break ending the paragraph, which no line draws: that line's last one.
        let isBreak = utf8[byte] == 0x0A || (byte + 2 < utf8.count && utf8[byte...byte + 2] == [0xE2, 0x80, 0xA9])
        if let back = map.sourceLocation(ofByte: byte, in: text), back.line > line || isBreak {
            var previous = byte - 1
            while previous > 0 && utf8[previous] & 0xC0 == 0x80 { previous -= 1 }
            if previous >= 0, map.sourceLocation(ofByte: previous, in: text)?.line == line { byte = previous }
        }
        return byte
    }

    /// Where story byte `byte` is set: the page (its index in `pages`), the frame and the line.
    package static func place(ofByte byte: Int, in pages: [Page]) -> (page: Int, frame: Int, line: PlacedLine)? {
        for (p, page) in pages.enumerated() {
            for (f, frame) in page.frames.enumerated() {
                if let line = frame.lines.first(where: { $0.storyRange.contains(byte) }) { return (p, f, line) }
            }
        }
        return nil
    }
}
