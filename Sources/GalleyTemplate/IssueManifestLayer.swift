import GalleyMarkup
import GalleySupport

/// A `set` object of a manifest: template keys (dotted or nested, as in a template file or
/// `--set`) with their location.
///
/// The object is kept with its dotted keys taken apart into nested objects, so the template
/// decoder reads it as it reads a template file, and every diagnostic points into the manifest.
public struct TemplateLayer: Sendable {
    /// The manifest file it was written in.
    public let file: String
    /// Its key path in the manifest: `set`, `articles[2].set`.
    public let keyPath: String
    /// Where the object is.
    public let location: SourceLocation
    /// The keys, nested (set once, in `init`).
    var object: JSONValue
    /// Where the files a layer names (emoticon packs) may lie.
    let roots: [FileRoot]

    /// Takes the `set` object `value` apart, checking every key against the template schema.
    init(_ value: JSONValue, keyPath: String, file: String, roots: [FileRoot]) throws(Diagnostic) {
        self.file = file
        self.keyPath = keyPath
        location = value.start
        self.roots = roots
        object = JSONValue(.object([]), start: value.start, end: value.end)
        object.kind = .object(try nested(value))
        // The issue numbers its pages: a template's first folio here would be ignored.
        if case .object(let members) = object.kind, let m = members.first(where: { $0.key.lowercased() == "startpage" }) {
            throw Diagnostic.error(
                "key '\(keyPath).startPage': an issue's folios run on from the manifest's \"startPage\"; set it there",
                file: file, at: m.value.start, length: m.value.length)
        }
    }

    /// Applies the layer on top of `base`; errors are located in the manifest (file:line:col,
    /// the key path named).
    public func apply(to base: Template) -> Result<Template, Diagnostic> {
        do throws(Diagnostic) {
            return .success(try applying(to: base, acrossKeys: true))
        } catch {
            return .failure(error)
        }
    }

    /// The layer on `base`. Without `acrossKeys` only each value is checked: the checks that
    /// weigh keys together (leading against size, room for text) need the real base.
    func applying(to base: Template, acrossKeys: Bool) throws(Diagnostic) -> Template {
        let origin = TemplateOrigin.file(file)
        var decoder = TemplateDecoder(origin: origin, base: base)
        decoder.roots = roots
        decoder.checksStyleBases = acrossKeys
        do throws(Diagnostic) {
            try decoder.apply(try decoder.members(of: object, path: nil, allowed: TemplateSchema.topKeys))
            if acrossKeys { try TemplateDecoder.validate(decoder.template, given: decoder.given, fallback: origin) }
        } catch {
            throw placed(error)
        }
        return decoder.template
    }

    /// Style `style`'s `attribute` as this layer sets it, as a diagnostic of `message` at the
    /// value; nil when the layer does not set it.
    public func styleMistake(_ message: String, style: String, attribute: String) -> Diagnostic? {
        func member(_ key: String, of v: JSONValue) -> JSONValue? {
            guard case .object(let members) = v.kind else { return nil }
            return members.last { $0.key.lowercased() == key.lowercased() }?.value
        }
        guard let value = member("styles", of: object).flatMap({ member(style, of: $0) }).flatMap({ member(attribute, of: $0) })
        else { return nil }
        return .error("key '\(keyPath).styles.\(style).\(attribute)': \(message)", file: file, at: value.start, length: value.length)
    }

    /// A template diagnostic in the manifest's terms. The decoder names keys from a template's
    /// top (`key 'body.size'`); here they sit under `keyPath`, so that goes in front. A check
    /// across keys that no key of this layer set has no place of its own: it gets the object's.
    func placed(_ d: Diagnostic) -> Diagnostic {
        var d = d
        for lead in ["key '", "unknown key '", "duplicate key '"] where d.message.hasPrefix(lead) {
            d.message = lead + keyPath + "." + d.message.dropFirst(lead.count)
            break
        }
        if d.location == nil {
            d.file = file
            d.location = location
            d.length = 1
        }
        return d
    }

    // MARK: - Taking dotted keys apart

    /// The members of `value` with dotted keys made nested objects and merged with the objects
    /// written nested (`"body.size"` beside `"body": {…}`).
    private func nested(_ value: JSONValue) throws(Diagnostic) -> [JSONMember] {
        guard case .object(let members) = value.kind else { preconditionFailure("a layer needs an object") }
        var out: [JSONMember] = []
        var written: [String: JSONMember] = [:]
        for m in members {
            if let first = written[m.key] {
                throw keyError("duplicate key '\(m.key)' (first given at \(first.keyStart))", m)
            }
            written[m.key] = m
            let parts = m.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try check(parts, m)
            var v = m.value
            for part in parts.dropFirst().reversed() {
                let inner = JSONMember(key: part, keyStart: m.keyStart, keyEnd: m.keyEnd, value: v)
                v = JSONValue(.object([inner]), start: m.value.start, end: m.value.end)
            }
            try merge(JSONMember(key: parts[0], keyStart: m.keyStart, keyEnd: m.keyEnd, value: v), into: &out, path: nil)
        }
        return out
    }

    /// Checks a dotted key against the schema, as `--set` does, pointing at the key.
    private func check(_ parts: [String], _ m: JSONMember) throws(Diagnostic) {
        let top = TemplateSchema.topKeys
        guard top.contains(parts[0]) else { throw keyError(TemplateSchema.unknownKey(parts[0], prefix: nil, candidates: top), m) }
        if parts[0] == "extends" {
            throw keyError("key 'extends': a manifest's set cannot extend a template; name it with \"template\"", m)
        }
        // Style names are the template's own; the decoder checks a style's keys.
        if parts[0] == "styles" { return }
        for i in parts.indices.dropFirst() {
            let parent = parts[..<i].joined(separator: ".")
            guard let sub = TemplateSchema.objectKeys[parent] else {
                var message = "unknown key '\(m.key)'"
                if let near = Suggestion.closest(to: m.key, in: TemplateSchema.allPaths) { message += "; did you mean '\(near)'?" }
                throw keyError(message, m)
            }
            if !sub.contains(parts[i]) { throw keyError(TemplateSchema.unknownKey(parts[i], prefix: parent, candidates: sub), m) }
        }
    }

    /// Adds `new` to `members`, merging objects given under one key in two ways; any other
    /// key given twice is an error at the later one.
    private func merge(_ new: JSONMember, into members: inout [JSONMember], path: String?) throws(Diagnostic) {
        guard let i = members.firstIndex(where: { $0.key == new.key }) else {
            members.append(new)
            return
        }
        let full = path.map { "\($0).\(new.key)" } ?? new.key
        guard case .object(var inner) = members[i].value.kind, case .object(let more) = new.value.kind else {
            throw keyError("duplicate key '\(full)' (first given at \(members[i].keyStart))", new)
        }
        for m in more { try merge(m, into: &inner, path: full) }
        members[i].value.kind = .object(inner)
    }

    private func keyError(_ message: String, _ m: JSONMember) -> Diagnostic {
        placed(TemplateSpot(.file(file), key: m).error(message, key: nil))
    }
}
