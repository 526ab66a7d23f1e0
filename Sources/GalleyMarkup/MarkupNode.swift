import GalleySupport
/// One attribute of a tag, as written: `name="value"`.
public struct MarkupAttribute: Hashable, Sendable {
    /// The name as written in the source (case kept, for messages).
    public let name: String
    /// The value with entities decoded.
    public var value: String
    /// Where the name starts.
    public var nameLocation: SourceLocation
    /// Where the value's first character starts (just after the opening quote).
    public var valueLocation: SourceLocation

    /// The name lower-cased: tag and attribute names are case-insensitive. Made once, here:
    /// the story builder looks attributes up by it several times a tag.
    public let key: String

    public init(name: String, value: String, nameLocation: SourceLocation, valueLocation: SourceLocation) {
        self.name = name
        self.value = value
        self.nameLocation = nameLocation
        self.valueLocation = valueLocation
        self.key = name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x80 }) ? name.lowercased() : name
    }

    /// An attribute whose name's lower-cased form is known already (the parser reads it with
    /// the name).
    init(name: String, key: String, value: String, nameLocation: SourceLocation, valueLocation: SourceLocation) {
        self.name = name
        self.value = value
        self.nameLocation = nameLocation
        self.valueLocation = valueLocation
        self.key = key
    }
}

extension [MarkupAttribute] {
    /// Whether two attributes have the same name (case-insensitively). A tag has a few: they are
    /// compared in pairs.
    public var repeatsAName: Bool {
        indices.contains { i in self[(i + 1)...].contains { $0.key == self[i].key } }
    }
}

/// A start tag such as `<font color="red">` or `<img src="a.png"/>`.
public struct MarkupTag: Hashable, Sendable {
    /// The tag name, lower-cased.
    public var name: String
    public var attributes: [MarkupAttribute]
    /// Where the `<` is.
    public var location: SourceLocation
    /// Written as `<name …/>`.
    public var selfClosing: Bool

    public init(name: String, attributes: [MarkupAttribute], location: SourceLocation, selfClosing: Bool) {
        self.name = name
        self.attributes = attributes
        self.location = location
        self.selfClosing = selfClosing
    }

    /// The attribute with this name, given in lower case (names are case-insensitive: this
    /// matches `key`); the last one wins when repeated.
    public func attribute(_ key: String) -> MarkupAttribute? {
        attributes.last { $0.key == key }
    }
}

/// The parser's output: a flat sequence of nodes in source order. Tags are not paired here
/// (Core Text tutorial files use `<font>` as a state change with no closing tag); the story
/// builder gives them meaning.
public enum MarkupNode: Hashable, Sendable {
    /// Characters with entities decoded. Never contains a newline. Text is split so that
    /// every character of one node maps linearly to consecutive source columns: a decoded
    /// entity (`&amp;`) is always a node of its own.
    case text(String, SourceLocation)
    /// A line break in the source (`\n` or `\r\n`).
    case newline(SourceLocation)
    /// A known start tag.
    case startTag(MarkupTag)
    /// A known end tag `</name>`; the name is lower-cased.
    case endTag(String, SourceLocation)

    public var location: SourceLocation {
        switch self {
        case .text(_, let l), .newline(let l), .endTag(_, let l): l
        case .startTag(let t): t.location
        }
    }
}
