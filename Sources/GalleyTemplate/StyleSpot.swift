import GalleyMarkup
import GalleySupport

extension TemplateLoader {
    /// Where template files give style `style`'s `attribute`: the first of `files` (a template
    /// read, then the ones it extends) whose `styles` sets it, as a diagnostic of `message` at
    /// the value. Nil when no file does (a `--set` or a manifest's layer set it).
    public static func styleMistake(_ message: String, style: String, attribute: String, in files: [String]) -> Diagnostic? {
        for file in files where file.lowercased().hasSuffix(".json") {
            guard case .success(let text) = readText(file), case .success(let root) = JSONReader.parse(text),
                let value = member("styles", of: root).flatMap({ member(style, of: $0) }).flatMap({ member(attribute, of: $0) })
            else { continue }
            return .error("style '\(style)': \(message)", file: file, at: value.start, length: value.length)
        }
        return nil
    }

    /// The value of `key` in an object (keys of styles match without case, as attributes do).
    private static func member(_ key: String, of v: JSONValue) -> JSONValue? {
        guard case .object(let members) = v.kind else { return nil }
        return members.last { $0.key.lowercased() == key.lowercased() }?.value
    }
}
