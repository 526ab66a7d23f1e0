import FoundationEssentials
import GalleySupport
import GalleyTemplate
import Glibc

/// What an image file's header says: enough to lay the image out without decoding it.
public struct ImageInfo: Hashable, Sendable {
    public enum Format: String, Sendable { case png, jpeg, svg }
    public var format: Format
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Pixels per inch from the file (PNG pHYs, JFIF density), when it says.
    public var dpi: Double?
    /// A CMYK JPEG with Adobe's APP14 marker, as Photoshop writes them: its samples are stored
    /// inverted, which decoders know from the marker and a PDF reader given the JPEG as it is
    /// does not, drawing it in negative.
    public var invertedCMYK = false
    /// A JPEG of four components (CMYK): drawn, it is turned into RGB, and its inks come back
    /// otherwise from the output intent.
    public var cmyk = false
    /// A JPEG carries an ICC profile of its own (APP2 `ICC_PROFILE`) that is not sRGB's: it is not
    /// used, and its colours are taken as sRGB.
    public var embeddedProfile = false
    /// A PNG's `iCCP` chunk, where it starts in the file: its profile is compressed and its
    /// name any word, so whether it is sRGB's is for a reader with zlib to say (the preflight).
    public var iccpOffset: Int?

    public init(format: Format, pixelWidth: Int, pixelHeight: Int, dpi: Double? = nil) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.dpi = dpi
    }

    /// Why a file's header could not be read; the message is ready to print.
    public struct ReadError: Error, Equatable, Sendable {
        public var message: String
    }

    /// Reads the header of a PNG or JPEG file.
    public static func read(path: String) -> Result<ImageInfo, ReadError> {
        switch RawIO.readRegularFile(path, limit: RawIO.inputLimit) {
        case .success(let bytes): return parse(bytes)
        case .failure(let e): return .failure(ReadError(message: e.message))
        }
    }

    /// Parses a PNG or JPEG header from the file's bytes.
    public static func parse(_ b: [UInt8]) -> Result<ImageInfo, ReadError> {
        if b.isEmpty { return .failure(ReadError(message: "the file is empty")) }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return parsePNG(b) }
        if b.starts(with: [0xFF, 0xD8]) { return parseJPEG(b) }
        if let svg = parseSVG(b) { return svg }
        return .failure(ReadError(message: "it is not a PNG, JPEG or SVG image"))
    }

    /// An SVG's size in points (CSS px = 0.75 pt): its root element's width and height, or its
    /// viewBox. Nil when the bytes are not an SVG document.
    private static func parseSVG(_ b: [UInt8]) -> Result<ImageInfo, ReadError>? {
        let head = String(decoding: b.prefix(8192), as: UTF8.self)
        guard let open = head.firstRange(of: "<svg") else { return nil }
        guard let close = head[open.upperBound...].firstIndex(of: ">") else {
            return .failure(ReadError(message: "the SVG file has no complete <svg> element"))
        }
        let tag = head[open.upperBound..<close]
        func attribute(_ name: String) -> String? {
            var search = tag[...]
            while let r = search.firstRange(of: name) {
                let before = r.lowerBound == tag.startIndex ? " " : tag[tag.index(before: r.lowerBound)]
                var i = r.upperBound
                while i < tag.endIndex && tag[i] == " " { i = tag.index(after: i) }
                if before.isWhitespace, i < tag.endIndex, tag[i] == "=" {
                    i = tag.index(after: i)
                    while i < tag.endIndex && tag[i] == " " { i = tag.index(after: i) }
                    guard i < tag.endIndex, tag[i] == "\"" || tag[i] == "'" else { return nil }
                    let q = tag[i]
                    let start = tag.index(after: i)
                    guard let end = tag[start...].firstIndex(of: q) else { return nil }
                    return String(tag[start..<end])
                }
                search = tag[r.upperBound...]
            }
            return nil
        }
        /// A CSS length in points (px, pt, mm, cm, in; unitless = px); nil for percentages.
        func points(_ v: String?) -> Double? {
            guard var v = v?.trimmed(), !v.isEmpty, !v.hasSuffix("%") else { return nil }
            var unit = 0.75
            for (suffix, factor) in [("px", 0.75), ("pt", 1.0), ("mm", 72 / 25.4), ("cm", 72 / 2.54), ("in", 72.0)]
            where v.hasSuffix(suffix) {
                unit = factor
                v.removeLast(2)
                break
            }
            return Double(v).map { $0 * unit }
        }
        var w = points(attribute("width"))
        var h = points(attribute("height"))
        if w == nil || h == nil, let box = attribute("viewBox") {
            let n = box.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
            if n.count == 4, n[2] > 0, n[3] > 0 {
                if let w0 = w {
                    h = w0 * n[3] / n[2]
                } else if let h0 = h {
                    w = h0 * n[2] / n[3]
                } else {
                    w = n[2] * 0.75
                    h = n[3] * 0.75
                }
            }
        }
        guard let width = w, let height = h, width > 0, height > 0 else {
            return .failure(ReadError(message: "the SVG gives no size (width and height, or a viewBox)"))
        }
        // Sizes are kept as pixels at 72 dpi so points = pixels.
        return .success(
            ImageInfo(format: .svg, pixelWidth: max(1, Int(width.rounded())), pixelHeight: max(1, Int(height.rounded())), dpi: 72))
    }

    private static func be32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }
    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }

    private static func parsePNG(_ b: [UInt8]) -> Result<ImageInfo, ReadError> {
        // Signature (8), then IHDR: length (4), type (4), width (4), height (4).
        guard b.count >= 33, Array(b[12..<16]) == Array("IHDR".utf8) else {
            return .failure(ReadError(message: "the PNG file is truncated (no image header)"))
        }
        let w = be32(b, 16)
        let h = be32(b, 20)
        guard w > 0, h > 0 else { return .failure(ReadError(message: "the PNG header gives a size of \(w)×\(h)")) }
        var info = ImageInfo(format: .png, pixelWidth: w, pixelHeight: h)
        // Walk the chunks for pHYs (unit 1 = metre) until IDAT; check the file reaches IEND.
        var i = 8
        var sawEnd = false
        while i + 8 <= b.count {
            let len = be32(b, i)
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            let next = i + 12 + len
            if len < 0 || next > b.count { break }
            if type == "pHYs", len >= 9, b[i + 16] == 1 {
                let ppm = be32(b, i + 8)
                if ppm > 0 { info.dpi = Double(ppm) * 0.0254 }
            }
            if type == "iCCP" { info.iccpOffset = i }
            if type == "IEND" { sawEnd = true; break }
            i = next
        }
        guard sawEnd else { return .failure(ReadError(message: "the PNG file is truncated")) }
        return .success(info)
    }

    private static func parseJPEG(_ b: [UInt8]) -> Result<ImageInfo, ReadError> {
        var i = 2
        var dpi: Double?
        var adobe = false
        var profile = false
        var turned = false
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return .failure(ReadError(message: "the JPEG file is malformed")) }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let len = be16(b, i + 2)
            guard len >= 2, i + 2 + len <= b.count else { break }
            // APP0 JFIF: density units 1 = dots per inch, 2 = per cm.
            if marker == 0xE0, len >= 16, Array(b[(i + 4)..<(i + 9)]) == [0x4A, 0x46, 0x49, 0x46, 0] {
                let units = b[i + 11]
                let xd = be16(b, i + 12)
                if xd > 0 && units == 1 { dpi = Double(xd) }
                if xd > 0 && units == 2 { dpi = Double(xd) * 2.54 }
            }
            if marker == 0xE1, let orientation = exifOrientation(b, from: i + 4, to: i + 2 + len) { turned = (5...8).contains(orientation) }
            if marker == 0xEE, len >= 12, Array(b[(i + 4)..<(i + 9)]) == Array("Adobe".utf8) { adobe = true }
            if marker == 0xE2, len >= 14, Array(b[(i + 4)..<(i + 15)]) == Array("ICC_PROFILE".utf8) {
                profile = !Self.namesSRGB(b[(i + 4)..<(i + 2 + len)])
            }
            // Start of frame (baseline, progressive, …) but not DHT (C4), JPG (C8), DAC (CC).
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard len >= 7 else { break }
                let h = be16(b, i + 5)
                let w = be16(b, i + 7)
                guard w > 0, h > 0 else {
                    return .failure(ReadError(message: "the JPEG header gives a size of \(w)×\(h)"))
                }
                // The end-of-image marker, allowing for trailing padding some writers add.
                let tail = Array(b.suffix(1024))
                guard zip(tail, tail.dropFirst()).contains(where: { $0 == 0xFF && $1 == 0xD9 }) else {
                    return .failure(ReadError(message: "the JPEG file is truncated"))
                }
                // Drawn upright (the decoder applies the orientation), a turned image's box is
                // its height wide.
                var info = ImageInfo(format: .jpeg, pixelWidth: turned ? h : w, pixelHeight: turned ? w : h, dpi: dpi)
                info.cmyk = len >= 8 && b[i + 9] == 4
                info.invertedCMYK = adobe && info.cmyk
                info.embeddedProfile = profile
                return .success(info)
            }
            i += 2 + len
        }
        return .failure(ReadError(message: "the JPEG file is truncated (no frame header)"))
    }

    /// Whether an ICC profile's bytes are sRGB's, by its description, which is plain text in the
    /// profile ("sRGB IEC61966-2.1"): a JPEG's here, a PNG's once inflated (the preflight).
    public static func namesSRGB(_ profile: ArraySlice<UInt8>) -> Bool {
        let sRGB = Array("sRGB".utf8)
        return profile.indices.contains { k in k + 4 <= profile.endIndex && profile[k..<(k + 4)].elementsEqual(sRGB) }
    }

    /// The orientation (1 to 8) an APP1 Exif segment in `b[start..<end]` gives its image: the
    /// TIFF header's byte order, then tag 0x0112 among the first directory's entries.
    static func exifOrientation(_ b: [UInt8], from start: Int, to end: Int) -> Int? {
        guard end - start >= 14, Array(b[start..<(start + 6)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] else { return nil }
        let tiff = start + 6
        let little = b[tiff] == 0x49 && b[tiff + 1] == 0x49
        guard little || (b[tiff] == 0x4D && b[tiff + 1] == 0x4D) else { return nil }
        func u16(_ at: Int) -> Int? {
            guard at >= tiff, at + 2 <= end else { return nil }
            return little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let c = u16(at + 2) else { return nil }
            return little ? a | c << 16 : a << 16 | c
        }
        guard let first = u32(tiff + 4), let count = u16(tiff + first) else { return nil }
        for k in 0..<min(count, 512) {
            let entry = tiff + first + 2 + 12 * k
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112, let v = u16(entry + 8), (1...8).contains(v) { return v }
        }
        return nil
    }
}
