import GalleyMarkup
import GalleySupport
import GalleyTemplate

/// The sizes of image an image file may have to be decoded: Cairo's image surfaces end at 32767
/// pixels a side, and a decoded pixel costs 4 bytes, so the pixel count bounds the memory.
public enum ImageLimits {
    /// Cairo's largest image side, pixels.
    public static let largestSide = 32767

    /// Why the image at `path`, of `info`'s size, cannot be used under a limit of `maxPixels`, or
    /// nil when it can. An SVG is drawn as vectors, but librsvg decodes each image it draws
    /// from whole, unchecked: the limits hold for each of those and for all of them together.
    public static func problem(_ info: ImageInfo, at path: String, maxPixels: Int) -> String? {
        guard info.format == .svg else { return problem(info, maxPixels: maxPixels) }
        var total = 0
        let folder = FilePath.directory(of: path) + "/"
        for file in SVGReferences.files(of: [path]) where !SVGReferences.isSVG(file) {
            guard case .success(let drawn) = ImageInfo.read(path: file) else { continue }  // librsvg leaves it out
            let name = file.hasPrefix(folder) ? String(file.dropFirst(folder.count)) : file
            if let problem = problem(drawn, maxPixels: maxPixels) { return "it draws '\(name)': \(problem)" }
            total += drawn.pixelWidth * drawn.pixelHeight
        }
        guard total > maxPixels else { return nil }
        return "the images it draws have \(pixels(total)) in all, more than the limit of \(pixels(maxPixels)); "
            + "raise it with --max-image-pixels or the template's maxImagePixels"
    }

    /// Why a raster image of `info`'s size cannot be used under a limit of `maxPixels`.
    private static func problem(_ info: ImageInfo, maxPixels: Int) -> String? {
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
