import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate

/// A page-wide float: placed on a page across its columns, with the exclusion it makes.
struct PageFloat {
    var placed: PlacedImage
    var exclusion: Exclusion
    /// Its caption was cut to the room it was given.
    var captionCut = false
}

/// A `<vertical>` block in a column: its top and height, the width its paragraphs took from
/// the right, the column's x, the last paragraph set in it and the one that opened it (where
/// what is said of the block is said).
struct VerticalBlock {
    var top: Double
    var height: Double
    var used: Double
    var x: Double
    var paragraph: Int
    var first: Int
    var bottom: Double { top + height }
}

/// Where one line of a vertical block goes: its strip (counted from the block's right, in
/// pitches, from what the block had used), the strip's right edge, and the free stretch of the
/// strip it runs down.
struct VerticalSlot {
    var strip: Int
    var right: Double
    var top: Double
    var length: Double
}

/// The state of the flow between regions (Typst's `Work`): the next paragraph, the next line of
/// a paragraph split across regions, and the floats waiting for room. A value: the framesetter
/// keeps a copy from the start of a page and lays the page out again when a page-wide float
/// turns up in it.
struct Flow {
    /// The story laid out (a page start kept from the build before an edit is given the new
    /// story: see `PageStarts`).
    var story: Story
    let template: Template
    let file: String
    var paragraph = 0
    var line = 0
    /// The paragraph being split across regions, kept so it is not shaped again.
    var current: ParagraphLayout?
    var diagnostics = Diagnostics()
    /// Breaks a paragraph again from a line on, with new widths and lines barred from a hyphen.
    var rebreak: ((ParagraphLayout, Int, LineWidths, Set<Int>) -> ParagraphLayout)?
    /// Float sizes, captions and outlines.
    var figures: Figures?
    /// Where a line on the baseline grid has its baseline, below its top (`Framesetter.gridAscent`).
    var gridAscent: Double?
    /// Paragraphs already warned about for breaking inside a word (one warning each).
    var warnedInWord: Set<Int> = []
    /// Characters warned about as drawn by no face, and the last paragraph looked at for them
    /// (paragraphs are placed in order; see `warnAboutMissingGlyphs`).
    var warnedMissing: Set<UInt32> = []
    var missingGlyphsScanned = -1
    /// The vertical block being set in this column: its paragraphs go on right to left.
    var verticalBlock: VerticalBlock?
    /// Vertical paragraphs warned about for lines wider than their column.
    var warnedTooWide: Set<Int> = []
    /// Vertical blocks (by the paragraph that opened them) that could not have their `height`,
    /// cut at the column's foot or beside floats, warned about.
    var warnedTooTall: Set<Int> = []
    /// Vertical paragraphs warned about for lines longer than their block is tall.
    var warnedTooShort: Set<Int> = []
    /// Paragraphs whose indent did not fit their lines, warned about.
    var warnedIndent: Set<Int> = []
    /// Paragraphs that asked for a drop cap they could not have, warned about.
    var warnedNoDropCap: Set<Int> = []
    /// Paragraph layouts taken early (a heading looks at what follows it).
    var lookahead: [Int: ParagraphLayout] = [:]
    /// Images already placed (floats are met again when a page is laid out again).
    var placed: Set<Int> = []
    /// Column floats that did not fit where they were met: they open the next column.
    var deferred: [Int] = []
    /// A trial of `balance` is laid out: a pull quote or sidebar the story's text ends before
    /// is left waiting, neither set under the text nor widened (`placeBlocksLeftAtTheEnd`,
    /// `fill`: the last resorts of the layout at full height), so that balancing finds a height
    /// at which it stands beside text, or keeps the layout as it was.
    var balancing = false
    /// A trial of `balance` above an element across the columns, where the widows and orphans
    /// rules left a column empty beside text: a paragraph may be split after any line.
    var splitsFreely = false
    /// Pull quotes and sidebars set at the head of the column where the story's text ends, as
    /// wide as the column (cut to the room there when even so longer): there was no room for
    /// them under the text, and they would have stood alone in a column of no text (`fill`).
    var widened: Set<Int> = []
    /// The paragraphs of block images that did not fit the rest of their column while text
    /// followed them: they open the next column (template `blockImages: "defer"`).
    var deferredBlocks: [Int] = []
    /// How many times a column float or block image was deferred from where it was met (a balanced
    /// band may move one on to the next column: `reached` asks only that it be placed in the band);
    /// part of the state a page start of the layout before an edit must share (`continues`).
    var deferrals = 0
    /// The page-wide floats of this page, and those waiting for the next one.
    var pageFloats: [PageFloat] = []
    var deferredPage: [Int] = []
    /// The page is composed for the last time: a page-wide float met now waits for the next
    /// page rather than asking for the page to be laid out again.
    var pageFloatsWait = false
    /// The farthest story byte the attempts at this page and those before it depended on
    /// (an attempt laid out again for a page-wide float met in it saw the text up to that
    /// float): part of `reach`, so an edit there lays the page out again.
    var reachedInAttempts = 0
    /// The text area of a page (all columns).
    var textArea = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Where the band of columns being filled starts (below what spans the columns above it).
    var bandTop = 0.0
    /// The page's columns, left to right.
    var columns: [Rect] = []

    init(story: Story, template: Template, file: String) {
        self.story = story
        self.template = template
        self.file = file
    }

    var finished: Bool {
        paragraph >= story.paragraphs.count && deferred.isEmpty && deferredPage.isEmpty && deferredBlocks.isEmpty
    }

    /// `kept`, a page start of the layout before an edit (`PageStarts`), set in this flow's
    /// story with its paragraph breaking and figures.
    func resumed(from kept: Flow) -> Flow {
        var f = kept
        f.story = story
        f.rebreak = rebreak
        f.figures = figures
        return f
    }

    /// The last story byte this state depends on: where the flow stands, and the ends of the
    /// paragraphs it holds laid out (the one split across regions, those looked ahead at).
    var reach: Int {
        var r = max(position, reachedInAttempts)
        let held = lookahead.keys.max().map { max($0, current == nil ? 0 : paragraph) } ?? (current == nil ? nil : paragraph)
        if let held, held < story.paragraphs.count { r = max(r, story.paragraphs[held].range.upperBound) }
        return r
    }

    /// Story byte where the flow stands.
    var position: Int {
        guard paragraph < story.paragraphs.count else { return story.text.utf8.count }
        if let current, line > 0 { return current.storyStart + Int(current.lines[line].start) }
        return story.paragraphs[paragraph].range.lowerBound
    }

    // MARK: paragraphs

    /// The layout of paragraph `i`, from the look-ahead or the shaper.
    mutating func take(_ i: Int, _ layout: (Int) -> ParagraphLayout?) -> ParagraphLayout? {
        if let l = lookahead.removeValue(forKey: i) { return l }
        return layout(i)
    }

    /// The layout of paragraph `i` without consuming it.
    mutating func peek(_ i: Int, _ layout: (Int) -> ParagraphLayout?) -> ParagraphLayout? {
        if i == paragraph, let current { return current }
        if let l = lookahead[i] { return l }
        let l = layout(i)
        lookahead[i] = l
        return l
    }

    /// Where a line whose box would start at `y` starts: body lines snap down to the baseline
    /// grid of the region (so all columns share baselines); other lines stay where they are.
    func top(height: Double, at y: Double, gridTop: Double) -> Double {
        let pitch = template.body.leading
        guard template.baselineGrid, abs(height - pitch) < 0.01 else { return y }
        let k = ((y - gridTop) / pitch - 1e-6).rounded(.up)
        return gridTop + max(0, k) * pitch
    }

    /// Height from `y` down to the end of paragraph `i`'s first `count` lines.
    func linesBottom(_ l: ParagraphLayout, from first: Int, count: Int, at y: Double, gridTop: Double) -> Double {
        var y = y
        for k in first..<min(l.lines.count, first + count) {
            y = top(height: l.lines[k].height, at: y, gridTop: gridTop) + l.lines[k].height
        }
        return y
    }

    /// Where a heading starting at `y` and what it must keep with end: the heading's lines, then
    /// the first lines of the next paragraph (at least `keepWithNext`, and the orphans rule), or
    /// the next image; a chain of headings is kept together.
    mutating func keptBottom(from i: Int, at y: Double, rect: Rect, depth: Int, _ layout: (Int) -> ParagraphLayout?) -> Double {
        guard i < story.paragraphs.count else { return y }
        let p = story.paragraphs[i]
        switch p.content {
        case .image(let n):
            guard story.images[n].placement == .block else { return y }
            let size = blockImageSize(story.images[n], column: rect.width, height: rect.height)
            return y + size.h + size.caption
        case .text:
            guard let l = peek(i, layout) else { return y }
            if p.style.isHeading && depth < 4 {
                let end = linesBottom(l, from: 0, count: l.lines.count, at: y, gridTop: rect.y) + p.style.spacingAfter
                return keptBottom(from: i + 1, at: end, rect: rect, depth: depth + 1, layout)
            }
            // The lines that must come along: all of a paragraph too short to split under the
            // widows and orphans rules, else the first `keepWithNext` (at least the orphans).
            let n = l.lines.count
            let keep = n < template.orphans + template.widows ? n : max(template.keepWithNext, template.orphans)
            let bottom = linesBottom(l, from: 0, count: keep, at: y, gridTop: rect.y)
            // A drop cap comes along whole.
            guard let dropCap = l.text.dropCap, let first = l.lines.first else { return bottom }
            return max(bottom, dropCap.foot(top: top(height: first.height, at: y, gridTop: rect.y), first: first))
        }
    }

    // MARK: floats

    /// Starts a page: page-wide floats waiting from the last page go to its top.
    mutating func startPage(textArea: Rect, columns: [Rect] = []) {
        self.textArea = textArea
        self.columns = columns.isEmpty ? [textArea] : columns
        bandTop = textArea.y
        pageFloats = []
        pageFloatsWait = false
        let waiting = deferredPage
        deferredPage = []
        // With the text all set, the page holds floats alone: a bottom one goes to the top too,
        // rather than under an empty page.
        let floatsAlone = paragraph >= story.paragraphs.count && current == nil
        for i in waiting { _ = placePageFloat(i, at: textArea.y, forceTop: true, floatsAlone: floatsAlone) }
    }

    /// Places an image across the columns: at the top or foot of the text area, or (`span`) at
    /// `y`, centred across the gutters; a `span` with no room left at `y` goes to the top of
    /// the page, or its foot. Defers it to the next page when it does not fit here. On a page of
    /// floats alone (`floatsAlone`) every float goes to the top, below those placed before it.
    mutating func placePageFloat(
        _ i: Int, at y: Double, column: Rect? = nil, forceTop: Bool = false, floatsAlone: Bool = false
    ) -> Bool {
        guard let figures else { return false }
        let image = story.images[i]
        let area = textArea
        // A sidebar at the top goes in its column (the first, when it waited for a page; one at
        // the foot is a float of its column, `placement(of:)`, and never comes here), and so
        // does an image at the top or foot no wider than a column: centred across a gutter it
        // kept the text of both columns away from beside it.
        let atEdge = image.placement == .top || image.placement == .bottom
        let columnWidth = (column ?? columns.first ?? area).width
        let narrow =
            atEdge && image.block == nil && columns.count > 1
            && figures.size(image, maxWidth: area.width, maxHeight: area.height * 0.9).w <= columnWidth + 0.01
        let inColumn = atEdge && (image.block != nil || narrow)
        let home = inColumn ? (column ?? columns.first ?? area) : area
        let size = figures.size(image, maxWidth: home.width, maxHeight: area.height * 0.9)
        let total = size.h + size.caption
        // Only the floats that share its columns take its room, and only those it must clear.
        let sharing = pageFloats.filter { $0.exclusion.rect.x < home.maxX && $0.exclusion.rect.maxX > home.x }
        let used = sharing.map { $0.exclusion.rect.height + $0.exclusion.margin }.reduce(0, +)
        // Not above the band being filled: what is set across the page above it (a headline)
        // stays at the head of the page.
        let floatsAbove = sharing.filter { $0.placed.rect.y < area.midY }.map { $0.exclusion.rect.maxY + $0.exclusion.margin }
        let atTop = max(floatsAbove.max() ?? area.y, forceTop ? area.y : bandTop)
        let below = sharing.filter { $0.exclusion.rect.maxY >= area.maxY - 0.01 || $0.placed.rect.y > area.midY }
        let atFoot = (below.map { $0.exclusion.rect.y - $0.exclusion.margin }.min() ?? area.maxY) - total
        let candidates: [Double]
        switch image.placement {
        case .bottom where !floatsAlone: candidates = [atFoot]
        case .span where !forceTop: candidates = [y > area.y + 0.01 ? y + image.margin : y, atTop, atFoot]
        default: candidates = [atTop]
        }
        let others = sharing.map { ($0.exclusion.rect.y - $0.exclusion.margin, $0.exclusion.rect.maxY + $0.exclusion.margin) }
        func fits(_ top: Double) -> Bool {
            top >= area.y - 0.01 && top + total <= area.maxY + 0.01 && used + total <= area.height * 0.9
                && !others.contains { top < $0.1 - 0.01 && top + total > $0.0 + 0.01 }
        }
        // With no other float on the page, one taller than the room left for floats still goes here.
        let alone = others.isEmpty
        guard let top = candidates.first(where: fits) ?? candidates.first(where: { alone && $0 + total <= area.maxY + 0.01 }) else {
            deferredPage.append(i)
            return false
        }
        // Only a span at its own place has text beside it; at the top or foot, none runs beside.
        // Right under a span with text beside it (two met in a row: the second's place is taken
        // by the first) is no top of the page but among the text, whose strips run on beside it.
        let underSpan = sharing.contains {
            story.images[$0.placed.image].placement == .span && $0.exclusion.wrap != .none
                && abs($0.exclusion.rect.maxY + $0.exclusion.margin - top) < 0.01
        }
        let besideText = image.placement == .span && !forceTop && (top == candidates[0] || underSpan)
        let rect = Rect(x: home.x + (home.width - size.w) / 2, y: top, width: size.w, height: size.h)
        var exclusion = figures.exclusion(i, image: rect, captionHeight: size.caption)
        // Text never runs beside an image at the top or foot of the page; a column's sidebar
        // keeps only its own column's text away (the others run on beside it).
        if inColumn {
            exclusion = sidebarExclusion(exclusion)
            // No text beside it in its own column (it stands at the column's head or foot, as
            // a page's top or bottom float stands across the page): slivers beside a narrow
            // image would take a word a line.
            if narrow { (exclusion.rect.x, exclusion.rect.width) = (home.x, home.width) }
        } else if !besideText {
            exclusion.wrap = .none
        }
        pageFloats.append(
            PageFloat(
                placed: placedImage(i, rect: rect, caption: size.caption, shrunk: size.shrunk, exclusion: exclusion), exclusion: exclusion,
                captionCut: size.captionCut))
        placed.insert(i)
        return true
    }

    /// A page-wide float met at `y` (in any column): placed on this page, where the page is
    /// then laid out again around it, so the columns already set wrap it too (true), or
    /// deferred to the next page when there is no room for it here.
    mutating func placeOrDeferPageFloat(_ i: Int, at y: Double, column: Rect) -> Bool {
        // One deferred already waits for the next page. Its anchor is met again when the page is
        // laid out again from its start, or when the line holding it moves on to the next column
        // (orphans, widows, keeps): deciding again would defer it twice, or place it here as
        // well, and the next page would place it once more.
        guard !deferredPage.contains(i) else { return false }
        if pageFloatsWait {
            deferredPage.append(i)
            return false
        }
        return placePageFloat(i, at: y, column: column)
    }

    /// Places a column float at `y` in the distributor's region; false when it does not fit there.
    /// It is sized to the whole column and never overlaps another float (a page-wide one, or an
    /// earlier float of this column): it goes into the first gap of the column from `y` down
    /// that holds it whole (`Region.gaps`), or, a sidebar asking for the foot, at the bottom of
    /// the gap at the column's foot (`footGap`). Only where the region must take something (the
    /// top of a column that begins the page) is it shrunk, with its proportions, into the
    /// tallest gap, or a pull quote or sidebar `widened`, set as wide as the column (as it is
    /// with `fullWidth`) and cut to the room left when even so longer.
    mutating func placeColumnFloat(_ i: Int, side: FloatSide, at y: Double, in d: inout Distributor, fullWidth: Bool = false) -> Bool {
        guard let figures else { return false }
        var image = story.images[i]
        let widen = widened.contains(i)
        if fullWidth || widen { image.widthSpec = .percent(100) }
        let rect = d.region.rect
        let columnTop = y <= rect.y + 0.01
        // Below text, the float keeps its margin from the line above as from those beside it.
        let from = columnTop ? y : y + image.margin
        var size = figures.size(image, maxWidth: rect.width, maxHeight: d.columnHeight)
        var room = d.columnHeight
        // Where the box of a float `width` wide starts: on its side of the column.
        func boxX(_ width: Double) -> Double {
            switch side {
            case .left: return rect.x
            case .right: return rect.maxX - width
            case .center: return rect.x + (rect.width - width) / 2
            }
        }
        // Shrunk, the box stays within its whole width, so it meets nothing the whole one does not.
        var gaps = d.region.gaps(from: from, x: boxX(size.w), width: size.w, margin: image.margin)
        let atFoot = standsAtFoot(i, d)
        if atFoot { gaps = footGap(gaps, height: size.h + size.caption, d).map { [$0] } ?? [] }
        // Where a box `height` tall goes in a gap: at its top, or at its bottom for the foot.
        func boxTop(_ gap: (top: Double, height: Double), _ height: Double) -> Double { atFoot ? gap.top + gap.height - height : gap.top }
        var found = gaps.first { size.h + size.caption <= $0.height + 0.01 }.map { boxTop($0, size.h + size.caption) }
        // The room to shrink into is a gap's: above a float at the column's foot as well as below
        // one at its head (below one at the foot there is none). A gap under half of what the
        // float needs (beside page-wide floats) would make a sliver of it: it waits for the next
        // column instead, where a whole one, which holds it, comes at the latest on a page with
        // no page-wide float. A float of text widened for want of a column of text to stand in
        // is cut so, rather than left to stand alone.
        if found == nil && (columnTop && d.fresh || widen), let tallest = gaps.max(by: { $0.height < $1.height }),
            tallest.height >= 0.5 * (size.h + size.caption)
        {
            size = figures.size(image, maxWidth: rect.width, maxHeight: tallest.height)
            room = tallest.height
            if size.h + size.caption <= tallest.height + 0.01 { found = boxTop(tallest, size.h + size.caption) }
        }
        guard let top = found else { return false }
        let imageRect = Rect(x: boxX(size.w), y: top, width: size.w, height: size.h)
        var exclusion = figures.exclusion(i, image: imageRect, captionHeight: size.caption)
        switch side {
        case .left: exclusion.contourSides = .right
        case .right: exclusion.contourSides = .left
        case .center: exclusion.contourSides = .both
        }
        // A sidebar keeps its column's text away as one at the top does (`placePageFloat`).
        if image.block != nil && image.placement == .bottom { exclusion = sidebarExclusion(exclusion) }
        d.region.exclusions.append(exclusion)
        d.frame.images.append(placedImage(i, rect: imageRect, caption: size.caption, shrunk: size.shrunk, exclusion: exclusion))
        placed.insert(i)
        if size.shrunk { warnShrunk(i, imageRect) }
        if size.captionCut { image.block == nil ? warnCaptionCut(i) : warnBlockCut(i, room: room) }
        return true
    }

    /// Where the flow places image `i`: as its markup says, but for a sidebar at the foot, which
    /// is a float of its column, centred in it: it takes the foot of the region it is met in (a
    /// band's, above an element across the columns, not the page's), with nothing of the column
    /// set under it, and one that does not fit there opens the next column, as a column float
    /// does. Placed on the page as a top sidebar is, it went to the foot of the page, or just
    /// above any float in the page's lower half (a pull quote with lines beside and under it).
    func placement(of i: Int) -> ImagePlacement {
        let image = story.images[i]
        return image.block != nil && image.placement == .bottom ? .float(.center) : image.placement
    }

    /// A sidebar asking for the foot stands there, but in a column that opens after the story's
    /// text is all set, which it takes at the head, as page-wide floats left alone do
    /// (`startPage`), rather than under an empty column.
    func standsAtFoot(_ i: Int, _ d: Distributor) -> Bool {
        guard story.images[i].block != nil, story.images[i].placement == .bottom else { return false }
        return paragraph < story.paragraphs.count || current != nil || !d.frame.lines.isEmpty
    }

    /// The gap a sidebar at the foot goes into: the lowest of `gaps`, when no line of the column
    /// fits under it (it ends at the region's foot, or at floats that leave no line room down
    /// to it, such as a page-wide image at the page's foot); nil when text could still be set
    /// under it. Once the story's text is all set none can be, and the lowest gap that holds
    /// `height` will do.
    func footGap(_ gaps: [(top: Double, height: Double)], height: Double, _ d: Distributor) -> (top: Double, height: Double)? {
        if paragraph >= story.paragraphs.count && current == nil { return gaps.last { $0.height >= height - 0.01 } ?? gaps.last }
        guard let last = gaps.last, !d.region.holdsLine(from: last.top + last.height, height: template.body.leading) else { return nil }
        return last
    }

    /// A sidebar's exclusion in its column: text may run beside a narrow one (`wrap="both"`, where
    /// each side is wide enough), and its margin reaches at most halfway across the gutter, so
    /// that it keeps no line of the next column away.
    func sidebarExclusion(_ e: Exclusion) -> Exclusion {
        var e = e
        e.wrap = .both
        e.margin = min(e.margin, max(0, (columns.count > 1 ? columns[1].x - columns[0].maxX : 0) / 2))
        return e
    }

    func placedImage(_ i: Int, rect: Rect, caption: Double, shrunk: Bool, exclusion: Exclusion) -> PlacedImage {
        let image = story.images[i]
        let captionRect =
            caption > 0
            ? Rect(x: rect.x, y: rect.maxY + (figures?.captionGap ?? 0), width: rect.width, height: caption - (figures?.captionGap ?? 0))
            : nil
        let e = exclusion.rect
        var placed = PlacedImage(
            image: i, rect: rect, storyOffset: image.anchor ?? story.paragraphs.first { $0.content == .image(i) }?.range.lowerBound ?? 0,
            shrunk: shrunk, caption: image.caption, captionRect: captionRect,
            exclusion: Rect(
                x: e.x - exclusion.margin, y: e.y - exclusion.margin, width: e.width + 2 * exclusion.margin,
                height: e.height + 2 * exclusion.margin))
        if let b = image.block { placed.block = figures?.setBlock(b, width: rect.width) }
        return placed
    }

    mutating func warnBlockCut(_ i: Int, room: Double) {
        let image = story.images[i]
        let what = image.source == "<pullquote>" ? "pull quote" : "sidebar"
        diagnostics.append(
            .warning(
                "this \(what) is longer than the \(format(room)) pt it may take; the rest of it is cut (shorten it, or make it wider)",
                file: file, at: image.location, length: image.source.utf8.count - 1))
    }

    /// Warns, once each, of the floats on `page` set narrower than they ought to be, where the
    /// layout leaves them: a pull quote or sidebar whose lines are under `narrowMeasure` ems of
    /// its type (`narrowBlock`), and a float narrower than the points it asks for
    /// (`narrowedFloat`).
    mutating func warnAboutFloatWidths(on page: Page) {
        for placed in page.frames.flatMap(\.images) + page.floats {
            for d in [narrowBlock(placed), narrowedFloat(placed)].compactMap({ $0 }) where !diagnostics.all.contains(d) {
                diagnostics.append(d)
            }
        }
    }

    /// A pull quote or sidebar whose lines hold a word or two each (a quote 25 % of a column
    /// wide, or one shrunk beside floats).
    func narrowBlock(_ placed: PlacedImage) -> Diagnostic? {
        guard let set = placed.block, let run = set.block.story.runs.first else { return nil }
        let size = set.block.story.styles[run.style].size
        let measure = set.framesetter.template.pageWidth
        guard measure < Self.narrowMeasure * size else { return nil }
        let image = story.images[placed.image]
        let what = image.source == "<pullquote>" ? "pull quote" : "sidebar"
        return .warning(
            "this \(what)'s lines are \(format(measure)) pt wide, \(format(measure / size)) ems of its \(format(size)) pt type, "
                + "which sets a word or two a line; make it wider (width) or its type smaller",
            file: file, at: image.location, length: image.source.utf8.count - 1)
    }

    /// A float set narrower than the width in points it asks for (a column float is at most its
    /// column wide, one across the columns the text area). One shrunk for want of height is said
    /// by `warnShrunk`.
    func narrowedFloat(_ placed: PlacedImage) -> Diagnostic? {
        let image = story.images[placed.image]
        guard !placed.shrunk, image.block == nil, image.placement != .block, image.placement != .inline else { return nil }
        let asked: Double? =
            if case .points(let w) = image.widthSpec { w } else { image.width }
        guard let asked, asked > placed.rect.width + 0.5 else { return nil }
        return .warning(
            "image '\(image.source)' asks for \(format(asked)) pt, wider than its place; set at \(format(placed.rect.width))×\(format(placed.rect.height)) pt",
            file: file, at: image.location, length: 4)
    }

    /// The narrowest measure, in ems of its type, a pull quote or sidebar is set to without a
    /// warning: some twelve characters a line.
    static let narrowMeasure = 6.0

    mutating func warnCaptionCut(_ i: Int) {
        let image = story.images[i]
        diagnostics.append(
            .warning(
                "the caption of image '\(image.source)' is longer than half the room for it; the rest of it is cut",
                file: file, at: image.location, length: 4))
    }

    /// The flow stands where `start` stood, with the same floats waiting: a page laid out from
    /// here would be the one just made, which placed nothing, and so on for ever.
    func standsStill(since start: Flow) -> Bool {
        paragraph == start.paragraph && line == start.line && deferred == start.deferred && deferredPage == start.deferredPage
            && deferredBlocks == start.deferredBlocks && placed == start.placed && pageFloats.isEmpty && start.pageFloats.isEmpty
    }

    /// Ends a layout that could not go on (`standsStill`): an error where the text stands,
    /// rather than pages without end.
    mutating func stopUnplaced() {
        let at = story.sourceMap.sourceLocation(ofByte: position, in: story.text)
        diagnostics.append(
            .error(
                "no page could take the text from here on, so the layout stops (please report this as a bug in Galley)", file: file, at: at)
        )
        paragraph = story.paragraphs.count
        (deferred, deferredPage, deferredBlocks) = ([], [], [])
    }

    /// Warns of the page-wide floats of a page shrunk or cut, once the page is final (a page
    /// laid out again starts again from its start, and would say them twice).
    mutating func warnAboutPageFloats(textHeight: Double) {
        for f in pageFloats {
            if f.placed.shrunk { warnShrunk(f.placed.image, f.placed.rect) }
            guard f.captionCut else { continue }
            if story.images[f.placed.image].block == nil {
                warnCaptionCut(f.placed.image)
            } else {
                warnBlockCut(f.placed.image, room: textHeight * 0.9)
            }
        }
    }

    mutating func warnShrunk(_ i: Int, _ r: Rect) {
        let image = story.images[i]
        diagnostics.append(
            .warning(
                "image '\(image.source)' does not fit; shrunk to \(format(r.width))×\(format(r.height)) pt",
                file: file, at: image.location, length: 4))
    }

    /// The floats anchored in the text of line `k` of `l` that are not placed yet.
    func anchors(in l: ParagraphLayout, line k: Int) -> [Int] {
        let b = l.lines[k]
        return anchors(in: (l.storyStart + Int(b.start))..<(l.storyStart + Int(b.end)))
    }

    /// The floats anchored in story bytes `range` that are not placed yet.
    func anchors(in range: Range<Int>) -> [Int] {
        story.images.indices.filter { i in
            guard let a = story.images[i].anchor, range.contains(a), !placed.contains(i) else { return false }
            return story.images[i].placement != .inline && story.images[i].placement != .block
        }
    }

    // MARK: lines around exclusions

    /// Where the lines of a paragraph go in a region with exclusions: one slot per line from `y`
    /// to the region's foot, each free for the height of the line it is for (`heights`, from the
    /// paragraph as broken so far; lines past them as tall as the tallest), so that a line's
    /// width comes from the exclusions its own box meets; heights where no interval is wide
    /// enough are skipped. A row that holds two lines (text on both sides of a float) is free
    /// for the taller of them.
    func slots(in region: Region, from y: Double, heights: [Double], bottom: Double) -> [Slot] {
        let tallest = heights.max() ?? template.body.leading
        func height(_ n: Int) -> Double { n < heights.count ? heights[n] : tallest }
        var out: [Slot] = []
        var yy = y
        var guardCount = 0
        while guardCount < 10_000 {
            guardCount += 1
            var h = height(out.count)
            var t = top(height: h, at: yy, gridTop: region.rect.y)
            if t + h > bottom { break }
            var intervals = region.intervals(top: t, bottom: t + h)
            if intervals.count > 1 && height(out.count + 1) > h {
                h = height(out.count + 1)
                t = top(height: h, at: yy, gridTop: region.rect.y)
                if t + h > bottom { break }
                intervals = region.intervals(top: t, bottom: t + h)
            }
            if intervals.isEmpty {
                // Nothing free at this height: move down to the next grid line, or below the obstacle.
                let below = region.clearance(below: t, bottom: t + h) ?? (t + h)
                yy = max(t + 0.5, min(below, t + template.body.leading))
                continue
            }
            for iv in intervals { out.append(Slot(x: iv.x, width: iv.width, top: t, height: h)) }
            yy = t + h
        }
        return out
    }

    /// The widths to break a paragraph to from line `before` on: the slots' widths, then the
    /// column's. Only lines narrower than the column need their own width: the breaker tells
    /// lines apart by index up to the last of them, which bounds its work.
    /// The first lines of a paragraph with a drop cap are narrower by its indent.
    func lineWidths(_ slots: [Slot], before: Int, column: Double, dropCap: DropCap? = nil) -> LineWidths {
        var first = slots.isEmpty ? [] : Array(repeating: column, count: before) + slots.map(\.width)
        while let last = first.last, abs(last - column) < 0.001 { first.removeLast() }
        let widths = first.isEmpty ? LineWidths(rest: column) : LineWidths(first: first, rest: column)
        return dropCap?.narrowing(widths) ?? widths
    }

    /// True when lines `from...` of `l` were broken to exactly these widths.
    func broken(_ l: ParagraphLayout, from: Int, to widths: LineWidths) -> Bool {
        for k in from..<l.lines.count where abs(l.widths[k] - widths[k]) > 0.001 { return false }
        return true
    }

    /// An indent line `index` of `l` could not take (`LineSetter.indent`), said once a paragraph.
    mutating func warnAboutIndent(_ index: Int, in l: ParagraphLayout) {
        let b = l.lines[index]
        let style = story.paragraphs[paragraph].style
        let asked = style.indent + (index == 0 ? style.firstLineIndent : 0)
        guard abs(asked - b.indent) > 0.01, warnedIndent.insert(paragraph).inserted else { return }
        let reason =
            asked < 0
            ? "would set the line \(format(-asked)) pt before its column's edge"
            : "leaves too little of the \(format(b.availableWidth + b.indent)) pt line"
        diagnostics.append(
            .warning(
                "an indent of \(format(asked)) pt \(reason); set at \(format(b.indent)) pt", file: file,
                at: story.sourceMap.sourceLocation(ofByte: l.storyStart + Int(b.start), in: story.text)))
    }

    /// A drop cap asked of paragraph `paragraph` and not made is said once, with why: the
    /// paragraph is set without one.
    mutating func warnIfNoDropCap(_ l: ParagraphLayout) {
        let style = story.paragraphs[paragraph].style
        // A paragraph of fewer lines than its initial is tall leaves the initial hanging below
        // its text, and white beside it.
        if let made = l.text.dropCap, l.lines.count < made.lines, warnedNoDropCap.insert(paragraph).inserted {
            diagnostics.append(
                .warning(
                    "the paragraph sets \(l.lines.count) line\(l.lines.count == 1 ? "" : "s") beside its \(made.lines)-line drop cap, "
                        + "which hangs below its text; "
                        + (l.lines.count > 1 ? "ask for dropcap=\"\(l.lines.count)\", or set it without one" : "set it without one"),
                    file: file, at: story.sourceMap.sourceLocation(ofByte: l.storyStart, in: story.text)))
        }
        // An empty paragraph (an unclosed `<p dropcap>` at the end) has nothing to miss.
        guard style.dropCap != nil, l.text.dropCap == nil, l.text.length > 0, warnedNoDropCap.insert(paragraph).inserted else {
            return
        }
        let why: String
        let end = DropCap.initialLength(l.text.bytes.prefix(32))
        if style.vertical {
            why = "vertical text takes none"
        } else if l.text.rightToLeft {
            why = "right-to-left text takes none"
        } else if let end, end < l.text.length, !l.text.flags[end].contains(.clusterStart) {
            why = "its first letter is one glyph with the next (a ligature); a <span ligatures=\"0\"> around the two letters parts them"
        } else if TextEngine.startsWithLink(l.text, story.styles) {
            why = "its first letter is part of a link, which an initial set apart would break"
        } else if let end, end >= l.text.length {
            why = "the paragraph is its initial alone"
        } else if end == nil {
            why = "the paragraph does not begin with a letter or a figure"
        } else {
            why = "its initial cannot be set in the drop cap's face"
        }
        diagnostics.append(
            .warning("no drop cap: " + why, file: file, at: story.sourceMap.sourceLocation(ofByte: l.storyStart, in: story.text)))
    }

    /// Sets a vertical paragraph (`<vertical>`) as a block across the column: lines run top to
    /// bottom, one beside the other from right to left, each as long as the block is tall, or as
    /// the stretch of its strip that the region's floats leave free (`verticalSlots`). The block
    /// is as tall as its `height`, or the rest of the column, as a vertical frame is; lines that
    /// do not fit across go on in the next column. False when the block must move on to the next
    /// column first.
    mutating func placeVertical(_ given: ParagraphLayout, _ d: inout Distributor) -> Bool {
        var l = given
        let pitch = l.lines.map(\.height).max() ?? template.body.leading
        // A line wider than the column (a huge character) fits no column: one is set anyway,
        // over the column's edge, so that every column takes at least one and the flow moves on
        // (unless a float takes its strip: then it goes on where none does).
        let tooWide = pitch > d.rect.width + 0.01
        guard let (block, slots) = settleVerticalBlock(l, pitch: pitch, tooWide: tooWide, &d) else { return false }
        // Each line is broken to the length of its slot (those past the column's, to the block's).
        var first = Array(repeating: block.height, count: line) + slots.map(\.length)
        while first.count > line, let last = first.last, abs(last - block.height) < 0.001 { first.removeLast() }
        let widths = LineWidths(first: first, rest: block.height)
        if !broken(l, from: line, to: widths), let rebreak {
            l = rebreak(l, line, widths, l.unhyphenated)
            current = l
        }
        if tooWide && line < l.lines.count && warnedTooWide.insert(paragraph).inserted {
            diagnostics.append(
                .warning(
                    "a vertical line \(format(pitch)) pt wide does not fit a column \(format(d.rect.width)) pt wide; placed anyway",
                    file: file, at: story.sourceMap.sourceLocation(ofByte: l.storyStart + Int(l.lines[line].start), in: story.text)))
        }
        var n = 0
        while line < l.lines.count && n < slots.count {
            let b = l.lines[line]
            let s = slots[n]
            if b.overfull && warnedTooShort.insert(paragraph).inserted {
                diagnostics.append(
                    .warning(
                        "a vertical line is \(format(b.setWidth - b.availableWidth)) pt longer than its block is tall (\(format(s.length)) pt); it runs past its foot",
                        file: file, at: story.sourceMap.sourceLocation(ofByte: l.storyStart + Int(b.start), in: story.text)))
            }
            // A vertical line begins at its top (its inline start, clreq): its indent is blank
            // above its first character, as a horizontal line's is left of it, and its
            // alignment offset runs down from there (`PageRenderer.place`).
            d.frame.lines.append(
                PlacedLine(
                    origin: Point(x: s.right - pitch / 2, y: s.top + b.indent),
                    box: Rect(x: s.right - pitch, y: s.top + b.indent, width: pitch, height: b.availableWidth),
                    storyRange: (l.storyStart + Int(b.start))..<(l.storyStart + Int(b.end)),
                    contentWidth: b.setWidth, overfull: b.overfull, paragraphIndex: paragraph, lineIndex: line,
                    paragraph: l, vertical: true))
            line += 1
            n += 1
        }
        warnIfCutShort(block, slots: slots.prefix(n))
        return closeVertical(l, block, strips: n > 0 ? slots[n - 1].strip + 1 : 0, pitch: pitch, &d)
    }

    /// The block a vertical paragraph goes into, and the slots of its next lines. A new block
    /// in which the floats leave no slot moves down below them, as a block image does, while
    /// the column has room. Nil when the paragraph must move on to the next column first: the
    /// floats take every strip of the block, and it goes on there rather than over them.
    mutating func settleVerticalBlock(
        _ l: ParagraphLayout, pitch: Double, tooWide: Bool, _ d: inout Distributor
    ) -> (VerticalBlock, [VerticalSlot])? {
        guard var block = openVerticalBlock(l, pitch: pitch, &d) else { return nil }
        // At most a line for each byte left, and one more (an empty last line).
        let left = line < l.lines.count ? story.paragraphs[paragraph].range.upperBound - l.storyStart - Int(l.lines[line].start) : 0
        let limit = max(0, left) + 1
        var slots = verticalSlots(block, pitch: pitch, tooWide: tooWide, limit: limit, in: d.region)
        // `used` is 0 only in a block opened here (a paragraph set in it leaves half a line).
        while slots.isEmpty, block.used == 0, let below = d.region.clearance(below: block.top, bottom: block.bottom), below > block.top {
            d.y = below
            guard let moved = openVerticalBlock(l, pitch: pitch, &d) else { return nil }
            block = moved
            slots = verticalSlots(block, pitch: pitch, tooWide: tooWide, limit: limit, in: d.region)
        }
        guard !slots.isEmpty else {
            verticalBlock = nil
            d.y = block.bottom
            return nil
        }
        let asked = story.paragraphs[paragraph].style.verticalHeight
        let room = d.rect.maxY - block.top
        if block.used == 0, let asked, asked > room + 0.01, warnedTooTall.insert(paragraph).inserted {
            diagnostics.append(
                .warning(
                    "a vertical block \(format(asked)) pt tall does not fit the \(format(room)) pt left in its column; set \(format(room)) pt tall",
                    file: file, at: story.sourceMap.sourceLocation(ofByte: l.storyStart, in: story.text)))
        }
        return (block, slots)
    }

    /// The block a vertical paragraph goes into: that of the paragraph before, when it ended in
    /// this column (this one goes on to its left, from the block's top), else a new one: as tall
    /// as its `height`, below the floats it would meet (`verticalBlockTop`), or from the height
    /// reached to the column's foot. Nil when the paragraph must move on to the next column first.
    mutating func openVerticalBlock(_ l: ParagraphLayout, pitch: Double, _ d: inout Distributor) -> VerticalBlock? {
        let rect = d.rect
        if let last = continuedBlock(d) {
            // No room left across: below the block, the next column.
            guard last.used + pitch <= rect.width + 0.01 else {
                verticalBlock = nil
                d.y = last.bottom
                return nil
            }
            return last
        }
        let size = story.styles[Int(l.text.runs.first?.style ?? 0)].size
        let room = rect.maxY - d.y
        if room < size * 4 && !d.frame.isEmpty { return nil }
        // Its `height`, below the floats it would meet; without one, the rest of the column, as
        // a vertical frame's, its lines running down the stretches floats leave (`verticalSlots`).
        let asked = story.paragraphs[paragraph].style.verticalHeight
        var top = d.y
        if let asked {
            guard let below = verticalBlockTop(height: asked, d) else { return nil }
            top = below
        }
        let height = min(asked ?? .infinity, rect.maxY - top)
        return VerticalBlock(top: top, height: height, used: 0, x: rect.x, paragraph: paragraph, first: paragraph)
    }

    /// Where a new block that asks for `height` goes: below the floats it would meet at the
    /// height reached, as a block image goes, so that each of its lines is as long as asked
    /// (beside a float a line is cut to the stretch of its strip left free, and the block would
    /// lose its height unsaid). Nil when it does not fit whole below them but would in a column
    /// of its own, and the region need not take it: it opens the next column, as a block image
    /// does. Otherwise it stays at the height reached, its lines beside the floats, said
    /// (`warnIfCutShort`), and cut at the column's foot, said too (`settleVerticalBlock`).
    func verticalBlockTop(height: Double, _ d: Distributor) -> Double? {
        // Floats below the column's foot do not count: a block taller than the rest of the
        // column is cut at its foot, whatever lies below.
        let foot = { (top: Double) in min(top + height, d.rect.maxY) }
        var top = d.y
        while top < d.rect.maxY, !d.region.isClear(top: top, bottom: foot(top)),
            let below = d.region.clearance(below: top, bottom: foot(top)), below > top
        {
            top = below
        }
        if top == d.y || top + height <= d.bottom { return top }
        // No room below them here: the next column, unless this region must take the block, or
        // no column could hold it whole (it is cut wherever it goes).
        let stays = d.mustTake || height > d.columnHeight + 0.01
        return stays ? d.y : nil
    }

    /// Lines of a block that asked for a `height` but run beside floats (`verticalBlockTop`
    /// left it where they meet it), shorter than the block: said once a block, at its start, as
    /// a height cut at the column's foot is.
    mutating func warnIfCutShort(_ block: VerticalBlock, slots: ArraySlice<VerticalSlot>) {
        let opening = story.paragraphs[block.first]
        guard let asked = opening.style.verticalHeight, let shortest = slots.map(\.length).min(),
            shortest < block.height - 0.01, warnedTooTall.insert(block.first).inserted
        else { return }
        diagnostics.append(
            .warning(
                "a vertical block \(format(asked)) pt tall has no room clear of the floats in its column; its lines beside them are \(format(shortest)) pt long",
                file: file, at: story.sourceMap.sourceLocation(ofByte: opening.range.lowerBound, in: story.text)))
    }

    /// The block of the vertical paragraph before, when the current one goes on in it, to its
    /// left: that paragraph ended in this column, and the flow stands at the block's top.
    func continuedBlock(_ d: Distributor) -> VerticalBlock? {
        guard let last = verticalBlock, last.paragraph == paragraph - 1, last.x == d.rect.x, abs(d.y - last.top) < 0.01 else {
            return nil
        }
        return last
    }

    /// Where the next lines of a vertical block go, right to left from what the block has used:
    /// in each strip a line's pitch wide, the longest stretch of the block's height that no
    /// exclusion takes (the upper of two as long), as a horizontal line is given the wider room
    /// beside a float; so no line runs over an image or a pull quote. A strip whose stretch is
    /// shorter than `wrapMinWidth` (or than the block, when that is shorter) takes no line.
    /// Without exclusions every slot is its whole strip, the block's height. At most `limit`.
    func verticalSlots(_ block: VerticalBlock, pitch: Double, tooWide: Bool, limit: Int, in region: Region) -> [VerticalSlot] {
        let shortest = min(region.minimumWidth, block.height)
        var out: [VerticalSlot] = []
        var k = 0
        while out.count < limit && (block.used + Double(k + 1) * pitch <= region.rect.width + 0.01 || (tooWide && k == 0)) {
            let right = region.rect.maxX - block.used - Double(k) * pitch
            var best: (top: Double, bottom: Double)?
            if region.exclusions.isEmpty {
                best = (top: block.top, bottom: block.bottom)
            } else {
                for s in region.stretches(x: right - pitch, width: pitch, top: block.top, bottom: block.bottom) {
                    let longest = best.map { $0.bottom - $0.top } ?? 0
                    if s.bottom - s.top > longest + 0.001 { best = s }
                }
            }
            if let best, best.bottom - best.top >= shortest - 0.001 {
                out.append(VerticalSlot(strip: k, right: right, top: best.top, length: best.bottom - best.top))
            }
            k += 1
        }
        return out
    }

    /// Ends a vertical paragraph's turn in the column, its lines set in the first `strips`
    /// strips: the rest of it goes on in the next column; or the block goes on with its next
    /// paragraph to the left, from its top; or the text after it goes on below it.
    mutating func closeVertical(
        _ l: ParagraphLayout, _ given: VerticalBlock, strips: Int, pitch: Double, _ d: inout Distributor
    ) -> Bool {
        var block = given
        d.y = block.bottom
        if line < l.lines.count {
            verticalBlock = nil
            d.y = d.rect.maxY  // the rest of the block goes on in the next column
            return true
        }
        // The next paragraph of the block starts a line further left (a paragraph's gap).
        block.used += Double(strips) * pitch + pitch / 2
        block.paragraph = paragraph
        verticalBlock = block
        current = nil
        line = 0
        paragraph += 1
        if paragraph < story.paragraphs.count && story.paragraphs[paragraph].style.vertical {
            d.y = block.top  // the block goes on beside this paragraph
        } else {
            d.y += story.paragraphs[paragraph - 1].style.spacingAfter
        }
        return true
    }

    /// Warnings for a line about to be placed: overfull, or a word broken between letters. Of a
    /// run of overfull lines in a paragraph only the first is said: type far too large for its
    /// column (`size="2000"`) set a letter a line, each said twice.
    mutating func warnAbout(_ b: LineBreak, after previous: LineBreak?, in l: ParagraphLayout) {
        warnAboutMissingGlyphs(in: l)
        // Inline images shrunk to the measure or the column (`AttachmentIndex.fitted`) are said
        // where their line is set, as floats are where they are placed: each line is set once.
        for a in l.text.attachments(in: Int(b.start)..<Int(b.end)) where a.shrunk {
            warnShrunk(a.image, Rect(x: 0, y: 0, width: a.width, height: a.height))
        }
        let start = l.storyStart + Int(b.start)
        if b.overfull && previous?.overfull != true {
            let snippet = story.text.utf8Slice(start, l.storyStart + Int(b.contentEnd))
            diagnostics.append(
                .warning(
                    "line is \(format(b.setWidth - b.availableWidth)) pt wider than its column: '\(snippet.prefix(40))' cannot be broken to fit",
                    file: file, at: story.sourceMap.sourceLocation(ofByte: start, in: story.text)))
        }
        if b.brokenInWord && !warnedInWord.contains(l.index) {
            warnedInWord.insert(l.index)
            // The word broken starts after the line's last break opportunity (or with the line,
            // the rest of a word broken before): quoted alone, not with the words before it.
            var word = Int(b.contentEnd)
            while word > Int(b.start) && !l.text.flags[word].contains(.lineBreak) { word -= 1 }
            let snippet = story.text.utf8Slice(l.storyStart + word, l.storyStart + Int(b.contentEnd))
            diagnostics.append(
                .warning(
                    "a word is wider than its \(format(b.availableWidth)) pt line; broken between letters after '\(snippet.suffix(20))'",
                    file: file, at: story.sourceMap.sourceLocation(ofByte: l.storyStart + word, in: story.text)))
        }
    }
}
