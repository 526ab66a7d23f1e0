import Foundation
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

/// The page colour (`page.color`): filled on every page of the PDF and under the PNG preview.
@Suite struct PaperTests {
    /// Builds `text` with `args` to a PDF and renders its `page` with `pdftocairo -transp`
    /// (a page without paper stays transparent), returning those pixels.
    private func pdfPage(_ dir: TemporaryDirectory, _ args: [String], page: Int = 1) throws -> PNGPixels {
        let r = run(["build", dir.file("t.txt"), "-o", dir.file("t.pdf"), "-q"] + args)
        #expect(r.status == 0, "\(r.stderr)")
        let p = tool(
            "pdftocairo",
            ["-png", "-transp", "-r", "36", "-f", "\(page)", "-l", "\(page)", "-singlefile", dir.file("t.pdf"), dir.file("p")])
        #expect(p.status == 0, "\(p.output)")
        return try PNGPixels(path: dir.file("p.png"))
    }

    private func text(_ dir: TemporaryDirectory) {
        dir.write("t.txt", String(repeating: "Words on paper, set in columns.\n", count: 300))
    }

    // The default paper is white and opaque on every page; the text is drawn on it.
    @Test func whiteByDefault() throws {
        let dir = TemporaryDirectory("paper")
        text(dir)
        for page in [1, 2] {
            let pixels = try pdfPage(dir, [], page: page)
            #expect(pixels[2, 2] == .init(255, 255, 255, 255), "page \(page)")
        }
        #expect(words(tool("pdftotext", [dir.file("t.pdf"), "-"]).output).prefix(3) == ["Words", "on", "paper,"])
    }

    // A coloured paper fills the whole page, margins included, in the PDF and in the preview.
    @Test func colouredPaperInPDFAndPNG() throws {
        let dir = TemporaryDirectory("paper")
        text(dir)
        let paper = PNGPixels.Pixel(0xf4, 0xec, 0xd8)
        let pdf = try pdfPage(dir, ["--set", "page.color=#f4ecd8"])
        let r = run(["preview", dir.file("t.txt"), "--set", "page.color=#f4ecd8", "--dpi", "36", "-o", dir.file("v.png"), "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNGPixels(path: dir.file("v.png"))
        for (x, y) in [(1, 1), (pdf.width - 2, pdf.height - 2), (pdf.width / 2, 3)] {
            #expect(pdf[x, y] == paper, "pdf (\(x), \(y))")
            #expect(png[x, y] == paper, "png (\(x), \(y))")
        }
    }

    // `none` (or a colour with no opacity) draws no paper: the PDF's pages are transparent,
    // and the preview is on white.
    @Test(arguments: ["none", "clear", "#ff000000"]) func noPaper(value: String) throws {
        let dir = TemporaryDirectory("paper")
        text(dir)
        let pdf = try pdfPage(dir, ["--set", "page.color=\(value)"])
        #expect(pdf[2, 2].a == 0)
        let r = run(["preview", dir.file("t.txt"), "--set", "page.color=\(value)", "--dpi", "36", "-o", dir.file("v.png"), "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGPixels(path: dir.file("v.png"))[2, 2] == .init(255, 255, 255))
    }

    // Template files take the key, write it back, and refuse a bad colour where it is written.
    @Test func templateKey() throws {
        let dir = TemporaryDirectory("paper")
        dir.write("t.json", "{\n  \"page\": {\"size\": \"A5\", \"color\": \"ivory\"}\n}\n")
        let show = run(["templates", "--show", dir.file("t.json")])
        #expect(show.output.contains(#""page": {"size": "A5", "orientation": "portrait", "color": "ivory"},"#), "\(show.output)")
        dir.write("n.json", #"{"page": {"color": "none"}}"#)
        #expect(run(["templates", "--show", dir.file("n.json")]).output.contains(#""color": "none"}"#))
        dir.write("b.json", "{\n  \"page\": {\"color\": \"ivroy\"}\n}\n")
        text(dir)
        let bad = run(["build", dir.file("t.txt"), "--template", dir.file("b.json"), "-o", dir.file("t.pdf"), "-q"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("b.json:2:21: error: key 'page.color': unknown colour 'ivroy'; did you mean 'ivory'?"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("t.pdf")))
    }
}
