import Foundation
import TestSupport
import Testing

/// An SVG's own images that librsvg does not draw (missing, or outside the SVG's folder) are
/// said where the text names the SVG: the picture came out without them, and nothing said so.
@Suite struct SVGImageTests {
    @Test func anSVGsMissingImagesAreSaid() throws {
        let d = TemporaryDirectory("svg-images")
        d.write("pics/dot.png", try #require(FileManager.default.contents(atPath: repoPath("samples/images/chart.png"))))
        d.write("outside.png", try #require(FileManager.default.contents(atPath: repoPath("samples/images/chart.png"))))
        d.write(
            "pics/mixed.svg",
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="120">
              <image xlink:href="dot.png" width="50" height="50"/><image href="nothere.png" width="50" height="50"/>
              <image href="../outside.png" width="50" height="50"/><use href="#local"/>
            </svg>
            """)
        let text = d.write("t.txt", "Before.\n<img src=\"pics/mixed.svg\" width=\"200\">\nAfter.\n")
        let r = run(["build", text, "-o", d.file("t.pdf")])
        #expect(r.status == 0)
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(
            warnings == [
                "\(text):2:11: warning: image 'pics/mixed.svg' draws 'nothere.png', which is left out: it does not exist",
                "\(text):2:11: warning: image 'pics/mixed.svg' draws '../outside.png', which is left out: it is outside the SVG's folder, which librsvg does not read from",
            ], "\(r.stderr)")
    }

    // `check` decodes the images as drawing them would: an SVG that does not parse and a PNG
    // whose pixels stop short passed it (their headers are sound) and failed the build. Each
    // is said at its `src` value.
    @Test func checkFindsWhatDrawingWouldMeet() throws {
        let d = TemporaryDirectory("svg-check")
        let compass = try #require(FileManager.default.contents(atPath: repoPath("samples/images/compass.svg")))
        d.write("broken.svg", compass.prefix(200))
        // Ten rows of pixels for a header that promises forty.
        var png = [UInt8](PreflightTests.png(width: 10, height: 10))
        png.replaceSubrange(20..<24, with: PreflightTests.bigEndian(40))
        png.replaceSubrange(29..<33, with: PreflightTests.bigEndian(PreflightTests.crc32(Array(png[12..<29]))))
        d.write("short.png", Data(png))
        let text = d.write("t.txt", "Text.\n<img src=\"broken.svg\">\n<img src=\"short.png\">\n")
        let r = run(["check", text])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(text):2:11: error: cannot read SVG 'broken.svg': XML parse error"), "\(r.stderr)")
        #expect(r.stderr.contains("\(text):3:11: error: cannot decode image 'short.png'"), "\(r.stderr)")
        #expect(r.stderr.contains("t.txt: 1 page, 2 errors"), "\(r.stderr)")
    }

    // An SVG that makes librsvg abort (a Rust assertion on text at 1e30 pt) ended the whole
    // build, leaving a temporary file behind. It is drawn first in a process of its own, and
    // is then an error at its `src`, for `build` and `check` alike.
    @Test func anSVGThatAbortsLibrsvgIsAnError() {
        let d = TemporaryDirectory("svg-abort")
        d.write(
            "big.svg",
            #"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><text y="100" font-size="1e30">X</text></svg>"#)
        let text = d.write("t.txt", "Before.\n<img src=\"big.svg\" width=\"50%\">\n")
        for command in [["build", text, "-o", d.file("t.pdf")], ["check", text]] {
            let r = run(command)
            #expect(r.status == 1, "\(r.stderr)")
            #expect(r.stderr.contains("\(text):2:11: error: cannot draw SVG 'big.svg': librsvg fails on it"), "\(r.stderr)")
        }
        #expect(d.contents == ["big.svg", "t.txt"])
    }

    // librsvg decodes an SVG's own images whole, unchecked: a 20000-pixel-square PNG of 48 KB
    // drawn through an SVG took 3.3 GB. The limits hold for each, and for all together.
    @Test func anSVGsImagesKeepThePixelLimits() {
        let d = TemporaryDirectory("svg-pixels")
        // A header that says 20000 × 20000 (the pixels are never read).
        var png = [UInt8](PreflightTests.png(width: 1, height: 1))
        png.replaceSubrange(16..<24, with: PreflightTests.bigEndian(20000) + PreflightTests.bigEndian(20000))
        png.replaceSubrange(29..<33, with: PreflightTests.bigEndian(PreflightTests.crc32(Array(png[12..<29]))))
        d.write("huge.png", Data(png))
        d.write("small.png", Data(PreflightTests.png(width: 30, height: 30)))
        let image = { (f: String) in #"<image href="\#(f)" width="10" height="10"/>"# }
        let svg = { (body: String) in #"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">\#(body)</svg>"# }
        d.write("huge.svg", svg(image("huge.png")))
        d.write("pair.svg", svg(image("small.png") + image("pic/small.png")))
        d.write("pic/small.png", Data(PreflightTests.png(width: 30, height: 30)))
        let huge = d.write("h.txt", "<img src=\"huge.svg\">\n")
        var r = run(["check", huge])
        #expect(r.stderr.contains("cannot use image 'huge.svg': it draws 'huge.png': it has 20000×20000 pixels (400 megapixels)"), "\(r.stderr)")
        let pair = d.write("p.txt", "<img src=\"pair.svg\">\n")
        r = run(["check", pair, "--max-image-pixels", "1000"])
        #expect(
            r.stderr.contains("cannot use image 'pair.svg': the images it draws have 1800 pixels in all, more than the limit of 1000 pixels"),
            "\(r.stderr)")
        r = run(["check", pair, "--max-image-pixels", "2000"])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
