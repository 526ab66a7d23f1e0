// TEMPORARY until the template branch merges.
import GalleyMarkup
public enum Alignment: String, Sendable, CaseIterable { case justify, left, right, center }
public enum ParagraphMode: String, Sendable, CaseIterable { case newline, blankLine = "blank-line" }
public struct EdgeInsets: Equatable, Sendable { public var top, right, bottom, left: Double }
public struct TextSpec: Equatable, Sendable { public var face: String; public var size: Double; public var leading: Double; public var color: RGBA }
public struct FooterSpec: Equatable, Sendable { public var enabled: Bool; public var text: String; public var face: String; public var size: Double; public var color: RGBA }
public struct Template: Equatable, Sendable {
    public var name: String = "magazine"
    public var summary: String = ""
    public var pageWidth: Double = 595.2756, pageHeight: Double = 841.8898
    public var margins = EdgeInsets(top: 42.52, right: 42.52, bottom: 42.52, left: 42.52)
    public var columns: Int = 2
    public var gutter: Double = 17.0079
    public var body = TextSpec(face: "DejaVu Serif", size: 10, leading: 12, color: .black)
    public var paragraphSpacing: Double = 6
    public var firstLineIndent: Double = 0
    public var alignment: Alignment = .justify
    public var paragraphMode: ParagraphMode = .newline
    public var language: String = "en"
    public var fallbackFaces: [String] = ["Noto Serif CJK SC", "Noto Color Emoji"]
    public var footer = FooterSpec(enabled: true, text: "{page}", face: "DejaVu Serif", size: 8, color: RGBA(0.5,0.5,0.5))
    public static let `default` = Template()
}
public enum LengthParser { public static func points(_ text: String) -> Result<Double, ColorError> { if let d = Double(text) { return .success(d) }; return .failure(ColorError(message: "bad")) } }
extension Template { public static var builtins: [Template] { [Template()] } }
public enum TemplateLoader {
    public static func load(_ nameOrPath: String) -> Result<Template, Diagnostic> { .success(Template()) }
    public static func apply(_ overrides: [String], to t: Template, file: String) -> Result<Template, Diagnostic> { .success(t) }
    public static func encode(_ t: Template) -> String { "{}" }
}
