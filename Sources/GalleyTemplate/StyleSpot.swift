import GalleyMarkup
import GalleySupport

extension TemplateLoader {
    /// Where template files give style `style`'s `attribute`: the first of `files` (a template
    /// read, then the ones it extends) whose `styles` sets it, as a diagnostic of `message` at
    /// the value. Nil when no file does (a `--set` or a manifest's layer set it).
    public static func styleMistake(_ message: String, style: String, attribute: String, in files: [String]) -> Diagnostic? {
        let found = firstValue(in: files) { root in
            member("styles", of: root).flatMap { member(style, of: $0) }.flatMap { member(attribute, of: $0) }
        }
        return found.map { .error("style '\(style)': \(message)", file: $0.file, at: $0.at, length: $0.length) }
    }

    /// The first value `find` picks in the JSON files of `files`, in order, and where it is
    /// written; files that cannot be read or parsed are passed over (their errors are said
    /// where they are read). For messages about values already read, so only on their path.
    static func firstValue(
        in files: [String], _ find: (JSONValue) -> JSONValue?
    ) -> (file: String, at: SourceLocation, length: Int)? {
        for file in files where file.lowercased().hasSuffix(".json") {
            guard case .success(let text) = readText(file), case .success(let root) = JSONReader.parse(text),
                let value = find(root)
            else { continue }
            return (file, value.start, value.length)
        }
        return nil
    }

    /// The value of `key` in an object (keys of styles match without case, as attributes do).
    private static func member(_ key: String, of v: JSONValue) -> JSONValue? {
        guard case .object(let members) = v.kind else { return nil }
        return members.last { $0.key.lowercased() == key.lowercased() }?.value
    }
}

extension TemplateLoader {
    /// Where `files` (templates, a manifest) name face `name`: the first string equal to it
    /// under a `face` key (`"face"`, or a dotted `"body.face"` in a `set`) or in a `fallback`
    /// list, in the first file that has one. Nil when none does (a built-in template, a
    /// `--set`). Read only when a face needs a warning, so no build pays for it otherwise.
    public static func faceSpot(_ name: String, in files: [String]) -> (file: String, at: SourceLocation, length: Int)? {
        firstValue(in: files) { faceValue(name, in: $0, under: nil) }
    }

    /// The first string `name` in `v` that is a face: directly under a face or fallback key
    /// (`key`), or in a fallback's list or its lists by script.
    private static func faceValue(_ name: String, in v: JSONValue, under key: String?) -> JSONValue? {
        let names = key.map { k in ["face", "fallback"].contains { k == $0 || k.hasSuffix("." + $0) } } ?? false
        switch v.kind {
        case .string(let s): return names && s == name ? v : nil
        case .array(let items): return items.lazy.compactMap { faceValue(name, in: $0, under: names ? key : nil) }.first
        case .object(let members):
            // Inside a fallback, the keys are scripts: the lists keep the fallback's key.
            return members.lazy.compactMap { faceValue(name, in: $0.value, under: names ? key : $0.key) }.first
        default: return nil
        }
    }
}

extension TemplateLoader {
    /// Where `files` give the value of `path` (`["margins"]`, `["footer", "size"]`): the value
    /// under those keys, or a `set`'s dotted key for it or for what is under it
    /// (`"margins.bottom"`), in the first file that has one. Nil when none does.
    public static func valueSpot(_ path: [String], in files: [String]) -> (file: String, at: SourceLocation, length: Int)? {
        let dotted = path.joined(separator: ".")
        return firstValue(in: files) { root in
            if let v = path.reduce(Optional(root), { v, key in v.flatMap { member(key, of: $0) } }) { return v }
            guard let set = member("set", of: root), case .object(let members) = set.kind else { return nil }
            return members.last { $0.key == dotted || $0.key.hasPrefix(dotted + ".") }?.value
        }
    }
}
