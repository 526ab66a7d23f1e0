import GalleyMarkup
import GalleySupport
import GalleyTemplate

// `<pullquote>` and `<aside>`: text set in a float of its own. Their nodes are lifted out of
// the document before it is built, built as a story of their own in the template's named
// style (`pullquote`, `sidebar`, or the tag's `class`), and stand in the text as a float.
extension StoryBuilder {
    static let blockTags: Set<String> = ["pullquote", "aside"]

    /// The nodes with each `<pullquote>…</pullquote>` and `<aside>…</aside>` replaced by its
    /// start tag alone (self-closing), and the nodes each held, in order. One inside another is
    /// an error (a float cannot hold a float), and its tags are dropped; an unclosed one runs
    /// to the end of the text, with an error. Linear: each node is looked at once.
    static func liftBlocks(_ nodes: [MarkupNode], file: String, diagnostics: inout Diagnostics) -> ([MarkupNode], [[MarkupNode]]) {
        var main: [MarkupNode] = []
        var blocks: [[MarkupNode]] = []
        var open: MarkupTag?
        var inner: [MarkupNode] = []
        for node in nodes {
            switch node {
            case .startTag(let t) where blockTags.contains(t.name):
                if let outer = open {
                    diagnostics.append(
                        .error(
                            "a <\(t.name)> cannot stand inside the <\(outer.name)> opened at \(outer.location); it is ignored",
                            file: file, at: t.location, length: t.name.utf8.count + 1))
                    continue
                }
                var tag = t
                tag.selfClosing = true
                main.append(.startTag(tag))
                if t.selfClosing {
                    blocks.append([])
                } else {
                    open = t
                }
            case .endTag(let name, _) where blockTags.contains(name) && open != nil:
                if name != open!.name { continue }  // the end of an ignored inner one
                blocks.append(inner)
                inner = []
                open = nil
            default:
                if open != nil { inner.append(node) } else { main.append(node) }
            }
        }
        if let t = open {
            diagnostics.append(
                .error(
                    "<\(t.name)> is never closed; close it with </\(t.name)>", file: file, at: t.location, length: t.name.utf8.count + 1))
            blocks.append(inner)
        }
        return (main, blocks)
    }
}

extension StoryBuilder.Run {
    /// A pull quote or sidebar met in the text: its story, its box, and the float standing for it.
    mutating func blockFloat(_ tag: MarkupTag) {
        guard nextBlock < blockNodes.count else { return }
        let nodes = blockNodes[nextBlock]
        nextBlock += 1
        let kind: TextBlock.Kind = tag.name == "pullquote" ? .pullquote : .sidebar
        let styleName = tag.attribute("class")?.value.trimmed() ?? (kind == .pullquote ? "pullquote" : "sidebar")
        var styleAttributes = builder.template.resolvedStyle(styleName) ?? []
        if builder.template.style(named: styleName) == nil, let c = tag.attribute("class") {
            var message = "unknown class '\(styleName)'"
            if let near = Suggestion.closest(to: styleName, in: builder.template.styles.map(\.name)) {
                message += "; did you mean '\(near)'?"
            }
            diagnostics.append(.warning(message, file: file, at: c.valueLocation, length: max(1, c.value.unicodeScalars.count)))
        }
        let styleSpot =
            tag.attribute("class") ?? MarkupAttribute(name: tag.name, value: "", nameLocation: tag.location, valueLocation: tag.location)
        let box = blockBox(&styleAttributes, at: styleSpot)
        let story = blockStory(nodes, styleAttributes, at: styleSpot, location: tag.location)
        blocks.append(TextBlock(kind: kind, story: story, location: tag.location, box: box))
        var image = ImageReference(
            source: "<\(tag.name)>", path: "", info: ImageInfo(format: .png, pixelWidth: 1, pixelHeight: 1), width: nil, height: nil,
            location: tag.location)
        image.block = blocks.count - 1
        guard let placement = blockPlacement(tag, kind: kind), let width = blockWidth(tag, kind: kind, placement: placement) else { return }
        image.placement = placement
        image.widthSpec = width
        image.wrap = placement == .top || placement == .bottom ? .none : .both
        if let m = tag.attribute("margin") {
            guard let v = number(m, what: "margin", positive: false, maximum: 200) else { return }
            guard v >= 0 else {
                error("margin must be 0 or more, got '\(m.value)'", m)
                return
            }
            image.margin = v
        } else {
            image.margin = kind == .pullquote ? 8 : 6
        }
        put(image, tag)
    }

    /// The block's own story: its nodes built in the style, on the page's template without a
    /// first-line indent (a quote or a sidebar opens with its first paragraph) and without the
    /// template's automatic drop caps (an initial belongs to the article, not to its boxes).
    mutating func blockStory(
        _ nodes: [MarkupNode], _ attributes: [StyleAttribute], at spot: MarkupAttribute, location: SourceLocation
    )
        -> Story
    {
        var sub = builder
        sub.template.firstLineIndent = 0
        sub.template.dropCap.after = 0
        var run = StoryBuilder.Run(builder: sub, file: file)
        let styled = MarkupTag(
            name: "p",
            attributes: attributes.map {
                MarkupAttribute(name: $0.name, value: $0.value, nameLocation: spot.nameLocation, valueLocation: spot.valueLocation)
            },
            location: location, selfClosing: false)
        run.applyCharacterAttributes(styled)
        run.applyParagraphAttributes(styled)
        // Across the columns, or a drop cap, mean nothing inside a float.
        run.scope.paragraph.spansColumns = false
        for i in nodes.indices {
            let beforeNewline: Bool
            if i + 1 < nodes.count, case .newline = nodes[i + 1] { beforeNewline = true } else { beforeNewline = false }
            run.visit(nodes[i], beforeNewline: beforeNewline)
        }
        let (story, found) = run.finish()
        diagnostics.append(contentsOf: found)
        return story
    }

    /// Takes the box's attributes out of the style (`rule`, `ruleColor`, `frame`, `frameColor`,
    /// `padding`, and `background`, which colours the box rather than the text's lines).
    mutating func blockBox(_ attributes: inout [StyleAttribute], at spot: MarkupAttribute) -> BlockBox {
        var box = BlockBox()
        var rest: [StyleAttribute] = []
        // A width below 0 was taken as 0 in silence (a padding of -20 set the text on the frame).
        func width(_ v: MarkupAttribute, _ what: String, maximum: Double) -> Double {
            guard let n = number(v, what: what, positive: false, maximum: maximum) else { return 0 }
            if n < 0 { error("\(what) must be 0 or more, got '\(v.value)'", v) }
            return max(0, n)
        }
        for a in attributes {
            var v = spot
            v.value = a.value
            switch a.name.lowercased() {
            case "rule": box.rule = width(v, "rule", maximum: 20)
            case "frame": box.frame = width(v, "frame", maximum: 20)
            case "padding": box.padding = width(v, "padding", maximum: 100)
            case "rulecolor": box.ruleColor = color(v) ?? .black
            case "framecolor": box.frameColor = color(v) ?? .black
            case "background": box.background = a.value.trimmed().lowercased() == "none" ? nil : color(v)
            default: rest.append(a)
            }
        }
        attributes = rest
        return box
    }

    /// A pull quote sits across the gutter (`.span`), or in a column with `float="left|right|center"`;
    /// a sidebar at the top of the page (`float="top"`, the default) or its foot, or across the
    /// columns where it is met (`span="page"`).
    mutating func blockPlacement(_ tag: MarkupTag, kind: TextBlock.Kind) -> ImagePlacement? {
        let sides: [String: ImagePlacement] =
            kind == .pullquote
            ? ["left": .float(.left), "right": .float(.right), "center": .float(.center), "centre": .float(.center)]
            : ["top": .top, "bottom": .bottom]
        if kind == .sidebar, let s = tag.attribute("span") {
            guard ["page", "all", "columns"].contains(s.value.trimmed().lowercased()) else {
                error("span must be 'page', got '\(s.value)'", s)
                return nil
            }
            return .span
        }
        guard let f = tag.attribute("float") else { return kind == .pullquote ? .span : .top }
        let v = f.value.trimmed().lowercased()
        if let p = sides[v] { return p }
        let names = sides.keys.filter { $0 != "centre" }.sorted()
        var message = "unknown float '\(f.value)' for <\(tag.name)>"
        if let s = Suggestion.closest(to: v, in: names) { message += "; did you mean '\(s)'?" }
        error(message + " (use \(names.joined(separator: ", ")))", f)
        return nil
    }

    /// `width`: a percentage (of the column, or of the text area across the columns) or points.
    /// By default a pull quote across the gutter takes 40 % of the text area, one in a column
    /// 60 % of it; a sidebar its whole column or text area.
    mutating func blockWidth(_ tag: MarkupTag, kind: TextBlock.Kind, placement: ImagePlacement) -> ImageLength? {
        guard let w = tag.attribute("width") else {
            if kind == .sidebar { return .percent(100) }
            return .percent(placement == .span ? 40 : 60)
        }
        let v = w.value.trimmed()
        if v.hasSuffix("%") {
            guard let p = Double(v.dropLast().trimmed()), p > 0, p <= 100 else {
                error("width must be a percentage above 0 and at most 100, got '\(w.value)'", w)
                return nil
            }
            return .percent(p)
        }
        guard let n = number(w, what: "width", positive: true, maximum: 14400) else { return nil }
        return .points(n)
    }
}
