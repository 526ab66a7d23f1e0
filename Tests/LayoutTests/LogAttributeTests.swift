import CPango
import Testing

@testable import GalleyLayout

/// Break analysis in pieces (`TextEngine.logAttributes`) gives the whole paragraph's answers.
@Suite struct LogAttributeTests {
    /// The fields Galley reads, per character, as text: "L" line break, "M" mandatory, "C" char
    /// break, "W" white, "S" word start, "E" word end, "X" expandable space, "H" inserts hyphen.
    static func describe(_ attrs: [PangoLogAttr]) -> [String] {
        attrs.map { a in
            var s = ""
            if a.is_line_break != 0 { s += "L" }
            if a.is_mandatory_break != 0 { s += "M" }
            if a.is_char_break != 0 { s += "C" }
            if a.is_white != 0 { s += "W" }
            if a.is_word_start != 0 { s += "S" }
            if a.is_word_end != 0 { s += "E" }
            if a.is_expandable_space != 0 { s += "X" }
            if a.break_inserts_hyphen != 0 { s += "H" }
            return s
        }
    }

    static func attributes(_ text: String, chunk: Int) -> [PangoLogAttr] {
        var text = text
        return text.withUTF8 { bytes in
            var charBytes = bytes.indices.filter { bytes[$0] & 0xC0 != 0x80 }.map(Int32.init)
            charBytes.append(Int32(bytes.count))
            return bytes.withMemoryRebound(to: CChar.self) { chars in
                TextEngine.logAttributes(chars.baseAddress!, length: bytes.count, charBytes: charBytes, language: "en", chunk: chunk)
            }
        }
    }

    static let texts = [
        "Plain words, then more words. And a sentence: done! Another one?  Two spaces here 42 times.",
        "x.org/1 x.org/2 https://example.com/a/b?c=d 3 www.example.org. See (a) [b] {c} — 1 2 3",
        "中文段落，没有空格。但有 English words 和 数字 123 以及 标点「引号」 空格 后 汉字 继续 。",
        "[微笑]@user1 你好 #话题# http://x.org/1 [哈哈]@user2 你好 #话题# http://x.org/2 end",
        "emoji 👍🏽 and 👨‍👩‍👧 flags 🇫🇷 keycap 1️⃣ here a b c",
        "co-operate well-known e-mail re-enter a - b a — b a– b 'quoted' \"double\" a's b's",
        "Tabs\tand\u{00A0}no-break spaces\u{2009}thin a\u{200B}b zero width here and there",
        "   leading spaces and trailing   ",
    ]

    // Every cut the pieces may make gives the same attributes as one call on the whole text.
    @Test(arguments: texts)
    func piecesMatchTheWhole(text: String) {
        let whole = Self.describe(Self.attributes(text, chunk: Int.max))
        for chunk in [1, 2, 5, 16] {
            #expect(Self.describe(Self.attributes(text, chunk: chunk)) == whole, "chunk \(chunk)")
        }
    }

    // The pieces are cut: the whole-text call alone would not exercise the code above.
    @Test func longTextIsCut() {
        let text = String(repeating: "x.org/1 word ", count: 2000)
        let whole = Self.describe(Self.attributes(text, chunk: Int.max))
        #expect(Self.describe(Self.attributes(text, chunk: 4096)) == whole)
        // A break after every space (where the pieces are cut).
        let chars = Array(text.unicodeScalars)
        let afterSpaces = chars.indices.dropFirst().filter { chars[$0 - 1] == " " }
        #expect(afterSpaces.count == 2 * 2000 - 1 && afterSpaces.allSatisfy { whole[$0].contains("L") })
    }
}
