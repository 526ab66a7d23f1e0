import GalleySupport
import Glibc

/// The files the targets read and write, wherever the fuzzer or the test runs from.
enum FuzzFiles {
    /// The repository, found from this file's place in it (Sources/GalleyFuzz/).
    static let repository: String = FilePath.directory(of: FilePath.directory(of: FilePath.directory(of: "\(#filePath)")))

    /// Where markup's relative image paths start: the samples' `images/` are there.
    static let samples = FilePath.join(repository, "samples")

    /// A folder of this process's own for what a target writes: an emoticon pack (with an image
    /// of each kind its codes may name) and a PDF. Removed when the process exits.
    static let scratch: String = {
        var template = Array(FilePath.join(FilePath.temporaryDirectory, "galley-fuzz-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else { fatalError("fuzz: cannot make a temporary folder") }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let pack = FilePath.join(path, "pack")
        mkdir(pack, 0o755)
        write(onePixelPNG, to: FilePath.join(pack, "a.png"))
        write(Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"/>"#.utf8), to: FilePath.join(pack, "b.svg"))
        atexit { FuzzFiles.removeScratch() }
        return path
    }()

    static var pack: String { FilePath.join(scratch, "pack") }
    static var pdf: String { FilePath.join(scratch, "out.pdf") }

    /// Fonts pinned as the tests pin them, unless the caller chose; the scratch folder made.
    static func prepare() {
        setenv("FONTCONFIG_FILE", FilePath.join(repository, "Tests/fonts.conf"), 0)
        _ = scratch
    }

    /// Replaces the file at `path` with `bytes`.
    static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { fatalError("fuzz: cannot write \(path)") }
        defer { close(fd) }
        if let e = bytes.withUnsafeBytes({ RawIO.writeAll(fd, $0) }) { fatalError("fuzz: cannot write \(path): \(e)") }
    }

    private static func removeScratch() {
        for name in ["pack/pack.json", "pack/a.png", "pack/b.svg", "out.pdf"] { unlink(FilePath.join(scratch, name)) }
        for name in ManifestFuzz.names { unlink(FilePath.join(FilePath.join(scratch, "issue"), name)) }
        rmdir(FilePath.join(scratch, "issue"))
        rmdir(pack)
        rmdir(scratch)
    }

    /// A PNG's signature, header and end: all the story builder reads of an image.
    static let onePixelPNG: [UInt8] = {
        func be(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        let header = Array("IHDR".utf8) + be(1) + be(1) + [8, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + header + be(0) + be(0) + Array("IEND".utf8) + be(0)
    }()
}
