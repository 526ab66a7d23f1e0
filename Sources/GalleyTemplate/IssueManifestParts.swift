import GalleyMarkup
import GalleySupport

// The parts of a manifest that name files: paths, templates and `set` layers, the cover,
// contents, articles and inserts, and the checks between them.
extension IssueManifestDecoder {
    // MARK: - Paths

    /// The file a path value names, resolved against the manifest's folder. Confinement is
    /// checked first, in the same words whether or not the file exists, so a refusal says
    /// nothing of files outside; then the file must be a regular file.
    func existingFile(_ path: String, _ v: JSONValue, what: String) throws(Diagnostic) -> (written: String, resolved: String) {
        let written = try text(path, v)
        let resolved = written.hasPrefix("/") ? written : FilePath.join(directory, written)
        named.paths.append(resolved)
        let spot = TemplateSpot(origin, v)
        guard root.admits(resolved) else {
            throw spot.error(
                "cannot use \(what) '\(written)': it is outside '\(root.shown)', the folder an issue's files are read from; "
                    + "run with --root DIR to read files under DIR", key: nil)
        }
        guard let status = FileIdentity.status(resolved) else {
            let link = FileIdentity.brokenLink(resolved)
            throw spot.error(link.map { "cannot use \(what) '\(written)': \($0)" } ?? "cannot find \(what) '\(written)'", key: nil)
        }
        switch FileIdentity.kind(status) {
        case .regular: return (written, resolved)
        case .directory: throw spot.error("cannot use \(what) '\(written)': it is a folder", key: nil)
        default: throw spot.error("cannot use \(what) '\(written)': it is not a regular file", key: nil)
        }
    }

    /// A non-empty single-line string (a path, a name).
    private func text(_ path: String, _ v: JSONValue) throws(Diagnostic) -> String {
        guard case .string(let s) = v.kind, !s.isEmpty, !s.contains(where: \.isNewline) else {
            throw TemplateSpot(origin, v).error("expected a file name, got \(v.described)", key: path)
        }
        // The system reads a name up to its first NUL: "a.txt\u0000x" would open a.txt.
        guard !s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw TemplateSpot(origin, v).error("a file name cannot hold control characters (such as \\u0000)", key: path)
        }
        return s
    }

    /// A built-in template's name, or a template file's resolved path.
    func templateReference(_ path: String, _ v: JSONValue) throws(Diagnostic) -> String {
        guard case .string(let ref) = v.kind, !ref.isEmpty else {
            throw TemplateSpot(origin, v).error(
                "expected a built-in template name or a path to a JSON file, got \(v.described)", key: path)
        }
        if TemplateLoader.isPath(ref) { return try existingFile(path, v, what: "template").resolved }
        guard let t = Template.builtin(named: ref) else {
            throw TemplateSpot(origin, v).error(TemplateLoader.unknownTemplate(ref), key: path)
        }
        return t.name
    }

    /// A `set` object, its keys checked against the template schema.
    func layer(_ path: String, _ v: JSONValue) throws(Diagnostic) -> TemplateLayer {
        guard case .object = v.kind else {
            throw typeError(path, "expected an object of template keys, as in {\"body.size\": 9.5}", v)
        }
        return try TemplateLayer(v, keyPath: path, file: file, roots: [root])
    }

    /// Applies each layer now, so that a bad value is found before any article is read: on a
    /// built-in template every check runs; on a template file only each value's own, since the
    /// checks across keys need that file's values, and the build applies the layers to it.
    func checkLayers(of m: IssueManifest) throws(Diagnostic) {
        /// The template named `name` with the manifest's layer, and whether it is the real one.
        func issueBase(_ name: String) throws(Diagnostic) -> (Template, Bool) {
            let builtin = Template.builtin(named: name)
            var t = builtin ?? .default
            for layer in m.layers { t = try layer.applying(to: t, acrossKeys: builtin != nil) }
            return (t, builtin != nil)
        }
        _ = try issueBase(m.template)
        for a in m.articles where !a.layers.isEmpty {
            let (base, exact) = try issueBase(a.template ?? m.template)
            var t = base
            for layer in a.layers { t = try layer.applying(to: t, acrossKeys: exact) }
        }
    }

    // MARK: - Cover and contents

    func cover(_ v: JSONValue) throws(Diagnostic) -> IssueManifest.Cover {
        var image: (String, JSONValue)?
        var lines: [IssueManifest.CoverLine] = []
        for m in try members(of: v, path: "cover", allowed: IssueManifestSchema.coverKeys) {
            if m.key == "image" {
                image = (try existingFile("cover.image", m.value, what: "cover image").resolved, m.value)
                continue
            }
            guard case .array(let elements) = m.value.kind else {
                throw typeError("cover.lines", "expected a list of cover lines, as in [{\"text\": \"…\"}]", m.value)
            }
            for (i, e) in elements.enumerated() { lines.append(try coverLine(e, path: "cover.lines[\(i)]")) }
        }
        guard let image else { throw TemplateSpot(origin, v).error("the cover needs an \"image\"", key: "cover") }
        return IssueManifest.Cover(image: image.0, lines: lines, location: image.1.start, length: image.1.length)
    }

    private func coverLine(_ v: JSONValue, path: String) throws(Diagnostic) -> IssueManifest.CoverLine {
        var text: String?
        var styleClass: String?
        // A warning about the class (unknown to the template) points at its value.
        var location = v.start
        var textLocation = v.start
        for m in try members(of: v, path: path, allowed: IssueManifestSchema.coverLineKeys) {
            if m.key == "text" {
                text = try line("\(path).text", m.value, lines: true)
                textLocation = m.value.start
            } else {
                styleClass = try line("\(path).class", m.value)
                location = m.value.start
            }
        }
        guard let text else { throw TemplateSpot(origin, v).error("a cover line needs a \"text\"", key: path) }
        return IssueManifest.CoverLine(text: text, styleClass: styleClass, location: location, textLocation: textLocation)
    }

    func contents(_ v: JSONValue) throws(Diagnostic) -> IssueManifest.Contents {
        var contents = IssueManifest.Contents(after: "cover", title: "Contents")
        for m in try members(of: v, path: "contents", allowed: IssueManifestSchema.contentsKeys) {
            if m.key == "after" {
                contents.after = try choice("contents.after", m.value, what: "place for the contents", ["cover", "start"])
            } else {
                contents.title = try line("contents.title", m.value)
            }
        }
        return contents
    }
}
