import GalleyMarkup

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

/// How a paragraph is set.
public struct ParagraphStyle: Hashable, Sendable {
    public var alignment: Alignment
    /// Indent of the first line, points.
    public var firstLineIndent: Double
    /// Space after the paragraph, points.
    public var spacingAfter: Double
    /// Line pitch as a multiple of the largest font size on a line (template leading ÷ size).
    public var leadingRatio: Double
    /// A heading: kept with the start of the next paragraph, never hyphenated.
    public var isHeading: Bool
    /// Dictionary hyphenation allowed (soft hyphens always are).
    public var hyphenate: Bool

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

    /// Width ÷ height the image is set at: the attributes' when both are given, else the pixels'.
    public var aspectRatio: Double {
        if let w = width, let h = height, w > 0, h > 0 { return w / h }
        return Double(info.pixelWidth) / Double(info.pixelHeight)
    }
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
