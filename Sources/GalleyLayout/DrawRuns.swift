import CPango
import GalleySupport

/// A piece of a line ready to draw: glyphs of one font and style, with justification already
/// written into their advances. Made on demand when a page is drawn; nothing is reshaped.
package struct DrawRun: Sendable {
    package var font: FontKey
    /// Index into `Story.styles`.
    package var style: Int
    /// Start of the run from the line's origin (left edge of its content), points.
    package var x: Double
    /// Advance of the whole run, points.
    package var width: Double
    package var glyphs: [PangoGlyphInfo]
    /// Paragraph byte of each glyph's cluster (for the PDF's text mapping).
    package var clusters: [Int32]
    /// Bidi level of the run (odd: right to left).
    package var level: UInt8
    /// The story bytes the run shows (empty for a hyphen added at a break).
    package var storyRange: Range<Int>
    /// True for a hyphen the breaker added.
    package var isHyphen: Bool
    /// Images standing in the run, with their x from the run's start.
    package var attachments: [(attachment: Attachment, x: Double)] = []
    /// Steps of `GlueModel.expansionStep` its glyphs are widened by (the line's expansion):
    /// already in the advances; the renderer scales the glyphs to match.
    package var expansion = 0
}

extension ParagraphLayout {
    /// The runs of line `i` in visual order, justified, with the hyphen at the end when there is one.
    package func drawRuns(line i: Int) -> [DrawRun] {
        let k = i - preparedStart
        return k >= 0 && k < prepared.count ? prepared[k] : makeDrawRuns(line: i)
    }

    /// Makes the runs of line `i` (see `drawRuns(line:)`).
    func makeDrawRuns(line i: Int) -> [DrawRun] {
        let line = lines[i]
        let t = text
        let start = line.start
        let end = line.contentEnd
        var out: [DrawRun] = []
        var levels: [UInt8] = []
        // Justification, in Pango units, rounded cumulatively so the line ends exactly on its edge.
        var exact = 0.0
        var applied: Int32 = 0
        func extra(_ points: Double) -> Int32 {
            exact += points * pangoScale
            let total = Int32(exact.rounded())
            defer { applied = total }
            return total - applied
        }
        let marks = LineMarks(line, t)
        let spaced = line.ratio != 0 || line.letterRatio != 0
        // Expansion widens each glyph of ink by this share of its advance (and its marks'
        // offsets with it), through the same rounding as the spaces.
        let grow = Double(line.expansion) * GlueModel.expansionStep
        let images = grow == 0 ? [] : t.attachments(in: Int(start)..<Int(end)).map { Int($0.byte) }
        for run in t.runs(meeting: Int(start)..<Int(end)) {
            let range = t.glyphs(of: run, in: Int(start)..<Int(end))
            var glyphs: [PangoGlyphInfo] = []
            var clusters: [Int32] = []
            glyphs.reserveCapacity(range.count)
            clusters.reserveCapacity(range.count)
            var inline: [(attachment: Attachment, x: Double)] = []
            var lo = Int32.max
            var hi = Int32.min
            var advance = 0.0
            for g in range {
                let c = t.clusters[g]
                guard c >= start && c < end else { continue }
                var info = t.glyphs[g]
                if grow != 0 && glue.expands(Int(c), in: t, attachment: images.contains(Int(c))) {
                    info.geometry.width += extra(Double(info.geometry.width) / pangoScale * grow)
                    info.geometry.x_offset = Int32((Double(info.geometry.x_offset) * (1 + grow)).rounded())
                }
                if spaced {
                    // A space grows on its own glyph; a gap between wide characters after the
                    // last glyph of the cluster before it. Never after the line's last cluster.
                    let first = g == Int(run.glyphs.lowerBound) || t.clusters[g - 1] != c
                    if first && t.flags[Int(c)].contains(.expandable) {
                        info.geometry.width += extra(adjustment(at: Int(c), line))
                    }
                    let lastOfCluster = g + 1 == Int(run.glyphs.upperBound) || t.clusters[g + 1] != c
                    if lastOfCluster {
                        let next = nextClusterStart(after: Int(c))
                        if next < Int(end) && !t.flags[next].contains(.expandable) {
                            info.geometry.width += extra(adjustment(at: next, line))
                        }
                    }
                }
                if marks.active && t.flags[Int(c)].contains(.punctuationBlank), let m = t.blank(at: Int(c)) {
                    // The blank the mark gives up (the line's last mark all that is after its ink).
                    let (before, after) = marks.cut(m)
                    let cut = -extra(-(before + after))
                    let cutBefore = Int32((before * pangoScale).rounded())
                    PunctuationMarks.cut(&info.geometry, before: cutBefore, after: cut - cutBefore, vertical: t.vertical)
                }
                if info.glyph == 0x0FFF_FFFF, let a = t.attachment(at: Int(c)), a.width > 0 {
                    inline.append((a, advance / pangoScale))
                }
                advance += Double(info.geometry.width)
                glyphs.append(info)
                clusters.append(c)
                lo = min(lo, c)
                hi = max(hi, c)
            }
            guard !glyphs.isEmpty else { continue }
            let width = advance / pangoScale
            let bytesHi = min(Int(run.bytes.upperBound), Int(end))
            out.append(
                DrawRun(
                    font: run.font, style: Int(run.style), x: 0, width: width, glyphs: glyphs, clusters: clusters,
                    level: run.level, storyRange: (t.storyStart + max(Int(lo), Int(run.bytes.lowerBound)))..<(t.storyStart + bytesHi),
                    isHyphen: false, attachments: inline))
            levels.append(run.level)
        }
        if line.hyphen, let last = out.last, var h = t.hyphens[last.font] {
            if grow != 0 && !t.vertical { h.geometry.width += extra(Double(h.geometry.width) / pangoScale * grow) }
            out.append(
                DrawRun(
                    font: last.font, style: last.style, x: 0, width: Double(h.geometry.width) / pangoScale,
                    glyphs: [h], clusters: [Int32(last.storyRange.upperBound - t.storyStart)], level: 0,
                    storyRange: last.storyRange.upperBound..<last.storyRange.upperBound, isHyphen: true))
            levels.append(levels.last ?? 0)
        }
        if line.expansion != 0 {
            for k in out.indices { out[k].expansion = line.expansion }
        }
        reorder(&out, levels: levels)
        var x = 0.0
        for k in out.indices {
            out[k].x = x
            x += out[k].width
        }
        return out
    }

    /// What a line's CJK punctuation marks give up when drawn: the last mark's blank after its
    /// ink, and the share `squeeze / pool` of every mark's blank (and of hanging ink), as
    /// `LineSetter` measured it.
    struct LineMarks {
        let active: Bool
        private let lastMark: Int
        private let share: Double

        init(_ line: LineBreak, _ t: ShapedText) {
            let (start, end) = (Int(line.start), Int(line.contentEnd))
            let mark = line.hyphen ? (trim: 0.0, hang: 0.0) : t.lineEndMark(end, from: start)
            active = !t.blanks.isEmpty && end > start
            var c = end - 1
            while c > start && !t.flags[c].contains(.charStart) { c -= 1 }
            lastMark = mark.trim > 0 || mark.hang > 0 ? c : -1
            let pool = active ? t.blankSums[end] - t.blankSums[start] - mark.trim + mark.hang : 0
            share = pool > 0 ? min(1, line.squeeze / pool) : 0
        }

        /// The blank mark `m` gives before and after its ink, points.
        func cut(_ m: PunctuationBlank) -> (before: Double, after: Double) {
            if Int(m.byte) == lastMark { return (share * m.left, m.right + share * m.hang) }
            return (share * m.left, share * m.right)
        }
    }

    /// What the glue at byte `b` adds to line `line` (see `GlueModel`).
    private func adjustment(at b: Int, _ line: LineBreak) -> Double {
        glue.adjustment(at: b, in: text, words: line.ratio, letters: line.letterRatio)
    }

    /// The byte where the cluster after the one starting at `c` starts.
    private func nextClusterStart(after c: Int) -> Int {
        var b = c + 1
        while b < text.length && !text.flags[b].contains(.clusterStart) { b += 1 }
        return b
    }

    /// Unicode bidi rule L2: from the highest level down to the lowest odd one, reverse every
    /// maximal sequence of runs at that level or higher.
    private func reorder(_ runs: inout [DrawRun], levels: [UInt8]) {
        guard let maxLevel = levels.max(), maxLevel > 0 else { return }
        let lowestOdd = levels.filter { $0 % 2 == 1 }.min() ?? maxLevel
        var lv = levels
        var level = maxLevel
        while level >= max(1, lowestOdd) {
            var i = 0
            while i < runs.count {
                if lv[i] >= level {
                    var j = i
                    while j < runs.count && lv[j] >= level { j += 1 }
                    runs[i..<j].reverse()
                    lv[i..<j].reverse()
                    i = j
                } else {
                    i += 1
                }
            }
            level -= 1
        }
    }
}
