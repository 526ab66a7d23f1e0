import Foundation
import TestSupport
import Testing

/// A folder holding `t.txt` with `text`; the input's path is `dir.file("t.txt")`.
func inputFolder(_ text: String, name: String = "t.txt") -> TemporaryDirectory {
    let dir = TemporaryDirectory("cli")
    dir.write(name, text)
    return dir
}

/// The usage error text every command prints for `message`.
func usage(_ command: String, _ message: String, positionals: String = " INPUT") -> String {
    "galley \(command): error: \(message)\nUsage: galley \(command) [options]\(positionals) (see 'galley \(command) --help')\n"
}

// MARK: - Exit statuses and usage errors

@Suite struct ExitStatusTests {
    // A clean build succeeds silently (standard error is not a terminal: no progress, no "wrote").
    @Test func cleanBuildIsSilent() {
        let dir = inputFolder("Hello")
        let r = run(["build", dir.file("t.txt")])
        #expect(r.status == 0 && r.stderr == "" && r.stdout.isEmpty)
        #expect(dir.contents == ["t.pdf", "t.txt"])
    }

    // Warnings alone still exit 0, and are printed.
    @Test func warningsExitZero() {
        let r = run(["check", "-"], stdin: Array("x</font>y".utf8))
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("<stdin>:1:2: warning: </font> without a matching <font>; it is ignored\n"))
    }

    // An input error exits 1 and writes nothing.
    @Test func inputErrorExitsOne() {
        let dir = inputFolder("<font color=\"gren\">x")
        let r = run(["build", dir.file("t.txt")])
        #expect(r.status == 1)
        #expect(dir.contents == ["t.txt"])
    }

    // No arguments: the main help on standard error, exit 2.
    @Test func noArguments() {
        let r = run([])
        #expect(r.status == 2 && r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("galley 0.1.0: typeset text with light markup into a magazine PDF.\n"))
    }

    // An unknown command suggests the nearest one and lists them all.
    @Test func unknownCommandDidYouMean() {
        let r = run(["buidl", "x.txt"])
        #expect(r.status == 2)
        #expect(
            r.stderr == """
                galley: error: unknown command 'buidl'; did you mean 'build'?
                (commands: build, preview, watch, check, inspect, locate, fonts, templates; see 'galley --help')

                """)
    }

    // A command far from every name gets no suggestion.
    @Test func unknownCommandNoSuggestion() {
        #expect(run(["zzzzzzzz"]).stderr.hasPrefix("galley: error: unknown command 'zzzzzzzz'\n"))
    }

    // A control character in an unknown command or option is shown, never sent to the
    // terminal, where an escape sequence would act (clear the screen, move the cursor).
    @Test func controlsInUnknownNamesAreShown() {
        let command = run(["bu\u{1B}ild"]).stderr
        #expect(command.hasPrefix("galley: error: unknown command 'bu\\x1bild'") && !command.contains("\u{1B}"), "\(command)")
        let option = run(["fonts", "--json\u{1B}[2J"]).stderr
        #expect(option.contains("unknown option '--json\\x1b[2J'") && !option.contains("\u{1B}"), "\(option)")
    }

    // An unknown long option suggests the nearest one, with the usage line.
    @Test func unknownOptionDidYouMean() {
        let r = run(["build", "x.txt", "--outptu", "y.pdf"])
        #expect(r.status == 2)
        #expect(r.stderr == usage("build", "unknown option '--outptu' for 'galley build'; did you mean '--output'?"))
    }

    // An unknown short option.
    @Test func unknownShortOption() {
        let r = run(["check", "x.txt", "-z"])
        #expect(r.status == 2 && r.stderr == usage("check", "unknown option '-z' for 'galley check'"))
    }

    // Missing INPUT, and two of them.
    @Test func inputCount() {
        #expect(run(["build"]).stderr == usage("build", "missing INPUT file"))
        #expect(run(["build"]).status == 2)
        #expect(run(["check", "a", "b"]).stderr == usage("check", "expected one INPUT file, got 2"))
    }

    // An option missing its value, a flag given a value, an option given twice.
    @Test func optionShapes() {
        #expect(run(["build", "x", "-o"]).stderr == usage("build", "option '--output' needs a value (FILE)"))
        #expect(run(["check", "x", "--quiet=yes"]).stderr == usage("check", "option '--quiet' takes no value"))
        #expect(run(["build", "x", "-o", "a", "-o", "b"]).stderr == usage("build", "option '--output' given twice"))
        // Another option is not a value: `-o -q` wrote a PDF named "-q".
        for other in ["-q", "--quiet", "-o"] {
            #expect(
                run(["build", "x", "-o", other]).stderr
                    == usage(
                        "build",
                        "option '--output' needs a value (FILE), not the option '\(other)'; for a value beginning with '-', "
                            + "write --output=\(other)"))
        }
    }

    // A page past the end of a document whose folios start elsewhere says so: `--page 17` of
    // pages numbered 17 and 18 was "does not exist", with no word of why.
    @Test func pagesCountFromOneWhateverTheirFolios() {
        let d = TemporaryDirectory("folios")
        let r = run(["preview", "-", "--set", "startPage=17", "--page", "17", "-o", d.file("p.png")], stdin: Array("x".utf8))
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("page 17 does not exist: the document has 1 page (folio 17); --page counts from the first page, 1"),
            "\(r.stderr)")
    }

    // Bad --dpi values: not a number, too small, too large.
    @Test(arguments: ["abc", "5", "5000", ""]) func badDPI(value: String) {
        let r = run(["preview", "x.txt", "--dpi", value])
        #expect(r.status == 2)
        #expect(r.stderr == usage("preview", "--dpi must be a number from 9 to 2400, got '\(value)'"))
    }

    // Bad --page values.
    @Test(arguments: ["0", "-1", "two", "1.5"]) func badPage(value: String) {
        let r = run(["preview", "x.txt", "--page=\(value)"])
        #expect(r.status == 2)
        #expect(r.stderr == usage("preview", "--page must be a page number from 1, got '\(value)'"))
    }

    // Bad --paragraphs mode.
    @Test func badParagraphs() {
        let r = run(["check", "x.txt", "--paragraphs", "blank"])
        #expect(r.status == 2 && r.stderr == usage("check", "--paragraphs must be 'newline' or 'blank-line', got 'blank'"))
    }

    // Bad --threads counts.
    @Test(arguments: ["0", "65", "many"]) func badThreads(value: String) {
        let r = run(["check", "x.txt", "--threads", value])
        #expect(r.status == 2 && r.stderr == usage("check", "--threads must be a whole number from 1 to 64, got '\(value)'"))
    }

    // Usage errors are found before the input is read: a missing file does not mask them.
    @Test func usageBeforeInput() {
        #expect(run(["check", "/no/such/file.txt", "--threads", "0"]).status == 2)
    }

    // --set without '=' is a usage error.
    @Test func setWithoutEquals() {
        let r = run(["check", "x.txt", "--set", "columns"])
        #expect(r.status == 2 && r.stderr == usage("check", "--set needs KEY=VALUE, got 'columns'"))
    }

    // build refuses to overwrite its input.
    @Test func outputOverInput() {
        let dir = inputFolder("x")
        let r = run(["build", dir.file("t.txt"), "-o", dir.file("t.txt")])
        #expect(r.status == 2)
        #expect(
            r.stderr == "galley build: error: the output '\(dir.file("t.txt"))' would overwrite the input; choose another output with -o\n")
        #expect(dir.read("t.txt") == Data("x".utf8))
    }

    // templates takes no positional argument.
    @Test func templatesExtraArgument() {
        let r = run(["templates", "magazine", "extra"])
        #expect(r.status == 2 && r.stderr == usage("templates", "unexpected argument 'extra'", positionals: " [NAME|FILE]"))
        let both = run(["templates", "magazine", "--show", "pocket"])
        #expect(both.status == 2)
    }

    // `galley templates NAME` prints the template, as --show does.
    @Test func templatesPositionalName() {
        let r = run(["templates", "magazine"])
        #expect(r.status == 0 && r.output == run(["templates", "--show", "magazine"]).output && !r.output.isEmpty)
        #expect(run(["templates", "nosuch"]).status == 1)
    }

    // A missing input file and a folder as input are input errors, not located.
    @Test func unreadableInput() {
        let dir = TemporaryDirectory("cli")
        let missing = run(["check", dir.file("nope.txt")])
        #expect(missing.status == 1)
        #expect(missing.stderr == "galley: error: cannot read '\(dir.file("nope.txt"))': No such file or directory\n")
        let folder = run(["check", dir.path])
        #expect(folder.status == 1 && folder.stderr == "galley: error: cannot read '\(dir.path)': it is a folder\n")
    }

    // Invalid UTF-8 input is located at the bad byte, with its line and a caret.
    @Test func invalidUTF8() {
        let r = run(["check", "-"], stdin: [0x61, 0xFF, 0x62])
        #expect(r.status == 1 && r.stderr == "<stdin>:1:2: error: invalid UTF-8: byte 0xFF at byte offset 1\na\u{FFFD}b\n ^\n")
    }
}

// MARK: - Help and version

@Suite struct HelpTests {
    // --help of every command goes to standard output with its usage line, and exits 0.
    @Test(arguments: ["build", "preview", "watch", "check", "inspect", "locate", "fonts", "templates"]) func commandHelp(command: String) {
        for flag in ["--help", "-h"] {
            let r = run([command, flag])
            #expect(r.status == 0 && r.stderr == "")
            let positionals = command == "templates" ? " [NAME|FILE]" : command == "fonts" ? "" : " INPUT"
            #expect(r.output.contains("\nUsage: galley \(command) [options]\(positionals)\n"))
            #expect(r.output.contains("  -h, --help"))
        }
    }

    // --help wins over other arguments, even invalid values.
    @Test func helpWinsOverValues() {
        #expect(run(["preview", "--dpi", "5", "--help"]).status == 0)
    }

    // build --help lists its options with aligned help.
    @Test func buildHelpText() {
        assertDump(
            run(["build", "--help"]).output,
            #"""
            Typeset a text file into a PDF, every page.

            Usage: galley build [options] INPUT

            INPUT is a UTF-8 text file with Galley markup, or - for standard input. With --press the preflight runs too.

            Options:
              -o, --output FILE         The PDF to write (default: INPUT with .pdf; - for standard output).
                  --title TEXT          Document title in the PDF (default: its <meta title> or first <h1>, else the input's name).
                  --compression LEVEL   PDF stream compression, 1 (fastest, default) to 9 (smallest).
                  --depfile FILE        Issues: also write a Make rule of every file the PDF is made from.
                  --split DIR           Issues: also write each article as a PDF of its own into DIR.
                  --json                Issues: print a build summary as JSON.
                  --synctex             Also write OUT.synctex.gz, for viewers that jump between page and source.
                  --timings             After each PDF, say where its time went: reading, layout, drawing, Cairo writing the pages and fonts.
                  --press               Print-ready: pages on a sheet with bleed and marks (template 'print'); PDF/X-4.
                  --output-intent FILE  With --press: the printer's CMYK ICC profile (default: Ghostscript's SWOP profile).
                  --cmyk                With --press: convert to the output intent's CMYK with Ghostscript; black text on black ink alone.
                  --strict              Preflight: images under 150 ppi, overset text, missing glyphs and unembeddable fonts are errors.
              -t, --template NAME|FILE  Template: a built-in name or a JSON file (default magazine).
                  --set KEY=VALUE       Override a template key, e.g. --set columns=3 (repeatable).
                  --paragraphs MODE     newline (a newline ends a paragraph) or blank-line (hard-wrapped text).
                  --social              Find @mentions, #topics#, URLs and [emoticons] everywhere.
                  --allow-file-links    Write file: link targets (refused by default).
                  --root DIR            The folder images are read from (default: the input's folder).
                  --emoticons DIR       Add an emoticon pack (a folder with pack.json; repeatable).
                  --font-path DIR       Use the fonts in DIR ahead of the installed ones (repeatable).
                  --cache DIR           Issues: keep each article's layout in DIR and reuse it while it holds.
                  --threads N           Threads to use, drawing included (default: one per core).
                  --max-image-pixels N  The most pixels an image may have, width × height (default 100000000).
              -q, --quiet               Print errors only, no warnings.
              -h, --help                Show this help.
            """#)
    }

    // The main help lists every command; `help`, `--help` and `-h` all show it.
    @Test(arguments: ["--help", "-h", "help"]) func mainHelp(flag: String) {
        let r = run([flag])
        #expect(r.status == 0 && r.stderr == "")
        for c in ["build", "preview", "watch", "check", "inspect", "locate", "fonts", "templates"] {
            #expect(r.output.contains("\n  \(c) "))
        }
    }

    // --version, -V and version print the version on standard output.
    @Test(arguments: ["--version", "-V", "version"]) func version(flag: String) {
        let r = run([flag])
        #expect(r.status == 0 && r.output == "galley 0.1.0\n" && r.stderr == "")
    }
}

// MARK: - Diagnostics

@Suite struct DiagnosticOutputTests {
    // A slip repeated through a file (150 unclosed spans) printed a warning for each: the first
    // hundred of a severity are shown, and the rest counted in one line.
    @Test func repeatedWarningsAreCapped() {
        let d = TemporaryDirectory("cap")
        let text = d.write("t.txt", String(repeating: "<span>x", count: 150) + "\n")
        let r = run(["check", text])
        #expect(r.status == 0)
        #expect(r.stderr.components(separatedBy: ": warning: ").count - 1 == 100, "\(r.stderr.suffix(300))")
        #expect(r.stderr.contains("\ngalley: 51 more warnings not shown\n"), "\(r.stderr.suffix(300))")
    }

    // A located error prints file:line:col, the source line and a caret under the value.
    @Test func locatedError() {
        let r = run(["check", "-"], stdin: Array("x</font>y\n<font color=\"gren\">z".utf8))
        #expect(r.status == 1)
        #expect(
            r.stderr == """
                <stdin>:1:2: warning: </font> without a matching <font>; it is ignored
                x</font>y
                 ^
                <stdin>:2:14: error: unknown colour 'gren'; did you mean 'green'?
                <font color="gren">z
                             ^~~~

                """)
    }

    // A file input is named as the user gave the path.
    @Test func fileNameAsGiven() {
        let dir = inputFolder("<font size=\"big\">x")
        let r = run(["check", dir.file("t.txt")])
        #expect(r.stderr.hasPrefix("\(dir.file("t.txt")):1:13: error: size must be a number of points, got 'big'\n"))
    }

    // --quiet drops warnings (and check's summary) but keeps errors.
    @Test func quiet() {
        let warn = run(["check", "-", "-q"], stdin: Array("x</font>y".utf8))
        #expect(warn.status == 0 && warn.stderr == "")
        let err = run(["check", "-", "--quiet"], stdin: Array("x</font>y\n<font color=\"gren\">z".utf8))
        #expect(err.status == 1)
        #expect(err.stderr.hasPrefix("<stdin>:2:14: error: unknown colour"))
        #expect(!err.stderr.contains("warning"))
    }

    // --quiet on build keeps layout warnings out too.
    @Test func quietBuild() {
        let dir = inputFolder("<font size=\"300\">Big</font>")
        let loud = run(["build", dir.file("t.txt"), "--set", "page.size=A6"])
        #expect(loud.status == 0 && loud.stderr.contains("warning: a line 360 pt tall does not fit"))
        let quiet = run(["build", dir.file("t.txt"), "--set", "page.size=A6", "-q"])
        #expect(quiet.status == 0 && quiet.stderr == "")
    }

    // check's summary line counts pages, errors and warnings, with singular forms.
    @Test func checkSummary() {
        let one = run(["check", "-"], stdin: Array("x</font>y".utf8))
        #expect(one.stderr.hasSuffix("\n<stdin>: 1 page, 0 errors, 1 warning\n"))
        let clean = run(["check", "-"], stdin: Array("fine".utf8))
        #expect(clean.stderr == "<stdin>: 1 page, 0 errors, 0 warnings\n")
        let article = run(["check", repoPath("samples/article.txt")])
        #expect(article.stderr.hasSuffix("\(repoPath("samples/article.txt")): 5 pages, 0 errors, 4 warnings\n"))
    }

    // preview of a page past the end says how many pages there are (singular and plural).
    @Test func previewPastTheEnd() {
        let dir = TemporaryDirectory("cli")
        let one = run(["preview", "-", "--page", "99", "-o", dir.file("p.png")], stdin: Array("x".utf8))
        #expect(one.status == 1 && one.stderr == "galley: error: page 99 does not exist: the document has 1 page\n")
        let five = run(["preview", repoPath("samples/article.txt"), "-q", "-p", "6", "-o", dir.file("p.png")])
        #expect(five.status == 1 && five.stderr == "galley: error: page 6 does not exist: the document has 5 pages\n")
        #expect(dir.contents.isEmpty)
    }
}
