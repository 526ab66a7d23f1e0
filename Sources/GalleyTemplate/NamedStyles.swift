import GalleyMarkup

/// One attribute of a named style, as a tag would give it: its name in lower case and its value.
public struct StyleAttribute: Equatable, Sendable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A named paragraph or character style of a template (JSON key `styles`), applied with
/// `class="name"` on `<p>`, `<h1>`–`<h3>` and `<span>`: any attributes of `<p>` and `<span>`
/// (plus `span` and `dropcap`), written once, starting from the style it is `basedOn`.
public struct NamedStyle: Equatable, Sendable {
    public var name: String
    /// The style this one starts from. JSON key `basedOn`.
    public var basedOn: String?
    /// Its own attributes, in the order given (a later one of the same name replaces it).
    public var attributes: [StyleAttribute]

    public init(name: String, basedOn: String? = nil, attributes: [StyleAttribute] = []) {
        self.name = name
        self.basedOn = basedOn
        self.attributes = attributes
    }

    /// Builds a style from `name: value` pairs (the built-ins).
    public init(_ name: String, basedOn: String? = nil, _ pairs: KeyValuePairs<String, String>) {
        self.init(name: name, basedOn: basedOn, attributes: pairs.map { StyleAttribute(name: $0.key, value: $0.value) })
    }

    /// Sets one attribute, replacing an earlier value of it.
    public mutating func set(_ name: String, _ value: String) {
        if let i = attributes.firstIndex(where: { $0.name == name }) {
            attributes[i].value = value
        } else {
            attributes.append(StyleAttribute(name: name, value: value))
        }
    }

    /// The keys a style may hold: `basedOn`, and every attribute of `<span>` and `<p>` (any case).
    public static let keys: [String] = {
        var seen: Set<String> = []
        return (["basedOn"] + Vocabulary.characterAttributes + Vocabulary.paragraphAttributes + Vocabulary.blockBoxAttributes)
            .filter { seen.insert($0).inserted }
    }()
}

extension Template {
    /// The named style `name`, if the template defines it.
    public func style(named name: String) -> NamedStyle? { styles.first { $0.name == name } }

    /// Adds a style, or replaces the one of its name (in place, keeping the order).
    public mutating func setStyle(_ style: NamedStyle) {
        if let i = styles.firstIndex(where: { $0.name == style.name }) {
            styles[i] = style
        } else {
            styles.append(style)
        }
    }

    /// The attributes `class="name"` applies: those of the styles it is based on first, then its
    /// own. Nil for a style the template does not define. A chain is at most as long as there are
    /// styles (the decoder refuses cycles; this bound keeps a hand-made value safe too).
    public func resolvedStyle(_ name: String) -> [StyleAttribute]? {
        guard var style = style(named: name) else { return nil }
        var chain = [style]
        while let base = style.basedOn, let next = self.style(named: base), chain.count <= styles.count {
            chain.append(next)
            style = next
        }
        var merged = NamedStyle(name: name)
        for s in chain.reversed() { for a in s.attributes { merged.set(a.name, a.value) } }
        return merged.attributes
    }

    /// The styles every built-in template defines: a kicker (the line above a headline), a deck
    /// (standfirst, across the columns), a byline, a pull quote, a sidebar's text, a cover line
    /// (set over an issue's cover), a caption, and `<code>`'s face.
    static let builtinStyles: [NamedStyle] = [
        NamedStyle(
            "kicker",
            ["face": "DejaVu Sans", "size": "8", "weight": "bold", "color": "firebrick", "kern": "0.6", "span": "all", "after": "2"]),
        NamedStyle("deck", ["size": "13", "style": "italic", "color": "#333333", "span": "all", "after": "10"]),
        NamedStyle("byline", ["face": "DejaVu Sans", "size": "8", "weight": "bold", "color": "#555555", "after": "10"]),
        NamedStyle(
            "pullquote",
            [
                "size": "14", "style": "italic", "color": "#1f4e8c", "align": "center", "after": "4", "rule": "1.5",
                "ruleColor": "#1f4e8c", "padding": "6",
            ]),
        NamedStyle(
            "sidebar",
            ["face": "DejaVu Sans", "size": "8.5", "background": "#efe9dc", "padding": "8", "frame": "0.5", "frameColor": "#b8aa8a"]),
        NamedStyle(
            "coverline", ["face": "DejaVu Sans", "size": "30", "weight": "bold", "color": "white", "align": "left", "after": "8"]),
        NamedStyle("caption", basedOn: "sidebar", ["style": "italic", "background": "none", "color": "#404040"]),
        NamedStyle("code", ["face": "DejaVu Sans Mono"]),
    ]
}
