import Foundation
import GalleyCLI
import GalleyRender
import GalleySupport

/// What an in-process run of the CLI produced.
public struct CLIResult: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: String

    /// Standard output decoded as UTF-8.
    public var output: String { String(decoding: stdout, as: UTF8.self) }
}

/// Collects what a command writes; the CLI may write from more than one thread.
private final class Capture: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var err = ""

    func output(_ d: Data) { lock.withLock { out.append(d) } }
    func error(_ s: String) { lock.withLock { err += s } }
    var result: (Data, String) { lock.withLock { (out, err) } }
}

/// Runs `galley ARGS` in-process with captured streams: standard input is `stdin`, standard error
/// is not a terminal, and the environment the CLI sees is exactly `env` (so a developer's
/// SOURCE_DATE_EPOCH cannot leak into a test). Pins the test fonts first, and probes SVGs with
/// the executable built beside the tests, as the executable probes them with itself.
public func run(_ args: [String], stdin: [UInt8] = [], env: [String: String] = [:], outputIsTerminal: Bool = false) -> CLIResult {
    TestFonts.pin()
    SVGProbe.install(executable: galleyExecutable)
    let capture = Capture()
    let io = IO(
        standardInput: { stdin }, writeOutput: { capture.output($0) }, writeError: { capture.error($0) },
        errorIsTerminal: false, environment: env)
    io.outputIsTerminal = outputIsTerminal
    let status = Galley.main(arguments: args, io: io)
    let (out, err) = capture.result
    return CLIResult(status: status, stdout: out, stderr: err)
}
