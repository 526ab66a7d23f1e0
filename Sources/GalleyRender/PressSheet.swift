import GalleyLayout
import GalleyTemplate

/// The printer's sheet around one page (`--press`): the page (the trim), the bleed around it
/// that what touches the trim runs into, and the slug outside the bleed that holds the marks.
/// Coordinates are points from the sheet's top left, as Cairo draws; `pdfBox` turns a
/// rectangle into PDF's, from the bottom left. The post-pass, and later the CMYK pass and the
/// preflight, read the boxes from here.
public struct PressSheet: Sendable, Equatable {
    public var trimWidth: Double
    public var trimHeight: Double
    public var print: PrintSpec

    public init(trimWidth: Double, trimHeight: Double, print: PrintSpec) {
        self.trimWidth = trimWidth
        self.trimHeight = trimHeight
        self.print = print
    }

    /// From the sheet's edge to the trim.
    public var margin: Double { print.bleed + print.slug }
    public var width: Double { trimWidth + 2 * margin }
    public var height: Double { trimHeight + 2 * margin }
    public var media: Rect { Rect(x: 0, y: 0, width: width, height: height) }
    public var trim: Rect { Rect(x: margin, y: margin, width: trimWidth, height: trimHeight) }
    public var bleed: Rect {
        let b = print.bleed
        return Rect(x: margin - b, y: margin - b, width: trimWidth + 2 * b, height: trimHeight + 2 * b)
    }

    /// `[llx lly urx ury]` of a rectangle of the sheet, in PDF's space (y up).
    public func pdfBox(_ r: Rect) -> [Double] { [r.x, height - r.maxY, r.maxX, height - r.y] }

    /// The weight of every mark's lines, points: a printer's usual quarter point.
    public static let markWeight = 0.25
    /// The gap between the bleed's edge and the marks, so a mark never reaches the bleed.
    static let markGap = 2.0

    /// How far from the trim the marks start, and how long a crop mark is: the slug less the
    /// gap on each side, at most 20 pt.
    var markOffset: Double { print.bleed + Self.markGap }
    var markLength: Double { max(0, min(20, print.slug - 2 * Self.markGap)) }

    /// A straight line of a mark.
    public struct Segment: Sendable, Equatable {
        public var from: (x: Double, y: Double)
        public var to: (x: Double, y: Double)
        public static func == (a: Segment, b: Segment) -> Bool {
            a.from == b.from && a.to == b.to
        }
    }

    /// A registration target: a circle and a cross through its centre, as long as a crop mark.
    public struct Target: Sendable, Equatable {
        public var x: Double, y: Double
        public var radius: Double
        public var cross: [Segment]
    }

    /// The crop marks: at each corner, the trim's two edges carried on into the slug, from just
    /// outside the bleed.
    public var cropMarks: [Segment] {
        guard print.marks.contains(.crop) else { return [] }
        let t = trim, o = markOffset, l = markLength
        var out: [Segment] = []
        for (x, sx) in [(t.x, -1.0), (t.maxX, 1.0)] {
            for (y, sy) in [(t.y, -1.0), (t.maxY, 1.0)] {
                out.append(Segment(from: (x + sx * o, y), to: (x + sx * (o + l), y)))
                out.append(Segment(from: (x, y + sy * o), to: (x, y + sy * (o + l))))
            }
        }
        return out
    }

    /// A registration target at the middle of each side, in the crop marks' band.
    public var registrationMarks: [Target] {
        guard print.marks.contains(.registration) else { return [] }
        let t = trim, half = markLength / 2, band = markOffset + half
        let centres = [
            (t.x + t.width / 2, t.y - band), (t.x + t.width / 2, t.maxY + band), (t.x - band, t.y + t.height / 2),
            (t.maxX + band, t.y + t.height / 2),
        ]
        return centres.map { x, y in
            Target(
                x: x, y: y, radius: half * 0.6,
                cross: [Segment(from: (x - half, y), to: (x + half, y)), Segment(from: (x, y - half), to: (x, y + half))])
        }
    }

    /// Where the slug line goes: under the trim, in the marks' band, clear of the crop mark at
    /// the left edge and short of the registration target at the middle.
    var slugLineBox: Rect? {
        guard print.marks.contains(.slug) else { return nil }
        let t = trim, clear = 6.0
        return Rect(x: t.x + clear, y: t.maxY + markOffset, width: max(0, t.width / 2 - markLength - 2 * clear), height: markLength)
    }

    /// The slug line's face and size: plain ASCII in a face every setup installs.
    static let slugFace = "DejaVu Sans"
    static let slugSize = 6.0

    /// Where the slug line's baseline starts in `box` (sheet space, y down): at its left, a
    /// little below its middle, so the 6 pt letters sit centred in the band.
    static func slugBaseline(in box: Rect) -> (x: Double, y: Double) { (box.x, box.y + box.height / 2 + 2) }
}
