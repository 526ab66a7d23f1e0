import GalleyStory
import GalleySupport
import GalleyTemplate

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
    /// letter spacing (at most 3 % of a letter wider, 2 % narrower). Stretching, it is the last
    /// resort before spaces grow past 1.5×; shrinking, it moves with the spaces.
    package var letterStretch = 0.03
    package var letterShrink = 0.02
    /// Most a justified line's glyphs may be widened or narrowed (pdfTeX's font expansion), as
    /// a share of their width, in steps of `expansionStep`; 0 turns it off. Glyphs are scaled
    /// horizontally, so a line is wider or narrower by that share of its ink, not of its spaces.
    package var expansion = 0.02
    package static let expansionStep = 0.005
    /// Glyphs start to widen only once the spaces have gone this share of their stretch: most
    /// lines are set by their spaces alone, in the text's own glyph widths. (Narrowing comes
    /// first: a space under 0.8× shows more than a glyph 2 % narrower.)
    package static let expansionThreshold = 0.5

    package init() {}

    /// Glue at one place of a line. Word glue (spaces, gaps between wide characters) stretches
    /// without limit; letter glue is capped at its stretch and shrink.
    package struct Glue {
        package var stretch = 0.0
        package var shrink = 0.0
        package var isLetter = false
    }

    /// Totals of a line's glue, by kind, and the width of its ink (what expansion scales).
    package struct Totals {
        package var wordStretch = 0.0
        package var wordShrink = 0.0
        package var letterStretch = 0.0
        package var letterShrink = 0.0
        package var ink = 0.0

        package mutating func add(_ g: Glue) {
            if g.isLetter {
                letterStretch += g.stretch
                letterShrink += g.shrink
            } else {
                wordStretch += g.stretch
                wordShrink += g.shrink
            }
        }

        /// The totals of bytes `from..<to` for glue and `inkFrom..<to` for ink, from prefix sums.
        package static func between(_ sums: PrefixSums, from: Int, inkFrom: Int, to: Int) -> Totals {
            let (a, b) = (sums[from], sums[to])
            return Totals(
                wordStretch: b.wordStretch - a.wordStretch, wordShrink: b.wordShrink - a.wordShrink,
                letterStretch: b.letterStretch - a.letterStretch, letterShrink: b.letterShrink - a.letterShrink,
                ink: b.ink - sums[inkFrom].ink)
        }
    }

    /// How a justified line is set: its spaces' ratio (TeX's r: each space grows by r × its
    /// stretch, or shrinks by −r × its shrink), its letters' ratio (−1…1) and its glyphs'
    /// expansion in steps. `cost` is what the breaker judges the line by: the spaces' ratio,
    /// plus the letters' while they are spaced apart, so a letter-spaced line costs more than
    /// one whose spaces are at 1.5×, and less than one whose spaces go past it.
    package struct Fit: Equatable {
        package var words = 0.0
        package var letters = 0.0
        package var steps = 0
        package var cost = 0.0
    }

    /// The fit that absorbs `slack` (available − natural width). Stretching: spaces alone up
    /// to the expansion threshold, then spaces and glyph expansion together until the spaces
    /// reach 1.5× (ratio 1) and the glyphs their limit, then letters up to their cap, then
    /// spaces alone. Shrinking: the glyphs narrow first, then spaces and letters shrink
    /// together. The expansion is rounded to its steps and the spaces and letters take what
    /// that leaves, so the line is exactly as wide as the fit says. `cost` is infinite when the
    /// line cannot stretch that far, below −1 when it cannot shrink enough.
    package func fit(_ t: Totals, slack: Double) -> Fit {
        if slack == 0 { return Fit() }
        let steps = expansionSteps(t, slack: slack)
        var f = Self.spacing(t, slack: slack - Double(steps) * Self.expansionStep * t.ink)
        f.steps = steps
        return f
    }

    /// How many steps the glyphs widen (negative: narrow) for `slack`.
    func expansionSteps(_ t: Totals, slack: Double) -> Int {
        guard expansion > 0, t.ink > 0 else { return 0 }
        let most = (expansion / Self.expansionStep).rounded()
        let room = expansion * t.ink
        let words = slack > 0 ? t.wordStretch : t.wordShrink + t.letterShrink
        let threshold = slack > 0 ? Self.expansionThreshold : 0
        let before = threshold * words
        let share = min(1, max(0, abs(slack) - before) / (slack > 0 ? (1 - threshold) * words + room : room))
        let steps = Int((share * most).rounded())
        return slack > 0 ? steps : -steps
    }

    /// The spaces' and letters' fit for `slack`, glyphs at their width.
    static func spacing(_ t: Totals, slack s: Double) -> Fit {
        if s == 0 { return Fit() }
        let (words, letters) = (t.wordStretch, t.letterStretch)
        if s < 0 {
            let all = t.wordShrink + t.letterShrink
            let r = all > 0 ? s / all : -.infinity
            return Fit(words: r, letters: r, cost: r)
        }
        if words > 0 && s <= words {
            return Fit(words: s / words, cost: s / words)
        }
        if letters > 0 && s <= words + letters {
            let l = (s - words) / letters
            return Fit(words: words > 0 ? 1 : 0, letters: l, cost: 1 + l)
        }
        guard words > 0 else { return Fit(letters: letters > 0 ? 1 : 0, cost: .infinity) }
        let w = 1 + (s - words - letters) / words
        let l = letters > 0 ? 1.0 : 0
        return Fit(words: w, letters: l, cost: w + l)
    }

    /// Width the glue and expansion of a line with totals `t` add when it is set at `f`.
    package func width(_ t: Totals, at f: Fit) -> Double {
        let expanded = Double(f.steps) * Self.expansionStep * t.ink
        if f.words < 0 || f.letters < 0 {
            return expanded + max(f.words, -1) * t.wordShrink + max(f.letters, -1) * t.letterShrink
        }
        return expanded + f.words * t.wordStretch + min(f.letters, 1) * t.letterStretch
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

    /// What the glue at byte `b` adds to a line whose spaces are set at ratio `words` and
    /// letters at `letters` (see `Fit`).
    @inline(__always)
    package func adjustment(at b: Int, in t: ShapedText, words: Double, letters: Double) -> Double {
        let g = glue(at: b, in: t)
        let r = g.isLetter ? letters : words
        return r >= 0 ? r * g.stretch : max(r, -1) * g.shrink
    }

    /// True when the cluster starting at byte `c` is ink that expansion scales: not white
    /// space, not a wide (CJK) character, whose grid expansion would break, not an image.
    @inline(__always)
    package func expands(_ c: Int, in t: ShapedText, attachment: Bool) -> Bool {
        let f = t.flags[c]
        return f.contains(.clusterStart) && !f.contains(.white) && !f.contains(.wide) && !attachment
    }

    /// Calls `body` with the start and the end of each cluster starting in `start..<end` whose
    /// ink expands (see `expands`), in order; none in vertical text or with expansion off.
    func forEachInkCluster(_ start: Int, _ end: Int, in t: ShapedText, _ body: (Int, Int) -> Void) {
        guard expansion > 0, !t.vertical, start < end else { return }
        let images = t.attachments(in: start..<end)
        var image = images.startIndex
        var c = start
        while c < end {
            var n = c + 1
            while n < t.length && !t.flags[n].contains(.clusterStart) { n += 1 }
            while image < images.endIndex && Int(images[image].byte) < c { image += 1 }
            if expands(c, in: t, attachment: image < images.endIndex && Int(images[image].byte) == c) { body(c, n) }
            c = n
        }
    }

    /// The ink of the clusters starting in `start..<end`: what expansion scales.
    package func ink(_ start: Int, _ end: Int, in t: ShapedText) -> Double {
        var ink = 0.0
        forEachInkCluster(start, end, in: t) { c, n in ink += t.x[n] - t.x[c] }
        return ink
    }

    /// Prefix sums of a paragraph's glue and ink over bytes `from...to` (the whole paragraph by
    /// default): `sums[b]` holds the glue from `from` to byte b and the ink of the clusters that
    /// end by b, so a line's totals cost O(1) (`Totals.between`); a line broken again in a
    /// window of a long paragraph costs the window, not the paragraph.
    package func prefixSums(_ t: ShapedText, from: Int = 0, to: Int? = nil) -> PrefixSums {
        let end = to ?? t.length
        var inkEnding = [Double](repeating: 0, count: end - from + 1)
        forEachInkCluster(from, end, in: t) { c, n in inkEnding[n - from] += t.x[n] - t.x[c] }
        var sums = [Totals](repeating: Totals(), count: end - from + 1)
        var running = Totals()
        for b in from..<end {
            running.ink += inkEnding[b - from]
            sums[b - from] = running
            if mayHaveGlue(t.flags[b]) { running.add(glue(at: b, in: t)) }
        }
        running.ink += inkEnding[end - from]
        sums[end - from] = running
        return PrefixSums(base: from, values: sums)
    }

    /// Prefix sums from byte `base` on, indexed by the paragraph's bytes.
    package struct PrefixSums {
        var base = 0
        var values: [Totals] = []
        subscript(_ b: Int) -> Totals { values[b - base] }
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
