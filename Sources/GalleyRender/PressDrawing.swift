import CCairo
import CPango
import GalleyLayout
import GalleyTemplate

// Drawing on a press sheet (`--press`): the page moved inside the sheet, what touches the trim
// run on into the bleed, the slug line, and in previews the marks and the trim.
extension PageRenderer {
    /// The trim's edges `rect` touches (within half a point), carried out by the bleed: what
    /// reaches the page's edge reaches the bleed's. `rect` itself when no bleed is drawn.
    func bleeding(_ rect: Rect) -> Rect {
        guard bleed > 0 else { return rect }
        let edges = TrimEdges(touchedBy: rect, trimWidth: trimSize.width, trimHeight: trimSize.height)
        let x = edges.contains(.left) ? -bleed : rect.x, y = edges.contains(.top) ? -bleed : rect.y
        let maxX = edges.contains(.right) ? trimSize.width + bleed : rect.maxX
        let maxY = edges.contains(.bottom) ? trimSize.height + bleed : rect.maxY
        return Rect(x: x, y: y, width: maxX - x, height: maxY - y)
    }

    /// An image with `bleed="true"`: where it touches the trim it is scaled, in proportion, to
    /// cover the bleed as well, from its opposite edge (so the side inside the page moves the
    /// least), and clipped to its rectangle carried into the bleed.
    func drawBleeding(_ index: Int, in rect: Rect, on cr: OpaquePointer) throws(RenderError) {
        let out = bleeding(rect)
        guard out != rect, rect.width > 0, rect.height > 0 else { return try drawImage(index, in: rect, on: cr) }
        let s = max(out.width / rect.width, out.height / rect.height)
        let (w, h) = (rect.width * s, rect.height * s)
        func place(_ start: Double, _ end: Double, _ outStart: Double, _ outEnd: Double, _ size: Double) -> Double {
            let before = outStart < start, after = outEnd > end
            if before && !after { return outEnd - size }
            if after && !before { return outStart }
            return (outStart + outEnd - size) / 2
        }
        let drawn = Rect(
            x: place(rect.x, rect.maxX, out.x, out.maxX, w), y: place(rect.y, rect.maxY, out.y, out.maxY, h), width: w, height: h)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, out.x, out.y, out.width, out.height)
        cairo_clip(cr)
        try drawImage(index, in: drawn, on: cr)
    }

    /// Draws `page` on a press sheet: moved to the trim's place, clipped to the bleed (nothing
    /// of the page reaches the marks), its paper and what touches its edges run into the bleed.
    func draw(_ page: Page, on cr: OpaquePointer, sheet: PressSheet, paper: Bool = true) throws(RenderError) {
        bleed = sheet.print.bleed
        try Self.onSheet(sheet, cr) { () throws(RenderError) in try draw(page, on: cr, paper: paper) }
    }

    /// Runs `body` in the page's space on `sheet` (the trim's top left at the origin), clipped
    /// to the bleed; with no sheet, as it is.
    static func onSheet<E: Error>(_ sheet: PressSheet?, _ cr: OpaquePointer, _ body: () throws(E) -> Void) throws(E) {
        guard let sheet else { return try body() }
        let b = sheet.bleed
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, b.x, b.y, b.width, b.height)
        cairo_clip(cr)
        cairo_translate(cr, sheet.margin, sheet.margin)
        try body()
    }

    /// The slug line under the trim: the document's name, the page and the date, in 6 pt
    /// black DejaVu Sans; cut short of the registration mark. Laid out as the post-pass lays it
    /// out (`SlugOutlines.layout`), by an engine of no story: the story's fallback list would
    /// send its digits to whatever face the story's plan puts first for them.
    static func drawSlugLine(_ text: String, sheet: PressSheet, on cr: OpaquePointer) {
        guard let box = sheet.slugLineBox, box.width > 0 else { return }
        FaceLock.run { showSlugLine(text, in: box, on: cr) }
    }

    private static func showSlugLine(_ text: String, in box: Rect, on cr: OpaquePointer) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, box.x, box.y, box.width, box.height)
        cairo_clip(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        let engine = EnginePool.borrow(plan: .empty)
        defer { EnginePool.giveBack(engine) }
        let layout = SlugOutlines.layout(text, engine: engine, width: box.width)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let origin = PressSheet.slugBaseline(in: box)
        cairo_move_to(cr, origin.x, origin.y)
        if let line = pango_layout_get_line_readonly(layout, 0) { pango_cairo_show_layout_line(cr, line) }
    }

    /// The marks as a preview shows them, in black (in the PDF the post-pass draws them in the
    /// registration colour), and the trim outlined in cyan.
    static func drawMarks(_ sheet: PressSheet, on cr: OpaquePointer) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_line_width(cr, PressSheet.markWeight)
        for seg in sheet.cropMarks + sheet.registrationMarks.flatMap(\.cross) {
            cairo_move_to(cr, seg.from.x, seg.from.y)
            cairo_line_to(cr, seg.to.x, seg.to.y)
        }
        cairo_stroke(cr)
        for t in sheet.registrationMarks {
            cairo_new_sub_path(cr)
            cairo_arc(cr, t.x, t.y, t.radius, 0, 2 * Double.pi)
        }
        cairo_stroke(cr)
        let trim = sheet.trim
        cairo_set_source_rgb(cr, 0, 0.68, 0.94)
        cairo_rectangle(cr, trim.x, trim.y, trim.width, trim.height)
        cairo_stroke(cr)
    }
}

/// The edges of the trim (the page) a rectangle touches: within half a point of one, or past
/// it. What the renderer carries into the bleed, and what the preflight looks for.
struct TrimEdges: OptionSet {
    let rawValue: UInt8
    static let left = TrimEdges(rawValue: 1)
    static let top = TrimEdges(rawValue: 2)
    static let right = TrimEdges(rawValue: 4)
    static let bottom = TrimEdges(rawValue: 8)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(touchedBy rect: Rect, trimWidth: Double, trimHeight: Double) {
        let near = 0.5
        self = []
        if rect.x <= near { insert(.left) }
        if rect.y <= near { insert(.top) }
        if rect.maxX >= trimWidth - near { insert(.right) }
        if rect.maxY >= trimHeight - near { insert(.bottom) }
    }

    /// "the left and top edges".
    var described: String {
        let names = [(TrimEdges.left, "left"), (.top, "top"), (.right, "right"), (.bottom, "bottom")].filter { contains($0.0) }.map(\.1)
        let list = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
        return "the \(list) edge\(names.count == 1 ? "" : "s")"
    }
}
