import CPixbuf
import GalleyStory
import GalleySupport
import GalleyTemplate

/// Sizes of floats and their captions, and the outlines contour wrap follows. Made once per
/// layout on the flow's thread.
final class Figures {
    let story: Story
    /// Height of a caption set in `width` points (measured with the same Pango settings the
    /// renderer draws it with).
    let captionHeight: (String, Double) -> Double
    /// Gap between an image and its caption.
    let captionGap: Double
    /// Opaque extent of each pixel row of PNGs with alpha, by image index (decoded once).
    private var alphaCache: [Int: [(Int, Int)?]] = [:]
    /// Caption heights already measured: a float is sized again wherever the flow tries it,
    /// and setting a long caption costs as much as a paragraph.
    private var captionHeights: [CaptionKey: Double] = [:]

    private struct CaptionKey: Hashable {
        let text: String
        let width: Double
    }

    /// The height of `text` set as a caption `width` points wide, measured once.
    func captionHeight(_ text: String, width: Double) -> Double {
        let key = CaptionKey(text: text, width: width)
        if let h = captionHeights[key] { return h }
        let h = captionHeight(text, width)
        captionHeights[key] = h
        return h
    }

    /// Pull quotes and sidebars, set by width.
    var blocks: TextBlocks?

    init(story: Story, captionGap: Double = 4, captionHeight: @escaping (String, Double) -> Double) {
        self.story = story
        self.captionGap = captionGap
        self.captionHeight = captionHeight
    }

    /// A pull quote's or sidebar's size: its width (as asked, within `maxWidth`), and the height
    /// of its text set at that width inside its box, at most `maxHeight` (cut there: true).
    func blockSize(_ image: ImageReference, block index: Int, maxWidth: Double, maxHeight: Double) -> (w: Double, h: Double, cut: Bool) {
        let box = story.blocks[index].box
        var w = maxWidth
        switch image.widthSpec {
        case .percent(let p)?: w = maxWidth * p / 100
        case .points(let v)?: w = v
        case nil: break
        }
        w = min(max(box.horizontalExtra + 12, w), maxWidth)
        let text = blocks?.set(index, width: max(1, w - box.horizontalExtra)).textHeight ?? 0
        let h = text + box.verticalExtra
        return (w, min(h, maxHeight), h > maxHeight + 0.01)
    }

    /// The block set for a placed box of `width`.
    func setBlock(_ index: Int, width: Double) -> SetTextBlock? {
        blocks?.set(index, width: max(1, width - story.blocks[index].box.horizontalExtra))
    }

    /// The natural size of an image in points: its pixels at its own resolution (72 dpi when
    /// the file says none), or the `width`/`height` attributes.
    func naturalSize(_ image: ImageReference) -> (Double, Double) {
        let dpi = image.info.dpi ?? 72
        var w = Double(image.info.pixelWidth) * 72 / dpi
        var h = Double(image.info.pixelHeight) * 72 / dpi
        if let aw = image.width, let ah = image.height {
            (w, h) = (aw, ah)
        } else if let aw = image.width {
            (w, h) = (aw, aw / image.aspectRatio)
        } else if let ah = image.height {
            (w, h) = (ah * image.aspectRatio, ah)
        }
        return (w, h)
    }

    /// A float's size within `maxWidth` × `maxHeight`: its `widthSpec` (a percentage of
    /// `maxWidth`, or points), else its natural size, never wider than `maxWidth`; shrunk, keeping
    /// its proportions, until image and caption fit `maxHeight`. A caption takes at most half of
    /// `maxHeight` (one longer is cut there): measured at the shrinking image's width it would
    /// otherwise grow as the image narrows, without end. Returns image size, caption height (0
    /// without one), whether the image was shrunk and whether the caption was cut.
    func size(
        _ image: ImageReference, maxWidth: Double, maxHeight: Double
    ) -> (w: Double, h: Double, caption: Double, shrunk: Bool, captionCut: Bool) {
        if let b = image.block {
            let (w, h, cut) = blockSize(image, block: b, maxWidth: maxWidth, maxHeight: maxHeight)
            return (w, h, 0, false, cut)
        }
        var w = naturalSize(image).0
        switch image.widthSpec {
        case .percent(let p)?: w = maxWidth * p / 100
        case .points(let v)?: w = v
        case nil: break
        }
        return fitted(image, width: min(max(1, w), maxWidth), maxHeight: maxHeight)
    }

    /// An image `width` wide in its proportions, with its caption under it, shrunk (keeping its
    /// proportions) until both fit `maxHeight`, the caption at most half of it (cut there), as
    /// `size` says: a float's, and a block image's at its block width. The caption is set as
    /// wide as the image, or `captionWidth` when given (a block image's column).
    func fitted(
        _ image: ImageReference, width: Double, maxHeight: Double, captionWidth: Double? = nil
    ) -> (w: Double, h: Double, caption: Double, shrunk: Bool, captionCut: Bool) {
        var w = width
        var h = w / image.aspectRatio
        let most = maxHeight / 2
        func measured(_ width: Double) -> Double {
            min(most, image.caption.map { captionHeight($0, width: captionWidth ?? width) + captionGap } ?? 0)
        }
        var caption = measured(w)
        var shrunk = false
        if h + caption > maxHeight {
            shrunk = true
            for _ in 0..<8 where h + caption > maxHeight {
                h = max(1, maxHeight - caption)
                w = h * image.aspectRatio
                caption = measured(w)
            }
            h = max(1, min(h, maxHeight - caption))
            w = h * image.aspectRatio
        }
        let cut = image.caption.map { captionHeight($0, width: captionWidth ?? w) + captionGap > caption + 0.01 } ?? false
        return (w, h, caption, shrunk, cut)
    }

    /// The exclusion a float makes where it is placed.
    func exclusion(_ index: Int, image rect: Rect, captionHeight: Double) -> Exclusion {
        let image = story.images[index]
        let box = Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height + captionHeight)
        var e = Exclusion(rect: box, margin: image.margin, wrap: image.wrap, profile: nil)
        if image.wrap == .contour {
            let step = 1.0
            var profile = outline(index, width: rect.width, height: rect.height, step: step)
            // The caption below keeps its full width.
            let captionBands = Int((captionHeight / step).rounded(.up))
            profile += Array(repeating: (0, rect.width), count: captionBands)
            e.profile = profile
            e.profileStep = step
        }
        return e
    }

    /// The outline's horizontal extent in bands `step` points tall, as offsets from the image's
    /// left edge, for an image set `width` × `height`.
    func outline(_ index: Int, width: Double, height: Double, step: Double) -> [(left: Double, right: Double)?] {
        let bands = max(1, Int((height / step).rounded(.up)))
        switch story.images[index].shape {
        case .box:
            return Array(repeating: (0, width), count: bands)
        case .ellipse:
            return (0..<bands).map { b in
                let y = (Double(b) + 0.5) * step / height * 2 - 1
                let half = (1 - y * y).squareRoot() * width / 2
                return half > 0 ? (width / 2 - half, width / 2 + half) : nil
            }
        case .polygon(let coords):
            let image = story.images[index]
            let sx = width / Double(image.info.pixelWidth)
            let sy = height / Double(image.info.pixelHeight)
            let points = stride(from: 0, to: coords.count - 1, by: 2).map { (coords[$0] * sx, coords[$0 + 1] * sy) }
            return (0..<bands).map { b in polygonExtent(points, top: Double(b) * step, bottom: Double(b + 1) * step) }
        case .alpha:
            let rows = alphaRows(index)
            guard !rows.isEmpty else { return Array(repeating: (0, width), count: bands) }
            let image = story.images[index]
            let sx = width / Double(image.info.pixelWidth)
            return (0..<bands).map { b in
                let r0 = Int(Double(b) * step / height * Double(rows.count))
                let r1 = max(r0 + 1, Int((Double(b + 1) * step / height * Double(rows.count)).rounded(.up)))
                var l = Int.max
                var r = Int.min
                for row in rows[min(r0, rows.count - 1)..<min(r1, rows.count)] {
                    if let (a, z) = row {
                        l = min(l, a)
                        r = max(r, z)
                    }
                }
                return l <= r ? (Double(l) * sx, Double(r + 1) * sx) : nil
            }
        }
    }

    /// Horizontal extent of a polygon between two heights (edges crossing the band, and
    /// vertices inside it).
    private func polygonExtent(_ p: [(Double, Double)], top: Double, bottom: Double) -> (left: Double, right: Double)? {
        guard p.count >= 3 else { return nil }
        var l = Double.infinity
        var r = -Double.infinity
        for i in p.indices {
            let (x0, y0) = p[i]
            let (x1, y1) = p[(i + 1) % p.count]
            if y0 >= top && y0 <= bottom {
                l = min(l, x0)
                r = max(r, x0)
            }
            for y in [top, bottom] where (y0 - y) * (y1 - y) < 0 {
                let x = x0 + (x1 - x0) * (y - y0) / (y1 - y0)
                l = min(l, x)
                r = max(r, x)
            }
        }
        return l <= r ? (l, r) : nil
    }

    /// For each pixel row of the image, the first and last column whose alpha is at least half,
    /// nil for a fully transparent row. Empty when the image cannot be read or has no alpha.
    private func alphaRows(_ index: Int) -> [(Int, Int)?] {
        if let rows = alphaCache[index] { return rows }
        let rows = decodeAlphaRows(index)
        alphaCache[index] = rows
        return rows
    }

    private func decodeAlphaRows(_ index: Int) -> [(Int, Int)?] {
        let image = story.images[index]
        var error: UnsafeMutablePointer<GError>?
        guard image.info.format == .png, let pixbuf = gdk_pixbuf_new_from_file(image.path, &error) else {
            if let error { g_error_free(error) }
            return []
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        guard gdk_pixbuf_get_has_alpha(pixbuf) != 0, gdk_pixbuf_get_n_channels(pixbuf) == 4 else { return [] }
        let w = Int(gdk_pixbuf_get_width(pixbuf))
        let h = Int(gdk_pixbuf_get_height(pixbuf))
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = gdk_pixbuf_read_pixels(pixbuf)!
        return (0..<h).map { y in
            let row = pixels + y * stride
            var first = -1
            var last = -1
            for x in 0..<w where row[x * 4 + 3] >= 128 {
                if first < 0 { first = x }
                last = x
            }
            return first < 0 ? nil : (first, last)
        }
    }
}
