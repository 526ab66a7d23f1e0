import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleySupport
import Glibc

/// `galley watch`: what to write after each change.
struct WatchOptions {
    enum Output {
        /// Every page to a PDF.
        case pdf(String)
        /// These pages as PNGs, each to its own file.
        case pngs([Int], path: (Int) -> String)
    }

    var document: DocumentOptions
    var output: Output
    var dpi = 144.0
    /// `--png-dir`: the folder of the `--pages` PNGs, made when watching begins if missing.
    var pngFolder: String?
    /// The options a PDF build takes, which each build of watch takes too.
    var build: BuildOptions

    var compression: Int { build.compression }
    var title: String? { build.title }
    /// `--press`: each build on press sheets (PDF/X-4), or sheet previews.
    var press: PressRequest? { build.press }
    /// `--timings`: after each PDF, where its time went.
    var timings: Bool { build.timings }
    /// `--synctex`: `OUT.synctex.gz` beside each PDF.
    var synctex: Bool { build.synctex }
    /// `--strict` (with `--press`): a build whose preflight finds an error keeps the last PDF.
    var strict: Bool { build.strict }

    init(_ a: ParsedArguments) throws(UsageError) {
        document = try DocumentOptions(a, drawsEveryPage: true)
        let preview = try PreviewOptions(a)
        dpi = preview.dpi
        build = try BuildOptions(a)
        document.readsAlso = build.document.readsAlso
        if a.value("page") != nil && a.value("pages") != nil { throw UsageError(message: "give --page N or --pages LIST, not both") }
        if let list = a.value("pages") {
            let pages = list.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmed()) }
            guard !pages.isEmpty, pages.allSatisfy({ ($0 ?? 0) >= 1 }) else {
                throw UsageError(message: "--pages must be page numbers from 1, separated by commas, as in 3,7; got '\(list)'")
            }
            // The PNGs are named after the input, in --png-dir: an -o would be ignored.
            if a.value("output") != nil { throw UsageError(message: "-o names one output; with --pages the PNGs go to --png-dir") }
            let dir = a.value("png-dir") ?? "."
            pngFolder = a.value("png-dir")
            let stem = FilePath.deletingExtension(FilePath.name(of: document.input))
            var seen = Set<Int>()
            let asked = pages.compactMap { $0 }.filter { seen.insert($0).inserted }
            output = .pngs(asked, path: { FilePath.join(dir, "\(stem)-p\($0).png") })
        } else if a.value("page") != nil {
            let path = preview.output
            output = .pngs([preview.page], path: { _ in path })
        } else {
            guard a.value("png-dir") == nil else { throw UsageError(message: "--png-dir goes with --pages") }
            // A whole PDF after every save, one after the other, is no use on a stream.
            guard build.output != "-" || document.input == "-" else {
                throw UsageError(message: "watch writes a file after each save; give -o FILE, not standard output")
            }
            output = .pdf(build.output)
        }
        // Draw runs made ahead on the shaping threads serve a PDF, which draws every page; for
        // PNGs of a few pages they would only hold those threads up.
        if case .pngs = output { document.drawsEveryPage = false }
        if document.input == "-" { throw UsageError(message: "watch needs a file to watch, not standard input") }
        if case .pngs = output, press?.cmyk != nil { throw UsageError(message: "--cmyk converts the PDF; PNGs stay in RGB") }
        if case .pngs = output, timings { throw UsageError(message: "--timings measures a PDF's writing; give -o FILE.pdf, not --page") }
        if case .pngs = output, synctex { throw UsageError(message: "--synctex goes with a PDF; give -o FILE.pdf, not --page") }
        if case .pngs = output, build.depfile != nil || build.split != nil {
            throw UsageError(message: "--depfile and --split go with the issue's PDF; give -o FILE.pdf, not --page")
        }
        if build.depfile == "-" { throw UsageError(message: "--depfile -: watch writes the rule after every rebuild; name a file") }
        if (build.depfile != nil || build.split != nil) && !IssueLoader.isManifest(document.input) {
            throw UsageError(message: "--split and --depfile are for issue manifests (a .json file with \"articles\")")
        }
    }

    /// Whether any of the files written is there (a build before wrote it).
    var anyWritten: Bool {
        switch output {
        case .pdf(let path): return FileIdentity.status(path) != nil
        case .pngs(let pages, let path): return pages.contains { FileIdentity.status(path($0)) != nil }
        }
    }

    /// The files written, for the line after each build.
    var written: String {
        switch output {
        case .pdf(let path): return path
        case .pngs(let pages, let path): return pages.map(path).joined(separator: ", ")
        }
    }
}

/// One build of `galley watch`: what it read, what its pages were, whether it wrote.
struct WatchBuild {
    var inputs: [String] = []
    /// A fingerprint of each page laid out (for the pages that changed).
    var pages: [Int] = []
    var written = false
    /// `--timings`: where the PDF's time went.
    var timings: TimingsReport?
    /// The start of the next PDF, to draw while waiting for the next edit.
    var next: Predraw?
    /// How many of the PDF's pages were drawn before the edit (`Predraw`).
    var predrawn = 0
}

/// The pages the next build of a watched story will most likely keep, drawn into its PDF
/// while `galley watch` waits (`PredrawnPDF`), and what else they were drawn from: the files the
/// story read besides its text, which must not have changed when the next build uses them.
final class Predraw {
    let pdf: PredrawnPDF
    private let stamps: [(String, FileStamp?)]

    init(_ pdf: PredrawnPDF, inputs: [String], source: String) {
        self.pdf = pdf
        stamps = Set(inputs).subtracting([source]).sorted().map { ($0, FileStamp.of($0)) }
    }

    /// The pages drawn, if the files they were drawn from are as they were.
    var usable: PredrawnPDF? { stamps.allSatisfy({ FileStamp.of($0.0) == $0.1 }) ? pdf : nil }
}

extension Run {
    /// `--png-dir` made again if it went while watching (a `make clean`, an `rm -rf out`): every
    /// later build failed on its missing folder. One that cannot be made is said by the write.
    func remakePNGFolder(_ o: WatchOptions) {
        if let dir = o.pngFolder { _ = FilePath.makeFolders(dir) }
    }

    /// Builds, then builds again whenever a file the build read changes, until interrupted.
    mutating func watch() throws -> Int32 {
        var o = try WatchOptions(arguments)
        if let dir = o.pngFolder, !FilePath.makeFolders(dir) {
            throw UsageError(message: "--png-dir: cannot make the folder '\(dir)' (a file of that name, or no permission)")
        }
        // An edit reshapes only the paragraphs it touched.
        o.document.paragraphCaches = ParagraphCaches()
        let watcher = try FileWatcher()
        // It runs until stopped: a parent that started it with these signals blocked (some
        // test runners, some service managers) would leave it unstoppable but for SIGKILL.
        var stopping = sigset_t()
        sigemptyset(&stopping)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopping, signal) }
        pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
        var inputs = [o.document.input]
        // Watched from before the first build, so that a save during it is seen.
        watcher.watch(inputs)
        var before: [Int]?
        var predraw: Predraw?
        // When the save that started the build was seen (none for the first build).
        var saved: ContinuousClock.Instant?
        while true {
            let clock = ContinuousClock()
            let started = clock.now
            sources = [:]
            let result: WatchBuild
            do {
                result = try rebuild(o, predrawn: predraw?.usable)
            } catch {
                // Once watching, an output that became unwritable (made a folder, or one of
                // the inputs) is an error of this build, not the end of the watch.
                guard saved != nil, let message = (error as? RefusedOutput)?.message ?? (error as? UsageError)?.message
                else { throw error }
                diagnostics.append(.error(message))
                result = WatchBuild()
            }
            let seconds = IssuePlanner.seconds(clock.now - started)
            let latency = saved.map { IssuePlanner.seconds(clock.now - $0) }
            predraw = result.next
            // A build that failed read less, or other files: those of the last good one are
            // still watched beside what it read.
            if result.written {
                inputs = result.inputs
            } else {
                inputs += result.inputs.filter { !inputs.contains($0) }
            }
            let errors = diagnostics.errors.count
            let warnings = diagnostics.warnings.count
            report()
            io.writeError(
                Self.watchLine(o, result, before: before, seconds: seconds, since: latency, errors: errors, warnings: warnings)
                    + (result.timings.map { "  " + $0.line } ?? ""))
            if result.written { before = result.pages }
            watcher.watch(inputs)
            saved = watcher.waitForChange {
                // A page of the next PDF at a time, the events looked at between pages.
                guard let pdf = predraw?.pdf, pdf.hasMore else { return false }
                do {
                    try pdf.drawNext()
                } catch {
                    predraw = nil
                }
                return predraw?.pdf.hasMore ?? false
            }
            predraw?.pdf.pause()
            // The input deleted and not yet made again (an editor between its two steps, a
            // checkout under way): wait for it rather than fail a build.
            if FileIdentity.status(o.document.input) == nil {
                io.writeError("\(o.document.input) is gone; waiting for it\n")
                repeat {
                    // Its folder may be gone and made again meanwhile: watched anew each time.
                    watcher.watch(inputs)
                    saved = watcher.waitForChange()
                } while FileIdentity.status(o.document.input) == nil
            }
        }
    }

    /// "12:04:31 wrote doc.pdf in 0.214 s (0.301 s after the save): 12 pages, 3 changed; 1
    /// warning", or why it did not. After the save: from the first event of the save, through
    /// the wait for a burst of saves to end and the build.
    static func watchLine(
        _ o: WatchOptions, _ r: WatchBuild, before: [Int]?, seconds: Double, since saved: Double?, errors: Int, warnings: Int
    ) -> String {
        var now = time(nil)
        var t = tm()
        localtime_r(&now, &t)
        let clock = [t.tm_hour, t.tm_min, t.tm_sec].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
        var line = clock + " "
        if r.written {
            let changed = before.map { old in r.pages.indices.filter { $0 >= old.count || old[$0] != r.pages[$0] }.count } ?? r.pages.count
            line += "wrote \(o.written) in \(format3(seconds)) s"
            if let saved { line += " (\(format3(saved)) s after the save)" }
            line += ": \(count(r.pages.count, "page")), \(changed) changed"
            if r.predrawn > 0 { line += ", \(r.predrawn) drawn before the edit" }
        } else {
            // (Before any build has written it, there is nothing to keep.)
            line += "\(count(errors, "error")); \(o.written) " + (o.anyWritten ? "kept as it was" : "not written")
        }
        if warnings > 0 { line += "; \(count(warnings, "warning"))" }
        return line + "\n"
    }

    private static func format3(_ v: Double) -> String {
        let ms = Int((v * 1000).rounded())
        let frac = ms % 1000
        return "\(ms / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
    }

    /// One build of the document or issue, its outputs written only when it has no error.
    mutating func rebuild(_ o: WatchOptions, predrawn: PredrawnPDF? = nil) throws -> WatchBuild {
        if IssueLoader.isManifest(o.document.input) { return try rebuildIssue(o) }
        var timer = BuildTimer(asked: o.timings)
        guard let doc = try load(o.document) else { return WatchBuild(inputs: filesRead) }
        timer.readingEnds()
        var result = WatchBuild(inputs: doc.inputFiles)
        let before = doc.framesetter.diagnostics.all.count
        // A press build's preflight, as `build --press` runs it (its findings are warnings),
        // said after the layout's own warnings, some of which it replaces.
        var preflight = o.press.map { _ in Preflight(strict: o.strict) }
        defer {
            collectLayoutDiagnostics(doc, before: before)
            if let preflight, result.written || preflight.hasErrors { addPreflight(preflight) }
        }
        if diagnostics.hasErrors { return result }
        do {
            switch o.output {
            case .pdf(let path):
                // With --strict, an error of the preflight keeps the last good PDF.
                guard try writeDocumentPDF(doc, o, to: path, predrawn: predrawn, timer: &timer, preflight: &preflight, &result)
                else { return result }
            case .pngs(let numbers, let path):
                remakePNGFolder(o)
                for n in numbers { _ = try OutputDestination.checked(path(n), inputs: doc.inputFiles) }
                let press = try o.press?.output(doc.template, input: o.document.input, environment: io.environment, sources: doc.inputFiles)
                let pages = try Export.pngs(doc.framesetter, pages: numbers, to: path, dpi: o.dpi, press: press)
                let fingerprint = PageFingerprinter(doc.story, template: doc.template)
                result.pages = numbers.filter { $0 <= pages.count }.map { fingerprint(pages[$0 - 1]) }
            }
            result.written = true
        } catch let e as RenderError {
            diagnostics.append(e.diagnostic)
        }
        return result
    }

    /// A document's PDF for `watch`, its page fingerprints and timings in `result`, and the
    /// next PDF begun (`Predraw`). False when `--strict` found an error: nothing was written.
    private mutating func writeDocumentPDF(
        _ doc: Document, _ o: WatchOptions, to path: String, predrawn: PredrawnPDF?, timer: inout BuildTimer,
        preflight: inout Preflight?, _ result: inout WatchBuild
    ) throws -> Bool {
        let destination = try OutputDestination.checked(path, inputs: doc.inputFiles)
        try checkSyncTeX(o, pdf: path, inputs: doc.inputFiles)
        let metadata = pdfMetadata(input: o.document.input, title: o.title, documentTitle: doc.story.title)
        let press = try o.press?.output(doc.template, input: o.document.input, environment: io.environment, sources: doc.inputFiles)
        let bleed = doc.template.print.bleed
        let input = o.document.input
        var synctex = o.synctex ? SyncTeXWriter(pdf: path, files: [input]) : nil
        let fingerprint = PageFingerprinter(doc.story, template: doc.template)
        // With --strict the PDF waits in a scratch file until every page has been checked.
        let scratch = o.strict ? try TemporaryFile(in: FilePath.temporaryDirectory, name: "galley-strict", mode: 0o600) : nil
        defer { scratch?.discard() }
        timer.exportBegins()
        defer { result.timings = timer.report() }
        _ = try writePDF(
            doc, to: scratch.map { .file($0.path) } ?? destination, metadata: metadata, compression: o.compression, press: press,
            timings: timer.parts, predrawn: predrawn
        ) { page in
            result.pages.append(fingerprint(page))
            synctex?.add(sheet: page.number, [(page, doc.story, input)])
            preflight?.check(page, of: doc.framesetter, index: page.number, bleed: bleed)
        }
        preflight?.checkInk(of: press)
        preflight?.finish()
        if preflight?.hasErrors == true { return false }
        if let scratch { try deliver(scratch.path, to: destination) }
        if let synctex { try writeSyncTeX(synctex, for: path, inputs: doc.inputFiles) }
        result.predrawn = predrawn?.taken ?? 0
        // While the next edit is awaited, the pages before this one's are drawn again.
        if press == nil, case .file(let target) = destination,
            let next = try? PredrawnPDF(after: doc.framesetter, to: target, metadata: metadata, compression: o.compression)
        {
            result.next = Predraw(next, inputs: doc.inputFiles, source: o.document.input)
        }
        return true
    }

    /// An issue's PDF for `watch`, with its SyncTeX file, depfile and split articles when asked
    /// for. False when `--strict` found an error: nothing was written.
    private mutating func writeWatchedIssue(
        _ issue: LoadedIssue, _ plan: IssuePlan, _ o: WatchOptions, to path: String, timer: inout BuildTimer,
        _ result: inout WatchBuild
    ) throws -> Bool {
        let destination = try OutputDestination.checked(path, inputs: issue.inputFiles, madeFirst: o.build.split)
        try checkSyncTeX(o, pdf: path, inputs: issue.inputFiles)
        if let depfile = o.build.depfile { try Self.checkDepfile(depfile, inputs: issue.inputFiles, besides: o.build) }
        let split = try o.build.split.map { dir throws(RefusedOutput) in try Self.splitPaths(issue, into: dir, besides: o.build) }
        // A press build runs the preflight first, as `build` does: with --strict, its errors
        // write nothing.
        var preflight = o.press.map { _ in Self.preflight(issue, plan, manifest: o.document.input, strict: o.strict) }
        if let preflight, preflight.hasErrors {
            addPreflight(preflight)
            return false
        }
        let metadata = pdfMetadata(input: o.document.input, title: o.title, documentTitle: issue.manifest.title)
        let press = try o.press?.output(
            issue.base, input: o.document.input, environment: io.environment, pages: plan.pageSizes, sources: issue.inputFiles)
        timer.exportBegins()
        try writeIssuePDF(
            issue, plan, to: destination, metadata: metadata, compression: o.compression, threads: o.document.threads,
            press: press, timings: timer.parts)
        result.timings = timer.report(issue: true)
        if o.synctex { try writeSyncTeX(Self.syncTeX(issue, plan, pdf: path), for: path, inputs: issue.inputFiles) }
        if let split { try writeSplit(issue, plan, to: split, metadata: metadata, compression: o.compression, press: press) }
        if let depfile = o.build.depfile { try TextOutput.write(Self.depfile(path, issue: issue, plan: plan), to: depfile) }
        preflight?.checkInk(of: press)
        if let preflight { addPreflight(preflight) }
        let parts = PageFingerprinter.parts(of: plan)
        result.pages = plan.pages.indices.map { PageFingerprinter.issuePage(plan, $0, parts: parts) }
        return true
    }

    /// `--synctex`: its file checked before the PDF is written, as `build` checks it.
    private func checkSyncTeX(_ o: WatchOptions, pdf: String, inputs: [String]) throws {
        guard o.synctex else { return }
        _ = try OutputDestination.checked(SyncTeXWriter.path(for: pdf), inputs: inputs, role: .synctex)
    }

    /// An issue's build, for `watch` on a manifest.
    mutating func rebuildIssue(_ o: WatchOptions) throws -> WatchBuild {
        var timer = BuildTimer(asked: o.timings)
        guard let (issue, plan) = try loadIssue(o.document) else { return WatchBuild(inputs: filesRead) }
        timer.readingEnds()
        var result = WatchBuild(inputs: issue.inputFiles)
        let size = (issue.base.pageWidth, issue.base.pageHeight)
        do {
            switch o.output {
            case .pdf(let path):
                guard try writeWatchedIssue(issue, plan, o, to: path, timer: &timer, &result) else { return result }
            case .pngs(let numbers, let path):
                // Every page and output checked before any is written: the set is written whole.
                if let missing = numbers.first(where: { $0 > plan.pages.count }) {
                    throw RenderError(.error("page \(missing) does not exist: the issue has \(count(plan.pages.count, "page"))"))
                }
                remakePNGFolder(o)
                for n in numbers { _ = try OutputDestination.checked(path(n), inputs: issue.inputFiles) }
                for n in numbers {
                    try IssueExport.png(
                        parts: plan.parts, pages: plan.pages, page: n, pageSize: size, to: path(n), dpi: o.dpi,
                        press: try o.press?.output(
                            issue.base, input: o.document.input, environment: io.environment, pages: plan.pageSizes,
                            sources: issue.inputFiles))
                }
                let parts = PageFingerprinter.parts(of: plan)
                result.pages = numbers.filter { $0 <= plan.pages.count }.map { PageFingerprinter.issuePage(plan, $0 - 1, parts: parts) }
            }
            result.written = true
        } catch let e as RenderError {
            diagnostics.append(e.diagnostic)
        }
        return result
    }
}

/// Waits for changes to files with inotify. Folders are watched, not files: an editor that
/// saves by writing beside a file and renaming it over, or deletes and creates it again, leaves
/// the folder's watch in place, where a file's own would follow the old inode away.
final class FileWatcher {
    private let fd: Int32
    /// Watched folders by watch descriptor, and the names in each that matter.
    private var folders: [Int32: String] = [:]
    private var names: Set<String> = []
    /// A burst of saves ends when nothing has happened for this long.
    static let settleMilliseconds: Int32 = 80

    init() throws(UsageError) {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if fd < 0 { throw UsageError(message: "cannot watch files: \(SystemError().message)") }
    }

    deinit { close(fd) }

    /// Watches `files` (and no others) from now on. A folder watched already keeps its watch:
    /// removed and added again, it would get a new descriptor, and the events queued while the
    /// last build ran (a save during it) would arrive under the old one and be lost.
    func watch(_ files: [String]) {
        var wanted: Set<String> = []
        names = []
        for file in files where !file.isEmpty && file != "-" {
            // The name as given (a link, perhaps) and the file it leads to, each in its folder
            // made canonical: inotify names one folder by one watch, whatever path reached it.
            // So is each link on the way (`current/chart.png` with `current` a link to a
            // folder): pointed elsewhere, it changes the file as much as a save does.
            for path in Set([Self.absolute(file), FileRoot.canonicalPath(file)] + Self.links(along: Self.absolute(file))) {
                let folder = FileRoot.canonicalPath(FilePath.directory(of: path))
                names.insert(FilePath.join(folder, FilePath.name(of: path)))
                wanted.insert(present(folder))
            }
        }
        for (wd, folder) in folders where !wanted.contains(folder) {
            inotify_rm_watch(fd, wd)
            folders[wd] = nil
        }
        for folder in wanted where !folders.values.contains(folder) {
            let wd = inotify_add_watch(fd, folder, Self.mask)
            if wd >= 0 { folders[wd] = folder }
        }
    }

    static let mask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    /// `folder`, or while it is missing (deleted to be made again, or not made yet) the nearest
    /// folder above it that is there, where the making of the next folder down is then watched
    /// for (its name is one that matters).
    private func present(_ folder: String) -> String {
        var path = folder
        while !FileIdentity.isFolder(path) {
            let parent = FilePath.directory(of: path)
            guard !parent.isEmpty, parent != path else { break }
            names.insert(path)
            path = parent
        }
        return path
    }

    /// Blocks until a watched file changes, then until the changes have settled, and returns
    /// when the first change was seen. `work` is done meanwhile a piece at a time while it says
    /// pieces are left, the events looked at between pieces.
    @discardableResult
    func waitForChange(working work: () -> Bool = { false }) -> ContinuousClock.Instant {
        let clock = ContinuousClock()
        let settle = Duration.milliseconds(Int(Self.settleMilliseconds))
        var working = true
        var first: ContinuousClock.Instant?
        // The latest event about a watched file.
        var last: ContinuousClock.Instant?
        while true {
            let quiet = last.map { clock.now - $0 }
            if let first, let quiet, quiet >= settle { return first }
            var seen = false
            if working {
                seen = drain(timeout: 0)
                working = work()
            } else {
                // Until the next event, or until the burst has been quiet long enough.
                let timeout = quiet.map { max(0, Int32(((settle - $0) / .milliseconds(1)).rounded(.up))) } ?? -1
                seen = drain(timeout: timeout)
            }
            if seen {
                last = clock.now
                first = first ?? last
            }
        }
    }

    /// Waits up to `timeout` ms (-1: for ever) for events; whether one was about a watched file.
    private func drain(timeout: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let n = poll(&p, 1, timeout)
        if n <= 0 { return false }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var relevant = false
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= got {
                let (wd, length, mask) = buffer.withUnsafeBytes { raw -> (Int32, Int, UInt32) in
                    let e = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (e.wd, Int(e.len), e.mask)
                }
                let start = offset + MemoryLayout<inotify_event>.size
                let nameBytes = buffer[start..<min(start + length, got)].prefix { $0 != 0 }
                if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0, folders[wd] != nil {
                    // A watched folder deleted or moved away: its watch is dropped (a folder
                    // made again in its place is watched at the next `watch`), and its files
                    // are gone.
                    inotify_rm_watch(fd, wd)
                    folders[wd] = nil
                    relevant = true
                } else if let folder = folders[wd], names.contains(FilePath.join(folder, String(decoding: nameBytes, as: UTF8.self))) {
                    relevant = true
                }
                offset = start + length
            }
        }
        return relevant
    }

    /// The symbolic links met on the way to `path` (absolute), in any folder of it and in
    /// the targets of links, as far as a few links deep.
    static func links(along path: String, depth: Int = 0) -> [String] {
        guard depth < 8 else { return [] }
        var found: [String] = []
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            var s = stat()
            guard lstat(prefix, &s) == 0 else { break }
            guard s.st_mode & S_IFMT == S_IFLNK else { continue }
            found.append(prefix)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(prefix, &buffer, buffer.count - 1)
            guard n > 0 else { continue }
            let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let resolved = target.hasPrefix("/") ? target : FilePath.join(FilePath.directory(of: prefix), target)
            found += links(along: resolved, depth: depth + 1)
        }
        return found
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return FilePath.join(String(cString: buffer), path)
    }
}
