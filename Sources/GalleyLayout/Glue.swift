import GalleyStory
import GalleyTemplate
import GalleySupport

/// Where a line may stretch or shrink when justified, and by how much: every expandable space,
/// every gap between wide (CJK) characters where a line may break, and (a little) between the
/// letters of words. The breaker sums these to judge lines; the renderer applies the same
/// adjustment at the same places, so what was judged is what is drawn.
package struct GlueModel: Sendable {
    /// Share of a space's width it may grow by / lose. Sentence spaces get no extra stretch:
    /// measured on the bench corpus, TeX's space factor only makes the widest spaces wider.
    package var spaceStretch = 0.5
    package var spaceShrink = 0.3
    /// Share of a wide character's advance a gap next to it may grow by / lose.
    package var wideStretch = 0.25
    package var wideShrink = 0.04
    /// Share of a letter's advance the gap after it may grow by / lose inside a word: slight
    /// letter spacing (at most 3 % of a letter wider, 2 % narrower) absorbs part of a loose or
    /// tight line's slack, so word spaces stay nearer their natural width. On the bench corpus
    /// it takes loose lines from 9.8 % to 4.8 % and tight ones from 16 % to 9.5 %.
    package var letterStretch = 0.03
    package var letterShrink = 0.02
    /// Letters start to stretch only past this ratio: most lines are set by their spaces alone,
    /// so the PDF describes them without a position per glyph (letter spacing on every line
    /// made the file 60 % larger and its writing 10 % slower). Shrinking moves letters at once.
    package static let letterThreshold = 0.5

    package init() {}

    /// Glue at one place of a line. Word glue (spaces, gaps between wide characters) stretches
    /// without limit as the ratio grows; letter glue is capped at ratio ±1 (2 % of a letter),
    /// so a very loose line is loose in its spaces, never letter-spaced apart.
    package struct Glue {
        package var stretch = 0.0
        package var shrink = 0.0
        package var isLetter = false
    }

    /// Totals of a line's glue, by kind.
    package struct Totals {
        package var wordStretch = 0.0
        package var wordShrink = 0.0
        package var letterStretch = 0.0
        package var letterShrink = 0.0

        package mutating func add(_ g: Glue) {
            if g.isLetter {
                letterStretch += g.stretch
                letterShrink += g.shrink
            } else {
                wordStretch += g.stretch
                wordShrink += g.shrink
            }
        }

        /// The adjustment ratio that absorbs `slack` (available − natural width). Stretching:
        /// word glue alone up to the letters' threshold t, then words and letters together until
        /// the letters reach their cap (t + 1), then words alone again. Shrinking: words and
        /// letters together. Infinite when the line cannot stretch that far, below −1 when it
        /// cannot shrink enough.
        package func ratio(slack: Double) -> Double {
            if slack == 0 { return 0 }
            if slack < 0 {
                let all = wordShrink + letterShrink
                return all > 0 ? slack / all : -.infinity
            }
            let t = GlueModel.letterThreshold
            let (words, letters) = (wordStretch, letterStretch)
            if words == 0 {
                // Only letters (one long word): they move from the threshold on, up to their cap.
                return letters > 0 && slack <= letters ? t + slack / letters : .infinity
            }
            if slack <= t * words { return slack / words }
            if slack <= (t + 1) * words + letters { return (slack + t * letters) / (words + letters) }
            return (slack - letters) / words
        }

        /// Width the glue adds at ratio r.
        package func width(at r: Double) -> Double {
            if r >= 0 { return r * wordStretch + min(max(r - GlueModel.letterThreshold, 0), 1) * letterStretch }
            return max(r, -1) * (wordShrink + letterShrink)
        }
    }

    /// The glue at byte `b` of a paragraph (zero where there is none).
    @inline(__always)
    package func glue(at b: Int, in t: ShapedText) -> Glue {
        let f = t.flags[b]
        if f.contains(.expandable) {
            let w = t.x[nextChar(b, t)] - t.x[b]
            return Glue(stretch: w * spaceStretch, shrink: w * spaceShrink)
        }
        guard b > 0 && b < t.length && f.contains(.clusterStart) && !f.contains(.white) else { return Glue() }
        let p = prevCluster(b, t)
        let fp = t.flags[p]
        guard !fp.contains(.white) else { return Glue() }
        let w = t.x[b] - t.x[p]
        if f.contains(.lineBreak) && (fp.contains(.wide) || f.contains(.wide)) {
            // A break between characters with no space: CJK, when either side is wide.
            return Glue(stretch: w * wideStretch, shrink: w * wideShrink)
        }
        // Between two letters of a word.
        return Glue(stretch: w * letterStretch, shrink: w * letterShrink, isLetter: true)
    }

    /// What the glue at byte `b` adds to a line set at ratio `r`.
    @inline(__always)
    package func adjustment(at b: Int, in t: ShapedText, ratio r: Double) -> Double {
        let g = glue(at: b, in: t)
        let threshold = GlueModel.letterThreshold
        if g.isLetter { return r >= 0 ? min(max(r - threshold, 0), 1) * g.stretch : max(r, -1) * g.shrink }
        return r >= 0 ? r * g.stretch : max(r, -1) * g.shrink
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
