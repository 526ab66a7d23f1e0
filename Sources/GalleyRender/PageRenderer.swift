import CCairo
import CPango
import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate
import Synchronization

/// Draws laid-out pages with Cairo. It decides nothing: every position comes from the layout,
/// and glyphs are drawn as shaped, so the PDF and the PNG of a page are the same geometry.
///
/// A page is drawn in layers, so that nothing of one line hides what another line drew:
/// images; the background boxes of every line; the shadows of every line; then line by line
/// the underlines, the glyphs (fill, then outline) and the strikethroughs; then the folio, and
/// last the link annotations (PDF only). Text is drawn in reading order in one layer, so a PDF
/// reader extracts every word once, in order.
final class PageRenderer {
    let framesetter: Framesetter
    let images: ImageStore
    let story: Story
    /// The story's links, for the annotations.
    let links: LinkIndex
    /// Colour glyphs rendered as images, each once for the whole document.
    let colorGlyphs: ColorGlyphImages
    /// Image surfaces already drawn on the page being drawn to a PDF (see `paint(_:)`).
    private var imagesOnPage: Set<OpaquePointer> = []
    private var drawingPDF = false
    /// Shadow masks waiting to be painted together (PDF; see `flushShadows(on:)`).
    var pendingShadows = PendingShadows()
    /// Each link target's `uri='…'` tag attribute, made the first time a link to it is drawn.
    var linkTargets: [String: [UInt8]] = [:]
    /// The tag attributes of the link being emitted (reused: see `emitLinks`).
    var linkAttributes: [UInt8] = []
    /// Where `showTextDirectly` puts the glyphs and clusters it hands Cairo: grown as needed and
    /// reused (an array made for each run cost a generic allocation with a type metadata lookup
    /// each time, a fifth of what Cairo's recording of the run costs).
    private var scratchGlyphs = UnsafeMutableBufferPointer<cairo_glyph_t>(start: nil, count: 0)
    private var scratchClusters = UnsafeMutableBufferPointer<cairo_text_cluster_t>(start: nil, count: 0)
    /// The story's styles as placed runs hold them, each made when a run first has it.
    private var sharedStyles: [SharedStyle?]
    /// The same for runs of expanded lines, by style and steps.
    private var expandedStyles: [Int: SharedStyle] = [:]
    /// The glyph carrying the characters of colour emoji in a PDF (see `extractableText`) and
    /// its advance at 1 pt: nil until looked up, then the glyph, or nil when the body face has
    /// none.
    private var blankGlyph: (index: UInt, advance: Double)??
    /// The renderers of the pull quotes and sidebars drawn so far, by the set block.
    private var blockRenderers: [ObjectIdentifier: PageRenderer] = [:]
    /// How far past the trim the paper, backgrounds and bleeding images run: the press
    /// sheet's bleed (`--press`), else 0, where nothing is drawn past the page.
    var bleed = 0.0
    /// The size of the page being drawn, whose edges are the trim.
    private(set) var trimSize = (width: 0.0, height: 0.0)

    /// `sharing`: a renderer that drew the pages before into the same PDF, for another version
    /// of the same story (`PredrawnPDF`): its image surfaces and colour glyph images, which
    /// Cairo writes once for a PDF however many pages show them, serve this one too.
    init(framesetter: Framesetter, sharing earlier: PageRenderer? = nil) {
        self.framesetter = framesetter
        self.images = earlier?.images ?? ImageStore(file: framesetter.file)
        self.colorGlyphs = earlier?.colorGlyphs ?? ColorGlyphImages()
        self.story = framesetter.story
        self.links = LinkIndex(story: framesetter.story)
        self.sharedStyles = Array(repeating: nil, count: framesetter.story.styles.count)
    }

    deinit {
        scratchGlyphs.deallocate()
        scratchClusters.deallocate()
    }

    /// Style `index` of the story, shared; for glyphs widened by `expansion` steps (a line's
    /// expansion), the style scaled to match.
    private func sharedStyle(_ index: Int, expansion: Int = 0) -> SharedStyle {
        if expansion != 0 {
            let key = index &* 64 &+ expansion
            if let s = expandedStyles[key] { return s }
            let s = SharedStyle(story.styles[index].expanded(by: expansion))
            expandedStyles[key] = s
            return s
        }
        if let s = sharedStyles[index] { return s }
        let s = SharedStyle(story.styles[index])
        sharedStyles[index] = s
        return s
    }

    /// Draws one page onto `cr`, whose user space is the page in points; without its paper
    /// (the page colour) for a story set under another on the same page.
    func draw(_ page: Page, on cr: OpaquePointer, paper: Bool = true) throws(RenderError) {
        try FaceLock.run { () throws(RenderError) in try drawLocked(page, on: cr, paper: paper) }
    }

    private func drawLocked(_ page: Page, on cr: OpaquePointer, paper: Bool) throws(RenderError) {
        let target = Target(cr)
        drawingPDF = target.isPDF
        imagesOnPage.removeAll(keepingCapacity: true)
        trimSize = (page.width, page.height)
        // Cairo 1.16 makes link annotations structure elements, and with links alone it
        // writes a structure tree that refers to an object it never writes (a damaged PDF).
        // Each page of a story with links is therefore one `Part` element holding the page's
        // content and its links: a complete structure tree, in reading order.
        let tagged = target.isPDF && !links.links.isEmpty
        if paper { drawPaper(page, on: cr) }
        if tagged { cairo_tag_begin(cr, "Part", nil) }
        for image in page.floats + page.frames.flatMap(\.images) { try draw(image, on: cr) }
        let lines = page.frames.flatMap { frame in frame.lines.map { place($0) } }
        let dropCaps = Dictionary(page.frames.flatMap(\.dropCaps).map { ($0.paragraphIndex, $0) }) { a, _ in a }
        for line in lines { inLineSpace(line, cr) { drawBackgrounds(line, on: cr) } }
        for line in lines { inLineSpace(line, cr) { drawShadows(line, on: cr, target: target) } }
        flushShadows(on: cr)
        for line in lines {
            // An initial goes just before the rest of its word, so PDF readers read them as one.
            if line.line.lineIndex == 0, let dropCap = dropCaps[line.line.paragraphIndex] {
                drawDropCap(dropCap, on: cr)
                if let first = line.runs.first { carryInitial(dropCap, before: first, on: cr) }
            }
            try inLineSpace(line, cr) { () throws(RenderError) in
                drawDecorations(line, kind: .underline, on: cr)
                Self.forEachGlyphRun(line.runs) { drawGlyphs($0, on: cr, target: target) }
                for k in line.runs.indices where !line.runs[k].run.attachments.isEmpty {
                    let run = line.runs[k]
                    for a in run.run.attachments { try drawAttachment(a.attachment, x: run.start + a.x, baseline: run.runBaseline, on: cr) }
                }
                drawDecorations(line, kind: .strikethrough, on: cr)
            }
        }
        if let header = page.header { drawRunning(header, framesetter.template.header, on: cr) }
        if let footer = page.footer { drawRunning(footer, framesetter.template.footer, on: cr) }
        if tagged {
            emitLinks(lines, on: cr)
            emitImageLinks(page.floats + page.frames.flatMap(\.images), on: cr)
            cairo_tag_end(cr, "Part")
        }
    }

    /// Fills the page with the template's paper colour, first. Besides being what the page
    /// looks like, in a PDF this makes Cairo's analysis of each later drawing operation cheap:
    /// it adds every operation's extents to a region of the page, at a cost that grows with
    /// the region's complexity (a page of lines is a region of many bands) unless the region
    /// is already one rectangle that holds the new extents — the page, once the paper is
    /// drawn. Typesetting en-large costs about 2 % fewer instructions with paper than without.
    private func drawPaper(_ page: Page, on cr: OpaquePointer) {
        guard let paper = framesetter.template.pageColor else { return }
        setColor(paper, on: cr)
        // Without a bleed, exactly the page (-0 would be written as such, changing the PDF).
        let b = bleed > 0 ? bleed : 0
        cairo_rectangle(cr, b > 0 ? -b : 0, b > 0 ? -b : 0, page.width + 2 * b, page.height + 2 * b)
        cairo_fill(cr)
    }

    /// Runs `body` in the line's own space: the page for ordinary lines; for a vertical line,
    /// turned a quarter turn about the top of its strip, so that its runs (placed along a
    /// horizontal baseline through the strip's centre) read downwards.
    private func inLineSpace<E: Error>(_ line: LineRuns, _ cr: OpaquePointer, _ body: () throws(E) -> Void) throws(E) {
        guard line.line.vertical else { return try body() }
        cairo_save(cr)
        cairo_translate(cr, line.line.origin.x, line.line.origin.y)
        cairo_rotate(cr, Double.pi / 2)
        defer { cairo_restore(cr) }
        try body()
    }

    /// Draws a placed image (block, float or page-wide) and its caption.
    private func draw(_ placed: PlacedImage, on cr: OpaquePointer) throws(RenderError) {
        if let block = placed.block {
            try drawBlock(block, in: placed.rect, on: cr)
            return
        }
        if bleed > 0 && story.images[placed.image].bleed {
            try drawBleeding(placed.image, in: placed.rect, on: cr)
        } else {
            try drawImage(placed.image, in: placed.rect, on: cr)
        }
        if let caption = placed.caption, let box = placed.captionRect {
            let style = framesetter.template.caption
            let layout = framesetter.engine.captionLayout(caption, width: box.width, style: style)
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            setColor(style.color, on: cr)
            // A caption cut to the room it was given (see Figures.size) is clipped to its box.
            var logical = PangoRectangle()
            pango_layout_get_pixel_extents(layout, nil, &logical)
            let cut = Double(logical.height) > box.height + 1
            if cut {
                cairo_save(cr)
                cairo_rectangle(cr, box.x, box.y, box.width, box.height)
                cairo_clip(cr)
            }
            cairo_move_to(cr, box.x, box.y)
            pango_cairo_show_layout(cr, layout)
            if cut { cairo_restore(cr) }
        }
    }

    /// A pull quote or sidebar: its box (background, frame, rules), then its text as its own
    /// renderer draws its page, moved into the box and clipped to it (a block longer than its
    /// room was cut there, with a warning).
    private func drawBlock(_ set: SetTextBlock, in rect: Rect, on cr: OpaquePointer) throws(RenderError) {
        let box = set.block.box
        if let background = box.background {
            setColor(background, on: cr)
            let r = bleeding(rect)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_fill(cr)
        }
        if box.frame > 0 {
            setColor(box.frameColor, on: cr)
            cairo_set_line_width(cr, box.frame)
            let h = box.frame / 2
            cairo_rectangle(cr, rect.x + h, rect.y + h, rect.width - box.frame, rect.height - box.frame)
            cairo_stroke(cr)
        }
        if box.rule > 0 {
            setColor(box.ruleColor, on: cr)
            cairo_rectangle(cr, rect.x, rect.y, rect.width, box.rule)
            cairo_rectangle(cr, rect.x, rect.maxY - box.rule, rect.width, box.rule)
            cairo_fill(cr)
        }
        guard let page = set.page else { return }
        let origin = set.textOrigin(in: rect)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cr)
        cairo_translate(cr, origin.x, origin.y)
        let renderer = blockRenderers[ObjectIdentifier(set)] ?? PageRenderer(framesetter: set.framesetter)
        blockRenderers[ObjectIdentifier(set)] = renderer
        try renderer.draw(page, on: cr)
    }

    /// Draws image `index` scaled into `rect`: SVG as vectors, PNG and JPEG as pixels.
    func drawImage(_ index: Int, in rect: Rect, on cr: OpaquePointer) throws(RenderError) {
        let image = story.images[index]
        if image.info.format == .svg {
            try images.drawSVG(image, in: rect, on: cr)
            return
        }
        let surface = try images.surface(for: image)
        let pw = Double(cairo_image_surface_get_width(surface))
        let ph = Double(cairo_image_surface_get_height(surface))
        cairo_save(cr)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / pw, rect.height / ph)
        paint(surface, width: pw, height: ph, on: cr)
        cairo_restore(cr)
    }

    /// Fills the rectangle (0, 0, width, height) of user space with an image surface of that
    /// many pixels, smoothed when scaled. A filled rectangle, not cairo_paint: Cairo 1.16 fails
    /// a tagged PDF (one with links) when an unbounded paint is drawn inside its structure.
    ///
    /// Cairo writes an image into a PDF once however often it is drawn, but lists it in the
    /// page's resources once per use, and a second use on a page repeats a dictionary key
    /// (`qpdf --check` warns). The first use on a page is the image itself; later ones fill
    /// through a tiling pattern of it (a resource of its own), inset by half a pixel so that
    /// the tiling never shows at the edges.
    func paint(_ surface: OpaquePointer, width: Double, height: Double, on cr: OpaquePointer) {
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        if drawingPDF && !imagesOnPage.insert(surface).inserted && width > 1 && height > 1 {
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_REPEAT)
            cairo_rectangle(cr, 0.5, 0.5, width - 1, height - 1)
        } else {
            cairo_rectangle(cr, 0, 0, width, height)
        }
        cairo_fill(cr)
    }

    /// Draws an image standing in a line: its foot `descent` below the baseline.
    private func drawAttachment(_ a: Attachment, x: Double, baseline: Double, on cr: OpaquePointer) throws(RenderError) {
        let rect = Rect(x: x, y: baseline + a.descent - a.height, width: a.width, height: a.height)
        try drawImage(a.image, in: rect, on: cr)
    }

    func setColor(_ c: RGBA, on cr: OpaquePointer) {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
    }

    /// A line's runs with their page geometry.
    func place(_ line: PlacedLine) -> LineRuns {
        let layout = line.paragraph
        // A vertical line is drawn in its own turned space, from its strip's top centre.
        let x0 = (line.vertical ? 0 : line.origin.x) + layout.lines[line.lineIndex].alignOffset
        let baseline = line.vertical ? 0 : line.origin.y
        let prepared = layout.preparedForDrawing
        let runs = layout.drawRuns(line: line.lineIndex).enumerated().map { k, run in
            PlacedRun(
                run: run, sharedStyle: sharedStyle(run.style, expansion: run.expansion), paragraph: layout, start: x0 + run.x,
                end: x0 + run.x + run.width, baseline: baseline,
                shadowMask: prepared?[line.lineIndex, k] as? ShadowMask)
        }
        return LineRuns(line: line, runs: runs)
    }

    // MARK: - Glyphs

    /// The runs of a line as their glyphs are drawn: neighbours whose glyphs are drawn alike
    /// (same font, colour, outline, slant, scale and baseline, left to right, the second one's
    /// text following the first's) become one run. A span that only underlines, strikes, sets a
    /// background or a shadow, or changes spacing, ligatures or features then costs no text
    /// drawing of its own: in span-dense text (a span every eight words) that is a tenth of the
    /// build, most of it Cairo's bookkeeping per operation on the drawing thread. Backgrounds,
    /// shadows, decorations and links keep the placed runs.
    static func glyphRuns(_ runs: [PlacedRun]) -> [PlacedRun] {
        var out: [PlacedRun] = []
        out.reserveCapacity(runs.count)
        forEachGlyphRun(runs) { out.append($0) }
        return out
    }

    /// Calls `body` with each of `glyphRuns(runs)` in turn, without making the list: a run
    /// that joins no neighbour is passed as it is, neighbours that join as one run whose glyph
    /// and cluster arrays are made once at their full size.
    static func forEachGlyphRun(_ runs: [PlacedRun], _ body: (PlacedRun) -> Void) {
        let n = runs.count
        var i = 0
        while i < n {
            var j = i + 1
            while j < n && drawnAlike(runs[j - 1], runs[j]) { j += 1 }
            if j == i + 1 { body(runs[i]) } else { body(joined(runs, i..<j)) }
            i = j
        }
    }

    /// Neighbouring runs that draw alike as one. Each run starts where the one before it ends,
    /// up to rounding: that run's last glyph takes up the difference, so every glyph stays where
    /// the layout put it.
    private static func joined(_ runs: [PlacedRun], _ range: Range<Int>) -> PlacedRun {
        var count = 0
        for k in range { count += runs[k].run.glyphs.count }
        var glyphs: [PangoGlyphInfo] = []
        var clusters: [Int32] = []
        glyphs.reserveCapacity(count)
        clusters.reserveCapacity(count)
        for k in range {
            if k > range.lowerBound {
                let gap = Int32(((runs[k].start - runs[k - 1].end) * pangoScale).rounded())
                if gap != 0 { glyphs[glyphs.count - 1].geometry.width += gap }
            }
            glyphs += runs[k].run.glyphs
            clusters += runs[k].run.clusters
        }
        let last = range.upperBound - 1
        var out = runs[range.lowerBound]
        out.run.glyphs = glyphs
        out.run.clusters = clusters
        out.run.storyRange = out.run.storyRange.lowerBound..<runs[last].run.storyRange.upperBound
        out.run.width = runs[last].end - out.start
        out.end = runs[last].end
        return out
    }

    /// Whether `b`, placed right after `a`, draws its glyphs as `a` does and can join it.
    /// (Fields are read in place: a copy of a run or its style would retain its arrays and
    /// strings, for every pair of neighbours on a page.)
    private static func drawnAlike(_ a: PlacedRun, _ b: PlacedRun) -> Bool {
        guard a.run.font == b.run.font, a.run.level == b.run.level, a.run.level % 2 == 0, !a.run.isHyphen, !b.run.isHyphen,
            !a.run.glyphs.isEmpty, !b.run.glyphs.isEmpty, !a.run.storyRange.isEmpty,
            a.run.storyRange.upperBound == b.run.storyRange.lowerBound,
            a.paragraph.storyStart == b.paragraph.storyStart, a.runBaseline == b.runBaseline,
            a.style.color == b.style.color, a.style.strokeWidth == b.style.strokeWidth,
            a.style.strokeColor == b.style.strokeColor, a.style.obliqueness == b.style.obliqueness,
            a.style.horizontalScale == b.style.horizontalScale
        else { return false }
        return !FontRegistry.shared.isColor(a.run.font)
    }

    /// Draws a run's glyphs: the fill as text (so the PDF keeps it selectable and searchable),
    /// then the outline over it when the style strokes.
    private func drawGlyphs(_ placed: PlacedRun, on cr: OpaquePointer, target: Target) {
        let style = placed.style
        let run = placed.run
        let font = framesetter.engine.font(run.font)
        // Hollow text (positive width) is still drawn as text, so it stays selectable and
        // searchable, but at 1/255 opacity: Cairo drops fully clear drawing, and 1/255 changes
        // no pixel by more than one level.
        var fill = style.color
        if style.isHollow { fill.alpha = 1.0 / 255 }
        // Colour emoji: Cairo 1.16 puts them in a PDF as ~20 px bitmaps. They are drawn here as
        // an image rendered at 576 ppi instead, with blank text under it carrying their
        // characters, so a PDF reader still extracts and finds them.
        let colorImages = target.isPDF && FontRegistry.shared.isColor(run.font)
        if placed.paragraph.text.vertical {
            setColor(fill, on: cr)
            drawVertical(placed, font: font, colorImages: colorImages, on: cr)
            return
        }
        if colorImages {
            withGlyphString(placed) { gs in paintColorGlyphs(placed, glyphs: &gs, font: font, on: cr) }
            return
        }
        withGlyphString(placed) { gs in
            cairo_save(cr)
            Self.applyGlyphTransform(style, at: placed.start, placed.runBaseline, on: cr)
            setColor(fill, on: cr)
            cairo_move_to(cr, 0, 0)
            showText(placed, glyphs: &gs, font: font, on: cr)
            cairo_restore(cr)
            if style.isStroked {
                Self.outline(style, at: placed.start, placed.runBaseline, glyphs: &gs, font: font, on: cr)
                setColor(style.strokeColor ?? style.color, on: cr)
                cairo_stroke(cr)
            }
        }
    }

    /// Paints colour glyphs (emoji) as images rendered at 8 pixels a point (576 ppi): crisp at
    /// any zoom and in print. ZWJ sequences, skin tones, flags and keycaps are single glyphs in
    /// the colour font, so they stay whole. Each glyph of each font is rendered once and its
    /// image reused: Cairo writes one image for all its uses, so a feed with a thousand smiles
    /// holds one smile.
    private func paintColorGlyphs(
        _ placed: PlacedRun, glyphs gs: inout PangoGlyphString, font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer
    ) {
        cairo_save(cr)
        Self.applyGlyphTransform(placed.style, at: placed.start, placed.runBaseline, on: cr)
        paintColorImages(placed, glyphs: &gs, font: font, on: cr)
        extractableText(placed, glyphs: &gs, on: cr)
        cairo_restore(cr)
    }

    /// The images of colour glyphs `gs` from the current point's origin, without their text.
    func paintColorImages(
        _ placed: PlacedRun, glyphs gs: inout PangoGlyphString, font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer
    ) {
        var x = 0.0
        for i in 0..<Int(gs.num_glyphs) {
            let g = gs.glyphs[i]
            defer { x += Double(g.geometry.width) / pangoScale }
            guard g.glyph != 0x0FFF_FFFF,  // PANGO_GLYPH_EMPTY
                let image = colorGlyphs.image(of: g.glyph, font: placed.run.font, pangoFont: font)
            else { continue }
            defer { if image.transient { cairo_surface_destroy(image.surface) } }
            cairo_save(cr)
            cairo_translate(
                cr, x + Double(g.geometry.x_offset) / pangoScale + image.origin.x,
                Double(g.geometry.y_offset) / pangoScale + image.origin.y)
            cairo_scale(cr, 1 / ColorGlyphImages.scale, 1 / ColorGlyphImages.scale)
            paint(image.surface, width: Double(image.width), height: Double(image.height), on: cr)
            cairo_restore(cr)
        }
    }

    /// Cairo leaves out text whose ink box is empty, and a blank glyph's box is a point, which
    /// rounds to an empty box when it falls on a whole device unit in x or y (to Cairo's 1/256):
    /// an emoji at such a place (a line starting at a margin of 50 pt) lost its text. The blank
    /// is moved 1/128 of a unit off it, which no reader sees, so every cluster's text is kept.
    static func offWholeUnits(_ x: Double, _ y: Double, on cr: OpaquePointer) -> (x: Double, y: Double) {
        var (dx, dy) = (x, y)
        cairo_user_to_device(cr, &dx, &dy)
        func whole(_ v: Double) -> Bool { (v * 256).rounded().truncatingRemainder(dividingBy: 256) == 0 }
        guard whole(dx) || whole(dy) else { return (x, y) }
        if whole(dx) { dx += 1.0 / 128 }
        if whole(dy) { dy += 1.0 / 128 }
        cairo_device_to_user(cr, &dx, &dy)
        return (dx, dy)
    }

    /// The characters of colour glyphs drawn as images, as text a PDF reader extracts and
    /// searches: each glyph's cluster shown as one blank glyph (a space of the template's body
    /// face) at the glyph's place, which Cairo maps back to the cluster's characters. The blank
    /// is widened to the colour glyph's advance: a narrower one leaves a gap a reader takes for
    /// a space after every emoji.
    private func extractableText(_ placed: PlacedRun, glyphs gs: inout PangoGlyphString, on cr: OpaquePointer) {
        let run = placed.run
        guard !run.isHyphen, !run.storyRange.isEmpty, gs.num_glyphs > 0 else { return }
        let layout = placed.paragraph
        let first = run.storyRange.lowerBound - layout.storyStart
        let end = run.storyRange.upperBound - layout.storyStart
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_select_font_face(cr, framesetter.template.body.face, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        guard let blank = blankSpace(on: cr) else { return }
        let size = placed.style.size
        // Opaque: a blank glyph inks nothing (and Cairo drops drawing that is fully clear).
        cairo_set_source_rgb(cr, 0, 0, 0)
        // One glyph per cluster, in logical order (a colour run is left to right).
        var x = 0.0
        var i = 0
        let n = Int(gs.num_glyphs)
        while i < n {
            let c = Int(gs.log_clusters[i]) + first
            var j = i
            var width = 0.0
            while j < n && Int(gs.log_clusters[j]) + first == c {
                width += Double(gs.glyphs[j].geometry.width) / pangoScale
                j += 1
            }
            let next = j < n ? Int(gs.log_clusters[j]) + first : end
            guard next > c else { return }  // not in logical order: leave the text out
            var matrix = cairo_matrix_t()
            cairo_matrix_init_scale(&matrix, width > 0 ? width / blank.advance : size, size)
            cairo_set_font_matrix(cr, &matrix)
            let (gx, gy) = Self.offWholeUnits(x, 0, on: cr)
            var glyph = cairo_glyph_t(index: blank.index, x: gx, y: gy)
            var cluster = cairo_text_cluster_t(num_bytes: Int32(next - c), num_glyphs: 1)
            layout.text.bytes.withUnsafeBufferPointer { text in
                text.withMemoryRebound(to: CChar.self) { chars in
                    cairo_show_text_glyphs(
                        cr, chars.baseAddress! + c, Int32(next - c), &glyph, 1, &cluster, 1, cairo_text_cluster_flags_t(0))
                }
            }
            x += width
            i = j
        }
    }

    /// The space of the body face selected on `cr` and its advance at 1 pt, looked up once (the
    /// same glyph at every size).
    private func blankSpace(on cr: OpaquePointer) -> (index: UInt, advance: Double)? {
        if let known = blankGlyph { return known }
        cairo_set_font_size(cr, 1)
        var found: (index: UInt, advance: Double)?
        var blank: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        let font = cairo_get_scaled_font(cr)
        if cairo_scaled_font_text_to_glyphs(font, 0, 0, " ", 1, &blank, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS, let blank {
            var extents = cairo_text_extents_t()
            cairo_scaled_font_glyph_extents(font, blank, 1, &extents)
            if count == 1 && extents.x_advance > 0 { found = (blank[0].index, extents.x_advance) }
            cairo_glyph_free(blank)
        }
        blankGlyph = .some(found)
        return found
    }

    /// Shows glyphs at the current point as text: with the run's characters and clusters when it
    /// has any, so the PDF maps glyphs back to the real characters (ligatures, and CJK ideographs
    /// that share glyphs with radicals).
    func showText(
        _ placed: PlacedRun, glyphs gs: inout PangoGlyphString, font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer
    ) {
        let run = placed.run
        let layout = placed.paragraph
        guard !run.isHyphen, !run.storyRange.isEmpty else {
            // An added hyphen has no text of its own.
            pango_cairo_show_glyph_string(cr, font, &gs)
            return
        }
        if Self.hasUnknownGlyphs(gs), cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0 {
            fillBoxes(glyphs: &gs, font: font, on: cr)
        }
        let start = run.storyRange.lowerBound - layout.storyStart
        let end = run.storyRange.upperBound - layout.storyStart
        if Self.showsTextDirectly.load(ordering: .relaxed),
            showTextDirectly(layout.text.bytes, start: start, end: end, level: run.level, glyphs: &gs, font: font, on: cr)
        {
            return
        }
        layout.text.bytes.withUnsafeBufferPointer { text in
            var item = PangoItem()
            item.offset = Int32(start)
            item.length = Int32(end - start)
            item.num_chars = Int32(text[start..<end].lazy.filter { $0 & 0xC0 != 0x80 }.count)
            item.analysis.font = font
            item.analysis.level = run.level
            withUnsafeMutablePointer(to: &item) { itemPointer in
                withUnsafeMutablePointer(to: &gs) { glyphPointer in
                    var glyphItem = PangoGlyphItem(
                        item: itemPointer, glyphs: glyphPointer, y_offset: 0, start_x_offset: 0, end_x_offset: 0)
                    text.withMemoryRebound(to: CChar.self) { chars in
                        pango_cairo_show_glyph_item(cr, chars.baseAddress, &glyphItem)
                    }
                }
            }
        }
    }

    /// Whether `gs` holds a glyph of no font: Pango's box with the character's code in it.
    static func hasUnknownGlyphs(_ gs: PangoGlyphString) -> Bool {
        (0..<Int(gs.num_glyphs)).contains { gs.glyphs[$0].glyph & 0x1000_0000 != 0 }  // PANGO_GLYPH_UNKNOWN_FLAG
    }

    /// A run with characters no font has, in a PDF: Pango's boxes filled as outlines at the
    /// current point, and in `gs` each box made the font's space, which the text then shows
    /// with the box's advance, so the character is what a reader copies. Pango's renderer
    /// shows a box's hex digits as text: "012 000" was copied for U+12000.
    private func fillBoxes(glyphs gs: inout PangoGlyphString, font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer) {
        let empty: UInt32 = 0x0FFF_FFFF  // PANGO_GLYPH_EMPTY
        let n = Int(gs.num_glyphs)
        let kept = (0..<n).map { gs.glyphs[$0].glyph }
        let boxes = kept.map { $0 & 0x1000_0000 != 0 }
        for i in 0..<n where !boxes[i] { gs.glyphs[i].glyph = empty }
        var x = 0.0
        var y = 0.0
        cairo_get_current_point(cr, &x, &y)
        pango_cairo_glyph_string_path(cr, font, &gs)
        cairo_fill(cr)
        cairo_move_to(cr, x, y)
        let space = Self.spaceGlyph(of: font).map(PangoGlyph.init) ?? empty
        for i in 0..<n { gs.glyphs[i].glyph = boxes[i] ? space : kept[i] }
    }

    /// The glyph of a space in `font`, nil when it has none.
    static func spaceGlyph(of font: UnsafeMutablePointer<PangoFont>) -> UInt? {
        guard let scaled = galley_font_scaled(font) else { return nil }
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        guard cairo_scaled_font_text_to_glyphs(scaled, 0, 0, " ", 1, &glyphs, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS,
            let glyphs
        else { return nil }
        defer { cairo_glyph_free(glyphs) }
        return count == 1 && glyphs[0].index != 0 ? glyphs[0].index : nil
    }

    /// Whether `showText` draws left-to-right runs itself (tests compare it with Pango's).
    static let showsTextDirectly = Atomic<Bool>(true)

    /// Shows a left-to-right run's glyphs as text exactly as `pango_cairo_show_glyph_item` does
    /// (the same Cairo calls with the same glyph positions and clusters), without Pango's
    /// renderer: on the drawing thread, the one a page of many runs waits for, that machinery
    /// cost half as much again as Cairo's recording of the glyphs. False, having drawn nothing,
    /// for what it leaves to Pango: right-to-left runs, glyphs of no font (hex boxes), no glyphs.
    ///
    /// As Pango's renderer: each glyph at the current point plus the advances before it and its
    /// offsets; each cluster (glyphs of one character position, in order) with the bytes up to
    /// the next cluster's and its glyphs but empty ones; the font installed and the text shown
    /// inside a save and restore, then the current point set again.
    func showTextDirectly(
        _ bytes: [UInt8], start: Int, end: Int, level: UInt8, glyphs gs: inout PangoGlyphString,
        font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer
    ) -> Bool {
        let n = Int(gs.num_glyphs)
        let empty: UInt32 = 0x0FFF_FFFF  // PANGO_GLYPH_EMPTY
        let unknown: UInt32 = 0x1000_0000  // PANGO_GLYPH_UNKNOWN_FLAG
        guard level % 2 == 0, n > 0, let glyphInfo = gs.glyphs, let logClusters = gs.log_clusters else { return false }
        for g in 0..<n where glyphInfo[g].glyph != empty && glyphInfo[g].glyph & unknown != 0 { return false }
        guard let scaled = galley_font_scaled(font), cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS else { return false }
        let hadPoint = cairo_has_current_point(cr) != 0
        var baseX = 0.0
        var baseY = 0.0
        cairo_get_current_point(cr, &baseX, &baseY)
        let scale = pangoScale
        if scratchGlyphs.count < n {
            let capacity = max(n, 2 * scratchGlyphs.count, 256)
            scratchGlyphs.deallocate()
            scratchClusters.deallocate()
            scratchGlyphs = .allocate(capacity: capacity)
            scratchClusters = .allocate(capacity: capacity)
        }
        let glyphs = scratchGlyphs.baseAddress!
        var glyphCount = 0
        var position: Int32 = 0
        for g in 0..<n {
            let info = glyphInfo[g]
            if info.glyph != empty {
                let x = baseX + Double(position + info.geometry.x_offset) / scale
                let y = info.geometry.y_offset == 0 ? baseY : baseY + Double(info.geometry.y_offset) / scale
                glyphs[glyphCount] = cairo_glyph_t(index: UInt(info.glyph), x: x, y: y)
                glyphCount += 1
            }
            position += info.geometry.width
        }
        cairo_save(cr)
        cairo_set_scaled_font(cr, scaled)
        if cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0 {
            let length = end - start
            let clusters = scratchClusters.baseAddress!
            var clusterCount = 0
            var clusterStart = 0
            var g = 0
            while g < n {
                let cluster = logClusters[g]
                var inCluster = Int32(glyphInfo[g].glyph == empty ? 0 : 1)
                var next = g + 1
                while next < n && logClusters[next] <= cluster {
                    if glyphInfo[next].glyph != empty { inCluster += 1 }
                    next += 1
                }
                let clusterEnd = next < n ? Int(logClusters[next]) : length
                clusters[clusterCount] = cairo_text_cluster_t(num_bytes: Int32(clusterEnd - clusterStart), num_glyphs: inCluster)
                clusterCount += 1
                clusterStart = clusterEnd
                g = next
            }
            bytes.withUnsafeBufferPointer { text in
                text.withMemoryRebound(to: CChar.self) { chars in
                    cairo_show_text_glyphs(
                        cr, chars.baseAddress! + start, Int32(length), glyphs, Int32(glyphCount), clusters, Int32(clusterCount),
                        cairo_text_cluster_flags_t(rawValue: 0))
                }
            }
        } else {
            cairo_show_glyphs(cr, glyphs, Int32(glyphCount))
        }
        cairo_restore(cr)
        if hadPoint {
            cairo_move_to(cr, baseX, baseY)
        } else {
            cairo_new_sub_path(cr)
        }
        return true
    }

    /// Sets the current path to the outline of glyphs drawn with `style` from the baseline
    /// origin (`x`, `y`), and the pen for it: the path is made under the glyph transform, the
    /// pen is not (a slant or a horizontal scale must not make the pen oval).
    static func outline(
        _ style: TextStyle, at x: Double, _ y: Double, glyphs gs: inout PangoGlyphString,
        font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer
    ) {
        cairo_new_path(cr)
        cairo_save(cr)
        applyGlyphTransform(style, at: x, y, on: cr)
        cairo_move_to(cr, 0, 0)
        pango_cairo_glyph_string_path(cr, font, &gs)
        cairo_restore(cr)  // the path stays where it was made
        cairo_set_line_width(cr, style.outlineWidth)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    }

    /// Moves the origin to a run's baseline origin (`x`, `y`), then slants (obliqueness:
    /// x' = x − o·y, y down, so positive leans right) and scales horizontally (expansion)
    /// around it. Glyph positions along the baseline stay where the layout put them:
    /// `withGlyphString` divides the advances by the scale this multiplies them by.
    static func applyGlyphTransform(_ style: TextStyle, at x: Double, _ y: Double, on cr: OpaquePointer) {
        cairo_translate(cr, x, y)
        if style.obliqueness != 0 {
            var shear = cairo_matrix_t(xx: 1, yx: 0, xy: -style.obliqueness, yy: 1, x0: 0, y0: 0)
            cairo_transform(cr, &shear)
        }
        let s = style.horizontalScale
        if s != 1 && s > 0 { cairo_scale(cr, s, 1) }
    }

    /// Calls `body` with a Pango glyph string of the run. With a horizontal scale `s`, advances
    /// and x offsets are divided by `s` (rounded cumulatively, so every glyph lands where the
    /// layout put it once the glyphs are drawn scaled by `s`).
    func withGlyphString<R>(_ placed: PlacedRun, _ body: (inout PangoGlyphString) -> R) -> R {
        Self.withGlyphString(placed.run, style: placed.style, storyStart: placed.paragraph.storyStart, body)
    }

    /// `withGlyphString(_:_:)` for a draw run of `style` in the paragraph starting at story byte
    /// `storyStart`.
    static func withGlyphString<R>(_ run: DrawRun, style: TextStyle, storyStart: Int, _ body: (inout PangoGlyphString) -> R) -> R {
        let s = style.horizontalScale
        var glyphs = run.glyphs
        if s != 1 && s > 0 {
            var exact: Int64 = 0
            var drawn: Int32 = 0
            for i in glyphs.indices {
                exact += Int64(glyphs[i].geometry.width)
                let next = Int32((Double(exact) / s).rounded())
                glyphs[i].geometry.width = next - drawn
                drawn = next
                glyphs[i].geometry.x_offset = Int32((Double(glyphs[i].geometry.x_offset) / s).rounded())
            }
        }
        let first = Int32(run.storyRange.lowerBound - storyStart)
        // Clusters relative to the run's first byte, as a PangoItem wants them.
        var clusters = run.clusters.map { $0 - first }
        return glyphs.withUnsafeMutableBufferPointer { g in
            clusters.withUnsafeMutableBufferPointer { c in
                var gs = PangoGlyphString(
                    num_glyphs: Int32(g.count), glyphs: g.baseAddress, log_clusters: c.baseAddress, space: Int32(g.count))
                return body(&gs)
            }
        }
    }

    /// A jump line in the footer's style: flush right under the text area, or flush left above
    /// it; in a PDF a link to the page it names (a structure element of its own, as Cairo 1.16
    /// wants links to be). `beside` is the footer (under) or running head (above) drawn on the
    /// same sheet, in its style: a line that would touch it is set on its baseline, beside it.
    func drawNote(
        _ note: JumpNote, on page: Page, beside running: (line: RunningLine, spec: RunningLineSpec)?, cr: OpaquePointer,
        linked: Bool
    ) {
        FaceLock.run { drawNoteLocked(note, on: page, beside: running, cr: cr, linked: linked) }
    }

    private func drawNoteLocked(
        _ note: JumpNote, on page: Page, beside running: (line: RunningLine, spec: RunningLineSpec)?, cr: OpaquePointer,
        linked: Bool
    ) {
        guard let (line, _) = placeLocked(note, on: page, beside: running) else { return }
        if linked {
            cairo_tag_begin(cr, "Part", nil)
            cairo_tag_begin(cr, CAIRO_TAG_LINK, PageDestination.link(to: note.target))
        }
        drawRunning(line, framesetter.template.footer, on: cr)
        if linked {
            cairo_tag_end(cr, CAIRO_TAG_LINK)
            cairo_tag_end(cr, "Part")
        }
    }

    /// Whether a jump line has a place on `page` clear of the text, of `running` and of the
    /// page's edges (see `place`); false when the margin is too shallow or the running line
    /// too wide, and the line is drawn over something.
    func noteFits(_ note: JumpNote, on page: Page, beside running: (line: RunningLine, spec: RunningLineSpec)?) -> Bool {
        FaceLock.run { placeLocked(note, on: page, beside: running)?.clear ?? true }
    }

    private func placeLocked(
        _ note: JumpNote, on page: Page, beside running: (line: RunningLine, spec: RunningLineSpec)?
    ) -> (line: RunningLine, clear: Bool)? {
        let frames = page.frames.map(\.rect)
        guard let left = frames.map(\.x).min(), let right = frames.map(\.maxX).max(), let top = frames.map(\.y).min(),
            let bottom = frames.map(\.maxY).max()
        else { return nil }
        let spec = framesetter.template.footer
        let line =
            note.above
            ? RunningLine(text: note.text, anchor: Point(x: left, y: top - spec.size * 0.8), alignment: .left)
            : RunningLine(text: note.text, anchor: Point(x: right, y: bottom + spec.size * 1.6), alignment: .right)
        let other = running.map { (line: $0.line, width: width(of: $0.line.text, $0.spec), size: $0.spec.size) }
        let room = NoteRoom(span: left...right, text: top...bottom, height: framesetter.template.pageHeight)
        return Self.place(line, width: width(of: note.text, spec), size: spec.size, beside: other, in: room)
    }

    /// Where a jump line may go: within the text's width, off the text area, on the page.
    struct NoteRoom {
        var span: ClosedRange<Double>
        var text: ClosedRange<Double>
        var height: Double
    }

    /// `line` (`width` wide, of `size`; its box from 0.8 of the size above the baseline to
    /// 0.25 below) at the first place that is clear of the text, of `other` (the running line
    /// on its side) and of the page's edges: where it stands, but on `other`'s baseline (two
    /// lines in one margin on two baselines look like a slip); where it stands; on `other`'s
    /// baseline, an em from it, on the side the line is set flush to, then on the other; on a
    /// line of its own beyond `other`, then between it and the text. When none is clear (a margin too shallow
    /// for it, a running line as wide as the text), it stays inside the page and `clear` is
    /// false.
    static func place(
        _ line: RunningLine, width: Double, size: Double, beside other: (line: RunningLine, width: Double, size: Double)?,
        in room: NoteRoom
    ) -> (line: RunningLine, clear: Bool) {
        func xs(_ l: RunningLine, _ w: Double) -> ClosedRange<Double> {
            let x0 =
                switch l.alignment {
                case .left: l.anchor.x
                case .right: l.anchor.x - w
                default: l.anchor.x - w / 2
                }
            return x0...(x0 + w)
        }
        func ys(_ l: RunningLine, _ s: Double) -> ClosedRange<Double> { (l.anchor.y - 0.8 * s)...(l.anchor.y + 0.25 * s) }
        func at(_ x: Double, _ y: Double, _ alignment: Alignment) -> RunningLine {
            RunningLine(text: line.text, anchor: Point(x: x, y: y), alignment: alignment)
        }
        func isClear(_ l: RunningLine) -> Bool {
            let (x, y) = (xs(l, width), ys(l, size))
            // On the page with room for its ascenders and descenders, which pass the box.
            guard x.lowerBound >= room.span.lowerBound - 0.01, x.upperBound <= room.span.upperBound + 0.01,
                y.lowerBound >= 0.2 * size, y.upperBound <= room.height - 0.1 * size, !y.overlaps(room.text)
            else { return false }
            guard let other else { return true }
            return !(x.overlaps(xs(other.line, other.width)) && y.overlaps(ys(other.line, other.size)))
        }
        var places = [line]
        if let other {
            places.insert(at(line.anchor.x, other.line.anchor.y, line.alignment), at: 0)
            let b = xs(other.line, other.width)
            let gap = max(size, other.size)
            let y = other.line.anchor.y
            let after = at(b.upperBound + gap, y, .left)
            let before = at(b.lowerBound - gap, y, .right)
            places += line.alignment == .right ? [after, before] : [before, after]
            // A line of its own: beyond the running line (away from the text), then inside it.
            let outward: Double = line.anchor.y > room.text.upperBound ? 1 : -1
            let pitch = outward * 1.2 * gap
            places.append(at(line.anchor.x, y + pitch, line.alignment))
            places.append(at(line.anchor.x, y - pitch, line.alignment))
        }
        if let found = places.first(where: isClear) { return (found, true) }
        // Nowhere clear: where it stands, moved inside the page.
        let y = min(max(line.anchor.y, size), room.height - 0.35 * size)
        return (at(line.anchor.x, y, line.alignment), false)
    }

    /// The width of `text` set as a running line in `t`'s face and size.
    private func width(of text: String, _ t: RunningLineSpec) -> Double {
        let layout = runningLayout(text, t)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return Double(logical.width) / Double(PANGO_SCALE)
    }

    /// A Pango layout of `text` in `t`'s face and size (the caller unreferences it).
    private func runningLayout(_ text: String, _ t: RunningLineSpec) -> OpaquePointer {
        Self.plainLayout(text, family: t.face, size: t.size, context: framesetter.engine.context)
    }

    /// `text` in one family at one size, laid out in `context`: a running line, a slug line.
    /// The caller frees it.
    static func plainLayout(_ text: String, family: String, size: Double, context: OpaquePointer) -> OpaquePointer {
        let layout = pango_layout_new(context)!
        let d = pango_font_description_new()!
        defer { pango_font_description_free(d) }
        pango_font_description_set_family(d, family)
        pango_font_description_set_size(d, Int32(size * Double(PANGO_SCALE)))
        pango_layout_set_font_description(layout, d)
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    /// Draws a running head or footer in the face, size and colour `t` gives it, its baseline
    /// through the anchor, to the anchor's right, about it or to its left by its alignment.
    /// One wider than the text area (a long title) is cut to it with an ellipsis, rather than
    /// run off the page.
    private func drawRunning(_ line: RunningLine, _ t: RunningLineSpec, on cr: OpaquePointer) {
        let layout = runningLayout(line.text, t)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let m = framesetter.template.margins
        let room = framesetter.template.pageWidth - m.left - m.right
        if room > 0, Double(logical.width) / Double(PANGO_SCALE) > room {
            pango_layout_set_width(layout, Int32(min(room * Double(PANGO_SCALE), Double(Int32.max))))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_get_extents(layout, &ink, &logical)
        }
        let baseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
        setColor(t.color, on: cr)
        let width = Double(logical.width) / Double(PANGO_SCALE)
        let x =
            switch line.alignment {
            case .left: line.anchor.x
            case .right: line.anchor.x - width
            default: line.anchor.x - width / 2
            }
        cairo_move_to(cr, x, line.anchor.y - baseline)
        pango_cairo_show_layout(cr, layout)
    }
}
