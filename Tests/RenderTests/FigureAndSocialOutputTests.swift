import Foundation
import GalleyLayout
import GalleyMarkup
import GalleyRender
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// Images and text wrap through the CLI: the figures sample, what inspect lists, and bad inputs.
@Suite struct FigureOutputTests {
    // The figures sample builds cleanly to a valid PDF; inspect lists every image with its page,
    // rectangle, placement and the exclusion it made.
    @Test func figuresSample() throws {
        let dir = TemporaryDirectory("fig")
        let r = run(["build", repoPath("samples/figures.txt"), "-o", dir.file("f.pdf")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(tool("qpdf", ["--check", dir.file("f.pdf")]).status == 0)
        let json = run(["inspect", repoPath("samples/figures.txt"), "--json", "-q"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let pages = try #require(object["pages"] as? [[String: Any]])
        var found: [String: [String: Any]] = [:]
        for page in pages {
            let columns = page["columns"] as? [[String: Any]] ?? []
            for image in columns.flatMap({ $0["images"] as? [[String: Any]] ?? [] }) + (page["images"] as? [[String: Any]] ?? []) {
                found[image["src"] as! String] = image
            }
        }
        #expect(Set(found.keys) == ["images/chart.png", "images/badge.png", "images/harbour.jpg", "images/compass.svg", "images/tall.png"])
        #expect(found["images/harbour.jpg"]?["placement"] as? String == "span")
        #expect(found["images/badge.png"]?["placement"] as? String == "float-right")
        #expect(found["images/chart.png"]?["exclusion"] != nil)
        // (The inline compass stands in a line; the float one is listed.)
    }

    // An SVG stays vector in the PDF: no raster image is embedded for it.
    @Test func svgStaysVector() {
        let dir = TemporaryDirectory("svg")
        let input = dir.write(
            "s.txt", "<img src=\"\(repoPath("samples/images/compass.svg"))\" float=\"left\" width=\"120\">\nText beside the compass.\n")
        #expect(run(["build", input, "-o", dir.file("s.pdf"), "-q", "--root", repoPath("samples/images")]).status == 0)
        let list = tool("pdfimages", ["-list", dir.file("s.pdf")]).output
        #expect(list.split(separator: "\n").count == 2, "\(list)")  // the header only
        // In content order: the gaps of a justified line beside the float can mislead pdftotext's column guess.
        let words = tool("pdftotext", ["-raw", dir.file("s.pdf"), "-"]).output.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        #expect(words.contains("Text beside the compass."), "\(words)")
    }

    // Bad image inputs are located errors, and nothing is written.
    @Test(arguments: [
        ("truncated", "<img src=\"IMG\" float=\"left\">", "cannot use image"),
        ("not an image", "<img src=\"README.md\" float=\"left\">", "is not a PNG, JPEG or SVG image"),
        ("zero size", "<img src=\"images/chart.png\" float=\"left\" width=\"0\">", "width must be greater than 0"),
        ("negative size", "<img src=\"images/chart.png\" height=\"-5\">", "height must be greater than 0"),
        ("polygon", "<img src=\"images/badge.png\" float=\"left\" shape=\"polygon(1 2 3)\">", "malformed polygon"),
    ])
    func badImages(name: String, markup: String, message: String) throws {
        let dir = TemporaryDirectory("bad")
        // A truncated PNG: the first 100 bytes of a real one.
        let png = try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/chart.png")))
        _ = dir.write("cut.png", png.prefix(100))
        _ = dir.write("README.md", "not an image\n")
        let images = repoPath("samples/images")
        // A copy: a link would lead out of the input's folder, where images are not read.
        try FileManager.default.copyItem(atPath: images, toPath: dir.file("images"))
        let input = dir.write("t.txt", "Text.\n" + markup.replacingOccurrences(of: "IMG", with: "cut.png") + "\nMore.\n")
        let r = run(["build", input, "-o", dir.file("t.pdf")])
        #expect(r.status == 1, "\(name)")
        #expect(r.stderr.contains("t.txt:2:") && r.stderr.contains("error: ") && r.stderr.contains(message), "\(name): \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("t.pdf")), "\(name)")
    }
}

/// Social text and emoji in the outputs.
@Suite struct SocialOutputTests {
    // Every mention, topic and URL is one link annotation over its own glyphs, after many
    // emoticon codes earlier on the line (the replacement shifts nothing).
    @Test func linkRectangles() throws {
        let dir = TemporaryDirectory("social")
        let codes = String(repeating: "[哈哈]", count: 30)
        let input = dir.write("s.txt", "\(codes) 看 @张三 和 #中文排版# 以及 https://example.com/a 吧。\n")
        let r = run(["build", input, "-o", dir.file("s.pdf"), "--social", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let links = try PDFLinks(dir.file("s.pdf"))
        let uris = links.pages[0].map(\.uri)
        #expect(uris.count == 3, "\(uris)")
        #expect(uris.contains("https://example.com/a"))
        #expect(uris.contains { $0.hasPrefix("https://weibo.com/n/") })
        // Each link's rectangle covers text that reads as its own words.
        for a in links.pages[0] {
            let b = bounds(a.quads[0], pageHeight: links.pageHeight)
            let text = tool(
                "pdftotext",
                [
                    "-f", "1", "-l", "1", "-x", "\(Int(b.x + 1))", "-y", "\(Int(b.y + 1))", "-W", "\(max(1, Int(b.width - 2)))",
                    "-H", "\(max(1, Int(b.height - 2)))", dir.file("s.pdf"), "-",
                ]
            ).output.trimmingCharacters(in: .whitespacesAndNewlines)
            let expected = a.uri.hasPrefix("https://example") ? "example" : a.uri.contains("%23") ? "中文排版" : "张三"
            #expect(text.contains(expected), "\(a.uri): '\(text)'")
        }
    }

    // Colour emoji are embedded at no less than 300 ppi (Cairo alone gives 72).
    @Test func crispEmoji() {
        let dir = TemporaryDirectory("emoji")
        let input = dir.write("e.txt", "Emoji 😀 👍🏽 🇯🇵 👨‍👩‍👧 1️⃣ [心] here.\n")
        #expect(run(["build", input, "-o", dir.file("e.pdf"), "--social", "-q"]).status == 0)
        let rows = tool("pdfimages", ["-list", dir.file("e.pdf")]).output.split(separator: "\n").dropFirst(2)
        #expect(rows.count >= 12)  // six emoji, each an image and its mask
        for row in rows {
            let fields = row.split(separator: " ", omittingEmptySubsequences: true)
            #expect((Int(fields[12]) ?? 0) >= 300, "\(row)")
        }
    }

    // Emoji drawn as images are still text in the PDF: extracted where they stand, whole
    // (skin tones, flags, ZWJ families and keycaps included), and drawing nothing more.
    @Test func emojiExtractedAsText() throws {
        let dir = TemporaryDirectory("emoji")
        let input = dir.write("e.txt", "Emoji 😀 👍🏽 🇯🇵 👨‍👩‍👧 1️⃣ [心] here.\n")
        let pdf = dir.file("e.pdf")
        #expect(run(["build", input, "-o", pdf, "--social", "-q"]).status == 0)
        let text = tool("pdftotext", [pdf, "-"]).output
        let words = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        #expect(words == "Emoji 😀 👍🏽 🇯🇵 👨‍👩‍👧 1️⃣ ❤️ here. 1", "\(text)")  // 1: the folio
        let check = tool("qpdf", ["--check", pdf])
        #expect(check.status == 0, "\(check.output)")
    }

    // Emoji between ideographs copy with no space after them: the glyph carrying an emoji's
    // characters is as wide as the emoji, or a reader sees a gap and adds one.
    @Test func emojiCopyWithoutSpaces() throws {
        let dir = TemporaryDirectory("emoji")
        let input = dir.write("e.txt", "<p>中文😀中文👨‍👩‍👧中文🇨🇳中文👍🏽中文1️⃣中文。</p>\n")
        let pdf = dir.file("e.pdf")
        #expect(run(["build", input, "-o", pdf, "-t", "magazine-zh", "-q"]).status == 0)
        let text = tool("pdftotext", [pdf, "-"]).output
        #expect(text.hasPrefix("中文😀中文👨‍👩‍👧中文🇨🇳中文👍🏽中文1️⃣中文。\n"), "\(text)")
    }

    // A feed repeats its emoji and emoticons: each image is written once, every use is drawn,
    // and the PDF stays clean (Cairo 1.16 alone would repeat a key of the page's resources).
    @Test func repeatedImagesWrittenOnce() throws {
        let dir = TemporaryDirectory("repeat")
        try writeBadgePack(in: dir)
        let input = dir.write("e.txt", String(repeating: "[哈哈] [徽章] 😀 ", count: 40) + "\n")
        let pdf = dir.file("e.pdf")
        let r = run(["build", input, "-o", pdf, "--social", "--emoticons", dir.file("pack"), "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let check = tool("qpdf", ["--check", pdf])
        #expect(check.status == 0, "\(check.output)\(check.stderr)")
        // pdfimages lists the first use of each image on the page: 3 images (two emoji and the
        // badge), each with its mask, all distinct objects.
        let rows = tool("pdfimages", ["-list", pdf]).output.split(separator: "\n").dropFirst(2)
        let objects = Set(rows.map { $0.split(separator: " ", omittingEmptySubsequences: true)[10] })
        #expect(rows.count == 6 && objects.count == 3, "\(rows)")
        // Every use is drawn: the PDF's page has as much colour as the PNG preview (drawn
        // without any reuse) within 10 %.
        let preview = dir.file("e.png")
        let p = run(["preview", input, "--social", "--emoticons", dir.file("pack"), "--dpi", "72", "-o", preview, "-q"])
        #expect(p.status == 0, "\(p.stderr)")
        #expect(tool("pdftoppm", ["-r", "72", "-png", "-singlefile", pdf, dir.file("p")]).status == 0)
        func coloured(_ p: PNGPixels.Pixel) -> Bool { max(p.r, p.g, p.b) - min(p.r, p.g, p.b) > 60 }
        let inkPDF = try PNGPixels(path: dir.file("p.png")).count(where: coloured)
        let inkPNG = try PNGPixels(path: preview).count(where: coloured)
        #expect(inkPNG > 1000 && abs(inkPDF - inkPNG) * 10 < inkPNG, "pdf \(inkPDF) png \(inkPNG) coloured pixels")
    }

    // Emoticon images sit on the baseline at line height: a pack with a PNG emoticon.
    @Test func imageEmoticonAtLineHeight() throws {
        let dir = TemporaryDirectory("pack")
        try writeBadgePack(in: dir)
        let input = dir.write("e.txt", "A badge [徽章] in a line.\n")
        let r = run(["inspect", input, "--social", "--emoticons", dir.file("pack"), "--lines", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        // The line keeps the body pitch: the emoticon is as tall as the line's text.
        #expect(r.output.contains("h=12 @1:1 |A badge \u{FFFC} in a line.|"), "\(r.output)")
    }

    // A pack that points to a missing file is a located error naming the pack and the code.
    @Test func badPack() {
        let dir = TemporaryDirectory("badpack")
        try? FileManager.default.createDirectory(atPath: dir.file("pack"), withIntermediateDirectories: true)
        _ = dir.write("pack/pack.json", "{\"name\": \"mine\", \"emoticons\": {\"[doge]\": \"doge.svg\"}}\n")
        let input = dir.write("e.txt", "Hi [doge].\n")
        let r = run(["build", input, "--emoticons", dir.file("pack"), "-o", dir.file("e.pdf")])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("pack.json:1:") && r.stderr.contains("pack 'mine': [doge] points to 'doge.svg', which does not exist"),
            "\(r.stderr)")
    }
}

/// An emoticon pack in `dir`/pack: `[徽章]` is samples/images/badge.png.
private func writeBadgePack(in dir: TemporaryDirectory) throws {
    try FileManager.default.createDirectory(atPath: dir.file("pack"), withIntermediateDirectories: true)
    let png = try Data(contentsOf: URL(fileURLWithPath: repoPath("samples/images/badge.png")))
    _ = dir.write("pack/badge.png", png)
    _ = dir.write("pack/pack.json", #"{"name": "test", "emoticons": {"[徽章]": "badge.png"}}"#)
}
