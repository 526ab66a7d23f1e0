import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleyTemplate
import GalleySupport
import Glibc

/// The `galley` command line, testable in-process: `Galley.main(arguments:io:)` returns the exit status.
/// 0 success (warnings allowed), 1 input errors, 2 usage errors.
public enum Galley {
    public static let version = "0.1.0"

    static let documentOptions: [OptionSpec] = [
        OptionSpec(name: "template", short: "t", value: "NAME|FILE", help: "Template: a built-in name or a JSON file (default magazine)."),
        OptionSpec(
            name: "set", short: nil, value: "KEY=VALUE", help: "Override a template key, e.g. --set columns=3 (repeatable).", repeats: true),
        OptionSpec(
            name: "paragraphs", short: nil, value: "MODE", help: "newline (a newline ends a paragraph) or blank-line (hard-wrapped text)."),
        OptionSpec(name: "social", short: nil, value: nil, help: "Find @mentions, #topics#, URLs and [emoticons] everywhere."),
        OptionSpec(name: "allow-file-links", short: nil, value: nil, help: "Write file: link targets (refused by default)."),
        OptionSpec(
            name: "root", short: nil, value: "DIR",
            help: "The folder images are read from (default: the input's folder)."),
        OptionSpec(
            name: "emoticons", short: nil, value: "DIR", help: "Add an emoticon pack (a folder with pack.json; repeatable).", repeats: true),
        OptionSpec(
            name: "font-path", short: nil, value: "DIR", help: "Use the fonts in DIR ahead of the installed ones (repeatable).",
            repeats: true),
        OptionSpec(
            name: "cache", short: nil, value: "DIR", help: "Issues: keep each article's layout in DIR and reuse it while it holds."),
        OptionSpec(name: "threads", short: nil, value: "N", help: "Threads to use, drawing included (default: one per core)."),
        OptionSpec(
            name: "max-image-pixels", short: nil, value: "N",
            help: "The most pixels an image may have, width × height (default 100000000)."),
        OptionSpec(name: "quiet", short: "q", value: nil, help: "Print errors only, no warnings."),
    ]

    /// Printing: the press sheet and PDF/X-4 (build, preview, watch).
    static let pressOptions: [OptionSpec] = [
        OptionSpec(
            name: "press", short: nil, value: nil,
            help: "Print-ready: pages on a sheet with bleed and marks (template 'print'); PDF/X-4."),
        OptionSpec(
            name: "output-intent", short: nil, value: "FILE",
            help: "With --press: the printer's CMYK ICC profile (default: Ghostscript's SWOP profile)."),
    ]

    /// `--cmyk` (build, watch): a preview stays in the screen's RGB.
    static let cmykOption = OptionSpec(
        name: "cmyk", short: nil, value: nil,
        help: "With --press: convert to the output intent's CMYK with Ghostscript; black text on black ink alone.")

    /// `--timings` (build, watch): where a PDF build's time went.
    static let timingsOption = OptionSpec(
        name: "timings", short: nil, value: nil,
        help: "After each PDF, say where its time went: reading, layout, drawing, Cairo writing the pages and fonts.")

    /// The preflight: `check --preflight`, and every `build --press`.
    static let strictOption = OptionSpec(
        name: "strict", short: nil, value: nil,
        help: "Preflight: images under 150 ppi, overset text, missing glyphs and unembeddable fonts are errors.")

    static let commands: [CommandSpec] = [
        CommandSpec(
            name: "build", summary: "Typeset a text file into a PDF, every page.", positionals: ["INPUT"],
            options: [
                OptionSpec(
                    name: "output", short: "o", value: "FILE", help: "The PDF to write (default: INPUT with .pdf; - for standard output)."),
                OptionSpec(
                    name: "title", short: nil, value: "TEXT",
                    help: "Document title in the PDF (default: its <meta title> or first <h1>, else the input's name)."),
                OptionSpec(
                    name: "compression", short: nil, value: "LEVEL", help: "PDF stream compression, 1 (fastest, default) to 9 (smallest)."),
                OptionSpec(
                    name: "depfile", short: nil, value: "FILE", help: "Issues: also write a Make rule of every file the PDF is made from."),
                OptionSpec(name: "split", short: nil, value: "DIR", help: "Issues: also write each article as a PDF of its own into DIR."),
                OptionSpec(name: "json", short: nil, value: nil, help: "Issues: print a build summary as JSON."),
                OptionSpec(
                    name: "synctex", short: nil, value: nil,
                    help: "Also write OUT.synctex.gz, for viewers that jump between page and source."),
                timingsOption,
            ] + pressOptions + [cmykOption, strictOption] + documentOptions,
            discussion: "INPUT is a UTF-8 text file with Galley markup, or - for standard input. With --press the preflight runs too."),
        CommandSpec(
            name: "preview", summary: "Render one page to PNG.", positionals: ["INPUT"],
            options: [
                OptionSpec(name: "page", short: "p", value: "N", help: "The page to render (default 1)."),
                OptionSpec(
                    name: "output", short: "o", value: "FILE", help: "The PNG to write (default: INPUT-pN.png; - for standard output)."),
                OptionSpec(name: "dpi", short: nil, value: "D", help: "Resolution in dots per inch (default 144)."),
            ] + pressOptions + documentOptions),
        CommandSpec(
            name: "watch", summary: "Build, then build again whenever a file the build read changes.", positionals: ["INPUT"],
            options: [
                OptionSpec(
                    name: "output", short: "o", value: "FILE",
                    help: "The PDF to write (default: INPUT with .pdf), or with --page the PNG (default: INPUT-pN.png)."),
                OptionSpec(name: "page", short: "p", value: "N", help: "Write page N as a PNG instead of the PDF."),
                OptionSpec(name: "pages", short: nil, value: "LIST", help: "Write these pages (3,7) as PNGs, INPUT-pN.png in --png-dir."),
                OptionSpec(name: "png-dir", short: nil, value: "DIR", help: "The folder of the --pages PNGs (default: the current one)."),
                OptionSpec(name: "dpi", short: nil, value: "D", help: "Resolution of the PNGs in dots per inch (default 144)."),
                OptionSpec(
                    name: "title", short: nil, value: "TEXT",
                    help: "Document title in the PDF (default: its <meta title> or first <h1>, else the input's name)."),
                OptionSpec(
                    name: "compression", short: nil, value: "LEVEL", help: "PDF stream compression, 1 (fastest, default) to 9 (smallest)."),
                OptionSpec(
                    name: "synctex", short: nil, value: nil,
                    help: "Also write OUT.synctex.gz after each PDF, for viewers that jump between page and source."),
                OptionSpec(
                    name: "depfile", short: nil, value: "FILE", help: "Issues: also write a Make rule of every file the PDF is made from."),
                OptionSpec(name: "split", short: nil, value: "DIR", help: "Issues: also write each article as a PDF of its own into DIR."),
                timingsOption,
            ] + pressOptions + [cmykOption, strictOption] + documentOptions,
            discussion:
                "Watches the input, its images, template and emoticon packs (an issue's manifest and every file it names). Each build prints one line: the time it took, the pages, how many changed. After an error the last good output is kept. Stop it with Ctrl-C."
        ),
        CommandSpec(
            name: "check", summary: "Parse and lay out a file, printing diagnostics only.", positionals: ["INPUT"],
            options: [
                OptionSpec(
                    name: "preflight", short: nil, value: nil,
                    help: "Also check for print: image resolution, small text, thin rules, overset, bleed, font licences."),
                strictOption,
                OptionSpec(name: "json", short: nil, value: nil, help: "Print the diagnostics (and the preflight's findings) as JSON."),
            ] + documentOptions),
        CommandSpec(
            name: "inspect", summary: "Show what landed where: pages, columns, visible ranges.", positionals: ["INPUT"],
            options: [
                OptionSpec(name: "json", short: nil, value: nil, help: "Print JSON instead of text."),
                OptionSpec(name: "lines", short: nil, value: nil, help: "List every placed line and image (text form)."),
                OptionSpec(
                    name: "stats", short: nil, value: nil, help: "Typographic figures: loose and tight lines, hyphens, widows, orphans."),
            ] + documentOptions),
        CommandSpec(
            name: "locate", summary: "Find the character under a point of a page, or where a source position is set.",
            positionals: ["INPUT"],
            options: [
                OptionSpec(name: "page", short: "p", value: "N", help: "The page the point is on (default 1)."),
                OptionSpec(name: "at", short: nil, value: "X,Y", help: "The point, in points from the page's top left."),
                OptionSpec(name: "source", short: nil, value: "LINE:COL", help: "A position in the input: where is it set?"),
                OptionSpec(name: "json", short: nil, value: nil, help: "Print JSON instead of text."),
            ] + documentOptions),
        CommandSpec(
            name: "fonts", summary: "List the font families Galley sees, or say what a face name becomes.", positionals: [],
            options: [
                OptionSpec(name: "resolve", short: nil, value: "NAME", help: "Say which face a name (\"Didot Bold\") becomes, and why."),
                OptionSpec(name: "json", short: nil, value: nil, help: "Print JSON instead of text."),
                OptionSpec(
                    name: "font-path", short: nil, value: "DIR", help: "Also list the fonts in DIR (repeatable).", repeats: true),
                OptionSpec(
                    name: "template", short: "t", value: "NAME|FILE", help: "Also list the fonts of the template's 'fonts' folders."),
            ]),
        CommandSpec(
            name: "templates", summary: "List the built-in templates, or print one as JSON.", positionals: ["[NAME|FILE]"],
            options: [
                OptionSpec(name: "show", short: nil, value: "NAME|FILE", help: "Print this template as JSON (a file is shown resolved)."),
                OptionSpec(
                    name: "root", short: nil, value: "DIR", help: "Also read the files the template names (extends) from under DIR."),
            ]),
    ]

    static var mainHelp: String {
        var s = """
            galley \(version): typeset text with light markup into a magazine PDF.

            Usage: galley COMMAND [options] INPUT

            Commands:

            """
        for c in commands { s += "  " + c.name.padded(to: 11) + c.summary + "\n" }
        s += """

            Run 'galley COMMAND --help' for a command's options.
            Examples:
              galley build article.txt -o article.pdf
              galley preview article.txt --page 3 -o p3.png --dpi 144

            """
        return s
    }

    /// Runs a command line (without the program name).
    public static func main(arguments: [String], io: IO) -> Int32 {
        let status = command(arguments: arguments, io: io)
        guard let why = io.outputFailure else { return status }
        io.writeError("galley: error: cannot write standard output: \(why)\n")
        return status == 0 ? 1 : status
    }

    private static func command(arguments: [String], io: IO) -> Int32 {
        guard let first = arguments.first else {
            io.writeError(mainHelp)
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            io.writeOutput(Data(mainHelp.utf8))
            return 0
        case "--version", "-V", "version":
            io.print("galley \(version)")
            return 0
        default: break
        }
        guard let spec = commands.first(where: { $0.name == first }) else {
            var m = "galley: error: unknown command '\(DiagnosticRenderer.escapingControls(first, keepingNewlines: false))'"
            if let s = closest(first, commands.map(\.name)) { m += "; did you mean '\(s)'?" }
            io.writeError(m + "\n(commands: \(commands.map(\.name).joined(separator: ", ")); see 'galley --help')\n")
            return 2
        }
        var parsed: ParsedArguments
        do {
            parsed = try parseArguments(Array(arguments.dropFirst()), spec: spec)
            parsed.searchPath = io.environment["PATH"]
        } catch {
            let message = DiagnosticRenderer.escapingControls(error.message, keepingNewlines: true)
            io.writeError("galley \(spec.name): error: \(message)\nUsage: \(spec.usage) (see 'galley \(spec.name) --help')\n")
            return 2
        }
        if parsed.help {
            io.writeOutput(Data(spec.help.utf8))
            return 0
        }
        var run = Run(spec: spec, arguments: parsed, io: io)
        return run.execute()
    }
}
