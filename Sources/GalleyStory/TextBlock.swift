import GalleyMarkup
import GalleyTemplate

/// A pull quote (`<pullquote>`) or a sidebar (`<aside>`): text set in a float of its own, in a
/// box the template's named style dresses (rules above and below, a frame, a background and
/// padding). Its text is a story of its own, so it is set by the same engine as the page.
public struct TextBlock: Sendable {
    public enum Kind: String, Sendable {
        case pullquote, sidebar
    }

    public var kind: Kind
    public var story: Story
    /// Where the opening tag is.
    public var location: SourceLocation
    /// The box around the text, from the style's `rule`, `ruleColor`, `frame`, `frameColor`,
    /// `background` and `padding`.
    public var box: BlockBox

    public init(kind: Kind, story: Story, location: SourceLocation, box: BlockBox) {
        self.kind = kind
        self.story = story
        self.location = location
        self.box = box
    }
}

/// How a pull quote's or sidebar's box is drawn, points.
public struct BlockBox: Hashable, Sendable {
    /// Rules above and below the text (a pull quote's), and their colour.
    public var rule: Double = 0
    public var ruleColor: RGBA = .black
    /// A frame all round (a sidebar's), and its colour.
    public var frame: Double = 0
    public var frameColor: RGBA = .black
    public var background: RGBA?
    /// Room between the box's edge (or rule) and the text.
    public var padding: Double = 0

    public init() {}

    /// Height the box adds to its text: padding and rules above and below.
    public var verticalExtra: Double { 2 * padding + 2 * max(rule, frame) }
    /// Width the box adds to its text: padding and frame on both sides.
    public var horizontalExtra: Double { 2 * padding + 2 * frame }
}
