import CGalleySignals
import FoundationEssentials
import GalleyMarkup
import Glibc

/// Writes an output through a temporary file in the same folder, renamed over the target only
/// when complete: a failed build never leaves a half-written file or destroys the previous one.
/// When the process is interrupted or terminated meanwhile, the temporary file is removed too.
/// (Standard output is the CLI's business: it has the output written to a file of its own and
/// copies that, see `Run.withOutput`.)
final class AtomicFile {
    /// Where the caller writes.
    let temporaryPath: String
    let target: String
    /// The temporary file's slot in the list removed on a signal (-1: none, or forgotten).
    private var slot: Int32

    init(target: String) throws(RenderError) {
        self.target = target
        let parent = FilePath.directory(of: target)
        let dir = parent.isEmpty ? "." : parent
        let name = FilePath.name(of: target)
        var isDir = false
        if !FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) || !isDir {
            throw RenderError(.error("cannot write '\(target)': no such folder '\(dir)'"))
        }
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDir), isDir {
            throw RenderError(.error("cannot write '\(target)': it is a folder"))
        }
        temporaryPath = FilePath.join(dir, ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        slot = galley_temporary_add(temporaryPath)
    }

    /// Moves the finished temporary file into place.
    func commit() throws(RenderError) {
        defer { discard() }
        if rename(temporaryPath, target) != 0 {
            throw RenderError(.error("cannot write '\(target)': \(String(cString: strerror(errno)))"))
        }
    }

    /// Removes the temporary file (after a failure; after a commit there is none).
    func discard() {
        unlink(temporaryPath)
        if slot >= 0 { galley_temporary_remove(slot) }
        slot = -1
    }
}
