// String trimming and file-path helpers for the whole pipeline.
//
// Galley links FoundationEssentials, not the full Foundation: the latter (with its ICU and
// internationalisation libraries) adds about 7 MiB to every run's memory and some start-up
// time, for `trimmingCharacters` and `NSString` path methods only. These are the few
// operations the code needs, written for exactly its uses.

import Glibc

extension String {
    /// Whether the text starts and ends with printable ASCII other than space: then it has
    /// nothing to trim (such a byte cannot be white space, nor start or end a grapheme cluster
    /// that is). Most attribute values are so.
    package var hasPrintableASCIIEnds: Bool {
        guard let first = utf8.first, let last = utf8.last else { return false }
        return first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space: spaces and tabs (every Unicode
    /// white space but line ends), and line ends too when `newlines` is true.
    package func trimmed(newlines: Bool = false) -> String {
        let whole = String(self)
        if whole.hasPrintableASCIIEnds { return whole }
        func isSpace(_ c: Character) -> Bool { c.isWhitespace && (newlines || !c.isNewline) }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return String(self[first...last])
    }

    /// The text followed by spaces up to `width` characters (cut to `width` when longer).
    package func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : String(self) + String(repeating: " ", count: width - count)
    }

    /// The text without leading and trailing characters of `set`.
    package func trimmed(of set: Set<Character>) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }) else { return "" }
        let last = lastIndex(where: { !set.contains($0) })!
        return String(self[first...last])
    }
}

/// Operations on file paths written with `/`, as `NSString`'s path methods do them.
package enum FilePath {
    /// The folder for temporary files: `TMPDIR`, else /tmp.
    package static var temporaryDirectory: String {
        if let t = getenv("TMPDIR"), t.pointee != 0 { return String(cString: t) }
        return "/tmp"
    }

    /// `name` inside `directory` (`name` alone when the directory is empty or `.` is not wanted).
    package static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        if name.isEmpty { return directory }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The path without its last component: "" for a bare name, "/" for a file at the root.
    package static func directory(of path: String) -> String {
        let trimmed = stripTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return stripTrailingSlashes(String(trimmed[..<slash]))
    }

    /// The last component of the path ("b.txt" for "a/b.txt", "a" for "a/").
    package static func name(of path: String) -> String {
        let trimmed = stripTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        let name = String(trimmed[trimmed.index(after: slash)...])
        return name.isEmpty ? trimmed : name
    }

    /// The path without the extension of its last component ("a/b" for "a/b.txt"; a leading
    /// dot, as in ".profile", is not an extension).
    package static func deletingExtension(_ path: String) -> String {
        let trimmed = stripTrailingSlashes(path)
        let last = name(of: trimmed)
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return trimmed }
        let extensionLength = last.distance(from: dot, to: last.endIndex)
        return String(trimmed.dropLast(extensionLength))
    }

    /// Makes the folder `path` and the folders above it that are missing, as `mkdir -p` does;
    /// whether `path` is a folder afterwards (false: a file of that name, or no permission).
    @discardableResult
    package static func makeFolders(_ path: String) -> Bool {
        if FileIdentity.isFolder(path) { return true }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            mkdir(prefix, 0o777)
            prefix += "/"
        }
        return FileIdentity.isFolder(path)
    }

    private static func stripTrailingSlashes(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        return String(p)
    }
}
