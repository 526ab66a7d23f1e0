import GalleyStory
import GalleyTemplate
import GalleySupport

/// Typographic figures of a laid-out document, computed from the layout itself: how loose and
/// tight the justified lines are, hyphenation, widows, orphans and stranded headings.
public struct LayoutStatistics: Sendable, Codable {
    /// Justified lines measured (not a paragraph's last line, at least one space).
    public var justifiedLines = 0
    /// Lines whose widest space is over 1.5× / 2× the font's natural space.
    public var looseLines = 0
    public var veryLooseLines = 0
    /// Lines whose narrowest space is under 0.8× the natural space.
    public var tightLines = 0
    /// Justified lines with gaps between wide (CJK) characters, measured by those gaps: loose
    /// when the widest grows by more than a tenth of an em, very loose by more than a quarter,
    /// tight when one shrinks by more than a fiftieth.
    public var cjkJustifiedLines = 0
    public var cjkLooseLines = 0
    public var cjkVeryLooseLines = 0
    public var cjkTightLines = 0
    /// Widest space ÷ natural space of each justified line (for percentiles).
    public var widest: [Double] = []
    public var lines = 0
    public var hyphenatedLines = 0
    /// Longest run of consecutive lines ending in a hyphen.
    public var longestHyphenRun = 0
    /// A paragraph's last line alone at the top of a column; its first line alone at the foot.
    public var widows = 0
    public var orphans = 0
    /// Headings that are the last thing in a column with text after them.
    public var headingsAtFoot = 0
    public var overfullLines = 0
    /// Characters drawn as boxes, no face having them.
    public var missingGlyphs = 0
    public var pages = 0
    /// Columns left more than three lines short, with their causes (when a leading is given).
    public var shortColumns: [ShortColumn] = []
    /// The justified lines' figures by the width of the column they are in, widest first: a
    /// document in two and three columns (an issue, a sidebar) is judged measure by measure.
    public var measures: [Measure] = []

    /// Loose, very loose and tight lines of one measure.
    public struct Measure: Sendable, Codable {
        /// The column's width, points (to a tenth).
        public var width: Double
        public var justifiedLines = 0
        public var looseLines = 0
        public var veryLooseLines = 0
        public var tightLines = 0
    }

    private var hyphenRun = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case justifiedLines, looseLines, veryLooseLines, tightLines, lines, hyphenatedLines, longestHyphenRun
        case widows, orphans, headingsAtFoot, overfullLines, missingGlyphs, pages, shortColumns
        case cjkJustifiedLines, cjkLooseLines, cjkVeryLooseLines, cjkTightLines, measures
    }

    public var loose: Double { share(looseLines) }
    public var veryLoose: Double { share(veryLooseLines) }
    public var tight: Double { share(tightLines) }
    public var hyphenated: Double { lines == 0 ? 0 : Double(hyphenatedLines) / Double(lines) }
    /// 95th percentile of widest space ÷ natural space.
    public var widestP95: Double {
        guard !widest.isEmpty else { return 0 }
        let s = widest.sorted()
        return s[min(s.count - 1, Int((Double(s.count) * 0.95).rounded(.down)))]
    }

    private func share(_ n: Int) -> Double { justifiedLines == 0 ? 0 : Double(n) / Double(justifiedLines) }

    /// Adds a page's lines; with the body `leading`, its short columns too.
    public mutating func add(_ page: Page, story: Story, leading: Double? = nil) {
        pages += 1
        if let leading { shortColumns += Self.shortColumns(page, story: story, leading: leading) }
        for (f, frame) in page.frames.enumerated() {
            let measure = measureIndex((frame.rect.width * 10).rounded() / 10)
            // A heading across the columns has the bands it heads under it: it stands at a
            // foot only as the page's last frame.
            let atFoot = !frame.spansColumns || f == page.frames.count - 1
            for (k, placed) in frame.lines.enumerated() {
                lines += 1
                let l = placed.paragraph
                let line = l.lines[placed.lineIndex]
                if line.overfull { overfullLines += 1 }
                l.text.missingCharacters(in: Int(line.start)..<Int(line.end)) { _, _ in missingGlyphs += 1 }
                if line.hyphen {
                    hyphenatedLines += 1
                    hyphenRun += 1
                    longestHyphenRun = max(longestHyphenRun, hyphenRun)
                } else {
                    hyphenRun = 0
                }
                let paragraphLines = l.lines.count
                let p = story.paragraphs[placed.paragraphIndex]
                if k == 0 && placed.lineIndex > 0 && placed.lineIndex == paragraphLines - 1 { widows += 1 }
                if k == frame.lines.count - 1 && placed.lineIndex == 0 && paragraphLines > 1 { orphans += 1 }
                if atFoot && k == frame.lines.count - 1 && p.style.isHeading && placed.lineIndex == paragraphLines - 1
                    && placed.paragraphIndex + 1 < story.paragraphs.count && frame.images.allSatisfy({ $0.rect.y < placed.box.y })
                {
                    headingsAtFoot += 1
                }
                measureSpaces(l, line, isLast: placed.lineIndex == paragraphLines - 1, style: p.style, measure: measure)
            }
        }
    }

    /// The index of the measure `width` in `measures`, added (kept widest first) when new.
    private mutating func measureIndex(_ width: Double) -> Int {
        if let i = measures.firstIndex(where: { $0.width == width }) { return i }
        let i = measures.firstIndex { $0.width < width } ?? measures.count
        measures.insert(Measure(width: width), at: i)
        return i
    }

    private mutating func measureSpaces(_ l: ParagraphLayout, _ line: LineBreak, isLast: Bool, style: ParagraphStyle, measure: Int) {
        guard style.alignment == .justify, !isLast else { return }
        let t = l.text
        var widestRatio = 0.0
        var narrowest = Double.infinity
        // Between wide characters: the most a gap grew and shrank, in ems of the character before.
        var widestGap = -Double.infinity
        var narrowestGap = Double.infinity
        var b = Int(line.start)
        let end = Int(line.contentEnd)
        while b < end {
            if t.flags[b].contains(.expandable) {
                var n = b + 1
                while n < t.length && !t.flags[n].contains(.charStart) { n += 1 }
                let natural = t.x[n] - t.x[b]
                if natural > 0 {
                    let set = natural + l.glue.adjustment(at: b, in: t, words: line.ratio, letters: line.letterRatio)
                    widestRatio = max(widestRatio, set / natural)
                    narrowest = min(narrowest, set / natural)
                }
            } else if b > Int(line.start), let gap = wideGap(l, at: b, line) {
                widestGap = max(widestGap, gap)
                narrowestGap = min(narrowestGap, gap)
            }
            b += 1
        }
        if narrowestGap.isFinite {
            cjkJustifiedLines += 1
            if widestGap > 0.1 { cjkLooseLines += 1 }
            if widestGap > 0.25 { cjkVeryLooseLines += 1 }
            if narrowestGap < -0.02 { cjkTightLines += 1 }
        }
        guard narrowest.isFinite else { return }
        justifiedLines += 1
        widest.append(widestRatio)
        measures[measure].justifiedLines += 1
        if widestRatio > 1.5 {
            looseLines += 1
            measures[measure].looseLines += 1
        }
        if widestRatio > 2 {
            veryLooseLines += 1
            measures[measure].veryLooseLines += 1
        }
        if narrowest < 0.8 {
            tightLines += 1
            measures[measure].tightLines += 1
        }
    }

    /// What the gap between wide characters at byte `b` adds, in ems of the character before
    /// it (its advance); nil when there is no such gap.
    private func wideGap(_ l: ParagraphLayout, at b: Int, _ line: LineBreak) -> Double? {
        let t = l.text
        let g = l.glue.glue(at: b, in: t)
        guard !g.isLetter, g.stretch > 0 else { return nil }
        let width = g.stretch / l.glue.wideStretch
        guard width > 0 else { return nil }
        return l.glue.adjustment(at: b, in: t, words: line.ratio, letters: line.letterRatio) / width
    }

    /// One line for each measure when there are several, e.g. "  in 158.7 pt columns: 812
    /// lines, loose 9 %, …"; nothing for one.
    var byMeasure: String {
        let kept = measures.filter { $0.justifiedLines > 0 }
        guard kept.count > 1 else { return "" }
        return kept.map { m in
            func pct(_ n: Int) -> String { format1(Double(n) / Double(m.justifiedLines) * 100) + " %" }
            return "  in \(format1(m.width)) pt columns: \(m.justifiedLines) lines, loose \(pct(m.looseLines)), "
                + "very loose \(pct(m.veryLooseLines)), tight \(pct(m.tightLines))\n"
        }.joined()
    }

    public var cjkLoose: Double { cjkShare(cjkLooseLines) }
    public var cjkVeryLoose: Double { cjkShare(cjkVeryLooseLines) }
    public var cjkTight: Double { cjkShare(cjkTightLines) }
    private func cjkShare(_ n: Int) -> Double { cjkJustifiedLines == 0 ? 0 : Double(n) / Double(cjkJustifiedLines) }

    /// A few lines for people.
    public var summary: String {
        func pct(_ v: Double) -> String { String(format1(v * 100)) + " %" }
        return """
            justified lines \(justifiedLines): loose \(pct(loose)), very loose \(pct(veryLoose)), tight \(pct(tight)), widest space p95 \(format2(widestP95))× natural

            """ + byMeasure + """
            CJK justified lines \(cjkJustifiedLines) (by the gaps between characters): loose \(pct(cjkLoose)), very loose \(pct(cjkVeryLoose)), tight \(pct(cjkTight))
            hyphenated lines \(pct(hyphenated)), longest run \(longestHyphenRun); widows \(widows), orphans \(orphans), headings at a column foot \(headingsAtFoot), overfull lines \(overfullLines), missing glyphs \(missingGlyphs)
            short columns (more than 3 lines): \(shortColumns.isEmpty ? "none" : String(shortColumns.count))

            """ + shortColumns.map { "  page \($0.page) column \($0.column): \($0.lines) lines short: \($0.cause)\n" }.joined()
    }
}

func format1(_ v: Double) -> String {
    let r = (v * 10).rounded() / 10
    return String(r)
}

func format2(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    return String(r)
}
