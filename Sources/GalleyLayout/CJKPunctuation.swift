import CPango
import GalleyStory
import GalleyTemplate
import Glibc

/// Punctuation Unicode shares between Latin and CJK text (…, —, ―, “ ” ‘ ’). Set beside
/// ideographs it must come from the CJK face, as a Chinese reader expects: full-width quotes,
/// an ellipsis centred in the em and dashes that join. Pango takes the first face of a run's
/// list that has the character, the Latin body face, so these ranges get a description with
/// the CJK face first (`FontPlan.cjkPunctuationSlot`).
enum CJKPunctuation {
    /// The second and third UTF-8 bytes (after 0xE2) of the characters concerned.
    @inline(__always) static func isShared(_ b1: UInt8, _ b2: UInt8) -> Bool {
        b1 == 0x80 && (b2 == 0x94 || b2 == 0x95 || b2 == 0xA6 || b2 == 0x98 || b2 == 0x99 || b2 == 0x9C || b2 == 0x9D)
    }

    /// The story ranges of shared punctuation that touches CJK text (the character just
    /// before or just after a run of it is CJK), in order. A quotation mark goes with its
    /// partner: an English sentence quoted in Chinese has both its marks full-width.
    static func ranges(_ text: UnsafePointer<CChar>, length: Int, from start: Int) -> [Range<Int>] {
        var found: [(range: Range<Int>, cjk: Bool)] = []
        // Open quotation marks waiting for their partner, by index in `found`: “ and ‘ apart, so
        // that a closing mark finds its partner at once however many of the other kind are
        // open (a search through them all made unmatched marks quadratic).
        var openDouble: [Int] = []
        var openSingle: [Int] = []
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        var i = 0
        while i + 2 < length {
            // Every character concerned starts with 0xE2: memchr skips the rest.
            guard let hit = memchr(bytes + i, 0xE2, length - i - 2) else { break }
            i = UnsafeRawPointer(hit) - UnsafeRawPointer(bytes)
            guard isShared(bytes[i + 1], bytes[i + 2]) else {
                i += 1
                continue
            }
            var end = i + 3
            while end + 2 < length && bytes[end] == 0xE2 && isShared(bytes[end + 1], bytes[end + 2]) { end += 3 }
            let before = scalar(before: i, bytes)
            let after = scalar(at: end, bytes, length: length)
            var cjk = isCJK(before) || isCJK(after)
            // An apostrophe (`’90s`, `Pim’s`, `’n’`) is no quotation mark, beside Chinese too:
            // set as it is, and paired with nothing.
            if end - i == 3 && isApostrophe(bytes[i + 2], after: after) {
                found.append(((start + i)..<(start + end), false))
                i = end
                continue
            }
            if end - i == 3 {
                let mark = bytes[i + 2]
                if mark == 0x9C {
                    openDouble.append(found.count)
                } else if mark == 0x98 {
                    openSingle.append(found.count)
                } else if mark == 0x9D || mark == 0x99, let k = mark == 0x9D ? openDouble.popLast() : openSingle.popLast() {
                    cjk = cjk || found[k].cjk
                    found[k].cjk = cjk
                    // The marks opened inside this quote and left open are given up.
                    while let d = openDouble.last, d > k { openDouble.removeLast() }
                    while let s = openSingle.last, s > k { openSingle.removeLast() }
                }
            }
            found.append(((start + i)..<(start + end), cjk))
            i = end
        }
        return found.filter(\.cjk).map(\.range)
    }

    private static func isCJK(_ v: UInt32?) -> Bool { v.flatMap(Unicode.Scalar.init)?.isCJK == true }

    private static func isLetter(_ v: UInt32?) -> Bool {
        guard let v, let s = Unicode.Scalar(v) else { return false }
        return s.properties.isAlphabetic
    }

    /// Whether ’ (the last byte of its UTF-8 form is `mark`) is an apostrophe: before a letter
    /// or digit of a script written with spaces (`’90s`, `Pim’s`, `’n’`). Before CJK text or
    /// punctuation it closes a quotation (`‘好’吗`).
    static func isApostrophe(_ mark: UInt8, after: UInt32?) -> Bool {
        guard mark == 0x99, let after else { return false }
        return (after >= 0x30 && after <= 0x39) || (isLetter(after) && !isCJK(after))
    }

    /// The scalar ending just before byte `i` (nil at the start).
    static func scalar(before i: Int, _ bytes: UnsafePointer<UInt8>) -> UInt32? {
        guard i > 0 else { return nil }
        var k = i - 1
        while k > 0 && bytes[k] & 0xC0 == 0x80 && i - k < 4 { k -= 1 }
        return scalar(at: k, bytes, length: i)
    }

    /// The scalar starting at byte `i` (nil past the end or on a malformed sequence).
    static func scalar(at i: Int, _ bytes: UnsafePointer<UInt8>, length: Int) -> UInt32? {
        guard i < length else { return nil }
        let b0 = UInt32(bytes[i])
        let count = b0 < 0x80 ? 1 : b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2
        guard i + count <= length else { return nil }
        if count == 1 { return b0 }
        var v = b0 & (0xFF >> (count + 1))
        for k in 1..<count { v = v << 6 | UInt32(bytes[i + k] & 0x3F) }
        return v
    }

}

/// Curly quotes in Chinese and Japanese text break as the brackets they are there (clreq,
/// JLREQ): “ and ‘ open, like 「 and 『, so a line may break before them but never after them;
/// ” and ’ close, like 」 and 』, so a line may break after them but never before them. UAX #14
/// cannot tell an opening curly quote from a closing one (both are class QU), so it forbids a
/// break on either side: Pango finds none in `：“甲”、“乙”、“丙”`, and a line breaks inside such
/// a run between letters, or begins with ”. Latin text keeps UAX #14's reading, since there
/// a quote's side is the language's (German „…“ closes with “).
extension CJKPunctuation {
    /// The bytes of the curly quotes that break as brackets, in order: every one in a Chinese
    /// or Japanese paragraph (`language`, its first run's), else those of a run of shared
    /// punctuation beside CJK text (`ranges`: a quote goes with its partner); none in a
    /// language whose closing quote is “. An apostrophe (`isApostrophe`) is no quote.
    static func bracketQuotes(_ text: UnsafePointer<CChar>, length: Int, language: String) -> [Int] {
        guard QuoteMarks.forLanguage(language, cjk: .curly).closeDouble != "\u{201C}" else { return [] }
        let spans = isCJKLanguage(language) ? [0..<length] : ranges(text, length: length, from: 0)
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        var found: [Int] = []
        for span in spans {
            var i = span.lowerBound
            while i + 3 <= span.upperBound {
                if bytes[i] == 0xE2 && bytes[i + 1] == 0x80 && bracket(for: bytes[i + 2]) != nil
                    && !isApostrophe(bytes[i + 2], after: scalar(at: i + 3, bytes, length: length))
                {
                    found.append(i)
                    i += 3
                } else {
                    i += 1
                }
            }
        }
        return found
    }

    /// `text` with the quotes at `quotes` (from `bracketQuotes`) turned into the corner
    /// brackets they stand for, “ ” ‘ ’ into 「 」 『 』: three bytes each, so every byte and
    /// character keeps its offset, and Pango's break analysis of the copy is the text's with
    /// the quotes read as brackets, under all its other rules (。 or 、 after ” still never
    /// starts a line).
    static func bracketed(_ text: UnsafePointer<CChar>, length: Int, quotes: [Int]) -> [UInt8] {
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        var copy = Array(UnsafeBufferPointer(start: bytes, count: length))
        for i in quotes {
            copy[i] = 0xE3
            copy[i + 2] = bracket(for: copy[i + 2])!
        }
        return copy
    }

    /// The last UTF-8 byte of the bracket (after E3 80) that the quote ending in `b` (after
    /// E2 80) stands for: “ 「, ” 」, ‘ 『, ’ 』; nil for any other character.
    private static func bracket(for b: UInt8) -> UInt8? {
        switch b {
        case 0x9C: 0x8C
        case 0x9D: 0x8D
        case 0x98: 0x8E
        case 0x99: 0x8F
        default: nil
        }
    }

    /// Whether BCP 47 tag `tag` is Chinese or Japanese.
    static func isCJKLanguage(_ tag: String) -> Bool {
        let primary = tag.lowercased().prefix { $0 != "-" && $0 != "_" }
        return primary == "zh" || primary == "ja"
    }

}
