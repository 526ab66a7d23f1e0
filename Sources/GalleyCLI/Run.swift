import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleySupport
import GalleyTemplate
import Glibc

/// One command being carried out: validates its arguments, runs the stages, reports.
struct Run {
    let spec: CommandSpec
    let arguments: ParsedArguments
    let io: IO
    var diagnostics = Diagnostics()
    var sources: [String: SourceFile] = [:]
    /// The files the last `load` read or tried to read (`Loader.load`).
    var filesRead: [String] = []

    init(spec: CommandSpec, arguments: ParsedArguments, io: IO) {
        self.spec = spec
        self.arguments = arguments
        self.io = io
    }

    /// Errors only: warnings and progress are not printed.
    var quiet: Bool { arguments.flags.contains("quiet") }

    mutating func execute() -> Int32 {
        do {
            if ["build", "preview", "watch"].contains(spec.name) { try Self.checkSourceDate(io.environment) }
            switch spec.name {
            case "templates": return try templates()
            case "fonts": return try fonts()
            case "build": return try build()
            case "preview": return try preview()
            case "check": return try check()
            case "inspect": return try inspect()
            case "locate": return try locate()
            case "watch": return try watch()
            default: return 2
            }
        } catch let e as UsageError {
            // The message may quote an argument: its control characters shown, never sent raw.
            let message = DiagnosticRenderer.escapingControls(e.message, keepingNewlines: true)
            io.writeError("galley \(spec.name): error: \(message)\nUsage: \(spec.usage) (see 'galley \(spec.name) --help')\n")
            return 2
        } catch let e as RefusedOutput {
            report()
            io.writeError("galley \(spec.name): error: \(DiagnosticRenderer.escapingControls(e.message, keepingNewlines: true))\n")
            return 2
        } catch {
            return 1
        }
    }

    // MARK: shared

    /// `SOURCE_DATE_EPOCH`, when set, is a date PDFs can hold: whole seconds since 1970 up to
    /// the end of 9999. Anything else stops the build, as the reproducible-builds convention
    /// asks: it fell back to 2000 when it was not a number, and past 9999 wrote malformed dates.
    static func checkSourceDate(_ environment: [String: String]) throws(UsageError) {
        guard let value = environment["SOURCE_DATE_EPOCH"] else { return }
        let latest: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z
        guard let t = Int64(value.trimmed()), t >= 0, t <= latest else {
            let range = "from 0 to \(latest) (the end of 9999)"
            throw UsageError(message: "SOURCE_DATE_EPOCH is '\(value)'; it must be whole seconds since 1970-01-01 UTC, \(range)")
        }
    }

    /// Prints the collected diagnostics (warnings unless --quiet) and forgets them.
    mutating func report() {
        // Show the source line of diagnostics about other files too (a template's JSON).
        for d in diagnostics.all where d.location != nil {
            if let f = d.file, sources[f] == nil, let data = FileManager.default.contents(atPath: f) {
                // A file that is not UTF-8 is shown as far as it decodes (its error is there).
                let bytes = [UInt8](data)
                sources[f] = (try? SourceFile(path: f, bytes: bytes)) ?? SourceFile(path: f, text: String(decoding: bytes, as: UTF8.self))
            }
        }
        var cache = DiagnosticRenderer.LineCache()
        // A file that repeats one slip (50,000 unclosed spans) would print a screen for each:
        // the first `Self.shownLimit` of each severity are shown, and the rest counted.
        var shown: [Severity: Int] = [:]
        for d in diagnostics.inReadingOrder where d.severity == .error || !quiet {
            shown[d.severity, default: 0] += 1
            guard shown[d.severity, default: 0] <= Self.shownLimit else { continue }
            io.writeError(DiagnosticRenderer.render(d, sources: { [sources] in sources[$0] }, color: io.errorIsTerminal, cache: &cache))
        }
        let hidden = shown.sorted { $0.key > $1.key }.filter { $0.value > Self.shownLimit }.map { severity, n in
            "\(n - Self.shownLimit) more \(severity.rawValue)\(n - Self.shownLimit == 1 ? "" : "s")"
        }
        if !hidden.isEmpty { io.writeError("galley: \(hidden.joined(separator: " and ")) not shown\n") }
        diagnostics = Diagnostics()
    }

    /// How many diagnostics of one severity a report shows.
    static let shownLimit = 100

    mutating func load(_ o: DocumentOptions) throws(UsageError) -> Document? {
        let doc = try Loader.load(o, io: io, diagnostics: &diagnostics, sources: &sources, read: &filesRead)
        if let doc { diagnostics.append(contentsOf: doc.framesetter.diagnostics) }
        return doc
    }

    /// Reports diagnostics and gives the exit status for a document that failed to load.
    mutating func failed() -> Int32 {
        report()
        return 1
    }

    /// The layout's own warnings (overfull lines, shrunk images), after it ran.
    mutating func collectLayoutDiagnostics(_ doc: Document, before: Int) {
        let all = doc.framesetter.diagnostics.all
        if all.count > before { diagnostics.append(contentsOf: Array(all[before...])) }
    }

    /// A progress line on standard error, only when it is a terminal.
    func progress(_ text: String) {
        guard io.errorIsTerminal && !quiet else { return }
        io.writeError("\r\u{1B}[K" + text)
    }
    func endProgress() {
        guard io.errorIsTerminal && !quiet else { return }
        io.writeError("\r\u{1B}[K")
    }

    // MARK: commands

    mutating func build() throws -> Int32 {
        let o = try BuildOptions(arguments)
        try io.refuseBinaryOnTerminal(o.output, "PDF")
        if IssueLoader.isManifest(o.document.input) {
            do {
                return try buildIssue(o)
            } catch let refused as RefusedOutput where o.json {
                // A script reading standard output learns why, as for any other stop.
                var said = diagnostics
                said.append(.error(refused.message))
                io.writeOutput(Data(IssueSummary(failed: o.output, said).json().utf8))
                throw refused
            }
        }
        if o.split != nil || o.depfile != nil || o.json {
            throw UsageError(message: "--split, --depfile and --json are for issue manifests (a .json file with \"articles\")")
        }
        var timer = BuildTimer(asked: o.timings)
        guard let doc = try load(o.document) else { return failed() }
        timer.readingEnds()
        let destination = try OutputDestination.checked(o.output, inputs: doc.inputFiles)
        if o.synctex { _ = try OutputDestination.checked(SyncTeXWriter.path(for: o.output), inputs: doc.inputFiles, role: .synctex) }
        let before = doc.framesetter.diagnostics.all.count
        let input = o.document.input
        var said: TimingsReport?
        let metadata = pdfMetadata(input: input, title: o.title, documentTitle: doc.story.title)
        var pages = 0
        var synctex = o.synctex ? SyncTeXWriter(pdf: o.output, files: [input]) : nil
        // A press build runs the preflight on each page as it is drawn.
        var preflight = o.press.map { _ in Preflight(strict: o.strict) }
        let bleed = doc.template.print.bleed
        do {
            let press = try o.press?.output(doc.template, input: input, environment: io.environment, sources: doc.inputFiles)
            // With --strict an error of the preflight writes nothing: the PDF waits in a
            // scratch file until every page has been checked.
            let scratch = o.strict ? try TemporaryFile(in: FilePath.temporaryDirectory, name: "galley-strict", mode: 0o600) : nil
            defer { scratch?.discard() }
            timer.exportBegins()
            pages = try writePDF(
                doc, to: scratch.map { .file($0.path) } ?? destination, metadata: metadata, compression: o.compression, press: press,
                timings: timer.parts
            ) { page in
                synctex?.add(sheet: page.number, [(page, doc.story, input)])
                preflight?.check(page, of: doc.framesetter, index: page.number, bleed: bleed)
            }
            said = timer.report()
            preflight?.checkInk(of: press)
            preflight?.finish()
            if let scratch, preflight?.hasErrors == false { try deliver(scratch.path, to: destination) }
            if let synctex, preflight?.hasErrors != true { try writeSyncTeX(synctex, for: o.output, inputs: doc.inputFiles) }
        } catch {
            endProgress()
            return failedWriting(doc, before: before, error)
        }
        collectLayoutDiagnostics(doc, before: before)
        if let preflight { addPreflight(preflight) }
        if preflight?.hasErrors == true { return failed() }
        report()
        if let said { io.writeError(said.line) }
        if !quiet && o.output != "-" && io.errorIsTerminal {
            io.writeError("wrote \(o.output): \(count(pages, "page"))\n")
        }
        return 0
    }

    mutating func preview() throws -> Int32 {
        let o = try PreviewOptions(arguments)
        try io.refuseBinaryOnTerminal(o.output, "PNG")
        if IssueLoader.isManifest(o.document.input) { return try previewIssue(o) }
        guard let doc = try load(o.document) else { return failed() }
        let destination = try OutputDestination.checked(o.output, inputs: doc.inputFiles)
        let before = doc.framesetter.diagnostics.all.count
        do {
            try withOutput(destination) { path throws(RenderError) in
                let press = try o.press?.output(doc.template, input: o.document.input, environment: io.environment, sources: doc.inputFiles)
                try Export.png(doc.framesetter, page: o.page, to: path, dpi: o.dpi, press: press)
            }
        } catch {
            return failedWriting(doc, before: before, error)
        }
        collectLayoutDiagnostics(doc, before: before)
        report()
        return 0
    }

    /// Writes the SyncTeX file of the PDF `output` beside it (checked before the PDF was made,
    /// and again now, since a file could have been put there meanwhile).
    func writeSyncTeX(_ writer: SyncTeXWriter, for output: String, inputs: [String]) throws(RenderError) {
        let path = SyncTeXWriter.path(for: output)
        do {
            _ = try OutputDestination.checked(path, inputs: inputs, role: .synctex)
        } catch {
            throw RenderError(.error(error.message))
        }
        try TextOutput.write(writer.gzipped(), to: path)
    }

    /// Reports an output that could not be written, with what the layout said: exit status 1.
    mutating func failedWriting(_ doc: Document, before: Int, _ error: RenderError) -> Int32 {
        collectLayoutDiagnostics(doc, before: before)
        diagnostics.append(error.diagnostic)
        report()
        return 1
    }

    mutating func check() throws -> Int32 {
        let o = try CheckOptions(arguments)
        if IssueLoader.isManifest(o.document.input) { return try checkIssue(o) }
        guard let doc = try load(o.document) else { return failedCheck(o) }
        diagnostics.append(contentsOf: Self.imageErrors(doc))
        let before = doc.framesetter.diagnostics.all.count
        var preflight = o.preflight ? Preflight(strict: o.strict) : nil
        let bleed = doc.template.print.bleed
        let pages = doc.framesetter.layOut { page in
            preflight?.check(page, of: doc.framesetter, index: page.number, bleed: bleed)
            return true
        }
        preflight?.finish()
        collectLayoutDiagnostics(doc, before: before)
        if let preflight { addPreflight(preflight) }
        return checked(doc.source.path, pages: pages, json: o.json, preflight: preflight)
    }

    /// The errors drawing `doc`'s images would meet (files cut short, SVGs that do not parse),
    /// which reading their headers does not find.
    static func imageErrors(_ doc: Document) -> [Diagnostic] {
        let story = doc.framesetter.story
        return ImageCheck.decodingErrors(of: story.images + story.blocks.flatMap(\.story.images), file: doc.framesetter.file)
    }

    /// A check whose input did not load: the diagnostics, with `--json` as JSON as well.
    mutating func failedCheck(_ o: CheckOptions) -> Int32 { failed(o.document.input, json: o.json) }

    /// A command whose input did not load: the diagnostics, with `--json` as JSON as well (the
    /// check report's shape, no pages), so a script reading standard output gets them too.
    mutating func failed(_ input: String, json: Bool) -> Int32 {
        if json {
            let report = CheckReport(file: input, pages: 0, diagnostics: diagnostics, preflight: nil)
            io.writeOutput(Data(report.json().utf8))
        }
        return failed()
    }

    /// What `check` ends with: the diagnostics (with `--json`, on standard output as well),
    /// then "FILE: N pages, N errors, N warnings", and exit status 1 when there were errors.
    mutating func checked(_ file: String, pages: Int, json: Bool = false, preflight: Preflight? = nil) -> Int32 {
        let errors = diagnostics.errors.count
        let warnings = diagnostics.warnings.count
        if json {
            io.writeOutput(Data(CheckReport(file: file, pages: pages, diagnostics: diagnostics, preflight: preflight).json().utf8))
        }
        report()
        if !quiet { io.writeError("\(file): \(count(pages, "page")), \(count(errors, "error")), \(count(warnings, "warning"))\n") }
        return errors > 0 ? 1 : 0
    }

    mutating func inspect() throws -> Int32 {
        let o = try InspectOptions(arguments)
        if IssueLoader.isManifest(o.document.input) { return try inspectIssue(o) }
        guard let doc = try load(o.document) else { return failed(o.document.input, json: o.json) }
        let before = doc.framesetter.diagnostics.all.count
        var report = InspectReport(document: doc)
        doc.framesetter.layOut { page in
            report.add(page)
            report.statistics.add(page, story: doc.story, leading: doc.template.body.leading)
            if o.lines { report.pageDumps.append(PageDump.dump(page, story: doc.story)) }
            return true
        }
        report.includeStatistics = o.stats
        collectLayoutDiagnostics(doc, before: before)
        report.diagnostics = diagnostics.inReadingOrder
        io.writeOutput(Data((o.json ? report.json() : report.text()).utf8))
        self.report()
        return 0
    }

    mutating func templates() throws -> Int32 {
        let o = try TemplatesOptions(arguments)
        if let name = o.name {
            var files: [String] = []
            switch TemplateLoader.load(name, files: &files, roots: o.roots) {
            case .success(let t):
                io.writeOutput(Data(TemplateLoader.encode(t).utf8))
                return 0
            case .failure(let d):
                diagnostics.append(d)
                report()
                return 1
            }
        }
        var s = ""
        let width = (Template.builtins.map(\.name.count).max() ?? 0) + 2
        for t in Template.builtins {
            s += t.name.padded(to: width) + t.summary + "\n"
        }
        io.writeOutput(Data(s.utf8))
        return 0
    }
}

/// `dir/name.txt` → `dir/name<suffix>.ext`.
func replacingExtension(_ path: String, with ext: String, suffix: String = "") -> String {
    let base = FilePath.deletingExtension(path)
    return base + suffix + "." + ext
}
