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
        IO(
            standardInput: { (try? RawIO.readAll(0, limit: RawIO.inputLimit).get()) ?? [] },
            writeOutput: { data in data.withUnsafeBytes { _ = RawIO.writeAll(1, $0) } },
            writeError: { s in
                var s = s
                _ = s.withUTF8 { RawIO.writeAll(2, UnsafeRawBufferPointer($0)) }
            },
            errorIsTerminal: isatty(2) != 0,
            environment: ProcessInfo.processInfo.environment)
    }

    func readStandardInput() -> [UInt8] { standardInput() }
    func print(_ s: String) { writeOutput(Data((s + "\n").utf8)) }
}
