import Foundation
import TestSupport
import Testing

/// Bad input to a press build: each a clear error, nothing written, the previous output kept
/// and no temporary file (Cairo's draft included) left behind.
@Suite struct PressInputTests {
    static let previous = Data("the previous build\n".utf8)

    /// A folder with an input and a previous output.
    func folder() -> TemporaryDirectory {
        let d = TemporaryDirectory("press-input")
        d.write("in.txt", "The press runs at night.\n")
        d.write("out.pdf", Self.previous)
        return d
    }

    func expectUntouched(_ d: TemporaryDirectory) {
        #expect(d.read("out.pdf") == Self.previous)
        #expect(d.contents.allSatisfy { !$0.hasSuffix(".tmp") }, "\(d.contents)")
    }

    func build(_ d: TemporaryDirectory, _ extra: [String]) -> CLIResult {
        run(["build", d.file("in.txt"), "-o", d.file("out.pdf")] + extra)
    }

    // An output intent that is missing, not ICC, ICC of another space or cut short is a usage
    // error naming the file and what is wrong.
    @Test func badOutputIntents() {
        let d = folder()
        var header = [UInt8](repeating: 0, count: 200)
        header.replaceSubrange(36..<40, with: Array("acsp".utf8))
        header.replaceSubrange(16..<20, with: Array("CMYK".utf8))
        header.replaceSubrange(0..<4, with: [0, 0, 0x10, 0])
        let good = [UInt8](FileManager.default.contents(atPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc") ?? Data())
        var display = good
        display.replaceSubrange(12..<16, with: Array("mntr".utf8))
        let cases: [(String, Data?, String)] = [
            ("missing.icc", nil, "cannot read ICC profile '\(d.file("missing.icc"))': No such file or directory"),
            ("text.icc", Data(String(repeating: "not a profile ", count: 20).utf8), "no 'acsp' signature at byte 36 (not an ICC profile)"),
            ("short.icc", Data("tiny".utf8), "it is 4 bytes, shorter than an ICC header"),
            ("cut.icc", Data(header), "its header says 4096 bytes, the file has 200"),
            ("display.icc", Data(display), "is a 'mntr' profile, not a printer's ('prtr') profile"),
        ]
        for (name, bytes, message) in cases {
            if let bytes { d.write(name, bytes) }
            let r = build(d, ["--press", "--output-intent", d.file(name)])
            #expect(r.status == 2)
            #expect(r.stderr.hasPrefix("galley build: error: --output-intent: "), "\(r.stderr)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            expectUntouched(d)
        }
        // Sound headers over damaged tags: a B2A0 tag pointing past the end of the file, and
        // every conversion tag overwritten (which Little CMS finds).
        var outside = good, garbage = good, untagged = good
        outside.replaceSubrange(184..<188, with: [0, 0, 0xFF, 0xFF])
        untagged.replaceSubrange(128..<132, with: [0, 0, 0, 0])
        for entry in stride(from: 168, to: 240, by: 12) {
            let offset = Int(good[entry + 4]) << 24 | Int(good[entry + 5]) << 16 | Int(good[entry + 6]) << 8 | Int(good[entry + 7])
            let size = Int(good[entry + 8]) << 24 | Int(good[entry + 9]) << 16 | Int(good[entry + 10]) << 8 | Int(good[entry + 11])
            garbage.replaceSubrange(offset..<offset + size, with: repeatElement(0x5A, count: size))
        }
        for (name, bytes, message) in [
            ("outside.icc", outside, "its 'B2A0' tag lies outside the file's data"),
            ("garbage.icc", garbage, "Little CMS cannot convert colours to it"),
            ("untagged.icc", untagged, "it has no tags"),
        ] {
            d.write(name, Data(bytes))
            let r = build(d, ["--press", "--output-intent", d.file(name)])
            #expect(r.status == 2 && r.stderr.contains("is not a usable ICC profile: " + message), "\(r.stderr)")
            expectUntouched(d)
        }
        let rgb = build(d, ["--press", "--output-intent", "/usr/share/color/icc/ghostscript/srgb.icc"])
        #expect(rgb.status == 2 && rgb.stderr.contains("its colour space is RGB, not CMYK"), "\(rgb.stderr)")
        expectUntouched(d)
    }

    // The output intent is an input: -o naming it is refused, and it is kept.
    @Test func outputOverTheProfile() throws {
        let d = folder()
        let profile = try #require(FileManager.default.contents(atPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc"))
        d.write("printer.icc", profile)
        let r = run(["build", d.file("in.txt"), "--press", "--output-intent", d.file("printer.icc"), "-o", d.file("printer.icc")])
        #expect(r.status == 2 && r.stderr.contains("would overwrite the input"), "\(r.stderr)")
        #expect(d.read("printer.icc") == profile)
    }

    // A page the template allows can make a press sheet over PDF's 14,400 pt once bleed and
    // slug are added: an error naming both sizes, for build and preview, and nothing written.
    @Test func sheetTooLarge() {
        let d = folder()
        let size = ["--set", "page.width=14400", "--set", "page.height=600", "--set", "print.bleed=3mm", "--set", "print.slug=10mm"]
        for r in [build(d, ["--press"] + size), run(["preview", d.file("in.txt"), "-o", d.file("out.pdf"), "--press"] + size)] {
            #expect(r.status == 1)
            #expect(
                r.stderr.contains(
                    "error: --press: the sheet would be 14473.8 × 673.8 pt, the page (14400 × 600 pt) with 36.9 pt of bleed"),
                "\(r.stderr)")
            expectUntouched(d)
        }
        // Without --press the page alone is drawn.
        #expect(build(d, size).status == 0)
    }

    // --output-intent without --press is a usage error, for build and preview alike.
    @Test(arguments: ["build", "preview", "watch"]) func intentNeedsPress(command: String) {
        let d = folder()
        let r = run([command, d.file("in.txt"), "-o", d.file("out.pdf"), "--output-intent", "x.icc"])
        #expect(r.status == 2 && r.stderr.hasPrefix("galley \(command): error: --output-intent goes with --press\n"), "\(r.stderr)")
        expectUntouched(d)
    }

    // A bleed below 0 or over 20 mm is a located template error with the source line and a
    // caret under the value.
    @Test(arguments: [
        ("\"-1mm\"", "expected a length of 0 or more, got \"-1mm\""),
        ("\"21mm\"", "expected a bleed of at most 20 mm, got \"21mm\""),
    ])
    func badBleed(value: String, message: String) {
        let d = folder()
        let line = "{\"extends\": \"magazine\", \"print\": {\"bleed\": \(value)}}"
        let t = d.write("t.json", line + "\n")
        let r = build(d, ["--press", "-t", t])
        #expect(r.status == 1)
        let column = line.distance(from: line.startIndex, to: line.range(of: value)!.lowerBound) + 1
        let caret = String(repeating: " ", count: column - 1) + "^" + String(repeating: "~", count: value.count - 1)
        #expect(r.stderr.hasPrefix("\(t):1:\(column): error: key 'print.bleed': \(message)\n"), "\(r.stderr)")
        #expect(r.stderr.contains(line) && r.stderr.contains(caret), "\(r.stderr)")
        expectUntouched(d)
    }

    // Marks need room: a slug under 5 mm with marks is an error; with no marks it is fine.
    @Test func slugTooNarrowForMarks() {
        let d = folder()
        let t = d.write("t.json", "{\"extends\": \"magazine\", \"print\": {\"slug\": \"2mm\"}}\n")
        let r = build(d, ["--press", "-t", t])
        #expect(r.status == 1 && r.stderr.contains("print.slug must be at least 5 mm to hold marks"), "\(r.stderr)")
        expectUntouched(d)
        let none = d.write("none.json", "{\"extends\": \"magazine\", \"print\": {\"slug\": 0, \"marks\": []}}\n")
        #expect(build(d, ["--press", "-t", none, "-q"]).status == 0)
    }

    // An unknown mark is named, with a suggestion (a --set value: a usage error).
    @Test func unknownMark() {
        let d = folder()
        let r = build(d, ["--press", "--set", "print.marks=crop,registraton"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown mark 'registraton'; did you mean 'registration'?"), "\(r.stderr)")
        expectUntouched(d)
    }

    // libqpdf is opened by the post-pass, not linked: every other command runs without the
    // 4 to 6 MiB it and its C++ and crypto libraries map.
    @Test func libqpdfIsNotLinked() {
        let r = tool("readelf", ["-d", galleyExecutable])
        #expect(r.status == 0 && r.output.contains("NEEDED") && !r.output.contains("libqpdf"))
    }
}
