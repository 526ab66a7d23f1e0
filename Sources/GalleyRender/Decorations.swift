import CCairo
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import GalleySupport

/// Underline or strikethrough.
enum DecorationKind {
    case underline, strikethrough
}

/// A horizontal decoration line to draw: its ends, where it sits and how thick one stroke of it is.
struct DecorationSegment: Equatable {
    var kind: DecorationKind
    var style: LineStyle
    var color: RGBA
    var x0: Double
    var x1: Double
    /// Underline: the top edge of the line (it grows downwards, away from the text).
    /// Strikethrough: the centre of the line (it grows both ways).
    var y: Double
    /// The font's thickness for one stroke, points.
    var thickness: Double
}

extension PageRenderer {
    // MARK: - Backgrounds

    /// Draws the background boxes of a line (`TextStyle.background`): one box per maximal
    /// sequence of adjacent runs (in visual order) with the same colour, from the left end of
    /// the first run's advance to the right end of the last, as tall as the line box. A space
    /// inside the range is covered at its justified width, so a highlighted phrase is one box
    /// however many fonts and styles it spans; a space outside the range is not (its box ends
    /// at the attribute's range, as NSAttributedString draws it). Trailing space at a line end
    /// is not part of any run, so the box stops at the last visible character (or the hyphen).
    func drawBackgrounds(_ line: LineRuns, on cr: OpaquePointer) {
        let runs = line.runs
        var i = 0
        while i < runs.count {
            guard let color = runs[i].style.background else {
                i += 1
                continue
            }
            var j = i + 1
            while j < runs.count && runs[j].style.background == color { j += 1 }
            let x0 = runs[i].start
            let x1 = runs[j - 1].end
            if x1 > x0 {
                setColor(color, on: cr)
                cairo_rectangle(cr, x0, line.top, x1 - x0, line.bottom - line.top)
                cairo_fill(cr)
            }
            i = j
        }
    }

    // MARK: - Underline and strikethrough

    /// The decoration segments of a line: one per maximal sequence of adjacent runs (in visual
    /// order) with the same decoration and the same resolved colour, continuous across style and
    /// font boundaries and across the spaces inside the range (at their justified width), never
    /// under the trailing space of a line (which no run holds).
    ///
    /// Position and thickness come from the fonts' metrics (`FontPlan.Metrics`, Pango's:
    /// distance from the baseline to the top of the line, positive up). A segment spanning runs
    /// of different sizes or baseline offsets is drawn once, straight: an underline at the lowest
    /// of the runs' positions (each on its own, possibly raised, baseline), a strikethrough at
    /// the position of the largest run; both at the largest thickness.
    ///
    /// Decoration lines do NOT skip descenders: an underline runs straight through the
    /// descenders of g, p, y and the like, as Core Text and AppKit draw
    /// `NSUnderlineStyleAttributeName` by default (no `NSUnderlineByWord`, no ink skipping).
    func decorationSegments(_ line: LineRuns, kind: DecorationKind) -> [DecorationSegment] {
        let metrics = framesetter.plan.metrics
        func decoration(_ r: PlacedRun) -> Decoration? {
            kind == .underline ? r.style.underline : r.style.strikethrough
        }
        let runs = line.runs
        var out: [DecorationSegment] = []
        var i = 0
        while i < runs.count {
            guard let d = decoration(runs[i]) else {
                i += 1
                continue
            }
            let color = d.color ?? runs[i].style.color
            var j = i + 1
            while j < runs.count, let e = decoration(runs[j]), e == d, (e.color ?? runs[j].style.color) == color { j += 1 }
            let group = runs[i..<j]
            var y: Double
            var thickness = 0.0
            switch kind {
            case .underline:
                y = -Double.infinity
                for r in group {
                    let m = metrics[r.run.style]
                    y = max(y, r.runBaseline - m.underlinePosition)
                    thickness = max(thickness, m.underlineThickness)
                }
            case .strikethrough:
                let largest = group.max { $0.style.size < $1.style.size }!
                let m = metrics[largest.run.style]
                for r in group { thickness = max(thickness, metrics[r.run.style].strikethroughThickness) }
                y = largest.runBaseline - m.strikethroughPosition + m.strikethroughThickness / 2
            }
            thickness = max(thickness, 0.05)
            let x0 = runs[i].start
            let x1 = runs[j - 1].end
            if x1 > x0 {
                out.append(DecorationSegment(kind: kind, style: d.style, color: color, x0: x0, x1: x1, y: y, thickness: thickness))
            }
            i = j
        }
        return out
    }

    /// Draws a line's underlines or strikethroughs (see `decorationSegments`).
    func drawDecorations(_ line: LineRuns, kind: DecorationKind, on cr: OpaquePointer) {
        for segment in decorationSegments(line, kind: kind) { draw(segment, on: cr) }
    }

    /// Draws one decoration segment. With `t` the font's thickness:
    /// - single: one line `t` thick;
    /// - thick: one line `2t` thick;
    /// - double: two lines `t` thick with a gap of `1.5t` between them (an underline adds the
    ///   second line below the first; a strikethrough centres the pair on its position);
    /// - dotted: round dots `t` across, `2t` apart; dashed: round-capped dashes `3t` long with
    ///   `2t` gaps;
    /// - wavy: a sine-like curve (cubic Béziers, half a wave every `3t`, amplitude `t`) stroked
    ///   `t` thick, clipped to the segment's ends.
    func draw(_ s: DecorationSegment, on cr: OpaquePointer) {
        let t = s.thickness
        // The centre of a single stroke of thickness `w` whose top (underline) or centre
        // (strikethrough) is at `s.y`.
        func centre(_ w: Double) -> Double { s.kind == .underline ? s.y + w / 2 : s.y }
        setColor(s.color, on: cr)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        switch s.style {
        case .single:
            bar(s.x0, s.x1, centre(t), t, on: cr)
        case .thick:
            bar(s.x0, s.x1, centre(2 * t), 2 * t, on: cr)
        case .double:
            let first = s.kind == .underline ? s.y + t / 2 : s.y - 1.25 * t
            bar(s.x0, s.x1, first, t, on: cr)
            bar(s.x0, s.x1, first + 2.5 * t, t, on: cr)
        case .dotted, .dashed:
            let y = centre(t)
            var dashes = s.style == .dotted ? [0, 2 * t] : [2 * t, 3 * t]
            cairo_set_line_width(cr, t)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_dash(cr, &dashes, 2, 0)
            // Round caps reach t/2 past each end of a dash: start and stop that far inside.
            let a = s.x0 + t / 2
            let b = max(a, s.x1 - t / 2)
            cairo_move_to(cr, a, y)
            cairo_line_to(cr, b, y)
            cairo_stroke(cr)
        case .wavy:
            let amplitude = t
            let y = s.kind == .underline ? s.y + amplitude + t / 2 : s.y
            cairo_rectangle(cr, s.x0, y - amplitude - t, s.x1 - s.x0, 2 * (amplitude + t))
            cairo_clip(cr)
            wave(from: s.x0, to: s.x1, y: y, halfPeriod: 3 * t, amplitude: amplitude, on: cr)
            cairo_set_line_width(cr, t)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
        }
    }

    /// The thinnest stroke `draw(_:on:)` makes of a segment: `t`, or `2t` for a thick one.
    static func thinnestStroke(_ s: DecorationSegment) -> Double {
        s.style == .thick ? 2 * s.thickness : s.thickness
    }

    /// A filled bar from `x0` to `x1`, `w` thick, centred on `y`.
    private func bar(_ x0: Double, _ x1: Double, _ y: Double, _ w: Double, on cr: OpaquePointer) {
        cairo_rectangle(cr, x0, y - w / 2, x1 - x0, w)
        cairo_fill(cr)
    }

    /// A sine-like path around `y` from `x0` to at least `x1`: each half wave a cubic Bézier with
    /// its control points at a third and two thirds of the way, 4/3 of the amplitude out (the
    /// curve's extreme is then exactly the amplitude). It starts going up.
    private func wave(from x0: Double, to x1: Double, y: Double, halfPeriod h: Double, amplitude a: Double, on cr: OpaquePointer) {
        let h = max(h, 0.1)
        var x = x0
        var up = true
        cairo_move_to(cr, x, y)
        while x < x1 {
            let k = (up ? -1.0 : 1.0) * a * 4 / 3
            cairo_curve_to(cr, x + h / 3, y + k, x + 2 * h / 3, y + k, x + h, y)
            x += h
            up.toggle()
        }
    }
}
