import GalleyMarkup
import GalleySupport

/// The keys of the manifest schema, by the object that holds them.
enum IssueManifestSchema {
    static let topKeys = [
        "title", "subtitle", "issue", "date", "language", "keywords", "template", "set", "startPage", "pageMultiple",
        "frontMatter", "cover", "contents", "articles", "inserts",
    ]
    static let coverKeys = ["image", "lines"]
    static let coverLineKeys = ["text", "class"]
    static let contentsKeys = ["after", "title"]
    static let articleKeys = ["file", "title", "section", "byline", "startOn", "template", "set", "jump", "allowRepeat"]
    static let jumpKeys = ["after", "to"]
    static let insertKeys = ["image", "after", "filler"]
}

/// Reads a manifest's JSON into an `IssueManifest`, checking every key, value and path, and
/// the references between them (jumps, inserts, repeated articles) once all are read.
struct IssueManifestDecoder {
    let file: String
    /// The manifest's folder as paths are joined to it ("" for the working folder).
    let directory: String
    let root: FileRoot
    let origin: TemplateOrigin
    /// Every file a path of the manifest named, found or not (`IssueManifest.load(files:)`).
    let named = PathLog()
    /// The mistakes after the first, which `manifest` throws (in the order of the file).
    var more: [Diagnostic] = []

    init(file: String, root: String?) {
        self.file = file
        directory = FilePath.directory(of: file)
        self.root = FileRoot(root ?? directory)
        origin = .file(file)
    }

    mutating func manifest(_ value: JSONValue) throws(Diagnostic) -> IssueManifest {
        guard case .object = value.kind else {
            throw .error(
                "an issue manifest must be a JSON object, got \(value.described)", file: file, at: value.start, length: value.length)
        }
        var m = IssueManifest(path: file, folder: directory.isEmpty ? "." : directory, root: root.shown)
        var articles: JSONValue?
        var inserts: JSONValue?
        try notATemplate(value)
        // Each top-level key and each article is checked on its own, so that one build says
        // every mistake there is, not the first the checking order meets.
        var errors: [Diagnostic] = []
        var seen: [String: JSONMember] = [:]
        // A cover or contents that does not hold: an insert placed after it is not judged.
        var placesHold = true
        if case .object(let members) = value.kind {
            for member in members {
                do throws(Diagnostic) {
                    try checkKey(member, path: nil, allowed: IssueManifestSchema.topKeys, seen: &seen)
                    try read(member, into: &m, articles: &articles, inserts: &inserts)
                } catch {
                    errors.append(error)
                    if member.key == "cover" || member.key == "contents" { placesHold = false }
                }
            }
        }
        var listed = false
        if let articles {
            (m.articles, listed) = self.articles(articles, errors: &errors)
        } else if errors.isEmpty {
            // (A misspelt key, said already, is likely where they went.)
            errors.append(.error("an issue manifest needs \"articles\", the list of its article files", file: file, at: value.start))
        }
        // Inserts refer to the articles: where they go is checked once every article is read
        // (a mistake elsewhere does not hide theirs: every one is said in one run).
        let articlesHold = listed && placesHold
        if let inserts { m.inserts = self.inserts(inserts, of: m, placed: articlesHold, errors: &errors) }
        if errors.isEmpty {
            do throws(Diagnostic) {
                try checkLayers(of: m)
            } catch {
                errors.append(error)
            }
        }
        errors.sort {
            ($0.location ?? SourceLocation(line: 0, column: 0, offset: 0)) < ($1.location ?? SourceLocation(line: 0, column: 0, offset: 0))
        }
        guard let first = errors.first else { return m }
        more = Array(errors.dropFirst())
        throw first
    }

    /// A template given where a manifest is read (`galley build magazine.json`) is said to be one.
    private func notATemplate(_ value: JSONValue) throws(Diagnostic) {
        guard case .object(let members) = value.kind, !members.contains(where: { $0.key == "articles" }),
            members.contains(where: { ["extends", "styles", "page", "columns"].contains($0.key) })
        else { return }
        throw .error(
            "this is a template, not an issue manifest (it has no \"articles\"); "
                + "a .json input is read as a manifest, and a template is given with -t",
            file: file, at: value.start)
    }

    /// One top-level member; articles and inserts are kept for after, since inserts name articles.
    private func read(
        _ member: JSONMember, into m: inout IssueManifest, articles: inout JSONValue?, inserts: inout JSONValue?
    ) throws(Diagnostic) {
        let key = member.key, v = member.value
        switch key {
        case "title": m.title = try line(key, v)
        case "subtitle": m.subtitle = try line(key, v)
        case "issue": m.issue = try line(key, v)
        case "date": m.date = try line(key, v)
        case "language": m.language = try language(v)
        case "keywords": m.keywords = try keywords(v)
        case "template": m.template = try templateReference(key, v)
        case "set": m.layers = [try layer(key, v)]
        case "startPage": m.startPage = try whole(key, v, 1...99_999)
        case "pageMultiple": m.pageMultiple = try whole(key, v, 1...1_000)
        case "frontMatter": m.romanFrontMatter = try choice(key, v, what: "front matter numbering", ["roman", "arabic"]) == "roman"
        case "cover": m.cover = try cover(v)
        case "contents": m.contents = try contents(v)
        case "articles": articles = v
        default: inserts = v
        }
    }

    // MARK: - Objects and keys

    /// Checks an object's keys (duplicates, unknown keys) and returns its members. `path` is
    /// the object's key path, nil for the top. Unknown keys suggest a key of the same object
    /// as it would be written there (`did you mean 'section'?`).
    func members(of v: JSONValue, path: String?, allowed: [String]) throws(Diagnostic) -> [JSONMember] {
        guard case .object(let members) = v.kind else {
            throw typeError(path ?? "", "expected an object with " + list(allowed, "and"), v)
        }
        var seen: [String: JSONMember] = [:]
        for m in members { try checkKey(m, path: path, allowed: allowed, seen: &seen) }
        return members
    }

    /// One key of an object: not given before (`seen` holds those that were), and one of
    /// `allowed`, else an error that suggests the nearest.
    func checkKey(_ m: JSONMember, path: String?, allowed: [String], seen: inout [String: JSONMember]) throws(Diagnostic) {
        let full = path.map { "\($0).\(m.key)" } ?? m.key
        if let first = seen[m.key] {
            throw TemplateSpot(origin, key: m).error("duplicate key '\(full)' (first given at \(first.keyStart))", key: nil)
        }
        seen[m.key] = m
        if !allowed.contains(m.key) {
            var message = "unknown key '\(full)'"
            if let near = Suggestion.closest(to: m.key, in: allowed) { message += "; did you mean '\(near)'?" }
            throw TemplateSpot(origin, key: m).error(message, key: nil)
        }
    }

    /// `expected …, got …` at the value, naming its key path.
    func typeError(_ path: String, _ expected: String, _ v: JSONValue) -> Diagnostic {
        TemplateSpot(origin, v).error("\(expected), got \(v.described)", key: path)
    }

    func list(_ words: [String], _ last: String) -> String {
        words.count == 1 ? words[0] : words.dropLast().joined(separator: ", ") + " \(last) " + words.last!
    }

    // MARK: - Values

    /// A non-empty string; on one line unless `lines`.
    func line(_ path: String, _ v: JSONValue, lines: Bool = false) throws(Diagnostic) -> String {
        guard case .string(let s) = v.kind else { throw typeError(path, "expected a string", v) }
        if s.allSatisfy(\.isWhitespace) { throw typeError(path, "expected a non-empty string", v) }
        if !lines, s.contains(where: \.isNewline) { throw typeError(path, "expected a single line of text", v) }
        if let c = s.unicodeScalars.first(where: { TemplateDecoder.isControl($0) && !(lines && $0 == "\n") }) {
            throw TemplateSpot(origin, v).error(
                "text cannot hold control characters (such as \\u\(TemplateDecoder.hex(c))): they would cut the PDF's title and outline short",
                key: path)
        }
        return s
    }

    /// A whole number in `range` (`2.0` counts as whole).
    func whole(_ path: String, _ v: JSONValue, _ range: ClosedRange<Int>) throws(Diagnostic) -> Int {
        guard case .number(let d, _) = v.kind, d == d.rounded(), d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
            throw typeError(path, "expected a whole number from \(range.lowerBound) to \(range.upperBound)", v)
        }
        return Int(d)
    }

    func flag(_ path: String, _ v: JSONValue) throws(Diagnostic) -> Bool {
        guard case .bool(let b) = v.kind else { throw typeError(path, "expected true or false", v) }
        return b
    }

    /// One of `options`, ignoring case; returns the option as listed.
    func choice(_ path: String, _ v: JSONValue, what: String, _ options: [String]) throws(Diagnostic) -> String {
        guard case .string(let s) = v.kind else { throw typeError(path, "expected " + list(options, "or"), v) }
        if let match = options.first(where: { $0.lowercased() == s.lowercased() }) { return match }
        var message = "unknown \(what) '\(s)'"
        if let near = Suggestion.closest(to: s, in: options) {
            message += "; did you mean '\(near)'?"
        } else {
            message += "; use " + list(options, "or")
        }
        throw TemplateSpot(origin, v).error(message, key: path)
    }

    /// A BCP 47 tag, checked as a template's `language` is.
    func language(_ v: JSONValue) throws(Diagnostic) -> String {
        var probe = TemplateDecoder(origin: origin, base: .default)
        let zero = SourceLocation(line: 1, column: 1, offset: 0)
        try probe.apply([JSONMember(key: "language", keyStart: zero, keyEnd: zero, value: v)])
        return probe.template.language
    }

    func keywords(_ v: JSONValue) throws(Diagnostic) -> [String] {
        guard case .array(let elements) = v.kind else { throw typeError("keywords", "expected a list of strings", v) }
        var out: [String] = []
        for (i, e) in elements.enumerated() { out.append(try line("keywords[\(i)]", e)) }
        return out
    }
}

/// Paths met while decoding, kept by reference so that the decoder's checks can add to it.
final class PathLog {
    var paths: [String] = []
}
