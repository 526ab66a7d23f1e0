import CCairo
import CGalleyPixels
import CPango
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleyTemplate
import GalleySupport
import Glibc

extension PageRenderer {
    /// Pixels per point of shadow masks in a PDF: what the blur needs, 0.75 pixel per σ,
    /// between 72 and 300 ppi. A Gaussian blur keeps nothing finer than its σ: sampled at 0.75
    /// pixel per σ, what it leaves at the pixels' Nyquist frequency is attenuated to 6 %, and
    /// viewers interpolate the mask. The PDF keeps every pixel, and Cairo goes over each several
    /// times on the drawing thread (the one that bounds a build): a small blur (σ 0.5 pt) takes
    /// 108 ppi, a large one (σ 0.75 pt or more) 72 ppi.
    static let pdfShadowResolution = 300.0 / 72
    static let pdfShadowMinimum = 1.0
    /// Pixels per σ a PDF mask needs.
    static let pdfPixelsPerSigma = 0.75
    /// Most pixels one shadow mask may hold. A PDF keeps every mask of a page until the page is
    /// written, so its budget is smaller; an image surface uses the mask at once.
    static let shadowPixelBudget = (pdf: 1 << 20, image: 1 << 23)

    /// Draws the shadows of a line's runs.
    func drawShadows(_ line: LineRuns, on cr: OpaquePointer, target: Target) {
        for run in line.runs {
            if let shadow = Self.visibleShadow(run.style) { drawShadow(shadow, of: run, on: cr, target: target) }
        }
    }

    /// Paints the shadow masks waiting in `pendingShadows` (PDF): all of them in one mask, a
    /// recording surface on which each is painted where it belongs, through which their common
    /// colour is painted once.
    func flushShadows(on cr: OpaquePointer) {
        guard let color = pendingShadows.color, !pendingShadows.masks.isEmpty else { return }
        defer {
            for m in pendingShadows.masks { cairo_surface_destroy(m.surface) }
            pendingShadows.masks.removeAll(keepingCapacity: true)
            pendingShadows.color = nil
        }
        // The device-space box of all the masks, in whole points.
        var x0 = Double.infinity
        var y0 = Double.infinity
        var x1 = -Double.infinity
        var y1 = -Double.infinity
        for m in pendingShadows.masks {
            var matrix = m.matrix
            for (cx, cy) in [(0.0, 0.0), (m.width, 0), (0, m.height), (m.width, m.height)] {
                var x = cx
                var y = cy
                cairo_matrix_transform_point(&matrix, &x, &y)
                x0 = min(x0, x)
                y0 = min(y0, y)
                x1 = max(x1, x)
                y1 = max(y1, y)
            }
        }
        x0.round(.down)
        y0.round(.down)
        var extents = cairo_rectangle_t(x: x0, y: y0, width: (x1 - x0).rounded(.up), height: (y1 - y0).rounded(.up))
        guard let rec = cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, &extents) else { return }
        defer { cairo_surface_destroy(rec) }
        let rc = cairo_create(rec)!
        for m in pendingShadows.masks {
            var matrix = m.matrix
            cairo_set_matrix(rc, &matrix)
            cairo_set_source_surface(rc, m.surface, 0, 0)
            cairo_paint(rc)
        }
        cairo_destroy(rc)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        setColor(color, on: cr)
        cairo_mask_surface(cr, rec, 0, 0)
        cairo_restore(cr)
    }

    /// Draws the shadow of one run (`TextStyle.shadow`, NSShadow): the run's glyphs (and their
    /// outline when stroked; only the outline when hollow), with its baseline offset, slant and
    /// horizontal scale, blurred, in the shadow's colour, moved by (dx, dy) with y down.
    ///
    /// With no blur the glyph outlines are filled as a path at the offset (paths, not text: a PDF
    /// reader must not find the words twice), except colour glyphs, which have no outline: they
    /// take the mask route below, unblurred. With a blur radius `r` the glyphs are rendered into
    /// an A8 mask (at 4 × the device scale on an image; in a PDF at 0.75 px per σ, 72 to
    /// 300 ppi; less only for a huge run), blurred with a Gaussian of σ = r / 2 (the CSS
    /// convention; see `ShadowBlur`), and painted in
    /// the shadow colour through the mask. One mask per run: on an image painted and freed at
    /// once; in a PDF kept until the page's masks of its colour are painted (`flushShadows`).
    func drawShadow(_ shadow: Shadow, of placed: PlacedRun, on cr: OpaquePointer, target: Target) {
        let style = placed.style
        let font = framesetter.engine.font(placed.run.font)
        withGlyphString(placed) { gs in
            if Self.drawsAsPath(shadow, font: placed.run.font) {
                flushShadows(on: cr)  // in order with the masks drawn before it
                cairo_save(cr)
                cairo_translate(cr, shadow.dx, shadow.dy)
                setColor(shadow.color, on: cr)
                if !style.isHollow {
                    cairo_save(cr)
                    Self.applyGlyphTransform(style, at: placed.start, placed.runBaseline, on: cr)
                    cairo_move_to(cr, 0, 0)
                    pango_cairo_glyph_string_path(cr, font, &gs)
                    cairo_restore(cr)
                    cairo_fill(cr)
                }
                if style.isStroked {
                    Self.outline(style, at: placed.start, placed.runBaseline, glyphs: &gs, font: font, on: cr)
                    cairo_stroke(cr)
                }
                cairo_restore(cr)
                return
            }
            // The blurred mask: made ahead on a shaping thread (a PDF build), else now.
            let made =
                (target.isPDF ? placed.shadowMask : nil)
                ?? Self.shadowMask(shadow, style: style, glyphs: &gs, font: font, isPDF: target.isPDF, deviceScale: target.deviceScale)
            guard let made else { return }
            let mask = made.surface
            let (w, h, ppp, bx0, by0) = (made.width, made.height, made.pixelsPerPoint, made.x0, made.y0)
            cairo_save(cr)
            cairo_translate(cr, placed.start + shadow.dx + bx0, placed.runBaseline + shadow.dy + by0)
            cairo_scale(cr, 1 / ppp, 1 / ppp)
            if target.isPDF {
                if pendingShadows.color != shadow.color { flushShadows(on: cr) }
                pendingShadows.color = shadow.color
                var matrix = cairo_matrix_t()
                cairo_get_matrix(cr, &matrix)
                pendingShadows.masks.append(
                    .init(surface: cairo_surface_reference(mask), matrix: matrix, width: Double(w), height: Double(h)))
            } else {
                setColor(shadow.color, on: cr)
                cairo_mask_surface(cr, mask, 0, 0)
            }
            cairo_restore(cr)
        }
    }
}

/// A run's shadow mask, blurred: an A8 image `width` × `height` pixels at `pixelsPerPoint`,
/// whose top left corner is (`x0`, `y0`) points from the run's baseline origin. Immutable once
/// made; it owns its surface.
final class ShadowMask: @unchecked Sendable {
    let surface: OpaquePointer
    let width: Int32
    let height: Int32
    let pixelsPerPoint: Double
    let x0: Double
    let y0: Double

    init(surface: OpaquePointer, width: Int32, height: Int32, pixelsPerPoint: Double, x0: Double, y0: Double) {
        self.surface = surface
        self.width = width
        self.height = height
        self.pixelsPerPoint = pixelsPerPoint
        self.x0 = x0
        self.y0 = y0
    }

    deinit { cairo_surface_destroy(surface) }
}

extension PageRenderer {
    /// The blurred mask of a run's shadow (see `drawShadow`): the glyphs (and their outline when
    /// stroked; only the outline when hollow), with the run's slant and horizontal scale,
    /// rendered into an A8 image at the resolution the blur needs (`isPDF`) or at 4 × the
    /// device scale, then box-blurred. Nil when the run has no ink or the mask cannot be made.
    /// Needs no page: a shaping thread makes the masks of a PDF build ahead, with its own fonts
    /// (the same files and glyphs: the same pixels).
    static func shadowMask(
        _ shadow: Shadow, style: TextStyle, glyphs gs: inout PangoGlyphString, font: UnsafeMutablePointer<PangoFont>, isPDF: Bool,
        deviceScale: Double
    ) -> ShadowMask? {
        // The ink box of the glyphs around the run's origin, through the glyph transform.
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        // Measuring and rasterising the glyphs use Cairo's faces; the blur does not.
        FaceLock.run { pango_glyph_string_extents(&gs, font, &ink, &logical) }
        guard ink.width > 0 && ink.height > 0 else { return nil }
        let s = style.horizontalScale
        let o = style.obliqueness
        let gx0 = Double(ink.x) / pangoScale
        let gx1 = Double(ink.x + ink.width) / pangoScale
        let gy0 = Double(ink.y) / pangoScale
        let gy1 = Double(ink.y + ink.height) / pangoScale
        let xs = [gx0, gx1].flatMap { x in [gy0, gy1].map { y in s * x - o * y } }
        let pen = style.isStroked ? style.outlineWidth / 2 : 0
        let sigma = shadow.blur / 2
        // Room for the pen, the blur's reach (3 box radii ≈ 3σ) and antialiasing (half a point:
        // at least a pixel at any resolution a blur this size gets).
        let margin = pen + 3 * sigma + 0.5
        let bx0 = xs.min()! - margin
        let bx1 = xs.max()! + margin
        let by0 = gy0 - margin
        let by1 = gy1 + margin
        var ppp = 4 * deviceScale
        if isPDF {
            ppp = min(Self.pdfShadowResolution, max(Self.pdfShadowMinimum, Self.pdfPixelsPerSigma / sigma))
        }
        let floor = isPDF ? Self.pdfShadowMinimum : deviceScale
        let budget = Double(isPDF ? Self.shadowPixelBudget.pdf : Self.shadowPixelBudget.image)
        let area = (bx1 - bx0) * (by1 - by0)
        if area * ppp * ppp > budget { ppp = max(floor, (budget / area).squareRoot()) }
        // Past the floor too, for a run so large that the floor would still not fit.
        if area * ppp * ppp > 4 * budget { ppp = (4 * budget / area).squareRoot() }
        let w = Int32(((bx1 - bx0) * ppp).rounded(.up))
        let h = Int32(((by1 - by0) * ppp).rounded(.up))
        guard w > 0, h > 0, w < 32_767, h < 32_767 else { return nil }
        guard let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h) else { return nil }
        guard cairo_surface_status(mask) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(mask)
            return nil
        }
        // The glyphs, in white on clear, at ppp pixels per point with the run's origin at (-bx0, -by0).
        FaceLock.run { rasterise(style, glyphs: &gs, font: font, into: mask, scale: ppp, origin: (bx0, by0)) }
        if let data = cairo_image_surface_get_data(mask) {
            ShadowBlur.apply(data, width: Int(w), height: Int(h), stride: Int(cairo_image_surface_get_stride(mask)), sigma: sigma * ppp)
        }
        cairo_surface_mark_dirty(mask)
        return ShadowMask(surface: mask, width: w, height: h, pixelsPerPoint: ppp, x0: bx0, y0: by0)
    }

    /// Draws a run's glyphs in white on `mask`, `scale` pixels a point, the run's origin at
    /// `-origin`: filled unless hollow, stroked when outlined.
    private static func rasterise(
        _ style: TextStyle, glyphs gs: inout PangoGlyphString, font: UnsafeMutablePointer<PangoFont>, into mask: OpaquePointer,
        scale: Double, origin: (x: Double, y: Double)
    ) {
        let m = cairo_create(mask)!
        cairo_scale(m, scale, scale)
        cairo_translate(m, -origin.x, -origin.y)
        cairo_set_source_rgba(m, 1, 1, 1, 1)
        if !style.isHollow {
            cairo_save(m)
            applyGlyphTransform(style, at: 0, 0, on: m)
            cairo_move_to(m, 0, 0)
            pango_cairo_show_glyph_string(m, font, &gs)
            cairo_restore(m)
        }
        if style.isStroked {
            outline(style, at: 0, 0, glyphs: &gs, font: font, on: m)
            cairo_stroke(m)
        }
        cairo_destroy(m)
        cairo_surface_flush(mask)
    }

    /// A style's shadow, unless it has none or a clear one (nothing to draw).
    static func visibleShadow(_ style: TextStyle) -> Shadow? {
        guard let shadow = style.shadow, shadow.color.alpha > 0 else { return nil }
        return shadow
    }

    /// Whether a shadow of glyphs of `font` is drawn as the glyphs' outlines filled at the
    /// offset, with no mask: unblurred, of outline glyphs. Colour (emoji) glyphs are images
    /// with no outline to fill: they always go through a mask.
    static func drawsAsPath(_ shadow: Shadow, font: FontKey) -> Bool {
        shadow.blur <= 0 && !FontRegistry.shared.isColor(font)
    }

    /// Makes, on a shaping thread, the shadow masks of a PDF build's prepared draw runs (those
    /// `drawShadow` would make) and keeps them in the paragraph (`preparedForDrawing`).
    static func prepareShadows(_ layout: ParagraphLayout, engine: TextEngine, story: Story) {
        guard let prepared = layout.preparedForDrawing else { return }
        for line in layout.preparedLineRange {
            for (k, run) in layout.drawRuns(line: line).enumerated() {
                let style = story.styles[run.style].expanded(by: run.expansion)
                guard let shadow = visibleShadow(style), !drawsAsPath(shadow, font: run.font) else { continue }
                let font = engine.font(run.font)
                let mask = withGlyphString(run, style: style, storyStart: layout.storyStart) { gs in
                    shadowMask(shadow, style: style, glyphs: &gs, font: font, isPDF: true, deviceScale: 1)
                }
                if let mask { prepared[line, k] = mask }
            }
        }
    }
}

/// The blur of shadow masks: a Gaussian of σ pixels. Under 2 pixels, the Gaussian's own weights
/// (out to ⌈2.5 σ⌉ pixels, 99 % of it or more, normalised; under 0.8 pixel, three weights of its
/// variance). From 2 pixels, three box passes (`BoxBlur`): their cost does not grow with σ, and
/// their whole-pixel widths then come within a pixel of it (at a σ of 1 pixel they would blur as
/// a σ of 1.4, at 0.75 not at all).
enum ShadowBlur {
    /// The σ, in pixels, from which three box passes blur.
    static let boxFrom = 2.0

    /// Blurs an 8-bit single-channel image in place (see `BoxBlur.apply` for the layout).
    static func apply(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
        guard sigma > 0, sigma.isFinite else { return }
        if sigma >= boxFrom {
            BoxBlur.apply(data, width: width, height: height, stride: stride, radius: BoxBlur.radius(sigma: sigma))
            return
        }
        guard BoxBlur.isImage(width: width, height: height, stride: stride) else { return }
        let weights = kernel(sigma: sigma)
        _ = weights.withUnsafeBufferPointer { k in
            galley_kernel_blur(data, Int32(width), Int32(height), Int32(stride), k.baseAddress, Int32(weights.count / 2))
        }
    }

    /// The Gaussian's weights at −r … r pixels, r = ⌈2.5 σ⌉, in 16.16 fixed point, summing to
    /// exactly 65536 (the centre takes up the rounding). Under 0.8 pixel, where the Gaussian
    /// sampled at whole pixels has a smaller variance than σ², three weights with σ²'s
    /// variance: σ²/2, 1 − σ², σ²/2.
    static func kernel(sigma: Double) -> [UInt32] {
        if sigma < 0.8 {
            let side = UInt32((sigma * sigma / 2 * 65536).rounded())
            return [side, 65536 - 2 * side, side]
        }
        let r = max(1, Int((2.5 * sigma).rounded(.up)))
        let raw = (-r...r).map { i in exp(-Double(i * i) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        var weights = raw.map { UInt32(($0 / total * 65536).rounded()) }
        let sum = weights.reduce(0, +)
        weights[r] = weights[r] + 65536 - sum
        return weights
    }
}

/// A box blur applied three times in each direction: close to a Gaussian, in linear time
/// whatever the radius.
enum BoxBlur {
    /// The radius of the box (width 2r + 1) whose three passes approach a Gaussian of `sigma`
    /// pixels: n passes of a box of width w have variance n (w² − 1) / 12.
    static func radius(sigma: Double) -> Int {
        guard sigma > 0 else { return 0 }
        let width = (4 * sigma * sigma + 1).squareRoot()
        return max(0, Int(((width - 1) / 2).rounded()))
    }

    /// Blurs an 8-bit single-channel image in place: `passes` horizontal box blurs, then
    /// `passes` vertical ones (the order does not matter: they commute). Pixels outside the
    /// image count as 0. Each output is the window's sum ÷ (2r + 1), rounded, computed as a
    /// multiplication by a 16.16 reciprocal (no division a pixel). The loops are C
    /// (`galley_box_blur`), built for AVX2 and for the baseline: four times as fast as they were
    /// in Swift, whose loops here stayed scalar. Out of memory, the image is left unblurred.
    static func apply(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius r: Int, passes: Int = 3) {
        guard r > 0, passes > 0, r <= Int(Int32.max), isImage(width: width, height: height, stride: stride) else { return }
        _ = galley_box_blur(data, Int32(width), Int32(height), Int32(stride), Int32(r), Int32(passes))
    }

    /// Whether `width`, `height` and `stride` describe an image the C blurs take: not empty, rows
    /// at least as long as they are wide, and sizes that fit their 32-bit arguments.
    static func isImage(width: Int, height: Int, stride: Int) -> Bool {
        let limit = Int(Int32.max)
        return width > 0 && height > 0 && stride >= width && stride <= limit && height <= limit
    }
}

/// Shadow masks of a page not painted yet, all of one colour.
struct PendingShadows {
    struct Mask {
        var surface: OpaquePointer
        var matrix: cairo_matrix_t
        var width: Double
        var height: Double
    }
    var color: RGBA?
    var masks: [Mask] = []
}
