import CGalleySignals
import FoundationEssentials
import GalleyMarkup
import GalleySupport
import Glibc

/// A file made for this process alone: created with `O_EXCL` (so nothing already there, a
/// symlink planted by someone else included, is ever opened), removed on `discard`, and removed
/// on SIGINT, SIGTERM, SIGHUP or SIGPIPE before the process dies of the signal. The writer
/// (Cairo, libpng) opens it again by path; `isStillOurs` tells whether that path still names the
/// file made here.
public final class TemporaryFile {
    /// Where the caller writes.
    public let path: String
    private let identity: FileIdentity
    /// The file's slot in the list removed on a signal (-1: none, or forgotten).
    private var slot: Int32
    /// False once the file is removed or renamed into place.
    private var owned = true

    /// A new empty file in `folder`, named after `name`, with permission bits `mode` (before the
    /// umask, as `open` applies it; an existing output's bits are copied exactly with `keepMode`).
    public init(in folder: String, name: String, mode: mode_t = 0o666) throws(RenderError) {
        Self.removeLeftovers(in: folder, name: name)
        var lastError: Int32 = 0
        for _ in 0..<16 {
            let candidate = FilePath.join(folder, ".\(Self.stem(name)).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
            if fd < 0 {
                lastError = errno
                if lastError == EEXIST { continue }
                break
            }
            var s = Glibc.stat()
            fstat(fd, &s)
            close(fd)
            path = candidate
            identity = FileIdentity(s)
            slot = galley_temporary_add(candidate)
            return
        }
        let reason = String(cString: strerror(lastError))
        throw RenderError(.error("cannot make a temporary file in '\(folder)': \(reason)"))
    }

    /// `name` as the temporary file's name begins: cut to 200 bytes (at a character), so that
    /// with its dot, process and number (27 bytes at most) it stays within a file name's 255
    /// bytes for any output name that is.
    static func stem(_ name: String) -> String {
        var bytes = 0
        return String(
            String.UnicodeScalarView(
                name.unicodeScalars.prefix {
                    bytes += $0.utf8.count; return bytes <= 200
                }))
    }

    /// Removes what a build of `name` killed outright (SIGKILL, a power cut) left in `folder`:
    /// a temporary file of this naming, ours, whose process is gone and which nothing has
    /// written for ten minutes (a build on another machine sharing the folder writes its own).
    static func removeLeftovers(in folder: String, name: String) {
        guard let dir = opendir(folder.isEmpty ? "." : folder) else { return }
        defer { closedir(dir) }
        let prefix = ".\(stem(name))."
        let now = time(nil)
        while let entry = readdir(dir) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard file.hasPrefix(prefix), file.hasSuffix(".tmp") else { continue }
            let parts = file.dropFirst(prefix.count).dropLast(4).split(separator: ".")
            guard parts.count == 2, let pid = pid_t(parts[0]), UInt32(parts[1]) != nil, pid > 0 else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let path = FilePath.join(folder, file)
            var s = Glibc.stat()
            guard lstat(path, &s) == 0, s.st_mode & S_IFMT == S_IFREG, s.st_uid == geteuid(), now - s.st_mtim.tv_sec > 600 else {
                continue
            }
            unlink(path)
        }
    }

    /// Gives the file the permission bits, owner and group of `existing` (an output rebuilt keeps
    /// its mode). A change of owner needs privileges and is skipped without them.
    func keepMode(of existing: Glibc.stat) {
        chmod(path, existing.st_mode & 0o7777)
        if existing.st_uid != geteuid() || existing.st_gid != getegid() {
            _ = chown(path, existing.st_uid, existing.st_gid)
            chmod(path, existing.st_mode & 0o7777)
        }
    }

    /// True when `path` still names the file this made (nobody replaced it meanwhile).
    public var isStillOurs: Bool {
        var s = Glibc.stat()
        guard lstat(path, &s) == 0, s.st_mode & S_IFMT == S_IFREG else { return false }
        return FileIdentity(s) == identity
    }

    /// Stops removing the file on a signal (it has been renamed into place).
    func forget() {
        if slot >= 0 { galley_temporary_remove(slot) }
        slot = -1
        owned = false
    }

    /// Removes the file. (Not only while `isStillOurs`: a step of the build may have written
    /// it anew under its name, a post-pass renaming its own output over it.)
    public func discard() {
        if owned { unlink(path) }
        forget()
    }

    deinit { discard() }
}

/// A folder made for this process alone (`mkdtemp`), for a program's scratch files: cleared and
/// removed on `discard`, and on SIGINT, SIGTERM, SIGHUP or SIGPIPE before the process dies of
/// the signal (after the programs it runs are killed).
public final class TemporaryFolder {
    public let path: String
    private var slot: Int32

    public init(in folder: String, name: String) throws(RenderError) {
        var template = Array(FilePath.join(folder, ".\(name).XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            let reason = String(cString: strerror(errno))
            throw RenderError(.error("cannot make a temporary folder in '\(folder)': \(reason)"))
        }
        path = String(cString: made)
        slot = galley_temporary_folder_add(path)
    }

    /// Removes the folder and the files in it.
    public func discard() {
        guard slot != -2 else { return }
        galley_folder_clear(path)
        if slot >= 0 { galley_temporary_remove(slot) }
        slot = -2
    }

    deinit { discard() }
}

/// Writes an output through a temporary file in the same folder, renamed over the target only
/// when complete: a failed build never leaves a half-written file or destroys the previous one.
/// A symlink as the target is followed, so the file it names is replaced and the link stays.
/// Only regular files are replaced: a device, FIFO or socket is refused here (the CLI writes to
/// devices and FIFOs directly, see `Run.withOutput`), since renaming over one would delete it.
/// An existing output keeps its permission bits.
final class AtomicFile {
    /// Where the caller writes.
    var temporaryPath: String { temporary.path }
    /// The file replaced at last: the target with its symlinks followed.
    let target: String
    private let temporary: TemporaryFile
    /// The status of the output being replaced, whose mode and owner the new one takes.
    private let existing: Glibc.stat?

    /// `followingLinks`: a symlink at `asked` has the file it leads to replaced (an output the
    /// user named); otherwise the link itself is replaced (a file of Galley's own, such as a
    /// cache entry, which nobody should be able to aim at another file).
    init(target asked: String, followingLinks: Bool = true) throws(RenderError) {
        let target = followingLinks ? FileIdentity.resolvingLinks(asked) : asked
        self.target = target
        let parent = FilePath.directory(of: target)
        let dir = parent.isEmpty ? "." : parent
        guard FileIdentity.isFolder(dir) else {
            throw RenderError(.error("cannot write '\(asked)': no such folder '\(dir)'"))
        }
        var link = Glibc.stat()
        let isLink = !followingLinks && lstat(target, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
        let existing = isLink ? nil : FileIdentity.status(target)
        if let existing {
            switch FileIdentity.kind(existing) {
            case .regular: break
            case .directory: throw RenderError(.error("cannot write '\(asked)': it is a folder"))
            default: throw RenderError(.error("cannot write '\(asked)': it is not a regular file"))
            }
        }
        if access(dir, W_OK) != 0 {
            let why = errno == EROFS ? "the file system is read-only" : "the folder '\(dir)' is not writable"
            throw RenderError(.error("cannot write '\(asked)': \(why)"))
        }
        temporary = try TemporaryFile(in: dir, name: FilePath.name(of: target))
        self.existing = existing
    }

    /// Whether the temporary file is still the one made here (not removed or replaced).
    var isIntact: Bool { temporary.isStillOurs }

    /// Moves the finished temporary file into place.
    func commit() throws(RenderError) {
        defer { temporary.discard() }
        guard temporary.isStillOurs else {
            throw RenderError(.error("cannot write '\(target)': its temporary file was removed or replaced while it was written"))
        }
        // Only now: a read-only output's mode would have kept the writer out of the file.
        if let existing { temporary.keepMode(of: existing) }
        if rename(temporaryPath, target) != 0 {
            throw RenderError(.error("cannot write '\(target)': \(String(cString: strerror(errno)))"))
        }
        temporary.forget()
    }

    /// Removes the temporary file (after a failure; after a commit there is none).
    func discard() {
        temporary.discard()
    }
}

/// A small output (a depfile, a SyncTeX file) written as the PDFs are: through a temporary
/// file renamed.
public enum TextOutput {
    public static func write(_ text: String, to path: String) throws(RenderError) {
        try write(Array(text.utf8), to: path)
    }

    /// Whether `path` could be written now, as `write` would write it: the reason it cannot
    /// (no folder, a folder or a FIFO in its place, no room for a temporary file beside it).
    /// A build with several outputs asks before it writes the first, so that a mistake in the
    /// last leaves every one as it was.
    public static func probe(_ path: String) throws(RenderError) {
        try AtomicFile(target: path).discard()
    }

    /// `followingLinks` as `AtomicFile` takes it.
    public static func write(_ bytes: [UInt8], to path: String, followingLinks: Bool = true) throws(RenderError) {
        let out = try AtomicFile(target: path, followingLinks: followingLinks)
        var committed = false
        defer { if !committed { out.discard() } }
        let fd = open(out.temporaryPath, O_WRONLY | O_TRUNC)
        guard fd >= 0 else { throw RenderError(.error("cannot write '\(path)': \(String(cString: strerror(errno)))")) }
        let failure = bytes.withUnsafeBytes { RawIO.writeAll(fd, $0) }
        close(fd)
        if let failure { throw RenderError(.error("cannot write '\(path)': \(failure.message)")) }
        try out.commit()
        committed = true
    }
}
