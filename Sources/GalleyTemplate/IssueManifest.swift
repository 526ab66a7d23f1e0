import GalleyMarkup
import GalleySupport

/// An issue manifest: the JSON file that makes many articles one magazine.
///
/// ```json
/// {
///   "title": "Harbour Monthly", "subtitle": "The printing issue", "issue": "No. 12", "date": "2026-12",
///   "language": "en", "keywords": ["printing"], "template": "magazine", "set": {"body.size": 9.5},
///   "startPage": 1, "pageMultiple": 4, "frontMatter": "roman",
///   "cover": {"image": "cover.jpg", "lines": [{"text": "The Last Compositors", "class": "coverline"}]},
///   "contents": {"after": "cover", "title": "Contents"},
///   "articles": [
///     {"file": "compositors.txt", "title": "The Last Compositors", "section": "Features", "byline": "Isobel Carrow",
///      "startOn": "recto", "template": "magazine", "set": {"columns": 3}, "jump": {"after": 2, "to": "tides.txt"}},
///     {"file": "tides.txt", "section": "Notebook", "startOn": "any"}
///   ],
///   "inserts": [{"image": "ad.png", "after": "tides.txt", "filler": false}]
/// }
/// ```
///
/// * Every path (articles, the cover image, inserts, a template path) is relative to the
///   manifest's folder and must lie under it, or under `--root`; the check comes before the
///   file is looked at, so a refusal says nothing of files outside. Then the file must exist
///   and be a regular file.
/// * `template` is a built-in name or a path (containing `/` or ending `.json`). `set` is an
///   object of template keys, dotted (`"body.size": 9.5`) or nested, as `--set` takes them;
///   an article's template is its own `template` (else the manifest's), then the manifest's
///   `set`, then the article's `set`.
/// * `startOn`: any, newPage (the default), recto or verso. `pageMultiple` pads the issue to a
///   multiple of pages (1: no padding). `frontMatter`: roman or arabic (the default).
/// * The same file listed twice is an error unless the second says `"allowRepeat": true`.
///   `jump.to` and `inserts[].after` name an article as listed (`after` also takes "cover" or
///   "contents"); both are kept as the article's `file` is written in the manifest.
///
/// Every error is one `Diagnostic` located in the manifest, naming the key path
/// (`articles[1].startOn`), with a suggestion for misspelt keys and choices.
public struct IssueManifest: Sendable {
    /// The manifest file as given.
    public var path: String
    /// Its folder ("" → "."), the root of what it names.
    public var folder: String
    /// Where the files the manifest names may lie: `--root`, else `folder`.
    public var root: String
    public var title: String?
    public var subtitle: String?
    public var issue: String?
    public var date: String?
    public var language: String?
    public var keywords: [String] = []
    /// A built-in name, or a path resolved against `folder`.
    public var template: String = "magazine"
    /// The manifest's `set` object (one layer), applied after each article's template.
    public var layers: [TemplateLayer] = []
    public var startPage: Int = 1
    /// 1 = no padding.
    public var pageMultiple: Int = 1
    /// `"frontMatter": "roman"`: cover and contents folios in roman numerals.
    public var romanFrontMatter = false
    public var cover: Cover?
    public var contents: Contents?
    public var articles: [Article] = []
    public var inserts: [Insert] = []

    public struct Cover: Sendable {
        /// The resolved path.
        public var image: String
        public var lines: [CoverLine]
        /// Where the `image` value is, and its length (in characters, quotes included).
        public var location: SourceLocation
        public var length = 1
    }

    public struct CoverLine: Sendable {
        public var text: String
        /// The JSON key `class`: a template's named style.
        public var styleClass: String?
        /// Where its class is (else the line's object), for a warning about the class.
        public var location: SourceLocation
        /// Where its text is, for a warning that the cover has no room for it.
        public var textLocation: SourceLocation
    }

    public struct Contents: Sendable {
        /// "cover" (the default) or "start".
        public var after: String
        /// "Contents" by default.
        public var title: String
    }

    public enum StartOn: String, Sendable, CaseIterable {
        case any, newPage, recto, verso
    }

    public struct Jump: Sendable {
        /// Pages set in place before the article continues elsewhere (≥ 1).
        public var after: Int
        /// The article it continues after, as that article's `file` is written; nil: after the last.
        public var to: String?
        /// Where the `jump` object is.
        public var location: SourceLocation
    }

    public struct Article: Sendable {
        /// The resolved path (folder + as written).
        public var file: String
        /// As written in the manifest.
        public var written: String
        /// Where the `file` value is, for errors about the article.
        public var location: SourceLocation
        public var title: String?
        public var section: String?
        public var byline: String?
        public var startOn: StartOn = .newPage
        /// A built-in name or a resolved path; nil: the manifest's.
        public var template: String?
        /// The article's `set`.
        public var layers: [TemplateLayer] = []
        public var jump: Jump?
        public var allowRepeat = false
    }

    public struct Insert: Sendable {
        /// The resolved path.
        public var image: String
        /// An article's file as written, "cover" or "contents"; nil: at the end.
        public var after: String?
        /// Used to pad the issue to `pageMultiple` rather than placed.
        public var filler: Bool
        /// Where the `image` value is, and its length (in characters, quotes included).
        public var location: SourceLocation
        public var length = 1
    }

    /// Reads and checks a manifest file (regular files only, bounded by `RawIO.smallFileLimit`
    /// like templates).
    public static func load(_ path: String, root: String? = nil) -> Result<IssueManifest, Diagnostic> {
        var files: [String] = []
        return load(path, root: root, files: &files)
    }

    /// Loads the manifest at `path` as `load(_:root:)` does, adding to `files` each file its
    /// paths name, found or not, even when a mistake stops it: what `galley watch` waits on.
    public static func load(_ path: String, root: String? = nil, files: inout [String]) -> Result<IssueManifest, Diagnostic> {
        var more: [Diagnostic] = []
        return load(path, root: root, files: &files, more: &more)
    }

    /// As `load(_:root:files:)`, with the mistakes after the first (in the order of the file)
    /// in `more`: a build says them all.
    public static func load(
        _ path: String, root: String? = nil, files: inout [String], more: inout [Diagnostic]
    ) -> Result<IssueManifest, Diagnostic> {
        switch TemplateLoader.readText(path) {
        case .failure(let reason):
            return .failure(.error("cannot read issue manifest '\(path)': \(reason.text)", file: path, at: reason.location))
        case .success(let text): return decode(text, file: path, root: root, files: &files, more: &more)
        }
    }

    /// Decodes manifest JSON text; `file` names it in diagnostics and is where relative paths start.
    public static func decode(_ json: String, file: String, root: String? = nil) -> Result<IssueManifest, Diagnostic> {
        var files: [String] = []
        var more: [Diagnostic] = []
        return decode(json, file: file, root: root, files: &files, more: &more)
    }

    static func decode(
        _ json: String, file: String, root: String?, files: inout [String], more: inout [Diagnostic]
    ) -> Result<IssueManifest, Diagnostic> {
        let value: JSONValue
        switch JSONReader.parse(json) {
        case .success(let v): value = v
        case .failure(let e): return .failure(.error(e.message, file: file, at: e.location, length: e.length))
        }
        var decoder = IssueManifestDecoder(file: file, root: root)
        defer { files += decoder.named.paths }
        do throws(Diagnostic) {
            return .success(try decoder.manifest(value))
        } catch {
            more = decoder.more
            return .failure(error)
        }
    }

    /// How many articles before article `k` set the same file (`allowRepeat`).
    public func occurrence(of k: Int) -> Int {
        articles[..<k].count { $0.file == articles[k].file }
    }

    /// The template `article` is set with (the manifest's own for nil): its template, loaded,
    /// in the issue's `language`, then the manifest's `set`, then the article's. `files` gains
    /// every template file read; what a template file names must lie in its folder or under the
    /// manifest's root.
    public func template(for article: Article?, files: inout [String]) -> Result<Template, Diagnostic> {
        var t: Template
        switch TemplateLoader.load(article?.template ?? template, files: &files, roots: [root]) {
        case .success(let loaded): t = loaded
        case .failure(let d): return .failure(d)
        }
        if let language { t.language = language }
        for layer in layers + (article?.layers ?? []) {
            switch layer.apply(to: t) {
            case .success(let next): t = next
            case .failure(let d): return .failure(d)
            }
        }
        return .success(t)
    }
}
