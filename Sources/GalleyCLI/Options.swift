import FoundationEssentials
import GalleyLayout
import GalleyRender
import GalleyStory
import GalleySupport
import GalleyTemplate

// Each command's options, read once from the parsed command line into typed values and checked
// (a bad value is a usage error, exit 2, before any input is read).

extension DocumentOptions {
    /// The options every command that sets a document takes.
    init(_ a: ParsedArguments, drawsEveryPage: Bool) throws(UsageError) {
        guard a.positionals.count == 1 else {
            throw UsageError(message: a.positionals.isEmpty ? "missing INPUT file" : "expected one INPUT file, got \(a.positionals.count)")
        }
        self.init()
        input = a.positionals[0]
        if let t = a.value("template") {
            template = t
            templateGiven = true
        }
        overrides = a.all("set")
        for s in overrides where !s.contains("=") { throw UsageError(message: "--set needs KEY=VALUE, got '\(s)'") }
        if let m = a.value("max-image-pixels") {
            guard let n = Int(m), n >= 1, n <= Template.largestImagePixels else {
                throw UsageError(message: "--max-image-pixels must be a whole number from 1 to \(Template.largestImagePixels), got '\(m)'")
            }
            overrides.append("maxImagePixels=\(n)")
        }
        if let p = a.value("paragraphs") {
            guard let m = ParagraphMode(rawValue: p) else {
                throw UsageError(message: "--paragraphs must be 'newline' or 'blank-line', got '\(p)'")
            }
            paragraphs = m
        }
        self.drawsEveryPage = drawsEveryPage
        social = a.flag("social")
        allowFileLinks = a.flag("allow-file-links")
        if let r = a.value("root") {
            guard FileIdentity.isFolder(r) else {
                throw UsageError(message: "--root must name a folder, got '\(r)'")
            }
            root = r
        }
        emoticons = a.all("emoticons")
        fontPaths = a.all("font-path")
        cache = a.value("cache")
        if let t = a.value("threads") {
            guard let n = Int(t), n >= 1, n <= 64 else {
                throw UsageError(message: "--threads must be a whole number from 1 to 64, got '\(t)'")
            }
            threads = n
        }
    }
}

/// `--press` and `--output-intent FILE` (build, preview, watch): the profiles are read and
/// checked here, so a missing or wrong profile is a usage error before any input is read.
struct PressRequest {
    var intent: ColorProfile
    var sRGB: ColorProfile
    /// `--cmyk` (build, watch): Ghostscript found, and Little CMS.
    var cmyk: CMYKConversion?

    /// The profiles' files: the output intent, and the sRGB profile the colours are declared in.
    var profiles: [String] { [intent.path, sRGB.path] }

    /// Nil without `--press`.
    static func parse(_ a: ParsedArguments) throws(UsageError) -> PressRequest? {
        let path = a.value("output-intent")
        guard a.flag("press") else {
            if path != nil { throw UsageError(message: "--output-intent goes with --press") }
            if a.flag("cmyk") { throw UsageError(message: "--cmyk goes with --press") }
            return nil
        }
        var request: PressRequest
        switch PressOutput.profiles(intentPath: path) {
        case .success(let p): request = PressRequest(intent: p.intent, sRGB: p.sRGB)
        case .failure(let e): throw UsageError(message: "--output-intent: " + e.diagnostic.message)
        }
        if a.flag("cmyk") {
            switch CMYKConversion.locate(searchPath: a.searchPath) {
            case .success(let c): request.cmyk = c
            case .failure(let e): throw UsageError(message: e.diagnostic.message)
            }
        }
        return request
    }

    /// What the export needs: the template's sheet, the profiles, the name and date on the slug
    /// line. `pages` are the sizes of the pages when they are not all the template's (an issue);
    /// `sources` the files read, whose newest (the profiles aside) gives the slug's date.
    func output(
        _ template: Template, input: String, environment: [String: String], pages: [(Double, Double)] = [],
        sources: [String] = []
    ) throws(RenderError) -> PressOutput {
        for (w, h) in [(template.pageWidth, template.pageHeight)] + pages {
            try Self.checkSheet(PressSheet(trimWidth: w, trimHeight: h, print: template.print))
        }
        return PressOutput(
            print: template.print, intent: intent, sRGB: sRGB, label: input == "-" ? "stdin" : FilePath.name(of: input),
            date: Self.slugDate(environment: environment, sources: sources.filter { !profiles.contains($0) }), cmyk: cmyk)
    }

    /// The slug line's date: `SOURCE_DATE_EPOCH`'s, else the day the newest of the sources was
    /// changed, which tells one proof from another as the sources change and is the same for
    /// every build of the same sources (a clock's date would make no two PDFs alike).
    static func slugDate(environment: [String: String], sources: [String]) -> Date {
        if environment["SOURCE_DATE_EPOCH"] != nil { return PDFMetadata.reproducibleDate(environment: environment) }
        let newest = sources.compactMap { FileStamp.of($0)?.modified }.max()
        return newest.map { Date(timeIntervalSince1970: TimeInterval($0 / 1_000_000_000)) }
            ?? PDFMetadata.reproducibleDate(environment: environment)
    }

    /// PDF readers open pages of at most 14,400 pt a side, and the sheet is the page with its
    /// bleed and slug around it: a page the template allows can make a sheet too large.
    static func checkSheet(_ sheet: PressSheet) throws(RenderError) {
        let largest = 14400.0
        guard sheet.width > largest || sheet.height > largest else { return }
        // Rounded up, so a sheet just over the limit does not print as the limit.
        func pt(_ x: Double) -> String { format((x * 10).rounded(.up) / 10) }
        throw RenderError(
            .error(
                "--press: the sheet would be \(pt(sheet.width)) × \(pt(sheet.height)) pt, the page "
                    + "(\(pt(sheet.trimWidth)) × \(pt(sheet.trimHeight)) pt) with \(pt(sheet.margin)) pt of bleed and slug "
                    + "on each side; PDF readers open at most 14400 pt: make the page smaller, or print.bleed "
                    + "and print.slug narrower"))
    }
}

/// `galley build`.
struct BuildOptions {
    var document: DocumentOptions
    /// The PDF to write: `-o`, else the input with `.pdf` (standard output for standard input).
    var output: String
    var title: String?
    /// Stream compression, 1 to 9.
    var compression = 1
    /// `--depfile FILE`: a Make rule listing every input.
    var depfile: String?
    /// `--split DIR` (issues): each article's own PDF.
    var split: String?
    /// `--json`: the build summary on standard output.
    var json = false
    /// `--synctex`: `OUT.synctex.gz` beside the PDF.
    var synctex = false
    /// `--press`: the press sheet and PDF/X-4.
    var press: PressRequest?
    /// `--strict` (with `--press`): the preflight's worst findings are errors.
    var strict = false
    /// `--timings`: where the build's time went, on standard error.
    var timings = false

    init(_ a: ParsedArguments) throws(UsageError) {
        document = try DocumentOptions(a, drawsEveryPage: true)
        output = a.value("output") ?? (document.input == "-" ? "-" : replacingExtension(document.input, with: "pdf"))
        title = a.value("title")
        // An empty title would leave the PDF's `/Title` empty, which PDF/X-4 does not allow and
        // a reader shows as the file's name at best.
        if let t = title, t.allSatisfy(\.isWhitespace) { throw UsageError(message: "--title needs a title, got '\(t)'") }
        if let c = a.value("compression") {
            guard let level = Int(c), (1...9).contains(level) else {
                throw UsageError(message: "--compression must be a whole number from 1 to 9, got '\(c)'")
            }
            compression = level
        }
        depfile = a.value("depfile")
        split = a.value("split")
        json = a.flag("json")
        synctex = a.flag("synctex")
        press = try PressRequest.parse(a)
        document.readsAlso += press?.profiles ?? []
        strict = a.flag("strict")
        timings = a.flag("timings")
        if strict && press == nil { throw UsageError(message: "--strict goes with --press, whose builds run the preflight") }
        if synctex && output == "-" { throw UsageError(message: "--synctex writes beside the PDF; give -o FILE") }
        // Beside a device or a FIFO (`-o /dev/null`) it would be a file in /dev.
        if synctex, let status = FileIdentity.status(output), FileIdentity.kind(status) != .regular {
            throw UsageError(message: "--synctex writes beside the PDF, and '\(output)' is not a file; give -o FILE")
        }
        if json && output == "-" { throw UsageError(message: "--json prints to standard output, which the PDF takes; give -o FILE") }
    }
}

/// `galley preview`.
struct PreviewOptions {
    var document: DocumentOptions
    var page = 1
    var dpi = 144.0
    /// The PNG to write: `-o`, else `INPUT-pN.png`.
    var output: String
    /// `--press`: the whole sheet, marks and trim outlined.
    var press: PressRequest?

    init(_ a: ParsedArguments) throws(UsageError) {
        document = try DocumentOptions(a, drawsEveryPage: false)
        if let p = a.value("page") {
            guard let n = Int(p), n >= 1 else { throw UsageError(message: "--page must be a page number from 1, got '\(p)'") }
            page = n
        }
        if let d = a.value("dpi") {
            guard let v = Double(d), v >= 9, v <= 2400 else {
                throw UsageError(message: "--dpi must be a number from 9 to 2400, got '\(d)'")
            }
            dpi = v
        }
        output = a.value("output") ?? (document.input == "-" ? "-" : replacingExtension(document.input, with: "png", suffix: "-p\(page)"))
        press = try PressRequest.parse(a)
        document.readsAlso += press?.profiles ?? []
    }
}

/// `galley check`.
struct CheckOptions {
    var document: DocumentOptions
    /// `--preflight`: the print checks too.
    var preflight: Bool
    /// `--strict`: the preflight's worst findings are errors.
    var strict: Bool
    var json: Bool

    init(_ a: ParsedArguments) throws(UsageError) {
        document = try DocumentOptions(a, drawsEveryPage: false)
        preflight = a.flag("preflight")
        strict = a.flag("strict")
        json = a.flag("json")
        if strict && !preflight { throw UsageError(message: "--strict goes with --preflight") }
    }
}

/// `galley inspect`.
struct InspectOptions {
    var document: DocumentOptions
    var json: Bool
    var lines: Bool
    var stats: Bool

    init(_ a: ParsedArguments) throws(UsageError) {
        document = try DocumentOptions(a, drawsEveryPage: false)
        json = a.flag("json")
        lines = a.flag("lines")
        stats = a.flag("stats")
    }
}

/// `galley locate`: a point of a page (`--page`, `--at X,Y`), or a source position (`--source L:C`).
struct LocateOptions {
    var document: DocumentOptions
    var page = 1
    var point: (x: Double, y: Double)?
    var source: (line: Int, column: Int)?
    var json: Bool

    init(_ a: ParsedArguments) throws(UsageError) {
        document = try DocumentOptions(a, drawsEveryPage: false)
        json = a.flag("json")
        if let p = a.value("page") {
            guard let n = Int(p), n >= 1 else { throw UsageError(message: "--page must be a page number from 1, got '\(p)'") }
            page = n
        }
        if let at = a.value("at") {
            let parts = at.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmed()) }
            guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
                throw UsageError(message: "--at must be X,Y in points from the page's top left, as in 120,340; got '\(at)'")
            }
            point = (x, y)
        }
        if let s = a.value("source") {
            let parts = s.split(separator: ":", omittingEmptySubsequences: false).map { Int($0.trimmed()) }
            guard parts.count == 2, let l = parts[0], let c = parts[1], l >= 1, c >= 1 else {
                throw UsageError(message: "--source must be LINE:COL, both from 1, as in 12:5; got '\(s)'")
            }
            source = (l, c)
        }
        guard (point == nil) != (source == nil) else {
            throw UsageError(message: "give either --at X,Y (with --page) or --source LINE:COL")
        }
    }
}

/// `galley templates [NAME|FILE]`.
struct TemplatesOptions {
    /// The template to print; nil lists the built-in ones.
    var name: String?
    /// `--root DIR`: where else the files it names (`extends`) may lie, as for a build.
    var roots: [String] = []

    init(_ a: ParsedArguments) throws(UsageError) {
        guard a.positionals.count <= 1 else { throw UsageError(message: "unexpected argument '\(a.positionals[1])'") }
        if a.positionals.count == 1, a.value("show") != nil {
            throw UsageError(message: "name the template once: as an argument or with --show")
        }
        name = a.positionals.first ?? a.value("show")
        if let r = a.value("root") {
            guard FileIdentity.isFolder(r) else { throw UsageError(message: "--root must name a folder, got '\(r)'") }
            roots = [r]
        }
    }
}

/// `galley fonts`.
struct FontsOptions {
    var json = false
    /// `--resolve NAME`: what a face name becomes.
    var resolve: String?
    /// Project fonts: `--font-path` and the template's `fonts`.
    var fontPaths: [String] = []
    var template: String?

    init(_ a: ParsedArguments) throws(UsageError) {
        if let extra = a.positionals.first { throw UsageError(message: "unexpected argument '\(extra)'") }
        json = a.flag("json")
        resolve = a.value("resolve")
        if let r = resolve, r.trimmed().isEmpty { throw UsageError(message: "--resolve needs a face name") }
        fontPaths = a.all("font-path")
        template = a.value("template")
    }
}
