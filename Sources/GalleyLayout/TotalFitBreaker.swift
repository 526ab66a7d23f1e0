import GalleyStory
import GalleySupport
import GalleyTemplate

/// Knuth–Plass total-fit line breaking over Pango-shaped text: boxes are the text between break
/// opportunities, glue the spaces (and gaps between CJK characters), penalties the breaks
/// without glue (hyphens, CJK). Chooses the set of breaks with the least total demerits over the
/// whole paragraph, for any per-line widths. Passes as in TeX: first without dictionary
/// hyphenation at a strict tolerance, then with it, then looser, then a final pass that always
/// succeeds (overfull lines, breaks inside words), so every paragraph terminates.
package struct TotalFitBreaker: LineBreaker {
    /// Badness limits of the first three passes (TeX's pretolerance, tolerance, emergency).
    package var tolerances: [Double] = [100, 200, 1000]
    package var linePenalty = 10.0
    package var hyphenPenalty = 50.0
    package var explicitHyphenPenalty = 50.0
    package var adjacentFitnessDemerits = 10_000.0
    package var doubleHyphenDemerits = 10_000.0
    package var finalHyphenDemerits = 5_000.0
    /// Penalty for breaking inside a word with no hyphen (final pass only): dearer than any
    /// loose line (whose demerits reach 10⁸), cheaper than an overfull one.
    package var emergencyPenalty = 20_000.0
    /// Demerits of a hyphen on a line barred from one (a column's last, when hyphenation across
    /// columns is off), final pass only: more than all of a paragraph's other demerits (a line's
    /// are at most about 10¹⁰), so the rule gives way only where keeping it leaves no way on but
    /// an overfull line.
    package var barredHyphenDemerits = 1e15
    /// Stretch a ragged line has at its end, as a multiple of the paragraph's largest size.
    package var raggedStretch = 3.0
    /// TeX's \emergencystretch, as a multiple of the paragraph's largest size: when no set of
    /// breaks meets the last tolerance, a pass at that tolerance judges every justified line as
    /// if its spaces could stretch this much more (it sets them with their own stretch), so a
    /// paragraph with one line that cannot be good is set with its looseness spread evenly,
    /// before the final pass that takes whatever it must.
    package var emergencyStretch = 0.5

    package init() {}

    /// A place a line may end.
    struct Breakpoint {
        /// Where the next line starts.
        var position: Int
        /// Where this line's content ends (trailing spaces removed).
        var contentEnd: Int
        var penalty: Double
        /// The break shows a hyphen (added width), or follows one (counts as hyphenated).
        var addsHyphen: Bool
        var hyphenated: Bool
        var forced: Bool
        /// The end of a window broken again (`BreakRequest.end`): forced, but its line is set as
        /// any other, the paragraph going on after it.
        var windowEnd = false
        /// A break inside a word with no hyphen (final pass only): the word's content, which a
        /// line ending here must be too narrow for (`mayEnd`).
        var word: Range<Int>?
        var emergency: Bool { word != nil }
        /// The blank after a last CJK punctuation mark, dropped, and its ink that may hang
        /// (`ShapedText.lineEndMark`): the same for every line ending here.
        var trim = 0.0
        var hang = 0.0
    }

    /// A feasible break, and the best way found to reach it.
    struct Node {
        var position: Int
        /// Index of the line that starts here.
        var line: Int
        var fitness: Int
        /// Consecutive hyphenated lines ending here.
        var hyphenRun: Int
        var demerits: Double
        var previous: Int
        var ratio: Double
        var addsHyphen: Bool
        var emergency = false
    }

    package func lines(for r: BreakRequest) -> [LineBreak] {
        let t = r.text
        let setter = LineSetter(request: r)
        if t.length == 0 {
            return [setter.line(start: 0, end: 0, hyphen: false, index: 0, isLast: true)]
        }
        // Prefix sums of glue by kind, so any line's stretch and shrink cost O(1).
        let justify = r.style.alignment == .justify
        let stop = r.end ?? t.length
        let sums = justify ? r.glue.prefixSums(t, from: r.start, to: stop) : GlueModel.PrefixSums()
        let largest = t.runs.map { r.plan.styles[Int($0.style)].size }.max() ?? 10
        let ragged = justify ? 0 : raggedStretch * largest

        var hyphenated = t
        var passes: [(tolerance: Double, hyphens: Bool, final: Bool, emergency: Double)] = tolerances.enumerated().map {
            ($0.element, $0.offset > 0, false, 0)
        }
        if justify && emergencyStretch > 0, let last = tolerances.last { passes.append((last, true, false, emergencyStretch * largest)) }
        passes.append((.infinity, true, true, 0))
        for pass in passes {
            if pass.hyphens && !hyphenated.flags[r.start..<stop].contains(where: { $0.contains(.dictionaryHyphen) }) {
                hyphenated = hyphenate(t, request: r)
            }
            let text = pass.hyphens ? hyphenated : t
            let points = breakpoints(text, setter: setter, hyphens: pass.hyphens, emergency: pass.final, request: r)
            if let chain = run(
                points, text: text, setter: setter, request: r, sums: sums, ragged: ragged,
                tolerance: pass.tolerance, final: pass.final, emergency: pass.emergency)
            {
                let lineRequest = BreakRequest(
                    text: text, style: r.style, plan: r.plan, emptyStyle: r.emptyStyle, widths: r.widths, glue: r.glue,
                    hyphenation: r.hyphenation, hyphenator: r.hyphenator)
                let finalSetter = LineSetter(request: lineRequest)
                var lines: [LineBreak] = []
                lines.reserveCapacity(chain.count)  // kept with the paragraph: no slack
                var start = r.start
                for (k, n) in chain.enumerated() {
                    // A window's last line goes on into the lines after it: not the paragraph's last.
                    let isLast = k == chain.count - 1 && r.end == nil
                    var line = finalSetter.line(
                        start: start, end: n.position, hyphen: n.addsHyphen, index: r.firstLine + k, isLast: isLast, ratio: n.ratio)
                    line.brokenInWord = n.emergency
                    lines.append(line)
                    start = n.position
                }
                return lines
            }
        }
        // The final pass always finds a chain; this is unreachable, but never loop or crash.
        return GreedyBreaker().lines(for: r)
    }

    /// Where lines may end, in order; the paragraph end is always the last.
    func breakpoints(_ t: ShapedText, setter: LineSetter, hyphens: Bool, emergency: Bool, request r: BreakRequest) -> [Breakpoint] {
        var out: [Breakpoint] = []
        let n = t.length
        let narrowest = min(r.widths.rest, r.widths.first.min() ?? r.widths.rest) - r.style.firstLineIndent
        // In the final pass, words wider than the narrowest line may break anywhere; `run` takes
        // such a break only on a line narrower than the word.
        func wideWord(from b: Int) -> Range<Int>? {
            guard emergency else { return nil }
            var e = b + 1
            while e < n && !t.flags[e].contains(.lineBreak) { e += 1 }
            let end = setter.trimmed(b, e)
            return t.x[end] - t.x[b] > narrowest ? b..<end : nil
        }
        var word = wideWord(from: r.start)
        // Where the content ends before b (trailing white space trimmed, back to the text's
        // start), for increasing b: each scan stops where the last one began, so a paragraph of
        // thousands of line separators in a row costs linear time, not quadratic.
        var lastPosition = 0
        var lastEnd = 0
        func contentEnd(_ b: Int) -> Int {
            let e = setter.trimmed(lastPosition, b)
            lastEnd = e > lastPosition ? e : lastEnd
            lastPosition = b
            return lastEnd
        }
        let stop = r.end ?? n
        for b in (r.start + 1)...stop {
            defer {
                if !t.blanks.isEmpty, let k = out.indices.last, out[k].position == b, !out[k].addsHyphen {
                    (out[k].trim, out[k].hang) = t.lineEndMark(out[k].contentEnd, from: r.start)
                }
            }
            let f = t.flags[b]
            if b == stop {
                var end = Breakpoint(
                    position: stop, contentEnd: contentEnd(stop), penalty: -.infinity, addsHyphen: false, hyphenated: false,
                    forced: true)
                end.windowEnd = stop < n
                out.append(end)
                break
            }
            if let word, f.contains(.charBreak) && !f.contains(.lineBreak) && !f.contains(.white) {
                out.append(
                    Breakpoint(
                        position: b, contentEnd: b, penalty: emergencyPenalty, addsHyphen: false, hyphenated: false, forced: false,
                        word: word))
            }
            guard f.contains(.lineBreak) else { continue }
            word = wideWord(from: b)
            if f.contains(.mandatory) {
                out.append(
                    Breakpoint(
                        position: b, contentEnd: contentEnd(b), penalty: -.infinity, addsHyphen: false, hyphenated: false,
                        forced: true))
                continue
            }
            let prev = setter.request.glue.prevChar(b, t)
            if t.flags[prev].contains(.white) {
                out.append(
                    Breakpoint(
                        position: b, contentEnd: contentEnd(b), penalty: 0, addsHyphen: false, hyphenated: false, forced: false))
            } else if f.contains(.hyphenBreak) {
                if f.contains(.dictionaryHyphen) && !hyphens { continue }
                out.append(
                    Breakpoint(position: b, contentEnd: b, penalty: hyphenPenalty, addsHyphen: true, hyphenated: true, forced: false))
            } else {
                let c = t.byte(prev)
                let explicit =
                    c == UInt8(ascii: "-")
                    || (c == 0xE2 && t.byte(prev + 1) == 0x80 && (t.byte(prev + 2) == 0x90 || t.byte(prev + 2) == 0x93))
                out.append(
                    Breakpoint(
                        position: b, contentEnd: b, penalty: explicit ? explicitHyphenPenalty : 0, addsHyphen: false, hyphenated: explicit,
                        forced: false))
            }
        }
        return out
    }

    /// One pass of the algorithm; the chain of nodes from the first line's end to the last, or
    /// nil when no set of breaks meets the tolerance.
    func run(
        _ points: [Breakpoint], text t: ShapedText, setter: LineSetter, request r: BreakRequest,
        sums: GlueModel.PrefixSums, ragged: Double, tolerance: Double, final: Bool, emergency: Double = 0
    ) -> [Node]? {
        var nodes = [
            Node(position: r.start, line: r.firstLine, fitness: 1, hyphenRun: 0, demerits: 0, previous: -1, ratio: 0, addsHyphen: false)
        ]
        var active = [0]
        // Lines with their own width or rule are told apart by index; the rest are one class.
        let distinctLines = max(r.widths.first.count, (r.unhyphenatedLines.max() ?? -1) + 1) + 1
        let maxHyphens = r.hyphenation.maxConsecutive
        var candidates: [(key: Int, node: Node)] = []
        for p in points {
            candidates.removeAll(keepingCapacity: true)
            var bestDropped: (index: Int, cost: Double)?
            var i = 0
            while i < active.count {
                let a = nodes[active[i]]
                let start = a.position
                guard p.position > start, mayEnd(a, at: p, text: t, setter: setter) else {
                    i += 1
                    continue
                }
                let (ratio, badness, overflow) = judge(
                    a, p, text: t, setter: setter, request: r, sums: sums, ragged: ragged, emergency: emergency)
                // Too long: no later break can make this line fit, so `a` stops being active.
                let dropped = ratio < -1 || p.forced
                if dropped {
                    if ratio < -1 && final {
                        // Overfull lines cost by how far they overflow: many small overflows
                        // (a glyph to a line) beat one long one.
                        let cost = a.demerits + 1e8 + 1e7 * overflow * overflow
                        if bestDropped == nil || cost < bestDropped!.cost { bestDropped = (active[i], cost) }
                    }
                    if p.forced && ratio >= -1 {
                        // Still a candidate before it goes.
                        consider(
                            a, index: active[i], p, ratio: ratio, badness: badness, tolerance: tolerance, maxHyphens: maxHyphens,
                            distinctLines: distinctLines, unhyphenated: r.unhyphenatedLines, into: &candidates)
                    }
                    active.remove(at: i)
                    continue
                }
                consider(
                    a, index: active[i], p, ratio: ratio, badness: badness, tolerance: tolerance, maxHyphens: maxHyphens,
                    distinctLines: distinctLines, unhyphenated: r.unhyphenatedLines, into: &candidates)
                i += 1
            }
            if candidates.isEmpty && active.isEmpty && final, let (index, cost) = bestDropped {
                // Nothing fits: accept the best line that ends here as overfull (TeX's artificial demerits).
                let a = nodes[index]
                candidates.append(
                    (
                        0,
                        Node(
                            position: p.position, line: a.line + 1, fitness: 1, hyphenRun: 0, demerits: cost, previous: index, ratio: -1,
                            addsHyphen: p.addsHyphen, emergency: p.emergency)
                    ))
            }
            for c in candidates {
                nodes.append(c.node)
                active.append(nodes.count - 1)
            }
            if active.isEmpty { return nil }
        }
        return chain(to: r.end ?? t.length, active: active, nodes: nodes)
    }

    /// Whether the line from node `a` may end at breakpoint `p`: a break inside a word only when
    /// what of the word the line holds is wider than the line. The narrowest line (beside a drop
    /// cap or a float) puts breaks in every word too wide for it; a word that fits its own line
    /// goes to the next one whole.
    @inline(__always)
    func mayEnd(_ a: Node, at p: Breakpoint, text t: ShapedText, setter: LineSetter) -> Bool {
        guard let word = p.word else { return true }
        return t.x[word.upperBound] - t.x[max(a.position, word.lowerBound)] > setter.available(a.line)
    }

    /// The chain of nodes that ends at `end` with the least demerits, from the first line's
    /// end on; nil when no active node ends there.
    func chain(to end: Int, active: [Int], nodes: [Node]) -> [Node]? {
        guard let best = active.map({ nodes[$0] }).filter({ $0.position == end }).min(by: { $0.demerits < $1.demerits }) else {
            return nil
        }
        var chain: [Node] = [best]
        var k = best.previous
        while k > 0 {
            chain.append(nodes[k])
            k = nodes[k].previous
        }
        return chain.reversed()
    }

    /// The line from node `a` to breakpoint `p`: its ratio (the fit's cost, see
    /// `GlueModel.Fit`; infinite when it cannot stretch that far, below −1 when it cannot
    /// shrink enough), its badness, and how far its content overflows the line.
    @inline(__always)
    func judge(
        _ a: Node, _ p: Breakpoint, text t: ShapedText, setter: LineSetter, request r: BreakRequest, sums: GlueModel.PrefixSums,
        ragged: Double, emergency: Double
    ) -> (ratio: Double, badness: Double, overflow: Double) {
        let start = a.position
        let available = setter.available(a.line)
        let end = max(start, p.contentEnd)
        var natural = t.x[end] - t.x[start]
        // What squeezing the line's punctuation costs: as much as shrinking its
        // spaces by the same share, so a line squeezes its marks only to avoid a
        // looser one, never to take a character that stretching would leave out.
        var squeezeBadness = 0.0
        if p.addsHyphen {
            natural += t.hyphenWidth(before: p.position)
        } else {
            natural -= t.autoSpace(endingAt: end)
        }
        if !p.addsHyphen && !t.blanks.isEmpty && end > start {
            // CJK punctuation gives its blank before the ideographs are squeezed.
            natural -= p.trim
            let squeeze = t.squeeze(start, end, over: natural - available, trim: p.trim, hang: p.hang)
            if squeeze > 0 {
                let share = squeeze / t.squeezePool(start, end, trim: p.trim, hang: p.hang)
                squeezeBadness = 100 * share * share * share
                natural -= squeeze
            }
        }
        let isLast = p.forced && !p.windowEnd  // the paragraph's end, or a forced break: filled with white
        let ratio: Double
        var judged: Double?  // the emergency pass's view of a stretched line
        if isLast && natural <= available {
            ratio = 0  // the last line fills with white (parfillskip)
        } else if ragged > 0 {
            ratio = natural <= available ? (available - natural) / ragged : -.infinity
        } else {
            // Glue at byte b sits before b: a line's own glue is at start+1..<end.
            var line = GlueModel.Totals.between(sums, from: min(start + 1, end), inkFrom: start, to: end)
            if p.addsHyphen && line.ink > 0 { line.ink += t.hyphenWidth(before: p.position) }
            ratio = r.glue.fit(line, slack: available - natural).cost
            if emergency > 0 && ratio > 0 {
                line.wordStretch += emergency
                judged = r.glue.fit(line, slack: available - natural).cost
            }
        }
        let cost = judged ?? ratio
        let stretched = cost.isInfinite ? 10_000 : min(10_000, 100 * abs(cost * cost * cost) + squeezeBadness)
        var badness = ratio < -1 ? Double.infinity : stretched
        if badness >= 10_000 && ratio > 0 && !isLast && ragged == 0 {
            // Past TeX's cap every underfull line is as bad as any other, so a line a
            // fifth full ("Auto-") could win over one three quarters full: beyond the
            // cap, the emptier line costs more.
            badness += 90_000 * (available - natural) / max(available, 1)
        }
        return (ratio, badness, natural - available)
    }

    /// Records the line from node `a` to breakpoint `p` when it meets the tolerance, keeping only
    /// the best candidate per (fitness, hyphen run, line class).
    @inline(__always)
    func consider(
        _ a: Node, index: Int, _ p: Breakpoint, ratio: Double, badness: Double, tolerance: Double, maxHyphens: Int,
        distinctLines: Int, unhyphenated: Set<Int>, into candidates: inout [(key: Int, node: Node)]
    ) {
        guard badness <= tolerance || (tolerance.isInfinite && ratio >= -1) else { return }
        // A hard limit, in every pass: a paragraph end always ends a run, so a chain exists.
        let hyphenRun = p.hyphenated ? a.hyphenRun + 1 : 0
        if hyphenRun > maxHyphens { return }
        // No hyphen on a column's last line: refused in every pass but the final one, which
        // charges it instead. Refused there too, a word the line must split (a long word, a
        // line beside a drop cap) left the paragraph no way on but an overfull line.
        let barred = p.addsHyphen && unhyphenated.contains(a.line)
        if barred && !tolerance.isInfinite { return }
        let fitness = ratio < -0.5 ? 3 : ratio <= 0.5 ? 2 : ratio <= 1 ? 1 : 0
        var d = linePenalty + badness
        d *= d
        if p.penalty >= 0 {
            d += p.penalty * p.penalty
        } else if p.penalty.isFinite {
            d -= p.penalty * p.penalty
        }
        if p.hyphenated && a.hyphenRun > 0 { d += doubleHyphenDemerits }
        if abs(fitness - a.fitness) > 1 { d += adjacentFitnessDemerits }
        if p.forced && p.position > 0 && a.addsHyphen { d += finalHyphenDemerits }
        if barred { d += barredHyphenDemerits }
        let total = a.demerits + d
        let lineClass = min(a.line + 1, distinctLines)
        let key = (fitness * 4 + min(hyphenRun, 3)) * 64 + lineClass
        let node = Node(
            position: p.position, line: a.line + 1, fitness: fitness, hyphenRun: hyphenRun, demerits: total, previous: index,
            ratio: ratio.isFinite ? ratio : 0, addsHyphen: p.addsHyphen, emergency: p.emergency)
        if let k = candidates.firstIndex(where: { $0.key == key }) {
            if total < candidates[k].node.demerits { candidates[k].node = node }
        } else {
            candidates.append((key, node))
        }
    }

    /// The letters from which a part of a hyphenated compound may be hyphenated too.
    static let longCompoundPart = 10

    /// A hyphen (`-`, U+2010 or the non-breaking U+2011) ending just before byte `i`.
    static func hyphen(endingAt i: Int, in bytes: [UInt8]) -> Bool {
        if i >= 1 && bytes[i - 1] == UInt8(ascii: "-") { return true }
        return i >= 3 && bytes[i - 3] == 0xE2 && bytes[i - 2] == 0x80 && (bytes[i - 1] == 0x90 || bytes[i - 1] == 0x91)
    }

    /// A hyphen starting at byte `i`.
    static func hyphen(startingAt i: Int, in bytes: [UInt8]) -> Bool {
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") { return true }
        return i + 2 < bytes.count && bytes[i] == 0xE2 && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0x90 || bytes[i + 2] == 0x91)
    }

    /// Marks the dictionary's hyphenation points in the paragraph's words: not in the last word,
    /// not in words of capitals (unless allowed), not in URLs or words with digits, not in the
    /// short parts of a hyphenated compound, and only at glyph-cluster starts (a point inside a
    /// ligature would need reshaping).
    func hyphenate(_ t: ShapedText, request r: BreakRequest) -> ShapedText {
        guard r.hyphenation.enabled, let h = r.hyphenator else { return t }
        var out = t
        let n = t.length
        // The last word of the paragraph is never hyphenated.
        var lastWordStart = n
        while lastWordStart > 0 && !t.flags[lastWordStart].contains(.wordStart) { lastWordStart -= 1 }
        // Only the words of the lines being broken (`start..<end`), the one `start` is in too
        // (a drop cap's word, its initial before the first line).
        var b = r.start
        while b > 0 && !t.flags[b].contains(.wordStart) { b -= 1 }
        while b < (r.end ?? n) {
            guard t.flags[b].contains(.wordStart) else {
                b += 1
                continue
            }
            var e = b + 1
            while e < n && !t.flags[e].contains(.wordEnd) { e += 1 }
            defer { b = e }
            guard b < lastWordStart else { break }
            // `hyphenate="false"` on the run.
            if let run = t.run(containing: b), !r.plan.styles[Int(run.style)].hyphenate { continue }
            let bytes = t.bytes[b..<e]
            // Words glued to URL or e-mail punctuation are left alone.
            let before = b > 0 ? t.bytes[b - 1] : 0x20
            let after = e < n ? t.bytes[e] : 0x20
            if [UInt8(ascii: "/"), UInt8(ascii: "@"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "_")].contains(before)
                && !(before == UInt8(ascii: ".") && b >= 2 && t.bytes[b - 2] == 0x20)
            {
                continue
            }
            if [UInt8(ascii: "/"), UInt8(ascii: "@"), UInt8(ascii: "_")].contains(after) { continue }
            let inCompound = Self.hyphen(endingAt: b, in: t.bytes) || Self.hyphen(startingAt: e, in: t.bytes)
            guard bytes.count >= r.hyphenation.minWord else { continue }  // fewer bytes, fewer letters
            // Letters only; no word in capitals or with capitals inside (an acronym, a name like
            // "McCartney"). ASCII words, the common case, are checked without Unicode tables.
            var charBytes: [Int] = []
            if bytes.allSatisfy({ $0 < 0x80 }) {
                guard bytes.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { continue }
                if !r.hyphenation.capitals {
                    if !bytes.contains(where: { $0 >= 0x61 }) { continue }
                    if bytes.dropFirst().contains(where: { $0 < 0x61 }) { continue }
                }
                charBytes = Array(b..<e)
            } else {
                let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
                guard scalars.count >= r.hyphenation.minWord, scalars.allSatisfy({ $0.properties.isAlphabetic }) else { continue }
                if !r.hyphenation.capitals && scalars.allSatisfy({ !$0.properties.isLowercase }) { continue }
                if !r.hyphenation.capitals && scalars.dropFirst().contains(where: { $0.properties.isUppercase }) { continue }
                var o = b
                for s in scalars {
                    charBytes.append(o)
                    o += UTF8.width(s)
                }
            }
            guard charBytes.count >= r.hyphenation.minWord else { continue }
            // A compound's parts ("contour-wrapped") break at its own hyphen: a second hyphen
            // inside one of them reads as a misprint. A long part ("counterrevolutionary-minded")
            // still may, rather than be broken between letters in a narrow column.
            if inCompound && charBytes.count < Self.longCompoundPart { continue }
            let word = String(decoding: bytes, as: UTF8.self)
            for point in h.points(word, leftMin: r.hyphenation.leftMin, rightMin: r.hyphenation.rightMin) {
                let at = charBytes[point]
                guard t.flags[at].contains(.clusterStart), !t.flags[at].contains(.lineBreak) else { continue }
                out.flags[at].insert([.lineBreak, .hyphenBreak, .dictionaryHyphen])
            }
        }
        return out
    }
}
