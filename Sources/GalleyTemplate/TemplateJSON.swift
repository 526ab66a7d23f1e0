import GalleyMarkup
import GalleySupport

/// A small JSON reader for template files that remembers where every key and value was written,
/// so that template errors can point at the offending text.
///
/// It follows RFC 8259 strictly (no comments, no trailing commas, no single quotes), runs in time
/// linear in the input, and refuses nesting deeper than `maxDepth` instead of recursing without
/// bound. Errors are `(message, location)` pairs; the caller adds the file name.
package struct JSONValue: Sendable {
    package enum Kind: Sendable {
        case null
        case bool(Bool)
        /// The value and its text as written (for messages).
        case number(Double, String)
        case string(String)
        case array([JSONValue])
        case object([JSONMember])
    }

    package var kind: Kind
    /// Where the value's first character is.
    package var start: SourceLocation
    /// Just past the value's last character.
    package var end: SourceLocation

    package init(_ kind: Kind, start: SourceLocation, end: SourceLocation) {
        self.kind = kind
        self.start = start
        self.end = end
    }

    /// Scalars to underline: the whole value when it sits on one line, else its first character.
    package var length: Int { start.line == end.line ? max(1, end.column - start.column) : 1 }

    /// How the value reads in a "got …" clause: strings quoted, numbers as written,
    /// arrays and objects by kind.
    package var described: String {
        switch kind {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(_, let text): return text
        case .string(let s):
            let short = s.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(s.unicodeScalars.prefix(40))) + "…" : s
            return JSONWriter.quote(short)
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// One `"key": value` pair of an object, with where the key was written.
package struct JSONMember: Sendable {
    package var key: String
    package var keyStart: SourceLocation
    package var keyEnd: SourceLocation
    package var value: JSONValue

    package var keyLength: Int { keyStart.line == keyEnd.line ? max(1, keyEnd.column - keyStart.column) : 1 }
}

/// A JSON syntax error: what went wrong and where.
package struct JSONSyntaxError: Error, Equatable {
    package var message: String
    package var location: SourceLocation
    package var length: Int = 1
}

package struct JSONReader {
    /// Objects and arrays nested deeper than this are refused.
    package static let maxDepth = 64

    private let bytes: [UInt8]
    private var pos = 0
    private var line = 1
    private var column = 1
    private var depth = 0

    private init(_ text: String) {
        bytes = Array(text.utf8)
        // A byte-order mark is not part of the JSON text.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { pos = 3 }
    }

    /// Parses one complete JSON text.
    package static func parse(_ text: String) -> Result<JSONValue, JSONSyntaxError> {
        var reader = JSONReader(text)
        do throws(JSONSyntaxError) {
            reader.skipSpace()
            if reader.atEnd {
                throw JSONSyntaxError(message: "the file is empty; expected a JSON object", location: reader.here)
            }
            let value = try reader.value()
            reader.skipSpace()
            if !reader.atEnd {
                throw reader.expected("unexpected text after the end of the JSON value")
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Position

    private var atEnd: Bool { pos >= bytes.count }
    private var peek: UInt8? { pos < bytes.count ? bytes[pos] : nil }
    private var here: SourceLocation { SourceLocation(line: line, column: column, offset: pos) }

    /// Moves past one byte, keeping line and column (columns count scalars, so only
    /// the first byte of a UTF-8 sequence moves the column).
    private mutating func advance() {
        let b = bytes[pos]
        pos += 1
        if b == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if b & 0xC0 != 0x80 {
            column += 1
        }
    }

    private mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { advance() }
    }

    private func fail(_ message: String, at location: SourceLocation? = nil, length: Int = 1) -> JSONSyntaxError {
        JSONSyntaxError(message: message, location: location ?? here, length: length)
    }

    /// `fail(message)` at the current position, unless a comment starts there: then say so.
    private func expected(_ message: String) -> JSONSyntaxError {
        fail(peek == UInt8(ascii: "/") ? "comments are not allowed in JSON" : message)
    }

    // MARK: - Values

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard let b = peek else { throw fail("unexpected end of file; expected a value") }
        switch b {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""):
            let start = here
            let s = try string()
            return JSONValue(.string(s), start: start, end: here)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            return try word()
        case UInt8(ascii: "'"): throw fail("strings need double quotes (\"), not single quotes")
        case UInt8(ascii: "/"): throw fail("comments are not allowed in JSON")
        case UInt8(ascii: "."), UInt8(ascii: "+"): throw fail("malformed number; numbers start with a digit or '-'")
        default: throw fail("expected a value, found \(describeHere())")
        }
    }

    /// The character at the current position, for messages.
    private func describeHere() -> String {
        guard let b = peek else { return "the end of the file" }
        if b < 0x20 { return "a control character" }
        var end = pos + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'" + String(decoding: bytes[pos..<end], as: UTF8.self) + "'"
    }

    private mutating func enter(_ start: SourceLocation) throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maxDepth {
            throw fail("JSON nested too deeply (more than \(Self.maxDepth) levels)", at: start)
        }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        let start = here
        try enter(start)
        advance()  // {
        var members: [JSONMember] = []
        skipSpace()
        if peek == UInt8(ascii: "}") {
            advance()
            depth -= 1
            return JSONValue(.object(members), start: start, end: here)
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else {
                if peek == UInt8(ascii: "}") { throw fail("trailing comma before '}'") }
                if atEnd { throw fail("unexpected end of file; expected a quoted key") }
                if let b = peek, isWordByte(b) { throw fail("keys need double quotes (\"), found \(wordHere())") }
                throw expected(members.isEmpty ? "expected a quoted key or '}'" : "expected a quoted key after ','")
            }
            let keyStart = here
            let key = try string()
            let keyEnd = here
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw expected("expected ':' after object key") }
            advance()
            skipSpace()
            let v = try value()
            members.append(JSONMember(key: key, keyStart: keyStart, keyEnd: keyEnd, value: v))
            skipSpace()
            if peek == UInt8(ascii: ",") {
                advance()
                continue
            }
            if peek == UInt8(ascii: "}") {
                advance()
                depth -= 1
                return JSONValue(.object(members), start: start, end: here)
            }
            throw expected("expected ',' or '}' after object member")
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        let start = here
        try enter(start)
        advance()  // [
        var elements: [JSONValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            advance()
            depth -= 1
            return JSONValue(.array(elements), start: start, end: here)
        }
        while true {
            skipSpace()
            if peek == UInt8(ascii: "]") { throw fail("trailing comma before ']'") }
            elements.append(try value())
            skipSpace()
            if peek == UInt8(ascii: ",") {
                advance()
                continue
            }
            if peek == UInt8(ascii: "]") {
                advance()
                depth -= 1
                return JSONValue(.array(elements), start: start, end: here)
            }
            throw expected("expected ',' or ']' after array element")
        }
    }

    /// Reads a string starting at its opening quote; leaves the position after the closing quote.
    private mutating func string() throws(JSONSyntaxError) -> String {
        let open = here
        advance()  // "
        var out: [UInt8] = []
        while true {
            guard let b = peek, b != UInt8(ascii: "\n"), b != UInt8(ascii: "\r") else {
                throw fail("unterminated string", at: open)
            }
            switch b {
            case UInt8(ascii: "\""):
                advance()
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let escapeStart = here
                advance()
                guard let e = peek else { throw fail("unterminated string", at: open) }
                let escaped = describeHere().dropFirst().dropLast()
                advance()
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try unicodeEscape(startingAt: escapeStart)
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw fail("invalid escape '\\\(escaped)' in string", at: escapeStart, length: 2)
                }
            default:
                if b < 0x20 { throw fail("control character in string; write it as an escape such as \\t") }
                out.append(b)
                advance()
            }
        }
    }

    /// The scalar of a `\uXXXX` escape (after the `\u`), joining a surrogate pair.
    private mutating func unicodeEscape(startingAt start: SourceLocation) throws(JSONSyntaxError) -> Unicode.Scalar {
        let high = try hex4(escapeStart: start)
        if (0xD800...0xDBFF).contains(high) {
            guard peek == UInt8(ascii: "\\"), pos + 1 < bytes.count, bytes[pos + 1] == UInt8(ascii: "u") else {
                throw fail("invalid \\u escape: unpaired surrogate", at: start, length: 6)
            }
            advance()
            advance()
            let low = try hex4(escapeStart: start)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw fail("invalid \\u escape: unpaired surrogate", at: start, length: 12)
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else {
            throw fail("invalid \\u escape: unpaired surrogate", at: start, length: 6)
        }
        return scalar
    }

    private mutating func hex4(escapeStart: SourceLocation) throws(JSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let b = peek else { throw fail("invalid \\u escape; expected four hex digits", at: escapeStart) }
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape; expected four hex digits", at: escapeStart)
            }
            v = v * 16 + d
            advance()
        }
        return v
    }

    /// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = here
        let startPos = pos
        func digits() -> Int {
            var n = 0
            while let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { advance(); n += 1 }
            return n
        }
        var ok = true
        if peek == UInt8(ascii: "-") { advance() }
        if peek == UInt8(ascii: "0") {
            advance()
            if let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { ok = false }
        } else if digits() == 0 {
            ok = false
        }
        if ok, peek == UInt8(ascii: ".") {
            advance()
            if digits() == 0 { ok = false }
        }
        if ok, peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            advance()
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { advance() }
            if digits() == 0 { ok = false }
        }
        // Swallow the rest of a malformed token (01, 1.x, 12mm) so the message can quote it.
        while let b = peek, isWordByte(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") {
            ok = false
            advance()
        }
        let text = String(decoding: bytes[startPos..<pos], as: UTF8.self)
        let length = here.column - start.column
        guard ok else {
            let isLength = (try? LengthParser.points(text).get()) != nil
            let hint = isLength && text.contains(where: \.isLetter) ? "; lengths with units need quotes, as in \"\(text)\"" : ""
            throw fail("malformed number '\(text)'\(hint)", at: start, length: length)
        }
        guard let v = Double(text), v.isFinite else {
            throw fail("number '\(text)' is out of range", at: start, length: length)
        }
        return JSONValue(.number(v, text), start: start, end: here)
    }

    private func isWordByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b >= 0x80
    }

    /// The word at the current position, quoted, for messages.
    private func wordHere() -> String {
        var end = pos
        while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
        return "'" + String(decoding: bytes[pos..<end], as: UTF8.self) + "'"
    }

    /// true, false or null; any other bare word is an error.
    private mutating func word() throws(JSONSyntaxError) -> JSONValue {
        let start = here
        let startPos = pos
        while let b = peek, isWordByte(b) { advance() }
        let text = String(decoding: bytes[startPos..<pos], as: UTF8.self)
        switch text {
        case "true": return JSONValue(.bool(true), start: start, end: here)
        case "false": return JSONValue(.bool(false), start: start, end: here)
        case "null": return JSONValue(.null, start: start, end: here)
        default:
            let length = here.column - start.column
            if ["true", "false", "null"].contains(text.lowercased()) {
                throw fail("unexpected word '\(text)'; did you mean '\(text.lowercased())'?", at: start, length: length)
            }
            throw fail("unexpected word '\(text)'; strings need double quotes, as in \"\(text)\"", at: start, length: length)
        }
    }
}

/// Writes JSON text for template files.
package enum JSONWriter {
    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as is.
    package static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F || u.value == 0x2028 || u.value == 0x2029 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
