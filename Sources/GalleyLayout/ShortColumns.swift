import GalleyStory
import GalleySupport

/// A column that ends more than three lines above the foot of its band, and why: what the flow
/// met there that it could not set in the room left.
public struct ShortColumn: Sendable, Codable, Equatable {
    public var page: Int
    /// 1-based column.
    public var column: Int
    /// Whole lines of the body leading left empty at the column's foot.
    public var lines: Int
    public var cause: String
}

extension LayoutStatistics {
    /// The columns of `page` more than three lines short of their band's foot (the page's foot,
    /// or the balanced height above a spanning element), each with its cause.
    public static func shortColumns(_ page: Page, story: Story, leading: Double) -> [ShortColumn] {
        guard leading > 0 else { return [] }
        var out: [ShortColumn] = []
        for frame in page.frames where !frame.spansColumns {
            let initials = frame.dropCaps.map(\.foot).max() ?? frame.rect.y
            let foot = max(
                frame.lines.map(\.box.maxY).max() ?? frame.rect.y, frame.images.map(\.rect.maxY).max() ?? frame.rect.y, initials)
            let lines = Int(((frame.rect.maxY - foot) / leading + 1e-6).rounded(.down))
            guard lines > 3 else { continue }
            out.append(
                ShortColumn(
                    page: page.number, column: frame.column + 1, lines: lines, cause: cause(at: frame.visibleRange.upperBound, story)))
        }
        return out
    }

    /// What stands in the story where a column ended.
    static func cause(at byte: Int, _ story: Story) -> String {
        let i = story.paragraphs.partitionPoint { $0.end > byte }
        guard i < story.paragraphs.count, byte < story.text.utf8.count else { return "the end of the story" }
        let p = story.paragraphs[i]
        if byte > p.range.lowerBound { return "widows and orphans: the rest of a paragraph split here" }
        if p.style.breakBefore != .none { return "a column or page break" }
        if p.style.spansColumns { return "an element across the columns below" }
        if case .image = p.content { return "an image taller than the room left" }
        if p.style.isHeading { return "a heading kept with the lines after it" }
        return "widows and orphans: a paragraph too short to split"
    }
}
