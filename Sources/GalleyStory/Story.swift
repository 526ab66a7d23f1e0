import FoundationEssentials
import GalleyMarkup
import GalleySupport
import GalleyTemplate
import Glibc

/// What a run of characters looks like: NSAttributedString's character attributes, as far as
/// Galley supports them. Styles are deduplicated into `Story.styles`; runs refer to them by index.
public struct TextStyle: Hashable, Sendable {
    /// The face as the author wrote it: a family ("Palatino"), a family with a style
    /// ("DejaVu Serif Bold") or a PostScript name ("Helvetica-Bold"). Resolved by Layout.
    public var face: String
    /// Size in points.
    public var size: Double
    /// Fill colour of the glyphs.
    public var color: RGBA
    /// Outline colour; nil outlines in the fill colour (Core Text's default).
    public var strokeColor: RGBA?
    /// Core Text's stroke width: percent of the font size. Negative fills and strokes,
    /// positive strokes only (hollow glyphs), 0 draws no outline.
    public var strokeWidth: Double
    /// BCP 47 language of the text, used for font fallback and line breaking.
    public var language: String
    /// Font weight, 100–900 (400 regular, 700 bold).
    public var weight: Int = 400
    /// Upright, italic or oblique face.
    public var slant: Slant = .normal
    /// A box behind the glyphs, line-height tall, joined across spaces; nil for none.
    public var background: RGBA?
    /// NSLigatureAttributeName: 0 none, 1 standard (the default), 2 all (adds discretionary).
    public var ligatures: Int = 1
    /// NSKernAttributeName: points added after each character (negative tightens).
    public var kern: Double = 0
    /// Underline and strikethrough; nil for none.
    public var underline: Decoration?
    public var strikethrough: Decoration?
    /// A blurred shadow under the glyphs; nil for none.
    public var shadow: Shadow?
    /// NSBaselineOffsetAttributeName: points the glyphs are raised (negative lowers).
    public var baselineOffset: Double = 0
    /// NSObliquenessAttributeName: skew factor; positive leans right.
    public var obliqueness: Double = 0
    /// NSExpansionAttributeName: log of the horizontal scale of glyphs and advances.
    public var expansion: Double = 0
    /// Explicit writing direction of the run; nil follows the Unicode bidi algorithm.
    public var direction: WritingDirection?
    /// OpenType features, each a tag optionally with `=value` ("smcp", "onum", "ss01=1").
    public var features: [String] = []
    /// The link target; nil when the run is not a link.
    public var link: String?
    /// Dictionary hyphenation allowed in this run (`hyphenate="false"` turns it off).
    public var hyphenate: Bool = true

    public init(
        face: String, size: Double, color: RGBA = .black, strokeColor: RGBA? = nil,
        strokeWidth: Double = 0, language: String = "en"
    ) {
        self.face = face
        self.size = size
        self.color = color
        self.strokeColor = strokeColor
        self.strokeWidth = strokeWidth
        self.language = language
    }

    /// True when the glyphs get an outline.
    public var isStroked: Bool { strokeWidth != 0 }

    /// Horizontal scale of glyphs from `expansion` (e^expansion).
    public var horizontalScale: Double { expansion == 0 ? 1 : exp(expansion) }

    /// Hashes what tells a story's styles apart: the numbers, the colours and decorations, the
    /// face and the link target (a document of posts has a style for every mention and URL it
    /// links: without the target they would all hash alike, and interning them would take
    /// quadratic time); of the slant and the features, which kind or whether any; the language
    /// and the direction not at all. Equal styles hash alike, and `==` still compares every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(face)
        hasher.combine(link)
        hasher.combine(background)
        hasher.combine(underline)
        hasher.combine(strikethrough)
        hasher.combine(shadow)
        hasher.combine(size)
        hasher.combine(weight)
        hasher.combine(color.red)
        hasher.combine(color.green)
        hasher.combine(color.blue)
        hasher.combine(kern)
        hasher.combine(baselineOffset)
        hasher.combine(obliqueness)
        hasher.combine(expansion)
        hasher.combine(strokeWidth)
        hasher.combine(ligatures)
        hasher.combine((slant == .normal ? 0 : slant == .italic ? 1 : 2) | (features.isEmpty ? 0 : 4))
    }
}

/// Upright or slanted faces.
public enum Slant: String, Hashable, Sendable, CaseIterable {
    case normal, italic, oblique
}

/// An underline or strikethrough: its shape, and its colour (nil: the text's colour).
public struct Decoration: Hashable, Sendable {
    public var style: LineStyle
    public var color: RGBA?
    public init(style: LineStyle, color: RGBA? = nil) {
        self.style = style
        self.color = color
    }
}

/// A text shadow, as NSShadow: offset (points, x right, y down), blur radius (points) and colour.
public struct Shadow: Hashable, Sendable {
    public var dx: Double
    public var dy: Double
    public var blur: Double
    public var color: RGBA
    public init(dx: Double, dy: Double, blur: Double, color: RGBA) {
        self.dx = dx
        self.dy = dy
        self.blur = blur
        self.color = color
    }
}

/// Writing direction, as NSWritingDirection.
public enum WritingDirection: String, Hashable, Sendable, CaseIterable {
    case ltr, rtl
}

/// A range of the story's text in one style. Ranges are UTF-8 byte offsets into `Story.text`.
public struct StyleRun: Hashable, Sendable {
    public var range: Range<Int>
    /// Index into `Story.styles`.
    public var style: Int

    public init(range: Range<Int>, style: Int) {
        self.range = range
        self.style = style
    }
}

/// Where the flow goes before a paragraph.
public enum FlowBreak: String, Hashable, Sendable {
    case none, column, page
}

/// How a paragraph is set.
public struct ParagraphStyle: Hashable, Sendable {
    public var alignment: Alignment
    /// Indent of the first line, points (relative to `indent`).
    public var firstLineIndent: Double
    /// Indent of every line from the leading edge, points.
    public var indent: Double = 0
    /// Space before the paragraph (not at the top of a column), points.
    public var spacingBefore: Double = 0
    /// Space after the paragraph, points.
    public var spacingAfter: Double
    /// Fixed line pitch in points, overriding `leadingRatio`; nil to follow the sizes on the line.
    public var lineHeight: Double?
    /// Base direction of the paragraph; nil takes it from its first strong character.
    public var direction: WritingDirection?
    /// Heading level 1–3 (`<h1>`–`<h3>`), 0 for other paragraphs.
    public var headingLevel: Int = 0
    /// Start the paragraph in a new column or on a new page.
    public var breakBefore: FlowBreak = .none
    /// Set top to bottom, columns right to left (a `<vertical>` block).
    public var vertical: Bool = false
    /// A vertical block's height (`<vertical height>`), points; nil: the rest of its column.
    public var verticalHeight: Double?
    /// In a vertical block, numbers of at most this many digits are set upright, as one unit
    /// across the column (縦中横, `<vertical tcy>`); longer ones are turned with Latin text. 0: none.
    public var uprightDigits: Int = 2
    /// Set across every column of the page (`span="all"`, CSS's `column-span: all`): the
    /// columns before it are balanced above it, and the text after it goes on below it.
    public var spansColumns: Bool = false
    /// Line pitch as a multiple of the largest font size on a line (template leading ÷ size).
    public var leadingRatio: Double
    /// A heading: kept with the start of the next paragraph, never hyphenated.
    public var isHeading: Bool
    /// Dictionary hyphenation allowed (soft hyphens always are).
    public var hyphenate: Bool
    /// The first letter set as an initial several lines tall (`<p dropcap="3">`, or the
    /// template's `dropcap.after`); nil for none.
    public var dropCap: DropCapRequest?

    public init(
        alignment: Alignment, firstLineIndent: Double, spacingAfter: Double, leadingRatio: Double,
        isHeading: Bool = false, hyphenate: Bool = true
    ) {
        self.alignment = alignment
        self.firstLineIndent = firstLineIndent
        self.spacingAfter = spacingAfter
        self.leadingRatio = leadingRatio
        self.isHeading = isHeading
        self.hyphenate = hyphenate
    }
}

/// A drop cap asked for: the paragraph's first letter (with an opening quotation mark before
/// it) set as an initial `lines` tall, in the template's face and colour for initials.
public struct DropCapRequest: Hashable, Sendable {
    /// 2–10: the initial stands from the first line's capitals down to the baseline of this line.
    public var lines: Int
    public var face: String
    public var color: RGBA

    public init(lines: Int, face: String, color: RGBA) {
        self.lines = lines
        self.face = face
        self.color = color
    }
}

/// An image as written in the source, resolved to a file whose header has been read.
public struct ImageReference: Hashable, Sendable {
    /// The `src` as written.
    public var source: String
    /// The file path it resolved to (relative to the input file's folder).
    public var path: String
    /// What the file header says.
    public var info: ImageInfo
    /// `width`/`height` attributes, points, when given.
    public var width: Double?
    public var height: Double?
    /// Where the `<img` tag is.
    public var location: SourceLocation
    /// Where its `src` value is, for an error about the file found only when it is decoded (a
    /// PNG cut short in its pixels); nil for an image the builder made.
    public var sourceValue: SourceLocation?
    /// How the image sits in the flow.
    public var placement: ImagePlacement = .block
    /// Width asked for with a unit or a percentage (`width="40%"`, `width="120pt"`), when given;
    /// percentages are of the column's width (of the text area's for images across columns).
    public var widthSpec: ImageLength?
    /// How text wraps around a float, and the distance it keeps, points.
    public var wrap: WrapMode = .both
    public var margin: Double = 6
    /// The outline text follows with `wrap="contour"`.
    public var shape: ImageShape = .box
    /// Caption set under the image in the template's caption style.
    public var caption: String?
    /// `bleed="true"`: on a press sheet (`--press`), the sides that touch the trim run on into
    /// the bleed, so the cut never shows a sliver of paper.
    public var bleed = false
    /// Story byte of the image's U+FFFC when it stands inside a text paragraph (inline images
    /// and floats anchored in running text); nil for block images, which are paragraphs.
    public var anchor: Int?
    /// For a pull quote or a sidebar, an index into `Story.blocks`: a float of text, not of a
    /// file's pixels (`path` is empty and `info` a placeholder).
    public var block: Int?

    public init(
        source: String, path: String, info: ImageInfo, width: Double? = nil, height: Double? = nil, location: SourceLocation
    ) {
        self.source = source
        self.path = path
        self.info = info
        self.width = width
        self.height = height
        self.location = location
    }

    /// Width ÷ height the image is set at: the attributes' when both are given, else the pixels'.
    public var aspectRatio: Double {
        if let w = width, let h = height, w > 0, h > 0 { return w / h }
        return Double(info.pixelWidth) / Double(info.pixelHeight)
    }
}

/// Where an image goes.
public enum ImagePlacement: Hashable, Sendable {
    /// The Core Text tutorial's: a paragraph of its own at column width.
    case block
    /// An attachment in the line (NSTextAttachment): on the baseline, the line's height unless sized.
    case inline
    /// In its column at the anchor's line, to one side or centred; the text wraps around it.
    case float(FloatSide)
    /// Across all columns at the anchor's position; every column's text wraps around it.
    case span
    /// At the top or the foot of the page, across all columns.
    case top, bottom
}

/// The side of a column a float keeps to.
public enum FloatSide: String, Hashable, Sendable, CaseIterable {
    case left, right, center
}

/// Which sides of a float text may run on; `contour` follows the image's outline.
public enum WrapMode: String, Hashable, Sendable, CaseIterable {
    case both, left, right, none, contour
}

/// The outline of an image for contour wrap.
public enum ImageShape: Hashable, Sendable {
    /// The image's rectangle.
    case box
    /// The ellipse inscribed in the rectangle (a circle for a square image).
    case ellipse
    /// A polygon in the image's pixel coordinates (x, y pairs from the top-left).
    case polygon([Double])
    /// Where the PNG's alpha channel is opaque.
    case alpha
}

/// A length that may be relative to the column.
public enum ImageLength: Hashable, Sendable {
    case points(Double)
    case percent(Double)
}

/// A paragraph of the story: a text paragraph, or a block object standing alone as U+FFFC.
public struct Paragraph: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        case text
        /// Index into `Story.images`.
        case image(Int)
    }
    /// The paragraph's text in `Story.text`, UTF-8 bytes, without its terminating newline.
    public var range: Range<Int>
    /// Where its terminator ends: `range.upperBound + 1`, or `range.upperBound` for the story's last paragraph.
    public var end: Int
    public var content: Content
    public var style: ParagraphStyle
    /// Indices into `Story.runs` of the runs inside `range`.
    public var runs: Range<Int>

    public init(range: Range<Int>, end: Int, content: Content, style: ParagraphStyle, runs: Range<Int>) {
        self.range = range
        self.end = end
        self.content = content
        self.style = style
        self.runs = runs
    }
}

/// The whole attributed text to set (NSAttributedString's role). Offsets are UTF-8 bytes.
/// Paragraphs partition the text: each is followed by one `\n`, except the last.
public struct Story: Sendable {
    public var text: String
    public var styles: [TextStyle]
    public var runs: [StyleRun]
    public var paragraphs: [Paragraph]
    public var images: [ImageReference]
    /// Maps story offsets back to source line:col.
    public var sourceMap: SourceMap
    /// For each distinct face, where it was first asked for (for "face not installed" warnings).
    public var faceRequests: [String: SourceLocation]
    /// The story's fields, given by `<meta>` (`title`, `section`, `issue`), which running heads
    /// and footers show; the title is the first `<h1>`'s text when no `<meta>` gives one.
    public var title: String?
    public var section: String?
    public var issue: String?
    /// The text of pull quotes and sidebars, each a story of its own, set in the float that
    /// stands for it (`ImageReference.block`).
    public var blocks: [TextBlock] = []
    /// Files the text names that could not be used (an image missing, unreadable or too
    /// large): not in the story, but what `galley watch` waits on to build again.
    public var refusedFiles: [String] = []

    /// The fields by name, for filling in a running head or footer.
    public var fields: [String: String] {
        var out: [String: String] = [:]
        out["title"] = title
        out["section"] = section
        out["issue"] = issue
        return out
    }

    public init(
        text: String, styles: [TextStyle], runs: [StyleRun], paragraphs: [Paragraph],
        images: [ImageReference], sourceMap: SourceMap, faceRequests: [String: SourceLocation]
    ) {
        self.text = text
        self.styles = styles
        self.runs = runs
        self.paragraphs = paragraphs
        self.images = images
        self.sourceMap = sourceMap
        self.faceRequests = faceRequests
    }

    /// The number of Unicode scalars before a byte offset: what users see as a character offset.
    public func characterOffset(ofByte offset: Int) -> Int {
        sourceMap.characterOffset(ofByte: offset, in: text)
    }
}
