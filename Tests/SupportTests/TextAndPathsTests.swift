import Glibc
import Testing

@testable import GalleySupport

// The Foundation replacements behave as the NSString / CharacterSet methods they replace.
@Suite struct TrimmingTests {
    @Test func spacesAndTabs() { #expect(" \t red \u{00A0}".trimmed() == "red") }
    @Test func keepsInnerSpace() { #expect("  Noto Serif  ".trimmed() == "Noto Serif") }
    @Test func lineEndsOnlyWhenAsked() {
        #expect("\n x \n".trimmed() == "\n x \n")
        #expect("\n x \r\n".trimmed(newlines: true) == "x")
    }
    @Test func allSpace() { #expect("   ".trimmed() == "") }
    @Test func substring() { #expect("a= b ".dropFirst(2).trimmed() == "b") }
    @Test func ofASet() { #expect("[[微笑] ".trimmed(of: ["[", "]", " "]) == "微笑") }
    @Test func padded() {
        #expect("ab".padded(to: 4) == "ab  ")
        #expect("abcdef".padded(to: 4) == "abcd")
    }
}

@Suite struct FilePathTests {
    @Test func join() {
        #expect(FilePath.join("a", "b.png") == "a/b.png")
        #expect(FilePath.join("a/", "b.png") == "a/b.png")
        #expect(FilePath.join("", "b.png") == "b.png")
        #expect(FilePath.join("/", "b.png") == "/b.png")
    }
    @Test func directory() {
        #expect(FilePath.directory(of: "a/b/c.txt") == "a/b")
        #expect(FilePath.directory(of: "c.txt") == "")
        #expect(FilePath.directory(of: "/c.txt") == "/")
        #expect(FilePath.directory(of: "a/b/") == "a")
    }
    @Test func name() {
        #expect(FilePath.name(of: "a/b/c.txt") == "c.txt")
        #expect(FilePath.name(of: "a/b/") == "b")
        #expect(FilePath.name(of: "/") == "/")
    }
    @Test func deletingExtension() {
        #expect(FilePath.deletingExtension("a/issue.12.txt") == "a/issue.12")
        #expect(FilePath.deletingExtension("a.b/c") == "a.b/c")
        #expect(FilePath.deletingExtension(".profile") == ".profile")
    }
}

@Suite struct RawIOTests {
    @Test func roundTripThroughAFile() throws {
        let path = FilePath.join(FilePath.temporaryDirectory, "galley-rawio-\(getpid()).bin")
        defer { unlink(path) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        let failure = bytes.withUnsafeBytes { RawIO.writeAll(fd, $0) }
        close(fd)
        #expect(failure == nil)
        #expect(try RawIO.readFile(path).get() == bytes)
    }
    @Test func missingFileGivesTheSystemReason() {
        guard case .failure(let e) = RawIO.readFile("/nonexistent/galley") else {
            Issue.record("read a missing file")
            return
        }
        #expect(e.message == "No such file or directory")
    }
}
