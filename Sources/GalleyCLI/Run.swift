import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleyTemplate
import GalleySupport
import Glibc

/// One command being carried out: validates its arguments, runs the stages, reports.
struct Run {
    let spec: CommandSpec
    let arguments: ParsedArguments
    let io: IO
    var diagnostics = Diagnostics()
    var sources: [String: SourceFile] = [:]

    init(spec: CommandSpec, arguments: ParsedArguments, io: IO) {
        self.spec = spec
        self.arguments = arguments
        self.io = io
    }

    var quiet: Bool { arguments.flag("quiet") }

    mutating func execute() -> Int32 {
        do {
            switch spec.name {
            case "templates": return try templates()
            case "build": return try build()
            case "preview": return try preview()
            case "check": return try check()
            case "inspect": return try inspect()
            default: return 2
            }
        } catch let e as UsageError {
            io.writeError("galley \(spec.name): error: \(e.message)\nUsage: \(spec.usage) (see 'galley \(spec.name) --help')\n")
            return 2
        } catch let e as RefusedOutput {
            report()
            io.writeError("galley \(spec.name): error: \(e.message)\n")
            return 2
        } catch {
            return 1
        }
    }

    // MARK: shared

    /// The document options, validated (usage errors exit 2).
    func documentOptions() throws(UsageError) -> DocumentOptions {
        var o = DocumentOptions()
        guard arguments.positionals.count == 1 else {
            throw UsageError(
                message: arguments.positionals.isEmpty
                    ? "missing INPUT file" : "expected one INPUT file, got \(arguments.positionals.count)")
        }
        o.input = arguments.positionals[0]
        if let t = arguments.value("template") { o.template = t }
        o.overrides = arguments.all("set")
        for s in o.overrides where !s.contains("=") {
            throw UsageError(message: "--set needs KEY=VALUE, got '\(s)'")
        }
        if let m = arguments.value("max-image-pixels") {
            guard let n = Int(m), n >= 1, n <= Template.largestImagePixels else {
                throw UsageError(
                    message: "--max-image-pixels must be a whole number from 1 to \(Template.largestImagePixels), got '\(m)'")
            }
            o.overrides.append("maxImagePixels=\(n)")
        }
        if let p = arguments.value("paragraphs") {
            guard let m = ParagraphMode(rawValue: p) else {
                throw UsageError(message: "--paragraphs must be 'newline' or 'blank-line', got '\(p)'")
            }
            o.paragraphs = m
        }
        o.drawsEveryPage = spec.name == "build"
        o.social = arguments.flag("social")
        o.emoticons = arguments.all("emoticons")
        if let t = arguments.value("threads") {
            guard let n = Int(t), n >= 1, n <= 64 else {
                throw UsageError(message: "--threads must be a whole number from 1 to 64, got '\(t)'")
            }
            o.threads = n
        }
        return o
    }

    /// Prints the collected diagnostics (warnings unless --quiet) and forgets them.
    mutating func report() {
        // Show the source line of diagnostics about other files too (a template's JSON).
        for d in diagnostics.all where d.location != nil {
            if let f = d.file, sources[f] == nil, let data = FileManager.default.contents(atPath: f),
                let source = try? SourceFile(path: f, bytes: [UInt8](data))
            {
                sources[f] = source
            }
        }
        for d in diagnostics.inReadingOrder where d.severity == .error || !quiet {
            io.writeError(DiagnosticRenderer.render(d, sources: { [sources] in sources[$0] }, color: io.errorIsTerminal))
        }
        diagnostics = Diagnostics()
    }

    mutating func load() throws(UsageError) -> Document? {
        let o = try documentOptions()
        let doc = Loader.load(o, io: io, diagnostics: &diagnostics, sources: &sources)
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
        guard let doc = try load() else { return failed() }
        let o = try documentOptions()
        let output = arguments.value("output") ?? (o.input == "-" ? "-" : replacingExtension(o.input, with: "pdf"))
        let destination = try OutputDestination.checked(output, inputs: doc.inputFiles)
        var compression = 1
        if let c = arguments.value("compression") {
            guard let level = Int(c), (1...9).contains(level) else {
                throw UsageError(message: "--compression must be a whole number from 1 to 9, got '\(c)'")
            }
            compression = level
        }
        let before = doc.framesetter.diagnostics.all.count
        let title =
            arguments.value("title")
            ?? (o.input == "-" ? "Untitled" : FilePath.deletingExtension(FilePath.name(of: o.input)))
        let metadata = PDFMetadata(
            title: title, creator: "Galley \(Galley.version)", date: PDFMetadata.reproducibleDate(environment: io.environment))
        var pages = 0
        do {
            try withOutput(destination) { path throws(RenderError) in
                pages = try Export.pdf(doc.framesetter, to: path, metadata: metadata, compression: compression) { n in
                    progress("page \(n)")
                }
            }
        } catch {
            endProgress()
            collectLayoutDiagnostics(doc, before: before)
            diagnostics.append(error.diagnostic)
            report()
            return 1
        }
        endProgress()
        collectLayoutDiagnostics(doc, before: before)
        report()
        if !quiet && output != "-" && io.errorIsTerminal {
            io.writeError("wrote \(output): \(count(pages, "page"))\n")
        }
        return 0
    }

    mutating func preview() throws -> Int32 {
        let o = try documentOptions()
        var page = 1
        if let p = arguments.value("page") {
            guard let n = Int(p), n >= 1 else { throw UsageError(message: "--page must be a page number from 1, got '\(p)'") }
            page = n
        }
        var dpi = 144.0
        if let d = arguments.value("dpi") {
            guard let v = Double(d), v >= 9, v <= 2400 else {
                throw UsageError(message: "--dpi must be a number from 9 to 2400, got '\(d)'")
            }
            dpi = v
        }
        let output = arguments.value("output") ?? (o.input == "-" ? "-" : replacingExtension(o.input, with: "png", suffix: "-p\(page)"))
        guard let doc = try load() else { return failed() }
        let destination = try OutputDestination.checked(output, inputs: doc.inputFiles)
        let before = doc.framesetter.diagnostics.all.count
        do {
            try withOutput(destination) { path throws(RenderError) in
                try Export.png(doc.framesetter, page: page, to: path, dpi: dpi)
            }
        } catch {
            collectLayoutDiagnostics(doc, before: before)
            diagnostics.append(error.diagnostic)
            report()
            return 1
        }
        collectLayoutDiagnostics(doc, before: before)
        report()
        return 0
    }

    mutating func check() throws -> Int32 {
        guard let doc = try load() else { return failed() }
        let before = doc.framesetter.diagnostics.all.count
        let pages = doc.framesetter.layOut { _ in true }
        collectLayoutDiagnostics(doc, before: before)
        let errors = diagnostics.errors.count
        let warnings = diagnostics.warnings.count
        report()
        if !quiet {
            io.writeError("\(doc.source.path): \(count(pages, "page")), \(count(errors, "error")), \(count(warnings, "warning"))\n")
        }
        return errors > 0 ? 1 : 0
    }

    mutating func inspect() throws -> Int32 {
        guard let doc = try load() else { return failed() }
        let before = doc.framesetter.diagnostics.all.count
        var report = InspectReport(document: doc)
        let lines = arguments.flag("lines")
        doc.framesetter.layOut { page in
            report.add(page)
            report.statistics.add(page, story: doc.story)
            if lines { report.pageDumps.append(PageDump.dump(page, story: doc.story)) }
            return true
        }
        report.includeStatistics = arguments.flag("stats")
        collectLayoutDiagnostics(doc, before: before)
        report.diagnostics = diagnostics.inReadingOrder
        io.writeOutput(Data((arguments.flag("json") ? report.json() : report.text()).utf8))
        self.report()
        return 0
    }

    mutating func templates() throws -> Int32 {
        guard arguments.positionals.count <= 1 else { throw UsageError(message: "unexpected argument '\(arguments.positionals[1])'") }
        if arguments.positionals.count == 1, arguments.value("show") != nil {
            throw UsageError(message: "name the template once: as an argument or with --show")
        }
        if let name = arguments.positionals.first ?? arguments.value("show") {
            switch TemplateLoader.load(name) {
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
