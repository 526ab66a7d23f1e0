/// Writes values as little-endian bytes, for files only this program reads back (the layout
/// cache). Arrays of plain values are written as they lie in memory, after their count.
package struct ByteWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func int(_ v: Int) {
        withUnsafeBytes(of: Int64(v).littleEndian) { bytes += $0 }
    }

    package mutating func byte(_ v: UInt8) { bytes.append(v) }

    package mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }

    package mutating func double(_ v: Double) {
        withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 }
    }

    package mutating func string(_ s: String) {
        int(s.utf8.count)
        bytes += s.utf8
    }

    package mutating func optionalString(_ s: String?) {
        bool(s != nil)
        if let s { string(s) }
    }

    package mutating func range(_ r: Range<Int>) {
        int(r.lowerBound)
        int(r.upperBound)
    }

    /// The count, then the elements' bytes as they are in memory (plain values without padding
    /// only: integers, floating point, C structs of them).
    package mutating func plain<T: BitwiseCopyable>(_ values: [T]) {
        int(values.count)
        values.withUnsafeBytes { bytes += $0 }
    }

    package mutating func append(raw: [UInt8]) { bytes += raw }
}

/// Reads what `ByteWriter` wrote. Every read is checked against the bytes left and every count
/// against what the bytes can hold, so a truncated or damaged file is an error, never a crash.
package struct ByteReader {
    package struct Malformed: Error {
        package init() {}
    }

    private let bytes: [UInt8]
    package private(set) var offset: Int

    package init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    package var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ n: Int) throws(Malformed) -> Range<Int> {
        guard n >= 0, n <= bytes.count - offset else { throw Malformed() }
        defer { offset += n }
        return offset..<(offset + n)
    }

    package mutating func int() throws(Malformed) -> Int {
        let r = try take(8)
        var v: UInt64 = 0
        for i in r.reversed() { v = v << 8 | UInt64(bytes[i]) }
        return Int(Int64(bitPattern: v))
    }

    /// An int in `range`.
    package mutating func int(in range: Range<Int>) throws(Malformed) -> Int {
        let v = try int()
        guard range.contains(v) else { throw Malformed() }
        return v
    }

    package mutating func byte() throws(Malformed) -> UInt8 { bytes[try take(1).lowerBound] }

    package mutating func bool() throws(Malformed) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Malformed()
        }
    }

    package mutating func double() throws(Malformed) -> Double {
        Double(bitPattern: UInt64(bitPattern: Int64(try int())))
    }

    package mutating func string() throws(Malformed) -> String {
        let r = try take(try int())
        return String(decoding: bytes[r], as: UTF8.self)
    }

    package mutating func optionalString() throws(Malformed) -> String? {
        try bool() ? try string() : nil
    }

    /// A range inside `0...limit`.
    package mutating func range(within limit: Int) throws(Malformed) -> Range<Int> {
        let lo = try int()
        let hi = try int()
        guard 0 <= lo, lo <= hi, hi <= limit else { throw Malformed() }
        return lo..<hi
    }

    package mutating func plain<T: BitwiseCopyable>(_: T.Type) throws(Malformed) -> [T] {
        let count = try int()
        let stride = MemoryLayout<T>.stride
        guard count >= 0, count <= (bytes.count - offset) / stride else { throw Malformed() }
        let r = try take(count * stride)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[r]))
            }
            initialized = count
        }
    }

    /// The next `n` bytes as they are.
    package mutating func raw(_ n: Int) throws(Malformed) -> ArraySlice<UInt8> { bytes[try take(n)] }
}
