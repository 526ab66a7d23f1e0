import GalleyMarkup
import Testing

@Suite struct DumpTests {
    let here = SourceLocation(line: 1, column: 1, offset: 0)

    /// Quotes, backslashes, tabs, CR/LF and NUL are escaped Swift-style.
    @Test func escapes() {
        #expect(dumpQuoted("a\"b\\c\td\r\n\0") == #""a\"b\\c\td\r\n\0""#)
    }

    /// Invisible scalars are written as \u{…} in upper-case hex; visible ones as they are.
    @Test func invisibleScalars() {
        #expect(dumpQuoted("\u{A0}\u{AD}\u{200B}\u{2028}\u{1B}\u{E000} é中😀") == #""\u{A0}\u{AD}\u{200B}\u{2028}\u{1B}\u{E000} é中😀""#)
    }

    /// Each node kind on its own line; attributes in source order with written names.
    @Test func allNodeKinds() {
        let tag = MarkupTag(
            name: "img",
            attributes: [
                MarkupAttribute(name: "SRC", value: "a b.png", nameLocation: here, valueLocation: here),
                MarkupAttribute(name: "alt", value: "say \"hi\"", nameLocation: here, valueLocation: here),
            ],
            location: SourceLocation(line: 2, column: 3, offset: 9), selfClosing: true)
        let out = dump([
            .text("x", here), .newline(SourceLocation(line: 1, column: 2, offset: 1)),
            .startTag(tag), .endTag("font", SourceLocation(line: 10, column: 20, offset: 99)),
        ])
        #expect(
            out
                == lines(
                    #"""
                    1:1 text "x"
                    1:2 newline
                    2:3 <img SRC="a b.png" alt="say \"hi\""/>
                    10:20 </font>
                    """#))
    }

    /// No nodes, no lines.
    @Test func empty() {
        #expect(dump([]) == "")
    }
}
