import GalleySupport

/// An ICC colour profile, read and checked as far as a PDF needs to embed it: the press
/// post-pass's output intent and sRGB, and later the CMYK conversion and the preflight, which
/// name the same profiles.
public struct ColorProfile: Sendable, Equatable {
    /// Where it was read from (for messages).
    public let path: String
    public let bytes: [UInt8]
    /// The data colour space signature (bytes 16–19): `CMYK`, `RGB `, `GRAY`.
    public let colorSpace: String
    /// The profile class (bytes 12–15): `prtr` for a printing condition, `mntr` for a display.
    public let deviceClass: String
    /// The profile's own name (its `desc` tag), else the file's name.
    public let name: String

    /// The CMYK profile used when no `--output-intent` is given: Ghostscript's (Debian's
    /// `libgs-common`, which `ghostscript` pulls in), a SWOP press characterisation, the one
    /// CMYK printer profile Debian installs with a tool a press workflow needs anyway.
    public static let defaultOutputIntent = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
    /// The sRGB profile that Cairo's RGB colours are declared in (from the same package).
    public static let sRGB = "/usr/share/color/icc/ghostscript/srgb.icc"
    /// Printer profiles run to a few megabytes; this bounds what a mistyped path can cost.
    public static let largestProfile = 64 << 20

    /// The colour components of the space: what a PDF's `/N` says.
    public var components: Int {
        switch colorSpace {
        case "CMYK": 4
        case "GRAY": 1
        default: 3
        }
    }

    /// Reads and checks the profile at `path`; `colorSpace` is the signature it must have.
    /// The error names the file and what is wrong with it.
    public static func read(_ path: String, colorSpace wanted: String) -> Result<ColorProfile, RenderError> {
        switch RawIO.readRegularFile(path, limit: largestProfile) {
        case .failure(let e): return .failure(RenderError(.error("cannot read ICC profile '\(path)': \(e.message)")))
        case .success(let bytes): return parse(bytes, path: path, colorSpace: wanted)
        }
    }

    /// Checks the header (ICC.1, 7.2): the size it declares is the file's, `acsp` at byte 36,
    /// and the data colour space is `wanted`.
    static func parse(_ bytes: [UInt8], path: String, colorSpace wanted: String) -> Result<ColorProfile, RenderError> {
        func fail(_ why: String) -> Result<ColorProfile, RenderError> {
            .failure(RenderError(.error("'\(path)' is not a usable ICC profile: \(why)")))
        }
        guard bytes.count >= 132 else { return fail("it is \(bytes.count) bytes, shorter than an ICC header") }
        guard signature(bytes, 36) == "acsp" else { return fail("it has no 'acsp' signature at byte 36 (not an ICC profile)") }
        let declared = Int(bigEndian32(bytes, 0))
        guard declared == bytes.count else { return fail("its header says \(declared) bytes, the file has \(bytes.count)") }
        let space = signature(bytes, 16)
        guard space == wanted else {
            let shown = space.trimmed().isEmpty ? "none" : space.trimmed()
            return fail("its colour space is \(shown), not \(wanted.trimmed())")
        }
        if let damage = tableDamage(bytes) { return fail(damage) }
        let name = description(bytes) ?? FilePath.name(of: path)
        return .success(ColorProfile(path: path, bytes: bytes, colorSpace: space, deviceClass: signature(bytes, 12), name: name))
    }

    /// What is wrong with the tag table (ICC.1, 7.3), if anything: a count the file cannot
    /// hold, or a tag whose data lies outside the file or inside the header and table.
    static func tableDamage(_ b: [UInt8]) -> String? {
        let count = Int(bigEndian32(b, 128))
        let tableEnd = 132 + 12 * count
        guard count > 0 else { return "it has no tags" }
        guard tableEnd <= b.count else { return "its tag table (\(count) tags) does not fit in the file" }
        for entry in stride(from: 132, to: tableEnd, by: 12) {
            let offset = Int(bigEndian32(b, entry + 4)), size = Int(bigEndian32(b, entry + 8))
            guard offset >= tableEnd, size >= 8, offset + size <= b.count else {
                return "its '\(signature(b, entry).trimmed())' tag lies outside the file's data"
            }
        }
        return nil
    }

    static func bigEndian32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    /// Four bytes as text (Latin-1, so any byte reads).
    static func signature(_ b: [UInt8], _ at: Int) -> String {
        String(String.UnicodeScalarView(b[at..<at + 4].map { Unicode.Scalar($0) }))
    }

    /// The `desc` tag's text: ASCII in a v2 `desc` type, the first record of a v4 `mluc`.
    static func description(_ b: [UInt8]) -> String? {
        let count = Int(bigEndian32(b, 128))
        for i in 0..<min(count, 200) where 144 + 12 * i <= b.count {
            let entry = 132 + 12 * i
            guard signature(b, entry) == "desc" else { continue }
            let offset = Int(bigEndian32(b, entry + 4)), size = Int(bigEndian32(b, entry + 8))
            guard offset >= 0, size >= 12, offset + size <= b.count else { return nil }
            return descriptionText(Array(b[offset..<offset + size]))
        }
        return nil
    }

    private static func descriptionText(_ tag: [UInt8]) -> String? {
        let text: String
        switch signature(tag, 0) {
        case "desc":
            let n = Int(bigEndian32(tag, 8))
            guard n > 1, 12 + n <= tag.count else { return nil }
            text = String(decoding: tag[12..<12 + n - 1].filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
        case "mluc" where tag.count >= 28:
            let length = Int(bigEndian32(tag, 20)), offset = Int(bigEndian32(tag, 24))
            guard offset + length <= tag.count, length >= 2 else { return nil }
            let units = stride(from: offset, to: offset + length - 1, by: 2).map { UInt16(tag[$0]) << 8 | UInt16(tag[$0 + 1]) }
            text = String(decoding: units, as: UTF16.self)
        default: return nil
        }
        let trimmed = text.trimmed()
        return trimmed.isEmpty ? nil : trimmed
    }
}
