import FoundationEssentials
import GalleyMarkup
import GalleySupport
import Glibc
import Synchronization

/// Where a command reads and writes: the real streams, or buffers in tests.
public final class IO: @unchecked Sendable {
    /// Standard input, read whole; throws when it cannot be read (a folder, a closed stream).
    public var standardInput: () throws -> [UInt8]
    public var writeError: (String) -> Void
    /// True when standard error is a terminal: colours and a progress line.
    public var errorIsTerminal: Bool
    /// True when standard output is a terminal, which a PDF or PNG must not be written to.
    public var outputIsTerminal = false
    public var environment: [String: String]
    /// Writes to standard output; the reason when it could not.
    private let output: (Data) -> String?
    private let failure = Mutex<String?>(nil)

    public convenience init(
        standardInput: @escaping () throws -> [UInt8], writeOutput: @escaping (Data) -> Void,
        writeError: @escaping (String) -> Void, errorIsTerminal: Bool, environment: [String: String]
    ) {
        self.init(
            standardInput: standardInput,
            output: {
                writeOutput($0); return nil
            }, writeError: writeError,
            errorIsTerminal: errorIsTerminal, environment: environment)
    }

    init(
        standardInput: @escaping () throws -> [UInt8], output: @escaping (Data) -> String?,
        writeError: @escaping (String) -> Void, errorIsTerminal: Bool, environment: [String: String]
    ) {
        self.standardInput = standardInput
        self.output = output
        self.writeError = writeError
        self.errorIsTerminal = errorIsTerminal
        self.environment = environment
    }

    /// The process's own streams.
    public static func process() -> IO {
        let io = IO(
            standardInput: { try RawIO.readAll(0, limit: RawIO.inputLimit).get() },
            output: { data in data.withUnsafeBytes { RawIO.writeAll(1, $0) }?.message },
            writeError: { s in
                var s = s
                _ = s.withUTF8 { RawIO.writeAll(2, UnsafeRawBufferPointer($0)) }
            },
            errorIsTerminal: isatty(2) != 0,
            environment: ProcessInfo.processInfo.environment)
        io.outputIsTerminal = isatty(1) != 0
        return io
    }

    /// Writes `data` to standard output. After a write fails, none is tried again, and the
    /// command fails with `outputFailure`: a PDF, a depfile or a JSON report cut short (a full
    /// disk, a closed pipe) must not end in success, for a script would trust it.
    public func writeOutput(_ data: Data) {
        failure.withLock { failed in
            if failed == nil { failed = output(data) }
        }
    }

    /// Why standard output could not be written, if it could not.
    public var outputFailure: String? { failure.withLock { $0 } }

    /// `-o -` (or the output of standard input, by default) when standard output is a
    /// terminal: a usage error, before any work, rather than a screen of binary.
    func refuseBinaryOnTerminal(_ output: String, _ what: String) throws(UsageError) {
        guard output == "-" && outputIsTerminal else { return }
        throw UsageError(message: "the \(what) would be written to the terminal; give -o FILE, or redirect standard output")
    }

    func readStandardInput() throws -> [UInt8] { try standardInput() }
    func print(_ s: String) { writeOutput(Data((s + "\n").utf8)) }
}
