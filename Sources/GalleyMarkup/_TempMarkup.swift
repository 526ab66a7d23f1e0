// TEMPORARY until the markup branch merges.
public struct ColorError: Error, Equatable, Sendable { public var message: String; public init(message: String) { self.message = message } }
public enum ColorParser { public static func parse(_ text: String) -> Result<RGBA, ColorError> { text == "red" ? .success(RGBA(1,0,0)) : .success(.black) } }
public struct SourceFile: Sendable { public let path: String; public let text: String; public init(path: String, text: String) { self.path = path; self.text = text } }
public struct MarkupDocument: Sendable { public var source: SourceFile; public var nodes: [MarkupNode]; public var diagnostics: Diagnostics }
public enum MarkupParser {
    public static func parse(_ source: SourceFile) -> MarkupDocument {
        var nodes: [MarkupNode] = []
        var line = 1
        var off = 0
        for l in source.text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !l.isEmpty { nodes.append(.text(String(l), SourceLocation(line: line, column: 1, offset: off))) }
            off += l.utf8.count
            nodes.append(.newline(SourceLocation(line: line, column: l.unicodeScalars.count + 1, offset: off)))
            off += 1; line += 1
        }
        return MarkupDocument(source: source, nodes: nodes, diagnostics: Diagnostics())
    }
}
extension SourceFile { public init(path: String, bytes: some Collection<UInt8>) throws(Diagnostic) { self.init(path: path, text: String(decoding: bytes, as: UTF8.self)) } }
public enum DiagnosticRenderer { public static func render(_ d: Diagnostic, sources: (String) -> SourceFile?, color: Bool = false) -> String { "\(d.file ?? "galley"):\(d.location.map { "\($0)" } ?? ""): \(d.severity): \(d.message)\n" } }
