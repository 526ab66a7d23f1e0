import Glibc

/// The folder a document's files are read under. A path is admitted when the file it names,
/// with every symbolic link followed, lies in the folder or below it, so `../`, absolute paths
/// and links that lead out are refused alike.
///
/// Whether a path is admitted never depends on whether its file exists: a path that leads out
/// is refused the same way either way, so a refusal tells nothing about the world outside.
package struct FileRoot: Sendable, Equatable {
    /// The folder as the user named it, for messages.
    package let shown: String
    /// The folder's canonical path: absolute, without `.`, `..` or links.
    package let canonical: String

    /// The root at `directory` ("" is the working folder).
    package init(_ directory: String) {
        shown = directory.isEmpty ? "." : directory
        canonical = Self.canonicalPath(directory.isEmpty ? "." : directory)
    }

    /// Whether the file `path` names lies under the root.
    package func admits(_ path: String) -> Bool {
        Self.isInside(Self.canonicalPath(path), canonical)
    }

    /// Whether the file lies under any of the roots.
    package static func admits(_ path: String, roots: [FileRoot]) -> Bool {
        let c = canonicalPath(path)
        return roots.contains { isInside(c, $0.canonical) }
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        if folder == "/" { return path.hasPrefix("/") }
        return path == folder || path.hasPrefix(folder + "/")
    }

    /// `path` made absolute, with links followed as far as the file system has them and `.`
    /// and `..` taken away. The part that does not exist is normalised as written; a dangling
    /// link at the end is followed to the file it would create.
    package static func canonicalPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FilePath.join(workingDirectory(), path)
        if let real = realPath(absolute) { return real }
        let followed = FileIdentity.resolvingLinks(absolute)
        let folder = FilePath.directory(of: followed)
        let name = FilePath.name(of: followed)
        guard !folder.isEmpty, folder != followed else { return normalised(followed) }
        let base = canonicalPath(folder)
        switch name {
        case ".": return base
        case "..": return base == "/" ? "/" : FilePath.directory(of: base)
        default: return FilePath.join(base, name)
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(cString: buffer)
    }

    /// `.` and `..` taken away by their names alone.
    static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
