import GalleySupport
/// The text of one input file, validated as UTF-8, with a table of line starts so that byte
/// offsets can be turned into `line:column` places and lines can be shown in diagnostics.
///
/// All offsets (`SourceLocation.offset`, `location(atByte:)`) count UTF-8 bytes of `text`,
/// i.e. after a leading byte-order mark has been removed.
///
/// Line terminators are `\n`, `\r\n` and a lone `\r`.
public struct SourceFile: Sendable {
    /// The path as the user gave it; `<stdin>` for standard input.
    public let path: String
    /// The decoded text, a leading UTF-8 byte-order mark removed.
    public let text: String
    /// The UTF-8 bytes of `text` (offsets index into this).
    let utf8: [UInt8]
    /// The byte offset at which each line starts. `lineStarts[0] == 0`; a file ending in a
    /// line terminator has a last, empty line starting at `utf8.count`.
    let lineStarts: [Int]

    /// Decodes `bytes` as UTF-8, dropping a leading byte-order mark.
    ///
    /// On ill-formed input, throws an error located at the first byte of the first ill-formed
    /// sequence: `invalid UTF-8: byte 0xFF at byte offset 1234`. The offset in the message
    /// counts bytes of the file as given (a byte-order mark included), which is what a hex
    /// viewer shows; the location's `offset` counts bytes after the mark, like every location
    /// of this file would.
    public init(path: String, bytes: some Collection<UInt8>) throws(Diagnostic) {
        var raw = Array(bytes)
        let bomLength = SourceFile.hasByteOrderMark(raw) ? 3 : 0
        if let bad = SourceFile.firstIllFormedByte(in: raw, from: bomLength) {
            throw SourceFile.invalidUTF8(path: path, raw: raw, bad: bad, bomLength: bomLength)
        }
        if bomLength > 0 { raw.removeFirst(bomLength) }
        self.init(path: path, validated: String(decoding: raw, as: UTF8.self), utf8: raw)
    }

    /// In-memory text (tests, generated input). A leading U+FEFF is removed like a byte-order mark.
    public init(path: String, text: String) {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        self.init(path: path, validated: text, utf8: Array(text.utf8))
    }

    private init(path: String, validated text: String, utf8: [UInt8]) {
        self.path = path
        self.text = text
        self.utf8 = utf8
        self.lineStarts = SourceFile.lineStarts(of: utf8)
    }

    /// The number of lines; a terminator at the very end starts one more (empty) line.
    public var lineCount: Int { lineStarts.count }

    /// The place of a byte offset (clamped to the text). Finding the line is a binary search;
    /// the column counts the scalars between the line start and `offset`.
    public func location(atByte offset: Int) -> SourceLocation {
        let offset = min(max(0, offset), utf8.count)
        // The last line start that is <= offset (the first one always is: it is 0).
        let lo = max(0, lineStarts.partitionPoint { $0 > offset } - 1)
        var column = 1
        var i = lineStarts[lo]
        while i < offset {
            if utf8[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return SourceLocation(line: lo + 1, column: column, offset: offset)
    }

    /// The text of a 1-based line without its terminator; empty for lines that do not exist.
    public func lineText(_ line: Int) -> Substring {
        guard line >= 1, line <= lineStarts.count else { return text[text.endIndex...] }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] : utf8.count
        if end > start, utf8[end - 1] == 0x0A { end -= 1 }
        if end > start, utf8[end - 1] == 0x0D { end -= 1 }
        let view = text.utf8
        let from = view.index(view.startIndex, offsetBy: start)
        let to = view.index(from, offsetBy: end - start)
        return text[from..<to]
    }

    // MARK: - Building

    private static func hasByteOrderMark(_ raw: [UInt8]) -> Bool {
        raw.count >= 3 && raw[0] == 0xEF && raw[1] == 0xBB && raw[2] == 0xBF
    }

    private static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts = [0]
        bytes.withUnsafeBufferPointer { b in
            let n = b.count
            var i = 0
            while i < n {
                // Most bytes are neither, nor any other byte below 0x0E: skipped eight at a time.
                // A byte below 0x0E is the only kind that sets its top bit in `(w - 0x0E…) & ~w`
                // (a borrow starts at such a byte, so it cannot make one up).
                while i + 8 <= n {
                    let w = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)
                    if (w &- 0x0E0E_0E0E_0E0E_0E0E) & ~w & 0x8080_8080_8080_8080 != 0 { break }
                    i += 8
                }
                guard i < n else { break }
                let c = b[i]
                if c == 0x0A {
                    starts.append(i + 1)
                } else if c == 0x0D, i + 1 >= n || b[i + 1] != 0x0A {
                    starts.append(i + 1)  // a lone CR; the LF of CRLF is the one that counts
                }
                i += 1
            }
        }
        return starts
    }

    /// The offset of the first byte of the first ill-formed sequence (Unicode Table 3-7), or nil.
    static func firstIllFormedByte(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { firstIllFormedByte(in: $0, from: start) }
    }

    private static func firstIllFormedByte(in b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let n = b.count
        var i = start
        while i < n {
            let c = b[i]
            if c < 0x80 {
                // ASCII runs, eight bytes at a time.
                i += 1
                while i + 8 <= n {
                    let word = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 != 0 { break }
                    i += 8
                }
                continue
            }
            // The allowed range of the second byte, and the sequence length.
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            if i + length > n { return i }
            if b[i + 1] < low || b[i + 1] > high { return i }
            var k = 2
            while k < length {
                if b[i + k] & 0xC0 != 0x80 { return i }
                k += 1
            }
            i += length
        }
        return nil
    }

    private static func invalidUTF8(path: String, raw: [UInt8], bad: Int, bomLength: Int) -> Diagnostic {
        // Everything before `bad` is well-formed, so scalars start at non-continuation bytes.
        var line = 1
        var lineStart = bomLength
        var i = bomLength
        while i < bad {
            let c = raw[i]
            if c == 0x0A || (c == 0x0D && raw[i + 1] != 0x0A) {  // raw[bad] exists and is not LF
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        var column = 1
        for j in lineStart..<bad where raw[j] & 0xC0 != 0x80 { column += 1 }
        let hex = String(raw[bad], radix: 16, uppercase: true)
        let byte = hex.count == 1 ? "0" + hex : hex
        return .error(
            "invalid UTF-8: byte 0x\(byte) at byte offset \(bad)" + encodingHint(raw, bad: bad), file: path,
            at: SourceLocation(line: line, column: column, offset: bad - bomLength))
    }

    /// What the file most likely is when it is not UTF-8, from its first bytes or the bad one:
    /// UTF-16 (Notepad's "Unicode", a byte-order mark), or a single-byte encoding such as
    /// Windows-1252 (its curly quotes and dashes are bytes 0x80 to 0x9F).
    static func encodingHint(_ raw: [UInt8], bad: Int) -> String {
        if raw.starts(with: [0xFF, 0xFE]) || raw.starts(with: [0xFE, 0xFF]) {
            return "; the file is UTF-16: save it as UTF-8"
        }
        // Every other byte 0 among the first: UTF-16 without a mark.
        let head = raw.prefix(64)
        if head.count >= 8, head.enumerated().filter({ $0.element == 0 }).count * 3 >= head.count {
            return "; the file looks like UTF-16: save it as UTF-8"
        }
        if (0x80...0xFE).contains(raw[bad]) && (bad + 1 >= raw.count || raw[bad + 1] & 0xC0 != 0x80) {
            return "; the file may be in a single-byte encoding such as Windows-1252 or Latin-1: save it as UTF-8"
        }
        return ""
    }
}
