import GalleyMarkup
import Testing

@Suite struct ParserTests {
    // MARK: Basics

    /// The example from the brief: text, a start tag, an end tag, a newline, a self-closing tag.
    /// (The brief's listing puts "world" at 1:43; the 34-character tag from 1:8 ends at 1:41.)
    @Test func briefExample() {
        let doc = parse("Hello, <font color=\"red\" face=\"Palatino\">world</font>\n<img src=\"a.png\" width=\"20\"/>")
        #expect(doc.diagnostics.isEmpty)
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 text "Hello, "
                    1:8 <font color="red" face="Palatino">
                    1:42 text "world"
                    1:47 </font>
                    1:54 newline
                    2:1 <img src="a.png" width="20"/>
                    """))
    }

    /// A Core Text tutorial file: unclosed <font> state changes and <img>, parsed unchanged.
    @Test func tutorialStyle() {
        let doc = parse(
            """
            <font color="red" face="Palatino">Hello, world
            <img src="a.jpg" width="320" height="240">
            <font color="blue">More text
            """)
        #expect(doc.diagnostics.isEmpty)
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 <font color="red" face="Palatino">
                    1:35 text "Hello, world"
                    1:47 newline
                    2:1 <img src="a.jpg" width="320" height="240">
                    2:43 newline
                    3:1 <font color="blue">
                    3:20 text "More text"
                    """))
    }

    /// A file with a byte-order mark parses as if it had none: the first text is at 1:1, offset 0.
    @Test func byteOrderMarkIsInvisible() throws {
        let src = try SourceFile(path: "b.txt", bytes: [0xEF, 0xBB, 0xBF] + Array("<img src=a>x".utf8))
        #expect(
            dump(MarkupParser.parse(src).nodes)
                == lines(
                    """
                    1:1 <img src="a">
                    1:12 text "x"
                    """))
    }

    /// Empty input gives no nodes and no diagnostics.
    @Test func emptyInput() {
        let doc = parse("")
        #expect(doc.nodes.isEmpty)
        #expect(doc.diagnostics.isEmpty)
    }

    /// Columns count Unicode scalars: CJK, Hangul and emoji are one column per scalar.
    @Test func chineseAndEmojiColumns() {
        #expect(
            nodes("中文<font color=\"red\">😀 x\n한국어")
                == lines(
                    """
                    1:1 text "中文"
                    1:3 <font color="red">
                    1:21 text "😀 x"
                    1:24 newline
                    2:1 text "한국어"
                    """))
    }

    /// A ZWJ family emoji is five scalars, so the tag after it is at column 6 (the dump shows
    /// the invisible joiners).
    @Test func zwjSequenceCountsScalars() {
        #expect(
            nodes("👨\u{200D}👩\u{200D}👧<img src=a>")
                == lines(
                    #"""
                    1:1 text "👨\u{200D}👩\u{200D}👧"
                    1:6 <img src="a">
                    """#))
    }

    /// \r\n is one newline (located at the \r); a lone \r is a newline too.
    @Test func crlfAndLoneCR() {
        #expect(
            nodes("a\r\nb\rc\n")
                == lines(
                    """
                    1:1 text "a"
                    1:2 newline
                    2:1 text "b"
                    2:2 newline
                    3:1 text "c"
                    3:2 newline
                    """))
    }

    /// Blank lines give consecutive newline nodes.
    @Test func blankLines() {
        #expect(
            nodes("\n\n")
                == lines(
                    """
                    1:1 newline
                    2:1 newline
                    """))
    }

    /// Tabs stay inside text.
    @Test func tabsStayInText() {
        #expect(nodes("a\tb") == lines(#"1:1 text "a\tb""#))
    }

    /// A `<` not followed by a letter, `/letter` or `!--` is text, with no diagnostic.
    @Test func literalLessThan() {
        let doc = parse("a < b <3 </ x> <!x> <> <!- -> <")
        #expect(doc.diagnostics.isEmpty)
        #expect(dump(doc.nodes) == lines(#"1:1 text "a < b <3 </ x> <!x> <> <!- -> <""#))
    }

    // MARK: Tags and attributes

    /// Tag names are case-insensitive (node is lower-cased); attribute names keep their case.
    @Test func caseInsensitiveNames() {
        let doc = parse("<FONT Color=\"red\">x</Font>")
        #expect(doc.diagnostics.isEmpty)
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 <font Color="red">
                    1:19 text "x"
                    1:20 </font>
                    """))
    }

    /// Single and double quotes; the other quote is an ordinary character inside.
    @Test func bothQuoteKinds() {
        #expect(
            nodes("<font color='red' face=\"Pala'tino\" size='1\"2'>")
                == lines(
                    #"""
                    1:1 <font color="red" face="Pala'tino" size="1\"2">
                    """#))
    }

    /// Unquoted values run to whitespace, `>` or `/>`; a `/` inside them is kept.
    @Test func unquotedValues() {
        #expect(
            nodes("<img src=a/b.png width=20/><img src=c.png height=3 >")
                == lines(
                    """
                    1:1 <img src="a/b.png" width="20"/>
                    1:28 <img src="c.png" height="3">
                    """))
    }

    /// A valueless attribute has the value "" and its valueLocation just after the name.
    @Test func valuelessAttribute() throws {
        let v = Vocabulary.standard.adding(.void("img", "src", "inline"))
        let doc = MarkupParser.parse(source("<img inline src=x>"), vocabulary: v)
        #expect(doc.diagnostics.isEmpty)
        #expect(dump(doc.nodes) == lines(#"1:1 <img inline="" src="x">"#))
        guard case .startTag(let tag) = doc.nodes[0] else { Issue.record("not a tag"); return }
        let inline = try #require(tag.attribute("inline"))
        #expect(inline.nameLocation.description == "1:6")
        #expect(inline.valueLocation.description == "1:12")
    }

    /// nameLocation is the name; valueLocation the first character after the quote, or of an
    /// unquoted value.
    @Test func attributeLocations() throws {
        let doc = parse("<font\n  color = \"red\" face=Pal>")
        guard case .startTag(let tag) = doc.nodes[0] else { Issue.record("not a tag"); return }
        let color = try #require(tag.attribute("color"))
        #expect(color.nameLocation == SourceLocation(line: 2, column: 3, offset: 8))
        #expect(color.valueLocation == SourceLocation(line: 2, column: 12, offset: 17))
        let face = try #require(tag.attribute("face"))
        #expect(face.valueLocation.description == "2:22")
    }

    /// Whitespace, newlines included, is allowed around `=` and between attributes; the tag
    /// spans lines and the text after it is located on the right line.
    @Test func tagSpanningLines() {
        let doc = parse("<font\n  color =\n \"red\"\r\n\tface='P'\n>x")
        #expect(doc.diagnostics.isEmpty)
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 <font color="red" face="P">
                    5:2 text "x"
                    """))
    }

    /// `/>` marks a tag self-closing, with or without a space before it.
    @Test func selfClosing() {
        #expect(
            nodes("<font color=\"red\"/><font />")
                == lines(
                    """
                    1:1 <font color="red"/>
                    1:20 <font/>
                    """))
    }

    /// A void tag written without `/>` is not marked self-closing; the builder decides.
    @Test func voidWithoutSlash() {
        #expect(nodes("<img src=\"a\">") == lines(#"1:1 <img src="a">"#))
    }

    /// Attribute values keep spaces and newlines as written.
    @Test func valueKeepsNewlines() {
        #expect(nodes("<font face=\"Palatino\n Bold\">") == lines(#"1:1 <font face="Palatino\n Bold">"#))
    }

    /// Names may contain digits, '-', '_' and ':' (unknown here, so reported, but parsed whole).
    @Test func nameCharacters() {
        let v = Vocabulary([.tag("x-1_a:b", "data-x_1:y")])
        let doc = MarkupParser.parse(source("<X-1_a:b data-X_1:y=v></x-1_A:b>"), vocabulary: v)
        #expect(doc.diagnostics.isEmpty)
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 <x-1_a:b data-X_1:y="v">
                    1:23 </x-1_a:b>
                    """))
    }

    // MARK: Entities

    /// Every named entity decodes to its character, as a text node of its own.
    @Test(arguments: [
        ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"), ("&quot;", "\""), ("&apos;", "'"),
        ("&nbsp;", "\u{A0}"), ("&mdash;", "—"), ("&ndash;", "–"), ("&hellip;", "…"),
        ("&lsquo;", "‘"), ("&rsquo;", "’"), ("&ldquo;", "“"), ("&rdquo;", "”"),
        ("&shy;", "\u{AD}"), ("&copy;", "©"),
    ])
    func namedEntity(written: String, decoded: String) {
        let doc = parse(written)
        #expect(doc.diagnostics.isEmpty)
        #expect(doc.nodes == [.text(decoded, SourceLocation(line: 1, column: 1, offset: 0))])
    }

    /// Decoded entities split text so that each text node maps linearly onto columns.
    @Test func entitySplitsText() {
        #expect(
            nodes("a&lt;b&amp;&amp;c")
                == lines(
                    """
                    1:1 text "a"
                    1:2 text "<"
                    1:6 text "b"
                    1:7 text "&"
                    1:12 text "&"
                    1:17 text "c"
                    """))
    }

    /// Decimal and hexadecimal (x or X) character references, including astral ones.
    @Test func numericReferences() {
        #expect(
            nodes("&#65;&#x42;&#X43;&#x1F600;&#0000097;")
                == lines(
                    """
                    1:1 text "A"
                    1:6 text "B"
                    1:12 text "C"
                    1:18 text "😀"
                    1:27 text "a"
                    """))
    }

    /// Invisible decoded characters are escaped in dumps.
    @Test func invisibleEntitiesInDump() {
        #expect(
            nodes("&nbsp;&shy;&#9;")
                == lines(
                    #"""
                    1:1 text "\u{A0}"
                    1:7 text "\u{AD}"
                    1:12 text "\t"
                    """#))
    }

    /// An `&` that does not form a reference is literal and silent; `&#…;` that is no number
    /// is literal too, but said (`DiagnosticTests.malformedNumericReferences`).
    @Test func literalAmpersands() {
        let doc = parse("AT&T & co &amp &; &1; &")
        #expect(doc.diagnostics.isEmpty)
        #expect(dump(doc.nodes) == lines(#"1:1 text "AT&T & co &amp &; &1; &""#))
        let numeric = parse("co &#; &#x; &#12a; x")
        #expect(numeric.diagnostics.all.count == 3)
        #expect(dump(numeric.nodes) == lines(#"1:1 text "co &#; &#x; &#12a; x""#))
    }

    /// Entity names are case-sensitive, as in HTML: &AMP; is unknown (and kept).
    @Test func entityNamesAreCaseSensitive() {
        let doc = parse("&AMP;")
        #expect(dump(doc.nodes) == lines(#"1:1 text "&AMP;""#))
        #expect(doc.diagnostics.all.count == 1)
    }

    /// References are decoded inside attribute values, quoted or not.
    @Test func entitiesInValues() {
        let doc = parse("<font face=\"A&amp;B &#x263A; AT&T\" color=a&lt;b>")
        #expect(doc.diagnostics.isEmpty)
        #expect(dump(doc.nodes) == lines(#"1:1 <font face="A&B ☺ AT&T" color="a<b">"#))
    }

    /// A quote written as a reference does not end a quoted value.
    @Test func quoteEntityInsideQuotes() {
        #expect(nodes("<font face=\"a&quot;b\">") == lines(#"1:1 <font face="a\"b">"#))
    }

    // MARK: Comments

    /// A comment is dropped; the text around it becomes two nodes at their own columns.
    @Test func comment() {
        let doc = parse("a<!-- x <font> -->b")
        #expect(doc.diagnostics.isEmpty)
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 text "a"
                    1:19 text "b"
                    """))
    }

    /// A comment spanning lines drops its newlines; what follows is on the right line.
    @Test func multiLineComment() {
        #expect(
            nodes("a<!-- x\r\ny\n-->b\nc")
                == lines(
                    """
                    1:1 text "a"
                    3:4 text "b"
                    3:5 newline
                    4:1 text "c"
                    """))
    }

    /// `<!---->` is an empty comment; `--` inside a comment is fine; `<!-->` is not closed yet.
    @Test func commentEdges() {
        #expect(
            nodes("<!---->a<!-- -- -->b<!-->c-->d")
                == lines(
                    """
                    1:8 text "a"
                    1:20 text "b"
                    1:30 text "d"
                    """))
    }

    // MARK: Control characters

    /// C0 controls (not tab/newline) are dropped, splitting text; each is reported once.
    @Test func controlCharactersDropped() {
        let doc = parse("a\u{7}b\u{7}c\u{0}")
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 text "a"
                    1:3 text "b"
                    1:5 text "c"
                    """))
        #expect(
            doc.diagnostics.all.map(\.message) == [
                "control character U+0007 is ignored", "control character U+0000 is ignored",
            ])
    }

    /// U+FFFC is reserved for embedded objects: dropped with a warning.
    @Test func objectReplacementDropped() {
        let doc = parse("a\u{FFFC}b")
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 text "a"
                    1:3 text "b"
                    """))
        #expect(
            doc.diagnostics.all.map(\.message) == [
                "character U+FFFC is reserved for embedded objects and is ignored"
            ])
    }

    /// References to controls are dropped like the raw characters (a text node never holds a
    /// newline, so &#10; cannot become text); a tab reference is kept.
    @Test func controlReferencesDropped() {
        let doc = parse("a&#10;b&#x7;&#xFFFC;&#9;")
        #expect(
            dump(doc.nodes)
                == lines(
                    #"""
                    1:1 text "a"
                    1:7 text "b"
                    1:21 text "\t"
                    """#))
        #expect(
            doc.diagnostics.all.map(\.message) == [
                "control character U+000A is ignored", "control character U+0007 is ignored",
                "character U+FFFC is reserved for embedded objects and is ignored",
            ])
    }

    /// Controls inside an attribute value are dropped and reported too.
    @Test func controlInValue() {
        let doc = parse("<font face=\"a\u{1}b\">")
        #expect(dump(doc.nodes) == lines(#"1:1 <font face="ab">"#))
        #expect(doc.diagnostics.all.map(\.message) == ["control character U+0001 is ignored"])
    }

    // MARK: Consistency

    /// Every node's location agrees with SourceFile.location(atByte:), and every text node
    /// that is not a decoded entity is exactly the source text at its offset.
    @Test func locationsAgreeWithSourceFile() {
        let doc = parse("x中<font color=\"r\">a&amp;b\r\n😀<!--\n-->\tc\u{7}d<blink>e</font>&foo;\rz")
        for node in doc.nodes {
            #expect(doc.source.location(atByte: node.location.offset) == node.location)
            if case .text(let s, let loc) = node, s != "&" {
                let bytes = Array(doc.source.text.utf8)
                #expect(String(decoding: bytes[loc.offset..<(loc.offset + s.utf8.count)], as: UTF8.self) == s)
            }
        }
    }
}
