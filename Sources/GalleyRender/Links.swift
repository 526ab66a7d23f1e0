import CCairo
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate

/// The links of a story (`TextStyle.link`): each a maximal range of the text with the same
/// target. Style runs that follow each other with the same target are one link, across
/// paragraph breaks too (the only bytes between them are newlines); the same target after
/// other text is another link.
struct LinkIndex {
    struct Link: Equatable {
        var range: Range<Int>
        var uri: String
    }
    /// In story order, not overlapping.
    let links: [Link]

    init(story: Story) {
        var links: [Link] = []
        let utf8 = story.text.utf8
        func onlyNewlines(_ a: Int, _ b: Int) -> Bool {
            guard a < b else { return a == b }
            let i = utf8.index(utf8.startIndex, offsetBy: a)
            return utf8[i..<utf8.index(i, offsetBy: b - a)].allSatisfy { $0 == 0x0A }
        }
        for run in story.runs where !run.range.isEmpty {
            guard let uri = story.styles[run.style].link, !uri.isEmpty else { continue }
            if let last = links.last, last.uri == uri, onlyNewlines(last.range.upperBound, run.range.lowerBound) {
                links[links.count - 1].range = last.range.lowerBound..<run.range.upperBound
            } else {
                links.append(Link(range: run.range, uri: uri))
            }
        }
        self.links = links
    }

    /// The index of the link holding story byte `b`.
    func link(at b: Int) -> Int? {
        let lo = links.partitionPoint { $0.range.upperBound > b }
        return lo < links.count && links[lo].range.contains(b) ? lo : nil
    }
}

/// Links to a page of the PDF itself. Each page is a named destination, `page.N` (N its place
/// in the file, from 1, as LaTeX's hyperref names them), and a link names it. Cairo 1.16 writes
/// a link that gives a page by number only when that page is written already, so a contents
/// entry or a "continued on" line was a link to nowhere; a name it writes as it is, and the
/// file's table of names, written at its end, says where it goes.
enum PageDestination {
    /// Marks the page being drawn on `cr` (a PDF's) as page `index`'s destination, at its top left.
    static func mark(_ index: Int, on cr: OpaquePointer) {
        cairo_tag_begin(cr, CAIRO_TAG_DEST, "name='page.\(index)' x=0 y=0")
        cairo_tag_end(cr, CAIRO_TAG_DEST)
    }

    /// The link attribute that goes to page `index`.
    static func link(to index: Int) -> String { "dest='page.\(index)'" }
}

extension PageRenderer {
    /// The link a run belongs to (an added hyphen belongs to the word it ends).
    func linkIndex(of placed: PlacedRun) -> Int? {
        guard let uri = placed.style.link, !uri.isEmpty else { return nil }
        let r = placed.run.storyRange
        return links.link(at: placed.run.isHyphen ? r.lowerBound - 1 : r.lowerBound)
    }

    /// The rectangles of each link on a page, links in the order they first appear: one per
    /// line segment, from the left end of the first linked run's advance to the right end of
    /// the last of a sequence of adjacent runs of the link (in visual order, so right-to-left
    /// text mixed with other text may give a line more than one), as tall as the line box.
    func linkRects(_ lines: [LineRuns]) -> [(link: Int, rects: [Rect])] {
        var order: [Int] = []
        var rects: [Int: [Rect]] = [:]
        for k in lines.indices {
            let runs = lines[k].runs
            var i = 0
            while i < runs.count {
                guard let link = linkIndex(of: runs[i]) else {
                    i += 1
                    continue
                }
                var j = i + 1
                while j < runs.count && linkIndex(of: runs[j]) == link { j += 1 }
                let x0 = runs[i].start
                let x1 = runs[j - 1].end
                if x1 > x0 {
                    if rects[link] == nil { order.append(link) }
                    let top = lines[k].top
                    rects[link, default: []].append(Rect(x: x0, y: top, width: x1 - x0, height: lines[k].bottom - top))
                }
                i = j
            }
        }
        return order.flatMap { link in Self.pieces(rects[link]!).map { (link, $0) } }
    }

    /// A link's rectangles in pieces that each make one annotation: lines one under the other
    /// in a column. Cairo writes an annotation's rectangles as its QuadPoints and their union
    /// as its Rect, which most readers go by: a link broken from one column into the next
    /// covered the text between, and a click there opened it.
    static func pieces(_ rects: [Rect]) -> [[Rect]] {
        var pieces: [[Rect]] = []
        for r in rects {
            if let last = pieces.last?.last, r.x < last.maxX, last.x < r.maxX, r.y >= last.y, r.y <= last.maxY + last.height {
                pieces[pieces.count - 1].append(r)
            } else {
                pieces.append([r])
            }
        }
        return pieces
    }

    /// Emits a PDF link annotation for each piece of each link on the page, covering its
    /// rectangles. Cairo's `rect`
    /// attribute is in the PDF page's points, y down, whatever the current transform: a press
    /// sheet draws the page shifted by its bleed and slug, so the rectangles are taken through
    /// the transform here. The attributes are written as bytes into one reused buffer, each
    /// target once per document.
    func emitLinks(_ lines: [LineRuns], on cr: OpaquePointer) {
        for (link, rects) in linkRects(lines) { emitLink(link, rects: rects, on: cr) }
    }

    /// One annotation of link `link` over `rects`.
    func emitLink(_ link: Int, rects: [Rect], on cr: OpaquePointer) {
        let target = links.links[link].uri
        let attribute: [UInt8]
        if let made = linkTargets[target] {
            attribute = made
        } else {
            // `#page=N`: a page of this PDF (an issue's contents link their articles so).
            if target.hasPrefix("#page="), let n = Int(target.dropFirst(6)), n >= 1 {
                attribute = Array((PageDestination.link(to: n) + " rect=[").utf8)
            } else {
                attribute = Array("uri='\(LinkAttributes.escape(LinkAttributes.uri(target)))' rect=[".utf8)
            }
            linkTargets[target] = attribute
        }
        linkAttributes.removeAll(keepingCapacity: true)
        linkAttributes += attribute
        for (n, box) in rects.enumerated() {
            let r = Self.onPage(box, cr)
            if n > 0 { linkAttributes.append(0x20) }
            Self.appendDecimal(r.x, to: &linkAttributes)
            linkAttributes.append(0x20)
            Self.appendDecimal(r.y, to: &linkAttributes)
            linkAttributes.append(0x20)
            Self.appendDecimal(r.width, to: &linkAttributes)
            linkAttributes.append(0x20)
            Self.appendDecimal(r.height, to: &linkAttributes)
        }
        linkAttributes += [UInt8(ascii: "]"), 0]
        linkAttributes.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cairo_tag_begin(cr, CAIRO_TAG_LINK, $0.baseAddress) }
        }
        cairo_tag_end(cr, CAIRO_TAG_LINK)
    }

    /// A link annotation over each image set apart from the lines (a block image, a float)
    /// inside `<a>`: it has no line to carry the link, which an image in a line has.
    func emitImageLinks(_ images: [PlacedImage], on cr: OpaquePointer) {
        for placed in images where placed.block == nil {
            guard let link = links.link(at: placed.storyOffset) else { continue }
            emitLink(link, rects: [placed.rect], on: cr)
        }
    }

    /// `r`, in the current user space, in the page's own points (the sheet's, on a press sheet).
    static func onPage(_ r: Rect, _ cr: OpaquePointer) -> Rect {
        var (x0, y0, x1, y1) = (r.x, r.y, r.maxX, r.maxY)
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        return Rect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
    }

    /// Appends a number as Cairo's attribute parser reads it: plain decimal, rounded to at
    /// most 3 decimals, no trailing zeros.
    static func appendDecimal(_ v: Double, to out: inout [UInt8]) {
        let m = Int64((v * 1000).rounded())
        if m < 0 { out.append(UInt8(ascii: "-")) }
        let a = m.magnitude
        let whole = a / 1000
        var divisor: UInt64 = 1
        while divisor <= whole / 10 { divisor *= 10 }
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(whole / divisor % 10))
            divisor /= 10
        } while divisor > 0
        var fraction = a % 1000
        guard fraction != 0 else { return }
        out.append(UInt8(ascii: "."))
        var scale: UInt64 = 100
        while fraction != 0 {
            out.append(UInt8(ascii: "0") + UInt8(fraction / scale))
            fraction %= scale
            scale /= 10
        }
    }
}

/// Link targets as Cairo's tag attributes take them.
enum LinkAttributes {
    /// The target as a URI a PDF can hold: bytes that are not printable ASCII (UTF-8 of
    /// non-ASCII characters, spaces, controls) and the PDF string delimiters `(`, `)` and `\`
    /// percent-encoded (Cairo 1.16 writes the URI into a PDF string without escaping them).
    static func uri(_ target: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in target.utf8 {
            if b <= 0x20 || b >= 0x7F || b == UInt8(ascii: "(") || b == UInt8(ascii: ")") || b == UInt8(ascii: "\\") {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A string value for Cairo's attribute syntax (inside single quotes): `\` and `'` escaped
    /// with a backslash.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            if c == "\\" || c == "'" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }
}
