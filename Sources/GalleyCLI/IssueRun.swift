import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleySupport
import GalleyTemplate

/// An issue as loaded: the manifest, each article's story and template, and every file read.
struct LoadedIssue {
    var manifest: IssueManifest
    var base: Template
    var articles: [Document]
    var inputFiles: [String]
}

/// An issue laid out: its parts (articles, contents, cover lines), its pages in order, and how
/// many times the contents were set before the page numbers held.
struct IssuePlan {
    var parts: [IssuePart] = []
    var pages: [IssuePage] = []
    /// Each article's first page, by folio, and by index in the PDF (from 1).
    var starts: [(folio: Int, index: Int)] = []
    var passes = 0
    /// How long each article's layout took in the last pass, by article.
    var seconds: [Int: Double] = [:]
    /// The articles whose layout came from the cache (`--cache`).
    var cached: Set<Int> = []

    /// `page`, of part `part`, with the running lines only the whole issue knows: `{pages}` is
    /// the issue's page count, not its article's, and `{page}` the folio as `label` writes it
    /// (roman in the front matter).
    func numbered(_ page: Page, of part: Int, label: String?) -> Page {
        var p = page
        (p.footer, p.header) = parts[part].framesetter.runningLines(of: page, pages: pages.count, folio: label)
        return p
    }

    /// The pages holding article `k`, each with its index in the issue, as its own PDF prints
    /// them (`--split`): only its placements. A page it starts on under another article
    /// (`startOn: any`) becomes its own, and takes running lines of its own, which the issue
    /// left to the other's: without them it would lose its folio.
    func pages(ofArticle k: Int) -> [(index: Int, page: IssuePage)] {
        pages.indices.compactMap { i in
            guard var kept = pages[i].keeping({ parts[$0].article == k }) else { return nil }
            if let part = kept.part, let page = kept.page, part != pages[i].part {
                kept.page = numbered(page, of: part, label: kept.label)
            }
            return (i, kept)
        }
    }

    /// The size of each part's pages: an article's template can set its own.
    var pageSizes: [(Double, Double)] {
        parts.map { ($0.framesetter.template.pageWidth, $0.framesetter.template.pageHeight) }
    }
}

enum IssueLoader {
    /// Whether `path` names a manifest: every `.json` input is read as one, so that a manifest
    /// with a mistake in it is an error at the mistake, not a story of JSON text set in its
    /// place (which `watch` would write over the issue's PDF).
    static func isManifest(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".json")
    }

    /// Reads the manifest, its templates and every article; nil when an error stops it.
    static func load(
        _ o: DocumentOptions, io: IO, diagnostics: inout Diagnostics, sources: inout [String: SourceFile],
        read: inout [String]
    ) throws(UsageError)
        -> LoadedIssue?
    {
        read = [o.input]
        let manifest: IssueManifest
        // The files the manifest names, watched even when one of them stops it (missing).
        var named: [String] = []
        defer { read += named.filter { !read.contains($0) } }
        var more: [Diagnostic] = []
        switch IssueManifest.load(o.input, root: o.root, files: &named, more: &more) {
        case .success(let m): manifest = m
        case .failure(let d):
            diagnostics.append(d)
            diagnostics.append(contentsOf: more)
            return nil
        }
        var files = [o.input]
        // What was read, even when a mistake stops it (`Loader.load`).
        defer { read = files }
        // `-t` on the command line takes the place of the manifest's template; `--set` (and
        // `--max-image-pixels`) go on top of every layer, as on a single document's template.
        // The issue numbers its pages: a first folio here would be ignored.
        if o.overrides.contains(where: { $0.lowercased().hasPrefix("startpage=") }) {
            throw UsageError(message: "--set startPage: an issue's folios run on from the manifest's \"startPage\"; set it there")
        }
        let name = o.templateGiven ? o.template : manifest.template
        guard let made = template(name, of: manifest, files: &files, &diagnostics)
        else { return nil }
        let base = try Loader.overridden(made, by: o.overrides)
        // Named styles checked once the layers are on, each mistake at the value that sets it.
        var said: Set<String> = []
        guard try Loader.stylesHold(base, layers: manifest.layers, files: files, overrides: o.overrides, said: &said, &diagnostics)
        else { return nil }
        if !checkImages(manifest, maxPixels: base.maxImagePixels, &diagnostics) { return nil }
        var articles: [Document] = []
        for article in manifest.articles {
            var t = base
            if article.template != nil || !article.layers.isEmpty {
                var own = made
                if let other = article.template {
                    guard let loaded = template(other, of: manifest, files: &files, &diagnostics)
                    else { return nil }
                    own = loaded
                }
                guard let set = layered(own, article.layers, &diagnostics) else { return nil }
                t = try Loader.overridden(set, by: o.overrides)
                guard
                    try Loader.stylesHold(
                        t, layers: manifest.layers + article.layers, files: files, overrides: o.overrides, said: &said, &diagnostics)
                else { return nil }
                // One press sheet serves the whole issue: an article's own is not used.
                if t.print != base.print {
                    diagnostics.append(
                        .warning(
                            "article '\(article.written)' sets its own print (bleed, slug or marks), which is not used: every page of "
                                + "an issue is on the manifest's sheet; set print there", file: manifest.path, at: article.location,
                            length: article.written.unicodeScalars.count + 2))
                }
            }
            var a = o
            a.input = article.file
            a.preparedTemplate = t
            a.templateFiles = files
            a.cache = nil  // the issue's, used by the planner
            a.readsAlso = []  // the issue's, not an article's: its layout does not depend on them
            a.root = o.root ?? manifest.folder
            a.fields = StoryFields(title: article.title, section: article.section, issue: manifest.title)
            var articleFiles: [String] = []
            defer { files += articleFiles }
            guard let doc = try Loader.load(a, io: io, diagnostics: &diagnostics, sources: &sources, read: &articleFiles)
            else { return nil }
            // An empty article still takes its page and its contents entry: most likely a slip.
            if doc.framesetter.story.text.allSatisfy(\.isWhitespace) {
                diagnostics.append(
                    .warning(
                        "article '\(article.written)' has no text; it is set as an empty page", file: manifest.path, at: article.location,
                        length: article.written.unicodeScalars.count + 2))
            }
            // Articles are set one at a time: the next one takes this engine and its fonts.
            doc.framesetter.relinquishEngine()
            articles.append(doc)
        }
        files += [manifest.cover?.image].compactMap { $0 } + manifest.inserts.map(\.image) + o.readsAlso
        files += SVGReferences.files(of: files)
        return LoadedIssue(manifest: manifest, base: base, articles: articles, inputFiles: files)
    }

    /// The cover and inserts are images Galley can draw (PNG, JPEG or SVG, within the limits),
    /// each error at its place in the manifest.
    static func checkImages(_ m: IssueManifest, maxPixels: Int, _ diagnostics: inout Diagnostics) -> Bool {
        var ok = true
        let images =
            (m.cover.map { [("cover image", $0.image, $0.location, $0.length)] } ?? [])
            + m.inserts.map { ("insert image", $0.image, $0.location, $0.length) }
        for (what, path, location, length) in images {
            var problem: String?
            switch ImageInfo.read(path: path) {
            case .success(let info): problem = ImageLimits.problem(info, at: path, maxPixels: maxPixels)
            case .failure(let e): problem = e.message
            }
            if let problem {
                diagnostics.append(
                    .error("cannot use \(what) '\(FilePath.name(of: path))': \(problem)", file: m.path, at: location, length: length))
                ok = false
            }
        }
        return ok
    }

    /// A template by name or path for `manifest`: in the issue's `language`, if it gives one,
    /// with the manifest's `set` layers on top.
    static func template(
        _ name: String, of manifest: IssueManifest, files: inout [String], _ diagnostics: inout Diagnostics
    ) -> Template? {
        var t: Template
        switch TemplateLoader.load(name, files: &files, roots: [manifest.folder]) {
        case .success(let loaded): t = loaded
        case .failure(let d):
            diagnostics.append(d)
            return nil
        }
        if let language = manifest.language { t.language = language }
        return layered(t, manifest.layers, &diagnostics)
    }

    /// `t` with `layers` on top, in order; nil when one of them has a mistake.
    static func layered(_ t: Template, _ layers: [TemplateLayer], _ diagnostics: inout Diagnostics) -> Template? {
        var t = t
        for layer in layers {
            switch layer.apply(to: t) {
            case .success(let l): t = l
            case .failure(let d):
                diagnostics.append(d)
                return nil
            }
        }
        return t
    }
}
