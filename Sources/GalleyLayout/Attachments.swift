import GalleyMarkup
import GalleyStory
import GalleyTemplate
import GalleySupport

/// An image standing in a line of text (NSTextAttachment): its story position and set size.
package struct Attachment: Sendable, Equatable {
    /// Paragraph byte of its U+FFFC.
    package var byte: Int32
    /// Index into `Story.images`.
    package var image: Int
    /// Set size, points; `descent` is how far its bottom sits below the baseline.
    package var width: Double
    package var height: Double
    package var descent: Double
    /// An inline image shrunk, with its proportions, to its line's width or the column's height.
    package var shrunk = false
}

/// The story's images anchored in running text, sorted by position, for finding a paragraph's
/// attachments without scanning every image.
struct AttachmentIndex: Sendable {
    /// (story byte of the U+FFFC, image index), sorted.
    let anchors: [(Int, Int)]

    init(story: Story) {
        anchors = story.images.indices.compactMap { i in story.images[i].anchor.map { ($0, i) } }.sorted { $0.0 < $1.0 }
    }

    /// The anchors inside story bytes `range`.
    func inside(_ range: Range<Int>) -> ArraySlice<(Int, Int)> {
        let lo = anchors.partitionPoint { $0.0 >= range.lowerBound }
        let end = anchors[lo...].partitionPoint { $0.0 >= range.upperBound }
        return anchors[lo..<end]
    }

    /// The attachments of a paragraph: inline images sized to the line (the style's ascent plus
    /// descent, on the baseline with their foot at the descent, like an attachment's bounds
    /// with a small negative y) unless sized explicitly, then kept to `width`, the measure the
    /// paragraph is shaped for, and to `columnHeight` (`fitted`); floats take no room in the line.
    func attachments(of p: Paragraph, story: Story, plan: FontPlan, width: Double, columnHeight: Double) -> [Attachment] {
        inside(p.range).map { anchor, i in
            let image = story.images[i]
            let offset = Int32(anchor - p.range.lowerBound)
            guard image.placement == .inline else {
                return Attachment(byte: offset, image: i, width: 0, height: 0, descent: 0)
            }
            let style = story.runs[p.runs].last { $0.range.lowerBound <= anchor }?.style ?? 0
            let m = plan.metrics[style]
            var h = m.ascent + m.descent
            var w = h * image.aspectRatio
            if let ew = image.width, let eh = image.height {
                (w, h) = (ew, eh)
            } else if let ew = image.width {
                (w, h) = (ew, ew / image.aspectRatio)
            } else if let eh = image.height {
                (w, h) = (eh * image.aspectRatio, eh)
            }
            var a = Attachment(byte: offset, image: i, width: w, height: h, descent: 0)
            // A vertical line runs down its block, whose length the flow decides: kept as asked.
            if !p.style.vertical {
                // The line box adds the half-leading below the image's foot (`LineSetter.box`).
                let half = (p.style.leadingRatio * plan.styles[style].size - (m.ascent + m.descent)) / 2
                let measure = width - p.style.indent - max(0, p.style.firstLineIndent)
                a = Self.fitted(a, width: measure, height: columnHeight - max(0, half))
            }
            a.descent = min(m.descent, a.height / 3)
            return a
        }
    }

    /// An inline image kept within `width` × `height`, shrunk with its proportions. A line is
    /// not broken inside an image, so one wider than its measure would run over the next column
    /// or off the page, and one taller than the column would be set past its foot ("placed
    /// anyway"), where block images and floats are shrunk to fit. The width is rounded down to
    /// Pango units, which the shaper rounds the glyph's advance to, so the line is not overfull.
    static func fitted(_ a: Attachment, width: Double, height: Double) -> Attachment {
        let scale = min(1, max(1, width) / a.width, max(1, height) / a.height)
        guard scale < 1 else { return a }
        var f = a
        f.width = (a.width * scale * pangoScale).rounded(.down) / pangoScale
        f.height = a.height * scale
        f.shrunk = true
        return f
    }
}
