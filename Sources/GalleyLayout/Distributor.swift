import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate

/// Why filling a region ended: the distributor's typed stop, which the framesetter's page loop
/// (the composer) acts on.
enum RegionStop: Equatable {
    /// The region can take nothing more; the flow goes on in the next one.
    case full
    /// The story is all placed.
    case finished
    /// A `<columnbreak>`: the flow goes on in the next column.
    case columnBreak
    /// A `<pagebreak>`: the page's remaining columns stay empty.
    case pageBreak
    /// A page-wide float was placed: lay the page out again from its start with it in place.
    case relayout
    /// The next child spans the columns: the columns so far are balanced above it, and it is
    /// set across the page below them.
    case span
}

/// What placing one child (a paragraph, a block image, a float) did.
enum ChildResult {
    /// Something was placed or settled: go on with the next child, or the rest of this one.
    case placed
    /// The region is done.
    case stop(RegionStop)
}

/// One region being filled (Typst's distributor): its frame so far, its shape with the
/// exclusions placed in it, and where the next child goes.
struct Distributor {
    let rect: Rect
    let column: Int
    /// Below this nothing fits (the region's foot, with a hair of tolerance).
    let bottom: Double
    /// The height of a whole column: an image taller than this is shrunk to it.
    let columnHeight: Double
    /// The region begins the page's text: the flow must take something here, forced when it
    /// does not fit, or it would never progress. Below a spanning element, and in the trial
    /// layouts of balancing, what does not fit moves on instead.
    let fresh: Bool
    var frame: Frame
    var region: Region
    var y: Double
    /// How many of the frame's images waited for this region and open it (floats and block
    /// images of the text before it).
    var opening = 0

    init(rect: Rect, column: Int, start: Int, exclusions: [Exclusion], minimumWidth: Double, columnHeight: Double, fresh: Bool) {
        self.rect = rect
        self.column = column
        self.columnHeight = columnHeight
        self.fresh = fresh
        bottom = rect.maxY + 0.001
        frame = Frame(rect: rect, column: column, visibleRange: start..<start)
        region = Region(rect: rect, exclusions: exclusions, minimumWidth: minimumWidth)
        y = rect.y
    }

    /// Nothing is placed yet where something must be.
    var mustTake: Bool { frame.isEmpty && fresh }

    /// Nothing is placed yet but what waited for this region: a break before the next paragraph
    /// is made already (what waited belongs to the text before it). A column holding only
    /// those, ended by the break, was a column of floats alone, and the text went on after it.
    var atHead: Bool { frame.lines.isEmpty && frame.dropCaps.isEmpty && frame.images.count == opening }
}

extension Flow {
    /// Fills one region (a column) and says why it stopped. Every child placed consumes lines,
    /// an image or a float, or moves down the region (a paragraph whose drop cap would meet a
    /// float starts a line lower), or the region ends because something is already in it: an empty
    /// region always takes the next item (forced, with a warning, when it does not fit), so the
    /// flow always progresses. A column where the story's text ends while a pull quote or
    /// sidebar still waits is filled again, to set it among the text.
    mutating func fill(_ rect: Rect, column: Int, fresh: Bool = true, layout: (Int) -> ParagraphLayout?) -> (Frame, RegionStop) {
        // (A story without pull quotes or sidebars, or a trial of `balance`, keeps no copy.)
        let start = story.blocks.isEmpty || balancing ? nil : self
        let (frame, stop) = fillOnce(rect, column: column, fresh: fresh, layout: layout)
        guard let start, stop == .finished, !frame.lines.isEmpty, !blocksWaiting.isEmpty else { return (frame, stop) }
        // The story's text ends in this column with a pull quote or sidebar still waiting and no
        // room for it under the text (`placeBlocksLeftAtTheEnd`): rather than leave it to stand
        // alone in a column of no text, the column is laid out again with it at its head, as
        // wide as the column, and the column's text under it, going on into the next column if
        // need be. (One anchored in this column is then passed over where it is met.)
        let blocks = blocksWaiting
        self = start
        widened.formUnion(blocks)
        for i in blocks where !deferred.contains(i) {
            deferred.append(i)
            placed.insert(i)
        }
        let widening = self
        let atHead = fillOnce(rect, column: column, fresh: fresh, layout: layout)
        // With no room at the head either (floats fill the column), the column ends above its
        // last line, which goes on into the next column, and what still waits with it; the
        // column keeps a line of its own.
        let tops = atHead.0.lines.map(\.box.y)
        guard atHead.1 == .finished && !blocksWaiting.isEmpty, let last = tops.max(), last > tops[0] + 0.01,
            !atHead.0.lines.contains(where: \.vertical)
        else { return atHead }
        self = widening
        let shorter = Rect(x: rect.x, y: rect.y, width: rect.width, height: last - rect.y)
        return fillOnce(shorter, column: column, fresh: fresh, layout: layout)
    }

    /// The pull quotes and sidebars waiting for room.
    var blocksWaiting: [Int] { deferred.filter { story.images[$0].block != nil } }

    /// `fill`, once.
    mutating func fillOnce(_ rect: Rect, column: Int, fresh: Bool, layout: (Int) -> ParagraphLayout?) -> (Frame, RegionStop) {
        var d = Distributor(
            rect: rect, column: column, start: position, exclusions: pageFloats.map(\.exclusion), minimumWidth: template.wrapMinWidth,
            columnHeight: textArea.height, fresh: fresh)
        placeWaitingFloats(&d)
        placeWaitingBlocks(&d)
        d.opening = d.frame.images.count
        var stop = RegionStop.finished
        while paragraph < story.paragraphs.count {
            if case .stop(let s) = placeChild(&d, layout) {
                stop = s
                break
            }
        }
        // The story ends in this column: what waits of its pull quotes and sidebars stays here.
        if stop == .finished && !d.frame.lines.isEmpty && !balancing { placeBlocksLeftAtTheEnd(&d) }
        d.frame.visibleRange = d.frame.visibleRange.lowerBound..<position
        if paragraph >= story.paragraphs.count && current == nil {
            d.frame.visibleRange = d.frame.visibleRange.lowerBound..<story.text.utf8.count
        }
        return (d.frame, stop)
    }

    /// Floats that did not fit before open this column, one below the other.
    mutating func placeWaitingFloats(_ d: inout Distributor) {
        let waiting = deferred
        deferred = []
        for i in waiting {
            if case .float(let side) = placement(of: i),
                !placeColumnFloat(i, side: side, at: d.y, in: &d)
            {
                deferred.append(i)
            }
        }
        if !d.frame.images.isEmpty { d.y = d.rect.y }
    }

    /// The story's text ends in this column, while pull quotes or sidebars still wait for room:
    /// each would open a column (or a page) of its own, with no text beside it. It goes here
    /// instead, under the text: as asked, else as wide as the column, which makes it as short
    /// as it can be. One that fits neither goes at the head of this column, as wide (`fill`).
    mutating func placeBlocksLeftAtTheEnd(_ d: inout Distributor) {
        for i in deferred where story.images[i].block != nil {
            guard case .float(let side) = placement(of: i) else { continue }
            if placeColumnFloat(i, side: side, at: d.y, in: &d) || placeColumnFloat(i, side: side, at: d.y, in: &d, fullWidth: true) {
                deferred.removeAll { $0 == i }
            }
        }
    }

    /// Block images deferred from the last column open this one, in story order.
    mutating func placeWaitingBlocks(_ d: inout Distributor) {
        while let k = deferredBlocks.first, case .image(let i) = story.paragraphs[k].content, placeBlock(i, paragraph: k, &d) {
            deferredBlocks.removeFirst()
        }
    }

    /// Places the next child, or the rest of the paragraph split across regions.
    mutating func placeChild(_ d: inout Distributor, _ layout: (Int) -> ParagraphLayout?) -> ChildResult {
        let p = story.paragraphs[paragraph]
        if line == 0 && current == nil {
            // `<columnbreak>` / `<pagebreak>` before the paragraph, unless already at the top.
            switch p.style.breakBefore {
            case .column where !d.atHead: return .stop(.columnBreak)
            case .page where !d.atHead || d.column > 0: return .stop(.pageBreak)
            default: break
            }
        }
        if Flow.spans(p) { return .stop(.span) }
        if line == 0 && current == nil && !d.frame.isEmpty { d.y += p.style.spacingBefore }
        switch p.content {
        case .image(let i): return placeImage(i, paragraph: p, &d)
        case .text:
            let l: ParagraphLayout
            if let c = current {
                l = c
            } else {
                guard let made = take(paragraph, layout) else { return .stop(.full) }
                l = made
                current = made
                line = 0
                warnIfNoDropCap(made)
            }
            if p.style.vertical {
                if case .relayout = placeVerticalAnchors(&d) { return .stop(.relayout) }
                return placeVertical(l, &d) ? .placed : .stop(.full)
            }
            return placeText(l, paragraph: p, &d, layout)
        }
    }

    /// An image that is a paragraph of its own: a float (in the column, or across the page), or
    /// the tutorial's block image at column width, shrunk to the column's height when taller.
    mutating func placeImage(_ i: Int, paragraph p: Paragraph, _ d: inout Distributor) -> ChildResult {
        switch placement(of: i) {
        case .float(let side):
            if !placed.contains(i) && !placeColumnFloat(i, side: side, at: d.y, in: &d) {
                deferred.append(i)  // the text goes on here; the float opens the next column
                deferrals += 1
            }
            paragraph += 1
            return .placed
        case .span, .top, .bottom:
            if !placed.contains(i) && placeOrDeferPageFloat(i, at: d.y, column: d.region.rect) { return .stop(.relayout) }
            paragraph += 1
            return .placed
        case .block, .inline:
            break
        }
        if !placeBlock(i, paragraph: paragraph, &d) {
            // With text above it in the column, or page-wide floats leaving no room for it in a
            // column that must take something (`placeBlock`), the text after the image goes on
            // here and the image opens the next column, unless the template keeps the strict order.
            guard template.blockImages == .deferred, !d.frame.isEmpty || d.mustTake, deferredBlocks.isEmpty else { return .stop(.full) }
            deferredBlocks.append(paragraph)
            deferrals += 1
        }
        paragraph += 1
        return .placed
    }

    /// Sets block image `i` centred, at its `width` (else the column's, never wider) from the
    /// region's height reached (below any float it would meet), with its caption under it across
    /// the column, the two shrunk to the column's height when taller (the caption cut at half
    /// of it); false when they do not fit there. An empty region that must take something, but
    /// whose page-wide floats leave no room for them whole, shrinks them into the tallest gap
    /// between those floats when it holds at least half of what they need (as a column float at
    /// a column's head is); else they wait for the next region, as text does below such floats.
    /// Nothing is placed past the region's foot.
    mutating func placeBlock(_ i: Int, paragraph k: Int, _ d: inout Distributor) -> Bool {
        let image = story.images[i]
        let p = story.paragraphs[k]
        var size = blockImageSize(image, column: d.rect.width, height: d.columnHeight)
        // The figure: the image and its caption.
        var total = size.h + size.caption
        var top = d.y
        while !d.region.isClear(top: top, bottom: top + total), let below = d.region.clearance(below: top, bottom: top + total),
            below > top
        {
            top = below
        }
        var roomLeft = false
        if top + total > d.bottom {
            // Only an empty region that must take something takes it shrunk, and only into a gap
            // that is not a sliver of it (a strip beside page-wide floats).
            guard d.mustTake else { return false }
            let free = d.region.gaps(from: d.y, x: d.rect.x, width: d.rect.width, margin: 0)
            guard let tallest = free.max(by: { $0.height < $1.height }), tallest.height >= total / 2 else { return false }
            size = blockImageSize(image, column: d.rect.width, height: tallest.height)
            total = size.h + size.caption
            top = tallest.top
            roomLeft = true
            guard top + total <= d.bottom, d.region.isClear(top: top, bottom: top + total) else { return false }
        }
        let (w, h) = (size.w, size.h)
        if size.shrunk {
            let what = size.caption > 0 ? "and its caption are" : "is"
            let room = roomLeft ? "the room the page's floats leave in the column" : "the column"
            diagnostics.append(
                .warning(
                    "image '\(image.source)' \(what) taller than \(room); shrunk to \(format(w))×\(format(h)) pt",
                    file: file, at: image.location, length: 4))
        }
        if size.captionCut { warnCaptionCut(i) }
        let rect = Rect(x: d.rect.x + (d.rect.width - w) / 2, y: top, width: w, height: h)
        let gap = figures?.captionGap ?? 0
        let captionRect = size.caption > 0 ? Rect(x: d.rect.x, y: rect.maxY + gap, width: d.rect.width, height: size.caption - gap) : nil
        d.frame.images.append(
            PlacedImage(
                image: i, rect: rect, storyOffset: p.range.lowerBound, shrunk: size.shrunk, caption: image.caption,
                captionRect: captionRect))
        d.y = top + total + p.style.spacingAfter
        return true
    }
}

extension Flow {
    /// A block image's width in a column `column` wide: its `width` (a share of the column, or
    /// points; or its `height` in its proportions), else the column's; at most the column's.
    static func blockWidth(_ image: ImageReference, column: Double) -> Double {
        let asked: Double? =
            switch image.widthSpec {
            case .percent(let p)?: column * p / 100
            case .points(let v)?: v
            case nil: image.width ?? image.height.map { $0 * image.aspectRatio }
            }
        return min(column, max(1, asked ?? column))
    }

    /// A block image's size in a column `column` wide and `height` tall: at `blockWidth`, it and
    /// its caption (set across the column, at most half of `height`, cut there) shrunk with its
    /// proportions to `height` when taller (`Figures.fitted`). Returns image size, caption
    /// height with its gap (0 without one), whether the image was shrunk and whether the
    /// caption was cut.
    func blockImageSize(
        _ image: ImageReference, column: Double, height: Double
    ) -> (w: Double, h: Double, caption: Double, shrunk: Bool, captionCut: Bool) {
        let w = Self.blockWidth(image, column: column)
        if let figures { return figures.fitted(image, width: w, maxHeight: height, captionWidth: column) }
        let h = w / image.aspectRatio
        if h > height { return (height * image.aspectRatio, height, 0, true, false) }
        return (w, h, 0, false, false)
    }

    /// Places what fits of a text paragraph from its current line: around the region's
    /// exclusions, floats anchored in it placed as their lines are met, the split across regions
    /// kept to the widows and orphans rules.
    mutating func placeText(
        _ given: ParagraphLayout, paragraph p: Paragraph, _ d: inout Distributor, _ layout: (Int) -> ParagraphLayout?
    ) -> ChildResult {
        // A heading moves on rather than end a column without what follows it, measured from
        // where its first line lands (under a float at the column's head, not at its top).
        if line == 0 && p.style.isHeading && !d.mustTake {
            let landing =
                d.region.exclusions.isEmpty
                ? d.y : slots(in: d.region, from: d.y, heights: given.lines.map(\.height), bottom: d.bottom).first?.top ?? d.y
            if keptBottom(from: paragraph, at: landing, rect: d.rect, depth: 0, layout) > d.bottom { return .stop(.full) }
        }
        var l = given
        let slots = lineSlots(&l, d)
        let (tops, xs) = fittingLines(l, slots: slots, d)
        if !dropCapClear(l, tops: tops, slots: slots, d) {
            // The initial would stand over an exclusion, or a line beside it would not start at
            // its edge or have no room: the paragraph tries again a line lower (the region's foot
            // ends the tries), before a float anchored in those lines is placed above it.
            d.y = max(d.y + 0.5, tops[0] + l.lines[0].height)
            return .placed
        }
        let remaining = l.lines.count - line
        var count = tops.count
        switch placeAnchoredFloats(l, tops: tops, &d) {
        case .relayout: return .stop(.relayout)
        case .linesBefore(let k): count = k
        case .none: break
        }
        let floatsMoved = count < tops.count
        if count < remaining && !floatsMoved {
            count = splitCount(l, fitting: count, remaining: remaining, emptyAfterFloats: !d.region.exclusions.isEmpty && tops.isEmpty, d)
            // No word hyphenated across the column break: break the paragraph again with that
            // line barred from a hyphen (once per line), then fit it afresh.
            let last = line + count - 1
            if count > 0 && !template.hyphenation.acrossColumns && l.lines[last].hyphen, let rebreak,
                !l.unhyphenated.contains(last)
            {
                var barred = l.unhyphenated
                barred.insert(last)
                current = rebreak(l, line, l.widths, barred)
                return .placed
            }
        }
        if !dropCapFits(l, count: count, tops: tops, d) { count = 0 }
        setLines(l, count: count, tops: tops, xs: xs, &d)
        line += count
        if floatsMoved {
            d.y = tops[count]  // the lines after the float start at its top, beside it
            return .placed
        }
        if line < l.lines.count { return .stop(.full) }
        d.y += p.style.spacingAfter
        current = nil
        line = 0
        paragraph += 1
        return .placed
    }

    /// Where the lines go: around the exclusions when there are any, each line broken to its
    /// own width (the paragraph is broken again from the current line when needed). Slots depend
    /// on the lines' heights, which depend on the breaks: a few rounds settle them (lines are
    /// placed only where they fit their slot's height).
    mutating func lineSlots(_ l: inout ParagraphLayout, _ d: Distributor) -> [Slot] {
        var slots: [Slot] = []
        for _ in 0..<3 {
            if !d.region.exclusions.isEmpty {
                slots = self.slots(in: d.region, from: d.y, heights: l.lines[line...].map(\.height), bottom: d.bottom)
            }
            let widths = lineWidths(slots, before: line, column: d.rect.width, dropCap: l.text.dropCap)
            guard !broken(l, from: line, to: widths), let rebreak else { break }
            l = rebreak(l, line, widths, l.unhyphenated)
            current = l
            if d.region.exclusions.isEmpty { break }
        }
        return slots
    }

    /// The tops and left edges of the lines that fit from the current line: in their slots, or
    /// each on the grid when it is a body line. With exclusions, only in slots: none means no
    /// room is left beside them (a page-wide float below covers the rest of the column), not a
    /// free column.
    func fittingLines(_ l: ParagraphLayout, slots: [Slot], _ d: Distributor) -> (tops: [Double], xs: [Double]) {
        let wrapped = !d.region.exclusions.isEmpty
        var tops: [Double] = []
        var xs: [Double] = []
        var yy = d.y
        for k in line..<l.lines.count {
            let s = k - line
            let t = s < slots.count ? slots[s].top : top(height: l.lines[k].height, at: yy, gridTop: d.rect.y)
            if t + l.lines[k].height > d.bottom || (s >= slots.count && wrapped) { break }
            if s < slots.count && l.lines[k].height > slots[s].height + 0.001 { break }
            tops.append(t)
            xs.append(s < slots.count ? slots[s].x : d.rect.x)
            yy = max(yy, t + l.lines[k].height)
        }
        return (tops, xs)
    }

    /// What placing the floats anchored in the fitting lines did.
    enum AnchoredFloats {
        /// None was placed in the column.
        case none
        /// A column float was placed at the top of a line: only the lines before it stay, and
        /// the paragraph is set again from there around it.
        case linesBefore(Int)
        /// A page-wide float was placed: the page is laid out again.
        case relayout
    }

    /// A float anchored in one of the fitting lines is placed at that line's top.
    mutating func placeAnchoredFloats(_ l: ParagraphLayout, tops: [Double], _ d: inout Distributor) -> AnchoredFloats {
        for k in 0..<tops.count {
            let anchored = anchors(in: l, line: line + k)
            guard !anchored.isEmpty else { continue }
            var any = false
            for i in anchored {
                guard let inColumn = placeAnchoredFloat(i, at: tops[k], &d) else { return .relayout }
                any = any || inColumn
            }
            if any {
                // Lines beside it at the same height (the other side of a float with text on
                // both sides) are set again too, and so are the lines beside an initial: set
                // with it or not at all, so that its place is judged again with the float there
                // (`dropCapClear`; those after the float would lose the initial's indent from
                // the strip beside it, however narrow).
                var count = k
                while count > 0 && abs(tops[count - 1] - tops[k]) < 0.01 { count -= 1 }
                if line == 0, let dropCap = l.text.dropCap, count < dropCap.beside { count = 0 }
                return .linesBefore(count)
            }
        }
        return .none
    }

    /// Places float `i`, anchored at `y`: true when it went into the column (one that does not
    /// fit there opens the next one), false when it went elsewhere, and nil when a page-wide
    /// float was placed and the page must be laid out again.
    mutating func placeAnchoredFloat(_ i: Int, at y: Double, _ d: inout Distributor) -> Bool? {
        switch placement(of: i) {
        case .float(let side):
            if placeColumnFloat(i, side: side, at: y, in: &d) { return true }
            placed.insert(i)
            deferred.append(i)
            deferrals += 1
        case .span, .top, .bottom:
            if placeOrDeferPageFloat(i, at: y, column: d.region.rect) { return nil }
        default: break
        }
        return false
    }

    /// The floats anchored in a vertical paragraph, placed before its first line is set: a
    /// float cannot go at the top of the line holding its anchor, as in horizontal text, since
    /// that line runs down the whole block. They go at the top of the block the paragraph opens,
    /// whose lines then keep out of them (`verticalSlots`; a block with a `height` starts below
    /// them, `verticalBlockTop`), or, when it goes on to the left of the paragraph before in its
    /// block, below the block, where none of its lines is set.
    mutating func placeVerticalAnchors(_ d: inout Distributor) -> AnchoredFloats {
        guard line == 0 else { return .none }
        let y = continuedBlock(d)?.bottom ?? d.y
        for i in anchors(in: story.paragraphs[paragraph].range) {
            if placeAnchoredFloat(i, at: y, &d) == nil { return .relayout }
        }
        return .none
    }

    /// How many of the fitting lines stay when the paragraph is split here: `widows` lines kept
    /// for the next region and `orphans` here (or the whole paragraph moved on), but an empty
    /// region is never left empty (so the flow progresses), unless floats took the room: then
    /// the text goes on below them, in a later column or on the next page, where those floats
    /// are not (each is placed once).
    func splitCount(_ l: ParagraphLayout, fitting: Int, remaining: Int, emptyAfterFloats: Bool, _ d: Distributor) -> Int {
        var count = fitting
        let (widows, orphans) = splitsFreely ? (min(template.widows, 1), min(template.orphans, 1)) : (template.widows, template.orphans)
        if remaining - count < widows { count = remaining - widows }
        if line == 0 && count < orphans { count = 0 }
        if count <= 0 && d.mustTake && !emptyAfterFloats { count = max(1, fitting) }
        return max(0, count)
    }

    /// A paragraph with a drop cap starts in a region only with the initial whole: the lines
    /// beside it (all of a shorter paragraph) and room down to its foot, its ink's included. An
    /// empty region that must take something takes it anyway, unless the page holds floats (they
    /// are the region's exclusions): the page has taken those, so it progresses, and the
    /// paragraph goes on where it fits (on the next page at the latest), rather than leave lines
    /// beside its initial for the next column, where they would keep the initial's indent beside
    /// no initial (a line of 0 pt, past the column's edge).
    func dropCapFits(_ l: ParagraphLayout, count: Int, tops: [Double], _ d: Distributor) -> Bool {
        let forced = d.mustTake && d.region.exclusions.isEmpty
        guard line == 0, let dropCap = l.text.dropCap, count > 0, !forced, let top = tops.first else { return true }
        return count >= min(dropCap.beside, l.lines.count) && dropCap.foot(top: top, first: l.lines[0]) <= d.bottom
    }

    /// A paragraph with a drop cap starts only where its initial is clear of the region's
    /// exclusions, as every line is, down to its foot, and where the lines beside it stand one
    /// below the other at the first line's left edge, each with room for the initial and a line
    /// (`roomBeside`): `setLines` moves them right by the initial's indent from their slots,
    /// which is right only from that edge (from a slot an exclusion already moved right it
    /// would count the image's width and the indent both, and a slot wider again below an image
    /// would run its line over the initial). Judged on the lines that fit, before the floats
    /// anchored in them are placed; with exclusions, each of those lines has its slot.
    func dropCapClear(_ l: ParagraphLayout, tops: [Double], slots: [Slot], _ d: Distributor) -> Bool {
        guard line == 0, let dropCap = l.text.dropCap, !tops.isEmpty, !d.region.exclusions.isEmpty else { return true }
        let n = min(dropCap.beside, tops.count)
        for k in 1..<n where abs(slots[k].x - slots[0].x) > 0.01 || tops[k] < tops[k - 1] + 0.01 {
            return false
        }
        if !roomBeside(dropCap, in: slots[..<n], d) { return false }
        // The initial's box as `placeDropCap` places it, ink included, down to its foot.
        let first = l.lines[0]
        let x = slots[0].x + first.indent
        let (top, foot) = (tops[0] + first.ascent - dropCap.capTop, dropCap.foot(top: tops[0], first: first))
        return !d.region.exclusions.contains { e in
            guard let (left, right) = e.cut(top: top, bottom: foot) else { return false }
            return left < x + dropCap.width - 0.01 && right > x + 0.01
        }
    }

    /// Whether each slot beside an initial holds it and a line of `wrapMinWidth`. The region
    /// keeps every slot that minimum holds (`Region.intervals`), and the initial's indent comes
    /// off only after (`DropCap.narrowing`): a 55 pt strip beside a pull quote, less a Q's 65,
    /// left lines of 0 pt, set one letter each in the gutter, and the Q crossed the column's
    /// edge. In a column too narrow for both, the slots must be the whole column, as without
    /// floats (nothing lower would be wider).
    func roomBeside(_ dropCap: DropCap, in slots: ArraySlice<Slot>, _ d: Distributor) -> Bool {
        let room = min(dropCap.indent + d.region.minimumWidth, d.rect.width)
        return slots.allSatisfy { $0.width >= room - 0.01 }
    }

    /// Adds `count` lines from the current one to the frame, at their tops (a line past them,
    /// forced into an empty region, at the region's next height, with a warning).
    mutating func setLines(_ l: ParagraphLayout, count: Int, tops: [Double], xs: [Double], _ d: inout Distributor) {
        for k in 0..<count {
            let index = line + k
            let b = l.lines[index]
            let t = k < tops.count ? tops[k] : d.y
            let previous = index > 0 ? l.lines[index - 1] : nil
            // A run of lines taller than the column (type far too large) is said once.
            if k >= tops.count && !(previous.map { $0.height > d.rect.height } ?? false) {
                diagnostics.append(
                    .warning(
                        "a line \(format(b.height)) pt tall does not fit a column \(format(d.rect.height)) pt tall; placed anyway",
                        file: file, at: story.sourceMap.sourceLocation(ofByte: l.storyStart + Int(b.start), in: story.text)))
            }
            warnAbout(b, after: previous, in: l)
            warnAboutIndent(index, in: l)
            // The indent is on the leading edge: the left one, or the right in RTL text.
            var x = (k < xs.count ? xs[k] : d.rect.x) + (l.text.rightToLeft ? 0 : b.indent)
            // On the grid, one baseline for every face (`gridAscent`).
            let ascent = gridAscent.map { abs(b.height - template.body.leading) < 0.01 ? $0 : b.ascent } ?? b.ascent
            if let dropCap = l.text.dropCap, index < dropCap.beside {
                if index == 0 { placeDropCap(dropCap, of: l, at: Point(x: x, y: t + ascent), &d) }
                x += dropCap.indent
            }
            d.frame.lines.append(
                PlacedLine(
                    origin: Point(x: x, y: t + ascent),
                    box: Rect(x: x, y: t, width: b.availableWidth, height: b.height),
                    storyRange: (l.storyStart + Int(b.start))..<(l.storyStart + Int(b.end)),
                    contentWidth: b.setWidth, overfull: b.overfull, paragraphIndex: paragraph, lineIndex: index,
                    paragraph: l))
            d.y = max(d.y, t + b.height)
        }
    }
}

extension Flow {
    /// Places the initial of the paragraph whose first line has its baseline origin at `first`,
    /// its baseline `drop` below (on that of line `lines`, or above it for an initial set in an
    /// em box), moved right by its `shift` so that its ink does not cross the lines' edge. What
    /// follows the paragraph starts below it, even when the paragraph has fewer lines than the
    /// initial is tall.
    func placeDropCap(_ dropCap: DropCap, of l: ParagraphLayout, at first: Point, _ d: inout Distributor) {
        let baseline = first.y + dropCap.drop
        // The box takes in the ink that hangs below the baseline, so that `inspect`, preflight
        // and the foot all see a J's hook.
        let rect = Rect(
            x: first.x, y: first.y - dropCap.capTop, width: dropCap.width,
            height: dropCap.capTop + dropCap.drop + max(0, dropCap.ink.maxY))
        let initial = PlacedDropCap(
            origin: Point(x: first.x + dropCap.shift, y: baseline), rect: rect,
            storyRange: l.storyStart..<(l.storyStart + dropCap.end), lines: dropCap.lines, paragraphIndex: paragraph,
            paragraph: l)
        d.frame.dropCaps.append(initial)
        // The initial's foot: the last line it stands beside, descent included (the frame's
        // content bottom counts it too, `Framesetter.contentBottom`).
        d.y = max(d.y, initial.foot)
    }
}
