import GalleyMarkup
import Testing

/// Pathological inputs terminate with sensible output; a large input parses.
@Suite struct RobustnessTests {
    /// A run of `<` is text.
    @Test func lessThanRun() {
        let doc = parse("<<<<<")
        #expect(doc.diagnostics.isEmpty)
        #expect(dump(doc.nodes) == lines(#"1:1 text "<<<<<""#))
    }

    /// 100k `<` make one text node, no diagnostics.
    @Test func hundredThousandLessThans() {
        let doc = parse(String(repeating: "<", count: 100_000))
        #expect(doc.diagnostics.isEmpty)
        #expect(doc.nodes.count == 1)
        if case .text(let s, _) = doc.nodes.first { #expect(s.utf8.count == 100_000) }
    }

    /// `<<<<a`: the literal `<`s are text and the final tag is unterminated.
    @Test func lessThansThenTag() {
        let doc = parse("<<<<a")
        #expect(dump(doc.nodes) == lines(#"1:1 text "<<<""#))
        #expect(doc.diagnostics.all.map(\.message) == ["unterminated tag '<a'; expected '>'"])
    }

    /// 10k tags each cut short by the next: one error each, and it ends.
    @Test func chainOfUnterminatedTags() {
        let doc = parse(String(repeating: "<a", count: 10_000))
        #expect(doc.nodes.isEmpty)
        #expect(doc.diagnostics.all.count == 10_000)
    }

    /// A lone `&` (and `&#`, `&#x`, `&am` at end of input) is text.
    @Test(arguments: ["&", "&#", "&#x", "&am", "a&", "&&&&"])
    func loneAmpersand(input: String) {
        let doc = parse(input)
        #expect(doc.diagnostics.isEmpty)
        #expect(doc.nodes == [.text(input, SourceLocation(line: 1, column: 1, offset: 0))])
    }

    /// A very long letter run after `&` is not an entity: kept as text, silent.
    @Test func longEntityName() {
        let input = "&" + String(repeating: "a", count: 50_000) + ";"
        let doc = parse(input)
        #expect(doc.diagnostics.isEmpty)
        #expect(doc.nodes.count == 1)
    }

    /// `<!--` at end of input: an error, nothing else.
    @Test func commentOpenerAtEOF() {
        let doc = parse("<!--")
        #expect(doc.nodes.isEmpty)
        #expect(doc.diagnostics.all.map(\.message) == ["unterminated comment; expected '-->'"])
    }

    /// Tags and pieces of tags at end of input all end with one error and no crash.
    @Test(arguments: [
        "<font", "<font ", "<font color", "<font color=", "<font color=\"", "<font color='x",
        "</font", "</font x", "<font =", "<font \"", "<img src=a/", "<font\r", "<font\r\n",
    ])
    func tagAtEOF(input: String) {
        let doc = parse(input)
        #expect(doc.nodes.isEmpty)
        #expect(doc.diagnostics.hasErrors)
        #expect(doc.diagnostics.all.allSatisfy { $0.severity == .error })
    }

    /// `</` with nothing after it is text.
    @Test func endTagOpenerAtEOF() {
        #expect(nodes("a</") == lines(#"1:1 text "a</""#))
    }

    /// Every byte value 0…127 in every context ends and yields only valid locations.
    @Test func allASCIIInEveryContext() {
        let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }.joined()
        for wrapper in ["", "<font ", "<font face=\"", "<font face=", "<!--", "</font ", "&"] {
            let doc = parse(wrapper + ascii + ascii)
            for node in doc.nodes {
                #expect(doc.source.location(atByte: node.location.offset) == node.location)
            }
            for d in doc.diagnostics.all {
                #expect(doc.source.location(atByte: d.location!.offset) == d.location)
            }
        }
    }

    /// About 2 MB of mixed markup parses completely; spot-checks that locations still agree.
    @Test func twoMegabytes() {
        let chunk = """
            <font color="red" face='Palatino' size=12>Hello, 世界 &amp; friends&mdash;😀</font>\r
            <img src="pictures/a.jpg" width="320" height="240"/> AT&T <!-- note\n --> a < b &#x263A;\n
            """
        var text = ""
        text.reserveCapacity(2_100_000)
        while text.utf8.count < 2_000_000 { text += chunk }
        let doc = parse(text)
        #expect(!doc.diagnostics.hasErrors)
        #expect(doc.diagnostics.isEmpty)
        let copies = text.utf8.count / chunk.utf8.count
        #expect(doc.nodes.count == copies * parse(chunk).nodes.count)
        for node in doc.nodes.suffix(40) {
            #expect(doc.source.location(atByte: node.location.offset) == node.location)
        }
    }

    /// Random soup of markup characters (fixed seed): parsing ends, text nodes never hold a
    /// line break, locations agree with SourceFile, and diagnostics name the file.
    @Test func randomSoup() {
        let alphabet: [String] = [
            "<", ">", "/", "!", "-", "=", "\"", "'", "&", ";", "#", "x", "a", "font", "img", " ", "\n",
            "\r", "\t", "中", "😀", "\u{7}", "\u{FFFC}", "color", "amp", "1", "F",
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        for _ in 0..<300 {
            let text = (0..<(next() % 200)).map { _ in alphabet[next() % alphabet.count] }.joined()
            let doc = parse(text)
            for node in doc.nodes {
                #expect(doc.source.location(atByte: node.location.offset) == node.location)
                if case .text(let s, _) = node {
                    #expect(!s.isEmpty && !s.unicodeScalars.contains { $0 == "\n" || $0 == "\r" })
                }
            }
            #expect(doc.diagnostics.all.allSatisfy { $0.file == testPath && $0.location != nil })
        }
    }
}
