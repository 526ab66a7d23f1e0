import GalleySupport
import GalleyTemplate
/// Something social found in a run of text: its place, in Unicode scalars of the run.
struct SocialFind: Equatable {
    enum Kind: Equatable {
        /// `@name`; `name` is without the `@`.
        case mention(name: String)
        /// `#topic#`; `topic` is what lies between the two `#`, with the emoticons found inside it.
        case topic(topic: String, emoticons: [SocialFind])
        /// A web address; `href` is what it links to (`www.` addresses get `https://`).
        case url(href: String)
        /// `[code]` found in the emoticon packs.
        case emoticon(code: String, Emoticon)
    }

    var kind: Kind
    var range: Range<Int>
}

/// Finds mentions, topics, web addresses and emoticon codes in one run of text (text with no tag
/// or line break inside), left to right, each piece of text belonging to at most one find.
///
/// Every detector is a small scanner that starts at one scalar and either consumes what it finds
/// or looks at a bounded number of scalars; the two that look ahead to a closing character
/// (`#` for topics, `]` for codes) use tables of the next such character built in one pass, so a
/// run is scanned in time linear in its length, whatever it holds.
struct SocialScanner {
    let s: [Unicode.Scalar]
    let settings: SocialSettings
    let packs: EmoticonPacks
    /// The scalar just before the run (the end of the text before a tag), for the word rules.
    let before: Unicode.Scalar?
    /// For each index, the index of the first topic `#` after it (or `s.count`).
    private let nextHash: [Int]
    /// For each index, the index of the first `[` or `]` after it (or `s.count`).
    private let nextBracket: [Int]

    /// Topics are at most this many scalars between their `#`s.
    static let maxTopicLength = 64

    init(_ s: [Unicode.Scalar], settings: SocialSettings, packs: EmoticonPacks, before: Unicode.Scalar? = nil) {
        self.s = s
        self.settings = settings
        self.packs = packs
        self.before = before
        var hash = [Int](repeating: s.count, count: settings.topics ? s.count : 0)
        var bracket = [Int](repeating: s.count, count: settings.emoticons ? s.count : 0)
        var nh = s.count
        var nb = s.count
        for i in stride(from: s.count - 1, through: 0, by: -1) {
            if settings.topics { hash[i] = nh }
            if settings.emoticons { bracket[i] = nb }
            if s[i] == "#" && !Self.isKeycap(s, i) { nh = i }
            if s[i] == "[" || s[i] == "]" { nb = i }
        }
        nextHash = hash
        nextBracket = bracket
    }

    /// Every find, in order, not overlapping.
    func finds() -> [SocialFind] {
        var out: [SocialFind] = []
        var i = 0
        while i < s.count {
            // What a find ends is no word: `@a@b` is two mentions, `…/x#话题#` a URL and a topic.
            let p = i > 0 ? (out.last?.range.upperBound == i ? nil : s[i - 1]) : before
            if let f = find(at: i, after: p) {
                out.append(f)
                i = f.range.upperBound
            } else {
                i += 1
            }
        }
        return out
    }

    /// The find starting at `i`, if any; `p` is the scalar before it that the word rules look at.
    func find(at i: Int, after p: Unicode.Scalar?) -> SocialFind? {
        switch s[i] {
        case "[": return settings.emoticons ? emoticon(at: i, limit: s.count) : nil
        case "#": return settings.topics ? topic(at: i, after: p) : nil
        case "@": return settings.mentions ? mention(at: i, after: p) : nil
        case "h", "H", "w", "W": return settings.urls ? url(at: i, after: p) : nil
        default: return nil
        }
    }

    // MARK: - Emoticons

    /// `[code]` at `i` when the packs know it. The code is the text up to the first `]`, with no
    /// `[` in between, and must end before `limit`.
    func emoticon(at i: Int, limit: Int) -> SocialFind? {
        let close = nextBracket[i]
        guard close < limit, s[close] == "]", close - i + 1 <= packs.longestCode else { return nil }
        let code = Self.string(s[i...close])
        guard let e = packs.lookup(code) else { return nil }
        return SocialFind(kind: .emoticon(code: code, e), range: i..<(close + 1))
    }

    // MARK: - Topics

    /// `#topic#` at `i`: up to the next `#` (a keycap `#️⃣` is not one), 1 to 64 scalars between,
    /// neither starting nor ending with white space, and the first `#` not glued to the end of
    /// a Latin word or number (`C#`). Emoticon codes inside are found too.
    func topic(at i: Int, after p: Unicode.Scalar?) -> SocialFind? {
        guard !Self.isKeycap(s, i), !Self.isWordScalar(p) else { return nil }
        let close = nextHash[i]
        guard close < s.count else { return nil }
        let length = close - i - 1
        guard length >= 1, length <= Self.maxTopicLength,
            !s[i + 1].properties.isWhitespace, !s[close - 1].properties.isWhitespace
        else { return nil }
        var inner: [SocialFind] = []
        if settings.emoticons {
            var j = i + 1
            while j < close {
                if s[j] == "[", let e = emoticon(at: j, limit: close) {
                    inner.append(e)
                    j = e.range.upperBound
                } else {
                    j += 1
                }
            }
        }
        return SocialFind(kind: .topic(topic: Self.string(s[(i + 1)..<close]), emoticons: inner), range: i..<(close + 1))
    }

    /// `#` followed by U+FE0F or U+20E3 is the keycap emoji `#️⃣`, never a topic's `#`.
    static func isKeycap(_ s: [Unicode.Scalar], _ i: Int) -> Bool {
        i + 1 < s.count && (s[i + 1] == "\u{FE0F}" || s[i + 1] == "\u{20E3}")
    }

    // MARK: - Mentions

    /// `@name` at `i`: letters (CJK included), marks, digits, `-` and `_`, at least one. Not when
    /// the `@` is glued to a Latin word, a number, `.` or `_` (the `@` of an e-mail address).
    func mention(at i: Int, after p: Unicode.Scalar?) -> SocialFind? {
        if let p, Self.isWordScalar(p) || p == "." || p == "_" { return nil }
        var end = i + 1
        while end < s.count, Self.isNameScalar(s[end]) { end += 1 }
        guard end > i + 1 else { return nil }
        return SocialFind(kind: .mention(name: Self.string(s[(i + 1)..<end])), range: i..<end)
    }

    static func isNameScalar(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII {
            return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "-" || c == "_"
        }
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }

    // MARK: - Web addresses

    /// `http://`, `https://` (any case) or `www.` at `i`, not glued to the end of a Latin word or
    /// number (nor, for `www.`, to `.`, `_`, `-`, `/` or `@`), then URL characters. Trailing
    /// `.,;:!?'"#`, a `)` or `]` without its opening partner, and anything not allowed in URLs
    /// (white space, CJK text and punctuation, other non-ASCII punctuation and symbols) end it;
    /// so does a known emoticon code. Letters, marks and digits of scripts written with spaces
    /// belong to it (`https://de.wikipedia.org/wiki/Straße`, `http://пример.рф`); the link's
    /// address has them percent-encoded, as a PDF's URIs are ASCII.
    func url(at i: Int, after p: Unicode.Scalar?) -> SocialFind? {
        if Self.isWordScalar(p) { return nil }
        var bodyStart: Int
        let isWWW: Bool
        if matches("https://", at: i) {
            bodyStart = i + 8
            isWWW = false
        } else if matches("http://", at: i) {
            bodyStart = i + 7
            isWWW = false
        } else if matches("www.", at: i) {
            if let p, p == "." || p == "_" || p == "-" || p == "/" || p == "@" { return nil }
            bodyStart = i + 4
            isWWW = true
        } else {
            return nil
        }
        var end = bodyStart
        while end < s.count, Self.isURLScalar(s[end]) || Self.isIRIScalar(s[end]) {
            if s[end] == "[", settings.emoticons, emoticon(at: end, limit: s.count) != nil { break }
            end += 1
        }
        end = trimmedURLEnd(from: bodyStart, to: end)
        guard end > bodyStart else { return nil }
        let text = Self.asciiAddress(Self.string(s[i..<end]))
        return SocialFind(kind: .url(href: isWWW ? "https://" + text : text), range: i..<end)
    }

    /// Non-ASCII letters, marks and digits, East Asian scripts aside: Chinese text runs
    /// straight on after a URL (`http://t.cn/abc看这里`), Russian or German text does not.
    static func isIRIScalar(_ c: Unicode.Scalar) -> Bool {
        guard !c.isASCII, !isEastAsian(c) || isHangul(c) else { return false }
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .nonspacingMark, .spacingMark:
            return true
        default:
            return false
        }
    }

    /// `text` with each byte of its non-ASCII characters percent-encoded (RFC 3987, 3.1): a
    /// browser decodes a host so written and looks up its IDNA name.
    static func asciiAddress(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(\.isASCII) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in text.utf8 {
            if b < 0x80 { out.append(b) } else { out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0x0F)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Drops trailing punctuation from a URL body, and closing brackets with no opening partner
    /// inside the URL (`(see http://a.org/x)` ends before the `)`; `…/Foo_(bar)` keeps it).
    private func trimmedURLEnd(from start: Int, to end: Int) -> Int {
        var parens = 0
        var squares = 0
        for c in s[start..<end] {
            switch c {
            case "(": parens += 1
            case ")": parens -= 1
            case "[": squares += 1
            case "]": squares -= 1
            default: break
            }
        }
        var e = end
        while e > start {
            let c = s[e - 1]
            if ".,;:!?'\"#".unicodeScalars.contains(c) {
                e -= 1
            } else if c == ")" && parens < 0 {
                parens += 1
                e -= 1
            } else if c == "]" && squares < 0 {
                squares += 1
                e -= 1
            } else {
                break
            }
        }
        return e
    }

    /// ASCII letters, digits and `-._~:/?#[]@!$&'()*+,;=%`.
    static func isURLScalar(_ c: Unicode.Scalar) -> Bool {
        guard c.isASCII else { return false }
        if (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") { return true }
        return "-._~:/?#[]@!$&'()*+,;=%".unicodeScalars.contains(c)
    }

    /// `prefix` (ASCII, lower case) at `i`, ignoring case.
    private func matches(_ prefix: String, at i: Int) -> Bool {
        var j = i
        for p in prefix.unicodeScalars {
            guard j < s.count else { return false }
            var c = s[j]
            if c >= "A" && c <= "Z" { c = Unicode.Scalar(c.value + 32)! }
            guard c == p else { return false }
            j += 1
        }
        return true
    }

    // MARK: - Character classes

    /// A letter or digit of a script written with spaces between words (Latin, Greek, Cyrillic …):
    /// an `@`, `#` or URL glued after one belongs to the word (`me@example.com`, `C#`, `xhttp://`).
    /// CJK characters are not: Chinese text runs straight into `@名字` and `#话题#`.
    static func isWordScalar(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return false }
        if c.isASCII { return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") }
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            return !isEastAsian(c)
        default:
            return false
        }
    }

    /// Hangul syllables and jamo: Korean is written with spaces, so a URL runs on through them.
    static func isHangul(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x1100...0x11FF, 0x3131...0x318E, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF: true
        default: false
        }
    }

    /// Scripts written without spaces between words: Han, kana, Hangul, Bopomofo, Yi and the
    /// fullwidth forms.
    static func isEastAsian(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x1100...0x11FF, 0x2E80...0x2FDF, 0x3000...0x303F, 0x3040...0x31FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF,
            0xFF00...0xFFEF, 0x1B000...0x1B16F, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var v = String.UnicodeScalarView()
        v.append(contentsOf: scalars)
        return String(v)
    }
}
