import GalleyMarkup
import GalleySupport

// Articles, jumps and inserts, and the checks that tie them together.
extension IssueManifestDecoder {
    // MARK: - Articles

    /// The articles, and whether every one of them was read; each one's mistake goes to
    /// `errors`, and the jumps between them are checked when every one was read.
    func articles(_ v: JSONValue, errors: inout [Diagnostic]) -> ([IssueManifest.Article], Bool) {
        var out: [IssueManifest.Article] = []
        var read = false
        do throws(Diagnostic) {
            guard case .array(let elements) = v.kind else {
                throw typeError("articles", "expected a list of articles, as in [{\"file\": \"story.txt\"}]", v)
            }
            guard !elements.isEmpty else {
                throw TemplateSpot(origin, v).error(
                    "an issue needs at least one article, as in [{\"file\": \"story.txt\"}]", key: "articles")
            }
            for (i, e) in elements.enumerated() {
                do throws(Diagnostic) {
                    out.append(try article(e, path: "articles[\(i)]"))
                } catch {
                    errors.append(error)
                }
            }
            // Among the articles that hold (a missing one aside), repeats are said too.
            checkRepeats(out, errors: &errors)
            // A jump's target is looked for among all of them, or a misspelt one would be
            // said missing.
            read = out.count == elements.count
            if read { checkJumps(&out, values: elements.map { member($0, "jump", "to") }, errors: &errors) }
        } catch {
            errors.append(error)
        }
        return (out, read)
    }

    /// Each file once, told apart by device and inode, so `a.txt` and `./a.txt` are one; and
    /// none of them this manifest or another JSON file. Each slip goes to `errors`.
    private func checkRepeats(_ articles: [IssueManifest.Article], errors: inout [Diagnostic]) {
        var listed: [FileIdentity: IssueManifest.Article] = [:]
        for a in articles {
            do throws(Diagnostic) {
                try checkRepeat(a, listed: &listed)
            } catch {
                errors.append(error)
            }
        }
    }

    private func checkRepeat(
        _ a: IssueManifest.Article, listed: inout [FileIdentity: IssueManifest.Article]
    ) throws(Diagnostic) {
        guard let identity = FileIdentity.of(a.file) else { return }
        // Set as an article, the manifest would be typeset as text: surely a slip.
        if identity == FileIdentity.of(file) {
            throw .error(
                "article '\(a.written)' is this manifest; list the articles' text files", file: file, at: a.location,
                length: a.written.unicodeScalars.count + 2)
        }
        // Another manifest (or a template), as surely a slip: `galley build` takes a `.json`
        // file for a manifest, never for an article.
        if a.file.lowercased().hasSuffix(".json") {
            throw .error(
                "article '\(a.written)' is a JSON file (a manifest or a template); list the articles' text files",
                file: file, at: a.location, length: a.written.unicodeScalars.count + 2)
        }
        if let first = listed[identity], !a.allowRepeat {
            throw .error(
                "article '\(a.written)' is already listed (as '\(first.written)' at \(first.location)); "
                    + "add \"allowRepeat\": true to list it again", file: file, at: a.location,
                length: a.written.unicodeScalars.count + 2)
        }
        listed[identity] = listed[identity] ?? a
    }

    /// The value at a path of keys in `v`, if every step is an object that has it.
    private func member(_ v: JSONValue, _ keys: String...) -> JSONValue? {
        var v = v
        for key in keys {
            guard case .object(let members) = v.kind, let m = members.first(where: { $0.key == key }) else { return nil }
            v = m.value
        }
        return v
    }

    private func article(_ v: JSONValue, path: String) throws(Diagnostic) -> IssueManifest.Article {
        let members = try members(of: v, path: path, allowed: IssueManifestSchema.articleKeys)
        guard let fileMember = members.first(where: { $0.key == "file" }) else {
            throw TemplateSpot(origin, v).error("an article needs a \"file\", its text file", key: path)
        }
        let (written, resolved) = try existingFile("\(path).file", fileMember.value, what: "article")
        var a = IssueManifest.Article(file: resolved, written: written, location: fileMember.value.start)
        for m in members {
            let key = "\(path).\(m.key)"
            switch m.key {
            case "file": continue
            case "title": a.title = try line(key, m.value)
            case "section": a.section = try line(key, m.value)
            case "byline": a.byline = try line(key, m.value)
            case "startOn":
                let names = IssueManifest.StartOn.allCases.map(\.rawValue)
                a.startOn = IssueManifest.StartOn(rawValue: try choice(key, m.value, what: "place to start", names))!
            case "template": a.template = try templateReference(key, m.value)
            case "set": a.layers = [try layer(key, m.value)]
            case "jump": a.jump = try jump(m.value, path: key)
            default: a.allowRepeat = try flag(key, m.value)
            }
        }
        return a
    }

    private func jump(_ v: JSONValue, path: String) throws(Diagnostic) -> IssueManifest.Jump {
        var after: Int?
        var to: String?
        for m in try members(of: v, path: path, allowed: IssueManifestSchema.jumpKeys) {
            if m.key == "after" {
                after = try whole("\(path).after", m.value, 1...99_999)
            } else {
                to = try line("\(path).to", m.value)
            }
        }
        guard let after else {
            throw TemplateSpot(origin, v).error("a jump needs \"after\", the pages set before it", key: path)
        }
        return IssueManifest.Jump(after: after, to: to, location: v.start)
    }

    /// Every `jump.to` names another listed article; it is kept as that article is written.
    /// Each one that does not goes to `errors`.
    func checkJumps(_ articles: inout [IssueManifest.Article], values: [JSONValue?], errors: inout [Diagnostic]) {
        for i in articles.indices {
            guard let to = articles[i].jump?.to, let v = values[i] else { continue }
            do throws(Diagnostic) {
                articles[i].jump!.to = try jumpTarget(to, of: i, in: articles, value: v)
            } catch {
                errors.append(error)
            }
        }
    }

    private func jumpTarget(
        _ to: String, of i: Int, in articles: [IssueManifest.Article], value v: JSONValue
    ) throws(Diagnostic) -> String {
        let path = "articles[\(i)].jump.to"
        // A file listed twice (`allowRepeat`) is the target at its listing after this one.
        guard let target = listedArticle(to, in: articles, after: i) ?? listedArticle(to, in: articles) else {
            throw TemplateSpot(origin, v).error(notListed(to, candidates: articles.map(\.written)), key: path)
        }
        if target == i { throw TemplateSpot(origin, v).error("an article cannot continue after itself", key: path) }
        // The rest is set after its target, which an earlier article has passed already.
        if target < i {
            throw TemplateSpot(origin, v).error(
                "'\(articles[target].written)' comes before this article; a jump continues after a later one", key: path)
        }
        return articles[target].written
    }

    /// The index of the article `name` means: one written the same, else the same file; with
    /// `after`, the first such listed after that index.
    func listedArticle(_ name: String, in articles: [IssueManifest.Article], after: Int = -1) -> Int? {
        let later = articles.indices.filter { $0 > after }
        if let i = later.first(where: { articles[$0].written == name }) { return i }
        let path = name.hasPrefix("/") ? name : FilePath.join(directory, name)
        // Only a path under the root is looked at, as for any other path of the manifest.
        guard root.admits(path), let identity = FileIdentity.of(path) else { return nil }
        return later.first { FileIdentity.of(articles[$0].file) == identity }
    }

    /// `'x' is not one of the articles; did you mean 'y'?`
    func notListed(_ name: String, candidates: [String]) -> String {
        var message = "'\(name)' is not one of the articles"
        if let near = Suggestion.closest(to: name, in: candidates) { message += "; did you mean '\(near)'?" }
        return message
    }

    // MARK: - Inserts

    /// The inserts; each one's mistake goes to `errors`. Where each goes is checked only when
    /// the articles it names are `placed` (they hold no mistake).
    func inserts(_ v: JSONValue, of m: IssueManifest, placed: Bool, errors: inout [Diagnostic]) -> [IssueManifest.Insert] {
        guard case .array(let elements) = v.kind else {
            errors.append(typeError("inserts", "expected a list of inserts, as in [{\"image\": \"ad.png\"}]", v))
            return []
        }
        var out: [IssueManifest.Insert] = []
        for (i, e) in elements.enumerated() {
            do throws(Diagnostic) {
                out.append(try insert(e, path: "inserts[\(i)]", of: m, placed: placed))
            } catch {
                errors.append(error)
            }
        }
        return out
    }

    private func insert(
        _ v: JSONValue, path: String, of manifest: IssueManifest, placed: Bool
    ) throws(Diagnostic) -> IssueManifest.Insert {
        let members = try members(of: v, path: path, allowed: IssueManifestSchema.insertKeys)
        guard let imageMember = members.first(where: { $0.key == "image" }) else {
            throw TemplateSpot(origin, v).error("an insert needs an \"image\"", key: path)
        }
        let image = try existingFile("\(path).image", imageMember.value, what: "insert image").resolved
        var insert = IssueManifest.Insert(
            image: image, after: nil, filler: false, location: imageMember.value.start, length: imageMember.value.length)
        for m in members {
            switch m.key {
            case "image": continue
            case "filler": insert.filler = try flag("\(path).filler", m.value)
            default: if placed { insert.after = try insertPlace("\(path).after", m.value, of: manifest) }
            }
        }
        return insert
    }

    /// Where an insert goes: after a listed article (kept as written there), the cover or the
    /// contents, which the manifest must have.
    private func insertPlace(_ path: String, _ v: JSONValue, of m: IssueManifest) throws(Diagnostic) -> String {
        let name = try line(path, v)
        if name == "cover" || name == "contents" {
            let present = name == "cover" ? m.cover != nil : m.contents != nil
            if !present { throw TemplateSpot(origin, v).error("the manifest has no \(name) to place the insert after", key: path) }
            return name
        }
        if let i = listedArticle(name, in: m.articles) { return m.articles[i].written }
        var message = "'\(name)' is not one of the articles, 'cover' or 'contents'"
        if let near = Suggestion.closest(to: name, in: m.articles.map(\.written) + ["cover", "contents"]) {
            message += "; did you mean '\(near)'?"
        }
        throw TemplateSpot(origin, v).error(message, key: path)
    }
}
