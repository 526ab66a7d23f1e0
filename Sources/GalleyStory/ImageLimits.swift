import GalleySupport
import GalleyTemplate
/// The sizes of image an image file may have to be decoded: Cairo's image surfaces end at 32767
/// pixels a side, and a decoded pixel costs 4 bytes, so the pixel count bounds the memory.
public enum ImageLimits {
    /// Cairo's largest image side, pixels.
    public static let largestSide = 32767

    /// Why an image of `info`'s size cannot be used under a limit of `maxPixels`, or nil when it can.
    /// SVG images are drawn as vectors and have no pixels to decode.
    public static func problem(_ info: ImageInfo, maxPixels: Int) -> String? {
        guard info.format != .svg else { return nil }
        let w = info.pixelWidth, h = info.pixelHeight
        if w > largestSide || h > largestSide {
            return "it is \(w)×\(h) pixels, and images can be at most \(largestSide) pixels on a side"
        }
        if w * h > maxPixels {
            return "it has \(w)×\(h) pixels (\(pixels(w * h))), more than the limit of \(pixels(maxPixels)); "
                + "raise it with --max-image-pixels or the template's maxImagePixels"
        }
        return nil
    }

    /// "2.4 megapixels", or the pixels themselves below a tenth of a megapixel (a low limit
    /// would otherwise read as 0).
    private static func pixels(_ n: Int) -> String {
        guard n >= 100_000 else { return n == 1 ? "1 pixel" : "\(n) pixels" }
        let r = (Double(n) / 100_000).rounded() / 10
        return (r == r.rounded() ? String(Int(r)) : String(r)) + " megapixels"
    }
}
