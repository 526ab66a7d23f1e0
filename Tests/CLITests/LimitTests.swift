import Foundation
import TestSupport
import Testing

/// Inputs that used to crash galley (a trap, a stack overflow) get a located error instead, and
/// leave nothing behind.
@Suite struct LimitTests {
    /// A PNG's signature, header and end chunks for a `width`×`height` greyscale image: all that
    /// the story builder reads of an image (its pixels are decoded only when drawn).
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ihdr = Array("IHDR".utf8) + be(width) + be(height) + [8, 0, 0, 0, 0]
        let end = be(0) + Array("IEND".utf8) + be(0)
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + ihdr + be(0) + end)
    }

    // An image wider than Cairo's 32767 pixels is an error at its tag, in the text and in a pack.
    @Test func imageWiderThanCairo() {
        let d = TemporaryDirectory("limits")
        d.write("wide.png", Self.pngHeader(width: 40000, height: 1))
        let input = d.write("in.txt", "<img src=\"wide.png\">\n")
        let r = run(["build", input, "-o", d.file("out.pdf")])
        #expect(r.status == 1)
        #expect(
            r.stderr.hasPrefix(
                "\(input):1:11: error: cannot use image 'wide.png': it is 40000×1 pixels, and images can be at most 32767 pixels on a side\n"))
        #expect(d.contents == ["in.txt", "wide.png"])

        d.write("pack/wide.png", Self.pngHeader(width: 1, height: 40000))
        d.write("pack/pack.json", #"{"name": "p", "emoticons": {"[w]": "wide.png"}}"#)
        let r2 = run(["build", input, "--emoticons", d.file("pack"), "-o", d.file("out.pdf")])
        #expect(r2.status == 1)
        #expect(r2.stderr.contains("[w] points to 'wide.png', which cannot be used: it is 1×40000 pixels"))
    }

    // More pixels than the limit is an error; the limit can be raised from the CLI or a template.
    @Test func imagePixelLimit() {
        let d = TemporaryDirectory("limits")
        d.write("big.png", Self.pngHeader(width: 11000, height: 10000))
        let input = d.write("in.txt", "<img src=\"big.png\">\n")
        let r = run(["check", input])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains(
                "error: cannot use image 'big.png': it has 11000×10000 pixels (110 megapixels), more than the limit of 100 megapixels;"
                    + " raise it with --max-image-pixels or the template's maxImagePixels"))
        // Raised, the limit is no longer said (a header alone then fails to decode, as a build
        // would find drawing it).
        for raised in [["--max-image-pixels", "120000000"], ["--set", "maxImagePixels=120000000"]] {
            let r = run(["check", input] + raised)
            #expect(!r.stderr.contains("more than the limit") && r.stderr.contains("cannot decode image 'big.png'"), "\(r.stderr)")
        }
        #expect(run(["check", input, "--max-image-pixels", "1e9"]).status == 2)
        // A limit under a tenth of a megapixel is said in pixels.
        let low = run(["check", input, "--max-image-pixels", "1"])
        #expect(low.stderr.contains("(110 megapixels), more than the limit of 1 pixel;"), "\(low.stderr)")
    }

    // Template sizes far beyond any page (they trapped converting to Pango's integers) are
    // located errors naming the key.
    @Test(arguments: ["footer.size", "caption.size", "headings.h1.size", "caption.gap", "body.size", "margins.left"])
    func hugeTemplateLengths(key: String) {
        let r = run(["check", "-", "--set", "\(key)=1e9"], stdin: Array("x".utf8))
        #expect(r.status == 2)
        #expect(
            r.stderr.hasPrefix(
                "galley check: error: --set \(key)=1e9: expected a length of at most 14400 pt (200 in, the largest page PDF readers open)\n"))
    }

    // The largest lengths allowed lay out without a trap (a leading taller than the text area
    // is a usage error, as a page with no room for a line).
    @Test(arguments: ["footer.size", "caption.size", "headings.h1.size", "caption.gap", "body.leading"])
    func largestTemplateLengths(key: String) {
        let r = run(["check", "-", "--set", "\(key)=14400", "-q"], stdin: Array("<h1>T</h1>x <img src=\"/no\">".utf8))
        #expect(r.status <= (key == "body.leading" ? 2 : 1))
    }

    // A chain of hundreds of `extends` stops at 32 files with a located error, not a stack overflow.
    @Test func longExtendsChain() {
        let d = TemporaryDirectory("limits")
        for i in 1...300 { d.write("t\(i).json", "{\"extends\": \"t\(i + 1).json\"}") }
        d.write("t301.json", "{}")
        let r = run(["check", "-", "-t", d.file("t1.json")], stdin: Array("x".utf8))
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("\(d.file("t32.json")):1:13: error: key 'extends': templates extend each other more than 32 deep; shorten the chain\n"))
        // 32 files are fine.
        d.write("t32.json", "{}")
        #expect(run(["check", "-", "-t", d.file("t1.json"), "-q"], stdin: Array("x".utf8)).status == 0)
    }
}

/// Diagnostics read in source order, whichever stage found them.
@Suite struct DiagnosticOrderTests {
    // The builder's error at 1:13 comes before the parser's warning at 1:33 and the builder's
    // at 2:7, though they were found in another order.
    @Test func sortedByLineAndColumn() {
        let text = "<font size=\"x\">a</font> <span nosuch=\"1\">b</span>\n<font color=\"gren\">c</font>"
        let r = run(["check", "-"], stdin: Array(text.utf8))
        let places = r.stderr.split(separator: "\n").filter { $0.hasPrefix("<stdin>:") }.map { $0.split(separator: ":")[1...2].joined(separator: ":") }
        #expect(places == ["1:13", "1:31", "2:14"], "\(r.stderr)")
    }
}

/// Type far too large for its column sets a letter a line: each line was said twice, twenty
/// warnings for a short sentence. A run of such lines in a paragraph is said once.
@Suite struct OversizeTypeTests {
    @Test func saidOncePerRun() {
        let r = run(["check", "-"], stdin: Array("<font size=\"2000\">Size 2000.\n".utf8))
        let said = r.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(said.filter { $0.contains("cannot be broken to fit") }.count == 1, "\(r.stderr)")
        #expect(said.filter { $0.contains("does not fit a column") }.count == 1, "\(r.stderr)")
    }
}

/// Link targets that could run code or open a reader's files are not written into a PDF.
@Suite struct LinkSchemeTests {
    /// The URIs of a PDF's link annotations.
    func uris(_ pdf: String) -> [String] {
        let raw = String(decoding: FileManager.default.contents(atPath: pdf) ?? Data(), as: UTF8.self)
        return raw.matches(of: /\/URI \(([^)]*)\)/).map { String($0.1) }
    }

    // javascript: and other schemes get a located warning and no annotation; the web, mail,
    // telephone and relative links are written; file: only with --allow-file-links.
    @Test func schemes() {
        let dir = TemporaryDirectory("links")
        let input = dir.write(
            "t.txt",
            #"<a href="JavaScript:alert(1)">x</a> <a href="https://x.org">w</a> <a href="mailto:a@b.c">m</a> <a href="file:///etc/passwd">f</a> <a href="data:text/html,hi">d</a>"#
        )
        let r = run(["build", input, "-o", dir.file("t.pdf")])
        #expect(r.status == 0)
        #expect(
            r.stderr.contains(
                "t.txt:1:10: warning: 'javascript:' links are not written into the PDF (only http, https, mailto, tel and relative ones)\n"))
        #expect(r.stderr.contains("'file:' links are not written into the PDF (only http, https, mailto, tel and relative ones); allow them with --allow-file-links"))
        #expect(r.stderr.contains("'data:' links are not written"))
        #expect(uris(dir.file("t.pdf")).sorted() == ["https://x.org", "mailto:a@b.c"])
        let allowed = run(["build", input, "-o", dir.file("f.pdf"), "--allow-file-links", "-q"])
        #expect(allowed.status == 0)
        #expect(uris(dir.file("f.pdf")).contains("file:///etc/passwd"))
    }
}

/// Inputs are regular files (or standard input), read with a bound and never waited on.
@Suite struct InputKindTests {
    // A FIFO with no writer, /dev/zero and /dev/null as the input or the template: a clear
    // message at once, no blocking, no unbounded read.
    @Test func fifoAndDevices() {
        let d = TemporaryDirectory("inputs")
        let fifo = d.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let body = d.write("t.txt", "x")
        let cases: [([String], String)] = [
            (["check", fifo], "galley: error: cannot read '\(fifo)': it is a FIFO (a named pipe), not a regular file; pipe it to standard input with -\n"),
            (["check", "/dev/zero"], "galley: error: cannot read '/dev/zero': it is a device, not a regular file\n"),
            (["check", "/dev/null"], "galley: error: cannot read '/dev/null': it is a device, not a regular file\n"),
            (["check", body, "-t", "/dev/zero"], "/dev/zero: error: cannot read template '/dev/zero': it is a device, not a regular file\n"),
            // Only the document can come from standard input: a template is not told to.
            (["check", body, "-t", fifo], "\(fifo): error: cannot read template '\(fifo)': it is a FIFO (a named pipe), not a regular file\n"),
        ]
        for (args, message) in cases {
            let r = run(args)
            #expect(r.status == 1 && r.stderr == message, "\(args): \(r.stderr)")
        }
    }

    // A template over 1 MB is refused, whatever it holds.
    @Test func oversizedTemplate() {
        let d = TemporaryDirectory("inputs")
        let big = d.write("big.json", "{" + String(repeating: " ", count: 1 << 20) + "}")
        let r = run(["check", "-", "-t", big], stdin: Array("x".utf8))
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot read template '\(big)': it is larger than 1 MB, the most Galley reads of such a file"))
    }
}

/// Invalid UTF-8 is reported with its line and a caret under the bad byte.
@Suite struct InvalidUTF8Tests {
    @Test func caretUnderTheByte() {
        let r = run(["check", "-"], stdin: Array("Hello\nab".utf8) + [0xFF, 0xFE] + Array("cd\n".utf8))
        #expect(r.status == 1)
        #expect(r.stderr == "<stdin>:2:3: error: invalid UTF-8: byte 0xFF at byte offset 8\nab\u{FFFD}\u{FFFD}cd\n  ^\n")
    }
}
