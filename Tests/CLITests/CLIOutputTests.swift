import CZlib
import Foundation
import TestSupport
import Testing

// MARK: - inspect

/// The JSON report of `args` parsed, or nil.
private func inspectJSON(_ args: [String], stdin: [UInt8] = []) -> [String: Any]? {
    let r = run(["inspect", "--json"] + args, stdin: stdin)
    return try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
}

@Suite struct InspectTests {
    // An input that does not load gives its diagnostics as JSON too, as `check --json` does:
    // a script reading standard output got nothing.
    @Test func aFailedInspectGivesJSON() throws {
        let r = run(["inspect", "-", "--json"], stdin: Array("<font size=\"x\">a</font>\n".utf8))
        #expect(r.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(r.output)")
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1 && diagnostics[0]["severity"] as? String == "error", "\(diagnostics)")
    }

    // The text report of a small input, exactly (its four lines balanced over the two columns).
    @Test func textReport() {
        let r = run(["inspect", "-"], stdin: Array("Hello <font color=\"red\">world</font>\nSecond para\n\nfour".utf8))
        #expect(r.status == 0 && r.stderr == "")
        assertDump(
            r.output,
            #"""
            <stdin>: 1 page, template magazine, 29 characters, 4 paragraphs
            page 1: characters 0..<29
              column 1: characters 0..<24 from 1:1, 2 lines
              column 2: characters 24..<29 from 3:1, 2 lines
            everything fits
            """#)
    }

    // An element across the columns is reported as such, in text and JSON; the template key
    // reaches every <h1> from the command line.
    @Test func spanningElement() {
        let input = Array("<h1>Head</h1>\nBody.\n".utf8)
        let r = run(["inspect", "-", "--set", "headings.h1.span=all"], stdin: input)
        #expect(r.output.contains("\n  across the columns: characters 0..<5 from 1:5, 1 line\n  column 1: characters 5..<10"))
        let json = run(["inspect", "-", "--json", "--set", "headings.h1.span=all"], stdin: input)
        #expect(json.output.components(separatedBy: "\"spans\" : true").count == 2)
        let bad = run(["check", "-"], stdin: Array("<p span=\"al\">x</p>\n".utf8))
        #expect(bad.status != 0 && bad.stderr.contains("<stdin>:1:10: error: unknown span 'al'; did you mean 'all'?"))
    }

    // One paragraph is "1 paragraph", as pages are counted.
    @Test func singularParagraph() {
        let r = run(["inspect", "-"], stdin: Array("x".utf8))
        #expect(r.output.hasPrefix("<stdin>: 1 page, template magazine, 1 character, 1 paragraph\n"))
    }

    // Text that does not fit is listed with its place and excess.
    @Test func didNotFit() {
        let r = run(["inspect", "-", "--set", "page.size=A6", "-q"], stdin: Array("<font size=\"300\">Big</font>".utf8))
        #expect(r.status == 0)
        #expect(
            r.output.hasSuffix(
                """
                did not fit:
                  page 1 column 1 (1:18): 118.3 pt over: B
                  page 1 column 2 (1:19): 25.5 pt over: i
                  page 2 column 1 (1:20): 90.4 pt over: g

                """))
    }

    // JSON: pages and columns whose character ranges partition 0..<characters, with line:col sources.
    @Test(arguments: ["article.txt", "chinese.txt", "long.txt"]) func jsonPartitions(name: String) throws {
        let json = try #require(inspectJSON([repoPath("samples/" + name), "-q"]))
        let characters = try #require(json["characters"] as? Int)
        let pages = try #require(json["pages"] as? [[String: Any]])
        #expect(!pages.isEmpty)
        var next = 0
        for (i, page) in pages.enumerated() {
            #expect(page["number"] as? Int == i + 1)
            #expect(page["start"] as? Int == next)
            let columns = try #require(page["columns"] as? [[String: Any]])
            #expect(columns.count == 2)
            for (c, column) in columns.enumerated() {
                #expect(column["column"] as? Int == c + 1)
                let start = try #require(column["start"] as? Int)
                let end = try #require(column["end"] as? Int)
                #expect(start == next, "page \(i + 1) column \(c + 1) of \(name)")
                #expect(end >= start)
                if end > start {
                    let source = try #require(column["source"] as? String)
                    #expect(source.wholeMatch(of: /[1-9][0-9]*:[1-9][0-9]*/) != nil, "\(source)")
                } else {
                    #expect(column["source"] == nil)
                }
                next = end
            }
            #expect(page["end"] as? Int == next)
        }
        #expect(next == characters)
        #expect((json["file"] as? String) == repoPath("samples/" + name))
        #expect((json["template"] as? String) == "magazine")
    }

    // JSON: page size, column geometry and the article's images with their sizes.
    @Test func jsonGeometry() throws {
        let json = try #require(inspectJSON([repoPath("samples/article.txt"), "-q"]))
        let pages = try #require(json["pages"] as? [[String: Any]])
        #expect(pages[0]["width"] as? Double == 595.3 && pages[0]["height"] as? Double == 841.9)
        let columns = pages.flatMap { $0["columns"] as? [[String: Any]] ?? [] }
        #expect(columns[0]["x"] as? Double == 42.5 && columns[0]["width"] as? Double == 246.6)
        let images = columns.flatMap { $0["images"] as? [[String: Any]] ?? [] }
        #expect(
            images.compactMap { $0["src"] as? String } == ["images/harbour.jpg", "images/chart.png", "images/badge.png", "images/tall.png"])
        #expect(images.compactMap { $0["shrunk"] as? Bool } == [false, false, false, true])
    }

    // JSON: diagnostics carry severity, message and place.
    @Test func jsonDiagnostics() throws {
        let json = try #require(inspectJSON(["-"], stdin: Array("a\nx</font>".utf8)))
        let d = try #require((json["diagnostics"] as? [[String: Any]])?.first)
        #expect(d["severity"] as? String == "warning")
        #expect(d["message"] as? String == "</font> without a matching <font>; it is ignored")
        #expect(d["file"] as? String == "<stdin>" && d["line"] as? Int == 2 && d["column"] as? Int == 2)
    }
}

// MARK: - templates, --template, --set

@Suite struct TemplateOptionTests {
    // templates lists the built-ins, names aligned.
    @Test func list() {
        let r = run(["templates"])
        #expect(r.status == 0)
        assertDump(
            r.output,
            #"""
            magazine     A4, two columns, DejaVu Serif 10/12, justified
            letter       US Letter, two columns, DejaVu Serif 10/12, justified
            tabloid      11x17 in, three columns, DejaVu Serif 9.5/11.5, justified
            pocket       A5, one column, DejaVu Serif 9.5/12, justified
            tablet       768x1024 pt iPad page, two columns, Helvetica 14/18, justified, no footer
            magazine-zh  magazine for Chinese: zh-Hans, first lines indented 2 em, no paragraph spacing
            """#)
    }

    // --show magazine prints exactly templates/magazine.json.
    @Test func showMagazine() throws {
        let r = run(["templates", "--show", "magazine"])
        #expect(r.status == 0)
        #expect(r.output == (try String(contentsOfFile: repoPath("templates/magazine.json"), encoding: .utf8)))
    }

    // --show output read back as a template file shows the same again (lengths may be written shorter: 18, not "0.25in").
    @Test(arguments: ["magazine", "letter", "tabloid", "pocket", "tablet", "magazine-zh"]) func showRoundTrips(name: String) {
        let shown = run(["templates", "--show", name])
        let dir = inputFolder(shown.output, name: "\(name).json")
        let again = run(["templates", "--show", dir.file("\(name).json")])
        #expect(again.status == 0 && again.output == shown.output)
        #expect(shown.output.hasPrefix("{\n  \"name\": \"\(name)\",\n"))
    }

    // A template extending one in the folder above it (the README's "../house.json") is shown
    // with --root, as a build reads it; `templates` took no --root, so it could not be shown.
    @Test func showWithRoot() {
        let d = TemporaryDirectory("templates-root")
        d.write("house.json", #"{"extends": "pocket", "columns": 2}"#)
        let child = d.write("issue/up.json", #"{"extends": "../house.json", "gutter": 20}"#)
        #expect(run(["templates", child]).status == 1)
        let r = run(["templates", child, "--root", d.path])
        #expect(r.status == 0 && r.output.contains("\"columns\": 2,\n") && r.output.contains("\"gutter\": 20"), "\(r.stderr)")
    }

    // --show of a file that extends a built-in prints it resolved.
    @Test func showFileResolved() {
        let dir = inputFolder(#"{"extends": "pocket", "columns": 2}"#, name: "t.json")
        let r = run(["templates", "--show", dir.file("t.json")])
        #expect(r.status == 0)
        #expect(r.output.contains(#""page": {"size": "A5", "orientation": "portrait", "color": "white"},"#))
        #expect(r.output.contains("\"columns\": 2,\n"))
    }

    // --show of an unknown name suggests, exit 1.
    @Test func showUnknown() {
        let r = run(["templates", "--show", "pockt"])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "galley: error: unknown template 'pockt'; did you mean 'pocket'? (built-in: magazine, letter, tabloid, pocket, tablet, magazine-zh)\n"
        )
    }

    // --template with a missing file.
    @Test func templateMissingFile() {
        let dir = TemporaryDirectory("cli")
        let path = dir.file("nope.json")
        let r = run(["check", "-", "--template", path], stdin: Array("x".utf8))
        #expect(r.status == 1)
        #expect(r.stderr == "\(path): error: cannot read template '\(path)': No such file or directory\n")
    }

    // --template with a bad value names the key at its place in the file.
    @Test func templateBadValue() {
        let dir = inputFolder("{\n  \"columns\": 2,\n  \"gutter\": \"wide\"\n}\n", name: "t.json")
        let r = run(["check", "-", "-t", dir.file("t.json")], stdin: Array("x".utf8))
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("\(dir.file("t.json")):3:13: error: key 'gutter': expected a number or length, got \"wide\"\n"))
    }

    // A template file's located error shows its source line and caret, like input errors do.
    @Test func templateErrorShowsLine() {
        let dir = inputFolder("{\n  \"columns\": 2,\n  \"gutter\": \"wide\"\n}\n", name: "t.json")
        let r = run(["check", "-", "-t", dir.file("t.json")], stdin: Array("x".utf8))
        #expect(r.stderr.hasSuffix("\n  \"gutter\": \"wide\"\n            ^~~~~~\n"))
    }

    // An unknown template name suggests the nearest.
    @Test func templateUnknownName() {
        let r = run(["check", "-", "--template", "magazin"], stdin: Array("x".utf8))
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "galley: error: unknown template 'magazin'; did you mean 'magazine'? (built-in: magazine, letter, tabloid, pocket, tablet, magazine-zh)\n"
        )
    }

    // --set errors: a value out of range, and an unknown key with a suggestion.
    @Test func setErrors() {
        let bad = run(["check", "-", "--set", "columns=0"], stdin: Array("x".utf8))
        #expect(bad.status == 2 && bad.stderr.hasPrefix("galley check: error: --set columns=0: expected a whole number from 1 to 12\nUsage: "))
        let typo = run(["check", "-", "--set", "colums=2"], stdin: Array("x".utf8))
        #expect(typo.status == 2 && typo.stderr.hasPrefix("galley check: error: --set colums=2: unknown key 'colums'; did you mean 'columns'?\n"))
    }

    // --set takes effect: three columns in inspect.
    @Test func setApplies() throws {
        let json = try #require(inspectJSON(["-", "--set", "columns=3", "--set", "page.size=letter"], stdin: Array("x".utf8)))
        let page = try #require((json["pages"] as? [[String: Any]])?.first)
        #expect((page["columns"] as? [Any])?.count == 3)
        #expect(page["width"] as? Double == 612)
    }

    // --paragraphs blank-line joins hard-wrapped lines.
    @Test func paragraphsOption() throws {
        let json = try #require(inspectJSON(["-", "--paragraphs", "blank-line"], stdin: Array("a\nb\n\nc".utf8)))
        #expect(json["paragraphs"] as? Int == 2 && json["characters"] as? Int == 5)
    }
}

// MARK: - Standard input and output

@Suite struct StreamTests {
    // `-` reads standard input; with no -o a build writes the PDF to standard output.
    @Test func stdinToStdout() {
        let r = run(["build", "-"], stdin: Array("Hello from stdin".utf8))
        #expect(r.status == 0 && r.stderr == "")
        #expect(r.stdout.starts(with: Array("%PDF-".utf8)))
        #expect(String(decoding: r.stdout.suffix(6), as: UTF8.self).contains("%%EOF"))
    }

    // -o - writes a file input's PDF to standard output, and no file beside the input.
    @Test func fileToStdout() {
        let dir = inputFolder("Hello")
        let r = run(["build", dir.file("t.txt"), "-o", "-"])
        #expect(r.status == 0 && r.stdout.starts(with: Array("%PDF".utf8)))
        #expect(dir.contents == ["t.txt"])
    }

    // preview to standard output is a PNG of the page at the asked resolution.
    @Test func previewToStdout() throws {
        let r = run(["preview", "-", "-o", "-", "--dpi", "36"], stdin: Array("Hello".utf8))
        #expect(r.status == 0)
        let png = try PNGPixels(data: r.stdout)
        #expect(png.width == 298 && png.height == 421)
    }

    // A preview's rows are compressed by igzip into one IDAT chunk (zlib through libpng, the
    // fallback, writes a chunk every 8 KiB): the chunks are IHDR, pHYs at the asked resolution,
    // one IDAT and IEND, each with its CRC, and the pixels decode, grey and in colour.
    @Test func previewChunks() throws {
        let text = (1...40).map { "Paragraph \($0): the press runs at night; the <font color=\"red\">ink</font> dries by day." }
        let coloured = text.joined(separator: "\n")
        // PNG colour types: 0 grey, 2 RGB.
        for (input, colour) in [(coloured.replacingOccurrences(of: " color=\"red\"", with: ""), 0), (coloured, 2)] {
            let r = run(["preview", "-", "-o", "-", "--dpi", "144"], stdin: Array(input.utf8))
            try #require(r.status == 0, "\(r.stderr)")
            var chunks: [String] = []
            var at = 8
            let bytes = [UInt8](r.stdout)
            func word(_ i: Int) -> UInt32 { bytes[i..<i + 4].reduce(0) { $0 << 8 | UInt32($1) } }
            while at + 12 <= bytes.count {
                let length = Int(word(at))
                let body = Array(bytes[(at + 4)..<(at + 8 + length)])
                #expect(crc32(0, body, uInt(body.count)) == uLong(word(at + 8 + length)))
                chunks.append(String(decoding: body.prefix(4), as: UTF8.self))
                if chunks.last == "pHYs" { #expect(word(at + 8) == UInt32((144 / 0.0254).rounded())) }
                if chunks.last == "IHDR" { #expect(Int(bytes[at + 17]) == colour) }
                at += 12 + length
            }
            #expect(chunks == ["IHDR", "pHYs", "IDAT", "IEND"] && at == bytes.count)
            let png = try PNGPixels(data: r.stdout)
            #expect(png.width == 1191 && png.height == 1684)
        }
    }

    // Default output names: INPUT.pdf, INPUT-pN.png, next to the input.
    @Test func defaultOutputNames() {
        let dir = inputFolder("Hello", name: "story.txt")
        #expect(run(["build", dir.file("story.txt")]).status == 0)
        #expect(run(["preview", dir.file("story.txt")]).status == 0)
        #expect(dir.contents == ["story-p1.png", "story.pdf", "story.txt"])
    }

    // Images in standard input resolve from the current folder; absolute paths always work.
    @Test func stdinAbsoluteImage() {
        let text = "<img src=\"\(repoPath("samples/images/chart.png"))\">\nx"
        let r = run(["check", "-"], stdin: Array(text.utf8))
        #expect(r.status == 0 && r.stderr == "<stdin>: 1 page, 0 errors, 0 warnings\n")
    }
}

@Suite struct ShortColumnReportTests {
    // inspect --stats lists each column left more than three lines short, with its cause.
    @Test func listed() {
        let body = (1...4).map { "Paragraph \($0) has words." }.joined(separator: "\n")
        let text = body + "\n<h2>A heading here</h2>\n" + String(repeating: "Words after the heading run on. ", count: 12)
        let tiny = ["page.width=300", "margins=20", "gutter=10", "page.height=184", "footer.enabled=false", "balance=false"]
        let r = run(["inspect", "-", "--stats"] + tiny.flatMap { ["--set", $0] }, stdin: Array(text.utf8))
        #expect(r.status == 0)
        #expect(r.output.contains("short columns (more than 3 lines): 3\n  page 1 column 1: 5 lines short: a heading kept with the lines after it\n"))
        let json = run(["inspect", "-", "--stats", "--json"] + tiny.flatMap { ["--set", $0] }, stdin: Array(text.utf8))
        #expect(json.output.contains("\"cause\" : \"a heading kept with the lines after it\""))
    }
}

@Suite struct MeasureStatisticsTests {
    // An issue's figures are those of all its articles together, then measure by measure: the
    // two-column articles and the three-column one apart. One measure gets no lines of its own.
    @Test func issueByMeasure() throws {
        let r = run(["inspect", repoPath("samples/issue/issue.json"), "--root", repoPath("samples"), "--stats", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.output.split(separator: "\n").map(String.init)
        let total = try #require(lines.firstIndex { $0.hasPrefix("justified lines ") })
        let measures = lines[(total + 1)...].prefix { $0.hasPrefix("  in ") }
        #expect(measures.contains { $0.hasPrefix("  in 246.6 pt columns: ") }, "\(measures)")
        #expect(measures.contains { $0.hasPrefix("  in 158.7 pt columns: ") }, "\(measures)")
        // The measures' lines add up to the whole.
        let count = { (s: String) in s.split(separator: " ").lazy.compactMap { Int($0.filter(\.isNumber)) }.first ?? -1 }
        #expect(measures.map { count(String($0.drop { $0 != ":" })) }.reduce(0, +) == count(lines[total]))
        let one = run(["inspect", repoPath("samples/long.txt"), "--stats", "-q"])
        #expect(!one.output.contains("  in "), "a single measure is the whole")
        let json = run(["inspect", repoPath("samples/issue/issue.json"), "--root", repoPath("samples"), "--stats", "--json", "-q"])
        #expect(json.output.contains("\"measures\" : ["))
    }
}

/// The PDF's title: `--title`, else the story's (`<meta title>`, else its first `<h1>`), else
/// the input's name.
@Suite struct PDFTitleTests {
    @Test(arguments: [
        ("<meta title=\"Meta Title\">\n<h1>Head</h1>\nText.\n", [String](), "Meta Title"),
        ("<h1>Head</h1>\nText.\n", [], "Head"),
        ("Text.\n", [], "story"),
        ("<meta title=\"Meta Title\">\nText.\n", ["--title", "Given"], "Given"),
        // Soft hyphens and zero-width spaces are no part of a title; an empty one is none.
        ("<h1>Com\u{AD}posi\u{200B}tors</h1>\nText.\n", [], "Compositors"),
        ("<meta title=\"\">\nText.\n", [], "story"),
    ])
    func title(source: String, extra: [String], expected: String) {
        let d = TemporaryDirectory("title")
        d.write("story.txt", source)
        let r = run(["build", d.file("story.txt"), "-o", d.file("story.pdf"), "-q"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        let info = tool("pdfinfo", [d.file("story.pdf")]).output
        #expect(info.split(separator: "\n").contains { $0.hasPrefix("Title:") && $0.hasSuffix(" " + expected) }, "\(info)")
    }

    // An empty `--title` wrote an empty `/Title` and `dc:title`, which PDF/X-4 does not allow.
    @Test func anEmptyTitleIsRefused() {
        let d = TemporaryDirectory("title")
        d.write("story.txt", "Text.\n")
        let r = run(["build", d.file("story.txt"), "-o", d.file("story.pdf"), "--title", " "])
        #expect(r.status == 2 && r.stderr.contains("--title needs a title, got ' '"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: d.file("story.pdf")))
    }
}
