import GalleyMarkup
import Testing

/// Every diagnostic the parser gives, with its exact rendered text and the recovery after it.
@Suite struct DiagnosticTests {
    // MARK: Unterminated things

    /// End of input before `>`: the error is at the `<` and underlines `<font`.
    @Test func unterminatedTagAtEOF() {
        let doc = parse("x <font color=\"red\"")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:3: error: unterminated tag '<font'; expected '>'
                    x <font color="red"
                      ^~~~~
                    """))
        #expect(dump(doc.nodes) == lines(#"1:1 text "x ""#))
    }

    /// A tag's name alone at end of input is unterminated too.
    @Test func bareTagAtEOF() {
        #expect(
            rendered("<font")
                == lines(
                    """
                    t.txt:1:1: error: unterminated tag '<font'; expected '>'
                    <font
                    ^~~~~
                    """))
    }

    /// End of input right after `=` is an unterminated tag, not a missing value.
    @Test func unterminatedAfterEquals() {
        #expect(
            rendered("<img src=")
                == lines(
                    """
                    t.txt:1:1: error: unterminated tag '<img'; expected '>'
                    <img src=
                    ^~~~
                    """))
    }

    /// An end tag can be unterminated as well.
    @Test func unterminatedEndTag() {
        #expect(
            rendered("a</font")
                == lines(
                    """
                    t.txt:1:2: error: unterminated tag '</font'; expected '>'
                    a</font
                     ^~~~~~
                    """))
    }

    /// A new tag before the `>`: error at the first `<`, parsing resumes at the second.
    @Test func newTagCutsTagShort() {
        let doc = parse("<font color=\"red\" <img src=\"a.png\">x")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:1: error: unterminated tag '<font'; expected '>'
                    <font color="red" <img src="a.png">x
                    ^~~~~
                    """))
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:19 <img src="a.png">
                    1:36 text "x"
                    """))
    }

    /// An end tag, or an unquoted value running into `</`, also cuts a tag short.
    @Test func endTagCutsTagShort() {
        let doc = parse("<font color=red</font>")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:1: error: unterminated tag '<font'; expected '>'
                    <font color=red</font>
                    ^~~~~
                    """))
        #expect(dump(doc.nodes) == lines("1:16 </font>"))
    }

    /// Inside quotes a `<` is just part of the value.
    @Test func lessThanInsideQuotes() {
        let doc = parse("<font face=\"<b>\">")
        #expect(doc.diagnostics.isEmpty)
        #expect(dump(doc.nodes) == lines(#"1:1 <font face="<b>">"#))
    }

    /// End of input inside a quoted value: the error is at the quote.
    @Test func unterminatedQuotedValue() {
        let doc = parse("<font color=\"red>Hello\nworld")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:13: error: unterminated attribute value; the quote opened here is never closed
                    <font color="red>Hello
                                ^
                    """))
        #expect(doc.nodes.isEmpty)
    }

    /// End of input inside a comment: the error is at `<!--`; the text before survives.
    @Test func unterminatedComment() {
        let doc = parse("a<!-- x\ny")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:2: error: unterminated comment; expected '-->'
                    a<!-- x
                     ^~~~
                    """))
        #expect(dump(doc.nodes) == lines(#"1:1 text "a""#))
    }

    // MARK: Malformed attributes

    /// `=` with no name before it: error over `="red"`, the tag is still emitted.
    @Test func equalsWithoutName() {
        let doc = parse("<font =\"red\">x")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:7: error: expected an attribute name before '='
                    <font ="red">x
                          ^~~~~~
                    """))
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 <font>
                    1:14 text "x"
                    """))
    }

    /// A `<` that began no tag (`x<y, 3<4 <3`): one error for the tag, not one for each stray
    /// character after it (there were five).
    @Test func oneStrayErrorATag() {
        let doc = parse("x<y, 3<4 <3 love. <-- arrow --> after")
        let errors = doc.diagnostics.all.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(rendered(doc.diagnostics.all, doc.source))")
        #expect(errors.first?.message == "unexpected character ',' in tag <y>; expected an attribute name or '>'")
    }

    /// Stray characters: error over the run, then the next attribute is read normally.
    @Test func strayCharacters() {
        let doc = parse("<font @@ color=\"red\">x")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:7: error: unexpected character '@' in tag <font>; expected an attribute name or '>'
                    <font @@ color="red">x
                          ^~
                    """))
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 <font color="red">
                    1:22 text "x"
                    """))
    }

    /// A quoted value with no name is skipped whole, spaces inside it included.
    @Test func quotedValueWithoutName() {
        let doc = parse("<font \"dark red\" face=a>")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:7: error: unexpected quoted value in tag <font>; expected an attribute name
                    <font "dark red" face=a>
                          ^~~~~~~~~~
                    """))
        #expect(dump(doc.nodes) == lines(#"1:1 <font face="a">"#))
    }

    /// A stray quote that never closes reports both problems and ends the parse.
    @Test func strayUnclosedQuote() {
        let doc = parse("<font \"red>x")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:7: error: unexpected quoted value in tag <font>; expected an attribute name
                    <font "red>x
                          ^
                    t.txt:1:7: error: unterminated attribute value; the quote opened here is never closed
                    <font "red>x
                          ^
                    """))
        #expect(doc.nodes.isEmpty)
    }

    /// A `/` that is not just before `>`.
    @Test func straySlash() {
        let doc = parse("<img src=\"a\" / >")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:14: error: unexpected '/' in tag <img>; '/' may only come just before '>'
                    <img src="a" / >
                                 ^
                    """))
        #expect(dump(doc.nodes) == lines(#"1:1 <img src="a">"#))
    }

    /// `name=` followed by `>`: the value is missing; the attribute is dropped.
    @Test func missingValue() {
        let doc = parse("<font color= >x")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:12: error: expected a value after '=' for attribute 'color'
                    <font color= >x
                               ^
                    """))
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 <font>
                    1:15 text "x"
                    """))
    }

    /// A wide stray character: the caret and tildes cover two cells per CJK character.
    @Test func strayCJKCharacters() {
        #expect(
            rendered("<font 中文>")
                == lines(
                    """
                    t.txt:1:7: error: unexpected character '中' in tag <font>; expected an attribute name or '>'
                    <font 中文>
                          ^~~~
                    """))
    }

    /// Emoji a terminal draws as one glyph (a family joined by zero-width joiners, a flag of
    /// two regional indicators, a skin tone) are two cells each before the caret, not the sum
    /// of their parts: the caret stood six cells too far right.
    @Test func caretAfterEmojiSequences() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let text = family + "\u{1F1EF}\u{1F1F5}\u{1F44D}\u{1F3FD} <font 中>"
        let caretLine = rendered(text).split(separator: "\n")[2]
        #expect(caretLine == String(repeating: " ", count: 2 + 2 + 2 + 1 + 6) + "^~", "\(rendered(text))")
    }

    /// A message quoting a huge value keeps its two ends around an ellipsis, as the source
    /// line shown under it does: it repeated the whole value.
    @Test func aHugeValueIsCutInTheMessage() {
        let d = Diagnostic.error("cannot use image '" + String(repeating: "x", count: 100_000) + "': no such file", file: "t.txt")
        let shown = DiagnosticRenderer.render(d, sources: { _ in nil })
        #expect(shown.count < 500 && shown.contains("…") && shown.hasSuffix("': no such file\n"), "\(shown.prefix(100))")
    }

    /// An invisible stray character is named by its code point.
    @Test func strayInvisibleCharacter() {
        #expect(
            rendered("<font \u{A0}>")
                == lines(
                    """
                    t.txt:1:7: error: unexpected character U+00A0 in tag <font>; expected an attribute name or '>'
                    <font \u{A0}>
                          ^
                    """))
    }

    // MARK: Vocabulary

    /// An unknown start tag is dropped with its text kept; its end tag is dropped silently.
    @Test func unknownTag() {
        let doc = parse("<blink>x</blink>")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:1: warning: unknown tag <blink>; it is ignored and its text kept
                    <blink>x</blink>
                    ^~~~~~
                    """))
        #expect(dump(doc.nodes) == lines(#"1:8 text "x""#))
    }

    /// A misspelt tag gets a suggestion; its (equally misspelt) end tag is still silent.
    @Test func unknownTagWithSuggestion() {
        let doc = parse("<FNOT color=\"red\">x</fnot>")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:1: warning: unknown tag <FNOT>; it is ignored and its text kept; did you mean <font>?
                    <FNOT color="red">x</fnot>
                    ^~~~~
                    """))
        #expect(dump(doc.nodes) == lines(#"1:19 text "x""#))
    }

    /// An end tag with no known name and no start tag is reported the same way.
    @Test func unknownEndTag() {
        let doc = parse("x</blink> </fnot>")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:2: warning: unknown tag </blink>; it is ignored
                    x</blink> </fnot>
                     ^~~~~~~
                    t.txt:1:11: warning: unknown tag </fnot>; it is ignored; did you mean </font>?
                    x</blink> </fnot>
                              ^~~~~~
                    """))
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 text "x"
                    1:10 text " "
                    """))
    }

    /// Unknown attributes are dropped, with a suggestion only when one is close.
    @Test func unknownAttributes() {
        let doc = parse("<font colour=\"red\" glow=bold face=x>")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:7: warning: unknown attribute 'colour' on <font>; did you mean 'color'?
                    <font colour="red" glow=bold face=x>
                          ^~~~~~
                    t.txt:1:20: warning: unknown attribute 'glow' on <font>
                    <font colour="red" glow=bold face=x>
                                       ^~~~
                    """))
        #expect(dump(doc.nodes) == lines(#"1:1 <font face="x">"#))
    }

    /// A repeated attribute: warning at the repeat; both stay, and attribute() gives the last.
    @Test func repeatedAttribute() {
        let doc = parse("<font color=\"red\" COLOR=\"blue\">")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:19: warning: attribute 'COLOR' repeated; the last one is used
                    <font color="red" COLOR="blue">
                                      ^~~~~
                    """))
        #expect(dump(doc.nodes) == lines(#"1:1 <font color="red" COLOR="blue">"#))
        if case .startTag(let tag) = doc.nodes.first {
            #expect(tag.attribute("color")?.value == "blue")
        }
    }

    /// An end tag for a void tag is reported and dropped.
    @Test func endTagForVoidTag() {
        let doc = parse("<img src=\"a.png\"></IMG>")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:18: warning: <img> never has an end tag; </IMG> is ignored
                    <img src="a.png"></IMG>
                                     ^~~~~~
                    """))
        #expect(dump(doc.nodes) == lines(#"1:1 <img src="a.png">"#))
    }

    /// Attributes on an end tag are reported; the end tag is kept.
    @Test func attributesOnEndTag() {
        let doc = parse("x</font color=\"red\">")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:9: warning: attributes on end tag </font> are ignored
                    x</font color="red">
                            ^~~~~
                    """))
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 text "x"
                    1:2 </font>
                    """))
    }

    /// `</font/>`: the slash is reported over the whole end tag; the end tag is kept.
    @Test func slashOnEndTag() {
        let doc = parse("</font/>")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:1: warning: '/' in end tag </font> is ignored
                    </font/>
                    ^~~~~~~~
                    """))
        #expect(dump(doc.nodes) == lines("1:1 </font>"))
    }

    // MARK: Entities

    /// An unknown named entity is kept as written, merged with the text around it.
    @Test func unknownEntity() {
        let doc = parse("a &foo; b")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:3: warning: unknown entity '&foo;'; it is kept as written
                    a &foo; b
                      ^~~~~
                    """))
        #expect(dump(doc.nodes) == lines(#"1:1 text "a &foo; b""#))
    }

    /// A numeric reference written wrong is said and kept as written (it was kept unsaid), and
    /// DEL taken by reference is dropped and said, as the C0 controls are.
    @Test func malformedNumericReferences() {
        let doc = parse("a &#12a; b &#xZZ; c &#-5; d &#; e &#x7f; f &#65;")
        let said = doc.diagnostics.all.map(\.message)
        let malformed = ["&#12a;", "&#xZZ;", "&#-5;", "&#;"].map {
            "malformed character reference '\($0)' ('&#' and decimal digits, or '&#x' and hex digits); it is kept as written"
        }
        #expect(said == malformed + ["control character U+007F is ignored"], "\(said)")
        #expect(doc.diagnostics.all.map { $0.location?.column ?? 0 } == [3, 12, 21, 29, 35])
    }

    /// A misspelt entity gets a suggestion.
    @Test func unknownEntityWithSuggestion() {
        #expect(
            rendered("x&mdahs;")
                == lines(
                    """
                    t.txt:1:2: warning: unknown entity '&mdahs;'; it is kept as written; did you mean '&mdash;'?
                    x&mdahs;
                     ^~~~~~~
                    """))
    }

    /// References to 0, a surrogate or beyond U+10FFFF are errors, and dropped.
    @Test(arguments: ["&#xD800;", "&#0;", "&#x110000;", "&#99999999999999999999;", "&#xDFFF;"])
    func invalidReference(written: String) {
        let doc = parse("a" + written + "b")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:2: error: invalid character reference '\(written)'
                    a\(written)b
                     ^\(String(repeating: "~", count: written.count - 1))
                    """))
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:1 text "a"
                    1:\(2 + written.count) text "b"
                    """))
    }

    /// Entity problems inside attribute values are located inside the value.
    @Test func entityErrorsInValues() {
        let doc = parse("<font face=\"&bogus;\" color=&#0;>")
        #expect(
            rendered(doc.diagnostics.all, doc.source)
                == lines(
                    """
                    t.txt:1:13: warning: unknown entity '&bogus;'; it is kept as written
                    <font face="&bogus;" color=&#0;>
                                ^~~~~~~
                    t.txt:1:28: error: invalid character reference '&#0;'
                    <font face="&bogus;" color=&#0;>
                                               ^~~~
                    """))
        #expect(dump(doc.nodes) == lines(#"1:1 <font face="&bogus;" color="">"#))
    }

    // MARK: Control characters

    /// Rendered control-character warning (the source line shows the character escaped, never raw).
    @Test func controlCharacterRendered() {
        #expect(
            rendered("ab\u{7}c\u{7}")
                == lines(
                    #"""
                    t.txt:1:3: warning: control character U+0007 is ignored
                    ab\x07c\x07
                      ^~~~
                    """#))
    }

    /// Rendered U+FFFC warning.
    @Test func objectReplacementRendered() {
        #expect(
            rendered("\u{FFFC}")
                == lines(
                    """
                    t.txt:1:1: warning: character U+FFFC is reserved for embedded objects and is ignored
                    \u{FFFC}
                    ^
                    """))
    }

    // MARK: Placement

    /// The caret lines up under a CJK line and a tab: wide characters pad two spaces, tabs
    /// stay tabs.
    @Test func caretAfterCJKAndTab() {
        #expect(
            rendered("中文\t&foo;")
                == lines(
                    """
                    t.txt:1:4: warning: unknown entity '&foo;'; it is kept as written
                    中文\t&foo;
                        \t^~~~~
                    """))
    }

    /// Diagnostics come out in source order even when found out of order (vocabulary
    /// warnings are raised when the tag is complete).
    @Test func diagnosticsInSourceOrder() {
        let doc = parse("<blink @>x &zz;")
        #expect(doc.diagnostics.all.map { $0.location!.description } == ["1:1", "1:8", "1:12"])
        #expect(doc.diagnostics.all.map(\.severity) == [.warning, .error, .warning])
    }

    /// After a run of different errors, later well-formed markup still parses.
    @Test func recoveryAfterErrors() {
        let doc = parse("<font color=\"red\" <blink x</font>\n<font =1 colour=2>&#0;<img src=\"ok.png\">")
        #expect(
            doc.diagnostics.all.map(\.message) == [
                "unterminated tag '<font'; expected '>'",
                "unterminated tag '<blink'; expected '>'",
                "expected an attribute name before '='",
                "unknown attribute 'colour' on <font>; did you mean 'color'?",
                "invalid character reference '&#0;'",
            ])
        #expect(
            dump(doc.nodes)
                == lines(
                    """
                    1:27 </font>
                    1:34 newline
                    2:1 <font>
                    2:23 <img src="ok.png">
                    """))
    }

    /// Every diagnostic names the file it came from.
    @Test func diagnosticsNameTheFile() {
        let doc = MarkupParser.parse(SourceFile(path: "story/a.txt", text: "<x><font"))
        #expect(doc.diagnostics.all.count == 2)
        #expect(doc.diagnostics.all.allSatisfy { $0.file == "story/a.txt" })
        #expect(doc.diagnostics.hasErrors)
    }
}
