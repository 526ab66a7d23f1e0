import CPango
import GalleySupport
import Glibc

/// A SHA-256 digest (GLib's) of everything fed to it, each value with its length before it so
/// that no two sequences of values feed the same bytes: the layout cache's keys.
package final class ContentDigest {
    private let checksum: OpaquePointer

    package init() {
        checksum = g_checksum_new(G_CHECKSUM_SHA256)
    }

    deinit { g_checksum_free(checksum) }

    package func add(_ bytes: [UInt8]) {
        add(count: bytes.count)
        bytes.withUnsafeBufferPointer { g_checksum_update(checksum, $0.baseAddress, $0.count) }
    }

    package func add(_ s: String) { add(Array(s.utf8)) }

    package func add(count: Int) {
        withUnsafeBytes(of: Int64(count).littleEndian) { raw in
            g_checksum_update(checksum, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
        }
    }

    /// The digest as 64 hexadecimal digits (the digest can take nothing more after this).
    package func hex() -> String {
        String(cString: g_checksum_get_string(checksum))
    }

    /// The digest of a whole file's bytes, nil when it cannot be read.
    package static func ofFile(_ path: String) -> String? {
        guard case .success(let bytes) = RawIO.readFile(path) else { return nil }
        let d = ContentDigest()
        d.add(bytes)
        return d.hex()
    }
}

/// What a file is on disk at a moment, cheaply: its size and the time it last changed. A font
/// a cached layout was set in must still be this when the layout is used again.
package struct FileStamp: Equatable, Sendable {
    package var size: Int
    package var modified: Int

    package init(size: Int, modified: Int) {
        self.size = size
        self.modified = modified
    }

    package static func of(_ path: String) -> FileStamp? {
        FileIdentity.status(path).map { s in
            FileStamp(size: Int(s.st_size), modified: Int(s.st_mtim.tv_sec) * 1_000_000_000 + Int(s.st_mtim.tv_nsec))
        }
    }
}

extension ProjectFonts {
    /// The fonts fontconfig can choose from, as stamps of its font folders (installing or
    /// removing a font changes its folder): a layout cached with other fonts installed is not
    /// used, since a face name may now resolve to another font.
    package static func environment(into digest: ContentDigest) {
        guard let list = FcConfigGetFontDirs(FcConfigGetCurrent()) else { return }
        defer { FcStrListDone(list) }
        var folders: [String] = []
        while let dir = FcStrListNext(list) { folders.append(String(cString: dir)) }
        for folder in folders.sorted() {
            digest.add(folder)
            let stamp = FileStamp.of(folder)
            digest.add(count: stamp?.modified ?? -1)
        }
        // The project's fonts, added file by file (`ProjectFonts`), so no folder of theirs is
        // listed: their names, as a folder's stamp would tell one added or removed. (A font
        // changed in place is found by the stamps of the fonts an entry used, with a warning.)
        var files: [String] = []
        if let set = FcConfigGetFonts(FcConfigGetCurrent(), FcSetApplication) {
            for i in 0..<Int(set.pointee.nfont) {
                var file: UnsafeMutablePointer<FcChar8>?
                if let font = set.pointee.fonts[i], FcPatternGetString(font, "file", 0, &file) == FcResultMatch, let file {
                    files.append(String(cString: file))
                }
            }
        }
        for file in Set(files).sorted() { digest.add(file) }
    }
}
