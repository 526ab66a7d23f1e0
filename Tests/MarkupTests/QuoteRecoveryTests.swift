@testable import GalleyMarkup
import Testing

/// A missing closing quote is reported where it is, and the rest of the tag and the file are
/// read as written: the errors that follow are real ones.
@Suite struct QuoteRecoveryTests {
    // The new user's line: the value of src ran into width= and swallowed the file up to the
    // next quote, hiding the real error on the next line and inventing one at a correct link.
    @Test func valueRunsIntoTheNextAttribute() {
        let text = "<img src=\"images/harbour.jpg width=\"50%\">\n<font colr=\"red\">x</font>\nA <a href=\"https://x.org\">link</a>."
        let doc = parse(text)
        #expect(
            rendered(doc.diagnostics.errors, doc.source)
                == lines(
                    """
                    t.txt:1:10: error: missing closing quote: the value of 'src' opened here runs into 'width='
                    <img src="images/harbour.jpg width="50%">
                             ^
                    """))
        #expect(nodes(text).contains(#"src="images/harbour.jpg" width="50%""#), "\(nodes(text))")
        // The real mistake on the next line is still found.
        #expect(doc.diagnostics.warnings.map(\.message) == ["unknown attribute 'colr' on <font>; did you mean 'color'?"])
    }

    // Curly quotes, as a word processor's smart quotes turn straight ones, are read as quotes,
    // with a warning: `color=“red”` was an unknown colour '“red”', and `face=“Helvetica Neue”`
    // was cut at its space.
    @Test func curlyQuotes() {
        let text = "<font color=\u{201C}red\u{201D} face=\u{201D}Helvetica Neue\u{201D} size=\u{2018}18\u{2019}>x</font>"
        let doc = parse(text)
        #expect(nodes(text).contains(#"color="red" face="Helvetica Neue" size="18""#), "\(nodes(text))")
        #expect(doc.diagnostics.errors.isEmpty)
        #expect(doc.diagnostics.warnings.count == 3)
        #expect(doc.diagnostics.warnings.first?.message == "the value of 'color' is in curly quotes, as a word processor writes them; read as if in straight quotes")
        #expect(doc.diagnostics.warnings.first?.location?.column == 13)
    }

    // A '<' of prose that looks like a tag is set as text, with a warning: dropped as an
    // unknown tag, `press <Enter>` lost its word, and `if a<b and c>d` lost two and set the rest
    // of the text bold. A slip of a known tag (`<spn>`) and HTML's tags are still markup.
    @Test func proseThatLooksLikeTags() {
        let text = "press <Enter>, Array<Int>, x<y and y>z, if a<b and c>d, <spn>s</spn> <center>c</center>"
        let doc = parse(text)
        let kept = doc.nodes.compactMap { node -> String? in
            if case .text(let s, _) = node { return s }
            return nil
        }.joined()
        #expect(kept == "press <Enter>, Array<Int>, x<y and y>z, if a<b and c>d, s c", "\(kept)")
        #expect(doc.nodes.allSatisfy { if case .startTag = $0 { false } else { true } })
        let said = doc.diagnostics.warnings.map(\.message)
        #expect(said.filter { $0.hasSuffix("reads as prose, not a tag, and is set as text; write &lt; for a '<' that opens no tag") }.count == 4)
        #expect(said.contains("unknown tag <spn>; it is ignored and its text kept; did you mean <span>?"))
        #expect(said.contains("unknown tag <center>; it is ignored and its text kept"))
    }

    // A tag with a space after its '<' is text, as `5 < 6` is; that is said when what follows
    // is a tag Galley knows, so that the markup set in the text is not a surprise.
    @Test func aSpaceAfterTheOpeningBracket() {
        let doc = parse(#"< font color = "purple" >x and 5 < 6 and < b >"#)
        #expect(doc.nodes.allSatisfy { if case .startTag = $0 { false } else { true } })
        #expect(
            doc.diagnostics.warnings.map(\.message) == [
                "'<' and a space before 'font' make this text, not a <font> tag; write <font without the space",
                "'<' and a space before 'b' make this text, not a <b> tag; write <b without the space",
            ])
    }

    // HTML 4's named entities are decoded: `&eacute;` was "unknown, kept as written".
    @Test func htmlEntities() {
        let doc = parse("caf&eacute; &Uuml;ber &alpha;&rarr;&beta; &frac12;")
        let text = doc.nodes.compactMap { node -> String? in
            if case .text(let s, _) = node { return s }
            return nil
        }.joined()
        #expect(text == "café Über α→β ½")
        #expect(doc.diagnostics.isEmpty)
    }

    // Values that end in '=' but are whole are left alone: a query string, a lone '='.
    @Test func wholeValuesEndingInEquals() {
        #expect(parse(#"<a href="https://x.org/?q=">x</a>"#).diagnostics.isEmpty)
        #expect(parse(#"<a href="a =">x</a>"#).diagnostics.isEmpty)
    }
}

/// A file's control characters never reach the terminal raw through a diagnostic.
@Suite struct ControlCharacterTests {
    // An escape sequence in a value is shown as \x1b in the message and the source line, and
    // the caret still stands under the value.
    @Test func escapesInMessagesAndLines() {
        let source = SourceFile(path: "t.txt", text: "<font color=\"\u{1B}[31m\">x</font>")
        let d = Diagnostic.error("unknown colour '\u{1B}[31m'", file: "t.txt", at: SourceLocation(line: 1, column: 14, offset: 13), length: 5)
        let out = DiagnosticRenderer.render(d, sources: { _ in source })
        #expect(!out.unicodeScalars.contains { $0.value == 0x1B })
        #expect(
            out == """
                t.txt:1:14: error: unknown colour '\\x1b[31m'
                <font color="\\x1b[31m">x</font>
                             ^~~~~~~~
                
                """)
    }

    // Tabs stay tabs; DEL and C1 controls are escaped too.
    @Test func otherControls() {
        #expect(DiagnosticRenderer.escapingControls("a\tb\u{7F}c\u{9B}d\u{0}") == "a\tb\\x7fc\\x9bd\\x00")
    }
}
