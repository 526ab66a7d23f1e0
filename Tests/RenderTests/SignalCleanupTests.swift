import CGalleySignals
import Foundation
import TestSupport
import Testing

/// In a forked child: the test runner's thread may block signals, and the child inherits its mask.
private func unblockAndRaise(_ sig: Int32) {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, sig)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    kill(getpid(), sig)
}

@Suite struct SignalCleanupTests {
    // A process terminated while it writes an output removes the temporary file and dies of
    // the signal (a build killed by a timeout leaves no `.t.pdf.….tmp` behind). A forked child
    // registers the file, as AtomicFile does, and is terminated.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func temporaryFileRemovedWhenTerminated(_ sig: Int32) throws {
        let dir = TemporaryDirectory("signals")
        let path = dir.write(".t.pdf.1.2.tmp", "half a PDF")
        galley_temporary_remove(galley_temporary_add("/nonexistent/warm-up"))  // handlers installed before forking
        let pid = fork()
        if pid == 0 {
            _ = galley_temporary_add(path)
            unblockAndRaise(sig)
            _exit(0)  // not reached: the signal ends the child
        }
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status & 0x7F == sig, "the child died of signal \(status & 0x7F), exit status \(status >> 8)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    // A forgotten slot is not removed: a finished output renamed into place is left alone.
    @Test func forgottenFileKept() throws {
        let dir = TemporaryDirectory("signals")
        let path = dir.write(".t.pdf.3.4.tmp", "a whole PDF")
        galley_temporary_remove(galley_temporary_add("/nonexistent/warm-up"))
        let pid = fork()
        if pid == 0 {
            galley_temporary_remove(galley_temporary_add(path))
            unblockAndRaise(SIGTERM)
            _exit(0)
        }
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status & 0x7F == SIGTERM)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    // A forked child terminated by a signal leaves the files its parent registered alone (the
    // parent's build goes on).
    @Test func parentsFilesKeptByAChild() throws {
        let dir = TemporaryDirectory("signals")
        let path = dir.write(".t.pdf.5.6.tmp", "the parent's PDF")
        let slot = galley_temporary_add(path)
        defer { galley_temporary_remove(slot) }
        let pid = fork()
        if pid == 0 {
            unblockAndRaise(SIGTERM)
            _exit(0)
        }
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status & 0x7F == SIGTERM)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
