import FoundationEssentials
import GalleyMarkup
import GalleySupport
import Glibc

/// Where a command reads and writes: the real streams, or buffers in tests.
public final class IO: @unchecked Sendable {
    public var standardInput: () -> [UInt8]
    public var writeOutput: (Data) -> Void
    public var writeError: (String) -> Void
    /// True when standard error is a terminal: colours and a progress line.
    public var errorIsTerminal: Bool
    /// True when standard output is a terminal, which a PDF or PNG must not be written to.
    public var outputIsTerminal = false
    public var environment: [String: String]

    public init(
        standardInput: @escaping () -> [UInt8], writeOutput: @escaping (Data) -> Void,
        writeError: @escaping (String) -> Void, errorIsTerminal: Bool, environment: [String: String]
    ) {
        self.standardInput = standardInput
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.errorIsTerminal = errorIsTerminal
        self.environment = environment
    }

    /// The process's own streams.
    public static func process() -> IO {
        let io = IO(
            standardInput: { (try? RawIO.readAll(0, limit: RawIO.inputLimit).get()) ?? [] },
            writeOutput: { data in data.withUnsafeBytes { _ = RawIO.writeAll(1, $0) } },
            writeError: { s in
                var s = s
                _ = s.withUTF8 { RawIO.writeAll(2, UnsafeRawBufferPointer($0)) }
            },
            errorIsTerminal: isatty(2) != 0,
            environment: ProcessInfo.processInfo.environment)
        io.outputIsTerminal = isatty(1) != 0
        return io
    }

    /// `-o -` (or the output of standard input, by default) when standard output is a
    /// terminal: a usage error, before any work, rather than a screen of binary.
    func refuseBinaryOnTerminal(_ output: String, _ what: String) throws(UsageError) {
        guard output == "-" && outputIsTerminal else { return }
        throw UsageError(message: "the \(what) would be written to the terminal; give -o FILE, or redirect standard output")
    }

    func readStandardInput() -> [UInt8] { standardInput() }
    func print(_ s: String) { writeOutput(Data((s + "\n").utf8)) }
}
