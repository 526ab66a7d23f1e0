import Glibc

/// What a path names on disk, told apart the way the kernel does: by device and inode, so two
/// spellings of one file (`./a.txt`, `../dir/a.txt`, a hard link, a symlink) compare equal.
package struct FileIdentity: Hashable, Sendable {
    package let device: UInt64
    package let inode: UInt64

    /// The identity a file's status gives.
    package init(_ s: Glibc.stat) {
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
    }

    /// The kinds of file an output can be.
    package enum Kind: Sendable {
        case regular, directory, characterDevice, blockDevice, fifo, socket, other
    }

    /// The identity of the file `path` names, following symlinks; nil when there is none.
    package static func of(_ path: String) -> FileIdentity? {
        status(path).map(FileIdentity.init)
    }

    /// The file's status, following symlinks; nil when it does not exist (or cannot be seen).
    package static func status(_ path: String) -> Glibc.stat? {
        var s = Glibc.stat()
        return stat(path, &s) == 0 ? s : nil
    }

    /// Why `path` leads to no file though something is there: a symbolic link whose target is
    /// missing, or a loop of links. Nil for anything else.
    package static func brokenLink(_ path: String) -> String? {
        var s = Glibc.stat()
        guard stat(path, &s) != 0 else { return nil }
        let reason = errno
        guard lstat(path, &s) == 0, s.st_mode & S_IFMT == S_IFLNK else { return nil }
        return reason == ELOOP ? "it is a loop of symbolic links" : "it is a symbolic link to a file that does not exist"
    }

    /// Whether `path` names a folder (following symlinks).
    package static func isFolder(_ path: String) -> Bool {
        status(path).map { kind($0) == .directory } ?? false
    }

    /// The kind a status says.
    package static func kind(_ s: Glibc.stat) -> Kind {
        switch s.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        default: return .other
        }
    }

    /// `path` with its symlinks followed to the file they name at last, which may not exist yet
    /// (a dangling link names the file to create). Relative link targets are read from the
    /// link's folder. After 40 links (the kernel's own limit) the path is returned as it is, and
    /// opening it then fails with the kernel's "too many levels of symbolic links".
    package static func resolvingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var s = Glibc.stat()
            guard lstat(current, &s) == 0, s.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : FilePath.join(FilePath.directory(of: current), target)
        }
        return current
    }
}
