import Foundation
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
}

/// Upright or slanted faces.
public enum Slant: String, Hashable, Sendable, CaseIterable {
    case normal, italic, oblique
}

/// The shape of an underline or strikethrough.
public enum LineStyle: String, Hashable, Sendable, CaseIterable {
    case single, double, thick, dotted, dashed, wavy
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
