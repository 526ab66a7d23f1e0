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

    /// The tags Galley understands. Adding a tag is one line here.
    public static let standard = Vocabulary([
        .tag("font", "color", "face", "size", "strokecolor", "strokewidth"),
        .void("img", "src", "width", "height"),
    ])

    /// The spec for a tag name (case-insensitive).
    public func spec(_ name: String) -> TagSpec? { byName[name.lowercased()] }

    /// The known tag names, lower-cased, in the order they were given.
    public var tagNames: [String] { order }

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
