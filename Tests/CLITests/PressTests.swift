import Foundation
import FoundationXML
import TestSupport
import Testing

/// `--press`: the sheet (trim, bleed, slug and marks) and the PDF/X-4 post-pass, read back with
/// qpdf's JSON, pdftoppm's pixels and the XMP parsed as XML.
@Suite struct PressTests {
    static let mm = 72 / 25.4
    /// A 100 × 80 mm page with no margins, a wide red image at its top that asks to bleed.
    static let template = """
        {"extends": "magazine", "page": {"width": "100mm", "height": "80mm"}, "margins": 0, "columns": 1,
         "footer": {"enabled": false}}
        """
    static let redSVG = """
        <svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#ff0000"/></svg>
        """

    /// A folder with the template, the image and an input of one bleeding image and some text.
    func folder() -> TemporaryDirectory {
        let d = TemporaryDirectory("press")
        d.write("t.json", Self.template)
        d.write("red.svg", Self.redSVG)
        d.write("in.txt", "<img src=\"red.svg\" bleed=\"true\">\n<h1>Harbour</h1>\nThe press runs at night.\n")
        return d
    }

    /// Builds `in.txt` with `--press` and more arguments; the PDF's path.
    func build(_ d: TemporaryDirectory, _ extra: [String] = []) throws -> String {
        let out = d.file("out.pdf")
        let r = run(["build", d.file("in.txt"), "-t", d.file("t.json"), "--press", "-o", out, "-q"] + extra)
        try #require(r.status == 0, "\(r.stderr)")
        return out
    }

    /// qpdf's JSON (version 2) of a PDF: its pages and its objects by `obj:N 0 R`.
    func json(_ pdf: String) throws -> (pages: [[String: Any]], objects: [String: Any]) {
        let r = tool("qpdf", ["--json=2", pdf])
        try #require(r.status == 0, "\(r.stderr)")
        let top = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let pages = try #require(top["pages"] as? [[String: Any]])
        let qpdf = try #require(top["qpdf"] as? [Any])
        return (pages, try #require(qpdf[1] as? [String: Any]))
    }

    /// The value (dictionary) of object `ref` ("12 0 R"), a stream's dictionary for a stream.
    func dictionary(_ objects: [String: Any], _ ref: String) throws -> [String: Any] {
        let entry = try #require(objects["obj:\(ref)"] as? [String: Any])
        if let v = entry["value"] as? [String: Any] { return v }
        let stream = try #require(entry["stream"] as? [String: Any])
        return try #require(stream["dict"] as? [String: Any])
    }

    /// A stream's decoded bytes, through qpdf.
    func streamData(_ pdf: String, _ ref: String) throws -> Data {
        let r = tool("qpdf", [pdf, "--show-object=\(ref.split(separator: " ")[0])", "--filtered-stream-data"])
        try #require(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    func box(_ page: [String: Any], _ objects: [String: Any], _ key: String) throws -> [Double] {
        let dict = try dictionary(objects, try #require(page["object"] as? String))
        return try #require(dict[key] as? [Double], "\(key)")
    }

    // The PDF is clean for qpdf, at PDF 1.6, every page with its three boxes nested: the trim
    // the page's size, the bleed 3 mm outside it on each side, the media the whole sheet.
    // A link on a press sheet covers its words as on the plain page: its rectangle moves with
    // the page by the bleed and slug (it stayed where the plain page has it, off its text).
    @Test func linksMoveWithThePage() throws {
        let d = folder()
        d.write("in.txt", "Read <a href=\"https://example.com/\">this link</a> now.\n")
        let plain = d.file("plain.pdf")
        #expect(run(["build", d.file("in.txt"), "-t", d.file("t.json"), "-o", plain, "-q"]).status == 0)
        let press = try build(d)
        let a = try #require(try PDFLinks(plain).pages.first?.first)
        let b = try #require(try PDFLinks(press).pages.first?.first)
        // Bleed 3 mm and slug 10 mm by default; PDF space is y up, from the sheet's foot alike.
        let margin = 13 * Self.mm
        let moved = [a.rect[0] + margin, a.rect[1] + margin, a.rect[2] + margin, a.rect[3] + margin]
        #expect(zip(b.rect, moved).allSatisfy { abs($0 - $1) < 1.01 }, "\(b.rect) vs \(moved)")
        #expect(b.uri == "https://example.com/")
    }

    @Test func boxesNested() throws {
        let d = folder()
        let pdf = try build(d)
        let check = tool("qpdf", ["--check", pdf])
        #expect(check.status == 0 && check.output.contains("No syntax or stream encoding errors"), "\(check.output)\(check.stderr)")
        #expect(check.output.contains("PDF Version: 1.6"))
        let (pages, objects) = try json(pdf)
        #expect(!pages.isEmpty)
        for page in pages {
            let media = try box(page, objects, "/MediaBox"), bleed = try box(page, objects, "/BleedBox")
            let trim = try box(page, objects, "/TrimBox")
            #expect(abs((trim[2] - trim[0]) - 100 * Self.mm) < 0.01 && abs((trim[3] - trim[1]) - 80 * Self.mm) < 0.01)
            for i in 0..<2 {
                #expect(abs(trim[i] - bleed[i] - 3 * Self.mm) < 0.01 && abs(bleed[i + 2] - trim[i + 2] - 3 * Self.mm) < 0.01)
                #expect(media[i] < bleed[i] && bleed[i + 2] < media[i + 2])
            }
            #expect(media[0] == 0 && media[1] == 0)
        }
    }

    // The catalogue's output intent is GTS_PDFX with an embedded profile that is valid ICC of
    // CMYK space; the XMP parses as XML and declares PDF/X-4 with title, dates and IDs; Info
    // says /Trapped /False; the trailer has an /ID.
    @Test func outputIntentAndMetadata() throws {
        let d = folder()
        let pdf = try build(d, ["--title", "Harbour & Sons"])
        let (_, objects) = try json(pdf)
        let trailer = try #require((objects["trailer"] as? [String: Any])?["value"] as? [String: Any])
        #expect((trailer["/ID"] as? [Any])?.count == 2)
        let root = try dictionary(objects, try #require(trailer["/Root"] as? String))
        let intents = try #require(root["/OutputIntents"] as? [Any])
        let intent = try #require(intents.first as? [String: Any])
        #expect(intent["/S"] as? String == "/GTS_PDFX")
        #expect(intent["/OutputConditionIdentifier"] as? String == "u:Artifex CMYK SWOP Profile")
        let icc = try streamData(pdf, try #require(intent["/DestOutputProfile"] as? String))
        #expect(icc.count > 128 && String(decoding: icc[36..<40], as: UTF8.self) == "acsp")
        #expect(String(decoding: icc[16..<20], as: UTF8.self) == "CMYK")
        #expect(Int(icc[0]) << 24 | Int(icc[1]) << 16 | Int(icc[2]) << 8 | Int(icc[3]) == icc.count)
        let xmp = try XMPFields(try streamData(pdf, try #require(root["/Metadata"] as? String)))
        #expect(xmp.fields["pdfxid:GTS_PDFXVersion"] == "PDF/X-4")
        #expect(xmp.fields["rdf:li"] == "Harbour & Sons")
        #expect(xmp.fields["xmp:CreateDate"] == "2000-01-01T00:00:00Z")
        #expect(xmp.fields["xmpMM:DocumentID"]?.hasPrefix("uuid:") == true && xmp.fields["xmpMM:InstanceID"]?.hasPrefix("uuid:") == true)
        let info = try dictionary(objects, try #require(trailer["/Info"] as? String))
        #expect(info["/Trapped"] as? String == "/False")
        #expect(info["/CreationDate"] as? String == "u:D:20000101000000Z")
    }

    // RGB content is declared sRGB (DefaultRGB on every page) and the marks are drawn in the
    // registration colour, /Separation /All.
    @Test func colourSpaces() throws {
        let d = folder()
        let pdf = try build(d)
        let (pages, objects) = try json(pdf)
        for page in pages {
            let dict = try dictionary(objects, try #require(page["object"] as? String))
            var resources = try #require(dict["/Resources"])
            if let ref = resources as? String { resources = try dictionary(objects, ref) }
            let spaces = try #require((resources as? [String: Any])?["/ColorSpace"] as? [String: Any])
            let rgb = try #require(spaces["/DefaultRGB"] as? String)
            #expect((objects["obj:\(rgb)"] as? [String: Any])?["value"] as? [Any] != nil)
            let all = try #require(spaces["/GalleyRegistration"] as? String)
            let separation = try #require((objects["obj:\(all)"] as? [String: Any])?["value"] as? [Any])
            #expect(separation[0] as? String == "/Separation" && separation[1] as? String == "/All")
        }
    }

    // No device RGB is left anywhere Cairo wrote it: images (a JPEG, a PNG with alpha and its
    // soft mask), the transparency groups of shadows, and every resource dictionary of pages
    // and forms, which carries /DefaultRGB. The post-pass passes most objects over on their
    // type and the keys they lack; this walks them all.
    @Test func noDeviceRGBLeft() throws {
        let d = TemporaryDirectory("press-rgb")
        for image in ["harbour.jpg", "badge.png"] {
            d.write(image, try #require(FileManager.default.contents(atPath: repoPath("samples/images/\(image)"))))
        }
        d.write(
            "in.txt",
            "<img src=\"harbour.jpg\" width=\"40%\">\n<img src=\"badge.png\" width=\"20%\">\n"
                + "The harbour <span shadow=\"1 1 2 gray\">lights</span> come on at night.\n")
        let pdf = d.file("out.pdf")
        let r = run(["build", d.file("in.txt"), "--press", "-o", pdf, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        let (_, objects) = try json(pdf)
        var (images, groups, resources) = (0, 0, 0)
        // A value as written, or the object it refers to ("12 0 R").
        func resolved(_ value: Any?) -> Any? {
            guard let ref = value as? String, ref.hasSuffix(" R") else { return value }
            let entry = objects["obj:\(ref)"] as? [String: Any]
            return entry?["value"] ?? (entry?["stream"] as? [String: Any])?["dict"]
        }
        func check(_ dict: [String: Any]) {
            #expect(dict["/ColorSpace"] as? String != "/DeviceRGB", "\(dict)")
            if dict["/Subtype"] as? String == "/Image", dict["/ColorSpace"] is String { images += 1 }
            if dict["/S"] as? String == "/Transparency" {
                #expect(dict["/CS"] as? String != "/DeviceRGB", "\(dict)")
                if dict["/CS"] != nil { groups += 1 }
            }
            if let group = dict["/Group"] as? [String: Any] { check(group) }
            // The post-pass's own forms (the slug line's and its glyphs', drawn in the
            // registration colour) have no resources but their glyph forms.
            if dict["/Type"] as? String != "/Font", let res = resolved(dict["/Resources"]) as? [String: Any],
                !Set(res.keys).isSubset(of: ["/XObject"])
            {
                resources += 1
                #expect((resolved(res["/ColorSpace"]) as? [String: Any])?["/DefaultRGB"] != nil, "\(res)")
            }
        }
        for (key, entry) in objects where key.hasPrefix("obj:") {
            guard let entry = entry as? [String: Any] else { continue }
            if let dict = entry["value"] as? [String: Any] { check(dict) }
            if let dict = (entry["stream"] as? [String: Any])?["dict"] as? [String: Any] { check(dict) }
        }
        // Not vacuous: the images, the shadow's groups and the forms' resources were there.
        #expect(images >= 2 && groups >= 1 && resources >= 2, "images \(images), groups \(groups), resources \(resources)")
    }

    /// The dark pixels of a render at `dpi` in the slug line's box (under the trim, from its
    /// left edge to the middle).
    func slugInk(_ px: PNGPixels, dpi: Double) -> Int {
        let s = dpi / 72, top = (13 + 80 + 3) * Self.mm + 2, left = 13 * Self.mm + 6
        var dark = 0
        for y in Int(top * s)..<Int((top + 20) * s) {
            for x in Int(left * s)..<Int((left + 50 * Self.mm - 32) * s) where Self.dark(px[x, y]) { dark += 1 }
        }
        return dark
    }

    // The slug line (file, folio, the build's date) is drawn by the post-pass in the
    // registration colour, its glyphs' outlines as forms, where the preview of the sheet
    // draws it: about as much ink in the same box. It is a mark, not text to extract.
    @Test func slugLineInTheRegistrationColour() throws {
        let d = folder()
        let pdf = try build(d)
        let plain = d.file("plain.pdf")
        #expect(tool("qpdf", ["--qdf", "--object-streams=disable", pdf, plain]).status == 0)
        let text = String(decoding: try #require(FileManager.default.contents(atPath: plain)), as: UTF8.self)
        #expect(text.contains("/GalleyRegistration cs 1 scn") && text.contains("/GalleySlug"))
        #expect(!tool("pdftotext", [pdf, "-"]).output.contains("2000-01-01"))
        let inPDF = slugInk(try render(pdf, dpi: 288, in: d), dpi: 288)
        let png = d.file("p1.png")
        let r = run(["preview", d.file("in.txt"), "-t", d.file("t.json"), "--press", "--dpi", "288", "-o", png, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        let inPreview = slugInk(try PNGPixels(path: png), dpi: 288)
        #expect(inPreview > 100 && abs(inPDF - inPreview) < inPreview / 5, "PDF \(inPDF), preview \(inPreview)")
        let none = run(["build", d.file("in.txt"), "-t", d.file("t.json"), "--press", "--set", "print.marks=crop", "-o", pdf, "-q"])
        try #require(none.status == 0)
        #expect(slugInk(try render(pdf, dpi: 288, in: d), dpi: 288) == 0)
    }

    /// The sheet rendered by pdftoppm at `dpi`.
    func render(_ pdf: String, dpi: Int, in d: TemporaryDirectory) throws -> PNGPixels {
        let r = tool("pdftoppm", ["-r", String(dpi), "-png", "-singlefile", pdf, d.file("sheet")])
        try #require(r.status == 0, "\(r.stderr)")
        return try PNGPixels(path: d.file("sheet.png"))
    }

    // The slug's date is the day the newest source was changed (it was always 2000-01-01):
    // a build of the same sources is the same file, one after an edit another day differs,
    // and SOURCE_DATE_EPOCH, when set, wins over the sources.
    @Test func slugDateFollowsTheSources() throws {
        let d = folder()
        func build(_ name: String, env: [String: String] = [:]) throws -> Data {
            var argv = [galleyExecutable, "build", d.file("in.txt"), "-t", d.file("t.json"), "--press", "-o", d.file(name), "-q"]
            if !env.isEmpty { argv = ["env"] + env.map { "\($0)=\($1)" } + argv }
            let r = tool(argv[0], Array(argv.dropFirst()))
            try #require(r.status == 0, "\(r.stderr)")
            return try #require(d.read(name))
        }
        func touch(_ days: Double) throws {
            for f in ["in.txt", "t.json", "red.svg"] {
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + days * 86_400)], ofItemAtPath: d.file(f))
            }
        }
        try touch(0)
        let first = try build("a.pdf")
        #expect(try build("b.pdf") == first)
        try touch(3)
        #expect(try build("c.pdf") != first)
        let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
        let fixed = try build("d.pdf", env: epoch)
        try touch(9)
        #expect(try build("e.pdf", env: epoch) == fixed)
    }

    // What Info says of an issue (subject, keywords), its XMP says too, as PDF/X checkers
    // want; and the RGB and CMYK files of one build are two instances of one document.
    @Test func xmpAgreesWithInfo() throws {
        let d = folder()
        let pdf = d.file("issue.pdf")
        let manifest = repoPath("samples/issue/issue.json")
        let r = run(["build", manifest, "--root", repoPath("samples"), "--press", "-o", pdf, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        let info = tool("pdfinfo", [pdf]).output
        func field(_ name: String) -> String? {
            info.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map {
                String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces)
            }
        }
        let subject = try #require(field("Subject")), keywords = try #require(field("Keywords"))
        let meta = tool("pdfinfo", ["-meta", pdf]).output
        #expect(meta.contains("<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(subject)</rdf:li>"), "\(meta)")
        #expect(meta.contains("<pdf:Keywords>\(keywords)</pdf:Keywords>"), "\(meta)")
        // With neither in Info, neither in XMP (empty entries read as out of step).
        let plain = try build(folder())
        let bare = tool("pdfinfo", ["-meta", plain]).output
        #expect(!bare.contains("dc:description") && !bare.contains("pdf:Keywords"), "\(bare)")
    }

    // A CMYK JPEG as Photoshop writes them (Adobe's marker, samples inverted) is drawn in its
    // colours, not in negative: Cairo would embed it with no Decode to undo the inversion.
    @Test func adobeCMYKJPEG() throws {
        let d = folder()
        d.write("y.ps", "<</PageSize [40 40]>> setpagedevice 0 0 1 0 setcmykcolor 0 0 40 40 rectfill showpage\n")
        let gs = tool("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=jpegcmyk", "-r72", "-o", d.file("y.jpg"), d.file("y.ps")])
        try #require(gs.status == 0, "\(gs.stderr)")
        try #require(d.read("y.jpg").map { $0.range(of: Data("Adobe".utf8)) != nil } == true)
        d.write("in.txt", "<img src=\"y.jpg\" width=\"100%\">\n")
        let pdf = d.file("out.pdf")
        try #require(run(["build", d.file("in.txt"), "-t", d.file("t.json"), "-o", pdf, "-q"]).status == 0)
        let px = try render(pdf, dpi: 72, in: d)
        let p = px[px.width / 2, 20]
        #expect(p.r > 200 && p.g > 200 && p.b < 90, "\(p)")
    }

    /// Red enough: the image.
    static func red(_ p: PNGPixels.Pixel) -> Bool { p.r > 200 && p.g < 60 && p.b < 60 }
    static func dark(_ p: PNGPixels.Pixel) -> Bool { Int(p.r) + Int(p.g) + Int(p.b) < 300 }

    // The image touching the trim reaches the bleed's edge (top, left and right) and stops
    // there; the page's foot, which it does not touch, does not bleed.
    @Test func fullBleedImageReachesTheBleedEdge() throws {
        let d = folder()
        let pdf = try build(d)
        let px = try render(pdf, dpi: 72, in: d)
        let margin = 13 * Self.mm, bleed = 3 * Self.mm
        let edge = Int((margin - bleed).rounded())
        #expect(Self.red(px[edge + 1, edge + 1]) && Self.red(px[px.width - edge - 2, edge + 1]))
        #expect(!Self.red(px[edge - 2, edge + 1]) && !Self.red(px[edge + 1, edge - 2]))
        let foot = Int((margin + 80 * Self.mm + bleed / 2).rounded())
        #expect(!Self.red(px[px.width / 2, foot]))
    }

    /// Where the crop marks must be in a render at `dpi`: each trim edge's line, in the slug.
    func checkCropMarks(_ px: PNGPixels, dpi: Double) {
        let s = dpi / 72, margin = 13 * Self.mm * s
        let trimLeft = margin, trimTop = margin, trimRight = margin + 100 * Self.mm * s
        let along = margin - (3 * Self.mm + 2 + 5) * s
        for x in [trimLeft, trimRight] {
            let column = Int(x.rounded(.down))
            let dark = (column - 1...column).contains { Self.dark(px[$0, Int(along)]) }
            #expect(dark, "no crop mark at x \(x)")
            #expect(!Self.dark(px[column - 6, Int(along)]) && !Self.dark(px[column + 6, Int(along)]))
        }
        let row = Int(trimTop.rounded(.down))
        #expect((row - 1...row).contains { Self.dark(px[Int(along), $0]) }, "no crop mark at y \(trimTop)")
        #expect(!Self.dark(px[Int(along), row + 6]))
    }

    // The crop marks sit on the trim's edges, in the PDF (drawn by the post-pass) and in the
    // preview of the sheet (drawn by Cairo).
    @Test func cropMarksAtTheTrim() throws {
        let d = folder()
        let pdf = try build(d)
        checkCropMarks(try render(pdf, dpi: 288, in: d), dpi: 288)
        let png = d.file("p1.png")
        let r = run(["preview", d.file("in.txt"), "-t", d.file("t.json"), "--press", "--dpi", "288", "-o", png, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        let px = try PNGPixels(path: png)
        #expect(px.width == Int(((100 + 26) * Self.mm * 4).rounded()))
        checkCropMarks(px, dpi: 288)
    }

    // An issue on press sheets: PDF/X-4 and clean, and the cover photograph runs into the bleed
    // on every side, in the PDF and in the preview of the sheet.
    @Test func issueCoverBleeds() throws {
        let d = TemporaryDirectory("press-issue")
        let samples = repoPath("samples")
        let pdf = d.file("issue.pdf")
        let r = run(["build", samples + "/issue/issue.json", "--root", samples, "--press", "-o", pdf, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(tool("qpdf", ["--check", pdf]).status == 0)
        #expect(tool("pdfinfo", [pdf]).output.contains("PDF subtype:    PDF/X-4"))
        let png = d.file("cover.png")
        let p = run(["preview", samples + "/issue/issue.json", "--root", samples, "--press", "--dpi", "72", "-o", png, "-q"])
        try #require(p.status == 0, "\(p.stderr)")
        for px in [try render(pdf, dpi: 72, in: d), try PNGPixels(path: png)] {
            let edge = Int((10 * Self.mm).rounded()) + 1, w = px.width, h = px.height
            for (x, y) in [(edge, edge), (w - edge - 1, edge), (edge, h - edge - 1), (w - edge - 1, h - edge - 1)] {
                let c = px[x, y]
                #expect(!(c.r > 240 && c.g > 240 && c.b > 240), "paper at \(x),\(y): \(c)")
            }
            #expect(px[edge - 4, px.height / 3] == PNGPixels.Pixel(255, 255, 255))
        }
    }

    // The print section changes nothing without --press: the same bytes as without it.
    @Test func withoutPressNothingChanges() throws {
        let d = folder()
        let a = d.file("a.pdf"), b = d.file("b.pdf")
        let base = ["build", d.file("in.txt"), "-t", d.file("t.json"), "-q"]
        #expect(run(base + ["-o", a]).status == 0)
        #expect(run(base + ["-o", b, "--set", "print.bleed=5mm", "--set", "print.marks=crop"]).status == 0)
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        let info = tool("pdfinfo", [a]).output
        #expect(info.contains("Page size:       283.465 x 226.772 pts") && !info.contains("PDF/X"), "\(info)")
    }
}

/// The text of each element of an XMP packet, by qualified name (the last of a name wins),
/// read with Foundation's XML parser: a packet that is not well-formed XML throws.
final class XMPFields: NSObject, XMLParserDelegate {
    var fields: [String: String] = [:]
    private var text = ""

    init(_ data: Data) throws {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    func parser(_ p: XMLParser, didStartElement e: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
        text = ""
    }
    func parser(_ p: XMLParser, foundCharacters string: String) { text += string }
    func parser(_ p: XMLParser, didEndElement e: String, namespaceURI: String?, qualifiedName: String?) {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !t.isEmpty { fields[qualifiedName ?? e] = t }
        text = ""
    }
}
