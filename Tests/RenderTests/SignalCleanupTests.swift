import CGalleySignals
import Foundation
import TestSupport
import Testing

/// Forks a child that does `inChild` and is then sent `sig`; returns the signal that ended it
/// (0 when it exited instead). The handlers are installed before forking, and the child unblocks
/// the signal: the test runner's thread may block it, and a child inherits the mask.
private func signalEndingChild(_ sig: Int32, _ inChild: () -> Void = {}) -> Int32 {
    galley_temporary_remove(galley_temporary_add("/nonexistent/warm-up"))
    let pid = fork()
    if pid == 0 {
        inChild()
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, sig)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        kill(getpid(), sig)
        _exit(0)  // not reached: the signal ends the child
    }
    var status: Int32 = 0
    #expect(waitpid(pid, &status, 0) == pid)
    return status & 0x7F
}

@Suite struct SignalCleanupTests {
    // A process terminated while it writes an output removes the temporary file and dies of
    // the signal (a build killed by a timeout leaves no `.t.pdf.….tmp` behind). A forked child
    // registers the file, as AtomicFile does, and is terminated.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGALRM, SIGXCPU])
    func temporaryFileRemovedWhenTerminated(_ sig: Int32) throws {
        let dir = TemporaryDirectory("signals")
        let path = dir.write(".t.pdf.1.2.tmp", "half a PDF")
        #expect(signalEndingChild(sig) { _ = galley_temporary_add(path) } == sig)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    // A forgotten slot is not removed: a finished output renamed into place is left alone.
    @Test func forgottenFileKept() throws {
        let dir = TemporaryDirectory("signals")
        let path = dir.write(".t.pdf.3.4.tmp", "a whole PDF")
        #expect(signalEndingChild(SIGTERM) { galley_temporary_remove(galley_temporary_add(path)) } == SIGTERM)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    // A forked child terminated by a signal leaves the files its parent registered alone (the
    // parent's build goes on).
    @Test func parentsFilesKeptByAChild() throws {
        let dir = TemporaryDirectory("signals")
        let path = dir.write(".t.pdf.5.6.tmp", "the parent's PDF")
        let slot = galley_temporary_add(path)
        defer { galley_temporary_remove(slot) }
        #expect(signalEndingChild(SIGTERM) == SIGTERM)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
