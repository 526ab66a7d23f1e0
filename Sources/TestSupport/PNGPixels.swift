import Foundation
import GalleySupport

/// The pixels of an 8-bit, non-interlaced PNG (grey, grey+alpha, RGB or RGBA): what Galley writes
/// is RGB. Decoded in pure Swift (see `Inflate`), so tests need neither zlib bindings nor Python.
public struct PNGPixels: Sendable {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// One pixel; alpha is 255 for formats without it.
    public struct Pixel: Equatable, Sendable, CustomStringConvertible {
        public var r, g, b, a: UInt8
        public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
            self.r = r
            self.g = g
            self.b = b
            self.a = a
        }
        public var description: String { "rgba(\(r),\(g),\(b),\(a))" }
    }

    public let width: Int
    public let height: Int
    /// Channels per pixel: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA.
    public let channels: Int
    /// Pixels per inch from pHYs, when the file says.
    public let dpi: Double?
    /// Unfiltered samples, row after row, `channels` bytes a pixel.
    public let samples: [UInt8]

    public init(path: String) throws(Failure) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read \(path)")
        }
        try self.init(data: data)
    }

    public init(data: Data) throws(Failure) {
        let b = [UInt8](data)
        guard b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Failure(description: "not a PNG")
        }
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        var i = 8
        var w = 0
        var h = 0
        var colorType = -1
        var dpi: Double?
        var idat: [UInt8] = []
        var sawEnd = false
        while i + 8 <= b.count {
            let len = be32(i)
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            guard i + 12 + len <= b.count else { throw Failure(description: "truncated \(type) chunk") }
            let body = i + 8
            switch type {
            case "IHDR":
                w = be32(body)
                h = be32(body + 4)
                let depth = b[body + 8]
                colorType = Int(b[body + 9])
                guard depth == 8 else { throw Failure(description: "bit depth \(depth) not supported") }
                guard b[body + 12] == 0 else { throw Failure(description: "interlaced PNG not supported") }
            case "pHYs":
                if b[body + 8] == 1 { dpi = Double(be32(body)) * 0.0254 }
            case "IDAT":
                idat.append(contentsOf: b[body..<(body + len)])
            case "IEND":
                sawEnd = true
            default: break
            }
            if sawEnd { break }
            i += 12 + len
        }
        guard sawEnd else { throw Failure(description: "no IEND chunk") }
        let channels: Int
        switch colorType {
        case 0: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: throw Failure(description: "colour type \(colorType) not supported")
        }
        guard w > 0, h > 0 else { throw Failure(description: "no image header") }
        let raw: [UInt8]
        do {
            raw = try Inflate.zlib(idat)
        } catch {
            throw Failure(description: "IDAT: \(error)")
        }
        let stride = w * channels
        guard raw.count >= h * (stride + 1) else { throw Failure(description: "IDAT holds too few bytes") }
        var out = [UInt8](repeating: 0, count: h * stride)
        for y in 0..<h {
            let filter = raw[y * (stride + 1)]
            let src = y * (stride + 1) + 1
            let row = y * stride
            for x in 0..<stride {
                let v = raw[src + x]
                let a = x >= channels ? Int(out[row + x - channels]) : 0
                let up = y > 0 ? Int(out[row - stride + x]) : 0
                let c = (x >= channels && y > 0) ? Int(out[row - stride + x - channels]) : 0
                let p: Int
                switch filter {
                case 0: p = 0
                case 1: p = a
                case 2: p = up
                case 3: p = (a + up) / 2
                case 4:
                    let e = a + up - c
                    let pa = abs(e - a)
                    let pb = abs(e - up)
                    let pc = abs(e - c)
                    p = pa <= pb && pa <= pc ? a : pb <= pc ? up : c
                default: throw Failure(description: "bad filter type \(filter) on row \(y)")
                }
                out[row + x] = UInt8((Int(v) + p) & 0xFF)
            }
        }
        self.width = w
        self.height = h
        self.channels = channels
        self.dpi = dpi
        self.samples = out
    }

    /// The pixel at column `x`, row `y` (from the top-left).
    public subscript(x: Int, y: Int) -> Pixel {
        let o = (y * width + x) * channels
        switch channels {
        case 1: return Pixel(samples[o], samples[o], samples[o])
        case 2: return Pixel(samples[o], samples[o], samples[o], samples[o + 1])
        case 3: return Pixel(samples[o], samples[o + 1], samples[o + 2])
        default: return Pixel(samples[o], samples[o + 1], samples[o + 2], samples[o + 3])
        }
    }

    /// How many pixels satisfy `predicate`.
    public func count(where predicate: (Pixel) -> Bool) -> Int {
        var n = 0
        for y in 0..<height {
            for x in 0..<width where predicate(self[x, y]) { n += 1 }
        }
        return n
    }
}
