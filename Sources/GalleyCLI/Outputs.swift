import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleySupport
import Glibc

/// An output the CLI will not write: it is one of the inputs, or a kind of file that writing
/// would destroy. Exits 2, like a usage error, before anything is written.
struct RefusedOutput: Error {
    var message: String
}

/// Where a command's output goes.
enum OutputDestination: Equatable {
    /// A regular file (or one to create), replaced whole through a temporary file.
    case file(String)
    /// A character device or FIFO (`/dev/null`, `/dev/stdout`, a pipe made with mkfifo): opened
    /// and written to as it is, never replaced.
    case stream(String)
    /// Standard output (`-`).
    case standardOutput

    /// Checks `path` as an output of a document read from `inputs`. Refuses the same file as any
    /// input (by device and inode, through any spelling, hard link or symlink), block devices
    /// (writing one would overwrite a disk), sockets and folders. `role` says which of the
    /// build's outputs it is, and so which option to change.
    /// A new file's folder must exist, unless it is `madeFirst` (the `--split` folder, made
    /// before anything is written) or holds it.
    static func checked(
        _ path: String, inputs: [String], role: OutputRole = .output, madeFirst: String? = nil
    ) throws(RefusedOutput) -> OutputDestination {
        if path == "-" { return .standardOutput }
        guard let status = FileIdentity.status(path) else {
            try requireFolder(of: path, role: role, madeFirst: madeFirst)
            return .file(path)
        }
        let identity = FileIdentity(status)
        let named = "\(role.label) '\(path)'"
        // The project's font files are read too (`--font-path`, a template's `fonts`).
        for input in inputs + ProjectFonts.files where FileIdentity.of(input) == identity {
            let same = input == path ? "" : " (the same file as '\(input)')"
            throw RefusedOutput(message: "\(named) would overwrite the input\(same); \(role.another)")
        }
        if FileIdentity.kind(status) == .regular, let font = ProjectFonts.installed(identity) {
            let same = font == path ? "" : " '\(font)'"
            throw RefusedOutput(message: "\(named) would overwrite the installed font\(same), which builds read; \(role.another)")
        }
        switch FileIdentity.kind(status) {
        case .regular: return .file(path)
        case .characterDevice, .fifo: return .stream(path)
        case .directory: throw RefusedOutput(message: "\(named) is a folder; \(role.inside)")
        case .blockDevice: throw RefusedOutput(message: "\(named) is a block device; galley does not write to disks")
        case .socket, .other: throw RefusedOutput(message: "\(named) is a socket, not a file")
        }
    }
}

/// Which of a build's outputs a path is, for what a refusal says.
enum OutputRole {
    case output, depfile, synctex

    var label: String {
        switch self {
        case .output: "the output"
        case .depfile: "the --depfile"
        case .synctex: "the SyncTeX file"
        }
    }

    /// What to do when the path is an input.
    var another: String {
        switch self {
        case .output: "choose another output with -o"
        case .depfile: "name another file with --depfile"
        case .synctex: "it is written beside the PDF, so name another PDF with -o"
        }
    }

    /// What to do when the path is a folder.
    var inside: String {
        switch self {
        case .output: "name a file inside it with -o"
        case .depfile: "name a file inside it with --depfile"
        case .synctex: another
        }
    }
}

extension OutputDestination {
    /// Refuses a new file in a folder that does not exist: found before the document is laid
    /// out, and said as any refused output is, not as a write that failed at the end.
    static func requireFolder(of path: String, role: OutputRole, madeFirst: String?) throws(RefusedOutput) {
        let folder = FilePath.directory(of: path)
        guard !folder.isEmpty, !FileIdentity.isFolder(folder) else { return }
        if let made = madeFirst.map(FileRoot.canonicalPath) {
            let canonical = FileRoot.canonicalPath(folder)
            if made == canonical || made.hasPrefix(canonical.hasSuffix("/") ? canonical : canonical + "/") { return }
        }
        throw RefusedOutput(message: "cannot write \(role.label) '\(path)': no such folder '\(folder)'")
    }

    /// Whether two outputs would be written to the same file: the same file by device and
    /// inode when both exist, the same canonical path when neither does. (One existing and not
    /// the other: two files.)
    static func sameTarget(_ a: String, _ b: String) -> Bool {
        switch (FileIdentity.of(a), FileIdentity.of(b)) {
        case (let x?, let y?): return x == y
        case (nil, nil): return FileRoot.canonicalPath(a) == FileRoot.canonicalPath(b)
        default: return false
        }
    }
}

extension Run {
    /// Runs `body` with the path to write to: the file itself, or, for standard output and
    /// streams, a temporary file copied there once complete (a failed build then writes
    /// nothing to the stream).
    func withOutput(_ destination: OutputDestination, _ body: (String) throws(RenderError) -> Void) throws(RenderError) {
        let target: Int32
        switch destination {
        case .file(let path):
            try body(path)
            return
        case .standardOutput: target = 1
        case .stream: target = -1
        }
        let scratch = try TemporaryFile(in: FilePath.temporaryDirectory, name: "galley-output", mode: 0o600)
        defer { scratch.discard() }
        try body(scratch.path)
        let bytes: [UInt8]
        switch RawIO.readFile(scratch.path) {
        case .success(let b): bytes = b
        case .failure(let e): throw RenderError(.error("cannot read back the output: \(e.message)"))
        }
        if target == 1 {
            io.writeOutput(Data(bytes))
            return
        }
        guard case .stream(let path) = destination else { return }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        if fd < 0 { throw RenderError(.error("cannot write '\(path)': \(SystemError().message)")) }
        defer { close(fd) }
        if let e = bytes.withUnsafeBytes({ RawIO.writeAll(fd, $0) }) {
            throw RenderError(.error("cannot write '\(path)': \(e.message)"))
        }
    }
}

extension Run {
    /// Copies a finished output from the scratch file it was written to (`build --strict`,
    /// which writes nothing when the preflight finds an error) to where it goes.
    func deliver(_ scratch: String, to destination: OutputDestination) throws(RenderError) {
        let bytes: [UInt8]
        switch RawIO.readFile(scratch) {
        case .success(let b): bytes = b
        case .failure(let e): throw RenderError(.error("cannot read back the output: \(e.message)"))
        }
        try withOutput(destination) { path throws(RenderError) in try TextOutput.write(bytes, to: path) }
    }
}

/// Writing the PDF of a document or an issue: one place for `build` and `watch`.
extension Run {
    /// A build's metadata: the title given with `--title`, else the manifest's, else the
    /// input's file name.
    /// The PDF's title: `--title`, else the issue's or the story's (its `<meta title>` or first
    /// `<h1>`), else the input's name.
    func pdfMetadata(input: String, title: String?, documentTitle: String? = nil) -> PDFMetadata {
        let name = input == "-" ? "Untitled" : FilePath.deletingExtension(FilePath.name(of: input))
        // A heading's inline image, soft hyphens and zero-width spaces are no part of a title.
        let cleaned = documentTitle.map { t in
            String(String.UnicodeScalarView(t.unicodeScalars.filter { !["\u{FFFC}", "\u{AD}", "\u{200B}"].contains($0) }))
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        return PDFMetadata(
            title: title ?? cleaned.flatMap { $0.isEmpty ? nil : $0 } ?? name, creator: "Galley \(Galley.version)",
            date: PDFMetadata.reproducibleDate(environment: io.environment))
    }

    /// Writes every page of `doc` as a PDF; `drawn` sees each page once it is drawn. The number
    /// of pages.
    func writePDF(
        _ doc: Document, to destination: OutputDestination, metadata: PDFMetadata, compression: Int, press: PressOutput? = nil,
        timings: PDFTimings? = nil, predrawn: PredrawnPDF? = nil, drawn: (Page) -> Void = { _ in }
    ) throws(RenderError) -> Int {
        var pages = 0
        try withOutput(destination) { path throws(RenderError) in
            pages = try Export.pdf(
                doc.framesetter, to: path, metadata: metadata, compression: compression, press: press, timings: timings,
                predrawn: predrawn
            ) { n in
                progress("page \(n)")
            } drawn: { page in
                drawn(page)
            }
        }
        endProgress()
        return pages
    }

    /// Writes every page of an issue as a PDF, with the manifest's subject and keywords;
    /// `threads` is `--threads` (with more than one, the articles' draw runs are made beside
    /// the drawing).
    func writeIssuePDF(
        _ issue: LoadedIssue, _ plan: IssuePlan, to destination: OutputDestination, metadata: PDFMetadata, compression: Int,
        threads: Int?, press: PressOutput? = nil, timings: PDFTimings? = nil, page: (Int) -> Void = { _ in }
    ) throws(RenderError) {
        try withOutput(destination) { path throws(RenderError) in
            try IssueExport.pdf(
                parts: plan.parts, pages: plan.pages, pageSize: (issue.base.pageWidth, issue.base.pageHeight), to: path,
                metadata: metadata, subject: issue.manifest.subtitle, keywords: issue.manifest.keywords, compression: compression,
                press: press, timings: timings, drawAhead: IssuePlanner.threads(threads) > 1, progress: page)
        }
        endProgress()
    }
}
