import GalleyStory
import GalleyTemplate
import GalleySupport

/// A point on a page, points from the top-left corner, y down.
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A rectangle on a page, points from the top-left corner, y down.
public struct Rect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
}

/// A line of text placed on a page.
public struct PlacedLine: Sendable {
    /// Left end of the line box's baseline (the region's left edge plus any indent).
    public var origin: Point
    /// The line box: its height is the line pitch.
    public var box: Rect
    /// Story bytes the line holds, up to where the next line starts.
    public var storyRange: Range<Int>
    /// Width of the set content.
    public var contentWidth: Double
    /// The content is wider than the line box.
    public var overfull: Bool
    /// Index of the paragraph in the story, and of the line within it.
    public var paragraphIndex: Int
    public var lineIndex: Int
    /// The shaped paragraph the line is drawn from.
    package var paragraph: ParagraphLayout
    /// A line of vertical text: `box` is the upright strip it fills, and the line runs down
    /// its centre (`origin` is where it starts on the centre line: the strip's top, below the
    /// line's indent).
    public var vertical = false
}

/// A drop cap placed on a page: the initial of a paragraph whose first lines are set beside it.
public struct PlacedDropCap: Sendable {
    /// Left end of the initial's baseline, which is the baseline of line `lines`: the first
    /// line's edge, or right of it as far as the initial's ink would cross that edge (a J).
    public var origin: Point
    /// The initial's box: from the first line's edge to its advance or its ink, whichever reaches
    /// further, and from the top of the first line's capitals down to its baseline, or to its
    /// ink's foot when that hangs below (a J's hook, a Q's tail).
    public var rect: Rect
    /// Story bytes of the initial (an opening quotation mark and a letter).
    public var storyRange: Range<Int>
    /// How many lines tall it is.
    public var lines: Int
    public var paragraphIndex: Int
    /// The shaped paragraph holding the initial's glyphs.
    package var paragraph: ParagraphLayout

    /// How many of its paragraph's lines are set beside it: `lines`, and those below that its
    /// ink reaches into.
    public var beside: Int { paragraph.text.dropCap?.beside ?? lines }

    /// The initial's foot: the foot of the last line it stands beside (its baseline, plus the
    /// first line's descent, plus a pitch for each line its ink reaches below line `lines`), and
    /// never above its ink's. It hangs below its paragraph when the paragraph has fewer lines
    /// than it is tall, and nothing that follows (a line, a band, an element across the
    /// columns) is set above it.
    public var foot: Double {
        guard let first = paragraph.lines.first else { return rect.maxY }
        let hanging = paragraph.text.dropCap.map { $0.reach - $0.drop } ?? 0
        return max(origin.y + hanging + first.height - first.ascent, rect.maxY)
    }
}

/// An image placed on a page.
public struct PlacedImage: Sendable {
    /// Index into `Story.images`.
    public var image: Int
    /// The image itself (without its caption).
    public var rect: Rect
    /// Story byte of the image's U+FFFC.
    public var storyOffset: Int
    /// The image was shrunk to fit a column it is taller than.
    public var shrunk: Bool
    /// Its caption and the box it is set in (under the image), when it has one.
    public var caption: String?
    public var captionRect: Rect?
    /// The area text keeps out of (image, caption and margin), for floats; nil for block images.
    public var exclusion: Rect?
    /// A pull quote or sidebar: its text, set to the box's width.
    package var block: SetTextBlock?

    public init(
        image: Int, rect: Rect, storyOffset: Int, shrunk: Bool, caption: String? = nil, captionRect: Rect? = nil, exclusion: Rect? = nil
    ) {
        self.image = image
        self.rect = rect
        self.storyOffset = storyOffset
        self.shrunk = shrunk
        self.caption = caption
        self.captionRect = captionRect
        self.exclusion = exclusion
    }
}

/// The result of filling one region (Core Text's CTFrame).
public struct Frame: Sendable {
    /// The region filled: a column rectangle.
    public var rect: Rect
    /// Column index on the page, from 0, left to right (0 for a frame across the columns).
    public var column: Int
    /// The frame spans every column (an element set with `span="all"`).
    public var spansColumns = false
    public var lines: [PlacedLine] = []
    public var images: [PlacedImage] = []
    /// The drop caps of the paragraphs whose first line is in the frame.
    public var dropCaps: [PlacedDropCap] = []
    /// The part of the story the frame holds (CTFrameGetVisibleStringRange), story bytes.
    public var visibleRange: Range<Int>

    public var isEmpty: Bool { lines.isEmpty && images.isEmpty }
}

/// A running head or footer as placed on a page, its fields filled in.
public struct RunningLine: Sendable, Equatable {
    public var text: String
    /// A point of its baseline: its left end when set flush left, its centre when centred, its
    /// right end when set flush right.
    public var anchor: Point
    /// `.left`, `.center` or `.right`.
    public var alignment: Alignment

    public init(text: String, anchor: Point, alignment: Alignment) {
        self.text = text
        self.anchor = anchor
        self.alignment = alignment
    }
}

/// A finished page: frames, the running head and the footer with the folio.
public struct Page: Sendable {
    /// 1-based page number.
    public var number: Int
    /// The page's folio, the number printed on it: the template's `startPage` for the first.
    public var folio: Int = 1
    public var width: Double
    public var height: Double
    public var frames: [Frame]
    /// Images placed across the columns (page-wide floats at the top, the foot, or spanning).
    public var floats: [PlacedImage] = []
    /// The footer line, and the running head; nil when off (the running head is also left off
    /// a page that opens a story and one that holds only a page-wide image).
    public var footer: RunningLine?
    public var header: RunningLine?

    /// Page 1 is a right-hand page (recto), and so is every odd page.
    public var isRightHand: Bool { Template.isRightHand(number) }

    /// The lowest point of what is set on the page (lines, images with their captions, drop
    /// caps to their foot, page-wide floats); nil when nothing is.
    public var contentBottom: Double? {
        func bottom(_ i: PlacedImage) -> Double { max(i.rect.maxY, i.captionRect?.maxY ?? 0) }
        var lowest: [Double] = floats.map(bottom)
        for f in frames {
            lowest += f.lines.map(\.box.maxY) + f.images.map(bottom) + f.dropCaps.map(\.foot)
        }
        return lowest.max()
    }

    /// Story bytes on the page.
    public var visibleRange: Range<Int> {
        guard let first = frames.first, let last = frames.last else { return 0..<0 }
        return first.visibleRange.lowerBound..<max(first.visibleRange.lowerBound, last.visibleRange.upperBound)
    }
}
