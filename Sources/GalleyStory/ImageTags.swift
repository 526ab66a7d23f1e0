import FoundationEssentials
import GalleyMarkup
import GalleySupport
import GalleyTemplate
import Glibc

extension StoryBuilder {
    /// Why an image is refused: the folder images come from, and how to widen it. The same
    /// words whether or not the file exists.
    static func outsideRoot(_ value: String, _ root: String) -> String {
        "cannot use image '\(value)': it is outside '\(root.isEmpty ? "." : root)', the folder images are read from; "
            + "run with --root DIR to read files under DIR"
    }
}

// `<img>`: the image's file and size, where it goes (a block, inline, a float, across the
// page) and how text wraps it, read from the tag's attributes and checked.
extension StoryBuilder.Run {
    mutating func image(_ tag: MarkupTag) {
        guard let src = tag.attribute("src") else {
            diagnostics.append(.error("<img> needs a src attribute", file: file, at: tag.location, length: 4))
            return
        }
        let value = src.value.trimmed()
        if value.isEmpty {
            error("empty image src", src)
            return
        }
        // A URL would be read as a path and reported missing, which sends one looking for a file.
        if let scheme = Self.urlScheme(value) {
            error("image src '\(value)' is a \(scheme): URL; Galley reads images from files only: download it and name the file", src)
            return
        }
        // Sizes: numbers or lengths are points; `width="40%"` is a share of the column.
        var widthSpec: ImageLength?
        var width: Double?
        if let w = tag.attribute("width") {
            let v = w.value.trimmed()
            if v.hasSuffix("%") {
                if let p = Double(v.dropLast().trimmed()), p > 0, p <= 100 {
                    widthSpec = .percent(p)
                } else {
                    error("width must be a percentage above 0 and at most 100, got '\(w.value)'", w)
                    return
                }
            } else {
                guard let n = number(w, what: "width", positive: true, maximum: 100_000) else { return }
                width = n
                // A bare number is points, as in the Core Text tutorial's files; a small one
                // may be a percentage whose sign was forgotten.
                if Self.isPlainDecimal(v), n <= 100 {
                    diagnostics.append(
                        .warning(
                            "width=\"\(v)\" is \(v) pt (a bare number is points); write \"\(v)pt\" to say so, "
                                + "or \"\(v)%\" for a share of the column", file: file, at: w.valueLocation,
                            length: max(1, w.value.unicodeScalars.count)))
                }
            }
        }
        var height: Double?
        if let h = tag.attribute("height") {
            guard let n = number(h, what: "height", positive: true, maximum: 100_000) else { return }
            height = n
            // A share of the column and a length give no proportions: the file's are kept.
            if case .percent = widthSpec {
                warning("height has no effect beside a width in percent; the image keeps its own proportions", h)
            }
        }
        let path = value.hasPrefix("/") ? value : FilePath.join(builder.baseDirectory, value)
        guard FileRoot(builder.root).admits(path) else {
            error(StoryBuilder.outsideRoot(value, builder.root), src)
            return
        }
        let info: ImageInfo
        switch ImageInfo.read(path: path) {
        case .success(let i): info = i
        case .failure(let e):
            refusedFiles.append(path)
            error("cannot use image '\(value)': \(e.message)", src)
            return
        }
        if let problem = ImageLimits.problem(info, at: path, maxPixels: builder.template.maxImagePixels) {
            refusedFiles.append(path)
            error("cannot use image '\(value)': \(problem)", src)
            return
        }
        // An SVG's own images that librsvg leaves out: the picture is drawn without them.
        if SVGReferences.isSVG(path) {
            for (written, why) in SVGReferences.unusable(of: path) {
                diagnostics.append(
                    .warning(
                        "image '\(value)' draws '\(written)', which is left out: \(why)", file: file, at: src.valueLocation,
                        length: max(1, src.value.unicodeScalars.count)))
            }
        }
        var image = ImageReference(source: value, path: path, info: info, width: width, height: height, location: tag.location)
        image.sourceValue = src.valueLocation
        image.widthSpec = widthSpec
        guard let placement = placement(tag), let options = wrapOptions(tag, info: info) else { return }
        image.placement = placement
        (image.wrap, image.margin, image.shape) = options
        if let b = tag.attribute("bleed") {
            switch b.value.trimmed().lowercased() {
            case "true", "yes", "": image.bleed = true
            case "false", "no": image.bleed = false
            default:
                error("bleed must be true or false, got '\(b.value)'", b)
                return
            }
        }
        if let c = tag.attribute("caption") {
            let caption = c.value.trimmed()
            // A caption is prose set on the page, so it gets the text's punctuation.
            let typeset = scope.literal || !builder.template.typography.isActive ? caption : punctuationRules().rewrite(caption)
            image.caption = caption.isEmpty ? nil : typeset
        }
        put(image, tag)
    }

    /// Puts a float or block in the text: where it was met (inline, or a float anchored in
    /// running text), or as a paragraph of its own.
    mutating func put(_ image: ImageReference, _ tag: MarkupTag) {
        switch image.placement {
        case .inline:
            anchor(image, tag)
            return
        case .float, .span, .top, .bottom:
            // Inside running text the float is anchored there; on a line of its own it is a
            // paragraph of its own, like a block image.
            if !paragraphIsEmpty && pendingNewlines == 0 {
                anchor(image, tag)
                return
            }
        case .block:
            break
        }
        images.append(image)
        // A block image is a paragraph of its own: end the text before it. A newline
        // pending before it (blank-line mode) ends that text; it is not a space.
        dropNewlines()
        if !paragraphIsEmpty { endParagraph(at: tag.location) }
        let start = text.utf8.count
        sourceMap.add(storyOffset: start, storyCharacters: characters, source: tag.location, linear: false)
        add("\u{FFFC}", style: internScopeText())
        let end = text.utf8.count
        addParagraph(range: start..<end, end: end + 1, content: .image(images.count - 1))
        text += "\n"
        characters += 1
        paragraphStart = text.utf8.count
        paragraphFirstRun = runs.count
        afterBlock = true
    }

    /// An image standing in the text at this point (inline, or a float's anchor): its U+FFFC
    /// goes into the paragraph, in the style in force.
    mutating func anchor(_ image: ImageReference, _ tag: MarkupTag) {
        var image = image
        flushNewlines(before: "\u{FFFC}")
        openWantedIsolates(at: tag.location)
        image.anchor = text.utf8.count
        images.append(image)
        insert("\u{FFFC}", at: tag.location)
    }

    /// Where the image goes: `inline`; `float="left|right|center|top|bottom"`; `span="page"`
    /// or `columns="2"` (across all columns); else the tutorial's block.
    mutating func placement(_ tag: MarkupTag) -> ImagePlacement? {
        if let i = tag.attribute("inline"), ["", "true", "inline", "yes"].contains(i.value.lowercased()) {
            // An image in the line goes with its text: a float or span asked too had no effect, unsaid.
            for name in ["float", "span"] {
                if let a = tag.attribute(name) {
                    warning("\(name)=\"\(a.value)\" has no effect on an inline image, which is set in its line", a)
                }
            }
            return .inline
        }
        if tag.attribute("class")?.value == "emoticon" { return .inline }
        var result = ImagePlacement.block
        if let f = tag.attribute("float") {
            let v = f.value.trimmed().lowercased()
            switch v {
            case "left": result = .float(.left)
            case "right": result = .float(.right)
            case "center", "centre": result = .float(.center)
            case "top": result = .top
            case "bottom": result = .bottom
            case "none", "": result = .block
            default:
                let options = ["left", "right", "center", "top", "bottom", "none"]
                var message = "unknown float '\(f.value)'"
                if let s = Suggestion.closest(to: v, in: options) { message += "; did you mean '\(s)'?" }
                error(message + " (use left, right, center, top, bottom or none)", f)
                return nil
            }
        }
        let spansPage = tag.attribute("span").map { ["page", "columns", "all", "true", ""].contains($0.value.lowercased()) } ?? false
        let columns = tag.attribute("columns").flatMap { Int($0.value.trimmed()) } ?? 1
        if let c = tag.attribute("columns"), Int(c.value.trimmed()) == nil {
            error("columns must be a whole number, got '\(c.value)'", c)
            return nil
        }
        if let s = tag.attribute("span"), !spansPage {
            error("span must be 'page', got '\(s.value)'", s)
            return nil
        }
        if spansPage || columns > 1 {
            switch result {
            case .top, .bottom: break
            default: result = .span
            }
        }
        return result
    }

    /// `wrap`, `margin` and `shape`. A contour with no shape follows a PNG's alpha channel.
    mutating func wrapOptions(_ tag: MarkupTag, info: ImageInfo) -> (WrapMode, Double, ImageShape)? {
        var wrap = WrapMode.both
        if let w = tag.attribute("wrap") {
            let v = w.value.trimmed().lowercased()
            guard let mode = WrapMode(rawValue: v) else {
                var message = "unknown wrap '\(w.value)'"
                if let s = Suggestion.closest(to: v, in: WrapMode.allCases.map(\.rawValue)) { message += "; did you mean '\(s)'?" }
                error(message + " (use both, left, right, none or contour)", w)
                return nil
            }
            wrap = mode
        }
        var margin = 6.0
        if let m = tag.attribute("margin") {
            guard let v = number(m, what: "margin", positive: false, maximum: 1000), v >= 0 else {
                if let v = Double(m.value), v < 0 { error("margin must be 0 or more, got '\(m.value)'", m) }
                return nil
            }
            margin = v
        }
        var shape = wrap == .contour && info.format == .png ? ImageShape.alpha : ImageShape.box
        if let sh = tag.attribute("shape") {
            guard let parsed = parseShape(sh, info: info) else { return nil }
            shape = parsed
            if wrap == .both { wrap = .contour }  // a shape is only worth giving to follow it
        }
        return (wrap, margin, shape)
    }

    /// `circle`, `ellipse`, `alpha`, `box`, or `polygon(x y, x y, …)` in the image's pixels
    /// (or percentages of its size).
    mutating func parseShape(_ a: MarkupAttribute, info: ImageInfo) -> ImageShape? {
        let v = a.value.trimmed()
        switch v.lowercased() {
        case "circle", "ellipse": return .ellipse
        case "alpha":
            if info.format != .png {
                warning("a \(info.format.rawValue.uppercased()) image has no alpha channel to follow; its box is used", a)
            }
            return .alpha
        case "box", "rectangle": return .box
        default: break
        }
        guard v.lowercased().hasPrefix("polygon(") && v.hasSuffix(")") else {
            var message = "unknown shape '\(a.value)'"
            if let s = Suggestion.closest(to: v.lowercased(), in: ["circle", "ellipse", "alpha", "box", "polygon"]) {
                message += "; did you mean '\(s)'?"
            }
            error(message + " (use circle, ellipse, alpha, box or polygon(x y, …))", a)
            return nil
        }
        let inner = v.dropFirst("polygon(".count).dropLast()
        var coords: [Double] = []
        for (k, point) in inner.split(separator: ",").enumerated() {
            let parts = point.split(whereSeparator: { $0 == " " || $0 == "\t" })
            // Plain decimals only, as every number in markup: no nan, inf or exponents, whose
            // points would lie nowhere (or a world away) on the image.
            let values = parts.enumerated().map { (axis, p) -> Double? in
                let s = String(p)
                let percent = s.hasSuffix("%")
                let digits = percent ? String(s.dropLast()) : s
                guard Self.isPlainDecimal(digits), let v = Double(digits), abs(v) <= 1_000_000 else { return nil }
                return percent ? v / 100 * Double(axis == 0 ? info.pixelWidth : info.pixelHeight) : v
            }
            guard parts.count == 2, let x = values[0], let y = values[1] else {
                error(
                    "malformed polygon: point \(k + 1) is '\(point.trimmed())'; write 'x y' pairs separated by commas",
                    a)
                return nil
            }
            coords += [x, y]
        }
        guard coords.count >= 6 else {
            error("malformed polygon: it needs at least 3 points, got \(coords.count / 2)", a)
            return nil
        }
        // Points are the image's pixels: one off it is most likely a slip (a minus sign, a
        // point of a larger version of the picture), and the text then runs over the picture.
        let (w, h) = (Double(info.pixelWidth), Double(info.pixelHeight))
        if let k = stride(from: 0, to: coords.count, by: 2).first(where: {
            !(0...w).contains(coords[$0]) || !(0...h).contains(coords[$0 + 1])
        }) {
            warning(
                "polygon point \(k / 2 + 1) (\(StoryDump.number(coords[k])) \(StoryDump.number(coords[k + 1]))) lies off the image, "
                    + "which is \(info.pixelWidth)×\(info.pixelHeight) pixels: points are the image's pixels (or percentages)", a)
        }
        return .polygon(coords)
    }
}
