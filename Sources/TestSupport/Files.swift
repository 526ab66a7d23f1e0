import Foundation
import GalleySupport

/// A fresh, empty, uniquely named folder under NSTemporaryDirectory, removed with its contents
/// when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init(_ label: String = "test") {
        let name = "galley-\(label)-\(UUID().uuidString)"
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The absolute path of `name` inside the folder.
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes UTF-8 text to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        write(name, Data(text.utf8))
    }

    /// Writes bytes to `name` (creating folders on the way) and returns its path.
    @discardableResult
    public func write(_ name: String, _ data: Data) -> String {
        let p = file(name)
        try! FileManager.default.createDirectory(
            atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! data.write(to: URL(fileURLWithPath: p))
        return p
    }

    /// The contents of `name`, or nil when it does not exist.
    public func read(_ name: String) -> Data? { FileManager.default.contents(atPath: file(name)) }

    /// Names in the folder (hidden ones included), sorted.
    public var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

/// What an external program did.
public struct ToolResult: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: String

    /// Standard output decoded as UTF-8 (invalid bytes replaced).
    public var output: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs an external program found on PATH (`qpdf`, `pdfinfo`, …) and waits for it. Its output
/// goes through temporary files, so a chatty program cannot fill a pipe and block.
/// A program that cannot be started gives status 127 and the reason on `stderr`.
public func tool(_ name: String, _ args: [String], stdin: Data? = nil) -> ToolResult {
    let dir = TemporaryDirectory("tool")
    let outPath = dir.file("stdout")
    let errPath = dir.file("stderr")
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    guard let out = FileHandle(forWritingAtPath: outPath), let err = FileHandle(forWritingAtPath: errPath) else {
        return ToolResult(status: 127, stdout: Data(), stderr: "cannot make temporary files")
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [name] + args
    p.standardOutput = out
    p.standardError = err
    if let stdin {
        let inPath = dir.write("stdin", stdin)
        p.standardInput = FileHandle(forReadingAtPath: inPath)
    } else {
        p.standardInput = FileHandle.nullDevice
    }
    do {
        try p.run()
    } catch {
        return ToolResult(status: 127, stdout: Data(), stderr: "cannot run \(name): \(error)")
    }
    p.waitUntilExit()
    try? out.close()
    try? err.close()
    let o = FileManager.default.contents(atPath: outPath) ?? Data()
    let e = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
    return ToolResult(status: p.terminationStatus, stdout: o, stderr: e)
}

/// The galley executable `swift test` built beside the tests: the only binary with the hooks
/// into Cairo's libraries (Sources/CGalleyHooks), which no library or test binary links.
public let galleyExecutable = repoPath(".build/debug/galley")

/// Runs the galley executable with the hooks allowed (`hooks`: GALLEY_NO_HOOKS unset, so they
/// are on wherever the libraries are the verified versions) or turned off (GALLEY_NO_HOOKS=1).
public func runExecutable(_ args: [String], hooks: Bool = true, stdin: Data? = nil) -> ToolResult {
    hooks
        ? tool("-u", ["GALLEY_NO_HOOKS", galleyExecutable] + args, stdin: stdin)
        : tool("GALLEY_NO_HOOKS=1", [galleyExecutable] + args, stdin: stdin)
}
