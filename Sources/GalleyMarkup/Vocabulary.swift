import GalleySupport
/// One tag the parser knows: its name and the attributes it may carry.
public struct TagSpec: Hashable, Sendable {
    /// The tag name, lower-cased.
    public var name: String
    /// The allowed attribute names, lower-cased.
    public var attributes: Set<String>
    /// A void tag never has an end tag (`img`, `br`).
    public var isVoid: Bool

    public init(name: String, attributes: Set<String>, isVoid: Bool = false) {
        self.name = name.lowercased()
        self.attributes = Set(attributes.map { $0.lowercased() })
        self.isVoid = isVoid
    }

    /// A tag that may have an end tag: `.tag("font", "color", "face")`.
    public static func tag(_ name: String, _ attributes: String...) -> TagSpec {
        TagSpec(name: name, attributes: Set(attributes))
    }

    /// A tag that never has an end tag: `.void("img", "src")`.
    public static func void(_ name: String, _ attributes: String...) -> TagSpec {
        TagSpec(name: name, attributes: Set(attributes), isVoid: true)
    }

    /// The attribute names in a stable (sorted) order, for suggestions and messages.
    public var sortedAttributes: [String] { attributes.sorted() }
}

/// The tags the parser accepts. Anything else is reported and ignored.
public struct Vocabulary: Sendable {
    private var byName: [String: TagSpec] = [:]
    private var order: [String] = []

    /// Later specs with the same (case-insensitive) name replace earlier ones.
    public init(_ specs: [TagSpec]) {
        for spec in specs { add(spec) }
    }

    /// The character attributes `<font>` and `<span>` take (NSAttributedString's vocabulary).
    public static let characterAttributes: [String] = [
        "face", "size", "weight", "style", "color", "background", "ligatures", "kern",
        "strikethrough", "strikethroughcolor", "underline", "underlinecolor", "strokecolor", "strokewidth",
        "shadow", "baseline", "obliqueness", "expansion", "dir", "features", "lang", "hyphenate",
    ]

    /// The paragraph attributes `<p>` and `<h1>`–`<h3>` take.
    public static let paragraphAttributes: [String] = [
        "align", "indent", "firstindent", "before", "after", "leading", "lineheight", "dir", "hyphenate", "span", "dropcap", "lang",
    ]

    /// The tags Galley understands. Adding a tag is one line here.
    ///
    /// * `font` (a state change) and `span` (a container) set character attributes;
    ///   `b`, `i`, `u`, `s`, `sup`, `sub` are short forms; `a href` makes a link; `code` is text
    ///   set as typed in a monospace face.
    /// * `p`, `h1`–`h3` are paragraphs with paragraph attributes; `vertical` is a block of
    ///   vertical paragraphs.
    /// * Void: `img`, `br` (a line break inside the paragraph), `columnbreak`, `pagebreak`, and
    ///   `meta`, whose attributes are the story's fields (see `metaFields`), not text.
    public static let standard = Vocabulary([
        TagSpec(name: "font", attributes: Set(characterAttributes)),
        .void(
            "img", "src", "width", "height", "float", "wrap", "margin", "caption", "shape", "inline", "span", "columns", "alt", "class",
            "bleed"),
        TagSpec(name: "span", attributes: Set(characterAttributes + ["class"])),
        .tag("b"), .tag("i"), .tag("u"), .tag("s"), .tag("sup"), .tag("sub"),
        .tag("a", "href", "class"),
        .tag("code", "class"),
        .tag("social"),
        .void("br"),
        TagSpec(name: "p", attributes: Set(paragraphAttributes + ["class"])),
        TagSpec(name: "h1", attributes: Set(paragraphAttributes + ["class"])),
        TagSpec(name: "h2", attributes: Set(paragraphAttributes + ["class"])),
        TagSpec(name: "h3", attributes: Set(paragraphAttributes + ["class"])),
        .tag("vertical", "lang", "height", "tcy"),
        .void("columnbreak"),
        .void("pagebreak"),
        TagSpec(name: "meta", attributes: Set(metaFields), isVoid: true),
        .tag("pullquote", "float", "width", "margin", "class"),
        .tag("aside", "float", "span", "width", "margin", "class"),
    ])

    /// What a named style for `<pullquote>` or `<aside>` may give its box besides the text's
    /// attributes: rules above and below, a frame, their colours and the padding inside.
    public static let blockBoxAttributes: [String] = ["rule", "ruleColor", "frame", "frameColor", "padding"]

    /// The story fields `<meta>` sets, which running heads and footers show.
    public static let metaFields = ["title", "section", "issue"]

    /// The spec for a tag name (case-insensitive).
    public func spec(_ name: String) -> TagSpec? { byName[name] ?? byName[name.lowercased()] }

    /// The known tag names, lower-cased, in the order they were given.
    public var tagNames: [String] { order }

    /// HTML's element names: such a tag Galley does not know is markup all the same (dropped,
    /// its text kept), not prose to set as written (`MarkupParser.isProse`).
    public static let htmlNames: Set<String> = [
        "abbr", "address", "article", "audio", "bdi", "bdo", "big", "blink", "blockquote", "body", "button", "canvas",
        "caption", "center", "cite", "col", "colgroup", "data", "dd", "del", "details", "dfn", "dialog", "div", "dl",
        "dt", "em", "embed", "fieldset", "figcaption", "figure", "footer", "form", "h4", "h5", "h6", "head", "header",
        "hr", "html", "iframe", "input", "ins", "kbd", "label", "legend", "li", "link", "main", "mark", "marquee",
        "menu", "meter", "nav", "nobr", "noscript", "object", "ol", "optgroup", "option", "output", "param", "picture",
        "pre", "progress", "q", "rp", "rt", "ruby", "samp", "script", "section", "select", "small", "source", "strike",
        "strong", "style", "summary", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "time",
        "title", "tr", "track", "tt", "ul", "var", "video", "wbr",
    ]

    /// This vocabulary with one more tag (or a tag replaced).
    public func adding(_ spec: TagSpec) -> Vocabulary {
        var copy = self
        copy.add(spec)
        return copy
    }

    private mutating func add(_ spec: TagSpec) {
        if byName[spec.name] == nil { order.append(spec.name) }
        byName[spec.name] = spec
    }
}
