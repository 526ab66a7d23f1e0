import GalleySupport
/// A place in a source file: 1-based line and column (column counts Unicode scalars),
/// plus the UTF-8 byte offset from the start of the file.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// UTF-8 byte offset of this place from the start of the file.
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool { a.offset < b.offset }

    /// `line:col`, the form used in dumps and diagnostics.
    public var description: String { "\(line):\(column)" }
}
