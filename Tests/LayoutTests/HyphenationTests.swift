import GalleyStory
import GalleyTemplate
import TestSupport
import Testing

@testable import GalleyLayout

/// libhyphen through `Hyphenator`: one word list per language, checked against the installed
/// dictionaries (Debian's hyphen-* packages; de, nl and pt-PT are ISO 8859-1 files).
@Suite struct HyphenationTests {
    /// The word with a hyphen at every point the dictionary allows (2 letters before, 3 after).
    func hyphenated(_ word: String, _ language: String) -> String {
        guard let h = Hyphenator.forLanguage(language) else { return "<no dictionary>" }
        let points = Set(h.points(word, leftMin: 2, rightMin: 3))
        var out = ""
        for (i, c) in word.unicodeScalars.enumerated() {
            if points.contains(i) { out += "-" }
            out.unicodeScalars.append(c)
        }
        return out
    }

    // Each language's dictionary is found and splits its words where a typesetter would;
    // capitals are folded before lookup, accented letters survive the Latin-1 dictionaries.
    @Test(arguments: [
        ("en-US", "hy-phen-ation type-set-ting com-pos-i-tor jus-ti-fi-ca-tion"),
        ("en-GB", "hy-phen-a-tion type-set-ting col-our"),
        ("de", "Sil-ben-tren-nung Schiff-fahrt Buch-dru-cke-rei"),
        ("fr", "ty-po-gra-phie im-pri-me-rie jus-ti-fi-ca-tion"),
        ("es", "ti-po-gra-fía im-prenta jus-ti-fi-ca-ción"),
        ("it", "ti-po-gra-fia stam-pe-ria giu-sti-fi-ca-zione"),
        ("nl", "woord-af-bre-king boek-druk-kunst"),
        ("pt", "ti-po-gra-fia im-pres-são jus-ti-fi-ca-ção"),
        ("pt-BR", "ti-po-gra-fia im-pres-são"),
    ])
    func words(language: String, expected: String) {
        let words = expected.replacingOccurrences(of: "-", with: "").split(separator: " ").map(String.init)
        #expect(words.map { hyphenated($0, language) }.joined(separator: " ") == expected)
    }

    // Regions fall back to the language's usual dictionary; unknown languages have none.
    @Test func dictionaryLookup() {
        #expect(Hyphenator.dictionaryFile(for: "en")?.hasSuffix("hyph_en_US.dic") == true)
        #expect(Hyphenator.dictionaryFile(for: "en-gb")?.hasSuffix("hyph_en_GB.dic") == true)
        #expect(Hyphenator.dictionaryFile(for: "de-CH")?.hasSuffix("hyph_de_CH.dic") == true)
        #expect(Hyphenator.dictionaryFile(for: "zh-Hans") == nil)
        #expect(Hyphenator.forLanguage("xx") == nil)
    }

    // The minimums are honoured: nothing within 2 letters of the start or 3 of the end.
    @Test func minimums() {
        let h = Hyphenator.forLanguage("en-US")!
        #expect(h.points("hyphenation", leftMin: 4, rightMin: 5) == [6])
        #expect(h.points("ink", leftMin: 2, rightMin: 3).isEmpty)
    }
}

/// A paragraph in another language than the template's (`<p lang>`) is hyphenated by its own
/// language's patterns: it took the template's, so French patterns split German words.
@Suite struct ParagraphLanguageHyphenationTests {
    @Test func aParagraphsLanguageChoosesItsPatterns() {
        let text = "<p lang=\"de\" align=\"left\">" + String(repeating: "Druckerzeugnis ", count: 6) + "Beinhaltung</p>\n"
        func hyphenated(template language: String) -> [String] {
            let r = run(
                ["inspect", "-", "--set", "columns=1", "--set", "margins.left=430", "--set", "language=\(language)", "--lines", "-q"],
                stdin: Array(text.utf8))
            return r.output.split(separator: "\n").filter { $0.contains("HYPHEN") }.map { String($0.split(separator: "|")[1]) }
        }
        let german = hyphenated(template: "de")
        #expect(german.first == "Druckerzeugnis Druck", "\(german)")
        #expect(hyphenated(template: "fr") == german)
        #expect(hyphenated(template: "en") == german)
    }
}
