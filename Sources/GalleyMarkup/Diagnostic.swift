import GalleySupport
/// How bad a diagnostic is. Errors stop the build (exit 1); warnings do not.
public enum Severity: String, Sendable, Comparable {
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// One message for the user, located in a file when it can be.
public struct Diagnostic: Error, Hashable, Sendable {
    public var severity: Severity
    public var message: String
    /// The file the message is about (a path as the user gave it, `<stdin>`, or a template file).
    public var file: String?
    /// Where in `file`; nil for messages about the whole file or none.
    public var location: SourceLocation?
    /// Number of Unicode scalars the caret underlines (1 = a single caret).
    public var length: Int

    public init(
        _ severity: Severity, _ message: String, file: String? = nil,
        at location: SourceLocation? = nil, length: Int = 1
    ) {
        self.severity = severity
        self.message = message
        self.file = file
        self.location = location
        self.length = max(1, length)
    }

    public static func error(
        _ message: String, file: String? = nil, at location: SourceLocation? = nil, length: Int = 1
    ) -> Diagnostic {
        Diagnostic(.error, message, file: file, at: location, length: length)
    }

    public static func warning(
        _ message: String, file: String? = nil, at location: SourceLocation? = nil, length: Int = 1
    ) -> Diagnostic {
        Diagnostic(.warning, message, file: file, at: location, length: length)
    }
}

/// Collects diagnostics as a stage runs; stages never print.
public struct Diagnostics: Sendable {
    public private(set) var all: [Diagnostic] = []

    public init() {}

    public mutating func append(_ d: Diagnostic) { all.append(d) }
    public mutating func append(contentsOf ds: [Diagnostic]) { all.append(contentsOf: ds) }
    public mutating func append(contentsOf ds: Diagnostics) { all.append(contentsOf: ds.all) }

    public var hasErrors: Bool { all.contains { $0.severity == .error } }
    public var errors: [Diagnostic] { all.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { all.filter { $0.severity == .warning } }
    public var isEmpty: Bool { all.isEmpty }

    /// The diagnostics in reading order: files in the order they were first named, and within a
    /// file by line and column (messages about the whole file first), whatever stage found
    /// them; equal places keep the order they were found in.
    public var inReadingOrder: [Diagnostic] {
        var fileRank: [String: Int] = [:]
        for d in all where fileRank[d.file ?? ""] == nil { fileRank[d.file ?? ""] = fileRank.count }
        return all.enumerated().sorted { a, b in
            let (fa, fb) = (fileRank[a.element.file ?? ""]!, fileRank[b.element.file ?? ""]!)
            if fa != fb { return fa < fb }
            let (la, lb) = (a.element.location?.offset ?? -1, b.element.location?.offset ?? -1)
            if la != lb { return la < lb }
            return a.offset < b.offset
        }.map(\.element)
    }
}
