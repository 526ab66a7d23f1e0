import GalleyMarkup
import Testing

@Suite struct VocabularyTests {
    /// The standard vocabulary: every tag in order, font and img with their attributes, img void.
    @Test func standardTags() throws {
        let v = Vocabulary.standard
        #expect(
            v.tagNames == [
                "font", "img", "span", "b", "i", "u", "s", "sup", "sub", "a", "code", "social", "br", "p", "h1", "h2", "h3",
                "vertical", "columnbreak", "pagebreak", "meta", "pullquote", "aside",
            ])
        let font = try #require(v.spec("font"))
        #expect(font.attributes.isSuperset(of: ["color", "face", "size", "strokecolor", "strokewidth"]))
        #expect(!font.isVoid)
        let img = try #require(v.spec("IMG"))
        #expect(
            img.attributes == [
                "src", "width", "height", "float", "wrap", "margin", "caption", "shape", "inline", "span", "columns", "alt", "class",
                "bleed",
            ])
        #expect(img.isVoid)
        #expect(v.spec("blink") == nil)
    }

    /// font and span take the whole character vocabulary (lower-cased), and nothing else.
    @Test func characterAttributes() throws {
        let expected: Set<String> = [
            "face", "size", "weight", "style", "color", "background", "ligatures", "kern", "strikethrough",
            "strikethroughcolor", "underline", "underlinecolor", "strokecolor", "strokewidth", "shadow", "baseline",
            "obliqueness", "expansion", "dir", "features", "lang", "hyphenate",
        ]
        #expect(try #require(Vocabulary.standard.spec("font")).attributes == expected)
        // span also takes the class the social scanner gives emoticons.
        #expect(try #require(Vocabulary.standard.spec("span")).attributes == expected.union(["class"]))
    }

    /// p and the headings take the paragraph attributes; a takes href and class; vertical takes
    /// lang, height and tcy; short tags take none.
    @Test func otherAttributes() throws {
        let v = Vocabulary.standard
        let paragraph: Set<String> = ["align", "indent", "firstindent", "before", "after", "leading", "lineheight", "dir", "hyphenate", "span", "dropcap", "class", "lang"]
        for name in ["p", "h1", "h2", "h3"] { #expect(v.spec(name)?.attributes == paragraph, "\(name)") }
        #expect(v.spec("a")?.attributes == ["href", "class"])
        #expect(v.spec("vertical")?.attributes == ["lang", "height", "tcy"])
        for name in ["b", "i", "u", "s", "sup", "sub", "social", "br", "columnbreak", "pagebreak"] {
            #expect(v.spec(name)?.attributes == [], "\(name)")
        }
    }

    /// br, columnbreak, pagebreak and meta are void, like img; the containers are not.
    @Test func voidTags() {
        let v = Vocabulary.standard
        #expect(v.tagNames.filter { v.spec($0)!.isVoid } == ["img", "br", "columnbreak", "pagebreak", "meta"])
        #expect(v.spec("meta")?.attributes == ["title", "section", "issue"])
    }

    /// An end tag of a void tag is a warning; a misspelt short tag gets a suggestion.
    @Test func voidEndTagAndSuggestion() {
        #expect(
            rendered("a</br><spn>b")
                == lines(
                    """
                    t.txt:1:2: warning: <br> never has an end tag; </br> is ignored
                    a</br><spn>b
                     ^~~~~
                    t.txt:1:7: warning: unknown tag <spn>; it is ignored and its text kept; did you mean <span>?
                    a</br><spn>b
                          ^~~~
                    """))
    }

    /// Unknown attributes on the new tags are suggested from their own lists.
    @Test func attributeSuggestions() {
        #expect(
            rendered("<p algin=center><span undreline=single>")
                == lines(
                    """
                    t.txt:1:4: warning: unknown attribute 'algin' on <p>; did you mean 'align'?
                    <p algin=center><span undreline=single>
                       ^~~~~
                    t.txt:1:23: warning: unknown attribute 'undreline' on <span>; did you mean 'underline'?
                    <p algin=center><span undreline=single>
                                          ^~~~~~~~~
                    """))
    }

    /// Specs are normalised to lower case, so lookups are case-insensitive both ways.
    @Test func specsAreLowerCased() {
        let v = Vocabulary([.tag("Span", "Class")])
        #expect(v.tagNames == ["span"])
        #expect(v.spec("SPAN")?.attributes == ["class"])
    }

    /// Adding a tag is one line, and the parser then accepts it.
    @Test func addingATag() {
        let v = Vocabulary([.tag("font")]).adding(.tag("b")).adding(.void("br"))
        #expect(v.tagNames == ["font", "b", "br"])
        let doc = MarkupParser.parse(source("<b>x</b><br/>"), vocabulary: v)
        #expect(doc.diagnostics.isEmpty)
        #expect(
            dump(doc.nodes)
                == lines(
                    """
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
