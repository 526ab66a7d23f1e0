import Glibc

/// Whole-stream reads and writes on file descriptors (standard input and output, and files
/// opened with `open`), retried on interruption and partial transfers.
package enum RawIO {
    /// The most bytes an input document may have (issue builds and watch mode read several).
    package static let inputLimit = 256 << 20
    /// The most bytes a template, a pack's pack.json or a manifest may have.
    package static let smallFileLimit = 1 << 20

    /// Every byte up to the end of `fd`, or the system's reason why not. With a `limit`, at most
    /// `limit + 1` bytes are read (one more than allowed tells the caller it was exceeded), so an
    /// endless stream (`/dev/zero`, a pipe that never closes) cannot grow memory without bound.
    package static func readAll(_ fd: Int32, limit: Int = .max) -> Result<[UInt8], SystemError> {
        // A regular file's size, so that it is read straight into the array (a layout cache's
        // entries are megabytes each); a stream, or a file that grew, 64 KiB at a time after it.
        var s = stat()
        let size = fstat(fd, &s) == 0 && FileIdentity.kind(s) == .regular ? min(Int(s.st_size), limit) : 0
        var failed: SystemError?
        var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            while count <= size {
                let n = read(fd, buffer.baseAddress! + count, size + 1 - count)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failed = SystemError() }
                if n <= 0 { break }
                count += n
            }
        }
        if let failed { return .failure(failed) }
        if bytes.count < size + 1 { return .success(bytes) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= limit {
            let want = min(buffer.count, limit == .max ? buffer.count : limit + 1 - bytes.count)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, want) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(SystemError())
            }
            if n == 0 { return .success(bytes) }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return .success(bytes)
    }

    /// Why an input could not be read, ready to follow "cannot read 'x': ".
    package struct InputError: Error, Sendable {
        package let message: String
    }

    /// A regular file, whole, at most `limit` bytes. Anything else is refused without blocking:
    /// a FIFO or a device (opened without waiting for a writer, and never read) would block or
    /// never end. The message says what the file is, or the system's reason; a FIFO given as
    /// the document (`piped`) is told of standard input, which nothing else can come from.
    package static func readRegularFile(_ path: String, limit: Int, piped: Bool = false) -> Result<[UInt8], InputError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 { return .failure(InputError(message: SystemError().message)) }
        defer { close(fd) }
        var s = stat()
        guard fstat(fd, &s) == 0 else { return .failure(InputError(message: SystemError().message)) }
        switch FileIdentity.kind(s) {
        case .regular: break
        case .directory: return .failure(InputError(message: "it is a folder"))
        case .fifo:
            let advice = piped ? "; pipe it to standard input with -" : ""
            return .failure(InputError(message: "it is a FIFO (a named pipe), not a regular file" + advice))
        case .characterDevice, .blockDevice: return .failure(InputError(message: "it is a device, not a regular file"))
        case .socket, .other: return .failure(InputError(message: "it is not a regular file"))
        }
        if Int(s.st_size) > limit { return .failure(InputError(message: tooLarge(limit))) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        switch readAll(fd, limit: limit) {
        case .failure(let e): return .failure(InputError(message: e.message))
        case .success(let bytes):
            return bytes.count > limit ? .failure(InputError(message: tooLarge(limit))) : .success(bytes)
        }
    }

    /// "it is larger than 256 MB, the most …".
    package static func tooLarge(_ limit: Int) -> String {
        "it is larger than \(limit >> 20) MB, the most Galley reads of such a file"
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
