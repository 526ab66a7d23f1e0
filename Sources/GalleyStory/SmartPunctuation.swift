import GalleyTemplate

/// A language's quotation marks: what straight quotes become.
public struct QuoteMarks: Sendable, Equatable {
    public var openDouble: String
    public var closeDouble: String
    public var openSingle: String
    public var closeSingle: String
    /// The double marks hold their inner spaces (French): a space typed inside is taken in.
    public var spaced: Bool
    /// Words a leading apostrophe shortens (`'tis`, `'em`): no opening quote before them.
    public var elisions: [String]

    public init(
        _ openDouble: String, _ closeDouble: String, _ openSingle: String, _ closeSingle: String, spaced: Bool = false,
        elisions: [String] = []
    ) {
        self.openDouble = openDouble
        self.closeDouble = closeDouble
        self.openSingle = openSingle
        self.closeSingle = closeSingle
        self.spaced = spaced
        self.elisions = elisions
    }

    public static let english = QuoteMarks(
        "\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}", elisions: ["tis", "twas", "twere", "twill", "em", "cause", "til"])
    public static let german = QuoteMarks("\u{201E}", "\u{201C}", "\u{201A}", "\u{2018}")
    /// Guillemets with narrow no-break spaces inside; quotes inside quotes are curly.
    public static let french = QuoteMarks("\u{AB}\u{202F}", "\u{202F}\u{BB}", "\u{201C}", "\u{201D}", spaced: true)
    public static let corner = QuoteMarks("\u{300C}", "\u{300D}", "\u{300E}", "\u{300F}")

    /// The marks for a BCP 47 tag: German, French, Chinese and Japanese have their own (the
    /// latter two curly unless `cjk` is `corner`); any other language gets English ones.
    public static func forLanguage(_ tag: String, cjk: CJKQuotes) -> QuoteMarks {
        let primary = tag.utf8.prefix { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") }
        func named(_ code: String) -> Bool {
            primary.count == code.utf8.count && zip(primary, code.utf8).allSatisfy { $0 | 0x20 == $1 }
        }
        if named("de") { return .german }
        if named("fr") { return .french }
        if named("zh") || named("ja") { return cjk == .corner ? .corner : .english }
        return .english
    }

    /// Whether `u` is one of these marks' opening or closing marks: it then tells a quote
    /// after it which side it is on, whatever its Unicode class (German “ closes).
    func side(of u: Unicode.Scalar) -> SmartPunctuation.Side? {
        if u == closeDouble.unicodeScalars.last || u == closeSingle.unicodeScalars.last || u == "\u{2019}" { return .closing }
        if u == openDouble.unicodeScalars.first || u == openSingle.unicodeScalars.first { return .opening }
        return nil
    }
}

/// Quotes left open in the paragraph being built: a quote that could open or close closes one.
public struct QuoteState: Sendable, Equatable {
    public var double = false
    public var single = false
    public init() {}
}

/// Typographic punctuation made from what a keyboard types, in one pass over a piece of text:
/// straight quotes become the language's marks and apostrophes ’; with `dashes`, `--` and `---`
/// become en and em dashes and `...` an ellipsis. With corner CJK quotes, typed curly quotes
/// become corner ones too (Chinese input methods type “…”).
///
/// Whether a quote opens or closes is read from the characters on either side: after a space,
/// an opening bracket, a dash or an opening quote (or at the start) it opens, after a letter,
/// a digit or closing punctuation it closes. A single quote between letters, after one with no
/// single quote open, or before a shortened year (`'90s`) or word (`'n'`, `'tis`) is an
/// apostrophe. Where the neighbours cannot tell, the quotes left open do: a quote between two
/// spaces closes the one open, and one after a CJK letter or after punctuation before a word
/// opens unless one is open.
public struct SmartPunctuation: Sendable {
    public var marks: QuoteMarks
    public var quotes: Bool
    public var dashes: Bool
    /// Typed “ ” ‘ ’ become `marks` (corner quotes).
    public var retypes: Bool

    public init(marks: QuoteMarks, quotes: Bool = true, dashes: Bool = false) {
        self.marks = marks
        self.quotes = quotes
        self.dashes = dashes
        retypes = quotes && marks == .corner
    }

    /// The rules a template gives text of `language`.
    public init(language: String, typography: TypographySpec) {
        self.init(
            marks: .forLanguage(language, cjk: typography.cjkQuotes), quotes: typography.smartQuotes, dashes: typography.dashes)
    }

    /// Where the text after a replacement starts, in the source and in the output.
    public struct Edit: Sendable, Equatable {
        public var sourceBytes: Int
        public var sourceScalars: Int
        public var outputBytes: Int
        public var outputScalars: Int
    }

    /// Which side of a quote a neighbouring character puts it on. Chinese and Japanese put no
    /// space before a quote, so after one of their letters a quote opens unless one is open.
    enum Side {
        case space, opening, word, cjk, closing

        var isWord: Bool { self == .word || self == .cjk }
    }

    /// `s` rewritten, or nil when nothing in it changes. `before` is the character before it
    /// (nil at a paragraph's start); `state` carries the quotes open across pieces of a
    /// paragraph. `buffer` and `edits` are the caller's, reused between calls; `edits` ends
    /// holding the place after each replacement.
    public func rewrite(
        _ s: String, after before: Unicode.Scalar?, state: inout QuoteState, buffer: inout [UInt8], edits: inout [Edit]
    ) -> String? {
        edits.removeAll(keepingCapacity: true)
        buffer.removeAll(keepingCapacity: true)
        var s = s
        return s.withUTF8 { bytes in
            guard holdsTarget(bytes) else { return nil }
            var pass = PunctuationPass(rules: self, src: bytes, before: before, state: state, out: buffer, edits: edits)
            buffer = []
            edits = []
            let result = pass.run()
            state = pass.state
            buffer = pass.out
            edits = pass.edits
            return result
        }
    }

    /// Whether `bytes` hold any byte a rewrite starts at: `'` and `"`, `-` and `.` with dashes,
    /// the lead byte of a typed curly quote when those are retyped. Most text holds none, so
    /// this runs eight bytes at a time before a pass looks at each.
    func holdsTarget(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if bytes.count >= 8 {
            let raw = UnsafeRawBufferPointer(bytes)
            while bytes.count - i >= 8 {
                if holdsTarget(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return true }
                i += 8
            }
        }
        var tail: UInt64 = 0
        for k in i..<bytes.count { tail |= UInt64(bytes[k]) << (8 * UInt64(k - i)) }
        return i < bytes.count && holdsTarget(tail)
    }

    /// Whether any byte of `w` is a target (a NUL is none: `tail` pads with them).
    func holdsTarget(_ w: UInt64) -> Bool {
        (quotes && (Self.holds(w, 0x22) || Self.holds(w, 0x27))) || (dashes && (Self.holds(w, 0x2D) || Self.holds(w, 0x2E)))
            || (retypes && Self.holds(w, 0xE2))
    }

    /// Whether a byte of `w` is `b`: the classic zero-byte test on `w` with `b` xored away.
    static func holds(_ w: UInt64, _ b: UInt8) -> Bool {
        let x = w ^ (0x0101_0101_0101_0101 &* UInt64(b))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
    }

    /// `s` rewritten on its own, as a paragraph (for tests and callers without a story).
    public func rewrite(_ s: String, after before: Unicode.Scalar? = nil) -> String {
        var state = QuoteState()
        var buffer: [UInt8] = []
        var edits: [Edit] = []
        return rewrite(s, after: before, state: &state, buffer: &buffer, edits: &edits) ?? s
    }

    /// The side a quote after (or before) `u` is on; nil is a paragraph's edge.
    func side(_ u: Unicode.Scalar?) -> Side {
        guard let u else { return .space }
        if u.isASCII { return Self.asciiSide(UInt8(u.value)) }
        if let known = marks.side(of: u) { return known }
        if Self.isCJK(u) { return .cjk }
        switch u.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
            .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return .word
        case .openPunctuation, .initialPunctuation, .dashPunctuation: return .opening
        case .closePunctuation, .finalPunctuation, .otherPunctuation: return .closing
        default: return .space  // spaces, isolates, symbols
        }
    }

    /// Han, kana and Hangul letters.
    static func isCJK(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0x20000...0x3FFFD: true
        default: false
        }
    }

    static func asciiSide(_ b: UInt8) -> Side {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            .word
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "-"): .opening
        case UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "!"), UInt8(ascii: "?"),
            UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "%"), UInt8(ascii: "'"), UInt8(ascii: "\""):
            .closing
        default: .space  // spaces, controls and symbols (`*`, `/`, `_` …)
        }
    }
}

/// One rewrite of one piece of text. Bytes are copied to `out` lazily, a run at a time, when a
/// replacement comes: text without one costs a scan and nothing else.
struct PunctuationPass {
    let rules: SmartPunctuation
    let src: UnsafeBufferPointer<UInt8>
    let before: Unicode.Scalar?
    var state: QuoteState
    var out: [UInt8]
    var edits: [SmartPunctuation.Edit]
    /// Source bytes before this are in `out` or replaced; the scalars before it on each side.
    var copied = 0
    var sourceScalars = 0
    var outputScalars = 0
    /// Where the last replacement ended in the source, and its last character.
    var lastEnd = -1
    var lastMark: Unicode.Scalar = " "

    /// Scans the text; the rewritten text, or nil with nothing replaced.
    mutating func run() -> String? {
        var i = 0
        while i < src.count {
            switch src[i] {
            case UInt8(ascii: "\"") where rules.quotes: i = double(at: i)
            case UInt8(ascii: "'") where rules.quotes: i = single(at: i)
            case UInt8(ascii: "-") where rules.dashes: i = dashes(at: i)
            case UInt8(ascii: ".") where rules.dashes: i = dots(at: i)
            case 0xE2 where rules.retypes: i = typedQuote(at: i)
            default: i += 1
            }
        }
        guard !edits.isEmpty else { return nil }
        out.append(contentsOf: src[copied...])
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes `mark` for source bytes `r`, and the text before it not yet copied.
    mutating func replace(_ r: Range<Int>, with mark: String) {
        let kept = Self.scalars(src[copied..<r.lowerBound])
        out.append(contentsOf: src[copied..<r.lowerBound])
        out.append(contentsOf: mark.utf8)
        sourceScalars += kept + Self.scalars(src[r])
        outputScalars += kept + mark.unicodeScalars.count
        copied = r.upperBound
        edits.append(.init(sourceBytes: copied, sourceScalars: sourceScalars, outputBytes: out.count, outputScalars: outputScalars))
        lastEnd = copied
        lastMark = mark.unicodeScalars.last!
    }

    static func scalars(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var n = 0
        for b in bytes where b & 0xC0 != 0x80 { n += 1 }
        return n
    }

    // MARK: quotes

    /// A double quote: opens after a space or an opening, closes after a word. After
    /// punctuation it opens only before a word with no quote open (`他说："好"`).
    mutating func double(at i: Int) -> Int {
        let before = rules.side(previous(i))
        let after = rules.side(scalar(at: i + 1))
        let opens: Bool
        switch before {
        case .word: opens = false
        case .cjk: opens = !state.double
        case .closing: opens = after.isWord && !state.double
        case .space, .opening: opens = !(state.double && (after == .space || after == .closing))
        }
        guard opens else {
            state = QuoteState()
            replace((rules.marks.spaced ? i - spaceLength(before: i) : i)..<(i + 1), with: rules.marks.closeDouble)
            return i + 1
        }
        state.double = true
        let end = rules.marks.spaced ? i + 1 + spaceLength(at: i + 1) : i + 1
        replace(i..<end, with: rules.marks.openDouble)
        return end
    }

    /// What a single quote is.
    enum SingleQuote { case apostrophe, opening, closing }

    /// A single quote: an apostrophe, or an opening or closing quote.
    mutating func single(at i: Int) -> Int {
        let before = rules.side(previous(i))
        let after = rules.side(scalar(at: i + 1))
        // With a single quote open, one that no word follows closes it.
        let closes = state.single && (after == .space || after == .closing)
        let role: SingleQuote
        switch before {
        case .word where after.isWord: role = .apostrophe
        case .word: role = closes ? .closing : .apostrophe
        case .cjk: role = state.single ? .closing : .opening
        case .closing where after.isWord && !state.single: role = .opening
        case .closing: role = closes ? .closing : .apostrophe
        case .space, .opening: role = elides(at: i) ? .apostrophe : closes ? .closing : .opening
        }
        switch role {
        case .apostrophe: replace(i..<(i + 1), with: "\u{2019}")
        case .opening: replace(i..<(i + 1), with: rules.marks.openSingle)
        case .closing: replace(i..<(i + 1), with: rules.marks.closeSingle)
        }
        if role != .apostrophe { state.single = role == .opening }
        return i + 1
    }

    /// A leading apostrophe: before two digits (`'90s`), `n'` (`rock 'n' roll`) or a word of
    /// the language's elisions (`'tis`), each ending there.
    func elides(at i: Int) -> Bool {
        func byte(_ k: Int) -> UInt8 { k < src.count ? src[k] : 0 }
        func isDigit(_ k: Int) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte(k)) }
        // A word ends at the text's end or at an ASCII character that is no letter or digit.
        func endsWord(_ k: Int) -> Bool { k >= src.count || src[k] < 0x80 && SmartPunctuation.asciiSide(src[k]) != .word }
        if isDigit(i + 1) && isDigit(i + 2) && !isDigit(i + 3) { return true }
        if byte(i + 1) | 0x20 == UInt8(ascii: "n") && byte(i + 2) == UInt8(ascii: "'") && endsWord(i + 3) { return true }
        return rules.marks.elisions.contains { word in
            word.utf8.enumerated().allSatisfy { byte(i + 1 + $0) | 0x20 == $1 } && endsWord(i + 1 + word.utf8.count)
        }
    }

    /// Typed curly quotes, as corner quotes; a ’ with no single quote open is an apostrophe.
    mutating func typedQuote(at i: Int) -> Int {
        guard i + 2 < src.count, src[i + 1] == 0x80 else { return i + 1 }
        switch src[i + 2] {
        case 0x9C:
            state.double = true
            replace(i..<(i + 3), with: rules.marks.openDouble)
        case 0x9D:
            state = QuoteState()
            replace(i..<(i + 3), with: rules.marks.closeDouble)
        case 0x98:
            state.single = true
            replace(i..<(i + 3), with: rules.marks.openSingle)
        case 0x99 where state.single:
            state.single = false
            replace(i..<(i + 3), with: rules.marks.closeSingle)
        default: break
        }
        return i + 3
    }

    // MARK: dashes and dots

    /// `--` an en dash, `---` an em dash; longer runs (rules drawn with hyphens) stay.
    mutating func dashes(at i: Int) -> Int {
        var j = i
        while j < src.count && src[j] == UInt8(ascii: "-") { j += 1 }
        if j - i == 2 { replace(i..<j, with: "\u{2013}") }
        if j - i == 3 { replace(i..<j, with: "\u{2014}") }
        return j
    }

    /// Each `...` an ellipsis (`......` is two, the Chinese one); dots left over stay.
    mutating func dots(at i: Int) -> Int {
        var j = i
        while j < src.count && src[j] == UInt8(ascii: ".") { j += 1 }
        var k = i
        while j - k >= 3 {
            replace(k..<(k + 3), with: "\u{2026}")
            k += 3
        }
        return j
    }

    // MARK: neighbours

    /// The character before byte `i`: the last mark written when one ends there.
    func previous(_ i: Int) -> Unicode.Scalar? {
        if i == lastEnd { return lastMark }
        if i == 0 { return before }
        var k = i - 1
        while k > 0 && src[k] & 0xC0 == 0x80 { k -= 1 }
        return scalar(at: k)
    }

    /// The scalar starting at byte `i`; nil past the end.
    func scalar(at i: Int) -> Unicode.Scalar? {
        guard i < src.count else { return nil }
        let b = src[i]
        if b < 0x80 { return Unicode.Scalar(b) }
        let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
        guard i + length <= src.count else { return nil }
        var value = UInt32(b) & (0x7F >> length)
        for k in 1..<length { value = value << 6 | UInt32(src[i + k] & 0x3F) }
        return Unicode.Scalar(value)
    }

    /// Bytes of the space (U+0020, U+00A0 or U+202F) at `i`, 0 if none.
    func spaceLength(at i: Int) -> Int {
        switch scalar(at: i) {
        case " ": 1
        case "\u{A0}": 2
        case "\u{202F}": 3
        default: 0
        }
    }

    /// Bytes of the space that ends before `i`, if it is still to be copied (so can be taken in).
    func spaceLength(before i: Int) -> Int {
        guard i > copied, i != lastEnd else { return 0 }
        for n in 1...3 where i - n >= copied && src[i - n] & 0xC0 != 0x80 && spaceLength(at: i - n) == n { return n }
        return 0
    }
}

extension TypographySpec {
    /// Whether any text is rewritten.
    var isActive: Bool { smartQuotes || dashes }
}
