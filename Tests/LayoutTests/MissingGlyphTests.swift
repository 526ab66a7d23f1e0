import GalleyMarkup
import TestSupport
import Testing

@testable import GalleyLayout

/// Characters no installed face can draw are named in a located warning, once each.
@Suite struct MissingGlyphTests {
    func warnings(_ fs: Framesetter) -> [Diagnostic] {
        _ = pages(of: fs)
        return fs.diagnostics.warnings.filter { $0.message.hasPrefix("no installed font has") }
    }

    @Test func eachCharacterOnceAtItsFirstPlace() {
        // U+12000 and U+1F10D: no pinned test font has either.
        let fs = framesetter("Signs \u{12000} and \u{12000}.\nThen <b>\u{1F10D}</b> and \u{12000} again.")
        let w = warnings(fs)
        #expect(
            w.map(\.message.prefixBeforeSemicolon) == [
                "no installed font has U+12000 CUNEIFORM SIGN A", "no installed font has U+1F10D CIRCLED ZERO WITH SLASH",
            ])
        #expect(w.map { $0.location.map { "\($0.line):\($0.column)" } } == ["1:7", "2:9"])
        #expect(statistics(fs).missingGlyphs == 4)
    }

    // A paragraph's new missing characters are said in one warning at the first of them (a
    // sentence of a script no font has said every letter, each with its source line).
    @Test func aParagraphsCharactersTogether() {
        let fs = framesetter("Signs \u{12000}\u{12001}, \u{12002} and \u{12000}.\nThen \u{12000}\u{12003} again.")
        let w = warnings(fs)
        #expect(
            w.map(\.message) == [
                "no installed font has 3 characters of this paragraph (U+12000 CUNEIFORM SIGN A, U+12001 CUNEIFORM SIGN A TIMES A "
                    + "and 1 more); they are drawn as boxes (install a font that has them, or name one in the template's 'fallback')",
                "no installed font has U+12003 CUNEIFORM SIGN A TIMES GAN2 TENU; it is drawn as a box (install a font that has it, or "
                    + "name one in the template's 'fallback')",
            ])
        #expect(w.map { $0.location.map { "\($0.line):\($0.column)" } } == ["1:7", "2:7"])
    }

    @Test func nothingForDrawnTextOrLineBreaks() {
        let fs = framesetter("Latin, 中文, emoji 😀 and a forced break<br>inside a paragraph.")
        #expect(warnings(fs).isEmpty)
        #expect(statistics(fs).missingGlyphs == 0)
    }

    @Test func describedScalars() {
        #expect(Unicode.Scalar(0x12000)!.described == "U+12000 CUNEIFORM SIGN A")
        #expect(Unicode.Scalar(0x41)!.described == "U+0041 LATIN CAPITAL LETTER A")
        #expect(Unicode.Scalar(0xE000)!.described == "U+E000")
    }
}

extension String {
    fileprivate var prefixBeforeSemicolon: String { String(split(separator: ";").first ?? "") }
}
