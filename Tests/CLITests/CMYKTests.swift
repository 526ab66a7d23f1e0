import CLCMS
import Foundation
import TestSupport
import Testing

/// `--press --cmyk`: Ghostscript's conversion to the output intent, read back with Ghostscript's
/// `inkcov` device (each page's coverage per ink), qpdf and pdfinfo.
@Suite struct CMYKTests {
    /// A small page with no marks, so that `inkcov` sees the page's own ink alone (the marks are
    /// in the registration colour, every ink).
    static let template = """
        {"extends": "magazine", "page": {"width": "100mm", "height": "80mm"}, "columns": 1,
         "footer": {"enabled": false}, "print": {"marks": []}}
        """

    func folder(_ text: String) -> TemporaryDirectory {
        let d = TemporaryDirectory("cmyk")
        d.write("t.json", Self.template)
        d.write("in.txt", text)
        return d
    }

    func build(_ d: TemporaryDirectory, _ extra: [String] = []) -> CLIResult {
        run(["build", d.file("in.txt"), "-t", d.file("t.json"), "--press", "--cmyk", "-o", d.file("out.pdf")] + extra)
    }

    // Ghostscript failing: its last lines on the message's one line (its newlines were shown
    // as `\x0a`), and the previous PDF kept.
    @Test func ghostscriptFailing() throws {
        let d = folder("The press runs at night.\n")
        d.write("out.pdf", "previous")
        d.write("bin/gs", "#!/bin/sh\necho 'GPL Ghostscript: Unrecoverable error' >&2\necho '  line two' >&2\nexit 1\n")
        chmod(d.file("bin/gs"), 0o755)
        let path = d.file("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        let argv = ["build", d.file("in.txt"), "-t", d.file("t.json"), "--press", "--cmyk", "-o", d.file("out.pdf")]
        let r = tool("env", ["PATH=" + path, galleyExecutable] + argv)
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("Ghostscript's CMYK conversion failed (status 1): GPL Ghostscript: Unrecoverable error; line two\n"),
            "\(r.stderr)")
        #expect(!r.stderr.contains("\\x0a") && d.read("out.pdf") == Data("previous".utf8))
    }

    // The RGB and CMYK files of one drawing are one document in two instances: their XMP's
    // DocumentID is one, their InstanceIDs two (they were one and the same).
    @Test func renditionsAreInstances() throws {
        let d = folder("The press runs at night.\n")
        try #require(build(d).status == 0)
        let rgb = run(["build", d.file("in.txt"), "-t", d.file("t.json"), "--press", "-o", d.file("rgb.pdf")])
        try #require(rgb.status == 0)
        func ids(_ pdf: String) -> [String] {
            let meta = tool("pdfinfo", ["-meta", d.file(pdf)]).output
            return ["DocumentID", "InstanceID"].map { key in
                meta.firstRange(of: "<xmpMM:\(key)>").map { String(meta[$0.upperBound...].prefix(41)) } ?? ""
            }
        }
        let (a, b) = (ids("out.pdf"), ids("rgb.pdf"))
        #expect(!a[0].isEmpty && a[0] == b[0] && a[1] != b[1], "\(a) \(b)")
    }

    /// Each page's coverage of C, M, Y and K (0–1), from Ghostscript's `inkcov` device.
    func inkCoverage(_ pdf: String) throws -> [[Double]] {
        let r = tool("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=inkcov", "-o", "-", pdf])
        try #require(r.status == 0, "\(r.stderr)")
        return r.output.split(separator: "\n").map { line in line.split(separator: " ").prefix(4).compactMap { Double($0) } }
    }

    // Black and grey text come out on the K plate alone, with no C, M or Y under them; red
    // text, the control, takes magenta and yellow.
    @Test func blackAndGreyTextOnBlackInkAlone() throws {
        let d = folder("The press runs at night and the ink is black.\n<font color=\"#777777\">Grey notes in the margin.</font>\n")
        let r = build(d, ["-q"])
        try #require(r.status == 0, "\(r.stderr)")
        let pages = try inkCoverage(d.file("out.pdf"))
        try #require(pages.count == 1 && pages[0].count == 4, "\(pages)")
        #expect(pages[0][0] == 0 && pages[0][1] == 0 && pages[0][2] == 0, "\(pages)")
        #expect(pages[0][3] > 0.001, "\(pages)")

        // On a page with transparency (a shadow), blended in CMYK: still no C, M or Y.
        let shadowed = folder("<span shadow=\"1 1 2 gray\">Shadowed.</span> The press runs at night and the ink is black.\n")
        try #require(build(shadowed, ["-q"]).status == 0)
        let blended = try inkCoverage(shadowed.file("out.pdf"))[0]
        #expect(blended[0] == 0 && blended[1] == 0 && blended[2] == 0 && blended[3] > 0.001, "\(blended)")

        let red = folder("<font color=\"#cc1100\">Red headline text set large.</font>\n")
        try #require(build(red, ["-q"]).status == 0)
        let inks = try inkCoverage(red.file("out.pdf"))[0]
        #expect(inks[1] > 0.001 && inks[2] > 0.001, "\(inks)")
    }

    // RGB images are separated for the output intent, as text and drawings are, not for
    // default_cmyk.icc, the profile Ghostscript's pdfwrite (before 10.03) puts in place of
    // -sOutputICCProfile. The heavy profile prints every colour as C = M = Y = K, so a dark
    // photo is four equal inks near 100 %; default_cmyk.icc would make it 74/73/60/84 %.
    @Test func imagesSeparatedForTheOutputIntent() throws {
        // Dark but not grey: Cairo writes a grey image as DeviceGray, which stays on black ink.
        let d = folder("<img src=\"dark.png\" width=\"120\" height=\"80\">\n")
        try PreflightTests.png(width: 60, height: 40, rgb: [8, 0, 16]).write(to: URL(fileURLWithPath: d.file("dark.png")))
        let heavy = d.file("heavy.icc")
        try HeavyInkProfile.bytes().write(to: URL(fileURLWithPath: heavy))
        let r = build(d, ["--output-intent", heavy])
        try #require(r.status == 0, "\(r.stderr)")
        let pdf = d.file("out.pdf")
        // pdfimages -list: two lines of heading, then an image a line, its colour space the
        // sixth field and its object number the eleventh.
        let images = tool("pdfimages", ["-list", pdf]).output.split(separator: "\n").dropFirst(2)
        let fields = try #require(images.first?.split(separator: " "), "no image")
        try #require(images.count == 1 && fields.count > 10 && fields[5] == "cmyk", "\(images)")
        let pixels = [UInt8](tool("qpdf", [pdf, "--show-object=\(fields[10])", "--filtered-stream-data"]).stdout)
        try #require(pixels.count == 60 * 40 * 4, "\(pixels.count) bytes")
        let inks = stride(from: 0, to: pixels.count, by: 4).map { Array(pixels[$0..<$0 + 4]) }
        let off = inks.filter { $0.min()! < 240 || $0.max()! - $0.min()! > 2 }
        #expect(off.isEmpty, "\(off.count) of \(inks.count) pixels are not four equal inks near 100 %, e.g. CMYK \(off.first ?? [])")
    }

    // SIGTERM while Ghostscript converts: Ghostscript is stopped with the build (not left running
    // into files already removed), and neither leaves a file behind, in the output's folder or
    // in TMPDIR, where Ghostscript keeps its scratch files.
    @Test func terminatedDuringTheConversion() throws {
        let d = folder(String(repeating: "The press runs at night and the ink is black, line after line. ", count: 1500) + "\n")
        d.write("tmp/.keep", "")
        let galley = Process()
        galley.executableURL = URL(fileURLWithPath: galleyExecutable)
        galley.arguments = ["build", "in.txt", "-t", "t.json", "--press", "--cmyk", "-o", "out.pdf", "-q"]
        galley.currentDirectoryURL = URL(fileURLWithPath: d.path)
        galley.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": d.file("tmp")]) { $1 }
        galley.standardError = FileHandle.nullDevice
        // The test runner's threads block SIGTERM, and a spawned process starts with its
        // spawner's mask: unblocked here, as a shell leaves it.
        var term = sigset_t()
        var mask = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &term, &mask)
        defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }
        try galley.run()
        var gs: pid_t?
        let end = Date().addingTimeInterval(60)
        while gs == nil, galley.isRunning, Date() < end {
            gs = Self.children(of: galley.processIdentifier).first
            Thread.sleep(forTimeInterval: 0.01)
        }
        let child = try #require(gs, "Ghostscript was never seen running")
        kill(galley.processIdentifier, SIGTERM)
        galley.waitUntilExit()
        #expect(galley.terminationReason == .uncaughtSignal)
        // Ended and reaped by the build: no such process any more.
        #expect(kill(child, 0) != 0 && errno == ESRCH, "Ghostscript \(child) still runs")
        let left = try FileManager.default.contentsOfDirectory(atPath: d.path).sorted()
        #expect(left == ["in.txt", "t.json", "tmp"], "\(left)")
        let scratch = try FileManager.default.contentsOfDirectory(atPath: d.file("tmp"))
        #expect(scratch == [".keep"], "\(scratch)")
    }

    /// The processes whose parent is `pid`, from /proc.
    static func children(of pid: Int32) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> pid_t? in
            guard let child = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // "pid (comm) state ppid ...": the fields after the name's closing bracket.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    // Ghostscript's rewrite keeps what the post-pass adds after it: the boxes, the output
    // intent, the XMP declaring PDF/X-4, qpdf finds nothing wrong, no RGB is left, and two
    // builds are the same bytes.
    @Test func printerFileAfterConversion() throws {
        let d = folder("<img src=\"sky.svg\" width=\"100\" height=\"50\">\nThe press runs at night.\n")
        d.write(
            "sky.svg",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"50\"><rect width=\"100\" height=\"50\" fill=\"#3366cc\"/></svg>"
        )
        try #require(build(d, ["-q"]).status == 0)
        let pdf = d.file("out.pdf")
        let first = try #require(d.read("out.pdf"))
        #expect(tool("qpdf", ["--check", pdf]).status == 0)
        let info = tool("pdfinfo", ["-box", pdf]).output
        #expect(info.contains("PDF subtype:    PDF/X-4") && info.contains("TrimBox:") && info.contains("BleedBox:"), "\(info)")
        let plain = tool("qpdf", ["--qdf", "--object-streams=disable", pdf, d.file("plain.pdf")])
        #expect(plain.status == 0)
        let text = String(decoding: try #require(d.read("plain.pdf")), as: UTF8.self)
        #expect(text.contains("/GTS_PDFX") && text.contains("<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>"))
        // RGB is left only as the sRGB profile the post-pass declares (its `/Alternate`).
        #expect(!text.contains(" rg\n") && !text.contains(" RG\n") && !text.contains("/ColorSpace /DeviceRGB"))
        #expect(text.contains(" k\n"), "no CMYK colour")
        try #require(build(d, ["-q"]).status == 0)
        #expect(d.read("out.pdf") == first, "a second build differs")
    }

    // A CMYK JPEG is drawn as RGB and its inks separated again: the preflight says so (the
    // README's "embedded as is" held only for RGB and grey ones).
    @Test func aCMYKPhotoIsSaid() throws {
        let d = folder("<img src=\"cyan.jpg\" width=\"40%\">\n")
        d.write("c.ps", "%!\n1 0 0 0 setcmykcolor 0 0 72 72 rectfill showpage\n")
        let gs = tool(
            "gs",
            [
                "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-dFIXEDMEDIA", "-sDEVICE=jpegcmyk", "-g20x20", "-r20",
                "-sOutputFile=" + d.file("cyan.jpg"), d.file("c.ps"),
            ])
        try #require(gs.status == 0, "\(gs.stderr)")
        let r = run(["check", d.file("in.txt"), "-t", d.file("t.json"), "--preflight"])
        #expect(r.stderr.contains("in.txt:1:1: warning: page 1: image 'cyan.jpg' is CMYK: it is drawn as RGB"), "\(r.stderr)")
        #expect(r.stderr.contains("[image-colour]"), "\(r.stderr)")
    }

    // A PNG's own profile (iCCP) was not looked at: an Adobe RGB PNG was taken as sRGB in
    // silence, where such a JPEG is named. An sRGB one, or none, says nothing.
    @Test func aPNGsOwnProfileIsSaid() throws {
        let d = folder("<img src=\"adobe.png\" width=\"40%\">\n<img src=\"srgb.png\" width=\"40%\">\n")
        func png(profile description: String) -> Data {
            let plain = [UInt8](PreflightTests.png(width: 4, height: 4))
            // A stand-in profile: a header's worth of zeros, then its description.
            let profile = [UInt8](repeating: 0, count: 128) + Array("desc".utf8) + Array(description.utf8)
            let deflated =
                [0x78, 0x01, 1, UInt8(profile.count & 0xFF), UInt8(profile.count >> 8), UInt8(~profile.count & 0xFF),
                 UInt8((~profile.count >> 8) & 0xFF)] + profile + PreflightTests.bigEndian(Inflate.adler32(profile))
            let body = Array("iCCP".utf8) + Array("ICC profile".utf8) + [0, 0] + deflated
            let chunk = PreflightTests.bigEndian(UInt32(body.count - 4)) + body + PreflightTests.bigEndian(PreflightTests.crc32(body))
            return Data(plain[..<33] + chunk + plain[33...])
        }
        d.write("adobe.png", png(profile: "Adobe RGB (1998)"))
        d.write("srgb.png", png(profile: "sRGB IEC61966-2.1"))
        let r = run(["check", d.file("in.txt"), "-t", d.file("t.json"), "--preflight"])
        #expect(r.stderr.contains("image 'adobe.png' has an ICC profile of its own, which is not used"), "\(r.stderr)")
        #expect(!r.stderr.contains("image 'srgb.png' has an ICC profile"), "\(r.stderr)")
    }

    // An image drawn twice on a page: Ghostscript gave its graphics state `/TR /Identity`, a
    // transfer function PDF/X-4 does not allow. The post-pass takes it out.
    @Test func noTransferFunctions() throws {
        let d = folder("<img src=\"sky.png\" width=\"30%\"><img src=\"sky.png\" width=\"30%\">\n")
        d.write("sky.png", try #require(FileManager.default.contents(atPath: repoPath("samples/images/chart.png"))))
        try #require(build(d, ["-q"]).status == 0)
        #expect(tool("qpdf", ["--qdf", "--object-streams=disable", d.file("out.pdf"), d.file("plain.pdf")]).status == 0)
        let text = String(decoding: try #require(d.read("plain.pdf")), as: UTF8.self)
        #expect(text.contains("/ExtGState") && !text.contains("/TR "), "a transfer function is left")
    }

    // Without Ghostscript on PATH, --cmyk is a usage error before any work, naming the
    // package; without --press, and on PNGs, it is refused; nothing is written.
    @Test func refusedWhereItCannotRun() {
        let d = folder("The press runs at night.\n")
        d.write("out.pdf", "the previous build\n")
        let r = run(
            ["build", d.file("in.txt"), "--press", "--cmyk", "-o", d.file("out.pdf")], env: ["PATH": d.file("empty")])
        #expect(r.status == 2 && r.stderr.contains("--cmyk needs Ghostscript ('gs' on PATH), which is not installed"), "\(r.stderr)")
        let alone = run(["build", d.file("in.txt"), "--cmyk", "-o", d.file("out.pdf")])
        #expect(alone.status == 2 && alone.stderr.contains("--cmyk goes with --press"), "\(alone.stderr)")
        let png = run(["watch", d.file("in.txt"), "--press", "--cmyk", "--page", "1", "-o", d.file("p.png")])
        #expect(png.status == 2 && png.stderr.contains("--cmyk converts the PDF; PNGs stay in RGB"), "\(png.stderr)")
        #expect(d.read("out.pdf") == Data("the previous build\n".utf8))
        #expect(d.contents.allSatisfy { !$0.hasSuffix(".tmp") }, "\(d.contents)")
    }

    // Ink over 300 % anywhere is a preflight warning naming the page: a printer's profile
    // that lays all four inks under dark colours triggers it; Ghostscript's SWOP profile,
    // which holds its darkest colour near 295 %, does not.
    @Test func inkOverTheLimit() throws {
        let d = folder("<font color=\"#1a0030\" size=\"60\">Dark</font>\n")
        let heavy = d.file("heavy.icc")
        try HeavyInkProfile.bytes().write(to: URL(fileURLWithPath: heavy))
        let r = build(d, ["--output-intent", heavy])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: page 1: total ink reaches "), "\(r.stderr)")
        #expect(r.stderr.contains("(the press takes at most 300 %)") && r.stderr.contains("[ink-coverage]"), "\(r.stderr)")
        let swop = build(d)
        #expect(swop.status == 0 && !swop.stderr.contains("[ink-coverage]"), "\(swop.stderr)")
    }
    // Ink over the limit in an image names the image, at its tag: the prepress desk learns
    // which file to lighten. Dark text elsewhere on the page names nothing.
    @Test func inkOverTheLimitInAnImage() throws {
        let d = folder(
            "<font color=\"#aaaaaa\">Light words above a dark drawing.</font>\n<img src=\"dark.svg\" width=\"120\" height=\"80\">\n")
        d.write(
            "dark.svg",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"80\"><rect width=\"120\" height=\"80\" fill=\"#1a0030\"/></svg>\n"
        )
        let heavy = d.file("heavy.icc")
        try HeavyInkProfile.bytes().write(to: URL(fileURLWithPath: heavy))
        let r = build(d, ["--output-intent", heavy])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("in.txt:2:1: warning: page 1: total ink reaches "), "\(r.stderr)")
        #expect(r.stderr.contains("in image 'dark.svg' (the press takes at most 300 %); lighten its darkest tones"), "\(r.stderr)")
        let text = folder("<font color=\"#1a0030\" size=\"60\">Dark</font>\n<img src=\"light.png\" width=\"120\" height=\"80\">\n")
        try PreflightTests.png(width: 60, height: 40, rgb: [230, 230, 230]).write(to: URL(fileURLWithPath: text.file("light.png")))
        try HeavyInkProfile.bytes().write(to: URL(fileURLWithPath: text.file("heavy.icc")))
        let t = build(text, ["--output-intent", text.file("heavy.icc")])
        #expect(t.stderr.contains("total ink reaches ") && !t.stderr.contains("in image"), "\(t.stderr)")
        // The same drawing on a page with transparency (a shadow): measured as Ghostscript left
        // it, blended in RGB and separated for its default profile, the page read under 300 %.
        let shadowed = folder(
            "<span shadow=\"2 2 3 gray\">Shadowed words above a dark drawing.</span>\n<img src=\"dark.svg\" width=\"120\" height=\"80\">\n")
        shadowed.write("dark.svg", try #require(d.read("dark.svg")))
        try HeavyInkProfile.bytes().write(to: URL(fileURLWithPath: shadowed.file("heavy.icc")))
        let s = build(shadowed, ["--output-intent", shadowed.file("heavy.icc")])
        #expect(s.stderr.contains("in image 'dark.svg' (the press takes at most 300 %)"), "\(s.stderr)")
    }
}

/// A printer's profile for the ink test, made with Little CMS: every colour printed as a grey
/// of all four inks, C = M = Y = K = 1 − L*, so a dark colour takes nearly 400 %.
enum HeavyInkProfile {
    static func bytes() throws -> Data {
        try #require(galley_lcms_available() != 0)
        let p = try #require(galley_cmsCreateProfilePlaceholder(nil))
        defer { _ = galley_cmsCloseProfile(p) }
        galley_cmsSetProfileVersion(p, 4.3)
        galley_cmsSetDeviceClass(p, cmsSigOutputClass)
        galley_cmsSetColorSpace(p, cmsSigCmykData)
        galley_cmsSetPCS(p, cmsSigLabData)
        let toLab = try table(4, 3) { input, output in
            let ink = (0..<4).map { Double(input[$0]) / 65535 }.max()!
            (output[0], output[1], output[2]) = (UInt16((1 - ink) * 65535), 0x8080, 0x8080)
        }
        let toInk = try table(3, 4) { input, output in
            let ink = UInt16(65535 - Int(input[0]))
            (output[0], output[1], output[2], output[3]) = (ink, ink, ink, ink)
        }
        defer {
            galley_cmsPipelineFree(toLab)
            galley_cmsPipelineFree(toInk)
        }
        try #require(galley_cmsWriteTag(p, cmsSigAToB0Tag, UnsafeRawPointer(toLab)) != 0)
        try #require(galley_cmsWriteTag(p, cmsSigBToA0Tag, UnsafeRawPointer(toInk)) != 0)
        var size: UInt32 = 0
        try #require(galley_cmsSaveProfileToMem(p, nil, &size) != 0)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        try #require(bytes.withUnsafeMutableBytes { galley_cmsSaveProfileToMem(p, $0.baseAddress, &size) } != 0)
        return Data(bytes)
    }

    typealias Sampler = (UnsafePointer<UInt16>, UnsafeMutablePointer<UInt16>) -> Void

    /// Curves, a 9-point table sampled from `fill`, curves: an `mAB`/`mBA` tag's shape.
    static func table(_ inputs: UInt32, _ outputs: UInt32, _ fill: @escaping Sampler) throws -> OpaquePointer {
        let pipeline = try #require(galley_cmsPipelineAlloc(nil, inputs, outputs))
        let grid = try #require(galley_cmsStageAllocCLut16bit(nil, 9, inputs, outputs, nil))
        var box = fill
        let sampled = withUnsafeMutablePointer(to: &box) { cargo in
            galley_cmsStageSampleCLut16bit(
                grid,
                { input, output, cargo in
                    guard let input, let output, let cargo else { return 0 }
                    cargo.assumingMemoryBound(to: Sampler.self).pointee(input, output)
                    return 1
                }, cargo, 0)
        }
        try #require(sampled != 0)
        _ = galley_cmsPipelineInsertStage(pipeline, cmsAT_END, galley_cmsStageAllocToneCurves(nil, inputs, nil))
        _ = galley_cmsPipelineInsertStage(pipeline, cmsAT_END, grid)
        _ = galley_cmsPipelineInsertStage(pipeline, cmsAT_END, galley_cmsStageAllocToneCurves(nil, outputs, nil))
        return pipeline
    }
}
