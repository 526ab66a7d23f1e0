import CGalleySignals
import Glibc

/// Another program run to its end: Ghostscript for `--cmyk` and the preflight's ink check.
package enum Subprocess {
    /// What a run left: its exit status (128 + the signal when a signal ended it) and everything
    /// it wrote to standard output and standard error, interleaved.
    package struct Outcome: Sendable {
        package var status: Int32
        package var output: String
    }

    /// The executable `name` in the folders of `searchPath` (a `PATH` value; nil: the
    /// system's default), or nil.
    package static func locate(_ name: String, searchPath: String?) -> String? {
        let path = searchPath ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = FilePath.join(String(folder), name)
            var s = stat()
            if stat(candidate, &s) == 0, s.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments`, standard input from /dev/null, and waits for it.
    /// Nil when it could not be started (the reason in `error`).
    package static func run(
        _ executable: String, _ arguments: [String], temporaryFolder: String? = nil, error: inout String
    ) -> Outcome? {
        var output: [UInt8] = []
        let status = stream(executable, arguments, errors: true, temporaryFolder: temporaryFolder, error: &error) { output += $0 }
        return status.map { Outcome(status: $0, output: String(decoding: output, as: UTF8.self)) }
    }

    /// Runs `executable` and hands `consume` its standard output piece by piece as it comes (and
    /// standard error too when `errors`; else that goes to /dev/null), so a large output is
    /// never held whole. Returns the exit status, or nil when it could not be started.
    /// `temporaryFolder`: the program's `TMPDIR`, where its scratch files go (a folder the
    /// caller clears, since a program killed by a signal leaves its own behind). The program is
    /// killed if this process is terminated by a signal meanwhile.
    package static func stream(
        _ executable: String, _ arguments: [String], errors: Bool, temporaryFolder: String? = nil, error: inout String,
        consume: ([UInt8]) -> Void
    ) -> Int32? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            error = String(cString: strerror(errno))
            return nil
        }
        // Neither end may leak into the child past its own standard output and error.
        for fd in pipeEnds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        if errors {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var envp = environment(temporaryFolder: temporaryFolder)
        defer { for e in envp { free(e) } }
        var pid: pid_t = 0
        // Signals blocked from the spawn until the child is registered (a SIGTERM between the
        // two would leave it running); the child starts with the mask as it was.
        var all = sigset_t()
        var before = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &before)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setsigmask(&attributes, &before)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let started = posix_spawn(&pid, executable, &actions, &attributes, &argv, &envp)
        let slot = started == 0 ? galley_child_add(pid) : -1
        pthread_sigmask(SIG_SETMASK, &before, nil)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard started == 0 else {
            error = String(cString: strerror(started))
            return nil
        }
        readAll(pipeEnds[0], consume)
        // Forgotten once it has ended and before it is reaped, so its id is never another's.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        galley_temporary_remove(slot)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// This process's environment for the child, with `TMPDIR` set to `temporaryFolder` when
    /// given; each entry is the caller's to free.
    private static func environment(temporaryFolder: String?) -> [UnsafeMutablePointer<CChar>?] {
        var entries: [UnsafeMutablePointer<CChar>?] = []
        var p = environ
        while let entry = p.pointee {
            if temporaryFolder == nil || strncmp(entry, "TMPDIR=", 7) != 0 { entries.append(strdup(entry)) }
            p += 1
        }
        if let temporaryFolder { entries.append(strdup("TMPDIR=" + temporaryFolder)) }
        return entries + [nil]
    }

    /// Reads `fd` to its end while the program runs (a chatty one must not block on a full
    /// pipe).
    private static func readAll(_ fd: Int32, _ consume: ([UInt8]) -> Void) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                consume(Array(chunk[0..<n]))
            } else if n == 0 || errno != EINTR {
                break
            }
        }
    }
}
