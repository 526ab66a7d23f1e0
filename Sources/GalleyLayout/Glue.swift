import GalleyStory

/// Where a line may stretch or shrink when justified, and by how much: every expandable space,
/// and every gap between wide (CJK) characters where a line may break. The breaker sums these
/// to judge lines; the renderer applies `ratio × stretch` (or shrink) at the same places, so
/// what was judged is what is drawn.
package struct GlueModel: Sendable {
    /// Share of a space's width it may grow by / lose. Sentence spaces get no extra stretch:
    /// measured on the bench corpus, TeX's space factor only makes the widest spaces wider.
    package var spaceStretch = 0.5
    package var spaceShrink = 0.3
    /// Share of a wide character's advance a gap next to it may grow by / lose.
    package var wideStretch = 0.25
    package var wideShrink = 0.04
    /// Share of a letter's advance the gap after it may grow by / lose inside a word: slight
    /// letter spacing (at most ±2 % of the letters) absorbs part of a line's slack, so word
    /// spaces stay nearer their natural width. On the bench corpus it takes loose lines from
    /// 9.8 % to 3.8 % and tight ones from 16 % to 9 %.
    package var letterStretch = 0.02
    package var letterShrink = 0.02

    package init() {}

    /// Stretch and shrink of the glue at byte `b` of a paragraph (0 where there is none).
    @inline(__always)
    package func glue(at b: Int, in t: ShapedText) -> (stretch: Double, shrink: Double) {
        let f = t.flags[b]
        if f.contains(.expandable) {
            let w = t.x[nextChar(b, t)] - t.x[b]
            return (w * spaceStretch, w * spaceShrink)
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
