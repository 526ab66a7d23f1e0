import GalleyMarkup
import Testing

@Suite struct VocabularyTests {
    /// The standard vocabulary: font and img with their attributes, img void.
    @Test func standardTags() throws {
        let v = Vocabulary.standard
        #expect(v.tagNames == ["font", "img"])
        let font = try #require(v.spec("font"))
        #expect(font.attributes == ["color", "face", "size", "strokecolor", "strokewidth"])
        #expect(!font.isVoid)
        let img = try #require(v.spec("IMG"))
        #expect(img.attributes == ["src", "width", "height"])
        #expect(img.isVoid)
        #expect(v.spec("blink") == nil)
    }

    /// Specs are normalised to lower case, so lookups are case-insensitive both ways.
    @Test func specsAreLowerCased() {
        let v = Vocabulary([.tag("Span", "Class")])
        #expect(v.tagNames == ["span"])
        #expect(v.spec("SPAN")?.attributes == ["class"])
    }

    /// Adding a tag is one line, and the parser then accepts it.
    @Test func addingATag() {
        let v = Vocabulary.standard.adding(.tag("b")).adding(.void("br"))
        #expect(v.tagNames == ["font", "img", "b", "br"])
        let doc = MarkupParser.parse(source("<b>x</b><br/>"), vocabulary: v)
        #expect(doc.diagnostics.isEmpty)
        #expect(dump(doc.nodes) == lines("""
            1:1 <b>
            1:4 text "x"
            1:5 </b>
            1:9 <br/>
            """))
    }

    /// A later spec with the same name replaces the earlier one but keeps its place.
    @Test func replacingATag() {
        let v = Vocabulary([.tag("font", "color"), .void("img"), .tag("FONT", "face")])
        #expect(v.tagNames == ["font", "img"])
        #expect(v.spec("font")?.attributes == ["face"])
    }
}
