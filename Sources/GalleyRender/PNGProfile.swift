import CZlib
import GalleyStory
import GalleySupport

/// A PNG's own ICC profile (`iCCP`: a name, a compression method, then the profile deflated).
/// The PDF takes the pixels as sRGB whatever the profile says, so the preflight names a PNG whose
/// profile is another one (Adobe RGB greens print duller), as it names such a JPEG.
enum PNGProfile {
    /// The most a profile may inflate to here: far more than a display profile's few kilobytes.
    static let largest = 4 << 20

    /// Whether the `iCCP` chunk at `offset` of the PNG at `path` holds a profile other than
    /// sRGB's, or one that cannot be read (which a reader may then use or not). By its
    /// description, where every sRGB profile says "sRGB".
    static func isOtherThanSRGB(_ path: String, at offset: Int?) -> Bool {
        guard let offset, case .success(let file) = RawIO.readRegularFile(path, limit: RawIO.inputLimit),
            offset + 8 <= file.count
        else { return false }
        let length = file[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        let data = offset + 8
        guard length >= 3, data + length <= file.count, let nul = file[data..<(data + length)].firstIndex(of: 0),
            nul + 2 <= data + length, file[nul + 1] == 0
        else { return true }
        guard let profile = inflated(Array(file[(nul + 2)..<(data + length)])) else { return true }
        return !ImageInfo.namesSRGB(profile[...])
    }

    /// `bytes` inflated (zlib), up to `largest`; nil when they do not inflate.
    static func inflated(_ bytes: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: largest)
        var size = uLongf(largest)
        let status = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { i in uncompress(o.baseAddress, &size, i.baseAddress, uLong(i.count)) }
        }
        guard status == Z_OK else { return nil }
        return Array(out.prefix(Int(size)))
    }
}
