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
}
