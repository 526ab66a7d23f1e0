import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleySupport
import GalleyTemplate

/// The commands on a manifest (`galley build issue.json`): the issue as a whole.
extension Run {
    /// Loads the manifest and its articles and lays the issue out; nil when an error stops it.
    mutating func loadIssue(_ o: DocumentOptions) throws(UsageError) -> (LoadedIssue, IssuePlan)? {
        guard let issue = try IssueLoader.load(o, io: io, diagnostics: &diagnostics, sources: &sources, read: &filesRead)
        else { return nil }
        if diagnostics.hasErrors { return nil }
        var planner = IssuePlanner(issue: issue, file: o.input)
        planner.threads = o.threads
        let count = issue.manifest.articles.count
        planner.progress = { [self] done in progress("laying out the articles: \(done) of \(count) done") }
        if let folder = o.cache {
            planner.cache = ArticleCache(folder: folder, manifest: o.input, options: o, diagnostics: &diagnostics)
        }
        var plan = planner.plan(diagnostics: &diagnostics)
        plan.cached = planner.cache?.used ?? []
        diagnostics.append(contentsOf: planner.cache?.diagnostics ?? [])
        // The last pass's framesetters: each article's warnings once, and a file listed again
        // (`allowRepeat`, "a.txt" or "./a.txt") does not say its own again.
        var seen: Set<Int> = []
        var said: Set<String> = []
        for part in plan.parts where part.article.map({ seen.insert($0).inserted }) ?? true {
            for d in part.framesetter.diagnostics.all
            where said.insert("\(d.file.map(FileRoot.canonicalPath) ?? ""):\(d.location.map { "\($0)" } ?? ""):\(d.message)").inserted {
                diagnostics.append(d)
            }
        }
        return (issue, plan)
    }

    mutating func buildIssue(_ o: BuildOptions) throws -> Int32 {
        var timer = BuildTimer(asked: o.timings)
        if let cache = o.document.cache { try Self.checkCache(cache, besides: o) }
        guard let (issue, plan) = try loadIssue(o.document) else { return failedIssue(o) }
        timer.readingEnds()
        let destination = try OutputDestination.checked(o.output, inputs: issue.inputFiles, madeFirst: o.split)
        if let depfile = o.depfile { try Self.checkDepfile(depfile, inputs: issue.inputFiles, besides: o) }
        if o.synctex { _ = try OutputDestination.checked(SyncTeXWriter.path(for: o.output), inputs: issue.inputFiles, role: .synctex) }
        // The split's folder and names are settled first: a mistake there writes nothing.
        let split = try o.split.map { dir throws(RefusedOutput) in try Self.splitPaths(issue, into: dir, besides: o) }
        // A press build runs the preflight first: with --strict, its errors write nothing.
        var preflight = o.press.map { _ in Self.preflight(issue, plan, manifest: o.document.input, strict: o.strict) }
        if let preflight { addPreflight(preflight) }
        if preflight?.hasErrors == true { return failedIssue(o) }
        let metadata = pdfMetadata(input: o.document.input, title: o.title, documentTitle: issue.manifest.title)
        var said: TimingsReport?
        do {
            let clock = ContinuousClock()
            let started = clock.now
            // A split PDF or the depfile that cannot be written stops the build before the
            // issue's PDF replaces the one before.
            for path in (split ?? []) + [o.depfile].compactMap({ $0 }) where path != "-" { try TextOutput.probe(path) }
            timer.exportBegins()
            let press = try o.press?.output(
                issue.base, input: o.document.input, environment: io.environment, pages: plan.pageSizes, sources: issue.inputFiles)
            try writeIssuePDF(
                issue, plan, to: destination, metadata: metadata, compression: o.compression, threads: o.document.threads,
                press: press, timings: timer.parts
            ) { n in
                progress(
                    Self.drawingProgress(n, of: plan.pages.count, plan: plan, names: issue.manifest.articles, since: clock.now - started))
            }
            said = timer.report(issue: true)
            if press?.cmyk != nil {
                // The ink is known only once the PDF is made: its findings come after the rest.
                var inkCheck = Preflight(strict: o.strict)
                for f in (preflight ?? inkCheck).inkFindings(of: press) { inkCheck.add(f) }
                addPreflight(inkCheck)
                for f in inkCheck.findings { preflight?.add(f) }
            }
            if o.synctex { try writeSyncTeX(Self.syncTeX(issue, plan, pdf: o.output), for: o.output, inputs: issue.inputFiles) }
            if let split { try writeSplit(issue, plan, to: split, metadata: metadata, compression: o.compression, press: press) }
            if let depfile = o.depfile {
                let rule = Self.depfile(o.output, issue: issue, plan: plan)
                if depfile == "-" { io.writeOutput(Data(rule.utf8)) } else { try TextOutput.write(rule, to: depfile) }
            }
        } catch {
            diagnostics.append(error.diagnostic)
            return failedIssue(o)
        }
        if o.json { io.writeOutput(Data(IssueSummary(o.output, issue, plan, diagnostics, preflight, timings: said).json().utf8)) }
        report()
        if let said { io.writeError(said.line) }
        if !quiet && o.output != "-" && io.errorIsTerminal {
            io.writeError("wrote \(o.output): \(count(plan.pages.count, "page")), the contents set in \(count(plan.passes, "pass"))\n")
        }
        return 0
    }

    /// A build that stops at an error: with `--json`, a summary of no pages with what was said,
    /// so that a script reading standard output learns why.
    mutating func failedIssue(_ o: BuildOptions) -> Int32 {
        if o.json { io.writeOutput(Data(IssueSummary(failed: o.output, diagnostics).json().utf8)) }
        return failed()
    }

    /// `--depfile FILE` can be written: checked before the issue is, so that a build does not
    /// leave a new PDF beside an old rule.
    static func checkDepfile(_ path: String, inputs: [String], besides o: BuildOptions) throws(RefusedOutput) {
        // `-` is standard output, unless the PDF or the JSON summary goes there.
        if path == "-" && (o.output == "-" || o.json) {
            throw RefusedOutput(
                message: "--depfile -: standard output already carries the \(o.json ? "--json summary" : "PDF"); name a file")
        }
        guard case .file = try OutputDestination.checked(path, inputs: inputs, role: .depfile, madeFirst: o.split) else { return }
        if let other = Self.otherOutputs(o).first(where: { OutputDestination.sameTarget(path, $0.path) }) {
            throw RefusedOutput(message: "the --depfile '\(path)' is the \(other.what) ('\(other.path)'); name another file")
        }
    }

    /// `--cache DIR` is none of the build's outputs: checked before the cache's folder is made,
    /// which would otherwise stand where the PDF was to be written, failing every build after.
    static func checkCache(_ folder: String, besides o: BuildOptions) throws(RefusedOutput) {
        let outputs = otherOutputs(o, depfile: true) + (o.split.map { [("--split folder", $0)] } ?? [])
        if let other = outputs.first(where: { OutputDestination.sameTarget(folder, $0.path) }) {
            throw RefusedOutput(message: "the --cache folder '\(folder)' is the \(other.what) ('\(other.path)'); name another folder")
        }
    }

    /// The files a build writes besides `--split` (and `--depfile`, unless `depfile`): the
    /// issue's PDF, and its SyncTeX file when asked for.
    static func otherOutputs(_ o: BuildOptions, depfile: Bool = false) -> [(what: String, path: String)] {
        let rule = depfile ? o.depfile.map { [("--depfile", $0)] } ?? [] : []
        guard o.output != "-" else { return rule }
        return [("issue's PDF", o.output)] + (o.synctex ? [("SyncTeX file", SyncTeXWriter.path(for: o.output))] : []) + rule
    }

    /// `--split DIR`: where each article's PDF goes, named after its file ("tides.pdf"; a name
    /// met before gets a number, "tides-2.pdf"). The folder is made when missing, as `mkdir -p`
    /// would; it must be a folder, and no name may be one of the issue's own files.
    /// A name that cannot be written is refused as `-o` is (exit status 2), before anything is.
    static func splitPaths(_ issue: LoadedIssue, into dir: String, besides o: BuildOptions) throws(RefusedOutput) -> [String] {
        guard FilePath.makeFolders(dir) else {
            throw RefusedOutput(message: "--split: cannot make the folder '\(dir)' (a file of that name, or no permission)")
        }
        var taken: Set<String> = []
        let others = Self.otherOutputs(o, depfile: true)
        return try issue.manifest.articles.map { article throws(RefusedOutput) in
            let base = FilePath.deletingExtension(FilePath.name(of: article.file))
            var name = base + ".pdf"
            var n = 1
            while !taken.insert(name).inserted {
                n += 1
                name = "\(base)-\(n).pdf"
            }
            let path = FilePath.join(dir, name)
            do throws(RefusedOutput) {
                _ = try OutputDestination.checked(path, inputs: issue.inputFiles)
            } catch {
                throw RefusedOutput(message: "--split: " + error.message)
            }
            if let other = others.first(where: { OutputDestination.sameTarget(path, $0.path) }) {
                throw RefusedOutput(message: "--split: cannot write '\(path)': it is the \(other.what) ('\(other.path)')")
            }
            return path
        }
    }

    /// `--split DIR`: each article as a PDF of its own at its path in `paths` (`splitPaths`),
    /// with the folios it has in the issue (its jump lines linked when both halves are in it),
    /// on press sheets as the issue is, with the article's name on its slug line.
    func writeSplit(
        _ issue: LoadedIssue, _ plan: IssuePlan, to paths: [String], metadata: PDFMetadata, compression: Int,
        press: PressOutput?
    ) throws(RenderError) {
        for (k, article) in issue.manifest.articles.enumerated() {
            let kept = plan.pages(ofArticle: k)
            // A jump line links to its other half in this file too (0: not in it, no link).
            var position: [Int: Int] = [:]
            for (n, (i, _)) in kept.enumerated() { position[i + 1] = n + 1 }
            var pages = kept.map(\.page)
            for i in pages.indices {
                for n in pages[i].notes.indices { pages[i].notes[n].target = position[pages[i].notes[n].target] ?? 0 }
            }
            let path = paths[k]
            var m = metadata
            m.title = plan.parts.first { $0.article == k }?.bookmark ?? article.written
            var sheet = press
            sheet?.label = FilePath.name(of: article.file)
            try IssueExport.pdf(
                parts: plan.parts, pages: pages, pageSize: (issue.base.pageWidth, issue.base.pageHeight), to: path, metadata: m,
                subject: issue.manifest.title, keywords: issue.manifest.keywords, compression: compression, press: sheet,
                article: true)
        }
    }

    /// The SyncTeX records of an issue's PDF: each article's lines tagged with its own file.
    static func syncTeX(_ issue: LoadedIssue, _ plan: IssuePlan, pdf: String) -> SyncTeXWriter {
        var writer = SyncTeXWriter(pdf: pdf, files: issue.articles.map(\.source.path))
        for (index, entry) in plan.pages.enumerated() {
            let placed = entry.placements.compactMap { p, page in
                plan.parts[p].article.map { (page, plan.parts[p].framesetter.story, issue.articles[$0].source.path) }
            }
            writer.add(sheet: index + 1, placed)
        }
        return writer
    }

    /// A Make rule: the output depends on the manifest, every article, image, template and
    /// emoticon pack, and every font file its pages are set in. Spaces in names are escaped.
    static func depfile(_ output: String, issue: LoadedIssue, plan: IssuePlan) -> String {
        var seen: Set<String> = []
        var files: [String] = []
        var fonts: Set<String> = []
        for part in plan.parts {
            let placed = plan.pages.flatMap(\.placements).filter { plan.parts[$0.part].framesetter === part.framesetter }
            fonts.formUnion(part.framesetter.fontFiles(of: placed.map(\.page)))
        }
        // An SVG's text is set by librsvg in the fonts fontconfig gives its families.
        for svg in issue.inputFiles where svg.lowercased().hasSuffix(".svg") {
            fonts.formUnion(SVGReferences.fontFamilies(of: svg).compactMap(FontCatalog.file(ofFamily:)))
        }
        for f in issue.inputFiles + fonts.sorted() where !f.isEmpty && seen.insert(f).inserted { files.append(f) }
        // As Make reads a rule: a colon in a name would start another rule.
        func escaped(_ s: String) -> String {
            s.replacing("$", with: "$$").replacing(" ", with: "\\ ").replacing("#", with: "\\#").replacing(":", with: "\\:")
        }
        // And an empty rule for each prerequisite (as `gcc -MP` writes): an article renamed or a
        // font removed is then a file to remake, not an error that stops `make` until the rule
        // is deleted by hand.
        let phony = files.map { "\n" + escaped($0) + ":\n" }.joined()
        return escaped(output) + ":" + files.map { " \\\n  " + escaped($0) }.joined() + "\n" + phony
    }

    /// "page 12 of 40, The Last Compositors, about 3 s left": the article being drawn and an
    /// estimate from the pages drawn so far.
    static func drawingProgress(_ n: Int, of total: Int, plan: IssuePlan, names: [IssueManifest.Article], since: Duration) -> String {
        let page = plan.pages[n - 1]
        var s = "drawing page \(n) of \(total)"
        if let a = page.part.flatMap({ plan.parts[$0].article }) {
            s += ", " + (plan.parts.first { $0.article == a }?.bookmark ?? names[a].written)
        }
        let elapsed = IssuePlanner.seconds(since)
        if n > 1 && elapsed > 0.5 { s += ", about \(Int((elapsed / Double(n - 1) * Double(total - n + 1)).rounded(.up))) s left" }
        return s
    }

    mutating func checkIssue(_ o: CheckOptions) throws -> Int32 {
        guard let (issue, plan) = try loadIssue(o.document) else { return failedCheck(o) }
        for article in issue.articles { diagnostics.append(contentsOf: Self.imageErrors(article)) }
        let preflight = o.preflight ? Self.preflight(issue, plan, manifest: o.document.input, strict: o.strict) : nil
        if let preflight { addPreflight(preflight) }
        return checked(o.document.input, pages: plan.pages.count, json: o.json, preflight: preflight)
    }

    /// The page map: every page with its folio, label, kind, article and visible range.
    mutating func inspectIssue(_ o: InspectOptions) throws -> Int32 {
        guard let (issue, plan) = try loadIssue(o.document) else { return failed() }
        var map = IssueMap(issue, plan)
        if o.stats { map.addStatistics(plan) }
        let lines = o.lines && !o.json ? Self.lineDumps(issue, plan) : ""
        io.writeOutput(Data((o.json ? map.json() : map.text() + lines).utf8))
        report()
        return 0
    }

    /// `inspect --lines` of an issue: each page's placed lines and images, as a document's
    /// are dumped, under the issue's page and the part they belong to (an article, the
    /// contents, the cover lines).
    static func lineDumps(_ issue: LoadedIssue, _ plan: IssuePlan) -> String {
        var s = ""
        for (i, entry) in plan.pages.enumerated() {
            for (part, page) in entry.placements {
                let name = plan.parts[part].article.map { issue.manifest.articles[$0].written } ?? entry.kind.rawValue
                s += "issue page \(i + 1) (folio \(entry.label ?? "none")), \(name): "
                s += PageDump.dump(page, story: plan.parts[part].framesetter.story)
            }
        }
        return s
    }

    mutating func previewIssue(_ o: PreviewOptions) throws -> Int32 {
        guard let (issue, plan) = try loadIssue(o.document) else { return failed() }
        let destination = try OutputDestination.checked(o.output, inputs: issue.inputFiles)
        do {
            try withOutput(destination) { path throws(RenderError) in
                try IssueExport.png(
                    parts: plan.parts, pages: plan.pages, page: o.page, pageSize: (issue.base.pageWidth, issue.base.pageHeight), to: path,
                    dpi: o.dpi,
                    press: try o.press?.output(
                        issue.base, input: o.document.input, environment: io.environment, pages: plan.pageSizes, sources: issue.inputFiles))
            }
        } catch {
            diagnostics.append(error.diagnostic)
            report()
            return 1
        }
        report()
        return 0
    }
}

/// `build --json`: what CI wants to know of an issue build.
struct IssueSummary: Encodable {
    struct Article: Encodable {
        var file: String
        var title: String?
        var firstFolio: Int?
        var lastFolio: Int?
        var pages: Int
        var seconds: Double
        /// Its layout came from `--cache`.
        var cached: Bool
    }

    var output: String
    var pages: Int
    var errors: Int
    var warnings: Int
    var contentsPasses: Int
    var articles: [Article]
    /// Every error and warning, in reading order.
    var diagnostics: [InspectReport.Message]
    /// With `--press`, the preflight's findings.
    var preflight: [PreflightEntry]?
    /// With `--timings`, where the time went, in seconds.
    var timings: TimingsReport.IssueSeconds?

    init(
        _ output: String, _ issue: LoadedIssue, _ plan: IssuePlan, _ diagnostics: Diagnostics, _ preflight: Preflight? = nil,
        timings: TimingsReport? = nil
    ) {
        self.init(failed: output, diagnostics)
        self.preflight = preflight.map { $0.inPageOrder.map(PreflightEntry.init) }
        self.timings = timings.map(TimingsReport.IssueSeconds.init)
        pages = plan.pages.count
        contentsPasses = plan.passes
        articles = issue.manifest.articles.enumerated().map { k, a in
            let own = plan.pages.filter { $0.placements.contains { plan.parts[$0.part].article == k } }
            return Article(
                file: a.written, title: plan.parts.first { $0.article == k }?.bookmark, firstFolio: own.first?.folio,
                lastFolio: own.last?.folio, pages: own.count, seconds: ((plan.seconds[k] ?? 0) * 1000).rounded() / 1000,
                cached: plan.cached.contains(k))
        }
    }

    /// A build that stopped: no pages, and what was said.
    init(failed output: String, _ diagnostics: Diagnostics) {
        self.output = output
        pages = 0
        errors = diagnostics.errors.count
        warnings = diagnostics.warnings.count
        contentsPasses = 0
        articles = []
        self.diagnostics = diagnostics.inReadingOrder.map(InspectReport.Message.init)
    }

    func json() -> String { prettyJSON(self) }
}

/// What `inspect` shows of an issue.
struct IssueMap: Encodable {
    struct Entry: Encodable {
        var index: Int
        var folio: Int
        var label: String?
        var kind: String
        var article: String?
        var start: Int?
        var end: Int?
        /// Articles starting on the page under the end of `article` (`startOn: any`).
        var following: [String]?
        /// Its jump lines, "from" above the text before "on" under it: one page can hold both.
        var jumps: [Jump]?
    }

    /// A jump line: its text, the article whose text it ends or continues, whether it stands
    /// above the text, and the page it links to (by index).
    struct Jump: Encodable {
        var text: String
        var article: String?
        var above: Bool
        var target: Int
    }

    var title: String?
    var pages: [Entry]
    /// How many times the contents were set before their page numbers held.
    var contentsPasses: Int
    /// `--stats`: the articles' typographic figures, all pages together and by measure.
    var statistics: LayoutStatistics?

    /// Adds the figures of every article page (`inspect --stats`).
    mutating func addStatistics(_ plan: IssuePlan) {
        var s = LayoutStatistics()
        for page in plan.pages {
            for (part, p) in page.placements {
                let fs = plan.parts[part].framesetter
                s.add(p, story: fs.story, leading: fs.template.body.leading)
            }
        }
        statistics = s
    }

    init(_ issue: LoadedIssue, _ plan: IssuePlan) {
        title = issue.manifest.title
        contentsPasses = plan.passes
        pages = plan.pages.enumerated().map { i, p in
            let story = p.part.map { plan.parts[$0].framesetter.story }
            let range = p.page?.visibleRange
            return Entry(
                index: i + 1, folio: p.folio, label: p.label, kind: p.kind.rawValue,
                article: p.part.flatMap { plan.parts[$0].article }.map { issue.manifest.articles[$0].written },
                start: range.flatMap { r in story.map { $0.characterOffset(ofByte: r.lowerBound) } },
                end: range.flatMap { r in story.map { $0.characterOffset(ofByte: r.upperBound) } },
                following: p.followers.isEmpty
                    ? nil : p.followers.compactMap { plan.parts[$0.part].article.map { issue.manifest.articles[$0].written } },
                jumps: p.notes.isEmpty
                    ? nil
                    : p.notes.sorted { $0.above && !$1.above }.map { n in
                        Jump(
                            text: n.text, article: plan.parts[n.part].article.map { issue.manifest.articles[$0].written }, above: n.above,
                            target: n.target)
                    })
        }
    }

    func json() -> String { prettyJSON(self) }

    func text() -> String {
        var s = "\(title ?? "issue"): \(pages.count) pages, contents set in \(contentsPasses) pass\(contentsPasses == 1 ? "" : "es")\n"
        for p in pages {
            s += "page \(p.index) (folio \(p.label ?? "none")): \(p.kind)"
            if let a = p.article { s += " \(a)" }
            if let start = p.start, let end = p.end { s += ", characters \(start)..<\(end)" }
            if let f = p.following { s += ", then " + f.joined(separator: ", ") }
            s += "\n"
        }
        if let statistics { s += statistics.summary }
        return s
    }
}
