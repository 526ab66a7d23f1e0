import CGalleySignals
import FoundationEssentials
import GalleyMarkup
import Glibc

/// Writes an output through a temporary file in the same folder, renamed over the target only
/// when complete: a failed build never leaves a half-written file or destroys the previous one.
/// `-` means standard output: the temporary file is copied there once complete. When the
/// process is interrupted or terminated meanwhile, the temporary file is removed too.
final class AtomicFile {
    /// Where the caller writes.
    let temporaryPath: String
    let target: String
    /// The temporary file's slot in the list removed on a signal (-1: none, or forgotten).
    private var slot: Int32

    init(target: String) throws(RenderError) {
        self.target = target
        let dir: String
        let name: String
        if target == "-" {
            dir = FilePath.temporaryDirectory
            name = "galley-stdout"
        } else {
            let parent = FilePath.directory(of: target)
            dir = parent.isEmpty ? "." : parent
            name = FilePath.name(of: target)
            var isDir = false
            if !FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) || !isDir {
                throw RenderError(.error("cannot write '\(target)': no such folder '\(dir)'"))
            }
            if FileManager.default.fileExists(atPath: target, isDirectory: &isDir), isDir {
                throw RenderError(.error("cannot write '\(target)': it is a folder"))
            }
        }
        temporaryPath = FilePath.join(dir, ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        slot = galley_temporary_add(temporaryPath)
    }

    /// Moves the finished temporary file into place (or copies it to standard output).
    func commit() throws(RenderError) {
        defer { discard() }
        if target == "-" {
            guard let data = FileManager.default.contents(atPath: temporaryPath) else {
                throw RenderError(.error("cannot read back the output"))
            }
            if let e = data.withUnsafeBytes({ RawIO.writeAll(1, $0) }) {
                throw RenderError(.error("cannot write to standard output: \(e.message)"))
            }
            return
        }
        if rename(temporaryPath, target) != 0 {
            throw RenderError(.error("cannot write '\(target)': \(String(cString: strerror(errno)))"))
        }
    }

    /// Removes the temporary file (after a failure, or after commit for standard output).
    func discard() {
        unlink(temporaryPath)
        if slot >= 0 { galley_temporary_remove(slot) }
        slot = -1
    }
}
