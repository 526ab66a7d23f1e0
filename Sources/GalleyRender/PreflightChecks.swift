import GalleyLayout
import GalleyMarkup
import GalleyStory
import GalleySupport
import GalleyTemplate

// The preflight's checks, one function each (see `Preflight.pageChecks`).
extension Preflight {
    // MARK: - Images below 300 ppi

    /// Every pixel image at the size it is drawn: placed images and floats (scaled up further
    /// when they run into the bleed) and images standing in lines. SVG has no pixels to count.
    /// And each one's colour (`checkColour`).
    mutating func checkImages(_ p: PreflightPage) {
        for placed in p.images where placed.block == nil {
            var rect = placed.rect
            let image = p.story.images[placed.image]
            if p.bleed > 0 && image.bleed && !p.nested { rect = bledSize(rect, p) }
            checkResolution(placed.image, drawn: rect, p)
            checkColour(placed.image, p)
            // A box's image stands in the box's own coordinates: its box's text names no image.
            if !p.nested {
                let subject = InkSubject(
                    rect: rect, name: FilePath.name(of: image.source), path: image.path, file: p.file, location: image.location, length: 4)
                pictures[p.index, default: []].append(subject)
            }
        }
        for l in p.lines where !l.line.paragraph.text.attachments.isEmpty {
            for a in l.line.paragraph.text.attachments(in: l.bytes) where a.width > 0 && a.height > 0 {
                checkResolution(a.image, drawn: Rect(x: 0, y: 0, width: a.width, height: a.height), p)
                checkColour(a.image, p)
            }
        }
    }

    /// The size a `bleed="true"` image is drawn at: scaled in proportion to cover the bleed
    /// where it touches the trim (as `PageRenderer.drawBleeding` draws it).
    private func bledSize(_ rect: Rect, _ p: PreflightPage) -> Rect {
        let edges = TrimEdges(touchedBy: rect, trimWidth: p.page.width, trimHeight: p.page.height)
        guard !edges.isEmpty, rect.width > 0, rect.height > 0 else { return rect }
        let w = rect.width + (edges.contains(.left) ? p.bleed : 0) + (edges.contains(.right) ? p.bleed : 0)
        let h = rect.height + (edges.contains(.top) ? p.bleed : 0) + (edges.contains(.bottom) ? p.bleed : 0)
        let s = max(w / rect.width, h / rect.height)
        return Rect(x: rect.x, y: rect.y, width: rect.width * s, height: rect.height * s)
    }

    /// An issue's cover or insert, drawn to cover the page and (on a press sheet) its bleed,
    /// on page `index` of the PDF; `manifest` and `location` are where it was named. An image
    /// that cannot be read is left to the build, which refuses it.
    public mutating func checkFullPageImage(
        _ path: String, index: Int, width: Double, height: Double, bleed: Double, manifest: String, at location: SourceLocation?
    ) {
        let page = Rect(x: -bleed, y: -bleed, width: width + 2 * bleed, height: height + 2 * bleed)
        pictures[index, default: []].append(
            InkSubject(rect: page, name: FilePath.name(of: path), path: path, file: manifest, location: location, length: 1))
        guard case .success(let info) = ImageInfo.read(path: path), info.format != .svg, info.pixelWidth > 0, info.pixelHeight > 0
        else { return }
        let ppi = min(Double(info.pixelWidth) / (width + 2 * bleed), Double(info.pixelHeight) / (height + 2 * bleed)) * 72
        guard ppi < PreflightLimits.imagePPI else { return }
        once(
            "page-image|\(path)|\(index)",
            PreflightFinding(
                .lowResolution, severity(.lowResolution, ppi: ppi), page: index, file: manifest, at: location,
                "image '\(FilePath.name(of: path))' fills the page at \(Int(ppi.rounded(.down))) ppi; print wants \(Int(PreflightLimits.imagePPI))",
                value: ppi.rounded(.down), subject: path))
    }

    private mutating func checkResolution(_ index: Int, drawn rect: Rect, _ p: PreflightPage) {
        let image = p.story.images[index]
        guard image.info.format != .svg, image.info.pixelWidth > 0, image.info.pixelHeight > 0, rect.width > 0, rect.height > 0
        else { return }
        let ppi = min(Double(image.info.pixelWidth) / rect.width, Double(image.info.pixelHeight) / rect.height) * 72
        guard ppi < PreflightLimits.imagePPI else { return }
        // The widest it may be placed at 300 ppi, to say what would do.
        let widest = Double(image.info.pixelWidth) / PreflightLimits.imagePPI * 72
        let name = FilePath.name(of: image.source)
        once(
            p.key("ppi", index, p.index),
            PreflightFinding(
                .lowResolution, severity(.lowResolution, ppi: ppi), page: p.index, file: p.file, at: image.location, length: 4,
                "image '\(name)' is \(Int(ppi.rounded(.down))) ppi at its placed size; print wants \(Int(PreflightLimits.imagePPI)) (place it at most \(preflightNumber(widest)) pt wide, or use a larger file)",
                value: ppi.rounded(.down), subject: image.path))
    }

    /// An image whose colours the PDF does not keep as the file has them: a CMYK JPEG is drawn
    /// as RGB (its inks come back otherwise), and an image's own ICC profile is not used (its
    /// colours are taken as sRGB: Adobe RGB greens print duller). Once an image.
    private mutating func checkColour(_ index: Int, _ p: PreflightPage) {
        let image = p.story.images[index]
        guard image.info.cmyk || image.info.embeddedProfile || PNGProfile.isOtherThanSRGB(image.path, at: image.info.iccpOffset)
        else { return }
        let name = FilePath.name(of: image.source)
        let what =
            image.info.cmyk
            ? "image '\(name)' is CMYK: it is drawn as RGB, and its inks are separated again for the output intent (convert it to RGB yourself to see what prints)"
            : "image '\(name)' has an ICC profile of its own, which is not used: its colours are taken as sRGB (convert it to sRGB)"
        once(
            "colour|\(image.path)",
            PreflightFinding(
                .imageColour, severity(.imageColour), page: p.index, file: p.file, at: image.location, length: 4, what, subject: image.path)
        )
    }

    // MARK: - Text under 6 pt

    /// Text as placed: each paragraph's runs at their size, narrowed by a horizontal scale (a
    /// condensed letter is as hard to print as a smaller one); captions and running lines at
    /// the template's sizes. Once per paragraph, at its first run under the limit.
    mutating func checkTextSize(_ p: PreflightPage) {
        let limit = PreflightLimits.textSize
        let styles = p.story.styles
        for l in p.lines where l.facts.smallText {
            let (line, bytes, text) = (l.line, l.bytes, l.line.paragraph.text)
            for run in text.runs(meeting: bytes) {
                let style = styles[Int(run.style)]
                let size = style.printedSize
                guard size < limit else { continue }
                let start = text.storyStart + max(bytes.lowerBound, Int(run.bytes.lowerBound))
                once(
                    p.key("size", line.paragraphIndex),
                    PreflightFinding(
                        .smallText, page: p.index, file: p.file, at: p.location(ofByte: start),
                        "text set at \(preflightBelow(size)) pt; print wants at least \(preflightNumber(limit)) pt", value: size))
                break
            }
        }
        let t = p.framesetter.template
        for placed in p.images where placed.caption != nil && t.caption.size < limit {
            let image = p.story.images[placed.image]
            once(
                p.key("size-caption", placed.image),
                PreflightFinding(
                    .smallText, page: p.index, file: p.file, at: image.location, length: 4,
                    "the caption is set at \(preflightBelow(t.caption.size)) pt (the template's caption.size); print wants at least \(preflightNumber(limit)) pt",
                    value: t.caption.size))
        }
        for (name, spec, shown) in [("header", t.header, p.page.header != nil), ("footer", t.footer, p.page.footer != nil)]
        where shown && spec.size < limit {
            once(
                p.key("size-" + name),
                PreflightFinding(
                    .smallText, page: p.index, file: p.file, at: nil,
                    "the \(name) is set at \(preflightBelow(spec.size)) pt (the template's \(name).size); print wants at least \(preflightNumber(limit)) pt",
                    value: spec.size))
        }
    }

    // MARK: - Rules under 0.25 pt

    /// What is drawn as a stroke: underlines and strikethroughs (measured as the renderer
    /// draws them, from the fonts' thicknesses), text outlines (`strokeWidth`), and the rules
    /// and frames of pull quotes and sidebars. Once per paragraph and kind of rule.
    mutating func checkRules(_ p: PreflightPage) {
        let limit = PreflightLimits.ruleWidth
        let styles = p.story.styles
        for l in p.lines where l.facts.strokes {
            let (line, bytes, text) = (l.line, l.bytes, l.line.paragraph.text)
            var decorated = false
            for run in text.runs(meeting: bytes) {
                let style = styles[Int(run.style)]
                decorated = decorated || style.isDecorated
                guard style.hasThinOutline else { continue }
                let at = p.location(ofByte: text.storyStart + max(bytes.lowerBound, Int(run.bytes.lowerBound)))
                thinRule(p, "outline", line.paragraphIndex, at: at, width: style.outlineWidth, what: "a text outline (strokeWidth)")
            }
            if decorated { checkDecorations(line, p) }
        }
        for placed in p.images {
            guard let box = placed.block?.block.box else { continue }
            let at = p.story.images[placed.image].location
            for (width, what) in [(box.rule, "a rule of this box"), (box.frame, "the frame of this box")]
            where width > 0 && width < limit {
                thinRule(p, what, placed.image, at: at, width: width, what: what)
            }
        }
    }

    /// A line's underlines and strikethroughs as the renderer draws them (its segments join
    /// runs and take the thickest font's thickness).
    private mutating func checkDecorations(_ line: PlacedLine, _ p: PreflightPage) {
        let id = ObjectIdentifier(p.framesetter)
        let renderer = renderers[id] ?? PageRenderer(framesetter: p.framesetter)
        renderers[id] = renderer
        let runs = renderer.place(line)
        for kind in [DecorationKind.underline, .strikethrough] {
            for segment in renderer.decorationSegments(runs, kind: kind) {
                let width = PageRenderer.thinnestStroke(segment)
                guard width < PreflightLimits.ruleWidth else { continue }
                let what = kind == .underline ? "an underline" : "a strikethrough"
                let byte = runs.runs.first { $0.start <= segment.x0 + 0.01 && $0.end > segment.x0 }?.run.storyRange.lowerBound
                let at = p.location(ofByte: byte ?? line.storyRange.lowerBound)
                thinRule(p, "\(kind)", line.paragraphIndex, at: at, width: width, what: what)
            }
        }
    }

    private mutating func thinRule(_ p: PreflightPage, _ rule: String, _ owner: Int, at: SourceLocation?, width: Double, what: String) {
        once(
            p.key("rule", rule, owner),
            PreflightFinding(
                .thinRule, page: p.index, file: p.file, at: at,
                "\(what) is \(preflightBelow(width, places: 2)) pt wide; print wants at least \(preflightNumber(PreflightLimits.ruleWidth, places: 2)) pt",
                value: width))
    }

    // MARK: - Overset text

    /// Text that did not fit: lines set past their column (wider than it, or below its foot,
    /// placed anyway), pull quotes and sidebars cut at their box, captions cut at half the
    /// room. Once per paragraph and page.
    mutating func checkOverset(_ p: PreflightPage) {
        guard !p.nested else { return }
        for frame in p.page.frames {
            for l in frame.lines {
                let below = l.box.maxY > frame.rect.maxY + 0.01
                guard l.overfull || below else { continue }
                let long = l.vertical ? "is longer than its vertical block is tall" : "is wider than its column"
                let past = [l.overfull ? long : nil, below ? "runs below the foot of its column" : nil]
                    .compactMap { $0 }.joined(separator: " and ")
                once(
                    p.key("overset", l.paragraphIndex, p.index),
                    PreflightFinding(
                        .overset, severity(.overset), page: p.index, file: p.file, at: p.location(ofByte: l.storyRange.lowerBound),
                        "text \(past): it does not fit where it is set"))
            }
        }
        for placed in p.images {
            let image = p.story.images[placed.image]
            if let set = placed.block, set.textHeight > placed.rect.height - set.block.box.verticalExtra + 0.5 {
                once(
                    p.key("overset-block", placed.image),
                    PreflightFinding(
                        .overset, severity(.overset), page: p.index, file: p.file, at: image.location,
                        "this \(set.block.kind == .pullquote ? "pull quote" : "sidebar")'s text is longer than its box; the rest is not printed"
                    ))
            } else if let caption = placed.caption, let box = placed.captionRect,
                p.framesetter.engine.captionHeight(caption, width: box.width, style: p.framesetter.template.caption) > box.height + 1
            {
                once(
                    p.key("overset-caption", placed.image),
                    PreflightFinding(
                        .overset, severity(.overset), page: p.index, file: p.file, at: image.location, length: 4,
                        "the caption of image '\(FilePath.name(of: image.source))' is cut; the rest is not printed"))
            }
        }
    }

    // MARK: - Missing glyphs

    /// Characters no installed font has, printed as boxes: once per character, where it is
    /// first placed (as the layout's own warning).
    mutating func checkMissingGlyphs(_ p: PreflightPage) {
        for l in p.lines where l.facts.missingGlyphs {
            let text = l.line.paragraph.text
            text.missingCharacters(in: l.bytes) { byte, c in
                once(
                    p.key("glyph", c.value),
                    PreflightFinding(
                        .missingGlyph, severity(.missingGlyph), page: p.index, file: p.file,
                        at: p.location(ofByte: text.storyStart + byte),
                        "no installed font has \(c.described); it would print as a box", subject: c.described))
            }
        }
    }

    // MARK: - Objects at the trim that do not reach the bleed

    /// What touches the page's edge without being drawn into the bleed: a cut a little inside
    /// the trim leaves it standing on a sliver of paper, a little outside shaves it. The paper,
    /// backgrounds of boxes and `bleed="true"` images run on into the bleed (when the template
    /// gives one); images without it, text, captions, drop caps and framed boxes do not.
    mutating func checkTrim(_ p: PreflightPage) {
        guard !p.nested else { return }
        // A printed page colour meets every edge: with no bleed, a cut a little outside the
        // trim shows the white paper under it.
        if p.bleed == 0, let paper = p.framesetter.template.pageColor, paper.alpha > 0,
            min(paper.red, paper.green, paper.blue) < 0.999
        {
            once(
                "trim|paper",
                PreflightFinding(
                    .noBleed, page: p.index, file: p.file, at: nil,
                    "the page colour fills the page to its edges but does not reach the bleed; the template's print.bleed is 0"))
        }
        for placed in p.images {
            let edges = TrimEdges(touchedBy: placed.rect, trimWidth: p.page.width, trimHeight: p.page.height)
            guard !edges.isEmpty, !bleeds(placed, edges, p) else { continue }
            let image = p.story.images[placed.image]
            let what = placed.block.map { $0.block.kind == .pullquote ? "this pull quote's box" : "this sidebar's box" }
            let advice =
                placed.block != nil
                ? "give it a background and no frame, or keep it inside the page"
                : p.bleed > 0 ? "add bleed=\"true\", or keep it inside the page" : "the template's print.bleed is 0"
            atTrim(p, "image", placed.image, edges, at: image.location, what ?? "image '\(FilePath.name(of: image.source))'", advice)
            if let caption = placed.captionRect {
                let e = TrimEdges(touchedBy: caption, trimWidth: p.page.width, trimHeight: p.page.height)
                if !e.isEmpty { atTrim(p, "caption", placed.image, e, at: image.location, "its caption", "keep text inside the page") }
            }
        }
        for frame in p.page.frames {
            for l in frame.lines {
                let edges = TrimEdges(touchedBy: inkBox(l), trimWidth: p.page.width, trimHeight: p.page.height)
                guard !edges.isEmpty else { continue }
                atTrim(
                    p, "text", l.paragraphIndex, edges, at: p.location(ofByte: l.storyRange.lowerBound), "text", "keep text inside the page"
                )
            }
            for cap in frame.dropCaps {
                let edges = TrimEdges(touchedBy: cap.rect, trimWidth: p.page.width, trimHeight: p.page.height)
                if edges.isEmpty { continue }
                atTrim(
                    p, "dropcap", cap.paragraphIndex, edges, at: p.location(ofByte: cap.storyRange.lowerBound), "a drop cap",
                    "keep text inside the page")
            }
        }
    }

    /// Whether a placed image or box is carried into the bleed on every edge it touches.
    private func bleeds(_ placed: PlacedImage, _ edges: TrimEdges, _ p: PreflightPage) -> Bool {
        guard p.bleed > 0 else { return false }
        guard let set = placed.block else { return p.story.images[placed.image].bleed }
        // A box's background bleeds; its frame does not, nor its rules at the top and bottom.
        let box = set.block.box
        return box.background != nil && box.frame == 0 && (box.rule == 0 || edges.isDisjoint(with: [.top, .bottom]))
    }

    /// The part of a line's box its text covers: from the line's start to the end of its
    /// content across, the whole box up and down (a vertical line's strip, whole).
    private func inkBox(_ l: PlacedLine) -> Rect {
        guard !l.vertical else { return l.box }
        let x = l.origin.x + l.paragraph.lines[l.lineIndex].alignOffset
        return Rect(x: x, y: l.box.y, width: max(0, l.contentWidth), height: l.box.height)
    }

    private mutating func atTrim(
        _ p: PreflightPage, _ thing: String, _ owner: Int, _ edges: TrimEdges, at: SourceLocation?, _ what: String, _ advice: String
    ) {
        once(
            p.key("trim", thing, owner, p.index),
            PreflightFinding(
                .noBleed, page: p.index, file: p.file, at: at,
                "\(what) touches \(edges.described) of the page but does not reach the bleed; \(advice)"))
    }

    // MARK: - Fonts whose licence forbids embedding

    /// Notes the fonts of the page's lines and drop caps (each with the first page it is on).
    mutating func collectFonts(_ p: PreflightPage) {
        // Every line of a paragraph has the paragraph's fonts: those known are passed over
        // whole, without hashing a font key a line.
        var known: ObjectIdentifier?
        for l in p.lines {
            let id = ObjectIdentifier(l.line.paragraph)
            if id == known { continue }
            if l.facts.fonts.isSubset(of: fontKeys) {
                known = id
                continue
            }
            for run in l.line.paragraph.text.runs(meeting: l.bytes) where fontKeys.insert(run.font).inserted {
                fonts.append((run.font, p.index, p.framesetter))
            }
        }
        for cap in p.page.frames.flatMap(\.dropCaps) {
            if let key = cap.paragraph.text.dropCap?.font, fontKeys.insert(key).inserted { fonts.append((key, p.index, p.framesetter)) }
        }
    }

    /// What a font's OS/2 `fsType` forbids that a PDF does, nil for nothing: restricted-licence
    /// embedding (bit 1, unless a less restrictive usage bit is set too: they are exclusive,
    /// and the least restrictive wins), no subsetting (bit 8: every font here is a subset), or
    /// bitmap embedding only (bit 9: the outlines are what is embedded).
    static func licenceForbids(_ fsType: UInt16) -> String? {
        if fsType & 0x0002 != 0 && fsType & 0x000C == 0 { return "restricted-licence embedding" }
        if fsType & 0x0100 != 0 { return "no subsetting, and a PDF embeds the glyphs it uses as a subset" }
        if fsType & 0x0200 != 0 { return "bitmap embedding only, and a PDF embeds outlines" }
        return nil
    }

    /// Reads each font file's embedding bits (OS/2 `fsType`, through FreeType) once.
    mutating func checkFontLicences() {
        var files: Set<String> = []
        for (key, page, framesetter) in fonts {
            let licence = framesetter.engine.embeddingLicence(key)
            let file = licence.file ?? "?"
            guard files.insert(file).inserted, let why = Self.licenceForbids(licence.fsType) else { continue }
            let family = licence.family ?? "?"
            findings.append(
                PreflightFinding(
                    .fontLicence, severity(.fontLicence), page: page, file: nil, at: nil,
                    "font '\(family)' (\(file)) may not be embedded as a PDF needs: its licence bits (OS/2 fsType 0x\(String(licence.fsType, radix: 16, uppercase: true))) say \(why); ask the foundry for an embeddable licence, or use another face",
                    subject: file))
        }
    }
}
