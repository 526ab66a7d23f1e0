import Glibc

/// Whole-stream reads and writes on file descriptors (standard input and output, and files
/// opened with `open`), retried on interruption and partial transfers.
package enum RawIO {
    /// Every byte up to the end of `fd`, or the system's reason why not.
    package static func readAll(_ fd: Int32) -> Result<[UInt8], SystemError> {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(SystemError())
            }
            if n == 0 { return .success(bytes) }
            bytes.append(contentsOf: buffer[0..<n])
        }
    }

    /// The file at `path`, whole, or the system's reason why not.
    package static func readFile(_ path: String) -> Result<[UInt8], SystemError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return .failure(SystemError()) }
        defer { close(fd) }
        return readAll(fd)
    }

    /// Writes all of `bytes` to `fd`; the system's reason when it cannot.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> SystemError? {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return SystemError()
            }
            offset += n
        }
        return nil
    }
}

/// The system's message for the current `errno` ("No such file or directory").
package struct SystemError: Error, Sendable {
    package let code: Int32
    package let message: String

    package init() {
        code = errno
        message = String(cString: strerror(code))
    }
}
