import CCairo
import GalleyLayout
import GalleyStory
import GalleyTemplate
import GalleySupport
import Glibc

/// A draw run with its page geometry and style: what every layer of a page draws from.
struct PlacedRun {
    var run: DrawRun
    /// The run's style, shared with every run of that style (see `SharedStyle`).
    let sharedStyle: SharedStyle
    var style: TextStyle {
        _read { yield sharedStyle.value }
    }
    /// The shaped paragraph the run comes from (its text, for the PDF's text mapping).
    var paragraph: ParagraphLayout
    /// Left and right ends of the run's advance on the page, points (justification included).
    var start: Double
    var end: Double
    /// The line's baseline, points from the top of the page.
    var baseline: Double
    /// Its shadow's mask when a shaping thread made it ahead (see `PageRenderer.prepareShadows`).
    var shadowMask: ShadowMask? = nil

    /// The run's own baseline: the line's, raised by the baseline offset (negative lowers).
    var runBaseline: Double { baseline - style.baselineOffset }
}

/// A style held by reference. A page's runs are passed and kept in lists many times over while
/// it is drawn, in layer after layer; with the style inline each copy of a run also copied
/// some 300 bytes and retained the style's four strings and lists.
final class SharedStyle {
    let value: TextStyle
    init(_ value: TextStyle) { self.value = value }
}

/// A placed line and its runs in visual order, left to right.
struct LineRuns {
    var line: PlacedLine
    var runs: [PlacedRun]

    /// Top and bottom of the line box.
    var top: Double { line.box.y }
    var bottom: Double { line.box.maxY }
}

/// What the page is drawn onto.
struct Target {
    /// A PDF surface: link annotations are emitted, shadows are rasterised at a fixed resolution.
    var isPDF: Bool
    /// Device pixels per point (1 on a PDF surface, dpi ÷ 72 on an image).
    var deviceScale: Double

    init(_ cr: OpaquePointer) {
        isPDF = cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_PDF
        var dx = 1.0
        var dy = 0.0
        cairo_user_to_device_distance(cr, &dx, &dy)
        deviceScale = max(1e-3, (dx * dx + dy * dy).squareRoot())
    }
}

extension TextStyle {
    /// The style of glyphs widened by `steps` of a line's expansion (`GlueModel`): scaled
    /// horizontally by that much more.
    func expanded(by steps: Int) -> TextStyle {
        guard steps != 0 else { return self }
        var s = self
        s.expansion += log(1 + Double(steps) * GlueModel.expansionStep)
        return s
    }

    /// Width of the glyph outline's pen, points: Core Text's stroke width is percent of the size.
    var outlineWidth: Double { abs(strokeWidth) / 100 * size }
    /// Hollow text: outline only, the fill is (nearly) clear.
    var isHollow: Bool { strokeWidth > 0 }
}
