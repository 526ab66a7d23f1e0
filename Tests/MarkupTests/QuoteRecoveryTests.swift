import GalleyMarkup
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

    // Values that end in '=' but are whole are left alone: a query string, a lone '='.
    @Test func wholeValuesEndingInEquals() {
        #expect(parse(#"<a href="https://x.org/?q=">x</a>"#).diagnostics.isEmpty)
        #expect(parse(#"<a href="a =">x</a>"#).diagnostics.isEmpty)
    }
}
