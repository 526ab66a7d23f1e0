import GalleyMarkup
import Testing

@Suite struct SourceFileTests {
    /// Mixed \n, \r\n and lone \r terminators; offsets map to line:column counting scalars.
    @Test func locationsAcrossAllTerminators() {
        let s = source("ab\r\ncd\ref\n中x")
        #expect(s.lineCount == 4)
        let expected: [(Int, String)] = [
            (0, "1:1"), (1, "1:2"), (2, "1:3"), (3, "1:4"), (4, "2:1"), (6, "2:3"),
            (7, "3:1"), (9, "3:3"), (10, "4:1"), (13, "4:2"), (14, "4:3"),
        ]
        for (offset, place) in expected {
            #expect(s.location(atByte: offset).description == place, "offset \(offset)")
            #expect(s.location(atByte: offset).offset == offset)
        }
    }

    /// Offsets outside the text are clamped rather than trapping.
    @Test func locationClampsOffsets() {
        let s = source("ab")
        #expect(s.location(atByte: -5) == SourceLocation(line: 1, column: 1, offset: 0))
        #expect(s.location(atByte: 99) == SourceLocation(line: 1, column: 3, offset: 2))
    }

    /// lineText drops each kind of terminator and is empty for lines that do not exist.
    @Test func lineTextWithoutTerminators() {
        let s = source("ab\r\ncd\ref\n中x")
        #expect(s.lineText(1) == "ab")
        #expect(s.lineText(2) == "cd")
        #expect(s.lineText(3) == "ef")
        #expect(s.lineText(4) == "中x")
        #expect(s.lineText(0) == "")
        #expect(s.lineText(5) == "")
    }

    /// A final newline starts one more, empty line (where an EOF caret goes).
    @Test func trailingNewlineMakesEmptyLastLine() {
        let s = source("a\n")
        #expect(s.lineCount == 2)
        #expect(s.lineText(2) == "")
        #expect(s.location(atByte: 2).description == "2:1")
    }

    /// The empty file has one empty line.
    @Test func emptyFile() {
        let s = source("")
        #expect(s.lineCount == 1)
        #expect(s.lineText(1) == "")
        #expect(s.location(atByte: 0).description == "1:1")
    }

    /// Valid bytes decode; a UTF-8 byte-order mark is removed and offsets start after it.
    @Test func bytesWithByteOrderMark() throws {
        let s = try SourceFile(path: "a.txt", bytes: [0xEF, 0xBB, 0xBF] + Array("a中".utf8))
        #expect(s.text == "a中")
        #expect(s.path == "a.txt")
        #expect(s.location(atByte: 1).description == "1:2")
    }

    /// The in-memory initialiser removes a leading U+FEFF too, and only a leading one.
    @Test func textWithByteOrderMark() {
        #expect(SourceFile(path: "x", text: "\u{FEFF}a\u{FEFF}").text == "a\u{FEFF}")
    }

    /// The example from the brief: the bad byte is on line 2 after one scalar.
    @Test func invalidUTF8IsLocated() {
        do {
            _ = try SourceFile(path: "bad.txt", bytes: [0x61, 0x0A, 0x62, 0xFF])
            Issue.record("expected an error")
        } catch {
            #expect(error.severity == .error)
            #expect(error.message == "invalid UTF-8: byte 0xFF at byte offset 3")
            #expect(error.file == "bad.txt")
            #expect(error.location == SourceLocation(line: 2, column: 2, offset: 3))
            #expect(
                DiagnosticRenderer.render(error, sources: { _ in nil })
                    == "bad.txt:2:2: error: invalid UTF-8: byte 0xFF at byte offset 3\n")
        }
    }

    /// Each kind of ill-formed sequence is reported at its first byte (as Python does);
    /// columns count scalars, CR and CRLF end lines.
    @Test(arguments: [
        ([0x61, 0xE2, 0x82] as [UInt8], "byte 0xE2 at byte offset 1", "1:2"),  // truncated at EOF
        ([0x61, 0xE2, 0x41], "byte 0xE2 at byte offset 1; the file may be in a single-byte encoding such as Windows-1252 or Latin-1: save it as UTF-8", "1:2"),  // missing continuation
        ([0xED, 0xA0, 0x80], "byte 0xED at byte offset 0", "1:1"),  // encoded surrogate
        ([0xC0, 0x80], "byte 0xC0 at byte offset 0", "1:1"),  // overlong
        ([0xF4, 0x90, 0x80, 0x80], "byte 0xF4 at byte offset 0", "1:1"),  // beyond U+10FFFF
        ([0x80], "byte 0x80 at byte offset 0; the file may be in a single-byte encoding such as Windows-1252 or Latin-1: save it as UTF-8", "1:1"),  // lone continuation
        ([0xE4, 0xB8, 0xAD, 0x0B], "", ""),  // valid: 中 then a control (not UTF-8's business)
        ([0x61, 0x0D, 0x62, 0xFE], "byte 0xFE at byte offset 3; the file may be in a single-byte encoding such as Windows-1252 or Latin-1: save it as UTF-8", "2:2"),  // lone CR ends line 1
        ([0x0D, 0x0A, 0x05, 0xFF], "byte 0xFF at byte offset 3", "2:2"),  // CRLF is one break
    ])
    func illFormedSequences(bytes: [UInt8], message: String, place: String) {
        do {
            _ = try SourceFile(path: "f", bytes: bytes)
            #expect(message.isEmpty, "expected \(message)")
        } catch {
            #expect(error.message == "invalid UTF-8: " + message)
            #expect(error.location?.description == place)
        }
    }

    /// What the file most likely is, when a byte says: UTF-16 (with or without its mark), or a
    /// single-byte encoding (a Windows-1252 curly quote, a Latin-1 é before plain text).
    @Test func encodingHints() {
        func message(_ bytes: [UInt8]) -> String {
            do {
                _ = try SourceFile(path: "f", bytes: bytes)
                return ""
            } catch { return error.message }
        }
        #expect(message([0xFF, 0xFE, 0x61, 0, 0x62, 0]).hasSuffix("; the file is UTF-16: save it as UTF-8"))
        #expect(message(Array("a\0b\0c\0d\0".utf8) + [0xE9, 0]).hasSuffix("; the file looks like UTF-16: save it as UTF-8"))
        #expect(message(Array("say ".utf8) + [0x93] + Array("hi".utf8)).hasSuffix("such as Windows-1252 or Latin-1: save it as UTF-8"))
        #expect(message(Array("caf".utf8) + [0xE9, 0x20]).hasSuffix("such as Windows-1252 or Latin-1: save it as UTF-8"))
    }

    /// With a byte-order mark the message counts file bytes; the location counts text bytes.
    @Test func invalidUTF8AfterByteOrderMark() {
        do {
            _ = try SourceFile(path: "f", bytes: [0xEF, 0xBB, 0xBF, 0x61, 0xFF])
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "invalid UTF-8: byte 0xFF at byte offset 4")
            #expect(error.location == SourceLocation(line: 1, column: 2, offset: 1))
        }
    }
}
