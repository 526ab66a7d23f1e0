import GalleyMarkup
import GalleySupport
import GalleyTemplate

/// Maps story byte offsets back to the source file and to character counts. The builder adds an
/// anchor where each piece of story text starts; inside a piece, story and source advance
/// together one scalar at a time (the parser guarantees this for its text nodes).
public struct SourceMap: Sendable {
    /// One piece of story text and where it came from.
    public struct Anchor: Sendable, Equatable {
        /// Byte offset in the story where the piece starts.
        public var storyOffset: Int
        /// Unicode scalars in the story before `storyOffset`.
        public var storyCharacters: Int
        /// Where the piece starts in the source.
        public var source: SourceLocation
        /// False when the piece was made by the builder (a paragraph terminator, an object)
        /// rather than copied from the source: offsets inside it map to `source` itself.
        public var linear: Bool
    }

    public private(set) var anchors: [Anchor] = []

    public init() {}

    /// Makes room for `count` anchors.
    public mutating func reserveCapacity(_ count: Int) { anchors.reserveCapacity(count) }

    /// Records that story text from `storyOffset` on comes from `source`. Anchors must be added
    /// in increasing story order; a later anchor at the same offset replaces the earlier one.
    public mutating func add(storyOffset: Int, storyCharacters: Int, source: SourceLocation, linear: Bool = true) {
        let a = Anchor(storyOffset: storyOffset, storyCharacters: storyCharacters, source: source, linear: linear)
        if let last = anchors.last, last.storyOffset == storyOffset {
            anchors[anchors.count - 1] = a
        } else {
            anchors.append(a)
        }
    }

    /// The last anchor at or before `offset`.
    func anchor(at offset: Int) -> Anchor? {
        let lo = anchors.partitionPoint { $0.storyOffset > offset }
        return lo == 0 ? nil : anchors[lo - 1]
    }

    /// Scalars in `text`'s UTF-8 bytes `from..<to` (both on scalar boundaries or `to` inside one).
    static func scalars(in text: String, from: Int, to: Int) -> Int {
        var n = 0
        var i = from
        text.utf8.withContiguousStorageIfAvailable { bytes in
            let end = min(to, bytes.count)
            // Eight bytes at a time: a scalar starts at every byte but a continuation byte
            // (`10xxxxxx`), whose top bit is set and the next one clear. The builder counts all
            // the text it adds, so this runs over every byte of the story.
            if i >= 0 && end - i >= 8 {
                let raw = UnsafeRawBufferPointer(bytes)
                while end - i >= 8 {
                    let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    let continuations = w & ~(w << 1) & 0x8080_8080_8080_8080
                    n += 8 - continuations.nonzeroBitCount
                    i += 8
                }
            }
            while i < end {
                if bytes[i] & 0xC0 != 0x80 { n += 1 }
                i += 1
            }
        }
            ?? {
                let u = Array(text.utf8)
                while i < to && i < u.count {
                    if u[i] & 0xC0 != 0x80 { n += 1 }
                    i += 1
                }
            }()
        return n
    }

    /// The source location of the story byte at `offset`.
    public func sourceLocation(ofByte offset: Int, in text: String) -> SourceLocation? {
        guard let a = anchor(at: offset) else { return nil }
        guard a.linear else { return a.source }
        let n = Self.scalars(in: text, from: a.storyOffset, to: offset)
        var loc = a.source
        loc.column += n
        loc.offset += offset - a.storyOffset
        return loc
    }

    /// The story byte that source `line`:`column` became: the first byte at or after that
    /// place (a tag, which makes no text, maps to the text after it). Nil past the story's end.
    /// Linear in the anchors: it is asked once per question, never in a loop.
    public func storyByte(line: Int, column: Int, in text: String) -> Int? {
        let end = text.utf8.count
        for (k, a) in anchors.enumerated() {
            let next = k + 1 < anchors.count ? anchors[k + 1].storyOffset : end
            guard a.source.line > line || (a.source.line == line && a.source.column + pieceLength(a, to: next, in: text) > column)
            else { continue }
            // The anchor's piece holds the place, or starts after it.
            guard a.linear, a.source.line == line, column > a.source.column else { return a.storyOffset }
            return byte(after: column - a.source.column, scalarsFrom: a.storyOffset, in: text)
        }
        return nil
    }

    /// Scalars in the piece from `a` up to `next` (1 for a piece the builder made).
    private func pieceLength(_ a: Anchor, to next: Int, in text: String) -> Int {
        a.linear ? Self.scalars(in: text, from: a.storyOffset, to: next) : 1
    }

    /// The byte `n` scalars after `start`.
    private func byte(after n: Int, scalarsFrom start: Int, in text: String) -> Int {
        let utf8 = text.utf8
        var i = utf8.index(utf8.startIndex, offsetBy: start)
        var left = n
        while left > 0 && i < utf8.endIndex {
            i = utf8.index(after: i)
            while i < utf8.endIndex && utf8[i] & 0xC0 == 0x80 { i = utf8.index(after: i) }
            left -= 1
        }
        return utf8.distance(from: utf8.startIndex, to: i)
    }

    /// Unicode scalars in the story before byte `offset`.
    public func characterOffset(ofByte offset: Int, in text: String) -> Int {
        guard let a = anchor(at: offset) else { return Self.scalars(in: text, from: 0, to: offset) }
        return a.storyCharacters + Self.scalars(in: text, from: a.storyOffset, to: offset)
    }
}
