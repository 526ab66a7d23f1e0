import GalleyMarkup
import Testing

@Suite struct RendererTests {
    let src = SourceFile(path: "article.txt", text: "Title\n\n    <font color=\"gren\">\nlast")

    func render(_ d: Diagnostic, color: Bool = false) -> String {
        DiagnosticRenderer.render(d, sources: { [src] in $0 == src.path ? src : nil }, color: color)
    }

    /// The example from the brief: location, severity, message, the line and a caret run.
    /// (The brief's listing says 3:12; `gren` on that line is at column 18.)
    @Test func briefExample() {
        let d = Diagnostic.error(
            "unknown colour 'gren'; did you mean 'green'?", file: "article.txt",
            at: src.location(atByte: 24), length: 4)
        #expect(d.location?.description == "3:18")
        #expect(
            render(d)
                == lines(
                    """
                    article.txt:3:18: error: unknown colour 'gren'; did you mean 'green'?
                        <font color="gren">
                                     ^~~~
                    """))
    }

    /// No location: `file: severity: message`, and no source line.
    @Test func noLocation() {
        #expect(render(.error("cannot read the file", file: "article.txt")) == "article.txt: error: cannot read the file\n")
    }

    /// No file: the program name stands in, whatever the location.
    @Test func noFile() {
        #expect(render(.warning("no input")) == "galley: warning: no input\n")
        #expect(render(.warning("x", at: SourceLocation(line: 1, column: 1, offset: 0))) == "galley: warning: x\n")
    }

    /// Notes render like the others.
    @Test func note() {
        #expect(render(Diagnostic(.note, "see here", file: "article.txt")) == "article.txt: note: see here\n")
    }

    /// When the closure does not know the file, only the first line is shown.
    @Test func unknownSource() {
        let d = Diagnostic.error("x", file: "other.txt", at: SourceLocation(line: 1, column: 1, offset: 0))
        #expect(render(d) == "other.txt:1:1: error: x\n")
    }

    /// A line number beyond the file shows no source line rather than a wrong one.
    @Test func lineOutOfRange() {
        let d = Diagnostic.error("x", file: "article.txt", at: SourceLocation(line: 9, column: 1, offset: 0))
        #expect(render(d) == "article.txt:9:1: error: x\n")
    }

    /// A caret just past the end of the line (an end-of-file error) is allowed.
    @Test func caretPastEndOfLine() {
        let d = Diagnostic.error("expected '>'", file: "article.txt", at: src.location(atByte: 35))
        #expect(
            render(d)
                == lines(
                    """
                    article.txt:4:5: error: expected '>'
                    last
                        ^
                    """))
    }

    /// An empty line gets an empty source line and a caret in column 1.
    @Test func emptyLine() {
        let d = Diagnostic.warning("w", file: "article.txt", at: SourceLocation(line: 2, column: 1, offset: 6))
        #expect(render(d) == "article.txt:2:1: warning: w\n\n^\n")
    }

    /// A run longer than the rest of the line stops at the line's end.
    @Test func underlineClippedAtEndOfLine() {
        let d = Diagnostic.error("e", file: "article.txt", at: src.location(atByte: 33), length: 50)
        #expect(
            render(d)
                == lines(
                    """
                    article.txt:4:3: error: e
                    last
                      ^~
                    """))
    }

    /// Colour: bold place and message, red error, magenta warning, green caret.
    @Test func colour() {
        let e = Diagnostic.error("bad", file: "article.txt", at: src.location(atByte: 31), length: 2)
        #expect(
            render(e, color: true)
                == "\u{1B}[1marticle.txt:4:1:\u{1B}[0m \u{1B}[1;31merror:\u{1B}[0m \u{1B}[1mbad\u{1B}[0m\n"
                + "last\n\u{1B}[1;32m^~\u{1B}[0m\n")
        let w = Diagnostic.warning("meh")
        #expect(
            render(w, color: true)
                == "\u{1B}[1mgalley:\u{1B}[0m \u{1B}[1;35mwarning:\u{1B}[0m \u{1B}[1mmeh\u{1B}[0m\n")
    }

    /// Underlining wide characters: `^~` for the first, `~~` for each further one.
    @Test func underlineWideCharacters() {
        let s = SourceFile(path: "w", text: "ab中文한😀c")
        let d = Diagnostic.error("e", file: "w", at: s.location(atByte: 2), length: 4)
        #expect(
            DiagnosticRenderer.render(d, sources: { _ in s })
                == lines(
                    """
                    w:1:3: error: e
                    ab中文한😀c
                      ^~~~~~~~
                    """))
    }

    /// Fullwidth forms and combining marks: two cells and zero cells of padding.
    @Test func fullwidthAndCombining() {
        let s = SourceFile(path: "w", text: "Ａe\u{301}x")
        let d = Diagnostic.error("e", file: "w", at: s.location(atByte: s.text.utf8.count - 1))
        #expect(
            DiagnosticRenderer.render(d, sources: { _ in s })
                == lines(
                    """
                    w:1:4: error: e
                    Ａe\u{301}x
                       ^
                    """))
    }

    /// A very long line is shown as a window around the caret, `…` on both cut sides,
    /// the caret still under its character.
    @Test func longLineCutBothSides() {
        let line = String(repeating: "a", count: 250) + "&foo;" + String(repeating: "b", count: 100)
        let out = rendered(line)
        let expected =
            "t.txt:1:251: warning: unknown entity '&foo;'; it is kept as written\n"
            + "…" + String(repeating: "a", count: 80) + "&foo;" + String(repeating: "b", count: 75) + "…\n"
            + String(repeating: " ", count: 81) + "^~~~~\n"
        #expect(out == expected)
    }

    /// Near the end of a long line only the left side is cut, and the window is filled.
    @Test func longLineCutLeft() {
        let line = String(repeating: "a", count: 300) + "&foo;"
        let out = rendered(line)
        let expected =
            "t.txt:1:301: warning: unknown entity '&foo;'; it is kept as written\n"
            + "…" + String(repeating: "a", count: 155) + "&foo;\n"
            + String(repeating: " ", count: 156) + "^~~~~\n"
        #expect(out == expected)
    }

    /// Near the start of a long line only the right side is cut.
    @Test func longLineCutRight() {
        let line = "&foo;" + String(repeating: "a", count: 300)
        let out = rendered(line)
        let expected =
            "t.txt:1:1: warning: unknown entity '&foo;'; it is kept as written\n"
            + "&foo;" + String(repeating: "a", count: 155) + "…\n" + "^~~~~\n"
        #expect(out == expected)
    }

    /// Wide characters count two cells towards the window, and pad two spaces in it.
    @Test func longCJKLine() {
        let line = String(repeating: "中", count: 150) + "&foo;" + String(repeating: "文", count: 150)
        let out = rendered(line)
        let expected =
            "t.txt:1:151: warning: unknown entity '&foo;'; it is kept as written\n"
            + "…" + String(repeating: "中", count: 40) + "&foo;" + String(repeating: "文", count: 37) + "…\n"
            + String(repeating: " ", count: 81) + "^~~~~\n"
        #expect(out == expected)
    }

    /// A line of exactly 200 cells is shown whole.
    @Test func twoHundredCellsNotCut() {
        let line = "&foo;" + String(repeating: "a", count: 195)
        #expect(rendered(line).contains("\n" + line + "\n"))
    }

    /// Rendering a whole Diagnostics collection concatenates the parts.
    @Test func renderAll() {
        let doc = parse("&a1; &b2;")
        let all = DiagnosticRenderer.render(doc.diagnostics, sources: { _ in doc.source })
        #expect(all == rendered("&a1; &b2;"))
        #expect(all.split(separator: "\n", omittingEmptySubsequences: false).count == 7)
    }
}
