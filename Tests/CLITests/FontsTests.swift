import Foundation
import TestSupport
import Testing

/// Project fonts (`--font-path`, a template's `fonts`) and `galley fonts`. Run as processes: a
/// font folder is added to fontconfig for the whole process, which the other tests share.
@Suite struct FontsTests {
    /// A copy of DejaVu Sans renamed "Qwerty Sans" (PostScript name QwertySans), made here: its
    /// names are rewritten in place, in the name table's UTF-16 and Mac Roman strings alike.
    static func renamedFont(in dir: TemporaryDirectory) -> String {
        var bytes = [UInt8](FileManager.default.contents(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")!)
        for (from, to) in [("DejaVu Sans", "Qwerty Sans"), ("DejaVuSans", "QwertySans")] {
            for encode in [{ (s: String) in Array(s.utf8) }, { (s: String) in s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }] {
                let a = encode(from)
                let b = encode(to)
                var i = 0
                while i + a.count <= bytes.count {
                    if bytes[i] == a[0] && Array(bytes[i..<(i + a.count)]) == a {
                        bytes.replaceSubrange(i..<(i + a.count), with: b)
                        i += a.count
                    } else {
                        i += 1
                    }
                }
            }
        }
        try? FileManager.default.createDirectory(atPath: dir.file("fonts"), withIntermediateDirectories: true)
        _ = dir.write("fonts/QwertySans.ttf", Data(bytes))
        _ = dir.write("fonts/broken.ttf", "not a font")
        // A web font: fontconfig reads it, Pango sets nothing in it.
        _ = dir.write("fonts/Web.woff2", Data(bytes))
        return dir.file("fonts")
    }

    @Test func fontPathIsEmbedded() throws {
        let dir = TemporaryDirectory("fonts")
        let fonts = Self.renamedFont(in: dir)
        let doc = dir.write("doc.txt", "<font face=\"Qwerty Sans\">Set in a project font.</font>\n")
        let pdf = dir.file("doc.pdf")
        let built = runExecutable(["build", doc, "-o", pdf, "--font-path", fonts])
        #expect(built.status == 0)
        #expect(!built.stderr.contains("not installed"), "\(built.stderr)")
        #expect(built.stderr.contains("broken.ttf' is not a font fontconfig can read; skipped"))
        #expect(built.stderr.contains("Web.woff2' is a web font (WOFF), which Pango sets no text in; skipped"), "\(built.stderr)")
        #expect(tool("pdffonts", [pdf]).output.contains("+QwertySans"))
        // A FIFO named like a font is skipped, not opened: the build waited for a writer.
        #expect(mkfifo(dir.file("fonts/House.ttf"), 0o600) == 0)
        let fifo = runExecutable(["check", doc, "--font-path", fonts])
        #expect(fifo.status == 0 && fifo.stderr.contains("House.ttf' is not a regular file; skipped"), "\(fifo.stderr)")
        // Without the folder the name is not known.
        let without = runExecutable(["build", doc, "-o", pdf])
        #expect(without.stderr.contains("face 'Qwerty Sans' is not installed"))
    }

    // A project font of an installed family (a licensed cut of it, say) is used ahead of the
    // installed one: here DejaVu Sans with only its PostScript name changed, which the PDF
    // shows.
    @Test func aProjectFontWinsOverTheInstalledFamily() throws {
        let dir = TemporaryDirectory("fonts")
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")))
        // The PostScript name only, in the name table's Mac Roman and UTF-16 strings (same length).
        let utf16 = { (s: String) in s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        for (from, to) in [(Array("DejaVuSans".utf8), Array("ProjectSan".utf8)), (utf16("DejaVuSans"), utf16("ProjectSan"))] {
            var i = 0
            while i + from.count <= bytes.count {
                if bytes[i] == from[0] && Array(bytes[i..<(i + from.count)]) == from {
                    bytes.replaceSubrange(i..<(i + from.count), with: to)
                }
                i += 1
            }
        }
        dir.write("fonts/ProjectSans.ttf", Data(bytes))
        let doc = dir.write("doc.txt", "<font face=\"DejaVu Sans\">Set in the project's cut.</font>\n")
        let pdf = dir.file("doc.pdf")
        let built = runExecutable(["build", doc, "-o", pdf, "--font-path", dir.file("fonts")])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(tool("pdffonts", [pdf]).output.contains("+ProjectSan"), "\(tool("pdffonts", [pdf]).output)")
        let said = runExecutable(["fonts", "--resolve", "DejaVu Sans", "--font-path", dir.file("fonts")])
        #expect(said.output.contains(dir.file("fonts/ProjectSans.ttf")), "\(said.output)")
        // Without the folder, the installed one.
        #expect(runExecutable(["build", doc, "-o", pdf]).status == 0)
        #expect(tool("pdffonts", [pdf]).output.contains("+DejaVuSans"))
    }

    @Test func templateFontsAreRelativeToTheTemplate() {
        let dir = TemporaryDirectory("fonts")
        _ = Self.renamedFont(in: dir)
        let template = dir.write("t.json", #"{"extends": "magazine", "fonts": ["fonts"], "body": {"face": "Qwerty Sans"}}"#)
        let doc = dir.write("doc.txt", "Body text in the template's own face.\n")
        let pdf = dir.file("doc.pdf")
        let built = runExecutable(["build", doc, "-t", template, "-o", pdf])
        #expect(built.status == 0 && !built.stderr.contains("not installed"), "\(built.stderr)")
        #expect(tool("pdffonts", [pdf]).output.contains("+QwertySans"))
        let shown = runExecutable(["templates", template])
        #expect(shown.output.contains("\"fonts\": [\"\(dir.file("fonts"))\"]"))
    }

    @Test func listsFamiliesWithStylesAndFiles() throws {
        let dir = TemporaryDirectory("fonts")
        let fonts = Self.renamedFont(in: dir)
        let text = runExecutable(["fonts", "--font-path", fonts])
        #expect(text.status == 0)
        #expect(text.output.contains("Qwerty Sans\n  Book  \(fonts)/QwertySans.ttf\n"))
        #expect(text.output.contains("DejaVu Serif\n"))
        let json = runExecutable(["fonts", "--json", "--font-path", fonts])
        let families = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        let qwerty = try #require(families.first { $0["family"] as? String == "Qwerty Sans" })
        let face = try #require((qwerty["faces"] as? [[String: Any]])?.first)
        #expect(face["file"] as? String == fonts + "/QwertySans.ttf")
        #expect(face["weight"] as? Int == 400 && face["italic"] as? Bool == false)
    }

    @Test func resolveSaysWhatANameBecomesAndWhy() {
        let didot = runExecutable(["fonts", "--resolve", "Didot Bold"])
        #expect(didot.status == 0)
        #expect(didot.output.hasPrefix("Didot Bold → C059 Bold, /"))
        #expect(didot.output.contains("'Didot Bold' is not installed; using 'C059' (for a didone serif"))
        let installed = runExecutable(["fonts", "--resolve", "DejaVu Serif Bold"])
        #expect(installed.output.hasPrefix("DejaVu Serif Bold → DejaVu Serif Bold, /") && installed.output.contains("installed"))
        let missing = runExecutable(["fonts", "--font-path", "/no/such/folder"])
        #expect(missing.status == 0 && missing.stderr.contains("font folder '/no/such/folder' does not exist"))
        let empty = runExecutable(["fonts", "--resolve", " "])
        #expect(empty.status == 2)
        // A generic family is the system's default for it, not a face to install.
        let generic = runExecutable(["fonts", "--resolve", "serif"])
        #expect(generic.output.contains("a generic family") && !generic.output.contains("not installed"), "\(generic.output)")
    }

    // A PostScript name whose family is two words written as one ("HelveticaNeue-Bold", with
    // a width run on: "AvenirNextCondensed-Bold") becomes what its spaced form becomes; it lost
    // the family, and fell to DejaVu Sans.
    @Test func postScriptNamesOfTwoWordFamilies() {
        for (postScript, spaced) in [
            ("HelveticaNeue-Bold", "Helvetica Neue Bold"), ("AvenirNextCondensed-Bold", "Avenir Next Condensed Bold"),
            ("PingFangSC-Semibold", "PingFang SC Semibold"),
            // Monotype's spellings, as Core Text names them: they fell to DejaVu Sans.
            ("ArialMT", "Arial"), ("Arial-BoldMT", "Arial Bold"), ("TimesNewRomanPSMT", "Times New Roman"),
            ("TimesNewRomanPS-BoldItalicMT", "Times New Roman Bold Italic"), ("CourierNewPSMT", "Courier New"),
            // A weight and a slant run together.
            ("HelveticaNeue-UltraLightItalic", "Helvetica Neue Ultra Light Italic"),
            // A width and a weight run together: read as no style, set regular at normal width.
            ("HelveticaNeue-CondensedBold", "Helvetica Neue Condensed Bold"),
            ("Futura-CondensedExtraBold", "Futura Condensed ExtraBold"),
            // iOS's Heiti: a CJK sans, not a Latin face.
            ("STHeitiSC-Light", "PingFang SC Light"),
        ] {
            func face(_ name: String) -> String {
                let out = runExecutable(["fonts", "--resolve", name]).output
                return out.split(separator: "\n").first.map { String($0.drop { $0 != "→" }) } ?? ""
            }
            let (a, b) = (face(postScript), face(spaced))
            #expect(a == b && !b.isEmpty, "\(postScript): \(a); \(spaced): \(b)")
        }
    }

    // A face only the template names is warned of at its place in the template (a fallback
    // left out, a style's face substituted), and a manifest's `set` at its place there: they
    // were said with no place at all.
    @Test func templateFacesAreSaidWhereTheTemplateNamesThem() {
        let d = TemporaryDirectory("fonts-template-spot")
        d.write(
            "t.json",
            "{\"extends\": \"magazine\",\n \"body\": {\"face\": \"Nowhere Serif\"},\n \"fallback\": [\"Nowhere Sans\", \"Noto Serif CJK SC\"]}\n"
        )
        d.write("in.txt", "Words and 中文.\n")
        let r = runExecutable(["build", d.file("in.txt"), "-t", d.file("t.json"), "-o", d.file("out.pdf")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("t.json:2:19: warning: face 'Nowhere Serif' is not installed; using "), "\(r.stderr)")
        #expect(
            r.stderr.contains("t.json:3:15: warning: the template's fallback face 'Nowhere Sans' is not installed; it is left out"),
            "\(r.stderr)")
        #expect(r.stderr.contains(" \"fallback\": [\"Nowhere Sans\", \"Noto Serif CJK SC\"]}\n              ^~~~~~~~~~~~~~"), "\(r.stderr)")
        d.write(
            "issue.json", "{\"title\": \"T\",\n \"set\": {\"body.face\": \"Nowhere Grotesk\"},\n \"articles\": [{\"file\": \"a.txt\"}]}\n")
        d.write("a.txt", "Words.\n")
        let issue = runExecutable(["build", d.file("issue.json"), "-o", d.file("issue.pdf")])
        #expect(issue.status == 0, "\(issue.stderr)")
        #expect(issue.stderr.contains("issue.json:2:23: warning: face 'Nowhere Grotesk' is not installed"), "\(issue.stderr)")
        // A heading's face is the template's too: said there, not at the `<h1>` using it.
        d.write("h.json", "{\"extends\": \"magazine\",\n \"headings\": {\"h1\": {\"face\": \"Nowhere Display\"}}}\n")
        d.write("h.txt", "<h1>Head</h1>\nWords.\n")
        let head = runExecutable(["check", d.file("h.txt"), "-t", d.file("h.json")])
        #expect(head.stderr.contains("h.json:2:30: warning: face 'Nowhere Display' is not installed"), "\(head.stderr)")
    }

    // A width the family has no face in is a substitution, said: "Liberation Sans Narrow" was
    // set in normal-width Liberation Sans as "installed". A width it has stays installed.
    @Test func aWidthTheFamilyLacksIsSaid() {
        let narrow = runExecutable(["fonts", "--resolve", "Liberation Sans Narrow"]).output
        #expect(narrow.contains("'Liberation Sans Narrow' is not installed; using 'Liberation Sans'"), "\(narrow)")
        let condensed = runExecutable(["fonts", "--resolve", "DejaVu Sans Condensed"]).output
        #expect(condensed.contains("DejaVuSansCondensed.ttf") && !condensed.contains("not installed"), "\(condensed)")
    }

    // A font file fontconfig reads (its names) whose outlines are gone (its `loca` table
    // overwritten) set every line in it invisibly, without a word: now it is warned of.
    @Test func aDamagedFontIsWarnedOf() throws {
        let d = TemporaryDirectory("fonts-damaged")
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")))
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        for k in 0..<u16(4) where bytes[(12 + 16 * k)..<(16 + 16 * k)].elementsEqual("loca".utf8) {
            let (offset, length) = (u32(12 + 16 * k + 8), u32(12 + 16 * k + 12))
            for i in offset..<(offset + length) { bytes[i] = 0xFF }
        }
        try FileManager.default.createDirectory(atPath: d.file("fonts"), withIntermediateDirectories: true)
        _ = d.write("fonts/Damaged.ttf", Data(bytes))
        let input = d.write("in.txt", "Body text that should be seen.\n")
        // A process of its own: the font folder is added to fontconfig for the whole process.
        let r = runExecutable(["check", input, "--font-path", d.file("fonts")])
        #expect(r.stderr.contains("face 'DejaVu Serif' draws nothing"), "\(r.stderr)")
        let sound = runExecutable(["check", input])
        #expect(!sound.stderr.contains("draws nothing"), "\(sound.stderr)")
    }

    // Faces asked by kind (`serif`, `sans-serif`, `monospace`) are set without a warning.
    @Test func genericFamiliesAreNotWarnedOf() {
        let text = "<font face=\"serif\">a</font> <font face=\"sans-serif\">b</font> <font face=\"monospace\">c</font>\n"
        let r = runExecutable(["check", "-"], stdin: Data(text.utf8))
        #expect(r.status == 0 && !r.stderr.contains("not installed"), "\(r.stderr)")
    }
}
