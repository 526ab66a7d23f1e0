import GalleyStory
import GalleyTemplate

/// Where two stories agree again after an edit: from old story byte `from` and old paragraph
/// `paragraph` on, the old story's text, runs and paragraphs are the new one's, moved by
/// `bytes`, `runs` and `paragraphs`. A page of the layout before that begins there, in the same
/// state as the new layout's flow, is laid out as it was (see `PageStarts.reusable`).
struct StoryShift: Equatable {
    var bytes: Int
    var runs: Int
    var paragraphs: Int
    /// The first old story byte from which the two agree.
    var from: Int
    /// The first old paragraph wholly in the part they agree on.
    var paragraph: Int

    /// The shift from `a` to `b`, or nil when no paragraph agrees, or the stories differ in
    /// what their paragraphs share (styles, images, text blocks, fields).
    static func between(_ a: Story, _ b: Story) -> StoryShift? {
        guard a.images.laidOutAlike(b.images), a.blocks.isEmpty, b.blocks.isEmpty, a.styles == b.styles, a.fields == b.fields else {
            return nil
        }
        let suffix: Int? =
            a.text.utf8.withContiguousStorageIfAvailable { x in
                b.text.utf8.withContiguousStorageIfAvailable { y in
                    var n = 0
                    while n < x.count && n < y.count && x[x.count - 1 - n] == y[y.count - 1 - n] { n += 1 }
                    return n
                }
            } ?? nil
        guard let suffix else { return nil }
        let bytes = b.text.utf8.count - a.text.utf8.count
        let agreed = a.text.utf8.count - suffix
        let runs = b.runs.count - a.runs.count
        // The runs and paragraphs the two end with, the same once moved.
        var r = a.runs.count
        while r > 0, r - 1 + runs >= 0, a.runs[r - 1].range.lowerBound >= agreed,
            a.runs[r - 1].shifted(by: bytes) == b.runs[r - 1 + runs]
        {
            r -= 1
        }
        var shift = StoryShift(bytes: bytes, runs: runs, paragraphs: b.paragraphs.count - a.paragraphs.count, from: agreed, paragraph: 0)
        var p = a.paragraphs.count
        while p > 0, p - 1 + shift.paragraphs >= 0, a.paragraphs[p - 1].range.lowerBound >= agreed,
            a.paragraphs[p - 1].runs.lowerBound >= r, a.paragraphs[p - 1].shifted(by: shift) == b.paragraphs[p - 1 + shift.paragraphs]
        {
            p -= 1
        }
        guard p < a.paragraphs.count else { return nil }
        shift.paragraph = p
        shift.from = max(agreed, a.paragraphs[p].range.lowerBound)
        return shift
    }

    /// Old paragraph `i` is the same in both stories.
    func holds(_ i: Int) -> Bool { i >= paragraph }

    /// An old story byte in the new story.
    func byte(_ b: Int) -> Int { b >= from ? b + bytes : b }
    func range(_ r: Range<Int>) -> Range<Int> { byte(r.lowerBound)..<byte(r.upperBound) }
}

extension [ImageReference] {
    /// The same images, wherever their tags stand in the source: an image's `location` tells a
    /// diagnostic where to point, and an edit above the tag moves it.
    func laidOutAlike(_ other: [ImageReference]) -> Bool {
        count == other.count
            && zip(self, other).allSatisfy { a, b in
                // Where they are written is no part of how they are laid out.
                var a = a
                (a.location, a.sourceValue) = (b.location, b.sourceValue)
                return a == b
            }
    }
}

extension StyleRun {
    func shifted(by bytes: Int) -> StyleRun { StyleRun(range: (range.lowerBound + bytes)..<(range.upperBound + bytes), style: style) }
}

extension Paragraph {
    func shifted(by s: StoryShift) -> Paragraph {
        var p = self
        p.range = (range.lowerBound + s.bytes)..<(range.upperBound + s.bytes)
        p.end = end + s.bytes
        p.runs = (runs.lowerBound + s.runs)..<(runs.upperBound + s.runs)
        return p
    }
}

extension Flow {
    /// Whether this flow (of the new story) stands where `old` (a page start of the layout
    /// before; its paragraph indices and layouts are the old story's) stood, in the same
    /// state, once `shift` is applied: then what follows is laid out as it was.
    func continues(_ old: Flow, _ shift: StoryShift) -> Bool {
        guard shift.holds(old.paragraph), old.paragraph + shift.paragraphs == paragraph, old.line == line,
            verticalBlock == nil, old.verticalBlock == nil
        else { return false }
        guard Self.sameLines(old.current, current),
            old.lookahead.count == lookahead.count,
            old.lookahead.allSatisfy({ k, l in shift.holds(k) && Self.sameLines(l, lookahead[k + shift.paragraphs]) })
        else { return false }
        // No float waiting (one met before the agreeing part would keep its old place in the
        // story), the same blocks waiting, and the same things said once.
        guard old.placed == placed, old.deferred.isEmpty, deferred.isEmpty, old.deferredPage.isEmpty, deferredPage.isEmpty,
            old.deferrals == deferrals, old.pageFloats.isEmpty, pageFloats.isEmpty, old.deferredBlocks.allSatisfy(shift.holds),
            old.deferredBlocks.map({ $0 + shift.paragraphs }) == deferredBlocks, old.warnedMissing == warnedMissing,
            old.missingGlyphsScanned - old.paragraph == missingGlyphsScanned - paragraph
        else { return false }
        let ahead = { (set: Set<Int>, from: Int) in set.filter { $0 >= from } }
        return ahead(old.warnedInWord, old.paragraph).map { $0 + shift.paragraphs }.sorted()
            == ahead(warnedInWord, paragraph).sorted()
            && ahead(old.warnedTooWide, old.paragraph).isEmpty && ahead(warnedTooWide, paragraph).isEmpty
            && ahead(old.warnedTooTall, old.paragraph).isEmpty && ahead(warnedTooTall, paragraph).isEmpty
    }

    /// Two layouts of one paragraph broken alike (or both absent).
    static func sameLines(_ a: ParagraphLayout?, _ b: ParagraphLayout?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.lines == b.lines && a.widths == b.widths && a.unhyphenated == b.unhyphenated
    }

    /// A page start of the layout before, in the new story: `continues` holds for it.
    func shifted(_ shift: StoryShift, into story: Story, moving move: (ParagraphLayout) -> ParagraphLayout) -> Flow {
        var f = self
        f.story = story
        f.paragraph += shift.paragraphs
        f.current = current.map(move)
        f.lookahead = Dictionary(uniqueKeysWithValues: lookahead.map { ($0.key + shift.paragraphs, move($0.value)) })
        f.deferredBlocks = deferredBlocks.map { $0 + shift.paragraphs }
        f.warnedInWord = Set(warnedInWord.map { shift.holds($0) ? $0 + shift.paragraphs : $0 })
        f.missingGlyphsScanned += shift.paragraphs
        return f
    }
}

extension Page {
    /// The page, laid out before an edit from a start `Flow.continues` holds for, in the new
    /// story: its story offsets and paragraph indices moved, its paragraphs taken by `move`.
    func shifted(_ shift: StoryShift, moving move: (ParagraphLayout) -> ParagraphLayout) -> Page {
        var page = self
        for f in page.frames.indices {
            page.frames[f].visibleRange = shift.range(frames[f].visibleRange)
            for l in page.frames[f].lines.indices {
                page.frames[f].lines[l].storyRange = shift.range(frames[f].lines[l].storyRange)
                page.frames[f].lines[l].paragraphIndex += shift.paragraphs
            }
            for d in page.frames[f].dropCaps.indices {
                page.frames[f].dropCaps[d].storyRange = shift.range(frames[f].dropCaps[d].storyRange)
                page.frames[f].dropCaps[d].paragraphIndex += shift.paragraphs
            }
            for i in page.frames[f].images.indices { page.frames[f].images[i].storyOffset = shift.byte(frames[f].images[i].storyOffset) }
        }
        for i in page.floats.indices { page.floats[i].storyOffset = shift.byte(floats[i].storyOffset) }
        return page.mappingParagraphs(move)
    }

    /// The page with the layout of each line and drop cap replaced by `transform`'s.
    func mappingParagraphs(_ transform: (ParagraphLayout) -> ParagraphLayout) -> Page {
        var page = self
        for f in page.frames.indices {
            for l in page.frames[f].lines.indices { page.frames[f].lines[l].paragraph = transform(frames[f].lines[l].paragraph) }
            for d in page.frames[f].dropCaps.indices { page.frames[f].dropCaps[d].paragraph = transform(frames[f].dropCaps[d].paragraph) }
        }
        return page
    }
}

extension ParagraphLayout {
    /// The layout without the draw runs made ahead for it.
    var withoutDrawRuns: ParagraphLayout {
        preparedLines == 0 && preparedForDrawing == nil
            ? self : ParagraphLayout(text: text, lines: lines, glue: glue, widths: widths, unhyphenated: unhyphenated)
    }
}

extension Page {
    /// The page with its paragraphs `withoutDrawRuns`, each made once (`made`: those made
    /// already, shared with the flows and pages stripped with it).
    func withoutDrawRuns(_ made: inout [ObjectIdentifier: ParagraphLayout]) -> Page {
        mappingParagraphs { ParagraphLayout.withoutDrawRuns($0, &made) }
    }
}

extension ParagraphLayout {
    /// `l.withoutDrawRuns`, made once for each layout in `made`.
    static func withoutDrawRuns(_ l: ParagraphLayout, _ made: inout [ObjectIdentifier: ParagraphLayout]) -> ParagraphLayout {
        if let m = made[ObjectIdentifier(l)] { return m }
        let m = l.withoutDrawRuns
        made[ObjectIdentifier(l)] = m
        return m
    }
}

extension PageStarts.Start {
    /// The start and its page with their paragraphs `withoutDrawRuns` (each once: `made`), its
    /// flow set in `story`.
    func withoutDrawRuns(_ made: inout [ObjectIdentifier: ParagraphLayout], story: Story) -> PageStarts.Start {
        func strip(_ l: ParagraphLayout) -> ParagraphLayout { ParagraphLayout.withoutDrawRuns(l, &made) }
        var s = self
        s.flow.story = story
        s.flow.current = flow.current.map(strip)
        s.flow.lookahead = flow.lookahead.mapValues(strip)
        s.page = page?.withoutDrawRuns(&made)
        return s
    }
}
