import GalleySupport
/// A small DEFLATE decoder (RFC 1951: stored, fixed and dynamic Huffman blocks) and a zlib
/// wrapper (RFC 1950), after Mark Adler's puff.c. Slow but simple: enough to read back the PNGs
/// Galley writes, without zlib bindings or Python.
public enum Inflate {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        init(_ d: String) { description = d }
    }

    /// Decodes a zlib stream: a 2-byte header, DEFLATE data, an Adler-32 (checked).
    public static func zlib(_ data: [UInt8]) throws(Failure) -> [UInt8] {
        guard data.count >= 6 else { throw Failure("zlib stream too short") }
        let cmf = data[0]
        let flg = data[1]
        guard cmf & 0x0F == 8, (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 else { throw Failure("bad zlib header") }
        guard flg & 0x20 == 0 else { throw Failure("zlib preset dictionary not supported") }
        var s = State(input: data, position: 2)
        let out = try s.inflate()
        let i = (s.position)
        guard i + 4 <= data.count else { throw Failure("zlib stream has no checksum") }
        let stored = UInt32(data[i]) << 24 | UInt32(data[i + 1]) << 16 | UInt32(data[i + 2]) << 8 | UInt32(data[i + 3])
        guard stored == adler32(out) else { throw Failure("zlib checksum mismatch") }
        return out
    }

    /// Decodes raw DEFLATE data.
    public static func raw(_ data: [UInt8]) throws(Failure) -> [UInt8] {
        var s = State(input: data, position: 0)
        return try s.inflate()
    }

    /// The Adler-32 checksum zlib streams end with.
    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for c in bytes {
            a = (a + UInt32(c)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    /// A canonical Huffman code: how many codes of each length, and the symbols in code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        init(lengths: ArraySlice<Int>) throws(Failure) {
            symbols = [Int](repeating: 0, count: lengths.count)
            for l in lengths { counts[l] += 1 }
            var offsets = [Int](repeating: 0, count: 16)
            for l in 1..<15 { offsets[l + 1] = offsets[l] + counts[l] }
            // Over-subscribed sets are an error; incomplete ones are allowed (a lone distance code).
            var left = 1
            for l in 1..<16 {
                left <<= 1
                left -= counts[l]
                if left < 0 { throw Failure("over-subscribed Huffman code") }
            }
            for (symbol, l) in zip(0..., lengths) where l != 0 {
                symbols[offsets[l]] = symbol
                offsets[l] += 1
            }
        }
    }

    static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
        16385, 24577,
    ]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    struct State {
        let input: [UInt8]
        var position: Int
        var bitBuffer = 0
        var bitCount = 0
        var output: [UInt8] = []

        init(input: [UInt8], position: Int) {
            self.input = input
            self.position = position
        }

        mutating func bits(_ n: Int) throws(Failure) -> Int {
            var v = bitBuffer
            while bitCount < n {
                guard position < input.count else { throw Failure("DEFLATE data ends early") }
                v |= Int(input[position]) << bitCount
                position += 1
                bitCount += 8
            }
            bitBuffer = v >> n
            bitCount -= n
            return v & ((1 << n) - 1)
        }

        mutating func decode(_ h: Huffman) throws(Failure) -> Int {
            var code = 0
            var first = 0
            var index = 0
            for l in 1..<16 {
                code |= try bits(1)
                let count = h.counts[l]
                if code - count < first { return h.symbols[index + (code - first)] }
                index += count
                first += count
                first <<= 1
                code <<= 1
            }
            throw Failure("bad Huffman code")
        }

        mutating func inflate() throws(Failure) -> [UInt8] {
            var last = 0
            repeat {
                last = try bits(1)
                switch try bits(2) {
                case 0: try stored()
                case 1: try codes(State.fixed.0, State.fixed.1)
                case 2:
                    let (l, d) = try dynamicTables()
                    try codes(l, d)
                default: throw Failure("bad DEFLATE block type")
                }
            } while last == 0
            return output
        }

        mutating func stored() throws(Failure) {
            bitBuffer = 0
            bitCount = 0
            guard position + 4 <= input.count else { throw Failure("stored block ends early") }
            let len = Int(input[position]) | Int(input[position + 1]) << 8
            let nlen = Int(input[position + 2]) | Int(input[position + 3]) << 8
            guard len == ~nlen & 0xFFFF else { throw Failure("stored block length check failed") }
            position += 4
            guard position + len <= input.count else { throw Failure("stored block ends early") }
            output.append(contentsOf: input[position..<(position + len)])
            position += len
        }

        static let fixed: (Huffman, Huffman) = {
            var lengths = [Int](repeating: 8, count: 288)
            for i in 144..<256 { lengths[i] = 9 }
            for i in 256..<280 { lengths[i] = 7 }
            let l = try! Huffman(lengths: lengths[...])
            let d = try! Huffman(lengths: [Int](repeating: 5, count: 30)[...])
            return (l, d)
        }()

        mutating func dynamicTables() throws(Failure) -> (Huffman, Huffman) {
            let nlen = try bits(5) + 257
            let ndist = try bits(5) + 1
            let ncode = try bits(4) + 4
            guard nlen <= 286, ndist <= 30 else { throw Failure("bad dynamic block counts") }
            var lengths = [Int](repeating: 0, count: 320)
            for i in 0..<ncode { lengths[Inflate.codeLengthOrder[i]] = try bits(3) }
            let lencode = try Huffman(lengths: lengths[0..<19])
            var i = 0
            while i < nlen + ndist {
                var symbol = try decode(lencode)
                if symbol < 16 {
                    lengths[i] = symbol
                    i += 1
                    continue
                }
                var value = 0
                if symbol == 16 {
                    guard i > 0 else { throw Failure("repeat with no first length") }
                    value = lengths[i - 1]
                    symbol = 3 + (try bits(2))
                } else if symbol == 17 {
                    symbol = 3 + (try bits(3))
                } else {
                    symbol = 11 + (try bits(7))
                }
                guard i + symbol <= nlen + ndist else { throw Failure("too many lengths") }
                for _ in 0..<symbol {
                    lengths[i] = value
                    i += 1
                }
            }
            guard lengths[256] != 0 else { throw Failure("no end-of-block code") }
            return (try Huffman(lengths: lengths[0..<nlen]), try Huffman(lengths: lengths[nlen..<(nlen + ndist)]))
        }

        mutating func codes(_ lencode: Huffman, _ distcode: Huffman) throws(Failure) {
            while true {
                var symbol = try decode(lencode)
                if symbol < 256 {
                    output.append(UInt8(symbol))
                } else if symbol == 256 {
                    return
                } else {
                    symbol -= 257
                    guard symbol < 29 else { throw Failure("bad length symbol") }
                    let len = Inflate.lengthBase[symbol] + (try bits(Inflate.lengthExtra[symbol]))
                    let d = try decode(distcode)
                    guard d < 30 else { throw Failure("bad distance symbol") }
                    let dist = Inflate.distanceBase[d] + (try bits(Inflate.distanceExtra[d]))
                    guard dist <= output.count else { throw Failure("distance too far back") }
                    let from = output.count - dist
                    for k in 0..<len { output.append(output[from + k]) }
                }
            }
        }
    }
}
