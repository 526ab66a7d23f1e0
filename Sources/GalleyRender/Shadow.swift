import CCairo
import CPango
import GalleyLayout
import GalleyStory

extension PageRenderer {
    /// Pixels per point of shadow masks in a PDF: 300 ppi (a blurred mask holds no detail finer
    /// than its σ: 3 pixels per σ are plenty, and the PDF keeps every pixel, deflated; 576 ppi
    /// made a magazine with a shadow in every paragraph four times larger and 13 % slower).
    static let pdfShadowResolution = 300.0 / 72
    static let pdfShadowMinimum = 300.0 / 72
    /// Pixels per σ a PDF mask needs.
    static let pdfPixelsPerSigma = 3.0
    /// Most pixels one shadow mask may hold. A PDF keeps every mask of a page until the page is
    /// written, so its budget is smaller; an image surface uses the mask at once.
    static let shadowPixelBudget = (pdf: 1 << 20, image: 1 << 23)

    /// Draws the shadows of a line's runs.
    func drawShadows(_ line: LineRuns, on cr: OpaquePointer, target: Target) {
        for run in line.runs {
            if let shadow = run.style.shadow, shadow.color.alpha > 0 { drawShadow(shadow, of: run, on: cr, target: target) }
        }
    }

    /// Draws the shadow of one run (`TextStyle.shadow`, NSShadow): the run's glyphs (and their
    /// outline when stroked; only the outline when hollow), with its baseline offset, slant and
    /// horizontal scale, blurred, in the shadow's colour, moved by (dx, dy) with y down.
    ///
    /// With no blur the glyph outlines are filled as a path at the offset (paths, not text: a PDF
    /// reader must not find the words twice), except colour glyphs, which have no outline: they
    /// take the mask route below, unblurred. With a blur radius `r` the glyphs are rendered into
    /// an A8 mask at a high resolution (4 × the device scale on an image; in a PDF 8 px per
    /// point for a small blur, down to 300 ppi for a large one; less only for a huge run),
    /// blurred with a box blur applied three
    /// times in each direction (≈ a Gaussian with σ = r / 2, the CSS convention), and painted in
    /// the shadow colour through the mask. One mask per run, freed as soon as it is painted.
    func drawShadow(_ shadow: Shadow, of placed: PlacedRun, on cr: OpaquePointer, target: Target) {
        let style = placed.style
        let font = framesetter.engine.font(placed.run.font)
        // Colour (emoji) glyphs are images with no outline to fill: they always go through a mask.
        let outlined = !FontRegistry.shared.isColor(placed.run.font)
        withGlyphString(placed) { gs in
            if shadow.blur <= 0 && outlined {
                cairo_save(cr)
                cairo_translate(cr, shadow.dx, shadow.dy)
                setColor(shadow.color, on: cr)
                if !style.isHollow {
                    cairo_save(cr)
                    applyGlyphTransform(style, at: placed.start, placed.runBaseline, on: cr)
                    cairo_move_to(cr, 0, 0)
                    pango_cairo_glyph_string_path(cr, font, &gs)
                    cairo_restore(cr)
                    cairo_fill(cr)
                }
                if style.isStroked {
                    outline(style, at: placed.start, placed.runBaseline, glyphs: &gs, font: font, on: cr)
                    cairo_stroke(cr)
                }
                cairo_restore(cr)
                return
            }
            // The ink box of the glyphs around the run's origin, through the glyph transform.
            var ink = PangoRectangle()
            var logical = PangoRectangle()
            pango_glyph_string_extents(&gs, font, &ink, &logical)
            guard ink.width > 0 && ink.height > 0 else { return }
            let s = style.horizontalScale
            let o = style.obliqueness
            let gx0 = Double(ink.x) / pangoScale
            let gx1 = Double(ink.x + ink.width) / pangoScale
            let gy0 = Double(ink.y) / pangoScale
            let gy1 = Double(ink.y + ink.height) / pangoScale
            let xs = [gx0, gx1].flatMap { x in [gy0, gy1].map { y in s * x - o * y } }
            let pen = style.isStroked ? style.outlineWidth / 2 : 0
            let sigma = shadow.blur / 2
            // Room for the pen, the blur's reach (3 box radii ≈ 3σ) and antialiasing.
            let margin = pen + 3 * sigma + 1
            let bx0 = xs.min()! - margin
            let bx1 = xs.max()! + margin
            let by0 = gy0 - margin
            let by1 = gy1 + margin
            var ppp = 4 * target.deviceScale
            if target.isPDF {
                ppp = min(Self.pdfShadowResolution, max(Self.pdfShadowMinimum, Self.pdfPixelsPerSigma / sigma))
            }
            let floor = target.isPDF ? Self.pdfShadowMinimum : target.deviceScale
            let budget = Double(target.isPDF ? Self.shadowPixelBudget.pdf : Self.shadowPixelBudget.image)
            let area = (bx1 - bx0) * (by1 - by0)
            if area * ppp * ppp > budget { ppp = max(floor, (budget / area).squareRoot()) }
            // Past the floor too, for a run so large that the floor would still not fit.
            if area * ppp * ppp > 4 * budget { ppp = (4 * budget / area).squareRoot() }
            let w = Int32(((bx1 - bx0) * ppp).rounded(.up))
            let h = Int32(((by1 - by0) * ppp).rounded(.up))
            guard w > 0, h > 0, w < 32_767, h < 32_767 else { return }
            guard let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h) else { return }
            defer { cairo_surface_destroy(mask) }
            guard cairo_surface_status(mask) == CAIRO_STATUS_SUCCESS else { return }
            // The glyphs, in white on clear, at ppp pixels per point with the run's origin at (-bx0, -by0).
            let m = cairo_create(mask)!
            cairo_scale(m, ppp, ppp)
            cairo_translate(m, -bx0, -by0)
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
            let radius = BoxBlur.radius(sigma: sigma * ppp)
            if radius > 0, let data = cairo_image_surface_get_data(mask) {
                BoxBlur.apply(data, width: Int(w), height: Int(h), stride: Int(cairo_image_surface_get_stride(mask)), radius: radius)
            }
            cairo_surface_mark_dirty(mask)
            cairo_save(cr)
            cairo_translate(cr, placed.start + shadow.dx + bx0, placed.runBaseline + shadow.dy + by0)
            cairo_scale(cr, 1 / ppp, 1 / ppp)
            setColor(shadow.color, on: cr)
            cairo_mask_surface(cr, mask, 0, 0)
            cairo_restore(cr)
        }
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
    /// image count as 0.
    static func apply(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius r: Int, passes: Int = 3) {
        guard r > 0, width > 0, height > 0 else { return }
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: max(width, height))
        defer { line.deallocate() }
        for _ in 0..<passes {
            for y in 0..<height {
                blurLine(data + y * stride, count: width, step: 1, radius: r, scratch: line)
            }
        }
        for _ in 0..<passes {
            for x in 0..<width {
                blurLine(data + x, count: height, step: stride, radius: r, scratch: line)
            }
        }
    }

    /// One box blur of `count` samples `step` bytes apart, with a running sum.
    private static func blurLine(
        _ p: UnsafeMutablePointer<UInt8>, count n: Int, step: Int, radius r: Int, scratch: UnsafeMutablePointer<UInt8>
    ) {
        for i in 0..<n { scratch[i] = p[i * step] }
        let width = 2 * r + 1
        // sum ÷ width, rounded, as a multiplication by a 16.16 reciprocal (no division a pixel).
        let reciprocal = (1 << 16) / width + 1
        var sum = 0
        for i in 0..<min(r, n) { sum += Int(scratch[i]) }
        for i in 0..<n {
            if i + r < n { sum += Int(scratch[i + r]) }
            p[i * step] = UInt8(min(255, (sum * reciprocal + (width * reciprocal) / 2) >> 16))
            if i - r >= 0 { sum -= Int(scratch[i - r]) }
        }
    }
}
