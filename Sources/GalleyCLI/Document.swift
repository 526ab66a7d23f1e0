import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate
import Glibc
import Synchronization

/// An input file taken through the stages up to a framesetter ready to lay out.
struct Document {
    var source: SourceFile
    var template: Template
    var story: Story
    var framesetter: Framesetter
    /// Every file read to make it: the source, the template's files, the images and the
    /// emoticon packs (an output may be none of them).
    var inputFiles: [String]
}

/// The settings that say how to read and set a document (shared by build, preview, check, inspect).
struct DocumentOptions {
    var input: String = ""
    var template: String = "magazine"
    /// Whether `-t` named the template (on a manifest it takes the place of its "template").
    var templateGiven = false
    var overrides: [String] = []
    var paragraphs: ParagraphMode?
    var threads: Int?
    /// Every page is drawn as it is laid out (build).
    var drawsEveryPage = false
    var social = false
    var emoticons: [String] = []
    /// Folders of the project's own fonts (`--font-path`), ahead of the template's `fonts`.
    var fontPaths: [String] = []
    /// Write `file:` link targets (`--allow-file-links`).
    var allowFileLinks = false
    /// The folder images and the files templates name are read under (`--root`).
    var root: String?
    /// A template made already (an issue's article: the manifest's, with its `set`), used
    /// instead of `template` and `overrides`.
    var preparedTemplate: Template?
    /// The files `preparedTemplate` was read from (an issue's manifest and templates).
    var templateFiles: [String]?
    /// Story fields an issue's manifest gives the article (`{title}`, `{section}`, `{issue}`).
    var fields: StoryFields?
    /// `--cache DIR` (issues): each article's layout kept between builds.
    var cache: String?
    /// Files the command reads besides the document and what it names (a press build's
    /// profiles): inputs no output may overwrite, and lines of the depfile.
    var readsAlso: [String] = []
    /// The paragraphs of the builds before, in a process that builds the document (or each
    /// article of an issue) again after each edit (`galley watch`).
    var paragraphCaches: ParagraphCaches?
}

/// A `ParagraphCache` for each file a process builds again and again: the document, or each
/// article of an issue (whose templates and styles differ, and whose caches must not mix).
final class ParagraphCaches: Sendable {
    private let byFile = Mutex<[String: ParagraphCache]>([:])

    func cache(for file: String) -> ParagraphCache {
        byFile.withLock { caches in
            if let made = caches[file] { return made }
            let made = ParagraphCache()
            caches[file] = made
            return made
        }
    }
}

/// The fields a manifest gives an article: its own title and section win over the story's,
/// and the issue's title over the story's `issue`, so that every page of the issue says the same.
struct StoryFields {
    var title: String?
    var section: String?
    var issue: String?

    func apply(to story: inout Story) {
        story.title = title ?? story.title
        story.section = section ?? story.section
        story.issue = issue ?? story.issue
    }
}

enum Loader {
    /// The command line's `--set` on `t`: a bad one is a mistake in the command line, like any
    /// other option's value (a usage error).
    static func overridden(_ t: Template, by overrides: [String]) throws(UsageError) -> Template {
        guard !overrides.isEmpty else { return t }
        switch TemplateLoader.apply(overrides, to: t, file: "--set") {
        case .success(let set): return set
        case .failure(let d): throw UsageError(message: d.message)
        }
    }

    /// Whether the template's named styles hold no mistake. Each one found is said at the value
    /// in effect: a `--set` (the last that sets it, a mistake of the command line), else the
    /// last of `layers` (an issue manifest's `set`) that sets it, else the template file that
    /// does (`files`, those read for it). `said` keeps a mistake said for another article of
    /// the same settings from being said twice.
    static func stylesHold(
        _ template: Template, layers: [TemplateLayer] = [], files: [String], overrides: [String], said: inout Set<String>,
        _ diagnostics: inout Diagnostics
    ) throws(UsageError) -> Bool {
        let mistakes = StoryBuilder(template: template, baseDirectory: ".").styleMistakes()
        for m in mistakes {
            let key = "styles.\(m.style).\(m.attribute)=".lowercased()
            if let given = overrides.last(where: { $0.lowercased().hasPrefix(key) }) {
                throw UsageError(message: "--set \(given): style '\(m.style)': \(m.message)")
            }
            let found =
                layers.reversed().lazy.compactMap { $0.styleMistake(m.message, style: m.style, attribute: m.attribute) }.first
                ?? TemplateLoader.styleMistake(m.message, style: m.style, attribute: m.attribute, in: files)
            // Set by no file and no layer: a `--set` of another form (a whole style at once).
            guard let d = found ?? layers.first.map({ .error("style '\(m.style)': \(m.message)", file: $0.file) }) else {
                throw UsageError(message: "--set: style '\(m.style)': \(m.message)")
            }
            if said.insert("\(d.file ?? ""):\(d.location.map { "\($0.line):\($0.column)" } ?? ""):\(d.message)").inserted {
                diagnostics.append(d)
            }
        }
        return mistakes.isEmpty
    }

    /// Reads, parses and builds a document; diagnostics go to `diagnostics`. Nil when an error
    /// stops it. `read` gets every file it read or tried to, even when it stops: what `galley
    /// watch` waits on before it builds again (a template, a pack or an image being fixed).
    static func load(
        _ o: DocumentOptions, io: IO, diagnostics: inout Diagnostics, sources: inout [String: SourceFile],
        read: inout [String]
    ) throws(UsageError)
        -> Document?
    {
        var template: Template
        var inputFiles: [String] = []
        var tried: [String] = o.input == "-" ? [] : [o.input]
        defer { read = inputFiles + tried.filter { !inputFiles.contains($0) } }
        if let prepared = o.preparedTemplate {
            template = prepared
        } else {
            switch TemplateLoader.load(o.template, files: &inputFiles, roots: o.root.map { [$0] } ?? []) {
            case .success(let t): template = t
            case .failure(let d):
                // A template file that cannot be read is not among those read.
                if TemplateLoader.isPath(o.template) { tried.append(o.template) }
                diagnostics.append(d)
                return nil
            }
        }
        let templateFiles = inputFiles
        if o.preparedTemplate == nil { template = try overridden(template, by: o.overrides) }
        if let p = o.paragraphs { template.paragraphMode = p }
        var said: Set<String> = []
        if o.preparedTemplate == nil, try !stylesHold(template, files: inputFiles, overrides: o.overrides, said: &said, &diagnostics) {
            return nil
        }
        if o.cache != nil {
            diagnostics.append(.warning("--cache keeps the articles of an issue; a single document is laid out afresh"))
        }
        diagnostics.append(contentsOf: ProjectFonts.add(o.fontPaths + template.fontFolders))
        // Font work that needs no story, on the idle core while the input is read.
        let warmup = FontWarmup(template: template)

        let path = o.input == "-" ? "<stdin>" : o.input
        let bytes: [UInt8]
        if o.input == "-" {
            do {
                bytes = try io.readStandardInput()
            } catch {
                diagnostics.append(.error("cannot read standard input: \((error as? SystemError)?.message ?? "\(error)")"))
                return nil
            }
            if bytes.count > RawIO.inputLimit {
                diagnostics.append(.error("cannot read standard input: \(RawIO.tooLarge(RawIO.inputLimit))"))
                return nil
            }
        } else {
            switch RawIO.readRegularFile(o.input, limit: RawIO.inputLimit, piped: true) {
            case .success(let b): bytes = b
            case .failure(let e):
                diagnostics.append(.error("cannot read '\(o.input)': \(e.message)"))
                return nil
            }
        }
        let source: SourceFile
        do {
            source = try SourceFile(path: path, bytes: bytes)
        } catch {
            // Shown with its line and a caret: the line as far as it decodes, each invalid byte a
            // replacement character (one scalar, as the error's column counts it).
            sources[path] = SourceFile(path: path, text: String(decoding: bytes, as: UTF8.self))
            diagnostics.append(error)
            return nil
        }
        sources[path] = source
        let document = MarkupParser.parse(source)
        let base = o.input == "-" ? FileManager.default.currentDirectoryPath : FilePath.directory(of: o.input)
        var builder = StoryBuilder(template: template, baseDirectory: base.isEmpty ? "." : base)
        builder.socialEverywhere = o.social
        builder.allowFileLinks = o.allowFileLinks
        if let r = o.root { builder.root = r }
        for folder in template.social.emoticons + o.emoticons {
            switch builder.emoticons.adding(folder: folder) {
            case .success(let packs): builder.emoticons = packs
            case .failure(let d):
                tried += [d.file, FilePath.join(folder, "pack.json")].compactMap { $0 }
                diagnostics.append(d)
                return nil
            }
        }
        inputFiles += builder.emoticons.files + builder.emoticons.imagePaths + o.readsAlso
        if o.input != "-" { inputFiles.append(o.input) }
        var (story, storyDiagnostics) = builder.build(document)
        o.fields?.apply(to: &story)
        inputFiles += (story.images + story.blocks.flatMap(\.story.images)).map(\.path).filter { !$0.isEmpty }
        // An SVG's own images are drawn from too: watched, listed and keyed like the rest.
        inputFiles += SVGReferences.files(of: inputFiles)
        tried += story.refusedFiles + story.blocks.flatMap(\.story.refusedFiles)
        diagnostics.append(contentsOf: storyDiagnostics)
        // An empty file (an editor's truncated save, a wrong path to a script's output) gave a
        // blank page in silence. An issue's article says so at the manifest instead.
        if o.fields == nil, !diagnostics.hasErrors, story.text.allSatisfy(\.isWhitespace), story.images.isEmpty, story.blocks.isEmpty {
            diagnostics.append(.warning("the input has no text; it is set as one empty page", file: path))
        }
        if diagnostics.hasErrors { return nil }
        let framesetter = Framesetter(
            story: story, template: template, file: path,
            options: LayoutOptions(threads: o.threads, drawsEveryPage: o.drawsEveryPage, templateFiles: o.templateFiles ?? templateFiles),
            warmup: warmup, cache: o.paragraphCaches?.cache(for: path))
        if framesetter.diagnostics.hasErrors {
            diagnostics.append(contentsOf: framesetter.diagnostics)
            return nil
        }
        return Document(
            source: source, template: template, story: story, framesetter: framesetter, inputFiles: inputFiles)
    }
}
