import GalleyStory

/// Where a line may stretch or shrink when justified, and by how much: every expandable space,
/// and every gap between wide (CJK) characters where a line may break. The breaker sums these
/// to judge lines; the renderer applies `ratio × stretch` (or shrink) at the same places, so
/// what was judged is what is drawn.
package struct GlueModel: Sendable {
    /// Share of a space's width it may grow by (before the punctuation factor).
    package var spaceStretch = 0.5
    /// Share of a space's width it may lose.
    package var spaceShrink = 0.33
    /// Extra stretch after sentence punctuation, like TeX's space factor: a space after a full
    /// stop absorbs more of a loose line than one between words.
    package var sentenceFactor = 2.0
    package var clauseFactor = 1.5
    package var commaFactor = 1.25
    /// Share of a wide character's advance a gap next to it may grow by / lose.
    package var wideStretch = 0.25
    package var wideShrink = 0.04

    package init() {}

    /// Stretch and shrink of the glue at byte `b` of a paragraph (0 where there is none).
    @inline(__always)
    package func glue(at b: Int, in t: ShapedText) -> (stretch: Double, shrink: Double) {
        let f = t.flags[b]
        if f.contains(.expandable) {
            let w = t.x[nextChar(b, t)] - t.x[b]
            return (w * spaceStretch * factor(before: b, t), w * spaceShrink)
        }
        if f.contains(.lineBreak) && b > 0 && b < t.length && !f.contains(.white) {
            // A break between characters with no space: CJK, when either side is wide.
            let p = prevChar(b, t)
            let fp = t.flags[p]
            guard !fp.contains(.white), fp.contains(.wide) || f.contains(.wide) else { return (0, 0) }
            let w = t.x[b] - t.x[p]
            return (w * wideStretch, w * wideShrink)
        }
        return (0, 0)
    }

    /// The space factor of the character before a space (looking through closing quotes and brackets).
    func factor(before b: Int, _ t: ShapedText) -> Double {
        var p = b
        for _ in 0..<3 {
            guard p > 0 else { return 1 }
            p = prevChar(p, t)
            guard let c = t.byte(p) else { return 1 }
            switch c {
            case UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?"): return sentenceFactor
            case UInt8(ascii: ":"), UInt8(ascii: ";"): return clauseFactor
            case UInt8(ascii: ","): return commaFactor
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "'"): continue
            case 0xE2: continue  // ’ ” and other punctuation from U+2000 on: look through closing quotes
            default: return 1
            }
        }
        return 1
    }

    @inline(__always) func nextChar(_ b: Int, _ t: ShapedText) -> Int {
        var n = b + 1
        while n < t.length && !t.flags[n].contains(.charStart) { n += 1 }
        return n
    }

    @inline(__always) func prevChar(_ b: Int, _ t: ShapedText) -> Int {
        var p = b - 1
        while p > 0 && !t.flags[p].contains(.charStart) { p -= 1 }
        return max(0, p)
    }
}
