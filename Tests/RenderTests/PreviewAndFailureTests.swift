import CCairo
import Foundation
import TestSupport
import Testing

@testable import GalleyRender

/// Renders page 1 of `text` at `dpi` and reads the PNG back.
private func preview(_ text: String, dpi: Int = 72, _ args: [String] = []) throws -> PNGPixels {
    let dir = TemporaryDirectory("render")
    dir.write("t.txt", text)
    let r = run(["preview", dir.file("t.txt"), "-o", dir.file("p.png"), "--dpi", "\(dpi)", "-q"] + args)
    #expect(r.status == 0, "\(r.stderr)")
    return try PNGPixels(path: dir.file("p.png"))
}

private func isRed(_ p: PNGPixels.Pixel) -> Bool { p.r > 200 && p.g < 60 && p.b < 60 }
private func isBlue(_ p: PNGPixels.Pixel) -> Bool { p.b > 200 && p.r < 60 && p.g < 60 }
private func isDark(_ p: PNGPixels.Pixel) -> Bool { p.r < 60 && p.g < 60 && p.b < 60 }

/// A corrupt PNG whose header Galley accepts (IHDR … IEND) but whose pixels cannot be decoded:
/// the build fails only while drawing, after pages have been started.
private let corruptPNG: Data = {
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let n = body.count
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + body + [
            0, 0, 0, 0,
        ]
    }
    let ihdr: [UInt8] = [0, 0, 0, 10, 0, 0, 0, 10, 8, 2, 0, 0, 0]
    return Data(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", Array("garbage!garbage!".utf8))
            + chunk("IEND", []))
}()

// MARK: - PNG previews

@Suite struct PreviewTests {
    // At 72 dpi an A4 page is 595 × 842 pixels, and the file says 72 dpi.
    @Test func size72() throws {
        let png = try preview("x", dpi: 72)
        #expect(png.width == 595 && png.height == 842)
        #expect(abs((png.dpi ?? 0) - 72) < 0.05)
    }

    // At 144 dpi it is 1191 × 1684.
    @Test func size144() throws {
        let png = try preview("x", dpi: 144)
        #expect(png.width == 1191 && png.height == 1684)
        #expect(abs((png.dpi ?? 0) - 144) < 0.05)
    }

    // A resolution that would make a page of more than 40 million pixels is refused before
    // drawing, saying the highest that fits; nothing is written. The highest that fits works.
    @Test func tooManyPixels() throws {
        let dir = TemporaryDirectory("render")
        let r = run(["preview", "-", "--dpi", "1500", "-o", dir.file("p.png")], stdin: Array("x".utf8))
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "galley: error: a 12402×17539 pixel page is over the preview's limit of 40 million pixels (267 MiB); use --dpi 643 or less\n"
        )
        #expect(dir.contents.isEmpty)
        let ok = run(["preview", "-", "--dpi", "643", "-o", dir.file("p.png")], stdin: Array("x".utf8))
        #expect(ok.status == 0)
    }

    // The preview is on white: the corners are white. A page with no colour is written grey,
    // one with colour RGB.
    @Test func whiteBackground() throws {
        let png = try preview("x")
        #expect(png.channels == 1)
        #expect(try preview("<font color=\"red\">x</font>").channels == 3)
        #expect(png[0, 0] == PNGPixels.Pixel(255, 255, 255) && png[594, 841] == PNGPixels.Pixel(255, 255, 255))
    }

    // A red 40 pt block gives red pixels, and no other text is drawn dark.
    @Test func fillColour() throws {
        let png = try preview("<font color=\"red\" size=\"40\">MMMM WWWW</font>")
        #expect(png.count(where: isRed) > 500)
        #expect(png.count(where: isBlue) == 0)
    }

    // Plain text is black: dark pixels, no red.
    @Test func defaultColourIsBlack() throws {
        let png = try preview("<font size=\"40\">MMMM</font>")
        #expect(png.count(where: isDark) > 500)
        #expect(png.count(where: isRed) == 0)
    }

    // A hollow blue stroke (positive width) gives blue pixels and no filled glyphs.
    @Test func hollowStroke() throws {
        let png = try preview("<font size=\"60\" strokeColor=\"blue\" strokeWidth=\"6\">MMMM</font>")
        #expect(png.count(where: isBlue) > 300)
        #expect(png.count(where: isDark) == 0)
    }

    // A negative width fills red and outlines blue: both colours present.
    @Test func fillAndStroke() throws {
        let png = try preview("<font size=\"60\" color=\"red\" strokeColor=\"blue\" strokeWidth=\"-4\">MMMM</font>")
        #expect(png.count(where: isBlue) > 300)
        #expect(png.count(where: isRed) > 100)
    }

    // A later page renders: page 2 of the article holds the chart image's colours.
    @Test func laterPage() throws {
        let dir = TemporaryDirectory("render")
        let r = run(["preview", repoPath("samples/article.txt"), "-p", "2", "-o", dir.file("p.png"), "--dpi", "30", "-q"])
        #expect(r.status == 0)
        let png = try PNGPixels(path: dir.file("p.png"))
        #expect(png.width == 248)
        #expect(png.count(where: { $0.r != $0.g || $0.g != $0.b }) > 100)
    }
}

// MARK: - Failures leave no trace

@Suite struct AtomicOutputTests {
    /// A folder with `t.txt` holding `text` and an existing `t.pdf` holding `old`.
    private func folder(_ text: String) -> TemporaryDirectory {
        let dir = TemporaryDirectory("render")
        dir.write("t.txt", text)
        dir.write("t.pdf", "old output")
        dir.write("corrupt.png", corruptPNG)
        return dir
    }

    // A bad colour: exit 1, the existing PDF kept byte for byte, nothing else written.
    @Test func badColourKeepsOldOutput() {
        let dir = folder("<font color=\"gren\">x")
        #expect(run(["build", dir.file("t.txt"), "-o", dir.file("t.pdf")]).status == 1)
        #expect(dir.read("t.pdf") == Data("old output".utf8))
        #expect(dir.contents == ["corrupt.png", "t.pdf", "t.txt"])
    }

    // A missing image: the same.
    @Test func missingImageKeepsOldOutput() {
        let dir = folder("a\n<img src=\"nope.png\">\nb")
        #expect(run(["build", dir.file("t.txt"), "-o", dir.file("t.pdf")]).status == 1)
        #expect(dir.read("t.pdf") == Data("old output".utf8))
        #expect(dir.contents == ["corrupt.png", "t.pdf", "t.txt"])
    }

    // An image that fails while drawing (after pages were started): exit 1, located error, old PDF kept, no temporary file left.
    @Test func failureWhileDrawing() {
        let dir = folder(String(repeating: "Filler paragraph.\n", count: 200) + "<img src=\"corrupt.png\">\nend")
        let r = run(["build", dir.file("t.txt"), "-o", dir.file("t.pdf"), "-q"])
        #expect(r.status == 1)
        // At the `src` value, the file the error is about, not the tag.
        #expect(r.stderr.hasPrefix("\(dir.file("t.txt")):201:11: error: cannot decode image 'corrupt.png': "), "\(r.stderr)")
        #expect(r.stderr.contains("\n" + String(repeating: " ", count: 10) + "^" + String(repeating: "~", count: 10) + "\n"), "\(r.stderr)")
        #expect(dir.read("t.pdf") == Data("old output".utf8))
        #expect(dir.contents == ["corrupt.png", "t.pdf", "t.txt"])
    }

    // The same failure in a preview keeps an existing PNG.
    @Test func previewFailureKeepsOldPNG() {
        let dir = folder("<img src=\"corrupt.png\">")
        dir.write("p.png", "old png")
        #expect(run(["preview", dir.file("t.txt"), "-o", dir.file("p.png"), "-q"]).status == 1)
        #expect(dir.read("p.png") == Data("old png".utf8))
        #expect(dir.contents == ["corrupt.png", "p.png", "t.pdf", "t.txt"])
    }

    // A page that does not exist leaves the existing PNG alone.
    @Test func missingPageKeepsOldPNG() {
        let dir = folder("x")
        dir.write("p.png", "old png")
        #expect(run(["preview", dir.file("t.txt"), "-p", "3", "-o", dir.file("p.png")]).status == 1)
        #expect(dir.read("p.png") == Data("old png".utf8))
    }

    // Success replaces the old file and leaves only it behind (no .tmp files).
    @Test func successLeavesNoTemporaryFiles() {
        let dir = folder("x")
        #expect(run(["build", dir.file("t.txt"), "-o", dir.file("t.pdf")]).status == 0)
        #expect(run(["preview", dir.file("t.txt"), "-o", dir.file("p.png")]).status == 0)
        #expect(dir.read("t.pdf")?.starts(with: Array("%PDF".utf8)) == true)
        #expect(dir.contents == ["corrupt.png", "p.png", "t.pdf", "t.txt"])
    }

    // An output in a folder that does not exist: refused as other outputs are (exit 2), before
    // the layout, and nothing created.
    @Test func missingOutputFolder() {
        let dir = folder("x")
        let target = dir.file("no/such/t.pdf")
        let r = run(["build", dir.file("t.txt"), "-o", target])
        #expect(r.status == 2)
        #expect(r.stderr == "galley build: error: cannot write the output '\(target)': no such folder '\(dir.file("no/such"))'\n")
        let png = run(["preview", dir.file("t.txt"), "-o", dir.file("no/p.png")])
        #expect(png.status == 2 && png.stderr.contains("no such folder"), "\(png.stderr)")
        #expect(dir.contents == ["corrupt.png", "t.pdf", "t.txt"])
    }

    // An output path that is a folder: a clear error, the folder untouched.
    @Test func outputIsAFolder() {
        let dir = folder("x")
        dir.write("out/keep", "k")
        let r = run(["build", dir.file("t.txt"), "-o", dir.file("out")])
        #expect(r.status == 2)
        #expect(r.stderr == "galley build: error: the output '\(dir.file("out"))' is a folder; name a file inside it with -o\n")
        #expect(dir.read("out/keep") == Data("k".utf8))
    }
}

/// A PDF Cairo could not finish says which part failed: only a write error blames the file.
@Suite struct FinishFailureTests {
    @Test func messagesNameThePart() {
        #expect(
            Export.finishFailure(CAIRO_STATUS_WRITE_ERROR, path: "a.pdf")
                == "cannot write 'a.pdf': the disk refused the data (full, or removed)")
        #expect(
            Export.finishFailure(CAIRO_STATUS_FREETYPE_ERROR, path: "a.pdf")
                == "cannot make 'a.pdf': FreeType could not read a font to embed it (a damaged or unsupported font file)")
        #expect(Export.finishFailure(CAIRO_STATUS_NO_MEMORY, path: "a.pdf") == "cannot make 'a.pdf': out of memory")
    }
}

/// librsvg's messages, said in a diagnostic's words.
@Suite struct SVGMessageTests {
    // libxml's domain and code, its "of data" and its trailing line and line break are
    // dropped; the line and column stay.
    @Test func libxmlsParseError() {
        let raw = "XML parse error: Error domain 1 code 77 on line 1 column 69 of data: Premature end of data in tag svg line 1\n"
        #expect(ImageStore.svgReason(raw) == "XML parse error: line 1, column 69: premature end of data in tag svg")
        #expect(ImageStore.svgReason("some other failure\n") == "some other failure")
    }
}
