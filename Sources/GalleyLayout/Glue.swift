import Foundation
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
    /// Share of a letter's advance the gap after it may grow by / lose inside a word (slight
    /// letter spacing absorbs part of a line's slack, so word spaces stay nearer their width).
    package var letterStretch = 0.0
    package var letterShrink = 0.0

    package init() {
        if let v = ProcessInfo.processInfo.environment["GALLEY_GLUE_TUNE"]?.split(separator: ",").compactMap({ Double($0) }), v.count == 5 {
            (spaceStretch, spaceShrink, sentenceFactor, clauseFactor, commaFactor) = (v[0], v[1], v[2], v[3], v[4])
        }
        if let v = ProcessInfo.processInfo.environment["GALLEY_LETTER_TUNE"]?.split(separator: ",").compactMap({ Double($0) }), v.count == 2 {
            (letterStretch, letterShrink) = (v[0], v[1])
        }
    }

    /// Stretch and shrink of the glue at byte `b` of a paragraph (0 where there is none).
    @inline(__always)
    package func glue(at b: Int, in t: ShapedText) -> (stretch: Double, shrink: Double) {
        let f = t.flags[b]
        if f.contains(.expandable) {
            let w = t.x[nextChar(b, t)] - t.x[b]
            return (w * spaceStretch * factor(before: b, t), w * spaceShrink)
        }
        guard b > 0 && b < t.length && f.contains(.clusterStart) && !f.contains(.white) else { return (0, 0) }
        let p = prevCluster(b, t)
        let fp = t.flags[p]
        guard !fp.contains(.white) else { return (0, 0) }
        let w = t.x[b] - t.x[p]
        if f.contains(.lineBreak) && (fp.contains(.wide) || f.contains(.wide)) {
            // A break between characters with no space: CJK, when either side is wide.
            return (w * wideStretch, w * wideShrink)
        }
        // Between two letters of a word.
        return (w * letterStretch, w * letterShrink)
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

    @inline(__always) func prevCluster(_ b: Int, _ t: ShapedText) -> Int {
        var p = b - 1
        while p > 0 && !t.flags[p].contains(.clusterStart) { p -= 1 }
        return max(0, p)
    }

    /// True when glue may sit at byte `b` (the breaker's prefix sums visit only these).
    @inline(__always) package func mayHaveGlue(_ f: ByteFlags) -> Bool {
        f.contains(.expandable) || f.contains(.clusterStart)
    }

    @inline(__always) func prevChar(_ b: Int, _ t: ShapedText) -> Int {
        var p = b - 1
        while p > 0 && !t.flags[p].contains(.charStart) { p -= 1 }
        return max(0, p)
    }
}
