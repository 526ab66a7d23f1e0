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

    @Test func entities() {
        #expect(SVGReferences.decodeEntities("a&lt;&#x41;&#66;&unknown;&") == "a<AB&unknown;&")
    }
}
