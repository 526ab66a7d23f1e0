import GalleyStory
import GalleyTemplate
import GalleySupport

/// The available width of each line of a paragraph, points, before indents (TeX's parshape):
/// explicit widths for the first lines, then one width for all the rest. The framesetter maps a
/// region's shape to this (a constant for plain columns; a staircase around images).
package struct LineWidths: Sendable, Equatable {
    /// Widths of lines 0, 1, … that differ from `rest`.
    package var first: [Double]
    /// Width of every later line.
    package var rest: Double

    package init(first: [Double] = [], rest: Double) {
        self.first = first
        self.rest = rest
    }

    package subscript(line: Int) -> Double { line < first.count ? first[line] : rest }
}

/// Everything a line breaker needs to break one paragraph.
package struct BreakRequest: Sendable {
    package var text: ShapedText
    package var style: ParagraphStyle
    package var plan: FontPlan
    /// The style of an empty paragraph (it has no glyph runs to take one from).
    package var emptyStyle: Int
    package var widths: LineWidths
    /// Where justification may stretch and shrink.
    package var glue = GlueModel()
    /// Hyphenation rules and dictionary (nil: no dictionary hyphenation).
    package var hyphenation: HyphenationRules = HyphenationRules(enabled: false)
    package var hyphenator: Hyphenator?
    /// Lines (by index) that must not end with an added hyphen: the last line of a column,
    /// when hyphenation across columns is off.
    package var unhyphenatedLines: Set<Int> = []
    /// Break only from this byte on, numbering lines from `firstLine` (the lines before are
    /// already set): how the flow re-breaks the rest of a paragraph split across regions.
    package var start = 0
    /// Break only up to byte `end`, where a line of an earlier layout ended, as though the
    /// paragraph went on there (its lines after it stay): nil for the paragraph's end.
    package var end: Int?
    package var firstLine = 0

    package init(
        text: ShapedText, style: ParagraphStyle, plan: FontPlan, emptyStyle: Int, widths: LineWidths,
        glue: GlueModel = GlueModel(), hyphenation: HyphenationRules = HyphenationRules(enabled: false),
        hyphenator: Hyphenator? = nil
    ) {
        self.text = text
        self.style = style
        self.plan = plan
        self.emptyStyle = emptyStyle
        self.widths = widths
        self.glue = glue
        self.hyphenation = hyphenation
        self.hyphenator = hyphenator
    }
}

/// Chooses where a shaped paragraph's lines break. Greedy first-fit and total-fit are two
/// strategies behind this one interface; the flow and the renderer do not know which ran.
package protocol LineBreaker: Sendable {
    func lines(for request: BreakRequest) -> [LineBreak]
}

/// First fit: each line takes as many break opportunities as fit (what a PangoLayout does).
package struct GreedyBreaker: LineBreaker {
    package init() {}

    package func lines(for r: BreakRequest) -> [LineBreak] {
        let t = r.text
        let n = t.length
        var lines: [LineBreak] = []
        if n == 0 {
            lines.append(LineSetter(request: r).line(start: 0, end: 0, hyphen: false, index: 0, isLast: true))
            return lines
        }
        let setter = LineSetter(request: r)
        var opportunities: [Int] = []
        for b in 1...n where t.flags[b].contains(.lineBreak) || b == n { opportunities.append(b) }
        var s = r.start
        var next = opportunities.firstIndex { $0 > s } ?? opportunities.count  // first opportunity after s
        while s < n {
            let index = r.firstLine + lines.count
            let available = setter.available(index)
            var best: Int?
            var j = next
            while j < opportunities.count {
                let b = opportunities[j]
                let hyphen = b < n && t.flags[b].contains(.hyphenBreak)
                let w = setter.fittedWidth(start: s, end: b, hyphen: hyphen, available: available)
                guard w <= available + 1e-6 || setter.trimmed(s, b) == s else { break }
                best = j
                j += 1
                if t.flags[b].contains(.mandatory) { break }
            }
            let end: Int
            let hyphen: Bool
            if let best {
                end = opportunities[best]
                hyphen = end < n && t.flags[end].contains(.hyphenBreak)
                next = best + 1
            } else {
                // Even the first word is too wide: break inside it at the last grapheme that fits,
                // always taking at least one grapheme so every line makes progress.
                let limit = opportunities[next]
                // Never before a space: that would leave a line of only the space.
                func graphemeBreak(_ b: Int) -> Bool { t.flags[b].contains(.charBreak) && !t.flags[b].contains(.white) }
                var g = s + 1
                while g < limit && !graphemeBreak(g) { g += 1 }
                var fit = g
                var c = g
                while c < limit {
                    c += 1
                    while c < limit && !graphemeBreak(c) { c += 1 }
                    if setter.contentWidth(start: s, end: c, hyphen: false) > available + 1e-6 { break }
                    fit = c
                }
                end = fit
                hyphen = false
            }
            var line = setter.line(start: s, end: end, hyphen: hyphen, index: index, isLast: end >= n)
            line.brokenInWord = best == nil && end < n
            lines.append(line)
            s = end
            while next < opportunities.count && opportunities[next] <= s { next += 1 }
        }
        return lines
    }
}

/// Turns a chosen break into a `LineBreak`: trims trailing white space, measures, aligns,
/// justifies, and sizes the line box from the styles on it (never from fallback fonts, so a CJK
/// or emoji glyph does not make one line taller than its neighbours).
package struct LineSetter {
    let request: BreakRequest

    package init(request: BreakRequest) { self.request = request }

    /// Width available to line `index` after its indent.
    package func available(_ index: Int) -> Double {
        max(0, request.widths[index] - indent(index))
    }

    /// The line's indent from the paragraph's leading edge: the paragraph indent, plus the
    /// first-line indent on line 0 (`asked`), kept within the line: not before its edge (a
    /// first line hung past it ran into the gutter, over the column before) and leaving a
    /// quarter of it (one past it set the text off the page). `Flow.warnAbout` says so.
    func indent(_ index: Int) -> Double {
        min(max(0, asked(index)), max(0, request.widths[index] * 0.75))
    }

    /// The indent of line `index` as the paragraph's style gives it.
    func asked(_ index: Int) -> Double {
        request.style.indent + (index == 0 ? request.style.firstLineIndent : 0)
    }

    /// Where the visible content of `start..<end` ends: trailing white space removed.
    package func trimmed(_ start: Int, _ end: Int) -> Int {
        let f = request.text.flags
        var e = end
        while e > start {
            var c = e - 1
            while c > start && !f[c].contains(.charStart) { c -= 1 }
            guard f[c].contains(.white) else { break }
            e = c
        }
        return e
    }

    /// Natural width of the visible content of `start..<end`, with a hyphen when asked: up to
    /// the ink of a last CJK punctuation mark (its blank after is dropped), without the
    /// auto-spacing of a last ideograph before Latin text.
    package func contentWidth(start: Int, end: Int, hyphen: Bool) -> Double {
        let e = trimmed(start, end)
        let t = request.text
        if hyphen { return t.x[e] - t.x[start] + t.hyphenWidth(before: e) }
        return t.x[e] - t.x[start] - t.lineEndMark(e, from: start).trim - t.autoSpace(endingAt: e)
    }

    /// The width of `start..<end` once its punctuation marks have given what they may to fit
    /// `available` (`ShapedText.squeeze`): what the greedy breaker compares with the measure.
    func fittedWidth(start: Int, end: Int, hyphen: Bool, available: Double) -> Double {
        let w = contentWidth(start: start, end: end, hyphen: hyphen)
        return w - squeeze(start, trimmed(start, end), natural: w, available: available, hyphen: hyphen)
    }

    /// What the marks of a line of natural width `natural` give so that it fits `available`.
    func squeeze(_ start: Int, _ contentEnd: Int, natural: Double, available: Double, hyphen: Bool) -> Double {
        let t = request.text
        guard !hyphen, !t.blanks.isEmpty else { return 0 }
        let mark = t.lineEndMark(contentEnd, from: start)
        return t.squeeze(start, contentEnd, over: natural - available, trim: mark.trim, hang: mark.hang)
    }

    /// The glue in `start..<end`, totalled by kind, and its ink (with the hyphen's, when the
    /// line ends in one).
    package func glue(_ start: Int, _ end: Int, hyphen: Bool) -> GlueModel.Totals {
        var totals = GlueModel.Totals()
        let t = request.text
        // Glue at byte b sits before b: a line's own glue is at start+1..<end.
        for b in min(start + 1, end)..<end where request.glue.mayHaveGlue(t.flags[b]) {
            totals.add(request.glue.glue(at: b, in: t))
        }
        totals.ink = request.glue.ink(start, end, in: t)
        if hyphen && totals.ink > 0 { totals.ink += t.hyphenWidth(before: end) }
        return totals
    }

    /// Line box height and baseline position from the styles present on the line.
    func box(_ start: Int, _ end: Int) -> (height: Double, ascent: Double) {
        let t = request.text
        let plan = request.plan
        var above = 0.0
        var below = 0.0
        var pitch = 0.0
        var raised = false
        // How far raised and lowered runs (baseline offset, sup, sub) reach above and below
        // the baseline: their glyphs' room, without their half-leading, which is the line's.
        var reachAbove = 0.0
        var reachBelow = 0.0
        func include(_ style: Int) {
            let s = plan.styles[style]
            let m = plan.metrics[style]
            let h = request.style.leadingRatio * s.size
            let half = (h - (m.ascent + m.descent)) / 2
            pitch = max(pitch, h)
            above = max(above, half + m.ascent)
            below = max(below, h - (half + m.ascent))
            if s.baselineOffset != 0 {
                // Less a fifth of its size: the room a face keeps above its capitals for accents
                // and below its baseline for descenders, which figures and most letters leave
                // empty (a superscript figure within the line's ascent, shifted, stays in it).
                let ink = 0.2 * s.size
                reachAbove = max(reachAbove, m.ascent - ink + max(0, s.baselineOffset))
                reachBelow = max(reachBelow, m.descent - ink + max(0, -s.baselineOffset))
            }
        }
        if t.runs.isEmpty {
            include(request.emptyStyle)
        } else if end <= start {
            // An empty line takes the style of the run it stands in.
            include(Int(t.runs[min(t.firstRun(endingAfter: start), t.runs.count - 1)].style))
        } else {
            for run in t.runs(meeting: start..<end) {
                include(Int(run.style))
            }
        }
        // A raised or lowered run pushes the line apart only when its glyphs reach past the
        // line's room: a superscript or subscript keeps the leading (and the line's place on
        // the baseline grid), as fixed leading does; text at full size raised 3 pt does not.
        if reachAbove > above + 0.01 || reachBelow > below + 0.01 {
            raised = true
            above = max(above, reachAbove)
            below = max(below, reachBelow)
        }
        // Images in the line stand on the baseline, their foot at their descent.
        for a in t.attachments(in: start..<max(end, start + 1)) where a.height > 0 {
            if a.height - a.descent > above || a.descent > below { raised = true }
            above = max(above, a.height - a.descent)
            below = max(below, a.descent)
        }
        // Faces of one size differ a little in how they split the pitch (a bold run, a fallback
        // face): the line keeps the pitch of its sizes, so mixed lines stay on the baseline grid.
        // Only raised or lowered runs and taller images make it taller.
        if !raised && above + below > pitch {
            below = max(0, pitch - above)
        }
        // A fixed line height (`<p lineHeight>`) sets the pitch; the baseline keeps its share.
        if let fixed = request.style.lineHeight, fixed > 0 {
            let extra = (fixed - (above + below)) / 2
            return (fixed, above + extra)
        }
        return (above + below, above)
    }

    /// The line from `start` to `end` (where the next line starts), set to its available width.
    /// `ratio` is the adjustment ratio the breaker chose; nil lets the setter compute it (the
    /// greedy breaker, which does not judge lines).
    package func line(start: Int, end: Int, hyphen: Bool, index: Int, isLast last: Bool, ratio chosen: Double? = nil) -> LineBreak {
        // A line ended by a forced break (`<br>`, U+2028) is set like a paragraph's last line.
        let isLast = last || (end < request.text.length && request.text.flags[end].contains(.mandatory))
        let contentEnd = trimmed(start, end)
        let available = available(index)
        let unsqueezed = contentWidth(start: start, end: end, hyphen: hyphen)
        let squeeze = squeeze(start, contentEnd, natural: unsqueezed, available: available, hyphen: hyphen)
        let natural = unsqueezed - squeeze
        let (height, ascent) = box(start, max(contentEnd, min(end, start + 1)))
        var line = LineBreak(
            start: Int32(start), contentEnd: Int32(contentEnd), end: Int32(end), hyphen: hyphen,
            naturalWidth: natural, availableWidth: available, indent: indent(index), alignOffset: 0,
            ratio: 0, setWidth: natural, height: height, ascent: ascent,
            overfull: false)
        line.squeeze = squeeze
        // A last line is set at its natural width, unless the breaker took it as one that
        // fits by shrinking (which, with expansion rounded to its steps, may leave its spaces
        // a little wider).
        let shrunkLast = natural > available && chosen != nil
        if request.style.alignment == .justify && (!isLast || shrunkLast) {
            // The fit is derived from the line itself (the breaker's choice only picked the
            // break), so the set width is exactly the available width whenever the glue allows.
            let totals = glue(start, contentEnd, hyphen: hyphen)
            var fit = request.glue.fit(totals, slack: available - natural)
            if let chosen, chosen < -1 { (fit.words, fit.letters, fit.cost) = (chosen, chosen, chosen) }
            // A line with no word glue is not letter-spaced past the letters' cap (one long word).
            if !fit.words.isFinite { (fit.words, fit.letters) = (-1, -1) }
            line.set(fit)
            line.setWidth = natural + request.glue.width(totals, at: fit)
        }
        line.overfull = line.setWidth > available + 0.01
        let slack = max(0, available - line.setWidth)
        switch request.style.alignment {
        case .left: break
        // A justified paragraph's last line sits at its leading edge: the right one in RTL text.
        case .justify: line.alignOffset = request.text.rightToLeft ? slack : 0
        case .right: line.alignOffset = slack
        case .center: line.alignOffset = slack / 2
        }
        return line
    }
}
