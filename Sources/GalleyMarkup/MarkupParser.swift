import GalleySupport

/// A parsed file: the flat node sequence and what was wrong with it.
public struct MarkupDocument: Sendable {
    public var source: SourceFile
    public var nodes: [MarkupNode]
    /// In source order.
    public var diagnostics: Diagnostics

    public init(source: SourceFile, nodes: [MarkupNode], diagnostics: Diagnostics) {
        self.source = source
        self.nodes = nodes
        self.diagnostics = diagnostics
    }
}

/// Turns Galley markup into a flat sequence of `MarkupNode`s.
///
/// - `<name attr="v">` (a letter after `<`) is a start tag, `</name>` an end tag, `<!-- … -->`
///   a comment (dropped, newlines inside it included). Any other `<` is text.
/// - Tags are not paired; unknown tags and attributes are reported and dropped.
/// - `&…;` references are decoded; each decoded reference in text is a node of its own so that
///   every text node maps linearly onto source columns.
/// - A newline (`\n`, `\r\n`, `\r`) is a `.newline` node; text nodes never contain one.
/// - C0 control characters other than tab, and U+FFFC, are dropped with a warning given once
///   per distinct character per file (at its first occurrence).
///
/// The parser reads each byte a bounded number of times, so it runs in time linear in the
/// input, and it never stops early: every error is reported and parsing resumes.
public enum MarkupParser {
    public static func parse(_ source: SourceFile, vocabulary: Vocabulary = .standard) -> MarkupDocument {
        var scanner = MarkupScanner(source: source, vocabulary: vocabulary)
        scanner.run()
        // Vocabulary warnings are raised when a tag is complete, after syntax errors inside
        // it; a stable sort by offset puts everything back in reading order.
        var found = scanner.diagnostics
        let offsets = found.map { $0.location?.offset ?? 0 }
        if zip(offsets, offsets.dropFirst()).contains(where: { $0 > $1 }) {
            found = found.indices.sorted { offsets[$0] != offsets[$1] ? offsets[$0] < offsets[$1] : $0 < $1 }
                .map { found[$0] }
        }
        var diagnostics = Diagnostics()
        diagnostics.append(contentsOf: found)
        return MarkupDocument(source: source, nodes: scanner.nodes, diagnostics: diagnostics)
    }
}

// MARK: - Scanner

private let LF = UInt8(ascii: "\n")
private let CR = UInt8(ascii: "\r")
private let TAB = UInt8(ascii: "\t")
private let LT = UInt8(ascii: "<")
private let GT = UInt8(ascii: ">")
private let SLASH = UInt8(ascii: "/")
private let AMP = UInt8(ascii: "&")
private let EQUALS = UInt8(ascii: "=")
private let BANG = UInt8(ascii: "!")
private let DASH = UInt8(ascii: "-")
private let DQUOTE = UInt8(ascii: "\"")
private let SQUOTE = UInt8(ascii: "'")

@inline(__always) private func isNameByte(_ c: UInt8) -> Bool {
    isASCIILetter(c) || isASCIIDigit(c) || c == DASH || c == UInt8(ascii: "_") || c == UInt8(ascii: ":")
}

@inline(__always) private func isSpaceByte(_ c: UInt8) -> Bool {
    c == UInt8(ascii: " ") || c == TAB || c == LF || c == CR || c == 0x0C
}

/// Bytes in a UTF-8 sequence, from its first byte (the input is known to be well-formed).
@inline(__always) private func sequenceLength(_ c: UInt8) -> Int {
    c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4
}

/// `U+0007`, `U+FFFC`: at least four upper-case hex digits.
func unicodeCode(_ value: UInt32) -> String {
    var hex = String(value, radix: 16, uppercase: true)
    while hex.count < 4 { hex = "0" + hex }
    return "U+" + hex
}

/// Bytes of `x` that are zero. Only a zero byte keeps its top bit clear in
/// `((x & 0x7F…) + 0x7F…) | x` (the sum never carries from one byte into the next).
@inline(__always) private func zeroBytes(_ x: UInt64) -> Int {
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return 8 - ((((x & low) &+ low) | x) & ~low).nonzeroBitCount
}

private struct MarkupScanner {
    let b: [UInt8]
    let n: Int
    let file: String
    let vocabulary: Vocabulary

    // The cursor: byte offset and the line/column of that byte, kept up to date as it moves.
    var pos = 0
    var line = 1
    var column = 1

    var nodes: [MarkupNode] = []
    var diagnostics: [Diagnostic] = []

    /// Lower-cased names of unknown start tags seen so far; their end tags are dropped silently.
    var unknownStartTags: Set<String> = []
    /// Control characters already reported.
    var reportedControls: Set<UInt32> = []
    /// The spec of the last known tag: an end tag most often closes the tag just before it, and
    /// tags come in runs of the same few.
    var lastSpec: TagSpec?

    /// The pending text run: its first byte (or -1) and where it starts.
    var runStart = -1
    var runLocation = SourceLocation(line: 1, column: 1, offset: 0)

    init(source: SourceFile, vocabulary: Vocabulary) {
        self.b = source.utf8
        self.n = source.utf8.count
        self.file = source.path
        self.vocabulary = vocabulary
        // Room for the usual number of nodes, two a line (its text and its newline) and two a
        // tag (the tag and the text after it), so the array is not copied as it grows.
        let breaks = b.withUnsafeBufferPointer { bytes in
            var count = 0
            var i = 0
            // Eight bytes at a time (this reads the whole file once more before it is parsed).
            if let base = bytes.baseAddress {
                while i + 8 <= bytes.count {
                    let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    count &+= zeroBytes(w ^ 0x0A0A_0A0A_0A0A_0A0A) &+ zeroBytes(w ^ 0x3C3C_3C3C_3C3C_3C3C)
                    i += 8
                }
            }
            while i < bytes.count {
                count &+= (bytes[i] == LF ? 1 : 0) &+ (bytes[i] == LT ? 1 : 0)
                i += 1
            }
            return count
        }
        nodes.reserveCapacity(2 * breaks + 1)
    }

    // MARK: Cursor

    var location: SourceLocation { SourceLocation(line: line, column: column, offset: pos) }

    @inline(__always) func byte(_ i: Int) -> UInt8? { i < n ? b[i] : nil }

    /// Moves past one scalar (a CRLF pair counts as one line break). Requires `pos < n`.
    @inline(__always) mutating func advance() {
        let c = b[pos]
        if c == LF {
            pos += 1
            line += 1
            column = 1
        } else if c == CR {
            pos += (pos + 1 < n && b[pos + 1] == LF) ? 2 : 1
            line += 1
            column = 1
        } else {
            pos += sequenceLength(c)
            column += 1
        }
    }

    /// Moves past `count` bytes known to be ASCII and not line breaks.
    @inline(__always) mutating func advanceASCII(_ count: Int) {
        pos += count
        column += count
    }

    mutating func skipSpace() {
        while pos < n, isSpaceByte(b[pos]) { advance() }
    }

    /// Reads a run of name bytes (possibly empty): the name as written, and lower-cased (names
    /// are case-insensitive; they are ASCII by construction). Most names are written in lower
    /// case, and then both are the same string.
    mutating func readName() -> (written: String, lowercased: String) {
        let start = pos
        var upper = false
        while pos < n, isNameByte(b[pos]) {
            upper = upper || isASCIIUpper(b[pos])
            pos += 1
        }
        column += pos - start
        let written = text(start..<pos)
        guard upper else { return (written, written) }
        return (written, String(decoding: b[start..<pos].map { isASCIIUpper($0) ? $0 | 0x20 : $0 }, as: UTF8.self))
    }

    /// The text of bytes `range`, which lie in the input. (Decoded from the buffer: decoding an
    /// array slice goes a longer way round, and the parser makes a string of every name, value
    /// and piece of text.)
    func text(_ range: Range<Int>) -> String {
        precondition(range.lowerBound >= 0 && range.upperBound <= n)
        return b.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// The scalar value of a character the parser drops: a C0 control other than tab, LF and
    /// CR, or U+FFFC (reserved for embedded objects).
    @inline(__always) func droppedCharacter(at i: Int) -> UInt32? {
        let c = b[i]
        if c < 0x20 { return c == TAB || c == LF || c == CR ? nil : UInt32(c) }
        if c == 0xEF, i + 2 < n, b[i + 1] == 0xBF, b[i + 2] == 0xBC { return 0xFFFC }
        return nil
    }

    /// What a `<` at `i` opens in text, if anything.
    enum Opener { case startTag, endTag, comment }

    func opener(at i: Int) -> Opener? {
        guard let next = byte(i + 1) else { return nil }
        if isASCIILetter(next) { return .startTag }
        if next == SLASH, let c = byte(i + 2), isASCIILetter(c) { return .endTag }
        if next == BANG, byte(i + 2) == DASH, byte(i + 3) == DASH { return .comment }
        return nil
    }

    /// Inside a tag: a `<` that cuts the tag short (a letter, `/` or `!--` after it).
    /// `< font color = "red" >`: a tag Galley knows with spaces after its `<`, which makes it
    /// text (as `5 < 6` is). Set as written, it was set in silence.
    mutating func warnIfSpacedTag() {
        var i = pos + 1
        let space = UInt8(ascii: " ")
        guard i < n, b[i] == space || b[i] == TAB else { return }
        while i < n, b[i] == space || b[i] == TAB { i += 1 }
        if i < n, b[i] == SLASH { i += 1 }
        let start = i
        while i < n, isASCIILetter(b[i]) || (i > start && (0x30...0x39).contains(b[i])) { i += 1 }
        guard i > start, i < n, b[i] == space || b[i] == TAB || b[i] == GT else { return }
        let name = String(decoding: b[start..<i], as: UTF8.self).lowercased()
        // Then `>` at once, or an attribute's `=` before the `>`: `a < b and c > d` is prose.
        let rest = b[i..<min(n, i + 200)].prefix { $0 != LF && $0 != CR }
        guard vocabulary.spec(name) != nil, let close = rest.firstIndex(of: GT) else { return }
        let between = rest[..<close]
        guard between.allSatisfy({ $0 == space || $0 == TAB }) || between.contains(EQUALS) else { return }
        warning("'<' and a space before '\(name)' make this text, not a <\(name)> tag; write <\(name) without the space", at: location)
    }

    func startsNewTag(at i: Int) -> Bool {
        guard b[i] == LT, let next = byte(i + 1) else { return false }
        return isASCIILetter(next) || next == SLASH || opener(at: i) == .comment
    }

    // MARK: Diagnostics

    mutating func error(_ message: String, at location: SourceLocation, length: Int = 1) {
        diagnostics.append(.error(message, file: file, at: location, length: length))
    }

    mutating func warning(_ message: String, at location: SourceLocation, length: Int = 1) {
        diagnostics.append(.warning(message, file: file, at: location, length: length))
    }

    mutating func reportDropped(_ value: UInt32, at location: SourceLocation, length: Int = 1) {
        guard reportedControls.insert(value).inserted else { return }
        let code = unicodeCode(value)
        if value == 0xFFFC {
            warning("character \(code) is reserved for embedded objects and is ignored", at: location, length: length)
        } else {
            warning("control character \(code) is ignored", at: location, length: length)
        }
    }

    // MARK: Text

    mutating func flushText() {
        guard runStart >= 0 else { return }
        if pos > runStart {
            nodes.append(.text(text(runStart..<pos), runLocation))
        }
        runStart = -1
    }

    @inline(__always) mutating func beginTextIfNeeded() {
        if runStart < 0 {
            runStart = pos
            runLocation = location
        }
    }

    /// Every branch consumes at least one byte (tags at least `<x`, comments `<!--`), so the
    /// loop ends; the same holds for every loop below, noted where it is not plain.
    mutating func run() {
        while pos < n {
            let c = b[pos]
            switch c {
            case LT:
                switch opener(at: pos) {
                case .startTag?:
                    flushText()
                    parseTag(isEnd: false)
                case .endTag?:
                    flushText()
                    parseTag(isEnd: true)
                case .comment?:
                    flushText()
                    parseComment()
                case nil:
                    warnIfSpacedTag()
                    beginTextIfNeeded()
                    advanceASCII(1)
                }
            case AMP:
                textEntity()
            case LF, CR:
                flushText()
                nodes.append(.newline(location))
                advance()
            default:
                if let dropped = droppedCharacter(at: pos) {
                    flushText()
                    reportDropped(dropped, at: location)
                    advance()
                } else {
                    beginTextIfNeeded()
                    // The common case: a run of ordinary characters on one line. Printable ASCII
                    // other than `<` and `&` is one column a byte, taken in one sweep.
                    if c >= 0x20 && c < 0x80 {
                        let from = pos
                        let to = b.withUnsafeBufferPointer { buf in
                            var j = from + 1
                            while j < n {
                                let d = buf[j]
                                if d < 0x20 || d >= 0x80 || d == LT || d == AMP { break }
                                j += 1
                            }
                            return j
                        }
                        column += to - from
                        pos = to
                    } else {
                        pos += sequenceLength(c)
                        column += 1
                    }
                }
            }
        }
        flushText()
    }

    /// An `&` in text: a decoded reference becomes a node of its own; anything else stays text.
    mutating func textEntity() {
        let start = location
        switch Entities.scan(b, at: pos) {
        case .none:
            beginTextIfNeeded()
            advanceASCII(1)
        case .unknown(let name, let length):
            reportUnknownEntity(name, at: start, length: length)
            beginTextIfNeeded()
            advanceASCII(length)
        case .invalid(let length):
            flushText()
            reportInvalidReference(at: start, length: length)
            advanceASCII(length)
        case .scalar(let scalar, let length):
            flushText()
            if let dropped = droppedScalar(scalar) {
                reportDropped(dropped, at: start, length: length)
            } else {
                nodes.append(.text(String(Character(scalar)), start))
            }
            advanceASCII(length)
        }
    }

    func droppedScalar(_ s: Unicode.Scalar) -> UInt32? {
        let v = s.value
        // DEL and the C1 controls too, as the C0 ones: they print nothing a reader sees.
        return (v < 0x20 && v != 0x09) || (0x7F...0x9F).contains(v) || v == 0xFFFC ? v : nil
    }

    mutating func reportUnknownEntity(_ name: String, at start: SourceLocation, length: Int) {
        guard !name.hasPrefix("#") else {
            let form = "'&#' and decimal digits, or '&#x' and hex digits"
            warning("malformed character reference '&\(name);' (\(form)); it is kept as written", at: start, length: length)
            return
        }
        var message = "unknown entity '&\(name);'; it is kept as written"
        if let guess = Suggestion.closest(to: name, in: Entities.sortedNames) {
            message += "; did you mean '&\(guess);'?"
        }
        warning(message, at: start, length: length)
    }

    mutating func reportInvalidReference(at start: SourceLocation, length: Int) {
        let written = String(decoding: b[start.offset..<(start.offset + length)], as: UTF8.self)
        error("invalid character reference '\(written)'", at: start, length: length)
    }

    // MARK: Comments

    /// A comment alone on its lines takes its line break with it: in a file where a line is a
    /// paragraph, it left an empty one (at the top, pushing the heading down).
    mutating func parseComment() {
        let open = location
        advanceASCII(4)  // <!--
        while pos < n {
            if b[pos] == DASH, byte(pos + 1) == DASH, byte(pos + 2) == GT {
                advanceASCII(3)
                if open.column == 1, pos < n, b[pos] == LF || b[pos] == CR { advance() }
                return
            }
            advance()
        }
        error("unterminated comment; expected '-->'", at: open, length: 4)
    }

    // MARK: Tags

    /// Parses `<name …>` or `</name …>` from the `<`. On an error the tag is dropped; the
    /// cursor is then at the end of input or at a `<` that starts the next tag.
    mutating func parseTag(isEnd: Bool) {
        let open = location
        advanceASCII(isEnd ? 2 : 1)
        let (writtenName, name) = readName()
        // The tag as far as its name, for messages only.
        var opening: String { (isEnd ? "</" : "<") + writtenName }
        var attributes: [MarkupAttribute] = []
        var selfClosing = false
        // One stray character per tag is said: after it, the rest of a `<` that began no tag
        // (`x<y, 3<4`) would be a cascade of errors about the same slip.
        var strayed = false

        attributeLoop: while true {
            skipSpace()
            guard pos < n else {
                reportUnterminated(opening, at: open)
                return
            }
            let c = b[pos]
            if c == GT {
                advanceASCII(1)
                break attributeLoop
            }
            if c == SLASH, byte(pos + 1) == GT {
                advanceASCII(2)
                selfClosing = true
                break attributeLoop
            }
            if startsNewTag(at: pos) {
                reportUnterminated(opening, at: open)
                return
            }
            // Both branches below consume at least one byte.
            if isNameByte(c) {
                switch parseAttribute() {
                case .attribute(let a): attributes.append(a)
                case .skipped: break
                case .unterminatedTag:
                    reportUnterminated(opening, at: open)
                    return
                case .endOfInput:
                    return
                }
                continue
            }
            if !skipStray(tag: opening, reporting: !strayed) { return }
            strayed = true
        }

        if isProse(name: name, attributes: attributes, from: open.offset) {
            let written = text(open.offset..<pos)
            nodes.append(.text(written, open))
            warning(
                "\(written.count > 40 ? opening + "…>" : written) reads as prose, not a tag, and is set as text; "
                    + "write &lt; for a '<' that opens no tag", at: open, length: writtenName.unicodeScalars.count + (isEnd ? 2 : 1))
            return
        }
        if isEnd {
            finishEndTag(name: name, written: writtenName, open: open, attributes: attributes, selfClosing: selfClosing)
        } else {
            finishStartTag(name: name, written: writtenName, open: open, attributes: attributes, selfClosing: selfClosing)
        }
    }

    /// Whether a `<…>` is prose rather than a tag: `press <Enter>`, `Array<Int>`, `x<y and y>z`,
    /// `if a<b and c>d`. Dropped as an unknown tag, its words were lost, and `<b and c>` made the
    /// rest of the text bold. It is prose when it gives no attribute a value and its name is
    /// neither a tag Galley knows (with attributes it knows), nor HTML's, nor a slip of a known
    /// one (`<spn>`: a name of three letters or more near one).
    mutating func isProse(name: String, attributes: [MarkupAttribute], from start: Int) -> Bool {
        guard !name.isEmpty, attributes.allSatisfy({ $0.value.isEmpty }) else { return false }
        // Set as written, so on one line, with nothing a text run would change (controls, an
        // entity, an object replacement character).
        guard !b[start..<pos].contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == AMP || $0 == 0xEF }) else { return false }
        if let spec = spec(name) { return !attributes.isEmpty && attributes.allSatisfy { !spec.attributes.contains($0.key) } }
        if Vocabulary.htmlNames.contains(name) { return false }
        return name.count < 3 || Suggestion.closest(to: name, in: vocabulary.tagNames) == nil
    }

    mutating func reportUnterminated(_ opening: String, at open: SourceLocation) {
        error("unterminated tag '\(opening)'; expected '>'", at: open, length: opening.utf8.count)
    }

    enum AttributeResult {
        case attribute(MarkupAttribute)
        /// Reported; go on with the next attribute.
        case skipped
        /// A `<` starting a new tag or the end of input came first.
        case unterminatedTag
        /// An error that ends the input was reported (an unclosed quote).
        case endOfInput
    }

    /// `name`, `name=value`, `name="value"` or `name='value'`, from the name's first byte.
    mutating func parseAttribute() -> AttributeResult {
        let nameLocation = location
        let (name, key) = readName()
        let afterName = location
        skipSpace()
        guard pos < n, b[pos] == EQUALS else {
            // Valueless: `<img inline>`. The cursor may have moved over spaces; that is fine,
            // the caller skips them anyway.
            return .attribute(MarkupAttribute(name: name, key: key, value: "", nameLocation: nameLocation, valueLocation: afterName))
        }
        let equals = location
        advanceASCII(1)
        skipSpace()
        guard pos < n else { return .unterminatedTag }
        let c = b[pos]
        if c == DQUOTE || c == SQUOTE {
            let quote = location
            advanceASCII(1)
            let valueLocation = location
            if let stop = missingQuote(from: pos, quote: c) {
                // `src="a.jpg width="50%"`: the value is what comes before the next attribute,
                // which is then read as written, so the errors after it are real ones.
                var value: [UInt8] = []
                while pos < stop { consumeValueCharacter(into: &value) }
                let next = String(decoding: b[(stop + 1)..<(b[stop...].firstIndex(of: EQUALS) ?? stop + 1)], as: UTF8.self)
                error("missing closing quote: the value of '\(name)' opened here runs into '\(next)='", at: quote)
                return .attribute(
                    MarkupAttribute(
                        name: name, key: key, value: String(decoding: value, as: UTF8.self),
                        nameLocation: nameLocation, valueLocation: valueLocation))
            }
            // The common case: plain ASCII up to the closing quote, on this line.
            var end = pos
            while end < n, b[end] != c, b[end] >= 0x20, b[end] < 0x80, b[end] != AMP { end += 1 }
            if end < n, b[end] == c {
                let value = text(pos..<end)
                advanceASCII(end - pos + 1)
                return .attribute(
                    MarkupAttribute(name: name, key: key, value: value, nameLocation: nameLocation, valueLocation: valueLocation))
            }
            var value: [UInt8] = []
            while pos < n, b[pos] != c { consumeValueCharacter(into: &value) }
            guard pos < n else {
                error("unterminated attribute value; the quote opened here is never closed", at: quote)
                return .endOfInput
            }
            advanceASCII(1)
            return .attribute(
                MarkupAttribute(
                    name: name, key: key, value: String(decoding: value, as: UTF8.self),
                    nameLocation: nameLocation, valueLocation: valueLocation))
        }
        if let curly = curlyQuotedValue(name: name, key: key, nameLocation: nameLocation) { return curly }
        if c == GT || (c == SLASH && byte(pos + 1) == GT) || startsNewTag(at: pos) {
            error("expected a value after '=' for attribute '\(name)'", at: equals)
            return .skipped
        }
        let valueLocation = location
        var value: [UInt8] = []
        while pos < n, !endsUnquotedValue(at: pos) { consumeValueCharacter(into: &value) }
        return .attribute(
            MarkupAttribute(
                name: name, key: key, value: String(decoding: value, as: UTF8.self),
                nameLocation: nameLocation, valueLocation: valueLocation))
    }

    /// A value in curly quotes (`color=“red”`), as a word processor's smart quotes turn a
    /// file's straight ones: read as if straight, with a warning. It was read as `“red”`, an
    /// unknown colour, or cut at its first space. Nil when no curly quote opens the value, or
    /// none closes it on its line.
    mutating func curlyQuotedValue(name: String, key: String, nameLocation: SourceLocation) -> AttributeResult? {
        // “ ” (E2 80 9C, 9D) and ‘ ’ (E2 80 98, 99); either of a pair may open or close it.
        guard pos + 2 < n, b[pos] == 0xE2, b[pos + 1] == 0x80, (0x98...0x9D).contains(b[pos + 2]), b[pos + 2] != 0x9A, b[pos + 2] != 0x9B
        else { return nil }
        let double = b[pos + 2] >= 0x9C
        var end = pos + 3
        while end + 2 < n, b[end] != LF {
            if b[end] == 0xE2, b[end + 1] == 0x80,
                double ? (b[end + 2] == 0x9C || b[end + 2] == 0x9D) : (b[end + 2] == 0x98 || b[end + 2] == 0x99)
            {
                break
            }
            end += 1
        }
        guard end + 2 < n, b[end] == 0xE2 else { return nil }
        let quote = location
        advance()
        let valueLocation = location
        var value: [UInt8] = []
        while pos < end { consumeValueCharacter(into: &value) }
        advance()
        warning("the value of '\(name)' is in curly quotes, as a word processor writes them; read as if in straight quotes", at: quote)
        return .attribute(
            MarkupAttribute(
                name: name, key: key, value: String(decoding: value, as: UTF8.self), nameLocation: nameLocation,
                valueLocation: valueLocation))
    }

    /// Where a quoted value starting at `start` should have ended, when its closing quote is
    /// missing: the text up to the next `quote` ends in ` name=`, the next attribute, whose own
    /// opening quote closed this value. The space before that name is returned; nil when the
    /// value looks whole. Looks no further than the line.
    func missingQuote(from start: Int, quote: UInt8) -> Int? {
        var end = start
        while end < n, b[end] != quote, b[end] != LF { end += 1 }
        guard end < n, b[end] == quote, end - 1 > start, b[end - 1] == EQUALS else { return nil }
        var s = end - 1
        while s > start, isNameByte(b[s - 1]) { s -= 1 }
        guard s < end - 1, s - 1 > start, isSpaceByte(b[s - 1]) else { return nil }
        return s - 1
    }

    func endsUnquotedValue(at i: Int) -> Bool {
        let c = b[i]
        return isSpaceByte(c) || c == GT || (c == SLASH && byte(i + 1) == GT) || startsNewTag(at: i)
    }

    /// One character of an attribute value: references decoded, dropped characters reported.
    mutating func consumeValueCharacter(into value: inout [UInt8]) {
        let start = location
        if b[pos] == AMP {
            switch Entities.scan(b, at: pos) {
            case .none:
                value.append(AMP)
                advanceASCII(1)
            case .unknown(let name, let length):
                reportUnknownEntity(name, at: start, length: length)
                value.append(contentsOf: b[pos..<(pos + length)])
                advanceASCII(length)
            case .invalid(let length):
                reportInvalidReference(at: start, length: length)
                advanceASCII(length)
            case .scalar(let scalar, let length):
                if let dropped = droppedScalar(scalar) {
                    reportDropped(dropped, at: start, length: length)
                } else {
                    value.append(contentsOf: String(Character(scalar)).utf8)
                }
                advanceASCII(length)
            }
            return
        }
        if let dropped = droppedCharacter(at: pos) {
            reportDropped(dropped, at: start)
            advance()
            return
        }
        let from = pos
        advance()
        value.append(contentsOf: b[from..<pos])
    }

    /// Reports something that cannot start an attribute (unless not `reporting`) and skips it:
    /// up to the next space, `>`, `/>` or new tag, passing over quoted strings whole. Returns
    /// false when an unclosed quote ended the input.
    mutating func skipStray(tag: String, reporting: Bool = true) -> Bool {
        let start = location
        let c = b[pos]
        let message: String
        switch c {
        case EQUALS:
            message = "expected an attribute name before '='"
        case DQUOTE, SQUOTE:
            message = "unexpected quoted value in tag \(tag)>; expected an attribute name"
        case SLASH:
            message = "unexpected '/' in tag \(tag)>; '/' may only come just before '>'"
        default:
            let scalar = String(decoding: b[pos..<(pos + sequenceLength(c))], as: UTF8.self).unicodeScalars.first!
            message = "unexpected character \(describe(scalar)) in tag \(tag)>; expected an attribute name or '>'"
        }
        // Always consume the offending character, so this makes progress whatever it is.
        var end = location
        if c == EQUALS {
            advanceASCII(1)
            end = location
            skipSpace()  // `= "red"`: the value belongs to the same mistake
        } else if c != DQUOTE, c != SQUOTE {
            advance()
            end = location
        }
        while pos < n, !endsUnquotedValue(at: pos) {
            let q = b[pos]
            if q == DQUOTE || q == SQUOTE {
                let quote = location
                advanceASCII(1)
                while pos < n, b[pos] != q { advance() }
                guard pos < n else {
                    if reporting { error(message, at: start, length: span(from: start, to: quote)) }
                    error("unterminated attribute value; the quote opened here is never closed", at: quote)
                    return false
                }
            }
            advance()
            end = location
        }
        if reporting { error(message, at: start, length: span(from: start, to: end)) }
        return true
    }

    /// Scalars from `a` to `b` when on one line; 1 otherwise.
    func span(from a: SourceLocation, to b: SourceLocation) -> Int {
        a.line == b.line ? max(1, b.column - a.column) : 1
    }

    func describe(_ s: Unicode.Scalar) -> String {
        switch s.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned,
            .privateUse, .surrogate:
            return unicodeCode(s.value)
        default:
            return "'\(s)'"
        }
    }

    // MARK: Vocabulary

    /// `vocabulary.spec(name)` for a lower-cased name, the last one found kept at hand.
    mutating func spec(_ name: String) -> TagSpec? {
        if let last = lastSpec, last.name == name { return last }
        guard let found = vocabulary.spec(name) else { return nil }
        lastSpec = found
        return found
    }

    mutating func finishStartTag(
        name: String, written: String, open: SourceLocation, attributes: [MarkupAttribute], selfClosing: Bool
    ) {
        guard let spec = spec(name) else {
            var message = "unknown tag <\(written)>; it is ignored and its text kept"
            if let guess = Suggestion.closest(to: name, in: vocabulary.tagNames) {
                message += "; did you mean <\(guess)>?"
            }
            warning(message, at: open, length: written.utf8.count + 1)
            unknownStartTags.insert(name)
            return
        }
        // The common case: every attribute known, none repeated; the list is kept as it is.
        if !attributes.repeatsAName && attributes.indices.allSatisfy({ spec.attributes.contains(attributes[$0].key) }) {
            nodes.append(.startTag(MarkupTag(name: name, attributes: attributes, location: open, selfClosing: selfClosing)))
            return
        }
        var kept: [MarkupAttribute] = []
        kept.reserveCapacity(attributes.count)
        for attribute in attributes {
            let key = attribute.key
            guard spec.attributes.contains(key) else {
                var message = "unknown attribute '\(attribute.name)' on <\(written)>"
                if let guess = Suggestion.closest(to: key, in: spec.sortedAttributes) {
                    message += "; did you mean '\(guess)'?"
                }
                warning(message, at: attribute.nameLocation, length: attribute.name.utf8.count)
                continue
            }
            if kept.contains(where: { $0.key == key }) {
                warning(
                    "attribute '\(attribute.name)' repeated; the last one is used",
                    at: attribute.nameLocation, length: attribute.name.utf8.count)
            }
            kept.append(attribute)
        }
        nodes.append(.startTag(MarkupTag(name: name, attributes: kept, location: open, selfClosing: selfClosing)))
    }

    mutating func finishEndTag(
        name: String, written: String, open: SourceLocation, attributes: [MarkupAttribute], selfClosing: Bool
    ) {
        let length = span(from: open, to: location)  // the whole end tag
        guard let spec = spec(name) else {
            if unknownStartTags.contains(name) { return }
            var message = "unknown tag </\(written)>; it is ignored"
            let candidates = vocabulary.tagNames.filter { vocabulary.spec($0)?.isVoid == false }
            if let guess = Suggestion.closest(to: name, in: candidates) {
                message += "; did you mean </\(guess)>?"
            }
            warning(message, at: open, length: written.utf8.count + 2)
            return
        }
        if spec.isVoid {
            warning("<\(spec.name)> never has an end tag; </\(written)> is ignored", at: open, length: length)
            return
        }
        if let first = attributes.first {
            warning("attributes on end tag </\(written)> are ignored", at: first.nameLocation, length: first.name.utf8.count)
        }
        if selfClosing {
            warning("'/' in end tag </\(written)> is ignored", at: open, length: length)
        }
        nodes.append(.endTag(name, open))
    }
}
