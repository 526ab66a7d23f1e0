import CPango
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import GalleySupport

/// Per-byte facts about a paragraph's text, from Pango's log attributes and the shaped glyphs.
package struct ByteFlags: OptionSet, Sendable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }
    /// A Unicode scalar starts here.
    package static let charStart = ByteFlags(rawValue: 1)
    /// The character here is white space (trimmed at a line end).
    package static let white = ByteFlags(rawValue: 2)
    /// The character here is a space that justification may stretch.
    package static let expandable = ByteFlags(rawValue: 4)
    /// A line may break before this byte (UAX #14).
    package static let lineBreak = ByteFlags(rawValue: 8)
    /// A line must break before this byte.
    package static let mandatory = ByteFlags(rawValue: 16)
    /// A grapheme starts here: the last resort for breaking a word wider than the line.
    package static let charBreak = ByteFlags(rawValue: 32)
    /// A glyph cluster starts here: `ParagraphLayout.x` is exact here.
    package static let clusterStart = ByteFlags(rawValue: 64)
    /// Breaking before this byte shows a hyphen (after a soft hyphen, or a hyphenation point).
    package static let hyphenBreak = ByteFlags(rawValue: 128)
    /// The hyphenation point here comes from the dictionary (used only when breaking without
    /// hyphenation fails, like TeX's second pass); soft hyphens are always usable.
    package static let dictionaryHyphen = ByteFlags(rawValue: 256)
    /// A word starts / ends here (Pango's word boundaries), for the hyphenator.
    package static let wordStart = ByteFlags(rawValue: 512)
    package static let wordEnd = ByteFlags(rawValue: 1024)
    /// The character here is East Asian wide (Han, kana, Hangul, CJK punctuation, fullwidth forms):
    /// justification may space it from its neighbours.
    package static let wide = ByteFlags(rawValue: 2048)
    /// A CJK punctuation mark with blank left in its em box starts here (`ShapedText.blanks`).
    package static let punctuationBlank = ByteFlags(rawValue: 4096)
    /// A digit of a number set upright as one unit in vertical text (縦中横).
    package static let uprightUnit = ByteFlags(rawValue: 8192)
}

/// Consecutive glyphs of one Pango item: one font, one story style, one bidi level.
package struct GlyphRun: Sendable {
    package var font: FontKey
    /// Index into `Story.styles`.
    package var style: Int32
    /// Bidi embedding level (odd = right to left).
    package var level: UInt8
    /// Range in the paragraph's glyph arrays.
    package var glyphs: Range<Int32>
    /// Range in the paragraph's bytes.
    package var bytes: Range<Int32>
}

/// One line of a paragraph, as chosen by the line breaker.
package struct LineBreak: Sendable, Equatable {
    /// Paragraph byte where the line starts.
    package var start: Int32
    /// Where its visible content ends (trailing white space excluded).
    package var contentEnd: Int32
    /// Where the next line starts.
    package var end: Int32
    /// The line ends with a hyphen that is not in the text.
    package var hyphen: Bool
    /// Width of the content at natural spacing, hyphen included, points.
    package var naturalWidth: Double
    /// The width the line was broken to, points.
    package var availableWidth: Double
    /// Offset of the line box from the region's left edge (indents), points.
    package var indent: Double
    /// Where the content starts inside the line box (alignment), points.
    package var alignOffset: Double
    /// Adjustment ratio of the line's word glue (TeX's r): each space, or gap between wide
    /// characters, grows by r × its stretch when r > 0, or shrinks by r × its shrink when
    /// r < 0. 0 sets the line at its natural width.
    package var ratio: Double
    /// Width of the line as set, points.
    package var setWidth: Double
    /// Line box height (pitch) and the baseline's distance from its top, points.
    package var height: Double
    package var ascent: Double
    /// The content is wider than the available width (a word that could not be broken to fit).
    package var overfull: Bool
    /// The line ends inside a word, with no hyphen: the word is wider than the line.
    package var brokenInWord = false
    /// What the line's punctuation marks gave up so that it fits (clreq's compression before
    /// the ideographs are squeezed), points; already out of `naturalWidth`.
    package var squeeze = 0.0
    /// The same for the glue between the letters of words, from −1 to 1 (see `GlueModel.Fit`).
    package var letterRatio = 0.0
    /// Steps of `GlueModel.expansionStep` by which the line's glyphs are widened (negative:
    /// narrowed).
    package var expansion = 0

    /// Sets the line's spacing and expansion to `fit`.
    mutating func set(_ fit: GlueModel.Fit) {
        ratio = fit.words
        letterRatio = fit.letters
        expansion = fit.steps
    }

    /// The factor the line's glyphs are scaled by horizontally.
    package var expansionScale: Double { 1 + Double(expansion) * GlueModel.expansionStep }
}

/// A paragraph shaped once: glyphs, their clusters, and per-byte widths and break facts.
/// Everything the line breaker and the renderer need, with no Pango object in it, so it moves
/// freely between threads.
package struct ShapedText: Sendable {
    /// Index of the paragraph in the story.
    package var index: Int
    /// Story byte offset of the paragraph's first byte.
    package var storyStart: Int
    /// Paragraph length in bytes (its terminator excluded).
    package var length: Int
    /// The paragraph's UTF-8 text (for the hyphenator and the space factor).
    package var bytes: [UInt8]
    package var glyphs: [PangoGlyphInfo]
    /// Paragraph byte of each glyph's cluster.
    package var clusters: [Int32]
    package var runs: [GlyphRun]
    /// `x[b]`: width of the text before byte b at natural spacing, points (exact at cluster starts).
    package var x: [Double]
    package var flags: [ByteFlags]
    /// The hyphen glyph of each font in the paragraph that may need one.
    package var hyphens: [FontKey: PangoGlyphInfo]
    /// The paragraph's base direction is right to left.
    package var rightToLeft = false
    /// Set in a vertical line (`<vertical>`): wide characters and upright units are drawn
    /// upright, the rest turned (see `VerticalText.swift`).
    package var vertical = false
    /// Images standing in the text (inline attachments, and float anchors of no width).
    package var attachments: [Attachment] = []
    /// The paragraph's first letter set as an initial beside its first lines; nil for none.
    package var dropCap: DropCap?
    /// The CJK punctuation marks that keep blank a line may give up, by byte (see
    /// `PunctuationCompression.swift`); empty for most paragraphs.
    package var blanks: [PunctuationBlank] = []
    /// `blankSums[b]`: the blank of the marks before byte b, so a line's costs O(1); empty
    /// when `blanks` is.
    package var blankSums: [Double] = []
    /// The CJK/Latin auto-spacing, by the byte it stands before (the width rides on the glyph
    /// before it): a line ending there drops it, as it drops a space. In byte order; empty
    /// without `cjkAutoSpacing`.
    package var autoSpaces: [(byte: Int32, width: Double)] = []

    /// The auto-spacing a line whose content ends at `end` drops (0 for none).
    @inline(__always)
    package func autoSpace(endingAt end: Int) -> Double {
        guard !autoSpaces.isEmpty else { return 0 }
        let k = autoSpaces.partitionPoint { Int($0.byte) >= end }
        return k < autoSpaces.count && Int(autoSpaces[k].byte) == end ? autoSpaces[k].width : 0
    }

    /// Width of the hyphen drawn after byte `b` (in the font of the run holding b - 1).
    package func hyphenWidth(before b: Int) -> Double {
        guard let run = run(containing: max(0, b - 1)), let g = hyphens[run.font] else { return 0 }
        return Double(g.geometry.width) / pangoScale
    }

    /// The byte at `b`, nil past the end.
    @inline(__always) package func byte(_ b: Int) -> UInt8? { b < bytes.count ? bytes[b] : nil }

    /// The runs whose bytes meet `range`, in logical order: found by binary search, so a line
    /// of a paragraph with thousands of style runs costs only its own runs.
    package func runs(meeting range: Range<Int>) -> ArraySlice<GlyphRun> {
        let lo = firstRun(endingAfter: range.lowerBound)
        var end = lo
        while end < runs.count && Int(runs[end].bytes.lowerBound) < range.upperBound { end += 1 }
        return runs[lo..<end]
    }

    /// The glyphs of `run` whose clusters lie in `range`. A run's clusters are monotonic (rising
    /// left to right, falling right to left), so two binary searches find them.
    package func glyphs(of run: GlyphRun, in range: Range<Int>) -> Range<Int> {
        let rtl = run.level % 2 == 1
        let own = clusters[Int(run.glyphs.lowerBound)..<Int(run.glyphs.upperBound)]
        // The first glyph of the run for which `past(cluster)` holds (it holds for a suffix).
        func first(_ past: (Int) -> Bool) -> Int { own.partitionPoint { past(Int($0)) } }
        let lower = rtl ? first { $0 < range.upperBound } : first { $0 >= range.lowerBound }
        let upper = rtl ? first { $0 < range.lowerBound } : first { $0 >= range.upperBound }
        return lower..<max(lower, upper)
    }

    /// The index of the first run that ends after byte `b` (`runs.count` when none does).
    package func firstRun(endingAfter b: Int) -> Int {
        runs.partitionPoint { Int($0.bytes.upperBound) > b }
    }

    /// The attachments standing at bytes in `range` (attachments are sorted by byte).
    package func attachments(in range: Range<Int>) -> ArraySlice<Attachment> {
        let lo = attachments.partitionPoint { Int($0.byte) >= range.lowerBound }
        let end = attachments[lo...].partitionPoint { Int($0.byte) >= range.upperBound }
        return attachments[lo..<end]
    }

    /// The attachment standing at byte `b`.
    package func attachment(at b: Int) -> Attachment? { attachments(in: b..<(b + 1)).first }

    /// The glyph run whose bytes contain `b`.
    package func run(containing b: Int) -> GlyphRun? {
        let lo = firstRun(endingAfter: b)
        return lo < runs.count && runs[lo].bytes.contains(Int32(b)) ? runs[lo] : nil
    }
}

/// A shaped paragraph with its lines: what the framesetter places and the renderer draws.
/// Immutable; shared between threads by reference, freed when the last page holding it is drawn.
package final class ParagraphLayout: Sendable {
    package let text: ShapedText
    /// The lines, for the widths they were broken to.
    package let lines: [LineBreak]
    /// The glue model the lines were justified with.
    package let glue: GlueModel
    /// The widths the lines were broken to.
    package let widths: LineWidths
    /// Lines barred from ending in a hyphen when the paragraph was broken (see `Flow`).
    package let unhyphenated: Set<Int>
    /// The draw runs of lines `preparedStart...`, made ahead on another thread than the one
    /// that draws (see `preparingDrawing`).
    let prepared: [[DrawRun]]
    let preparedStart: Int
    /// What the renderer made ahead for the prepared runs (see `DrawingPreparation`); nil
    /// when no run was prepared.
    package let preparedForDrawing: PreparedDrawing?

    package init(
        text: ShapedText, lines: [LineBreak], glue: GlueModel, widths: LineWidths, unhyphenated: Set<Int> = [],
        prepared: [[DrawRun]] = [], preparedStart: Int = 0, preparedForDrawing: PreparedDrawing? = nil
    ) {
        self.text = text
        self.lines = lines
        self.glue = glue
        self.widths = widths
        self.unhyphenated = unhyphenated
        self.prepared = prepared
        self.preparedStart = preparedStart
        self.preparedForDrawing = preparedForDrawing
    }

    /// The same paragraph with the draw runs of every line made now: a shaping thread does this
    /// for a PDF build, so that the drawing thread, the one that bounds the build, finds them
    /// made. (Lines broken again later are made when drawn.)
    package func preparingDrawing() -> ParagraphLayout {
        ParagraphLayout(
            text: text, lines: lines, glue: glue, widths: widths, unhyphenated: unhyphenated,
            prepared: lines.indices.map { makeDrawRuns(line: $0) }, preparedForDrawing: PreparedDrawing())
    }

    /// The same paragraph with the draw runs of lines `range` made now (the lines of it one
    /// page holds: see `DrawAhead`); `forDrawing`, with room for the renderer's work on them.
    package func preparingDrawing(lines range: Range<Int>, forDrawing: Bool = false) -> ParagraphLayout {
        let range = range.clamped(to: lines.indices)
        return ParagraphLayout(
            text: text, lines: lines, glue: glue, widths: widths, unhyphenated: unhyphenated,
            prepared: range.map { makeDrawRuns(line: $0) }, preparedStart: range.lowerBound,
            preparedForDrawing: forDrawing ? PreparedDrawing() : nil)
    }

    package var index: Int { text.index }
    package var storyStart: Int { text.storyStart }
    /// The number of lines whose draw runs were made ahead.
    package var preparedLines: Int { prepared.count }
    /// The lines whose draw runs were made ahead.
    package var preparedLineRange: Range<Int> { preparedStart..<preparedStart + prepared.count }
}

/// Work a renderer does ahead for a paragraph's prepared draw runs, on the shaping thread that
/// prepared them, with that thread's engine (its fonts): in a PDF build, the shadow masks.
/// Stored in the paragraph's `preparedForDrawing` before the paragraph is handed over.
package typealias DrawingPreparation = @Sendable (ParagraphLayout, TextEngine) -> Void

/// Objects a renderer made ahead for a paragraph's draw runs, by line and run index (in the
/// order of `drawRuns(line:)`). Written by the shaping thread before the paragraph is handed
/// over, read by the drawing thread after: the pipeline's lock orders the two.
package final class PreparedDrawing: @unchecked Sendable {
    private var objects: [Int: [Int: AnyObject]] = [:]

    package init() {}

    package subscript(line: Int, run: Int) -> AnyObject? {
        get { objects[line]?[run] }
        set { objects[line, default: [:]][run] = newValue }
    }
}

extension Range where Bound == Int {
    /// These UTF-8 byte offsets as indices of `s.utf8`.
    func asUTF8Indices(in s: String) -> Range<String.Index> {
        let u = s.utf8
        let a = u.index(u.startIndex, offsetBy: lowerBound)
        return a..<u.index(a, offsetBy: count)
    }
}
