import GalleyStory
import GalleyTemplate
import GalleySupport

/// An area text keeps out of: a placed image (with its caption) and the margin around it.
struct Exclusion: Sendable {
    /// The image's box on the page, caption included, without the margin.
    var rect: Rect
    /// Distance text keeps from it.
    var margin: Double
    var wrap: WrapMode
    /// For contour wrap: the outline's horizontal extent per band of the box, from the top,
    /// each band `profileStep` points tall, as offsets from `rect.x` (nil where the band is empty).
    var profile: [(left: Double, right: Double)?]?
    var profileStep: Double = 1
    /// Sides text may take beside a contour: a float at a column's edge leaves text only the
    /// open side (`.left`: text to the left of the outline, `.right`: to its right).
    var contourSides: WrapMode = .both

    /// The horizontal extent the exclusion takes over `top..<bottom` (margin included), or nil
    /// when it takes nothing there.
    func extent(top: Double, bottom: Double) -> (Double, Double)? {
        // A line that only touches the area (within a hundredth of a point, which no eye
        // sees) is free: positions found along a column and a float's differ by rounding.
        let y0 = rect.y - margin + 0.01
        let y1 = rect.maxY + margin - 0.01
        guard bottom > y0 && top < y1 else { return nil }
        guard let profile, wrap == .contour else { return (rect.x - margin, rect.maxX + margin) }
        // The outline's widest extent over the rows the line meets, widened by the margin
        // (also vertically: rows within `margin` above and below count).
        let first = max(0, Int(((top - margin - rect.y) / profileStep).rounded(.down)))
        let last = min(profile.count - 1, Int(((bottom + margin - rect.y) / profileStep).rounded(.up)))
        guard first <= last else { return nil }
        var left = Double.infinity
        var right = -Double.infinity
        for band in profile[first...last] {
            if let b = band {
                left = min(left, b.left)
                right = max(right, b.right)
            }
        }
        guard left <= right else { return nil }
        return (rect.x + left - margin, rect.x + right + margin)
    }

    /// The horizontal range text keeps out of over `top..<bottom` (nil when the exclusion takes
    /// nothing there): its extent, widened to the column's edge on each side its wrap leaves no
    /// text (both sides, for `none`).
    func cut(top: Double, bottom: Double) -> (Double, Double)? {
        guard let (l, r) = extent(top: top, bottom: bottom) else { return nil }
        switch wrap {
        case .none: return (-Double.infinity, .infinity)
        case .left: return (l, .infinity)  // text only to the image's left
        case .right: return (-Double.infinity, r)  // text only to its right
        case .both: return (l, r)
        case .contour:
            switch contourSides {
            case .left: return (l, .infinity)
            case .right: return (-Double.infinity, r)
            default: return (l, r)
            }
        }
    }
}

/// A place a line can go: where it starts, how wide it is, where its box's top is, and the
/// height of box it was found free for.
struct Slot: Sendable, Equatable {
    var x: Double
    var width: Double
    var top: Double
    var height: Double
}

/// A column with exclusions: which horizontal intervals are free for a line at a given height.
struct Region {
    var rect: Rect
    var exclusions: [Exclusion]
    /// Intervals narrower than this are not used.
    var minimumWidth: Double

    /// The free intervals for a line box spanning `top..<bottom`, in reading order. With an
    /// exclusion in the middle, both sides are kept when its wrap is `both` (or `contour`) and
    /// each is wide enough; otherwise only the wider side.
    func intervals(top: Double, bottom: Double) -> [(x: Double, width: Double)] {
        var free: [(Double, Double)] = [(rect.x, rect.maxX)]
        var splitByBoth = true
        for e in exclusions {
            guard let cut = e.cut(top: top, bottom: bottom) else { continue }
            if e.wrap != .both && !(e.wrap == .contour && e.contourSides == .both) { splitByBoth = false }
            var next: [(Double, Double)] = []
            for (a, b) in free {
                if cut.1 <= a || cut.0 >= b {
                    next.append((a, b))
                    continue
                }
                if cut.0 > a { next.append((a, cut.0)) }
                if cut.1 < b { next.append((cut.1, b)) }
            }
            free = next
        }
        let usable = free.filter { $0.1 - $0.0 >= minimumWidth }.map { (x: $0.0, width: $0.1 - $0.0) }
        if usable.count <= 1 || splitByBoth { return usable }
        return [usable.max { $0.width < $1.width }!]
    }

    /// The stretches of the vertical strip `x..<x + width` that are free between `top` and
    /// `bottom`, top to bottom: where a line of vertical text may run. An exclusion takes the
    /// strip over its whole height, margins included, where what it cuts from a horizontal line
    /// (`cut`, over that height: a contour's widest extent, as the strip is straight) meets the
    /// strip; so a vertical line keeps out of a float by the same sides a horizontal one does.
    func stretches(x: Double, width: Double, top: Double, bottom: Double) -> [(top: Double, bottom: Double)] {
        var free: [(top: Double, bottom: Double)] = [(top: top, bottom: bottom)]
        for e in exclusions {
            let (y0, y1) = (e.rect.y - e.margin, e.rect.maxY + e.margin)
            // A strip that only touches the area is free, as a line that only touches it is.
            guard y1 > top, y0 < bottom, let (l, r) = e.cut(top: y0, bottom: y1), l < x + width - 0.01, r > x + 0.01 else {
                continue
            }
            var next: [(top: Double, bottom: Double)] = []
            for s in free {
                if min(s.bottom, y0) - s.top > 0.01 { next.append((top: s.top, bottom: min(s.bottom, y0))) }
                if s.bottom - max(s.top, y1) > 0.01 { next.append((top: max(s.top, y1), bottom: s.bottom)) }
            }
            free = next
        }
        return free
    }

    /// Whether `e` takes any of the region over `top..<bottom` (a float in another column,
    /// such as a sidebar at its head, takes none of this one).
    func meets(_ e: Exclusion, top: Double, bottom: Double) -> Bool {
        guard let (l, r) = e.extent(top: top, bottom: bottom) else { return false }
        return e.wrap == .none || (l < rect.maxX && r > rect.x)
    }

    /// True when nothing excludes any part of `top..<bottom`.
    func isClear(top: Double, bottom: Double) -> Bool {
        !exclusions.contains { meets($0, top: top, bottom: bottom) }
    }

    /// The lowest bottom edge (margin included) of the exclusions overlapping `top..<bottom`.
    func clearance(below top: Double, bottom: Double) -> Double? {
        exclusions.compactMap { e -> Double? in
            meets(e, top: top, bottom: bottom) ? e.rect.maxY + e.margin : nil
        }.min()
    }

    /// Whether a line `height` tall has room anywhere from `y` down to the region's foot: an
    /// interval at least `minimumWidth` wide over the whole of its box.
    func holdsLine(from y: Double, height: Double) -> Bool {
        // Moved up, a box meets no more of a rectangle: it has room somewhere only if it has at
        // `y` or right under an exclusion. A contour may narrow lower down: its rows count too.
        var tops = [y]
        for e in exclusions {
            tops.append(e.rect.maxY + e.margin)
            if e.wrap == .contour { tops += stride(from: e.rect.y - e.margin, to: e.rect.maxY + e.margin, by: max(1, e.profileStep)) }
        }
        return tops.contains { t in t >= y && t + height <= rect.maxY + 0.01 && !intervals(top: t, bottom: t + height).isEmpty }
    }

    /// The gaps from `y` down to the region's foot for a box from `x` to `x + width` that keeps
    /// `margin` from the exclusions it would meet (and they keep theirs from it), each with its
    /// top and the height a box may take there: down to the next such exclusion, or the foot.
    /// Exclusions count by their bounding boxes, as floats do among themselves.
    func gaps(from y: Double, x: Double, width: Double, margin m: Double) -> [(top: Double, height: Double)] {
        let kept = exclusions.filter { $0.rect.x - $0.margin < x + width + m && $0.rect.maxX + $0.margin > x - m }
            .map { (top: $0.rect.y - $0.margin - m, bottom: $0.rect.maxY + $0.margin + m) }
            .sorted { $0.top < $1.top }
        var out: [(top: Double, height: Double)] = []
        var top = y
        // An exclusion below the region's foot (a page-wide float under a balanced column)
        // bounds no gap: the foot does.
        for k in kept where k.bottom > top && top < rect.maxY {
            if k.top > top { out.append((top: top, height: min(k.top, rect.maxY) - top)) }
            top = k.bottom
        }
        if rect.maxY > top { out.append((top: top, height: rect.maxY - top)) }
        return out
    }
}
