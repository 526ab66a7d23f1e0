import Foundation
import TestSupport
import Testing

/// The preflight (`check --preflight`, every `build --press`): each kind of finding has a case
/// that makes it and one that does not, read back from `--json`.
@Suite struct PreflightTests {
    /// A 100 × 80 mm page in one column with 10 mm margins, no footer.
    static let template = """
        {"extends": "magazine", "page": {"width": "100mm", "height": "80mm"}, "margins": "10mm", "columns": 1,
         "footer": {"enabled": false}}
        """
    /// The same page with no margins: what is set touches the trim.
    static let edgeTemplate = """
        {"extends": "magazine", "page": {"width": "100mm", "height": "80mm"}, "margins": 0, "columns": 1,
         "footer": {"enabled": false}}
        """

    /// A PNG of `width` × `height` pixels of one colour, grey unless `rgb` is given, made here
    /// (stored deflate blocks, no library).
    static func png(width: Int, height: Int, rgb: [UInt8]? = nil) -> Data {
        let pixel = rgb ?? [128]
        var raw: [UInt8] = []
        for _ in 0..<height { raw += [0] + (0..<width).flatMap { _ in pixel } }
        var z: [UInt8] = [0x78, 0x01]
        var i = 0
        repeat {
            let n = min(65535, raw.count - i)
            z += [i + n == raw.count ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            z += raw[i..<(i + n)]
            i += n
        } while i < raw.count
        z += bigEndian(Inflate.adler32(raw))
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, rgb == nil ? 0 : 2, 0, 0, 0]
        let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", z) + chunk("IEND", [])
        return Data(bytes)
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    /// A folder holding the templates, `in.txt` with `text`, and `files`.
    func folder(_ text: String, files: [String: Data] = [:]) -> TemporaryDirectory {
        let d = TemporaryDirectory("preflight")
        d.write("t.json", Self.template)
        d.write("edge.json", Self.edgeTemplate)
        d.write("in.txt", text)
        for (name, data) in files { d.write(name, data) }
        return d
    }

    /// `check --preflight --json` of `text`: the run and its findings.
    func findings(
        _ text: String, files: [String: Data] = [:], template: String = "t.json", extra: [String] = []
    ) throws -> (run: CLIResult, findings: [[String: Any]]) {
        let d = folder(text, files: files)
        let r = run(["check", d.file("in.txt"), "-t", d.file(template), "--preflight", "--json"] + extra)
        let top = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(r.stderr)")
        return (r, try #require(top["preflight"] as? [[String: Any]]))
    }

    func of(_ kind: String, _ all: [[String: Any]]) -> [[String: Any]] { all.filter { $0["kind"] as? String == kind } }

    // MARK: - Images

    @Test func lowResolutionImage() throws {
        // 100 pixels across 100 pt: 72 ppi.
        let (r, all) = try findings(
            #"<img src="low.png" float="left" width="100pt">"# + "\nText.\n", files: ["low.png": Self.png(width: 100, height: 50)])
        let found = of("low-resolution", all)
        try #require(found.count == 1, "\(all)")
        #expect(found[0]["value"] as? Double == 72)
        #expect(found[0]["page"] as? Int == 1)
        #expect(found[0]["line"] as? Int == 1 && found[0]["column"] as? Int == 1)
        #expect((found[0]["subject"] as? String)?.hasSuffix("low.png") == true)
        #expect(r.status == 0)
        #expect(
            r.stderr.contains("in.txt:1:1: warning: page 1: image 'low.png' is 72 ppi at its placed size; print wants 300"), "\(r.stderr)")
        #expect(r.stderr.contains("[low-resolution]\n<img src=\"low.png\""))
    }

    @Test func sharpImage() throws {
        // 400 pixels across 72 pt: 400 ppi.
        let (_, all) = try findings(
            #"<img src="fine.png" float="left" width="72pt">"# + "\nText.\n", files: ["fine.png": Self.png(width: 400, height: 200)])
        #expect(of("low-resolution", all).isEmpty, "\(all)")
    }

    @Test func vectorImagesHaveNoResolution() throws {
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#
        let (_, all) = try findings(#"<img src="v.svg" float="left" width="200pt">"# + "\nText.\n", files: ["v.svg": Data(svg.utf8)])
        #expect(of("low-resolution", all).isEmpty, "\(all)")
    }

    // MARK: - Text size

    @Test func smallText() throws {
        let (_, all) = try findings(
            "Body text, then <span size=\"5\">five-point type</span>.\n<span size=\"7\" expansion=\"-0.4\">Condensed.</span>\n")
        let found = of("small-text", all)
        try #require(found.count == 2, "\(all)")
        #expect(found[0]["value"] as? Double == 5 && found[0]["line"] as? Int == 1 && found[0]["column"] as? Int == 32)
        // 7 pt narrowed to e^-0.4 of its width prints like 4.7 pt.
        #expect(abs((found[1]["value"] as? Double ?? 0) - 7 * exp(-0.4)) < 0.01 && found[1]["line"] as? Int == 2)
    }

    @Test func textAtSixPointsPasses() throws {
        let (_, all) = try findings("<span size=\"6\">Six-point type, the floor.</span> Body text.\n")
        #expect(of("small-text", all).isEmpty, "\(all)")
    }

    @Test func smallTextIsReportedOncePerParagraph() throws {
        let long = String(repeating: "many words of tiny type ", count: 60)
        let (_, all) = try findings("<span size=\"4\">\(long)</span>\n")
        #expect(of("small-text", all).count == 1, "\(all)")
    }

    // MARK: - Rules

    @Test func thinRules() throws {
        // An outline of 2 % of 10 pt is 0.2 pt; an underline at 4 pt takes the font's thickness at 4 pt.
        let (_, all) = try findings(
            "<span strokeWidth=\"2\">Hollow</span> text.\n<span size=\"4\" underline=\"single\">Underlined</span>\n")
        let found = of("thin-rule", all)
        try #require(found.count == 2, "\(all)")
        #expect(found[0]["value"] as? Double == 0.2 && (found[0]["message"] as? String)?.contains("outline") == true)
        #expect((found[1]["message"] as? String)?.contains("underline") == true && (found[1]["value"] as? Double ?? 1) < 0.25)
    }

    // A rule just under the limit is said rounded down: "0.25 pt wide; print wants at least
    // 0.25 pt" contradicted itself for 0.249.
    @Test func aRuleJustThinnerSaysSo() throws {
        let (_, all) = try findings("<span strikethrough=\"single\" size=\"5\">Struck small.</span>\n")
        let found = of("thin-rule", all)
        try #require(found.count == 1, "\(all)")
        let width = try #require(found[0]["value"] as? Double)
        #expect(width < 0.25 && (found[0]["message"] as? String)?.contains("is 0.24 pt wide") == true, "\(found)")
    }

    @Test func rulesAtAQuarterPointPass() throws {
        let (_, all) = try findings("<span strokeWidth=\"3\">Hollow</span> and <u>underlined</u> and <s>struck</s> text.\n")
        #expect(of("thin-rule", all).isEmpty, "\(all)")
    }

    @Test func thinBoxFrame() throws {
        let t = #"{"extends": "t.json", "styles": {"sidebar": {"frame": "0.1"}}}"#
        let d = folder("Text.\n<aside>A sidebar.</aside>\nMore.\n")
        d.write("thin.json", t)
        let r = run(["check", d.file("in.txt"), "-t", d.file("thin.json"), "--preflight", "--json"])
        let top = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(r.stderr)")
        let found = of("thin-rule", try #require(top["preflight"] as? [[String: Any]]))
        #expect(found.count == 1 && found.first?["value"] as? Double == 0.1, "\(found)")
    }

    // MARK: - Overset

    @Test func oversetText() throws {
        // A letter taller than the column is placed anyway, past its foot.
        let (r, all) = try findings("Text.\n<span size=\"900\">X</span>\n")
        let found = of("overset", all)
        try #require(found.count == 1, "\(all)")
        #expect(found[0]["line"] as? Int == 2)
        // The layout's own warning at that place is said once, as the finding.
        #expect(!r.stderr.contains("does not fit a column"), "\(r.stderr)")
        #expect(r.stderr.contains("warning: page 2: text is wider than its column and runs below the foot of its column"), "\(r.stderr)")
    }

    @Test func textThatFitsIsNotOverset() throws {
        let (_, all) = try findings("Text that fits its column with room to spare.\n")
        #expect(of("overset", all).isEmpty, "\(all)")
    }

    // MARK: - Missing glyphs

    @Test func missingGlyph() throws {
        let (r, all) = try findings("Cuneiform: \u{12000}, twice: \u{12000}.\n")
        let found = of("missing-glyph", all)
        try #require(found.count == 1, "\(all)")
        #expect(found[0]["subject"] as? String == "U+12000 CUNEIFORM SIGN A" && found[0]["column"] as? Int == 12)
        // One message for the character, not the layout's and the preflight's.
        #expect(r.stderr.components(separatedBy: "U+12000").count == 2, "\(r.stderr)")
    }

    @Test func everyGlyphPresent() throws {
        let (_, all) = try findings("Plain text, and 中文 and Ελληνικά.\n")
        #expect(of("missing-glyph", all).isEmpty, "\(all)")
    }

    // MARK: - Bleed

    @Test func imageAtTheTrimWithoutBleed() throws {
        let (_, all) = try findings(
            #"<img src="a.png">"# + "\n", files: ["a.png": Self.png(width: 1200, height: 600)], template: "edge.json")
        let found = of("no-bleed", all)
        try #require(found.count == 1, "\(all)")
        #expect((found[0]["message"] as? String)?.contains("image 'a.png' touches the left, top and right edges") == true, "\(found)")
    }

    @Test func bleedingImageAtTheTrim() throws {
        let (_, all) = try findings(
            #"<img src="a.png" bleed="true">"# + "\n", files: ["a.png": Self.png(width: 1300, height: 650)], template: "edge.json")
        #expect(of("no-bleed", all).isEmpty, "\(all)")
        #expect(of("low-resolution", all).isEmpty, "\(all)")
    }

    // A page colour with no bleed: a cut a little outside the trim shows white paper (it was
    // said of images and text at the edge, not of the paper itself). White paper is none.
    @Test func pageColourWithoutBleed() throws {
        let (_, all) = try findings("Text.\n", extra: ["--set", "page.color=#e0f0ff", "--set", "print.bleed=0"])
        let found = of("no-bleed", all)
        #expect(found.count == 1 && (found.first?["message"] as? String)?.contains("the page colour fills the page") == true, "\(all)")
        #expect(of("no-bleed", try findings("Text.\n", extra: ["--set", "print.bleed=0"]).findings).isEmpty)
        #expect(of("no-bleed", try findings("Text.\n", extra: ["--set", "page.color=#e0f0ff"]).findings).isEmpty)
    }

    @Test func imageInsideThePage() throws {
        let (_, all) = try findings(#"<img src="a.png">"# + "\nText.\n", files: ["a.png": Self.png(width: 1200, height: 600)])
        #expect(of("no-bleed", all).isEmpty, "\(all)")
    }

    @Test func textAtTheTrim() throws {
        let (_, all) = try findings("Text set with no margin.\n", template: "edge.json")
        let found = of("no-bleed", all)
        #expect(found.count == 1 && (found.first?["message"] as? String)?.hasPrefix("text touches") == true, "\(all)")
    }

    @Test func bleedScalesTheImageUp() throws {
        // 800 pixels over 100 mm is 203 ppi; carried 3 mm past two sides it is drawn wider, at 191.
        let (_, all) = try findings(
            #"<img src="a.png" bleed="true">"# + "\n", files: ["a.png": Self.png(width: 800, height: 400)], template: "edge.json")
        let found = of("low-resolution", all)
        #expect(found.count == 1 && found.first?["value"] as? Double == 191, "\(all)")
    }

    // MARK: - Font licences (processes: a font folder is the process's)

    /// A copy of DejaVu Sans named Qwerty Sans whose OS/2 fsType is `fsType`.
    static func font(fsType: UInt16, in dir: TemporaryDirectory) throws -> String {
        let folder = FontsTests.renamedFont(in: dir)
        try FileManager.default.removeItem(atPath: folder + "/broken.ttf")
        let path = folder + "/QwertySans.ttf"
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        for t in 0..<tables {
            let entry = 12 + 16 * t
            guard String(decoding: bytes[entry..<(entry + 4)], as: UTF8.self) == "OS/2" else { continue }
            let offset = bytes[(entry + 8)..<(entry + 12)].reduce(0) { $0 << 8 | Int($1) }
            bytes[offset + 8] = UInt8(fsType >> 8)
            bytes[offset + 9] = UInt8(fsType & 0xFF)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return folder
    }

    func licenceFindings(fsType: UInt16) throws -> [[String: Any]] {
        let dir = TemporaryDirectory("preflight-font")
        let fonts = try Self.font(fsType: fsType, in: dir)
        let doc = dir.write("doc.txt", "<font face=\"Qwerty Sans\">Set in a project font.</font>\n")
        let r = runExecutable(["check", doc, "--preflight", "--json", "--font-path", fonts])
        let top = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(r.stderr)")
        return of("font-licence", try #require(top["preflight"] as? [[String: Any]]))
    }

    @Test func restrictedFont() throws {
        let found = try licenceFindings(fsType: 0x0002)
        try #require(found.count == 1, "\(found)")
        #expect((found[0]["subject"] as? String)?.hasSuffix("QwertySans.ttf") == true)
        #expect((found[0]["message"] as? String)?.contains("font 'Qwerty Sans'") == true)
    }

    // A licence that forbids subsetting (bit 8) or allows bitmaps only (bit 9), and a restricted
    // bit beside a reserved one (3): each forbids what a PDF does, and was let through.
    @Test func fontsThatForbidSubsetsOrOutlines() throws {
        for (fsType, why) in [(UInt16(0x0100), "no subsetting"), (0x0200, "bitmap embedding only"), (0x0003, "restricted-licence")] {
            let found = try licenceFindings(fsType: fsType)
            #expect(found.count == 1 && (found[0]["message"] as? String)?.contains(why) == true, "fsType \(fsType): \(found)")
        }
    }

    @Test func embeddableFonts() throws {
        // Installable (0) and editable (8) embedding, and a restricted bit beside preview (2 | 4,
        // the less restrictive applies): none is a finding.
        for fsType: UInt16 in [0, 8, 6] { #expect(try licenceFindings(fsType: fsType).isEmpty, "fsType \(fsType)") }
    }

    // MARK: - The CLI

    @Test func buildPressPrintsTheFindings() throws {
        let d = folder(
            #"<img src="low.png" float="left" width="100pt">"# + "\nText.\n", files: ["low.png": Self.png(width: 100, height: 50)])
        let out = d.file("out.pdf")
        let r = run(["build", d.file("in.txt"), "-t", d.file("t.json"), "--press", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: page 1: image 'low.png' is 72 ppi"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
        // Without --press, no preflight.
        let plain = run(["build", d.file("in.txt"), "-t", d.file("t.json"), "-o", out])
        #expect(plain.status == 0 && !plain.stderr.contains("ppi"), "\(plain.stderr)")
    }

    @Test func strictMakesALowResolutionImageAnError() throws {
        let d = folder(
            #"<img src="low.png" float="left" width="100pt">"# + "\nText.\n", files: ["low.png": Self.png(width: 100, height: 50)])
        let out = d.file("out.pdf")
        let r = run(["build", d.file("in.txt"), "-t", d.file("t.json"), "--press", "--strict", "-o", out])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("error: page 1: image 'low.png' is 72 ppi"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(d.contents.allSatisfy { !$0.hasPrefix(".") }, "\(d.contents)")
        let check = run(["check", d.file("in.txt"), "-t", d.file("t.json"), "--preflight", "--strict"])
        #expect(check.status == 1 && check.stderr.contains("1 error"), "\(check.stderr)")
    }

    @Test func strictKeepsAMiddlingImageAWarning() throws {
        // 200 ppi: under 300, over 150.
        let d = folder(
            #"<img src="mid.png" float="left" width="72pt">"# + "\nText.\n", files: ["mid.png": Self.png(width: 200, height: 100)])
        let out = d.file("out.pdf")
        let r = run(["build", d.file("in.txt"), "-t", d.file("t.json"), "--press", "--strict", "-o", out])
        #expect(r.status == 0 && r.stderr.contains("warning: page 1: image 'mid.png' is 200 ppi"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test func strictNeedsThePreflight() {
        #expect(run(["check", "x.txt", "--strict"]).stderr.contains("--strict goes with --preflight"))
        #expect(run(["build", "x.txt", "--strict"]).status == 2)
    }

    @Test func jsonHoldsTheCountsAndDiagnostics() throws {
        let d = folder("Body <span size=\"5\">small</span>.\n")
        let r = run(["check", d.file("in.txt"), "-t", d.file("t.json"), "--preflight", "--json"])
        let top = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(r.stderr)")
        #expect(top["pages"] as? Int == 1 && top["warnings"] as? Int == 1 && top["errors"] as? Int == 0)
        let finding = try #require((top["preflight"] as? [[String: Any]])?.first)
        #expect(finding["kind"] as? String == "small-text" && finding["severity"] as? String == "warning")
        #expect((finding["file"] as? String)?.hasSuffix("in.txt") == true)
        let diagnostics = try #require(top["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { ($0["message"] as? String)?.hasPrefix("page 1: text set at 5 pt") == true })
        // Without --preflight there is no list.
        let plain = run(["check", d.file("in.txt"), "--json"])
        let top2 = try #require(try JSONSerialization.jsonObject(with: plain.stdout) as? [String: Any])
        #expect(top2["preflight"] == nil && top2["warnings"] as? Int == 0)
    }

    @Test func issueBuildRunsThePreflight() throws {
        let d = folder(
            "Text of an article with <span size=\"5\">fine print</span>.\n", files: ["cover.png": Self.png(width: 200, height: 280)])
        let manifest = d.write(
            "issue.json", #"{"title": "Test", "template": "t.json", "cover": {"image": "cover.png"}, "articles": [{"file": "in.txt"}]}"#)
        let r = run(["build", manifest, "--press", "-o", d.file("issue.pdf"), "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let top = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(r.stderr)")
        let kinds = try #require(top["preflight"] as? [[String: Any]]).map { "\($0["kind"]!)@\($0["page"]!)" }
        #expect(kinds.contains("low-resolution@1") && kinds.contains { $0.hasPrefix("small-text@") }, "\(kinds)")
        // Said at the manifest's value that names the image.
        #expect(r.stderr.contains("\(manifest):1:60: warning: page 1: image 'cover.png' fills the page at"), "\(r.stderr)")
    }
}
