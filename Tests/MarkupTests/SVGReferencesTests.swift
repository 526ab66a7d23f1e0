import Foundation
import Testing

@testable import GalleyMarkup

// The attributes an SVG names other files by, and which of them are files.
@Suite struct SVGReferencesTests {
    @Test func hrefsOfEveryQuoteAndPrefix() {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
              <image href="pics/dot.png" width="10"/><image xlink:href = 'a&amp;b.png'/>
              <use href="#local"/><a data-href="x.png"/><use
                href="icons.svg#anchor"/>
            </svg>
            """
        #expect(SVGReferences.hrefs(in: Array(svg.utf8)) == ["pics/dot.png", "a&b.png", "#local", "icons.svg#anchor"])
    }

    @Test func onlyFilesArePaths() {
        #expect(SVGReferences.localPath("pics/dot.png") == "pics/dot.png")
        #expect(SVGReferences.localPath("icons.svg#anchor") == "icons.svg")
        #expect(SVGReferences.localPath("my%20pic.png") == "my pic.png")
        #expect(SVGReferences.localPath("file:///srv/pic.png") == "/srv/pic.png")
        for other in ["#local", "data:image/png;base64,AAAA", "https://example.com/a.png", ""] {
            #expect(SVGReferences.localPath(other) == nil, "\(other)")
        }
    }

    @Test func fontFamiliesOfAttributesAndStyles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("svg-fonts-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = dir.appendingPathComponent("t.svg").path
        try """
        <svg><style>text { font-family : "Liberation Serif", serif; }</style>
        <text font-family="DejaVu Sans">a</text><text style="fill: red;font-family:'Noto Sans' ,sans-serif">b</text>
        <text font-family='DejaVu Sans'>c</text></svg>
        """.write(toFile: svg, atomically: true, encoding: .utf8)
        #expect(SVGReferences.fontFamilies(of: svg) == ["Liberation Serif", "DejaVu Sans", "Noto Sans"])
    }

    @Test func entities() {
        #expect(SVGReferences.decodeEntities("a&lt;&#x41;&#66;&unknown;&") == "a<AB&unknown;&")
    }
}
